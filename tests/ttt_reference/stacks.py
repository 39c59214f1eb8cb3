"""Stacks: moves "by stack" and "by full stack", from
docs/rules/ttt/stacks.md.

An ``orth-by-stack`` piece moves from any height and takes every piece
above it along; an ``orth-by-full-stack`` piece moves only from the bottom
of its stack (nothing under it but the floor or a locked cell), taking the
whole stack. Both go any distance along x or y to a stack that has room for
all of them; the carried pieces keep their order and land from that
stack's lowest free height. Every carried cell must be free to leave for
the mover, every landing cell free to enter; the reserves rule and "cannot
move backwards" (with the replacement) look at the mover only. Action
``stk0 + (r1*S + c)*T + u``: c the mover's cell index x + X*(y + Y*z),
r1 = 0, or the replacement shape's index + 1. What the landed mover does to
the pieces it lands on is captures.py's (and pots.py's showdown).
"""

from __future__ import annotations

BY_STACK = ("orth-by-stack", "orth-by-full-stack")


class StacksMixin:
    def _layout_by_stack(self):
        self.stk0 = self.num_actions
        stacky = any(self.props[n]["move"] in BY_STACK for n in self.names)
        self.nstk = (1 + len(self.replacers)) * self.S * self.T if (stacky and self.any_move) else 0
        self.num_actions += self.nstk

    def is_by_stack(self, name):
        return self.props[name]["move"] in BY_STACK

    def is_stack_id(self, a):
        return bool(self.nstk) and a is not None and self.stk0 <= a < self.stk0 + self.nstk

    def stack_move_parts(self, a):
        """(mover's cell, source target, destination target, replacement shape or None) of a by-stack id."""
        r1, rest = divmod(a - self.stk0, self.S * self.T)
        ci, u = divmod(rest, self.T)
        c = self.cell_at(ci)
        return c, self.xyz_target(c[0], c[1], 0), u, (self.replacers[r1 - 1] if r1 else None)

    def carried(self, s, c):
        """The cells that move when seat s moves the by-stack piece on cell c
        (c first), or None when it may not move."""
        if c not in self.board or self.board_of(c) in self.decided:
            return None
        col, name = self.board[c], self.shape[c]
        move = self.props[name]["move"]
        if move not in BY_STACK or col not in self.owned[s] or self.sres[col][name] > 0:
            return None
        x, y, z = c
        # the bottom: on the floor or a locked cell (a seat's view may show an
        # empty cell under the piece: a hidden piece, whose height shows)
        if move == "orth-by-full-stack" and z > 0 and (x, y, z - 1) not in self.locked:
            return None
        cells = [(x, y, h) for h in range(z, self.height(self.xyz_target(x, y, 0)))]
        for w in cells:
            if w in self.locked or w in self.phase_locked() or not self.may_exit(s, w):
                return None
        return cells

    def room(self, s, u, n):
        """Stack u has room for n pieces of seat s, each on a cell it may enter."""
        x, y, _ = self.target_xyz(u)
        h = self.height(u)
        if self.landing(u) is None or h + n > self.Z:
            return False
        return all(
            (x, y, h + j) not in self.phase_locked() and self.may_enter(s, (x, y, h + j)) for j in range(n)
        )

    def stack_moves(self, s):
        out = []
        if not self.nstk or self.phases[self.phase]["movement"] != "allowed":
            return out
        for c in sorted(self.board, key=self.cell_index):
            cells = self.carried(s, c)
            if cells is None:
                continue
            name = self.shape[c]
            f = self.xyz_target(c[0], c[1], 0)
            no_back = self.props[name].get("cannot_move_backwards") and s < len(self.goals)
            for d in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                k = 1
                while True:
                    x, y = c[0] + k * d[0], c[1] + k * d[1]
                    if not (0 <= x < self.X and 0 <= y < self.Y):
                        break
                    if self.board_of((x, y, 0)) != self.board_of(c):
                        break
                    u = self.xyz_target(x, y, 0)
                    if self.room(s, u, len(cells)) and not (
                        no_back and self.goal_dist(s, u) > self.goal_dist(s, f)
                    ):
                        if self.reaches(s, name, f, u):
                            out += [
                                self.stk0 + ((r + 1) * self.S + self.cell_index(c)) * self.T + u
                                for r in range(len(self.replacers))
                            ]
                        else:
                            out.append(self.stk0 + self.cell_index(c) * self.T + u)
                    k += 1
        return out

    def seat_actions(self, s):
        return sorted(super().seat_actions(s) + self.stack_moves(s))

    def after_stack_move(self, s, a):
        """(board, shape, mover's landing cell, pieces carried) after the
        by-stack move ``a`` of seat s lands, on copies; the mover keeps its
        shape (a replacement waits for the mover to stay)."""
        c, _, u, _ = self.stack_move_parts(a)
        cells = self.carried(s, c)
        board, shape = dict(self.board), dict(self.shape)
        lifted = [(board.pop(w), shape.pop(w)) for w in cells]
        ux, uy, _ = self.target_xyz(u)
        h = self.height(u)
        for j, (col, name) in enumerate(lifted):
            board[(ux, uy, h + j)], shape[(ux, uy, h + j)] = col, name
        return board, shape, (ux, uy, h), len(cells)

    def play(self, a):
        if self.offer_by is not None or not self.is_stack_id(a):
            return super().play(a)
        s = self.seat
        c, f, u, replace = self.stack_move_parts(a)
        lifted = [(self.board.pop(w), self.shape.pop(w)) for w in self.carried(s, c)]
        landed = self.land_carried(s, u, lifted, replace)
        if self.pot is not None:
            return  # the ply ends when the pot is dealt
        self.end_carry(landed, bool(landed) and self.reaches_goal(s, f, u))

    def land_carried(self, s, u, lifted, replace):
        """Land seat s's lifted pieces (mover first) on stack u in order, let
        the mover cover what it lands on, and name its replacement if it
        stays; returns the landed cells credited to s (none when the mover
        did not stay)."""
        x, y, _ = self.target_xyz(u)
        h = self.height(u)
        for j, (col, name) in enumerate(lifted):
            self.board[(x, y, h + j)], self.shape[(x, y, h + j)] = col, name
        landed = self.cover_by_stack(s, u, (x, y, h), len(lifted))
        if landed and replace:
            self.shape[landed[0]] = replace
        return landed

    def cover_by_stack(self, s, u, mover, n):
        """What the landed mover on ``mover`` does to the stack (captures.py,
        pots.py); without powers nothing: the n landed cells."""
        return [(mover[0], mover[1], mover[2] + j) for j in range(n)]

"""Jumps: "Jump", "Chain Jump" and "Chain Jump (+ back)", from
docs/rules/ttt/jumps.md -- its own direction lists and its own reading of
the continuation.

A jumper (condition ``jump``, ``chain-jump`` or ``chain-jump-back``, with a
power) moves from f over the adjacent piece on f + d, of a colour its seat
does not own, to f + 2d, for each direction d its move steps along; the
jumped piece is captured under the jumper's result whatever its rank, and a
jumper never covers. On stacks the grid is the stacks' (height is
ignored): it jumps over the *top piece* of the adjacent stack to the stack
beyond, where it falls to the lowest empty space; only that top piece is
captured. After a chain-jumper's jump the same seat, while the piece (still
a chain-jumper) can jump again, chooses one of its jumps or "end-chain"
(the last action id; not offered to a piece that must capture). "+ back"
reads international draughts' man: it moves forwards only but captures
backwards too (the mirror of each forward direction, never sideways), and
its landing is not held to its goal distance. A by-stack mover jumps along
x and y: its by-stack move to the second stack beyond it, over a top of
another colour, takes that top; its riders come along.
"""

from __future__ import annotations

from .captures import GAINS
from .geometry import ALL_DIRS, ORTH
from .shapes import FORWARD_MOVES, NO_BACK_MOVES
from .stacks import BY_STACK

JUMP_CONDITIONS = ("jump", "chain-jump", "chain-jump-back")
CHAIN_CONDITIONS = ("chain-jump", "chain-jump-back")


def jumps_back(props):
    """Whether a shape's jumps (the first and a chain's extra ones) may go
    backwards: condition ``chain-jump-back`` with a power."""
    return props.get("power", "none") != "none" and props.get("condition") == "chain-jump-back"


class JumpsMixin:
    def _layout_end_chain(self):
        self.chain = None  # the chained piece's target while its continuation is pending
        self.chain_next = None  # (target, moving shape, landed shape) of the jump being applied
        self.stack_jump = None  # (top cell, captor's colour, result) of the by-stack jump being applied
        self.jumpers = any(self.jumper(n) for n in self.names)
        self.chains = any(
            p.get("power", "none") != "none" and p.get("condition") in CHAIN_CONDITIONS
            for p in self.props.values()
        )
        self.a_stop = None
        if self.chains:
            self.a_stop, self.num_actions = self.num_actions, self.num_actions + 1

    def jumper(self, name):
        p = self.props[name]
        return p.get("power", "none") != "none" and p.get("condition") in JUMP_CONDITIONS

    def jump_dirs(self, s, f, name):
        move = self.props[name]["move"]
        fx, fy, _ = self.target_xyz(f)
        if move in BY_STACK:
            return [d for d in ORTH if d[2] == 0]
        if move in ("adjacent", "linear", "linear-or-knight"):
            return self.neighbour_dirs()
        if move in ("adjacent-orthogonal", "orthogonal", "rook-orthogonal-castle"):
            return self.orth_dirs()
        if move in ("adjacent-diagonal", "diagonal"):
            return self.diag_dirs()
        if move == "adjacent-alquerque":
            return self.orth_dirs() + (self.diag_dirs() if (fx % self.bX + fy) % 2 == 0 else [])
        if move in FORWARD_MOVES:
            if s >= len(self.goals):
                return []
            axis, high = self.goals[s]
            dirs = self.orth_dirs() if move == "forward-orthogonal" else self.diag_dirs()
            if jumps_back(self.props[name]):  # the mirror of each forward direction too
                return [d for d in dirs if d[axis] != 0]
            return [d for d in dirs if d[axis] == (1 if high else -1)]
        if move == "pawn-forward-center":
            if s >= len(self.goals):
                return []
            axis, high = self.goals[s]
            toward = 1 if high else -1
            back = jumps_back(self.props[name])
            return [
                d
                for d in ORTH
                if d[axis] == toward or (d[axis] == 0 and self.centreward(f, d)) or (back and d[axis])
            ]
        if move in NO_BACK_MOVES:
            if s >= len(self.goals):
                return []
            axis, high = self.goals[s]
            toward = 1 if high else -1
            dirs = ORTH if move == "orthogonal-no-back" else ALL_DIRS
            lowest = 1 if move == "adjacent-no-back-side" else 0
            # "+ back": the mirror of each of its directions too
            return [
                d for d in dirs if d[axis] * toward >= lowest or (jumps_back(self.props[name]) and d[axis])
            ]
        return []

    def jump_lands(self, s, f, name, t):
        """Seat s's jumper ``name`` from f may land on target t: room, entry, and its goal distance."""
        if self.landing(t) is None or not self.may_enter(s, self.landing(t)):
            return False
        if self.no_back(name) and not jumps_back(self.props[name]) and s < len(self.goals):
            return self.goal_dist(s, t) <= self.goal_dist(s, f)
        return True

    def jumps(self, s, f, name):
        """{landing target: jumped cell} of seat s's jumper ``name`` on target f."""
        out = {}
        if self.gravity:
            fx, fy, _ = self.target_xyz(f)
            for d in self.jump_dirs(s, f, name):
                if d[2] != 0:
                    continue  # the stacks' grid is flat: height is ignored
                mx, my, ux, uy = fx + d[0], fy + d[1], fx + 2 * d[0], fy + 2 * d[1]
                if not (self.on_board(mx, my, 0) and self.on_board(ux, uy, 0)):
                    continue
                if len({self.board_of((fx, 0, 0)), self.board_of((mx, 0, 0)), self.board_of((ux, 0, 0))}) > 1:
                    continue
                m = self.top_cell(self.xyz_target(mx, my, 0))
                if (
                    m is None
                    or m not in self.board
                    or self.board[m] in self.owned[s]
                    or m in self.phase_locked()
                ):
                    continue
                t = self.xyz_target(ux, uy, 0)
                if self.jump_lands(s, f, name, t):
                    out[t] = m
            return out
        here = self.target_xyz(f)
        for d in self.jump_dirs(s, f, name):
            m, u = self.go(here, d), self.go(here, d, 2)
            if not (self.on_board(*m) and self.on_board(*u)):
                continue
            if self.board_of(m) != self.board_of(here) or self.board_of(u) != self.board_of(here):
                continue
            hidden = m in self.phantoms  # cloaking.py: a space that looks empty may hide a piece
            if not hidden and (
                m not in self.board
                or self.board[m] in self.owned[s]
                or m in self.locked
                or m in self.phase_locked()
            ):
                continue
            t = self.xyz_target(*u)
            if self.jump_lands(s, f, name, t):
                out[t] = m
        return out

    def destinations(self, s, f, name):
        out = super().destinations(s, f, name)
        if self.jumper(name) and not self.is_by_stack(name):  # a by-stack jump is a by-stack move
            out |= set(self.jumps(s, f, name))
        return out

    def flat_cover_ok(self, s, name, t):
        return not self.jumper(name) and super().flat_cover_ok(s, name, t)

    def outcome(self, s, name, t):
        if self.jumper(name):
            return "none", []  # a jumper never covers, on stacks too
        return super().outcome(s, name, t)

    def jumped(self, s, a):
        """The cell holding the piece the move ``a`` of seat s jumps, or None."""
        parts = self.move_parts(a)
        if parts is None:
            return None
        f, u, _ = parts
        src = self.top_cell(f)
        if src is None or src not in self.board or not self.jumper(self.shape[src]):
            return None
        m = self.jumps(s, f, self.shape[src]).get(u)
        return m if m in self.board else None  # a tried jump over an empty space captures nothing

    def stack_jumped(self, s, a):
        """The top cell the by-stack move ``a`` of seat s jumps, or None."""
        c, f, u, _ = self.stack_move_parts(a)
        if c not in self.board or not self.jumper(self.shape[c]):
            return None
        (fx, fy, _), (ux, uy, _) = self.target_xyz(f), self.target_xyz(u)
        if sorted((abs(ux - fx), abs(uy - fy))) != [0, 2]:
            return None
        m = self.top_cell(self.xyz_target((fx + ux) // 2, (fy + uy) // 2, 0))
        if m is None or m not in self.board or self.board[m] in self.owned[s] or m in self.phase_locked():
            return None
        return m

    def land_carried(self, s, u, lifted, replace):
        """A by-stack jump's top goes once the mover and its riders are
        lifted (so a reincarnated captive does not hold the mover back)."""
        jump, self.stack_jump = self.stack_jump, None
        if jump is not None:
            m, col, result = jump
            if result == "converts":
                self.board[m] = col
            else:
                captive = self.shape.pop(m)
                del self.board[m]
                self.gain(col, captive, GAINS.get(result, 0))
        return super().land_carried(s, u, lifted, replace)

    def stack_outcome(self, s, name, board, shape, x, y, h):
        if self.jumper(name):
            return "none", []  # a by-stack jumper never covers
        return super().stack_outcome(s, name, board, shape, x, y, h)

    def stack_captures(self, s, a):
        if self.jumper(self.piece_of(s, a)[0]):
            return self.stack_jumped(s, a) is not None
        return super().stack_captures(s, a)

    def hits(self, s, a):
        name = self.piece_of(s, a)[0]
        if a >= self.move0 and self.jumper(name):
            return self.jumped(s, a) is not None
        return super().hits(s, a)

    def converted_by_jump(self, m):
        """A hook for cloaking (cloaking.py): the captive on m was converted."""

    # the chain -----------------------------------------------------------------------------------
    def continuation(self, s):
        t = self.chain
        name = self.movable_shape(s, t)
        out, seen = [], False
        if name is not None:
            for u, m in sorted(self.jumps(s, t, name).items()):
                out += self.move_ids(s, name, t, u)
                seen |= m not in self.phantoms  # a jump tried over a space that looks empty is not seen
        if not seen or self.power(name) != "must-capture":
            out.append(self.a_stop)
        return sorted(out)

    def chain_offered(self, u, name):
        """Whether the piece ``name`` that landed on u may jump again."""
        return bool(self.jumps(self.seat, u, name))

    def seat_actions(self, s):
        if self.chain is not None:
            return self.continuation(s)
        return super().seat_actions(s)

    def legal_actions(self):
        if self.chain is not None and self.result is None:
            return self.seat_actions(self.seat)
        return super().legal_actions()

    def play(self, a):
        if self.chain is not None:
            self.chain = None
            if a == self.a_stop:  # the extra jump declined: the turn goes on as after the jump
                return self._ply_done()
            return self.jump(a)
        if self.offer_by is None and self.is_stack_id(a):
            m = self.stack_jumped(self.seat, a)
            if m is not None:  # taken after the lift, before the landing (land_carried)
                c = self.stack_move_parts(a)[0]
                self.stack_jump = (m, self.board[c], self.props[self.shape[c]]["result"])
            return super().play(a)
        if self.offer_by is None and self.jumped(self.seat, a) is not None:
            return self.jump(a)
        return super().play(a)

    def jump(self, a):
        s = self.seat
        f, u, replace = self.move_parts(a)
        m = self.jumped(s, a)
        src = self.top_cell(f)
        col, name = self.board.pop(src), self.shape.pop(src)
        result = self.props[name]["result"]
        if result == "converts":
            self.board[m] = col
            self.converted_by_jump(m)
        else:  # on stacks the top piece leaves: nothing lies above it
            captive = self.shape.pop(m)
            del self.board[m]
            self.gain(col, captive, GAINS.get(result, 0))
        lands = replace or name
        dest = self.landing(u)  # beyond; on stacks it falls to the lowest empty space
        self.board[dest], self.shape[dest] = col, lands
        self.chain_next = (u, name, lands)
        try:
            self.end_ply(dest, col, self.reaches_goal(s, f, u))  # a jump is a move: it may surround
        finally:
            self.chain_next = None

    def _ply_done(self):
        if self.chain_next is not None:
            u, name, lands = self.chain_next
            self.chain_next = None
            if (
                self.props[name]["condition"] in CHAIN_CONDITIONS
                and self.props[lands].get("condition") in CHAIN_CONDITIONS
                and self.props[lands].get("power", "none") != "none"
                and self.movable_shape(self.seat, u) is not None
                and self.chain_offered(u, lands)
            ):
                self.chain = u
                return
        super()._ply_done()

"""Surrounds: "Surround line" and "Surround orthogonal", and "Adjacent"
(a surround of one step), from docs/rules/ttt/surround.md.

When a piece of a surrounding shape (with a power) arrives, by placement or
move, the runs it closes along any line with another piece of its seat's
colours (surround-line), or the one-colour orthogonal groups next to it left
with no empty orthogonal neighbour and none of a third player's
(surround-orthogonal; edges and locked spaces close a group), are captured
under its result, before the ply's turn checks. Pieces on spaces locked for
the phase are never taken (a group holding one stays). On stacks the
surround is read on the board of the stacks' tops: each stack is its top
piece, a wall (a locked top) or empty (a liberty); the captives are tops. A
surrounder never covers. A move that reaches its goal surrounds with the
replacement it lands as. An adjacent capturer (adjacent, adjacent-orthogonal)
takes every opponent piece next to where it arrives, along any line (the
orthogonal ones only); on stacks the tops of the stacks next to it. An
approacher (Fanorona) that moves along a straight line takes the unbroken
run of opponent pieces that starts next to its landing along that line
(approach-one: the first piece of that run only). A
by-stack mover surrounds from the stack it lands on, as the shape that
moved, after it lands with its riders (it never covers); its own stack
counts as the mover's.
"""

from __future__ import annotations

from .captures import GAINS

SURROUND_CONDITIONS = (
    "surround-line",
    "surround-orthogonal",
    "adjacent",
    "adjacent-orthogonal",
    "approach",
    "approach-one",
)


class SurroundMixin:
    def _init_surround(self):
        self.any_surrounder = any(self.surrounder(n) for n in self.names)
        self.arrive_src = None  # the source target of the move being played (approach)
        self.paralysed = set()  # cells of pieces a "Paralyzes captive(s)" captor took

    def movable_shape(self, s, f):
        """A paralysed piece never moves again."""
        if self.top_cell(f) in self.paralysed:
            return None
        return super().movable_shape(s, f)

    def surrounder(self, name):
        p = self.props[name]
        return p.get("power", "none") != "none" and p.get("condition") in SURROUND_CONDITIONS

    def flat_cover_ok(self, s, name, t):
        return not self.surrounder(name) and super().flat_cover_ok(s, name, t)

    def outcome(self, s, name, t):
        if self.surrounder(name):
            return "none", []  # a surrounder never covers, on stacks too
        return super().outcome(s, name, t)

    def takeable(self, s, c, board):
        return c in board and board[c] not in self.owned[s] and c not in self.phase_locked()

    def move_source(self, a):
        """The source target of the move (or by-stack move) ``a``; None for
        anything else (a placement approaches nothing)."""
        if a is None or self.offer_by is not None:
            return None
        if self.is_stack_id(a):
            return self.stack_move_parts(a)[1]
        if self.is_piece_action(a) and a >= self.move0:
            return self.move_parts(a)[0]
        return None

    def play(self, a):
        self.arrive_src = self.move_source(a)
        return super().play(a)

    def approach_step(self, c, src):
        """The unit (dx, dy, dz) of the straight move from target ``src``
        that brought the approacher on c, or None."""
        if src is None:
            return None
        fx, fy, fz = self.target_xyz(src)
        ux, uy, uz = self.target_xyz(self.target_of(c))
        delta = (ux - fx, uy - fy, uz - fz)
        k = max(map(abs, delta))
        if k == 0 or any(v not in (0, k, -k) for v in delta):
            return None
        return tuple(v // k for v in delta)

    def surrounded(self, s, c, board, shape, src=None):
        """The cells the surrounder of seat s on c (in ``board``/``shape``)
        captures; an approacher's move came from target ``src``. A paralyzer
        takes only pieces not paralysed already (re-paralysing changes nothing)."""
        out = self._surrounded(s, c, board, shape, src)
        if self.props[shape[c]].get("result") == "paralyzes":
            out = [w for w in out if w not in self.paralysed]
        return out

    def _surrounded(self, s, c, board, shape, src=None):
        if self.props[shape[c]]["condition"] in ("approach", "approach-one"):
            d = self.approach_step(c, src)
            out = []
            if d is None:
                return out
            p = self.go(self.target_xyz(self.target_of(c)), d)  # on stacks the grid of the stacks
            while self.on_board(*p) and self.board_of(p) == self.board_of(c):
                cell = self.top_in(board, p[0], p[1]) if self.gravity else p
                if cell is None or cell in self.locked or not self.takeable(s, cell, board):
                    break
                out.append(cell)
                if self.props[shape[c]]["condition"] == "approach-one":
                    break  # the piece next to the landing only
                p = self.go(p, d)
            return out
        if self.gravity:
            return self._surrounded_tops(s, c, board, shape)
        out = []
        cond = self.props[shape[c]]["condition"]
        if cond in ("adjacent", "adjacent-orthogonal"):
            dirs = self.orth_dirs() if cond == "adjacent-orthogonal" else self.neighbour_dirs()
            for d in dirs:
                p = self.go(c, d)
                if self.on_board(*p) and self.board_of(p) == self.board_of(c) and self.takeable(s, p, board):
                    out.append(p)
            return list(dict.fromkeys(out))  # a captive two steps reach (tetrakis) is taken once
        if cond == "surround-line":
            for d in self.neighbour_dirs():
                run, p = [], self.go(c, d)
                while (
                    self.on_board(*p) and self.board_of(p) == self.board_of(c) and self.takeable(s, p, board)
                ):
                    run.append(p)
                    p = self.go(p, d)
                if p == c and d < (0, 0, 0):
                    continue  # a toroid's whole line back to c: taken once, along its positive direction
                if (
                    run
                    and self.on_board(*p)
                    and self.board_of(p) == self.board_of(c)
                    and p in board
                    and board[p] in self.owned[s]
                ):
                    out += run
            return list(dict.fromkeys(out))  # a captive two lines reach (tetrakis) is taken once
        done = set()
        for d in self.orth_dirs():
            g = self.go(c, d)
            if not self.on_board(*g) or self.board_of(g) != self.board_of(c) or g in done:
                continue
            if not self.takeable(s, g, board):
                continue
            group, todo, free = {g}, [g], False
            while todo:
                x = todo.pop()
                for e in self.orth_dirs():
                    y = self.go(x, e)
                    if not self.on_board(*y) or self.board_of(y) != self.board_of(x) or y in self.locked:
                        continue
                    if y not in board:
                        free = True
                    elif board[y] == board[g]:
                        if y in self.phase_locked():
                            free = True
                        elif y not in group:
                            group.add(y)
                            todo.append(y)
                    elif board[y] not in self.owned[s]:
                        free = True
            done |= group
            if not free:
                out += sorted(group)
        return out

    def _surrounded_tops(self, s, c, board, shape):
        """``surrounded`` on stacks: read on the board of the stacks' tops."""
        x0, y0 = c[0], c[1]
        home = self.board_of(c)

        def stack(x, y):
            """'edge', 'wall', 'empty' or the top cell of stack (x, y)."""
            if not (0 <= x < self.X and 0 <= y < self.Y) or self.board_of((x, y, 0)) != home:
                return "edge"
            if (x, y) == (x0, y0):
                return c  # the arrival's stack: the mover's (a by-stack mover's riders above it)
            top = self.top_in(board, x, y)
            if top is None:
                return "empty"
            return "wall" if top in self.locked else top

        out = []
        flat = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
        orth = [(1, 0), (-1, 0), (0, 1), (0, -1)]
        cond = self.props[shape[c]]["condition"]
        if cond in ("adjacent", "adjacent-orthogonal"):
            for dx, dy in orth if cond == "adjacent-orthogonal" else flat:
                top = stack(x0 + dx, y0 + dy)
                if isinstance(top, tuple) and self.takeable(s, top, board):
                    out.append(top)
            return out
        if cond == "surround-line":
            for dx, dy in flat:
                run, x, y = [], x0 + dx, y0 + dy
                while isinstance(stack(x, y), tuple) and self.takeable(s, stack(x, y), board):
                    run.append(stack(x, y))
                    x, y = x + dx, y + dy
                end = stack(x, y)
                if run and isinstance(end, tuple) and board[end] in self.owned[s]:
                    out += run
            return out
        done = set()
        for dx, dy in orth:
            g = (x0 + dx, y0 + dy)
            top = stack(*g)
            if g in done or not isinstance(top, tuple) or not self.takeable(s, top, board):
                continue
            colour = board[top]
            group, todo, free = {g}, [g], False
            while todo:
                x, y = todo.pop()
                for ex, ey in orth:
                    n = (x + ex, y + ey)
                    v = stack(*n)
                    if v in ("edge", "wall"):
                        continue
                    if v == "empty":
                        free = True
                    elif board[v] == colour:
                        if v in self.phase_locked():
                            free = True
                        elif n not in group:
                            group.add(n)
                            todo.append(n)
                    elif board[v] not in self.owned[s]:
                        free = True
            done |= group
            if not free:
                out += sorted(stack(*n) for n in group)
        return out

    def arrival(self, s, a, name, board, shape):
        """Where the piece ``name`` that piece action ``a`` of seat s brings
        lands, in copies ``board``/``shape`` after its own lift from its
        source (no capture applied): its cell."""
        if a < self.move0:
            _, col, t = self.placement_parts(a, s)
        else:
            f, t, _ = self.move_parts(a)
            src = self.top_cell(f)
            col = board.pop(src)
            shape.pop(src)
        if self.gravity:
            x, y, _ = self.target_xyz(t)
            top = self.top_in(board, x, y)
            c = (x, y, 0 if top is None else top[2] + 1)
        else:
            c = self.target_xyz(t)
        board[c], shape[c] = col, name
        return c

    def stack_outcome(self, s, name, board, shape, x, y, h):
        if self.surrounder(name):
            return "none", []  # a by-stack surrounder never covers
        return super().stack_outcome(s, name, board, shape, x, y, h)

    def stack_captures(self, s, a):
        if self.surrounder(self.piece_of(s, a)[0]):
            board, shape, mover, _ = self.after_stack_move(s, a)
            return bool(self.surrounded(s, mover, board, shape, self.move_source(a)))
        return super().stack_captures(s, a)

    def cover_by_stack(self, s, u, mover, n):
        name = self.shape[mover]
        landed = super().cover_by_stack(s, u, mover, n)
        if landed and self.surrounder(name):
            self.surround_landing(mover, self.board[mover])
        return landed

    def surrounds_on_arrival(self, s, a, name):
        """Whether the piece ``name`` that action ``a`` brings surrounds anything where it lands."""
        board, shape = dict(self.board), dict(self.shape)
        c = self.arrival(s, a, name, board, shape)
        return bool(self.surrounded(s, c, board, shape, self.move_source(a)))

    def hits(self, s, a):
        name = self.piece_of(s, a)[0]
        parts = self.move_parts(a)
        lands = parts[2] if parts is not None and parts[2] else name  # it surrounds as it lands
        if self.surrounder(lands):
            return self.surrounds_on_arrival(s, a, lands)
        return super().hits(s, a)

    def forcing_shape(self, s, a):
        """A move that reaches its goal surrounds with the replacement it
        lands as ("the shape it lands with"), so a surrounding replacement's
        power decides whether that capture forces."""
        parts = self.move_parts(a)
        if parts is not None and parts[2] is not None and self.surrounder(parts[2]):
            return parts[2]
        return super().forcing_shape(s, a)

    def goal_parts(self, s, a):
        """For a move reaching its goal whose replacement surrounds,
        [(moving shape, its jump or cover captures), (replacement, its
        surround where it lands captures)] in the order the move applies
        them (the surround read after the jump; a cover the mover loses or
        ties lands nothing); None for other actions."""
        parts = self.move_parts(a)
        if parts is None or parts[2] is None or not self.surrounder(parts[2]):
            return None
        f, t, rep = parts
        name = self.piece_of(s, a)[0]
        m = self.jumped(s, a)
        verdict = None
        if m is None:
            verdict = self.outcome(s, name, t)[0]
            if verdict in ("lose", "mutual"):
                return [(name, False), (rep, False)]
        board, shape = dict(self.board), dict(self.shape)
        if m is not None:
            if self.props[name]["result"] == "converts":
                board[m] = self.board[self.top_cell(f)]
            else:
                del board[m], shape[m]
        c = self.arrival(s, a, rep, board, shape)
        surrounds = bool(self.surrounded(s, c, board, shape, f))
        return [(name, m is not None or verdict == "win"), (rep, surrounds)]

    def capture_parts(self, s, a):
        if self.powers and self.is_piece_action(a):
            parts = self.goal_parts(s, a)
            if parts is not None:
                return parts
        return super().capture_parts(s, a)

    def surround_landing(self, stays, col):
        """The captives of the surrounding piece (of colour ``col``) that
        arrived on ``stays`` take its result."""
        name = self.shape[stays]
        if not self.surrounder(name):
            return
        result = self.props[name]["result"]
        for c in self.surrounded(self.seat, stays, self.board, self.shape, self.arrive_src):
            if result == "converts":
                self.board[c] = col  # a paralysed piece converted stays paralysed
                continue
            if result == "paralyzes":
                self.paralysed.add(c)  # it stays, in its colour, and never moves again
                continue
            self.paralysed.discard(c)
            captive = self.shape.pop(c)
            del self.board[c]
            self.gain(col, captive, GAINS.get(result, 0))

    def end_ply(self, stays, col, goal_reached):
        if stays is not None:
            self.surround_landing(stays, col)
        return super().end_ply(stays, col, goal_reached)

"""Shapes and their moves: each shape's moves, goal lines, "cannot move
backwards" and the replacement shape named on reaching the goal, and the
shapes' rank order, from docs/rules/ttt/shapes.md.
"""

from __future__ import annotations

from games.ttt.schema import CASTLE_CHECK, EN_PASSANT_CHECK, ROOK_MOVE, castle_king, goal_sides, needs_goals

from .geometry import KNIGHT, KNIGHT3

FORWARD_MOVES = ("forward-orthogonal", "forward-diagonal")
#: "Moves adjacent (no back)", "Moves adjacent (no back/side)", "Moves orth (no
#: back)": steps with no part towards the mover's own side (no back), or with a
#: part towards its goal (no back/side); no replacement on reaching the goal
NO_BACK_MOVES = ("adjacent-no-back", "adjacent-no-back-side", "orthogonal-no-back", "pawn-forward-center")
GOAL_MOVES = FORWARD_MOVES + NO_BACK_MOVES

#: the shapes' rank, lowest first, as the tic-tac-toe variations specification lists them
RANK = ["circle", "triangle", "x", "cross", "star", "pentagon"]


def outranks(a, b):
    """ "Pentagon outranks star which outranks cross which outranks X which
    outranks triangle which outranks circle (but circle outranks pentagon and
    only pentagon)"."""
    if (a, b) == ("circle", "pentagon"):
        return True
    if (a, b) == ("pentagon", "circle"):
        return False
    return RANK.index(a) > RANK.index(b)


class ShapesMixin:
    def _init_shapes(self, r):
        self.goals = goal_sides(r["players"], r["board"]["size"]) if needs_goals(r) else []
        self.replacers = [s for s in self.names if self.backwards(s)] if self.goals else []
        self.any_move = any(p["move"] != "stationary" for p in self.props.values()) and any(
            ph["movement"] == "allowed" for ph in self.phases
        )
        # "Pieces in the way": a line move stops at the first piece unless the
        # rule set says "over-pieces" (the record omits the default)
        self.over_pieces = r.get("line_moves") == "over-pieces"
        # "En passant" (docs/rules/ttt/turns.md): a pawn's double first step;
        # ep is (the space it passed over, the pawn's cell) for the next ply
        self.en_passant = EN_PASSANT_CHECK in r["turn_checks"]
        self.ep = None
        # "Castle" (docs/rules/ttt/turns.md): the king, and the cells whose
        # piece has moved since it came onto the board (read only where a piece stands)
        self.castle = CASTLE_CHECK in r["turn_checks"]
        self.king = castle_king(r) if self.castle else None
        self.moved = set()

    def backwards(self, name):
        """A shape that moves, not only forward, and is not marked otherwise."""
        p = self.props[name]
        return (
            p["move"] != "stationary"
            and p["move"] not in GOAL_MOVES
            and not p.get("cannot_move_backwards", False)
        )

    def no_back(self, name):
        """A shape held to its goal distance: a forward mover, or one that cannot move backwards."""
        return self.props[name]["move"] in FORWARD_MOVES or bool(
            self.props[name].get("cannot_move_backwards")
        )

    def goal_dist(self, s, t):
        """Rows from target t to seat s's goal line, or None (Chaos, no goals)."""
        if s >= self.n or s >= len(self.goals):
            return None
        axis, high = self.goals[s]
        x, y, _ = self.target_xyz(t)
        v, size = (x % self.bX, self.bX) if axis == 0 else (y, self.Y)
        return size - 1 - v if high else v

    def reaches_goal(self, s, f, u):
        """ "Stalemate if goal is reached": a move of seat s from f onto its goal line from off it."""
        d0, d1 = self.goal_dist(s, f), self.goal_dist(s, u)
        return self.goal_check and d0 is not None and d0 > 0 and d1 == 0

    def reaches(self, s, name, f, u):
        """A move that must name a replacement: the shape cannot move
        backwards and the piece arrives on the mover's goal line from off it."""
        if not self.no_back(name) or self.props[name]["move"] == "stationary" or not self.replacers:
            return False
        d0, d1 = self.goal_dist(s, f), self.goal_dist(s, u)
        return d0 is not None and d0 > 0 and d1 == 0

    def movable_shape(self, s, f):
        """The shape of the top piece of target f that seat s may move, or None:
        unlocked, free to leave, on an undecided board, its own, and "cannot
        move a placed piece if [...] an identical piece in reserve"."""
        src = self.top_cell(f)
        if src is None or src not in self.board or src in self.phase_locked():
            return None
        if not self.may_exit(s, src) or self.board_of(src) in self.decided:
            return None
        col, name = self.board[src], self.shape[src]
        if col not in self.owned[s] or self.sres[col][name] > 0:
            return None
        return name

    def in_the_way(self, t):
        """Whether a piece stands on target t (on stacks: anywhere in its stack)."""
        x, y, z = self.target_xyz(t)
        if self.gravity:
            return any((x, y, h) in self.board for h in range(self.Z))
        return (x, y, z) in self.board

    def centreward(self, f, d):
        """Whether the axis step d from target f ends nearer the centre of its board along that axis."""
        x, y, z = self.target_xyz(f)
        v, size = [(x % self.bX, self.bX), (y, self.Y), (z, self.Z)][next(a for a in range(3) if d[a])]
        s = d[next(a for a in range(3) if d[a])]
        return abs(2 * (v + s) - (size - 1)) < abs(2 * v - (size - 1))

    def double_step(self, s, f):
        """ "En passant"'s double first step: from the row farthest from seat
        s's goal line, two steps forward over a space holding no piece."""
        axis, high = self.goals[s]
        size = self.bX if axis == 0 else self.Y
        if self.goal_dist(s, f) != size - 1:
            return set()
        d = tuple((1 if high else -1) if i == axis else 0 for i in range(3))
        here = self.target_xyz(f)
        over, there = self.go(here, d), self.go(here, d, 2)
        if not self.on_board(*there) or self.board_of(there) != self.board_of(here):
            return set()
        if self.in_the_way(self.xyz_target(*over)):
            return set()
        return {self.xyz_target(*there)}

    def destinations(self, s, f, name):
        """The targets seat s's ``name`` on target f steps, slides or leaps to
        (on its board, whatever stands there; a slide ends on the first piece
        in its way unless it passes over pieces)."""
        move = self.props[name]["move"]
        fx, fy, fz = self.target_xyz(f)
        goal = self.goals[s] if s < len(self.goals) else None
        if move in GOAL_MOVES and goal is None:
            return set()
        dirs = [d for d in self.neighbour_dirs() if not (self.gravity and d[2])]
        orth = [d for d in dirs if self.orthogonal(d)]
        diag = [d for d in dirs if not self.orthogonal(d)]
        slide, leaps = False, []
        if move == "adjacent":
            steps = dirs
        elif move == "adjacent-orthogonal":
            steps = orth
        elif move == "adjacent-diagonal":
            steps = diag
        elif move == "adjacent-alquerque":  # diagonals are drawn through every other point only
            steps = orth + (diag if (fx % self.bX + fy) % 2 == 0 else [])
        elif move in ("orthogonal", "rook-orthogonal-castle", "diagonal", "linear", "linear-or-knight"):
            steps = {"orthogonal": orth, "rook-orthogonal-castle": orth, "diagonal": diag}.get(move, dirs)
            slide = True
            leaps = KNIGHT if move == "linear-or-knight" else []
        elif move in FORWARD_MOVES:
            toward = 1 if goal[1] else -1
            steps = [d for d in (orth if move == "forward-orthogonal" else diag) if d[goal[0]] == toward]
        elif move == "pawn-forward-center":  # forward, or sideways nearer the centre
            toward = 1 if goal[1] else -1
            steps = [d for d in orth if d[goal[0]] == toward or (d[goal[0]] == 0 and self.centreward(f, d))]
        elif move in NO_BACK_MOVES:
            toward = 1 if goal[1] else -1
            base = orth if move == "orthogonal-no-back" else dirs
            lowest = 1 if move == "adjacent-no-back-side" else 0
            steps = [d for d in base if d[goal[0]] * toward >= lowest]
            slide = move == "orthogonal-no-back"
        elif move == "knight-2x1x0":
            steps, leaps = [], KNIGHT
        elif move == "knight-2x1x1":
            steps, leaps = [], KNIGHT3
        elif move == "adjacent-or-knight":  # the union of the two
            steps, leaps = dirs, KNIGHT
        else:
            steps = []
        out = set()
        here = (fx, fy, fz)
        for d in steps:
            k = 1
            while True:
                p = self.go(here, d, k)
                if not self.on_board(*p) or self.board_of(p) != self.board_of(here) or p == here:
                    break
                out.add(self.xyz_target(*p))
                if not slide or (not self.over_pieces and self.in_the_way(self.xyz_target(*p))):
                    break
                k += 1
        for d in leaps:
            if self.gravity and d[2]:
                continue
            p = self.go(here, d)
            if self.on_board(*p) and self.board_of(p) == self.board_of(here):
                out.add(self.xyz_target(*p))
        if move == "pawn-forward-center" and self.en_passant:
            out |= self.double_step(s, f)
        out.discard(f)
        if self.no_back(name) and goal is not None:
            out = {u for u in out if self.goal_dist(s, u) <= self.goal_dist(s, f)}
        return out


class CastleMixin:
    """ "Castle" (docs/rules/ttt/turns.md, "Castle"): a king (the
    highest-ranked shape that moves "adjacent") and a rook (a shape that
    moves "rook-orthogonal-castle") of one colour, neither having moved, on a
    row across the mover's goal axis with only empty spaces between them:
    the king steps two spaces towards the rook, which lands on the space the
    king passed over. A piece placed from a reserve has not moved."""

    def has_moved(self, c):
        return c in self.board and c in self.moved

    def castle_rook(self, s, f, d):
        """The cell of the rook seat s's king on target f castles with along d, or None."""
        goal = self.goals[s] if s < len(self.goals) else None
        here = self.target_xyz(f)
        if goal is None or d[goal[0]] != 0 or self.has_moved(here):
            return None
        for k in (1, 2):
            p = self.go(here, d, k)
            if not self.on_board(*p) or self.board_of(p) != self.board_of(here):
                return None  # (no step crosses boards)
            if self.landing(self.xyz_target(*p)) is None or not self.may_enter(s, p):
                return None
        k = 3
        while True:
            p = self.go(here, d, k)
            if not self.on_board(*p) or self.board_of(p) != self.board_of(here):
                return None
            if p in self.board:
                break
            k += 1
        if self.board[p] != self.board[here] or self.has_moved(p):
            return None
        name = self.movable_shape(s, self.xyz_target(*p))
        return p if name is not None and self.props[name]["move"] == ROOK_MOVE else None

    def castles(self, s, f):
        """{the king's destination: the rook's cell} of seat s's king on target f."""
        out = {}
        here = self.target_xyz(f)
        for d in self.neighbour_dirs():
            if sum(map(abs, d)) == 1:
                rook = self.castle_rook(s, f, d)
                if rook is not None:
                    out[self.xyz_target(*self.go(here, d, 2))] = rook
        return out

    def destinations(self, s, f, name):
        out = super().destinations(s, f, name)
        if self.castle and name == self.king:
            out |= set(self.castles(s, f))
        return out

    def play(self, a):
        if not self.castle or self.offer_by is not None or self.dealing() or not self.is_piece_action(a):
            return super().play(a)  # (a deal is no placement)
        s = self.seat
        got = self.piece_of(s, a)
        stays = not self.powers or self.outcome(s, *got)[0] in ("none", "win")
        if a < self.move0:
            if stays:  # a piece from the reserve has not moved
                self.moved.discard(self.target_xyz(got[1]))
            return super().play(a)
        f, u, _ = self.move_parts(a)
        here = self.target_xyz(f)
        rook = self.castles(s, f).get(u) if got[0] == self.king else None
        if rook is None:
            self.moved.discard(here)
            if stays:
                self.moved.add(self.target_xyz(u))
            return super().play(a)
        there = self.target_xyz(u)
        over = tuple((a0 + b0) // 2 for a0, b0 in zip(here, there, strict=True))
        self.board[there], self.shape[there] = self.board.pop(here), self.shape.pop(here)
        self.board[over], self.shape[over] = self.board.pop(rook), self.shape.pop(rook)
        self.moved -= {here, rook}
        self.moved |= {there, over}
        self.end_carry([there, over], False)

"""A slow, from-scratch model of the Y-family rules, for differential tests.

It recomputes everything from the board on every call (no incremental
counts, no bitsets, no union-find), follows docs/rules/ sentence by sentence,
and shares nothing with the kernels but the list of cell coordinates and
sides, so a bookkeeping bug in a kernel shows up as a disagreement.
"""

from __future__ import annotations

DIRECTIONS = ((-1, -1), (-1, 0), (0, -1), (0, 1), (1, 0), (1, 1))


class Geometry:
    def __init__(self, coords, sides):
        self.coords = list(coords)
        self.index = {p: i for i, p in enumerate(self.coords)}
        self.n = len(self.coords)
        self.neighbours = [
            [self.index[(r + dr, c + dc)] for dr, dc in DIRECTIONS if (r + dr, c + dc) in self.index]
            for (r, c) in self.coords
        ]
        self.sides = [set(s) for s in sides]

    @classmethod
    def triangle(cls, n):
        coords = [(r, c) for r in range(n) for c in range(r + 1)]
        idx = {p: i for i, p in enumerate(coords)}
        sides = [
            {idx[(r, c)] for (r, c) in coords if c == 0},
            {idx[(r, c)] for (r, c) in coords if r == n - 1},
            {idx[(r, c)] for (r, c) in coords if c == r},
        ]
        return cls(coords, sides)

    @classmethod
    def from_board(cls, board):
        sides = [{i for i in range(board.num_cells) if s in board.sides_of(i)} for s in range(3)]
        return cls(board.coords, sides)

    def has_y(self, colours, colour):
        seen = set()
        for start in range(self.n):
            if colours[start] != colour or start in seen:
                continue
            group, stack = {start}, [start]
            while stack:
                c = stack.pop()
                for d in self.neighbours[c]:
                    if colours[d] == colour and d not in group:
                        group.add(d)
                        stack.append(d)
            seen |= group
            if all(group & side for side in self.sides):
                return True
        return False

    def overcrowded(self, colours, c):
        if colours[c] == 0:
            return False
        same = sum(1 for d in self.neighbours[c] if colours[d] == colours[c])
        other = sum(1 for d in self.neighbours[c] if colours[d] not in (0, colours[c]))
        return same > other


class FlipReference:
    """Defector Y (flip_point='before_last', kinds={'opponents'}, win='every')
    and Double-'0' Y (flip_point='after_each', win='turn_start'/'turn_end')."""

    def __init__(self, geometry, kinds, flip_point, win, later_placements):
        self.g = geometry
        self.kinds = set(kinds)
        self.flip_point = flip_point
        self.win = win
        self.later = later_placements
        self.colours = [0] * geometry.n
        self.player = 0
        self.turn = 0
        self.winner = None
        self.flipping = False
        self.left = 1
        self._start_turn()

    def qualifying(self):
        me, opp = self.player + 1, 2 - self.player
        cells = []
        for c in range(self.g.n):
            if not self.g.overcrowded(self.colours, c):
                continue
            if (self.colours[c] == opp and "opponents" in self.kinds) or (
                self.colours[c] == me and "friends" in self.kinds
            ):
                cells.append(c)
        return cells

    def _start_turn(self):
        self.left = 1 if self.turn == 0 else self.later
        self.flipping = self.flip_point == "before_last" and self.left == 1 and bool(self.qualifying())

    def legal(self):
        if self.winner is not None:
            return []
        if self.flipping:
            return [self.g.n + c for c in self.qualifying()]
        return [c for c in range(self.g.n) if self.colours[c] == 0]

    def _end_turn(self):
        mover = self.player
        if self.win == "turn_start" and self.g.has_y(self.colours, 2 - mover):
            self.winner = 1 - mover
            return
        if self.win == "turn_end" and self.g.has_y(self.colours, mover + 1):
            self.winner = mover
            return
        if 0 not in self.colours:
            self.winner = 0 if self.g.has_y(self.colours, 1) else 1
            return
        self.player = 1 - mover
        self.turn += 1
        self._start_turn()

    def apply(self, action):
        assert action in self.legal(), (action, self.legal())
        mover = self.player
        if action < self.g.n:
            self.colours[action] = mover + 1
            self.left -= 1
        else:
            c = action - self.g.n
            self.colours[c] = 3 - self.colours[c]
        if self.win == "every" and self.g.has_y(self.colours, mover + 1):
            self.winner = mover
            return
        full = 0 not in self.colours
        if self.flip_point == "after_each" or action >= self.g.n:
            if self.qualifying():
                self.flipping = True
                return
            self.flipping = False
            if self.flip_point == "after_each":
                if self.left == 0 or full:
                    self._end_turn()
            elif full:
                self._end_turn()
        else:
            if self.left == 0 or full:
                self._end_turn()
            else:
                self.flipping = bool(self.qualifying())

    def returns(self):
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

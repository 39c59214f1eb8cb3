"""Tables and geometry: cells, boards side by side, directions, targets and
where a piece sent to a target lands.

A cell is a 0-based (x, y, z) tuple. Several boards (``boards`` in the
record) sit side by side along x, so x runs over every board and
``board_of`` tells which one a cell is on. An action names a *target*: on
stacks a column (x + X*y), elsewhere a cell (x + X*(y + Y*z)).
"""

from __future__ import annotations

import itertools

#: one direction of every line through a cell (the other is its negation)
LINE_DIRS = [d for d in itertools.product((-1, 0, 1), repeat=3) if d > (0, 0, 0)]
#: every step to a neighbouring cell
ALL_DIRS = [d for d in itertools.product((-1, 0, 1), repeat=3) if d != (0, 0, 0)]
ORTH = [d for d in ALL_DIRS if sum(map(abs, d)) == 1]
DIAG = [d for d in ALL_DIRS if sum(map(abs, d)) > 1]
#: knight's leaps: two along one axis and one along another (knight-2x1x0) ...
KNIGHT = [d for d in itertools.product((-2, -1, 0, 1, 2), repeat=3) if sorted(map(abs, d)) == [0, 1, 2]]
#: ... and two along one axis, one along each of the others (knight-2x1x1)
KNIGHT3 = [d for d in itertools.product((-2, -1, 0, 1, 2), repeat=3) if sorted(map(abs, d)) == [1, 1, 2]]


def step(c, d, k=1):
    """The cell ``k`` steps from ``c`` along direction ``d``."""
    return (c[0] + k * d[0], c[1] + k * d[1], c[2] + k * d[2])


#: a hexagon's six neighbours in axial coordinates (the rhombus of Hex);
#: (1, 1) touches at a corner only and is no neighbour
HEX_DIRS = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (1, -1, 0), (-1, 1, 0)]

#: tetrakis squares (z = a square's triangle, 0 N, 1 E, 2 S, 3 W): each line's
#: step and the order in which it crosses one square's triangles before the
#: next square's first (the rows just above and below the centre, the columns
#: just right and left of it); the opposite step reads the same order backwards
TETRAKIS_ORDERS = {
    (1, 0, 0): ("WNE", (1, 0)),
    (1, 0, 1): ("WSE", (1, 0)),
    (0, 1, 0): ("SEN", (0, 1)),
    (0, 1, 1): ("SWN", (0, 1)),
}
TETRAKIS_DIRS = [d for base in TETRAKIS_ORDERS for d in (base, tuple(-v for v in base))]


def tetrakis_go(c, d):
    """One step from triangle c along tetrakis line d (off the line: None)."""
    sign = 1 if d in TETRAKIS_ORDERS else -1
    order, (sx, sy) = TETRAKIS_ORDERS[d if sign == 1 else tuple(-v for v in d)]
    side = "NESW"[c[2]]
    if side not in order:
        return None
    i = order.index(side) + sign
    if 0 <= i < 3:
        return (c[0], c[1], "NESW".index(order[i]))
    return (c[0] + sign * sx, c[1] + sign * sy, "NESW".index(order[i % 3]))


class GeometryMixin:
    """Sizes, coordinates and the board's fixed spaces; the rest of the model
    keeps ``board`` (cell -> colour index), ``locked`` (cells locked for the
    game), ``decided`` (boards decided in play) and ``phase_locked()``."""

    def _init_geometry(self, r):
        self.X, self.Y, self.Z = r["board"]["size"]
        self.B, self.bX = r.get("boards", 1), self.X  # B copies of the board along x, each bX wide
        self.X *= self.B
        self.gravity = r["board"]["kind"] == "stacks"
        self.kind = r["board"]["kind"]
        self.T = self.X * self.Y if self.gravity else self.X * self.Y * self.Z  # action targets
        self.S = self.X * self.Y * self.Z  # cells

    def copies(self, at, boards=None):
        """Every board's copy of a 1-based [x, y, z] (0-based, x along all
        boards); with ``boards`` (1-based numbers), those boards' copies only."""
        return [
            (at[0] - 1 + b * self.bX, at[1] - 1, at[2] - 1)
            for b in range(self.B)
            if boards is None or b + 1 in boards
        ]

    # board kinds: which steps are neighbours, and the toroid's wrap -------------------
    def neighbour_dirs(self):
        """The steps to a cell's neighbours: the 26 of the box, or a hexagon's six."""
        if self.kind == "tetrakis":
            return TETRAKIS_DIRS
        return HEX_DIRS if self.kind == "hexagons" else ALL_DIRS

    def line_dirs(self):
        """One direction of each line: the box's 13, or the three hex axes."""
        return [d for d in self.neighbour_dirs() if d > (0, 0, 0)]

    def orth_dirs(self):
        return [d for d in self.neighbour_dirs() if self.orthogonal(d)]

    def diag_dirs(self):
        return [d for d in self.neighbour_dirs() if not self.orthogonal(d)]

    def orthogonal(self, d):
        """A step to a neighbour sharing a side: one axis of the box, or any of a hexagon's six."""
        return self.kind in ("hexagons", "tetrakis") or sum(map(abs, d)) == 1

    def go(self, c, d, k=1):
        """The cell ``k`` steps from c along d; on a toroid x wraps within
        c's board and y wraps (off-board cells are returned as they are)."""
        if self.kind == "tetrakis":
            p, d = c, (d if k > 0 else tuple(-v for v in d))
            for _ in range(abs(k)):
                p = tetrakis_go(p, d) if p is not None else None
            return p if p is not None else (-1, -1, -1)  # off the line: off the board
        p = step(c, d, k)
        if self.kind == "toroid":
            b = self.board_of(c)
            p = (b * self.bX + (p[0] - b * self.bX) % self.bX, p[1] % self.Y, p[2])
        return p

    def line_cells(self, c, d, same):
        """The cells through c along d (both ways) for which ``same`` holds,
        each at most once (a toroid's line comes back to c), c first."""
        cells, seen = [c], {c}
        for sign in (1, -1):
            p = self.go(c, d, sign)
            while p not in seen and self.board_of(p) == self.board_of(c) and same(p):
                cells.append(p)
                seen.add(p)
                p = self.go(p, d, sign)
        return cells

    def board_of(self, c):
        return c[0] // self.bX

    def target_xyz(self, t):
        return (t % self.X, (t // self.X) % self.Y, t // (self.X * self.Y))

    def xyz_target(self, x, y, z):
        return x + self.X * (y + self.Y * z)

    def target_of(self, c):
        """The target that names cell c (its column on stacks)."""
        return self.xyz_target(c[0], c[1], 0 if self.gravity else c[2])

    def cell_index(self, c):
        return c[0] + self.X * (c[1] + self.Y * c[2])

    def cell_at(self, i):
        return (i % self.X, (i // self.X) % self.Y, i // (self.X * self.Y))

    def on_board(self, x, y, z):
        return 0 <= x < self.X and 0 <= y < self.Y and 0 <= z < (1 if self.gravity else self.Z)

    # stacks: pieces fall to the lowest empty space ------------------------------------
    def height(self, t):
        """The number of cells of target t's stack holding a piece or locked, up to the highest."""
        x, y, _ = self.target_xyz(t)
        h = 0
        for z in range(self.Z):
            if (x, y, z) in self.board or (x, y, z) in self.locked:
                h = z + 1
        return h

    def landing(self, t):
        """Cell a piece sent to target t ends on, or None if t is full, the
        cell is taken or locked (for the game or the phase), or its board is
        decided."""
        if self.gravity:
            h = self.height(t)
            x, y, _ = self.target_xyz(t)
            c = (x, y, h) if h < self.Z else None
        else:
            c = self.target_xyz(t)
            c = None if c in self.board or c in self.locked else c
        if c is not None and self.board_of(c) in self.decided:
            return None
        return None if c in self.phase_locked() else c

    def top_cell(self, t):
        """The cell of target t's top piece (stacks; None for an empty stack), or t's cell."""
        if self.gravity:
            h = self.height(t)
            x, y, _ = self.target_xyz(t)
            return (x, y, h - 1) if h else None
        return self.target_xyz(t)

    def top_in(self, board, x, y):
        """The top cell of stack (x, y) in ``board`` (a piece or a locked space), or None."""
        zs = [z for z in range(self.Z) if (x, y, z) in board or (x, y, z) in self.locked]
        return (x, y, max(zs)) if zs else None

    def base(self, x, y):
        """The lowest height of stack (x, y) above its highest locked cell."""
        return max([z + 1 for z in range(self.Z) if (x, y, z) in self.locked], default=0)

    def stack_cells(self, t):
        """The cells of target t above its highest locked cell, bottom first."""
        x, y, _ = self.target_xyz(t)
        return [(x, y, z) for z in range(self.base(x, y), self.Z)]

    def column(self, x, y):
        """The occupied cells of stack (x, y), bottom first."""
        return [(x, y, z) for z in range(self.Z) if (x, y, z) in self.board]

# cython: language_level=3
"""Triangle and "limping hexagon" boards for the Y family (rules: docs/rules/).

Cells are points ``(r, c)`` of one triangular lattice whose six neighbour
directions are ``(0, +-1)``, ``(+-1, 0)`` and ``+-(1, 1)``; a board is a set of
such points plus three sides. Cells are numbered row by row, top row first.

- Triangle of side n: ``0 <= c <= r < n``; sides ``c == 0``, ``r == n-1``,
  ``c == r``. This is OpenSpiel's ``y`` board with ``x = c``, ``y = n-1-r``,
  and cell names follow OpenSpiel's (column letter, row number counted from
  the long edge), so action strings read the same in both.
- Hexagon k-(k+1) (Ludii's "Hex k-(k+1)", 3k^2 cells): rows from the top have
  lengths k, k+1, ..., 2k, 2k-1, ..., k+1; the three Y sides are N+NE, S+SE and
  SW+NW, each 2k cells.
"""
from libc.string cimport memset
from libc.stdint cimport uint64_t
from games.rng cimport Rng, rng_seed, rng_next

_DIRECTIONS = ((-1, -1), (-1, 0), (0, -1), (0, 1), (1, 0), (1, 1))
TRIANGLE_SIZES = range(2, 20)
HEX_SIZES = range(2, 10)
SHAPES = ("triangle", "hex")


def _triangle(int n):
    coords = [(r, c) for r in range(n) for c in range(r + 1)]
    sides = [set(), set(), set()]
    for (r, c) in coords:
        if c == 0:
            sides[0].add((r, c))
        if r == n - 1:
            sides[1].add((r, c))
        if c == r:
            sides[2].add((r, c))
    names = [f"{chr(ord('a') + c)}{n - r}" for (r, c) in coords]
    return coords, sides, names


def _hexagon(int k):
    coords = []
    rows = []
    for r in range(2 * k):
        lo, hi = (0, k - 1 + r) if r <= k else (r - k, 2 * k - 1)
        row = [(r, c) for c in range(lo, hi + 1)]
        rows.append(row)
        coords.extend(row)
    north = set(rows[0])
    south = set(rows[-1])
    upper = rows[:k + 1]          # the widest row and the rows above it
    lower = rows[k:]              # the k lowest rows
    nw = {row[0] for row in upper}
    ne = {row[-1] for row in upper}
    sw = {row[0] for row in lower}
    se = {row[-1] for row in lower}
    sides = [north | ne, south | se, sw | nw]
    names = [f"{chr(ord('a') + c)}{2 * k - r}" for (r, c) in coords]
    return coords, sides, names


def _symmetries(coords, sides):
    """The lattice symmetries (rotations/reflections of the hexagonal grid)
    that map the board onto itself and permute its three sides."""
    index = {p: i for i, p in enumerate(coords)}
    side_sets = [frozenset(index[p] for p in s) for s in sides]
    maps = []
    rot = lambda p: (p[0] - p[1], p[0])      # 60-degree turn of the lattice
    flip = lambda p: (p[1], p[0])
    for reflect in (False, True):
        for turns in range(6):
            def f(p, reflect=reflect, turns=turns):
                if reflect:
                    p = flip(p)
                for _ in range(turns):
                    p = rot(p)
                return p
            maps.append(f)
    found = [tuple(range(len(coords)))]      # the identity comes first
    for f in maps:
        image = [f(p) for p in coords]
        dr = min(r for r, _ in coords) - min(r for r, _ in image)
        dc = min(c for _, c in coords) - min(c for _, c in image)
        moved = [(r + dr, c + dc) for r, c in image]
        if set(moved) != set(coords):
            continue
        perm = tuple(index[p] for p in moved)
        mapped = {frozenset(perm[i] for i in s) for s in side_sets}
        if mapped != set(side_sets):
            continue
        if perm not in found:
            found.append(perm)
    return tuple(found)


cdef class LatticeBoard:
    """One board geometry; build it with ``make_board(shape, size)``."""

    def __init__(self, str shape, int size):
        if shape == "triangle":
            if size not in TRIANGLE_SIZES:
                raise ValueError(f"board_size for a triangle must be in 2..19, got {size}")
            coords, sides, names = _triangle(size)
        elif shape == "hex":
            if size not in HEX_SIZES:
                raise ValueError(f"board_size for a hex board must be in 2..9, got {size}")
            coords, sides, names = _hexagon(size)
        else:
            raise ValueError(f"board_shape must be one of {SHAPES}, got {shape!r}")
        self.shape = shape
        self.size = size
        self.num_cells = len(coords)
        self.num_words = (self.num_cells + 63) // 64
        self.coords = tuple(coords)
        self.names = tuple(names)
        self.index_of_name = {name: i for i, name in enumerate(names)}
        index = {p: i for i, p in enumerate(coords)}
        # Unused neighbour slots point at index num_cells, a sentinel that
        # kernels keep empty, so a loop over all six slots needs no branch.
        memset(self.nbr, self.num_cells, sizeof(self.nbr))
        memset(self.side_bits, 0, sizeof(self.side_bits))
        edges = 0
        for i, (r, c) in enumerate(coords):
            d = 0
            for dr, dc in _DIRECTIONS:
                j = index.get((r + dr, c + dc))
                if j is not None:
                    self.nbr[i][d] = j
                    d += 1
            self.degree[i] = d
            edges += d
            mask = 0
            for s in range(3):
                if (r, c) in sides[s]:
                    mask |= 1 << s
                    self.side_bits[s][i >> 6] |= (<uint64_t>1) << (i & 63)
            self.side_mask[i] = mask
        self.num_edges = edges // 2
        cdef Rng rng
        rng_seed(&rng, 0x5EED0F00D + 977 * size + (0 if shape == "triangle" else 1))
        for i in range(self.num_cells):
            self.zobrist[i][0] = rng_next(&rng)
            self.zobrist[i][1] = rng_next(&rng)
        self.symmetries = _symmetries(coords, sides)
        self.num_syms = len(self.symmetries)
        for s, perm in enumerate(self.symmetries):
            for i in range(self.num_cells):
                self.sym[s][i] = perm[i]

    def neighbours(self, int cell):
        return [self.nbr[cell][d] for d in range(self.degree[cell])]

    def sides_of(self, int cell):
        """Which of the three sides (0, 1, 2) the cell lies on."""
        return [s for s in range(3) if self.side_mask[cell] >> s & 1]

    def __repr__(self):
        return f"LatticeBoard({self.shape!r}, {self.size})"

    def __reduce__(self):
        # Boards are shared and immutable: a pickle names the board, and
        # unpickling returns the process's own copy of it.
        return (make_board, (self.shape, self.size))


_BOARDS = {}


def make_board(str shape, int size):
    """The shared, immutable board for ``(shape, size)``, built once."""
    key = (shape, size)
    board = _BOARDS.get(key)
    if board is None:
        board = _BOARDS[key] = LatticeBoard(shape, size)
    return board

# cython: language_level=3
"""Board geometry built once per board and shared by every position on it:
triangle and "limping hexagon" boards for the Y family (rules: docs/rules/),
and square grids with 2x2 areas (Flipway).

Y boards:

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
from libc.stdlib cimport malloc, free
from libc.string cimport memset
from libc.stdint cimport uint64_t
from games.rng cimport Rng, mix64, rng_seed, rng_next

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

    def rot(p):                              # 60-degree turn of the lattice
        return (p[0] - p[1], p[0])

    def flip(p):
        return (p[1], p[0])

    for reflect in (False, True):
        for turns in range(6):  # no-cython-lint: f binds reflect and turns early, as defaults
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


def openspiel_y_actions(int size):
    """Our triangle cells against OpenSpiel's own C++ ``y`` actions, both ways:
    ``(to_openspiel, to_cell)`` with ``to_openspiel[cell]`` OpenSpiel's action
    and ``to_cell[action]`` our cell.

    Why: OpenSpiel's ``y`` is the independent reference the Y kernel is checked
    against (tests, the solver benchmark, the MCTS strength study), and a
    cross-check is only as good as its translation, so the mapping is written
    here, once, beside the numbering it translates. OpenSpiel numbers the cell
    ``(x, y)`` of an N x N grid ``x + y*N`` (a cell where ``x + y < N``); our
    cell ``(r, c)`` is its ``(x, y) = (c, N-1-r)``. Grid points off the
    triangle are not keys of ``to_cell``; a size off 2..19 is a ValueError.
    """
    to_openspiel = tuple(c + (size - 1 - r) * size for r, c in make_board("triangle", size).coords)
    return to_openspiel, {action: cell for cell, action in enumerate(to_openspiel)}


def point_name(int n, int p):
    """Name of point ``p`` of an n x n grid: column letter, then row number
    counted from the bottom (``a1`` is the bottom-left corner), as the Y
    family names its cells."""
    # Not divmod: with divmod here, Cython 3.3.1 compiling this module and
    # then games/ttt/_engine.pyx in one process typed the engine's own
    # divmod results as bint (its action strings all read "@(2,1,1)").
    return f"{chr(ord('a') + p % n)}{n - p // n}"


cdef class SquareGrid:
    """An n x n grid (declared in boards.pxd): padded indices, edges, 2x2
    areas, Zobrist keys and the square's eight symmetries.

    The symmetries come in the order identity, left-right mirror, top-bottom
    mirror, half turn (these four keep each pair of opposite edges in place,
    so a game whose players own opposite edges can use them as they are),
    then transpose, anti-transpose, quarter turn clockwise and anticlockwise
    (which exchange the two edge pairs). Zobrist keys are fixed functions of
    the size and the point (not seeded per process), so hashes agree across
    runs and processes."""

    def __cinit__(self):
        self.pad = self.unpad = self.area_tl = self.pt_area = self.sym = NULL
        self.edge = self.area_row = self.area_col = self.pt_corner = NULL
        self.zob = NULL

    def __dealloc__(self):
        free(self.pad)
        free(self.unpad)
        free(self.edge)
        free(self.area_tl)
        free(self.area_row)
        free(self.area_col)
        free(self.pt_area)
        free(self.pt_corner)
        free(self.zob)
        free(self.sym)

    def __init__(self, int n):
        if n < 2 or n > 255:
            raise ValueError(f"a square grid's size must be in 2..255, got {n}")
        cdef int W = n + 2, P = n * n, A = (n - 1) * (n - 1), grid = W * W
        cdef int r, c, p, q, a, k, i
        cdef int corner[4]
        self.size = n
        self.width = W
        self.num_points = P
        self.num_areas = A
        self.pad = <int*>malloc(P * sizeof(int))
        self.unpad = <int*>malloc(grid * sizeof(int))
        self.edge = <uint8_t*>malloc(grid)
        self.area_tl = <int*>malloc(A * sizeof(int))
        self.area_row = <uint8_t*>malloc(A)
        self.area_col = <uint8_t*>malloc(A)
        self.pt_area = <int*>malloc(grid * 4 * sizeof(int))
        self.pt_corner = <uint8_t*>malloc(grid * 4)
        self.zob = <uint64_t*>malloc(grid * 2 * sizeof(uint64_t))
        self.sym = <int*>malloc(SQUARE_SYMMETRIES * P * sizeof(int))
        if not (self.pad and self.unpad and self.edge and self.area_tl and self.area_row
                and self.area_col and self.pt_area and self.pt_corner and self.zob and self.sym):
            raise MemoryError()
        for q in range(grid):
            self.unpad[q] = -1
            self.edge[q] = 0
            for k in range(4):
                self.pt_area[4 * q + k] = -1
                self.pt_corner[4 * q + k] = 0
            self.zob[2 * q] = mix64(<uint64_t>(1000003 * n + 2 * q))
            self.zob[2 * q + 1] = mix64(<uint64_t>(1000003 * n + 2 * q + 1))
        for p in range(P):
            r, c = p // n, p % n
            q = (r + 1) * W + c + 1
            self.pad[p] = q
            self.unpad[q] = p
            self.edge[q] = ((1 if r == 0 else 0) | (2 if r == n - 1 else 0)
                            | (4 if c == 0 else 0) | (8 if c == n - 1 else 0))
        for r in range(n - 1):
            for c in range(n - 1):
                a = r * (n - 1) + c
                q = self.pad[r * n + c]
                self.area_tl[a] = q
                self.area_row[a] = r
                self.area_col[a] = c
                corner[0] = q
                corner[1] = q + 1
                corner[2] = q + W
                corner[3] = q + W + 1
                for k in range(4):
                    for i in range(4):
                        if self.pt_area[4 * corner[k] + i] == -1:
                            self.pt_area[4 * corner[k] + i] = a
                            self.pt_corner[4 * corner[k] + i] = k
                            break
        for p in range(P):
            r, c = p // n, p % n
            self.sym[p] = p
            self.sym[P + p] = r * n + (n - 1 - c)                       # left-right mirror
            self.sym[2 * P + p] = (n - 1 - r) * n + c                   # top-bottom mirror
            self.sym[3 * P + p] = (n - 1 - r) * n + (n - 1 - c)         # half turn
            self.sym[4 * P + p] = c * n + r                             # transpose
            self.sym[5 * P + p] = (n - 1 - c) * n + (n - 1 - r)         # anti-transpose
            self.sym[6 * P + p] = c * n + (n - 1 - r)                   # quarter turn clockwise
            self.sym[7 * P + p] = (n - 1 - c) * n + r                   # quarter turn anticlockwise
        self.names = tuple(point_name(n, p) for p in range(P))

    def area_points(self, int a):
        """TL, TR, BL, BR points of area ``a``."""
        if not 0 <= a < self.num_areas:
            raise ValueError(f"area must be in 0..{self.num_areas - 1}, got {a}")
        q = self.area_tl[a]
        W = self.width
        return [self.unpad[q], self.unpad[q + 1], self.unpad[q + W], self.unpad[q + W + 1]]

    def areas_of(self, int p):
        """The areas that hold point ``p`` (one to four)."""
        if not 0 <= p < self.num_points:
            raise ValueError(f"point must be in 0..{self.num_points - 1}, got {p}")
        q = self.pad[p]
        return [self.pt_area[4 * q + i] for i in range(4) if self.pt_area[4 * q + i] >= 0]

    def edges_of(self, int p):
        """Which edges point ``p`` lies on: a subset of top, bottom, left, right."""
        if not 0 <= p < self.num_points:
            raise ValueError(f"point must be in 0..{self.num_points - 1}, got {p}")
        bits = self.edge[self.pad[p]]
        return [name for i, name in enumerate(("top", "bottom", "left", "right")) if bits >> i & 1]

    def symmetry_maps(self):
        """The eight point maps (each a tuple: point -> image), in the order
        the class docstring gives; the first four keep each edge pair."""
        P = self.num_points
        return [tuple(self.sym[s * P + p] for p in range(P)) for s in range(SQUARE_SYMMETRIES)]

    def __repr__(self):
        return f"{type(self).__name__}({self.size})"

    def __reduce__(self):
        return (type(self), (self.size,))

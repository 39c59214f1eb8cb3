# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""C kernel of Flipway (rules and every interpretation: docs/rules/flipway.md).

Board: ``N x N`` points, point ``p = r * N + c`` with row ``r = 0`` at the top;
the top and bottom rows are Black's edges, the left and right columns White's.
A 2x2 *area* is named by its top-left point ``(r, c)``, ``r, c < N - 1``, and
numbered ``a = r * (N - 1) + c``. Points are written ``<column letter><row
number>`` with ``a`` the left column and row ``1`` at the bottom (``a1`` is the
bottom-left corner), as in the Y family.

Action ids. A move is one id, whatever area it was chosen through:
- ``[0, S)`` *stone sets*: every nonempty set of points that fits inside one
  2x2 area, numbered by shape (``P = N*N``, ``H = N*(N-1)``, ``A = (N-1)**2``):
  ``[0, P)`` one point ``p``; ``[P, P+H)`` a horizontal pair ``(r,c),(r,c+1)``
  as ``P + r*(N-1) + c``; ``[P+H, P+2H)`` a vertical pair ``(r,c),(r+1,c)`` as
  ``P + H + r*N + c``; ``[Q, Q+7A)`` with ``Q = P + 2H`` the sets that fit in
  only one area (both diagonals, the four triples, the whole area) as
  ``Q + 7*a + k``, ``k`` indexing the area mask (bits TL=1, TR=2, BL=4, BR=8)
  in the order 6, 7, 9, 11, 13, 14, 15. ``S = P + 2H + 7A``.
  A drop is the set of stones it places, so drops through two areas that
  place the same stones are the same id; Black's pie opening (1-4 stones in
  one area) is the same id space; in the checkered openings a one-point id
  names the white stone Black replaces.
- ``[S, S+A)`` a flip of the crosscut in area ``a`` (also the two-stone
  replacement of the checkered openings with pie, which is exactly a flip).
- ``S + A`` the swap (only with the pie rule).

The position lives in one malloc'd block (per area the drop it contributes
to the playout's move list, a padded colour grid, one byte per area
summarising its four colours, per-line stone counts) plus three bitsets (areas
with an empty point, areas contributing a drop, crosscuts), so a copy is a few
memcpys (and, under ``repetition=draw``, the short history since the last
progress move). The per-area byte makes both move generators table look-ups:
the empty mask of an area and whether it is a crosscut. Whether an area
contributes a drop depends only on which points of the 3x3 areas around it
are empty, so a drop recomputes the areas within two rows and columns of its
points and a flip none: a random playout picks its move from the two bitsets'
counts without listing the moves.
"""
cimport cython
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset
from libc.stdint cimport uint8_t, uint16_t, uint64_t

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_popcountll(unsigned long long) nogil
from games.core cimport GameCore, PLAYER_TERMINAL
from games.rng cimport Rng, mix64, rng_below
from games.boards cimport SquareGrid

SIZES = range(3, 20)


# Longest streak of consecutive neutral flips (flips that do not raise the
# number of same-colour adjacent pairs) on any board of these sizes, found by
# the exhaustive search of experiments/_flipway_neutral.pyx over every
# colouring of the full board; 0 on 3x3.
PROVEN_NEUTRAL_RUN = {3: 0, 4: 1, 5: 2}


cpdef int neutral_run_bound(int n):
    """The streak length the length bound assumes: proven for n <= 5, an
    assumption beyond (n * n, about three times the longest streak found); see
    docs/rules/flipway.md, "Repetition and game length"."""
    if n in PROVEN_NEUTRAL_RUN:
        return PROVEN_NEUTRAL_RUN[n]
    return n * n


cpdef int length_bound(int n):
    """Opening + swap + at most n*n drops + at most 2n(n-1) pair-raising
    flips (the pair count is at most 2n(n-1) and never falls), with a streak
    of neutral flips before and after each of those moves."""
    cdef int progress = 2 + n * n + 2 * n * (n - 1)
    return progress + (progress + 1) * neutral_run_bound(n)


cdef enum:
    MAX_N = 19
    MAX_W = MAX_N + 2
    MAX_GRID = MAX_W * MAX_W
    AREA_WORDS = 6             # 64-bit words for a bit per area: 6 * 64 >= 18 * 18

cpdef enum Setup:
    SETUP_EMPTY = 0
    SETUP_CHECKERED = 1        # checkerboard, top-left point black
    SETUP_CHECKERED_ALT = 2    # the other checkerboard: top-left point white
    SETUP_BLOCKS = 3           # 2x2 blocks, the top-left block black

cpdef enum Phase:
    PHASE_OPENING = 0          # Black's first action
    PHASE_PIE = 1              # White's first turn with the pie rule: swap allowed
    PHASE_NORMAL = 2

cpdef enum Repetition:
    REP_ALLOWED = 0            # Bolaños Mures's rules: positions may recur, play goes on
    REP_DRAW = 1               # the game ends in a draw when a position recurs

# Masks of the seven area-only stone sets, in id order.
cdef int AREA_MASKS[7]
AREA_MASKS[:] = [6, 7, 9, 11, 13, 14, 15]
cdef int AREA_KIND[16]          # mask -> k, or -1 for masks that are not area-only
cdef uint8_t EMPTY_MASK[256]    # area code -> mask of its empty points
cdef uint8_t CROSSCUT[256]      # area code -> 0, or mask of the BLACK diagonal (9 or 6)


cdef void _init_tables():
    cdef int code, i, m
    cdef int col[4]
    for i in range(16):
        AREA_KIND[i] = -1
    for i in range(7):
        AREA_KIND[AREA_MASKS[i]] = i
    for code in range(256):
        m = 0
        for i in range(4):
            col[i] = (code >> (2 * i)) & 3
            if col[i] == EMPTY:
                m |= 1 << i
        EMPTY_MASK[code] = m
        CROSSCUT[code] = 0
        # corners: 0 TL, 1 TR, 2 BL, 3 BR; diagonals TL-BR and TR-BL
        if col[0] == col[3] and col[1] == col[2] and col[0] != col[1] \
                and col[0] in (BLACK, WHITE) and col[1] in (BLACK, WHITE):
            CROSSCUT[code] = 9 if col[0] == BLACK else 6

_init_tables()


cdef inline int _nth_set_bit(const uint64_t* bits, int words, int j) noexcept:
    """The index of the ``j``-th set bit (from 0) of a ``words``-word bitset;
    -1 when it has ``j`` or fewer."""
    cdef int w, cnt
    cdef uint64_t x
    for w in range(words):
        x = bits[w]
        cnt = __builtin_popcountll(x)
        if j < cnt:
            while j:
                x &= x - 1
                j -= 1
            return (w << 6) + __builtin_ctzll(x)
        j -= cnt
    return -1


cdef class SquareBoard(SquareGrid):
    """Flipway's board: the square grid (games/boards) plus Flipway's action
    encoding, the points of every stone set (module docstring). The grid's
    first four symmetries are the ones that keep each colour's pair of edges."""
    cdef readonly int num_sets
    cdef int hpairs, area_base
    cdef int* set_pts                # [num_sets * 4] padded points, -1 padded
    cdef uint8_t* set_len

    def __cinit__(self):
        self.set_pts = NULL
        self.set_len = NULL

    def __dealloc__(self):
        free(self.set_pts)
        free(self.set_len)

    def __reduce__(self):
        return (get_board, (self.size,))      # the process's shared board of this size

    def __init__(self, int n):
        if n < 3 or n > MAX_N:
            raise ValueError(f"board_size must be in 3..{MAX_N}, got {n}")
        SquareGrid.__init__(self, n)
        cdef int N = n, P = n * n, A = (n - 1) * (n - 1)
        cdef int r, c, a, k, i, s, q, p
        self.hpairs = N * (N - 1)
        self.area_base = P + 2 * N * (N - 1)
        self.num_sets = self.area_base + 7 * A
        self.set_pts = <int*>malloc(self.num_sets * 4 * sizeof(int))
        self.set_len = <uint8_t*>malloc(self.num_sets)
        if not (self.set_pts and self.set_len):
            raise MemoryError()
        for i in range(self.num_sets * 4):
            self.set_pts[i] = -1
        for p in range(P):
            self.set_pts[4 * p] = self.pad[p]
            self.set_len[p] = 1
        for r in range(N):
            for c in range(N - 1):
                i = P + r * (N - 1) + c
                self.set_pts[4 * i] = self.pad[r * N + c]
                self.set_pts[4 * i + 1] = self.pad[r * N + c + 1]
                self.set_len[i] = 2
        for r in range(N - 1):
            for c in range(N):
                i = P + self.hpairs + r * N + c
                self.set_pts[4 * i] = self.pad[r * N + c]
                self.set_pts[4 * i + 1] = self.pad[(r + 1) * N + c]
                self.set_len[i] = 2
        for a in range(A):
            q = self.area_tl[a]
            for k in range(7):
                s = self.area_base + 7 * a + k
                self.set_len[s] = 0
                for i in range(4):
                    if (AREA_MASKS[k] >> i) & 1:
                        self.set_pts[4 * s + self.set_len[s]] = q + (i & 1) + (i >> 1) * self.width
                        self.set_len[s] += 1

    def set_points(self, int action):
        """The points of stone set ``action`` (0 <= action < num_sets)."""
        if not 0 <= action < self.num_sets:
            raise ValueError(f"not a stone-set id: {action}")
        return [self.unpad[self.set_pts[4 * action + i]] for i in range(self.set_len[action])]

    def set_id(self, points):
        """The stone-set id of a set of points that fits in one 2x2 area."""
        pts = sorted(set(points))
        N = self.size
        if not pts or any(not 0 <= p < self.num_points for p in pts):
            raise ValueError(f"not a set of points: {points}")
        rows = [p // N for p in pts]
        cols = [p % N for p in pts]
        r0, c0 = min(rows), min(cols)
        if max(rows) - r0 > 1 or max(cols) - c0 > 1:
            raise ValueError(f"points {points} do not fit in one 2x2 area")
        if len(pts) == 1:
            return pts[0]
        if len(pts) == 2 and rows[0] == rows[1]:
            return self.num_points + r0 * (N - 1) + c0
        if len(pts) == 2 and cols[0] == cols[1]:
            return self.num_points + self.hpairs + r0 * N + c0
        mask = 0
        for p in pts:
            mask |= 1 << (2 * (p // N - r0) + (p % N - c0))
        return self.area_base + 7 * (r0 * (N - 1) + c0) + AREA_KIND[mask]


cdef dict _BOARDS = {}


def get_board(int n):
    """One shared ``SquareBoard`` per size."""
    board = _BOARDS.get(n)
    if board is None:
        board = _BOARDS[n] = SquareBoard(n)
    return board


def setup_colours(int n, int setup):
    """Colours (0 empty, 1 Black, 2 White) of the starting position, by point."""
    cols = []
    for r in range(n):
        for c in range(n):
            if setup == SETUP_EMPTY:
                cols.append(EMPTY)
            elif setup == SETUP_CHECKERED:
                cols.append(BLACK if (r + c) % 2 == 0 else WHITE)
            elif setup == SETUP_CHECKERED_ALT:
                cols.append(WHITE if (r + c) % 2 == 0 else BLACK)
            elif setup == SETUP_BLOCKS:
                cols.append(BLACK if (r // 2 + c // 2) % 2 == 0 else WHITE)
            else:
                raise ValueError(f"unknown setup {setup}")
    return cols


cdef class FlipwayCore(GameCore):
    """One Flipway position. ``to_move`` is a colour (0 Black, 1 White);
    after a swap the players have exchanged colours, so player = colour ^ swapped."""
    cdef readonly SquareBoard board
    cdef readonly int setup
    cdef readonly bint pie
    cdef readonly int repetition
    cdef int N, W, P, A, S
    cdef int block_size
    cdef uint8_t* mem          # area drops | colour grid | area codes | line counts
    cdef uint16_t* amove       # [A]: the drop area a contributes to the move list (when its bit is set)
    cdef uint8_t* col
    cdef uint8_t* code
    cdef uint8_t* lines        # [2 * N]: Black stones per row, White stones per column
    cdef int covered[2]        # rows (Black) / columns (White) holding a stone of the colour
    cdef int num_empty
    cdef int num_cross
    cdef int to_move
    cdef bint swapped
    cdef int phase
    cdef int winner            # colour, -1 while running, 2 for a draw (repetition=draw)
    cdef int num_placements, num_drops, num_flips, num_replacements, num_turns
    cdef int same_pairs        # orthogonally adjacent stone pairs of one colour (never falls)
    cdef int num_neutral       # flips that left same_pairs unchanged
    cdef int run, longest_run  # current / longest streak of consecutive neutral flips
    cdef uint64_t board_hash
    cdef uint64_t open_bits[AREA_WORDS]    # areas holding an empty point
    cdef uint64_t cross_bits[AREA_WORDS]   # areas that are crosscuts
    cdef uint64_t drop_bits[AREA_WORDS]    # areas contributing a drop (``_area_drop``)
    # repetition=draw: hashes of the positions since the last drop (flips and
    # the swap cannot recreate a position from before a drop: drops fill points)
    cdef uint64_t* history
    cdef int hist_len, hist_cap

    def __cinit__(self):
        self.mem = NULL
        self.history = NULL

    def __dealloc__(self):
        free(self.mem)
        free(self.history)

    def __init__(self, int board_size=0, int setup=0, bint pie=False, int repetition=0):
        if board_size == 0:        # bare instance made by copy()
            return
        if setup not in (SETUP_EMPTY, SETUP_CHECKERED, SETUP_CHECKERED_ALT, SETUP_BLOCKS):
            raise ValueError(f"setup must be one of 0..3, got {setup}")
        if repetition not in (REP_ALLOWED, REP_DRAW):
            raise ValueError(f"repetition must be 0 or 1, got {repetition}")
        self._setup(get_board(board_size), setup, pie, repetition)
        self._load(setup_colours(board_size, setup), 0, False, PHASE_OPENING)

    cdef void _setup(self, SquareBoard board, int setup, bint pie, int repetition) except *:
        self.board = board
        self.setup = setup
        self.pie = pie
        self.repetition = repetition
        self.N = board.size
        self.W = board.width
        self.P = board.num_points
        self.A = board.num_areas
        self.S = board.num_sets
        self.block_size = 2 * self.A + self.W * self.W + self.A + 2 * self.N
        self.num_players = 2
        self.num_actions = self.S + self.A + (1 if pie else 0)
        self.max_chance_outcomes = 0
        self.max_game_length = self._length_bound()
        self.mem = <uint8_t*>malloc(self.block_size)
        if self.mem == NULL:
            raise MemoryError()
        self.amove = <uint16_t*>self.mem
        self.col = self.mem + 2 * self.A
        self.code = self.col + self.W * self.W
        self.lines = self.code + self.A

    cdef int _length_bound(self):
        return length_bound(self.N)

    cdef void _load(self, list colours, int to_move, bint swapped, int phase) except *:
        cdef int p, q, a, c
        memset(self.mem, 0, self.block_size)
        for q in range(self.W * self.W):
            self.col[q] = OFF
        self.num_empty = 0
        self.board_hash = 0
        self.covered[0] = self.covered[1] = 0
        for p in range(self.P):
            q = self.board.pad[p]
            c = colours[p]
            if c not in (EMPTY, BLACK, WHITE):
                raise ValueError(f"colour of point {p} must be 0, 1 or 2, got {c}")
            self.col[q] = c
            if c == EMPTY:
                self.num_empty += 1
            else:
                self.board_hash ^= self.board.zob[2 * q + c - 1]
                self._count_line(p, c - 1, 1)
        self.num_cross = 0
        memset(self.open_bits, 0, sizeof(self.open_bits))
        memset(self.cross_bits, 0, sizeof(self.cross_bits))
        for a in range(self.A):
            q = self.board.area_tl[a]
            self.code[a] = (self.col[q] | (self.col[q + 1] << 2) | (self.col[q + self.W] << 4)
                            | (self.col[q + self.W + 1] << 6))
            if CROSSCUT[self.code[a]]:
                self.num_cross += 1
                self.cross_bits[a >> 6] |= (<uint64_t>1) << (a & 63)
            if EMPTY_MASK[self.code[a]]:
                self.open_bits[a >> 6] |= (<uint64_t>1) << (a & 63)
        self._refresh_drops(0, self.N, 0, self.N)
        self.to_move = to_move
        self.swapped = swapped
        self.phase = phase
        self.winner = -1
        self.num_placements = self.num_drops = self.num_flips = 0
        self.num_replacements = self.num_turns = 0
        self.num_neutral = self.run = self.longest_run = 0
        self.same_pairs = 0
        for p in range(self.P):
            q = self.board.pad[p]
            if self.col[q] != EMPTY:
                self.same_pairs += (self.col[q + 1] == self.col[q]) + (self.col[q + self.W] == self.col[q])
        self.hist_len = 0
        if self.repetition == REP_DRAW:
            self._remember()

    @cython.final
    cdef inline void _count_line(self, int p, int k, int delta) noexcept:
        cdef int line = p // self.N if k == 0 else p % self.N
        cdef int i = k * self.N + line
        if delta > 0:
            if self.lines[i] == 0:
                self.covered[k] += 1
            self.lines[i] += 1
        else:
            self.lines[i] -= 1
            if self.lines[i] == 0:
                self.covered[k] -= 1

    cdef GameCore copy(self):
        cdef FlipwayCore other = FlipwayCore.__new__(FlipwayCore)
        other._setup(self.board, self.setup, self.pie, self.repetition)
        memcpy(other.mem, self.mem, self.block_size)
        other.covered[0] = self.covered[0]
        other.covered[1] = self.covered[1]
        other.num_empty = self.num_empty
        other.num_cross = self.num_cross
        memcpy(other.open_bits, self.open_bits, sizeof(self.open_bits))
        memcpy(other.cross_bits, self.cross_bits, sizeof(self.cross_bits))
        memcpy(other.drop_bits, self.drop_bits, sizeof(self.drop_bits))
        other.to_move = self.to_move
        other.swapped = self.swapped
        other.phase = self.phase
        other.winner = self.winner
        other.num_placements = self.num_placements
        other.num_drops = self.num_drops
        other.num_flips = self.num_flips
        other.num_replacements = self.num_replacements
        other.num_turns = self.num_turns
        other.same_pairs = self.same_pairs
        other.num_neutral = self.num_neutral
        other.run = self.run
        other.longest_run = self.longest_run
        other.board_hash = self.board_hash
        if self.repetition == REP_DRAW and self.hist_len:
            other._reserve(self.hist_len)
            memcpy(other.history, self.history, self.hist_len * sizeof(uint64_t))
            other.hist_len = self.hist_len
        return other

    # -- board changes -------------------------------------------------------

    @cython.final
    cdef inline void _set(self, int q, int k) noexcept:
        """Give the padded point q colour k (0 Black, 1 White)."""
        cdef SquareBoard b = self.board
        cdef int old = self.col[q]
        cdef int i, a, sh
        cdef uint8_t before, after
        cdef uint64_t bit
        cdef int p = b.unpad[q]
        cdef uint8_t* col = self.col
        cdef int W = self.W
        if old != EMPTY:
            self.same_pairs -= ((col[q - 1] == old) + (col[q + 1] == old)
                                + (col[q - W] == old) + (col[q + W] == old))
        self.same_pairs += ((col[q - 1] == k + 1) + (col[q + 1] == k + 1)
                            + (col[q - W] == k + 1) + (col[q + W] == k + 1))
        if old == EMPTY:
            self.num_empty -= 1
        else:
            self.board_hash ^= b.zob[2 * q + old - 1]
            self._count_line(p, old - 1, -1)
        self.col[q] = k + 1
        self.board_hash ^= b.zob[2 * q + k]
        self._count_line(p, k, 1)
        for i in range(4):
            a = b.pt_area[4 * q + i]
            if a < 0:
                break
            sh = 2 * b.pt_corner[4 * q + i]
            before = self.code[a]
            after = (before & ~(3 << sh)) | ((k + 1) << sh)
            self.code[a] = after
            bit = (<uint64_t>1) << (a & 63)
            if CROSSCUT[after]:
                self.cross_bits[a >> 6] |= bit
            else:
                self.cross_bits[a >> 6] &= ~bit
            if not EMPTY_MASK[after]:
                self.open_bits[a >> 6] &= ~bit
            self.num_cross += (CROSSCUT[after] != 0) - (CROSSCUT[before] != 0)

    cdef bint _has_chain(self, int k) noexcept:
        """Does colour k own an orthogonal chain between its two edges?
        Black: top row to bottom row; White: left column to right column."""
        if self.covered[k] < self.N:
            return False
        cdef int stack[MAX_GRID]
        cdef uint8_t seen[MAX_GRID]
        cdef int W = self.W, N = self.N
        cdef int top = 0, i, q, nb, d
        cdef int colour = k + 1
        cdef int steps[4]
        steps[0] = 1
        steps[1] = -1
        steps[2] = W
        steps[3] = -W
        memset(seen, 0, W * W)
        for i in range(N):
            q = (W + 1 + i) if k == 0 else ((i + 1) * W + 1)
            if self.col[q] == colour:
                seen[q] = 1
                stack[top] = q
                top += 1
        while top:
            top -= 1
            q = stack[top]
            if (k == 0 and q // W == N) or (k == 1 and q % W == N):
                return True
            for d in range(4):
                nb = q + steps[d]
                if self.col[nb] == colour and not seen[nb]:
                    seen[nb] = 1
                    stack[top] = nb
                    top += 1
        return False

    @cython.final
    cdef inline bint _chain_through(self, int k, int q0, int q1, int q2, int q3) noexcept:
        """Does the group of colour k holding the new stones q0..q3 (-1 for
        none) join k's two edges? A move that wins must complete a chain
        through one of the stones it just turned, so only their groups are
        flooded, and the flood stops as soon as both edges are reached."""
        if self.covered[k] < self.N:
            return False
        cdef int stack[MAX_GRID]
        cdef uint8_t seen[MAX_GRID]
        cdef int W = self.W
        cdef int top = 0, q, nb, i
        cdef int colour = k + 1
        cdef int want = 3 if k == 0 else 12
        cdef int got = 0
        cdef uint8_t* edge = self.board.edge
        cdef uint8_t* col = self.col
        cdef int starts[4]
        starts[0] = q0
        starts[1] = q1
        starts[2] = q2
        starts[3] = q3
        memset(seen, 0, W * W)
        for i in range(4):
            q = starts[i]
            if q >= 0 and not seen[q]:
                # a new group: flood it afresh (stones met before are in it already)
                got = 0
                seen[q] = 1
                stack[0] = q
                top = 1
                while top:
                    top -= 1
                    q = stack[top]
                    got |= edge[q]
                    if (got & want) == want:
                        return True
                    nb = q + 1
                    if col[nb] == colour and not seen[nb]:
                        seen[nb] = 1
                        stack[top] = nb
                        top += 1
                    nb = q - 1
                    if col[nb] == colour and not seen[nb]:
                        seen[nb] = 1
                        stack[top] = nb
                        top += 1
                    nb = q + W
                    if col[nb] == colour and not seen[nb]:
                        seen[nb] = 1
                        stack[top] = nb
                        top += 1
                    nb = q - W
                    if col[nb] == colour and not seen[nb]:
                        seen[nb] = 1
                        stack[top] = nb
                        top += 1
        return False

    # -- move generation -----------------------------------------------------

    cdef inline bint _single_ok(self, int q) noexcept:
        cdef int W = self.W
        cdef uint8_t* col = self.col
        return (col[q] == EMPTY and col[q - W - 1] and col[q - W] and col[q - W + 1]
                and col[q - 1] and col[q + 1] and col[q + W - 1] and col[q + W] and col[q + W + 1])

    cdef inline bint _hpair_ok(self, int q) noexcept:
        cdef int W = self.W
        cdef uint8_t* col = self.col
        return (col[q] == EMPTY and col[q + 1] == EMPTY and col[q - W] and col[q - W + 1]
                and col[q + W] and col[q + W + 1])

    cdef inline bint _vpair_ok(self, int q) noexcept:
        cdef int W = self.W
        cdef uint8_t* col = self.col
        return (col[q] == EMPTY and col[q + W] == EMPTY and col[q - 1] and col[q + W - 1]
                and col[q + 1] and col[q + W + 1])

    cdef inline bint _in_crosscut(self, int q) noexcept:
        cdef SquareBoard b = self.board
        cdef int i, a
        for i in range(4):
            a = b.pt_area[4 * q + i]
            if a < 0:
                break
            if CROSSCUT[self.code[a]]:
                return True
        return False

    cdef int _drops(self, int* out) noexcept:
        """The legal drops in ascending id order: maximal empty sets of areas."""
        cdef int n = 0, r, c, a, k, q
        cdef int N = self.N, W = self.W, P = self.P
        cdef int hbase = P, vbase = P + N * (N - 1), abase = self.board.area_base
        for r in range(N):
            q = (r + 1) * W + 1
            for c in range(N):
                if self._single_ok(q + c):
                    out[n] = r * N + c
                    n += 1
        for r in range(N):
            q = (r + 1) * W + 1
            for c in range(N - 1):
                if self._hpair_ok(q + c):
                    out[n] = hbase + r * (N - 1) + c
                    n += 1
        for r in range(N - 1):
            q = (r + 1) * W + 1
            for c in range(N):
                if self._vpair_ok(q + c):
                    out[n] = vbase + r * N + c
                    n += 1
        for a in range(self.A):
            k = AREA_KIND[EMPTY_MASK[self.code[a]]]
            if k >= 0:
                out[n] = abase + 7 * a + k
                n += 1
        return n

    cdef int _flips(self, int* out) noexcept:
        """Flips in ascending id order, read off the crosscut bitset."""
        cdef int n = 0, w
        cdef uint64_t x
        if self.num_cross == 0:
            return 0
        for w in range((self.A + 63) >> 6):
            x = self.cross_bits[w]
            while x:
                out[n] = self.S + (w << 6) + __builtin_ctzll(x)
                n += 1
                x &= x - 1
        return n

    cdef int legal_actions(self, int* out) noexcept:
        cdef int n = 0, p, q
        if self.winner >= 0:
            return 0
        if self.phase == PHASE_OPENING:
            if self.setup == SETUP_EMPTY:
                for p in range(self.S if self.pie else self.P):
                    if self._all_empty(p):
                        out[n] = p
                        n += 1
                return n
            for p in range(self.P):
                q = self.board.pad[p]
                if self.col[q] == WHITE and (not self.pie or self._in_crosscut(q)):
                    out[n] = p
                    n += 1
            if self.pie:
                n += self._flips(out + n)
            return n
        if self.num_empty:
            n = self._drops(out)
        n += self._flips(out + n)
        if self.phase == PHASE_PIE:
            out[n] = self.S + self.A
            n += 1
        return n

    cdef inline bint _all_empty(self, int action) noexcept:
        """Are all points of stone set ``action`` empty? (Openings on an empty
        setup; only a hand-loaded position can make this false.)"""
        cdef SquareBoard b = self.board
        cdef int i
        for i in range(b.set_len[action]):
            if self.col[b.set_pts[4 * action + i]] != EMPTY:
                return False
        return True

    cdef bint _drop_ok(self, int action) noexcept:
        cdef SquareBoard b = self.board
        cdef int N = self.N, P = self.P, a, i
        cdef int q = b.set_pts[4 * action]
        if action < P:
            return self._single_ok(q)
        if action < P + N * (N - 1):
            return self._hpair_ok(q)
        if action < b.area_base:
            return self._vpair_ok(q)
        a = (action - b.area_base) // 7
        i = (action - b.area_base) % 7
        return EMPTY_MASK[self.code[a]] == AREA_MASKS[i]

    cdef bint is_legal(self, int action) noexcept:
        cdef int q
        if self.winner >= 0 or action < 0 or action >= self.num_actions:
            return False
        if action == self.S + self.A:
            return self.phase == PHASE_PIE
        if self.phase == PHASE_OPENING:
            if self.setup == SETUP_EMPTY:
                return action < (self.S if self.pie else self.P) and self._all_empty(action)
            if action < self.P:
                q = self.board.pad[action]
                return self.col[q] == WHITE and (not self.pie or self._in_crosscut(q))
            if action >= self.S:
                return self.pie and CROSSCUT[self.code[action - self.S]] != 0
            return False
        if action >= self.S:
            return CROSSCUT[self.code[action - self.S]] != 0
        return self.num_empty > 0 and self._drop_ok(action)

    # -- playing -------------------------------------------------------------

    cdef void apply(self, int action) noexcept:
        cdef SquareBoard b = self.board
        cdef int k = self.to_move
        cdef int i, q, a, cross
        cdef int before = self.same_pairs
        cdef bint neutral = False
        self.num_turns += 1
        if action == self.S + self.A:
            # The players exchange colours; the board and the colour to move
            # (White) stay, so the player who opened now moves, as White.
            self.swapped = True
            self.phase = PHASE_NORMAL
            self.run = 0
            if self.repetition == REP_DRAW:
                self.hist_len = 0
                self._after_move()
            return
        cdef int turned[4]
        turned[0] = turned[1] = turned[2] = turned[3] = -1
        cdef int p, r0 = MAX_N, r1 = -1, c0 = MAX_N, c1 = -1
        if action < self.S:
            for i in range(b.set_len[action]):
                q = b.set_pts[4 * action + i]
                if self.col[q] == EMPTY:
                    self.num_placements += 1
                    p = b.unpad[q]
                    r0 = min(r0, p // self.N)
                    r1 = max(r1, p // self.N)
                    c0 = min(c0, p % self.N)
                    c1 = max(c1, p % self.N)
                else:
                    self.num_replacements += 1
                self._set(q, k)
                turned[i] = q
            if r1 >= 0:
                # the areas whose contributed drop may read a filled point
                self._refresh_drops(r0 - 2, r1 + 2, c0 - 2, c1 + 2)
            if self.phase != PHASE_OPENING:
                self.num_drops += 1
            self.run = 0
        else:
            a = action - self.S
            q = b.area_tl[a]
            cross = CROSSCUT[self.code[a]]
            # cross is the mask of Black's diagonal; the enemy holds the other
            if (k == 0) == (cross == 9):
                turned[0] = q + 1
                turned[1] = q + self.W
            else:
                turned[0] = q
                turned[1] = q + self.W + 1
            self._set(turned[0], k)
            self._set(turned[1], k)
            self.num_flips += 1
            if self.same_pairs == before:
                neutral = True
                self.num_neutral += 1
                self.run += 1
                if self.run > self.longest_run:
                    self.longest_run = self.run
            else:
                self.run = 0
        if self._chain_through(k, turned[0], turned[1], turned[2], turned[3]):
            self.winner = k
            return
        self.phase = PHASE_PIE if (self.phase == PHASE_OPENING and self.pie) else PHASE_NORMAL
        self.to_move = 1 - k
        if self.repetition == REP_DRAW:
            if not neutral:
                # Same-colour pairs never decrease and empty points never
                # return, so only a streak of neutral flips can lead back to
                # an earlier position: the history starts afresh here.
                self.hist_len = 0
            self._after_move()

    cdef void _reserve(self, int n) noexcept:
        cdef uint64_t* grown
        if n <= self.hist_cap:
            return
        cdef int cap = 64 if self.hist_cap == 0 else self.hist_cap
        while cap < n:
            cap *= 2
        grown = <uint64_t*>malloc(cap * sizeof(uint64_t))
        if self.hist_len:
            memcpy(grown, self.history, self.hist_len * sizeof(uint64_t))
        free(self.history)
        self.history = grown
        self.hist_cap = cap

    cdef void _remember(self) noexcept:
        self._reserve(self.hist_len + 1)
        self.history[self.hist_len] = self.hash()
        self.hist_len += 1

    cdef void _after_move(self) noexcept:
        """repetition=draw: a recurring position ends the game in a draw, and
        so does reaching max_game_length moves (docs/rules/flipway.md)."""
        cdef uint64_t h = self.hash()
        cdef int i
        for i in range(self.hist_len):
            if self.history[i] == h:
                self.winner = 2
                return
        if self.num_turns >= self.max_game_length:
            self.winner = 2
            return
        self._remember()

    cdef int current_player(self) noexcept:
        if self.winner >= 0:
            return PLAYER_TERMINAL
        return self.to_move ^ self.swapped

    cdef bint is_terminal(self) noexcept:
        return self.winner >= 0

    cdef void returns(self, double* out) noexcept:
        cdef int w
        if self.winner < 0 or self.winner == 2:
            out[0] = 0.0
            out[1] = 0.0
        else:
            w = self.winner ^ self.swapped
            out[w] = 1.0
            out[1 - w] = -1.0

    cdef uint64_t _extras(self) noexcept:
        return mix64(<uint64_t>(self.to_move + 2 * self.swapped + 4 * self.phase
                                + 16 * (self.winner + 1)) + <uint64_t>0x5151)

    cdef uint64_t hash(self) noexcept:
        return self.board_hash ^ self._extras()

    cdef int num_symmetries(self) noexcept:
        return 4

    cdef uint64_t symmetric_hash(self, int symmetry) noexcept:
        cdef SquareBoard b = self.board
        cdef uint64_t h = 0
        cdef int p, q
        if symmetry == 0:
            return self.hash()
        for p in range(self.P):
            q = b.pad[p]
            if self.col[q] != EMPTY:
                h ^= b.zob[2 * b.pad[b.sym[symmetry * self.P + p]] + self.col[q] - 1]
        return h ^ self._extras()

    @cython.final
    cdef inline int _area_drop(self, int a) noexcept:
        """The drop area ``a`` contributes to the playout's move list, or -1.
        A set that several areas share is contributed by one of them only: a
        single by the first area holding its point, a pair by the area above
        / left of it. Reads the empty masks of the 3x3 areas around ``a``."""
        cdef SquareBoard b = self.board
        cdef uint8_t* code = self.code
        cdef int N1 = self.N - 1, N = self.N
        cdef int m = EMPTY_MASK[code[a]]
        cdef int k, r, c, i, q, a2
        if m == 0:
            return -1
        k = AREA_KIND[m]
        if k >= 0:
            return b.area_base + 7 * a + k
        r = b.area_row[a]
        c = b.area_col[a]
        if m == 12:        # bottom pair; the area below must hold no other empty
            if r == N1 - 1 or EMPTY_MASK[code[a + N1]] == 3:
                return self.P + (r + 1) * N1 + c
            return -1
        if m == 3:         # top pair: only the top row has no area above
            return self.P + c if r == 0 else -1
        if m == 10:        # right pair; the area to the right must agree
            if c == N1 - 1 or EMPTY_MASK[code[a + 1]] == 5:
                return self.P + N * N1 + r * N + c + 1
            return -1
        if m == 5:         # left pair: only the left column has no area to the left
            return self.P + N * N1 + r * N if c == 0 else -1
        # one empty point
        i = 0 if m == 1 else (1 if m == 2 else (2 if m == 4 else 3))
        q = b.area_tl[a] + (i & 1) + (i >> 1) * self.W
        if b.pt_area[4 * q] != a:
            return -1
        for i in range(1, 4):
            a2 = b.pt_area[4 * q + i]
            if a2 < 0:
                break
            if EMPTY_MASK[code[a2]] != (1 << b.pt_corner[4 * q + i]):
                return -1
        return b.unpad[q]

    @cython.final
    cdef inline void _refresh_drops(self, int r0, int r1, int c0, int c1) noexcept:
        """Recompute ``amove`` and ``drop_bits`` of the areas in rows
        [r0, r1) and columns [c0, c1) (clipped to the board): after points
        in rows [r0 + 2, r1 - 2) and columns [c0 + 2, c1 - 2) were filled."""
        cdef int N1 = self.N - 1, r, c, a, d
        cdef uint64_t bit
        if r0 < 0:
            r0 = 0
        if c0 < 0:
            c0 = 0
        if r1 > N1:
            r1 = N1
        if c1 > N1:
            c1 = N1
        for r in range(r0, r1):
            for c in range(c0, c1):
                a = r * N1 + c
                d = self._area_drop(a)
                bit = (<uint64_t>1) << (a & 63)
                if d >= 0:
                    self.amove[a] = <uint16_t>d
                    self.drop_bits[a >> 6] |= bit
                else:
                    self.drop_bits[a >> 6] &= ~bit

    cdef int _moves_any_order(self, int* out) noexcept:
        """The legal moves of a NORMAL/PIE position, unordered: the drops of
        the areas in ``drop_bits`` (kept up to date by every drop, each
        legal drop contributed by exactly one area) by area, then the flips,
        cheaper than ``legal_actions``' four ordered passes."""
        cdef int n = 0, w
        cdef uint64_t x
        for w in range((self.A + 63) >> 6):
            x = self.drop_bits[w]
            while x:
                out[n] = self.amove[(w << 6) + __builtin_ctzll(x)]
                n += 1
                x &= x - 1
        n += self._flips(out + n)
        return n

    @cython.final
    cdef inline int _pick_any_order(self, Rng* rng) noexcept:
        """``_moves_any_order``'s move at a uniformly random index (the same
        draw from ``rng``), found by counting bits instead of listing the
        moves; -1 when there is no move."""
        cdef int words = (self.A + 63) >> 6
        cdef int drops = 0, n, j, w
        for w in range(words):
            drops += __builtin_popcountll(self.drop_bits[w])
        n = drops + self.num_cross
        if n == 0:
            return -1
        j = rng_below(rng, n)
        if j < drops:
            return self.amove[_nth_set_bit(self.drop_bits, words, j)]
        return self.S + _nth_set_bit(self.cross_bits, words, j - drops)

    cdef void playout(self, Rng* rng) noexcept:
        cdef int* buf = NULL
        cdef int n, action
        while self.winner < 0:
            if self.phase == PHASE_NORMAL:
                action = self._pick_any_order(rng)
                if action < 0:
                    break
            else:
                if buf == NULL:
                    buf = <int*>malloc(self.num_actions * sizeof(int))
                n = self.legal_actions(buf)
                if n == 0:
                    break
                action = buf[rng_below(rng, n)]
            self.apply(action)
        free(buf)

    # -- Python face -----------------------------------------------------------

    def load(self, colours, int to_move=0, bint swapped=False, int phase=PHASE_NORMAL):
        """Replace the position by a hand-built one: ``colours`` per point (0
        empty, 1 Black, 2 White), the colour to move, whether the players
        have swapped, and the phase. Counters restart at zero. Raises if a
        chain already joins a colour's edges (no running game holds one)."""
        if len(colours) != self.P:
            raise ValueError(f"need {self.P} colours, got {len(colours)}")
        if to_move not in (0, 1) or phase not in (PHASE_OPENING, PHASE_PIE, PHASE_NORMAL):
            raise ValueError("to_move must be 0/1 and phase 0..2")
        self._load(list(colours), to_move, swapped, phase)
        for k in range(2):
            if self._has_chain(k):
                raise ValueError(f"{'Black' if k == 0 else 'White'} already owns a chain")

    def describe_action(self, int action):
        cdef SquareBoard b = self.board
        names = b.names
        if 0 <= action < self.S:
            return "+".join(names[p] for p in b.set_points(action))
        if self.S <= action < self.S + self.A:
            tl, _, _, br = b.area_points(action - self.S)
            return f"flip {names[tl]}-{names[br]}"
        if action == self.S + self.A and self.pie:
            return "swap"
        return f"<invalid action {action}>"

    def action_string(self, int player, int action):
        return self.describe_action(action)

    def action_from_string(self, str text):
        """Inverse of ``describe_action`` (for hand-written tests and tools)."""
        cdef SquareBoard b = self.board
        text = text.strip()
        if text == "swap" and self.pie:
            return self.S + self.A
        try:
            if text.startswith("flip "):
                tl = b.names.index(text[5:].split("-")[0])
                r, c = divmod(tl, self.N)
                if r >= self.N - 1 or c >= self.N - 1:
                    raise ValueError
                return self.S + r * (self.N - 1) + c
            return b.set_id([b.names.index(t) for t in text.split("+")])
        except ValueError:
            raise ValueError(f"not a Flipway move on this board: {text!r}") from None

    def moves_any_order(self):
        """The playout kernel's move list (NORMAL phase), for tests."""
        if self.winner >= 0 or self.phase != PHASE_NORMAL:
            return self.legal_action_list()
        cdef int* buf = <int*>malloc(self.num_actions * sizeof(int))
        cdef int n = self._moves_any_order(buf)
        result = [buf[i] for i in range(n)]
        free(buf)
        return result

    def setup_symmetries(self):
        """The symmetries (of the four ``symmetry_count`` offers) that map the
        starting position onto itself: the ones a search may use to skip
        mirror-image first moves. (Transposition keys may use all four: two
        positions that are mirror images have the same value whatever the
        start was.)"""
        start = setup_colours(self.N, self.setup)
        maps = self.board.symmetry_maps()
        return [s for s in range(4) if all(start[maps[s][p]] == start[p] for p in range(self.P))]

    def is_legal_action(self, int action):
        return self.is_legal(action)

    def cell_colours(self):
        """Per point: 0 empty, 1 Black, 2 White."""
        return [self.col[self.board.pad[p]] for p in range(self.P)]

    def colour_to_move(self):
        """0 Black, 1 White (whoever plays it after a swap)."""
        return self.to_move

    def is_swapped(self):
        return bool(self.swapped)

    def game_phase(self):
        return self.phase

    def winner_colour(self):
        """-1 running, 0 Black, 1 White, 2 draw (repetition=draw only)."""
        return self.winner

    def has_chain(self, int colour):
        if colour not in (0, 1):
            raise ValueError("colour must be 0 (Black) or 1 (White)")
        return self._has_chain(colour)

    def num_crosscuts(self):
        return self.num_cross

    def empty_points(self):
        return self.num_empty

    def position_key(self):
        """Exact identity of the position (colours and the hashed extras), for
        searches that must not trust a 64-bit hash."""
        return (bytes(self.cell_colours()), self.to_move, bool(self.swapped), self.phase,
                self.winner)

    def history_length(self):
        return self.hist_len

    def same_colour_pairs(self):
        """Orthogonally adjacent pairs of stones of one colour: never falls."""
        return self.same_pairs

    def playout_stats(self):
        """Counters of the game so far: ``placements`` stones put on empty
        points (the opening's included), ``drops`` drop moves, ``flips`` flip
        moves (a pie opening that turns a crosscut's two white stones is one),
        ``replacements`` white stones turned by a full-board opening point,
        ``turns`` moves of any kind (the swap included), ``neutral_flips`` and
        ``longest_neutral_streak`` (docs/rules/flipway.md, repetition), and
        ``winner``: -1 running, 0 Black, 1 White (colours), 2 draw."""
        return {"placements": self.num_placements, "drops": self.num_drops,
                "flips": self.num_flips, "replacements": self.num_replacements,
                "turns": self.num_turns, "neutral_flips": self.num_neutral,
                "longest_neutral_streak": self.longest_run, "empty_points": self.num_empty,
                "swapped": bool(self.swapped), "winner": self.winner}

    def nbytes(self):
        """Bytes the position occupies: the C object, its block and its history."""
        return type(self).__basicsize__ + self.block_size + self.hist_cap * 8

    def __reduce__(self):
        # OpenSpiel serialises a Python state by pickling its __dict__, the
        # core. The pickle holds what defines the position (colours, colour to
        # move, swap, phase, result), the game's counters and the draw history;
        # everything derived from the colours is rebuilt by ``_load``.
        counters = (self.num_placements, self.num_drops, self.num_flips, self.num_replacements,
                    self.num_turns, self.num_neutral, self.run, self.longest_run)
        history = [self.history[i] for i in range(self.hist_len)]
        return (_restore, (self.N, self.setup, self.pie, self.repetition,
                           bytes(self.cell_colours()), self.to_move, self.swapped, self.phase,
                           self.winner, counters, history))

    def to_string(self):
        N = self.N
        cols = self.cell_colours()
        lines = []
        for r in range(N):
            row = " ".join(".XO"[cols[r * N + c]] for c in range(N))
            lines.append(f"{N - r:>2} {row}")
        lines.append("   " + " ".join(chr(ord('a') + c) for c in range(N)))
        if self.winner == 2:
            status = "draw (position repeated or flip budget spent)"
        elif self.winner >= 0:
            status = f"{'Black' if self.winner == 0 else 'White'} wins"
        else:
            who = "Black" if self.to_move == 0 else "White"
            status = f"{who} (player {self.to_move ^ int(self.swapped)}) to move"
            if self.phase == PHASE_OPENING:
                status += ", opening"
            elif self.phase == PHASE_PIE:
                status += ", may swap"
        return "\n".join(lines) + "\n" + status

    def observation(self):
        """Planes Black/White/empty per point, then: Black to move, White to
        move, the mover is player 0, opening phase, swap available, swapped."""
        P = self.P
        obs = [0.0] * (3 * P + 6)
        for p in range(P):
            c = self.col[self.board.pad[p]]
            obs[(c - 1 if c else 2) * P + p] = 1.0
        if self.winner < 0:
            obs[3 * P + self.to_move] = 1.0
            obs[3 * P + 2] = 1.0 if (self.to_move ^ self.swapped) == 0 else 0.0
            obs[3 * P + 3] = 1.0 if self.phase == PHASE_OPENING else 0.0
            obs[3 * P + 4] = 1.0 if self.phase == PHASE_PIE else 0.0
        obs[3 * P + 5] = 1.0 if self.swapped else 0.0
        return obs


def _restore(int n, int setup, bint pie, int repetition, bytes colours, int to_move,
             bint swapped, int phase, int winner, tuple counters, list history):
    """Rebuild a pickled ``FlipwayCore`` (see ``FlipwayCore.__reduce__``)."""
    cdef FlipwayCore core = FlipwayCore.__new__(FlipwayCore)
    cdef int i
    core._setup(get_board(n), setup, pie, repetition)
    core._load(list(colours), to_move, swapped, phase)
    core.winner = winner
    (core.num_placements, core.num_drops, core.num_flips, core.num_replacements,
     core.num_turns, core.num_neutral, core.run, core.longest_run) = counters
    core.hist_len = 0
    core._reserve(len(history))
    for i in range(len(history)):
        core.history[i] = history[i]
    core.hist_len = len(history)
    return core

# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""C kernels of the Y family: plain Y (``YCore``) and the flip games
(``FlipCore``: Defector Y and Double-'0' Y under all their options).

The rules are in docs/rules/y.md, defector_y.md and double_o_y.md; this file
implements them and nothing else. Both cores keep their whole position in one
malloc'd block of a few bytes per cell, so a copy is one memcpy.

Action ids: placing on cell i is action i; flipping the stone on cell i is
action num_cells + i (flip games); swapping is action num_cells (plain Y with
the swap rule).

Two concepts are in files included below where they stand:
_y_family_conversion.pxi (crowding keys, the CROWD table, the salt of the
cells a local conversion examines) and _y_family_plain_y.pxi (``YCore``).
"""
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset
from libc.stdint cimport uint8_t, uint64_t
cimport cython
from games.core cimport GameCore, PLAYER_TERMINAL
from games.boards cimport LatticeBoard, MAX_WORDS, MAX_CELLS
from games.rng cimport Rng, rng_below, rng_seed, mix64

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil

cdef inline int _popcount(uint64_t x) noexcept nogil:
    """Bits set in x, by SWAR: without -mpopcnt, __builtin_popcountll is a
    call into libgcc, and the flip choice of a playout counts every step."""
    x = x - ((x >> 1) & <uint64_t>0x5555555555555555ULL)
    x = (x & <uint64_t>0x3333333333333333ULL) + ((x >> 2) & <uint64_t>0x3333333333333333ULL)
    x = (x + (x >> 4)) & <uint64_t>0x0F0F0F0F0F0F0F0FULL
    return <int>((x * <uint64_t>0x0101010101010101ULL) >> 56)


include "_y_family_conversion.pxi"   # crowding keys, CROWD, ZONE_SALT


cpdef enum TurnSequence:     # how many stones each turn of plain Y places
    SEQ_ALTERNATE = 0        # 1 1 1 ...
    SEQ_122 = 1              # 1 2 2 2 ...
    SEQ_123 = 2              # 1 2 3 3 3 ...
    SEQ_SLOW = 3             # 1 2 2 3 4 4 5 6 6 ...

cpdef enum FlipKinds:        # bit mask: which overcrowded stones flip
    FLIP_OPPONENTS = 1       # the opponent's, into the mover's
    FLIP_FRIENDS = 2         # the mover's, into the opponent's

cpdef enum FlipPoint:
    FLIP_BEFORE_LAST_PLACEMENT = 0   # Defector Y
    FLIP_AFTER_EACH_PLACEMENT = 1    # Double-'0' Y

cpdef enum WinRule:
    WIN_EVERY_MOVE = 0       # the mover wins as soon as it owns a Y
    WIN_TURN_START = 1       # at a turn's end, the player about to move wins with a Y
    WIN_TURN_END = 2         # at a turn's end, the mover wins with a Y

cdef enum:
    PHASE_PLACE = 0
    PHASE_FLIP = 1


cdef inline int _stones_in_turn(int seq, int turn) noexcept nogil:
    if turn == 0 or seq == SEQ_ALTERNATE:
        return 1
    if seq == SEQ_122:
        return 2
    if seq == SEQ_123:
        return 2 if turn == 1 else 3
    # slow: 1 2 2 | 3 4 4 | 5 6 6 | ...
    return 2 * (turn // 3) + (1 if turn % 3 == 0 else 2)


def _render(LatticeBoard board, list colours):
    """Rows of the board, top first, each indented so neighbours line up."""
    rows = {}
    for i, (r, c) in enumerate(board.coords):
        rows.setdefault(r, []).append((c, ".XO"[colours[i]]))
    lines = []
    min_c = {r: cells[0][0] for r, cells in rows.items()}
    for r in sorted(rows):
        # a cell (r, c) sits at column 2c - r so that (r+1, c) and (r+1, c+1)
        # fall left and right below it
        offset = 2 * min_c[r] - r + len(rows)
        lines.append(" " * offset + " ".join(ch for _, ch in rows[r]))
    return "\n".join(lines)


include "_y_family_plain_y.pxi"   # YPosition, YCore, _restore_y


cdef struct FlipPosition:
    int num_empty
    int player
    int phase
    int left            # placements left in this turn
    int turn
    int winner          # -1 while the game goes on
    int num_placements
    int num_flips
    int num_turns
    uint64_t board_hash


@cython.final
cdef class _NeighbourBits:
    """Per cell of one board, the bitset of its neighbours: the flip games'
    connectivity check floods a group a whole neighbourhood at a time with a
    few word operations instead of testing six colours one by one. One per
    board, shared by every position on it (``_neighbour_bits``)."""
    cdef uint64_t bits[MAX_CELLS][MAX_WORDS]
    cdef uint64_t bits_side[3][MAX_WORDS]   # the board's side bitsets, next to ``bits``
    # Boards of up to 128 cells (two words): per cell c, the bit of the cell
    # in each of its six neighbour slots and (slot 6) of c itself, 0 for the
    # sentinel, and ``around``, all seven. A cell kernel gathers the seven
    # new overcrowding bits in registers and writes each word once, where
    # seven read-modify-writes of the same word wait on each other.
    cdef uint64_t slot_bit[MAX_CELLS][7][2]
    cdef uint64_t around[MAX_CELLS][2]

    def __init__(self, LatticeBoard board):
        cdef int c, d, nb
        memset(self.bits, 0, sizeof(self.bits))
        for c in range(board.num_cells):
            for d in range(board.degree[c]):
                nb = board.nbr[c][d]
                self.bits[c][nb >> 6] |= (<uint64_t>1) << (nb & 63)
        memcpy(self.bits_side, board.side_bits, sizeof(self.bits_side))
        memset(self.slot_bit, 0, sizeof(self.slot_bit))
        memset(self.around, 0, sizeof(self.around))
        if board.num_words <= 2:
            for c in range(board.num_cells):
                for d in range(7):
                    nb = board.nbr[c][d] if d < 6 else c
                    if nb < board.num_cells:
                        self.slot_bit[c][d][nb >> 6] = (<uint64_t>1) << (nb & 63)
                        self.around[c][nb >> 6] |= (<uint64_t>1) << (nb & 63)


_NEIGHBOUR_BITS = {}


cdef _NeighbourBits _neighbour_bits(LatticeBoard board):
    key = (board.shape, board.size)
    table = _NEIGHBOUR_BITS.get(key)
    if table is None:
        table = _NEIGHBOUR_BITS[key] = _NeighbourBits(board)
    return table


@cython.final
@cython.no_gc
cdef class FlipCore(GameCore):
    """Defector Y and Double-'0' Y: Y with stones that flip when overcrowded.

    Per cell the core keeps its colour and its neighbour balance (Black
    minus White neighbours); per colour, a bitset of its stones, and one
    bitset of the overcrowded stones of both colours. A placement or flip
    touches one cell and its neighbours, so the set of stones that may flip
    next is always at hand. A cell's colour and neighbour balance are also
    kept together as one byte, its crowding key (see ``CROWD``), so the
    overcrowding bit is one table load. The colour and key arrays have one
    extra entry, the board's neighbour sentinel (cell n, always empty), so
    the cell kernels update six neighbours without a loop on the degree.
    Connectivity is recomputed (flood fill) only when a win check is due and
    the colour touches all three sides, and then only for the groups that
    hold a stone new to the colour since its last check that found no Y
    (``fresh``): a Y made of old stones would have been found then, and
    stones a colour loses never make it one. The flood takes a cell's whole
    neighbourhood at once from a per-board table of neighbour bitsets (two
    64-bit words handled as named locals on boards of up to 128 cells). A
    flood a ring at a time (six shifts of one 128-bit value in a padded
    row layout) was measured and dropped: random groups are stringy,
    about 2.5 cells a ring, so it cost more instructions than the cell walk.
    An incremental union-find was built and measured (branch history,
    commit 0d85ea1: joined on every placement, with the flipped stone's old
    group relabelled by a flood on every flip): exact, but about 10% more
    instructions per random double_o_y 11 game (callgrind), because a
    random game places ~63 stones and flips ~23 while a turn-end flood
    stops as soon as a group touches all three sides; docs/solved.md has
    the numbers.
    The random playout (``_fast_playout``) is ``apply``'s turn logic written
    out over local variables; tests check that it plays exactly the game
    that ``apply`` plays from the same random stream.
    """
    cdef readonly LatticeBoard board
    cdef int n
    cdef int W
    cdef uint8_t* mem          # color (n + 1) | key (n + 1) | empties (n) | pos (n)
    cdef uint8_t* color        # color[n]: the sentinel, always 0
    cdef uint8_t* key          # crowding keys (see CROWD); key[n] is 0 between moves
    cdef uint8_t* empties
    cdef uint8_t* pos
    cdef uint64_t own[2][MAX_WORDS]
    # overcrowded stones of both colours (own tells them apart); never an empty
    # cell, so with flip=all the stones to flip are exactly these
    cdef uint64_t crowded[MAX_WORDS]
    # fresh[k]: stones that became colour k since _has_y(k) last found no Y
    # (all of them when there was no such check). A Y that appears later must
    # hold one of them: the rest were there, and no Y among them, at that
    # check, and losing stones never makes a Y. So _has_y floods only the
    # groups of fresh stones, which turns most win checks into one small flood.
    cdef uint64_t fresh[2][MAX_WORDS]
    cdef _NeighbourBits adj
    cdef FlipPosition s
    # Board hash under each symmetry. Computed by a scan on the first
    # symmetric_hash call, then kept up to date by every placement and flip
    # of this position and of its copies: the solvers ask for all of them at
    # every child, while playouts (which never ask) pay one test per move.
    cdef uint64_t sym_cache[12]
    cdef bint sym_cache_valid
    cdef int flip_kinds
    cdef int flip_point
    cdef int win_rule
    cdef int later_placements
    # Which stones a conversion phase examines (docs/rules/defector_y.md,
    # "Conversion: board or local"): with ``local_conversion``, the cells at
    # and around the last placement, grown by the neighbours of each
    # conversion since; without it, every cell (all bits set, so the
    # qualifying test costs the board-wide games one AND and no branch). It
    # bears on the game only in a flip phase, so only then does it enter the
    # hash. The fast playout loop does not keep it (see ``playout``).
    cdef bint local_conversion
    cdef uint64_t zone[MAX_WORDS]

    def __cinit__(self):
        self.mem = NULL

    def __dealloc__(self):
        free(self.mem)

    def __init__(self, LatticeBoard board=None, int flip_kinds=FLIP_OPPONENTS,
                 int flip_point=FLIP_BEFORE_LAST_PLACEMENT, int win_rule=WIN_EVERY_MOVE,
                 int later_placements=1, bint local_conversion=False):
        if board is None:       # bare instance made by copy()
            return
        if flip_kinds not in (1, 2, 3) or flip_point not in (0, 1) or win_rule not in (0, 1, 2) \
                or later_placements not in (1, 2):
            raise ValueError("invalid flip-game configuration")
        if local_conversion and (flip_kinds != FLIP_OPPONENTS
                                 or flip_point != FLIP_BEFORE_LAST_PLACEMENT):
            raise ValueError("local conversion is a rule of Defector Y only "
                             "(opponent stones, before the last placement)")
        self._setup(board, flip_kinds, flip_point, win_rule, later_placements, local_conversion)
        memset(self.mem, 0, 4 * self.n + 2)
        cdef int i
        for i in range(self.n):
            self.empties[i] = i
            self.pos[i] = i
        self.s.num_empty = self.n
        memset(self.own, 0, sizeof(self.own))
        memset(self.crowded, 0, sizeof(self.crowded))
        memset(self.fresh, 0, sizeof(self.fresh))
        # local: nothing placed yet, nothing examined; board: every cell
        memset(self.zone, 0 if local_conversion else 0xFF, sizeof(self.zone))
        self.adj = _neighbour_bits(board)
        self.s.player = 0
        self.s.winner = -1
        self.s.turn = 0
        self._begin_turn()

    cdef void _setup(self, LatticeBoard board, int flip_kinds, int flip_point, int win_rule,
                     int later_placements, bint local_conversion):
        self.board = board
        self.local_conversion = local_conversion
        self.n = board.num_cells
        self.W = board.num_words
        self.flip_kinds = flip_kinds
        self.flip_point = flip_point
        self.win_rule = win_rule
        self.later_placements = later_placements
        self.num_players = 2
        self.num_actions = 2 * self.n
        # Each flip lowers the number of adjacent same-colour pairs by at least
        # one and each placement raises it by at most the cell's degree, so a
        # game has at most sum(degree) = 2 * edges flips.
        self.max_game_length = self.n + 2 * board.num_edges
        self.max_chance_outcomes = 0
        self.mem = <uint8_t*>malloc(4 * self.n + 2)
        if self.mem == NULL:
            raise MemoryError()
        self.color = self.mem
        self.key = self.mem + self.n + 1
        self.empties = self.mem + 2 * self.n + 2
        self.pos = self.mem + 3 * self.n + 2

    cdef GameCore copy(self):
        cdef FlipCore other = FlipCore.__new__(FlipCore)
        other._setup(self.board, self.flip_kinds, self.flip_point, self.win_rule,
                     self.later_placements, self.local_conversion)
        memcpy(other.mem, self.mem, 4 * self.n + 2)
        memcpy(other.own, self.own, sizeof(self.own))
        memcpy(other.crowded, self.crowded, sizeof(self.crowded))
        memcpy(other.fresh, self.fresh, sizeof(self.fresh))
        memcpy(other.zone, self.zone, sizeof(self.zone))
        other.adj = self.adj
        other.s = self.s
        other.sym_cache_valid = self.sym_cache_valid
        if self.sym_cache_valid:
            memcpy(other.sym_cache, self.sym_cache, sizeof(self.sym_cache))
        return other

    # -- overcrowding bookkeeping -----------------------------------------

    cdef inline uint64_t _qualifying_word_of(self, int p, int w) noexcept:
        """Stones player p would have to flip now, word w of the bitset."""
        cdef uint64_t q = self.crowded[w] & self.zone[w]
        if self.flip_kinds == FLIP_OPPONENTS:
            q &= self.own[1 - p][w]
        elif self.flip_kinds == FLIP_FRIENDS:
            q &= self.own[p][w]
        return q

    cdef inline bint _any_qualifying_of(self, int p) noexcept:
        cdef int w
        for w in range(self.W):
            if self._qualifying_word_of(p, w):
                return True
        return False

    cdef inline uint64_t _qualifying_word(self, int w) noexcept:
        """Stones the mover must flip now, word w of the bitset."""
        return self._qualifying_word_of(self.s.player, w)

    cdef inline bint _any_qualifying(self) noexcept:
        return self._any_qualifying_of(self.s.player)

    cdef inline bint _qualifies(self, int c) noexcept:
        return (self._qualifying_word(c >> 6) >> (c & 63)) & 1

    cdef inline void _refresh_around(self, uint8_t* key, int c, uint8_t step) noexcept:
        """On a board of at most 128 cells: add ``step`` to the keys of c's
        six neighbour slots and recompute the overcrowding bits of c and its
        neighbours, gathered in two registers (``_NeighbourBits.slot_bit``)."""
        cdef const uint8_t* nbr = self.board.nbr[c]
        cdef _NeighbourBits adj = self.adj
        cdef uint64_t set0 = 0, set1 = 0, m
        cdef int d, nb
        for d in range(6):
            nb = nbr[d]
            key[nb] += step
            m = CROWD[key[nb]]
            set0 |= adj.slot_bit[c][d][0] & m
            set1 |= adj.slot_bit[c][d][1] & m
        m = CROWD[key[c]]
        set0 |= adj.slot_bit[c][6][0] & m
        set1 |= adj.slot_bit[c][6][1] & m
        self.crowded[0] = (self.crowded[0] & ~adj.around[c][0]) | set0
        self.crowded[1] = (self.crowded[1] & ~adj.around[c][1]) | set1

    cdef void _examine_around(self, int c, bint restart) noexcept:
        """Local conversion: add c and its neighbours to the examined cells
        (``zone``), which a placement (``restart``) first empties."""
        cdef _NeighbourBits adj = self.adj
        cdef int w
        if self.W <= 2:
            if restart:
                self.zone[0] = adj.around[c][0]
                self.zone[1] = adj.around[c][1]
            else:
                self.zone[0] |= adj.around[c][0]
                self.zone[1] |= adj.around[c][1]
            return
        for w in range(self.W):
            if restart:
                self.zone[w] = adj.bits[c][w]
            else:
                self.zone[w] |= adj.bits[c][w]
        self.zone[c >> 6] |= (<uint64_t>1) << (c & 63)

    cdef inline uint64_t _put_stone(self, uint8_t* color, uint8_t* key, int c, int k) noexcept:
        """The cell kernel of a placement: a stone of colour k (0 Black, 1
        White) on the empty cell c, with colours, crowding keys and the
        own/fresh/crowded bitsets updated; returns c's Zobrist key for the
        caller to fold into its hash. ``color`` and ``key`` come from the
        caller's locals (byte stores alias everything, so fields read through
        ``self`` would be reloaded at every step). All six neighbour slots
        are updated, unused ones being the sentinel cell n (its key reset
        after): a fixed count unrolls, where a loop on the degree (2, 4 or 6)
        mispredicts."""
        cdef const uint8_t* nbr = self.board.nbr[c]
        cdef uint64_t* crowded = self.crowded
        cdef uint64_t bit = (<uint64_t>1) << (c & 63)
        cdef int d, nb
        cdef uint8_t step = <uint8_t>(1 - 2 * k)
        color[c] = k + 1
        key[c] += <uint8_t>(16 * (k + 1))
        self.own[k][c >> 6] |= bit
        self.fresh[k][c >> 6] |= bit
        if self.W <= 2:
            self._refresh_around(key, c, step)
        else:
            for d in range(6):
                nb = nbr[d]
                key[nb] += step
                _refresh_at(key, crowded, nb)
            _refresh_at(key, crowded, c)
        key[self.n] = 0
        return self.board.zobrist[c][k]

    cdef inline uint64_t _flip_stone(self, uint8_t* color, uint8_t* key, int c) noexcept:
        """The cell kernel of a flip: the stone on c changes colour, as
        ``_put_stone``; returns the change of the Zobrist hash."""
        cdef const uint8_t* nbr = self.board.nbr[c]
        cdef uint64_t* crowded = self.crowded
        cdef int k = color[c] - 1
        cdef uint64_t bit = (<uint64_t>1) << (c & 63)
        cdef int d, nb
        cdef uint8_t step = <uint8_t>(4 * k - 2)     # Black -> White: -2; White -> Black: +2
        color[c] = 2 - k
        key[c] += <uint8_t>(16 - 32 * k)             # colour code k + 1 -> 2 - k
        self.own[k][c >> 6] &= ~bit
        self.own[1 - k][c >> 6] |= bit
        self.fresh[1 - k][c >> 6] |= bit
        if self.W <= 2:
            self._refresh_around(key, c, step)
        else:
            for d in range(6):
                nb = nbr[d]
                key[nb] += step
                _refresh_at(key, crowded, nb)
            _refresh_at(key, crowded, c)
        key[self.n] = 0
        return self.board.zobrist[c][0] ^ self.board.zobrist[c][1]

    cdef void _put(self, int c, int k) noexcept:
        """Place a stone of colour k (0 Black, 1 White) on the empty cell c."""
        cdef LatticeBoard board = self.board
        cdef int d, last
        if self.sym_cache_valid:
            for d in range(board.num_syms):
                self.sym_cache[d] ^= board.zobrist[board.sym[d][c]][k]
        self.s.board_hash ^= self._put_stone(self.color, self.key, c, k)
        if self.local_conversion:
            self._examine_around(c, True)
        last = self.empties[self.s.num_empty - 1]
        self.empties[self.pos[c]] = last
        self.pos[last] = self.pos[c]
        self.s.num_empty -= 1

    cdef void _turn_over(self, int c) noexcept:
        """Change the colour of the stone on c."""
        cdef LatticeBoard board = self.board
        cdef int d, nb
        if self.sym_cache_valid:
            for d in range(board.num_syms):
                nb = board.sym[d][c]
                self.sym_cache[d] ^= board.zobrist[nb][0] ^ board.zobrist[nb][1]
        self.s.board_hash ^= self._flip_stone(self.color, self.key, c)
        if self.local_conversion:
            self._examine_around(c, False)

    cdef bint _has_y128(self, int k) noexcept:
        """``_has_y`` on a board of at most 128 cells, written over the two
        64-bit halves of each bitset. The cells not yet reached (``avail``)
        are kept instead of the group, so a cell's new neighbours are one AND
        and taking them one XOR; a group's sides are read off its bitset once
        at the end rather than cell by cell."""
        cdef _NeighbourBits adj = self.adj
        cdef uint64_t own0 = self.own[k][0], own1 = self.own[k][1]
        cdef uint64_t avail0 = own0, avail1 = own1
        cdef uint64_t seeds0 = own0 & self.fresh[k][0], seeds1 = own1 & self.fresh[k][1]
        cdef uint64_t todo0, todo1, grow0, grow1, g0, g1, start0, start1
        cdef int c, s
        for s in range(3):
            if not ((own0 & adj.bits_side[s][0]) | (own1 & adj.bits_side[s][1])):
                return False
        while seeds0 | seeds1:
            # one group, from the lowest seed
            if seeds0:
                todo0 = seeds0 & (<uint64_t>0 - seeds0)
                todo1 = 0
            else:
                todo0 = 0
                todo1 = seeds1 & (<uint64_t>0 - seeds1)
            start0 = avail0
            start1 = avail1
            avail0 &= ~todo0
            avail1 &= ~todo1
            while todo0 | todo1:
                if todo0:
                    c = __builtin_ctzll(todo0)
                    todo0 &= todo0 - 1
                else:
                    c = 64 + __builtin_ctzll(todo1)
                    todo1 &= todo1 - 1
                grow0 = adj.bits[c][0] & avail0
                grow1 = adj.bits[c][1] & avail1
                avail0 ^= grow0
                avail1 ^= grow1
                todo0 |= grow0
                todo1 |= grow1
            g0 = start0 ^ avail0
            g1 = start1 ^ avail1
            if (((g0 & adj.bits_side[0][0]) | (g1 & adj.bits_side[0][1]))
                    and ((g0 & adj.bits_side[1][0]) | (g1 & adj.bits_side[1][1]))
                    and ((g0 & adj.bits_side[2][0]) | (g1 & adj.bits_side[2][1]))):
                return True
            seeds0 &= avail0
            seeds1 &= avail1
        self.fresh[k][0] = 0
        self.fresh[k][1] = 0
        return False

    cdef bint _has_y(self, int k) noexcept:
        """Does colour k own one connected group touching all three sides?

        Floods only the groups that hold a fresh stone (see ``fresh``), a
        neighbourhood bitset at a time; finding none clears ``fresh[k]``."""
        if self.W <= 2:
            return self._has_y128(k)
        cdef LatticeBoard board = self.board
        cdef int W = self.W
        cdef int w, s, c
        cdef uint64_t any_seed = 0, touch, left
        cdef uint64_t seeds[MAX_WORDS]
        cdef uint64_t group[MAX_WORDS]
        cdef uint64_t todo[MAX_WORDS]
        cdef uint64_t grow
        cdef const uint64_t* own = self.own[k]
        cdef uint8_t mask
        for s in range(3):
            touch = 0
            for w in range(W):
                touch |= own[w] & board.side_bits[s][w]
            if not touch:
                return False
        for w in range(W):
            seeds[w] = self.fresh[k][w] & own[w]
            any_seed |= seeds[w]
        while any_seed:
            # one group: start from the lowest seed, take whole neighbourhoods
            for w in range(W):
                group[w] = 0
                todo[w] = 0
            for w in range(W):
                if seeds[w]:
                    c = (w << 6) + __builtin_ctzll(seeds[w])
                    break
            group[c >> 6] = todo[c >> 6] = (<uint64_t>1) << (c & 63)
            mask = 0
            left = 1
            while left:
                left = 0
                for w in range(W):
                    while todo[w]:
                        c = (w << 6) + __builtin_ctzll(todo[w])
                        todo[w] &= todo[w] - 1
                        mask |= board.side_mask[c]
                        for s in range(W):
                            grow = self.adj.bits[c][s] & own[s] & ~group[s]
                            group[s] |= grow
                            todo[s] |= grow
                    if mask == 7:
                        return True
                for w in range(W):
                    left |= todo[w]
            any_seed = 0
            for w in range(W):
                seeds[w] &= ~group[w]
                any_seed |= seeds[w]
        for w in range(W):
            self.fresh[k][w] = 0
        return False

    # -- turn structure ---------------------------------------------------

    cdef void _begin_turn(self) noexcept:
        self.s.num_turns += 1
        self.s.left = 1 if self.s.turn == 0 else self.later_placements
        self.s.phase = PHASE_PLACE
        if self.flip_point == FLIP_BEFORE_LAST_PLACEMENT and self.s.left == 1 \
                and self._any_qualifying():
            self.s.phase = PHASE_FLIP

    cdef void _end_turn(self) noexcept:
        cdef int mover = self.s.player
        if self.win_rule == WIN_TURN_START:
            if self._has_y(1 - mover):
                self.s.winner = 1 - mover
                return
        elif self.win_rule == WIN_TURN_END:
            if self._has_y(mover):
                self.s.winner = mover
                return
        if self.s.num_empty == 0:
            # A full board holds exactly one Y, and with no placement left
            # the game cannot go on: its owner wins (docs/rules).
            self.s.winner = 0 if self._has_y(0) else 1
            return
        self.s.player = 1 - mover
        self.s.turn += 1
        self._begin_turn()

    cdef void _after_flips_done(self) noexcept:
        """No stone qualifies any more: go on to the next placement or turn."""
        if self.flip_point == FLIP_AFTER_EACH_PLACEMENT:
            if self.s.left == 0 or self.s.num_empty == 0:
                self._end_turn()
            else:
                self.s.phase = PHASE_PLACE
        else:
            self.s.phase = PHASE_PLACE
            if self.s.num_empty == 0:
                self._end_turn()

    cdef void apply(self, int action) noexcept:
        cdef int mover = self.s.player
        if action < self.n:
            self._put(action, mover)
            self.s.num_placements += 1
            self.s.left -= 1
        else:
            self._turn_over(action - self.n)
            self.s.num_flips += 1
        if self.win_rule == WIN_EVERY_MOVE and self._has_y(mover):
            self.s.winner = mover
            return
        if action >= self.n or self.flip_point == FLIP_AFTER_EACH_PLACEMENT:
            if self._any_qualifying():
                self.s.phase = PHASE_FLIP
            else:
                self._after_flips_done()
        else:  # a placement in a game that flips before the last placement
            if self.s.left == 0 or self.s.num_empty == 0:
                self._end_turn()
            elif self._any_qualifying():
                self.s.phase = PHASE_FLIP
            else:
                self.s.phase = PHASE_PLACE

    # -- protocol ---------------------------------------------------------

    cdef int current_player(self) noexcept:
        return PLAYER_TERMINAL if self.s.winner >= 0 else self.s.player

    cdef bint is_terminal(self) noexcept:
        return self.s.winner >= 0

    cdef int legal_actions(self, int* out) noexcept:
        cdef int c, w, k = 0
        cdef uint64_t q
        if self.s.winner >= 0:
            return 0
        if self.s.phase == PHASE_PLACE:
            for c in range(self.n):
                if self.color[c] == 0:
                    out[k] = c
                    k += 1
        else:
            for w in range(self.W):
                q = self._qualifying_word(w)
                while q:
                    out[k] = self.n + (w << 6) + __builtin_ctzll(q)
                    k += 1
                    q &= q - 1
        return k

    cdef bint is_legal(self, int action) noexcept:
        if self.s.winner >= 0 or action < 0 or action >= self.num_actions:
            return False
        if self.s.phase == PHASE_PLACE:
            return action < self.n and self.color[action] == 0
        return action >= self.n and self._qualifies(action - self.n)

    cdef void returns(self, double* out) noexcept:
        if self.s.winner < 0:
            out[0] = 0.0
            out[1] = 0.0
        else:
            out[self.s.winner] = 1.0
            out[1 - self.s.winner] = -1.0

    cdef inline uint64_t _turn_hash(self, int symmetry) noexcept:
        """Everything of the hash but the stones, with the examined cells
        (local conversion, in a flip phase: they decide what may flip next)
        seen through ``symmetry``."""
        cdef uint64_t h = mix64(<uint64_t>(self.s.player + 2 * self.s.phase + 4 * self.s.left
                                           + 16 * (self.s.winner + 1)))
        cdef int c
        if self.local_conversion and self.s.phase == PHASE_FLIP and self.s.winner < 0:
            for c in range(self.n):
                if (self.zone[c >> 6] >> (c & 63)) & 1:
                    h ^= mix64(self.board.zobrist[self.board.sym[symmetry][c]][0] + ZONE_SALT)
        return h

    cdef uint64_t hash(self) noexcept:
        return self.s.board_hash ^ self._turn_hash(0)

    cdef int num_symmetries(self) noexcept:
        return self.board.num_syms

    cdef uint64_t symmetric_hash(self, int symmetry) noexcept:
        cdef int c, d, k
        cdef LatticeBoard board = self.board
        if not self.sym_cache_valid:
            memset(self.sym_cache, 0, sizeof(self.sym_cache))
            for c in range(self.n):
                if self.color[c]:
                    k = self.color[c] - 1
                    for d in range(board.num_syms):
                        self.sym_cache[d] ^= board.zobrist[board.sym[d][c]][k]
            self.sym_cache_valid = True
        return self.sym_cache[symmetry] ^ self._turn_hash(symmetry)

    def symmetric_hash_by_scan(self, int symmetry):
        """``symmetric_hash`` recomputed from the cells alone (for tests)."""
        cdef uint64_t h = 0
        cdef int c
        cdef LatticeBoard board = self.board
        for c in range(self.n):
            if self.color[c]:
                h ^= board.zobrist[board.sym[symmetry][c]][self.color[c] - 1]
        return h ^ self._turn_hash(symmetry)

    cdef void playout(self, Rng* rng) noexcept:
        if self.sym_cache_valid or self.local_conversion:
            # a solver's position keeps its symmetric hashes current on every
            # move, and local conversion its examined cells; the fast loop
            # does neither (a test of the option at every move cost the
            # board-wide games about 3% of the loop's instructions), so these
            # play by apply
            self._playout_by_apply(rng, NULL)
        else:
            self._fast_playout(rng, NULL)

    cdef int _random_flip(self, Rng* rng) noexcept:
        """A uniformly random qualifying stone (one must exist)."""
        cdef int w, j, total = 0
        cdef uint64_t q
        for w in range(self.W):
            total += _popcount(self._qualifying_word(w))
        j = rng_below(rng, total)
        for w in range(self.W):
            q = self._qualifying_word(w)
            total = _popcount(q)
            if j < total:
                while j:
                    q &= q - 1
                    j -= 1
                return (w << 6) + __builtin_ctzll(q)
            j -= total
        return -1

    cdef int _playout_by_apply(self, Rng* rng, int* trace) noexcept:
        """Uniformly random play to the end through ``apply``: the reference
        for ``_fast_playout``, which must make the same game from the same
        random stream. Returns the number of actions (written to ``trace``
        unless it is NULL)."""
        cdef int action, steps = 0
        while self.s.winner < 0:
            if self.s.phase == PHASE_PLACE:
                action = self.empties[rng_below(rng, self.s.num_empty)]
            else:
                action = self.n + self._random_flip(rng)
            if trace != NULL:
                trace[steps] = action
            steps += 1
            self.apply(action)
        return steps

    cdef int _fast_playout(self, Rng* rng, int* trace) noexcept:
        """``_playout_by_apply`` with the turn logic of ``apply``,
        ``_end_turn``, ``_begin_turn`` and ``_after_flips_done`` written out
        over local variables, and placements and flips done by the cell
        kernels below: the same game from the same random stream (tests
        compare the two move by move), in the loop MCTS spends its time in.
        The empty-cell index is rebuilt once at the end, as YCore's does."""
        cdef int n = self.n, W = self.W
        cdef uint8_t* color = self.color
        cdef uint8_t* key = self.key
        cdef uint8_t* empties = self.empties
        cdef int num_empty = self.s.num_empty
        cdef int p = self.s.player, phase = self.s.phase, left = self.s.left
        cdef int turn = self.s.turn, winner = self.s.winner
        cdef int placements = 0, flips = 0, turns = 0, steps = 0
        cdef uint64_t h = self.s.board_hash
        cdef int win_rule = self.win_rule
        cdef bint after_each = self.flip_point == FLIP_AFTER_EACH_PLACEMENT
        cdef int later = self.later_placements
        cdef int i, j, c, w, total
        cdef uint64_t qs[MAX_WORDS]
        cdef int count[MAX_WORDS]
        cdef bint flipped, end_turn, any_q
        cdef uint64_t q
        while winner < 0:
            if phase == PHASE_PLACE:
                i = rng_below(rng, num_empty)
                c = empties[i]
                num_empty -= 1
                empties[i] = empties[num_empty]
                h ^= self._put_stone(color, key, c, p)
                placements += 1
                left -= 1
                flipped = False
            else:
                total = 0
                for w in range(W):
                    qs[w] = self._qualifying_word_of(p, w)
                    count[w] = _popcount(qs[w])
                    total += count[w]
                j = rng_below(rng, total)
                for w in range(W):
                    if j < count[w]:
                        q = qs[w]
                        while j:
                            q &= q - 1
                            j -= 1
                        c = (w << 6) + __builtin_ctzll(q)
                        break
                    j -= count[w]
                h ^= self._flip_stone(color, key, c)
                flips += 1
                flipped = True
                c += n
            if trace != NULL:
                trace[steps] = c
            steps += 1
            # -- apply's aftermath, with the turn's end written out
            if win_rule == WIN_EVERY_MOVE and self._has_y(p):
                winner = p
                break
            end_turn = False
            if flipped or after_each:
                any_q = self._any_qualifying_of(p)
                if any_q:
                    phase = PHASE_FLIP
                elif after_each:
                    if left == 0 or num_empty == 0:
                        end_turn = True
                    else:
                        phase = PHASE_PLACE
                else:
                    phase = PHASE_PLACE
                    end_turn = num_empty == 0
            else:
                if left == 0 or num_empty == 0:
                    end_turn = True
                else:
                    phase = PHASE_FLIP if self._any_qualifying_of(p) else PHASE_PLACE
            if not end_turn:
                continue
            if win_rule == WIN_TURN_START:
                if self._has_y(1 - p):
                    winner = 1 - p
                    break
            elif win_rule == WIN_TURN_END:
                if self._has_y(p):
                    winner = p
                    break
            if num_empty == 0:
                winner = 0 if self._has_y(0) else 1
                break
            p = 1 - p
            turn += 1
            turns += 1
            left = 1 if turn == 0 else later
            phase = PHASE_PLACE
            if not after_each and left == 1 and self._any_qualifying_of(p):
                phase = PHASE_FLIP
        for i in range(num_empty):
            self.pos[empties[i]] = i
        self.s.num_empty = num_empty
        self.s.player = p
        self.s.phase = phase
        self.s.left = left
        self.s.turn = turn
        self.s.winner = winner
        self.s.num_placements += placements
        self.s.num_flips += flips
        self.s.num_turns += turns
        self.s.board_hash = h
        return steps

    # -- Python face ------------------------------------------------------

    def describe_action(self, int action):
        if 0 <= action < self.n:
            return self.board.names[action]
        if self.n <= action < 2 * self.n:
            return "flip " + self.board.names[action - self.n]
        return f"<invalid action {action}>"

    def playout_trace(self, unsigned long long seed, bint fast=True):
        """``random_playout(seed)`` in place, returning the actions played:
        by the fast playout loop, or (``fast=False``, and always under local
        conversion) one ``apply`` at a time from the same random stream.
        Tests compare the two."""
        cdef Rng rng
        cdef int steps
        cdef int* trace = <int*>malloc((self.max_game_length + 1) * sizeof(int))
        if trace == NULL:
            raise MemoryError()
        rng_seed(&rng, seed)
        try:
            if fast and not self.local_conversion:
                steps = self._fast_playout(&rng, trace)
            else:
                steps = self._playout_by_apply(&rng, trace)
            return [trace[i] for i in range(steps)]
        finally:
            free(trace)

    def cell_colours(self):
        """Per cell: 0 empty, 1 Black (player 0), 2 White (player 1)."""
        return [self.color[i] for i in range(self.n)]

    def examined_cells(self):
        """The cells whose opponent stones a flip phase may convert: with
        local conversion, those at and around the last placement and around
        each conversion since; otherwise every cell."""
        return [c for c in range(self.n) if (self.zone[c >> 6] >> (c & 63)) & 1]

    def in_flip_phase(self):
        return self.s.phase == PHASE_FLIP and self.s.winner < 0

    def stones_left_in_turn(self):
        return self.s.left

    def owns_y(self, int player):
        return self._has_y(player)

    def overcrowded(self):
        """Cells whose stone has more same-colour than other-colour neighbours."""
        return [c for c in range(self.n)
                if (self.crowded[c >> 6] >> (c & 63)) & 1]

    def same_colour_pairs(self):
        """Adjacent pairs of stones of one colour (the quantity flips lower)."""
        total = 0
        for c in range(self.n):
            if self.color[c]:
                for nb in self.board.neighbours(c):
                    total += self.color[nb] == self.color[c]
        return total // 2

    def playout_stats(self):
        return {"placements": self.s.num_placements, "flips": self.s.num_flips,
                "turns": self.s.num_turns, "empty_cells": self.s.num_empty, "winner": self.s.winner}

    def nbytes(self):
        return type(self).__basicsize__ + 4 * self.n + 2

    def __reduce__(self):
        # OpenSpiel serialises Python states with pickle.
        # per colour its overcrowded stones, as the format had them before one
        # bitset held both colours
        bits = ([self.own[k][w] for k in range(2) for w in range(MAX_WORDS)]
                + [self.crowded[w] & self.own[k][w] for k in range(2) for w in range(MAX_WORDS)])
        return (_restore_flip, (self.board.shape, self.board.size, self.flip_kinds,
                                self.flip_point, self.win_rule, self.later_placements,
                                self.mem[:4 * self.n + 2], self.s, bits, self.local_conversion,
                                [self.zone[w] for w in range(MAX_WORDS)]))

    def to_string(self):
        if self.s.winner >= 0:
            status = f"{'Black' if self.s.winner == 0 else 'White'} wins"
        else:
            who = "Black" if self.s.player == 0 else "White"
            what = "must flip" if self.s.phase == PHASE_FLIP else f"places ({self.s.left} left this turn)"
            status = f"{who} {what}"
            if self.local_conversion and self.s.phase == PHASE_FLIP:
                status += "; examined: " + " ".join(self.board.names[c] for c in self.examined_cells())
        return _render(self.board, self.cell_colours()) + "\n" + status

    def observation(self):
        """Planes Black/White/empty per cell, then: Black to move, White to
        move, flip phase, placements left this turn, swap available (0); with
        local conversion, then a plane of the examined cells in a flip phase."""
        obs = [0.0] * ((4 if self.local_conversion else 3) * self.n + 5)
        for i in range(self.n):
            plane = self.color[i] - 1 if self.color[i] else 2
            obs[plane * self.n + i] = 1.0
        if self.s.winner < 0:
            obs[3 * self.n + self.s.player] = 1.0
            obs[3 * self.n + 2] = 1.0 if self.s.phase == PHASE_FLIP else 0.0
            obs[3 * self.n + 3] = self.s.left
            if self.local_conversion and self.s.phase == PHASE_FLIP:
                for i in self.examined_cells():
                    obs[3 * self.n + 5 + i] = 1.0
        return obs


def _restore_flip(shape, size, flip_kinds, flip_point, win_rule, later, bytes mem,
                  FlipPosition position, bits, bint local_conversion=False, zone=None):
    from games.boards import make_board
    cdef FlipCore core = FlipCore.__new__(FlipCore)
    core._setup(make_board(shape, size), flip_kinds, flip_point, win_rule, later, local_conversion)
    cdef int k, w
    if len(mem) != 4 * core.n + 2:
        raise ValueError(f"a pickled flip-game position of {len(mem)} bytes does not fit "
                         f"this kernel's layout ({4 * core.n + 2} bytes on this board)")
    memcpy(core.mem, <const char*>mem, len(mem))
    core.s = position
    memset(core.crowded, 0, sizeof(core.crowded))
    for k in range(2):
        for w in range(MAX_WORDS):
            core.own[k][w] = bits[k * MAX_WORDS + w]
            core.crowded[w] |= bits[2 * MAX_WORDS + k * MAX_WORDS + w]
            core.fresh[k][w] = core.own[k][w]      # no check known: every stone is fresh
    for w in range(MAX_WORDS):
        # a position pickled without examined cells converts board-wide
        core.zone[w] = <uint64_t>0xFFFFFFFFFFFFFFFFULL if zone is None else zone[w]
    core.adj = _neighbour_bits(core.board)
    return core

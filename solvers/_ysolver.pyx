# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Exact solver for plain Y on a triangle, with the pruning Hex solvers use.

The general kernel (``_alphabeta.pyx``) only sees the core protocol, so it
cannot know that an extra stone never hurts in Y, or that two empty cells
both next to two groups join them whatever the opponent does. This kernel
knows the game: the position is two 64-bit sets (mover's and opponent's
stones, side <= 10), every value is a proven win or loss for the mover, and
at every node it applies, in this order (each step's soundness argument is
with the step; tests compare every value with plain alpha-beta on every
position of sides 3-5):

0. *Captured cells* (``_captured``), the inferior-cell fill-in of Hex
   solvers: two adjacent empty cells a, b whose other neighbours are all
   one player's stones are filled with that player's stones, and the filled
   position's value is the position's. Why: extra stones never hurt in Y,
   so filling can only help that player; and the player can get the same
   result without them: if the opponent takes a, it answers b (and vice
   versa), after which a's neighbours are all its stones, so the
   opponent's stone on a is dead (step 5's argument: those neighbours
   already form one group touching a's sides) and is worth exactly a stone
   of its own there. A pair is one player's only: for the other player the
   same neighbours would have to be its stones. A fill that completes a Y
   decides the position.
1. *Immediate win*: an empty cell adjacent to groups that, with the cell,
   touch all three sides wins now.
2. *Double threat*: two such cells for the opponent lose (one can be
   blocked, not both).
3. *Virtual win* (``_vc``): the player's groups joined by bridges (two
   empty cells next to both groups) and tied to each missing side by a side
   link (``_side_link``: two empty side cells next to the group, or the OR
   rule over one-move edge connections, which covers the third-row
   templates), all carriers disjoint, touch all three sides. Answering
   every intrusion into a carrier inside that carrier keeps every link, so
   the player wins even moving second. So a virtual win of the mover wins,
   and (step 3b) one of the opponent's loses: the opponent answers each of
   the mover's moves and ends with a Y, and Y never gives both players one.
4. *Must-play*: (a) if the opponent has one immediate winning cell, the
   mover must take it. (b) For every empty x after which the opponent
   would have a virtual win of carrier C_x, a mover move y outside C_x + {x}
   loses: the opponent plays x, its carrier is intact, and by 3b it wins
   (the mover cannot win at once first: step 1 found no such cell, and a
   sound C_x holds every such cell anyway). So only the intersection of
   these sets is searched, and an empty intersection loses (H-search's OR
   rule over the opponent's one-move wins). Steps 3-4 are the H-search
   ideas at one level: semi-connections are one stone from a virtual win.
   (c) A move after which the mover has a virtual win wins (by 3b for the
   opponent then to move); these are looked for among the moves left,
   before any is searched.
5. *Dead cells* are not searched: an empty cell with no empty neighbour
   where, for each player, its neighbours of that player's colour are
   either none or all in one group already touching every side the cell
   touches (``_dead``). A stone there joins nothing and adds no side for
   either player, now and later (neighbours never change, groups only grow),
   and a lone walled-in stone touches at most two sides: it is a pass,
   which is never better than another empty cell in Y (an extra stone
   never hurts). All neighbours of one colour is a case: on a triangle
   they form a ring, a path or an adjacent pair, so one group. (The "dead
   cell" of the Hex literature, e.g. Hayward, Bjornsson, Johanson, Kan, Po
   and van Rijswijck, "Solving 7x7 Hex: virtual connections and game-state
   reduction", 2003: an empty cell whose colour can never change the
   outcome; the argument above is Y's own.)
6. *H-search* (``_hsearch``, switch ``hsearch``; after steps 1-3, before
   4b), Anshelevich's rules with Y's targets. Nodes: the player's groups
   and the empty cells; targets: the three sides, which are never a middle
   (two groups each touching a side are not joined by it). A full
   connection (VC) u-v of carrier C: with the owner's stones on u and v,
   the owner joins them moving second by answering inside C; a
   semi-connection (SC): the same after one owner move, its key, in C.
   Base: adjacent nodes, and a node on a side, have a VC of empty carrier.
   AND: VCs a-m and m-w with disjoint carriers, neither holding the other
   end, give a VC a-w through a group m and an SC of key m through an
   empty cell m. OR: two SCs of one pair with disjoint carriers, or all
   kept ones when their carriers share no cell, give a VC of the union
   (the opponent's move misses some SC's carrier; play its key). A Y is
   what is proven: a *virtual win* is one group with VCs to the three
   sides, pairwise disjoint carriers (the union is a pairing strategy, so
   as in 3/3b it wins for either player to move); a *one-move win* is an
   empty cell with three such VCs, or a group with two VCs and one SC,
   pairwise disjoint: the owner to move plays the key and has a virtual
   win; the other player to move must play inside every one-move win's
   carrier (step 4b's argument), so only the intersection is searched.
   Lists are bounded (the ``hsearch_vcs`` smallest VCs and ``hsearch_scs``
   SCs per pair, ``hsearch_queue`` queued VCs, the OR rule over pairs and
   over all), which loses connections, never soundness; steps 3-4 stay
   (their greedy sets are cheap and can find what the bounded lists
   dropped). Recomputed at every node, not incremental: a bounded
   H-search is not monotone (a child with one cell fewer can find what
   its parent's full lists crowded out), so even skipping a player's
   rerun after its parent found nothing cost 26x the nodes on a side-8
   opening. The bounds are worth raising: 8/12/16,384 instead of
   4/6/4,096 solved side 8's b6 from a fresh solver in 139 K nodes
   where the smaller lists had not in 533 K.

The search is a depth-first AND/OR search (alpha-beta with a null window
over win/loss), with a transposition table keyed by the minimum Zobrist key
over the triangle's 6 symmetries (kept incrementally), enhanced transposition
cutoffs, and the moves ordered by the most sides one of the mover's virtual
groups reaches after the move (found by step 4c's scan), then by history.
Ordering never changes a value; each pruning has a switch, and the tests
compare every switch setting with plain alpha-beta.
"""
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset, memcpy
from libc.stdint cimport uint64_t, uint32_t, uint8_t, int64_t
from games.clock cimport monotonic_seconds
from games.rng cimport mix64
from cpython.exc cimport PyErr_CheckSignals

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil


cdef inline int __builtin_popcountll(uint64_t x) noexcept nogil:
    """Bits set in x, by SWAR (the builtin's name kept): without -mpopcnt the
    builtin is a call into libgcc, 5% of the solver's time with H-search."""
    x = x - ((x >> 1) & <uint64_t>0x5555555555555555ULL)
    x = (x & <uint64_t>0x3333333333333333ULL) + ((x >> 2) & <uint64_t>0x3333333333333333ULL)
    x = (x + (x >> 4)) & <uint64_t>0x0F0F0F0F0F0F0F0FULL
    return <int>((x * <uint64_t>0x0101010101010101ULL) >> 56)

cdef enum:
    MAXC = 64
    MAXSYM = 6
    MAXG = 40
    R_NONE = 0
    R_WIN = 1          # the mover wins
    R_LOSS = 2         # the mover loses
    NO_MOVE = 255
    SIDE0 = 64         # H-search: node index of side 0 (cells and groups are 0..63)
    HN = 67            # H-search nodes: up to 64 cell/group nodes and the 3 sides
    KV = 16            # room for full connections per node pair (``hsearch_vcs`` of it used)
    KS = 24            # room for semi-connections per node pair (``hsearch_scs`` used)
    QCAP = 65536       # room in the H-search work list (``hsearch_queue`` used)

cdef struct Entry:
    uint64_t key
    uint8_t result
    uint8_t move       # best (winning) move in the stored orientation
    uint8_t sym        # the symmetry under which the key was the minimum
    uint8_t empties    # empty cells when stored: bigger subtrees are kept


cdef inline int _root(int* parent, int i) noexcept nogil:
    while parent[i] != i:
        i = parent[i]
    return i


class YSolveTimeout(Exception):
    """Raised when a solve runs out of its time limit."""


cdef inline uint64_t _bit(int c) noexcept nogil:
    return (<uint64_t>1) << c


cdef class YSolver:
    """One board's geometry, table and counters; reuse it across positions
    of the same board (the openings of a solve) so the table carries over."""
    cdef int n
    cdef int nsym
    cdef uint64_t full
    cdef uint64_t nbr[MAXC]
    cdef uint64_t side_cells[3]
    cdef uint8_t side_mask[MAXC]
    cdef uint8_t sym[MAXSYM][MAXC]
    cdef uint8_t inv[MAXSYM][MAXC]
    cdef uint64_t zob[MAXSYM][MAXC][2]   # zob[s][c][p]: key of a p-stone on c seen through s
    cdef uint32_t history[2][MAXC]
    cdef Entry* table
    cdef uint64_t mask_tt
    cdef readonly int64_t nodes
    cdef readonly int64_t tt_hits
    cdef readonly int64_t vc_wins
    cdef readonly int64_t mustplay_cuts
    cdef readonly int64_t vc_losses
    cdef readonly int64_t fill_ins
    cdef double deadline
    cdef bint timed_out
    cdef bint use_vc
    cdef bint use_dead
    cdef bint use_semi
    cdef bint use_ladder
    cdef bint use_captured
    cdef bint use_hsearch
    cdef readonly int64_t hsearch_wins
    cdef readonly int64_t hsearch_cuts
    # H-search workspace (one search at a time; its results are read before recursing)
    cdef uint64_t* hv          # hv[(u * HN + v) * KV + i]: full-connection carriers of u-v
    cdef uint8_t* hvn          # how many of them
    cdef uint64_t* hs          # semi-connection carriers (key included)
    cdef uint8_t* hsn
    cdef uint64_t hbody[HN]    # a node's cells (a group's stones or one empty cell; 0 for a side)
    cdef uint64_t hlinked[HN]  # node u: the nodes (bits 0..63) it has a full connection to
    cdef uint8_t hlinked_side[HN]
    cdef bint hgroup[HN]
    cdef int hnn
    cdef public int hcap       # largest carrier H-search keeps (cells; 64: no cap)
    cdef int* qu
    cdef int* qv
    cdef uint64_t* qc
    cdef readonly int kv        # full connections kept per node pair (the smallest found)
    cdef readonly int ks        # semi-connections kept per node pair
    cdef readonly int qmax      # new full connections queued for the AND rule per H-search
    cdef int qlen

    def __cinit__(self):
        self.table = NULL
        self.hv = self.hs = NULL
        self.hvn = self.hsn = NULL
        self.qu = self.qv = NULL
        self.qc = NULL

    def __dealloc__(self):
        free(self.table)
        free(self.hv)
        free(self.hs)
        free(self.hvn)
        free(self.hsn)
        free(self.qu)
        free(self.qv)
        free(self.qc)

    def __init__(self, int num_cells, list neighbours, list sides, list symmetries,
                 int tt_log2=22, bint virtual_connections=True, bint dead_cells=True,
                 bint semi_mustplay=True, bint side_links=True, bint captured_cells=True,
                 bint hsearch=True, int hsearch_vcs=8, int hsearch_scs=12,
                 int hsearch_queue=16384):
        """``neighbours[c]``/``sides[c]``: lists per cell; ``symmetries``: cell
        permutations (identity first). Checked by the Python face."""
        cdef int c, s, p
        cdef uint64_t x = 0x9E3779B97F4A7C15ULL
        self.n = num_cells
        self.full = (~<uint64_t>0) if num_cells == 64 else (_bit(num_cells) - 1)
        self.nsym = len(symmetries)
        self.use_vc = virtual_connections
        self.use_dead = dead_cells
        self.use_semi = semi_mustplay and virtual_connections
        self.use_ladder = side_links
        self.use_captured = captured_cells
        self.use_hsearch = hsearch
        self.hcap = 64
        if not (1 <= hsearch_vcs <= KV and 1 <= hsearch_scs <= KS and 1 <= hsearch_queue <= QCAP):
            raise ValueError(f"H-search bounds must be in 1..{KV} VCs, 1..{KS} SCs, "
                             f"1..{QCAP} queued; got {hsearch_vcs}, {hsearch_scs}, {hsearch_queue}")
        self.kv = hsearch_vcs
        self.ks = hsearch_scs
        self.qmax = hsearch_queue
        self.qu = <int*>malloc(QCAP * sizeof(int))
        self.qv = <int*>malloc(QCAP * sizeof(int))
        self.qc = <uint64_t*>malloc(QCAP * sizeof(uint64_t))
        if self.qu == NULL or self.qv == NULL or self.qc == NULL:
            raise MemoryError()
        self.hv = <uint64_t*>malloc(HN * HN * KV * sizeof(uint64_t))
        self.hs = <uint64_t*>malloc(HN * HN * KS * sizeof(uint64_t))
        self.hvn = <uint8_t*>malloc(HN * HN)
        self.hsn = <uint8_t*>malloc(HN * HN)
        if self.hv == NULL or self.hs == NULL or self.hvn == NULL or self.hsn == NULL:
            raise MemoryError()
        memset(self.side_cells, 0, sizeof(self.side_cells))
        for c in range(num_cells):
            self.nbr[c] = 0
            for d in neighbours[c]:
                self.nbr[c] |= _bit(d)
            self.side_mask[c] = 0
            for s in sides[c]:
                self.side_mask[c] |= 1 << s
                self.side_cells[s] |= _bit(c)
        cdef uint64_t base[MAXC][2]
        for c in range(num_cells):
            for p in range(2):
                base[c][p] = mix64(x)           # splitmix64's sequence
                x += 0x9E3779B97F4A7C15ULL
        for s in range(self.nsym):
            perm = symmetries[s]
            for c in range(num_cells):
                self.sym[s][c] = perm[c]
                self.inv[s][perm[c]] = c
                for p in range(2):
                    self.zob[s][c][p] = base[perm[c]][p]
        memset(self.history, 0, sizeof(self.history))
        self.set_centrality_prior(0)
        self.mask_tt = (<uint64_t>1 << tt_log2) - 1
        self.table = <Entry*>calloc(<size_t>1 << tt_log2, sizeof(Entry))
        if self.table == NULL:
            raise MemoryError()
        self.nodes = self.tt_hits = self.vc_wins = self.mustplay_cuts = self.vc_losses = self.fill_ins = 0
        self.hsearch_wins = self.hsearch_cuts = 0

    def set_centrality_prior(self, int weight):
        """Start the history scores of both players at ``weight`` times each
        cell's distance (in cells) to its nearest side, so that before the
        search has learnt anything central cells, which reach all three
        sides soonest, are tried first (ordering only; 0: none)."""
        cdef int c, s, d, p
        cdef uint64_t frontier, seen
        cdef int dist[MAXC]
        for c in range(self.n):
            dist[c] = 99
        for s in range(3):
            seen = frontier = self.side_cells[s]
            d = 0
            while frontier:
                bit = frontier
                while bit:
                    c = __builtin_ctzll(bit)
                    bit &= bit - 1
                    if d < dist[c]:
                        dist[c] = d
                frontier = self._around(frontier) & self.full & ~seen
                seen |= frontier
                d += 1
        for p in range(2):
            for c in range(self.n):
                self.history[p][c] = weight * dist[c]

    # -- board analysis ----------------------------------------------------

    cdef inline uint64_t _around(self, uint64_t cells) noexcept nogil:
        """Cells adjacent to some cell of ``cells``."""
        cdef uint64_t out = 0
        while cells:
            out |= self.nbr[__builtin_ctzll(cells)]
            cells &= cells - 1
        return out

    cdef inline int _sides_of(self, uint64_t cells) noexcept nogil:
        return ((cells & self.side_cells[0]) != 0) | ((cells & self.side_cells[1]) != 0) << 1 \
            | ((cells & self.side_cells[2]) != 0) << 2

    cdef int _groups(self, uint64_t stones, uint64_t* out) noexcept nogil:
        """Split ``stones`` into connected groups; returns how many."""
        cdef int k = 0
        cdef uint64_t g, frontier, grown
        while stones:
            g = stones & (~stones + 1)
            frontier = g
            while frontier:
                grown = self._around(frontier) & stones & ~g
                g |= grown
                frontier = grown
            stones &= ~g
            out[k] = g
            k += 1
        return k

    cdef uint64_t _winning_cells(self, uint64_t* groups, int k, uint64_t empty) noexcept nogil:
        """Empty cells that complete a Y for the owner of ``groups``."""
        cdef uint64_t touch0 = self.side_cells[0], touch1 = self.side_cells[1]
        cdef uint64_t touch2 = self.side_cells[2], around
        cdef int i, s
        for i in range(k):
            s = self._sides_of(groups[i])
            around = self._around(groups[i])
            if s & 1:
                touch0 |= around
            if s & 2:
                touch1 |= around
            if s & 4:
                touch2 |= around
        return touch0 & touch1 & touch2 & empty

    cdef bint _vc(self, uint64_t* groups, int k, uint64_t empty, uint64_t* out,
                  int* reach=NULL) noexcept nogil:
        """True when the groups' owner has a virtual win; its carrier in ``out``
        (0 when one group already touches all three sides). ``reach`` (if
        not NULL): the most sides one virtual group was found to reach, the
        move order's hint.

        Greedy: bridges between different virtual groups first, then edge
        templates; every carrier takes two cells no other carrier uses, which
        is what makes the pairing strategy valid (step 3 of the module
        docstring). Not finding one proves nothing."""
        cdef uint64_t around[MAXG]
        cdef uint64_t carrier[MAXG]
        cdef int parent[MAXG]
        cdef int sides[MAXG]
        cdef uint64_t used = 0, common, pick, free_cells, stones
        cdef int i, j, ri, rj, s, changed
        cdef bint found
        out[0] = 0
        if k == 0:
            return 0
        for i in range(k):
            around[i] = self._around(groups[i]) & empty
            carrier[i] = 0
            parent[i] = i
            sides[i] = self._sides_of(groups[i])
            if sides[i] == 7:
                return 1
        # bridges, until nothing joins
        changed = 1
        while changed:
            changed = 0
            for i in range(k):
                ri = _root(parent, i)
                for j in range(i + 1, k):
                    rj = _root(parent, j)
                    if ri == rj:
                        continue
                    common = around[i] & around[j] & ~used
                    if __builtin_popcountll(common) >= 2:
                        pick = common & (~common + 1)
                        common &= common - 1
                        pick |= common & (~common + 1)
                        used |= pick
                        parent[rj] = ri
                        carrier[ri] |= carrier[rj] | pick
                        sides[ri] |= sides[rj]
                        changed = 1
        # edge templates for each virtual group and each side it misses
        for i in range(k):
            if parent[i] != i:
                continue
            free_cells = 0
            stones = 0
            for j in range(k):
                if _root(parent, j) == i:
                    free_cells |= around[j]
                    stones |= groups[j]
            for s in range(3):
                if sides[i] >> s & 1:
                    continue
                if self.use_ladder:
                    found = self._side_link(stones, empty & ~used, s, &pick)
                else:
                    common = free_cells & self.side_cells[s] & ~used
                    found = __builtin_popcountll(common) >= 2
                    if found:
                        pick = common & (~common + 1)
                        common &= common - 1
                        pick |= common & (~common + 1)
                if found:
                    used |= pick
                    carrier[i] |= pick
                    sides[i] |= 1 << s
            if sides[i] == 7:
                out[0] = carrier[i]
                return 1
            if reach != NULL:
                s = __builtin_popcountll(sides[i])
                if s > reach[0]:
                    reach[0] = s
        return 0

    cdef inline uint64_t _two(self, uint64_t cells) noexcept nogil:
        """The two lowest cells of a set of at least two."""
        cdef uint64_t a = cells & (~cells + 1)
        cells &= cells - 1
        return a | (cells & (~cells + 1))

    cdef bint _side_link(self, uint64_t stones, uint64_t open_cells, int s, uint64_t* out) noexcept nogil:
        """A full connection of the group ``stones`` to side ``s`` inside
        ``open_cells`` (empty cells no other carrier uses), its carrier in ``out``.

        Step 3's edge link, built like H-search's OR rule from one-move
        (semi) connections, each a key cell and a carrier holding the key:
        (a) a free side cell next to the group; (b) a free cell y next to the
        group with two free side cells next to y (y, then y's edge
        template); (c) a free cell y bridged to the group by two free cells
        p, q next to both, y on the side or with two more free side cells.
        Two semis with disjoint carriers, or any set of them whose carriers
        have no common cell, make a full connection: whatever cell the
        opponent takes, some semi's carrier misses it, and playing that
        semi's key leaves its carrier's links (all pairs) intact. Two side
        cells next to the group (the edge template) come first, then the
        smallest disjoint pair, then the union of all."""
        cdef uint64_t semis[MAXC]
        cdef uint64_t side = self.side_cells[s], adj, bit, cand, e, pq, best = 0, u, inter
        cdef int m = 0, a, b, y, bestpop = 99
        adj = self._around(stones) & open_cells
        bit = adj & side
        if __builtin_popcountll(bit) >= 2:
            out[0] = self._two(bit)
            return 1
        while bit:
            semis[m] = bit & (~bit + 1)
            bit &= bit - 1
            m += 1
        bit = adj & ~side
        while bit:
            y = __builtin_ctzll(bit)
            bit &= bit - 1
            e = self.nbr[y] & side & open_cells
            if __builtin_popcountll(e) >= 2:
                semis[m] = _bit(y) | self._two(e)
                m += 1
        cand = self._around(adj) & open_cells & ~adj
        while cand:
            y = __builtin_ctzll(cand)
            cand &= cand - 1
            pq = self.nbr[y] & adj
            if __builtin_popcountll(pq) < 2:
                continue
            pq = self._two(pq)
            if _bit(y) & side:
                semis[m] = _bit(y) | pq
                m += 1
                continue
            e = self.nbr[y] & side & open_cells & ~pq
            if __builtin_popcountll(e) >= 2:
                semis[m] = _bit(y) | pq | self._two(e)
                m += 1
        if m < 2:
            return 0
        for a in range(m):
            for b in range(a + 1, m):
                if semis[a] & semis[b] == 0:
                    u = semis[a] | semis[b]
                    if __builtin_popcountll(u) < bestpop:
                        best = u
                        bestpop = __builtin_popcountll(u)
        if best:
            out[0] = best
            return 1
        inter = semis[0]
        u = 0
        for a in range(m):
            inter &= semis[a]
            u |= semis[a]
        if inter == 0:
            out[0] = u
            return 1
        return 0

    cdef bint _has_y(self, uint64_t* groups, int k) noexcept nogil:
        cdef int i
        for i in range(k):
            if self._sides_of(groups[i]) == 7:
                return 1
        return 0

    cdef uint64_t _captured(self, uint64_t stones, uint64_t empty) noexcept nogil:
        """Empty cells the owner of ``stones`` can fill in (step 0): pairs of
        adjacent empty cells a, b whose other neighbours are all its stones.
        Two such pairs never touch (a cell of one would have two empty
        neighbours), so each is answered on its own."""
        cdef uint64_t fill = 0, bit = empty, other
        cdef int a, b
        while bit:
            a = __builtin_ctzll(bit)
            bit &= bit - 1
            other = self.nbr[a] & ~stones
            if __builtin_popcountll(other) != 1 or not (other & empty):
                continue
            b = __builtin_ctzll(other)
            if self.nbr[b] & ~stones & ~_bit(a):
                continue
            fill |= _bit(a) | _bit(b)
            bit &= ~_bit(b)
        return fill

    cdef bint _useless_for(self, uint64_t* groups, int k, uint64_t near, int c) noexcept nogil:
        """True when a stone on ``c`` (no empty neighbour) can never matter to
        the owner of ``groups``, whose stones among c's neighbours are ``near``:
        none (the stone would be a group of one cell, walled in, touching at
        most two sides), or all in one group that already touches every side
        c touches (the stone would join nothing and add no side). Neighbours
        and sides never change back, so this stays true for the rest of the game."""
        cdef int i
        if near == 0:
            return 1
        for i in range(k):
            if groups[i] & near:
                return (near & ~groups[i]) == 0 and \
                    (self._sides_of(groups[i]) & self.side_mask[c]) == self.side_mask[c]
        return 0

    cdef uint64_t _dead(self, uint64_t* my_groups, int km, uint64_t* op_groups, int ko,
                        uint64_t cells, uint64_t empty) noexcept nogil:
        """The dead cells among ``cells`` (step 5): empty cells with no empty
        neighbour where a stone is useless for both players."""
        cdef uint64_t dead = 0, bit = cells, me = 0, opp = 0
        cdef int c, i
        for i in range(km):
            me |= my_groups[i]
        for i in range(ko):
            opp |= op_groups[i]
        while bit:
            c = __builtin_ctzll(bit)
            bit &= bit - 1
            if self.nbr[c] & empty:
                continue
            if self._useless_for(my_groups, km, self.nbr[c] & me, c) and \
                    self._useless_for(op_groups, ko, self.nbr[c] & opp, c):
                dead |= _bit(c)
        return dead

    cdef int _with_stone(self, uint64_t* groups, int k, int x, uint64_t* out) noexcept nogil:
        """The groups of the same owner after a stone on empty cell ``x``:
        the groups next to ``x`` merge with it. Returns how many."""
        cdef uint64_t merged = _bit(x), near = self.nbr[x]
        cdef int i, m = 0
        for i in range(k):
            if groups[i] & near:
                merged |= groups[i]
            else:
                out[m] = groups[i]
                m += 1
        out[m] = merged
        return m + 1

    cdef uint64_t _semi_mustplay(self, uint64_t* groups, int k, uint64_t empty,
                                 uint64_t must) noexcept nogil:
        """``must`` less the cells the *other* player cannot play: the
        intersection with C_x + {x} for every empty x after which the groups'
        owner would have a virtual win of carrier C_x (step 4b)."""
        cdef uint64_t g2[MAXG]
        cdef uint64_t carrier, bit = empty
        cdef int x, k2
        while bit and must:
            x = __builtin_ctzll(bit)
            bit &= bit - 1
            k2 = self._with_stone(groups, k, x, g2)
            if self._vc(g2, k2, empty & ~_bit(x), &carrier):
                must &= carrier | _bit(x)
        return must

    # -- H-search (step 6) ---------------------------------------------------

    cdef bint _h_add_vc(self, int u, int v, uint64_t c) noexcept nogil:
        """Record a full connection u-v of carrier ``c`` (u a node, v a node
        or a side) unless a kept one's carrier is a subset; queue it for the
        AND rule. Only the ``kv`` smallest are kept: a bound, never a claim."""
        cdef uint64_t* a = &self.hv[(u * HN + v) * KV]
        cdef int n = self.hvn[u * HN + v], i, worst = -1, wp = -1, pc = __builtin_popcountll(c)
        if pc > self.hcap:
            return 0
        for i in range(n):
            if a[i] & ~c == 0:
                return 0
        i = 0
        while i < n:             # drop the supersets of c
            if c & ~a[i] == 0:
                n -= 1
                a[i] = a[n]
            else:
                i += 1
        if n < self.kv:
            a[n] = c
            n += 1
        else:
            for i in range(n):
                if __builtin_popcountll(a[i]) > wp:
                    wp = __builtin_popcountll(a[i])
                    worst = i
            if wp <= pc:
                self.hvn[u * HN + v] = n
                return 0
            a[worst] = c
        self.hvn[u * HN + v] = n
        if v < SIDE0:
            self.hlinked[u] |= _bit(v)
            self.hlinked[v] |= _bit(u)
            # the mirror entry v-u, kept equal
            memcpy(&self.hv[(v * HN + u) * KV], a, n * sizeof(uint64_t))
            self.hvn[v * HN + u] = n
        else:
            self.hlinked_side[u] |= 1 << (v - SIDE0)
        if self.qlen < self.qmax:
            self.qu[self.qlen] = u
            self.qv[self.qlen] = v
            self.qc[self.qlen] = c
            self.qlen += 1
        return 1

    cdef void _h_add_sc(self, int u, int v, uint64_t c) noexcept nogil:
        """Record a semi-connection u-v of carrier ``c`` (its key included)
        and apply the OR rule: two semis with disjoint carriers, or all the
        kept ones when their carriers share no cell, make a full connection
        of the union (whatever the opponent takes, some semi's carrier misses
        it and the owner plays that semi's key)."""
        cdef uint64_t* vcs = &self.hv[(u * HN + v) * KV]
        cdef uint64_t* a = &self.hs[(u * HN + v) * KS]
        cdef int nv = self.hvn[u * HN + v], n = self.hsn[u * HN + v], i
        cdef uint64_t inter = c, union = c
        if __builtin_popcountll(c) > self.hcap:
            return
        for i in range(nv):
            if vcs[i] & ~c == 0:
                return
        for i in range(n):
            if a[i] & ~c == 0:
                return
        i = 0
        while i < n:
            if c & ~a[i] == 0:
                n -= 1
                a[i] = a[n]
            else:
                i += 1
        for i in range(n):
            if a[i] & c == 0:
                self._h_add_vc(u, v, a[i] | c)
            inter &= a[i]
            union |= a[i]
        if inter == 0 and n >= 2:
            self._h_add_vc(u, v, union)
        if n < self.ks:
            a[n] = c
            n += 1
        else:
            a[n - 1] = c          # the newest replaces the last kept
        self.hsn[u * HN + v] = n
        if v < SIDE0:
            memcpy(&self.hs[(v * HN + u) * KS], a, n * sizeof(uint64_t))
            self.hsn[v * HN + u] = n

    cdef void _h_and(self, int a, int m, uint64_t c1) noexcept nogil:
        """The AND rule for a new full connection a-m (carrier c1) through
        the node m (never a side) to every w with a full connection m-w of
        carrier c2 disjoint from c1, neither carrier holding the other end:
        through one of the owner's groups it is a full connection a-w of
        carrier c1 + c2; through an empty cell a semi-connection with that
        cell as its key (after the owner plays it, the same)."""
        cdef uint64_t ws = self.hlinked[m] & ~_bit(a), c2, body_a = self.hbody[a], carrier
        cdef uint64_t* b
        cdef int w, i, n, s
        cdef bint group = self.hgroup[m]
        cdef uint64_t key = 0 if group else self.hbody[m]
        if a >= SIDE0:
            return
        while ws:
            w = __builtin_ctzll(ws)
            ws &= ws - 1
            if self.hbody[w] & c1:
                continue
            b = &self.hv[(m * HN + w) * KV]
            n = self.hvn[m * HN + w]
            for i in range(n):
                c2 = b[i]
                if c2 & c1 or c2 & body_a:
                    continue
                carrier = c1 | c2 | key
                if group:
                    self._h_add_vc(a, w, carrier)
                else:
                    self._h_add_sc(a, w, carrier)
        for s in range(3):
            if not (self.hlinked_side[m] >> s & 1):
                continue
            b = &self.hv[(m * HN + SIDE0 + s) * KV]
            n = self.hvn[m * HN + SIDE0 + s]
            for i in range(n):
                c2 = b[i]
                if c2 & c1 or c2 & body_a:
                    continue
                carrier = c1 | c2 | key
                if group:
                    self._h_add_vc(a, SIDE0 + s, carrier)
                else:
                    self._h_add_sc(a, SIDE0 + s, carrier)

    cdef void _h_and_side(self, int m, int side, uint64_t c2) noexcept nogil:
        """The AND rule for a new full connection m-side (carrier c2) with
        every full connection a-m already kept (``_h_and`` does the other
        order): the same conditions and results."""
        cdef uint64_t as_ = self.hlinked[m], c1
        cdef uint64_t* b
        cdef int a, i, n
        cdef bint group = self.hgroup[m]
        cdef uint64_t key = 0 if group else self.hbody[m]
        while as_:
            a = __builtin_ctzll(as_)
            as_ &= as_ - 1
            if self.hbody[a] & c2:
                continue
            b = &self.hv[(a * HN + m) * KV]
            n = self.hvn[a * HN + m]
            for i in range(n):
                c1 = b[i]
                if c1 & c2:
                    continue
                if group:
                    self._h_add_vc(a, side, c1 | c2)
                else:
                    self._h_add_sc(a, side, c1 | c2 | key)

    cdef int _hsearch(self, uint64_t stones, uint64_t empty, uint64_t* carrier_out,
                      uint64_t* must_out) noexcept nogil:
        """H-search for the owner of ``stones`` (step 6). Nodes: its groups
        and the empty cells; targets: the three sides. Returns 2 with the
        carrier in ``carrier_out`` when a group has full connections to all
        three sides with pairwise disjoint carriers (a virtual win: answering
        each intrusion inside the carrier it hits keeps all three, so the
        owner ends with a Y moving second); else 1 when it has *one-move*
        wins (an empty cell with such three connections, or a group with two
        full connections and one semi-connection, pairwise disjoint), with
        ``must_out`` the intersection of their carriers (each key included):
        a move of the other player outside it leaves one of them intact;
        else 0."""
        cdef uint64_t groups[MAXG]
        cdef uint64_t around, bit, c0, c1, c2, must = ~(<uint64_t>0)
        cdef uint64_t* l0
        cdef uint64_t* l1
        cdef uint64_t* l2
        cdef int k, nn, i, u, v, s, q, n0, n1, n2, i0, i1, i2, semi_side, found = 0
        k = self._groups(stones, groups)
        nn = 0
        for i in range(k):
            self.hbody[nn] = groups[i]
            self.hgroup[nn] = 1
            nn += 1
        bit = empty
        while bit:
            self.hbody[nn] = bit & (~bit + 1)
            self.hgroup[nn] = 0
            bit &= bit - 1
            nn += 1
        self.hnn = nn
        for u in range(nn):
            self.hlinked[u] = 0
            self.hlinked_side[u] = 0
            memset(&self.hvn[u * HN], 0, HN)
            memset(&self.hsn[u * HN], 0, HN)
        self.qlen = 0
        # base: adjacent nodes and nodes on a side are fully connected, carrier empty
        for u in range(nn):
            around = self._around(self.hbody[u])
            for v in range(u + 1, nn):
                if around & self.hbody[v]:
                    self._h_add_vc(u, v, 0)
            for s in range(3):
                if self.hbody[u] & self.side_cells[s]:
                    self._h_add_vc(u, SIDE0 + s, 0)
        q = 0
        while q < self.qlen:
            u = self.qu[q]
            v = self.qv[q]
            c0 = self.qc[q]
            q += 1
            if v < SIDE0:
                self._h_and(u, v, c0)
                self._h_and(v, u, c0)
            else:
                self._h_and_side(u, v, c0)
        # read off the wins and one-move wins
        for u in range(nn):
            if self.hlinked_side[u] != 7 and not (
                    self.hgroup[u] and __builtin_popcountll(self.hlinked_side[u]) == 2):
                continue
            for semi_side in range(-1, 3):
                if semi_side >= 0 and not self.hgroup[u]:
                    break
                l0 = &self.hv[(u * HN + SIDE0) * KV]
                l1 = &self.hv[(u * HN + SIDE0 + 1) * KV]
                l2 = &self.hv[(u * HN + SIDE0 + 2) * KV]
                n0 = self.hvn[u * HN + SIDE0]
                n1 = self.hvn[u * HN + SIDE0 + 1]
                n2 = self.hvn[u * HN + SIDE0 + 2]
                if semi_side == 0:
                    l0 = &self.hs[(u * HN + SIDE0) * KS]
                    n0 = self.hsn[u * HN + SIDE0]
                elif semi_side == 1:
                    l1 = &self.hs[(u * HN + SIDE0 + 1) * KS]
                    n1 = self.hsn[u * HN + SIDE0 + 1]
                elif semi_side == 2:
                    l2 = &self.hs[(u * HN + SIDE0 + 2) * KS]
                    n2 = self.hsn[u * HN + SIDE0 + 2]
                for i0 in range(n0):
                    c0 = l0[i0]
                    for i1 in range(n1):
                        c1 = l1[i1]
                        if c0 & c1:
                            continue
                        for i2 in range(n2):
                            c2 = l2[i2]
                            if c2 & (c0 | c1):
                                continue
                            if semi_side < 0 and self.hgroup[u]:
                                carrier_out[0] = c0 | c1 | c2
                                return 2
                            found = 1
                            must &= c0 | c1 | c2 | (0 if self.hgroup[u] else self.hbody[u])
        must_out[0] = must & empty
        return found

    # -- search --------------------------------------------------------------

    cdef inline uint64_t _key(self, uint64_t* h, int* which) noexcept nogil:
        cdef uint64_t best = h[0]
        cdef int s
        which[0] = 0
        for s in range(1, self.nsym):
            if h[s] < best:
                best = h[s]
                which[0] = s
        return best

    cdef inline Entry* _probe(self, uint64_t key) noexcept nogil:
        cdef Entry* e = &self.table[(key & self.mask_tt) & ~(<uint64_t>1)]
        if e.key == key and e.result:
            return e
        e += 1
        if e.key == key and e.result:
            return e
        return NULL

    cdef inline void _store(self, uint64_t key, int result, int move, int sym, int empties) noexcept nogil:
        # two-entry bucket: slot 0 keeps the bigger subtree, slot 1 the newest
        cdef Entry* e = &self.table[(key & self.mask_tt) & ~(<uint64_t>1)]
        if e.key == key or empties >= e.empties or not e.result:
            pass
        else:
            e += 1
        e.key = key
        e.result = result
        e.move = NO_MOVE if move < 0 else self.sym[sym][move]
        e.sym = sym
        e.empties = empties

    cdef int _solve(self, uint64_t me, uint64_t opp, int p, uint64_t* h) except -1:
        """R_WIN or R_LOSS for the mover ``p`` (stones ``me``), whose
        opponent has ``opp``; ``h``: the position's key under each symmetry."""
        cdef uint64_t empty = self.full & ~(me | opp)
        cdef uint64_t my_groups[MAXG]
        cdef uint64_t op_groups[MAXG]
        cdef uint64_t g2[MAXG]
        cdef uint64_t wins, threats, carrier, moves, dead, bit, hmust
        cdef uint64_t hc[MAXSYM]
        cdef int km, ko, sym, s, c, i, nm, best, result, empties
        cdef int order[MAXC]
        cdef uint64_t score[MAXC]
        cdef uint64_t sc
        cdef int reach[MAXC]
        cdef uint64_t key, key_c
        cdef Entry* e
        self.nodes += 1
        if (self.nodes & 0x3FF) == 0:
            if self.deadline > 0 and monotonic_seconds() > self.deadline:
                raise YSolveTimeout("time limit reached")
            PyErr_CheckSignals()          # Ctrl-C and other handlers now, not after the search
        if self.use_captured:
            fill_me = self._captured(me, empty)
            fill_op = self._captured(opp, empty & ~fill_me)
            if fill_me | fill_op:
                # the same value as the filled position (step 0); keep it under both keys
                for s in range(self.nsym):
                    hc[s] = h[s]
                bit = fill_me
                while bit:
                    c = __builtin_ctzll(bit)
                    bit &= bit - 1
                    for s in range(self.nsym):
                        hc[s] ^= self.zob[s][c][p]
                bit = fill_op
                while bit:
                    c = __builtin_ctzll(bit)
                    bit &= bit - 1
                    for s in range(self.nsym):
                        hc[s] ^= self.zob[s][c][1 - p]
                self.fill_ins += 1
                result = self._solve(me | fill_me, opp | fill_op, p, hc)
                key = self._key(h, &sym)
                self._store(key, result, -1, sym, __builtin_popcountll(empty))
                return result
        km = self._groups(me, my_groups)
        if self._sides_of(me) == 7 and self._has_y(my_groups, km):
            return R_WIN            # only after a fill-in (step 0)
        wins = self._winning_cells(my_groups, km, empty)
        if wins:
            return R_WIN
        ko = self._groups(opp, op_groups)
        if self._sides_of(opp) == 7 and self._has_y(op_groups, ko):
            return R_LOSS           # only after a fill-in (step 0)
        threats = self._winning_cells(op_groups, ko, empty)
        if __builtin_popcountll(threats) >= 2:
            return R_LOSS
        key = self._key(h, &sym)
        e = self._probe(key)
        if e != NULL:
            self.tt_hits += 1
            if e.result == R_WIN or e.result == R_LOSS:
                return e.result
        empties = __builtin_popcountll(empty)
        moves = empty
        if self.use_vc:
            if self._vc(my_groups, km, empty, &carrier):
                self.vc_wins += 1
                self._store(key, R_WIN, -1, sym, empties)
                return R_WIN
            if self._vc(op_groups, ko, empty, &carrier):
                self.vc_losses += 1
                self._store(key, R_LOSS, -1, sym, empties)
                return R_LOSS
        if threats:
            moves &= threats
        if self.use_hsearch:
            if self._hsearch(me, empty, &carrier, &hmust):
                self.hsearch_wins += 1
                self._store(key, R_WIN, -1, sym, empties)
                return R_WIN
            result = self._hsearch(opp, empty, &carrier, &hmust)
            if result == 2:
                self.vc_losses += 1
                self._store(key, R_LOSS, -1, sym, empties)
                return R_LOSS
            if result == 1:
                if moves & ~hmust:
                    self.hsearch_cuts += 1
                moves &= hmust
                if moves == 0:
                    self.vc_losses += 1
                    self._store(key, R_LOSS, -1, sym, empties)
                    return R_LOSS
        if self.use_semi:
            moves = self._semi_mustplay(op_groups, ko, empty, moves)
            if moves == 0:
                self.vc_losses += 1
                self._store(key, R_LOSS, -1, sym, empties)
                return R_LOSS
        if self.use_semi:
            # a move that leaves the mover a virtual win wins (tried before searching)
            bit = moves
            while bit:
                c = __builtin_ctzll(bit)
                bit &= bit - 1
                i = self._with_stone(my_groups, km, c, g2)
                reach[c] = 0
                if self._vc(g2, i, empty & ~_bit(c), &carrier, &reach[c]):
                    self.vc_wins += 1
                    self._store(key, R_WIN, c, sym, empties)
                    return R_WIN
        if self.use_dead:
            dead = self._dead(my_groups, km, op_groups, ko, moves, empty)
            if dead != moves:       # keep one move if all are dead (never happens in play)
                moves &= ~dead
        if moves != empty:
            self.mustplay_cuts += 1
        # order: enhanced transposition cutoff first, then history
        nm = 0
        bit = moves
        while bit:
            c = __builtin_ctzll(bit)
            bit &= bit - 1
            for s in range(self.nsym):
                hc[s] = h[s] ^ self.zob[s][c][p]
            key_c = self._key(hc, &i)
            e = self._probe(key_c)
            if e != NULL and e.result == R_LOSS:
                self._store(key, R_WIN, c, sym, empties)
                return R_WIN
            order[nm] = c
            score[nm] = self.history[p][c]
            if self.use_semi:
                score[nm] |= <uint64_t>reach[c] << 40
            nm += 1
        # insertion sort by score, descending
        for i in range(1, nm):
            c = order[i]
            sc = score[i]
            best = i - 1
            while best >= 0 and score[best] < sc:
                order[best + 1] = order[best]
                score[best + 1] = score[best]
                best -= 1
            order[best + 1] = c
            score[best + 1] = sc
        for i in range(nm):
            c = order[i]
            for s in range(self.nsym):
                hc[s] = h[s] ^ self.zob[s][c][p]
            result = self._solve(opp, me | _bit(c), 1 - p, hc)
            if result == R_LOSS:
                self.history[p][c] += empties * empties
                self._store(key, R_WIN, c, sym, empties)
                return R_WIN
        self._store(key, R_LOSS, -1, sym, empties)
        return R_LOSS

    def solve(self, black, white, int to_move, double time_limit=0.0):
        """True when ``to_move`` (0 Black, 1 White) wins the position with
        Black's stones ``black`` and White's ``white`` (cell sets as ints)."""
        cdef uint64_t b = black, w = white
        cdef uint64_t me = b if to_move == 0 else w
        cdef uint64_t opp = w if to_move == 0 else b
        cdef uint64_t h[MAXSYM]
        cdef int s, c, p
        for s in range(self.nsym):
            h[s] = 0
            for p in range(2):
                bits = b if p == 0 else w
                for c in range(self.n):
                    if bits >> c & 1:
                        h[s] ^= self.zob[s][c][p]
        self.deadline = monotonic_seconds() + time_limit if time_limit > 0 else 0.0
        return self._solve(me, opp, to_move, h) == R_WIN

    def winning_cells(self, stones, empty):
        """Empty cells that complete a Y for the owner of ``stones`` (a test face)."""
        cdef uint64_t groups[MAXG]
        cdef int k = self._groups(stones, groups)
        return self._winning_cells(groups, k, empty)

    def virtual_win(self, stones, empty):
        """Carrier of a found virtual win for the owner of ``stones`` (None: none found;
        0: a group already touches all three sides)."""
        cdef uint64_t groups[MAXG]
        cdef uint64_t carrier
        cdef int k = self._groups(stones, groups)
        return carrier if self._vc(groups, k, empty, &carrier) else None

    def semi_mustplay(self, stones, empty):
        """Cells the opponent of ``stones``' owner must play in (step 4b; a test face)."""
        cdef uint64_t groups[MAXG]
        cdef int k = self._groups(stones, groups)
        return self._semi_mustplay(groups, k, empty, empty)

    def hsearch(self, stones, empty):
        """Step 6 for the owner of ``stones`` (a test face): (2, carrier) for
        a virtual win, (1, region) for one-move wins (the other player must
        play in ``region``), (0, None) when H-search found neither."""
        cdef uint64_t carrier = 0, must = 0
        cdef int r = self._hsearch(stones, empty, &carrier, &must)
        return (r, carrier if r == 2 else must if r == 1 else None)

    def dead_cells(self, black, white):
        """Step 5's dead cells of a position (a test face; the same for either player to move)."""
        cdef uint64_t b = black, w = white
        cdef uint64_t bg[MAXG]
        cdef uint64_t wg[MAXG]
        cdef int kb = self._groups(b, bg), kw = self._groups(w, wg)
        cdef uint64_t empty = self.full & ~(b | w)
        return self._dead(bg, kb, wg, kw, empty, empty)

# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Alpha-beta search over the core protocol (``games.core.GameCore``).

One kernel serves every Cython game, so it cannot assume strict alternation,
two players or a deterministic game:

- **Whose value.** Every node has a *side*; its value is seen from that side.
  With two players the side is the player to move, and the game is taken to be
  zero-sum, so a child's value is negated exactly when the side changes: a
  player who places and then flips in one turn keeps the same side, and no
  sign flips between its own consecutive decisions. With more than two players
  the search is *paranoid*: side 0 is the ``root_player`` and side 1 is the
  coalition of all others, who are assumed to minimise the root player's
  return. That makes the tree two-sided and zero-sum again, so alpha-beta is
  exact for that value (and it is always defined, unlike max^n, whose value
  depends on how players break ties between moves that differ only in what
  the others get).
- **Chance nodes** (and terminal nodes) are seen from side 0 (player 0 with two
  players, the root player otherwise). Their value is the probability-weighted
  mean of the children (expectimax), searched with Ballard's Star1 windows so
  that a chance node can still cut off once its bound leaves the window; this
  needs the utility bounds ``lo``/``hi``.
- **Transpositions.** Keys are the protocol's Zobrist ``hash()``, or with
  ``symmetry=True`` the minimum of ``symmetric_hash(s)`` over the board's
  symmetries, so one entry serves a whole symmetry class. A stored best move
  is only reused when the position reached its minimum under the same
  symmetry (then it is the same position, not a mirror image, and the action
  ids mean the same cells).
- **Exactness.** A subtree that never met the depth limit and never used an
  inexact table entry has an exact value; it is stored with an infinite depth
  so later (deeper, or exhaustive) searches reuse it. Iterative deepening stops
  as soon as an iteration is exact.
- **Heuristic.** At the depth limit the value is the mean return of a few
  uniformly random playouts (the protocol's ``playout``), shrunk by 0.9 so it
  never equals a proven win or loss. Any game gets it for free; playouts are
  seeded, so searches are reproducible.
- **Range cutoffs.** ``lo``/``hi`` must bound every return: a value at the
  side's best possible return ends a node (and is stored exact), and a window
  wholly outside the possible values is answered unsearched. ``value()`` opens
  with the window (lo-1, hi+1) so that its answer is exact; without these
  cutoffs a proven win's siblings would still be searched, each with a window
  (hi, hi+1) that only a full proof tree could close, which makes 2-ply units
  of the split solver search 2.3x the nodes (docs/solved/parallel.md, "Why a
  split unit searches more than the serial solve").
- **Ordering.** Table move first, then two killer moves per ply, then the rest
  by a history score (actions are small ints, so it is one array).
- **A shared table.** With ``shared=`` the table lives in a buffer that other
  processes map too (``solvers/shared_tt.py``: the workers of a parallel solve
  on one machine), so what one worker proves the others reuse. No locks: each
  entry is four 64-bit words, the first stored as the key XOR the other three,
  so an entry read while another process was half-way through writing it (or
  half of two writes) decodes to a key that matches no probe and is a miss.
  Probing and storing copy the entry out first, and the replacement schemes
  decide on that copy exactly as on a private table.
"""
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset, memcmp, memcpy
from libc.stdint cimport uint64_t, uint32_t, int32_t, int8_t
from games.clock cimport monotonic_seconds
from games.interrupt cimport take_signal
from games.core cimport GameCore, PLAYER_CHANCE, PLAYER_TERMINAL
from games.rng cimport Rng, rng_seed, mix64

cdef enum:
    FLAG_EXACT = 0
    FLAG_LOWER = 1
    FLAG_UPPER = 2
    DEPTH_INF = 1000000
    NO_MOVE = -1
    REPLACE_DEPTH = 0
    REPLACE_SIZE = 1
    REPLACE_SIZE4 = 2

cdef extern from *:
    """
    #include <stdint.h>
    /* One entry of a table other processes write too: four 64-bit words read
       and written one by one through volatile pointers, so that the compiler
       neither merges nor reorders them; a torn entry is caught by its XOR check. */
    static inline void fg_tt_load(const void* src, void* dst) {
        const volatile uint64_t* s = (const volatile uint64_t*)src;
        uint64_t* d = (uint64_t*)dst;
        d[0] = s[0]; d[1] = s[1]; d[2] = s[2]; d[3] = s[3];
    }
    static inline void fg_tt_save(void* dst, const void* src) {
        volatile uint64_t* d = (volatile uint64_t*)dst;
        const uint64_t* s = (const uint64_t*)src;
        d[0] = s[0]; d[1] = s[1]; d[2] = s[2]; d[3] = s[3];
    }
    """
    void fg_tt_load(const void* src, void* dst) noexcept nogil
    void fg_tt_save(void* dst, const void* src) noexcept nogil

TT_REPLACE = {"depth": REPLACE_DEPTH, "size": REPLACE_SIZE, "size4": REPLACE_SIZE4}

DEF_EVAL_SHRINK = 0.9


cdef struct Entry:
    uint64_t key
    double value
    int32_t depth
    int32_t move
    int8_t flag
    int8_t sym
    uint32_t work       # nodes the subtree took (saturating), for size-preferred replacement

# A shared table's entries are 4 words (checked below, at import): key ^ w1 ^ w2 ^ w3, w1, w2, w3.
ENTRY_BYTES = sizeof(Entry)
assert ENTRY_BYTES == 32, "the shared table's XOR check assumes 32-byte entries"


cdef inline void _decode(const Entry* slot, Entry* out) noexcept:
    """Copy a shared entry out and recover its key (garbage if the entry was torn)."""
    cdef uint64_t* w = <uint64_t*>out
    fg_tt_load(slot, out)
    w[0] ^= w[1] ^ w[2] ^ w[3]


cdef inline void _encode(Entry* slot, const Entry* entry) noexcept:
    """Write ``entry`` into a shared slot with its key folded into the check word."""
    cdef uint64_t w[4]
    memcpy(w, entry, 32)
    w[0] ^= w[1] ^ w[2] ^ w[3]
    fg_tt_save(slot, w)


class SearchTimeout(Exception):
    """Raised by an exact solve that ran out of its time limit."""


cdef class Searcher:
    """A reusable search context: transposition table, history, counters.

    Keep one per game and root player; the table carries over between
    searches (iterative deepening, a bot's successive moves, the openings of
    an exhaustive solve), which is most of its value.
    """
    cdef readonly int num_players
    cdef readonly int num_actions
    cdef readonly int root_player
    cdef readonly double lo, hi
    cdef readonly bint symmetry
    cdef readonly int eval_playouts
    cdef public bint prescan
    cdef public int symmetry_plies
    cdef public bint range_cutoffs      # see _search: a window outside [lo, hi], a proven extreme
    cdef readonly unsigned long long nodes
    cdef readonly unsigned long long tt_hits
    cdef readonly unsigned long long evals
    cdef readonly long tt_entries
    cdef int max_ply
    cdef int buf_width
    cdef Entry* table
    cdef uint64_t mask
    cdef int* moves
    cdef double* probs
    cdef uint64_t* kid_keys
    cdef int* kid_syms
    cdef double* scores
    cdef double* ret
    cdef long* history
    cdef int* killers
    cdef unsigned long long* root_nodes  # nodes below each move of the last value() call's root
    cdef Rng rng
    cdef double deadline
    cdef bint aborted
    cdef object interrupt               # what a signal's handler raised mid-search (games/interrupt.pxd)
    cdef unsigned long long inexact     # counts uses of inexact information
    cdef uint64_t root_key
    cdef readonly int tt_replace
    cdef int bucket
    cdef readonly bint shared           # the table is another process's memory too
    cdef unsigned char[::1] shared_view  # keeps that buffer alive while we point into it
    cdef Entry* local                   # shared mode: [0:4] a decoded bucket, [4:8] as read, [8] a probe

    def __cinit__(self):
        self.table = NULL
        self.moves = NULL
        self.probs = NULL
        self.kid_keys = NULL
        self.kid_syms = NULL
        self.scores = NULL
        self.ret = NULL
        self.history = NULL
        self.killers = NULL
        self.root_nodes = NULL
        self.local = NULL
        self.shared = False

    def __dealloc__(self):
        if not self.shared:
            free(self.table)
        free(self.local)
        free(self.moves)
        free(self.probs)
        free(self.kid_keys)
        free(self.kid_syms)
        free(self.scores)
        free(self.ret)
        free(self.history)
        free(self.killers)
        free(self.root_nodes)

    def __init__(self, GameCore prototype, int root_player=0, double lo=-1.0, double hi=1.0,
                 bint symmetry=True, int tt_log2=22, int eval_playouts=8,
                 unsigned long long seed=0, str tt_replace="depth", shared=None):
        """``shared``: a writable buffer of ``2**tt_log2 * ENTRY_BYTES`` bytes
        (zeroed, or written only by searchers of the same game, symmetry and
        root player) to use as the table instead of a private one."""
        if not lo < hi:
            raise ValueError(f"utility bounds must satisfy lo < hi, got {lo}, {hi}")
        if not 10 <= tt_log2 <= 30:
            raise ValueError(f"tt_log2 must be in 10..30, got {tt_log2}")
        if prototype.num_players < 1:
            raise ValueError("the game has no players")
        if not 0 <= root_player < prototype.num_players:
            raise ValueError(f"root_player must be in 0..{prototype.num_players - 1}")
        if eval_playouts < 1:
            raise ValueError("eval_playouts must be at least 1")
        if tt_replace not in TT_REPLACE:
            raise ValueError(f"tt_replace must be one of {', '.join(TT_REPLACE)}, got {tt_replace!r}")
        self.tt_replace = TT_REPLACE[tt_replace]
        self.bucket = 4 if self.tt_replace == REPLACE_SIZE4 else 2
        self.num_players = prototype.num_players
        self.num_actions = prototype.num_actions
        self.root_player = root_player
        self.lo = lo
        self.hi = hi
        self.symmetry = symmetry
        self.eval_playouts = eval_playouts
        self.max_ply = prototype.max_game_length + 2
        self.buf_width = max(prototype.num_actions, prototype.max_chance_outcomes, 1)
        self.tt_entries = 1 << tt_log2
        self.mask = <uint64_t>(self.tt_entries - 1) & ~(<uint64_t>(self.bucket - 1))   # buckets
        if shared is None:
            self.table = <Entry*>calloc(self.tt_entries, sizeof(Entry))
        else:
            self.shared_view = shared
            if self.shared_view.shape[0] != self.tt_entries * sizeof(Entry):
                raise ValueError(f"a shared table of 2**{tt_log2} entries needs "
                                 f"{self.tt_entries * sizeof(Entry)} bytes, got {self.shared_view.shape[0]}")
            if (<size_t>&self.shared_view[0]) % 8:
                raise ValueError("a shared table must be 8-byte aligned")
            self.table = <Entry*>&self.shared_view[0]
            self.shared = True
        self.local = <Entry*>calloc(9, sizeof(Entry))
        self.moves = <int*>malloc(self.max_ply * self.buf_width * sizeof(int))
        self.probs = <double*>malloc(self.max_ply * self.buf_width * sizeof(double))
        self.kid_keys = <uint64_t*>malloc(self.max_ply * self.buf_width * sizeof(uint64_t))
        self.kid_syms = <int*>malloc(self.max_ply * self.buf_width * sizeof(int))
        self.scores = <double*>malloc(self.buf_width * sizeof(double))
        self.ret = <double*>malloc(self.num_players * sizeof(double))
        self.history = <long*>calloc(self.num_actions + 1, sizeof(long))
        self.killers = <int*>malloc(2 * self.max_ply * sizeof(int))
        self.root_nodes = <unsigned long long*>calloc(self.num_actions + 1, sizeof(unsigned long long))
        if (self.table == NULL or self.local == NULL or self.moves == NULL or self.kid_keys == NULL
                or self.kid_syms == NULL or self.probs == NULL or self.scores == NULL
                or self.ret == NULL or self.history == NULL or self.killers == NULL
                or self.root_nodes == NULL):
            raise MemoryError("cannot allocate the search tables")
        for i in range(2 * self.max_ply):
            self.killers[i] = NO_MOVE
        rng_seed(&self.rng, seed)
        # Paranoid values depend on whose return is maximised; with two
        # zero-sum players they do not, so the table is shared across roots.
        self.root_key = mix64(<uint64_t>(root_player + 1)) if self.num_players > 2 else 0
        self.deadline = 0.0
        self.prescan = True
        # Symmetric transpositions are common near the root and rare deep
        # down, where the per-symmetry hashing costs more than it saves;
        # a position keyed either way is still keyed consistently enough:
        # two keys of one position only cost a missed transposition.
        self.symmetry_plies = 1000000
        # A value at the side's best possible return ends the node (and a
        # window outside the possible values ends it unsearched); off only to
        # measure what it saves (docs/solved/parallel.md, "Why a split unit
        # searches more than the serial solve").
        self.range_cutoffs = True

    # ------------------------------------------------------------------
    # sides and values

    cdef inline int _side(self, int player) noexcept:
        if player < 0:                       # chance or terminal
            return 0
        if self.num_players == 2:
            return player
        return 0 if player == self.root_player else 1

    cdef inline double _terminal_value(self, GameCore s) noexcept:
        """Side-0 value of a finished game."""
        s.returns(self.ret)
        if self.num_players == 2:
            return self.ret[0]
        return self.ret[self.root_player]

    cdef double _evaluate(self, GameCore s) noexcept:
        """Side-0 estimate from random playouts (never a proven value)."""
        cdef int _k
        cdef double total = 0.0, mid = 0.5 * (self.lo + self.hi)
        cdef GameCore t
        self.evals += 1
        self.inexact += 1
        for _k in range(self.eval_playouts):
            t = s.copy()
            t.playout(&self.rng)
            total += self._terminal_value(t)
        return mid + DEF_EVAL_SHRINK * (total / self.eval_playouts - mid)

    # ------------------------------------------------------------------
    # transposition table

    cdef inline uint64_t _key(self, GameCore s, int* sym_out, int ply=0) noexcept:
        cdef uint64_t best = s.hash(), h
        cdef int k, n, arg = 0
        if self.symmetry and ply < self.symmetry_plies:
            n = s.num_symmetries()
            for k in range(1, n):
                h = s.symmetric_hash(k)
                if h < best:
                    best = h
                    arg = k
        sym_out[0] = arg
        return best ^ self.root_key

    cdef inline Entry* _probe(self, uint64_t key) noexcept:
        """The entry of ``key``, or NULL. Shared mode: a decoded copy (valid until
        the next probe), and only an entry whose XOR check gives ``key`` back."""
        cdef Entry* b = &self.table[key & self.mask]
        cdef int i
        if self.shared:
            for i in range(self.bucket):
                _decode(&b[i], &self.local[8])
                if self.local[8].key == key and self.local[8].depth > 0:
                    return &self.local[8]
            return NULL
        for i in range(self.bucket):
            if b[i].key == key and b[i].depth > 0:
                return &b[i]
        return NULL

    cdef inline void _store(self, uint64_t key, double value, int depth, int flag, int move,
                            int sym, unsigned long long work) noexcept:
        """Replacement (``tt_replace``). Every scheme only decides which entry
        is forgotten, never what an entry says, so the values cannot change.

        - "depth" (the original): slot 0 keeps the deepest result, slot 1
          takes the newest. In an exact solve every stored result is exact
          (infinite depth), so slot 0 then always takes the newest too and
          pushes the old one into slot 1: two-deep recency, nothing kept for
          being expensive.
        - "size": the same two-tier bucket, but among equal depths slot 0
          keeps the entry whose subtree took more nodes (the work a loss of
          the entry would cost again), slot 1 takes the rest.
        - "size4": four-entry buckets; a key already there is updated, else
          an empty entry is used, else the shallowest, then smallest subtree
          is replaced.
        """
        cdef Entry* b = &self.table[key & self.mask]
        cdef Entry* slots = b
        cdef Entry* e
        cdef int i, d = depth if depth > 0 else 1
        if self.shared:
            # decide on a decoded copy of the bucket (a torn entry decodes to a
            # key no probe asks for), then write back only the entries that changed
            memset(self.local, 0, 8 * sizeof(Entry))
            for i in range(self.bucket):
                _decode(&slots[i], &self.local[i])
            memcpy(&self.local[4], self.local, 4 * sizeof(Entry))
            b = self.local
        cdef uint32_t w = <uint32_t>(work if work < 0xffffffffULL else 0xffffffffULL)
        if self.tt_replace == REPLACE_DEPTH:
            # slot 0 keeps the deepest result, slot 1 always takes the newest
            if b[0].key == key or depth >= b[0].depth:
                if b[0].key != key and b[0].depth > 0:
                    b[1] = b[0]
                e = &b[0]
            else:
                e = &b[1]
        elif self.tt_replace == REPLACE_SIZE:
            if b[0].key == key:
                e = &b[0]
                if w < e.work and e.depth == d:
                    w = e.work          # a re-search with a better bound took fewer nodes
            elif b[0].depth == 0 or d > b[0].depth or (d == b[0].depth and w >= b[0].work):
                if b[0].depth > 0:
                    b[1] = b[0]
                e = &b[0]
            else:
                e = &b[1]
        else:
            e = NULL
            for i in range(4):
                if b[i].key == key:
                    e = &b[i]
                    if w < e.work and e.depth == d:
                        w = e.work
                    break
            if e == NULL:
                e = &b[0]
                for i in range(4):
                    if b[i].depth == 0:
                        e = &b[i]
                        break
                    if b[i].depth < e.depth or (b[i].depth == e.depth and b[i].work < e.work):
                        e = &b[i]
        e.key = key
        e.value = value
        e.depth = d
        e.flag = flag
        e.move = move
        e.sym = sym
        e.work = w
        if self.shared:
            for i in range(self.bucket):
                if memcmp(&b[i], &b[4 + i], sizeof(Entry)) != 0:
                    _encode(&slots[i], &b[i])

    # ------------------------------------------------------------------
    # the search

    cdef inline bint _check_time(self) noexcept:
        """Every 1024 nodes: the time limit, and Python's pending signals
        (Ctrl-C), whose exception ``_raise_interrupt`` raises once unwound."""
        if (self.nodes & 1023) == 0 and not self.aborted:
            if self.deadline > 0.0 and monotonic_seconds() > self.deadline:
                self.aborted = True
            else:
                self.interrupt = take_signal()
                if self.interrupt is not None:
                    self.aborted = True
        return self.aborted

    cdef int _raise_interrupt(self) except -1:
        """Raise what a signal's handler raised during the search, if anything."""
        if self.interrupt is not None:
            exc, self.interrupt = self.interrupt, None
            self.deadline = 0.0
            self.aborted = False
            raise exc
        return 0

    cdef double _child_value(self, GameCore child, int my_side, int depth, int ply,
                             double alpha, double beta, uint64_t key_hint=0,
                             int sym_hint=0) noexcept:
        """Value of ``child`` seen from ``my_side``, searched in that window
        (``key_hint``: the child's table key if already known, else 0)."""
        cdef int cp = child.current_player()
        cdef int cs = self._side(cp)
        if cs == my_side:
            return self._search(child, depth, ply, alpha, beta, key_hint, sym_hint)
        return -self._search(child, depth, ply, -beta, -alpha, key_hint, sym_hint)

    cdef double _search(self, GameCore s, int depth, int ply, double alpha, double beta,
                        uint64_t key_hint=0, int sym_hint=0) noexcept:
        """Fail-soft alpha-beta; the value is seen from the side of ``s``'s mover
        (side 0 for chance and terminal nodes)."""
        cdef int player = s.current_player()
        cdef int side, n, i, j, best_move, sym, flag, a
        cdef uint64_t key
        cdef Entry* e
        cdef double v, best, orig_alpha = alpha, orig_beta = beta, slo, shi
        cdef bint cut = self.range_cutoffs
        cdef int* mv
        cdef double* pr
        cdef GameCore child
        cdef unsigned long long inexact0
        cdef double L, U, total, rem, ai, bi, p
        cdef list kids
        cdef uint64_t* kkeys
        cdef int* ksyms
        cdef unsigned long long nodes0 = self.nodes, child_nodes0
        self.nodes += 1
        if self._check_time():
            return 0.0
        if player == PLAYER_TERMINAL:
            return self._terminal_value(s)
        side = self._side(player)
        # The values this side can get: [lo, hi] for side 0 (chance included), negated for side 1.
        if side == 0:
            slo = self.lo
            shi = self.hi
        else:
            slo = -self.hi
            shi = -self.lo
        if cut:
            # Range cutoffs. A window wholly above (below) the possible values
            # is answered without a search: fail low with shi (high with slo).
            # Without this, a search whose root window is wider than [lo, hi]
            # (Searcher.value's) kept searching every sibling of a proven win
            # with a window (hi, hi+1) that only a full proof tree of "nothing
            # beats a win" could close.
            if alpha >= shi:
                return shi
            if beta <= slo:
                return slo
        if key_hint:
            key = key_hint
            sym = sym_hint
        else:
            key = self._key(s, &sym, ply)
        e = self._probe(key)
        best_move = NO_MOVE
        if e != NULL:
            if e.depth >= depth:
                if e.depth < DEPTH_INF:
                    self.inexact += 1
                self.tt_hits += 1
                if e.flag == FLAG_EXACT:
                    return e.value
                if e.flag == FLAG_LOWER and e.value > alpha:
                    alpha = e.value
                elif e.flag == FLAG_UPPER and e.value < beta:
                    beta = e.value
                if alpha >= beta:
                    return e.value
            if e.sym == sym:
                best_move = e.move
        if depth <= 0 or ply >= self.max_ply - 1:
            # (the ply guard only matters for a core whose games outlast its
            # own max_game_length; the value is then a heuristic, not exact)
            v = self._evaluate(s)
            return v if side == 0 else -v
        inexact0 = self.inexact
        mv = self.moves + ply * self.buf_width
        pr = self.probs + ply * self.buf_width
        kkeys = self.kid_keys + ply * self.buf_width
        ksyms = self.kid_syms + ply * self.buf_width

        if player == PLAYER_CHANCE:
            # Star1: the remaining outcomes are only known to lie in [lo, hi].
            n = s.chance_outcomes(mv, pr)
            L = self.lo
            U = self.hi
            total = 0.0
            rem = 1.0
            for i in range(n):
                p = pr[i]
                rem -= p
                if rem < 0.0:
                    rem = 0.0
                ai = (alpha - total - rem * U) / p
                bi = (beta - total - rem * L) / p
                child = s.copy()
                child.apply(mv[i])
                v = self._child_value(child, 0, depth - 1, ply + 1,
                                      ai if ai > L else L, bi if bi < U else U)
                if self.aborted:
                    return 0.0
                if v <= ai:
                    v = total + p * v + rem * U
                    self._finish(key, v, depth, FLAG_UPPER, NO_MOVE, sym, inexact0, nodes0)
                    return v
                if v >= bi:
                    v = total + p * v + rem * L
                    self._finish(key, v, depth, FLAG_LOWER, NO_MOVE, sym, inexact0, nodes0)
                    return v
                total += p * v
            self._finish(key, total, depth, FLAG_EXACT, NO_MOVE, sym, inexact0, nodes0)
            return total

        n = s.legal_actions(mv)
        if n == 0:        # a stuck non-terminal position: score it as it stands
            return self._terminal_value(s) if side == 0 else -self._terminal_value(s)
        self._order(mv, n, best_move, ply)
        kids = None
        if self.prescan and depth > 1:
            # Make every child first: a move that wins on the spot, or a child
            # whose table entry already refutes this node (enhanced
            # transposition cutoff), ends the node before any subtree is
            # searched; the copies are reused by the loop below.
            kids = []
            for i in range(n):
                child = s.copy()
                child.apply(mv[i])
                kids.append(child)
                v = self._known_lower_bound(child, side, depth - 1, ply + 1, &kkeys[i], &ksyms[i])
                if cut and v >= shi:
                    # nothing beats the side's best possible value: proven exactly
                    self._finish(key, shi, depth, FLAG_EXACT, mv[i], sym, inexact0, nodes0)
                    return shi
                if v >= beta:
                    self._finish(key, v, depth, FLAG_LOWER, mv[i], sym, inexact0, nodes0)
                    return v
        best = -1e300
        best_move = mv[0]
        for i in range(n):
            a = mv[i]
            child_nodes0 = self.nodes
            if kids is not None:
                child = <GameCore>kids[i]
                v = self._child_value(child, side, depth - 1, ply + 1, alpha, beta,
                                      kkeys[i], ksyms[i])
            else:
                child = s.copy()
                child.apply(a)
                v = self._child_value(child, side, depth - 1, ply + 1, alpha, beta)
            if ply == 0:
                self.root_nodes[a] += self.nodes - child_nodes0
            if self.aborted:
                return 0.0
            if v > best:
                best = v
                best_move = a
                if v > alpha:
                    alpha = v
                    if alpha >= beta or (cut and v >= shi):
                        # (v > alpha makes v a lower bound, so v >= shi is the best possible)
                        j = depth if depth < 1000 else self.max_ply - ply
                        self.history[a] += j * j
                        if self.killers[2 * ply] != a:
                            self.killers[2 * ply + 1] = self.killers[2 * ply]
                            self.killers[2 * ply] = a
                        break
        if best <= orig_alpha:
            flag = FLAG_UPPER
        elif best >= orig_beta:
            flag = FLAG_LOWER
        else:
            flag = FLAG_EXACT
        if cut:
            # a lower bound at the best possible value, or an upper bound at
            # the worst, is the value itself: store it as exact, so that a
            # later probe with any window can use it
            if flag != FLAG_UPPER and best >= shi:
                best = shi
                flag = FLAG_EXACT
            elif flag != FLAG_LOWER and best <= slo:
                best = slo
                flag = FLAG_EXACT
        self._finish(key, best, depth, flag, best_move, sym, inexact0, nodes0)
        return best

    cdef double _known_lower_bound(self, GameCore child, int my_side, int depth, int ply,
                                   uint64_t* key_out, int* sym_out) noexcept:
        """A lower bound on ``child``'s value from ``my_side`` that needs no
        search: its terminal value, or a bound from its table entry."""
        cdef int cp = child.current_player()
        cdef int cs
        cdef double v
        cdef Entry* e
        key_out[0] = 0
        sym_out[0] = 0
        if cp == PLAYER_TERMINAL:
            v = self._terminal_value(child)
            return v if my_side == 0 else -v
        key_out[0] = self._key(child, sym_out, ply)
        e = self._probe(key_out[0])
        if e == NULL or e.depth < depth:
            return -1e300
        cs = self._side(cp)
        if cs == my_side:
            if e.flag == FLAG_EXACT or e.flag == FLAG_LOWER:
                if e.depth < DEPTH_INF:
                    self.inexact += 1
                return e.value
        elif e.flag == FLAG_EXACT or e.flag == FLAG_UPPER:
            if e.depth < DEPTH_INF:
                self.inexact += 1
            return -e.value
        return -1e300

    cdef inline void _finish(self, uint64_t key, double value, int depth, int flag, int move,
                             int sym, unsigned long long inexact0,
                             unsigned long long nodes0) noexcept:
        if self.aborted:
            return
        self._store(key, value, DEPTH_INF if self.inexact == inexact0 else depth, flag, move, sym,
                    self.nodes - nodes0)

    cdef void _order(self, int* mv, int n, int tt_move, int ply) noexcept:
        """Table move, killers, then descending history (stable insertion sort)."""
        cdef int i, j, a
        cdef double sc
        cdef double* score = self.scores
        cdef int k0 = self.killers[2 * ply], k1 = self.killers[2 * ply + 1]
        for i in range(n):
            a = mv[i]
            if a == tt_move:
                sc = 1e18
            elif a == k0:
                sc = 1e17
            elif a == k1:
                sc = 1e16
            else:
                sc = <double>self.history[a]
            j = i
            while j > 0 and score[j - 1] < sc:
                score[j] = score[j - 1]
                mv[j] = mv[j - 1]
                j -= 1
            score[j] = sc
            mv[j] = a

    # ------------------------------------------------------------------
    # Python face

    def clear_history(self):
        memset(self.history, 0, (self.num_actions + 1) * sizeof(long))

    def reset_counters(self):
        self.nodes = 0
        self.tt_hits = 0
        self.evals = 0

    def value(self, GameCore state, int depth=DEPTH_INF, double alpha=-1e300, double beta=1e300,
              double time_limit=0.0):
        """(value, exact) of ``state`` for the root player's side, searched to
        ``depth`` plies; ``exact`` says the value needed no heuristic.

        The value is player 0's return (two players) or the root player's
        paranoid return (more players). Raises ``SearchTimeout`` if
        ``time_limit`` seconds (0: none) run out first.
        """
        if alpha < self.lo:
            alpha = self.lo - 1.0
        if beta > self.hi:
            beta = self.hi + 1.0
        self.deadline = monotonic_seconds() + time_limit if time_limit > 0 else 0.0
        self.aborted = False
        memset(self.root_nodes, 0, (self.num_actions + 1) * sizeof(unsigned long long))
        cdef unsigned long long inexact0 = self.inexact
        cdef GameCore s = state.copy()
        cdef int player = s.current_player()
        cdef int side = self._side(player)
        cdef double v
        if side == 0:
            v = self._search(s, depth, 0, alpha, beta)
        else:
            v = -self._search(s, depth, 0, -beta, -alpha)
        self._raise_interrupt()
        self.deadline = 0.0
        if self.aborted:
            raise SearchTimeout(f"search ran out of its {time_limit} s")
        return v, self.inexact == inexact0

    def root_moves(self, GameCore state, int depth, double time_limit=0.0, bint all_values=False,
                   double deadline=0.0):
        """Search each legal move of ``state`` to ``depth`` and return
        ``(best_value, best_move, values, exact, completed)``, values seen
        from the mover's side (its own return with two players).

        With ``all_values`` every move gets an exact-window value; otherwise
        later moves are searched with a window that only proves them worse
        (their value is then an upper bound). ``completed`` is False if the
        time ran out, in which case the result covers the moves finished so
        far (``best_move`` is -1 if none was).
        """
        cdef GameCore s = state
        cdef int player = s.current_player()
        if player < 0:
            raise ValueError("root_moves needs a decision node (not chance or terminal)")
        cdef int side = self._side(player)
        cdef int n, i, a
        cdef int* buf = <int*>malloc(self.buf_width * sizeof(int))
        cdef int sym
        cdef Entry* e
        cdef GameCore child
        cdef double alpha, v, best = -1e300
        cdef int best_move = NO_MOVE
        cdef unsigned long long inexact0 = self.inexact
        cdef unsigned long long nodes0 = self.nodes
        n = s.legal_actions(buf)
        order = [buf[i] for i in range(n)]
        e = self._probe(self._key(s, &sym))
        if e != NULL and e.sym == sym and e.move in order:
            order.remove(e.move)
            order.insert(0, e.move)
        free(buf)
        if deadline > 0:
            self.deadline = deadline
        else:
            self.deadline = monotonic_seconds() + time_limit if time_limit > 0 else 0.0
        self.aborted = False
        values = {}
        lo_side = self.lo if side == 0 else -self.hi
        hi_side = self.hi if side == 0 else -self.lo
        for a in order:
            child = s.copy()
            child.apply(a)
            alpha = lo_side - 1.0 if (all_values or best_move == NO_MOVE) else best
            v = self._child_value(child, side, depth - 1, 1, alpha, hi_side + 1.0)
            if self.aborted:
                break
            values[a] = v
            if v > best:
                best = v
                best_move = a
            if best >= hi_side and not all_values:
                break
        self._raise_interrupt()
        completed = not self.aborted
        self.deadline = 0.0
        self.aborted = False
        if completed and best_move != NO_MOVE:
            self._store(self._key(s, &sym), best,
                        DEPTH_INF if self.inexact == inexact0 else depth,
                        FLAG_EXACT, best_move, sym, self.nodes - nodes0)
        return best, best_move, values, self.inexact == inexact0, completed

    def root_child_nodes(self):
        """{action: nodes searched below it} for the root of the last ``value()``
        call (moves never searched, e.g. after a cutoff, are left out): where a
        search spent its work, to set against the same moves searched apart
        (experiments/split_nodes.py)."""
        return {a: int(self.root_nodes[a]) for a in range(self.num_actions) if self.root_nodes[a]}

    def canonical_key(self, GameCore state):
        """The transposition key of ``state`` (symmetry class if enabled)."""
        cdef int sym
        return self._key(state, &sym)

    def side_of(self, int player):
        """0 if ``player``'s values are side 0 (player 0 / the root player)."""
        return self._side(player)

    def tt_lookup(self, unsigned long long key):
        """The table's entry for ``key`` as a dict, or None (a miss; for tests)."""
        cdef Entry* e = self._probe(key)
        if e == NULL:
            return None
        return {"key": e.key, "value": e.value, "depth": e.depth, "flag": e.flag,
                "move": e.move, "sym": e.sym, "work": e.work}

    def tt_slot(self, unsigned long long key):
        """Index of the first entry of ``key``'s bucket (for tests)."""
        return int(key & self.mask)

    def stats(self):
        cdef Entry tmp
        used = 0
        for i in range(self.tt_entries):
            if self.shared:
                _decode(&self.table[i], &tmp)
                if tmp.depth:
                    used += 1
            elif self.table[i].depth:
                used += 1
        return {"nodes": self.nodes, "tt_hits": self.tt_hits, "evals": self.evals,
                "tt_used": used, "tt_size": self.tt_entries}

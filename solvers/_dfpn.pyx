# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Depth-first proof-number search (df-pn, Nagai 2002) over the core protocol.

Alpha-beta needs a good move order to prove a win; proof numbers find one by
themselves: they steer the search to the part of the tree where the fewest
positions remain to be decided, which in connection games means forcing
sequences. This kernel answers one yes/no question, "can ``attacker`` force a
return of at least ``target``?", for deterministic games (no chance nodes).
Nodes are OR nodes when the attacker moves and AND nodes otherwise, so a
player who moves several times in a row (placements, then flips) simply
stays on the same kind of node.

Exact values follow from at most two questions (solvers/exhaustive.py): "does
player 0 win?" and, if not, "does player 1 win?"; with returns in
{lo, 0, hi} a double "no" is a draw.

Details: transposition table with 2-entry buckets keyed like the alpha-beta
kernel's (symmetry-class minimum of ``symmetric_hash``, mixed with the
attacker and target); proven and disproven entries are never overwritten by
unproven ones; the 1+epsilon threshold trick (Pawlewicz & Lew) cuts the
re-expansions that plain df-pn spends switching between siblings.
"""
from libc.stdlib cimport malloc, calloc, free
from libc.stdint cimport uint64_t, uint32_t
from games.clock cimport monotonic_seconds
from games.interrupt cimport take_signal
from games.rng cimport mix64
from games.core cimport GameCore, PLAYER_CHANCE, PLAYER_TERMINAL

cdef enum:
    MAX_KIDS = 512

cdef uint32_t INF = 0x3FFFFFFF


cdef struct Entry:
    uint64_t key
    uint32_t pn
    uint32_t dn
    uint64_t work


cdef inline uint32_t _add(uint32_t a, uint32_t b) noexcept nogil:
    cdef uint64_t s = <uint64_t>a + b
    return INF if s >= INF else <uint32_t>s


class DfpnTimeout(Exception):
    """The proof search ran out of its time limit."""


class DfpnUnsupported(Exception):
    """The position has chance nodes, which proof numbers do not handle."""


cdef class Prover:
    """A df-pn context (table, counters) for one game; reuse it across
    questions on the same game so proofs of shared positions carry over."""
    cdef readonly unsigned long long nodes
    cdef readonly long tt_entries
    cdef readonly bint symmetry
    cdef readonly double epsilon
    cdef Entry* table
    cdef uint64_t mask
    cdef double* ret
    cdef int num_players
    cdef int attacker
    cdef double target
    cdef uint64_t question
    cdef double deadline
    cdef bint aborted
    cdef object interrupt      # what a signal's handler raised mid-search (games/interrupt.pxd)
    cdef bint saw_chance
    cdef readonly double lo, hi
    cdef readonly bint saw_middle
    cdef int ply
    cdef int max_ply
    cdef bint too_deep

    def __cinit__(self):
        self.table = NULL
        self.ret = NULL

    def __dealloc__(self):
        free(self.table)
        free(self.ret)

    def __init__(self, GameCore prototype, double lo=-1.0, double hi=1.0, bint symmetry=True,
                 int tt_log2=24, double epsilon=0.25):
        if not 10 <= tt_log2 <= 30:
            raise ValueError(f"tt_log2 must be in 10..30, got {tt_log2}")
        if prototype.num_actions > MAX_KIDS:
            raise ValueError(f"df-pn handles at most {MAX_KIDS} actions per position")
        self.lo = lo
        self.max_ply = prototype.max_game_length + 1
        self.hi = hi
        self.saw_middle = False
        self.symmetry = symmetry
        self.epsilon = epsilon
        self.num_players = prototype.num_players
        self.tt_entries = 1 << tt_log2
        self.mask = <uint64_t>(self.tt_entries - 1) & ~(<uint64_t>1)
        self.table = <Entry*>calloc(self.tt_entries, sizeof(Entry))
        self.ret = <double*>malloc(max(1, self.num_players) * sizeof(double))
        if self.table == NULL or self.ret == NULL:
            raise MemoryError("cannot allocate the proof table")

    cdef inline uint64_t _key(self, GameCore s) noexcept:
        cdef uint64_t best = s.hash(), h
        cdef int k, n
        if self.symmetry:
            n = s.num_symmetries()
            for k in range(1, n):
                h = s.symmetric_hash(k)
                if h < best:
                    best = h
        return best ^ self.question

    cdef inline Entry* _find(self, uint64_t key) noexcept:
        cdef Entry* b = &self.table[key & self.mask]
        if b[0].key == key and b[0].work:
            return &b[0]
        if b[1].key == key and b[1].work:
            return &b[1]
        return NULL

    cdef inline void _lookup(self, uint64_t key, uint32_t* pn, uint32_t* dn) noexcept:
        cdef Entry* e = self._find(key)
        if e == NULL:
            pn[0] = 1
            dn[0] = 1
        else:
            pn[0] = e.pn
            dn[0] = e.dn

    cdef void _store(self, uint64_t key, uint32_t pn, uint32_t dn, uint64_t work) noexcept:
        cdef Entry* b = &self.table[key & self.mask]
        cdef Entry* e
        cdef bint solved = pn == 0 or dn == 0
        if solved:
            work = <uint64_t>1 << 62       # keep proofs over any unfinished work
        if b[0].key == key:
            e = &b[0]
        elif b[1].key == key:
            e = &b[1]
        elif b[0].work <= b[1].work:
            e = &b[0]
        else:
            e = &b[1]
        e.key = key
        e.pn = pn
        e.dn = dn
        e.work = work if work > 0 else 1

    cdef inline bint _attacker_wins(self, GameCore s) noexcept:
        cdef double r
        s.returns(self.ret)
        r = self.ret[self.attacker]
        if self.lo < r < self.hi:
            # sticky: from now on a disproof of "attacker reaches hi" is not
            # a proof of "attacker gets lo" (see saw_middle)
            self.saw_middle = True
        return r >= self.target

    cdef void _mid(self, GameCore s, uint64_t key, uint32_t thpn, uint32_t thdn) noexcept:
        """Expand ``s`` until its proof or disproof number reaches its threshold."""
        cdef int n, i, best_i, player
        cdef int acts[MAX_KIDS]
        cdef uint64_t keys[MAX_KIDS]
        cdef uint32_t fixed_pn[MAX_KIDS]   # INF+1 marks "look it up"
        cdef uint32_t fixed_dn[MAX_KIDS]
        cdef uint32_t pn, dn, cpn, cdn, best, second, sum_, t_pn, t_dn
        cdef uint32_t bpn, bdn
        cdef bint is_or
        cdef GameCore child
        cdef list kids
        cdef unsigned long long nodes0 = self.nodes
        self.nodes += 1
        if (self.nodes & 1023) == 0 and not self.aborted:
            if self.deadline > 0.0 and monotonic_seconds() > self.deadline:
                self.aborted = True
            else:
                self.interrupt = take_signal()     # Ctrl-C: raised by prove() once unwound
                self.aborted = self.interrupt is not None
        if self.aborted:
            return
        player = s.current_player()
        if player == PLAYER_CHANCE:
            self.saw_chance = True
            self.aborted = True
            return
        is_or = player == self.attacker
        n = s.legal_actions(acts)
        kids = []
        for i in range(n):
            child = s.copy()
            child.apply(acts[i])
            kids.append(child)
            fixed_pn[i] = INF + 1
            if child.current_player() == PLAYER_TERMINAL:
                if self._attacker_wins(child):
                    fixed_pn[i] = 0
                    fixed_dn[i] = INF
                else:
                    fixed_pn[i] = INF
                    fixed_dn[i] = 0
                keys[i] = 0
                # a decisive terminal child settles the node at once
                if (is_or and fixed_pn[i] == 0) or (not is_or and fixed_dn[i] == 0):
                    if is_or:
                        self._store(key, 0, INF, 1)
                    else:
                        self._store(key, INF, 0, 1)
                    return
            else:
                keys[i] = self._key(child)
        if n == 0:   # stuck position: score it as it stands
            if self._attacker_wins(s):
                self._store(key, 0, INF, 1)
            else:
                self._store(key, INF, 0, 1)
            return
        while True:
            # collect: for an OR node pn = min, dn = sum; AND node the reverse
            best = INF + 1
            second = INF + 1
            best_i = 0
            sum_ = 0
            for i in range(n):
                if fixed_pn[i] <= INF:
                    cpn = fixed_pn[i]
                    cdn = fixed_dn[i]
                else:
                    self._lookup(keys[i], &cpn, &cdn)
                if is_or:
                    sum_ = _add(sum_, cdn)
                    if cpn < best:
                        second = best
                        best = cpn
                        best_i = i
                        bdn = cdn
                    elif cpn < second:
                        second = cpn
                else:
                    sum_ = _add(sum_, cpn)
                    if cdn < best:
                        second = best
                        best = cdn
                        best_i = i
                        bpn = cpn
                    elif cdn < second:
                        second = cdn
            if best > INF:
                best = INF
            if is_or:
                pn = best
                dn = sum_
            else:
                pn = sum_
                dn = best
            if pn >= thpn or dn >= thdn or pn == 0 or dn == 0:
                break
            if second > INF:
                second = INF
            if is_or:
                # child: pn threshold below the runner-up, dn within budget
                t_pn = <uint32_t>min(<double>thpn, second * (1.0 + self.epsilon) + 1.0)
                t_dn = _add(thdn - dn, bdn)
            else:
                t_dn = <uint32_t>min(<double>thdn, second * (1.0 + self.epsilon) + 1.0)
                t_pn = _add(thpn - pn, bpn)
            self.ply += 1
            if self.ply > self.max_ply:
                # longer than the core's own max_game_length: a cycle
                self.too_deep = True
                self.aborted = True
                return
            self._mid(<GameCore>kids[best_i], keys[best_i], t_pn, t_dn)
            self.ply -= 1
            if self.aborted:
                return
        self._store(key, pn, dn, self.nodes - nodes0)

    @property
    def only_extremes(self):
        """True while every finished game this prover met returned lo or hi
        to the attacker. Then a disproof of "attacker gets hi" is also a
        proof of "attacker gets lo": the disproof tree's leaves all return
        less than hi, hence exactly lo."""
        return not self.saw_middle

    def prove(self, GameCore state, int attacker, double target, double time_limit=0.0):
        """True if ``attacker`` can force a return >= ``target`` from
        ``state``, False if it cannot. Raises ``DfpnTimeout`` when
        ``time_limit`` (seconds, 0 = none) runs out, ``DfpnUnsupported`` at a
        chance node."""
        if not 0 <= attacker < self.num_players:
            raise ValueError(f"attacker must be in 0..{self.num_players - 1}")
        self.attacker = attacker
        self.target = target
        self.question = (mix64(<uint64_t>(attacker * 1000 + 1))
                         ^ mix64(<uint64_t>(<long long>(target * 4096) + (1 << 40))))
        self.deadline = monotonic_seconds() + time_limit if time_limit > 0 else 0.0
        self.aborted = False
        self.saw_chance = False
        self.too_deep = False
        self.ply = 0
        cdef GameCore s = state.copy()
        cdef uint32_t pn, dn
        cdef uint64_t key
        if s.current_player() == PLAYER_TERMINAL:
            return bool(self._attacker_wins(s))
        key = self._key(s)
        self._mid(s, key, INF, INF)
        self.deadline = 0.0
        if self.interrupt is not None:
            exc, self.interrupt = self.interrupt, None
            raise exc
        if self.saw_chance:
            raise DfpnUnsupported("df-pn met a chance node; use alpha-beta (expectimax)")
        if self.too_deep:
            raise DfpnUnsupported("a line of play outlasted max_game_length (a cycle?); "
                                  "df-pn needs a finite acyclic game")
        if self.aborted:
            raise DfpnTimeout(f"proof search ran out of its {time_limit} s")
        self._lookup(key, &pn, &dn)
        if pn == 0:
            return True
        if dn == 0:
            return False
        raise RuntimeError(f"df-pn stopped undecided (pn={pn}, dn={dn}); the table is too small")

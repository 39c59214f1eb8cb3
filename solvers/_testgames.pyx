# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""A synthetic game for testing searches: a random DAG with chance nodes.

None of the real games has everything the solvers must handle (chance nodes,
more than two players, one player moving several times in a row,
transpositions, fractional returns), and the real games are too large to
check against brute force. This one has all of it in a few hundred nodes.

The mover at ply ``d`` is ``pattern[d]`` (a digit is a player, ``c`` is
chance). The position is ``(d, s)`` with ``s`` in ``0..modulus-1``; action
``a`` takes ``s`` to ``(3*s + a + d) % modulus``, so different paths meet
again (transpositions). A decision node has between 1 and ``branching``
actions, a chance node ``branching`` outcomes with unequal probabilities,
and a finished game gives every player a return in {-1, -0.5, 0, 0.5, 1}
drawn from ``(s, seed)`` (two players: zero-sum, ``[v, -v]``).
"""
from libc.stdint cimport uint64_t
from games.core cimport GameCore, PLAYER_CHANCE, PLAYER_TERMINAL


cdef inline uint64_t _mix(uint64_t x) noexcept nogil:
    x += <uint64_t>0x9E3779B97F4A7C15ULL
    x = (x ^ (x >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    x = (x ^ (x >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return x ^ (x >> 31)


cdef class TreeCore(GameCore):
    cdef int movers[64]
    cdef int length
    cdef int branching
    cdef int modulus
    cdef uint64_t seed
    cdef int d
    cdef int s

    def __init__(self, str pattern="0c1", int branching=3, int players=2, int modulus=7,
                 unsigned long long seed=0, bint _bare=False):
        if _bare:
            return
        if not 1 <= len(pattern) <= 64:
            raise ValueError("pattern must have 1..64 characters")
        if not 2 <= branching <= 8 or not 2 <= players <= 8 or not 1 <= modulus <= 100000:
            raise ValueError("need branching in 2..8, players in 2..8, modulus in 1..100000")
        for i, ch in enumerate(pattern):
            if ch == "c":
                self.movers[i] = PLAYER_CHANCE
            elif ch.isdigit() and int(ch) < players:
                self.movers[i] = int(ch)
            else:
                raise ValueError(f"pattern characters are 'c' or a player digit below {players}, got {ch!r}")
        self.length = len(pattern)
        self.branching = branching
        self.modulus = modulus
        self.seed = seed
        self.num_players = players
        self.num_actions = branching
        self.max_chance_outcomes = branching
        self.max_game_length = self.length
        self.d = 0
        self.s = 0

    cdef GameCore copy(self):
        cdef TreeCore o = TreeCore(_bare=True)
        o.movers = self.movers
        o.length = self.length
        o.branching = self.branching
        o.modulus = self.modulus
        o.seed = self.seed
        o.num_players = self.num_players
        o.num_actions = self.num_actions
        o.max_chance_outcomes = self.max_chance_outcomes
        o.max_game_length = self.max_game_length
        o.d = self.d
        o.s = self.s
        return o

    cdef inline uint64_t _h(self, uint64_t extra) noexcept:
        return _mix(self.seed * 1000003 + <uint64_t>self.d * 100003 + <uint64_t>self.s * 7 + extra)

    cdef int current_player(self) noexcept:
        return PLAYER_TERMINAL if self.d >= self.length else self.movers[self.d]

    cdef int legal_actions(self, int* out) noexcept:
        if self.d >= self.length or self.movers[self.d] == PLAYER_CHANCE:
            return 0
        cdef int n = 1 + <int>(self._h(1) % <uint64_t>self.branching), i
        for i in range(n):
            out[i] = i
        return n

    cdef int chance_outcomes(self, int* actions, double* probs) noexcept:
        if self.d >= self.length or self.movers[self.d] != PLAYER_CHANCE:
            return 0
        cdef int i, b = self.branching
        cdef int rot = <int>(self._h(2) % <uint64_t>b)
        cdef double total = b * (b + 1) / 2.0
        for i in range(b):
            actions[i] = i
            probs[i] = ((i + rot) % b + 1) / total
        return b

    cdef void apply(self, int action) noexcept:
        self.s = (3 * self.s + action + self.d) % self.modulus
        self.d += 1

    cdef void returns(self, double* out) noexcept:
        cdef int p
        if self.d < self.length:
            for p in range(self.num_players):
                out[p] = 0.0
            return
        if self.num_players == 2:
            out[0] = (<int>(self._h(3) % 5) - 2) / 2.0
            out[1] = -out[0]
            return
        for p in range(self.num_players):
            out[p] = (<int>(self._h(10 + p) % 5) - 2) / 2.0

    cdef uint64_t hash(self) noexcept:
        return _mix(<uint64_t>self.d * 1000003 + <uint64_t>self.s + 1)

    def to_string(self):
        return f"ply {self.d} state {self.s}"

    def observation(self):
        return [float(self.d), float(self.s)]

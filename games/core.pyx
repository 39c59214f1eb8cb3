# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Default behaviour of the game protocol and its Python face.

Subclasses override the ``cdef`` methods; the defaults here either raise (the
abstract ones, reached only through a programming error) or give the generic
implementation (``playout``, ``is_legal``) that a game may replace with a
faster one of its own.
"""
from libc.stdlib cimport malloc, free
from libc.stdint cimport uint64_t
from games.rng cimport Rng, rng_seed, rng_below, rng_uniform


cdef class GameCore:

    cdef int current_player(self) noexcept:
        return PLAYER_TERMINAL

    cdef bint is_terminal(self) noexcept:
        return self.current_player() == PLAYER_TERMINAL

    cdef int legal_actions(self, int* out) noexcept:
        return 0

    cdef bint is_legal(self, int action) noexcept:
        cdef int n, i
        cdef int* buf
        if action < 0 or action >= self.num_actions or self.is_terminal():
            return False
        if self.current_player() == PLAYER_CHANCE:
            buf = <int*>malloc(self.max_chance_outcomes * sizeof(int))
            probs = <double*>malloc(self.max_chance_outcomes * sizeof(double))
            n = self.chance_outcomes(buf, probs)
            free(probs)
        else:
            buf = <int*>malloc(self.num_actions * sizeof(int))
            n = self.legal_actions(buf)
        for i in range(n):
            if buf[i] == action:
                free(buf)
                return True
        free(buf)
        return False

    cdef void apply(self, int action) noexcept:
        pass

    cdef int chance_outcomes(self, int* actions, double* probs) noexcept:
        return 0

    cdef void returns(self, double* out) noexcept:
        cdef int p
        for p in range(self.num_players):
            out[p] = 0.0

    cdef uint64_t hash(self) noexcept:
        return 0

    cdef int num_symmetries(self) noexcept:
        return 1

    cdef uint64_t symmetric_hash(self, int symmetry) noexcept:
        return self.hash()

    cdef GameCore copy(self):
        raise NotImplementedError(f"{type(self).__name__} must implement copy()")

    cdef void playout(self, Rng* rng) noexcept:
        """Uniformly random play to the end: uniform over the legal actions at
        every decision, chance outcomes drawn by their probabilities."""
        cdef int cap = self.num_actions
        if self.max_chance_outcomes > cap:
            cap = self.max_chance_outcomes
        cdef int* buf = <int*>malloc(cap * sizeof(int))
        cdef double* probs = <double*>malloc(cap * sizeof(double))
        cdef int n, i, player
        cdef double u
        while True:
            player = self.current_player()
            if player == PLAYER_TERMINAL:
                break
            if player == PLAYER_CHANCE:
                n = self.chance_outcomes(buf, probs)
                u = rng_uniform(rng)
                i = 0
                while i < n - 1 and u >= probs[i]:
                    u -= probs[i]
                    i += 1
                self.apply(buf[i])
            else:
                n = self.legal_actions(buf)
                if n == 0:
                    break
                self.apply(buf[rng_below(rng, n)])
        free(buf)
        free(probs)

    # ------------------------------------------------------------------
    # Python face: what the OpenSpiel adapter, tests and experiments use.
    # Every entry point validates its input; the cdef layer trusts it.

    def player(self):
        """The player to act: 0..n-1, -1 for chance, -4 once the game is over."""
        return self.current_player()

    def terminal(self):
        return self.is_terminal()

    def legal_action_list(self):
        if self.is_terminal() or self.current_player() == PLAYER_CHANCE:
            return []
        cdef int* buf = <int*>malloc(self.num_actions * sizeof(int))
        cdef int n = self.legal_actions(buf)
        result = [buf[i] for i in range(n)]
        free(buf)
        return result

    def chance_outcome_list(self):
        if self.current_player() != PLAYER_CHANCE:
            return []
        cdef int* buf = <int*>malloc(self.max_chance_outcomes * sizeof(int))
        cdef double* probs = <double*>malloc(self.max_chance_outcomes * sizeof(double))
        cdef int n = self.chance_outcomes(buf, probs)
        result = [(buf[i], probs[i]) for i in range(n)]
        free(buf)
        free(probs)
        return result

    def apply_action(self, int action):
        """Apply ``action`` after checking it; an illegal action raises and
        leaves the state untouched."""
        if self.is_terminal():
            raise ValueError(f"action {action} applied to a finished game")
        if not self.is_legal(action):
            raise ValueError(
                f"illegal action {action} ({self.describe_action(action)}) "
                f"for player {self.current_player()}; legal: {self.legal_action_list()}")
        self.apply(action)

    def returns_list(self):
        cdef double* out = <double*>malloc(self.num_players * sizeof(double))
        self.returns(out)
        result = [out[p] for p in range(self.num_players)]
        free(out)
        return result

    def position_hash(self):
        return self.hash()

    def symmetry_count(self):
        return self.num_symmetries()

    def position_hash_under(self, int symmetry):
        if not 0 <= symmetry < self.num_symmetries():
            raise ValueError(f"symmetry must be in 0..{self.num_symmetries() - 1}")
        return self.symmetric_hash(symmetry)

    def clone(self):
        return self.copy()

    def __deepcopy__(self, memo):
        # OpenSpiel clones a Python state with copy.deepcopy of its __dict__;
        # the core is immutable-by-sharing except for its own buffers.
        return self.copy()

    def __copy__(self):
        return self.copy()

    def random_playout(self, unsigned long long seed):
        """Play uniformly at random to the end, in place (the fast kernel)."""
        cdef Rng rng
        rng_seed(&rng, seed)
        self.playout(&rng)

    def describe_action(self, int action):
        return str(action)

    def action_string(self, int player, int action):
        return self.describe_action(action)

    def playout_stats(self):
        """Counters of the game so far, for statistics of random play."""
        return {}


def playout_batch(GameCore root, long games, unsigned long long seed):
    """Play ``games`` uniform random games from ``root`` entirely in C and
    return the first player's total return; the loop that benchmarks measure.

    Game i is seeded with ``seed + i``, so any single game can be replayed
    with ``root.clone().random_playout(seed + i)``.
    """
    cdef Rng rng
    cdef long i
    cdef GameCore state
    cdef double* out = <double*>malloc(root.num_players * sizeof(double))
    cdef double total = 0.0
    for i in range(games):
        rng_seed(&rng, seed + <unsigned long long>i)
        state = root.copy()
        state.playout(&rng)
        state.returns(out)
        total += out[0]
    free(out)
    return total

# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Default behaviour of the game protocol and its Python face.

Subclasses override the ``cdef`` methods; the defaults here either raise (the
abstract ones, reached only through a programming error) or give the generic
implementation (``playout``, ``is_legal``) that a game may replace with a
faster one of its own. The per-player views default to the whole position
for perfect-information cores and raise for a core that declares imperfect
information without overriding them: a missing view must never leak the state.
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
        if action < 0 or self.is_terminal():
            return False
        if self.current_player() == PLAYER_CHANCE:
            # chance outcomes are numbered below max_chance_outcomes, which
            # may exceed num_actions (a card dealt from a deck)
            if action >= self.max_chance_outcomes:
                return False
            buf = <int*>malloc(self.max_chance_outcomes * sizeof(int))
            probs = <double*>malloc(self.max_chance_outcomes * sizeof(double))
            n = self.chance_outcomes(buf, probs)
            free(probs)
        else:
            if action >= self.num_actions:
                return False
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
    # Who sees what. Strings and tensors are Python objects: they serve the
    # OpenSpiel observer, not the search loops; searches over information
    # sets use the 64-bit key.

    cdef int simultaneous_players(self, int* players) noexcept:
        return 0

    cdef int player_legal_actions(self, int player, int* out) noexcept:
        """What ``player`` may choose here: at a sequential node only the
        current player chooses; a simultaneous core overrides this to answer
        for every player still to decide in the round."""
        if player < 0 or player != self.current_player():
            return 0
        return self.legal_actions(out)

    cdef uint64_t information_state_key(self, int player) except? 0:
        return self._whole_state("information_state_key", self.position_hash)

    cdef object player_observation_string(self, int player):
        return self._whole_state("player_observation_string", self.to_string)

    cdef object player_observation_tensor(self, int player):
        return self._whole_state("player_observation_tensor", self.observation)

    cdef object player_information_state_string(self, int player):
        # With perfect information the position decides all that matters for
        # play; OpenSpiel's perfect-recall string (the action history) is
        # supplied by the adapter, which knows the history.
        return self._whole_state("player_information_state_string", self.to_string)

    cdef object player_information_state_tensor(self, int player):
        return self._whole_state("player_information_state_tensor", self._no_tensor)

    def _whole_state(self, str method, view):
        """The default view of every player: the whole position, which only a
        perfect-information core may show."""
        if self.imperfect_information:
            raise NotImplementedError(
                f"{type(self).__name__} declares imperfect information but does not override "
                f"{method}(); refusing to show the whole state to one player")
        return view()

    def _no_tensor(self):
        raise NotImplementedError(
            f"{type(self).__name__} is a perfect-information core: it has no information-state "
            "tensor (use the observation tensor)")

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

    @property
    def perfect_information(self):
        """True unless the core declared hidden information or simultaneous moves."""
        return not (self.imperfect_information or self.simultaneous_moves)

    def _player(self, player):
        """``player`` after checking it names a player of this game."""
        if not isinstance(player, int) or not 0 <= player < self.num_players:
            raise ValueError(f"player must be in 0..{self.num_players - 1}, got {player!r}")
        return player

    # The views one player has: observation (now, no memory of the past),
    # information state (all it knows, with perfect recall) and its key.
    def observation_string(self, player):
        return self.player_observation_string(self._player(player))

    def observation_tensor(self, player):
        return self.player_observation_tensor(self._player(player))

    def information_state_string(self, player):
        return self.player_information_state_string(self._player(player))

    def information_state_tensor(self, player):
        return self.player_information_state_tensor(self._player(player))

    def info_state_key(self, player):
        return self.information_state_key(self._player(player))

    def simultaneous_player_list(self):
        """Players still to decide in the current simultaneous round, the
        current player first; [] outside a round."""
        if self.is_terminal():
            return []
        cdef int* buf = <int*>malloc(max(self.num_players, 1) * sizeof(int))
        cdef int n = self.simultaneous_players(buf)
        result = [buf[i] for i in range(n)]
        free(buf)
        return result

    def player_legal_action_list(self, player):
        """What ``player`` may choose at this node ([] if it does not decide)."""
        self._player(player)
        if self.is_terminal():
            return []
        cdef int* buf = <int*>malloc(self.num_actions * sizeof(int))
        cdef int n = self.player_legal_actions(player, buf)
        result = [buf[i] for i in range(n)]
        free(buf)
        return result

    def apply_joint_action(self, actions):
        """Apply one simultaneous round: ``actions[p]`` for every player ``p``
        still to decide (one entry per player; others are ignored). Every
        choice is checked before any is applied, so a bad joint action
        leaves the state untouched."""
        players = self.simultaneous_player_list()
        if not players:
            raise ValueError("apply_joint_action needs a simultaneous node; "
                             f"player {self.current_player()} moves alone here")
        if len(actions) != self.num_players:
            raise ValueError(f"a joint action has one entry per player ({self.num_players}), "
                             f"got {len(actions)}")
        for p in players:
            legal = self.player_legal_action_list(p)
            if actions[p] not in legal:
                raise ValueError(f"illegal action {actions[p]} for player {p} in a simultaneous "
                                 f"round; legal: {legal}")
        for p in players:
            self.apply(actions[p])

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

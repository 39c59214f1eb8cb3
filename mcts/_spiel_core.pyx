# cython: language_level=3, boundscheck=False, wraparound=False
"""A ``GameCore`` over any OpenSpiel state, so the Cython search also runs on
games that have no Cython core (OpenSpiel's own C++ games, Python games).

It is slow (every protocol call is a Python call into OpenSpiel) and exists
for reach and for cross-checks, e.g. our MCTS-Solver on OpenSpiel's C++ ``y``
against OpenSpiel's minimax. Anything with the methods of a ``pyspiel.State``
(``current_player``, ``legal_actions``, ``chance_outcomes``, ``apply_action``,
``returns``, ``clone``, ``is_terminal``) works, which lets tests describe tiny
chance games as plain Python classes. Errors inside the ``noexcept`` protocol
methods cannot propagate; they are printed by Python and the search goes on,
so wrap only states whose methods do not raise on legal input.
"""
from games.core cimport GameCore, PLAYER_CHANCE, PLAYER_TERMINAL

_TERMINAL = -4      # pyspiel.PlayerId.TERMINAL
_CHANCE = -1        # pyspiel.PlayerId.CHANCE


cdef class SpielCore(GameCore):
    cdef readonly object state

    def __init__(self, state, int num_players, int num_actions, int max_game_length,
                 int max_chance_outcomes):
        self.state = state
        self.num_players = num_players
        self.num_actions = num_actions
        self.max_game_length = max_game_length
        self.max_chance_outcomes = max_chance_outcomes

    @staticmethod
    def from_state(state):
        """Wrap a ``pyspiel.State`` (the wrapper owns a clone)."""
        game = state.get_game()
        return SpielCore(state.clone(), game.num_players(), game.num_distinct_actions(),
                         game.max_game_length(), max(game.max_chance_outcomes(), 1))

    cdef int current_player(self) noexcept:
        cdef int p = int(self.state.current_player())
        if p == _TERMINAL or self.state.is_terminal():
            return PLAYER_TERMINAL
        if p == _CHANCE:
            return PLAYER_CHANCE
        return p

    cdef int legal_actions(self, int* out) noexcept:
        cdef int k = 0
        for a in self.state.legal_actions():
            out[k] = a
            k += 1
        return k

    cdef void apply(self, int action) noexcept:
        self.state.apply_action(action)

    cdef int chance_outcomes(self, int* actions, double* probs) noexcept:
        cdef int k = 0
        for a, p in self.state.chance_outcomes():
            actions[k] = a
            probs[k] = p
            k += 1
        return k

    cdef void returns(self, double* out) noexcept:
        cdef int i = 0
        for r in self.state.returns():
            out[i] = r
            i += 1

    cdef GameCore copy(self):
        return SpielCore(self.state.clone(), self.num_players, self.num_actions,
                         self.max_game_length, self.max_chance_outcomes)

    def to_string(self):
        return str(self.state)

# cython: language_level=3
"""The C-level game protocol every Cython game core implements.

Search code (mcts/, solvers/) holds a ``GameCore`` and calls these ``cdef``
methods directly: one search implementation, any game, no Python object per
move. The OpenSpiel adapter (games/openspiel.py) uses the Python methods that
``GameCore`` builds on top of them.

Conventions, chosen so the same search serves every game:
- Players are 0..num_players-1; ``PLAYER_CHANCE`` marks a chance node (the
  tic-tac-toe engine's random "Chaos" player), ``PLAYER_TERMINAL`` the end.
- A turn may consist of several consecutive actions by one player (a flip
  game's placements and flips, Connect6's two stones): the protocol has no
  notion of turns, only of whose decision comes next.
- Simultaneous phases are played as consecutive hidden decisions (the
  sequential form OpenSpiel's ``convert_to_turn_based`` gives); the core stays
  turn-based.
- Actions are small non-negative ints below ``num_actions``; legal actions come
  out in ascending order, as OpenSpiel requires.
- ``hash`` identifies a position (everything that decides the legal actions and
  the outcome from here on); ``symmetric_hash(s)`` is the hash of the position
  mapped by board symmetry ``s`` (0 is the identity, so ``symmetric_hash(0) ==
  hash()``), which lets solvers key transpositions by the minimum over all
  ``num_symmetries()`` of them.

Who sees what (hidden information and simultaneous moves):
- ``imperfect_information`` and ``simultaneous_moves`` are flags a core sets
  in its constructor (and copies); both start False, so every core that sets
  neither is a sequential perfect-information game with no code of its own.
  A core with simultaneous moves also has imperfect information (the decisions
  of a round are hidden from each other).
- The per-player views (``player_observation_*``, ``player_information_state_*``
  and ``information_state_key``) give what one player knows. For
  perfect-information cores the defaults give the whole position (the Python
  ``to_string()``/``observation()`` and ``hash()``); a core that declares
  imperfect information must override them, otherwise they raise rather than
  leak the whole state. Information states have perfect recall: they determine
  the player's own past observations and actions, so two histories the player
  cannot tell apart give equal strings, tensors and keys.
- A simultaneous round stays consecutive decisions for search: at each node of
  the round ``current_player`` is the next player to decide, and what it
  chooses is invisible to the others until the round resolves.
  ``simultaneous_players`` lists the players still to decide in the current
  round (the current player first; 0 outside a round) and
  ``player_legal_actions`` what each of them may choose, so the OpenSpiel
  adapter can present the round as one joint action.
"""
from libc.stdint cimport uint64_t
from games.rng cimport Rng

cpdef enum:
    # the ids pyspiel.PlayerId uses; a core never returns PLAYER_SIMULTANEOUS
    # (it stays turn-based), the adapter does at the start of a round
    PLAYER_CHANCE = -1
    PLAYER_SIMULTANEOUS = -2
    PLAYER_TERMINAL = -4


cdef class GameCore:
    cdef readonly int num_players
    cdef readonly int num_actions
    cdef readonly int max_game_length
    cdef readonly int max_chance_outcomes
    cdef readonly bint imperfect_information
    cdef readonly bint simultaneous_moves

    cdef int current_player(self) noexcept
    cdef bint is_terminal(self) noexcept
    cdef int legal_actions(self, int* out) noexcept
    cdef bint is_legal(self, int action) noexcept
    cdef void apply(self, int action) noexcept
    cdef int chance_outcomes(self, int* actions, double* probs) noexcept
    cdef void returns(self, double* out) noexcept
    cdef uint64_t hash(self) noexcept
    cdef int num_symmetries(self) noexcept
    cdef uint64_t symmetric_hash(self, int symmetry) noexcept
    cdef GameCore copy(self)
    cdef void playout(self, Rng* rng) noexcept

    # who sees what (not on the playout/search hot path of existing games)
    cdef int simultaneous_players(self, int* players) noexcept
    cdef int player_legal_actions(self, int player, int* out) noexcept
    cdef uint64_t information_state_key(self, int player) except? 0
    cdef object player_observation_string(self, int player)
    cdef object player_observation_tensor(self, int player)
    cdef object player_information_state_string(self, int player)
    cdef object player_information_state_tensor(self, int player)

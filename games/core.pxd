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
"""
from libc.stdint cimport uint64_t
from games.rng cimport Rng

cdef enum:
    PLAYER_CHANCE = -1
    PLAYER_TERMINAL = -4


cdef class GameCore:
    cdef readonly int num_players
    cdef readonly int num_actions
    cdef readonly int max_game_length
    cdef readonly int max_chance_outcomes

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

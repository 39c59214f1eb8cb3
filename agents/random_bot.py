"""The uniform random player, the anchor of every rating.

Why a wrapper around ``pyspiel.make_uniform_random_bot`` rather than the
C++ bot itself: asked for a move in a terminal state, the C++ bot takes the
whole process down instead of raising, and every bot of the catalogue must
answer a finished game with the same ValueError (the same holds for a player
with no legal action, asked out of turn). The moves are still the C++ bot's,
so a seed plays the same games it always did.
"""

from __future__ import annotations

import pyspiel

from games.openspiel import refuse_terminal


class UniformRandomBot(pyspiel.Bot):
    """Picks uniformly among the legal actions, from its own seeded stream."""

    def __init__(self, player: int, seed: int):
        pyspiel.Bot.__init__(self)
        self._player = player
        self._bot = pyspiel.make_uniform_random_bot(player, seed)

    @property
    def player(self) -> int:
        return self._player

    def _check(self, state):
        refuse_terminal(state)
        if not state.legal_actions(self._player):  # the C++ bot would crash on an empty choice
            raise ValueError(
                f"player {self._player} has no legal action in this state "
                f"(the player to move is {state.current_player()})"
            )

    def step(self, state):
        self._check(state)
        return self._bot.step(state)

    def step_with_policy(self, state):
        self._check(state)
        return self._bot.step_with_policy(state)

    def provides_policy(self):
        return True

    def get_policy(self, state):
        self._check(state)
        return self._bot.get_policy(state)

    def restart(self):
        self._bot.restart()

    def restart_at(self, state):
        self._bot.restart_at(state)

    def inform_action(self, state, player_id, action):
        self._bot.inform_action(state, player_id, action)

    def inform_actions(self, state, actions):
        self._bot.inform_actions(state, actions)

    def is_clonable(self):
        return False

    def provides_force_action(self):
        return False

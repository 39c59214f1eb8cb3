"""OpenSpiel bots over MCTS: our Cython UCT and OpenSpiel's C++ MCTS.

Both are ``pyspiel.Bot``s, so ``pyspiel.evaluate_bots`` and the tournament
runner can mix them with any other bot. Tournaments, studies and the README
build them by name through the catalogue of agents (``agents.make_bot``,
which validates every option first); constructing a class here directly is
for code that wants the object itself::

    import pyspiel, games
    from mcts.bots import CoreMCTSBot, OpenSpielMCTSBot
    game = pyspiel.load_game("double_o_y(board_size=6)")
    bots = [CoreMCTSBot(game, 0, seed=1, max_simulations=2000),
            OpenSpielMCTSBot(game, 1, seed=2, max_simulations=2000)]
    pyspiel.evaluate_bots(game.new_initial_state(), bots, 3)

- ``CoreMCTSBot``: our UCT with random playouts and MCTS-Solver. On this
  toolkit's games it searches a clone of ``state.core``; on any other
  OpenSpiel game it drives the OpenSpiel state through an adapter (correct
  but slow).
- ``OpenSpielMCTSBot``: OpenSpiel's C++ ``MCTSBot`` with
  ``RandomRolloutEvaluator(rollouts, seed)``. It calls ``mcts_search``
  because ``MCTSBot.step`` crashes on Python-registered games.

Every bot refuses a terminal state with the same ValueError
(``refuse_terminal``) and every budget that could never run out (NaN,
negative, infinite) when it is built.

Seeds: our bot's searches continue one random stream, so a game replayed
with the same seeds and simulation budgets (no time budget) is replayed move
for move. A bot that is asked for a move with a single legal action answers
without searching.
"""

from __future__ import annotations

import math

import pyspiel

from games.openspiel import refuse_terminal
from mcts.uct import UCTSearch, core_of

__all__ = ["CoreMCTSBot", "OpenSpielMCTSBot", "refuse_terminal"]


def _load(game):
    return pyspiel.load_game(game) if isinstance(game, str) else game


def _is_zero_sum(game) -> bool:
    return game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM


class _SearchBot(pyspiel.Bot):
    """What both MCTS bots share: they search afresh from the state they are
    given, so they keep no history to restart or inform, and their policy is
    the root's visit shares. Subclasses set ``_player`` and implement
    ``step_with_policy``; ``last_search`` holds their latest search."""

    last_search = None

    def _set_player(self, game, player: int) -> None:
        if not 0 <= player < game.num_players():
            raise ValueError(f"player must be in 0..{game.num_players() - 1}, got {player}")
        self._player = player

    @property
    def player(self) -> int:
        return self._player

    def restart(self):
        self.last_search = None

    def restart_at(self, state):
        self.last_search = None

    def inform_action(self, state, player_id, action):
        pass

    def inform_actions(self, state, actions):
        pass

    def provides_policy(self):
        return True

    def get_policy(self, state):
        return self.step_with_policy(state)[0]

    def step(self, state):
        return self.step_with_policy(state)[1]

    def is_clonable(self):
        return False

    def provides_force_action(self):
        return False


class CoreMCTSBot(_SearchBot):
    """Our MCTS (mcts/_uct.pyx) as a ``pyspiel.Bot``.

    The bot keeps no game history: every ``step`` searches afresh from the
    state it is given, so ``inform_action``/``restart_at`` have nothing to do
    and the bot cannot drift out of sync with the game. ``last_search`` holds
    the statistics of the latest search (visits, proven values, timing).
    """

    def __init__(
        self,
        game,
        player: int,
        *,
        seed: int = 0,
        uct_c: float = 1.4,
        max_simulations: int = 1000,
        max_time: float = 0.0,
        solve: bool = True,
        max_nodes: int = 0,
    ):
        pyspiel.Bot.__init__(self)
        game = _load(game)
        self._set_player(game, player)
        self._search = UCTSearch(
            uct_c=uct_c,
            max_simulations=max_simulations,
            max_time=max_time,
            seed=seed,
            solve=solve,
            zero_sum=_is_zero_sum(game),
            max_utility=game.max_utility(),
            max_nodes=max_nodes,
        )
        self.last_search = None

    def step_with_policy(self, state):
        """Policy = visit shares of the root's children; action = final choice."""
        refuse_terminal(state)
        legal = state.legal_actions()
        if len(legal) == 1:  # a forced move (e.g. the only flip): no search needed
            self.last_search = None
            return [(legal[0], 1.0)], legal[0]
        result = self._search.search(core_of(state))
        self.last_search = result
        visits = {a: n for a, n, _, _ in result["children"]}
        total = sum(visits.values()) or 1
        policy = [(a, visits.get(a, 0) / total) for a in legal]
        return policy, result["action"]


class OpenSpielMCTSBot(_SearchBot):
    """OpenSpiel's C++ MCTS behind the same interface, safe on Python games.

    ``pyspiel.MCTSBot.step`` crashes on Python-registered games (docs/DESIGN.md),
    so ``step`` runs ``mcts_search`` and picks the root's best child itself,
    which is what ``MCTSBot.step`` does internally.
    """

    def __init__(
        self,
        game,
        player: int,
        *,
        seed: int = 0,
        uct_c: float = 1.4,
        max_simulations: int = 1000,
        max_time: float = 0.0,
        rollouts: int = 1,
        solve: bool = True,
        max_memory_mb: int = 1000,
    ):
        pyspiel.Bot.__init__(self)
        game = _load(game)
        # OpenSpiel counts simulations in a C int and runs at least its simulation budget
        if not 1 <= max_simulations < 2**31:
            raise ValueError(f"max_simulations must be in 1..{2**31 - 1}, got {max_simulations}")
        if not (math.isfinite(max_time) and max_time >= 0):
            raise ValueError(
                f"max_time must be a finite number of seconds >= 0 (0: no limit), got {max_time}"
            )
        if not 1 <= rollouts < 2**31:
            raise ValueError(f"rollouts must be in 1..{2**31 - 1}, got {rollouts}")
        self._set_player(game, player)
        # keep the evaluator referenced for as long as the C++ bot uses it
        self._evaluator = pyspiel.RandomRolloutEvaluator(rollouts, seed)
        self._bot = pyspiel.MCTSBot(
            game,
            self._evaluator,
            uct_c,
            max_simulations,
            max_memory_mb,
            solve,
            seed,
            False,
            pyspiel.ChildSelectionPolicy.UCT,
            max_time if max_time > 0 else -1.0,
        )
        self.last_search = None

    def step_with_policy(self, state):
        refuse_terminal(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)], legal[0]
        root = self._bot.mcts_search(state)
        self.last_search = root
        visits = {child.action: child.explore_count for child in root.children}
        total = sum(visits.values()) or 1
        policy = [(a, visits.get(a, 0) / total) for a in legal]
        return policy, root.best_child().action

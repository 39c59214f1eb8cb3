"""OpenSpiel bots: our Cython MCTS, OpenSpiel's C++ MCTS, uniform random.

Every bot here is a ``pyspiel.Bot``, so ``pyspiel.evaluate_bots`` and the
tournament runner can mix them freely. Build them through one factory::

    import pyspiel, games
    from mcts.bots import make_bot
    game = pyspiel.load_game("double_o_y(board_size=6)")
    bots = [make_bot("mcts", game, 0, seed=1, max_simulations=2000),
            make_bot("openspiel_mcts", game, 1, seed=2, max_simulations=2000)]
    pyspiel.evaluate_bots(game.new_initial_state(), bots, 3)

Kinds (``BOT_KINDS``) and their options:

- ``"mcts"`` (``CoreMCTSBot``): our UCT with random playouts and MCTS-Solver.
  Options: ``uct_c`` (1.4), ``max_simulations`` (alias ``simulations``;
  1000; 0 = no limit), ``max_time`` (seconds, 0 = no limit; with both
  budgets the first one reached ends the search), ``solve`` (True),
  ``max_nodes`` (0 = no cap). On this toolkit's games it searches a clone of
  ``state.core``; on
  any other OpenSpiel game it drives the OpenSpiel state through an adapter
  (correct but slow).
- ``"openspiel_mcts"`` (``OpenSpielMCTSBot``): OpenSpiel's C++ ``MCTSBot``
  with ``RandomRolloutEvaluator(rollouts, seed)``. Options: ``uct_c`` (1.4),
  ``max_simulations`` (alias ``simulations``; 1000), ``max_time`` (seconds; <= 0 = none),
  ``rollouts`` (1), ``solve`` (True), ``max_memory_mb`` (1000). It calls
  ``mcts_search`` because ``MCTSBot.step`` crashes on Python-registered games.
- ``"random"``: OpenSpiel's uniform random bot (``pyspiel.make_uniform_random_bot``).
- ``"alphabeta"``: the solvers package's iterative-deepening alpha-beta bot
  (``solvers.bots.make_alphabeta_bot``; options ``depth``, ``time_limit``, ...,
  at least one of the first two).

Extension point: ``register_bot_kind(name, factory)`` adds a kind, where
``factory(game, player, seed, **options)`` returns a ``pyspiel.Bot``, and
``make_bot`` then builds it like any other kind (``"alphabeta"`` is such a
factory, importing the solvers package only when used). The tournament runner
(analysis/tournament.py) calls builders as ``builder(game, player, seed,
**options)``: ``make_mcts_bot``, ``make_openspiel_mcts_bot`` and
``make_alphabeta`` have that form, and so does ``make_bot`` when its first
argument is a Game.

Seeds: our bot's searches continue one random stream, so a game replayed
with the same seeds and simulation budgets (no time budget) is replayed move
for move. A bot that is asked for a move with a single legal action answers
without searching.
"""
from __future__ import annotations

from typing import Callable

import pyspiel

from mcts.uct import UCTSearch, core_of

__all__ = ["CoreMCTSBot", "OpenSpielMCTSBot", "make_bot", "make_mcts_bot", "make_openspiel_mcts_bot",
           "make_alphabeta", "register_bot_kind", "BOT_KINDS"]


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

    def __init__(self, game, player: int, *, seed: int = 0, uct_c: float = 1.4,
                 max_simulations: int = 1000, max_time: float = 0.0, solve: bool = True,
                 max_nodes: int = 0):
        pyspiel.Bot.__init__(self)
        game = _load(game)
        self._player = player
        self._search = UCTSearch(uct_c=uct_c, max_simulations=max_simulations,
                                 max_time=max_time, seed=seed, solve=solve,
                                 zero_sum=_is_zero_sum(game),
                                 max_utility=game.max_utility(), max_nodes=max_nodes)
        self.last_search = None

    def step_with_policy(self, state):
        """Policy = visit shares of the root's children; action = final choice."""
        legal = state.legal_actions()
        if len(legal) == 1:          # a forced move (e.g. the only flip): no search needed
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

    def __init__(self, game, player: int, *, seed: int = 0, uct_c: float = 1.4,
                 max_simulations: int = 1000, max_time: float = 0.0, rollouts: int = 1,
                 solve: bool = True, max_memory_mb: int = 1000):
        pyspiel.Bot.__init__(self)
        game = _load(game)
        self._player = player
        # keep the evaluator referenced for as long as the C++ bot uses it
        self._evaluator = pyspiel.RandomRolloutEvaluator(rollouts, seed)
        self._bot = pyspiel.MCTSBot(game, self._evaluator, uct_c, max_simulations,
                                    max_memory_mb, solve, seed, False,
                                    pyspiel.ChildSelectionPolicy.UCT,
                                    max_time if max_time > 0 else -1.0)
        self.last_search = None

    def step_with_policy(self, state):
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)], legal[0]
        root = self._bot.mcts_search(state)
        self.last_search = root
        visits = {child.action: child.explore_count for child in root.children}
        total = sum(visits.values()) or 1
        policy = [(a, visits.get(a, 0) / total) for a in legal]
        return policy, root.best_child().action


def _simulations_alias(options: dict) -> dict:
    """Accept ``simulations`` (the tournament runner's name for OpenSpiel's
    budget) as well as ``max_simulations``."""
    if "simulations" in options:
        if "max_simulations" in options:
            raise ValueError("give simulations or max_simulations, not both")
        options = dict(options)
        options["max_simulations"] = options.pop("simulations")
    return options


def make_mcts_bot(game, player: int, seed: int = 0, **options) -> CoreMCTSBot:
    """Our MCTS bot; the ``builder(game, player, seed, **options)`` form that
    the tournament runner's ``module:function`` kinds call."""
    return CoreMCTSBot(_load(game), player, seed=seed, **_simulations_alias(options))


def make_openspiel_mcts_bot(game, player: int, seed: int = 0, **options) -> OpenSpielMCTSBot:
    return OpenSpielMCTSBot(_load(game), player, seed=seed, **_simulations_alias(options))


_make_mcts = make_mcts_bot
_make_openspiel_mcts = make_openspiel_mcts_bot


def _make_random(game, player, seed, **options):
    if options:
        raise ValueError(f"the random bot takes no options; got {sorted(options)}")
    return pyspiel.make_uniform_random_bot(player, seed)


def make_alphabeta(game, player: int, seed: int = 0, **options) -> pyspiel.Bot:
    """The solvers' alpha-beta bot in the ``builder(game, player, seed,
    **options)`` form (``solvers.bots.make_alphabeta_bot`` takes ``depth``
    third). The solvers package, a sibling layer, is imported only on use."""
    from solvers.bots import make_alphabeta_bot
    return make_alphabeta_bot(_load(game), player, seed=seed, **options)


BOT_KINDS: dict[str, Callable[..., pyspiel.Bot]] = {
    "mcts": _make_mcts,
    "openspiel_mcts": _make_openspiel_mcts,
    "random": _make_random,
    "alphabeta": make_alphabeta,
}


def register_bot_kind(name: str, factory: Callable[..., pyspiel.Bot], *, replace: bool = False):
    """Add a bot kind: ``factory(game, player, seed, **options) -> pyspiel.Bot``."""
    if name in BOT_KINDS and not replace:
        raise ValueError(f"bot kind {name!r} is already registered")
    BOT_KINDS[name] = factory


def make_bot(kind, game=None, player: int | None = None, seed: int = 0, **options) -> pyspiel.Bot:
    """Build a bot of ``kind`` for ``player`` in ``game`` (a Game or a game string).

    Unknown kinds and options raise ``ValueError``/``TypeError`` naming what is
    allowed, so a typo in a tournament configuration fails at once.

    Called with a ``pyspiel.Game`` first, as ``make_bot(game, player, seed,
    **options)`` (how analysis/tournament.py calls ``"mcts.bots:make_bot"``),
    it builds our MCTS bot, like ``make_mcts_bot``.
    """
    if isinstance(kind, pyspiel.Game):
        return make_mcts_bot(kind, game, 0 if player is None else player, **options)
    if game is None or player is None:
        raise TypeError("make_bot(kind, game, player, seed=0, **options) needs a game and a player")
    if kind not in BOT_KINDS:
        raise ValueError(f"unknown bot kind {kind!r}; choose one of: {', '.join(sorted(BOT_KINDS))}")
    game = _load(game)
    if not 0 <= player < game.num_players():
        raise ValueError(f"player must be in 0..{game.num_players() - 1}, got {player}")
    return BOT_KINDS[kind](game, player, seed, **options)

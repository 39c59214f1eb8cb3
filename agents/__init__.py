"""The catalogue of agents: every kind of bot, its options, its spec and one builder.

Above ``mcts/`` and ``solvers/`` (which keep only the bot classes) and below
``analysis/`` and ``experiments/``, so tournaments, studies, a leaderboard and
a web app all name and build bots the same way::

    import agents
    spec = agents.BotSpec.parse("mcts:simulations=300,name=m300")   # validated here
    bot = agents.make_bot(spec, "y_game(board_size=5)", player=0, seed=1)
    agents.describe_kinds()          # every kind with its options, as JSON-able data

- ``spec``: ``BotSpec`` (kind + options + name; parse, JSON, label, fingerprint).
- ``kinds``: ``BotKind``, the registry ``BOT_KINDS``, ``register_bot_kind``,
  ``get_kind`` (also resolves ``"package.module:function"`` kinds).
- ``options``: ``Option``, the schema of one setting.
- ``builtin``: the kinds random, mcts, openspiel_mcts and alphabeta.
- ``build``: ``make_bot(spec, game, player, seed)``.
"""

from agents import builtin  # noqa: F401  (registers the built-in kinds)
from agents.build import MAX_SEED, make_bot
from agents.kinds import (
    BOT_KINDS,
    BotKind,
    describe_kinds,
    get_kind,
    list_kinds,
    register_bot_kind,
    unregister_bot_kind,
)
from agents.options import Option
from agents.spec import BotSpec

__all__ = [
    "BOT_KINDS",
    "BotKind",
    "BotSpec",
    "MAX_SEED",
    "Option",
    "describe_kinds",
    "get_kind",
    "list_kinds",
    "make_bot",
    "register_bot_kind",
    "unregister_bot_kind",
]

"""``make_bot``: the one way to turn a spec into a ``pyspiel.Bot``.

Why one builder: tournaments, studies, the README and (later) a web app all
build bots; with one entry point every bot gets the same validation, the same
seeding and the same error for a bad player or seed.
"""

from __future__ import annotations

import pyspiel

from agents.kinds import get_kind
from agents.spec import BotSpec

#: Seeds are C ints in OpenSpiel's bots; the tournament derives 31-bit seeds.
MAX_SEED = 2**31 - 1


def make_bot(spec: BotSpec | str, game, player: int, seed: int = 0, **options) -> pyspiel.Bot:
    """A bot of ``spec`` (a ``BotSpec`` or a spec string such as
    ``"mcts:simulations=300"``) for ``player`` in ``game`` (a Game or a game
    string), seeded with ``seed`` (0..2**31-1). Keyword ``options`` are added to
    a spec string's (``make_bot("cfr", game, 0, policy="p.json")``), validated
    the same way."""
    if isinstance(spec, str):
        spec = BotSpec.parse(spec, options)
    elif options and isinstance(spec, BotSpec):
        spec = BotSpec(spec.kind, tuple(spec.options) + tuple(options.items()), spec.name)
    elif not isinstance(spec, BotSpec):
        raise ValueError(
            f"a bot is described by a BotSpec or a spec string such as 'mcts:simulations=300', got {spec!r}"
        )
    if isinstance(game, str):
        import games  # noqa: F401  (registers this toolkit's games with OpenSpiel)

        game = pyspiel.load_game(game)
    elif not isinstance(game, pyspiel.Game):
        raise ValueError(f"a bot needs a pyspiel.Game or a game string, got {game!r}")
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < game.num_players():
        raise ValueError(f"player must be in 0..{game.num_players() - 1}, got {player!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be an integer in 0..{MAX_SEED}, got {seed!r}")
    return get_kind(spec.kind).builder(game, player, seed, **spec.settings)

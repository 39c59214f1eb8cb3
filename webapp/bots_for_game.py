"""Which bots can play a game: the home page's seat lists, the leaderboard's
Standard Player list and a game's Start all ask here, so a bot offered for a
game is a bot that can make its moves.

Why by kind and then by building the bot: a kind's search decides what it can
see. This toolkit's UCT (``mcts``), alpha-beta and OpenSpiel's MCTS search the
whole position: with hidden information they would read what their seat cannot
see (``mcts`` and ``alphabeta`` refuse at their first move, OpenSpiel's MCTS
plays while reading it), and in a simultaneous round they would read the
others' plans. Information-set MCTS (``ismcts``) searches worlds consistent
with its seat's information state, so it plays hidden information and
simultaneous rounds; SM-MCTS (``sm_mcts``) plans simultaneous rounds whose
start is common knowledge and refuses cloaked rule sets when it is built; a
CFR policy (``cfr``) plays the game it was solved for and refuses others when
it is built. A kind this module does not know is offered only for sequential
games with perfect information: the kinds allowed are listed in one place,
``analysis.tournament.kind_may_play``, which tournaments follow too. Building
the bot then catches what its kind refuses for this game (SM-MCTS and
cloaking, a CFR policy of another game).
"""

from __future__ import annotations

import json

import pyspiel

import agents
from analysis.tournament import kind_may_play
from games.loading import is_simultaneous


def refusal(spec: agents.BotSpec, game_string: str, game: pyspiel.Game) -> str | None:
    """Why the bot ``spec`` cannot play ``game`` (None if it can)."""
    name = spec.name or spec.kind
    if not kind_may_play(spec.kind, game):
        if is_simultaneous(game):
            return (
                f"{name} ({spec.kind}) may search the whole position, which in a simultaneous round "
                "would read the others' plans; a rule set with simultaneous rounds is played by "
                "people, Random, ISMCTS bots (which search only what their seat knows) and, "
                "without cloaking, SM-MCTS bots (sm_mcts: each seat chooses from its own statistics)"
            )
        return (
            f"{name} ({spec.kind}) may search the whole position, which in {game_string} would "
            "read what its seat cannot see; a game with hidden information is played by "
            "people, Random, ISMCTS bots (information-set MCTS: they search only what "
            "their seat knows) and CFR policies"
        )
    key = (json.dumps(spec.to_json(), sort_keys=True), name, game_string)
    if key not in _BUILT:
        if len(_BUILT) >= _BUILT_SIZE:
            _BUILT.clear()
        _BUILT[key] = _build_refusal(spec, name, game_string, game)
    return _BUILT[key]


#: What building a bot said, by (spec, name, game string): a page lists every
#: bot, and building one may allocate its tables. A saved rule set's game
#: string holds its fingerprint, so changed rules are asked again.
_BUILT: dict[tuple[str, str, str], str | None] = {}
_BUILT_SIZE = 4096


def _build_refusal(spec: agents.BotSpec, name: str, game_string: str, game: pyspiel.Game) -> str | None:
    try:
        agents.make_bot(spec, game, 0, 0)
    except (ValueError, TypeError, KeyError, OSError, RuntimeError, pyspiel.SpielError) as e:
        return f"{name} ({spec.kind}) cannot play {game_string}: {e}"
    return None


def offered(players: list[dict], game_string: str, game: pyspiel.Game) -> list[dict]:
    """``players`` (rows of ``registry.players.list_players``) without the bots
    that cannot play ``game``; people and Random stay."""
    out = []
    for p in players:
        if p["kind"] == "bot" and p["spec"] is not None:
            spec = agents.BotSpec.from_json(p["spec"])
            if refusal(agents.BotSpec(spec.kind, spec.options, name=p["name"]), game_string, game):
                continue
        out.append(p)
    return out

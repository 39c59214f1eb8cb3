"""Games by their strings: loaded once per process, and the form in which a
simultaneous game is played one move at a time.

Why here, beside the OpenSpiel adapter: tournaments (``analysis.tournament``),
the bot catalogue (``agents``: a CFR policy solved on one form of a simultaneous
game plays the other) and the registry all name games by strings and must agree
on what a string plays; the answer needs only OpenSpiel and this package's
registrations (importing any module of ``games`` registers every game).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

import pyspiel

_GAMES: dict[str, pyspiel.Game] = {}


def load_game(game_string: str, imports: Sequence[str] = ()) -> pyspiel.Game:
    """Load (and cache per process) a game; ``imports`` are further modules that
    register games (a worker process starts bare)."""
    for module in imports:
        importlib.import_module(module)
    game = _GAMES.get(game_string)
    if game is None:
        game = _GAMES[game_string] = pyspiel.load_game(game_string)
    return game


def is_simultaneous(game: pyspiel.Game) -> bool:
    return game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS


def playable_game_string(game_string: str, imports: Sequence[str] = ()) -> str:
    """The game string a tournament plays for ``game_string``.

    A sequential game plays as given. A simultaneous game (a ``ttt`` rule set
    with simultaneous rounds, a matrix game) plays in OpenSpiel's turn-based
    form ``turn_based_simultaneous_game(game=...)``: each round's plans are made
    one after another, each hidden from the seats that plan after it until the
    round resolves, and the round resolves as the simultaneous game does. Why
    wrap rather than refuse: every catalogue game must play through a
    tournament as it is named, and the bots, records and seeds all take one
    move at a time. Keys and records name the wrapped string, so the two
    spellings of one game are the same games.
    """
    game = load_game(game_string, imports)
    if is_simultaneous(game):
        return str(load_game(f"turn_based_simultaneous_game(game={game})", imports))
    return game_string

"""The form of a game that CFR walks, and back: a simultaneous game as OpenSpiel's
turn-based form (``turn_based``), and the game inside that form's string
(``inner_game_string``).

Why a module of its own: the tree (``cfr.tree``), the count of its histories made
without building it (``cfr.count``, which ``cfr.tree`` asks first), sampling MCCFR
and the evaluations all walk this same form, so it sits below all of them.
"""

from __future__ import annotations

import pyspiel

__all__ = ["WRAPPER", "inner_game_string", "turn_based"]

#: How OpenSpiel's turn-based form names the game it wraps.
WRAPPER = "turn_based_simultaneous_game(game="


def turn_based(game):
    """The game CFR walks: simultaneous games as OpenSpiel's turn-based form."""
    if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        return pyspiel.convert_to_turn_based(game)
    return game


def inner_game_string(game_string: str) -> str:
    """``X`` of ``turn_based_simultaneous_game(game=X)``."""
    if not (game_string.startswith(WRAPPER) and game_string.endswith(")")):
        raise ValueError(f"not a turn-based wrapper: {game_string}")
    return game_string[len(WRAPPER) : -1]

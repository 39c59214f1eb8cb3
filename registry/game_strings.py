"""A game named by its OpenSpiel game string (``y_game(board_size=5)``,
``connect_four`` ...), as a game: loaded by its string, its seats checked, its
moves replayed.

Why a module of its own: both the game-string games' rows and listings
(``registry.open_games``) and the one record path of every game
(``registry.results.record_game``, which replays a game string's moves with
``replay``) need these, and ``open_games`` records through ``results``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pyspiel

import games  # noqa: F401  (registers y_game, flipway, caeth_y, ... with OpenSpiel)
from registry.errors import RegistryError
from registry.store import Registry


def load(game_string: str) -> pyspiel.Game:
    """The OpenSpiel game of ``game_string``; a RegistryError if it is not a
    loadable game of alternating turns (or is a rule set's ttt(...) string)."""
    if not isinstance(game_string, str) or not game_string or game_string.startswith("ttt("):
        raise RegistryError(
            f"{game_string!r}: a tic-tac-toe rule set is recorded with "
            "record_game, other games by their OpenSpiel game string"
        )
    try:
        game = pyspiel.load_game(game_string)
    except (pyspiel.SpielError, RuntimeError, ValueError) as e:  # ValueError: this toolkit's
        first = str(e).split(". Available games")[
            0
        ]  # games' parameter checks; not OpenSpiel's list of every game
        raise RegistryError(f"{game_string!r} is not a game OpenSpiel can load: {first}") from None
    if game.get_type().dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise RegistryError(
            f"{game_string!r} has simultaneous moves; only games of alternating turns are recorded here"
        )
    return game


def replay(game_string: str, actions: Sequence[int], finished: bool = True) -> list[float]:
    """The returns of playing ``actions`` from the start (chance outcomes
    included); a ``RegistryError`` unless they are legal and end the game (with
    ``finished=False``: leave it unfinished, a resigned game; returns [])."""
    state = load(game_string).new_initial_state()
    for i, action in enumerate(actions):
        if state.is_terminal():
            raise RegistryError(f"move {i}: the game was already over after {i} moves")
        if state.is_chance_node():
            if action not in [a for a, _ in state.chance_outcomes()]:
                raise RegistryError(f"move {i}: {action} is not one of the chance outcomes")
        elif action not in state.legal_actions():
            raise RegistryError(f"move {i}: action {action} is illegal for seat {state.current_player()}")
        state.apply_action(action)
    if state.is_terminal() != finished:
        raise RegistryError(
            f"the moves ({len(actions)}) do not finish the game"
            if finished
            else f"the moves ({len(actions)}) finish the game: nobody can resign it"
        )
    return [float(r) for r in state.returns()] if finished else []


def seat_players(reg: Registry, game_string: str, players: Sequence[str], universe_id: int):
    """The player rows of ``players`` by seat, checked against the game and universe."""
    game = load(game_string)
    if len(players) != game.num_players():
        raise RegistryError(f"{game_string} has {game.num_players()} seats, got {len(players)} players")
    if len(set(players)) != len(players):
        raise RegistryError(f"each seat needs a different player, got {list(players)}")
    rows = [reg.player(name) for name in players]
    for row in rows:
        if row[2] == "chaos":
            raise RegistryError("Chaos cannot take a seat")
        if row[2] == "human" and row[4] != universe_id:
            raise RegistryError(f"human player {row[1]!r} does not live in this universe")
    return rows

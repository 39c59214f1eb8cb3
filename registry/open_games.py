"""Games other than tic-tac-toe rule sets, recorded and rated by their
OpenSpiel game string: ``y_game(board_size=5)``, ``flipway(board_size=5)``,
``caeth_y(board_size=4)``, ``connect_four`` ...

Why a table family of its own instead of rows in ``games``: a stored game of a
rule set is replayed with the rule set's text and belongs to its leaderboard,
Standard Player and benchmarks; these games have none of that, and their
rules are the toolkit's code named by the game string. Why the game string as
the key: ``y_game(board_size=5)`` and ``y_game(board_size=7)`` are different
games with different skills, exactly as OpenSpiel loads them.

As for rule sets (registry/results.py), a game is replayed before it is
stored (illegal, unfinished or mis-scored moves are refused) and the seats'
ratings move in the same transaction. Chance outcomes are part of the moves.
"""
from __future__ import annotations

import json
from typing import Sequence

import pyspiel

import games  # noqa: F401  (registers y_game, flipway, caeth_y, ... with OpenSpiel)
from registry import rating_model
from registry.errors import RegistryError
from registry.store import PUBLIC, Registry, now


def _load(game_string: str) -> pyspiel.Game:
    if not isinstance(game_string, str) or not game_string or game_string.startswith("ttt("):
        raise RegistryError(f"{game_string!r}: a tic-tac-toe rule set is recorded with "
                            "record_game, other games by their OpenSpiel game string")
    try:
        game = pyspiel.load_game(game_string)
    except (pyspiel.SpielError, RuntimeError) as e:
        first = str(e).split(". Available games")[0]      # not OpenSpiel's list of every game
        raise RegistryError(f"{game_string!r} is not a game OpenSpiel can load: {first}") from None
    if game.get_type().dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise RegistryError(f"{game_string!r} has simultaneous moves; only games of "
                            "alternating turns are recorded here")
    return game


def replay(game_string: str, actions: Sequence[int]) -> list[float]:
    """The returns of playing ``actions`` from the start (chance outcomes
    included); a ``RegistryError`` unless they are legal and end the game."""
    state = _load(game_string).new_initial_state()
    for i, action in enumerate(actions):
        if state.is_terminal():
            raise RegistryError(f"move {i}: the game was already over after {i} moves")
        if state.is_chance_node():
            if action not in [a for a, _ in state.chance_outcomes()]:
                raise RegistryError(f"move {i}: {action} is not one of the chance outcomes")
        elif action not in state.legal_actions():
            raise RegistryError(f"move {i}: action {action} is illegal for seat "
                                f"{state.current_player()}")
        state.apply_action(action)
    if not state.is_terminal():
        raise RegistryError(f"the moves ({len(actions)}) do not finish the game")
    return [float(r) for r in state.returns()]


def _game_id(reg: Registry, game_string: str, create: bool) -> int | None:
    row = reg.one("SELECT id FROM open_games WHERE game_string = ?", (game_string,))
    if row is not None:
        return row[0]
    if not create:
        return None
    return reg.db.execute("INSERT INTO open_games (game_string, created) VALUES (?, ?)",
                          (game_string, now())).lastrowid


def _rating(reg: Registry, oid: int, vid: int, pid: int) -> tuple[float, float]:
    row = reg.one("SELECT mu, sigma FROM open_game_ratings WHERE open_game_id = ? AND "
                  "universe_id = ? AND player_id = ? ORDER BY game_id DESC LIMIT 1", (oid, vid, pid))
    return (row[0], row[1]) if row else rating_model.BEGINNER


def record_open_game(reg: Registry, game_string: str, players: Sequence[str],
                     returns: Sequence[float], moves: Sequence[int], universe: str = PUBLIC) -> int:
    """Store a finished game of ``game_string`` (players by seat, their returns,
    every action) and update the seats' ratings; the stored game's id."""
    try:
        results = [float(r) for r in returns]
        actions = [int(a) for a in moves]
    except (TypeError, ValueError):
        raise RegistryError("returns must be numbers and moves integer actions") from None
    game = _load(game_string)
    if len(players) != game.num_players():
        raise RegistryError(f"{game_string} has {game.num_players()} seats, got {len(players)} players")
    if len(set(players)) != len(players):
        raise RegistryError(f"each seat needs a different player, got {list(players)}")
    replayed = replay(game_string, actions)
    if replayed != results:
        raise RegistryError(f"returns {results} are not what the moves give ({replayed})")
    with reg.transaction():
        vid = reg.universe_id(universe)
        rows = [reg.player(name) for name in players]
        for row in rows:
            if row[2] == "chaos":
                raise RegistryError("Chaos cannot take a seat")
            if row[2] == "human" and row[4] != vid:
                raise RegistryError(f"human player {row[1]!r} does not live in this universe")
        oid = _game_id(reg, game_string, create=True)
        stamp = now()
        gid = reg.db.execute(
            "INSERT INTO open_game_records (open_game_id, universe_id, moves, finished) "
            "VALUES (?, ?, ?, ?)", (oid, vid, json.dumps(actions), stamp)).lastrowid
        before = [_rating(reg, oid, vid, row[0]) for row in rows]
        after = rating_model.update(before, results, False, None)
        for seat, (row, result, (mu, sigma)) in enumerate(zip(rows, results, after)):
            reg.db.execute("INSERT INTO open_game_seats (game_id, seat, player_id, result) "
                           "VALUES (?, ?, ?, ?)", (gid, seat, row[0], result))
            reg.db.execute("INSERT INTO open_game_ratings (open_game_id, universe_id, player_id, "
                           "game_id, mu, sigma, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                           (oid, vid, row[0], gid, mu, sigma, stamp))
    return gid


def open_games_of(reg: Registry, game_string: str | None = None,
                  player: str | None = None) -> list[dict]:
    """Stored games, oldest first (optionally of one game string and/or one player)."""
    sql = ("SELECT r.id, o.game_string, v.name, r.moves, r.finished FROM open_game_records r "
           "JOIN open_games o ON o.id = r.open_game_id JOIN universes v ON v.id = r.universe_id "
           "WHERE 1")
    args: list = []
    if game_string is not None:
        sql += " AND o.game_string = ?"
        args.append(game_string)
    if player is not None:
        sql += " AND r.id IN (SELECT game_id FROM open_game_seats WHERE player_id = ?)"
        args.append(reg.player(player)[0])
    out = []
    for gid, gs, vname, moves, finished in reg.query(sql + " ORDER BY r.id", args):
        seats = reg.query("SELECT p.name, s.result FROM open_game_seats s JOIN players p ON "
                          "p.id = s.player_id WHERE s.game_id = ? ORDER BY s.seat", (gid,))
        out.append({"id": gid, "game": gs, "universe": vname, "players": [s[0] for s in seats],
                    "returns": [s[1] for s in seats], "moves": json.loads(moves),
                    "finished": finished})
    return out


def open_ratings(reg: Registry, game_string: str, universe: str = PUBLIC) -> list[dict]:
    """Every player's current rating on ``game_string`` in ``universe``, best
    skill (mu - 3 sigma) first."""
    oid = _game_id(reg, game_string, create=False)
    if oid is None:
        return []
    vid = reg.universe_id(universe)
    rows = reg.query(
        "SELECT p.name, p.kind, r.mu, r.sigma, (SELECT count(*) FROM open_game_ratings c WHERE "
        "c.open_game_id = r.open_game_id AND c.universe_id = r.universe_id AND "
        "c.player_id = r.player_id) FROM open_game_ratings r JOIN players p ON p.id = r.player_id "
        "WHERE r.open_game_id = ? AND r.universe_id = ? AND r.game_id = (SELECT max(game_id) FROM "
        "open_game_ratings m WHERE m.open_game_id = r.open_game_id AND m.universe_id = "
        "r.universe_id AND m.player_id = r.player_id)", (oid, vid))
    out = [{"player": n, "kind": k, "mu": mu, "sigma": sg, "games": c,
            "skill": rating_model.skill(mu, sg)} for n, k, mu, sg, c in rows]
    return sorted(out, key=lambda e: (-e["skill"], e["player"]))


def open_game_strings(reg: Registry) -> list[str]:
    """The game strings that have stored games."""
    return [r[0] for r in reg.query("SELECT game_string FROM open_games ORDER BY game_string")]

"""Games other than tic-tac-toe rule sets, named by their OpenSpiel game
string: ``y_game(board_size=5)``, ``flipway(board_size=5)``,
``caeth_y(board_size=4)``, ``connect_four`` ...

Why the game string as the key: ``y_game(board_size=5)`` and
``y_game(board_size=7)`` are different games with different skills, exactly
as OpenSpiel loads them.

Why they share the rule sets' record path (schema 5; before, migration 3 gave
them a table family and a record function of their own): a game string is a
row of ``rule_sets`` with ``game_string`` set (named by the string, with no
rule-set text), so its games are recorded by ``registry.results.record_game``
(replayed before they are stored, ratings moved in the same transaction) and
shown by the same leaderboard (Top-Burst included), stats and evolution. This
module keeps what differs: loading and replaying the game by its string
(``registry.game_strings``, which ``results`` replays with too), and making its
row on first use. Chance outcomes are part of the moves.
"""

from __future__ import annotations

from collections.abc import Sequence

from registry import rating_model, results
from registry.errors import RegistryError
from registry.game_strings import load, replay, seat_players
from registry.store import PUBLIC, Registry, now

__all__ = [
    "ensure_game",
    "is_game_string_row",
    "load",
    "open_game_strings",
    "open_games_of",
    "open_ratings",
    "record_open_game",
    "replay",
    "seat_players",
]


def is_game_string_row(reg: Registry, name: str) -> bool:
    """Whether the registry's game ``name`` is a game string (not a rule set)."""
    row = reg.one("SELECT game_string FROM rule_sets WHERE name = ?", (name,))
    return row is not None and row[0] is not None


def ensure_game(reg: Registry, game_string: str) -> int:
    """The ``rule_sets`` row of ``game_string``, made on first use (inside the
    caller's transaction); a RegistryError if the string is not a loadable game
    of alternating turns, or if a rule set already has that name."""
    load(game_string)
    row = reg.one("SELECT id, game_string FROM rule_sets WHERE name = ?", (game_string,))
    if row is not None:
        if row[1] is None:
            raise RegistryError(
                f"{game_string!r} is the name of a saved rule set, not of a "
                "game string; record it with record_game"
            )
        return row[0]
    return reg.db.execute(
        "INSERT INTO rule_sets (name, canonical, fingerprint, text, created, game_string) "
        "VALUES (?, ?, '', '', ?, ?)",
        (game_string, "game:" + game_string, now(), game_string),
    ).lastrowid


def record_open_game(
    reg: Registry,
    game_string: str,
    players: Sequence[str],
    returns: Sequence[float],
    moves: Sequence[int],
    universe: str = PUBLIC,
) -> int:
    """Store a finished game of ``game_string`` (players by seat, their returns,
    every action) and update the seats' ratings; the stored game's id. The
    record itself is ``registry.results.record_game``'s, as for a rule set."""
    with reg.transaction():
        ensure_game(reg, game_string)
        return results.record_game(reg, game_string, players, returns, moves, universe=universe)


def open_games_of(reg: Registry, game_string: str | None = None, player: str | None = None) -> list[dict]:
    """Stored games of game strings, oldest first (optionally of one game
    string and/or one player): ``registry.results.games_of`` with the game
    string under ``game``."""
    if game_string is not None and not is_game_string_row(reg, game_string):
        return []
    out = []
    for g in results.games_of(reg, game_string, player):
        if game_string is None and not is_game_string_row(reg, g["rule_set"]):
            continue
        out.append(
            {
                "id": g["id"],
                "game": g["rule_set"],
                "universe": g["universe"],
                "players": g["players"],
                "returns": g["returns"],
                "moves": g["moves"],
                "finished": g["finished"],
            }
        )
    return out


def open_ratings(reg: Registry, game_string: str, universe: str = PUBLIC) -> list[dict]:
    """Every player's current rating on ``game_string`` in ``universe``, best
    skill (mu - 3 sigma) first."""
    if not is_game_string_row(reg, game_string):
        return []
    rid, vid = reg.rule_set_id(game_string), reg.universe_id(universe)
    rows = reg.query(
        "SELECT p.name, p.kind, r.mu, r.sigma, (SELECT count(*) FROM ratings c WHERE "
        "c.rule_set_id = r.rule_set_id AND c.universe_id = r.universe_id AND "
        "c.player_id = r.player_id) FROM ratings r JOIN players p ON p.id = r.player_id "
        "WHERE r.rule_set_id = ? AND r.universe_id = ? AND r.game_id = (SELECT max(game_id) FROM "
        "ratings m WHERE m.rule_set_id = r.rule_set_id AND m.universe_id = r.universe_id AND "
        "m.player_id = r.player_id)",
        (rid, vid),
    )
    out = [
        {"player": n, "kind": k, "mu": mu, "sigma": sg, "games": c, "skill": rating_model.skill(mu, sg)}
        for n, k, mu, sg, c in rows
    ]
    return sorted(out, key=lambda e: (-e["skill"], e["player"]))


def open_game_strings(reg: Registry) -> list[str]:
    """The game strings that have stored games."""
    return [
        r[0]
        for r in reg.query(
            "SELECT s.game_string FROM rule_sets s WHERE s.game_string IS NOT NULL AND EXISTS "
            "(SELECT 1 FROM games g WHERE g.rule_set_id = s.id) ORDER BY s.game_string"
        )
    ]

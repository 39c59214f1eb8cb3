"""Recording finished games and updating ratings in the same transaction.

Why one transaction for both: a game on the leaderboard that moved no rating,
or a rating moved by a game that is not stored, would each be a lie; with
both in one ``BEGIN IMMEDIATE`` the ratings are always exactly the replay of
the stored games in order.
"""

from __future__ import annotations

import collections
import json
import threading
from collections.abc import Sequence

from games.ttt import cache as ttt_cache
from games.ttt import rules as ttt_rules
from registry import rating_model
from registry.errors import RegistryError
from registry.game_strings import replay as replay_game_string
from registry.game_strings import seat_players as seat_game_string_players
from registry.rulesets import parse_rule_set
from registry.store import PUBLIC, Registry, now

PLAYER_CHANCE = -1


def rule_set_of(reg: Registry, name: str) -> ttt_rules.RuleSet:
    """The saved rule set ``name``, parsed once per text in this process
    (games.ttt.cache: keyed by the text, so a changed row is parsed again);
    recording a game parsed it again for every game, under the write lock."""
    text, game_string = reg.one(
        "SELECT text, game_string FROM rule_sets WHERE id = ?", (reg.rule_set_id(name),)
    )
    if game_string is not None:
        raise RegistryError(
            f"{name!r} is a game named by its OpenSpiel game string, not a tic-tac-toe rule set"
        )
    try:
        return ttt_cache.parsed(text, "rule set")
    except ttt_rules.RuleSetError:
        return parse_rule_set(text)  # the registry's own message for the problem


#: Starting positions by rule-set fingerprint (the canonical form's digest):
#: a replay clones one instead of compiling the rules again.
_STARTS: collections.OrderedDict[str, object] = collections.OrderedDict()
_STARTS_SIZE = 64
_STARTS_LOCK = threading.Lock()


def _start(rs: ttt_rules.RuleSet):
    """A fresh starting position of ``rs`` (a clone of a cached one)."""
    from games.ttt import make_core

    key = rs.fingerprint
    with _STARTS_LOCK:
        core = _STARTS.get(key)
        if core is not None:
            _STARTS.move_to_end(key)
            return core.clone()
    core = make_core(rs)
    with _STARTS_LOCK:
        _STARTS[key] = core
        while len(_STARTS) > _STARTS_SIZE:
            _STARTS.popitem(last=False)
    return core.clone()


def seat_players(reg: Registry, rs: ttt_rules.RuleSet, players: Sequence[str], universe_id: int):
    """The player rows of ``players`` by seat, checked against the rule set and universe."""
    if len(players) != rs.num_players:
        chaos = " (Chaos takes its own seat; do not list it)" if rs.chaos else ""
        raise RegistryError(
            f"rule set {rs.name!r} has {rs.num_players} player seats, got {len(players)} players{chaos}"
        )
    if len(set(players)) != len(players):
        raise RegistryError(f"each seat needs a different player, got {list(players)}")
    rows = [reg.player(name) for name in players]
    for row in rows:
        if row[2] == "chaos":
            raise RegistryError("Chaos cannot take a seat: it plays for 'vs Chaos' rule sets only")
        if row[2] == "human" and row[4] != universe_id:
            raise RegistryError(f"human player {row[1]!r} does not live in this universe")
    return rows


def replay(rs: ttt_rules.RuleSet, actions: Sequence[int], finished: bool = True) -> list[float]:
    """The returns of playing ``actions`` (chance outcomes included, as tournaments
    record them) from the start; a ``RegistryError`` unless they are legal and end
    the game (with ``finished=False``: unless they are legal and leave it unfinished,
    a resigned game; the returns are then [])."""
    core = _start(rs)
    for i, action in enumerate(actions):
        if core.terminal():
            raise RegistryError(f"move {i}: the game was already over after {i} moves")
        if core.player() == PLAYER_CHANCE:
            if action not in [a for a, _ in core.chance_outcome_list()]:
                raise RegistryError(f"move {i}: {action} is not one of Chaos's possible moves")
        elif action not in core.legal_action_list():
            raise RegistryError(f"move {i}: action {action} is illegal for seat {core.player()}")
        core.apply_action(action)
    if core.terminal() != finished:
        raise RegistryError(
            f"the moves ({len(actions)}) do not finish the game"
            if finished
            else f"the moves ({len(actions)}) finish the game: nobody can resign it"
        )
    return core.returns_list() if finished else []


def resignation_returns(num_seats: int, seat: int, partners: bool = False) -> list[float]:
    """The returns a game resigned by ``seat`` is recorded with: -1 for that seat
    (and its partner), 1 for every other seat. So the ratings count a
    resignation as a loss of the resigning side to each other seat, the others
    tied among themselves; alone against Chaos (one seat), Chaos wins."""
    losers = {s for team in rating_model.teams_of(num_seats, partners) if seat in team for s in team}
    return [-1.0 if s in losers else 1.0 for s in range(num_seats)]


def current_rating(reg: Registry, rule_set_id: int, universe_id: int, player_id: int):
    row = reg.one(
        "SELECT mu, sigma FROM ratings WHERE rule_set_id = ? AND universe_id = ? AND "
        "player_id = ? ORDER BY game_id DESC LIMIT 1",
        (rule_set_id, universe_id, player_id),
    )
    return (row[0], row[1]) if row else rating_model.BEGINNER


def record_game(
    reg: Registry,
    rule_set: str,
    players: Sequence[str],
    returns: Sequence[float],
    moves: Sequence[int],
    universe: str = PUBLIC,
    benchmark_id: int | None = None,
    task_key: str | None = None,
    timeouts: Sequence[Sequence[int]] = (),
    resigned: int | None = None,
) -> int | None:
    """Store a finished game (players by seat, their returns, every action) and
    update the seats' ratings; the game's id. The moves are replayed: illegal
    or unfinished moves, or returns other than the rules give, are refused. With ``task_key`` (a benchmark
    game's tournament key) a game already stored under that key is not stored
    again and None is returned. ``timeouts`` lists the ``(move index, seat)``
    of every move that was played for a seat whose time ran out (the web
    app's seconds per turn), so the record tells a person's choices from the
    random moves made for them. ``resigned`` is the seat that resigned an
    unfinished game: its moves must leave the game unfinished and its returns
    be ``resignation_returns`` (the record keeps the seat)."""
    try:
        results = [float(r) for r in returns]
        actions = [int(a) for a in moves]
        timed = sorted({(int(i), int(seat)) for i, seat in timeouts})
    except (TypeError, ValueError):
        raise RegistryError(
            "returns must be numbers, moves integer actions and timeouts (move index, seat) pairs of integers"
        ) from None
    bad = [t for t in timed if not (0 <= t[0] < len(actions) and 0 <= t[1] < len(results))]
    if bad:
        raise RegistryError(
            f"timeouts {bad} name no move of this game (moves 0..{len(actions) - 1}, "
            f"seats 0..{len(results) - 1})"
        )
    with reg.transaction():
        if task_key is not None and reg.one("SELECT 1 FROM games WHERE task_key = ?", (task_key,)):
            return None
        rid, vid = reg.rule_set_id(rule_set), reg.universe_id(universe)
        game_string = reg.one("SELECT game_string FROM rule_sets WHERE id = ?", (rid,))[0]
        if game_string is None:  # a tic-tac-toe rule set, replayed by its text
            rs = rule_set_of(reg, rule_set)
            rows = seat_players(reg, rs, players, vid)
            with_chaos, partners = rs.chaos, rs.record["players"] == "partners"
        else:  # a game string (registry/open_games.py)
            rows = seat_game_string_players(reg, game_string, players, vid)
            with_chaos, partners = False, False
        if len(results) != len(rows):
            raise RegistryError(f"{len(rows)} seats need {len(rows)} returns, got {len(results)}")
        finished = resigned is None
        if game_string is None:
            replayed = replay(rs, actions, finished)
        else:
            replayed = replay_game_string(game_string, actions, finished)
        if not finished:
            if not (isinstance(resigned, int) and 0 <= resigned < len(rows)):
                raise RegistryError(f"seat {resigned!r} cannot resign: seats are 0..{len(rows) - 1}")
            replayed = resignation_returns(len(rows), resigned, partners)
        if replayed != results:
            raise RegistryError(f"returns {results} are not what the moves give ({replayed})")
        chaos = rating_model.chaos_result(results) if with_chaos else None
        stamp = now()
        gid = reg.db.execute(
            "INSERT INTO games (rule_set_id, universe_id, moves, chaos_result, finished, "
            "benchmark_id, task_key, timeouts, resigned) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                rid,
                vid,
                json.dumps(actions),
                chaos,
                stamp,
                benchmark_id,
                task_key,
                json.dumps([list(t) for t in timed]) if timed else None,
                resigned,
            ),
        ).lastrowid
        before = [current_rating(reg, rid, vid, row[0]) for row in rows]
        after = rating_model.update(before, results, partners, chaos)
        for seat, (row, result, (mu, sigma)) in enumerate(zip(rows, results, after, strict=True)):
            reg.db.execute(
                "INSERT INTO seats (game_id, seat, player_id, result) VALUES (?, ?, ?, ?)",
                (gid, seat, row[0], result),
            )
            reg.db.execute(
                "INSERT INTO ratings (rule_set_id, universe_id, player_id, game_id, mu, "
                "sigma, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (rid, vid, row[0], gid, mu, sigma, stamp),
            )
    return gid


def games_of(reg: Registry, rule_set: str | None = None, player: str | None = None) -> list[dict]:
    """Stored games, oldest first (optionally of one rule set and/or one player);
    a game named by its game string (registry/open_games.py) has it under
    ``game_string`` (None for a rule set's)."""
    sql = (
        "SELECT g.id, r.name, v.name, g.moves, g.chaos_result, g.finished, g.benchmark_id, "
        "g.task_key, r.game_string, g.timeouts, g.resigned FROM games g "
        "JOIN rule_sets r ON r.id = g.rule_set_id JOIN universes v ON v.id = g.universe_id WHERE 1"
    )
    args: list = []
    if rule_set is not None:
        sql += " AND g.rule_set_id = ?"
        args.append(reg.rule_set_id(rule_set))
    if player is not None:
        sql += " AND g.id IN (SELECT game_id FROM seats WHERE player_id = ?)"
        args.append(reg.player(player)[0])
    out = []
    for gid, rname, vname, moves, chaos, finished, bench, key, game_string, timeouts, resigned in reg.query(
        sql + " ORDER BY g.id", args
    ):
        seats = reg.query(
            "SELECT p.name, s.result FROM seats s JOIN players p ON p.id = s.player_id "
            "WHERE s.game_id = ? ORDER BY s.seat",
            (gid,),
        )
        out.append(
            {
                "id": gid,
                "rule_set": rname,
                "universe": vname,
                "players": [s[0] for s in seats],
                "returns": [s[1] for s in seats],
                "chaos": chaos,
                "moves": json.loads(moves),
                "finished": finished,
                "benchmark": bench,
                "task_key": key,
                "game_string": game_string,
                "timeouts": [tuple(t) for t in json.loads(timeouts or "[]")],
                "resigned": resigned,  # the seat that resigned; None: the rules ended it
            }
        )
    return out

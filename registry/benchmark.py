"""The "Benchmark Selected Bots" button and "Benchmark" tournament condition
of the tic-tac-toe variations specification.

Why through analysis.tournament: it already plays every combination of bots
with rotated seats, seeds each game from its key, runs on joblib or Dask and
resumes from its record store. The registry only names the store after the
benchmark's settings (so rerunning the same benchmark resumes it) and copies
each finished record into the database under its tournament key, which is
UNIQUE there: a game killed between the two writes is copied on the rerun, and
no game is ever stored twice.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from collections.abc import Sequence
from pathlib import Path

from analysis.tournament import make_tasks, run_tasks
from registry import open_games, results
from registry.db import ENV_DB
from registry.errors import RegistryError
from registry.leaderboard import leaderboard
from registry.play import game_string
from registry.players import bot_spec
from registry.rulesets import attach
from registry.store import PUBLIC, RANDOM, Registry, now

GAMES_PER_COMBINATION = 100


def game_of(reg: Registry, name: str) -> tuple[str, int, str]:
    """(the game string a tournament plays, its seats, the fingerprint that names
    its rules) of the registry's game ``name``: a rule set (``ttt(rules=NAME)``,
    seats and fingerprint from its text) or a game string (registry/open_games.py:
    itself, OpenSpiel's seats, no fingerprint since its rules are the toolkit's code).
    Why both: since schema 5 game strings are recorded and ranked like rule sets,
    so "Benchmark selected bots" serves their leaderboards too."""
    row = reg.one("SELECT game_string FROM rule_sets WHERE id = ?", (reg.rule_set_id(name),))
    if row[0] is None:
        rs = results.rule_set_of(reg, name)
        return game_string(name), rs.num_players, rs.fingerprint
    return row[0], open_games.load(row[0]).num_players(), ""


def favoured_by(reg: Registry, rule_set: str, universe: str, player: str) -> str | None:
    """The opponent ``player`` does best against on this board (highest mean
    score in shared games, 1 for finishing ahead, 1/2 level, 0 behind; ties:
    more games, then name), or None if it has shared no game."""
    rid, vid, pid = reg.rule_set_id(rule_set), reg.universe_id(universe), reg.player(player)[0]
    rows = reg.query(
        "SELECT o.name, avg(CASE WHEN me.result > them.result THEN 1.0 WHEN me.result = "
        "them.result THEN 0.5 ELSE 0.0 END), count(*) FROM seats me JOIN seats them ON "
        "them.game_id = me.game_id AND them.player_id != me.player_id JOIN games g ON "
        "g.id = me.game_id JOIN players o ON o.id = them.player_id WHERE me.player_id = ? AND "
        "g.rule_set_id = ? AND g.universe_id = ? GROUP BY o.name",
        (pid, rid, vid),
    )
    if not rows:
        return None
    return sorted(rows, key=lambda r: (-r[1], -r[2], r[0]))[0][0]


def qualifies(reg: Registry, rule_set: str, universe: str, players: Sequence[str]) -> bool:
    """The tic-tac-toe variations specification: the players include the top player, the player it is most
    favoured by, Random and at least one other player."""
    board = [e for e in leaderboard(reg, rule_set, universe) if e.games > 0]
    if not board:
        return False
    top = board[0].player
    fav = favoured_by(reg, rule_set, universe, top)
    chosen = set(players)
    core = {top, fav, RANDOM}
    return fav is not None and core <= chosen and len(chosen - core) >= 1


def benchmark(
    reg: Registry,
    user: str,
    rule_set: str,
    players: Sequence[str],
    games: int = GAMES_PER_COMBINATION,
    seed: int = 0,
    universe: str = PUBLIC,
    backend: str = "joblib",
    n_jobs: int = 1,
    scheduler: str | None = None,
    progress: bool = False,
) -> dict:
    """Play ``games`` games for each combination of the (non-human) ``players``,
    store and rate them; ``{"id", "qualifies", "games", "store"}``. Trainers and
    Admins only. Rerunning the same benchmark resumes it."""
    _, role = reg.user_id(user)
    if role == "creator":
        raise RegistryError(f"only a Trainer or Admin may run a benchmark; {user} is a Creator")
    if not isinstance(games, int) or games < 1:
        raise RegistryError(f"games per combination must be a positive integer, got {games!r}")
    try:
        reg.rule_set_id(rule_set)
    except RegistryError as unknown:  # a game string not yet recorded: its row now
        try:
            open_games.load(rule_set)
        except RegistryError:
            raise unknown from None
        with reg.transaction():
            open_games.ensure_game(reg, rule_set)
    played, seats, fingerprint = game_of(reg, rule_set)
    chosen = sorted(set(players))
    if len(chosen) < max(2, seats):
        raise RegistryError(
            f"a benchmark of {rule_set!r} needs at least {max(2, seats)} different players, got {chosen}"
        )
    specs = [bot_spec(reg, name) for name in chosen]
    flag = qualifies(reg, rule_set, universe, chosen)
    settings = {
        "rule_set": rule_set,
        "fingerprint": fingerprint,
        "universe": universe,
        "players": chosen,
        "games": games,
        "seed": seed,
    }
    digest = hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()[:16]
    stem = re.sub(r"[^\w.-]", "_", rule_set)  # y_game(board_size=5) -> y_game_board_size_5_
    store = reg.path.with_name(reg.path.stem + "-benchmarks") / f"{stem}-{digest}.jsonl"
    store.parent.mkdir(parents=True, exist_ok=True)
    with reg.transaction():
        row = reg.one(
            "SELECT id FROM benchmarks WHERE players = ? AND rule_set_id = ? AND "
            "universe_id = ? AND games_per_combination = ? AND seed = ?",
            (json.dumps(chosen), reg.rule_set_id(rule_set), reg.universe_id(universe), games, seed),
        )
        bid = (
            row[0]
            if row
            else reg.db.execute(
                "INSERT INTO benchmarks (rule_set_id, universe_id, user_id, players, "
                "games_per_combination, seed, qualifies, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    reg.rule_set_id(rule_set),
                    reg.universe_id(universe),
                    reg.user_id(user)[0],
                    json.dumps(chosen),
                    games,
                    seed,
                    int(flag),
                    now(),
                ),
            ).lastrowid
        )
    attach(reg)
    previous = os.environ.get(ENV_DB)
    os.environ[ENV_DB] = str(Path(reg.path).resolve())  # read by registry.worker in workers
    try:
        return _run(
            reg,
            rule_set,
            played,
            universe,
            specs,
            games,
            seed,
            bid,
            flag,
            store,
            backend,
            n_jobs,
            scheduler,
            progress,
        )
    finally:
        if previous is None:
            os.environ.pop(ENV_DB, None)
        else:
            os.environ[ENV_DB] = previous


def _fresh_loky_workers() -> None:
    """joblib's loky reuses its worker processes from one call to the next; those
    started by an earlier benchmark in this process keep that run's
    $FLIPGAMES_REGISTRY_DB (a process's environment is copied when it starts), so
    the next benchmark starts new ones."""
    from joblib.externals.loky import get_reusable_executor

    get_reusable_executor().shutdown(wait=True)


def _cluster_client(scheduler: str, path):
    try:
        from registry.cluster import client_for
    except ImportError:
        raise RegistryError('the dask backend needs: pip install "dask[distributed]"') from None
    return client_for(scheduler, str(Path(path).resolve()))


def _run(
    reg,
    rule_set,
    played,
    universe,
    specs,
    games,
    seed,
    bid,
    flag,
    store,
    backend,
    n_jobs,
    scheduler,
    progress,
) -> dict:
    tasks = make_tasks(played, specs, games, seed, imports=("registry.worker",))

    def copy(record):
        results.record_game(
            reg,
            rule_set,
            record["players"],
            record["returns"],
            record["actions"],
            universe=universe,
            benchmark_id=bid,
            task_key=record["key"],
        )

    if backend == "joblib" and n_jobs != 1:
        _fresh_loky_workers()
    with contextlib.ExitStack() as stack:
        client = None
        if backend == "dask" and scheduler:  # running workers did not inherit $ENV_DB
            try:
                client = stack.enter_context(_cluster_client(scheduler, reg.path))
            except OSError as e:
                raise RegistryError(f"cannot reach the Dask scheduler {scheduler}: {e}") from None
        records = run_tasks(
            tasks,
            store,
            backend=backend,
            n_jobs=n_jobs,
            scheduler=scheduler,
            client=client,
            progress=progress,
            on_record=copy,
        )
    for record in records:  # games stored before an interruption but not yet copied
        copy(record)
    return {"id": bid, "qualifies": flag, "games": len(records), "store": str(store)}

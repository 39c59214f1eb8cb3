"""Benchmark Selected Bots runs started from the web app, kept in the registry's
database (table ``webapp_benchmark_runs``) so that any server process can show
a run's progress page, not only the one whose thread plays it.

Why a table of the web app's own (created if missing, as webapp_accounts): the
registry's ``benchmarks`` row is made by the run itself, inside
registry.benchmark; the page needs the run's id, size and outcome from the
moment the button is pressed. Progress is still the number of the run's games
in the database. A run's thread dies with its server process; its page then
stays unfinished (the registry resumes the run when it is started again with
the same players).
"""

from __future__ import annotations

import json
import secrets
import threading

from registry import benchmark as reg_benchmark
from registry.store import Registry, now

TABLE = (
    "CREATE TABLE IF NOT EXISTS webapp_benchmark_runs (id TEXT PRIMARY KEY, "
    "by_user TEXT NOT NULL, rule_set TEXT NOT NULL, players TEXT NOT NULL, "
    "universe TEXT NOT NULL, games INTEGER NOT NULL, total INTEGER NOT NULL, "
    "finished INTEGER NOT NULL DEFAULT 0, error TEXT, result TEXT, created TEXT NOT NULL)"
)


def ensure(reg: Registry) -> None:
    reg.db.execute(TABLE)


class BenchmarkRun:
    """One run as stored: who started it, its players and size, and its outcome."""

    def __init__(self, row):
        (
            self.id,
            self.by,
            self.rule_set,
            players,
            self.universe,
            self.games,
            self.total,
            finished,
            self.error,
            result,
        ) = row
        self.players = json.loads(players)
        self.finished = bool(finished)
        self.result = json.loads(result) if result else None

    def standings(self, r: Registry) -> list[dict]:
        """The finished run's games per player, best first: games, how many it
        finished ahead of every other seat, level with the best of them, and
        behind, and its score (1 ahead, 1/2 level, 0 behind, as
        ``registry.benchmark`` ranks a favourite), as a percentage of its games.
        [] until the run has a result."""
        if not self.result or self.result.get("id") is None:
            return []
        rows = r.query(
            "SELECT p.name, COUNT(*), SUM(s.result > o.best), SUM(s.result = o.best) FROM seats s "
            "JOIN games g ON g.id = s.game_id JOIN players p ON p.id = s.player_id "
            "JOIN (SELECT a.game_id, a.seat, MAX(b.result) AS best FROM seats a JOIN seats b "
            "ON b.game_id = a.game_id AND b.seat != a.seat GROUP BY a.game_id, a.seat) o "
            "ON o.game_id = s.game_id AND o.seat = s.seat WHERE g.benchmark_id = ? GROUP BY p.name",
            (self.result["id"],),
        )
        out = [
            {
                "player": name,
                "games": n,
                "ahead": ahead,
                "level": level,
                "behind": n - ahead - level,
                "score": 100 * (ahead + level / 2) / n,
            }
            for name, n, ahead, level in rows
        ]
        return sorted(out, key=lambda e: (-e["score"], e["player"]))

    def progress(self, r: Registry) -> int:
        """Games of this run in the database (its registry benchmark: the latest
        with these players on this rule set)."""
        row = r.one(
            "SELECT id FROM benchmarks WHERE players = ? AND rule_set_id = ? ORDER BY id DESC LIMIT 1",
            (json.dumps(sorted(set(self.players))), r.rule_set_id(self.rule_set)),
        )
        if row is None:
            return 0
        return r.one("SELECT count(*) FROM games WHERE benchmark_id = ?", (row[0],))[0]


def load(reg: Registry, jid: str) -> BenchmarkRun | None:
    row = reg.one(
        "SELECT id, by_user, rule_set, players, universe, games, total, finished, error, "
        "result FROM webapp_benchmark_runs WHERE id = ?",
        (jid,),
    )
    return BenchmarkRun(row) if row else None


def start(
    reg: Registry, db: str, by: str, rule_set: str, players: list[str], universe: str, games: int, total: int
) -> str:
    """Store a new run and play it on a thread with its own registry; its id."""
    jid = secrets.token_urlsafe(9)
    with reg.transaction():
        reg.db.execute(
            "INSERT INTO webapp_benchmark_runs (id, by_user, rule_set, players, "
            "universe, games, total, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (jid, by, rule_set, json.dumps(players), universe, games, total, now()),
        )
    threading.Thread(target=_run, args=(db, jid, by, rule_set, players, universe, games), daemon=True).start()
    return jid


def _run(db, jid, by, rule_set, players, universe, games) -> None:
    result = error = None
    with Registry(db, seed=False) as r:
        try:
            result = reg_benchmark.benchmark(r, by, rule_set, players, games, universe=universe)
        except Exception as e:  # noqa: BLE001  (shown on the progress page)
            error = str(e) or type(e).__name__
        with r.transaction():
            r.db.execute(
                "UPDATE webapp_benchmark_runs SET finished = 1, error = ?, result = ? WHERE id = ?",
                (error, json.dumps(result) if result else None, jid),
            )

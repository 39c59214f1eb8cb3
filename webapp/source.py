"""Saved rule sets as ``ttt(rules=NAME)`` for every thread of the server.

Why not ``registry.rulesets.attach``: that source reads through one registry's
connection, which SQLite lets only its own thread use, while the server answers
each request on its own thread. This source opens a short read-only connection
for each lookup instead.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from games.ttt import rules as ttt_rules

_ATTACHED: dict[str, DatabaseSource] = {}


class DatabaseSource(ttt_rules.RuleSetSource):
    def __init__(self, path: Path):
        self.path = Path(path)

    def _query(self, sql, args=()):
        db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=60)
        try:
            return db.execute(sql, args).fetchall()
        finally:
            db.close()

    def names(self) -> list[str]:
        return [
            r[0] for r in self._query("SELECT name FROM rule_sets WHERE game_string IS NULL ORDER BY name")
        ]

    def __contains__(self, name) -> bool:
        return isinstance(name, str) and bool(
            self._query("SELECT 1 FROM rule_sets WHERE name = ? AND game_string IS NULL", (name,))
        )

    def read(self, name: str) -> str | None:
        rows = self._query("SELECT text FROM rule_sets WHERE name = ? AND game_string IS NULL", (name,))
        return rows[0][0] if rows else None

    def origin(self, name: str) -> str:
        return f"{self.path}:{name}"


def attach_database(path: Path) -> DatabaseSource:
    key = str(Path(path).resolve())
    source = _ATTACHED.get(key)
    if source is None:
        source = _ATTACHED[key] = DatabaseSource(Path(key))
    ttt_rules.add_source(source)
    return source

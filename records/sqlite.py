"""Records in an SQLite database: one row per record, its JSON text and its key.

Why keep the record as JSON text rather than columns: studies add fields freely,
and the store's promise (read back exactly what was appended) must not depend on
a schema per study. The key has its own indexed column so a registry can look
records up without reading them all. Each append is its own transaction, the
counterpart of a flushed line.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from records.backend import check_record, damaged

SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL,
    record TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS records_key ON records (key);
"""


class SqliteBackend:
    def __init__(self, path: Path, key: str):
        self.path = Path(path)
        self.key = key
        self._db: sqlite3.Connection | None = None

    def load(self, repair: bool) -> list[dict]:
        if not self.path.exists() or self.path.stat().st_size == 0:
            return []
        try:
            db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
            try:
                rows = db.execute("SELECT seq, record FROM records ORDER BY seq").fetchall()
            finally:
                db.close()
        except sqlite3.DatabaseError as error:
            raise damaged(str(self.path), f"not a record database: {error}") from None
        records = []
        for seq, text in rows:
            where = f"{self.path} row {seq}"
            try:
                entry = json.loads(text)
            except ValueError as error:
                raise damaged(where, f"not valid JSON: {error}") from None
            records.append(check_record(entry, self.key, where))
        return records

    def open_for_append(self) -> None:
        self._db = sqlite3.connect(self.path)
        with self._db:
            self._db.executescript(SCHEMA)

    def append(self, record: dict) -> None:
        with self._db:
            self._db.execute(
                "INSERT INTO records (key, record) VALUES (?, ?)",
                (json.dumps(record[self.key]), json.dumps(record, sort_keys=True)),
            )

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

"""Records as JSON lines: one object per line, appended and flushed one at a time.

Why lines: a run killed mid-write leaves at most one torn last line, and every
tool can read the file. A last line that is a complete record but lacks its
newline (a kill between the two writes, or a hand edit) is kept and given its
newline; a last line that is not JSON is a torn write, cut off and its work
redone. Anything else that is not a record, anywhere, is damage and is refused.
"""

from __future__ import annotations

import json
from pathlib import Path

from records.backend import check_record, damaged

NEWLINE = b"\n"


class JsonLinesBackend:
    def __init__(self, path: Path, key: str):
        self.path = Path(path)
        self.key = key
        self._handle = None

    def load(self, repair: bool) -> list[dict]:
        if not self.path.exists():
            return []
        data = self.path.read_bytes()
        end = data.rfind(NEWLINE) + 1
        records = []
        for number, line in enumerate(data[:end].splitlines(), 1):
            if line.strip():
                records.append(self._parse(line, f"{self.path}:{number}"))
        tail = data[end:]
        if tail.strip():
            where = f"{self.path}:{data.count(NEWLINE, 0, end) + 1}"
            try:
                entry = json.loads(tail)
            except ValueError:
                entry = None  # a torn write: its work is simply redone
            if entry is not None:
                records.append(check_record(entry, self.key, where))
                if repair:
                    with open(self.path, "ab") as handle:
                        handle.write(NEWLINE)
                return records
        if tail and repair:
            with open(self.path, "r+b") as handle:
                handle.truncate(end)
        return records

    def _parse(self, line: bytes, where: str) -> dict:
        try:
            entry = json.loads(line)
        except ValueError as error:
            raise damaged(where, f"not valid JSON: {error}") from None
        return check_record(entry, self.key, where)

    def open_for_append(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._handle = open(self.path, "a", encoding="utf-8")

    def append(self, record: dict) -> None:
        self._handle.write(json.dumps(record, sort_keys=True) + "\n")
        self._handle.flush()

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None

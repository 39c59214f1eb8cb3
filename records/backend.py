"""What a storage backend provides, and what counts as a record.

A backend keeps records in the order they were appended and hands them back as
dicts; the store above it does the locking, the key bookkeeping and the resume
checks, so a new backend (a server database, say) only implements ``Backend``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from records.errors import DamagedStore


class Backend(Protocol):
    path: Path

    def load(self, repair: bool) -> list[dict]:
        """Every record in append order; ``repair`` (only under the write lock) may
        finish or cut off what a killed writer left half-written."""

    def open_for_append(self) -> None:
        """Prepare to append (called once, under the write lock, after ``load``)."""

    def append(self, record: dict) -> None:
        """Store one record durably enough that a kill right after loses nothing."""

    def close(self) -> None: ...


def check_record(entry: Any, key: str, where: str) -> dict:
    """``entry`` if it is a record (a JSON object whose ``key`` is a string or an integer),
    else the "damaged" error naming ``where`` it was found."""
    if not isinstance(entry, dict):
        raise damaged(where, f"a JSON {type(entry).__name__}, not an object")
    if key not in entry:
        raise damaged(where, f"an object without the key field {key!r}")
    value = entry[key]
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise damaged(where, f"its key field {key!r} is {value!r}, not a string or an integer")
    return entry


def damaged(where: str, what: str) -> DamagedStore:
    return DamagedStore(
        f"{where} is not a record ({what}); the store is damaged beyond a torn last "
        f"record: repair or move it, or choose another output"
    )

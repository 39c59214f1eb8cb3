"""The record store: the one way studies and tournaments keep, read back and resume results.

How a run uses it::

    with RecordStore(out, key="key") as store:          # locks ``out`` against a second writer
        done = store.resume({k: settings_of(k) for k in wanted})
        for record in play(k for k in wanted if k not in done):
            store.append(record)                         # durable one record at a time

Why settings live in the records: a key (a game string, bot labels, an index)
says which piece of work a record is, not how it was made. Each record carries
the settings that decide its meaning (a seed, each bot's full options, a rule
set's fingerprint), and ``resume`` refuses a store whose record of a wanted key
was made with other settings, so two experiments are never silently mixed. A
settings field a record lacks (written before the field existed) is not held
against it, so older stores still resume.

Why the latest record of a key wins: a study may redo a piece (a solve that timed
out, retried with more time) by appending a new record; nothing is ever rewritten
in place, so an interruption cannot lose an old result.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Mapping
from pathlib import Path
from typing import Any

from records.backend import Backend, check_record
from records.errors import SettingsMismatch
from records.jsonl import JsonLinesBackend
from records.lock import WriteLock
from records.sqlite import SqliteBackend

#: Suffixes stored in SQLite; every other path holds JSON lines.
SQLITE_SUFFIXES = (".sqlite", ".sqlite3", ".db")
BACKENDS = ("jsonl", "sqlite")


def _backend(path: Path, key: str, backend: str | None) -> Backend:
    if backend is None:
        backend = "sqlite" if path.suffix.lower() in SQLITE_SUFFIXES else "jsonl"
    if backend == "jsonl":
        return JsonLinesBackend(path, key)
    if backend == "sqlite":
        return SqliteBackend(path, key)
    raise ValueError(
        f"record backend must be one of {', '.join(BACKENDS)} (or None: by the file's "
        f"suffix), got {backend!r}"
    )


def read_records(path: str | os.PathLike, key: str = "key", backend: str | None = None) -> list[dict]:
    """Every record in ``path`` in append order, without locking or changing it.

    Safe while another run writes: a half-written last record is left out.
    A missing file holds no records.
    """
    return _backend(Path(path), key, backend).load(repair=False)


def resume_from(
    latest: Mapping[Hashable, dict],
    wanted: Mapping[Hashable, Mapping[str, Any]],
    path: str | os.PathLike,
    reusable: Callable[[dict], bool] | None = None,
) -> dict[Hashable, dict]:
    """``RecordStore.resume`` over ``latest`` (each key's last record, e.g. from
    ``read_records`` of ``path`` without taking its lock): the same checks and
    the same ``SettingsMismatch``, for a reader that must not lock a running store."""
    done = {}
    for key, settings in wanted.items():
        record = latest.get(key)
        if record is None:
            continue
        for field, value in settings.items():
            if field in record and record[field] != value:
                raise SettingsMismatch(
                    f"{path} already holds {key!r} with {field} {record[field]!r}, not {value!r}: "
                    f"it belongs to a run with another {field}; choose another output, or rerun "
                    f"with the settings it was made with",
                    key=key,
                    field=field,
                )
        if reusable is None or reusable(record):
            done[key] = record
    return done


class RecordStore:
    """An open store of records, locked for writing by this process until ``close``.

    ``key`` names the field that identifies a record (``"key"`` for tournaments,
    ``"game"``/``"game_string"`` in studies). Opening repairs what a killed writer
    left (see the backends) and raises ``DamagedStore`` for anything else that is
    not a record, ``StoreLocked`` if another process has it open.
    """

    def __init__(self, path: str | os.PathLike, key: str = "key", backend: str | None = None):
        self.path = Path(path)
        self.key = key
        self._backend = _backend(self.path, key, backend)
        self._lock = WriteLock(self.path)
        try:
            self._records = self._backend.load(repair=True)
            self._backend.open_for_append()
        except BaseException:
            self._backend.close()
            self._lock.release()
            raise
        self._latest = {record[key]: record for record in self._records}

    # ------------------------------------------------------------------ reading

    def records(self) -> list[dict]:
        """Every record in append order (earlier records of a key included)."""
        return list(self._records)

    def latest(self) -> dict[Hashable, dict]:
        """The last record of each key, in the order keys first appeared."""
        return dict(self._latest)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._latest

    def __len__(self) -> int:
        return len(self._records)

    def get(self, key: Hashable) -> dict | None:
        return self._latest.get(key)

    # ------------------------------------------------------------------ resuming

    def resume(
        self, wanted: Mapping[Hashable, Mapping[str, Any]], reusable: Callable[[dict], bool] | None = None
    ) -> dict[Hashable, dict]:
        """The records already made of the ``wanted`` keys, to be skipped by the run.

        ``wanted`` maps each key the run needs to the settings its record must
        carry (field name to value; ``{}`` when the key says it all). A stored
        record with a differing value raises ``SettingsMismatch`` naming the key,
        the field and both values. ``reusable(record)`` may reject a record that
        is valid but should be redone (its new record will supersede it).
        """
        return resume_from(self._latest, wanted, self.path, reusable)

    # ------------------------------------------------------------------ writing

    def append(self, record: Mapping[str, Any]) -> None:
        """Store ``record`` now (a kill right after loses nothing); it becomes its key's latest."""
        if self._lock is None:
            raise ValueError(f"the record store {self.path} is closed")
        record = check_record(dict(record), self.key, "the record to append")
        self._backend.append(record)
        self._records.append(record)
        self._latest[record[self.key]] = record

    def close(self) -> None:
        """Release the file and its lock (also done by the OS if the process dies)."""
        self._backend.close()
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def __enter__(self) -> RecordStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

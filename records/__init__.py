"""One record store for every study and tournament: append, read back, resume,
an exclusive lock against a second writer, and settings that decide what a record
means checked on resume.

This is the bottom layer for results: it imports nothing else of the toolkit, so
``games/`` tests, ``analysis/`` tournaments, ``experiments/`` studies and the
rule-set registry can all keep their records here. A store is a file; its
suffix picks the backend (``.sqlite``/``.db``: SQLite, anything else: JSON lines).
"""

from records.errors import DamagedStore, RecordStoreError, SettingsMismatch, StoreLocked
from records.fingerprint import fingerprint
from records.store import RecordStore, read_records

__all__ = [
    "RecordStore",
    "read_records",
    "fingerprint",
    "RecordStoreError",
    "DamagedStore",
    "StoreLocked",
    "SettingsMismatch",
]

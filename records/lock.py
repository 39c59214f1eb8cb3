"""An exclusive, non-blocking OS lock on the store's own file, held while a run writes.

Why ``fcntl.flock`` on the data file itself: the kernel drops the lock when the
holder exits, however it exits (SIGKILL included), so a killed run never leaves a
stale lock behind, and there is no second file to clean up. ``flock`` locks are
independent of the POSIX record locks SQLite takes, so the same lock serves both
backends. A second writer is refused at once rather than made to wait: two runs
into one output are a mistake, not a queue."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from records.errors import RecordStoreError, StoreLocked


class WriteLock:
    def __init__(self, path: Path):
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise RecordStoreError(
                f"cannot open the record store {path}: {error.strerror}; give a file path that can be written"
            ) from None
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self._fd)
            self._fd = None
            raise StoreLocked(
                f"{path} is being written by another run (it holds the file's lock); "
                f"wait for that run to finish, or choose another output"
            ) from None

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

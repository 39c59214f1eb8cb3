"""One alpha-beta transposition table in shared memory for the worker processes
of a parallel solve on one machine (``solvers/parallel.py``).

Why: with a private table per worker, positions that two units share are
searched twice, and on the flip games that cost two workers 40-43% more nodes
than one serial table (docs/solved/parallel.md, "Speed-up, 1 against 2
workers"); each worker would also zero its own 512 MiB. Here the parent creates one POSIX shared-memory
segment (``multiprocessing.shared_memory``) of ``2**tt_log2`` entries before
the units go out, and every worker maps it by name and hands it to its
``Searcher(shared=...)``; the kernel reads and writes it without locks (each
entry carries a XOR check, so an entry torn by two writers is a miss; see
``solvers/_alphabeta.pyx``).

Who removes it: the parent unlinks the segment when the solve ends
(``SharedTable.close``, in a ``finally``; SIGTERM reaches it through
``solvers.solve``'s handler). If the parent is killed outright (SIGKILL),
``multiprocessing``'s resource tracker, a separate process that the creation
registered the segment with, unlinks it when the parent's end closes its pipe.
Workers attach through the file system (``/dev/shm``, Linux) rather than
``SharedMemory(name=...)``, which in Python < 3.13 would register the segment
with a tracker again and could unlink it when a worker exits while the others
still use it. A worker keeps its mapping (not the name) until its next solve
or until it exits; the memory is freed when the last mapping goes.

Dask workers are not given the shared table: they may run on other machines,
so each keeps a private one.
"""

from __future__ import annotations

import mmap
import os
import secrets
import signal
import threading
from multiprocessing import resource_tracker, shared_memory

from solvers._alphabeta import ENTRY_BYTES

PREFIX = "flipgames_tt_"
SHM_DIR = "/dev/shm"


def available() -> bool:
    """Whether workers can attach by name here (POSIX shared memory under /dev/shm)."""
    return os.path.isdir(SHM_DIR)


def table_bytes(tt_log2: int) -> int:
    """Bytes of a table of ``2**tt_log2`` entries."""
    return (1 << tt_log2) * ENTRY_BYTES


class SharedTable:
    """The parent's handle on one shared table: create, name, remove.

    Use as a context manager, or call ``close()``; closing twice is harmless.
    ``open=False`` makes the handle only, so that a caller can hold it in a
    ``try``/``finally`` before the segment exists, then calls ``open()``."""

    def __init__(self, tt_log2: int, open: bool = True):
        if not 10 <= tt_log2 <= 30:
            raise ValueError(f"tt_log2 must be in 10..30, got {tt_log2}")
        if not available():
            raise OSError(f"a shared table needs POSIX shared memory under {SHM_DIR}")
        self.tt_log2 = tt_log2
        self.size = table_bytes(tt_log2)
        self.name = ""
        self._shm = None
        if open:
            self.open()

    def open(self) -> None:
        """Create the segment. SIGTERM and SIGINT wait until it is both created
        and registered with the resource tracker and held here: a signal
        handled in between (solvers.solve turns SIGTERM into SystemExit) would
        leave a segment that neither this handle nor the tracker knows about."""
        if self._shm is not None:
            return
        # pid in the name: a leftover segment can be traced to the run that made it
        name = f"{PREFIX}{os.getpid()}_{secrets.token_hex(4)}"
        resource_tracker.ensure_running()  # started before, not inside, the window below
        held, previous = [], {}
        if threading.current_thread() is threading.main_thread():
            # Python handlers run in the main thread whichever thread the signal hits,
            # so it is the handlers that wait here, not the signal mask
            for sig in (signal.SIGTERM, signal.SIGINT):
                previous[sig] = signal.signal(sig, lambda signum, frame: held.append(signum))
        try:
            # The kernel zero-fills the pages on first touch, once for all workers.
            self._shm = shared_memory.SharedMemory(name=name, create=True, size=self.size)
            self.name = self._shm.name.lstrip("/")
        finally:
            for sig, handler in previous.items():
                if handler is not None:  # None: a handler not set from Python, left as is
                    signal.signal(sig, handler)
            for sig in held:
                signal.raise_signal(sig)

    def close(self) -> None:
        """Unmap and unlink the segment (workers' mappings stay valid until they drop them)."""
        shm, self._shm = getattr(self, "_shm", None), None
        if shm is None:
            return
        shm.close()
        try:
            shm.unlink()  # also unregisters it from the resource tracker
        except FileNotFoundError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()


def attach(name: str, tt_log2: int) -> mmap.mmap:
    """Map the table ``name`` (made by ``SharedTable`` in another process) read-write."""
    if "/" in name or not name.startswith(PREFIX):
        raise ValueError(f"not a shared table name: {name!r}")
    size = table_bytes(tt_log2)
    path = os.path.join(SHM_DIR, name)
    try:
        fd = os.open(path, os.O_RDWR)
    except FileNotFoundError:
        raise FileNotFoundError(f"the shared table {name} is gone (its solve ended?)") from None
    try:
        actual = os.fstat(fd).st_size
        if actual != size:
            raise ValueError(f"the shared table {name} has {actual} bytes, 2**{tt_log2} entries need {size}")
        return mmap.mmap(fd, size)
    finally:
        os.close(fd)


def leftovers(pid: int | None = None) -> list[str]:
    """Names of shared tables still present (of the process ``pid`` only, if given)."""
    if not available():
        return []
    head = PREFIX if pid is None else f"{PREFIX}{pid}_"
    return sorted(n for n in os.listdir(SHM_DIR) if n.startswith(head))

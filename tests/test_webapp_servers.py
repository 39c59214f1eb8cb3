"""The server as a program (``python -m webapp``, webapp/cli.py): one server
per port, worker processes that end with their parent, the request queue
logged once per change, and the database it serves: readable by its user
only, refused when damaged."""

from __future__ import annotations

import logging
import os
import re
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from registry.errors import RegistryError
from webapp import cli, create_app

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _held_port() -> socket.socket:
    """A port held the way a running server's worker held it before (SO_REUSEPORT)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    return sock


def _server(port: int, db: Path, *more: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen(
        [sys.executable, "-m", "webapp", "--db", str(db), "--port", str(port), *more],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _main(argv: list[str]):
    """``python -m webapp ARGV``'s exit code, run in a thread of this process
    (None if it is still running after a minute: it is serving)."""
    out = []
    runner = threading.Thread(target=lambda: out.append(cli.main(argv)), daemon=True)
    runner.start()
    runner.join(timeout=60)
    return out[0] if out else None


def test_a_busy_port_is_refused_before_anything_starts(tmp_path, capsys):
    holder = _held_port()
    port = holder.getsockname()[1]
    try:
        for mode in (["--workers", "2"], ["--workers", "1"], ["--dev-server"]):  # each a message
            assert _main(["--db", str(tmp_path / "a.sqlite3"), "--port", str(port), *mode]) == 2
            err = capsys.readouterr().err
            assert f"127.0.0.1:{port} is in use by another program" in err and "Traceback" not in err
        assert not (tmp_path / "a.sqlite3").exists()  # refused before the database was touched
    finally:
        holder.close()


@pytest.mark.slow
def test_a_second_server_is_refused_and_workers_end_with_their_parent(tmp_path):
    port = _free_port()
    first = _server(port, tmp_path / "a.sqlite3", "--workers", "2")
    try:
        assert "serving" in first.stdout.readline()
        workers = [int(p) for p in Path(f"/proc/{first.pid}/task/{first.pid}/children").read_text().split()]
        assert len(workers) == 2
        second = _server(port, tmp_path / "b.sqlite3", "--workers", "2")
        _, err = second.communicate(timeout=120)
        assert second.returncode == 2 and "is in use by another program" in err
        assert urllib.request.urlopen(f"http://127.0.0.1:{port}/login", timeout=30).status == 200
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=30)
        for _ in range(300):  # the kernel tells them at once; the watch thread within a second
            if not any(Path(f"/proc/{w}").exists() for w in workers):
                break
            time.sleep(0.1)
        assert not any(Path(f"/proc/{w}").exists() for w in workers)
        with pytest.raises(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/login", timeout=5)
    finally:
        first.kill()


class _Blocked:
    """A request task that waits until it is let go."""

    def __init__(self, gate: threading.Event):
        self.gate = gate

    def service(self):
        self.gate.wait()

    def cancel(self):
        pass


def test_the_request_queue_is_logged_once_per_change_of_state(caplog):
    """waitress logged "Task queue depth is N" for every request that came
    while all threads were busy; the server's dispatcher says it once when
    requests start to wait and once when none waits any more."""
    dispatcher = cli.QueueDispatcher()
    dispatcher.set_thread_count(2)
    try:
        with caplog.at_level(logging.WARNING, logger="waitress.queue"):
            for _ in range(2):  # two busy spells
                gate = threading.Event()
                for _ in range(200):
                    dispatcher.add_task(_Blocked(gate))
                gate.set()
                for _ in range(500):
                    with dispatcher.lock:
                        if not dispatcher.queue and dispatcher.active_count == 0:
                            break
                    time.sleep(0.01)
                dispatcher.add_task(_Blocked(gate))  # a request after the spell
        lines = [r.getMessage() for r in caplog.records if r.name == "waitress.queue"]
        assert len(lines) == 4, lines
        for i in (0, 2):
            assert re.fullmatch(
                r"requests are waiting for a free thread \(\d+ waiting, 2 threads\); "
                r"said again once the queue has drained",
                lines[i],
            ), lines[i]
            assert re.fullmatch(
                r"no request waits for a thread any more \(at most \d+ waited\)", lines[i + 1]
            )
    finally:
        dispatcher.shutdown()


# -- the database it serves
def test_the_database_and_its_files_are_readable_by_the_server_user_only(tmp_path):
    db = tmp_path / "r.sqlite3"
    sqlite3.connect(db).close()
    os.chmod(db, 0o644)  # made by another program, readable by all
    app = create_app(db, secret_key=b"k" * 32, testing=True)
    assert stat.S_IMODE(db.stat().st_mode) == 0o600
    with sqlite3.connect(db) as con:  # SQLite gives its -wal and -shm files the database's mode
        con.execute("PRAGMA journal_mode = WAL")
        con.execute("CREATE TABLE t (x)")
        for path in (Path(f"{db}-wal"), Path(f"{db}-shm")):
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    assert app.config["REGISTRY_DB"] == str(db)


def test_a_damaged_database_is_refused_at_start(tmp_path, capsys):
    db = tmp_path / "r.sqlite3"
    create_app(db, secret_key=b"k" * 32, testing=True)
    with sqlite3.connect(db) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    size = db.stat().st_size
    with open(db, "r+b") as f:  # a page in the middle overwritten
        f.seek((size // 4096 // 2) * 4096)
        f.write(b"\xa5" * 4096)
    with pytest.raises(RegistryError, match="is damaged"):
        create_app(db, secret_key=b"k" * 32, testing=True)
    assert cli.main(["--db", str(db), "--port", str(_free_port()), "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert "is damaged" in err and "restore it from a backup" in err and "Traceback" not in err

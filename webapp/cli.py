"""``python -m webapp`` / ``flipgames-web``: serve the web app on 127.0.0.1.

Why only the loopback address: the app is a researcher's local tool; its
accounts keep people's roles apart, but it is not hardened for a network.

Why waitress, and several processes (``--workers``): waitress is a production
WSGI server with a fixed pool of threads (so the registry pool's connections
are reused), pure Python, no build step. One Python process runs Python on one
core at a time, which is what held 20 busy users above 100 ms (docs/webapp.md,
Load); games in progress are in the registry (webapp/live_store.py), so every
process serves every game. The parent binds the port once (a port another
program holds is refused with a message before anything starts) and the
workers it forks inherit the listening socket and accept on it: whichever is
free takes the next connection, no master process is in the request path, and
no extra dependency is needed (gunicorn would bring its own process manager
and a pin for a gain we do not need). The workers end with the parent, even
when it is killed with SIGKILL.
"""

from __future__ import annotations

import argparse
import errno
import getpass
import multiprocessing
import multiprocessing.connection
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Sequence

from waitress.task import ThreadedTaskDispatcher

from registry.db import default_path
from registry.errors import RegistryError

PASSWORD_ENV = "FLIPGAMES_WEB_PASSWORD"
DEFAULT_WORKERS = max(1, min(4, os.cpu_count() or 1))


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m webapp", description=__doc__.split("\n\n")[0])
    p.add_argument("--db", help=f"registry database (default {default_path()})")
    p.add_argument("--port", type=int, default=8000, help="TCP port on 127.0.0.1 (default 8000)")
    p.add_argument(
        "--add-user",
        metavar="NAME",
        help="create an account instead of serving (password from the terminal "
        f"or ${PASSWORD_ENV}); the first account of a database may be an Admin",
    )
    p.add_argument(
        "--role",
        default="creator",
        choices=("creator", "trainer", "admin"),
        help="role of --add-user (default creator)",
    )
    p.add_argument("--as", dest="by", help="acting Admin for --add-user with a higher role")
    p.add_argument(
        "--threads", type=int, default=8, help="request threads of each server process (default 8)"
    )
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="server processes sharing the port (default: the machine's cores, "
        f"at most 4; here {DEFAULT_WORKERS}; 1 with --dev-server); games in "
        "progress are in the registry, so any process serves any game",
    )
    p.add_argument(
        "--dev-server", action="store_true", help="serve with Flask's development server instead of waitress"
    )
    p.add_argument(
        "--benchmark-games",
        type=int,
        default=100,
        help="games per combination of Benchmark Selected Bots (100, as the tic-tac-toe "
        "variations specification says)",
    )
    return p


def workers_of(args) -> int:
    """The number of server processes: ``--workers``, else 1 for the development
    server and DEFAULT_WORKERS for waitress."""
    if args.workers is not None:
        return args.workers
    return 1 if args.dev_server else DEFAULT_WORKERS


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if not 0 < args.port < 65536:
        print(f"error: --port {args.port} is not a TCP port (1..65535)", file=sys.stderr)
        return 2
    if not 1 <= args.threads <= 64:
        print("error: --threads must be 1..64", file=sys.stderr)
        return 2
    if args.workers is not None and not 1 <= args.workers <= 32:
        print("error: --workers must be 1..32", file=sys.stderr)
        return 2
    if args.workers is not None and args.workers > 1 and args.dev_server:
        print("error: --dev-server is one process; leave out --workers", file=sys.stderr)
        return 2
    args.workers = workers_of(args)
    if args.benchmark_games < 1:
        print("error: --benchmark-games must be positive", file=sys.stderr)
        return 2
    from webapp import accounts
    from webapp.app import create_app, protect_database

    if args.add_user:
        from registry.names import normal_name
        from registry.store import Registry

        password = os.environ.get(PASSWORD_ENV) or getpass.getpass(f"password for {args.add_user}: ")
        try:
            with Registry(args.db) as reg:
                protect_database(reg.path)
                accounts.ensure(reg)
                accounts.create_account(reg, normal_name(args.add_user), password, args.role, by=args.by)
        except RegistryError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        print(f"account {args.add_user} ({args.role}) created")
        return 0
    where = f"http://127.0.0.1:{args.port}/"
    try:  # the port first: a busy one is refused before anything starts
        sock = listening_socket(args.port)
    except OSError as e:
        print(f"error: {port_problem(args.port, e)}", file=sys.stderr)
        return 2
    try:
        app = create_app(args.db, benchmark_games=args.benchmark_games)
    except RegistryError as e:
        sock.close()
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.dev_server:
        from werkzeug.serving import make_server

        print(f"serving {app.config['REGISTRY_DB']} on {where} (Ctrl-C stops)", flush=True)
        make_server("127.0.0.1", args.port, app, threaded=True, fd=sock.fileno()).serve_forever()
        return 0
    if args.workers == 1:
        signal.signal(signal.SIGTERM, lambda *_: (print(cache_line(app), flush=True), os._exit(0)))
        print(f"serving {app.config['REGISTRY_DB']} on {where} (Ctrl-C stops)", flush=True)
        serve(app, sock, args.threads)
        return 0
    return serve_workers(args, sock, app.config["SECRET_KEY"], where)


def listening_socket(port: int) -> socket.socket:
    """The server's socket on 127.0.0.1:``port``, bound by this process alone
    (no SO_REUSEPORT: with it, a second server started on a busy port bound it
    too, and the kernel split the requests between two databases). The worker
    processes inherit it and all accept on it."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # only TIME_WAIT: not a live listener
    try:
        sock.bind(("127.0.0.1", port))
        sock.listen(1024)
    except OSError:
        sock.close()
        raise
    return sock


def port_problem(port: int, e: OSError) -> str:
    if e.errno == errno.EADDRINUSE:
        return (
            f"cannot listen on 127.0.0.1:{port}: 127.0.0.1:{port} is in use by another program "
            "(is a server already running there?); stop it or choose another --port"
        )
    return f"cannot listen on 127.0.0.1:{port}: {e.strerror}"


class QueueDispatcher(ThreadedTaskDispatcher):
    """waitress's pool of request threads, saying once when requests start to
    wait for a thread and once when they no longer do. waitress itself logs
    "Task queue depth is N" for every request that arrives while all threads
    are busy: 11,626 lines in 40 s of a load test, which hid everything else."""

    def __init__(self):
        super().__init__()
        self.backed_up = False
        self.deepest = 0

    def add_task(self, task):
        with self.lock:
            self.queue.append(task)
            self.queue_cv.notify()
            idle = len(self.threads) - self.stop_count - self.active_count
            depth = len(self.queue) - idle
            if depth > 0:
                self.deepest = max(self.deepest, depth)
            if (depth > 0) != self.backed_up:
                self.backed_up = depth > 0
                if self.backed_up:
                    self.queue_logger.warning(
                        "requests are waiting for a free thread (%d waiting, %d threads); "
                        "said again once the queue has drained",
                        depth,
                        len(self.threads),
                    )
                else:
                    self.queue_logger.warning(
                        "no request waits for a thread any more (at most %d waited)", self.deepest
                    )
                    self.deepest = 0


def serve(app, sock: socket.socket, threads: int) -> None:
    """waitress on ``sock`` with ``threads`` request threads (QueueDispatcher)."""
    from waitress import serve as waitress_serve

    dispatcher = QueueDispatcher()
    dispatcher.set_thread_count(threads)
    waitress_serve(
        app, sockets=[sock], threads=threads, ident="flipgames", _quiet=True, _dispatcher=dispatcher
    )


def _die_with(parent: int) -> None:
    """End this worker when ``parent`` (the process that started it) ends, even
    by kill -9: the kernel sends SIGTERM (Linux's PR_SET_PDEATHSIG), and a
    thread checks every second where that is not available."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass

    def watch():
        while os.getppid() == parent:
            time.sleep(1.0)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
    if os.getppid() != parent:  # the parent died before the watch began
        os.kill(os.getpid(), signal.SIGTERM)


def _worker(
    parent: int, sock: socket.socket, db: str, threads: int, secret_key: bytes, benchmark_games: int
) -> None:
    """One server process: its own app (registry pool, game cache) accepting
    on the socket it inherited."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the workers
    from webapp.app import create_app

    app = create_app(db, secret_key=secret_key, benchmark_games=benchmark_games, check=False)
    signal.signal(signal.SIGTERM, lambda *_: (print(cache_line(app), flush=True), os._exit(0)))
    _die_with(parent)
    serve(app, sock, threads)


def cache_line(app) -> str:
    """How this process's game pages found their game (printed when it stops,
    for experiments/bench_webapp.py: the cache's hit rate under several workers)."""
    store = app.extensions["live_games"]
    found = store.hits + store.catch_ups + store.replays
    return (
        f"live-game cache of process {os.getpid()}: {found} lookups, {store.hits} current, "
        f"{store.catch_ups} caught up, {store.replays} replayed in full"
    )


def serve_workers(args, sock: socket.socket, secret_key: bytes, where: str) -> int:
    """Start ``args.workers`` processes accepting on ``sock`` and wait; stop
    them all on Ctrl-C or SIGTERM, or when one of them stops (its exit code is
    returned). They end with this process however it ends (``_die_with``)."""
    from webapp.app import resolved_db

    db = resolved_db(args.db)
    ctx = multiprocessing.get_context("fork")  # no threads in this process yet: fork is safe
    workers = [
        ctx.Process(
            target=_worker,
            daemon=True,
            name=f"flipgames-web-{i}",
            args=(os.getpid(), sock, db, args.threads, secret_key, args.benchmark_games),
        )
        for i in range(args.workers)
    ]
    stopping = []

    def stop(*_):
        stopping.append(True)
        for w in workers:
            if w.is_alive():
                w.terminate()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for w in workers:
        w.start()
    print(
        f"serving {db} on {where} with {args.workers} processes of {args.threads} threads (Ctrl-C stops)",
        flush=True,
    )
    code = 0
    while not stopping:
        done = multiprocessing.connection.wait([w.sentinel for w in workers], timeout=1.0)
        if done:
            ended = [w for w in workers if not w.is_alive()]
            code = next((w.exitcode for w in ended if w.exitcode), 0)
            if not stopping:
                print(
                    f"error: server process {ended[0].name} stopped (exit code "
                    f"{ended[0].exitcode}); stopping the others",
                    file=sys.stderr,
                )
                code = code or 1
            stop()
    for w in workers:
        w.join(timeout=10)
    return code

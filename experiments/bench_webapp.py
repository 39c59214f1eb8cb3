"""Load benchmark of the web app (not a test; docs/webapp.md, Load): simulated users
play Tic-Tac-Toe against Random through HTTP on 127.0.0.1, and every finished
game must be in the registry afterwards.

    nice -n 10 python -m experiments.bench_webapp --users 20 --games 5 [--markdown docs/performance.md]

The server is ``python -m webapp`` in its own process (so the clients do not
share its interpreter), on a fresh database in a temporary directory; the
accounts are made through its pages (sign-up, then the Admin's Users page), so
this study talks to the app only over HTTP. Each user
logs in, then for each game: opens the home page, starts a game, and moves by
posting the first clickable cell until the game is over. Timed:
- page render: one GET of the home or game page;
- move round trip: the POST of a move until the game page it brings back has
  arrived, following a redirect where the server sends one (what a person
  waits for after a click; the bot's answer included).
A first run with one user is the baseline in the same process; the table gives
p50/p95/max and the 20-user p95 over the baseline p95. ``--think S`` makes
each user pause about S seconds before a move, as a person would; with the
default 0 every user clicks again the moment its page arrives (a stress test).
"""

from __future__ import annotations

import argparse
import http.cookiejar
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

from analysis import performance_page as page

PASSWORD = "bench-password"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class User:
    def __init__(self, base: str, name: str):
        self.base, self.name = base, name
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        self.token = ""
        self.requests = 0  # HTTP requests sent (a redirect followed counts as one more)

    def get(self, path: str) -> str:
        self.requests += 1
        with self.opener.open(self.base + path, timeout=60) as r:
            return r.read().decode()

    def post(self, path: str, **data) -> tuple[str, str]:
        data["csrf"] = self.token
        body = urllib.parse.urlencode(data, doseq=True).encode()
        with self.opener.open(self.base + path, body, timeout=60) as r:
            self.requests += 1 + (r.geturl() != self.base + path)
            return r.geturl(), r.read().decode()

    def sign_up(self) -> None:
        """The first account of the fresh database: its Admin."""
        self.token = re.search(r'name="csrf" value="([^"]+)"', self.get("/register")).group(1)
        url, page = self.post("/register", name=self.name, password=PASSWORD, password2=PASSWORD)
        if url.endswith("/register"):
            raise RuntimeError(f"{self.name} could not sign up")
        self.token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)

    def login(self) -> None:
        self.token = re.search(r'name="csrf" value="([^"]+)"', self.get("/login")).group(1)
        url, page = self.post("/login", name=self.name, password=PASSWORD)
        if url.endswith("/login"):
            raise RuntimeError(f"{self.name} could not log in")
        # a login starts a fresh session with a fresh CSRF token
        self.token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def play(user: User, games: int, renders: list, moves: list, finished: list, think: float, rng) -> None:
    user.login()
    for _ in range(games):
        t = time.perf_counter()
        user.get("/?game=Tic-Tac-Toe")
        renders.append(time.perf_counter() - t)
        url, page = user.post(
            "/play/new", game="Tic-Tac-Toe", universe="Public", seat0=user.name, seat1="Random"
        )
        path = urllib.parse.urlparse(url).path
        while "Game over" not in page:
            if think:
                time.sleep(rng.uniform(0.5 * think, 1.5 * think))
            action = re.search(r'data-action="(\d+)"', page).group(1)
            t = time.perf_counter()
            _, page = user.post(path + "/move", action=action)
            moves.append(time.perf_counter() - t)
            t = time.perf_counter()
            page = user.get(path)
            renders.append(time.perf_counter() - t)
        if not re.search(r"recorded as game \d+", page):
            raise RuntimeError(f"{user.name}: a finished game was not recorded")
        finished.append(path)


def run(base: str, names: list[str], games: int, think: float, seed: int) -> dict:
    renders, moves, finished, errors = [], [], [], []

    users = [User(base, name) for name in names]

    def worker(u):
        try:
            play(u, games, renders, moves, finished, think, random.Random(f"{seed}:{u.name}"))
        except Exception as e:  # noqa: BLE001  (reported below, fails the run)
            errors.append(f"{u.name}: {e}")

    threads = [threading.Thread(target=worker, args=(u,)) for u in users]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise SystemExit("errors:\n  " + "\n  ".join(errors[:10]))
    return {
        "renders": renders,
        "moves": moves,
        "games": len(finished),
        "seconds": time.perf_counter() - start,
        "requests": sum(u.requests for u in users),
    }


def server_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by process ``pid`` and its
    children (the server's worker processes), from /proc (Linux): the figure a
    shared machine distorts least. NaN where /proc is not there."""
    tick = os.sysconf("SC_CLK_TCK")
    total, todo = 0.0, [pid]
    try:
        while todo:
            p = todo.pop()
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
            with open(f"/proc/{p}/task/{p}/children") as f:
                todo.extend(int(c) for c in f.read().split())
    except OSError:
        return float("nan")
    return total


def pct(values, q) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))] * 1000


def page_rows(users: int, games: int, think: float, base_run: dict, load: dict, stored: int, command: str):
    """docs/performance.md's row: the load run's p95 against the one-user run's."""
    expected = base_run["games"] + load["games"]
    p95 = {
        run: [pct(r["renders"], 0.95), pct(r["moves"], 0.95)] for run, r in (("one", base_run), ("n", load))
    }
    pace = f", about {think:g} s thinking a move" if think else ", no think time"
    return {
        "bench_webapp": [
            page.Row(
                f"web app, {users} users x {games} games of Tic-Tac-Toe against Random over HTTP{pace}: "
                "p95 page render / move round trip",
                f"{p95['n'][0]:.0f} / {p95['n'][1]:.0f} ms; {stored} of {expected} games stored",
                f"one user, same run: {p95['one'][0]:.0f} / {p95['one'][1]:.0f} ms",
                f"{page.times(p95['n'][0] / p95['one'][0])} / {page.times(p95['n'][1] / p95['one'][1])}",
                command,
            )
        ]
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--users", type=int, default=20, help="concurrent simulated users (1..200)")
    p.add_argument("--games", type=int, default=5, help="games per user (1..100)")
    p.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a user thinks before each move (uniform 0.5x..1.5x; "
        "default 0: every user clicks again as soon as the page is back)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the think times")
    p.add_argument(
        "--threads", type=int, default=8, help="request threads of each server process (default 8)"
    )
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="server processes (default: the server's own default, python -m webapp "
        "--help); 1 serves as before games in progress moved to the registry",
    )
    p.add_argument(
        "--dev-server",
        action="store_true",
        help="serve with Flask's development server (a thread per request) instead "
        "of waitress, for comparison",
    )
    p.add_argument(
        "--markdown", metavar="PAGE", help="also rewrite this benchmark's row of PAGE (docs/performance.md)"
    )
    a = p.parse_args(argv)
    if not 1 <= a.users <= 200 or not 1 <= a.games <= 100 or not 0 <= a.think <= 10:
        p.error("--users must be 1..200, --games 1..100 and --think 0..10")
    if not 1 <= a.threads <= 64:
        p.error("--threads must be 1..64")
    if a.workers is not None and not 1 <= a.workers <= 32:
        p.error("--workers must be 1..32")
    if a.workers is not None and a.workers > 1 and a.dev_server:
        p.error("--dev-server is one process; leave out --workers")
    from registry import Registry, results

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        names = [f"user{i}" for i in range(a.users)] + ["baseline"]
        port = free_port()
        command = (
            [
                sys.executable,
                "-m",
                "webapp",
                "--db",
                str(db),
                "--port",
                str(port),
                "--threads",
                str(a.threads),
            ]
            + (["--dev-server"] if a.dev_server else [])
            + (["--workers", str(a.workers)] if a.workers is not None else [])
        )
        print("server:", " ".join(command[1:]), flush=True)
        print("load average at start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()), flush=True)
        log = open(Path(tmp) / "server.log", "w+")  # noqa: SIM115  (read after the run)
        server = subprocess.Popen(
            command, stdout=log, stderr=subprocess.DEVNULL, cwd=Path(__file__).resolve().parents[1]
        )
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(base + "/login", timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.1)
            else:
                raise SystemExit("the server did not start within 30 s")
            print(f"creating {len(names)} accounts through the Users page ...", flush=True)
            admin = User(base, names[0])
            admin.sign_up()
            for name in names[1:]:
                _, page = admin.post("/users", name=name, password=PASSWORD, role="creator")
                if f"user {name} created" not in page:
                    raise SystemExit(f"could not create the account {name}")
            print("baseline: 1 user ...", flush=True)
            base_run = run(base, ["baseline"], a.games, a.think, a.seed)
            print(f"load: {a.users} concurrent users x {a.games} games, think {a.think} s ...", flush=True)
            cpu = server_cpu(server.pid), time.process_time()
            load = run(base, names[:-1], a.games, a.think, a.seed)
            cpu = server_cpu(server.pid) - cpu[0], time.process_time() - cpu[1]
        finally:
            server.terminate()
            server.wait(timeout=30)
            log.seek(0)
            cache = [line.strip() for line in log if line.startswith("live-game cache")]
            log.close()
        with Registry(db) as reg:
            stored = len(results.games_of(reg, "Tic-Tac-Toe"))
    expected = base_run["games"] + load["games"]
    print(f"\n{'':28}{'p50 ms':>8}{'p95 ms':>8}{'max ms':>8}{'n':>7}")
    for label, r in (("baseline (1 user)", base_run), (f"load ({a.users} users)", load)):
        for what in ("renders", "moves"):
            v = r[what]
            name = "page render" if what == "renders" else "move round trip"
            print(f"{label + ' ' + name:28}{pct(v, 0.5):8.1f}{pct(v, 0.95):8.1f}{pct(v, 1):8.1f}{len(v):7d}")
    for what in ("renders", "moves"):
        print(f"p95 {what} ratio load/baseline: {pct(load[what], 0.95) / pct(base_run[what], 0.95):.2f}x")
    print("load average at end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    for line in cache:  # baseline and load runs together
        print(line)
    print(
        f"CPU per HTTP request of the load run ({load['requests']} requests): server "
        f"{1000 * cpu[0] / load['requests']:.2f} ms, this client {1000 * cpu[1] / load['requests']:.2f} ms"
    )
    print(
        f"games finished {expected}, stored in the registry {stored} "
        f"({'none lost' if stored == expected else 'LOST ' + str(expected - stored)}); "
        f"load run {load['seconds']:.1f} s"
    )
    if a.markdown:
        command = page.command_line("python -m experiments.bench_webapp", argv)
        page.update(a.markdown, page_rows(a.users, a.games, a.think, base_run, load, stored, command))
    return 0 if stored == expected else 1


if __name__ == "__main__":
    sys.exit(main())

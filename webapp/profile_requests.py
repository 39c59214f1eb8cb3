"""Where a web-app request's time goes, without HTTP or other users (a
benchmark, not a test): one user plays Tic-Tac-Toe against Random through
Flask's test client on a fresh database.

    nice -n 10 python -m webapp.profile_requests --games 30 [--profile]

Prints CPU and wall milliseconds per request (CPU is what a loaded, shared
machine distorts least); ``--profile`` adds cProfile's top functions by own
time. Run from a checkout to measure that checkout's code.

Why in webapp/ and not among the experiments: it runs the app inside its own
process through the test client, so that cProfile sees the app's functions, and
so it imports the web app, the layer above experiments;
``experiments/bench_webapp.py`` measures the server from outside, over HTTP.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import re
import sys
import tempfile
import time
from pathlib import Path

from webapp.app import create_app

PASSWORD = "profile-password"


class Client:
    def __init__(self, app):
        self.c = app.test_client()
        self.token = ""

    def refresh(self, page: str) -> None:
        self.token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)

    def post(self, url, **data):
        data.setdefault("csrf", self.token)
        return self.c.post(url, data=data)


def one_game(b: Client, name: str) -> int:
    """Play one game as a person would click it; the number of requests."""
    b.c.get("/?game=Tic-Tac-Toe")
    url = b.post("/play/new", game="Tic-Tac-Toe", universe="Public", seat0=name, seat1="Random").headers[
        "Location"
    ]
    page, requests = b.c.get(url).text, 3
    while "Game over" not in page:
        action = re.search(r'data-action="(\d+)"', page).group(1)
        b.post(url + "/move", action=action)
        page = b.c.get(url).text
        requests += 2
    if not re.search(r"recorded as game \d+", page):
        raise SystemExit("a finished game was not recorded")
    return requests


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m webapp.profile_requests", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--games", type=int, default=30, help="games to time (1..1000, default 30)")
    p.add_argument("--profile", action="store_true", help="print cProfile's top 25 by own time")
    a = p.parse_args(argv)
    if not 1 <= a.games <= 1000:
        p.error("--games must be 1..1000")
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(Path(tmp) / "r.sqlite3", secret_key=b"k" * 32, testing=True)
        b = Client(app)
        b.refresh(b.c.get("/register").text)
        b.post("/register", name="ada", password=PASSWORD, password2=PASSWORD)
        b.refresh(b.c.get("/").text)
        one_game(b, "ada")  # warm: first loads, caches
        profiler = cProfile.Profile() if a.profile else None
        requests, cpu, wall = 0, time.process_time(), time.perf_counter()
        if profiler:
            profiler.enable()
        for i in range(a.games):
            requests += one_game(b, "ada")
            if (i + 1) % 10 == 0:
                print(f"  {i + 1}/{a.games} games", file=sys.stderr, flush=True)
        if profiler:
            profiler.disable()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(
        f"{requests} requests over {a.games} games: CPU {1000 * cpu / requests:.2f} ms/request, "
        f"wall {1000 * wall / requests:.2f} ms/request"
    )
    if profiler:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A signal during a long search (exact or MCTS) is handled now, not after it.

Each kernel search (alpha-beta, df-pn, the Y solver) runs for minutes in C
without returning to the interpreter, so without games/interrupt.pxd Ctrl-C
(or solvers.solve's SIGTERM handler) waited for the whole search. Here a
SIGALRM handler raises ``Interrupted`` 0.2 s into searches that would otherwise
run to their 60 s limit and raise a timeout instead: the test sees
``Interrupted`` only if the search itself ran the handler. The elapsed-time
bound is half that limit, so it tells the two apart on any load."""

from __future__ import annotations

import signal
import time

import pyspiel
import pytest

import games  # noqa: F401  (registers the games)
from solvers.alphabeta import Searcher
from solvers.exhaustive import solve

LIMIT = 60.0
HARD = "double_o_y(board_size=6,flip=opponents,protocol=1,win=turn_start)"  # minutes to solve


class Interrupted(Exception):
    pass


def _interrupted_after(seconds, search):
    """Run ``search()`` with a SIGALRM handler raising Interrupted after
    ``seconds``; returns the elapsed time (Interrupted must have been raised)."""

    def handler(signum, frame):
        raise Interrupted

    previous = signal.signal(signal.SIGALRM, handler)
    start = time.perf_counter()
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        with pytest.raises(Interrupted):
            search()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return time.perf_counter() - start


def test_alpha_beta_value_runs_the_handler_mid_search_and_stays_usable():
    core = pyspiel.load_game(HARD).new_core()
    searcher = Searcher(core, 0, -1.0, 1.0, True, 18)
    assert _interrupted_after(0.2, lambda: searcher.value(core, time_limit=LIMIT)) < LIMIT / 2
    # the interruption is not kept for the next search: a shallow one returns
    value, exact = searcher.value(core, depth=1)
    assert -1.0 <= value <= 1.0 and not exact


def test_alpha_beta_root_moves_runs_the_handler_mid_search():
    core = pyspiel.load_game(HARD).new_core()
    searcher = Searcher(core, 0, -1.0, 1.0, True, 18)
    took = _interrupted_after(0.2, lambda: searcher.root_moves(core, 1000, time_limit=LIMIT))
    assert took < LIMIT / 2


@pytest.mark.parametrize("method", ["alphabeta", "dfpn"])
def test_the_exact_solve_runs_the_handler_mid_search(method):
    took = _interrupted_after(0.2, lambda: solve(HARD, method=method, time_limit=LIMIT, tt_log2=18))
    assert took < LIMIT / 2


def test_the_y_solver_runs_the_handler_mid_search():
    took = _interrupted_after(
        0.2, lambda: solve("y_game(board_size=10)", method="ysolver", time_limit=LIMIT, tt_log2=18)
    )
    assert took < LIMIT / 2


@pytest.mark.parametrize(
    "sig, code, extra",
    [
        (signal.SIGINT, 130, []),  # Ctrl-C on a serial solve
        (
            signal.SIGTERM,
            128 + signal.SIGTERM,
            ["--jobs", "1", "--records", "RECORDS"],
        ),  # kill of a split one
    ],
)
def test_the_cli_stops_mid_search_on_a_signal(tmp_path, sig, code, extra):
    """``python -m solvers.solve`` exits at once with the signal's status;
    before, it went on to its time limit (the search never ran the handler)."""
    import subprocess
    import sys

    extra = [str(tmp_path / "r.jsonl") if a == "RECORDS" else a for a in extra]
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "solvers.solve",
            "--game",
            HARD,
            "--time-limit",
            str(LIMIT),
            "--tt-log2",
            "18",
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # (a background parent may ignore it)
    try:
        first = proc.stderr.readline()  # the first progress line: the search has begun
        assert "opening classes" in first, first
        time.sleep(0.5)
        start = time.perf_counter()
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=LIMIT + 30)
    finally:
        proc.kill()
    assert proc.returncode == code, err
    assert time.perf_counter() - start < LIMIT / 2
    if sig == signal.SIGINT:
        assert err.strip().splitlines()[-1] == "interrupted" and out == ""


def test_an_mcts_search_runs_the_handler_mid_search():
    """The same for the Cython UCT search (mcts/_uct.pyx checks every 256 simulations)."""
    from mcts.uct import UCTSearch

    search = UCTSearch(uct_c=1.4, max_simulations=10**9, max_time=LIMIT, seed=1)
    core = pyspiel.load_game("y_game(board_size=11)").new_core()
    assert _interrupted_after(0.2, lambda: search.search(core)) < LIMIT / 2

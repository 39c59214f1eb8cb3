"""Random-game rates that several benchmarks compare, measured one way.

Both count the measuring thread's CPU time (``time.thread_time``) so that
other processes on a busy machine distort a ratio of two rates less.

Why in analysis/: the benchmarks (experiments.benchmark, experiments.bench_ttt)
share it to time OpenSpiel against our kernels, and one experiment does not
import another.
"""

from __future__ import annotations

import time

import pyspiel
from games.core import playout_batch

import games  # noqa: F401  (registers our games)


def openspiel_rate(game_string: str, seconds: float, seed: int) -> float:
    """Uniform random games/s of an OpenSpiel game run natively
    (``pyspiel.evaluate_bots`` with uniform random bots)."""
    game = pyspiel.load_game(game_string)
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(game.num_players())]
    played, start = 0, time.thread_time()
    while time.thread_time() - start < seconds:
        for _ in range(100):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + played)
            played += 1
    return played / (time.thread_time() - start)


def kernel_rate(game_string: str, seconds: float, seed: int) -> float:
    """Uniform random games/s of one of our games in its Cython kernel
    (``playout_batch``: copy the start position, play to the end, in C)."""
    root = pyspiel.load_game(game_string).new_core()
    batch, played, start = 2000, 0, time.thread_time()
    while time.thread_time() - start < seconds:
        playout_batch(root, batch, seed + played)
        played += batch
    return played / (time.thread_time() - start)

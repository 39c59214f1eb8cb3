"""CFR iterations per second: ours (``cfr.tabular``, C backend) against
OpenSpiel's C++ ``CFRSolver`` on the same game in the same process.

    python -m experiments.bench_cfr [--seconds 1.0] [--rounds 5] [--json]

Rows: ``kuhn_poker`` (OpenSpiel's C++ game), and this toolkit's
``RPS-Shared-Lines`` rule set (a one-round simultaneous ttt game) where
OpenSpiel walks the Python game through ``convert_to_turn_based``, and again on
``convert_to_cached_tree`` of it (OpenSpiel's own remedy for slow games). Both
sides run vanilla CFR with alternating updates (the tests check they compute
the same policies iteration by iteration). Times are the thread's CPU time; the
two alternate within each round and the ratio is the median over rounds.
Issue 14's targets: within 2x of OpenSpiel on kuhn_poker, ahead of it on our games.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import pyspiel

import games  # noqa: F401  (registers ttt)
from analysis.study import positive_float, positive_int
from cfr.tabular import TabularCFR
from cfr.tree import enumerate_tree, turn_based

RPS_LINES = "ttt(rules=games/ttt/examples/RPS-Shared-Lines.json)"


def _rate(step, seconds: float) -> float:
    done, start = 0, time.thread_time()
    while time.thread_time() - start < seconds:
        for _ in range(10):
            step()
        done += 10
    return done / (time.thread_time() - start)


def row(label: str, game_string: str, cached: bool, seconds: float, rounds: int, log) -> dict:
    game = pyspiel.load_game(game_string)
    tree = enumerate_tree(game)
    theirs_game = turn_based(game)
    if cached:
        theirs_game = pyspiel.convert_to_cached_tree(theirs_game)
    ours_solver = TabularCFR(tree, "cfr")
    theirs_solver = pyspiel.CFRSolver(theirs_game)
    ours, theirs = [], []
    for r in range(rounds):
        log(f"{label}: round {r + 1}/{rounds}")
        theirs.append(_rate(theirs_solver.evaluate_and_update_policy, seconds))
        ours.append(_rate(ours_solver.iterate, seconds))
    return {"row": label, "game": game_string, "histories": tree.num_nodes,
            "ours_per_s": statistics.median(ours), "openspiel_per_s": statistics.median(theirs),
            "ratio": statistics.median(o / t for o, t in zip(ours, theirs))}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m experiments.bench_cfr", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=positive_float, default=1.0, help="seconds per measurement")
    p.add_argument("--rounds", type=positive_int, default=5, help="alternating rounds")
    p.add_argument("--json", action="store_true", help="one JSON object instead of a table")
    args = p.parse_args(argv)
    log = (lambda m: print(m, file=sys.stderr, flush=True))
    rows = [row("kuhn_poker", "kuhn_poker", False, args.seconds, args.rounds, log),
            row("RPS-Shared-Lines (Python game)", RPS_LINES, False, args.seconds, args.rounds, log),
            row("RPS-Shared-Lines (cached tree)", RPS_LINES, True, args.seconds, args.rounds, log)]
    if args.json:
        print(json.dumps(rows))
        return 0
    print(f"{'game':34} {'ours it/s':>12} {'OpenSpiel it/s':>15} {'ratio':>7}")
    for r in rows:
        print(f"{r['row']:34} {r['ours_per_s']:12,.0f} {r['openspiel_per_s']:15,.0f} "
              f"{r['ratio']:6.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Random playouts of the tic-tac-toe engine against OpenSpiel's C++, two rows:
Connect Four against ``connect_four``, and a two-phase simultaneous cloaked
rule set against ``goofspiel`` (a simultaneous game of similar length).

    python -m experiments.bench_ttt [--seconds 1.0] [--rounds 5] [--seed 0] [--json]
        [--markdown docs/performance.md]

Ours: ``ttt(rules=Connect4)``'s core, ``clone()`` of the start position then
``random_playout(seed)`` (uniform random play to the end in the Cython
kernel), called from a Python loop. Theirs: OpenSpiel's C++ ``connect_four``
played natively through ``pyspiel.evaluate_bots`` with two
``pyspiel.make_uniform_random_bot`` bots, in the same process. The two
alternate within each round; times are the measuring thread's CPU time
(``time.thread_time``) so a busy shared machine distorts the ratio less; the
reported ratio is the median over rounds. The targets: at least 7x on
Connect Four (``TARGET``: the engine's extensions must not slow the plain
games down) and at least 3x on the simultaneous cloaked rule set
(``SIM_TARGET``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import pyspiel

import games  # noqa: F401  (registers ttt)
from analysis import performance_page as page
from analysis.rates import kernel_rate, openspiel_rate
from analysis.study import non_negative_int, positive_float, positive_int

TARGET = 7.0  # the target: the engine's extensions must keep Connect4 this many times OpenSpiel's rate


def _ours(seconds: float, seed: int) -> float:
    root = pyspiel.load_game("ttt(rules=Connect4)").new_core()
    played, start = 0, time.thread_time()
    while time.thread_time() - start < seconds:
        for i in range(1000):
            root.clone().random_playout(seed + played + i)
        played += 1000
    return played / (time.thread_time() - start)


def _alternate(rounds: int, log, label: str, measure) -> tuple[list, list, float]:
    """Rates of ours and theirs, ``measure(r) -> (ours, theirs)`` once per
    round (theirs measured first, as both rows always did), and the median of
    the per-round ratios: one loop for every row of this benchmark."""
    ours, theirs, ratios = [], [], []
    for r in range(rounds):
        if log:
            log(f"{label}round {r + 1}/{rounds}")
        o, t = measure(r)
        ours.append(o)
        theirs.append(t)
        ratios.append(o / t)
    return ours, theirs, statistics.median(ratios)


def connect4_playouts_vs_openspiel(
    seconds: float = 1.0, rounds: int = 5, seed: int = 0, quick: bool = False, log=None
) -> dict:
    """Median playouts/s of ours and OpenSpiel's C++ ``connect_four``, and
    their ratio (``ratio`` >= TARGET is the target). ``quick`` shortens the run."""
    if quick:
        seconds, rounds = min(seconds, 0.4), min(rounds, 3)
    batch = []

    def measure(r):
        t = openspiel_rate("connect_four", seconds / 2, seed + r)
        o = _ours(seconds / 2, seed + r)
        batch.append(kernel_rate("ttt(rules=Connect4)", seconds / 4, seed + r))
        return o, t

    ours, theirs, ratio = _alternate(rounds, log, "", measure)
    return {
        "game": "ttt(rules=Connect4) vs connect_four",
        "ours_playouts_per_second": statistics.median(ours),
        "ours_in_c_loop_playouts_per_second": statistics.median(batch),
        "openspiel_playouts_per_second": statistics.median(theirs),
        "ratio": ratio,
        "target": TARGET,
        "meets_target": ratio >= TARGET,
        "rounds": rounds,
        "seconds_per_measurement": seconds / 2,
        "seed": seed,
        "method": "ours: core.clone() + core.random_playout(seed) from Python; "
        "theirs: pyspiel.evaluate_bots with two uniform random bots; "
        "thread CPU time, median over alternating rounds",
    }


# The simultaneous row: a two-phase simultaneous cloaked rule set
# of about goofspiel's length (13 rounds: 6 of simultaneous placements with
# the central 3x3 hidden, then simultaneous moves up to a 26-ply limit with
# the two middle rows hidden), so plans are drawn from each player's view and
# attempts on hidden pieces only reveal them (docs/rules/ttt/cloaking.md).
SIM_RULES = "games/ttt/examples/Sim-Cloaked-Place-Then-Move.json"
SIM_BASELINE = "goofspiel"
SIM_TARGET = 3.0


def simultaneous_playouts_vs_goofspiel(
    seconds: float = 1.0, rounds: int = 5, seed: int = 0, quick: bool = False, log=None
) -> dict:
    """Median random games/s of the two-phase simultaneous cloaked rule set in the
    Cython kernel (``playout_batch``: copy, play to the end, in C) and of
    OpenSpiel's C++ ``goofspiel`` (default 13 cards: 13 simultaneous rounds,
    each with a chance card) through ``evaluate_bots`` with uniform random
    bots, alternating in the same process; ``ratio`` >= 3 is the target."""
    if quick:
        seconds, rounds = min(seconds, 0.4), min(rounds, 3)
    game_string = f"ttt(rules={SIM_RULES})"
    core = pyspiel.load_game(game_string).new_core()

    def measure(r):
        t = openspiel_rate(SIM_BASELINE, seconds / 2, seed + r)
        return kernel_rate(game_string, seconds / 2, seed + r), t

    ours, theirs, ratio = _alternate(rounds, log, "simultaneous ", measure)
    return {
        "game": f"{game_string} (2 simultaneous phases, cloaked) vs {SIM_BASELINE}",
        "mean_plies": _mean_plies(core, seed),
        "ours_playouts_per_second": statistics.median(ours),
        "openspiel_playouts_per_second": statistics.median(theirs),
        "ratio": ratio,
        "target": SIM_TARGET,
        "meets_target": ratio >= SIM_TARGET,
        "rounds": rounds,
        "seconds_per_measurement": seconds / 2,
        "seed": seed,
        "method": "ours: playout_batch (copy + random playout in C); theirs: "
        "pyspiel.evaluate_bots with two uniform random bots; thread CPU time, "
        "median over alternating rounds",
    }


def _mean_plies(core, seed: int, playouts: int = 500) -> float:
    total = 0
    for i in range(playouts):
        c = core.clone()
        c.random_playout(seed + i)
        total += c.playout_stats()["plies"]
    return total / playouts


def page_rows(sections: dict, command: str) -> dict:
    """docs/performance.md's rows of the ``connect4`` and ``simultaneous`` results present."""
    blocks = {}
    if "connect4" in sections:
        r = sections["connect4"]
        blocks["bench_ttt.connect4"] = [
            page.Row(
                "random playouts, `ttt(rules=Connect4)` (`clone()` + `random_playout` from Python)",
                page.per_second(r["ours_playouts_per_second"]),
                "C++ `connect_four`, `evaluate_bots` with random bots: "
                + page.per_second(r["openspiel_playouts_per_second"]),
                page.times(r["ratio"]),
                command,
            )
        ]
    if "simultaneous" in sections:
        r = sections["simultaneous"]
        blocks["bench_ttt.simultaneous"] = [
            page.Row(
                f"random playouts, `ttt(rules={SIM_RULES})` (two simultaneous phases, cloaked)",
                page.per_second(r["ours_playouts_per_second"]),
                f"C++ `{SIM_BASELINE}` (13 rounds), `evaluate_bots` with random bots: "
                + page.per_second(r["openspiel_playouts_per_second"]),
                page.times(r["ratio"]),
                command,
            )
        ]
    return blocks


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m experiments.bench_ttt",
        description="Random playouts/s of the tic-tac-toe engine vs OpenSpiel's C++, in one "
        "process: Connect4 vs connect_four, and a two-phase simultaneous rule set "
        "(cloaked) vs goofspiel.",
    )
    parser.add_argument(
        "--seconds",
        type=positive_float,
        default=1.0,
        help="time per round, split between the two (default: %(default)s)",
    )
    parser.add_argument(
        "--rounds",
        type=positive_int,
        default=5,
        help="alternating rounds; the ratio is their median (default: %(default)s)",
    )
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seed of the random games")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--markdown", metavar="PAGE", help="also rewrite this benchmark's rows of PAGE (docs/performance.md)"
    )
    args = parser.parse_args(argv)
    log = lambda msg: print(f"[bench_ttt] {msg}", file=sys.stderr)
    result = connect4_playouts_vs_openspiel(args.seconds, args.rounds, args.seed, log=log)
    sim = simultaneous_playouts_vs_goofspiel(args.seconds, args.rounds, args.seed, log=log)
    if args.markdown:
        command = page.command_line("python -m experiments.bench_ttt", argv)
        page.update(args.markdown, page_rows({"connect4": result, "simultaneous": sim}, command))
    if args.json:
        print(json.dumps({"connect4": result, "simultaneous": sim}, indent=1))
        return
    print(f"ours (clone + random_playout): {result['ours_playouts_per_second']:12,.0f} playouts/s")
    print(f"ours (C loop, playout_batch):  {result['ours_in_c_loop_playouts_per_second']:12,.0f} playouts/s")
    print(f"OpenSpiel C++ connect_four:    {result['openspiel_playouts_per_second']:12,.0f} playouts/s")
    print(
        f"ratio {result['ratio']:.1f}x (target >= {TARGET:.0f}x: "
        f"{'ok' if result['meets_target'] else 'MISSED'})"
    )
    print(f"\n{sim['game']}, {sim['mean_plies']:.1f} plies a game:")
    print(f"ours (C loop, playout_batch):  {sim['ours_playouts_per_second']:12,.0f} playouts/s")
    print(f"OpenSpiel C++ goofspiel:       {sim['openspiel_playouts_per_second']:12,.0f} playouts/s")
    print(
        f"ratio {sim['ratio']:.1f}x (target >= {SIM_TARGET:.0f}x: "
        f"{'ok' if sim['meets_target'] else 'MISSED'})"
    )


if __name__ == "__main__":
    main()

"""CFR iterations per second: ours (``cfr.tabular``, C backend) against
OpenSpiel's C++ ``CFRSolver`` on the same game in the same process; and every
two-player dilemma's time to exploitability below 1e-3.

    python -m experiments.bench_cfr [--seconds 1.0] [--rounds 5] [--limit 60] [--json]
        [--markdown docs/performance.md]

With ``--json``, also ``python -m experiments.benchmark``'s ``cfr`` section.

First table, rows: ``kuhn_poker`` (OpenSpiel's C++ game), and this toolkit's
``RockPaperScissors`` (the catalogue's rule set, two simultaneous rounds) and
``RPS-Shared-Lines`` (a one-round example) where OpenSpiel walks the Python game
through ``convert_to_turn_based``, and again on ``convert_to_cached_tree`` of it
(OpenSpiel's own remedy for slow games). Both sides run vanilla CFR with
alternating updates (the tests check they compute the same policies iteration by
iteration). Times are the thread's CPU time; the two alternate within each round
and the ratio is the median over rounds. The targets: within 2x of
OpenSpiel on kuhn_poker (its C++ game), ahead of it on our games (where
OpenSpiel walks our Python game).

The second table is the other target: exploitability below 1e-3 on
every two-player dilemma within 60 s. For each two-player game of
``experiments.economic_dilemmas --full`` (its references and every available
dilemma), CFR+ (ours) runs until the average policy's exploitability (NashConv
for general-sum games, where exploitability is not defined) is below the
target or the time is up; the time is solver time at the first checkpoint
(iterations 1, 2, 5, 10, ...) below it, so it overstates the time needed. A game
whose tree is too large to list (``cfr.tree.TreeTooLarge``: 3Blotto13,
Centipede9, NeedyCentipede4) runs CFR+ over its DAG of merged histories
(``cfr.dag``: positions for perfect-information games, positions and
observations for blind ones), whose best responses are exact, with DCFR instead
of CFR+ (``cfr.dag.ALGORITHM``: half CFR+'s iterations to 1e-3 on NeedyCentipede4) and
checkpoints every 25 iterations after 50; its time includes the DAG's walk. Only
where the DAG would change the game (``cfr.dag.NotExact``) does it fall back to
outcome-sampling MCCFR (``cfr.mccfr``, seed 0) for the time limit, whose NashConv
cannot be evaluated: that row says so with the tree's size and the information
states the samples visited, and counts as not met.
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
from analysis.dilemma_games import full_entries
from analysis.study import positive_float, positive_int
from cfr.dag import ALGORITHM as DAG_ALGORITHM  # the DAG rows' CFR variant (DCFR; why: there)
from cfr.game_form import turn_based
from cfr.tabular import TabularCFR
from cfr.tree import enumerate_tree

RPS_LINES = "ttt(rules=games/ttt/examples/RPS-Shared-Lines.json)"
RPS = "ttt(rules=RockPaperScissors)"
# (label, game string, OpenSpiel on convert_to_cached_tree)
SPEED_ROWS = [
    ("kuhn_poker", "kuhn_poker", False),
    ("RockPaperScissors (Python game)", RPS, False),
    ("RockPaperScissors (cached tree)", RPS, True),
    ("RPS-Shared-Lines (Python game)", RPS_LINES, False),
    ("RPS-Shared-Lines (cached tree)", RPS_LINES, True),
]


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
    return {
        "row": label,
        "game": game_string,
        "histories": tree.num_nodes,
        "ours_per_s": statistics.median(ours),
        "openspiel_per_s": statistics.median(theirs),
        "ratio": statistics.median(o / t for o, t in zip(ours, theirs, strict=True)),
    }


def time_to_target(game_string: str, target: float = 1e-3, limit: float = 60.0) -> dict:
    """CFR+ (ours) on one game until the average policy's exploitability (NashConv where the
    game is not zero-sum) is below ``target`` or ``limit`` seconds of solver time pass; a
    game too large to list runs over its DAG (``dag_row``)."""
    from cfr import evaluate
    from cfr.solve import Solver, checkpoints
    from cfr.tree import TreeTooLarge

    game = pyspiel.load_game(game_string)
    zero_sum = evaluate.is_two_player_zero_sum(turn_based(game))
    measure = "exploitability" if zero_sum else "NashConv"
    try:
        solver = Solver(game, "cfr+")
    except TreeTooLarge as e:
        return dag_row(game, measure, e, target, limit)
    eval_game = evaluate.evaluation_game(game)
    spent, value = 0.0, float("inf")
    for mark in checkpoints(10**9):
        t0 = time.thread_time()
        solver.iterate(mark - solver.iterations)
        spent += time.thread_time() - t0
        policy = solver.average_policy()
        value = (
            evaluate.exploitability(eval_game, policy) if zero_sum else evaluate.nash_conv(eval_game, policy)
        )
        if value < target or spent >= limit:
            break
    return {
        "game": game_string,
        "algorithm": "cfr+",
        "measure": measure,
        "value": value,
        "iterations": solver.iterations,
        "seconds": spent,
        "met": value < target and spent <= limit,
        "not_evaluated": None,
        "visited": None,
        "build_seconds": None,
        "dag": None,
    }


def dag_row(game, measure: str, refusal, target: float, limit: float) -> dict:
    """DCFR (ours) over the game's DAG of merged histories (``cfr.dag``), with exact
    best responses, when its tree is too large to list; the DAG's walk counts in the
    time. Where merging would change the game (``NotExact``) or the DAG is too large,
    sampling MCCFR runs instead, unevaluated."""
    from cfr import dag

    t0 = time.thread_time()
    try:
        tree = dag.build_dag(game)
    except (dag.NotExact, dag.TooManyNodes) as e:
        row = sampled_row(game, measure, refusal, limit)
        row["dag"] = f"no DAG: {e}"
        return row
    build = time.thread_time() - t0
    solver = TabularCFR(tree, DAG_ALGORITHM)
    spent, value = build, float("inf")
    for mark in dag_checkpoints():
        t0 = time.thread_time()
        solver.iterate(mark - solver.iteration)
        spent += time.thread_time() - t0
        conv = dag.nash_conv(tree, solver.average_probs())
        value = conv / 2 if measure == "exploitability" else conv
        if value < target or spent >= limit:
            break
    return {
        "game": str(game),
        "algorithm": f"{DAG_ALGORITHM} (DAG)",
        "measure": measure,
        "value": value,
        "iterations": solver.iteration,
        "seconds": spent,
        "met": value < target and spent <= limit,
        "not_evaluated": None,
        "visited": None,
        "build_seconds": build,
        "dag": f"{tree.dag.mode} DAG: {tree.num_nodes:,} nodes, {len(tree.edge_parent):,} edges, "
        f"{tree.num_infosets:,} information sets ({refusal.size})",
    }


def dag_checkpoints():
    """1, 2, 5, 10, 20, 50, then every 25 iterations: a DAG's iteration costs up to 0.1 s,
    so the first checkpoint below the target should not overshoot it by hundreds."""
    yield from (1, 2, 5, 10, 20, 50)
    mark = 50
    while True:
        mark += 25
        yield mark


def sampled_row(game, measure: str, refusal, limit: float, seed: int = 0) -> dict:
    """Outcome-sampling MCCFR for ``limit`` seconds of solver time on a game tabular CFR
    refused; its quality is not evaluable (the refusal says how many histories)."""
    from cfr.mccfr import SampledMCCFR
    from cfr.solve import unevaluable_reason

    solver = SampledMCCFR(game, "outcome", seed=seed)
    spent = 0.0
    while spent < limit:
        t0 = time.thread_time()
        solver.iterate(16)
        spent += time.thread_time() - t0
    return {
        "game": str(game),
        "algorithm": "mccfr-outcome",
        "measure": measure,
        "value": None,
        "iterations": solver.iteration,
        "seconds": spent,
        "met": False,
        "not_evaluated": unevaluable_reason(refusal),
        "visited": solver.num_visited,
        "build_seconds": None,
        "dag": None,
    }


def dilemma_games() -> list[str]:
    """The two-player games of the economic-dilemmas study (references and available dilemmas)."""
    out = []
    for entry in full_entries():
        if pyspiel.load_game(entry["game"]).num_players() == 2:
            out.append(entry["game"])
    return out


def speed_rows(seconds: float, rounds: int, log) -> list:
    return [row(label, g, cached, seconds, rounds, log) for label, g, cached in SPEED_ROWS]


def target_rows(limit: float, log) -> list:
    out = []
    for g in dilemma_games():
        log(f"time to 1e-3: {g}")
        out.append(time_to_target(g, limit=limit))
    return out


def format_targets(targets: list, limit: float) -> str:
    lines = [
        f"CFR+ (ours) to exploitability (NashConv where not zero-sum) < 1e-3, "
        f"limit {limit:g} s; games too large to list: {DAG_ALGORITHM.upper()} over their "
        f"DAG of merged histories (cfr.dag), the walk included:"
    ]
    for t in targets:
        if t["not_evaluated"]:
            lines.append(
                f"{t['game']:44} {t['algorithm']:>14} {t['iterations']:>9,} it "
                f"{t['seconds']:8.1f} s  {t['measure']} {t['not_evaluated']}; "
                f"{t['visited']:,} information states visited  NOT MET"
            )
        else:
            lines.append(
                f"{t['game']:44} {t['measure']:>14} {t['value']:.2e} after "
                f"{t['iterations']:>7,} it, {1000 * t['seconds']:9.3f} ms  "
                f"{'ok' if t['met'] else 'MISSED'}"
            )
        if t.get("build_seconds") is not None:
            lines.append(
                f"{'':44} {t['algorithm']}: {t['dag']}; the walk {t['build_seconds']:.1f} s of the time"
            )
        elif t.get("dag"):
            lines.append(f"{'':44} {t['dag']}")
    return "\n".join(lines)


def page_rows(sections: dict, command: str) -> dict:
    """docs/performance.md's rows of the two tables present (an empty table writes none)."""
    blocks = {}
    cached = {label: c for label, _, c in SPEED_ROWS}

    def theirs(r):
        if cached.get(r["row"]):
            return "C++ `CFRSolver` on `convert_to_cached_tree` of it"
        return "C++ `CFRSolver` on the Python game" if "(" in r["row"] else "C++ `CFRSolver`"

    if sections.get("iterations_per_second"):
        blocks["bench_cfr.speed"] = [
            page.Row(
                f"CFR iterations (vanilla, alternating updates), `{r['game']}`",
                page.per_second(r["ours_per_s"]),
                f"{theirs(r)}: {page.per_second(r['openspiel_per_s'])}",
                page.times(r["ratio"]),
                command,
            )
            for r in sections["iterations_per_second"]
        ]
    targets = sections.get("time_to_1e-3")
    if targets:
        listed = [t for t in targets if t["algorithm"] == "cfr+"]
        rows = [
            page.Row(
                f"CFR+ to exploitability (NashConv where not zero-sum) below 1e-3 on every two-player "
                f"game of the economic-dilemmas study ({len(targets)} games)",
                f"met on {sum(t['met'] for t in targets)} of {len(targets)}; the {len(listed)} listed "
                f"ones within {max((t['iterations'] for t in listed), default=0):,} iterations and "
                f"{page.seconds(max((t['seconds'] for t in listed), default=0.0))}",
                "-",
                "-",
                command,
            )
        ]
        for t in targets:
            if t["algorithm"] == "cfr+":
                continue
            value = t["not_evaluated"] if t["value"] is None else f"{t['measure']} {t['value']:.1e}"
            walk = f" (the DAG's walk {page.seconds(t['build_seconds'])})" if t["build_seconds"] else ""
            rows.append(
                page.Row(
                    f"{t['algorithm']} to below 1e-3, `{t['game']}` (too large to list)",
                    f"{value} after {t['iterations']:,} iterations, {page.seconds(t['seconds'])}{walk}",
                    "-",
                    "-",
                    command,
                )
            )
        blocks["bench_cfr.targets"] = rows
    return blocks


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m experiments.bench_cfr",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--seconds", type=positive_float, default=1.0, help="seconds per measurement")
    p.add_argument("--rounds", type=positive_int, default=5, help="alternating rounds")
    p.add_argument(
        "--limit",
        type=positive_float,
        default=60.0,
        help="solver seconds per dilemma in the time-to-1e-3 table (default 60)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object instead of a table")
    p.add_argument(
        "--skip-targets", action="store_true", help="skip the time-to-1e-3 table over the two-player dilemmas"
    )
    p.add_argument(
        "--markdown", metavar="PAGE", help="also rewrite this benchmark's rows of PAGE (docs/performance.md)"
    )
    args = p.parse_args(argv)
    log = lambda m: print(m, file=sys.stderr, flush=True)
    rows = speed_rows(args.seconds, args.rounds, log)
    targets = [] if args.skip_targets else target_rows(args.limit, log)
    if args.markdown:
        command = page.command_line("python -m experiments.bench_cfr", argv)
        page.update(
            args.markdown, page_rows({"iterations_per_second": rows, "time_to_1e-3": targets}, command)
        )
    if args.json:
        print(json.dumps({"iterations_per_second": rows, "time_to_1e-3": targets}))
        return 0
    print(f"{'game':34} {'ours it/s':>12} {'OpenSpiel it/s':>15} {'ratio':>7}")
    for r in rows:
        print(f"{r['row']:34} {r['ours_per_s']:12,.0f} {r['openspiel_per_s']:15,.0f} {r['ratio']:6.2f}x")
    if targets:
        print()
        print(format_targets(targets, args.limit))
    return 0


if __name__ == "__main__":
    sys.exit(main())

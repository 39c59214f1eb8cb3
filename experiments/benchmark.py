"""Speed of our kernels as ratios to OpenSpiel's C++ games, measured in one process.

    python -m experiments.benchmark [--seconds 1.0] [--rounds 5] [--json]
        [--markdown docs/performance.md]

Baseline: OpenSpiel's C++ ``y(board_size=11)`` played fully natively, uniform
random games through ``pyspiel.evaluate_bots`` with two uniform random bots.
Each of our games plays uniform random games in its Cython kernel
(``games.core.playout_batch``: copy the start position, play to the end).
Baseline and contenders alternate within every round, times are the CPU time
of the measuring thread (``time.thread_time``, so other processes on a busy
machine count less), and the reported ratio is the median over rounds. Further
sections (search, solvers, tic-tac-toe engine) join in when those modules are
present: the bench_* modules are this command's sections, each also
runnable alone, so this is the one command that imports other experiments.
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import sys

import pyspiel

import games  # noqa: F401
from analysis import performance_page as page
from analysis.study import non_negative_int, positive_float, positive_int
from experiments.rates import kernel_rate, openspiel_rate

BASELINE = "y(board_size=11)"
PLAYOUT_GAMES = {
    # game string: target ratio to the baseline, or None for "report only"
    "y_game(board_size=11)": 15.0,
    "double_o_y(board_size=11)": 3.0,
    "double_o_y(board_size=11,protocol=1)": None,
    "double_o_y(board_size=11,flip=opponents)": None,
    "double_o_y(board_size=11,flip=friends)": None,
    "defector_y(board_size=11)": None,
    "defector_y(board_size=11,protocol=122)": None,
    "double_o_y(board_shape=hex,board_size=4)": None,
    "flipway(board_size=9)": None,
    "caeth_y(board_size=9)": None,  # the seed's board: 108 edges
}


def available(game_string: str) -> bool:
    """Is the game registered (a section for a game not yet built is skipped)?"""
    return game_string.split("(")[0] in pyspiel.registered_names()


def playout_section(seconds: float, rounds: int, seed: int, log) -> dict:
    contenders = [g for g in PLAYOUT_GAMES if available(g)]
    ratios = {g: [] for g in contenders}
    rates = {g: [] for g in contenders}
    baseline_rates = []
    for r in range(rounds):
        log(f"round {r + 1}/{rounds}")
        for g in contenders:
            base = openspiel_rate(BASELINE, seconds / 2, seed + r)
            ours = kernel_rate(g, seconds / 2, seed + r)
            baseline_rates.append(base)
            rates[g].append(ours)
            ratios[g].append(ours / base)
    rows = []
    for g in contenders:
        target = PLAYOUT_GAMES[g]
        ratio = statistics.median(ratios[g])
        rows.append(
            {
                "game": g,
                "playouts_per_second": statistics.median(rates[g]),
                "ratio": ratio,
                "target": target,
                "meets_target": None if target is None else ratio >= target,
            }
        )
    y11 = pyspiel.load_game("y_game(board_size=11)").new_core()
    return {
        "baseline": f"OpenSpiel C++ {BASELINE}, evaluate_bots with uniform random bots",
        "baseline_playouts_per_second": statistics.median(baseline_rates),
        "rows": rows,
        "y_game_11_state_bytes": y11.nbytes(),
        "double_o_y_11_state_bytes": pyspiel.load_game("double_o_y(board_size=11)").new_core().nbytes(),
    }


# Sections contributed by other modules: (module, function) returning a dict.
EXTRA_SECTIONS = {
    "connect4": ("experiments.bench_ttt", "connect4_playouts_vs_openspiel"),
    "simultaneous": ("experiments.bench_ttt", "simultaneous_playouts_vs_goofspiel"),
    "mcts_speed": ("experiments.bench_search", "mcts_speed"),
    "mcts_memory": ("experiments.bench_search", "mcts_memory"),
    "solvers": ("experiments.bench_solvers", "run_all"),
    "cfr": ("experiments.bench_cfr", "run_all"),
}


# The key each section has in its module's own page_rows() (solvers and cfr: the
# section is already that module's dict of results).
PAGE_KEYS = {
    "connect4": "connect4",
    "simultaneous": "simultaneous",
    "mcts_speed": "speed",
    "mcts_memory": "memory",
}


def playout_rows(section: dict, command: str) -> list:
    """docs/performance.md's rows of the playout section."""
    baseline = (
        "C++ `y(board_size=11)`, `evaluate_bots` with random bots: "
        f"{page.per_second(section['baseline_playouts_per_second'])}"
    )
    rows = [
        page.Row(
            f"random playouts, `{r['game']}`",
            page.per_second(r["playouts_per_second"]),
            baseline,
            page.times(r["ratio"]),
            command,
        )
        for r in section["rows"]
    ]
    rows.append(
        page.Row(
            "bytes a position, `y_game(board_size=11)` / `double_o_y(board_size=11)` (`core.nbytes()`)",
            f"{section['y_game_11_state_bytes']} / {section['double_o_y_11_state_bytes']}",
            "-",
            "-",
            command,
        )
    )
    return rows


def page_blocks(result: dict, command: str) -> dict:
    """Every row of docs/performance.md this run measured, by block; the sections'
    own modules turn their figures into rows."""
    blocks = {"benchmark.playouts": playout_rows(result["playouts"], command)}
    by_module = {}
    for name, section in result.items():
        if name in EXTRA_SECTIONS:
            key = PAGE_KEYS.get(name)
            by_module.setdefault(EXTRA_SECTIONS[name][0], {}).update({key: section} if key else section)
    for module_name, sections in by_module.items():
        blocks.update(importlib.import_module(module_name).page_rows(sections, command))
    return blocks


def extra_sections(quick: bool, log) -> dict:
    results = {}
    for name, (module_name, function_name) in EXTRA_SECTIONS.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError:
            continue
        function = getattr(module, function_name, None)
        if function is None:
            raise SystemExit(
                f"{module_name} has no {function_name}(): "
                "experiments/benchmark.py's EXTRA_SECTIONS is out of date"
            )
        log(f"section {name}")
        results[name] = function(quick=quick) if "quick" in function.__code__.co_varnames else function()
    return results


def format_playouts(section: dict) -> str:
    lines = [
        f"Random playouts vs {section['baseline']}: {section['baseline_playouts_per_second']:,.0f} games/s",
        f"{'game':48s} {'games/s':>12s} {'ratio':>8s}  target",
    ]
    for row in section["rows"]:
        target = (
            ""
            if row["target"] is None
            else f">= {row['target']:.0f}x {'ok' if row['meets_target'] else 'MISSED'}"
        )
        lines.append(f"{row['game']:48s} {row['playouts_per_second']:12,.0f} {row['ratio']:7.1f}x  {target}")
    lines.append(
        f"state size: y_game 11 {section['y_game_11_state_bytes']} bytes, "
        f"double_o_y 11 {section['double_o_y_11_state_bytes']} bytes"
    )
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m experiments.benchmark",
        description="Kernel speed as ratios to OpenSpiel's C++ games, measured in one process.",
    )
    parser.add_argument(
        "--seconds",
        type=positive_float,
        default=1.0,
        help="time per measurement and round (default: %(default)s)",
    )
    parser.add_argument(
        "--rounds",
        type=positive_int,
        default=5,
        help="alternating rounds; ratios are medians (default: %(default)s)",
    )
    parser.add_argument("--seed", type=non_negative_int, default=0)
    parser.add_argument(
        "--quick", action="store_true", help="shorter measurements in the search/solver sections"
    )
    parser.add_argument(
        "--playouts-only", action="store_true", help="skip the search, solver and tic-tac-toe sections"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--markdown",
        metavar="PAGE",
        help="also rewrite the rows this run measured in PAGE (docs/performance.md)",
    )
    args = parser.parse_args(argv)
    log = (lambda msg: None) if args.json else (lambda msg: print(f"[benchmark] {msg}", file=sys.stderr))
    result = {"playouts": playout_section(args.seconds, args.rounds, args.seed, log)}
    if not args.playouts_only:
        result.update(extra_sections(args.quick, log))
    if args.markdown:
        command = page.command_line("python -m experiments.benchmark", argv)
        page.update(args.markdown, page_blocks(result, command))
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(format_playouts(result["playouts"]))
    for name, section in result.items():
        if name != "playouts":
            print(f"\n[{name}]")
            print(json.dumps(section, indent=1))


if __name__ == "__main__":
    main()

"""Speed and memory of our MCTS against OpenSpiel's C++ MCTS.

Functions return plain dicts (``--json`` prints them as one object: the ``search``
section of ``python -m experiments.benchmark``):

- ``openspiel_mcts_rate``: simulations/s of ``pyspiel.MCTSBot`` (C++,
  ``RandomRolloutEvaluator(1, seed)``) searching the empty board of
  OpenSpiel's C++ ``y``.
- ``our_mcts_rate``: simulations/s of ``mcts.uct.UCTSearch`` on one of our
  cores (the empty board).
- ``mcts_speed``: both, interleaved and repeated in one run, with the ratios
  ours / OpenSpiel for ``y_game`` 11 and ``double_o_y`` 11 (same simulations,
  same exploration constant, MCTS-Solver off on both sides as it is inert on
  an empty 11 board).
- ``mcts_memory``: bytes per node, tree size and peak memory of one search.

The machine is shared, so each figure is measured ``repeats`` times with the
contenders interleaved; rates are reported as median and best, ratios as the
median of per-repeat ratios (each from measurements seconds apart) and as the
ratio of the best rates (the least disturbed runs). ``clock="cpu"`` times each
search by the CPU time of the thread that runs it (both engines search in the
calling thread) instead of the wall clock: on a loaded machine the wall clock
counts the time a search waits for a core, which has nothing to do with
either engine, while the CPU time does not (cache and frequency effects of
the load remain).

    python -m experiments.bench_search [--json] [--sims N] [--repeats K] [--clock wall|cpu]
        [--markdown docs/performance.md]
"""

from __future__ import annotations

import argparse
import gc
import json
import resource
import statistics
import sys
import time

import pyspiel

import games  # noqa: F401  (registers our games)
from analysis import performance_page as page
from analysis.study import non_negative_float, non_negative_int, positive_int
from mcts.uct import UCTSearch, time_playouts

Y11 = "y_game(board_size=11)"
DOUBLE_O_Y11 = "double_o_y(board_size=11)"
OPENSPIEL_Y11 = "y(board_size=11)"


CLOCKS = {"wall": time.perf_counter, "cpu": time.thread_time}


def _timer(clock: str):
    try:
        return CLOCKS[clock]
    except KeyError:
        raise ValueError(f"clock must be one of {sorted(CLOCKS)}, got {clock!r}") from None


def openspiel_mcts_rate(
    sims: int = 20000,
    uct_c: float = 1.4,
    seed: int = 0,
    game: str = OPENSPIEL_Y11,
    max_memory_mb: int = 4000,
    clock: str = "wall",
) -> dict:
    """One ``mcts_search`` of OpenSpiel's C++ MCTSBot from the initial state."""
    timer = _timer(clock)
    g = pyspiel.load_game(game)
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.MCTSBot(g, evaluator, uct_c, sims, max_memory_mb, False, seed, False)
    state = g.new_initial_state()
    start = timer()
    root = bot.mcts_search(state)
    seconds = timer() - start
    return {
        "engine": "openspiel_mcts",
        "game": game,
        "simulations": sims,
        "clock": clock,
        "root_visits": root.explore_count,
        "seconds": seconds,
        "sims_per_s": sims / seconds,
    }


def our_mcts_rate(
    game: str = Y11,
    sims: int = 20000,
    uct_c: float = 1.4,
    seed: int = 0,
    solve: bool = False,
    clock: str = "wall",
) -> dict:
    """One search of our MCTS from the initial core of ``game``."""
    timer = _timer(clock)
    core = pyspiel.load_game(game).new_core()
    search = UCTSearch(uct_c=uct_c, max_simulations=sims, seed=seed, solve=solve)
    start = timer()
    result = search.search(core)
    seconds = timer() - start if clock == "cpu" else result["seconds"]
    return {
        "engine": "ours",
        "game": game,
        "simulations": result["simulations"],
        "clock": clock,
        "nodes": result["nodes"],
        "seconds": seconds,
        "sims_per_s": result["simulations"] / seconds,
    }


def playout_rate(game: str, count: int = 20000, seed: int = 0) -> dict:
    """Copy + random playout from the initial core, in C: the floor under a simulation."""
    core = pyspiel.load_game(game).new_core()
    seconds = time_playouts(core, count, seed)
    return {"game": game, "playouts": count, "seconds": seconds, "playouts_per_s": count / seconds}


def _stats(rates: list[float]) -> dict:
    return {"median": statistics.median(rates), "best": max(rates), "all": rates}


def mcts_speed(
    sims: int = 20000, repeats: int = 5, uct_c: float = 1.4, seed: int = 0, progress=None, clock: str = "wall"
) -> dict:
    """Simulations/s of ours (y_game 11, double_o_y 11) and OpenSpiel's (y 11),
    interleaved ``repeats`` times, and the ratios ours / OpenSpiel: the median
    of the per-repeat ratios, and the ratio of the best rates. ``clock``:
    "wall" or "cpu" (see the module docstring)."""
    _timer(clock)
    rates = {"openspiel_y11": [], "ours_y_game11": [], "ours_double_o_y11": []}
    for r in range(repeats):
        rates["openspiel_y11"].append(openspiel_mcts_rate(sims, uct_c, seed + r, clock=clock)["sims_per_s"])
        rates["ours_y_game11"].append(our_mcts_rate(Y11, sims, uct_c, seed + r, clock=clock)["sims_per_s"])
        rates["ours_double_o_y11"].append(
            our_mcts_rate(DOUBLE_O_Y11, sims, uct_c, seed + r, clock=clock)["sims_per_s"]
        )
        if progress:
            progress(
                f"repeat {r + 1}/{repeats}: "
                + ", ".join(f"{k} {v[-1]:,.0f} sims/s" for k, v in rates.items())
            )
    summary = {k: _stats(v) for k, v in rates.items()}
    base = rates["openspiel_y11"]

    def paired(key):
        # each repeat's ratio uses measurements taken moments apart, so a
        # change in the machine's load between repeats cancels out
        return statistics.median(o / b for o, b in zip(rates[key], base, strict=True))

    return {
        "simulations_per_search": sims,
        "repeats": repeats,
        "uct_c": uct_c,
        "seed": seed,
        "rollouts": 1,
        "solver": False,
        "clock": clock,
        "sims_per_s": summary,
        "ratio_y_game11": paired("ours_y_game11"),
        "ratio_double_o_y11": paired("ours_double_o_y11"),
        "ratio_of_best_y_game11": summary["ours_y_game11"]["best"] / summary["openspiel_y11"]["best"],
        "ratio_of_best_double_o_y11": (
            summary["ours_double_o_y11"]["best"] / summary["openspiel_y11"]["best"]
        ),
        "targets": {"ratio_y_game11": 5.0, "ratio_double_o_y11": 3.5},  # ours at least this many times theirs
    }


def _peak_rss_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KiB


def mcts_memory(game: str = DOUBLE_O_Y11, sims: int = 1_000_000, uct_c: float = 1.4, seed: int = 0) -> dict:
    """One search of ``sims`` simulations: node size, tree size, node-pool bytes
    and the process's peak resident memory before and after."""
    core = pyspiel.load_game(game).new_core()
    gc.collect()
    before = _peak_rss_bytes()
    search = UCTSearch(uct_c=uct_c, max_simulations=sims, seed=seed, solve=True)
    result = search.search(core)
    after = _peak_rss_bytes()
    return {
        "game": game,
        "simulations": result["simulations"],
        "seconds": result["seconds"],
        "sims_per_s": result["simulations"] / result["seconds"],
        "bytes_per_node": search.bytes_per_node,
        "nodes": result["nodes"],
        "tree_bytes": result["nodes"] * search.bytes_per_node,
        "node_pool_bytes": search.allocated_bytes,
        "peak_rss_before_bytes": before,
        "peak_rss_after_bytes": after,
        "peak_rss_growth_bytes": after - before,
    }


def page_rows(sections: dict, command: str) -> dict:
    """docs/performance.md's rows of the ``speed`` and ``memory`` results present."""
    blocks = {}
    if "speed" in sections:
        s = sections["speed"]
        theirs = s["sims_per_s"]["openspiel_y11"]["median"]
        baseline = f"C++ `MCTSBot` on `{OPENSPIEL_Y11}`: {page.per_second(theirs)}"
        blocks["bench_search.speed"] = [
            page.Row(
                f"MCTS simulations, `{game}` ({s['clock']} clock, {s['simulations_per_search']:,} a search)",
                page.per_second(s["sims_per_s"][key]["median"]),
                baseline,
                page.times(s[ratio]),
                command,
            )
            for game, key, ratio in (
                (Y11, "ours_y_game11", "ratio_y_game11"),
                (DOUBLE_O_Y11, "ours_double_o_y11", "ratio_double_o_y11"),
            )
        ]
    if "memory" in sections:
        m = sections["memory"]
        blocks["bench_search.memory"] = [
            page.Row(
                f"MCTS memory, {m['simulations']:,} simulations on `{m['game']}`",
                f"{m['bytes_per_node']}-byte nodes: {m['nodes'] / 1e6:.1f}M nodes, "
                f"{m['tree_bytes'] / 2**20:.0f} MiB",
                "not measured",
                "-",
                command,
            )
        ]
    return blocks


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m experiments.bench_search",
        description="Simulations/s of our MCTS (y_game 11, double_o_y 11) against OpenSpiel's C++ "
        "MCTSBot (y 11) with random rollouts, and the memory of a 1M-simulation search.",
    )
    p.add_argument(
        "--sims", type=positive_int, default=20000, help="simulations per timed search (default 20000)"
    )
    p.add_argument("--repeats", type=positive_int, default=5, help="interleaved repeats (default 5)")
    p.add_argument("--uct-c", type=non_negative_float, default=1.4, help="exploration constant (default 1.4)")
    p.add_argument(
        "--memory-sims",
        type=non_negative_int,
        default=1_000_000,
        help="simulations of the memory measurement on double_o_y 11 (default 1000000; 0 skips it)",
    )
    p.add_argument("--seed", type=non_negative_int, default=0, help="seed (default 0)")
    p.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="wall",
        help="time each search by the wall clock (default) or by the CPU time of the "
        "thread running it (steadier on a loaded machine: leaves out waiting for a core)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument(
        "--markdown", metavar="PAGE", help="also rewrite this benchmark's rows of PAGE (docs/performance.md)"
    )
    args = p.parse_args(argv)

    def progress(msg):
        print(msg, file=sys.stderr, flush=True)

    out = {}
    if args.memory_sims:
        # first, so that the process's peak memory is this search's, not OpenSpiel's trees
        progress(f"memory: one search of {args.memory_sims:,} simulations on {DOUBLE_O_Y11} ...")
        out["memory"] = mcts_memory(DOUBLE_O_Y11, args.memory_sims, args.uct_c, args.seed)
    out["playouts"] = [playout_rate(Y11, seed=args.seed), playout_rate(DOUBLE_O_Y11, seed=args.seed)]
    out["speed"] = mcts_speed(args.sims, args.repeats, args.uct_c, args.seed, progress, args.clock)
    if args.markdown:
        page.update(
            args.markdown, page_rows(out, page.command_line("python -m experiments.bench_search", argv))
        )
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    for pr in out["playouts"]:
        print(f"random playouts (copy + playout, C loop) {pr['game']}: {pr['playouts_per_s']:,.0f}/s")
    s = out["speed"]
    print(
        f"MCTS simulations/s, {s['simulations_per_search']:,} simulations per search, "
        f"{s['clock']} clock, median (best) of {s['repeats']}:"
    )
    for k, v in s["sims_per_s"].items():
        print(f"  {k:20s} {v['median']:>12,.0f} ({v['best']:,.0f})")
    print(
        f"  ratio y_game 11 / OpenSpiel y 11:     {s['ratio_y_game11']:.2f}x median of pairs, "
        f"{s['ratio_of_best_y_game11']:.2f}x best/best (target 5x)"
    )
    print(
        f"  ratio double_o_y 11 / OpenSpiel y 11: {s['ratio_double_o_y11']:.2f}x median of pairs, "
        f"{s['ratio_of_best_double_o_y11']:.2f}x best/best (target 3.5x)"
    )
    if "memory" in out:
        m = out["memory"]
        print(
            f"memory, {m['simulations']:,} simulations on {m['game']}: {m['bytes_per_node']} bytes/node, "
            f"{m['nodes']:,} nodes = {m['tree_bytes'] / 2**20:.1f} MiB "
            f"(pool {m['node_pool_bytes'] / 2**20:.1f} MiB), peak RSS "
            f"{m['peak_rss_after_bytes'] / 2**20:.1f} MiB (+{m['peak_rss_growth_bytes'] / 2**20:.1f} MiB), "
            f"{m['sims_per_s']:,.0f} sims/s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

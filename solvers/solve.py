"""Solve a small game exactly from the command line.

    python -m solvers.solve --game "y_game(board_size=5)" [--openings] [--json]
    python -m solvers.solve --game "double_o_y(board_size=6)" --jobs 2 --records r.jsonl
    python -m solvers.solve --game "..." --backend dask --scheduler tcp://HOST:8786

Prints the first player's game-theoretic value, every winning first move (as
the game's own action strings), the nodes searched and the seconds taken.
Games of this toolkit are searched by the Cython kernel over their core; any
other OpenSpiel game (C++ ones included) through the pyspiel API, more
slowly. ``--jobs``/``--backend dask`` split the same search into units on
worker processes or a Dask cluster, and ``--records`` keeps every solved
unit so that a killed run resumes (solvers/parallel.py). ``--depth`` instead
gives a depth-limited heuristic estimate for boards too large to solve. See
solvers/exhaustive.py for what "value" means with chance and with more than two
players.
"""

from __future__ import annotations

import argparse
import json
import math
import signal
import sys
import time

from games.openspiel import core_of, is_core_game
from solvers.exhaustive import load, solve
from solvers.parallel import BACKENDS
from solvers.parallel import solve as solve_parallel


def _estimate(game, depth: int, time_limit: float, seed: int, tt_log2: int) -> dict:
    """Depth-limited alpha-beta with the random-playout heuristic."""
    from solvers.alphabeta import iterative_deepening

    start = time.perf_counter()
    if not is_core_game(game):
        raise ValueError("--depth needs a game with a Cython core")
    core = core_of(game)
    info = iterative_deepening(game, core, max_depth=depth, time_limit=time_limit, seed=seed, tt_log2=tt_log2)
    return {
        "game": str(game),
        "engine": "core",
        "value": info["value"],
        "exact": info["exact"],
        "depth": info["depth"],
        "best_first_move": info["best_move_string"],
        "nodes": info["nodes"],
        "seconds": round(time.perf_counter() - start, 3),
    }


def _terminated(signum, frame):
    raise SystemExit(128 + signum)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m solvers.solve",
        description="Exact value and winning first moves of a small game (alpha-beta with a "
        "symmetry-keyed transposition table).",
    )
    ap.add_argument("--game", required=True, help='OpenSpiel game string, e.g. "y_game(board_size=5)"')
    ap.add_argument("--openings", action="store_true", help="also print the value of every first move")
    ap.add_argument(
        "--time-limit", type=float, default=0.0, metavar="S", help="give up after S seconds (0: no limit)"
    )
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    ap.add_argument(
        "--engine",
        choices=("auto", "core", "pyspiel"),
        default="auto",
        help="core: Cython kernel (our games); pyspiel: any OpenSpiel game; auto: core if possible",
    )
    ap.add_argument(
        "--method",
        choices=("auto", "alphabeta", "dfpn", "ysolver"),
        default="auto",
        help="exact search of the core engine: alpha-beta, df-pn (two-player zero-sum "
        "games without chance) or ysolver (plain Y on a triangle, with virtual "
        "connections and must-play regions); auto: ysolver where it applies, "
        "otherwise alpha-beta",
    )
    ap.add_argument(
        "--no-symmetry",
        action="store_true",
        help="key the transposition table by the plain hash (no symmetry classes)",
    )
    ap.add_argument(
        "--tt-log2",
        type=int,
        default=24,
        help="transposition table entries = 2**N (32 bytes each; default 24 = 512 MiB)",
    )
    ap.add_argument(
        "--tt-replace",
        choices=("depth", "size", "size4"),
        default="depth",
        help="transposition table replacement: depth (2-entry buckets, deepest then "
        "newest; the default), size (2-entry buckets, the larger subtree kept) or "
        "size4 (4-entry buckets, the smallest subtree replaced); only node counts "
        "change, never values",
    )
    ap.add_argument(
        "--depth",
        type=int,
        default=0,
        help="instead of solving, search N plies deep with a random-playout heuristic",
    )
    ap.add_argument("--seed", type=int, default=0, help="seed of the heuristic playouts (--depth only)")
    ap.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    par = ap.add_argument_group(
        "parallel and resumable solving (solvers/parallel.py)",
        "Any of these runs the split solver: the opening classes (or positions --split-depth "
        "plies deep) are solved as units by the same exact search, on worker processes or a "
        "Dask cluster, with the same values as the serial solve.",
    )
    par.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help="worker processes (joblib, or the workers of a Dask LocalCluster); 1 runs "
        "the units in this process",
    )
    par.add_argument(
        "--shared-tt",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="joblib workers share one --tt-log2 alpha-beta table in shared memory "
        "(default: on with 2+ joblib workers; --no-shared-tt: a private table "
        "each; Dask workers always keep private tables)",
    )
    par.add_argument(
        "--backend",
        choices=BACKENDS,
        default=None,
        help="joblib (local processes; default) or dask (a cluster: --scheduler, "
        "else a LocalCluster of --jobs workers)",
    )
    par.add_argument("--scheduler", metavar="ADDR", help="Dask scheduler address, e.g. tcp://host:8786")
    par.add_argument(
        "--connect-timeout",
        type=float,
        default=10.0,
        metavar="S",
        help="give up reaching the Dask scheduler after S seconds (default 10)",
    )
    par.add_argument(
        "--split-depth",
        type=int,
        metavar="D",
        help="units start D plies below the root (1: one per opening class; default: "
        "1 with one worker or at least four classes per worker, else 2)",
    )
    par.add_argument(
        "--records",
        metavar="PATH",
        help="append every solved unit and opening to this record store (.jsonl, "
        "or .sqlite) and resume from it",
    )
    par.add_argument(
        "--stop-after",
        type=int,
        default=0,
        metavar="K",
        help="stop after K units solved in this run (resume later with --records)",
    )
    args = ap.parse_args(argv)
    parallel = (
        args.jobs is not None
        or args.backend is not None
        or args.scheduler is not None
        or args.shared_tt is not None
        or args.split_depth is not None
        or args.records is not None
        or args.stop_after
    )
    if args.jobs is not None and args.jobs < 1:
        ap.error(f"--jobs must be a positive number of workers, got {args.jobs}")
    if args.scheduler and args.backend != "dask":
        ap.error("--scheduler needs --backend dask")
    if args.shared_tt and args.backend == "dask":
        ap.error("--shared-tt needs the joblib backend (Dask workers keep private tables)")
    if not (args.connect_timeout > 0 and math.isfinite(args.connect_timeout)):
        ap.error(f"--connect-timeout must be a positive number of seconds, got {args.connect_timeout}")
    if args.split_depth is not None and args.split_depth < 1:
        ap.error(f"--split-depth must be >= 1, got {args.split_depth}")
    if args.stop_after < 0:
        ap.error(f"--stop-after must be >= 0, got {args.stop_after}")
    if parallel and args.depth:
        ap.error("--depth (a heuristic estimate) does not combine with the parallel solver's flags")
    if not (args.time_limit >= 0 and math.isfinite(args.time_limit)):  # NaN never runs out
        ap.error(f"--time-limit must be a finite number of seconds >= 0 (0: no limit), got {args.time_limit}")
    if not 10 <= args.tt_log2 <= 30:
        ap.error("--tt-log2 must be in 10..30")
    if args.depth < 0:
        ap.error("--depth must be >= 0")
    try:
        game = load(args.game)
        if args.depth:
            result = _estimate(game, args.depth, args.time_limit, args.seed, args.tt_log2)
        else:
            progress = None if args.quiet else (lambda msg: print(msg, file=sys.stderr, flush=True))
            common = dict(
                engine=args.engine,
                method=args.method,
                time_limit=args.time_limit,
                symmetry=not args.no_symmetry,
                tt_log2=args.tt_log2,
                tt_replace=args.tt_replace,
                progress=progress,
            )
            if parallel:
                # SIGTERM (timeout, kill) unwinds like Ctrl-C, so the worker processes are
                # killed too instead of finishing their searches for nobody.
                previous = signal.signal(signal.SIGTERM, _terminated)
                try:
                    result = solve_parallel(
                        game,
                        jobs=args.jobs or 1,
                        backend=args.backend or "joblib",
                        scheduler=args.scheduler,
                        split_depth=args.split_depth,
                        records=args.records,
                        stop_after=args.stop_after,
                        connect_timeout=args.connect_timeout,
                        shared_tt=args.shared_tt,
                        **common,
                    )
                finally:
                    signal.signal(signal.SIGTERM, previous)
            else:
                result = solve(game, **common)
    except ValueError as exc:  # the record store's errors are ValueErrors too
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # the searches run Python's handlers (games/interrupt.pxd)
        kept = (
            f"; the positions solved so far are in {args.records}: the same command resumes"
            if args.records
            else ""
        )
        print(f"interrupted{kept}", file=sys.stderr)
        return 130
    if args.json:
        out = {
            "value": result.get("value"),
            "winning_first_moves": result.get("winning_first_moves", []),
            "nodes": result["nodes"],
            "seconds": result["seconds"],
        }
        extra = {k: v for k, v in result.items() if k not in out}
        if not args.openings:
            extra.pop("opening_values", None)
        out.update(extra)
        print(json.dumps(out))
    else:
        print(
            f"game: {result['game']}  (engine: {result['engine']}"
            f"{', ' + result['method'] if 'method' in result and result['engine'] == 'core' else ''})"
        )
        if "depth" in result:
            print(
                f"estimated value: {result['value']:+.3f} at depth {result['depth']}"
                f"{' (exact)' if result['exact'] else ''}; best first move: {result['best_first_move']}"
            )
        elif result["value"] is None:
            print(f"value: unknown ({result.get('error', 'not solved')})")
        else:
            print(f"value: {result['value']:+g} for the first player ({result['value_kind']})")
            print(
                f"winning first moves ({len(result['winning_first_moves'])}): "
                f"{' '.join(result['winning_first_moves']) or '-'}"
            )
            if not result["complete"]:
                print(
                    f"stopped early ({result.get('error')}): the value is proven by a winning "
                    f"opening, but these openings were not solved: "
                    f"{' '.join(result.get('unsolved_first_moves', []))}"
                )
        if args.openings and result.get("opening_values"):
            print("opening values (first player's return after the move):")
            for move, v in result["opening_values"].items():
                print(f"  {move:>10}  {v:+g}")
        if "units" in result:
            print(
                f"units: {result['units']} ({result['split_depth']} plies deep), "
                f"{result['units_solved']} solved on {result['workers']} worker(s) "
                f"({result['backend']}), {result['units_resumed']} resumed from records, "
                f"{result['units_wasted']} solved after a cutoff made them unneeded"
                f"{'; one shared table' if result.get('shared_tt') else ''}"
            )
        print(f"nodes: {result['nodes']:,}  seconds: {result['seconds']}")
    return 0 if result.get("value") is not None else 1


if __name__ == "__main__":
    sys.exit(main())

"""python -m cfr: solve a game with a CFR-family algorithm, print its convergence.

Examples::

    python -m cfr --game kuhn_poker --algorithm cfr+ --iterations 1000 --save kuhn.json
    python -m cfr --game "ttt(rules=games/ttt/examples/RPS-Shared-Lines.json)" \\
        --algorithm dcfr --iterations 500 --curve rps.csv
    python -m cfr --game kuhn_poker --algorithm mccfr-external --iterations 100000 --seed 3
    python -m cfr --game "ttt(rules=3Blotto13)" --iterations 500 --save blotto.json
    python -m cfr --game "ttt(rules=3Blotto13)" --algorithm mccfr-outcome --seconds 60 \
        --iterations 1000000000

A game with more histories than ``--max-nodes`` is solved by our tabular CFR
over its DAG of merged histories (``cfr.dag``) where that is exact: by position
in perfect-information games (Centipede9), by position and observations in
blind ones (3Blotto13, every space cloaked); NashConv then comes from the DAG's
exact best responses, and the saved policy is keyed as the DAG is (the file's
``keys``), which the ``cfr`` bot reads. Elsewhere such a game is refused, with
the reason.

Sampling MCCFR (engine ours) never enumerates the tree, so it runs on games
tabular CFR refuses; there NashConv cannot be evaluated (best responses walk the
whole tree) and the output says so. Its saved policy lists the information states
it visited; the ``cfr`` bot plays any other uniformly.

Then ``--bot cfr:policy=kuhn.json`` (or ``make_bot("cfr", game, p, policy="kuhn.json")``)
plays the saved average policy.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

import pyspiel

from cfr import evaluate
from cfr.game_form import turn_based
from cfr.policy_file import save_policy
from cfr.solve import ALGORITHMS, is_dag, needs_tree, run, tree_or_dag, unevaluable_reason
from cfr.tree import TreeTooLarge, enumerate_tree


def _positive_int(text):
    v = int(text)
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {v}")
    return v


def _seconds(text):
    v = float(text)
    if not v >= 0 or v == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a finite number >= 0, got {text}")
    return v


def _seed(text):
    v = int(text)
    if not 0 <= v < 2**31:
        raise argparse.ArgumentTypeError(f"must be in 0..2**31-1, got {v}")
    return v


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m cfr", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--game", required=True, help="an OpenSpiel game string (ours or OpenSpiel's)")
    p.add_argument(
        "--algorithm",
        default="cfr+",
        choices=list(ALGORITHMS),
        help="cfr, cfr+ (RM+ and linear averaging), dcfr (a=1.5,b=0,g=2), "
        "lcfr, or outcome/external sampling MCCFR (default cfr+)",
    )
    p.add_argument(
        "--engine",
        choices=("ours", "openspiel"),
        help="ours: tabular CFR over the enumerated tree, or sampling MCCFR "
        "without it; openspiel: its C++ solvers, on the enumerated tree "
        "(default: ours)",
    )
    p.add_argument("--iterations", type=_positive_int, default=1000, help="iteration budget")
    p.add_argument(
        "--seconds",
        type=_seconds,
        default=0.0,
        help="solver-time budget in seconds (0: none); the first budget reached stops",
    )
    p.add_argument("--seed", type=_seed, default=0, help="seed of the sampling MCCFR variants")
    p.add_argument(
        "--max-nodes",
        type=_positive_int,
        default=5_000_000,
        help="tabular solvers refuse games with more histories than this, and "
        "sampling MCCFR runs there unevaluated (default 5,000,000)",
    )
    p.add_argument(
        "--save", metavar="PATH", help="write the average policy here (JSON; format in cfr/policy_file.py)"
    )
    p.add_argument("--curve", metavar="PATH", help="write the convergence curve (.csv or .json)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    return p


def _output_problem(option: str, path: str | None) -> str | None:
    """Why ``path`` cannot be written (checked before a solve that may take hours)."""
    if path is None:
        return None
    target = Path(path)
    if target.is_dir():
        return f"{option} {path} is a directory; give a file path"
    if target.parent.exists() and not target.parent.is_dir():
        return f"{option} {path}: {target.parent} is not a directory"
    return None


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    import games  # noqa: F401  (registers this toolkit's games)

    for option, path in (("--save", args.save), ("--curve", args.curve)):
        problem = _output_problem(option, path)
        if problem:
            print(f"error: {problem}", file=sys.stderr)
            return 2
    try:
        game = pyspiel.load_game(args.game)
    except (pyspiel.SpielError, ValueError, RuntimeError) as e:  # ValueError: a rule set's problems
        print(f"error: cannot load game {args.game!r}: {e}", file=sys.stderr)
        return 2
    engines = ALGORITHMS[args.algorithm]
    if args.engine and args.engine not in engines:
        print(f"error: {args.algorithm} runs on engine(s) {', '.join(engines)}", file=sys.stderr)
        return 2
    say = (lambda *a, **k: None) if args.json else print
    tree, not_evaluated = None, None
    ours_tabular = needs_tree(args.algorithm, args.engine) and (args.engine or engines[0]) == "ours"
    try:
        if ours_tabular:
            say(
                f"{game}: listing the tree (or, past {args.max_nodes:,} histories, walking its "
                "DAG of merged histories) ...",
                flush=True,
            )
            tree = tree_or_dag(game, max_nodes=args.max_nodes)
        else:
            tree = enumerate_tree(game, max_nodes=args.max_nodes)
    except TreeTooLarge as e:
        if needs_tree(args.algorithm, args.engine):
            print(f"error: {e}", file=sys.stderr)
            return 2
        not_evaluated = unevaluable_reason(e)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    tb = turn_based(game)
    zero_sum = evaluate.is_two_player_zero_sum(tb)
    dag_note = None
    if is_dag(tree):
        dag_note = (
            f"past {args.max_nodes:,} histories: CFR over its {tree.dag.mode} DAG of "
            f"merged histories (cfr.dag, walked in {tree.dag.seconds:.1f} s); "
            "NashConv from its exact best responses"
        )
        size = f"{tree.num_nodes:,} DAG nodes, {tree.num_infosets:,} information sets ({tree.dag.mode} keys)"
    elif tree is not None:
        size = f"{tree.num_nodes:,} histories, {tree.num_infosets:,} information states"
    else:
        size = f"past {args.max_nodes:,} histories, not enumerated"
    say(
        f"{game}: {size}, {game.num_players()} players; {args.algorithm} on engine "
        f"{args.engine or engines[0]}, seed {args.seed}"
    )
    if not_evaluated:
        say(f"  {not_evaluated}")
    if dag_note:
        say(f"  {dag_note}")
    if not zero_sum:
        say(
            "  not two-player zero-sum: the average strategy is an approximation whose NashConv "
            "need not reach 0 (CFR converges to a coarse-correlated equilibrium there)"
        )

    def progress(row):
        quality = "NashConv not evaluated" if row["nash_conv"] is None else f"NashConv {row['nash_conv']:.6g}"
        if row["exploitability"] is not None:
            quality += f"  exploitability {row['exploitability']:.6g}"
        if row.get("visited") is not None:
            quality += f"  {row['visited']:,} information states visited"
        say(
            f"  iteration {row['iteration']:>8}  {row['seconds']:8.3f} s  {quality}", flush=True
        ) if not args.json else None

    result = run(
        game,
        args.algorithm,
        iterations=args.iterations,
        seconds=args.seconds,
        engine=args.engine,
        seed=args.seed,
        progress=progress,
        tree=tree,
        not_evaluated=not_evaluated,
    )
    last = result.curve[-1]
    rate = last["iteration"] / result.seconds if result.seconds > 0 else float("inf")
    summary = {
        "game": str(game),
        "algorithm": args.algorithm,
        "engine": args.engine or engines[0],
        "seed": args.seed,
        "histories": tree.num_nodes if tree is not None and not is_dag(tree) else None,
        "dag_nodes": tree.num_nodes if is_dag(tree) else None,
        "dag_mode": tree.dag.mode if is_dag(tree) else None,
        "information_states": tree.num_infosets if tree is not None else None,
        "information_states_visited": last.get("visited"),
        "iterations": last["iteration"],
        "seconds": result.seconds,
        "iterations_per_second": rate,
        "nash_conv": last["nash_conv"],
        "exploitability": last["exploitability"],
        "not_evaluated": not_evaluated,
        "two_player_zero_sum": zero_sum,
        "curve": result.curve,
    }
    if args.save:
        meta = {}
        if last.get("visited") is not None:
            meta = {
                "information_states_visited": last["visited"],
                "unvisited": "absent from this file; the cfr bot plays them uniformly",
            }
        if not_evaluated:
            meta["not_evaluated"] = not_evaluated
        if is_dag(tree):
            from cfr.dag import KEYS

            meta["keys"] = KEYS[tree.dag.mode]
        try:
            save_policy(
                args.save,
                game=game,
                policy=result.policy,
                turn_based=tb is not game and str(tb) != str(game),
                algorithm=args.algorithm,
                engine=summary["engine"],
                iterations=last["iteration"],
                seed=args.seed,
                nash_conv=last["nash_conv"],
                exploitability=last["exploitability"],
                **meta,
            )
        except OSError as e:
            print(f"error: --save {args.save}: {e.strerror}", file=sys.stderr)
            return 2
        summary["saved"] = args.save
        say(f"average policy saved to {args.save}")
    if args.curve:
        if args.curve.endswith(".json"):
            with open(args.curve, "w") as f:
                json.dump(result.curve, f, indent=1)
        else:
            with open(args.curve, "w", newline="") as f:
                w = csv.DictWriter(
                    f, fieldnames=["iteration", "seconds", "nash_conv", "exploitability", "visited"]
                )
                w.writeheader()
                w.writerows(result.curve)
        say(f"curve written to {args.curve}")
    if args.json:
        print(json.dumps(summary))
    else:
        quality = f"NashConv {last['nash_conv']:.6g}" if last["nash_conv"] is not None else not_evaluated
        print(f"{last['iteration']} iterations in {result.seconds:.3f} s ({rate:,.0f}/s); {quality}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

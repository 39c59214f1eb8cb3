"""Ludii's skill trace of any game: how often twice the search budget beats the budget.

    python -m experiments.skill_trace --game tic_tac_toe --budget 4 --levels 5 --games 40
    python -m experiments.skill_trace --game "y_game(board_size=5)" --agent mcts --budget 16

Level k plays ``--agent`` (a spec without its budget: ``mcts``, ``mcts:uct_c=1.4``,
...) with ``--budget * 2**(k+1)`` simulations against itself with
``--budget * 2**k``, ``--games`` games per level with the seats alternating,
through the tournament machinery (joblib or Dask, ``analysis.tournament``). It
prints, for each level, the stronger agent's score (wins + draws / 2 per game)
with a Wilson 95% interval and its score from each seat, and the summary value
SkillTrace (``analysis.skill_trace``; meaning and formula in docs/metrics.md).
The games are kept in ``--out``/records.jsonl as they finish; a run started again
with the same settings plays only the missing games (more ``--games`` or
``--levels`` add games). Output: config.json, records.jsonl, skill_trace.csv,
skill_trace.json.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from pathlib import Path

from analysis.skill_trace import level_pairs, level_results, level_specs, skill_trace_value
from analysis.study import non_negative_int, positive_int, prepare_out, slug
from analysis.tournament import make_tasks, run_tasks

STUDY = "experiments.skill_trace"


def trace(
    game: str,
    agent: str,
    budget: int,
    levels: int,
    games: int,
    seed: int,
    out: Path,
    *,
    backend: str = "joblib",
    jobs: int = 1,
    scheduler: str | None = None,
    progress: bool = False,
) -> tuple[list, list[dict]]:
    """The trace's levels (``analysis.skill_trace.Level``) and every game's record."""
    specs = level_specs(agent, budget, levels)
    tasks = make_tasks(game, specs, games, seed, pairs=level_pairs(levels))
    records = run_tasks(
        tasks,
        out / "records.jsonl",
        backend=backend,
        n_jobs=jobs,
        scheduler=scheduler,
        progress=progress,
        desc="skill-trace games",
    )
    results = [level_results(records, specs[k].label, specs[k + 1].label) for k in range(levels)]
    return results, records


def table(results) -> str:
    lines = [
        f"{'level':<7}{'stronger':>10}{'weaker':>10}{'games':>7}{'score':>8}  95% interval"
        f"      {'moving first':>13}{'moving second':>14}"
    ]
    for k, r in enumerate(results):
        low, high = r.interval
        second = r.games - r.strong_first
        lines.append(
            f"{k:<7}{r.strong:>10}{r.weak:>10}{r.games:>7}{r.score:>8.3f}  [{low:.3f}, {high:.3f}]"
            f"    {r.score_first:>6.1f}/{r.strong_first:<6}{r.score_second:>7.1f}/{second:<6}"
        )
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog=f"python -m {STUDY}", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, help="a pyspiel game string, e.g. tic_tac_toe")
    parser.add_argument(
        "--agent", default="mcts", help="agent spec without its budget (default mcts: OpenSpiel's UCT)"
    )
    parser.add_argument(
        "--budget", type=positive_int, default=8, help="simulations of the weakest agent (default 8)"
    )
    parser.add_argument("--levels", type=positive_int, default=4, help="doublings played (default 4)")
    parser.add_argument("--games", type=positive_int, default=40, help="games per level (default 40)")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="the run's seed (default 0)")
    parser.add_argument("--backend", choices=("joblib", "dask"), default="joblib")
    parser.add_argument("--scheduler", help="a Dask scheduler address (with --backend dask)")
    parser.add_argument("--jobs", type=positive_int, default=2, help="worker processes (default 2)")
    parser.add_argument(
        "--out",
        help="output directory, resumed if it exists (default results/skill_trace/<game>__<agent>__...)",
    )
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)

    import games  # noqa: F401  (registers this toolkit's games)

    try:
        level_specs(args.agent, args.budget, args.levels)
    except (ValueError, RuntimeError) as err:
        parser.error(str(err))
    out = Path(
        args.out
        or f"results/skill_trace/{slug(args.game)}__{slug(args.agent)}__b{args.budget}__seed{args.seed}"
    )
    config = {
        "game": args.game,
        "agent": args.agent,
        "budget": args.budget,
        "levels": args.levels,
        "games": args.games,
        "seed": args.seed,
    }
    prepare_out(out, STUDY, config, resume_keys=("game", "agent", "budget", "seed"))
    started = time.monotonic()
    try:
        results, _ = trace(
            args.game,
            args.agent,
            args.budget,
            args.levels,
            args.games,
            args.seed,
            out,
            backend=args.backend,
            jobs=args.jobs,
            scheduler=args.scheduler,
            progress=not args.no_progress,
        )
    except ValueError as err:
        parser.error(str(err))
    value = skill_trace_value([r.score for r in results])
    with open(out / "skill_trace.csv", "w", newline="") as f:
        rows = [r.as_dict() for r in results]
        w = csv.DictWriter(f, fieldnames=["level", *rows[0]])
        w.writeheader()
        for k, row in enumerate(rows):
            w.writerow({"level": k, **row})
    doc = {**config, "levels_played": [r.as_dict() for r in results], "SkillTrace": value}
    (out / "skill_trace.json").write_text(json.dumps(doc, indent=2) + "\n")
    print(
        f"{args.game}: skill trace of {args.agent} from {args.budget} simulations, {args.games} games a level"
    )
    print(table(results))
    print(f"SkillTrace {value:.3f}")
    print(f"written to {out} ({time.monotonic() - started:.1f}s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

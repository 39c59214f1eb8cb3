"""Playing strength against compute: our MCTS, OpenSpiel's MCTS, alpha-beta and Random.

    python -m experiments.strength_plots --out results/strength             # quick (minutes, 2 cores)
    python -m experiments.strength_plots --full --out results/strength_full

For each game, a round robin between uniform Random, our MCTS and OpenSpiel's
C++ MCTS at several simulation budgets, and alpha-beta at several depths; a
Bayesian Bradley-Terry fit turns the records into Elo-scale ratings with
Random anchored at 0. Two plots per game: rating against simulations per
move (alpha-beta as horizontal bands, since it has no simulation budget) and
rating against thinking time per game (where our Cython MCTS and OpenSpiel's
MCTS on a Python-registered game compare at equal cost).

Output in ``--out``: config.json, records/<game>.jsonl (resumable),
summary.md (one leaderboard per game), leaderboard_<game>.csv, and
rating_vs_simulations_<game>.png/.svg, rating_vs_time_<game>.png/.svg.
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from pathlib import Path

from agents import BotSpec
from analysis.plots import plot_rating_vs_compute
from analysis.ratings import fit_ratings, leaderboard_table
from analysis.study import int_list, positive_int, prepare_out, say, settings, slug, study_parser
from analysis.tournament import make_tasks, run_tasks

STUDY = "experiments.strength_plots"
IMPORTS = ("games.y_family", "games.flipway")

QUICK = dict(
    games="double_o_y(board_size=6);y_game(board_size=6)",
    mcts="10,30,100,300,1000,3000",
    openspiel_mcts="10,30,100,300",
    alphabeta="1,2",
    games_per_pair=16,
)
FULL = dict(
    games="double_o_y(board_size=8);defector_y(board_size=8);y_game(board_size=8);flipway(board_size=7,repetition=draw)",
    mcts="10,30,100,300,1000,3000,10000",
    openspiel_mcts="10,30,100,300,1000,3000",
    alphabeta="1,2,3",
    games_per_pair=40,
)


def players(cfg) -> list[BotSpec]:
    specs = [BotSpec.make("random")]
    specs += [BotSpec.make("mcts", simulations=s) for s in cfg["mcts_list"]]
    specs += [BotSpec.make("openspiel_mcts", simulations=s) for s in cfg["openspiel_list"]]
    specs += [BotSpec.make("alphabeta", depth=d) for d in cfg["alphabeta_list"]]
    return specs


def main(argv=None) -> int:
    parser = study_parser(STUDY, __doc__)
    parser.add_argument("--games", help="game strings separated by ';'")
    parser.add_argument("--mcts", help="simulation budgets of our MCTS (comma-separated; '' for none)")
    parser.add_argument("--openspiel-mcts", help="simulation budgets of OpenSpiel's MCTS ('' for none)")
    parser.add_argument("--alphabeta", help="alpha-beta depths ('' for none)")
    parser.add_argument("--games-per-pair", type=positive_int, help="games per pairing, seats alternating")
    args = parser.parse_args(argv)
    cfg = settings(args, QUICK, FULL)
    for key, name in (
        ("mcts", "mcts_list"),
        ("openspiel_mcts", "openspiel_list"),
        ("alphabeta", "alphabeta_list"),
    ):
        flag = key.replace("_", "-")
        cfg[name] = int_list(cfg[key], flag, parser)
        if any(v < 1 for v in cfg[name]):
            parser.error(f"--{flag} must list positive integers, got {cfg[key]!r}")
    game_list = [g.strip() for g in cfg["games"].split(";") if g.strip()]
    from analysis.tournament import load_game

    for game in game_list:
        try:
            load_game(game, IMPORTS)
        except Exception as error:
            parser.error(f"cannot load game {game!r}: {str(error).splitlines()[0]}")
    specs = players(cfg)
    if len(specs) < 2:
        parser.error("need at least one bot besides Random")
    cfg.update(seed=args.seed, full=args.full)
    out = prepare_out(args.out, STUDY, cfg, ("seed",))
    start = time.perf_counter()
    sections = []
    for game in game_list:
        tasks = make_tasks(game, specs, cfg["games_per_pair"], args.seed, imports=IMPORTS)
        say(f"{game}: {len(specs)} players, {len(tasks)} games")
        records = run_tasks(
            tasks,
            out / "records" / f"{slug(game)}.jsonl",
            backend=args.backend,
            n_jobs=args.jobs,
            scheduler=args.scheduler,
            progress=not args.no_progress,
            desc=game,
        )
        fit = fit_ratings(records)
        (out / f"leaderboard_{slug(game)}.csv").write_text(leaderboard_table(fit, "csv"))
        sections.append(
            f"## {game}\n\n{cfg['games_per_pair']} games per pairing, round robin of "
            f"{len(specs)} players.\n\n" + leaderboard_table(fit)
        )
        plot_game(out, game, fit, records, specs)
        print(f"\n{game}\n" + leaderboard_table(fit))
    (out / "summary.md").write_text(
        "# Strength against compute\n\nRatings: Bayesian Bradley-Terry "
        "(Elo scale), uniform Random anchored at 0, 95% Laplace intervals.\n\n" + "\n".join(sections)
    )
    say(f"done in {time.perf_counter() - start:.0f} s; results in {out}")
    return 0


def plot_game(out: Path, game: str, fit, records, specs) -> None:
    """Rating against simulations, and against measured thinking time per game."""
    thinking: dict[str, list[float]] = defaultdict(list)
    for r in records:
        for seat, name in enumerate(r["players"]):
            thinking[name].append(r["seconds"][seat])
    by_sims: dict[str, list] = defaultdict(list)
    by_time: dict[str, list] = defaultdict(list)
    flat = {}
    names = {"mcts": "our MCTS (Cython)", "openspiel_mcts": "OpenSpiel MCTS (C++)", "alphabeta": "alpha-beta"}
    for spec in specs:
        if spec.kind == "random":
            continue
        row = fit[spec.label]
        options = dict(spec.options)
        seconds = sum(thinking[spec.label]) / max(1, len(thinking[spec.label]))
        point = (row.rating, row.low, row.high)
        if "simulations" in options:
            by_sims[names[spec.kind]].append((options["simulations"], *point))
        else:
            flat[f"alpha-beta depth {options.get('depth')}"] = point
        if seconds > 0:
            by_time[names.get(spec.kind, spec.kind)].append((seconds, *point))
    if by_sims:
        plot_rating_vs_compute(
            by_sims,
            out / f"rating_vs_simulations_{slug(game)}",
            title=f"Strength vs simulations: {game}",
            flat=flat,
        )
    if by_time:
        plot_rating_vs_compute(
            by_time,
            out / f"rating_vs_time_{slug(game)}",
            title=f"Strength vs thinking time: {game}",
            xlabel="mean thinking time per game (seconds, log scale)",
        )


if __name__ == "__main__":
    from experiments.strength_plots import main as _main  # workers unpickle by module reference

    sys.exit(_main())

"""Compare Double-'0' Y's flip options, protocols and win timings (the main study).

    python -m experiments.compare_flip_options --out results/flip_options          # quick (minutes, 2 cores)
    python -m experiments.compare_flip_options --full --out results/flip_options_full

Variants: 00-Y with flip = all / opponents / friends x protocol = 1 / 122 x
win = turn_start / turn_end (12), with Defector Y (protocol 1 and 122, and
protocol 1 with Walton's local conversion) and plain Y as baselines, all on
one triangle side (``--board-size``).

Four measurements per variant, each answering a designer's question:
(a) first-player win rate in MCTS self-play, Wilson 95% interval, exact
    binomial test against 50% (Holm-corrected across the variants): is the
    game fair between competent players?
(b) exact value and winning openings from the exhaustive solver on small
    sides: is it a first-player win with perfect play, and how many openings
    win (few winning openings make the pie rule work better)?
(c) random-playout statistics from the games' kernels: length, flips per
    game, how full the board is at the end: does the flip rule change the
    texture of the game?
(d) relative strength: a strong MCTS against a weak one (10x simulations),
    seats alternating: does extra search pay off more in one variant
    (decisiveness, skill depth)?
and Ludii's Balance, Drawishness, Decisiveness, Drama and branching factor of
each variant's self-play games (a), replayed (``analysis.study_metrics``).

Exact values come from docs/solved_records.jsonl where it holds the game (the
same solver's published proofs: side 6 of a flip variant takes 2-27 minutes),
and from the solver in this run otherwise (Defector Y's local conversion).
summary.md ends with every variant's exact values on sides 2-7 and how they
run with the side; exact_values.csv holds the same.

Everything lands in ``--out``: config.json (configuration, git commit),
records/*.jsonl (every game, resumable), solver.jsonl, playouts.jsonl,
metrics.jsonl, summary.md, summary.csv, exact_values.csv, plots (PNG + SVG).
Rerunning the same command resumes: finished games, solves, metrics and playout
batches are not repeated.

Why ``--full``'s settings answer the question within about 3 hours on 2 cores:
600 self-play games a variant give Wilson intervals of +-4.0 points at a rate
of 50% (``analysis.stats.games_needed(0.04)`` is 597), against +-8 with the
quick run's 150: a rate of 45% or 55% excludes 50%, and two variants 6 points
apart are told apart (the 95% half-width of a difference of two such rates is
5.7 points). Side 11 is a playing size (66 cells, games of about 68 actions in
self-play) and 5000 simulations a move, five times the quick run's.
Cost, measured as CPU seconds a game in one process with every variant
interleaved, beside the quick settings (nice 5, other jobs on the cores): a
self-play game at side 11 and 5000 simulations takes 1.01 s (0.055 s at the
quick run's side 8 and 1000), a 5000-against-500 game 0.52 s; so 9,600
self-play and 6,400 strength games are about 13,000 CPU seconds, 1.8 hours on
2 free cores. 500,000 random playouts a variant take about 5 microseconds each
(40 s in all). Only Defector Y's local conversion is solved in the run (the
records hold the others), at most 1800 s for its side 6.
"""

from __future__ import annotations

import csv
import functools
import sys
import time
from pathlib import Path

from agents import BotSpec
from analysis.exact import exact_values, published_solves, side_pattern, value_cell, value_text
from analysis.playouts import MAX_SEED, random_playouts
from analysis.plots import plot_histograms, plot_intervals, plot_win_rates
from analysis.stats import first_player_advantage_from_records, holm, mean_and_ci, wilson_interval
from analysis.study import (
    int_list,
    positive_float,
    positive_int,
    prepare_out,
    resumable,
    say,
    settings,
    study_parser,
)
from analysis.study_metrics import metric_cells, metric_csv_fields, metric_heads, metrics_all
from analysis.tournament import make_tasks, run_tasks

STUDY = "experiments.compare_flip_options"
FLIPS = ("all", "opponents", "friends")
PROTOCOLS = (1, 122)
WINS = ("turn_start", "turn_end")
IMPORTS = ("games.y_family",)  # registers the three Y-family games in every worker

QUICK = dict(
    board_size=8,
    games=150,
    simulations=1000,
    strength_games=100,
    weak=100,
    strong=1000,
    solve_sizes="4,5",
    solve_time=120.0,
    playouts=50000,
)
FULL = dict(
    board_size=11,
    games=600,
    simulations=5000,
    strength_games=400,
    weak=500,
    strong=5000,
    solve_sizes="4,5,6",
    solve_time=1800.0,
    playouts=500000,
)


def variants(size: int) -> list[dict]:
    """Every variant as (label, family, game string); baselines last."""
    out = []
    for protocol in PROTOCOLS:
        for flip in FLIPS:
            for win in WINS:
                out.append(
                    {
                        "label": f"00-Y {flip}, p{protocol}, {win.replace('turn_', '')}",
                        "family": f"00-Y protocol {protocol}",
                        "game": f"double_o_y(board_size={size},flip={flip},protocol={protocol},win={win})",
                    }
                )
    for protocol in PROTOCOLS:
        out.append(
            {
                "label": f"Defector Y p{protocol}",
                "family": "baselines",
                "game": f"defector_y(board_size={size},protocol={protocol})",
            }
        )
    out.append(
        {
            "label": "Defector Y p1, local",
            "family": "baselines",
            "game": f"defector_y(board_size={size},protocol=1,conversion=local)",
        }
    )
    out.append({"label": "Y", "family": "baselines", "game": f"y_game(board_size={size})"})
    return out


def with_size(game: str, size: int) -> str:
    head, _, rest = game.partition("(")
    params = [p for p in rest.rstrip(")").split(",") if not p.startswith("board_size=")]
    return f"{head}(" + ",".join([f"board_size={size}"] + params) + ")"


# ----------------------------------------------------------------------------- (c) playouts


def _playouts(game: str, n: int, seed: int) -> dict:
    import numpy as np
    import pyspiel

    import games.y_family  # noqa: F401

    loaded = pyspiel.load_game(game)
    summary = random_playouts(game, loaded, loaded.new_core(), n, seed)
    cells = summary.cells or 1
    placements = np.asarray(summary.placements)
    flips = np.asarray(summary.flips)
    return {
        "game": game,
        "n": n,
        "seed": seed,
        "first_player_wins": summary.first_player_wins,
        "draws": summary.draws,
        "lengths": (placements + flips).tolist(),
        "flips": flips.tolist(),
        "filled": (1.0 - np.asarray(summary.empty_cells) / cells).round(5).tolist(),
        "seconds": summary.seconds,
    }


def playouts_all(games: list[str], n: int, seed: int, path: Path, n_jobs: int) -> dict[str, dict]:
    return resumable(
        games,
        path,
        n_jobs,
        reusable=lambda r: r["n"] == n and r["seed"] == seed,
        work=functools.partial(_playouts, n=n, seed=seed),
        announce=lambda k: f"(c) {n} random playouts for each of {k} variants",
    )


# ----------------------------------------------------------------------------- summary


def fmt_rate(rate, low, high, digits: int = 0) -> str:
    return f"{100 * rate:.{digits}f}% [{100 * low:.{digits}f}, {100 * high:.{digits}f}]"


def main(argv=None) -> int:
    parser = study_parser(STUDY, __doc__)
    parser.add_argument(
        "--board-size",
        type=positive_int,
        help=f"triangle side for (a), (c), (d) (quick {QUICK['board_size']}, full {FULL['board_size']})",
    )
    parser.add_argument("--games", type=positive_int, help="MCTS self-play games per variant (a)")
    parser.add_argument("--simulations", type=positive_int, help="MCTS simulations per move in self-play (a)")
    parser.add_argument("--strength-games", type=positive_int, help="strong-vs-weak games per variant (d)")
    parser.add_argument("--weak", type=positive_int, help="simulations of the weak MCTS (d)")
    parser.add_argument("--strong", type=positive_int, help="simulations of the strong MCTS (d)")
    parser.add_argument("--solve-sizes", help="comma-separated sides to solve exactly (b); '' skips")
    parser.add_argument(
        "--solve-time", type=positive_float, help="seconds per exact solve before giving up (b)"
    )
    parser.add_argument("--playouts", type=positive_int, help="random playouts per variant (c)")
    args = parser.parse_args(argv)
    cfg = settings(args, QUICK, FULL)
    sizes = int_list(cfg["solve_sizes"], "solve-sizes", parser)
    if args.seed > MAX_SEED - (cfg["playouts"] - 1):
        parser.error(
            f"--seed must be at most {MAX_SEED - (cfg['playouts'] - 1)}: playout i uses seed+i, "
            "an unsigned 64-bit integer"
        )
    if cfg["weak"] >= cfg["strong"]:
        parser.error("--weak must use fewer simulations than --strong")
    from games.boards import TRIANGLE_SIZES

    import games.y_family  # noqa: F401

    for size in [cfg["board_size"], *sizes]:
        if size not in TRIANGLE_SIZES:
            parser.error(f"board size {size} not available; triangle sides: {list(TRIANGLE_SIZES)}")
    cfg.update(seed=args.seed, full=args.full)
    out = prepare_out(
        args.out,
        STUDY,
        cfg,
        ("seed", "board_size", "games", "simulations", "strength_games", "weak", "strong", "playouts"),
    )
    (out / "records").mkdir(exist_ok=True)
    var = variants(cfg["board_size"])
    start = time.perf_counter()
    run_options = dict(
        backend=args.backend, n_jobs=args.jobs, scheduler=args.scheduler, progress=not args.no_progress
    )

    # (a) self-play
    selfplay_spec = BotSpec.make("mcts", simulations=cfg["simulations"])
    tasks = [
        t
        for v in var
        for t in make_tasks(v["game"], [selfplay_spec], cfg["games"], args.seed, "self", imports=IMPORTS)
    ]
    say(
        f"(a) MCTS self-play: {len(tasks)} games ({cfg['games']} per variant, "
        f"{cfg['simulations']} simulations/move)"
    )
    selfplay = run_tasks(tasks, out / "records" / "selfplay.jsonl", desc="(a) self-play", **run_options)

    # (d) strong vs weak
    weak = BotSpec.make("mcts", simulations=cfg["weak"])
    strong = BotSpec.make("mcts", simulations=cfg["strong"])
    tasks = [
        t
        for v in var
        for t in make_tasks(v["game"], [weak, strong], cfg["strength_games"], args.seed, imports=IMPORTS)
    ]
    say(f"(d) strong ({cfg['strong']}) vs weak ({cfg['weak']}) MCTS: {len(tasks)} games")
    strength = run_tasks(tasks, out / "records" / "strength.jsonl", desc="(d) strength", **run_options)

    # (b) exact solutions on small sides
    solve_games = [with_size(v["game"], s) for s in sizes for v in var]
    published = published_solves()
    solved = (
        exact_values(solve_games, cfg["solve_time"], out / "solver.jsonl", args.jobs, IMPORTS, published)
        if solve_games
        else {}
    )

    # (c) random playouts
    playouts = playouts_all(
        [v["game"] for v in var], cfg["playouts"], args.seed, out / "playouts.jsonl", args.jobs
    )

    rows = summarise(var, selfplay, strength, solved, playouts, sizes, strong.label)
    add_metric_columns(rows, selfplay, out, args.jobs, args.seed)
    write_outputs(out, rows, cfg, sizes, playouts, var)
    write_exact_by_side(out, var, {**published, **solved})
    print(conclusion(rows, cfg, sizes))
    say(f"done in {time.perf_counter() - start:.0f} s; results in {out}")
    return 0


def summarise(var, selfplay, strength, solved, playouts, sizes, strong_label) -> list[dict]:
    rows = []
    for v in var:
        game = v["game"]
        own = [r for r in selfplay if r["game"] == game]
        fpa = first_player_advantage_from_records(own)
        duel = [r for r in strength if r["game"] == game]
        strong_wins = sum(
            1 for r in duel if r["winner"] is not None and r["players"][r["winner"]] == strong_label
        )
        s_low, s_high = wilson_interval(strong_wins, len(duel))
        p = playouts[game]
        r_low, r_high = wilson_interval(p["first_player_wins"], p["n"])
        row = dict(
            v,
            selfplay_games=fpa.games,
            p1_rate=fpa.rate,
            p1_low=fpa.low,
            p1_high=fpa.high,
            p1_p=fpa.p_value,
            selfplay_length=mean_and_ci([r["length"] for r in own])[0],
            strength_games=len(duel),
            strong_rate=strong_wins / len(duel) if duel else float("nan"),
            strong_low=s_low,
            strong_high=s_high,
            random_games=p["n"],
            random_p1=p["first_player_wins"] / p["n"],
            random_p1_low=r_low,
            random_p1_high=r_high,
            random_length=mean_and_ci(p["lengths"]),
            random_flips=mean_and_ci(p["flips"]),
            random_filled=mean_and_ci(p["filled"]),
        )
        for size in sizes:
            row[f"solved_{size}"] = solved.get(with_size(game, size))
        rows.append(row)
    for row, adjusted in zip(rows, holm([r["p1_p"] for r in rows]), strict=True):
        row["p1_p_holm"] = adjusted
    return rows


def add_metric_columns(rows, selfplay, out: Path, n_jobs: int, seed: int) -> None:
    """Ludii's metrics of each variant's self-play games (``analysis.study_metrics``), as
    ``row["metrics"]``; measured once into metrics.jsonl and read back on a rerun."""
    games = {r["game"]: [g["actions"] for g in selfplay if g["game"] == r["game"]] for r in rows}
    metrics = metrics_all({g: (g, a) for g, a in games.items() if a}, out / "metrics.jsonl", n_jobs, seed)
    for r in rows:
        r["metrics"] = metrics.get(r["game"])


def write_outputs(out: Path, rows, cfg, sizes, playouts, var) -> None:
    size = cfg["board_size"]
    head = [
        "variant",
        f"P1 wins, MCTS self-play ({cfg['simulations']} sims)",
        "p (Holm)",
        f"strong wins ({cfg['strong']} vs {cfg['weak']} sims)",
        "P1 wins, random play",
        "random: actions/game",
        "random: flips/game",
        "random: board filled",
    ]
    head += [f"exact value, side {s}" for s in sizes]
    head += metric_heads()
    lines = [
        f"# Flip options compared on the side-{size} triangle",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    csv_rows = []
    for r in rows:
        cells = [
            r["label"],
            fmt_rate(r["p1_rate"], r["p1_low"], r["p1_high"]) + f" (n={r['selfplay_games']})",
            f"{r['p1_p_holm']:.2g}",
            fmt_rate(r["strong_rate"], r["strong_low"], r["strong_high"]) + f" (n={r['strength_games']})",
            fmt_rate(r["random_p1"], r["random_p1_low"], r["random_p1_high"], 1),
            f"{r['random_length'][0]:.1f}",
            f"{r['random_flips'][0]:.2f}",
            f"{100 * r['random_filled'][0]:.1f}%",
        ]
        cells += [value_text(r.get(f"solved_{s}")) for s in sizes]
        cells += metric_cells(r.get("metrics"))
        lines.append("| " + " | ".join(cells) + " |")
        solved_cols = {}
        for s in sizes:
            rec = r.get(f"solved_{s}") or {}
            solved_cols[f"value_side{s}"] = rec.get("value")
            solved_cols[f"winning_openings_side{s}"] = " ".join(rec.get("winning_first_moves") or [])
        csv_rows.append(
            {
                "variant": r["label"],
                "game": r["game"],
                "selfplay_games": r["selfplay_games"],
                "p1_win_rate": round(r["p1_rate"], 4),
                "p1_low": round(r["p1_low"], 4),
                "p1_high": round(r["p1_high"], 4),
                "p1_p_value": r["p1_p"],
                "p1_p_holm": r["p1_p_holm"],
                "selfplay_mean_length": round(r["selfplay_length"], 2),
                "strength_games": r["strength_games"],
                "strong_win_rate": round(r["strong_rate"], 4),
                "strong_low": round(r["strong_low"], 4),
                "strong_high": round(r["strong_high"], 4),
                "random_games": r["random_games"],
                "random_p1_win_rate": round(r["random_p1"], 4),
                "random_mean_actions": round(r["random_length"][0], 3),
                "random_mean_flips": round(r["random_flips"][0], 3),
                "random_mean_filled": round(r["random_filled"][0], 4),
                **solved_cols,
                **metric_csv_fields(r.get("metrics")),
            }
        )
    for s in sizes:
        winners = [(r["label"], (r.get(f"solved_{s}") or {}).get("winning_first_moves")) for r in rows]
        winners = [(label, moves) for label, moves in winners if moves]
        if winners:
            lines += [
                "",
                f"Winning first moves on side {s} (cells named as in the game's action strings):",
                "",
            ]
            lines += [f"- {label}: {' '.join(moves)}" for label, moves in winners]
    lines += [
        "",
        "Intervals are 95% Wilson intervals; p is the exact two-sided binomial test of the "
        "first-player rate against 50%, Holm-corrected over the variants. "
        "'actions/game' counts placements and flips. Balance to branching factor: Ludii's metrics of "
        "the self-play games (docs/metrics.md).",
        "",
    ]
    (out / "summary.md").write_text("\n".join(lines))
    with open(out / "summary.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(csv_rows[0]))
        writer.writeheader()
        writer.writerows(csv_rows)

    plot_win_rates(
        [
            dict(
                label=r["label"],
                value=r["p1_rate"],
                low=r["p1_low"],
                high=r["p1_high"],
                group=r["family"],
                note=f"n={r['selfplay_games']}",
            )
            for r in rows
        ],
        out / "first_player_mcts",
        title=f"First-player wins in MCTS self-play ({cfg['simulations']} simulations/move), side {size}",
        xlabel="first-player win rate (%), 95% Wilson interval",
    )
    plot_win_rates(
        [
            dict(
                label=r["label"],
                value=r["strong_rate"],
                low=r["strong_low"],
                high=r["strong_high"],
                group=r["family"],
                note=f"n={r['strength_games']}",
            )
            for r in rows
        ],
        out / "strength_gain",
        title=f"Strong ({cfg['strong']} sims) vs weak ({cfg['weak']} sims) MCTS, side {size}",
        xlabel="strong MCTS win rate (%), 95% Wilson interval, seats alternating",
        reference_label="50% (extra search does not help)",
    )
    plot_win_rates(
        [
            dict(
                label=r["label"],
                value=r["random_p1"],
                low=r["random_p1_low"],
                high=r["random_p1_high"],
                group=r["family"],
            )
            for r in rows
        ],
        out / "first_player_random",
        title=f"First-player wins in uniformly random play ({cfg['playouts']} games each), side {size}",
        xlabel="first-player win rate (%), 95% Wilson interval",
    )
    plot_intervals(
        [
            dict(
                label=r["label"],
                value=r["random_flips"][0],
                low=r["random_flips"][1],
                high=r["random_flips"][2],
                group=r["family"],
            )
            for r in rows
        ],
        out / "random_flips",
        title=f"Flips per game in random play, side {size}",
        xlabel="flips per game (mean, 95% interval)",
    )
    plot_histograms(
        {v["label"]: playouts[v["game"]]["lengths"] for v in var},
        out / "random_lengths",
        title=f"Game length in random play, side {size}",
        xlabel="actions per game (placements + flips)",
        columns=5,
    )


# ----------------------------------------------------------------------------- (b) exact values by side

#: The sides whose exact values the table of values by side shows (side 7: where solved).
EXACT_SIDES = tuple(range(2, 8))


def exact_by_side(var, solved: dict[str, dict], sides=EXACT_SIDES) -> list[dict]:
    """Per variant, its exact value on each side (the published record, else this run's
    solve, else none) and how the value runs over the sides."""
    rows = []
    for v in var:
        values = {s: solved.get(with_size(v["game"], s)) for s in sides}
        rows.append(
            {"label": v["label"], "game": v["game"], "values": values, "pattern": side_pattern(values)}
        )
    return rows


def exact_by_side_lines(rows, sides=EXACT_SIDES) -> list[str]:
    """The markdown section of the exact values by side, with the pattern of each variant."""
    sides = [s for s in sides if any(value_cell(r["values"][s]) != "-" for r in rows)]
    head = ["variant"] + [f"side {s}" for s in sides] + ["how the value runs with the side"]
    lines = [
        "",
        "## Exact values by side",
        "",
        "The first player's result with perfect play (+1 wins, with how many openings win; -1 loses), "
        "from docs/solved_records.jsonl where it holds the game, solved in this run otherwise "
        "(marked r); - where neither has a value.",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for r in rows:
        cells = []
        for s in sides:
            rec = r["values"][s]
            mark = " r" if rec and "source" not in rec and value_cell(rec) != "-" else ""
            cells.append(value_cell(rec) + mark)
        lines.append("| " + " | ".join([r["label"], *cells, r["pattern"]]) + " |")
    changing = [r["label"] for r in rows if "change" in r["pattern"]]
    lines += [
        "",
        f"The value changes with the side in {len(changing)} of {len(rows)} variants"
        + (f": {', '.join(changing)}." if changing else "."),
        "",
    ]
    return lines


def write_exact_by_side(out: Path, var, solved: dict[str, dict]) -> None:
    """Append the exact values by side to summary.md and write them to exact_values.csv."""
    rows = exact_by_side(var, solved)
    with open(out / "summary.md", "a") as handle:
        handle.write("\n".join(exact_by_side_lines(rows)))
    with open(out / "exact_values.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["variant", "game", *(f"value_side{s}" for s in EXACT_SIDES), "pattern"])
        for r in rows:
            values = [(r["values"][s] or {}).get("value") for s in EXACT_SIDES]
            writer.writerow([r["label"], r["game"], *["" if x is None else x for x in values], r["pattern"]])


def conclusion(rows, cfg, sizes) -> str:
    """Statements that follow from the numbers, with the numbers; nothing more."""
    lines = [
        f"Conclusions (side {cfg['board_size']}; MCTS {cfg['simulations']} simulations/move, "
        f"{cfg['games']} self-play games per variant):"
    ]
    favour = [r for r in rows if r["p1_p_holm"] < 0.05 and r["p1_rate"] > 0.5]
    against = [r for r in rows if r["p1_p_holm"] < 0.05 and r["p1_rate"] < 0.5]
    even = [r for r in rows if r["p1_p_holm"] >= 0.05]

    def names(group):
        return "; ".join(f"{r['label']} {100 * r['p1_rate']:.0f}%" for r in group) or "none"

    lines.append(f"- First player significantly ahead in self-play (Holm p < 0.05): {names(favour)}.")
    lines.append(f"- Second player significantly ahead: {names(against)}.")
    lines.append(f"- Not distinguishable from 50% with these games: {names(even)}.")
    for s in sizes:
        solved = [(r, r.get(f"solved_{s}")) for r in rows]
        wins = [r["label"] for r, rec in solved if rec and rec.get("value") is not None and rec["value"] > 0]
        losses = [
            r["label"] for r, rec in solved if rec and rec.get("value") is not None and rec["value"] < 0
        ]
        open_ = [r["label"] for r, rec in solved if not rec or rec.get("value") is None]
        lines.append(
            f"- Side {s}, exact: first-player wins: {', '.join(wins) or 'none'}; "
            f"second-player wins: {', '.join(losses) or 'none'}"
            + (f"; unsolved: {', '.join(open_)}" if open_ else "")
            + "."
        )
    by_strength = sorted(rows, key=lambda r: r["strong_rate"])
    low, high = by_strength[0], by_strength[-1]
    separated = high["strong_low"] > low["strong_high"]
    lines.append(
        f"- Extra search ({cfg['strong']} vs {cfg['weak']} simulations) pays most in {high['label']} "
        f"({fmt_rate(high['strong_rate'], high['strong_low'], high['strong_high'])}) and least in "
        f"{low['label']} ({fmt_rate(low['strong_rate'], low['strong_low'], low['strong_high'])}); "
        + (
            "these two intervals do not overlap (but they are the extremes of "
            f"{len(rows)} variants, picked after the fact: a lead to test, not a ranking)."
            if separated
            else "their intervals overlap, so these games do not rank the variants by skill depth."
        )
    )
    flips = sorted(rows, key=lambda r: r["random_flips"][0])
    lengths = sorted(rows, key=lambda r: r["random_length"][0])
    lines.append(
        f"- Random play: flips per game from {flips[0]['random_flips'][0]:.2f} ({flips[0]['label']}) "
        f"to {flips[-1]['random_flips'][0]:.2f} ({flips[-1]['label']}); actions per game from "
        f"{lengths[0]['random_length'][0]:.1f} ({lengths[0]['label']}) to "
        f"{lengths[-1]['random_length'][0]:.1f} ({lengths[-1]['label']})."
    )
    return "\n".join(lines)


if __name__ == "__main__":
    from experiments.compare_flip_options import main as _main  # workers unpickle by module reference

    sys.exit(_main())

"""How much does moving first matter, and do the balancing rules remove it?

    python -m experiments.first_player_advantage --out results/fpa            # quick (minutes, 2 cores)
    python -m experiments.first_player_advantage --full --out results/fpa_full

Games: Defector Y (protocol 1 and 122), Flipway (empty board, empty board with
the pie rule, checkered setup), plain Y and Caeth Y, each without and with the
swap rule. For
each game, board size and MCTS strength: the first player's win rate in MCTS
self-play with its Wilson 95% interval and an exact binomial test against 50%
(Holm-corrected over all cells); for the board sizes the solver finishes
within ``--solve-time``: the exact value (who wins with perfect play) and how
many openings win.

Flipway runs with ``repetition=draw`` so that every game (and every search)
ends; its draws are reported and left out of the first-player rate, which is
computed over decisive games.

Exact values come from docs/solved_records.jsonl where it holds the game
(Y and Defector Y: the same solver's published proofs, some of which took half
an hour), and from the solver in this run otherwise.

Output in ``--out``: config.json, records/selfplay.jsonl (every game;
resumable), solver.jsonl, metrics.jsonl (Ludii's Balance, Drawishness,
Decisiveness, Drama and branching factor of each cell's self-play games,
``analysis.study_metrics``; resumable), summary.md, summary.csv,
first_player.png/.svg.

Why ``--full``'s settings answer the question within about 3 hours on 2 cores:
600 games a cell give Wilson intervals of +-4.0 points at a rate of 50%
(``analysis.stats.games_needed(0.04)`` is 597): a rate of 45% or 55% excludes
50%, and two cells 6 points apart are told apart (the 95% half-width of a
difference of two such rates is 5.7 points). The sizes reach the playing boards
(triangle 11, Flipway 9x9); three budgets 50x apart (100, 1000, 5000
simulations a move) tell an edge that grows with skill from one that fades.
Cost, measured as CPU seconds a game in one process beside the quick settings
(nice 5, other jobs on the cores): one game of each of the 37 (game, size)
cells takes 0.33 s at 100 simulations, 2.72 s at 1000 and about 12.1 s at 5000
(the five costliest cells measured at both budgets: 4.44x from 1000 to 5000),
so 600 games a cell are about 9,100 CPU seconds, 1.3 hours on 2 free cores.
The solves add at most five 300-second runs (Caeth Y sides 5 and 6, with and
without swap, and Y with swap side 6; Caeth Y side 5 does not finish in 900 s,
docs/solved.md); the others take seconds or are read from the records.
10,000 simulations would double the self-play to about 2.2 hours, past the
budget on a shared machine.
"""

from __future__ import annotations

import csv
import sys
import time
from pathlib import Path

from agents import BotSpec
from analysis.exact import exact_values, value_text
from analysis.plots import plot_win_rates
from analysis.stats import first_player_advantage_from_records, holm
from analysis.study import int_list, positive_float, positive_int, prepare_out, say, settings, study_parser
from analysis.study_metrics import metric_cells, metric_csv_fields, metric_heads, metrics_all
from analysis.tournament import make_tasks, run_tasks

STUDY = "experiments.first_player_advantage"
IMPORTS = ("games.y_family", "games.flipway", "games.caeth_y")

QUICK = dict(
    y_sizes="5,7,9",
    flipway_sizes="5,7",
    simulations="100,1000",
    games=100,
    solve_y_sizes="4,5",
    solve_flipway_sizes="4",
    solve_time=60.0,
)
FULL = dict(
    y_sizes="5,7,9,11",
    flipway_sizes="5,7,9",
    simulations="100,1000,5000",
    games=600,
    solve_y_sizes="4,5,6",
    solve_flipway_sizes="4,5",
    solve_time=300.0,
)


def game_families() -> list[dict]:
    """(label, board kind, game string template with {n})."""
    return [
        {"label": "Defector Y p1", "board": "y", "game": "defector_y(board_size={n},protocol=1)"},
        {"label": "Defector Y p122", "board": "y", "game": "defector_y(board_size={n},protocol=122)"},
        {"label": "Flipway", "board": "flipway", "game": "flipway(board_size={n},repetition=draw)"},
        {
            "label": "Flipway + pie",
            "board": "flipway",
            "game": "flipway(board_size={n},pie=true,repetition=draw)",
        },
        {
            "label": "Flipway checkered",
            "board": "flipway",
            "game": "flipway(board_size={n},repetition=draw,setup=checkered)",
        },
        {"label": "Y", "board": "y", "game": "y_game(board_size={n})"},
        {"label": "Y + swap", "board": "y", "game": "y_game(board_size={n},swap=true)"},
        {"label": "Caeth Y", "board": "y", "game": "caeth_y(board_size={n})"},
        {"label": "Caeth Y (swap)", "board": "y", "game": "caeth_y(board_size={n},swap=true)"},
    ]


def main(argv=None) -> int:
    parser = study_parser(STUDY, __doc__)
    parser.add_argument("--y-sizes", help="triangle sides for the Y games (comma-separated)")
    parser.add_argument("--flipway-sizes", help="Flipway board sizes (comma-separated)")
    parser.add_argument("--simulations", help="MCTS simulations per move, one self-play series each")
    parser.add_argument("--games", type=positive_int, help="self-play games per game, size and strength")
    parser.add_argument("--solve-y-sizes", help="triangle sides to solve exactly ('' skips)")
    parser.add_argument("--solve-flipway-sizes", help="Flipway sizes to solve exactly ('' skips)")
    parser.add_argument("--solve-time", type=positive_float, help="seconds per exact solve before giving up")
    parser.add_argument("--only", help="comma-separated substrings: keep games whose label contains one")
    args = parser.parse_args(argv)
    cfg = settings(args, QUICK, FULL)
    sizes = {
        "y": int_list(cfg["y_sizes"], "y-sizes", parser),
        "flipway": int_list(cfg["flipway_sizes"], "flipway-sizes", parser),
    }
    solve_sizes = {
        "y": int_list(cfg["solve_y_sizes"], "solve-y-sizes", parser),
        "flipway": int_list(cfg["solve_flipway_sizes"], "solve-flipway-sizes", parser),
    }
    budgets = int_list(cfg["simulations"], "simulations", parser)
    if not budgets or min(budgets) < 1:
        parser.error(f"--simulations must be positive integers, got {cfg['simulations']!r}")
    families = game_families()
    if args.only:
        wanted = [w.strip().lower() for w in args.only.split(",") if w.strip()]
        families = [f for f in families if any(w in f["label"].lower() for w in wanted)]
        if not families:
            parser.error(
                f"--only {args.only!r} matches none of: {', '.join(f['label'] for f in game_families())}"
            )
    from games.boards import TRIANGLE_SIZES

    import games.caeth_y  # noqa: F401
    import games.flipway  # noqa: F401
    import games.y_family  # noqa: F401
    from games.flipway import SIZES as FLIPWAY_SIZES

    allowed = {"y": TRIANGLE_SIZES, "flipway": FLIPWAY_SIZES}
    for board in ("y", "flipway"):
        for n in sizes[board] + solve_sizes[board]:
            if n not in allowed[board]:
                parser.error(
                    f"size {n} is not available for {board} boards; choose from {list(allowed[board])}"
                )
    cfg.update(seed=args.seed, full=args.full, only=args.only)
    out = prepare_out(args.out, STUDY, cfg, ("seed", "games"))
    start = time.perf_counter()

    cells = [(f, n, sims) for f in families for n in sizes[f["board"]] for sims in budgets]
    tasks = []
    for family, n, sims in cells:
        spec = BotSpec.make("mcts", simulations=sims)
        tasks += make_tasks(
            family["game"].format(n=n), [spec], cfg["games"], args.seed, "self", imports=IMPORTS
        )
    say(f"MCTS self-play: {len(tasks)} games over {len(cells)} (game, size, strength) cells")
    records = run_tasks(
        tasks,
        out / "records" / "selfplay.jsonl",
        backend=args.backend,
        n_jobs=args.jobs,
        scheduler=args.scheduler,
        progress=not args.no_progress,
        desc="self-play",
    )

    solve_games = [f["game"].format(n=n) for f in families for n in solve_sizes[f["board"]]]
    solved = (
        exact_values(solve_games, cfg["solve_time"], out / "solver.jsonl", args.jobs, IMPORTS)
        if solve_games
        else {}
    )

    own_games = {}
    for family, n, sims in cells:
        game = family["game"].format(n=n)
        label = BotSpec.make("mcts", simulations=sims).label
        own_games[cell_key(game, label)] = [
            r for r in records if r["game"] == game and r["players"][0] == label
        ]
    metrics = metrics_all(
        {key: (own[0]["game"], [r["actions"] for r in own]) for key, own in own_games.items() if own},
        out / "metrics.jsonl",
        args.jobs,
        args.seed,
    )

    rows = []
    for family, n, sims in cells:
        game = family["game"].format(n=n)
        key = cell_key(game, BotSpec.make("mcts", simulations=sims).label)
        own = own_games[key]
        fpa = first_player_advantage_from_records(own)
        rows.append(
            {
                "game": family["label"],
                "size": n,
                "simulations": sims,
                "game_string": game,
                "decisive": fpa.decisive,
                "draws": fpa.draws,
                "rate": fpa.rate,
                "low": fpa.low,
                "high": fpa.high,
                "p": fpa.p_value,
                "exact": solved.get(game),
                "metrics": metrics.get(key),
            }
        )
    for row, adjusted in zip(rows, holm([r["p"] for r in rows]), strict=True):
        row["p_holm"] = adjusted
    write_outputs(out, rows, families, solve_sizes, solved, budgets, cfg)
    print(conclusion(rows, families, solve_sizes, solved))
    say(f"done in {time.perf_counter() - start:.0f} s; results in {out}")
    return 0


def cell_key(game: str, label: str) -> str:
    """A (game, strength) cell's key in metrics.jsonl."""
    return f"{game} | {label}"


def pct(row) -> str:
    if row["decisive"] == 0:
        return "no decisive game"
    return f"{100 * row['rate']:.0f}% [{100 * row['low']:.0f}, {100 * row['high']:.0f}]"


def write_outputs(out: Path, rows, families, solve_sizes, solved, budgets, cfg) -> None:
    head = ["game", "size"] + [f"P1 wins, MCTS {s} sims" for s in budgets] + ["draws", "exact value"]
    lines = ["# First-player advantage", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    by_cell: dict[tuple[str, int], dict[int, dict]] = {}
    for row in rows:
        by_cell.setdefault((row["game"], row["size"]), {})[row["simulations"]] = row
    for (game, n), per in by_cell.items():
        exact = per[budgets[0]]["exact"]
        cells = []
        for s in budgets:
            r = per[s]
            star = "*" if r["p_holm"] < 0.05 else ""
            cells.append(f"{pct(r)}{star} (n={r['decisive']})")
        draws = ", ".join(str(per[s]["draws"]) for s in budgets)
        lines.append(
            "| " + " | ".join([game, str(n), *cells, draws, value_text(exact) if exact else "-"]) + " |"
        )
    exact_rows = [
        (f["label"], n, solved.get(f["game"].format(n=n))) for f in families for n in solve_sizes[f["board"]]
    ]
    if exact_rows:
        lines += [
            "",
            "Exact values (solver, first player's result with perfect play):",
            "",
            "| game | size | value | winning first moves |",
            "|---|---|---|---|",
        ]
        for label, n, rec in exact_rows:
            moves = " ".join((rec or {}).get("winning_first_moves") or []) or "-"
            lines.append(f"| {label} | {n} | {value_text(rec)} | {moves} |")
    head = ["game", "size", "MCTS sims", *metric_heads()]
    lines += [
        "",
        "Ludii's metrics of the same self-play games (docs/metrics.md; Decisiveness and Drama "
        "evaluate each position from random games):",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for r in rows:
        lines.append(
            "| "
            + " | ".join([r["game"], str(r["size"]), str(r["simulations"]), *metric_cells(r["metrics"])])
            + " |"
        )
    lines += [
        "",
        "Rates are over decisive games with 95% Wilson intervals; * marks a rate that differs "
        "from 50% (exact binomial test, Holm-corrected over all cells, p < 0.05). Draws "
        "(Flipway's repetition rule) are listed per strength.",
        "",
    ]
    (out / "summary.md").write_text("\n".join(lines))
    with open(out / "summary.csv", "w", newline="") as handle:
        fields = [
            "game",
            "size",
            "simulations",
            "game_string",
            "decisive",
            "draws",
            "rate",
            "low",
            "high",
            "p",
            "p_holm",
            "exact_value",
            "winning_first_moves",
            *metric_csv_fields(None),
        ]
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        for r in rows:
            exact = r["exact"] or {}
            writer.writerow(
                {
                    **{k: r[k] for k in fields[:11]},
                    "exact_value": exact.get("value"),
                    "winning_first_moves": " ".join(exact.get("winning_first_moves") or []),
                    **metric_csv_fields(r["metrics"]),
                }
            )
    plot_rows = [
        dict(
            label=f"{r['game']}, size {r['size']}, {r['simulations']} sims",
            value=r["rate"],
            low=r["low"],
            high=r["high"],
            group=f"MCTS {r['simulations']} simulations/move",
            note=f"n={r['decisive']}",
        )
        for r in sorted(rows, key=lambda r: (r["game"], r["size"], r["simulations"]))
        if r["decisive"]
    ]
    plot_win_rates(
        plot_rows,
        out / "first_player",
        title="First-player wins in MCTS self-play",
        xlabel="first-player win rate over decisive games (%), 95% Wilson interval",
    )


def conclusion(rows, families, solve_sizes, solved) -> str:
    lines = ["Conclusions (MCTS self-play; significance: exact binomial test, Holm-corrected, p < 0.05):"]
    for family in families:
        mine = [r for r in rows if r["game"] == family["label"]]
        ahead = [
            f"size {r['size']} at {r['simulations']} sims ({pct(r)})"
            for r in mine
            if r["p_holm"] < 0.05 and r["rate"] > 0.5
        ]
        behind = [
            f"size {r['size']} at {r['simulations']} sims ({pct(r)})"
            for r in mine
            if r["p_holm"] < 0.05 and r["rate"] < 0.5
        ]
        text = f"- {family['label']}: "
        parts = []
        if ahead:
            parts.append("first player ahead at " + "; ".join(ahead))
        if behind:
            parts.append("second player ahead at " + "; ".join(behind))
        if not parts:
            parts.append("no cell differs significantly from 50%")
        exact = [(n, solved.get(family["game"].format(n=n))) for n in solve_sizes[family["board"]]]
        exact = [f"size {n}: {value_text(rec)}" for n, rec in exact if rec]
        if exact:
            parts.append("exact " + "; ".join(exact))
        lines.append(text + "; ".join(parts) + ".")
    return "\n".join(lines)


if __name__ == "__main__":
    from experiments.first_player_advantage import main as _main  # workers unpickle by module reference

    sys.exit(_main())

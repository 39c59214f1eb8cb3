"""The economic-dilemmas study's summary: its tables, CSV/markdown and plots.

``experiments.economic_dilemmas`` analyses the games and plays the bots; this module turns its
records (one per game, and the ISMCTS check's results) into summary.md, summary.csv,
ismcts_check.json, cfr_convergence.png/.svg and tournament_returns.png/.svg. Why apart: what a
summary says is a concept of its own, read and tested without running the study, and it reads
records only, so it imports nothing from experiments/.
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

ALGORITHM_NAMES = {"cfr+": "CFR+", "dcfr": "DCFR"}


def _num(x, digits=3) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:.{digits}g}" if isinstance(x, float) else str(x)


def _eq_text(eq) -> str:
    strategies = "; ".join("(" + ", ".join(f"{p:.3g}" for p in s) + ")" for s in eq["strategies"])
    return f"{strategies} -> payoffs ({', '.join(f'{v:.3g}' for v in eq['payoffs'])})"


def equilibria_complete(rec: dict) -> bool:
    """Whether the record lists every extreme equilibrium (records made before
    ``equilibria_complete`` was stored: enummixed on two players)."""
    if "equilibria_complete" in rec:
        return bool(rec["equilibria_complete"])
    return rec.get("equilibrium_method") == "enummixed" and rec.get("players") == 2


def _eq_cell(r: dict) -> str:
    """The summary table's cell: the count, marked where it is not every equilibrium."""
    if r["strategies"] == "refused":
        return f"{r['equilibria']} ({r['pure_equilibria']})"
    if r["equilibria_complete"]:
        mark = ""
    elif r.get("equilibrium_method") in ("logit", "gnm"):  # logit approximates one; gnm finds some
        mark = " approx." if r["equilibrium_method"] == "logit" else " found"
    else:  # (records that did not name it)
        mark = " approx." if r["equilibria"] == 1 else " found"
    return f"{r['equilibria']}{mark} ({r['pure_equilibria']})"


def summary_rows(rows) -> list[dict]:
    out = []
    for rec in rows:
        cfr = rec.get("cfr") or {}
        row = {
            "game": rec["name"],
            "game_string": rec["game_string"],
            "kind": rec["kind"],
            "encodes": rec.get("encodes") or rec.get("expects") or "",
            "classified": rec["classified"],
            "reproduces": rec["reproduces"],
            "players": rec["players"],
            "dynamics": rec["dynamics"],
            "information": rec["information"],
            "strategies": "x".join(map(str, rec["table"]["shape"])) if rec.get("table") else "refused",
            "equilibria": len(rec.get("equilibria", [])),
            "pure_equilibria": len(rec.get("pure_equilibria", [])),
            "equilibria_complete": equilibria_complete(rec) if rec.get("table") else None,
            "equilibrium_method": rec.get("equilibrium_method") if rec.get("table") else None,
            "social_optimum_welfare": (rec.get("social_optimum") or {}).get("welfare"),
            "price_of_anarchy": rec.get("price_of_anarchy"),
            "spe_value": " ".join(f"{v:g}" for v in rec["spe"]["value"]) if rec.get("spe") else "",
            "cfr_iterations": cfr.get("iterations"),
            "cfr_nash_conv": cfr.get("nash_conv"),
            "cfr_nash_conv_is_approximation": cfr.get("approximation"),
            "cfr_nearest_equilibrium": cfr.get("nearest_equilibrium"),
            "cfr_distance": cfr.get("distance"),
        }
        for b in rec.get("tournament", []):
            row[f"{b['bot']}_mean_return"] = round(b["mean_return"], 4)
            row[f"{b['bot']}_win_rate"] = round(b["win_rate"], 4)
        out.append(row)
    return out


def incomplete(rows, checks, unplayed) -> list[str]:
    """What a summary of a run stopped before its end (``--summary-only``) lacks: the
    tournaments and check pairings with fewer games than planned, and the checks not begun.
    Empty for a finished run."""
    out = [
        f"{r['name']} tournament {r['tournament_played'][0]} of {r['tournament_played'][1]} games"
        for r in rows
        if r.get("tournament_played") and r["tournament_played"][0] < r["tournament_played"][1]
    ]
    out += [
        f"ISMCTS check {name} against {other} {w['games']} of {w['planned']} games"
        for name, res in checks.items()
        for other, w in res.items()
        if w.get("planned") and w["games"] < w["planned"]
    ]
    out += [f"ISMCTS check {name} not begun" for name in unplayed]
    return out


def write_outputs(out: Path, rows, checks, checks_missing, cfg, unplayed=(), *, enummixed_max: int) -> None:
    """summary.md, summary.csv, ismcts_check.json and the two plots in ``out``, from the
    analysis records ``rows`` and the ISMCTS check results ``checks``; ``enummixed_max`` is the
    study's bound on the strategies a player for which enummixed lists every equilibrium."""
    own = {n: k for n, k in cfg.get("game_simulations", {}).items() if any(r["name"] == n for r in rows)}
    dag = (
        f", DCFR {cfg['dag_iterations']} over a DAG of merged histories"
        if cfg.get("dag_iterations") and any((r.get("cfr") or {}).get("dag") for r in rows)
        else ""
    )
    lines = [
        f"# Economic dilemmas (seed {cfg['seed']}; CFR+ {cfg['cfr_iterations']} iterations{dag}; "
        f"{cfg['games_per_pair']} games per table of bots; MCTS/ISMCTS {cfg['simulations']} simulations"
        + "".join(f", {k} on {n}" for n, k in own.items())
        + ")",
        "",
    ]
    gaps = incomplete(rows, checks, unplayed)
    if gaps:
        lines += [
            "**Incomplete: the run was stopped before its end** (summary written from its records "
            "with `--summary-only`; the same command without it resumes the run). Not finished: "
            + "; ".join(gaps)
            + ". Figures of unfinished parts are over the games played so far.",
            "",
        ]
    lines += [
        "| game | encodes | table names it | reproduces | strategies | Nash equilibria (pure) | "
        "price of anarchy | CFR+ NashConv | CFR nearest equilibrium (distance) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in summary_rows(rows):
        nc = _num(r["cfr_nash_conv"]) + (" (approx.)" if r["cfr_nash_conv_is_approximation"] else "")
        near = (
            "-"
            if r["cfr_nearest_equilibrium"] is None
            else f"#{r['cfr_nearest_equilibrium'] + 1} ({_num(r['cfr_distance'])})"
        )
        lines.append(
            f"| {r['game']} | {r['encodes'] or '-'} | {r['classified']} | {r['reproduces']} | "
            f"{r['strategies']} | {_eq_cell(r)} | "
            f"{_num(r['price_of_anarchy'])} | {nc} | {near} |"
        )
    lines += [
        "",
        "'reproduces': whether the payoff order of the computed table (solvers.classify) is that of "
        "the game the rule set encodes (games.ttt.dilemmas), or for a reference the game it is; games "
        "defined by what their strategies mean (Blotto, beauty contest, common pool, trolley, hide and seek, "
        "trend setting) by their own definitions, and dilemmas whose table is refused on a reduced game "
        "of the textbook's strategies (analysis/reduced_games.py, named in the game's section); "
        "'not checkable' where no definition applies here. NashConv is exact distance from "
        "equilibrium for two-player zero-sum games; elsewhere CFR's average need not approach a Nash "
        "equilibrium and the figure is an approximation's distance. The nearest equilibrium is the "
        "listed one with the smallest largest difference of action probabilities at the information "
        "states reached when it is played. Equilibria: payoff-identical strategies are merged first; "
        "then pygambit's enummixed lists every extreme equilibrium of a two-player table with at most "
        f"{enummixed_max} strategies a player left (a count without a mark); a larger two-player table "
        "gets one equilibrium approximated by pygambit's logit (marked 'approx.': not all equilibria, "
        "and not necessarily exact); more players get the ones gnm's path finds (marked 'found': "
        "not provably all). The pure ones (in brackets) are all of them, by enumeration of the "
        "full table; each game's section names its method in words.",
        "",
    ]
    for rec in rows:
        lines += [
            f"## {rec['name']}",
            "",
            f"`{rec['game_string']}`: {rec['players']} players, {rec['dynamics']}, "
            f"{rec['information'].replace('_', ' ')}; table names it **{rec['classified']}** "
            f"({rec['classified_reason']}).",
        ]
        if rec.get("table"):
            t = rec["table"]
            lines.append("")
            if rec["players"] == 2 and len(t["payoffs"][0]) <= 36:
                cols = t["strategies"][1]
                lines.append("| row \\ column | " + " | ".join(cols) + " |")
                lines.append("|---|" + "---|" * len(cols))
                for i, rname in enumerate(t["strategies"][0]):
                    cells = [
                        f"{t['payoffs'][0][i * len(cols) + j]:g}, {t['payoffs'][1][i * len(cols) + j]:g}"
                        for j in range(len(cols))
                    ]
                    lines.append(f"| {rname} | " + " | ".join(cells) + " |")
            else:
                lines.append(f"Table {'x'.join(map(str, t['shape']))} (records/analysis.jsonl holds it).")
            lines.append("")
            lines.append(
                f"Equilibria: {rec['equilibria_note']}:"
                if rec.get("equilibria_note")
                else f"Equilibria ({rec['equilibrium_method']}"
                f"{'' if equilibria_complete(rec) else '; not all equilibria'}):"
            )
            lines += [f"{i + 1}. {_eq_text(e)}" for i, e in enumerate(rec["equilibria"])] or ["none found"]
            lines.append("")
            lines.append(
                f"Pure equilibria: {rec['pure_equilibria'] or 'none'}. Social optimum "
                f"{rec['social_optimum']['profile']} (welfare {rec['social_optimum']['welfare']:g}); "
                f"price of anarchy {_num(rec['price_of_anarchy'])}."
            )
        else:
            lines += ["", f"No payoff table: {rec.get('table_refused')}"]
            if rec.get("reduced"):
                red = rec["reduced"]
                size = (
                    ("x".join(map(str, red["shape"])) + " table")
                    if "shape" in red
                    else f"tree of {red['tree_nodes']} nodes"
                )
                lines += ["", f"Reduced game ({size}, analysis/reduced_games.py): {red['family']}"]
        if rec.get("spe"):
            how = f" ({rec['spe']['over_dag']})" if rec["spe"].get("over_dag") else ""
            lines.append(
                f"Subgame-perfect equilibrium{how}: value {rec['spe']['value']}, play {rec['spe']['path']}."
            )
        cfr = rec.get("cfr")
        if cfr:
            text = (
                f"{ALGORITHM_NAMES.get(cfr.get('algorithm'), 'CFR+')} after {cfr['iterations']} iterations: "
                f"NashConv {cfr['nash_conv']:.3g}"
                + (" (an approximation's distance: not two-player zero-sum)" if cfr["approximation"] else "")
            )
            if cfr.get("dag"):
                d = cfr["dag"]
                text += (
                    f"; over its {d['mode']} DAG of merged histories (cfr.dag: {d['nodes']:,} nodes, "
                    f"{d['information_sets']:,} information sets), whose best responses are exact"
                )
            if "nearest_equilibrium" in cfr:
                text += (
                    f"; nearest equilibrium #{cfr['nearest_equilibrium'] + 1} (largest probability "
                    f"difference {cfr['distance']:.3g}); CFR's expected payoffs {cfr['payoffs']}"
                )
            lines.append(text + ".")
        else:
            lines.append(f"CFR: not run ({rec.get('cfr_refused')}).")
        played = rec.get("tournament_played")
        if played and played[0] < played[1]:
            lines.append(f"Tournament not finished: {played[0]} of its {played[1]} games played.")
        if rec.get("tournament") and rec["name"] in own:
            lines.append(
                f"Its tournament's MCTS/ISMCTS search {own[rec['name']]} simulations a move (the run's "
                f"budget for this game, config.json game_simulations), not {cfg['simulations']}."
            )
        lines += ["", "| bot | games | mean return [95% CI] | wins [95% Wilson] |", "|---|---|---|---|"]
        for b in rec.get("tournament", []):
            lines.append(
                f"| {b['bot']} | {b['games']} | {b['mean_return']:.3f} [{_num(b['return_low'])}, "
                f"{_num(b['return_high'])}] | {100 * b['win_rate']:.1f}% [{100 * b['win_low']:.1f}, "
                f"{100 * b['win_high']:.1f}] |"
            )
        lines.append("")
    lines += ["## ISMCTS against Random and the one-world baseline (cloaked games)", ""]
    if checks_missing:
        lines.append(f"Not run on {', '.join(checks_missing)}: not in the catalogue.")
        lines.append("")
    if checks:
        own_games = "".join(
            f" ({n}: {k})" for n, k in cfg.get("check_games_by_game", {}).items() if n in checks
        )
        lines += [
            f"ISMCTS with {cfg['check_simulations']} simulations, {cfg['check_games']} games per pairing"
            f"{own_games}; "
            "the baseline is the same search on one "
            "fixed world (`ismcts:worlds=first`); seats alternate (games of more players: every "
            "seating, and a game is won when ISMCTS's seats' mean return is above the other "
            "bot's); wins with 95% Wilson intervals. ISMCTS's belief weighs the worlds it lists "
            "(histories: every consistent history alike; random: as a uniformly random player "
            "would have played them, mcts.worlds.BELIEFS).",
            "",
            "| game | ISMCTS belief | opponent | wins-draws-losses | ISMCTS win rate [95% Wilson] | score | "
            "wins of decisive games [95% Wilson] | ISMCTS beats it (decisive interval above 50%) |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for name, res in checks.items():
            for other, w in res.items():
                decisive = w["wins"] + w["losses"]
                lines.append(
                    f"| {name} | {w.get('belief', 'histories')} | {other} | "
                    f"{w['wins']}-{w['draws']}-{w['losses']} | "
                    f"{100 * w['win_rate']:.1f}% [{100 * w['low']:.1f}, {100 * w['high']:.1f}] | "
                    f"{w['score']:.3f} | "
                    + (
                        f"{100 * w['wins'] / decisive:.1f}% [{100 * w['decisive_low']:.1f}, "
                        f"{100 * w['decisive_high']:.1f}]"
                        if decisive
                        else "no decisive game"
                    )
                    + f" | {'yes' if w['decisive_low'] > 0.5 else 'not shown'} |"
                )
        lines.append("")
    (out / "summary.md").write_text("\n".join(lines))
    srows = summary_rows(rows)
    fields = list(dict.fromkeys(k for r in srows for k in r))
    with open(out / "summary.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        writer.writerows(srows)
    (out / "ismcts_check.json").write_text(json.dumps(checks, indent=1, sort_keys=True) + "\n")
    plot_convergence(rows, out / "cfr_convergence")
    plot_returns(rows, out / "tournament_returns")


FLOOR = 1e-12  # log axes: a NashConv of 0 is drawn here


def plot_convergence(rows, stem: Path) -> None:
    from analysis.plots import plt, save_figure

    fig, ax = plt.subplots(figsize=(8, 5), layout="constrained")
    for rec in rows:
        cfr = rec.get("cfr")
        if not cfr:
            continue
        xs = [c["iteration"] for c in cfr["curve"]]
        ys = [max(c["nash_conv"], FLOOR) for c in cfr["curve"]]
        label = rec["name"] + (" (approx.)" if cfr["approximation"] else "")
        if all(c["nash_conv"] <= FLOOR for c in cfr["curve"]):
            label += ": 0 throughout (the uniform start is an equilibrium)"
        ax.plot(xs, ys, marker="o", markersize=3, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("CFR+ iteration")
    ax.set_ylabel(f"NashConv of the average policy (0 drawn at {FLOOR:g})")
    ax.set_title("CFR+ convergence per game")
    ax.legend(fontsize=7)
    save_figure(fig, stem)


def plot_returns(rows, stem: Path) -> None:
    from analysis.plots import plot_intervals

    data = [
        dict(
            label=f"{rec['name']}: {b['bot']}",
            value=b["mean_return"],
            low=b["return_low"] if not math.isnan(b["return_low"]) else b["mean_return"],
            high=b["return_high"] if not math.isnan(b["return_high"]) else b["mean_return"],
            group=b["bot"],
            note=f"n={b['games']}",
        )
        for rec in rows
        for b in rec.get("tournament", [])
    ]
    if data:
        plot_intervals(
            data, stem, title="Mean return per bot and game (every seat), 95% interval", xlabel="mean return"
        )

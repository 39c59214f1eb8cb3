"""Ludii's game-quality metrics of every tic-tac-toe catalogue rule set, in one table.

    python -m experiments.catalogue_metrics                     # every rule set, 500 games each
    python -m experiments.catalogue_metrics --games Tic-Tac-Toe Achi --n 2000

For each rule set of games/ttt/catalogue (loaded as ``ttt(rules=NAME)``) plays
``--n`` games with every seat random and gives the metrics of
``analysis.game_metrics`` that apply: AdvantageP1, Balance, Drawishness,
OutcomeUniformity, game length, branching factor and board coverage, with 95%
intervals where a metric is a rate or a mean. A rule set with simultaneous
moves has no first player and no single mover, so it gets the outcome metrics
and its length in rounds, and the table says which metrics do not apply. Where
a two-player, zero-sum, deterministic rule set of perfect information is solved
within ``--solve-seconds`` (alpha-beta, ``solvers.exhaustive``), the exact
counterparts follow (``analysis.exact_counterparts``): the game-theoretic
AdvantageP1, the share of winning openings and the positions counted. The time
limit is wall-clock, so on a slower or busier machine a rule set near it may be
left unsolved; the values found do not depend on it.

Each rule set is one record in ``--out``/records.jsonl, appended as it finishes;
a run started again with the same settings measures only the missing rule sets.
Output: config.json, records.jsonl, summary.md, summary.csv. The meaning and
formula of each metric: docs/metrics.md.
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
import time
from pathlib import Path

import numpy as np
import pyspiel

from analysis.game_metrics import (
    Trace,
    all_metrics,
    balance,
    completion,
    drawishness,
    outcome_uniformity,
    timeouts,
)
from analysis.game_traces import DEFAULT_MAX_MOVES, record_trace, sample_chance
from analysis.stats import mean_and_ci
from analysis.study import non_negative_int, positive_int, prepare_out, resumable, say

STUDY = "experiments.catalogue_metrics"

#: Positions the exact count walks before it stops (its count is then a lower bound).
MAX_POSITIONS = 200_000

#: The metrics of the table, in its order; the CSV holds each with its interval.
COLUMNS = (
    "AdvantageP1",
    "Balance",
    "Drawishness",
    "Completion",
    "Timeouts",
    "OutcomeUniformity",
    "DurationMoves",
    "DurationTurns",
    "BranchingFactorAverage",
    "BoardCoverageDefault",
)

#: What a simultaneous rule set cannot be given, and why.
NOT_SIMULTANEOUS = {
    "AdvantageP1": "no first player",
    "DurationTurns": "every player moves each round",
    "BranchingFactorAverage": "no single mover",
    "BoardCoverageDefault": "no single mover",
}


def catalogue_names() -> list[str]:
    from games.ttt.resolve import catalogue

    return sorted(catalogue())


def kind_of(game) -> dict:
    t = game.get_type()
    return {
        "players": game.num_players(),
        "simultaneous": t.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS,
        "hidden": t.information != pyspiel.GameType.Information.PERFECT_INFORMATION,
        "chance": t.chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC,
        "zero_sum": t.utility == pyspiel.GameType.Utility.ZERO_SUM,
    }


def _random_round(game, rng) -> tuple[Trace, int]:
    """One random game of a simultaneous rule set: its outcome as a trace without movers,
    and its rounds (joint moves)."""
    state, rounds = game.new_initial_state(), 0
    while not state.is_terminal() and rounds < DEFAULT_MAX_MOVES:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        elif state.is_simultaneous_node():
            joint = []
            for p in range(game.num_players()):
                legal = state.legal_actions(p)  # empty for a player with no choice this round
                joint.append(int(legal[rng.integers(len(legal))]) if legal else pyspiel.INVALID_ACTION)
            state.apply_actions(joint)
            rounds += 1
        else:
            legal = state.legal_actions()
            state.apply_action(int(legal[rng.integers(len(legal))]))
    timeout = not state.is_terminal()
    returns = tuple(0.0 for _ in range(game.num_players())) if timeout else tuple(state.returns())
    return Trace(returns=returns, movers=(), branching=()), rounds


def _exact(game_string: str, game, kind: dict, seconds: float) -> dict:
    """The exact counterparts where the rule set is solved in time, or why there are none."""
    if kind["simultaneous"] or kind["hidden"]:
        return {"why": "hidden information or simultaneous moves (no single game-theoretic value)"}
    if kind["players"] != 2 or not kind["zero_sum"] or kind["chance"]:
        return {"why": "not two-player zero-sum deterministic (the solver's value is no win rate)"}
    from analysis.exact_counterparts import exact_counterparts
    from solvers.exhaustive import solve

    result = solve(game, time_limit=seconds, tt_log2=20)
    if not result.get("complete") or result.get("value") is None:
        return {"why": f"not solved within {seconds:g} s"}
    found = exact_counterparts(game_string, result, max_positions=MAX_POSITIONS)
    return {e.name: e.as_dict() for e in found}


def measure(name: str, n: int, seed: int, solve_seconds: float) -> dict:
    """The record of one rule set: its kind, each metric's value and interval, the exact part."""
    import games  # noqa: F401  (registers this toolkit's games in the worker)

    game_string = f"ttt(rules={name})"
    game = pyspiel.load_game(game_string)
    kind = kind_of(game)
    rng = np.random.default_rng(np.random.SeedSequence([seed, *name.encode()]))
    started = time.perf_counter()
    if kind["simultaneous"]:
        played = [_random_round(game, rng) for _ in range(n)]
        traces = [t for t, _ in played]
        players = game.num_players()
        values = {
            "Balance": balance(traces, players),
            "Drawishness": drawishness(traces),
            "Completion": completion(traces),
            "Timeouts": timeouts(traces),
            "OutcomeUniformity": outcome_uniformity(traces),
        }
        mean, low, high = mean_and_ci([r for _, r in played])
        metrics = {k: v.as_dict() for k, v in values.items()}
        metrics["DurationMoves"] = {"value": mean, "low": low, "high": high}
        not_applicable = dict(NOT_SIMULTANEOUS)
    else:

        def choose(state, legal):
            if legal is None:
                return sample_chance(state, rng)
            return int(legal[rng.integers(len(legal))])

        traces = [record_trace(game, choose, DEFAULT_MAX_MOVES) for _ in range(n)]
        values = all_metrics(traces, game.num_players())
        metrics = {k: values[k].as_dict() for k in COLUMNS}
        not_applicable = {}
    exact = _exact(game_string, game, kind, solve_seconds)
    return {
        "game": name,
        "kind": kind,
        "metrics": metrics,
        "not_applicable": not_applicable,
        "exact": exact,
        "seconds": round(time.perf_counter() - started, 3),
    }


def _fmt(x) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:.3f}" if abs(x) < 10 else f"{x:.1f}"


def kind_text(kind: dict) -> str:
    parts = [f"{kind['players']}P", "simultaneous" if kind["simultaneous"] else "sequential"]
    parts += ["hidden"] * kind["hidden"] + ["chance"] * kind["chance"]
    return ", ".join(parts)


def summary_md(records: list[dict], config: dict) -> str:
    """The study's table: one row per rule set."""
    head = (
        "| rule set | kind | AdvantageP1 [95%] | Balance | Drawishness | OutcomeUniformity | "
        "moves (rounds) | turns | branching factor | coverage | exact AdvantageP1 | winning openings | "
        "positions | complete games |"
    )
    lines = [
        "# Game-quality metrics of the tic-tac-toe catalogue",
        "",
        f"{config['n']} games of each rule set with every seat random, seed {config['seed']}; "
        f"exact values where a two-player zero-sum deterministic rule set of perfect information is "
        f"solved within {config['solve_seconds']:g} s. Command: "
        f"`python -m {STUDY} --n {config['n']} --seed {config['seed']} "
        f"--solve-seconds {config['solve_seconds']:g}`. "
        "Metrics: [docs/metrics.md](../metrics.md).",
        "",
        head,
        "|" + "---|" * (head.count("|") - 1),
    ]
    simultaneous, no_exact = [], {}
    for r in records:
        m, e = r["metrics"], r["exact"]

        def val(k, m=m):
            return _fmt(m[k]["value"]) if k in m else "n/a"

        if "AdvantageP1" in m:
            a = m["AdvantageP1"]
            adv = f"{_fmt(a['value'])} [{_fmt(a['low'])}, {_fmt(a['high'])}]"
        else:
            adv = "n/a"
        exact_adv = _fmt(e["AdvantageP1"]["value"]) if "AdvantageP1" in e else "-"
        openings = _fmt(e["WinningOpenings"]["value"]) if "WinningOpenings" in e else "-"
        positions = _count(e.get("StateSpacePositions"))
        leaves = _count(e.get("GameTreeLeaves"))
        lines.append(
            f"| {r['game']} | {kind_text(r['kind'])} | {adv} | {val('Balance')} | {val('Drawishness')} | "
            f"{val('OutcomeUniformity')} | {val('DurationMoves')} | {val('DurationTurns')} | "
            f"{val('BranchingFactorAverage')} | {val('BoardCoverageDefault')} | {exact_adv} | {openings} | "
            f"{positions} | {leaves} |"
        )
        if r["not_applicable"]:
            simultaneous.append(r["game"])
        if "why" in e:
            no_exact.setdefault(e["why"], []).append(r["game"])
    why = "; ".join(f"{k}: {v}" for k, v in NOT_SIMULTANEOUS.items())
    notes = [
        "A *winner* has the strictly highest return; where several players share the best return "
        "(a rule set that names a loser, such as 3P-Notakto) the game counts as one without a winner "
        "(Drawishness), while OutcomeUniformity sees the players' ranks.",
        "",
    ]
    if simultaneous:
        notes += [
            f"Simultaneous moves ({', '.join(simultaneous)}): moves are rounds of joint moves, every "
            f"player choosing at random; not applicable: {why}.",
            "",
        ]
    for reason, names in no_exact.items():
        notes += [f"No exact values, {reason}: {', '.join(names)}.", ""]
    return "\n".join([*lines, "", *notes])


def _count(exact: dict | None) -> str:
    """A counted quantity: whole below 10^12, else as a power of ten; "> " for a lower bound."""
    if exact is None:
        return "-"
    more = "" if exact["exact"] else "> "
    value = exact["value"]
    return f"{more}{value:,.0f}" if value < 1e12 else f"{more}10^{math.log10(value):.1f}"


def write_csv(path: Path, records: list[dict]) -> None:
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["game", "kind", "metric", "value", "ci95_low", "ci95_high"])
        for r in records:
            for name, v in r["metrics"].items():
                w.writerow([r["game"], kind_text(r["kind"]), name, v["value"], v["low"], v["high"]])
            for name, v in r["exact"].items():
                if name != "why":
                    w.writerow([r["game"], kind_text(r["kind"]), f"{name}Exact", v["value"], "", ""])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog=f"python -m {STUDY}", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--out",
        default="results/catalogue_metrics",
        help="output directory, resumed if it exists (default: %(default)s)",
    )
    parser.add_argument("--seed", type=non_negative_int, default=0, help="the run's seed (default 0)")
    parser.add_argument("--jobs", type=positive_int, default=2, help="worker processes (default 2)")
    parser.add_argument("--no-progress", action="store_true")
    parser.add_argument("--games", nargs="+", metavar="NAME", help="catalogue rule sets (default: all)")
    parser.add_argument("--n", type=positive_int, default=500, help="random games per rule set (default 500)")
    parser.add_argument(
        "--solve-seconds",
        type=float,
        default=5.0,
        help="time the exact solve of a rule set may take (default 5)",
    )
    args = parser.parse_args(argv)
    if not args.solve_seconds > 0:
        parser.error(f"--solve-seconds must be positive, got {args.solve_seconds}")
    import games  # noqa: F401  (registers this toolkit's games)

    known = catalogue_names()
    names = args.games or known
    unknown = [g for g in names if g not in known]
    if unknown:
        parser.error(f"not catalogue rule sets: {', '.join(unknown)} (known: {', '.join(known)})")
    config = {"n": args.n, "seed": args.seed, "solve_seconds": args.solve_seconds}
    out = prepare_out(args.out, STUDY, config, resume_keys=("n", "seed", "solve_seconds"))
    started = time.monotonic()

    def report(record):
        if not args.no_progress:
            say(f"  {record['game']}: {record['seconds']:.1f}s")

    done = resumable(
        names,
        out / "records.jsonl",
        args.jobs,
        reusable=lambda r: True,
        work=lambda g: measure(g, args.n, args.seed, args.solve_seconds),
        announce=lambda k: f"{k} of {len(names)} rule sets to measure ({len(names) - k} kept)",
        report=report,
    )
    records = [done[g] for g in names]
    (out / "summary.md").write_text(summary_md(records, config))
    write_csv(out / "summary.csv", records)
    print((out / "summary.md").read_text())
    print(f"written to {out} ({time.monotonic() - started:.1f}s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""CFR iterations per second: ours (``cfr.tabular``, C backend) against
OpenSpiel's C++ ``CFRSolver`` on the same game in the same process; our CFR+ and
DCFR against LiteEFG's; and every two-player dilemma's time to exploitability
below 1e-3.

    python -m experiments.bench_cfr [--seconds 1.0] [--rounds 5] [--limit 60] [--json]
        [--skip-speed] [--skip-liteefg] [--skip-targets] [--markdown docs/performance.md]

With ``--json``, also ``python -m experiments.benchmark``'s ``cfr`` section.

First table, rows: ``kuhn_poker`` (OpenSpiel's C++ game), and this toolkit's
``RockPaperScissors`` (the catalogue's rule set, two simultaneous rounds) and
``RPS-Shared-Lines`` (a one-round example) where OpenSpiel walks the Python game
through ``convert_to_turn_based``, and again on ``convert_to_cached_tree`` of it
(OpenSpiel's own remedy for slow games). Both sides run vanilla CFR with
alternating updates (the tests check they compute the same policies iteration by
iteration). Times are the thread's CPU time; the two alternate within each round
and the ratio is the median over rounds. The targets: within 2x of
OpenSpiel on kuhn_poker (its C++ game), ahead of it on our games (where
OpenSpiel walks our Python game).

The LiteEFG table: our CFR+ and DCFR against LiteEFG's (``experiments._liteefg``:
the graphs its package publishes, on games its own OpenSpiel loader lists) on
``kuhn_poker``, ``leduc_poker``, ``liars_dice``, ``goofspiel`` with 4 cards and the
catalogue's ``RockPaperScissors``, and on Colonel Blotto: the catalogue's
``3Blotto13`` has 3.8 x 10^12 histories, which neither lists (ours solves it over
its DAG, below), so the row measured is its rules with 4 soldiers a side. Per game
and algorithm, fresh solvers first run the same iterations (``LITEEFG_ROWS``) with
NashConv at marks 1, 2, 5, 10, ... (NashConv against solver time), then
iterations per second alternate round by round. A second ratio compares time at
the same NashConv: LiteEFG's time for its iterations against ours to the first
mark at or below LiteEFG's final NashConv (ours continuing in tenths of the
iterations, up to three times as many). The two CFR+ differ in their averages
(ours, as OpenSpiel's ``CFRPlusSolver``, weights iteration t's strategy by t;
LiteEFG's averages the strategy each iteration ends with), so their NashConv
after the same iterations differs. The DCFR graphs compute ours up to rounding
(the tests compare their policies), but where actions tie, rounding decides and
the runs part: on RockPaperScissors both LiteEFG graphs stay on the uniform
equilibrium (NashConv 0) while ours, like OpenSpiel's ``CFRPlusSolver`` (the same
3.1e-3 after 1,000 iterations), leaves it on a second-round regret of 5.6e-17;
Colonel Blotto's tied allocations part them too. The target: 10x LiteEFG on
each. Without LiteEFG (``pip install -e ".[bench]" -c constraints.txt``) its
rows say so and give ours alone.

The last table is the other target: exploitability below 1e-3 on
every two-player dilemma within 60 s. For each two-player game of
``experiments.economic_dilemmas --full`` (its references and every available
dilemma), CFR+ (ours) runs until the average policy's exploitability (NashConv
for general-sum games, where exploitability is not defined) is below the
target or the time is up; the time is solver time at the first checkpoint
(iterations 1, 2, 5, 10, ...) below it, so it overstates the time needed. A game
whose tree is too large to list (``cfr.tree.TreeTooLarge``: 3Blotto13,
Centipede9, NeedyCentipede4) runs CFR+ over its DAG of merged histories
(``cfr.dag``: positions for perfect-information games, positions and
observations for blind ones), whose best responses are exact, with DCFR instead
of CFR+ (``cfr.dag.ALGORITHM``: half CFR+'s iterations to 1e-3 on NeedyCentipede4) and
checkpoints every 25 iterations after 50; its time includes the DAG's walk. Only
where the DAG would change the game (``cfr.dag.NotExact``) does it fall back to
outcome-sampling MCCFR (``cfr.mccfr``, seed 0) for the time limit, whose NashConv
cannot be evaluated: that row says so with the tree's size and the information
states the samples visited, and counts as not met.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import pyspiel

import games  # noqa: F401  (registers ttt)
from analysis import performance_page as page
from analysis.dilemma_games import full_entries
from analysis.study import positive_float, positive_int
from cfr.dag import ALGORITHM as DAG_ALGORITHM  # the DAG rows' CFR variant (DCFR; why: there)
from cfr.game_form import turn_based
from cfr.tabular import TabularCFR
from cfr.tree import enumerate_tree

RPS_LINES = "ttt(rules=games/ttt/examples/RPS-Shared-Lines.json)"
RPS = "ttt(rules=RockPaperScissors)"
# (label, game string, OpenSpiel on convert_to_cached_tree)
SPEED_ROWS = [
    ("kuhn_poker", "kuhn_poker", False),
    ("RockPaperScissors (Python game)", RPS, False),
    ("RockPaperScissors (cached tree)", RPS, True),
    ("RPS-Shared-Lines (Python game)", RPS_LINES, False),
    ("RPS-Shared-Lines (cached tree)", RPS_LINES, True),
]


def _rate(step, seconds: float) -> float:
    done, start = 0, time.thread_time()
    while time.thread_time() - start < seconds:
        for _ in range(10):
            step()
        done += 10
    return done / (time.thread_time() - start)


def row(label: str, game_string: str, cached: bool, seconds: float, rounds: int, log) -> dict:
    game = pyspiel.load_game(game_string)
    tree = enumerate_tree(game)
    theirs_game = turn_based(game)
    if cached:
        theirs_game = pyspiel.convert_to_cached_tree(theirs_game)
    ours_solver = TabularCFR(tree, "cfr")
    theirs_solver = pyspiel.CFRSolver(theirs_game)
    ours, theirs = [], []
    for r in range(rounds):
        log(f"{label}: round {r + 1}/{rounds}")
        theirs.append(_rate(theirs_solver.evaluate_and_update_policy, seconds))
        ours.append(_rate(ours_solver.iterate, seconds))
    return {
        "row": label,
        "game": game_string,
        "histories": tree.num_nodes,
        "ours_per_s": statistics.median(ours),
        "openspiel_per_s": statistics.median(theirs),
        "ratio": statistics.median(o / t for o, t in zip(ours, theirs, strict=True)),
    }


# LiteEFG's comparison: (label, game string, iterations both run before NashConv is compared).
# goofspiel small: 4 cards, imperfect information, points in random order (26,773 histories).
LITEEFG_ROWS = [
    ("kuhn_poker", "kuhn_poker", 1000),
    ("leduc_poker", "leduc_poker", 1000),
    ("liars_dice", "liars_dice", 100),
    ("goofspiel (4 cards)", "goofspiel(num_cards=4,imp_info=True)", 300),
    ("RockPaperScissors", RPS, 1000),
]
BLOTTO = "ttt(rules=3Blotto13)"
MINI_BLOTTO = "3Blotto13's rules, 4 soldiers a side (stacks of 4)"


def mini_blotto(folder) -> str:
    """The catalogue's Colonel Blotto (3Blotto13) with 4 soldiers a side on stacks of 4:
    9,841 histories, small enough for a tree both solvers list. Its rules go to ``folder``."""
    from pathlib import Path

    from games.ttt.sources import CATALOGUE

    rules = json.loads(CATALOGUE.read("3Blotto13"))
    rules.update(name="MiniBlotto", reserves={"black": 4, "white": 4})
    rules["board"]["size"] = [2, 1, 4]
    rules["phases"][0]["cloaked"] = [[x, 1, h] for x in (1, 2) for h in range(1, 5)]
    path = Path(folder) / "MiniBlotto.json"
    path.write_text(json.dumps(rules))
    return f"ttt(rules={path})"


class OursSolver:
    """Our CFR+ or DCFR (``cfr.tabular``, C backend) over the game's listed tree, read as
    every solver of the LiteEFG comparison is: ``iterate(count)``, ``nash_conv()``."""

    def __init__(self, game, algorithm: str):
        from cfr import evaluate

        self._evaluate = evaluate
        self.solver = TabularCFR(enumerate_tree(game), algorithm)
        self.eval_game = evaluate.evaluation_game(game)

    def iterate(self, count: int = 1) -> None:
        self.solver.iterate(count)

    def nash_conv(self) -> float:
        return self._evaluate.nash_conv(self.eval_game, self.solver.average_policy())


def _curve(solver, marks) -> list:
    """[iterations, solver CPU seconds so far, NashConv of the average] at each mark."""
    out, spent, done = [], 0.0, 0
    for mark in marks:
        t0 = time.thread_time()
        solver.iterate(mark - done)
        spent += time.thread_time() - t0
        done = mark
        out.append([mark, spent, solver.nash_conv()])
    return out


def _batched_rate(iterate, seconds: float) -> float:
    """Iterations per second of ``iterate(count)``, the count doubling until a call takes
    10 ms (so a fast solver is not timed on the cost of calling it)."""
    batch, done, start = 1, 0, time.thread_time()
    while time.thread_time() - start < seconds:
        t0 = time.thread_time()
        iterate(batch)
        done += batch
        if time.thread_time() - t0 < 0.01:
            batch *= 2
    return done / (time.thread_time() - start)


def liteefg_marks(iterations: int) -> list:
    """1, 2, 5, 10, 20, 50, ... up to ``iterations``, which is the last mark."""
    marks, scale = [], 1
    while True:
        for m in (scale, 2 * scale, 5 * scale):
            if m >= iterations:
                return marks + [iterations]
            marks.append(m)
        scale *= 10


def same_nash_conv(ours, ours_curve: list, target: float, iterations: int) -> None:
    """Run ``ours`` on past ``iterations`` in tenths of it (up to three times as many) until its
    NashConv is at most ``target``, extending ``ours_curve``."""
    step = max(1, iterations // 10)
    while ours_curve[-1][2] > target and ours_curve[-1][0] < 3 * iterations:
        t0 = time.thread_time()
        ours.iterate(step)
        spent = ours_curve[-1][1] + time.thread_time() - t0
        ours_curve.append([ours_curve[-1][0] + step, spent, ours.nash_conv()])


def liteefg_row(
    label: str,
    game_string: str,
    algorithm: str,
    iterations: int,
    seconds: float,
    rounds: int,
    log,
    baseline=None,
) -> dict:
    """Ours against LiteEFG (``baseline``: a solver class, LiteEFG's by default) on one game:
    NashConv against solver time from fresh solvers over ``iterations`` iterations, then
    iterations per second alternating round by round (median of the rounds' ratios). The
    time ratio at the same NashConv: LiteEFG's time for its ``iterations`` against ours to
    the first mark at or below its NashConv. Without LiteEFG, ours alone and why."""
    from experiments import _liteefg

    why = None if baseline is not None else _liteefg.missing()
    if baseline is None and why is None:
        baseline = _liteefg.Solver
    marks = liteefg_marks(iterations)
    log(f"LiteEFG comparison: {label}, {algorithm}")
    game = pyspiel.load_game(game_string)
    ours = OursSolver(game, algorithm)
    ours_curve = _curve(ours, marks)
    out = {
        "row": label,
        "game": game_string,
        "algorithm": algorithm,
        "iterations": iterations,
        "ours_curve": ours_curve,
        "liteefg": why,
        "liteefg_version": None,
        "liteefg_curve": None,
        "ours_per_s": None,
        "liteefg_per_s": None,
        "ratio": None,
        "same_nash_conv_ratio": None,
    }
    ours_rates, theirs_rates = [], []
    if why is None:
        theirs = baseline(game, algorithm)
        theirs_curve = _curve(theirs, marks)
        target = theirs_curve[-1][2]
        same_nash_conv(ours, ours_curve, target, iterations)
        reached = next((c for c in ours_curve if c[2] <= target), None)
        out["liteefg_curve"] = theirs_curve
        out["liteefg_version"] = _liteefg.version() if baseline is _liteefg.Solver else baseline.__name__
        out["same_nash_conv_ratio"] = theirs_curve[-1][1] / reached[1] if reached and reached[1] else None
    for r in range(rounds):
        log(f"{label}, {algorithm}: round {r + 1}/{rounds}")
        if why is None:
            theirs_rates.append(_batched_rate(theirs.iterate, seconds))
        ours_rates.append(_batched_rate(ours.iterate, seconds))
    out["ours_per_s"] = statistics.median(ours_rates)
    if why is None:
        out["liteefg_per_s"] = statistics.median(theirs_rates)
        out["ratio"] = statistics.median(o / t for o, t in zip(ours_rates, theirs_rates, strict=True))
    return out


def blotto_refusal() -> dict:
    """The catalogue's 3Blotto13: no tree for either solver (LiteEFG's loader, like
    ``cfr.tree``, walks every history); ours solves it over its DAG (the targets table)."""
    from cfr.count import count_histories

    count = count_histories(pyspiel.load_game(BLOTTO), limit=5_000_000)
    return {"row": "3Blotto13", "game": BLOTTO, "size": count.text()}


def liteefg_rows(seconds: float, rounds: int, log, algorithms=("cfr+", "dcfr")) -> list:
    import tempfile

    out = []
    with tempfile.TemporaryDirectory(prefix="bench-cfr-") as folder:
        games = [(label, g, n) for label, g, n in LITEEFG_ROWS] + [(MINI_BLOTTO, mini_blotto(folder), 300)]
        for label, game_string, iterations in games:
            for algorithm in algorithms:
                out.append(liteefg_row(label, game_string, algorithm, iterations, seconds, rounds, log))
    for r in out:
        if r["row"] == MINI_BLOTTO:
            r["game"] = MINI_BLOTTO
    return out


def format_liteefg(rows: list, blotto: dict | None) -> str:
    lines = [
        "Ours (cfr.tabular, C backend) against LiteEFG's own CFR+ and DCFR graphs, same process, "
        "thread CPU time; NashConv of each one's average after the same iterations:"
    ]
    for r in rows:
        alg = r["algorithm"].upper()
        o = r["ours_curve"][-1] if r["liteefg_curve"] is None else _at(r["ours_curve"], r["iterations"])
        head = f"{r['row']:34} {alg:>4}"
        if r["liteefg"]:
            lines.append(
                f"{head} ours {r['ours_per_s']:11,.0f} it/s, NashConv {o[2]:.2e} after {o[0]:,} it; "
                f"{r['liteefg']}"
            )
            continue
        t = r["liteefg_curve"][-1]
        same = r["same_nash_conv_ratio"]
        lines.append(
            f"{head} ours {r['ours_per_s']:11,.0f} it/s  LiteEFG {r['liteefg_per_s']:9,.0f} it/s  "
            f"{r['ratio']:6.1f}x;  after {t[0]:,} it NashConv ours {o[2]:.2e} in {page.seconds(o[1])}, "
            f"LiteEFG {t[2]:.2e} in {page.seconds(t[1])}; to LiteEFG's NashConv "
            + (f"{same:.1f}x" if same else f"not reached by ours within {3 * r['iterations']:,} it")
        )
    if blotto:
        lines.append(
            f"{'3Blotto13':34} neither lists its tree ({blotto['size']}): LiteEFG's loader walks every "
            f"history; ours runs {DAG_ALGORITHM.upper()} over its DAG (the time-to-1e-3 table)"
        )
    return "\n".join(lines)


def format_curves(rows: list) -> str:
    """NashConv against solver time, one line per mark: the curves behind the ratios."""
    lines = ["NashConv against solver time (iterations: ours s, NashConv | LiteEFG s, NashConv):"]
    for r in rows:
        theirs = {c[0]: c for c in r["liteefg_curve"] or []}
        points = []
        for it, s, nc in r["ours_curve"]:
            point = f"{it}: {s:.3g} s {nc:.2e}"
            if it in theirs:
                point += f" | {theirs[it][1]:.3g} s {theirs[it][2]:.2e}"
            points.append(point)
        lines.append(f"{r['row']} {r['algorithm'].upper()}: " + "; ".join(points))
    return "\n".join(lines)


def _at(curve: list, iterations: int) -> list:
    return next(c for c in curve if c[0] == iterations)


def time_to_target(game_string: str, target: float = 1e-3, limit: float = 60.0) -> dict:
    """CFR+ (ours) on one game until the average policy's exploitability (NashConv where the
    game is not zero-sum) is below ``target`` or ``limit`` seconds of solver time pass; a
    game too large to list runs over its DAG (``dag_row``)."""
    from cfr import evaluate
    from cfr.solve import Solver, checkpoints
    from cfr.tree import TreeTooLarge

    game = pyspiel.load_game(game_string)
    zero_sum = evaluate.is_two_player_zero_sum(turn_based(game))
    measure = "exploitability" if zero_sum else "NashConv"
    try:
        solver = Solver(game, "cfr+")
    except TreeTooLarge as e:
        return dag_row(game, measure, e, target, limit)
    eval_game = evaluate.evaluation_game(game)
    spent, value = 0.0, float("inf")
    for mark in checkpoints(10**9):
        t0 = time.thread_time()
        solver.iterate(mark - solver.iterations)
        spent += time.thread_time() - t0
        policy = solver.average_policy()
        value = (
            evaluate.exploitability(eval_game, policy) if zero_sum else evaluate.nash_conv(eval_game, policy)
        )
        if value < target or spent >= limit:
            break
    return {
        "game": game_string,
        "algorithm": "cfr+",
        "measure": measure,
        "value": value,
        "iterations": solver.iterations,
        "seconds": spent,
        "met": value < target and spent <= limit,
        "not_evaluated": None,
        "visited": None,
        "build_seconds": None,
        "dag": None,
    }


def dag_row(game, measure: str, refusal, target: float, limit: float) -> dict:
    """DCFR (ours) over the game's DAG of merged histories (``cfr.dag``), with exact
    best responses, when its tree is too large to list; the DAG's walk counts in the
    time. Where merging would change the game (``NotExact``) or the DAG is too large,
    sampling MCCFR runs instead, unevaluated."""
    from cfr import dag

    t0 = time.thread_time()
    try:
        tree = dag.build_dag(game)
    except (dag.NotExact, dag.TooManyNodes) as e:
        row = sampled_row(game, measure, refusal, limit)
        row["dag"] = f"no DAG: {e}"
        return row
    build = time.thread_time() - t0
    solver = TabularCFR(tree, DAG_ALGORITHM)
    spent, value = build, float("inf")
    for mark in dag_checkpoints():
        t0 = time.thread_time()
        solver.iterate(mark - solver.iteration)
        spent += time.thread_time() - t0
        conv = dag.nash_conv(tree, solver.average_probs())
        value = conv / 2 if measure == "exploitability" else conv
        if value < target or spent >= limit:
            break
    return {
        "game": str(game),
        "algorithm": f"{DAG_ALGORITHM} (DAG)",
        "measure": measure,
        "value": value,
        "iterations": solver.iteration,
        "seconds": spent,
        "met": value < target and spent <= limit,
        "not_evaluated": None,
        "visited": None,
        "build_seconds": build,
        "dag": f"{tree.dag.mode} DAG: {tree.num_nodes:,} nodes, {len(tree.edge_parent):,} edges, "
        f"{tree.num_infosets:,} information sets ({refusal.size})",
    }


def dag_checkpoints():
    """1, 2, 5, 10, 20, 50, then every 25 iterations: a DAG's iteration costs up to 0.1 s,
    so the first checkpoint below the target should not overshoot it by hundreds."""
    yield from (1, 2, 5, 10, 20, 50)
    mark = 50
    while True:
        mark += 25
        yield mark


def sampled_row(game, measure: str, refusal, limit: float, seed: int = 0) -> dict:
    """Outcome-sampling MCCFR for ``limit`` seconds of solver time on a game tabular CFR
    refused; its quality is not evaluable (the refusal says how many histories)."""
    from cfr.mccfr import SampledMCCFR
    from cfr.solve import unevaluable_reason

    solver = SampledMCCFR(game, "outcome", seed=seed)
    spent = 0.0
    while spent < limit:
        t0 = time.thread_time()
        solver.iterate(16)
        spent += time.thread_time() - t0
    return {
        "game": str(game),
        "algorithm": "mccfr-outcome",
        "measure": measure,
        "value": None,
        "iterations": solver.iteration,
        "seconds": spent,
        "met": False,
        "not_evaluated": unevaluable_reason(refusal),
        "visited": solver.num_visited,
        "build_seconds": None,
        "dag": None,
    }


def dilemma_games() -> list[str]:
    """The two-player games of the economic-dilemmas study (references and available dilemmas)."""
    out = []
    for entry in full_entries():
        if pyspiel.load_game(entry["game"]).num_players() == 2:
            out.append(entry["game"])
    return out


def speed_rows(seconds: float, rounds: int, log) -> list:
    return [row(label, g, cached, seconds, rounds, log) for label, g, cached in SPEED_ROWS]


def target_rows(limit: float, log) -> list:
    out = []
    for g in dilemma_games():
        log(f"time to 1e-3: {g}")
        out.append(time_to_target(g, limit=limit))
    return out


def format_targets(targets: list, limit: float) -> str:
    lines = [
        f"CFR+ (ours) to exploitability (NashConv where not zero-sum) < 1e-3, "
        f"limit {limit:g} s; games too large to list: {DAG_ALGORITHM.upper()} over their "
        f"DAG of merged histories (cfr.dag), the walk included:"
    ]
    for t in targets:
        if t["not_evaluated"]:
            lines.append(
                f"{t['game']:44} {t['algorithm']:>14} {t['iterations']:>9,} it "
                f"{t['seconds']:8.1f} s  {t['measure']} {t['not_evaluated']}; "
                f"{t['visited']:,} information states visited  NOT MET"
            )
        else:
            lines.append(
                f"{t['game']:44} {t['measure']:>14} {t['value']:.2e} after "
                f"{t['iterations']:>7,} it, {1000 * t['seconds']:9.3f} ms  "
                f"{'ok' if t['met'] else 'MISSED'}"
            )
        if t.get("build_seconds") is not None:
            lines.append(
                f"{'':44} {t['algorithm']}: {t['dag']}; the walk {t['build_seconds']:.1f} s of the time"
            )
        elif t.get("dag"):
            lines.append(f"{'':44} {t['dag']}")
    return "\n".join(lines)


def liteefg_page_rows(rows: list, blotto: dict | None, command: str) -> list:
    """One row per game and algorithm against LiteEFG, and the Colonel Blotto neither lists."""
    out = []
    for r in rows:
        alg = r["algorithm"].upper()
        game = r["game"] if r["row"] == MINI_BLOTTO else f"`{r['game']}`"
        what = f"{alg} iterations against LiteEFG, {game}"
        o = _at(r["ours_curve"], r["iterations"])
        per_s = page.per_second(r["ours_per_s"])
        ours = f"{per_s}; NashConv {o[2]:.1e} after {o[0]:,} it ({page.seconds(o[1])})"
        if r["liteefg"]:
            out.append(page.Row(what, ours, r["liteefg"], "-", command))
            continue
        t = r["liteefg_curve"][-1]
        same = r["same_nash_conv_ratio"]
        out.append(
            page.Row(
                what,
                ours,
                f"LiteEFG {r['liteefg_version']}'s {alg} graph: {page.per_second(r['liteefg_per_s'])}; "
                f"NashConv {t[2]:.1e} after {t[0]:,} it ({page.seconds(t[1])})",
                f"{page.times(r['ratio'])} it/s; "
                + (f"{page.times(same)} to its NashConv" if same else "its NashConv not reached"),
                command,
            )
        )
    if blotto:
        out.append(
            page.Row(
                f"CFR+ and DCFR against LiteEFG, `{blotto['game']}`",
                f"{DAG_ALGORITHM.upper()} over its DAG of merged histories (the time-to-1e-3 rows)",
                f"LiteEFG cannot load it: its loader walks every history ({blotto['size']})",
                "-",
                command,
            )
        )
    return out


def page_rows(sections: dict, command: str) -> dict:
    """docs/performance.md's rows of the two tables present (an empty table writes none)."""
    blocks = {}
    cached = {label: c for label, _, c in SPEED_ROWS}

    def theirs(r):
        if cached.get(r["row"]):
            return "C++ `CFRSolver` on `convert_to_cached_tree` of it"
        return "C++ `CFRSolver` on the Python game" if "(" in r["row"] else "C++ `CFRSolver`"

    if sections.get("iterations_per_second"):
        blocks["bench_cfr.speed"] = [
            page.Row(
                f"CFR iterations (vanilla, alternating updates), `{r['game']}`",
                page.per_second(r["ours_per_s"]),
                f"{theirs(r)}: {page.per_second(r['openspiel_per_s'])}",
                page.times(r["ratio"]),
                command,
            )
            for r in sections["iterations_per_second"]
        ]
    if sections.get("liteefg"):
        blocks["bench_cfr.liteefg"] = liteefg_page_rows(
            sections["liteefg"], sections.get("liteefg_blotto"), command
        )
    targets = sections.get("time_to_1e-3")
    if targets:
        listed = [t for t in targets if t["algorithm"] == "cfr+"]
        rows = [
            page.Row(
                f"CFR+ to exploitability (NashConv where not zero-sum) below 1e-3 on every two-player "
                f"game of the economic-dilemmas study ({len(targets)} games)",
                f"met on {sum(t['met'] for t in targets)} of {len(targets)}; the {len(listed)} listed "
                f"ones within {max((t['iterations'] for t in listed), default=0):,} iterations and "
                f"{page.seconds(max((t['seconds'] for t in listed), default=0.0))}",
                "-",
                "-",
                command,
            )
        ]
        for t in targets:
            if t["algorithm"] == "cfr+":
                continue
            value = t["not_evaluated"] if t["value"] is None else f"{t['measure']} {t['value']:.1e}"
            walk = f" (the DAG's walk {page.seconds(t['build_seconds'])})" if t["build_seconds"] else ""
            rows.append(
                page.Row(
                    f"{t['algorithm']} to below 1e-3, `{t['game']}` (too large to list)",
                    f"{value} after {t['iterations']:,} iterations, {page.seconds(t['seconds'])}{walk}",
                    "-",
                    "-",
                    command,
                )
            )
        blocks["bench_cfr.targets"] = rows
    return blocks


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m experiments.bench_cfr",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--seconds", type=positive_float, default=1.0, help="seconds per measurement")
    p.add_argument("--rounds", type=positive_int, default=5, help="alternating rounds")
    p.add_argument(
        "--limit",
        type=positive_float,
        default=60.0,
        help="solver seconds per dilemma in the time-to-1e-3 table (default 60)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object instead of a table")
    p.add_argument(
        "--skip-targets", action="store_true", help="skip the time-to-1e-3 table over the two-player dilemmas"
    )
    p.add_argument(
        "--skip-speed", action="store_true", help="skip the iterations-per-second table against OpenSpiel"
    )
    p.add_argument("--skip-liteefg", action="store_true", help="skip the comparison with LiteEFG")
    p.add_argument(
        "--markdown", metavar="PAGE", help="also rewrite this benchmark's rows of PAGE (docs/performance.md)"
    )
    args = p.parse_args(argv)
    log = lambda m: print(m, file=sys.stderr, flush=True)
    rows = [] if args.skip_speed else speed_rows(args.seconds, args.rounds, log)
    lite = [] if args.skip_liteefg else liteefg_rows(args.seconds, args.rounds, log)
    blotto = None if args.skip_liteefg else blotto_refusal()
    targets = [] if args.skip_targets else target_rows(args.limit, log)
    sections = {
        "iterations_per_second": rows,
        "liteefg": lite,
        "liteefg_blotto": blotto,
        "time_to_1e-3": targets,
    }
    if args.markdown:
        command = page.command_line("python -m experiments.bench_cfr", argv)
        page.update(args.markdown, page_rows(sections, command))
    if args.json:
        print(json.dumps(sections))
        return 0
    if rows:
        print(f"{'game':34} {'ours it/s':>12} {'OpenSpiel it/s':>15} {'ratio':>7}")
        for r in rows:
            print(f"{r['row']:34} {r['ours_per_s']:12,.0f} {r['openspiel_per_s']:15,.0f} {r['ratio']:6.2f}x")
    if lite:
        print()
        print(format_liteefg(lite, blotto))
        print()
        print(format_curves(lite))
    if targets:
        print()
        print(format_targets(targets, args.limit))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Solver checks and timings against OpenSpiel's own alpha-beta.

    python -m experiments.bench_solvers [--sizes 3 4] [--repeats 3] [--json]
        [--markdown docs/performance.md]

``alphabeta_check`` solves OpenSpiel's C++ ``y(board_size=n)`` with
``open_spiel.python.algorithms.minimax.alpha_beta_search`` and our
``y_game(board_size=n)`` with the Cython kernel, from the empty board and
after every first move, and reports whether the values agree and how the
times compare. The two games share nothing but the rules; moves are
translated by ``games.boards.openspiel_y_actions``.

``solver_speed`` times the exhaustive solver on a few small games of ours.

``y_solver_comparison`` solves plain Y (every opening class, as
``solvers.exhaustive.solve`` does) with the dedicated Y solver, with the same
solver without must-play from one-move wins and without side links
(``Y_BASELINE``) and with the general
alpha-beta kernel in the same run, and reports times, node counts and the
ratios; ``--y-sizes 6`` is the issue-17 target (the general kernel needs
minutes there).
``y_list_bounds`` (``--y-bounds``) solves chosen openings of plain Y (side
8 by default, where the side-7 solves have become too small to time) with a
fresh Y solver for each of several H-search list bounds in the same run, the
first setting (the bounds before the side-8 work raised them) as the
baseline, and prints nodes, CPU seconds and ratios.
``parallel_speedup`` (``--parallel GAME``) solves one game with the serial
solver and then with the split solver (``solvers/parallel.py``) on 2 (or
``--parallel-jobs``) worker processes, back to back in the same run, checks that
the values and winning first moves agree, and reports the ratio of the wall
times (the load average before and after each run is printed beside them, since
the machine is shared) and of the CPU-time critical paths (the serial solve's
CPU time against the busiest worker's, plus the parent's own): on a machine
whose cores are taken by other jobs, wall time measures the contention, while
the CPU ratio is what the same split gives on idle cores, if the workers do not
slow each other down (memory, caches) and the parent waits for nothing else.
``table_replacement`` (``--tt-compare``) solves each flip-game variant (all
14 Double-'0' Y / Defector Y options and Flipway with and without pie, side 5
by default) with every alpha-beta table replacement scheme of
``Searcher(tt_replace=...)`` in the same run, checks that every opening's
value agrees, and prints node counts and CPU seconds (``time.process_time``,
which the load of a shared machine skews less than wall clock) with their
ratios to today's scheme ("depth"). A small ``--tt-log2`` (14 on side 5)
puts the table under the pressure a side-6 solve puts on 2**23-2**24 entries.
Every function returns a plain dict; ``--json`` prints them as one object,
which is the ``solvers`` section of ``python -m experiments.benchmark``
(``--quick`` there: ``--repeats 1 --skip-speed``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

import pyspiel
from games.boards import openspiel_y_actions
from open_spiel.python.algorithms.minimax import alpha_beta_search

import games  # noqa: F401
from analysis import performance_page as page
from solvers.alphabeta import Searcher
from solvers.exhaustive import solve


def _best_time(fn, repeats: int):
    best, out = float("inf"), None
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def alphabeta_check(sizes=(3, 4), repeats: int = 3) -> dict:
    """Values of C++ ``y`` (OpenSpiel alpha-beta) vs ours (kernel), root and openings.

    Times are the best of ``repeats`` runs; ours uses a fresh transposition
    table every run, so the table never carries answers between repeats.
    """
    rows = []
    for n in sizes:
        cpp = pyspiel.load_game(f"y(board_size={n})")
        ours = pyspiel.load_game(f"y_game(board_size={n})")
        t_os, (os_value, _) = _best_time(
            lambda cpp=cpp: alpha_beta_search(cpp, maximizing_player_id=0), repeats
        )

        def our_root(ours=ours):
            core = ours.new_core()
            return Searcher(core, 0, -1.0, 1.0, True, 16).value(core)[0]

        t_ours, our_value = _best_time(our_root, repeats)

        root = cpp.new_initial_state()
        _, to_cell = openspiel_y_actions(n)
        mismatches = []
        t_os_open = t_ours_open = 0.0
        for a in root.legal_actions():
            child = root.child(a)
            t = time.perf_counter()
            v_os, _ = alpha_beta_search(cpp, state=child, maximizing_player_id=0)
            t_os_open += time.perf_counter() - t
            core = ours.new_core()
            core.apply_action(to_cell[a])
            t = time.perf_counter()
            v_ours = Searcher(core, 0, -1.0, 1.0, True, 16).value(core)[0]
            t_ours_open += time.perf_counter() - t
            if v_os != v_ours:
                mismatches.append({"cell": root.action_to_string(0, a), "openspiel": v_os, "ours": v_ours})
        rows.append(
            {
                "board_size": n,
                "openspiel_value": os_value,
                "our_value": our_value,
                "root_values_agree": os_value == our_value,
                "openings": len(root.legal_actions()),
                "opening_mismatches": mismatches,
                "openspiel_root_seconds": t_os,
                "our_root_seconds": t_ours,
                "root_time_ratio": t_os / t_ours if t_ours > 0 else None,
                "openspiel_openings_seconds": t_os_open,
                "our_openings_seconds": t_ours_open,
                "openings_time_ratio": t_os_open / t_ours_open if t_ours_open > 0 else None,
            }
        )
    return {
        "experiment": "alphabeta_check",
        "repeats": repeats,
        "rows": rows,
        "all_agree": all(r["root_values_agree"] and not r["opening_mismatches"] for r in rows),
    }


def solver_speed(
    game_strings=("y_game(board_size=5)", "defector_y(board_size=5,protocol=1)", "double_o_y(board_size=5)"),
) -> dict:
    """Exhaustive solves of a few small games: value, nodes, seconds, nodes/s."""
    rows = []
    for gs in game_strings:
        r = solve(gs, tt_log2=22)
        rows.append(
            {
                "game": gs,
                "value": r["value"],
                "winning_first_moves": r["winning_first_moves"],
                "nodes": r["nodes"],
                "seconds": r["seconds"],
                "nodes_per_second": r["nodes"] / r["seconds"] if r["seconds"] else None,
            }
        )
    return {"experiment": "solver_speed", "rows": rows}


# the Y solver without its two main pruning steps (no must-play from one-move
# virtual wins, no side links): greedy virtual wins of bridges and two-cell edge
# templates, dead cells; it keeps the cheap later steps (an opponent's virtual
# win loses at once, captured-cell fill-in), so it is close to, not equal to,
# the solver of commit c2051e7
Y_BASELINE = dict(semi_mustplay=False, side_links=False)
# the Y solver of commit 505af73, the first that solved side 7: no H-search
# (step 6 of solvers/_ysolver.pyx), no centrality prior; only the widened dead
# cells (step 5) cannot be switched back
Y_PRE_HSEARCH = dict(hsearch=False, centrality=0)
# H-search's list bounds as "VCs/SCs/queue": the first is the solver of the
# first side-8 runs (commit f17a4a4), the second today's default
Y_BOUNDS = ("4/6/4096", "8/12/16384")


def _parse_bounds(text: str) -> dict:
    try:
        vcs, scs, queue = (int(x) for x in text.split("/"))
    except ValueError:
        raise ValueError(f"H-search bounds are VCS/SCS/QUEUE (three integers), not {text!r}") from None
    return dict(hsearch_vcs=vcs, hsearch_scs=scs, hsearch_queue=queue)


def y_list_bounds(
    size: int = 8,
    openings=("a7", "b6"),
    bounds=Y_BOUNDS,
    tt_log2: int = 22,
    time_limit: float = 300.0,
    progress=None,
) -> dict:
    """Each opening of ``y_game(board_size=size)`` solved by a fresh Y
    solver (table 2**tt_log2) for each H-search bound setting of ``bounds``
    ("VCS/SCS/QUEUE"), one after the other in this process: value (None:
    not solved in ``time_limit`` s of wall clock), nodes, CPU seconds, and
    the ratios of the first setting's CPU seconds and nodes to each (only
    where both solved: nodes done in a time limit measure nothing)."""
    import pyspiel

    from solvers import ysolver

    say = progress or (lambda msg: None)
    game = pyspiel.load_game(f"y_game(board_size={size})")
    root = game.new_core()
    settings = [_parse_bounds(b) for b in bounds]
    rows = []
    for opening in openings:
        if opening not in root.board.index_of_name:
            raise ValueError(f"no cell {opening!r} on side {size}")
        row = {"opening": opening, "load": _load(), "runs": {}}
        for text, kw in zip(bounds, settings, strict=True):
            solver = ysolver.make_solver(game, tt_log2=tt_log2, **kw)
            child = root.clone()
            child.apply_action(root.board.index_of_name[opening])
            cpu = time.process_time()
            try:
                v = ysolver.value(solver, child, time_limit)
            except ysolver.YSolveTimeout:
                v = None
            row["runs"][text] = {
                "value": v,
                "nodes": solver.nodes,
                "cpu_seconds": max(time.process_time() - cpu, 1e-6),
            }
            say(
                f"y_game(board_size={size}) after {opening}, bounds {text}: "
                f"{'not solved' if v is None else f'{v:+g}'}, {solver.nodes:,} nodes, "
                f"{row['runs'][text]['cpu_seconds']:.3f} CPU s"
            )
        first = row["runs"][bounds[0]]
        for text in bounds[1:]:
            x = row["runs"][text]
            if first["value"] is not None and x["value"] is not None:  # unsolved: no ratio
                x["node_ratio"] = first["nodes"] / max(x["nodes"], 1)
                x["cpu_ratio"] = first["cpu_seconds"] / x["cpu_seconds"]
        solved = [r["value"] for r in row["runs"].values() if r["value"] is not None]
        row["agree"] = len(set(solved)) <= 1
        rows.append(row)
    return {
        "experiment": "y_list_bounds",
        "size": size,
        "bounds": list(bounds),
        "time_limit": time_limit,
        "tt_log2": tt_log2,
        "rows": rows,
        "all_agree": all(r["agree"] for r in rows),
    }


def _y_solver_openings(game_string: str, tt_log2: int, **switches) -> dict:
    """Every opening class of plain Y solved by one Y solver (its table kept
    from class to class, as ``solve`` does) with the given pruning switches."""
    from solvers import ysolver
    from solvers.exhaustive import Evaluator

    ev = Evaluator(game_string, method="ysolver", tt_log2=10)
    ev.y_solver = ysolver.make_solver(ev.game, tt_log2=tt_log2, **switches)
    start = time.perf_counter()
    values = {}
    for members in ev.classes():
        v = ev.value(ev.child_of(members[0]))
        values.update({ev.describe(a): v for a in members})
    first = ev.player == 0
    return {
        "opening_values": values,
        "nodes": ev.y_solver.nodes,
        "seconds": max(time.perf_counter() - start, 1e-6),
        "value": max(values.values()) if first else min(values.values()),
    }


def _y_root(game_string: str, tt_log2: int, **switches) -> dict:
    """The empty board of plain Y solved by one fresh Y solver: value, nodes, CPU seconds."""
    import pyspiel

    from solvers import ysolver

    game = pyspiel.load_game(game_string)
    solver = ysolver.make_solver(game, tt_log2=tt_log2, **switches)
    cpu = time.process_time()
    v = ysolver.value(solver, game.new_core())
    return {"value": v, "nodes": solver.nodes, "cpu_seconds": max(time.process_time() - cpu, 1e-6)}


def y_solver_comparison(
    sizes=(5,), tt_log2: int = 22, alphabeta: bool = True, baseline: bool = True, progress=None
) -> dict:
    """Plain Y (every opening class, as ``solvers.exhaustive.solve`` does)
    solved in one run by the Y solver, by the same solver without H-search
    and the centrality prior (``Y_PRE_HSEARCH``, the solver of commit
    505af73), by the
    solver without must-play from one-move wins and side links
    (``Y_BASELINE``; ``baseline=False`` skips it) and by the general
    alpha-beta kernel (``alphabeta=False`` skips it): same values? Times,
    nodes and ratios (one run each, fresh tables, wall clock; the root alone
    also in CPU seconds, which the load of a shared machine disturbs less)."""
    say = progress or (lambda msg: None)
    rows = []
    for n in sizes:
        gs = f"y_game(board_size={n})"
        say(f"{gs}: root, with and without H-search ...")
        root = _y_root(gs, tt_log2)
        root_pre = _y_root(gs, tt_log2, **Y_PRE_HSEARCH)
        say(f"{gs}: every opening, with and without H-search ...")
        fast = _y_solver_openings(gs, tt_log2)
        pre = _y_solver_openings(gs, tt_log2, **Y_PRE_HSEARCH)
        base = _y_solver_openings(gs, tt_log2, **Y_BASELINE) if baseline else None
        plain = solve(gs, method="alphabeta", tt_log2=tt_log2) if alphabeta else None
        agree = (
            fast["opening_values"] == pre["opening_values"]
            and root["value"] == root_pre["value"]
            and (base is None or fast["opening_values"] == base["opening_values"])
            and (
                plain is None
                or (fast["value"] == plain["value"] and fast["opening_values"] == plain["opening_values"])
            )
        )
        winning = sorted(m for m, v in fast["opening_values"].items() if v > 0)
        row = {
            "game": gs,
            "value": fast["value"],
            "winning_first_moves": winning,
            "values_agree": agree,
            "root_nodes": root["nodes"],
            "root_cpu_seconds": round(root["cpu_seconds"], 3),
            "pre_hsearch_root_nodes": root_pre["nodes"],
            "pre_hsearch_root_cpu_seconds": round(root_pre["cpu_seconds"], 3),
            "root_cpu_ratio": root_pre["cpu_seconds"] / root["cpu_seconds"],
            "ysolver_nodes": fast["nodes"],
            "ysolver_seconds": round(fast["seconds"], 3),
            "pre_hsearch_nodes": pre["nodes"],
            "pre_hsearch_seconds": round(pre["seconds"], 3),
            "pre_hsearch_ratio": pre["seconds"] / fast["seconds"],
            "load": _load(),
        }
        if base is not None:
            row.update(
                {
                    "baseline_nodes": base["nodes"],
                    "baseline_seconds": round(base["seconds"], 3),
                    "baseline_ratio": base["seconds"] / fast["seconds"],
                }
            )
        if plain is not None:
            row.update(
                {
                    "alphabeta_nodes": plain["nodes"],
                    "alphabeta_seconds": plain["seconds"],
                    "time_ratio": plain["seconds"] / fast["seconds"],
                }
            )
        rows.append(row)
    return {
        "experiment": "y_solver_comparison",
        "baseline": Y_BASELINE,
        "pre_hsearch": Y_PRE_HSEARCH,
        "rows": rows,
    }


FLIP_GAMES = (
    [f"defector_y(board_size={{n}},protocol={p})" for p in (1, 122)]
    + [
        f"double_o_y(board_size={{n}},flip={f},protocol={p},win={w})"
        for f in ("all", "opponents", "friends")
        for p in (1, 122)
        for w in ("turn_start", "turn_end")
    ]
    + ["flipway(board_size={n})", "flipway(board_size={n},pie=True)"]
)
TT_SCHEMES = ("depth", "size", "size4")


def table_replacement(
    games_=None, size: int = 5, tt_log2: int = 14, schemes=TT_SCHEMES, progress=None
) -> dict:
    """Every game of ``games_`` (default: all flip variants on side ``size``)
    solved with each table scheme, one after the other in this process: nodes,
    CPU seconds, ratios to the first scheme, and whether all values agree."""
    say = progress or (lambda msg: None)
    import games.flipway  # noqa: F401

    rows = []
    for gs in games_ or [t.format(n=size) for t in FLIP_GAMES]:
        row = {"game": gs, "load": _load(), "schemes": {}}
        base = None
        for scheme in schemes:
            cpu = time.process_time()
            r = solve(gs, tt_log2=tt_log2, tt_replace=scheme)
            cpu = time.process_time() - cpu
            row["schemes"][scheme] = {"nodes": r["nodes"], "cpu_seconds": round(cpu, 3), "value": r["value"]}
            if base is None:
                base = r
                row["agrees"] = True
            else:
                row["agrees"] &= (r["value"], r["opening_values"]) == (base["value"], base["opening_values"])
        b = row["schemes"][schemes[0]]
        for scheme in schemes[1:]:
            x = row["schemes"][scheme]
            x["node_ratio"] = b["nodes"] / x["nodes"]
            x["cpu_ratio"] = b["cpu_seconds"] / x["cpu_seconds"] if x["cpu_seconds"] else None
        say(
            f"{gs}: "
            + ", ".join(f"{k} {v['nodes']:,} nodes {v['cpu_seconds']} s" for k, v in row["schemes"].items())
        )
        rows.append(row)
    totals = {
        k: {
            "nodes": sum(r["schemes"][k]["nodes"] for r in rows),
            "cpu_seconds": round(sum(r["schemes"][k]["cpu_seconds"] for r in rows), 3),
        }
        for k in schemes
    }
    return {
        "experiment": "table_replacement",
        "tt_log2": tt_log2,
        "schemes": list(schemes),
        "rows": rows,
        "totals": totals,
        "all_agree": all(r["agrees"] for r in rows),
    }


def _load() -> list[float]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


def parallel_speedup(
    game: str,
    jobs=(2,),
    tt_log2: int = 24,
    split_depth: int | None = None,
    progress=None,
    tables=("private", "shared"),
    time_limit: float = 0.0,
) -> dict:
    """Serial solve, then the split solver on each worker count of ``jobs``, one
    after the other in this process; the same values are checked, the times compared.

    With 2+ workers there is a run per ``tables`` mode: "private" (a table per
    worker) and "shared" (one table in shared memory for all, solvers/shared_tt.py).
    Each split run starts fresh worker processes (the pool is killed first), so no
    run inherits another's transposition tables. ``time_limit`` (s, 0: none)
    caps each split run; a run stopped by it is reported as incomplete."""
    from joblib.externals.loky import get_reusable_executor

    from solvers import parallel

    say = progress or (lambda msg: None)
    for mode in tables:
        if mode not in ("private", "shared"):
            raise ValueError(f"tables must be private or shared, got {mode!r}")
    rows = []
    load0 = _load()
    say(f"serial solve of {game} (load average {load0}) ...")
    # ratios come from unrounded clocks read here: the solvers' own "seconds" are
    # rounded to the millisecond, which is 0.0 for a tiny game and made a ratio of 0
    cpu, wall = time.process_time(), time.perf_counter()
    base = solve(game, tt_log2=tt_log2)
    base_cpu, base_wall = time.process_time() - cpu, time.perf_counter() - wall
    rows.append(
        {
            "solver": "serial",
            "jobs": 1,
            "table": "private",
            "seconds": base["seconds"],
            "nodes": base["nodes"],
            "cpu_seconds": round(base_cpu, 3),
            "cpu_ratio": 1.0,
            "total_cpu_seconds": round(base_cpu, 3),
            "load_before": load0,
            "load_after": _load(),
            "value": base["value"],
            "agrees": True,
            "complete": True,
            "ratio": 1.0,
        }
    )
    say(f"  {base['seconds']} s, {base['nodes']:,} nodes, {base_cpu:.1f} s CPU")
    for n in jobs:
        for mode in tables if n > 1 else ("private",):
            if n > 1:
                get_reusable_executor(max_workers=n).shutdown(wait=True, kill_workers=True)
            load0 = _load()
            say(f"split solve on {n} worker(s), {mode} table(s) (load average {load0}) ...")
            cpu, wall = time.process_time(), time.perf_counter()
            r = parallel.solve(
                game,
                jobs=n,
                tt_log2=tt_log2,
                split_depth=split_depth,
                shared_tt=mode == "shared",
                time_limit=time_limit,
            )
            # the critical path in CPU time: the busiest worker, plus what the parent itself spent
            # (all of it with --jobs 1, where the units run in this process)
            parent, split_wall = time.process_time() - cpu, time.perf_counter() - wall
            critical = parent if n == 1 else max(r["worker_cpu_seconds"], default=0.0) + parent
            total = parent if n == 1 else sum(r["worker_cpu_seconds"]) + parent
            rows.append(
                {
                    "solver": "split",
                    "jobs": n,
                    "table": mode,
                    "seconds": r["seconds"],
                    "nodes": r["nodes"],
                    "cpu_seconds": round(critical, 3),
                    "cpu_ratio": base_cpu / critical if critical else None,
                    "total_cpu_seconds": round(total, 3),
                    "worker_cpu_seconds": r["worker_cpu_seconds"],
                    "parent_cpu_seconds": round(parent, 3),
                    "load_before": load0,
                    "load_after": _load(),
                    "value": r["value"],
                    "complete": r["complete"],
                    "units": r["units"],
                    "units_solved": r["units_solved"],
                    "units_wasted": r["units_wasted"],
                    "split_depth": r["split_depth"],
                    "agrees": r["complete"]
                    and all(r[k] == base[k] for k in ("value", "winning_first_moves", "opening_values")),
                    "ratio": base_wall / split_wall,
                }
            )
            say(
                f"  {r['seconds']} s, {r['nodes']:,} nodes, worker CPU {r['worker_cpu_seconds']}"
                f"{'' if r['complete'] else ' (stopped by the time limit)'}"
            )
    return {
        "experiment": "parallel_speedup",
        "game": game,
        "tt_log2": tt_log2,
        "cpus": os.cpu_count(),
        "winning_first_moves": base["winning_first_moves"],
        "rows": rows,
    }


def _millions(n: int) -> str:
    return f"{n / 1e6:.1f}M" if n >= 1e6 else f"{n:,}"


def page_rows(sections: dict, command: str) -> dict:
    """docs/performance.md's rows of the results in ``sections`` (any of this module's
    dicts, told apart by their ``experiment``), one block per experiment."""
    blocks = {}
    for out in sections.values():
        kind = out.get("experiment")
        if kind == "alphabeta_check":
            blocks["bench_solvers.alphabeta"] = [
                page.Row(
                    f"alpha-beta, `y_game(board_size={r['board_size']})` root value and every opening"
                    + ("" if r["root_values_agree"] and not r["opening_mismatches"] else " (values DIFFER)"),
                    f"root {page.seconds(r['our_root_seconds'])}, "
                    f"every opening {page.seconds(r['our_openings_seconds'])}",
                    f"`minimax.alpha_beta_search` on C++ `y(board_size={r['board_size']})`: root "
                    f"{page.seconds(r['openspiel_root_seconds'])}, every opening "
                    f"{page.seconds(r['openspiel_openings_seconds'])}",
                    f"{page.times(r['root_time_ratio'])} root, {page.times(r['openings_time_ratio'])} "
                    "every opening",
                    command,
                )
                for r in out["rows"]
            ]
        elif kind == "y_solver_comparison":
            rows = []
            for r in out["rows"]:
                plain = (
                    f"; general alpha-beta kernel {page.seconds(r['alphabeta_seconds'])}"
                    if "alphabeta_seconds" in r
                    else ""
                )
                rows.append(
                    page.Row(
                        f"exact Y solver, `{r['game']}` root and every opening"
                        + ("" if r["values_agree"] else " (values DIFFER)"),
                        f"root {r['root_nodes']:,} nodes, {page.seconds(r['root_cpu_seconds'])} CPU; "
                        f"every opening {_millions(r['ysolver_nodes'])} nodes, "
                        f"{page.seconds(r['ysolver_seconds'])}",
                        "the same solver without H-search and the centrality prior: root "
                        f"{_millions(r['pre_hsearch_root_nodes'])} nodes, "
                        f"{page.seconds(r['pre_hsearch_root_cpu_seconds'])} CPU; every opening "
                        f"{_millions(r['pre_hsearch_nodes'])} nodes, {page.seconds(r['pre_hsearch_seconds'])}"
                        + plain,
                        f"{page.times(r['root_cpu_ratio'])} root (CPU), "
                        f"{page.times(r['pre_hsearch_ratio'])} every opening"
                        + (f"; {page.times(r['time_ratio'])} over alpha-beta" if plain else ""),
                        command,
                    )
                )
            blocks["bench_solvers.ysolver"] = rows
        elif kind == "y_list_bounds":
            first, rows = out["bounds"][0], []

            def run(text, x):
                solved = "not solved" if x["value"] is None else f"{x['nodes']:,} nodes"
                return f"{text}: {solved}, {page.seconds(x['cpu_seconds'])} CPU"

            for r in out["rows"]:
                others = [(k, r["runs"][k]) for k in out["bounds"][1:]]
                rows.append(
                    page.Row(
                        f"exact Y solver, H-search list bounds (VCs/SCs/queue), "
                        f"`y_game(board_size={out['size']})` after {r['opening']}",
                        "; ".join(run(k, x) for k, x in others),
                        run(first, r["runs"][first]),
                        "; ".join(
                            f"{page.times(x['node_ratio'])} nodes, {page.times(x['cpu_ratio'])} CPU"
                            if "cpu_ratio" in x
                            else "-"
                            for _, x in others
                        ),
                        command,
                    )
                )
            blocks["bench_solvers.y_bounds"] = rows
        elif kind == "table_replacement":
            first, totals = out["schemes"][0], out["totals"]
            cost = {
                k: f"`--tt-replace {k}`: {_millions(x['nodes'])} nodes, {page.seconds(x['cpu_seconds'])} CPU"
                for k, x in totals.items()
            }
            blocks["bench_solvers.tt_compare"] = [
                page.Row(
                    f"exact alpha-beta, {len(out['rows'])} games, root and every opening, a table of "
                    f"2^{out['tt_log2']} entries" + ("" if out["all_agree"] else " (values DIFFER)"),
                    "; ".join(cost[k] for k in out["schemes"][1:]),
                    cost[first] + " (the default)",
                    "; ".join(
                        f"{page.times(totals[first]['nodes'] / totals[k]['nodes'])} nodes, "
                        + page.times(totals[first]["cpu_seconds"] / max(totals[k]["cpu_seconds"], 1e-9))
                        + " CPU"
                        for k in out["schemes"][1:]
                    ),
                    command,
                )
            ]
        elif kind == "parallel_speedup":
            serial = out["rows"][0]
            blocks["bench_solvers.parallel"] = [
                page.Row(
                    f"parallel exact solving, `{out['game']}`, {r['jobs']} worker(s), "
                    f"{'one shared table' if r['table'] == 'shared' else 'a table each'}"
                    + ("" if r["agrees"] else " (values DIFFER or incomplete)"),
                    f"{r['seconds']:.2f} s wall, {r['cpu_seconds']:.2f} s CPU critical path, "
                    f"{_millions(r['nodes'])} nodes",
                    f"the serial solver: {serial['seconds']:.2f} s, {serial['cpu_seconds']:.2f} s CPU, "
                    f"{_millions(serial['nodes'])} nodes",
                    f"{page.times(r['ratio'])} wall, {page.times(r['cpu_ratio'])} CPU critical path",
                    command,
                )
                for r in out["rows"][1:]
            ]
    return blocks


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m experiments.bench_solvers",
        description="Check our alpha-beta against OpenSpiel's on C++ y and time both.",
    )
    ap.add_argument("--sizes", type=int, nargs="+", default=[3, 4], help="y board sizes (2..5)")
    ap.add_argument("--repeats", type=int, default=3, help="timing repeats (best is kept)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--seed", type=int, default=0, help="unused (the searches are deterministic)")
    ap.add_argument("--skip-speed", action="store_true", help="only the OpenSpiel comparison")
    ap.add_argument(
        "--y-sizes",
        type=int,
        nargs="*",
        default=[5],
        metavar="N",
        help="Y sides for the Y solver vs itself without H-search vs its "
        "pre-issue-17 pruning vs alpha-beta comparison (3..7; 6 takes minutes, "
        "7 is beyond the general kernel and the old pruning: use "
        "--no-y-alphabeta --no-y-baseline; none: skip)",
    )
    ap.add_argument(
        "--no-y-alphabeta",
        action="store_true",
        help="leave the general alpha-beta kernel out of the Y solver comparison",
    )
    ap.add_argument(
        "--no-y-baseline",
        action="store_true",
        help="leave the pre-issue-17 pruning (Y_BASELINE) out of the Y solver comparison",
    )
    ap.add_argument(
        "--y-bounds",
        nargs="*",
        metavar="VCS/SCS/QUEUE",
        help="only the H-search list-bound comparison: --y-bound-openings of side "
        "--y-bound-size solved by a fresh Y solver per setting, the first the "
        f"baseline (no setting given: {' '.join(Y_BOUNDS)})",
    )
    ap.add_argument(
        "--y-bound-size", type=int, default=8, metavar="N", help="side for --y-bounds (3..10; default 8)"
    )
    ap.add_argument(
        "--y-bound-openings",
        nargs="+",
        default=["a7", "b6"],
        metavar="CELL",
        help="first moves for --y-bounds (default a7 b6)",
    )
    ap.add_argument(
        "--y-bound-time-limit",
        type=float,
        default=300.0,
        metavar="S",
        help="wall-clock limit per solve for --y-bounds (default 300)",
    )
    ap.add_argument(
        "--parallel",
        metavar="GAME",
        help="only the 1 vs N worker comparison on GAME: serial solver, then the split "
        "solver (solvers.solve --jobs N) in the same run",
    )
    ap.add_argument(
        "--parallel-jobs",
        type=int,
        nargs="+",
        default=[2],
        metavar="N",
        help="worker counts of the split runs (default 2)",
    )
    ap.add_argument(
        "--parallel-tables",
        nargs="+",
        choices=("private", "shared"),
        default=["private", "shared"],
        help="table modes of the split runs with 2+ workers (default: both, one run each)",
    )
    ap.add_argument(
        "--parallel-time-limit",
        type=float,
        default=0.0,
        metavar="S",
        help="stop each split run after S seconds (0: none); it is then reported incomplete",
    )
    ap.add_argument(
        "--parallel-split-depth",
        type=int,
        default=None,
        metavar="D",
        help="--split-depth of the split runs (default: the solver's choice)",
    )
    ap.add_argument(
        "--tt-log2",
        type=int,
        default=None,
        help="table size of the --parallel runs (per worker, or the one shared table; default 24) "
        "of --tt-compare (default 14) and of --y-bounds (default 22)",
    )
    ap.add_argument(
        "--tt-compare",
        action="store_true",
        help="only the table replacement comparison: every flip-game variant solved "
        "with each --tt-replace scheme in the same run (nodes, CPU seconds, "
        "ratios to the default scheme; --tt-log2 sets the table, 14 is sensible "
        "for side 5)",
    )
    ap.add_argument(
        "--tt-size",
        type=int,
        default=5,
        metavar="N",
        help="board side of the --tt-compare games (3..6; default 5)",
    )
    ap.add_argument(
        "--tt-games",
        nargs="+",
        metavar="GAME",
        help="--tt-compare these game strings instead of every flip variant",
    )
    ap.add_argument(
        "--tt-schemes",
        nargs="+",
        choices=TT_SCHEMES,
        default=list(TT_SCHEMES),
        metavar="SCHEME",
        help=f"--tt-compare these schemes, the first as the baseline (default: {' '.join(TT_SCHEMES)})",
    )
    ap.add_argument(
        "--markdown",
        metavar="PAGE",
        help="also rewrite the rows this run measured in PAGE (docs/performance.md)",
    )
    args = ap.parse_args(argv)
    command = page.command_line("python -m experiments.bench_solvers", argv)

    def write_page(*results):
        if args.markdown:
            page.update(args.markdown, page_rows(dict(enumerate(results)), command))

    if args.y_bounds is not None:
        bounds = tuple(args.y_bounds) or Y_BOUNDS
        if not 3 <= args.y_bound_size <= 10:
            ap.error("--y-bound-size must lie in 3..10")
        if not args.y_bound_time_limit > 0:
            ap.error("--y-bound-time-limit must be > 0")
        tt = 22 if args.tt_log2 is None else args.tt_log2
        if not 10 <= tt <= 30:
            ap.error("--tt-log2 must be in 10..30")
        try:
            for b in bounds:
                _parse_bounds(b)
            out = y_list_bounds(
                args.y_bound_size,
                tuple(args.y_bound_openings),
                bounds,
                tt,
                args.y_bound_time_limit,
                progress=lambda m: print(m, file=sys.stderr, flush=True),
            )
        except ValueError as exc:
            ap.error(str(exc))
        write_page(out)
        if args.json:
            print(json.dumps(out))
            return 0 if out["all_agree"] else 1
        print(
            f"H-search list bounds on y_game(board_size={out['size']}), fresh solver each, "
            f"table 2**{out['tt_log2']} (ratios: {bounds[0]} / setting)"
        )
        for r in out["rows"]:
            cells = []
            for k in bounds:
                x = r["runs"][k]
                v = "not solved" if x["value"] is None else f"{x['value']:+g}"
                cells.append(
                    f"{k}: {v} {x['nodes']:,} n {x['cpu_seconds']:.3f} s"
                    + (f" (x{x['node_ratio']:.1f} n, x{x['cpu_ratio']:.1f} cpu)" if "cpu_ratio" in x else "")
                )
            print(f"after {r['opening']}: " + "; ".join(cells) + f"; agree {r['agree']}; load {r['load']}")
        return 0 if out["all_agree"] else 1
    if args.tt_log2 is None:
        args.tt_log2 = 14 if args.tt_compare else 24
    if args.tt_compare:
        if not 3 <= args.tt_size <= 6:
            ap.error("--tt-size must lie in 3..6")
        if not 10 <= args.tt_log2 <= 30:
            ap.error("--tt-log2 must be in 10..30")
        out = table_replacement(
            args.tt_games,
            args.tt_size,
            args.tt_log2,
            tuple(args.tt_schemes),
            progress=lambda m: print(m, file=sys.stderr, flush=True),
        )
        write_page(out)
        if args.json:
            print(json.dumps(out))
            return 0 if out["all_agree"] else 1
        first = out["schemes"][0]
        print(f"table replacement, --tt-log2 {out['tt_log2']} (ratios: {first} / scheme)")
        for r in out["rows"] + [
            {"game": "TOTAL", "schemes": out["totals"], "agrees": out["all_agree"], "load": _load()}
        ]:
            cells = []
            for k in out["schemes"]:
                x = r["schemes"][k]
                cells.append(
                    f"{k} {x['nodes']:>11,} n {x['cpu_seconds']:7.2f} s"
                    + (
                        f" (x{r['schemes'][first]['nodes'] / x['nodes']:.2f} n, "
                        f"x{r['schemes'][first]['cpu_seconds'] / max(x['cpu_seconds'], 1e-9):.2f} cpu)"
                        if k != first
                        else ""
                    )
                )
            print(f"{r['game']}: " + "; ".join(cells) + f"; agree {r['agrees']}; load {r['load']}")
        return 0 if out["all_agree"] else 1
    if args.parallel:
        if any(n < 1 for n in args.parallel_jobs):
            ap.error("--parallel-jobs must be positive worker counts")
        if args.parallel_split_depth is not None and args.parallel_split_depth < 1:
            ap.error("--parallel-split-depth must be >= 1")
        if not 10 <= args.tt_log2 <= 30:
            ap.error("--tt-log2 must be in 10..30")
        if not (args.parallel_time_limit >= 0 and math.isfinite(args.parallel_time_limit)):
            ap.error("--parallel-time-limit must be a finite number of seconds >= 0")
        out = parallel_speedup(
            args.parallel,
            tuple(args.parallel_jobs),
            args.tt_log2,
            args.parallel_split_depth,
            progress=lambda m: print(m, file=sys.stderr, flush=True),
            tables=tuple(args.parallel_tables),
            time_limit=args.parallel_time_limit,
        )
        write_page(out)
        if args.json:
            print(json.dumps(out))
            return 0
        print(
            f"{out['game']}: winning first moves {' '.join(out['winning_first_moves']) or 'none'} "
            f"({out['cpus']} CPUs, --tt-log2 {out['tt_log2']})"
        )
        for r in out["rows"]:
            extra = (
                f", {r['units_solved']}/{r['units']} units {r['split_depth']} plies deep, "
                f"{r['units_wasted']} wasted"
                if r["solver"] == "split"
                else ""
            )
            value = "unsolved" if r["value"] is None else f"{r['value']:+g}"
            workers = (
                f", worker CPU {' + '.join(f'{c:.1f}' for c in r['worker_cpu_seconds'])} s"
                if r.get("worker_cpu_seconds") and r["jobs"] > 1
                else ""
            )
            print(
                f"  {r['solver']:>6} x{r['jobs']} {r['table']:>7}: {r['seconds']:8.2f} s  "
                f"{r['nodes']:>14,} nodes  value {value}  agrees {r['agrees']}  speed-up "
                f"{r['ratio']:.2f}x wall, {r['cpu_ratio']:.2f}x CPU critical path "
                f"({r['cpu_seconds']:.2f} s; {r['total_cpu_seconds']:.1f} s CPU in all{workers})  "
                f"(load {r['load_before']} -> {r['load_after']}{extra})"
            )
        return 0 if all(r["agrees"] for r in out["rows"]) else 1
    if any(not 2 <= n <= 5 for n in args.sizes):
        ap.error("--sizes must lie in 2..5 (OpenSpiel's Python alpha-beta has no table)")
    if any(not 3 <= n <= 7 for n in args.y_sizes):
        ap.error("--y-sizes must lie in 3..7")
    if args.repeats < 1:
        ap.error("--repeats must be >= 1")
    print("checking against OpenSpiel alpha_beta_search ...", file=sys.stderr, flush=True)
    out = {"alphabeta_check": alphabeta_check(tuple(args.sizes), args.repeats)}
    if not args.skip_speed:
        print("timing the exhaustive solver ...", file=sys.stderr, flush=True)
        out["solver_speed"] = solver_speed()
        if args.y_sizes:
            print("Y solver against alpha-beta ...", file=sys.stderr, flush=True)
            out["y_solver_comparison"] = y_solver_comparison(
                tuple(args.y_sizes),
                alphabeta=not args.no_y_alphabeta,
                baseline=not args.no_y_baseline,
                progress=lambda m: print(m, file=sys.stderr, flush=True),
            )
    write_page(*out.values())
    if args.json:
        print(json.dumps(out))
        return 0
    for r in out["alphabeta_check"]["rows"]:
        print(
            f"y({r['board_size']}): OpenSpiel {r['openspiel_value']:+g}, ours {r['our_value']:+g}; "
            f"{r['openings'] - len(r['opening_mismatches'])}/{r['openings']} openings agree; "
            f"root {r['openspiel_root_seconds']:.4f} s vs {r['our_root_seconds']:.4f} s "
            f"(x{r['root_time_ratio']:.0f}); openings {r['openspiel_openings_seconds']:.3f} s vs "
            f"{r['our_openings_seconds']:.4f} s (x{r['openings_time_ratio']:.0f})"
        )
    for r in out.get("solver_speed", {}).get("rows", []):
        print(
            f"{r['game']}: value {r['value']:+g}, {r['nodes']:,} nodes, {r['seconds']} s "
            f"({r['nodes_per_second']:,.0f} nodes/s)"
        )
    for r in out.get("y_solver_comparison", {}).get("rows", []):
        plain = (
            f", alpha-beta {r['alphabeta_nodes']:,} nodes {r['alphabeta_seconds']} s (x{r['time_ratio']:.1f})"
            if "alphabeta_nodes" in r
            else ""
        )
        base = (
            f", pre-issue-17 Y solver {r['baseline_nodes']:,} nodes {r['baseline_seconds']} s "
            f"(x{r['baseline_ratio']:.1f})"
            if "baseline_nodes" in r
            else ""
        )
        print(
            f"{r['game']}: value {r['value']:+g}, openings agree: {r['values_agree']}; root: Y solver "
            f"{r['root_nodes']:,} nodes {r['root_cpu_seconds']} CPU s, without H-search and prior "
            f"{r['pre_hsearch_root_nodes']:,} nodes {r['pre_hsearch_root_cpu_seconds']} CPU s "
            f"(x{r['root_cpu_ratio']:.1f}); every opening: Y solver {r['ysolver_nodes']:,} nodes "
            f"{r['ysolver_seconds']} s, without them {r['pre_hsearch_nodes']:,} nodes "
            f"{r['pre_hsearch_seconds']} s (x{r['pre_hsearch_ratio']:.1f}){base}{plain}; "
            f"load {r['load']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

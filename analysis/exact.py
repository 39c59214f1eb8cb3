"""Exact values beside a study's estimates: solve many small games, resumably,
and say in words what each value means.

Why: several studies set a sampled first-player rate next to the proven
value of the same game on a small board; solving, recording a solver failure
instead of stopping the study, and wording the result the same way in every
table belong to neither study.
"""

from __future__ import annotations

import functools
import importlib
import time
from collections.abc import Sequence
from pathlib import Path

from analysis.study import resumable, say


def solve_record(game: str, time_limit: float, imports: Sequence[str] = ()) -> dict:
    """One exhaustive solve as a record: value, winning openings, nodes, times.

    ``imports`` are modules that register the game (a worker process starts
    bare). A solver failure is returned as ``{"error": ...}`` so the table
    reports it instead of the study dying.
    """
    for module in imports:
        importlib.import_module(module)
    from solvers.exhaustive import solve

    start = time.perf_counter()
    try:
        result = solve(game, time_limit=time_limit)
    except Exception as error:  # a solver failure is reported in the table, not fatal to the study
        return {"game": game, "time_limit": time_limit, "error": repr(error)}
    keep = ("value", "winning_first_moves", "unsolved_first_moves", "complete", "nodes", "seconds")
    record = {k: result.get(k) for k in keep}
    record.update(
        game=game,
        time_limit=time_limit,
        wall_seconds=round(time.perf_counter() - start, 3),
        openings=len(result.get("opening_values") or {}) + len(result.get("unsolved_first_moves") or []),
    )
    return record


def solve_all(
    games: list[str], time_limit: float, path: Path, n_jobs: int, imports: Sequence[str] = ()
) -> dict[str, dict]:
    """A record per game (``solve_record``), read back from ``path`` where an
    earlier run finished it, solved on ``n_jobs`` processes otherwise."""
    return resumable(
        games,
        path,
        n_jobs,
        # A run that timed out may be retried with more time; a finished one never
        # needs to be. A crashed one (out of memory on a busy machine, a solver
        # bug since fixed) is always retried: its time limit says nothing.
        reusable=lambda r: "error" not in r and (r.get("complete") or r.get("time_limit", 0) >= time_limit),
        work=functools.partial(solve_record, time_limit=time_limit, imports=tuple(imports)),
        announce=lambda k: f"(b) solving {k} positions, up to {time_limit:.0f} s each on {n_jobs} processes",
        report=lambda r: say(f"    {r['game']}: value {r.get('value')} in {r.get('wall_seconds', '?')} s"),
    )


def value_text(record: dict | None) -> str:
    """A solve record in words: who wins with perfect play, and how many openings win."""
    if not record:
        return "not run"
    if "error" in record:
        return "solver error"
    value = record.get("value")
    if value is None:
        found = len(record.get("winning_first_moves") or [])
        return f"unsolved in {record['time_limit']:.0f} s" + (
            f" ({found} winning openings found)" if found else ""
        )
    if value > 0:
        wins = len(record.get("winning_first_moves") or [])
        return f"P1 wins ({wins}/{record.get('openings', '?')} openings win)"
    if value < 0:
        return f"P2 wins (0/{record.get('openings', '?')} openings win)"
    return "draw"

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


# --------------------------------------------------------------------------- published values

ROOT = Path(__file__).resolve().parents[1]

#: The published solve records (docs/solved.md's tables), one per game string; a later record replaces.
SOLVED_RECORDS = ROOT / "docs" / "solved_records.jsonl"


def published_solves(path: Path = SOLVED_RECORDS) -> dict[str, dict]:
    """The published solve records by game string, each in ``solve_record``'s shape
    (``openings`` counted from its opening values; a root-only record has none)."""
    from analysis.solved_families import KEY
    from records import read_records

    out = {}
    for rec in read_records(path, key=KEY):
        openings = len(rec.get("opening_values") or {})
        out[rec[KEY]] = dict(
            rec, game=rec[KEY], openings=openings or "?", time_limit=0.0, source=f"{path.name}"
        )
    return out


def exact_values(
    games: list[str],
    time_limit: float,
    path: Path,
    n_jobs: int,
    imports: Sequence[str] = (),
    published: dict[str, dict] | None = None,
) -> dict[str, dict]:
    """A record per game: the published solve where docs/solved_records.jsonl holds
    one, solved in this run (``solve_all``) otherwise.

    Why: the published records are the same solver's proofs, some of which took
    half an hour (side 6) or longer; a study that solved them again would spend
    its time budget repeating them. A record read from the published file carries
    ``source``, so a table can tell the two apart."""
    published = published_solves() if published is None else published
    known = {g: published[g] for g in games if g in published}
    todo = [g for g in games if g not in known]
    solved = solve_all(todo, time_limit, path, n_jobs, imports) if todo else {}
    return {**known, **solved}


def value_sign(record: dict | None) -> str:
    """A solve in one sign: ``+1`` (first player wins), ``-1``, ``0`` (draw), ``-`` (no value)."""
    value = (record or {}).get("value")
    if value is None or "error" in (record or {}):
        return "-"
    return "+1" if value > 0 else "-1" if value < 0 else "0"


def value_cell(record: dict | None) -> str:
    """A compact table cell: the sign, and for a first-player win how many openings win."""
    sign = value_sign(record)
    if sign == "+1":
        return f"+1 ({len(record.get('winning_first_moves') or [])}/{record.get('openings', '?')})"
    return sign


def side_pattern(values: dict[int, dict | None]) -> str:
    """How a game's exact value runs over the sides solved: ``+1 on every side solved (2-7)``,
    or the runs of equal value in side order, ``-1 on 2-4, +1 on 5-6``; unsolved sides are
    left out and named."""
    solved = [(side, value_sign(rec)) for side, rec in sorted(values.items()) if value_sign(rec) != "-"]
    if not solved:
        return "no side solved"
    runs: list[list] = []
    for side, sign in solved:
        if runs and runs[-1][0] == sign:
            runs[-1][2] = side
        else:
            runs.append([sign, side, side])

    def span(a: int, b: int) -> str:
        return str(a) if a == b else f"{a}-{b}"

    if len(runs) == 1:
        return f"{runs[0][0]} on every side solved ({span(solved[0][0], solved[-1][0])})"
    changes = len(runs) - 1
    return ", ".join(f"{sign} on {span(a, b)}" for sign, a, b in runs) + (
        f" ({changes} change{'s' if changes > 1 else ''} of sign)"
    )

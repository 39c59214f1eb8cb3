"""Ludii's quality metrics as columns of a study's table, from the games the study played.

Why: the studies that compare variants (``experiments.first_player_advantage``,
``experiments.compare_flip_options``) already play games whose records hold
every action; replaying them into traces (``analysis.game_traces``) gives
each variant's Balance, Drawishness, Decisiveness, Drama and branching factor
by the definitions of ``analysis.game_metrics``, with no game played again.
Decisiveness and Drama need a state evaluation: each position is evaluated
from ``METRIC_PLAYOUTS`` uniformly random games played out of it in the
game's kernel, which costs little beside the games themselves.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from pathlib import Path

from analysis.game_metrics import all_metrics

#: (metric of analysis.game_metrics, column heading) of every study table.
COLUMNS: tuple[tuple[str, str], ...] = (
    ("Balance", "Balance"),
    ("Drawishness", "Drawishness"),
    ("DecisivenessThreshold", "Decisiveness (threshold)"),
    ("DramaAverage", "Drama"),
    ("BranchingFactorAverage", "branching factor"),
)

#: Random games each position is evaluated from, for Decisiveness and Drama.
METRIC_PLAYOUTS = 50


def metrics_of_games(
    game_string: str, action_lists: Sequence[Sequence[int]], seed: int, playouts: int = METRIC_PLAYOUTS
) -> dict:
    """The ``COLUMNS`` metrics of the recorded games (each a list of actions, chance
    outcomes included) of ``game_string``: value and 95% interval of each."""
    import pyspiel

    import games  # noqa: F401  (registers this toolkit's games in a worker)
    from analysis.game_traces import replay_trace
    from analysis.tournament import derive_seed

    game = pyspiel.load_game(game_string)
    traces = [
        replay_trace(game, actions, derive_seed(seed, game_string, i), playouts)
        for i, actions in enumerate(action_lists)
    ]
    values = all_metrics(traces, game.num_players()) if traces else {}

    def clean(x: float) -> float | None:  # JSON has no NaN
        return None if math.isnan(x) else x

    return {
        name: {k: clean(x) for k, x in values[name].as_dict().items()} if name in values else None
        for name, _ in COLUMNS
    }


def _cell(key: str, cell: tuple[str, list], seed: int, playouts: int) -> dict:
    game_string, action_lists = cell
    return {
        "game": key,
        "games": len(action_lists),
        "playouts": playouts,
        "seed": seed,
        "metrics": metrics_of_games(game_string, action_lists, seed, playouts),
    }


def metrics_all(
    cells: Mapping[str, tuple[str, list]], path: Path, n_jobs: int, seed: int, playouts: int = METRIC_PLAYOUTS
) -> dict[str, dict]:
    """``metrics_of_games`` of every cell (key -> (game string, action lists)), read back
    from ``path`` where an earlier run measured the same games, measured on ``n_jobs``
    processes otherwise."""
    from analysis.study import resumable

    return resumable(
        list(cells),
        path,
        n_jobs,
        reusable=lambda r: (
            (r["games"], r["playouts"], r["seed"]) == (len(cells[r["game"]][1]), playouts, seed)
        ),
        work=functools.partial(_cell, seed=seed, playouts=playouts),
        announce=lambda k: f"Ludii's metrics of {k} cells' games ({playouts} random games per position)",
        inputs=cells,
    )


def _text(name: str, value: float | None) -> str:
    if value is None:
        return "-"
    if name == "Drawishness":
        return f"{100 * value:.0f}%"
    return f"{value:.1f}" if name == "BranchingFactorAverage" else f"{value:.2f}"


def metric_heads() -> list[str]:
    """The table headings of the metric columns."""
    return [head for _, head in COLUMNS]


def metric_cells(record: Mapping | None) -> list[str]:
    """A table row's metric cells (``record``: one ``metrics_all`` record; ``None``: no games)."""
    metrics = (record or {}).get("metrics", {})
    return [_text(name, (metrics.get(name) or {}).get("value")) for name, _ in COLUMNS]


def metric_csv_fields(record: Mapping | None) -> dict:
    """A CSV row's metric fields: each metric's value and interval, by its Ludii name."""
    metrics = (record or {}).get("metrics", {})
    out = {}
    for name, _ in COLUMNS:
        m = metrics.get(name) or {}
        out[name] = m.get("value")
        out[f"{name}_low"] = m.get("low")
        out[f"{name}_high"] = m.get("high")
    return out

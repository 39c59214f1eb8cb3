"""The Evolution page of the tic-tac-toe variations specification as data and
a plot: the skill of chosen players on one rule set's board after each of
their games, over time."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from registry.leaderboard import history
from registry.store import PUBLIC, Registry


def evolution(
    reg: Registry, rule_set: str, players: Sequence[str], universe: str = PUBLIC
) -> dict[str, list[dict]]:
    return {name: history(reg, rule_set, universe, name) for name in players}


def plot_evolution(data: dict[str, list[dict]], stem: str | Path, title: str) -> list[Path]:
    """Write STEM.png, STEM.svg and STEM.json (the data); their paths."""
    import datetime as dt

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from analysis.plots import save_figure

    fig, ax = plt.subplots(figsize=(7, 4))
    for name, points in data.items():
        ax.plot(
            [dt.datetime.fromisoformat(p["at"]) for p in points],
            [p["skill"] for p in points],
            marker=".",
            label=name,
        )
    ax.set_title(title)
    ax.set_xlabel("time (UTC)")
    ax.set_ylabel("skill rating (mu - 3 sigma)")
    ax.legend()
    fig.autofmt_xdate()
    paths = save_figure(fig, stem)
    path = Path(stem).with_suffix(".json")
    path.write_text(json.dumps(data, indent=1))
    return paths + [path]

"""Plots for studies: estimates with intervals, rating vs compute, length histograms.

Every function writes the same figure as PNG (to look at) and SVG (to print or
edit) and returns both paths. Matplotlib runs headless (Agg), since studies run
on servers and Dask workers. Interval plots are horizontal so long variant names
stay readable; every axis says what it measures and in which unit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

_COLOURS = plt.rcParams["axes.prop_cycle"].by_key()["color"]


def save_figure(fig, stem: str | Path) -> list[Path]:
    """Write ``stem.png`` and ``stem.svg``; close the figure."""
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    paths = []
    for suffix in (".png", ".svg"):
        path = stem.with_suffix(suffix)
        fig.savefig(path, dpi=150, bbox_inches="tight")
        paths.append(path)
    plt.close(fig)
    return paths


def plot_intervals(
    rows: Sequence[Mapping],
    stem: str | Path,
    *,
    title: str,
    xlabel: str,
    reference: float | None = None,
    reference_label: str | None = None,
    xlim: tuple[float, float] | None = None,
    annotate: str = "{value:.2f}",
) -> list[Path]:
    """One point with its interval per row, top to bottom in the given order.

    Each row: ``label``, ``value``, ``low``, ``high``, optional ``group`` (rows of
    one group share a colour and a legend entry) and ``note`` (printed at the
    right margin, e.g. the number of games).
    """
    if not rows:
        raise ValueError("nothing to plot")
    n = len(rows)
    fig, ax = plt.subplots(figsize=(8.5, 1.4 + 0.38 * n), layout="constrained")
    groups = list(dict.fromkeys(row.get("group") for row in rows))
    colour = {g: _COLOURS[i % len(_COLOURS)] for i, g in enumerate(groups)}
    ys = np.arange(n)[::-1]
    seen = set()
    for y, row in zip(ys, rows, strict=True):
        group = row.get("group")
        value, low, high = row["value"], row["low"], row["high"]
        label = group if group is not None and group not in seen else None
        seen.add(group)
        if not (math.isnan(low) or math.isnan(high)):
            ax.errorbar(
                [value],
                [y],
                xerr=[[max(0.0, value - low)], [max(0.0, high - value)]],
                fmt="o",
                capsize=3,
                color=colour[group],
                label=label,
            )
        else:
            ax.plot([value], [y], "o", color=colour[group], label=label)
        text = annotate.format(value=value, low=low, high=high)
        if row.get("note"):
            text += f"  ({row['note']})"
        ax.annotate(text, xy=(1.01, y), xycoords=("axes fraction", "data"), va="center", fontsize=8)
    if reference is not None:
        ax.axvline(reference, color="0.4", linestyle="--", linewidth=1, label=reference_label)
    ax.set_yticks(ys)
    ax.set_yticklabels([row["label"] for row in rows], fontsize=9)
    ax.set_ylim(-0.7, n - 0.3)
    if xlim is not None:
        ax.set_xlim(*xlim)
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    if any(g is not None for g in groups) or reference_label:
        fig.legend(loc="outside lower center", ncol=3, fontsize=8, frameon=False)
    return save_figure(fig, stem)


def plot_win_rates(
    rows: Sequence[Mapping],
    stem: str | Path,
    *,
    title: str,
    xlabel: str = "win rate (%), 95% Wilson interval",
    reference: float | None = 50.0,
    reference_label: str | None = "50% (no advantage)",
) -> list[Path]:
    """Win rates given as fractions in ``value``/``low``/``high``, drawn in percent."""
    scaled = [
        dict(row, value=100 * row["value"], low=100 * row["low"], high=100 * row["high"]) for row in rows
    ]
    # Tight intervals (thousands of games) need a decimal to show any width at all.
    digits = 1 if max(r["high"] - r["low"] for r in scaled) < 5 else 0
    return plot_intervals(
        scaled,
        stem,
        title=title,
        xlabel=xlabel,
        reference=reference,
        reference_label=reference_label,
        xlim=(0, 100),
        annotate=f"{{value:.{digits}f}}% [{{low:.{digits}f}}, {{high:.{digits}f}}]",
    )


def plot_rating_vs_compute(
    series: Mapping[str, Sequence[tuple[float, float, float, float]]],
    stem: str | Path,
    *,
    title: str,
    xlabel: str = "simulations per move (log scale)",
    ylabel: str = "rating (Elo, uniform Random = 0), 95% interval",
    flat: Mapping[str, tuple[float, float, float]] | None = None,
) -> list[Path]:
    """Rating against compute, one line per bot family.

    ``series[name]`` holds ``(compute, rating, low, high)`` points. ``flat`` holds
    players without a compute knob (e.g. alpha-beta at fixed depth), drawn as
    horizontal bands. Random is the dotted zero line.
    """
    fig, ax = plt.subplots(figsize=(8, 5))
    n_series = len(series)
    for i, (name, points) in enumerate(series.items()):
        points = sorted(points)
        # Families measured at the same budgets are nudged apart by a few percent
        # (invisible on a log axis) so their error bars do not hide each other.
        dodge = 1.0 + 0.05 * (i - (n_series - 1) / 2.0)
        x = np.array([p[0] for p in points], dtype=float) * dodge
        y = np.array([p[1] for p in points])
        lo = np.array([p[2] for p in points])
        hi = np.array([p[3] for p in points])
        ax.errorbar(
            x,
            y,
            yerr=[np.maximum(0.0, y - lo), np.maximum(0.0, hi - y)],
            marker="o",
            capsize=3,
            label=name,
            color=_COLOURS[i % len(_COLOURS)],
        )
    offset = len(series)
    for j, (name, (rating, low, high)) in enumerate((flat or {}).items()):
        c = _COLOURS[(offset + j) % len(_COLOURS)]
        ax.axhline(rating, color=c, linestyle="-.", linewidth=1.2, label=name)
        ax.axhspan(low, high, color=c, alpha=0.12)
    ax.axhline(0.0, color="0.3", linestyle=":", linewidth=1.2, label="uniform Random (anchor, 0)")
    ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8, loc="best")
    return save_figure(fig, stem)


def plot_histograms(
    data: Mapping[str, Sequence[float]],
    stem: str | Path,
    *,
    title: str,
    xlabel: str = "game length (actions)",
    ylabel: str = "games (fraction)",
    integer: bool = True,
    columns: int = 3,
) -> list[Path]:
    """Histograms on shared axes: one panel per label (small multiples read better than overlays).

    Each panel marks its mean, so shifts between variants show at a glance.
    """
    labels = [k for k, v in data.items() if len(v)]
    if not labels:
        raise ValueError("nothing to plot")
    every = np.concatenate([np.asarray(data[k], dtype=float) for k in labels])
    lo, hi = float(every.min()), float(every.max())
    if integer:
        width = max(1, int(math.ceil((hi - lo + 1) / 40)))
        bins = np.arange(math.floor(lo), math.floor(hi) + width + 1, width) - 0.5
    else:
        bins = np.linspace(lo, hi if hi > lo else lo + 1, 31)
    columns = min(columns, len(labels))
    rows = math.ceil(len(labels) / columns)
    fig, axes = plt.subplots(
        rows, columns, figsize=(3.6 * columns, 2.5 * rows + 0.6), sharex=True, sharey=True, squeeze=False
    )
    for k, label in enumerate(labels):
        ax = axes[k // columns][k % columns]
        values = np.asarray(data[label], dtype=float)
        weights = np.full(len(values), 1.0 / len(values))
        ax.hist(values, bins=bins, weights=weights, color=_COLOURS[k % len(_COLOURS)], alpha=0.85)
        mean = values.mean()
        ax.axvline(mean, color="black", linewidth=1)
        ax.set_title(f"{label}\nmean {mean:.1f}, n={len(values)}", fontsize=8)
        ax.grid(alpha=0.3)
    for k in range(len(labels), rows * columns):
        axes[k // columns][k % columns].set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel(xlabel)
        ax.tick_params(labelbottom=True)
    for k in range(len(labels) - columns, len(labels) - columns + columns):
        # Panels above an empty slot of the last row also need their x labels.
        if 0 <= k < len(labels) and k // columns == rows - 2 and (k + columns) >= len(labels):
            axes[k // columns][k % columns].set_xlabel(xlabel)
            axes[k // columns][k % columns].tick_params(labelbottom=True)
    for row in axes:
        row[0].set_ylabel(ylabel)
    fig.suptitle(title)
    fig.tight_layout()
    return save_figure(fig, stem)

"""The toolkit's random-play metrics against Ludii's published values (docs/ludii_metrics.csv).

Ludii does not record how many playouts each published value comes from; the comparison
takes 100 (its usual number), estimates the per-game spread from this toolkit's own games,
and allows Ludii's two-decimal rounding. A value is expected within 3.5 joint standard
errors (about 37 comparisons, so a false alarm in a few percent of runs at most); a row
whose ``difference`` names a rule or representation difference is expected outside.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pyspiel
import pytest

from agents import BotSpec
from analysis.game_metrics import METRICS, all_metrics, win_rates
from experiments.game_metrics import play_trace

DATA = Path(__file__).resolve().parents[1] / "docs" / "ludii_metrics.csv"
LUDII_PLAYOUTS = 100
ROUNDING = 0.005
Z = 3.5
RATES = {"AdvantageP1", "Completion", "Drawishness", "Timeouts"}


def ludii_rows() -> list[dict]:
    with open(DATA, newline="") as f:
        return list(csv.DictReader(f))


def test_the_ludii_data_names_known_metrics_games_and_sources():
    rows = ludii_rows()
    names = {name for name, _, _ in METRICS}
    assert {r["ludii_game"] for r in rows} == {"Y", "Defector Y", "00'Y'", "Tic-Tac-Toe", "Connect Four"}
    for r in rows:
        assert r["metric"] in names
        assert r["ludii_file"].startswith("Mining/res/concepts/input/ToMerge/RulesetConcepts")
        assert int(r["row"]) > 0 and int(r["concept_id"]) > 0
        float(r["ludii_value"])
        pyspiel.load_game(r["game"])


def tolerance(metric: str, value, n: int, games: dict) -> float:
    """Joint standard error of this toolkit's estimate over ``n`` games and Ludii's over 100."""
    if metric in RATES:
        p = value.value
        return math.sqrt(p * (1 - p) / n + p * (1 - p) / LUDII_PLAYOUTS)
    if metric == "Balance":
        return games["Balance_se"] * math.sqrt(1 + n / LUDII_PLAYOUTS)
    ours = (value.high - value.low) / (2 * 1.96)  # a mean's standard error here
    return ours * math.sqrt(1 + n / LUDII_PLAYOUTS)


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted({r["game"] for r in ludii_rows()}))
def test_random_play_metrics_match_ludii_within_sampling_error(game):
    n = 1000
    g = pyspiel.load_game(game)
    traces = [play_trace(g, BotSpec.parse("random"), 5, i, 1250) for i in range(n)]
    values = all_metrics(traces, g.num_players())
    w = win_rates(traces, g.num_players())
    extra = {"Balance_se": math.sqrt(max(w[0] + w[1] - (w[0] - w[1]) ** 2, 1e-12) / n)}
    failures = []
    for r in (r for r in ludii_rows() if r["game"] == game):
        v = values[r["metric"]]
        gap = abs(v.value - float(r["ludii_value"]))
        allowed = Z * tolerance(r["metric"], v, n, extra) + ROUNDING
        inside = gap <= allowed
        if inside == bool(r["difference"]):
            failures.append(
                f"{r['metric']}: here {v.value:.4f}, Ludii {r['ludii_value']} (gap {gap:.4f}, "
                f"allowed {allowed:.4f}; stated difference: {r['difference'] or 'none'})"
            )
    assert not failures, "\n".join(failures)

"""The catalogue study: random-agent metrics per rule set, the exact values of the solved ones,
the metrics a simultaneous rule set cannot have, and a resumed run that measures nothing again."""

from __future__ import annotations

import csv
import json

import pytest

from experiments import catalogue_metrics


def _records(out):
    return {r["game"]: r for r in map(json.loads, (out / "records.jsonl").read_text().splitlines())}


def test_catalogue_metrics_table_exact_values_and_simultaneous_rule_sets(tmp_path, capsys):
    out = tmp_path / "study"
    argv = ["--games", "Tic-Tac-Toe", "Achi", "BoS", "--n", "40", "--jobs", "1", "--out", str(out)]
    assert catalogue_metrics.main([*argv, "--no-progress"]) == 0
    records = _records(out)
    ttt = records["Tic-Tac-Toe"]
    # Solved: a draw (1/2), no winning opening, 4,520 non-terminal positions and 255,168 complete
    # games (the classic counts: 5,478 positions less 958 terminal ones).
    assert ttt["exact"]["AdvantageP1"]["value"] == 0.5
    assert ttt["exact"]["WinningOpenings"]["value"] == 0.0
    assert ttt["exact"]["StateSpacePositions"]["value"] == 4520
    assert ttt["exact"]["GameTreeLeaves"]["value"] == 255168
    # Achi: the first player wins, by the centre only (1 of 9 openings).
    assert records["Achi"]["exact"]["AdvantageP1"]["value"] == 1.0
    assert records["Achi"]["exact"]["WinningOpenings"]["value"] == pytest.approx(1 / 9)
    m = ttt["metrics"]
    assert (
        5 <= m["DurationMoves"]["value"] <= 9 and m["DurationMoves"]["value"] == m["DurationTurns"]["value"]
    )
    assert m["AdvantageP1"]["low"] <= m["AdvantageP1"]["value"] <= m["AdvantageP1"]["high"]
    # Battle of the sexes: one round, no first player, no exact value.
    bos = records["BoS"]
    assert bos["metrics"]["DurationMoves"]["value"] == 1.0
    assert "AdvantageP1" not in bos["metrics"] and "AdvantageP1" in bos["not_applicable"]
    assert "why" in bos["exact"]
    summary = (out / "summary.md").read_text()
    assert "| BoS | 2P, simultaneous" in summary and "| Tic-Tac-Toe | 2P, sequential |" in summary
    with open(out / "summary.csv") as f:
        rows = list(csv.DictReader(f))
    assert {"Tic-Tac-Toe", "Achi", "BoS"} == {r["game"] for r in rows}
    assert any(r["metric"] == "AdvantageP1Exact" and r["game"] == "Achi" for r in rows)
    # Started again: every rule set is kept, nothing is measured again.
    before = (out / "records.jsonl").read_text()
    assert catalogue_metrics.main(argv) == 0
    assert (out / "records.jsonl").read_text() == before


def test_catalogue_metrics_refuses_an_unknown_rule_set(tmp_path):
    with pytest.raises(SystemExit):
        catalogue_metrics.main(["--games", "No-Such-Rules", "--out", str(tmp_path / "x")])

"""Ludii's skill trace: the levels' agents, the stronger agent's score credited from its seat,
the summary value worked out by hand, and a short trace of tic-tac-toe through the command."""

from __future__ import annotations

import json

import pytest

from analysis.skill_trace import level_pairs, level_results, level_specs, skill_trace_value
from experiments import skill_trace


def test_level_specs_double_the_budget_and_name_each_level():
    specs = level_specs("mcts", 4, 3)
    assert [s.label for s in specs] == ["b4", "b8", "b16", "b32"]
    assert [dict(s.options)["simulations"] for s in specs] == [4, 8, 16, 32]
    assert dict(level_specs("mcts:uct_c=1.4", 2, 1)[1].options)["uct_c"] == pytest.approx(1.4)
    assert level_pairs(3) == [(0, 1), (1, 2), (2, 3)]
    with pytest.raises(ValueError):
        level_specs("mcts:simulations=5", 4, 2)


def test_the_stronger_agents_score_is_taken_from_the_seat_it_sat_in():
    records = [
        {"players": ["b8", "b4"], "returns": [1.0, -1.0]},  # strong first, wins
        {"players": ["b4", "b8"], "returns": [1.0, -1.0]},  # strong second, loses
        {"players": ["b4", "b8"], "returns": [-1.0, 1.0]},  # strong second, wins
        {"players": ["b8", "b4"], "returns": [0.0, 0.0]},  # strong first, draw
        {"players": ["b16", "b8"], "returns": [1.0, -1.0]},  # another level: left out
    ]
    level = level_results(records, weak="b4", strong="b8")
    assert (level.games, level.wins, level.draws, level.losses) == (4, 2, 1, 1)
    assert level.score == pytest.approx(2.5 / 4)
    assert (level.strong_first, level.score_first, level.score_second) == (2, 1.5, 1.0)
    low, high = level.interval
    assert low < level.score < high


def test_skill_trace_value_predicts_the_next_level_and_adds_the_area():
    # Flat at 1/2: the line predicts 1/2 and no level is above 1/2.
    assert skill_trace_value([0.5, 0.5]) == pytest.approx(0.5)
    # Rising: the next level is predicted past 1, clipped to 1.
    assert skill_trace_value([0.6, 0.8]) == pytest.approx(1.0)
    # Falling: the line predicts 0.4; area ((0.6)^2 + (0.2)^2) / 2 = 0.2 -> 0.4 + 0.6 * 0.2.
    assert skill_trace_value([0.8, 0.6]) == pytest.approx(0.52)
    # One level: the prediction is the level itself; area (0.5)^2.
    assert skill_trace_value([0.75]) == pytest.approx(0.75 + 0.25 * 0.25)


def test_a_tic_tac_toe_trace_alternates_seats_and_credits_the_stronger(tmp_path, capsys):
    out = tmp_path / "trace"
    argv = ["--game", "tic_tac_toe", "--budget", "2", "--levels", "2", "--games", "6"]
    assert skill_trace.main([*argv, "--jobs", "1", "--out", str(out), "--no-progress"]) == 0
    doc = json.loads((out / "skill_trace.json").read_text())
    levels = doc["levels_played"]
    assert [(lv["weak"], lv["strong"]) for lv in levels] == [("b2", "b4"), ("b4", "b8")]
    records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
    for lv in levels:
        assert lv["games"] == 6 and lv["strong_first"] == 3  # seats alternate
        mine = [r for r in records if sorted(r["players"]) == sorted((lv["weak"], lv["strong"]))]
        points = 0.0
        for r in mine:
            seat, other = r["players"].index(lv["strong"]), r["players"].index(lv["weak"])
            points += (
                1.0 if r["returns"][seat] > r["returns"][other] else 0.5 if r["returns"][seat] == 0 else 0
            )
        assert lv["score"] == pytest.approx(points / 6)
        # Twice the simulations wins more at tic-tac-toe's tiny budgets (5 of 6 and 4.5 of 6 at
        # this seed): a trace that credited the weaker agent would show less than half.
        assert lv["score"] > 0.5
    assert doc["SkillTrace"] == pytest.approx(skill_trace_value([lv["score"] for lv in levels]))
    assert "SkillTrace" in capsys.readouterr().out
    # Started again with one more level, only the new level's games are played.
    assert (
        skill_trace.main([*argv[:-3], "3", "--games", "6", "--jobs", "1", "--out", str(out), "--no-progress"])
        == 0
    )
    again = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
    assert len(again) == 18 and again[:12] == records

"""Exact values of solved games beside the playout metrics (analysis.exact_counterparts)."""

from __future__ import annotations

import json

import pyspiel
import pytest

from analysis.exact_counterparts import exact_counterparts, solved_record
from experiments import game_metrics as cmd


def walk(game_string: str) -> tuple[int, int]:
    """Distinct non-terminal positions and complete games of a small game, by brute force
    over OpenSpiel states (the position: its text and the player to move)."""
    game = pyspiel.load_game(game_string)
    positions, games_played = set(), 0
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            games_played += 1
            continue
        positions.add((str(state), state.current_player()))
        stack.extend(state.child(a) for a in state.legal_actions())
    return len(positions), games_played


def test_a_solved_game_is_found_however_its_parameters_are_written():
    assert solved_record("y_game(board_size=3)")["value"] == 1.0
    assert solved_record("y_game(board_size=3,swap=False)")["game_string"] == "y_game(board_size=3)"
    assert solved_record("y_game(board_size=11)") is None
    assert solved_record("tic_tac_toe") is None


def test_side_3_of_y_has_its_exact_value_openings_positions_and_games():
    exact = {
        e.name: e for e in exact_counterparts("y_game(board_size=3)", solved_record("y_game(board_size=3)"))
    }
    assert exact["AdvantageP1"].value == 1.0  # a first-player win
    assert exact["WinningOpenings"].value == pytest.approx(3 / 6)  # a2, b2, b1 of the six cells
    positions, complete = walk("y_game(board_size=3)")
    assert exact["StateSpacePositions"].value == positions and exact["StateSpacePositions"].exact
    assert exact["GameTreeLeaves"].value == complete


def test_a_second_player_win_has_no_winning_opening_and_a_large_game_a_lower_bound():
    game = "defector_y(board_size=4,protocol=122)"
    exact = {e.name: e for e in exact_counterparts(game, solved_record(game))}
    assert exact["AdvantageP1"].value == 0.0
    assert exact["WinningOpenings"].value == 0.0
    capped = {e.name: e for e in exact_counterparts(game, solved_record(game), max_positions=100)}
    assert capped["StateSpacePositions"].value == 100 and not capped["StateSpacePositions"].exact
    assert "more than 100 " in capped["StateSpacePositions"].text
    assert "GameTreeLeaves" not in capped  # a stopped walk bounds no number of complete games


def test_the_metrics_command_prints_and_writes_the_exact_counterparts(tmp_path, capsys):
    out = tmp_path / "y3"
    argv = [
        "--game",
        "y_game(board_size=3)",
        "--games",
        "8",
        "--out",
        str(out),
        "--jobs",
        "1",
        "--no-progress",
    ]
    assert cmd.main(argv) == 0
    printed = capsys.readouterr().out
    assert "Exact counterparts" in printed and "3 of 6 openings win" in printed
    doc = json.loads((out / "metrics.json").read_text())
    assert doc["exact"]["AdvantageP1"]["value"] == 1.0
    assert "AdvantageP1Exact" in (out / "metrics.csv").read_text()
    assert (
        cmd.main(["--game", "tic_tac_toe", "--games", "4", "--out", str(tmp_path / "t"), "--jobs", "1"]) == 0
    )
    assert json.loads((tmp_path / "t" / "metrics.json").read_text())["exact"] == {}

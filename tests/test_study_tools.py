"""What the studies share: flag checks, the code version, exact values and
random-playout statistics (analysis.study, analysis.exact, analysis.playouts),
and the multiple-testing correction in analysis.stats."""

from __future__ import annotations

import json
import math
import re

import pyspiel
import pytest

import games  # noqa: F401  (registers our games)
from analysis.exact import exact_values, published_solves, side_pattern, solve_all, value_cell, value_text
from analysis.playouts import random_playouts
from analysis.stats import first_player_advantage, holm
from analysis.study import git_commit, study_parser


def test_holm_adjusts_in_the_given_order_and_stays_monotone():
    # sorted: 0.01 * 3 = 0.03, 0.03 * 2 = 0.06, then 0.04 * 1 = 0.04 is raised to 0.06
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]) == [1.0, 1.0]  # capped at 1
    assert holm([]) == []
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        holm([0.2, math.nan])


def test_first_player_advantage_without_decisive_games_says_so_instead_of_nan():
    text = str(first_player_advantage(0, 0, 3))
    assert "nan" not in text and "no decisive games (3 draws)" in text


@pytest.mark.parametrize(
    "flag, value", [("--jobs", "0"), ("--jobs", "-1"), ("--seed", "-1"), ("--jobs", "two")]
)
def test_study_flags_refuse_zero_and_negative_counts(flag, value, capsys):
    parser = study_parser("experiments.example", "An example study.")
    with pytest.raises(SystemExit) as stop:
        parser.parse_args([flag, value])
    assert stop.value.code == 2
    assert f"argument {flag}: must be a " in capsys.readouterr().err
    assert parser.parse_args(["--jobs", "1", "--seed", "0"]).jobs == 1


def test_git_commit_is_the_checkout_head():
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True
    ).stdout.strip()
    assert re.fullmatch(r"[0-9a-f]{40}", git_commit()) and git_commit() == head


def test_value_text_words_each_kind_of_solve_record():
    assert value_text(None) == "not run"
    assert value_text({"error": "boom"}) == "solver error"
    assert (
        value_text({"value": 1.0, "winning_first_moves": ["a1", "b1"], "openings": 6})
        == "P1 wins (2/6 openings win)"
    )
    assert value_text({"value": -1.0, "openings": 6}) == "P2 wins (0/6 openings win)"
    assert (
        value_text({"value": None, "time_limit": 5.0, "winning_first_moves": ["a1"]})
        == "unsolved in 5 s (1 winning openings found)"
    )


def test_solve_all_solves_once_and_resumes_from_its_file(tmp_path):
    path = tmp_path / "solver.jsonl"
    games_ = ["y_game(board_size=3)", "defector_y(board_size=3,protocol=122)"]
    solved = solve_all(games_, 30.0, path, 1, ("games.y_family",))
    assert solved["y_game(board_size=3)"]["value"] == 1.0  # Y: a first-player win
    assert value_text(solved["y_game(board_size=3)"]).startswith("P1 wins")
    lines = path.read_text().splitlines()
    assert sorted(json.loads(line)["game"] for line in lines) == sorted(games_)
    again = solve_all(games_, 30.0, path, 1, ("games.y_family",))
    assert path.read_text().splitlines() == lines  # nothing solved twice
    assert {g: r["value"] for g, r in again.items()} == {g: r["value"] for g, r in solved.items()}


def test_solve_all_retries_a_crashed_solve_but_keeps_finished_ones(tmp_path):
    path = tmp_path / "solver.jsonl"
    games_ = ["y_game(board_size=3)", "y_game(board_size=4)"]
    solve_all(games_[:1], 30.0, path, 1, ("games.y_family",))
    with path.open("a") as f:  # an earlier run crashed on the second game
        f.write(json.dumps({"game": games_[1], "time_limit": 60.0, "error": "MemoryError()"}) + "\n")
    solved = solve_all(games_, 30.0, path, 1, ("games.y_family",))
    assert "error" not in solved[games_[1]] and solved[games_[1]]["value"] == 1.0
    games_solved = [json.loads(line)["game"] for line in path.read_text().splitlines()]
    assert games_solved.count(games_[0]) == 1  # the finished solve was not redone


def test_exact_values_read_published_records_and_solve_only_the_rest(tmp_path):
    published = published_solves()
    side6 = "defector_y(board_size=6,protocol=1)"  # a 27-minute proof: read, never solved again
    assert published[side6]["value"] == 1.0 and published[side6]["openings"] == 21
    path = tmp_path / "solver.jsonl"
    local = "defector_y(board_size=3,protocol=1,conversion=local)"  # no published record
    got = exact_values([side6, local], 30.0, path, 1, ("games.y_family",))
    assert got[side6]["source"] == "solved_records.jsonl" and value_cell(got[side6]) == "+1 (21/21)"
    assert [json.loads(line)["game"] for line in path.read_text().splitlines()] == [local]
    assert "source" not in got[local] and got[local]["value"] in (1.0, -1.0)


def test_side_pattern_names_each_run_of_equal_value_and_counts_the_changes():
    def rec(value):
        return {"value": value, "winning_first_moves": [], "openings": 3}

    changing = {2: rec(1.0), 3: rec(-1.0), 4: rec(-1.0), 5: rec(1.0), 6: rec(1.0), 7: None}
    assert side_pattern(changing) == "+1 on 2, -1 on 3-4, +1 on 5-6 (2 changes of sign)"
    assert side_pattern({4: rec(1.0), 5: rec(1.0)}) == "+1 on every side solved (4-5)"
    assert side_pattern({4: None, 5: {"error": "MemoryError()"}}) == "no side solved"


def test_random_playouts_seed_game_i_with_seed_plus_i():
    game = pyspiel.load_game("double_o_y(board_size=5)")
    both = random_playouts("00-Y", game, game.new_core(), 2, 5)
    second = random_playouts("00-Y", game, game.new_core(), 1, 6)
    assert both.placements[1] == second.placements[0] and both.flips[1] == second.flips[0]
    assert both.cells == 15 and both.as_dict()["game"] == "00-Y"


@pytest.mark.parametrize(
    "n, seed, message",
    [(0, 0, "positive, got 0"), (1, -1, "seed must be in 0.."), (3, 2**64 - 2, "seed must be in 0..")],
)
def test_random_playouts_refuse_counts_and_seeds_the_kernel_cannot_take(n, seed, message):
    game = pyspiel.load_game("y_game(board_size=4)")
    with pytest.raises(ValueError, match=message):
        random_playouts("Y", game, game.new_core(), n, seed)


def test_a_second_run_into_the_same_output_is_refused(tmp_path):
    """Two studies writing one directory would overwrite each other's config and
    summaries, so the second is refused while the first is alive."""
    import subprocess
    import sys
    import time

    from analysis.study import prepare_out

    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from analysis.study import prepare_out; "
            f"prepare_out({str(tmp_path)!r}, 'first', {{}}, ()); print('held', flush=True); time.sleep(30)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(SystemExit, match="being written by another second run"):
            prepare_out(tmp_path, "second", {}, ())
    finally:
        holder.kill()
        holder.wait()
    time.sleep(0.05)
    assert prepare_out(tmp_path, "second", {}, ()) == tmp_path  # the lock died with its holder


def test_resumable_refuses_a_store_another_run_holds(tmp_path):
    from analysis.study import resumable
    from records import RecordStore, StoreLocked

    path = tmp_path / "solver.jsonl"
    with RecordStore(path, key="game"):
        with pytest.raises(StoreLocked, match="another run"):
            resumable(
                ["g"], path, 1, reusable=lambda r: True, work=lambda g: {"game": g}, announce=lambda k: ""
            )

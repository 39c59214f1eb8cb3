"""The three studies end to end on tiny settings: outputs complete, numbers
consistent with the raw records, reruns resume instead of replaying."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from analysis.tournament import load_records

ROOT = Path(__file__).resolve().parents[1]


class Result:
    def __init__(self, returncode: int, stdout: str, stderr: str):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def run(module: str, *args: str) -> Result:
    """Run a study's main in this process (one interpreter start-up for all the tests)."""
    import contextlib
    import importlib
    import io

    main = importlib.import_module(module).main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 1
            if not isinstance(stop.code, int) and stop.code is not None:
                err.write(str(stop.code))
    return Result(code or 0, out.getvalue(), err.getvalue())


@pytest.mark.parametrize(
    "module",
    ["experiments.compare_flip_options", "experiments.first_player_advantage", "experiments.strength_plots"],
)
def test_help_and_bad_input(module, tmp_path):
    result = run(module, "--help")
    assert result.returncode == 0 and "--seed" in result.stdout and "--full" in result.stdout
    result = run(
        module,
        "--out",
        str(tmp_path),
        "--jobs",
        "1",
        "--no-progress",
        *(
            {
                "experiments.compare_flip_options": ["--board-size", "40"],
                "experiments.first_player_advantage": ["--y-sizes", "1"],
                "experiments.strength_plots": ["--games", "no_such_game"],
            }[module]
        ),
    )
    assert result.returncode == 2, result.stderr


def test_compare_flip_options_tiny(tmp_path):
    args = [
        "--out",
        str(tmp_path),
        "--board-size",
        "5",
        "--games",
        "4",
        "--simulations",
        "20",
        "--strength-games",
        "2",
        "--weak",
        "5",
        "--strong",
        "50",
        "--solve-sizes",
        "4",
        "--solve-time",
        "30",
        "--playouts",
        "300",
        "--jobs",
        "1",
        "--no-progress",
        "--seed",
        "3",
    ]
    result = run("experiments.compare_flip_options", *args)
    assert result.returncode == 0, result.stderr
    assert "Conclusions" in result.stdout
    with open(tmp_path / "summary.csv") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 16  # 12 option sets of 00-Y, three Defector Y variants, plain Y
    assert "defector_y(board_size=5,protocol=1,conversion=local)" in {row["game"] for row in rows}
    selfplay = load_records(tmp_path / "records" / "selfplay.jsonl")
    assert len(selfplay) == 16 * 4
    for row in rows:
        own = [r for r in selfplay if r["game"] == row["game"]]
        assert float(row["p1_win_rate"]) == pytest.approx(
            sum(r["winner"] == 0 for r in own) / len(own), abs=1e-4
        )
        assert row["value_side4"] in ("1.0", "-1.0")
        p1 = sum(r["winner"] == 0 for r in own) / len(own)
        assert float(row["Balance"]) == pytest.approx(1 - abs(p1 - (1 - p1)))  # Ludii's metrics of (a)
        assert float(row["Drawishness"]) == 0.0
        assert 0.0 <= float(row["DecisivenessThreshold"]) <= 1.0 and float(row["BranchingFactorAverage"]) > 1
        if row["variant"] == "Y":
            assert float(row["random_mean_flips"]) == 0.0
            assert row["value_side4"] == "1.0"  # Y is a first-player win (strategy stealing)
    for name in (
        "first_player_mcts",
        "strength_gain",
        "first_player_random",
        "random_flips",
        "random_lengths",
    ):
        assert (tmp_path / f"{name}.png").stat().st_size > 1000 and (tmp_path / f"{name}.svg").exists()
    config = json.loads((tmp_path / "config.json").read_text())
    assert config["config"]["seed"] == 3 and len(config["git"]["commit"]) == 40
    # The exact values of sides 2-7 come from the published records, the local conversion's from the run.
    section = (tmp_path / "summary.md").read_text().split("## Exact values by side", 1)[1]
    assert "| 00-Y all, p1, start | +1 (3/3) | -1 | -1 | +1 (15/15) | +1 (21/21) | - |" in section
    assert "+1 on 2, -1 on 3-4, +1 on 5-6 (2 changes of sign)" in section
    assert "| Y | +1 (3/3) | +1 (3/6) | +1 (7/10) | +1 (3/15) | +1 (3/21) | +1 (10/28) |" in section
    assert "| Defector Y p1, local | - | - | +1 (3/10) r | - | - | - |" in section
    with open(tmp_path / "exact_values.csv") as handle:
        exact = {row["variant"]: row for row in csv.DictReader(handle)}
    assert exact["00-Y opponents, p1, start"]["value_side6"] == "-1.0"
    # A rerun resumes: nothing is replayed, the summary is the same.
    before = (tmp_path / "summary.csv").read_text()
    before_md = (tmp_path / "summary.md").read_text()
    again = run("experiments.compare_flip_options", *args)
    assert again.returncode == 0, again.stderr
    assert len(load_records(tmp_path / "records" / "selfplay.jsonl")) == 16 * 4
    assert (tmp_path / "summary.csv").read_text() == before
    assert (tmp_path / "summary.md").read_text() == before_md
    # Changing what decides the games is refused rather than mixed into the same directory.
    other = run("experiments.compare_flip_options", *[a if a != "3" else "4" for a in args])
    assert other.returncode != 0 and "different seed" in other.stderr


def test_first_player_advantage_tiny(tmp_path):
    result = run(
        "experiments.first_player_advantage",
        "--out",
        str(tmp_path),
        "--y-sizes",
        "4",
        "--flipway-sizes",
        "4",
        "--simulations",
        "10",
        "--games",
        "2",
        "--solve-y-sizes",
        "4",
        "--solve-flipway-sizes",
        "",
        "--solve-time",
        "30",
        "--jobs",
        "1",
        "--no-progress",
        "--only",
        "defector,y + swap",
    )
    assert result.returncode == 0, result.stderr
    summary = (tmp_path / "summary.md").read_text()
    assert "Defector Y p1 | 4 | P1 wins" in summary and "Y + swap | 4 | P2 wins" in summary
    assert "| Flipway" not in summary
    selfplay = load_records(tmp_path / "records" / "selfplay.jsonl")
    assert len(selfplay) == 3 * 2
    assert (tmp_path / "first_player.png").exists()
    # Ludii's metrics of each cell's own games: Balance is 1 - |P1's win rate - P2's|.
    assert "| game | size | MCTS sims | Balance | Drawishness |" in summary
    with open(tmp_path / "summary.csv") as handle:
        rows = list(csv.DictReader(handle))
    for row in rows:
        own = [r for r in selfplay if r["game"] == row["game_string"]]
        p1 = sum(r["winner"] == 0 for r in own) / len(own)
        assert float(row["Balance"]) == pytest.approx(1 - abs(p1 - (1 - p1)))
        assert float(row["Drawishness"]) == 0.0  # the Y family cannot draw
        assert 1.0 < float(row["BranchingFactorAverage"]) <= 10  # at most the side-4 triangle's 10 cells
        assert 0.0 <= float(row["DramaAverage"]) <= 1.0


def test_strength_plots_tiny(tmp_path):
    result = run(
        "experiments.strength_plots",
        "--out",
        str(tmp_path),
        "--games",
        "y_game(board_size=4)",
        "--mcts",
        "5,50",
        "--openspiel-mcts",
        "5",
        "--alphabeta",
        "1",
        "--games-per-pair",
        "2",
        "--jobs",
        "1",
        "--no-progress",
    )
    assert result.returncode == 0, result.stderr
    board = (tmp_path / "leaderboard_y_game_board_size_4.csv").read_text().splitlines()
    assert board[0].startswith("rank,player,rating") and len(board) == 1 + 5
    assert any(line.split(",")[1] == "random" and line.split(",")[2] == "0" for line in board[1:])
    assert (tmp_path / "rating_vs_simulations_y_game_board_size_4.png").exists()
    assert (tmp_path / "rating_vs_time_y_game_board_size_4.svg").exists()


# -- command-line input: counts, seeds and budgets are refused before any work, with a message


@pytest.mark.parametrize(
    "module, args, message",
    [
        ("experiments.random_playouts", ["--seed", "-1"], "--seed: must be a non-negative integer, got '-1'"),
        ("experiments.random_playouts", ["--n", "0"], "--n: must be a positive integer, got '0'"),
        ("experiments.random_playouts", ["--n", "2", "--seed", str(2**64 - 1)], "seed must be in 0.."),
        ("analysis.stats", ["--wins", "0", "--games", "0"], "--games: must be a positive integer, got '0'"),
        ("analysis.stats", ["--wins", "3", "--games", "2"], "--wins must be at most --games (2), got 3"),
        ("analysis.stats", ["--wins", "-1", "--games", "2"], "--wins: must be a non-negative integer"),
        (
            "experiments.mcts_strength",
            ["--time-per-move", "nan"],
            "--time-per-move: must be a positive finite number",
        ),
        ("experiments.mcts_strength", ["--uct-c", "nan"], "--uct-c: must be a non-negative finite number"),
        ("experiments.mcts_strength", ["--games", "0"], "--games: must be a positive integer"),
        ("experiments.mcts_strength", ["--seed", "30000"], "--seed must be at most 21474"),
        ("experiments.compare_flip_options", ["--jobs", "0"], "--jobs: must be a positive integer, got '0'"),
        (
            "experiments.compare_flip_options",
            ["--solve-time", "nan"],
            "--solve-time: must be a positive finite number",
        ),
        ("experiments.compare_flip_options", ["--playouts", "-3"], "--playouts: must be a positive integer"),
        ("experiments.compare_flip_options", ["--seed", "-1"], "--seed: must be a non-negative integer"),
        ("experiments.first_player_advantage", ["--games", "0"], "--games: must be a positive integer"),
        (
            "experiments.first_player_advantage",
            ["--simulations", "10,0"],
            "--simulations must be positive integers",
        ),
        ("experiments.strength_plots", ["--mcts", "10,-5"], "--mcts must list positive integers"),
        (
            "experiments.strength_plots",
            ["--games-per-pair", "0"],
            "--games-per-pair: must be a positive integer",
        ),
        ("experiments.benchmark", ["--seconds", "nan"], "--seconds: must be a positive finite number"),
        ("experiments.bench_ttt", ["--rounds", "0"], "--rounds: must be a positive integer"),
        ("experiments.bench_search", ["--uct-c", "nan"], "--uct-c: must be a non-negative finite number"),
        ("experiments.bench_search", ["--seed", "-1"], "--seed: must be a non-negative integer"),
        (
            "experiments.economic_dilemmas",
            ["--games-per-pair", "0"],
            "--games-per-pair: must be a positive integer",
        ),
        (
            "experiments.economic_dilemmas",
            ["--cfr-iterations", "-5"],
            "--cfr-iterations: must be a positive integer",
        ),
        ("experiments.economic_dilemmas", ["--games", "matrix_pdd"], "unknown game 'matrix_pdd'"),
        ("experiments.bench_cfr", ["--rounds", "0"], "--rounds: must be a positive integer"),
    ],
)
def test_bad_counts_seeds_and_budgets_are_refused_clearly(module, args, message, tmp_path):
    with_out = (
        "experiments.compare_flip_options",
        "experiments.first_player_advantage",
        "experiments.strength_plots",
        "experiments.mcts_strength",
        "experiments.economic_dilemmas",
    )
    result = run(module, *args, "--out", str(tmp_path)) if module in with_out else run(module, *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr and "nan%" not in result.stdout
    assert not (tmp_path / "config.json").exists()  # refused before any work


# side 4: a Y needs four stones (7 moves) and at most fills the 10 cells; in Caeth Y the three
# edges of one side control its four vertices (5 moves), and there are 18 edges
@pytest.mark.parametrize(
    "game, moves", [("y_game(board_size=4)", (7, 10)), ("caeth_y(board_size=4)", (5, 18))]
)
def test_random_playouts_command_reports_a_rate_inside_its_interval(game, moves):
    result = run("experiments.random_playouts", "--game", game, "--n", "200", "--seed", "7", "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    low, high = summary["ci95"]
    assert summary["games"] == 200 and 0 < low <= summary["first_player_win_rate"] <= high < 1
    assert summary["draw_rate"] == 0  # neither Y nor Caeth Y can end in a draw
    # a game takes at least enough moves for one side to connect, at most every cell or edge
    assert moves[0] <= summary["min_placements"] <= summary["max_placements"] <= moves[1]


def test_mcts_strength_plays_both_rule_sets_in_step_and_resumes(tmp_path):
    args = ["--games", "2", "--sims", "20", "--board-size", "4", "--seed", "1", "--out", str(tmp_path)]
    result = run("experiments.mcts_strength", *args)
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert [r["our_seat"] for r in records] == [0, 1]
    for r in records:
        # OpenSpiel's y agreed on every move and on the winner (else the study raises)
        assert r["winner"] in (0, 1) and r["our_win"] == (r["winner"] == r["our_seat"])
        assert len(set(r["moves"])) == len(r["moves"]) <= 10 and r["our_simulations"] > 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["games"] == 2 and summary["our_wins"] == sum(r["our_win"] for r in records)
    assert len(summary["settings"]["git_commit"]) == 40
    again = run("experiments.mcts_strength", *args)
    assert again.returncode == 0 and "resuming: 2 game(s)" in again.stdout
    assert len((tmp_path / "games.jsonl").read_text().splitlines()) == 2

"""python -m experiments.game_metrics end to end: outputs, reproducibility from --seed, resuming."""

from __future__ import annotations

import csv
import json
import math

import pytest

from analysis.game_metrics import METRICS
from experiments import game_metrics as cmd


def run(out, *extra, games=12, seed=3):
    argv = ["--game", "tic_tac_toe", "--games", str(games), "--seed", str(seed), "--out", str(out)]
    argv += ["--chunk", "4", "--jobs", "1", "--no-progress", *extra]
    assert cmd.main(argv) == 0
    return json.loads((out / "metrics.json").read_text())


def test_writes_a_table_csv_and_json_with_every_metric(tmp_path, capsys):
    doc = run(tmp_path / "a")
    printed = capsys.readouterr().out
    names = [name for name, _, _ in METRICS]
    assert list(doc["metrics"]) == names
    assert all(name in printed for name in names)
    rows = list(csv.DictReader(open(tmp_path / "a" / "metrics.csv")))
    assert [r["metric"] for r in rows] == names
    m = doc["metrics"]
    # Tic-tac-toe: no timeouts, every game ends in 5..9 moves, wins + draws make up all games.
    assert m["Timeouts"]["value"] == 0.0
    assert 5 <= m["DurationMoves"]["value"] <= 9
    assert m["Completion"]["value"] + m["Drawishness"]["value"] == pytest.approx(1.0)
    assert m["BranchingFactorMaximum"]["value"] == 9
    assert m["AdvantageP1"]["low"] <= m["AdvantageP1"]["value"] <= m["AdvantageP1"]["high"]
    assert m["Balance"]["low"] is None  # no interval for a difference of rates
    assert doc["games"] == 12 and doc["seed"] == 3


def test_the_same_seed_gives_the_same_games_and_another_seed_others(tmp_path):
    a = run(tmp_path / "a")
    b = run(tmp_path / "b")
    c = run(tmp_path / "c", seed=4)
    assert a["metrics"] == b["metrics"]
    traces = [(tmp_path / d / "traces.jsonl").read_text() for d in ("a", "b", "c")]
    assert traces[0] == traces[1] != traces[2]
    assert c["metrics"] != a["metrics"]


def test_an_interrupted_run_plays_only_the_missing_games(tmp_path, capsys):
    whole = run(tmp_path / "whole")
    out = tmp_path / "cut"
    run(out)
    lines = (out / "traces.jsonl").read_text().splitlines(keepends=True)
    assert len(lines) == 3  # 12 games in chunks of 4
    (out / "traces.jsonl").write_text("".join(lines[:1]) + lines[1][:40])  # killed while writing
    capsys.readouterr()
    again = cmd.main(
        ["--game", "tic_tac_toe", "--games", "12", "--seed", "3", "--out", str(out)]
        + ["--chunk", "4", "--jobs", "1"]
    )
    assert again == 0
    assert "8 games to play (4 kept" in capsys.readouterr().err
    assert json.loads((out / "metrics.json").read_text())["metrics"] == whole["metrics"]


def test_a_run_with_other_settings_is_refused_in_the_same_output(tmp_path):
    run(tmp_path / "a")
    with pytest.raises(SystemExit):
        run(tmp_path / "a", seed=9)


def test_any_agent_spec_plays_every_seat(tmp_path):
    doc = run(tmp_path / "m", "--agent", "mcts:simulations=20", games=4)
    assert doc["agent"].startswith("mcts")
    assert doc["metrics"]["DurationMoves"]["value"] >= 5


def test_a_bad_game_or_agent_is_a_usage_error(tmp_path):
    with pytest.raises(SystemExit):
        cmd.main(["--game", "no_such_game", "--out", str(tmp_path / "x")])
    with pytest.raises(SystemExit):
        cmd.main(["--game", "tic_tac_toe", "--agent", "nosuchbot", "--out", str(tmp_path / "y")])


def test_random_playout_evaluations_give_the_state_evaluation_metrics(tmp_path):
    doc = run(tmp_path / "e", "--eval-playouts", "5", games=6)
    m = doc["metrics"]
    assert 0.0 < m["LeadChange"]["value"] <= 1.0
    assert m["Stability"]["value"] >= 0.0
    plain = run(tmp_path / "p", games=6)["metrics"]
    assert plain["LeadChange"]["value"] is None  # not evaluated, not guessed
    assert plain["DurationMoves"] == m["DurationMoves"]  # evaluating does not change the games


def test_more_games_into_the_same_output_play_only_the_new_ones(tmp_path, capsys):
    out = tmp_path / "grow"
    run(out, games=8)
    capsys.readouterr()
    assert (
        cmd.main(["--game", "tic_tac_toe", "--games", "12", "--seed", "3", "--out", str(out), "--chunk", "4"])
        == 0
    )
    assert "4 games to play (8 kept" in capsys.readouterr().err
    grown = json.loads((out / "metrics.json").read_text())["metrics"]
    assert grown == run(tmp_path / "fresh", games=12)["metrics"]


def test_move_evaluations_give_clarity_and_the_board_gives_the_state_space(tmp_path):
    doc = run(tmp_path / "c", "--eval-playouts", "4", "--clarity-playouts", "2", games=4)
    m = doc["metrics"]
    assert 0.0 <= m["ClarityNarrowness"]["value"] < 1.0
    assert m["ClarityVariance"]["value"] > 0.0  # some move wins at once where another does not
    # Tic-tac-toe's sites are empty, X or O: 9 log10 3.
    assert m["StateSpaceComplexity"]["value"] == pytest.approx(9 * math.log10(3))
    assert 0.0 <= m["DecisivenessMoves"]["value"] <= 1.0
    assert run(tmp_path / "p", games=4)["metrics"]["ClarityNarrowness"]["value"] is None


def test_this_toolkits_games_are_evaluated_in_their_kernel():
    m = cmd.measure("y_game(board_size=4)", "random", 3, seed=1, eval_playouts=8)
    assert 0.0 <= m["DramaMaximum"].value <= 1.0
    assert m["StateSpaceComplexity"].value == pytest.approx(10 * math.log10(3))


def test_a_recorded_game_replays_into_its_trace():
    import pyspiel

    from analysis.game_traces import replay_trace
    from analysis.tournament import play_game

    game = pyspiel.load_game("tic_tac_toe")
    record = play_game(game, [pyspiel.make_uniform_random_bot(p, 5 + p) for p in range(2)], 1)
    trace = replay_trace(game, record["actions"])
    assert trace.moves == record["length"] and trace.returns == tuple(record["returns"])
    assert trace.branching == tuple(9 - i for i in range(trace.moves))  # one cell fewer each move
    assert trace.movers == tuple(i % 2 for i in range(trace.moves))
    with pytest.raises(ValueError, match="ended before"):
        replay_trace(game, [*record["actions"], 0])

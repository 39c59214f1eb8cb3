"""Sampling MCCFR (cfr/mccfr.py): runs without enumerating the tree, on games
tabular CFR refuses, saves a policy the ``cfr`` bot plays, and converges on
kuhn_poker by OpenSpiel's exploitability (the independent reference)."""

import json
import subprocess
import sys

import pyspiel
import pytest

import games  # noqa: F401  (registers ttt)
from agents import make_bot
from cfr import evaluate, solve
from cfr.mccfr import SampledMCCFR
from cfr.policy_file import load_policy, save_policy
from cfr.solve import Solver, run
from cfr.tree import TreeTooLarge
from policy_checks import distribution

BLOTTO = "ttt(rules=3Blotto13)"


@pytest.mark.parametrize("sampling", ["outcome", "external"])
def test_kuhn_exploitability_falls_below_0_05_in_a_seeded_run(sampling):
    game = pyspiel.load_game("kuhn_poker")
    solver = SampledMCCFR(game, sampling, seed=0)
    solver.iterate(10_000)
    policy = solver.average_policy()
    assert solver.num_visited == 12 == len(policy)
    assert evaluate.exploitability(evaluate.evaluation_game(game), policy) < 0.05


def test_same_seed_same_tables_other_seed_other_tables():
    game = pyspiel.load_game("kuhn_poker")
    a, b, c = (SampledMCCFR(game, "outcome", seed=s) for s in (3, 3, 4))
    for s in (a, b, c):
        s.iterate(500)
    assert a.average_policy() == b.average_policy() != c.average_policy()


def test_mccfr_runs_where_tabular_cfr_refuses_saves_and_plays(tmp_path, monkeypatch):
    game = pyspiel.load_game(BLOTTO)
    with pytest.raises(TreeTooLarge):
        Solver(game, "cfr+")

    def refuse(*a, **k):
        raise AssertionError("sampling MCCFR must not enumerate the tree")

    monkeypatch.setattr(solve, "enumerate_tree", refuse)
    result = run(
        game,
        "mccfr-outcome",
        iterations=30,
        seed=1,
        not_evaluated="not evaluated: too large (given by the caller)",
    )
    monkeypatch.undo()
    last = result.curve[-1]
    assert last["iteration"] == 30 and last["nash_conv"] is None and last["exploitability"] is None
    policy = result.policy
    assert len(policy) == last["visited"] > 0
    path = save_policy(
        tmp_path / "blotto.json",
        game=game,
        policy=policy,
        turn_based=False,
        algorithm="mccfr-outcome",
        engine="ours",
        iterations=30,
        seed=1,
    )
    assert len(load_policy(path)["policy"]) == len(policy)
    bots = [make_bot("cfr", game, p, seed=p, policy=str(path)) for p in (0, 1)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 5)
    assert sorted(returns) == [-1.0, 1.0] or returns == [0.0, 0.0]
    # the first move of player 0 is in every sampled trajectory, so it is in the file
    assert distribution(bots[0].get_policy(game.new_initial_state())) == pytest.approx(
        distribution(policy[game.new_initial_state().information_state_string(0)])
    )


def test_run_says_why_it_cannot_evaluate_a_refused_game():
    game = pyspiel.load_game(BLOTTO)
    result = run(game, "mccfr-outcome", iterations=2)
    assert "3,812,798,742,493 histories" in result.not_evaluated
    with pytest.raises(TreeTooLarge):  # OpenSpiel's CFR needs the tree (ours takes the
        run(game, "cfr", engine="openspiel", iterations=2)  # DAG: tests/test_cfr_dag.py)


def test_small_game_run_is_evaluated_with_unvisited_states_uniform():
    game = pyspiel.load_game("kuhn_poker")
    result = run(game, "mccfr-outcome", iterations=1, seed=0)
    row = result.curve[0]
    assert result.not_evaluated is None
    assert row["visited"] < 12 and row["nash_conv"] > 0 and row["exploitability"] is not None


def test_cli_mccfr_on_a_refused_game(tmp_path):
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "cfr",
            "--game",
            BLOTTO,
            "--algorithm",
            "mccfr-outcome",
            "--iterations",
            "20",
            "--json",
            "--save",
            str(tmp_path / "b.json"),
        ],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["nash_conv"] is None and "not evaluated" in summary["not_evaluated"]
    doc = json.loads((tmp_path / "b.json").read_text())
    assert doc["information_states_visited"] == len(doc["policy"]) == summary["information_states_visited"]
    assert "uniform" in doc["unvisited"] and doc["nash_conv"] is None
    out = subprocess.run(
        [sys.executable, "-m", "cfr", "--game", BLOTTO, "--algorithm", "cfr+", "--engine", "openspiel"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2 and "too large" in out.stderr  # ours: over the DAG (test_cfr_dag)


def test_bad_sampling_choices_are_refused():
    game = pyspiel.load_game("kuhn_poker")
    with pytest.raises(ValueError, match="sampling"):
        SampledMCCFR(game, "chance")
    with pytest.raises(ValueError, match="epsilon"):
        SampledMCCFR(game, "outcome", epsilon=0.0)


def test_bench_cfr_row_of_a_refused_game_says_not_evaluated(monkeypatch):
    """Too large to list and no exact DAG (made to refuse here; the real one is tested in
    tests/test_cfr_dag.py): sampling MCCFR runs, unevaluated, and the row says why."""
    from cfr import dag
    from experiments.bench_cfr import time_to_target

    small = time_to_target("ttt(rules=BoS)", limit=30.0)
    assert small["algorithm"] == "cfr+" and small["met"] and small["value"] < 1e-3

    def refuse(*args, **kwargs):
        raise dag.NotExact("refused for this test")

    monkeypatch.setattr(dag, "build_dag", refuse)
    big = time_to_target(BLOTTO, limit=0.3)
    assert big["algorithm"] == "mccfr-outcome" and big["value"] is None and not big["met"]
    assert "3,812,798,742,493 histories" in big["not_evaluated"]
    assert big["dag"] == "no DAG: refused for this test"
    assert big["iterations"] > 0 and big["visited"] > 0

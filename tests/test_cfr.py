"""cfr/: our tabular CFR family against OpenSpiel's solvers (iteration by
iteration), textbook values and equilibria, the sampling solvers' seeds, the
policy file, the ``cfr`` bot kind and the command line."""

import json
import re
import subprocess
import sys

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import discounted_cfr

import games  # noqa: F401  (registers ours)
from agents import make_bot
from cfr import evaluate
from cfr.game_form import turn_based
from cfr.policy_file import FORMAT, load_policy, save_policy
from cfr.solve import Solver, checkpoints, run
from cfr.tabular import TabularCFR
from cfr.tree import TreeTooLarge, enumerate_tree

RPS_LINES = "ttt(rules=games/ttt/examples/RPS-Shared-Lines.json)"


def _max_diff(ours: dict, ref_lookup) -> float:
    worst = 0.0
    for key, pairs in ours.items():
        ref = ref_lookup(key)
        for a, p in pairs:
            worst = max(worst, abs(p - ref[a]))
    return worst


def _cpp_lookup(policy):
    return lambda key: dict(policy.get_state_policy(key))


@pytest.mark.parametrize("variant, make_ref", [("cfr", pyspiel.CFRSolver), ("cfr+", pyspiel.CFRPlusSolver)])
@pytest.mark.parametrize("game_string", ["kuhn_poker", RPS_LINES])
@pytest.mark.parametrize("backend", ["c", "numpy"])
def test_tabular_matches_openspiel_cpp_every_iteration(variant, make_ref, game_string, backend):
    game = pyspiel.load_game(game_string)
    tree = enumerate_tree(game)
    ours, ref = TabularCFR(tree, variant, backend=backend), make_ref(turn_based(game))
    for _ in range(25):
        ours.iterate()
        ref.evaluate_and_update_policy()
        assert _max_diff(ours.average_policy(), _cpp_lookup(ref.average_policy())) < 1e-9
        assert _max_diff(ours.current_policy(), _cpp_lookup(ref.current_policy())) < 1e-9


@pytest.mark.parametrize("backend", ["c", "numpy"])
@pytest.mark.parametrize(
    "variant, make_ref", [("dcfr", discounted_cfr.DCFRSolver), ("lcfr", discounted_cfr.LCFRSolver)]
)
def test_dcfr_matches_openspiels_python_dcfr_every_iteration(backend, variant, make_ref):
    game = pyspiel.load_game("kuhn_poker")
    ours, ref = TabularCFR(enumerate_tree(game), variant, backend=backend), make_ref(game)
    for _ in range(20):
        ours.iterate()
        ref.evaluate_and_update_policy()
        avg = ref.average_policy()
        assert (
            _max_diff(ours.average_policy(), lambda k, avg=avg: dict(enumerate(avg.policy_for_key(k)))) < 1e-9
        )


def test_three_player_general_form_runs_and_nash_conv_falls():
    game = pyspiel.load_game("kuhn_poker(players=3)")
    result = run(game, "cfr", iterations=200)
    assert result.curve[-1]["exploitability"] is None  # not two-player zero-sum
    assert result.curve[-1]["nash_conv"] < 0.25 * result.curve[0]["nash_conv"]


def test_kuhn_value_and_equilibrium():
    game = pyspiel.load_game("kuhn_poker")
    result = run(game, "cfr+", iterations=2000)
    assert result.curve[-1]["exploitability"] < 1e-3
    values = pyspiel.expected_returns(
        game.new_initial_state(), evaluate.as_pyspiel_policy(result.policy), -1, True
    )
    assert values[0] == pytest.approx(-1 / 18, abs=1e-3)
    # the textbook family: player 0 bets a King 3x as often as it bluffs a Jack,
    # never bets a Queen first
    pol = {k: dict(v) for k, v in result.policy.items()}
    alpha = pol["0"][1]
    assert pol["1"][1] < 1e-2
    assert pol["2"][1] == pytest.approx(3 * alpha, abs=2e-2)


def test_matrix_rps_average_is_uniform():
    result = run(pyspiel.load_game("matrix_rps"), "cfr+", iterations=1000)
    for pairs in result.policy.values():
        for _, p in pairs:
            assert p == pytest.approx(1 / 3, abs=1e-3)


@pytest.mark.parametrize("engine", ["ours", "openspiel"])
@pytest.mark.parametrize("algorithm", ["mccfr-outcome", "mccfr-external"])
def test_mccfr_is_reproducible_from_its_seed_and_converges(algorithm, engine):
    game = pyspiel.load_game("kuhn_poker")
    a, b, c = (Solver(game, algorithm, engine, seed=s) for s in (7, 7, 8))
    for s in (a, b, c):
        s.iterate(3000)
    assert a.average_policy() == b.average_policy() != c.average_policy()
    assert evaluate.exploitability(evaluate.evaluation_game(game), a.average_policy()) < 0.1


def test_openspiel_engine_runs_our_simultaneous_game():
    game = pyspiel.load_game(RPS_LINES)
    ours = run(game, "cfr", iterations=100)
    theirs = run(game, "cfr", engine="openspiel", iterations=100)
    assert ours.curve[-1]["nash_conv"] == pytest.approx(theirs.curve[-1]["nash_conv"], abs=1e-9)


def test_bad_choices_are_refused():
    game = pyspiel.load_game("kuhn_poker")
    with pytest.raises(ValueError, match="unknown algorithm"):
        Solver(game, "cfr++")
    with pytest.raises(ValueError, match="engine"):
        Solver(game, "dcfr", "openspiel")
    with pytest.raises(ValueError, match="unknown CFR variant"):
        TabularCFR(enumerate_tree(game), "xcfr")
    with pytest.raises(ValueError, match="backend"):
        TabularCFR(enumerate_tree(game), "cfr", backend="cuda")
    with pytest.raises(TreeTooLarge, match="too large"):
        enumerate_tree(pyspiel.load_game("leduc_poker"), max_nodes=1000)
    with pytest.raises(ValueError, match="iterations"):
        run(game, "cfr", iterations=0)


def test_checkpoints():
    assert checkpoints(1) == [1]
    assert checkpoints(120) == [1, 2, 5, 10, 20, 50, 100, 120]
    assert checkpoints(100) == [1, 2, 5, 10, 20, 50, 100]


# -- policy files and the bot ---------------------------------------------------


def test_policy_file_round_trip_and_refusals(tmp_path):
    game = pyspiel.load_game("kuhn_poker")
    policy = run(game, "cfr", iterations=50).policy
    path = save_policy(
        tmp_path / "k.json",
        game=game,
        policy=policy,
        turn_based=False,
        algorithm="cfr",
        iterations=50,
        nash_conv=float("nan"),
    )
    doc = load_policy(path)
    assert doc["format"] == FORMAT and doc["nash_conv"] is None and doc["game"] == str(game)
    assert doc["policy"] == {k: dict(v) for k, v in policy.items()}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": FORMAT, "game": "x", "policy": {"k": [[0, 0.7]]}}))
    with pytest.raises(ValueError, match="not a distribution"):
        load_policy(bad)
    bad.write_text("{")
    with pytest.raises(ValueError, match="not JSON"):
        load_policy(bad)
    with pytest.raises(ValueError, match="does not exist"):
        load_policy(tmp_path / "none.json")
    with pytest.raises(ValueError, match="solved for"):
        make_bot("cfr", pyspiel.load_game("leduc_poker"), 0, policy=str(path))


def test_cfr_bot_plays_the_policy_on_a_simultaneous_game(tmp_path):
    game = pyspiel.load_game(RPS_LINES)
    result = run(game, "cfr+", iterations=300)
    path = save_policy(tmp_path / "p.json", game=game, policy=result.policy, turn_based=True)
    bot = make_bot(f"cfr:policy={path}", game, 1, seed=3)
    state = game.new_initial_state()
    policy = dict(bot.get_policy(state))
    key = f"Current player: 1\n{state.information_state_string(1)}"
    assert policy == pytest.approx(dict(result.policy[key]))
    assert bot.misses == 0
    same = make_bot("cfr", game, 1, seed=3, policy=str(path))
    assert [bot.step(state) for _ in range(20)] == [same.step(state) for _ in range(20)]


def test_cfr_bots_play_kuhn_at_its_value(tmp_path):
    game = pyspiel.load_game("kuhn_poker")
    path = save_policy(
        tmp_path / "k.json", game=game, policy=run(game, "cfr+", iterations=1000).policy, turn_based=False
    )
    bots = [make_bot("cfr", game, p, seed=p, policy=str(path)) for p in (0, 1)]
    returns = [pyspiel.evaluate_bots(game.new_initial_state(), bots, i)[0] for i in range(3000)]
    # value -1/18 ~ -0.056; the standard error of 3000 hands is ~0.025
    assert -0.13 < np.mean(returns) < 0.02


def test_cli_help_and_run(tmp_path):
    out = subprocess.run([sys.executable, "-m", "cfr", "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "--algorithm" in out.stdout
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "cfr",
            "--game",
            "kuhn_poker",
            "--algorithm",
            "dcfr",
            "--iterations",
            "100",
            "--json",
            "--save",
            str(tmp_path / "p.json"),
            "--curve",
            str(tmp_path / "c.csv"),
        ],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["iterations"] == 100 and summary["exploitability"] < 0.05
    assert load_policy(tmp_path / "p.json")["algorithm"] == "dcfr"
    assert (tmp_path / "c.csv").read_text().startswith("iteration,seconds,nash_conv")
    out = subprocess.run(
        [sys.executable, "-m", "cfr", "--game", "kuhn_poker", "--algorithm", "dcfr", "--engine", "openspiel"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2 and "engine" in out.stderr
    out = subprocess.run(
        [sys.executable, "-m", "cfr", "--game", "kuhn_poker", "--iterations", "0"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2


def test_cli_refuses_a_directory_to_save_to_and_a_rule_set_that_is_not_one(tmp_path, capsys):
    from cfr.__main__ import main

    assert main(["--game", "kuhn_poker", "--iterations", "5", "--save", str(tmp_path)]) == 2
    assert "is a directory; give a file path" in capsys.readouterr().err
    assert main(["--game", "kuhn_poker", "--iterations", "5", "--curve", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err
    bad = tmp_path / "notes.txt"
    bad.write_text("root:x:0:0:root:/root:/bin/bash\n")
    assert main(["--game", f"ttt(rules={bad})", "--iterations", "5"]) == 2
    err = capsys.readouterr().err
    assert "cannot load game" in err and "not valid JSON" in err and "Traceback" not in err


def test_a_policy_that_is_no_policy_of_the_game_is_refused_naming_the_state(tmp_path):
    game = pyspiel.load_game("kuhn_poker")
    policy = run(game, "cfr", iterations=20).policy
    key = next(iter(policy))
    nan = tmp_path / "nan.json"
    save_policy(nan, game=game, policy={**policy, key: [(0, float("nan")), (1, 0.5)]}, turn_based=False)
    with pytest.raises(ValueError, match=f"probabilities of {re.escape(repr(key))} are not a distribution"):
        load_policy(nan)
    outside = tmp_path / "outside.json"
    save_policy(outside, game=game, policy={**policy, key: [(7, 1.0)]}, turn_based=False)
    with pytest.raises(ValueError, match=re.escape(repr(key)) + r" actions \[7\], not all of them actions"):
        make_bot("cfr", game, 0, policy=str(outside))
    # actions of the game, none of them legal where the state is reached: Leduc's
    # first mover may not fold before anyone bet; the bot played uniformly there
    leduc = pyspiel.load_game("leduc_poker")
    state = leduc.new_initial_state()
    state.apply_action(0)
    state.apply_action(1)
    first = state.information_state_string(0)
    assert 0 not in state.legal_actions()
    illegal = tmp_path / "illegal.json"
    save_policy(illegal, game=leduc, policy={first: [(0, 1.0)]}, turn_based=False)
    bot = make_bot("cfr", leduc, 0, policy=str(illegal))
    with pytest.raises(ValueError, match="no probability on a legal action at information state"):
        bot.step(state)

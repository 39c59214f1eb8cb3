"""cfr/dag.py: CFR and best responses over a DAG of merged histories.

The reference is OpenSpiel's own best response over every history of the game
(``pyspiel.nash_conv`` on the full tree): on small games of both kinds the
DAG's NashConv, exploitability and returns must equal OpenSpiel's for the
same policy, played through the game's own information sets. Then what the
DAG merges: two histories a player cannot tell apart land in one of its
information sets, and games where merging would change the game are refused.
"""

import json

import numpy as np
import pyspiel
import pytest

import games  # noqa: F401  (registers ours)
from cfr import dag, evaluate
from cfr.tabular import TabularCFR
from cfr.tree import enumerate_tree


@pytest.fixture(scope="module")
def mini_centipede(tmp_path_factory):
    """Centipede9 with one circle each (24,822 histories): perfect information, chance at the end."""
    path = tmp_path_factory.mktemp("dag") / "MiniCentipede.json"
    path.write_text(
        json.dumps(
            {
                "name": "MiniCentipede",
                "extends": "Centipede9",
                "reserves": {
                    "black": {"circle": 1, "pentagon": 1},
                    "white": {"circle": 1, "pentagon": 1},
                    "pink": {"circle": 1},
                },
            }
        )
    )
    return pyspiel.load_game(f"ttt(rules={path})")


@pytest.fixture(scope="module")
def mini_blotto(tmp_path_factory):
    """3Blotto13 with 4 soldiers on stacks of 4 (9,841 histories): blind, zero-sum."""
    with open("games/ttt/catalogue/3Blotto13.json") as f:
        rules = json.load(f)
    rules.update(name="MiniBlotto", reserves={"black": 4, "white": 4})
    rules["board"]["size"] = [2, 1, 4]
    rules["phases"][0]["cloaked"] = [[x, 1, h] for x in (1, 2) for h in range(1, 5)]
    path = tmp_path_factory.mktemp("dag") / "MiniBlotto.json"
    path.write_text(json.dumps(rules))
    return pyspiel.load_game(f"ttt(rules={path})")


def _policies(tree):
    """A seeded random policy and CFR+'s average after 30 iterations, per slot."""
    rng = np.random.default_rng(7)
    raw = rng.random(tree.num_slots) + 0.05
    sums = np.bincount(tree.sa_infoset, raw)[tree.sa_infoset]
    solver = TabularCFR(tree, "cfr+")
    solver.iterate(30)
    return {"random": raw / sums, "cfr+30": solver.average_probs()}


@pytest.mark.parametrize("which", ["mini_centipede", "mini_blotto"])
def test_dag_best_responses_equal_openspiel_on_the_full_tree(which, request):
    game = request.getfixturevalue(which)
    tree = dag.build_dag(game)
    assert tree.dag.mode == ("position" if which == "mini_centipede" else "observation")
    full = enumerate_tree(game)
    assert tree.num_nodes < full.num_nodes / 5  # it does merge
    eval_game = evaluate.evaluation_game(game)
    for name, probs in _policies(tree).items():
        lifted = pyspiel.TabularPolicy(dag.lift(tree, probs, full.infoset_states))
        theirs = evaluate.nash_conv(eval_game, lifted)
        assert dag.nash_conv(tree, probs) == pytest.approx(theirs, abs=1e-9), name
        returns = pyspiel.expected_returns(eval_game.new_initial_state(), lifted, -1, True)
        assert dag.values(tree, probs) == pytest.approx(returns, abs=1e-9), name
        if game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM:
            assert dag.exploitability(tree, probs) == pytest.approx(
                evaluate.exploitability(eval_game, lifted), abs=1e-9
            )
        assert theirs > 1e-3, f"{name}: a test policy this close to equilibrium tests little"


def test_cfr_on_a_blind_dag_finds_the_blotto_equilibrium(mini_blotto):
    """CFR+ on the DAG drives exploitability below 1e-3, and the game is symmetric, so
    the equilibrium returns are 0 (checked on OpenSpiel's full tree)."""
    tree = dag.build_dag(mini_blotto)
    solver = TabularCFR(tree, "cfr+")
    solver.iterate(2000)
    probs = solver.average_probs()
    assert dag.exploitability(tree, probs) < 1e-3
    full = enumerate_tree(mini_blotto)
    lifted = pyspiel.TabularPolicy(dag.lift(tree, probs, full.infoset_states))
    eval_game = evaluate.evaluation_game(mini_blotto)
    assert evaluate.exploitability(eval_game, lifted) < 1e-3
    returns = pyspiel.expected_returns(eval_game.new_initial_state(), lifted, -1, True)
    assert returns == pytest.approx([0.0, 0.0], abs=2e-3)


def _play(game, actions):
    state = game.new_initial_state()
    for a in actions:
        state.apply_action(a)
    return state


def test_histories_a_player_cannot_tell_apart_share_its_information_set(mini_blotto):
    """Black's second turn after white placed on different boards: black's own view and
    information state are the same, and so is its DAG information set. Black's own
    placements in another order reach the same DAG set although its information state
    (which remembers the order) differs: merged because their futures are the same."""
    tree = dag.build_dag(mini_blotto)
    first = _play(mini_blotto, [])
    a, b = first.legal_actions()[:2]
    after_white = []
    for w in range(2):
        s = _play(mini_blotto, [a])
        s.apply_action(s.legal_actions()[w])
        after_white.append(s)
    assert after_white[0].current_player() == 0
    assert after_white[0].information_state_string(0) == after_white[1].information_state_string(0)
    assert after_white[0].observation_string(0) == after_white[1].observation_string(0)
    assert dag.infoset_index(tree, after_white[0]) == dag.infoset_index(tree, after_white[1])

    def own_twice(x, y):
        s = _play(mini_blotto, [x])
        s.apply_action(s.legal_actions()[0])
        s.apply_action(y)
        s.apply_action(s.legal_actions()[0])
        return s

    ab, ba = own_twice(a, b), own_twice(b, a)
    assert ab.information_state_string(0) != ba.information_state_string(0)
    assert dag.infoset_index(tree, ab) == dag.infoset_index(tree, ba)
    # white, who saw none of it, has one information set too
    assert ab.information_state_string(1) == ba.information_state_string(1)


def test_the_chance_phase_that_ends_a_centipede_collapses_to_its_expectation(mini_centipede):
    """No chance node is left whose children are all leaves: the Chaos phase's
    expectation sits on one leaf (and the best-response test shows the values)."""
    tree = dag.build_dag(mini_centipede)
    chance = np.flatnonzero(tree.node_player == pyspiel.PlayerId.CHANCE)
    leaves = tree.node_player == pyspiel.PlayerId.TERMINAL
    for n in chance:
        kids = tree.edge_child[tree.dag.estart[n] : tree.dag.estart[n + 1]]
        assert not leaves[kids].all()


@pytest.mark.parametrize(
    "game_string, mode, words",
    [
        ("ttt(rules=Tic-Tac-Toe)", "observation", "another move"),
        ("ttt(rules=Tic-Tac-Toe)", "position", None),
        ("ttt(rules=3Blotto13)", "position", "not a sequential perfect-information game"),
        ("ttt(rules=RockPaperScissors)", None, "simultaneous rounds"),
    ],
)
def test_games_where_merging_would_change_the_game_are_refused(game_string, mode, words):
    game = pyspiel.load_game(game_string)
    if words is None:  # perfect information: merged by position, and exact
        tree = dag.build_dag(game, mode)
        assert tree.num_nodes == 5478  # tic-tac-toe's positions, terminal included
        assert dag.nash_conv(tree, TabularCFR(tree, "cfr+").average_probs()) > 0
        return
    with pytest.raises(dag.NotExact, match=words):
        dag.build_dag(game, mode)


def test_only_this_toolkits_games_and_known_modes():
    with pytest.raises(ValueError, match="Cython games only"):
        dag.build_dag(pyspiel.load_game("kuhn_poker"))
    with pytest.raises(ValueError, match="unknown DAG mode"):
        dag.build_dag(pyspiel.load_game("ttt(rules=Tic-Tac-Toe)"), "history")
    with pytest.raises(dag.TooManyNodes):
        dag.build_dag(pyspiel.load_game("ttt(rules=Tic-Tac-Toe)"), max_nodes=100)
    with pytest.raises(ValueError, match="numpy backend"):
        TabularCFR(dag.build_dag(pyspiel.load_game("ttt(rules=Tic-Tac-Toe)")), "cfr", backend="numpy")


def _cli(*args):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "cfr", *args], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.parametrize("which, mode", [("mini_blotto", "observation"), ("mini_centipede", "position")])
def test_the_cli_solves_past_max_nodes_over_the_dag_and_the_bot_plays_it(which, mode, request, tmp_path):
    """Past --max-nodes the CLI solves over the DAG; the saved policy says its keys, and
    the cfr bot finds every information set it meets in it (no miss) and plays exactly
    the DAG's policy there."""
    from agents import make_bot

    game = request.getfixturevalue(which)
    path = tmp_path / "policy.json"
    summary = _cli(
        "--game", str(game), "--max-nodes", "1000", "--iterations", "50", "--save", str(path), "--json"
    )
    assert summary["dag_mode"] == mode and summary["histories"] is None
    assert summary["nash_conv"] == pytest.approx(summary["curve"][-1]["nash_conv"])
    doc = json.loads(path.read_text())
    assert doc["keys"] == f"dag-{mode}"
    tree = dag.build_dag(game)
    solver = TabularCFR(tree, "cfr+")
    solver.iterate(50)
    assert dag.nash_conv(tree, solver.average_probs()) == pytest.approx(summary["nash_conv"])
    probs = solver.average_probs()
    bots = [make_bot("cfr", game, p, policy=str(path), seed=p) for p in range(2)]
    for seed in range(3):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                acts, ps = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(acts, p=ps)))
                continue
            bot = bots[state.current_player()]
            got = dict(bot.get_policy(state))
            i = dag.infoset_index(tree, state)
            lo = tree.infoset_first_sa[i]
            want = {a: probs[lo + j] for j, a in enumerate(tree.infoset_actions[i])}
            assert got == pytest.approx(want, abs=1e-9)
            state.apply_action(bot.step(state))
    assert [b.misses for b in bots] == [0, 0]


def test_a_game_too_large_whose_dag_would_not_be_exact_is_refused_with_the_reason():
    from cfr.solve import run
    from cfr.tree import TreeTooLarge

    game = pyspiel.load_game("ttt(rules=games/ttt/examples/Phantom-TTT-Corners.json)")
    with pytest.raises(TreeTooLarge, match="would not be exact"):
        run(game, "cfr+", iterations=1, max_nodes=1000)


def test_backward_induction_over_positions_equals_it_over_histories(mini_centipede, mini_blotto):
    """The DAG's subgame-perfect values and path equal solvers.normal_form's, which walks
    every history (same rule: the mover's best, the lowest action on ties)."""
    from solvers.normal_form import backward_induction

    theirs = backward_induction(mini_centipede)
    ours = dag.backward_induction(dag.build_dag(mini_centipede))
    assert ours.value == pytest.approx(theirs.value, abs=1e-12)
    assert ours.path == theirs.path and len(ours.path) > 3
    assert 0 < ours.tied_positions <= len(theirs.ties)
    # and the profile it plays is an equilibrium: a positional policy with NashConv 0
    tree = dag.build_dag(mini_centipede)
    _, choice, _ = dag._kernel.backward_induction(
        tree.edge_child, tree.edge_prob, dag._util(tree), tree.dag.estart, tree.node_player
    )
    probs = np.zeros(tree.num_slots)
    for n in np.flatnonzero(choice >= 0):
        probs[tree.infoset_first_sa[tree.dag.node_infoset[n]] + choice[n]] = 1.0
    assert dag.nash_conv(tree, probs) == pytest.approx(0.0, abs=1e-12)
    with pytest.raises(ValueError, match="perfect information"):
        dag.backward_induction(dag.build_dag(mini_blotto))


def test_bench_cfr_solves_a_game_too_large_to_list_over_its_dag(mini_blotto):
    """experiments.bench_cfr's row for such a game: DCFR over the DAG, the walk counted,
    the exploitability exact (the DAG's) and below the target."""
    from cfr.tree import TreeTooLarge
    from experiments.bench_cfr import DAG_ALGORITHM, dag_row

    row = dag_row(
        mini_blotto, "exploitability", TreeTooLarge("9,841 histories", "(test)"), target=1e-3, limit=60.0
    )
    assert row["algorithm"] == f"{DAG_ALGORITHM} (DAG)" and row["met"] and row["value"] < 1e-3
    assert 0 < row["build_seconds"] <= row["seconds"]
    assert "observation DAG" in row["dag"] and "9,841 histories" in row["dag"]
    tree = dag.build_dag(mini_blotto)
    solver = TabularCFR(tree, DAG_ALGORITHM)
    solver.iterate(row["iterations"])
    assert row["value"] == pytest.approx(dag.exploitability(tree, solver.average_probs()))


def test_a_policy_file_is_read_once_while_unchanged(tmp_path, monkeypatch, mini_blotto):
    """Tournaments build bots for every game; a DAG's policy can be 77 MB (Centipede9), so
    the cfr bot kind reads a file once per process, and again only once it changes."""
    from agents import builtin, make_bot
    from cfr.policy_file import save_policy

    tree = dag.build_dag(mini_blotto)
    path = tmp_path / "p.json"
    save_policy(
        path,
        game=mini_blotto,
        policy=tree.policy_dict(TabularCFR(tree).average_probs()),
        turn_based=False,
        keys="dag-observation",
    )
    reads = []
    real = builtin.load_policy
    monkeypatch.setattr(builtin, "load_policy", lambda p: reads.append(p) or real(p))
    builtin._load_policy_once.cache_clear()
    for seat in (0, 1, 0):
        make_bot("cfr", mini_blotto, seat, policy=str(path))
    assert len(reads) == 1
    save_policy(
        path,
        game=mini_blotto,
        policy=tree.policy_dict(TabularCFR(tree).average_probs()),
        turn_based=False,
        keys="dag-observation",
        note="rewritten",
    )
    import os

    os.utime(path, ns=(1, 1))  # a different modification time, whatever the clock
    make_bot("cfr", mini_blotto, 0, policy=str(path))
    assert len(reads) == 2

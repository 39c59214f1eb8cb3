"""Payoff tables (games/normal_form.py, games/payoff_formats.py,
``python -m games.ttt.payoffs``), against references nobody
here wrote:

- OpenSpiel's matrix games: the table is ``game_payoffs_array`` exactly, with
  the game's action names as strategy labels;
- Kuhn poker: 64 pure strategies each (player 0 decides at 6 information
  states: its card J/Q/K, first to act or facing a bet after its own pass;
  player 1 at 6: its card, facing a pass or a bet; 2 actions at each, so
  2^6), every sampled profile equal to OpenSpiel's ``policy_value`` of that
  pure profile, the mean over all profiles equal to the uniform policy's
  ``expected_game_score``, and the table's zero-sum value the textbook -1/18
  (a linear program on the table);
- tiny_hanabi (chance deals, 2 players) and 3-player goofspiel (simultaneous,
  chance): sampled profiles and the uniform mean against OpenSpiel;
- rule sets of ours: the rock-paper-scissors rule set of the simultaneous
  feature gives the textbook RPS table on its three cyclic plans, tiny rule
  sets against Chaos (sequential, and a simultaneous round with collisions)
  give the expectations computed by hand, and a cloaked rule set and the
  simultaneous one match OpenSpiel's ``policy_value`` profile by profile;
- .nfg read back by pygambit gives the same table; the command line's help,
  refusals and files.
"""

import json
import math
import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import expected_game_score
from open_spiel.python.egt.utils import game_payoffs_array

import games  # noqa: F401  (registers ttt)
from games.normal_form import TooLarge, as_fraction, enumerate_tree, payoff_table
from games.payoff_formats import to_json, to_nfg, to_text
from games.ttt import payoffs as cli

EXAMPLES = Path(games.__file__).parent / "ttt" / "examples"
RPS = EXAMPLES / "RPS-Shared-Lines.json"
ROCK_PAPER_SCISSORS = ("(3,1,1)->(3,2,1)", "(4,3,1)->(3,3,1)", "(2,3,1)->(2,2,1)")

# One player (black, 2 pieces) against Chaos (white, 1 piece) on a row of three
# cells; two black pieces side by side win. By hand: black in the middle always
# gets a neighbour (1); black at an end wins when Chaos does not take the
# middle (probability 1/2), else the row fills without a pair (draw, 0).
HAND_CHAOS = {
    "name": "hand-chaos",
    "players": "1-vs-chaos",
    "board": {"kind": "squares", "size": [3, 1, 1]},
    "reserves": {"black": 2, "white": 1},
    "turn_checks": ["first-2-wins"],
}

# Black and white (one piece each) and Chaos (one pink) plan one simultaneous
# round on the same row of three cells; plans on one cell collide and destroy
# each other (docs/rules/ttt/rounds.md); then most pieces wins.
# By hand: black and white on one cell lose both pieces; Chaos's pink (uniform
# over the three cells) survives unless it joins them (1/3: nobody has a piece,
# a draw), so each player expects 2/3 x -1 = -2/3. On different cells, Chaos
# destroys black's piece (1/3: white wins), white's (1/3: black wins) or takes
# the third cell (1/3: one piece each, a draw): 0 for both.
HAND_SIM_CHAOS = {
    "name": "hand-sim-chaos",
    "players": "2-vs-chaos",
    "board": {"kind": "squares", "size": [3, 1, 1]},
    "reserves": {"black": 1, "white": 1, "pink": 1},
    "turn_checks": ["first-2-wins"],
    "phases": [{"order": "single"}],
    "stalemate": "most-pieces-wins",
}

# Two players on a row of three cells, every cell cloaked (hidden): a sequential
# imperfect-information rule set (docs/rules/ttt/cloaking.md).
CLOAKED_ROW = {
    "name": "cloaked-row",
    "board": {"kind": "squares", "size": [3, 1, 1]},
    "reserves": {"black": 2, "white": 2},
    "cloaking": "hides",
    "turn_checks": ["first-2-wins"],
    "phases": [{"cloaked": [[1, 1, 1], [2, 1, 1], [3, 1, 1]]}],
}


class PureProfile(policy_lib.Policy):
    """A profile of pure strategies as an OpenSpiel policy: the action each
    player picks at each information-state string (from the table's JSON)."""

    def __init__(self, game, choice):
        super().__init__(game, list(range(game.num_players())))
        self.choice = choice

    def action_probabilities(self, state, player_id=None):
        player = state.current_player() if player_id is None else player_id
        return {self.choice[player][state.information_state_string(player)]: 1.0}


def _policies(game, pol):
    """What ``policy_value`` takes: one policy for simultaneous games, else one per player."""
    simultaneous = game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    return pol if simultaneous else [pol] * game.num_players()


def openspiel_value(game, data, profile):
    choice = [
        {
            s["key"]: a
            for s, a in zip(data["information_states"][p], data["strategies"][p][k]["actions"], strict=True)
        }
        for p, k in enumerate(profile)
    ]
    pol = PureProfile(game, choice)
    return expected_game_score.policy_value(game.new_initial_state(), _policies(game, pol))


def check_against_openspiel(name, samples, seed=1):
    game = pyspiel.load_game(name)
    table = payoff_table(game)
    data = to_json(table)
    rng = random.Random(seed)
    profiles = list(table.payoffs)
    for profile in rng.sample(profiles, min(samples, len(profiles))):
        np.testing.assert_allclose(
            [float(v) for v in table.payoffs[profile]], openspiel_value(game, data, profile), atol=1e-12
        )
    uniform = policy_lib.UniformRandomPolicy(game)
    mean = [sum(v[p] for v in table.payoffs.values()) / len(profiles) for p in range(game.num_players())]
    np.testing.assert_allclose(
        [float(m) for m in mean],
        expected_game_score.policy_value(game.new_initial_state(), _policies(game, uniform)),
        atol=1e-12,
    )
    return table


@pytest.mark.parametrize("name", ["matrix_pd", "matrix_rps", "matrix_sh", "matrix_bos"])
def test_matrix_games_are_their_payoff_arrays(name):
    game = pyspiel.load_game(name)
    table = payoff_table(game)
    assert table.exact and table.shape == (game.num_distinct_actions(),) * 2
    np.testing.assert_array_equal(table.array(), game_payoffs_array(game))
    state = game.new_initial_state()
    for p in range(2):
        assert table.labels(p) == [state.action_to_string(p, a) for a in state.legal_actions(p)]


def test_kuhn_poker_has_64_strategies_each_and_openspiel_values():
    table = check_against_openspiel("kuhn_poker", samples=60)
    assert table.shape == (64, 64) and table.exact
    assert [len(s) for s in table.infostates] == [6, 6]
    assert all(v[0] + v[1] == 0 for v in table.payoffs.values())
    # uniform play: player 0 gains 1/8 exactly
    assert sum(v[0] for v in table.payoffs.values()) / 4096 == Fraction(1, 8)


def test_kuhn_poker_table_has_the_textbook_value():
    """Kuhn poker's value for the first player is -1/18; the maximin of the
    normal form (a linear program over player 0's mixed strategies) is it."""
    from scipy.optimize import linprog

    a = payoff_table("kuhn_poker").array()[0]  # rows: player 0
    m, k = a.shape
    # maximise v subject to x^T A[:, j] >= v for every column j, sum x = 1, x >= 0
    res = linprog(
        c=np.r_[np.zeros(m), -1.0],
        A_ub=np.c_[-a.T, np.ones(k)],
        b_ub=np.zeros(k),
        A_eq=np.r_[np.ones(m), 0.0][None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * m + [(None, None)],
        method="highs",
    )
    assert res.status == 0
    assert -res.fun == pytest.approx(-1 / 18, abs=1e-9)


@pytest.mark.parametrize(
    "name,shape", [("tiny_hanabi", (9, 729)), ("goofspiel(num_cards=2,players=3,imp_info=True)", (4, 4, 4))]
)
def test_chance_games_against_openspiel(name, shape):
    table = check_against_openspiel(name, samples=40)
    assert table.shape == shape


def test_rock_paper_scissors_rule_set_is_the_textbook_table():
    table = payoff_table(f"ttt(rules={RPS})")
    assert table.exact and table.shape == (4, 4)
    labels = table.labels(0)
    assert labels == table.labels(1)
    order = [labels.index(n) for n in ROCK_PAPER_SCISSORS]
    a = table.array()
    textbook = game_payoffs_array(pyspiel.load_game("matrix_rps"))  # rock, paper, scissors
    for p in range(2):
        np.testing.assert_array_equal(a[p][np.ix_(order, order)], textbook[p])


def test_rule_set_against_chaos_by_hand(tmp_path):
    path = tmp_path / "hand-chaos.json"
    path.write_text(json.dumps(HAND_CHAOS))
    table = payoff_table(cli.game_string(str(path)))
    assert table.exact and table.shape == (3,)
    assert dict(zip(table.labels(0), (table.payoffs[(s,)][0] for s in range(3)), strict=True)) == {
        "black@(1,1,1)": Fraction(1, 2),
        "black@(2,1,1)": 1,
        "black@(3,1,1)": Fraction(1, 2),
    }


def test_simultaneous_rule_set_with_chaos_by_hand_and_by_openspiel(tmp_path):
    path = tmp_path / "hand-sim-chaos.json"
    path.write_text(json.dumps(HAND_SIM_CHAOS))
    name = cli.game_string(str(path))
    table = check_against_openspiel(name, samples=9)
    assert table.exact and table.shape == (3, 3)
    assert table.labels(0) == [f"black@({c},1,1)" for c in (1, 2, 3)]
    for (i, j), values in table.payoffs.items():
        assert values == ((Fraction(-2, 3),) * 2 if i == j else (0, 0))


def test_cloaked_rule_set_against_openspiel(tmp_path):
    path = tmp_path / "cloaked-row.json"
    path.write_text(json.dumps(CLOAKED_ROW))
    table = check_against_openspiel(cli.game_string(str(path)), samples=40)
    # player 0: 3 first placements x 2 second ones in each of the 6 histories it
    # can tell apart (its first cell x whether white's try hit it); player 1: 3 x 2^6
    assert table.shape == (3 * 2**6, 3 * 2**6)
    assert all(v[0] + v[1] == 0 for v in table.payoffs.values())


def test_information_states_of_a_perfect_information_game_are_its_decision_nodes(tmp_path):
    path = tmp_path / "hand-chaos.json"
    path.write_text(json.dumps(HAND_CHAOS))
    tree = enumerate_tree(pyspiel.load_game(cli.game_string(str(path))))
    # the root, and the 3 x 2 positions after black's first piece and Chaos's reply
    assert len(tree.infostates[0]) == 7
    assert tree.nodes == 1 + 3 + 6 + 6


def test_too_many_profiles_are_refused_with_the_count_before_evaluation():
    with pytest.raises(TooLarge, match=r"4,096 pure-strategy profiles \(strategies per player: 64, 64\)"):
        payoff_table("kuhn_poker", max_profiles=4095)
    with pytest.raises(TooLarge, match="more than 10 nodes"):
        payoff_table("kuhn_poker", max_nodes=10)
    # a big tree is refused after a bounded walk, with a lower bound
    with pytest.raises(TooLarge, match="at least about 10\\^"):
        payoff_table("ttt(rules=Tic-Tac-Toe)", max_profiles=1000)


def test_nfg_read_back_by_pygambit_is_the_same_table(tmp_path):
    gbt = pytest.importorskip("pygambit")
    for name in ("kuhn_poker", f"ttt(rules={RPS})", "goofspiel(num_cards=2,players=3,imp_info=True)"):
        table = payoff_table(name)
        path = tmp_path / "t.nfg"
        path.write_text(to_nfg(table))
        g = gbt.read_nfg(str(path))
        players = list(g.players)  # (indexing g.players takes labels)
        strategies = [list(player.strategies) for player in players]
        assert [len(s) for s in strategies] == list(table.shape)
        assert [[s.label for s in ss] for ss in strategies] == [table.labels(p) for p in range(len(players))]
        for profile, values in table.payoffs.items():
            cell = g[tuple(strategies[p][s] for p, s in enumerate(profile))]
            assert [Fraction(cell[player]) for player in players] == list(values)


def test_floats_are_read_as_the_fractions_they_stand_for():
    assert as_fraction(1 / 3) == (Fraction(1, 3), True)
    assert as_fraction(-0.125) == (Fraction(-1, 8), True)
    value, exact = as_fraction(math.pi)
    assert not exact and float(value) == math.pi


def test_text_and_json_name_every_strategy():
    table = payoff_table("matrix_pd")
    text = to_text(table)
    assert "Cooperate | 5, 5" in text and "Defect    | 10, 0" in text
    data = to_json(table)
    assert [s["label"] for s in data["strategies"][0]] == ["Cooperate", "Defect"]
    assert data["profiles"][1] == {"strategies": [0, 1], "returns": [0.0, 10.0], "exact_returns": ["0", "10"]}


def test_command_line(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["--help"])
    assert e.value.code == 0
    assert "--max-profiles" in capsys.readouterr().out
    assert cli.main(["No-Such-Rules"]) == 2
    assert "not allowed; give a catalogue name" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text('{"name": "bad", "board": 3}')
    assert cli.main([str(bad)]) == 2
    assert "invalid" in capsys.readouterr().err
    assert cli.main(["--game", "no_such_game"]) == 2
    assert "no_such_game" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["Tic-Tac-Toe", "--game", "kuhn_poker"])
    assert "not both" in capsys.readouterr().err
    assert cli.main(["a,b.json"]) == 2
    assert "may not contain ," in capsys.readouterr().err
    assert cli.main(["--game", "kuhn_poker", "--max-profiles", "100"]) == 1
    assert "4,096 pure-strategy profiles" in capsys.readouterr().err
    out_json, out_nfg = tmp_path / "t.json", tmp_path / "t.nfg"
    assert cli.main([str(RPS), "--json", str(out_json), "--nfg", str(out_nfg)]) == 0
    printed = capsys.readouterr().out
    assert all(n in printed for n in ROCK_PAPER_SCISSORS)
    assert json.loads(out_json.read_text())["exact"] is True
    assert out_nfg.read_text().startswith("NFG 1 R")
    assert cli.main(["--game", "kuhn_poker", "--count"]) == 0
    assert "pure-strategy profiles: 4,096" in capsys.readouterr().out

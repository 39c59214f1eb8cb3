"""SM-MCTS (mcts/smmcts.py) against textbook matrix games and its refusals.

References not written by us: the equilibria of matching pennies and
rock-paper-scissors (uniform), of a biased matching pennies (row payoffs
[[2, -1], [-1, 1]]: both play H with 2/5, by the indifference conditions) and
of a biased rock-paper-scissors (antisymmetric [[0, -1, 2], [1, 0, -1],
[-2, 1, 0]]: (1/4, 1/2, 1/4)), and the prisoner's dilemma's dominant defection.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyspiel
import pytest

import agents
import games  # noqa: F401
from mcts.smmcts import SMMCTSBot, round_information_only

EXAMPLES = Path(__file__).resolve().parent.parent / "games" / "ttt" / "examples"


def frequencies(game, seat, spec, seed=3):
    bot = agents.make_bot(spec, game, seat, seed)
    r = bot.search(game.new_initial_state())
    total = sum(v for _, v, _ in r["children"])
    return np.array([v / total for _, v, _ in r["children"]])


def matrix(name, rows):
    a = np.array(rows, dtype=float)
    labels = [str(i) for i in range(len(rows))]
    return pyspiel.create_matrix_game(name, name, labels, labels, a.tolist(), (-a).tolist())


@pytest.mark.parametrize(
    "game_string,k", [("matrix_mp", 2), ("matrix_rps", 3), ("ttt(rules=RockPaperScissors)", 3)]
)
def test_duct_visits_approach_the_uniform_equilibrium(game_string, k):
    """Matching pennies, OpenSpiel's RPS and the ttt catalogue's RockPaperScissors
    (a rule set played in one simultaneous round on a stack)."""
    game = pyspiel.load_game(game_string)
    for seat in (0, 1):
        f = frequencies(game, seat, "sm_mcts:simulations=4000")
        assert len(f) == k and np.abs(f - 1 / k).max() < 0.04, f


def test_regret_matching_finds_a_dominant_strategy_where_duct_does_not():
    """Not uniform by construction: in the prisoner's dilemma defection dominates.
    Regret matching's mean strategy defects. Decoupled UCT does not: the two
    seats' statistics are symmetric, so their deterministic UCB explores
    Defect at the same iterations, meets Defect and keeps cooperating (a
    measured weakness, kept here so a change to it is seen; Lisy et al. 2013
    give games where DUCT does not converge)."""
    game = pyspiel.load_game("matrix_pd")
    names = [game.new_initial_state().action_to_string(0, a) for a in range(2)]
    f = frequencies(game, 0, "sm_mcts:simulations=3000,selection=rm")
    assert f[names.index("Defect")] > 0.85, (names, f)
    f = frequencies(game, 0, "sm_mcts:simulations=3000")
    assert f[names.index("Cooperate")] > 0.85, (names, f)


def test_regret_matching_approaches_a_non_uniform_equilibrium():
    mp = matrix("biased_mp", [[2, -1], [-1, 1]])
    f = frequencies(mp, 0, "sm_mcts:simulations=10000,selection=rm")
    assert abs(f[0] - 0.4) < 0.04, f
    rps = matrix("biased_rps", [[0, -1, 2], [1, 0, -1], [-2, 1, 0]])
    f = frequencies(rps, 0, "sm_mcts:simulations=10000,selection=rm")
    assert np.abs(f - [0.25, 0.5, 0.25]).max() < 0.04, f


def test_mixed_decision_is_drawn_from_the_visits_and_reproducible():
    game = pyspiel.load_game("matrix_mp")
    moves = [
        agents.make_bot("sm_mcts:simulations=200", game, 0, seed).step(game.new_initial_state())
        for seed in range(40)
    ]
    assert set(moves) == {0, 1}  # mixed, not a fixed reply
    again = [
        agents.make_bot("sm_mcts:simulations=200", game, 0, seed).step(game.new_initial_state())
        for seed in range(40)
    ]
    assert moves == again


def test_sequential_decisions_win_tic_tac_toe():
    """Outside rounds it is UCT: X to move with two in a row takes the third."""
    game = pyspiel.load_game("tic_tac_toe")
    state = game.new_initial_state()
    for a in (0, 3, 1, 4):  # X: 0, 1; O: 3, 4
        state.apply_action(a)
    assert agents.make_bot("sm_mcts:simulations=500", game, 0, 1).step(state) == 2


def test_refuses_hidden_information_besides_the_rounds_plans():
    assert round_information_only(pyspiel.load_game("ttt(rules=RockPaperScissors)")) is None
    assert round_information_only(pyspiel.load_game("matrix_rps")) is None
    for game_string in (
        f"ttt(rules={EXAMPLES / 'Sim-Cloaked-Place-Then-Move.json'})",
        f"ttt(rules={EXAMPLES / 'Phantom-TTT-Corners.json'})",
        "kuhn_poker",
    ):
        game = pyspiel.load_game(game_string)
        assert round_information_only(game) is not None
        with pytest.raises(ValueError, match="use an ismcts bot"):
            SMMCTSBot(game, 0)
    with pytest.raises(ValueError, match="selection must be one of"):
        SMMCTSBot("matrix_rps", 0, selection="exp3")
    with pytest.raises(ValueError, match="has no option"):
        agents.make_bot("sm_mcts:simulatons=5", pyspiel.load_game("matrix_rps"), 0)

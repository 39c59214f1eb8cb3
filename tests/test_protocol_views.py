"""Who sees what: the protocol's per-player views, the adapter's observer and
GameType, the SIMULTANEOUS face, and OpenSpiel algorithms run through them.

The subjects are the synthetic games of solvers/testgames.py: Kuhn poker
(a hidden card each) and one-shot matrix games (one simultaneous round).
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

import games  # noqa: F401  (registers the toolkit's games)
import solvers.testgames as testgames  # registers the synthetic games
from games import openspiel as adapter
from games.openspiel import CoreGame, GameSpec, core_of, game_type

GT = pyspiel.GameType
PASS, BET = 0, 1
J, Q, K = 0, 1, 2


def kuhn(*history):
    state = pyspiel.load_game("solver_test_kuhn").new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def views(state, player):
    """Every view one player has of a state, in comparable form."""
    return (
        state.information_state_string(player),
        tuple(state.information_state_tensor(player)),
        state.observation_string(player),
        tuple(state.observation_tensor(player)),
        core_of(state).info_state_key(player),
    )


def kuhn_decision_states():
    """Every Kuhn state where a player decides, with its history."""
    found = []

    def walk(state, history):
        if state.is_terminal():
            return
        if not state.is_chance_node():
            found.append((tuple(history), state))
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        for a in actions:
            walk(state.child(a), history + [a])

    walk(kuhn(), [])
    return found


# -- (a) indistinguishable histories look the same, distinguishable ones do not


def test_kuhn_player_cannot_tell_the_opponents_card_but_the_opponent_can():
    jq, jk = kuhn(J, Q, PASS), kuhn(J, K, PASS)
    assert views(jq, 0) == views(jk, 0)  # player 0 holds J either way
    for a, b in zip(views(jq, 1), views(jk, 1), strict=True):  # player 1 holds Q in one, K in the other
        assert a != b


def test_kuhn_views_remember_the_bets():
    passed, bet = kuhn(J, Q, PASS), kuhn(J, Q, BET)
    for player in (0, 1):
        info_p, info_b = views(passed, player), views(bet, player)
        assert info_p[0] != info_b[0] and info_p[1] != info_b[1] and info_p[4] != info_b[4]


def test_kuhn_information_state_has_perfect_recall_where_the_observation_has_not():
    # bet-call and pass-bet-call leave the same pot: only recall tells them apart
    short, long = kuhn(J, Q, BET, BET), kuhn(J, Q, PASS, BET, BET)
    for player in (0, 1):
        assert short.observation_string(player) == long.observation_string(player)
        assert short.observation_tensor(player) == long.observation_tensor(player)
        assert short.information_state_string(player) != long.information_state_string(player)
        assert short.information_state_tensor(player) != long.information_state_tensor(player)


# -- (b) no view leaks the hidden card or choice


def test_no_kuhn_view_depends_on_the_other_players_card():
    by_view = {}
    for history, state in kuhn_decision_states():
        for player in (0, 1):
            own_card, bets = history[player], history[2:]
            key = (player, own_card, bets)
            by_view.setdefault(key, set()).add(views(state, player))
    assert len(by_view) == 2 * 3 * 4  # player, own card, bets before a decision
    assert all(len(v) == 1 for v in by_view.values())


def test_whole_state_only_for_an_onlooker_observer():
    state = kuhn(K, J)
    onlooker = pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
    )
    obs = state.get_game().make_py_observer(onlooker)
    assert "K" in obs.string_from(state, 0) and "J" in obs.string_from(state, 0)
    assert "J" not in state.observation_string(0) and "K" not in state.observation_string(1)
    public_only = pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    with pytest.raises(ValueError, match="provides these observation types"):
        state.get_game().make_py_observer(public_only)


def test_a_core_without_views_refuses_to_show_itself():
    core = testgames.viewless_core()
    assert not core.perfect_information
    for view in (
        core.observation_string,
        core.observation_tensor,
        core.information_state_string,
        core.info_state_key,
    ):
        with pytest.raises(NotImplementedError, match="does not override"):
            view(0)


def test_matrix_round_hides_the_first_choice_until_it_resolves():
    game = pyspiel.load_game("solver_test_matrix")
    heads, tails = core_of(game), core_of(game)
    heads.apply_action(0)
    tails.apply_action(1)
    for view in (
        "observation_string",
        "observation_tensor",
        "information_state_string",
        "information_state_tensor",
        "info_state_key",
    ):
        assert getattr(heads, view)(1) == getattr(tails, view)(1), view
        assert getattr(heads, view)(0) != getattr(tails, view)(0), view
    # through OpenSpiel's own turn-based form too
    tb = pyspiel.convert_to_turn_based(game)
    after = [tb.new_initial_state().child(a) for a in (0, 1)]
    assert after[0].information_state_string(1) == after[1].information_state_string(1)
    assert after[0].information_state_string(0) != after[1].information_state_string(0)


def test_views_check_the_player():
    core = core_of(pyspiel.load_game("solver_test_kuhn"))
    with pytest.raises(ValueError, match="player must be in 0..1"):
        core.information_state_string(2)
    with pytest.raises(ValueError, match="player must be in 0..1"):
        core.info_state_key(-1)


def test_perfect_information_views_default_to_the_whole_position():
    state = pyspiel.load_game("y_game(board_size=4)").new_initial_state()
    state.apply_action(3)
    core = core_of(state)
    assert core.perfect_information
    assert core.observation_string(1) == str(state) == state.observation_string(0)
    assert core.observation_tensor(0) == core.observation()
    assert core.info_state_key(0) == core.position_hash()
    assert state.information_state_string(0) == state.history_str()  # OpenSpiel's recall
    assert not state.get_game().get_type().provides_information_state_tensor


# -- (c) OpenSpiel's own consistency checks


@pytest.mark.parametrize(
    "name", ["solver_test_kuhn", "solver_test_matrix", "solver_test_matrix(game=dilemma)"]
)
def test_random_sim_test(name):
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=20, serialize=True, verbose=False)


# -- simultaneous face


def test_matrix_game_is_one_simultaneous_node():
    game = pyspiel.load_game("solver_test_matrix(game=dilemma)")
    state = game.new_initial_state()
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS == adapter.SIMULTANEOUS
    assert state.legal_actions(0) == state.legal_actions(1) == [0, 1]
    with pytest.raises(ValueError, match="illegal action 5 for player 1"):
        state.apply_actions([0, 5])
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS  # untouched
    state.apply_actions([1, 0])  # defect against cooperate
    assert state.is_terminal() and state.returns() == [5.0, 0.0]


def test_flat_joint_actions_mean_what_they_mean_in_openspiel():
    ours = pyspiel.load_game("solver_test_matrix(game=dilemma)").new_initial_state()
    theirs = pyspiel.load_game("matrix_pd").new_initial_state()  # other payoffs, same order
    assert ours.legal_actions() == theirs.legal_actions() == [0, 1, 2, 3]
    for flat in range(4):
        a, b = ours.child(flat).returns(), theirs.child(flat).returns()
        assert np.sign(a[0] - a[1]) == np.sign(b[0] - b[1])  # who got the better deal
    assert [str(ours.child(flat)) for flat in range(4)] == [
        "Cooperate Cooperate",
        "Defect Cooperate",
        "Cooperate Defect",
        "Defect Defect",
    ]
    with pytest.raises(ValueError, match="flat joint action 4 is out of range"):
        ours.apply_action(4)


def test_core_keeps_the_round_as_consecutive_decisions():
    core = core_of(pyspiel.load_game("solver_test_matrix"))
    assert core.simultaneous_player_list() == [0, 1] and core.player() == 0
    assert core.player_legal_action_list(1) == [0, 1]
    core.apply_action(0)
    assert core.simultaneous_player_list() == [1] and core.player() == 1
    assert core.player_legal_action_list(0) == []
    with pytest.raises(ValueError, match="needs a simultaneous node"):
        core_of(pyspiel.load_game("solver_test_kuhn")).apply_joint_action([0, 0])


def test_named_player_constants_match_openspiel():
    assert (adapter.CHANCE, adapter.TERMINAL, adapter.SIMULTANEOUS) == (
        pyspiel.PlayerId.CHANCE,
        pyspiel.PlayerId.TERMINAL,
        pyspiel.PlayerId.SIMULTANEOUS,
    )


# -- (d) OpenSpiel algorithms give the textbook answers


def test_cfr_on_our_kuhn_matches_openspiel_kuhn_and_its_value():
    ours, theirs = pyspiel.load_game("solver_test_kuhn"), pyspiel.load_game("kuhn_poker")
    solvers = [pyspiel.CFRSolver(ours), pyspiel.CFRSolver(theirs)]
    for _ in range(200):
        for s in solvers:
            s.evaluate_and_update_policy()
    ours_expl = pyspiel.exploitability(ours, solvers[0].average_policy())
    theirs_expl = pyspiel.exploitability(theirs, solvers[1].average_policy())
    assert ours_expl == pytest.approx(theirs_expl, abs=1e-9) and ours_expl < 0.01
    py = cfr.CFRSolver(ours)
    for _ in range(200):
        py.evaluate_and_update_policy()
    avg = py.average_policy()
    value = expected_game_score.policy_value(ours.new_initial_state(), [avg, avg])[0]
    assert value == pytest.approx(-1 / 18, abs=0.01)


def test_cfr_on_turn_based_matching_pennies_and_dilemma():
    pennies = pyspiel.convert_to_turn_based(pyspiel.load_game("solver_test_matrix"))
    solver = cfr.CFRSolver(pennies)
    for _ in range(50):
        solver.evaluate_and_update_policy()
    avg = solver.average_policy()
    assert exploitability.exploitability(pennies, avg) < 1e-6
    np.testing.assert_allclose(avg.action_probability_array, 0.5)
    dilemma = pyspiel.convert_to_turn_based(pyspiel.load_game("solver_test_matrix(game=dilemma)"))
    solver = cfr.CFRSolver(dilemma)
    for _ in range(200):
        solver.evaluate_and_update_policy()
    avg = solver.average_policy()
    np.testing.assert_array_less(0.95, avg.action_probability_array[:, 1])  # both defect


# -- (e) the GameType tells the truth per loaded game


def test_game_types():
    kuhn_type = pyspiel.load_game("solver_test_kuhn").get_type()
    assert (kuhn_type.dynamics, kuhn_type.information, kuhn_type.chance_mode) == (
        GT.Dynamics.SEQUENTIAL,
        GT.Information.IMPERFECT_INFORMATION,
        GT.ChanceMode.EXPLICIT_STOCHASTIC,
    )
    assert kuhn_type.provides_information_state_tensor
    pennies = pyspiel.load_game("solver_test_matrix")
    dilemma = pyspiel.load_game("solver_test_matrix(game=dilemma)")
    for g in (pennies, dilemma):
        assert g.get_type().dynamics == GT.Dynamics.SIMULTANEOUS
        assert g.get_type().information == GT.Information.IMPERFECT_INFORMATION
        assert g.get_type().chance_mode == GT.ChanceMode.DETERMINISTIC
    assert pennies.get_type().utility == GT.Utility.ZERO_SUM and pennies.utility_sum() == 0
    assert dilemma.get_type().utility == GT.Utility.GENERAL_SUM
    assert (dilemma.min_utility(), dilemma.max_utility()) == (0.0, 5.0)
    registered = {t.short_name: t for t in pyspiel.registered_games()}["solver_test_matrix"]
    assert registered.utility == GT.Utility.GENERAL_SUM  # weakest claim over variants
    y = pyspiel.load_game("y_game(board_size=4)").get_type()
    assert (y.dynamics, y.information) == (GT.Dynamics.SEQUENTIAL, GT.Information.PERFECT_INFORMATION)


def test_ttt_rule_sets_carry_their_own_type():
    two = pyspiel.load_game("ttt(rules=Tic-Tac-Toe)")
    assert two.get_type().utility == GT.Utility.ZERO_SUM and two.num_players() == 2
    assert two.get_type().min_num_players == two.get_type().max_num_players == 2
    assert two.get_type().information == GT.Information.PERFECT_INFORMATION
    with pytest.raises(ValueError, match="catalogue name or a path"):
        type(two)({"rules": 3})


def test_a_variant_stronger_than_its_registered_claim_is_refused():
    class Overclaiming(CoreGame):
        SPEC = GameSpec(
            game_type=game_type("overclaiming", "claims perfect information", {}),
            make_core=lambda params: testgames.viewless_core(),
        )

    with pytest.raises(
        ValueError,
        match="stronger claim than this variant satisfies "
        r"\(information",
    ):
        Overclaiming()


def test_one_answer_to_is_this_ours():
    ours = pyspiel.load_game("solver_test_kuhn")
    theirs = pyspiel.load_game("kuhn_poker")
    assert adapter.is_core_game(ours) and not adapter.is_core_game(theirs)
    assert adapter.is_core_state(ours.new_initial_state())
    assert not adapter.is_core_state(theirs.new_initial_state())
    state = kuhn(J, Q)
    core = core_of(state)
    core.apply_action(BET)
    assert state.history() == [J, Q]  # a clone: the state is untouched
    with pytest.raises(ValueError, match="not one of this toolkit's Cython games"):
        core_of(theirs.new_initial_state())

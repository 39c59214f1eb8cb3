"""Two pieces a turn planned together in simultaneous and single rounds
(docs/rules/ttt/rounds.md, "Two pieces a turn"): every seat picks its first
ply, then its second ply on the starting board as its own first ply leaves
it; the first plies resolve as one round, then the second plies, and a
second ply the first round made impossible is lost (it moves nothing).
The engine against the reference model on random rule sets, hand-made
rounds, the views and validation."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games  # noqa: F401  (registers ttt)
from games.ttt import make_core, rules
from games.ttt.rules import RuleSetError
from tiers import sweep
from ttt_checks import parsed_or_rejected, play_against_reference, random_sim_test_of, rule_set, same_pieces
from ttt_records import rule_records
from ttt_round_records import move_round_records

ROUND = {
    "board": {"kind": "squares", "size": [3, 3, 1]},
    "reserves": {"black": 4, "white": 4},
    "pieces_per_turn": 2,
    "phases": [{"order": "simultaneous"}],
}


def planned_set(**fields):
    return rule_set("P", ROUND, **fields)


def place(x, y):
    """The placement id of the seat's colour on (x, y, 1) (a 3x3 board: one target a space)."""
    return (y - 1) * 3 + (x - 1)


# -- against the reference model ----------------------------------------------------------


@settings(max_examples=sweep(full=60, quick=6), deadline=None, suppress_health_check=list(HealthCheck))
@given(
    rule_records(),
    st.lists(st.sampled_from(["sequential", "simultaneous", "single"]), min_size=3, max_size=3),
    st.integers(0, 10**6),
)
def test_random_rule_sets_with_two_plies_planned_together_match_reference(rec, orders, seed):
    for ph, order in zip(rec["phases"], orders, strict=False):  # up to 3 phases, 3 orders
        ph["order"] = order
    if all(ph["order"] == "sequential" for ph in rec["phases"]):
        rec["phases"][0]["order"] = "simultaneous"
    rec["pieces_per_turn"] = 2
    rec.pop("round_plies", None)  # the default: planned together
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=3, seed=seed)


@settings(max_examples=sweep(full=60, quick=6), deadline=None, suppress_health_check=list(HealthCheck))
@given(move_round_records(), st.integers(0, 10**6))
def test_random_moving_rounds_with_two_plies_planned_together_match_reference(rec, seed):
    rec["pieces_per_turn"] = 2
    rec.pop("round_plies", None)
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=3, seed=seed, check=same_pieces)


def test_the_example_plays_as_the_reference_and_passes_openspiels_random_sim_test(tmp_path):
    rs = rules.resolve("games/ttt/examples/Two-Piece-Plans.json")
    assert "round_plies" not in rs.record and make_core(rs).num_actions == 17  # one ply an action
    play_against_reference(rs, games=sweep(full=40, quick=4), seed=2)
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=5, quick=1))


@pytest.mark.slow
def test_two_plies_planned_together_match_reference_long():
    rs = planned_set(
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": 5, "white": 5, "pink": 5},
        players="3",
        phases=[{"order": "single"}, {"order": "simultaneous", "pass": True}, {}],
    )
    play_against_reference(rs, games=400, seed=5)


# -- hand-made rounds ----------------------------------------------------------------------


def test_the_second_ply_is_planned_on_the_board_the_seats_own_first_ply_leaves():
    core = make_core(planned_set(turn_checks=[]))
    assert core.pieces_left_in_turn() == 2
    core.apply_joint_action([place(1, 1), place(2, 2)])
    assert not any(core.cells())  # nothing resolved yet
    assert core.pieces_left_in_turn() == 1
    assert core.simultaneous_player_list() == [0, 1]
    black, white = core.player_legal_action_list(0), core.player_legal_action_list(1)
    assert place(1, 1) not in black and place(2, 2) in black  # its own, not the other's
    assert place(2, 2) not in white and place(1, 1) in white


def test_a_second_ply_the_first_round_made_impossible_is_lost():
    core = make_core(planned_set(turn_checks=[], stalemate="most-pieces-wins"))
    # black: (1,1) then (2,2); white: (2,2) then (3,3); white's first takes black's second
    core.apply_joint_action([place(1, 1), place(2, 2)])
    core.apply_joint_action([place(2, 2), place(3, 3)])
    assert core.pieces_left_in_turn() == 2  # the next turn
    assert core.reserves() == {"black": 3, "white": 2}  # the lost ply spent nothing
    assert core.cells() == [1, 0, 0, 0, 2, 0, 0, 0, 2]
    core = make_core(planned_set(turn_checks=[], stalemate="most-pieces-wins"))
    core.apply_joint_action([place(1, 1), place(1, 1)])
    core.apply_joint_action([place(1, 2), place(3, 3)])
    # both first plies go to (1,1) and are destroyed; both second plies land
    assert core.reserves() == {"black": 2, "white": 2}
    assert core.cells() == [0, 0, 0, 1, 0, 0, 0, 0, 2]


def test_every_ply_passing_is_a_stalemate_and_a_first_pass_alone_is_not():
    rs = planned_set(
        turn_checks=[],
        stalemate="most-pieces-wins",
        phases=[{"order": "simultaneous", "pass": True}, {"order": "simultaneous", "pass": True}],
    )
    pas = make_core(rs).num_actions - 1
    core = make_core(rs)
    core.apply_joint_action([pas, pas])
    core.apply_joint_action([place(1, 1), pas])
    assert core.current_phase() == 0 and core.reserves() == {"black": 3, "white": 4}
    core.apply_joint_action([pas, pas])
    core.apply_joint_action([pas, pas])
    assert core.current_phase() == 1  # every ply of the turn passed: the phase ends


# -- what each seat sees -------------------------------------------------------------------


def views_of(core, p):
    return (
        core.information_state_string(p),
        np.asarray(core.information_state_tensor(p)).tobytes(),
        core.observation_string(p),
        np.asarray(core.observation_tensor(p)).tobytes(),
        core.info_state_key(p),
    )


def test_a_seat_sees_only_its_own_plies_until_the_pair_resolves():
    """Two histories that differ only in the other seat's first and second
    plies give the viewer byte-identical information states and observations."""
    rs = planned_set(turn_checks=[])
    black_sees, white_sees = [], []
    for white in (place(2, 2), place(3, 1)):  # black cannot tell white's first plies apart
        core = make_core(rs)
        core.apply_joint_action([place(1, 1), white])
        before = views_of(core, 0)
        core.apply_action(place(2, 1))  # black's second ply; white still to plan its own
        black_sees.append((before, views_of(core, 0)))
    assert black_sees[0] == black_sees[1]
    for black in ((place(1, 1), place(2, 1)), (place(3, 3), place(1, 3))):  # nor white black's
        core = make_core(rs)
        core.apply_joint_action([black[0], place(2, 2)])
        core.apply_action(black[1])
        assert core.simultaneous_player_list() == [1]
        white_sees.append(views_of(core, 1))
    assert white_sees[0] == white_sees[1]
    core = make_core(rs)
    core.apply_joint_action([place(1, 1), place(2, 2)])
    assert "own first ply" in core.observation_string(0)
    other = make_core(rs)
    other.apply_joint_action([place(1, 2), place(2, 2)])
    assert core.information_state_string(0) != other.information_state_string(0)  # its own ply shows
    assert core.observation_tensor(0) != other.observation_tensor(0)


# -- validation ----------------------------------------------------------------------------


def test_planned_together_is_the_default_and_stays_out_of_the_record():
    assert "round_plies" not in planned_set().record
    assert planned_set(round_plies="round-by-round").record["round_plies"] == "round-by-round"
    with pytest.raises(RuleSetError) as e:
        planned_set(round_plies="both")
    assert any(
        m.startswith("round_plies") and "planned-together, round-by-round" in m for m in e.value.problems
    )


def test_planned_together_is_not_built_with_cloaked_spaces():
    with pytest.raises(RuleSetError) as e:
        planned_set(cloaking="hides", phases=[{"order": "simultaneous", "cloaked": [[1, 1, 1]]}])
    assert any(
        m.startswith("round_plies") and "cloaked spaces" in m and "round-by-round" in m
        for m in e.value.problems
    )
    rs = planned_set(
        cloaking="hides",
        round_plies="round-by-round",
        phases=[{"order": "simultaneous", "cloaked": [[1, 1, 1]]}],
    )
    assert rs.record["round_plies"] == "round-by-round"

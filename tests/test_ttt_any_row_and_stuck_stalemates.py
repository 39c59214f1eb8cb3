"""The stalemate rules "Any K-same-color-in-a-row wins" and "Stalemate loses"
/ "Stalemate wins" (docs/rules/ttt/outcomes.md): hand-built endings with
hand-counted answers, every other kind of stalemate drawing under the
latter, several boards, the GameType claim, validation and the Factory, the
examples, and agreement with the reference model on random rule sets."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ttt import make_core, rules
from games.ttt.compiler import outcome_profile
from games.ttt.schema import ANY_ROW_STALEMATES, STUCK_STALEMATES
from tiers import sweep
from ttt_checks import (
    parsed_or_rejected,
    piece,
    play_against_reference,
    problems,
    random_sim_test_of,
    rule_set,
)
from ttt_records import outcome_records, rule_records

NO_PASS = {
    "reserves": {"black": {}, "white": {}, "pink": {}},
    "move_limit": 20,
    "phases": [{}],
    "turn_checks": [],
}


def ended(pieces, stalemate, players="3", size=(4, 4, 1), **fields):
    """The core of a position whose first seat has no move and no pass:
    stationary pieces, empty reserves, so the game is over at once."""
    base = dict(NO_PASS, players=players)
    if players == "2":
        base["reserves"] = {"black": {}, "white": {}}
    rs = rule_set(
        "pos", base, kind="squares", size=list(size), pieces=list(pieces), stalemate=stalemate, **fields
    )
    return make_core(rs)


ROW = [(1, 1, 1), (2, 1, 1), (3, 1, 1)]


def test_every_side_with_a_line_wins():
    black = [piece(at, "black") for at in ROW]
    pink = [piece((x, 3, 1), "pink") for x in (2, 3, 4)]
    white = [piece((1, 4, 1), "white"), piece((2, 4, 1), "white")]
    core = ended(black + pink + white, "any-3-in-a-row-wins")
    assert core.terminal()
    assert core.side_scores() == [1, 0, 1]  # 3-windows: black 1, white 0, pink 1
    assert core.returns_list() == [1.0, -1.0, 1.0]


def test_longer_lines_hold_a_shorter_one_and_no_line_draws():
    four = [piece((x, 2, 1), "white") for x in (1, 2, 3, 4)]
    core = ended(four + [piece((1, 4, 1), "black")], "any-4-in-a-row-wins")
    assert core.returns_list() == [-1.0, 1.0, -1.0]
    core = ended(four + [piece((1, 4, 1), "black")], "any-3-in-a-row-wins")
    assert core.side_scores() == [0, 2, 0]
    assert core.returns_list() == [-1.0, 1.0, -1.0]
    core = ended([piece((1, 1, 1), "black"), piece((3, 3, 1), "white")], "any-2-in-a-row-wins")
    assert core.returns_list() == [0.0, 0.0, 0.0]


def test_every_side_with_a_line_makes_everyone_win():
    pieces = [piece(at, "black") for at in ROW] + [piece((x, 3, 1), "white") for x in (1, 2, 3)]
    core = ended(pieces, "any-3-in-a-row-wins", players="2")
    assert core.returns_list() == [1.0, 1.0]
    assert not outcome_profile(core_rs("any-3-in-a-row-wins"))["zero_sum"]


def core_rs(stalemate):
    return rule_set(
        "z",
        {"reserves": {"black": 1, "white": 1}, "board": {"kind": "hash", "size": [3, 3, 1]}},
        stalemate=stalemate,
    )


def test_stalemate_loses_and_wins_score_the_seat_without_a_move():
    pieces = [piece((1, 1, 1), "black"), piece((4, 4, 1), "white")]
    assert ended(pieces, "stalemate-loses").returns_list() == [-1.0, 1.0, 1.0]
    assert ended(pieces, "stalemate-wins").returns_list() == [1.0, -1.0, -1.0]
    assert ended(pieces, "stalemate-loses", players="2").returns_list() == [-1.0, 1.0]
    assert outcome_profile(core_rs("stalemate-loses"))["zero_sum"]


def test_the_seat_left_without_a_move_is_scored():
    """Black, white, black place; white, with nothing left in reserve, is the
    seat without a move: it loses under "Stalemate loses", wins under
    "Stalemate wins"."""
    for stalemate, returns in (("stalemate-loses", [1.0, -1.0]), ("stalemate-wins", [-1.0, 1.0])):
        rs = rule_set(
            "blocked",
            board={"kind": "squares", "size": [3, 2, 1]},
            reserves={"black": 2, "white": 1},
            turn_checks=[],
            stalemate=stalemate,
        )
        core = make_core(rs)
        for t in (0, 1, 2):
            assert not core.terminal()
            core.apply_action(t)
        assert core.terminal() and core.returns_list() == returns


def test_stalemates_with_no_seat_stuck_draw():
    # every seat passed
    pieces = [piece((1, 1, 1), "black"), piece((4, 4, 1), "white")]
    base = dict(NO_PASS, phases=[{"pass": True}])
    rs = rule_set(
        "passes",
        base,
        players="3",
        kind="squares",
        size=[4, 4, 1],
        pieces=pieces,
        stalemate="stalemate-loses",
    )
    core = make_core(rs)
    for _ in range(3):
        core.apply_action(core.legal_action_list()[-1])
    assert core.terminal() and core.returns_list() == [0.0, 0.0, 0.0]
    # the move limit
    rs = rule_set(
        "limit",
        reserves={"black": 2, "white": 2},
        board={"kind": "squares", "size": [3, 3, 1]},
        shapes={"circle": {"move": "adjacent"}},
        turn_checks=[],
        stalemate="stalemate-wins",
        move_limit=5,
    )
    core = make_core(rs)
    while not core.terminal():
        core.apply_action(core.legal_action_list()[0])
    assert core.returns_list() == [0.0, 0.0]


def test_an_earlier_phase_stalemate_only_advances_the_phase():
    pieces = [piece((1, 1, 1), "black"), piece((4, 4, 1), "white")]
    base = dict(NO_PASS, reserves={"black": {"circle": 1}, "white": {}, "pink": {}})
    rs = rule_set(
        "phases",
        base,
        players="3",
        kind="squares",
        size=[4, 4, 1],
        pieces=pieces,
        stalemate="stalemate-loses",
        phases=[{"locked_players": [1]}, {}],
    )
    core = make_core(rs)
    # black is locked in phase 1 and white has no move: the phase advances
    assert core.current_phase() == 1 and not core.terminal()
    core.apply_action(core.legal_action_list()[0])  # black places in phase 2
    assert core.terminal()
    assert core.returns_list() == [1.0, -1.0, 1.0]  # then white had no move


def test_several_boards_the_stuck_seat_loses_every_open_board():
    pieces = [piece((1, 1, 1), "black"), piece((3, 3, 1), "white")]
    core = ended(pieces, "stalemate-loses", players="2", size=(3, 3, 1), boards=2)
    assert core.terminal()
    assert core.board_results() == [[-1, 1], [-1, 1]]
    assert core.returns_list() == [-1.0, 1.0]


def test_validation_and_factory_name_the_rules():
    found = problems("bad", reserves={"black": 1, "white": 1}, stalemate="any-7-in-a-row-wins")
    assert any("any-3-in-a-row-wins" in p and "stalemate-loses" in p and "stalemate-wins" in p for p in found)
    from webapp.factory_form import choices, option_label

    for name in ANY_ROW_STALEMATES + STUCK_STALEMATES:
        assert name in choices()["stalemates"]
    assert option_label("stalemate", "any-3-in-a-row-wins") == "Any 3-same-color-in-a-row wins"
    assert option_label("stalemate", "stalemate-loses") == "Stalemate loses"
    assert option_label("stalemate", "stalemate-wins") == "Stalemate wins"


@pytest.mark.parametrize("name", ["Achi-Blocked-Loses", "Any-Three-Wins"])
def test_examples_play_as_the_reference(name, tmp_path):
    rs = rules.resolve(f"games/ttt/examples/{name}.json")
    play_against_reference(rs, games=sweep(full=20, quick=3), seed=11)
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=5, quick=1))


@settings(max_examples=sweep(full=80, quick=8), deadline=None, suppress_health_check=list(HealthCheck))
@given(outcome_records(), st.sampled_from(ANY_ROW_STALEMATES + STUCK_STALEMATES), st.integers(0, 10**6))
def test_random_rule_sets_match_reference(rec, stalemate, seed):
    """Random rule sets (phases, passes, Chaos, overachievers, thresholds,
    rounds) under the new rules: move by move and ending by ending the
    reference model's."""
    rec["stalemate"] = stalemate
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=4, seed=seed)


@settings(max_examples=sweep(full=40, quick=5), deadline=None, suppress_health_check=list(HealthCheck))
@given(
    rule_records(),
    st.sampled_from(ANY_ROW_STALEMATES + STUCK_STALEMATES),
    st.integers(2, 3),
    st.integers(0, 10**6),
)
def test_random_rule_sets_on_several_boards_match_reference(rec, stalemate, boards, seed):
    rec["stalemate"] = stalemate
    rec["boards"] = boards
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=3, seed=seed)


@settings(max_examples=sweep(full=40, quick=5), deadline=None, suppress_health_check=list(HealthCheck))
@given(
    rule_records(),
    st.sampled_from(ANY_ROW_STALEMATES + STUCK_STALEMATES),
    st.lists(st.sampled_from(["sequential", "simultaneous", "single"]), min_size=3, max_size=3),
    st.integers(0, 10**6),
)
def test_random_rule_sets_with_rounds_match_reference(rec, stalemate, orders, seed):
    """In simultaneous and single phases too (a round's stalemate leaves no
    seat stuck, so "Stalemate loses/wins" draw it)."""
    rec["stalemate"] = stalemate
    rec["pieces_per_turn"] = 1
    for ph, order in zip(rec["phases"], orders, strict=False):
        ph["order"] = order
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=3, seed=seed)

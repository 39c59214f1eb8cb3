"""Stacks: pieces fall to the lowest empty space; moves "by stack" (the
mover carries every piece above it) and "by full stack" (only from the
bottom, carrying the whole stack), on the rules page's "Stacks" section.

The engine is compared move by move with the reference model
(tests/ttt_reference/) on small rule sets, one per rule and interaction,
and on Hypothesis-drawn stack rule sets (piece counts conserved, no piece
floats, no stack over its height); every test rule set also goes through
``pyspiel.random_sim_test`` with serialisation. Also the engine's per-stack
poker hand (own and communal pieces, chips left out); the poker rank itself
is test_ttt_pots.py's, stacks with cloaked spaces test_ttt_cloaking.py's."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ttt import make_core, poker, rules
from games.ttt.rules import RuleSetError
from tiers import sweep
from ttt_checks import (
    assert_is_legal_agrees_with_legal_actions,
    by_stack_moves,
    legal_by_string,
    parsed_or_rejected,
    piece,
    play,
    play_against_reference,
    random_sim_test_of,
    rule_set,
    same_pieces,
    same_pieces_conserved,
    stack_column,
)
from ttt_records import stack_records
from ttt_reference import ReferenceState


def cases():
    out = []
    add = lambda name, size, **kw: out.append(rule_set(name, kind="stacks", size=size, **kw))
    add(
        "carry-2x1x3",
        [2, 1, 3],
        reserves={"black": {"x": 2}, "white": {"x": 2}},
        shapes={"x": {"move": "orth-by-stack"}},
        move_limit=30,
        turn_checks=["first-3-wins"],
    )
    add(
        "carry-3x1x4",
        [3, 1, 4],
        reserves={"black": {"x": 3, "circle": 1}, "white": {"x": 3, "circle": 1}},
        shapes={"x": {"move": "orth-by-stack"}, "circle": {"move": "adjacent"}},
        move_limit=40,
        turn_checks=["first-4-wins"],
    )
    add(
        "carry-2x2x3",
        [2, 2, 3],
        reserves={"black": {"star": 3, "triangle": 2}, "white": {"star": 3, "triangle": 2}},
        shapes={"star": {"move": "orth-by-stack"}, "triangle": {}},
        move_limit=40,
        turn_checks=["first-3-wins"],
    )
    add(
        "full-stack-3x1x4",
        [3, 1, 4],
        reserves={"black": {"pentagon": 2, "circle": 2}, "white": {"pentagon": 2, "circle": 2}},
        shapes={"pentagon": {"move": "orth-by-full-stack"}, "circle": {"move": "orth-by-stack"}},
        move_limit=40,
        turn_checks=["first-4-wins"],
    )
    # pre-placed stacks (communal yellow among them), a locked floor cell, a 4x1 line
    add(
        "preplaced-4x1x4",
        [4, 1, 4],
        reserves={"black": {"cross": 2}, "white": {"cross": 2}},
        pieces=[
            {"at": [1, 1, 1], "colour": "yellow", "shape": "circle"},
            {"at": [1, 1, 2], "colour": "black", "shape": "cross"},
            {"at": [1, 1, 3], "colour": "white", "shape": "circle"},
            {"at": [3, 1, 2], "colour": "white", "shape": "cross"},
        ],
        locked=[[3, 1, 1]],
        shapes={"cross": {"move": "orth-by-stack"}, "circle": {"move": "orth-by-full-stack"}},
        move_limit=30,
        turn_checks=["first-3-wins"],
        stalemate="most-pieces-wins",
    )
    # locks: exit-locked and sticky cells hold carried pieces back; phase locks; entry locks at landing
    add(
        "locks-3x2x3",
        [3, 2, 3],
        reserves={"black": {"x": 3}, "white": {"x": 3}},
        sticky=[[2, 1, 2]],
        exit_locked=[{"at": [[1, 2]], "players": [1]}],
        entry_locked=[{"at": [[3, 1, 3]], "players": [2]}],
        shapes={"x": {"move": "orth-by-stack"}},
        move_limit=40,
        turn_checks=[],
        phases=[{"pass": True, "locked": [[3, 2, 2]]}, {"pass": True}],
        stalemate="most-pieces-wins",
    )
    add(
        "exclusive-2x2x3",
        [2, 2, 3],
        reserves={"black": {"cross": 3}, "white": {"cross": 3}},
        exclusive=[{"at": [[1, 1]], "players": [1]}],
        shapes={"cross": {"move": "orth-by-full-stack"}},
        move_limit=30,
        turn_checks=["first-3-wins"],
    )
    # cannot move backwards: the mover's shape decides, with replacement at the goal
    add(
        "no-back-3x3x3",
        [3, 3, 3],
        reserves={"black": {"triangle": 2, "star": 1}, "white": {"triangle": 2, "star": 1}},
        shapes={
            "triangle": {"move": "orth-by-stack", "cannot_move_backwards": True},
            "star": {"move": "orth-by-stack"},
        },
        move_limit=40,
        turn_checks=["goal-reached-stalemate"],
    )
    # several boards, three players, players choose colours
    add(
        "boards-2x1x3",
        [2, 1, 3],
        boards=2,
        reserves={"black": {"x": 3}, "white": {"x": 3}},
        shapes={"x": {"move": "orth-by-stack"}},
        move_limit=40,
        turn_checks=["first-2-wins"],
    )
    add(
        "three-3x1x3",
        [3, 1, 3],
        players="3",
        reserves={c: {"x": 2} for c in ("black", "white", "pink")},
        shapes={"x": {"move": "orth-by-full-stack"}},
        move_limit=40,
        turn_checks=["first-3-wins"],
    )
    add(
        "choose-2x1x4",
        [2, 1, 4],
        colours="players-choose",
        reserves={"black": {"x": 2}, "pink": {"x": 2}},
        shapes={"x": {"move": "orth-by-stack"}},
        move_limit=30,
        turn_checks=["first-3-loses"],
        agree_draw=True,
    )
    return out


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_stack_rule_sets_match_reference(rs):
    played = play_against_reference(
        rs, games=sweep(full=25, quick=8), seed=sum(map(ord, rs.name)), check=same_pieces
    )
    moved = by_stack_moves(rs, played)
    assert moved > 0, "no by-stack move was played: the rule set does not exercise its rule"


@pytest.mark.slow
@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_stack_rule_sets_match_reference_long(rs):
    play_against_reference(rs, games=400, seed=7, check=same_pieces)


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=8, quick=1))


@pytest.mark.parametrize("name", ["carry-3x1x4", "full-stack-3x1x4", "locks-3x2x3", "no-back-3x3x3"])
def test_is_legal_agrees_with_legal_actions(name):
    rs = [r for r in cases() if r.name == name][0]
    assert_is_legal_agrees_with_legal_actions(rs, games=sweep(full=3, quick=2), seed=3)


# -- the rules one by one, on hand-made positions ------------------------------------


def test_by_stack_mover_carries_everything_above_it_in_order():
    rs = rule_set(
        "carry",
        kind="stacks",
        size=[3, 1, 3],
        reserves={"black": {"circle": 1}, "white": {"circle": 1}},
        pieces=[
            piece([1, 1, 1], "black", "x"),
            piece([1, 1, 2], "white", "circle"),
            piece([1, 1, 3], "black", "circle"),
        ],
        shapes={"x": {"move": "orth-by-stack"}, "circle": {}},
        move_limit=9,
        turn_checks=[],
    )
    core = make_core(rs)
    moves = legal_by_string(core)
    assert "stack(1,1)@1->stack(2,1)" in moves and "stack(1,1)@1->stack(3,1)" in moves
    assert not any(
        m.startswith("stack(1,1)@2") or m.startswith("stack(1,1)@3") for m in moves
    )  # circles stay
    core.apply_action(moves["stack(1,1)@1->stack(3,1)"])
    assert stack_column(core, 1) == []
    assert stack_column(core, 3) == [("black", "x"), ("white", "circle"), ("black", "circle")]


def test_destination_must_have_room_for_every_carriedpiece():
    rs = rule_set(
        "room",
        kind="stacks",
        size=[3, 1, 3],
        reserves={"black": {"circle": 1}, "white": {"circle": 1}},
        pieces=[
            piece([1, 1, 1], "white", "circle"),
            piece([1, 1, 2], "black", "x"),
            piece([1, 1, 3], "white", "circle"),
            piece([2, 1, 1], "white", "circle"),
            piece([3, 1, 1], "white", "circle"),
            piece([3, 1, 2], "white", "circle"),
        ],
        shapes={"x": {"move": "orth-by-stack"}, "circle": {}},
        move_limit=9,
        turn_checks=[],
    )
    moves = legal_by_string(make_core(rs))
    # two pieces travel (the x and the circle on it): stack 2 has two free cells, stack 3 one
    assert "stack(1,1)@2->stack(2,1)" in moves and "stack(1,1)@2->stack(3,1)" not in moves


def test_full_stack_mover_moves_only_from_the_bottom():
    rs = rule_set(
        "full",
        kind="stacks",
        size=[2, 2, 3],
        reserves={"black": {"circle": 1}, "white": {"circle": 1}},
        pieces=[
            piece([1, 1, 1], "black", "pentagon"),
            piece([1, 1, 2], "white", "circle"),
            piece([2, 1, 1], "white", "circle"),
            piece([2, 1, 2], "black", "pentagon"),
        ],
        shapes={"pentagon": {"move": "orth-by-full-stack"}, "circle": {}},
        move_limit=9,
        turn_checks=[],
    )
    moves = legal_by_string(make_core(rs))
    stack_moves = sorted(m for m in moves if "@" in m.split("->")[0] and "->" in m)
    # the bottom pentagon goes to (1,2) (orthogonal, empty) and (2,1) has no room for two on top of two;
    # the pentagon on top of a circle may not move; (2,2) is diagonal
    assert stack_moves == ["stack(1,1)@1->stack(1,2)"]


def test_locked_carried_pieces_hold_the_move_back():
    pieces = [piece([1, 1, 1], "black", "x"), piece([1, 1, 2], "white", "circle")]
    base = dict(
        reserves={"black": {"circle": 1}, "white": {"circle": 1}},
        pieces=pieces,
        shapes={"x": {"move": "orth-by-stack"}, "circle": {}},
        move_limit=9,
        turn_checks=[],
    )
    assert "stack(1,1)@1->stack(2,1)" in legal_by_string(
        make_core(rule_set("free", kind="stacks", size=[2, 1, 3], **base))
    )
    for name, extra in [
        ("exit", {"exit_locked": [{"at": [[1, 1, 2]], "players": [1]}]}),
        ("sticky", {"sticky": [[1, 1, 2]]}),
        ("phase", {"phases": [{"locked": [[1, 1, 2]]}]}),
    ]:
        assert "stack(1,1)@1->stack(2,1)" not in legal_by_string(
            make_core(rule_set(name, kind="stacks", size=[2, 1, 3], **base, **extra))
        ), name
    # every landing cell must be open to the mover: an entry lock on the second one refuses the move
    entry = rule_set(
        "entry", kind="stacks", size=[2, 1, 3], **base, entry_locked=[{"at": [[2, 1, 2]], "players": [1]}]
    )
    assert "stack(1,1)@1->stack(2,1)" not in legal_by_string(make_core(entry))


def test_reserve_rule_looks_at_the_mover_only():
    pieces = [piece([1, 1, 1], "black", "x"), piece([1, 1, 2], "black", "circle")]
    rs = rule_set(
        "res",
        kind="stacks",
        size=[2, 1, 3],
        reserves={"black": {"circle": 1}, "white": {"circle": 1}},
        pieces=pieces,
        shapes={"x": {"move": "orth-by-stack"}, "circle": {"move": "orth-by-stack"}},
        move_limit=9,
        turn_checks=[],
    )
    moves = legal_by_string(make_core(rs))
    # black still holds a circle: its circle may not move by itself, but rides along with the x
    assert "stack(1,1)@1->stack(2,1)" in moves and "stack(1,1)@2->stack(2,1)" not in moves
    rs = rule_set(
        "res2",
        kind="stacks",
        size=[2, 1, 3],
        reserves={"black": {"x": 1}, "white": {"circle": 1}},
        pieces=pieces,
        shapes={"x": {"move": "orth-by-stack"}, "circle": {"move": "orth-by-stack"}},
        move_limit=9,
        turn_checks=[],
    )
    moves = legal_by_string(make_core(rs))
    assert "stack(1,1)@1->stack(2,1)" not in moves and "stack(1,1)@2->stack(2,1)" in moves


def test_a_carried_piece_completes_a_line_for_the_mover():
    b, w = "black", "white"
    rs = rule_set(
        "line",
        kind="stacks",
        size=[4, 1, 3],
        reserves={b: {"circle": 1}, w: {"circle": 1}},
        pieces=[
            piece([1, 1, 1], b, "circle"),
            piece([1, 1, 2], w, "circle"),
            piece([1, 1, 3], b, "circle"),
            piece([2, 1, 1], w, "circle"),
            piece([2, 1, 2], w, "circle"),
            piece([2, 1, 3], b, "circle"),
            piece([3, 1, 1], w, "circle"),
            piece([4, 1, 1], b, "x"),
            piece([4, 1, 2], b, "circle"),
        ],
        shapes={"x": {"move": "orth-by-stack"}, "circle": {}},
        move_limit=9,
        turn_checks=["first-3-wins"],
    )
    core, ref = make_core(rs), ReferenceState(rs)
    a = legal_by_string(core)["stack(4,1)@1->stack(3,1)"]
    core.apply_action(a)
    ref.apply(a)
    # the x lands on (3,1,2) (no line), the carried circle on (3,1,3): black circles along z = 3
    assert core.terminal() and core.returns_list() == [1.0, -1.0] == ref.returns()


def test_stack_hand_counts_own_and_communal_pieces_without_chips():
    b, w, y = "black", "white", "yellow"
    rs = rule_set(
        "hand",
        kind="stacks",
        size=[2, 1, 5],
        reserves={b: {"circle": 1}, w: {"circle": 1}},
        pieces=[
            piece([1, 1, 1], y, "pentagon"),
            piece([1, 1, 2], b, "pentagon"),
            piece([1, 1, 3], w, "pentagon"),
            piece([1, 1, 4], b, "star"),
            piece([1, 1, 5], b, "circle"),
        ],
        shapes={s: {"move": "orth-by-stack"} for s in ("pentagon", "star", "circle")},
        move_limit=9,
        turn_checks=[],
    )
    core = make_core(rs)
    assert core.stack_hand(0, 0) == poker.rank({"pentagon": 2, "star": 1, "circle": 1})
    assert poker.describe(core.stack_hand(0, 0)) == ("pair", ["pentagon"])
    assert core.stack_hand(0, 0, chips=["pentagon"]) == poker.rank({"star": 1, "circle": 1})
    assert core.stack_hand(1, 0) == poker.rank({"pentagon": 2})  # white's own and the communal one
    assert core.stack_hand(0, 1) == poker.rank({})
    with pytest.raises(ValueError, match="unknown shape"):
        core.stack_hand(0, 0, chips=["hexagon"])
    with pytest.raises(ValueError, match="seat 0..1"):
        core.stack_hand(5, 0)


def test_validation_lists_every_by_stack_problem():
    with pytest.raises(RuleSetError) as e:
        rules.parse(
            {
                "name": "v",
                "board": {"kind": "squares", "size": [3, 3, 1]},
                "cloaking": "hides",
                "reserves": {"black": {"x": 2, "star": 1}, "white": {"x": 2}},
                "shapes": {"x": {"move": "orth-by-stack"}, "star": {"move": "orth-by-full-stack"}},
                "phases": [{"cloaked": [[1, 1, 1]]}],
                "move_limit": 9,
            }
        )
    text = str(e.value)
    assert (
        "shapes.x.move: 'orth-by-stack' carries the pieces above the mover, so it needs a stacks board"
        in text
    )
    assert "shapes.star.move: 'orth-by-full-stack' carries the pieces above the mover" in text
    with pytest.raises(RuleSetError, match="'orth-by-stack' carries the pieces above the mover"):
        rules.parse(
            {
                "name": "h",
                "reserves": {"black": {"x": 2}, "white": {"x": 2}},
                "shapes": {"x": {"move": "orth-by-stack"}},
                "move_limit": 9,
            }
        )
    # by-stack moves play in rounds (tests/test_ttt_rounds.py), with powers too
    # (tests/test_ttt_by_stack_captures.py)
    rules.parse(
        {
            "name": "s",
            "board": {"kind": "stacks", "size": [2, 1, 3]},
            "reserves": {"black": {"x": 2}, "white": {"x": 2}},
            "shapes": {"x": {"move": "orth-by-stack"}},
            "phases": [{"order": "simultaneous"}],
            "move_limit": 9,
        }
    )
    assert rules.parse(
        {
            "name": "s",
            "board": {"kind": "stacks", "size": [2, 1, 3]},
            "reserves": {"black": {"x": 2, "star": 1}, "white": {"x": 2}},
            "shapes": {
                "x": {"move": "orth-by-stack"},
                "star": {"power": "can-capture", "condition": "cover", "result": "removes"},
            },
            "phases": [{"order": "simultaneous"}],
            "move_limit": 9,
        }
    ).compile()["simultaneous"]


# -- random stack rule sets ------------------------------------------------------------


@settings(max_examples=sweep(full=60, quick=7), deadline=None, suppress_health_check=list(HealthCheck))
@given(stack_records(), st.integers(0, 10**6))
def test_random_stack_rule_sets_match_reference(rec, seed):
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=3, seed=seed, check=same_pieces_conserved(rs))


def test_stacks_fall_and_fill():
    c = make_core("Connect4")
    play(c, [3, 3])
    cells = c.cells()
    assert cells[3] == 1 and cells[3 + 7] == 2
    play(c, [0, 0, 0, 0, 0, 0])
    assert 0 not in c.legal_action_list()

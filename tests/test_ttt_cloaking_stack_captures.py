"""Captures on stacks with cloaked spaces (docs/rules/ttt/cloaking.md,
"Captures on stacks with cloaked spaces"): the true stack judges a cover, its
hidden defenders included; every piece that stays keeps who saw it and the
mover sees every piece left in the stack and every piece it attempted to
cover; each seat reads, with every placement and move, how the columns it
sees changed, and the reserve gains (the shapes only for the captor colour's
players).

Small cloaked rule sets on stacks are played against the reference model
(tests/ttt_reference/) move by move (every seat's view of the pieces and of
their shapes), with OpenSpiel's random_sim_test, the check that every
information set has one past, one tensor and one set of legal actions, and
on hand-played histories a seat cannot, or can, tell apart. Stacks are
numbered x + X*y from 0; a placement id is k*T + t with k the shape's index
in the rank order among the shapes in play and T the number of stacks."""

import pytest

import games  # noqa: F401  (registers ttt)
from games.openspiel import core_of
from games.ttt import rules
from games.ttt.rules import RuleSetError
from tiers import sweep
from ttt_checks import (
    assert_all_differ,
    assert_is_legal_agrees_with_legal_actions,
    assert_views_partition_histories,
    play_against_reference,
    random_sim_test_of,
    views,
)
from ttt_checks import cloaked_rule_set as _rs
from ttt_checks import state_after as state

CAN = {"power": "can-capture", "condition": "cover", "result": "removes"}
MUST = {"power": "must-capture", "condition": "cover", "result": "removes"}
RANK = {"power": "can-capture", "condition": "cover-by-rank", "result": "removes"}
RANK_MUST_CONVERTS = {"power": "must-capture", "condition": "cover-by-rank", "result": "converts"}
RANK_R = {"power": "can-capture", "condition": "cover-by-rank", "result": "reincarnates"}


def stacks(x, y, z):
    return {"kind": "stacks", "size": [x, y, z]}


def every_cell(x, y, z=3):
    """Every cell of an x by y board of stacks z high (on stacks a cloaked space is a cell)."""
    return [[i, j, h] for i in range(1, x + 1) for j in range(1, y + 1) for h in range(1, z + 1)]


def stack_cases():
    """Small cloaked stacks rule sets with covers, each exercising one part."""
    out = []
    add = lambda name, **kw: out.append(_rs(name, **kw))  # noqa: E731
    # a stationary can-capture pentagon among circles, every stack cloaked
    add(
        "csc-hunt",
        board=stacks(2, 2, 3),
        reserves={"black": {"pentagon": 1, "circle": 2}, "white": {"circle": 3}},
        shapes={"pentagon": dict(CAN), "circle": {}},
        phases=[{"cloaked": every_cell(2, 2), "pass": True}],
    )
    # must capture, moving pieces on both sides, one open stack
    add(
        "csc-moving",
        board=stacks(3, 1, 3),
        reserves={"black": {"pentagon": 1, "circle": 2}, "white": {"pentagon": 1, "circle": 2}},
        shapes={"pentagon": dict(MUST, move="adjacent"), "circle": {"move": "adjacent"}},
        move_limit=16,
        phases=[{"cloaked": [[1, 1, h] for h in (1, 2, 3)] + [[3, 1, h] for h in (1, 2, 3)], "pass": True}],
    )
    # cover by rank, converting captives in place (stacks allow it); equal shapes destroy each other
    add(
        "csc-rank-converts",
        board=stacks(2, 2, 3),
        reserves={
            "black": {"x": 1, "circle": 1, "pentagon": 1},
            "white": {"x": 1, "circle": 1, "pentagon": 1},
        },
        shapes={"x": dict(RANK_MUST_CONVERTS), "circle": dict(RANK), "pentagon": dict(RANK)},
        phases=[{"cloaked": every_cell(2, 2), "pass": True}],
    )
    # reincarnation: the reserves are public, the shapes told to the captor colour
    add(
        "csc-reincarnates",
        board=stacks(2, 2, 3),
        reserves={"black": {"star": 1, "circle": 2}, "white": {"star": 1, "circle": 2}},
        shapes={"star": dict(RANK_R), "circle": dict(RANK_R)},
        move_limit=14,
        phases=[{"cloaked": every_cell(2, 2), "pass": True}],
    )
    # three players, captives removed (no pot), a placement phase then movement
    add(
        "csc-three",
        players="3",
        board=stacks(2, 2, 3),
        reserves={
            "black": {"pentagon": 1, "circle": 1},
            "white": {"circle": 2},
            "pink": {"star": 1, "circle": 1},
        },
        shapes={"pentagon": dict(MUST, move="adjacent"), "star": dict(RANK), "circle": {"move": "adjacent"}},
        move_limit=18,
        stalemate="most-circles-wins",
        phases=[
            {"movement": "placement-only", "cloaked": every_cell(2, 2, 1)},
            {"pass": True, "cloaked": [[1, 1, 1], [2, 2, 1]]},
        ],
    )
    # obscurity: colours are seen, shapes are not; a by-rank must-capture forces only when seen
    add(
        "csc-obscures",
        cloaking="obscures",
        board=stacks(2, 2, 3),
        reserves={
            "black": {"x": 1, "circle": 2, "pentagon": 1},
            "white": {"x": 1, "circle": 2, "pentagon": 1},
        },
        shapes={"x": dict(RANK_MUST_CONVERTS), "circle": {}, "pentagon": dict(RANK)},
        phases=[{"cloaked": every_cell(2, 2), "pass": True}],
    )
    return out


STACK_CASES = stack_cases()


@pytest.mark.parametrize("rs", STACK_CASES, ids=lambda r: r.name)
def test_cloaked_stack_captures_match_reference(rs):
    played = play_against_reference(rs, games=sweep(full=40, quick=4), seed=7, shape_views=True)
    assert played


@pytest.mark.slow
@pytest.mark.parametrize("rs", STACK_CASES, ids=lambda r: r.name)
def test_cloaked_stack_captures_match_reference_long(rs):
    play_against_reference(rs, games=300, seed=11, shape_views=True)


@pytest.mark.parametrize("rs", STACK_CASES, ids=lambda r: r.name)
def test_random_sim_test_on_cloaked_stack_captures(rs, tmp_path):
    random_sim_test_of(rs, tmp_path)


@pytest.mark.parametrize("rs", STACK_CASES, ids=lambda r: r.name)
def test_views_partition_histories_with_cloaked_stack_captures(rs):
    assert_views_partition_histories(rs, range(sweep(full=12, quick=2)))


@pytest.mark.parametrize("rs", STACK_CASES[:2], ids=lambda r: r.name)
def test_is_legal_agrees_with_legal_actions_on_cloaked_stack_captures(rs):
    assert_is_legal_agrees_with_legal_actions(rs, games=sweep(full=3, quick=1))


def test_the_cases_reach_covers_on_hidden_defenders():
    """The sweeps above are worth something only if covers of pieces the
    mover did not see happen in them: count the placements that captured
    while the target stack held a piece hidden from the mover."""
    import random

    from games.ttt import make_core

    hidden_covers = 0
    for rs in STACK_CASES:
        rng = random.Random(3)
        size = rs.record["board"]["size"]
        T, places = size[0] * size[1], size[0] * size[1] * len(rs.record["shapes"])
        for _ in range(sweep(full=20, quick=6)):
            core = make_core(rs)
            while not core.terminal():
                legal = core.legal_action_list() or [a for a, _ in core.chance_outcome_list()]
                mover, a = core.player(), rng.choice(legal)
                before = core.cells()
                view = core.player_view(mover) if mover >= 0 else None
                core.apply_action(a)
                if mover < 0 or a >= places or core.last_event()["attempt"]:
                    continue
                hid = any(before[c] and view[c] == "." for c in range(a % T, len(before), T))
                captured = sum(map(bool, core.cells())) <= sum(map(bool, before))  # a placement adds one
                hidden_covers += hid and captured
    assert hidden_covers > 0


# -- what each seat knows: histories it cannot, or can, tell apart ------------------

# three players on four stacks of three, all cloaked; black's can-capture pentagon and star
# remove what they cover; everyone places circles
HIDDEN = _rs(
    "csc-hand",
    players="3",
    board=stacks(2, 2, 3),
    reserves={
        "black": {"circle": 2, "star": 1, "pentagon": 1},
        "white": {"circle": 2},
        "pink": {"circle": 2},
    },
    shapes={"pentagon": dict(CAN), "star": dict(CAN), "circle": {}},
    phases=[{"cloaked": every_cell(2, 2), "pass": True}],
)
T = 4
CIRCLE, STAR, PENTAGON = 0, 1, 2  # shape indices in rank order
OPENING = (0 * T + 3, 0 * T + 0, 0 * T + 2)  # circles: black on stack 3, white on 0, pink on 2


def place(k, t):
    return k * T + t


def test_a_third_seat_cannot_tell_a_hidden_stack_capture_from_a_hidden_placement():
    # black's pentagon on stack 0 covers and removes white's hidden circle, or lands on
    # stack 1 (plain): pink saw neither stack
    captured = state(HIDDEN, *OPENING, place(PENTAGON, 0))
    plain = state(HIDDEN, *OPENING, place(PENTAGON, 1))
    assert core_of(captured).cells()[0] == 1 and core_of(captured).reserves()["white"] == 1
    assert views(captured, 2) == views(plain, 2)  # byte-identical strings, tensors, keys
    assert_all_differ(views(captured, 1), views(plain, 1))  # white saw its circle go
    assert "stack(1,1) looked [white circle, -, -], now [-, -, -]" in captured.information_state_string(1)
    # black attempted to cover the circle: it reads the stack as it stood, and what is left
    line = "stack(1,1) looked [white circle, -, -], now [black pentagon, -, -]"
    assert line in captured.information_state_string(0)
    assert_all_differ(views(captured, 0), views(plain, 0))


def test_the_captive_owner_cannot_tell_which_hidden_shape_captured():
    by_pentagon = state(HIDDEN, *OPENING, place(PENTAGON, 0))
    by_star = state(HIDDEN, *OPENING, place(STAR, 0))
    for seat in (1, 2):  # white lost its circle to a piece it does not see; pink saw nothing
        assert views(by_pentagon, seat) == views(by_star, seat)
    assert_all_differ(views(by_pentagon, 0), views(by_star, 0))


def test_a_hidden_defender_under_a_seen_piece_is_covered_and_the_stack_falls():
    # black's circle lands on white's hidden circle on stack 0 (plain stacking: neither has a
    # power); white and pink place elsewhere; black's pentagon on stack 0 covers the white
    # circle under black's own: the circle is removed, black's circle falls to the bottom,
    # the pentagon lands above it
    s = state(HIDDEN, *OPENING, place(CIRCLE, 0), place(CIRCLE, 1), place(CIRCLE, 1))
    core = core_of(s)
    assert core.player_view(0)[0] == "." and core.player_view(0)[T] == "x"
    s.apply_action(place(PENTAGON, 0))
    core = core_of(s)
    assert [core.cells()[z * T] for z in range(3)] == [1, 1, 0]
    line = "stack(1,1) looked [white circle, black circle, -], now [black circle, black pentagon, -]"
    assert line in s.information_state_string(0)
    # white saw its circle and nothing of black's pieces: it reads its circle gone, and pink
    # nothing; pink cannot tell this capture from a plain placement on stack 3
    assert "stack(1,1) looked [white circle, -, -], now [-, -, -]" in s.information_state_string(1)
    plain = state(HIDDEN, *OPENING, place(CIRCLE, 0), place(CIRCLE, 1), place(CIRCLE, 1), place(PENTAGON, 3))
    assert views(s, 2) == views(plain, 2)


def test_validation_plays_stack_covers_and_refuses_the_rest_with_cloaked_spaces():
    for rs in STACK_CASES:
        assert rs.record["board"]["kind"] == "stacks"
    base = {
        "name": "bad",
        "board": {"kind": "stacks", "size": [3, 1, 3]},
        "cloaking": "hides",
        "move_limit": 10,
        "phases": [{"cloaked": [[1, 1, 1]]}],
    }
    refused = [
        (  # a pot split among captors of three colours
            {
                "players": "3",
                "reserves": {"black": {"x": 2}, "white": {"x": 2}, "pink": {"x": 2}},
                "shapes": {"x": {"power": "can-capture", "condition": "cover", "result": "converts"}},
            },
            "a pot split among captors of several colours",
        ),
        (  # jumps on stacks
            {
                "reserves": {"black": {"x": 2}, "white": {"x": 2}},
                "shapes": {
                    "x": {
                        "power": "can-capture",
                        "condition": "jump",
                        "result": "removes",
                        "move": "adjacent",
                    }
                },
            },
            "'jump' on stacks with cloaked spaces is not supported yet",
        ),
        (  # by-stack moves with captures
            {
                "reserves": {"black": {"x": 2, "circle": 1}, "white": {"x": 2}},
                "shapes": {
                    "x": {"power": "can-capture", "condition": "cover", "result": "removes"},
                    "circle": {"move": "orth-by-stack"},
                },
            },
            "'orth-by-stack' with captures and cloaked spaces is not supported yet",
        ),
    ]
    for fields, message in refused:
        with pytest.raises(RuleSetError) as e:
            rules.parse(dict(base, **fields))
        assert message in str(e.value)
        assert "not supported on stacks yet" not in str(e.value)


def obscured_forcing(cloaked):
    """Obscurity on two stacks: black's x must capture by rank; white's piece
    on stack 0 is a circle (the x takes it) or a pentagon (it takes the x)."""
    return _rs(
        f"csc-obscured-forcing-{len(cloaked)}",
        cloaking="obscures",
        board=stacks(2, 1, 3),
        reserves={"black": {"circle": 1, "x": 1}, "white": {"circle": 1, "pentagon": 1}},
        shapes={
            "circle": {},
            "x": {"power": "must-capture", "condition": "cover-by-rank", "result": "removes"},
            "pentagon": dict(RANK),
        },
        phases=[{"cloaked": cloaked, "pass": True}],
    )


def test_obscurity_a_stack_cover_forces_only_when_every_defender_is_seen():
    # placements k*2 + t (circle 0, x 1, pentagon 2); black's circle on stack 1 first
    hidden = obscured_forcing(every_cell(2, 1))
    by_circle, by_pentagon = state(hidden, 1, 0), state(hidden, 1, 4)
    # black sees a white piece on stack 0, not its shape: its x would take a circle, not a
    # pentagon, so the capture is not one it sees; nothing forces, and it cannot tell them apart
    assert views(by_circle, 0) == views(by_pentagon, 0)
    assert by_circle.legal_actions() == by_pentagon.legal_actions()
    assert {2, 3} <= set(by_circle.legal_actions())
    # with stack 0's bottom cell open black sees the circle: the capture forces
    opened = obscured_forcing([c for c in every_cell(2, 1) if c != [1, 1, 1]])
    assert state(opened, 1, 0).legal_actions() == [2]
    assert 3 in state(opened, 1, 4).legal_actions()  # x onto a pentagon captures nothing

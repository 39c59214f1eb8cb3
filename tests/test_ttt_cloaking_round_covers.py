"""Covers in cloaked simultaneous and single rounds (docs/rules/ttt/cloaking.md,
"Covers in cloaked rounds"): every plan is judged on the true board of the
round's start (a cover the true rules allow there is no attempt), the round
resolves as an uncloaked one (every lift, then each target's one landing,
its cover judged on the pieces there), and each seat reads with the round's
last event every cell whose look changed for it over the round (what its
covers met included) and the reserves after it.

Small cloaked rule sets with covers in rounds (flat boards and stacks, both
cloaking types, removes, converts on stacks and reincarnation, three players,
a single phase between sequential ones) are played against the reference
model (tests/ttt_reference/) plan by plan (every seat's view of the pieces
and shapes, the attempts, the legal plans, the returns), with OpenSpiel's
random_sim_test, the check that every information set has one tensor, one
observation and one set of legal plans, and on hand-played rounds a seat
cannot, or can, tell apart. Placement ids are k*T + t with k the shape's index
in the rank order among the shapes in play."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games  # noqa: F401  (registers ttt)
from games.ttt import make_core
from tiers import sweep
from ttt_checks import (
    assert_all_differ,
    assert_views_partition_histories,
    cells,
    core_views,
    logged_attempts,
    parsed_or_rejected,
    play_against_reference,
    random_sim_test_of,
)
from ttt_checks import cloaked_rule_set as _rs
from ttt_round_records import cloaked_round_records

CAN = {"power": "can-capture", "condition": "cover", "result": "removes"}
MUST = {"power": "must-capture", "condition": "cover", "result": "removes"}
RANK = {"power": "can-capture", "condition": "cover-by-rank", "result": "removes"}
RANK_R = {"power": "can-capture", "condition": "cover-by-rank", "result": "reincarnates"}
CONVERTS = {"power": "can-capture", "condition": "cover", "result": "converts"}
SIM, SINGLE = {"order": "simultaneous"}, {"order": "single"}


def stack_cells(x, y, z):
    return [[i, j, h] for i in range(1, x + 1) for j in range(1, y + 1) for h in range(1, z + 1)]


def round_cases():
    out = []
    add = lambda name, **kw: out.append(_rs(name, **kw))  # noqa: E731
    add(
        "crc-hunt",
        reserves={"black": {"pentagon": 1, "circle": 2}, "white": {"circle": 3}},
        shapes={"pentagon": dict(CAN), "circle": {}},
        phases=[dict(SIM, cloaked=cells(3, 3), **{"pass": True})],
    )
    add(
        "crc-moving",
        board={"kind": "squares", "size": [4, 3, 1]},
        reserves={"black": {"pentagon": 1, "circle": 2}, "white": {"pentagon": 1, "circle": 2}},
        shapes={"pentagon": dict(MUST, move="adjacent"), "circle": {"move": "adjacent"}},
        move_limit=16,
        phases=[dict(SIM, cloaked=[c for c in cells(4, 3) if c[0] in (1, 4)], **{"pass": True})],
    )
    add(
        "crc-rank-reincarnates",
        reserves={
            "black": {"x": 1, "circle": 1, "pentagon": 1},
            "white": {"x": 1, "circle": 1, "pentagon": 1},
        },
        shapes={"x": dict(RANK_R), "circle": dict(RANK_R), "pentagon": dict(RANK)},
        move_limit=12,
        phases=[dict(SIM, cloaked=cells(3, 3), **{"pass": True})],
    )
    add(
        "crc-obscures",
        cloaking="obscures",
        reserves={
            "black": {"x": 1, "circle": 2, "pentagon": 1},
            "white": {"x": 1, "circle": 2, "pentagon": 1},
        },
        shapes={"x": dict(RANK), "circle": {}, "pentagon": dict(RANK)},
        phases=[dict(SIM, cloaked=cells(3, 3), **{"pass": True})],
    )
    add(
        "crc-stacks",
        board={"kind": "stacks", "size": [2, 2, 3]},
        reserves={"black": {"pentagon": 1, "circle": 2}, "white": {"star": 1, "circle": 2}},
        shapes={"pentagon": dict(CONVERTS), "star": dict(RANK), "circle": {}},
        phases=[dict(SIM, cloaked=stack_cells(2, 2, 3), **{"pass": True})],
    )
    add(
        "crc-three-single",
        players="3",
        board={"kind": "squares", "size": [4, 3, 1]},
        reserves={
            "black": {"pentagon": 1, "circle": 2},
            "white": {"circle": 3},
            "pink": {"star": 1, "circle": 2},
        },
        shapes={"pentagon": dict(MUST, move="adjacent"), "star": dict(RANK), "circle": {}},
        move_limit=20,
        stalemate="most-circles-wins",
        phases=[
            {"movement": "placement-only", "cloaked": cells(4, 3)},
            dict(SINGLE, cloaked=cells(4, 3)),
            {"pass": True, "cloaked": [c for c in cells(4, 3) if c[1] != 2]},
        ],
    )
    return out


ROUND_CASES = round_cases()


@pytest.mark.parametrize("rs", ROUND_CASES, ids=lambda r: r.name)
def test_covers_in_cloaked_rounds_match_reference(rs):
    assert play_against_reference(rs, games=sweep(full=40, quick=4), seed=7, shape_views=True)


@pytest.mark.slow
@pytest.mark.parametrize("rs", ROUND_CASES, ids=lambda r: r.name)
def test_covers_in_cloaked_rounds_match_reference_long(rs):
    play_against_reference(rs, games=300, seed=11, shape_views=True)


@pytest.mark.parametrize("rs", ROUND_CASES, ids=lambda r: r.name)
def test_random_sim_test_on_covers_in_cloaked_rounds(rs, tmp_path):
    random_sim_test_of(rs, tmp_path)


@pytest.mark.parametrize("rs", ROUND_CASES, ids=lambda r: r.name)
def test_views_partition_histories_with_covers_in_cloaked_rounds(rs):
    assert_views_partition_histories(rs, range(sweep(full=12, quick=3)), face="core")


@settings(max_examples=sweep(full=40, quick=4), deadline=None)
@given(rec=cloaked_round_records(covers=True), seed=st.integers(0, 1000))
def test_random_cloaked_rule_sets_with_covers_match_reference(rec, seed):
    """Random shapes on squares or stacks, cloaked spaces in rounds (and
    sequential phases), both cloaking types, some shapes covering."""
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=3, seed=seed, shape_views=True)


# -- rounds played by hand: what each seat can tell apart -----------------------------

HAND = _rs(
    "crc-hand",
    players="3",
    reserves={
        "black": {"pentagon": 1, "circle": 2},
        "white": {"pentagon": 1, "circle": 2},
        "pink": {"circle": 3},
    },
    shapes={"pentagon": dict(CAN), "circle": {}},
    phases=[dict(SIM, cloaked=cells(3, 3), **{"pass": True})],
)
CIRCLE, PENTAGON = 0, 9  # placement ids: shape index * 9 + target


def test_a_third_seat_cannot_tell_a_cover_judged_in_a_round_from_a_plain_placement():
    captured, plain = make_core(HAND), make_core(HAND)
    for core in (captured, plain):
        core.apply_joint_action([CIRCLE + 8, CIRCLE + 0, CIRCLE + 4])  # every piece hidden from the others
    captured.apply_joint_action([PENTAGON + 0, CIRCLE + 2, CIRCLE + 5])  # black covers white's circle
    plain.apply_joint_action([PENTAGON + 1, CIRCLE + 2, CIRCLE + 5])  # or lands beside it
    assert captured.cells()[0] == 1 and plain.cells()[0] == 2
    assert logged_attempts(captured) == logged_attempts(plain) == []  # a cover the true rules allow
    assert core_views(captured, 2, plans=True) == core_views(plain, 2, plans=True)  # pink: identical
    assert_all_differ(core_views(captured, 1), core_views(plain, 1))  # white saw its circle go
    assert "(1,1,1) white circle -> -" in captured.information_state_string(1)
    # black attempted to cover the circle: it reads what its cover met
    assert "(1,1,1) - -> black pentagon" in captured.information_state_string(0)
    assert "its cover on (1,1,1) met [white circle]" in captured.information_state_string(0)
    assert_all_differ(core_views(captured, 0), core_views(plain, 0))


def test_a_piece_without_power_planned_onto_a_hidden_pentagon_is_captured_and_sees_it():
    core, elsewhere = make_core(HAND), make_core(HAND)
    for c in (core, elsewhere):
        c.apply_joint_action([CIRCLE + 8, PENTAGON + 0, CIRCLE + 4])  # white's pentagon hidden on (1,1)
    core.apply_joint_action([CIRCLE + 0, CIRCLE + 2, CIRCLE + 5])  # black's circle covers it: captured
    elsewhere.apply_joint_action([CIRCLE + 1, CIRCLE + 2, CIRCLE + 5])
    assert logged_attempts(core) == []
    assert core.cells()[0] == 2 and core.player_view(0)[0] == "o"  # black now sees the pentagon
    assert core.reserves()["black"] == 1
    assert "(1,1,1) - -> white pentagon" in core.information_state_string(0)
    assert "its cover on (1,1,1) met [white pentagon]" in core.information_state_string(0)
    assert core_views(core, 2) == core_views(elsewhere, 2)  # pink saw neither
    # white's pentagon stayed; its circle lands on (3,1): white reads no change on (1,1)
    second_round = core.information_state_string(1).split("\n4. ")[1]
    assert "(1,1,1)" not in second_round and "(3,1,1) - -> white circle" in second_round


def test_covers_of_a_round_land_after_every_lift():
    # black's pentagon on (1,1) moves onto white's hidden circle on (2,1) while that circle
    # moves away to (3,1): every piece leaves before any lands, so the pentagon lands on an
    # empty space and captures nothing
    rs = _rs(
        "crc-lift",
        reserves={"black": {"pentagon": 1}, "white": {"circle": 1}},
        shapes={"pentagon": dict(CAN, move="adjacent"), "circle": {"move": "adjacent"}},
        move_limit=8,
        phases=[dict(SIM, cloaked=cells(3, 3))],
    )
    core = make_core(rs)
    core.apply_joint_action([9 + 0, 1])  # black's pentagon on (1,1), white's circle on (2,1)
    move = lambda f, u: 18 + 9 * f + u  # noqa: E731
    core.apply_joint_action([move(0, 1), move(1, 2)])
    assert core.cells()[:3] == [0, 1, 2] and logged_attempts(core) == []


def test_the_sweeps_reach_covers_of_hidden_pieces_in_rounds():
    """The sweeps above are worth something only if rounds in them judge covers
    of pieces the planner did not see: count the placements onto a space that
    looked empty to its planner but held a piece, that were no attempt."""
    import random

    hidden_covers = 0
    for rs in ROUND_CASES[:3]:  # flat boards, every phase simultaneous
        rng, T = random.Random(5), rs.record["board"]["size"][0] * rs.record["board"]["size"][1]
        places = T * len(rs.record["shapes"])
        for _ in range(sweep(full=20, quick=8)):
            core = make_core(rs)
            while not core.terminal():
                seats = core.simultaneous_player_list()
                plans = [rng.choice(core.player_legal_action_list(p)) for p in seats]
                looks, before = [core.player_view(p) for p in seats], core.cells()
                core.apply_joint_action(plans)
                attempts = set(logged_attempts(core))
                for p, a in zip(seats, plans, strict=True):
                    if a < places and before[a % T] and looks[p][a % T] == "." and p not in attempts:
                        hidden_covers += 1
    assert hidden_covers > 0

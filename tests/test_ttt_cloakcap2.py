"""Captures with cloaked spaces, ttt-cloakcap2: reincarnation (issue 12 item
5's "reincarnated (i.e. added to the captor’s reserves)" with issue 11 item
3's cloaking) and captures under obscurity. docs/rules/ttt.md, "Captures with
cloaked spaces", decides both: the seed cloaks spaces, not reserves, so the
reserve a reincarnation fills stays public and the cover's event tells every
player which colour gained how many pieces (its shape only to that colour's
players); under obscurity a mover may try every cover the hidden shape could
allow, and "must capture" forces only the captures it sees. Tested against
the reference models (tests/ttt_reference/, ReferenceState and
ReferenceState) move by move, with OpenSpiel's random_sim_test, and
on histories a player cannot, or can, tell apart.

Cells are x + X*(y + Y*z) from 0. Placement ids are (k*P + c)*T + t with k
the shape's index in the seed's rank order among the shapes in play."""

import random

import pytest

import games  # noqa: F401  (registers ttt)
from games.openspiel import core_of
from games.ttt import make_core, rules
from games.ttt.rules import RuleSetError
from ttt_checks import (
    assert_is_legal_agrees_with_legal_actions,
    cells,
    play_against_reference,
    random_sim_test_of,
)
from ttt_checks import (
    cloaked_rule_set as _rs,
)
from ttt_reference import ReferenceState

MUST_R = {"power": "must-capture", "condition": "cover", "result": "reincarnates"}
CAN_R2 = {"power": "can-capture", "condition": "cover", "result": "reincarnates-x2"}
RANK_R = {"power": "can-capture", "condition": "cover-by-rank", "result": "reincarnates"}
RANK_R2 = {"power": "can-capture", "condition": "cover-by-rank", "result": "reincarnates-x2"}
RANK_RM = {"power": "can-capture", "condition": "cover-by-rank", "result": "removes"}
MUST = {"power": "must-capture", "condition": "cover", "result": "removes"}
RANK = {"power": "can-capture", "condition": "cover-by-rank", "result": "removes"}
RANK_MUST = {"power": "must-capture", "condition": "cover-by-rank", "result": "removes"}


def cases():
    """Small cloaked rule sets whose covers reincarnate, each exercising one part."""
    out = []
    add = lambda name, **kw: out.append(_rs(name, **kw))
    # a must-capture pentagon that reincarnates the circles it finds into black's reserve
    add(
        "cc2-hunt",
        reserves={"black": {"pentagon": 1}, "white": {"circle": 3}},
        shapes={"pentagon": dict(MUST_R, move="adjacent"), "circle": {}},
        move_limit=16,
        phases=[{"cloaked": cells(3, 3), "pass": True}],
    )
    # cover by rank with x2 and x1 captors and a remover; both sides capture, half the board open
    add(
        "cc2-rank",
        board={"kind": "squares", "size": [4, 3, 1]},
        reserves={
            "black": {"x": 1, "circle": 1, "pentagon": 1},
            "white": {"x": 1, "circle": 1, "pentagon": 1},
        },
        shapes={
            "x": dict(RANK_R2, move="adjacent"),
            "circle": dict(RANK_R, move="adjacent"),
            "pentagon": dict(RANK_RM, move="adjacent-or-knight"),
        },
        move_limit=24,
        phases=[{"cloaked": [c for c in cells(4, 3) if c[0] <= 2], "pass": True}],
    )
    # a stationary x2 star that captures what covers it (circles without power are
    # captured when they cover it), three players
    add(
        "cc2-three",
        players="3",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={
            "black": {"star": 1, "circle": 2},
            "white": {"circle": 3},
            "pink": {"pentagon": 1, "circle": 1},
        },
        shapes={
            "star": dict(CAN_R2, move="stationary"),
            "pentagon": dict(MUST_R, move="adjacent"),
            "circle": {"move": "adjacent-or-knight"},
        },
        move_limit=24,
        stalemate="most-circles-wins",
        phases=[
            {"movement": "placement-only", "cloaked": [c for c in cells(4, 4) if c[1] <= 2]},
            {"pass": True, "cloaked": [c for c in cells(4, 4) if c[0] <= 2]},
        ],
    )
    # Chaos's pre-placed reincarnating pentagon moving into the players' hidden middle
    add(
        "cc2-chaos",
        players="2-vs-chaos",
        board={
            "kind": "squares",
            "size": [4, 4, 1],
            "pieces": [{"at": [1, 1, 1], "colour": "pink", "shape": "pentagon"}],
        },
        reserves={"black": {"circle": 2}, "white": {"circle": 1, "pentagon": 1}},
        shapes={"pentagon": dict(MUST_R, move="adjacent"), "circle": {"move": "adjacent-or-knight"}},
        move_limit=20,
        phases=[{"pass": True, "cloaked": [[x, y, 1] for x in (2, 3) for y in (2, 3)]}],
    )
    return out


CASES = cases()


def _check(core, ref):
    """Views, per-shape reserves and what every player reads of the last
    event's reincarnation, engine against reference."""
    for p in range(core.num_players):
        assert core.player_view(p) == ref.view(p), (p, core.to_string())
        assert core.player_shape_view(p) == ref.shape_view(p), (p, core.to_string())
    assert core.shape_reserves() == {ref.colours[c]: d for c, d in enumerate(ref.sres)}, core.to_string()
    n = core._log_count()
    for p in range(core.num_players):
        assert (core._cc2_text(p, n - 1) if n else "") == ref.gain_text(p), (p, core.to_string())


@pytest.mark.parametrize("rs", CASES, ids=lambda r: r.name)
def test_engine_matches_reference(rs):
    played = play_against_reference(rs, games=30, seed=7, ref_class=ReferenceState, check=_check)
    assert played


@pytest.mark.slow
@pytest.mark.parametrize("rs", CASES, ids=lambda r: r.name)
def test_engine_matches_reference_long(rs):
    play_against_reference(rs, games=300, seed=11, ref_class=ReferenceState, check=_check)


def test_reincarnations_happen_in_the_cases():
    """The random games above do reach hidden reincarnations (x1 and x2)."""
    counts = set()
    for rs in CASES:
        rng = random.Random(3)
        for _ in range(30):
            core = make_core(rs)
            while not core.terminal():
                acts = (
                    [a for a, _ in core.chance_outcome_list()]
                    if core.player() == -1
                    else core.legal_action_list()
                )
                core.apply_action(rng.choice(acts))
                got = core._event_reinc(core._log_count() - 1)
                if got is not None:
                    counts.add(got[1])
    assert counts == {1, 2}


@pytest.mark.parametrize("rs", CASES, ids=lambda r: r.name)
def test_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path)


@pytest.mark.parametrize("rs", CASES[:2], ids=lambda r: r.name)
def test_is_legal_agrees_with_legal_actions(rs):
    assert_is_legal_agrees_with_legal_actions(rs, games=3)


# -- what each player knows: histories it cannot, or can, tell apart ------------

# 3x3, all cloaked; shapes circle (k 0), triangle (k 1), pentagon (k 2): placements
# k*9 + t, moves 27 + f*9 + u, pass 108
THREE = _rs(
    "cc2-three-hand",
    players="3",
    reserves={"black": {"pentagon": 1}, "white": {"circle": 1, "triangle": 1}, "pink": {"circle": 1}},
    shapes={"pentagon": dict(MUST_R, move="adjacent"), "circle": {}, "triangle": {}},
    move_limit=14,
    phases=[{"cloaked": cells(3, 3), "pass": True}],
)
CIRCLE, TRIANGLE, PENTAGON, MOVE0 = 0, 9, 18, 27


def state(rs, *history):
    from test_ttt_cloakcap import state as cloakcap_state

    return cloakcap_state(rs, *history)


def views(s, player):
    from test_ttt_cloakcap import views as cloakcap_views

    return cloakcap_views(s, player)


def assert_info_differs(a, b):
    """Information states (string, tensor, key) differ; the observation may not."""
    assert a[0] != b[0] and a[1] != b[1] and a[4] != b[4]


def test_every_player_learns_that_a_hidden_capture_reincarnated():
    # black's pentagon (1,1) takes white's hidden circle on (2,1), or moves to (2,1) while
    # the circle stands on (3,3): pink saw neither piece, but black's reserve (public) grew
    captured = state(THREE, PENTAGON + 0, CIRCLE + 1, CIRCLE + 8, MOVE0 + 1)
    moved = state(THREE, PENTAGON + 0, CIRCLE + 7, CIRCLE + 8, MOVE0 + 1)
    assert core_of(captured).reserves()["black"] == 1 and core_of(moved).reserves()["black"] == 0
    assert "black's reserve gains 1 (reincarnated)" in captured.information_state_string(2)
    assert "black's reserve gains 1 circle (reincarnated)" in captured.information_state_string(0)
    for p in range(3):
        assert_info_differs(views(captured, p), views(moved, p))


def test_where_the_capture_happened_stays_hidden():
    # the same capture on (2,1) or on (1,2): pink cannot tell them apart, white can
    east = state(THREE, PENTAGON + 0, CIRCLE + 1, CIRCLE + 8, MOVE0 + 1)
    north = state(THREE, PENTAGON + 0, CIRCLE + 3, CIRCLE + 8, MOVE0 + 3)
    assert views(east, 2) == views(north, 2)
    assert_info_differs(views(east, 1), views(north, 1))
    assert_info_differs(views(east, 0), views(north, 0))


def test_the_reincarnated_shape_is_told_only_to_the_captor_colour():
    # white's hidden circle or triangle is taken: black (whose per-shape reserve shows it)
    # learns which, pink (who knows only black's total) does not
    circle = state(THREE, PENTAGON + 0, CIRCLE + 1, CIRCLE + 8, MOVE0 + 1)
    triangle = state(THREE, PENTAGON + 0, TRIANGLE + 1, CIRCLE + 8, MOVE0 + 1)
    assert core_of(circle).shape_reserves()["black"]["circle"] == 1
    assert core_of(triangle).shape_reserves()["black"]["triangle"] == 1
    assert views(circle, 2) == views(triangle, 2)
    assert_info_differs(views(circle, 0), views(triangle, 0))
    assert_info_differs(views(circle, 1), views(triangle, 1))  # white placed it


def test_a_defender_that_reincarnates_its_attacker_tells_everyone():
    # pink places its circle (no power) on the space that looks empty but holds black's
    # pentagon: the circle is captured into black's reserve; black did not see the
    # attacker, yet its reserve grew: black's and white's views differ from a placement
    # elsewhere, and from the same capture by white's circle (whose reserve fell instead)
    taken = state(THREE, PENTAGON + 0, TRIANGLE + 4, CIRCLE + 0)
    elsewhere = state(THREE, PENTAGON + 0, TRIANGLE + 4, CIRCLE + 8)
    assert core_of(taken).shape_reserves()["black"] == {"circle": 1, "triangle": 0, "pentagon": 0}
    assert "black's reserve gains 1 circle (reincarnated)" in taken.information_state_string(0)
    assert "and was captured there; black's reserve gains 1 (reincarnated)" in taken.information_state_string(
        2
    )
    for p in range(3):
        assert_info_differs(views(taken, p), views(elsewhere, p))
    # white's circle or triangle placed on the pentagon and captured: black's reserve shows
    # the shape, so black tells them apart; pink, who sees black's total only, does not
    by_circle = state(THREE, PENTAGON + 0, CIRCLE + 0)
    by_triangle = state(THREE, PENTAGON + 0, TRIANGLE + 0)
    assert_info_differs(views(by_circle, 0), views(by_triangle, 0))
    assert views(by_circle, 2) == views(by_triangle, 2)


@pytest.mark.parametrize("rs", CASES + [THREE], ids=lambda r: r.name)
def test_views_partition_histories_consistently(rs):
    """Within each player's information sets one tensor, one key, one
    observation, the same legal actions and the same past; across them
    different tensors and keys (the check of tests/test_ttt_cloakcap.py)."""
    from test_ttt_cloakcap import test_views_partition_histories_consistently as check

    check(rs)


# -- captures under obscurity ---------------------------------------------------------


def obscure_cases():
    """Small rule sets with captures under obscurity."""
    out = []
    add = lambda name, **kw: out.append(_rs(name, cloaking="obscures", **kw))
    # a must-capture pentagon (it beats every shape: its captures are always visible)
    # against white's circles and a by-rank star, all cloaked
    add(
        "cc2-ob-hunt",
        reserves={"black": {"pentagon": 1}, "white": {"circle": 2, "star": 1}},
        shapes={"pentagon": dict(MUST, move="adjacent"), "star": dict(RANK, move="adjacent"), "circle": {}},
        move_limit=16,
        phases=[{"cloaked": cells(3, 3), "pass": True}],
    )
    # cover by rank on both sides (its captures are visible only on pieces fully seen),
    # reincarnating x and removing pentagon, half the board open
    add(
        "cc2-ob-rank",
        board={"kind": "squares", "size": [4, 3, 1]},
        reserves={
            "black": {"x": 1, "circle": 1, "pentagon": 1},
            "white": {"x": 1, "circle": 1, "pentagon": 1},
        },
        shapes={
            "x": dict(RANK_R, move="adjacent"),
            "circle": dict(RANK_MUST, move="adjacent"),
            "pentagon": dict(RANK_RM, move="adjacent-or-knight"),
        },
        move_limit=24,
        phases=[{"cloaked": [c for c in cells(4, 3) if c[0] <= 2], "pass": True}],
    )
    # three players; circles without power try covers on pieces seen by colour only
    # (attempts when those are circles too), an x2 star, a reincarnating pentagon
    add(
        "cc2-ob-three",
        players="3",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={
            "black": {"star": 1, "circle": 2},
            "white": {"circle": 3},
            "pink": {"pentagon": 1, "circle": 1},
        },
        shapes={
            "star": dict(CAN_R2, move="stationary"),
            "pentagon": dict(MUST_R, move="adjacent"),
            "circle": {"move": "adjacent-or-knight"},
        },
        move_limit=24,
        stalemate="most-circles-wins",
        phases=[
            {"movement": "placement-only", "cloaked": [c for c in cells(4, 4) if c[1] <= 2]},
            {"pass": True, "cloaked": [c for c in cells(4, 4) if c[0] <= 2]},
        ],
    )
    # forward-only triangles that capture and reach their goals (naming a replacement,
    # whose shape obscurity hides from the others), must-capture pentagons
    add(
        "cc2-ob-goal",
        board={"kind": "squares", "size": [3, 4, 1]},
        reserves={"black": {"triangle": 2, "pentagon": 1}, "white": {"triangle": 2, "pentagon": 1}},
        shapes={
            "triangle": {
                "power": "can-capture",
                "condition": "cover",
                "result": "reincarnates",
                "move": "forward-orthogonal",
            },
            "pentagon": dict(MUST, move="adjacent"),
        },
        move_limit=30,
        phases=[{"pass": True, "cloaked": cells(3, 4)}],
    )
    return out


OBSCURE = obscure_cases()


@pytest.mark.parametrize("rs", OBSCURE, ids=lambda r: r.name)
def test_obscurity_matches_reference(rs):
    play_against_reference(rs, games=30, seed=7, ref_class=ReferenceState, check=_check)


@pytest.mark.slow
@pytest.mark.parametrize("rs", OBSCURE, ids=lambda r: r.name)
def test_obscurity_matches_reference_long(rs):
    play_against_reference(rs, games=300, seed=11, ref_class=ReferenceState, check=_check)


@pytest.mark.parametrize("rs", OBSCURE, ids=lambda r: r.name)
def test_obscurity_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path)


@pytest.mark.parametrize("rs", OBSCURE, ids=lambda r: r.name)
def test_obscurity_views_partition_histories_consistently(rs):
    test_views_partition_histories_consistently(rs)


def test_obscurity_is_legal_agrees_with_legal_actions():
    assert_is_legal_agrees_with_legal_actions(OBSCURE[2], games=3)


def test_obscurity_cases_reach_every_verdict_and_attempts():
    seen = set()
    for rs in OBSCURE:
        for g in range(30):
            rng, core = random.Random(g), make_core(rs)
            while not core.terminal():
                acts = (
                    [a for a, _ in core.chance_outcome_list()]
                    if core.player() == -1
                    else core.legal_action_list()
                )
                core.apply_action(rng.choice(acts))
                n = core._log_count()
                seen.add(core._event_cover(n - 1)[0])
                seen.add("attempt" if core._event(n - 1)[2] else "")
    assert {1, 2, 3, "attempt"} <= seen


# 3x3, all cloaked, obscurity; circle (k 0), star (k 1), pentagon (k 2): placements
# k*9 + t, moves 27 + f*9 + u, pass 108. Black's pentagon captures other than by rank
# (it beats every shape); white's star must capture by rank; circles have no power.
OB = _rs(
    "cc2-ob-hand",
    players="3",
    cloaking="obscures",
    reserves={
        "black": {"circle": 1, "pentagon": 1},
        "white": {"circle": 1, "star": 1},
        "pink": {"circle": 1},
    },
    shapes={
        "pentagon": dict(MUST, move="adjacent"),
        "star": dict(RANK_MUST, move="stationary"),
        "circle": {},
    },
    move_limit=14,
    phases=[{"cloaked": cells(3, 3), "pass": True}],
)
O_CIRCLE, O_STAR, O_PENTAGON, O_MOVE0, O_PASS = 0, 9, 18, 27, 108


def test_obscurity_a_cover_on_a_piece_seen_by_colour_only_may_be_tried():
    # white's star or circle on (1,1), black sees its colour only: its circle (no power)
    # may try to cover it either way; on the star it is captured (the star outranks it),
    # on the circle it is an attempt that only reveals
    star = state(OB, O_PENTAGON + 8, O_STAR + 0, O_CIRCLE + 2)
    circle = state(OB, O_PENTAGON + 8, O_CIRCLE + 0, O_CIRCLE + 2)
    assert views(star, 0) == views(circle, 0)
    assert star.legal_actions() == circle.legal_actions() and O_CIRCLE + 0 in star.legal_actions()
    star.apply_action(O_CIRCLE + 0)
    circle.apply_action(O_CIRCLE + 0)
    assert core_of(star).reserves()["black"] == 0 and core_of(circle).reserves()["black"] == 1
    assert core_of(star).player_shape_view(0)[0] == "*" and core_of(circle).player_shape_view(0)[0] == "c"
    assert "and was captured there" in star.information_state_string(2)  # the verdict is public
    assert "black@(1,1,1) (shape not seen), and was captured there" in star.information_state_string(2)
    assert "attempted (1,1,1)" not in star.information_state_string(0)
    assert "which only revealed" in circle.information_state_string(0)
    for p in range(3):
        assert_info_differs(views(star, p), views(circle, p))


def test_obscurity_a_capture_the_mover_cannot_see_does_not_force():
    # black's circle or pentagon on (1,1), seen by white as a black piece: white's star
    # (must capture, by rank) would capture the circle, not the pentagon: neither forces
    on_circle = state(OB, O_CIRCLE + 0)
    on_pentagon = state(OB, O_PENTAGON + 0)
    assert views(on_circle, 1) == views(on_pentagon, 1)
    assert on_circle.legal_actions() == on_pentagon.legal_actions()
    assert O_PASS in on_circle.legal_actions() and O_STAR + 0 in on_circle.legal_actions()


def test_obscurity_a_capture_by_a_shape_that_beats_every_shape_forces():
    # black's pentagon captures other than by rank: whatever white put beside it, black
    # sees that the cover captures, so it must capture (no other action, no pass)
    by_circle = state(OB, O_PENTAGON + 8, O_CIRCLE + 7, O_CIRCLE + 0)
    by_star = state(OB, O_PENTAGON + 8, O_STAR + 7, O_CIRCLE + 0)
    assert views(by_circle, 0) == views(by_star, 0)
    assert by_circle.legal_actions() == by_star.legal_actions() == [O_MOVE0 + 8 * 9 + 7]
    by_circle.apply_action(O_MOVE0 + 8 * 9 + 7)
    by_star.apply_action(O_MOVE0 + 8 * 9 + 7)
    assert "capturing the piece there" in by_circle.information_state_string(2)
    assert views(by_circle, 2) == views(by_star, 2)  # pink never saw which shape went
    assert_info_differs(views(by_circle, 1), views(by_star, 1))


# -- validation: reincarnation and obscurity are played, the rest stays refused ------


def test_validation_lifts_only_the_reincarnation_and_obscurity_refusals():
    for rs in CASES:
        assert rs.record["cloaking"] == "hides"
    for rs in OBSCURE:
        assert rs.record["cloaking"] == "obscures"
    with pytest.raises(RuleSetError) as e:
        rules.parse(
            {
                "name": "bad",
                "board": {"kind": "stacks", "size": [3, 1, 3]},
                "cloaking": "obscures",
                "reserves": {"black": {"x": 2}, "white": {"x": 2}},
                "move_limit": 10,
                "shapes": {"x": {"power": "can-capture", "condition": "cover", "result": "reincarnates"}},
                "phases": [{"cloaked": [[1, 1, 1]], "order": "simultaneous"}],
            }
        )
    text = str(e.value)
    assert "'reincarnates' with cloaked spaces" not in text
    assert "cloaking 'obscures'" not in text
    assert "board.kind: captures with cloaked spaces are not supported on stacks yet" in text
    assert "captures with cloaked spaces are not supported with a simultaneous or single phase yet" in text

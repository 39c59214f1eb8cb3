"""Captures with cloaked spaces (docs/rules/ttt/cloaking.md, "Captures with
cloaked spaces"): a cover the mover cannot see does not force; moving onto a hidden
piece that can be covered captures it; a piece without power covering a
hidden higher-ranked piece is captured and sees it; a third player cannot
tell a hidden capture from a hidden move; a move reaching its goal names the
shape its piece becomes (hidden under obscurity). Reincarnation: the
specification cloaks spaces, not reserves, so the reserve a reincarnation
fills stays public and the cover's event tells every player which colour
gained how many pieces (its shape only to that colour's players). Under
obscurity a mover may try every cover the hidden shape could allow, and
"must capture" forces only the captures it sees.

Small cloaked rule sets are played against the reference model
(tests/ttt_reference/) move by move (every player's view of the pieces and
of their shapes, the per-shape reserves and what each player reads of a
reincarnation), with OpenSpiel's random_sim_test, and on hand-played
histories a player cannot, or can, tell apart. Cells are x + X*(y + Y*z)
from 0. Placement ids are (k*P + c)*T + t with k the shape's index in the
rank order among the shapes in play."""

import random

import pytest

import games  # noqa: F401  (registers ttt)
from games.openspiel import core_of
from games.ttt import make_core, rules
from games.ttt.rules import RuleSetError
from tiers import sweep
from ttt_checks import (
    assert_all_differ,
    assert_info_differs,
    assert_is_legal_agrees_with_legal_actions,
    assert_views_partition_histories,
    cells,
    play_against_reference,
    random_sim_test_of,
    views,
)
from ttt_checks import cloaked_rule_set as _rs
from ttt_checks import state_after as state

MUST = {"power": "must-capture", "condition": "cover", "result": "removes"}
CAN = {"power": "can-capture", "condition": "cover", "result": "removes"}
RANK = {"power": "can-capture", "condition": "cover-by-rank", "result": "removes"}
RANK_MUST = {"power": "must-capture", "condition": "cover-by-rank", "result": "removes"}
MUST_R = {"power": "must-capture", "condition": "cover", "result": "reincarnates"}
CAN_R2 = {"power": "can-capture", "condition": "cover", "result": "reincarnates-x2"}
RANK_R = {"power": "can-capture", "condition": "cover-by-rank", "result": "reincarnates"}
RANK_R2 = {"power": "can-capture", "condition": "cover-by-rank", "result": "reincarnates-x2"}
RANK_RM = {"power": "can-capture", "condition": "cover-by-rank", "result": "removes"}

#: histories replayed per rule set when checking the partition into information sets
PARTITION_GAMES = sweep(full=12, quick=2)


# -- covers that remove -------------------------------------------------------------------------


def capture_cases():
    """Small cloaked rule sets with captures, each exercising one part."""
    out = []
    add = lambda name, **kw: out.append(_rs(name, **kw))
    # a must-capture pentagon hunting stationary circles on an all-cloaked board
    add(
        "cc-hunt",
        reserves={"black": {"pentagon": 1}, "white": {"circle": 2}},
        shapes={"pentagon": dict(MUST, move="adjacent"), "circle": {}},
        move_limit=14,
        phases=[{"cloaked": cells(3, 3), "pass": True}],
    )
    # both sides capture; circles without power are captured when they cover a pentagon,
    # and cannot cover each other (an attempt); an open middle column
    add(
        "cc-both",
        board={"kind": "squares", "size": [4, 3, 1]},
        reserves={"black": {"pentagon": 1, "circle": 2}, "white": {"pentagon": 1, "circle": 2}},
        shapes={"pentagon": dict(MUST, move="adjacent"), "circle": {"move": "adjacent-or-knight"}},
        move_limit=24,
        phases=[{"cloaked": [c for c in cells(4, 3) if c[0] in (1, 4)], "pass": True}],
    )
    # cover by rank: equal shapes destroy each other, x over circle, circle over pentagon
    add(
        "cc-rank",
        board={"kind": "squares", "size": [4, 3, 1]},
        reserves={
            "black": {"x": 1, "circle": 1, "pentagon": 1},
            "white": {"x": 1, "circle": 1, "pentagon": 1},
        },
        shapes={
            "x": dict(RANK, move="adjacent"),
            "circle": dict(RANK, move="adjacent"),
            "pentagon": dict(RANK, move="adjacent-or-knight"),
        },
        move_limit=24,
        phases=[{"cloaked": cells(4, 3), "pass": True}],
    )
    # three players, placement then movement with other cloaked spaces
    add(
        "cc-three",
        players="3",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"pentagon": 1, "circle": 1}, "white": {"circle": 2}, "pink": {"pentagon": 1}},
        shapes={"pentagon": dict(MUST, move="adjacent"), "circle": {"move": "adjacent-or-knight"}},
        move_limit=24,
        stalemate="most-circles-wins",
        phases=[
            {"movement": "placement-only", "cloaked": [c for c in cells(4, 4) if c[1] <= 2]},
            {"pass": True, "cloaked": [c for c in cells(4, 4) if c[0] <= 2]},
        ],
    )
    # Chaos with a pre-placed must-capture pentagon in an open ring, players hidden inside
    add(
        "cc-chaos",
        players="2-vs-chaos",
        board={
            "kind": "squares",
            "size": [4, 4, 1],
            "pieces": [{"at": [1, 1, 1], "colour": "pink", "shape": "pentagon"}],
        },
        reserves={"black": {"circle": 2}, "white": {"circle": 1, "pentagon": 1}},
        shapes={"pentagon": dict(MUST, move="adjacent"), "circle": {"move": "adjacent-or-knight"}},
        move_limit=20,
        phases=[{"pass": True, "cloaked": [[x, y, 1] for x in (2, 3) for y in (2, 3)]}],
    )
    # can capture (no forcing), a knight move onto a hidden piece
    add(
        "cc-can",
        board={"kind": "squares", "size": [3, 4, 1]},
        reserves={"black": {"star": 1, "circle": 1}, "white": {"circle": 2}},
        shapes={"star": dict(CAN, move="adjacent-or-knight"), "circle": {"move": "adjacent"}},
        move_limit=20,
        phases=[{"pass": True, "cloaked": cells(3, 4)}],
    )
    return out


CAPTURE_CASES = capture_cases()


@pytest.mark.parametrize("rs", CAPTURE_CASES, ids=lambda r: r.name)
def test_cloaked_captures_match_reference(rs):
    play_against_reference(rs, games=sweep(full=25, quick=3), seed=7, shape_views=True)


@pytest.mark.slow
@pytest.mark.parametrize("rs", CAPTURE_CASES, ids=lambda r: r.name)
def test_cloaked_captures_match_reference_long(rs):
    play_against_reference(rs, games=300, seed=11, shape_views=True)


@pytest.mark.parametrize("rs", CAPTURE_CASES, ids=lambda r: r.name)
def test_random_sim_test_on_cloaked_captures(rs, tmp_path):
    random_sim_test_of(rs, tmp_path)


@pytest.mark.parametrize("rs", CAPTURE_CASES[:3], ids=lambda r: r.name)
def test_is_legal_agrees_with_legal_actions_on_cloaked_captures(rs):
    assert_is_legal_agrees_with_legal_actions(rs, games=sweep(full=3, quick=2))


# -- what each player knows: histories it cannot, or can, tell apart ------------

HUNT = CAPTURE_CASES[0]  # 3x3, all cloaked; circle placements t, pentagon 9 + t

HUNT_OPEN_ROW = _rs(
    "cc-hunt-open-row",
    reserves={"black": {"pentagon": 1}, "white": {"circle": 2}},
    shapes={"pentagon": dict(MUST, move="adjacent"), "circle": {}},
    move_limit=14,
    phases=[{"cloaked": [c for c in cells(3, 3) if c[1] >= 2], "pass": True}],
)

HUNT_THREE = _rs(
    "cc-three-hand",
    players="3",
    reserves={"black": {"pentagon": 1}, "white": {"circle": 1}, "pink": {"circle": 1}},
    shapes={"pentagon": dict(MUST, move="adjacent"), "circle": {}},
    move_limit=14,
    phases=[{"cloaked": cells(3, 3), "pass": True}],
)

MOVE0, PASS = 18, 99  # on 3x3 with circle and pentagon: moves 18 + f*9 + u, then the pass


def test_an_invisible_capture_does_not_force():
    # black's pentagon on (1,1); white's circle beside it on (2,1) or far away on (3,3):
    # black sees neither, so both histories look the same and allow the same actions,
    # non-captures and the pass included, although in truth a capture exists in the first
    near, far = state(HUNT, 9, 1), state(HUNT, 9, 8)
    assert views(near, 0) == views(far, 0)
    assert near.legal_actions() == far.legal_actions() == [MOVE0 + 1, MOVE0 + 3, MOVE0 + 4, PASS]
    assert_all_differ(views(near, 1), views(far, 1))  # white placed them: it can tell


def test_a_visible_capture_forces():
    # (2,1) is open in this rule set: black sees the circle there, must capture, may not pass
    seen, hidden = state(HUNT_OPEN_ROW, 9, 1), state(HUNT_OPEN_ROW, 9, 4)
    assert seen.legal_actions() == [MOVE0 + 1]
    assert hidden.legal_actions() == [MOVE0 + 1, MOVE0 + 3, MOVE0 + 4, PASS]


def test_moving_onto_a_hidden_piece_that_can_be_covered_captures_it():
    s = state(HUNT, 9, 1, MOVE0 + 1)  # black's pentagon moves onto white's hidden circle
    assert core_of(s).cells()[1] == 1 and core_of(s).cells()[0] == 0
    assert "capturing the piece there" in s.information_state_string(0)
    assert "the piece player 1 saw on (2,1,1) is gone" in s.information_state_string(1)
    plain = state(HUNT, 9, 8, MOVE0 + 1)  # the same move onto an empty space
    assert "capturing" not in plain.information_state_string(0)
    assert_info_differs(views(s, 0), views(plain, 0))  # the pentagon stands on (2,1) in both
    assert_all_differ(views(s, 1), views(plain, 1))


def test_a_piece_without_power_covering_a_hidden_pentagon_is_captured_and_reveals_it():
    # white places a circle on the space that looks empty but holds black's pentagon:
    # the cover is legal in truth ("become captured by covering a higher-ranked piece"),
    # so it happens; white "attempted to cover" the pentagon and now sees it
    s = state(HUNT, 9, 0)
    core = core_of(s)
    assert core.cells()[0] == 1 and core.reserves()["white"] == 1
    assert core.player_view(1)[0] == "x"
    assert "and was captured there" in s.information_state_string(1)
    # black sees its pentagon stay and nothing of the attacker: the same as a hidden placement
    elsewhere = state(HUNT, 9, 5)
    assert views(s, 0) == views(elsewhere, 0)
    assert_all_differ(views(s, 1), views(elsewhere, 1))


def test_a_third_player_cannot_tell_a_hidden_capture_from_a_hidden_move():
    captured, moved = state(HUNT_THREE, 9, 1, 8, MOVE0 + 1), state(HUNT_THREE, 9, 1, 8, MOVE0 + 3)
    assert views(captured, 2) == views(moved, 2)  # pink saw neither piece
    assert_all_differ(views(captured, 1), views(moved, 1))  # white saw its circle go
    assert_all_differ(views(captured, 0), views(moved, 0))  # black knows it captured (and where it stands)


@pytest.mark.parametrize("rs", CAPTURE_CASES, ids=lambda r: r.name)
def test_views_partition_histories_with_cloaked_captures(rs):
    assert_views_partition_histories(rs, range(PARTITION_GAMES))


# -- replacement shapes with cloaked spaces (a move reaching the goal names the
# shape its piece becomes) ----------------------------------------------------------


def goal_cases():
    out = []
    add = lambda name, **kw: out.append(_rs(name, **kw))
    fwd = {"move": "forward-orthogonal"}
    add(
        "cc-goal-hides",
        board={"kind": "squares", "size": [3, 4, 1]},
        reserves={"black": {"triangle": 2}, "white": {"triangle": 2}},
        shapes={"triangle": fwd, "pentagon": {"move": "adjacent"}, "star": {"move": "adjacent-or-knight"}},
        move_limit=30,
        phases=[{"pass": True, "cloaked": [c for c in cells(3, 4) if c[1] in (1, 2, 4)]}],
    )
    add(
        "cc-goal-obscures",
        board={"kind": "squares", "size": [3, 4, 1]},
        cloaking="obscures",
        reserves={"black": {"triangle": 2}, "white": {"triangle": 2}},
        shapes={"triangle": fwd, "pentagon": {"move": "adjacent"}, "star": {"move": "adjacent-or-knight"}},
        move_limit=30,
        phases=[{"pass": True, "cloaked": cells(3, 4)}],
    )
    add(
        "cc-goal-captures",
        board={"kind": "squares", "size": [3, 4, 1]},
        reserves={"black": {"triangle": 2, "pentagon": 1}, "white": {"triangle": 2, "pentagon": 1}},
        shapes={"triangle": dict(CAN, move="forward-orthogonal"), "pentagon": dict(MUST, move="adjacent")},
        move_limit=30,
        phases=[{"pass": True, "cloaked": cells(3, 4)}],
    )
    add(
        "cc-goal-no-back",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"cross": 2}, "white": {"cross": 2}},
        shapes={
            "cross": {"move": "linear", "cannot_move_backwards": True},
            "circle": {"move": "knight-2x1x0"},
        },
        move_limit=30,
        phases=[{"pass": True, "cloaked": [c for c in cells(4, 4) if c[0] >= 2]}],
    )
    return out


GOAL_CASES = goal_cases()


@pytest.mark.parametrize("rs", GOAL_CASES, ids=lambda r: r.name)
def test_replacements_match_reference(rs):
    played = play_against_reference(rs, games=sweep(full=40, quick=5), seed=13, shape_views=True)
    core = make_core(rs)
    assert any("becomes" in core.action_string(0, a) for a in played)  # replacements were played


@pytest.mark.parametrize("rs", GOAL_CASES, ids=lambda r: r.name)
def test_replacements_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path)


@pytest.mark.parametrize("rs", GOAL_CASES, ids=lambda r: r.name)
def test_replacements_views_partition_histories_consistently(rs):
    assert_views_partition_histories(rs, range(PARTITION_GAMES))


def test_obscurity_hides_the_shape_a_piece_becomes():
    # 3x4, shapes in rank order: triangle (k 0), star (k 1), pentagon (k 2); T 12;
    # placements (k*1 + 0)*12 + t, moves 36 + f*12 + u, replacement moves
    # 36 + 144 + (r*12 + f)*12 + u with replacers star (r 0), pentagon (r 1)
    rs = GOAL_CASES[1]
    T, REP = 12, 36 + 144  # moves from 36, replacement moves from 36 + 144
    # black triangles on (1,3) and (3,1)... white's on (3,2) and (2,1): then black moves (1,3) -> (1,4)
    start = [0 * T + 6, 0 * T + 4, 0 * T + 2, 0 * T + 1]
    as_star = state(rs, *start, REP + (0 * T + 6) * T + 9)
    as_pentagon = state(rs, *start, REP + (1 * T + 6) * T + 9)
    assert core_of(as_star).player_shape_view(1)[9] == "?"
    assert views(as_star, 1) == views(as_pentagon, 1)  # white sees the move, not the shape
    assert "(1,3,1)->(1,4,1) (shape not seen)" in as_star.information_state_string(1)
    assert_info_differs(views(as_star, 0), views(as_pentagon, 0))  # black chose


# -- covers that reincarnate -------------------------------------------------------


def reincarnation_cases():
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


REINCARNATION_CASES = reincarnation_cases()


def same_reserves_and_gains(core, ref):
    """The per-shape reserves, and what every player reads of the last
    event's reincarnation, engine against reference."""
    assert core.shape_reserves() == {ref.colours[c]: d for c, d in enumerate(ref.sres)}, core.to_string()
    n = core.event_count()
    for p in range(core.num_players):
        got = core.reincarnation_text(p, n - 1) if n else ""
        assert got == ref.gain_text(p), (p, core.to_string())


@pytest.mark.parametrize("rs", REINCARNATION_CASES, ids=lambda r: r.name)
def test_cloaked_reincarnations_match_reference(rs):
    played = play_against_reference(
        rs, games=sweep(full=30, quick=4), seed=7, check=same_reserves_and_gains, shape_views=True
    )
    assert played


@pytest.mark.slow
@pytest.mark.parametrize("rs", REINCARNATION_CASES, ids=lambda r: r.name)
def test_cloaked_reincarnations_match_reference_long(rs):
    play_against_reference(rs, games=300, seed=11, check=same_reserves_and_gains, shape_views=True)


def test_reincarnations_happen_in_the_cases():
    """The random games above do reach hidden reincarnations (x1 and x2)."""
    counts = set()
    for rs in REINCARNATION_CASES:
        rng = random.Random(3)
        for _ in range(30):  # every tier: the games must reach both counts
            core = make_core(rs)
            while not core.terminal():
                acts = (
                    [a for a, _ in core.chance_outcome_list()]
                    if core.player() == -1
                    else core.legal_action_list()
                )
                core.apply_action(rng.choice(acts))
                got = core.event_reincarnation(core.event_count() - 1)
                if got is not None:
                    counts.add(got[1])
    assert counts == {1, 2}


@pytest.mark.parametrize("rs", REINCARNATION_CASES, ids=lambda r: r.name)
def test_random_sim_test_on_cloaked_reincarnations(rs, tmp_path):
    random_sim_test_of(rs, tmp_path)


@pytest.mark.parametrize("rs", REINCARNATION_CASES[:2], ids=lambda r: r.name)
def test_is_legal_agrees_with_legal_actions_on_cloaked_reincarnations(rs):
    assert_is_legal_agrees_with_legal_actions(rs, games=sweep(full=3, quick=2))


# -- reincarnation: what each player learns of a hidden capture ---------------------

# 3x3, all cloaked; shapes circle (k 0), triangle (k 1), pentagon (k 2): placements
# k*9 + t, moves 27 + f*9 + u, pass 108
GAINS = _rs(
    "cc2-three-hand",
    players="3",
    reserves={"black": {"pentagon": 1}, "white": {"circle": 1, "triangle": 1}, "pink": {"circle": 1}},
    shapes={"pentagon": dict(MUST_R, move="adjacent"), "circle": {}, "triangle": {}},
    move_limit=14,
    phases=[{"cloaked": cells(3, 3), "pass": True}],
)

R_CIRCLE, R_TRIANGLE, R_PENTAGON, R_MOVE0 = 0, 9, 18, 27


def test_every_player_learns_that_a_hidden_capture_reincarnated():
    # black's pentagon (1,1) takes white's hidden circle on (2,1), or moves to (2,1) while
    # the circle stands on (3,3): pink saw neither piece, but black's reserve (public) grew
    captured = state(GAINS, R_PENTAGON + 0, R_CIRCLE + 1, R_CIRCLE + 8, R_MOVE0 + 1)
    moved = state(GAINS, R_PENTAGON + 0, R_CIRCLE + 7, R_CIRCLE + 8, R_MOVE0 + 1)
    assert core_of(captured).reserves()["black"] == 1 and core_of(moved).reserves()["black"] == 0
    assert "black's reserve gains 1 (reincarnated)" in captured.information_state_string(2)
    assert "black's reserve gains 1 circle (reincarnated)" in captured.information_state_string(0)
    for p in range(3):
        assert_info_differs(views(captured, p), views(moved, p))


def test_where_the_capture_happened_stays_hidden():
    # the same capture on (2,1) or on (1,2): pink cannot tell them apart, white can
    east = state(GAINS, R_PENTAGON + 0, R_CIRCLE + 1, R_CIRCLE + 8, R_MOVE0 + 1)
    north = state(GAINS, R_PENTAGON + 0, R_CIRCLE + 3, R_CIRCLE + 8, R_MOVE0 + 3)
    assert views(east, 2) == views(north, 2)
    assert_info_differs(views(east, 1), views(north, 1))
    assert_info_differs(views(east, 0), views(north, 0))


def test_the_reincarnated_shape_is_told_only_to_the_captor_colour():
    # white's hidden circle or triangle is taken: black (whose per-shape reserve shows it)
    # learns which, pink (who knows only black's total) does not
    circle = state(GAINS, R_PENTAGON + 0, R_CIRCLE + 1, R_CIRCLE + 8, R_MOVE0 + 1)
    triangle = state(GAINS, R_PENTAGON + 0, R_TRIANGLE + 1, R_CIRCLE + 8, R_MOVE0 + 1)
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
    taken = state(GAINS, R_PENTAGON + 0, R_TRIANGLE + 4, R_CIRCLE + 0)
    elsewhere = state(GAINS, R_PENTAGON + 0, R_TRIANGLE + 4, R_CIRCLE + 8)
    assert core_of(taken).shape_reserves()["black"] == {"circle": 1, "triangle": 0, "pentagon": 0}
    assert "black's reserve gains 1 circle (reincarnated)" in taken.information_state_string(0)
    assert "and was captured there; black's reserve gains 1 (reincarnated)" in taken.information_state_string(
        2
    )
    for p in range(3):
        assert_info_differs(views(taken, p), views(elsewhere, p))
    # white's circle or triangle placed on the pentagon and captured: black's reserve shows
    # the shape, so black tells them apart; pink, who sees black's total only, does not
    by_circle = state(GAINS, R_PENTAGON + 0, R_CIRCLE + 0)
    by_triangle = state(GAINS, R_PENTAGON + 0, R_TRIANGLE + 0)
    assert_info_differs(views(by_circle, 0), views(by_triangle, 0))
    assert views(by_circle, 2) == views(by_triangle, 2)


@pytest.mark.parametrize("rs", REINCARNATION_CASES + [GAINS], ids=lambda r: r.name)
def test_views_partition_histories_with_cloaked_reincarnations(rs):
    assert_views_partition_histories(rs, range(PARTITION_GAMES))


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
    play_against_reference(
        rs, games=sweep(full=30, quick=4), seed=7, check=same_reserves_and_gains, shape_views=True
    )


@pytest.mark.slow
@pytest.mark.parametrize("rs", OBSCURE, ids=lambda r: r.name)
def test_obscurity_matches_reference_long(rs):
    play_against_reference(rs, games=300, seed=11, check=same_reserves_and_gains, shape_views=True)


@pytest.mark.parametrize("rs", OBSCURE, ids=lambda r: r.name)
def test_obscurity_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path)


@pytest.mark.parametrize("rs", OBSCURE, ids=lambda r: r.name)
def test_obscurity_views_partition_histories_consistently(rs):
    assert_views_partition_histories(rs, range(PARTITION_GAMES))


def test_obscurity_is_legal_agrees_with_legal_actions():
    assert_is_legal_agrees_with_legal_actions(OBSCURE[2], games=sweep(full=3, quick=2))


def test_obscurity_cases_reach_every_verdict_and_attempts():
    seen = set()
    for rs in OBSCURE:
        for g in range(30):  # every tier: the games must reach every verdict
            rng, core = random.Random(g), make_core(rs)
            while not core.terminal():
                acts = (
                    [a for a, _ in core.chance_outcome_list()]
                    if core.player() == -1
                    else core.legal_action_list()
                )
                core.apply_action(rng.choice(acts))
                n = core.event_count()
                seen.add(core.event_cover(n - 1)[0])
                seen.add("attempt" if core.event(n - 1)[2] else "")
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


# -- validation: what stays refused, every problem at once ------------------------


def test_validation_plays_cloaked_covers_on_stacks_and_in_rounds():
    """Reincarnation and obscurity with cloaked captures are played (the rule
    sets above parse), on stacks and in simultaneous or single phases too
    (tests/test_ttt_cloaking_stack_captures.py, tests/test_ttt_cloaking_round_covers.py);
    jumps and surrounds in such rounds stay refused."""
    for rs in CAPTURE_CASES + REINCARNATION_CASES:
        assert rs.record["cloaking"] == "hides"
    for rs in OBSCURE:
        assert rs.record["cloaking"] == "obscures"
    record = {
        "name": "ok",
        "board": {"kind": "stacks", "size": [3, 1, 3]},
        "cloaking": "obscures",
        "reserves": {"black": {"x": 2}, "white": {"x": 2}},
        "move_limit": 10,
        "shapes": {"x": {"power": "can-capture", "condition": "cover", "result": "reincarnates"}},
        "phases": [{"cloaked": [[1, 1, 1]], "order": "simultaneous"}],
    }
    assert rules.parse(record).record["cloaking"] == "obscures"
    jumping = dict(record, board={"kind": "squares", "size": [3, 3, 1]})
    jumping["shapes"] = {
        "x": {"power": "can-capture", "condition": "jump", "result": "removes", "move": "adjacent"}
    }
    with pytest.raises(RuleSetError) as e:
        rules.parse(jumping)
    assert "'jump' with cloaked spaces is not supported in a simultaneous or single phase yet" in str(e.value)

"""Shapes and their moves: ranks, per-shape reserves and movement, goal
lines, "cannot move backwards" and the replacement named on reaching the
goal, pre-placed pieces of any shape and colour, and the goal-reached
stalemate (docs/rules/ttt/shapes.md).

The engine is compared move by move with the reference model
(tests/ttt_reference/) on small rule sets written for each rule, and on
Hypothesis-drawn rule sets; every test rule set also goes through
``pyspiel.random_sim_test`` with serialisation. The 16 catalogue games stay
on the original path (test_catalogue_stays_on_original_path). Shapes with
cloaked spaces are test_ttt_cloaking.py's."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ttt import make_core, rules, shape_outranks
from games.ttt.rules import RuleSetError
from games.ttt.schema import SHAPES_ALL, goal_sides, outranks, shaped
from tiers import sweep
from ttt_checks import (
    action_strings,
    assert_is_legal_agrees_with_legal_actions,
    entry_check,
    parsed_or_rejected,
    piece,
    play,
    play_against_reference,
    position,
    power,
    problems,
    random_sim_test_of,
    rule_set,
    same_pieces,
    same_pieces_conserved,
)
from ttt_records import shaped_records, shaped_records_with_spaces

SQUARES_4X4 = {"board": {"kind": "squares", "size": [4, 4, 1]}}


def cases():
    """One small rule set per rule."""
    out = []
    add = lambda name, **kw: out.append(rule_set(name, SQUARES_4X4, **kw))
    # shapes: per-shape per-colour reserves, placement names a shape, moves per shape
    add(
        "two-shapes",
        reserves={"black": {"circle": 2, "pentagon": 1}, "white": {"circle": 2, "x": 1}},
        shapes={"circle": {"move": "adjacent"}, "pentagon": {"move": "linear"}, "x": {}},
        move_limit=30,
    )
    add(
        "six-shapes",
        board={"kind": "squares", "size": [5, 5, 1]},
        reserves={"black": {s: 1 for s in SHAPES_ALL}, "white": {s: 1 for s in SHAPES_ALL}},
        shapes={
            "circle": {"move": "adjacent-orthogonal"},
            "triangle": {"move": "adjacent-diagonal"},
            "x": {"move": "diagonal"},
            "cross": {"move": "orthogonal"},
            "star": {"move": "knight-2x1x0"},
            "pentagon": {"move": "linear-or-knight"},
        },
        turn_checks=["first-4-wins"],
        move_limit=40,
        stalemate="most-stars-wins",
    )
    add(
        "one-pentagon",
        reserves={"black": {"pentagon": 3}, "white": {"pentagon": 3}},
        shapes={"pentagon": {"move": "adjacent"}},
        move_limit=25,
    )
    add(
        "knight3-cube",
        board={"kind": "squares", "size": [3, 3, 3]},
        reserves={"black": {"star": 2, "circle": 2}, "white": {"star": 2, "circle": 2}},
        shapes={"star": {"move": "knight-2x1x1"}, "circle": {"move": "adjacent-diagonal"}},
        move_limit=30,
        turn_checks=["first-3-wins-no-diagonal"],
    )
    add(
        "alquerque-shapes",
        board={"kind": "squares", "size": [3, 3, 1]},
        reserves={"black": {"circle": 2, "cross": 1}, "white": {"circle": 2, "cross": 1}},
        shapes={"circle": {"move": "adjacent-alquerque"}, "cross": {"move": "orthogonal"}},
        move_limit=30,
    )
    add(
        "stacks-shapes",
        board={"kind": "stacks", "size": [4, 1, 3]},
        reserves={"black": {"circle": 3, "triangle": 2}, "white": {"circle": 3, "triangle": 2}},
        shapes={"circle": {"move": "linear"}, "triangle": {"move": "adjacent"}},
        move_limit=30,
        turn_checks=["first-3-wins"],
    )
    add(
        "choose-shapes",
        colours="players-choose",
        board={"kind": "squares", "size": [3, 3, 1]},
        reserves={"black": {"circle": 2, "x": 1}, "pink": {"x": 2}},
        shapes={"circle": {"move": "adjacent"}, "x": {"move": "diagonal"}},
        move_limit=20,
        agree_draw=True,
    )
    add(
        "chaos-shapes",
        players="2-vs-chaos",
        board={"kind": "squares", "size": [4, 3, 1]},
        reserves={
            "black": {"circle": 2, "star": 1},
            "white": {"circle": 2, "star": 1},
            "pink": {"pentagon": 2},
        },
        shapes={"circle": {"move": "adjacent"}, "star": {}, "pentagon": {"move": "linear"}},
        move_limit=30,
        stalemate="most-circles-wins",
        chaos_wins_if_more_than={"pentagon": 1},
    )
    add(
        "phases-shapes",
        players="3",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"cross": 2, "x": 1}, "white": {"cross": 2}, "pink": {"x": 2}},
        shapes={"cross": {"move": "orthogonal"}, "x": {"move": "diagonal"}},
        move_limit=40,
        phases=[{"movement": "placement-only", "pass": True}, {"pass": True, "locked": [[2, 2, 1]]}],
        stalemate="least-crosses-loses",
    )
    # movement relative to goals: forward moves, cannot move backwards, replacement
    add(
        "forward-2p",
        board={"kind": "squares", "size": [3, 4, 1]},
        reserves={"black": {"triangle": 3}, "white": {"triangle": 3}},
        shapes={"triangle": {"move": "forward-orthogonal"}, "pentagon": {"move": "adjacent"}},
        move_limit=40,
        turn_checks=[],
    )
    add(
        "forward-diag-4p",
        players="4",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={c: {"triangle": 2} for c in ("black", "white", "pink", "yellow")},
        shapes={"triangle": {"move": "forward-diagonal"}, "star": {"move": "adjacent-orthogonal"}},
        move_limit=40,
        turn_checks=[],
    )
    add(
        "no-back-linear",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"cross": 2, "circle": 1}, "white": {"cross": 2, "circle": 1}},
        shapes={
            "cross": {"move": "linear", "cannot_move_backwards": True},
            "circle": {"move": "knight-2x1x0"},
        },
        move_limit=40,
        turn_checks=["first-3-wins"],
    )
    add(
        "row-goals",
        board={"kind": "squares", "size": [6, 1, 1]},
        reserves={"black": {"triangle": 2}, "white": {"triangle": 2}},
        shapes={"triangle": {"move": "forward-orthogonal"}, "x": {"move": "adjacent"}},
        move_limit=30,
        turn_checks=[],
    )
    # pre-placed pieces of any shape and colour, communal colours included
    add(
        "preplaced",
        players="2",
        board={
            "kind": "squares",
            "size": [4, 4, 1],
            "pieces": [
                {"at": [1, 1, 1], "colour": "yellow", "shape": "pentagon"},
                {"at": [2, 2, 1], "colour": "pink", "shape": "circle"},
                {"at": [4, 4, 1], "colour": "black", "shape": "star"},
                {"at": [3, 1, 1], "colour": "white", "shape": "x"},
            ],
        },
        reserves={"black": {"circle": 2}, "white": {"circle": 2}},
        shapes={
            "circle": {"move": "adjacent"},
            "pentagon": {},
            "star": {"move": "linear"},
            "x": {"move": "adjacent"},
        },
        move_limit=30,
        stalemate="most-pieces-wins",
    )
    # goal-reached stalemate with phases and with a last phase
    add(
        "goal-stalemate",
        players="3-vs-chaos",
        board={"kind": "squares", "size": [5, 5, 1]},
        reserves={
            "black": {"circle": 1},
            "white": {"circle": 1},
            "pink": {"circle": 1},
            "yellow": {"pentagon": 1},
        },
        shapes={"circle": {"move": "adjacent"}, "pentagon": {"move": "adjacent"}},
        turn_checks=["goal-reached-stalemate"],
        stalemate="most-circles-wins",
        move_limit=40,
        phases=[{"movement": "placement-only"}, {"pass": True}],
    )
    add(
        "goal-stalemate-phases",
        board={"kind": "squares", "size": [3, 3, 1]},
        reserves={"black": {"circle": 2}, "white": {"circle": 2}},
        shapes={"circle": {"move": "linear"}},
        turn_checks=["goal-reached-stalemate", "first-3-wins"],
        move_limit=40,
        phases=[{}, {"pass": True}, {}],
        stalemate="most-in-a-row-wins",
    )
    # boards and spaces with shapes
    add(
        "boards-shapes",
        boards=2,
        board={
            "kind": "squares",
            "size": [3, 3, 1],
            "pieces": [{"at": [2, 2, 1], "colour": "white", "shape": "star"}],
        },
        reserves={"black": {"circle": 3, "star": 1}, "white": {"circle": 3}},
        shapes={
            "circle": {"move": "adjacent"},
            "star": {"move": "forward-orthogonal"},
            "x": {"move": "adjacent"},
        },
        move_limit=30,
    )
    add(
        "spaces-shapes",
        board={
            "kind": "squares",
            "size": [3, 3, 1],
            "sticky": [[2, 2, 1]],
            "exclusive": [{"at": [[1, 1, 1]], "players": [1]}],
        },
        reserves={"black": {"circle": 2, "triangle": 1}, "white": {"circle": 2, "triangle": 1}},
        shapes={"circle": {"move": "adjacent"}, "triangle": {"move": "orthogonal"}},
        move_limit=30,
    )
    return out


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_shape_rule_sets_match_reference(rs):
    assert shaped(rs.record)
    play_against_reference(rs, games=sweep(full=40, quick=5), seed=sum(map(ord, rs.name)), check=same_pieces)


@pytest.mark.slow
@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_shape_rule_sets_match_reference_long(rs):
    play_against_reference(rs, games=600, seed=11)


def test_rank_order():
    """pentagon > star > cross > X > triangle > circle, except that circle
    outranks pentagon (and only pentagon); the engine's copy agrees."""
    ladder = ["circle", "triangle", "x", "cross", "star", "pentagon"]
    for i, a in enumerate(ladder):
        for j, b in enumerate(ladder):
            expect = (a, b) == ("circle", "pentagon") or (i > j and (a, b) != ("pentagon", "circle"))
            assert outranks(a, b) == expect, (a, b)
            assert shape_outranks(SHAPES_ALL.index(a), SHAPES_ALL.index(b)) == expect, (a, b)
    assert not outranks("circle", "star") and outranks("star", "circle")


def test_catalogue_stays_on_original_path():
    """The 16 sequential games (the dilemmas use pentagons and other shapes)."""
    from games.ttt.dilemmas import DILEMMAS, VARIANTS

    dilemmas = {d.name for d in DILEMMAS + VARIANTS}
    for rs in rules.catalogue().values():
        if rs.name in dilemmas:
            continue
        assert not shaped(rs.record), rs.name
        assert not rs.compile()["shaped"]


def test_placement_names_shape_and_identical_piece_rule():
    """Action (k*P + c)*T + t places shape k; a placed piece cannot move while
    an identical piece (colour and shape) is in reserve, but may move while
    only other shapes are."""
    rs = cases()[0]  # two-shapes: circle adjacent, pentagon linear, x stationary
    core = make_core(rs)
    assert core.shape_names() == ["circle", "x", "pentagon"]
    T = 16
    core.apply_action(2 * T + 0)  # black pentagon on (1,1,1)
    assert core.shapes()[0] == "pentagon"
    core.apply_action(0 * T + 15)  # white circle on (4,4,1)
    legal = core.legal_action_list()
    move0 = 3 * T
    assert any(a >= move0 and (a - move0) // T == 0 for a in legal)  # the pentagon moves
    core.apply_action(0 * T + 5)  # black circle
    core.apply_action(0 * T + 10)  # white circle: white holds no more circles
    legal = core.legal_action_list()
    assert not any(a >= move0 and (a - move0) // T == 5 for a in legal)  # a circle is in reserve
    assert core.action_string(0, 2 * T + 3) == "black@(4,1,1) pentagon"


def test_goal_lines_follow_the_specification():
    """Player 1 at y=max (x=1 when max y is 1), player 2 opposite, more players
    counter-clockwise (player 2 at x=1); Chaos has none."""
    assert goal_sides("2", [3, 4, 1]) == [(1, 1), (1, 0)]
    assert goal_sides("2", [6, 1, 1]) == [(0, 0), (0, 1)]
    assert goal_sides("4", [4, 4, 1]) == [(1, 1), (0, 0), (1, 0), (0, 1)]
    assert goal_sides("2-vs-chaos", [4, 4, 1]) == [(1, 1), (1, 0)]
    core = make_core([r for r in cases() if r.name == "forward-diag-4p"][0])
    X = 4
    assert [core.goal_distance(s, 1 + X * 2) for s in range(4)] == [1, 1, 2, 2]


def test_replacement_on_reaching_the_goal():
    """A forward-only triangle reaching its goal row must name a replacement
    shape that can move backwards (the pentagon here), and becomes it."""
    rs = [r for r in cases() if r.name == "forward-2p"][0]
    core = make_core(rs)
    T = 12
    names = core.shape_names()
    assert names == ["triangle", "pentagon"]
    tri = 0
    core.apply_action(tri * T + 6)  # black triangle (1,3,1): one row below y=4
    core.apply_action(tri * T + 0)  # white triangle (1,1,1): on its own goal row (y=1)
    core.apply_action(tri * T + 8)
    core.apply_action(tri * T + 1)
    core.apply_action(tri * T + 7)
    core.apply_action(tri * T + 2)
    legal = core.legal_action_list()
    move0 = 2 * T
    rep0 = move0 + T * T
    assert move0 + 6 * T + 9 not in legal  # reaching y=4 needs a replacement
    assert rep0 + (0 * T + 6) * T + 9 in legal
    core.apply_action(rep0 + (0 * T + 6) * T + 9)
    assert core.shapes()[9] == "pentagon"
    assert core.shape_reserves()["black"] == {"triangle": 0, "pentagon": 0}


def test_goal_reached_stalemate_advances_phase():
    rs = [r for r in cases() if r.name == "goal-stalemate-phases"][0]
    core = make_core(rs)
    T = 9
    core.apply_action(3)  # black (1,2,1)
    core.apply_action(0)  # white (1,1,1)
    core.apply_action(5)  # black (3,2,1)
    core.apply_action(2)  # white (3,1,1)
    assert core.current_phase() == 0
    core.apply_action(T + 3 * T + 6)  # black (1,2,1)->(1,3,1): onto its goal y=3
    assert core.current_phase() == 1


def test_validation_lists_every_shape_problem():
    with pytest.raises(RuleSetError) as e:
        rules.parse(
            {
                "name": "bad",
                "board": {"kind": "squares", "size": [5, 1, 1]},
                "players": "3",
                "reserves": {"black": {"triangle": 1}, "white": {"triangle": 1}, "pink": {"triangle": 1}},
                "shapes": {
                    "triangle": {"move": "forward-orthogonal"},
                    "star": {"move": "stationary", "cannot_move_backwards": True},
                },
                "move_limit": 10,
                "turn_checks": ["goal-reached-stalemate"],
            }
        )
    text = str(e.value)
    assert "shapes.star.cannot_move_backwards: a stationary shape never moves" in text
    assert "goal lines on a board one row deep" in text
    assert "no shape can, so a piece reaching its goal has no replacement" in text
    # "orth-by-stack" is played on stacks (tests/test_ttt_stacks.py)
    assert shaped(
        rules.parse(
            {
                "name": "obs",
                "board": {"kind": "stacks", "size": [3, 1, 3]},
                "reserves": {"black": {"x": 2}, "white": {"x": 2}},
                "shapes": {"x": {"move": "orth-by-stack"}},
                "move_limit": 9,
            }
        ).record
    )
    # moving shapes play in rounds, the goal-reached stalemate too (tests/test_ttt_rounds.py)
    rules.parse(
        {
            "name": "sim",
            "reserves": {"black": {"x": 2}, "white": {"x": 2}},
            "shapes": {"x": {"move": "adjacent"}},
            "move_limit": 9,
            "phases": [{"order": "simultaneous"}],
        }
    )
    rules.parse(
        {
            "name": "sim",
            "reserves": {"black": {"x": 2}, "white": {"x": 2}},
            "shapes": {"x": {"move": "adjacent"}},
            "move_limit": 9,
            "turn_checks": ["goal-reached-stalemate"],
            "phases": [{"order": "simultaneous"}],
        }
    )
    with pytest.raises(RuleSetError, match="cannot_move_backwards: 'yes' is not allowed"):
        rules.parse(
            {
                "name": "b",
                "reserves": {"black": 2, "white": 2},
                "shapes": {"circle": {"move": "adjacent", "cannot_move_backwards": "yes"}},
                "move_limit": 5,
            }
        )


def test_canonical_form_keeps_old_fingerprints():
    """cannot_move_backwards is written only when true; a rule set that differs
    only by it is a different rule set."""
    a = rule_set(
        "a",
        SQUARES_4X4,
        reserves={"black": {"x": 2}, "white": {"x": 2}},
        shapes={"x": {"move": "adjacent"}, "circle": {"move": "adjacent"}},
        move_limit=9,
    )
    b = rule_set(
        "b",
        SQUARES_4X4,
        reserves={"black": {"x": 2}, "white": {"x": 2}},
        shapes={"x": {"move": "adjacent", "cannot_move_backwards": True}, "circle": {"move": "adjacent"}},
        move_limit=9,
    )
    assert "cannot_move_backwards" not in a.canonical and a != b
    assert (
        rule_set("c", SQUARES_4X4, reserves={"black": 2, "white": 2}).canonical
        == rule_set("d", SQUARES_4X4, reserves={"black": {"circle": 2}, "white": {"circle": 2}}).canonical
    )


# -- the move "adjacent-or-knight" ------------------------------------------------

KNIGHTS = rule_set(
    "aok-5x5",
    {"board": {"kind": "squares", "size": [5, 5, 1]}, "stalemate": "most-pieces-wins"},
    reserves={"black": {"circle": 2}, "white": {"circle": 2}},
    shapes={"circle": {"move": "adjacent-or-knight"}},
    move_limit=30,
    turn_checks=["first-3-wins"],
)


def test_adjacent_or_knight_is_the_union_of_the_two_moves():
    from games.ttt.schema import MOVES_NOW

    assert "adjacent-or-knight" in MOVES_NOW
    core = make_core(KNIGHTS)
    T = 25
    core.apply_action(12)  # black on the centre
    core.apply_action(0)  # white in a corner
    core.apply_action(24)
    core.apply_action(4)  # both have no circle left: moves
    moves = {a - T for a in core.legal_action_list() if T <= a < T + T * T}  # one shape: moves from T
    centre = sorted(u for f, u in (divmod(m, T) for m in moves) if f == 12)
    around = {12 + dx + 5 * dy for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)}
    jumps = {
        12 + dx + 5 * dy
        for dx, dy in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
    }
    assert centre == sorted(around | jumps)  # 8 steps and 8 jumps, all free
    corner = sorted(u for f, u in (divmod(m, T) for m in moves) if f == 24)
    assert corner == sorted({18, 19, 23} | {13, 17})  # from (5,5): 3 steps, 2 jumps (none occupied)


def test_adjacent_or_knight_matches_reference():
    play_against_reference(KNIGHTS, games=sweep(full=20, quick=3), seed=3)


def test_the_factory_offers_adjacent_or_knight():
    from webapp.factory_form import choices, option_label

    assert "adjacent-or-knight" in choices()["moves"]
    assert option_label("move", "adjacent-or-knight") == "Moves adjacent or knight"


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=8, quick=1))


# -- random shaped rule sets ------------------------------------------------------------


@settings(max_examples=sweep(full=60, quick=7), deadline=None, suppress_health_check=list(HealthCheck))
@given(shaped_records_with_spaces(), st.integers(0, 10**6))
def test_random_shaped_rule_sets_match_reference(rec, seed):
    """Move by move the reference model's; counts conserved; every arrival is
    one its mover may make (ttt_checks.entry_check: no piece on a space locked
    for the game or phase, exclusive to others or entry-locked for the mover;
    test_ttt_phases.py shows that check failing on a broken engine)."""
    rs = parsed_or_rejected(rec)
    if not shaped(rs.record):
        return
    conserved, entries = same_pieces_conserved(rs), entry_check(rs)
    play_against_reference(
        rs, games=3, seed=seed, check=lambda core, ref: (conserved(core, ref), entries(core, ref))
    )


@pytest.mark.parametrize("name", ["two-shapes", "forward-2p", "stacks-shapes", "choose-shapes", "row-goals"])
def test_is_legal_agrees_with_legal_actions(name):
    rs = [r for r in cases() if r.name == name][0]
    assert_is_legal_agrees_with_legal_actions(rs, games=sweep(full=5, quick=2), seed=3)


def test_communal_circles_on_the_original_path():
    """A one-circle rule set with communal pre-placed pieces keeps the original
    path (and its action ids); the shapes reference model, which covers the
    one-circle case too, agrees with it move by move."""
    rs = rule_set(
        "communal-circle",
        SQUARES_4X4,
        board={
            "kind": "squares",
            "size": [4, 4, 1],
            "pieces": [{"at": [1, 1, 1], "colour": "yellow"}, {"at": [2, 3, 1], "colour": "pink"}],
        },
        reserves={"black": 4, "white": 4},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=30,
        stalemate="most-pieces-wins",
    )
    assert not shaped(rs.record)
    assert rs.compile()["colour_names"] == ["black", "white", "pink", "yellow"]
    play_against_reference(rs, games=sweep(full=30, quick=4), seed=2)


def test_traditional_board_steps_diagonally_only_along_its_drawn_diagonals():
    # Black 3, 8, 2; White 4, 0, 6; empty 1, 5, 7. Cell 3 is the edge midpoint
    # (1,2,1): on the hash board (king steps) it reaches 1 and 7 diagonally,
    # on the traditional board no diagonal line passes through it.
    opening = [3, 4, 8, 0, 2, 6]
    king = play(make_core("Tapatan"), opening)
    lines = play(make_core(rules.load(rules.EXAMPLES_DIR / "Tapatan-Traditional.json")), opening)
    step = lambda f, u: 9 + f * 9 + u
    assert king.legal_action_list() == sorted(
        [step(3, 1), step(3, 7), step(8, 5), step(8, 7), step(2, 1), step(2, 5)]
    )
    assert lines.legal_action_list() == sorted([step(8, 5), step(8, 7), step(2, 1), step(2, 5)])
    # the centre does step diagonally: White's centre piece to each free corner
    c = play(
        make_core(rules.load(rules.EXAMPLES_DIR / "Tapatan-Traditional.json")), [1, 4, 3, 0, 8, 5, step(8, 7)]
    )
    assert {step(4, 2), step(4, 6), step(4, 8)} <= set(c.legal_action_list())


# -- pieces in the way of line moves ----------------------------------------------------


def _line_moves(value):
    """The ``line_moves`` field, or nothing for the default."""
    return {} if value is None else {"line_moves": value}


def _rook(value, cross, whites):
    """Black's orthogonal cross on (1,1,1) of a 4x4 board, white circles on ``whites``."""
    pieces = [piece((1, 1, 1), "black", "cross")] + [piece(at, "white") for at in whites]
    return position(pieces, {"cross": cross, "circle": {}}, size=(4, 4, 1), **_line_moves(value))


def _along_x(core):
    return sorted(a for a in action_strings(core) if a.startswith("(1,1,1)->") and a.endswith(",1,1)"))


@pytest.mark.parametrize("value", [None, "blocked-by-pieces"])
def test_a_piece_in_the_way_stops_a_line_move_by_default(value):
    """The specification lets moves pass "over/through" locked spaces only: a
    piece on the line ends the move there (no power: it may not land on it)."""
    core = make_core(_rook(value, {"move": "orthogonal"}, [(2, 1, 1)]))
    assert _along_x(core) == []
    assert {"(1,1,1)->(1,2,1)", "(1,1,1)->(1,4,1)"} <= set(action_strings(core))


def test_over_pieces_slides_past_a_piece_in_the_way():
    core = make_core(_rook("over-pieces", {"move": "orthogonal"}, [(2, 1, 1)]))
    assert _along_x(core) == ["(1,1,1)->(3,1,1)", "(1,1,1)->(4,1,1)"]


def test_a_sliding_cover_lands_on_the_first_piece_only_when_pieces_block():
    cover = power("cover", "removes", "orthogonal")
    blocked = make_core(_rook(None, cover, [(2, 1, 1), (4, 1, 1)]))
    over = make_core(_rook("over-pieces", cover, [(2, 1, 1), (4, 1, 1)]))
    assert _along_x(blocked) == ["(1,1,1)->(2,1,1)"]
    assert _along_x(over) == ["(1,1,1)->(2,1,1)", "(1,1,1)->(3,1,1)", "(1,1,1)->(4,1,1)"]


def test_a_stack_holding_a_piece_stops_a_line_move_on_its_top():
    def core(value):
        pieces = [piece((1, 1, 1), "black"), piece((2, 1, 1), "white")]
        shapes = {"circle": {"move": "linear"}}
        return make_core(position(pieces, shapes, size=(4, 1, 2), kind="stacks", **_line_moves(value)))

    moves = lambda value: [a for a in action_strings(core(value)) if a != "pass"]
    assert moves(None) == ["stack(1,1)->stack(2,1)"]
    assert moves("over-pieces") == [
        "stack(1,1)->stack(2,1)",
        "stack(1,1)->stack(3,1)",
        "stack(1,1)->stack(4,1)",
    ]


def test_nine_holes_keeps_moving_to_any_vacant_point():
    """On the original path (one circle, linear-or-knight) the default stops at
    a piece; 9-Holes says "over-pieces", Nine Holes' "move to any vacant point"."""
    assert rules.resolve("9-Holes").record["line_moves"] == "over-pieces"
    pieces = [piece((1, 1, 1), "black"), piece((2, 1, 1), "white")]
    shapes = {"circle": {"move": "linear-or-knight"}}
    blocked = position(pieces, shapes, size=(3, 3, 1))
    over = position(pieces, shapes, size=(3, 3, 1), line_moves="over-pieces")
    assert not shaped(blocked.record)
    assert "(1,1,1)->(3,1,1)" not in action_strings(make_core(blocked))
    assert "(1,1,1)->(3,1,1)" in action_strings(make_core(over))


def test_line_moves_is_validated_and_written_only_when_it_matters():
    base = dict(SQUARES_4X4, reserves={"black": 2, "white": 2}, move_limit=9)
    with pytest.raises(RuleSetError) as info:
        rule_set("bad", base, shapes={"circle": {"move": "linear"}}, line_moves="jumps")
    assert "line_moves: 'jumps' is not allowed (allowed: blocked-by-pieces, over-pieces)" in str(info.value)
    slide = {"circle": {"move": "linear"}}
    default, explicit = (
        rule_set("d", base, shapes=slide),
        rule_set("e", base, shapes=slide, **_line_moves("blocked-by-pieces")),
    )
    over = rule_set("o", base, shapes=slide, line_moves="over-pieces")
    assert "line_moves" not in default.canonical and default == explicit != over
    step = {"circle": {"move": "adjacent"}}
    assert rule_set("s", base, shapes=step, line_moves="over-pieces") == rule_set("t", base, shapes=step)
    cloaked = dict(base, cloaking="hides", phases=[{"cloaked": [[1, 1, 1]]}])
    assert "line_moves" not in rule_set("c", cloaked, shapes=slide).record  # blocking plays with cloaking
    assert (
        rule_set("c", cloaked, shapes=slide, line_moves="over-pieces").record["line_moves"] == "over-pieces"
    )


def line_move_cases():
    """Every line move, with covers, on squares and stacks, under both readings."""
    out = []
    for value in ("blocked-by-pieces", "over-pieces"):
        out.append(
            rule_set(
                f"lines-{value}",
                {"board": {"kind": "squares", "size": [4, 4, 1]}, "stalemate": "most-pieces-wins"},
                reserves={"black": {"cross": 1, "x": 1, "circle": 2}, "white": {"pentagon": 1, "circle": 3}},
                shapes={
                    "circle": {"move": "adjacent"},
                    "x": {"move": "diagonal"},
                    "cross": power("cover", "removes", "orthogonal"),
                    "pentagon": power("cover", "reincarnates", "linear-or-knight"),
                },
                move_limit=30,
                turn_checks=[],
                line_moves=value,
            )
        )
        out.append(
            rule_set(
                f"stack-lines-{value}",
                {"board": {"kind": "stacks", "size": [3, 3, 2]}, "stalemate": "most-pieces-wins"},
                reserves={"black": {"circle": 3, "star": 1}, "white": {"circle": 3, "star": 1}},
                shapes={"circle": {"move": "linear"}, "star": {"move": "orthogonal"}},
                move_limit=30,
                turn_checks=[],
                line_moves=value,
            )
        )
        out.append(
            rule_set(
                f"circles-{value}",
                {"board": {"kind": "squares", "size": [4, 4, 1]}, "stalemate": "most-pieces-wins"},
                reserves={"black": 4, "white": 4},
                shapes={"circle": {"move": "linear-or-knight"}},
                move_limit=30,
                turn_checks=[],
                line_moves=value,
            )
        )
    return out


@pytest.mark.parametrize("rs", line_move_cases(), ids=lambda rs: rs.name)
def test_line_move_readings_match_reference(rs):
    play_against_reference(rs, games=sweep(full=25, quick=3), seed=11)
    assert_is_legal_agrees_with_legal_actions(rs, games=sweep(full=5, quick=1), seed=5)


# -- the rook's move -----------------------------------------------------------------------


ROOK = "rook-orthogonal-castle"


def test_the_rook_slides_along_axes_as_orthogonal_does():
    """ "Rook move orth/castle" (docs/rules/ttt/shapes.md, "Rook move orth/castle"):
    any distance along an axis, stopped by the first piece, a cover on it
    where the power allows; the same destinations as ``orthogonal``."""
    for value in (None, "over-pieces"):
        for whites in ([(2, 1, 1)], [(3, 1, 1), (1, 3, 1)]):
            rook = make_core(_rook(value, {"move": ROOK}, whites))
            orth = make_core(_rook(value, {"move": "orthogonal"}, whites))
            assert action_strings(rook) == action_strings(orth)
    core = make_core(_rook(None, {"move": ROOK}, [(3, 1, 1)]))
    assert _along_x(core) == ["(1,1,1)->(2,1,1)"]
    assert "(1,1,1)->(2,2,1)" not in action_strings(core)  # never along a diagonal
    cover = make_core(_rook(None, power("cover", "removes", ROOK), [(3, 1, 1)]))
    assert _along_x(cover) == ["(1,1,1)->(2,1,1)", "(1,1,1)->(3,1,1)"]


def test_the_rook_move_is_validated_and_offered_by_the_factory():
    from webapp.factory_form import choices, option_label

    found = problems(
        "bad-rook",
        board={"kind": "squares", "size": [3, 3, 1]},
        reserves={"black": {"x": 1}, "white": {"x": 1}},
        shapes={"x": {"move": "rook-orthogonal"}},
    )
    assert any("'rook-orthogonal' is not allowed" in p and ROOK in p for p in found)
    assert ROOK in choices()["moves"]
    assert option_label("move", ROOK) == "Rook move orth/castle"
    slide = {"x": {"move": ROOK}}
    over = rule_set(
        "over",
        SQUARES_4X4,
        reserves={"black": {"x": 1}, "white": {"x": 1}},
        shapes=slide,
        line_moves="over-pieces",
        move_limit=10,
    )
    assert over.record["line_moves"] == "over-pieces"  # a line move: the field is written


def test_the_rook_example_plays_against_the_reference(tmp_path):
    rs = rules.resolve("games/ttt/examples/Rook-Race.json")
    assert rs.record["shapes"]["x"]["move"] == ROOK
    play_against_reference(rs, games=sweep(full=10, quick=2), seed=3)
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=4, quick=1))


@settings(max_examples=sweep(full=40, quick=4), deadline=None, suppress_health_check=list(HealthCheck))
@given(shaped_records(), st.integers(0, 10**6))
def test_random_rule_sets_with_rooks_match_reference(rec, seed):
    """Random shaped rule sets with one shape's move replaced by the rook's:
    move by move the reference model's, pieces conserved."""
    rec["shapes"][sorted(rec["shapes"])[0]]["move"] = ROOK
    rs = parsed_or_rejected(rec)
    conserved = same_pieces_conserved(rs)
    play_against_reference(rs, games=2, seed=seed, check=lambda core, ref: conserved(core, ref))

"""Captures: powers ("Must capture" / "Can capture"), conditions ("Cover"
and "Cover by rank"), and captives removed, converted, reincarnated or
reincarnated x2, on flat boards and on stacks; "must capture" with goal
moves whose replacement captures too; collisions in rounds resolved by rank
(docs/rules/ttt/captures.md, with "A goal move's two captures").
By-stack movers' covers are test_ttt_by_stack_captures.py's, pots
test_ttt_pots.py's.

The engine is compared move by move with the reference model
(tests/ttt_reference/), which has its own rank table and its own reading of
covers; small positions check each rule by hand against the sentences of
the tic-tac-toe variations specification; Hypothesis draws rule sets with
powers; every test rule set goes through ``pyspiel.random_sim_test`` with
serialisation."""

import json

import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ttt import make_core, rules
from games.ttt.rules import RuleSetError
from games.ttt.schema import SHAPES_ALL, duel, outranks, shaped
from tiers import sweep
from ttt_checks import (
    CAN,
    MUST,
    action_strings,
    assert_is_legal_agrees_with_legal_actions,
    cloaked_rule_set,
    parsed_or_rejected,
    piece,
    piece_count,
    play_against_reference,
    position,
    power,
    random_sim_test_of,
    rule_set,
    same_pieces,
)
from ttt_records import capture_records, capture_round_records, goal_records, triagonal_records
from ttt_reference import ReferenceState
from ttt_reference import outranks as reference_outranks

SQUARES_3X3 = {"board": {"kind": "squares", "size": [3, 3, 1]}}


def cases():
    """One small rule set per rule (and a few mixtures)."""
    out = []
    add = lambda name, **kw: out.append(rule_set(name, SQUARES_3X3, **kw))
    add(
        "flat-cover-removes",
        reserves={"black": {"pentagon": 2, "circle": 2}, "white": {"circle": 3, "x": 1}},
        shapes={
            "pentagon": power("cover", "removes", "adjacent"),
            "circle": {},
            "x": power("cover", "removes", "linear"),
        },
        move_limit=30,
    )
    add(
        "flat-cover-reincarnates",
        reserves={"black": {"pentagon": 2, "circle": 2}, "white": {"circle": 3, "x": 1}},
        shapes={
            "pentagon": power("cover", "reincarnates", "adjacent"),
            "circle": {"move": "adjacent"},
            "x": power("cover", "reincarnates-x2", "linear"),
        },
        move_limit=30,
    )
    add(
        "flat-cover-reincarnates-x3",
        reserves={"black": {"pentagon": 2, "circle": 2}, "white": {"circle": 3, "x": 1}},
        shapes={
            "pentagon": power("cover", "reincarnates-x3", "adjacent"),
            "circle": {"move": "adjacent"},
            "x": power("cover", "reincarnates", "linear"),
        },
        move_limit=30,
    )
    add(
        "flat-by-rank",
        board={"kind": "squares", "size": [3, 3, 1]},
        reserves={
            "black": {"circle": 2, "star": 1, "pentagon": 1},
            "white": {"circle": 2, "star": 1, "pentagon": 1},
        },
        shapes={
            "circle": power("cover-by-rank", "removes", "adjacent"),
            "star": power("cover-by-rank", "reincarnates", "adjacent"),
            "pentagon": power("cover-by-rank", "removes", "orthogonal"),
        },
        move_limit=30,
    )
    add(
        "flat-must",
        reserves={"black": {"x": 2, "circle": 2}, "white": {"x": 2, "circle": 2}},
        shapes={"x": power("cover", "removes", "adjacent", MUST), "circle": {"move": "adjacent"}},
        move_limit=30,
        phases=[{"pass": True}],
    )
    add(
        "flat-mixed-classes",
        board={"kind": "squares", "size": [4, 3, 1]},
        reserves={"black": {"circle": 2, "cross": 1, "x": 1}, "white": {"circle": 2, "cross": 1, "x": 1}},
        shapes={
            "circle": {"move": "adjacent"},
            "cross": power("cover-by-rank", "removes", "linear", MUST),
            "x": power("cover", "reincarnates", "knight-2x1x0"),
        },
        move_limit=40,
    )
    add(
        "stack-cover-converts",
        board={"kind": "stacks", "size": [3, 1, 4]},
        reserves={"black": {"pentagon": 2, "circle": 3}, "white": {"circle": 3, "x": 2}},
        shapes={"pentagon": power("cover", "converts"), "circle": {}, "x": power("cover", "reincarnates-x2")},
        move_limit=30,
    )
    add(
        "stack-by-rank",
        board={"kind": "stacks", "size": [3, 1, 4]},
        reserves={
            "black": {"pentagon": 1, "x": 1, "circle": 2},
            "white": {"pentagon": 1, "x": 1, "circle": 2},
        },
        shapes={
            "pentagon": power("cover-by-rank", "converts"),
            "x": power("cover-by-rank", "removes"),
            "circle": power("cover-by-rank", "reincarnates-x2"),
        },
        move_limit=30,
    )
    add(
        "stack-moves",
        board={"kind": "stacks", "size": [4, 1, 3]},
        reserves={"black": {"triangle": 2, "star": 1}, "white": {"triangle": 2, "star": 1}},
        shapes={"triangle": {"move": "adjacent"}, "star": power("cover", "converts", "linear", MUST)},
        move_limit=30,
        turn_checks=["first-3-wins"],
    )
    add(
        "stack-locked-cell",
        board={
            "kind": "stacks",
            "size": [3, 1, 4],
            "locked": [[2, 1, 2]],
            "pieces": [{"at": [2, 1, 1], "colour": "white", "shape": "x"}],
        },
        reserves={"black": {"pentagon": 2, "circle": 2}, "white": {"circle": 2, "x": 1}},
        shapes={"pentagon": power("cover", "removes"), "circle": {}, "x": power("cover", "reincarnates")},
        move_limit=20,
    )
    add(
        "needy-trust-like",
        board={
            "kind": "stacks",
            "size": [3, 1, 5],
            "pieces": [
                {"at": [1, 1, 1], "colour": "white", "shape": "x"},
                {"at": [2, 1, 1], "colour": "black", "shape": "pentagon"},
            ],
        },
        reserves={"black": {"circle": 2}},
        phases=[{"pass": True}],
        move_limit=20,
        shapes={"circle": {}, "pentagon": power("cover", "converts"), "x": power("cover", "reincarnates-x2")},
    )
    add(
        "three-players-communal",
        players="3",
        board={
            "kind": "squares",
            "size": [4, 4, 1],
            "pieces": [
                {"at": [2, 2, 1], "colour": "yellow", "shape": "star"},
                {"at": [3, 3, 1], "colour": "yellow", "shape": "circle"},
            ],
        },
        reserves={
            "black": {"star": 1, "circle": 2},
            "white": {"star": 1, "circle": 2},
            "pink": {"circle": 3},
        },
        shapes={
            "star": power("cover-by-rank", "reincarnates", "diagonal"),
            "circle": power("cover-by-rank", "removes", "adjacent"),
        },
        move_limit=30,
    )
    add(
        "chaos-captures",
        players="2-vs-chaos",
        board={"kind": "stacks", "size": [3, 1, 3]},
        reserves={"black": {"x": 1, "circle": 2}, "white": {"x": 1, "circle": 2}, "pink": {"circle": 3}},
        shapes={"x": power("cover", "removes", how=MUST), "circle": {}},
        phases=[{"pass": True}],
    )
    add(
        "two-boards",
        boards=2,
        board={"kind": "squares", "size": [2, 2, 1]},
        reserves={"black": {"pentagon": 2, "circle": 2}, "white": {"pentagon": 2, "circle": 2}},
        shapes={"pentagon": power("cover", "removes", "adjacent"), "circle": {}},
        move_limit=25,
        turn_checks=["first-2-wins"],
    )
    add(
        "goal-replacement-capture",
        board={"kind": "squares", "size": [3, 3, 1]},
        reserves={"black": {"triangle": 2, "pentagon": 1}, "white": {"triangle": 2, "pentagon": 1}},
        shapes={"triangle": power("cover", "removes", "forward-diagonal"), "pentagon": {"move": "adjacent"}},
        move_limit=30,
    )
    return out


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_capture_rule_sets_match_reference(rs):
    assert shaped(rs.record)
    play_against_reference(rs, games=sweep(full=60, quick=6), seed=sum(map(ord, rs.name)), check=same_pieces)


@pytest.mark.slow
@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_capture_rule_sets_match_reference_long(rs):
    play_against_reference(rs, games=800, seed=7, check=same_pieces)


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=8, quick=1))


@pytest.mark.parametrize("name", ["flat-must", "flat-mixed-classes", "stack-moves", "chaos-captures"])
def test_is_legal_agrees_with_legal_actions(name):
    rs = [r for r in cases() if r.name == name][0]
    assert_is_legal_agrees_with_legal_actions(rs, games=sweep(full=5, quick=2), seed=3)


# -- the rules, position by position ------------------------------------------------


def _case(name):
    return [r for r in cases() if r.name == name][0]


def test_duel_follows_the_specification_and_the_reference_rank():
    """ "Pieces that cannot capture have the lowest rank and cannot cover each
    other (but become captured by covering a higher-ranked piece); pieces that
    capture in ways other than “by rank” have highest rank and award
    conflicts between each other to the attacker; otherwise cover of equal
    rank results in mutual destruction." """
    none, cover, rank = {"power": "none"}, power("cover", "removes"), power("cover-by-rank", "removes")
    assert duel("circle", none, "x", none) == 2  # cannot cover each other
    assert duel("circle", none, "x", cover) == -1  # captured by covering a higher rank
    assert duel("circle", none, "x", rank) == -1
    assert duel("x", cover, "pentagon", rank) == 1  # other captures: highest rank
    assert duel("x", rank, "circle", cover) == -1
    assert duel("circle", cover, "pentagon", cover) == 1  # conflicts go to the attacker
    assert duel("pentagon", cover, "circle", cover) == 1
    assert duel("circle", rank, "pentagon", rank) == 1  # circle outranks pentagon
    assert duel("pentagon", rank, "circle", rank) == -1
    assert duel("pentagon", rank, "star", rank) == 1
    assert duel("star", rank, "star", rank) == 0  # equal rank: mutual destruction
    for a in SHAPES_ALL:
        for b in SHAPES_ALL:
            assert outranks(a, b) == reference_outranks(a, b)


def test_flat_cover_by_rank_circle_pentagon_and_mutual_destruction():
    rs = _case("flat-by-rank")
    core = make_core(rs)
    names = core.shape_names()
    assert names == ["circle", "star", "pentagon"]
    T = 9
    place = lambda shape, t: names.index(shape) * T + t
    core.apply_action(place("pentagon", 0))  # black pentagon (1,1,1)
    core.apply_action(place("circle", 0))  # white circle covers it: circle outranks pentagon
    assert core.cells()[0] == 2 and core.shapes()[0] == "circle"
    assert core.shape_reserves()["white"]["circle"] == 1
    core.apply_action(place("star", 4))  # black star (2,2,1)
    core.apply_action(place("star", 4))  # white star covers it: equal rank, both destroyed
    assert core.cells()[4] == 0 and core.shapes()[4] is None
    assert core.shape_reserves()["black"]["star"] == 0 and core.shape_reserves()["white"]["star"] == 0
    core.apply_action(place("circle", 8))  # black circle (3,3,1)
    core.apply_action(place("pentagon", 8))  # white pentagon covers it: pentagon outranks circle? no
    # the circle outranks the pentagon: the attacker is captured and removed, the circle stays
    assert core.cells()[8] == 1 and core.shapes()[8] == "circle"
    assert core.shape_reserves()["white"]["pentagon"] == 0


def test_flat_reincarnation_counts():
    """ "reincarnated (i.e. added to the captor’s reserves), or reincarnate
    (x2) (double upon capture)": the captive's shape, in the captor's colour."""
    rs = _case("flat-cover-reincarnates")
    core = make_core(rs)
    names = core.shape_names()
    assert names == ["circle", "x", "pentagon"]
    T = 9
    core.apply_action(names.index("pentagon") * T + 4)  # black pentagon centre
    core.apply_action(0 * T + 0)  # white circle (1,1,1)
    before = core.shape_reserves()
    core.apply_action(names.index("pentagon") * T + 0)  # black pentagon covers the circle: x1
    after = core.shape_reserves()
    assert after["black"]["circle"] == before["black"]["circle"] + 1
    assert after["black"]["pentagon"] == before["black"]["pentagon"] - 1
    assert core.cells()[0] == 1 and core.shapes()[0] == "pentagon"
    before = after
    core.apply_action(names.index("x") * T + 4)  # white x covers the centre pentagon: x2
    after = core.shape_reserves()
    assert after["white"]["pentagon"] == before["white"]["pentagon"] + 2
    assert core.cells()[4] == 2 and core.shapes()[4] == "x"


def test_reincarnates_x3_adds_three_per_captive():
    """ "To “Reincarnate” captives means to convert, remove, triple, and add
    them to one’s own reserves" (``reincarnates-x3``; docs/rules/ttt/captures.md,
    "Reincarnate: one or three"): the captive leaves the board and three of its
    shape join the captor's reserve, where the plain result adds one."""
    rs = _case("flat-cover-reincarnates-x3")
    core = make_core(rs)
    names = core.shape_names()
    T = 9
    core.apply_action(names.index("pentagon") * T + 4)  # black pentagon centre
    core.apply_action(names.index("circle") * T + 0)  # white circle (1,1,1)
    before = core.shape_reserves()
    core.apply_action(names.index("pentagon") * T + 0)  # black pentagon covers the circle: x3
    after = core.shape_reserves()
    assert after["black"]["circle"] == before["black"]["circle"] + 3
    assert core.cells()[0] == 1 and core.shapes()[0] == "pentagon"
    before = after
    core.apply_action(names.index("x") * T + 0)  # white x covers that pentagon: x1
    assert core.shape_reserves()["white"]["pentagon"] == before["white"]["pentagon"] + 1


def test_reincarnates_x3_is_written_only_when_chosen():
    """The new result is a value of its own: the records (and fingerprints) of
    rule sets that reincarnate once or twice are what they were, and x3 is a
    different rule set that validation names among the allowed results."""
    once = _case("flat-cover-reincarnates")
    assert once.record["shapes"]["pentagon"]["result"] == "reincarnates"
    rec = json.loads(json.dumps(once.to_json()))
    rec["shapes"]["pentagon"]["result"] = "reincarnates-x3"
    assert rules.parse(rec) != once
    rec["shapes"]["pentagon"]["result"] = "reincarnates-x4"
    with pytest.raises(RuleSetError) as info:
        rules.parse(rec)
    assert "reincarnates-x2, reincarnates-x3" in str(info.value)
    from webapp.factory_form import option_label

    assert option_label("result", "reincarnates-x3").startswith("Reincarnates captive(s) x3")


def test_must_capture_allows_only_captures():
    """ "If a piece “must capture” and at least one opportunity to capture is
    visible, then no non-capture is legal" (a pass included); without one,
    every move is legal."""
    rs = _case("flat-must")
    core = make_core(rs)
    names = core.shape_names()
    assert names == ["circle", "x"]
    T = 9
    pass_id = core.num_actions - 1
    assert pass_id in core.legal_action_list()
    core.apply_action(0 * T + 4)  # black circle centre
    legal = core.legal_action_list()  # white: its x could cover the black circle
    assert legal == [names.index("x") * T + 4]
    core.apply_action(legal[0])
    assert core.cells()[4] == 2 and core.shapes()[4] == "x"
    legal = core.legal_action_list()  # black: its x may cover the white x (two pieces that
    assert legal == [names.index("x") * T + 4]  # capture other than by rank: the attacker wins)
    ref = ReferenceState(rs)
    for a in (0 * T + 4, names.index("x") * T + 4):
        ref.apply(a)
    assert ref.legal_actions() == legal
    core.apply_action(legal[0])
    assert core.shape_reserves()["white"]["x"] == 1 and core.cells()[4] == 1
    legal = core.legal_action_list()  # white's x covers again: only that
    assert legal == [names.index("x") * T + 4]


def test_can_capture_does_not_force():
    rs = _case("flat-cover-removes")
    core = make_core(rs)
    names = core.shape_names()
    T = 9
    core.apply_action(names.index("pentagon") * T + 0)
    core.apply_action(0 * T + 4)  # white circle
    legal = core.legal_action_list()  # black may cover it, or not
    assert names.index("pentagon") * T + 4 in legal and names.index("pentagon") * T + 8 in legal


def test_stacks_cover_the_whole_stack_needy_trust():
    """NeedyTrust's stacks: a black circle placed on the white X (Cover,
    Reincarnates x2) is captured and gives white two circles; a white circle
    placed on the black pentagon (Cover, Converts) turns black; a second one is
    converted too, because the defenders are every opponent piece of the stack
    (the pentagon under the converted circle), not only its top."""
    rs = _case("needy-trust-like")
    core = make_core(rs)
    names = core.shape_names()
    assert names == ["circle", "x", "pentagon"]
    X = 3
    pass_id = core.num_actions - 1
    core.apply_action(0)  # black circle on stack 1 (white X)
    assert core.shape_reserves()["white"]["circle"] == 2 and core.shape_reserves()["black"]["circle"] == 1
    assert core.cells()[0 + X] == 0  # the circle did not stay
    core.apply_action(1)  # white circle on stack 2 (black pentagon): converted
    assert core.cells()[1 + X] == 1 and core.shapes()[1 + X] == "circle"
    core.apply_action(pass_id)  # black passes
    core.apply_action(1)  # white's second circle: covers a black circle and the pentagon
    assert core.cells()[1 + 2 * X] == 1 and core.shapes()[1 + 2 * X] == "circle"
    assert core.shape_reserves()["white"]["circle"] == 0


def test_stack_captives_fall_and_the_attacker_lands_on_top():
    """A cover that removes a piece in the middle of a stack: the pieces above
    it fall, and the attacker lands on the new top (Connect Four's gravity)."""
    rs = rule_set(
        "fall",
        board={
            "kind": "stacks",
            "size": [2, 1, 4],
            "pieces": [
                {"at": [1, 1, 1], "colour": "white", "shape": "circle"},
                {"at": [1, 1, 2], "colour": "black", "shape": "circle"},
                {"at": [1, 1, 3], "colour": "white", "shape": "triangle"},
            ],
        },
        reserves={"black": {"pentagon": 1}, "white": {"circle": 1}},
        shapes={"circle": {}, "triangle": {}, "pentagon": power("cover", "reincarnates")},
        move_limit=9,
    )
    core = make_core(rs)
    names = core.shape_names()
    core.apply_action(names.index("pentagon") * 2 + 0)
    X = 2
    assert [core.cells()[0 + X * z] for z in range(4)] == [1, 1, 0, 0]
    assert [core.shapes()[0 + X * z] for z in range(2)] == ["circle", "pentagon"]
    assert core.shape_reserves()["black"] == {"circle": 1, "triangle": 1, "pentagon": 0}
    assert 0 in core.legal_action_list()  # the stack has room again


def test_locked_cell_bounds_the_stack():
    """Pieces under a locked space are out of reach: only the pieces above
    the stack's highest locked cell are covered."""
    rs = _case("stack-locked-cell")
    core = make_core(rs)
    names = core.shape_names()
    core.apply_action(names.index("pentagon") * 3 + 1)  # black pentagon on stack 2, above the locked cell
    assert core.cells()[1] == 2 and core.shapes()[1] == "x"  # the white x under the lock stays
    assert core.cells()[1 + 2 * 3] == 1


# -- simultaneous rounds: shapes, covers and collisions by rank ---------------------


def sim_cases():
    out = []
    add = lambda name, **kw: out.append(rule_set(name, SQUARES_3X3, **kw))
    rank3 = {s: power("cover-by-rank", "converts") for s in ("circle", "x", "pentagon")}
    add(
        "sim-rps",
        board={"kind": "stacks", "size": [1, 1, 2]},
        shapes=rank3,
        reserves={c: {"circle": 1, "x": 1, "pentagon": 1} for c in ("black", "white")},
        phases=[{"order": "simultaneous"}],
    )
    add(
        "sim-staghunt-like",
        players="2-vs-chaos",
        board={
            "kind": "stacks",
            "size": [4, 1, 3],
            "pieces": [
                {"at": [1, 1, 1], "colour": "black", "shape": "pentagon"},
                {"at": [2, 1, 1], "colour": "white", "shape": "pentagon"},
            ],
        },
        reserves={"black": {"pentagon": 1}, "white": {"pentagon": 1}, "pink": {"circle": 6}},
        shapes={"circle": {}, "pentagon": power("cover", "removes")},
        stalemate="most-2-in-a-row-wins",
        phases=[
            {"order": "simultaneous", "locked_players": ["chaos"]},
            {"pass": True, "locked_players": [1, 2]},
        ],
    )
    add(
        "sim-flat-collide",
        board={"kind": "squares", "size": [3, 3, 1]},
        reserves={c: {"circle": 2, "cross": 1, "star": 1} for c in ("black", "white")},
        shapes={
            "circle": {},
            "cross": power("cover-by-rank", "reincarnates"),
            "star": power("cover-by-rank", "removes", how=MUST),
        },
        phases=[{"order": "simultaneous", "pass": True}],
        move_limit=30,
    )
    add(
        "sim-3p-single",
        players="3",
        board={"kind": "stacks", "size": [2, 1, 4]},
        reserves={c: {"x": 1, "cross": 1, "circle": 1} for c in ("black", "white", "pink")},
        shapes={"circle": {}, "x": power("cover", "removes"), "cross": power("cover-by-rank", "removes")},
        phases=[{"order": "single"}, {}],
        turn_checks=["first-2-wins"],
    )
    add(
        "sim-two-boards",
        boards=2,
        board={"kind": "stacks", "size": [2, 1, 3]},
        reserves={c: {"circle": 2, "star": 2, "pentagon": 1} for c in ("black", "white")},
        shapes={
            "circle": power("cover-by-rank", "converts"),
            "star": power("cover-by-rank", "reincarnates"),
            "pentagon": power("cover-by-rank", "removes"),
        },
        phases=[{"order": "simultaneous", "pass": True}],
        turn_checks=["first-2-wins"],
        move_limit=20,
    )
    return out


@pytest.mark.parametrize("rs", sim_cases(), ids=lambda rs: rs.name)
def test_captures_in_rounds_match_reference(rs):
    play_against_reference(rs, games=sweep(full=80, quick=8), seed=sum(map(ord, rs.name)), check=same_pieces)


@pytest.mark.parametrize("rs", sim_cases(), ids=lambda rs: rs.name)
def test_captures_in_rounds_random_sim_test(rs, tmp_path):
    path = tmp_path / f"{rs.name}.json"
    path.write_text(json.dumps(rs.to_json()))
    game = pyspiel.load_game(f"ttt(rules={path})")
    pyspiel.random_sim_test(game, num_sims=sweep(full=8, quick=1), serialize=True, verbose=False)
    pyspiel.random_sim_test(
        pyspiel.convert_to_turn_based(game), num_sims=sweep(full=4, quick=1), serialize=False, verbose=False
    )


def _rps_round(black, white):
    rs = [r for r in sim_cases() if r.name == "sim-rps"][0]
    core = make_core(rs)
    names = core.shape_names()
    assert names == ["circle", "x", "pentagon"]
    core.apply_action(names.index(black))  # both plan a piece on the one stack
    core.apply_action(names.index(white))
    return core


def test_collisions_resolve_by_rank():
    """ "if multiple players move to the same space and the collision is not
    resolved naturally via “by rank” rules, then all pieces moved to that
    space are destroyed": RockPaperScissors' pieces all "Can capture, Cover
    by rank, Converts captive(s)", so the higher rank keeps its piece and the
    loser's lands on it in the winner's colour; equal shapes destroy both."""
    core = _rps_round("circle", "pentagon")  # circle outranks pentagon
    assert core.cells()[:2] == [1, 1] and core.shapes()[:2] == ["circle", "pentagon"]
    core = _rps_round("circle", "x")  # x outranks circle
    assert core.cells()[:2] == [2, 2] and core.shapes()[:2] == ["x", "circle"]
    core = _rps_round("pentagon", "x")  # pentagon outranks x
    assert core.cells()[:2] == [1, 1] and core.shapes()[:2] == ["pentagon", "x"]
    core = _rps_round("x", "x")  # equal rank: both destroyed
    assert core.cells()[:2] == [0, 0]


def test_collision_ranks_powerless_colliders_lowest():
    """ "Pieces that cannot capture have the lowest rank and
    cannot cover each other, but are captured when they cover a
    higher-ranked piece [...] Simultaneous collisions [...] are resolved by
    these rank rules where they apply". A cross (can capture, cover by rank,
    reincarnates) colliding with a circle (no power) outranks it: the cross
    keeps the space and the circle is reincarnated into the cross's
    colour's reserve, whichever seat plays which; two circles cannot cover
    each other, so that collision is unresolved and both are destroyed."""
    rs = [r for r in sim_cases() if r.name == "sim-flat-collide"][0]
    names = make_core(rs).shape_names()
    assert names == ["circle", "cross", "star"]
    T = 9
    core = make_core(rs)
    core.apply_action(names.index("star") * T + 4)
    core.apply_action(names.index("cross") * T + 4)  # star outranks cross: the cross is removed
    assert core.cells()[4] == 1 and core.shapes()[4] == "star"
    assert core.shape_reserves()["white"]["cross"] == 0
    assert core.shape_reserves()["black"]["cross"] == 1
    core = make_core(rs)
    core.apply_action(names.index("cross") * T + 4)
    core.apply_action(names.index("circle") * T + 4)  # the circle ranks lowest: the cross keeps 4
    assert core.cells()[4] == 1 and core.shapes()[4] == "cross"
    res = core.shape_reserves()
    assert res["black"] == {"circle": 3, "cross": 0, "star": 1}  # the circle, reincarnated
    assert res["white"] == {"circle": 1, "cross": 1, "star": 1}
    core = make_core(rs)
    core.apply_action(names.index("circle") * T + 4)
    core.apply_action(names.index("cross") * T + 4)  # seats swapped: white's cross keeps 4
    assert core.cells()[4] == 2 and core.shapes()[4] == "cross"
    res = core.shape_reserves()
    assert res["white"] == {"circle": 3, "cross": 0, "star": 1}
    assert res["black"] == {"circle": 1, "cross": 1, "star": 1}
    core = make_core(rs)
    core.apply_action(names.index("circle") * T + 4)
    core.apply_action(names.index("circle") * T + 4)  # two circles: unresolved, both destroyed
    assert core.cells()[4] == 0
    assert core.shape_reserves()["black"]["circle"] == 1 and core.shape_reserves()["white"]["circle"] == 1


def test_validation_lists_every_capture_problem():
    with pytest.raises(RuleSetError) as e:
        rules.parse(
            {
                "name": "bad",
                "reserves": {"black": {"x": 2}, "white": {"x": 2}},
                "cloaking": "hides",
                "phases": [{"cloaked": [[1, 1, 1]]}],
                "shapes": {
                    "x": {"power": "none", "condition": "cover"},
                    "circle": {"power": MUST},
                    "star": {"power": CAN, "condition": "withdraw", "result": "removes"},
                    "cross": {"power": CAN, "condition": "cover", "result": "converts"},
                    "pentagon": {"power": CAN, "condition": "cover-by-rank", "result": "reincarnates"},
                    "triangle": {"power": "sometimes"},
                },
            }
        )
    text = str(e.value)
    assert "shapes.x.condition: set while power is 'none'" in text
    assert "shapes.circle.condition: required with power 'must-capture'" in text
    assert "shapes.circle.result: required with power 'must-capture'" in text
    assert "shapes.star.condition: 'withdraw' is not allowed" in text
    assert "shapes.cross.result: 'converts' with condition 'cover' is for stacks only" in text
    assert "shapes.triangle.power: 'sometimes' is not allowed" in text
    assert "move_limit: required when captives reincarnate" in text
    # captures with cloaked spaces are played with reincarnation too
    assert "'reincarnates' with cloaked spaces" not in text
    # converts on stacks is fine, also for cover by rank ("except on stacks")
    rules.parse(
        {
            "name": "ok",
            "board": {"kind": "stacks", "size": [3, 1, 3]},
            "reserves": {"black": {"x": 2}, "white": {"x": 2}},
            "shapes": {"x": power("cover-by-rank", "converts")},
        }
    )


def test_canonical_form_keeps_old_fingerprints():
    """condition and result are written only with a power: a shape without
    power has neither in its record."""
    a = rule_set("a", SQUARES_3X3, reserves={"black": {"x": 2}, "white": {"x": 2}}, shapes={"x": {}})
    assert a.record["shapes"] == {"x": {"move": "stationary", "power": "none"}}
    b = rule_set(
        "b",
        SQUARES_3X3,
        reserves={"black": {"x": 2}, "white": {"x": 2}},
        shapes={"x": power("cover", "removes")},
    )
    assert b.record["shapes"]["x"] == power("cover", "removes") and a != b


def test_catalogue_stays_on_original_path():
    # Rule sets without a power keep the original (capture-free) path; the
    # dilemmas with captures are in the catalogue and take the other.
    powered = 0
    for rs in rules.catalogue().values():
        has_power = any(s.get("power", "none") != "none" for s in rs.record["shapes"].values())
        powered += has_power
        assert bool(rs.compile().get("powers", False)) == has_power, rs.name
    assert powered >= 15


# -- random rule sets with powers ----------------------------------------------------


@settings(max_examples=sweep(full=80, quick=10), deadline=None, suppress_health_check=list(HealthCheck))
@given(capture_records(), st.integers(0, 10**6))
def test_random_capture_rule_sets_match_reference(rec, seed):
    """Move by move the reference's; and the pieces are conserved except by
    the stated captures: without removes, mutual destruction (by rank) and
    x2 or x3, the total never changes; without x2 or x3 it never grows."""
    rs = parsed_or_rejected(rec)
    results = {p.get("result") for p in rs.record["shapes"].values()}
    by_rank = any(p.get("condition") == "cover-by-rank" for p in rs.record["shapes"].values())
    can_remove = "removes" in results or by_rank
    last = {}

    def conserved(core, ref):
        same_pieces(core, ref)
        total = piece_count(core)
        grows = results & {"reincarnates-x2", "reincarnates-x3"}
        if "prev" in last:
            if not grows:
                assert total <= last["prev"]
            if not can_remove and not grows:
                assert total == last["prev"]
        last["prev"] = total

    play_against_reference(
        rs,
        games=3,
        seed=seed,
        check=lambda core, ref: (
            conserved(core, ref),
            last.pop("prev", None) if core.player() == -4 else None,
        ),
    )


@settings(max_examples=sweep(full=60, quick=7), deadline=None, suppress_health_check=list(HealthCheck))
@given(capture_round_records(), st.integers(0, 10**6))
def test_random_rounds_with_captures_match_reference(rec, seed):
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=3, seed=seed, check=same_pieces)


# -- must capture with a goal move whose replacement captures too -----------------------
# A goal move is applied as: the moving shape's jump or cover, the
# replacement, then the landed piece's surround. So it captures if either
# capture happens, and it forces when a capture it makes is by a
# must-capture shape (the jump or cover by the mover's power, the surround by
# the replacement's). Positions by hand pin the forced legal sets against
# that reading; random rule sets built around such goal moves (forward
# covers and jumps, surrounding replacements, pieces next to the goal lines)
# are played move by move against the reference model, flat, on stacks and
# inside rounds. Boards are 4 x 3 (x = 1..4, y = 1..3); black's goal line is
# y = 3.

GOAL_BASE = {
    "board": {"kind": "squares", "size": [4, 3, 1]},
    "reserves": {"black": {}, "white": {}},
    "move_limit": 20,
    "phases": [{"pass": True}],
}


def _reference_strings(core, ref):
    """The reference's legal actions, named by the engine."""
    return [core.action_string(core.player(), a) for a in ref.legal_actions()]


def _cover_then_surround(mover, replacement):
    """Black's triangle on (2,2,1) (a cover shape that cannot move backwards,
    power ``mover``) can step onto white's powerless circle on its goal line
    at (2,3,1), where it must become an x, the only shape that can move
    backwards (a line surrounder, power ``replacement``). Landing there it
    surrounds nothing. Black's pentagon on (4,1,1) has plain moves, no power."""
    return rule_set(
        f"goal-cover-{mover}-{replacement}",
        GOAL_BASE,
        pieces=[
            piece((2, 2, 1), "black", "triangle"),
            piece((2, 3, 1), "white", "circle"),
            piece((4, 1, 1), "black", "pentagon"),
        ],
        shapes={
            "triangle": {
                "move": "forward-orthogonal",
                "power": mover,
                "condition": "cover",
                "result": "removes",
            },
            "x": {
                "move": "adjacent",
                "power": replacement,
                "condition": "surround-line",
                "result": "removes",
            },
            "pentagon": {"move": "forward-diagonal"},
            "circle": {"move": "stationary"},
        },
    )


def test_a_must_capture_cover_onto_the_goal_forces_though_the_replacement_surrounds_nothing():
    """The triangle must capture and its cover captures: no non-capture is
    legal (not the pentagon's moves, not a pass), whatever the replacement's
    surround does."""
    rs = _cover_then_surround(MUST, CAN)
    core = make_core(rs)
    assert action_strings(core) == ["(2,2,1)->(2,3,1) becomes x"]
    assert _reference_strings(core, ReferenceState(rs)) == action_strings(core)
    core.apply_action(core.legal_action_list()[0])
    assert core.cells()[1 + 4 * 2] == 1 and core.shapes()[1 + 4 * 2] == "x"  # the cover took the circle


def test_a_can_capture_cover_with_a_can_capture_replacement_does_not_force():
    rs = _cover_then_surround(CAN, CAN)
    core = make_core(rs)
    assert action_strings(core) == ["(4,1,1)->(3,2,1)", "(2,2,1)->(2,3,1) becomes x", "pass"]
    assert _reference_strings(core, ReferenceState(rs)) == action_strings(core)


def test_a_must_capture_replacement_does_not_make_the_movers_can_capture_cover_force():
    """The mirror: the cover is the can-capture triangle's, and the
    must-capture x's surround takes nothing, so no capture by a must-capture
    shape is on offer: nothing is forced."""
    rs = _cover_then_surround(CAN, MUST)
    core = make_core(rs)
    assert action_strings(core) == ["(4,1,1)->(3,2,1)", "(2,2,1)->(2,3,1) becomes x", "pass"]
    assert _reference_strings(core, ReferenceState(rs)) == action_strings(core)


def test_a_can_capture_cover_stays_legal_when_another_must_capture_forces():
    """The mirror with a forcing capture elsewhere, on a 4 x 2 board (black's
    goal line y = 2): black's must-capture x stepping from (4,1,1) to (4,2,1)
    closes white's circles on (3,2,1) and (2,2,1) against black's x on
    (1,2,1), so black must capture. Black's can-capture triangle on (2,1,1)
    covering the circle on (2,2,1), its goal, is a capture too (its
    replacement x surrounds nothing there), so it stays legal beside it."""
    pieces = [
        piece((2, 1, 1), "black", "triangle"),
        piece((2, 2, 1), "white", "circle"),
        piece((4, 1, 1), "black", "x"),
        piece((3, 2, 1), "white", "circle"),
        piece((1, 2, 1), "black", "x"),
    ]
    rs = rule_set(
        "goal-cover-can-beside-must",
        GOAL_BASE,
        pieces=pieces,
        shapes={
            "triangle": {
                "move": "forward-orthogonal",
                "power": CAN,
                "condition": "cover",
                "result": "removes",
            },
            "x": {"move": "adjacent", "power": MUST, "condition": "surround-line", "result": "removes"},
            "circle": {"move": "stationary"},
        },
        board={"kind": "squares", "size": [4, 2, 1], "pieces": pieces},
    )
    core = make_core(rs)
    got = action_strings(core)
    assert got == ["(4,1,1)->(4,2,1)", "(2,1,1)->(2,2,1) becomes x"]
    assert _reference_strings(core, ReferenceState(rs)) == got


def test_a_cover_the_mover_loses_lands_nothing_so_its_replacement_does_not_surround():
    """A powerless triangle covering white's can-capture star is captured
    ("pieces that cannot capture [...] become captured by covering a
    higher-ranked piece"), so its must-capture replacement never lands and
    its surround (which would close white's circle on (3,3,1) against black's
    x on (4,3,1)) is no capture: nothing is forced."""
    rs = rule_set(
        "goal-cover-lost",
        GOAL_BASE,
        pieces=[
            piece((2, 2, 1), "black", "triangle"),
            piece((2, 3, 1), "white", "star"),
            piece((3, 3, 1), "white", "circle"),
            piece((4, 3, 1), "black", "x"),
            piece((4, 1, 1), "black", "pentagon"),
        ],
        shapes={
            "triangle": {"move": "forward-orthogonal"},
            "x": {"move": "adjacent", "power": MUST, "condition": "surround-line", "result": "removes"},
            "star": {"move": "stationary", "power": CAN, "condition": "cover", "result": "removes"},
            "pentagon": {"move": "forward-diagonal"},
            "circle": {"move": "stationary"},
        },
    )
    core = make_core(rs)
    got = action_strings(core)
    assert "pass" in got and "(4,1,1)->(3,2,1)" in got and "(2,2,1)->(2,3,1) becomes x" in got
    assert _reference_strings(core, ReferenceState(rs)) == got
    core.apply_action(core.legal_action_list()[got.index("(2,2,1)->(2,3,1) becomes x")])
    assert core.shapes()[2 + 4 * 2] == "circle"  # white's circle was not surrounded


def test_a_must_capture_jump_onto_the_goal_forces_though_the_replacement_surrounds_nothing():
    """The same with a jump: black's forward jumper (must capture) jumps
    white's circle on (2,2,1) to its goal (2,3,1) and becomes a can-capture
    x there, which surrounds nothing."""
    rs = rule_set(
        "goal-jump-must",
        GOAL_BASE,
        pieces=[
            piece((2, 1, 1), "black", "triangle"),
            piece((2, 2, 1), "white", "circle"),
            piece((4, 1, 1), "black", "pentagon"),
        ],
        shapes={
            "triangle": {
                "move": "forward-orthogonal",
                "power": MUST,
                "condition": "jump",
                "result": "removes",
            },
            "x": {"move": "adjacent", "power": CAN, "condition": "surround-line", "result": "removes"},
            "pentagon": {"move": "forward-diagonal"},
            "circle": {"move": "stationary"},
        },
    )
    core = make_core(rs)
    assert action_strings(core) == ["(2,1,1)->(2,3,1) over (2,2,1) becomes x"]
    assert _reference_strings(core, ReferenceState(rs)) == action_strings(core)


def test_under_obscurity_a_must_capture_cover_onto_a_colour_only_piece_by_rank_does_not_force():
    """Each capture is "visible" by its own shape: a by-rank must-capture
    cover onto white's piece seen by colour only is not seen to capture (its
    verdict hangs on the hidden shape), and the can-capture x's surround
    takes nothing: nothing forces. With the piece fully seen (an open space)
    the same cover forces."""
    shapes = {
        "triangle": {
            "move": "forward-orthogonal",
            "power": MUST,
            "condition": "cover-by-rank",
            "result": "removes",
        },
        "x": {"move": "adjacent", "power": CAN, "condition": "surround-line", "result": "removes"},
        "pentagon": {"move": "forward-diagonal"},
        "circle": {"move": "stationary"},
    }
    pieces = [
        piece((2, 2, 1), "black", "triangle"),
        piece((2, 3, 1), "white", "circle"),
        piece((4, 1, 1), "black", "pentagon"),
    ]
    hidden = cloaked_rule_set(
        "goal-cover-obscured",
        cloaking="obscures",
        board={"kind": "squares", "size": [4, 3, 1], "pieces": pieces},
        shapes=shapes,
        reserves={"black": {}, "white": {"circle": 1}},
        move_limit=10,
        phases=[{"cloaked": [[2, 3, 1]], "pass": True}],
    )
    core = make_core(hidden)
    got = action_strings(core)
    assert "(2,2,1)->(2,3,1) becomes x" in got and "pass" in got
    assert _reference_strings(core, ReferenceState(hidden)) == got
    seen = cloaked_rule_set(
        "goal-cover-seen",
        cloaking="obscures",
        board={"kind": "squares", "size": [4, 3, 1], "pieces": pieces},
        shapes=shapes,
        reserves={"black": {}, "white": {"circle": 1}},
        move_limit=10,
        phases=[{"cloaked": [[1, 1, 1]], "pass": True}],
    )
    core = make_core(seen)
    assert action_strings(core) == ["(2,2,1)->(2,3,1) becomes x"]
    assert _reference_strings(core, ReferenceState(seen)) == action_strings(core)


@settings(max_examples=sweep(full=60, quick=7), deadline=None, suppress_health_check=list(HealthCheck))
@given(goal_records(), st.integers(0, 10**6))
def test_random_goal_rule_sets_match_reference(rec, seed):
    """Move by move the reference model's legal actions and pieces."""
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, 4, seed, same_pieces)


@settings(max_examples=sweep(full=30, quick=4), deadline=None, suppress_health_check=list(HealthCheck))
@given(goal_records(kind="stacks"), st.integers(0, 10**6))
def test_random_goal_rule_sets_on_stacks_match_reference(rec, seed):
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, 3, seed, same_pieces)


@settings(max_examples=sweep(full=30, quick=4), deadline=None, suppress_health_check=list(HealthCheck))
@given(goal_records(rounds=True), st.integers(0, 10**6))
def test_random_goal_rule_sets_in_rounds_match_reference(rec, seed):
    """Inside simultaneous rounds each plan's "must capture" is judged on the
    round's starting board with the same per-capture reading."""
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, 3, seed, same_pieces)


def test_the_random_goal_rule_sets_reach_goals_that_capture_both_ways():
    """The generator does produce the combination (a seeded search, which
    finds it after about 400 records): a goal move whose mover covers or
    jumps while its replacement surrounds. Only its existence matters, so
    the record found is not shrunk."""
    import random

    from hypothesis import Phase, find

    rec = find(
        goal_records(),
        _goal_capture_both,
        settings=settings(  # seeded: reproducible
            max_examples=3000,
            database=None,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            phases=[Phase.generate],
        ),
        random=random.Random(0),
    )
    assert rec is not None


def _goal_capture_both(rec):
    try:
        rs = rules.parse(rec)
    except rules.RuleSetError:
        return False
    ref = ReferenceState(rs)
    if ref.result is not None or ref.current_player() < 0:
        return False
    s = ref.current_player()
    for a in ref.legal_actions():
        parts = ref.goal_parts(s, a)
        if parts is not None and parts[0][1] and parts[1][1]:
            return True
    return False


# -- "Move on triagonal" ----------------------------------------------------------------------


def triagonal_cases():
    out = []
    add = lambda name, **kw: out.append(rule_set(name, **kw))
    add(
        "triagonal-removes",
        board={"kind": "squares", "size": [3, 3, 3]},
        reserves={"black": {"x": 3, "circle": 3}, "white": {"x": 3, "circle": 3}},
        shapes={
            "x": power("move-on-triagonal", "removes", "adjacent-orthogonal"),
            "circle": {"move": "adjacent"},
        },
        move_limit=30,
        turn_checks=[],
        stalemate="most-pieces-wins",
    )
    add(
        "triagonal-must-x2-with-covers",
        players="3",
        board={"kind": "squares", "size": [3, 2, 2]},
        reserves={c: {"star": 2, "cross": 1} for c in ("black", "white", "pink")},
        shapes={
            "star": power("move-on-triagonal", "reincarnates-x2", "linear", MUST),
            "cross": power("cover", "removes", "adjacent"),
        },
        move_limit=30,
        phases=[{"movement": "placement-only"}, {"pass": True}],
    )
    return out


@pytest.mark.parametrize("rs", triagonal_cases(), ids=lambda rs: rs.name)
def test_triagonal_rule_sets_match_reference(rs):
    play_against_reference(rs, games=sweep(full=40, quick=4), seed=sum(map(ord, rs.name)), check=same_pieces)


@settings(max_examples=sweep(full=40, quick=5), deadline=None, suppress_health_check=list(HealthCheck))
@given(triagonal_records(), st.integers(0, 10**6))
def test_random_triagonal_rule_sets_match_reference(rec, seed):
    play_against_reference(parsed_or_rejected(rec), games=2, seed=seed, check=same_pieces)


def test_a_triagonal_capturer_takes_only_along_a_triagonal():
    """Black's x on (1,1,1) takes white's circle on (2,2,2) (one step along
    x, y and z), not the one on (2,1,1) next to it, and moves to free
    spaces otherwise."""
    rs = rule_set(
        "tri",
        board={
            "kind": "squares",
            "size": [3, 3, 2],
            "pieces": [
                piece((1, 1, 1), "black", "x"),
                piece((2, 2, 2), "white", "circle"),
                piece((2, 1, 1), "white", "circle"),
            ],
        },
        reserves={"black": {}, "white": {}},
        shapes={"x": power("move-on-triagonal", "reincarnates", "adjacent"), "circle": {}},
        move_limit=10,
        phases=[{"pass": True}],
    )
    core = make_core(rs)
    moves = action_strings(core)
    assert "(1,1,1)->(2,2,2)" in moves and "(1,1,1)->(2,1,1)" not in moves
    assert "(1,1,1)->(1,2,1)" in moves
    core.apply_action(core.legal_action_list()[moves.index("(1,1,1)->(2,2,2)")])
    assert core.shapes()[4 + 9] == "x" and core.shapes()[1] == "circle"
    assert core.shape_reserves()["black"]["circle"] == 1


def test_validation_says_what_move_on_triagonal_needs():
    rec = {
        "name": "bad",
        "board": {"kind": "squares", "size": [3, 3, 1]},
        "move_limit": 10,
        "phases": [{"order": "simultaneous"}],
        "reserves": {"black": {"x": 1, "star": 1}, "white": {"x": 1, "star": 1}},
        "shapes": {
            "x": power("move-on-triagonal", "converts", "stationary"),
            "star": power("move-on-triagonal", "removes", "adjacent"),
        },
    }
    with pytest.raises(RuleSetError) as e:
        rules.parse(rec)
    text = str(e.value)
    assert "shapes.x.condition: 'move-on-triagonal' needs a board that is not stacks with size z > 1" in text
    assert "a shape that moves" in text and "result removes, reincarnates or reincarnates-x2" in text
    assert "sequential phases only" not in text  # played in rounds
    rec.update(board={"kind": "squares", "size": [3, 3, 2]}, phases=[{}])
    rec["shapes"] = {"star": power("move-on-triagonal", "removes", "adjacent")}
    rec["reserves"] = {"black": {"star": 1}, "white": {"star": 1}}
    assert rules.parse(rec).record["shapes"]["star"]["condition"] == "move-on-triagonal"
    for order in ("simultaneous", "single"):
        rec.update(phases=[{"order": order}])
        assert rules.parse(rec).record["phases"][0]["order"] == order


# -- "Move on triagonal" inside rounds: a plan, landing as a cover does ------------------------------


def triagonal_round():
    """Black's triagonal capturer x on (1,1,1) and white's circle on (2,2,2)
    of a 2x2x2 board, in simultaneous rounds with passes."""
    rs = position(
        [piece((1, 1, 1), "black", "x"), piece((2, 2, 2), "white", "circle")],
        {
            "x": power("move-on-triagonal", "removes", "adjacent-orthogonal"),
            "circle": {"move": "adjacent-orthogonal"},
        },
        [2, 2, 2],
        phases=[{"order": "simultaneous", "pass": True}],
        move_limit=10,
    )
    return make_core(rs)


def plan(core, player, text):
    return next(a for a in core.player_legal_action_list(player) if core.action_string(player, a) == text)


def test_in_a_round_a_triagonal_step_captures_a_captive_that_stayed_and_lands_where_one_left():
    """The step is planned on the round's starting board: onto a circle
    that passes it captures; onto one that moves away in the same round it
    lands on the space left, capturing nothing (the round's moves leave
    before any piece lands)."""
    core = triagonal_round()
    step = plan(core, 0, "(1,1,1)->(2,2,2)")
    core.apply_joint_action([step, plan(core, 1, "pass")])
    assert core.cells()[7] == 1 and core.shapes()[7] == "x" and core.cells().count(2) == 0
    core = triagonal_round()
    core.apply_joint_action([step, plan(core, 1, "(2,2,2)->(2,2,1)")])
    assert core.cells()[7] == 1 and core.cells()[3] == 2  # both pieces on, nothing taken


@settings(max_examples=sweep(full=60, quick=6), deadline=None, suppress_health_check=list(HealthCheck))
@given(triagonal_records(), st.sampled_from(["simultaneous", "single"]), st.integers(0, 10**6))
def test_random_triagonal_rule_sets_in_rounds_match_reference(rec, order, seed):
    """triagonal_records with every phase simultaneous or single (passes
    allowed where pieces move)."""
    rec["phases"] = [
        {**ph, "order": order, **({} if "movement" in ph else {"pass": True})} for ph in rec["phases"]
    ]
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=3, seed=seed, check=same_pieces)


def test_the_triagonal_rounds_example_plays_against_the_reference(tmp_path):
    rs = rules.resolve("games/ttt/examples/Triagonal-Rounds-Cube.json")
    assert rs.compile()["simultaneous"]
    play_against_reference(rs, games=sweep(full=20, quick=3), seed=23)
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=4, quick=1))

"""Stacks (issue 12 item 6): moves "by stack" (the mover carries every piece
above it) and "by full stack" (only from the bottom, carrying the whole
stack), on the rules page's "Stacks" section.

The engine is compared move by move with the reference model
(tests/ttt_reference/, ``ReferenceState``, written from the rules text) on
small rule sets, one per rule and interaction, and on Hypothesis-drawn stack
rule sets (piece counts conserved, no piece floats, no stack over its
height); every test rule set also goes through ``pyspiel.random_sim_test``
with serialisation. The poker-hand rank itself is tests/test_ttt_poker.py;
here the engine's per-stack hand (own and communal pieces, chips left out)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ttt import make_core, poker, rules
from games.ttt.rules import RuleSetError
from games.ttt.schema import SHAPES_ALL
from ttt_checks import (
    assert_is_legal_agrees_with_legal_actions,
    parsed_or_rejected,
    play_against_reference,
    random_sim_test_of,
)
from ttt_reference import ReferenceState


def _rs(name, size, **kw):
    rec = {"name": name, "board": {"kind": "stacks", "size": size}}
    rec.update(kw)
    if "pieces" in kw:
        rec["board"]["pieces"] = rec.pop("pieces")
    for key in ("locked", "sticky", "exclusive", "exit_locked", "entry_locked"):
        if key in kw:
            rec["board"][key] = rec.pop(key)
    return rules.parse(rec)


def _piece(at, colour, shape):
    return {"at": at, "colour": colour, "shape": shape}


def cases():
    out = []
    add = lambda *a, **kw: out.append(_rs(*a, **kw))
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


def play(rs, games, seed, check=None, ref_class=ReferenceState):
    """``play_against_reference``; returns how many by-stack moves were played."""
    ref = ref_class(rs)
    played = play_against_reference(rs, games, seed, ref_class, check)
    return sum(ref.nstk > 0 and ref.stk0 <= a < ref.stk0 + ref.nstk for a in played)


def same_pieces(core, ref):
    """Colours and shapes per cell are the reference's; no piece floats and
    no stack is over its height; per colour, board plus reserve is the start's."""
    X, Y, Z = core.tab.params["size"]
    shapes, cells = core.shapes(), core.cells()
    for c, shape in enumerate(shapes):
        xyz = (c % X, (c // X) % Y, c // (X * Y))
        assert shape == ref.shape.get(xyz), (c, shape, ref.shape.get(xyz))
        if shape is not None:
            assert cells[c] == ref.board[xyz] + 1
            if xyz[2] > 0:
                assert cells[c - X * Y] != 0, f"piece on {xyz} floats"
    counts = {}
    for v in cells:
        if v > 0:
            counts[v - 1] = counts.get(v - 1, 0) + 1
    totals = [counts.get(c, 0) + r for c, r in enumerate(core.reserves().values())]
    start = getattr(same_pieces, "start", None)
    if start is not None:
        assert totals == start


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_engine_matches_reference(rs):
    same_pieces.start = None
    moved = play(rs, games=25, seed=sum(map(ord, rs.name)), check=same_pieces)
    assert moved > 0, "no by-stack move was played: the rule set does not exercise its rule"


@pytest.mark.slow
@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_engine_matches_reference_long(rs):
    play(rs, games=400, seed=7, check=same_pieces)


# -- cloaking: "appear" is the mover's view ---------------------------------------------


def cloaked_cases():
    out = []
    add = lambda *a, **kw: out.append(_rs(*a, **kw))
    add(
        "hides-3x1x4",
        [3, 1, 4],
        cloaking="hides",
        reserves={"black": {"x": 3, "circle": 1}, "white": {"x": 3, "circle": 1}},
        shapes={"x": {"move": "orth-by-stack"}, "circle": {"move": "orth-by-full-stack"}},
        move_limit=30,
        turn_checks=["first-4-wins"],
        phases=[{"cloaked": [[2, 1, 1], [2, 1, 2], [3, 1, 2], [1, 1, 3]]}],
    )
    add(
        "hides-2x2x3",
        [2, 2, 3],
        cloaking="hides",
        reserves={"black": {"star": 3}, "white": {"star": 2, "x": 1}},
        pieces=[_piece([1, 1, 1], "yellow", "x")],
        shapes={"star": {"move": "orth-by-stack"}, "x": {}},
        move_limit=30,
        turn_checks=["first-3-wins"],
        phases=[{"cloaked": [[1, 1, 2], [2, 2, 1], [2, 2, 2], [1, 2, 1]], "pass": True}],
    )
    add(
        "obscures-3x1x3",
        [3, 1, 3],
        cloaking="obscures",
        reserves={"black": {"x": 2, "pentagon": 1}, "white": {"x": 2, "pentagon": 1}},
        shapes={"x": {"move": "orth-by-stack"}, "pentagon": {"move": "orth-by-full-stack"}},
        move_limit=30,
        turn_checks=["first-3-wins"],
        phases=[{"cloaked": [[1, 1, 1], [2, 1, 2], [3, 1, 1]]}],
    )
    return out


@pytest.mark.parametrize("rs", cloaked_cases(), ids=lambda rs: rs.name)
def test_cloaked_stacks_match_reference_and_views(rs):
    def views(core, ref):
        same_pieces(core, ref)
        for p in range(ref.n):
            assert core.player_view(p) == ref.view(p)
            assert core.player_shape_view(p) == ref.shape_view(p)

    same_pieces.start = None
    moved = play(rs, games=30, seed=sum(map(ord, rs.name)), check=views, ref_class=ReferenceState)
    assert moved > 0


@pytest.mark.slow
@pytest.mark.parametrize("rs", cloaked_cases(), ids=lambda rs: rs.name)
def test_cloaked_stacks_match_reference_long(rs):
    play(rs, games=300, seed=5, check=same_pieces, ref_class=ReferenceState)


@pytest.mark.parametrize("rs", cases() + cloaked_cases(), ids=lambda rs: rs.name)
def test_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=8)


@pytest.mark.parametrize("name", ["carry-3x1x4", "full-stack-3x1x4", "locks-3x2x3", "no-back-3x3x3"])
def test_is_legal_agrees_with_legal_actions(name):
    rs = [r for r in cases() if r.name == name][0]
    assert_is_legal_agrees_with_legal_actions(rs, games=3, seed=3)


# -- the rules one by one, on hand-made positions ------------------------------------


def _moves(core):
    """{action string: action} of the legal actions."""
    return {core.describe_action(a): a for a in core.legal_action_list()}


def _column(core, x, y=1):
    """Bottom-up (colour index + 1, shape) of the stack at (x, y)."""
    X, Y, Z = core.tab.params["size"]
    cells, shapes = core.cells(), core.shapes()
    out = []
    for z in range(Z):
        c = (x - 1) + X * ((y - 1) + Y * z)
        if cells[c] > 0:
            out.append((cells[c], shapes[c]))
    return out


def test_by_stack_mover_carries_everything_above_it_in_order():
    rs = _rs(
        "carry",
        [3, 1, 3],
        reserves={"black": {"circle": 1}, "white": {"circle": 1}},
        pieces=[
            _piece([1, 1, 1], "black", "x"),
            _piece([1, 1, 2], "white", "circle"),
            _piece([1, 1, 3], "black", "circle"),
        ],
        shapes={"x": {"move": "orth-by-stack"}, "circle": {}},
        move_limit=9,
        turn_checks=[],
    )
    core = make_core(rs)
    moves = _moves(core)
    assert "stack(1,1)@1->stack(2,1)" in moves and "stack(1,1)@1->stack(3,1)" in moves
    assert not any(
        m.startswith("stack(1,1)@2") or m.startswith("stack(1,1)@3") for m in moves
    )  # circles stay
    core.apply_action(moves["stack(1,1)@1->stack(3,1)"])
    assert _column(core, 1) == []
    assert _column(core, 3) == [(1, "x"), (2, "circle"), (1, "circle")]


def test_destination_must_have_room_for_every_carried_piece():
    rs = _rs(
        "room",
        [3, 1, 3],
        reserves={"black": {"circle": 1}, "white": {"circle": 1}},
        pieces=[
            _piece([1, 1, 1], "white", "circle"),
            _piece([1, 1, 2], "black", "x"),
            _piece([1, 1, 3], "white", "circle"),
            _piece([2, 1, 1], "white", "circle"),
            _piece([3, 1, 1], "white", "circle"),
            _piece([3, 1, 2], "white", "circle"),
        ],
        shapes={"x": {"move": "orth-by-stack"}, "circle": {}},
        move_limit=9,
        turn_checks=[],
    )
    moves = _moves(make_core(rs))
    # two pieces travel (the x and the circle on it): stack 2 has two free cells, stack 3 one
    assert "stack(1,1)@2->stack(2,1)" in moves and "stack(1,1)@2->stack(3,1)" not in moves


def test_full_stack_mover_moves_only_from_the_bottom():
    rs = _rs(
        "full",
        [2, 2, 3],
        reserves={"black": {"circle": 1}, "white": {"circle": 1}},
        pieces=[
            _piece([1, 1, 1], "black", "pentagon"),
            _piece([1, 1, 2], "white", "circle"),
            _piece([2, 1, 1], "white", "circle"),
            _piece([2, 1, 2], "black", "pentagon"),
        ],
        shapes={"pentagon": {"move": "orth-by-full-stack"}, "circle": {}},
        move_limit=9,
        turn_checks=[],
    )
    moves = _moves(make_core(rs))
    stack_moves = sorted(m for m in moves if "@" in m.split("->")[0] and "->" in m)
    # the bottom pentagon goes to (1,2) (orthogonal, empty) and (2,1) has no room for two on top of two;
    # the pentagon on top of a circle may not move; (2,2) is diagonal
    assert stack_moves == ["stack(1,1)@1->stack(1,2)"]


def test_locked_carried_pieces_hold_the_move_back():
    pieces = [_piece([1, 1, 1], "black", "x"), _piece([1, 1, 2], "white", "circle")]
    base = dict(
        reserves={"black": {"circle": 1}, "white": {"circle": 1}},
        pieces=pieces,
        shapes={"x": {"move": "orth-by-stack"}, "circle": {}},
        move_limit=9,
        turn_checks=[],
    )
    assert "stack(1,1)@1->stack(2,1)" in _moves(make_core(_rs("free", [2, 1, 3], **base)))
    for name, extra in [
        ("exit", {"exit_locked": [{"at": [[1, 1, 2]], "players": [1]}]}),
        ("sticky", {"sticky": [[1, 1, 2]]}),
        ("phase", {"phases": [{"locked": [[1, 1, 2]]}]}),
    ]:
        assert "stack(1,1)@1->stack(2,1)" not in _moves(make_core(_rs(name, [2, 1, 3], **base, **extra))), (
            name
        )
    # every landing cell must be open to the mover: an entry lock on the second one refuses the move
    entry = _rs("entry", [2, 1, 3], **base, entry_locked=[{"at": [[2, 1, 2]], "players": [1]}])
    assert "stack(1,1)@1->stack(2,1)" not in _moves(make_core(entry))


def test_reserve_rule_looks_at_the_mover_only():
    pieces = [_piece([1, 1, 1], "black", "x"), _piece([1, 1, 2], "black", "circle")]
    rs = _rs(
        "res",
        [2, 1, 3],
        reserves={"black": {"circle": 1}, "white": {"circle": 1}},
        pieces=pieces,
        shapes={"x": {"move": "orth-by-stack"}, "circle": {"move": "orth-by-stack"}},
        move_limit=9,
        turn_checks=[],
    )
    moves = _moves(make_core(rs))
    # black still holds a circle: its circle may not move by itself, but rides along with the x
    assert "stack(1,1)@1->stack(2,1)" in moves and "stack(1,1)@2->stack(2,1)" not in moves
    rs = _rs(
        "res2",
        [2, 1, 3],
        reserves={"black": {"x": 1}, "white": {"circle": 1}},
        pieces=pieces,
        shapes={"x": {"move": "orth-by-stack"}, "circle": {"move": "orth-by-stack"}},
        move_limit=9,
        turn_checks=[],
    )
    moves = _moves(make_core(rs))
    assert "stack(1,1)@1->stack(2,1)" not in moves and "stack(1,1)@2->stack(2,1)" in moves


def test_a_carried_piece_completes_a_line_for_the_mover():
    b, w = "black", "white"
    rs = _rs(
        "line",
        [4, 1, 3],
        reserves={b: {"circle": 1}, w: {"circle": 1}},
        pieces=[
            _piece([1, 1, 1], b, "circle"),
            _piece([1, 1, 2], w, "circle"),
            _piece([1, 1, 3], b, "circle"),
            _piece([2, 1, 1], w, "circle"),
            _piece([2, 1, 2], w, "circle"),
            _piece([2, 1, 3], b, "circle"),
            _piece([3, 1, 1], w, "circle"),
            _piece([4, 1, 1], b, "x"),
            _piece([4, 1, 2], b, "circle"),
        ],
        shapes={"x": {"move": "orth-by-stack"}, "circle": {}},
        move_limit=9,
        turn_checks=["first-3-wins"],
    )
    core, ref = make_core(rs), ReferenceState(rs)
    a = _moves(core)["stack(4,1)@1->stack(3,1)"]
    core.apply_action(a)
    ref.apply(a)
    # the x lands on (3,1,2) (no line), the carried circle on (3,1,3): black circles along z = 3
    assert core.terminal() and core.returns_list() == [1.0, -1.0] == ref.returns()


def test_stack_hand_counts_own_and_communal_pieces_without_chips():
    b, w, y = "black", "white", "yellow"
    rs = _rs(
        "hand",
        [2, 1, 5],
        reserves={b: {"circle": 1}, w: {"circle": 1}},
        pieces=[
            _piece([1, 1, 1], y, "pentagon"),
            _piece([1, 1, 2], b, "pentagon"),
            _piece([1, 1, 3], w, "pentagon"),
            _piece([1, 1, 4], b, "star"),
            _piece([1, 1, 5], b, "circle"),
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
    # ttt-rounds: by-stack moves play in rounds (tests/test_ttt_rounds.py), with
    # powers too since ttt-rounds3 (tests/test_ttt_rounds3.py)
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


# -- Hypothesis: random stack rule sets ------------------------------------------------
MOVES = ["orth-by-stack", "orth-by-full-stack", "orth-by-stack", "stationary", "adjacent", "linear"]


@st.composite
def stack_records(draw):
    dims = [draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(2, 4))]
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    n = {"2": 2, "3": 3, "2-vs-chaos": 3}[players]
    colours = ["black", "white", "pink"][:n]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    shapes = {}
    for s in names:
        shapes[s] = {"move": draw(st.sampled_from(MOVES))}
        if shapes[s]["move"] != "stationary" and draw(st.booleans()) and draw(st.booleans()):
            shapes[s]["cannot_move_backwards"] = True
    if not any(p["move"] in ("orth-by-stack", "orth-by-full-stack") for p in shapes.values()):
        shapes[names[0]] = {"move": "orth-by-stack"}
    reserves = {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours}
    pieces = []
    for x in range(1, dims[0] + 1):
        for y in range(1, dims[1] + 1):
            for z in range(1, draw(st.integers(0, dims[2] - 1)) + 1):
                pieces.append(
                    {
                        "at": [x, y, z],
                        "colour": draw(st.sampled_from(["black", "white", "yellow"])),
                        "shape": draw(st.sampled_from(sorted(shapes))),
                    }
                )
    checks = draw(
        st.lists(
            st.sampled_from(["first-3-wins", "first-4-loses", "goal-reached-stalemate"]),
            max_size=2,
            unique=True,
        )
    )
    board = {"kind": "stacks", "size": dims, "pieces": pieces}
    if draw(st.booleans()):
        board["exit_locked"] = [{"at": [[1, 1]], "players": [1]}]
    return {
        "name": "H",
        "board": board,
        "players": players,
        "reserves": reserves,
        "shapes": shapes,
        "turn_checks": checks,
        "move_limit": draw(st.integers(1, 30)),
        "boards": draw(st.sampled_from([1, 1, 2])),
        "phases": draw(st.sampled_from([[{}], [{"pass": True}], [{"movement": "placement-only"}, {}]])),
    }


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(stack_records(), st.integers(0, 10**6))
def test_random_stack_rule_sets_match_reference(rec, seed):
    rs = parsed_or_rejected(rec)
    core = make_core(rs)
    cells, res = core.cells(), list(core.reserves().values())
    same_pieces.start = [sum(1 for v in cells if v == c + 1) + res[c] for c in range(len(res))]
    try:
        play(rs, games=3, seed=seed, check=same_pieces)
    finally:
        same_pieces.start = None


def test_hidden_pieces_on_top_make_a_by_stack_move_an_attempt():
    """The mover sees its x alone, but a hidden white piece lies on it: the
    move would carry a piece it does not know of, so it only reveals it."""
    rs = _rs(
        "attempt",
        [2, 1, 4],
        cloaking="hides",
        reserves={"black": {"circle": 1}, "white": {"circle": 1}},
        pieces=[_piece([1, 1, 1], "black", "x"), _piece([1, 1, 2], "white", "circle")],
        shapes={"x": {"move": "orth-by-stack"}, "circle": {}},
        move_limit=9,
        turn_checks=[],
        phases=[{"cloaked": [[1, 1, 2]]}],
    )
    core = make_core(rs)
    assert core.player_view(0)[2] == "."  # cell (1,1,2) looks empty to black
    before = core.cells()
    core.apply_action(_moves(core)["stack(1,1)@1->stack(2,1)"])
    assert core.cells() == before and core.player() == 1
    assert core.player_view(0)[2] == "o"  # the attempt revealed it


def test_a_carried_hidden_piece_stays_hidden():
    """A hidden piece between the mover and a visible one counts by its height
    and travels; who had not seen it still does not."""
    rs = _rs(
        "carry-hidden",
        [2, 1, 4],
        cloaking="hides",
        reserves={"black": {"circle": 1}, "white": {"circle": 1}},
        pieces=[
            _piece([1, 1, 1], "black", "x"),
            _piece([1, 1, 2], "white", "circle"),
            _piece([1, 1, 3], "white", "circle"),
        ],
        shapes={"x": {"move": "orth-by-stack"}, "circle": {}},
        move_limit=9,
        turn_checks=[],
        phases=[{"cloaked": [[1, 1, 2], [2, 1, 2]]}],
    )
    core = make_core(rs)
    assert core.player_view(0)[:8:2] == ["x", ".", "o", "."]  # stack (1,1) bottom-up, as black sees it
    core.apply_action(_moves(core)["stack(1,1)@1->stack(2,1)"])
    assert _column(core, 2) == [(1, "x"), (2, "circle"), (2, "circle")]
    assert core.player_view(0)[1:8:2] == ["x", ".", "o", "."]  # stack (2,1): the carried piece still hidden

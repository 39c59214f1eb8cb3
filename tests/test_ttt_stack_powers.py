"""Powers of by-stack movers (issue 12 item 6's "A player’s rank in a move “by
stack” or “by full stack” is determined from the full set of pieces in the
destination stack (after the move)", wired into the covers of items 3-5;
docs/rules/ttt.md, "Powers of by-stack movers").

The engine is compared move by move with ``ReferenceState``
(tests/ttt_reference/), whose hands come from the brute-force poker
evaluator of tests/test_ttt_poker.py; small positions check the decisions by
hand; every rule set goes through ``pyspiel.random_sim_test``."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ttt import make_core, rules
from games.ttt.rules import RuleSetError
from games.ttt.schema import SHAPES_ALL
from test_ttt_stacks import same_pieces
from ttt_checks import (
    assert_is_legal_agrees_with_legal_actions,
    parsed_or_rejected,
    play_against_reference,
    random_sim_test_of,
)
from ttt_reference import ReferenceState

CAN = "can-capture"
MUST = "must-capture"


def power(cond, result, move, how=CAN):
    return {"move": move, "power": how, "condition": cond, "result": result}


def _piece(x, y, z, colour, shape):
    return {"at": [x, y, z], "colour": colour, "shape": shape}


def _rs(name, size, **kw):
    rec = {"name": name, "board": {"kind": "stacks", "size": size}, "move_limit": 30}
    rec.update(kw)
    if "pieces" in rec:
        rec["board"]["pieces"] = rec.pop("pieces")
    return rules.parse(rec)


def cases():
    out = []
    add = lambda name, size, **kw: out.append(_rs(name, size, **kw))
    add(
        "by-stack-cover-removes",
        [3, 1, 4],
        reserves={"black": {"x": 2, "circle": 1}, "white": {"x": 1, "circle": 2}},
        shapes={"x": power("cover", "removes", "orth-by-stack"), "circle": {"move": "adjacent"}},
    )
    add(
        "by-stack-by-rank-converts",
        [3, 2, 4],
        reserves={
            "black": {"circle": 2, "triangle": 1, "star": 1},
            "white": {"circle": 2, "triangle": 1, "star": 1},
        },
        shapes={
            "circle": power("cover-by-rank", "converts", "orth-by-stack"),
            "triangle": power("cover-by-rank", "removes", "orth-by-stack"),
            "star": {},
        },
    )
    add(
        "full-stack-pot",
        [2, 2, 5],
        players="3",
        pieces=[_piece(1, 1, 1, "yellow", "x")],
        reserves={
            "black": {"x": 2, "circle": 1},
            "white": {"x": 2, "circle": 1},
            "pink": {"x": 1, "circle": 2},
        },
        shapes={"x": power("cover-by-rank", "reincarnates-x2", "orth-by-full-stack"), "circle": {}},
    )
    add(
        "by-stack-must",
        [3, 1, 4],
        phases=[{"pass": True}],
        pieces=[_piece(1, 1, 1, "black", "pentagon"), _piece(3, 1, 1, "white", "pentagon")],
        reserves={"black": {"circle": 2}, "white": {"circle": 2}},
        shapes={"pentagon": power("cover", "reincarnates", "orth-by-stack", MUST), "circle": {}},
    )
    add(
        "powerless-mover-on-powered",
        [3, 1, 4],
        reserves={"black": {"x": 2, "star": 1}, "white": {"x": 2, "star": 1}},
        shapes={"x": {"move": "orth-by-stack"}, "star": power("cover-by-rank", "converts", "stationary")},
    )
    add(
        "mixed-with-plain-covers",
        [3, 2, 3],
        players="2-vs-chaos",
        reserves={
            "black": {"cross": 1, "circle": 2},
            "white": {"cross": 1, "circle": 2},
            "pink": {"circle": 2},
        },
        shapes={
            "cross": power("cover-by-rank", "removes", "orth-by-full-stack"),
            "circle": power("cover-by-rank", "reincarnates", "adjacent"),
        },
    )
    add(
        "goal-replacement",
        [2, 3, 3],
        reserves={"black": {"triangle": 2, "pentagon": 1}, "white": {"triangle": 2, "pentagon": 1}},
        shapes={
            "triangle": dict(power("cover", "removes", "orth-by-stack"), cannot_move_backwards=True),
            "pentagon": {"move": "orth-by-stack"},
        },
    )
    return out


def _case(name):
    return [r for r in cases() if r.name == name][0]


def play(rs, games, seed, check=same_pieces):
    ref = ReferenceState(rs)
    played = play_against_reference(rs, games, seed, ReferenceState, check)
    return sum(ref.nstk > 0 and ref.stk0 <= a < ref.stk0 + ref.nstk for a in played)


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_engine_matches_reference(rs):
    assert play(rs, games=40, seed=sum(map(ord, rs.name))) > 0


@pytest.mark.slow
@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_engine_matches_reference_long(rs):
    play(rs, games=500, seed=13)


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=8)


@pytest.mark.parametrize("name", ["by-stack-must", "full-stack-pot"])
def test_is_legal_agrees_with_legal_actions(name):
    assert_is_legal_agrees_with_legal_actions(_case(name), games=4, seed=3)


# -- the decisions, position by position ----------------------------------------------


def _move(core, text):
    for a in core.legal_action_list():
        if core.action_string(core.player(), a) == text:
            core.apply_action(a)
            return
    raise AssertionError((text, [core.action_string(core.player(), a) for a in core.legal_action_list()]))


def _column(core, x):
    X, Y, Z = core.tab.params["size"]
    shapes, cells = core.shapes(), core.cells()
    return [
        (cells[x - 1 + X * Y * z], shapes[x - 1 + X * Y * z]) for z in range(Z) if shapes[x - 1 + X * Y * z]
    ]


def _by_rank_position(black_extra):
    """White's star (by rank) on stack (2,1); black moves its triangle stack
    from (1,1) onto it. Black's hand after the move: its triangle plus
    ``black_extra`` already on (2,1)."""
    pieces = [_piece(2, 1, 1, "white", "star")] + [
        _piece(2, 1, 2 + i, "black", s) for i, s in enumerate(black_extra)
    ]
    pieces.append(_piece(1, 1, 1, "black", "triangle"))
    return _rs(
        "pos",
        [2, 1, 5],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={
            "triangle": power("cover-by-rank", "removes", "orth-by-stack"),
            "star": power("cover-by-rank", "removes", "orth-by-stack"),
            "x": power("cover-by-rank", "removes", "stationary"),
        },
    )


def test_poker_hands_not_shapes_decide_a_by_rank_stack_cover():
    """The star outranks the triangle by shape, but the by-stack mover's rank
    is its player's hand: black's triangle and x after the move make a
    2-straight, which outranks white's singleton star, so the star is taken."""
    core = make_core(_by_rank_position(["x"]))
    _move(core, "stack(1,1)@1->stack(2,1)")
    assert _column(core, 2) == [(1, "x"), (1, "triangle")]  # the star is gone, the pieces fell
    # alone, black's singleton triangle loses to white's singleton star (its shape is higher)
    core = make_core(_by_rank_position([]))
    _move(core, "stack(1,1)@1->stack(2,1)")
    assert _column(core, 2) == [(2, "star")]  # the mover was captured (removed)


def test_equal_hands_destroy_both():
    """Both players hold a singleton star in the stack after the move: equal
    rank, "mutual destruction"."""
    pieces = [_piece(2, 1, 1, "white", "star"), _piece(1, 1, 1, "black", "star")]
    rs = _rs(
        "eq",
        [2, 1, 4],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={"star": power("cover-by-rank", "removes", "orth-by-stack")},
    )
    core = make_core(rs)
    _move(core, "stack(1,1)@1->stack(2,1)")
    assert _column(core, 2) == [] and _column(core, 1) == []


def test_a_cover_class_mover_takes_every_defender_below_its_carried_pieces():
    pieces = [
        _piece(2, 1, 1, "white", "circle"),
        _piece(2, 1, 2, "white", "star"),
        _piece(1, 1, 1, "black", "x"),
        _piece(1, 1, 2, "white", "circle"),
    ]
    rs = _rs(
        "cv",
        [2, 1, 5],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={
            "x": power("cover", "removes", "orth-by-stack"),
            "circle": {},
            "star": power("cover-by-rank", "removes", "stationary"),
        },
    )
    # (ttt-potshow: a removing mover, since a converting or reincarnating one goes to the
    # showdown instead, tests/test_ttt_potshow.py)
    core = make_core(rs)
    _move(core, "stack(1,1)@1->stack(2,1)")
    # the carried white circle rides on the x and is no defender; the two below are captured
    assert _column(core, 2) == [(1, "x"), (2, "circle")]
    assert core.shape_reserves()["black"] == {"circle": 0, "x": 0, "star": 0}


def test_validation_now_allows_covers_for_by_stack_movers():
    rules.parse(
        {
            "name": "ok",
            "board": {"kind": "stacks", "size": [2, 1, 3]},
            "move_limit": 9,
            "reserves": {"black": {"x": 1}, "white": {"x": 1}},
            "shapes": {"x": power("cover-by-rank", "converts", "orth-by-stack")},
        }
    )
    with pytest.raises(
        RuleSetError, match="'jump' with move 'orth-by-stack' is not defined"
    ):  # ttt-stackjump
        rules.parse(
            {
                "name": "no",
                "board": {"kind": "stacks", "size": [2, 1, 3]},
                "move_limit": 9,
                "reserves": {"black": {"x": 1}, "white": {"x": 1}},
                "shapes": {"x": power("jump", "removes", "orth-by-stack")},
            }
        )


# -- Hypothesis ----------------------------------------------------------------------------
MOVES = ["orth-by-stack", "orth-by-full-stack", "orth-by-stack", "stationary", "adjacent"]
RESULTS = ["removes", "converts", "reincarnates", "reincarnates-x2"]


@st.composite
def records(draw):
    dims = [draw(st.integers(1, 3)), draw(st.integers(1, 2)), draw(st.integers(2, 4))]
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    colours = ["black", "white", "pink"][: {"2": 2, "3": 3, "2-vs-chaos": 3}[players]]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    shapes = {}
    for s in names:
        shapes[s] = {"move": draw(st.sampled_from(MOVES))}
        how = draw(st.sampled_from(["none", CAN, MUST]))
        if how != "none":
            shapes[s].update(
                power=how,
                condition=draw(st.sampled_from(["cover", "cover-by-rank"])),
                result=draw(st.sampled_from(RESULTS)),
            )
    cells = [[x, y, 1] for x in range(1, dims[0] + 1) for y in range(1, dims[1] + 1)]
    at = draw(st.lists(st.sampled_from(cells), max_size=2, unique_by=tuple))
    pieces = [
        {
            "at": a,
            "colour": draw(st.sampled_from(colours + ["yellow"])),
            "shape": draw(st.sampled_from(sorted(shapes))),
        }
        for a in at
    ]
    return {
        "name": "HS",
        "board": {"kind": "stacks", "size": dims, "pieces": pieces},
        "players": players,
        "reserves": {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours},
        "shapes": shapes,
        "move_limit": draw(st.integers(1, 30)),
        "turn_checks": draw(st.lists(st.sampled_from(["first-3-wins", "first-2-loses"]), max_size=1)),
        "phases": draw(st.sampled_from([[{}], [{"pass": True}]])),
    }


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(records(), st.integers(0, 10**6))
def test_random_by_stack_power_rule_sets_match_reference(rec, seed):
    """Move by move the reference's; with results that neither remove nor
    double and no by-rank conflict, the pieces are conserved."""
    rs = parsed_or_rejected(rec)
    props = rs.record["shapes"].values()
    results = {p.get("result") for p in props}
    conserving = not ({"removes", "reincarnates-x2"} & results) and not any(
        p.get("condition") == "cover-by-rank" for p in props
    )
    last = {}

    def check(core, ref):
        same_pieces(core, ref)
        total = sum(1 for v in core.cells() if v > 0) + sum(core.reserves().values())
        if conserving and "prev" in last and core.player() != -4:
            assert total == last["prev"]
        last["prev"] = total
        if core.player() == -4:
            last.clear()

    play_against_reference(rs, 3, seed, ReferenceState, check)

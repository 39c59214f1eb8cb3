"""Jumps and chain jumps on stacks boards (issue 12 item 4 with item 6;
docs/rules/ttt.md, "Jumps and chain jumps", "On stacks"; ttt-stackjump).

The seed: "If the board is “stacks”, then moves are always to the tops of
stacks (so height is ignored when determining whether the move qualifies as
“orthogonal”), but fall to the lowest empty space on that stack". Read here:
a jumper (a top piece) jumps along the stacks' grid over the top piece of the
adjacent stack to the stack directly beyond, and falls there; only the top
piece it passes over is captured. The engine is compared move by move with
``ReferenceState`` (tests/ttt_reference/, its own jump geometry over
the reference's cells), small positions check each decision by hand,
Hypothesis draws stacks rule sets with jumpers, and every test rule set goes
through ``pyspiel.random_sim_test`` with serialisation."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ttt import make_core, rules
from games.ttt.rules import RuleSetError
from games.ttt.schema import SHAPES_ALL
from ttt_checks import (
    assert_is_legal_agrees_with_legal_actions,
    jump_count_check,
    parsed_or_rejected,
    random_sim_test_of,
)
from ttt_checks import play_against_reference as play
from ttt_checks import same_pieces as _same_pieces
from ttt_reference import ReferenceState

CAN = "can-capture"
MUST = "must-capture"


def power(cond, result, move, how=CAN):
    return {"move": move, "power": how, "condition": cond, "result": result}


def _piece(x, y, z, colour, shape):
    return {"at": [x, y, z], "colour": colour, "shape": shape}


def _rs(name, size=(4, 4, 3), pieces=(), locked=(), **kw):
    rec = {
        "name": name,
        "board": {"kind": "stacks", "size": list(size), "pieces": list(pieces), "locked": list(locked)},
        "turn_checks": ["first-4-wins"],
    }
    rec.update(kw)
    return rules.parse(rec)


def cases():
    """One small stacks rule set per decision (and a few mixtures)."""
    out = []
    add = lambda name, **kw: out.append(_rs(name, **kw))
    add(
        "stack-jump-removes",
        reserves={"black": {"x": 3, "circle": 2}, "white": {"x": 3, "circle": 2}},
        shapes={"x": power("jump", "removes", "adjacent"), "circle": {"move": "adjacent"}},
        move_limit=40,
    )
    add(
        "stack-jump-converts-orth",
        size=(4, 1, 4),
        reserves={"black": {"cross": 3, "circle": 2}, "white": {"cross": 3, "circle": 2}},
        shapes={"cross": power("jump", "converts", "orthogonal"), "circle": {"move": "adjacent"}},
        move_limit=40,
        turn_checks=["first-4-wins"],
    )
    add(
        "stack-jump-x2-must",
        size=(3, 3, 2),
        reserves={"black": {"star": 2, "circle": 2}, "white": {"star": 2, "circle": 2}},
        shapes={"star": power("jump", "reincarnates-x2", "adjacent", MUST), "circle": {"move": "adjacent"}},
        move_limit=40,
        phases=[{"pass": True}],
    )
    add(
        "stack-chain-can",
        size=(5, 5, 3),
        pieces=[
            _piece(1, 1, 1, "black", "x"),
            _piece(2, 2, 1, "white", "circle"),
            _piece(2, 2, 2, "white", "circle"),
            _piece(4, 4, 1, "white", "circle"),
            _piece(4, 2, 1, "black", "circle"),
            _piece(4, 2, 2, "white", "x"),
            _piece(3, 3, 1, "white", "circle"),
            _piece(3, 3, 2, "white", "circle"),
            _piece(3, 3, 3, "black", "circle"),
        ],
        reserves={"black": {"circle": 1}, "white": {"x": 1, "circle": 1}},
        shapes={"x": power("chain-jump", "removes", "adjacent"), "circle": {"move": "adjacent"}},
        move_limit=40,
        phases=[{"pass": True}],
    )
    add(
        "stack-chain-must-reincarnates",
        size=(5, 1, 3),
        pieces=[
            _piece(1, 1, 1, "black", "x"),
            _piece(2, 1, 1, "white", "circle"),
            _piece(4, 1, 1, "white", "x"),
            _piece(4, 1, 2, "white", "circle"),
        ],
        reserves={"black": {"circle": 2}, "white": {"circle": 2}},
        shapes={"x": power("chain-jump", "reincarnates", "adjacent", MUST), "circle": {"move": "adjacent"}},
        move_limit=40,
    )
    add(
        "stack-draughts-like",
        size=(4, 4, 2),
        pieces=[
            _piece(1, 1, 1, "black", "circle"),
            _piece(3, 1, 1, "black", "circle"),
            _piece(2, 4, 1, "white", "circle"),
            _piece(4, 4, 1, "white", "circle"),
        ],
        reserves={"black": {"circle": 1}, "white": {"circle": 1}},
        shapes={
            "circle": power("chain-jump", "removes", "forward-diagonal", MUST),
            "pentagon": power("chain-jump", "removes", "adjacent-diagonal", MUST),
        },
        move_limit=40,
        phases=[{"pass": True}],
        stalemate="most-pieces-wins",
    )
    add(
        "stack-jump-locks",
        size=(4, 2, 3),
        locked=[[2, 1, 1], [3, 2, 2]],
        reserves={"black": {"x": 3, "circle": 2}, "white": {"x": 3, "circle": 2}},
        shapes={"x": power("chain-jump", "removes", "linear"), "circle": {"move": "adjacent"}},
        move_limit=40,
        phases=[{"pass": True, "locked": [[4, 1, 2]]}],
    )
    add(
        "stack-jump-with-covers",
        players="3",
        size=(4, 3, 3),
        pieces=[_piece(2, 2, 1, "yellow", "cross")],
        reserves={
            "black": {"x": 2, "cross": 1, "circle": 2},
            "white": {"x": 2, "cross": 1, "circle": 2},
            "pink": {"x": 1, "circle": 2},
        },
        shapes={
            "x": power("chain-jump", "reincarnates", "adjacent"),
            "cross": power("cover-by-rank", "converts", "adjacent"),
            "circle": power("cover", "removes", "orthogonal"),
        },
        move_limit=40,
    )
    add(
        "stack-jump-two-boards",
        boards=2,
        size=(3, 3, 2),
        reserves={"black": {"x": 3, "circle": 2}, "white": {"x": 3, "circle": 2}},
        shapes={"x": power("chain-jump", "removes", "adjacent"), "circle": {"move": "adjacent"}},
        move_limit=30,
        turn_checks=["first-3-wins"],
    )
    add(
        "stack-jump-goal-replacement",
        size=(3, 4, 2),
        reserves={"black": {"triangle": 2, "pentagon": 1}, "white": {"triangle": 2, "pentagon": 1}},
        shapes={"triangle": power("jump", "removes", "forward-orthogonal"), "pentagon": {"move": "adjacent"}},
        move_limit=40,
    )
    add(
        "stack-jump-pieces-per-turn-2",
        pieces_per_turn=2,
        size=(4, 3, 3),
        reserves={"black": {"x": 4}, "white": {"x": 4}},
        shapes={"x": power("chain-jump", "converts", "adjacent")},
        move_limit=40,
        phases=[{"pass": True}],
    )
    # surrounds, read on the stacks' tops
    add(
        "stack-reversi-like",
        size=(4, 4, 2),
        pieces=[
            _piece(2, 2, 1, "black", "circle"),
            _piece(3, 3, 1, "white", "circle"),
            _piece(3, 3, 2, "black", "circle"),
            _piece(2, 3, 1, "white", "circle"),
            _piece(3, 2, 1, "black", "circle"),
            _piece(3, 2, 2, "white", "circle"),
        ],
        reserves={"black": {"circle": 8}, "white": {"circle": 8}},
        stalemate="most-pieces-wins",
        shapes={"circle": power("surround-line", "converts", "stationary", MUST)},
        phases=[{"pass": True}],
    )
    add(
        "stack-go-like",
        size=(4, 3, 3),
        locked=[[4, 3, 1]],
        reserves={"black": {"circle": 9}, "white": {"circle": 9}},
        move_limit=40,
        shapes={"circle": power("surround-orthogonal", "removes", "stationary")},
        phases=[{"pass": True}],
    )
    add(
        "stack-surround-orth-moves",
        players="3",
        size=(4, 3, 2),
        locked=[[4, 3, 1]],
        reserves={"black": {"x": 2, "circle": 2}, "white": {"x": 2, "circle": 2}, "pink": {"circle": 2}},
        shapes={
            "x": power("surround-orthogonal", "reincarnates", "adjacent"),
            "circle": {"move": "adjacent"},
        },
        move_limit=40,
    )
    add(
        "stack-surround-line-and-jumps",
        size=(4, 4, 3),
        reserves={"black": {"star": 2, "x": 2, "circle": 2}, "white": {"star": 2, "x": 2, "circle": 2}},
        shapes={
            "star": power("surround-line", "reincarnates-x2", "orthogonal"),
            "x": power("chain-jump", "converts", "adjacent"),
            "circle": power("cover-by-rank", "converts", "adjacent"),
        },
        move_limit=40,
        phases=[{"pass": True, "locked": [[1, 1, 2]]}],
    )
    return out


def _case(name):
    return [r for r in cases() if r.name == name][0]


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_engine_matches_reference(rs):
    play(rs, games=50, seed=sum(map(ord, rs.name)), ref_class=ReferenceState, check=_same_pieces)


@pytest.mark.slow
@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_engine_matches_reference_long(rs):
    play(rs, games=600, seed=11, ref_class=ReferenceState, check=_same_pieces)


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=8)


@pytest.mark.parametrize(
    "name",
    [
        "stack-jump-x2-must",
        "stack-chain-can",
        "stack-chain-must-reincarnates",
        "stack-draughts-like",
        "stack-reversi-like",
    ],
)
def test_is_legal_agrees_with_legal_actions(name):
    assert_is_legal_agrees_with_legal_actions(_case(name), games=5, seed=3)


def test_jumps_and_chains_are_played_in_the_checks():
    """The comparisons above do jump on stacks, and reach end-chains."""
    jumps = stops = 0
    for rs in cases():
        ref = ReferenceState(rs)
        for a in play(rs, games=10, seed=5, ref_class=ReferenceState):
            stops += a == ref.a_stop
        core = make_core(rs)
        jumps += sum(
            " over " in core.action_string(core.player(), a)
            for a in core.legal_action_list()
            if core.player() >= 0
        )
    assert stops > 0
    assert jumps > 0


# -- the decisions, position by position -------------------------------------------------


def _row(pieces, shapes, size=(5, 1, 3), **kw):
    kw.setdefault("reserves", {"black": {}, "white": {}})
    return _rs("pos", size=size, pieces=pieces, shapes=shapes, move_limit=20, phases=[{"pass": True}], **kw)


def _strings(core):
    return [core.action_string(core.player(), a) for a in core.legal_action_list()]


def _do(core, text):
    core.apply_action([a for a, s in zip(core.legal_action_list(), _strings(core)) if s == text][0])


def _column(core, x, y=1):
    """Colour codes of stack (x, y), bottom first (0: empty)."""
    X, Y, Z = core.tab.params["size"]
    cells = core.cells()
    return [cells[(x - 1) + X * ((y - 1) + Y * z)] for z in range(Z)]


def test_a_jump_takes_the_top_piece_and_falls_on_the_stack_beyond():
    """Height ignored: the x at the bottom of stack 1 jumps the top of stack 2
    (white, on a black piece) and falls onto stack 3's lowest empty space;
    the black piece under the captive stays."""
    rs = _row(
        [
            _piece(1, 1, 1, "black", "x"),
            _piece(2, 1, 1, "black", "circle"),
            _piece(2, 1, 2, "white", "circle"),
            _piece(3, 1, 1, "white", "circle"),
        ],
        {"x": power("jump", "removes", "adjacent"), "circle": {}},
    )
    core = make_core(rs)
    # the plain move onto stack 2 stays legal (it has room), as on any stacks board
    assert _strings(core) == ["stack(1,1)->stack(2,1)", "stack(1,1)->stack(3,1) over stack(2,1)", "pass"]
    _do(core, "stack(1,1)->stack(3,1) over stack(2,1)")
    assert _column(core, 1) == [0, 0, 0]
    assert _column(core, 2) == [1, 0, 0]  # only the top piece was captured
    assert _column(core, 3) == [2, 1, 0]  # the jumper fell onto the white circle, not covering it
    assert core.shapes()[2 + 5] == "x"


def test_no_jump_over_an_own_top_an_empty_stack_or_onto_a_full_stack():
    rs = _row(
        [
            _piece(2, 1, 1, "black", "x"),
            _piece(1, 1, 1, "white", "circle"),
            _piece(1, 1, 2, "black", "circle"),
            _piece(3, 1, 1, "white", "circle"),
            _piece(4, 1, 1, "white", "circle"),
            _piece(4, 1, 2, "white", "circle"),
        ],
        {"x": power("jump", "removes", "adjacent"), "circle": {}},
        size=(4, 1, 2),
    )
    core = make_core(rs)
    # stack 1's top is black; stack 3's top is white but stack 4 beyond is full
    assert _strings(core) == ["stack(2,1)->stack(3,1)", "pass"]


def test_a_locked_top_is_a_wall_not_a_piece():
    rs = _row(
        [_piece(1, 1, 1, "black", "x"), _piece(2, 1, 1, "white", "circle")],
        {"x": power("jump", "removes", "adjacent"), "circle": {}},
        locked=[[2, 1, 2]],
    )
    # the move onto stack 2 lands above the locked space; no jump over it
    assert _strings(make_core(rs)) == ["stack(1,1)->stack(2,1)", "pass"]


def test_converts_changes_the_top_in_place():
    rs = _row(
        [
            _piece(1, 1, 1, "black", "x"),
            _piece(2, 1, 1, "white", "circle"),
            _piece(2, 1, 2, "white", "circle"),
        ],
        {"x": power("jump", "converts", "adjacent"), "circle": {}},
    )
    core = make_core(rs)
    _do(core, "stack(1,1)->stack(3,1) over stack(2,1)")
    assert _column(core, 2) == [2, 1, 0] and _column(core, 3) == [1, 0, 0]


def test_chain_jump_goes_on_from_the_top_of_the_stack_it_fell_on():
    rs = _row(
        [
            _piece(1, 1, 1, "black", "x"),
            _piece(2, 1, 1, "white", "circle"),
            _piece(3, 1, 1, "white", "circle"),
            _piece(4, 1, 1, "white", "circle"),
            _piece(4, 1, 2, "white", "circle"),
        ],
        {"x": power("chain-jump", "reincarnates", "adjacent"), "circle": {}},
    )
    core = make_core(rs)
    _do(core, "stack(1,1)->stack(3,1) over stack(2,1)")  # onto the white circle of stack 3
    assert core.player() == 0 and core.pending_chain() == 2
    assert _strings(core) == ["stack(3,1)->stack(5,1) over stack(4,1)", "end-chain"]
    _do(core, "stack(3,1)->stack(5,1) over stack(4,1)")
    assert _column(core, 4) == [2, 0, 0] and _column(core, 5) == [1, 0, 0]
    assert core.shape_reserves()["black"]["circle"] == 2
    # and back again over stack 4's remaining circle, onto stack 3 (no rule stops a chain turning)
    assert _strings(core) == ["stack(5,1)->stack(3,1) over stack(4,1)", "end-chain"]
    _do(core, "end-chain")
    assert core.player() == 1


def test_a_jumper_landing_on_a_stack_does_not_cover_it():
    """A jumper captures only by jumping: placed or moved onto a stack of an
    opponent's pieces it covers nothing (with covers in the rule set)."""
    rs = _row(
        [_piece(1, 1, 1, "white", "circle")],
        {"x": power("jump", "removes", "adjacent"), "circle": power("cover", "removes", "adjacent")},
        reserves={"black": {"x": 1}, "white": {}},
        size=(2, 1, 3),
    )
    core = make_core(rs)
    a = [a for a, s in zip(core.legal_action_list(), _strings(core)) if s.startswith("black@stack(1,1)")][0]
    core.apply_action(a)
    assert _column(core, 1, 1) == [2, 1, 0]


def test_validation_refuses_jumps_by_stack_movers_only():
    rec = {
        "name": "bad",
        "board": {"kind": "stacks", "size": [3, 1, 3]},
        "move_limit": 10,
        "reserves": {"black": {"x": 1}, "white": {"x": 1}},
        "shapes": {
            "x": power("jump", "removes", "adjacent"),
            "circle": power("chain-jump", "removes", "orth-by-stack"),
            "star": power("jump", "removes", "orth-by-full-stack"),
        },
    }
    with pytest.raises(RuleSetError) as e:
        rules.parse(rec)
    text = str(e.value)
    assert "shapes.circle.condition: 'chain-jump' with move 'orth-by-stack' is not defined" in text
    assert "shapes.star.condition: 'jump' with move 'orth-by-full-stack' is not defined" in text
    assert "shapes.x" not in text


# -- Hypothesis: random stacks rule sets with jumpers -------------------------------------
MOVES = [
    "adjacent",
    "adjacent-orthogonal",
    "adjacent-diagonal",
    "orthogonal",
    "diagonal",
    "linear",
    "forward-orthogonal",
    "forward-diagonal",
    "stationary",
]


@st.composite
def stack_jump_records(draw):
    dims = [draw(st.integers(1, 5)), draw(st.integers(1, 4)), draw(st.integers(2, 3))]
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    colours = ["black", "white", "pink"][: {"2": 2, "3": 3, "2-vs-chaos": 3}[players]]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    shapes = {}
    for s in names:
        move = draw(st.sampled_from(MOVES))
        shapes[s] = {"move": move}
        how = draw(st.sampled_from(["none", CAN, MUST]))
        if how != "none":
            cond = draw(
                st.sampled_from(
                    [
                        "jump",
                        "chain-jump",
                        "chain-jump",
                        "cover",
                        "cover-by-rank",
                        "surround-line",
                        "surround-orthogonal",
                    ]
                    if move != "stationary"
                    else ["cover", "cover-by-rank", "surround-line", "surround-orthogonal"]
                )
            )
            shapes[s].update(
                power=how,
                condition=cond,
                result=draw(st.sampled_from(["removes", "reincarnates", "reincarnates-x2", "converts"])),
            )
    columns = [[x, y] for x in range(1, dims[0] + 1) for y in range(1, dims[1] + 1)]
    pieces = []
    for x, y in draw(st.lists(st.sampled_from(columns), max_size=4, unique_by=tuple)):
        for z in range(1, draw(st.integers(1, dims[2])) + 1):
            pieces.append(
                {
                    "at": [x, y, z],
                    "colour": draw(st.sampled_from(colours + ["yellow"])),
                    "shape": draw(st.sampled_from(sorted(shapes))),
                }
            )
    return {
        "name": "HSJ",
        "board": {"kind": "stacks", "size": dims, "pieces": pieces},
        "players": players,
        "reserves": {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours},
        "shapes": shapes,
        "move_limit": draw(st.integers(1, 30)),
        "pieces_per_turn": draw(st.sampled_from([1, 1, 2])),
        "turn_checks": draw(st.lists(st.sampled_from(["first-3-wins", "first-2-loses"]), max_size=1)),
        "stalemate": draw(st.sampled_from(["draws", "most-pieces-wins"])),
        "phases": draw(st.sampled_from([[{}], [{"pass": True}], [{"movement": "placement-only"}, {}]])),
    }


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(stack_jump_records(), st.integers(0, 10**6))
def test_random_stack_jump_rule_sets_match_reference(rec, seed):
    """Move by move the reference's; pieces are conserved except by the stated
    captures. When every shape jumps, no arrival is a cover fight, so a jump
    that removes takes one piece off, x2 adds one, the others keep the count,
    and nothing else changes it (an end-chain, a plain move, a placement).
    Otherwise (on stacks every arrival lands on pieces, and a powerless or
    by-rank piece landing on a jumper or surrounder is captured by it) only
    the direction is checked: the count grows only with x2 results, and
    falls only with removals or fights (mutual destruction; a captive dealt
    to a communal captor, whose reserve no seat plays)."""
    rs = parsed_or_rejected(rec)
    props = list(rs.record["shapes"].values())
    results = {p.get("result") for p in props}
    covers = not all(
        p.get("power", "none") != "none" and p.get("condition") in ("jump", "chain-jump") for p in props
    )
    surrounds = any(p.get("condition", "").startswith("surround") for p in props)
    play(
        rs,
        games=3,
        seed=seed,
        ref_class=ReferenceState,
        check=jump_count_check(results, covers or surrounds, _same_pieces),
    )


# -- surrounds on stacks, position by position ---------------------------------------------


def test_surround_line_on_stacks_takes_tops_between_the_arrival_and_an_own_top():
    """Reversi on the tops: black placed on stack 1 closes stack 2's white top
    against stack 3's black top; the black piece under stack 2's top is not
    part of any line, and stack 4's white top (closed by nothing) stays."""
    rs = _row(
        [
            _piece(2, 1, 1, "black", "circle"),
            _piece(2, 1, 2, "white", "circle"),
            _piece(3, 1, 1, "black", "circle"),
            _piece(4, 1, 1, "white", "circle"),
        ],
        {"circle": power("surround-line", "removes", "stationary")},
        reserves={"black": {"circle": 1}, "white": {}},
    )
    core = make_core(rs)
    _do(core, "black@stack(1,1) circle")
    assert _column(core, 2) == [1, 0, 0]  # the white top left; the black piece under it stays
    assert _column(core, 4) == [2, 0, 0]


def test_surround_orthogonal_on_stacks_counts_empty_stacks_as_liberties():
    """Go on the tops: white's top on stack 2 is closed by black tops and a
    locked top (a wall); filling the last neighbour captures it. With an empty
    neighbour stack it would stay."""
    rs = _row(
        [
            _piece(2, 1, 1, "white", "circle"),
            _piece(2, 1, 2, "white", "circle"),
            _piece(1, 1, 1, "black", "circle"),
        ],
        {"circle": power("surround-orthogonal", "converts", "stationary")},
        size=(3, 2, 3),
        reserves={"black": {"circle": 2}, "white": {}},
        locked=[[3, 1, 1]],
    )
    core = make_core(rs)
    assert [s_ for s_ in _strings(core) if "(2,2)" in s_] == ["black@stack(2,2) circle"]
    _do(core, "black@stack(2,2) circle")
    # stack (2,1): its top is orthogonally next to (1,1) black, (3,1) a wall, (2,2) black: converted
    assert _column(core, 2) == [2, 1, 0]
    rs = _row(
        [_piece(2, 1, 1, "white", "circle"), _piece(1, 1, 1, "black", "circle")],
        {"circle": power("surround-orthogonal", "converts", "stationary")},
        size=(3, 2, 3),
        reserves={"black": {"circle": 2}, "white": {}},
    )
    core = make_core(rs)
    _do(core, "black@stack(2,2) circle")
    assert _column(core, 2) == [2, 0, 0]  # stack (3,1) is empty: a liberty


def test_validation_refuses_surrounds_by_stack_movers_only():
    rec = {
        "name": "bad",
        "board": {"kind": "stacks", "size": [3, 1, 3]},
        "move_limit": 10,
        "reserves": {"black": {"x": 1}, "white": {"x": 1}},
        "shapes": {
            "x": power("surround-line", "removes", "stationary"),
            "circle": power("surround-orthogonal", "removes", "orth-by-stack"),
        },
    }
    with pytest.raises(RuleSetError) as e:
        rules.parse(rec)
    text = str(e.value)
    assert "shapes.circle.condition: 'surround-orthogonal' with move 'orth-by-stack' is not defined" in text
    assert "shapes.x" not in text


def test_a_surrounders_look_ahead_keeps_the_covered_piece():
    """Regression (flat board): a must-capture surrounder replacement's
    look-ahead for a cover move used to erase the covered piece, so the
    start position lost a pre-placed piece."""
    rec = {
        "name": "r",
        "board": {
            "kind": "squares",
            "size": [2, 1, 1],
            "pieces": [
                {"at": [1, 1, 1], "colour": "white", "shape": "circle"},
                {"at": [2, 1, 1], "colour": "black", "shape": "cross"},
            ],
        },
        "reserves": {"black": {}, "white": {}},
        "move_limit": 1,
        "shapes": {
            "circle": power("jump", "removes", "adjacent"),
            "triangle": power("surround-line", "removes", "adjacent", MUST),
            "cross": {"move": "forward-orthogonal"},
        },
    }
    core = make_core(rules.parse(rec))
    assert core.cells() == [2, 1] and core.shapes() == ["circle", "cross"]


def test_validation_refuses_jumps_on_stacks_in_rounds():
    """ttt-chainback: jumps on stacks are played in rounds when every phase
    is one (tests/test_ttt_chainback.py); a mix with sequential phases is refused."""
    with pytest.raises(RuleSetError, match="'jump' is not supported in a rule set that mixes sequential"):
        rules.parse(
            {
                "name": "r",
                "board": {"kind": "stacks", "size": [4, 4, 3]},
                "phases": [{"order": "single"}, {}],
                "reserves": {"black": {"x": 2}, "white": {"x": 2}},
                "move_limit": 10,
                "shapes": {"x": power("jump", "removes", "adjacent")},
            }
        )

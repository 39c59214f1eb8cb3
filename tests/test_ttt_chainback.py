"""The seed's "Chain Jump (+ back)" (condition ``chain-jump-back``;
docs/rules/ttt.md, "Chain Jump (+ back)"), read as international draughts'
man: it moves forwards only but its jumps, the first and a chain's extra ones,
may go backwards; a plain move still may not.

The engine is compared move by move with the reference models
(``ReferenceState`` on flat boards, ``ReferenceState`` on stacks, whose
``jumps_back`` reading is written apart from the engine's); small positions
check the decision by hand; a shape that may move backwards anyway plays
exactly as ``chain-jump``; Hypothesis draws rule sets with "+ back" jumpers;
every test rule set goes through ``pyspiel.random_sim_test``."""

import random

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
BACK = "chain-jump-back"


def power(cond, result, move, how=CAN, **extra):
    return dict({"move": move, "power": how, "condition": cond, "result": result}, **extra)


def _piece(x, y, colour, shape, z=1):
    return {"at": [x, y, z], "colour": colour, "shape": shape}


def _rs(name, **kw):
    rec = {"name": name, "board": {"kind": "squares", "size": [4, 4, 1]}}
    rec.update(kw)
    return rules.parse(rec)


def cases():
    """Flat-board rule sets with "+ back" jumpers (one per way a shape can be
    held forwards, and mixtures)."""
    out = []
    add = lambda name, **kw: out.append(_rs(name, **kw))
    # international draughts' men: forward-diagonal movers that jump in all four diagonals
    add(
        "back-draughts",
        board={
            "kind": "squares",
            "size": [5, 5, 1],
            "pieces": [
                _piece(1, 1, "black", "circle"),
                _piece(3, 1, "black", "circle"),
                _piece(5, 1, "black", "circle"),
                _piece(2, 4, "white", "circle"),
                _piece(4, 4, "white", "circle"),
                _piece(1, 5, "white", "circle"),
            ],
        },
        reserves={"black": {}, "white": {}},
        shapes={
            "circle": power(BACK, "removes", "forward-diagonal", MUST),
            "pentagon": power("chain-jump", "removes", "adjacent-diagonal", MUST),
        },
        move_limit=40,
        phases=[{"pass": True}],
        stalemate="most-pieces-wins",
    )
    # a shape marked "cannot move backwards" with an all-direction move
    add(
        "back-no-back-adjacent",
        board={"kind": "squares", "size": [4, 5, 1]},
        reserves={"black": {"x": 3, "circle": 2}, "white": {"x": 3, "circle": 2}},
        shapes={
            "x": power(BACK, "removes", "adjacent", cannot_move_backwards=True),
            "circle": {"move": "adjacent"},
        },
        move_limit=40,
        phases=[{"pass": True}],
    )
    add(
        "back-no-back-reincarnates-must",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"x": 2, "star": 2}, "white": {"x": 2, "star": 2}},
        shapes={
            "x": power(BACK, "reincarnates", "orthogonal", MUST, cannot_move_backwards=True),
            "star": {"move": "adjacent"},
        },
        move_limit=40,
    )
    add(
        "back-forward-orth-converts",
        board={"kind": "squares", "size": [3, 5, 1]},
        reserves={"black": {"triangle": 3, "pentagon": 1}, "white": {"triangle": 3, "pentagon": 1}},
        shapes={"triangle": power(BACK, "converts", "forward-orthogonal"), "pentagon": {"move": "adjacent"}},
        move_limit=40,
        phases=[{"pass": True}],
    )
    # a shape that may move backwards anyway: "+ back" is Chain Jump
    add(
        "back-free-mover",
        board={
            "kind": "squares",
            "size": [5, 5, 1],
            "pieces": [
                _piece(1, 1, "black", "x"),
                _piece(2, 2, "white", "circle"),
                _piece(4, 4, "white", "circle"),
                _piece(4, 2, "white", "circle"),
                _piece(2, 4, "white", "circle"),
            ],
        },
        reserves={"black": {"circle": 1}, "white": {"x": 1, "circle": 1}},
        shapes={"x": power(BACK, "removes", "adjacent"), "circle": {"move": "adjacent"}},
        move_limit=40,
        phases=[{"pass": True}],
    )
    add(
        "back-three-players",
        players="3",
        board={
            "kind": "squares",
            "size": [4, 4, 1],
            "pieces": [_piece(2, 2, "yellow", "x"), _piece(3, 3, "yellow", "circle")],
        },
        reserves={
            "black": {"x": 2, "circle": 2},
            "white": {"x": 2, "circle": 2},
            "pink": {"x": 1, "circle": 2},
        },
        shapes={
            "x": power(BACK, "reincarnates-x2", "adjacent", cannot_move_backwards=True),
            "circle": power("cover-by-rank", "removes", "adjacent"),
        },
        move_limit=40,
    )
    add(
        "back-chaos-two-per-turn",
        players="2-vs-chaos",
        pieces_per_turn=2,
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"x": 2, "circle": 2}, "white": {"x": 2, "circle": 2}, "pink": {"x": 2}},
        shapes={
            "x": power(BACK, "removes", "diagonal", cannot_move_backwards=True),
            "circle": {"move": "adjacent"},
        },
        phases=[{"pass": True}],
        move_limit=30,
    )
    add(
        "back-surround-mix",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"x": 2, "cross": 2}, "white": {"x": 2, "cross": 2}},
        shapes={
            "x": power("surround-orthogonal", "removes", "adjacent", MUST),
            "cross": power(BACK, "converts", "adjacent", MUST, cannot_move_backwards=True),
        },
        move_limit=40,
    )
    return out


def stack_cases():
    return [
        _rs(
            "back-stacks-draughts",
            board={
                "kind": "stacks",
                "size": [4, 4, 2],
                "pieces": [
                    _piece(1, 1, "black", "circle"),
                    _piece(3, 1, "black", "circle"),
                    _piece(2, 4, "white", "circle"),
                    _piece(4, 4, "white", "circle"),
                ],
            },
            reserves={"black": {"circle": 1}, "white": {"circle": 1}},
            shapes={
                "circle": power(BACK, "removes", "forward-diagonal"),
                "pentagon": power("chain-jump", "removes", "adjacent"),
            },
            move_limit=40,
            phases=[{"pass": True}],
        ),
        _rs(
            "back-stacks-no-back",
            board={"kind": "stacks", "size": [3, 4, 3]},
            reserves={"black": {"x": 3, "circle": 2}, "white": {"x": 3, "circle": 2}},
            shapes={
                "x": power(BACK, "reincarnates", "adjacent", cannot_move_backwards=True),
                "circle": {"move": "adjacent"},
            },
            move_limit=40,
            phases=[{"pass": True}],
        ),
    ]


def _case(name):
    return [r for r in cases() + stack_cases() if r.name == name][0]


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_engine_matches_reference(rs):
    play(rs, games=50, seed=sum(map(ord, rs.name)), ref_class=ReferenceState, check=_same_pieces)


@pytest.mark.parametrize("rs", stack_cases(), ids=lambda rs: rs.name)
def test_engine_matches_reference_on_stacks(rs):
    play(rs, games=50, seed=sum(map(ord, rs.name)), ref_class=ReferenceState, check=_same_pieces)


@pytest.mark.slow
@pytest.mark.parametrize("rs", cases() + stack_cases(), ids=lambda rs: rs.name)
def test_engine_matches_reference_long(rs):
    ref = ReferenceState if rs in stack_cases() else ReferenceState
    play(rs, games=600, seed=11, ref_class=ref)


@pytest.mark.parametrize("rs", cases() + stack_cases(), ids=lambda rs: rs.name)
def test_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=8)


@pytest.mark.parametrize("name", ["back-draughts", "back-no-back-reincarnates-must", "back-stacks-draughts"])
def test_is_legal_agrees_with_legal_actions(name):
    assert_is_legal_agrees_with_legal_actions(_case(name), games=5, seed=3)


def test_backward_jumps_are_played_in_the_checks():
    """The comparisons above do reach jumps that go backwards (away from the
    mover's goal line), which plain chain jumps of these shapes never make."""
    seen = []

    def count(core, ref):
        if core.player() in (0, 1):
            for a in core.legal_action_list():
                text = core.action_string(core.player(), a)
                if " over " in text:
                    f, u = (
                        tuple(int(v) for v in part.strip("()").split(","))
                        for part in text.split(" over ")[0].split(" becomes ")[0].split("->")
                    )
                    # black's goal line is y = max, white's y = 1
                    seen.append(u[1] < f[1] if core.player() == 0 else u[1] > f[1])

    for name in ("back-draughts", "back-no-back-adjacent", "back-chaos-two-per-turn"):
        play(_case(name), games=20, seed=7, ref_class=ReferenceState, check=count)
    assert any(seen) and not all(seen)


# -- the decision, position by position --------------------------------------------------


def _board(pieces, shapes, size, **kw):
    rec = {
        "name": "pos",
        "board": {"kind": "squares", "size": list(size), "pieces": pieces},
        "reserves": {"black": {}, "white": {}},
        "move_limit": 20,
        "phases": [{"pass": True}],
        "shapes": shapes,
    }
    rec.update(kw)
    return rules.parse(rec)


def _strings(core):
    return [core.action_string(core.player(), a) for a in core.legal_action_list()]


def _play(core, text):
    core.apply_action([a for a, s in zip(core.legal_action_list(), _strings(core)) if s == text][0])


def test_a_man_jumps_backwards_but_steps_only_forwards():
    """Black's goal line is y = max. A forward-diagonal man on (2,3) with a
    white piece diagonally behind it on (3,2): "+ back" jumps it, landing on
    (4,1), behind; its plain steps stay forward."""
    shapes = {
        "circle": power(BACK, "removes", "forward-diagonal"),
        "star": {},
        "pentagon": {"move": "adjacent"},
    }
    rs = _board([_piece(2, 3, "black", "circle"), _piece(3, 2, "white", "star")], shapes, (4, 5, 1))
    assert _strings(make_core(rs)) == [
        "(2,3,1)->(4,1,1) over (3,2,1)",
        "(2,3,1)->(1,4,1)",
        "(2,3,1)->(3,4,1)",
        "pass",
    ]
    # plain Chain Jump: the same man has no backward jump
    rs = _board(
        [_piece(2, 3, "black", "circle"), _piece(3, 2, "white", "star")],
        dict(shapes, circle=power("chain-jump", "removes", "forward-diagonal")),
        (4, 5, 1),
    )
    assert _strings(make_core(rs)) == ["(2,3,1)->(1,4,1)", "(2,3,1)->(3,4,1)", "pass"]


def test_a_no_back_shape_jumps_backwards_never_sideways_steps_back():
    """``cannot_move_backwards`` with an orthogonal step: the jump back is
    legal, the plain step back is not (a sideways jump was legal anyway)."""
    shapes = {
        "x": power(BACK, "removes", "adjacent-orthogonal", cannot_move_backwards=True),
        "star": {},
        "pentagon": {"move": "adjacent"},
    }
    rs = _board([_piece(2, 3, "black", "x"), _piece(2, 2, "white", "star")], shapes, (3, 5, 1))
    texts = _strings(make_core(rs))
    assert "(2,3,1)->(2,1,1) over (2,2,1)" in texts  # backwards, a jump
    assert not any(t.startswith("(2,3,1)->(2,2,1)") for t in texts)  # occupied anyway
    rs = _board([_piece(2, 3, "black", "x"), _piece(3, 3, "white", "star")], shapes, (3, 5, 1))
    texts = _strings(make_core(rs))
    assert "(2,3,1)->(2,2,1)" not in texts  # no plain step backwards
    assert "(2,3,1)->(2,4,1)" in texts
    rs = _board(
        [_piece(2, 3, "black", "x"), _piece(2, 2, "white", "star")],
        dict(shapes, x=power("chain-jump", "removes", "adjacent-orthogonal", cannot_move_backwards=True)),
        (3, 5, 1),
    )
    assert "(2,3,1)->(2,1,1) over (2,2,1)" not in _strings(make_core(rs))


def test_a_chains_extra_jump_may_go_backwards():
    """A man jumps forward from (1,1) over (2,2) to (3,3), then its extra
    jump goes back over (4,2) to (5,1): the draughts capture backwards."""
    shapes = {
        "circle": power(BACK, "removes", "forward-diagonal"),
        "star": {},
        "pentagon": {"move": "adjacent"},
    }
    rs = _board(
        [_piece(1, 1, "black", "circle"), _piece(2, 2, "white", "star"), _piece(4, 2, "white", "star")],
        shapes,
        (5, 5, 1),
    )
    core = make_core(rs)
    _play(core, "(1,1,1)->(3,3,1) over (2,2,1)")
    assert core.player() == 0 and core.pending_chain() == 2 + 5 * 2
    assert _strings(core) == ["(3,3,1)->(5,1,1) over (4,2,1)", "end-chain"]
    _play(core, "(3,3,1)->(5,1,1) over (4,2,1)")
    assert core.player() == 1 and core.shapes().count("star") == 0
    # the plain chain jump stops after the first jump: nothing forward to take
    rs = _board(
        [_piece(1, 1, "black", "circle"), _piece(2, 2, "white", "star"), _piece(4, 2, "white", "star")],
        dict(shapes, circle=power("chain-jump", "removes", "forward-diagonal")),
        (5, 5, 1),
    )
    core = make_core(rs)
    _play(core, "(1,1,1)->(3,3,1) over (2,2,1)")
    assert core.player() == 1 and core.pending_chain() is None


def test_must_capture_counts_backward_jumps():
    """A backward jump is a capture, so it forces a must-capture man."""
    shapes = {
        "circle": power(BACK, "removes", "forward-diagonal", MUST),
        "star": {},
        "pentagon": {"move": "adjacent"},
    }
    rs = _board([_piece(2, 3, "black", "circle"), _piece(3, 2, "white", "star")], shapes, (4, 5, 1))
    assert _strings(make_core(rs)) == ["(2,3,1)->(4,1,1) over (3,2,1)"]


def _replay(rs, seed, games=15):
    """The legal action lists of random games (the same choices by index)."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        core = make_core(rs)
        while core.player() != -4:
            if core.player() == -1:
                outcomes = core.chance_outcome_list()
                a = outcomes[rng.randrange(len(outcomes))][0]
            else:
                acts = core.legal_action_list()
                out.append((core.player(), acts))
                a = acts[rng.randrange(len(acts))]
            core.apply_action(a)
        out.append(tuple(core.returns_list()))
    return out


@pytest.mark.parametrize("move", ["adjacent", "linear", "adjacent-alquerque", "orthogonal"])
def test_plus_back_is_chain_jump_for_a_shape_that_may_move_backwards(move):
    """ "+ back" adds only backward jumps; a shape that may move backwards
    already jumps backwards, so the two conditions play the same game."""

    def rule(cond):
        return rules.parse(
            {
                "name": "same",
                "board": {"kind": "squares", "size": [5, 4, 1]},
                "reserves": {"black": {"x": 3, "circle": 2}, "white": {"x": 3, "circle": 2}},
                "shapes": {"x": power(cond, "removes", move), "circle": {"move": "adjacent"}},
                "move_limit": 30,
                "phases": [{"pass": True}],
            }
        )

    back, plain = rule(BACK), rule("chain-jump")
    assert make_core(back).num_actions == make_core(plain).num_actions
    assert _replay(back, 4) == _replay(plain, 4)


def test_schema_validation_and_canonical_form():
    """The word is validated as the other jumps (refused where they are,
    every problem listed), and kept in the canonical form as written."""
    with pytest.raises(RuleSetError) as e:
        rules.parse(
            {
                "name": "bad",
                "board": {"kind": "stacks", "size": [3, 1, 3]},
                "move_limit": 10,
                "reserves": {"black": {"x": 1}, "white": {"x": 1}},
                "shapes": {
                    "x": power(BACK, "removes", "stationary"),
                    "star": power(BACK, "removes", "knight-2x1x1"),
                    "circle": power(BACK, "removes", "orth-by-stack"),
                },
            }
        )
    text = str(e.value)
    assert "'chain-jump-back' needs a shape that moves" in text
    assert "'knight-2x1x1' has none" in text
    assert "'chain-jump-back' with move 'orth-by-stack' is not defined" in text
    with pytest.raises(RuleSetError) as e:
        rules.parse(
            {
                "name": "r",
                "board": {"kind": "squares", "size": [3, 3, 1]},
                "phases": [{"order": "single", "movement": "allowed"}, {}],
                "reserves": {"black": {"x": 1}, "white": {"x": 1}},
                "shapes": {"x": power(BACK, "removes", "adjacent")},
            }
        )
    assert "'chain-jump-back' is not supported in a rule set that mixes sequential phases" in str(e.value)
    a = _case("back-free-mover")
    rec = dict(a.to_json(), name="renamed")
    assert rules.parse(rec) == a
    plain = dict(rec, shapes=dict(rec["shapes"], x=power("chain-jump", "removes", "adjacent")))
    assert rules.parse(plain) != a
    assert make_core(a).num_actions == make_core(rules.parse(plain)).num_actions


def test_factory_lists_the_condition():
    from webapp.factory_form import _WORDS

    assert _WORDS["condition"]["chain-jump-back"] == "Chain Jump (+ back)"


# -- Hypothesis: random rule sets with "+ back" jumpers ----------------------------------
MOVES = [
    "adjacent",
    "adjacent-orthogonal",
    "adjacent-diagonal",
    "orthogonal",
    "diagonal",
    "linear",
    "forward-orthogonal",
    "forward-diagonal",
    "adjacent-alquerque",
]


@st.composite
def back_records(draw):
    kind = draw(st.sampled_from(["squares", "squares", "stacks"]))
    dims = [
        draw(st.integers(1, 5)),
        draw(st.integers(2, 5)),
        draw(st.sampled_from([1, 1, 2] if kind == "squares" else [2, 3])),
    ]
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    colours = ["black", "white", "pink"][: {"2": 2, "3": 3, "2-vs-chaos": 3}[players]]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    shapes = {}
    for i, s in enumerate(names):
        move = draw(
            st.sampled_from(MOVES if kind == "squares" else [m for m in MOVES if m != "adjacent-alquerque"])
        )
        shapes[s] = {"move": move}
        if draw(st.booleans()):
            shapes[s]["cannot_move_backwards"] = True
        how = draw(st.sampled_from([CAN, MUST] if i == 0 else ["none", CAN, MUST]))
        if how != "none":
            cond = BACK if i == 0 else draw(st.sampled_from([BACK, "chain-jump", "jump"]))
            shapes[s].update(
                power=how,
                condition=cond,
                result=draw(st.sampled_from(["removes", "reincarnates", "reincarnates-x2", "converts"])),
            )
    cells = [[x, y, 1] for x in range(1, dims[0] + 1) for y in range(1, dims[1] + 1)]
    at = draw(st.lists(st.sampled_from(cells), max_size=6, unique_by=tuple))
    pieces = [
        {
            "at": a,
            "colour": draw(st.sampled_from(colours + ["yellow"])),
            "shape": draw(st.sampled_from(sorted(shapes))),
        }
        for a in at
    ]
    return {
        "name": "HB",
        "board": {"kind": kind, "size": dims, "pieces": pieces},
        "players": players,
        "reserves": {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours},
        "shapes": shapes,
        "move_limit": draw(st.integers(1, 30)),
        "pieces_per_turn": draw(st.sampled_from([1, 1, 2])),
        "turn_checks": draw(st.lists(st.sampled_from(["first-3-wins", "first-2-loses"]), max_size=1)),
        "stalemate": draw(st.sampled_from(["draws", "most-pieces-wins"])),
        "phases": draw(st.sampled_from([[{}], [{"pass": True}], [{"movement": "placement-only"}, {}]])),
    }


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(back_records(), st.integers(0, 10**6))
def test_random_back_rule_sets_match_reference(rec, seed):
    """Move by move the reference's (every legal action of the engine is the
    reference's, and the positions agree); with jumpers only, a ply changes
    the piece count by its result (removes -1, x2 +1, converts and
    reincarnates 0)."""
    rs = parsed_or_rejected(rec)
    ref_class = ReferenceState if rs.record["board"]["kind"] == "stacks" else ReferenceState
    props = list(rs.record["shapes"].values())
    results = {p.get("result") for p in props}
    # a powerless piece covering a jumper is captured by it (on a flat board a
    # converted one leaves it; on stacks a communal captor's reserve is no
    # seat's): then only the direction is checked, as in test_ttt_stack_jumps
    covers = not all(p.get("power", "none") != "none" for p in props)
    play(rs, games=3, seed=seed, ref_class=ref_class, check=jump_count_check(results, covers, _same_pieces))


# -- jumps and chain jumps inside simultaneous and single rounds -------------------------
# docs/rules/ttt.md, "Jumps inside rounds"; the reference is ReferenceState.
SIM = {"order": "simultaneous", "pass": True}


def round_cases():
    out = []
    add = lambda name, **kw: out.append(_rs(name, **kw))
    add(
        "sim-jump-removes",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"x": 2, "circle": 2}, "white": {"x": 2, "circle": 2}},
        shapes={"x": power("jump", "removes", "adjacent"), "circle": {"move": "adjacent"}},
        move_limit=30,
        phases=[SIM],
    )
    add(
        "sim-chain-reincarnates-must",
        board={
            "kind": "squares",
            "size": [4, 4, 1],
            "pieces": [
                _piece(1, 1, "black", "x"),
                _piece(2, 2, "white", "circle"),
                _piece(4, 4, "white", "x"),
                _piece(3, 3, "black", "circle"),
            ],
        },
        reserves={"black": {"circle": 2}, "white": {"circle": 2}},
        shapes={"x": power("chain-jump", "reincarnates", "adjacent", MUST), "circle": {"move": "adjacent"}},
        move_limit=30,
        phases=[SIM],
    )
    add(
        "sim-back-draughts",
        board={
            "kind": "squares",
            "size": [5, 5, 1],
            "pieces": [
                _piece(1, 1, "black", "circle"),
                _piece(3, 1, "black", "circle"),
                _piece(5, 1, "black", "circle"),
                _piece(2, 4, "white", "circle"),
                _piece(4, 4, "white", "circle"),
                _piece(1, 5, "white", "circle"),
            ],
        },
        reserves={"black": {}, "white": {}},
        shapes={
            "circle": power(BACK, "converts", "forward-diagonal"),
            "pentagon": power("chain-jump", "removes", "adjacent-diagonal"),
        },
        move_limit=30,
        phases=[SIM],
        stalemate="most-pieces-wins",
    )
    add(
        "sim-jump-three-communal",
        players="3",
        board={
            "kind": "squares",
            "size": [4, 4, 1],
            "pieces": [_piece(2, 2, "yellow", "circle"), _piece(3, 3, "yellow", "circle")],
        },
        reserves={
            "black": {"x": 2, "circle": 1},
            "white": {"x": 2, "circle": 1},
            "pink": {"x": 1, "circle": 2},
        },
        shapes={
            "x": power("jump", "reincarnates-x2", "adjacent"),
            "circle": power("cover-by-rank", "removes", "adjacent"),
        },
        move_limit=30,
        phases=[SIM],
    )
    add(
        "single-then-sim-jump-chaos",
        players="2-vs-chaos",
        board={"kind": "squares", "size": [4, 3, 1]},
        reserves={"black": {"x": 2, "circle": 1}, "white": {"x": 2, "circle": 1}, "pink": {"x": 2}},
        shapes={"x": power("chain-jump", "removes", "adjacent"), "circle": {"move": "adjacent"}},
        move_limit=24,
        phases=[{"order": "single", "movement": "placement-only"}, SIM],
    )
    add(
        "sim-jump-surround",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"x": 2, "star": 2}, "white": {"x": 2, "star": 2}},
        shapes={
            "x": power("jump", "converts", "orthogonal"),
            "star": power("surround-line", "removes", "adjacent"),
        },
        move_limit=30,
        phases=[SIM],
    )
    add(
        "sim-jump-stacks",
        board={"kind": "stacks", "size": [4, 3, 3]},
        reserves={"black": {"x": 3, "circle": 2}, "white": {"x": 3, "circle": 2}},
        shapes={"x": power("chain-jump", "reincarnates", "adjacent"), "circle": {"move": "adjacent"}},
        move_limit=30,
        phases=[SIM],
    )
    add(
        "sim-back-stacks-cover",
        board={
            "kind": "stacks",
            "size": [4, 4, 2],
            "pieces": [
                _piece(1, 1, "black", "circle"),
                _piece(3, 1, "black", "circle"),
                _piece(2, 4, "white", "circle"),
                _piece(4, 4, "white", "circle"),
            ],
        },
        reserves={"black": {"star": 1}, "white": {"star": 1}},
        shapes={
            "circle": power(BACK, "removes", "forward-diagonal"),
            "pentagon": {"move": "adjacent"},
            "star": power("cover", "converts", "adjacent"),
        },
        move_limit=30,
        phases=[SIM],
    )
    return out


def _round_case(name):
    return [r for r in round_cases() if r.name == name][0]


@pytest.mark.parametrize("rs", round_cases(), ids=lambda rs: rs.name)
def test_jumps_in_rounds_match_reference(rs):
    assert rs.compile()["simultaneous"]
    play(rs, games=60, seed=sum(map(ord, rs.name)), ref_class=ReferenceState, check=_same_pieces)


@pytest.mark.slow
@pytest.mark.parametrize("rs", round_cases(), ids=lambda rs: rs.name)
def test_jumps_in_rounds_match_reference_long(rs):
    play(rs, games=600, seed=5, ref_class=ReferenceState, check=_same_pieces)


@pytest.mark.parametrize("rs", round_cases(), ids=lambda rs: rs.name)
def test_jumps_in_rounds_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=8)


def _plan(core, player, text):
    texts = {core.action_string(player, a): a for a in core.legal_action_list()}
    assert text in texts, (text, sorted(texts))
    core.apply_action(texts[text])


def _duel(**kw):
    """Black's X on (1,1) may jump white's circle on (2,1); white plans second."""
    rec = {
        "name": "duel",
        "board": {
            "kind": "squares",
            "size": [4, 2, 1],
            "pieces": [_piece(1, 1, "black", "x"), _piece(2, 1, "white", "circle")],
        },
        "reserves": {"black": {}, "white": {}},
        "move_limit": 10,
        "phases": [SIM],
        "shapes": {"x": power("chain-jump", "reincarnates", "adjacent"), "circle": {"move": "adjacent"}},
    }
    rec.update(kw)
    return make_core(rules.parse(rec))


def test_a_jump_takes_the_piece_that_stayed():
    core = _duel()
    _plan(core, 0, "(1,1,1)->(3,1,1) over (2,1,1)")
    _plan(core, 1, "pass")
    assert core.shapes()[:4] == [None, None, "x", None]
    assert core.shape_reserves()["black"]["circle"] == 1  # reincarnated into the jumper's colour
    assert core.pending_chain() is None  # no extra move in a round
    assert core.player() != -4 and core.pending_plans() is not None


def test_a_jump_misses_the_piece_that_moved_away():
    core = _duel()
    _plan(core, 0, "(1,1,1)->(3,1,1) over (2,1,1)")
    _plan(core, 1, "(2,1,1)->(2,2,1)")
    assert core.shapes()[:8] == [None, None, "x", None, None, "circle", None, None]
    assert core.shape_reserves()["black"]["circle"] == 0


def test_a_jump_and_the_jumped_piece_collide_on_the_landing():
    """White's circle moves to (3,1), where black's X lands: the circle left
    (2,1), so nothing is jumped; the X (a jumper, highest class) and the
    powerless circle (lowest rank) collide, and the rank rules resolve it
    (ttt-collide, issue 12 item 4; before it both were destroyed): the X
    keeps (3,1) and reincarnates the circle into black's reserve."""
    core = _duel()
    _plan(core, 0, "(1,1,1)->(3,1,1) over (2,1,1)")
    _plan(core, 1, "(2,1,1)->(3,1,1)")
    assert core.shapes() == [None, None, "x", None, None, None, None, None]
    assert core.cells()[2] == 1
    assert core.shape_reserves()["black"]["circle"] == 1


def test_a_piece_two_plans_jump_is_destroyed_without_a_result():
    """Yellow's circle between black's X and white's X: both jump it in the
    same round; it is destroyed and neither reincarnates it."""
    rec = {
        "name": "two",
        "board": {
            "kind": "squares",
            "size": [3, 3, 1],
            "pieces": [
                _piece(1, 2, "black", "x"),
                _piece(2, 2, "yellow", "circle"),
                _piece(2, 1, "white", "x"),
            ],
        },
        "reserves": {"black": {}, "white": {}},
        "move_limit": 10,
        "phases": [SIM],
        "shapes": {"x": power("jump", "reincarnates", "adjacent"), "circle": {}},
    }
    core = make_core(rules.parse(rec))
    _plan(core, 0, "(1,2,1)->(3,2,1) over (2,2,1)")
    _plan(core, 1, "(2,1,1)->(2,3,1) over (2,2,1)")
    assert core.shapes() == [None, None, None, None, None, "x", None, "x", None]
    assert core.shape_reserves()["black"]["circle"] == 0 and core.shape_reserves()["white"]["circle"] == 0


def test_jumps_mixed_with_sequential_phases_are_refused():
    with pytest.raises(RuleSetError) as e:
        rules.parse(
            {
                "name": "mix",
                "board": {"kind": "squares", "size": [3, 3, 1]},
                "phases": [SIM, {"pass": True}],
                "reserves": {"black": {"x": 1}, "white": {"x": 1}},
                "shapes": {"x": power("jump", "removes", "adjacent")},
            }
        )
    assert "'jump' is not supported in a rule set that mixes sequential phases" in str(e.value)


@st.composite
def jump_round_records(draw):
    kind = draw(st.sampled_from(["squares", "squares", "stacks"]))
    dims = [
        draw(st.integers(2, 4)),
        draw(st.integers(2, 4)),
        1 if kind == "squares" else draw(st.integers(2, 3)),
    ]
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    colours = ["black", "white", "pink"][: {"2": 2, "3": 3, "2-vs-chaos": 3}[players]]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    shapes = {}
    for i, s in enumerate(names):
        move = draw(
            st.sampled_from(["adjacent", "orthogonal", "adjacent-diagonal", "forward-diagonal", "linear"])
        )
        shapes[s] = {"move": move}
        if draw(st.booleans()):
            shapes[s]["cannot_move_backwards"] = True
        how = draw(st.sampled_from([CAN, MUST] if i == 0 else ["none", CAN]))
        if how != "none":
            cond = draw(
                st.sampled_from(
                    ["jump", "chain-jump", BACK] if i == 0 else ["jump", "cover", "cover-by-rank"]
                )
            )
            results = ["removes", "reincarnates", "reincarnates-x2"]
            if cond not in ("cover", "cover-by-rank") or kind == "stacks":
                results.append("converts")
            shapes[s].update(power=how, condition=cond, result=draw(st.sampled_from(results)))
    cells = [[x, y, 1] for x in range(1, dims[0] + 1) for y in range(1, dims[1] + 1)]
    at = draw(st.lists(st.sampled_from(cells), max_size=5, unique_by=tuple))
    pieces = [
        {
            "at": a,
            "colour": draw(st.sampled_from(colours + ["yellow"])),
            "shape": draw(st.sampled_from(sorted(shapes))),
        }
        for a in at
    ]
    order = draw(st.sampled_from(["simultaneous", "single"]))
    phases = draw(
        st.sampled_from(
            [
                [{"order": "simultaneous", "pass": True}],
                [{"order": order, "movement": "placement-only"}, {"order": "simultaneous", "pass": True}],
                [{"order": "simultaneous"}],
            ]
        )
    )
    return {
        "name": "JR",
        "board": {"kind": kind, "size": dims, "pieces": pieces},
        "players": players,
        "reserves": {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours},
        "shapes": shapes,
        "move_limit": draw(st.integers(2, 20)),
        "turn_checks": draw(
            st.lists(st.sampled_from(["first-3-wins", "goal-reached-stalemate"]), max_size=1)
        ),
        "stalemate": draw(st.sampled_from(["draws", "most-pieces-wins"])),
        "phases": phases,
    }


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(jump_round_records(), st.integers(0, 10**6))
def test_random_jump_rounds_match_reference(rec, seed):
    """Move by move the reference's, positions and reserves included."""
    rs = parsed_or_rejected(rec)
    play(rs, games=3, seed=seed, ref_class=ReferenceState, check=_same_pieces)


# -- surrounds on stacks inside rounds ----------------------------------------------------
# docs/rules/ttt.md, "Surrounds inside rounds" (stacks); the reference is ReferenceState.

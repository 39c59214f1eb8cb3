"""Chain Jump (+ back) (condition ``chain-jump-back``; docs/rules/ttt/jumps.md,
"Chain jump (+ back)"), read as international draughts' man: it moves
forwards only but its jumps, the first and a chain's extra ones, may go
backwards; a plain move still may not.

The engine is compared move by move with the reference model
(tests/ttt_reference/, whose ``jumps_back`` reading is written apart from
the engine's), on flat boards and on stacks; small positions check the
decision by hand; a shape that may move backwards anyway plays exactly as
``chain-jump``; Hypothesis draws rule sets with "+ back" jumpers; every test
rule set goes through ``pyspiel.random_sim_test``."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ttt import make_core, rules
from games.ttt.rules import RuleSetError
from tiers import sweep
from ttt_checks import (
    MUST,
    action_strings,
    assert_is_legal_agrees_with_legal_actions,
    jump_count_check,
    parsed_or_rejected,
    piece,
    play_against_reference,
    play_named,
    position,
    power,
    random_sim_test_of,
    rule_set,
    same_pieces,
)
from ttt_records import BACK, back_records

FLAT_4X4 = {"board": {"kind": "squares", "size": [4, 4, 1]}}


def cases():
    """Flat-board rule sets with "+ back" jumpers (one per way a shape can be
    held forwards, and mixtures)."""
    out = []
    add = lambda name, **kw: out.append(rule_set(name, FLAT_4X4, **kw))
    # international draughts' men: forward-diagonal movers that jump in all four diagonals
    add(
        "back-draughts",
        board={
            "kind": "squares",
            "size": [5, 5, 1],
            "pieces": [
                piece((1, 1, 1), "black", "circle"),
                piece((3, 1, 1), "black", "circle"),
                piece((5, 1, 1), "black", "circle"),
                piece((2, 4, 1), "white", "circle"),
                piece((4, 4, 1), "white", "circle"),
                piece((1, 5, 1), "white", "circle"),
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
                piece((1, 1, 1), "black", "x"),
                piece((2, 2, 1), "white", "circle"),
                piece((4, 4, 1), "white", "circle"),
                piece((4, 2, 1), "white", "circle"),
                piece((2, 4, 1), "white", "circle"),
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
            "pieces": [piece((2, 2, 1), "yellow", "x"), piece((3, 3, 1), "yellow", "circle")],
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
        rule_set(
            "back-stacks-draughts",
            board={
                "kind": "stacks",
                "size": [4, 4, 2],
                "pieces": [
                    piece((1, 1, 1), "black", "circle"),
                    piece((3, 1, 1), "black", "circle"),
                    piece((2, 4, 1), "white", "circle"),
                    piece((4, 4, 1), "white", "circle"),
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
        rule_set(
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
def test_back_rule_sets_match_reference(rs):
    play_against_reference(rs, games=sweep(full=50, quick=4), seed=sum(map(ord, rs.name)), check=same_pieces)


@pytest.mark.parametrize("rs", stack_cases(), ids=lambda rs: rs.name)
def test_back_rule_sets_on_stacks_match_reference(rs):
    play_against_reference(rs, games=sweep(full=50, quick=4), seed=sum(map(ord, rs.name)), check=same_pieces)


@pytest.mark.slow
@pytest.mark.parametrize("rs", cases() + stack_cases(), ids=lambda rs: rs.name)
def test_back_rule_sets_match_reference_long(rs):
    play_against_reference(rs, games=600, seed=11)


@pytest.mark.parametrize("rs", cases() + stack_cases(), ids=lambda rs: rs.name)
def test_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=8, quick=1))


@pytest.mark.parametrize("name", ["back-draughts", "back-no-back-reincarnates-must", "back-stacks-draughts"])
def test_is_legal_agrees_with_legal_actions(name):
    assert_is_legal_agrees_with_legal_actions(_case(name), games=sweep(full=5, quick=2), seed=3)


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
        play_against_reference(_case(name), games=sweep(full=20, quick=4), seed=7, check=count)
    assert any(seen) and not all(seen)


def test_a_man_jumps_backwards_but_steps_only_forwards():
    """Black's goal line is y = max. A forward-diagonal man on (2,3) with a
    white piece diagonally behind it on (3,2): "+ back" jumps it, landing on
    (4,1), behind; its plain steps stay forward."""
    shapes = {
        "circle": power(BACK, "removes", "forward-diagonal"),
        "star": {},
        "pentagon": {"move": "adjacent"},
    }
    rs = position([piece((2, 3, 1), "black", "circle"), piece((3, 2, 1), "white", "star")], shapes, (4, 5, 1))
    assert action_strings(make_core(rs)) == [
        "(2,3,1)->(4,1,1) over (3,2,1)",
        "(2,3,1)->(1,4,1)",
        "(2,3,1)->(3,4,1)",
        "pass",
    ]
    # plain Chain Jump: the same man has no backward jump
    rs = position(
        [piece((2, 3, 1), "black", "circle"), piece((3, 2, 1), "white", "star")],
        dict(shapes, circle=power("chain-jump", "removes", "forward-diagonal")),
        (4, 5, 1),
    )
    assert action_strings(make_core(rs)) == ["(2,3,1)->(1,4,1)", "(2,3,1)->(3,4,1)", "pass"]


def test_a_no_back_shape_jumps_backwards_never_sideways_steps_back():
    """``cannot_move_backwards`` with an orthogonal step: the jump back is
    legal, the plain step back is not (a sideways jump was legal anyway)."""
    shapes = {
        "x": power(BACK, "removes", "adjacent-orthogonal", cannot_move_backwards=True),
        "star": {},
        "pentagon": {"move": "adjacent"},
    }
    rs = position([piece((2, 3, 1), "black", "x"), piece((2, 2, 1), "white", "star")], shapes, (3, 5, 1))
    texts = action_strings(make_core(rs))
    assert "(2,3,1)->(2,1,1) over (2,2,1)" in texts  # backwards, a jump
    assert not any(t.startswith("(2,3,1)->(2,2,1)") for t in texts)  # occupied anyway
    rs = position([piece((2, 3, 1), "black", "x"), piece((3, 3, 1), "white", "star")], shapes, (3, 5, 1))
    texts = action_strings(make_core(rs))
    assert "(2,3,1)->(2,2,1)" not in texts  # no plain step backwards
    assert "(2,3,1)->(2,4,1)" in texts
    rs = position(
        [piece((2, 3, 1), "black", "x"), piece((2, 2, 1), "white", "star")],
        dict(shapes, x=power("chain-jump", "removes", "adjacent-orthogonal", cannot_move_backwards=True)),
        (3, 5, 1),
    )
    assert "(2,3,1)->(2,1,1) over (2,2,1)" not in action_strings(make_core(rs))


def test_a_chains_extra_jump_may_go_backwards():
    """A man jumps forward from (1,1) over (2,2) to (3,3), then its extra
    jump goes back over (4,2) to (5,1): the draughts capture backwards."""
    shapes = {
        "circle": power(BACK, "removes", "forward-diagonal"),
        "star": {},
        "pentagon": {"move": "adjacent"},
    }
    rs = position(
        [
            piece((1, 1, 1), "black", "circle"),
            piece((2, 2, 1), "white", "star"),
            piece((4, 2, 1), "white", "star"),
        ],
        shapes,
        (5, 5, 1),
    )
    core = make_core(rs)
    play_named(core, "(1,1,1)->(3,3,1) over (2,2,1)")
    assert core.player() == 0 and core.pending_chain() == 2 + 5 * 2
    assert action_strings(core) == ["(3,3,1)->(5,1,1) over (4,2,1)", "end-chain"]
    play_named(core, "(3,3,1)->(5,1,1) over (4,2,1)")
    assert core.player() == 1 and core.shapes().count("star") == 0
    # the plain chain jump stops after the first jump: nothing forward to take
    rs = position(
        [
            piece((1, 1, 1), "black", "circle"),
            piece((2, 2, 1), "white", "star"),
            piece((4, 2, 1), "white", "star"),
        ],
        dict(shapes, circle=power("chain-jump", "removes", "forward-diagonal")),
        (5, 5, 1),
    )
    core = make_core(rs)
    play_named(core, "(1,1,1)->(3,3,1) over (2,2,1)")
    assert core.player() == 1 and core.pending_chain() is None


def test_must_capture_counts_backward_jumps():
    """A backward jump is a capture, so it forces a must-capture man."""
    shapes = {
        "circle": power(BACK, "removes", "forward-diagonal", MUST),
        "star": {},
        "pentagon": {"move": "adjacent"},
    }
    rs = position([piece((2, 3, 1), "black", "circle"), piece((3, 2, 1), "white", "star")], shapes, (4, 5, 1))
    assert action_strings(make_core(rs)) == ["(2,3,1)->(4,1,1) over (3,2,1)"]


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
    assert "'chain-jump-back' with move 'orth-by-stack' is not supported yet" in text
    a = _case("back-free-mover")
    rec = dict(a.to_json(), name="renamed")
    assert rules.parse(rec) == a
    plain = dict(rec, shapes=dict(rec["shapes"], x=power("chain-jump", "removes", "adjacent")))
    assert rules.parse(plain) != a
    assert make_core(a).num_actions == make_core(rules.parse(plain)).num_actions


def test_factory_lists_the_condition():
    from webapp.factory_form import _WORDS

    assert _WORDS["condition"]["chain-jump-back"] == "Chain Jump (+ back)"


@settings(max_examples=sweep(full=60, quick=7), deadline=None, suppress_health_check=list(HealthCheck))
@given(back_records(), st.integers(0, 10**6))
def test_random_back_rule_sets_match_reference(rec, seed):
    """Move by move the reference's (every legal action of the engine is the
    reference's, and the positions agree); with jumpers only, a ply changes
    the piece count by its result (removes -1, x2 +1, converts and
    reincarnates 0)."""
    rs = parsed_or_rejected(rec)
    props = list(rs.record["shapes"].values())
    results = {p.get("result") for p in props}
    # a powerless piece covering a jumper is captured by it (on a flat board a
    # converted one leaves it; on stacks a communal captor's reserve is no
    # seat's): then only the direction is checked, as for jumps on stacks
    covers = not all(p.get("power", "none") != "none" for p in props)
    play_against_reference(rs, games=3, seed=seed, check=jump_count_check(results, covers))

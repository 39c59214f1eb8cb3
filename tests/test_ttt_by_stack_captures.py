"""Powers of by-stack movers: "A player's rank in a move “by stack” or “by
full stack” is determined from the full set of pieces in the destination
stack (after the move)", wired into the covers (docs/rules/ttt/captures.md, "Powers
of by-stack movers"), in sequential plies and inside simultaneous and
single rounds ("By-stack covers inside rounds": a by-stack plan alone on
its target covers as a sequential move does; in a collision the stack
holding every collider's pieces decides). The whole-stack showdown of
converting and reincarnating movers is test_ttt_showdowns.py's.

The engine is compared move by move with the reference model
(tests/ttt_reference/), whose hands come from its brute-force poker
evaluator; small positions check the decisions by hand; every rule set goes
through ``pyspiel.random_sim_test``."""

import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ttt import make_core, rules
from games.ttt.rules import RuleSetError
from tiers import sweep
from ttt_checks import (
    CAN,
    MUST,
    assert_is_legal_agrees_with_legal_actions,
    by_stack_moves,
    parsed_or_rejected,
    piece,
    piece_count,
    play_against_reference,
    play_named,
    power,
    random_sim_test_of,
    rule_set,
    same_pieces,
    stack_column,
)
from ttt_records import stack_power_records
from ttt_round_records import stack_cover_round_records

STACKS = {"board": {"kind": "stacks"}, "move_limit": 30}
SIM = {"order": "simultaneous", "pass": True}


def cases():
    out = []
    add = lambda name, size, **kw: out.append(rule_set(name, STACKS, size=size, **kw))
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
        pieces=[piece((1, 1, 1), "yellow", "x")],
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
        pieces=[piece((1, 1, 1), "black", "pentagon"), piece((3, 1, 1), "white", "pentagon")],
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


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_by_stack_powers_match_reference(rs):
    played = play_against_reference(
        rs, games=sweep(full=40, quick=5), seed=sum(map(ord, rs.name)), check=same_pieces
    )
    assert by_stack_moves(rs, played) > 0


@pytest.mark.slow
@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_by_stack_powers_match_reference_long(rs):
    play_against_reference(rs, games=500, seed=13, check=same_pieces)


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=8, quick=1))


@pytest.mark.parametrize("name", ["by-stack-must", "full-stack-pot"])
def test_is_legal_agrees_with_legal_actions(name):
    assert_is_legal_agrees_with_legal_actions(_case(name), games=sweep(full=4, quick=2), seed=3)


# -- the decisions, position by position ----------------------------------------------


def _by_rank_position(black_extra):
    """White's star (by rank) on stack (2,1); black moves its triangle stack
    from (1,1) onto it. Black's hand after the move: its triangle plus
    ``black_extra`` already on (2,1)."""
    pieces = [piece((2, 1, 1), "white", "star")] + [
        piece((2, 1, 2 + i), "black", s) for i, s in enumerate(black_extra)
    ]
    pieces.append(piece((1, 1, 1), "black", "triangle"))
    return rule_set(
        "pos",
        STACKS,
        size=[2, 1, 5],
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
    play_named(core, "stack(1,1)@1->stack(2,1)")
    assert stack_column(core, 2) == [
        ("black", "x"),
        ("black", "triangle"),
    ]  # the star is gone, the pieces fell
    # alone, black's singleton triangle loses to white's singleton star (its shape is higher)
    core = make_core(_by_rank_position([]))
    play_named(core, "stack(1,1)@1->stack(2,1)")
    assert stack_column(core, 2) == [("white", "star")]  # the mover was captured (removed)


def test_equal_hands_destroy_both():
    """Both players hold a singleton star in the stack after the move: equal
    rank, "mutual destruction"."""
    pieces = [piece((2, 1, 1), "white", "star"), piece((1, 1, 1), "black", "star")]
    rs = rule_set(
        "eq",
        STACKS,
        size=[2, 1, 4],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={"star": power("cover-by-rank", "removes", "orth-by-stack")},
    )
    core = make_core(rs)
    play_named(core, "stack(1,1)@1->stack(2,1)")
    assert stack_column(core, 2) == [] and stack_column(core, 1) == []


def test_a_cover_class_mover_takes_every_defender_below_its_carried_pieces():
    pieces = [
        piece((2, 1, 1), "white", "circle"),
        piece((2, 1, 2), "white", "star"),
        piece((1, 1, 1), "black", "x"),
        piece((1, 1, 2), "white", "circle"),
    ]
    rs = rule_set(
        "cv",
        STACKS,
        size=[2, 1, 5],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={
            "x": power("cover", "removes", "orth-by-stack"),
            "circle": {},
            "star": power("cover-by-rank", "removes", "stationary"),
        },
    )
    # (a removing mover: a converting or reincarnating one goes to the showdown instead,
    # test_ttt_showdowns.py)
    core = make_core(rs)
    play_named(core, "stack(1,1)@1->stack(2,1)")
    # the carried white circle rides on the x and is no defender; the two below are captured
    assert stack_column(core, 2) == [("black", "x"), ("white", "circle")]
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
    with pytest.raises(RuleSetError, match="'jump' with move 'orth-by-stack' in a simultaneous or single"):
        rules.parse(
            {
                "name": "no",
                "board": {"kind": "stacks", "size": [2, 1, 3]},
                "move_limit": 9,
                "phases": [{"order": "simultaneous"}],
                "reserves": {"black": {"x": 1}, "white": {"x": 1}},
                "shapes": {"x": power("jump", "removes", "orth-by-stack")},
            }
        )


# -- random rule sets ----------------------------------------------------------------


@settings(max_examples=sweep(full=60, quick=7), deadline=None, suppress_health_check=list(HealthCheck))
@given(stack_power_records(), st.integers(0, 10**6))
def test_random_by_stack_power_rule_sets_match_reference(rec, seed):
    """Move by move the reference's; with results that neither remove nor
    multiply (x2, x3) and no by-rank conflict, the pieces are conserved."""
    rs = parsed_or_rejected(rec)
    props = rs.record["shapes"].values()
    results = {p.get("result") for p in props}
    conserving = not ({"removes", "reincarnates-x2", "reincarnates-x3"} & results) and not any(
        p.get("condition") == "cover-by-rank" for p in props
    )
    last = {}

    def check(core, ref):
        same_pieces(core, ref)
        total = piece_count(core)
        if conserving and "prev" in last and core.player() != -4:
            assert total == last["prev"]
        last["prev"] = total
        if core.player() == -4:
            last.clear()

    play_against_reference(rs, 3, seed, check)


# -- by-stack covers inside rounds -------------------------------------------------------------


def by_stack_round_cases():
    out = []
    add = lambda name, **kw: out.append(rule_set(name, **kw))
    # by-rank by-stack movers: the hands decide covers and collisions
    add(
        "sim-by-stack-by-rank",
        players="3",
        board={
            "kind": "stacks",
            "size": [3, 1, 6],
            "pieces": [
                piece((1, 1, 1), "black", "x"),
                piece((1, 1, 2), "black", "circle"),
                piece((2, 1, 1), "white", "x"),
                piece((2, 1, 2), "pink", "star"),
                piece((3, 1, 1), "pink", "x"),
                piece((3, 1, 2), "white", "circle"),
            ],
        },
        reserves={c: {"circle": 1} for c in ("black", "white", "pink")},
        shapes={
            "x": {"move": "orth-by-stack", "power": CAN, "condition": "cover-by-rank", "result": "converts"},
            "star": {"move": "stationary", "power": CAN, "condition": "cover-by-rank", "result": "removes"},
            "circle": {"move": "stationary"},
        },
        move_limit=12,
        turn_checks=["first-3-wins"],
        phases=[SIM],
    )
    # highest-class movers and captors, reincarnating: pots inside the round
    add(
        "single-by-stack-pots",
        players="3-vs-chaos",
        board={
            "kind": "stacks",
            "size": [4, 1, 6],
            "pieces": [
                piece((1, 1, 1), "black", "circle"),
                piece((2, 1, 1), "white", "circle"),
                piece((2, 1, 2), "white", "circle"),
                piece((3, 1, 1), "pink", "circle"),
                piece((4, 1, 1), "black", "pentagon"),
                piece((4, 1, 2), "white", "pentagon"),
                piece((4, 1, 3), "pink", "pentagon"),
            ],
        },
        reserves={"yellow": {"circle": 2}},
        shapes={
            "circle": {"move": "orth-by-stack"},
            "pentagon": {
                "move": "stationary",
                "power": CAN,
                "condition": "cover",
                "result": "reincarnates-x2",
            },
        },
        stalemate="most-pieces-wins",
        turn_checks=[],
        move_limit=12,
        phases=[
            {"order": "single", "pass": True, "locked_players": ["chaos"]},
            {"pass": True, "locked_players": ["chaos"]},
            {"pass": True, "locked_players": [1, 2, 3]},
        ],
    )
    # movers that capture by cover against stationary by-rank pieces, with full-stack movers
    add(
        "sim-by-stack-cover-mixed",
        players="2",
        board={
            "kind": "stacks",
            "size": [3, 2, 4],
            "pieces": [
                piece((1, 1, 1), "black", "triangle"),
                piece((3, 1, 1), "white", "triangle"),
                piece((2, 2, 1), "white", "star"),
                piece((2, 1, 1), "black", "star"),
            ],
        },
        reserves={"black": {"triangle": 1, "circle": 1}, "white": {"triangle": 1, "circle": 1}},
        shapes={
            "triangle": {
                "move": "orth-by-full-stack",
                "power": "must-capture",
                "condition": "cover",
                "result": "reincarnates",
            },
            "star": {"move": "stationary", "power": CAN, "condition": "cover-by-rank", "result": "converts"},
            "circle": {"move": "orth-by-stack"},
        },
        move_limit=14,
        turn_checks=["first-3-wins"],
        phases=[SIM],
    )
    return out


BY_STACK_ROUND_CASES = by_stack_round_cases()


@pytest.mark.parametrize("rs", BY_STACK_ROUND_CASES, ids=lambda rs: rs.name)
def test_by_stack_covers_in_rounds_match_reference(rs):
    assert rs.compile()["simultaneous"]
    play_against_reference(rs, games=sweep(full=80, quick=8), seed=sum(map(ord, rs.name)), check=same_pieces)


@pytest.mark.slow
@pytest.mark.parametrize("rs", BY_STACK_ROUND_CASES, ids=lambda rs: rs.name)
def test_by_stack_covers_in_rounds_match_reference_long(rs):
    play_against_reference(rs, games=800, seed=7, check=same_pieces)


@pytest.mark.parametrize("rs", BY_STACK_ROUND_CASES, ids=lambda rs: rs.name)
def test_random_sim_test_on_by_stack_covers_in_rounds(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=8, quick=1))
    path = tmp_path / f"{rs.name}.json"
    game = pyspiel.load_game(f"ttt(rules={path})")
    pyspiel.random_sim_test(
        pyspiel.convert_to_turn_based(game), num_sims=sweep(full=4, quick=1), serialize=False, verbose=False
    )


def _duel(stack2):
    """Black's X (stack 1) and white's X (stack 3) both move by stack onto
    stack 2, which holds ``stack2``: two by-rank colliders."""
    return rule_set(
        "duel",
        board={
            "kind": "stacks",
            "size": [3, 1, 5],
            "pieces": [piece((1, 1, 1), "black", "x"), piece((3, 1, 1), "white", "x")] + stack2,
        },
        reserves={"black": {"star": 1}, "white": {"star": 1}},
        move_limit=6,
        turn_checks=[],
        shapes={
            "x": {"move": "orth-by-stack", "power": CAN, "condition": "cover-by-rank", "result": "converts"},
            "star": {"move": "stationary", "power": CAN, "condition": "cover-by-rank", "result": "removes"},
        },
        phases=[SIM],
    )


def test_by_stack_collision_is_won_by_the_higher_hand():
    """A by-stack player's rank "is determined from the full set of
    pieces in the destination stack (after the move) owned by that player or
    by no player". Decided: in a collision, the stack holding every
    collider's pieces. Stack 2 holds a black star: black's hand is a
    singleton star (x and star are not adjacent: cross lies between), white's
    a singleton X, so black's X wins, lands on the star, and converts white's
    X, which lands on top in black."""
    core = make_core(_duel([piece((2, 1, 1), "black", "star")]))
    play_named(core, player=0, text="stack(1,1)@1->stack(2,1)")
    play_named(core, player=1, text="stack(3,1)@1->stack(2,1)")
    X = 3
    assert core.cells()[1::X][:3] == [1, 1, 1] and core.shapes()[1::X][:3] == ["star", "x", "x"]
    assert core.cells()[0] == 0 and core.cells()[2] == 0


def test_by_stack_collision_of_equal_hands_destroys_both():
    """On an empty stack both hands are a singleton X: equal ranks, "cover of
    equal rank results in mutual destruction", so the collision is not
    resolved and every piece sent there is destroyed."""
    core = make_core(_duel([]))
    play_named(core, player=0, text="stack(1,1)@1->stack(2,1)")
    play_named(core, player=1, text="stack(3,1)@1->stack(2,1)")
    assert not any(core.cells())


def test_lone_by_stack_plan_covers_like_a_sequential_move():
    """A by-stack plan alone on its target covers the stack as a sequential
    by-stack move does: black's X moves onto stack 2's white
    star while white passes. Black's hand in the stack (a singleton X) is
    below white's (a singleton star), so the star captures the X and, its
    result being "removes", the X leaves the board."""
    core = make_core(_duel([piece((2, 1, 1), "white", "star")]))
    play_named(core, player=0, text="stack(1,1)@1->stack(2,1)")
    play_named(core, player=1, text="pass")
    X = 3
    assert core.cells()[1::X][:2] == [2, 0] and core.shapes()[1] == "star"
    assert core.shape_reserves()["white"]["x"] == 0  # removes: nothing to the reserve


@settings(max_examples=sweep(full=80, quick=10), deadline=None, suppress_health_check=list(HealthCheck))
@given(stack_cover_round_records(), st.integers(0, 10**6))
def test_random_by_stack_cover_rounds_match_reference(rec, seed):
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=3, seed=seed, check=same_pieces)

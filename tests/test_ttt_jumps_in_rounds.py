"""Jumps and chain jumps inside simultaneous and single rounds
(docs/rules/ttt/rounds.md, "Jumps inside rounds"): a jump is a move plan legal on
the round's starting board; when the round resolves, a jumped piece is
taken only if it did not move away and the jumper moved; several plans over
one piece destroy it without a result; a chain-jumper jumps once.

The engine is compared move by move with the reference model
(tests/ttt_reference/); small positions check each decision by hand;
Hypothesis draws rule sets with jumpers in rounds; every test rule set goes
through ``pyspiel.random_sim_test``."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ttt import make_core, rules
from tiers import sweep
from ttt_checks import (
    MUST,
    parsed_or_rejected,
    piece,
    play_against_reference,
    play_named,
    power,
    random_sim_test_of,
    rule_set,
    same_pieces,
)
from ttt_records import BACK, jump_round_records

FLAT_4X4 = {"board": {"kind": "squares", "size": [4, 4, 1]}}


SIM = {"order": "simultaneous", "pass": True}


def round_cases():
    out = []
    add = lambda name, **kw: out.append(rule_set(name, FLAT_4X4, **kw))
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
                piece((1, 1, 1), "black", "x"),
                piece((2, 2, 1), "white", "circle"),
                piece((4, 4, 1), "white", "x"),
                piece((3, 3, 1), "black", "circle"),
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
            "pieces": [piece((2, 2, 1), "yellow", "circle"), piece((3, 3, 1), "yellow", "circle")],
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
                piece((1, 1, 1), "black", "circle"),
                piece((3, 1, 1), "black", "circle"),
                piece((2, 4, 1), "white", "circle"),
                piece((4, 4, 1), "white", "circle"),
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
    add(
        "single-placement-then-sequential-chains",
        board={
            "kind": "squares",
            "size": [5, 5, 1],
            "pieces": [
                piece((2, 2, 1), "white", "circle"),
                piece((4, 2, 1), "black", "circle"),
                piece((2, 4, 1), "black", "circle"),
                piece((4, 4, 1), "white", "circle"),
                piece((3, 3, 1), "yellow", "circle"),
            ],
        },
        reserves={"black": {"x": 2}, "white": {"x": 2}},
        shapes={"x": power("chain-jump", "reincarnates", "adjacent", MUST), "circle": {"move": "stationary"}},
        move_limit=30,
        phases=[{"order": "single", "movement": "placement-only"}, {}],
    )
    add(
        "sequential-then-sim-back-stacks",
        board={"kind": "stacks", "size": [4, 3, 2]},
        reserves={"black": {"circle": 3, "x": 1}, "white": {"circle": 3, "x": 1}},
        shapes={"circle": power(BACK, "converts", "adjacent"), "x": {"move": "adjacent"}},
        move_limit=30,
        phases=[{"movement": "placement-only"}, {}, {"order": "simultaneous", "pass": True}],
    )
    return out


def _round_case(name):
    return [r for r in round_cases() if r.name == name][0]


@pytest.mark.parametrize("rs", round_cases(), ids=lambda rs: rs.name)
def test_jumps_in_rounds_match_reference(rs):
    assert rs.compile()["simultaneous"]
    play_against_reference(rs, games=sweep(full=60, quick=5), seed=sum(map(ord, rs.name)), check=same_pieces)


@pytest.mark.slow
@pytest.mark.parametrize("rs", round_cases(), ids=lambda rs: rs.name)
def test_jumps_in_rounds_match_reference_long(rs):
    play_against_reference(rs, games=600, seed=5, check=same_pieces)


@pytest.mark.parametrize("rs", round_cases(), ids=lambda rs: rs.name)
def test_jumps_in_rounds_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=8, quick=1))


def _duel(**kw):
    """Black's X on (1,1) may jump white's circle on (2,1); white plans second."""
    rec = {
        "name": "duel",
        "board": {
            "kind": "squares",
            "size": [4, 2, 1],
            "pieces": [piece((1, 1, 1), "black", "x"), piece((2, 1, 1), "white", "circle")],
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
    play_named(core, player=0, text="(1,1,1)->(3,1,1) over (2,1,1)")
    play_named(core, player=1, text="pass")
    assert core.shapes()[:4] == [None, None, "x", None]
    assert core.shape_reserves()["black"]["circle"] == 1  # reincarnated into the jumper's colour
    assert core.pending_chain() is None  # no extra move in a round
    assert core.player() != -4 and core.pending_plans() is not None


def test_a_jump_misses_the_piece_that_moved_away():
    core = _duel()
    play_named(core, player=0, text="(1,1,1)->(3,1,1) over (2,1,1)")
    play_named(core, player=1, text="(2,1,1)->(2,2,1)")
    assert core.shapes()[:8] == [None, None, "x", None, None, "circle", None, None]
    assert core.shape_reserves()["black"]["circle"] == 0


def test_a_jump_and_the_jumped_piece_collide_on_the_landing():
    """White's circle moves to (3,1), where black's X lands: the circle left
    (2,1), so nothing is jumped; the X (a jumper, highest class) and the
    powerless circle (lowest rank) collide, and the rank rules resolve it: the X
    keeps (3,1) and reincarnates the circle into black's reserve."""
    core = _duel()
    play_named(core, player=0, text="(1,1,1)->(3,1,1) over (2,1,1)")
    play_named(core, player=1, text="(2,1,1)->(3,1,1)")
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
                piece((1, 2, 1), "black", "x"),
                piece((2, 2, 1), "yellow", "circle"),
                piece((2, 1, 1), "white", "x"),
            ],
        },
        "reserves": {"black": {}, "white": {}},
        "move_limit": 10,
        "phases": [SIM],
        "shapes": {"x": power("jump", "reincarnates", "adjacent"), "circle": {}},
    }
    core = make_core(rules.parse(rec))
    play_named(core, player=0, text="(1,2,1)->(3,2,1) over (2,2,1)")
    play_named(core, player=1, text="(2,1,1)->(2,3,1) over (2,2,1)")
    assert core.shapes() == [None, None, None, None, None, "x", None, "x", None]
    assert core.shape_reserves()["black"]["circle"] == 0 and core.shape_reserves()["white"]["circle"] == 0


def test_a_rule_set_mixing_phases_chains_in_its_sequential_phase():
    """Phases: a sequential one, then a simultaneous one. In the sequential
    phase black's chain-jumper takes two circles in one turn (the chain's
    extra move), as in a rule set with sequential phases only."""
    rec = {
        "name": "mix",
        "board": {
            "kind": "squares",
            "size": [5, 2, 1],
            "pieces": [
                piece((1, 1, 1), "black", "x"),
                piece((2, 1, 1), "white", "circle"),
                piece((4, 1, 1), "white", "circle"),
            ],
        },
        "reserves": {"black": {}, "white": {}},
        "move_limit": 10,
        "phases": [{}, SIM],
        "shapes": {"x": power("chain-jump", "removes", "adjacent"), "circle": {"move": "adjacent"}},
    }
    core = make_core(rules.parse(rec))
    assert core.current_phase() == 0
    play_named(core, player=0, text="(1,1,1)->(3,1,1) over (2,1,1)")
    assert core.pending_chain() is not None and core.player() == 0
    play_named(core, player=0, text="(3,1,1)->(5,1,1) over (4,1,1)")
    assert core.shapes()[:5] == [None, None, None, None, "x"]


@settings(max_examples=sweep(full=60, quick=7), deadline=None, suppress_health_check=list(HealthCheck))
@given(jump_round_records(), st.integers(0, 10**6))
def test_random_jump_rounds_match_reference(rec, seed):
    """Move by move the reference's, positions and reserves included."""
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=3, seed=seed, check=same_pieces)

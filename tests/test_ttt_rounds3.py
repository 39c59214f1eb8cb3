"""By-stack plans onto pieces that capture inside simultaneous and single
rounds (branch ttt-rounds3; docs/rules/ttt.md, "By-stack covers inside
rounds"), and 3P-PublicGoods, the catalogue game made of them.

The engine is compared move by move with the reference model
``ReferenceState`` (tests/ttt_reference/), whose hands come from the
brute-force poker evaluator of tests/test_ttt_poker.py; small positions check
each decision by hand; every test rule set goes through
``pyspiel.random_sim_test`` with serialisation and through
``pyspiel.convert_to_turn_based``."""

import pyspiel
import pytest

from games.ttt import make_core, rules
from ttt_checks import play_against_reference as play
from ttt_checks import random_sim_test_of
from ttt_checks import same_pieces as _same_pieces
from ttt_reference import ReferenceState

CAN = "can-capture"
SIM = {"order": "simultaneous", "pass": True}


def _rs(name, **kw):
    rec = {"name": name}
    rec.update(kw)
    return rules.parse(rec)


def _p(x, z, colour, shape, y=1):
    return {"at": [x, y, z], "colour": colour, "shape": shape}


def cases():
    out = []
    add = lambda name, **kw: out.append(_rs(name, **kw))
    # "Stalemate if goal is reached" in rounds (ttt-rounds3)
    add(
        "sim-goal-stalemate",
        board={"kind": "squares", "size": [3, 4, 1]},
        reserves={"black": {"triangle": 2}, "white": {"triangle": 2}},
        shapes={
            "triangle": {"move": "forward-orthogonal"},
            "pentagon": {"move": "adjacent", "power": CAN, "condition": "cover", "result": "removes"},
        },
        move_limit=30,
        turn_checks=["goal-reached-stalemate", "first-3-wins"],
        stalemate="most-pieces-wins",
        phases=[{"order": "simultaneous", "movement": "placement-only"}, SIM, {"pass": True}],
    )
    add(
        "single-goal-stalemate-4p",
        players="4",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={c: {"triangle": 1, "star": 1} for c in ("black", "white", "pink", "yellow")},
        shapes={"triangle": {"move": "forward-diagonal"}, "star": {"move": "adjacent-orthogonal"}},
        move_limit=30,
        turn_checks=["goal-reached-stalemate", "first-2-wins"],
        phases=[{"order": "single", "movement": "placement-only"}, SIM, {"pass": True}],
    )
    add(
        "sim-goal-stalemate-by-stack",
        players="2",
        board={
            "kind": "stacks",
            "size": [2, 3, 3],
            "pieces": [_p(1, 1, "black", "x", y=2), _p(2, 1, "white", "x", y=2)],
        },
        reserves={"black": {"circle": 2}, "white": {"circle": 2}},
        shapes={
            "x": {"move": "orth-by-stack", "power": CAN, "condition": "cover-by-rank", "result": "converts"},
            "circle": {"move": "orth-by-stack"},
        },
        move_limit=16,
        turn_checks=["goal-reached-stalemate"],
        stalemate="most-pieces-wins",
        phases=[SIM, {"pass": True}],
    )
    return out


def _case(name):
    return [r for r in cases() if r.name == name][0]


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_by_stack_covers_in_rounds_match_reference(rs):
    assert rs.compile()["simultaneous"]
    play(rs, games=80, seed=sum(map(ord, rs.name)), ref_class=ReferenceState, check=_same_pieces)


@pytest.mark.slow
@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_by_stack_covers_in_rounds_match_reference_long(rs):
    play(rs, games=800, seed=7, ref_class=ReferenceState, check=_same_pieces)


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=8)
    path = tmp_path / f"{rs.name}.json"
    game = pyspiel.load_game(f"ttt(rules={path})")
    pyspiel.random_sim_test(pyspiel.convert_to_turn_based(game), num_sims=4, serialize=False, verbose=False)


def _plan(core, player, text):
    texts = {core.action_string(player, a): a for a in core.legal_action_list()}
    assert text in texts, (text, sorted(texts))
    core.apply_action(texts[text])


def _goal_position():
    """sim-goal-stalemate after its placement phase: black's triangles on
    (1,3) and (1,1), white's on (2,2) and (3,4); black's goal is y = 4,
    white's y = 1 (the seed's goal placement)."""
    core = make_core(_case("sim-goal-stalemate"))
    tri = core.shape_names().index("triangle") * 12
    for black, white in ((6, 4), (0, 11)):
        core.apply_action(tri + black)
        core.apply_action(tri + white)
    assert core.current_phase() == 1
    return core


@pytest.mark.parametrize("white", ["pass", "(2,2,1)->(2,1,1) becomes pentagon"])
def test_goal_reached_in_a_round_is_a_stalemate_after_the_round(white):
    """The seed (3P-9X-HideSeek): "Statemate if goal is reached", and
    "stalemate advances the phase". Decided for rounds: the round is played
    out (every plan lands), then, after its turn checks, a plan whose piece
    ended on its goal line from off it and stayed makes the round a
    stalemate: the phase advances. Both players reaching their goals in one
    round is one stalemate, so no order of the plans is needed."""
    core = _goal_position()
    _plan(core, 0, "(1,3,1)->(1,4,1) becomes pentagon")
    _plan(core, 1, white)
    assert core.current_phase() == 2
    assert core.shapes()[9] == "pentagon" and core.cells()[9] == 1


def test_a_round_without_a_goal_goes_on():
    core = _goal_position()
    _plan(core, 0, "(1,1,1)->(1,2,1)")
    _plan(core, 1, "pass")
    assert core.current_phase() == 1


def test_goal_reached_stalemate_is_accepted_in_rounds():
    rec = _case("sim-goal-stalemate").to_json()
    assert "goal-reached-stalemate" in rec["turn_checks"]
    assert rules.parse(rec).compile()["simultaneous"]


# -- surrounds inside rounds (ttt-rounds3; docs/rules/ttt.md "Surrounds inside rounds") ---------

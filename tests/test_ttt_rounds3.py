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
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ttt import make_core, rules
from games.ttt.schema import SHAPES_ALL
from ttt_checks import parsed_or_rejected, random_sim_test_of
from ttt_checks import play_against_reference as play
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


def _sur(cond, result, move="stationary", how=CAN):
    return {"move": move, "power": how, "condition": cond, "result": result}


def surround_cases():
    out = []
    add = lambda name, **kw: out.append(_rs(name, **kw))
    add(
        "sim-surround-line",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"circle": 4, "x": 1}, "white": {"circle": 4, "x": 1}},
        shapes={"circle": _sur("surround-line", "removes"), "x": {"move": "adjacent"}},
        move_limit=16,
        turn_checks=[],
        stalemate="most-pieces-wins",
        phases=[SIM],
    )
    add(
        "single-then-sim-surround-orth-3p",
        players="3",
        board={"kind": "squares", "size": [3, 3, 1]},
        reserves={c: {"circle": 3} for c in ("black", "white", "pink")},
        shapes={"circle": _sur("surround-orthogonal", "converts")},
        move_limit=12,
        turn_checks=["first-3-wins"],
        phases=[{"order": "single", "movement": "placement-only"}, SIM],
    )
    add(
        "sim-surround-moves-vs-chaos",
        players="2-vs-chaos",
        board={"kind": "squares", "size": [3, 3, 1]},
        reserves={c: {"star": 2, "circle": 1} for c in ("black", "white", "pink")},
        shapes={
            "star": _sur("surround-line", "reincarnates", move="adjacent", how="must-capture"),
            "circle": {"move": "stationary", "power": CAN, "condition": "cover", "result": "removes"},
        },
        move_limit=14,
        turn_checks=["first-3-wins"],
        stalemate="most-pieces-wins",
        phases=[SIM, {"pass": True, "locked_players": ["chaos"]}],
    )
    return out


def _sur_case(name):
    return [r for r in surround_cases() if r.name == name][0]


@pytest.mark.parametrize("rs", surround_cases(), ids=lambda rs: rs.name)
def test_surrounds_in_rounds_match_reference(rs):
    assert rs.compile()["simultaneous"]
    play(rs, games=80, seed=sum(map(ord, rs.name)), ref_class=ReferenceState, check=_same_pieces)


@pytest.mark.slow
@pytest.mark.parametrize("rs", surround_cases(), ids=lambda rs: rs.name)
def test_surrounds_in_rounds_match_reference_long(rs):
    play(rs, games=800, seed=3, ref_class=ReferenceState, check=_same_pieces)


@pytest.mark.parametrize("rs", surround_cases(), ids=lambda rs: rs.name)
def test_surround_rounds_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=8)
    path = tmp_path / f"{rs.name}.json"
    game = pyspiel.load_game(f"ttt(rules={path})")
    pyspiel.random_sim_test(pyspiel.convert_to_turn_based(game), num_sims=4, serialize=False, verbose=False)


def test_surrounds_are_judged_after_every_plan_landed():
    """Decided: a round's surrounds are judged on the board with every plan
    landed, all at once. White's circle on (2,1) and black's on (3,1); black
    places on (1,1) (closing white's (2,1) against its (3,1)) while white
    places on (4,1) (closing black's (3,1) against its (2,1)): each capture
    uses a piece the other takes, and both happen."""
    rs = _rs(
        "line5",
        board={
            "kind": "squares",
            "size": [5, 1, 1],
            "pieces": [_p(2, 1, "white", "circle"), _p(3, 1, "black", "circle")],
        },
        reserves={"black": {"circle": 1}, "white": {"circle": 1}},
        move_limit=4,
        turn_checks=[],
        shapes={"circle": _sur("surround-line", "removes")},
        phases=[SIM],
    )
    core = make_core(rs)
    _plan(core, 0, "black@(1,1,1) circle")
    _plan(core, 1, "white@(4,1,1) circle")
    assert core.cells()[:5] == [1, 0, 0, 2, 0]


def test_a_captive_of_two_colours_is_destroyed():
    """Pink's circle in the middle of a 3x3 board; black closes the row
    through it, white the column, in the same round: both surround it, and a
    captive claimed by surrounders of two colours is destroyed (not converted
    to either), as pieces that plans contest are."""
    rs = _rs(
        "cross",
        players="3",
        board={
            "kind": "squares",
            "size": [3, 3, 1],
            "pieces": [
                _p(2, 1, "pink", "circle", y=2),
                _p(1, 1, "black", "circle", y=2),
                _p(2, 1, "white", "circle", y=1),
            ],
        },
        reserves={"black": {"circle": 1}, "white": {"circle": 1}},
        move_limit=6,
        turn_checks=[],
        shapes={"circle": _sur("surround-line", "converts")},
        phases=[{"order": "single", "locked_players": [3]}, {"pass": True}],
    )
    core = make_core(rs)
    _plan(core, 0, "black@(3,2,1) circle")
    _plan(core, 1, "white@(2,3,1) circle")
    assert core.cells()[4] == 0 and core.cells()[3] == 1 and core.cells()[5] == 1
    assert core.cells()[1] == 2 and core.cells()[7] == 2


@st.composite
def surround_round_records(draw):
    dims = [draw(st.integers(2, 4)), draw(st.integers(2, 3)), 1]
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    colours = ["black", "white", "pink"][: {"2": 2, "3": 3, "2-vs-chaos": 3}[players]]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    shapes = {s: {"move": draw(st.sampled_from(["stationary", "adjacent", "orthogonal"]))} for s in names}
    shapes[names[0]].update(
        power=draw(st.sampled_from([CAN, "must-capture"])),
        condition=draw(st.sampled_from(["surround-line", "surround-orthogonal"])),
        result=draw(st.sampled_from(["removes", "reincarnates", "converts"])),
    )
    for s in names[1:]:
        if draw(st.booleans()):
            shapes[s].update(
                power=CAN,
                condition=draw(st.sampled_from(["cover", "surround-line", "surround-orthogonal"])),
                result=draw(st.sampled_from(["removes", "reincarnates"])),
            )
    order = draw(st.sampled_from(["simultaneous", "single"]))
    first = draw(
        st.sampled_from([{"order": order, "movement": "placement-only"}, {"order": order, "pass": True}])
    )
    return {
        "name": "SR",
        "board": {"kind": "squares", "size": dims},
        "players": players,
        "reserves": {c: {s: draw(st.integers(0, 3)) for s in shapes} for c in colours},
        "shapes": shapes,
        "move_limit": draw(st.integers(2, 16)),
        "turn_checks": draw(
            st.lists(st.sampled_from(["first-3-wins", "goal-reached-stalemate"]), max_size=1)
        ),
        "phases": [first, {"order": "simultaneous", "pass": True}, {"pass": True}],
    }


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(surround_round_records(), st.integers(0, 10**6))
def test_random_surround_rounds_match_reference(rec, seed):
    rs = parsed_or_rejected(rec)
    play(rs, games=3, seed=seed, ref_class=ReferenceState, check=_same_pieces)

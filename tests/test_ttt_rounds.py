"""Issue 12's rules inside simultaneous and single rounds (branch ttt-rounds):
pot splits among captors of several colours after a round's joint action
(docs/rules/ttt.md, "Pots inside rounds"), and shapes that move in rounds,
goal replacements and by-stack moves included (docs/rules/ttt.md, "Moving
shapes inside rounds").

The engine is compared move by move with the reference model
``ReferenceState`` (tests/ttt_reference/), which deals a round's pots in
its own code; small positions check the seed's sentence by hand; every test
rule set goes through ``pyspiel.random_sim_test`` with serialisation, and
through ``pyspiel.convert_to_turn_based``."""


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


def power(cond, result, how=CAN):
    return {"move": "stationary", "power": how, "condition": cond, "result": result}


def _rs(name, **kw):
    rec = {"name": name}
    rec.update(kw)
    return rules.parse(rec)




























# -- shapes that move inside rounds ------------------------------------------------

SIM = {"order": "simultaneous", "pass": True}


def move_cases():
    out = []
    add = lambda name, **kw: out.append(_rs(name, **kw))
    add(
        "sim-moves-flat",
        board={"kind": "squares", "size": [3, 3, 1]},
        reserves={"black": {"circle": 2, "x": 1}, "white": {"circle": 2, "x": 1}},
        shapes={
            "circle": {"move": "adjacent"},
            "x": {"move": "orthogonal", "power": CAN, "condition": "cover", "result": "removes"},
        },
        move_limit=24,
        turn_checks=["first-3-wins"],
        phases=[SIM],
    )
    add(
        "sim-moves-by-rank-3p",
        players="3",
        board={"kind": "squares", "size": [4, 3, 1]},
        reserves={c: {"circle": 1, "star": 1, "cross": 1} for c in ("black", "white", "pink")},
        shapes={
            "circle": {"move": "adjacent-orthogonal"},
            "star": power("cover-by-rank", "reincarnates"),
            "cross": {
                "move": "knight-2x1x0",
                "power": CAN,
                "condition": "cover-by-rank",
                "result": "removes",
            },
        },
        move_limit=24,
        phases=[{"order": "simultaneous", "movement": "placement-only"}, SIM],
    )
    add(
        "sim-moves-stacks-converts",
        players="3",
        board={"kind": "stacks", "size": [3, 1, 4]},
        reserves={c: {"triangle": 2, "pentagon": 1} for c in ("black", "white", "pink")},
        shapes={
            "triangle": {"move": "adjacent"},
            "pentagon": {"move": "linear", "power": CAN, "condition": "cover", "result": "converts"},
        },
        move_limit=20,
        turn_checks=["first-3-wins"],
        phases=[SIM],
    )
    add(
        "sim-goal-replacement",
        board={"kind": "squares", "size": [3, 4, 1]},
        reserves={"black": {"triangle": 2}, "white": {"triangle": 2}},
        shapes={"triangle": {"move": "forward-orthogonal"}, "pentagon": {"move": "adjacent"}},
        move_limit=30,
        turn_checks=[],
        phases=[{"order": "simultaneous", "movement": "placement-only"}, SIM],
    )
    add(
        "single-then-sim-goals-4p",
        players="4",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={c: {"triangle": 1, "star": 1} for c in ("black", "white", "pink", "yellow")},
        shapes={"triangle": {"move": "forward-diagonal"}, "star": {"move": "adjacent-orthogonal"}},
        move_limit=30,
        turn_checks=["first-2-wins"],
        phases=[{"order": "single", "movement": "placement-only"}, SIM, {"pass": True}],
    )
    add(
        "sim-by-stack",
        players="3",
        board={
            "kind": "stacks",
            "size": [3, 2, 4],
            "pieces": [
                {"at": [1, 1, 1], "colour": "black", "shape": "circle"},
                {"at": [1, 1, 2], "colour": "white", "shape": "circle"},
            ],
        },
        reserves={"black": {"x": 1}, "white": {"x": 1}, "pink": {"circle": 2, "x": 1}},
        shapes={"circle": {"move": "orth-by-stack"}, "x": {"move": "orth-by-full-stack"}},
        move_limit=24,
        turn_checks=["first-3-wins"],
        phases=[SIM],
    )
    add(
        "single-by-stack-public-goods-like",
        players="3-vs-chaos",
        board={
            "kind": "stacks",
            "size": [5, 1, 8],
            "exclusive": [
                {"at": [[1, 1]], "players": [1]},
                {"at": [[2, 1]], "players": [2]},
                {"at": [[3, 1]], "players": [3]},
                {"at": [[4, 1]], "players": ["chaos"]},
                {"at": [[5, 1]], "players": [1, 2, 3]},
            ],
            "pieces": [
                {"at": [1, 1, 1], "colour": "black", "shape": "circle"},
                {"at": [2, 1, 1], "colour": "white", "shape": "circle"},
                {"at": [2, 1, 2], "colour": "white", "shape": "circle"},
                {"at": [3, 1, 1], "colour": "pink", "shape": "circle"},
                {"at": [3, 1, 2], "colour": "pink", "shape": "circle"},
                {"at": [3, 1, 3], "colour": "pink", "shape": "circle"},
            ],
        },
        reserves={"yellow": {"circle": 3}},
        shapes={"circle": {"move": "orth-by-stack"}},
        stalemate="fewer-pieces-than-chaos-loses",
        turn_checks=[],
        move_limit=12,
        phases=[
            {"order": "single", "pass": True, "locked_players": ["chaos"]},
            {"pass": True, "locked_players": [1, 2, 3]},
        ],
    )
    add(
        "two-boards-moves",
        boards=2,
        board={"kind": "squares", "size": [2, 2, 1]},
        reserves={"black": {"circle": 1, "x": 1}, "white": {"circle": 1, "x": 1}},
        shapes={
            "circle": {"move": "adjacent"},
            "x": {"move": "adjacent", "power": CAN, "condition": "cover", "result": "reincarnates"},
        },
        move_limit=20,
        turn_checks=["first-2-wins"],
        phases=[SIM],
    )
    return out


def _move_case(name):
    return [r for r in move_cases() if r.name == name][0]


@pytest.mark.parametrize("rs", move_cases(), ids=lambda rs: rs.name)
def test_moving_rounds_match_reference(rs):
    assert rs.compile()["simultaneous"]
    play(rs, games=60, seed=sum(map(ord, rs.name)), ref_class=ReferenceState, check=_same_pieces)


@pytest.mark.slow
@pytest.mark.parametrize("rs", move_cases(), ids=lambda rs: rs.name)
def test_moving_rounds_match_reference_long(rs):
    play(rs, games=600, seed=9, ref_class=ReferenceState, check=_same_pieces)


@pytest.mark.parametrize("rs", move_cases(), ids=lambda rs: rs.name)
def test_moving_rounds_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=6)
    game = pyspiel.load_game(f"ttt(rules={tmp_path / (rs.name + '.json')})")
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    pyspiel.random_sim_test(pyspiel.convert_to_turn_based(game), num_sims=3, serialize=False, verbose=False)


def _flat_pair():
    """Black's X on (1,1) and white's X on (2,1) of the flat 3x3, after a
    placement round; both may cover (capture) the other."""
    rs = _move_case("sim-moves-flat")
    core = make_core(rs)
    names = core.shape_names()
    assert names == ["circle", "x"]
    x = names.index("x")
    core.apply_action(x * 9 + 0)
    core.apply_action(x * 9 + 1)
    assert core.cells()[:2] == [1, 2] and core.player() == 0
    return core


def _move_id(core, player, text):
    """The move "a1->b2" (column letter, row number) of ``player`` on a flat board."""
    text = "->".join(f"({ord(w[0]) - 96},{w[1:]},1)" for w in text.split("->"))
    for a in core.legal_action_list() if core.player() == player else []:
        if core.action_string(player, a) == text:
            return a
    raise AssertionError((text, [core.action_string(player, a) for a in core.legal_action_list()]))


def test_swap_moves_both_pieces_and_captures_nothing():
    """Decided: every moved piece leaves before any lands, so two plans that
    each cover the other's piece swap them (each target is empty when its
    piece arrives: the captive has left); nothing is captured."""
    core = _flat_pair()
    core.apply_action(_move_id(core, 0, "a1->b1"))
    core.apply_action(_move_id(core, 1, "b1->a1"))
    assert core.cells()[:2] == [2, 1] and core.shapes()[:2] == ["x", "x"]


def test_moving_onto_a_space_another_piece_leaves():
    """Black covers white's X while white moves it away: black's X arrives on
    an empty space; white's X lands where it went."""
    core = _flat_pair()
    core.apply_action(_move_id(core, 0, "a1->b1"))
    core.apply_action(_move_id(core, 1, "b1->b2"))
    assert core.cells()[:5] == [0, 1, 0, 0, 2]


def test_two_moves_to_one_space_collide():
    """Black's X and white's circle both move to b2: a circle cannot capture,
    so it has the lowest rank (issue 12 item 4) and the X ("Cover, Removes")
    keeps b2, removing the circle (ttt-collide; before it both were
    destroyed). Two circles moving to one space destroy each other (they
    "cannot cover each other"), as do two X's (no attacker between them)."""
    rs = _rs(
        "collide",
        board={"kind": "squares", "size": [3, 3, 1]},
        reserves={"black": {"x": 1}, "white": {"circle": 1}},
        move_limit=10,
        phases=[SIM],
        shapes={
            "circle": {"move": "adjacent"},
            "x": {"move": "orthogonal", "power": CAN, "condition": "cover", "result": "removes"},
        },
    )
    core = make_core(rs)
    names = core.shape_names()
    core.apply_action(names.index("x") * 9 + 0)  # black X on a1
    core.apply_action(names.index("circle") * 9 + 2)  # white circle on c1
    core.apply_action(_move_id(core, 0, "a1->a2"))
    core.apply_action(_move_id(core, 1, "c1->b2"))
    assert core.cells()[3] == 1 and core.cells()[4] == 2  # different targets: both move
    core = make_core(rs)
    core.apply_action(names.index("x") * 9 + 1)  # black X on b1
    core.apply_action(names.index("circle") * 9 + 3)  # white circle on a2
    core.apply_action(_move_id(core, 0, "b1->b2"))
    core.apply_action(_move_id(core, 1, "a2->b2"))
    assert core.cells()[:9] == [0, 0, 0, 0, 1, 0, 0, 0, 0] and core.shapes()[4] == "x"
    for shape in ("circle", "x"):
        both = _rs(
            "collide2",
            board={"kind": "squares", "size": [3, 3, 1]},
            reserves={"black": {shape: 1}, "white": {shape: 1}},
            move_limit=10,
            phases=[SIM],
            shapes=rs.record["shapes"],
        )
        core = make_core(both)
        k = core.shape_names().index(shape)
        core.apply_action(k * 9 + 1)  # black on b1
        core.apply_action(k * 9 + 3)  # white on a2
        core.apply_action(_move_id(core, 0, "b1->b2"))
        core.apply_action(_move_id(core, 1, "a2->b2"))
        assert core.cells()[:9] == [0] * 9, shape


def test_by_stack_plans_sharing_a_stack_destroy_what_both_would_carry():
    """Black's circle at the bottom of stack (1,1) carries white's circle
    above it; white plans to move that circle alone. Both lift the top piece:
    neither plan moves, white's circle (taken by both) is destroyed, black's
    stays."""
    rs = _move_case("sim-by-stack")
    core = make_core(rs)
    texts = {core.action_string(0, a): a for a in core.legal_action_list()}
    black = [t for t in texts if t.startswith("stack(1,1)@1->")]
    assert black, texts
    core.apply_action(texts[black[0]])
    texts = {core.action_string(1, a): a for a in core.legal_action_list()}
    white = [t for t in texts if t.startswith("stack(1,1)@2->")]
    core.apply_action(texts[white[0]])
    core.apply_action(core.legal_action_list()[-1])  # pink passes
    X, Y = 3, 2
    assert core.cells()[0] == 1 and core.cells()[0 + X * Y] == 0
    assert all(v == 0 for i, v in enumerate(core.cells()) if i != 0)


def test_by_stack_move_carries_and_lands_in_order():
    rs = _move_case("sim-by-stack")
    core = make_core(rs)
    texts = {core.action_string(0, a): a for a in core.legal_action_list()}
    core.apply_action(texts["stack(1,1)@1->stack(3,1)"])
    core.apply_action(core.legal_action_list()[-1])  # white passes
    core.apply_action(core.legal_action_list()[-1])  # pink passes
    X, Y = 3, 2
    assert core.cells()[0] == 0 and core.cells()[2] == 1 and core.cells()[2 + X * Y] == 2


def test_goal_replacement_in_a_round():
    """A triangle (forward only: "cannot move backwards") reaching its goal
    line in a round takes the replacement its plan names, a shape that can
    move backwards (here the pentagon)."""
    rs = _move_case("sim-goal-replacement")
    found = 0
    import random

    rng = random.Random(4)
    for _ in range(200):
        core = make_core(rs)
        while core.player() != -4:
            legal = core.legal_action_list()
            becomes = [a for a in legal if "becomes" in core.action_string(core.player(), a)]
            a = becomes[0] if becomes else rng.choice(legal)
            text = core.action_string(core.player(), a)
            core.apply_action(a)
            if becomes and core.player() == 0 and "becomes pentagon" in text and core.current_phase() == 1:
                found += 1
                assert "pentagon" in core.shapes()
                break
        if found:
            break
    assert found


def test_public_goods_like_record_is_accepted_since_rounds3():
    """ttt-rounds3 plays by-stack plans onto pieces that capture in rounds
    (tests/test_ttt_rounds3.py); the refusal this test pinned is lifted."""
    rec = _move_case("single-by-stack-public-goods-like").to_json()
    rec["shapes"]["pentagon"] = {
        "move": "stationary",
        "power": CAN,
        "condition": "cover",
        "result": "reincarnates-x2",
    }
    rec["reserves"]["black"] = {"pentagon": 1}
    assert rules.parse(rec).compile()["simultaneous"]


def test_goal_reached_stalemate_is_accepted_in_rounds_since_rounds3():
    """ttt-rounds3 plays "Stalemate if goal is reached" in rounds
    (tests/test_ttt_rounds3.py); the refusal this test pinned is lifted."""
    rec = _move_case("sim-goal-replacement").to_json()
    rec["turn_checks"] = ["goal-reached-stalemate"]
    assert rules.parse(rec).compile()["simultaneous"]


MOVES = [
    "stationary",
    "adjacent",
    "orthogonal",
    "linear",
    "knight-2x1x0",
    "forward-orthogonal",
    "adjacent-diagonal",
]


@st.composite
def move_round_records(draw):
    kind = draw(st.sampled_from(["squares", "stacks"]))
    dims = [draw(st.integers(2, 3)), draw(st.integers(1, 3)), 1]
    if kind == "stacks":
        dims[2] = draw(st.integers(2, 3))
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    colours = ["black", "white", "pink"][: {"2": 2, "3": 3, "2-vs-chaos": 3}[players]]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    moves = MOVES + (["orth-by-stack", "orth-by-full-stack"] if kind == "stacks" else [])
    shapes = {s: {"move": draw(st.sampled_from(moves))} for s in names}
    by_stack = any(p["move"].startswith("orth-by") for p in shapes.values())
    for s in names:
        if not by_stack and draw(st.booleans()):
            shapes[s].update(
                power=CAN,
                condition=draw(st.sampled_from(["cover", "cover-by-rank"])),
                result=draw(
                    st.sampled_from(["removes", "reincarnates"] + (["converts"] if kind == "stacks" else []))
                ),
            )
    order = draw(st.sampled_from(["simultaneous", "single"]))
    first = draw(
        st.sampled_from([{"order": order, "movement": "placement-only"}, {"order": order, "pass": True}])
    )
    return {
        "name": "HM",
        "board": {"kind": kind, "size": dims},
        "players": players,
        "reserves": {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours},
        "shapes": shapes,
        "move_limit": draw(st.integers(2, 16)),
        "turn_checks": draw(st.lists(st.sampled_from(["first-2-wins", "first-3-wins"]), max_size=1)),
        "phases": [first, {"order": "simultaneous", "pass": True}, {"pass": True}],
    }


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(move_round_records(), st.integers(0, 10**6))
def test_random_moving_rounds_match_reference(rec, seed):
    rs = parsed_or_rejected(rec)
    play(rs, games=3, seed=seed, ref_class=ReferenceState, check=_same_pieces)

"""Jumps and chain jumps: "Jump; Chain Jump (the extra move may only jump
with the same piece or pass)" (docs/rules/ttt/jumps.md), on flat boards
and on stacks ("moves are always to the tops of stacks (so height is
ignored [...]), but fall to the lowest empty space": a jumper jumps over the
top piece of the adjacent stack). "+ back" is test_ttt_jumps_back.py's,
jumps inside rounds test_ttt_jumps_in_rounds.py's, surrounds
test_ttt_surround.py's.

The engine is compared move by move with the reference model
(tests/ttt_reference/), which has its own direction lists and its own
reading of the continuation; small positions check each decision by hand
against the sentences of the tic-tac-toe variations specification;
Hypothesis draws rule sets with jumpers; every test rule set goes through
``pyspiel.random_sim_test`` with serialisation."""

import json
import pickle
from functools import partial

import pyspiel
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
    piece_count,
    play_against_reference,
    play_named,
    position,
    power,
    random_sim_test_of,
    rule_set,
    same_pieces,
    stack_codes,
)
from ttt_records import jump_records, stack_jump_records
from ttt_reference import ReferenceState

FLAT_4X4 = {"board": {"kind": "squares", "size": [4, 4, 1]}}
STACKS_4X4X3 = {"board": {"kind": "stacks", "size": [4, 4, 3]}, "turn_checks": ["first-4-wins"]}
line = partial(position, size=(5, 1, 1))  # a row of five spaces
row = partial(position, size=(5, 1, 3), kind="stacks", turn_checks=["first-4-wins"])  # a row of five stacks


# -- flat boards -------------------------------------------------------------------------------


def cases():
    """One small rule set per rule (and a few mixtures)."""
    out = []
    add = lambda name, **kw: out.append(rule_set(name, FLAT_4X4, **kw))
    add(
        "jump-removes",
        reserves={"black": {"x": 2, "circle": 2}, "white": {"x": 2, "circle": 2}},
        shapes={"x": power("jump", "removes", "adjacent"), "circle": {"move": "adjacent"}},
        move_limit=40,
    )
    add(
        "jump-reincarnates-linear",
        reserves={"black": {"star": 2, "circle": 2}, "white": {"star": 1, "circle": 3}},
        shapes={"star": power("jump", "reincarnates-x2", "linear"), "circle": {"move": "orthogonal"}},
        move_limit=40,
        phases=[{"pass": True}],
    )
    add(
        "jump-converts-orthogonal",
        reserves={"black": {"cross": 2, "circle": 2}, "white": {"cross": 2, "circle": 2}},
        shapes={"cross": power("jump", "converts", "orthogonal"), "circle": {"move": "adjacent-diagonal"}},
        move_limit=40,
        turn_checks=["first-4-wins"],
    )
    add(
        "jump-must",
        reserves={"black": {"x": 2, "circle": 2}, "white": {"x": 2, "circle": 2}},
        shapes={"x": power("jump", "reincarnates", "adjacent", MUST), "circle": {"move": "adjacent"}},
        move_limit=40,
        phases=[{"pass": True}],
    )
    add(
        "chain-can",
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
        shapes={"x": power("chain-jump", "removes", "adjacent"), "circle": {"move": "adjacent"}},
        move_limit=40,
        phases=[{"pass": True}],
    )
    add(
        "chain-must",
        board={
            "kind": "squares",
            "size": [5, 5, 1],
            "pieces": [
                piece((1, 1, 1), "black", "x"),
                piece((2, 2, 1), "white", "circle"),
                piece((4, 4, 1), "white", "circle"),
                piece((3, 4, 1), "white", "x"),
            ],
        },
        reserves={"black": {"circle": 2}, "white": {"circle": 2}},
        shapes={"x": power("chain-jump", "reincarnates", "adjacent", MUST), "circle": {"move": "adjacent"}},
        move_limit=40,
    )
    add(
        "draughts-like",
        board={
            "kind": "squares",
            "size": [4, 4, 1],
            "pieces": [
                piece((1, 1, 1), "black", "circle"),
                piece((3, 1, 1), "black", "circle"),
                piece((2, 4, 1), "white", "circle"),
                piece((4, 4, 1), "white", "circle"),
            ],
        },
        reserves={"black": {}, "white": {}},
        shapes={
            "circle": power("chain-jump", "removes", "forward-diagonal", MUST),
            "pentagon": power("chain-jump", "removes", "adjacent-diagonal", MUST),
        },
        move_limit=40,
        phases=[{"pass": True}],
        stalemate="most-pieces-wins",
    )
    add(
        "jump-replacement-goal",
        board={"kind": "squares", "size": [3, 4, 1]},
        reserves={"black": {"triangle": 2, "pentagon": 1}, "white": {"triangle": 2, "pentagon": 1}},
        shapes={"triangle": power("jump", "removes", "forward-orthogonal"), "pentagon": {"move": "adjacent"}},
        move_limit=40,
    )
    add(
        "alquerque-chain",
        board={"kind": "squares", "size": [5, 5, 1]},
        reserves={"black": {"circle": 4}, "white": {"circle": 4}},
        shapes={"circle": power("chain-jump", "converts", "adjacent-alquerque")},
        move_limit=50,
        phases=[{"pass": True}],
    )
    add(
        "three-players-communal",
        players="3",
        board={
            "kind": "squares",
            "size": [4, 4, 1],
            "pieces": [piece((2, 2, 1), "yellow", "x"), piece((3, 3, 1), "yellow", "circle")],
        },
        reserves={"black": {"x": 1, "circle": 2}, "white": {"x": 1, "circle": 2}, "pink": {"circle": 3}},
        shapes={
            "x": power("chain-jump", "reincarnates", "linear"),
            "circle": power("cover-by-rank", "removes", "adjacent"),
        },
        move_limit=40,
    )
    add(
        "chaos-jumps",
        players="2-vs-chaos",
        board={"kind": "squares", "size": [4, 3, 1]},
        reserves={"black": {"x": 1, "circle": 2}, "white": {"x": 1, "circle": 2}, "pink": {"x": 2}},
        shapes={"x": power("chain-jump", "removes", "adjacent", MUST), "circle": {}},
        phases=[{"pass": True}],
        move_limit=30,
    )
    add(
        "two-boards",
        boards=2,
        board={"kind": "squares", "size": [3, 3, 1]},
        reserves={"black": {"x": 2, "circle": 2}, "white": {"x": 2, "circle": 2}},
        shapes={"x": power("chain-jump", "removes", "adjacent"), "circle": {"move": "adjacent"}},
        move_limit=30,
        turn_checks=["first-3-wins"],
    )
    add(
        "cube",
        board={"kind": "squares", "size": [3, 3, 3]},
        reserves={"black": {"x": 3, "circle": 2}, "white": {"x": 3, "circle": 2}},
        shapes={"x": power("jump", "reincarnates", "adjacent"), "circle": {"move": "adjacent-orthogonal"}},
        move_limit=40,
    )
    add(
        "rank-classes",
        reserves={"black": {"x": 1, "cross": 1, "circle": 2}, "white": {"x": 1, "cross": 1, "circle": 2}},
        shapes={
            "x": power("jump", "removes", "adjacent"),
            "cross": power("cover-by-rank", "removes", "adjacent"),
            "circle": power("cover", "reincarnates", "adjacent"),
        },
        move_limit=40,
    )
    add(
        "pieces-per-turn-2",
        pieces_per_turn=2,
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"x": 3}, "white": {"x": 3}},
        shapes={"x": power("chain-jump", "removes", "adjacent")},
        move_limit=40,
        phases=[{"pass": True}],
    )
    add(
        "agree-draw",
        agree_draw=True,
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"x": 3}, "white": {"x": 3}},
        shapes={"x": power("chain-jump", "removes", "adjacent")},
        move_limit=30,
    )
    return out


def _case(name):
    return [r for r in cases() if r.name == name][0]


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_jump_rule_sets_match_reference(rs):
    play_against_reference(rs, games=sweep(full=50, quick=4), seed=sum(map(ord, rs.name)), check=same_pieces)


@pytest.mark.slow
@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_jump_rule_sets_match_reference_long(rs):
    play_against_reference(rs, games=600, seed=11, check=same_pieces)


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=8, quick=1))


@pytest.mark.parametrize("name", ["jump-must", "chain-can", "chain-must", "draughts-like", "agree-draw"])
def test_is_legal_agrees_with_legal_actions(name):
    assert_is_legal_agrees_with_legal_actions(_case(name), games=sweep(full=5, quick=2), seed=3)


def test_chains_are_played_in_the_checks():
    """The comparisons above do reach continuations and end-chains."""
    stops = 0
    for name in ("chain-can", "pieces-per-turn-2", "agree-draw"):
        rs = _case(name)
        stops += play_against_reference(rs, games=sweep(full=10, quick=3), seed=5).count(
            ReferenceState(rs).a_stop
        )
    assert stops > 0


def test_a_jump_takes_the_adjacent_piece_and_lands_beyond():
    rs = line(
        [piece((1, 1, 1), "black", "x"), piece((2, 1, 1), "white", "circle")],
        {"x": power("jump", "removes", "adjacent"), "circle": {"move": "adjacent"}},
    )
    core = make_core(rs)
    assert action_strings(core) == ["(1,1,1)->(3,1,1) over (2,1,1)", "pass"]
    core.apply_action(core.legal_action_list()[0])
    assert core.shapes()[:3] == [None, None, "x"] and core.player() == 1


@pytest.mark.parametrize(
    "line_moves, expected",
    [
        # blocked by its own piece on (2,1,1), the x has no move and nothing to jump
        ("blocked-by-pieces", ["pass"]),
        # the line move passes over pieces: (3,1,1) is a plain move (over its own piece), not a jump
        ("over-pieces", ["(1,1,1)->(3,1,1)", "pass"]),
    ],
)
def test_no_jump_over_own_piece_or_onto_a_piece_or_from_afar(line_moves, expected):
    rs = line(
        [
            piece((1, 1, 1), "black", "x"),
            piece((2, 1, 1), "black", "circle"),
            piece((4, 1, 1), "white", "circle"),
            piece((5, 1, 1), "white", "circle"),
        ],
        {"x": power("jump", "removes", "orthogonal"), "circle": {}},
        line_moves=line_moves,
    )
    # (4,1,1) is not free, (5,1,1) neither; nothing is adjacent to jump from (1,1,1) onto an empty space
    assert action_strings(make_core(rs)) == expected


def test_a_jumper_never_covers_and_a_by_rank_piece_covering_it_is_captured():
    """ "pieces that capture in ways other than “by rank” have highest rank"."""
    rs = line(
        [piece((1, 1, 1), "black", "cross"), piece((2, 1, 1), "white", "x")],
        {
            "x": power("jump", "reincarnates", "adjacent"),
            "cross": power("cover-by-rank", "removes", "adjacent"),
        },
        size=(3, 1, 1),
    )
    core = make_core(rs)
    assert action_strings(core) == ["(1,1,1)->(2,1,1)", "pass"]  # the cover onto the jumper
    core.apply_action(core.legal_action_list()[0])
    assert core.shapes() == [None, "x", None]  # the cross was captured
    assert core.shape_reserves()["white"]["cross"] == 1  # ... and reincarnated by white
    rs = line(
        [piece((1, 1, 1), "black", "x"), piece((2, 1, 1), "white", "circle")],
        {"x": power("jump", "removes", "linear"), "circle": {}},
        size=(2, 1, 1),
    )
    assert action_strings(make_core(rs)) == ["pass"]  # the x may not cover the powerless circle


def test_must_capture_forces_the_jump():
    rs = line(
        [
            piece((1, 1, 1), "black", "x"),
            piece((2, 1, 1), "white", "circle"),
            piece((5, 1, 1), "black", "circle"),
        ],
        {"x": power("jump", "removes", "adjacent", MUST), "circle": {"move": "adjacent"}},
    )
    core = make_core(rs)
    assert action_strings(core) == ["(1,1,1)->(3,1,1) over (2,1,1)"]  # no circle move, no pass


def test_chain_continuation_is_the_same_piece_or_end_chain():
    rs = _case("chain-can")
    core = make_core(rs)
    jump = [
        a
        for a, s in zip(core.legal_action_list(), action_strings(core), strict=True)
        if s == "(1,1,1)->(3,3,1) over (2,2,1)"
    ]
    assert jump
    core.apply_action(jump[0])
    assert core.player() == 0 and core.pending_chain() == 2 + 5 * 2
    # from (3,3): over (4,4) to (5,5), over (4,2) to (5,1), over (2,4) to (1,5); or stop
    assert action_strings(core) == [
        "(3,3,1)->(5,1,1) over (4,2,1)",
        "(3,3,1)->(1,5,1) over (2,4,1)",
        "(3,3,1)->(5,5,1) over (4,4,1)",
        "end-chain",
    ]
    # serialisation keeps the pending chain
    again = pickle.loads(pickle.dumps(core))
    assert (
        again.pending_chain() == core.pending_chain()
        and again.legal_action_list() == core.legal_action_list()
    )
    assert again.position_hash() == core.position_hash()
    before = core.clone()
    core.apply_action(core.legal_action_list()[-1])  # end-chain
    assert core.player() == 1 and core.pending_chain() is None
    assert before.position_hash() != core.position_hash()
    # a second jump continues while a jump remains: (5,5) has none left
    before.apply_action(
        [
            a
            for a, s in zip(before.legal_action_list(), action_strings(before), strict=True)
            if "(5,5,1)" in s
        ][0]
    )
    assert before.player() == 1 and before.pending_chain() is None


def test_must_capture_chain_has_no_end_chain():
    rs = _case("chain-must")
    core = make_core(rs)
    assert action_strings(core) == ["(1,1,1)->(3,3,1) over (2,2,1)"]
    core.apply_action(core.legal_action_list()[0])
    assert core.player() == 0
    assert action_strings(core) == ["(3,3,1)->(5,5,1) over (4,4,1)", "(3,3,1)->(3,5,1) over (3,4,1)"][
        ::-1
    ] or sorted(action_strings(core)) == sorted(
        ["(3,3,1)->(5,5,1) over (4,4,1)", "(3,3,1)->(3,5,1) over (3,4,1)"]
    )
    assert "end-chain" not in action_strings(core)
    core.apply_action(core.legal_action_list()[0])
    assert (
        core.player() == 1
        and core.shape_reserves()["black"]["x"] + core.shape_reserves()["black"]["circle"] == 4
    )


def test_openspiel_face_keeps_the_player_through_a_chain(tmp_path):
    rs = _case("chain-can")
    path = tmp_path / "chain.json"
    path.write_text(json.dumps(rs.to_json()))
    game = pyspiel.load_game(f"ttt(rules={path})")
    state = game.new_initial_state()
    a = [x for x in state.legal_actions() if state.action_to_string(0, x) == "(1,1,1)->(3,3,1) over (2,2,1)"][
        0
    ]
    state.apply_action(a)
    assert state.current_player() == 0
    assert state.action_to_string(0, state.legal_actions()[-1]) == "end-chain"
    restored = game.deserialize_state(state.serialize())
    assert restored.legal_actions() == state.legal_actions() and str(restored) == str(state)
    state.apply_action(state.legal_actions()[-1])
    assert state.current_player() == 1
    assert game.num_distinct_actions() == make_core(rs).num_actions


def test_converts_changes_the_colour_in_place():
    rs = line(
        [piece((1, 1, 1), "black", "cross"), piece((2, 1, 1), "white", "star")],
        {"cross": power("jump", "converts", "orthogonal"), "star": {}},
    )
    core = make_core(rs)
    core.apply_action(
        [a for a, s in zip(core.legal_action_list(), action_strings(core), strict=True) if "over" in s][0]
    )
    assert core.cells()[:3] == [0, 1, 1] and core.shapes()[:3] == [None, "star", "cross"]


def test_forward_jumper_reaching_its_goal_names_a_replacement():
    rs = line(
        [piece((1, 2, 1), "black", "triangle"), piece((1, 3, 1), "white", "circle")],
        {
            "triangle": power("jump", "removes", "forward-orthogonal"),
            "pentagon": {"move": "adjacent"},
            "circle": {},
        },
        size=(1, 4, 1),
        players="2",
    )
    core = make_core(rs)
    assert action_strings(core) == ["(1,2,1)->(1,4,1) over (1,3,1) becomes pentagon", "pass"]


def test_validation_lists_every_jump_problem():
    rec = {
        "name": "bad",
        "board": {"kind": "stacks", "size": [3, 1, 3]},
        "move_limit": 10,
        "reserves": {"black": {"x": 1}, "white": {"x": 1}},
        "shapes": {
            "x": power("jump", "removes", "stationary"),
            "star": power("chain-jump", "removes", "knight-2x1x0"),
            "circle": power("chain-jump", "removes", "orth-by-stack"),
        },
    }
    with pytest.raises(RuleSetError) as e:
        rules.parse(rec)
    text = str(e.value)
    assert "a stationary shape cannot jump" in text
    assert "'knight-2x1x0' has none" in text
    assert "'chain-jump' with move 'orth-by-stack' is not supported yet" in text  # by-stack movers jump once


def test_max_game_length_counts_end_chains():
    plain = dict(_case("chain-can").record)
    plain["shapes"] = dict(plain["shapes"], x=power("jump", "removes", "adjacent"))
    plain["name"] = "plain"
    assert make_core(_case("chain-can")).max_game_length == 2 * make_core(rules.parse(plain)).max_game_length
    assert make_core(_case("chain-can")).num_actions == make_core(rules.parse(plain)).num_actions + 1


@settings(max_examples=sweep(full=80, quick=10), deadline=None, suppress_health_check=list(HealthCheck))
@given(jump_records(), st.integers(0, 10**6))
def test_random_jump_rule_sets_match_reference(rec, seed):
    """Move by move the reference's; pieces are conserved except by the stated
    captures: a jump that removes takes one piece off, x2 adds one, x3 two, the others
    keep the count; an end-chain changes nothing; surrounds and the adjacent and approach
    captures may take several pieces at once."""
    rs = parsed_or_rejected(rec)
    results = {p.get("result") for p in rs.record["shapes"].values()}
    props = rs.record["shapes"].values()
    # a piece covering a converting jumper on a flat board has no space to
    # stay in and leaves the board (docs/rules/ttt/jumps.md, "Whom it captures")
    removing = (
        "removes" in results
        or any(p.get("condition") == "cover-by-rank" for p in props)
        or ("converts" in results and any(p.get("condition") in (None, "cover-by-rank") for p in props))
    )
    # surrounds and the adjacent and approach captures take any number of pieces at once
    many = any(
        p.get("condition", "").startswith(("surround", "adjacent")) or p.get("condition") == "approach"
        for p in props
    )
    last = {}

    def conserved(core, ref):
        same_pieces(core, ref)
        total = piece_count(core)
        if "prev" in last and core.player() != -4:
            delta = total - last["prev"]
            if not results & {"reincarnates-x2", "reincarnates-x3"}:
                assert delta <= 0
            if not removing:
                assert delta >= 0
            if not many:
                assert -2 <= delta <= (2 if "reincarnates-x3" in results else 1)
        last["prev"] = total
        if core.player() == -4:
            last.clear()

    play_against_reference(rs, games=3, seed=seed, check=conserved)


def test_validation_accepts_jumps_mixing_rounds_and_sequential_phases_on_flat_boards():
    """Jumps are played in every mix of phases (test_ttt_jumps_in_rounds.py):
    each phase plays its own order."""
    rs = rules.parse(
        {
            "name": "j",
            "board": {"kind": "squares", "size": [3, 3, 1]},
            "phases": [{"order": "simultaneous", "movement": "allowed"}, {}],
            "reserves": {"black": {"x": 1}, "white": {"x": 1}},
            "move_limit": 10,
            "shapes": {"x": power("jump", "removes", "adjacent")},
        }
    )
    assert [ph.get("order", "sequential") for ph in rs.record["phases"]] == ["simultaneous", "sequential"]


# -- on stacks -------------------------------------------------------------------------------


def stack_cases():
    """One small stacks rule set per decision (and a few mixtures)."""
    out = []
    add = lambda name, **kw: out.append(rule_set(name, STACKS_4X4X3, **kw))
    add(
        "stack-jump-removes",
        reserves={"black": {"x": 3, "circle": 2}, "white": {"x": 3, "circle": 2}},
        shapes={"x": power("jump", "removes", "adjacent"), "circle": {"move": "adjacent"}},
        move_limit=40,
    )
    add(
        "stack-jump-converts-orth",
        size=(4, 1, 4),
        reserves={"black": {"cross": 3, "circle": 2}, "white": {"cross": 3, "circle": 2}},
        shapes={"cross": power("jump", "converts", "orthogonal"), "circle": {"move": "adjacent"}},
        move_limit=40,
        turn_checks=["first-4-wins"],
    )
    add(
        "stack-jump-x2-must",
        size=(3, 3, 2),
        reserves={"black": {"star": 2, "circle": 2}, "white": {"star": 2, "circle": 2}},
        shapes={"star": power("jump", "reincarnates-x2", "adjacent", MUST), "circle": {"move": "adjacent"}},
        move_limit=40,
        phases=[{"pass": True}],
    )
    add(
        "stack-chain-can",
        size=(5, 5, 3),
        pieces=[
            piece((1, 1, 1), "black", "x"),
            piece((2, 2, 1), "white", "circle"),
            piece((2, 2, 2), "white", "circle"),
            piece((4, 4, 1), "white", "circle"),
            piece((4, 2, 1), "black", "circle"),
            piece((4, 2, 2), "white", "x"),
            piece((3, 3, 1), "white", "circle"),
            piece((3, 3, 2), "white", "circle"),
            piece((3, 3, 3), "black", "circle"),
        ],
        reserves={"black": {"circle": 1}, "white": {"x": 1, "circle": 1}},
        shapes={"x": power("chain-jump", "removes", "adjacent"), "circle": {"move": "adjacent"}},
        move_limit=40,
        phases=[{"pass": True}],
    )
    add(
        "stack-chain-must-reincarnates",
        size=(5, 1, 3),
        pieces=[
            piece((1, 1, 1), "black", "x"),
            piece((2, 1, 1), "white", "circle"),
            piece((4, 1, 1), "white", "x"),
            piece((4, 1, 2), "white", "circle"),
        ],
        reserves={"black": {"circle": 2}, "white": {"circle": 2}},
        shapes={"x": power("chain-jump", "reincarnates", "adjacent", MUST), "circle": {"move": "adjacent"}},
        move_limit=40,
    )
    add(
        "stack-draughts-like",
        size=(4, 4, 2),
        pieces=[
            piece((1, 1, 1), "black", "circle"),
            piece((3, 1, 1), "black", "circle"),
            piece((2, 4, 1), "white", "circle"),
            piece((4, 4, 1), "white", "circle"),
        ],
        reserves={"black": {"circle": 1}, "white": {"circle": 1}},
        shapes={
            "circle": power("chain-jump", "removes", "forward-diagonal", MUST),
            "pentagon": power("chain-jump", "removes", "adjacent-diagonal", MUST),
        },
        move_limit=40,
        phases=[{"pass": True}],
        stalemate="most-pieces-wins",
    )
    add(
        "stack-jump-locks",
        size=(4, 2, 3),
        locked=[[2, 1, 1], [3, 2, 2]],
        reserves={"black": {"x": 3, "circle": 2}, "white": {"x": 3, "circle": 2}},
        shapes={"x": power("chain-jump", "removes", "linear"), "circle": {"move": "adjacent"}},
        move_limit=40,
        phases=[{"pass": True, "locked": [[4, 1, 2]]}],
    )
    add(
        "stack-jump-with-covers",
        players="3",
        size=(4, 3, 3),
        pieces=[piece((2, 2, 1), "yellow", "cross")],
        reserves={
            "black": {"x": 2, "cross": 1, "circle": 2},
            "white": {"x": 2, "cross": 1, "circle": 2},
            "pink": {"x": 1, "circle": 2},
        },
        shapes={
            "x": power("chain-jump", "reincarnates", "adjacent"),
            "cross": power("cover-by-rank", "converts", "adjacent"),
            "circle": power("cover", "removes", "orthogonal"),
        },
        move_limit=40,
    )
    add(
        "stack-jump-two-boards",
        boards=2,
        size=(3, 3, 2),
        reserves={"black": {"x": 3, "circle": 2}, "white": {"x": 3, "circle": 2}},
        shapes={"x": power("chain-jump", "removes", "adjacent"), "circle": {"move": "adjacent"}},
        move_limit=30,
        turn_checks=["first-3-wins"],
    )
    add(
        "stack-jump-goal-replacement",
        size=(3, 4, 2),
        reserves={"black": {"triangle": 2, "pentagon": 1}, "white": {"triangle": 2, "pentagon": 1}},
        shapes={"triangle": power("jump", "removes", "forward-orthogonal"), "pentagon": {"move": "adjacent"}},
        move_limit=40,
    )
    add(
        "stack-jump-pieces-per-turn-2",
        pieces_per_turn=2,
        size=(4, 3, 3),
        reserves={"black": {"x": 4}, "white": {"x": 4}},
        shapes={"x": power("chain-jump", "converts", "adjacent")},
        move_limit=40,
        phases=[{"pass": True}],
    )
    add(
        "stack-by-stack-jumpers",
        size=(4, 3, 3),
        pieces=[
            piece((2, 2, 1), "white", "circle"),
            piece((3, 2, 1), "black", "circle"),
            piece((3, 2, 2), "white", "circle"),
        ],
        reserves={"black": {"star": 2, "x": 1, "circle": 1}, "white": {"star": 2, "x": 1, "circle": 1}},
        shapes={
            "star": power("jump", "reincarnates", "orth-by-stack", MUST),
            "x": power("jump", "converts", "orth-by-full-stack"),
            "circle": power("cover", "removes", "adjacent"),
        },
        move_limit=40,
        phases=[{"pass": True}],
    )
    return out


@pytest.mark.parametrize("rs", stack_cases(), ids=lambda rs: rs.name)
def test_stack_jump_rule_sets_match_reference(rs):
    play_against_reference(rs, games=sweep(full=50, quick=4), seed=sum(map(ord, rs.name)), check=same_pieces)


@pytest.mark.slow
@pytest.mark.parametrize("rs", stack_cases(), ids=lambda rs: rs.name)
def test_stack_jump_rule_sets_match_reference_long(rs):
    play_against_reference(rs, games=600, seed=11, check=same_pieces)


@pytest.mark.parametrize("rs", stack_cases(), ids=lambda rs: rs.name)
def test_random_sim_test_on_stack_jumps(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=8, quick=1))


@pytest.mark.parametrize(
    "name",
    [
        "stack-jump-x2-must",
        "stack-chain-can",
        "stack-chain-must-reincarnates",
        "stack-draughts-like",
    ],
)
def test_stack_jumps_is_legal_agrees_with_legal_actions(name):
    assert_is_legal_agrees_with_legal_actions(
        next(r for r in stack_cases() if r.name == name), games=5, seed=3
    )


def test_jumps_and_chains_are_played_in_the_checks():
    """The comparisons above do jump on stacks, and reach end-chains."""
    jumps = stops = 0
    for rs in stack_cases():
        ref = ReferenceState(rs)
        for a in play_against_reference(rs, games=sweep(full=10, quick=3), seed=5):
            stops += a == ref.a_stop
        core = make_core(rs)
        jumps += sum(
            " over " in core.action_string(core.player(), a)
            for a in core.legal_action_list()
            if core.player() >= 0
        )
    assert stops > 0
    assert jumps > 0


def test_a_jump_takes_the_top_piece_and_falls_on_the_stack_beyond():
    """Height ignored: the x at the bottom of stack 1 jumps the top of stack 2
    (white, on a black piece) and falls onto stack 3's lowest empty space;
    the black piece under the captive stays."""
    rs = row(
        [
            piece((1, 1, 1), "black", "x"),
            piece((2, 1, 1), "black", "circle"),
            piece((2, 1, 2), "white", "circle"),
            piece((3, 1, 1), "white", "circle"),
        ],
        {"x": power("jump", "removes", "adjacent"), "circle": {}},
    )
    core = make_core(rs)
    # the plain move onto stack 2 stays legal (it has room), as on any stacks board
    assert action_strings(core) == [
        "stack(1,1)->stack(2,1)",
        "stack(1,1)->stack(3,1) over stack(2,1)",
        "pass",
    ]
    play_named(core, "stack(1,1)->stack(3,1) over stack(2,1)")
    assert stack_codes(core, 1) == [0, 0, 0]
    assert stack_codes(core, 2) == [1, 0, 0]  # only the top piece was captured
    assert stack_codes(core, 3) == [2, 1, 0]  # the jumper fell onto the white circle, not covering it
    assert core.shapes()[2 + 5] == "x"


def test_a_by_stack_jumper_carries_its_riders_over_the_jumped_top():
    """Black's by-stack circle at the bottom of stack 1 carries white's rider
    over stack 2 (white's top taken, black's piece under it stays) onto
    stack 3, without covering what is there."""
    rs = row(
        [
            piece((1, 1, 1), "black", "circle"),
            piece((1, 1, 2), "white", "x"),
            piece((2, 1, 1), "black", "x"),
            piece((2, 1, 2), "white", "x"),
            piece((3, 1, 1), "white", "x"),
        ],
        {"circle": power("jump", "reincarnates", "orth-by-stack"), "x": {}},
    )
    core = make_core(rs)
    assert "stack(1,1)@1->stack(3,1) over stack(2,1)" in action_strings(core)
    play_named(core, "stack(1,1)@1->stack(3,1) over stack(2,1)")
    assert stack_codes(core, 1) == [0, 0, 0]
    assert stack_codes(core, 2) == [1, 0, 0]
    assert stack_codes(core, 3) == [2, 1, 2]  # the white x not covered, the mover, its rider
    assert core.shape_reserves()["black"]["x"] == 1


def test_no_jump_over_an_own_top_an_empty_stack_or_onto_a_full_stack():
    rs = row(
        [
            piece((2, 1, 1), "black", "x"),
            piece((1, 1, 1), "white", "circle"),
            piece((1, 1, 2), "black", "circle"),
            piece((3, 1, 1), "white", "circle"),
            piece((4, 1, 1), "white", "circle"),
            piece((4, 1, 2), "white", "circle"),
        ],
        {"x": power("jump", "removes", "adjacent"), "circle": {}},
        size=(4, 1, 2),
    )
    core = make_core(rs)
    # stack 1's top is black; stack 3's top is white but stack 4 beyond is full
    assert action_strings(core) == ["stack(2,1)->stack(3,1)", "pass"]


def test_a_locked_top_is_a_wall_not_a_piece():
    rs = row(
        [piece((1, 1, 1), "black", "x"), piece((2, 1, 1), "white", "circle")],
        {"x": power("jump", "removes", "adjacent"), "circle": {}},
        locked=[[2, 1, 2]],
    )
    # the move onto stack 2 lands above the locked space; no jump over it
    assert action_strings(make_core(rs)) == ["stack(1,1)->stack(2,1)", "pass"]


def test_converts_changes_the_top_in_place():
    rs = row(
        [
            piece((1, 1, 1), "black", "x"),
            piece((2, 1, 1), "white", "circle"),
            piece((2, 1, 2), "white", "circle"),
        ],
        {"x": power("jump", "converts", "adjacent"), "circle": {}},
    )
    core = make_core(rs)
    play_named(core, "stack(1,1)->stack(3,1) over stack(2,1)")
    assert stack_codes(core, 2) == [2, 1, 0] and stack_codes(core, 3) == [1, 0, 0]


def test_chain_jump_goes_on_from_the_top_of_the_stack_it_fell_on():
    rs = row(
        [
            piece((1, 1, 1), "black", "x"),
            piece((2, 1, 1), "white", "circle"),
            piece((3, 1, 1), "white", "circle"),
            piece((4, 1, 1), "white", "circle"),
            piece((4, 1, 2), "white", "circle"),
        ],
        {"x": power("chain-jump", "reincarnates", "adjacent"), "circle": {}},
    )
    core = make_core(rs)
    play_named(core, "stack(1,1)->stack(3,1) over stack(2,1)")  # onto the white circle of stack 3
    assert core.player() == 0 and core.pending_chain() == 2
    assert action_strings(core) == ["stack(3,1)->stack(5,1) over stack(4,1)", "end-chain"]
    play_named(core, "stack(3,1)->stack(5,1) over stack(4,1)")
    assert stack_codes(core, 4) == [2, 0, 0] and stack_codes(core, 5) == [1, 0, 0]
    assert core.shape_reserves()["black"]["circle"] == 2
    # and back again over stack 4's remaining circle, onto stack 3 (no rule stops a chain turning)
    assert action_strings(core) == ["stack(5,1)->stack(3,1) over stack(4,1)", "end-chain"]
    play_named(core, "end-chain")
    assert core.player() == 1


def test_a_jumper_landing_on_a_stack_does_not_cover_it():
    """A jumper captures only by jumping: placed or moved onto a stack of an
    opponent's pieces it covers nothing (with covers in the rule set)."""
    rs = row(
        [piece((1, 1, 1), "white", "circle")],
        {"x": power("jump", "removes", "adjacent"), "circle": power("cover", "removes", "adjacent")},
        reserves={"black": {"x": 1}, "white": {}},
        size=(2, 1, 3),
    )
    core = make_core(rs)
    a = [
        a
        for a, s in zip(core.legal_action_list(), action_strings(core), strict=True)
        if s.startswith("black@stack(1,1)")
    ][0]
    core.apply_action(a)
    assert stack_codes(core, 1, 1) == [2, 1, 0]


def test_validation_refuses_chains_by_stack_movers_only():
    rec = {
        "name": "bad",
        "board": {"kind": "stacks", "size": [3, 1, 3]},
        "move_limit": 10,
        "reserves": {"black": {"x": 1}, "white": {"x": 1}},
        "shapes": {
            "x": power("jump", "removes", "adjacent"),
            "circle": power("chain-jump", "removes", "orth-by-stack"),
            "star": power("jump", "removes", "orth-by-full-stack"),
        },
    }
    with pytest.raises(RuleSetError) as e:
        rules.parse(rec)
    text = str(e.value)
    assert "shapes.circle.condition: 'chain-jump' with move 'orth-by-stack' is not supported yet" in text
    assert "shapes.star" not in text and "shapes.x" not in text


@settings(max_examples=sweep(full=80, quick=10), deadline=None, suppress_health_check=list(HealthCheck))
@given(stack_jump_records(), st.integers(0, 10**6))
def test_random_stack_jump_rule_sets_match_reference(rec, seed):
    """Move by move the reference's; pieces are conserved except by the stated
    captures. When every shape jumps, no arrival is a cover fight, so a jump
    that removes takes one piece off, x2 adds one, the others keep the count,
    and nothing else changes it (an end-chain, a plain move, a placement).
    Otherwise (on stacks every arrival lands on pieces, and a powerless or
    by-rank piece landing on a jumper or surrounder is captured by it) only
    the direction is checked: the count grows only with x2 results, and
    falls only with removals or fights (mutual destruction; a captive dealt
    to a communal captor, whose reserve no seat plays)."""
    rs = parsed_or_rejected(rec)
    props = list(rs.record["shapes"].values())
    results = {p.get("result") for p in props}
    covers = not all(
        p.get("power", "none") != "none" and p.get("condition") in ("jump", "chain-jump") for p in props
    )
    surrounds = any(p.get("condition", "").startswith("surround") for p in props)
    play_against_reference(
        rs,
        games=3,
        seed=seed,
        check=jump_count_check(results, covers or surrounds),
    )


def test_validation_accepts_jumps_on_stacks_mixing_rounds_and_sequential_phases():
    """Jumps on stacks are played in every mix of phases
    (test_ttt_jumps_in_rounds.py)."""
    rs = rules.parse(
        {
            "name": "r",
            "board": {"kind": "stacks", "size": [4, 4, 3]},
            "phases": [{"order": "single"}, {}],
            "reserves": {"black": {"x": 2}, "white": {"x": 2}},
            "move_limit": 10,
            "shapes": {"x": power("jump", "removes", "adjacent")},
        }
    )
    assert make_core(rs).current_phase() == 0

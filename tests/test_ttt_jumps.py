"""Jumps and chain jumps (issue 12 item 4: "Jump; Chain Jump (the extra move may
only jump with the same piece or pass)"; docs/rules/ttt.md, "Jumps").

The engine is compared move by move with the reference model ``ReferenceState``
(tests/ttt_reference/), which has its own direction lists and its own
reading of the continuation; small positions check each decision by hand
against the seed's sentences; Hypothesis draws rule sets with jumpers; every
test rule set goes through ``pyspiel.random_sim_test`` with serialisation."""

import pickle

import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ttt import make_core, rules
from games.ttt.rules import RuleSetError
from games.ttt.schema import SHAPES_ALL
from ttt_checks import assert_is_legal_agrees_with_legal_actions, parsed_or_rejected, random_sim_test_of
from ttt_checks import play_against_reference as play
from ttt_checks import same_pieces as _same_pieces
from ttt_reference import ReferenceState

CAN = "can-capture"
MUST = "must-capture"


def _rs(name, **kw):
    rec = {"name": name, "board": {"kind": "squares", "size": [4, 4, 1]}}
    rec.update(kw)
    return rules.parse(rec)


def power(cond, result, move, how=CAN):
    return {"move": move, "power": how, "condition": cond, "result": result}


def _piece(x, y, colour, shape, z=1):
    return {"at": [x, y, z], "colour": colour, "shape": shape}


def cases():
    """One small rule set per rule (and a few mixtures)."""
    out = []
    add = lambda name, **kw: out.append(_rs(name, **kw))
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
                _piece(1, 1, "black", "x"),
                _piece(2, 2, "white", "circle"),
                _piece(4, 4, "white", "circle"),
                _piece(4, 2, "white", "circle"),
                _piece(2, 4, "white", "circle"),
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
                _piece(1, 1, "black", "x"),
                _piece(2, 2, "white", "circle"),
                _piece(4, 4, "white", "circle"),
                _piece(3, 4, "white", "x"),
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
                _piece(1, 1, "black", "circle"),
                _piece(3, 1, "black", "circle"),
                _piece(2, 4, "white", "circle"),
                _piece(4, 4, "white", "circle"),
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
            "pieces": [_piece(2, 2, "yellow", "x"), _piece(3, 3, "yellow", "circle")],
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
        "reversi-like",
        board={
            "kind": "squares",
            "size": [4, 4, 1],
            "pieces": [
                _piece(2, 2, "black", "circle"),
                _piece(3, 3, "black", "circle"),
                _piece(2, 3, "white", "circle"),
                _piece(3, 2, "white", "circle"),
            ],
        },
        reserves={"black": {"circle": 6}, "white": {"circle": 6}},
        stalemate="most-pieces-wins",
        shapes={"circle": power("surround-line", "converts", "stationary", MUST)},
        phases=[{"pass": True}],
    )
    add(
        "go-like",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"circle": 7}, "white": {"circle": 7}},
        move_limit=40,
        shapes={"circle": power("surround-orthogonal", "removes", "stationary")},
        phases=[{"pass": True}],
    )
    add(
        "surround-orth-moves",
        players="3",
        board={"kind": "squares", "size": [4, 3, 1], "locked": [[4, 3, 1]]},
        reserves={"black": {"x": 2, "circle": 2}, "white": {"x": 2, "circle": 2}, "pink": {"circle": 2}},
        shapes={
            "x": power("surround-orthogonal", "reincarnates", "adjacent"),
            "circle": {"move": "adjacent"},
        },
        move_limit=40,
    )
    add(
        "surround-line-moves-x2",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"star": 2, "circle": 2}, "white": {"star": 2, "circle": 2}},
        shapes={
            "star": power("surround-line", "reincarnates-x2", "orthogonal"),
            "circle": {"move": "diagonal"},
        },
        move_limit=40,
    )
    add(
        "surround-and-jump-must",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"x": 2, "cross": 2}, "white": {"x": 2, "cross": 2}},
        shapes={
            "x": power("surround-orthogonal", "removes", "adjacent", MUST),
            "cross": power("chain-jump", "converts", "adjacent", MUST),
        },
        move_limit=40,
    )
    add(
        "surround-cube",
        board={"kind": "squares", "size": [3, 3, 2]},
        reserves={"black": {"x": 4}, "white": {"x": 4}},
        shapes={"x": power("surround-line", "removes", "stationary")},
        move_limit=20,
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
def test_engine_matches_reference(rs):
    play(rs, games=50, seed=sum(map(ord, rs.name)), ref_class=ReferenceState, check=_same_pieces)


@pytest.mark.slow
@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_engine_matches_reference_long(rs):
    play(rs, games=600, seed=11, ref_class=ReferenceState, check=_same_pieces)


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=8)


@pytest.mark.parametrize(
    "name",
    [
        "jump-must",
        "chain-can",
        "chain-must",
        "draughts-like",
        "agree-draw",
        "reversi-like",
        "surround-and-jump-must",
    ],
)
def test_is_legal_agrees_with_legal_actions(name):
    assert_is_legal_agrees_with_legal_actions(_case(name), games=5, seed=3)


def test_chains_are_played_in_the_checks():
    """The comparisons above do reach continuations and end-chains."""
    stops = 0
    for name in ("chain-can", "pieces-per-turn-2", "agree-draw"):
        rs = _case(name)
        stops += play(rs, games=10, seed=5, ref_class=ReferenceState).count(ReferenceState(rs).a_stop)
    assert stops > 0


# -- the seed's rules, position by position ------------------------------------------


def _line(pieces, shapes, size=(5, 1, 1), board_locked=(), **kw):
    rec = {
        "name": "pos",
        "board": {"kind": "squares", "size": list(size), "pieces": pieces, "locked": list(board_locked)},
        "reserves": {"black": {}, "white": {}},
        "move_limit": 20,
        "phases": [{"pass": True}],
        "shapes": shapes,
    }
    rec.update(kw)
    return rules.parse(rec)


def _strings(core):
    return [core.action_string(core.player(), a) for a in core.legal_action_list()]


def test_a_jump_takes_the_adjacent_piece_and_lands_beyond():
    rs = _line(
        [_piece(1, 1, "black", "x"), _piece(2, 1, "white", "circle")],
        {"x": power("jump", "removes", "adjacent"), "circle": {"move": "adjacent"}},
    )
    core = make_core(rs)
    assert _strings(core) == ["(1,1,1)->(3,1,1) over (2,1,1)", "pass"]
    core.apply_action(core.legal_action_list()[0])
    assert core.shapes()[:3] == [None, None, "x"] and core.player() == 1


def test_no_jump_over_own_piece_or_onto_a_piece_or_from_afar():
    rs = _line(
        [
            _piece(1, 1, "black", "x"),
            _piece(2, 1, "black", "circle"),
            _piece(4, 1, "white", "circle"),
            _piece(5, 1, "white", "circle"),
        ],
        {"x": power("jump", "removes", "orthogonal"), "circle": {}},
    )
    core = make_core(rs)
    # the orthogonal line move passes over pieces: (3,1,1) is a plain move (over its own piece), not a jump;
    # (4,1,1) is not free, (5,1,1) neither; nothing is adjacent to jump from (1,1,1) onto an empty space
    assert _strings(core) == ["(1,1,1)->(3,1,1)", "pass"]


def test_a_jumper_never_covers_and_a_by_rank_piece_covering_it_is_captured():
    """ "pieces that capture in ways other than “by rank” have highest rank"."""
    rs = _line(
        [_piece(1, 1, "black", "cross"), _piece(2, 1, "white", "x")],
        {
            "x": power("jump", "reincarnates", "adjacent"),
            "cross": power("cover-by-rank", "removes", "adjacent"),
        },
        size=(3, 1, 1),
    )
    core = make_core(rs)
    assert _strings(core) == ["(1,1,1)->(2,1,1)", "pass"]  # the cover onto the jumper
    core.apply_action(core.legal_action_list()[0])
    assert core.shapes() == [None, "x", None]  # the cross was captured
    assert core.shape_reserves()["white"]["cross"] == 1  # ... and reincarnated by white
    rs = _line(
        [_piece(1, 1, "black", "x"), _piece(2, 1, "white", "circle")],
        {"x": power("jump", "removes", "linear"), "circle": {}},
        size=(2, 1, 1),
    )
    assert _strings(make_core(rs)) == ["pass"]  # the x may not cover the powerless circle


def test_must_capture_forces_the_jump():
    rs = _line(
        [_piece(1, 1, "black", "x"), _piece(2, 1, "white", "circle"), _piece(5, 1, "black", "circle")],
        {"x": power("jump", "removes", "adjacent", MUST), "circle": {"move": "adjacent"}},
    )
    core = make_core(rs)
    assert _strings(core) == ["(1,1,1)->(3,1,1) over (2,1,1)"]  # no circle move, no pass


def test_chain_continuation_is_the_same_piece_or_end_chain():
    rs = _case("chain-can")
    core = make_core(rs)
    jump = [
        a for a, s in zip(core.legal_action_list(), _strings(core)) if s == "(1,1,1)->(3,3,1) over (2,2,1)"
    ]
    assert jump
    core.apply_action(jump[0])
    assert core.player() == 0 and core.pending_chain() == 2 + 5 * 2
    # from (3,3): over (4,4) to (5,5), over (4,2) to (5,1), over (2,4) to (1,5); or stop
    assert _strings(core) == [
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
        [a for a, s in zip(before.legal_action_list(), _strings(before)) if "(5,5,1)" in s][0]
    )
    assert before.player() == 1 and before.pending_chain() is None


def test_must_capture_chain_has_no_end_chain():
    rs = _case("chain-must")
    core = make_core(rs)
    assert _strings(core) == ["(1,1,1)->(3,3,1) over (2,2,1)"]
    core.apply_action(core.legal_action_list()[0])
    assert core.player() == 0
    assert _strings(core) == ["(3,3,1)->(5,5,1) over (4,4,1)", "(3,3,1)->(3,5,1) over (3,4,1)"][
        ::-1
    ] or sorted(_strings(core)) == sorted(["(3,3,1)->(5,5,1) over (4,4,1)", "(3,3,1)->(3,5,1) over (3,4,1)"])
    assert "end-chain" not in _strings(core)
    core.apply_action(core.legal_action_list()[0])
    assert (
        core.player() == 1
        and core.shape_reserves()["black"]["x"] + core.shape_reserves()["black"]["circle"] == 4
    )


def test_openspiel_face_keeps_the_player_through_a_chain(tmp_path):
    import json

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
    rs = _line(
        [_piece(1, 1, "black", "cross"), _piece(2, 1, "white", "star")],
        {"cross": power("jump", "converts", "orthogonal"), "star": {}},
    )
    core = make_core(rs)
    core.apply_action([a for a, s in zip(core.legal_action_list(), _strings(core)) if "over" in s][0])
    assert core.cells()[:3] == [0, 1, 1] and core.shapes()[:3] == [None, "star", "cross"]


def test_forward_jumper_reaching_its_goal_names_a_replacement():
    rs = _line(
        [_piece(1, 2, "black", "triangle"), _piece(1, 3, "white", "circle")],
        {
            "triangle": power("jump", "removes", "forward-orthogonal"),
            "pentagon": {"move": "adjacent"},
            "circle": {},
        },
        size=(1, 4, 1),
        players="2",
    )
    core = make_core(rs)
    assert _strings(core) == ["(1,2,1)->(1,4,1) over (1,3,1) becomes pentagon", "pass"]


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
    assert (
        "'chain-jump' with move 'orth-by-stack' is not defined" in text
    )  # ttt-stackjump: by-stack jumps only


def test_max_game_length_counts_end_chains():
    plain = dict(_case("chain-can").record)
    plain["shapes"] = dict(plain["shapes"], x=power("jump", "removes", "adjacent"))
    plain["name"] = "plain"
    assert make_core(_case("chain-can")).max_game_length == 2 * make_core(rules.parse(plain)).max_game_length
    assert make_core(_case("chain-can")).num_actions == make_core(rules.parse(plain)).num_actions + 1


# -- Hypothesis: random rule sets with jumpers --------------------------------------------
MOVES = [
    "adjacent",
    "adjacent-orthogonal",
    "adjacent-diagonal",
    "orthogonal",
    "diagonal",
    "linear",
    "forward-orthogonal",
    "forward-diagonal",
    "adjacent-alquerque",
    "stationary",
]


@st.composite
def jump_records(draw):
    dims = [draw(st.integers(1, 5)), draw(st.integers(1, 4)), draw(st.sampled_from([1, 1, 1, 2]))]
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    colours = ["black", "white", "pink"][: {"2": 2, "3": 3, "2-vs-chaos": 3}[players]]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    shapes = {}
    for s in names:
        move = draw(st.sampled_from(MOVES))
        shapes[s] = {"move": move}
        how = draw(st.sampled_from(["none", CAN, MUST]))
        if how != "none":
            cond = draw(
                st.sampled_from(
                    ["jump", "chain-jump", "chain-jump", "surround-line", "surround-orthogonal"]
                    if move != "stationary"
                    else ["cover", "surround-line", "surround-orthogonal"]
                )
            )
            shapes[s].update(
                power=how,
                condition=cond,
                result=draw(
                    st.sampled_from(
                        ["removes", "reincarnates", "reincarnates-x2"]
                        + (["converts"] if cond != "cover" else [])
                    )
                ),
            )
    cells = [
        [x, y, z] for x in range(1, dims[0] + 1) for y in range(1, dims[1] + 1) for z in range(1, dims[2] + 1)
    ]
    at = draw(st.lists(st.sampled_from(cells), max_size=5, unique_by=tuple))
    pieces = [
        {
            "at": a,
            "colour": draw(st.sampled_from(colours + ["yellow"])),
            "shape": draw(st.sampled_from(sorted(shapes))),
        }
        for a in at
    ]
    return {
        "name": "HJ",
        "board": {"kind": "squares", "size": dims, "pieces": pieces},
        "players": players,
        "reserves": {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours},
        "shapes": shapes,
        "move_limit": draw(st.integers(1, 30)),
        "pieces_per_turn": draw(st.sampled_from([1, 1, 2])),
        "turn_checks": draw(st.lists(st.sampled_from(["first-3-wins", "first-2-loses"]), max_size=1)),
        "stalemate": draw(st.sampled_from(["draws", "most-pieces-wins"])),
        "phases": draw(st.sampled_from([[{}], [{"pass": True}], [{"movement": "placement-only"}, {}]])),
    }


def _total(core):
    return sum(1 for v in core.cells() if v > 0) + sum(core.reserves().values())


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(jump_records(), st.integers(0, 10**6))
def test_random_jump_rule_sets_match_reference(rec, seed):
    """Move by move the reference's; pieces are conserved except by the stated
    captures: a jump that removes takes one piece off, x2 adds one, the others
    keep the count; an end-chain changes nothing."""
    rs = parsed_or_rejected(rec)
    results = {p.get("result") for p in rs.record["shapes"].values()}
    props = rs.record["shapes"].values()
    # a piece covering a converting jumper on a flat board has no space to
    # stay in and leaves the board (docs/rules/ttt.md, "Jumps")
    removing = (
        "removes" in results
        or any(p.get("condition") == "cover-by-rank" for p in props)
        or ("converts" in results and any(p.get("condition") in (None, "cover-by-rank") for p in props))
    )
    surrounds = any(p.get("condition", "").startswith("surround") for p in props)
    last = {}

    def conserved(core, ref):
        _same_pieces(core, ref)
        total = _total(core)
        if "prev" in last and core.player() != -4:
            delta = total - last["prev"]
            if "reincarnates-x2" not in results:
                assert delta <= 0
            if not removing:
                assert delta >= 0
            if not surrounds:
                assert -2 <= delta <= 1
        last["prev"] = total
        if core.player() == -4:
            last.clear()

    play(rs, games=3, seed=seed, ref_class=ReferenceState, check=conserved)


# -- surrounds, position by position ------------------------------------------------------


def test_surround_line_converts_the_runs_the_arriving_piece_closes():
    """Reversi: black on (1,1) closes (2,2) against (3,3) and (2,1) against (3,1)."""
    rs = _line(
        [
            _piece(2, 2, "white", "circle"),
            _piece(3, 3, "black", "circle"),
            _piece(2, 1, "white", "circle"),
            _piece(3, 1, "black", "circle"),
            _piece(1, 2, "white", "circle"),
        ],
        {"circle": power("surround-line", "converts", "stationary")},
        size=(4, 4, 1),
        reserves={"black": {"circle": 1}, "white": {}},
    )
    core = make_core(rs)
    _place = [a for a, s_ in zip(core.legal_action_list(), _strings(core)) if s_ == "black@(1,1,1) circle"][0]
    core.apply_action(_place)
    cells = core.cells()
    assert cells[0] == 1 and cells[1] == 1 and cells[5] == 1  # (1,1) placed, (2,1) and (2,2) converted
    assert cells[4] == 2  # (1,2): no black piece closes it


def test_surround_orthogonal_takes_a_group_without_liberties():
    """Go: white's two stones on the edge, closed by black stones, the edge
    and a locked space, are removed when black fills the last liberty; a
    group touching an empty space or a third player's piece stays."""
    rs = _line(
        [
            _piece(1, 1, "white", "circle"),
            _piece(2, 1, "white", "circle"),
            _piece(1, 2, "black", "circle"),
            _piece(2, 2, "black", "circle"),
        ],
        {"circle": power("surround-orthogonal", "removes", "stationary")},
        size=(4, 2, 1),
        reserves={"black": {"circle": 1}, "white": {}},
        board_locked=[[4, 1, 1]],
    )
    core = make_core(rs)
    a = [a for a, s_ in zip(core.legal_action_list(), _strings(core)) if s_ == "black@(3,1,1) circle"][0]
    core.apply_action(a)
    assert core.cells()[:3] == [0, 0, 1]
    rs = _line(
        [
            _piece(1, 1, "white", "circle"),
            _piece(2, 1, "white", "circle"),
            _piece(1, 2, "black", "circle"),
            _piece(2, 2, "pink", "circle"),
        ],
        {"circle": power("surround-orthogonal", "removes", "stationary")},
        size=(3, 2, 1),
        players="3",
        reserves={"black": {"circle": 1}, "white": {}, "pink": {}},
    )
    core = make_core(rs)
    a = [a for a, s_ in zip(core.legal_action_list(), _strings(core)) if s_ == "black@(3,1,1) circle"][0]
    core.apply_action(a)
    assert core.cells()[:2] == [2, 2]  # pink's stone is no black piece


def test_validation_refuses_surrounds_on_stacks_in_rounds():
    """Surrounds on stacks (ttt-stackjump) and surrounds in rounds on flat
    boards (ttt-rounds3) are played, and since ttt-chainback the two together
    (tests/test_ttt_chainback.py); a by-stack surrounder stays refused."""
    with pytest.raises(RuleSetError) as e:
        rules.parse(
            {
                "name": "s",
                "board": {"kind": "stacks", "size": [3, 1, 3]},
                "phases": [{"order": "simultaneous"}],
                "reserves": {"black": {"x": 1}, "white": {"x": 1}},
                "shapes": {"x": power("surround-line", "removes", "orth-by-stack")},
            }
        )
    assert "'surround-line' with move 'orth-by-stack' is not defined" in str(e.value)
    for kind, size, phases in (
        ("stacks", [3, 1, 3], [{}]),
        ("squares", [3, 3, 1], [{"order": "simultaneous"}]),
        ("stacks", [3, 1, 3], [{"order": "simultaneous"}]),
    ):
        rules.parse(
            {
                "name": "s",
                "board": {"kind": kind, "size": size},
                "phases": phases,
                "reserves": {"black": {"x": 1}, "white": {"x": 1}},
                "shapes": {"x": power("surround-line", "removes", "stationary")},
            }
        )


def test_validation_refuses_jumps_in_rounds_on_flat_boards_too():
    """ttt-chainback: jumps are played in rounds when every phase is one
    (tests/test_ttt_chainback.py); a mix with sequential phases is refused."""
    with pytest.raises(RuleSetError) as e:
        rules.parse(
            {
                "name": "j",
                "board": {"kind": "squares", "size": [3, 3, 1]},
                "phases": [{"order": "simultaneous", "movement": "allowed"}, {}],
                "reserves": {"black": {"x": 1}, "white": {"x": 1}},
                "shapes": {"x": power("jump", "removes", "adjacent")},
            }
        )
    assert "'jump' is not supported in a rule set that mixes sequential phases" in str(e.value)

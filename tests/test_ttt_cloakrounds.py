"""Shapes and moving shapes inside cloaked simultaneous and single rounds
(issue 12 item 1 in issue 11's cloaked rounds; docs/rules/ttt.md, "Shapes and
moving shapes in cloaked rounds"): small rule sets played by the engine and by
the reference model (tests/ttt_reference/, ``ReferenceState``) move
by move, comparing the player to decide, the seats still to plan, every
planner's legal plans (from its view of the round's start), what every player
sees (colours and shapes), which plans were attempts, and the returns; then
what each player can tell apart (identical information-state and observation
strings, tensors, keys and legal plans for histories it cannot; different ones
for histories it can), that ISMCTS searches alike on histories its player
cannot tell apart, and the OpenSpiel face (random_sim_test with serialisation).
Cells are x + X*(y + Y*z) from 0; on a 3x3 board with shapes circle, triangle a
circle placed on cell c is action c, a triangle 9 + c."""

import json
import random

import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games  # noqa: F401  (registers ttt)
from games.ttt import make_core, rules
from games.ttt.rules import RuleSetError
from games.ttt.schema import SHAPES_ALL
from ttt_checks import logged_attempts, parsed_or_rejected, play_rounds_against_reference, random_sim_test_of
from ttt_reference import ReferenceState

SQ3 = {"kind": "squares", "size": [3, 3, 1]}
ALL9 = [[x, y, 1] for x in (1, 2, 3) for y in (1, 2, 3)]
SIM = {"order": "simultaneous"}


def parse(name, **fields):
    rec = {"name": name, "board": SQ3, "cloaking": "hides"}
    rec.update(fields)
    return rules.parse(rec)


def cases():
    """Each exercises one part: several shapes placed, shapes moving their own
    ways, obscurity, goal replacements, stacks, Chaos, a single phase between
    sequential ones."""
    two = {"circle": 2, "triangle": 1}
    return [
        parse(
            "cr-two-shapes-place",
            reserves={"black": {"circle": 2, "triangle": 2}, "white": {"circle": 2, "triangle": 2}},
            shapes={"circle": {}, "triangle": {}},
            phases=[dict(SIM, cloaked=ALL9)],
        ),
        parse(
            "cr-move-shapes-pass",
            reserves={"black": two, "white": two},
            shapes={"circle": {"move": "adjacent"}, "triangle": {"move": "orthogonal"}},
            move_limit=20,
            phases=[dict(SIM, cloaked=ALL9, **{"pass": True})],
        ),
        parse(
            "cr-obscures-move",
            cloaking="obscures",
            reserves={"black": two, "white": two},
            shapes={"circle": {"move": "adjacent"}, "triangle": {}},
            move_limit=20,
            phases=[dict(SIM, cloaked=ALL9[:6])],
        ),
        parse(
            "cr-replacements",
            board={"kind": "squares", "size": [3, 4, 1]},
            reserves={"black": {"triangle": 2}, "white": {"triangle": 2}},
            shapes={"triangle": {"move": "forward-orthogonal"}, "circle": {"move": "adjacent"}},
            move_limit=24,
            turn_checks=[],
            stalemate="most-pieces-wins",
            phases=[dict(SIM, cloaked=[[x, y, 1] for x in (1, 2, 3) for y in (2, 3)], **{"pass": True})],
        ),
        parse(
            "cr-obscured-replacements",
            cloaking="obscures",
            board={"kind": "squares", "size": [2, 3, 1]},
            reserves={"black": {"triangle": 1, "circle": 1}, "white": {"triangle": 1, "circle": 1}},
            shapes={
                "triangle": {"move": "forward-orthogonal"},
                "circle": {"move": "adjacent"},
                "x": {"move": "orthogonal"},
            },
            move_limit=16,
            turn_checks=[],
            stalemate="most-pieces-wins",
            phases=[dict(SIM, cloaked=[[x, y, 1] for x in (1, 2) for y in (1, 2, 3)], **{"pass": True})],
        ),
        parse(
            "cr-stacks",
            board={"kind": "stacks", "size": [3, 1, 3]},
            reserves={"black": {"circle": 2, "x": 1}, "white": {"circle": 2, "x": 1}},
            shapes={"circle": {"move": "adjacent"}, "x": {}},
            move_limit=20,
            turn_checks=["first-3-wins-no-diagonal"],
            phases=[dict(SIM, cloaked=[[x, 1, z] for x in (1, 2, 3) for z in (1, 2, 3)])],
        ),
        parse(
            "cr-chaos",
            players="2-vs-chaos",
            reserves={
                "black": {"circle": 2, "star": 1},
                "white": {"circle": 2, "star": 1},
                "pink": {"circle": 3},
            },
            shapes={"circle": {"move": "adjacent"}, "star": {}},
            move_limit=18,
            phases=[dict(SIM, cloaked=ALL9[:6])],
        ),
        parse(
            "cr-seq-single-seq",
            reserves={"black": {"circle": 2, "x": 2}, "white": {"circle": 2, "x": 2}},
            shapes={"circle": {"move": "adjacent"}, "x": {"move": "diagonal"}},
            move_limit=18,
            phases=[
                {"cloaked": ALL9[:3], "movement": "placement-only"},
                {"order": "single", "cloaked": ALL9, "pass": True},
                {"cloaked": ALL9[3:]},
            ],
        ),
    ]


CASES = cases()


def play_against_reference(rs, games_, seed):
    """Random games on the engine and ``ReferenceState`` side by side,
    views and (for shaped rule sets) shape views compared at every decision;
    returns the attempts played (so a rule set that never attempts is noticed)."""
    shaped = rs.compile().get("shaped", False)  # (one stationary circle keeps the original path)
    attempts, _ = play_rounds_against_reference(
        rs, games_, seed, views=True, ref_class=ReferenceState, shape_views=shaped
    )
    return attempts


@pytest.mark.parametrize("rs", CASES, ids=lambda rs: rs.name)
def test_engine_matches_reference(rs):
    attempts = play_against_reference(rs, 40, sum(map(ord, rs.name)))
    if rs.record["cloaking"] == "hides":
        assert attempts > 0  # the attempt path was exercised


@pytest.mark.slow
@pytest.mark.parametrize("rs", CASES, ids=lambda rs: rs.name)
def test_engine_matches_reference_long(rs):
    play_against_reference(rs, 400, 7)


@st.composite
def cloaked_round_records(draw, preplaced=False):
    """Shapes (some moving, some not, forward movers with goals) on squares or
    stacks, cloaked spaces in simultaneous or single phases, both cloaking
    types; with ``preplaced`` (cloak-shape-seen) also a stationary shape and
    pieces pre-placed on cloaked spaces, some of colours with nothing in
    reserve."""
    stacks = draw(st.booleans())
    size = [
        draw(st.integers(2, 3)),
        1 if stacks else draw(st.integers(2, 3)),
        draw(st.integers(2, 3)) if stacks else 1,
    ]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    moves = ["stationary", "adjacent", "orthogonal", "diagonal", "knight-2x1x0", "adjacent-orthogonal"]
    if not stacks:
        moves.append("forward-orthogonal")
    shapes = {s: {"move": draw(st.sampled_from(moves))} for s in names}
    if preplaced and not any(p["move"] == "stationary" for p in shapes.values()):
        shapes[draw(st.sampled_from([s for s in SHAPES_ALL if s not in shapes]))] = {"move": "stationary"}
    if any(p["move"] == "forward-orthogonal" for p in shapes.values()):
        shapes.setdefault("circle", {"move": "adjacent"})  # a replacement that moves backwards
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    colours = {
        "2": ["black", "white"],
        "3": ["black", "white", "pink"],
        "2-vs-chaos": ["black", "white", "pink"],
    }[players]
    reserves = {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours}
    for c in colours:
        if not sum(reserves[c].values()):
            reserves[c][sorted(shapes)[0]] = 1
    cells = [
        [x, y, z] for x in range(1, size[0] + 1) for y in range(1, size[1] + 1) for z in range(1, size[2] + 1)
    ]
    phases = []
    for _ in range(draw(st.integers(1, 2))):
        phases.append(
            {
                "order": draw(st.sampled_from(["simultaneous", "single", "sequential"])),
                "pass": draw(st.booleans()),
                "cloaked": draw(st.lists(st.sampled_from(cells), min_size=1, unique_by=tuple)),
            }
        )
    if all(ph["order"] == "sequential" for ph in phases):
        phases[0]["order"] = "simultaneous"
    if any(ph["order"] == "sequential" for ph in phases):
        # (the reference's sequential cloaked turns do not name replacements)
        shapes = {s: p for s, p in shapes.items() if p["move"] != "forward-orthogonal"} or {"circle": {}}
        reserves = {
            c: {s: n for s, n in r.items() if s in shapes} or {sorted(shapes)[0]: 1}
            for c, r in reserves.items()
        }
    # cloak-shape-seen: pieces of any colour and shape pre-placed on cloaked
    # spaces (nobody placed them: only "can move", per shape, or an open space
    # shows them), on the floor of stacks; a colour with pieces on the board
    # may start with an empty reserve
    floor = sorted({tuple(c) for ph in phases for c in ph["cloaked"] if c[2] == 1})
    pieces = []
    if preplaced and floor:
        pieces = draw(
            st.lists(
                st.tuples(st.sampled_from(floor), st.sampled_from(colours), st.sampled_from(sorted(shapes))),
                min_size=1,
                max_size=3,
                unique_by=lambda q: q[0],
            )
        )
    for at, colour, shape in pieces:
        if draw(st.booleans()):
            reserves[colour] = {s: 0 for s in reserves[colour]}
    rec = {
        "name": "cr-random",
        "players": players,
        "cloaking": draw(st.sampled_from(["hides", "obscures"])),
        "board": {
            "kind": "stacks" if stacks else "squares",
            "size": size,
            "pieces": [{"at": list(at), "colour": colour, "shape": shape} for at, colour, shape in pieces],
        },
        "shapes": shapes,
        "reserves": reserves,
        "phases": phases,
        "move_limit": draw(st.integers(4, 14)),
        "turn_checks": draw(st.sampled_from([[], ["first-3-wins"], ["first-2-loses"]])),
        "stalemate": draw(st.sampled_from(["draws", "most-pieces-wins"])),
    }
    return rec


@settings(max_examples=25, deadline=None)
@given(rec=cloaked_round_records(), seed=st.integers(0, 1000))
def test_random_cloaked_shaped_rule_sets_match_reference(rec, seed):
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, 4, seed)


@settings(max_examples=25, deadline=None)
@given(rec=cloaked_round_records(preplaced=True), seed=st.integers(0, 1000))
def test_random_cloaked_shaped_rule_sets_with_preplaced_pieces_match_reference(rec, seed):
    """cloak-shape-seen: a stationary piece of a seat's colour that nobody
    placed, on a cloaked space, is hidden from that seat ("can move" per
    shape), which the colour rule of sequential turns and of each phase's
    start got wrong."""
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, 4, seed)


# -- by hand --------------------------------------------------------------------------

HAND = parse(
    "cr-hand",
    reserves={"black": {"circle": 2, "triangle": 2}, "white": {"circle": 2, "triangle": 2}},
    shapes={"circle": {}, "triangle": {}},
    phases=[dict(SIM, cloaked=ALL9)],
)
OBSCURED = parse(
    "cr-hand-obscured",
    cloaking="obscures",
    reserves={"black": {"circle": 2, "triangle": 2}, "white": {"circle": 2, "triangle": 2}},
    shapes={"circle": {}, "triangle": {}},
    phases=[dict(SIM, cloaked=ALL9[:6])],
)
# black's goal is y = 3 (its triangle moves up and must become a circle or an X there)
REPLACE = parse(
    "cr-hand-replace",
    cloaking="obscures",
    board={"kind": "squares", "size": [2, 3, 1]},
    reserves={"black": {"triangle": 1}, "white": {"circle": 1}},
    shapes={
        "triangle": {"move": "forward-orthogonal"},
        "circle": {"move": "adjacent"},
        "x": {"move": "orthogonal"},
    },
    move_limit=8,
    turn_checks=[],
    stalemate="draws",
    phases=[dict(SIM, cloaked=[[x, y, 1] for x in (1, 2) for y in (1, 2, 3)], **{"pass": True})],
)
CIRCLE, TRIANGLE = 0, 9

VIEWS = (
    "information_state_string",
    "information_state_tensor",
    "observation_string",
    "observation_tensor",
    "info_state_key",
)


def _views(core, player):
    legal = core.player_legal_action_list(player) if player in core.simultaneous_player_list() else None
    return tuple(repr(getattr(core, v)(player)) for v in VIEWS) + (repr(legal),)


def assert_all_differ(a, b):
    for x, y, name in zip(a, b, VIEWS):
        assert x != y, name


def _cores(rs, *joints):
    core = make_core(rs)
    for joint in joints:
        core.apply_joint_action(list(joint))
    return core


def test_a_hidden_placement_shows_neither_its_shape_nor_its_space_to_the_other():
    a = _cores(HAND, [CIRCLE + 0, CIRCLE + 4])
    b = _cores(HAND, [TRIANGLE + 1, CIRCLE + 4])
    assert _views(a, 1) == _views(b, 1)
    assert_all_differ(_views(a, 0), _views(b, 0))
    assert a._sh_letters(1)[0] == "." and a._sh_letters(0)[0] != "."


def test_another_players_pending_shaped_plan_changes_nothing_for_a_player():
    a, b = make_core(HAND), make_core(HAND)
    a.apply_action(CIRCLE + 0)
    b.apply_action(TRIANGLE + 2)  # black's pending plans differ; white plans
    assert a.player() == b.player() == 1
    assert _views(a, 1) == _views(b, 1)
    assert_all_differ(_views(a, 0), _views(b, 0))


def test_a_shaped_plan_onto_a_hidden_piece_is_an_attempt_that_reveals_it():
    core = _cores(HAND, [CIRCLE + 0, TRIANGLE + 4])
    assert core._sh_letters(0)[4] == "."  # white's triangle is hidden from black
    assert TRIANGLE + 4 in core.player_legal_action_list(0)
    before = core.shape_reserves()
    core.apply_joint_action([TRIANGLE + 4, CIRCLE + 8])
    assert logged_attempts(core) == [0]
    assert core._sh_letters(0)[4] != "."  # now black fully sees it
    assert core.player_view(1)[8] != "."  # white's plan resolved as usual
    after = core.shape_reserves()  # the attempt spent no reserve piece; white's placement did
    assert after["black"] == before["black"] and after["white"] != before["white"]


def test_obscurity_shows_the_colour_of_a_placement_not_its_shape():
    a = _cores(OBSCURED, [CIRCLE + 0, CIRCLE + 8])
    b = _cores(OBSCURED, [TRIANGLE + 0, CIRCLE + 8])
    c = _cores(OBSCURED, [CIRCLE + 1, CIRCLE + 8])
    assert _views(a, 1) == _views(b, 1)  # same colour, same space
    assert_all_differ(_views(a, 0), _views(b, 0))
    assert_all_differ(_views(a, 1), _views(c, 1))  # another space
    assert "(shape not seen)" in a.information_state_string(1)
    # on an open space (column 3 is not cloaked) the shape is seen
    d = _cores(OBSCURED, [CIRCLE + 2, CIRCLE + 8])
    e = _cores(OBSCURED, [TRIANGLE + 2, CIRCLE + 8])
    assert_all_differ(_views(d, 1), _views(e, 1))


def test_a_replacement_seen_by_colour_only_drops_the_replacement_shape():
    """Black's triangle reaches its goal row (y = 3) in a round and becomes a
    circle or an X on a space white sees by colour only: white learns the
    move, not the shape; black knows its choice."""
    outs = []
    for rep in ("circle", "x"):
        core = make_core(REPLACE)
        core.apply_joint_action([TRIANGLE_AT(REPLACE, 0, 0), _place(REPLACE, "circle", 1, 0)])
        up = [a for a in core.player_legal_action_list(0) if core.action_string(0, a) == "(1,1,1)->(1,2,1)"]
        core.apply_joint_action([up[0], _pass(core, 1)])
        move = [a for a in core.player_legal_action_list(0) if f"becomes {rep}" in core.action_string(0, a)]
        assert len(move) == 1, [core.action_string(0, a) for a in core.player_legal_action_list(0)]
        core.apply_joint_action([move[0], _pass(core, 1)])
        assert core.last_event() is not None
        assert "(shape not seen)" in core.information_state_string(1)
        assert core._sh_letters(1)[4] == "?" and core._sh_letters(0)[4] == rep[0]
        outs.append(core)
    assert _views(outs[0], 1) == _views(outs[1], 1)
    assert_all_differ(_views(outs[0], 0), _views(outs[1], 0))


def _place(rs, shape, x, y):
    """The placement of ``shape`` on (x+1, y+1) (one colour per seat)."""
    X = rs.record["board"]["size"][0]
    names = [s for s in SHAPES_ALL if s in rs.record["shapes"]]
    return names.index(shape) * X * rs.record["board"]["size"][1] + x + X * y


def TRIANGLE_AT(rs, x, y):
    return _place(rs, "triangle", x, y)


def _pass(core, seat):
    legal = core.player_legal_action_list(seat)
    assert core.action_string(seat, legal[-1]) == "pass"
    return legal[-1]


def _random_nodes(rs, seeds):
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        core = make_core(rs)
        while True:
            out.append(core.clone())
            if core.terminal():
                break
            legal = core.legal_action_list() or [a for a, _ in core.chance_outcome_list()]
            core.apply_action(rng.choice(legal))
    return out


@settings(max_examples=8, deadline=None)
@given(case=st.sampled_from(range(len(CASES))), seeds=st.lists(st.integers(0, 10**6), min_size=4, max_size=8))
def test_views_partition_histories_consistently(case, seeds):
    """Within each player's information sets (core face, one decision per
    call): one tensor, key, observation and set of legal plans; across them,
    different tensors and keys."""
    rs = CASES[case]
    nodes = _random_nodes(rs, seeds)
    for p in range(nodes[0].num_players):
        groups = {}
        for core in nodes:
            legal = (
                tuple(core.player_legal_action_list(p))
                if p in core.simultaneous_player_list() or core.player() == p
                else None
            )
            groups.setdefault(core.information_state_string(p), set()).add(
                (
                    tuple(core.information_state_tensor(p)),
                    core.info_state_key(p),
                    core.observation_string(p),
                    tuple(core.observation_tensor(p)),
                    legal,
                )
            )
        for info, members in groups.items():
            assert len(members) == 1, (rs.name, p, info)
        tensors = [next(iter(m))[0] for m in groups.values()]
        keys = [next(iter(m))[1] for m in groups.values()]
        assert len(set(tensors)) == len(tensors) and len(set(keys)) == len(keys)


def _game(rs, tmp_path):
    path = tmp_path / f"{rs.name}.json"
    path.write_text(json.dumps(rs.to_json()))
    return pyspiel.load_game(f"ttt(rules={path})")


def test_ismcts_searches_alike_where_its_player_cannot_tell_the_histories_apart(tmp_path):
    """mcts/ismcts.py never reads another seat's hidden plan: after black's
    hidden circle on cell 0 or hidden triangle on cell 1, white's search with
    one seed gives the same result, over the same worlds."""
    from mcts.ismcts import ISMCTSBot, consistent_worlds

    game = _game(HAND, tmp_path)
    states = []
    for black in (CIRCLE + 0, TRIANGLE + 1):
        s = game.new_initial_state()
        s.apply_actions([black, CIRCLE + 4])
        states.append(s)
    a, b = states
    assert a.information_state_string(1) == b.information_state_string(1)
    assert a.history() != b.history()
    ra = ISMCTSBot(game, 1, seed=11, max_simulations=60).search(a)
    rb = ISMCTSBot(game, 1, seed=11, max_simulations=60).search(b)
    assert ra == rb
    wa = sorted(w.information_state_string(1) for w, _ in consistent_worlds(a, 1))
    wb = sorted(w.information_state_string(1) for w, _ in consistent_worlds(b, 1))
    assert wa == wb and len(wa) > 1


@pytest.mark.parametrize("rs", CASES, ids=lambda rs: rs.name)
def test_openspiel_face_random_sim_test_with_serialisation(rs, tmp_path):
    game = _game(rs, tmp_path)
    gt = game.get_type()
    assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert gt.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    random_sim_test_of(rs, tmp_path, num_sims=6)
    pyspiel.random_sim_test(pyspiel.convert_to_turn_based(game), num_sims=3, serialize=False, verbose=False)


def test_validation_plays_shapes_and_still_refuses_by_stack_moves_with_cloaked_rounds():
    for rs in CASES:
        assert rs.compile()["simultaneous"]
    rec = CASES[5].to_json()
    rec["shapes"]["circle"] = {"move": "orth-by-stack"}
    with pytest.raises(RuleSetError) as e:
        rules.parse(rec)
    assert "by stack" in str(e.value) and "cloaked spaces in a simultaneous or single phase" in str(e.value)

"""The whole-stack pot showdown of by-stack covers (issue 12 item 6; seed 004:
"For conversion and reincarnation on cover, all players with the highest
rank on the stack split the pot (each captor retains the pieces that make
them highest rank; the remaining pieces are allocated in descending order of
rank round-robin to the captors starting randomly [...])"; docs/rules/ttt.md,
"The pot showdown of by-stack covers").

Worked examples by hand (with the chance outcomes' probabilities), one test
per decision, the engine compared move by move with ``ReferenceState``
(tests/ttt_reference/, whose kept pieces come from a brute-force search over
the brute-force poker evaluator, not from the engine's table), a Hypothesis
property on piece counts, ``pyspiel.random_sim_test`` with serialisation, and
information states that tell the deals apart."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ttt import make_core, poker, rules
from ttt_checks import parsed_or_rejected, play_against_reference, random_sim_test_of, same_pieces
from ttt_reference import ReferenceState, hand_pieces

CAN = "can-capture"
MUST = "must-capture"


def power(cond, result, move="orth-by-stack", how=CAN):
    return {"move": move, "power": how, "condition": cond, "result": result}


def _piece(x, y, z, colour, shape):
    return {"at": [x, y, z], "colour": colour, "shape": shape}


def _rs(name, size, **kw):
    rec = {"name": name, "board": {"kind": "stacks", "size": size}, "move_limit": 30}
    rec.update(kw)
    if "pieces" in rec:
        rec["board"]["pieces"] = rec.pop("pieces")
    return rules.parse(rec)


def _move(core, text):
    for a in core.legal_action_list():
        if core.action_string(core.player(), a) == text:
            core.apply_action(a)
            return
    raise AssertionError((text, [core.action_string(core.player(), a) for a in core.legal_action_list()]))


def _column(core, x, y=1):
    X, Y, Z = core.tab.params["size"]
    shapes, cells = core.shapes(), core.cells()
    names = ["black", "white", "pink", "yellow"]
    out = []
    for z in range(Z):
        c = x - 1 + X * (y - 1 + Y * z)
        if shapes[c]:
            out.append((names[cells[c] - 1], shapes[c]))
    return out


def _deal(rs, move, start):
    """The core after ``move`` and the pot's chance outcome ``start``, and
    the outcomes with their probabilities."""
    core = make_core(rs)
    _move(core, move)
    assert core.player() == -1
    outcomes = core.chance_outcome_list()
    core.apply_action(start)
    return core, outcomes


# -- worked examples by hand ------------------------------------------------------------


def _tie_of_pairs():
    """Black's two stars (the mover at (1,1) height 1 carrying the second)
    move onto white's two stars, a communal yellow x and a white circle (a
    chip: "Circle" has no power). Hands: black pair of stars (with the
    communal x: still a pair; x and star are not adjacent in the chain),
    white pair of stars: a tie, no kickers."""
    pieces = [
        _piece(2, 1, 1, "white", "star"),
        _piece(2, 1, 2, "yellow", "x"),
        _piece(2, 1, 3, "white", "star"),
        _piece(2, 1, 4, "white", "circle"),
        _piece(1, 1, 1, "black", "star"),
        _piece(1, 1, 2, "black", "star"),
    ]
    return _rs(
        "tie",
        [2, 1, 6],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={
            "star": power("cover-by-rank", "converts"),
            "x": power("cover", "removes", "stationary"),
            "circle": {},
        },
    )


def test_two_captors_keep_a_pair_each_and_split_the_rest():
    rs = _tie_of_pairs()
    core = make_core(rs)
    _move(core, "stack(1,1)@1->stack(2,1)")
    # a chance node: two captors (seat order), the pot is the x then the circle (chip last)
    assert core.pending_pot() == {"target": 1, "pieces": 2, "shape": None, "captors": ["black", "white"]}
    assert core.chance_outcome_list() == [(0, 0.5), (1, 0.5)]
    # start with black (1/2): the x goes to black, the circle to white; both convert in place
    core, _ = _deal(rs, "stack(1,1)@1->stack(2,1)", 0)
    assert _column(core, 2) == [
        ("white", "star"),
        ("black", "x"),
        ("white", "star"),
        ("white", "circle"),
        ("black", "star"),
        ("black", "star"),
    ]
    # start with white (1/2): the x goes to white, the circle to black
    core, _ = _deal(rs, "stack(1,1)@1->stack(2,1)", 1)
    assert _column(core, 2) == [
        ("white", "star"),
        ("white", "x"),
        ("white", "star"),
        ("black", "circle"),
        ("black", "star"),
        ("black", "star"),
    ]
    assert core.player() == 1 and core.pending_pot() is None  # the ply ended


def _three_x2():
    """Three players; black's x (reincarnates x2) moves onto white's x, a
    yellow circle, pink's x and a yellow circle: three singleton x (the
    communal circles are chips), so three captors, each keeps its x, and the
    pot of two circles is doubled (every captor doubles): four circles to
    deal, the seed's "one captor gets two and the others each get one"."""
    pieces = [
        _piece(2, 1, 1, "white", "x"),
        _piece(2, 1, 2, "yellow", "circle"),
        _piece(2, 1, 3, "pink", "x"),
        _piece(2, 1, 4, "yellow", "circle"),
        _piece(1, 1, 1, "black", "x"),
    ]
    return _rs(
        "x2",
        [2, 1, 5],
        players="3",
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {"circle": 0}, "white": {"circle": 0}, "pink": {"circle": 0}},
        shapes={"x": power("cover-by-rank", "reincarnates-x2"), "circle": {}},
    )


@pytest.mark.parametrize(
    "start,got",
    [
        (0, {"black": 2, "white": 1, "pink": 1}),
        (1, {"black": 1, "white": 2, "pink": 1}),
        (2, {"black": 1, "white": 1, "pink": 2}),
    ],
)
def test_three_x2_captors_share_a_doubled_pot(start, got):
    core, outcomes = _deal(_three_x2(), "stack(1,1)@1->stack(2,1)", start)
    assert outcomes == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    assert {c: r["circle"] for c, r in core.shape_reserves().items() if c != "yellow"} == got
    # the kept x stay in their order; the circles left and the pieces above fell
    assert _column(core, 2) == [("white", "x"), ("pink", "x"), ("black", "x")]


def test_three_x2_pending_pot_counts_the_doubled_pieces():
    core = make_core(_three_x2())
    _move(core, "stack(1,1)@1->stack(2,1)")
    assert core.pending_pot() == {
        "target": 1,
        "pieces": 4,
        "shape": None,
        "captors": ["black", "white", "pink"],
    }
    assert core.showdown(1) == {"captors": [0, 1, 2], "kept": [0, 2, 4], "pot": [3, 1]}


def test_the_winner_need_not_be_the_mover():
    """Black's triangle (by rank, converts) moves onto white's pair of stars:
    white's pair beats black's singleton triangle; white alone captures (no
    chance node, probability 1): it keeps its stars, and the pot, black's
    triangle, takes white's colour in place (the star's result)."""
    pieces = [
        _piece(2, 1, 1, "white", "star"),
        _piece(2, 1, 2, "white", "star"),
        _piece(1, 1, 1, "black", "triangle"),
    ]
    rs = _rs(
        "loser",
        [2, 1, 4],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={
            "triangle": power("cover-by-rank", "converts"),
            "star": power("cover-by-rank", "converts", "stationary"),
        },
    )
    core = make_core(rs)
    _move(core, "stack(1,1)@1->stack(2,1)")
    assert core.player() == 1
    assert _column(core, 2) == [("white", "star"), ("white", "star"), ("white", "triangle")]
    assert _column(core, 1) == []


# -- one test per decision -----------------------------------------------------------


def test_a_lone_winning_mover_takes_the_carried_pieces_too():
    """Everything above the lock that no captor keeps is the pot, carried
    pieces included: black's x carries a white circle onto a white circle
    and star; black's singleton x loses to white's star, so white keeps the
    star and takes the rest (removes). With the hands reversed black would
    take them: see the next test."""
    pieces = [
        _piece(2, 1, 1, "white", "circle"),
        _piece(2, 1, 2, "white", "star"),
        _piece(1, 1, 1, "black", "x"),
        _piece(1, 1, 2, "white", "circle"),
    ]
    rs = _rs(
        "cv",
        [2, 1, 5],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={
            "x": power("cover", "reincarnates"),
            "circle": {},
            "star": power("cover-by-rank", "removes", "stationary"),
        },
    )
    core = make_core(rs)
    _move(core, "stack(1,1)@1->stack(2,1)")
    assert _column(core, 2) == [("white", "star")]
    assert core.shape_reserves()["white"] == {"circle": 0, "x": 0, "star": 0}


def test_a_lone_winning_mover_reincarnates_every_other_piece():
    pieces = [
        _piece(2, 1, 1, "white", "circle"),
        _piece(2, 1, 2, "white", "x"),
        _piece(1, 1, 1, "black", "star"),
        _piece(1, 1, 2, "white", "circle"),
    ]
    rs = _rs(
        "win",
        [2, 1, 5],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={
            "star": power("cover", "reincarnates"),
            "circle": {},
            "x": power("cover-by-rank", "removes", "stationary"),
        },
    )
    core = make_core(rs)
    _move(core, "stack(1,1)@1->stack(2,1)")
    assert _column(core, 2) == [("black", "star")]
    assert core.shape_reserves()["black"] == {"circle": 2, "x": 1, "star": 0}


def test_surplus_own_pieces_are_in_the_pot():
    """ "each captor retains the pieces that make them highest rank": only
    those. Black's three stars (three of a shape) beat white's singleton star;
    black's cross is not in its hand, so it is dealt with the pot, highest
    rank first (white's star, then the cross), and a converter's own piece
    dealt back to it stays as it is."""
    pieces = [
        _piece(2, 1, 1, "white", "star"),
        _piece(2, 1, 2, "black", "cross"),
        _piece(2, 1, 3, "black", "star"),
        _piece(1, 1, 1, "black", "star"),
        _piece(1, 1, 2, "black", "star"),
    ]
    shapes = {"star": power("cover-by-rank", "converts"), "cross": power("cover-by-rank", "converts")}
    rs = _rs(
        "surplus",
        [2, 1, 6],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes=shapes,
    )
    core = make_core(rs)
    _move(core, "stack(1,1)@1->stack(2,1)")
    # one captor, no chance node; the turn check reads the mover's cell and the pieces above it:
    # black's four pieces from height 2 up make a line, black wins
    assert core.player() == -4 and core.returns_list()[0] > core.returns_list()[1]
    assert _column(core, 2) == [
        ("black", "star"),
        ("black", "cross"),
        ("black", "star"),
        ("black", "star"),
        ("black", "star"),
    ]
    # the same stack standing: black keeps heights 2-4, the pot is white's star then black's cross
    standing = [_piece(2, 1, 1, "white", "star"), _piece(2, 1, 2, "black", "cross")] + [
        _piece(2, 1, z, "black", "star") for z in (3, 4, 5)
    ]
    core = make_core(
        _rs(
            "standing",
            [2, 1, 6],
            pieces=standing,
            reserves={"black": {}, "white": {}},
            shapes=shapes,
            turn_checks=[],
        )
    )
    assert core.showdown(1) == {"captors": [0], "kept": [2, 3, 4], "pot": [0, 1]}


def test_chips_are_dealt_last_and_communal_pieces_are_not_kept():
    """A communal piece counts in every hand but no captor keeps it (it is
    nobody's to retain): it is in the pot, dealt before the chips (the
    powerless shapes, "the lowest possible rank")."""
    standing = [
        _piece(2, 1, 1, "white", "circle"),
        _piece(2, 1, 2, "yellow", "triangle"),
        _piece(2, 1, 3, "white", "x"),
        _piece(2, 1, 4, "black", "x"),
    ]
    core = make_core(
        _rs(
            "chips",
            [2, 1, 5],
            pieces=standing,
            reserves={"black": {}, "white": {}},
            shapes={
                "x": power("cover-by-rank", "converts"),
                "triangle": power("cover", "converts"),
                "circle": {},
            },
        )
    )
    # both hands: x + communal triangle, a 2-straight topped by x: a tie
    assert core.showdown(1) == {"captors": [0, 1], "kept": [2, 3], "pot": [1, 0]}


def test_hand_uses_matches_the_smallest_subset_of_equal_rank():
    """The engine's table of the pieces that make a hand against the reference's
    brute-force search, over every multiset of up to seven pieces."""
    from ttt_reference import multisets

    for counts in multisets(7):
        want = hand_pieces(tuple(counts))
        got = poker.uses(poker.rank(list(counts)))
        assert [got.get(s, 0) for s in poker.SHAPES] == list(want), counts
    assert poker.uses(poker.rank(["circle"] * 6)) == {"circle": 5}


def test_must_capture_counts_a_showdown_the_mover_takes_part_in():
    """A must-capture by-stack mover: a move whose showdown its seat is a
    captor of captures, so its non-captures (and the pass) are illegal."""
    pieces = [
        _piece(2, 1, 1, "white", "x"),
        _piece(1, 1, 1, "black", "star"),
        _piece(3, 1, 1, "white", "star"),
    ]
    rs = _rs(
        "must",
        [3, 1, 4],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={
            "star": power("cover-by-rank", "converts", how=MUST),
            "x": power("cover", "removes", "stationary"),
        },
    )
    core = make_core(rs)
    legal = [core.action_string(0, a) for a in core.legal_action_list()]
    # onto the x: black's star beats white's x (a star singleton over an x singleton); onto
    # white's star: a tie, black is a captor too; so both are captures and nothing else is legal
    assert sorted(legal) == ["stack(1,1)@1->stack(2,1)", "stack(1,1)@1->stack(3,1)"]


def test_a_removing_mover_keeps_the_duel():
    """ "For conversion and reincarnation on cover": a mover whose result
    removes has nothing to allocate, so the covers' duel stands (white's star
    outranks black's singleton x by hand, the x is removed, white's circle
    stays)."""
    pieces = [
        _piece(2, 1, 1, "white", "circle"),
        _piece(2, 1, 2, "white", "star"),
        _piece(1, 1, 1, "black", "x"),
    ]
    rs = _rs(
        "rm",
        [2, 1, 4],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={
            "x": power("cover-by-rank", "removes"),
            "circle": {},
            "star": power("cover-by-rank", "removes", "stationary"),
        },
    )
    core = make_core(rs)
    _move(core, "stack(1,1)@1->stack(2,1)")
    assert _column(core, 2) == [("white", "circle"), ("white", "star")]


def test_information_states_tell_the_deals_apart():
    import json
    import tempfile

    import pyspiel

    rs = _tie_of_pairs()
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(rs.to_json(), f)
    game = pyspiel.load_game(f"ttt(rules={f.name})")
    states = []
    for start in (0, 1):
        state = game.new_initial_state()
        for a in state.legal_actions():
            if state.action_to_string(state.current_player(), a) == "stack(1,1)@1->stack(2,1)":
                state.apply_action(a)
                break
        assert state.is_chance_node()
        state.apply_action(start)
        states.append(state)
    for p in range(2):
        assert states[0].information_state_string(p) != states[1].information_state_string(p)


# -- against the reference model -------------------------------------------------------


def cases():
    out = [_tie_of_pairs(), _three_x2()]
    add = lambda name, size, **kw: out.append(_rs(name, size, **kw))
    add(
        "showdown-converts",
        [3, 1, 5],
        reserves={"black": {"star": 2, "x": 1, "circle": 1}, "white": {"star": 2, "x": 1, "circle": 1}},
        shapes={
            "star": power("cover-by-rank", "converts"),
            "x": power("cover", "reincarnates", "adjacent"),
            "circle": {},
        },
    )
    add(
        "showdown-3p-mixed",
        [2, 2, 5],
        players="3",
        pieces=[_piece(1, 1, 1, "yellow", "triangle")],
        reserves={
            "black": {"x": 2, "triangle": 1},
            "white": {"x": 2, "triangle": 1},
            "pink": {"x": 2, "triangle": 1},
        },
        shapes={
            "x": power("cover-by-rank", "reincarnates", "orth-by-full-stack"),
            "triangle": power("cover", "converts"),
        },
    )
    add(
        "showdown-4p-x2",
        [2, 1, 6],
        players="4",
        reserves={c: {"x": 1, "circle": 1} for c in ("black", "white", "pink", "yellow")},
        shapes={"x": power("cover", "reincarnates-x2"), "circle": {}},
    )
    return out


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_engine_matches_reference(rs):
    same_pieces.start = None
    played = play_against_reference(rs, 40, sum(map(ord, rs.name)), ReferenceState, same_pieces)
    assert played


def test_the_reference_games_reach_showdown_deals():
    """The comparisons above do meet chance nodes of showdowns."""
    import random

    seen = 0
    for rs in cases():
        rng = random.Random(5)
        for _ in range(30):
            core = make_core(rs)
            while core.player() != -4:
                if core.player() == -1 and core.pending_pot() and core.pending_pot()["shape"] is None:
                    seen += 1
                legal = (
                    core.legal_action_list()
                    if core.player() != -1
                    else [a for a, _ in core.chance_outcome_list()]
                )
                core.apply_action(rng.choice(legal))
    assert seen > 10


@pytest.mark.slow
@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_engine_matches_reference_long(rs):
    same_pieces.start = None
    play_against_reference(rs, 400, 11, ReferenceState, same_pieces)


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=8)


# -- Hypothesis --------------------------------------------------------------------------
SHAPES = ["circle", "triangle", "x", "cross", "star", "pentagon"]


@st.composite
def records(draw):
    dims = [draw(st.integers(1, 3)), draw(st.integers(1, 2)), draw(st.integers(2, 5))]
    players = draw(st.sampled_from(["2", "3", "4", "2-vs-chaos"]))
    colours = ["black", "white", "pink", "yellow"][: {"2": 2, "3": 3, "4": 4, "2-vs-chaos": 3}[players]]
    names = draw(st.lists(st.sampled_from(SHAPES), min_size=1, max_size=3, unique=True))
    shapes = {}
    for s in names:
        shapes[s] = {"move": draw(st.sampled_from(["orth-by-stack", "orth-by-full-stack", "stationary"]))}
        if draw(st.booleans()):
            shapes[s].update(
                power=draw(st.sampled_from([CAN, CAN, MUST])),
                condition="cover",
                result=draw(st.sampled_from(["converts", "reincarnates", "reincarnates-x2"])),
            )
    cells = [[x, y, 1] for x in range(1, dims[0] + 1) for y in range(1, dims[1] + 1)]
    at = draw(st.lists(st.sampled_from(cells), max_size=3, unique_by=tuple))
    pieces = [
        {
            "at": a,
            "colour": draw(st.sampled_from(colours + ["yellow"])),
            "shape": draw(st.sampled_from(sorted(shapes))),
        }
        for a in at
    ]
    return {
        "name": "PS",
        "board": {"kind": "stacks", "size": dims, "pieces": pieces},
        "players": players,
        "reserves": {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours},
        "shapes": shapes,
        "move_limit": draw(st.integers(1, 30)),
        "phases": draw(st.sampled_from([[{}], [{"pass": True}]])),
    }


@settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))
@given(records(), st.integers(0, 10**6))
def test_random_showdown_rule_sets_match_reference_and_conserve_pieces(rec, seed):
    """Move by move the reference's; with "cover" powers that convert or
    reincarnate no piece is destroyed (the seed's cover: the attacker wins
    between two highest-class pieces, a powerless piece covering a powered one
    is captured), so board plus reserves never shrink, and they grow only by
    the x2 rule ("double upon capture")."""
    rs = parsed_or_rejected(rec)
    same_pieces.start = None
    x2 = any(p.get("result") == "reincarnates-x2" for p in rs.record["shapes"].values())
    last = {}

    def check(core, ref):
        same_pieces(core, ref)
        if core.pending_pot() is not None:
            return  # a pot's deal pending: its captive is in nobody's hands yet
        total = sum(1 for v in core.cells() if v > 0) + sum(core.reserves().values())
        if "prev" in last:
            assert total >= last["prev"] if x2 else total == last["prev"], (total, last["prev"])
        last["prev"] = total
        if core.player() == -4:
            last.clear()

    play_against_reference(rs, 3, seed, ReferenceState, check)


# -- "noticed last stop": a powerless by-stack mover onto capturing pieces ---------------------


@pytest.mark.parametrize(
    "star,column",
    [
        (power("cover-by-rank", "converts", "stationary"), [("white", "star"), ("white", "x")]),
        (power("cover", "removes", "stationary"), [("white", "star")]),
        (power("cover", "converts"), [("white", "star"), ("white", "x")]),
        ({"move": "stationary"}, [("white", "star"), ("black", "x")]),
    ],
)
def test_a_powerless_by_stack_mover_is_captured_by_covering_a_capturing_piece(star, column):
    """The seed: "Pieces that cannot capture have the lowest rank and cannot
    cover each other (but become captured by covering a higher-ranked piece)".
    Black's x has no power; moved by stack onto white's star it is captured
    when the star can capture (under the star's result), and merely stacks when
    neither can (the last case, Connect Four's stacking). Since ttt-pgshow a
    converting star's capture is a showdown (tests/test_ttt_pgshow.py), whose
    only captor here is white (black's x is a chip, so black is not on the
    stack): the outcome is the duel's."""
    pieces = [_piece(2, 1, 1, "white", "star"), _piece(1, 1, 1, "black", "x")]
    rs = _rs(
        "i4",
        [2, 1, 4],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={"x": {"move": "orth-by-stack"}, "star": star},
    )
    core = make_core(rs)
    _move(core, "stack(1,1)@1->stack(2,1)")
    assert _column(core, 2) == column and core.player() == 1

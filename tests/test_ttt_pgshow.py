"""The pot showdown when the by-stack mover is the one captured (issues 12
item 6 and 13, slip 19: 3P-PublicGoods; branch ttt-pgshow; docs/rules/ttt.md,
"The pot showdown of by-stack covers", "A mover captured by converting or
reincarnating defenders").

The seed: "For conversion and reincarnation on cover, all players with the
highest rank on the stack split the pot". The sentence names the cover's
result, not whose power it is: a by-stack mover that cannot convert or
reincarnate itself (a powerless one, or one that removes) and is taken by
defenders that convert or reincarnate goes to the whole-stack showdown too,
in sequential turns and inside rounds.

Worked examples by hand (the chance outcomes with their probabilities), the
engine move by move against the reference model (tests/ttt_reference/),
Hypothesis properties (the reference's moves, piece conservation) and
``pyspiel.random_sim_test`` with serialisation."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ttt import make_core
from test_ttt_potshow import CAN, MUST, _move, _piece, _rs, power
from ttt_checks import parsed_or_rejected, play_against_reference, random_sim_test_of, same_pieces
from ttt_reference import ReferenceState

CIRCLE = {"move": "orth-by-stack"}  # powerless: a chip, "the lowest possible rank"


def _column(core, x, y=1):
    """Stack (x, y)'s pieces bottom up as (colour name, shape)."""
    X, Y, Z = core.tab.params["size"]
    shapes, cells, names = core.shapes(), core.cells(), core.tab.params["colour_names"]
    return [
        (names[cells[c] - 1], shapes[c]) for c in (x - 1 + X * (y - 1 + Y * z) for z in range(Z)) if shapes[c]
    ]


def _circle_reserves(core):
    return {c: v.get("circle", 0) for c, v in core.shape_reserves().items()}


# -- worked examples by hand ------------------------------------------------------------


def _public_goods():
    """3P-PublicGoods in small, sequential: black's powerless circle onto the
    stack of black's, white's and pink's pentagons, which reincarnate x2.
    Black covers white's and pink's pentagons (not its own) and they beat it;
    the hands: a singleton pentagon each (the circle is a chip): all three
    tie."""
    pieces = [
        _piece(2, 1, 1, "black", "pentagon"),
        _piece(2, 1, 2, "white", "pentagon"),
        _piece(2, 1, 3, "pink", "pentagon"),
        _piece(1, 1, 1, "black", "circle"),
    ]
    return _rs(
        "pg",
        [2, 1, 5],
        players="3",
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}, "pink": {}},
        shapes={"circle": CIRCLE, "pentagon": power("cover", "reincarnates-x2", "stationary")},
    )


@pytest.mark.parametrize("start", [0, 1, 2])
def test_the_contributor_shares_its_contribution(start):
    """All three seats are captors; each keeps its pentagon; the circle,
    doubled ("x2" for every captor), is dealt from a random start (1/3 each):
    the starter and the next seat (seat order) get one circle each. Under the
    duel this replaced, only white and pink (the defenders that beat the
    mover) shared it."""
    core = make_core(_public_goods())
    _move(core, "stack(1,1)@1->stack(2,1)")
    assert core.player() == -1
    assert core.pending_pot() == {
        "target": 1,
        "shape": None,
        "pieces": 2,
        "captors": ["black", "white", "pink"],
    }
    assert core.chance_outcome_list() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    core.apply_action(start)
    names = ["black", "white", "pink"]
    got = {names[start], names[(start + 1) % 3]}
    assert {c: n for c, n in _circle_reserves(core).items() if c in names} == {
        c: int(c in got) for c in names
    }
    assert _column(core, 2) == [("black", "pentagon"), ("white", "pentagon"), ("pink", "pentagon")]
    assert _column(core, 1) == [] and core.player() == 1


def test_a_lone_captor_takes_the_carried_pieces_too():
    """Black's powerless circle carries white's circle onto white's star,
    which reincarnates. Black has no non-chip piece there, so it is not "on
    the stack": white alone shows a hand, keeps its star, and the pot (both
    circles, topmost first) goes to its reserve at once (no chance node). The
    duel would have taken only the mover and left white's circle standing."""
    pieces = [
        _piece(1, 1, 1, "black", "circle"),
        _piece(1, 1, 2, "white", "circle"),
        _piece(2, 1, 1, "white", "star"),
    ]
    rs = _rs(
        "lone",
        [2, 1, 4],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={"circle": CIRCLE, "star": power("cover", "reincarnates", "stationary")},
    )
    core = make_core(rs)
    _move(core, "stack(1,1)@1->stack(2,1)")
    assert core.player() == 1 and core.pending_pot() is None
    assert _column(core, 2) == [("white", "star")]
    assert _circle_reserves(core)["white"] == 2 and _circle_reserves(core)["black"] == 0


@pytest.mark.parametrize("start,colour", [(0, "black"), (1, "white")])
def test_the_movers_seat_ties_and_may_win_its_mover_back(start, colour):
    """Black's powerless circle onto white's star above black's star (both
    "cover by rank", converting): white's star beats the circle, the hands
    tie (a singleton star each), so black and white split the pot, the
    circle; its seat's captor piece is its star (the circle cannot capture),
    so the circle stays black when black starts the deal (1/2) and turns
    white when white does (1/2). It stays in place either way."""
    pieces = [
        _piece(2, 1, 1, "black", "star"),
        _piece(2, 1, 2, "white", "star"),
        _piece(1, 1, 1, "black", "circle"),
    ]
    rs = _rs(
        "tie",
        [2, 1, 4],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={"circle": CIRCLE, "star": power("cover-by-rank", "converts", "stationary")},
    )
    core = make_core(rs)
    _move(core, "stack(1,1)@1->stack(2,1)")
    assert core.chance_outcome_list() == [(0, 0.5), (1, 0.5)]
    assert core.pending_pot()["captors"] == ["black", "white"]
    core.apply_action(start)
    assert _column(core, 2) == [("black", "star"), ("white", "star"), (colour, "circle")]


def test_a_removing_mover_taken_by_a_converting_defender_goes_to_the_showdown():
    """Black's x removes (so by itself it would keep the duel); white's star
    beats it by hand and converts. The cover converts, so the showdown is
    held: white alone has the highest hand, keeps its star, and converts the
    whole pot in place: the x and black's circle under the star (the duel
    would have converted the x only)."""
    pieces = [
        _piece(2, 1, 1, "black", "circle"),
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
            "star": power("cover-by-rank", "converts", "stationary"),
        },
    )
    core = make_core(rs)
    _move(core, "stack(1,1)@1->stack(2,1)")
    assert core.player() == 1
    assert _column(core, 2) == [("white", "circle"), ("white", "star"), ("white", "x")]


def test_nobody_on_the_stack_keeps_the_duel():
    """A communal star (no seat's colour) takes black's powerless circle: no
    seat has a non-chip piece there, nobody shows a hand ("all players with
    the highest rank on the stack": none), so the cover's duel stands: the
    mover goes to yellow's reserve and the white circle it carried falls and
    stays."""
    pieces = [
        _piece(1, 1, 1, "black", "circle"),
        _piece(1, 1, 2, "white", "circle"),
        _piece(2, 1, 1, "yellow", "star"),
    ]
    rs = _rs(
        "communal",
        [2, 1, 4],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={"circle": CIRCLE, "star": power("cover", "reincarnates", "stationary")},
    )
    core = make_core(rs)
    _move(core, "stack(1,1)@1->stack(2,1)")
    assert core.player() == 1 and core.pending_pot() is None
    assert _column(core, 2) == [("yellow", "star"), ("white", "circle")]
    assert _circle_reserves(core).get("yellow") == 1


def test_a_powerless_movers_share_is_a_capture_under_must_capture():
    """ "If a piece “must capture” and at least one opportunity to capture is
    visible, then no non-capture is legal": black's must-capture x can
    capture (onto the stars, or onto white's lone circle), so black's
    non-captures are illegal; the circle's move onto the stars, where black
    ties white and takes a share of the pot, is a capture (its seat
    captures), so it stays legal; the circle's plain move onto the empty
    stack does not."""
    pieces = [
        _piece(2, 1, 1, "black", "circle"),
        _piece(3, 1, 1, "black", "star"),
        _piece(3, 1, 2, "white", "star"),
        _piece(4, 1, 1, "black", "x"),
        _piece(5, 1, 1, "white", "circle"),
    ]
    rs = _rs(
        "must",
        [5, 1, 4],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        turn_checks=[],
        stalemate="most-pieces-wins",
        shapes={
            "circle": CIRCLE,
            "star": power("cover-by-rank", "converts", "stationary"),
            "x": power("cover", "removes", how=MUST),
        },
    )
    core = make_core(rs)
    legal = sorted(core.action_string(0, a) for a in core.legal_action_list())
    assert legal == ["stack(2,1)@1->stack(3,1)", "stack(4,1)@1->stack(3,1)", "stack(4,1)@1->stack(5,1)"]


# -- against the reference models --------------------------------------------------------


def cases():
    """Sequential rule sets where powerless or removing by-stack movers meet
    converting and reincarnating defenders."""
    out = [_public_goods()]
    add = lambda name, size, **kw: out.append(_rs(name, size, **kw))
    add(
        "pg-2p-converts",
        [3, 2, 4],
        pieces=[_piece(2, 1, 1, "white", "star"), _piece(2, 2, 1, "black", "star")],
        reserves={"black": {"circle": 2, "x": 1}, "white": {"circle": 2, "x": 1}},
        shapes={
            "circle": CIRCLE,
            "star": power("cover-by-rank", "converts", "stationary"),
            "x": power("cover-by-rank", "removes", "orth-by-full-stack"),
        },
    )
    add(
        "pg-3p-x2",
        [3, 1, 6],
        players="3",
        pieces=[
            _piece(2, 1, 1, "black", "pentagon"),
            _piece(2, 1, 2, "white", "pentagon"),
            _piece(2, 1, 3, "pink", "pentagon"),
        ],
        reserves={c: {"circle": 2} for c in ("black", "white", "pink")},
        shapes={"circle": CIRCLE, "pentagon": power("cover", "reincarnates-x2", "stationary")},
    )
    add(
        "pg-communal-mixed",
        [2, 2, 5],
        players="2-vs-chaos",
        pieces=[_piece(1, 1, 1, "yellow", "star")],
        reserves={
            "black": {"circle": 2, "triangle": 1},
            "white": {"circle": 2, "triangle": 1},
            "pink": {"circle": 1},
        },
        shapes={
            "circle": CIRCLE,
            "star": power("cover", "reincarnates", "stationary"),
            "triangle": power("cover", "converts", "adjacent"),
        },
    )
    return out


def round_cases():
    """The same inside simultaneous and single rounds."""
    sim = {"order": "simultaneous", "pass": True}
    out = []
    add = lambda name, size, **kw: out.append(_rs(name, size, **kw))
    add(
        "pg-sim-2p",
        [3, 1, 5],
        pieces=[_piece(2, 1, 1, "white", "star"), _piece(2, 1, 2, "black", "star")],
        reserves={"black": {"circle": 2}, "white": {"circle": 2}},
        phases=[sim],
        shapes={"circle": CIRCLE, "star": power("cover-by-rank", "converts", "stationary")},
    )
    add(
        "pg-single-3p",
        [4, 1, 6],
        players="3-vs-chaos",
        pieces=[
            _piece(1, 1, 1, "black", "circle"),
            _piece(2, 1, 1, "white", "circle"),
            _piece(3, 1, 1, "pink", "circle"),
            _piece(3, 1, 2, "pink", "circle"),
            _piece(4, 1, 1, "black", "pentagon"),
            _piece(4, 1, 2, "white", "pentagon"),
            _piece(4, 1, 3, "pink", "pentagon"),
        ],
        reserves={"yellow": {"circle": 2}},
        stalemate="most-pieces-wins",
        move_limit=12,
        shapes={"circle": CIRCLE, "pentagon": power("cover", "reincarnates-x2", "stationary")},
        phases=[
            {"order": "single", "pass": True, "locked_players": ["chaos"]},
            {"pass": True, "locked_players": ["chaos"]},
            {"pass": True, "locked_players": [1, 2, 3]},
        ],
    )
    return out


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_engine_matches_reference(rs):
    same_pieces.start = None
    assert play_against_reference(rs, 40, sum(map(ord, rs.name)), ReferenceState, same_pieces)


@pytest.mark.parametrize("rs", round_cases(), ids=lambda rs: rs.name)
def test_rounds_match_reference(rs):
    same_pieces.start = None
    assert play_against_reference(rs, 40, sum(map(ord, rs.name)), ReferenceState, same_pieces)


def _showdowns_of_captured_movers(rs, games=30, seed=5):
    """How many chance nodes of showdowns random play of ``rs`` meets."""
    rng = random.Random(seed)
    seen = 0
    for _ in range(games):
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
    return seen


def test_the_reference_games_reach_showdowns_of_captured_movers():
    """The comparisons above meet showdowns' chance nodes, sequential and in
    rounds (no mover in these rule sets converts or reincarnates by itself)."""
    assert sum(_showdowns_of_captured_movers(rs) for rs in cases()) > 10
    assert sum(_showdowns_of_captured_movers(rs) for rs in round_cases()) > 5


@pytest.mark.slow
@pytest.mark.parametrize("rs", cases() + round_cases(), ids=lambda rs: rs.name)
def test_engine_matches_reference_long(rs):
    same_pieces.start = None
    ref = ReferenceState if rs.compile()["simultaneous"] else ReferenceState
    play_against_reference(rs, 400, 11, ref, same_pieces)


@pytest.mark.parametrize("rs", cases() + round_cases(), ids=lambda rs: rs.name)
def test_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=8)


# -- Hypothesis --------------------------------------------------------------------------
SHAPES = ["circle", "triangle", "x", "cross", "star", "pentagon"]
TAKES = ["converts", "reincarnates", "reincarnates-x2"]


@st.composite
def records(draw, rounds=False):
    """A powerless by-stack shape, a stationary shape that captures and
    converts or reincarnates, and maybe a third (any move, any power)."""
    dims = [draw(st.integers(1, 3)), draw(st.integers(1, 2)), draw(st.integers(2, 5))]
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    colours = ["black", "white", "pink"][: {"2": 2, "3": 3, "2-vs-chaos": 3}[players]]
    names = draw(st.lists(st.sampled_from(SHAPES), min_size=2, max_size=3, unique=True))
    shapes = {
        names[0]: {"move": draw(st.sampled_from(["orth-by-stack", "orth-by-full-stack"]))},
        names[1]: power(
            draw(st.sampled_from(["cover", "cover-by-rank"])), draw(st.sampled_from(TAKES)), "stationary"
        ),
    }
    if len(names) > 2:
        shapes[names[2]] = {"move": draw(st.sampled_from(["orth-by-stack", "stationary", "adjacent"]))}
        if draw(st.booleans()):
            shapes[names[2]].update(
                power=draw(st.sampled_from([CAN, MUST])),
                condition="cover",
                result=draw(st.sampled_from(TAKES + ["removes"])),
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
    phases = [[{}], [{"pass": True}]]
    if rounds:
        phases = [
            [{"order": "simultaneous", "pass": True}],
            [{"order": "single", "pass": True}, {"pass": True}],
        ]
    return {
        "name": "PG",
        "board": {"kind": "stacks", "size": dims, "pieces": pieces},
        "players": players,
        "reserves": {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours},
        "shapes": shapes,
        "move_limit": draw(st.integers(1, 30)),
        "phases": draw(st.sampled_from(phases)),
    }


def _conserving_check(rs):
    """same_pieces, and (no removing shape) board plus reserves never shrink
    and grow only by the x2 rule; not while a pot's deal is pending (its
    captive is in nobody's hands yet) or a round's plans are lifted."""
    props = rs.record["shapes"].values()
    x2 = any(p.get("result") == "reincarnates-x2" for p in props)
    removes = any(p.get("result") == "removes" for p in props)
    last = {}

    def check(core, ref):
        same_pieces(core, ref)
        if removes or core.pending_pot() is not None:
            return
        total = sum(1 for v in core.cells() if v > 0) + sum(core.reserves().values())
        if "prev" in last:
            assert total >= last["prev"] if x2 else total == last["prev"], (total, last["prev"])
        last["prev"] = total
        if core.player() == -4:
            last.clear()

    return check


@settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))
@given(records(), st.integers(0, 10**6))
def test_random_captured_mover_rule_sets_match_reference_and_conserve_pieces(rec, seed):
    """Move by move the reference's; and where no shape ranks "by rank" (two
    equal ranks destroy each other) or removes, board plus reserves never
    shrink and grow only by the x2 rule: a showdown destroys no piece
    (``_conserving_check``)."""
    rs = parsed_or_rejected(rec)
    same_pieces.start = None
    by_rank = any(p.get("condition") == "cover-by-rank" for p in rs.record["shapes"].values())
    check = same_pieces if by_rank else _conserving_check(rs)
    play_against_reference(rs, 3, seed, ReferenceState, check)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(records(rounds=True), st.integers(0, 10**6))
def test_random_captured_mover_rounds_match_reference(rec, seed):
    """Inside simultaneous and single rounds, move by move the reference's."""
    rs = parsed_or_rejected(rec)
    same_pieces.start = None
    play_against_reference(rs, 3, seed, ReferenceState, same_pieces)

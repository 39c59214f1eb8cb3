"""The whole-stack pot showdown of by-stack covers ("For conversion and
reincarnation on cover, all players with the highest rank on the stack
split the pot (each captor retains the pieces that make them highest rank;
the remaining pieces are allocated in descending order of rank round-robin
to the captors starting randomly [...])"; docs/rules/ttt/pots.md, "The pot
showdown of by-stack covers"): movers that convert or reincarnate, movers
captured by converting or reincarnating defenders ("A mover captured by
converting or reincarnating defenders", 3P-PublicGoods), in sequential
plies and inside simultaneous and single rounds (the showdown dealt after
the joint action).

Worked examples by hand (with the chance outcomes' probabilities), one test
per decision, the engine compared move by move with the reference model
(tests/ttt_reference/, whose kept pieces come from a brute-force search
over the brute-force poker evaluator, not from the engine's table),
Hypothesis properties on piece counts, ``pyspiel.random_sim_test`` with
serialisation, and information states that tell the deals apart."""

import random

import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ttt import make_core, poker
from tiers import sweep
from ttt_checks import (
    CAN,
    MUST,
    parsed_or_rejected,
    piece,
    play_against_reference,
    play_named,
    power,
    random_sim_test_of,
    rule_set,
    same_pieces,
    stack_column,
)
from ttt_records import captured_mover_records, showdown_records
from ttt_reference import hand_pieces, multisets

STACKS = {"board": {"kind": "stacks"}, "move_limit": 30}


def _deal(rs, move, start):
    """The core after ``move`` and the pot's chance outcome ``start``, and
    the outcomes with their probabilities."""
    core = make_core(rs)
    play_named(core, move)
    assert core.player() == -1
    outcomes = core.chance_outcome_list()
    core.apply_action(start)
    return core, outcomes


def _tie_of_pairs():
    """Black's two stars (the mover at (1,1) height 1 carrying the second)
    move onto white's two stars, a communal yellow x and a white circle (a
    chip: "Circle" has no power). Hands: black pair of stars (with the
    communal x: still a pair; x and star are not adjacent in the chain),
    white pair of stars: a tie, no kickers."""
    pieces = [
        piece((2, 1, 1), "white", "star"),
        piece((2, 1, 2), "yellow", "x"),
        piece((2, 1, 3), "white", "star"),
        piece((2, 1, 4), "white", "circle"),
        piece((1, 1, 1), "black", "star"),
        piece((1, 1, 2), "black", "star"),
    ]
    return rule_set(
        "tie",
        STACKS,
        size=[2, 1, 6],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={
            "star": power("cover-by-rank", "converts", "orth-by-stack"),
            "x": power("cover", "removes", "stationary"),
            "circle": {},
        },
    )


def test_two_captors_keep_a_pair_each_and_split_the_rest():
    rs = _tie_of_pairs()
    core = make_core(rs)
    play_named(core, "stack(1,1)@1->stack(2,1)")
    # a chance node: two captors (seat order), the pot is the x then the circle (chip last)
    assert core.pending_pot() == {"target": 1, "pieces": 2, "shape": None, "captors": ["black", "white"]}
    assert core.chance_outcome_list() == [(0, 0.5), (1, 0.5)]
    # start with black (1/2): the x goes to black, the circle to white; both convert in place
    core, _ = _deal(rs, "stack(1,1)@1->stack(2,1)", 0)
    assert stack_column(core, 2) == [
        ("white", "star"),
        ("black", "x"),
        ("white", "star"),
        ("white", "circle"),
        ("black", "star"),
        ("black", "star"),
    ]
    # start with white (1/2): the x goes to white, the circle to black
    core, _ = _deal(rs, "stack(1,1)@1->stack(2,1)", 1)
    assert stack_column(core, 2) == [
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
    deal, the specification's "one captor gets two and the others each get one"."""
    pieces = [
        piece((2, 1, 1), "white", "x"),
        piece((2, 1, 2), "yellow", "circle"),
        piece((2, 1, 3), "pink", "x"),
        piece((2, 1, 4), "yellow", "circle"),
        piece((1, 1, 1), "black", "x"),
    ]
    return rule_set(
        "x2",
        STACKS,
        size=[2, 1, 5],
        players="3",
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {"circle": 0}, "white": {"circle": 0}, "pink": {"circle": 0}},
        shapes={"x": power("cover-by-rank", "reincarnates-x2", "orth-by-stack"), "circle": {}},
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
    assert stack_column(core, 2) == [("white", "x"), ("pink", "x"), ("black", "x")]


def test_three_x2_pending_pot_counts_the_doubled_pieces():
    core = make_core(_three_x2())
    play_named(core, "stack(1,1)@1->stack(2,1)")
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
        piece((2, 1, 1), "white", "star"),
        piece((2, 1, 2), "white", "star"),
        piece((1, 1, 1), "black", "triangle"),
    ]
    rs = rule_set(
        "loser",
        STACKS,
        size=[2, 1, 4],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={
            "triangle": power("cover-by-rank", "converts", "orth-by-stack"),
            "star": power("cover-by-rank", "converts", "stationary"),
        },
    )
    core = make_core(rs)
    play_named(core, "stack(1,1)@1->stack(2,1)")
    assert core.player() == 1
    assert stack_column(core, 2) == [("white", "star"), ("white", "star"), ("white", "triangle")]
    assert stack_column(core, 1) == []


def test_a_lone_winning_mover_takes_the_carried_pieces_too():
    """Everything above the lock that no captor keeps is the pot, carried
    pieces included: black's x carries a white circle onto a white circle
    and star; black's singleton x loses to white's star, so white keeps the
    star and takes the rest (removes). With the hands reversed black would
    take them: see the next test."""
    pieces = [
        piece((2, 1, 1), "white", "circle"),
        piece((2, 1, 2), "white", "star"),
        piece((1, 1, 1), "black", "x"),
        piece((1, 1, 2), "white", "circle"),
    ]
    rs = rule_set(
        "cv",
        STACKS,
        size=[2, 1, 5],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={
            "x": power("cover", "reincarnates", "orth-by-stack"),
            "circle": {},
            "star": power("cover-by-rank", "removes", "stationary"),
        },
    )
    core = make_core(rs)
    play_named(core, "stack(1,1)@1->stack(2,1)")
    assert stack_column(core, 2) == [("white", "star")]
    assert core.shape_reserves()["white"] == {"circle": 0, "x": 0, "star": 0}


def test_a_lone_winning_mover_reincarnates_every_other_piece():
    pieces = [
        piece((2, 1, 1), "white", "circle"),
        piece((2, 1, 2), "white", "x"),
        piece((1, 1, 1), "black", "star"),
        piece((1, 1, 2), "white", "circle"),
    ]
    rs = rule_set(
        "win",
        STACKS,
        size=[2, 1, 5],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={
            "star": power("cover", "reincarnates", "orth-by-stack"),
            "circle": {},
            "x": power("cover-by-rank", "removes", "stationary"),
        },
    )
    core = make_core(rs)
    play_named(core, "stack(1,1)@1->stack(2,1)")
    assert stack_column(core, 2) == [("black", "star")]
    assert core.shape_reserves()["black"] == {"circle": 2, "x": 1, "star": 0}


def test_surplus_own_pieces_are_in_the_pot():
    """ "each captor retains the pieces that make them highest rank": only
    those. Black's three stars (three of a shape) beat white's singleton star;
    black's cross is not in its hand, so it is dealt with the pot, highest
    rank first (white's star, then the cross), and a converter's own piece
    dealt back to it stays as it is."""
    pieces = [
        piece((2, 1, 1), "white", "star"),
        piece((2, 1, 2), "black", "cross"),
        piece((2, 1, 3), "black", "star"),
        piece((1, 1, 1), "black", "star"),
        piece((1, 1, 2), "black", "star"),
    ]
    shapes = {
        "star": power("cover-by-rank", "converts", "orth-by-stack"),
        "cross": power("cover-by-rank", "converts", "orth-by-stack"),
    }
    rs = rule_set(
        "surplus",
        STACKS,
        size=[2, 1, 6],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes=shapes,
    )
    core = make_core(rs)
    play_named(core, "stack(1,1)@1->stack(2,1)")
    # one captor, no chance node; the turn check reads the mover's cell and the pieces above it:
    # black's four pieces from height 2 up make a line, black wins
    assert core.player() == -4 and core.returns_list()[0] > core.returns_list()[1]
    assert stack_column(core, 2) == [
        ("black", "star"),
        ("black", "cross"),
        ("black", "star"),
        ("black", "star"),
        ("black", "star"),
    ]
    # the same stack standing: black keeps heights 2-4, the pot is white's star then black's cross
    standing = [piece((2, 1, 1), "white", "star"), piece((2, 1, 2), "black", "cross")] + [
        piece((2, 1, z), "black", "star") for z in (3, 4, 5)
    ]
    core = make_core(
        rule_set(
            "standing",
            STACKS,
            size=[2, 1, 6],
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
        piece((2, 1, 1), "white", "circle"),
        piece((2, 1, 2), "yellow", "triangle"),
        piece((2, 1, 3), "white", "x"),
        piece((2, 1, 4), "black", "x"),
    ]
    core = make_core(
        rule_set(
            "chips",
            STACKS,
            size=[2, 1, 5],
            pieces=standing,
            reserves={"black": {}, "white": {}},
            shapes={
                "x": power("cover-by-rank", "converts", "orth-by-stack"),
                "triangle": power("cover", "converts", "orth-by-stack"),
                "circle": {},
            },
        )
    )
    # both hands: x + communal triangle, a 2-straight topped by x: a tie
    assert core.showdown(1) == {"captors": [0, 1], "kept": [2, 3], "pot": [1, 0]}


def test_hand_uses_matches_the_smallest_subset_of_equal_rank():
    """The engine's table of the pieces that make a hand against the reference's
    brute-force search, over every multiset of up to seven pieces."""
    for counts in multisets(7):
        want = hand_pieces(tuple(counts))
        got = poker.uses(poker.rank(list(counts)))
        assert [got.get(s, 0) for s in poker.SHAPES] == list(want), counts
    assert poker.uses(poker.rank(["circle"] * 6)) == {"circle": 5}


def test_must_capture_counts_a_showdown_the_mover_takes_part_in():
    """A must-capture by-stack mover: a move whose showdown its seat is a
    captor of captures, so its non-captures (and the pass) are illegal."""
    pieces = [
        piece((2, 1, 1), "white", "x"),
        piece((1, 1, 1), "black", "star"),
        piece((3, 1, 1), "white", "star"),
    ]
    rs = rule_set(
        "must",
        STACKS,
        size=[3, 1, 4],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={
            "star": power("cover-by-rank", "converts", "orth-by-stack", how=MUST),
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
        piece((2, 1, 1), "white", "circle"),
        piece((2, 1, 2), "white", "star"),
        piece((1, 1, 1), "black", "x"),
    ]
    rs = rule_set(
        "rm",
        STACKS,
        size=[2, 1, 4],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={
            "x": power("cover-by-rank", "removes", "orth-by-stack"),
            "circle": {},
            "star": power("cover-by-rank", "removes", "stationary"),
        },
    )
    core = make_core(rs)
    play_named(core, "stack(1,1)@1->stack(2,1)")
    assert stack_column(core, 2) == [("white", "circle"), ("white", "star")]


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


def cases():
    out = [_tie_of_pairs(), _three_x2()]
    add = lambda name, size, **kw: out.append(rule_set(name, STACKS, size=size, **kw))
    add(
        "showdown-converts",
        [3, 1, 5],
        reserves={"black": {"star": 2, "x": 1, "circle": 1}, "white": {"star": 2, "x": 1, "circle": 1}},
        shapes={
            "star": power("cover-by-rank", "converts", "orth-by-stack"),
            "x": power("cover", "reincarnates", "adjacent"),
            "circle": {},
        },
    )
    add(
        "showdown-3p-mixed",
        [2, 2, 5],
        players="3",
        pieces=[piece((1, 1, 1), "yellow", "triangle")],
        reserves={
            "black": {"x": 2, "triangle": 1},
            "white": {"x": 2, "triangle": 1},
            "pink": {"x": 2, "triangle": 1},
        },
        shapes={
            "x": power("cover-by-rank", "reincarnates", "orth-by-full-stack"),
            "triangle": power("cover", "converts", "orth-by-stack"),
        },
    )
    add(
        "showdown-4p-x2",
        [2, 1, 6],
        players="4",
        reserves={c: {"x": 1, "circle": 1} for c in ("black", "white", "pink", "yellow")},
        shapes={"x": power("cover", "reincarnates-x2", "orth-by-stack"), "circle": {}},
    )
    return out


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_showdown_rule_sets_match_reference(rs):
    played = play_against_reference(rs, sweep(full=40, quick=3), sum(map(ord, rs.name)), same_pieces)
    assert played


def test_the_reference_games_reach_showdown_deals():
    """The comparisons above do meet chance nodes of showdowns."""
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
def test_showdown_rule_sets_match_reference_long(rs):
    play_against_reference(rs, 400, 11, same_pieces)


@pytest.mark.parametrize("rs", cases(), ids=lambda rs: rs.name)
def test_random_sim_test_on_showdown_rule_sets(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=8, quick=1))


@settings(max_examples=sweep(full=50, quick=6), deadline=None, suppress_health_check=list(HealthCheck))
@given(showdown_records(), st.integers(0, 10**6))
def test_random_showdown_rule_sets_match_reference_and_conserve_pieces(rec, seed):
    """Move by move the reference's; with "cover" powers that convert or
    reincarnate no piece is destroyed (the specification's cover: the attacker wins
    between two highest-class pieces, a powerless piece covering a powered one
    is captured), so board plus reserves never shrink, and they grow only by
    the x2 and x3 rules ("double upon capture"; the triple)."""
    rs = parsed_or_rejected(rec)
    x2 = any(p.get("result") in ("reincarnates-x2", "reincarnates-x3") for p in rs.record["shapes"].values())
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

    play_against_reference(rs, 3, seed, check)


@pytest.mark.parametrize(
    "star,column",
    [
        (power("cover-by-rank", "converts", "stationary"), [("white", "star"), ("white", "x")]),
        (power("cover", "removes", "stationary"), [("white", "star")]),
        (power("cover", "converts", "orth-by-stack"), [("white", "star"), ("white", "x")]),
        ({"move": "stationary"}, [("white", "star"), ("black", "x")]),
    ],
)
def test_a_powerless_by_stack_mover_is_captured_by_covering_a_capturing_piece(star, column):
    """ "Pieces that cannot capture have the lowest rank and cannot
    cover each other (but become captured by covering a higher-ranked piece)".
    Black's x has no power; moved by stack onto white's star it is captured
    when the star can capture (under the star's result), and merely stacks when
    neither can (the last case, Connect Four's stacking). A converting star's
    capture is a showdown (below), whose only captor here is white (black's x
    is a chip, so black is not on the stack): the outcome is the duel's."""
    pieces = [piece((2, 1, 1), "white", "star"), piece((1, 1, 1), "black", "x")]
    rs = rule_set(
        "i4",
        STACKS,
        size=[2, 1, 4],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={"x": {"move": "orth-by-stack"}, "star": star},
    )
    core = make_core(rs)
    play_named(core, "stack(1,1)@1->stack(2,1)")
    assert stack_column(core, 2) == column and core.player() == 1


CIRCLE = {"move": "orth-by-stack"}  # powerless: a chip, "the lowest possible rank"


def _circle_reserves(core):
    return {c: v.get("circle", 0) for c, v in core.shape_reserves().items()}


def _public_goods():
    """3P-PublicGoods in small, sequential: black's powerless circle onto the
    stack of black's, white's and pink's pentagons, which reincarnate x2.
    Black covers white's and pink's pentagons (not its own) and they beat it;
    the hands: a singleton pentagon each (the circle is a chip): all three
    tie."""
    pieces = [
        piece((2, 1, 1), "black", "pentagon"),
        piece((2, 1, 2), "white", "pentagon"),
        piece((2, 1, 3), "pink", "pentagon"),
        piece((1, 1, 1), "black", "circle"),
    ]
    return rule_set(
        "pg",
        STACKS,
        size=[2, 1, 5],
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
    play_named(core, "stack(1,1)@1->stack(2,1)")
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
    assert stack_column(core, 2) == [("black", "pentagon"), ("white", "pentagon"), ("pink", "pentagon")]
    assert stack_column(core, 1) == [] and core.player() == 1


def test_a_lone_captor_takes_the_carried_pieces_too():
    """Black's powerless circle carries white's circle onto white's star,
    which reincarnates. Black has no non-chip piece there, so it is not "on
    the stack": white alone shows a hand, keeps its star, and the pot (both
    circles, topmost first) goes to its reserve at once (no chance node). The
    duel would have taken only the mover and left white's circle standing."""
    pieces = [
        piece((1, 1, 1), "black", "circle"),
        piece((1, 1, 2), "white", "circle"),
        piece((2, 1, 1), "white", "star"),
    ]
    rs = rule_set(
        "lone",
        STACKS,
        size=[2, 1, 4],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={"circle": CIRCLE, "star": power("cover", "reincarnates", "stationary")},
    )
    core = make_core(rs)
    play_named(core, "stack(1,1)@1->stack(2,1)")
    assert core.player() == 1 and core.pending_pot() is None
    assert stack_column(core, 2) == [("white", "star")]
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
        piece((2, 1, 1), "black", "star"),
        piece((2, 1, 2), "white", "star"),
        piece((1, 1, 1), "black", "circle"),
    ]
    rs = rule_set(
        "tie",
        STACKS,
        size=[2, 1, 4],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={"circle": CIRCLE, "star": power("cover-by-rank", "converts", "stationary")},
    )
    core = make_core(rs)
    play_named(core, "stack(1,1)@1->stack(2,1)")
    assert core.chance_outcome_list() == [(0, 0.5), (1, 0.5)]
    assert core.pending_pot()["captors"] == ["black", "white"]
    core.apply_action(start)
    assert stack_column(core, 2) == [("black", "star"), ("white", "star"), (colour, "circle")]


def test_a_removing_mover_taken_by_a_converting_defender_goes_to_the_showdown():
    """Black's x removes (so by itself it would keep the duel); white's star
    beats it by hand and converts. The cover converts, so the showdown is
    held: white alone has the highest hand, keeps its star, and converts the
    whole pot in place: the x and black's circle under the star (the duel
    would have converted the x only)."""
    pieces = [
        piece((2, 1, 1), "black", "circle"),
        piece((2, 1, 2), "white", "star"),
        piece((1, 1, 1), "black", "x"),
    ]
    rs = rule_set(
        "rm",
        STACKS,
        size=[2, 1, 4],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={
            "x": power("cover-by-rank", "removes", "orth-by-stack"),
            "circle": {},
            "star": power("cover-by-rank", "converts", "stationary"),
        },
    )
    core = make_core(rs)
    play_named(core, "stack(1,1)@1->stack(2,1)")
    assert core.player() == 1
    assert stack_column(core, 2) == [("white", "circle"), ("white", "star"), ("white", "x")]


def test_nobody_on_the_stack_keeps_the_duel():
    """A communal star (no seat's colour) takes black's powerless circle: no
    seat has a non-chip piece there, nobody shows a hand ("all players with
    the highest rank on the stack": none), so the cover's duel stands: the
    mover goes to yellow's reserve and the white circle it carried falls and
    stays."""
    pieces = [
        piece((1, 1, 1), "black", "circle"),
        piece((1, 1, 2), "white", "circle"),
        piece((2, 1, 1), "yellow", "star"),
    ]
    rs = rule_set(
        "communal",
        STACKS,
        size=[2, 1, 4],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        shapes={"circle": CIRCLE, "star": power("cover", "reincarnates", "stationary")},
    )
    core = make_core(rs)
    play_named(core, "stack(1,1)@1->stack(2,1)")
    assert core.player() == 1 and core.pending_pot() is None
    assert stack_column(core, 2) == [("yellow", "star"), ("white", "circle")]
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
        piece((2, 1, 1), "black", "circle"),
        piece((3, 1, 1), "black", "star"),
        piece((3, 1, 2), "white", "star"),
        piece((4, 1, 1), "black", "x"),
        piece((5, 1, 1), "white", "circle"),
    ]
    rs = rule_set(
        "must",
        STACKS,
        size=[5, 1, 4],
        pieces=pieces,
        phases=[{"pass": True}],
        reserves={"black": {}, "white": {}},
        turn_checks=[],
        stalemate="most-pieces-wins",
        shapes={
            "circle": CIRCLE,
            "star": power("cover-by-rank", "converts", "stationary"),
            "x": power("cover", "removes", "orth-by-stack", how=MUST),
        },
    )
    core = make_core(rs)
    legal = sorted(core.action_string(0, a) for a in core.legal_action_list())
    assert legal == ["stack(2,1)@1->stack(3,1)", "stack(4,1)@1->stack(3,1)", "stack(4,1)@1->stack(5,1)"]


def captured_mover_cases():
    """Sequential rule sets where powerless or removing by-stack movers meet
    converting and reincarnating defenders."""
    out = [_public_goods()]
    add = lambda name, size, **kw: out.append(rule_set(name, STACKS, size=size, **kw))
    add(
        "pg-2p-converts",
        [3, 2, 4],
        pieces=[piece((2, 1, 1), "white", "star"), piece((2, 2, 1), "black", "star")],
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
            piece((2, 1, 1), "black", "pentagon"),
            piece((2, 1, 2), "white", "pentagon"),
            piece((2, 1, 3), "pink", "pentagon"),
        ],
        reserves={c: {"circle": 2} for c in ("black", "white", "pink")},
        shapes={"circle": CIRCLE, "pentagon": power("cover", "reincarnates-x2", "stationary")},
    )
    add(
        "pg-communal-mixed",
        [2, 2, 5],
        players="2-vs-chaos",
        pieces=[piece((1, 1, 1), "yellow", "star")],
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


def captured_mover_round_cases():
    """The same inside simultaneous and single rounds."""
    sim = {"order": "simultaneous", "pass": True}
    out = []
    add = lambda name, size, **kw: out.append(rule_set(name, STACKS, size=size, **kw))
    add(
        "pg-sim-2p",
        [3, 1, 5],
        pieces=[piece((2, 1, 1), "white", "star"), piece((2, 1, 2), "black", "star")],
        reserves={"black": {"circle": 2}, "white": {"circle": 2}},
        phases=[sim],
        shapes={"circle": CIRCLE, "star": power("cover-by-rank", "converts", "stationary")},
    )
    add(
        "pg-single-3p",
        [4, 1, 6],
        players="3-vs-chaos",
        pieces=[
            piece((1, 1, 1), "black", "circle"),
            piece((2, 1, 1), "white", "circle"),
            piece((3, 1, 1), "pink", "circle"),
            piece((3, 1, 2), "pink", "circle"),
            piece((4, 1, 1), "black", "pentagon"),
            piece((4, 1, 2), "white", "pentagon"),
            piece((4, 1, 3), "pink", "pentagon"),
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


@pytest.mark.parametrize("rs", captured_mover_cases(), ids=lambda rs: rs.name)
def test_captured_mover_rule_sets_match_reference(rs):
    assert play_against_reference(rs, sweep(full=40, quick=3), sum(map(ord, rs.name)), same_pieces)


@pytest.mark.parametrize("rs", captured_mover_round_cases(), ids=lambda rs: rs.name)
def test_captured_movers_in_rounds_match_reference(rs):
    assert play_against_reference(rs, sweep(full=40, quick=3), sum(map(ord, rs.name)), same_pieces)


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
    assert sum(_showdowns_of_captured_movers(rs) for rs in captured_mover_cases()) > 10
    assert sum(_showdowns_of_captured_movers(rs) for rs in captured_mover_round_cases()) > 5


@pytest.mark.slow
@pytest.mark.parametrize("rs", captured_mover_cases() + captured_mover_round_cases(), ids=lambda rs: rs.name)
def test_captured_mover_rule_sets_match_reference_long(rs):
    play_against_reference(rs, 400, 11, same_pieces)


@pytest.mark.parametrize("rs", captured_mover_cases() + captured_mover_round_cases(), ids=lambda rs: rs.name)
def test_random_sim_test_on_captured_mover_rule_sets(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=8, quick=1))


def _conserving_check(rs):
    """same_pieces, and (no removing shape) board plus reserves never shrink
    and grow only by the x2 and x3 rules; not while a pot's deal is pending (its
    captive is in nobody's hands yet) or a round's plans are lifted."""
    props = rs.record["shapes"].values()
    x2 = any(p.get("result") in ("reincarnates-x2", "reincarnates-x3") for p in props)
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


@settings(max_examples=sweep(full=50, quick=6), deadline=None, suppress_health_check=list(HealthCheck))
@given(captured_mover_records(), st.integers(0, 10**6))
def test_random_captured_mover_rule_sets_match_reference_and_conserve_pieces(rec, seed):
    """Move by move the reference's; and where no shape ranks "by rank" (two
    equal ranks destroy each other) or removes, board plus reserves never
    shrink and grow only by the x2 rule: a showdown destroys no piece
    (``_conserving_check``)."""
    rs = parsed_or_rejected(rec)
    by_rank = any(p.get("condition") == "cover-by-rank" for p in rs.record["shapes"].values())
    check = same_pieces if by_rank else _conserving_check(rs)
    play_against_reference(rs, 3, seed, check)


@settings(max_examples=sweep(full=40, quick=5), deadline=None, suppress_health_check=list(HealthCheck))
@given(captured_mover_records(rounds=True), st.integers(0, 10**6))
def test_random_captured_mover_rounds_match_reference(rec, seed):
    """Inside simultaneous and single rounds, move by move the reference's."""
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, 3, seed, same_pieces)


# -- showdowns inside rounds ---------------------------------------------------------------------

SIM = {"order": "simultaneous", "pass": True}
ROUND_STACKS = {"board": {"kind": "stacks"}, "move_limit": 8, "turn_checks": []}


def _round_tie_of_pairs(phases):
    """The tie of pairs above, in rounds: black's two stars (the
    mover at height 1 carrying the second) onto white's two stars, a
    communal yellow x and a white circle (a chip). Black and white each hold
    a pair of stars: two captors, each keeps its pair; the pot is the x, then
    the circle. Stack 3 holds a white star white can move by stack."""
    pieces = [
        piece((2, 1, 1), "white", "star"),
        piece((2, 1, 2), "yellow", "x"),
        piece((2, 1, 3), "white", "star"),
        piece((2, 1, 4), "white", "circle"),
        piece((1, 1, 1), "black", "star"),
        piece((1, 1, 2), "black", "star"),
        piece((3, 1, 1), "white", "star"),
    ]
    return rule_set(
        "tie-rounds",
        ROUND_STACKS,
        size=[3, 1, 8],
        pieces=pieces,
        phases=phases,
        reserves={"black": {}, "white": {}},
        shapes={
            "star": power("cover-by-rank", "converts", "orth-by-stack"),
            "x": power("cover", "removes", "stationary"),
            "circle": {},
        },
    )


def _round_three_x2():
    """_three_x2's three reincarnating-x2 singletons, in a single
    phase then rounds: black's x onto white's x, a yellow circle, pink's x
    and a yellow circle; three captors, each keeps its x; the pot of two
    circles is doubled (four deals)."""
    pieces = [
        piece((2, 1, 1), "white", "x"),
        piece((2, 1, 2), "yellow", "circle"),
        piece((2, 1, 3), "pink", "x"),
        piece((2, 1, 4), "yellow", "circle"),
        piece((1, 1, 1), "black", "x"),
    ]
    return rule_set(
        "x2-rounds",
        ROUND_STACKS,
        size=[2, 1, 6],
        pieces=pieces,
        players="3",
        phases=[{"order": "single", "pass": True}, SIM],
        reserves={"black": {"circle": 0}, "white": {"circle": 0}, "pink": {"circle": 0}},
        shapes={"x": power("cover-by-rank", "reincarnates-x2", "orth-by-stack"), "circle": {}},
    )


def _collision():
    """Black's and white's x move by stack onto stack 2 (a black star and a
    pink x) in one round: a collision. Hands in the stack with both movers:
    black a singleton star, white a singleton x (the pink x is pink's):
    black's x wins, takes white's x first (converted, on top, in black), then
    the showdown over the stack: black's star outranks white's nothing and
    pink's x: black alone is the captor."""
    pieces = [
        piece((1, 1, 1), "black", "x"),
        piece((3, 1, 1), "white", "x"),
        piece((2, 1, 1), "black", "star"),
        piece((2, 1, 2), "pink", "x"),
    ]
    return rule_set(
        "collide-rounds",
        ROUND_STACKS,
        size=[3, 1, 6],
        pieces=pieces,
        players="3",
        phases=[SIM],
        reserves={"black": {}, "white": {}, "pink": {}},
        shapes={
            "x": power("cover-by-rank", "converts", "orth-by-stack"),
            "star": {"move": "stationary", "power": CAN, "condition": "cover-by-rank", "result": "removes"},
        },
    )


def round_showdown_cases():
    return [
        _round_tie_of_pairs([SIM]),
        _round_tie_of_pairs([{"order": "single", "pass": True}, SIM, {"pass": True}]),
        _round_three_x2(),
        _collision(),
    ]


@pytest.mark.parametrize("start", [0, 1])
def test_a_showdown_in_a_round_is_dealt_after_the_joint_action(start):
    core = make_core(_round_tie_of_pairs([SIM]))
    play_named(core, player=0, text="stack(1,1)@1->stack(2,1)")
    play_named(core, player=1, text="pass")
    assert core.player() == -1  # the round's pot: one chance node
    assert core.pending_pot() == {"target": 1, "pieces": 2, "shape": None, "captors": ["black", "white"]}
    assert core.chance_outcome_list() == [(0, 0.5), (1, 0.5)]
    core.apply_action(start)
    x, circle = ("black", "white") if start == 0 else ("white", "black")
    assert stack_column(core, 2) == [
        ("white", "star"),
        (x, "x"),
        ("white", "star"),
        (circle, "circle"),
        ("black", "star"),
        ("black", "star"),
    ]
    assert core.pending_pot() is None
    assert core.player() == 0 and core.pending_plans() == {}  # the round ended: the next round's plans
    play_named(core, player=0, text="pass")
    assert core.player() == 1 and core.pending_plans() == {0: "pass"}


def test_single_phase_showdown_of_three_x2_captors():
    core = make_core(_round_three_x2())
    play_named(core, player=0, text="stack(1,1)@1->stack(2,1)")
    play_named(core, player=1, text="pass")
    play_named(core, player=2, text="pass")
    assert core.player() == -1
    assert core.chance_outcome_list() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    core.apply_action(1)  # white starts: white two circles, pink one, black one
    res = core.shape_reserves()
    assert (res["black"]["circle"], res["white"]["circle"], res["pink"]["circle"]) == (1, 2, 1)
    assert stack_column(core, 2) == [("white", "x"), ("pink", "x"), ("black", "x")]
    assert core.current_phase() == 1 and core.player() == 0  # the single phase ended: the next phase's round


def test_collision_winner_takes_its_captive_before_the_showdown():
    core = make_core(_collision())
    play_named(core, player=0, text="stack(1,1)@1->stack(2,1)")
    play_named(core, player=1, text="stack(3,1)@1->stack(2,1)")
    play_named(core, player=2, text="pass")
    assert core.player() == 0 and core.pending_plans() == {}  # one captor: no chance node; the next round
    # black keeps its star (its hand), the pink x and both x's go to black converting in place
    assert stack_column(core, 2) == [("black", "star"), ("black", "x"), ("black", "x"), ("black", "x")]


@pytest.mark.parametrize(
    "rs", round_showdown_cases(), ids=lambda rs: f"{rs.name}-{len(rs.compile()['phases'])}"
)
def test_showdowns_in_rounds_match_reference(rs):
    play_against_reference(rs, games=sweep(full=60, quick=5), seed=sum(map(ord, rs.name)), check=same_pieces)


@pytest.mark.parametrize(
    "rs", round_showdown_cases(), ids=lambda rs: f"{rs.name}-{len(rs.compile()['phases'])}"
)
def test_random_sim_test_on_showdowns_in_rounds(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=8, quick=1))
    path = tmp_path / f"{rs.name}.json"
    game = pyspiel.load_game(f"ttt(rules={path})")
    pyspiel.random_sim_test(
        pyspiel.convert_to_turn_based(game), num_sims=sweep(full=4, quick=1), serialize=False, verbose=False
    )

"""Attempts that reveal what is in the way (docs/rules/ttt/cloaking.md, "Line
moves blocked by hidden pieces"): "If what makes a move illegal is a wall or
piece that is invisible to the player, then the player can attempt the move,
but the result will be only to make the invisible piece or wall visible to
the player". With ``line_moves`` "blocked-by-pieces" (the default) a line
move over a piece its mover does not see is offered (the piece looks like an
empty space) and, judged on the true position, is an attempt that reveals
every piece in its way to the mover only.

Tested against the reference model (tests/ttt_reference/) move by move, with
OpenSpiel's random_sim_test, and on histories a player cannot, or can, tell
apart. Cells are x + X*(y + Y*z) from 0; with the shapes circle (k=0) and x
(k=1) placements are k*T + t and moves move0 + f*T + u."""

import random
import re

import pytest

import games  # noqa: F401  (registers ttt)
from games.openspiel import core_of
from games.ttt import make_core
from tiers import sweep
from ttt_checks import (
    assert_info_differs,
    assert_is_legal_agrees_with_legal_actions,
    assert_views_partition_histories,
    cells,
    count_attempts,
    play_against_reference,
    random_sim_test_of,
    views,
)
from ttt_checks import cloaked_rule_set as _rs
from ttt_checks import state_after as state

BLOCKED = {"line_moves": "blocked-by-pieces"}
ROOK = {"move": "orthogonal"}
SLIDING_COVER = {"move": "linear", "power": "can-capture", "condition": "cover", "result": "removes"}


def cases():
    """Small cloaked rule sets whose line moves are blocked by pieces."""
    out = []
    add = lambda name, **kw: out.append(_rs(name, **BLOCKED, **kw))
    # a row, all cloaked: black's rook slides past white's stationary circles
    add(
        "row-rook",
        board={"kind": "squares", "size": [4, 1, 1]},
        reserves={"black": {"x": 1}, "white": {"circle": 2}},
        shapes={"x": ROOK, "circle": {}},
        move_limit=12,
        phases=[{"cloaked": cells(4, 1), "pass": True}],
    )
    # both sides slide and cover, the middle row open
    add(
        "squares-covers",
        board={"kind": "squares", "size": [4, 3, 1]},
        reserves={"black": {"x": 1, "circle": 2}, "white": {"pentagon": 1, "circle": 2}},
        shapes={"x": SLIDING_COVER, "pentagon": dict(SLIDING_COVER, move="diagonal"), "circle": {}},
        move_limit=16,
        phases=[{"cloaked": [c for c in cells(4, 3) if c[1] != 2], "pass": True}],
    )
    # stacks: a stack holding a piece is in the way, revealed whole
    add(
        "stacks-rooks",
        board={"kind": "stacks", "size": [4, 1, 2]},
        reserves={"black": {"x": 1, "circle": 2}, "white": {"x": 1, "circle": 2}},
        shapes={"x": ROOK, "circle": {}},
        move_limit=14,
        phases=[{"cloaked": [[x, 1, z] for x in range(1, 5) for z in (1, 2)], "pass": True}],
    )
    # a placement phase, then a simultaneous phase of slides judged on the round's start
    add(
        "rounds-rooks",
        board={"kind": "squares", "size": [4, 2, 1]},
        reserves={"black": {"x": 1, "circle": 1}, "white": {"x": 1, "circle": 1}},
        shapes={"x": ROOK, "circle": {}},
        move_limit=14,
        phases=[
            {"cloaked": cells(4, 2), "pass": True, "movement": "placement-only"},
            {"cloaked": cells(4, 2), "pass": True, "order": "simultaneous"},
        ],
    )
    # obscurity: every colour is seen, so nothing is tried
    add(
        "obscured-rooks",
        board={"kind": "squares", "size": [4, 1, 1]},
        reserves={"black": {"x": 1}, "white": {"circle": 2}},
        shapes={"x": ROOK, "circle": {}},
        move_limit=12,
        cloaking="obscures",
        phases=[{"cloaked": cells(4, 1), "pass": True}],
    )
    return out


CASES = cases()
ROW = CASES[0]
T, MOVE0, PASS = 4, 8, 24  # row-rook: circle k=0, x k=1; moves 8 + f*4 + u, then the pass


def line_attempts(rs, count, seed):
    """How many attempts of random games of ``rs`` were line moves with a piece
    in their way (on the true board before the move)."""
    X, Y, _ = rs.record["board"]["size"]

    def blocked(core, before):
        ends = re.findall(r"\((\d+),(\d+)(?:,\d+)?\)", before.text)
        if "->" not in before.text or len(ends) != 2:
            return False
        (fx, fy), (ux, uy) = ((int(x), int(y)) for x, y in ends)
        dx, dy = ux - fx, uy - fy
        k = max(abs(dx), abs(dy))
        if k < 2 or dx not in (-k, 0, k) or dy not in (-k, 0, k):
            return False
        way = [(fx - 1 + i * dx // k) + X * (fy - 1 + i * dy // k) for i in range(1, k)]
        return any(before.cells[t + X * Y * z] for t in way for z in range(len(before.cells) // (X * Y)))

    return count_attempts(rs, count, seed, blocked)


@pytest.mark.parametrize("rs", CASES, ids=lambda r: r.name)
def test_blocked_line_moves_with_cloaked_spaces_match_reference(rs):
    play_against_reference(rs, sweep(full=40, quick=6), seed=3, shape_views=True)


@pytest.mark.slow
@pytest.mark.parametrize("rs", CASES, ids=lambda r: r.name)
def test_blocked_line_moves_with_cloaked_spaces_match_reference_long(rs):
    play_against_reference(rs, 300, seed=11, shape_views=True)


def test_the_cases_reach_line_moves_stopped_by_hidden_pieces():
    """The random games do reach what they are for (every tier): a slide
    over a hidden piece, on flat boards and on stacks; never under obscurity."""
    by_name = {rs.name: rs for rs in CASES}
    for name in ("row-rook", "squares-covers", "stacks-rooks"):
        assert line_attempts(by_name[name], 30, seed=5) > 0, name
    assert line_attempts(by_name["obscured-rooks"], 30, seed=5) == 0


@pytest.mark.parametrize("rs", CASES, ids=lambda r: r.name)
def test_random_sim_test_on_blocked_line_moves(rs, tmp_path):
    random_sim_test_of(rs, tmp_path)


@pytest.mark.parametrize("rs", CASES, ids=lambda r: r.name)
def test_is_legal_agrees_with_legal_actions_on_blocked_line_moves(rs):
    assert_is_legal_agrees_with_legal_actions(rs, games=sweep(full=10, quick=2), seed=5)


@pytest.mark.parametrize("rs", [r for r in CASES if r.name != "rounds-rooks"], ids=lambda r: r.name)
def test_views_partition_histories_with_blocked_line_moves(rs):
    assert_views_partition_histories(rs, range(sweep(full=30, quick=4)))


def test_views_partition_histories_of_blocked_line_moves_in_rounds():
    rs = next(r for r in CASES if r.name == "rounds-rooks")
    assert_views_partition_histories(rs, range(sweep(full=30, quick=4)), face="core")


# -- by hand ---------------------------------------------------------------------


def test_a_slide_over_a_hidden_piece_is_an_attempt_that_reveals_it_to_the_mover_only():
    # black's rook on (1,1); white's circle on (2,1) or (3,1): black sees neither and
    # may slide to (4,1) in both; the slide is an attempt that shows black the circle
    # in its way, and leaves the other spaces as they looked
    near, far = state(ROW, T + 0, 1), state(ROW, T + 0, 2)
    assert views(near, 0) == views(far, 0)
    assert near.legal_actions() == far.legal_actions()
    assert MOVE0 + 0 * T + 3 in near.legal_actions()
    near.apply_action(MOVE0 + 3)
    far.apply_action(MOVE0 + 3)
    for s, at in ((near, 1), (far, 2)):
        core = core_of(s)
        assert core.last_event()["attempt"] and core.cells() == [1] + [2 if t == at else 0 for t in (1, 2, 3)]
        view = core.player_view(0)
        assert view[at] == "o" and view.count("o") == 1
    assert_info_differs(views(near, 0), views(far, 0))
    assert "attempted" in near.information_state_string(1)


def test_the_other_player_reads_only_that_an_attempt_was_made():
    # white's circle on (2,1): black's slides to (3,1) and to (4,1) are both stopped
    # by it; white, which sees neither black's rook nor where it tried, cannot tell them apart
    short, long = state(ROW, T + 0, 1, MOVE0 + 2), state(ROW, T + 0, 1, MOVE0 + 3)
    assert core_of(short).last_event()["attempt"] and core_of(long).last_event()["attempt"]
    assert views(short, 1) == views(long, 1)
    assert short.legal_actions() == long.legal_actions()
    assert views(short, 0) != views(long, 0)  # black knows what it tried


def test_a_clear_slide_is_played_and_reveals_nothing():
    # white's circle on (4,1) beyond the target: the slide to (3,1) is a real move
    s = state(ROW, T + 0, 3, MOVE0 + 2)
    core = core_of(s)
    assert not core.last_event()["attempt"] and core.cells() == [0, 0, 1, 2]
    assert core.player_view(0)[3] == "."


def test_a_piece_nobody_placed_revealed_in_the_way_shows_only_to_the_mover():
    # a pre-placed white circle on (3,1) that white cannot move (stationary) and did
    # not place: hidden from both; black's slide over it reveals it to black alone
    rs = _rs(
        "row-preplaced",
        **BLOCKED,
        board={"kind": "squares", "size": [4, 1, 1], "pieces": [{"at": [3, 1, 1], "colour": "white"}]},
        reserves={"black": {"x": 1}, "white": {"circle": 1}},
        shapes={"x": ROOK, "circle": {}},
        move_limit=12,
        phases=[{"cloaked": cells(4, 1), "pass": True}],
    )
    s = state(rs, T + 0, PASS, MOVE0 + 3)
    core = core_of(s)
    assert core.last_event()["attempt"]
    assert core.player_view(0)[2] == "o" and core.player_view(1)[2] == "."
    play_against_reference(rs, sweep(full=20, quick=4), seed=2)


# -- chain jumps with cloaked spaces ---------------------------------------------

CHAIN = {"power": "can-capture", "condition": "chain-jump", "result": "removes"}


def chain_cases():
    """Small cloaked rule sets with chain jumps (docs/rules/ttt/cloaking.md, "Chain
    jumps with cloaked spaces")."""
    out = []
    add = lambda name, **kw: out.append(_rs(name, **kw))
    # a row, all cloaked: black's chain-jumping pentagon hunts white's circles
    add(
        "chain-row",
        board={"kind": "squares", "size": [6, 1, 1]},
        reserves={"black": {"pentagon": 1}, "white": {"circle": 3}},
        shapes={"pentagon": dict(CHAIN, move="adjacent"), "circle": {}},
        move_limit=16,
        phases=[{"cloaked": cells(6, 1), "pass": True}],
    )
    # both sides chain-jump on a hidden 4x4, must capture, reincarnating
    add(
        "chain-must-both",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"x": 1, "circle": 2}, "white": {"x": 1, "circle": 2}},
        shapes={"x": dict(CHAIN, power="must-capture", result="reincarnates", move="adjacent"), "circle": {}},
        move_limit=16,
        phases=[{"cloaked": [c for c in cells(4, 4) if c[1] != 2], "pass": True}],
    )
    # converting chains, "+ back" for a forward mover, and pieces that block line moves
    add(
        "chain-back-converts",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"x": 1, "circle": 2}, "white": {"star": 1, "circle": 2}},
        shapes={
            "x": dict(CHAIN, condition="chain-jump-back", result="converts", move="forward-diagonal"),
            "star": dict(CHAIN, result="converts", move="diagonal"),
            "circle": {"move": "adjacent"},
        },
        move_limit=16,
        line_moves="blocked-by-pieces",
        phases=[{"cloaked": cells(4, 4), "pass": True}],
    )
    # obscurity: every colour is seen, so a chain goes on as in the truth
    add(
        "chain-obscured",
        board={"kind": "squares", "size": [6, 1, 1]},
        reserves={"black": {"pentagon": 1}, "white": {"circle": 3}},
        shapes={"pentagon": dict(CHAIN, move="adjacent"), "circle": {}},
        move_limit=16,
        cloaking="obscures",
        phases=[{"cloaked": cells(6, 1), "pass": True}],
    )
    return out


CHAIN_CASES = chain_cases()
CHAIN_ROW = CHAIN_CASES[0]
P6, M6, PASS6, STOP6 = 6, 12, 48, 49  # chain-row: pentagon placements 6 + t, moves 12 + f*6 + u


@pytest.mark.parametrize("rs", CHAIN_CASES, ids=lambda r: r.name)
def test_cloaked_chain_jumps_match_reference(rs):
    play_against_reference(rs, sweep(full=40, quick=6), seed=4, shape_views=True)


@pytest.mark.slow
@pytest.mark.parametrize("rs", CHAIN_CASES, ids=lambda r: r.name)
def test_cloaked_chain_jumps_match_reference_long(rs):
    play_against_reference(rs, 300, seed=12, shape_views=True)


def test_the_chain_cases_reach_offered_continuations_and_failed_ones():
    """Random games (every tier) reach a continuation offered by the view, one
    that captures, one that fails (an attempt by the player still to move), and
    an end-chain."""
    seen = set()
    for rs in CHAIN_CASES[:3]:
        rng = random.Random(6)
        for _ in range(60):
            core = make_core(rs)
            while not core.terminal():
                legal = core.legal_action_list()
                a = rng.choice(legal)
                chained = core.pending_chain() is not None
                if chained:
                    seen.add("offered")
                core.apply_action(a)
                if chained and core.describe_action(a) == "end-chain":
                    seen.add("ended")
                elif chained:
                    seen.add("failed" if core.last_event()["attempt"] else "went on")
    assert {"offered", "ended", "failed", "went on"} <= seen, seen


@pytest.mark.parametrize("rs", CHAIN_CASES, ids=lambda r: r.name)
def test_random_sim_test_on_cloaked_chain_jumps(rs, tmp_path):
    random_sim_test_of(rs, tmp_path)


@pytest.mark.parametrize("rs", CHAIN_CASES, ids=lambda r: r.name)
def test_is_legal_agrees_with_legal_actions_on_cloaked_chain_jumps(rs):
    assert_is_legal_agrees_with_legal_actions(rs, games=sweep(full=10, quick=2), seed=5)


@pytest.mark.parametrize("rs", CHAIN_CASES, ids=lambda r: r.name)
def test_views_partition_histories_with_cloaked_chain_jumps(rs):
    assert_views_partition_histories(rs, range(sweep(full=30, quick=4)))


def test_a_continuation_is_offered_by_what_the_mover_sees_and_a_failed_one_ends_the_turn():
    # white's circles on (2,1) and then on (4,1) or (6,1): black sees neither; its jump
    # (1,1)->(3,1) captures the first, and the chain goes on in both histories (a piece
    # may hide on (4,1)), with the same views and the same legal actions
    start = (P6 + 0, 1, PASS6)
    near, far = state(CHAIN_ROW, *start, 3, M6 + 2), state(CHAIN_ROW, *start, 5, M6 + 2)
    for s in (near, far):
        assert s.current_player() == 0 and STOP6 in s.legal_actions()
        assert s.action_to_string(0, STOP6) == "end-chain"
    assert views(near, 0) == views(far, 0)
    assert near.legal_actions() == far.legal_actions() and M6 + 2 * 6 + 4 in near.legal_actions()
    near.apply_action(M6 + 2 * 6 + 4)  # a piece on (4,1): the extra jump captures it
    far.apply_action(M6 + 2 * 6 + 4)  # none: an attempt, which ends the chain and the turn
    assert core_of(near).cells() == [0, 0, 0, 0, 1, 0] and not core_of(near).last_event()["attempt"]
    assert core_of(far).cells() == [0, 0, 1, 0, 0, 2] and core_of(far).last_event()["attempt"]
    assert far.current_player() == 1 and STOP6 not in far.legal_actions()
    assert_info_differs(views(near, 0), views(far, 0))


def test_a_tried_extra_jump_over_an_empty_space_shows_the_other_player_only_an_attempt():
    # white's circles on (2,1) and (6,1); black's chain from (3,1) tries over (4,1) to
    # (5,1), or back over (2,1) to (1,1): both spaces are empty, so both are attempts,
    # which white reads alike (it sees neither black's pentagon nor where it tried)
    start = (P6 + 0, 1, PASS6, 5, M6 + 2)
    ahead, back = state(CHAIN_ROW, *start, M6 + 2 * 6 + 4), state(CHAIN_ROW, *start, M6 + 2 * 6 + 0)
    assert core_of(ahead).last_event()["attempt"] and core_of(back).last_event()["attempt"]
    assert views(ahead, 1) == views(back, 1)
    assert ahead.legal_actions() == back.legal_actions()
    assert "attempted" in ahead.information_state_string(1)
    assert core_of(ahead).player_view(1)[2] == "."  # white never sees black's pentagon
    assert views(ahead, 0) != views(back, 0)


def test_must_capture_does_not_forbid_ending_a_chain_whose_only_jumps_are_tried():
    # chain-must-both: a must-capture x whose chain can only try a jump over a space
    # that looks empty may end the chain (no capture is visible); the reference agrees
    rs = CHAIN_CASES[1]
    found = 0
    rng = random.Random(2)
    for _ in range(sweep(full=60, quick=20)):
        core = make_core(rs)
        while not core.terminal():
            legal = core.legal_action_list()
            names = [core.describe_action(b) for b in legal]
            if "end-chain" in names and len(legal) > 1:
                found += 1
            core.apply_action(rng.choice(legal))
    assert found > 0

"""Several boards with every outcome rule and with simultaneous phases, and
the combinations of cloaking, boards, space locks and outcomes
(docs/rules/ttt/outcomes.md, "Several boards, each decided on its
own").

Hand-played games with hand-computed answers check each decision (a board is
scored as a one-board game of its own pieces; "Chaos wins if total ..."
counts every board; overachievers make "most boards" "second most boards";
a round decides each board by the pieces that landed on it and the boards it
decides lock together). Small rule sets for each combination are compared
move by move with the reference model (tests/ttt_reference/), including the
ending, Chaos's outcome, every board's result and who is disqualified, and
run through ``pyspiel.random_sim_test`` with serialisation."""

import json
import random

import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games  # noqa: F401  (registers ttt)
from games.ttt import make_core, rules
from games.ttt.schema import SHAPE_PLURALS
from tiers import sweep
from ttt_checks import cloaks, parsed_or_rejected, play, play_against_reference, rule_set
from ttt_records import rule_records
from ttt_reference import ReferenceState

SQ3x1 = {"kind": "squares", "size": [3, 1, 1]}
BASE = {"board": SQ3x1, "turn_checks": []}
SIM = {"order": "simultaneous"}


def test_several_boards_accept_every_outcome_rule_and_simultaneous_phases():
    for stalemate in rules.STALEMATES:
        players = "2-vs-chaos" if "chaos" in stalemate else "2"
        reserves = {"black": 2, "white": 2, "pink": 2} if players != "2" else {"black": 2, "white": 2}
        extra = {}
        counted = [sh for sh, plural in SHAPE_PLURALS.items() if plural in stalemate and sh != "circle"]
        if counted:  # a shape measure needs its shape in play
            extra["shapes"] = {"circle": {"move": "stationary"}, counted[0]: {"move": "stationary"}}
            reserves = {col: {"circle": 1, counted[0]: 1} for col in reserves}
        assert (
            rule_set(
                "MB", BASE, boards=2, stalemate=stalemate, players=players, reserves=reserves, **extra
            ).record["boards"]
            == 2
        )
    rule_set(
        "MB",
        BASE,
        boards=3,
        players="4",
        overachievers_disqualified=True,
        stalemate="most-pieces-wins",
        board={"kind": "squares", "size": [2, 2, 1]},
        reserves={"black": 1, "white": 1, "pink": 1, "yellow": 1},
    )
    rule_set("MB", BASE, boards=2, chaos_wins_if_more_than={"circle": 3}, reserves={"black": 2, "white": 2})
    rule_set(
        "MB",
        BASE,
        boards=2,
        players="partners",
        stalemate="most-pieces-wins",
        reserves={"black": 1, "white": 1, "pink": 1, "yellow": 1},
    )
    rule_set("MB", BASE, boards=2, phases=[{"order": "simultaneous"}], reserves={"black": 2, "white": 2})
    rule_set("MB", BASE, boards=3, phases=[{"order": "single"}, {}], reserves={"black": 2, "white": 2})


def test_refusals_that_are_not_about_boards_stay_listed_together():
    """Overachievers with rounds are played (on
    several boards they act on the whole game), so only the vs-Chaos refusal
    is left of this rule set's problems, and nothing names the boards."""
    with pytest.raises(rules.RuleSetError) as info:
        rule_set(
            "MB",
            BASE,
            boards=2,
            players="4",
            overachievers_disqualified=True,
            phases=[{"order": "simultaneous"}],
            stalemate="more-pieces-than-chaos-wins",
            reserves={"black": 1, "white": 1, "pink": 1, "yellow": 1},
        )
    problems = info.value.problems
    assert not any(p.startswith("overachievers_disqualified") for p in problems)
    assert any(
        p.startswith("stalemate: 'more-pieces-than-chaos-wins' compares each player with Chaos")
        for p in problems
    )
    assert not any(p.startswith("boards") for p in problems)
    # shapes play in rounds on several boards too, stationary and moving
    rule_set(
        "MB",
        BASE,
        boards=2,
        phases=[{"order": "simultaneous"}],
        shapes={"circle": {"move": "stationary"}, "triangle": {"move": "stationary"}},
        reserves={"black": {"circle": 1, "triangle": 1}, "white": {"circle": 1, "triangle": 1}},
    )
    rule_set(
        "MB",
        BASE,
        boards=2,
        phases=[{"order": "simultaneous"}],
        move_limit=9,
        shapes={"circle": {"move": "stationary"}, "triangle": {"move": "adjacent"}},
        reserves={"black": {"circle": 1, "triangle": 1}, "white": {"circle": 1, "triangle": 1}},
    )


def test_area_is_counted_per_board_then_most_boards_wins():
    # board 1: B . W  -> the empty middle touches both: black 2, white 2 (a drawn board)
    # board 2: B W .  -> black 1 (its only neighbour is white), white 2: white wins it
    c = make_core(
        rule_set("MB", BASE, boards=2, stalemate="most-area-wins", reserves={"black": 2, "white": 2})
    )
    play(c, [0, 2, 3, 4])
    assert c.terminal() and c.ending() == "stalemate"
    assert [c.board_side_scores(0), c.board_side_scores(1)] == [[2, 2], [1, 2]]
    assert c.side_scores() == [3, 4]  # the whole game's area, for comparison
    assert c.board_results() == [[0, 0], [-1, 1]]
    assert c.returns_list() == [-1.0, 1.0]
    with pytest.raises(ValueError):
        c.board_side_scores(2)


def test_least_area_wins_per_board_gives_an_absent_side_the_board():
    # A board scored alone is a one-board game of its pieces: a side with no
    # piece on it has area 0 and holds the least area there.
    # board 1: B . .  (black 3, white 0: white wins it); board 2: W . . (black wins it)
    c = make_core(
        rule_set("MB", BASE, boards=2, stalemate="least-area-wins", reserves={"black": 1, "white": 1})
    )
    play(c, [0, 3])
    assert c.board_results() == [[-1, 1], [1, -1]]
    assert c.returns_list() == [0.0, 0.0]


def test_k_in_a_row_counts_per_board():
    # board 1: B B B -> black 2 lines of 2; board 2: W W . -> white 1, black 0
    c = make_core(
        rule_set("MB", BASE, boards=2, stalemate="most-2-in-a-row-wins", reserves={"black": 3, "white": 2})
    )
    play(c, [0, 3, 1, 4, 2])
    assert c.terminal()
    assert [c.board_side_scores(0), c.board_side_scores(1)] == [[2, 0], [0, 1]]
    assert c.board_results() == [[1, -1], [-1, 1]] and c.returns_list() == [0.0, 0.0]


def test_pieces_against_chaos_per_board():
    # 2 boards of 2x1: board 1 targets 0, 1; board 2 targets 2, 3.
    # black b1, white b2, Chaos (pink) b1, black b2: board 1 black 1 = Chaos 1
    # (equal: a draw), white 0 < 1 (loses); board 2 black 1 > 0, white 1 > 0.
    rs = rule_set(
        "MB",
        BASE,
        boards=2,
        players="2-vs-chaos",
        board={"kind": "squares", "size": [2, 1, 1]},
        stalemate="more-pieces-than-chaos-wins-fewer-loses",
        reserves={"black": 2, "white": 1, "pink": 1},
    )
    c = make_core(rs)
    play(c, [0, 2])
    assert c.player() == -1
    play(c, [1, 3])
    assert c.terminal()
    assert [c.board_side_scores(0), c.board_side_scores(1)] == [[1, 0, 1], [1, 1, 0]]
    assert c.board_results() == [[0, -1], [1, 1]]
    assert c.returns_list() == [0.0, 0.0] and c.chaos_outcome() == 0.0  # 1 board each, unlike boards


def test_every_player_losing_every_board_to_chaos_is_a_chaos_win():
    rs = rule_set(
        "MB",
        BASE,
        boards=2,
        players="2-vs-chaos",
        board={"kind": "squares", "size": [1, 1, 1]},
        stalemate="more-pieces-than-chaos-wins",
        reserves={"pink": 2},
        phases=[{"locked_players": [1, 2]}],
    )
    c = make_core(rs)  # only Chaos plays: it places on both boards
    assert c.player() == -1
    while not c.terminal():
        c.apply_action(c.chance_outcome_list()[0][0])
    assert c.board_results() == [[-1, -1], [-1, -1]]
    assert c.returns_list() == [-1.0, -1.0] and c.chaos_outcome() == 1.0


def test_chaos_threshold_counts_the_pieces_of_every_board():
    # 4 circles over two 2x1 boards, 2 on each: "total circles > 3" holds over
    # the game although no board holds more than 2.
    board = {"kind": "squares", "size": [2, 1, 1]}
    for limit, returns, chaos in ((3, [-1.0, -1.0], 1.0), (4, [0.0, 0.0], 0.0)):
        c = make_core(
            rule_set(
                "MB",
                BASE,
                boards=2,
                board=board,
                stalemate="most-pieces-wins",
                chaos_wins_if_more_than={"circle": limit},
                reserves={"black": 2, "white": 2},
            )
        )
        play(c, [0, 2, 1, 3])  # board 1 black 2, board 2 white 2
        assert c.terminal() and c.ending() == "stalemate"
        assert c.board_results() == [[1, -1], [-1, 1]]
        assert c.returns_list() == returns and c.chaos_outcome() == chaos


def test_a_turn_check_deciding_the_last_board_decides_alone():
    c = make_core(
        rule_set(
            "MB",
            BASE,
            boards=2,
            board={"kind": "squares", "size": [2, 1, 1]},
            turn_checks=["first-2-wins"],
            chaos_wins_if_more_than={"circle": 1},
            reserves={"black": 2, "white": 2},
        )
    )
    play(c, [0, 2, 1, 3])
    assert c.ending() == "turn check" and c.board_results() == [[1, -1], [-1, 1]]
    assert c.returns_list() == [0.0, 0.0]


def test_overachievers_make_most_boards_second_most_boards():
    # 4 players, 3 boards of 1x1: black, white and pink each win a board
    # (most pieces), yellow none: the three are disqualified and yellow, with
    # the most boards among the rest, wins.
    rs = rule_set(
        "MB",
        BASE,
        boards=3,
        players="4",
        overachievers_disqualified=True,
        stalemate="most-pieces-wins",
        board={"kind": "squares", "size": [1, 1, 1]},
        reserves={"black": 1, "white": 1, "pink": 1},
    )
    c = play(make_core(rs), [0, 1, 2])
    assert c.terminal()
    assert c.board_results() == [[1, -1, -1, -1], [-1, 1, -1, -1], [-1, -1, 1, -1]]
    assert c.disqualified_players() == [0, 1, 2]
    assert c.returns_list() == [-1.0, -1.0, -1.0, 1.0] and c.chaos_outcome() == 0.0


def test_overachievers_when_everyone_wins_every_board_chaos_wins():
    rs = rule_set(
        "MB",
        BASE,
        boards=2,
        players="4",
        overachievers_disqualified=True,
        stalemate="all-win",
        board={"kind": "squares", "size": [1, 1, 1]},
        reserves={"black": 1, "white": 1},
    )
    c = play(make_core(rs), [0, 1])
    assert c.terminal() and c.board_results() == [[1, 1, 1, 1], [1, 1, 1, 1]]
    assert c.disqualified_players() == [0, 1, 2, 3]
    assert c.returns_list() == [-1.0] * 4 and c.chaos_outcome() == 1.0


def test_partners_with_assigned_colours_count_both_colours_per_board():
    # 2 boards of 1x2: board 1 targets 0 (y=1) and 2 (y=2), board 2 targets 1 and 3.
    # black b1, white b2, pink (black's partner) b1, yellow b2 -> board 1: 2-0 for
    # black+pink, board 2: 2-0 for white+yellow: one board each, a draw.
    rs = rule_set(
        "MB",
        BASE,
        boards=2,
        players="partners",
        stalemate="most-pieces-wins",
        board={"kind": "squares", "size": [1, 2, 1]},
        reserves={"black": 1, "white": 1, "pink": 1, "yellow": 1},
    )
    c = play(make_core(rs), [0, 1, 2, 3])
    assert c.board_results() == [[1, -1, 1, -1], [-1, 1, -1, 1]]
    assert c.returns_list() == [0.0] * 4


def test_one_round_decides_two_boards_at_once():
    c = make_core(
        rule_set(
            "MB",
            BASE,
            boards=2,
            turn_checks=["first-2-wins"],
            reserves={"black": 3, "white": 3},
            phases=[{"order": "simultaneous"}],
        )
    )
    play(c, [0, 3])  # the first round: black on board 1, white on board 2
    assert c.board_results() == [None, None]
    play(c, [1, 4])  # the second round: each completes two on its own board
    assert c.terminal() and c.ending() == "turn check"
    assert c.board_results() == [[1, -1], [-1, 1]] and c.returns_list() == [0.0, 0.0]


def test_a_collision_on_one_board_while_another_is_decided():
    rs = rule_set(
        "MB",
        BASE,
        boards=2,
        players="3",
        turn_checks=["first-2-wins"],
        reserves={"black": 3, "white": 3, "pink": 3},
        phases=[{"order": "simultaneous"}],
    )
    c = play(make_core(rs), [0, 3, 5])  # the first round
    play(c, [1, 4, 4])  # the second: black completes board 1; white and pink collide
    assert not c.terminal()
    assert c.board_results() == [[1, -1, -1], None]
    assert c.cells()[:3] == [1, 1, -1]  # board 1 locked: its empty space shows locked
    assert c.cells()[3:6] == [2, 0, 3]  # both colliding pieces destroyed
    assert c.reserves() == {"black": 1, "white": 1, "pink": 1}  # destroyed pieces stay spent
    assert c.legal_action_list() == [4]  # only board 2's free space
    play(c, [4, 4, 4])  # three-way collision; every reserve is empty now
    assert c.terminal() and c.ending() == "stalemate"
    assert c.board_results() == [[1, -1, -1], [0, 0, 0]]
    assert c.returns_list() == [1.0, -1.0, -1.0]


def test_lines_of_several_sides_on_one_board_in_one_round_draw_that_board_only():
    rs = rule_set(
        "MB",
        BASE,
        boards=2,
        board={"kind": "squares", "size": [4, 1, 1]},
        turn_checks=["first-2-wins"],
        reserves={"black": 3, "white": 3},
        phases=[{"order": "simultaneous"}],
    )
    c = play(make_core(rs), [0, 3])  # board 1: B . . W
    play(c, [1, 2])  # B B W W: both complete two in the same round
    assert not c.terminal() and c.board_results() == [[0, 0], None]
    assert c.legal_action_list() == [4, 5, 6, 7]


def test_a_board_decided_in_a_round_locks_at_its_end_and_the_round_lands_everywhere():
    # Plans are made on the board of the round's start: a piece sent to a
    # board that the same round decides still lands there.
    rs = rule_set(
        "MB",
        BASE,
        boards=2,
        turn_checks=["first-2-wins"],
        reserves={"black": 3, "white": 3},
        phases=[{"order": "simultaneous"}],
    )
    c = play(make_core(rs), [0, 5])  # black b1 (1,1); white b2 (3,1)
    play(c, [1, 2])  # black completes b1 while white lands on b1 too
    assert c.board_results() == [[1, -1], None]
    assert c.cells()[:3] == [1, 1, 2]
    assert sorted(c.legal_action_list()) == [3, 4]


RAW = {}


def _add(out, name, **fields):
    rec = {"name": name, "board": dict(SQ3x1), "turn_checks": []}
    rec.update(fields)
    RAW[name] = rec
    out.append(rules.parse(rec))


def combination_sets():
    """A rule set for each combination."""
    out = []
    sq2 = {"kind": "squares", "size": [2, 2, 1]}
    sq3 = {"kind": "squares", "size": [3, 3, 1]}
    # several boards x outcome rules
    _add(
        out,
        "b2-least-area-chaos-exclusive",
        boards=2,
        players="2-vs-chaos",
        board=dict(
            sq2,
            exclusive=[
                {"at": [[1, 1, 1]], "players": [1]},
                {"at": [[1, 2, 1]], "players": [2]},
                {"at": [[2, 1, 1], [2, 2, 1]], "players": ["chaos"]},
            ],
        ),
        reserves={"black": 1, "white": 1, "pink": 1},
        stalemate="least-area-wins",
        phases=[{"locked_players": ["chaos"]}, {"locked_players": [1, 2]}],
    )
    _add(
        out,
        "b2-most-area-move",
        boards=2,
        board=sq3,
        reserves={"black": 3, "white": 3},
        shapes={"circle": {"move": "adjacent-orthogonal"}},
        move_limit=24,
        stalemate="most-area-wins",
        turn_checks=["first-3-wins"],
    )
    _add(
        out,
        "b3-2-in-a-row-3p",
        boards=3,
        players="3",
        board={"kind": "squares", "size": [2, 2, 1]},
        reserves={"black": 4, "white": 4, "pink": 4},
        stalemate="most-2-in-a-row-wins",
    )
    _add(
        out,
        "b2-least-circles-loses-stacks",
        boards=2,
        board={"kind": "stacks", "size": [2, 1, 3]},
        reserves={"black": 5, "white": 5},
        stalemate="least-circles-loses",
        phases=[{"pass": True}],
    )
    _add(
        out,
        "b2-vs-chaos-move",
        boards=2,
        players="2-vs-chaos",
        board=sq2,
        reserves={"black": 2, "white": 2, "pink": 2},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=20,
        stalemate="more-pieces-than-chaos-wins-fewer-loses",
        turn_checks=["first-2-wins-no-diagonal"],
    )
    _add(
        out,
        "b3-fewer-than-chaos-3p",
        boards=3,
        players="3-vs-chaos",
        board={"kind": "squares", "size": [2, 1, 1]},
        reserves={"black": 2, "white": 2, "pink": 2, "yellow": 3},
        stalemate="fewer-pieces-than-chaos-loses",
        phases=[{"pass": True}],
    )
    _add(
        out,
        "b2-chaos-threshold",
        boards=2,
        board=sq2,
        reserves={"black": 4, "white": 4},
        stalemate="most-pieces-wins",
        chaos_wins_if_more_than={"circle": 5},
        phases=[{"pass": True}],
        turn_checks=["first-2-wins-no-diagonal"],
    )
    _add(
        out,
        "b3-overachievers-4p",
        boards=3,
        players="4",
        overachievers_disqualified=True,
        board={"kind": "squares", "size": [2, 1, 1]},
        reserves={"black": 2, "white": 2, "pink": 2, "yellow": 2},
        stalemate="most-pieces-wins",
        turn_checks=["first-2-wins"],
        phases=[{"pass": True}],
    )
    _add(
        out,
        "b2-overachievers-least-row",
        boards=2,
        players="4",
        overachievers_disqualified=True,
        board=sq2,
        reserves={"black": 2, "white": 2, "pink": 2, "yellow": 1},
        stalemate="least-in-a-row-loses",
    )
    _add(
        out,
        "b2-partners-assigned-pieces",
        boards=2,
        players="partners",
        board=sq2,
        reserves={"black": 2, "white": 2, "pink": 2, "yellow": 2},
        stalemate="most-pieces-wins",
        phases=[{"pass": True}],
    )
    # several boards x simultaneous and single phases
    _add(
        out,
        "b2-sim-place",
        boards=2,
        reserves={"black": 3, "white": 3},
        turn_checks=["first-2-wins"],
        phases=[{"order": "simultaneous"}],
        stalemate="most-pieces-wins",
    )
    _add(
        out,
        "b3-sim-3p-pass-collide",
        boards=3,
        players="3",
        board={"kind": "squares", "size": [2, 1, 1]},
        reserves={"black": 3, "white": 3, "pink": 3},
        turn_checks=["first-2-wins", "all-lose-if-any-3"],
        phases=[{"order": "simultaneous", "pass": True}],
    )
    _add(
        out,
        "b2-single-then-sim-move",
        boards=2,
        board=sq2,
        reserves={"black": 2, "white": 2},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=16,
        turn_checks=["first-2-wins-no-diagonal"],
        phases=[
            {"order": "single", "movement": "placement-only"},
            {"movement": "placement-only"},
            {"order": "simultaneous"},
        ],
        stalemate="most-area-wins",
    )
    _add(
        out,
        "b2-sim-stacks-chaos",
        boards=2,
        players="2-vs-chaos",
        board={"kind": "stacks", "size": [2, 1, 2]},
        reserves={"black": 2, "white": 2, "pink": 2},
        turn_checks=["first-2-wins-no-diagonal"],
        phases=[{"order": "simultaneous", "pass": True}],
        stalemate="fewer-pieces-than-chaos-loses",
    )
    _add(
        out,
        "b2-sim-shared-move-loses",
        boards=2,
        colours="shared",
        board=sq2,
        reserves={"black": 4},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=14,
        turn_checks=["first-2-loses-no-diagonal"],
        phases=[{"order": "simultaneous", "pass": True}],
    )
    _add(
        out,
        "b2-sim-locks-threshold",
        boards=2,
        board=dict(sq3, sticky=[[2, 2, 1]], exclusive=[{"at": [[1, 1, 1]], "players": [1]}]),
        reserves={"black": 3, "white": 3},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=18,
        turn_checks=["first-3-wins"],
        chaos_wins_if_more_than={"circle": 4},
        phases=[{"order": "simultaneous", "entry_locked": [{"at": [[3, 3, 1]], "players": [2]}]}],
    )
    # cloaking x boards
    _add(
        out,
        "cloak-b2-hides",
        boards=2,
        board=sq2,
        cloaking="hides",
        reserves={"black": 3, "white": 3},
        turn_checks=["first-2-wins-no-diagonal"],
        phases=[{"cloaked": [[1, 1, 1], [2, 2, 1]]}],
    )
    _add(
        out,
        "cloak-b3-blotto-stacks",
        boards=3,
        cloaking="hides",
        board={
            "kind": "stacks",
            "size": [2, 1, 3],
            "exclusive": [{"at": [[1, 1]], "players": [1]}, {"at": [[2, 1]], "players": [2]}],
        },
        reserves={"black": 4, "white": 4},
        stalemate="most-pieces-wins",
        phases=[{"cloaked": [[x, 1, z] for x in (1, 2) for z in (1, 2, 3)]}],
    )
    _add(
        out,
        "cloak-b2-move-obscures",
        boards=2,
        board=sq2,
        cloaking="obscures",
        reserves={"black": 2, "white": 2},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=16,
        turn_checks=["first-2-wins-no-diagonal"],
        phases=[{"cloaked": [[1, 1, 1], [1, 2, 1], [2, 1, 1]]}],
    )
    _add(
        out,
        "cloak-b2-hides-move",
        boards=2,
        board=sq2,
        cloaking="hides",
        reserves={"black": 2, "white": 2},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=16,
        turn_checks=["first-2-wins-no-diagonal"],
        stalemate="least-area-wins",
        phases=[{"cloaked": [[x, y, 1] for x in (1, 2) for y in (1, 2)]}],
    )
    # cloaking x entry/exit/sticky/exclusive locks
    _add(
        out,
        "cloak-locks-move",
        cloaking="hides",
        board=dict(
            sq3,
            sticky=[[2, 2, 1]],
            exclusive=[{"at": [[1, 1, 1]], "players": [1]}],
            entry_locked=[{"at": [[3, 3, 1]], "players": [2]}],
            exit_locked=[{"at": [[1, 3, 1]], "players": [1]}],
        ),
        reserves={"black": 3, "white": 3},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=24,
        turn_checks=["first-3-wins"],
        phases=[
            {
                "pass": True,
                "cloaked": [[x, y, 1] for x in (1, 2, 3) for y in (1, 2, 3)],
                "exit_locked": [{"at": [[3, 1, 1]], "players": [2]}],
            }
        ],
    )
    _add(
        out,
        "cloak-locks-stacks-exclusive",
        cloaking="hides",
        board={
            "kind": "stacks",
            "size": [3, 1, 3],
            "exclusive": [{"at": [[1, 1]], "players": [1]}, {"at": [[3, 1]], "players": [2]}],
        },
        reserves={"black": 3, "white": 3},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=20,
        turn_checks=["first-3-wins-no-diagonal"],
        phases=[{"cloaked": [[x, 1, z] for x in (1, 2, 3) for z in (1, 2, 3)]}],
    )
    # cloaking x outcomes
    _add(
        out,
        "cloak-area",
        cloaking="hides",
        board=sq3,
        reserves={"black": 3, "white": 3},
        stalemate="most-area-wins",
        phases=[{"pass": True, "cloaked": [[1, 1, 1], [2, 2, 1], [3, 3, 1]]}],
    )
    _add(
        out,
        "cloak-vs-chaos",
        cloaking="hides",
        players="2-vs-chaos",
        board=sq3,
        reserves={"black": 2, "white": 2, "pink": 3},
        stalemate="more-pieces-than-chaos-wins-fewer-loses",
        shapes={"circle": {"move": "adjacent"}},
        move_limit=20,
        phases=[{"cloaked": [[x, y, 1] for x in (1, 2, 3) for y in (1, 2)]}],
    )
    # several boards x space locks
    _add(
        out,
        "b2-locks-move",
        boards=2,
        board=dict(
            sq3,
            sticky=[[2, 2, 1]],
            exit_locked=[{"at": [[1, 1, 1]], "players": [2]}],
            entry_locked=[{"at": [[3, 3, 1]], "players": [1]}],
        ),
        reserves={"black": 3, "white": 3},
        shapes={"circle": {"move": "linear-or-knight"}},
        move_limit=24,
        turn_checks=["first-3-wins"],
        stalemate="most-in-a-row-wins",
        phases=[
            {
                "pass": True,
                "entry_locked": [{"at": [[2, 1, 1]], "players": [2]}],
                "fold": "less-than-most-committed",
            },
            {"pass": True},
        ],
    )
    return out


CASES = combination_sets()


@pytest.mark.parametrize("rs", CASES, ids=lambda rs: rs.name)
def test_combinations_on_several_boards_match_reference(rs):
    attempts = play_against_reference(
        rs, games=sweep(full=50, quick=12), seed=sum(map(ord, rs.name))
    ).attempts
    # (in cloak-b3-blotto-stacks each seat places only on its own exclusive
    # stacks, whose pieces it placed itself: nothing there can be attempted)
    if cloaks(rs) and rs.record["cloaking"] == "hides" and rs.name != "cloak-b3-blotto-stacks":
        assert attempts > 0, "no attempt that only reveals was played"


@pytest.mark.slow
@pytest.mark.parametrize("rs", CASES, ids=lambda rs: rs.name)
def test_combinations_on_several_boards_match_reference_long(rs):
    play_against_reference(rs, games=800, seed=12)


@pytest.mark.parametrize("rs", CASES, ids=lambda rs: rs.name)
def test_random_sim_test_with_serialisation(rs, tmp_path):
    path = tmp_path / f"{rs.name}.json"
    path.write_text(json.dumps(RAW[rs.name]))
    game = pyspiel.load_game(f"ttt(rules={path})")
    pyspiel.random_sim_test(game, num_sims=sweep(full=15, quick=1), serialize=True, verbose=False)
    if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        pyspiel.random_sim_test(
            pyspiel.convert_to_turn_based(game),
            num_sims=sweep(full=5, quick=1),
            serialize=False,
            verbose=False,
        )


def test_playout_plans_on_several_boards_are_the_legal_plans():
    """The random playout's fast plan lists skip decided boards."""
    rs = next(rs for rs in CASES if rs.name == "b2-single-then-sim-move")
    rng = random.Random(5)
    checked = 0
    for _ in range(60):
        c = make_core(rs)
        while not c.terminal():
            if c.player() >= 0 and c.simultaneous_player_list():
                assert c.playout_plans() == sorted(c.legal_action_list())
                checked += 1
            legal = [a for a, _ in c.chance_outcome_list()] if c.player() == -1 else c.legal_action_list()
            c.apply_action(rng.choice(legal))
    assert checked > 0
    for seed in range(200):  # random playouts end with a valid ending
        c = make_core(rs)
        c.random_playout(seed)
        assert c.terminal()


def test_cloaked_spaces_and_the_game_length_bound_cover_every_board():
    one = rule_set(
        "MB",
        BASE,
        board={"kind": "squares", "size": [2, 1, 1]},
        cloaking="hides",
        reserves={"black": 2, "white": 2},
        phases=[{"cloaked": [[1, 1, 1]]}],
    )
    two = rule_set(
        "MB",
        BASE,
        boards=2,
        board={"kind": "squares", "size": [2, 1, 1]},
        cloaking="hides",
        reserves={"black": 2, "white": 2},
        phases=[{"cloaked": [[1, 1, 1]]}],
    )
    assert make_core(one).cloaked_cells() == [0]
    assert make_core(two).cloaked_cells() == [0, 2]  # board 1's (1,1,1) and board 2's
    # placements (the spaces: 2 on one board, 4 on two) plus up to 2 attempts
    # per piece that can be on the board(s) (each attempt reveals one to its player)
    assert make_core(one).max_game_length == 2 + 2 * 2
    assert make_core(two).max_game_length == 4 + 2 * 4


@settings(max_examples=sweep(full=60, quick=7), deadline=None, suppress_health_check=list(HealthCheck))
@given(
    rule_records(),
    st.integers(2, 3),
    st.lists(st.sampled_from(["sequential", "simultaneous", "single"]), min_size=3, max_size=3),
    st.sampled_from([None, 0, 2, 5]),
    st.booleans(),
    st.integers(0, 10**6),
)
def test_random_rule_sets_on_several_boards_match_reference(rec, boards, orders, limit, overachievers, seed):
    rec["boards"] = boards
    if "simultaneous" in orders or "single" in orders:
        rec["pieces_per_turn"] = 1
    for ph, order in zip(rec["phases"], orders, strict=False):  # up to 3 phases, 3 orders
        ph["order"] = order
    if limit is not None:
        rec["chaos_wins_if_more_than"] = {"circle": limit}
    if rec["players"] == "4" and all(ph["order"] == "sequential" for ph in rec["phases"]):
        rec["overachievers_disqualified"] = overachievers
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=3, seed=seed)


@pytest.mark.parametrize("rs", CASES, ids=lambda rs: rs.name)
def test_zero_sum_claims_hold_on_every_ending(rs, tmp_path):
    """The GameType claims zero-sum only where every ending sums to 0 (two
    sides, no Chaos, no rule that makes every player win or lose together)."""
    path = tmp_path / f"{rs.name}.json"
    path.write_text(json.dumps(RAW[rs.name]))
    game = pyspiel.load_game(f"ttt(rules={path})")
    zero_sum = game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    for seed in range(40):
        c = make_core(rs)
        c.random_playout(seed)
        if zero_sum:
            assert sum(c.returns_list()) == 0.0, (rs.name, seed)


# -- overachievers and shape measures with rounds on several boards ---------------------------


def test_overachievers_in_rounds_on_several_boards_act_on_the_whole_game():
    """Two 2x1 boards, 4 players, first-2-wins, one round: black completes a
    line on board 1 and white on board 2 in the same round. On one board the
    round's winners would be disqualified at once; here a round decides
    boards, so both boards are decided (black's, white's), the game
    ends with black and white on one board each, and as the game's winners
    they are disqualified: pink and yellow (no board) win together."""
    rs = rule_set(
        "oa-rounds",
        boards=2,
        players="4",
        overachievers_disqualified=True,
        board={"kind": "squares", "size": [2, 1, 1]},
        turn_checks=["first-2-wins"],
        reserves={"black": 2, "white": 2, "pink": 1, "yellow": 1},
        stalemate="most-pieces-wins",
        phases=[dict(SIM, **{"pass": True})],
    )
    core = make_core(rs)
    ref = ReferenceState(rs)
    # targets: board 1 is x = 0, 1; board 2 is x = 2, 3 (side by side)
    pass_id = max(core.player_legal_action_list(0))  # the pass is the highest plan id
    assert pass_id == ref.a_pass
    for plans in ([0, 2, pass_id, pass_id], [1, 3, pass_id, pass_id]):
        for a in plans:
            core.apply_action(a)
            ref.apply(a)
    assert core.player() == -4 and ref.result is not None
    assert [list(map(float, r)) for r in core.board_results()] == [[1, -1, -1, -1], [-1, 1, -1, -1]]
    assert core.disqualified_players() == [0, 1] == sorted(ref.disqualified)
    assert core.returns_list() == ref.returns() == [-1.0, -1.0, 1.0, 1.0]


def test_a_shape_measure_is_scored_per_board_against_the_shapes_reference():
    """most-triangles-wins on two 2x2 boards: each board goes to the side with
    more triangles on it, then most boards wins (games played at random
    against ReferenceState, which scores shapes from its own shape map)."""
    shapes = {"circle": {"move": "stationary"}, "triangle": {"move": "stationary"}}
    rs = rule_set(
        "tri-boards",
        board={"kind": "squares", "size": [2, 2, 1]},
        boards=2,
        turn_checks=[],
        stalemate="most-triangles-wins",
        shapes=shapes,
        reserves={"black": {"circle": 1, "triangle": 3}, "white": {"circle": 3, "triangle": 1}},
    )
    rng = random.Random(5)
    outcomes = set()
    for g in range(60):
        core = make_core(rs)
        ref = ReferenceState(rs)
        while core.player() != -4:
            legal = core.legal_action_list()
            assert legal == ref.legal_actions(), (g, core.to_string())
            a = rng.choice(legal)
            core.apply_action(a)
            ref.apply(a)
        assert core.returns_list() == ref.returns(), (g, core.to_string())
        got = [[float(v) for v in r] for r in core.board_results()]
        assert got == [[float(v) for v in ref.decided[b]] for b in range(2)], (g, core.to_string())
        for b in range(2):
            assert core.board_side_scores(b) == [
                sum(
                    1
                    for c, col in ref.board.items()
                    if ref.board_of(c) == b and col == side and ref.shape[c] == "triangle"
                )
                for side in (0, 1)
            ], (g, b, core.to_string())
        outcomes.add(tuple(core.returns_list()))
    # black's 3 triangles against white's 1: black wins both boards, or each
    # side one (a draw); both are reached, so the per-board score decides
    assert outcomes >= {(1.0, -1.0), (0.0, 0.0)}, outcomes

"""Boards and outcomes on one board: lines and the turn checks, the
stalemate rules, and the outcomes of the dilemmas of the tic-tac-toe
variations specification (area, piece and shape counts, K-same-colour-in-a-row
counts, most/least wins/loses, pieces against Chaos, any piece wins/loses,
"Chaos wins if total circles > 9", "Overachiever(s) disqualified" and
Chaos's own outcome). Several boards are test_ttt_several_boards.py's.

Hand-built positions with hand-computed answers, hand-played games, the
engine against the reference model (tests/ttt_reference/) move by move and
ending by ending, the GameType's zero-sum claim against every terminal seen,
validation listing every problem, and ``pyspiel.random_sim_test`` with
serialisation on each test rule set. Cells are x + X*(y + Y*z) from 0."""

import json
import random

import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games  # noqa: F401  (registers ttt)
from games.ttt import make_core, rules
from tiers import sweep
from ttt_checks import new_core, parsed_or_rejected, piece, play, play_against_reference, rule_set
from ttt_records import outcome_records
from ttt_reference import ReferenceState

BASE = {
    "board": {"kind": "squares", "size": [3, 3, 1]},
    "reserves": {"black": 5, "white": 4},
    "turn_checks": [],
}


def play_at(rs, coords):
    """Play placements given as 1-based (x, y) on a flat board; Chaos turns
    (chance nodes) take the lowest outcome."""
    core = make_core(rs)
    X = rs.record["board"]["size"][0]
    it = iter(coords)
    while not core.terminal():
        if core.player() == -1:
            core.apply_action(core.chance_outcome_list()[0][0])
            continue
        try:
            x, y = next(it)
        except StopIteration:
            break
        core.apply_action((x - 1) + X * (y - 1))
    return core


# -- lines, turn checks and the stalemate rules by hand --------------------------------------------


def test_tic_tac_toe_row_wins():
    c = play(make_core("Tic-Tac-Toe"), [0, 3, 1, 4])
    assert not c.terminal()
    play(c, [2])
    assert c.terminal() and c.returns_list() == [1.0, -1.0] and c.ending() == "turn check"


def test_most_wins_and_least_loses_keep_the_default_turn_check():
    # 3x4 board, cells x + 3*y: Black completes the bottom row on its third
    # piece, which ends the game at once.
    for name in ("3P-MostWins-3x4", "3P-LeastLoses-3x4"):
        c = play(make_core(name), [0, 3, 6, 1, 4, 7])
        assert not c.terminal()
        play(c, [2])
        assert c.terminal() and c.ending() == "turn check" and c.returns_list() == [1.0, -1.0, -1.0]


def test_partners_share_the_outcome():
    c = new_core("p", players="partners", colours="partners-share", reserves={"black": 5, "white": 4})
    play(c, [0, 3, 1, 4])
    assert c.player() == 0
    c.apply_action(2)
    assert c.returns_list() == [1.0, -1.0, 1.0, -1.0]


@pytest.mark.parametrize(
    "stalemate,actions,expected",
    [
        ("most-pieces-wins", [0, 3, 1, 4, 2], [1.0, -1.0]),
        ("most-in-a-row-wins", [0, 3, 1, 4, 2], [1.0, -1.0]),
        ("least-in-a-row-loses", [0, 3, 1, 4, 2], [1.0, -1.0]),
        ("most-in-a-row-wins", [0, 1, 2, 3, 4], [0.0, 0.0]),
        ("least-in-a-row-loses", [0, 1, 2, 3, 4], [0.0, 0.0]),
        ("all-win", [0, 1, 2, 3, 4], [1.0, 1.0]),
        ("draws", [0, 3, 1, 4, 2], [0.0, 0.0]),
    ],
)
def test_stalemate_rules(stalemate, actions, expected):
    c = new_core(
        "s",
        board={"kind": "squares", "size": [5, 1, 1]},
        reserves={"black": 3, "white": 2},
        turn_checks=[],
        stalemate=stalemate,
    )
    play(c, actions)
    assert c.terminal() and c.ending() == "stalemate" and c.returns_list() == expected


def test_qubic_space_diagonal_wins():
    c = play(make_core("Qubic-4"), [0, 1, 21, 2, 42, 3])
    assert not c.terminal()
    c.apply_action(63)
    assert c.returns_list() == [1.0, -1.0]


def test_misere_notakto_3p_the_completer_loses():
    c = play(make_core("3P-Notakto"), [0, 1, 4, 5])
    assert c.player() == 1
    c.apply_action(8)  # player 1 completes 0-4-8
    assert c.returns_list() == [1.0, -1.0, 1.0]


# 4x4, z = 1 (y printed downwards from 4):
#   y=4: . W W .        black: (1,3) (2,2) (3,1)
#   y=3: B . W .        white: (2,4) (3,4) (3,3) (3,2) (4,2)
#   y=2: . B W W        (4,1) is locked and empty
#   y=1: . . B #
# Empty orthogonal regions: {(1,4)} touches B and W; {(2,3)} touches B and W;
# {(4,4),(4,3)} only W; {(1,2),(1,1),(2,1)} only B; the locked blank {(4,1)}
# touches B and W. Black: 3 pieces + 1 + 1 + 3 + 1 = 9. White: 5 + 1 + 1 + 2 + 1 = 10.
AREA_BOARD = {
    "kind": "squares",
    "size": [4, 4, 1],
    "locked": [[4, 1, 1]],
    "pieces": [
        piece((1, 3, 1), "black"),
        piece((2, 2, 1), "black"),
        piece((3, 1, 1), "black"),
        piece((2, 4, 1), "white"),
        piece((3, 4, 1), "white"),
        piece((3, 3, 1), "white"),
        piece((3, 2, 1), "white"),
        piece((4, 2, 1), "white"),
    ],
}


def test_area_of_a_hand_built_position():
    rs = rule_set("T", BASE, board=AREA_BOARD, reserves={"black": 1}, stalemate="most-area-wins")
    core = make_core(rs)
    assert core.side_scores() == [9, 10]
    ref = ReferenceState(rs)
    assert [ref.side_score(s, "area") for s in (0, 1)] == [9, 10]


def test_area_in_three_dimensions_and_a_sealed_pocket():
    # 3x1x2 squares: black (1,1,1), white (2,1,1) and (1,1,2): the cells
    # (2,1,2), (3,1,2), (3,1,1) form one empty region touching white only
    # (black's neighbours are both white), so black 1, white 2 + 3 = 5.
    board = {
        "kind": "squares",
        "size": [3, 1, 2],
        "pieces": [piece((1, 1, 1), "black"), piece((2, 1, 1), "white"), piece((1, 1, 2), "white")],
    }
    rs = rule_set("T", BASE, board=board, reserves={"black": 1}, stalemate="least-area-wins")
    assert make_core(rs).side_scores() == [1, 5]


# 3x3:  y=3: W . W     black: (1,1) (2,1) (3,1)
#       y=2: . W .     white: (1,3) (3,3) (2,2)
#       y=1: B B B
LINE_BOARD = {
    "kind": "squares",
    "size": [3, 3, 1],
    "pieces": [
        piece((1, 1, 1), "black"),
        piece((2, 1, 1), "black"),
        piece((3, 1, 1), "black"),
        piece((1, 3, 1), "white"),
        piece((3, 3, 1), "white"),
        piece((2, 2, 1), "white"),
    ],
}


@pytest.mark.parametrize(
    "stalemate, scores",
    [
        ("most-2-in-a-row-wins", [2, 2]),  # black's row holds two pairs; white's two diagonal pairs
        ("least-3-in-a-row-loses", [1, 0]),
        ("most-in-a-row-loses", [3, 2]),
        ("least-pieces-wins", [3, 3]),
        ("most-circles-wins", [3, 3]),
    ],
)
def test_counts_of_a_hand_built_position(stalemate, scores):
    rs = rule_set("T", BASE, board=LINE_BOARD, reserves={"black": 1}, stalemate=stalemate)
    assert make_core(rs).side_scores() == scores


def test_pieces_against_chaos_scores_list_chaos_last():
    board = {
        "kind": "squares",
        "size": [3, 3, 1],
        "pieces": [piece((1, 1, 1), "black"), piece((2, 1, 1), "black"), piece((3, 3, 1), "pink")],
    }
    rs = rule_set(
        "T",
        BASE,
        board=board,
        players="2-vs-chaos",
        reserves={"white": 1},
        stalemate="more-pieces-than-chaos-wins-fewer-loses",
    )
    assert make_core(rs).side_scores() == [2, 0, 1]


def test_most_and_least_area_decide_the_stalemate():
    # black placed at (4,4), in white's pocket {(4,4),(4,3)}: black now reaches
    # (4,3) too: 4 + 1 + 1 + 3 + 1 + 1 = 11; white loses (4,4): 5 + 1 + 1 + 1 + 1 = 9
    for stalemate, expected in (
        ("most-area-wins", [1.0, -1.0]),
        ("least-area-wins", [-1.0, 1.0]),
        ("most-area-loses", [-1.0, 1.0]),
    ):
        rs = rule_set("T", BASE, board=AREA_BOARD, reserves={"black": 1}, stalemate=stalemate)
        core = play_at(rs, [(4, 4)])
        assert core.terminal() and core.side_scores() == [11, 9]
        assert core.returns_list() == expected, stalemate


def test_every_side_tied_is_a_draw():
    # black (1,2) adds the pairs (1,1)-(1,2) and (1,2)-(2,1): 4 against white's 2
    rs = rule_set("T", BASE, board=LINE_BOARD, reserves={"black": 1}, stalemate="most-2-in-a-row-wins")
    core = play_at(rs, [(1, 2)])
    assert core.side_scores() == [4, 2] and core.returns_list() == [1.0, -1.0]
    # white (3,2) answers with (3,2)-(3,3) and (2,2)-(3,2): 4 against 4
    rs = rule_set(
        "T", BASE, board=LINE_BOARD, reserves={"black": 1, "white": 1}, stalemate="most-2-in-a-row-wins"
    )
    core = play_at(rs, [(1, 2), (3, 2)])
    assert core.side_scores() == [4, 4] and core.returns_list() == [0.0, 0.0]
    rs = rule_set("T", BASE, board=LINE_BOARD, reserves={"black": 1}, stalemate="least-2-in-a-row-loses")
    core = play_at(rs, [(2, 3)])  # white (2,3) is black's: no new black pair -> 2 vs 2
    assert core.terminal() and core.side_scores() == [2, 2] and core.returns_list() == [0.0, 0.0]


def test_any_piece_wins_and_any_piece_loses():
    base = dict(
        board={"kind": "squares", "size": [1, 3, 1]},
        players="4",
        reserves={"black": 1, "white": 1, "pink": 1, "yellow": 1},
    )
    core = play_at(
        rule_set("T", BASE, **base, turn_checks=["any-piece-wins"], stalemate="all-lose"), [(1, 2)]
    )
    assert core.returns_list() == [1.0, -1.0, -1.0, -1.0] and core.ending() == "turn check"
    assert core.chaos_outcome() == 0.0
    core = play_at(
        rule_set("T", BASE, **base, turn_checks=["any-piece-loses"], stalemate="all-win"), [(1, 2)]
    )
    assert core.returns_list() == [-1.0, 1.0, 1.0, 1.0]


def test_pre_placed_pieces_do_not_trigger_any_piece_wins():
    rs = rule_set(
        "T",
        BASE,
        board={"kind": "squares", "size": [3, 1, 1], "pieces": [piece((1, 1, 1), "white")]},
        reserves={"black": 1},
        turn_checks=["any-piece-wins"],
    )
    core = make_core(rs)
    assert not core.terminal()
    core.apply_action(2)
    assert core.returns_list() == [1.0, -1.0]


def test_pieces_against_chaos():
    base = dict(players="2-vs-chaos", reserves={"black": 3, "white": 1, "pink": 2})
    # black, white, Chaos, black, then white has nothing: stalemate with 2 / 1 / 1
    cases = {
        "more-pieces-than-chaos-wins-fewer-loses": [1.0, 0.0],
        "more-pieces-than-chaos-wins": [1.0, -1.0],
        "fewer-pieces-than-chaos-loses": [1.0, 1.0],
    }
    for stalemate, expected in cases.items():
        core = play_at(rule_set("T", BASE, **base, stalemate=stalemate), [(1, 1), (2, 2), (3, 3)])
        assert core.terminal() and core.side_scores() == [2, 1, 1], stalemate
        assert core.returns_list() == expected, stalemate
    core = play_at(
        rule_set("T", BASE, **base, stalemate="fewer-pieces-than-chaos-loses"), [(1, 1), (2, 2), (3, 3)]
    )
    assert core.chaos_outcome() == -1.0  # every player won: "Chaos loses"


def test_chaos_wins_if_total_circles_exceed():
    base = dict(
        players="2-vs-chaos", reserves={"black": 2, "white": 2, "pink": 1}, stalemate="least-pieces-loses"
    )
    # b, w, Chaos, b, w, then Chaos has nothing left: 5 circles on the board
    core = play_at(
        rule_set("T", BASE, **base, chaos_wins_if_more_than={"circle": 4}), [(1, 1), (2, 1), (1, 3), (2, 3)]
    )
    assert core.terminal() and core.returns_list() == [-1.0, -1.0] and core.chaos_outcome() == 1.0
    core = play_at(
        rule_set("T", BASE, **base, chaos_wins_if_more_than={"circle": 5}), [(1, 1), (2, 1), (1, 3), (2, 3)]
    )
    assert core.returns_list() == [1.0, 1.0] and core.chaos_outcome() == -1.0  # pink has least


def test_chaos_wins_without_a_chaos_seat():
    core = play_at(
        rule_set("T", BASE, reserves={"black": 2, "white": 1}, chaos_wins_if_more_than={"circle": 2}),
        [(1, 1), (2, 2), (3, 1)],
    )
    assert core.returns_list() == [-1.0, -1.0] and core.chaos_outcome() == 1.0


OVER = dict(
    players="4", overachievers_disqualified=True, reserves={"black": 3, "white": 3, "pink": 3, "yellow": 3}
)


def test_first_winner_is_disqualified_and_play_goes_on():
    rs = rule_set(
        "T", BASE, board={"kind": "squares", "size": [8, 1, 1]}, turn_checks=["first-2-wins"], **OVER
    )
    core = play_at(rs, [(1, 1), (3, 1), (5, 1), (7, 1), (2, 1)])  # black completes two
    assert not core.terminal() and core.disqualified_players() == [0] and core.seat_to_move() == 1
    core.apply_action(3)  # white (4,1): second to get two
    assert core.returns_list() == [-1.0, 1.0, -1.0, -1.0] and core.ending() == "turn check"


def test_a_disqualified_players_second_line_does_not_end_the_game():
    rs = rule_set(
        "T", BASE, board={"kind": "squares", "size": [12, 1, 1]}, turn_checks=["first-2-wins"], **OVER
    )
    # black 1, white 4, pink 7, yellow 10; black 2: disqualified; white 12, pink 9,
    # yellow 6 (no pairs); black 3: a longer line of a disqualified player, ignored
    core = play_at(rs, [(1, 1), (4, 1), (7, 1), (10, 1), (2, 1), (12, 1), (9, 1), (6, 1), (3, 1)])
    assert not core.terminal() and core.disqualified_players() == [0] and core.seat_to_move() == 1


def test_second_most_pieces_wins_at_stalemate():
    # 3x3, black 2 white 2 pink 2 yellow 1: after two rounds yellow cannot
    # place: black, white and pink tie for most and are disqualified; yellow,
    # alone among the rest, has the second most and wins
    rs = rule_set(
        "T",
        BASE,
        players="4",
        overachievers_disqualified=True,
        stalemate="most-pieces-wins",
        reserves={"black": 2, "white": 2, "pink": 2, "yellow": 1},
    )
    core = play_at(rs, [(1, 1), (2, 1), (3, 1), (1, 2), (2, 2), (3, 2), (1, 3)])
    assert core.terminal() and core.returns_list() == [-1.0, -1.0, -1.0, 1.0]
    assert core.disqualified_players() == [0, 1, 2]
    # without the rule the three with most pieces win
    plain = rule_set(
        "T",
        BASE,
        players="4",
        stalemate="most-pieces-wins",
        reserves={"black": 2, "white": 2, "pink": 2, "yellow": 1},
    )
    core = play_at(plain, [(1, 1), (2, 1), (3, 1), (1, 2), (2, 2), (3, 2), (1, 3)])
    assert core.returns_list() == [1.0, 1.0, 1.0, -1.0]


def test_all_disqualified_means_chaos_wins():
    rs = rule_set(
        "T",
        BASE,
        players="4",
        overachievers_disqualified=True,
        stalemate="all-win",
        reserves={"black": 1, "white": 1, "pink": 1, "yellow": 1},
    )
    core = play_at(rs, [(1, 1), (2, 1), (3, 1), (1, 2)])
    assert core.returns_list() == [-1.0] * 4 and core.chaos_outcome() == 1.0


def test_a_losing_line_disqualifies_everyone_else():
    rs = rule_set(
        "T", BASE, board={"kind": "squares", "size": [8, 1, 1]}, turn_checks=["first-2-loses"], **OVER
    )
    core = play_at(rs, [(1, 1), (3, 1), (5, 1), (7, 1), (2, 1)])
    assert core.returns_list() == [-1.0] * 4 and core.chaos_outcome() == 1.0


def outcome_rule_sets():
    out = []

    def add(name, **kw):
        out.append(rule_set(name, BASE, **kw))

    add(
        "area-most",
        board={"kind": "squares", "size": [4, 3, 1], "locked": [[2, 2, 1]]},
        reserves={"black": 5, "white": 5},
        turn_checks=["first-3-wins"],
        stalemate="most-area-wins",
    )
    add(
        "area-least-move",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": 3, "white": 3},
        shapes={"circle": {"move": "adjacent-orthogonal"}},
        move_limit=30,
        stalemate="least-area-wins",
    )
    add(
        "area-stacks-3p",
        board={"kind": "stacks", "size": [3, 2, 3]},
        players="3",
        reserves={"black": 4, "white": 4, "pink": 4},
        stalemate="most-area-loses",
    )
    add(
        "area-partners",
        players="partners",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": 3, "white": 3, "pink": 3, "yellow": 3},
        stalemate="least-area-loses",
    )
    add(
        "pieces-least-loses-pass",
        players="3",
        reserves={"black": 3, "white": 3, "pink": 3},
        phases=[{"pass": True}],
        stalemate="least-pieces-loses",
    )
    add(
        "circles-most-wins",
        players="3",
        reserves={"black": 3, "white": 2, "pink": 2},
        turn_checks=["first-2-loses-no-diagonal"],
        stalemate="most-circles-wins",
    )
    add(
        "two-in-a-row",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": 5, "white": 5},
        stalemate="most-2-in-a-row-wins",
    )
    add(
        "least-2-in-a-row-chaos",
        players="3-vs-chaos",
        reserves={"black": 2, "white": 2, "pink": 2, "yellow": 3},
        stalemate="least-2-in-a-row-loses",
    )
    add(
        "in-a-row-loses",
        players="4",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": 3, "white": 3, "pink": 3, "yellow": 3},
        stalemate="most-in-a-row-loses",
    )
    add(
        "vs-chaos-both",
        players="2-vs-chaos",
        reserves={"black": 3, "white": 3, "pink": 3},
        phases=[{"pass": True, "locked_players": ["chaos"]}, {"pass": True, "locked_players": [1, 2]}],
        stalemate="more-pieces-than-chaos-wins-fewer-loses",
    )
    add(
        "vs-chaos-fewer-loses",
        players="3-vs-chaos",
        board={"kind": "squares", "size": [4, 3, 1]},
        reserves={"black": 2, "white": 3, "pink": 1, "yellow": 3},
        phases=[{"pass": True}],
        stalemate="fewer-pieces-than-chaos-loses",
    )
    add(
        "shopping",
        players="2-vs-chaos",
        board={"kind": "stacks", "size": [3, 1, 4]},
        reserves={"black": 4, "white": 3, "pink": 3},
        stalemate="least-pieces-loses",
        chaos_wins_if_more_than={"circle": 5},
        phases=[
            {"pass": True, "locked_players": [2, "chaos"]},
            {"pass": True, "locked_players": [1, "chaos"]},
            {"pass": True, "locked_players": [1, 2]},
        ],
    )
    add(
        "trend-setter",
        players="4",
        board={"kind": "squares", "size": [1, 3, 1]},
        reserves={"black": 1, "white": 1, "pink": 1, "yellow": 1},
        phases=[{"pass": True}],
        turn_checks=["any-piece-wins"],
        stalemate="all-lose",
    )
    add(
        "trend-follower",
        players="4",
        board={"kind": "squares", "size": [1, 3, 1]},
        reserves={"black": 1, "white": 1, "pink": 1, "yellow": 1},
        phases=[{"pass": True}],
        turn_checks=["any-piece-loses"],
        stalemate="all-win",
    )
    add(
        "over-checks",
        board={"kind": "squares", "size": [5, 5, 1]},
        **OVER,
        turn_checks=["first-2-wins-no-diagonal", "first-3-loses"],
        stalemate="most-pieces-wins",
    )
    add(
        "over-stalemate",
        **dict(OVER, reserves={"black": 3, "white": 2, "pink": 2, "yellow": 2}),
        phases=[{"pass": True}],
        stalemate="most-in-a-row-wins",
    )
    add(
        "over-move",
        board={"kind": "squares", "size": [4, 4, 1]},
        **OVER,
        shapes={"circle": {"move": "adjacent"}},
        move_limit=40,
        turn_checks=["first-3-wins"],
        stalemate="least-2-in-a-row-loses",
    )
    add("over-all-win-draws", **OVER, agree_draw=True, stalemate="all-win")
    return out


OUTCOME_SETS = outcome_rule_sets()


def _ending_counts(rs, n, seed):
    rng = random.Random(seed)
    seen = {}
    for _ in range(n):
        core = make_core(rs)
        ref = ReferenceState(rs)
        while not core.terminal():
            if core.player() == -1:
                a = rng.choice([a for a, _ in core.chance_outcome_list()])
            else:
                a = rng.choice(core.legal_action_list())
            core.apply_action(a)
            ref.apply(a)
        assert core.returns_list() == ref.returns()
        assert core.chaos_outcome() == ref.chaos_outcome()
        assert core.disqualified_players() == sorted(ref.disqualified)
        key = tuple(core.returns_list())
        seen[key] = seen.get(key, 0) + 1
    return seen


@pytest.mark.parametrize("rs", OUTCOME_SETS, ids=lambda rs: rs.name)
def test_outcome_rule_sets_match_reference_move_by_move(rs):
    play_against_reference(rs, games=sweep(full=60, quick=6), seed=sum(map(ord, rs.name)))


@pytest.mark.parametrize("rs", OUTCOME_SETS, ids=lambda rs: rs.name)
def test_outcome_rule_sets_match_reference_ending_by_ending(rs):
    seen = _ending_counts(rs, n=sweep(full=150, quick=15), seed=11)
    # the random games reach more than one ending, so the comparison is not vacuous
    assert len(seen) >= 2, (rs.name, seen)


@pytest.mark.slow
@pytest.mark.parametrize("rs", OUTCOME_SETS, ids=lambda rs: rs.name)
def test_outcome_rule_sets_match_reference_long(rs):
    play_against_reference(rs, games=1500, seed=5)


def _load(rs, tmp_path):
    path = tmp_path / f"{rs.name}.json"
    path.write_text(json.dumps(rs.to_json()))
    return pyspiel.load_game(f"ttt(rules={path})")


@pytest.mark.parametrize("rs", OUTCOME_SETS, ids=lambda rs: rs.name)
def test_random_sim_test_and_type_claims(rs, tmp_path):
    game = _load(rs, tmp_path)
    pyspiel.random_sim_test(game, num_sims=sweep(full=20, quick=1), serialize=True, verbose=False)
    gtype, zero_sum = game.get_type(), game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    rng = random.Random(2)
    for _ in range(100):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        returns = state.returns()
        assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
        if zero_sum:
            assert sum(returns) == 0.0, (rs.name, returns)
        assert state.chaos_outcome() == state.core.chaos_outcome()
    assert gtype.chance_mode == (
        pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        if rs.chaos
        else pyspiel.GameType.ChanceMode.DETERMINISTIC
    )


def test_zero_sum_claims_of_outcome_rules():
    two = dict(reserves={"black": 5, "white": 4})
    for stalemate in (
        "most-area-wins",
        "least-area-loses",
        "most-2-in-a-row-loses",
        "least-circles-wins",
        "most-pieces-loses",
    ):
        assert rules.outcome_profile(rule_set("T", BASE, **two, stalemate=stalemate))["zero_sum"], stalemate
    assert rules.outcome_profile(rule_set("T", BASE, **two, turn_checks=["any-piece-wins"]))["zero_sum"]
    # "Chaos wins if ..." makes both players lose together: not zero-sum
    assert not rules.outcome_profile(rule_set("T", BASE, **two, chaos_wins_if_more_than={"circle": 3}))[
        "zero_sum"
    ]
    assert not rules.outcome_profile(rule_set("T", BASE, **OVER, stalemate="most-pieces-wins"))["zero_sum"]


def test_chaos_outcome_on_the_openspiel_state(tmp_path):
    rs = rule_set("T", BASE, reserves={"black": 2, "white": 1}, chaos_wins_if_more_than={"circle": 2})
    state = _load(rs, tmp_path).new_initial_state()
    assert state.chaos_outcome() == 0.0
    for a in (0, 4, 2):
        state.apply_action(a)
    assert state.is_terminal() and state.returns() == [-1.0, -1.0] and state.chaos_outcome() == 1.0


def test_every_outcome_problem_is_listed_at_once():
    with pytest.raises(rules.RuleSetError) as err:
        rules.parse(
            {
                "name": "bad",
                "reserves": {"black": 5, "white": 4},
                "players": "3",
                "turn_checks": ["goal-reached-stalemate", "any-piece-wins"],
                "stalemate": "more-pieces-than-chaos-wins",
                "chaos_wins_if_more_than": {"circle": -1, "triangle": 3, "hexagon": 1},
                "overachievers_disqualified": True,
            },
        )
    text = str(err.value)
    for needle in (
        "stalemate: 'more-pieces-than-chaos-wins' compares each player with Chaos",
        "chaos_wins_if_more_than.circle: -1 is not allowed",
        "chaos_wins_if_more_than.triangle: shape 'triangle' has no entry in shapes",
        "chaos_wins_if_more_than.hexagon: unknown shape",
        "adds it to 4-player games",  # overachievers_disqualified
    ):
        assert needle in text, needle
    assert len(err.value.problems) == 5  # goal-reached-stalemate is a valid turn check
    with pytest.raises(
        rules.RuleSetError, match="'most-pentagons-wins' counts pentagons, which have no entry"
    ):
        rules.parse(
            {"name": "bad", "reserves": {"black": 5, "white": 4}, "stalemate": "most-pentagons-wins"},
        )
    with pytest.raises(rules.RuleSetError, match="overachievers_disqualified: 'yes' is not allowed"):
        rules.parse(
            {
                "name": "bad",
                "players": "4",
                "reserves": {"black": 2, "white": 2, "pink": 2, "yellow": 2},
                "overachievers_disqualified": "yes",
            },
        )
    with pytest.raises(rules.RuleSetError, match="must be an object"):
        rules.parse({"name": "bad", "reserves": {"black": 5}, "chaos_wins_if_more_than": [9]})


def test_outcome_fields_in_the_canonical_form():
    a = rules.parse({"name": "A", "reserves": {"black": 5, "white": 4}})
    assert json.loads(a.canonical)["chaos_wins_if_more_than"] == {}
    assert json.loads(a.canonical)["overachievers_disqualified"] is False
    b = rule_set("B", BASE, chaos_wins_if_more_than={"circle": 9}, stalemate="least-area-wins")
    c = rule_set("C", BASE, stalemate="least-area-wins", chaos_wins_if_more_than={"circle": 9})
    assert b == c and b.fingerprint == c.fingerprint
    assert b != rule_set("T", BASE, chaos_wins_if_more_than={"circle": 8}, stalemate="least-area-wins")
    assert b != rule_set("T", BASE, chaos_wins_if_more_than={"circle": 9}, stalemate="most-area-wins")


def test_catalogue_stays_on_the_original_scoring_path():
    """The 16 sequential games; the dilemmas' outcomes are what the general path is for."""
    from games.ttt.dilemmas import DILEMMAS, VARIANTS

    dilemmas = {d.name for d in DILEMMAS + VARIANTS}
    for name, rs in rules.catalogue().items():
        if name in dilemmas:
            continue
        assert not rs.compile()["general_outcome"], name
        assert make_core(rs).side_scores() == []


@settings(max_examples=sweep(full=80, quick=10), deadline=None, suppress_health_check=list(HealthCheck))
@given(outcome_records(), st.integers(0, 10**6))
def test_random_outcome_rule_sets_match_reference(rec, seed):
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=4, seed=seed)
    _ending_counts(rs, n=4, seed=seed)


def test_partners_most_pieces_counts_both_colours_of_a_side():
    # partners, assigned colours: seats 1+3 are black+pink, 2+4 white+yellow.
    # black, white, pink place, then yellow has nothing: black+pink 2, white+yellow 1
    rs = rule_set(
        "T",
        BASE,
        players="partners",
        stalemate="most-pieces-wins",
        reserves={"black": 1, "white": 2, "pink": 1},
    )
    core = play_at(rs, [(1, 1), (2, 1), (3, 1)])
    assert core.terminal() and core.side_scores() == [2, 1]
    assert core.returns_list() == [1.0, -1.0, 1.0, -1.0]

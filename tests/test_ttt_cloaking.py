"""Cloaking: what each seat sees (docs/rules/ttt/cloaking.md): a player
fully sees every piece it placed, every piece it can move (per shape), every
piece on a non-cloaked space and every piece it has fully seen before; under
obscurity also every piece of its own colours and the colour of every other
piece. Its legal actions are those of the position as it sees it; an action
legal there but not in truth only reveals and ends the turn (an attempt);
Chaos plays the true position. With shapes, stacks ("appear" is the mover's
view of a stack), pre-placed pieces and per-shape reserves; hidden turns
(``cloaking_hides_turns``, KBeauty9: another seat's unseen turn leaves no
trace). Captures, jumps and rounds with cloaked spaces are
test_ttt_cloaking_captures.py's, test_ttt_cloaking_jumps.py's and
test_ttt_cloaking_rounds.py's.

Small cloaked rule sets are played by the engine and by the reference model
(tests/ttt_reference/) move by move, comparing the player to move, the
legal actions, the chance outcomes, what every player sees, the attempts and
the returns; hand-played histories pin what each seat must and must not see
and that two histories a seat cannot tell apart look identical to it. Cells
are x + X*(y + Y*z) from 0; on a 3x3 board a piece of shape index k placed
on cell c is action 9*k + c."""

import json
import random
from itertools import product

import numpy as np
import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games  # noqa: F401  (registers ttt)
from games.openspiel import core_of
from games.ttt import make_core, rules
from games.ttt.resolve import REPO_ROOT
from mcts.worlds import WorldSampler, enumerate_worlds, first_world, knowledge_of
from tiers import sweep
from ttt_checks import (
    assert_all_differ,
    assert_views_partition_histories,
    by_stack_moves,
    cloaked_rule_set,
    legal_by_string,
    piece,
    play_against_reference,
    random_sim_test_of,
    rule_set,
    same_pieces,
    saved_rule_set,
    stack_column,
    state_after,
    views,
)
from ttt_reference import ReferenceState, hidden_turns_key, hidden_turns_step

GT = pyspiel.GameType
HIDES = {
    "board": {"kind": "squares", "size": [3, 3, 1]},
    "reserves": {"black": 5, "white": 4},
    "cloaking": "hides",
    "line_moves": "over-pieces",  # blocking is refused with cloaked spaces
}
ROW1 = [[1, 1, 1], [2, 1, 1], [3, 1, 1]]
ALL9 = [[x, y, 1] for x in (1, 2, 3) for y in (1, 2, 3)]


def hides(name, **fields):
    return rule_set(name, HIDES, **fields)


# -- small cloaked rule sets against the reference model --------------------------------------


def cloaked_sets():
    """Small rule sets, each exercising one part of cloaking."""
    return [
        hides("hides-row", phases=[{"cloaked": ROW1}]),
        hides(
            "hides-all-pass-then-open",
            turn_checks=[],
            stalemate="most-in-a-row-wins",
            reserves={"black": 3, "white": 3},
            phases=[{"pass": True, "cloaked": ALL9}, {"pass": True, "cloaked": ROW1}, {"pass": True}],
        ),
        hides(
            "hides-move",
            reserves={"black": 3, "white": 3},
            shapes={"circle": {"move": "adjacent"}},
            move_limit=30,
            phases=[{"cloaked": ALL9}],
        ),
        hides(
            "hides-shared-move",
            colours="shared",
            reserves={"black": 5},
            shapes={"circle": {"move": "adjacent"}},
            move_limit=24,
            turn_checks=["first-3-loses"],
            phases=[{"pass": True, "cloaked": ALL9}],
        ),
        hides(
            "hides-chaos",
            players="2-vs-chaos",
            reserves={"black": 3, "white": 3, "pink": 3},
            phases=[{"cloaked": ALL9[:6]}],
        ),
        hides(
            "hides-preplaced-knight",
            board={"kind": "squares", "size": [3, 3, 1], "pieces": [{"at": [2, 2, 1], "colour": "white"}]},
            reserves={"black": 2, "white": 2},
            shapes={"circle": {"move": "linear-or-knight"}},
            move_limit=20,
            phases=[
                {"movement": "placement-only", "cloaked": ALL9},
                {"cloaked": ALL9, "locked": [[1, 1, 1]]},
            ],
        ),
        hides(
            "hides-stacks",
            board={"kind": "stacks", "size": [3, 1, 3]},
            reserves={"black": 4, "white": 4},
            shapes={"circle": {"move": "adjacent"}},
            move_limit=25,
            turn_checks=["first-3-wins-no-diagonal"],
            phases=[{"cloaked": [[x, 1, z] for x in (1, 2, 3) for z in (1, 2, 3)]}],
        ),
        hides(
            "hides-stacks-pass",
            board={"kind": "stacks", "size": [2, 1, 4]},
            reserves={"black": 4, "white": 4},
            turn_checks=[],
            stalemate="most-pieces-wins",
            phases=[{"pass": True, "cloaked": [[x, 1, z] for x in (1, 2) for z in (1, 2, 3, 4)]}],
        ),
        hides(
            "hides-choose-two",
            colours="players-choose",
            reserves={"black": 4, "pink": 4},
            pieces_per_turn=2,
            agree_draw=True,
            phases=[{"cloaked": ALL9}],
        ),
        hides(
            "obscures-row",
            cloaking="obscures",
            shapes={"circle": {"move": "adjacent"}},
            move_limit=20,
            reserves={"black": 3, "white": 3},
            phases=[{"cloaked": ROW1}],
        ),
    ]


CLOAKED_SETS = cloaked_sets()


@pytest.mark.parametrize("rs", CLOAKED_SETS, ids=lambda rs: rs.name)
def test_cloaked_rule_sets_match_reference(rs):
    attempts = play_against_reference(rs, games=sweep(full=40, quick=5), seed=len(rs.name)).attempts
    if rs.record["cloaking"] == "hides":
        assert attempts > 0, "no attempt that only reveals was played"


@pytest.mark.slow
@pytest.mark.parametrize("rs", CLOAKED_SETS, ids=lambda rs: rs.name)
def test_cloaked_rule_sets_match_reference_long(rs):
    play_against_reference(rs, games=800, seed=11)


@pytest.mark.parametrize("rs", CLOAKED_SETS, ids=lambda rs: rs.name)
def test_random_sim_with_serialisation(rs):
    path = rs.name
    game = pyspiel.load_game("ttt", {"rules": saved_rule_set(rs)})
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION, path
    pyspiel.random_sim_test(game, num_sims=sweep(full=15, quick=1), serialize=True, verbose=False)


def test_example_rule_set_loads_by_path_and_plays():
    path = "games/ttt/examples/Phantom-TTT-Corners.json"
    game = pyspiel.load_game(f"ttt(rules={path})")
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    pyspiel.random_sim_test(game, num_sims=sweep(full=10, quick=1), serialize=True, verbose=False)
    play_against_reference(rules.resolve(path), games=20, seed=5)


def test_cloaking_is_part_of_the_canonical_form_and_validated():
    a = hides("A", phases=[{"cloaked": ROW1}])
    b = hides("B", phases=[{"cloaked": list(reversed(ROW1))}])
    assert a == b and a.fingerprint == b.fingerprint
    assert a != hides("A", cloaking="obscures", phases=[{"cloaked": ROW1}])
    assert a != hides("A", phases=[{"cloaked": ROW1[:2]}])
    with pytest.raises(rules.RuleSetError) as info:
        hides("bad", cloaking="invisible", phases=[{"cloaked": [[4, 1, 1], [1, 1, 1], [1, 1, 1]]}])
    msgs = info.value.problems
    assert any(m.startswith("cloaking: 'invisible'") and "none, hides, obscures" in m for m in msgs)
    assert any(m.startswith("phases[0].cloaked[0]") for m in msgs)
    assert any(m.startswith("phases[0].cloaked[2]") and "listed twice" in m for m in msgs)


# -- what each player knows: histories it cannot, or can, tell apart ----------------------------


HIDES_ROW = hides("views-hides-row", phases=[{"cloaked": ROW1}])

OBSCURES_ROW = hides("views-obscures-row", cloaking="obscures", phases=[{"cloaked": ROW1}])


def test_opponent_on_one_of_two_cloaked_spaces_looks_the_same():
    left, right = state_after(HIDES_ROW, 0, 4), state_after(HIDES_ROW, 2, 4)
    assert views(left, 1) == views(right, 1)  # white cannot tell cell 0 from cell 2
    assert_all_differ(views(left, 0), views(right, 0))  # black placed them: it can
    left.apply_action(8)
    right.apply_action(8)  # black on 8 (open): white to move
    assert views(left, 1) == views(right, 1)
    assert left.legal_actions() == right.legal_actions() == [0, 1, 2, 3, 5, 6, 7]


def test_cloaked_and_open_placements_are_told_apart():
    hidden, open_ = state_after(HIDES_ROW, 0), state_after(HIDES_ROW, 3)
    assert_all_differ(views(hidden, 1), views(open_, 1))
    assert "x" not in "".join(core_of(hidden).player_view(1))
    assert core_of(open_).player_view(1)[3] == "x"


def test_obscurity_shows_where_so_the_two_placements_differ():
    left, right = state_after(OBSCURES_ROW, 0, 4), state_after(OBSCURES_ROW, 2, 4)
    assert_all_differ(views(left, 1), views(right, 1))
    assert core_of(left).player_view(1)[0] == "X"  # colour, not shape
    assert core_of(left).player_view(0)[0] == "x"  # its own colour: fully


def test_an_attempt_is_remembered_and_reveals_only_to_its_player():
    # black hides on 0; white tries 0: only reveals, nothing moves, black to move
    s = state_after(HIDES_ROW, 0, 4, 1)
    assert 0 in s.legal_actions()  # white does not see the piece
    s.apply_action(0)
    c = core_of(s)
    assert c.last_event()["attempt"] and c.cells()[0] == 1 and c.reserves()["white"] == 3
    assert s.current_player() == 0
    assert c.player_view(1)[0] == "x" and c.player_view(1)[1] == "."  # 1 stays hidden
    # black learns that white attempted something, not where: same views as an attempt on 1
    other = state_after(HIDES_ROW, 0, 4, 1, 1)
    assert core_of(other).last_event()["attempt"]
    assert views(s, 0) == views(other, 0)
    assert_all_differ(views(s, 1), views(other, 1))
    # white remembers it: it no longer may place on 0
    assert 0 not in s.clone().child(8).legal_actions()


@settings(max_examples=sweep(full=12, quick=2), deadline=None)
@given(
    case=st.sampled_from(range(len(cloaked_sets()))),
    seeds=st.lists(st.integers(0, 10**6), min_size=4, max_size=8),
)
def test_views_partition_histories_consistently(case, seeds):
    """Within each player's information sets: one tensor, one key, one
    observation, the same legal actions when it moves and the same own past
    (its earlier information states and actions: perfect recall); across
    them, different tensors and keys."""
    assert_views_partition_histories(cloaked_sets()[case], seeds)


def test_previously_seen_stays_seen_when_its_space_is_cloaked_later():
    rs = hides(
        "views-open-then-cloaked",
        turn_checks=[],
        reserves={"black": 2, "white": 2},
        phases=[{"pass": True}, {"pass": True, "cloaked": ALL9}],
    )
    c = make_core(rs)
    for a in (0, 9, 9):  # black on 0 in the open phase; both pass: phase 2
        c.apply_action(a)
    assert c.current_phase() == 1
    c.apply_action(4)  # black hides on 4
    assert c.player_view(1)[0] == "x" and c.player_view(1)[4] == "."


def test_a_piece_its_player_can_move_is_seen_even_if_someone_else_placed_it():
    # shared colour: white placed on 1 unseen by black; once black's reserve is
    # empty it can move every black piece, so it sees this one
    rs = hides(
        "views-shared",
        colours="shared",
        reserves={"black": 3},
        turn_checks=[],
        shapes={"circle": {"move": "adjacent"}},
        move_limit=10,
        phases=[{"cloaked": ALL9}],
    )
    c = make_core(rs)
    c.apply_action(0)  # black
    c.apply_action(1)  # white
    assert c.player_view(0)[1] == "."
    c.apply_action(5)  # black: the last piece in reserve is gone
    assert c.reserves()["black"] == 0 and c.player_view(0)[1] == "x" and c.player_view(1)[0] == "x"


def test_chaos_plays_the_true_position_and_players_do_not_see_its_hidden_pieces():
    rs = hides(
        "views-chaos",
        players="2-vs-chaos",
        reserves={"black": 3, "white": 3, "pink": 3},
        phases=[{"cloaked": ALL9}],
    )
    s = state_after(rs, 0, 1)  # black on 0, white on 1: Chaos to place
    assert s.is_chance_node()
    assert [a for a, _ in s.chance_outcomes()] == [2, 3, 4, 5, 6, 7, 8]  # never an attempt
    s.apply_action(5)
    c = core_of(s)
    assert c.player_view(0)[5] == "." and c.player_view(1)[5] == "."
    assert views(s, 0) == views(state_after(rs, 0, 1, 6), 0)


def test_stacks_a_hidden_full_stack_is_an_attempt_and_a_landing_on_hidden_pieces_is_real():
    rs = hides(
        "views-stacks",
        board={"kind": "stacks", "size": [2, 1, 2]},
        turn_checks=[],
        reserves={"black": 3, "white": 3},
        phases=[{"pass": True, "cloaked": [[1, 1, 1], [1, 1, 2], [2, 1, 1], [2, 1, 2]]}],
    )
    c = make_core(rs)
    c.apply_action(0)  # black on stack 0 (hidden from white)
    c.apply_action(0)  # white lands on it: a real placement
    assert not c.last_event()["attempt"] and c.cells()[:4] == [1, 0, 2, 0]
    assert c.player_view(1) == [".", ".", "o", "."]  # white sees its own piece, not the one below
    c.apply_action(1)  # black on stack 1
    c.apply_action(1)  # white on stack 1: lands on top (real)
    c.apply_action(2)  # black passes
    # white, one piece left, sees only its own pieces, but they sit on top:
    # both stacks look full
    assert c.reserves()["white"] == 1 and c.legal_action_list() == [2]
    c2 = make_core(rs)
    for a in (0, 1, 0):  # black 0, white 1, black 0: stack 0 full, white saw nothing
        c2.apply_action(a)
    assert 0 in c2.legal_action_list()
    c2.apply_action(0)
    assert c2.last_event()["attempt"] and c2.player_view(1)[0] == "x" and c2.player_view(1)[2] == "x"


def _preplaced(move, cloaking="hides"):
    """Black (seat 0) has nothing in reserve, and a black
    circle of movement ``move`` stands pre-placed on the cloaked (1,1,1);
    nobody placed it."""
    return cloaked_rule_set(
        f"seen-preplaced-{move}-{cloaking}",
        cloaking=cloaking,
        board={
            "kind": "squares",
            "size": [3, 3, 1],
            "pieces": [
                {"at": [1, 1, 1], "colour": "black", "shape": "circle"},
                {"at": [3, 3, 1], "colour": "black", "shape": "triangle"},
            ],
        },
        shapes={"circle": {"move": move}, "triangle": {"move": "adjacent"}},
        reserves={"black": {}, "white": {"triangle": 2}},
        move_limit=10,
        phases=[{"cloaked": [[1, 1, 1], [2, 2, 1]]}],
    )


def test_a_stationary_piece_its_owner_did_not_place_stays_hidden_from_it():
    s = state_after(_preplaced("stationary"))
    core = core_of(s)
    assert s.current_player() == 0
    assert core.player_view(0)[0] == "." and core.player_shape_view(0)[0] == "."
    assert core.player_view(1)[0] == "."
    # the open triangle on (3,3,1) is seen by both; black may move only it
    assert core.player_view(0)[8] == core.player_view(1)[8] == "x"
    assert [s.action_to_string(a) for a in s.legal_actions()] == [
        "(3,3,1)->(2,2,1)",
        "(3,3,1)->(3,2,1)",
        "(3,3,1)->(2,3,1)",
    ]
    # it stays hidden after black's move and white's reply (nothing reveals it)
    s.apply_action(s.legal_actions()[0])
    s.apply_action(s.legal_actions()[-1])
    assert core_of(s).player_view(0)[0] == "."


def test_a_moving_piece_of_its_colour_is_seen_by_its_owner():
    """The same position with a circle that moves: black can move it, so it
    sees it ("every piece they can move"), and the other seat does not."""
    s = state_after(_preplaced("adjacent"))
    core = core_of(s)
    assert core.player_view(0)[0] == "x" and core.player_shape_view(0)[0] == "c"
    assert core.player_view(1)[0] == "."
    assert "(1,1,1)->(2,1,1)" in [s.action_to_string(a) for a in s.legal_actions()]


def test_obscurity_shows_a_stationary_own_piece_by_its_colour_clause():
    # under obscurity a seat fully sees "all pieces of their assigned color(s)":
    # the stationary circle is seen by black for that reason, and by white by colour only
    core = make_core(_preplaced("stationary", "obscures"))
    assert core.player_view(0)[0] == "x" and core.player_shape_view(0)[0] == "c"
    assert core.player_view(1)[0] == "X" and core.player_shape_view(1)[0] == "?"


# -- two histories a seat cannot tell apart --------------------------------------------

# Shared colour (both seats place and move black pieces) with a stationary
# circle and a moving triangle. Black places its triangle on 4; white places the
# last circle on the cloaked 0 or 2. Black's reserve is then empty, which made
# the colour rule say "black can move every black piece": black saw where
# white's circle went. Per shape it cannot move a stationary circle, did not
# place it, and its space is cloaked: both histories must look the same to it.
SHARED = cloaked_rule_set(
    "seen-shared-stationary",
    colours="shared",
    reserves={"black": {"circle": 1, "triangle": 1}},
    shapes={"circle": {"move": "stationary"}, "triangle": {"move": "adjacent"}},
    move_limit=8,
    phases=[{"cloaked": ALL9}],
)
CIRCLE, TRIANGLE = 0, 9


def test_where_the_other_seat_put_a_stationary_piece_of_a_shared_colour_looks_the_same():
    left, right = state_after(SHARED, TRIANGLE + 4, CIRCLE + 0), state_after(SHARED, TRIANGLE + 4, CIRCLE + 2)
    assert core_of(left).reserves()["black"] == 0
    assert left.current_player() == right.current_player() == 0
    assert views(left, 0) == views(right, 0)
    assert left.legal_actions() == right.legal_actions()
    assert core_of(left).player_view(0)[0] == core_of(right).player_view(0)[2] == "."
    # white placed it: white tells the two apart
    for x, y in zip(views(left, 1), views(right, 1), strict=True):
        assert x != y


def test_a_moving_piece_placed_by_the_other_seat_is_seen_once_none_is_in_reserve():
    """The other side of the per-shape rule: a triangle that white placed is
    one black can move once no triangle is left in reserve, even while a
    circle is (the colour rule hid it until the whole colour ran out)."""
    rs = cloaked_rule_set(
        "seen-shared-identical",
        colours="shared",
        reserves={"black": {"circle": 2, "triangle": 1}},
        shapes={"circle": {"move": "adjacent"}, "triangle": {"move": "adjacent"}},
        move_limit=8,
        phases=[{"cloaked": ALL9}],
    )
    core = make_core(rs)
    core.apply_action(CIRCLE + 4)  # black: one circle left in reserve
    core.apply_action(TRIANGLE + 0)  # white: the only triangle, on the cloaked 0
    assert core.shape_reserves()["black"] == {"circle": 1, "triangle": 0}
    assert core.player_view(0)[0] == "x"  # per shape: no triangle in reserve, so black can move it
    assert core.player_view(1)[4] == "."  # (a circle is in reserve: white cannot move black's circle)


# -- against the reference model -------------------------------------------------------


def _cases():
    """Small rule sets: pre-placed stationary and moving pieces of each colour
    on cloaked spaces, reserves that keep one shape of a colour while another
    ran out, a shared colour; both cloaking types."""
    out = []
    for cloaking in ("hides", "obscures"):
        out.append(
            cloaked_rule_set(
                f"seen-ref-preplaced-{cloaking}",
                cloaking=cloaking,
                board={
                    "kind": "squares",
                    "size": [3, 3, 1],
                    "pieces": [
                        {"at": [1, 1, 1], "colour": "black", "shape": "circle"},
                        {"at": [2, 2, 1], "colour": "white", "shape": "circle"},
                        {"at": [3, 1, 1], "colour": "black", "shape": "triangle"},
                        {"at": [1, 3, 1], "colour": "white", "shape": "triangle"},
                    ],
                },
                shapes={"circle": {"move": "stationary"}, "triangle": {"move": "adjacent"}},
                reserves={"black": {"triangle": 1}, "white": {"circle": 1, "triangle": 1}},
                move_limit=14,
                phases=[{"cloaked": ALL9[:6]}],
            )
        )
        out.append(
            cloaked_rule_set(
                f"seen-ref-identical-{cloaking}",
                cloaking=cloaking,
                board={
                    "kind": "squares",
                    "size": [3, 3, 1],
                    "pieces": [
                        {"at": [1, 1, 1], "colour": "black", "shape": "x"},
                        {"at": [3, 3, 1], "colour": "white", "shape": "circle"},
                        {"at": [2, 1, 1], "colour": "white", "shape": "x"},
                    ],
                },
                shapes={"circle": {"move": "adjacent"}, "x": {"move": "diagonal"}, "star": {}},
                reserves={"black": {"circle": 2, "x": 1}, "white": {"circle": 1, "star": 1}},
                move_limit=16,
                phases=[{"cloaked": ALL9}],
            )
        )
        out.append(
            cloaked_rule_set(
                f"seen-ref-shared-{cloaking}",
                cloaking=cloaking,
                colours="shared",
                board={
                    "kind": "squares",
                    "size": [3, 3, 1],
                    "pieces": [{"at": [2, 2, 1], "colour": "black", "shape": "circle"}],
                },
                reserves={"black": {"circle": 1, "triangle": 2}},
                shapes={"circle": {"move": "stationary"}, "triangle": {"move": "orthogonal"}},
                move_limit=10,
                phases=[{"cloaked": ALL9, "pass": True}],
            )
        )
    return out


CASES = _cases()


@pytest.mark.parametrize("rs", CASES, ids=lambda rs: rs.name)
def test_preplaced_and_per_shape_reserves_match_reference(rs):
    count = sweep(full=25, quick=4)
    played = play_against_reference(rs, count, sum(map(ord, rs.name)), views=True, shape_views=True)
    assert len(played) > count  # the games went past their first move


@pytest.mark.slow
@pytest.mark.parametrize("rs", CASES, ids=lambda rs: rs.name)
def test_preplaced_and_per_shape_reserves_match_reference_long(rs):
    play_against_reference(rs, 400, 17, views=True, shape_views=True)


# -- "visible" in must capture under obscurity: the capturing shape ----------------------

LINE_MUST = {"power": "must-capture", "condition": "surround-line", "result": "removes"}
RANK_MUST = {"power": "must-capture", "condition": "cover-by-rank", "result": "removes"}


def _goal_surround(cloaking):
    """Black's triangle (no power, forward only) reaches its goal row y = 3 on
    (2,3,1) and must become a circle (a must-capture line surrounder) or a
    star: as a circle it closes white's x on the open (3,3,1) against black's
    x on (4,3,1). Black's star on (1,1,1) has plain moves. Every piece in the
    surround stands on an open space."""
    return cloaked_rule_set(
        f"seen-goal-surround-{cloaking}",
        cloaking=cloaking,
        board={
            "kind": "squares",
            "size": [4, 3, 1],
            "pieces": [
                {"at": [2, 2, 1], "colour": "black", "shape": "triangle"},
                {"at": [1, 1, 1], "colour": "black", "shape": "star"},
                {"at": [3, 3, 1], "colour": "white", "shape": "x"},
                {"at": [4, 3, 1], "colour": "black", "shape": "x"},
            ],
        },
        shapes={
            "triangle": {"move": "forward-orthogonal"},
            "circle": dict(LINE_MUST, move="adjacent"),
            "x": {"move": "stationary"},
            "star": {"move": "adjacent"},
        },
        reserves={"black": {}, "white": {"x": 1}},
        move_limit=10,
        phases=[{"cloaked": [[x, y, 1] for x in (1, 2, 3, 4) for y in (1, 2)]}],
    )


@pytest.mark.parametrize("cloaking", ["hides", "obscures"])
def test_a_surround_by_a_goal_replacement_that_the_mover_sees_forces(cloaking):
    """The surround is decided by colours the mover sees (open spaces; under
    obscurity every colour), and a surround's capturing shape is the one that
    lands: the replacement's power forces it, under both cloaking types (it
    was judged by the moving triangle's class under obscurity, so nothing
    forced there)."""
    from ttt_reference import ReferenceState

    rs = _goal_surround(cloaking)
    core = make_core(rs)
    assert [core.action_string(0, a) for a in core.legal_action_list()] == ["(2,2,1)->(2,3,1) becomes circle"]
    ref = ReferenceState(rs)
    assert ref.legal_actions() == core.legal_action_list()


def test_a_cover_is_visible_by_the_shape_that_moves_not_its_goal_replacement():
    """Under obscurity a by-rank cover onto a piece seen by colour only does
    not force: its verdict hangs on the hidden shape. A move that reaches its
    goal covers as the shape that moved (the replacement is taken after), so
    its visibility is judged by that shape too, not by the replacement's:
    here a must-capture pentagon (by rank, moving forward) whose replacement
    is a must-capture cross that captures other than by rank. Judged by the
    replacement, the cover onto white's colour-only piece would force, and
    whether it captures would hang on that piece's hidden shape."""
    rs = cloaked_rule_set(
        "seen-goal-cover-obscures",
        cloaking="obscures",
        board={
            "kind": "squares",
            "size": [3, 3, 1],
            "pieces": [
                {"at": [2, 2, 1], "colour": "black", "shape": "pentagon"},
                {"at": [1, 1, 1], "colour": "black", "shape": "star"},
                {"at": [2, 3, 1], "colour": "white", "shape": "circle"},
            ],
        },
        shapes={
            "pentagon": dict(RANK_MUST, move="forward-orthogonal"),
            "cross": {"power": "must-capture", "condition": "cover", "result": "removes", "move": "adjacent"},
            "circle": {"move": "stationary"},
            "star": {"move": "adjacent"},
        },
        reserves={"black": {}, "white": {"circle": 1}},
        move_limit=10,
        phases=[{"cloaked": [[x, y, 1] for x in (1, 2, 3) for y in (1, 2, 3)]}],
    )
    core = make_core(rs)
    assert core.player_shape_view(0)[7] == "?"  # white's piece on (2,3,1): colour only
    legal = [core.action_string(0, a) for a in core.legal_action_list()]
    assert "(1,1,1)->(2,1,1)" in legal  # not forced: the pentagon's cover is by rank
    assert any(a.startswith("(2,2,1)->(2,3,1) becomes") for a in legal)
    # a white pentagon there instead (the circle outranks it): black's list is the same
    other = cloaked_rule_set(
        "seen-goal-cover-obscures-2",
        **{k: v for k, v in rs.to_json().items() if k not in ("name", "board")},
        board={
            "kind": "squares",
            "size": [3, 3, 1],
            "pieces": [
                {"at": [2, 2, 1], "colour": "black", "shape": "pentagon"},
                {"at": [1, 1, 1], "colour": "black", "shape": "star"},
                {"at": [2, 3, 1], "colour": "white", "shape": "pentagon"},
            ],
        },
    )
    assert make_core(other).legal_action_list() == core.legal_action_list()


@pytest.mark.parametrize("cloaking", ["hides", "obscures"])
def test_an_exit_locked_piece_is_not_one_its_seat_can_move(cloaking):
    """Clause 2 of **Cloaking** ("nor against exit for p: [...] an exit lock
    naming p") with shapes: black's moving circle pre-placed on the cloaked,
    exit-locked (1,1,1) is not a piece black can move, so black does not see
    it, in the engine and in the reference model (whose per-shape ``can_move``
    once skipped exit locks); the same rule set without the lock shows it.
    Under obscurity black sees its own colour's pieces anyway (clause 6). The
    engine once showed the locked piece: the game's first refresh ran before
    the phase's locks were set, and what it recorded stayed seen."""

    def rule_set(locked):
        board = {
            "kind": "squares",
            "size": [3, 3, 1],
            "pieces": [
                {"at": [1, 1, 1], "colour": "black", "shape": "circle"},
                {"at": [3, 3, 1], "colour": "black", "shape": "triangle"},
            ],
        }
        if locked:
            board["exit_locked"] = [{"at": [[1, 1, 1]], "players": [1]}]
        return cloaked_rule_set(
            f"seen-exit-{locked}-{cloaking}",
            cloaking=cloaking,
            board=board,
            shapes={"circle": {"move": "adjacent"}, "triangle": {"move": "adjacent"}},
            reserves={"black": {}, "white": {"triangle": 2}},
            move_limit=10,
            phases=[{"cloaked": [[1, 1, 1], [2, 2, 1]]}],
        )

    for locked, seen in ((True, False), (False, True)):
        rs = rule_set(locked)
        core, ref = make_core(rs), ReferenceState(rs)
        assert (core.player_view(0)[0] == "x") == (seen or cloaking == "obscures")
        assert core.player_view(0) == ref.view(0) and core.player_shape_view(0) == ref.shape_view(0)
        play_against_reference(
            rs,
            games=sweep(full=20, quick=3),
            seed=3,
            check=lambda c, r: [
                c.player_view(p) == r.view(p) or pytest.fail(f"seat {p}: {c.player_view(p)} != {r.view(p)}")
                for p in range(2)
            ],
        )


# -- shapes with cloaked spaces ---------------------------------------------------------------


CLOAKED_SHAPES = [
    rule_set(
        "obscured-shapes",
        line_moves="over-pieces",  # blocking is refused with cloaked spaces
        cloaking="obscures",
        board={"kind": "squares", "size": [3, 3, 1]},
        reserves={"black": {"circle": 2, "pentagon": 1}, "white": {"circle": 2, "x": 1}},
        shapes={"circle": {"move": "adjacent"}, "pentagon": {}, "x": {"move": "diagonal"}},
        move_limit=20,
        phases=[{"cloaked": [[x, y, 1] for x in (1, 2, 3) for y in (1, 2)]}],
    ),
    rule_set(
        "hidden-shapes",
        line_moves="over-pieces",  # blocking is refused with cloaked spaces
        cloaking="hides",
        board={"kind": "squares", "size": [3, 3, 1]},
        reserves={"black": {"circle": 2, "star": 1}, "white": {"circle": 2, "star": 1}},
        shapes={"circle": {"move": "adjacent"}, "star": {"move": "linear"}},
        move_limit=20,
        phases=[{"cloaked": [[2, 2, 1], [1, 1, 1], [3, 3, 1]]}],
    ),
]


@pytest.mark.parametrize("rs", CLOAKED_SHAPES, ids=lambda rs: rs.name)
def test_cloaked_shapes_match_reference_and_hide_shapes(rs):
    play_against_reference(rs, games=sweep(full=30, quick=4), seed=5, shape_views=True)


@pytest.mark.slow
@pytest.mark.parametrize("rs", CLOAKED_SHAPES, ids=lambda rs: rs.name)
def test_cloaked_shapes_match_reference_long(rs):
    play_against_reference(rs, games=600, seed=11)


@pytest.mark.parametrize("rs", CLOAKED_SHAPES, ids=lambda rs: rs.name)
def test_random_sim_test_on_cloaked_shapes(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=8, quick=1))


def test_obscured_view_hides_shape_but_not_colour():
    """Under obscurity a piece of another colour on a cloaked space shows its
    colour and "?" for its shape, in strings, tensors and the event log."""
    rs = CLOAKED_SHAPES[0]
    core = make_core(rs)
    names = core.shape_names()
    T = 9
    # black places its pentagon on the cloaked (1,1,1)
    a = names.index("pentagon") * T + 0
    core.apply_action(a)
    assert core.player_view(1)[0] == "X" and core.player_shape_view(1)[0] == "?"
    assert core.player_view(0)[0] == "x" and core.player_shape_view(0)[0] == "p"
    assert "(shape not seen)" in core.information_state_string(1)
    assert "black@(1,1,1) pentagon" in core.information_state_string(0)
    # a circle in the same place: player 1 cannot tell the two apart
    other = make_core(rs)
    other.apply_action(names.index("circle") * T + 0)
    for view in (
        "observation_string",
        "information_state_string",
        "observation_tensor",
        "information_state_tensor",
    ):
        assert getattr(core, view)(1) == getattr(other, view)(1), view
        assert getattr(core, view)(0) != getattr(other, view)(0), view
    assert core.last_event()["seen"] == ["all", "colour"]


# -- stacks with cloaked spaces: "appear" is the mover's view ----------------------------


def cloaked_stack_cases():
    out = []
    add = lambda name, size, **kw: out.append(rule_set(name, kind="stacks", size=size, **kw))
    add(
        "hides-3x1x4",
        [3, 1, 4],
        cloaking="hides",
        reserves={"black": {"x": 3, "circle": 1}, "white": {"x": 3, "circle": 1}},
        shapes={"x": {"move": "orth-by-stack"}, "circle": {"move": "orth-by-full-stack"}},
        move_limit=30,
        turn_checks=["first-4-wins"],
        phases=[{"cloaked": [[2, 1, 1], [2, 1, 2], [3, 1, 2], [1, 1, 3]]}],
    )
    add(
        "hides-2x2x3",
        [2, 2, 3],
        cloaking="hides",
        reserves={"black": {"star": 3}, "white": {"star": 2, "x": 1}},
        pieces=[piece([1, 1, 1], "yellow", "x")],
        shapes={"star": {"move": "orth-by-stack"}, "x": {}},
        move_limit=30,
        turn_checks=["first-3-wins"],
        phases=[{"cloaked": [[1, 1, 2], [2, 2, 1], [2, 2, 2], [1, 2, 1]], "pass": True}],
    )
    add(
        "obscures-3x1x3",
        [3, 1, 3],
        cloaking="obscures",
        reserves={"black": {"x": 2, "pentagon": 1}, "white": {"x": 2, "pentagon": 1}},
        shapes={"x": {"move": "orth-by-stack"}, "pentagon": {"move": "orth-by-full-stack"}},
        move_limit=30,
        turn_checks=["first-3-wins"],
        phases=[{"cloaked": [[1, 1, 1], [2, 1, 2], [3, 1, 1]]}],
    )
    return out


@pytest.mark.parametrize("rs", cloaked_stack_cases(), ids=lambda rs: rs.name)
def test_cloaked_stacks_match_reference_and_views(rs):
    played = play_against_reference(
        rs, games=sweep(full=30, quick=4), seed=sum(map(ord, rs.name)), check=same_pieces, shape_views=True
    )
    assert by_stack_moves(rs, played) > 0


@pytest.mark.slow
@pytest.mark.parametrize("rs", cloaked_stack_cases(), ids=lambda rs: rs.name)
def test_cloaked_stacks_match_reference_long(rs):
    play_against_reference(rs, games=300, seed=5, check=same_pieces)


@pytest.mark.parametrize("rs", cloaked_stack_cases(), ids=lambda rs: rs.name)
def test_random_sim_test_on_cloaked_stacks(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=8, quick=1))


def test_hidden_pieces_on_top_make_a_by_stack_move_an_attempt():
    """The mover sees its x alone, but a hidden white piece lies on it: the
    move would carry a piece it does not know of, so it only reveals it."""
    rs = rule_set(
        "attempt",
        kind="stacks",
        size=[2, 1, 4],
        cloaking="hides",
        reserves={"black": {"circle": 1}, "white": {"circle": 1}},
        pieces=[piece([1, 1, 1], "black", "x"), piece([1, 1, 2], "white", "circle")],
        shapes={"x": {"move": "orth-by-stack"}, "circle": {}},
        move_limit=9,
        turn_checks=[],
        phases=[{"cloaked": [[1, 1, 2]]}],
    )
    core = make_core(rs)
    assert core.player_view(0)[2] == "."  # cell (1,1,2) looks empty to black
    before = core.cells()
    core.apply_action(legal_by_string(core)["stack(1,1)@1->stack(2,1)"])
    assert core.cells() == before and core.player() == 1
    assert core.player_view(0)[2] == "o"  # the attempt revealed it


def test_a_carried_hidden_piece_stays_hidden():
    """A hidden piece between the mover and a visible one counts by its height
    and travels; who had not seen it still does not."""
    rs = rule_set(
        "carry-hidden",
        kind="stacks",
        size=[2, 1, 4],
        cloaking="hides",
        reserves={"black": {"circle": 1}, "white": {"circle": 1}},
        pieces=[
            piece([1, 1, 1], "black", "x"),
            piece([1, 1, 2], "white", "circle"),
            piece([1, 1, 3], "white", "circle"),
        ],
        shapes={"x": {"move": "orth-by-stack"}, "circle": {}},
        move_limit=9,
        turn_checks=[],
        phases=[{"cloaked": [[1, 1, 2], [2, 1, 2]]}],
    )
    core = make_core(rs)
    assert core.player_view(0)[:8:2] == ["x", ".", "o", "."]  # stack (1,1) bottom-up, as black sees it
    core.apply_action(legal_by_string(core)["stack(1,1)@1->stack(2,1)"])
    assert stack_column(core, 2) == [("black", "x"), ("white", "circle"), ("white", "circle")]
    assert core.player_view(0)[1:8:2] == ["x", ".", "o", "."]  # stack (2,1): the carried piece still hidden


# -- hidden turns: another seat's unseen turn leaves no trace (KBeauty9) --------------------------
# Two histories a player cannot tell apart (the earlier players stacked
# different heights, out of its sight) give it identical information-state
# strings, tensors, keys, observations and legal actions; the player's own
# moves and the public passes stay in its information state; the worlds
# ISMCTS searches come from the player's knowledge only. The partition of
# histories into information states is checked against an independent model
# built on the reference's views (``hidden_turns_key``).


KB = "ttt(rules=KBeauty9)"

KB_FILE = REPO_ROOT / "games" / "ttt" / "catalogue" / "KBeauty9.json"


@pytest.fixture(scope="module")
def kb():
    return pyspiel.load_game(KB)


def stacked(game, heights):
    """The seats in turn order stack ``heights[i]`` circles each and pass; the
    state after the last of them passed (the next seat to decide)."""
    s = game.new_initial_state()
    for h in heights:
        for _ in range(h):
            s.apply_action(_named(s, "@"))
        s.apply_action(_named(s, "pass"))
    return s


def _named(s, text):
    acts = [a for a in s.legal_actions() if text in s.action_to_string(a)]
    assert len(acts) == 1, [s.action_to_string(a) for a in s.legal_actions()]
    return acts[0]


def views_and_legal(s, player):
    """Everything ``player`` is given of ``s``, comparable."""
    out = (
        s.information_state_string(player),
        tuple(s.information_state_tensor(player)),
        s.observation_string(player),
        tuple(s.observation_tensor(player)),
        core_of(s).info_state_key(player),
    )
    if s.current_player() == player:
        out += (tuple(s.legal_actions(player)),)
    return out


def test_catalogue_kbeauty9_hides_turns():
    rec = json.loads(KB_FILE.read_text())
    assert rec["cloaking_hides_turns"] is True
    assert core_of(pyspiel.load_game(KB).new_initial_state()).hides_turns()
    assert not core_of(pyspiel.load_game("ttt(rules=3Blotto13)").new_initial_state()).hides_turns()


@pytest.mark.parametrize(
    "seat, a, b",
    [
        (1, (0,), (9,)),
        (2, (4, 4), (0, 9)),
        (3, (3, 5, 7), (0, 9, 1)),
        (3, (9, 9, 9), (0, 0, 0)),
    ],
)
def test_later_player_cannot_tell_the_earlier_heights(kb, seat, a, b):
    sa, sb = stacked(kb, a), stacked(kb, b)
    assert sa.current_player() == sb.current_player() == seat
    assert sa.to_string() != sb.to_string()  # the truth differs ...
    assert views_and_legal(sa, seat) == views_and_legal(sb, seat)  # ... what the seat is given does not
    text = sa.information_state_string(seat)
    assert "placed" not in text and "?" in text.split("reserves:")[1]
    assert text.count("pass") == seat  # the public passes stay


def test_own_placements_and_reserve_stay_known(kb):
    sa, sb = stacked(kb, (2, 8)), stacked(kb, (6, 1))
    for s in (sa, sb):
        for _ in range(3):
            s.apply_action(_named(s, "@"))
    assert views_and_legal(sa, 2) == views_and_legal(sb, 2)
    text = sa.information_state_string(2)
    assert text.count("pink@stack(3,1)") == 3
    assert "pink 6" in text
    # the earlier players still tell their own heights apart (perfect recall)
    assert sa.information_state_string(0) != sb.information_state_string(0)
    assert sa.information_state_string(1) != sb.information_state_string(1)


def test_indistinguishable_histories_share_knowledge_and_worlds(kb):
    sa, sb = stacked(kb, (3, 5, 7)), stacked(kb, (0, 9, 1))
    ka, kb_ = knowledge_of(sa, 3), knowledge_of(sb, 3)
    assert ka == kb_  # the sampler's whole input
    wa = WorldSampler(kb, ka).sample(np.random.default_rng(5))
    wb = WorldSampler(kb, kb_).sample(np.random.default_rng(5))
    assert wa.to_string() == wb.to_string() and _heights(wa) == _heights(wb)


def _heights(world):
    """(black, white, pink) heights of a world at yellow's first decision."""
    return tuple(world.reserves()[c] for c in ("black", "white", "pink"))


def test_worlds_are_every_combination_of_hidden_heights(kb):
    worlds = enumerate_worlds(kb, knowledge_of(stacked(kb, (3, 5, 7)), 3), max_worlds=1000)
    assert sorted(tuple(9 - h for h in _heights(w)) for w, _ in worlds) == list(product(range(10), repeat=3))
    assert all(weight == 1.0 for _, weight in worlds)
    assert len(enumerate_worlds(kb, knowledge_of(stacked(kb, (4,)), 1))) == 10
    # the one-world baseline's guess: the canonical walk's lowest actions, every
    # earlier seat stacking its whole reserve
    assert _heights(first_world(kb, knowledge_of(stacked(kb, (3, 5, 7)), 3))) == (0, 0, 0)


def test_without_the_flag_turns_stay_public():
    rec = json.loads(KB_FILE.read_text())
    rec.pop("cloaking_hides_turns")
    rec["name"] = "KBeauty9-public-turns"
    game = pyspiel.load_game("ttt", {"rules": saved_rule_set(rules.parse(rec))})
    sa, sb = stacked(game, (0,)), stacked(game, (9,))
    assert sa.information_state_string(1) != sb.information_state_string(1)
    assert "black 9" in sa.observation_string(1) and "black 0" in sb.observation_string(1)


BASE2 = dict(turn_checks=[], stalemate="most-in-a-row-wins", reserves={"black": 3, "white": 3})


@pytest.mark.parametrize(
    "rec",
    [
        dict(cloaking_hides_turns=1, phases=[{"cloaked": ALL9}]),
        dict(cloaking_hides_turns=True, phases=[{}]),
        dict(cloaking_hides_turns=True, cloaking="obscures", phases=[{"cloaked": ALL9}]),
        dict(cloaking_hides_turns=True, phases=[{"cloaked": ALL9, "order": "simultaneous"}]),
        dict(cloaking_hides_turns=True, pieces_per_turn=2, phases=[{"cloaked": ALL9}]),
        dict(
            cloaking_hides_turns=True,
            move_limit=20,
            shapes={"circle": {"move": "adjacent"}},
            phases=[{"cloaked": ALL9}],
        ),
    ],
)
def test_refused_where_not_built(rec):
    with pytest.raises(rules.RuleSetError, match="cloaking_hides_turns"):
        hides("hidden-turns-refused", **rec)


def test_flag_false_leaves_the_record_unchanged():
    plain = hides("hides-all", phases=[{"cloaked": ALL9}])
    off = hides("hides-all", cloaking_hides_turns=False, phases=[{"cloaked": ALL9}])
    assert plain.record == off.record and "cloaking_hides_turns" not in plain.record


HIDDEN_SETS = [
    ("KBeauty9", None),
    # two seats in one phase on a fully cloaked board, then part of it, then open: attempts
    # on hidden pieces, passes, and pieces that become visible later
    (
        "hidden-turns-two-seats",
        hides(
            "hidden-turns-two-seats",
            cloaking_hides_turns=True,
            **BASE2,
            phases=[{"pass": True, "cloaked": ALL9}, {"pass": True, "cloaked": ROW1}, {"pass": True}],
        ),
    ),
]


@pytest.mark.parametrize("name, rs", HIDDEN_SETS)
def test_information_partition_matches_the_reference(name, rs):
    """Random histories grouped by each player's information-state string are grouped
    the same way by the reference's independent key (what the player did, saw placed,
    and the public passes, then what it sees now): neither splits what the other joins."""
    rs = rs or rules.resolve("KBeauty9")
    game = (
        pyspiel.load_game(KB)
        if name == "KBeauty9"
        else pyspiel.load_game("ttt", {"rules": saved_rule_set(rs)})
    )
    rng = random.Random(7)
    pairs, histories = set(), {}
    for _ in range(60 if name == "KBeauty9" else 150):
        s, ref, trace = game.new_initial_state(), ReferenceState(rs), []
        while not s.is_terminal():
            for p in range(game.num_players()):
                text = s.information_state_string(p)
                pairs.add((p, text, hidden_turns_key(ref, trace, p)))
                histories.setdefault((p, text), set()).add(tuple(s.history()))
            legal = s.legal_actions()
            assert legal == ref.legal_actions()
            # KBeauty9: stop early often, so short and long stacks both occur
            a = legal[-1] if name == "KBeauty9" and rng.random() < 0.3 else rng.choice(legal)
            s.apply_action(a)
            trace.append(hidden_turns_step(ref, a))
    by_engine, by_ref = {}, {}
    for p, text, key in pairs:
        by_engine.setdefault((p, text), set()).add(key)
        by_ref.setdefault((p, key), set()).add(text)
    assert all(len(v) == 1 for v in by_engine.values())
    assert all(len(v) == 1 for v in by_ref.values())
    # information states do join several histories; in KBeauty9 of different lengths (what
    # the flag is for: with two seats taking turns in a phase, the turns still alternate)
    assert any(len(hs) > 1 for hs in histories.values())
    if name == "KBeauty9":
        assert any(len({len(h) for h in hs}) > 1 for hs in histories.values())


def test_belief_random_weighs_hidden_heights_as_coin_flips(kb):
    """mcts.worlds.BELIEFS: ``histories`` gives every hidden height 1/10, ``random`` (the
    others play uniformly at random, as the playouts do) 2^-(k+1), 2^-9 for nine: what
    Random's place-or-pass coin flips stack (docs/studies.md, the KBeauty9 check)."""
    k = knowledge_of(stacked(kb, (6,)), 1)
    for belief, expect in (
        ("histories", [0.1] * 10),
        ("random", [2.0 ** -(h + 1) for h in range(9)] + [2.0**-9]),
    ):
        listed = enumerate_worlds(kb, k, belief=belief)
        total = sum(w for _, w in listed)
        got = {9 - w.reserves()["black"]: weight / total for w, weight in listed}
        assert got == pytest.approx(dict(enumerate(expect)))
    with pytest.raises(ValueError, match="belief must be one of histories, random"):
        enumerate_worlds(kb, k, belief="uniform")


def test_belief_option_of_the_bot(kb):
    from agents import make_bot

    s = stacked(kb, (2, 3, 4))
    out = make_bot("ismcts:simulations=30,belief=random", kb, 3, seed=1).search(s)
    assert (out["world_mode"], out["worlds"]) == ("exact", 1000)
    with pytest.raises(ValueError, match="belief must be one of"):
        make_bot("ismcts:belief=nobody", kb, 3)


def test_belief_experiment_runs_and_refuses_bad_input(capsys):
    from experiments import ismcts_belief

    assert ismcts_belief.main(["--games", "2", "--simulations", "10", "--only", "modelled"]) == 0
    out = capsys.readouterr().out
    assert "| modelled belief vs baseline | " in out and "| uniform belief vs baseline" not in out
    assert "weight of the heaviest world" in out
    with pytest.raises(SystemExit):
        ismcts_belief.main(["--games", "0"])

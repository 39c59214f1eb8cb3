"""Plain Y against OpenSpiel's own C++ ``y``, and the Y-only options."""

import random

import pyspiel
import pytest
from games.boards import make_board, openspiel_y_actions

import games  # noqa: F401  (registers the games)


@pytest.mark.parametrize("size", range(3, 12))
def test_same_moves_and_outcomes_as_openspiel_y(size):
    """2,000+ random games over sizes 3..11: after every move both games agree
    on the legal cells, on whether the game is over, and on the returns."""
    games_per_size = 230
    rng = random.Random(size)
    ours = pyspiel.load_game(f"y_game(board_size={size})")
    theirs = pyspiel.load_game(f"y(board_size={size})")
    to_theirs, to_ours = openspiel_y_actions(size)
    for _ in range(games_per_size):
        a, b = ours.new_initial_state(), theirs.new_initial_state()
        while True:
            assert a.is_terminal() == b.is_terminal()
            if a.is_terminal():
                assert a.returns() == b.returns()
                break
            assert a.current_player() == b.current_player()
            legal = a.legal_actions()
            assert sorted(to_theirs[c] for c in legal) == sorted(b.legal_actions())
            assert sorted(to_ours[x] for x in b.legal_actions()) == sorted(legal)
            cell = rng.choice(legal)
            assert a.action_to_string(cell) == b.action_to_string(to_theirs[cell])
            a.apply_action(cell)
            b.apply_action(to_theirs[cell])


def test_openspiel_y_actions_number_the_grid_from_the_long_edge_and_invert():
    to_theirs, to_ours = openspiel_y_actions(3)
    # our rows from the top (a3; a2 b2; a1 b1 c1) are OpenSpiel's y = 2, 1, 0
    assert to_theirs == (6, 3, 4, 0, 1, 2)
    assert to_ours == {6: 0, 3: 1, 4: 2, 0: 3, 1: 4, 2: 5}
    assert 5 not in to_ours  # x + y >= N: off the triangle
    for bad in (1, 20):
        with pytest.raises(ValueError, match="2..19"):
            openspiel_y_actions(bad)


def test_turn_sequences_place_the_announced_number_of_stones():
    expected = {
        1: [1, 1, 1, 1, 1, 1],
        122: [1, 2, 2, 2, 2, 2],
        123: [1, 2, 3, 3, 3, 3],
        122344: [1, 2, 2, 3, 4, 4, 5],
    }
    for turns, sequence in expected.items():
        state = pyspiel.load_game(f"y_game(board_size=12,turns={turns})").new_initial_state()
        seen = []
        player, run = 0, 0
        while len(seen) < len(sequence):
            assert state.current_player() in (0, 1)
            if state.current_player() != player:
                seen.append(run)
                player, run = state.current_player(), 0
            # play far from the other stones: the first empty cell on the long edge
            state.apply_action(max(state.legal_actions()))
            run += 1
        assert seen == sequence, turns


def test_swap_gives_the_first_stone_to_white_and_black_moves_next():
    state = pyspiel.load_game("y_game(board_size=5,swap=true)").new_initial_state()
    n = 15
    assert n not in state.legal_actions()  # no swap before a stone is down
    state.apply_action(7)
    assert n in state.legal_actions()
    assert state.action_to_string(n) == "swap"
    state.apply_action(n)
    assert state.current_player() == 0
    assert state.core.cell_colours()[7] == 2
    assert n not in state.legal_actions()  # once only
    state.apply_action(0)
    assert n not in state.legal_actions()


def test_distinct_groups_forbids_joining_a_stone_of_the_same_turn():
    state = pyspiel.load_game("y_game(board_size=6,turns=122,distinct_groups=true)").new_initial_state()
    board = make_board("triangle", 6)
    state.apply_action(0)  # Black's single first stone
    first = board.index_of_name["c1"]
    state.apply_action(first)  # White's first stone of two
    legal = set(state.legal_actions())
    for nb in board.neighbours(first):
        assert nb not in legal
    assert board.index_of_name["f1"] in legal


def test_y_rejects_bad_parameters_naming_the_allowed_values():
    with pytest.raises(Exception, match="1, 122, 123, 122344"):
        pyspiel.load_game("y_game(turns=7)")
    with pytest.raises(Exception, match="2..19"):
        pyspiel.load_game("y_game(board_size=20)")
    with pytest.raises(Exception, match="triangle, hex"):
        pyspiel.load_game("y_game(board_shape=square)")
    with pytest.raises(Exception, match="Unknown parameter"):
        pyspiel.load_game("y_game(size=5)")


def test_illegal_action_raises_and_leaves_the_state_alone():
    state = pyspiel.load_game("y_game(board_size=4)").new_initial_state()
    state.apply_action(3)
    before = (str(state), state.legal_actions(), state.core.position_hash())
    for bad in (3, -1, 10, 99):
        with pytest.raises((ValueError, pyspiel.SpielError)):  # illegal; -1 is OpenSpiel's own refusal
            state.apply_action(bad)
    assert (str(state), state.legal_actions(), state.core.position_hash()) == before

"""The claim of Dale W. Walton's 00-Y rules: with turns 122 and flips "opponents into friends",
Double-'0' Y "should be equivalent" to Defector Y 122*. What holds
(docs/rules/double_o_y.md): move for move the same game when 00-Y checks the
win at the end of the mover's turn; not under 00-Y's default win timing."""

import random

import pyspiel
import pytest

import games  # noqa: F401

BOARDS = ["board_size=5", "board_size=7", "board_shape=hex,board_size=3"]


@pytest.mark.parametrize("board", BOARDS)
def test_same_game_as_defector_122_when_the_win_is_checked_at_turn_end(board):
    defector = pyspiel.load_game(f"defector_y({board},protocol=122)")
    double_o = pyspiel.load_game(f"double_o_y({board},protocol=122,flip=opponents,win=turn_end)")
    rng = random.Random(7)
    for _ in range(300):
        a, b = defector.new_initial_state(), double_o.new_initial_state()
        while not a.is_terminal():
            assert not b.is_terminal()
            assert a.current_player() == b.current_player()
            assert a.legal_actions() == b.legal_actions()
            action = rng.choice(a.legal_actions())
            a.apply_action(action)
            b.apply_action(action)
        winner = a.returns().index(1.0)
        # Defector Y stops the moment the mover owns a Y, maybe mid-turn; 00-Y
        # lets the turn finish, and nothing the mover does can take the Y away.
        while not b.is_terminal():
            assert b.current_player() == winner
            b.apply_action(rng.choice(b.legal_actions()))
        assert b.returns() == a.returns()


def test_not_the_same_game_under_the_default_win_at_turn_start():
    """Under win=turn_start a Y must survive the opponent's turn, whose
    conversions can cut it: some move sequences that win Defector Y for one
    player are won by the other in 00-Y."""
    defector = pyspiel.load_game("defector_y(board_size=5,protocol=122)")
    double_o = pyspiel.load_game("double_o_y(board_size=5,protocol=122,flip=opponents)")
    rng = random.Random(11)
    differing = 0
    for _ in range(400):
        a, b = defector.new_initial_state(), double_o.new_initial_state()
        while not a.is_terminal() and not b.is_terminal():
            assert a.legal_actions() == b.legal_actions()
            action = rng.choice(a.legal_actions())
            a.apply_action(action)
            b.apply_action(action)
        while not b.is_terminal():
            b.apply_action(rng.choice(b.legal_actions()))
        if a.is_terminal() and a.returns() != b.returns():
            differing += 1
    assert differing > 0

"""The flip games' cell kernels against values recomputed from the colours.

``FlipCore`` keeps, per cell, a crowding key (16 x colour code + neighbour
balance, one byte; the sentinel cell n's key is 0 between moves) and one
bitset of the overcrowded stones of both colours. Boards of up to 128 cells
(one or two bitset words) refresh that bitset by gathering the seven bits of
a move in registers (``_refresh_around``); larger boards refresh cell by cell.
After every action of random games of every variant, on boards of one, two
and three words, through ``apply`` and after the fast random playout, and
after a pickle round trip, both must equal what the colours alone say:

- key[c] == 16 * colour[c] + (Black neighbours - White neighbours) mod 256,
  and the sentinel's key is 0 (so equal positions pickle to equal bytes);
- ``overcrowded()`` is exactly the stones with more same-colour than
  other-colour neighbours.
"""

import itertools
import pickle
import random

import pyspiel
import pytest
from games.boards import make_board

import games  # noqa: F401

VARIANTS = [f"defector_y(protocol={p},conversion={c})" for p in (1, 122) for c in ("board", "local")] + [
    f"double_o_y(flip={f},protocol={p},win={w})"
    for f, p, w in itertools.product(("all", "opponents", "friends"), (1, 122), ("turn_start", "turn_end"))
]
# one word: triangle 7, hex 3; two: triangle 11 (the benchmark's board); three: triangle 17
BOARDS = [("triangle", 7), ("hex", 3), ("triangle", 11), ("triangle", 17)]


def game_string(variant, shape, size):
    return variant.replace("(", f"(board_shape={shape},board_size={size},")


def expected(board, colours):
    """Keys and overcrowded cells from the colours alone."""
    n = board.num_cells
    keys, crowded = [], []
    for c in range(n):
        nbs = board.neighbours(c)
        black = sum(colours[nb] == 1 for nb in nbs)
        white = sum(colours[nb] == 2 for nb in nbs)
        keys.append((16 * colours[c] + black - white) % 256)
        if colours[c] == 1 and black > white or colours[c] == 2 and white > black:
            crowded.append(c)
    return keys + [0], crowded


def check(core, board):
    n = board.num_cells
    colours = core.cell_colours()
    mem = core.__reduce__()[1][6]
    assert len(mem) == 4 * n + 2
    assert list(mem[: n + 1]) == colours + [0]  # the sentinel stays empty
    keys, crowded = expected(board, colours)
    assert list(mem[n + 1 : 2 * n + 2]) == keys, core.to_string()
    assert core.overcrowded() == crowded, core.to_string()


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("shape,size", BOARDS)
def test_keys_and_overcrowded_stones_follow_the_colours(variant, shape, size):
    game = pyspiel.load_game(game_string(variant, shape, size))
    board = make_board(shape, size)
    rng = random.Random(size * 31 + len(variant))
    flips = 0
    for seed in range(3):
        state = game.new_initial_state()
        stop = rng.randrange(10, 60)
        while not state.is_terminal() and state.move_number() < stop:
            action = rng.choice(state.legal_actions())
            flips += action >= board.num_cells
            state.apply_action(action)
            check(state.core, board)
        restored = pickle.loads(pickle.dumps(state.core))
        check(restored, board)
        # the rest of the game by the fast playout loop
        played = restored.playout_trace(seed, fast=True)
        flips += sum(a >= board.num_cells for a in played)
        check(restored, board)
    assert flips > 0  # the flip kernel was exercised too

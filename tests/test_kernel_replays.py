"""Seeded random games and searches replay exactly: the kernels' speed-ups
keep every game's behaviour.

For each flip game (Flipway, Double-'0' Y, Defector Y) and plain Y, the
figures below are what the kernels give for fixed seeds: a digest of 40
random playouts (each game's returns, counters, final position hash and
pickled position), the first player's total over ``playout_batch``'s 500
games, and the move and tree size of a 3,000-simulation UCT search. A change
to a kernel that alters the move order of its playout, the random draws it
makes, or any rule changes a digest here.
"""

import hashlib

import pyspiel
import pytest
from games.core import playout_batch

import games  # noqa: F401
from mcts.uct import UCTSearch

# game, digest of 40 playouts (seeds 0-39), playout_batch(root, 500, 9), UCT move, UCT nodes
REPLAYS = [
    ("flipway(board_size=9)", "3b231cdbc0cd547c", -48.0, 21, 5270),
    ("flipway(board_size=7,pie=true)", "c55f769187a0c997", 66.0, 167, 5766),
    ("flipway(board_size=6,setup=checkered,pie=true)", "388ee8b8bbdca799", 76.0, 284, 4062),
    ("flipway(board_size=5,repetition=draw)", "3290a15a989d022f", -50.0, 12, 3731),
    ("flipway(board_size=8,setup=blocks)", "2f517becef4c676d", 18.0, 35, 3664),
    ("double_o_y(board_size=11)", "c614a7356dfa37ef", -42.0, 19, 6438),
    ("double_o_y(board_size=11,protocol=1)", "9de8b2a4499456bd", -50.0, 65, 5578),
    ("double_o_y(board_size=11,flip=opponents)", "b682f04afc327e18", 2.0, 46, 5448),
    ("double_o_y(board_size=11,flip=friends)", "fec73080ec120041", -28.0, 15, 6447),
    ("double_o_y(board_size=7,win=turn_end)", "4d0105e3f84da26e", 24.0, 14, 3807),
    ("defector_y(board_size=11)", "f12e0f396dfaf543", -44.0, 63, 5482),
    ("defector_y(board_size=11,protocol=122)", "e5066633299a54c4", 6.0, 8, 6115),
    ("double_o_y(board_shape=hex,board_size=4)", "ebae2d9e100a2fb7", 8.0, 8, 4887),
    ("y_game(board_size=11)", "5827f322d43d97d2", -36.0, 20, 5786),
]


def playout_digest(root, seeds=40):
    h = hashlib.sha256()
    for seed in range(seeds):
        core = root.clone()
        core.random_playout(seed)
        h.update(repr((core.returns_list(), core.position_hash(), core.playout_stats())).encode())
        h.update(repr(core.__reduce__()[1]).encode())
    return h.hexdigest()[:16]


@pytest.mark.parametrize("game, digest, total, move, nodes", REPLAYS)
def test_seeded_playouts_and_searches_replay(game, digest, total, move, nodes):
    root = pyspiel.load_game(game).new_core()
    assert playout_digest(root) == digest
    assert playout_batch(root, 500, 9) == total
    result = UCTSearch(uct_c=1.4, max_simulations=3000, seed=3).search(root.clone())
    assert (result["action"], result["nodes"]) == (move, nodes)

"""The flip games' win test and symmetric hashes at every position, against
values recomputed from the colours alone.

After every action of hypothesis-chosen random games of every Defector Y and
Double-'0' Y variant, on triangles and limping hexagons, the core's
``owns_y`` for both colours must equal the slow reference model's
(tests/y_reference.py, a set-based flood), also at the positions where no win
check is due, and each ``symmetric_hash`` (filled by a scan on first use, then updated by
every placement and flip, and carried by copies) must equal a scan of the
cells. Half the games fill the cache at the start, so both the updated and
the freshly scanned cache are checked along whole games. The
move-by-move rule tests in test_flip_games.py check the outcomes.
"""

import itertools
import random

import pyspiel
from games.boards import make_board
from hypothesis import given, settings
from hypothesis import strategies as st

import games  # noqa: F401
from y_reference import Geometry

VARIANTS = [f"defector_y(protocol={p},conversion={c})" for p in (1, 122) for c in ("board", "local")] + [
    f"double_o_y(flip={f},protocol={p},win={w})"
    for f, p, w in itertools.product(("all", "opponents", "friends"), (1, 122), ("turn_start", "turn_end"))
]
BOARDS = [("triangle", 3), ("triangle", 5), ("triangle", 7), ("triangle", 11), ("hex", 2), ("hex", 3)]


def check_position(core, geometry, hashes=True):
    colours = core.cell_colours()
    for player in (0, 1):
        assert core.owns_y(player) == geometry.has_y(colours, player + 1), core.to_string()
    if not hashes:
        return  # asking would fill the cache
    for symmetry in range(core.symmetry_count()):
        assert core.position_hash_under(symmetry) == core.symmetric_hash_by_scan(symmetry)


def play_and_check(game_string, seed):
    game = pyspiel.load_game(game_string)
    params = game.get_parameters()
    geometry = Geometry.from_board(make_board(params["board_shape"], params["board_size"]))
    rng = random.Random(seed)
    state = game.new_initial_state()
    checked = seed % 2 == 0
    if checked:
        state.core.position_hash_under(1)  # fill the cache now
    flips = 0
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        flips += action >= geometry.n
        state.apply_action(action)
        check_position(state.core, geometry, hashes=checked)
        if rng.random() < 0.1:
            # a copy carries the cache (MCTS and the solvers copy)
            state = state.clone()
            check_position(state.core, geometry)
            checked = True
    check_position(state.core, geometry)
    return flips


@settings(max_examples=120, deadline=None)
@given(variant=st.sampled_from(VARIANTS), board=st.sampled_from(BOARDS), seed=st.integers(0, 2**32 - 1))
def test_win_test_and_hashes_equal_recomputed_values(variant, board, seed):
    shape, size = board
    play_and_check(variant.replace("(", f"(board_shape={shape},board_size={size},"), seed)


def test_every_variant_flips_and_is_checked():
    """The sweep above is only worth something if flips happen: a fixed
    sweep over every variant on side 6 must see many."""
    total = 0
    for i, variant in enumerate(VARIANTS):
        for seed in range(3):
            total += play_and_check(variant.replace("(", "(board_size=6,"), 1000 * i + seed)
    assert total > 100


def test_pickled_state_keeps_hashes():
    game = pyspiel.load_game("double_o_y(board_size=7)")
    geometry = Geometry.from_board(make_board("triangle", 7))
    rng = random.Random(3)
    state = game.new_initial_state()
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    for symmetry in range(6):
        state.core.position_hash_under(symmetry)  # fill the cache
    restored = game.deserialize_state(state.serialize())
    check_position(restored.core, geometry)
    while not restored.is_terminal():
        restored.apply_action(rng.choice(restored.legal_actions()))
        check_position(restored.core, geometry)

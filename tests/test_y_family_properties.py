"""Properties every Y-family position must have, over hypothesis-chosen
variants and random games."""

import random

import pyspiel
from games.boards import make_board
from hypothesis import given, settings
from hypothesis import strategies as st

import games  # noqa: F401
from y_reference import Geometry

VARIANTS = [
    "y_game(board_size=5)",
    "y_game(board_size=6,turns=122,swap=true)",
    "y_game(board_size=6,turns=122344,distinct_groups=true)",
    "y_game(board_shape=hex,board_size=3)",
    "defector_y(board_size=5)",
    "defector_y(board_size=5,protocol=122)",
    "defector_y(board_shape=hex,board_size=3)",
    "defector_y(board_size=5,conversion=local)",
    "defector_y(board_size=6,protocol=122,conversion=local)",
    "double_o_y(board_size=5)",
    "double_o_y(board_size=5,flip=opponents,protocol=1)",
    "double_o_y(board_size=5,flip=friends,win=turn_end)",
    "double_o_y(board_shape=hex,board_size=3,flip=all,protocol=1,win=turn_end)",
]
variant = st.sampled_from(VARIANTS)
seed = st.integers(0, 2**32 - 1)


def board_of(game):
    p = game.get_parameters()
    return make_board(p["board_shape"], p["board_size"])


def random_history(game, rng, stop_early=True):
    state = game.new_initial_state()
    history = []
    while not state.is_terminal() and not (stop_early and rng.random() < 0.03):
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        history.append(action)
    return state, history


@settings(max_examples=60, deadline=None)
@given(variant, seed)
def test_a_clone_is_independent_of_its_original(game_string, s):
    game = pyspiel.load_game(game_string)
    rng = random.Random(s)
    state, _ = random_history(game, rng)
    before = (str(state), state.legal_actions(), state.core.position_hash(), state.returns())
    copy = state.clone()
    while not copy.is_terminal():
        copy.apply_action(rng.choice(copy.legal_actions()))
    assert (str(state), state.legal_actions(), state.core.position_hash(), state.returns()) == before


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([v for v in VARIANTS if not v.startswith("y_game")]), seed)
def test_every_flip_lowers_the_number_of_same_colour_pairs(game_string, s):
    game = pyspiel.load_game(game_string)
    n = board_of(game).num_cells
    rng = random.Random(s)
    state = game.new_initial_state()
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        before = state.core.same_colour_pairs()
        state.apply_action(action)
        if action >= n:
            assert state.core.same_colour_pairs() < before


@settings(max_examples=80, deadline=None)
@given(variant, seed)
def test_games_end_with_a_y_owner_winning_within_the_bounds(game_string, s):
    """No draws; the winner owns a Y when the game ends; no more placements
    than cells and no more actions than max_game_length."""
    game = pyspiel.load_game(game_string)
    geometry = Geometry.from_board(board_of(game))
    state, history = random_history(game, random.Random(s), stop_early=False)
    returns = state.returns()
    assert sorted(returns) == [-1.0, 1.0]
    winner = returns.index(1.0)
    assert geometry.has_y(state.core.cell_colours(), winner + 1)
    assert len(history) <= game.max_game_length()
    placements = state.core.playout_stats()["placements"]
    assert placements == sum(1 for a in history if a < geometry.n) <= geometry.n


@settings(max_examples=60, deadline=None)
@given(seed, st.integers(3, 8))
def test_plain_y_ends_exactly_when_a_y_appears(s, size):
    game = pyspiel.load_game(f"y_game(board_size={size})")
    geometry = Geometry.from_board(board_of(game))
    rng = random.Random(s)
    state = game.new_initial_state()
    while True:
        colours = state.core.cell_colours()
        has = geometry.has_y(colours, 1) or geometry.has_y(colours, 2)
        assert state.is_terminal() == has
        if has:
            break
        state.apply_action(rng.choice(state.legal_actions()))


@settings(max_examples=60, deadline=None)
@given(variant, seed, st.integers(0, 11))
def test_symmetric_hash_is_the_hash_of_the_mirrored_position(game_string, s, which):
    """Replaying a game through a board symmetry gives a legal game whose
    hashes are the originals' symmetric hashes, the key solvers rely on."""
    game = pyspiel.load_game(game_string)
    board = board_of(game)
    n = board.num_cells
    state, history = random_history(game, random.Random(s))
    k = which % state.core.symmetry_count()
    perm = board.symmetries[k]
    mirrored = game.new_initial_state()
    for a in history:
        if a < n:
            mirrored.apply_action(perm[a])
        elif a < 2 * n and not game_string.startswith("y_game"):
            mirrored.apply_action(n + perm[a - n])
        else:
            mirrored.apply_action(a)  # swap
    assert mirrored.core.position_hash() == state.core.position_hash_under(k)
    assert mirrored.returns() == state.returns()

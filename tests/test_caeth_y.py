"""Caeth Y (docs/rules/caeth_y.md): the kernel against a slow reference model,
properties of every position, the decisions the rules page makes, and the
OpenSpiel face."""

import pickle
import random

import pyspiel
import pytest
from games.boards import make_board
from hypothesis import given, settings
from hypothesis import strategies as st

import games  # noqa: F401  (registers the games)
from caeth_reference import CaethReference
from test_y_family_properties import random_history
from y_reference import Geometry

seed = st.integers(0, 2**32 - 1)


def load(size, swap=False):
    return pyspiel.load_game(f"caeth_y(board_size={size},swap={'true' if swap else 'false'})")


def chain_touching_all_sides(size, controllers, colour):
    """Do the vertices of ``colour`` hold a chain touching the three sides?
    (the Y reference's flood fill, over the board's own geometry)"""
    return Geometry.from_board(make_board("triangle", size)).has_y(controllers, colour)


@pytest.mark.parametrize("size", range(2, 7))
@pytest.mark.parametrize("swap", [False, True])
def test_every_move_agrees_with_the_reference_model(size, swap):
    """Random games: after every move the kernel and the reference agree on
    the legal actions and their names, the player to move, the end, the
    returns, the owner of every edge and the controller of every vertex."""
    rng = random.Random(100 * size + swap)
    game = load(size, swap)
    for _ in range(40 if size < 6 else 25):
        state, ref = game.new_initial_state(), CaethReference(size, swap)
        while True:
            legal = state.legal_actions()
            assert legal == ref.legal()
            assert [state.action_to_string(a) for a in legal] == [ref.name(a) for a in legal]
            assert state.core.edge_owners() == ref.edge_owners()
            assert state.core.vertex_controllers() == ref.controllers()
            assert state.is_terminal() == (ref.winner() is not None)
            assert state.returns() == ref.returns()
            if state.is_terminal():
                break
            assert state.current_player() == ref.current_player()
            action = rng.choice(legal)
            state.apply_action(action)
            ref.apply(action)


def test_vertex_thresholds_are_one_two_three_edges():
    """One edge into a corner, two into a side vertex, three into an interior one."""
    geometry = games.caeth_y.geometry(5)
    board = geometry.board
    for v in range(board.num_cells):
        kind = len(board.sides_of(v))  # 2 corner, 1 side, 0 interior
        assert geometry.threshold(v) == {2: 1, 1: 2, 0: 3}[kind], board.names[v]
    assert geometry.num_edges == 3 * 5 * 4 // 2


def _edge(game, name):
    state = game.new_initial_state()
    return next(a for a in state.legal_actions() if state.action_to_string(a) == name)


def _play(game, names):
    state = game.new_initial_state()
    for name in names:
        state.apply_action(_edge(game, name))
    return state


def test_a_vertex_goes_to_the_first_to_reach_half_and_stays():
    """The side vertex a2 of side 4 has four edges; Black holds a3-a2 and
    a2-b2, White a2-a1 and a2-b1, so both hold half. Whoever reached two first
    controls a2, whatever comes later: the position (and its hash) depends on
    the order of the captures, not only on who holds which edge."""
    game = load(4)
    a2 = make_board("triangle", 4).index_of_name["a2"]
    black_first = _play(game, ["a3-a2", "c2-c1", "a2-b2", "c2-d1", "b2-c2", "a2-a1", "b3-c2", "a2-b1"])
    white_first = _play(game, ["b2-c2", "a2-a1", "b3-c2", "a2-b1", "a3-a2", "c2-c1", "a2-b2", "c2-d1"])
    for state in (black_first, white_first):
        assert not state.is_terminal()
    assert black_first.core.edge_owners() == white_first.core.edge_owners()
    assert black_first.core.vertex_controllers()[a2] == 1
    assert white_first.core.vertex_controllers()[a2] == 2
    assert black_first.core.position_hash() != white_first.core.position_hash()
    # another order with the same first arrivals everywhere: the same position
    same = _play(game, ["a2-b2", "c2-d1", "a3-a2", "c2-c1", "b3-c2", "a2-b1", "b2-c2", "a2-a1"])
    assert same.core.vertex_controllers() == black_first.core.vertex_controllers()
    assert same.core.position_hash() == black_first.core.position_hash()


def test_swap_hands_the_first_edge_and_its_corner_to_white():
    game = load(4, swap=True)
    state = game.new_initial_state()
    swap = game.num_distinct_actions() - 1
    assert swap not in state.legal_actions()
    state.apply_action(_edge(game, "a1-b1"))  # a1 is a corner: Black controls it
    a1 = make_board("triangle", 4).index_of_name["a1"]
    assert state.core.vertex_controllers()[a1] == 1
    assert state.action_to_string(swap) == "swap" and swap in state.legal_actions()
    state.apply_action(swap)
    assert state.current_player() == 0
    assert state.core.vertex_controllers()[a1] == 2
    assert state.core.edge_owners()[_edge(game, "a1-b1")] == 2
    assert swap not in state.legal_actions()
    state.apply_action(_edge(game, "a4-a3"))
    assert swap not in state.legal_actions()


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 9), st.booleans(), seed)
def test_a_clone_is_independent_of_its_original(size, swap, s):
    rng = random.Random(s)
    state, _ = random_history(load(size, swap), rng)
    before = (str(state), state.legal_actions(), state.core.position_hash(), state.returns())
    copy = state.clone()
    while not copy.is_terminal():
        copy.apply_action(rng.choice(copy.legal_actions()))
    assert (str(state), state.legal_actions(), state.core.position_hash(), state.returns()) == before


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 11), st.booleans(), seed)
def test_every_game_ends_with_the_mover_holding_a_y(size, swap, s):
    """No draws: the game ends with a winner before the edges run out or on
    the last one, and the winner's controlled vertices hold a chain touching
    all three sides, the loser's none."""
    game = load(size, swap)
    state, history = random_history(game, random.Random(s), stop_early=False)
    returns = state.returns()
    assert sorted(returns) == [-1.0, 1.0]
    winner = returns.index(1.0)
    controllers = state.core.vertex_controllers()
    assert chain_touching_all_sides(size, controllers, winner + 1)
    assert not chain_touching_all_sides(size, controllers, 2 - winner)
    assert len(history) <= game.max_game_length()


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 11), seed)
def test_the_kernel_playout_ends_in_a_win_too(size, s):
    core = load(size).new_core()
    core.random_playout(s)
    stats = core.playout_stats()
    assert stats["winner"] in (0, 1) and core.terminal()
    assert chain_touching_all_sides(size, core.vertex_controllers(), stats["winner"] + 1)
    assert stats["captures"] == sum(1 for o in core.edge_owners() if o)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 8), st.booleans(), seed, st.integers(0, 5))
def test_symmetric_hash_is_the_hash_of_the_mirrored_game(size, swap, s, which):
    """Replaying a game through a board symmetry (each edge to the edge
    between the images of its ends) gives a legal game whose hash is the
    original's symmetric hash."""
    game = load(size, swap)
    geometry = games.caeth_y.geometry(size)
    state, history = random_history(game, random.Random(s))
    perm = geometry.board.symmetries[which % state.core.symmetry_count()]
    edge_of = {pair: e for e, pair in enumerate(geometry.edges)}
    mirrored = game.new_initial_state()
    for a in history:
        if a < geometry.num_edges:
            u, v = geometry.edges[a]
            a = edge_of[(min(perm[u], perm[v]), max(perm[u], perm[v]))]
        mirrored.apply_action(a)
    k = which % state.core.symmetry_count()
    assert mirrored.core.position_hash() == state.core.position_hash_under(k)
    assert mirrored.returns() == state.returns()


@pytest.mark.parametrize(
    "name", ["caeth_y(board_size=3)", "caeth_y(board_size=5,swap=true)", "caeth_y(board_size=9)"]
)
def test_openspiel_random_sim_test(name):
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=10, serialize=True, verbose=False)


@pytest.mark.parametrize("size", [2, 5, 19])
@pytest.mark.parametrize("swap", [False, True])
def test_games_and_states_pickle(size, swap):
    game = load(size, swap)
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.get_parameters() == game.get_parameters()
    state, _ = random_history(game, random.Random(size), stop_early=False)
    for s in (game.new_initial_state(), state):
        copy = pickle.loads(pickle.dumps(s))
        assert str(copy) == str(s) and copy.legal_actions() == s.legal_actions()
        assert copy.core.position_hash() == s.core.position_hash()
        assert copy.returns() == s.returns()


def test_rejects_bad_parameters_naming_the_allowed_values():
    for bad in (1, 20):
        with pytest.raises(Exception, match="2..19"):
            pyspiel.load_game(f"caeth_y(board_size={bad})")
    with pytest.raises(Exception, match="Unknown parameter"):
        pyspiel.load_game("caeth_y(size=5)")


def test_illegal_action_raises_and_leaves_the_state_alone():
    state = load(4).new_initial_state()
    state.apply_action(3)
    before = (str(state), state.legal_actions(), state.core.position_hash())
    for bad in (3, -1, 18, 99):  # taken, negative, swap without the rule, off
        with pytest.raises((ValueError, pyspiel.SpielError)):  # illegal; -1 is OpenSpiel's own refusal
            state.apply_action(bad)
    assert (str(state), state.legal_actions(), state.core.position_hash()) == before


def test_the_board_is_drawn_as_caeth_ys_rules_draw_it():
    state = load(3).new_initial_state()
    state.apply_action(_edge(pyspiel.load_game("caeth_y(board_size=3)"), "a3-b2"))
    assert str(state) == "\n".join(["    X", "   / x", "  *-.-*", " / \\ / \\", "*-.-*-.-*", "White to move"])

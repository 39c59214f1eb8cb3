"""Defector Y and Double-'0' Y: move-by-move agreement with the slow reference
model of the rules (tests/y_reference.py) under every option, and the claims
the rules pages make."""

import itertools
import random

import pyspiel
import pytest
from games.boards import make_board

import games  # noqa: F401
from y_reference import FlipReference, Geometry

SHAPES = [("triangle", 4), ("triangle", 5), ("hex", 2)]
DOUBLE_O = list(itertools.product(("all", "opponents", "friends"), (1, 122), ("turn_start", "turn_end")))


def reference_for(game_string, shape, size):
    game = pyspiel.load_game(game_string)
    params = game.get_parameters()
    geometry = Geometry.from_board(make_board(shape, size))
    later = 2 if params["protocol"] == 122 else 1
    if game.get_type().short_name == "defector_y":
        return game, FlipReference(geometry, {"opponents"}, "before_last", "every", later)
    kinds = {"all": {"opponents", "friends"}, "opponents": {"opponents"}, "friends": {"friends"}}[
        params["flip"]
    ]
    return game, FlipReference(geometry, kinds, "after_each", params["win"], later)


def play_against_reference(game_string, shape, size, seed, games_count):
    rng = random.Random(seed)
    for _ in range(games_count):
        game, ref = reference_for(game_string, shape, size)
        state = game.new_initial_state()
        steps = 0
        while True:
            assert state.is_terminal() == (ref.winner is not None), str(state)
            if state.is_terminal():
                assert state.returns() == ref.returns()
                break
            assert state.current_player() == ref.player
            assert state.legal_actions() == sorted(ref.legal()), str(state)
            action = rng.choice(ref.legal())
            state.apply_action(action)
            ref.apply(action)
            steps += 1
        assert steps <= game.max_game_length()


@pytest.mark.parametrize("shape,size", SHAPES)
@pytest.mark.parametrize("protocol", (1, 122))
def test_defector_y_follows_the_reference_rules(shape, size, protocol):
    s = f"defector_y(board_shape={shape},board_size={size},protocol={protocol})"
    play_against_reference(s, shape, size, seed=size + protocol, games_count=40)


@pytest.mark.parametrize("flip,protocol,win", DOUBLE_O)
@pytest.mark.parametrize("shape,size", SHAPES)
def test_double_o_y_follows_the_reference_rules(flip, protocol, win, shape, size):
    s = f"double_o_y(board_shape={shape},board_size={size},flip={flip},protocol={protocol},win={win})"
    play_against_reference(s, shape, size, seed=size, games_count=25)


ALL_VARIANTS = (
    [
        f"y_game(board_shape={sh},board_size={sz},swap={sw},turns={t},distinct_groups={d})"
        for (sh, sz) in (("triangle", 4), ("hex", 2))
        for sw in ("false", "true")
        for t in (1, 122, 123, 122344)
        for d in ("false", "true")
    ]
    + [
        f"defector_y(board_shape={sh},board_size={sz},protocol={p},conversion={c})"
        for (sh, sz) in (("triangle", 5), ("hex", 2))
        for p in (1, 122)
        for c in ("board", "local")
    ]
    + [
        f"double_o_y(board_shape={sh},board_size={sz},flip={f},protocol={p},win={w})"
        for (sh, sz) in (("triangle", 5), ("hex", 2))
        for (f, p, w) in DOUBLE_O
    ]
)


@pytest.mark.parametrize("game_string", ALL_VARIANTS)
def test_openspiel_random_sim_test(game_string):
    game = pyspiel.load_game(game_string)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_flip_games_reject_bad_parameters():
    for bad, allowed in [
        ("double_o_y(flip=some)", "all, opponents, friends"),
        ("double_o_y(protocol=2)", "1, 122"),
        ("double_o_y(win=never)", "turn_start, turn_end"),
        ("defector_y(protocol=123)", "1, 122"),
        ("defector_y(conversion=near)", "board, local"),
        ("defector_y(board_shape=hex,board_size=12)", "2..9"),
    ]:
        with pytest.raises(Exception, match=allowed):
            pyspiel.load_game(bad)


def test_conversions_are_mandatory_and_come_before_the_placement():
    """Defector Y, alternating: once White has two adjacent stones and nothing
    else around them, each has more White than Black neighbours, so Black's
    turn must start by converting one of them; the other then has a Black
    neighbour and stops qualifying, and Black places."""
    game = pyspiel.load_game("defector_y(board_size=4)")
    board = make_board("triangle", 4)
    name = board.index_of_name
    state = game.new_initial_state()
    for cell in ("a1", "d1", "a3", "c2"):  # Black a1 a3 (apart), White d1 c2 (adjacent)
        assert all(a < board.num_cells for a in state.legal_actions())
        state.apply_action(name[cell])
    assert state.current_player() == 0
    legal = state.legal_actions()
    assert sorted(a - board.num_cells for a in legal) == sorted([name["d1"], name["c2"]])
    state.apply_action(board.num_cells + name["d1"])
    assert state.current_player() == 0
    assert state.legal_actions() == [c for c in range(board.num_cells) if state.core.cell_colours()[c] == 0]


def test_hex_board_geometry_matches_the_rules_page():
    for k in range(2, 10):
        board = make_board("hex", k)
        assert board.num_cells == 3 * k * k
        sides = [{c for c in range(board.num_cells) if s in board.sides_of(c)} for s in range(3)]
        assert [len(s) for s in sides] == [2 * k] * 3
        corners = [c for c in range(board.num_cells) if len(board.sides_of(c)) == 2]
        assert len(corners) == 3
    board = make_board("hex", 4)
    rows = {}
    for r, _ in board.coords:
        rows[r] = rows.get(r, 0) + 1
    assert [rows[r] for r in sorted(rows, reverse=True)] == [5, 6, 7, 8, 7, 6, 5, 4]


@pytest.mark.parametrize(
    "shape,size", [("triangle", s) for s in range(2, 12)] + [("hex", k) for k in range(2, 7)]
)
def test_a_full_board_has_exactly_one_y(shape, size):
    """Why no game here can draw: every full board holds a Y of exactly one colour."""
    geometry = Geometry.from_board(make_board(shape, size))
    rng = random.Random(size)
    for _ in range(200):
        colours = [rng.choice((1, 2)) for _ in range(geometry.n)]
        assert geometry.has_y(colours, 1) != geometry.has_y(colours, 2)

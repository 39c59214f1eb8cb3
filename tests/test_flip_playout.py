"""The flip games' fast playout loop against play through ``apply``.

``FlipCore``'s random playout (what MCTS and the playout statistics run) has
the turn logic written out over local variables and its own win-check
shortcuts (``fresh`` stones, 128-bit floods). Here, for every Defector Y and
Double-'0' Y variant, on boards with one, two and three bitset words, from
the start and from random mid-game positions (flip phases included):

- it must play the very game that one ``apply`` at a time plays from the same
  random stream (same actions, same final position down to the pickled
  bytes: colours, balances, bitsets, hash, counters);
- every action it plays must be legal in the slow reference model of the
  rules (tests/y_reference.py), which must end the game at the same point
  with the same winner.
"""

import itertools
import random

import pyspiel
import pytest
from games.boards import make_board

import games  # noqa: F401
from test_flip_games import reference_for
from y_reference import Geometry

VARIANTS = [f"defector_y(protocol={p})" for p in (1, 122)] + [
    f"double_o_y(flip={f},protocol={p},win={w})"
    for f, p, w in itertools.product(("all", "opponents", "friends"), (1, 122), ("turn_start", "turn_end"))
]
# words of the bitsets: triangle 4, 7 and hex 3 one, triangle 11 two, triangle 17 three
BOARDS = [("triangle", 4), ("triangle", 7), ("triangle", 11), ("triangle", 17), ("hex", 3)]


def game_string(variant, shape, size):
    return variant.replace("(", f"(board_shape={shape},board_size={size},")


def random_position(game, rng, max_steps, in_flip_phase=False):
    """A random game's position after up to ``max_steps`` actions, or (with
    ``in_flip_phase``) at the first flip phase after that, if one comes."""
    state = game.new_initial_state()
    for step in itertools.count():
        if state.is_terminal() or (step >= max_steps and not in_flip_phase):
            break
        if in_flip_phase and step >= max_steps // 2 and state.core.in_flip_phase():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def position_bytes(core):
    """Everything a position is made of, from its pickle: colours, neighbour
    balances, the empty-cell list and each empty cell's index in it, the
    counters and hash, the bitsets (the index entries of filled cells are
    left-overs that nothing reads, so they are left out). The layout is
    colours (n + 1 bytes, the last the always-empty sentinel), crowding keys
    (colour and neighbour balance, n + 1), empty cells (n), their indices (n)."""
    args = list(core.__reduce__()[1])
    n = core.board.num_cells
    mem, position = args[6], args[7]
    assert len(mem) == 4 * n + 2
    empties = list(mem[2 * n + 2 : 2 * n + 2 + position["num_empty"]])
    args[6] = (mem[: 2 * n + 2], empties, [mem[3 * n + 2 + c] for c in empties])
    return args


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("shape,size", BOARDS)
def test_fast_playout_plays_the_game_apply_plays(variant, shape, size):
    game = pyspiel.load_game(game_string(variant, shape, size))
    rng = random.Random(size * 7919 + len(variant))
    mid_flip_phase = 0
    for seed in range(12):
        state = random_position(game, rng, 0 if seed < 4 else rng.randrange(40), in_flip_phase=seed >= 8)
        mid_flip_phase += state.core.in_flip_phase()
        fast, slow = state.core.clone(), state.core.clone()
        assert fast.playout_trace(seed, fast=True) == slow.playout_trace(seed, fast=False)
        assert position_bytes(fast) == position_bytes(slow)
        assert fast.to_string() == slow.to_string()
        assert fast.playout_stats() == slow.playout_stats()
        # the state stays usable: its Python face agrees after the playout
        assert fast.terminal() and fast.returns_list() == slow.returns_list()
        assert fast.position_hash() == slow.position_hash()
    if variant.startswith("double_o_y(flip=all") and size >= 7:
        assert mid_flip_phase > 0, "no playout started inside a flip phase"


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("shape,size", [("triangle", 5), ("hex", 2), ("triangle", 9)])
def test_fast_playout_follows_the_reference_rules(variant, shape, size):
    string = game_string(variant, shape, size)
    for seed in range(15):
        game, ref = reference_for(string, shape, size)
        core = game.new_core()
        trace = core.playout_trace(seed)
        for action in trace:
            assert ref.winner is None
            assert action in ref.legal()
            ref.apply(action)
        assert ref.winner is not None
        assert core.returns_list() == ref.returns()


def test_a_position_with_filled_symmetric_hashes_keeps_them_through_a_playout():
    """Solvers fill the symmetric-hash cache; a playout from such a position
    (it goes through apply) must leave every cached hash right."""
    game = pyspiel.load_game("double_o_y(board_size=7)")
    for seed in range(5):
        core = game.new_core()
        core.position_hash_under(1)  # fill the cache
        core.random_playout(seed)
        for symmetry in range(core.symmetry_count()):
            assert core.position_hash_under(symmetry) == core.symmetric_hash_by_scan(symmetry)


def test_the_win_check_sees_a_y_made_of_old_stones_after_a_restore():
    """A restored position knows no earlier check, so every stone counts as
    fresh: a Y already on the board is found."""
    game = pyspiel.load_game("double_o_y(board_size=5,win=turn_end)")
    geometry = Geometry.from_board(make_board("triangle", 5))
    rng = random.Random(4)
    found = 0
    for _ in range(40):
        state = random_position(game, rng, 60)
        restored = game.deserialize_state(state.serialize())
        colours = restored.core.cell_colours()
        for player in (0, 1):
            expected = geometry.has_y(colours, player + 1)
            assert restored.core.owns_y(player) == expected
            found += expected
    assert found > 0

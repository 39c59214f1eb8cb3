"""The flip games' incremental connectivity (FlipCore's union-find with
relabelling on flips) against connectivity recomputed from scratch.

After every action of hypothesis-chosen random games of every Defector Y and
Double-'0' Y variant, on triangles and limping hexagons, the core's groups
(cells and the side mask at their root), its count of groups touching all
three sides and its win test must equal what the slow reference model
(tests/y_reference.py, a set-based flood over the colours) and the core's own
board flood compute from the colours alone. The move-by-move rule tests in
test_flip_games.py check the outcomes; this checks the bookkeeping itself at
every position, including those where no win check is due. The symmetric
hashes the core also keeps incrementally are checked against a scan of the
cells at the same positions.
"""
import itertools
import random

import pyspiel
from hypothesis import given, settings, strategies as st

import games  # noqa: F401
from games.boards import make_board
from y_reference import Geometry

VARIANTS = (
    [f"defector_y(protocol={p})" for p in (1, 122)]
    + [f"double_o_y(flip={f},protocol={p},win={w})"
       for f, p, w in itertools.product(("all", "opponents", "friends"), (1, 122),
                                        ("turn_start", "turn_end"))])
BOARDS = [("triangle", 3), ("triangle", 5), ("triangle", 7), ("triangle", 11),
          ("hex", 2), ("hex", 3)]


def reference_groups(geometry, colours, colour):
    """Groups of one colour as (sorted cells, side mask), by plain set flooding."""
    seen, out = set(), []
    for start in range(geometry.n):
        if colours[start] != colour or start in seen:
            continue
        group, stack = {start}, [start]
        while stack:
            c = stack.pop()
            for d in geometry.neighbours[c]:
                if colours[d] == colour and d not in group:
                    group.add(d)
                    stack.append(d)
        seen |= group
        mask = sum(1 << s for s, side in enumerate(geometry.sides) if group & side)
        out.append((tuple(sorted(group)), mask))
    return sorted(out)


def check_connectivity(core, geometry):
    colours = core.cell_colours()
    for player in (0, 1):
        expected = reference_groups(geometry, colours, player + 1)
        assert core.groups(player) == expected, core.to_string()
        full = sum(1 for _, mask in expected if mask == 7)
        assert core.y_group_count(player) == full, core.to_string()
        assert core.owns_y(player) == (full > 0) == core.owns_y_by_flood(player) \
            == geometry.has_y(colours, player + 1)
    # the incrementally kept symmetric hashes (the solvers' table keys)
    for symmetry in range(core.symmetry_count()):
        assert core.position_hash_under(symmetry) == core.symmetric_hash_by_scan(symmetry)


def play_and_check(game_string, seed):
    game = pyspiel.load_game(game_string)
    params = game.get_parameters()
    geometry = Geometry.from_board(make_board(params["board_shape"], params["board_size"]))
    rng = random.Random(seed)
    state = game.new_initial_state()
    flips = 0
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        flips += action >= geometry.n
        state.apply_action(action)
        check_connectivity(state.core, geometry)
        # a copy carries the structure with it (MCTS and the solvers copy)
        if rng.random() < 0.05:
            state = state.clone()
    return flips


@settings(max_examples=120, deadline=None)
@given(variant=st.sampled_from(VARIANTS), board=st.sampled_from(BOARDS),
       seed=st.integers(0, 2**32 - 1))
def test_incremental_groups_equal_recomputed_groups(variant, board, seed):
    shape, size = board
    play_and_check(variant.replace("(", f"(board_shape={shape},board_size={size},"), seed)


def test_every_variant_flips_and_is_checked():
    """The sweep above is only worth something if flips (the hard case)
    happen: a fixed sweep over every variant on side 6 must see many."""
    total = 0
    for i, variant in enumerate(VARIANTS):
        for seed in range(3):
            total += play_and_check(variant.replace("(", "(board_size=6,"), 1000 * i + seed)
    assert total > 100


def test_pickled_state_keeps_connectivity():
    game = pyspiel.load_game("double_o_y(board_size=7)")
    geometry = Geometry.from_board(make_board("triangle", 7))
    rng = random.Random(3)
    state = game.new_initial_state()
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    restored = game.deserialize_state(state.serialize())
    check_connectivity(restored.core, geometry)
    while not restored.is_terminal():
        restored.apply_action(rng.choice(restored.legal_actions()))
        check_connectivity(restored.core, geometry)

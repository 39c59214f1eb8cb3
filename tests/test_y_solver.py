"""The dedicated Y solver (solvers/ysolver.py) against plain alpha-beta.

Its pruning (virtual wins with side links, must-play regions from the
opponent's one-move virtual wins, dead cells, captured-cell fill-in) is only worth having if it
never changes a value, so the values are compared with the general kernel,
which knows nothing of Y, on every reachable position of sides 3 and 4 with
each pruning switched off in turn and on a large random sample of side 5;
the virtual wins and must-play regions themselves on random positions of
sides 6 and 7, where the side links (third-row templates) reach; side 6
against the values in docs/solved.md; H-search's list bounds (which only
drop connections) at their smallest, old and largest settings.
"""

from __future__ import annotations

import random

import pyspiel
import pytest

import games  # noqa: F401
from solvers import ysolver
from solvers.alphabeta import make_searcher
from solvers.exhaustive import solve


def _game(n):
    return pyspiel.load_game(f"y_game(board_size={n})")


def _reachable(game):
    """Every non-terminal position reachable from the empty board, once each."""
    seen, out, stack = set(), [], [game.new_core()]
    while stack:
        core = stack.pop()
        if core.terminal():
            continue
        key = tuple(core.cell_colours())
        if key in seen:
            continue
        seen.add(key)
        out.append(core)
        for a in core.legal_action_list():
            child = core.clone()
            child.apply_action(a)
            stack.append(child)
    return out


def _alphabeta_value(searcher, core):
    v, exact = searcher.value(core)
    assert exact
    return v


ALL_ON = dict(
    virtual_connections=True,
    dead_cells=True,
    semi_mustplay=True,
    side_links=True,
    captured_cells=True,
    hsearch=True,
)
SWITCHES = [ALL_ON] + [{**ALL_ON, k: False} for k in ALL_ON] + [{k: False for k in ALL_ON}]


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("switches", SWITCHES, ids=["all"] + [f"no_{k}" for k in ALL_ON] + ["none"])
def test_every_position_matches_alpha_beta(n, switches):
    game = _game(n)
    positions = _reachable(game)
    assert len(positions) > (100 if n == 3 else 10_000)
    searcher = make_searcher(game, game.new_core(), tt_log2=16)
    solver = ysolver.make_solver(game, tt_log2=16, **switches)
    wrong = [
        core.to_string()
        for core in positions
        if ysolver.value(solver, core) != _alphabeta_value(searcher, core)
    ]
    assert not wrong, wrong[:3]
    if n == 4 and switches["captured_cells"]:
        assert solver.fill_ins > 0  # the fill-in was exercised, not just allowed


def test_random_side_5_positions_match_alpha_beta():
    game = _game(5)
    rng = random.Random(5)
    searcher = make_searcher(game, game.new_core(), tt_log2=18)
    solver = ysolver.make_solver(game, tt_log2=18)
    fresh_checked = checked = 0
    for i in range(1500):
        core = game.new_core()
        for _ in range(rng.randrange(0, 12)):
            if core.terminal():
                break
            core.apply_action(rng.choice(core.legal_action_list()))
        if core.terminal():
            continue
        expected = _alphabeta_value(searcher, core)
        assert ysolver.value(solver, core) == expected, core.to_string()
        if i % 10 == 0:  # a fresh table: no answer carried over from other positions
            assert ysolver.value(ysolver.make_solver(game, tt_log2=12), core) == expected
            fresh_checked += 1
        checked += 1
    assert checked > 1000 and fresh_checked > 100


@pytest.mark.parametrize("switches", SWITCHES[1:-1], ids=[f"no_{k}" for k in ALL_ON])
def test_random_side_5_positions_match_alpha_beta_with_a_pruning_off(switches):
    game = _game(5)
    rng = random.Random(55)
    searcher = make_searcher(game, game.new_core(), tt_log2=18)
    solver = ysolver.make_solver(game, tt_log2=18, **switches)
    checked = 0
    for _ in range(300):
        core = _random_position(game, rng, rng.randrange(2, 12))
        if core is None:
            continue
        assert ysolver.value(solver, core) == _alphabeta_value(searcher, core), core.to_string()
        checked += 1
    assert checked > 200


def _random_position(game, rng, stones):
    """A random non-terminal position with ``stones`` stones (None if the game ended)."""
    core = game.new_core()
    for _ in range(stones):
        core.apply_action(rng.choice(core.legal_action_list()))
        if core.terminal():
            return None
    return core


def _mover_value(searcher, core):
    """+1 if the player to move wins ``core``, -1 if it loses (plain alpha-beta)."""
    v = _alphabeta_value(searcher, core)
    return v if core.player() == 0 else -v


@pytest.mark.parametrize("n,stones_range,count", [(6, (10, 17), 60), (7, (16, 22), 25)])
def test_claimed_virtual_wins_and_must_play_regions_are_real(n, stones_range, count):
    """Checks steps 3 and 4b directly, where side links (third-row templates)
    occur: the player *not* to move with a found virtual win wins with its
    opponent to move, and every move outside the must-play region loses
    (even where the mover could win at once: a sound region holds that cell)."""
    game = _game(n)
    rng = random.Random(n)
    searcher = make_searcher(game, game.new_core(), tt_log2=20)
    solver = ysolver.make_solver(game, tt_log2=12)
    full = (1 << game.new_core().board.num_cells) - 1
    wins = regions = outside = 0
    for _ in range(count * 20):
        if wins >= count and regions >= count:
            break
        core = _random_position(game, rng, rng.randrange(*stones_range))
        if core is None:
            continue
        black, white, mover = ysolver.position_of(core)
        mine, theirs = (black, white) if mover == 0 else (white, black)
        empty = full & ~(black | white)
        if solver.virtual_win(theirs, empty) is not None:
            assert _mover_value(searcher, core) == -1, core.to_string()
            wins += 1
            continue
        must = solver.semi_mustplay(theirs, empty)
        if must == empty:
            continue
        regions += 1
        for c in range(game.new_core().board.num_cells):
            if empty >> c & 1 and not must >> c & 1:
                child = core.clone()
                child.apply_action(c)  # the opponent then moves and wins
                assert not child.terminal() and _mover_value(searcher, child) == 1, (core.to_string(), c)
                outside += 1
    assert wins >= count and regions >= count and outside > count


def test_side_links_find_the_third_row_template():
    """After Black's b3 on side 6 (second row from one side, third row from
    the other two) White has no move outside every one-move virtual win of
    Black's: those need third-row templates (ziggurats), which plain edge
    templates cannot see; b3 is a winning opening (docs/solved.md), and with
    side links the solver proves it at its first node."""
    game = _game(6)
    board = game.new_core().board
    stone = 1 << board.index_of_name["b3"]
    empty = ((1 << board.num_cells) - 1) & ~stone
    on = ysolver.make_solver(game, tt_log2=10)
    off = ysolver.make_solver(game, tt_log2=10, side_links=False)
    assert on.semi_mustplay(stone, empty) == 0
    assert off.semi_mustplay(stone, empty) != 0
    assert ysolver.value(on, _after(game, "b3")) == 1.0 and on.nodes == 1


def _after(game, *cells):
    core = game.new_core()
    for cell in cells:
        core.apply_action(core.board.index_of_name[cell])
    return core


def test_finished_game_gives_its_result():
    game = _game(3)
    core = game.new_core()
    for cell in ("a1", "a2", "b1", "b2", "c1"):  # Black a1 b1 c1: the bottom row, a Y
        if core.terminal():
            break
        core.apply_action(core.board.index_of_name[cell])
    assert core.terminal()
    assert ysolver.value(ysolver.make_solver(game, tt_log2=10), core) == core.returns_list()[0]


@pytest.mark.parametrize(
    "n,winning", [(4, {"a3", "b3", "a2", "b2", "c2", "b1", "c1"}), (5, {"b3", "b2", "c2"})]
)
def test_exhaustive_solve_picks_it_for_y_and_agrees(n, winning):
    fast = solve(f"y_game(board_size={n})")
    plain = solve(f"y_game(board_size={n})", method="alphabeta")
    assert fast["method"] == "ysolver" and plain["method"] == "alphabeta"
    assert fast["value"] == plain["value"] == 1.0
    assert fast["opening_values"] == plain["opening_values"]
    assert set(fast["winning_first_moves"]) == winning


def test_other_y_variants_keep_the_general_kernel():
    for gs in (
        "y_game(board_size=4,swap=True)",
        "y_game(board_size=4,turns=122)",
        "y_game(board_size=2,board_shape=hex)",
    ):
        assert not ysolver.applies(pyspiel.load_game(gs))
        assert solve(gs)["method"] == "alphabeta"
    with pytest.raises(ValueError, match="method must be"):
        solve("y_game(board_size=3)", method="bogus")
    with pytest.raises(ValueError, match="ysolver needs"):
        solve("y_game(board_size=3,swap=True)", method="ysolver")
    with pytest.raises(ValueError, match="triangle of side <= 10"):
        ysolver.make_solver(pyspiel.load_game("y_game(board_size=11)"))


def test_time_limit_stops_a_solve():
    game = _game(8)  # side 7 now takes half a second; side 8's classes take minutes
    r = solve(game, time_limit=0.3)
    assert r["complete"] is False and "not solved" in r["error"]


@pytest.mark.slow
def test_side_6_matches_docs_solved():
    r = solve("y_game(board_size=6)")
    assert r["method"] == "ysolver" and r["value"] == 1.0 and r["complete"]
    assert sorted(r["winning_first_moves"]) == ["b3", "c2", "c3"]


def test_side_7_matches_hexwiki():
    """HexWiki's "Where to swap (y)" map of side 7, as docs/solved.md
    translates it: the openings that win are the 10 cells (r, c) with
    r <= 5 and 1 <= c <= r - 1 (the interior cells). About 1,200 nodes and
    half a second with H-search and the centrality prior (20 M nodes and 72 s
    of CPU time before them)."""
    r = solve("y_game(board_size=7)", tt_log2=20)
    n = 7
    expected = {
        f"{chr(ord('a') + c)}{n - row}"
        for row in range(n)
        for c in range(n)
        if row <= 5 and 1 <= c <= row - 1
    }
    assert len(expected) == 10
    assert r["method"] == "ysolver" and r["value"] == 1.0 and r["complete"]
    assert set(r["winning_first_moves"]) == expected


def _hsearch_claims_hold(game, solver, searcher, core):
    """Checks step 6 (H-search) on one position from both sides' view; returns
    (virtual wins, one-move-win regions, moves checked outside a region)."""
    full = (1 << game.new_core().board.num_cells) - 1
    black, white, mover = ysolver.position_of(core)
    mine, theirs = (black, white) if mover == 0 else (white, black)
    empty = full & ~(black | white)
    wins = regions = outside = 0
    kind, cells = solver.hsearch(mine, empty)
    if kind:  # a virtual win, or a one-move win with the mover to play it: the mover wins
        assert _mover_value(searcher, core) == 1, ("mover", kind, core.to_string())
        wins += 1
    kind, cells = solver.hsearch(theirs, empty)
    if kind == 2:
        assert _mover_value(searcher, core) == -1, ("virtual win", core.to_string())
        wins += 1
    elif kind == 1:
        assert cells & ~empty == 0
        regions += 1
        for c in range(game.new_core().board.num_cells):
            if empty >> c & 1 and not cells >> c & 1:
                child = core.clone()
                child.apply_action(c)  # the opponent then plays a key and wins
                assert not child.terminal() and _mover_value(searcher, child) == 1, (core.to_string(), c)
                outside += 1
    return wins, regions, outside


@pytest.mark.parametrize("n,stones_range,count", [(5, (2, 10), 150), (6, (6, 17), 60), (7, (12, 22), 25)])
def test_hsearch_claims_are_real(n, stones_range, count):
    """Step 6 (H-search) on its own, not masked by the earlier steps: on
    random positions, a virtual win or one-move win found for the mover
    means the mover wins; one found for its opponent means the mover loses
    (virtual win) or loses with every move outside the must-play region;
    each checked by plain alpha-beta, which knows nothing of Y."""
    game = _game(n)
    rng = random.Random(17 + n)
    searcher = make_searcher(game, game.new_core(), tt_log2=20)
    solver = ysolver.make_solver(game, tt_log2=12)
    wins = regions = outside = 0
    for _ in range(count * 40):
        if wins >= count and regions >= count:
            break
        core = _random_position(game, rng, rng.randrange(*stones_range))
        if core is None:
            continue
        w, r, o = _hsearch_claims_hold(game, solver, searcher, core)
        wins, regions, outside = wins + w, regions + r, outside + o
    assert wins >= count and regions >= count and outside > count, (wins, regions, outside)


def test_hsearch_claims_on_every_side_4_position():
    game = _game(4)
    searcher = make_searcher(game, game.new_core(), tt_log2=16)
    solver = ysolver.make_solver(game, tt_log2=10)
    total = [0, 0, 0]
    for core in _reachable(game):
        for i, x in enumerate(_hsearch_claims_hold(game, solver, searcher, core)):
            total[i] += x
    assert total[0] > 1000 and total[1] > 100 and total[2] > 100, total


def _cells(board, names):
    return sum(1 << board.index_of_name[n] for n in names)


def test_dead_cells_with_both_colours_around():
    """Step 5: b3 on side 5 (interior) walled in by one Black group
    (a4 b4 a3) and one White group (c3 c2 b2) is dead; split either colour's
    neighbours over two groups and it is not (a stone there would join them)."""
    game = _game(5)
    board = game.new_core().board
    solver = ysolver.make_solver(game, tt_log2=10)
    b3 = 1 << board.index_of_name["b3"]
    dead = solver.dead_cells(_cells(board, ["a4", "b4", "a3"]), _cells(board, ["c3", "c2", "b2"]))
    assert dead & b3
    # White's c3 and b2 apart (c2 Black): b3 would join them
    assert not solver.dead_cells(_cells(board, ["a4", "b4", "a3", "c2"]), _cells(board, ["c3", "b2"])) & b3
    # a side cell: a2 (left side; neighbours a3 b2 a1 b1) with Black a3 b2 (one group, on
    # the left side through a3) and White a1 b1 (one group, on the left side through a1)
    a2 = 1 << board.index_of_name["a2"]
    assert solver.dead_cells(_cells(board, ["a3", "b2"]), _cells(board, ["a1", "b1"])) & a2
    # the corner a1 (left and bottom; neighbours a2 b1) beside Black a2 (left side only) and
    # White b1 (bottom only): a stone there would add a side for either, so it is not dead
    a1 = 1 << board.index_of_name["a1"]
    assert not solver.dead_cells(_cells(board, ["a2"]), _cells(board, ["b1"])) & a1
    assert solver.dead_cells(_cells(board, ["a2", "b2", "b1"]), 0) & a1


def test_mixed_dead_cells_occur_in_play():
    """The generalised pattern (both colours around) is met on side 4, where
    every position is checked against alpha-beta with it on and off."""
    game = _game(4)
    board = game.new_core().board
    solver = ysolver.make_solver(game, tt_log2=10)
    mixed = 0
    for core in _reachable(game):
        black, white, _ = ysolver.position_of(core)
        dead = solver.dead_cells(black, white)
        while dead:
            c = (dead & -dead).bit_length() - 1
            dead &= dead - 1
            around = board.neighbours(c)
            if any(black >> d & 1 for d in around) and any(white >> d & 1 for d in around):
                mixed += 1
    assert mixed > 100, mixed


def test_centrality_prior_is_checked_and_only_orders():
    game = _game(5)
    with pytest.raises(ValueError, match="centrality"):
        ysolver.make_solver(game, centrality=-1)
    rng = random.Random(3)
    plain = ysolver.make_solver(game, tt_log2=14, centrality=0)
    ordered = ysolver.make_solver(game, tt_log2=14)
    for _ in range(200):
        core = _random_position(game, rng, rng.randrange(0, 8))
        if core is not None:
            assert ysolver.value(plain, core) == ysolver.value(ordered, core), core.to_string()


def test_bench_compares_with_the_solver_before_hsearch():
    from experiments import bench_solvers

    out = bench_solvers.y_solver_comparison((4,), tt_log2=14, alphabeta=True, baseline=True)
    (row,) = out["rows"]
    assert row["values_agree"] and row["value"] == 1.0
    assert row["winning_first_moves"] == sorted(["a3", "b3", "a2", "b2", "c2", "b1", "c1"])
    assert row["root_nodes"] > 0 and row["pre_hsearch_nodes"] > 0 and row["baseline_nodes"] > 0


# H-search's list bounds: smallest (almost no H-search), the bounds before the
# side-8 work raised them, and the largest room the kernel has
BOUNDS = [
    dict(hsearch_vcs=1, hsearch_scs=1, hsearch_queue=1),
    dict(hsearch_vcs=4, hsearch_scs=6, hsearch_queue=4096),
    dict(hsearch_vcs=16, hsearch_scs=24, hsearch_queue=65536),
]


def test_hsearch_bounds_are_checked():
    game = _game(4)
    for bad in (
        dict(hsearch_vcs=0),
        dict(hsearch_vcs=17),
        dict(hsearch_scs=25),
        dict(hsearch_queue=0),
        dict(hsearch_queue=65537),
    ):
        with pytest.raises(ValueError, match="H-search bounds"):
            ysolver.make_solver(game, **bad)
    solver = ysolver.make_solver(game, tt_log2=10)
    assert (solver.kv, solver.ks, solver.qmax) == (
        ysolver.HSEARCH_VCS,
        ysolver.HSEARCH_SCS,
        ysolver.HSEARCH_QUEUE,
    )


@pytest.mark.parametrize("bounds", BOUNDS, ids=["1-1-1", "4-6-4096", "16-24-65536"])
def test_hsearch_bounds_keep_every_value(bounds):
    """A bound only drops connections: every side-4 position and random side-5
    positions give plain alpha-beta's value whatever the lists hold."""
    game = _game(4)
    searcher = make_searcher(game, game.new_core(), tt_log2=16)
    solver = ysolver.make_solver(game, tt_log2=14, **bounds)
    wrong = [
        core.to_string()
        for core in _reachable(game)
        if ysolver.value(solver, core) != _alphabeta_value(searcher, core)
    ]
    assert not wrong, wrong[:3]
    game = _game(5)
    rng = random.Random(8)
    searcher = make_searcher(game, game.new_core(), tt_log2=18)
    solver = ysolver.make_solver(game, tt_log2=16, **bounds)
    checked = 0
    for _ in range(300):
        core = _random_position(game, rng, rng.randrange(1, 12))
        if core is not None:
            assert ysolver.value(solver, core) == _alphabeta_value(searcher, core), core.to_string()
            checked += 1
    assert checked > 200


@pytest.mark.parametrize("n,stones_range,count", [(5, (2, 10), 100), (6, (6, 17), 40), (7, (12, 22), 15)])
@pytest.mark.slow
def test_hsearch_claims_with_the_largest_lists_are_real(n, stones_range, count):
    """The claims of ``test_hsearch_claims_are_real`` with the largest lists
    (more connections found, each one a claim alpha-beta checks)."""
    game = _game(n)
    rng = random.Random(170 + n)
    searcher = make_searcher(game, game.new_core(), tt_log2=20)
    solver = ysolver.make_solver(game, tt_log2=12, **BOUNDS[-1])
    wins = regions = outside = 0
    for _ in range(count * 40):
        if wins >= count and regions >= count:
            break
        core = _random_position(game, rng, rng.randrange(*stones_range))
        if core is None:
            continue
        w, r, o = _hsearch_claims_hold(game, solver, searcher, core)
        wins, regions, outside = wins + w, regions + r, outside + o
    assert wins >= count and regions >= count and outside > count, (wins, regions, outside)


def test_bench_compares_hsearch_bounds():
    from experiments import bench_solvers

    out = bench_solvers.y_list_bounds(5, ("a1", "b3"), ("1/1/1", "8/12/16384"), tt_log2=12, time_limit=60)
    assert out["all_agree"] and [r["opening"] for r in out["rows"]] == ["a1", "b3"]
    assert [r["runs"]["8/12/16384"]["value"] for r in out["rows"]] == [-1.0, 1.0]
    assert out["rows"][0]["runs"]["8/12/16384"]["node_ratio"] > 0
    with pytest.raises(ValueError, match="VCS/SCS/QUEUE"):
        bench_solvers.y_list_bounds(5, ("a1",), ("4/6",))


def test_command_line_solves_classes_with_chosen_bounds(capsys):
    """``python -m solvers.ysolver``: side 5's classes with non-default
    bounds give the known winning moves; malformed bounds are refused."""
    import json

    assert ysolver.main(["--size", "5", "--hsearch-bounds", "12/18/32768", "--json", "--tt-log2", "14"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hsearch_bounds"] == [12, 18, 32768] and not out["unsolved"]
    assert sorted(out["winning_first_moves"]) == ["b2", "b3", "c2"]
    for bad in ("4/6", "17/12/100", "a/b/c"):
        with pytest.raises(SystemExit):
            ysolver.main(["--size", "5", "--hsearch-bounds", bad])
        assert "--hsearch-bounds" in capsys.readouterr().err

"""The alpha-beta table's replacement schemes change node counts, never values.

``Searcher(..., tt_replace=...)`` only decides which table entry is forgotten
when a bucket is full (``solvers/_alphabeta.pyx``, ``Searcher._store``), so a
solve with any scheme must give exactly the values of today's scheme
("depth"). These tests force the question with the smallest table the kernel
allows (2**10 entries, shared across all positions of a board, so every
bucket is overwritten many times and stale entries of other positions are
probed) against the default scheme with a roomy table, on every reachable
non-terminal position of the flip games' small boards (all 14 Double-'0' Y /
Defector Y variants and Flipway with and without pie) and on random
mid-game positions of side 5. The default scheme itself is checked against
the generic engine (a plain search over the pyspiel API) in
``tests/test_solvers.py``, and against that engine here on the side-3 roots.
"""

from __future__ import annotations

import random

import pyspiel
import pytest

import games  # noqa: F401  (registers the games)
import games.flipway  # noqa: F401
from solvers.alphabeta import Searcher
from solvers.exhaustive import solve

FLIP_VARIANTS = (
    [f"defector_y(board_size={{n}},protocol={p})" for p in (1, 122)]
    + [
        f"double_o_y(board_size={{n}},flip={f},protocol={p},win={w})"
        for f in ("all", "opponents", "friends")
        for p in (1, 122)
        for w in ("turn_start", "turn_end")
    ]
    + ["flipway(board_size={n})", "flipway(board_size={n},pie=True)"]
)
SCHEMES = ("size", "size4")


def _reachable(game, limit: int = 10**6):
    """Non-terminal positions reachable from the start, once each (by their string)."""
    seen, out, stack = set(), [], [game.new_core()]
    while stack and len(out) < limit:
        core = stack.pop()
        if core.terminal():
            continue
        key = core.to_string()
        if key in seen:
            continue
        seen.add(key)
        out.append(core)
        for a in core.legal_action_list():
            child = core.clone()
            child.apply_action(a)
            stack.append(child)
    return out


def _searcher(game, tt_log2: int, scheme: str) -> Searcher:
    core = game.new_core()
    return Searcher(core, 0, game.min_utility(), game.max_utility(), True, tt_log2, tt_replace=scheme)


def _values(searcher: Searcher, positions) -> list[float]:
    out = []
    for core in positions:
        v, exact = searcher.value(core)
        assert exact
        out.append(v)
    return out


def _check_all_positions(gs: str, positions) -> None:
    game = pyspiel.load_game(gs)
    reference = _values(_searcher(game, 18, "depth"), positions)
    for scheme in SCHEMES:
        searcher = _searcher(game, 10, scheme)
        got = _values(searcher, positions)
        wrong = [p.to_string() for p, a, b in zip(positions, got, reference, strict=True) if a != b]
        assert not wrong, (scheme, wrong[:2])


@pytest.mark.parametrize("template", FLIP_VARIANTS)
def test_every_side_3_position_keeps_its_value(template):
    gs = template.format(n=3)
    positions = _reachable(pyspiel.load_game(gs))
    assert len(positions) > 50
    _check_all_positions(gs, positions)


@pytest.mark.parametrize("template", FLIP_VARIANTS)
def test_side_3_roots_match_the_generic_engine(template):
    gs = template.format(n=3)
    plain = solve(gs, engine="pyspiel")
    for scheme in SCHEMES:
        r = solve(gs, tt_log2=10, tt_replace=scheme)
        assert (r["value"], r["opening_values"]) == (plain["value"], plain["opening_values"])


@pytest.mark.parametrize("template", [FLIP_VARIANTS[0], FLIP_VARIANTS[5], FLIP_VARIANTS[-2]])
def test_every_side_4_position_keeps_its_value(template):
    gs = template.format(n=4)
    positions = _reachable(pyspiel.load_game(gs))
    assert len(positions) > 10_000
    _check_all_positions(gs, positions)


@pytest.mark.slow
@pytest.mark.parametrize("template", FLIP_VARIANTS)
def test_every_side_4_position_keeps_its_value_all_variants(template):
    gs = template.format(n=4)
    _check_all_positions(gs, _reachable(pyspiel.load_game(gs)))


def _random_positions(game, count: int, seed: int, lo: int = 6, hi: int = 11):
    """Non-terminal positions after ``lo``..``hi`` uniformly random actions
    (a side-5 board has 15 cells; fewer actions make each check a solve of
    millions of nodes with the tiny table)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        core = game.new_core()
        for _ in range(rng.randint(lo, hi)):
            if core.terminal():
                break
            core.apply_action(rng.choice(core.legal_action_list()))
        if not core.terminal():
            out.append(core)
    return out


@pytest.mark.parametrize(
    "template", [FLIP_VARIANTS[1], FLIP_VARIANTS[4], FLIP_VARIANTS[9], FLIP_VARIANTS[-1]]
)
def test_random_side_5_positions_keep_their_value(template):
    gs = template.format(n=5)
    game = pyspiel.load_game(gs)
    _check_all_positions(gs, _random_positions(game, 30, seed=17))


@pytest.mark.slow
@pytest.mark.parametrize("template", FLIP_VARIANTS)
def test_random_side_5_positions_keep_their_value_all_variants(template):
    gs = template.format(n=5)
    game = pyspiel.load_game(gs)
    _check_all_positions(gs, _random_positions(game, 150, seed=5, lo=4, hi=14))


def test_size_preferred_tables_save_nodes_under_pressure():
    # Not a timing: with a table far smaller than the tree, keeping the
    # entries that cost the most to recompute must search fewer nodes than
    # two-deep recency (measured: 8,731 against 7,372 nodes at 2**10; on
    # side 5 at 2**14, 4.26 M against 3.36 M).
    gs = "double_o_y(board_size=4,flip=opponents,protocol=1,win=turn_start)"
    depth = solve(gs, tt_log2=10, tt_replace="depth")
    size = solve(gs, tt_log2=10, tt_replace="size")
    assert size["opening_values"] == depth["opening_values"]
    assert size["nodes"] < depth["nodes"]


def test_unknown_scheme_is_refused():
    game = pyspiel.load_game("double_o_y(board_size=3)")
    with pytest.raises(ValueError, match="tt_replace must be one of depth, size, size4"):
        _searcher(game, 10, "lru")


def test_bench_compares_every_flip_variant(capsys):
    from experiments import bench_solvers

    assert bench_solvers.main(["--tt-compare", "--tt-size", "3", "--tt-log2", "10", "--json"]) == 0
    import json

    out = json.loads(capsys.readouterr().out)
    assert out["all_agree"] and len(out["rows"]) == len(FLIP_VARIANTS)
    assert [r["game"] for r in out["rows"]] == [t.format(n=3) for t in FLIP_VARIANTS]
    for r in out["rows"]:
        assert set(r["schemes"]) == {"depth", "size", "size4"}
        assert r["schemes"]["size"]["node_ratio"] > 0
    with pytest.raises(SystemExit):
        bench_solvers.main(["--tt-compare", "--tt-size", "9"])

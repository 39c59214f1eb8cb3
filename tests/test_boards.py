"""Board geometry (games/boards): the square grid Flipway is built on, checked
against coordinates computed here, and boards surviving pickling as the
shared per-size objects the kernels expect."""

from __future__ import annotations

import pickle

import pytest
from games.boards import SquareGrid, make_board, point_name


def rc(n, p):
    return divmod(p, n)


@pytest.mark.parametrize("n", [2, 3, 6])
def test_areas_hold_the_right_points(n):
    grid = SquareGrid(n)
    assert (grid.num_points, grid.num_areas, grid.width) == (n * n, (n - 1) ** 2, n + 2)
    held = {p: [] for p in range(n * n)}
    for a in range(grid.num_areas):
        r, c = divmod(a, n - 1)
        tl, tr, bl, br = grid.area_points(a)
        assert [rc(n, p) for p in (tl, tr, bl, br)] == [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
        for p in (tl, tr, bl, br):
            held[p].append(a)
    for p in range(n * n):
        r, c = rc(n, p)
        inner_rows = 2 if 0 < r < n - 1 else 1
        inner_cols = 2 if 0 < c < n - 1 else 1
        assert sorted(grid.areas_of(p)) == sorted(held[p])
        assert len(held[p]) == inner_rows * inner_cols


def test_edges_and_names():
    grid = SquareGrid(4)
    assert grid.edges_of(0) == ["top", "left"]
    assert grid.edges_of(15) == ["bottom", "right"]
    assert grid.edges_of(5) == []
    assert grid.names[0] == "a4" and grid.names[12] == "a1" and grid.names[15] == "d1"
    assert point_name(4, 3) == "d4"


@pytest.mark.parametrize("n", [3, 4, 5])
def test_symmetries_are_the_squares_eight(n):
    grid = SquareGrid(n)
    maps = grid.symmetry_maps()
    assert len(maps) == 8 and maps[0] == tuple(range(n * n))
    assert len(set(maps)) == 8
    top = {p for p in range(n * n) if p < n}
    left = {p for p in range(n * n) if p % n == 0}
    bottom = {p for p in range(n * n) if p >= n * (n - 1)}
    right = {p for p in range(n * n) if p % n == n - 1}
    for s, image in enumerate(maps):
        assert sorted(image) == list(range(n * n))
        # each map is an isometry: orthogonal neighbours stay neighbours
        for p in range(n * n):
            for q in (p + 1, p + n):
                if q < n * n and (q == p + n or p % n < n - 1):
                    (r1, c1), (r2, c2) = rc(n, image[p]), rc(n, image[q])
                    assert abs(r1 - r2) + abs(c1 - c2) == 1
        moved = {frozenset(image[p] for p in side) for side in (top, bottom, left, right)}
        assert moved == {frozenset(x) for x in (top, bottom, left, right)}
        keeps_pairs = {frozenset(image[p] for p in top), frozenset(image[p] for p in bottom)} == {
            frozenset(top),
            frozenset(bottom),
        }
        assert keeps_pairs == (s < 4)


def test_bad_sizes_and_indices_are_refused():
    with pytest.raises(ValueError, match="2..255"):
        SquareGrid(1)
    grid = SquareGrid(3)
    with pytest.raises(ValueError, match="0..3"):
        grid.area_points(4)
    with pytest.raises(ValueError, match="0..8"):
        grid.areas_of(9)


def test_boards_pickle():
    grid = pickle.loads(pickle.dumps(SquareGrid(5)))
    assert type(grid) is SquareGrid and grid.symmetry_maps() == SquareGrid(5).symmetry_maps()
    board = make_board("hex", 3)
    assert pickle.loads(pickle.dumps(board)) is board  # the shared board of its kind

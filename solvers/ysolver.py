"""The dedicated exact solver of plain Y (``solvers/_ysolver.pyx``), for the
positions of ``y_game`` it applies to.

It only knows plain Y: a triangle of side <= 10 (cells fit in 64 bits), one
stone a turn, no swap. ``applies`` says whether a game is such a Y, so
``solvers.exhaustive`` can pick this solver for it and the general kernel
for everything else. Values are player 0's return (+1 / -1), as everywhere in
``solvers/``.
"""
from __future__ import annotations

from games.openspiel import core_of
from solvers._ysolver import YSolver, YSolveTimeout

MAX_CELLS = 64


def applies(game) -> bool:
    """True for ``y_game`` on a triangle of at most 64 cells, alternate turns, no swap."""
    if game.get_type().short_name != "y_game":
        return False
    p = game.get_parameters()
    n = p.get("board_size", 11)
    return (p.get("board_shape", "triangle") == "triangle" and p.get("turns", 1) == 1
            and not p.get("swap", False) and n * (n + 1) // 2 <= MAX_CELLS)


def make_solver(game, *, tt_log2: int = 22, virtual_connections: bool = True,
                dead_cells: bool = True, semi_mustplay: bool = True,
                side_links: bool = True) -> YSolver:
    """A solver for ``game``'s board (reuse it across that board's positions)."""
    if not applies(game):
        raise ValueError(f"the Y solver handles y_game on a triangle of side <= 10 with "
                         f"turns=1 and swap=False, not {game}")
    if not 10 <= tt_log2 <= 30:
        raise ValueError(f"tt_log2 must be in 10..30, got {tt_log2}")
    board = core_of(game).board
    n = board.num_cells
    return YSolver(n, [board.neighbours(c) for c in range(n)], [board.sides_of(c) for c in range(n)],
                   [list(perm) for perm in board.symmetries], tt_log2, virtual_connections,
                   dead_cells, semi_mustplay, side_links)


def position_of(core) -> tuple[int, int, int]:
    """(Black's cells, White's cells, player to move) of a ``y_game`` core, cells as bit sets."""
    black = white = 0
    for c, colour in enumerate(core.cell_colours()):
        if colour == 1:
            black |= 1 << c
        elif colour == 2:
            white |= 1 << c
    return black, white, core.player()


def value(solver: YSolver, core, time_limit: float = 0.0) -> float:
    """Player 0's exact value of the ``y_game`` position ``core`` (a finished
    game gives its result). Raises ``YSolveTimeout`` after ``time_limit`` s (0: none)."""
    if core.terminal():
        return float(core.returns_list()[0])
    black, white, mover = position_of(core)
    mover_wins = solver.solve(black, white, mover, time_limit)
    return 1.0 if mover_wins == (mover == 0) else -1.0

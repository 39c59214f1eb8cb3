"""The dedicated exact solver of plain Y (``solvers/_ysolver.pyx``), for the
positions of ``y_game`` it applies to.

It only knows plain Y: a triangle of side <= 10 (cells fit in 64 bits), one
stone a turn, no swap. ``applies`` says whether a game is such a Y, so
``solvers.exhaustive`` can pick this solver for it and the general kernel
for everything else. Values are player 0's return (+1 / -1), as everywhere in
``solvers/``.

As a command it solves chosen openings one symmetry class at a time, each
with its own time limit, so a board too big to solve whole in one run
(``python -m solvers.solve --openings`` stops at its first unfinished
class) still yields every opening that can be proven, in the order asked:

    python -m solvers.ysolver --size 8 --openings c3 c4 b5 --time-limit 300 --json
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from games.openspiel import core_of
from solvers._ysolver import YSolver, YSolveTimeout

MAX_CELLS = 64
# the move-order prior's weight: a cutoff adds (empty cells)^2 <= 55^2 to a
# history score, so a prior of 10,000 per cell of distance from the nearest
# side decides the first moves tried until the search has learnt better
# (side-8 opening b4 from a fresh solver: 1,059,440 nodes without it, 9,167 with)
CENTRALITY = 10_000
# H-search's list bounds (full / semi-connections kept per node pair, VCs
# queued per H-search): side-8 opening b6 from a fresh solver was not solved
# in 533 K nodes with 4 / 6 / 4,096 and took 139 K with 8 / 12 / 16,384
HSEARCH_VCS, HSEARCH_SCS, HSEARCH_QUEUE = 8, 12, 16_384


def applies(game) -> bool:
    """True for ``y_game`` on a triangle of at most 64 cells, alternate turns, no swap."""
    if game.get_type().short_name != "y_game":
        return False
    p = game.get_parameters()
    n = p.get("board_size", 11)
    return (
        p.get("board_shape", "triangle") == "triangle"
        and p.get("turns", 1) == 1
        and not p.get("swap", False)
        and n * (n + 1) // 2 <= MAX_CELLS
    )


def make_solver(
    game,
    *,
    tt_log2: int = 22,
    virtual_connections: bool = True,
    dead_cells: bool = True,
    semi_mustplay: bool = True,
    side_links: bool = True,
    captured_cells: bool = True,
    hsearch: bool = True,
    centrality: int = CENTRALITY,
    hsearch_vcs: int = HSEARCH_VCS,
    hsearch_scs: int = HSEARCH_SCS,
    hsearch_queue: int = HSEARCH_QUEUE,
) -> YSolver:
    """A solver for ``game``'s board (reuse it across that board's positions).

    The booleans switch the pruning steps of ``solvers/_ysolver.pyx`` (all
    on by default); ``centrality`` is the move-order prior (history scores
    start at it times a cell's distance to the nearest side; 0: none);
    ``hsearch_vcs``/``hsearch_scs``/``hsearch_queue`` bound H-search's lists
    (full and semi-connections kept per node pair, new full connections
    queued; at most 16, 24 and 65,536): bigger lists find more connections
    at more cost per node, and a bound never makes a claim unsound."""
    if not applies(game):
        raise ValueError(
            f"the Y solver handles y_game on a triangle of side <= 10 with turns=1 and swap=False, not {game}"
        )
    if not 10 <= tt_log2 <= 30:
        raise ValueError(f"tt_log2 must be in 10..30, got {tt_log2}")
    board = core_of(game).board
    n = board.num_cells
    if centrality < 0:
        raise ValueError(f"centrality must be >= 0, got {centrality}")
    solver = YSolver(
        n,
        [board.neighbours(c) for c in range(n)],
        [board.sides_of(c) for c in range(n)],
        [list(perm) for perm in board.symmetries],
        tt_log2,
        virtual_connections,
        dead_cells,
        semi_mustplay,
        side_links,
        captured_cells,
        hsearch,
        hsearch_vcs,
        hsearch_scs,
        hsearch_queue,
    )
    solver.set_centrality_prior(centrality)
    return solver


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


def opening_classes(game, cells: list[str]) -> list[list[str]]:
    """The named first moves grouped by symmetry class (in the order first
    named), each class completed with every cell of the board it holds."""
    board = core_of(game).board
    index = board.index_of_name
    classes: dict[int, list[str]] = {}
    for cell in cells:
        if cell not in index:
            raise ValueError(f"no cell {cell!r} on this board (cells: {' '.join(sorted(index))})")
        key = min(perm[index[cell]] for perm in board.symmetries)
        classes.setdefault(key, [])
    for c in range(board.num_cells):
        key = min(perm[c] for perm in board.symmetries)
        if key in classes:
            classes[key].append(board.names[c])
    return list(classes.values())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m solvers.ysolver",
        description="Solve chosen first moves of plain Y (y_game on a triangle, side <= 10) with "
        "the dedicated Y solver, one symmetry class at a time, each with its own time "
        "limit; the table is kept from class to class.",
    )
    ap.add_argument("--size", type=int, required=True, help="side of the triangle (2..10)")
    ap.add_argument(
        "--openings",
        nargs="+",
        default=["all"],
        metavar="CELL",
        help="first moves to solve, by name (one per class is searched; its class "
        "gets the value); 'all': every class (default)",
    )
    ap.add_argument(
        "--time-limit",
        type=float,
        default=0.0,
        metavar="S",
        help="give up on a class after S seconds and go on (0: no limit)",
    )
    ap.add_argument(
        "--tt-log2",
        type=int,
        default=24,
        help="transposition table entries = 2**N (16 bytes each; default 24)",
    )
    ap.add_argument(
        "--hsearch-bounds",
        default=f"{HSEARCH_VCS}/{HSEARCH_SCS}/{HSEARCH_QUEUE}",
        metavar="VCS/SCS/QUEUE",
        help="H-search's list bounds: full and semi-connections kept per node pair, "
        "new full connections queued (at most 16/24/65536; default %(default)s)",
    )
    ap.add_argument("--json", action="store_true", help="print one JSON object at the end")
    args = ap.parse_args(argv)
    try:
        vcs, scs, queue = (int(x) for x in args.hsearch_bounds.split("/"))
    except ValueError:
        ap.error(f"--hsearch-bounds must be VCS/SCS/QUEUE (three integers), not {args.hsearch_bounds!r}")
    if not (1 <= vcs <= 16 and 1 <= scs <= 24 and 1 <= queue <= 65536):
        ap.error(f"--hsearch-bounds must lie in 1..16/1..24/1..65536, got {args.hsearch_bounds}")
    if not 2 <= args.size <= 10:
        ap.error(f"--size must be in 2..10, got {args.size}")
    if not args.time_limit >= 0:
        ap.error("--time-limit must be >= 0")
    if not 10 <= args.tt_log2 <= 30:
        ap.error("--tt-log2 must be in 10..30")
    import pyspiel

    import games  # noqa: F401  (registers y_game)

    game = pyspiel.load_game(f"y_game(board_size={args.size})")
    core = core_of(game)
    cells = list(core.board.names) if args.openings == ["all"] else args.openings
    try:
        classes = opening_classes(game, cells)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    solver = make_solver(game, tt_log2=args.tt_log2, hsearch_vcs=vcs, hsearch_scs=scs, hsearch_queue=queue)
    values, unsolved, rows = {}, [], []
    start = time.perf_counter()
    for k, members in enumerate(classes):
        child = core.clone()
        child.apply_action(core.board.index_of_name[members[0]])
        n0, t0 = solver.nodes, time.perf_counter()
        try:
            v = value(solver, child, args.time_limit)
        except YSolveTimeout:
            v = None
        row = {
            "class": members,
            "value": v,
            "nodes": solver.nodes - n0,
            "seconds": round(time.perf_counter() - t0, 2),
        }
        rows.append(row)
        if v is None:
            unsolved += members
        else:
            values.update({m: v for m in members})
        print(
            f"class {k + 1}/{len(classes)}: {' '.join(members)} -> "
            f"{'not solved' if v is None else f'{v:+g}'}  ({row['nodes']:,} nodes, "
            f"{row['seconds']} s)",
            file=sys.stderr,
            flush=True,
        )
    out = {
        "game": str(game),
        "hsearch_bounds": [vcs, scs, queue],
        "opening_values": values,
        "unsolved": unsolved,
        "winning_first_moves": [m for m, v in values.items() if v > 0],
        "classes": rows,
        "nodes": solver.nodes,
        "seconds": round(time.perf_counter() - start, 2),
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(
            f"{out['game']}: winning first moves found: {' '.join(out['winning_first_moves']) or '-'}; "
            f"unsolved: {' '.join(unsolved) or '-'}; {out['nodes']:,} nodes, {out['seconds']} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Depth- and time-limited alpha-beta over a core, with iterative deepening.

The kernel (``solvers/_alphabeta.pyx``) does the searching; this module
drives it the way a player needs: deepen one ply at a time so that each
iteration's table moves order the next, stop when the time is up (keeping the
last finished iteration), and stop early once an iteration was exact, i.e.
the game tree below the root was exhausted and the value is proven.
"""

from __future__ import annotations

import time

from games.openspiel import require_perfect_information
from solvers._alphabeta import Searcher, SearchTimeout  # noqa: F401  (re-exported)
from solvers.generic import INSTEAD


def make_searcher(
    game,
    core,
    root_player: int = 0,
    *,
    symmetry: bool = True,
    tt_log2: int = 22,
    eval_playouts: int = 8,
    seed: int = 0,
) -> Searcher:
    """A kernel searcher with the game's utility bounds."""
    require_perfect_information(game, "alpha-beta (solvers.alphabeta)", INSTEAD)
    return Searcher(
        core, root_player, game.min_utility(), game.max_utility(), symmetry, tt_log2, eval_playouts, seed
    )


def iterative_deepening(
    game,
    core,
    *,
    max_depth: int = 0,
    time_limit: float = 0.0,
    searcher: Searcher | None = None,
    seed: int = 0,
    tt_log2: int = 22,
) -> dict:
    """Best move of ``core``'s mover by iterative deepening.

    ``max_depth`` 0 means no depth limit (then a time limit is what stops an
    unfinished search); ``time_limit`` 0 means none. Returns ``value``
    (player 0's return, or the root player's with more players),
    ``mover_value`` (the mover's side), ``best_move`` and its string,
    ``depth`` reached, ``exact`` and ``nodes``.
    """
    require_perfect_information(game, "alpha-beta (solvers.alphabeta)", INSTEAD)
    if max_depth <= 0 and time_limit <= 0:
        raise ValueError("give a max_depth or a time_limit (or both)")
    player = core.player()
    if player < 0:
        raise ValueError("the position is not a decision node")
    if searcher is None:
        searcher = make_searcher(game, core, player, seed=seed, tt_log2=tt_log2)
    deadline = time.monotonic() + time_limit if time_limit > 0 else 0.0
    nodes0 = searcher.nodes
    side = searcher.side_of(player)
    best = None
    depth = 0
    limit = max_depth if max_depth > 0 else 10**6
    while depth < limit:
        depth += 1
        value, move, _, exact, completed = searcher.root_moves(core, depth, deadline=deadline)
        if not completed:
            if best is None and move >= 0:
                best = (value, move, depth, False)
            depth -= 1
            break
        best = (value, move, depth, exact)
        if exact:
            break
        if deadline and time.monotonic() >= deadline:
            break
    if best is None:  # not even one move finished: any legal move
        best = (0.0, core.legal_action_list()[0], 0, False)
    mover_value, move, depth, exact = best
    return {
        "value": mover_value if side == 0 else -mover_value,
        "mover_value": mover_value,
        "best_move": int(move),
        "best_move_string": core.action_string(player, move),
        "depth": depth,
        "exact": bool(exact),
        "nodes": int(searcher.nodes - nodes0),
    }

"""UCT / MCTS-Solver over the core protocol: the Python face of ``mcts/_uct.pyx``.

Typical use::

    import pyspiel, games
    from mcts.uct import UCTSearch, core_of
    search = UCTSearch(uct_c=1.4, max_simulations=10000, seed=7)
    result = search.search(pyspiel.load_game("y_game(board_size=5)").new_core())
    result["action"], result["solved"], result["value"]

``UCTSearch(uct_c, max_simulations, max_time, seed, solve, zero_sum,
max_utility, max_nodes)``: either budget may be 0 (unlimited) but not both;
``max_time`` is in seconds; ``solve`` turns on MCTS-Solver, which is used only
when the game has two players and ``zero_sum`` is true; ``max_utility`` is the
value of an outright win (OpenSpiel's ``game.max_utility()``); ``max_nodes``
caps the tree (0: no cap) and the search goes on with playouts from unexpanded
leaves once the cap is reached. The tree is a flat array of
``UCTSearch().bytes_per_node``-byte nodes.

``core_of(state)`` gives the core a search needs from any OpenSpiel state: a
clone of ``state.core`` for this toolkit's games, otherwise a (slow) adapter
that drives the OpenSpiel state through the same protocol.
"""
from __future__ import annotations

from mcts._spiel_core import SpielCore
from mcts._uct import UCTSearch, time_playouts

__all__ = ["UCTSearch", "SpielCore", "core_of", "time_playouts"]


def core_of(state):
    """A fresh ``GameCore`` at ``state``'s position (the state is not touched)."""
    core = getattr(state, "core", None)
    if core is not None:
        return core.clone()
    return SpielCore.from_state(state)

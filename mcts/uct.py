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
clone of the state's core for this toolkit's games (``games.openspiel.core_of``,
the one answer to "is this one of ours?"), otherwise a (slow) adapter that
drives the OpenSpiel state through the same protocol.

The search sees the whole state, so it refuses a game with hidden
information or simultaneous moves (``ValueError`` naming what to use instead).
"""

from __future__ import annotations

from games.openspiel import core_of as _own_core
from games.openspiel import is_core_state, require_perfect_information
from mcts._spiel_core import SpielCore
from mcts._uct import UCTSearch as _UCTSearch
from mcts._uct import time_playouts

__all__ = ["UCTSearch", "SpielCore", "core_of", "time_playouts"]

INSTEAD = (
    "CFR (OpenSpiel's CFRSolver, after pyspiel.convert_to_turn_based for a simultaneous "
    "game) or an information-set search"
)


class UCTSearch(_UCTSearch):
    __doc__ = _UCTSearch.__doc__

    def search(self, root):
        """``_uct.UCTSearch.search`` after refusing games it would cheat on."""
        state = getattr(root, "state", None) if isinstance(root, SpielCore) else None
        require_perfect_information(state if hasattr(state, "get_game") else root, "MCTS (mcts.uct)", INSTEAD)
        return super().search(root)


def core_of(state):
    """A fresh ``GameCore`` at ``state``'s position (the state is not touched),
    refused, naming the game, when UCT could not search it fairly."""
    require_perfect_information(state, "MCTS (mcts.uct)", INSTEAD)
    if is_core_state(state):
        return _own_core(state)
    return SpielCore.from_state(state)

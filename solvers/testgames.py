"""Registers ``solver_test_tree``: the synthetic game of solvers/_testgames.pyx.

It exists to test searches (chance nodes, n players, consecutive moves by one
player, transpositions) against brute force, and is registered only when this
module is imported, so it never appears among the toolkit's real games.
"""
from __future__ import annotations

import pyspiel

from games.openspiel import GameSpec, game_type, register
from solvers._testgames import TreeCore


def _make(params):
    return TreeCore(params["pattern"], params["branching"], params["players"], params["modulus"],
                    params["seed"])


TREE = GameSpec(
    game_type=game_type("solver_test_tree", "Random DAG with chance (solver tests)",
                        {"pattern": "0c1", "branching": 3, "players": 2, "modulus": 7, "seed": 0},
                        num_players=(2, 8), chance=True, zero_sum=False),
    make_core=_make, min_utility=-1.0, max_utility=1.0, utility_sum=None)

try:
    TreeGame = register(TREE)
except Exception:   # already registered by an earlier import under another module name
    TreeGame = None

"""Registers the synthetic games of solvers/_testgames.pyx as OpenSpiel games.

- ``solver_test_tree``: a random DAG with chance, n players, consecutive moves
  by one player and transpositions, to test searches against brute force.
- ``solver_test_kuhn``: Kuhn poker (hidden cards), to test the per-player
  views and the refusals of perfect-information searches.
- ``solver_test_matrix(game=pennies|dilemma)``: matching pennies or the
  Prisoner's Dilemma as one simultaneous round, to test the SIMULTANEOUS face.

They are registered only when this module is imported, so they never appear
among the toolkit's real games.
"""

from __future__ import annotations

import pyspiel

from games.openspiel import GameSpec, Variant, check_choice, game_type, register
from solvers._testgames import KuhnCore, MatrixCore, TreeCore


def _make(params):
    return TreeCore(
        params["pattern"], params["branching"], params["players"], params["modulus"], params["seed"]
    )


TREE = GameSpec(
    game_type=game_type(
        "solver_test_tree",
        "Random DAG with chance (solver tests)",
        {"pattern": "0c1", "branching": 3, "players": 2, "modulus": 7, "seed": 0},
        num_players=(2, 8),
        chance=True,
        zero_sum=False,
    ),
    make_core=_make,
    min_utility=-1.0,
    max_utility=1.0,
    utility_sum=None,
)


def _make_kuhn(params):
    return KuhnCore()


KUHN = GameSpec(
    game_type=game_type(
        "solver_test_kuhn", "Kuhn poker (protocol tests)", {}, chance=True, perfect_information=False
    ),
    make_core=_make_kuhn,
    min_utility=-2.0,
    max_utility=2.0,
)

# name -> (row player's payoffs, column player's payoffs, action names, zero-sum?)
MATRIX_GAMES = {
    "pennies": ([[1, -1], [-1, 1]], [[-1, 1], [1, -1]], ("Heads", "Tails"), True),
    "dilemma": ([[3, 0], [5, 1]], [[3, 5], [0, 1]], ("Cooperate", "Defect"), False),
}


def _make_matrix(params):
    row, column, names, _ = MATRIX_GAMES[check_choice(params, "game", tuple(MATRIX_GAMES))]
    return MatrixCore(row, column, names)


def _matrix_variant(params, core) -> Variant:
    row, column, _, zero_sum = MATRIX_GAMES[params["game"]]
    values = [v for table in (row, column) for line in table for v in line]
    return Variant(
        long_name=f"Matrix game {params['game']}",
        zero_sum=zero_sum,
        min_utility=float(min(values)),
        max_utility=float(max(values)),
    )


MATRIX = GameSpec(
    game_type=game_type(
        "solver_test_matrix",
        "One-shot matrix games (protocol tests)",
        {"game": "pennies"},
        zero_sum=False,
        simultaneous=True,
    ),
    make_core=_make_matrix,
    min_utility=0.0,
    max_utility=5.0,
    utility_sum=None,
    variant=_matrix_variant,
)


def viewless_core():
    """A tree core that declares hidden information but overrides no view:
    the protocol must refuse to show it to a player rather than leak it."""
    return TreeCore(hidden=True)


def _register(spec: GameSpec):
    # A second import under another module name must not register twice.
    if spec.game_type.short_name in pyspiel.registered_names():
        return None
    return register(spec)


TreeGame = _register(TREE)
KuhnGame = _register(KUHN)
MatrixGame = _register(MATRIX)

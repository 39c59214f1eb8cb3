"""Caeth Y as an OpenSpiel game: ``caeth_y(board_size=N, swap=...)``.

Rules (full text with every interpretation: docs/rules/caeth_y.md): Y played
on the edges of the triangle of side ``board_size``. Players alternately
capture an edge between two adjacent vertices; the first player to hold half
or more of the edges into a vertex controls it for good (one edge for a
corner, two for a side vertex, three for an interior one); a connected chain
of controlled vertices touching all three sides wins. ``swap`` lets the
second player take over the first player's opening edge.

The default side is 9, the board Caeth Y's rules draw (the Caeth Y page that
docs/rules/caeth_y.md quotes, after Titus and Schensted's Y).
"""

from __future__ import annotations

from games import _caeth_y as kernel
from games.boards import TRIANGLE_SIZES, make_board
from games.openspiel import GameSpec, check_choice, game_type, register


def geometry(size: int):
    """The shared edge geometry of the triangle of side ``size`` (2..19)."""
    if size not in TRIANGLE_SIZES:
        raise ValueError(
            f"board_size must be in {TRIANGLE_SIZES.start}..{TRIANGLE_SIZES.stop - 1}, got {size}"
        )
    return kernel.make_geometry(make_board("triangle", size))


def _make_core(params):
    size = check_choice(params, "board_size", TRIANGLE_SIZES)
    return kernel.CaethCore(geometry(size), bool(params["swap"]))


CAETH_Y = GameSpec(
    game_type=game_type("caeth_y", "Caeth Y", {"board_size": 9, "swap": False}), make_core=_make_core
)

CaethYGame = register(CAETH_Y)

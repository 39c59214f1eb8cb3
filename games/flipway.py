"""Flipway as an OpenSpiel game (Luis Bolanos Mures, 2020).

Rules (full text, every interpretation and the lines of Luis Bolaños Mures's
rules they rest on: docs/rules/flipway.md):
- A square board of ``board_size`` x ``board_size`` points (3..19, default 9);
  the top and bottom edges are Black's, the left and right edges White's.
- Black (player 0) opens by placing one stone on an empty point; then, starting
  with White, players alternate. A turn is one move:
  - *drop*: pick a 2x2 area whose set of empty points is nonempty and not
    strictly contained in the empty points of another 2x2 area, and fill those
    empty points with your stones (drops that fill the same points are one move);
  - *flip*: in a crosscut (a 2x2 area holding a black and a white diagonal pair)
    turn the two enemy stones into yours.
- You win as soon as an orthogonally connected chain of your stones touches both
  of your edges. A full board without a crosscut always holds exactly one such
  chain, so a game that ends ends with a winner.
- ``pie=true``: Black opens with 1 to 4 stones in one 2x2 area, and White may,
  on its first turn only, swap: the players exchange colours, nothing on the
  board changes, and the player who opened (now White) moves next.
- ``setup=checkered`` / ``checkered_alt`` / ``blocks``: the board starts full, in
  a checkerboard whose top-left point is black / white, or in 2x2 blocks whose
  top-left block is black. Black opens by turning any white stone black, or with
  pie one or two white stones of a single crosscut.
- ``repetition=allowed`` (default) keeps Luis Bolaños Mures's rules; ``repetition=draw``
  ends the game in a draw when a position recurs or the flip budget is spent,
  so that every game, and every search, ends (docs/rules/flipway.md explains
  why the default needs nothing more and what ``max_game_length`` means).

Action ids (see games/_flipway.pyx): the set of points a drop fills, flips by
crosscut, then the swap.
"""

from __future__ import annotations

from games import _flipway as kernel
from games.openspiel import GameSpec, check_choice, game_type, register

SIZES = kernel.SIZES
SETUPS = {
    "empty": int(kernel.Setup.SETUP_EMPTY),
    "checkered": int(kernel.Setup.SETUP_CHECKERED),
    "checkered_alt": int(kernel.Setup.SETUP_CHECKERED_ALT),
    "blocks": int(kernel.Setup.SETUP_BLOCKS),
}
REPETITION = {"allowed": int(kernel.Repetition.REP_ALLOWED), "draw": int(kernel.Repetition.REP_DRAW)}
DEFAULTS = {"board_size": 9, "setup": "empty", "pie": False, "repetition": "allowed"}
# The game-length bound (``max_game_length``) and the neutral-flip streaks it
# rests on (docs/rules/flipway.md, "Repetition and game length").
PROVEN_NEUTRAL_RUN = kernel.PROVEN_NEUTRAL_RUN
length_bound = kernel.length_bound
neutral_run_bound = kernel.neutral_run_bound


def make_core(params) -> kernel.FlipwayCore:
    size = check_choice(params, "board_size", SIZES)
    setup = check_choice(params, "setup", tuple(SETUPS))
    pie = check_choice(params, "pie", (False, True))
    repetition = check_choice(params, "repetition", tuple(REPETITION))
    return kernel.FlipwayCore(size, SETUPS[setup], bool(pie), REPETITION[repetition])


FLIPWAY = GameSpec(game_type=game_type("flipway", "Flipway", DEFAULTS), make_core=make_core)

FlipwayGame = register(FLIPWAY)

"""Y, Defector Y and Double-'0' Y as OpenSpiel games.

Rules (full text with every interpretation: docs/rules/y.md, defector_y.md,
double_o_y.md):
- All three are played on a Y board (a triangle of side ``board_size``, or
  Ludii's limping hexagon k-(k+1) with ``board_shape=hex``); a player wins by
  owning one connected group that touches all three sides.
- ``y_game``: players drop stones on empty cells; ``turns`` sets how many stones
  each turn drops: 1 (alternate), 122 (1, then 2 a turn), 123 (1, 2, then 3 a
  turn), 122344 (the slow progressive sequence 1 2 2 3 4 4 5 6 6 ...);
  ``distinct_groups`` makes the stones of one turn join different groups;
  ``swap`` gives the second player the pie rule.
- ``defector_y``: before the last placement of a turn, the mover must convert
  overcrowded opponent stones (more opponent than mover neighbours), one at a
  time; wins are checked after every action. ``protocol`` 1 alternates single
  placements, 122 plays placement, conversions, placement after a single
  first placement. ``conversion=board`` (the default, as Ludii's encoding of
  Walton's rules, which the project's cross-checks follow) converts on the
  whole board; ``local`` only at and around the last placement and, as
  conversions go on, around each converted stone (Walton's wording).
- ``double_o_y``: after every placement the mover must flip overcrowded stones
  (``flip=all`` both colours, ``opponents`` only the opponent's, ``friends``
  only its own) one at a time; the win is checked when a turn ends, for the
  player about to move (``win=turn_start``) or the mover (``win=turn_end``).

Why ``turns`` and ``protocol`` are numbers: OpenSpiel's game-string parser
types ``122`` as an integer and rejects a parameter whose values mix integers
and words, so the alternating protocol is spelled ``1``, as in ``turns``.
"""

from __future__ import annotations

from games import _y_family as kernel
from games.boards import HEX_SIZES, SHAPES, TRIANGLE_SIZES, make_board
from games.openspiel import GameSpec, check_choice, game_type, register

TURN_SEQUENCES = {
    1: int(kernel.TurnSequence.SEQ_ALTERNATE),
    122: int(kernel.TurnSequence.SEQ_122),
    123: int(kernel.TurnSequence.SEQ_123),
    122344: int(kernel.TurnSequence.SEQ_SLOW),
}
PROTOCOLS = (1, 122)
CONVERSIONS = ("board", "local")
FLIP_OPTIONS = {
    "all": int(kernel.FlipKinds.FLIP_OPPONENTS) | int(kernel.FlipKinds.FLIP_FRIENDS),
    "opponents": int(kernel.FlipKinds.FLIP_OPPONENTS),
    "friends": int(kernel.FlipKinds.FLIP_FRIENDS),
}
WIN_OPTIONS = {"turn_start": int(kernel.WinRule.WIN_TURN_START), "turn_end": int(kernel.WinRule.WIN_TURN_END)}


def _board(params):
    shape = check_choice(params, "board_shape", SHAPES)
    sizes = TRIANGLE_SIZES if shape == "triangle" else HEX_SIZES
    size = check_choice(params, "board_size", sizes)
    return make_board(shape, size)


def _make_y(params):
    turns = check_choice(params, "turns", tuple(TURN_SEQUENCES))
    return kernel.YCore(
        _board(params), TURN_SEQUENCES[turns], bool(params["swap"]), bool(params["distinct_groups"])
    )


def _make_defector(params):
    protocol = check_choice(params, "protocol", PROTOCOLS)
    conversion = check_choice(params, "conversion", CONVERSIONS)
    return kernel.FlipCore(
        _board(params),
        int(kernel.FlipKinds.FLIP_OPPONENTS),
        int(kernel.FlipPoint.FLIP_BEFORE_LAST_PLACEMENT),
        int(kernel.WinRule.WIN_EVERY_MOVE),
        2 if protocol == 122 else 1,
        conversion == "local",
    )


def _make_double_o(params):
    flip = check_choice(params, "flip", tuple(FLIP_OPTIONS))
    protocol = check_choice(params, "protocol", PROTOCOLS)
    win = check_choice(params, "win", tuple(WIN_OPTIONS))
    return kernel.FlipCore(
        _board(params),
        FLIP_OPTIONS[flip],
        int(kernel.FlipPoint.FLIP_AFTER_EACH_PLACEMENT),
        WIN_OPTIONS[win],
        2 if protocol == 122 else 1,
    )


Y_GAME = GameSpec(
    game_type=game_type(
        "y_game",
        "Y (with turn sequences and swap)",
        {"board_size": 11, "board_shape": "triangle", "swap": False, "turns": 1, "distinct_groups": False},
    ),
    make_core=_make_y,
)

DEFECTOR_Y = GameSpec(
    game_type=game_type(
        "defector_y",
        "Defector Y",
        {"board_size": 8, "board_shape": "triangle", "protocol": 1, "conversion": "board"},
    ),
    make_core=_make_defector,
)

DOUBLE_O_Y = GameSpec(
    game_type=game_type(
        "double_o_y",
        "Double-'0' Y",
        {"board_size": 8, "board_shape": "triangle", "flip": "all", "protocol": 122, "win": "turn_start"},
    ),
    make_core=_make_double_o,
)

YGame = register(Y_GAME)
DefectorYGame = register(DEFECTOR_Y)
DoubleOYGame = register(DOUBLE_O_Y)

"""Games of the toolkit. Importing this package registers every game with
OpenSpiel, so ``pyspiel.load_game("double_o_y(board_size=6)")`` works after
``import games``."""

from games import (
    caeth_y,  # noqa: F401  (registers caeth_y)
    flipway,  # noqa: F401  (registers flipway)
    y_family,  # noqa: F401  (registers y_game, defector_y, double_o_y)
)
from games.ttt import openspiel_game  # noqa: F401  (registers ttt(rules=NAME))

"""The rule-set vocabulary: every field, every allowed value, and the small
readings of values (seats of a players mode, parts of a turn-check name) that
validation, compilation and the engine's reference model share.

Why the values are spelled out here, apart from validation: the seed's later
rules (other shapes and moves, phases, cloaking, several boards) already have
their names in the ``*_ALL`` tuples, so the schema grows by values, and the
``*_NOW`` tuples say what this engine plays; error messages quote both.
"""
from __future__ import annotations

import re

from games.ttt.codes import Cloak, Effect, Fold, Move, Order, Stalemate

BOARD_KINDS = ("hash", "squares", "vertices", "stacks")
PLAYERS = ("2", "3", "4", "partners", "2-vs-chaos", "3-vs-chaos")
COLOUR_MODES = ("assigned", "shared", "partners-share", "players-choose")
PALETTE = ("black", "white", "pink", "yellow")
SHAPES_ALL = ("circle", "triangle", "x", "cross", "star", "pentagon")
SHAPES_NOW = ("circle",)
MOVES_ALL = ("stationary", "adjacent", "adjacent-orthogonal", "adjacent-alquerque", "linear-or-knight",
             "orth-by-stack")
MOVES_NOW = ("stationary", "adjacent", "adjacent-orthogonal", "adjacent-alquerque", "linear-or-knight")
POWERS_NOW = ("none",)
STALEMATES = ("draws", "all-win", "all-lose", "most-in-a-row-wins",
              "least-in-a-row-loses", "most-pieces-wins")
CHECK_KS = range(2, 7)
TURN_CHECKS = tuple(
    [f"first-{k}-wins" for k in CHECK_KS]
    + [f"first-{k}-loses" for k in CHECK_KS]
    + [f"first-{k}-wins-no-diagonal" for k in CHECK_KS]
    + [f"first-{k}-loses-no-diagonal" for k in CHECK_KS]
    + [f"all-lose-if-any-{k}" for k in CHECK_KS])
ORDERS_ALL = ("sequential", "simultaneous", "single")
ORDERS_NOW = ("sequential",)
PHASE_MOVEMENT = ("allowed", "placement-only")
CLOAKING_NOW = ("none", "hides", "obscures")
MAX_DIM = 19
MAX_SPACES = 512
MAX_MOVE_LIMIT = 100000
MAX_NAME = 64

TOP_FIELDS = ("name", "notes", "board", "players", "colours", "reserves", "shapes",
              "pieces_per_turn", "agree_draw", "turn_checks", "stalemate", "phases",
              "cloaking", "boards", "overachievers_disqualified", "move_limit",
              "seconds_per_turn")
BOARD_FIELDS = ("kind", "size", "locked", "pieces")
PIECE_FIELDS = ("at", "colour", "shape")
SHAPE_FIELDS = ("move", "power")
PHASE_FIELDS = ("order", "pass", "movement", "locked_players", "locked", "cloaked", "fold")
# Space properties set once for the whole game: the seed lets only cloak and
# lock properties change after phase 1 (see validation).
FIXED_SPACE_FIELDS = ("pieces", "sticky", "exclusive", "dealt", "reserves", "shapes")
FOLDS = ("none", "less-than-most-committed")
SEAT_NAMES = (1, 2, 3, 4, "chaos")

DEFAULT_CHECKS = ["first-3-wins"]

# The engine's codes (games/ttt/codes.pxd) for the schema's words.
EFFECT_WIN, EFFECT_LOSE, EFFECT_ALL_LOSE = (int(Effect.EFFECT_WIN), int(Effect.EFFECT_LOSE),
                                            int(Effect.EFFECT_ALL_LOSE))
MOVE_CODES = {"stationary": int(Move.MOVE_NONE), "adjacent": int(Move.MOVE_ADJACENT),
              "adjacent-orthogonal": int(Move.MOVE_ORTHOGONAL),
              "adjacent-alquerque": int(Move.MOVE_ALQUERQUE),
              "linear-or-knight": int(Move.MOVE_LINEAR_KNIGHT)}
STALEMATE_CODES = {"draws": int(Stalemate.ST_DRAWS), "all-win": int(Stalemate.ST_ALL_WIN),
                   "all-lose": int(Stalemate.ST_ALL_LOSE),
                   "most-in-a-row-wins": int(Stalemate.ST_MOST_ROW),
                   "least-in-a-row-loses": int(Stalemate.ST_LEAST_ROW),
                   "most-pieces-wins": int(Stalemate.ST_MOST_PIECES)}

ORDER_CODES = {"sequential": int(Order.ORDER_SEQUENTIAL), "simultaneous": int(Order.ORDER_SIMULTANEOUS),
               "single": int(Order.ORDER_SINGLE)}
# cloaking (issue 11 item 3): the seed's "No cloaking", "Cloaking hides", "Cloaking obscures"
CLOAK_CODES = {"none": int(Cloak.CLOAK_NONE), "hides": int(Cloak.CLOAK_HIDES),
               "obscures": int(Cloak.CLOAK_OBSCURES)}
FOLD_CODES = {"none": int(Fold.FOLD_NONE), "less-than-most-committed": int(Fold.FOLD_LESS_THAN_MOST)}

# A name must come back unchanged from OpenSpiel's game-string parser as the
# value of ``ttt(rules=NAME)``. The parser splits parameters at ``,`` and
# ``=`` and nests at ``(``/``)``; it types a value made only of digits, signs
# and dots as a number (or fails on one such as ``5-``), and True/true/
# False/false as a bool. The seed itself forbids whitespace and ``*``; a path
# separator would make the name read as a file path.
NAME_FORBIDDEN = re.compile(r"[\s*(),=/\\]")
NAME_NUMERIC = re.compile(r"[0-9+\-.]+")
NAME_BOOLEAN = ("True", "true", "False", "false")


class RuleSetError(ValueError):
    """A rule set failed validation; ``problems`` lists every problem found."""

    def __init__(self, problems: list[str], source: str = "rule set"):
        self.problems = list(problems)
        super().__init__(f"{source} is invalid ({len(problems)} problem"
                         f"{'s' if len(problems) != 1 else ''}):\n  - " + "\n  - ".join(problems))


def name_problem(name) -> str | None:
    """Why ``name`` cannot name a rule set, or None when it can."""
    if not isinstance(name, str) or not name:
        return "required, a non-empty string"
    if NAME_FORBIDDEN.search(name):
        return (f"{name!r} contains whitespace or one of * ( ) , = / \\ (not allowed: names must "
                "survive inside an OpenSpiel game string ttt(rules=NAME))")
    if NAME_NUMERIC.fullmatch(name) or name in NAME_BOOLEAN:
        return (f"{name!r} would reach the game as a number or a bool, not a name (allowed: any "
                "name with a character other than digits, '+', '-' and '.', except true/false)")
    if len(name) > MAX_NAME:
        return f"at most {MAX_NAME} characters"
    return None


def seats_of(players: str) -> tuple[int, bool]:
    """(number of non-Chaos players, whether Chaos plays)."""
    return {"2": (2, False), "3": (3, False), "4": (4, False), "partners": (4, False),
            "2-vs-chaos": (2, True), "3-vs-chaos": (3, True)}[players]


def seat_index(name, players: str) -> int:
    """0-based seat of a ``locked_players`` entry (1..4 or "chaos", Chaos being
    the last seat)."""
    n, chaos = seats_of(players)
    return n if name == "chaos" else name - 1


def parse_check(check: str) -> tuple[int, int, bool]:
    """(k, effect, diagonals count) of a turn-check name."""
    if check.startswith("all-lose-if-any-"):
        return int(check.rsplit("-", 1)[1]), EFFECT_ALL_LOSE, True
    parts = check.split("-")
    k = int(parts[1])
    effect = EFFECT_WIN if parts[2] == "wins" else EFFECT_LOSE
    return k, effect, not check.endswith("no-diagonal")

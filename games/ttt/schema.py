"""The rule-set vocabulary: every field, every allowed value, and the small
readings of values (seats of a players mode, parts of a turn-check name) that
validation, compilation and the engine's reference model share.

Why the values are spelled out here, apart from validation: every value the
tic-tac-toe variations specification names has its name in the ``*_ALL``
tuples, the ``*_NOW`` tuples say what this engine plays, and error messages
quote both.
"""

from __future__ import annotations

import re

from games.ttt.codes import Cloak, Condition, Effect, Fold, Move, Order, Power, Result, Stalemate

BOARD_KINDS = ("hash", "squares", "vertices", "stacks", "toroid", "hexagons", "tetrakis")
# the board kinds beyond the box (docs/rules/ttt/boards.md): "toroid" is the
# specification's "Squares on Toroid", "hexagons" its "Hexagons"; both are planes (z = 1)
PLANE_KINDS = ("toroid", "hexagons")
#: the moves whose leaps or diagonals hexagons do not have (docs/rules/ttt/refused.md)
HEX_REFUSED_MOVES = (
    "adjacent-diagonal",
    "diagonal",
    "forward-diagonal",
    "knight-2x1x0",
    "knight-2x1x1",
    "linear-or-knight",
    "adjacent-or-knight",
)
#: tetrakis squares: a line's step -> {triangle: (next triangle, square's x, y
#: step)}, triangles 1 N, 2 E, 3 S, 4 W (the rows above and below a square's
#: centre, W N E and W S E; the columns right and left of it, S E N and S W N)
TETRAKIS_LINES = {
    (1, 0, 0): {4: (1, 0, 0), 1: (2, 0, 0), 2: (4, 1, 0)},
    (1, 0, 1): {4: (3, 0, 0), 3: (2, 0, 0), 2: (4, 1, 0)},
    (0, 1, 0): {3: (2, 0, 0), 2: (1, 0, 0), 1: (3, 0, 1)},
    (0, 1, 1): {3: (4, 0, 0), 4: (1, 0, 0), 1: (3, 0, 1)},
}
#: the moves that leap two spaces (a toroid needs x, y >= 5 for them)
LEAP_MOVES = ("knight-2x1x0", "knight-2x1x1", "linear-or-knight", "adjacent-or-knight")
PLAYERS = ("2", "3", "4", "partners", "2-vs-chaos", "3-vs-chaos", "1-vs-chaos")
COLOUR_MODES = ("assigned", "shared", "partners-share", "players-choose")
PALETTE = ("black", "white", "pink", "yellow")
SHAPES_ALL = ("circle", "triangle", "x", "cross", "star", "pentagon")
SHAPES_NOW = SHAPES_ALL  # all six
MOVES_ALL = (
    "stationary",
    "adjacent",
    "adjacent-orthogonal",
    "adjacent-alquerque",
    "linear-or-knight",
    "orth-by-stack",
)
MOVES_NOW = ("stationary", "adjacent", "adjacent-orthogonal", "adjacent-alquerque", "linear-or-knight")
# the specification's extension list of moves, played by the shapes path
MOVES_EXTENDED = (
    "adjacent-diagonal",
    "orthogonal",
    "diagonal",
    "linear",
    "forward-orthogonal",
    "forward-diagonal",
    "knight-2x1x0",
    "knight-2x1x1",
)
MOVES_ALL = MOVES_ALL + MOVES_EXTENDED
MOVES_NOW = MOVES_NOW + MOVES_EXTENDED
# moves that carry the pieces above the mover (stacks boards only;
# docs/rules/ttt/stacks.md): "orth-by-stack" (the specification's "Moves orth by
# stack") and "orth-by-full-stack" (its "by full stack", e.g. poker hands)
MOVES_BY_STACK = ("orth-by-stack", "orth-by-full-stack")
MOVES_ALL = MOVES_ALL + ("orth-by-full-stack",)
MOVES_NOW = MOVES_NOW + MOVES_BY_STACK
# the specification's "Moves adjacent or knight" (3P-9X-HideSeek's circle),
# the union of "adjacent" and "knight-2x1x0" (docs/rules/ttt/shapes.md, "Moves")
MOVES_ALL = MOVES_ALL + ("adjacent-or-knight",)
MOVES_NOW = MOVES_NOW + ("adjacent-or-knight",)
# the specification's "Moves adjacent (no back)", "Moves adjacent (no
# back/side)" and "Moves orth (no back)": moves whose directions never step
# towards the mover's own side (docs/rules/ttt/shapes.md, "Moves without
# back"); unlike "cannot move backwards" they name no replacement at the goal
# and "Pawn move forward/center": one step forward, or sideways towards the
# board's centre (docs/rules/ttt/shapes.md, "Pawn move forward/center")
MOVES_NO_BACK = ("adjacent-no-back", "adjacent-no-back-side", "orthogonal-no-back", "pawn-forward-center")
MOVES_ALL = MOVES_ALL + MOVES_NO_BACK
MOVES_NOW = MOVES_NOW + MOVES_NO_BACK
# the specification's "Rook move orth/castle" (docs/rules/ttt/shapes.md, "Rook
# move orth/castle"): any distance along an axis, as "orthogonal"; its castling
# belongs to the turn check "Castle", which this engine does not play yet
MOVES_ALL = MOVES_ALL + ("rook-orthogonal-castle",)
MOVES_NOW = MOVES_NOW + ("rook-orthogonal-castle",)
# line moves: any distance along a line (docs/rules/ttt/shapes.md, "Pieces in the
# way"). ``line_moves`` says what a piece on the line does to them: it stops the
# move ("blocked-by-pieces", the default: the specification lets moves pass
# "over/through" locked spaces only) or is passed over ("over-pieces").
LINE_MOVES = (
    "orthogonal",
    "diagonal",
    "linear",
    "linear-or-knight",
    "orthogonal-no-back",
    "rook-orthogonal-castle",
)
LINE_READINGS = ("blocked-by-pieces", "over-pieces")
LINE_READING_DEFAULT = "blocked-by-pieces"
# two pieces a turn in simultaneous and single phases (docs/rules/ttt/rounds.md, "Two
# pieces a turn"): a plan of two plies resolved as two rounds ("planned-together", the
# default: the first mover of a two-piece turn makes two moves), or two rounds a turn
# with each ply planned on the board the round before left ("round-by-round")
ROUND_PLIES_ALL = ("planned-together", "round-by-round")
ROUND_PLIES_NOW = ("planned-together", "round-by-round")
ROUND_PLIES_DEFAULT = "planned-together"
# captures: the words of the specification; the block "captures" at the
# end says which the engine plays
POWERS_ALL = ("none", "must-capture", "can-capture")
POWERS_NOW = POWERS_ALL
CONDITIONS_ALL = ("cover", "cover-by-rank", "jump", "chain-jump", "surround-line", "surround-orthogonal")
CONDITIONS_NOW = CONDITIONS_ALL  # the jumps and the surrounds
CONDITIONS_JUMP = ("jump", "chain-jump")
# the specification's "Chain Jump (+ back)", read as international
# draughts' man (docs/rules/ttt/jumps.md, "Chain jump (+ back)"): a chain jump whose
# jumps may go backwards although the shape cannot move backwards
CONDITIONS_ALL = CONDITIONS_ALL + ("chain-jump-back",)
CONDITIONS_NOW = CONDITIONS_NOW + ("chain-jump-back",)
CONDITIONS_JUMP = CONDITIONS_JUMP + ("chain-jump-back",)
CONDITIONS_CHAIN = ("chain-jump", "chain-jump-back")
CONDITIONS_SURROUND = ("surround-line", "surround-orthogonal")
# "Adjacent" (the specification's "can extend to" list): an arriving piece
# captures every opponent piece next to it; read as a surround of one step
# (docs/rules/ttt/surround.md, "Adjacent"), the orthogonal reading an option
CONDITIONS_ADJACENT = ("adjacent", "adjacent-orthogonal")
CONDITIONS_ALL = CONDITIONS_ALL + CONDITIONS_ADJACENT
CONDITIONS_NOW = CONDITIONS_NOW + CONDITIONS_ADJACENT
CONDITIONS_SURROUND = CONDITIONS_SURROUND + CONDITIONS_ADJACENT
# "Approach" (the same list), as in Fanorona: a move toward the opponent's
# pieces along its line captures the unbroken run of them it approaches
# (docs/rules/ttt/surround.md, "Approach"); judged where the mover lands,
# as the surrounds are, so it is one of them to the engine
# approach-one: the approach that takes only the piece next to the landing
# (docs/rules/ttt/surround.md, "Approach"); the engine's approach with a flag
CONDITIONS_APPROACH = ("approach", "approach-one")
CONDITIONS_ALL = CONDITIONS_ALL + CONDITIONS_APPROACH
CONDITIONS_NOW = CONDITIONS_NOW + CONDITIONS_APPROACH
CONDITIONS_SURROUND = CONDITIONS_SURROUND + CONDITIONS_APPROACH
# "Move on triagonal" (the same list): a capture by one step along a 3-D
# triagonal onto the captive, the shape's other moves going to free spaces
# only (docs/rules/ttt/captures.md, "Move on triagonal")
CONDITIONS_ALL = CONDITIONS_ALL + ("move-on-triagonal",)
CONDITIONS_NOW = CONDITIONS_NOW + ("move-on-triagonal",)
# "Move on diag + en passe" (the same list): the chess pawn's capture, one step
# diagonally forward onto the captive, and en passant when the turn check "En
# passant" is on (docs/rules/ttt/captures.md, "Move on diag + en passe")
DIAGONAL_EN_PASSANT = "move-on-diagonal-en-passant"
CONDITIONS_ALL = CONDITIONS_ALL + (DIAGONAL_EN_PASSANT,)
CONDITIONS_NOW = CONDITIONS_NOW + (DIAGONAL_EN_PASSANT,)
RESULTS_ALL = ("removes", "converts", "reincarnates", "reincarnates-x2")
# the Factory's "To “Reincarnate” captives means to convert, remove,
# triple, and add them to one’s own reserves": three per captive
# (docs/rules/ttt/captures.md, "Reincarnate: one or three")
RESULTS_ALL = RESULTS_ALL + ("reincarnates-x3",)
# the result dropdown "can extend to “Paralyzes captive(s)”": the captive
# stays where it is, in its colour, and never moves again
# (docs/rules/ttt/captures.md, "Paralyzes captive(s)")
RESULTS_ALL = RESULTS_ALL + ("paralyzes",)
RESULTS_NOW = RESULTS_ALL
# the conditions a paralyzer plays: the captor lands next to its captives
# (a cover would share the captive's space; jumps with it are not built)
CONDITIONS_PARALYZING = (
    "surround-line",
    "surround-orthogonal",
    "adjacent",
    "adjacent-orthogonal",
    "approach",
    "approach-one",
)
# the results that put captives into the captor's reserve, and how many each
REINCARNATING = {"reincarnates": 1, "reincarnates-x2": 2, "reincarnates-x3": 3}
STALEMATES = (
    "draws",
    "all-win",
    "all-lose",
    "most-in-a-row-wins",
    "least-in-a-row-loses",
    "most-pieces-wins",
)
# the specification's "(can extend to [...] “Any 3-same-color-in-a-row wins”,
# [...] “Stalemate loses”, “Stalemate wins”, etc.)" (docs/rules/ttt/outcomes.md,
# "Any K-in-a-row wins" and "Stalemate loses, stalemate wins"): every side with
# a K-same-colour line wins; the player with no move left loses or wins
ANY_ROW_STALEMATES = tuple(f"any-{k}-in-a-row-wins" for k in range(2, 7))
STUCK_STALEMATES = ("stalemate-loses", "stalemate-wins")
# and its "Last 3-same-color-in-a-row wins" (docs/rules/ttt/outcomes.md, "Last
# K-in-a-row wins"): the side whose ply last made a K-line wins
LAST_ROW_STALEMATES = tuple(f"last-{k}-in-a-row-wins" for k in range(2, 7))
STALEMATES = STALEMATES + ANY_ROW_STALEMATES + STUCK_STALEMATES + LAST_ROW_STALEMATES
# Outcomes of the specification's dilemmas (see the block at the end).
SHAPE_PLURALS = {
    "circle": "circles",
    "triangle": "triangles",
    "x": "xs",
    "cross": "crosses",
    "star": "stars",
    "pentagon": "pentagons",
}
MEASURES_NOW = (
    ["in-a-row"]
    + [f"{k}-in-a-row" for k in range(2, 7)]
    + ["pieces", "area"]
    + [SHAPE_PLURALS[s] for s in SHAPES_NOW]
)
MEASURES_LATER = tuple(SHAPE_PLURALS[s] for s in SHAPES_ALL if s not in SHAPES_NOW)
VS_CHAOS_STALEMATES = (
    "more-pieces-than-chaos-wins",
    "fewer-pieces-than-chaos-loses",
    "more-pieces-than-chaos-wins-fewer-loses",
)
STALEMATES = (
    STALEMATES
    + tuple(
        f"{end}-{m}-{verdict}"
        for m in MEASURES_NOW
        for end in ("most", "least")
        for verdict in ("wins", "loses")
        if f"{end}-{m}-{verdict}" not in STALEMATES
    )
    + VS_CHAOS_STALEMATES
)
STALEMATES_LATER = tuple(
    f"{end}-{m}-{verdict}"
    for m in MEASURES_LATER
    for end in ("most", "least")
    for verdict in ("wins", "loses")
)
CHECK_KS = range(2, 7)
TURN_CHECKS = tuple(
    [f"first-{k}-wins" for k in CHECK_KS]
    + [f"first-{k}-loses" for k in CHECK_KS]
    + [f"first-{k}-wins-no-diagonal" for k in CHECK_KS]
    + [f"first-{k}-loses-no-diagonal" for k in CHECK_KS]
    + [f"all-lose-if-any-{k}" for k in CHECK_KS]
    + ["any-piece-wins", "any-piece-loses"]
)
# The goal check: a stalemate once a player's piece reaches its goal line (goal_sides below).
GOAL_CHECK = "goal-reached-stalemate"
# The specification's "Last pentagon wins" (docs/rules/ttt/turns.md, "Last pentagon
# wins"): after a ply, the one side still owning pentagons wins. Like the goal check it
# counts no line, so it stays out of TURN_CHECKS and parse_check.
LAST_PENTAGON_CHECK = "last-pentagon-wins"
# The specification's "En passant" (docs/rules/ttt/turns.md, "En passant"): a
# pawn's (pawn-forward-center) double first step, which the next ply may take
# en passant; a rule of the turn that counts no line, as the two above
EN_PASSANT_CHECK = "en-passant"
# The specification's "Castle" (docs/rules/ttt/turns.md, "Castle"): a king (the
# highest-ranked shape that moves "adjacent") and a rook (a shape that moves
# "rook-orthogonal-castle") that have not moved castle as one move; a rule of the
# turn that counts no line, as the three above
CASTLE_CHECK = "castle"
ROOK_MOVE = "rook-orthogonal-castle"
SHAPE_CHECKS = (GOAL_CHECK, LAST_PENTAGON_CHECK, EN_PASSANT_CHECK, CASTLE_CHECK)
# words of the specification's turn checks this engine does not play yet
CHECKS_LATER: tuple[str, ...] = ()
ORDERS_ALL = ("sequential", "simultaneous", "single")
ORDERS_NOW = ("sequential", "simultaneous", "single")
PHASE_MOVEMENT = ("allowed", "placement-only")
CLOAKING_NOW = ("none", "hides", "obscures")
MAX_DIM = 19
MAX_SPACES = 512
MAX_MOVE_LIMIT = 100000
MAX_NAME = 64

TOP_FIELDS = (
    "name",
    "notes",
    "board",
    "players",
    "colours",
    "reserves",
    "shapes",
    "pieces_per_turn",
    "agree_draw",
    "turn_checks",
    "stalemate",
    "phases",
    "cloaking",
    "boards",
    "overachievers_disqualified",
    "move_limit",
    "seconds_per_turn",
    "chaos_wins_if_more_than",
    "cloaking_hides_turns",  # docs/rules/ttt/cloaking.md, "Hidden turns"
    "cloaking_hides_walls",  # docs/rules/ttt/cloaking.md, "Invisible walls"
    "line_moves",  # docs/rules/ttt/shapes.md, "Pieces in the way"
    "deck",  # docs/rules/ttt/deal.md
    "round_plies",  # docs/rules/ttt/rounds.md, "Two pieces a turn"
    "extends",
)  # extends: merged away before validation (games/ttt/extends.py)
BOARD_FIELDS = (
    "kind",
    "size",
    "locked",
    "pieces",
    "sticky",
    "exclusive",
    "entry_locked",
    "exit_locked",
    "on_boards",
    "dealt",
)  # on_boards: per-board spaces (games/ttt/spaces.py); dealt: "dealt common" spaces (games/ttt/deal.py)
PIECE_FIELDS = ("at", "colour", "shape")
SHAPE_FIELDS = ("move", "power", "condition", "result", "cannot_move_backwards")
PHASE_FIELDS = (
    "order",
    "pass",
    "movement",
    "locked_players",
    "locked",
    "cloaked",
    "fold",
    "entry_locked",
    "exit_locked",
)
# Space properties set once for the whole game: the specification lets only
# cloak and lock properties change after phase 1 (see validation).
FIXED_SPACE_FIELDS = ("pieces", "sticky", "exclusive", "dealt", "reserves", "shapes")
FOLDS = ("none", "less-than-most-committed")
SEAT_NAMES = (1, 2, 3, 4, "chaos")

DEFAULT_CHECKS = ["first-3-wins"]

# The engine's codes (games/ttt/codes.pxd) for the schema's words.
EFFECT_WIN, EFFECT_LOSE, EFFECT_ALL_LOSE = (
    int(Effect.EFFECT_WIN),
    int(Effect.EFFECT_LOSE),
    int(Effect.EFFECT_ALL_LOSE),
)
MOVE_CODES = {
    "stationary": int(Move.MOVE_NONE),
    "adjacent": int(Move.MOVE_ADJACENT),
    "adjacent-orthogonal": int(Move.MOVE_ORTHOGONAL),
    "adjacent-alquerque": int(Move.MOVE_ALQUERQUE),
    "linear-or-knight": int(Move.MOVE_LINEAR_KNIGHT),
    # the specification's extension list
    "adjacent-diagonal": int(Move.MOVE_ADJ_DIAGONAL),
    "orthogonal": int(Move.MOVE_ORTH_LINE),
    "diagonal": int(Move.MOVE_DIAG_LINE),
    "linear": int(Move.MOVE_LINEAR),
    "forward-orthogonal": int(Move.MOVE_FORWARD_ORTH),
    "forward-diagonal": int(Move.MOVE_FORWARD_DIAG),
    "knight-2x1x0": int(Move.MOVE_KNIGHT),
    "knight-2x1x1": int(Move.MOVE_KNIGHT3),
    # moves that carry the pieces above the mover
    "orth-by-stack": int(Move.MOVE_ORTH_BY_STACK),
    "orth-by-full-stack": int(Move.MOVE_ORTH_BY_FULL_STACK),
    "adjacent-or-knight": int(Move.MOVE_ADJ_KNIGHT),
    "adjacent-no-back": int(Move.MOVE_ADJ_NO_BACK),
    "adjacent-no-back-side": int(Move.MOVE_ADJ_NO_BACK_SIDE),
    "orthogonal-no-back": int(Move.MOVE_ORTH_NO_BACK),
    "pawn-forward-center": int(Move.MOVE_PAWN),
    # the rook's slide is the orthogonal line move (its castling is not played yet)
    "rook-orthogonal-castle": int(Move.MOVE_ORTH_LINE),
}
STALEMATE_CODES = {
    "draws": int(Stalemate.ST_DRAWS),
    "all-win": int(Stalemate.ST_ALL_WIN),
    "all-lose": int(Stalemate.ST_ALL_LOSE),
    "most-in-a-row-wins": int(Stalemate.ST_MOST_ROW),
    "least-in-a-row-loses": int(Stalemate.ST_LEAST_ROW),
    "most-pieces-wins": int(Stalemate.ST_MOST_PIECES),
}

# captures: powers, conditions and results
POWER_CODES = {
    "none": int(Power.POWER_NONE),
    "must-capture": int(Power.POWER_MUST),
    "can-capture": int(Power.POWER_CAN),
}
CONDITION_CODES = {
    "cover": int(Condition.COND_COVER),
    "cover-by-rank": int(Condition.COND_COVER_RANK),
    "jump": int(Condition.COND_JUMP),
    "chain-jump": int(Condition.COND_CHAIN_JUMP),
    "surround-line": int(Condition.COND_SURROUND_LINE),
    "surround-orthogonal": int(Condition.COND_SURROUND_ORTH),
    "adjacent": int(Condition.COND_ADJACENT),
    "adjacent-orthogonal": int(Condition.COND_ADJACENT_ORTH),
    "approach": int(Condition.COND_APPROACH),
    # an approach to the engine, with its own "adjacent piece only" flag
    "approach-one": int(Condition.COND_APPROACH),
    "move-on-triagonal": int(Condition.COND_TRIAGONAL),
    DIAGONAL_EN_PASSANT: int(Condition.COND_DIAG_EN_PASSANT),
    # a chain jump to the engine, with its own "+ back" flag
    "chain-jump-back": int(Condition.COND_CHAIN_JUMP),
}
RESULT_CODES = {
    "removes": int(Result.RESULT_REMOVES),
    "converts": int(Result.RESULT_CONVERTS),
    "reincarnates": int(Result.RESULT_REINCARNATES),
    "reincarnates-x2": int(Result.RESULT_REINCARNATES_X2),
    "reincarnates-x3": int(Result.RESULT_REINCARNATES_X3),
    "paralyzes": int(Result.RESULT_PARALYZES),
}

ORDER_CODES = {
    "sequential": int(Order.ORDER_SEQUENTIAL),
    "simultaneous": int(Order.ORDER_SIMULTANEOUS),
    "single": int(Order.ORDER_SINGLE),
}
# cloaking: the specification's "No cloaking", "Cloaking hides", "Cloaking obscures"
CLOAK_CODES = {
    "none": int(Cloak.CLOAK_NONE),
    "hides": int(Cloak.CLOAK_HIDES),
    "obscures": int(Cloak.CLOAK_OBSCURES),
}
FOLD_CODES = {"none": int(Fold.FOLD_NONE), "less-than-most-committed": int(Fold.FOLD_LESS_THAN_MOST)}

# A name must come back unchanged from OpenSpiel's game-string parser as the
# value of ``ttt(rules=NAME)``. The parser splits parameters at ``,`` and
# ``=`` and nests at ``(``/``)``; it types a value made only of digits, signs
# and dots as a number (or fails on one such as ``5-``), and True/true/
# False/false as a bool. The specification itself forbids whitespace and ``*``; a path
# separator would make the name read as a file path.
NAME_FORBIDDEN = re.compile(r"[\s*(),=/\\]")
NAME_NUMERIC = re.compile(r"[0-9+\-.]+")
NAME_BOOLEAN = ("True", "true", "False", "false")


class RuleSetError(ValueError):
    """A rule set failed validation; ``problems`` lists every problem found."""

    def __init__(self, problems: list[str], source: str = "rule set"):
        self.problems = list(problems)
        super().__init__(
            f"{source} is invalid ({len(problems)} problem"
            f"{'s' if len(problems) != 1 else ''}):\n  - " + "\n  - ".join(problems)
        )


def allowed_text(values) -> str:
    """The values of a vocabulary as a problem message lists them after "allowed:"."""
    return ", ".join(str(v) for v in values)


def is_int(v) -> bool:
    """Whether a decoded JSON value is an integer (``true`` is not)."""
    return isinstance(v, int) and not isinstance(v, bool)


def name_problem(name) -> str | None:
    """Why ``name`` cannot name a rule set, or None when it can."""
    if not isinstance(name, str) or not name:
        return "required, a non-empty string"
    if NAME_FORBIDDEN.search(name):
        return (
            f"{name!r} contains whitespace or one of * ( ) , = / \\ (not allowed: names must "
            "survive inside an OpenSpiel game string ttt(rules=NAME))"
        )
    if NAME_NUMERIC.fullmatch(name) or name in NAME_BOOLEAN:
        return (
            f"{name!r} would reach the game as a number or a bool, not a name (allowed: any "
            "name with a character other than digits, '+', '-' and '.', except true/false)"
        )
    if len(name) > MAX_NAME:
        return f"at most {MAX_NAME} characters"
    return None


def seats_of(players: str) -> tuple[int, bool]:
    """(number of non-Chaos players, whether Chaos plays)."""
    return {
        "2": (2, False),
        "3": (3, False),
        "4": (4, False),
        "partners": (4, False),
        "2-vs-chaos": (2, True),
        "3-vs-chaos": (3, True),
        "1-vs-chaos": (1, True),
    }[players]  # 1-vs-chaos: the specification's "(can extend to … “1 vs chaos”)"


def seat_index(name, players: str) -> int:
    """0-based seat of a ``locked_players`` entry (1..4 or "chaos", Chaos being
    the last seat)."""
    n, chaos = seats_of(players)
    return n if name == "chaos" else name - 1


def parse_check(check: str) -> tuple[int, int, bool]:
    """(k, effect, diagonals count) of a turn-check name."""
    if check.startswith("any-piece-"):  # a line of one: every arriving piece
        return 1, EFFECT_WIN if check.endswith("wins") else EFFECT_LOSE, True
    if check.startswith("all-lose-if-any-"):
        return int(check.rsplit("-", 1)[1]), EFFECT_ALL_LOSE, True
    parts = check.split("-")
    k = int(parts[1])
    effect = EFFECT_WIN if parts[2] == "wins" else EFFECT_LOSE
    return k, effect, not check.endswith("no-diagonal")


# -- outcomes of the dilemmas ------------------------------------


def parse_stalemate(name: str) -> tuple[str, str, str]:
    """(extreme, measure, verdict) of a ranked stalemate rule such as
    ``least-2-in-a-row-loses`` -> ("least", "2-in-a-row", "loses"); for the
    vs-Chaos rules ("vs-chaos", "pieces", name); for draws/all-win/all-lose
    ("", "", name)."""
    if name in VS_CHAOS_STALEMATES:
        return "vs-chaos", "pieces", name
    head, _, rest = name.partition("-")
    if head not in ("most", "least"):
        return "", "", name
    measure, _, verdict = rest.rpartition("-")
    return head, measure, verdict


def measure_shape(measure: str) -> str | None:
    """The shape a measure counts (``circles`` -> ``circle``), else None."""
    for shape, plural in SHAPE_PLURALS.items():
        if measure == plural:
            return shape
    return None


# Spaces: per-player locks. ``entry_locked``/``exit_locked``
# (on the board for the whole game, or on a phase for that phase) and
# ``exclusive`` are lists of {"at": [spaces], "players": [seats]}; a space is
# [x, y, z], or [x, y] for every height of that column (a whole stack).
SEAT_LOCK_FIELDS = ("entry_locked", "exit_locked")
SPACE_GROUP_FIELDS = ("at", "players")
MAX_BOARDS = 3


# -- shapes, ranks, movement and goals ------------------------------------------

# The moves the engine's original path plays for a one-circle rule set (the 16
# catalogue games); any other shape, move or goal rule takes the shapes path.
MOVES_ORIGINAL = ("stationary", "adjacent", "adjacent-orthogonal", "adjacent-alquerque", "linear-or-knight")
# Moves that never step away from the mover's goal: shapes with them count as
# "cannot move backwards" (and cannot be a goal's replacement shape).
MOVES_FORWARD = ("forward-orthogonal", "forward-diagonal")
# One letter per shape for strings and views (x is also a colour letter; the
# shape letter always follows the colour letter).
SHAPE_LETTERS = {"circle": "c", "triangle": "t", "x": "x", "cross": "+", "star": "*", "pentagon": "p"}


def outranks(a: str, b: str) -> bool:
    """The specification: "Pentagon outranks star which outranks cross which
    outranks X which outranks triangle which outranks circle (but circle
    outranks pentagon and only pentagon)." Not a total order (it has a cycle),
    so it is a comparison of two shapes, never a sort key. The engine's copy is
    ``games.ttt.shape_outranks``; tests check the two agree."""
    if {a, b} == {"circle", "pentagon"}:
        return a == "circle"
    return SHAPES_ALL.index(a) > SHAPES_ALL.index(b)


def slides(record) -> bool:
    """Whether a shape of the rule set moves along lines (``LINE_MOVES``)."""
    return any(props.get("move") in LINE_MOVES for props in (record.get("shapes") or {}).values())


def line_moves_blocked(record) -> bool:
    """Whether pieces stop the rule set's line moves (``line_moves``; a
    validated record holds the field only when it is not the default)."""
    return record.get("line_moves", LINE_READING_DEFAULT) == "blocked-by-pieces"


def can_move_backwards(props) -> bool:
    """Whether a shape's pieces may step away from the mover's goal: it moves,
    not only forward, without a "no back" move, and is not marked "cannot
    move backwards"."""
    return (
        props["move"] != "stationary"
        and props["move"] not in MOVES_FORWARD
        and props["move"] not in MOVES_NO_BACK
        and not props.get("cannot_move_backwards", False)
    )


def names_replacement(props) -> bool:
    """Whether a shape "cannot move backwards" in the specification's sense, so
    a move reaching the goal names a replacement: a forward move, or a moving
    shape marked so. The "no back" moves keep their shape on the goal."""
    return props["move"] != "stationary" and (
        props["move"] in MOVES_FORWARD or bool(props.get("cannot_move_backwards", False))
    )


def castle_king(record) -> str | None:
    """ "Castle"'s king (docs/rules/ttt/turns.md, "Castle"): the highest-ranked
    shape (in the specification's list order) whose move is "adjacent", or None."""
    kings = [s for s in SHAPES_ALL if s in record["shapes"] and record["shapes"][s].get("move") == "adjacent"]
    return kings[-1] if kings else None


def needs_goals(record) -> bool:
    """Whether a rule set uses the players' goal lines: a shape that cannot
    move backwards (explicitly, by moving forward only or by a "no back"
    move), the goal-reached stalemate, or "Castle" (its row lies across the
    goal's axis)."""
    return (
        GOAL_CHECK in record["turn_checks"]
        or CASTLE_CHECK in record["turn_checks"]
        or any(
            props.get("cannot_move_backwards", False)
            or props["move"] in MOVES_FORWARD
            or props["move"] in MOVES_NO_BACK
            or (props.get("power", "none") != "none" and props.get("condition") == DIAGONAL_EN_PASSANT)
            for props in record["shapes"].values()
        )
    )


def goal_sides(players: str, size) -> list[tuple[int, int]]:
    """Each non-Chaos player's goal as (axis, 0 for the low end / 1 for the
    high end), from the tic-tac-toe variations specification: "Player1 Goal is always at y=max (or x=1, if the
    max y is 1). For two-player games, Player 2 goal is opposite (e.g. y=1).
    For games with more players, the goals proceed around the board
    counter-clockwise (e.g. Player 2 Goal at x=1)." Counter-clockwise from
    y=max: x=1, y=1, x=max. Chaos has no goal (it "has no stats"; the
    specification gives goals to players). A board one row deep (max y = 1) has two ends
    only, so validation allows goals there for at most two players."""
    n, _ = seats_of(players)
    if size[1] == 1:
        return [(0, 0), (0, 1)][:n]
    if n <= 2:
        return [(1, 1), (1, 0)][:n]
    return [(1, 1), (0, 0), (1, 0), (0, 1)][:n]


def shaped(record) -> bool:
    """Whether a rule set needs the engine's shapes path: a shape other than
    the circle, a move of the extension list, or the goal lines. One-circle
    rule sets with the original moves (all 16 catalogue games) keep the
    original path, their action ids and their speed."""
    shapes = record["shapes"]
    return (
        set(shapes) != {"circle"}
        or shapes["circle"]["move"] not in MOVES_ORIGINAL
        or needs_goals(record)
        or has_powers(record)
        or "deck" in record  # dealt pieces are named by shape (docs/rules/ttt/deal.md)
    )


# -- captures -------------------------------------------------------------------


def has_powers(record) -> bool:
    """Whether some shape may capture (its power is not "none"); such rule
    sets take the shapes path."""
    return any(props.get("power", "none") != "none" for props in record["shapes"].values())


def has_jumps(record) -> bool:
    """Whether some shape captures by jumping ("Jump" or "Chain Jump")."""
    return any(
        props.get("power", "none") != "none" and props.get("condition") in CONDITIONS_JUMP
        for props in record["shapes"].values()
    )


def has_surrounds(record) -> bool:
    """Whether some shape captures by surrounding."""
    return any(
        props.get("power", "none") != "none" and props.get("condition") in CONDITIONS_SURROUND
        for props in record["shapes"].values()
    )


def has_chains(record) -> bool:
    """Whether some shape chain-jumps, so a jump may be followed by
    the same player's continuation decision (jump again with that piece, or
    end the chain): such rule sets have one more action id, "end-chain"."""
    return any(
        props.get("power", "none") != "none" and props.get("condition") in CONDITIONS_CHAIN
        for props in record["shapes"].values()
    )


def may_split_pot(record) -> bool:
    """Whether a cover may have captors of several colours, whose pot a chance
    node splits (docs/rules/ttt/pots.md, "The pot of a cover"): captures on stacks whose
    result converts or reincarnates, with three or more colours in play; or
    a by-stack mover whose power converts or reincarnates,
    whose showdown may tie between two seats; or any by-stack
    mover where a shape with a power converts or reincarnates: the defenders
    that take it send it to the showdown too."""
    if record["board"]["kind"] != "stacks" or not has_powers(record):
        return False
    if not any(p.get("result") in ("converts", *REINCARNATING) for p in record["shapes"].values()):
        return False
    if any(
        p.get("move") in ("orth-by-stack", "orth-by-full-stack")
        and p.get("power", "none") != "none"
        and p.get("result") in ("converts", *REINCARNATING)
        for p in record["shapes"].values()
    ):
        return True  # two seats may tie in a by-stack showdown
    if any(
        p.get("move") in ("orth-by-stack", "orth-by-full-stack") for p in record["shapes"].values()
    ) and any(
        p.get("power", "none") != "none" and p.get("result") in ("converts", *REINCARNATING)
        for p in record["shapes"].values()
    ):
        return True  # a by-stack mover the defenders take goes to the showdown too
    n, chaos = seats_of(record["players"])
    colours = set(record["reserves"]) | {q["colour"] for q in record["board"]["pieces"]}
    if record["colours"] == "assigned":
        colours |= set(PALETTE[: n + chaos])
    return len(colours) >= 3


def capture_class(props) -> int:
    """The specification's rank classes of a shape in a capture: "Pieces that cannot
    capture have the lowest rank" (0); "cover by rank" pieces compare by
    ``outranks`` (1); "pieces that capture in ways other than “by rank” have
    highest rank" (2). The engine's copy is ``TTTCore._cp_class``."""
    if props.get("power", "none") == "none":
        return 0
    return 1 if props["condition"] == "cover-by-rank" else 2


def duel(attacker: str, a_props, defender: str, d_props) -> int:
    """One attacker covering one defender: 1 the attacker captures it, -1 the
    defender captures the attacker, 0 mutual destruction, 2 no capture (two
    pieces that cannot capture "cannot cover each other"). Docs:
    docs/rules/ttt/captures.md, "Who captures whom"."""
    ca, cd = capture_class(a_props), capture_class(d_props)
    if ca == 0 and cd == 0:
        return 2
    if ca != cd:
        return 1 if ca > cd else -1
    if ca == 2:
        return 1  # "award conflicts between each other to the attacker"
    if outranks(attacker, defender):
        return 1
    if outranks(defender, attacker):
        return -1
    return 0  # "cover of equal rank results in mutual destruction"

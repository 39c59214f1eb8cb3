# cython: language_level=3
"""The integer codes that rule-set compilation writes and the engine reads,
declared once: the engine cimports these names, Python code imports the enum
classes of the same names from ``games.ttt.codes`` (cpdef enums become Python
int enums of the module compiled from ``codes.pyx``), so the two sides cannot
drift apart."""


cpdef enum Effect:
    # what a turn check does to the mover's side when it holds
    EFFECT_WIN = 0
    EFFECT_LOSE = 1
    EFFECT_ALL_LOSE = 2


cpdef enum Move:
    # how a placed piece may move
    MOVE_NONE = 0             # stationary
    MOVE_ADJACENT = 1         # one step to any of the up to 26 neighbours (king move)
    MOVE_LINEAR_KNIGHT = 2    # any distance along a line, or a knight's jump
    MOVE_ALQUERQUE = 3        # one step along the lines of the alquerque-pattern board
    MOVE_ORTHOGONAL = 4       # one step along an axis
    # the specification's extension list (the shapes path only)
    MOVE_ADJ_DIAGONAL = 5     # one step along a diagonal (not an axis)
    MOVE_ORTH_LINE = 6        # any distance along an axis
    MOVE_DIAG_LINE = 7        # any distance along a diagonal
    MOVE_LINEAR = 8           # any distance along any of the 26 directions
    MOVE_FORWARD_ORTH = 9     # one step along the axis towards the mover's goal
    MOVE_FORWARD_DIAG = 10    # one step along a diagonal towards the mover's goal
    MOVE_KNIGHT = 11          # a knight's jump, 2x1x0
    MOVE_KNIGHT3 = 12         # a 3-D knight's jump, 2x1x1
    # any distance along an axis (height ignored), carrying the
    # pieces above the mover; the full-stack one only from a stack's bottom
    MOVE_ORTH_BY_STACK = 13
    MOVE_ORTH_BY_FULL_STACK = 14
    # the specification's "Moves adjacent or knight" (3P-9X-HideSeek's
    # circle): one step to any neighbour, or a knight's jump 2x1x0
    MOVE_ADJ_KNIGHT = 15
    # the specification's "no back" moves: never a step towards the mover's
    # own side, and no replacement on reaching the goal
    MOVE_ADJ_NO_BACK = 16     # "Moves adjacent (no back)": one step, forward or sideways
    MOVE_ADJ_NO_BACK_SIDE = 17   # "Moves adjacent (no back/side)": one step with a forward part
    MOVE_ORTH_NO_BACK = 18    # "Moves orth (no back)": any distance along an axis, not backwards
    MOVE_PAWN = 19            # "Pawn move forward/center": one step forward, or sideways towards the centre


cpdef enum Stalemate:
    # how a stalemate is scored
    ST_DRAWS = 0
    ST_ALL_WIN = 1
    ST_ALL_LOSE = 2
    ST_MOST_ROW = 3
    ST_LEAST_ROW = 4
    ST_MOST_PIECES = 5
    # the general scoring path (Tables.general_outcome)
    ST_RANKED = 6             # most/least <measure> wins/loses
    ST_VS_CHAOS = 7           # each player's pieces against Chaos's
    ST_ANY_ROW = 8            # "Any K-same-color-in-a-row wins": every side with a K-line
    ST_STUCK = 9              # "Stalemate loses" / "Stalemate wins": the seat left without a move
    ST_LAST_ROW = 10          # "Last K-same-color-in-a-row wins": the side that made the last K-line


cpdef enum End:
    # how the game ended (for statistics and the status line)
    END_NONE = 0
    END_CHECK = 1
    END_STALEMATE = 2
    END_AGREED_DRAW = 3
    END_MOVE_LIMIT = 4


cpdef enum Order:
    # how the turns of a phase are taken
    ORDER_SEQUENTIAL = 0
    ORDER_SIMULTANEOUS = 1
    ORDER_SINGLE = 2          # simultaneous, one round only


cpdef enum Fold:
    # the rule applied to every player but Chaos at the end of a phase
    FOLD_NONE = 0
    FOLD_LESS_THAN_MOST = 1   # "Less-than-most committed pieces folds"


cpdef enum Measure:
    # what a ranked stalemate rule counts, per side
    MEASURE_RUN = 0           # longest same-colour line (13 directions)
    MEASURE_WINDOWS = 1       # K-same-colour-in-a-row: K-long same-colour segments of lines
    MEASURE_PIECES = 2        # pieces on the board
    MEASURE_SHAPE = 3         # pieces of one shape on the board
    MEASURE_AREA = 4          # Go-style area (docs/rules/ttt/outcomes.md)


cpdef enum Cloak:
    # the cloaking type: what a piece on a cloaked space shows
    CLOAK_NONE = 0
    CLOAK_HIDES = 1           # "Invisibility": a piece not fully seen looks like an empty space
    CLOAK_OBSCURES = 2        # "Obscurity": its colour shows, its shape does not


cpdef enum Power:
    # a shape's power
    POWER_NONE = 0
    POWER_MUST = 1            # "Must capture": a visible capture makes every non-capture illegal
    POWER_CAN = 2             # "Can capture"


cpdef enum Condition:
    # how a shape captures
    COND_COVER = 0            # "Cover": captures other than by rank (highest rank)
    COND_COVER_RANK = 1       # "Cover by rank": the highest-ranked of attacker and defenders captures
    COND_JUMP = 2             # "Jump": over an adjacent opponent piece to the empty space beyond
    COND_CHAIN_JUMP = 3       # "Chain Jump": a jump, then the same piece may jump again or pass
    COND_SURROUND_LINE = 4    # "Surround line": runs closed by the arriving piece and another own piece
    COND_SURROUND_ORTH = 5    # "Surround orthogonal": groups with no free orthogonal neighbour
    COND_ADJACENT = 6         # "Adjacent": every opponent piece next to the arriving piece
    COND_ADJACENT_ORTH = 7    # "Adjacent", orthogonal reading: the orthogonal neighbours only
    COND_APPROACH = 8         # "Approach": a move captures the run of opponent pieces it approaches
    COND_TRIAGONAL = 9        # "Move on triagonal": captures by one step along a 3-D triagonal onto the piece
    COND_DIAG_EN_PASSANT = 10   # "Move on diag + en passe": a diagonal step forward onto it, or en passant


cpdef enum Result:
    # what happens to the captives
    RESULT_REMOVES = 0        # "Removes captive(s)" / "Destroys captive(s)"
    RESULT_CONVERTS = 1       # the captive takes the captor's colour and stays
    RESULT_REINCARNATES = 2   # the captive goes to the captor's reserve, in the captor's colour
    RESULT_REINCARNATES_X2 = 3   # "reincarnate (x2) (double upon capture)": two per captive
    RESULT_REINCARNATES_X3 = 4   # "convert, remove, triple, and add them to one's own reserves": three
    RESULT_PARALYZES = 5      # "Paralyzes captive(s)": the captive stays, in its colour, never to move

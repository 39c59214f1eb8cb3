"""The random rule-set records the tic-tac-toe property tests draw (with
Hypothesis), one generator per feature and combination: each draws the
fields its feature reads and leaves validation to refuse what it refuses
(``ttt_checks.parsed_or_rejected``)."""

from __future__ import annotations

import copy

from hypothesis import strategies as st

from games.ttt.rules import PALETTE, STALEMATES, TURN_CHECKS, seats_of
from games.ttt.schema import CASTLE_CHECK, GOAL_CHECK, LINE_READINGS, ROOK_MOVE, SHAPES_ALL, slides
from ttt_checks import CAN, MUST, power

BACK = "chain-jump-back"
ADJ, ADJ_ORTH = "adjacent", "adjacent-orthogonal"  # the conditions, not the moves


def draw_line_moves(draw, rec):
    """``rec`` with either reading of pieces in the way of line moves
    (``line_moves``) when one of its shapes moves along lines."""
    if slides(rec):
        rec["line_moves"] = draw(st.sampled_from(LINE_READINGS))
    return rec


# -- turns, phases, outcomes ------------------------------------------------------------------


def draw_pieces(draw, cells, colours, shapes, most):
    """Up to ``most`` pre-placed pieces on distinct cells, each of a colour
    and a shape drawn from ``colours`` and ``shapes``."""
    at = draw(st.lists(st.sampled_from(cells), max_size=most, unique_by=tuple))
    return [
        {"at": a, "colour": draw(st.sampled_from(colours)), "shape": draw(st.sampled_from(sorted(shapes)))}
        for a in at
    ]


@st.composite
def phase_records(draw, cells, n, chaos):
    seats = list(range(1, n + 1)) + (["chaos"] if chaos else [])
    return {
        "pass": draw(st.booleans()),
        "movement": draw(st.sampled_from(["allowed", "placement-only"])),
        "locked_players": draw(st.lists(st.sampled_from(seats), max_size=len(seats) - 1, unique=True)),
        "locked": draw(st.lists(st.sampled_from(cells), max_size=2, unique_by=tuple)),
        "fold": draw(st.sampled_from(["none", "less-than-most-committed"])),
    }


@st.composite
def rule_records(draw):
    kind = draw(st.sampled_from(["squares", "stacks", "vertices"]))
    dims = [draw(st.integers(1, 4)), draw(st.integers(1, 3)), draw(st.integers(1, 3))]
    if kind == "stacks":
        dims[2] = draw(st.integers(2, 4))
    players = draw(st.sampled_from(["2", "3", "4", "partners", "2-vs-chaos", "3-vs-chaos"]))
    colours = draw(
        st.sampled_from(
            ["assigned", "shared", "players-choose"] + (["partners-share"] if players == "partners" else [])
        )
    )
    n, chaos = seats_of(players)
    in_play = {
        "assigned": PALETTE[: n + chaos],
        "shared": PALETTE[:1],
        "partners-share": PALETTE[:2],
        "players-choose": PALETTE[: draw(st.integers(1, 3))],
    }[colours]
    spaces = dims[0] * dims[1] * dims[2]
    reserves = {c: draw(st.integers(1, max(1, spaces // 2))) for c in in_play}
    cells = [
        [x, y, z] for x in range(1, dims[0] + 1) for y in range(1, dims[1] + 1) for z in range(1, dims[2] + 1)
    ]
    locked = draw(st.lists(st.sampled_from(cells), max_size=2, unique_by=tuple))
    move = draw(
        st.sampled_from(
            ["stationary", "adjacent", "adjacent-orthogonal", "adjacent-alquerque", "linear-or-knight"]
        )
    )
    rec = {
        "name": "H",
        "board": {"kind": kind, "size": dims, "locked": locked},
        "players": players,
        "colours": colours,
        "reserves": reserves,
        "shapes": {"circle": {"move": move}},
        "pieces_per_turn": draw(st.sampled_from([1, 2])),
        "agree_draw": draw(st.booleans()),
        "turn_checks": draw(st.lists(st.sampled_from(TURN_CHECKS), max_size=2, unique=True)),
        "stalemate": draw(st.sampled_from(STALEMATES)),
        "phases": draw(st.lists(phase_records(cells, n, chaos), min_size=1, max_size=3)),
    }
    rec["phases"][-1]["fold"] = "none"
    if move != "stationary":
        rec["move_limit"] = draw(st.integers(1, 30))
    return draw_line_moves(draw, rec)


@st.composite
def outcome_records(draw):
    """``rule_records`` plus the outcome fields."""
    rec = draw(rule_records())
    if rec["players"] == "4":
        rec["overachievers_disqualified"] = draw(st.booleans())
    if draw(st.booleans()):
        rec["chaos_wins_if_more_than"] = {"circle": draw(st.integers(0, 6))}
    if draw(st.booleans()):
        rec["turn_checks"] = draw(
            st.lists(
                st.sampled_from(
                    [
                        "any-piece-wins",
                        "any-piece-loses",
                        "first-2-wins",
                        "first-2-loses",
                        "first-3-wins",
                        "all-lose-if-any-3",
                    ]
                ),
                max_size=2,
                unique=True,
            )
        )
    return rec


# -- spaces some seat may not enter ------------------------------------------------------------


def draw_forbidden_spaces(draw, rec):
    """A copy of a generated record with spaces some seat may not enter or
    leave added (without them a check that no piece stands where it may not
    could not fail): one to three groups, each one or two
    free spaces, of ``board.locked``, ``board.exclusive`` (to one seat, to
    Chaos when it plays, or to all seats but one), ``board.sticky``,
    ``board.entry_locked``/``exit_locked`` for one seat, and a phase's
    ``locked`` or ``entry_locked``. Spaces under pre-placed pieces are left
    alone (validation refuses most such locks); the few records validation
    still refuses are filtered by ``parsed_or_rejected``."""
    rec = copy.deepcopy(rec)
    board = rec["board"]
    X, Y, Z = board["size"]
    n, chaos = seats_of(rec.get("players", "2"))
    seats = list(range(1, n + 1)) + (["chaos"] if chaos else [])
    taken = {
        tuple(p["at"][:2]) if board["kind"] == "stacks" else tuple(p["at"]) for p in board.get("pieces", [])
    }
    free = [
        [x, y, z]
        for x in range(1, X + 1)
        for y in range(1, Y + 1)
        for z in range(1, Z + 1)
        if ((x, y) if board["kind"] == "stacks" else (x, y, z)) not in taken
    ]
    kinds = draw(
        st.lists(
            st.sampled_from(
                ["locked", "exclusive", "exclusive", "sticky", "entry", "exit", "phase-locked", "phase-entry"]
            ),
            min_size=1,
            max_size=3,
        )
    )
    used = set()
    for kind in kinds:
        spaces = (
            [
                a
                for a in draw(st.lists(st.sampled_from(free), min_size=1, max_size=2, unique_by=tuple))
                if tuple(a) not in used
            ]
            if free
            else []
        )
        if not spaces:
            continue
        used.update(tuple(a) for a in spaces)
        one = draw(st.sampled_from(seats))
        if kind == "locked":
            board.setdefault("locked", []).extend(spaces)
        elif kind == "exclusive":
            whom = draw(st.sampled_from([[one], [s for s in seats if s != one]]))
            board.setdefault("exclusive", []).append({"at": spaces, "players": whom})
        elif kind == "sticky":
            board.setdefault("sticky", []).extend(spaces)
        elif kind in ("entry", "exit"):
            board.setdefault(f"{kind}_locked", []).append({"at": spaces, "players": [one]})
        else:
            phases = rec.setdefault("phases", [{}])
            ph = phases[draw(st.integers(0, len(phases) - 1))]
            if kind == "phase-locked":
                ph.setdefault("locked", []).extend(spaces)
            else:
                ph.setdefault("entry_locked", []).append({"at": spaces, "players": [one]})
    return rec


# -- shapes and stacks ----------------------------------------------------------------------


# -- Hypothesis: random shaped rule sets ----------------------------------------------
SHAPE_MOVES = [
    "stationary",
    "adjacent",
    "adjacent-orthogonal",
    "adjacent-diagonal",
    "orthogonal",
    "diagonal",
    "linear",
    "linear-or-knight",
    "forward-orthogonal",
    "forward-diagonal",
    "knight-2x1x0",
    "knight-2x1x1",
    "adjacent-no-back",
    "adjacent-no-back-side",
    "orthogonal-no-back",
]


@st.composite
def shaped_records(draw):
    kind = draw(st.sampled_from(["squares", "stacks"]))
    dims = [draw(st.integers(1, 4)), draw(st.integers(1, 4)), draw(st.integers(1, 2))]
    if kind == "stacks":
        dims[2] = draw(st.integers(2, 3))
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos", "4"]))
    n = {"2": 2, "3": 3, "2-vs-chaos": 3, "4": 4}[players]
    colours = ["black", "white", "pink", "yellow"][:n]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    shapes = {}
    for s in names:
        move = draw(st.sampled_from(SHAPE_MOVES))
        shapes[s] = {"move": move}
        if move != "stationary" and draw(st.booleans()):
            shapes[s]["cannot_move_backwards"] = True
    if draw(st.booleans()):
        shapes.setdefault("pentagon", {"move": "adjacent"})
    reserves = {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours}
    cells = [
        [x, y, z]
        for x in range(1, dims[0] + 1)
        for y in range(1, dims[1] + 1)
        for z in range(1, (1 if kind == "stacks" else dims[2]) + 1)
    ]
    pieces = draw_pieces(draw, cells, ["black", "white", "pink", "yellow"], shapes, most=2)
    checks = draw(
        st.lists(
            st.sampled_from(["first-3-wins", "goal-reached-stalemate", "first-2-loses"]),
            max_size=2,
            unique=True,
        )
    )
    rec = {
        "name": "H",
        "board": {"kind": kind, "size": dims, "pieces": pieces},
        "players": players,
        "reserves": reserves,
        "shapes": shapes,
        "turn_checks": checks,
        "move_limit": draw(st.integers(1, 30)),
        "stalemate": draw(
            st.sampled_from(
                ["draws", "most-pieces-wins"] + [f"most-{p}-wins" for p in ("circles", "stars", "pentagons")]
            )
        ),
        "phases": draw(st.sampled_from([[{}], [{"pass": True}], [{"movement": "placement-only"}, {}]])),
    }
    return draw_line_moves(draw, rec)


@st.composite
def shaped_records_with_spaces(draw):
    """shaped_records with locked, exclusive, sticky and entry/exit-locked
    spaces (``draw_forbidden_spaces``)."""
    return draw_forbidden_spaces(draw, draw(shaped_records()))


#: the reserve counts castle_records draws from, per shape
SPARE = {"circle": [0, 0, 1, 2], "x": [0, 0, 0, 1], "star": [0, 0, 0, 1]}


@st.composite
def castle_records(draw):
    """Random castle rule sets: a flat board, two or three players, kings and
    rooks pre-placed or in reserve (a piece placed from a reserve has not
    moved), covers, other shapes moving any way; one layer or two; squares
    or hexagons (one layer, no knight); one board or two (each castling on
    its own). Most have a home row each with a king and a rook, so random
    play castles."""
    kind = draw(st.sampled_from(["squares", "squares", "hexagons"]))
    dims = [draw(st.integers(4, 7)), draw(st.integers(2, 5)), draw(st.sampled_from([1, 1, 2]))]
    if kind == "hexagons":
        dims[2] = 1  # a plane
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    colours = ["black", "white", "pink"][: 2 if players == "2" else 3]
    king = dict(draw(st.sampled_from([{"move": "adjacent"}, power("cover", "removes", "adjacent")])))
    rook = draw(st.sampled_from([{"move": ROOK_MOVE}, power("cover", "reincarnates", ROOK_MOVE, how=MUST)]))
    other = draw(st.sampled_from(["stationary", "stationary", "adjacent", "knight-2x1x0", "orthogonal"]))
    if kind == "hexagons" and other == "knight-2x1x0":
        other = "adjacent"  # (no knight's leap on hexagons)
    shapes = {"circle": {"move": other}, "x": rook, "star": king}
    X, Y, Z = dims
    # often a home row each: a rook on x = 1 and the king three spaces on (a
    # second rook on x = X when the row is long enough), as a castle needs
    homes = []
    if draw(st.sampled_from([True, True, True, False])):
        for colour, y in (("black", 1), ("white", Y)):
            homes += [([1, y, 1], colour, "x"), ([4, y, 1], colour, "star")]
            homes += [([X, y, 1], colour, "x")] if X >= 7 else []
    taken = {tuple(a) for a, _, _ in homes}
    cells = [
        [x, y, z]
        for x in range(1, X + 1)
        for y in range(1, Y + 1)
        for z in range(1, Z + 1)
        if (x, y, z) not in taken
    ]
    at = draw(
        st.lists(
            st.sampled_from(cells), min_size=0 if homes else 2, max_size=4 if homes else 8, unique_by=tuple
        )
    )
    pieces = [{"at": a, "colour": colour, "shape": shape} for a, colour, shape in homes] + [
        {
            "at": c,
            "colour": draw(st.sampled_from(colours[:2])),
            "shape": draw(st.sampled_from(["circle", "x", "x", "star"])),
        }
        for c in at
    ]
    record = {
        "name": "random-castle",
        "players": players,
        "board": {"kind": kind, "size": dims, "pieces": pieces},
        # (a king or rook in reserve keeps the ones on the board from moving)
        "reserves": {c: {s: draw(st.sampled_from(SPARE[s])) for s in shapes} for c in colours},
        "shapes": shapes,
        "turn_checks": [CASTLE_CHECK] + draw(st.sampled_from([[], ["first-3-wins"], [GOAL_CHECK]])),
        "stalemate": draw(st.sampled_from(["draws", "most-pieces-wins"])),
        "phases": [{"pass": draw(st.booleans())}],
        "move_limit": draw(st.integers(8, 30)),
        "boards": draw(st.sampled_from([1, 1, 2])),
    }
    if draw(st.booleans()):
        record["line_moves"] = "over-pieces"
    return record


@st.composite
def castle_records_with_spaces(draw):
    """castle_records with locked, exclusive, sticky and entry/exit-locked
    spaces (``draw_forbidden_spaces``)."""
    return draw_forbidden_spaces(draw, draw(castle_records()))


# -- Hypothesis: random stack rule sets ------------------------------------------------
STACK_MOVES = ["orth-by-stack", "orth-by-full-stack", "orth-by-stack", "stationary", "adjacent", "linear"]


@st.composite
def stack_records(draw):
    dims = [draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(2, 4))]
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    n = {"2": 2, "3": 3, "2-vs-chaos": 3}[players]
    colours = ["black", "white", "pink"][:n]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    shapes = {}
    for s in names:
        shapes[s] = {"move": draw(st.sampled_from(STACK_MOVES))}
        if shapes[s]["move"] != "stationary" and draw(st.booleans()) and draw(st.booleans()):
            shapes[s]["cannot_move_backwards"] = True
    if not any(p["move"] in ("orth-by-stack", "orth-by-full-stack") for p in shapes.values()):
        shapes[names[0]] = {"move": "orth-by-stack"}
    reserves = {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours}
    pieces = []
    for x in range(1, dims[0] + 1):
        for y in range(1, dims[1] + 1):
            for z in range(1, draw(st.integers(0, dims[2] - 1)) + 1):
                pieces.append(
                    {
                        "at": [x, y, z],
                        "colour": draw(st.sampled_from(["black", "white", "yellow"])),
                        "shape": draw(st.sampled_from(sorted(shapes))),
                    }
                )
    checks = draw(
        st.lists(
            st.sampled_from(["first-3-wins", "first-4-loses", "goal-reached-stalemate"]),
            max_size=2,
            unique=True,
        )
    )
    board = {"kind": "stacks", "size": dims, "pieces": pieces}
    if draw(st.booleans()):
        board["exit_locked"] = [{"at": [[1, 1]], "players": [1]}]
    return {
        "name": "H",
        "board": board,
        "players": players,
        "reserves": reserves,
        "shapes": shapes,
        "turn_checks": checks,
        "move_limit": draw(st.integers(1, 30)),
        "boards": draw(st.sampled_from([1, 1, 2])),
        "phases": draw(st.sampled_from([[{}], [{"pass": True}], [{"movement": "placement-only"}, {}]])),
    }


# -- captures ----------------------------------------------------------------------------


# -- Hypothesis: random rule sets with powers -------------------------------------------
CAPTURE_MOVES = ["stationary", "adjacent", "orthogonal", "diagonal", "knight-2x1x0", "forward-orthogonal"]


RESULTS = ["removes", "converts", "reincarnates", "reincarnates-x2", "reincarnates-x3"]


@st.composite
def capture_records(draw):
    kind = draw(st.sampled_from(["squares", "stacks"]))
    dims = [draw(st.integers(1, 4)), draw(st.integers(1, 3)), 1]
    if kind == "stacks":
        dims[2] = draw(st.integers(2, 4))
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    n = {"2": 2, "3": 3, "2-vs-chaos": 3}[players]
    colours = ["black", "white", "pink"][:n]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    shapes = {}
    for s in names:
        shapes[s] = {"move": draw(st.sampled_from(CAPTURE_MOVES))}
        how = draw(st.sampled_from(["none", CAN, MUST]))
        if how != "none":
            result = draw(
                st.sampled_from(
                    RESULTS
                    if kind == "stacks"
                    else ["removes", "reincarnates", "reincarnates-x2", "reincarnates-x3"]
                )
            )
            shapes[s].update(
                power=how, condition=draw(st.sampled_from(["cover", "cover-by-rank"])), result=result
            )
    reserves = {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours}
    cells = [[x, y, 1] for x in range(1, dims[0] + 1) for y in range(1, dims[1] + 1)]
    pieces = draw_pieces(draw, cells, ["black", "white", "pink", "yellow"], shapes, most=2)
    rec = {
        "name": "H",
        "board": {"kind": kind, "size": dims, "pieces": pieces},
        "players": players,
        "reserves": reserves,
        "shapes": shapes,
        "move_limit": draw(st.integers(1, 30)),
        "turn_checks": draw(st.lists(st.sampled_from(["first-3-wins", "first-2-loses"]), max_size=1)),
        "stalemate": draw(st.sampled_from(["draws", "most-pieces-wins"])),
        "phases": draw(st.sampled_from([[{}], [{"pass": True}], [{"movement": "placement-only"}, {}]])),
    }
    return draw_line_moves(draw, rec)


@st.composite
def triagonal_records(draw):
    """Shapes that capture by "Move on triagonal" on 3-D boards, with covers and goals."""
    dims = [draw(st.integers(2, 3)), draw(st.integers(2, 3)), draw(st.integers(2, 3))]
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    colours = ["black", "white", "pink"][: {"2": 2, "3": 3, "2-vs-chaos": 3}[players]]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    shapes = {}
    for i, s in enumerate(names):
        move = draw(st.sampled_from(["adjacent", "adjacent-orthogonal", "linear", "forward-orthogonal"]))
        shapes[s] = {"move": move}
        if draw(st.booleans()):
            shapes[s]["cannot_move_backwards"] = True
        how = draw(st.sampled_from([CAN, MUST] if i == 0 else ["none", CAN]))
        if how != "none":
            cond = "move-on-triagonal" if i == 0 else draw(st.sampled_from(["cover", "cover-by-rank", ADJ]))
            result = draw(st.sampled_from(["removes", "reincarnates", "reincarnates-x2"]))
            shapes[s].update(power=how, condition=cond, result=result)
    cells = [
        [x, y, z] for x in range(1, dims[0] + 1) for y in range(1, dims[1] + 1) for z in range(1, dims[2] + 1)
    ]
    pieces = draw_pieces(draw, cells, colours + ["yellow"], shapes, most=5)
    rec = {
        "name": "HT",
        "board": {"kind": "squares", "size": dims, "pieces": pieces},
        "players": players,
        "reserves": {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours},
        "shapes": shapes,
        "move_limit": draw(st.integers(2, 24)),
        "turn_checks": draw(
            st.lists(st.sampled_from(["first-3-wins", "goal-reached-stalemate"]), max_size=1)
        ),
        "stalemate": draw(st.sampled_from(["draws", "most-pieces-wins"])),
        "phases": draw(st.sampled_from([[{}], [{"pass": True}], [{"movement": "placement-only"}, {}]])),
    }
    return draw_line_moves(draw, rec)


PARALYZING = ["surround-line", "surround-orthogonal", ADJ, ADJ_ORTH, "approach", "approach-one"]


@st.composite
def paralyze_records(draw):
    """A shape that paralyzes its captives (by a surround, adjacency or an
    approach) on a flat board, beside shapes without power or capturing the
    same ways with any result."""
    dims = [draw(st.integers(2, 5)), draw(st.integers(2, 4)), 1]
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    colours = ["black", "white", "pink"][: {"2": 2, "3": 3, "2-vs-chaos": 3}[players]]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    shapes = {}
    for i, s in enumerate(names):
        move = draw(st.sampled_from(["stationary", "adjacent", "orthogonal", "linear"]))
        shapes[s] = {"move": move}
        how = draw(st.sampled_from([CAN, MUST] if i == 0 else ["none", CAN]))
        if how != "none":
            conds = PARALYZING if move != "stationary" else PARALYZING[:4]
            result = "paralyzes" if i == 0 else draw(st.sampled_from(["paralyzes", "removes", "converts"]))
            shapes[s].update(power=how, condition=draw(st.sampled_from(conds)), result=result)
    cells = [[x, y, 1] for x in range(1, dims[0] + 1) for y in range(1, dims[1] + 1)]
    pieces = draw_pieces(draw, cells, colours, shapes, most=5)
    rec = {
        "name": "PZ",
        "board": {"kind": "squares", "size": dims, "pieces": pieces},
        "players": players,
        "reserves": {c: {s: draw(st.integers(0, 3)) for s in shapes} for c in colours},
        "shapes": shapes,
        "move_limit": draw(st.integers(4, 30)),
        "turn_checks": draw(st.lists(st.sampled_from(["first-3-wins"]), max_size=1)),
        "stalemate": draw(st.sampled_from(["draws", "most-pieces-wins"])),
        "phases": draw(st.sampled_from([[{}], [{"pass": True}], [{"movement": "placement-only"}, {}]])),
    }
    return draw_line_moves(draw, rec)


@st.composite
def capture_round_records(draw):
    """Stationary shapes with powers in simultaneous or single phases."""
    kind = draw(st.sampled_from(["squares", "stacks"]))
    dims = [draw(st.integers(1, 3)), draw(st.integers(1, 2)), 1]
    if kind == "stacks":
        dims[2] = draw(st.integers(2, 3))
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    colours = ["black", "white", "pink"][: {"2": 2, "3": 3, "2-vs-chaos": 3}[players]]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    shapes = {}
    for s in names:
        shapes[s] = {}
        how = draw(st.sampled_from(["none", CAN, MUST]))
        if how != "none":
            shapes[s] = power(
                draw(st.sampled_from(["cover", "cover-by-rank"])),
                draw(
                    st.sampled_from(["removes", "reincarnates"] + (["converts"] if kind == "stacks" else []))
                ),
                how=how,
            )
    order = draw(st.sampled_from(["simultaneous", "single"]))
    return {
        "name": "HR",
        "board": {"kind": kind, "size": dims},
        "players": players,
        "reserves": {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours},
        "shapes": shapes,
        "move_limit": draw(st.integers(2, 20)),
        "turn_checks": draw(st.lists(st.sampled_from(["first-2-wins", "first-3-wins"]), max_size=1)),
        "phases": [{"order": order, "pass": draw(st.booleans())}, {"pass": True}],
    }


# -- Hypothesis ----------------------------------------------------------------------------
STACK_POWER_MOVES = ["orth-by-stack", "orth-by-full-stack", "orth-by-stack", "stationary", "adjacent"]


@st.composite
def stack_power_records(draw):
    dims = [draw(st.integers(1, 3)), draw(st.integers(1, 2)), draw(st.integers(2, 4))]
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    colours = ["black", "white", "pink"][: {"2": 2, "3": 3, "2-vs-chaos": 3}[players]]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    shapes = {}
    for s in names:
        shapes[s] = {"move": draw(st.sampled_from(STACK_POWER_MOVES))}
        how = draw(st.sampled_from(["none", CAN, MUST]))
        if how != "none":
            shapes[s].update(
                power=how,
                condition=draw(st.sampled_from(["cover", "cover-by-rank"])),
                result=draw(st.sampled_from(RESULTS)),
            )
    cells = [[x, y, 1] for x in range(1, dims[0] + 1) for y in range(1, dims[1] + 1)]
    pieces = draw_pieces(draw, cells, colours + ["yellow"], shapes, most=2)
    return {
        "name": "HS",
        "board": {"kind": "stacks", "size": dims, "pieces": pieces},
        "players": players,
        "reserves": {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours},
        "shapes": shapes,
        "move_limit": draw(st.integers(1, 30)),
        "turn_checks": draw(st.lists(st.sampled_from(["first-3-wins", "first-2-loses"]), max_size=1)),
        "phases": draw(st.sampled_from([[{}], [{"pass": True}]])),
    }


FORWARD = ["forward-orthogonal", "forward-diagonal"]


BACKWARD = ["adjacent", "orthogonal", "adjacent-orthogonal", "linear"]


@st.composite
def goal_records(draw, kind="squares", rounds=False):
    """A mover that cannot move backwards (a forward move, or a free move
    with ``cannot_move_backwards``) with a cover, cover-by-rank, jump or no
    power; one or two shapes that can move backwards, at least one a
    surrounder; pieces of both colours pre-placed, so goal moves that cover
    or jump and then surround come up. ``kind`` "stacks" plays on stacks
    (height 2), ``rounds`` in simultaneous rounds."""
    X, Y = draw(st.integers(2, 4)), draw(st.integers(3, 4))
    mover = {"move": draw(st.sampled_from(FORWARD + ["adjacent"]))}
    if mover["move"] == "adjacent":
        mover["cannot_move_backwards"] = True
    how = draw(st.sampled_from(["none", CAN, MUST, MUST]))
    if how != "none":
        cond = draw(st.sampled_from(["cover", "cover-by-rank", "jump"]))
        result = draw(
            st.sampled_from(
                ["removes", "reincarnates", "reincarnates-x2", "reincarnates-x3"]
                + (["converts"] if cond == "jump" or kind == "stacks" else [])
            )
        )
        mover.update(power=how, condition=cond, result=result)
    shapes = {
        "triangle": mover,
        "x": {
            "move": draw(st.sampled_from(BACKWARD)),
            "power": draw(st.sampled_from([CAN, MUST])),
            "condition": draw(st.sampled_from(["surround-line", "surround-orthogonal"])),
            "result": draw(st.sampled_from(["removes", "reincarnates", "converts"])),
        },
    }
    if draw(st.booleans()):
        p = draw(st.sampled_from(["none", CAN, MUST]))
        shapes["star"] = {"move": draw(st.sampled_from(BACKWARD + ["stationary"]))}
        if p != "none":
            shapes["star"].update(
                power=p, condition=draw(st.sampled_from(["cover", "cover-by-rank"])), result="removes"
            )
    names = sorted(shapes)
    cells = [[x, y, 1] for x in range(1, X + 1) for y in range(1, Y + 1)]
    at = draw(st.lists(st.sampled_from(cells), min_size=2, max_size=min(8, len(cells) - 1), unique_by=tuple))
    pieces = [
        {
            "at": a,
            "colour": draw(st.sampled_from(["black", "white"])),
            "shape": draw(st.sampled_from(names + ["triangle", "triangle"])),
        }
        for a in at
    ]
    phases = (
        [{"order": "simultaneous", "pass": True}]
        if rounds
        else draw(st.sampled_from([[{}], [{"pass": True}]]))
    )
    return {
        "name": "HG",
        "board": {"kind": kind, "size": [X, Y, 1 if kind == "squares" else 2], "pieces": pieces},
        "reserves": {c: {s: draw(st.integers(0, 1)) for s in names} for c in ("black", "white")},
        "shapes": shapes,
        "move_limit": draw(st.integers(4, 20)),
        "turn_checks": draw(st.sampled_from([[], ["first-3-wins"]])),
        "stalemate": draw(st.sampled_from(["draws", "most-pieces-wins"])),
        "phases": phases,
    }


# -- jumps and surrounds -----------------------------------------------------------------


# -- Hypothesis: random rule sets with jumpers --------------------------------------------
JUMP_MOVES = [
    "adjacent",
    "adjacent-orthogonal",
    "adjacent-diagonal",
    "orthogonal",
    "diagonal",
    "linear",
    "forward-orthogonal",
    "forward-diagonal",
    "adjacent-alquerque",
    "stationary",
    "adjacent-no-back",
    "adjacent-no-back-side",
    "orthogonal-no-back",
]


@st.composite
def jump_records(draw):
    dims = [draw(st.integers(1, 5)), draw(st.integers(1, 4)), draw(st.sampled_from([1, 1, 1, 2]))]
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    colours = ["black", "white", "pink"][: {"2": 2, "3": 3, "2-vs-chaos": 3}[players]]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    shapes = {}
    for s in names:
        move = draw(st.sampled_from(JUMP_MOVES))
        shapes[s] = {"move": move}
        how = draw(st.sampled_from(["none", CAN, MUST]))
        if how != "none":
            cond = draw(
                st.sampled_from(
                    [
                        "jump",
                        "chain-jump",
                        "chain-jump",
                        "surround-line",
                        "surround-orthogonal",
                        ADJ,
                        "approach",
                        "approach-one",
                    ]
                    if move != "stationary"
                    else ["cover", "surround-line", "surround-orthogonal", ADJ_ORTH]
                )
            )
            shapes[s].update(
                power=how,
                condition=cond,
                result=draw(
                    st.sampled_from(
                        ["removes", "reincarnates", "reincarnates-x2", "reincarnates-x3"]
                        + (["converts"] if cond != "cover" else [])
                    )
                ),
            )
    cells = [
        [x, y, z] for x in range(1, dims[0] + 1) for y in range(1, dims[1] + 1) for z in range(1, dims[2] + 1)
    ]
    pieces = draw_pieces(draw, cells, colours + ["yellow"], shapes, most=5)
    return {
        "name": "HJ",
        "board": {"kind": "squares", "size": dims, "pieces": pieces},
        "players": players,
        "reserves": {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours},
        "shapes": shapes,
        "move_limit": draw(st.integers(1, 30)),
        "pieces_per_turn": draw(st.sampled_from([1, 1, 2])),
        "turn_checks": draw(st.lists(st.sampled_from(["first-3-wins", "first-2-loses"]), max_size=1)),
        "stalemate": draw(st.sampled_from(["draws", "most-pieces-wins"])),
        "phases": draw(st.sampled_from([[{}], [{"pass": True}], [{"movement": "placement-only"}, {}]])),
    }


# -- Hypothesis: random stacks rule sets with jumpers -------------------------------------
STACK_JUMP_MOVES = [
    "adjacent",
    "adjacent-orthogonal",
    "adjacent-diagonal",
    "orthogonal",
    "diagonal",
    "linear",
    "forward-orthogonal",
    "forward-diagonal",
    "stationary",
    "orth-by-stack",  # jumps and surrounds carrying the riders
    "orth-by-full-stack",
]


@st.composite
def stack_jump_records(draw):
    dims = [draw(st.integers(1, 5)), draw(st.integers(1, 4)), draw(st.integers(2, 3))]
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    colours = ["black", "white", "pink"][: {"2": 2, "3": 3, "2-vs-chaos": 3}[players]]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    shapes = {}
    for s in names:
        move = draw(st.sampled_from(STACK_JUMP_MOVES))
        shapes[s] = {"move": move}
        how = draw(st.sampled_from(["none", CAN, MUST]))
        if how != "none":
            cond = draw(
                st.sampled_from(
                    [
                        "jump",
                        "chain-jump",
                        "chain-jump",
                        "cover",
                        "cover-by-rank",
                        "surround-line",
                        "surround-orthogonal",
                        ADJ,
                        "approach",
                        "approach-one",
                    ]
                    if move != "stationary"
                    else ["cover", "cover-by-rank", "surround-line", "surround-orthogonal", ADJ_ORTH]
                )
            )
            shapes[s].update(
                power=how,
                condition=cond,
                result=draw(
                    st.sampled_from(
                        ["removes", "reincarnates", "reincarnates-x2", "reincarnates-x3", "converts"]
                    )
                ),
            )
    columns = [[x, y] for x in range(1, dims[0] + 1) for y in range(1, dims[1] + 1)]
    pieces = []
    for x, y in draw(st.lists(st.sampled_from(columns), max_size=4, unique_by=tuple)):
        for z in range(1, draw(st.integers(1, dims[2])) + 1):
            pieces.append(
                {
                    "at": [x, y, z],
                    "colour": draw(st.sampled_from(colours + ["yellow"])),
                    "shape": draw(st.sampled_from(sorted(shapes))),
                }
            )
    return {
        "name": "HSJ",
        "board": {"kind": "stacks", "size": dims, "pieces": pieces},
        "players": players,
        "reserves": {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours},
        "shapes": shapes,
        "move_limit": draw(st.integers(1, 30)),
        "pieces_per_turn": draw(st.sampled_from([1, 1, 2])),
        "turn_checks": draw(st.lists(st.sampled_from(["first-3-wins", "first-2-loses"]), max_size=1)),
        "stalemate": draw(st.sampled_from(["draws", "most-pieces-wins"])),
        "phases": draw(st.sampled_from([[{}], [{"pass": True}], [{"movement": "placement-only"}, {}]])),
    }


# -- Hypothesis: random rule sets with "+ back" jumpers ----------------------------------
BACK_MOVES = [
    "adjacent",
    "adjacent-orthogonal",
    "adjacent-diagonal",
    "orthogonal",
    "diagonal",
    "linear",
    "forward-orthogonal",
    "forward-diagonal",
    "adjacent-alquerque",
]


@st.composite
def back_records(draw):
    kind = draw(st.sampled_from(["squares", "squares", "stacks"]))
    dims = [
        draw(st.integers(1, 5)),
        draw(st.integers(2, 5)),
        draw(st.sampled_from([1, 1, 2] if kind == "squares" else [2, 3])),
    ]
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    colours = ["black", "white", "pink"][: {"2": 2, "3": 3, "2-vs-chaos": 3}[players]]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    shapes = {}
    for i, s in enumerate(names):
        move = draw(
            st.sampled_from(
                BACK_MOVES if kind == "squares" else [m for m in BACK_MOVES if m != "adjacent-alquerque"]
            )
        )
        shapes[s] = {"move": move}
        if draw(st.booleans()):
            shapes[s]["cannot_move_backwards"] = True
        how = draw(st.sampled_from([CAN, MUST] if i == 0 else ["none", CAN, MUST]))
        if how != "none":
            cond = BACK if i == 0 else draw(st.sampled_from([BACK, "chain-jump", "jump"]))
            shapes[s].update(
                power=how,
                condition=cond,
                result=draw(
                    st.sampled_from(
                        ["removes", "reincarnates", "reincarnates-x2", "reincarnates-x3", "converts"]
                    )
                ),
            )
    cells = [[x, y, 1] for x in range(1, dims[0] + 1) for y in range(1, dims[1] + 1)]
    pieces = draw_pieces(draw, cells, colours + ["yellow"], shapes, most=6)
    return {
        "name": "HB",
        "board": {"kind": kind, "size": dims, "pieces": pieces},
        "players": players,
        "reserves": {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours},
        "shapes": shapes,
        "move_limit": draw(st.integers(1, 30)),
        "pieces_per_turn": draw(st.sampled_from([1, 1, 2])),
        "turn_checks": draw(st.lists(st.sampled_from(["first-3-wins", "first-2-loses"]), max_size=1)),
        "stalemate": draw(st.sampled_from(["draws", "most-pieces-wins"])),
        "phases": draw(st.sampled_from([[{}], [{"pass": True}], [{"movement": "placement-only"}, {}]])),
    }


@st.composite
def jump_round_records(draw):
    kind = draw(st.sampled_from(["squares", "squares", "stacks"]))
    dims = [
        draw(st.integers(2, 4)),
        draw(st.integers(2, 4)),
        1 if kind == "squares" else draw(st.integers(2, 3)),
    ]
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    colours = ["black", "white", "pink"][: {"2": 2, "3": 3, "2-vs-chaos": 3}[players]]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    shapes = {}
    for i, s in enumerate(names):
        move = draw(
            st.sampled_from(["adjacent", "orthogonal", "adjacent-diagonal", "forward-diagonal", "linear"])
        )
        shapes[s] = {"move": move}
        if draw(st.booleans()):
            shapes[s]["cannot_move_backwards"] = True
        how = draw(st.sampled_from([CAN, MUST] if i == 0 else ["none", CAN]))
        if how != "none":
            cond = draw(
                st.sampled_from(
                    ["jump", "chain-jump", BACK] if i == 0 else ["jump", "cover", "cover-by-rank"]
                )
            )
            results = ["removes", "reincarnates", "reincarnates-x2", "reincarnates-x3"]
            if cond not in ("cover", "cover-by-rank") or kind == "stacks":
                results.append("converts")
            shapes[s].update(power=how, condition=cond, result=draw(st.sampled_from(results)))
    cells = [[x, y, 1] for x in range(1, dims[0] + 1) for y in range(1, dims[1] + 1)]
    pieces = draw_pieces(draw, cells, colours + ["yellow"], shapes, most=5)
    order = draw(st.sampled_from(["simultaneous", "single"]))
    phases = draw(
        st.sampled_from(
            [
                [{"order": "simultaneous", "pass": True}],
                [{"order": order, "movement": "placement-only"}, {"order": "simultaneous", "pass": True}],
                [{"order": "simultaneous"}],
                # sequential phases mixed in: their jumps and chains are sequential ones
                [{"order": order, "movement": "placement-only"}, {}],
                [{}, {"order": order, "pass": True}],
                [{"order": "simultaneous"}, {"pass": True}, {"order": "single"}],
            ]
        )
    )
    return {
        "name": "JR",
        "board": {"kind": kind, "size": dims, "pieces": pieces},
        "players": players,
        "reserves": {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours},
        "shapes": shapes,
        "move_limit": draw(st.integers(2, 20)),
        "turn_checks": draw(
            st.lists(st.sampled_from(["first-3-wins", "goal-reached-stalemate"]), max_size=1)
        ),
        "stalemate": draw(st.sampled_from(["draws", "most-pieces-wins"])),
        "phases": phases,
    }


@st.composite
def stack_surround_round_records(draw):
    dims = [draw(st.integers(2, 4)), draw(st.integers(1, 3)), draw(st.integers(2, 3))]
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    colours = ["black", "white", "pink"][: {"2": 2, "3": 3, "2-vs-chaos": 3}[players]]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    shapes = {s: {"move": draw(st.sampled_from(["stationary", "adjacent", "orthogonal"]))} for s in names}
    shapes[names[0]].update(
        power=draw(st.sampled_from([CAN, MUST])),
        condition=draw(st.sampled_from(["surround-line", "surround-orthogonal", ADJ, ADJ_ORTH])),
        result=draw(st.sampled_from(["removes", "reincarnates", "converts"])),
    )
    for s in names[1:]:
        if draw(st.booleans()):
            shapes[s]["move"] = "orth-by-stack"
        elif draw(st.booleans()):
            shapes[s].update(
                power=CAN,
                condition=draw(st.sampled_from(["cover", "surround-line", "jump"])),
                result=draw(st.sampled_from(["removes", "reincarnates", "converts"])),
            )
            if shapes[s]["condition"] == "jump" and shapes[s]["move"] == "stationary":
                shapes[s]["move"] = "adjacent"
    order = draw(st.sampled_from(["simultaneous", "single"]))
    first = draw(
        st.sampled_from([{"order": order, "movement": "placement-only"}, {"order": order, "pass": True}])
    )
    return {
        "name": "SSR",
        "board": {"kind": "stacks", "size": dims},
        "players": players,
        "reserves": {c: {s: draw(st.integers(0, 3)) for s in shapes} for c in colours},
        "shapes": shapes,
        "move_limit": draw(st.integers(2, 16)),
        "turn_checks": draw(
            st.lists(st.sampled_from(["first-3-wins", "goal-reached-stalemate"]), max_size=1)
        ),
        "phases": draw(
            st.sampled_from(
                [
                    [first, {"order": "simultaneous", "pass": True}],
                    [first, {"order": "simultaneous", "pass": True}, {"pass": True}],
                ]
            )
        ),
    }


@st.composite
def surround_round_records(draw):
    dims = [draw(st.integers(2, 4)), draw(st.integers(2, 3)), 1]
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    colours = ["black", "white", "pink"][: {"2": 2, "3": 3, "2-vs-chaos": 3}[players]]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    shapes = {s: {"move": draw(st.sampled_from(["stationary", "adjacent", "orthogonal"]))} for s in names}
    shapes[names[0]].update(
        power=draw(st.sampled_from([CAN, "must-capture"])),
        condition=draw(
            st.sampled_from(
                ["surround-line", "surround-orthogonal", ADJ, ADJ_ORTH, "approach", "approach-one"]
            )
        ),
        result=draw(st.sampled_from(["removes", "reincarnates", "converts"])),
    )
    for s in names[1:]:
        if draw(st.booleans()):
            shapes[s].update(
                power=CAN,
                condition=draw(st.sampled_from(["cover", "surround-line", "surround-orthogonal"])),
                result=draw(st.sampled_from(["removes", "reincarnates"])),
            )
    order = draw(st.sampled_from(["simultaneous", "single"]))
    first = draw(
        st.sampled_from([{"order": order, "movement": "placement-only"}, {"order": order, "pass": True}])
    )
    return {
        "name": "SR",
        "board": {"kind": "squares", "size": dims},
        "players": players,
        "reserves": {c: {s: draw(st.integers(0, 3)) for s in shapes} for c in colours},
        "shapes": shapes,
        "move_limit": draw(st.integers(2, 16)),
        "turn_checks": draw(
            st.lists(st.sampled_from(["first-3-wins", "goal-reached-stalemate"]), max_size=1)
        ),
        "phases": [first, {"order": "simultaneous", "pass": True}, {"pass": True}],
    }


# -- pots ---------------------------------------------------------------------------------


@st.composite
def showdown_records(draw):
    dims = [draw(st.integers(1, 3)), draw(st.integers(1, 2)), draw(st.integers(2, 5))]
    players = draw(st.sampled_from(["2", "3", "4", "2-vs-chaos"]))
    colours = ["black", "white", "pink", "yellow"][: {"2": 2, "3": 3, "4": 4, "2-vs-chaos": 3}[players]]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    shapes = {}
    for s in names:
        shapes[s] = {"move": draw(st.sampled_from(["orth-by-stack", "orth-by-full-stack", "stationary"]))}
        if draw(st.booleans()):
            shapes[s].update(
                power=draw(st.sampled_from([CAN, CAN, MUST])),
                condition="cover",
                result=draw(
                    st.sampled_from(["converts", "reincarnates", "reincarnates-x2", "reincarnates-x3"])
                ),
            )
    cells = [[x, y, 1] for x in range(1, dims[0] + 1) for y in range(1, dims[1] + 1)]
    pieces = draw_pieces(draw, cells, colours + ["yellow"], shapes, most=3)
    return {
        "name": "PS",
        "board": {"kind": "stacks", "size": dims, "pieces": pieces},
        "players": players,
        "reserves": {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours},
        "shapes": shapes,
        "move_limit": draw(st.integers(1, 30)),
        "phases": draw(st.sampled_from([[{}], [{"pass": True}]])),
    }


TAKES = ["converts", "reincarnates", "reincarnates-x2", "reincarnates-x3"]


@st.composite
def captured_mover_records(draw, rounds=False):
    """A powerless by-stack shape, a stationary shape that captures and
    converts or reincarnates, and maybe a third (any move, any power)."""
    dims = [draw(st.integers(1, 3)), draw(st.integers(1, 2)), draw(st.integers(2, 5))]
    players = draw(st.sampled_from(["2", "3", "2-vs-chaos"]))
    colours = ["black", "white", "pink"][: {"2": 2, "3": 3, "2-vs-chaos": 3}[players]]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=2, max_size=3, unique=True))
    shapes = {
        names[0]: {"move": draw(st.sampled_from(["orth-by-stack", "orth-by-full-stack"]))},
        names[1]: power(
            draw(st.sampled_from(["cover", "cover-by-rank"])), draw(st.sampled_from(TAKES)), "stationary"
        ),
    }
    if len(names) > 2:
        shapes[names[2]] = {"move": draw(st.sampled_from(["orth-by-stack", "stationary", "adjacent"]))}
        if draw(st.booleans()):
            shapes[names[2]].update(
                power=draw(st.sampled_from([CAN, MUST])),
                condition="cover",
                result=draw(st.sampled_from(TAKES + ["removes"])),
            )
    cells = [[x, y, 1] for x in range(1, dims[0] + 1) for y in range(1, dims[1] + 1)]
    pieces = draw_pieces(draw, cells, colours + ["yellow"], shapes, most=3)
    phases = [[{}], [{"pass": True}]]
    if rounds:
        phases = [
            [{"order": "simultaneous", "pass": True}],
            [{"order": "single", "pass": True}, {"pass": True}],
        ]
    return {
        "name": "PG",
        "board": {"kind": "stacks", "size": dims, "pieces": pieces},
        "players": players,
        "reserves": {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours},
        "shapes": shapes,
        "move_limit": draw(st.integers(1, 30)),
        "phases": draw(st.sampled_from(phases)),
    }


@st.composite
def pot_round_records(draw):
    """Stationary shapes with powers on stacks, 3 or 4 colours, in rounds."""
    dims = [draw(st.integers(1, 3)), 1, draw(st.integers(2, 4))]
    players = draw(st.sampled_from(["3", "4", "3-vs-chaos"]))
    colours = ["black", "white", "pink", "yellow"][: {"3": 3, "4": 4, "3-vs-chaos": 4}[players]]
    names = draw(st.lists(st.sampled_from(SHAPES_ALL), min_size=1, max_size=3, unique=True))
    shapes = {}
    for s in names:
        shapes[s] = {}
        if draw(st.booleans()):
            shapes[s] = power(
                draw(st.sampled_from(["cover", "cover-by-rank"])),
                draw(
                    st.sampled_from(
                        ["converts", "reincarnates", "reincarnates-x2", "reincarnates-x3", "removes"]
                    )
                ),
            )
    cells = [[x, 1, z] for x in range(1, dims[0] + 1) for z in (1, 2)]
    at = sorted(
        draw(st.lists(st.sampled_from(cells), max_size=3, unique_by=tuple)), key=lambda a: (a[0], a[2])
    )
    at = [a for a in at if a[2] == 1 or [a[0], 1, 1] in at]  # no floating pieces
    pieces = [
        {"at": a, "colour": draw(st.sampled_from(colours)), "shape": draw(st.sampled_from(sorted(shapes)))}
        for a in at
    ]
    order = draw(st.sampled_from(["simultaneous", "single"]))
    return {
        "name": "HP",
        "board": {"kind": "stacks", "size": dims, "pieces": pieces},
        "players": players,
        "reserves": {c: {s: draw(st.integers(0, 2)) for s in shapes} for c in colours},
        "shapes": shapes,
        "move_limit": draw(st.integers(2, 16)),
        "turn_checks": draw(st.lists(st.sampled_from(["first-2-wins", "first-3-wins"]), max_size=1)),
        "phases": [{"order": order, "pass": draw(st.booleans())}, {"pass": True}],
    }

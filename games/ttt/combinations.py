"""Combinations of rule words: the ones played together under conditions,
and the ones refused rather than guessed, each with the reason
(docs/rules/ttt/refused.md).

Each ``check_...`` takes the record as validation has normalised it so far
and adds a problem ``field: why (allowed: ...)`` for every combination whose
meaning the rules pages do not define. Validation (games/ttt/validation.py)
calls them after every field is parsed, so the problems of a rule set are
listed at once.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.ttt.schema import (
    CASTLE_CHECK,
    CONDITIONS_APPROACH,
    CONDITIONS_CHAIN,
    CONDITIONS_JUMP,
    CONDITIONS_PARALYZING,
    CONDITIONS_SURROUND,
    DIAGONAL_EN_PASSANT,
    EN_PASSANT_CHECK,
    HEX_REFUSED_MOVES,
    LAST_PENTAGON_CHECK,
    LAST_ROW_STALEMATES,
    LEAP_MOVES,
    LINE_READING_DEFAULT,
    LINE_READINGS,
    MAX_MOVE_LIMIT,
    MOVES_BY_STACK,
    MOVES_NO_BACK,
    REINCARNATING,
    ROOK_MOVE,
    ROUND_PLIES_ALL,
    ROUND_PLIES_DEFAULT,
    allowed_text,
    can_move_backwards,
    castle_king,
    has_powers,
    is_int,
    may_split_pot,
    names_replacement,
    needs_goals,
    seats_of,
    shaped,
    slides,
)


def in_rounds(rec):
    """Whether a phase of the rule set is simultaneous or single."""
    return any(
        isinstance(ph, Mapping) and ph.get("order") in ("simultaneous", "single")
        for ph in rec.get("phases") or []
    )


def check_simultaneous(raw, rec, p):
    """Simultaneous and single phases with two pieces a turn
    (docs/rules/ttt/rounds.md, "Two pieces a turn"). The specification
    defines a plan by "what moves would be legal if that player were first to
    move"; ``round_plies`` says how a two-piece turn is planned:
    "planned-together" (the default: a plan of two plies, the second legal on
    the board as the seat's own first ply leaves it; the first plies resolve
    as a round, then the second plies, a second ply the first round made
    impossible moving nothing) or "round-by-round" (a turn is two rounds, each
    seat planning one ply a round). Planned together is not built with cloaked
    spaces (what a seat sees of its own first ply's attempt) nor with pots (a
    pot dealt between the two rounds). Put in the record only when not the
    default, so every other rule set's record is unchanged, and without two
    pieces a turn in rounds it is left out."""
    value = raw.get("round_plies", ROUND_PLIES_DEFAULT)
    if value not in ROUND_PLIES_ALL:
        p.add("round_plies", f"{value!r} is not allowed (allowed: {allowed_text(ROUND_PLIES_ALL)})")
        return
    if not (rec.get("pieces_per_turn") == 2 and in_rounds(rec)):
        return  # nothing to say how: kept out of the record (as line_moves without a line move)
    if value == "planned-together":
        hard = planned_pair_not_built(raw, rec)
        if hard:
            p.add(
                "round_plies",
                f"'planned-together' (the default with 2 pieces a turn and a simultaneous or single "
                f"phase) is not built with {hard} (allowed here: round-by-round)",
            )
            return
    if value != ROUND_PLIES_DEFAULT:
        rec["round_plies"] = value


def planned_pair_not_built(raw, rec):
    """What a rule set has that two plies planned together are not built
    with, or "": cloaked spaces (a first ply's attempt would have to be
    shown to its planner before its second ply) and pots (dealt between
    the two rounds)."""
    if any(isinstance(ph, Mapping) and ph.get("cloaked") for ph in rec.get("phases") or []):
        return "cloaked spaces"
    try:
        pots = may_split_pot({**rec, "shapes": raw.get("shapes") or {}, "board": raw.get("board") or {}})
    except (KeyError, TypeError, AttributeError):
        pots = False
    return "pots (a cover's pot would be dealt between the two rounds)" if pots else ""


def check_shapes(rec, p):
    """Combinations of shapes, moves and goals that the engine
    plays, and the ones it refuses rather than guesses (docs/rules/ttt/shapes.md,
    docs/rules/ttt/refused.md)."""
    shapes, players, size = rec.get("shapes") or {}, rec.get("players"), rec.get("board", {}).get("size")
    if not shapes or players is None or not isinstance(size, list) or not all(is_int(v) for v in size):
        return
    phases = rec.get("phases") or []
    if shaped(rec) and any(ph.get("order") in ("simultaneous", "single") for ph in phases):
        check_shaped_rounds(rec, p, shapes, phases)
    if needs_goals(rec):
        n, _ = seats_of(players)
        if size[1] == 1 and n > 2:
            p.add(
                "players",
                f"goal lines on a board one row deep (size y = 1) exist for two players only "
                f"(the specification's x=1 and its opposite; allowed with goals and players={players!r}: "
                "a board with size y > 1)",
            )
        forward_only = [s for s, props in shapes.items() if names_replacement(props)]
        if forward_only and not any(can_move_backwards(props) for props in shapes.values()):
            p.add(
                "shapes",
                "a shape cannot move backwards, but no shape can, so a piece reaching its goal "
                "has no replacement (the specification: 'any move that reaches the goal requires the "
                "player to also select a replacing shape that can move backwards'; allowed: add a "
                "shape that moves and may move backwards)",
            )


def check_stacks(rec, p):
    """Moves "by stack" and "by full stack" carry the pieces above
    the mover, so they need a stacks board (docs/rules/ttt/stacks.md)."""
    shapes = rec.get("shapes") or {}
    kind = (rec.get("board") or {}).get("kind")
    for shape, props in shapes.items():
        move = props.get("move")
        if move not in MOVES_BY_STACK:
            continue
        if kind is not None and kind != "stacks":
            p.add(
                f"shapes.{shape}.move",
                f"{move!r} carries the pieces above the mover, so it needs a stacks "
                f"board (the specification: 'If the board is “stacks”, [...] the others bring "
                f"all pieces above them along for the ride') (allowed with board.kind "
                f"{kind!r}: any move but {allowed_text(MOVES_BY_STACK)})",
            )
        # a power is played (the cover of the destination stack,
        # ranked by poker hands between by-rank pieces); jumps and surrounds
        # too, in sequential phases (check_jumps)


def check_board_kind(rec, p):
    """What the toroid and the hexagons do not define (docs/rules/ttt/boards.md,
    docs/rules/ttt/refused.md): goals on a toroid (its edges are joined, so
    no row is at an end), on hexagons the moves along diagonals or by a
    knight's leap (every neighbour shares an edge: there are no diagonals),
    and on a toroid smaller than 5 the leaps of two (a jump or a knight's
    leap would wrap onto another leap's space); on tetrakis squares goals,
    diagonals and knight's leaps (a triangle's neighbours share a side),
    jumps (two jumps share their start and landing) and approach."""
    board = rec.get("board") or {}
    kind, size = board.get("kind"), board.get("size")
    shapes = rec.get("shapes") or {}
    if kind == "toroid" and shapes and rec.get("players") is not None and needs_goals(rec):
        p.add(
            "board.kind",
            "goals are not defined on a toroid: the specification's goals are edges ('Player1 Goal "
            "is always at y=max'), and a toroid joins y=max to y=1, so no move is forward and no row "
            "is an end (allowed with board.kind 'toroid': shapes that may move backwards, no "
            "'goal-reached' check)",
        )
    if kind == "tetrakis" and shapes and rec.get("players") is not None and needs_goals(rec):
        p.add(
            "board.kind",
            "goals are not defined on tetrakis squares: a goal is an edge of the box and forward a step "
            "along y, and a step along a tetrakis line moves between a square's triangles as often as "
            "across squares (allowed with board.kind 'tetrakis': shapes that may move backwards, no "
            "'goal-reached' check)",
        )
    for shape, props in shapes.items():
        move = props.get("move")
        jumps = props.get("power", "none") != "none" and props.get("condition") in CONDITIONS_JUMP
        if kind == "tetrakis" and move in HEX_REFUSED_MOVES:
            p.add(
                f"shapes.{shape}.move",
                f"{move!r} is not defined on tetrakis squares: a triangle's neighbours are the three "
                "sharing a side with it, so there are no diagonals and no knight's leap (allowed with "
                "board.kind 'tetrakis': stationary, adjacent, adjacent-orthogonal, orthogonal, linear)",
            )
        if kind == "hexagons" and move in HEX_REFUSED_MOVES:
            p.add(
                f"shapes.{shape}.move",
                f"{move!r} is not defined on hexagons: every one of a hexagon's six neighbours shares "
                "an edge with it, so there are no diagonals and no knight's leap "
                "of 2 and 1 along two axes (allowed with board.kind 'hexagons': stationary, adjacent, "
                "adjacent-orthogonal, orthogonal, linear, forward-orthogonal)",
            )
        if kind == "hexagons" and move in MOVES_NO_BACK:
            p.add(
                f"shapes.{shape}.move",
                f"{move!r} is not defined on hexagons: its back, sides and centre are read along the "
                "square grid's axes and diagonals, which a hex grid does not have (allowed with "
                "board.kind 'hexagons': stationary, adjacent, adjacent-orthogonal, orthogonal, linear, "
                "forward-orthogonal)",
            )
        if (
            kind == "toroid"
            and props.get("power", "none") != "none"
            and props.get("condition") in CONDITIONS_APPROACH
        ):
            p.add(
                f"shapes.{shape}.condition",
                f"{props['condition']!r} is not defined on a toroid: it captures along the line of the "
                "move away from where the move started, and a wrapping line comes back to that start "
                "(allowed with board.kind 'toroid': any other condition)",
            )
        if kind == "tetrakis" and jumps:
            p.add(
                f"shapes.{shape}.condition",
                f"condition {props['condition']!r} is not defined on tetrakis squares: a jump from a "
                "square's W triangle over N lands on its E triangle, and so does the jump over S, so "
                "two jumps would be one action (allowed with board.kind 'tetrakis': any condition "
                "but jumps)",
            )
        if (
            kind == "tetrakis"
            and props.get("power", "none") != "none"
            and props.get("condition") == "approach"
        ):
            p.add(
                f"shapes.{shape}.condition",
                "'approach' is not defined on tetrakis squares: it captures along the line of the move, "
                "and a step from one triangle to the next lies on two tetrakis lines, so the move "
                "does not name one (allowed with board.kind 'tetrakis': any other condition)",
            )
        small = isinstance(size, list) and all(is_int(v) for v in size) and min(size[:2]) < 5
        if kind == "toroid" and small and (move in LEAP_MOVES or jumps):
            what = f"condition {props['condition']!r}" if jumps else f"move {move!r}"
            p.add(
                f"shapes.{shape}.condition" if jumps else f"shapes.{shape}.move",
                f"{what} leaps two spaces, which on a toroid of size {size[0]} by {size[1]} wraps onto "
                "a space one step away or onto another leap's space, so two leaps would be one action "
                "(allowed: a toroid with x and y at least 5, or a move that does not leap)",
            )


def check_shaped_rounds(rec, p, shapes, phases):
    """Shapes in simultaneous or single phases: a plan names its shape, and
    collisions resolve by rank; shapes move in rounds too (a plan is a
    move's action id: plain, with a goal replacement, or by stack), by-stack
    moves with shapes that capture and "Stalemate if goal is reached"
    included. Refused rather than guessed: by-stack moves with cloaked
    spaces (every other shape and move is played with them), and a pot
    split inside a round with cloaked spaces."""
    # "Stalemate if goal is reached" is played in rounds (after
    # the round's turn checks, when a plan's piece reached its goal and stayed):
    # docs/rules/ttt/rounds.md, "Goals reached inside rounds"
    # by-stack moves with shapes that capture are played in
    # rounds (a lone by-stack plan covers as a sequential by-stack move does;
    # collisions rank by class, then the players' hands): docs/rules/ttt/rounds.md,
    # "By-stack covers inside rounds"
    # every shape, and shapes that move (goal replacements
    # included), are played with cloaked spaces in rounds (docs/rules/ttt/cloaking.md,
    # "Shapes and moving shapes in cloaked rounds"); moves by stack are not
    # (what a carried stack shows each seat on landing is not built yet)
    if (
        rec.get("cloaking") in ("hides", "obscures")
        and any(ph.get("cloaked") for ph in phases)
        and any(props["move"] in ("orth-by-stack", "orth-by-full-stack") for props in shapes.values())
    ):
        p.add(
            "cloaking",
            "shapes that move by stack (orth-by-stack, orth-by-full-stack) are not supported "
            "with cloaked spaces in a simultaneous or single phase yet (allowed with such a "
            "phase and cloaked spaces: any shape with any other move)",
        )
    # pot splits inside rounds are played (a chance node per pot
    # after the joint action); only with cloaked spaces, whose views of a
    # round the deal would have to extend, are they still refused
    if (
        may_split_pot(rec)
        and rec.get("cloaking") in ("hides", "obscures")
        and any(ph.get("cloaked") for ph in phases)
    ):
        p.add(
            "shapes",
            "a pot split among captors (stacks, a converting or reincarnating shape, three or "
            "more colours) is not supported with cloaked spaces in a simultaneous or single "
            "phase yet (allowed with such a phase and cloaked spaces: results that remove, or "
            "two colours)",
        )


def check_captures(rec, p):
    """Combinations with captures the engine refuses rather than guesses
    (docs/rules/ttt/refused.md)."""
    shapes = rec.get("shapes") or {}
    if not shapes or not has_powers(rec):
        return
    phases = rec.get("phases") or []
    if rec.get("cloaking") in ("hides", "obscures") and any(ph.get("cloaked") for ph in phases):
        check_cloaked_captures(rec, p, shapes, phases)
    refills = any(props.get("result") in REINCARNATING for props in shapes.values())
    if refills and rec.get("move_limit") is None:
        p.add(
            "move_limit",
            "required when captives reincarnate (reincarnation refills the reserves, so "
            f"the game may never end; OpenSpiel needs a finite game) (allowed: 1..{MAX_MOVE_LIMIT})",
        )


def check_cloaked_captures(rec, p, shapes, phases):
    """Captures with cloaked spaces are played on flat boards,
    with captives removed or reincarnated (the reserve a reincarnation fills
    is public, and the cover's event says so), under invisibility and
    obscurity, in sequential phases (docs/rules/ttt/cloaking.md, "Captures
    with cloaked spaces"); jumps and surrounds too ("Jumps and surrounds with
    cloaked spaces"); covers on stacks too ("Captures on stacks with cloaked
    spaces": the true stack judges, each seat reads how the columns it sees
    changed); covers in simultaneous and single phases too ("Covers in
    cloaked rounds": judged on the true board of the round's start, each seat
    reads how the round changed what it sees). Refused rather than guessed:
    on stacks, jumps and surrounds, by-stack moves and pot splits (their
    views are not built); jumps and surrounds inside a simultaneous or single
    phase. Chain jumps are played where jumps are: the continuation is offered
    by the mover's view ("Chain jumps with cloaked spaces")."""
    if (rec.get("board") or {}).get("kind") == "stacks":
        check_cloaked_stack_captures(rec, p, shapes)
    if any(isinstance(ph, Mapping) and ph.get("order") in ("simultaneous", "single") for ph in phases):
        # covers are played in cloaked rounds (docs/rules/ttt/cloaking.md, "Covers in
        # cloaked rounds"); jumps and surrounds there are not
        for shape, props in shapes.items():
            condition = props.get("condition")
            if props.get("power", "none") != "none" and condition in CONDITIONS_JUMP + CONDITIONS_SURROUND:
                p.add(
                    f"shapes.{shape}.condition",
                    f"{condition!r} with cloaked spaces is not supported in a simultaneous or "
                    "single phase yet (what each seat sees of a jump or surround judged in a "
                    "round is not built; allowed there with cloaked spaces: cover, cover-by-rank)",
                )


def check_cloaked_stack_captures(rec, p, shapes):
    """Captures on stacks with cloaked spaces: covers are played (docs/rules/ttt/cloaking.md,
    "Captures on stacks with cloaked spaces"); jumps and surrounds on stacks,
    by-stack moves and pot splits among captors of several colours are not
    built with cloaked spaces."""
    for shape, props in shapes.items():
        condition = props.get("condition")
        if props.get("power", "none") != "none" and condition not in ("cover", "cover-by-rank"):
            p.add(
                f"shapes.{shape}.condition",
                f"{condition!r} on stacks with cloaked spaces is not supported yet (what each seat "
                "sees of a jump or surround on a partly hidden stack is not built; allowed on stacks "
                "with cloaked spaces: cover, cover-by-rank)",
            )
        if props.get("move") in MOVES_BY_STACK:
            p.add(
                f"shapes.{shape}.move",
                f"{props['move']!r} with captures and cloaked spaces is not supported yet (a by-stack "
                "cover's poker hands would be judged on pieces the mover does not see; allowed with "
                f"captures on stacks and cloaked spaces: any move but {allowed_text(MOVES_BY_STACK)})",
            )
    if may_split_pot(rec):
        p.add(
            "shapes",
            "a pot split among captors of several colours (stacks, a converting or reincarnating "
            "shape, three or more colours) is not supported with cloaked spaces yet (what each seat "
            "sees of the deal is not built; allowed with captures on stacks and cloaked spaces: "
            "results that remove, or two colours)",
        )


def check_triagonal(rec, p):
    """ "Move on triagonal" (docs/rules/ttt/captures.md, "Move on triagonal"):
    one step along a 3-D triagonal onto the captive, so it needs a flat
    board with more than one layer (on stacks height is ignored) and a shape
    that moves; the captor takes the captive's space, so, as a cover on a
    flat board, its result removes or reincarnates. In rounds it is a plan
    landing as a cover does. Not built yet: with cloaked spaces."""
    board = rec.get("board") or {}
    size = board.get("size")
    for shape, props in (rec.get("shapes") or {}).items():
        if props.get("power", "none") == "none" or props.get("condition") != "move-on-triagonal":
            continue
        field = f"shapes.{shape}.condition"
        why = []
        if board.get("kind") in ("stacks", "tetrakis") or (
            isinstance(size, list) and len(size) == 3 and size[2] == 1
        ):
            why.append(
                "a board that is not stacks with size z > 1 (a triagonal steps along x, y and z; "
                "tetrakis squares are a plane, their z a square's triangle)"
            )
        if props.get("move") == "stationary":
            why.append("a shape that moves (a stationary shape never steps onto a captive)")
        if props.get("result") == "converts":
            why.append(
                "result removes, reincarnates or reincarnates-x2 (the captor takes the captive's space)"
            )
        if rec.get("cloaking", "none") != "none" and any(ph.get("cloaked") for ph in rec.get("phases") or []):
            why.append("no cloaked spaces (not built with them yet)")
        if why:
            p.add(field, "'move-on-triagonal' needs " + "; ".join(why))


def check_paralyzes(rec, p):
    """ "Paralyzes captive(s)" (docs/rules/ttt/captures.md, "Paralyzes
    captive(s)"): the captive stays on its space in its colour, so a captor
    that takes the captive's space (a cover, cover by rank, a triagonal
    step) cannot paralyze on a flat board, as the specification clears every
    result but Remove and Reincarnate for a cover on non-stacks. In rounds
    it is judged with the round's surrounds. Not built yet: jumps, stacks,
    cloaked spaces."""
    for shape, props in (rec.get("shapes") or {}).items():
        if props.get("power", "none") == "none" or props.get("result") != "paralyzes":
            continue
        why = []
        cond = props.get("condition")
        if cond in ("cover", "cover-by-rank", "move-on-triagonal"):
            why.append(
                f"a captor that lands next to its captives ({cond!r} takes the captive's space, and "
                "the specification: “If a “Cover” condition is selected on non-stacks, then clear "
                "all results except Remove and Reincarnate”)"
            )
        elif cond not in CONDITIONS_PARALYZING:
            why.append(f"a condition other than {cond!r} (paralyzing jumps are not built yet)")
        others = sorted(
            name
            for name, q in (rec.get("shapes") or {}).items()
            if q.get("power", "none") != "none" and q.get("condition") not in CONDITIONS_PARALYZING
        )
        if others and cond in CONDITIONS_PARALYZING:
            why.append(
                f"no other shape capturing by cover, jump or triagonal step ({', '.join(others)}: "
                "capturing a paralysed piece so is not built yet)"
            )
        if (rec.get("board") or {}).get("kind") == "stacks":
            why.append("a board that is not stacks (not built on stacks yet)")
        if rec.get("cloaking", "none") != "none" and any(ph.get("cloaked") for ph in rec.get("phases") or []):
            why.append("no cloaked spaces (not built with them yet)")
        if why:
            p.add(
                f"shapes.{shape}.result",
                "'paralyzes' needs "
                + "; ".join(why)
                + f" (allowed with it: {', '.join(CONDITIONS_PARALYZING)})",
            )


def _en_passant_not_built(rec) -> list[str]:
    """What the pawn's diagonal capture and en passant are not built with yet:
    stacks (height is ignored there), rounds, cloaked spaces. On several
    boards each board's pawns step and capture on their own board."""
    why = []
    if (rec.get("board") or {}).get("kind") == "stacks":
        why.append("a flat board (not built on stacks yet)")
    if in_rounds(rec):
        why.append("sequential phases only (not built in rounds yet)")
    if rec.get("cloaking", "none") != "none" and any(ph.get("cloaked") for ph in rec.get("phases") or []):
        why.append("no cloaked spaces (not built with them yet)")
    return why


def check_en_passant(rec, p):
    """ "Move on diag + en passe" (docs/rules/ttt/captures.md) and the turn
    check "En passant" (docs/rules/ttt/turns.md): the diagonal capture needs
    a shape that moves, and, the captor taking the captive's space, a result
    that removes or reincarnates; en passant needs a pawn
    (``pawn-forward-center``) to make the double step. Both are played on
    several boards and beside shapes capturing by surrounding, adjacency or
    approach (each capture its own shape's); neither is built yet on
    stacks, in rounds or with cloaked spaces."""
    shapes = rec.get("shapes") or {}
    for shape, props in shapes.items():
        if props.get("power", "none") == "none" or props.get("condition") != DIAGONAL_EN_PASSANT:
            continue
        why = _en_passant_not_built(rec)
        if props.get("move") == "stationary":
            why.append("a shape that moves (a stationary shape never steps onto a captive)")
        if props.get("result") == "converts":
            why.append(
                "result removes, reincarnates or reincarnates-x2 (the captor takes the captive's space)"
            )
        if why:
            p.add(f"shapes.{shape}.condition", f"{DIAGONAL_EN_PASSANT!r} needs " + "; ".join(why))
    if EN_PASSANT_CHECK not in (rec.get("turn_checks") or []):
        return
    why = _en_passant_not_built(rec)
    pawns = [props for props in shapes.values() if props.get("move") == "pawn-forward-center"]
    if not pawns:
        why.append("a shape with the move 'pawn-forward-center' (the pawn whose double step is taken)")
    if any(q.get("power", "none") != "none" and q.get("condition") in CONDITIONS_JUMP for q in pawns):
        why.append("pawns that do not jump (a jump of two rows and the double step would be one action)")
    if why:
        p.add("turn_checks", f"{EN_PASSANT_CHECK!r} needs " + "; ".join(why))


def check_castle(rec, p):
    """ "Castle" (docs/rules/ttt/turns.md, "Castle"): it needs a rook (a
    shape whose move is ``rook-orthogonal-castle``) and a king (the
    highest-ranked shape whose move is ``adjacent``) that does not jump (its
    jump of two spaces and the castle would be one action). On hexagons the
    row runs along the axis across the goals'; on several boards each
    board's pair castles on its own board; with a deck a dealt piece is
    placed from a reserve, so it has not moved. On a toroid and tetrakis
    squares the goals it needs are refused (check_board_kind). Not built
    yet on stacks, in rounds, with cloaked spaces, nor beside the
    surrounding captures."""
    if CASTLE_CHECK not in (rec.get("turn_checks") or []):
        return
    shapes = rec.get("shapes") or {}
    why = []
    kind = (rec.get("board") or {}).get("kind")
    if kind == "stacks":
        why.append("a board of kind 'squares' or 'hexagons' (not built on stacks yet)")
    if in_rounds(rec):
        why.append("sequential phases only (not built in rounds yet)")
    if rec.get("cloaking", "none") != "none" and any(ph.get("cloaked") for ph in rec.get("phases") or []):
        why.append("no cloaked spaces (what a seat may know of the pieces that moved is not built yet)")
    if not any(props.get("move") == ROOK_MOVE for props in shapes.values()):
        why.append(f"a shape with the move {ROOK_MOVE!r} (the rook)")
    king = castle_king({"shapes": shapes})
    if king is None:
        why.append("a shape with the move 'adjacent' (the king: the highest-ranked such shape)")
    elif shapes[king].get("power", "none") != "none" and shapes[king].get("condition") in CONDITIONS_JUMP:
        why.append(
            f"a king ({king}) that does not jump (its jump of two spaces and the castle would be one action)"
        )
    powers = [q for q in shapes.values() if q.get("power", "none") != "none"]
    if any(q.get("condition") in CONDITIONS_SURROUND for q in powers):
        why.append("no shape capturing by surrounding, adjacency or approach (not built together yet)")
    if why:
        p.add("turn_checks", f"{CASTLE_CHECK!r} needs " + "; ".join(why))


def check_line_moves(raw, rec, p):
    """``line_moves`` (docs/rules/ttt/shapes.md, "Pieces in the way"): whether a
    piece on the line stops a line move or is passed over. Put in the record
    only when a shape moves along lines and the value is not the default, so
    every other rule set's record (and fingerprint) is unchanged. Blocking
    is played with cloaked spaces: a move stopped by a piece the mover does
    not see is an attempt that reveals every piece in its way
    (docs/rules/ttt/cloaking.md, "Line moves blocked by hidden pieces")."""
    value = raw.get("line_moves", LINE_READING_DEFAULT)
    if value not in LINE_READINGS:
        p.add("line_moves", f"{value!r} is not allowed (allowed: {allowed_text(LINE_READINGS)})")
        return
    if not slides(rec):
        return
    if value != LINE_READING_DEFAULT:
        rec["line_moves"] = value


def check_hidden_turns(raw, rec, p):
    """``cloaking_hides_turns`` (docs/rules/ttt/cloaking.md, "Hidden turns"):
    another seat's turn that a player sees nothing of leaves no trace in its
    information state, and other colours' reserves are not shown. Put in the
    record only when true, so every other rule set's record is unchanged.
    Allowed where its views are built and tested: invisibility with a cloaked
    space, sequential phases, one piece per turn, stationary shapes without
    powers (a hidden placement's shape is hidden with its piece, and other
    colours' per-shape reserves are not shown); refused elsewhere rather than
    guessed (a round's plans, a turn's second piece, a moved piece or a
    capture would each need their own trace rule)."""
    value = raw.get("cloaking_hides_turns", False)
    if not isinstance(value, bool):
        p.add("cloaking_hides_turns", f"{value!r} is not allowed (allowed: true, false)")
        return
    if not value:
        return
    rec["cloaking_hides_turns"] = True
    phases = rec.get("phases") or []
    why = []
    if rec.get("cloaking") != "hides" or not any(ph.get("cloaked") for ph in phases):
        why.append("cloaking 'hides' with a cloaked space (without hidden pieces no turn is hidden)")
    if any(ph.get("order", "sequential") != "sequential" for ph in phases):
        why.append("sequential phases only (a round's plans are hidden by the round already)")
    if rec.get("pieces_per_turn", 1) != 1:
        why.append("one piece per turn (the pieces left in a turn would count the hidden ones)")
    shapes = rec.get("shapes") or {}
    if any(
        props.get("move", "stationary") != "stationary" or props.get("power", "none") != "none"
        for props in shapes.values()
    ):
        why.append("stationary shapes without powers (hidden moves and captures have no trace rule yet)")
    if why:
        p.add(
            "cloaking_hides_turns",
            "not supported with this rule set yet (allowed with: " + "; ".join(why) + ")",
        )


def check_hidden_walls(raw, rec, p):
    """``cloaking_hides_walls`` (docs/rules/ttt/cloaking.md, "Invisible
    walls"): "If what makes a move illegal is a wall or piece that is
    invisible to the player, then the player can attempt the move, but the
    result will be only to make the invisible piece or wall visible." A
    space locked for every player (the board's or a phase's locked spaces)
    and cloaked is a wall a player sees only once it has. Put in the record
    only when true, so every other rule set's record is unchanged. Needs
    invisibility ("Cloaking hides"; obscurity hides only shapes) and a
    locked space cloaked in some phase. Allowed where its views are built and
    tested: flat boards (one board or several), sequential phases, no surrounds (a
    surround reads the board's locked spaces as walls apart from the
    phase's); refused elsewhere rather than guessed."""
    value = raw.get("cloaking_hides_walls", False)
    if not isinstance(value, bool):
        p.add("cloaking_hides_walls", f"{value!r} is not allowed (allowed: true, false)")
        return
    if not value:
        return
    rec["cloaking_hides_walls"] = True
    phases = rec.get("phases") or []
    board = rec.get("board") or {}
    board_locked = [tuple(a) for a in board.get("locked") or []]
    why = []
    if rec.get("cloaking") != "hides":
        why.append("cloaking 'hides' (obscurity hides shapes, never walls)")
    if not any(
        {tuple(a) for a in ph.get("cloaked") or []}
        & ({tuple(a) for a in ph.get("locked") or []} | set(board_locked))
        for ph in phases
    ):
        why.append(
            "a locked space (board or phase) that is cloaked in the same phase (else no wall is hidden)"
        )
    if board.get("kind") == "stacks":
        why.append("flat boards (a wall in a stack would hide its height)")
    if any(ph.get("order", "sequential") != "sequential" for ph in phases):
        why.append("sequential phases only")
    shapes = rec.get("shapes") or {}
    if any(
        props.get("power", "none") != "none" and props.get("condition") in CONDITIONS_SURROUND
        for props in shapes.values()
    ):
        why.append("no surrounds (a surround reads the board's locked spaces apart)")
    if why:
        p.add(
            "cloaking_hides_walls",
            "not supported with this rule set (allowed with: " + "; ".join(why) + ")",
        )


def check_jumps(rec, p):
    """Jumps ("Jump", "Chain Jump") need a shape that moves along directions (a
    jump goes over the adjacent piece along one of its move's directions);
    a by-stack mover jumps and surrounds, carrying its riders, in sequential
    phases (its chains and its captures in rounds are not built); jumps are
    played in every mix of sequential phases and rounds
    (docs/rules/ttt/jumps.md, docs/rules/ttt/surround.md,
    docs/rules/ttt/rounds.md)."""
    for shape, props in (rec.get("shapes") or {}).items():
        if props.get("power", "none") == "none" or props.get("condition") not in CONDITIONS_JUMP:
            continue
        cond, move = props["condition"], props.get("move")
        field = f"shapes.{shape}.condition"
        if move == "stationary":
            p.add(
                field,
                f"{cond!r} needs a shape that moves: a stationary shape cannot jump (allowed with "
                "move 'stationary': cover, cover-by-rank)",
            )
        elif move in ("knight-2x1x0", "knight-2x1x1"):
            p.add(
                field,
                f"{cond!r} jumps over the adjacent piece along one of the move's directions, and "
                f"{move!r} has none (allowed with {move!r}: cover, cover-by-rank)",
            )
        elif move in MOVES_BY_STACK and cond in CONDITIONS_CHAIN:
            p.add(
                field,
                f"{cond!r} with move {move!r} is not supported yet: a by-stack mover jumps once a "
                "move (its riders along), and a chain's continuation by a mover under other pieces is "
                f"not built (allowed with {move!r}: jump, cover, cover-by-rank, the surrounds)",
            )
        elif move in MOVES_BY_STACK and in_rounds(rec):
            p.add(
                field,
                f"{cond!r} with move {move!r} in a simultaneous or single phase is not supported yet "
                "(a by-stack jump is played in sequential phases; allowed with a by-stack move in "
                "rounds: cover, cover-by-rank)",
            )
        # jumps are played in every mix of phases: a sequential
        # phase's jumps and chains as in docs/rules/ttt/jumps.md, a round's as
        # in docs/rules/ttt/rounds.md, "Jumps inside rounds"
    for shape, props in (rec.get("shapes") or {}).items():
        if props.get("power", "none") == "none" or props.get("condition") not in CONDITIONS_SURROUND:
            continue
        field = f"shapes.{shape}.condition"
        lineless = ("stationary", "knight-2x1x0", "knight-2x1x1")
        if props["condition"] in CONDITIONS_APPROACH and props.get("move") in lineless:
            p.add(
                field,
                f"{props['condition']!r} captures by moving along a line toward the captives, and move "
                f"{props['move']!r} has none (allowed with {props['move']!r}: cover, cover-by-rank, "
                "the surrounds, adjacent, adjacent-orthogonal)",
            )
        if props.get("move") in MOVES_BY_STACK and in_rounds(rec):
            p.add(
                field,
                f"{props['condition']!r} with move {props['move']!r} in a simultaneous or single phase "
                "is not supported yet (a by-stack surround is played in sequential phases; allowed with "
                "a by-stack move in rounds: cover, cover-by-rank)",
            )
        # surrounds in simultaneous and single phases are played on
        # flat boards (judged once every plan has landed): docs/rules/ttt/rounds.md,
        # "Surrounds inside rounds"; on stacks too (read on the
        # stacks' tops once every plan has landed)


def check_last_pentagon(rec, p):
    """ "Last pentagon wins" (docs/rules/ttt/turns.md, "Last pentagon wins")
    needs pentagons of two colours or more at the start (else it would hold
    at once, or never). In rounds the check runs once, after the round
    resolved, after the round's line checks, so with overachievers
    disqualified the set it names comes after the round's line winners, as
    in a ply. Refused rather than guessed: several boards (a turn check
    decides one board, but pentagons in reserve belong to none)."""
    if LAST_PENTAGON_CHECK not in (rec.get("turn_checks") or []):
        return
    shapes = rec.get("shapes") or {}
    pieces = (rec.get("board") or {}).get("pieces") or []
    if "pentagon" not in shapes:
        p.add(
            "turn_checks",
            f"{LAST_PENTAGON_CHECK!r} needs the pentagon among the shapes (allowed: a 'pentagon' "
            "entry in shapes, with pentagons of two colours or more)",
        )
        return
    colours = {
        c for c, r in (rec.get("reserves") or {}).items() if isinstance(r, Mapping) and r.get("pentagon")
    }
    colours |= {q.get("colour") for q in pieces if isinstance(q, Mapping) and q.get("shape") == "pentagon"}
    if len(colours) < 2:
        p.add(
            "turn_checks",
            f"{LAST_PENTAGON_CHECK!r} needs pentagons of two colours or more at the start, in reserves "
            f"or on the board (it has {len(colours)}: the check would hold at once or never)",
        )
    if rec.get("boards", 1) not in (1, None):
        p.add(
            "turn_checks",
            f"{LAST_PENTAGON_CHECK!r} with several boards is not supported by this engine (a turn check "
            "decides one board, and pentagons in reserve belong to none) (allowed: boards 1)",
        )


def check_last_row(rec, p):
    """ "Last K-same-color-in-a-row wins" (docs/rules/ttt/outcomes.md, "Last
    K-in-a-row wins") remembers the side whose ply made the last K-line;
    refused rather than guessed with simultaneous or single phases (not built:
    lines made in one round by several sides have no last one)."""
    if rec.get("stalemate") not in LAST_ROW_STALEMATES:
        return
    if any(ph.get("order", "sequential") != "sequential" for ph in rec.get("phases") or []):
        p.add(
            "stalemate",
            f"{rec['stalemate']!r} with a simultaneous or single phase is not supported by this engine "
            "yet (lines made in one round by several sides have no last one) (allowed: sequential phases)",
        )

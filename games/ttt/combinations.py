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
    CONDITIONS_JUMP,
    CONDITIONS_SURROUND,
    LINE_READING_DEFAULT,
    LINE_READINGS,
    MAX_MOVE_LIMIT,
    MOVES_BY_STACK,
    REINCARNATING,
    allowed_text,
    can_move_backwards,
    has_powers,
    is_int,
    may_split_pot,
    needs_goals,
    seats_of,
    shaped,
    slides,
)


def check_simultaneous(rec, p):
    """Simultaneous and single phases: a plan is one ply. The specification
    defines a plan by "what moves would be legal if that player were first to
    move", which names one move; two plies a turn would need an order inside
    the plan that the specification does not give (docs/rules/ttt/rounds.md)."""
    phases = rec.get("phases") or []
    if rec.get("pieces_per_turn") == 2 and any(
        isinstance(ph, Mapping) and ph.get("order") in ("simultaneous", "single") for ph in phases
    ):
        p.add(
            "pieces_per_turn",
            "2 pieces a turn cannot be combined with a simultaneous or single "
            "phase (a plan is one move) (allowed with such a phase: 1)",
        )


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
        forward_only = [
            s
            for s, props in shapes.items()
            if props["move"] != "stationary" and not can_move_backwards(props)
        ]
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
        # are refused on stacks by check_jumps


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
    with cloaked spaces"); jumps and surrounds too ("Jumps and surrounds with cloaked spaces").
    Refused rather than guessed: stacks (a cover's defenders are the whole
    stack, partly hidden) and captures inside a simultaneous or single phase
    (a round would judge covers on hidden pieces in another order)."""
    kind = (rec.get("board") or {}).get("kind")
    if kind == "stacks":
        p.add(
            "board.kind",
            "captures with cloaked spaces are not supported on stacks yet (a cover's "
            "defenders are the whole stack, partly hidden; allowed with a shape that has a "
            "power and cloaked spaces: squares, vertices, hash)",
        )
    # chain jumps are played too: the continuation is offered by the mover's
    # view ("Chain jumps with cloaked spaces", docs/rules/ttt/cloaking.md)
    if any(isinstance(ph, Mapping) and ph.get("order") in ("simultaneous", "single") for ph in phases):
        p.add(
            "cloaking",
            "captures with cloaked spaces are not supported with a simultaneous or single "
            "phase yet (allowed with a shape that has a power and cloaked spaces: sequential "
            "phases)",
        )


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
    space, sequential phases, one piece per turn, stationary circles; refused
    elsewhere rather than guessed (a round's plans, a turn's second piece, a
    moved or shaped piece would each need their own trace rule)."""
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
    if set(shapes) - {"circle"} or any(
        props.get("move", "stationary") != "stationary" for props in shapes.values()
    ):
        why.append("stationary circles only (hidden moves and shapes have no trace rule yet)")
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
    tested: flat boards, one board, sequential phases, no surrounds (a
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
    if rec.get("boards", 1) != 1:
        why.append("one board")
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
    jump goes over the adjacent piece along one of its move's directions),
    not by stack (on stacks a jump goes over the top of the adjacent stack),
    and a rule set whose phases are all sequential or all rounds; the
    surrounds need, on stacks, a shape that moves from the top (in rounds
    too, on flat boards and on stacks) (docs/rules/ttt/jumps.md,
    docs/rules/ttt/surround.md, docs/rules/ttt/rounds.md)."""
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
        elif move in ("orth-by-stack", "orth-by-full-stack"):
            p.add(
                field,
                f"{cond!r} with move {move!r} is not defined: a by-stack mover carries the pieces "
                "above it and covers the stack it lands on, and the specification gives no jump that carries "
                "a stack (jumps on stacks are by pieces that move from the top; allowed with "
                f"{move!r}: cover, cover-by-rank)",
            )
        # jumps in rounds are played when every phase is a
        # round (docs/rules/ttt/rounds.md, "Jumps inside rounds"); a rule set mixing
        # sequential phases with rounds is not built for jumps yet
        orders = {
            ph.get("order", "sequential") if isinstance(ph, Mapping) else "sequential"
            for ph in rec.get("phases") or [{}]
        }
        if orders & {"simultaneous", "single"} and "sequential" in orders:
            p.add(
                field,
                f"{cond!r} is not supported in a rule set that mixes sequential phases with "
                "simultaneous or single ones yet (jumps are played when every phase is sequential, "
                "or every phase is simultaneous or single; allowed in such a mix: cover, "
                "cover-by-rank)",
            )
    for shape, props in (rec.get("shapes") or {}).items():
        if props.get("power", "none") == "none" or props.get("condition") not in CONDITIONS_SURROUND:
            continue
        field = f"shapes.{shape}.condition"
        if props.get("move") in ("orth-by-stack", "orth-by-full-stack"):
            p.add(
                field,
                f"{props['condition']!r} with move {props['move']!r} is not defined: a by-stack mover "
                "lands a whole stack and covers the one it lands on, and the surrounds are read on the "
                "stacks' tops (allowed with a by-stack move: cover, cover-by-rank)",
            )
        # surrounds in simultaneous and single phases are played on
        # flat boards (judged once every plan has landed): docs/rules/ttt/rounds.md,
        # "Surrounds inside rounds"; on stacks too (read on the
        # stacks' tops once every plan has landed)

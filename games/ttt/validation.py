"""Validation: a decoded rule set in, every problem or the full record out.

Why everything is checked before anything is built: the system of the
tic-tac-toe variations specification shows a rule set back to its author
with every problem at once, and nothing half-valid may reach the engine.
So ``parse`` either returns a ``RuleSet`` whose every field was checked
(defaults filled in) or raises ``RuleSetError`` listing each problem as ``field: problem (allowed: ...)``.
Input comes from files and from users of the web app, so its shape is
not trusted either: ``parse_text`` refuses JSON nested deeper than any rule
set needs before Python's recursion limit could turn it into a traceback.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Mapping
from typing import Any

from games.ttt.combinations import (
    check_board_kind,
    check_captures,
    check_castle,
    check_en_passant,
    check_hidden_turns,
    check_hidden_walls,
    check_jumps,
    check_last_pentagon,
    check_last_row,
    check_line_moves,
    check_paralyzes,
    check_shapes,
    check_simultaneous,
    check_stacks,
    check_triagonal,
)
from games.ttt.deal import check_deck
from games.ttt.extends import resolve_extends
from games.ttt.ruleset import RuleSet
from games.ttt.schema import (
    BOARD_FIELDS,
    BOARD_KINDS,
    CHECKS_LATER,
    CLOAKING_NOW,
    COLOUR_MODES,
    CONDITIONS_ALL,
    CONDITIONS_NOW,
    DEFAULT_CHECKS,
    FIXED_SPACE_FIELDS,
    FOLDS,
    MAX_DIM,
    MAX_MOVE_LIMIT,
    MAX_SPACES,
    MOVES_ALL,
    MOVES_NOW,
    ORDERS_ALL,
    ORDERS_NOW,
    PALETTE,
    PHASE_FIELDS,
    PHASE_MOVEMENT,
    PIECE_FIELDS,
    PLANE_KINDS,
    PLAYERS,
    POWERS_ALL,
    RESULTS_ALL,
    RESULTS_NOW,
    SEAT_NAMES,
    SHAPE_CHECKS,
    SHAPE_FIELDS,
    SHAPE_PLURALS,
    SHAPES_ALL,
    SHAPES_NOW,
    STALEMATES,
    STALEMATES_LATER,
    TETRAKIS_LINES,
    TOP_FIELDS,
    TURN_CHECKS,
    VS_CHAOS_STALEMATES,
    RuleSetError,
    allowed_text,
    is_int,
    measure_shape,
    name_problem,
    parse_check,
    parse_stalemate,
    seats_of,
)
from games.ttt.spaces import board_spaces, on_boards, phase_spaces

# The deepest a valid rule set nests is 5 (board.pieces[i].at[k]); anything
# far deeper is not a rule set, and is refused before it is walked.
MAX_DEPTH = 32


def _supported(p: _Problems, field: str, value, allowed, now) -> bool:
    """Check ``value`` against the specification's vocabulary (``allowed``) and what this
    engine plays (``now``), naming whichever list it misses."""
    if value not in allowed:
        p.add(field, f"{value!r} is not allowed (allowed: {allowed_text(allowed)})")
        return False
    if value not in now:
        p.add(field, f"{value!r} is not supported by this engine yet (supported now: {allowed_text(now)})")
        return False
    return True


def _depth_exceeds(value, limit: int) -> bool:
    """Whether ``value`` nests containers deeper than ``limit`` (iterative, so
    a hostile depth cannot exhaust the stack)."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            children = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        if depth + 1 > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


class _Problems:
    def __init__(self):
        self.items: list[str] = []

    def add(self, field: str, message: str):
        self.items.append(f"{field}: {message}")


def _check_coord(p: _Problems, field: str, value, size) -> tuple[int, int, int] | None:
    if not (isinstance(value, (list, tuple)) and len(value) == 3 and all(is_int(v) for v in value)):
        p.add(field, f"{value!r} is not a coordinate; write [x, y, z] with 1-based integers")
        return None
    if size is None:
        return tuple(value)
    for axis, v, n in zip("xyz", value, size, strict=True):
        if not 1 <= v <= n:
            p.add(field, f"{axis}={v} is off the board (allowed: 1..{n})")
            return None
    return tuple(value)


def _normalise(raw: Mapping[str, Any], p: _Problems) -> dict | None:
    """Fill defaults and check every field; returns the full record or None."""
    if not isinstance(raw, Mapping):
        p.add("(top level)", "a rule set is a JSON object")
        return None
    for key in raw:
        if key not in TOP_FIELDS:
            p.add(str(key), f"unknown field (allowed: {allowed_text(TOP_FIELDS)})")
    rec: dict[str, Any] = {}

    name = raw.get("name")
    problem = name_problem(name)
    if problem:
        p.add("name", problem)
    rec["name"] = name
    notes = raw.get("notes", "")
    if not isinstance(notes, str):
        p.add("notes", "must be a string")
    rec["notes"] = notes

    # -- board --------------------------------------------------------------
    board = raw.get("board", {})
    size = None
    kind = "hash"
    if not isinstance(board, Mapping):
        p.add("board", "must be an object with fields " + allowed_text(BOARD_FIELDS))
        board = {}
    for key in board:
        if key not in BOARD_FIELDS:
            p.add(f"board.{key}", f"unknown field (allowed: {allowed_text(BOARD_FIELDS)})")
    kind = board.get("kind", "hash")
    if kind not in BOARD_KINDS:
        p.add("board.kind", f"{kind!r} is not allowed (allowed: {allowed_text(BOARD_KINDS)})")
        kind = None
    raw_size = board.get("size", [3, 3, 1])
    if not (isinstance(raw_size, (list, tuple)) and len(raw_size) == 3 and all(is_int(v) for v in raw_size)):
        p.add("board.size", f"{raw_size!r} is not [x, y, z] with integers 1..{MAX_DIM}")
    else:
        ok = True
        for axis, v in zip("xyz", raw_size, strict=True):
            if not 1 <= v <= MAX_DIM:
                p.add(f"board.size.{axis}", f"{v} is not allowed (allowed: 1..{MAX_DIM})")
                ok = False
        if ok and math.prod(raw_size) > MAX_SPACES:
            p.add(
                "board.size",
                f"{raw_size} has {math.prod(raw_size)} spaces (allowed: each "
                f"dimension at most floor({MAX_SPACES} / product of the other two))",
            )
            ok = False
        if ok and kind == "hash" and list(raw_size) != [3, 3, 1]:
            p.add("board.size", f"{raw_size} is not allowed for a hash board (allowed: [3, 3, 1])")
            ok = False
        if ok and kind in PLANE_KINDS and raw_size[2] != 1:
            p.add(
                "board.size.z",
                f"{raw_size[2]} is not allowed for {kind} (allowed: 1; a {kind} board is a plane)",
            )
            ok = False
        if ok and kind == "tetrakis" and raw_size[2] != 4:
            p.add(
                "board.size.z",
                f"{raw_size[2]} is not allowed for tetrakis (allowed: 4; z is a square's triangle, "
                "1 N, 2 E, 3 S, 4 W)",
            )
            ok = False
        if ok and kind == "toroid" and min(raw_size[:2]) < 3:
            p.add(
                "board.size",
                f"{raw_size} is not allowed for a toroid (allowed: x and y 3..{MAX_DIM}; with fewer "
                "than 3 a space's neighbours along a wrapping row would be itself or the same space twice)",
            )
            ok = False
        if ok and kind == "stacks" and raw_size[2] < 2:
            p.add(
                "board.size.z",
                f"{raw_size[2]} is not allowed for stacks (allowed: 2..{MAX_DIM}; "
                "the third dimension is the stack height)",
            )
            ok = False
        if ok:
            size = tuple(raw_size)
    locked = []
    raw_locked = board.get("locked", [])
    if not isinstance(raw_locked, list):
        p.add("board.locked", "must be a list of [x, y, z] coordinates")
        raw_locked = []
    for i, c in enumerate(raw_locked):
        at = _check_coord(p, f"board.locked[{i}]", c, size)
        if at is not None:
            if at in locked:
                p.add(f"board.locked[{i}]", f"{list(at)} is listed twice")
            else:
                locked.append(at)
    rec["board"] = {
        "kind": kind,
        "size": list(size) if size else raw_size,
        "locked": sorted(list(c) for c in locked),
    }

    # -- players and colours --------------------------------------------------
    players = raw.get("players", "2")
    if isinstance(players, int) and not isinstance(players, bool):
        players = str(players)
    if players not in PLAYERS:
        p.add("players", f"{players!r} is not allowed (allowed: {allowed_text(PLAYERS)})")
        players = None
    rec["players"] = players
    colours = raw.get("colours", "assigned")
    if colours not in COLOUR_MODES:
        p.add("colours", f"{colours!r} is not allowed (allowed: {allowed_text(COLOUR_MODES)})")
        colours = None
    if colours == "partners-share" and players not in (None, "partners"):
        p.add(
            "colours",
            "'partners-share' needs players 'partners' (allowed with "
            f"players={players!r}: assigned, shared, players-choose)",
        )
    rec["colours"] = colours

    allowed_colours: tuple[str, ...] | None = None
    if players and colours:
        n, chaos = seats_of(players)
        seats = n + chaos
        allowed_colours = {
            "assigned": PALETTE[:seats],
            "shared": PALETTE[:1],
            "partners-share": PALETTE[:2],
            "players-choose": PALETTE,
        }[colours]

    # -- shapes -----------------------------------------------------------------
    raw_shapes = raw.get("shapes", {"circle": {}})
    shapes = {}
    if not isinstance(raw_shapes, Mapping) or not raw_shapes:
        p.add("shapes", "must be a non-empty object {shape: {move, power}}")
        raw_shapes = {}
    for shape, props in raw_shapes.items():
        if not _supported(p, f"shapes.{shape}", shape, SHAPES_ALL, SHAPES_NOW):
            continue
        if not isinstance(props, Mapping):
            p.add(f"shapes.{shape}", "must be an object with fields " + allowed_text(SHAPE_FIELDS))
            continue
        for key in props:
            if key not in SHAPE_FIELDS:
                p.add(f"shapes.{shape}.{key}", f"unknown field (allowed: {allowed_text(SHAPE_FIELDS)})")
        move = props.get("move", "stationary")
        _supported(p, f"shapes.{shape}.move", move, MOVES_ALL, MOVES_NOW)
        power = props.get("power", "none")
        if move == "adjacent-alquerque" and (
            kind in ("stacks",) + PLANE_KINDS or (size is not None and size[2] != 1)
        ):
            p.add(
                f"shapes.{shape}.move",
                "'adjacent-alquerque' follows the lines of a flat board "
                "(allowed with board.kind hash, squares or vertices and size z = 1)",
            )
        shapes[shape] = {"move": move, "power": power}
        _shape_power(p, shape, props, shapes[shape], kind)
        _shape_backwards(p, shape, props, shapes[shape])
    rec["shapes"] = shapes

    # -- reserves ---------------------------------------------------------------
    raw_res = raw.get("reserves")
    problems_before_reserves = len(p.items)
    reserves: dict[str, dict[str, int]] = {}
    spaces = math.prod(size) if size else MAX_SPACES
    if raw.get("boards") in (2, 3) and is_int(raw.get("boards")):  # boards share the reserves
        spaces *= raw["boards"]
    # An empty object is what validation itself writes for all-zero reserves
    # (zero counts are dropped from the canonical form), so it must read back.
    if not isinstance(raw_res, Mapping):
        p.add("reserves", "required: an object {colour: count} or {colour: {shape: count}}")
        raw_res = {}
    for colour, val in raw_res.items():
        if colour not in PALETTE:
            p.add(f"reserves.{colour}", f"unknown colour (allowed: {allowed_text(PALETTE)})")
            continue
        if allowed_colours is not None and colour not in allowed_colours:
            p.add(
                f"reserves.{colour}",
                f"colour not in play with players={players!r}, "
                f"colours={colours!r} (allowed: {allowed_text(allowed_colours)})",
            )
            continue
        per_shape = val if isinstance(val, Mapping) else {"circle": val}
        for shape, count in per_shape.items():
            field = f"reserves.{colour}" + (f".{shape}" if isinstance(val, Mapping) else "")
            if shape not in shapes:
                p.add(field, f"shape {shape!r} has no entry in shapes (allowed: {allowed_text(shapes)})")
                continue
            if not is_int(count) or not 0 <= count <= spaces:
                p.add(
                    field,
                    f"{count!r} is not allowed (allowed: 0..{spaces}, the number of spaces on all boards)",
                )
                continue
            if count:
                reserves.setdefault(colour, {})[shape] = count
    rec["reserves"] = {
        c: dict(sorted(v.items())) for c, v in sorted(reserves.items(), key=lambda kv: PALETTE.index(kv[0]))
    }

    # -- pre-placed pieces --------------------------------------------------------
    pieces = []
    raw_pieces = board.get("pieces", [])
    if not isinstance(raw_pieces, list):
        p.add("board.pieces", "must be a list of {at, colour, shape}")
        raw_pieces = []
    taken = set(locked)
    for i, piece in enumerate(raw_pieces):
        field = f"board.pieces[{i}]"
        if not isinstance(piece, Mapping):
            p.add(field, "must be an object {at: [x, y, z], colour, shape}")
            continue
        for key in piece:
            if key not in PIECE_FIELDS:
                p.add(f"{field}.{key}", f"unknown field (allowed: {allowed_text(PIECE_FIELDS)})")
        at = _check_coord(p, f"{field}.at", piece.get("at"), size)
        colour = piece.get("colour")
        shape = piece.get("shape", "circle")
        ok = at is not None
        palette_ok = PALETTE  # any colour; one that no seat owns is communal
        if colour not in palette_ok:
            p.add(f"{field}.colour", f"{colour!r} is not allowed (allowed: {allowed_text(palette_ok)})")
            ok = False
        if shape not in shapes:
            p.add(f"{field}.shape", f"{shape!r} is not allowed (allowed: {allowed_text(shapes) or 'circle'})")
            ok = False
        if at is not None and at in taken:
            p.add(f"{field}.at", f"{list(at)} is locked or already holds a piece")
            ok = False
        if ok:
            taken.add(at)
            pieces.append({"at": list(at), "colour": colour, "shape": shape})
    rec["board"]["pieces"] = sorted(pieces, key=lambda q: (q["at"], q["colour"], q["shape"]))
    if kind == "stacks" and size is not None:
        support = set(locked) | {tuple(q["at"]) for q in pieces}
        for q in pieces:
            x, y, z = q["at"]
            if z > 1 and (x, y, z - 1) not in support:
                p.add(
                    "board.pieces",
                    f"piece at {q['at']} floats: on stacks a piece rests on the "
                    "floor, a piece or a locked space",
                )
    if (
        reserves == {}
        and not pieces
        and isinstance(raw.get("reserves"), Mapping)
        and "deck" not in raw  # a deck deals what is played (games/ttt/deal.py)
        and len(p.items) == problems_before_reserves
    ):
        p.add("reserves", "every count is 0: nothing can ever be played")

    # spaces: sticky, exclusive, per-player entry/exit locks;
    # written into the canonical form only when set, so older fingerprints stay
    rec["board"].update({k: v for k, v in board_spaces(p, board, players, size, set(locked)).items() if v})
    # per-board spaces: written only when set, so older fingerprints stay
    fields, per_board = on_boards(p, board, players, size, raw.get("boards", 1), rec["board"])
    if fields:
        rec["board"].update({k: v for k, v in fields.items() if v or k == "locked"})
        for k in ("sticky", "exclusive", "entry_locked", "exit_locked"):
            if not fields.get(k):
                rec["board"].pop(k, None)
    if per_board:
        rec["board"]["on_boards"] = per_board

    # -- turn structure -------------------------------------------------------------
    ppt = raw.get("pieces_per_turn", 1)
    if ppt not in (1, 2) or isinstance(ppt, bool):
        p.add("pieces_per_turn", f"{ppt!r} is not allowed (allowed: 1, 2)")
    rec["pieces_per_turn"] = ppt
    draw = raw.get("agree_draw", False)
    if not isinstance(draw, bool):
        p.add("agree_draw", f"{draw!r} is not allowed (allowed: true, false)")
    if draw is True and players == "1-vs-chaos":  # 1-vs-chaos: nobody could answer an offer
        p.add(
            "agree_draw",
            "a draw needs another player (not Chaos) to agree, and '1-vs-chaos' "
            "has none (allowed with players='1-vs-chaos': false)",
        )
    rec["agree_draw"] = draw

    checks = raw.get("turn_checks", DEFAULT_CHECKS)
    if not isinstance(checks, list):
        p.add("turn_checks", f"must be a list (allowed items: {allowed_text(TURN_CHECKS)})")
        checks = []
    seen = []
    for i, c in enumerate(checks):
        if c in SHAPE_CHECKS and c not in seen:  # with the goal lines, or the pentagons
            seen.append(c)
        elif c in CHECKS_LATER:
            p.add(
                f"turn_checks[{i}]",
                f"{c!r} is not supported by this engine yet "
                f"(supported now: {allowed_text(TURN_CHECKS + SHAPE_CHECKS)})",
            )
        elif c not in TURN_CHECKS:
            p.add(
                f"turn_checks[{i}]",
                f"{c!r} is not allowed (allowed: {allowed_text(TURN_CHECKS + SHAPE_CHECKS)})",
            )
        elif c in seen:
            p.add(f"turn_checks[{i}]", f"{c!r} is listed twice")
        else:
            seen.append(c)
    rec["turn_checks"] = seen
    stalemate = raw.get("stalemate", "draws")
    if stalemate in STALEMATES_LATER:  # shapes other than circle
        p.add(
            "stalemate",
            f"{stalemate!r} is not supported by this engine yet (it counts a shape that "
            f"is not played yet; supported now: {allowed_text(STALEMATES)})",
        )
    elif stalemate not in STALEMATES:
        p.add("stalemate", f"{stalemate!r} is not allowed (allowed: {allowed_text(STALEMATES)})")
    rec["stalemate"] = stalemate

    rec["phases"] = _phases(raw.get("phases", [{}]), p, players, size, locked, raw.get("cloaking", "none"))

    _outcomes(raw, rec, p, players, shapes)
    for field, default, allowed in (("cloaking", "none", CLOAKING_NOW), ("boards", 1, (1, 2, 3))):
        value = raw.get(field, default)
        if value not in allowed or isinstance(value, bool) != isinstance(default, bool):
            p.add(
                field,
                f"{value!r} is not supported by this engine yet (supported now: {allowed_text(allowed)})",
            )
        rec[field] = value

    if (
        is_int(rec["boards"])
        and rec["boards"] > 1
        and size is not None
        and rec["boards"] * math.prod(size) > MAX_SPACES
    ):  # boards: the engine's limit
        p.add(
            "boards",
            f"{rec['boards']} boards of {list(size)} have {rec['boards'] * math.prod(size)} "
            f"spaces together (allowed: at most {MAX_SPACES} spaces over all boards)",
        )
    moves = any(s["move"] != "stationary" for s in shapes.values()) and any(
        ph["movement"] == "allowed" for ph in rec["phases"]
    )
    limit = raw.get("move_limit")
    if limit is None:
        if moves:
            p.add(
                "move_limit",
                "required when pieces can move (the specification gives games of "
                f"movement no end; OpenSpiel needs a finite game) (allowed: 1..{MAX_MOVE_LIMIT})",
            )
    elif not is_int(limit) or not 1 <= limit <= MAX_MOVE_LIMIT:
        p.add("move_limit", f"{limit!r} is not allowed (allowed: 1..{MAX_MOVE_LIMIT} or null)")
    rec["move_limit"] = limit
    secs = raw.get("seconds_per_turn")
    if secs is not None and (not is_int(secs) or not 1 <= secs <= 86400):
        p.add("seconds_per_turn", f"{secs!r} is not allowed (allowed: 1..86400 or null for no limit)")
    rec["seconds_per_turn"] = secs

    check_simultaneous(raw, rec, p)
    check_shapes(rec, p)
    check_stacks(rec, p)
    check_board_kind(rec, p)
    check_captures(rec, p)
    check_jumps(rec, p)
    check_triagonal(rec, p)
    check_castle(rec, p)
    check_paralyzes(rec, p)
    check_en_passant(rec, p)
    check_hidden_turns(raw, rec, p)
    check_hidden_walls(raw, rec, p)
    check_line_moves(raw, rec, p)
    check_last_pentagon(rec, p)
    check_last_row(rec, p)
    check_deck(raw, rec, p, lambda field, c: _check_coord(p, field, c, rec["board"]["size"]))
    if p.items:
        return None
    # Whole-record checks that need every field valid.
    _check_start_position(rec, p)
    return None if p.items else rec


def _phases(raw_phases, p: _Problems, players, size, board_locked, cloaking) -> list[dict]:
    """Check the 1-6 phases. The specification: "Each game has from 1 to 6 phases"; each
    phase defines its pass option, locked players, placement only or not, the
    spaces locked and cloaked for it, its order and (all but the last) a fold
    rule; "The cloak and lock properties are the only ones that can be changed
    after phase 1", so the other space properties belong to the board."""
    if not isinstance(raw_phases, list) or not 1 <= len(raw_phases) <= 6:
        p.add("phases", "must be a list of 1 to 6 phase objects")
        return [_phase({}, 0, 1, p, players, size, board_locked, cloaking)]
    return [
        _phase(ph, i, len(raw_phases), p, players, size, board_locked, cloaking)
        for i, ph in enumerate(raw_phases)
    ]


def _phase(ph, i: int, count: int, p: _Problems, players, size, board_locked, cloaking) -> dict:
    field = f"phases[{i}]"
    if not isinstance(ph, Mapping):
        p.add(field, "must be an object with fields " + allowed_text(PHASE_FIELDS))
        ph = {}
    for key in ph:
        if key in FIXED_SPACE_FIELDS:
            p.add(
                f"{field}.{key}",
                "only cloak and lock properties can change after phase 1 (the "
                "seed); set this once for the whole game outside the phases "
                f"(allowed phase fields: {allowed_text(PHASE_FIELDS)})",
            )
        elif key not in PHASE_FIELDS:
            p.add(f"{field}.{key}", f"unknown field (allowed: {allowed_text(PHASE_FIELDS)})")
    order = ph.get("order", "sequential")
    _supported(p, f"{field}.order", order, ORDERS_ALL, ORDERS_NOW)
    pas = ph.get("pass", False)
    if not isinstance(pas, bool):
        p.add(f"{field}.pass", f"{pas!r} is not allowed (allowed: true, false)")
    movement = ph.get("movement", "allowed")
    if movement not in PHASE_MOVEMENT:
        p.add(f"{field}.movement", f"{movement!r} is not allowed (allowed: {allowed_text(PHASE_MOVEMENT)})")
    locked_players = _locked_players(ph.get("locked_players", []), f"{field}.locked_players", p, players)
    spaces = {}
    for key in ("locked", "cloaked"):
        raw_list = ph.get(key, [])
        out = []
        if not isinstance(raw_list, list):
            p.add(f"{field}.{key}", "must be a list of [x, y, z] coordinates")
            raw_list = []
        for j, c in enumerate(raw_list):
            at = _check_coord(p, f"{field}.{key}[{j}]", c, size)
            if at is None:
                continue
            if list(at) in out:
                p.add(f"{field}.{key}[{j}]", f"{list(at)} is listed twice")
            elif key == "locked" and at in board_locked:
                p.add(
                    f"{field}.{key}[{j}]", f"{list(at)} is locked for the whole game already (board.locked)"
                )
            else:
                out.append(list(at))
        spaces[key] = sorted(out)
    if spaces["cloaked"] and cloaking == "none":
        p.add(
            f"{field}.cloaked",
            "cloaked spaces need a cloaking type (allowed with cloaking 'none': an empty list)",
        )
    fold = ph.get("fold", "none")
    if fold not in FOLDS:
        p.add(f"{field}.fold", f"{fold!r} is not allowed (allowed: {allowed_text(FOLDS)})")
    elif fold != "none" and i == count - 1:
        p.add(
            f"{field}.fold",
            "the last phase has no fold rule (the specification: 'Each phase other than "
            "the last may have a fold rule') (allowed here: none)",
        )
    out = {
        "order": order,
        "pass": pas,
        "movement": movement,
        "locked_players": locked_players,
        "locked": spaces["locked"],
        "cloaked": spaces["cloaked"],
        "fold": fold,
    }
    # spaces: the phase's per-player locks, only when set
    out.update({k: v for k, v in phase_spaces(p, field, ph, players, size, set(board_locked)).items() if v})
    return out


def _locked_players(raw_list, field: str, p: _Problems, players) -> list:
    """Seats locked for a phase: 1..4 (player numbers) and "chaos"; at least one
    seat must stay unlocked."""
    if not isinstance(raw_list, list):
        p.add(field, f"must be a list of seats (allowed items: {allowed_text(SEAT_NAMES)})")
        return []
    if players is None:
        return []
    n, chaos = seats_of(players)
    allowed = list(range(1, n + 1)) + (["chaos"] if chaos else [])
    out = []
    for j, seat in enumerate(raw_list):
        if isinstance(seat, bool) or seat not in allowed:
            p.add(
                f"{field}[{j}]",
                f"{seat!r} is not a seat of players={players!r} (allowed: {allowed_text(allowed)})",
            )
        elif seat in out:
            p.add(f"{field}[{j}]", f"{seat!r} is listed twice")
        else:
            out.append(seat)
    if len(out) == len(allowed):
        p.add(
            field,
            "every seat is locked: nobody could play in this phase (allowed: lock all but at least one seat)",
        )
    return sorted(out, key=allowed.index)


def _directions(diagonals: bool):
    """The 13 line directions of a 3-D grid (one of each +-pair), or the 3 axes."""
    out = []
    for d in itertools.product((-1, 0, 1), repeat=3):
        if d == (0, 0, 0) or d < (0, 0, 0):
            continue
        if not diagonals and sum(map(abs, d)) != 1:
            continue
        out.append(d)
    return out


def _longest_runs(size, occupied: Mapping[tuple, str], diagonals=True, kind="squares") -> dict[str, int]:
    """Each colour's longest run; on hexagons along the three hex axes (the
    (1, 1) diagonal is no line, (1, -1) is an axis), on a toroid wrapping
    around x and y with each space counted once (docs/rules/ttt/boards.md)."""
    best: dict[str, int] = {}
    dirs = _directions(diagonals) if kind != "hexagons" else [(1, 0, 0), (0, 1, 0), (1, -1, 0)]
    wrap = (
        (lambda c: ((c[0] - 1) % size[0] + 1, (c[1] - 1) % size[1] + 1, c[2])) if kind == "toroid" else None
    )
    if kind == "tetrakis":
        dirs = list(TETRAKIS_LINES)
    for at, colour in occupied.items():
        for d in dirs:
            if kind == "tetrakis":
                n, cur = 0, at
                while occupied.get(cur) == colour:
                    n += 1
                    u, sx, sy = TETRAKIS_LINES[d].get(cur[2], (None, 0, 0))
                    cur = (cur[0] + sx, cur[1] + sy, u)
                best[colour] = max(best.get(colour, 0), n)
                continue
            n, cur, seen = 0, at, set()
            while occupied.get(cur) == colour and cur not in seen:
                seen.add(cur)
                n += 1
                cur = tuple(a + b for a, b in zip(cur, d, strict=True))
                cur = wrap(cur) if wrap else cur
            best[colour] = max(best.get(colour, 0), n)
    return best


def _shape_backwards(p: _Problems, shape, props, out):
    """The specification's "If a shape “cannot move backwards”" as the
    shape's field ``cannot_move_backwards`` (a bool, written into the record
    only when true so older fingerprints stay)."""
    flag = props.get("cannot_move_backwards", False) if isinstance(props, Mapping) else False
    if not isinstance(flag, bool):
        p.add(f"shapes.{shape}.cannot_move_backwards", f"{flag!r} is not allowed (allowed: true, false)")
    elif flag:
        if out["move"] == "stationary":
            p.add(
                f"shapes.{shape}.cannot_move_backwards",
                "a stationary shape never moves (allowed with move 'stationary': false)",
            )
        out["cannot_move_backwards"] = True


# -- captures ----------------------------------------------------------------------


def _shape_power(p: _Problems, shape, props, out, kind):
    """A shape's ``power``, ``condition`` and ``result`` (the
    specification's power, power_condition and power_result dropdowns). The
    specification: "If “No power” is
    selected, then the associated power_condition and power_result dropdowns
    are cleared and disabled"; "If a “Cover” condition is selected on
    non-stacks, then clear all results except Remove and Reincarnate";
    captives may be "converted (not permitted for “cover by rank” except on
    stacks)". Condition and result are written only with a power, so older
    fingerprints stay."""
    power = out["power"]
    field = f"shapes.{shape}"
    if power not in POWERS_ALL:
        p.add(f"{field}.power", f"{power!r} is not allowed (allowed: {allowed_text(POWERS_ALL)})")
        return
    cond, result = props.get("condition"), props.get("result")
    if power == "none":
        for key, value in (("condition", cond), ("result", result)):
            if value is not None:
                p.add(
                    f"{field}.{key}",
                    f"set while power is 'none' (the specification clears and disables it with "
                    f"“No power”; allowed with power 'none': no {key})",
                )
        return
    if cond is None:
        p.add(
            f"{field}.condition", f"required with power {power!r} (allowed: {allowed_text(CONDITIONS_NOW)})"
        )
    elif _supported(p, f"{field}.condition", cond, CONDITIONS_ALL, CONDITIONS_NOW):
        out["condition"] = cond
    if result is None:
        p.add(f"{field}.result", f"required with power {power!r} (allowed: {allowed_text(RESULTS_NOW)})")
    elif _supported(p, f"{field}.result", result, RESULTS_ALL, RESULTS_NOW):
        out["result"] = result
    if kind != "stacks" and result == "converts" and cond in ("cover", "cover-by-rank"):
        p.add(
            f"{field}.result",
            f"'converts' with condition {cond!r} is for stacks only (the specification: "
            "“If a “Cover” condition is selected on non-stacks, then clear all results "
            "except Remove and Reincarnate”; allowed with board.kind "
            f"{kind!r}: removes, reincarnates, reincarnates-x2, reincarnates-x3)",
        )


def _check_start_position(rec, p: _Problems):
    occupied = {tuple(q["at"]): q["colour"] for q in rec["board"]["pieces"]}
    for check in rec["turn_checks"]:
        if check in SHAPE_CHECKS:  # no line to check
            continue
        k, _, diag = parse_check(check)
        if k < 2:
            continue  # any-piece-*: holds for an arriving piece, not for pre-placed ones
        runs = _longest_runs(rec["board"]["size"], occupied, diag, rec["board"]["kind"])
        if runs and max(runs.values()) >= k:
            p.add("board.pieces", f"the starting position already satisfies turn check {check!r}")


def _outcomes(raw, rec, p: _Problems, players, shapes):
    """The dilemmas' outcome fields: the stalemate rule's needs,
    ``chaos_wins_if_more_than`` and ``overachievers_disqualified``.

    The specification's "Chaos wins if total circles > 9" (Shopping9) is written
    ``{"circle": 9}``: Chaos wins when the pieces of that shape on the board,
    of every colour, number more than 9. "An “Overachiever(s) disqualified”
    rule may be added to 4-player games."
    """
    n, chaos = seats_of(players) if players else (None, None)
    stalemate = rec.get("stalemate")
    if stalemate in VS_CHAOS_STALEMATES and players is not None and not chaos:
        p.add(
            "stalemate",
            f"{stalemate!r} compares each player with Chaos (allowed with "
            f"players={players!r}: any rule not naming Chaos; Chaos plays in 2-vs-chaos "
            "and 3-vs-chaos)",
        )
    shape = measure_shape(parse_stalemate(stalemate)[1]) if isinstance(stalemate, str) else None
    if shape is not None and shape not in shapes and stalemate in STALEMATES:
        p.add(
            "stalemate",
            f"{stalemate!r} counts {SHAPE_PLURALS[shape]}, which have no entry in shapes "
            f"(allowed: {allowed_text(shapes)})",
        )
    raw_cw = raw.get("chaos_wins_if_more_than", {})
    cw = {}
    if not isinstance(raw_cw, Mapping):
        p.add(
            "chaos_wins_if_more_than",
            'must be an object {shape: count} (e.g. {"circle": 9} for '
            'the specification\'s "Chaos wins if total circles > 9")',
        )
        raw_cw = {}
    for key, count in raw_cw.items():
        field = f"chaos_wins_if_more_than.{key}"
        if key not in SHAPE_PLURALS:
            p.add(field, f"unknown shape (allowed: {allowed_text(SHAPES_ALL)})")
        elif key not in shapes:
            p.add(field, f"shape {key!r} has no entry in shapes (allowed: {allowed_text(shapes)})")
        elif not is_int(count) or not 0 <= count <= MAX_SPACES:
            p.add(field, f"{count!r} is not allowed (allowed: 0..{MAX_SPACES})")
        else:
            cw[key] = count
    rec["chaos_wins_if_more_than"] = dict(sorted(cw.items()))
    od = raw.get("overachievers_disqualified", False)
    if not isinstance(od, bool):
        p.add("overachievers_disqualified", f"{od!r} is not allowed (allowed: true, false)")
        od = False
    elif od and players is not None and players != "4":
        p.add(
            "overachievers_disqualified",
            f"the specification adds it to 4-player games only (allowed with "
            f"players={players!r}: false; with players '4': true, false)",
        )
    rec["overachievers_disqualified"] = od


def parse(raw: Mapping[str, Any], source: str = "rule set") -> RuleSet:
    """Validate a decoded rule set; raise ``RuleSetError`` listing every problem.
    A rule set that ``extends`` another is merged with it first
    (games/ttt/extends.py), so what is validated is the resolved rule set."""
    if _depth_exceeds(raw, MAX_DEPTH):
        raise RuleSetError(
            [f"(top level): nested more than {MAX_DEPTH} levels deep (a rule set nests at most 5)"], source
        )
    raw = resolve_extends(raw, source)
    if _depth_exceeds(raw, MAX_DEPTH):
        raise RuleSetError(
            [f"(top level): nested more than {MAX_DEPTH} levels deep (a rule set nests at most 5)"], source
        )
    p = _Problems()
    rec = _normalise(raw, p)
    if rec is None:
        raise RuleSetError(p.items, source)
    name = rec.pop("name")
    notes = rec.pop("notes")
    return RuleSet(name=name, record=rec, notes=notes)


def parse_text(text: str, source: str = "rule set") -> RuleSet:
    """Decode JSON text and validate it, with decoding problems reported the
    same way as validation problems."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as e:
        raise RuleSetError([f"(file): not valid JSON: {e}"], source) from None
    except RecursionError:
        raise RuleSetError(
            [f"(file): nested more than {MAX_DEPTH} levels deep (a rule set nests at most 5)"], source
        ) from None
    return parse(raw, source)

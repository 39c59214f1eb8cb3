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

from games.ttt.extends import resolve_extends
from games.ttt.ruleset import RuleSet
from games.ttt.schema import (
    BOARD_FIELDS,
    BOARD_KINDS,
    CLOAKING_NOW,
    COLOUR_MODES,
    CONDITIONS_ALL,
    CONDITIONS_CHAIN,
    CONDITIONS_JUMP,
    CONDITIONS_NOW,
    CONDITIONS_SURROUND,
    DEFAULT_CHECKS,
    FIXED_SPACE_FIELDS,
    FOLDS,
    GOAL_CHECK,
    LINE_READING_DEFAULT,
    LINE_READINGS,
    MAX_DIM,
    MAX_MOVE_LIMIT,
    MAX_SPACES,
    MOVES_ALL,
    MOVES_BY_STACK,
    MOVES_NOW,
    ORDERS_ALL,
    ORDERS_NOW,
    PALETTE,
    PHASE_FIELDS,
    PHASE_MOVEMENT,
    PIECE_FIELDS,
    PLAYERS,
    POWERS_ALL,
    RESULTS_ALL,
    RESULTS_NOW,
    SEAT_NAMES,
    SHAPE_FIELDS,
    SHAPE_PLURALS,
    SHAPES_ALL,
    SHAPES_NOW,
    STALEMATES,
    STALEMATES_LATER,
    TOP_FIELDS,
    TURN_CHECKS,
    VS_CHAOS_STALEMATES,
    RuleSetError,
    can_move_backwards,
    has_powers,
    line_moves_blocked,
    may_split_pot,
    measure_shape,
    name_problem,
    needs_goals,
    parse_check,
    parse_stalemate,
    seats_of,
    shaped,
    slides,
)
from games.ttt.spaces import board_spaces, on_boards, phase_spaces

# The deepest a valid rule set nests is 5 (board.pieces[i].at[k]); anything
# far deeper is not a rule set, and is refused before it is walked.
MAX_DEPTH = 32


def _allowed(values) -> str:
    return ", ".join(str(v) for v in values)


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _supported(p: _Problems, field: str, value, allowed, now) -> bool:
    """Check ``value`` against the specification's vocabulary (``allowed``) and what this
    engine plays (``now``), naming whichever list it misses."""
    if value not in allowed:
        p.add(field, f"{value!r} is not allowed (allowed: {_allowed(allowed)})")
        return False
    if value not in now:
        p.add(field, f"{value!r} is not supported by this engine yet (supported now: {_allowed(now)})")
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
    if not (isinstance(value, (list, tuple)) and len(value) == 3 and all(_is_int(v) for v in value)):
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
            p.add(str(key), f"unknown field (allowed: {_allowed(TOP_FIELDS)})")
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
        p.add("board", "must be an object with fields " + _allowed(BOARD_FIELDS))
        board = {}
    for key in board:
        if key not in BOARD_FIELDS:
            p.add(f"board.{key}", f"unknown field (allowed: {_allowed(BOARD_FIELDS)})")
    kind = board.get("kind", "hash")
    if kind not in BOARD_KINDS:
        p.add("board.kind", f"{kind!r} is not allowed (allowed: {_allowed(BOARD_KINDS)})")
        kind = None
    raw_size = board.get("size", [3, 3, 1])
    if not (isinstance(raw_size, (list, tuple)) and len(raw_size) == 3 and all(_is_int(v) for v in raw_size)):
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
        p.add("players", f"{players!r} is not allowed (allowed: {_allowed(PLAYERS)})")
        players = None
    rec["players"] = players
    colours = raw.get("colours", "assigned")
    if colours not in COLOUR_MODES:
        p.add("colours", f"{colours!r} is not allowed (allowed: {_allowed(COLOUR_MODES)})")
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
            p.add(f"shapes.{shape}", "must be an object with fields " + _allowed(SHAPE_FIELDS))
            continue
        for key in props:
            if key not in SHAPE_FIELDS:
                p.add(f"shapes.{shape}.{key}", f"unknown field (allowed: {_allowed(SHAPE_FIELDS)})")
        move = props.get("move", "stationary")
        _supported(p, f"shapes.{shape}.move", move, MOVES_ALL, MOVES_NOW)
        power = props.get("power", "none")
        if move == "adjacent-alquerque" and (kind == "stacks" or (size is not None and size[2] != 1)):
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
    if raw.get("boards") in (2, 3) and _is_int(raw.get("boards")):  # boards share the reserves
        spaces *= raw["boards"]
    # An empty object is what validation itself writes for all-zero reserves
    # (zero counts are dropped from the canonical form), so it must read back.
    if not isinstance(raw_res, Mapping):
        p.add("reserves", "required: an object {colour: count} or {colour: {shape: count}}")
        raw_res = {}
    for colour, val in raw_res.items():
        if colour not in PALETTE:
            p.add(f"reserves.{colour}", f"unknown colour (allowed: {_allowed(PALETTE)})")
            continue
        if allowed_colours is not None and colour not in allowed_colours:
            p.add(
                f"reserves.{colour}",
                f"colour not in play with players={players!r}, "
                f"colours={colours!r} (allowed: {_allowed(allowed_colours)})",
            )
            continue
        per_shape = val if isinstance(val, Mapping) else {"circle": val}
        for shape, count in per_shape.items():
            field = f"reserves.{colour}" + (f".{shape}" if isinstance(val, Mapping) else "")
            if shape not in shapes:
                p.add(field, f"shape {shape!r} has no entry in shapes (allowed: {_allowed(shapes)})")
                continue
            if not _is_int(count) or not 0 <= count <= spaces:
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
                p.add(f"{field}.{key}", f"unknown field (allowed: {_allowed(PIECE_FIELDS)})")
        at = _check_coord(p, f"{field}.at", piece.get("at"), size)
        colour = piece.get("colour")
        shape = piece.get("shape", "circle")
        ok = at is not None
        palette_ok = PALETTE  # any colour; one that no seat owns is communal
        if colour not in palette_ok:
            p.add(f"{field}.colour", f"{colour!r} is not allowed (allowed: {_allowed(palette_ok)})")
            ok = False
        if shape not in shapes:
            p.add(f"{field}.shape", f"{shape!r} is not allowed (allowed: {_allowed(shapes) or 'circle'})")
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
        p.add("turn_checks", f"must be a list (allowed items: {_allowed(TURN_CHECKS)})")
        checks = []
    seen = []
    for i, c in enumerate(checks):
        if c == GOAL_CHECK and c not in seen:  # with the goal lines
            seen.append(c)
        elif c not in TURN_CHECKS:
            p.add(f"turn_checks[{i}]", f"{c!r} is not allowed (allowed: {_allowed(TURN_CHECKS)})")
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
            f"is not played yet; supported now: {_allowed(STALEMATES)})",
        )
    elif stalemate not in STALEMATES:
        p.add("stalemate", f"{stalemate!r} is not allowed (allowed: {_allowed(STALEMATES)})")
    rec["stalemate"] = stalemate

    rec["phases"] = _phases(raw.get("phases", [{}]), p, players, size, locked, raw.get("cloaking", "none"))

    _outcomes(raw, rec, p, players, shapes)
    for field, default, allowed in (("cloaking", "none", CLOAKING_NOW), ("boards", 1, (1, 2, 3))):
        value = raw.get(field, default)
        if value not in allowed or isinstance(value, bool) != isinstance(default, bool):
            p.add(
                field, f"{value!r} is not supported by this engine yet (supported now: {_allowed(allowed)})"
            )
        rec[field] = value

    if (
        _is_int(rec["boards"])
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
    elif not _is_int(limit) or not 1 <= limit <= MAX_MOVE_LIMIT:
        p.add("move_limit", f"{limit!r} is not allowed (allowed: 1..{MAX_MOVE_LIMIT} or null)")
    rec["move_limit"] = limit
    secs = raw.get("seconds_per_turn")
    if secs is not None and (not _is_int(secs) or not 1 <= secs <= 86400):
        p.add("seconds_per_turn", f"{secs!r} is not allowed (allowed: 1..86400 or null for no limit)")
    rec["seconds_per_turn"] = secs

    _check_simultaneous(rec, p)
    _check_shapes(rec, p)
    _check_stacks(rec, p)
    _check_captures(rec, p)
    _check_jumps(rec, p)
    _check_hidden_turns(raw, rec, p)  # kbeauty
    _check_line_moves(raw, rec, p)
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
        p.add(field, "must be an object with fields " + _allowed(PHASE_FIELDS))
        ph = {}
    for key in ph:
        if key in FIXED_SPACE_FIELDS:
            p.add(
                f"{field}.{key}",
                "only cloak and lock properties can change after phase 1 (the "
                "seed); set this once for the whole game outside the phases "
                f"(allowed phase fields: {_allowed(PHASE_FIELDS)})",
            )
        elif key not in PHASE_FIELDS:
            p.add(f"{field}.{key}", f"unknown field (allowed: {_allowed(PHASE_FIELDS)})")
    order = ph.get("order", "sequential")
    _supported(p, f"{field}.order", order, ORDERS_ALL, ORDERS_NOW)
    pas = ph.get("pass", False)
    if not isinstance(pas, bool):
        p.add(f"{field}.pass", f"{pas!r} is not allowed (allowed: true, false)")
    movement = ph.get("movement", "allowed")
    if movement not in PHASE_MOVEMENT:
        p.add(f"{field}.movement", f"{movement!r} is not allowed (allowed: {_allowed(PHASE_MOVEMENT)})")
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
        p.add(f"{field}.fold", f"{fold!r} is not allowed (allowed: {_allowed(FOLDS)})")
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
        p.add(field, f"must be a list of seats (allowed items: {_allowed(SEAT_NAMES)})")
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
                f"{seat!r} is not a seat of players={players!r} (allowed: {_allowed(allowed)})",
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


def _longest_runs(size, occupied: Mapping[tuple, str], diagonals=True) -> dict[str, int]:
    best: dict[str, int] = {}
    for at, colour in occupied.items():
        for d in _directions(diagonals):
            prev = tuple(a - b for a, b in zip(at, d, strict=True))
            if occupied.get(prev) == colour:
                continue
            n, cur = 0, at
            while occupied.get(cur) == colour:
                n += 1
                cur = tuple(a + b for a, b in zip(cur, d, strict=True))
            best[colour] = max(best.get(colour, 0), n)
    return best


def _check_simultaneous(rec, p: _Problems):
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


def _check_shapes(rec, p: _Problems):
    """Combinations of shapes, moves and goals that the engine
    plays, and the ones it refuses rather than guesses (docs/rules/ttt/shapes.md,
    docs/rules/ttt/refused.md)."""
    shapes, players, size = rec.get("shapes") or {}, rec.get("players"), rec.get("board", {}).get("size")
    if not shapes or players is None or not isinstance(size, list) or not all(_is_int(v) for v in size):
        return
    phases = rec.get("phases") or []
    if shaped(rec) and any(ph.get("order") in ("simultaneous", "single") for ph in phases):
        _check_shaped_rounds(rec, p, shapes, phases)
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


def _check_stacks(rec, p: _Problems):
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
                f"{kind!r}: any move but {_allowed(MOVES_BY_STACK)})",
            )
        # a power is played (the cover of the destination stack,
        # ranked by poker hands between by-rank pieces); jumps and surrounds
        # are refused on stacks by _check_jumps


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
        p.add(f"{field}.power", f"{power!r} is not allowed (allowed: {_allowed(POWERS_ALL)})")
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
        p.add(f"{field}.condition", f"required with power {power!r} (allowed: {_allowed(CONDITIONS_NOW)})")
    elif _supported(p, f"{field}.condition", cond, CONDITIONS_ALL, CONDITIONS_NOW):
        out["condition"] = cond
    if result is None:
        p.add(f"{field}.result", f"required with power {power!r} (allowed: {_allowed(RESULTS_NOW)})")
    elif _supported(p, f"{field}.result", result, RESULTS_ALL, RESULTS_NOW):
        out["result"] = result
    if kind != "stacks" and result == "converts" and cond in ("cover", "cover-by-rank"):
        p.add(
            f"{field}.result",
            f"'converts' with condition {cond!r} is for stacks only (the specification: "
            "“If a “Cover” condition is selected on non-stacks, then clear all results "
            "except Remove and Reincarnate”; allowed with board.kind "
            f"{kind!r}: removes, reincarnates, reincarnates-x2)",
        )


def _check_shaped_rounds(rec, p: _Problems, shapes, phases):
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


def _check_captures(rec, p: _Problems):
    """Combinations with captures the engine refuses rather than guesses
    (docs/rules/ttt/refused.md)."""
    shapes = rec.get("shapes") or {}
    if not shapes or not has_powers(rec):
        return
    phases = rec.get("phases") or []
    if rec.get("cloaking") in ("hides", "obscures") and any(ph.get("cloaked") for ph in phases):
        _check_cloaked_captures(rec, p, shapes, phases)
    refills = any(props.get("result") in ("reincarnates", "reincarnates-x2") for props in shapes.values())
    if refills and rec.get("move_limit") is None:
        p.add(
            "move_limit",
            "required when captives reincarnate (reincarnation refills the reserves, so "
            f"the game may never end; OpenSpiel needs a finite game) (allowed: 1..{MAX_MOVE_LIMIT})",
        )


def _check_cloaked_captures(rec, p: _Problems, shapes, phases):
    """Captures with cloaked spaces are played on flat boards,
    with captives removed or reincarnated (the reserve a reincarnation fills
    is public, and the cover's event says so), under invisibility and
    obscurity, in sequential phases (docs/rules/ttt/cloaking.md, "Captures
    with cloaked spaces"); jumps and surrounds too ("Jumps and surrounds with cloaked spaces").
    Refused rather than guessed: stacks (a cover's defenders are the whole
    stack, partly hidden), chain jumps (the continuation's offer would hang
    on hidden pieces) and captures inside a simultaneous or single phase (a
    round would judge covers on hidden pieces in another order)."""
    kind = (rec.get("board") or {}).get("kind")
    if kind == "stacks":
        p.add(
            "board.kind",
            "captures with cloaked spaces are not supported on stacks yet (a cover's "
            "defenders are the whole stack, partly hidden; allowed with a shape that has a "
            "power and cloaked spaces: squares, vertices, hash)",
        )
    for shape, props in shapes.items():
        condition = props.get("condition")
        if props.get("power", "none") != "none" and condition in CONDITIONS_CHAIN:
            # jumps and surrounds are played with cloaked
            # spaces; a chain's continuation is not (whether it is offered
            # would hang on pieces the mover does not see)
            p.add(
                f"shapes.{shape}.condition",
                f"{condition!r} with cloaked spaces is not supported yet "
                "(whether the chain's continuation is offered would tell the "
                "mover about pieces it does not see; allowed with cloaked "
                "spaces: cover, cover-by-rank, jump, surround-line, "
                "surround-orthogonal)",
            )
    if any(isinstance(ph, Mapping) and ph.get("order") in ("simultaneous", "single") for ph in phases):
        p.add(
            "cloaking",
            "captures with cloaked spaces are not supported with a simultaneous or single "
            "phase yet (allowed with a shape that has a power and cloaked spaces: sequential "
            "phases)",
        )


def _check_line_moves(raw, rec, p: _Problems):
    """``line_moves`` (docs/rules/ttt/shapes.md, "Pieces in the way"): whether a
    piece on the line stops a line move or is passed over. Put in the record
    only when a shape moves along lines and the value is not the default, so
    every other rule set's record (and fingerprint) is unchanged. Blocking
    with cloaked spaces is refused: a move stopped by a piece the mover does
    not see is an attempt that reveals it, and attempts reveal only what is on
    a move's source and target."""
    value = raw.get("line_moves", LINE_READING_DEFAULT)
    if value not in LINE_READINGS:
        p.add("line_moves", f"{value!r} is not allowed (allowed: {_allowed(LINE_READINGS)})")
        return
    if not slides(rec):
        return
    if value != LINE_READING_DEFAULT:
        rec["line_moves"] = value
    cloaked = rec.get("cloaking", "none") != "none" and any(
        ph.get("cloaked") for ph in rec.get("phases") or []
    )
    if line_moves_blocked(rec) and cloaked:
        p.add(
            "line_moves",
            "'blocked-by-pieces' with cloaked spaces is not supported by this engine yet (a line "
            "move stopped by a piece the mover does not see would be an attempt revealing it) "
            "(allowed with cloaked spaces and a shape moving along lines: 'over-pieces')",
        )


def _check_hidden_turns(raw, rec, p: _Problems):
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


def _check_jumps(rec, p: _Problems):
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


def _check_start_position(rec, p: _Problems):
    occupied = {tuple(q["at"]): q["colour"] for q in rec["board"]["pieces"]}
    for check in rec["turn_checks"]:
        if check == GOAL_CHECK:  # no line to check
            continue
        k, _, diag = parse_check(check)
        if k < 2:
            continue  # any-piece-*: holds for an arriving piece, not for pre-placed ones
        runs = _longest_runs(rec["board"]["size"], occupied, diag)
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
            f"(allowed: {_allowed(shapes)})",
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
            p.add(field, f"unknown shape (allowed: {_allowed(SHAPES_ALL)})")
        elif key not in shapes:
            p.add(field, f"shape {key!r} has no entry in shapes (allowed: {_allowed(shapes)})")
        elif not _is_int(count) or not 0 <= count <= MAX_SPACES:
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

"""Compilation: a validated rule set into the flat integer tables the engine
(``_engine.pyx``) reads, and what OpenSpiel may truthfully claim about it.

Why a separate step: validation speaks the words of the tic-tac-toe
variations specification, the engine only
integers (the codes in ``codes.pxd``); keeping the translation here means the
engine never sees a string and validation never sees a cell index.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any, Protocol

from games.ttt.boards import _wide, widen
from games.ttt.codes import Measure, Stalemate
from games.ttt.deal import deal_tables, deals, dealt_to_hands, with_dealt_common
from games.ttt.schema import (
    ANY_ROW_STALEMATES,
    CASTLE_CHECK,
    CLOAK_CODES,
    CONDITION_CODES,
    EFFECT_ALL_LOSE,
    EN_PASSANT_CHECK,
    FOLD_CODES,
    GOAL_CHECK,
    LAST_PENTAGON_CHECK,
    LAST_ROW_STALEMATES,
    MOVE_CODES,
    ORDER_CODES,
    PALETTE,
    POWER_CODES,
    REINCARNATING,
    RESULT_CODES,
    ROOK_MOVE,
    ROUND_PLIES_DEFAULT,
    SHAPE_CHECKS,
    SHAPES_ALL,
    STALEMATE_CODES,
    STUCK_STALEMATES,
    VS_CHAOS_STALEMATES,
    can_move_backwards,
    castle_king,
    goal_sides,
    has_chains,
    has_jumps,
    has_powers,
    has_surrounds,
    line_moves_blocked,
    may_split_pot,
    measure_shape,
    names_replacement,
    needs_goals,
    parse_check,
    parse_stalemate,
    seat_index,
    seats_of,
    shaped,
    slides,
)
from games.ttt.spaces import lock_sets, on_board_groups, seat_lock_masks


class RuleSetLike(Protocol):
    """What compilation reads of a validated rule set (``games.ttt.ruleset.RuleSet``,
    whose ``compile`` calls this module, so it is not imported here): its record."""

    record: Mapping[str, Any]


def _symmetries(size, gravity, locked_sets, pieces, kind="squares"):
    """Index permutations of the cells under the box's symmetries (axis
    permutations and reflections that map the board onto itself; with gravity
    the height axis stays put) that also fix each set of locked spaces (the
    board's, each phase's) and the pre-placed pieces. Identity first,
    duplicates (from size-1 axes) dropped. On hexagons only those that keep
    every cell's six neighbours its neighbours (the half turn, and with
    x = y the two mirrors along the rhombus' diagonals); the box's
    symmetries keep a toroid's wrapping neighbours too. On tetrakis squares
    the square grid's symmetries, each triangle going with its side."""
    X, Y, Z = size
    cells = [(x, y, z) for z in range(Z) for y in range(Y) for x in range(X)]
    index = {c: i for i, c in enumerate(cells)}
    piece_map = dict(pieces)
    seen = set()
    perms = []
    for perm in itertools.permutations(range(3)):
        if any(size[perm[i]] != size[i] for i in range(3)):
            continue
        if gravity and perm[2] != 2:
            continue
        for flips in itertools.product((False, True), repeat=3):
            if gravity and flips[2]:
                continue
            mapping = []
            for c in cells:
                new = [c[perm[i]] for i in range(3)]
                new = [size[i] - 1 - v if flips[i] else v for i, v in enumerate(new)]
                mapping.append(index[tuple(new)])
            key = tuple(mapping)
            if key in seen:
                continue
            if any({mapping[index[c]] for c in ls} != {index[c] for c in ls} for ls in locked_sets):
                continue
            if kind == "hexagons" and not _keeps_hexagons(mapping, cells, index):
                continue
            if kind == "tetrakis":
                continue  # the box's maps move triangles about; _tetrakis_maps gives the tiling's
            if any(piece_map.get(cells[mapping[index[c]]]) != col for c, col in piece_map.items()):
                continue
            seen.add(key)
            perms.append(list(key))
    if kind == "tetrakis":
        for mapping in _tetrakis_maps(size, cells, index):
            key = tuple(mapping)
            if key in seen:
                continue
            if any({mapping[index[c]] for c in ls} != {index[c] for c in ls} for ls in locked_sets):
                continue
            if any(piece_map.get(cells[mapping[index[c]]]) != col for c, col in piece_map.items()):
                continue
            seen.add(key)
            perms.append(list(key))
    perms.sort(key=lambda m: m != list(range(len(cells))))
    return perms


#: a tetrakis square's triangles (z = 0 N, 1 E, 2 S, 3 W) by the side they lie on
TETRAKIS_SIDES = ((0, 1), (1, 0), (0, -1), (-1, 0))


def _tetrakis_maps(size, cells, index):
    """The square grid's mirrors and turns (x = y for the quarter turns and
    the diagonal mirrors) as maps of the triangles: a square goes where the
    grid's map sends it, and each triangle to the side its own side goes to."""
    X, Y, _ = size
    for swap in (False, True) if X == Y else (False,):
        for fx, fy in itertools.product((False, True), repeat=2):
            mapping = []
            for x, y, z in cells:
                (nx, ny), (sx, sy) = (X - 1 - x if fx else x, Y - 1 - y if fy else y), TETRAKIS_SIDES[z]
                side = (-sx if fx else sx, -sy if fy else sy)
                if swap:
                    nx, ny, side = ny, nx, (side[1], side[0])
                mapping.append(index[(nx, ny, TETRAKIS_SIDES.index(side))])
            yield mapping


#: the steps to a hexagon's six neighbours (axial x, y; docs/rules/ttt/boards.md)
HEX_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def _keeps_hexagons(mapping, cells, index) -> bool:
    """Whether a cell permutation maps every pair of neighbouring hexagons
    onto neighbouring hexagons."""
    for c in cells:
        for dx, dy in HEX_STEPS:
            n = index.get((c[0] + dx, c[1] + dy, c[2]))
            if n is None:
                continue
            a, b = cells[mapping[index[c]]], cells[mapping[n]]
            if (b[0] - a[0], b[1] - a[1]) not in HEX_STEPS:
                return False
    return True


def compile_rules(rs: RuleSetLike) -> dict:
    """Flat integer tables for the engine. Coordinates become 0-based cell
    indices ``x + X*(y + Y*z)``; on stacks a placement target is the stack
    ``x + X*y`` and z is the height."""
    r = with_dealt_common(rs.record)  # dealt common spaces: communal pieces dealt their shapes
    X, Y, Z = r["board"]["size"]
    gravity = r["board"]["kind"] == "stacks"
    n, chaos = seats_of(r["players"])
    seats = n + chaos
    mode = r["colours"]
    if mode == "assigned":
        colours = list(PALETTE[:seats])
    elif mode == "shared":
        colours = ["black"]
    elif mode == "partners-share":
        colours = ["black", "white"]
    else:
        used = set(r["reserves"]) | {q["colour"] for q in r["board"]["pieces"]}
        colours = [c for c in PALETTE if c in used]
    if mode != "players-choose":  # communal colours (owned by no seat) of pre-placed pieces
        colours += [
            c for c in PALETTE if c not in colours and any(q["colour"] == c for q in r["board"]["pieces"])
        ]
    C = len(colours)
    if mode == "assigned":
        masks = [1 << s for s in range(seats)]
    elif mode == "shared":
        masks = [1] * seats
    elif mode == "partners-share":
        masks = [1, 2, 1, 2]
    else:
        masks = [(1 << C) - 1] * seats
    sides = [s % 2 for s in range(4)] if r["players"] == "partners" else list(range(n))
    num_sides = max(sides) + 1
    if chaos:
        sides.append(num_sides)
    reserves = [sum(r["reserves"].get(c, {}).values()) for c in colours]  # every shape
    cell = lambda at: (at[0] - 1) + X * ((at[1] - 1) + Y * (at[2] - 1))
    locked = [cell(a) for a in r["board"]["locked"]]
    pieces = [(cell(q["at"]), colours.index(q["colour"])) for q in r["board"]["pieces"]]
    shape_move = _shape_move_code(r)
    phases = [_phase_table(ph, shape_move, seats, r["players"], cell) for ph in r["phases"]]
    move = shape_move if any(ph["move"] for ph in phases) else 0
    checks = [parse_check(c) for c in r["turn_checks"] if c not in SHAPE_CHECKS]  # goal, pentagons apart
    zero_based = lambda coords: {(a[0] - 1, a[1] - 1, a[2] - 1) for a in coords}
    sym_locked = [zero_based(r["board"]["locked"])] + [zero_based(ph["locked"]) for ph in r["phases"]]
    sym_locked += [zero_based(ph["cloaked"]) for ph in r["phases"]]  # cloaking
    sym_pieces = [
        ((q["at"][0] - 1, q["at"][1] - 1, q["at"][2] - 1), q["colour"]) for q in r["board"]["pieces"]
    ]
    sym_locked += lock_sets(r)  # spaces: per-player locks stay in place
    syms = _symmetries((X, Y, Z), gravity, sym_locked, sym_pieces, r["board"]["kind"])
    if r["board"].get("on_boards"):
        syms = syms[:1]  # per-board spaces: the boards differ, so no symmetry of one board is one of all
    simultaneous = any(ph["order"] != "sequential" for ph in r["phases"])
    if simultaneous or shaped(r):
        # the symmetries' hashes see colours only, not shapes;
        # pending plans are action ids, which a board symmetry would have to
        # map too; search over symmetries is for perfect-information games
        syms = syms[:1]
    S = X * Y * Z
    T = X * Y if gravity else S
    choices = C if mode == "players-choose" else 1
    passing = any(ph["pass"] for ph in phases)
    # Bound on the game's length for OpenSpiel: plies (placements, moves,
    # passes), then draw offers and answers on top. With passes, fewer than
    # ``seats`` passes precede each placement and each phase ends with at
    # most ``seats`` of them.
    capacity = S - len(locked) - len(pieces)
    if has_powers(r):
        # a cover lands on an occupied space, so the board's
        # room does not bound the placements; the reserves do (reincarnation
        # refills them, and validation then requires a move limit)
        capacity = sum(reserves) + dealt_to_hands(r)
    placements = min(capacity, sum(reserves) + dealt_to_hands(r))  # a deck: the dealt pieces too
    cloaking = _cloaking_code(r)
    if cloaking == CLOAK_CODES["hides"]:
        # cloaking: each attempt that only reveals shows its player at least
        # one piece it did not see, so at most n per piece ever on the board;
        # counted like placements (a turn that resets the passes)
        placements += n * (placements + len(pieces))
        placements += n * len(hidden_walls(r, phases, locked))  # an attempt may reveal a wall
    plies = placements if not passing else (placements + len(phases)) * seats
    if move:
        plies = r["move_limit"]
    elif r["move_limit"] is not None:
        plies = min(plies, r["move_limit"])
    boards = r.get("boards", 1)
    if boards > 1:  # boards: every board gives the same plies, reserves are shared
        capacity = boards * capacity
        placements = min(capacity, sum(reserves) + dealt_to_hands(r))
        if cloaking == CLOAK_CODES["hides"]:  # attempts on every board, as above
            placements += n * (placements + boards * len(pieces))
            placements += n * boards * len(hidden_walls(r, phases, locked))
        plies = placements if not passing else (placements + len(phases)) * seats
        if move:
            plies = r["move_limit"]
        elif r["move_limit"] is not None:
            plies = min(plies, r["move_limit"])
    if simultaneous:
        plies = _simultaneous_plies(r, phases, seats, move, reserves)
        plies += _cloaked_round_plies(r, cloaking, seats, move, reserves, pieces)
    if any(p.get("result") in REINCARNATING for p in r["shapes"].values()):
        # reincarnation refills reserves (validation requires the
        # limit); a round checks it after all its plans, overshooting by seats - 1
        plies = r["move_limit"] + (seats - 1 if simultaneous else 0)
    if may_split_pot(r):
        plies *= 2  # at most one pot's chance node per ply
    if has_chains(r):
        plies *= 2  # at most one "end-chain" decision per jump (a ply)
    length = plies
    if r["agree_draw"]:
        length += plies * n  # one offer and up to n-1 answers per turn
    length += deals(r)  # a deck: one chance node per dealt piece
    tables = {
        "size": [X, Y, Z],
        "gravity": gravity,
        # the neighbour tables' kind: "toroid" wraps, "hexagons" has six neighbours
        "board_kind": r["board"]["kind"]
        if r["board"]["kind"] in ("toroid", "hexagons", "tetrakis")
        else "box",
        "seats": seats,
        "num_players": n,
        "chaos": chaos,
        "num_colours": C,
        "colour_names": colours,
        "seat_colours": masks,
        "sides": sides,
        "reserves": reserves,
        "locked": locked,
        "pieces": pieces,
        "choices": choices,
        "move": move,
        # pieces stop line moves (docs/rules/ttt/shapes.md, "Pieces in the way")
        "line_blocked": slides(r) and line_moves_blocked(r),
        "pieces_per_turn": r["pieces_per_turn"],
        "pass": passing,
        "agree_draw": r["agree_draw"],
        "checks": checks,
        "stalemate": STALEMATE_CODES.get(r["stalemate"], -1),
        "move_limit": r["move_limit"] or 0,
        "symmetries": syms,
        "max_game_length": max(1, length),
        "targets": T,
        "phases": phases,
        # spaces: per phase, per cell, the seats locked out
        # of entering / leaving it; None when no space locks any seat
        "seat_locks": seat_lock_masks(r, cell, X * Y * Z),
        "simultaneous": simultaneous,
        "round_plies_planned": planned_together(r),
        "cloaking": cloaking,
        "hidden_turns": bool(r.get("cloaking_hides_turns", False)),  # kbeauty
        "hidden_walls": bool(r.get("cloaking_hides_walls", False)),
    }
    if tables["hidden_walls"]:
        # cloaking hides walls: the board's locked spaces are locked in every
        # phase, so every wall is one of the phase's locked cells, which each
        # view may hide (_cloaking.pxi, "Invisible walls"); surrounds, which
        # read the board's locks apart, are refused with hidden walls
        tables["locked"] = []
        for ph in phases:
            ph["locked"] = sorted(set(ph["locked"]) | set(locked))
    tables.update(_outcome_tables(r))
    if r["board"].get("on_boards"):  # per-board spaces (games/ttt/spaces.py), laid out by widen
        tables["on_boards"] = {
            "locked": [[cell(a) for a in on_board_groups(r, b, "locked")] for b in range(1, boards + 1)],
            "seat_locks": [seat_lock_masks(r, cell, X * Y * Z, b) for b in range(1, boards + 1)],
        }
    tables.update(_shape_tables(r, colours, cell, boards))
    tables.update(deal_tables(r, cell))  # a deck (docs/rules/ttt/deal.md)
    return widen(tables, boards)  # boards: several boards side by side (games/ttt/boards.py)


# The general scoring path: the stalemate rules the engine's
# original path scores, read as (kind, measure, most, wins).
_RANKED = {
    "in-a-row": int(Measure.MEASURE_RUN),
    "pieces": int(Measure.MEASURE_PIECES),
    "area": int(Measure.MEASURE_AREA),
}


def _outcome_tables(r) -> dict:
    """The outcome fields of the dilemmas for the engine. ``general_outcome``
    is False for every rule set the original scoring covers (the 16 catalogue
    games stay on it); otherwise the stalemate rule is read into a kind
    (draws, all-win, all-lose, ranked, vs-Chaos), a measure with its K or
    shape, which extreme (most/least) and which verdict (wins/loses)."""
    name = r["stalemate"]
    extreme, measure, verdict = parse_stalemate(name)
    # partners with assigned colours own two colours a side: "most-pieces-wins"
    # counts the side's pieces (both colours), which the general path does
    general = (
        name not in STALEMATE_CODES
        or r["overachievers_disqualified"]
        or bool(r["chaos_wins_if_more_than"])
        or (name == "most-pieces-wins" and r["players"] == "partners" and r["colours"] == "assigned")
    )
    out = {
        "general_outcome": general,
        "st_kind": STALEMATE_CODES.get(name, int(Stalemate.ST_RANKED)),
        "st_measure": 0,
        "st_k": 0,
        "st_shape": 0,
        "st_most": 1,
        "st_wins": 1,
        "vs_more_wins": False,
        "vs_fewer_loses": False,
        "chaos_more_than": [-1] * len(SHAPES_ALL),
        "overachievers": r["overachievers_disqualified"],
    }
    if name in ANY_ROW_STALEMATES:
        out["st_kind"] = int(Stalemate.ST_ANY_ROW)
        out["st_measure"] = int(Measure.MEASURE_WINDOWS)
        out["st_k"] = int(name.split("-")[1])
    elif name in STUCK_STALEMATES:
        out["st_kind"] = int(Stalemate.ST_STUCK)
        out["st_wins"] = name == "stalemate-wins"
    elif name in LAST_ROW_STALEMATES:
        out["st_kind"] = int(Stalemate.ST_LAST_ROW)
        out["st_k"] = int(name.split("-")[1])
        out["last_row_k"] = out["st_k"]
    elif extreme == "vs-chaos":
        out["st_kind"] = int(Stalemate.ST_VS_CHAOS)
        out["vs_more_wins"] = name != "fewer-pieces-than-chaos-loses"
        out["vs_fewer_loses"] = name != "more-pieces-than-chaos-wins"
    elif extreme:
        out["st_kind"] = int(Stalemate.ST_RANKED)
        out["st_most"] = extreme == "most"
        out["st_wins"] = verdict == "wins"
        shape = measure_shape(measure)
        if shape is not None:
            out["st_measure"] = int(Measure.MEASURE_SHAPE)
            out["st_shape"] = SHAPES_ALL.index(shape)
        elif measure in _RANKED:
            out["st_measure"] = _RANKED[measure]
        else:  # K-in-a-row
            out["st_measure"] = int(Measure.MEASURE_WINDOWS)
            out["st_k"] = int(measure.split("-")[0])
    for shape, count in r["chaos_wins_if_more_than"].items():
        out["chaos_more_than"][SHAPES_ALL.index(shape)] = count
    return out


def _simultaneous_plies(r, phases, seats: int, move: int, reserves) -> int:
    """Bound on the plies (every decision of a plan or a turn, passes
    included) of a rule set with a simultaneous or single phase.
    Collisions destroy pieces, so the board never fills up for sure; but
    every round that is not all passes spends at least one reserve piece
    (destroyed pieces stay spent), an all-pass round or a single phase's
    round ends its phase, and a round has at most ``seats`` plans. Sequential
    phases obey the same count. With movement the move limit is checked after
    each round, which may overshoot it by at most ``seats - 1`` plies."""
    if move:
        return r["move_limit"] + seats - 1
    if planned_together(r):  # a turn of two plies planned together spends one piece at least
        return (sum(reserves) + len(phases)) * seats * 2
    return (sum(reserves) + len(phases)) * seats


def planned_together(r) -> bool:
    """Whether a turn of two pieces in a simultaneous or single phase is
    planned together (docs/rules/ttt/rounds.md, "Two pieces a turn")."""
    return (
        r["pieces_per_turn"] == 2
        and any(ph["order"] != "sequential" for ph in r["phases"])
        and r.get("round_plies", ROUND_PLIES_DEFAULT) == "planned-together"
    )


def _cloaked_round_plies(r, cloaking: int, seats: int, move: int, reserves, pieces) -> int:
    """Extra plies a cloaked rule set with simultaneous phases may need: a
    round whose only non-pass plans are attempts spends no
    reserve piece, but each attempt shows its planner at least one piece it
    did not see (a piece, once seen, stays seen until destroyed), so there
    are at most n attempts per piece ever on the board, each in a round of at
    most ``seats`` plans. With movement the move limit bounds plies already.
    Pre-placed pieces repeat on every board (games/ttt/boards.py), so several
    boards hold ``boards`` copies of them."""
    if cloaking != CLOAK_CODES["hides"] or move:
        return 0
    n = seats_of(r["players"])[0]
    return n * (sum(reserves) + r.get("boards", 1) * len(pieces)) * seats


def _cloaking_code(r) -> int:
    """The engine's cloaking code: none unless some phase cloaks a space (a
    cloaking type with nothing cloaked hides nothing, so the rule set keeps
    perfect information and the engine's fast path)."""
    if not any(ph["cloaked"] for ph in r["phases"]):
        return CLOAK_CODES["none"]
    return CLOAK_CODES[r["cloaking"]]


def hidden_walls(r, phases, locked) -> list:
    """With ``cloaking_hides_walls``: per phase, the walls a seat may not
    see (spaces locked for every player, board or phase, and cloaked in
    that phase), as (phase, cell) pairs; empty otherwise."""
    if not r.get("cloaking_hides_walls", False):
        return []
    return [
        (i, c)
        for i, ph in enumerate(phases)
        for c in sorted(set(ph["locked"]) | set(locked))
        if c in ph["cloaked"]
    ]


def _phase_table(ph, shape_move: int, seats: int, players: str, cell) -> dict:
    """One phase for the engine: who plays (a seat bit mask), whether pieces
    move and passes are allowed, its locked cells, order and fold rule."""
    locked = {seat_index(s, players) for s in ph["locked_players"]}
    return {
        "order": ORDER_CODES[ph["order"]],
        "pass": ph["pass"],
        "move": 0 if ph["movement"] == "placement-only" else shape_move,
        "active": sum(1 << s for s in range(seats) if s not in locked),
        "locked": [cell(a) for a in ph["locked"]],
        "fold": FOLD_CODES[ph["fold"]],
        "cloaked": [cell(a) for a in ph["cloaked"]],
    }


def outcome_profile(rs: RuleSetLike) -> dict:
    """What OpenSpiel's GameType/GameInfo may truthfully say about this rule set:
    zero-sum only when exactly two sides play, no Chaos, and no rule makes
    everyone win or lose together."""
    r = rs.record
    n, chaos = seats_of(r["players"])
    two_sides = n == 2 or r["players"] == "partners"
    together = r["stalemate"] in ("all-win", "all-lose") + ANY_ROW_STALEMATES or any(
        parse_check(c)[1] == EFFECT_ALL_LOSE for c in r["turn_checks"] if c not in SHAPE_CHECKS
    )
    # "Chaos wins if ..." makes every player lose together
    together = together or bool(r["chaos_wins_if_more_than"]) or r["stalemate"] in VS_CHAOS_STALEMATES
    zero_sum = two_sides and not chaos and not together
    return {
        "zero_sum": zero_sum,
        "utility_sum": 0.0 if zero_sum else None,
        "min_utility": -1.0,
        "max_utility": 1.0,
        "num_players": n,
        "chance": bool(chaos) or may_split_pot(r) or "deck" in r,
    }  # the pot's chance node; a deck's deal


# -- shapes, ranks, movement and goals ------------------------------------------


def _shape_move_code(r) -> int:
    """The engine's one ``move`` code: the circle's move on the original path;
    on the shapes path only whether some shape moves (each shape's own move
    is in ``shape_moves``)."""
    if not shaped(r):
        return MOVE_CODES[r["shapes"]["circle"]["move"]]
    return MOVE_CODES["adjacent"] if any(s["move"] != "stationary" for s in r["shapes"].values()) else 0


def _shape_tables(r, colours, cell, boards: int) -> dict:
    """The shapes path's tables (``shaped`` False: the original path, nothing
    else). Shapes in play are listed in the specification's rank order (``SHAPES_ALL``);
    a placement names the shape's index in that list (docs/rules/ttt/shapes.md,
    "Action ids on the shapes path"). Pieces on the board carry the shape's index
    in ``SHAPES_ALL``. Goals: per non-Chaos seat (axis, high end), or none."""
    if not shaped(r):
        return {"shaped": False}
    names = [s for s in SHAPES_ALL if s in r["shapes"]]
    props = [r["shapes"][s] for s in names]
    size = r["board"]["size"]
    pieces = {}
    for q in r["board"]["pieces"]:
        c = cell(q["at"])
        for b in range(boards):
            pieces[_wide(c, b, size, boards) if boards > 1 else c] = SHAPES_ALL.index(q["shape"])
    goals = goal_sides(r["players"], size) if needs_goals(r) else []
    return {
        "shaped": True,
        "shape_count": len(names),
        "shape_names": names,
        "shape_global": [SHAPES_ALL.index(s) for s in names],
        "shape_moves": [MOVE_CODES[p["move"]] for p in props],
        # "cannot move backwards": marked so, or a forward-only move (the
        # "no back" moves hold their directions alone: _shapes.pxi)
        "shape_no_back": [names_replacement(p) for p in props],
        "replacers": [k for k, p in enumerate(props) if can_move_backwards(p)] if goals else [],
        "shape_reserves": [[r["reserves"].get(c, {}).get(s, 0) for s in names] for c in colours],
        "piece_shapes": sorted(pieces.items()),
        "goals": goals,
        "goal_check": GOAL_CHECK in r["turn_checks"],
        "last_pentagon": LAST_PENTAGON_CHECK in r["turn_checks"],
        "en_passant": EN_PASSANT_CHECK in r["turn_checks"],
        # "Castle": the king's local shape and which shapes are rooks
        "castle": CASTLE_CHECK in r["turn_checks"],
        "king": names.index(castle_king(r)) if CASTLE_CHECK in r["turn_checks"] else -1,
        "shape_rook": [p["move"] == ROOK_MOVE for p in props],
        # per shape its power, condition and result codes
        "powers": has_powers(r),
        "pots": may_split_pot(r),
        "shape_powers": [POWER_CODES[p["power"]] for p in props],
        "shape_conditions": [CONDITION_CODES[p.get("condition", "cover")] for p in props],
        "shape_results": [RESULT_CODES[p.get("result", "removes")] for p in props],
        "jumps": has_jumps(r),
        "chains": has_chains(r),
        # "Chain Jump (+ back)": the shape's jumps may go backwards
        "shape_jump_back": [
            p.get("power", "none") != "none" and p.get("condition") == "chain-jump-back" for p in props
        ],
        # approach-one: the shape's approach takes the adjacent piece only
        "shape_approach_one": [
            p.get("power", "none") != "none" and p.get("condition") == "approach-one" for p in props
        ],
        "surrounds": has_surrounds(r),
        # "Paralyzes captive(s)": the position keeps a paralysed flag per cell
        "paralyzes": any(p.get("power", "none") != "none" and p.get("result") == "paralyzes" for p in props),
    }

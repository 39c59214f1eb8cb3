"""Validation and compilation of the per-player space locks:
sticky and exclusive spaces, and entry/exit locks for specific players.

Why one representation for all of them: the tic-tac-toe variations
specification defines each in terms of the other ("“Sticky” spaces are
locked against exit; “exclusive” spaces are locked against entry or exit
(except by player(s) to whom they are exclusive)"), and the only thing play
needs is, per phase and space, which seats may not enter it and which may
not leave it. So validation keeps the author's words in the canonical form
(grouped, sorted, cells expanded) and the compiler folds them into two seat bit masks per cell and phase.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.ttt.schema import SEAT_LOCK_FIELDS, SPACE_GROUP_FIELDS, allowed_text, is_int, seat_index, seats_of


def seat_names(players) -> list:
    """The seat names of a players mode: 1..n, then "chaos" when Chaos plays."""
    n, chaos = seats_of(players)
    return list(range(1, n + 1)) + (["chaos"] if chaos else [])


def space_cells(p, field: str, value, size) -> list[tuple] | None:
    """The cells a space names: [x, y, z] is one cell, [x, y] every height of
    that column (a whole stack, as the specification's "first stack exclusive to black").
    None (with a problem added) when it is not a space on the board."""
    if not (isinstance(value, (list, tuple)) and len(value) in (2, 3) and all(is_int(v) for v in value)):
        p.add(
            field,
            f"{value!r} is not a space; write [x, y, z], or [x, y] for a whole stack/column, "
            "with 1-based integers",
        )
        return None
    if size is None:
        return None
    for axis, v, n in zip("xyz", value, size, strict=False):  # [x, y] names a whole stack
        if not 1 <= v <= n:
            p.add(field, f"{axis}={v} is off the board (allowed: 1..{n})")
            return None
    if len(value) == 3:
        return [tuple(value)]
    return [(value[0], value[1], z) for z in range(1, size[2] + 1)]


def _seats(p, field: str, raw, players) -> list:
    if not isinstance(raw, list) or not raw:
        p.add(field, "must be a non-empty list of seats (allowed items: 1..4, chaos)")
        return []
    if players is None:
        return []
    allowed = seat_names(players)
    out = []
    for j, seat in enumerate(raw):
        if isinstance(seat, bool) or seat not in allowed:
            p.add(
                f"{field}[{j}]",
                f"{seat!r} is not a seat of players={players!r} (allowed: {allowed_text(allowed)})",
            )
        elif seat in out:
            p.add(f"{field}[{j}]", f"{seat!r} is listed twice")
        else:
            out.append(seat)
    return sorted(out, key=allowed.index)


def _groups(p, field: str, raw, players, size, board_locked) -> dict[tuple, list]:
    """Parse a list of {"at": [spaces], "players": [seats]}; returns
    {cell: [seats]} (one entry per listed cell, problems added)."""
    out: dict[tuple, list] = {}
    if not isinstance(raw, list):
        p.add(field, 'must be a list of {"at": [spaces], "players": [seats]}')
        return out
    for i, group in enumerate(raw):
        gfield = f"{field}[{i}]"
        if not isinstance(group, Mapping):
            p.add(gfield, 'must be an object {"at": [spaces], "players": [seats]}')
            continue
        for key in group:
            if key not in SPACE_GROUP_FIELDS:
                p.add(f"{gfield}.{key}", f"unknown field (allowed: {allowed_text(SPACE_GROUP_FIELDS)})")
        seats = _seats(p, f"{gfield}.players", group.get("players"), players)
        at = group.get("at")
        if not isinstance(at, list) or not at:
            p.add(f"{gfield}.at", "must be a non-empty list of spaces [x, y, z] or [x, y]")
            continue
        for j, space in enumerate(at):
            cells = space_cells(p, f"{gfield}.at[{j}]", space, size)
            for c in cells or ():
                if c in board_locked:
                    p.add(
                        f"{gfield}.at[{j}]", f"{list(c)} is locked for the whole game already (board.locked)"
                    )
                elif c in out:
                    p.add(f"{gfield}.at[{j}]", f"{list(c)} is listed twice in {field}")
                else:
                    out[c] = seats
    return out


def canonical_groups(per_cell: Mapping[tuple, list], players) -> list[dict]:
    """{cell: seats} as sorted groups of cells sharing a seat set (one form
    for every way of writing the same locks)."""
    order = seat_names(players) if players else []
    by_seats: dict[tuple, list] = {}
    for cell, seats in per_cell.items():
        if seats:
            by_seats.setdefault(tuple(seats), []).append(list(cell))
    return [
        {"at": sorted(cells), "players": list(seats)}
        for seats, cells in sorted(by_seats.items(), key=lambda kv: [order.index(s) for s in kv[0]])
    ]


def board_spaces(p, board: Mapping, players, size, board_locked) -> dict:
    """The board's sticky, exclusive and per-player lock fields, checked and in
    canonical form."""
    out = {}
    sticky = []
    raw = board.get("sticky", [])
    if not isinstance(raw, list):
        p.add("board.sticky", "must be a list of spaces [x, y, z] or [x, y]")
        raw = []
    for j, space in enumerate(raw):
        for c in space_cells(p, f"board.sticky[{j}]", space, size) or ():
            if c in board_locked:
                p.add(f"board.sticky[{j}]", f"{list(c)} is locked for the whole game already (board.locked)")
            elif c in sticky:
                p.add(f"board.sticky[{j}]", f"{list(c)} is listed twice")
            else:
                sticky.append(c)
    out["sticky"] = sorted(list(c) for c in sticky)
    exclusive = _groups(p, "board.exclusive", board.get("exclusive", []), players, size, board_locked)
    if players is not None:
        everyone = seat_names(players)
        for cell, seats in exclusive.items():
            if len(seats) == len(everyone):
                p.add(
                    "board.exclusive",
                    f"{list(cell)} is exclusive to every seat, which locks nothing "
                    f"(allowed: a proper subset of {allowed_text(everyone)})",
                )
                break
    out["exclusive"] = canonical_groups(exclusive, players)
    for key in SEAT_LOCK_FIELDS:
        out[key] = canonical_groups(
            _groups(p, f"board.{key}", board.get(key, []), players, size, board_locked), players
        )
    return out


def phase_spaces(p, field: str, ph: Mapping, players, size, board_locked) -> dict:
    """A phase's per-player entry/exit locks ("The cloak and lock properties are
    the only ones that can be changed after phase 1")."""
    return {
        key: canonical_groups(
            _groups(p, f"{field}.{key}", ph.get(key, []), players, size, board_locked), players
        )
        for key in SEAT_LOCK_FIELDS
    }


def seat_lock_masks(
    record: Mapping, cell, num_cells: int, on_board: int | None = None
) -> tuple[list, list] | None:
    """Per phase, per cell: the bit mask of seats whose entry (first list) and
    exit (second) is locked, from board.sticky, board.exclusive,
    board.entry_locked/exit_locked and the phase's entry_locked/exit_locked.
    None when no rule locks any seat out of any space (the engine's fast path).
    With ``on_board`` (1-based), also that board's ``board.on_boards`` spaces."""
    players = record["players"]
    n, chaos = seats_of(players)
    every = (1 << (n + chaos)) - 1
    bits = lambda seats: sum(1 << seat_index(s, players) for s in seats)
    board = record["board"]
    extra = (lambda f: on_board_groups(record, on_board, f)) if on_board else (lambda f: [])
    entry0 = [0] * num_cells
    exit0 = [0] * num_cells
    for at in board.get("sticky", []) + extra("sticky"):
        exit0[cell(at)] |= every
    for group in board.get("exclusive", []) + extra("exclusive"):
        others = every & ~bits(group["players"])
        for at in group["at"]:
            entry0[cell(at)] |= others
            exit0[cell(at)] |= others
    for key, masks in (("entry_locked", entry0), ("exit_locked", exit0)):
        for group in board.get(key, []) + extra(key):
            for at in group["at"]:
                masks[cell(at)] |= bits(group["players"])
    entries, exits = [], []
    for ph in record["phases"]:
        entry, exit_ = list(entry0), list(exit0)
        for key, masks in (("entry_locked", entry), ("exit_locked", exit_)):
            for group in ph.get(key, []):
                for at in group["at"]:
                    masks[cell(at)] |= bits(group["players"])
        entries.append(entry)
        exits.append(exit_)
    if not any(any(m) for m in entries) and not any(any(m) for m in exits):
        return None
    return entries, exits


def lock_sets(record: Mapping) -> list[set]:
    """Sets of 0-based cells that a board symmetry must map onto themselves so
    that the per-player locks stay where they are."""
    zero = lambda at: (at[0] - 1, at[1] - 1, at[2] - 1)
    board = record["board"]
    sets = [{zero(a) for a in board.get("sticky", [])}]
    groups = list(board.get("exclusive", []))
    for key in SEAT_LOCK_FIELDS:
        groups += [dict(g, kind=key) for g in board.get(key, [])]
        for ph in record["phases"]:
            groups += [dict(g, kind=key) for g in ph.get(key, [])]
    sets += [{zero(a) for a in g["at"]} for g in groups]
    return [s for s in sets if s]


# -- per-board space properties (BoS, 3P-BoS) -----------------------------------
#
# ``board.on_boards``: a list of {"boards": [b, ...], FIELD: ...} with FIELD one
# of ON_BOARDS_FIELDS, written exactly as the board's own field of that name;
# an entry adds its spaces on the listed boards (1-based) only. The specification's BoS:
# "(2,1) of 1 and (2,2) of 2 exclusive to chaos, and remaining spaces are
# locked". The board's own fields still apply to every board. Canonical form:
# what ends up the same on every board is written in the board's own fields,
# the rest per board, boards with identical rest in one entry (sorted), so
# every way of writing the same spaces gives one form and one fingerprint.

ON_BOARDS_FIELDS = ("locked", "sticky", "exclusive", "entry_locked", "exit_locked")
_CELL_FIELDS = ("locked", "sticky")  # a list of spaces; the others are seat groups


def _cells_list(p, field: str, raw, size) -> list[tuple]:
    if not isinstance(raw, list):
        p.add(field, "must be a list of spaces [x, y, z] or [x, y]")
        return []
    out = []
    for j, space in enumerate(raw):
        out += space_cells(p, f"{field}[{j}]", space, size) or []
    return out


def on_boards(p, board: Mapping, players, size, boards, common: Mapping) -> tuple[dict, list]:
    """Check ``board.on_boards`` against the board's own (already canonical)
    ``common`` fields; returns (the board's fields rewritten, the canonical
    on_boards list). ``boards`` is the rule set's number of boards."""
    raw = board.get("on_boards", [])
    if raw == []:
        return {}, []
    if not isinstance(raw, list):
        p.add(
            "board.on_boards",
            'must be a list of {"boards": [b, ...], "locked"/"sticky"/"exclusive"/'
            '"entry_locked"/"exit_locked": ...}',
        )
        return {}, []
    if not (isinstance(boards, int) and not isinstance(boards, bool) and boards in (2, 3)):
        p.add(
            "board.on_boards",
            f"names boards, but the rule set has boards={boards!r} (allowed with one "
            "board: an empty list; write the spaces in the board's own fields)",
        )
        return {}, []
    # per board, per field: {cell: value}; value True for cells, a seat tuple for groups
    per = {b: {f: {} for f in ON_BOARDS_FIELDS} for b in range(1, boards + 1)}
    pieces = {tuple(q["at"]) for q in common.get("pieces", [])}
    for f in ON_BOARDS_FIELDS:
        if f in _CELL_FIELDS:
            items = {tuple(c): True for c in common.get(f, [])}
        else:
            items = {tuple(c): tuple(g["players"]) for g in common.get(f, []) for c in g["at"]}
        for b in per:
            per[b][f].update(items)
    for i, entry in enumerate(raw):
        field = f"board.on_boards[{i}]"
        if not isinstance(entry, Mapping):
            p.add(field, 'must be an object {"boards": [b, ...], ...}')
            continue
        for key in entry:
            if key != "boards" and key not in ON_BOARDS_FIELDS:
                p.add(f"{field}.{key}", f"unknown field (allowed: boards, {allowed_text(ON_BOARDS_FIELDS)})")
        which = entry.get("boards")
        if not (isinstance(which, list) and which and all(is_int(b) for b in which)):
            p.add(
                f"{field}.boards", f"must be a non-empty list of board numbers (allowed items: 1..{boards})"
            )
            continue
        bad = [b for b in which if not 1 <= b <= boards]
        if bad or len(set(which)) != len(which):
            p.add(
                f"{field}.boards", f"{which!r} is not a list of distinct boards (allowed items: 1..{boards})"
            )
            continue
        for f in ON_BOARDS_FIELDS:
            if f not in entry:
                continue
            ffield = f"{field}.{f}"
            if f in _CELL_FIELDS:
                got = {c: True for c in _cells_list(p, ffield, entry[f], size)}
            else:
                got = {c: tuple(s) for c, s in _groups(p, ffield, entry[f], players, size, set()).items()}
            for c, value in got.items():
                for b in which:
                    if c in per[b][f]:
                        p.add(
                            ffield, f"{list(c)} is listed twice for board {b} (in board.{f} or another entry)"
                        )
                    elif f == "locked" and c in pieces:
                        p.add(ffield, f"{list(c)} holds a pre-placed piece (board.pieces)")
                    elif f != "locked" and c in per[b]["locked"]:
                        p.add(ffield, f"{list(c)} is locked on board {b} already")
                    else:
                        per[b][f][c] = value
    for b in per:  # a per-board lock may come after a space property of the same cell
        for f in ON_BOARDS_FIELDS[1:]:
            for c in per[b][f]:
                if c in per[b]["locked"]:
                    p.add("board.on_boards", f"{list(c)} is locked on board {b} and also in {f}")
        if players is not None:
            every = len(seat_names(players))
            for c, seats in per[b]["exclusive"].items():
                if len(seats) == every:
                    p.add(
                        "board.on_boards",
                        f"{list(c)} is exclusive to every seat on board {b}, which locks nothing",
                    )
    common_new = {
        f: {c: v for c, v in per[1][f].items() if all(per[b][f].get(c) == v for b in per)}
        for f in ON_BOARDS_FIELDS
    }
    rest = {
        b: {f: {c: v for c, v in per[b][f].items() if c not in common_new[f]} for f in ON_BOARDS_FIELDS}
        for b in per
    }

    def written(items: Mapping[str, dict]) -> dict:
        out = {}
        for f, cells in items.items():
            if f in _CELL_FIELDS:
                value = sorted(list(c) for c in cells)
            else:
                value = canonical_groups({c: list(s) for c, s in cells.items()}, players)
            if value or f == "locked":
                out[f] = value
        return out

    entries: dict[str, dict] = {}
    for b in per:
        body = {k: v for k, v in written(rest[b]).items() if v}
        if body:
            key = repr(sorted(body.items()))
            entries.setdefault(key, {"boards": [], **body})["boards"].append(b)
    canonical = sorted(entries.values(), key=lambda e: e["boards"])
    return written(common_new), canonical


def on_board_groups(record: Mapping, board: int, field: str) -> list:
    """The ``board.on_boards`` groups (or cells) of ``field`` that apply on
    ``board`` (1-based)."""
    out = []
    for entry in record["board"].get("on_boards", []):
        if board in entry["boards"]:
            out += entry.get(field, [])
    return out

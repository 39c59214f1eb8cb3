"""Warnings about a rule set the engine accepts but a person would not mean:
a win or loss that cannot happen on its board (a 4x4 board whose only win
is 5 in a row). Such a rule set is valid and is saved; the Factory and the
rule set's page say why it will not play as it reads.

Why apart from validation: validation refuses what the engine cannot play;
these rule sets play (every game ends by its stalemate rule), so refusing
them would refuse legal rules. Only what is certain from the board alone is
said: no line of N spaces fits when N exceeds the board's longest side (its
lines run along the axes and diagonals of a box, or the three directions of
hexagons); Tetrakis squares and the toroid are left out (their lines are not
bounded so simply).

A line also needs its pieces: a line of N is of one colour, so it cannot
happen when no colour ever has N pieces on the board, counting a colour's
reserves and its pre-placed pieces. That bound holds only while nothing
brings pieces back or makes new ones of a colour, so it is used only for a
full (validated) record whose shapes all stay where they are placed and
have no power (a capture may return, convert or reincarnate pieces), with
no deck and no dealt spaces (dealing hands out pieces the reserves do not
count); otherwise it is not judged.
"""

from __future__ import annotations

import re

_ROW = re.compile(r"^(?:first|all-lose-if-any|any|last|most|least)-(\d+)-")
_ROW_ANY = re.compile(r"^all-lose-if-any-(\d+)$")
KINDS = ("squares", "hash", "vertices", "stacks", "hexagons")


def _length(rule: str) -> int | None:
    """N of a rule about lines of N ("first-5-wins", "most-2-in-a-row-wins")."""
    m = _ROW.match(rule) or _ROW_ANY.match(rule)
    return int(m.group(1)) if m else None


def longest_line(board: dict) -> int | None:
    """The most spaces a straight line holds on ``board`` (a record's
    ``board``), or None for a kind whose lines are not bounded by its sides."""
    if board.get("kind") not in KINDS:
        return None
    x, y, z = (list(board.get("size", [])) + [1, 1, 1])[:3]
    return max(x, y) if board["kind"] == "hexagons" else max(x, y, z)


def most_pieces_of_a_colour(record: dict) -> int | None:
    """The most pieces one colour can ever have on the board of ``record`` (a
    validated rule set's record, ``RuleSet.record``): its reserves and
    pre-placed pieces, the largest over the colours; None where pieces can move
    or be made (a shape that moves or captures, a deck, dealt spaces) or the
    record is not a full one."""
    shapes, reserves, board = record.get("shapes"), record.get("reserves"), record.get("board")
    if not (isinstance(shapes, dict) and isinstance(reserves, dict) and isinstance(board, dict)):
        return None
    if record.get("deck") or board.get("dealt") or board.get("on_boards"):
        return None
    for shape in shapes.values():
        if shape.get("move") != "stationary" or shape.get("power", "none") != "none":
            return None
    count: dict[str, int] = {}
    for colour, by_shape in reserves.items():
        if not isinstance(by_shape, dict):
            return None
        count[colour] = count.get(colour, 0) + sum(by_shape.values())
    for piece in board.get("pieces") or []:
        count[piece["colour"]] = count.get(piece["colour"], 0) + 1
    return max(count.values(), default=0)


def impossible_rules(record: dict) -> list[tuple[str, str, str]]:
    """(field, rule, why) for each turn check and the stalemate rule whose
    line of N cannot fit on the board, or needs more pieces of one colour than
    there ever are (``most_pieces_of_a_colour``): [] when every one can happen
    or the record is not one this can judge."""
    board = record.get("board")
    longest = longest_line(board) if isinstance(board, dict) else None
    if longest is None:
        return []
    size = "x".join(str(v) for v in (list(board.get("size", [])) + [1, 1, 1])[:3])
    pieces = most_pieces_of_a_colour(record)
    out = []
    checks = record.get("turn_checks") or []
    rules = [(f"turn_checks[{i}]", c) for i, c in enumerate(checks)]
    rules.append(("stalemate", record.get("stalemate")))
    for field, rule in rules:
        n = _length(rule) if isinstance(rule, str) else None
        if n is not None and n > longest:
            why = f"no line of {n} fits on a {size} board (its longest line has {longest} spaces)"
            out.append((field, rule, why))
        elif n is not None and pieces is not None and n > pieces:
            why = (
                f"a line of {n} needs {n} pieces of one colour, and no colour ever has more than "
                f"{pieces} on the board (reserves and pre-placed pieces; no piece moves, captures "
                "or is dealt)"
            )
            out.append((field, rule, why))
    return out

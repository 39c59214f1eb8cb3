"""The leaderboard's "Related games" (the tic-tac-toe variations
specification's leaderboard page): the saved rule sets nearest to one.

Distance: each rule set resolved by validation (``extends`` merged, defaults
written, spaces in canonical order) and flattened to its fields, a field being
a path to a value that is not an object (``board.size``, ``shapes.circle.move``,
``turn_checks``, ``reserves.black.circle``); the distance is the number of
fields whose values differ, a field only one of the two has counting as
different. Name and notes are not rules and are left out. Ties go to the rule
set played on the same board (kind and size), then by name: Tic-Tac-Toe's
neighbours at five fields are 3P-Notakto (same 3x3 hash board) before Connect4.
Game strings (the Y family, OpenSpiel's games) are not rule sets and have none.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

from games.ttt import rules as ttt_rules
from registry.store import Registry

SHOWN = 5
NOT_RULES = ("name", "notes")


def _flat(value, path: str = "") -> dict[str, str]:
    if isinstance(value, dict):
        out: dict[str, str] = {}
        for key, item in value.items():
            out.update(_flat(item, f"{path}.{key}" if path else key))
        return out
    return {path: json.dumps(value, sort_keys=True)}


@lru_cache(maxsize=4096)
def fields_of(text: str) -> dict[str, str] | None:
    """The fields of a stored rule set's text (None if validation refuses it)."""
    try:
        record = ttt_rules.parse(json.loads(text), "related").to_json()
    except (ttt_rules.RuleSetError, ValueError):
        return None
    for key in NOT_RULES:
        record.pop(key, None)
    return _flat(record)


@dataclass(frozen=True)
class Related:
    name: str
    distance: int
    same_board: bool
    differing: tuple[str, ...]


def _board(fields: dict[str, str]) -> tuple:
    return fields.get("board.kind"), fields.get("board.size")


def related_games(reg: Registry, name: str, shown: int = SHOWN) -> list[Related] | None:
    """The ``shown`` saved rule sets nearest to ``name``, nearest first; None
    when ``name`` is not a rule set (a game string)."""
    rows = reg.query("SELECT name, text FROM rule_sets WHERE game_string IS NULL")
    texts = dict(rows)
    if name not in texts or fields_of(texts[name]) is None:
        return None
    mine = fields_of(texts[name])
    out = []
    for other, text in texts.items():
        theirs = fields_of(text) if other != name else None
        if theirs is None:
            continue
        differing = tuple(sorted(k for k in mine.keys() | theirs.keys() if mine.get(k) != theirs.get(k)))
        out.append(Related(other, len(differing), _board(mine) == _board(theirs), differing))
    out.sort(key=lambda r: (r.distance, not r.same_board, r.name))
    return out[:shown]

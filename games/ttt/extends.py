"""``extends``: a rule set written as another named rule set plus what differs.

Why: the tic-tac-toe variations specification writes several dilemmas as
"Like NeedyTrust, but ..." or "Same as PrisonerDilemma, but with Option to
Agree Draw"; copying the parent would
let the two drift apart when the parent is corrected. So a rule set may say
``"extends": "NeedyTrust"`` and give only the fields that differ. The result
is resolved *before* validation into one ordinary rule set: the canonical
form and the fingerprint are those of the resolved rules (a child that
changes nothing is a duplicate of its parent except for the name), and the
engine never sees ``extends``.

Merge semantics (docs/rules/ttt/schema.md, "Extends"), child over parent:
- objects merge key by key, recursively (``{"reserves": {"black": {"circle": 4}}}``
  changes one count and keeps the parent's other colours and shapes);
- any other value, lists included, replaces the parent's value whole (a
  child's ``phases`` or ``board.pieces`` is the complete list);
- ``null`` removes the key, so the field takes its default (how a child
  drops a reserve, ``{"reserves": {"white": {"x": null}}}``, or every
  pre-placed piece, ``{"board": {"pieces": null}}``);
- ``name`` and ``notes`` are never inherited: they describe the child;
- the parent is a catalogue name (or a name of an attached registry source),
  never a path, so a rule set means the same wherever it is read; a parent
  may itself extend another (at most ``MAX_CHAIN`` deep), a cycle is refused.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from games.ttt.schema import RuleSetError
from games.ttt.sources import CATALOGUE, named_text

MAX_CHAIN = 8
NOT_INHERITED = ("name", "notes")

#: lookup(name) -> (json text, origin for messages) or None when no source holds it.
Lookup = Callable[[str], "tuple[str, str] | None"]


def merge(parent: Mapping[str, Any], child: Mapping[str, Any]) -> dict:
    """``child`` over ``parent`` by the rules above (pure; inputs unchanged)."""
    out = {k: v for k, v in parent.items()}
    for key, value in child.items():
        if value is None:
            out.pop(key, None)
        elif isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merge(out[key], value)
        else:
            out[key] = _strip_nulls(value)
    return out


def _strip_nulls(value):
    """A value the parent did not have: its nulls remove nothing, so drop them."""
    if isinstance(value, Mapping):
        return {k: _strip_nulls(v) for k, v in value.items() if v is not None}
    return value


def _known_names() -> str:
    return ", ".join(CATALOGUE.names())


def resolve_extends(raw: Any, source: str, lookup: Lookup | None = None, _chain: tuple[str, ...] = ()) -> Any:
    """The rule set ``raw`` (decoded JSON, read from ``source``) with its
    ``extends`` chain merged in; ``raw`` itself when it extends nothing.
    Problems raise ``RuleSetError`` naming ``source`` (and the parent's file
    when the parent is what is wrong)."""
    if not isinstance(raw, Mapping) or "extends" not in raw:
        return raw
    lookup = lookup or named_text
    parent_name = raw["extends"]
    if not isinstance(parent_name, str) or not parent_name:
        raise RuleSetError(
            [
                f"extends: {parent_name!r} is not a rule-set name (allowed: a catalogue "
                f"name such as {_known_names().split(', ')[0]})"
            ],
            source,
        )
    chain = _chain + (str(raw.get("name")),)
    if parent_name in chain:
        raise RuleSetError(
            [
                f"extends: cycle {' -> '.join(chain + (parent_name,))} (a rule set "
                "cannot extend itself, directly or through others)"
            ],
            source,
        )
    if len(chain) > MAX_CHAIN:
        raise RuleSetError(
            [
                f"extends: chain {' -> '.join(chain + (parent_name,))} is longer than "
                f"{MAX_CHAIN} (allowed: at most {MAX_CHAIN} levels)"
            ],
            source,
        )
    found = lookup(parent_name)
    if found is None:
        raise RuleSetError(
            [f"extends: {parent_name!r} is not a catalogue rule set (allowed: {_known_names()})"], source
        )
    text, origin = found
    try:
        parent = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as e:
        raise RuleSetError(
            [f"extends: the parent {parent_name!r} ({origin}) is not valid JSON: {e}"], source
        ) from None
    if isinstance(parent, Mapping) and parent.get("name") != parent_name:
        raise RuleSetError([f"extends: {origin} holds {parent.get('name')!r}, not {parent_name!r}"], source)
    try:
        parent = resolve_extends(parent, origin, lookup, chain)
    except RuleSetError as e:
        raise RuleSetError(
            [f"extends: the parent {parent_name!r} cannot be resolved: {q}" for q in e.problems], source
        ) from None
    if not isinstance(parent, Mapping):
        raise RuleSetError([f"extends: the parent {parent_name!r} ({origin}) is not a JSON object"], source)
    inherited = {k: v for k, v in parent.items() if k not in NOT_INHERITED}
    child = {k: v for k, v in raw.items() if k != "extends"}
    return merge(inherited, child)

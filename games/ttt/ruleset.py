"""``RuleSet``: a validated rule set, compared by its canonical form.

Why equality ignores the name: the registry of the tic-tac-toe variations
specification refuses a rule set that is
identical to a saved one except for its name, and records of played games
must say exactly which rules were played. Both need one text per game, the
canonical form (every default filled in, name and notes removed, lists
sorted where order does not matter), and one short digest of it, the
fingerprint. Only ``validation.parse`` builds a ``RuleSet``.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import hashlib
import json
from collections.abc import Mapping
from typing import Any

from games.ttt.compiler import compile_rules
from games.ttt.schema import seats_of


def canonical_json(record: Mapping[str, Any]) -> str:
    return json.dumps(record, sort_keys=True, separators=(",", ":"))


@dataclasses.dataclass(frozen=True, eq=False)
class RuleSet:
    """A validated rule set. Equality and hashing use the canonical form, so two
    rule sets that differ only by name (or notes) are equal."""

    name: str
    record: Mapping[str, Any]
    notes: str = ""

    @functools.cached_property
    def canonical(self) -> str:
        # Kept once made: equality, hashing, caches and every recorded game
        # ask for it, and a rule set is never changed after validation.
        return canonical_json(self.record)

    @functools.cached_property
    def fingerprint(self) -> str:
        return hashlib.sha256(self.canonical.encode()).hexdigest()[:16]

    def __eq__(self, other):
        return isinstance(other, RuleSet) and self.canonical == other.canonical

    def __hash__(self):
        return hash(self.canonical)

    def to_json(self) -> dict:
        out = {"name": self.name}
        if self.notes:
            out["notes"] = self.notes
        out.update(copy.deepcopy(dict(self.record)))
        return out

    @property
    def num_players(self) -> int:
        return seats_of(self.record["players"])[0]

    @property
    def chaos(self) -> bool:
        return seats_of(self.record["players"])[1]

    @property
    def seconds_per_turn(self):
        return self.record["seconds_per_turn"]

    def compile(self) -> dict:
        return compile_rules(self)

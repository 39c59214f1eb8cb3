"""Saved rule sets: save, copy, admin-only rename, list, "show all creations",
and the database as a ``RuleSetSource`` so saved names load as ``ttt(rules=NAME)``.

Why uniqueness is the canonical form and not the text: the tic-tac-toe variations specification refuses "a new
rule set [...] if another identical rule set (except name) has already been
saved"; two JSON texts can differ in key order, defaults and notes and still be
the same game. ``games.ttt``'s ``RuleSet.canonical`` is that form; the table
keeps it in a UNIQUE column, so even two processes racing cannot both save it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from games.ttt import rules as ttt_rules
from registry import names
from registry.errors import RegistryError
from registry.store import Registry, now
from registry.store import detach as detach  # attach's undoing, which closing a registry does too
from registry.users import CREATOR_QUOTA, quota_left

#: The longest notes a saved rule set may have (they are shown to everyone who
#: opens it; the catalogue's longest are under 1,000 characters). Checked when a
#: rule set is saved, not when one is read, so nothing stored becomes unreadable.
MAX_NOTES = 10_000


def parse_rule_set(rules: ttt_rules.RuleSet | Mapping[str, Any] | str) -> ttt_rules.RuleSet:
    """A validated rule set from a ``RuleSet``, a decoded JSON object or JSON text;
    every validation problem becomes one ``RegistryError``."""
    try:
        if isinstance(rules, ttt_rules.RuleSet):
            return rules
        if isinstance(rules, str):
            return ttt_rules.parse_text(rules, "rule set")
        if isinstance(rules, Mapping):
            return ttt_rules.parse(rules, "rule set")
    except ttt_rules.RuleSetError as e:
        raise RegistryError(str(e)) from None
    raise RegistryError(f"a rule set must be JSON text or an object, got {type(rules).__name__}")


def _check_readable(name: str, field: str = "name") -> None:
    """A saved name is in NFKC form, with no invisible character nor letters
    of two scripts (registry/names.py): no rule set can pass for another."""
    problem = names.name_problem(names.normal_name(name))
    if problem:
        raise RegistryError(f"{field}: {problem}")
    if names.normal_name(name) != name:
        raise RegistryError(
            f"{field}: {name!r} is not in Unicode's NFKC form; write it as {names.normal_name(name)!r}"
        )


def _check_name_free(reg: Registry, name: str) -> None:
    if name in ttt_rules.CATALOGUE or reg.one("SELECT 1 FROM rule_sets WHERE name = ?", (name,)):
        raise RegistryError(f"a rule set called {name!r} is already saved; choose another name")


def save_rule_set(reg: Registry, user: str, rules) -> str:
    """Save a new rule set created by ``user``; its name. Refused (nothing saved)
    when invalid, when the name is taken, when an identical rule set (except name
    and notes) is saved, or when a Creator has used the quota."""
    rs = parse_rule_set(rules)
    _check_readable(rs.name)
    notes = rs.notes or ""
    if len(notes) > MAX_NOTES:
        raise RegistryError(f"notes: {len(notes):,} characters (allowed: at most {MAX_NOTES:,})")
    with reg.transaction():
        uid, _ = reg.user_id(user)
        left = quota_left(reg, user)
        if left == 0:
            raise RegistryError(
                f"{user} is a Creator and has already saved {CREATOR_QUOTA} rule "
                "sets (the Creator quota); a Trainer or Admin may save more"
            )
        _check_name_free(reg, rs.name)
        same = reg.one("SELECT name FROM rule_sets WHERE canonical = ?", (rs.canonical,))
        if same:
            raise RegistryError(
                f"rule set {rs.name!r} is identical to the saved {same[0]!r} "
                "except for its name; change a rule to save it"
            )
        reg.db.execute(
            "INSERT INTO rule_sets (name, canonical, fingerprint, text, creator_id, "
            "created) VALUES (?, ?, ?, ?, ?, ?)",
            (rs.name, rs.canonical, rs.fingerprint, ttt_rules.canonical_json(rs.to_json()), uid, now()),
        )
    return rs.name


def rename_rule_set(reg: Registry, user: str, old: str, new: str) -> None:
    """Rename a saved rule set (the tic-tac-toe variations specification: only the name
    can change, only by an Admin). Catalogue rule sets keep their names: they are also
    files of games/ttt/catalogue."""
    problem = ttt_rules.name_problem(new)
    if problem:
        raise RegistryError(f"new name: {problem}")
    _check_readable(new, "new name")
    with reg.transaction():
        _, role = reg.user_id(user)
        if role != "admin":
            raise RegistryError(f"only an Admin may rename a rule set; {user} is a {role.title()}")
        rid = reg.rule_set_id(old)
        creator, text, game_string = reg.one(
            "SELECT creator_id, text, game_string FROM rule_sets WHERE id = ?", (rid,)
        )
        if game_string is not None:
            raise RegistryError(f"{old!r} is a game named by its OpenSpiel game string; its name is the game")
        if creator is None:
            raise RegistryError(
                f"{old!r} is a catalogue rule set (games/ttt/catalogue); its name cannot change"
            )
        _check_name_free(reg, new)
        record = json.loads(text)
        record["name"] = new
        reg.db.execute(
            "UPDATE rule_sets SET name = ?, text = ? WHERE id = ?",
            (new, ttt_rules.canonical_json(record), rid),
        )


def rule_set_json(reg: Registry, name: str) -> dict:
    """The saved rule set ``name`` as its JSON object."""
    text, game_string = reg.one(
        "SELECT text, game_string FROM rule_sets WHERE id = ?", (reg.rule_set_id(name),)
    )
    if game_string is not None:
        raise RegistryError(f"{name!r} is a game named by its OpenSpiel game string, not a rule set")
    return json.loads(text)


def copy_rule_set(reg: Registry, user: str, name: str, new_name: str | None = None) -> dict:
    """A new, unsaved rule set prefilled from the saved ``name`` (the tic-tac-toe
    variations specification's "Copy"; offered to a Creator only while the quota
    lasts). Name: ``new_name`` or NAME-copy."""
    if quota_left(reg, user) == 0:
        raise RegistryError(f"{user} has used the Creator quota ({CREATOR_QUOTA}); a copy could not be saved")
    record = rule_set_json(reg, name)
    record["name"] = new_name or f"{name}-copy"
    return record


def list_rule_sets(reg: Registry, creator: str | None = None) -> list[dict]:
    """Every saved rule set (or ``creator``'s: "show all creations"), by name."""
    sql = (
        "SELECT r.name, r.fingerprint, u.name, r.created, p.name FROM rule_sets r "
        "LEFT JOIN users u ON u.id = r.creator_id "
        "LEFT JOIN players p ON p.id = r.standard_player_id WHERE r.game_string IS NULL"
    )
    args: tuple = ()
    if creator is not None:
        sql += " AND r.creator_id = ?"
        args = (reg.user_id(creator)[0],)
    return [
        {"name": n, "fingerprint": f, "creator": c, "created": t, "standard_player": sp}
        for n, f, c, t, sp in reg.query(sql + " ORDER BY r.name", args)
    ]


def creations(reg: Registry, creator: str) -> list[dict]:
    """The tic-tac-toe variations specification's "Show All Creations": the rule sets ``creator`` saved."""
    return list_rule_sets(reg, creator)


class RegistrySource(ttt_rules.RuleSetSource):
    """The saved rule sets of one registry database, read now on every call."""

    def __init__(self, reg: Registry):
        self.reg = reg

    def names(self) -> list[str]:
        return [
            r[0] for r in self.reg.query("SELECT name FROM rule_sets WHERE game_string IS NULL ORDER BY name")
        ]

    def __contains__(self, name) -> bool:
        return (
            isinstance(name, str)
            and self.reg.one("SELECT 1 FROM rule_sets WHERE name = ? AND game_string IS NULL", (name,))
            is not None
        )

    def read(self, name: str) -> str | None:
        row = self.reg.one("SELECT text FROM rule_sets WHERE name = ? AND game_string IS NULL", (name,))
        return row[0] if row else None

    def origin(self, name: str) -> str:
        return f"{self.reg.path}:{name}"


def attach(reg: Registry) -> RegistrySource:
    """Make ``reg``'s saved names loadable as ``ttt(rules=NAME)`` in this process."""
    source = getattr(reg, "_source", None)
    if source is None:
        source = reg._source = RegistrySource(reg)
    ttt_rules.add_source(source)
    return source

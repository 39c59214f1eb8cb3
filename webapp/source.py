"""Saved rule sets as ``ttt(rules=NAME)`` for every thread of the server, and
as ``ttt(rules=*ID-FINGERPRINT)`` for the games being played.

Why not ``registry.rulesets.attach``: that source reads through one registry's
connection, which SQLite lets only its own thread use, while the server answers
each request on its own thread. This source opens a short read-only connection
for each lookup instead.

Why games in progress name their rule set by identity: an Admin may rename a
saved rule set, and another rule set may then be saved under the old name. A
game that named its rules ``ttt(rules=NAME)`` then failed to load (its page a
500, after a restart every time) or, worse, loaded the other rules in one
server process while another still had the old ones. ``*ID-FINGERPRINT`` is
the row's id and its content's fingerprint, neither of which a rename changes;
``*`` is a character no rule-set name may hold, so no name is ever read as an
identity (and the web app refuses identities in game strings it is sent).
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pyspiel

from games.ttt import rules as ttt_rules

_ATTACHED: dict[str, DatabaseSource] = {}
_IDENTITY = re.compile(r"^\*(\d+)-([0-9a-f]+)$")


def identity_key(rule_set_id: int, fingerprint: str) -> str:
    """How a game names the saved rule set ``rule_set_id`` of ``fingerprint``."""
    return f"*{rule_set_id}-{fingerprint}"


def parse_identity(key) -> tuple[int, str] | None:
    """(id, fingerprint) of an identity key; None for anything else (a name)."""
    m = _IDENTITY.match(key) if isinstance(key, str) else None
    return (int(m.group(1)), m.group(2)) if m else None


class DatabaseSource(ttt_rules.RuleSetSource):
    def __init__(self, path: Path):
        self.path = Path(path)

    def _query(self, sql, args=()):
        db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=60)
        try:
            return db.execute(sql, args).fetchall()
        finally:
            db.close()

    def names(self) -> list[str]:
        return [
            r[0] for r in self._query("SELECT name FROM rule_sets WHERE game_string IS NULL ORDER BY name")
        ]

    def __contains__(self, name) -> bool:
        return self.read(name) is not None if isinstance(name, str) else False

    def read(self, name: str) -> str | None:
        identity = parse_identity(name)
        if identity is not None:
            rows = self._query(
                "SELECT text FROM rule_sets WHERE id = ? AND fingerprint = ? AND game_string IS NULL",
                identity,
            )
        else:
            rows = self._query("SELECT text FROM rule_sets WHERE name = ? AND game_string IS NULL", (name,))
        return rows[0][0] if rows else None

    def expected_name(self, key: str) -> str | None:
        """An identity key's rule set carries its own current name."""
        return None if parse_identity(key) is not None else key

    def origin(self, name: str) -> str:
        return f"{self.path}:{name}"


def attach_database(path: Path) -> DatabaseSource:
    key = str(Path(path).resolve())
    source = _ATTACHED.get(key)
    if source is None:
        source = _ATTACHED[key] = DatabaseSource(Path(key))
    ttt_rules.add_source(source)
    return source


def _is_saved_name(value) -> bool:
    """Whether ``value`` names a catalogue or saved rule set (not a path, not
    an identity key)."""
    if not isinstance(value, str) or parse_identity(value) is not None:
        return False
    if ttt_rules.name_problem(value) is not None:
        return False
    return value in ttt_rules.CATALOGUE or any(value in source for source in ttt_rules.SOURCES)


_PATH_LIKE = re.compile(r"[/\\]|^~|\.[A-Za-z]\w*$")


def web_game_string_problem(game_string: str) -> str | None:
    """Why the web app will not load ``game_string`` (None if it may).

    A game string a request names may name rule sets only by the names of the
    catalogue and the registry, and no file at all: ``ttt(rules=x.json)``, even
    nested as ``turn_based_simultaneous_game(game=ttt(rules=x.json))``, made
    the server read a file of its working directory and show its fields in the
    refusal; OpenSpiel's ``efg_game(filename=...)`` reads any file it names."""
    try:
        params = pyspiel.game_parameters_from_string(game_string)
    except (pyspiel.SpielError, RuntimeError, ValueError):
        return f"{game_string!r} is not an OpenSpiel game string"
    stack = [params]
    while stack:
        for key, value in stack.pop().items():
            if isinstance(value, dict):
                stack.append(value)
            elif key == "rules" and not _is_saved_name(value):
                return (
                    f"rules={value!r} names no catalogue or saved rule set; a game string sent to "
                    "the web app names rule sets by their names only, never a file"
                )
            elif key != "name" and isinstance(value, str) and _PATH_LIKE.search(value):
                return f"{key}={value!r} looks like a file; a game string sent to the web app names no files"
    return None

"""``Registry``: an open registry database and the lookups every module needs.

Why one small class and many modules of functions: the connection and its
transaction are the only state; users, rule sets, players, games and
leaderboards are each their own module of functions taking the registry, so
each stays small and the command line and the web app call the same ones.

Why the catalogue is copied in on opening: the games of the tic-tac-toe
variations specification must be on the leaderboards and refused as duplicates like any saved rule set, so the
database holds them too (without a creator); a rule set added to
games/ttt/catalogue later is copied in the next time a registry opens.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import sqlite3
from pathlib import Path

from agents import BotSpec
from games.ttt import rules as ttt_rules
from registry import db as _db
from registry.errors import RegistryError, UnknownName

PUBLIC = "Public"
RANDOM = "Random"
CHAOS = "Chaos"
RANDOM_SPEC = '{"kind": "random"}'
#: The bots a new registry starts with (name, spec), so a new user can play a
#: bot and run a benchmark at once: a quick and a strong UCT (mcts), information-
#: set MCTS for hidden information, SM-MCTS for simultaneous rounds, alpha-beta.
#: Budgets are simulations and depths, never seconds, so a decision is the same
#: in every process (webapp/live.py seeds each one). Admins add more.
STARTING_BOTS = (
    ("MCTS-Quick", "mcts:simulations=200"),
    ("MCTS-Strong", "mcts:simulations=5000"),
    ("ISMCTS", "ismcts:simulations=500"),
    ("SM-MCTS", "sm_mcts:simulations=500"),
    ("AlphaBeta-4", "alphabeta:depth=4"),
)


def now() -> str:
    """The time stamps the registry stores: ISO 8601, UTC, microseconds (sortable as text)."""
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="microseconds")


class Registry:
    """An open registry database (``path``, default ``db.default_path()``).

    Use as a context manager or call ``close``; ``attach`` makes its saved
    rule sets loadable as ``ttt(rules=NAME)`` in this process. ``seed=False``
    skips copying in the catalogue: for a process that opened (and so seeded)
    this database already and opens a connection per request, such as the web
    app, where the catalogue check was most of a page's time. ``shared=True``
    lets the connection move between threads (the web app's pool lends each
    open registry to one request at a time instead of opening one per request)."""

    def __init__(self, path: str | os.PathLike | None = None, seed: bool = True, shared: bool = False):
        self.path = Path(path) if path is not None else _db.default_path()
        self.db = _db.connect(self.path, shared=shared)
        self.db.row_factory = None
        if seed:
            self._seed()

    # -- life cycle
    def close(self) -> None:
        detach(self)
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def transaction(self):
        return _db.transaction(self.db)

    def query(self, sql: str, args=()) -> list[sqlite3.Row]:
        cursor = self.db.execute(sql, args)
        return cursor.fetchall()

    def one(self, sql: str, args=()):
        return self.db.execute(sql, args).fetchone()

    # -- lookups shared by the modules (each raises a RegistryError naming what exists)
    def user_id(self, name: str) -> tuple[int, str]:
        """(id, role) of the user ``name``."""
        row = self.one("SELECT id, role FROM users WHERE name = ?", (name,))
        if row is None:
            raise RegistryError(f"unknown user {name!r}; known users: {self._names('users')}")
        return row[0], row[1]

    def rule_set_id(self, name: str) -> int:
        row = self.one("SELECT id FROM rule_sets WHERE name = ?", (name,))
        if row is None:
            raise UnknownName("rule set", name, "; list them with `python -m registry list`")
        return row[0]

    def universe_id(self, name: str) -> int:
        row = self.one("SELECT id FROM universes WHERE name = ?", (name,))
        if row is None:
            raise RegistryError(f"unknown universe {name!r}; known universes: {self._names('universes')}")
        return row[0]

    def player(self, name: str) -> sqlite3.Row:
        """The player row (id, name, kind, user_id, universe_id, spec)."""
        row = self.one(
            "SELECT id, name, kind, user_id, universe_id, spec FROM players WHERE name = ?", (name,)
        )
        if row is None:
            raise UnknownName("player", name, "; list them with `python -m registry players`")
        return row

    def _names(self, table: str) -> str:
        names = [r[0] for r in self.query(f"SELECT name FROM {table} ORDER BY name LIMIT 20")]
        return ", ".join(names) if names else "(none yet)"

    # -- first use
    def _seed_bots(self, stamp: str) -> None:
        for name, spec in STARTING_BOTS:
            self.db.execute(
                "INSERT OR IGNORE INTO players (name, kind, spec, created) VALUES (?, 'bot', ?, ?)",
                (name, json.dumps(BotSpec.parse(spec).to_json()), stamp),
            )

    def _seed(self) -> None:
        self.db.row_factory = None
        catalogue = ttt_rules.catalogue()
        have = {r[0] for r in self.query("SELECT name FROM rule_sets WHERE creator_id IS NULL")}
        public = self.one("SELECT 1 FROM universes WHERE name = ?", (PUBLIC,))
        if public and set(catalogue) <= have:
            return
        with self.transaction():
            stamp = now()
            self.db.execute("INSERT OR IGNORE INTO universes (name, created) VALUES (?, ?)", (PUBLIC, stamp))
            self.db.execute(
                "INSERT OR IGNORE INTO players (name, kind, spec, created) VALUES (?, 'random', ?, ?)",
                (RANDOM, RANDOM_SPEC, stamp),
            )
            self.db.execute(
                "INSERT OR IGNORE INTO players (name, kind, created) VALUES (?, 'chaos', ?)", (CHAOS, stamp)
            )
            if not public:  # a new registry: its starting bots (an older one keeps the bots it has)
                self._seed_bots(stamp)
            for name, rs in sorted(catalogue.items()):
                self.db.execute(
                    "INSERT OR IGNORE INTO rule_sets (name, canonical, fingerprint, text, created) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (name, rs.canonical, rs.fingerprint, ttt_rules.canonical_json(rs.to_json()), stamp),
                )


def detach(reg: Registry) -> None:
    """Stop loading ``reg``'s saved rule sets as ``ttt(rules=NAME)`` in this process (the
    source ``registry.rulesets.attach`` added, if any); closing the registry does this."""
    source = getattr(reg, "_source", None)
    if source is not None:
        ttt_rules.remove_source(source)

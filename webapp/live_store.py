"""Games in progress kept in the registry (table ``live_games``, schema 4), so
several server processes share them and a restart keeps them.

Why the registry and not one process's memory: with the games in one process,
the web app could run only one process, and one Python process (one core at a
time) is what keeps 20 busy users above 100 ms (docs/webapp.md, Load); a
restart would also lose every game in progress.

What is stored is what cannot be recomputed: the game string (and the rule
set's fingerprint), the seats, the random seed, the moves and the open round's
hidden plans; the position is those moves replayed. Each process keeps a small
cache of rebuilt games keyed by game id and ``changes`` (the count of accepted
submissions): a page whose game has not changed since this process last saw it
costs one indexed row read, not a replay.

Why a move cannot be applied twice: the next position is computed outside any
transaction (a bot may think for a while), then written by ``BEGIN
IMMEDIATE`` ... ``UPDATE ... WHERE changes = <the count it was computed
from>``. If another process wrote first, nothing is written and the move is
tried again on the new position (where it is usually no longer this user's
turn, and is refused as such). A finished game is recorded and rated
(registry.results / registry.open_games) in the same transaction as its last
move, so no process can finish a game without its record, or record it twice.

Why the writes queue on a lock file (``DB.webapp-lock``) before SQLite's own
write lock: a writer that finds SQLite's lock taken sleeps in steps (1, 2, 5,
10, ... ms) before it looks again, which made a busy second's moves wait tens
of ms for a lock held a fraction of one; a blocking ``flock`` wakes the next
writer the moment the lock is free. (Other writers, such as the command line
or a benchmark, still meet SQLite's lock with its busy timeout.)

Why every move commits with ``synchronous = NORMAL`` under the lock: in WAL
mode that skips the fsync (8 ms median here under load: the longest part of a
move under the lock) and is still safe if the server crashes; only a power cut
may lose the last moves of a game in progress. A commit that records a
finished game is made durable after the lock is released (``sync_wal``, as
durable as ``synchronous = FULL``), and with it every move before it.
"""

from __future__ import annotations

import collections
import contextlib
import fcntl
import json
import os
import threading
import time

from registry import open_games, results
from registry.errors import RegistryError
from registry.store import Registry, now
from webapp.live import LiveGame, MoveError, Seat
from webapp.source import identity_key

FINISHED_KEEP_SECONDS = 3600
CACHE_SIZE = 256
RETRIES = 8

_COLUMNS = (
    "id, game_string, rule_set, version, universe, seats, seed, moves, plans, changes, "
    "last_move, recorded, record_error, finished, turn_started, timeouts, ended"
)


def sync_wal(db_path) -> None:
    """Make every transaction committed so far durable: fsync the database's
    WAL file (the file itself, from any descriptor, flushes what every
    connection wrote to it).

    Why this and not ``synchronous = FULL`` on the commit: FULL fsyncs inside
    the commit, while this process holds the write gate and SQLite's write lock,
    so every other move waited for the disk (8 ms median, 13 ms p95 on this
    machine under load, once per finished game). Here the commit is written
    with NORMAL under the lock and the fsync comes after both are released,
    before the page answers. It is as durable as FULL: the commit's frames are
    in the WAL file when COMMIT returns, and if a checkpoint has meanwhile
    copied them into the database and restarted the WAL, that checkpoint
    synced the database file first (SQLite's WAL checkpoints sync in NORMAL).
    The fsync also covers every earlier move of the game."""
    path = str(db_path) + "-wal"
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:  # no WAL file: everything is in the database file
        fd = os.open(str(db_path), os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class WriteGate:
    """One writer at a time among this process's threads (a lock) and among
    the server's processes (``flock`` on ``path``), each waiting without polling."""

    def __init__(self, path: str):
        self.path = path
        self._lock = threading.Lock()
        self._file = None

    @contextlib.contextmanager
    def __call__(self):
        with self._lock:
            if self._file is None:
                self._file = open(self.path, "a")  # noqa: SIM115  (kept open for flock)
            fcntl.flock(self._file, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(self._file, fcntl.LOCK_UN)


class LiveStore:
    """The games in progress of one registry database, with this process's cache."""

    def __init__(self, db_path: str, cache_size: int = CACHE_SIZE):
        self.gate = WriteGate(str(db_path) + ".webapp-lock")
        self.cache_size = cache_size
        self._cache: collections.OrderedDict[str, LiveGame] = collections.OrderedDict()
        self._lock = threading.Lock()
        # how pages found their game (tests, and the server's --stats line):
        self.hits = 0  # cached and current
        self.catch_ups = 0  # cached but behind: only the new decisions applied
        self.replays = 0  # rebuilt from all their moves

    # -- the cache
    def _cached(self, gid: str, changes: int) -> LiveGame | None:
        with self._lock:
            game = self._cache.get(gid)
            if game is None or game.changes != changes:
                return None
            self._cache.move_to_end(gid)
            return game

    def _remember(self, game: LiveGame) -> None:
        with self._lock:
            old = self._cache.get(game.id)
            if old is not None and old.changes > game.changes:
                return  # a newer position is cached already
            self._cache[game.id] = game
            self._cache.move_to_end(game.id)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    # -- reading
    def get(self, reg: Registry, gid: str) -> LiveGame | None:
        """The game ``gid`` as stored now (None if there is none).

        Three cases, counted in ``hits``, ``catch_ups`` and ``replays``: the
        cached game is current (one row read); it is behind (another process
        moved: only the new decisions are applied to a copy of it, which is
        what a game alternating between two workers needs after nearly every
        move); or it is not cached (the game rebuilt from all its moves)."""
        row = reg.one("SELECT changes FROM live_games WHERE id = ?", (gid,))
        if row is None:
            return None
        game = self._cached(gid, row[0])
        if game is not None:
            self.hits += 1
            return game
        row = reg.one(f"SELECT {_COLUMNS} FROM live_games WHERE id = ?", (gid,))
        if row is None:
            return None
        game = self._catch_up(row)
        if game is None:
            game = self._build(reg, row)
        self._remember(game)
        return game

    def _build(self, reg: Registry, row) -> LiveGame:
        (
            gid,
            game_string,
            rule_set,
            version,
            universe,
            seats,
            seed,
            moves,
            plans,
            changes,
            last_move,
            recorded,
            record_error,
            finished,
            turn_started,
            timeouts,
            ended,
        ) = row
        self.replays += 1
        if rule_set is not None and game_string == f"ttt(rules={rule_set})" and version:
            # stored by name (before games named their rule set by identity)
            found = reg.one(
                "SELECT id FROM rule_sets WHERE fingerprint = ? AND game_string IS NULL", (version,)
            )
            if found is not None:
                game_string = f"ttt(rules={identity_key(found[0], version)})"
        return LiveGame(
            gid,
            game_string,
            rule_set,
            universe,
            [Seat.from_json(s) for s in json.loads(seats)],
            seed,
            version,
            json.loads(moves),
            {int(k): v for k, v in json.loads(plans).items()},
            changes,
            last_move,
            recorded,
            record_error,
            finished,
            turn_started,
            json.loads(timeouts),
            ended,
        )

    def _catch_up(self, row) -> LiveGame | None:
        """The cached game brought forward to ``row`` by applying only the
        decisions it lacks; None if nothing usable is cached (no copy, a copy
        not behind, or moves that do not extend its own)."""
        (
            gid,
            _gs,
            _rs,
            version,
            _u,
            seats,
            _seed,
            moves,
            plans,
            changes,
            last_move,
            recorded,
            record_error,
            finished,
            turn_started,
            timeouts,
            ended,
        ) = row
        with self._lock:
            old = self._cache.get(gid)
        if old is None or old.changes >= changes or old.version != version:
            return None
        moves = json.loads(moves)
        if moves[: len(old.moves)] != old.moves:
            return None
        new = old.successor()
        new.catch_up(
            moves[len(old.moves) :],
            {int(k): v for k, v in json.loads(plans).items()},
            changes,
            last_move,
            recorded,
            record_error,
            finished,
            turn_started,
            json.loads(timeouts),
            [Seat.from_json(s) for s in json.loads(seats)],
            ended,
        )
        self.catch_ups += 1
        return new

    def unfinished_of(self, reg: Registry, user: str) -> list[dict]:
        """The user's games in progress: id, game string and players by seat."""
        rows = reg.query(
            "SELECT g.id, COALESCE(r.name, g.game_string), g.seats FROM live_games g JOIN "
            "live_game_users u ON u.game_id = g.id LEFT JOIN rule_sets r ON g.rule_set IS NOT NULL "
            "AND r.fingerprint = g.version AND r.game_string IS NULL WHERE u.user_name = ? AND "
            "g.finished IS NULL ORDER BY g.created",
            (user,),
        )
        return [
            {"id": gid, "game_string": name, "players": [s["player"] for s in json.loads(seats)]}
            for gid, name, seats in rows
        ]

    # -- writing
    def create(self, reg: Registry, game: LiveGame) -> LiveGame:
        """Store a new game after its bots' first moves (recorded if that ends it)."""
        game.turn_started = time.time()
        game.advance()
        with self._writing(reg, game):
            cutoff = time.time() - FINISHED_KEEP_SECONDS
            reg.db.execute(
                "DELETE FROM live_game_users WHERE game_id IN (SELECT id FROM live_games WHERE finished < ?)",
                (cutoff,),
            )
            reg.db.execute("DELETE FROM live_games WHERE finished < ?", (cutoff,))
            self._finish(reg, game)
            reg.db.execute(
                f"INSERT INTO live_games ({_COLUMNS}, created) VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game.id,
                    game.game_string,
                    game.rule_set,
                    game.version,
                    game.universe,
                    json.dumps([s.to_json() for s in game.seats]),
                    game.seed,
                    json.dumps(game.moves),
                    json.dumps(game.plans),
                    game.changes,
                    game.last_move,
                    game.recorded,
                    game.record_error,
                    game.finished_at,
                    game.turn_started,
                    json.dumps(game.timeouts),
                    game.ended,
                    now(),
                ),
            )
            reg.db.executemany(
                "INSERT INTO live_game_users (game_id, user_name) VALUES (?, ?)",
                [(game.id, u) for u in sorted(game.users())],
            )
        self._remember(game)
        return game

    def end(self, reg: Registry, gid: str, user: str, how: str) -> LiveGame:
        """``user`` resigns (``how="resign"``) or abandons the stored game; the
        result is recorded as the finishing move's is (``_finish``)."""
        for _ in range(RETRIES):
            game = self.get(reg, gid)
            if game is None:
                raise MoveError("no such game")
            new = game.successor()
            new.resign(user) if how == "resign" else new.abandon(user)  # MoveError: nothing is written
            if self.commit(reg, new, expected=game.changes):
                return new
        raise MoveError("the game changed too often while it was ended; reload and retry")

    def move(self, reg: Registry, gid: str, user: str, action: int) -> LiveGame:
        """Apply ``user``'s ``action`` to the stored game and store the result;
        the new position. MoveError if it is refused (or the game is gone)."""
        for _ in range(RETRIES):
            game = self.get(reg, gid)
            if game is None:
                raise MoveError("no such game")
            new = game.successor()
            new.human_move(user, action)  # MoveError: nothing is written
            if self.commit(reg, new, expected=game.changes):
                return new
        raise MoveError("the game changed too often while your move was applied; reload and retry")

    def join(self, reg: Registry, game: LiveGame, user: str, clock=time.time) -> LiveGame:
        """``game`` with ``user``'s seats joined (stored): called when a seated
        person opens the game, so its clock may run from now on; ``game`` itself
        if they were joined already (no write)."""
        for _ in range(RETRIES):
            if not game.joins(user):
                return game
            new = game.successor()
            new.join(user, clock())
            new.changes += 1
            if self.commit(reg, new, expected=game.changes):
                return new
            game = self.get(reg, game.id)
            if game is None:
                raise MoveError("no such game")
        return game

    def enforce_clock(self, reg: Registry, game: LiveGame, clock=time.time) -> LiveGame:
        """``game`` with every human decision whose seconds per turn ran out
        played for its seat (``LiveGame.time_out``: a random legal move) and
        stored; ``game`` itself when nothing is overdue (every game without a
        limit: no write). Called by every page, poll and move of a game, so the
        limit holds on the server whoever looks first; a write that loses the
        race to another process is retried on the new position."""
        for _ in range(RETRIES):
            if not game.overdue(clock()):
                return game
            new = game.successor()
            new.time_out(clock())
            if self.commit(reg, new, expected=game.changes):
                return new
            game = self.get(reg, game.id)
            if game is None:
                raise MoveError("no such game")
        return game

    def commit(self, reg: Registry, game: LiveGame, expected: int) -> bool:
        """Write ``game`` over the stored game if that is still at ``expected``
        changes (False, nothing written, if another writer came first); a game
        that this write finishes is recorded in the same transaction."""
        with self._writing(reg, game):
            row = reg.one("SELECT changes FROM live_games WHERE id = ?", (game.id,))
            if row is None or row[0] != expected:
                return False
            self._finish(reg, game)
            reg.db.execute(
                "UPDATE live_games SET moves = ?, plans = ?, changes = ?, last_move = ?, "
                "recorded = ?, record_error = ?, finished = ?, turn_started = ?, timeouts = ?, "
                "seats = ?, ended = ? WHERE id = ? AND changes = ?",
                (
                    json.dumps(game.moves),
                    json.dumps(game.plans),
                    game.changes,
                    game.last_move,
                    game.recorded,
                    game.record_error,
                    game.finished_at,
                    game.turn_started,
                    json.dumps(game.timeouts),
                    json.dumps([s.to_json() for s in game.seats]),
                    game.ended,
                    game.id,
                    expected,
                ),
            )
        self._remember(game)
        return True

    @contextlib.contextmanager
    def _writing(self, reg: Registry, game: LiveGame):
        """The gate, then one transaction committed without fsync; a
        transaction that records a finished game is then made durable by
        fsyncing the WAL file after the gate is released (``sync_wal``)."""
        durable = game.over()
        before = reg.db.total_changes
        with self.gate():
            reg.db.execute("PRAGMA synchronous = NORMAL")
            try:
                with reg.transaction():
                    yield
            finally:
                reg.db.execute("PRAGMA synchronous = FULL")
        if durable and reg.db.total_changes != before:
            sync_wal(reg.path)

    @staticmethod
    def rule_set_name(reg: Registry, game: LiveGame) -> str | None:
        """The current name of the game's saved rule set (None for a game
        string): an Admin may have renamed it since the game started."""
        if game.rule_set_id is None:
            return game.rule_set
        row = reg.one(
            "SELECT name FROM rule_sets WHERE id = ? AND fingerprint = ?", (game.rule_set_id, game.version)
        )
        return row[0] if row else game.rule_set

    @staticmethod
    def _finish(reg: Registry, game: LiveGame) -> None:
        """Record a game that has just ended (inside the caller's transaction)
        through the registry's one record path (a rule set's by its name, any
        other game by its game string, registry/open_games.py); a refused
        record is kept as the game's ``record_error`` and shown on its page."""
        if not game.over() or game.finished_at is not None:
            return
        game.finished_at = time.time()
        if game.ended == "abandoned":  # a game nobody could finish: no result to rate
            game.record_error = "abandoned: not recorded or rated"
            return
        players = [s.player for s in game.seats]
        absent = game.unjoined()
        if absent:  # nobody plays, or is rated, in the name of a person who never came
            names = ", ".join(f"seat {p + 1} ({players[p]})" for p in absent)
            game.record_error = f"not recorded or rated: {names} never opened this game"
            return
        try:
            if game.rule_set is None:  # a game string: its registry row, made on first use
                open_games.ensure_game(reg, game.game_string)
            game.recorded = results.record_game(
                reg,
                LiveStore.rule_set_name(reg, game) or game.game_string,
                players,
                game.returns(),
                game.moves,
                universe=game.universe,
                timeouts=game.timeouts,
                resigned=game.resigned_seat(),
            )
        except RegistryError as e:
            game.record_error = str(e)

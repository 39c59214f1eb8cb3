"""The registry's one SQLite database: connection settings, schema and migrations.

Why these settings: several processes (a benchmark, the web app, a terminal
game) write at once. WAL lets readers run beside the one writer; every change
is one ``BEGIN IMMEDIATE`` transaction, so a check ("is the quota reached?",
"is this rule set already saved?") and the write it permits happen under the
same write lock and no other process can slip in between; ``busy_timeout``
makes the others wait for it instead of failing. Foreign keys are on so a game
can never name a player or rule set that does not exist.

Why ``PRAGMA user_version`` for the schema version: it lives in the database
file itself, and each migration below moves it by exactly one step inside the
transaction that changes the tables, so a database is never half-migrated.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import sys
from pathlib import Path

from registry.errors import RegistryError

ENV_DB = "FLIPGAMES_REGISTRY_DB"
BUSY_TIMEOUT_MS = 60_000

#: Migration ``i`` takes a database from version ``i`` to ``i + 1``.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        role TEXT NOT NULL CHECK (role IN ('creator', 'trainer', 'admin')),
        created TEXT NOT NULL
    );
    CREATE TABLE universes (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        owner_id INTEGER REFERENCES users(id),
        created TEXT NOT NULL
    );
    CREATE TABLE rule_sets (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        canonical TEXT NOT NULL UNIQUE,
        fingerprint TEXT NOT NULL,
        text TEXT NOT NULL,
        creator_id INTEGER REFERENCES users(id),
        standard_player_id INTEGER REFERENCES players(id),
        created TEXT NOT NULL
    );
    CREATE INDEX rule_sets_creator ON rule_sets (creator_id);
    CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL CHECK (kind IN ('human', 'bot', 'random', 'chaos')),
        user_id INTEGER REFERENCES users(id),
        universe_id INTEGER REFERENCES universes(id),
        spec TEXT,
        created TEXT NOT NULL,
        CHECK ((kind = 'human') = (user_id IS NOT NULL AND universe_id IS NOT NULL)),
        CHECK ((kind IN ('bot', 'random')) = (spec IS NOT NULL))
    );
    CREATE TABLE friend_requests (
        from_id INTEGER NOT NULL REFERENCES players(id),
        to_id INTEGER NOT NULL REFERENCES players(id),
        status TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'declined')),
        created TEXT NOT NULL,
        answered TEXT,
        PRIMARY KEY (from_id, to_id),
        CHECK (from_id != to_id)
    );
    CREATE TABLE benchmarks (
        id INTEGER PRIMARY KEY,
        rule_set_id INTEGER NOT NULL REFERENCES rule_sets(id),
        universe_id INTEGER NOT NULL REFERENCES universes(id),
        user_id INTEGER NOT NULL REFERENCES users(id),
        players TEXT NOT NULL,
        games_per_combination INTEGER NOT NULL,
        seed INTEGER NOT NULL,
        qualifies INTEGER NOT NULL,
        created TEXT NOT NULL
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        rule_set_id INTEGER NOT NULL REFERENCES rule_sets(id),
        universe_id INTEGER NOT NULL REFERENCES universes(id),
        moves TEXT NOT NULL,
        chaos_result REAL,
        finished TEXT NOT NULL,
        benchmark_id INTEGER REFERENCES benchmarks(id),
        task_key TEXT UNIQUE
    );
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        player_id INTEGER NOT NULL REFERENCES players(id),
        result REAL NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX seats_player ON seats (player_id);
    CREATE TABLE ratings (
        rule_set_id INTEGER NOT NULL REFERENCES rule_sets(id),
        universe_id INTEGER NOT NULL REFERENCES universes(id),
        player_id INTEGER NOT NULL REFERENCES players(id),
        game_id INTEGER NOT NULL REFERENCES games(id),
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (rule_set_id, universe_id, player_id, game_id)
    );
    CREATE INDEX ratings_board ON ratings (rule_set_id, universe_id, player_id, game_id);
    """,
    # 1 -> 2: the tic-tac-toe variations specification's universe combobox
    # "Defaults to the Universe most recently selected by the user" (NULL: never selected one, so Public).
    """
    ALTER TABLE users ADD COLUMN selected_universe_id INTEGER REFERENCES universes(id);
    """,
    # 2 -> 3: games other than tic-tac-toe rule sets (the Y family, Flipway, Caeth Y,
    # OpenSpiel's games), named by their OpenSpiel game string, recorded and rated
    # beside the rule sets' games (registry/open_games.py).
    """
    CREATE TABLE open_games (
        id INTEGER PRIMARY KEY,
        game_string TEXT NOT NULL UNIQUE,
        created TEXT NOT NULL
    );
    CREATE TABLE open_game_records (
        id INTEGER PRIMARY KEY,
        open_game_id INTEGER NOT NULL REFERENCES open_games(id),
        universe_id INTEGER NOT NULL REFERENCES universes(id),
        moves TEXT NOT NULL,
        finished TEXT NOT NULL
    );
    CREATE TABLE open_game_seats (
        game_id INTEGER NOT NULL REFERENCES open_game_records(id),
        seat INTEGER NOT NULL,
        player_id INTEGER NOT NULL REFERENCES players(id),
        result REAL NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX open_game_seats_player ON open_game_seats (player_id);
    CREATE TABLE open_game_ratings (
        open_game_id INTEGER NOT NULL REFERENCES open_games(id),
        universe_id INTEGER NOT NULL REFERENCES universes(id),
        player_id INTEGER NOT NULL REFERENCES players(id),
        game_id INTEGER NOT NULL REFERENCES open_game_records(id),
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (open_game_id, universe_id, player_id, game_id)
    );
    """,
    # 3 -> 4: games in progress in the web app (webapp/live.py), so that several
    # server processes share them and a restart keeps them. A
    # game's position is its moves replayed; ``changes`` counts accepted
    # submissions, and a write names the count it started from, so two
    # processes cannot both apply a move to the same position.
    """
    CREATE TABLE live_games (
        id TEXT PRIMARY KEY,
        game_string TEXT NOT NULL,
        rule_set TEXT,
        version TEXT NOT NULL,
        universe TEXT NOT NULL,
        seats TEXT NOT NULL,
        seed INTEGER NOT NULL,
        moves TEXT NOT NULL,
        plans TEXT NOT NULL,
        changes INTEGER NOT NULL,
        last_move TEXT,
        recorded INTEGER,
        record_error TEXT,
        finished REAL,
        created TEXT NOT NULL
    );
    CREATE TABLE live_game_users (
        game_id TEXT NOT NULL REFERENCES live_games(id) ON DELETE CASCADE,
        user_name TEXT NOT NULL,
        PRIMARY KEY (game_id, user_name)
    );
    CREATE INDEX live_game_users_user ON live_game_users (user_name);
    """,
    # 4 -> 5: one record path for every game. A game named by its OpenSpiel game string
    # (y_game(board_size=5), connect_four, ...) becomes a row of ``rule_sets`` with
    # that string in ``game_string`` (its name; no text, no fingerprint), so its
    # games, seats and ratings are rows of ``games``, ``seats`` and ``ratings``
    # like every rule set's, recorded by registry.results.record_game and shown by
    # the same leaderboards, stats and evolution. The records of migration 3's
    # tables move over (game ids after the existing ones, in their order), then
    # those tables go.
    """
    ALTER TABLE rule_sets ADD COLUMN game_string TEXT;
    CREATE TEMP TABLE migration_5 AS SELECT COALESCE(MAX(id), 0) AS shift FROM games;
    INSERT INTO rule_sets (name, canonical, fingerprint, text, created, game_string)
        SELECT game_string, 'game:' || game_string, '', '', created, game_string
        FROM open_games ORDER BY id;
    INSERT INTO games (id, rule_set_id, universe_id, moves, chaos_result, finished)
        SELECT r.id + (SELECT shift FROM migration_5), s.id, r.universe_id, r.moves, NULL,
               r.finished
        FROM open_game_records r JOIN open_games o ON o.id = r.open_game_id
        JOIN rule_sets s ON s.game_string = o.game_string ORDER BY r.id;
    INSERT INTO seats (game_id, seat, player_id, result)
        SELECT game_id + (SELECT shift FROM migration_5), seat, player_id, result
        FROM open_game_seats;
    INSERT INTO ratings (rule_set_id, universe_id, player_id, game_id, mu, sigma, at)
        SELECT s.id, r.universe_id, r.player_id, r.game_id + (SELECT shift FROM migration_5),
               r.mu, r.sigma, r.at
        FROM open_game_ratings r JOIN open_games o ON o.id = r.open_game_id
        JOIN rule_sets s ON s.game_string = o.game_string;
    DROP TABLE open_game_ratings;
    DROP TABLE open_game_seats;
    DROP TABLE open_game_records;
    DROP TABLE open_games;
    DROP TABLE migration_5;
    """,
    # 5 -> 6: seconds per turn in the web app (a rule set's ``seconds_per_turn``,
    # the tic-tac-toe variations specification's "300 seconds/turn"): when the
    # current human decision of a game in progress became due, so any server
    # process can tell that its time ran out (webapp/live.py,
    # ``LiveGame.deadline``). NULL: no decision timed yet.
    """
    ALTER TABLE live_games ADD COLUMN turn_started REAL;
    """,
    # 6 -> 7: decisions the web app made for a person whose time ran out (a random
    # legal move or plan, webapp/live.py ``LiveGame.time_out``), so a game record
    # says which of its moves nobody chose: a JSON list of [move index, seat],
    # kept while the game is live and copied to its ``games`` row when it is
    # recorded (NULL there: every move was chosen by its seat).
    """
    ALTER TABLE live_games ADD COLUMN timeouts TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE games ADD COLUMN timeouts TEXT;
    """,
    # 7 -> 8: games ended before their rules end them. ``games.resigned`` is the
    # seat that resigned (NULL: the rules ended the game), so a record tells a
    # resignation's returns from the returns the rules give; ``live_games.ended``
    # is how a game in progress was ended in the web app ("resigned SEAT" or
    # "abandoned"; NULL while it is played or when its rules ended it).
    """
    ALTER TABLE games ADD COLUMN resigned INTEGER;
    ALTER TABLE live_games ADD COLUMN ended TEXT;
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


def default_path() -> Path:
    """``$FLIPGAMES_REGISTRY_DB``, else ``registry.sqlite3`` in the user's data
    directory (``$XDG_DATA_HOME/flipgames``, default ``~/.local/share/flipgames``)."""
    if os.environ.get(ENV_DB):
        return Path(os.environ[ENV_DB])
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "flipgames" / "registry.sqlite3"


def connect(path: str | os.PathLike, shared: bool = False) -> sqlite3.Connection:
    """An open connection with the registry's settings, the schema brought up to date.

    ``shared``: the connection may be handed from thread to thread (a server's
    pool lends it to one request at a time; SQLite itself is serialized)."""
    path = Path(path)
    if path.is_dir():
        raise RegistryError(f"--db {path} is a directory; give a database file path")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(
            path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=not shared
        )
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA foreign_keys = ON")
        migrate(db)
    except sqlite3.DatabaseError as e:
        raise RegistryError(f"--db {path} cannot be used as the registry database: {e}") from None
    except OSError as e:
        raise RegistryError(f"--db {path} cannot be opened: {e.strerror}") from None
    return db


@contextlib.contextmanager
def transaction(db: sqlite3.Connection):
    """One change: ``BEGIN IMMEDIATE`` (the write lock is taken before any check
    is read), committed on success, rolled back on any exception.

    Inside an open transaction it is a savepoint instead: the web app records a
    finished game (registry.results, itself one transaction) in the same
    transaction that stores the game's last move, so a game is never finished
    without its record; a refused record rolls back only its own part."""
    if db.in_transaction:
        db.execute("SAVEPOINT nested")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK TO nested")
            db.execute("RELEASE nested")
            raise
        db.execute("RELEASE nested")
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def version(db: sqlite3.Connection) -> int:
    return db.execute("PRAGMA user_version").fetchone()[0]


def _free_game_string_names(db: sqlite3.Connection) -> None:
    """Before migration 4 -> 5: a saved rule set may carry the name of a game
    string with recorded games (``hex``, ``connect_four``), and the game string
    is about to become a ``rule_sets`` row named by itself. The saved rule set
    is renamed ``NAME-rule-set`` (then ``-2``, ``-3``, ...) with a warning,
    rather than the upgrade failing on the unique name or dropping records."""
    taken = {row[0] for row in db.execute("SELECT name FROM rule_sets")}
    clashes = [
        row[0]
        for row in db.execute(
            "SELECT DISTINCT o.game_string FROM open_games o JOIN rule_sets s ON s.name = o.game_string"
        )
    ]
    for name in clashes:
        new, k = f"{name}-rule-set", 1
        while new in taken:
            k += 1
            new = f"{name}-rule-set-{k}"
        taken.add(new)
        db.execute("UPDATE rule_sets SET name = ? WHERE name = ?", (new, name))
        print(
            f"registry upgrade: the saved rule set {name!r} is renamed {new!r}, as recorded games "
            f"of the game {name!r} now share the rule sets' names",
            file=sys.stderr,
        )


def migrate(db: sqlite3.Connection) -> int:
    """Apply every migration the database lacks, each in its own transaction;
    refuse a database from a newer version of the toolkit."""
    while True:
        with transaction(db):
            current = version(db)
            if current > SCHEMA_VERSION:
                raise RegistryError(
                    f"the database has schema version {current}, newer than this "
                    f"toolkit's {SCHEMA_VERSION}; upgrade the toolkit"
                )
            if current == SCHEMA_VERSION:
                return current
            if current == 4:
                _free_game_string_names(db)
            for statement in MIGRATIONS[current].split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA user_version = {current + 1}")

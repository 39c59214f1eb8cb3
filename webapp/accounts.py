"""The web app's account store: a password hash per registry user, the
sessions the server has started, and the failed logins it throttles.

Why tables of their own in the registry's database (created if missing, not a
registry migration): the registry trusts ``--as USER`` on the command line;
only the web app authenticates, so only it keeps passwords and sessions.
Hashes are werkzeug's scrypt (salted, slow by design); the plain password is
never kept.

Why sessions on the server: the session cookie is signed, so nobody can forge
one, but a signed cookie alone stays valid wherever it was copied to until it
expires. The cookie names a session id; the server keeps a digest of it
(``webapp_sessions``), and logging out or changing the password deletes it,
after which the copied cookie is worth nothing.

Why the throttle counts before hashing: each attempt costs a password-hash run
(scrypt), so unthrottled attempts are both a guessing attack and a way to load
the server. An attempt is written as a failure before its hash runs and
removed when it succeeds, so parallel attempts cannot slip past the count.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
import time

from werkzeug.security import check_password_hash, generate_password_hash

from registry import users
from registry.errors import RegistryError
from registry.names import normal_name
from registry.store import Registry

MIN_PASSWORD = 8
#: werkzeug's scrypt with its default work (n = 2^15, about 100 ms a hash here).
HASH_METHOD = "scrypt"
#: How long a session lasts without a new login (Flask's default cookie lifetime).
SESSION_SECONDS = 31 * 24 * 3600
#: Failed logins allowed per window: per account name, and per client address
#: (higher: several people may share one address, and the server listens on
#: 127.0.0.1, where every local client has the same one).
ACCOUNT_FAILURES = 5
ADDRESS_FAILURES = 20
FAILURE_WINDOW = 300.0

TABLES = (
    "CREATE TABLE IF NOT EXISTS webapp_accounts (user_id INTEGER PRIMARY KEY "
    "REFERENCES users(id), password_hash TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS webapp_sessions (digest TEXT PRIMARY KEY, "
    "user_id INTEGER NOT NULL REFERENCES users(id), created REAL NOT NULL)",
    "CREATE INDEX IF NOT EXISTS webapp_sessions_user ON webapp_sessions (user_id)",
    "CREATE TABLE IF NOT EXISTS webapp_login_failures (key TEXT NOT NULL, at REAL NOT NULL)",
    "CREATE INDEX IF NOT EXISTS webapp_login_failures_key ON webapp_login_failures (key, at)",
)


class Throttled(RegistryError):
    """Too many failed logins for a name or from an address (``retry_after`` s)."""

    def __init__(self, retry_after: float):
        self.retry_after = max(1, int(retry_after + 0.999))
        super().__init__(
            "too many failed logins for this name or from this address; "
            f"wait {self.retry_after} s and try again"
        )


def _now() -> float:
    return time.time()


def ensure(reg: Registry) -> None:
    for statement in TABLES:
        reg.db.execute(statement)
    _unknown_name_hash(HASH_METHOD)  # made now, so no login pays for it


@functools.lru_cache(maxsize=4)
def _unknown_name_hash(method: str) -> str:
    """A hash of a random password, checked for a name that has no account:
    one hash run of the same work for every login, whether the name exists or
    not, so neither the answer nor its time tells which names exist."""
    return generate_password_hash(secrets.token_hex(16), method)


def check_password_rule(password) -> None:
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        raise RegistryError(f"a password needs at least {MIN_PASSWORD} characters")


def set_password(reg: Registry, name: str, password: str) -> None:
    """Set ``name``'s password and end every session of that user."""
    check_password_rule(password)
    uid, _ = reg.user_id(name)
    with reg.transaction():
        reg.db.execute(
            "INSERT OR REPLACE INTO webapp_accounts (user_id, password_hash) VALUES (?, ?)",
            (uid, generate_password_hash(password, HASH_METHOD)),
        )
        reg.db.execute("DELETE FROM webapp_sessions WHERE user_id = ?", (uid,))


def create_account(
    reg: Registry,
    name: str,
    password: str,
    role: str = "creator",
    by: str | None = None,
    first_is_admin: bool = False,
) -> str:
    """A registry user (and its human player) with a password; its role. The
    password is checked first, and both are written in one transaction, so a
    refused account leaves no user behind. ``first_is_admin`` is sign-up's:
    the role is Admin if this is the database's first account, decided inside
    the transaction (several first sign-ups at once make one Admin and
    Creators, never a refusal meant for the command line)."""
    check_password_rule(password)
    with reg.transaction():
        if first_is_admin and not has_users(reg):
            role = "admin"
        users.add_user(reg, name, role, by=by)
        set_password(reg, name, password)
    return role


def _keys(name: str, address: str | None) -> list[tuple[str, int]]:
    keys = [(f"name:{name}", ACCOUNT_FAILURES)]
    if address:
        keys.append((f"address:{address}", ADDRESS_FAILURES))
    return keys


def _throttle(reg: Registry, name: str, address: str | None, now: float) -> list[int]:
    """Refuse the attempt if a key has its window full; else count it as a
    failure now (the rows returned, removed if it succeeds). Inside one write
    transaction."""
    cutoff = now - FAILURE_WINDOW
    reg.db.execute("DELETE FROM webapp_login_failures WHERE at < ?", (cutoff,))
    wait = 0.0
    for key, limit in _keys(name, address):
        rows = reg.query(
            "SELECT at FROM webapp_login_failures WHERE key = ? AND at >= ? ORDER BY at DESC LIMIT ?",
            (key, cutoff, limit),
        )
        if len(rows) >= limit:
            wait = max(wait, rows[-1][0] + FAILURE_WINDOW - now)
    if wait > 0:
        raise Throttled(wait)
    return [
        reg.db.execute("INSERT INTO webapp_login_failures (key, at) VALUES (?, ?)", (key, now)).lastrowid
        for key, _ in _keys(name, address)
    ]


def authenticate(
    reg: Registry, name: str, password: str, address: str | None = None
) -> tuple[str, str] | None:
    """(name, role) if ``password`` is ``name``'s, else None (same answer, and
    one hash run, for an unknown name, so the form does not tell which names
    exist). ``Throttled`` before any hash runs if the name or the address
    ``address`` had too many failures lately."""
    name = normal_name(name) if isinstance(name, str) else ""
    now = _now()
    with reg.transaction():
        attempt = _throttle(reg, name, address, now)
    row = reg.one(
        "SELECT u.name, u.role, a.password_hash FROM users u JOIN webapp_accounts a "
        "ON a.user_id = u.id WHERE u.name = ?",
        (name,),
    )
    stored = row[2] if row is not None else _unknown_name_hash(HASH_METHOD)
    ok = check_password_hash(stored, password if isinstance(password, str) else "")
    if not ok or row is None:
        return None
    with reg.transaction():  # a success is no failure, and ends the name's (not the address's)
        reg.db.executemany("DELETE FROM webapp_login_failures WHERE rowid = ?", [(r,) for r in attempt])
        reg.db.execute("DELETE FROM webapp_login_failures WHERE key = ?", (f"name:{name}",))
    return row[0], row[1]


def has_users(reg: Registry) -> bool:
    return reg.one("SELECT count(*) FROM users")[0] > 0


# -- sessions
def _digest(sid: str) -> str:
    return hashlib.sha256(sid.encode()).hexdigest()


def start_session(reg: Registry, name: str) -> str:
    """A new session of user ``name``: its id, for the session cookie (the
    server keeps only its digest). Expired sessions are cleared on the way."""
    uid, _ = reg.user_id(name)
    sid = secrets.token_urlsafe(32)
    now = _now()
    with reg.transaction():
        reg.db.execute("DELETE FROM webapp_sessions WHERE created < ?", (now - SESSION_SECONDS,))
        reg.db.execute(
            "INSERT INTO webapp_sessions (digest, user_id, created) VALUES (?, ?, ?)",
            (_digest(sid), uid, now),
        )
    return sid


def session_account(reg: Registry, sid) -> tuple[str, str] | None:
    """(name, role) of the live session ``sid``; None if it was ended or expired."""
    if not isinstance(sid, str):
        return None
    row = reg.one(
        "SELECT u.name, u.role FROM webapp_sessions s JOIN users u ON u.id = s.user_id "
        "WHERE s.digest = ? AND s.created >= ?",
        (_digest(sid), _now() - SESSION_SECONDS),
    )
    return (row[0], row[1]) if row else None


def end_session(reg: Registry, sid) -> None:
    if isinstance(sid, str):
        with reg.transaction():
            reg.db.execute("DELETE FROM webapp_sessions WHERE digest = ?", (_digest(sid),))

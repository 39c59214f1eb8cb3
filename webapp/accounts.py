"""The web app's account store: a password hash per registry user.

Why a table of its own in the registry's database (created if missing, not a
registry migration): the registry trusts ``--as USER`` on the command line;
only the web app authenticates, so only it keeps passwords. Hashes are
werkzeug's scrypt (salted, slow by design); the plain password is never kept.
"""

from __future__ import annotations

from werkzeug.security import check_password_hash, generate_password_hash

from registry import users
from registry.errors import RegistryError
from registry.store import Registry

MIN_PASSWORD = 8
TABLE = (
    "CREATE TABLE IF NOT EXISTS webapp_accounts (user_id INTEGER PRIMARY KEY "
    "REFERENCES users(id), password_hash TEXT NOT NULL)"
)


def ensure(reg: Registry) -> None:
    reg.db.execute(TABLE)


def check_password_rule(password) -> None:
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        raise RegistryError(f"a password needs at least {MIN_PASSWORD} characters")


def set_password(reg: Registry, name: str, password: str) -> None:
    check_password_rule(password)
    uid, _ = reg.user_id(name)
    with reg.transaction():
        reg.db.execute(
            "INSERT OR REPLACE INTO webapp_accounts (user_id, password_hash) VALUES (?, ?)",
            (uid, generate_password_hash(password)),
        )


def create_account(
    reg: Registry, name: str, password: str, role: str = "creator", by: str | None = None
) -> None:
    """A registry user (and its human player) with a password. The password is
    checked first, so a refused account leaves no user behind."""
    check_password_rule(password)
    users.add_user(reg, name, role, by=by)
    set_password(reg, name, password)


def authenticate(reg: Registry, name: str, password: str) -> tuple[str, str] | None:
    """(name, role) if ``password`` is ``name``'s, else None (same answer for an
    unknown name, so the form does not tell which names exist)."""
    row = reg.one(
        "SELECT u.name, u.role, a.password_hash FROM users u JOIN webapp_accounts a "
        "ON a.user_id = u.id WHERE u.name = ?",
        (name,),
    )
    if row is None or not isinstance(password, str):
        check_password_hash(generate_password_hash("x"), "y")  # similar time either way
        return None
    return (row[0], row[1]) if check_password_hash(row[2], password) else None


def has_users(reg: Registry) -> bool:
    return reg.one("SELECT count(*) FROM users")[0] > 0

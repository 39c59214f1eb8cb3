"""Users and their roles (the tic-tac-toe variations specification: Creator, Trainer, Admin).

Why anyone may create a Creator but only an Admin may grant Trainer or Admin:
the roles are permissions (quota, benchmarks, renames); the very first user of
a fresh database may take any role, or no one could ever become Admin.
"""

from __future__ import annotations

from registry.errors import RegistryError
from registry.names import name_problem, normal_name
from registry.store import PUBLIC, Registry, now

ROLES = ("creator", "trainer", "admin")
#: Rule sets a Creator may save (the tic-tac-toe variations specification: "up to fifteen new games").
CREATOR_QUOTA = 15


def check_player_name(name) -> None:
    """Users and players share one namespace of display names; a name is
    stored in NFKC form and holds no invisible character nor letters of two
    scripts (registry/names.py)."""
    if (
        not isinstance(name, str)
        or not name
        or len(name) > 64
        or any(c.isspace() for c in name)
        or any(c in name for c in "*(),=:/\\")
    ):
        raise RegistryError(
            f"name {name!r} is not allowed: 1-64 characters, no whitespace and none of * ( ) , = : / \\"
        )
    problem = name_problem(normal_name(name))
    if problem:
        raise RegistryError(f"name {name!r} is not allowed: {problem}")
    if normal_name(name) != name:
        raise RegistryError(f"name {name!r} is not in Unicode's NFKC form; write it as {normal_name(name)!r}")


def add_user(reg: Registry, name: str, role: str = "creator", by: str | None = None) -> int:
    """Create user ``name`` with ``role`` and its human player in the Public
    universe (same name). ``by`` is the acting user: an Admin is needed to
    create a Trainer or Admin, except for the first user of the database."""
    check_player_name(name)
    if role not in ROLES:
        raise RegistryError(f"role {role!r} is not allowed; choose one of {', '.join(ROLES)}")
    with reg.transaction():
        if role != "creator" and reg.one("SELECT count(*) FROM users")[0] > 0:
            if by is None or reg.user_id(by)[1] != "admin":
                raise RegistryError(
                    f"only an Admin may create a {role.title()} (acting user: "
                    f"{by or 'none'}; give --as ADMIN)"
                )
        if reg.one("SELECT 1 FROM players WHERE name = ?", (name,)) or reg.one(
            "SELECT 1 FROM users WHERE name = ?", (name,)
        ):
            raise RegistryError(f"the name {name!r} is taken")
        stamp = now()
        user = reg.db.execute(
            "INSERT INTO users (name, role, created) VALUES (?, ?, ?)", (name, role, stamp)
        ).lastrowid
        reg.db.execute(
            "INSERT INTO players (name, kind, user_id, universe_id, created) VALUES (?, 'human', ?, ?, ?)",
            (name, user, reg.universe_id(PUBLIC), stamp),
        )
    return user


def set_role(reg: Registry, name: str, role: str, by: str | None) -> str:
    """Give the existing user ``name`` the role ``role``; only an Admin (``by``)
    may. The role the user had is returned.

    Why the database keeps an Admin: with none, nobody could grant a role or
    rename a rule set again (only the first user of an empty database takes a
    role by itself). So the last Admin cannot give up the role, to anyone's
    order; another Admin must be made first."""
    if role not in ROLES:
        raise RegistryError(f"role {role!r} is not allowed; choose one of {', '.join(ROLES)}")
    with reg.transaction():
        if by is None or reg.user_id(by)[1] != "admin":
            raise RegistryError(
                f"only an Admin may change a role (acting user: {by or 'none'}; give --as ADMIN)"
            )
        uid, old = reg.user_id(name)
        if old == "admin" and role != "admin":
            if reg.one("SELECT count(*) FROM users WHERE role = 'admin'")[0] == 1:
                raise RegistryError(
                    f"{name} is the last Admin: make another user an Admin before {name} gives up the role"
                )
        reg.db.execute("UPDATE users SET role = ? WHERE id = ?", (role, uid))
    return old


def list_users(reg: Registry) -> list[dict]:
    rows = reg.query(
        "SELECT u.name, u.role, (SELECT count(*) FROM rule_sets r WHERE "
        "r.creator_id = u.id) FROM users u ORDER BY u.name"
    )
    return [{"name": n, "role": r, "rule_sets": c} for n, r, c in rows]


def quota_left(reg: Registry, user: str) -> int | None:
    """How many more rule sets ``user`` may save (None: unlimited)."""
    uid, role = reg.user_id(user)
    if role != "creator":
        return None
    used = reg.one("SELECT count(*) FROM rule_sets WHERE creator_id = ?", (uid,))[0]
    return max(0, CREATOR_QUOTA - used)


def select_universe(reg: Registry, user: str, universe: str) -> None:
    """Remember ``universe`` as the one ``user`` selected most recently (seed
    004: the universe combobox "Defaults to the Universe most recently selected
    by the user")."""
    with reg.transaction():
        uid, _ = reg.user_id(user)
        reg.db.execute(
            "UPDATE users SET selected_universe_id = ? WHERE id = ?", (reg.universe_id(universe), uid)
        )


def selected_universe(reg: Registry, user: str) -> str:
    """The universe ``user`` selected most recently; Public if none yet."""
    uid, _ = reg.user_id(user)
    row = reg.one(
        "SELECT v.name FROM users u JOIN universes v ON v.id = u.selected_universe_id WHERE u.id = ?", (uid,)
    )
    return row[0] if row else PUBLIC

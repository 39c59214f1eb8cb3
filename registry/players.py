"""Players, universes and friends (the tic-tac-toe variations specification), at the data level.

Who is a player: every user's human player (same name) in the Public
universe and the personas a user makes in other universes; bots (a validated
``agents.BotSpec``: kind + settings); Random, which plays in every universe and
is on every leaderboard; Chaos, which moves for "vs Chaos" rule sets but has no
stats; and a rule set's standard player (SP), a bot an Admin or Trainer names
for that rule set. Bots and Random belong to no universe: they play in all.
"""

from __future__ import annotations

import json

from agents import BotSpec
from registry.errors import RegistryError, UnknownName
from registry.store import Registry, now
from registry.users import check_player_name


def parse_bot(spec: str | BotSpec) -> BotSpec:
    """A validated bot spec from ``kind:key=value,...`` (agents' syntax)."""
    if isinstance(spec, BotSpec):
        return spec
    try:
        return BotSpec.parse(spec)
    except (ValueError, TypeError) as e:
        raise RegistryError(f"bot spec {spec!r}: {e}") from None


def add_bot(reg: Registry, name: str, spec: str | BotSpec) -> int:
    """A bot player ``name`` playing as ``spec`` (e.g. ``mcts:simulations=1000``)."""
    check_player_name(name)
    bot = parse_bot(spec)
    if bot.kind == "random":
        raise RegistryError("Random is already a player of every universe; add another kind")
    with reg.transaction():
        _name_free(reg, name)
        return reg.db.execute(
            "INSERT INTO players (name, kind, spec, created) VALUES (?, 'bot', ?, ?)",
            (name, json.dumps(bot.to_json()), now()),
        ).lastrowid


def _name_free(reg: Registry, name: str) -> None:
    if reg.one("SELECT 1 FROM players WHERE name = ?", (name,)) or reg.one(
        "SELECT 1 FROM users WHERE name = ?", (name,)
    ):
        raise RegistryError(f"the name {name!r} is taken")


def is_bot(reg: Registry, player: str) -> bool:
    """Whether ``player`` is a bot or Random (False for people, Chaos and unknown names)."""
    row = reg.one("SELECT kind FROM players WHERE name = ?", (player,))
    return bool(row) and row[0] in ("bot", "random")


def bot_spec(reg: Registry, player: str) -> BotSpec:
    """The spec a non-human player plays as (its label is the player's name)."""
    row = reg.player(player)
    if row[2] not in ("bot", "random"):
        raise RegistryError(f"{player!r} is a {row[2]} player, not a bot")
    spec = BotSpec.from_json(json.loads(row[5]))
    return BotSpec(spec.kind, spec.options, name=player)


def set_standard_player(reg: Registry, user: str, rule_set: str, player: str | None) -> None:
    """Make the bot ``player`` the SP of a rule set or of a game string such as
    ``y_game(board_size=5)`` (None: no SP); Trainers and Admins only.

    A game string is a row of ``rule_sets`` (registry/open_games.py), so its SP
    is kept and shown exactly as a rule set's; a game string that has no
    recorded game yet gets its row here (the SP then heads its leaderboard
    before anyone played), after ``open_games.load`` checked it is a game."""
    with reg.transaction():
        _, role = reg.user_id(user)
        if role == "creator":
            raise RegistryError(f"only a Trainer or Admin may set a standard player; {user} is a Creator")
        rid = _game_row(reg, rule_set)
        pid = None
        if player is not None:
            row = reg.player(player)
            if row[2] not in ("bot", "random"):
                raise RegistryError(f"a standard player must be a bot; {player!r} is {row[2]}")
            pid = row[0]
        reg.db.execute("UPDATE rule_sets SET standard_player_id = ? WHERE id = ?", (pid, rid))


def _game_row(reg: Registry, name: str) -> int:
    """The ``rule_sets`` id of a saved rule set or a game string (made on first use)."""
    from registry import open_games

    if reg.one("SELECT 1 FROM rule_sets WHERE name = ?", (name,)):
        return reg.rule_set_id(name)
    try:
        return open_games.ensure_game(reg, name)
    except RegistryError as e:
        raise UnknownName(
            "rule set",
            name,
            f" (list them with `python -m registry list`), and not a game string either: {e}",
        ) from None


def standard_player(reg: Registry, rule_set: str) -> str | None:
    row = reg.one(
        "SELECT p.name FROM rule_sets r JOIN players p ON p.id = r.standard_player_id WHERE r.id = ?",
        (reg.rule_set_id(rule_set),),
    )
    return row[0] if row else None


def add_universe(reg: Registry, user: str, name: str) -> int:
    """A new universe owned by ``user``; people enter it through ``add_persona``."""
    check_player_name(name)
    with reg.transaction():
        uid, _ = reg.user_id(user)
        if reg.one("SELECT 1 FROM universes WHERE name = ?", (name,)):
            raise RegistryError(f"a universe called {name!r} exists already")
        return reg.db.execute(
            "INSERT INTO universes (name, owner_id, created) VALUES (?, ?, ?)", (name, uid, now())
        ).lastrowid


def add_persona(reg: Registry, user: str, universe: str, name: str) -> int:
    """A human player of ``user`` living in ``universe`` (one persona per user and universe)."""
    check_player_name(name)
    with reg.transaction():
        uid, _ = reg.user_id(user)
        vid = reg.universe_id(universe)
        if reg.one("SELECT 1 FROM players WHERE user_id = ? AND universe_id = ?", (uid, vid)):
            raise RegistryError(f"{user} already has a persona in universe {universe!r}")
        _name_free(reg, name)
        return reg.db.execute(
            "INSERT INTO players (name, kind, user_id, universe_id, created) VALUES (?, 'human', ?, ?, ?)",
            (name, uid, vid, now()),
        ).lastrowid


def universes_of(reg: Registry, user: str) -> list[str]:
    """Public and every universe where ``user`` has a persona (the specification's Universe combobox)."""
    uid, _ = reg.user_id(user)
    return [
        r[0]
        for r in reg.query(
            "SELECT DISTINCT v.name FROM universes v JOIN players p ON p.universe_id = v.id "
            "WHERE p.user_id = ? ORDER BY v.id",
            (uid,),
        )
    ]


def list_players(reg: Registry, universe: str | None = None) -> list[dict]:
    """Every player (or those that can play in ``universe``: its humans, all bots, Random)."""
    sql = (
        "SELECT p.name, p.kind, u.name, v.name, p.spec FROM players p "
        "LEFT JOIN users u ON u.id = p.user_id LEFT JOIN universes v ON v.id = p.universe_id"
    )
    args: tuple = ()
    if universe is not None:
        sql += " WHERE p.universe_id IS NULL OR p.universe_id = ?"
        args = (reg.universe_id(universe),)
    return [
        {"name": n, "kind": k, "user": u, "universe": v, "spec": json.loads(s) if s else None}
        for n, k, u, v, s in reg.query(sql + " ORDER BY p.id", args)
    ]


def _human(reg: Registry, name: str):
    row = reg.player(name)
    if row[2] != "human":
        raise RegistryError(f"friends are human players; {name!r} is a {row[2]} player")
    return row


def request_friend(reg: Registry, sender: str, receiver: str) -> None:
    """Send a friend request (the tic-tac-toe variations specification's "Add to
    Friends"); both players are human and in the same universe; a request already
    answered or pending is refused."""
    with reg.transaction():
        a, b = _human(reg, sender), _human(reg, receiver)
        if a[0] == b[0]:
            raise RegistryError("a player cannot befriend itself")
        if a[4] != b[4]:
            raise RegistryError(f"{sender!r} and {receiver!r} live in different universes")
        if are_friends(reg, sender, receiver):
            raise RegistryError(f"{sender!r} and {receiver!r} are friends already")
        if reg.one(
            "SELECT 1 FROM friend_requests WHERE from_id = ? AND to_id = ? AND status = 'pending'",
            (a[0], b[0]),
        ):
            raise RegistryError(f"{sender!r} has a pending request to {receiver!r} already")
        reg.db.execute(
            "INSERT OR REPLACE INTO friend_requests (from_id, to_id, status, created) "
            "VALUES (?, ?, 'pending', ?)",
            (a[0], b[0], now()),
        )


def answer_friend(reg: Registry, receiver: str, sender: str, accept: bool) -> None:
    """Accept or decline ``sender``'s pending request to ``receiver``."""
    with reg.transaction():
        a, b = _human(reg, sender), _human(reg, receiver)
        if not reg.one(
            "SELECT 1 FROM friend_requests WHERE from_id = ? AND to_id = ? AND status = 'pending'",
            (a[0], b[0]),
        ):
            raise RegistryError(f"{sender!r} has no pending friend request to {receiver!r}")
        reg.db.execute(
            "UPDATE friend_requests SET status = ?, answered = ? WHERE from_id = ? AND to_id = ?",
            ("accepted" if accept else "declined", now(), a[0], b[0]),
        )


def are_friends(reg: Registry, a: str, b: str) -> bool:
    x, y = reg.player(a)[0], reg.player(b)[0]
    return (
        reg.one(
            "SELECT 1 FROM friend_requests WHERE status = 'accepted' AND "
            "((from_id = ? AND to_id = ?) OR (from_id = ? AND to_id = ?))",
            (x, y, y, x),
        )
        is not None
    )


def friends(reg: Registry, player: str) -> dict:
    """``{"friends": [...], "pending_in": [...], "pending_out": [...]}`` of ``player``."""
    pid = reg.player(player)[0]
    rows = reg.query(
        "SELECT f.name, t.name, r.status FROM friend_requests r "
        "JOIN players f ON f.id = r.from_id JOIN players t ON t.id = r.to_id "
        "WHERE r.from_id = ? OR r.to_id = ?",
        (pid, pid),
    )
    out = {"friends": [], "pending_in": [], "pending_out": []}
    for sender, receiver, status in rows:
        other = receiver if sender == player else sender
        if status == "accepted":
            out["friends"].append(other)
        elif status == "pending":
            out["pending_out" if sender == player else "pending_in"].append(other)
    return {k: sorted(v) for k, v in out.items()}

"""The Flask application: configuration, the session key, and the blueprints."""

from __future__ import annotations

import os
import secrets
import sqlite3
from pathlib import Path

from flask import Flask, render_template

from registry.db import default_path
from registry.errors import RegistryError
from registry.store import Registry
from webapp import accounts, bench_runs, shapes, web
from webapp.live_store import LiveStore
from webapp.source import attach_database


def _secret_key(db_path: Path) -> bytes:
    """The key that signs session cookies: kept next to the database (mode 0600)
    so logins survive a restart; created on first use."""
    path = db_path.with_name(db_path.name + ".webapp-key")
    try:
        return bytes.fromhex(path.read_text().strip())
    except (OSError, ValueError):
        key = secrets.token_bytes(32)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(key.hex())
        return key


def protect_database(db_path: Path) -> None:
    """Only the server's user may read the database (mode 0600, like the
    session key): it holds the accounts' password hashes. SQLite makes its
    -wal and -shm files with the database file's mode."""
    for suffix in ("", "-wal", "-shm", ".webapp-lock"):
        path = Path(str(db_path) + suffix)
        if path.exists():
            os.chmod(path, 0o600)


def check_database(reg: Registry) -> None:
    """Refuse a damaged database before serving it (``PRAGMA quick_check``):
    a file damaged in the middle opens and serves its first pages, and fails
    only when a page reaches the damaged part (the leaderboard's 500)."""
    try:
        rows = [r[0] for r in reg.query("PRAGMA quick_check(5)")]
    except sqlite3.DatabaseError as e:
        rows = [str(e)]
    if rows != ["ok"]:
        raise damaged(reg.path, "; ".join(rows))


def damaged(path, why: str) -> RegistryError:
    """The refusal of a damaged database, whichever step found the damage."""
    return RegistryError(
        f"the database {path} is damaged ({why}); restore it from a backup "
        "(sqlite3's .recover command may save what is left) before serving it"
    )


def resolved_db(db_path: str | os.PathLike | None) -> str:
    """The database file a server uses (``--db`` or the registry's default)."""
    return str(Path(db_path) if db_path is not None else default_path())


def create_app(
    db_path: str | os.PathLike | None = None,
    *,
    secret_key: bytes | None = None,
    benchmark_games: int = 100,
    testing: bool = False,
    check: bool = True,
) -> Flask:
    """The web app over the registry at ``db_path`` (default: the registry's).
    ``check``: refuse a damaged database first (RegistryError; the server's
    worker processes leave it to their parent, which checked already)."""
    path = Path(db_path) if db_path is not None else default_path()
    try:
        with Registry(path) as reg:  # creates/migrates/seeds the database once
            if check:
                check_database(reg)
            accounts.ensure(reg)
            bench_runs.ensure(reg)
    except sqlite3.DatabaseError as e:
        # a damaged page can be met while the database is opened and migrated, before the check
        if "malformed" in str(e):
            raise damaged(path, str(e)) from None
        raise RegistryError(f"the database {path} cannot be used: {e}") from None
    protect_database(path)
    app = Flask(__name__)
    app.config.update(
        REGISTRY_DB=str(path),
        SECRET_KEY=secret_key or _secret_key(path),
        TESTING=testing,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        BENCHMARK_GAMES=benchmark_games,
        MAX_CONTENT_LENGTH=1 << 20,
    )
    app.extensions["live_games"] = LiveStore(path)
    app.extensions["registry_pool"] = web.RegistryPool(str(path))
    attach_database(path)
    app.before_request(web.check_csrf)
    app.teardown_appcontext(web.close_registry)
    app.jinja_env.globals.update(
        csrf_token=web.csrf_token,
        nav=web.nav,
        current_user=web.user,
        current_role=web.role,
        piece_svg=shapes.piece_svg,
        shape_outlines=shapes.outlines_json,
    )

    from webapp import views_auth, views_boards, views_end, views_factory, views_play

    for module in (views_auth, views_play, views_end, views_boards, views_factory):
        app.register_blueprint(module.bp)

    @app.errorhandler(400)
    @app.errorhandler(403)
    @app.errorhandler(404)
    def error(e):
        return render_template("error.html", error=e), e.code

    return app

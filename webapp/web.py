"""What every view needs: the request's registry, the logged-in user, role
checks and the CSRF token.

Why the checks are decorators on the server: a page that hides a button is a
convenience; the refusal that counts is the server's answer to the request,
which the tests send directly (a Creator posting a rename, a stranger posting
a move).
"""

from __future__ import annotations

import functools
import hmac
import secrets
import threading

from flask import abort, current_app, g, redirect, request, session, url_for

from registry.store import Registry

ROLE_ORDER = {"creator": 0, "trainer": 1, "admin": 2}


class RegistryPool:
    """Open registries lent to one request at a time.

    Why a pool: opening a connection ran the migration check (a write
    transaction, so a commit and a lock every request) and closing the last one
    checkpointed the WAL; together they were about 5 ms of each request and
    serialized all requests on the write lock (profiled for issue 16 item 7).
    create_app seeded the database once, so pooled registries skip the
    catalogue check. At most ``keep`` idle registries are kept; more are closed."""

    def __init__(self, path: str, keep: int = 16):
        self.path, self.keep = path, keep
        self._idle: list[Registry] = []
        self._lock = threading.Lock()

    def take(self) -> Registry:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        return Registry(self.path, seed=False, shared=True)

    def give_back(self, r: Registry) -> None:
        if r.db.in_transaction:  # a view that failed inside a transaction
            r.db.execute("ROLLBACK")
        with self._lock:
            if len(self._idle) < self.keep:
                self._idle.append(r)
                return
        r.close()

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for r in idle:
            r.close()


def reg() -> Registry:
    """The registry of this request (taken from the app's pool on first use,
    given back at the request's end)."""
    if "reg" not in g:
        g.reg = current_app.extensions["registry_pool"].take()
    return g.reg


def close_registry(_exc=None) -> None:
    r = g.pop("reg", None)
    if r is not None:
        current_app.extensions["registry_pool"].give_back(r)


def user() -> str | None:
    return session.get("user")


def role() -> str | None:
    """The user's role as the registry holds it now (an Admin's change applies
    at the next request, not the next login)."""
    name = user()
    if name is None:
        return None
    cached = g.get("role")  # asked by the decorators and by every template: once a request
    if cached is None or cached[0] != name:
        row = reg().one("SELECT role FROM users WHERE name = ?", (name,))
        cached = g.role = (name, row[0] if row else None)
    return cached[1]


def login_required(view):
    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        if user() is None or role() is None:
            session.clear()
            return redirect(url_for("auth.login", next=request.path))
        return view(*args, **kwargs)

    return wrapped


def role_required(minimum: str):
    """Only users of at least ``minimum`` (creator < trainer < admin); 403 otherwise."""

    def decorate(view):
        @functools.wraps(view)
        @login_required
        def wrapped(*args, **kwargs):
            if ROLE_ORDER[role()] < ROLE_ORDER[minimum]:
                abort(403, f"this needs the {minimum.title()} role or higher")
            return view(*args, **kwargs)

        return wrapped

    return decorate


def nav() -> dict:
    """The URLs of every page's header (the same for every request of this
    app): built once, since nine ``url_for`` calls were a tenth of a page's
    CPU (profiled under 20 users, issue 16 item 7)."""
    urls = current_app.extensions.get("nav_urls")
    if urls is None:
        from flask import url_for

        urls = current_app.extensions["nav_urls"] = {
            "style": url_for("static", filename="style.css"),
            "script": url_for("static", filename="app.js"),
            "home": url_for("play.home"),
            "rule_sets": url_for("boards.rule_sets"),
            "factory": url_for("factory.new"),
            "friends": url_for("boards.friends"),
            "users": url_for("auth.user_admin"),
            "logout": url_for("auth.logout"),
        }
    return urls


def csrf_token() -> str:
    token = session.get("csrf")
    if token is None:
        token = session["csrf"] = secrets.token_urlsafe(24)
    return token


def check_csrf() -> None:
    """Every POST carries the session's token in the form field ``csrf``."""
    if request.method != "POST":
        return
    sent = request.form.get("csrf", "")
    token = session.get("csrf")
    if not token or not hmac.compare_digest(sent, token):
        abort(400, "the form's security token is missing or stale; reload the page and retry")

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

from registry.errors import RegistryError, UnknownName
from registry.store import Registry
from webapp import accounts

ROLE_ORDER = {"creator": 0, "trainer": 1, "admin": 2}


class RegistryPool:
    """Open registries lent to one request at a time.

    Why a pool: opening a connection runs the migration check (a write
    transaction, so a commit and a lock every request) and closing the last one
    checkpoints the WAL; together they cost about 5 ms of each request and
    serialize all requests on the write lock (profiled under 20 simulated
    users, experiments/bench_webapp.py). create_app seeds the database once, so pooled registries skip the
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


def _account() -> tuple[str, str] | None:
    """(name, role) of this request's session as the server holds it now: None
    without a session, or once it was ended (logout, a password change) or
    expired, whatever the cookie says (webapp/accounts.py). The role is read
    on every request, so an Admin's change applies at the next request, not
    the next login. Asked by the decorators and every template: once a request."""
    if "account" not in g:
        sid = session.get("sid")
        g.account = accounts.session_account(reg(), sid) if sid else None
    return g.account


def user() -> str | None:
    account = _account()
    return account[0] if account else None


def role() -> str | None:
    account = _account()
    return account[1] if account else None


def log_in(name: str) -> None:
    """Start a new session of ``name`` in this browser: a fresh cookie (and
    CSRF token) naming a session the server keeps until logout."""
    session.clear()
    session["sid"] = accounts.start_session(reg(), name)
    g.pop("account", None)


def log_out() -> None:
    accounts.end_session(reg(), session.get("sid"))
    session.clear()
    g.pop("account", None)


def login_required(view):
    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        if user() is None:
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
    app): built once, since nine ``url_for`` calls are a tenth of a page's
    CPU (profiled under 20 simulated users, experiments/bench_webapp.py)."""
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
            "password": url_for("auth.password"),
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


#: Where the app lists the names of each kind, for a name it does not hold.
_WHERE_LISTED = {
    "rule set": "The Rule sets page (in the menu above) lists every rule set and recorded game string, "
    "and Play offers each one.",
    "player": "A game's leaderboard lists its players (Rule sets, then its Leaderboard); My stats is yours.",
}


def browser_words(e: RegistryError) -> str:
    """A registry refusal as a person in the browser reads it: an unknown name
    says where this app lists the names, not the terminal command the
    registry's message names (a web user has no terminal on the server)."""
    if isinstance(e, UnknownName) and e.kind in _WHERE_LISTED:
        return f"There is no {e.kind} called {e.name!r} here. {_WHERE_LISTED[e.kind]}"
    return str(e)

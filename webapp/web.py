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

from flask import abort, current_app, g, redirect, request, session, url_for

from registry.store import Registry

ROLE_ORDER = {"creator": 0, "trainer": 1, "admin": 2}


def reg() -> Registry:
    """The registry of this request (opened on first use, closed at its end;
    create_app seeded the database once, so requests skip the catalogue check)."""
    if "reg" not in g:
        g.reg = Registry(current_app.config["REGISTRY_DB"], seed=False)
    return g.reg


def close_registry(_exc=None) -> None:
    r = g.pop("reg", None)
    if r is not None:
        r.close()


def user() -> str | None:
    return session.get("user")


def role() -> str | None:
    """The user's role as the registry holds it now (an Admin's change applies
    at the next request, not the next login)."""
    name = user()
    if name is None:
        return None
    row = reg().one("SELECT role FROM users WHERE name = ?", (name,))
    return row[0] if row else None


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

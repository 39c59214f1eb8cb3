"""Log in, log out, sign up (a Creator; the very first account is the Admin),
and the Admin's user page (create Trainers and Admins)."""

from __future__ import annotations

import unicodedata
from urllib.parse import urlsplit

from flask import Blueprint, flash, redirect, render_template, request, url_for

from registry import players as reg_players
from registry import users
from registry.errors import RegistryError
from registry.names import normal_name
from webapp import accounts
from webapp.web import log_in, log_out, login_required, reg, role_required, user

bp = Blueprint("auth", __name__)


def safe_next(target: str | None) -> str:
    """Only paths of this site: a login link or a form's ``back`` must not send
    the user to another site. A browser drops tabs and newlines from an
    address and reads a backslash as a slash, so "/\t/evil.example" would go
    to //evil.example: any whitespace, control character or backslash, an
    address with a scheme or a host, and "//" refuse the target (the home page
    instead); a newline can then never reach the Location header either."""
    home = url_for("play.home")
    if not isinstance(target, str) or not target.startswith("/") or target.startswith("//"):
        return home
    if any(c.isspace() or c == "\\" or unicodedata.category(c)[0] == "C" for c in target):
        return home
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return home
    return target


@bp.route("/login", methods=["GET", "POST"])
def login():
    if request.method == "POST":
        try:
            found = accounts.authenticate(
                reg(), request.form.get("name", ""), request.form.get("password", ""), request.remote_addr
            )
        except accounts.Throttled as e:
            flash(str(e), "error")
            return render_template("login.html", first=False, next=request.form.get("next", "")), 429
        if found:
            log_in(found[0])
            return redirect(safe_next(request.form.get("next")))
        flash("wrong name or password", "error")
    first = not accounts.has_users(reg())
    return render_template("login.html", first=first, next=request.values.get("next", ""))


@bp.route("/logout", methods=["POST"])
def logout():
    log_out()  # the session ends on the server: a copy of the cookie is worth nothing now
    return redirect(url_for("auth.login"))


@bp.route("/register", methods=["GET", "POST"])
def register():
    first = not accounts.has_users(reg())
    if request.method == "POST":
        name = normal_name(request.form.get("name", ""))
        password = request.form.get("password", "")
        if password != request.form.get("password2", ""):
            flash("the two passwords differ", "error")
        else:
            try:
                # Admin if this is still the first account when it is written
                accounts.create_account(reg(), name, password, first_is_admin=True)
            except RegistryError as e:
                flash(str(e), "error")
            else:
                log_in(name)
                return redirect(url_for("play.home"))
    return render_template("register.html", first=first)


@bp.route("/password", methods=["GET", "POST"])
@login_required
def password():
    """Change one's own password: every session of the user ends (a cookie
    copied elsewhere stops working) and this browser gets a new one."""
    if request.method == "POST":
        new = request.form.get("new", "")
        try:
            if new != request.form.get("new2", ""):
                raise RegistryError("the two new passwords differ")
            if not accounts.authenticate(reg(), user(), request.form.get("current", ""), request.remote_addr):
                raise RegistryError("the current password is wrong")
            accounts.set_password(reg(), user(), new)
        except RegistryError as e:  # Throttled too
            flash(str(e), "error")
        else:
            name = user()
            log_in(name)
            flash("password changed; every other session of yours has ended", "ok")
            return redirect(url_for("play.home"))
    return render_template("password.html")


@bp.route("/users", methods=["GET", "POST"])
@role_required("admin")
def user_admin():
    if request.method == "POST":
        try:
            accounts.create_account(
                reg(),
                normal_name(request.form.get("name", "")),
                request.form.get("password", ""),
                request.form.get("role", "creator"),
                by=user(),
            )
            flash(f"user {request.form.get('name')} created", "ok")
        except RegistryError as e:
            flash(str(e), "error")
        return redirect(url_for("auth.user_admin"))
    bots = [p for p in reg_players.list_players(reg()) if p["kind"] == "bot"]
    return render_template("users.html", users=users.list_users(reg()), roles=users.ROLES, bots=bots)


@bp.route("/bots", methods=["POST"])
@role_required("admin")
def add_bot():
    """An Admin adds a bot player from a spec (``registry.players.add_bot``:
    the spec is validated against its kind's options, ``python -m agents``)."""
    name, spec = normal_name(request.form.get("name", "")), request.form.get("spec", "").strip()
    try:
        reg_players.add_bot(reg(), name, spec)
        flash(f"bot {name} ({spec}) added", "ok")
    except RegistryError as e:
        flash(str(e), "error")
    return redirect(url_for("auth.user_admin"))


@bp.route("/users/role", methods=["POST"])
@role_required("admin")
def change_role():
    """An Admin changes an existing user's role (``registry.users.set_role``:
    Admins only, and the last Admin keeps the role)."""
    name, role = request.form.get("name", ""), request.form.get("role", "")
    try:
        old = users.set_role(reg(), name, role, by=user())
        flash(f"{name} was {old.title()} and is {role.title()} now", "ok")
    except RegistryError as e:
        flash(str(e), "error")
    return redirect(url_for("auth.user_admin"))

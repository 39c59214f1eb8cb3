"""Log in, log out, sign up (a Creator; the very first account is the Admin),
and the Admin's user page (create Trainers and Admins)."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, session, url_for

from registry import users
from registry.errors import RegistryError
from webapp import accounts
from webapp.web import reg, role_required, user

bp = Blueprint("auth", __name__)


def safe_next(target: str | None) -> str:
    """Only local paths: a login link must not send the user to another site."""
    if target and target.startswith("/") and not target.startswith("//"):
        return target
    return url_for("play.home")


@bp.route("/login", methods=["GET", "POST"])
def login():
    if request.method == "POST":
        found = accounts.authenticate(reg(), request.form.get("name", ""), request.form.get("password", ""))
        if found:
            session.clear()  # a fresh session (and CSRF token) for the new login
            session["user"] = found[0]
            return redirect(safe_next(request.form.get("next")))
        flash("wrong name or password", "error")
    first = not accounts.has_users(reg())
    return render_template("login.html", first=first, next=request.args.get("next", ""))


@bp.route("/logout", methods=["POST"])
def logout():
    session.clear()
    return redirect(url_for("auth.login"))


@bp.route("/register", methods=["GET", "POST"])
def register():
    first = not accounts.has_users(reg())
    if request.method == "POST":
        name = request.form.get("name", "")
        password = request.form.get("password", "")
        if password != request.form.get("password2", ""):
            flash("the two passwords differ", "error")
        else:
            try:
                accounts.create_account(reg(), name, password, "admin" if first else "creator")
            except RegistryError as e:
                flash(str(e), "error")
            else:
                session.clear()
                session["user"] = name
                return redirect(url_for("play.home"))
    return render_template("register.html", first=first)


@bp.route("/users", methods=["GET", "POST"])
@role_required("admin")
def user_admin():
    if request.method == "POST":
        try:
            accounts.create_account(
                reg(),
                request.form.get("name", ""),
                request.form.get("password", ""),
                request.form.get("role", "creator"),
                by=user(),
            )
            flash(f"user {request.form.get('name')} created", "ok")
        except RegistryError as e:
            flash(str(e), "error")
        return redirect(url_for("auth.user_admin"))
    return render_template("users.html", users=users.list_users(reg()), roles=users.ROLES)

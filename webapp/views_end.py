"""Ending a game before its rules do: Resign and Abandon on the game page.

Resign: the resigning seat loses and the game is recorded and rated so
(``registry.results.resignation_returns``: a loss of the resigning side to each
other seat, the others tied), so leaving a lost game costs what losing it
would. Abandon: only for a game nobody can finish (a seat's bot cannot play
it, ``LiveGame.stuck_bots``); it is neither recorded nor rated, since it has no
result. Both are answered with the game page, which then shows the ending.

Both ask first: a Resign or Abandon without ``confirmed=yes`` ends nothing and
answers with the game page asking "Resign this game?" (``?end=resign``), whose
"Yes, resign" sends the confirmation; a stray click loses no game. The page
asks with a form, not a script, so it asks with JavaScript off too.
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, request, url_for

from webapp.live import MoveError
from webapp.views_play import _game_for_user, live_games
from webapp.web import login_required, reg, user

bp = Blueprint("end", __name__)


def _end(gid: str, how: str):
    _game_for_user(gid)  # 404 / 403 as the game page
    if request.form.get("confirmed") != "yes":
        return redirect(url_for("play.game_page", gid=gid, end=how))
    try:
        live_games().end(reg(), gid, user(), how)
    except MoveError as e:
        flash(str(e), "error")
    return redirect(url_for("play.game_page", gid=gid))


@bp.route("/game/<gid>/resign", methods=["POST"])
@login_required
def resign(gid):
    return _end(gid, "resign")


@bp.route("/game/<gid>/abandon", methods=["POST"])
@login_required
def abandon(gid):
    return _end(gid, "abandon")

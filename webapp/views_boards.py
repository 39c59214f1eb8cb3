"""Rule-set list, leaderboards (the tic-tac-toe variations specification's
buttons, Difficulty level and Related games), player stats, friends, the
Evolution and Learning-curve plots and Benchmark Selected Bots with its
progress.

Rules of the specification kept here: the player combobox lists those who played this game in
the selected universe; "Play New Game" shows for non-human players, friends and
the user's own personas, "Add to Friends" whenever it does not (and the user has a
persona in the universe to send it from); checkboxes for
Random and AI players; "Benchmark Selected Bots" and naming the Standard
Player for Trainers and Admins only (the POSTs are refused for Creators
whatever the page showed).
"""

from __future__ import annotations

import io

import pyspiel
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)

from analysis.tournament import make_tasks
from registry import benchmark as reg_benchmark
from registry import evolution as reg_evolution
from registry import leaderboard as reg_leaderboard
from registry import open_games, related_games, results, rulesets, strength, users
from registry import players as reg_players
from registry.errors import RegistryError
from registry.store import PUBLIC
from webapp import bench_runs, bots_for_game
from webapp.live import load_game, unplayable
from webapp.source import identity_key, web_game_string_problem
from webapp.views_auth import safe_next
from webapp.web import browser_words, login_required, reg, role, role_required, user

bp = Blueprint("boards", __name__)

NO_CURVE = (
    "Not enough data for a learning curve: it needs finished games of Random and of bots of one kind "
    "at two or more search budgets (simulations); Benchmark Selected Bots plays them."
)


@bp.route("/rules")
@login_required
def rule_sets():
    return render_template(
        "rules.html", rule_sets=rulesets.list_rule_sets(reg()), open_games=open_games.open_game_strings(reg())
    )


@bp.route("/ratings")
@login_required
def open_ratings():
    """The ratings of a game other than a rule set (Y family, Flipway, ...) in
    one of the user's universes: every player who played it, best skill first."""
    game = request.args.get("game", "")
    if game not in open_games.open_game_strings(reg()):
        abort(404, f"no recorded games of {game!r}")
    universes, universe = _universe_choice()
    return render_template(
        "ratings.html",
        game=game,
        rows=open_games.open_ratings(reg(), game, universe),
        universes=universes,
        universe=universe,
    )


def _universe_choice() -> tuple[list[str], str]:
    universes = reg_players.universes_of(reg(), user()) or [PUBLIC]
    wanted = request.values.get("universe")
    if wanted in universes:
        users.select_universe(reg(), user(), wanted)  # the specification's "most recently selected"
        return universes, wanted
    current = users.selected_universe(reg(), user())
    return universes, current if current in universes else PUBLIC


def _played(rule_set: str, universe: str) -> list[str]:
    rows = reg().query(
        "SELECT DISTINCT p.name FROM ratings r JOIN players p ON p.id = r.player_id "
        "WHERE r.rule_set_id = ? AND r.universe_id = ? ORDER BY p.name",
        (reg().rule_set_id(rule_set), reg().universe_id(universe)),
    )
    return [r[0] for r in rows]


def row_buttons(name: str, kind: str, universe: str) -> dict:
    """Which of Play New Game / Add to Friends a row shows for this user."""
    if kind in ("bot", "random"):
        return {"play": True, "friend": False}
    uid, _ = reg().user_id(user())
    owner = reg().one("SELECT user_id FROM players WHERE name = ?", (name,))[0]
    if owner == uid:
        # the tic-tac-toe variations specification: Play New Game "displays only
        # for non-human players, friends, and personas created by the user" (the home page then seats the user
        # second, the persona's prefilled slot); Add to Friends never shows here
        return {"play": True, "friend": False}
    mine = reg().one(
        "SELECT name FROM players WHERE user_id = ? AND universe_id = ?", (uid, reg().universe_id(universe))
    )
    friends = bool(mine) and reg_players.are_friends(reg(), mine[0], name)
    return {"play": friends, "friend": not friends and bool(mine)}


def _creator(rule_set: str) -> str | None:
    """The user who saved ``rule_set`` (None for the catalogue's)."""
    row = reg().one(
        "SELECT u.name FROM rule_sets r JOIN users u ON u.id = r.creator_id WHERE r.name = ?", (rule_set,)
    )
    return row[0] if row else None


@bp.route("/rules/<name>/leaderboard")
@login_required
def leaderboard(name):
    try:
        reg().rule_set_id(name)
    except RegistryError as e:
        abort(404, browser_words(e))
    game_string = open_games.is_game_string_row(reg(), name)
    universes, universe = _universe_choice()
    extra = [p for p in request.args.getlist("add") if p]
    try:
        board = reg_leaderboard.leaderboard(reg(), name, universe, user(), extra)
    except RegistryError as e:
        flash(str(e), "error")
        extra = []
        board = reg_leaderboard.leaderboard(reg(), name, universe, user())
    rows = [(e, row_buttons(e.player, e.kind, universe)) for e in board]
    sp = reg_players.standard_player(reg(), name)
    may_set_sp = role() in ("trainer", "admin")
    sp_choices = [p["name"] for p in _bots_that_play(name)] if may_set_sp else []
    return render_template(
        "leaderboard.html",
        name=name,
        rows=rows,
        universes=universes,
        sp=sp,
        difficulty=strength.difficulty(reg(), name, universe, sp),
        related=related_games.related_games(reg(), name),
        may_set_sp=may_set_sp,
        sp_choices=sp_choices,
        universe=universe,
        played=_played(name, universe),
        extra=extra,
        duration=reg_leaderboard.duration,
        may_benchmark=role() in ("trainer", "admin"),
        game_string=game_string,
        creator=_creator(name),
    )


def _bots_that_play(name: str) -> list[dict]:
    """The bots and Random that can play the rule set or game string ``name``
    (webapp/bots_for_game.py): the Standard Player is chosen from these."""
    bots = [p for p in reg_players.list_players(reg()) if p["kind"] in ("bot", "random")]
    try:
        if open_games.is_game_string_row(reg(), name):
            game_string, version = name, ""
        else:
            rid = reg().rule_set_id(name)
            version = reg().one("SELECT fingerprint FROM rule_sets WHERE id = ?", (rid,))[0]
            game_string = f"ttt(rules={identity_key(rid, version)})"
        game = load_game(game_string, version)
    except (RegistryError, pyspiel.SpielError, RuntimeError, ValueError):
        return bots  # a game the browser cannot load: _check_web_game says why
    return bots_for_game.offered(bots, game_string, game)


def _check_web_game(name: str) -> None:
    """Refuse (RegistryError) a game string this request may not load: one
    that names a file or an unsaved rule set (webapp/source.py), or, when it
    is not a saved rule set, a game the browser cannot play (it would get a
    leaderboard with Play links to a page that cannot be drawn)."""
    problem = web_game_string_problem(name)
    if problem:
        raise RegistryError(problem)
    if reg().one("SELECT 1 FROM rule_sets WHERE name = ? AND game_string IS NULL", (name,)):
        return  # a saved rule set
    try:
        game = load_game(name)
    except (pyspiel.SpielError, RuntimeError, ValueError) as e:
        raise RegistryError(
            f"{name!r} is not a game OpenSpiel can load: {str(e).split('. Available')[0]}"
        ) from None
    refusal = unplayable(name, game)
    if refusal:
        raise RegistryError(f"{refusal}; name its standard player with `python -m registry set-sp`")


@bp.route("/rules/<name>/standard-player", methods=["POST"])
@role_required("trainer")
def set_standard_player(name):
    """Name the Standard Player of a rule set or a game string (the tic-tac-toe variations specification: the
    leaderboard shows "the standard player (SP) for the rule set if there is one
    (in all universes)"). Who may: Trainers and Admins, as the registry's
    ``set-sp`` (docs/registry.md); a Creator's POST is refused here with 403
    and by the registry again. An empty choice removes the SP."""
    player = request.form.get("player", "") or None
    try:
        _check_web_game(name)
        bots = _bots_that_play(name)
        if (
            player is not None
            and player not in [p["name"] for p in bots]
            and reg_players.is_bot(reg(), player)
        ):
            raise RegistryError(f"{player} cannot play {name}: choose one of the bots offered")
        reg_players.set_standard_player(reg(), user(), name, player)
        flash(
            f"{player} is the standard player of {name}" if player else f"{name} has no standard player now",
            "ok",
        )
    except RegistryError as e:
        flash(str(e), "error")
    return redirect(url_for("boards.leaderboard", name=name))


@bp.route("/friends/request", methods=["POST"])
@login_required
def friend_request():
    target = request.form.get("player", "")
    universe = request.form.get("universe", PUBLIC)
    try:
        uid, _ = reg().user_id(user())
        mine = reg().one(
            "SELECT name FROM players WHERE user_id = ? AND universe_id = ?",
            (uid, reg().universe_id(universe)),
        )
        if not mine:
            raise RegistryError(f"you have no player in universe {universe!r}")
        reg_players.request_friend(reg(), mine[0], target)
        flash(f"friend request sent to {target}", "ok")
    except RegistryError as e:
        flash(str(e), "error")
    return redirect(safe_next(request.form.get("back")))


@bp.route("/friends", methods=["GET", "POST"])
@login_required
def friends():
    uid, _ = reg().user_id(user())
    mine = [r[0] for r in reg().query("SELECT id FROM players WHERE user_id = ?", (uid,))]
    if request.method == "POST":
        sender, receiver = request.form.get("sender", ""), request.form.get("receiver", "")
        try:
            if reg().player(receiver)[0] not in mine:
                abort(403, "you can answer only requests sent to your own players")
            accept = request.form.get("accept") == "1"
            reg_players.answer_friend(reg(), receiver, sender, accept)
            flash(
                f"{sender} and {receiver} are friends now"
                if accept
                else f"{sender}'s request to {receiver} declined",
                "ok",
            )
        except RegistryError as e:
            flash(str(e), "error")
        return redirect(url_for("boards.friends"))
    marks = ",".join("?" * len(mine)) or "NULL"
    pending = reg().query(
        f"SELECT a.name, b.name FROM friend_requests f JOIN players a ON a.id = f.from_id "
        f"JOIN players b ON b.id = f.to_id WHERE f.status = 'pending' AND f.to_id IN ({marks})",
        mine,
    )
    # each of the user's players (one per universe) with its friends and the
    # requests it sent that wait for an answer
    personas = reg().query(
        "SELECT p.name, v.name FROM players p JOIN universes v ON v.id = p.universe_id "
        "WHERE p.user_id = ? ORDER BY p.id",
        (uid,),
    )
    lists = [(name, universe, reg_players.friends(reg(), name)) for name, universe in personas]
    return render_template("friends.html", pending=pending, lists=lists)


@bp.route("/player/<name>")
@login_required
def player(name):
    try:
        row = reg().player(name)
    except RegistryError as e:
        abort(404, browser_words(e))
    if row[2] == "chaos":
        abort(404, "Chaos has no stats")
    games = results.games_of(reg(), player=name)  # rule sets' and game strings' alike
    for game in games:
        game["open"] = game["game_string"] is not None
    games.sort(key=lambda g: g["finished"])
    per_rule: dict[str, dict] = {}
    for game in games:
        seat = game["players"].index(name)
        mine, best = game["returns"][seat], max(game["returns"])
        s = per_rule.setdefault(
            game["rule_set"],
            {"games": 0, "wins": 0, "draws": 0, "losses": 0, "open": game.get("open", False)},
        )
        s["games"] += 1
        if mine == best and game["returns"].count(best) < len(game["returns"]):
            s["wins"] += 1
        elif mine == best:
            s["draws"] += 1
        else:
            s["losses"] += 1
    creations = []
    if row[2] == "human" and row[3] is not None:
        creator = reg().one("SELECT name FROM users WHERE id = ?", (row[3],))[0]
        creations = rulesets.creations(reg(), creator)
    tab = request.args.get("tab", "stats")
    return render_template(
        "player.html",
        name=name,
        kind=row[2],
        spec=row[5],
        per_rule=per_rule,
        recent=games[-10:][::-1],
        creations=creations,
        tab=tab,
    )


@bp.route("/rules/<name>/evolution", methods=["GET", "POST"])
@login_required
def evolution(name):
    """The leaderboard's "Show Evolution" posts its checked players here (a
    POST, so the form's CSRF token never lands in a URL); a GET link works too.
    With no player checked it goes back to the leaderboard and says what to
    check, rather than plotting a player nobody chose."""
    chosen = [p for p in request.values.getlist("players") if p]
    universe = request.values.get("universe", PUBLIC)
    if not chosen:
        flash(
            "Show Evolution: check at least one player (the boxes beside Random and the bots) "
            "to see how their skill changed",
            "error",
        )
        return redirect(url_for("boards.leaderboard", name=name, universe=universe))
    return render_template("evolution.html", name=name, players=chosen, universe=universe, metric="Rating")


@bp.route("/rules/<name>/evolution.png")
@login_required
def evolution_png(name):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    chosen = [p for p in request.args.getlist("players") if p]
    universe = request.args.get("universe", PUBLIC)
    if not chosen:
        abort(400, "name at least one player (players=NAME) to plot")
    try:
        data = reg_evolution.evolution(reg(), name, chosen, universe)
    except RegistryError as e:
        abort(404, browser_words(e))
    # names are text: a "$" in a player's name ("Eve$^^$") must not start
    # matplotlib's math notation, whose parse error made this a 500
    with matplotlib.rc_context({"text.parse_math": False}):
        return _evolution_png(plt, name, universe, data)


@bp.route("/rules/<name>/learning-curve")
@login_required
def learning_curve(name):
    """The leaderboard's "Show Learning-curve": rating against search budget
    (registry/strength.py), or why there is none yet."""
    try:
        reg().rule_set_id(name)
    except RegistryError as e:
        abort(404, browser_words(e))
    universe = request.args.get("universe", PUBLIC)
    curve = strength.learning_curve(reg(), name, universe)
    return render_template(
        "learning_curve.html", name=name, universe=universe, curve=curve, no_curve=NO_CURVE
    )


@bp.route("/rules/<name>/learning-curve.png")
@login_required
def learning_curve_png(name):
    import tempfile
    from pathlib import Path

    from analysis.plots import plot_rating_vs_compute

    universe = request.args.get("universe", PUBLIC)
    try:
        curve = strength.learning_curve(reg(), name, universe)
    except RegistryError as e:
        abort(404, browser_words(e))
    if curve is None:
        abort(404, NO_CURVE)
    # names are text: a "$" in them must not start math notation (the log axis's
    # tick labels need it, so it stays on)
    shown = f"{name} ({universe}, {curve.games} games)".replace("$", r"\$")
    with tempfile.TemporaryDirectory() as out:
        paths = plot_rating_vs_compute(
            curve.series,
            Path(out) / "curve",
            title=f"Learning curve: {shown}",
            xlabel="search budget: simulations per move (log scale)",
            flat={label.replace("$", r"\$"): band for label, band in curve.bands.items()},
        )
        return Response(paths[0].read_bytes(), mimetype="image/png")


def _evolution_png(plt, name, universe, data):
    import datetime as dt

    fig, ax = plt.subplots(figsize=(7, 4))
    for player_name, points in data.items():
        ax.plot(
            [dt.datetime.fromisoformat(p["at"]) for p in points],
            [p["skill"] for p in points],
            marker=".",
            label=player_name,
        )
    ax.set_title(f"{name} ({universe})")
    ax.set_xlabel("time (UTC)")
    ax.set_ylabel("skill rating (mu - 3 sigma)")
    ax.legend()
    fig.autofmt_xdate()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90)
    plt.close(fig)
    return Response(buf.getvalue(), mimetype="image/png")


@bp.route("/rules/<name>/benchmark", methods=["POST"])
@role_required("trainer")
def start_benchmark(name):
    chosen = request.form.getlist("players")
    universe = request.form.get("universe", PUBLIC)
    games = current_app.config["BENCHMARK_GAMES"]
    try:
        problem = web_game_string_problem(name)
        if problem:
            raise RegistryError(problem)
        played, seats, _ = reg_benchmark.game_of(reg(), name)
        for p in chosen:
            reg_players.bot_spec(reg(), p)  # only bots and Random
        if len(set(chosen)) < max(2, seats):
            raise RegistryError(f"check at least {max(2, seats)} bots to benchmark")
    except RegistryError as e:
        flash(str(e), "error")
        return redirect(url_for("boards.leaderboard", name=name))
    # the run's size, exactly as registry.benchmark will build it
    specs = [reg_players.bot_spec(reg(), p) for p in sorted(set(chosen))]
    total = len(make_tasks(played, specs, games, 0))
    jid = bench_runs.start(
        reg(), current_app.config["REGISTRY_DB"], user(), name, chosen, universe, games, total
    )
    return redirect(url_for("boards.benchmark_page", jid=jid))


def _job(jid) -> bench_runs.BenchmarkRun:
    job = bench_runs.load(reg(), jid)
    if job is None:
        abort(404, "no such benchmark run")
    return job


@bp.route("/benchmark/<jid>")
@role_required("trainer")
def benchmark_page(jid):
    job = _job(jid)
    return render_template(
        "benchmark.html", job=job, done=job.progress(reg()), standings=job.standings(reg())
    )


@bp.route("/benchmark/<jid>/status")
@role_required("trainer")
def benchmark_status(jid):
    # Read "finished" before counting: a run that ends between the two reads
    # must not report itself finished with its last game uncounted.
    job = _job(jid)
    return jsonify(
        done=job.progress(reg()), total=job.total, finished=job.finished, error=job.error, result=job.result
    )

"""The home page (choose a game and the players) and the game page.

Who may sit where (server-side): every game has the user's own player in at
least one seat (its human player of the chosen universe); the other seats are
bots, Random, or human players who are the user's friends. Only the users
seated in a game may see it or move in it, and only on their own turn.
"""

from __future__ import annotations

import random
import time

import pyspiel
from flask import Blueprint, abort, current_app, flash, jsonify, redirect, render_template, request, url_for

from registry import open_games, rulesets, users
from registry import players as reg_players
from registry.errors import RegistryError
from registry.store import PUBLIC
from webapp import boards, bots_for_game, game_menu, game_story, round_story
from webapp.live import OTHER_GAMES, LiveGame, MoveError, Seat, load_game, unplayable
from webapp.source import identity_key, web_game_string_problem
from webapp.web import browser_words, login_required, reg, user

bp = Blueprint("play", __name__)


def live_games():
    """This process's LiveStore (the games themselves are in the registry)."""
    return current_app.extensions["live_games"]


def my_player(universe: str) -> str | None:
    uid, _ = reg().user_id(user())
    row = reg().one(
        "SELECT name FROM players WHERE user_id = ? AND universe_id = ?", (uid, reg().universe_id(universe))
    )
    return row[0] if row else None


def game_string_of(choice: str) -> tuple[str, str | None, str]:
    """(OpenSpiel game string, registry rule set or None, the rule set's
    fingerprint or "") of a home-page choice.

    Why the game-string check: the registry's ``rule_sets`` table also holds
    game strings recorded by the CLI, ``set-sp`` or ``ensure_game`` (e.g.
    ``flipway(board_size=4)``); those rows are played as their own string,
    not as ``ttt(rules=NAME)`` (which would load a game string as a ttt rule
    set and fail with "Expected type: kString, got kGame")."""
    if choice in OTHER_GAMES:
        return choice, None, ""
    rid = reg().rule_set_id(choice)  # RegistryError if unknown
    problem = web_game_string_problem(choice)  # a row made from a game string that names a file
    if problem:
        raise RegistryError(problem)
    if open_games.is_game_string_row(reg(), choice):
        return choice, None, ""
    version = reg().one("SELECT fingerprint FROM rule_sets WHERE id = ?", (rid,))[0]
    # by identity, not name: a rename cannot touch a game in progress (webapp/source.py)
    return f"ttt(rules={identity_key(rid, version)})", choice, version


def seat_options(universe: str) -> list[dict]:
    """Who may fill a seat: the user, its friends of this universe, bots, Random."""
    me = my_player(universe)
    out = []
    for p in reg_players.list_players(reg(), universe):
        if p["kind"] == "chaos":
            continue
        if (
            p["kind"] == "human"
            and p["name"] != me
            and not (me and reg_players.are_friends(reg(), me, p["name"]))
        ):
            continue
        out.append(p)
    return out


@bp.route("/")
@login_required
def home():
    universes = reg_players.universes_of(reg(), user()) or [PUBLIC]
    universe = request.args.get("universe") or users.selected_universe(reg(), user())
    if universe not in universes:
        universe = PUBLIC
    choice = request.args.get("game", "Tic-Tac-Toe")
    try:
        game_string, _, version = game_string_of(choice)
        game = load_game(game_string, version)
        refusal = unplayable(game_string, game)
        if refusal:
            raise ValueError(refusal)
        n = game.num_players()
        options = bots_for_game.offered(seat_options(universe), game_string, game)
    except (RegistryError, ValueError, pyspiel.SpielError, RuntimeError) as e:
        # no silent fallback to another game: the page says why this one
        # cannot be played and offers no seats for it
        why = browser_words(e) if isinstance(e, RegistryError) else e
        flash(f"{choice} cannot be played here: {why}", "error")
        n, options = 0, []
    me = my_player(universe)
    opponent = request.args.get("opponent", "Random")
    # the leaderboard's Play New Game prefills its row's player in the second
    # seat (the tic-tac-toe variations specification); for the user's own persona the first seat is Random
    defaults = ([me] if opponent != me else ["Random"]) + [opponent] + ["Random"] * (n - 2)
    mine = in_progress(user())
    listed = [r["name"] for r in rulesets.list_rule_sets(reg())]
    # game strings with stored games (recorded by the CLI or the browser), and
    # the choice itself when it is none of these and playable (a string a link
    # brought, e.g. a leaderboard's Play New Game of a string with no games yet)
    recorded = [g for g in open_games.open_game_strings(reg()) if g not in OTHER_GAMES]
    if n and choice not in listed and choice not in OTHER_GAMES and choice not in recorded:
        recorded.append(choice)
    groups = game_menu.menu(reg(), user(), recorded)
    return render_template(
        "home.html",
        groups=groups,
        chosen=game_menu.find(groups, choice),
        choice=choice,
        seats=n,
        defaults=defaults,
        options=options,
        universes=universes,
        universe=universe,
        mine=mine,
    )


def in_progress(name: str) -> list[dict]:
    """The user's games in progress as the home page lists them: the rule
    set's name (or the game string), the players, and whose turn it is by
    name ("your turn", or the players the user waits for)."""
    out = []
    for row in live_games().unfinished_of(reg(), name):
        game = live_games().get(reg(), row["id"])
        if game is None:
            continue
        seats = game.seat_of(name)
        if game.waiting_for(name):
            turn = "your turn"
        else:
            turn = "waiting for " + game_story.names(game, game.waiting_seats(seats))
        out.append({**row, "name": game_menu.label_of(row["game_string"]), "turn": turn})
    return out


@bp.route("/play/new", methods=["POST"])
@login_required
def new_game():
    form = request.form
    universe = form.get("universe", PUBLIC)
    try:
        if universe not in (reg_players.universes_of(reg(), user()) or [PUBLIC]):
            raise RegistryError(f"you have no persona in universe {universe!r}")
        game_string, rule_set, version = game_string_of(form.get("game", ""))
        game = load_game(game_string, version)
        refusal = unplayable(game_string, game)
        if refusal:
            raise ValueError(refusal)
        n = game.num_players()
        names = [form.get(f"seat{i}", "") for i in range(n)]
        allowed = {p["name"]: p for p in seat_options(universe)}
        me = my_player(universe)
        if me not in names:
            raise RegistryError("one seat must be yours: you play the game you start")
        if len(set(names)) != len(names):
            raise RegistryError("each seat needs a different player")
        seats = []
        for name in names:
            p = allowed.get(name)
            if p is None:
                raise RegistryError(
                    f"{name or '(empty)'!r} cannot take a seat here: choose "
                    "yourself, a friend, a bot or Random"
                )
            if p["kind"] == "human":
                owner = reg().one(
                    "SELECT u.name FROM players p JOIN users u ON u.id = p.user_id WHERE p.name = ?", (name,)
                )[0]
                seats.append(Seat(name, "human", owner))
            else:
                seats.append(Seat(name, p["kind"], None, reg_players.bot_spec(reg(), name)))
        game = LiveGame.start(
            game_string, rule_set, universe, seats, random.SystemRandom().randrange(2**31), version
        )
        game.join(user(), time.time())  # the person who starts the game has it open
    except (RegistryError, ValueError, pyspiel.SpielError, RuntimeError) as e:
        flash(str(e), "error")
        return redirect(url_for("play.home", game=form.get("game", "")))
    live_games().create(reg(), game)
    return redirect(url_for("play.game_page", gid=game.id))


def _game_for_user(gid: str) -> LiveGame:
    game = live_games().get(reg(), gid)
    if game is None:
        abort(404, "no such game (finished games are kept for an hour)")
    if user() not in game.users():
        abort(403, "only the players of this game may see it")
    # a seated person who opens the game has joined it: from now on its clock
    # may run (a friend seated in a game it never opened plays no moves)
    game = live_games().join(reg(), game, user())
    # seconds per turn: a decision whose time ran out is played now (a random
    # legal move, LiveGame.time_out), before this page, poll or move sees it
    return live_games().enforce_clock(reg(), game)


@bp.route("/game/<gid>")
@login_required
def game_page(gid):
    ending = request.args.get("end")  # Resign or Abandon asks first (webapp/views_end.py)
    return _game_page(
        _game_for_user(gid),
        request.args.get("ply", type=int),
        ending if ending in ("resign", "abandon") else None,
    )


def _viewer(game: LiveGame) -> tuple[int, bool]:
    """(the seat the user's page shows, whether that seat must decide now)."""
    seat = game.seat_to_move(user())
    return (seat, True) if seat is not None else (game.seat_of(user())[0], False)


def _remaining(game: LiveGame, viewer: int, mine: bool) -> float | None:
    """Seconds left for a decision due now, as this user may be told them: its
    own seat's when it must decide; with perfect information the first due
    seat's otherwise; with hidden information nobody else's (another seat's
    clock restarts at each of its turns, hidden ones included)."""
    deadline = game.seat_deadline(viewer) if mine else game.deadline() if game.perfect else None
    return None if deadline is None else max(0.0, deadline - time.time())


def _game_page(game: LiveGame, ply: int | None = None, ending: str | None = None):
    """The game page of ``game`` (never changed in place: no lock needed to draw
    it). Everything on it is drawn from the viewing seat's information state
    (``LiveGame.view_mark``, ``waiting_seats``, ``last_move_for``). ``ply``:
    the replay's position after that many decisions (perfect information).
    ``ending``: "resign" or "abandon" to ask the user to confirm that ending."""
    viewer, mine = _viewer(game)
    mine_seats = game.seat_of(user())
    story = _story(game, viewer, mine_seats, ply)
    if story["ply"] is not None:
        mine = False  # a replayed position is looked at, not played
    # simultaneous rounds: what was played and what happened; meanings (webapp/round_story.py)
    story.update(round_story.round_words(game, viewer, mine))
    drawing = boards.draw(game.game_string, story["state"], mine, viewer, game.version)
    if story["ply"] is None:
        for cell in game_story.winning_cells(game):
            boards.mark(drawing, cell, "win")
    boards.mark(drawing, game_story.cell_of(story["last"]), "last")
    # the seat's observation, its seats numbered as the page numbers them
    story["seen_text"] = game_story.seats_numbered(drawing.text or "") if not game.perfect else ""
    over = game.over()  # by its rules, or resigned or abandoned (webapp/views_end.py)
    returns = game.returns() if over else None
    in_round = game.in_round()
    planned = sorted(p + 1 for p in game.plans if game.seats[p].user == user())
    return render_template(
        "game.html",
        game=game,
        drawing=drawing,
        mine=mine,
        over=over,
        returns=returns,
        seat=viewer,
        rule_set_name=live_games().rule_set_name(reg(), game),
        moves=game.view_mark(viewer),
        last_move=game.last_move_for(mine_seats),
        in_round=in_round,
        planned=planned,
        waiting=[p + 1 for p in game.waiting_seats(mine_seats)],
        waiting_names=game_story.names(game, game.waiting_seats(mine_seats)),
        remaining=_remaining(game, viewer, mine),
        story=story,
        ending=ending,
    )


def _story(game: LiveGame, viewer: int, seats: list[int], ply: int | None) -> dict:
    """The page's words about the game (webapp/game_story.py) and the position
    it draws: the game's own, or with ``ply`` (perfect information only) the
    replay's position after that many decisions."""
    moves = game_story.move_names(game)
    if ply is not None and (not game.perfect or not 0 <= ply < len(moves)):
        ply = None  # the position now (also what a hidden-information game always shows)
    shown = moves if ply is None else moves[:ply]
    return {
        "you": game_story.identity(game, seats),
        "sides": [game_story.seat_words(game, s) for s in range(len(game.seats))],
        "turn": game_story.turn_words(game, viewer),
        "result": game_story.result(game, seats) if game.over() else None,
        "moves": moves,
        "ply": ply,
        "state": game.state if ply is None else game_story.position_after(game, ply),
        "last": shown[-1] if shown else None,
        # hidden information: the moves as the seat saw them, what its last move
        # found, and the whole board once the game is over
        "seen": game_story.seen_moves(game, viewer),
        "hit": game_story.hidden_hit(game, viewer),
        "revealed": "" if game.perfect else boards.revealed(game.game_string, game.state, game.version),
    }


@bp.route("/game/<gid>/move", methods=["POST"])
@login_required
def move(gid):
    """Apply the move and answer with the game page itself.

    Why not a redirect to it (post/redirect/get): a redirect would make every
    move two requests, the second only drawing what this one just computed,
    and a move's round trip is what a person waits for. What
    the redirect guarded against is guarded here: the form carries ``at``,
    the number of decisions of the position it was drawn from, and a move
    sent from any other position (a reload that sends the form again, a
    stale tab) is refused; static/app.js replaces the address with the game
    page's, so a reload asks for the page, not the move."""
    game = _game_for_user(gid)
    try:
        at = request.form.get("at")
        if at is not None and at != str(game.view_mark(_viewer(game)[0])):
            raise MoveError(
                "the game moved on since this page was drawn: see the position now and move again"
            )
        # The form's hidden "action" (set by a cell click) comes first and is
        # empty when a move button, which sends its own "action", was pressed.
        sent = [v for v in request.form.getlist("action") if v]
        if not (sent and sent[-1].lstrip("-").isdigit()):
            raise MoveError("a move is an action number")
        game = live_games().move(reg(), gid, user(), int(sent[-1]))
    except MoveError as e:
        msg = str(e)  # a bot's refusal too (LiveGame._bot_step), never hidden behind another
        if request.accept_mimetypes.best == "application/json":
            return jsonify(ok=False, error=msg), 409
        flash(msg, "error")
        game = _game_for_user(gid)
    if request.accept_mimetypes.best == "application/json":
        return jsonify(ok=True)
    return _game_page(game)


@bp.route("/game/<gid>/status")
@login_required
def status(gid):
    game = _game_for_user(gid)
    # what the seat knows only: a plan stays hidden (the other seat's page
    # changes when the round resolves, not when a plan comes in), and so do
    # hidden turns (``view_mark``) and another seat's clock (``_remaining``)
    viewer, mine = _viewer(game)
    return jsonify(
        moves=game.view_mark(viewer),
        over=game.over(),
        your_turn=mine,
        recorded=game.recorded,
        remaining=_remaining(game, viewer, mine),
    )

"""Seconds per turn in the web app (a rule set's ``seconds_per_turn``, the tic-tac-toe
variations specification's "300 seconds/turn"), enforced on the server for human
decisions: when a person's time runs out a random legal move (a random plan in a
round) is played for the seat, the same in every process, and a move sent afterwards
from the old position is refused. Tested with limits of 3 seconds (short enough for
the suite, long enough for a loaded machine to make its first checks in time) and with
an injected clock."""

from __future__ import annotations

import copy
import html
import json
import re
import time

import pytest

from games.ttt import rules as ttt_rules
from registry import results, rulesets
from registry.errors import RegistryError
from test_webapp import EXAMPLES, Browser, befriend, db, live, make_users
from webapp.live import LiveGame
from webapp.live_store import LiveStore


def save_timed(app, name: str, base: str, seconds: int, path=None) -> None:
    record = copy.deepcopy(json.loads(path.read_text()) if path else ttt_rules.resolve(base).record)
    record["name"] = name
    record.pop("notes", None)
    record["seconds_per_turn"] = seconds
    with db(app) as reg:
        rulesets.save_rule_set(reg, "ada", record)


def test_a_timed_out_turn_plays_a_random_legal_move_for_the_seat(app):
    make_users(app)
    save_timed(app, "TTT-3s", "Tic-Tac-Toe", 3)  # 3 s: a loaded machine still sees the first checks in time
    cy = Browser(app, "cy")
    url = cy.post("/play/new", game="TTT-3s", universe="Public", seat0="cy", seat1="Random").headers[
        "Location"
    ]
    page = cy.get(url).text
    left = re.search(r'id="clock" class="clock" data-remaining="([\d.]+)" data-limit="3"', page)
    assert left and 0 < float(left.group(1)) <= 3.0
    assert cy.c.get(url + "/status").json["remaining"] <= 3.0
    game = live(app, url)
    assert game.moves == [] and game.deadline() == pytest.approx(game.turn_started + 3)
    time.sleep(max(0.0, game.deadline() - time.time()) + 0.2)
    page = html.unescape(cy.get(url).text)  # the page finds the time ran out
    after = live(app, url)
    assert len(after.moves) == 2  # cy's random move, Random's answer
    assert after.timeouts == [(0, 0)]  # move 0 was not cy's choice
    assert "time ran out for seat 1; a random legal move was played" in page
    # the move is legal, drawn from the game's seed (another store plays the same)
    assert after.moves[0] in game.state.legal_actions()
    other = LiveGame(
        "x",
        game.game_string,
        game.rule_set,
        "Public",
        game.seats,
        game.seed,
        game.version,
        turn_started=game.turn_started,
    )
    other.time_out(game.turn_started + 3)
    assert other.moves[:2] == after.moves
    # a move sent from the position the person saw is refused, not applied
    r = cy.post(url + "/move", action=str(after.moves[0] ^ 1), at="0")
    assert "the game moved on since this page was drawn" in html.unescape(r.text)
    assert live(app, url).moves == after.moves
    # the clock started again for the next decision
    assert after.turn_started > game.turn_started and after.deadline() > time.time()


def test_the_clock_with_an_injected_time_and_a_game_to_the_end(app):
    make_users(app)
    save_timed(app, "TTT-300s", "Tic-Tac-Toe", 300)
    cy = Browser(app, "cy")
    url = cy.post("/play/new", game="TTT-300s", universe="Public", seat0="cy", seat1="Random").headers[
        "Location"
    ]
    store: LiveStore = app.extensions["live_games"]
    game = live(app, url)
    assert game.seconds_per_turn == 300
    with db(app) as reg:
        assert store.enforce_clock(reg, game, clock=lambda: game.turn_started + 299) is game
        t = game.turn_started
        while not game.state.is_terminal():  # nobody moves: time runs out each turn
            t += 301
            game = store.enforce_clock(reg, game, clock=lambda t=t: t)
    page = html.unescape(cy.get(url).text)
    assert re.search(r"recorded as game \d+ and rated", page), page  # the record replays
    assert 'id="clock"' not in page  # no clock once it is over
    # the record marks cy's moves (every even move: cy is seat 0) and not Random's
    with db(app) as reg:
        record = results.games_of(reg, "TTT-300s")[-1]
    assert record["id"] == game.recorded and record["moves"] == game.moves
    assert record["timeouts"] == [(i, 0) for i in range(0, len(game.moves), 2)]
    stats = html.unescape(cy.get("/player/cy").text)
    n = len(record["timeouts"])
    assert f"({n} moves played when time ran out)" in stats


def test_no_limit_no_clock_and_no_write(app):
    make_users(app)
    cy = Browser(app, "cy")
    url = cy.post("/play/new", game="Tic-Tac-Toe", universe="Public", seat0="cy", seat1="Random").headers[
        "Location"
    ]
    assert 'id="clock"' not in cy.get(url).text
    game = live(app, url)
    assert game.seconds_per_turn is None and game.deadline() is None
    with db(app) as reg:
        assert app.extensions["live_games"].enforce_clock(reg, game, clock=lambda: 1e12) is game
    assert cy.c.get(url + "/status").json["remaining"] is None


def test_in_a_round_only_the_person_who_did_not_plan_gets_a_random_plan(app):
    """Sim-Place-Then-Move with 3 s per turn: cy plans, dee does not; when the
    round's time runs out dee's plan is drawn and the round resolves with cy's
    own plan. One person's plan does not restart the other's clock."""
    make_users(app)
    save_timed(app, "Sim-3s", None, 3, path=EXAMPLES / "Sim-Place-Then-Move.json")
    cy, dee = befriend(app, "cy", "dee")
    url = cy.post("/play/new", game="Sim-3s", universe="Public", seat0="cy", seat1="dee").headers["Location"]
    dee.get(url)  # dee opens the game: its clock runs from now (a seat never opened has none)
    start = live(app, url)
    assert start.in_round() and start.due_seats() == [0, 1]
    plan = start.state.legal_actions(0)[1]
    at = re.search(r'name="at" value="([^"]*)"', cy.get(url).text).group(1)  # the seat's mark of the round
    cy.post(url + "/move", action=str(plan), at=at)
    planned = live(app, url)
    assert planned.plans == {0: plan} and planned.due_seats() == [1]
    assert planned.turn_started == start.turn_started  # the round's clock, not restarted
    time.sleep(max(0.0, planned.deadline() - time.time()) + 0.2)
    assert "time ran out for seat 2" in html.unescape(dee.get(url).text)
    after = live(app, url)
    order = start.state.core.simultaneous_player_list()
    joint = dict(zip(order, after.moves[:2], strict=True))
    assert joint[0] == plan and joint[1] in start.state.legal_actions(1)
    assert after.plans == {} and len(after.moves) == 2
    # only dee's plan is marked, at the index the core's order gives it
    assert after.timeouts == [(order.index(1), 1)]


def test_a_record_without_timeouts_says_so_and_bad_timeouts_are_refused(app):
    """A game every seat played itself has no timeouts in its record; a pair
    naming no move or seat of the game is refused before anything is stored."""
    make_users(app)
    moves = [0, 3, 1, 4, 2]  # black wins on the first row
    with db(app) as reg:
        before = len(results.games_of(reg, "Tic-Tac-Toe"))
        for bad in ([(5, 0)], [(0, 2)], [(-1, 0)], [("x", 0)]):
            with pytest.raises(RegistryError, match="timeouts"):
                results.record_game(reg, "Tic-Tac-Toe", ["cy", "Random"], [1.0, -1.0], moves, timeouts=bad)
        assert len(results.games_of(reg, "Tic-Tac-Toe")) == before
        gid = results.record_game(reg, "Tic-Tac-Toe", ["cy", "Random"], [1.0, -1.0], moves)
        marked = results.record_game(
            reg, "Tic-Tac-Toe", ["cy", "Random"], [1.0, -1.0], moves, timeouts=[(2, 0), (1, 1), (2, 0)]
        )
        stored = {g["id"]: g for g in results.games_of(reg, "Tic-Tac-Toe")}
    assert stored[gid]["timeouts"] == []
    assert stored[marked]["timeouts"] == [(1, 1), (2, 0)]  # sorted, each once

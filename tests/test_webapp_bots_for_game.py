"""Which bots a game offers (webapp/bots_for_game.py): every bot offered for a
catalogue or example rule set plays a move of it; the others are not listed on
the home page and are refused at Start with the reason; a bot that cannot move
in a game already started says so instead of "a move is an action number"."""

from __future__ import annotations

import html
import json
import random
import re
from pathlib import Path

import pyspiel
import pytest

import agents
import games  # noqa: F401  (registers ttt with OpenSpiel)
import tiers
from agents import register_bot_kind, unregister_bot_kind
from analysis.tournament import check_bots
from registry import players
from test_webapp import Browser, db, live, make_users, save_example
from webapp import bots_for_game
from webapp.live import LiveGame, MoveError, Seat, load_game

ROOT = Path(__file__).resolve().parents[1]
RULE_SETS = sorted(
    [f"ttt(rules={p.stem})" for p in (ROOT / "games" / "ttt" / "catalogue").glob("*.json")]
    + [
        f"ttt(rules=games/ttt/examples/{p.name})"
        for p in (ROOT / "games" / "ttt" / "examples").glob("*.json")
    ]
)
#: One bot of every kind the project has, each with a small budget (a move each).
KINDS = (
    "random",
    "mcts:simulations=20",
    "alphabeta:depth=1",
    "openspiel_mcts:simulations=20",
    "ismcts:simulations=10",
    "sm_mcts:simulations=10",
)


class CountingGame(LiveGame):
    """A LiveGame that counts its bots' moves."""

    bot_moves = 0

    def _bot_step(self, seat: int) -> int:
        self.bot_moves += 1
        return super()._bot_step(seat)


@pytest.mark.parametrize("game_string", tiers.sample(RULE_SETS, quick=6))
def test_every_bot_offered_for_a_rule_set_plays_a_move_of_it(game_string):
    """The bot sits in seat 1, a person in seat 2 (answering with random legal
    moves or plans), Random in the others, until the bot has moved once."""
    game = load_game(game_string)
    offered = []
    for text in KINDS:
        spec = agents.BotSpec.parse(text)
        if spec.kind != "random" and bots_for_game.refusal(spec, game_string, game):
            continue
        offered.append(spec.kind)
        person = 1 if game.num_players() > 1 else None
        seats = [
            Seat("me", "human", "me")
            if i == person
            else Seat("b", "bot", None, spec)
            if i == 0
            else Seat(f"r{i}", "random", None, agents.BotSpec.parse("random"))
            for i in range(game.num_players())
        ]
        g = CountingGame.start(game_string, None, "Public", seats, seed=3)
        rng = random.Random(5)
        g.advance()
        while g.bot_moves == 0 and not g.state.is_terminal():
            seat = g.seat_to_move("me")
            assert seat is not None, (game_string, text)
            g.human_move("me", rng.choice(g.state.legal_actions(seat)))
        assert g.bot_moves >= 1, (game_string, text)
    # information-set MCTS plays every rule set, hidden information or not
    assert "ismcts" in offered, game_string


def test_search_bots_are_offered_only_where_they_see_no_more_than_their_seat():
    cloaked = "ttt(rules=games/ttt/examples/Phantom-TTT-Corners.json)"
    rounds = "ttt(rules=games/ttt/examples/Sim-Place-Then-Move.json)"
    cloaked_rounds = "ttt(rules=games/ttt/examples/Sim-Cloaked-Place-Then-Move.json)"

    def kinds(game_string):
        game = load_game(game_string)
        return {
            agents.BotSpec.parse(t).kind
            for t in KINDS
            if not bots_for_game.refusal(agents.BotSpec.parse(t), game_string, game)
        }

    assert kinds("ttt(rules=Tic-Tac-Toe)") == {
        "random",
        "mcts",
        "alphabeta",
        "openspiel_mcts",
        "ismcts",
        "sm_mcts",
    }
    assert kinds(cloaked) == {"random", "ismcts"}
    assert kinds(rounds) == {"random", "ismcts", "sm_mcts"}
    assert kinds(cloaked_rounds) == {"random", "ismcts"}


def test_a_bot_kind_of_unknown_needs_is_kept_from_hidden_information_by_the_web_app_and_tournaments(app):
    """A newly registered kind is on no list of kinds that see no more than their
    seat: the home page's seat list leaves it out for a cloaked rule set, Start
    refuses it, and a tournament refuses it too; on Tic-Tac-Toe both take it."""

    def build(game, player, seed):
        return pyspiel.make_uniform_random_bot(player, seed)

    register_bot_kind("newly_written", build)
    try:
        make_users(app)
        save_example(app, "Phantom-TTT-Corners")
        with db(app) as reg:
            players.add_bot(reg, "Newb", "newly_written")
        cy = Browser(app, "cy")
        home = cy.get("/?game=Phantom-TTT-Corners").text
        assert ">Newb (" not in re.search(r'<select name="seat1".*?</select>', home, re.S).group(0)
        r = cy.post("/play/new", game="Phantom-TTT-Corners", universe="Public", seat0="cy", seat1="Newb")
        assert "Newb (newly_written) may search the whole position" in html.unescape(
            cy.get(r.headers["Location"]).text
        )
        home = cy.get("/?game=Tic-Tac-Toe").text
        assert ">Newb (" in re.search(r'<select name="seat1".*?</select>', home, re.S).group(0)
        cloaked = "ttt(rules=games/ttt/examples/Phantom-TTT-Corners.json)"
        with pytest.raises(ValueError, match="not a kind known to search only what its seat knows"):
            check_bots(cloaked, [agents.BotSpec.parse("random"), agents.BotSpec.parse("newly_written")])
        check_bots("ttt(rules=Tic-Tac-Toe)", [agents.BotSpec.parse("newly_written")])
    finally:
        unregister_bot_kind("newly_written")


def test_a_cloaked_rule_set_offers_ismcts_and_refuses_mcts_at_start(app):
    make_users(app)
    save_example(app, "Phantom-TTT-Corners")
    with db(app) as reg:
        players.add_bot(reg, "Uct", "mcts:simulations=10")
        players.add_bot(reg, "Isb", "ismcts:simulations=10")
    cy = Browser(app, "cy")
    home = cy.get("/?game=Phantom-TTT-Corners").text
    seat_list = re.search(r'<select name="seat1".*?</select>', home, re.S).group(0)
    assert ">Isb (" in seat_list and ">Uct (" not in seat_list
    r = cy.post("/play/new", game="Phantom-TTT-Corners", universe="Public", seat0="cy", seat1="Uct")
    page = html.unescape(cy.get(r.headers["Location"]).text)
    assert "Uct (mcts) may search the whole position" in page and "played by people, Random, ISMCTS" in page
    url = cy.post(
        "/play/new", game="Phantom-TTT-Corners", universe="Public", seat0="cy", seat1="Isb"
    ).headers["Location"]
    assert live(app, url).seats[1].player == "Isb"
    ada = Browser(app, "ada")  # the Standard Player list offers the same bots
    board = ada.get("/rules/Phantom-TTT-Corners/leaderboard").text
    sp_list = re.search(r'<select name="player" id="sp-player">.*?</select>', board, re.S).group(0)
    assert "<option >Isb</option>" in sp_list.replace("<option>", "<option >") and "Uct" not in sp_list
    ada.post("/rules/Phantom-TTT-Corners/standard-player", player="Uct")
    refused = html.unescape(ada.get("/rules/Phantom-TTT-Corners/leaderboard").text)
    assert "Uct cannot play Phantom-TTT-Corners" in refused
    with db(app) as reg:
        assert players.standard_player(reg, "Phantom-TTT-Corners") is None


def test_a_bot_that_cannot_move_says_why(app):
    """A game stored with a bot that refuses it (started before such pairings
    were refused): the move is refused with the bot's own reason, not "a move is
    an action number", and nothing is played."""
    make_users(app)
    save_example(app, "Phantom-TTT-Corners")
    with db(app) as reg:
        players.add_bot(reg, "Uct", "mcts:simulations=10")
        spec = players.bot_spec(reg, "Uct")
    cy = Browser(app, "cy")
    url = cy.post(
        "/play/new", game="Phantom-TTT-Corners", universe="Public", seat0="cy", seat1="Random"
    ).headers["Location"]
    game = live(app, url)
    game.seats[1] = Seat("Uct", "bot", None, spec)  # as a game stored earlier had it
    with pytest.raises(MoveError, match=r"Uct \(seat 2\) cannot move: .*hidden information"):
        game.successor().human_move("cy", game.state.legal_actions()[0])
    with db(app) as reg, reg.transaction():  # a changed count: every process reads the row again
        reg.db.execute(
            "UPDATE live_games SET seats = ?, changes = changes + 1 WHERE id = ?",
            (json.dumps([s.to_json() for s in game.seats]), game.id),
        )
    page = cy.get(url).text
    at = re.search(r'name="at" value="([^"]+)"', page).group(1)
    answer = html.unescape(
        cy.post(url + "/move", action=re.findall(r'data-action="(\d+)"', page)[0], at=at).text
    )
    assert "Uct (seat 2) cannot move" in answer and "a move is an action number" not in answer
    assert live(app, url).moves == game.moves  # nothing was played
    assert "a move is an action number" in html.unescape(cy.post(url + "/move", action="x").text)


def test_a_new_registry_offers_its_starting_bots_and_benchmarks_them(app):
    """A new install is not left with Random alone: the starting bots
    (registry.store.STARTING_BOTS) are on the home page's seat lists of the games
    they can play, and a Trainer's benchmark plays them."""
    from registry import benchmark, results
    from registry.store import STARTING_BOTS

    make_users(app)
    cy = Browser(app, "cy")
    names = [name for name, _ in STARTING_BOTS]
    seat_list = re.search(r'<select name="seat1".*?</select>', cy.get("/?game=Tic-Tac-Toe").text, re.S).group(
        0
    )
    assert all(f">{name} (" in seat_list for name in names)
    rounds = re.search(
        r'<select name="seat1".*?</select>', cy.get("/?game=RockPaperScissors").text, re.S
    ).group(0)
    assert ">ISMCTS (" in rounds and ">SM-MCTS (" in rounds and ">MCTS-Quick (" not in rounds
    with db(app) as reg:
        done = benchmark.benchmark(
            reg, "tom", "Tic-Tac-Toe", ["MCTS-Quick", "AlphaBeta-4", "Random"], games=2
        )
        assert done["games"] == 6
        assert {p for g in results.games_of(reg, "Tic-Tac-Toe") for p in g["players"]} == {
            "MCTS-Quick",
            "AlphaBeta-4",
            "Random",
        }


def test_an_admin_adds_a_bot_from_the_users_page(app):
    ada = make_users(app)
    cy = Browser(app, "cy")
    assert cy.post("/bots", name="Mine", spec="mcts:simulations=50").status_code == 403
    ada.post("/bots", name="Deep", spec="mcts:simulatons=50")
    assert "bot spec 'mcts:simulatons=50'" in html.unescape(ada.get("/users").text)
    ada.post("/bots", name="Deep", spec="mcts:simulations=50")
    page = html.unescape(ada.get("/users").text)
    assert "bot Deep (mcts:simulations=50) added" in page and "mcts:simulations=50" in page
    assert "<title>Users · flipgames</title>" in page and page.count('id="add-bot"') == 1
    with db(app) as reg:
        assert players.bot_spec(reg, "Deep").settings["max_simulations"] == 50
    assert ">Deep (" in cy.get("/?game=Tic-Tac-Toe").text


def _stuck_game(app, cy):
    """A Phantom-TTT-Corners game of cy against a UCT bot stored as an earlier
    version stored it (no refusal at Start then): nobody can finish it."""
    with db(app) as reg:
        if "Uct" not in [p["name"] for p in players.list_players(reg)]:
            players.add_bot(reg, "Uct", "mcts:simulations=10")
        spec = players.bot_spec(reg, "Uct")
    url = cy.post(
        "/play/new", game="Phantom-TTT-Corners", universe="Public", seat0="cy", seat1="Random"
    ).headers["Location"]
    game = live(app, url)
    game.seats[1] = Seat("Uct", "bot", None, spec)
    with db(app) as reg, reg.transaction():
        reg.db.execute(
            "UPDATE live_games SET seats = ?, changes = changes + 1 WHERE id = ?",
            (json.dumps([s.to_json() for s in game.seats]), game.id),
        )
    return url


def test_abandon_ends_a_game_nobody_can_finish_unrecorded(app):
    from registry import results

    make_users(app)
    save_example(app, "Phantom-TTT-Corners")
    cy = Browser(app, "cy")
    fine = cy.post(
        "/play/new", game="Phantom-TTT-Corners", universe="Public", seat0="cy", seat1="Random"
    ).headers["Location"]
    assert 'id="abandon"' not in cy.get(fine).text  # a game that can be finished
    cy.post(fine + "/abandon", confirmed="yes")
    assert "this game can be finished" in html.unescape(cy.get(fine).text)
    assert not live(app, fine).over()
    url = _stuck_game(app, cy)
    page = html.unescape(cy.get(url).text)
    assert 'id="abandon"' in page and "the bot of seat 2 cannot play this game" in page
    assert Browser(app, "dee").post(url + "/abandon", confirmed="yes").status_code == 403  # not seated
    asked = cy.post(url + "/abandon").headers["Location"]  # not confirmed: the page asks
    assert not live(app, url).over()
    page = html.unescape(cy.get(asked).text)
    assert "Abandon this game?" in page and 'id="abandon-confirm"' in page and 'id="abandon"' not in page
    cy.post(url + "/abandon", confirmed="yes")
    page = html.unescape(cy.get(url).text)
    assert 'Game over <span id="ended">(abandoned)</span>' in page
    assert "abandoned: not recorded or rated" in page and 'id="resign"' not in page
    with db(app) as reg:
        assert results.games_of(reg, "Phantom-TTT-Corners") == []
    assert "the game is over" in html.unescape(cy.post(url + "/move", action="0").text)


def test_resign_asks_first_and_a_stray_click_ends_nothing(app):
    """A Resign without the confirmation answers with the game page asking
    "Resign this game?"; the game goes on, unrecorded, until "Yes, resign"."""
    from registry import results

    make_users(app)
    cy = Browser(app, "cy")
    url = cy.post("/play/new", game="Tic-Tac-Toe", universe="Public", seat0="cy", seat1="Random").headers[
        "Location"
    ]
    asked = cy.post(url + "/resign").headers["Location"]
    assert not live(app, url).over()
    page = html.unescape(cy.get(asked).text)
    assert "Resign this game? Your seat loses" in re.sub(r"</?b>", "", page)
    assert 'id="resign-confirm"' in page and 'id="resign-cancel"' in page and 'id="resign"' not in page
    assert 'name="confirmed" value="yes"' in page
    page = cy.get(url).text  # "No, keep playing": the page without the question
    assert 'id="resign"' in page and "Resign this game?" not in page and 'id="turn"' in page
    with db(app) as reg:
        assert results.games_of(reg, "Tic-Tac-Toe") == []
    cy.post(url + "/resign", confirmed="yes")
    assert live(app, url).over()


@pytest.mark.parametrize("seat", [0, 1])
def test_resign_loses_and_is_recorded_and_rated(app, seat):
    """The resigning seat loses: the record keeps the seat and the returns a
    resignation gives, the ratings move as for a loss, and the game is over."""
    from registry import leaderboard, results

    make_users(app)
    cy = Browser(app, "cy")
    seats = {"seat0": "cy", "seat1": "Random"} if seat == 0 else {"seat0": "Random", "seat1": "cy"}
    url = cy.post("/play/new", game="Tic-Tac-Toe", universe="Public", **seats).headers["Location"]
    page = cy.get(url).text
    cy.post(url + "/move", action=re.findall(r'data-action="(\d+)"', page)[0])
    cy.post(url + "/resign", confirmed="yes")
    page = html.unescape(cy.get(url).text)
    assert f"(seat {seat + 1}, cy, resigned)" in page
    gid = int(re.search(r"recorded as game (\d+) and rated", page).group(1))
    with db(app) as reg:
        [stored] = results.games_of(reg, "Tic-Tac-Toe")
        assert stored["id"] == gid and stored["resigned"] == seat
        assert stored["returns"] == ([-1.0, 1.0] if seat == 0 else [1.0, -1.0])
        board = {e.player: e for e in leaderboard.leaderboard(reg, "Tic-Tac-Toe", "Public", "cy")}
        assert board["Random"].skill > board["cy"].skill
    cy.post(url + "/resign", confirmed="yes")  # once only
    assert "the game is over" in html.unescape(cy.get(url).text)
    with db(app) as reg:
        assert len(results.games_of(reg, "Tic-Tac-Toe")) == 1

"""In a real browser: the bots a cloaked rule set offers and a game against one
played by clicking, an Admin changing a user's role and adding a bot on the
Users page (the browser fixtures are tests/test_webapp_browser.py's)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from test_webapp_browser import (  # noqa: F401  (accounts, browser, server: the fixtures)
    BROWSER_TESTS,
    PASSWORD,
    accounts,
    browser,
    follow,
    login,
    server,
    shot,
)

pytestmark = BROWSER_TESTS

EXAMPLES = Path(__file__).resolve().parents[1] / "games" / "ttt" / "examples"


def save_phantom(site) -> None:
    """Save the cloaked example Phantom-TTT-Corners once per server."""
    from registry import Registry, rulesets

    with Registry(site.db) as reg:
        if "Phantom-TTT-Corners" not in [r["name"] for r in rulesets.list_rule_sets(reg)]:
            rulesets.save_rule_set(
                reg, "ada", json.loads((EXAMPLES / "Phantom-TTT-Corners.json").read_text())
            )


def test_a_cloaked_rule_set_offers_only_bots_that_can_play_it(browser, server, accounts):  # noqa: F811
    """Phantom-TTT-Corners (cloaked spaces): the seat list names the starting
    ISMCTS bot and Random but no UCT or alpha-beta bot; a game against ISMCTS
    moves at each click."""
    save_phantom(server)
    page = login(browser, server, "cy")
    page.goto(server + "/")
    # the other games are recorded and rated like the rule sets, and their group says so
    assert (
        page.locator("#group-connection").get_attribute("label")
        == "Connection games with flipping (recorded and rated per game string)"
    )
    with page.expect_navigation():
        page.select_option("#game", "Phantom-TTT-Corners")
    offered = [c.split(" (")[0] for c in page.locator("#seat1 option").all_inner_texts()]
    assert "ISMCTS" in offered and "Random" in offered
    assert not {"mcts50", "MCTS-Quick", "MCTS-Strong", "AlphaBeta-4", "SM-MCTS"} & set(offered)
    page.select_option("#seat1", "ISMCTS")
    follow(page, "#start")
    for _ in range(3):
        if page.query_selector("#result"):
            break
        before = page.locator("[data-moves]").first.get_attribute("data-moves")
        follow(page, page.locator(".cell.legal").first)
        assert "a move is an action number" not in page.inner_text("main")
        assert page.locator("[data-moves]").first.get_attribute("data-moves") != before
    shot(page, "cloaked-against-ismcts")
    page.close()


def test_an_admin_changes_a_role_and_adds_a_bot(browser, server, accounts):  # noqa: F811
    page = login(browser, server, "ada")
    page.goto(server + "/users")
    page.fill("#new-name", "pat")
    page.fill("#new-password", PASSWORD)
    follow(page, "#create-user")
    row = page.locator("tr", has=page.locator(".change-role[data-user='pat']"))
    row.locator(".role-select").select_option("trainer")
    follow(page, row.locator(".change-role"))
    assert "pat was Creator and is Trainer now" in page.inner_text("main")
    row = page.locator("tr", has=page.locator(".change-role[data-user='ada']"))
    row.locator(".role-select").select_option("creator")
    follow(page, row.locator(".change-role"))
    assert "ada is the last Admin" in page.inner_text("main")
    page.fill("#bot-name", "Deep")
    page.fill("#bot-spec", "mcts:simulations=300")
    follow(page, "#add-bot")
    assert "bot Deep (mcts:simulations=300) added" in page.inner_text("main")
    assert re.search(r"Deep\s+mcts:simulations=300", page.inner_text("#bot-list"))
    shot(page, "users-roles-bots")
    follow(page, page.locator(".bot-stats", has_text="Deep"))  # the bot's player page
    assert page.url.endswith("/player/Deep") and "Deep" in page.inner_text("h1")
    page.close()
    pat = login(browser, server, "pat")
    assert "pat (Trainer)" in pat.inner_text("nav .who")
    pat.close()


def test_a_friend_request_sent_by_name_accepted_and_listed(browser, server, accounts):  # noqa: F811
    """The Friends page sends a request by name (not only from a leaderboard
    row), says that an accepted request made two friends, and lists each of the
    user's players' friends and the requests still waiting."""
    from registry import Registry, players

    with Registry(server.db) as reg:
        if "Moon" not in players.universes_of(reg, "cy"):
            players.add_universe(reg, "cy", "Moon")
            players.add_persona(reg, "cy", "Moon", "cy-moon")
    cy = login(browser, server, "cy")
    cy.goto(server + "/friends")
    cy.select_option("#friend-universe", "Public")  # cy's player of Public sends it
    cy.fill("#friend-name", "tom")
    follow(cy, "#send-friend-request")
    assert "friend request sent to tom" in cy.inner_text("main")
    assert "Sent, waiting for an answer: tom" in cy.inner_text(".friend-list[data-player='cy']")
    cy.fill("#friend-name", "nobody-here")
    follow(cy, "#send-friend-request")
    assert "unknown player 'nobody-here'" in cy.inner_text("main")
    tom = login(browser, server, "tom")
    tom.goto(server + "/friends")
    follow(
        tom, tom.locator("form.card", has=tom.locator("input[name='sender'][value='cy']")).locator(".accept")
    )
    assert "cy and tom are friends now" in tom.inner_text("main")
    shot(tom, "friends-accepted")
    follow(tom, tom.locator(".friend-list[data-player='tom'] .friend-link", has_text="cy"))
    assert tom.url.endswith("/player/cy")
    tom.close()
    cy.goto(server + "/friends")
    assert "tom" in cy.inner_text(".friend-list[data-player='cy'] ul")
    assert "No friends yet." in cy.inner_text(".friend-list[data-player='cy-moon']")
    cy.close()


def test_resign_and_abandon_in_the_browser(browser, server, accounts):  # noqa: F811
    """Resign: a first click asks ("No, keep playing" goes back to the game);
    confirmed, the game ends with the resigning seat named, recorded and rated.
    Abandon: offered only where a seat's bot cannot play (a game stored before
    such pairings were refused), asks the same way, then the game ends unrecorded."""
    from registry import Registry, players

    save_phantom(server)
    page = login(browser, server, "cy")
    page.goto(server + "/")
    with page.expect_navigation():
        page.select_option("#game", "Tic-Tac-Toe")
    page.select_option("#seat1", "Random")
    follow(page, "#start")
    assert page.locator("#abandon").count() == 0  # this game can be finished
    follow(page, "#resign")  # a stray click only asks
    assert "Resign this game?" in page.inner_text("#resign-question")
    assert page.locator("#result").count() == 0
    follow(page, "#resign-cancel")  # "No, keep playing"
    assert page.locator("#resign-question").count() == 0 and page.locator("#turn").count() == 1
    follow(page, "#resign")
    follow(page, "#resign-confirm")
    assert re.search(r"\(seat 1, cy, resigned\).*recorded as game \d+ and rated", page.inner_text("#result"))
    assert page.locator("#resign").count() == 0
    shot(page, "resigned")
    # a cloaked game whose second seat is a UCT bot, stored as an earlier version stored it
    page.goto(server + "/")
    with page.expect_navigation():
        page.select_option("#game", "Phantom-TTT-Corners")
    page.select_option("#seat1", "Random")
    follow(page, "#start")
    gid = page.url.rsplit("/", 1)[1]
    with Registry(server.db) as reg, reg.transaction():
        seats = json.loads(reg.one("SELECT seats FROM live_games WHERE id = ?", (gid,))[0])
        spec = players.bot_spec(reg, "MCTS-Quick")
        seats[1] = {
            "player": "MCTS-Quick",
            "kind": "bot",
            "user": None,
            "spec": spec.to_json(),
            "joined": None,
        }
        reg.db.execute(
            "UPDATE live_games SET seats = ?, changes = changes + 1 WHERE id = ?", (json.dumps(seats), gid)
        )
    page.reload()
    follow(page, page.locator(".cell.legal").first)
    assert "MCTS-Quick (seat 2) cannot move" in page.inner_text("main")
    assert "the bot of seat 2 cannot play this game" in page.inner_text("#end-game")
    follow(page, "#abandon")
    assert "Abandon this game?" in page.inner_text("#abandon-question")
    follow(page, "#abandon-cancel")
    assert page.locator("#result").count() == 0 and page.locator("#abandon").count() == 1
    follow(page, "#abandon")
    follow(page, "#abandon-confirm")
    assert "(abandoned)" in page.inner_text("#result")
    assert "abandoned: not recorded or rated" in page.inner_text("#result")
    shot(page, "abandoned")
    page.close()

"""The web app in a real browser: Playwright driving Debian's chromium
(/usr/bin/chromium; Playwright's own browser download is not used) against a
server on 127.0.0.1. Logins and roles, a full game of Tic-Tac-Toe, Connect4
and y_game(board_size=5) against Random by clicking the board, the Player
Factory's markers, checks, validation problems and Save, a benchmark's
progress. Each page's screenshot goes to tests/output/screenshots/.
"""
from __future__ import annotations

import os
import re
import shutil
import threading
from pathlib import Path

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = os.environ.get("FLIPGAMES_CHROMIUM", "/usr/bin/chromium")
pytestmark = pytest.mark.skipif(not shutil.which(CHROMIUM),
                                reason=f"{CHROMIUM} is missing (apt-get install -y chromium)")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SHOTS = Path(__file__).parent / "output" / "screenshots"
PASSWORD = "correct-horse"


class Server(str):
    """The server's base URL, knowing its database."""

    def __new__(cls, url, db):
        self = super().__new__(cls, url)
        self.db = db
        return self


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from werkzeug.serving import make_server

    from webapp import create_app
    db = tmp_path_factory.mktemp("web") / "r.sqlite3"
    app = create_app(db, secret_key=b"b" * 32, benchmark_games=2)
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield Server(f"http://127.0.0.1:{srv.server_port}", db)
    srv.shutdown()
    thread.join()


@pytest.fixture(scope="module")
def browser():
    SHOTS.mkdir(parents=True, exist_ok=True)
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def shot(page, name):
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def login(browser, server, name):
    page = browser.new_page()
    page.goto(server + "/login")
    page.fill("#name", name)
    page.fill("#password", PASSWORD)
    page.click("#login")
    page.wait_for_selector("nav .who")
    return page


@pytest.fixture(scope="module")
def accounts(browser, server):
    """ada signs up (first account: Admin) and creates tom (Trainer) and cy (Creator)."""
    page = browser.new_page()
    page.goto(server + "/login")
    shot(page, "login")
    page.click("#register-link")
    page.fill("#name", "ada")
    page.fill("#password", PASSWORD)
    page.fill("#password2", PASSWORD)
    page.click("#signup")
    assert "ada (Admin)" in page.inner_text("nav .who")
    page.goto(server + "/users")
    from registry import Registry, players
    with Registry(server.db) as reg:
        players.add_bot(reg, "mcts50", "mcts:simulations=50")
    for name, role in (("tom", "trainer"), ("cy", "creator")):
        page.fill("#new-name", name)
        page.fill("#new-password", PASSWORD)
        page.select_option("#new-role", role)
        page.click("#create-user")
        assert f"user {name} created" in page.inner_text("main")
    shot(page, "users")
    page.close()
    return True


def play_against_random(page, server, game, opponent="Random"):
    page.goto(server + "/")
    with page.expect_navigation():
        page.select_option("#game", game)                   # autosubmits: seats for this game
    page.select_option("#seat1", opponent)
    page.click("#start")
    for _ in range(200):
        if page.query_selector("#result"):
            return page.inner_text("#result")
        cell = page.query_selector(".cell.legal")
        with page.expect_navigation():
            if cell:
                cell.click()
            else:
                page.click("button.move")
    raise AssertionError(f"{game} did not finish")


@pytest.mark.parametrize("game", ["Tic-Tac-Toe", "Connect4", "y_game(board_size=5)"])
def test_full_game_against_a_bot(browser, server, accounts, game):
    page = login(browser, server, "cy")
    page.goto(server + "/")
    shot(page, "home")
    result = play_against_random(page, server, game)
    assert "Game over" in result
    if game == "y_game(board_size=5)":
        assert re.search(r"recorded as \S+ game \d+ and rated", result)
        assert page.locator("svg.board polygon").count() == 15
    else:
        assert re.search(r"recorded as game \d+ and rated", result)
    shot(page, "game-" + re.sub(r"\W+", "-", game).strip("-"))
    page.close()


def test_roles_in_the_browser(browser, server, accounts):
    cy = login(browser, server, "cy")
    assert cy.locator("nav a:has-text('Users')").count() == 0
    cy.goto(server + "/users")
    assert "403" in cy.inner_text("h1")
    cy.goto(server + "/rules/Tic-Tac-Toe/leaderboard")
    assert cy.locator("#benchmark").count() == 0
    shot(cy, "leaderboard")
    cy.click(".show-player >> nth=0")
    assert cy.locator("#stats").count() == 1
    shot(cy, "player")
    cy.close()


def test_factory_markers_checks_problems_and_save(browser, server, accounts):
    page = login(browser, server, "cy")
    page.goto(server + "/factory")
    for control, value in (("#board-kind", "squares"), ("#board-size-x", "4"),
                           ("#board-size-y", "4")):
        with page.expect_navigation():                      # these redraw the form
            page.select_option(control, value)
    assert page.locator("#preview .space").count() == 16
    assert page.eval_on_selector_all("#preview .goal title", "ts => ts.map(t => t.textContent)") \
        == ["Player 1 goal", "Player 2 goal"]
    with page.expect_navigation():
        page.select_option("#players", "3")                 # a third goal and a third reserve
    assert page.locator("#preview .goal").count() == 3
    assert page.input_value("#reserves-pink") == page.input_value("#reserves-white")
    with page.expect_navigation():
        page.select_option("#players", "2")
    page.click("#marker-locked")
    page.click("#preview .space[data-at='1,1,1']")
    assert page.input_value("#board-locked") == "1,1,1"
    page.click("#marker-piece-white")
    page.click("#preview .space[data-at='2,2,1']")
    assert page.input_value("#board-pieces") == "2,2,1:white"
    page.click("#add-check")
    assert page.locator("select[name='turn_checks[1]']").count() == 1
    page.click(".del-check >> nth=1")
    assert page.locator("select[name='turn_checks[1]']").count() == 0
    # every reserve at its maximum: the move dropdown is cleared and disabled
    page.select_option("#reserves-black", "8")
    page.select_option("#reserves-white", "8")
    assert page.is_disabled("#shapes-circle-move")
    page.select_option("#reserves-white", "7")
    assert not page.is_disabled("#shapes-circle-move")
    # the name field refuses whitespace in the browser already
    page.fill("#name", "bad name")
    assert page.evaluate("document.getElementById('name').validity.valid") is False
    # problems from the server next to their controls
    page.fill("#name", "Connect4")
    page.select_option("#reserves-black", "0")
    page.select_option("#reserves-white", "0")
    page.select_option("#shapes-circle-move", "adjacent")
    page.click("#save")
    for control in ("reserves", "move_limit"):
        assert page.locator(f".problem[data-for='{control}']").count() >= 1, control
    shot(page, "factory-problems")
    page.fill("#name", "Connect4")
    page.select_option("#reserves-black", "7")
    page.select_option("#reserves-white", "7")
    page.select_option("#shapes-circle-move", "stationary")
    page.click("#save")
    assert "already saved" in page.inner_text(".problem[data-for='name']")
    page.fill("#name", "Browser-4x4")
    page.click("#save")
    assert page.inner_text("h1") == "Browser-4x4"
    assert "locked" in page.inner_text("#saved").lower()
    shot(page, "ruleset")
    page.click("#copy")
    assert page.input_value("#name") == "Browser-4x4-copy"
    shot(page, "factory")
    page.close()


def test_benchmark_progress_and_evolution(browser, server, accounts):
    page = login(browser, server, "tom")
    page.goto(server + "/rules/Tic-Tac-Toe/leaderboard")
    page.check("input.pick[value='Random']")
    page.click("#evolution")
    assert "csrf" not in page.url
    page.wait_for_function("document.getElementById('evolution-plot').complete && "
                           "document.getElementById('evolution-plot').naturalWidth > 0")
    shot(page, "evolution")
    # Benchmark Selected Bots: the progress bar reaches the total (2 games here)
    play_against_random(page, server, "Tic-Tac-Toe", "mcts50")     # puts mcts50 on the board
    page.goto(server + "/rules/Tic-Tac-Toe/leaderboard")
    page.check("input.pick[value='Random']")
    page.check("input.pick[value='mcts50']")
    page.click("#benchmark")
    page.wait_for_function("document.getElementById('bench-result').textContent.includes('Finished')",
                           timeout=60000)
    assert page.inner_text("#bench-count") == "2 / 2 games"
    shot(page, "benchmark")
    page.close()


def test_leaderboard_buttons_friends_creations_rename_and_logout(browser, server, accounts):
    from registry import Registry, rulesets
    with Registry(server.db) as reg:
        if "Clicks-5" not in [r["name"] for r in rulesets.list_rule_sets(reg)]:
            rulesets.save_rule_set(reg, "cy", {"name": "Clicks-5", "board": {"kind": "squares",
                                   "size": [5, 1, 1]}, "reserves": {"black": 3, "white": 2}})
    cy = login(browser, server, "cy")
    play_against_random(cy, server, "Clicks-5")
    ada = login(browser, server, "ada")
    ada.goto(server + "/rules")
    shot(ada, "rules")
    ada.goto(server + "/rules/Clicks-5/leaderboard")
    ada.select_option("#player-combobox", "cy")                 # Add Player
    ada.click("#add-player")
    row = ada.locator("tr[data-player='cy']")
    assert row.count() == 1 and row.locator(".add-friend").count() == 1
    assert row.locator(".play-new").count() == 0
    row.locator(".add-friend").click()                          # Add to Friends
    assert "friend request sent to cy" in ada.inner_text("main")
    ada.click("#show-creations")                                # Show All Creations
    assert "Clicks-5" in ada.inner_text("#creations")
    ada.goto(server + "/rules/Clicks-5")
    ada.fill("#new_name", "Clicks-5b")                          # Admin-only rename
    ada.click("#rename")
    assert ada.inner_text("h1") == "Clicks-5b"
    # cy accepts; now ada's row offers Play New Game, which pre-fills the second seat
    cy.goto(server + "/friends")
    shot(cy, "friends")
    cy.click(".accept")
    cy.goto(server + "/rules/Clicks-5b/leaderboard?add=ada")
    assert cy.locator("tr[data-player='ada'] .play-new").count() == 0   # ada never played it
    ada.goto(server + "/rules/Clicks-5b/leaderboard")
    ada.locator("tr[data-player='cy'] .play-new").click()
    assert ada.input_value("#seat1") == "cy" and "Clicks-5b" in ada.inner_text("#start")
    shot(ada, "play-new-game")
    # the error page, then logging out
    cy.goto(server + "/users")
    shot(cy, "error-403")
    cy.click("#logout")
    assert cy.locator("#login").count() == 1
    cy.click("#register-link")
    shot(cy, "register")
    cy.close()
    ada.close()

"""Security in a real browser (Playwright and Debian's chromium, as
tests/test_webapp_browser.py): changing the password from the header ends the
other sessions, and a page waiting while another seat takes hidden turns is
not reloaded by them (its poll sees only what its seat knows)."""

from __future__ import annotations

import pytest

from test_webapp_browser import (  # noqa: F401  (browser, server: the fixtures)
    BROWSER_TESTS,
    PASSWORD,
    browser,
    follow,
    login,
    server,
)

pytestmark = BROWSER_TESTS


@pytest.fixture(scope="module")
def people(browser, server):  # noqa: F811
    """ada signs up (the Admin); p2 is a person of the registry (no login needed)."""
    from registry import Registry, users

    page = browser.new_page()
    page.goto(server + "/register")
    page.fill("#name", "ada")
    page.fill("#password", PASSWORD)
    page.fill("#password2", PASSWORD)
    follow(page, "#signup")
    page.close()
    with Registry(server.db) as reg:
        users.add_user(reg, "p2")


def test_a_password_change_from_the_header_ends_the_other_sessions(browser, server, people):  # noqa: F811
    here = login(browser, server, "ada")
    other = browser.new_context().new_page()
    other.goto(server + "/login")
    other.fill("#name", "ada")
    other.fill("#password", PASSWORD)
    follow(other, "#login")
    follow(here, "#nav-password")
    here.fill("#current", PASSWORD)
    here.fill("#new", "another-horse")
    here.fill("#new2", "another-horse")
    follow(here, "#change-password")
    assert "every other session of yours has ended" in here.inner_text("main")
    other.reload()
    assert other.url.startswith(server + "/login")  # the other browser is logged out
    here.reload()
    assert "ada (Admin)" in here.inner_text("nav .who")
    follow(here, "#nav-password")  # back to the shared password for the other tests
    here.fill("#current", "another-horse")
    here.fill("#new", PASSWORD)
    here.fill("#new2", PASSWORD)
    follow(here, "#change-password")


def test_hidden_turns_do_not_reload_a_waiting_page(browser, server, people):  # noqa: F811
    """KBeauty9: p2 (seat 1, black) stacks four hidden circles while ada's page
    (seat 2) polls; it is not reloaded until black passes, the first change
    ada's seat can see."""
    from registry import Registry
    from webapp.live import LiveGame, Seat
    from webapp.live_store import LiveStore

    with Registry(server.db) as reg:
        seats = [Seat("p2", "human", "p2"), Seat("ada", "human", "ada"), Seat("Random", "random", None)]
        seats.append(Seat("Random", "random", None))
        from registry import players

        spec = players.bot_spec(reg, "Random")
        seats[2].spec = seats[3].spec = spec
        version = reg.one("SELECT fingerprint FROM rule_sets WHERE name = 'KBeauty9'")[0]
        store = LiveStore(server.db)
        game = store.create(
            reg, LiveGame.start("ttt(rules=KBeauty9)", "KBeauty9", "Public", seats, 3, version)
        )
    page = login(browser, server, "ada")
    page.goto(f"{server}/game/{game.id}")
    assert "Waiting for p2…" in page.inner_text("#waiting")
    page.evaluate("window.notReloaded = true")
    with Registry(server.db) as reg:
        for _ in range(4):
            store.move(reg, game.id, "p2", 0)  # black@stack(1,1): hidden from ada
            page.wait_for_timeout(1700)  # more than one poll (every 1.5 s) after each
    assert page.evaluate("window.notReloaded === true")
    with Registry(server.db) as reg:
        store.move(reg, game.id, "p2", 4)  # pass: the phase ends, and ada's seat sees it
    page.wait_for_function("window.notReloaded === undefined", timeout=30000)
    page.wait_for_selector("#turn")
    assert "Your move (White, seat 2)" in page.inner_text("#turn")

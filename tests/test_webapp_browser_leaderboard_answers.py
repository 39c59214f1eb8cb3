"""In a real browser: what the leaderboard's buttons answer when there is
nothing to show, and what a benchmark shows when it finishes (the browser
fixtures are tests/test_webapp_browser.py's)."""

from __future__ import annotations

from test_webapp_browser import (  # noqa: F401  (accounts, browser, server: the fixtures)
    BROWSER_TESTS,
    accounts,
    browser,
    follow,
    login,
    server,
    shot,
)

pytestmark = BROWSER_TESTS


def test_show_evolution_with_nobody_checked_says_what_to_check(browser, server, accounts):  # noqa: F811
    page = login(browser, server, "cy")
    page.goto(server + "/rules/Tic-Tac-Toe/leaderboard")
    assert page.locator("input.pick:checked").count() == 0
    follow(page, "#evolution")
    assert page.url.endswith("/rules/Tic-Tac-Toe/leaderboard?universe=Public")
    assert "check at least one player" in page.inner_text(".flash.error")
    assert page.locator("#evolution-plot").count() == 0  # no plot of a player nobody chose
    shot(page, "evolution-nobody-checked")
    page.close()

"""The home page in a real browser: the list of every game by group opens,
choosing a game there describes it and offers its seats, its rules link leads
to the rule set's page (the browser fixtures are tests/test_webapp_browser.py's)."""

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


def test_every_game_is_described_and_leads_to_its_rules(browser, server, accounts):  # noqa: F811
    page = login(browser, server, "cy")
    page.goto(server + "/")
    assert not page.locator(".game-choice").first.is_visible()  # the list is folded
    page.click("#all-games-summary")
    follow(page, page.locator(".game-choice", has_text="Qubic-4"))
    assert page.locator("#game").input_value() == "Qubic-4"
    assert page.inner_text("#game-about").startswith("Specification: 'Played on 4x4x4 squares")
    assert page.locator("#seat0").count() == 1  # its seats are offered
    shot(page, "home-described")
    follow(page, "#game-rules")
    assert page.url.endswith("/rules/Qubic-4")
    assert page.inner_text("h1") == "Qubic-4"
    page.close()

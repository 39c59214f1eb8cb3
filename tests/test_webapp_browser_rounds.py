"""Simultaneous rounds in a real browser (Playwright and Debian's chromium, as
tests/test_webapp_browser.py): after a round the page says what each player
played and what happened, names what the shapes stand for, and explains a
one-click game's choice before it is made (webapp/round_story.py)."""

from __future__ import annotations

from test_webapp_browser import BROWSER_TESTS, browser, follow, server, shot  # noqa: F401
from test_webapp_browser_game_page import PHONE, page_for, people, playwright_viewport, start  # noqa: F401

pytestmark = BROWSER_TESTS


def test_a_round_against_random_tells_both_plays_and_what_they_did(browser, server, people):  # noqa: F811
    """ada picks the x (scissors) and clicks the stack; Random plans at once and
    the round resolves: the page names both plays and what happened."""
    gid = start(
        server, "ttt(rules=RockPaperScissors)", "RockPaperScissors", [("ada", "human"), ("Random", "random")]
    ).id
    page = page_for(browser, server, "ada")
    page.goto(f"{server}/game/{gid}")
    picker = page.inner_text("#shape-picker")
    assert "circle (paper)" in picker and "pentagon (rock)" in picker and "x (scissors)" in picker
    assert (
        page.inner_text("#shape-meanings")
        == "In this game a circle is paper, a pentagon is rock, an x is scissors."
    )
    assert page.locator("#last-round").count() == 0  # no round played yet
    page.check("#shape-x")
    follow(page, "svg.board g.cell.legal")
    told = page.inner_text("#last-round")
    assert told.startswith(
        "Last round: Black (seat 1) played black@stack(1,1) x (scissors); White (seat 2) played "
    )
    random_shape = told.split("White (seat 2) played white@stack(1,1) ")[1].split(" ")[0]
    events = told.splitlines()[-1]
    expected = {
        "x": "Collision on stack(1,1): the black x (scissors) was destroyed, "
        "the white x (scissors) was destroyed.",
        "circle": "Collision on stack(1,1): the white circle (paper) was converted to black.",
        "pentagon": "Collision on stack(1,1): the black x (scissors) was converted to white.",
    }
    assert events == expected[random_shape]
    assert page.locator("#rounds li").count() == 1
    page.context.close()


def test_stag_hunt_explains_each_choice_before_it_is_made(browser, server, people):  # noqa: F811
    gid = start(server, "ttt(rules=StagHunt)", "StagHunt", [("ada", "human"), ("Random", "random")]).id
    page = page_for(browser, server, "ada")
    page.goto(f"{server}/game/{gid}")
    choices = page.inner_text("#choices")
    assert "black@stack(1,1) pentagon: the hare, the safe choice" in choices
    assert "black@stack(3,1) pentagon: the stag" in choices
    assert choices.index("Your choice, before you make it") < choices.index("hare")
    shot(page, "page-stag-hunt-choice")
    with playwright_viewport(page, PHONE):
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    follow(page, "svg.board g.cell.legal[data-cell='stack(3,1)']")
    assert page.locator("#choices").count() == 0  # chosen: the game went on without her
    assert page.inner_text("#rounds").count("played") == 2
    page.context.close()

"""The Player Factory as a person reads it, in a real browser (the fixtures
are tests/test_webapp_browser.py's): marker buttons that overlap nothing,
a Copy icon that is drawn, options and labels in words (the schema's value
still the one submitted), a summary of every problem at the top after a
refused Save, and a warning for a win that cannot happen on the board."""

from __future__ import annotations

import re

from test_webapp_browser import (  # noqa: F401  (accounts, browser, server: the fixtures)
    BROWSER_TESTS,
    SHOTS,
    accounts,
    browser,
    follow,
    login,
    server,
    shot,
)

pytestmark = BROWSER_TESTS
PHONE = {"width": 375, "height": 740}
RAW = re.compile(r"^[a-z]+(?:-[a-z0-9]+)+$")  # a schema value: most-2-in-a-row-wins


def boxes(page, selector):
    return page.locator(selector).evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom, e.id || e.textContent.trim()]; })"
    )


def overlapping(a, b) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def test_marker_buttons_overlap_nothing_at_desktop_and_phone_widths(browser, server, accounts):  # noqa: F811
    page = login(browser, server, "cy")
    for size in ({"width": 1280, "height": 900}, PHONE):
        page.set_viewport_size(size)
        page.goto(server + "/factory")
        markers = boxes(page, "p.markers .marker")
        assert len(markers) == 10
        # the other lines of the paragraph: its selects and the texts between the markers
        others = boxes(page, "p.markers select") + page.evaluate(
            """() => {
              const out = [];
              const para = document.querySelector('p.markers');
              const walker = document.createTreeWalker(para, NodeFilter.SHOW_TEXT);
              while (walker.nextNode()) {
                const n = walker.currentNode;
                if (!n.textContent.trim() || n.parentElement.classList.contains('marker')) continue;
                const range = document.createRange(); range.selectNodeContents(n);
                for (const r of range.getClientRects())
                  out.push([r.left, r.top, r.right, r.bottom, n.textContent.trim()]);
              }
              return out;
            }"""
        )
        below = boxes(page, "#preview")
        for i, m in enumerate(markers):
            for other in markers[i + 1 :] + others + below:
                assert not overlapping(m, other), (size, m, other)
        if size is PHONE:
            shot(page, "factory-markers-phone")
        else:  # the editing page as a designer first sees it, for docs/webapp.md
            page.screenshot(path=str(SHOTS / "factory-desktop.png"))
    page.close()


def test_the_copy_link_draws_its_icon(browser, server, accounts):  # noqa: F811
    page = login(browser, server, "cy")
    page.goto(server + "/rules/Tic-Tac-Toe")
    assert page.inner_text("#copy").strip() == "Copy"  # no glyph the fonts may lack
    icon = page.locator("#copy svg.icon rect")
    assert icon.count() == 2 and page.locator("#copy svg").bounding_box()["width"] >= 12
    page.close()


def test_options_and_labels_are_words_and_submit_the_schema_values(browser, server, accounts):  # noqa: F811
    page = login(browser, server, "cy")
    page.goto(server + "/factory?copy=StagHunt")
    texts = page.locator("select option").evaluate_all("os => os.map(o => o.textContent.trim())")
    raw = sorted({t for t in texts if RAW.match(t)})
    assert raw == [], raw
    assert "null" not in texts and "None" not in texts
    stalemate = page.locator("#stalemate option:checked")
    assert stalemate.inner_text() == "Most 2-same-color-in-a-row wins"
    assert stalemate.get_attribute("value") == "most-2-in-a-row-wins"
    labels = page.locator("label").evaluate_all("ls => ls.map(l => l.firstChild && l.firstChild.textContent)")
    assert not [t for t in labels if t and "turnCheck" in t]
    page.goto(server + "/rules/StagHunt")
    saved = page.inner_text("#saved")
    assert "Most 2-same-color-in-a-row wins" in saved and "most-2-in-a-row-wins" not in saved
    assert "turnCheck" not in saved and "Pentagon power\nCan capture, Cover, Removes captive(s)" in saved
    page.close()


def test_a_refused_save_opens_with_a_summary_of_every_problem(browser, server, accounts):  # noqa: F811
    page = login(browser, server, "cy")
    page.goto(server + "/factory")
    page.fill("#name", "Two Problems")  # a space is not allowed in a name
    page.fill("#move_limit", "0")
    page.evaluate("document.querySelector('#name').removeAttribute('pattern')")
    follow(page, "#save")
    summary = page.locator("#problem-summary")
    assert summary.inner_text().startswith("Not saved: 2 problems, each also shown beside its control:")
    items = summary.locator("li")
    assert items.count() == 2
    assert sorted(items.all_inner_texts())[0] == "Move limit: 0 is not allowed (allowed: 1..100000 or empty)"
    top = summary.bounding_box()["y"]
    assert top < page.locator("form#factory").bounding_box()["y"]
    link = summary.locator(".problem-link", has_text="Move limit")
    target = link.get_attribute("href")
    assert page.locator(target).count() == 1
    link.click()
    assert page.evaluate("location.hash") == target
    shot(page, "factory-problem-summary")
    page.close()


def test_a_win_that_cannot_happen_is_saved_with_a_warning(browser, server, accounts):  # noqa: F811
    """A 4x4 board whose only win is 5 in a row: the Factory warns beside the
    turn checks, Save saves it, and its page keeps the warning."""
    page = login(browser, server, "cy")
    page.goto(server + "/factory")
    for select, value in (("#board-kind", "squares"), ("#board-size-x", "4"), ("#board-size-y", "4")):
        with page.expect_navigation():
            page.select_option(select, value)
    page.select_option("#turn_checks-0", "first-5-wins")
    follow(page, "#redraw")
    warning = page.locator("p.warning")
    assert warning.count() == 1
    assert warning.inner_text() == (
        "Turn check 1 (First 5-same-color-in-a-row wins) cannot happen: no line of 5 fits on a "
        "4x4x1 board (its longest line has 4 spaces); the rule set may still be saved."
    )
    page.fill("#name", "Five-On-Four")
    follow(page, "#save")
    assert page.inner_text("h1") == "Five-On-Four"
    assert page.inner_text("#warnings").startswith(
        "Turn check 1 (First 5-same-color-in-a-row wins) cannot happen"
    )
    page.close()

"""The Player Factory in a real browser, from the blank page: BoS (spaces of
one board of two: "(2,1) of 1 and (2,2) of 2 exclusive to chaos, and
remaining spaces are locked") and RockPaperScissors (three shapes picked,
circle, pentagon and x) built by clicking, then saved. Save refuses each as
identical to the catalogue's rule set: the registry compares canonical forms,
so the page built the catalogue entry exactly (the browser fixtures are
tests/test_webapp_browser.py's)."""

from __future__ import annotations

from test_webapp_browser import (  # noqa: F401  (accounts, browser, server: the fixtures)
    BROWSER_TESTS,
    SPACE,
    accounts,
    browser,
    follow,
    login,
    server,
    shot,
)

pytestmark = BROWSER_TESTS


def redraw(page, control, value):
    with page.expect_navigation():  # these selects redraw the form
        page.select_option(control, value)


def mark(page, seat, *spaces):
    """Click the already selected seat marker onto ``spaces`` for ``seat``."""
    page.select_option("#marker-seat", seat)
    for at in spaces:
        page.click(SPACE.format(at))


def saved_as_the_catalogues(page, name):
    page.fill("#name", f"{name}-blank")
    follow(page, "#save")
    problems = page.eval_on_selector_all(
        ".problem", "ps => ps.map(p => p.dataset.for + ': ' + p.textContent)"
    )
    assert any(f"identical to the saved '{name}'" in p for p in problems), problems


def test_bos_is_built_from_the_blank_page_with_one_boards_spaces(browser, server, accounts):  # noqa: F811
    page = login(browser, server, "ada")
    page.goto(server + "/factory")
    assert page.locator("#marker-board").count() == 0  # one board: no board to choose
    for control, value in (
        ("#players", "2-vs-chaos"),
        ("#board-kind", "squares"),
        ("#board-size-x", "2"),
        ("#board-size-y", "2"),
        ("#boards", "2"),
        ("#phases", "2"),
    ):
        redraw(page, control, value)
    follow(page, ".del-check >> nth=0")  # BoS has no turn check
    page.select_option("#stalemate", "least-area-wins")
    for colour in ("black", "white", "pink"):
        page.select_option(f"#reserves-{colour}", "1")
    page.click("#marker-exclusive")  # on every board: (1,1) is seat 1's, (1,2) seat 2's
    mark(page, "1", "1,1,1")
    mark(page, "2", "1,2,1")
    for board, locked, chaos in (("1", "2,2,1", "2,1,1"), ("2", "2,1,1", "2,2,1")):
        page.select_option("#marker-board", board)
        mark(page, "chaos", chaos)
        page.click("#marker-locked")
        page.click(SPACE.format(locked))
        page.click("#marker-exclusive")
        assert "locked" in page.text_content(SPACE.format(locked) + " title")
    assert page.input_value("input[name='board.on_boards[0].locked']") == "2,2,1"
    assert page.input_value("input[name='board.on_boards[1].exclusive']") == "2,2,1@chaos"
    assert page.input_value("#board-exclusive") == "1,1,1@1;1,2,1@2"
    page.select_option("#marker-board", "")  # every board: the per-board spaces are not drawn
    assert "locked" not in page.text_content(SPACE.format("2,2,1") + " title")
    page.select_option("#phases-0-order", "simultaneous")
    page.check("input[name='phases[0].locked_players'][value='chaos']")
    page.select_option("#phase-select", "1")
    page.select_option("#phases-1-order", "sequential")
    for seat in ("1", "2"):
        page.check(f"input[name='phases[1].locked_players'][value='{seat}']")
    shot(page, "factory-bos-from-blank")
    saved_as_the_catalogues(page, "BoS")
    page.close()


def test_rock_paper_scissors_is_built_from_the_blank_page_with_shapes_picked(browser, server, accounts):  # noqa: F811
    page = login(browser, server, "ada")
    page.goto(server + "/factory")
    for control, value in (
        ("#board-kind", "stacks"),
        ("#board-size-x", "1"),
        ("#board-size-y", "1"),
        ("#shape_count", "3"),
    ):
        redraw(page, control, value)
    assert page.input_value("#shape-1") == "triangle"  # three shapes: the schema's first three
    redraw(page, "#shape-1", "pentagon")
    assert [page.input_value(f"#shape-{i}") for i in range(3)] == ["circle", "pentagon", "x"]
    follow(page, ".del-check >> nth=0")
    page.select_option("#stalemate", "most-pieces-wins")
    page.select_option("#phases-0-order", "simultaneous")
    for shape in ("circle", "pentagon", "x"):
        page.select_option(f"#shapes-{shape}-power", "can-capture")
        page.select_option(f"#shapes-{shape}-condition", "cover-by-rank")
        page.select_option(f"#shapes-{shape}-result", "converts")
        for colour in ("black", "white"):
            page.select_option(f"#reserves-{colour}-{shape}", "1")
    shot(page, "factory-rock-paper-scissors-from-blank")
    saved_as_the_catalogues(page, "RockPaperScissors")
    page.close()

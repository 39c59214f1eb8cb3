"""The game page tells the story of a game, in a real browser (Playwright and
Debian's chromium, as tests/test_webapp_browser.py): who you are and whom the
page waits for by name, coordinates named as the moves are, the last move
marked, the result in words, the move list and its replay; Connect4's whole
frame in contrasting colours; a phone's 375-px-wide screen. The screenshots
(tests/output/screenshots/page-*.png) are the ones docs/webapp.md shows."""

from __future__ import annotations

import re

import pytest

from test_webapp_browser import (  # noqa: F401  (browser, server: the fixtures)
    BROWSER_TESTS,
    PASSWORD,
    SHOTS,
    browser,
    follow,
    server,
    shot,
)

pytestmark = BROWSER_TESTS
PHONE = {"width": 375, "height": 740}


@pytest.fixture(scope="module")
def people(browser, server):  # noqa: F811
    """ada signs up (the Admin); dana is a person of the registry (no login
    needed: her seat simply waits)."""
    from registry import Registry, users

    page = browser.new_page()
    page.goto(server + "/register")
    page.fill("#name", "ada")
    page.fill("#password", PASSWORD)
    page.fill("#password2", PASSWORD)
    follow(page, "#signup")
    page.close()
    with Registry(server.db) as reg:
        users.add_user(reg, "dana")


def start(server, game_string, rule_set, seats, version=""):  # noqa: F811
    """A game stored as the home page's Start stores it; seats are
    (player, kind) with people's users named as their players."""
    from registry import Registry, players
    from webapp.live import LiveGame, Seat
    from webapp.live_store import LiveStore

    with Registry(server.db) as reg:
        made = [
            Seat(name, kind, name) if kind == "human" else Seat(name, kind, None, players.bot_spec(reg, name))
            for name, kind in seats
        ]
        if rule_set and not version:
            version = reg.one("SELECT fingerprint FROM rule_sets WHERE name = ?", (rule_set,))[0]
        game = LiveGame.start(game_string, rule_set, "Public", made, 5, version)
        return LiveStore(server.db).create(reg, game)


def page_for(browser, server, name, viewport=None):  # noqa: F811
    context = browser.new_context(viewport=viewport) if viewport else browser.new_context()
    page = context.new_page()
    page.goto(server + "/login")
    page.fill("#name", name)
    page.fill("#password", PASSWORD)
    follow(page, "#login")
    return page


def luminance(hex_colour: str) -> float:
    """WCAG's relative luminance of #rrggbb or #rgb."""
    if len(hex_colour) == 4:
        hex_colour = "#" + "".join(c * 2 for c in hex_colour[1:])
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_connect4_says_who_you_are_waits_for_a_name_and_marks_the_last_move(browser, server, people):  # noqa: F811
    game = start(server, "ttt(rules=Connect4)", "Connect4", [("ada", "human"), ("dana", "human")])
    page = page_for(browser, server, "ada")
    page.goto(f"{server}/game/{game.id}")
    assert page.inner_text("#you") == "You are Black (seat 1)."
    assert page.inner_text("#turn").startswith("Your move (Black, seat 1)")
    # the whole 7x6 frame from the first move on, its columns numbered as moves name them
    assert page.locator("svg.board circle.hole").count() == 42
    assert page.locator("svg.board text.coord").all_text_contents() == [str(x) for x in range(1, 8)]
    assert page.locator("svg.board .maxheight").count() == 0
    follow(page, "svg.board g[data-cell='stack(4,1)']")
    assert page.inner_text("#waiting") == "Waiting for dana…"
    assert page.locator("svg.board circle.hole").count() == 41
    assert page.locator("svg.board g[data-mark~='last']").get_attribute("data-cell") == "stack(4,1)"
    assert page.locator("svg.board g[data-mark~='last'] .top .piece.black").count() == 1  # the disc itself
    assert page.locator("#moves li").all_inner_texts() == ["Black: black@stack(4,1)"]
    # contrast: each disc against the frame, a white disc against an empty hole,
    # and a black disc's rim against an empty hole (WCAG's 3:1 for graphics)
    from webapp.boards import STACK_BOARD, STACK_HOLE, STACK_RIM
    from webapp.shapes import FILL

    assert page.locator("svg.board circle.hole").first.get_attribute("fill") == STACK_HOLE
    for disc in (FILL["black"], FILL["white"]):
        assert contrast(disc, STACK_BOARD) >= 3
    assert contrast(FILL["white"], STACK_HOLE) >= 3 and contrast(STACK_RIM, STACK_HOLE) >= 3
    shot(page, "page-connect4-desktop")
    with playwright_viewport(page, PHONE):
        shot(page, "page-connect4-phone")
    page.context.close()


class playwright_viewport:
    """The page drawn at another viewport size for a while."""

    def __init__(self, page, size):
        self.page, self.size = page, size

    def __enter__(self):
        self.before = self.page.viewport_size
        self.page.set_viewport_size(self.size)
        self.page.reload()
        # nothing wider than the screen (a long line of text would make the page scroll sideways)
        assert self.page.evaluate("document.documentElement.scrollWidth") <= self.size["width"]
        return self.page

    def __exit__(self, *exc):
        self.page.set_viewport_size(self.before)


def test_a_finished_y_game_states_its_result_in_words_and_replays_its_moves(browser, server, people):  # noqa: F811
    page = page_for(browser, server, "ada")
    game = start(server, "y_game(board_size=5)", None, [("ada", "human"), ("Random", "random")])
    page.goto(f"{server}/game/{game.id}")
    assert page.inner_text("#you") == "You are Black (seat 1)."
    # every empty cell shows its name, the names the moves are given in
    assert sorted(page.locator("svg.board text.coord").all_text_contents()) == sorted(
        page.locator("svg.board g[data-cell]").evaluate_all("gs => gs.map(g => g.dataset.cell)")
    )
    for _ in range(20):
        if page.query_selector("#result"):
            break
        follow(page, page.locator("svg.board .cell.legal").first)
    result = page.inner_text("#result")
    assert re.match(r"Game over\. (You won|You lost: Random won): Y connected\.", result), result
    assert "returns" not in result
    moves = page.locator("#moves li").all_inner_texts()
    stones = page.locator("svg.board polygon.stone").count()
    assert len(moves) == stones and moves[0].startswith("Black: ") and moves[1].startswith("White: ")
    last = moves[-1].split(": ")[1]
    assert page.locator("svg.board g[data-mark~='last']").get_attribute("data-cell") == last
    # the Y that won: a group touching all three sides (at least 5 cells on this board)
    assert page.locator("svg.board g[data-mark~='win']").count() >= 5
    shot(page, "page-y-desktop")
    with playwright_viewport(page, PHONE):
        shot(page, "page-y-phone")
    # the replay, from the start, one move at a time, and back to the end
    follow(page, "#replay-first")
    assert page.inner_text("#replaying").startswith(f"Replay: the position after move 0 of {len(moves)}")
    assert page.locator("svg.board polygon.stone").count() == 0
    assert page.locator("svg.board .cell.legal").count() == 0  # a replay is looked at, not played
    follow(page, "#replay-forward")
    assert page.locator("svg.board polygon.stone").count() == 1
    first = moves[0].split(": ")[1]
    assert page.locator("svg.board g[data-mark~='last']").get_attribute("data-cell") == first
    follow(page, "#replay-forward")
    follow(page, "#replay-back")
    assert page.inner_text("#replaying").startswith("Replay: the position after move 1 ")
    follow(page, page.locator("#moves a.replay-move").nth(2))
    assert page.locator("svg.board polygon.stone").count() == 3
    follow(page, "#replay-last")
    assert page.query_selector("#result") and page.locator("svg.board polygon.stone").count() == stones
    page.context.close()


def test_a_phone_lays_the_game_out_at_its_width_with_cells_a_finger_can_hit(browser, server, people):  # noqa: F811
    """375 px wide: the viewport meta tag keeps the page at the screen's width
    (without it a phone lays it out 980 px wide and shrinks it to 0.38), text
    is read at its size and the board's cells are at least 40 px."""
    page = page_for(browser, server, "ada", PHONE)
    for game_string, rule_set in (("ttt(rules=Connect4)", "Connect4"), ("y_game(board_size=5)", None)):
        game = start(server, game_string, rule_set, [("ada", "human"), ("Random", "random")])
        page.goto(f"{server}/game/{game.id}")
        wide = page.evaluate(
            "[...document.querySelectorAll('*')]"
            ".filter(e => e.scrollWidth > 376 || e.getBoundingClientRect().right > 376)"
            ".map(e => e.tagName + '#' + e.id + ' ' + e.scrollWidth + ' ' + e.getBoundingClientRect().right)"
        )
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], wide
        assert page.evaluate("window.visualViewport.scale") == 1
        size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#you')).fontSize)")
        assert size >= 16
        box = page.locator("svg.board .cell.legal").first.bounding_box()
        assert box["width"] >= 40 and box["height"] >= 40, (game_string, box)
    page.context.close()


def stored(server, game_string, rule_set, seats, moves, plans=None):  # noqa: F811
    """A game in progress (or finished) at a given history, as the hidden-views
    tests store one (tests/test_webapp_hidden_views.py)."""
    from registry import Registry, players
    from webapp.live import LiveGame, Seat
    from webapp.live_store import LiveStore

    with Registry(server.db) as reg:
        version = reg.one("SELECT fingerprint FROM rule_sets WHERE name = ?", (rule_set,))[0]
        made = [
            Seat(name, kind, name) if kind == "human" else Seat(name, kind, None, players.bot_spec(reg, name))
            for name, kind in seats
        ]
        gid = LiveGame.start(game_string, rule_set, "Public", made, 5, version).id
        game = LiveGame(gid, game_string, rule_set, "Public", made, 5, version, moves=moves, plans=plans)
        return LiveStore(server.db).create(reg, game)


def test_a_move_onto_a_hidden_piece_says_what_happened(browser, server, people):  # noqa: F811
    """3P-9X-HideSeek: black (dana) has placed a hidden circle on (3,5,1); ada
    (white) places there, which only shows her that piece and ends her turn."""
    seats = [("dana", "human"), ("ada", "human"), ("Random", "random")]
    game = stored(server, "ttt(rules=3P-9X-HideSeek)", "3P-9X-HideSeek", seats, [22])
    page = page_for(browser, server, "ada")
    page.goto(f"{server}/game/{game.id}")
    assert page.locator("#hidden-hit").count() == 0
    assert page.locator("svg.board g[data-cell='(3,5,1)'] .piece").count() == 0  # hidden from her
    follow(page, "svg.board g[data-cell='(3,5,1)']")
    assert page.inner_text("#hidden-hit") == (
        "Your move white@(3,5,1) circle found a hidden piece there: it is now shown, and your turn was over."
    )
    assert page.locator("svg.board g[data-cell='(3,5,1)'] .piece.black").count() == 1  # now shown
    assert page.inner_text("#waiting") == "Waiting for dana…"
    seen = page.locator("#seen-moves li").all_inner_texts()
    assert seen == [
        "seat 1: placed black on a space hidden from seat 2 [phase 1]",
        "seat 2: attempted white@(3,5,1) circle, which only revealed what is there [phase 1]",
        "seat 3: placed pink on a space hidden from seat 2 [phase 2]",
    ]
    # the observation is a "What you see" panel numbering seats as the page does
    assert page.inner_text("#seen h2") == "What you see"
    assert "player 1" not in page.inner_text("#seen") and "seat 2 sees" in page.inner_text("#seen")
    page.context.close()


def test_a_finished_hidden_game_shows_its_whole_board(browser, server, people):  # noqa: F811
    moves = [17, 24, 49, 688, 933, 3745, 1082, 889, 933, 573, 1221, 3745, 893, 539, 1185, 3745]
    moves += [3745, 3745, 1145, 3745, 717, 578, 966, 3745, 678, 714, 832, 3745, 544, 573]
    seats = [("dana", "human"), ("ada", "human"), ("Random", "random")]
    game = stored(server, "ttt(rules=3P-9X-HideSeek)", "3P-9X-HideSeek", seats, moves)
    page = page_for(browser, server, "ada")
    page.goto(f"{server}/game/{game.id}")
    assert page.inner_text("#result").startswith("Game over. You lost: Random won")
    # her own view still lacks the piece she never saw; the whole board has all 15
    assert page.locator(".boardwrap").first.locator(".piece").count() == 14
    assert page.locator("#revealed .piece").count() == 15
    assert "seat 2 sees" in page.inner_text("#seen")
    shot(page, "page-hidden-end-desktop")
    with playwright_viewport(page, PHONE):
        shot(page, "page-hidden-end-phone")
    page.context.close()


def test_a_simultaneous_round_waits_for_the_others_by_name(browser, server, people):  # noqa: F811
    """RockPaperScissors after a round of two x's (both destroyed), ada's
    next plan sent: the page waits for dana and tells the round before."""
    seats = [("ada", "human"), ("dana", "human")]
    game = stored(server, "ttt(rules=RockPaperScissors)", "RockPaperScissors", seats, [1, 1], plans={0: 0})
    page = page_for(browser, server, "ada")
    page.goto(f"{server}/game/{game.id}")
    assert page.inner_text("#you") == "You are Black (seat 1)."
    assert page.inner_text("#waiting") == "Your plan is in (seat 1). Waiting for dana…"
    assert "Collision on stack(1,1)" in page.inner_text("#last-round")
    shot(page, "page-round-desktop")
    with playwright_viewport(page, PHONE):
        shot(page, "page-round-phone")
    page.context.close()


def test_a_won_tic_tac_toe_marks_its_line_and_says_how_it_was_won(browser, server, people):  # noqa: F811
    seats = [("ada", "human"), ("dana", "human")]
    game = stored(server, "ttt(rules=Tic-Tac-Toe)", "Tic-Tac-Toe", seats, [0, 3, 1, 4, 2])
    page = page_for(browser, server, "ada")
    page.goto(f"{server}/game/{game.id}")
    assert page.inner_text("#result").startswith("Game over. You won: 3 in a row.")
    marked = page.locator("svg.board g[data-mark~='win']")
    assert sorted(marked.evaluate_all("gs => gs.map(g => g.dataset.cell)")) == [
        "(1,1,1)",
        "(2,1,1)",
        "(3,1,1)",
    ]
    assert page.locator("svg.board text.coord").all_text_contents() == ["1", "2", "3"] * 2
    page.context.close()
    # Connect4: the four discs of the winning column, each marked in its stack
    game = stored(server, "ttt(rules=Connect4)", "Connect4", seats, [0, 1, 0, 1, 0, 1, 0])
    page = page_for(browser, server, "ada")
    page.goto(f"{server}/game/{game.id}")
    assert page.inner_text("#result").startswith("Game over. You won: 4 in a row.")
    marked = page.locator("svg.board g[data-mark~='win']")
    assert sorted(marked.evaluate_all("gs => gs.map(g => g.dataset.at)")) == [
        f"(1,1,{z})" for z in range(1, 5)
    ]
    page.context.close()


@pytest.mark.parametrize(
    "game_string",
    [
        "ttt(rules=Qubic-4)",
        "ttt(rules=Hexagons-3-In-A-Row)",
        "ttt(rules=Tetrakis-TTT)",
        "ttt(rules=Toroidal-TTT)",
        "flipway(board_size=5)",
        "y_game(board_shape=hex,board_size=4)",
    ],
)
def test_every_board_kind_shows_its_coordinates_as_moves_name_them(browser, server, people, game_string):  # noqa: F811
    """The numbers and letters written beside (or, on a Y board, in) the cells
    are those of the cells' names, the names moves are given in."""
    from pathlib import Path

    from registry import Registry, rulesets

    rule_set = game_string[len("ttt(rules=") : -1] if game_string.startswith("ttt(") else None
    example = Path(__file__).parent.parent / "games" / "ttt" / "examples" / f"{rule_set}.json"
    if rule_set and example.exists():
        with Registry(server.db) as reg:
            if not reg.one("SELECT 1 FROM rule_sets WHERE name = ?", (rule_set,)):
                rulesets.save_rule_set(reg, "ada", example.read_text())
    game = start(server, game_string, rule_set, [("ada", "human"), ("dana", "human")])
    page = page_for(browser, server, "ada")
    page.goto(f"{server}/game/{game.id}")
    written = page.locator("svg.board text.coord").all_text_contents()
    cells = page.locator("svg.board g.cell.legal").evaluate_all("gs => gs.map(g => g.dataset.cell)")
    assert cells and written
    if rule_set:  # "(x,y,z)" or "(x,y,t)": x and y are written along the sides
        xs = {c.strip("()").split(",")[0] for c in cells}
        ys = {c.strip("()").split(",")[1] for c in cells}
        assert xs | ys <= set(written) and set(written) <= xs | ys | {f"y={y}" for y in ys}
    elif game_string.startswith("flipway"):  # "d1": letters along the foot, numbers up the side
        assert {c[0] for c in cells} | {c[1:] for c in cells} == set(written)
    else:  # a Y board writes each empty cell's name in it
        assert sorted(written) == sorted(cells)
    page.context.close()


def test_openspiels_own_games_say_who_you_are_and_how_it_ended(browser, server, people):  # noqa: F811
    """OpenSpiel's tic_tac_toe (not this toolkit's core: no board drawing, no
    winning line) still names the sides, the result and the moves."""
    from registry import Registry
    from webapp.live import LiveGame, Seat
    from webapp.live_store import LiveStore

    seats = [Seat("ada", "human", "ada"), Seat("dana", "human", "dana")]
    with Registry(server.db) as reg:
        gid = LiveGame.start("tic_tac_toe", None, "Public", seats, 5).id
        game = LiveGame(gid, "tic_tac_toe", None, "Public", seats, 5, moves=[0, 3, 1, 4, 2])
        LiveStore(server.db).create(reg, game)
    page = page_for(browser, server, "ada")
    page.goto(f"{server}/game/{gid}")
    assert page.inner_text("#you") == "You are x (seat 1)."
    assert page.inner_text("#result").startswith("Game over. You won.")
    assert page.locator("#moves li").all_inner_texts()[:2] == ["x: x(0,0)", "o: o(1,0)"]
    page.context.close()

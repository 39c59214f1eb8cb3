"""The winning line or chain marked where the page names moves, in a real
browser (Playwright and Debian's chromium, as tests/test_webapp_browser.py):
lines that are not straight in a board's coordinates (a toroid's wrapped
diagonal, a hexagon board's third axis, Tetrakis squares' triangles), the flip
games' winning groups and Flipway's chain; and OpenSpiel's tic_tac_toe, drawn
as its text, with the coordinates its moves name."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from test_webapp_browser import BROWSER_TESTS, browser, follow, server, shot  # noqa: F401
from test_webapp_browser_game_page import page_for, people, stored  # noqa: F401

pytestmark = BROWSER_TESTS
EXAMPLES = Path(__file__).resolve().parents[1] / "games" / "ttt" / "examples"
SEATS = [("ada", "human"), ("dana", "human")]


@pytest.fixture(scope="module")
def examples(server, people):  # noqa: F811
    from registry import Registry, rulesets

    with Registry(server.db) as reg:
        saved = {r["name"] for r in rulesets.list_rule_sets(reg)}
        for name in ("Toroidal-TTT", "Hexagons-3-In-A-Row", "Tetrakis-TTT"):
            if name not in saved:
                rulesets.save_rule_set(reg, "ada", (EXAMPLES / f"{name}.json").read_text())


def moves_of(game_string: str, names: list[str]) -> list[int]:
    import pyspiel

    import games  # noqa: F401  (registers ttt)

    state = pyspiel.load_game(game_string).new_initial_state()
    out = []
    for name in names:
        p = state.current_player()
        action = next(a for a in state.legal_actions() if state.action_to_string(p, a) == name)
        state.apply_action(action)
        out.append(action)
    return out


def marked(page) -> list[str]:
    return sorted(
        page.locator("svg.board [data-mark~='win']").evaluate_all("gs => gs.map(g => g.dataset.cell)")
    )


@pytest.mark.parametrize(
    "name,plays,line",
    [
        (  # a diagonal that wraps around both edges of a 3x3 toroid
            "Toroidal-TTT",
            ["black@(2,3,1)", "white@(1,1,1)", "black@(3,1,1)", "white@(2,1,1)", "black@(1,2,1)"],
            ["(1,2,1)", "(2,3,1)", "(3,1,1)"],
        ),
        (  # hexagons' third axis, (1,-1)
            "Hexagons-3-In-A-Row",
            ["black@(1,3,1)", "white@(1,1,1)", "black@(2,2,1)", "white@(2,1,1)", "black@(3,1,1)"],
            ["(1,3,1)", "(2,2,1)", "(3,1,1)"],
        ),
        (  # W N E of one square, then W of the next: a line across a row of triangles
            "Tetrakis-TTT",
            ["black@(1,1,4)", "white@(2,2,1)", "black@(1,1,1)", "white@(2,2,3)", "black@(1,1,2)"]
            + ["white@(1,2,3)", "black@(2,1,4)"],
            ["(1,1,1)", "(1,1,2)", "(1,1,4)", "(2,1,4)"],
        ),
    ],
)
def test_a_line_not_straight_in_its_coordinates_is_marked(browser, server, examples, name, plays, line):  # noqa: F811
    game_string = f"ttt(rules={name})"
    game = stored(server, game_string, name, SEATS, moves_of(game_string, plays))
    page = page_for(browser, server, "ada")
    page.goto(f"{server}/game/{game.id}")
    assert page.inner_text("#result").startswith(f"Game over. You won: {len(line)} in a row.")
    assert marked(page) == line
    page.context.close()


def test_the_winning_click_marks_the_line_and_the_game_is_recorded(browser, server, examples):  # noqa: F811
    """Hexagons-3-In-A-Row, dana's seat joined (as her opening the game would
    join it): ada's click on (3,1,1) completes black's line
    along the third axis; the page answers with the result, the line marked
    and the game recorded and rated (the docs' screenshot)."""
    from registry import Registry
    from webapp.live_store import LiveStore

    game_string = "ttt(rules=Hexagons-3-In-A-Row)"
    plays = ["black@(1,3,1)", "white@(1,1,1)", "black@(2,2,1)", "white@(2,1,1)"]
    game = stored(server, game_string, "Hexagons-3-In-A-Row", SEATS, moves_of(game_string, plays))
    with Registry(server.db) as reg:
        LiveStore(server.db).join(reg, game, "dana")
    page = page_for(browser, server, "ada")
    page.goto(f"{server}/game/{game.id}")
    follow(page, "svg.board [data-cell='(3,1,1)']")
    assert re.match(
        r"Game over\. You won: 3 in a row\.\s+· recorded as game \d+ and rated", page.inner_text("#result")
    )
    assert marked(page) == ["(1,3,1)", "(2,2,1)", "(3,1,1)"]
    shot(page, "page-win-hexagons")
    page.context.close()


def _finished(game_string: str, seed: int) -> list[int]:
    """The moves of a random game of ``game_string`` that someone won."""
    import pyspiel

    import games  # noqa: F401

    rng = random.Random(seed)
    while True:
        state, moves = pyspiel.load_game(game_string).new_initial_state(), []
        while not state.is_terminal():
            moves.append(rng.choice(state.legal_actions()))
            state.apply_action(moves[-1])
        if len(set(state.returns())) > 1:
            return moves


@pytest.mark.parametrize(
    "game_string", ["flipway(board_size=5)", "defector_y(board_size=5)", "double_o_y(board_size=5)"]
)
def test_a_flip_games_winning_chain_or_group_is_marked(browser, server, people, game_string):  # noqa: F811
    """Flipway: the winner's chain touches both its edges (Black the top and
    bottom rows, White the left and right columns); a Y game's group touches
    all three sides of the triangle."""
    from games.openspiel import core_of
    from registry import Registry
    from webapp.live import LiveGame, Seat
    from webapp.live_store import LiveStore

    moves = _finished(game_string, 3)

    seats = [Seat("ada", "human", "ada"), Seat("dana", "human", "dana")]
    with Registry(server.db) as reg:
        gid = LiveGame.start(game_string, None, "Public", seats, 5).id
        game = LiveStore(server.db).create(
            reg, LiveGame(gid, game_string, None, "Public", seats, 5, moves=moves)
        )
    page = page_for(browser, server, "ada")
    page.goto(f"{server}/game/{gid}")
    cells = marked(page)
    reason = "edges joined" if game_string.startswith("flipway") else "Y connected"
    assert cells and f"won: {reason}." in page.inner_text("#result")
    core = core_of(game.state)
    if game_string.startswith("flipway"):
        n = 5
        rows, columns = {c[1:] for c in cells}, {c[0] for c in cells}
        black = core.winner_colour() == 0
        assert {"1", str(n)} <= rows if black else {"a", "e"} <= columns
    else:
        board = core.board
        sides = {side for c in cells for side in board.sides_of(board.index_of_name[c])}
        assert sides == {0, 1, 2}
    page.context.close()


def test_openspiels_text_board_shows_the_coordinates_its_moves_name(browser, server, people):  # noqa: F811
    from registry import Registry
    from webapp.live import LiveGame, Seat
    from webapp.live_store import LiveStore

    seats = [Seat("ada", "human", "ada"), Seat("dana", "human", "dana")]
    with Registry(server.db) as reg:
        gid = LiveGame.start("tic_tac_toe", None, "Public", seats, 5).id
        LiveStore(server.db).create(reg, LiveGame(gid, "tic_tac_toe", None, "Public", seats, 5, moves=[5, 3]))
    page = page_for(browser, server, "ada")
    page.goto(f"{server}/game/{gid}")
    assert page.inner_text("pre.textboard") == "  012\n0 ...\n1 o.x\n2 ..."
    assert "x(1,2)" in page.inner_text("#moves")  # row 1, column 2: where the x is drawn
    page.context.close()

"""Web app behaviours at the edges of the play menu and leaderboards: game strings recorded
outside the play menu are played as themselves (not as a ttt rule set of that
name), a user's own persona gets Play New Game on a leaderboard (the tic-tac-toe variations specification),
and a Hash board's dimensions are shown fixed at 3x3x1."""

from __future__ import annotations

import html
import re

import pytest

from registry import open_games
from test_webapp import Browser, db, make_users, play_to_end


@pytest.fixture
def app(tmp_path):
    from webapp import create_app

    return create_app(tmp_path / "r.sqlite3", secret_key=b"k" * 32, testing=True)


def _seat_choice(page: str, seat: int) -> str:
    select = re.search(rf'<select name="seat{seat}".*?</select>', page, re.S).group(0)
    return re.search(r'<option value="([^"]+)" selected', select).group(1)


@pytest.mark.parametrize("game_string", ["flipway(board_size=4)", "y_game(board_size=4)"])
def test_a_game_string_row_is_played_as_its_own_string(app, game_string):
    """The reviewer's failure: ``ttt(rules=flipway(board_size=4))`` was loaded
    ("Expected type: kString, got kGame") and the page fell back to Tic-Tac-Toe."""
    make_users(app)
    with db(app) as reg, reg.transaction():
        open_games.ensure_game(reg, game_string)
    cy = Browser(app, "cy")
    page = html.unescape(cy.get("/?" + "game=" + game_string).text)
    assert "kGame" not in page and "cannot be played" not in page
    assert f"Start {game_string}" in page
    assert re.search(rf'<option value="{re.escape(game_string)}" [^>]*selected>', page)
    r = cy.post("/play/new", game=game_string, universe="Public", seat0="cy", seat1="Random")
    assert r.status_code == 302 and "/game/" in r.headers["Location"], r.text
    shown = cy.get(r.headers["Location"]).text
    assert "<svg" in shown  # drawn as its board, not as text
    end = play_to_end(cy, r.headers["Location"])
    assert f"recorded as {game_string} game" in html.unescape(end)
    with db(app) as reg:
        assert [g["game"] for g in open_games.open_games_of(reg, game_string)] == [game_string]


def test_a_choice_the_browser_cannot_play_is_refused_not_replaced(app):
    make_users(app)
    with db(app) as reg, reg.transaction():
        # a simultaneous-move game string (ensure_game refuses these; a row made
        # some other way must still not be offered as Tic-Tac-Toe)
        reg.db.execute(
            "INSERT INTO rule_sets (name, canonical, fingerprint, text, created, "
            "game_string) VALUES ('matrix_rps', 'game:matrix_rps', '', '', 0, "
            "'matrix_rps')"
        )
    cy = Browser(app, "cy")
    for choice, why in (("matrix_rps", "simultaneous moves"), ("No-Such-Game", "no-such-game")):
        page = html.unescape(cy.get(f"/?game={choice}").text)
        assert f"{choice} cannot be played here" in page
        assert why.lower() in page.lower()
        assert 'id="new-game"' not in page and "Start Tic-Tac-Toe" not in page
    r = cy.post("/play/new", game="matrix_rps", universe="Public", seat0="cy", seat1="Random")
    assert r.status_code == 302 and "/game/" not in r.headers["Location"]


def test_own_persona_gets_play_new_game_and_no_add_to_friends(app):
    """The tic-tac-toe variations specification: Play New Game "displays only for
    non-human players, friends, and personas created by the user"; Add to Friends
    "whenever no Play New Game button displays"."""
    make_users(app)
    cy = Browser(app, "cy")
    r = cy.post("/play/new", game="Tic-Tac-Toe", universe="Public", seat0="cy", seat1="Random")
    play_to_end(cy, r.headers["Location"])
    Browser(app, "dee").post("/play/new", game="Tic-Tac-Toe", universe="Public", seat0="dee", seat1="Random")
    board = cy.get("/rules/Tic-Tac-Toe/leaderboard").text
    row = re.search(r'<tr data-player="cy">.*?</tr>', board, re.S).group(0)
    assert 'class="play-new"' in row and 'class="add-friend"' not in row
    link = html.unescape(
        re.search(r'class="play-new"', row) and re.search(r'<a href="([^"]+)" class="play-new"', row).group(1)
    )
    home = cy.get(link).text
    # the row's player is prefilled in the second seat; the user is not seated twice
    assert _seat_choice(home, 1) == "cy" and _seat_choice(home, 0) == "Random"
    r = cy.post("/play/new", game="Tic-Tac-Toe", universe="Public", seat0="Random", seat1="cy")
    assert "/game/" in r.headers["Location"]


def test_hash_board_dimensions_are_fixed_and_still_submitted(app):
    make_users(app)
    cy = Browser(app, "cy")
    page = cy.get("/factory").text
    assert 'name="board.kind"' in page and re.search(r'<option value="hash"\s+selected', page)
    for axis, value in (("x", 3), ("y", 3), ("z", 1)):
        assert re.search(
            rf'<select name="board.size.{axis}" id="board-size-{axis}" data-redraw '
            r"disabled>",
            page,
        ), axis
        assert f'<input type="hidden" name="board.size.{axis}" value="{value}">' in page
    squares = cy.post(
        "/factory",
        op="redraw",
        **{"board.kind": "squares", "board.size.x": "4", "board.size.y": "4", "board.size.z": "1"},
    ).text
    assert re.search(r'<select name="board.size.x" id="board-size-x" data-redraw>', squares)
    assert 'type="hidden" name="board.size.x"' not in squares


def test_cloaking_hides_turns_has_a_control_shown_only_with_hiding_cloaking(app):
    """KBeauty9's ``cloaking_hides_turns`` had no control, so its Copy saved a
    last-mover game; the control shows with cloaking "hides" only, carries the
    copied value, and its validation errors are shown next to it."""
    from test_webapp import factory_form, problems

    make_users(app)
    cy = Browser(app, "cy")
    assert 'id="cloaking_hides_turns"' not in cy.get("/factory").text
    copy = cy.get("/factory?copy=KBeauty9").text
    assert "Cloaking hides turns" in copy
    assert 'id="cloaking_hides_turns" checked' in copy
    assert re.search(r'<select name="cloaking" id="cloaking" data-redraw>', copy)
    # no cloaked space: validation refuses hidden turns, and says so beside the box
    page = html.unescape(
        cy.post("/factory", **factory_form(name="Hid", cloaking="hides", cloaking_hides_turns="1")).text
    )
    assert problems(page).get("cloaking_hides_turns"), problems(page)
    box = page.index('id="cloaking_hides_turns"')
    assert page.index('data-for="cloaking_hides_turns"') - box < 200
    # cloaking "none": the box is gone after a redraw, and nothing carries it
    none = cy.post("/factory", **factory_form(name="Hid", op="redraw", cloaking="none")).text
    assert 'id="cloaking_hides_turns"' not in none


def test_cloaking_hides_walls_has_a_control_shown_only_with_hiding_cloaking(app):
    """``cloaking_hides_walls`` (docs/rules/ttt/cloaking.md, "Invisible walls"):
    the box shows with cloaking "hides" only, reaches the record, and its
    validation errors are shown next to it."""
    from test_webapp import factory_form, problems

    make_users(app)
    cy = Browser(app, "cy")
    assert 'id="cloaking_hides_walls"' not in cy.get("/factory").text
    # no cloaked locked space: validation refuses hidden walls, and says so beside the box
    page = html.unescape(
        cy.post("/factory", **factory_form(name="Walls", cloaking="hides", cloaking_hides_walls="1")).text
    )
    assert "Cloaking hides walls" in page
    assert 'id="cloaking_hides_walls" checked' in page
    assert "a locked space" in " ".join(problems(page).get("cloaking_hides_walls", [])), problems(page)
    box = page.index('id="cloaking_hides_walls"')
    assert page.index('data-for="cloaking_hides_walls"') - box < 200
    none = cy.post("/factory", **factory_form(name="Walls", op="redraw", cloaking="none")).text
    assert 'id="cloaking_hides_walls"' not in none

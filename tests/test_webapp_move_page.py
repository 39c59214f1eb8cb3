"""A move is answered with the game page itself (no redirect: a move's round
trip is what a person waits for), and a move sent from a page drawn at another position (a reload sending
the form again, a stale tab) is refused, not applied to a position the
person did not see."""

from __future__ import annotations

import re

from test_webapp import Browser, live, make_users


def test_a_move_answers_with_the_page_and_a_stale_form_is_refused(app):  # noqa: F811
    make_users(app)
    cy = Browser(app, "cy")
    url = cy.post("/play/new", game="Tic-Tac-Toe", universe="Public", seat0="cy", seat1="Random").headers[
        "Location"
    ]
    page = cy.get(url).text
    at = re.search(r'name="at" value="(\d+)"', page).group(1)
    assert at == "0"
    action = re.search(r'data-action="(\d+)"', page).group(1)
    answer = cy.post(url + "/move", action=action, at=at)
    assert answer.status_code == 200
    game = live(app, url)
    assert len(game.moves) == 2  # cy's move and Random's answer
    assert re.search(r'name="at" value="2"', answer.text)
    assert f'data-url="{url}"' in answer.text  # app.js shows the game's own address
    assert answer.text == cy.get(url).text.replace(  # the page a GET draws (its CSRF token aside)
        re.search(r'name="csrf" value="[^"]+"', cy.get(url).text).group(0),
        re.search(r'name="csrf" value="[^"]+"', answer.text).group(0),
    )
    # the same form again (a reload of the answer without the script): refused, nothing applied
    other = re.search(r'data-action="(\d+)"', answer.text).group(1)
    again = cy.post(url + "/move", action=other, at=at)
    assert "the game moved on since this page was drawn" in again.text
    assert len(live(app, url).moves) == 2
    cy.post(url + "/move", action=other, at="2")
    assert len(live(app, url).moves) == 4

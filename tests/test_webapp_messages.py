"""What the web app tells a person when there is nothing to do or nothing
there: Show Evolution with no player checked, and the pages that are not
found, in words that make sense in a browser."""

from __future__ import annotations

import html

from test_webapp import Browser, make_users


def test_show_evolution_with_nobody_checked_asks_for_a_player(app):
    make_users(app)
    cy = Browser(app, "cy")
    r = cy.post("/rules/Tic-Tac-Toe/evolution", universe="Public")
    assert r.status_code == 302 and r.headers["Location"].endswith(
        "/rules/Tic-Tac-Toe/leaderboard?universe=Public"
    )
    page = html.unescape(cy.get(r.headers["Location"]).text)
    assert "Show Evolution: check at least one player" in page
    assert 'id="evolution-plot"' not in page
    # a checked player is plotted, and the picture names nobody else by default
    shown = cy.post("/rules/Tic-Tac-Toe/evolution", universe="Public", players=["Random"]).text
    assert 'id="evolution-plot"' in shown and "players=Random" in shown
    assert cy.get("/rules/Tic-Tac-Toe/evolution.png").status_code == 400


def test_not_found_pages_say_where_the_app_lists_the_names(app):
    make_users(app)
    cy = Browser(app, "cy")
    for url in ("/rules/Nope", "/rules/Nope/leaderboard", "/rules/Nope/learning-curve"):
        r = cy.get(url)
        page = html.unescape(r.text)
        assert r.status_code == 404, url
        assert "There is no rule set called 'Nope' here. The Rule sets page (in the menu above)" in page, url
        assert "python -m" not in page, url
    page = html.unescape(cy.get("/player/Nobody").text)
    assert "There is no player called 'Nobody' here. A game's leaderboard lists its players" in page
    assert "python -m" not in page
    # the home page's refusal of an unknown choice says the same
    home = html.unescape(cy.get("/?game=Nope").text)
    assert "Nope cannot be played here: There is no rule set called 'Nope' here." in home
    assert "python -m" not in home

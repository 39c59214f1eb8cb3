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

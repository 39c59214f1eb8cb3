"""Naming a Standard Player on the web (the tic-tac-toe variations specification: leaderboards show "the
standard player (SP) for the rule set if there is one (in all universes)";
docs/registry.md: Trainers and Admins name it, for a rule set or a game
string). Creators neither see the control nor get through with a POST."""

from __future__ import annotations

import html

from registry import players
from test_webapp import Browser, db, make_users, url_of_leaderboard

SP_FORM = 'id="sp-form"'


def sp_of(app, name):
    with db(app) as reg:
        return players.standard_player(reg, name)


def sp_url(name):
    return url_of_leaderboard(name).rsplit("/", 1)[0] + "/standard-player"


def test_trainers_and_admins_name_a_standard_player_creators_cannot(app):
    make_users(app)
    with db(app) as reg:
        players.add_bot(reg, "mcts20", "mcts:simulations=20")
    cy, tom, ada = Browser(app, "cy"), Browser(app, "tom"), Browser(app, "ada")
    board = tom.get(url_of_leaderboard("Tic-Tac-Toe")).text
    assert SP_FORM in board and ">mcts20</option>" in board and ">Random</option>" in board
    assert ">cy</option>" not in board.split(SP_FORM)[1].split("</form>")[0]  # bots only
    assert SP_FORM not in cy.get(url_of_leaderboard("Tic-Tac-Toe")).text
    for name in ("Tic-Tac-Toe", "y_game(board_size=5)"):
        # a Creator's POST: 403, nothing changed (for a game string: no row made)
        assert cy.post(sp_url(name), player="mcts20").status_code == 403
        if name == "Tic-Tac-Toe":
            assert sp_of(app, name) is None
        else:
            assert tom.get(url_of_leaderboard(name)).status_code == 404
        # a Trainer names it (a game string with no game recorded yet gets its row)
        assert tom.post(sp_url(name), player="mcts20").status_code == 302
        assert sp_of(app, name) == "mcts20"
        board = html.unescape(cy.get(url_of_leaderboard(name)).text)
        assert 'id="sp-name">mcts20<' in board and 'data-player="mcts20"' in board
        assert SP_FORM not in board  # still no control for cy
        assert "selected>mcts20</option>" in tom.get(url_of_leaderboard(name)).text
        # a human is refused with the registry's reason; the SP stays
        ada.post(sp_url(name), player="cy")
        assert "a standard player must be a bot" in html.unescape(ada.get(url_of_leaderboard(name)).text)
        assert sp_of(app, name) == "mcts20"
        # an Admin removes it
        assert ada.post(sp_url(name), player="").status_code == 302
        assert sp_of(app, name) is None
        assert 'id="sp-name">none<' in ada.get(url_of_leaderboard(name)).text
    # no CSRF token: refused
    r = tom.c.post(sp_url("Tic-Tac-Toe"), data={"player": "mcts20"})
    assert r.status_code == 400 and sp_of(app, "Tic-Tac-Toe") is None

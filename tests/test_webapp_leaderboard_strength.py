"""The leaderboard's Difficulty level, Related games and Show Learning-curve
(the tic-tac-toe variations specification's leaderboard page; how each is
computed: registry/strength.py, registry/related_games.py, docs/webapp.md).

Games are recorded through the registry (each replayed and rated as a played
game is), seated so that the chosen player wins; the pages are read through
Flask's test client."""

from __future__ import annotations

import html
import re

import pytest

from registry import open_games, players, results, strength
from test_registry_games import random_game
from test_webapp import PASSWORD, Browser, csrf, db

TTT = "Tic-Tac-Toe"


@pytest.fixture
def app(tmp_path):
    """The app with one account, ada, who signs up (and is logged in as ``app.ada``)."""
    from webapp import create_app

    app = create_app(tmp_path / "r.sqlite3", secret_key=b"k" * 32, testing=True)
    ada = Browser(app)
    assert ada.post("/register", name="ada", password=PASSWORD, password2=PASSWORD).status_code == 302
    ada.token = csrf(ada.get("/").text)
    app.ada = ada
    return app


_DECISIVE: dict[int, list[int]] = {}


def decisive_game(reg, seat: int) -> list[int]:
    """The actions of a random Tic-Tac-Toe game that ``seat`` wins."""
    if seat not in _DECISIVE:
        _DECISIVE[seat] = next(
            actions
            for actions, returns in (random_game(reg, TTT, seed) for seed in range(200))
            if returns[seat] > returns[1 - seat]
        )
    return _DECISIVE[seat]


def wins(reg, winner: str, loser: str, n: int) -> None:
    """Record ``n`` finished games of Tic-Tac-Toe that ``winner`` wins, from
    either seat in turn (the ratings fit a first-move advantage: wins from one
    seat only would be the seat's, not the player's)."""
    for i in range(n):
        seat = i % 2
        seats = [winner, loser] if seat == 0 else [loser, winner]
        returns = [1.0, -1.0] if seat == 0 else [-1.0, 1.0]
        results.record_game(reg, TTT, seats, returns, decisive_game(reg, seat))


def text(page) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page.text)))


def difficulty_on_page(b: Browser) -> float:
    page = b.get(f"/rules/{TTT}/leaderboard").text
    return float(re.search(r'id="difficulty-rating">(-?\d+)<', page).group(1))


def test_related_games_are_nearest_rule_sets_first_with_links(app):
    page = app.ada.get(f"/rules/{TTT}/leaderboard").text
    related = re.search(r'<div id="related">(.*?)</div>', page, re.S).group(1)
    names = re.findall(r'<a href="/rules/([^/]+)/leaderboard[^"]*" class="related-link"', related)
    assert len(names) == 5 and TTT not in names
    # 3P-Misere-Notakto differs in 4 fields (players, colours, two reserves);
    # 3P-Notakto and Connect4 in 5 each, the one on Tic-Tac-Toe's board first
    assert names.index("3P-Misere-Notakto") < names.index("3P-Notakto")
    assert "Connect4" not in names or names.index("3P-Notakto") < names.index("Connect4")
    assert "3P-Notakto</a>\n  <small>5 fields differ, same board" in related
    with db(app) as reg:
        from registry import related_games

        full = related_games.related_games(reg, TTT, shown=100)
    order = [r.name for r in full]
    assert order.index("3P-Notakto") < order.index("Connect4") < order.index("RockPaperScissors")
    assert [(r.distance, r.same_board) for r in full if r.name in ("3P-Notakto", "Connect4")] == [
        (5, True),
        (5, False),
    ]


def test_a_game_string_has_no_related_games(app):
    with db(app) as reg:
        players.add_bot(reg, "m5", "mcts:simulations=5")
        actions, returns = [0, 1, 3, 4, 6], [1.0, -1.0]
        open_games.record_open_game(reg, "tic_tac_toe", ["m5", "Random"], returns, actions)
    page = app.ada.get("/rules/tic_tac_toe/leaderboard")
    assert page.status_code == 200
    assert "none: tic_tac_toe is not a tic-tac-toe rule set" in text(page)


def test_difficulty_rises_as_the_reference_beats_random_more(app):
    ada = app.ada
    assert "Difficulty level: not rated yet" in text(ada.get(f"/rules/{TTT}/leaderboard"))
    with db(app) as reg:
        players.add_bot(reg, "m20", "mcts:simulations=20")
        wins(reg, "m20", "Random", 3)
        wins(reg, "Random", "m20", 3)
    even = difficulty_on_page(ada)
    assert "the best-rated bot m20" in text(ada.get(f"/rules/{TTT}/leaderboard"))
    with db(app) as reg:
        wins(reg, "m20", "Random", 12)
    stronger = difficulty_on_page(ada)
    assert stronger > even + 100
    with db(app) as reg:
        found = strength.difficulty(reg, TTT, "Public", None)
        assert found.label == strength.difficulty_label(found.rating)
        assert found.random_score < 0.5
        wins(reg, "Random", "m20", 30)
    assert difficulty_on_page(ada) < stronger  # Random catching up: easier


def test_the_standard_player_is_the_reference_of_difficulty(app):
    with db(app) as reg:
        players.add_bot(reg, "weak", "mcts:simulations=2")
        players.add_bot(reg, "strong", "mcts:simulations=200")
        wins(reg, "strong", "Random", 10)
        wins(reg, "weak", "Random", 2)
        wins(reg, "Random", "weak", 2)
        best = strength.difficulty(reg, TTT, "Public", None)
        players.set_standard_player(reg, "ada", TTT, "weak")
        sp = strength.difficulty(reg, TTT, "Public", "weak")
    assert (best.reference, best.why) == ("strong", "the best-rated bot")
    assert (sp.reference, sp.why) == ("weak", "the Standard Player")
    assert sp.rating < best.rating
    assert "the Standard Player weak" in text(app.ada.get(f"/rules/{TTT}/leaderboard"))


def test_learning_curve_png_served_with_two_budgets_and_a_message_without(app):
    ada = app.ada
    page = ada.get(f"/rules/{TTT}/leaderboard").text
    assert f'href="/rules/{TTT}/learning-curve?universe=Public" id="learning-curve"' in page
    assert "Not enough data for a learning curve" in text(ada.get(f"/rules/{TTT}/learning-curve"))
    assert ada.get(f"/rules/{TTT}/learning-curve.png").status_code == 404
    with db(app) as reg:
        players.add_bot(reg, "m10", "mcts:simulations=10")
        wins(reg, "m10", "Random", 4)
        wins(reg, "Random", "m10", 2)
    # one budget is not a curve
    assert "Not enough data for a learning curve" in text(ada.get(f"/rules/{TTT}/learning-curve"))
    with db(app) as reg:
        players.add_bot(reg, "m100", "mcts:simulations=100")
        players.add_bot(reg, "ab$^^$", "alphabeta:depth=2")  # a "$" in a name is text
        wins(reg, "m100", "Random", 8)
        wins(reg, "m100", "m10", 3)
        wins(reg, "ab$^^$", "Random", 3)
        curve = strength.learning_curve(reg, TTT, "Public")
    assert [p[0] for p in curve.series["mcts"]] == [10, 100]
    assert curve.series["mcts"][1][1] > curve.series["mcts"][0][1]  # more search, higher rating
    assert list(curve.bands) == ["ab$^^$ (alphabeta depth 2)"]
    page = ada.get(f"/rules/{TTT}/learning-curve")
    assert 'id="learning-curve-plot"' in page.text and "Not enough data" not in page.text
    png = ada.get(f"/rules/{TTT}/learning-curve.png?universe=Public")
    assert png.status_code == 200 and png.mimetype == "image/png" and png.data[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_game_in_progress_changes_none_of_them(app):
    with db(app) as reg:
        players.add_bot(reg, "m20", "mcts:simulations=20")
        wins(reg, "m20", "Random", 3)
        wins(reg, "Random", "m20", 1)
    ada = app.ada
    before = ada.get(f"/rules/{TTT}/leaderboard").text
    url = ada.post("/play/new", game=TTT, universe="Public", seat0="ada", seat1="m20").headers["Location"]
    actions = re.findall(r'data-action="(\d+)"', ada.get(url).text)
    ada.post(url + "/move", action=actions[0])
    after = ada.get(f"/rules/{TTT}/leaderboard").text

    def parts(page):
        return [
            re.search(p, page, re.S).group(0)
            for p in (r'<p id="difficulty">.*?</p>', r'<div id="related">.*?</div>')
        ]

    assert parts(after) == parts(before)
    assert "Not enough data" in text(ada.get(f"/rules/{TTT}/learning-curve"))

"""The leaderboard's Difficulty level, Related games and Show Learning-curve in
a real browser (the browser fixtures are tests/test_webapp_browser.py's; the
games are recorded through the registry, as in
tests/test_webapp_leaderboard_strength.py)."""

from __future__ import annotations

from test_webapp_browser import (  # noqa: F401  (accounts, browser, server: the fixtures)
    BROWSER_TESTS,
    accounts,
    browser,
    follow,
    login,
    server,
    shot,
)
from test_webapp_leaderboard_strength import wins

pytestmark = BROWSER_TESTS


def test_difficulty_related_games_and_the_learning_curve(browser, server, accounts):  # noqa: F811
    from registry import Registry, players

    page = login(browser, server, "cy")
    page.goto(server + "/rules/Tic-Tac-Toe/leaderboard")
    assert "not rated yet" in page.inner_text("#difficulty")
    follow(page, "#learning-curve")
    assert "Not enough data for a learning curve" in page.inner_text("#no-learning-curve")
    with Registry(server.db) as reg:
        players.add_bot(reg, "m10", "mcts:simulations=10")
        players.add_bot(reg, "m100", "mcts:simulations=100")
        wins(reg, "m10", "Random", 4)
        wins(reg, "Random", "m10", 2)
        wins(reg, "m100", "Random", 8)
    page.goto(server + "/rules/Tic-Tac-Toe/leaderboard")
    assert page.inner_text("#difficulty-label") in ("easy", "moderate", "hard", "very hard")
    assert "the best-rated bot m100" in page.inner_text("#difficulty")
    shot(page, "leaderboard-difficulty-related")
    follow(page, ".related-link:has-text('3P-Notakto')")
    assert page.url.endswith("/rules/3P-Notakto/leaderboard?universe=Public")
    assert "Tic-Tac-Toe" in page.inner_text("#related")  # related both ways
    page.goto(server + "/rules/Tic-Tac-Toe/leaderboard")
    follow(page, "#learning-curve")
    page.wait_for_function(
        "document.getElementById('learning-curve-plot').complete && "
        "document.getElementById('learning-curve-plot').naturalWidth > 0"
    )
    shot(page, "learning-curve")
    follow(page, "#curve-leaderboard")  # back to the leaderboard it came from
    assert page.url.endswith("/rules/Tic-Tac-Toe/leaderboard?universe=Public")
    page.close()

"""A local web app over the registry, as the tic-tac-toe variations
specification describes it: log in with the
registry's roles, play any registered game in the browser against a bot or a
person, leaderboards with their buttons, and the Player Factory.

    python -m webapp --db my.sqlite3 --port 8000

Why Flask with server-rendered templates: every check that matters (role,
seat, legal move, quota, uniqueness) must happen on the server anyway, so the
pages are plain HTML forms and the little JavaScript in ``static/`` only makes
them nicer (click a cell, redraw the factory's board); nothing is fetched from
outside. Decisions and routes: docs/webapp.md.
"""

from webapp.app import create_app  # noqa: E402

__all__ = ["create_app"]

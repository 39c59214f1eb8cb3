"""Games and servers: a game in progress keeps its rule set through an Admin's
rename, the Factory and the registry bound every size they accept, and a
request the app cannot serve is refused with a message, never a 500."""

from __future__ import annotations

import html
import re

from registry import Registry, results, rulesets
from test_webapp import Browser, play_to_end
from test_webapp_accounts import account, app  # noqa: F401  (app: the fixture)
from webapp import create_app

FOUR = {
    "name": "Mine",
    "board": {"kind": "squares", "size": [4, 4, 1]},
    "reserves": {"black": 8, "white": 8},
    "turn_checks": ["first-4-wins"],
}


def cells(page: str) -> list[str]:
    return re.findall(r'data-action="(\d+)"', page)


def test_a_renamed_rule_set_keeps_its_games_in_progress(app, tmp_path):  # noqa: F811
    """A game of Mine in progress while an Admin renames Mine to Other, the
    server restarts and another rule set is saved as Mine: the game is still
    Mine's rules (4x4), in both servers, and is recorded under Other."""
    account(app, "ada")
    account(app, "cy")
    with Registry(app.config["REGISTRY_DB"]) as reg:
        rulesets.save_rule_set(reg, "cy", FOUR)
    cy = Browser(app, "cy")
    url = cy.post("/play/new", game="Mine", universe="Public", seat0="cy", seat1="Random").headers["Location"]
    cy.post(url + "/move", action="0")
    assert len(cells(cy.get(url).text)) == 14  # 16 squares, two taken
    ada = Browser(app, "ada")
    assert ada.post("/rules/Mine/rename", new_name="Other").status_code == 302
    page = cy.get(url)
    assert page.status_code == 200 and len(cells(page.text)) == 14
    assert "<h1>Other</h1>" in page.text  # shown under its name now
    again = create_app(tmp_path / "r.sqlite3", secret_key=b"k" * 32, testing=True)  # a restart
    cy2 = Browser(again, "cy")
    assert cy2.get(url).status_code == 200 and len(cells(cy2.get(url).text)) == 14
    with Registry(app.config["REGISTRY_DB"]) as reg:  # another rule set takes the old name
        rulesets.save_rule_set(
            reg,
            "ada",
            {"name": "Mine", "reserves": {"black": 5, "white": 4}, "turn_checks": ["first-3-loses"]},
        )
    for b in (cy, cy2):  # both servers: still the 4x4 game, the same position
        assert len(cells(b.get(url).text)) == 14
    assert cy.get(url).text.split("<main>")[1] == cy2.get(url).text.split("<main>")[1].replace(
        cy2.token, cy.token
    )
    page = play_to_end(cy2, url)
    gid = int(re.search(r"recorded as game (\d+)", html.unescape(page)).group(1))
    with Registry(app.config["REGISTRY_DB"]) as reg:
        assert [g["id"] for g in results.games_of(reg, "Other")] == [gid]
        assert results.games_of(reg, "Mine") == []

"""Games and servers: a game in progress keeps its rule set through an Admin's
rename, the Factory and the registry bound every size they accept, and a
request the app cannot serve is refused with a message, never a 500."""

from __future__ import annotations

import html
import re
from urllib.parse import quote

import pytest

from registry import Registry, results, rulesets, users
from registry.errors import RegistryError
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


# -- every size bounded
def factory_post(b: Browser, **fields):
    fields.setdefault("reserves.black", "5")
    fields.setdefault("reserves.white", "4")
    return b.post("/factory", **fields)


def options(page: str) -> list[int]:
    return [int(v) for v in re.findall(r'<option value="(\d+)"', page)]


def test_the_factory_draws_no_page_larger_than_the_largest_rule_set(app):  # noqa: F811
    """Values beyond validation's bounds are brought within them before the
    page is drawn, each with a problem naming the bound: a form post drew a
    15 MB page of 400,000 options (reserves.black=200000), and 34.7 MB for a
    300x300x10 board."""
    account(app, "ada")
    b = Browser(app, "ada")
    r = factory_post(b, op="add_check", **{"reserves.black": "200000"})
    assert r.status_code == 200 and len(r.data) < 200_000 and max(options(r.text)) <= 512
    assert 'data-for="reserves.black">200000 is not allowed (allowed: 0..512)' in html.unescape(r.text)
    for op in ("redraw", "save"):
        r = factory_post(
            b, op=op, name="Big", **{"board.kind": "squares", "board.size.x": "300", "board.size.y": "300"}
        )
        assert r.status_code == 200 and len(r.data) < 200_000, op
        assert "300 is not allowed (allowed: 1..19)" in html.unescape(r.text), op
    checks = {f"turn_checks[{i}]": "first-3-wins" for i in range(2000)}
    r = factory_post(b, op="add_check", **checks)
    assert len(r.data) < 200_000 and len(re.findall(r'name="turn_checks\[\d+\]"', r.text)) <= 60
    assert "2,000 checks" in html.unescape(r.text) or "2000 checks" in html.unescape(r.text)
    # a long list of problems is cut: 4,000 off-board spaces
    r = factory_post(b, op="save", name="Locks", **{"board.locked": ";".join(["9,9,1"] * 4000)})
    text = html.unescape(r.text)
    assert len(r.data) < 200_000 and re.search(r"\.\.\. and [\d,]+ more", text), text[-3000:]
    # spaces listed beyond three full boards are left out, with a problem
    r = factory_post(b, op="redraw", **{"board.locked": ";".join(["1,1,1"] * 20000)})
    assert "20,000 spaces listed (allowed: at most 1,536" in html.unescape(r.text)


def test_notes_are_bounded_when_saved_and_when_shown(app):  # noqa: F811
    account(app, "ada")
    long = {"name": "Wordy", "reserves": {"black": 5, "white": 4}, "turn_checks": ["first-3-loses"]}
    with Registry(app.config["REGISTRY_DB"]) as reg:
        with pytest.raises(RegistryError, match=r"notes: 10,000,000 characters \(allowed: at most 10,000\)"):
            rulesets.save_rule_set(reg, "ada", dict(long, notes="x" * 10_000_000))
        rulesets.save_rule_set(reg, "ada", dict(long, notes="x" * 10_000))  # the bound itself is fine
        # a rule set saved before the bound: its page shows the first 10,000 characters
        text = reg.one("SELECT text FROM rule_sets WHERE name = 'Wordy'")[0]
        reg.db.execute(
            "UPDATE rule_sets SET text = ? WHERE name = 'Wordy'", (text.replace("x" * 10_000, "y" * 200_000),)
        )
    page = Browser(app, "ada").get("/rules/Wordy")
    assert page.status_code == 200 and len(page.data) < 50_000
    assert "(190,000 more characters)" in html.unescape(page.text)


def test_one_boards_spaces_are_bounded_like_every_marker(app):  # noqa: F811
    account(app, "ada")
    b = Browser(app, "ada")
    two = {"boards": "2", "board.on_boards[1].locked": ";".join(["1,1,1"] * 20000)}
    for op in ("redraw", "save"):
        r = factory_post(b, op=op, name="Many", **two)
        assert r.status_code == 200, op
        shown = 'data-for="board.on_boards[1].locked">20,000 spaces listed (allowed: at most 1,536'
        assert shown in html.unescape(r.text)


# -- refusals, not 500s
def test_a_dollar_in_a_player_name_draws_the_evolution_chart(app):  # noqa: F811
    account(app, "ada")
    with Registry(app.config["REGISTRY_DB"]) as reg:
        users.add_user(reg, "Eve$^^$")  # a legal name: matplotlib read it as math and failed
    b = Browser(app, "ada")
    r = b.get("/rules/Tic-Tac-Toe/evolution.png?players=Random&players=Eve$^^$")
    assert r.status_code == 200 and r.data[:8] == b"\x89PNG\r\n\x1a\n"


def test_game_strings_from_the_web_name_no_files(app, tmp_path, monkeypatch):  # noqa: F811
    """A Trainer's standard-player form read a .json file of the server's
    working directory through a nested game string and showed its fields."""
    account(app, "ada")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "leak.json").write_text(
        '{"name": "leak", "secret_field": "s3cr3t", "reserves": {"black": 5}}'
    )
    b = Browser(app, "ada")
    for game in (
        "turn_based_simultaneous_game(game=ttt(rules=leak.json))",
        "ttt(rules=leak.json)",
        f"ttt(rules={tmp_path}/leak.json)",
        "efg_game(filename=/etc/passwd)",
    ):
        r = b.post(f"/rules/{quote(game, safe='')}/standard-player", player="Random")
        page = html.unescape(b.get(r.headers["Location"]).text) if r.status_code == 302 else r.text
        assert "secret_field" not in page and "s3cr3t" not in page and "root:" not in page, game
        refused = ("names no catalogue or saved rule set", "names no files", "Not Found")  # a "/" is no route
        assert any(why in page for why in refused), game
        with Registry(app.config["REGISTRY_DB"]) as reg:
            assert reg.one("SELECT 1 FROM rule_sets WHERE name = ?", (game,)) is None


def test_a_standard_player_for_any_game_makes_no_page_fail(app):  # noqa: F811
    """liars_dice describes a seat's view only as its information state (no
    observation string): its game page was a 500. Naming its standard player
    gives a game the browser plays to the end and records."""
    account(app, "ada")
    b = Browser(app, "ada")
    r = b.post("/rules/liars_dice/standard-player", player="Random")
    assert "Random is the standard player of liars_dice" in html.unescape(b.get(r.headers["Location"]).text)
    assert b.get("/?game=liars_dice&opponent=Random").status_code == 200
    url = b.post("/play/new", game="liars_dice", universe="Public", seat0="ada", seat1="Random").headers[
        "Location"
    ]
    page = play_to_end(b, url)
    assert re.search(r"recorded as liars_dice game \d+ and rated", html.unescape(page))

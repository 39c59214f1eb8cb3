"""The home page as a person reads it: the games in named groups, each with a
one-line description from its own data and a link to its rules where the app
has them, and the games in progress by rule set name and whose turn it is."""

from __future__ import annotations

import html
import json
import re

from games.ttt.sources import CATALOGUE, EXAMPLES
from registry import rulesets
from test_webapp import Browser, befriend, db, make_users


def groups(page: str) -> dict[str, list[str]]:
    """The menu's groups by label: the option texts in each."""
    return {
        html.unescape(label): [html.unescape(o) for o in re.findall(r"<option [^>]*>([^<]*)</option>", body)]
        for label, body in re.findall(r'<optgroup label="([^"]*)"[^>]*>(.*?)</optgroup>', page, re.S)
    }


def test_the_games_are_grouped_with_readable_names(app):
    make_users(app)
    with db(app) as reg:
        rulesets.save_rule_set(reg, "ada", json.loads(EXAMPLES.read("Phantom-TTT-Corners")))
        mine = json.loads(CATALOGUE.read("Tic-Tac-Toe")) | {
            "name": "My-TTT",
            "notes": "Mine. More words.",
            "move_limit": 8,
        }
        rulesets.save_rule_set(reg, "cy", mine)
    menu = groups(Browser(app, "cy").get("/").text)
    connection = menu["Connection games with flipping (recorded and rated per game string)"]
    assert connection[:2] == ["Y, triangle of side 5", "Y, triangle of side 7"]
    assert {"Defector Y, side 5", "Double-'0' Y, side 5", "Caeth Y, side 4", "Flipway, 5x5"} <= set(
        connection
    )
    assert "Connect4" in menu["Tic-tac-toe variations, in turns"]
    assert "StagHunt" not in menu["Tic-tac-toe variations, in turns"]
    assert "StagHunt" in menu["Economic dilemmas of the tic-tac-toe variations specification"]
    assert menu["Example rule sets (games/ttt/examples) saved here"] == ["Phantom-TTT-Corners"]
    assert menu["Your rule sets"] == ["My-TTT"]
    assert menu["OpenSpiel games (recorded and rated per game string)"] == [
        "Connect Four (OpenSpiel)",
        "Tic-tac-toe (OpenSpiel)",
    ]
    # every game in exactly one group
    names = [n for g in menu.values() for n in g]
    assert len(names) == len(set(names))
    # another user sees cy's rule set among the others', with its creator
    dee = Browser(app, "dee")
    assert groups(dee.get("/").text)["Rule sets other users saved"] == ["My-TTT"]
    # a saved rule set is described by the first sentence of its own notes
    assert '<p id="game-about">Mine. <a href="/rules/My-TTT"' in Browser(app, "cy").get("/?game=My-TTT").text
    assert '<p id="game-about">Mine. (saved by cy) <a' in dee.get("/?game=My-TTT").text


def test_the_chosen_game_is_described_from_its_own_data(app):
    make_users(app)
    cy = Browser(app, "cy")
    page = html.unescape(cy.get("/?game=Connect4").text)
    about = re.search(r'<p id="game-about">(.*?)</p>', page, re.S).group(1)
    # the catalogue's notes quote the specification's line
    assert about.startswith("Specification: 'Played on 7x1x6 stacks, 21 black and 21 white start in reserve")
    assert 'href="/rules/Connect4" id="game-rules"' in about
    dilemma = html.unescape(cy.get("/?game=StagHunt").text)
    assert re.search(r'<p id="game-about">Stag hunt: Specification:', dilemma)
    # a game string has no rules page in the app (docs/rules is not served): the line alone
    y = html.unescape(cy.get("/?game=defector_y(board_size=5)").text)
    about = re.search(r'<p id="game-about">(.*?)</p>', y, re.S).group(1)
    assert about.startswith("Dale W. Walton's Defector Y") and "<a " not in about
    # the list of every game describes each one and links to choosing it
    listed = re.search(r'<details id="all-games">(.*?)</details>', page, re.S).group(1)
    assert '<a href="/?game=Qubic-4" class="game-choice">Qubic-4</a>: Specification:' in listed
    assert "Flipway, 5x5</a>: Luis Bolaños Mures's Flipway" in listed


def test_games_in_progress_name_the_rule_set_and_whose_turn(app):
    make_users(app)
    cy, dee = befriend(app, "cy", "dee")
    url = cy.post("/play/new", game="Connect4", universe="Public", seat0="cy", seat1="dee").headers[
        "Location"
    ]
    gid = url.rsplit("/", 1)[1]

    def entry(b: Browser) -> str:
        page = b.get("/").text
        line = re.search(rf'<li><a href="/game/{gid}" class="resume">(.*?)</li>', page, re.S).group(1)
        return html.unescape(re.sub(r"<[^>]+>", "", line))

    assert entry(cy) == "Connect4: cy vs dee (your turn)"
    assert entry(dee) == "Connect4: cy vs dee (waiting for cy)"
    assert "ttt(rules=" not in cy.get("/").text
    action = re.findall(r'data-action="(\d+)"', cy.get(url).text)[0]
    cy.post(url + "/move", action=action)
    assert entry(cy) == "Connect4: cy vs dee (waiting for dee)"
    assert entry(dee) == "Connect4: cy vs dee (your turn)"
    # one of the other games by its readable name, not its game string
    y = cy.post("/play/new", game="y_game(board_size=5)", universe="Public", seat0="cy", seat1="Random")
    ygid = y.headers["Location"].rsplit("/", 1)[1]
    line = re.search(rf'<a href="/game/{ygid}" class="resume">([^<]*)</a>', cy.get("/").text).group(1)
    assert line == "Y, triangle of side 5: cy vs Random"

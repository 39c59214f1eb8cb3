"""The home page's games, grouped, each with a one-line description.

Why groups: the menu holds every catalogue rule set, the saved ones and the
other games, some fifty names; a person looking for "a connection game" or
"an economic dilemma" should not have to know the names first.

Where the descriptions come from (nothing here is new about a game): a rule
set's own ``notes`` (the catalogue's quote the tic-tac-toe variations
specification's line; a saved rule set has what its creator wrote), and for the
other games the rules their modules' docstrings and docs/rules/*.md state.
"""

from __future__ import annotations

import functools
import json
import re

from games.ttt import dilemmas
from games.ttt.sources import EXAMPLES
from registry import Registry
from webapp.live import OTHER_GAMES

#: (label, description) of each game of ``webapp.live.OTHER_GAMES``, from the
#: docstrings of games/y_family.py, games/caeth_y.py, games/flipway.py and
#: docs/rules/y.md, defector_y.md, double_o_y.md, caeth_y.md, flipway.md.
_Y_WIN = "one group touching all three sides wins"
OTHER_GAME_INFO = {
    "y_game(board_size=5)": (
        "Y, triangle of side 5",
        f"Titus and Schensted's Y: players drop stones on empty cells; {_Y_WIN}.",
    ),
    "y_game(board_size=7)": (
        "Y, triangle of side 7",
        f"Titus and Schensted's Y: players drop stones on empty cells; {_Y_WIN}.",
    ),
    "y_game(board_shape=hex,board_size=4)": (
        "Y, hexagon 4",
        f"Titus and Schensted's Y on Ludii's limping hexagon; {_Y_WIN}.",
    ),
    "defector_y(board_size=5)": (
        "Defector Y, side 5",
        "Dale W. Walton's Defector Y: before the last placement of a turn the mover converts "
        f"overcrowded opponent stones; {_Y_WIN}.",
    ),
    "double_o_y(board_size=5)": (
        "Double-'0' Y, side 5",
        f"Dale W. Walton's Double-'0' Y: after every placement the mover flips overcrowded stones; {_Y_WIN}.",
    ),
    "caeth_y(board_size=4)": (
        "Caeth Y, side 4",
        "Caeth Y: players capture edges; half or more of a vertex's edges control it; a chain "
        "of vertices touching all three sides wins.",
    ),
    "caeth_y(board_size=4,swap=true)": (
        "Caeth Y, side 4, with swap",
        "Caeth Y in which the second player may use the swap rule.",
    ),
    "flipway(board_size=5)": (
        "Flipway, 5x5",
        "Luis Bolaños Mures's Flipway: drop stones in a 2x2 area or flip a crosscut; a chain "
        "joining your two edges wins.",
    ),
    "connect_four": ("Connect Four (OpenSpiel)", "OpenSpiel's connect_four: four in a row wins."),
    "tic_tac_toe": ("Tic-tac-toe (OpenSpiel)", "OpenSpiel's tic_tac_toe: three in a row wins."),
}

#: The groups in the menu's order: (key, label).
GROUPS = (
    ("connection", "Connection games with flipping (recorded and rated per game string)"),
    ("sequential", "Tic-tac-toe variations, in turns"),
    ("dilemmas", "Economic dilemmas of the tic-tac-toe variations specification"),
    ("examples", "Example rule sets (games/ttt/examples) saved here"),
    ("mine", "Your rule sets"),
    ("saved", "Rule sets other users saved"),
    ("openspiel", "OpenSpiel games (recorded and rated per game string)"),
    ("recorded", "Recorded game strings (recorded and rated)"),
)


def one_line(notes: str) -> str:
    """The first sentence of a rule set's notes: the whole quote of the
    specification's line when the notes open with one ("Specification:
    '...'."), else up to the first full stop."""
    notes = " ".join(notes.split())
    quoted = re.match(r"[^']*'[^']*'\S*", notes)
    if quoted and notes.startswith("Specification"):
        return quoted.group(0)
    end = re.search(r"\.(\s|$)", notes)
    return notes[: end.start() + 1] if end else notes


@functools.lru_cache(maxsize=1)
def _dilemmas() -> dict[str, dilemmas.Dilemma]:
    return {d.name: d for d in dilemmas.available()}


def _dilemma_line(d: dilemmas.Dilemma, notes: str) -> str:
    """A dilemma's line: the economic game it is meant to encode, then its
    change to the dilemma it varies or its notes' first sentence."""
    return f"{dilemmas.ECONOMIC_GAMES[d.encodes]}: {d.change or one_line(notes)}"


@functools.lru_cache(maxsize=1)
def _example_names() -> frozenset[str]:
    return frozenset(EXAMPLES.names())


def _entry(name: str, label: str, about: str, rules: bool) -> dict:
    return {"name": name, "label": label, "about": about, "rules": rules}


def menu(reg: Registry, user: str, recorded: list[str]) -> list[dict]:
    """The home page's groups, each {"key", "label", "games"}; a game is
    {"name" (the value sent), "label", "about", "rules" (whether the app has
    a page of its rules, /rules/NAME)}. Empty groups are left out."""
    games: dict[str, list[dict]] = {key: [] for key, _ in GROUPS}
    rows = reg.query(
        "SELECT r.name, r.text, u.name FROM rule_sets r LEFT JOIN users u ON u.id = r.creator_id "
        "WHERE r.game_string IS NULL ORDER BY r.name"
    )
    for name, text, creator in rows:
        try:
            record = json.loads(text) if text else {}
        except ValueError:
            record = {}
        notes = str(record.get("notes") or "")
        about = one_line(notes) or "A rule set without notes."
        if creator is None and name in _dilemmas():
            key, about = "dilemmas", _dilemma_line(_dilemmas()[name], notes)
        elif creator is None:
            key = "sequential"
        else:
            key = "examples" if name in _example_names() else "mine" if creator == user else "saved"
            about = f"{about} (saved by {creator})" if creator != user else about
        games[key].append(_entry(name, name, about, True))
    for name in OTHER_GAMES:
        label, about = OTHER_GAME_INFO[name]
        key = "openspiel" if "(" not in name else "connection"
        games[key].append(_entry(name, label, about, False))
    for name in recorded:
        games["recorded"].append(_entry(name, name, "A game string recorded by the registry.", False))
    return [{"key": key, "label": label, "games": games[key]} for key, label in GROUPS if games[key]]


def label_of(game: str) -> str:
    """How the page names ``game`` (a rule set's name, a game string's stored
    name, or one of the other games' readable names)."""
    return OTHER_GAME_INFO[game][0] if game in OTHER_GAME_INFO else game


def find(groups: list[dict], name: str) -> dict | None:
    """The entry of ``name`` in ``menu``'s groups (None if it is in none)."""
    return next((g for group in groups for g in group["games"] if g["name"] == name), None)

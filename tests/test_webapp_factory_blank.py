"""Player Factory: every catalogue rule set is built from the blank page.

A person on ``/factory`` changes the selects that reshape the page (each
change redraws it), adds turn checks with Add Check, then sets the other
controls: selects to one of their enabled options, text inputs, checkboxes
and the spaces kept by clicking markers on the board drawing. Whatever the
target needs must be reachable that way; a hidden field the page carries
(``shape_list``, ``extra_colours``, a hash board's fixed size) must already
hold the target's value, since no person sets it. The target is what the
Copy page of the catalogue rule set submits; the rule set saved from the
blank page must equal the catalogue's, both resolved by validation."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from werkzeug.datastructures import MultiDict

from games.ttt import rules as ttt_rules
from test_webapp import Browser, make_users, problems
from test_webapp_factory_copy import submitted
from tiers import sample
from webapp import factory_form

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = sorted(p.stem for p in (ROOT / "games/ttt/catalogue").glob("*.json"))

#: Hidden fields a person fills by clicking a marker, then spaces of the drawing
#: (webapp/static/factory.js); each needs the marker named beside it on the page.
MARKED = {
    r"board\.locked": "locked",
    r"board\.pieces": "piece:",
    r"board\.(sticky|exclusive|entry_locked|exit_locked)": None,
    r"board\.on_boards\[\d\]\.(locked|sticky|exclusive|entry_locked|exit_locked)": None,
    r"phases\[\d\]\.locked": "phase-locked",
    r"phases\[\d\]\.(cloaked|entry_locked|exit_locked)": "phase-",
}


class Controls(HTMLParser):
    """The form ``factory``'s controls: for each enabled select its enabled
    options and whether changing it redraws the page; each input's type."""

    def __init__(self):
        super().__init__()
        self.selects: dict[str, dict] = {}
        self.inputs: dict[str, str] = {}
        self.markers: set[str] = set()
        self.board_choice: list[str] = []
        self._in_form = False
        self._select = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("data-marker"):
            self.markers.add(a["data-marker"])
        if tag == "select" and a.get("id") == "marker-board":
            self._select = {"options": [], "board": True}
            return
        if tag == "form" and a.get("id") == "factory":
            self._in_form = True
        if tag == "option" and self._select is not None:
            if self._select.get("board"):
                self.board_choice.append(a.get("value", ""))
            elif "disabled" not in a:
                self._select["options"].append(a.get("value", ""))
            return
        if not self._in_form or "disabled" in a or not a.get("name"):
            return
        if tag == "input":
            self.inputs[a["name"]] = a.get("type", "text")
        elif tag == "select":
            self._select = {"options": [], "redraw": "data-redraw" in a}
            self.selects[a["name"]] = self._select

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        if tag == "form":
            self._in_form = False


def controls(page: str) -> Controls:
    parser = Controls()
    parser.feed(page)
    return parser


def marked(name: str, c: Controls) -> bool:
    """Whether a person fills hidden field ``name`` by clicking: its marker is on
    the page (and, for one board's spaces, the choice of that board)."""
    for pattern, marker in MARKED.items():
        if re.fullmatch(pattern, name):
            key = marker or name.rsplit(".", 1)[-1]
            board = re.match(r"board\.on_boards\[(\d)\]", name)
            if board and str(int(board.group(1)) + 1) not in c.board_choice:
                return False
            return any(m == key or (key.endswith((":", "-")) and m.startswith(key)) for m in c.markers)
    return False


def build_from_blank(b: Browser, target: dict[str, list[str]]) -> tuple[dict, list[str]]:
    """The form a person submits after setting, from the blank page, every
    control ``target`` names; and what they could not set."""
    form = submitted(b.get("/factory").text)

    def post(**over):
        data = {**form, **{k: [v] for k, v in over.items()}}
        return b.c.post("/factory", data={**data, "csrf": [b.token]}).text

    page = post(op="redraw")
    for _ in range(40):  # a select that reshapes the page, one change (one redraw) at a time
        change = next(
            (
                (name, target[name][0])
                for name, sel in controls(page).selects.items()
                if sel["redraw"]
                and name in target
                and form.get(name) != target[name]
                and target[name][0] in sel["options"]
            ),
            None,
        )
        if change is None:
            break
        page = post(op="redraw", **{change[0]: change[1]})
        form = submitted(page)
    checks = sum(1 for k in target if k.startswith("turn_checks["))
    while sum(1 for k in form if k.startswith("turn_checks[")) < checks:
        form = submitted(post(op="add_check"))
    while sum(1 for k in form if k.startswith("turn_checks[")) > checks:
        form = submitted(post(op="del_check-0"))
    # every control set, twice: a choice may enable others (a power its condition
    # and result), as the page's script does at once
    for _ in range(2):
        page = post(op="redraw")
        form, c = submitted(page), controls(page)
        missing = set_controls(form, c, target)
    for name in list(form):  # an unchecked checkbox is not submitted
        if c.inputs.get(name) == "checkbox" and name not in target:
            del form[name]
    return form, missing


def set_controls(form: dict, c: Controls, target: dict[str, list[str]]) -> list[str]:
    """Set each of ``target``'s fields in ``form`` through the page's controls
    ``c``; what no control can set."""
    missing = []
    for name, values in target.items():
        if name in ("csrf", "op", "name"):
            continue
        if name in c.selects:
            bad = [v for v in values if v not in c.selects[name]["options"]]
            if bad:
                missing.append(f"{name}={bad} (offered: {c.selects[name]['options'][:8]})")
        elif c.inputs.get(name) == "hidden" and form.get(name) != values and not marked(name, c):
            missing.append(f"{name}={values} (a hidden field holding {form.get(name)})")
        elif name not in c.inputs:
            missing.append(f"{name}={values} (no control)")
        form[name] = values
    return missing


def normalised(record: dict) -> dict:
    out = ttt_rules.parse(dict(record), "x").to_json()
    out.pop("name", None)
    out.pop("notes", None)
    return out


@pytest.fixture(scope="module")
def ada(tmp_path_factory):
    """One registry for the module: every Save below is refused, so nothing changes."""
    from webapp import create_app

    app = create_app(tmp_path_factory.mktemp("blank") / "r.sqlite3", secret_key=b"k" * 32, testing=True)
    make_users(app)
    return Browser(app, "ada")


#: BoS (one board's spaces) and RockPaperScissors (shapes picked) in every tier
CASES = list(dict.fromkeys(sample(CATALOGUE, quick=2) + ["BoS", "RockPaperScissors"]))


@pytest.mark.parametrize("name", CASES)
def test_every_catalogue_rule_set_is_built_from_the_blank_page(ada, name):
    target = submitted(ada.get(f"/factory?copy={name}").text)
    form, missing = build_from_blank(ada, target)
    assert missing == [], f"{name}: the blank page cannot set {missing}"
    form["name"] = [f"{name}-blank"]
    catalogue = json.loads((ROOT / f"games/ttt/catalogue/{name}.json").read_text())
    assert normalised(factory_form.form_to_record(MultiDict(form))) == normalised(catalogue)
    # the registry compares canonical forms: Save refuses the page as the catalogue's rule set
    form.update(op=["save"], csrf=[ada.token])
    answer = html.unescape(ada.c.post("/factory", data=form).text)
    assert f"identical to the saved '{name}'" in answer, problems(answer)


def test_a_shape_picked_takes_the_place_and_settings_of_the_one_it_replaces():
    two = {
        "shape_count": "2",
        "shape_list": "circle,triangle",
        "shapes.circle.move": "adjacent",
        "shapes.triangle.power": "can-capture",
        "shapes.triangle.condition": "cover",
        "shapes.triangle.result": "removes",
        "reserves.black.circle": "3",
        "reserves.black.triangle": "2",
    }
    # triangle -> pentagon: the pentagon has the triangle's power and reserve
    record = factory_form.form_to_record({**two, "shape[0]": "circle", "shape[1]": "pentagon"})
    assert list(record["shapes"]) == ["circle", "pentagon"]
    assert (
        record["shapes"]["pentagon"]["condition"] == "cover" and record["reserves"]["black"]["pentagon"] == 2
    )
    # circle -> triangle, a shape in play (its select still says triangle): the two swap
    record = factory_form.form_to_record({**two, "shape[0]": "triangle", "shape[1]": "triangle"})
    assert list(record["shapes"]) == ["triangle", "circle"]
    assert record["shapes"]["circle"]["move"] == "adjacent" and record["reserves"]["black"]["circle"] == 3
    assert record["shapes"]["triangle"]["power"] == "can-capture"


def test_a_saved_rule_set_page_lists_each_boards_own_spaces(ada):
    page = html.unescape(ada.get("/rules/BoS").text)
    assert re.search(r"Board 1 only: locked spaces</dt><dd[^>]*>2,2,1<", page)
    assert re.search(r"Board 2 only: exclusive spaces \(space@seats\)</dt><dd[^>]*>2,2,1@chaos<", page)
    assert "Board 3 only" not in page


def test_two_pieces_in_rounds_take_the_pages_round_plies_and_nothing_else_does(ada):
    """docs/rules/ttt/rounds.md "Two pieces a turn": the page offers both
    readings; the rule set says round_plies only where two pieces meet rounds."""
    page = ada.get("/factory").text
    assert re.search(r'<select name="round_plies"[^>]*>.*value="round-by-round"', page, re.S)
    form = {"name": "x", "reserves.black": "3", "reserves.white": "3"}
    form.update(pieces_per_turn="2", round_plies="round-by-round", phases="1")

    def parsed(**fields):
        return ttt_rules.parse(factory_form.form_to_record({**form, **fields}), "x").record

    assert parsed(**{"phases[0].order": "single"})["round_plies"] == "round-by-round"
    assert "round_plies" not in parsed(**{"phases[0].order": "sequential"})
    assert "round_plies" not in parsed(**{"phases[0].order": "single", "pieces_per_turn": "1"})

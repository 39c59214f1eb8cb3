"""Player Factory: Copy keeps everything a saved rule set means (``extends``
resolved, per-board spaces, shaped starting pieces), and the controls for a
shape's "cannot move backwards" and the goal-reached stalemate check reach
the record.

The strongest check of a Copy: the copied page, submitted unchanged under a
new name, is refused as a duplicate of the original (the registry compares
canonical forms), so nothing was dropped or changed on the way."""

from __future__ import annotations

import html
from html.parser import HTMLParser
from pathlib import Path

import pytest

from registry import rulesets
from test_webapp import Browser, db, factory_form, make_users, problems
from tiers import sample

ROOT = Path(__file__).resolve().parents[1]


class FormFields(HTMLParser):
    """What a browser would submit from the page's form ``factory``: enabled
    inputs (checkboxes only when checked) and each select's selected option."""

    def __init__(self):
        super().__init__()
        self.fields: list[tuple[str, str]] = []
        self._in_form = False
        self._select = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("id") == "factory":
            self._in_form = True
        if not self._in_form or "disabled" in a:
            return
        if tag == "input" and a.get("name"):
            if a.get("type") == "checkbox" and "checked" not in a:
                return
            self.fields.append((a["name"], a.get("value", "")))
        elif tag == "select" and a.get("name"):
            self._select = [a["name"], None, None]  # name, first option, selected
        elif tag == "option" and self._select is not None:
            value = a.get("value", "")
            if self._select[1] is None:
                self._select[1] = value
            if "selected" in a:
                self._select[2] = value

    def handle_endtag(self, tag):
        if tag == "select" and self._select is not None:
            name, first, chosen = self._select
            self.fields.append((name, chosen if chosen is not None else (first or "")))
            self._select = None
        if tag == "form":
            self._in_form = False


def submitted(page: str, **over) -> dict:
    parser = FormFields()
    parser.feed(page)
    form: dict = {}
    for name, value in parser.fields:
        form.setdefault(name, []).append(value)
    for name, value in over.items():
        form[name] = [value]
    return form


@pytest.fixture
def app(tmp_path):
    from webapp import create_app

    return create_app(tmp_path / "r.sqlite3", secret_key=b"k" * 32, testing=True)


CATALOGUE = sorted(p.stem for p in (ROOT / "games/ttt/catalogue").glob("*.json"))
EXAMPLES = sorted(p.stem for p in (ROOT / "games/ttt/examples").glob("*.json"))


@pytest.mark.parametrize("name", sample(CATALOGUE + EXAMPLES, quick=10))
def test_a_copy_saved_unchanged_is_the_same_rule_set(app, name):
    """Every catalogue and example rule set: a field with no Factory control
    (the review found KBeauty9's ``cloaking_hides_turns``) would make the
    unchanged copy a different rule set, which Save would then accept."""
    make_users(app)
    ada = Browser(app, "ada")
    if name in EXAMPLES:
        from test_webapp import save_example

        save_example(app, name)
    page = ada.get(f"/factory?copy={name}").text
    form = submitted(page, op="save")
    assert form["name"] == [f"{name}-copy"]
    answer = html.unescape(ada.c.post("/factory", data=form).text)
    assert f"identical to the saved '{name}'" in answer, problems(answer)


def test_cannot_move_backwards_and_the_goal_check_reach_the_record(app):
    make_users(app)
    cy = Browser(app, "cy")
    page = cy.get("/factory").text
    assert 'value="goal-reached-stalemate"' in page and "Stalemate if goal is reached" in page
    assert 'id="shapes-circle-cannot_move_backwards"' in page
    two = {
        "shape_count": "2",
        "shapes.circle.move": "adjacent",
        "shapes.circle.cannot_move_backwards": "1",
        "shapes.triangle.move": "adjacent",
        "shapes.triangle.power": "none",
        "reserves.black.circle": "3",
        "reserves.black.triangle": "3",
        "reserves.white.circle": "3",
        "reserves.white.triangle": "3",
        "move_limit": "40",
        "turn_checks[1]": "goal-reached-stalemate",
    }
    form = factory_form(name="NoBack", **two)
    del form["reserves.black"], form["reserves.white"]
    answer = cy.post("/factory", **form)
    assert answer.status_code == 302, problems(html.unescape(answer.text))
    with db(app) as reg:
        saved = rulesets.rule_set_json(reg, "NoBack")
    assert saved["shapes"]["circle"]["cannot_move_backwards"] is True
    assert not saved["shapes"]["triangle"].get("cannot_move_backwards", False)
    assert saved["turn_checks"] == ["first-3-wins", "goal-reached-stalemate"]
    shown = cy.get("/rules/NoBack").text
    assert 'id="no-backwards-circle"' in shown and 'id="no-backwards-triangle"' not in shown
    copy = cy.get("/factory?copy=NoBack").text
    assert 'id="shapes-circle-cannot_move_backwards" checked' in copy
    assert 'id="shapes-triangle-cannot_move_backwards" checked' not in copy


def test_no_shape_to_replace_one_that_cannot_move_backwards_is_shown_next_to_shapes(app):
    """Validation's rule (the tic-tac-toe variations specification: a piece reaching its goal must be replaced
    by a shape that can move backwards) reaches the page."""
    make_users(app)
    cy = Browser(app, "cy")
    page = html.unescape(
        cy.post(
            "/factory",
            **factory_form(
                name="Stuck",
                **{
                    "shapes.circle.move": "adjacent",
                    "move_limit": "40",
                    "shapes.circle.cannot_move_backwards": "1",
                },
            ),
        ).text
    )
    assert any("no shape can" in m for m in problems(page).get("shapes", [])), problems(page)


def test_the_line_moves_select_keeps_nine_holes_passing_over_pieces(app):
    """9-Holes says ``"line_moves": "over-pieces"`` (docs/rules/ttt/shapes.md,
    "Pieces in the way"): its Copy shows it selected and saves as 9-Holes
    itself; the same copy with pieces blocking is a new rule set."""
    make_users(app)
    ada = Browser(app, "ada")
    page = ada.get("/factory?copy=9-Holes").text
    assert '<option value="over-pieces" selected>Line moves pass over pieces</option>' in page
    answer = html.unescape(ada.c.post("/factory", data=submitted(page, op="save")).text)
    assert "identical to the saved '9-Holes'" in answer, problems(answer)
    blocked = ada.c.post("/factory", data=submitted(page, op="save", line_moves="blocked-by-pieces"))
    assert blocked.status_code == 302, problems(html.unescape(blocked.text))
    with db(app) as reg:
        assert "line_moves" not in rulesets.rule_set_json(reg, "9-Holes-copy")


def test_the_deck_controls_and_the_dealt_common_marker_reach_the_record(app):
    """Dealt-Cover-Duel's Copy shows its deck (each shape's count, the hand)
    and saves as the duel itself; the same page with a second space marked
    "dealt common" and a larger deck saves those (docs/rules/ttt/deal.md)."""
    from test_webapp import save_example

    make_users(app)
    save_example(app, "Dealt-Cover-Duel")
    ada = Browser(app, "ada")
    page = ada.get("/factory?copy=Dealt-Cover-Duel").text
    assert 'id="marker-dealt"' in page and 'id="deck-hand" value="1"' in page
    assert 'id="deck-cross" value="1"' in page
    answer = html.unescape(ada.c.post("/factory", data=submitted(page, op="save")).text)
    assert "identical to the saved 'Dealt-Cover-Duel'" in answer, problems(answer)
    form = submitted(
        page, op="save", **{"board.size.x": "2", "board.dealt": "2,1,1", "deck.x": "2", "deck.per_turn": "1"}
    )
    saved = ada.c.post("/factory", data=form)
    assert saved.status_code == 302, problems(html.unescape(saved.text))
    with db(app) as reg:
        record = rulesets.rule_set_json(reg, "Dealt-Cover-Duel-copy")
    assert record["board"]["dealt"] == [[2, 1, 1]]
    assert record["deck"] == {"pieces": {"triangle": 1, "x": 2, "cross": 1}, "hand": 1, "per_turn": 1}

"""The Player Factory's words (webapp/factory_form.py's option labels) and its
warnings for a win or loss that cannot happen on the board
(webapp/factory_warnings.py), through the functions the pages use."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.ttt import resolve
from games.ttt import rules as ttt_rules
from webapp import factory_form as ff
from webapp import factory_warnings

EXAMPLES = Path(__file__).resolve().parents[1] / "games" / "ttt" / "examples"
RAW = ("most-2-in-a-row-wins", "least-xs-loses", "any-piece-wins", "knight-2x1x0", "adjacent-diagonal")


@pytest.mark.parametrize(
    "control,value,words",
    [
        ("stalemate", "most-2-in-a-row-wins", "Most 2-same-color-in-a-row wins"),
        ("stalemate", "least-in-a-row-wins", "Least same-color-in-a-row wins"),
        ("stalemate", "least-xs-loses", "Least X's loses"),
        ("stalemate", "more-pieces-than-chaos-wins-fewer-loses", "More pieces than Chaos wins, fewer loses"),
        ("turn_checks[0]", "any-piece-wins", "Any piece wins"),
        ("shapes.circle.move", "knight-2x1x0", "Moves knight 2x1x0"),
        ("shapes.circle.move", "orthogonal", "Moves orthogonal"),
        ("board.size.x", 4, "4"),
        ("phases[0].fold", None, "none"),
    ],
)
def test_a_schema_value_without_the_specifications_words_is_still_words(control, value, words):
    assert ff.option_label(control, value) == words


def test_no_option_of_the_factory_is_shown_as_a_raw_schema_value():
    c = ff.choices()
    controls = {
        "players": "players",
        "colours": "colours",
        "cloaking": "cloaking",
        "board_kinds": "board.kind",
        "turn_checks": "turn_checks[0]",
        "stalemates": "stalemate",
        "moves": "shapes.circle.move",
        "line_moves": "line_moves",
        "round_plies": "round_plies",
        "powers": "shapes.circle.power",
        "conditions": "shapes.circle.condition",
        "results": "shapes.circle.result",
        "orders": "phases[0].order",
        "movement": "phases[0].movement",
        "folds": "phases[0].fold",
    }
    shown = {
        (key, value): ff.option_label(control, value) for key, control in controls.items() for value in c[key]
    }
    raw = {k: v for k, v in shown.items() if v == str(k[1]) and "-" in v}
    assert raw == {}
    assert all(v not in RAW for v in shown.values())


def _record(kind, size, checks, stalemate="draws"):
    return {"board": {"kind": kind, "size": size}, "turn_checks": checks, "stalemate": stalemate}


def test_a_line_longer_than_the_board_is_named_with_the_reason():
    assert factory_warnings.impossible_rules(_record("squares", [4, 4, 1], ["first-5-wins"])) == [
        (
            "turn_checks[0]",
            "first-5-wins",
            "no line of 5 fits on a 4x4x1 board (its longest line has 4 spaces)",
        )
    ]
    found = factory_warnings.impossible_rules(
        _record("stacks", [4, 1, 3], ["first-3-wins", "all-lose-if-any-5"], "most-6-in-a-row-loses")
    )
    assert [f for f, _, _ in found] == ["turn_checks[1]", "stalemate"]
    # a line along the board's longest side fits; the toroid and Tetrakis squares are not judged
    assert factory_warnings.impossible_rules(_record("squares", [5, 2, 1], ["first-5-wins"])) == []
    assert factory_warnings.impossible_rules(_record("toroid", [4, 4, 1], ["first-5-wins"])) == []
    assert factory_warnings.impossible_rules(_record("tetrakis", [4, 4, 1], ["first-5-wins"])) == []
    assert factory_warnings.impossible_rules(_record("hexagons", [4, 3, 1], ["first-5-wins"]))


def test_no_catalogue_or_example_rule_set_is_warned_about():
    names = list(ttt_rules.CATALOGUE.names()) + [str(p) for p in sorted(EXAMPLES.glob("*.json"))]
    warned = {n: w for n in names if (w := factory_warnings.impossible_rules(resolve(n).record))}
    assert warned == {}


def _few_pieces(name: str, reserves: int, **more) -> dict:
    """A 4x4 board whose only win is 4 in a row, each side with ``reserves`` pieces."""
    record = {
        "name": name,
        "board": {"kind": "squares", "size": [4, 4, 1]},
        "reserves": {"black": reserves, "white": reserves},
        "turn_checks": ["first-4-wins"],
    }
    record.update(more)
    return record


def test_a_line_longer_than_a_colours_pieces_is_warned_only_where_no_piece_can_be_had(app):
    """Three pieces a side cannot make 4 in a row while pieces stay put: the
    rule set's page and the Factory's copy of it say so. Four pieces can; a
    piece that moves, or a pre-placed piece of the colour, makes it possible;
    a capture, reincarnation or a deck is not judged (pieces may come back)."""
    import html

    from registry import rulesets
    from test_webapp import Browser, db, make_users

    make_users(app)
    records = [
        _few_pieces("Three-Stones", 3),
        _few_pieces("Four-Stones", 4),
        _few_pieces("Three-Walkers", 3, shapes={"circle": {"move": "adjacent"}}, move_limit=60),
        _few_pieces(
            "Three-And-One-Placed",
            3,
            board={"kind": "squares", "size": [4, 4, 1], "pieces": [{"at": [4, 4, 1], "colour": "black"}]},
        ),
    ]
    with db(app) as reg:
        for record in records:
            rulesets.save_rule_set(reg, "ada", record)
    ada = Browser(app, "ada")
    why = (
        "Turn check 1 (First 4-same-color-in-a-row wins) cannot happen: a line of 4 needs 4 pieces of "
        "one colour, and no colour ever has more than 3 on the board"
    )
    assert why in html.unescape(ada.get("/rules/Three-Stones").text)
    assert why in html.unescape(ada.get("/factory?copy=Three-Stones").text)
    for name in ("Four-Stones", "Three-Walkers", "Three-And-One-Placed"):
        assert "cannot happen" not in html.unescape(ada.get(f"/rules/{name}").text), name
    # pieces that may come back or be dealt: not judged, whatever the reserves
    for example in ("Adjacent-Capture-Stones", "Triple-Reincarnation", "Dealt-Cover-Duel"):
        assert (
            factory_warnings.most_pieces_of_a_colour(resolve(str(EXAMPLES / f"{example}.json")).record)
            is None
        )
    assert factory_warnings.most_pieces_of_a_colour(resolve("Tic-Tac-Toe").record) == 5

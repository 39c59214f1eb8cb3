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

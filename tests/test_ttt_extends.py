"""``extends`` (games/ttt/extends.py): merge semantics, refusals, and that the
resolved rule set is what is validated, fingerprinted and played."""

import json

import pytest

from games.ttt import rules, sources
from games.ttt.extends import merge, resolve_extends
from games.ttt.rules import parse, parse_text
from games.ttt.schema import RuleSetError
from games.ttt.sources import DirectorySource


def test_objects_merge_lists_replace_null_removes():
    parent = {
        "name": "P",
        "notes": "p",
        "reserves": {"black": {"circle": 2, "x": 1}, "white": 3},
        "board": {"kind": "stacks", "pieces": [{"at": [1, 1, 1], "colour": "black"}]},
        "phases": [{"pass": True}, {"pass": False}],
    }
    child = {
        "reserves": {"black": {"x": None, "circle": 4}},
        "board": {"pieces": None},
        "phases": [{"order": "single"}],
        "agree_draw": True,
    }
    got = merge(parent, child)
    assert got["reserves"] == {"black": {"circle": 4}, "white": 3}
    assert got["board"] == {"kind": "stacks"}
    assert got["phases"] == [{"order": "single"}]
    assert got["agree_draw"] is True
    assert parent["reserves"]["black"] == {"circle": 2, "x": 1}  # inputs unchanged


def _lookup(texts):
    return lambda name: (json.dumps(texts[name]), f"<{name}>") if name in texts else None


def test_name_and_notes_are_not_inherited_and_chains_resolve():
    texts = {
        "A": {"name": "A", "notes": "a", "reserves": {"black": 5, "white": 4}},
        "B": {"name": "B", "extends": "A", "agree_draw": True},
    }
    got = resolve_extends({"name": "C", "extends": "B", "stalemate": "all-win"}, "c.json", _lookup(texts))
    assert got == {
        "name": "C",
        "reserves": {"black": 5, "white": 4},
        "agree_draw": True,
        "stalemate": "all-win",
    }


@pytest.mark.parametrize(
    "texts, child, words",
    [
        (
            {"A": {"name": "A", "extends": "B"}, "B": {"name": "B", "extends": "A"}},
            {"name": "C", "extends": "A"},
            "cycle C -> A -> B -> A",
        ),
        ({}, {"name": "C", "extends": "C"}, "cycle C -> C"),
        ({}, {"name": "C", "extends": "Missing"}, "'Missing' is not a catalogue rule set"),
        ({}, {"name": "C", "extends": 3}, "3 is not a rule-set name"),
        ({"A": {"name": "Other"}}, {"name": "C", "extends": "A"}, "holds 'Other', not 'A'"),
    ],
)
def test_refusals_name_the_file(texts, child, words):
    with pytest.raises(RuleSetError) as e:
        resolve_extends(child, "child.json", _lookup(texts))
    assert "child.json" in str(e.value) and words in str(e.value)


def test_resolved_rule_set_equals_the_written_out_one():
    """The canonical form and fingerprint are the resolved rules': a child that
    only adds the draw option equals the parent written out with it."""
    child = parse({"name": "TTT-Draw", "extends": "Tic-Tac-Toe", "agree_draw": True})
    full = json.loads((sources.CATALOGUE_DIR / "Tic-Tac-Toe.json").read_text())
    full.update(name="Other", agree_draw=True)
    assert child == parse(full) and child.fingerprint == parse(full).fingerprint
    assert "extends" not in child.canonical
    same = parse({"name": "Copy", "extends": "Tic-Tac-Toe"})
    assert same == parse_text((sources.CATALOGUE_DIR / "Tic-Tac-Toe.json").read_text())


def test_a_child_in_a_directory_rereads_an_edited_parent(tmp_path, monkeypatch):
    """Rule sets that extend are not cached by their own text: editing the
    parent's file changes the child."""
    src = DirectorySource(tmp_path)
    (tmp_path / "P.json").write_text(json.dumps({"name": "P", "reserves": {"black": 5, "white": 4}}))
    (tmp_path / "K.json").write_text(json.dumps({"name": "K", "extends": "P", "agree_draw": True}))
    monkeypatch.setattr(sources, "SOURCES", [src])
    assert rules.load_from(src, "K").record["reserves"] == {"black": {"circle": 5}, "white": {"circle": 4}}
    (tmp_path / "P.json").write_text(json.dumps({"name": "P", "reserves": {"black": 3, "white": 3}}))
    assert rules.load_from(src, "K").record["reserves"] == {"black": {"circle": 3}, "white": {"circle": 3}}


def test_validation_problems_of_the_merge_name_the_child():
    with pytest.raises(RuleSetError) as e:
        parse({"name": "Bad", "extends": "Tic-Tac-Toe", "reserves": {"black": {"circle": 99}}}, "bad.json")
    assert "bad.json" in str(e.value) and "reserves.black.circle" in str(e.value)

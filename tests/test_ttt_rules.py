"""Rule sets as data: the catalogue loads, validation reports every problem
with its field and the allowed values, the canonical form ignores names,
names survive a game string, the cache follows a file's content, and
``extends`` merges a child over its parent before validation."""

import json

import pytest

from games.ttt import rules, sources
from games.ttt.extends import merge, resolve_extends
from games.ttt.rules import parse, parse_text
from games.ttt.schema import RuleSetError
from games.ttt.sources import DirectorySource
from ttt_checks import problems

SPECIFICATION_GAMES = [
    "Tic-Tac-Toe",
    "3on15line",
    "Treblecross15",
    "3P-Misere-Notakto",
    "3P-Notakto",
    "4on7sq",
    "5on15sq",
    "Connect6-19x19",
    "Tapatan",
    "Achi",
    "9-Holes",
    "Qubic-4",
    "Connect4",
    "3P-MostWins-3x4",
    "3P-LeastLoses-3x4",
    "Wild-TTT-6sq3143",
]

BASE = {"name": "T", "reserves": {"black": 5, "white": 4}}


def test_catalogue_holds_every_specification_game_and_nothing_else():
    """The 16 sequential games and the 26 dilemmas (games/ttt/dilemmas.py), and the
    catalogue's variants of dilemmas."""
    from games.ttt.dilemmas import DILEMMAS, VARIANTS

    cat = rules.catalogue()
    dilemmas = {d.name for d in DILEMMAS + VARIANTS}
    assert set(SPECIFICATION_GAMES) <= set(cat) and set(cat) - set(SPECIFICATION_GAMES) <= dilemmas
    assert {
        "4P-TrendSetter",
        "4P-AnyPieceLoses",
        "3Blotto13",
        "KBeauty9",
        "BoS",
        "3P-BoS",
        "Shopping9",
    } <= set(cat)
    for path in rules.CATALOGUE_DIR.glob("*.json"):
        assert json.loads(path.read_text())["name"] == path.stem


def test_catalogue_games_are_pairwise_different():
    cat = list(rules.catalogue().values())
    assert len({rs.canonical for rs in cat}) == len(cat)


@pytest.mark.parametrize("name", ["a b", "x*y", "f(x)", "g)", "tab\tname", ""])
def test_names_reject_whitespace_star_and_parentheses(name):
    msgs = problems(name, BASE)
    assert len(msgs) == 1 and msgs[0].startswith("name:")


def test_every_problem_is_reported_with_field_and_allowed_values():
    msgs = problems(
        "T",
        BASE,
        board={"kind": "octagons", "size": [3, 3, 1]},
        players="5",
        colours="rainbow",
        pieces_per_turn=3,
        turn_checks=["first-7-wins"],
        stalemate="coin-flip",
        extra=1,
    )
    fields = [m.split(":")[0] for m in msgs]
    assert fields == [
        "extra",
        "board.kind",
        "players",
        "colours",
        "pieces_per_turn",
        "turn_checks[0]",
        "stalemate",
    ]
    assert "allowed: hash, squares, vertices, stacks, toroid, hexagons, tetrakis" in msgs[1]
    assert "allowed: 2, 3, 4, partners, 2-vs-chaos, 3-vs-chaos" in msgs[2]
    assert "first-6-wins" in msgs[5] and "all-lose-if-any-3" in msgs[5]
    assert "most-pieces-wins" in msgs[6]


def test_board_dimensions():
    assert problems("T", BASE, board={"kind": "squares", "size": [20, 1, 1]})[0].startswith("board.size.x")
    assert "513 spaces" in problems("T", BASE, board={"kind": "squares", "size": [19, 9, 3]})[0]
    assert "allowed: [3, 3, 1]" in problems("T", BASE, board={"kind": "hash", "size": [4, 4, 1]})[0]
    assert problems("T", BASE, board={"kind": "stacks", "size": [7, 6, 1]})[0].startswith("board.size.z")
    rules.parse(dict(BASE, board={"kind": "squares", "size": [8, 8, 8]}))  # 512 is allowed


def test_pieces_and_locks_are_checked_against_the_board():
    msgs = problems(
        "T",
        BASE,
        board={
            "kind": "squares",
            "size": [3, 3, 1],
            "locked": [[4, 1, 1], [1, 1, 1], [1, 1, 1]],
            "pieces": [
                {"at": [1, 1, 1], "colour": "white"},
                {"at": [2, 2, 1], "colour": "green"},
                {"at": [3, 3, 1], "colour": "pink"},
            ],
        },
    )  # pink: communal
    assert any(m.startswith("board.locked[0]") and "1..3" in m for m in msgs)
    assert any(m.startswith("board.locked[2]") and "twice" in m for m in msgs)
    assert any(m.startswith("board.pieces[0].at") and "locked" in m for m in msgs)
    assert any(
        m.startswith("board.pieces[1].colour") and "allowed: black, white, pink, yellow" in m for m in msgs
    )
    assert not any(m.startswith("board.pieces[2]") for m in msgs)


def test_floating_piece_on_stacks_is_refused():
    msgs = problems(
        "T",
        BASE,
        board={"kind": "stacks", "size": [3, 1, 3], "pieces": [{"at": [1, 1, 2], "colour": "black"}]},
    )
    assert any("floats" in m for m in msgs)


def test_start_position_must_not_satisfy_a_check():
    pieces = [{"at": [x, 1, 1], "colour": "black"} for x in (1, 2, 3)]
    msgs = problems("T", BASE, board={"kind": "squares", "size": [3, 3, 1], "pieces": pieces})
    assert msgs == ["board.pieces: the starting position already satisfies turn check 'first-3-wins'"]


def test_reserve_colours_follow_players_and_colour_mode():
    assert problems("T", BASE, reserves={"black": 5, "pink": 4})[0].startswith("reserves.pink")
    assert problems("T", BASE, colours="shared", reserves={"black": 5, "white": 4})[0].startswith(
        "reserves.white"
    )
    assert problems("T", BASE, colours="partners-share")[0].startswith("colours")
    assert "0..9" in problems("T", BASE, reserves={"black": 10})[0]
    rules.parse(dict(BASE, players="2-vs-chaos", reserves={"black": 3, "white": 3, "pink": 3}))


def test_values_not_played_yet_are_named_as_not_supported_yet():
    msgs = problems(
        "T", BASE, cloaking="invisibility", boards=4, shapes={"pentagon": {"move": "orth-by-stack"}}
    )
    assert any(m.startswith("cloaking") for m in msgs)
    assert any(m.startswith("boards") for m in msgs)
    # "orth-by-stack" is played, on stacks boards only
    assert any(m.startswith("shapes.pentagon.move") and "needs a stacks board" in m for m in msgs)


def test_movement_needs_a_move_limit():
    msgs = problems("T", BASE, shapes={"circle": {"move": "adjacent"}})
    assert msgs[0].startswith("move_limit")
    rules.parse(dict(BASE, shapes={"circle": {"move": "adjacent"}}, move_limit=50))


def test_canonical_form_ignores_name_and_notes_and_fills_defaults():
    a = rules.parse({"name": "A", "reserves": {"black": 5, "white": 4}})
    b = rules.parse(
        {
            "name": "B",
            "notes": "same game",
            "board": {"kind": "hash", "size": [3, 3, 1]},
            "players": "2",
            "colours": "assigned",
            "turn_checks": ["first-3-wins"],
            "reserves": {
                "white": {"circle": 4},
                "black": 5,
            },
            "stalemate": "draws",
        }
    )
    assert a == b and hash(a) == hash(b) and a.fingerprint == b.fingerprint
    assert a == rules.catalogue()["Tic-Tac-Toe"]
    c = rules.parse({"name": "A", "reserves": {"black": 5, "white": 3}})
    assert a != c
    d = rules.parse({"name": "A", "reserves": {"black": 5, "white": 4}, "seconds_per_turn": 60})
    assert a != d


def test_locked_and_piece_order_do_not_matter():
    one = rules.parse(
        dict(BASE, board={"kind": "squares", "size": [3, 3, 1], "locked": [[1, 1, 1], [3, 3, 1]]})
    )
    two = rules.parse(
        dict(BASE, board={"kind": "squares", "size": [3, 3, 1], "locked": [[3, 3, 1], [1, 1, 1]]})
    )
    assert one == two


def test_round_trip_through_json(tmp_path):
    for rs in rules.catalogue().values():
        path = tmp_path / "x.json"
        path.write_text(json.dumps(rs.to_json()))
        again = rules.load(path)
        assert again == rs and again.name == rs.name


def test_every_example_reads_back_from_its_validated_form(tmp_path):
    """What validation writes (zero reserve counts dropped, so all-zero
    reserves become {}) must validate again to the same rule set; the
    registry stores rule sets in that form (RPS-Shared-Lines could not be
    reloaded once saved)."""
    examples = sorted((rules.CATALOGUE_DIR.parent / "examples").glob("*.json"))
    assert any(p.name == "RPS-Shared-Lines.json" for p in examples)
    for source in examples:
        rs = rules.load(source)
        path = tmp_path / "x.json"
        path.write_text(json.dumps(rs.to_json()))
        assert rules.load(path) == rs, source.name


def test_all_zero_reserves_still_refused_without_pieces():
    with pytest.raises(rules.RuleSetError, match="every count is 0"):
        rules.parse(dict(BASE, reserves={}))
    with pytest.raises(rules.RuleSetError, match="every count is 0"):
        rules.parse(dict(BASE, reserves={"black": 0, "white": 0}))


def test_resolve_by_name_and_path(tmp_path):
    assert rules.resolve("Connect4").name == "Connect4"
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(dict(BASE, name="Mine")))
    assert rules.resolve(str(path)).name == "Mine"
    with pytest.raises(ValueError, match="Tic-Tac-Toe"):
        rules.resolve("Nope")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(rules.RuleSetError, match="not valid JSON"):
        rules.resolve(str(bad))


def test_outcome_profile():
    cat = rules.catalogue()
    assert rules.outcome_profile(cat["Connect4"])["zero_sum"]
    assert not rules.outcome_profile(cat["3P-Notakto"])["zero_sum"]
    chaos = rules.parse(dict(BASE, players="2-vs-chaos", reserves={"black": 3, "white": 3, "pink": 3}))
    assert not rules.outcome_profile(chaos)["zero_sum"] and rules.outcome_profile(chaos)["chance"]
    everyone = rules.parse(dict(BASE, stalemate="all-win"))
    assert not rules.outcome_profile(everyone)["zero_sum"]
    partners = rules.parse(
        dict(BASE, players="partners", colours="partners-share", reserves={"black": 5, "white": 4})
    )
    assert rules.outcome_profile(partners)["zero_sum"]


def test_command_line_validator(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"name": "bad one", "reserves": {"black": 99}}))
    assert rules.main([str(bad)]) == 1
    err = capsys.readouterr().err
    assert "name:" in err and "reserves.black: 99" in err
    twin = tmp_path / "twin.json"
    twin.write_text(json.dumps({"name": "Twin", "reserves": {"black": 5, "white": 4}}))
    assert rules.main(["Tic-Tac-Toe", str(twin)]) == 0
    assert "identical to Tic-Tac-Toe except for the name" in capsys.readouterr().out


# -- names that survive a game string, hostile nesting --------------------------


@pytest.mark.parametrize("name", ["a,b", "a=b", "x/y", "12", "-3", "1.5", "5-", "+", "True", "false"])
def test_names_the_game_string_parser_would_split_or_retype_are_refused(name):
    msgs = problems(name, BASE)
    assert len(msgs) == 1 and msgs[0].startswith("name:")


def test_every_valid_name_comes_back_unchanged_from_the_game_string_parser():
    pyspiel = pytest.importorskip("pyspiel")
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=300, deadline=None)
    @given(st.text(st.characters(codec="ascii", categories=["L", "N", "P", "S"]), min_size=1, max_size=12))
    def check(name):
        if rules.name_problem(name) is None:
            params = pyspiel.game_parameters_from_string(f"ttt(rules={name})")
            assert params == {"name": "ttt", "rules": name}

    check()


def test_a_deeply_nested_file_is_a_clear_error_not_a_recursion_error(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100000 + "]" * 100000)
    with pytest.raises(rules.RuleSetError, match="nested more than 32 levels"):
        rules.load(deep)
    nested = {"name": "N", "reserves": {"black": 1}}
    for _ in range(5000):
        nested = {"board": nested}
    with pytest.raises(rules.RuleSetError, match="nested more than 32 levels"):
        rules.parse(nested)


def test_alquerque_steps_need_a_flat_board():
    msgs = problems(
        "T",
        BASE,
        board={"kind": "stacks", "size": [3, 1, 3]},
        shapes={"circle": {"move": "adjacent-alquerque"}},
        move_limit=20,
    )
    assert msgs[0].startswith("shapes.circle.move") and "size z = 1" in msgs[0]
    rules.parse(dict(BASE, shapes={"circle": {"move": "adjacent-alquerque"}}, move_limit=20))


# -- the cache follows the file's content; the fingerprint ------------------------


def test_an_edited_file_is_reloaded(tmp_path):
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(dict(BASE, name="Mine")))
    before = rules.resolve(str(path))
    # same length, same modification time: only the content says it changed
    stat = path.stat()
    path.write_text(json.dumps(dict(BASE, name="Mine", reserves={"black": 5, "white": 3})))
    import os

    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    after = rules.resolve(str(path))
    assert before.record["reserves"] == {"black": {"circle": 5}, "white": {"circle": 4}}
    assert after.record["reserves"] == {"black": {"circle": 5}, "white": {"circle": 3}}
    assert rules.fingerprint(str(path)) == after.fingerprint != before.fingerprint


def test_an_edited_file_changes_the_loaded_game(tmp_path):
    pyspiel = pytest.importorskip("pyspiel")
    import games  # noqa: F401  (registers ttt)

    path = tmp_path / "grow.json"
    path.write_text(json.dumps(dict(BASE, name="Grow")))
    assert pyspiel.load_game(f"ttt(rules={path})").num_distinct_actions() == 9
    path.write_text(json.dumps(dict(BASE, name="Grow", board={"kind": "squares", "size": [4, 4, 1]})))
    assert pyspiel.load_game(f"ttt(rules={path})").num_distinct_actions() == 16


def test_fingerprint_of_a_name_a_path_and_a_rule_set_agree(tmp_path):
    cat = rules.catalogue()
    path = tmp_path / "ttt.json"
    path.write_text(json.dumps(dict(cat["Tic-Tac-Toe"].to_json(), name="Other")))
    fp = rules.fingerprint("Tic-Tac-Toe")
    assert fp == rules.fingerprint(str(path)) == rules.fingerprint(cat["Tic-Tac-Toe"])
    assert len(fp) == 16 and fp != rules.fingerprint("Connect4")
    with pytest.raises(ValueError, match="catalogue name"):
        rules.fingerprint("No-Such-Game")


def test_a_directory_source_lists_and_loads_by_file_name(tmp_path):
    (tmp_path / "One.json").write_text(json.dumps(dict(BASE, name="One")))
    (tmp_path / "Two.json").write_text(json.dumps(dict(BASE, name="Three")))
    source = rules.DirectorySource(tmp_path)
    assert source.names() == ["One", "Two"]
    assert "One" in source and "Nope" not in source and "a,b" not in source
    assert rules.load_from(source, "One").name == "One"
    with pytest.raises(rules.RuleSetError, match="stored under the name 'Two'"):
        rules.load_from(source, "Two")
    with pytest.raises(KeyError):
        rules.load_from(source, "Nope")


def test_merged_combinations_are_defined_and_parse():
    """Every combination of several boards, the dilemmas' outcomes,
    simultaneous rounds, cloaking and overachievers is defined (played in
    test_ttt_several_boards.py, test_ttt_rounds.py and
    test_ttt_cloaking_rounds.py), so these parse."""
    four = {"black": 3, "white": 3, "pink": 3, "yellow": 3}
    rules.parse(dict(BASE, boards=2, stalemate="most-area-wins"))
    rules.parse(dict(BASE, boards=2, phases=[{"order": "simultaneous"}]))
    rules.parse(
        dict(BASE, players="4", reserves=four, overachievers_disqualified=True, phases=[{"order": "single"}])
    )
    # the merge: overachievers with rounds on several boards act on the whole game
    rules.parse(
        dict(
            BASE,
            boards=2,
            players="4",
            reserves=four,
            overachievers_disqualified=True,
            phases=[{"order": "simultaneous"}],
        )
    )
    rules.parse(dict(BASE, boards=2, stalemate="most-pieces-wins"))


# -- ``extends`` (games/ttt/extends.py): merge semantics, refusals, and that the resolved
# rule set is what is validated, fingerprinted and played ---------------------------------


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

"""Per-board space properties (``board.on_boards``, issue 13): validation and
canonical form, and the engine against the reference model (tests/ttt_reference/,
which reads the record's on_boards itself) on BoS, 3P-BoS and rule sets made
for the combinations (sequential, simultaneous, cloaked, stacks)."""

import pytest

from games.ttt import make_core, rules
from games.ttt.schema import RuleSetError
from test_ttt_boards_outcomes import play_both
from ttt_checks import play_rounds_against_reference
from ttt_reference import ReferenceState


def parse(**fields):
    base = {
        "name": "T",
        "board": {"kind": "squares", "size": [2, 2, 1]},
        "boards": 2,
        "reserves": {"black": 2, "white": 2},
        "turn_checks": [],
    }
    base.update(fields)
    return rules.parse(base)


def test_every_writing_of_the_same_spaces_has_one_canonical_form():
    """An entry for every board is the board's own field; boards with the
    same extra spaces share an entry; entry order does not matter."""
    excl = [{"at": [[1, 1, 1]], "players": [1]}]
    a = parse(board={"kind": "squares", "size": [2, 2, 1], "exclusive": excl})
    b = parse(
        board={"kind": "squares", "size": [2, 2, 1], "on_boards": [{"boards": [2, 1], "exclusive": excl}]}
    )
    assert a == b and "on_boards" not in b.record["board"]
    c = parse(
        boards=3,
        board={
            "kind": "squares",
            "size": [2, 2, 1],
            "on_boards": [{"boards": [3], "locked": [[2, 2, 1]]}, {"boards": [1], "locked": [[2, 2, 1]]}],
        },
    )
    d = parse(
        boards=3,
        board={"kind": "squares", "size": [2, 2, 1], "on_boards": [{"boards": [1, 3], "locked": [[2, 2]]}]},
    )
    assert c == d
    assert c.record["board"]["on_boards"] == [{"boards": [1, 3], "locked": [[2, 2, 1]]}]


@pytest.mark.parametrize(
    "fields, words",
    [
        (
            {
                "boards": 1,
                "board": {
                    "kind": "squares",
                    "size": [2, 2, 1],
                    "on_boards": [{"boards": [1], "locked": [[1, 1, 1]]}],
                },
            },
            "names boards, but the rule set has boards=1",
        ),
        (
            {
                "board": {
                    "kind": "squares",
                    "size": [2, 2, 1],
                    "on_boards": [{"boards": [3], "locked": [[1, 1, 1]]}],
                }
            },
            "not a list of distinct boards (allowed items: 1..2)",
        ),
        (
            {
                "board": {
                    "kind": "squares",
                    "size": [2, 2, 1],
                    "locked": [[1, 1, 1]],
                    "on_boards": [{"boards": [2], "locked": [[1, 1, 1]]}],
                }
            },
            "listed twice for board 2",
        ),
        (
            {
                "board": {
                    "kind": "squares",
                    "size": [2, 2, 1],
                    "pieces": [{"at": [1, 1, 1], "colour": "black"}],
                    "on_boards": [{"boards": [2], "locked": [[1, 1, 1]]}],
                }
            },
            "holds a pre-placed piece",
        ),
        (
            {
                "board": {
                    "kind": "squares",
                    "size": [2, 2, 1],
                    "on_boards": [
                        {
                            "boards": [2],
                            "locked": [[1, 1, 1]],
                            "exclusive": [{"at": [[1, 1, 1]], "players": [1]}],
                        }
                    ],
                }
            },
            "is locked on board 2",
        ),
        (
            {"board": {"kind": "squares", "size": [2, 2, 1], "on_boards": [{"boards": [1], "pieces": []}]}},
            "board.on_boards[0].pieces: unknown field",
        ),
        (
            {
                "board": {
                    "kind": "squares",
                    "size": [2, 2, 1],
                    "on_boards": [{"boards": [1], "exclusive": [{"at": [[1, 1, 1]], "players": [1, 2]}]}],
                }
            },
            "exclusive to every seat on board 1",
        ),
    ],
)
def test_refusals(fields, words):
    with pytest.raises(RuleSetError) as e:
        parse(**fields)
    assert words in str(e.value)


def test_bos_spaces_differ_between_boards():
    """BoS: '(2,1) of 1 and (2,2) of 2 exclusive to chaos, and remainin spaces are locked'."""
    core = make_core("BoS")
    ref = ReferenceState(rules.parse(dict(rules.resolve("BoS").to_json())))
    assert ref.locked == {(1, 1, 0), (3, 0, 0)}  # board 1's (2,2), board 2's (2,1)
    assert ref.exclusive[(1, 0, 0)] == {2} and ref.exclusive[(3, 1, 0)] == {2}  # chaos is seat 2
    assert "#" in core.to_string()


CASES = {
    "seq-stacks": dict(
        board={
            "kind": "stacks",
            "size": [2, 1, 3],
            "on_boards": [
                {"boards": [1], "exclusive": [{"at": [[1, 1]], "players": [1]}], "locked": [[2, 1, 3]]},
                {
                    "boards": [2, 3],
                    "exit_locked": [{"at": [[2, 1, 1]], "players": [2]}],
                    "entry_locked": [{"at": [[1, 1, 2]], "players": [1]}],
                    "sticky": [[1, 1, 1]],
                },
            ],
        },
        boards=3,
        reserves={"black": 4, "white": 4},
        stalemate="most-pieces-wins",
    ),
    "moves": dict(
        board={
            "kind": "squares",
            "size": [3, 2, 1],
            "on_boards": [
                {
                    "boards": [2],
                    "exclusive": [{"at": [[2, 1, 1], [2, 2, 1]], "players": [2]}],
                    "locked": [[3, 2, 1]],
                }
            ],
        },
        shapes={"circle": {"move": "adjacent"}},
        move_limit=14,
        stalemate="most-area-wins",
    ),
    "chaos": dict(
        board={
            "kind": "squares",
            "size": [2, 2, 1],
            "on_boards": [
                {"boards": [1], "exclusive": [{"at": [[2, 1, 1]], "players": ["chaos"]}]},
                {
                    "boards": [2],
                    "exclusive": [{"at": [[2, 2, 1]], "players": ["chaos"]}],
                    "locked": [[1, 2, 1]],
                },
            ],
        },
        players="2-vs-chaos",
        reserves={"black": 2, "white": 2, "pink": 2},
        stalemate="least-pieces-wins",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_sequential_games_agree_with_the_reference(name):
    play_both(parse(**CASES[name]), ReferenceState, games=40, seed=5)


def test_cloaked_games_agree_with_the_reference():
    fields = dict(
        CASES["seq-stacks"],
        cloaking="hides",
        phases=[{"cloaked": [[x, 1, z] for x in (1, 2) for z in (1, 2, 3)]}],
    )
    play_both(parse(**fields), ReferenceState, games=40, seed=6)


@pytest.mark.parametrize("name", ["BoS", "3P-BoS"])
def test_bos_games_agree_with_the_reference(name):
    play_rounds_against_reference(rules.resolve(name), games=60, seed=7, boards=True)


def test_simultaneous_rounds_agree_with_the_reference():
    fields = dict(
        CASES["chaos"],
        phases=[{"order": "simultaneous", "locked_players": ["chaos"]}, {"locked_players": [1, 2]}],
    )
    play_rounds_against_reference(parse(**fields), games=60, seed=8, boards=True)

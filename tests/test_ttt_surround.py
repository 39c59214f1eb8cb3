"""Surrounds: "Surround line" and "Surround orthogonal" (docs/rules/ttt/surround.md):
when a piece of a surrounding shape arrives, the runs it
closes along a line with another piece of its colours, or the one-colour
orthogonal groups next to it left without liberties, are captured under its
result. On flat boards and on stacks (read on the board of the stacks'
tops: each stack is its top piece, a wall or empty), in sequential plies
and inside simultaneous and single rounds (every plan lands first, then all
surrounds are judged at once; a captive of surrounders of two colours is
destroyed).

The engine is compared move by move with the reference model
(tests/ttt_reference/); small positions check each decision by hand; every
test rule set goes through ``pyspiel.random_sim_test`` with serialisation
(and through ``pyspiel.convert_to_turn_based`` in rounds)."""

from functools import partial

import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ttt import make_core, rules
from games.ttt.rules import RuleSetError
from tiers import sweep
from ttt_checks import (
    CAN,
    MUST,
    action_strings,
    assert_is_legal_agrees_with_legal_actions,
    parsed_or_rejected,
    piece,
    play_against_reference,
    play_named,
    position,
    power,
    random_sim_test_of,
    rule_set,
    same_pieces,
    stack_codes,
)
from ttt_records import stack_surround_round_records, surround_round_records

FLAT_4X4 = {"board": {"kind": "squares", "size": [4, 4, 1]}}
STACKS_4X4X3 = {"board": {"kind": "stacks", "size": [4, 4, 3]}, "turn_checks": ["first-4-wins"]}
SIM = {"order": "simultaneous", "pass": True}
line = partial(position, size=(5, 1, 1))  # a row of five spaces
row = partial(position, size=(5, 1, 3), kind="stacks", turn_checks=["first-4-wins"])  # a row of five stacks


# -- flat boards -------------------------------------------------------------------------------


def surround_cases():
    """One small rule set per surround (and a mixture with jumps)."""
    out = []
    add = lambda name, **kw: out.append(rule_set(name, FLAT_4X4, **kw))

    add(
        "reversi-like",
        board={
            "kind": "squares",
            "size": [4, 4, 1],
            "pieces": [
                piece((2, 2, 1), "black", "circle"),
                piece((3, 3, 1), "black", "circle"),
                piece((2, 3, 1), "white", "circle"),
                piece((3, 2, 1), "white", "circle"),
            ],
        },
        reserves={"black": {"circle": 6}, "white": {"circle": 6}},
        stalemate="most-pieces-wins",
        shapes={"circle": power("surround-line", "converts", "stationary", MUST)},
        phases=[{"pass": True}],
    )
    add(
        "go-like",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"circle": 7}, "white": {"circle": 7}},
        move_limit=40,
        shapes={"circle": power("surround-orthogonal", "removes", "stationary")},
        phases=[{"pass": True}],
    )
    add(
        "surround-orth-moves",
        players="3",
        board={"kind": "squares", "size": [4, 3, 1], "locked": [[4, 3, 1]]},
        reserves={"black": {"x": 2, "circle": 2}, "white": {"x": 2, "circle": 2}, "pink": {"circle": 2}},
        shapes={
            "x": power("surround-orthogonal", "reincarnates", "adjacent"),
            "circle": {"move": "adjacent"},
        },
        move_limit=40,
    )
    add(
        "surround-line-moves-x2",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"star": 2, "circle": 2}, "white": {"star": 2, "circle": 2}},
        shapes={
            "star": power("surround-line", "reincarnates-x2", "orthogonal"),
            "circle": {"move": "diagonal"},
        },
        move_limit=40,
    )
    add(
        "surround-and-jump-must",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"x": 2, "cross": 2}, "white": {"x": 2, "cross": 2}},
        shapes={
            "x": power("surround-orthogonal", "removes", "adjacent", MUST),
            "cross": power("chain-jump", "converts", "adjacent", MUST),
        },
        move_limit=40,
    )
    add(
        "surround-cube",
        board={"kind": "squares", "size": [3, 3, 2]},
        reserves={"black": {"x": 4}, "white": {"x": 4}},
        shapes={"x": power("surround-line", "removes", "stationary")},
        move_limit=20,
    )
    add(
        "adjacent-captures",
        players="3",
        board={"kind": "squares", "size": [4, 4, 1], "locked": [[4, 4, 1]]},
        reserves={"black": {"x": 2, "star": 2}, "white": {"x": 2, "star": 2}, "pink": {"x": 1, "star": 3}},
        shapes={
            "x": power("adjacent", "reincarnates", "adjacent", MUST),
            "star": power("adjacent-orthogonal", "converts", "stationary"),
        },
        move_limit=30,
    )
    add(
        "approach-alquerque",
        board={"kind": "squares", "size": [5, 3, 1]},
        reserves={"black": {"circle": 5}, "white": {"circle": 5}},
        shapes={"circle": power("approach", "removes", "adjacent-alquerque", MUST)},
        move_limit=40,
        turn_checks=[],
        stalemate="most-pieces-wins",
    )
    add(
        "approach-lines-or-knights",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"star": 2, "x": 2}, "white": {"star": 2, "x": 2}},
        shapes={
            "star": power("approach", "converts", "linear-or-knight"),
            "x": power("approach", "reincarnates-x2", "orthogonal"),
        },
        move_limit=30,
        line_moves="over-pieces",
    )
    add(
        "approach-one-or-the-run",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"x": 2, "star": 2}, "white": {"x": 2, "star": 2}},
        shapes={
            "x": power("approach-one", "converts", "linear", MUST),
            "star": power("approach", "removes", "adjacent"),
        },
        move_limit=30,
        turn_checks=[],
        stalemate="most-pieces-wins",
    )
    return out


def stack_surround_cases():
    out = []
    add = lambda name, **kw: out.append(rule_set(name, STACKS_4X4X3, **kw))

    add(
        "stack-reversi-like",
        size=(4, 4, 2),
        pieces=[
            piece((2, 2, 1), "black", "circle"),
            piece((3, 3, 1), "white", "circle"),
            piece((3, 3, 2), "black", "circle"),
            piece((2, 3, 1), "white", "circle"),
            piece((3, 2, 1), "black", "circle"),
            piece((3, 2, 2), "white", "circle"),
        ],
        reserves={"black": {"circle": 8}, "white": {"circle": 8}},
        stalemate="most-pieces-wins",
        shapes={"circle": power("surround-line", "converts", "stationary", MUST)},
        phases=[{"pass": True}],
    )
    add(
        "stack-go-like",
        size=(4, 3, 3),
        locked=[[4, 3, 1]],
        reserves={"black": {"circle": 9}, "white": {"circle": 9}},
        move_limit=40,
        shapes={"circle": power("surround-orthogonal", "removes", "stationary")},
        phases=[{"pass": True}],
    )
    add(
        "stack-surround-orth-moves",
        players="3",
        size=(4, 3, 2),
        locked=[[4, 3, 1]],
        reserves={"black": {"x": 2, "circle": 2}, "white": {"x": 2, "circle": 2}, "pink": {"circle": 2}},
        shapes={
            "x": power("surround-orthogonal", "reincarnates", "adjacent"),
            "circle": {"move": "adjacent"},
        },
        move_limit=40,
    )
    add(
        "stack-surround-line-and-jumps",
        size=(4, 4, 3),
        reserves={"black": {"star": 2, "x": 2, "circle": 2}, "white": {"star": 2, "x": 2, "circle": 2}},
        shapes={
            "star": power("surround-line", "reincarnates-x2", "orthogonal"),
            "x": power("chain-jump", "converts", "adjacent"),
            "circle": power("cover-by-rank", "converts", "adjacent"),
        },
        move_limit=40,
        phases=[{"pass": True, "locked": [[1, 1, 2]]}],
    )
    add(
        "stack-adjacent-captures",
        size=(3, 3, 3),
        reserves={"black": {"x": 3, "circle": 3}, "white": {"x": 3, "circle": 3}},
        shapes={
            "x": power("adjacent-orthogonal", "reincarnates-x2", "adjacent"),
            "circle": power("adjacent", "removes", "stationary", MUST),
        },
        move_limit=30,
    )
    add(
        "stack-by-stack-surrounders",
        size=(4, 3, 3),
        reserves={"black": {"x": 2, "star": 2, "circle": 2}, "white": {"x": 2, "star": 2, "circle": 2}},
        shapes={
            "x": power("surround-orthogonal", "reincarnates", "orth-by-stack"),
            "star": power("surround-line", "converts", "orth-by-full-stack", MUST),
            "circle": power("adjacent", "removes", "orth-by-stack"),
        },
        move_limit=40,
        phases=[{"pass": True}],
    )
    add(
        "stack-approach",
        size=(4, 3, 3),
        reserves={"black": {"x": 2, "star": 2}, "white": {"x": 2, "star": 2}},
        shapes={
            "x": power("approach", "removes", "adjacent", MUST),
            "star": power("approach", "reincarnates", "orth-by-stack"),
        },
        move_limit=40,
        phases=[{"pass": True}],
    )
    return out


SURROUND_CASES = surround_cases() + stack_surround_cases()


@pytest.mark.parametrize("rs", SURROUND_CASES, ids=lambda rs: rs.name)
def test_surround_rule_sets_match_reference(rs):
    play_against_reference(rs, games=sweep(full=50, quick=4), seed=sum(map(ord, rs.name)), check=same_pieces)


@pytest.mark.slow
@pytest.mark.parametrize("rs", SURROUND_CASES, ids=lambda rs: rs.name)
def test_surround_rule_sets_match_reference_long(rs):
    play_against_reference(rs, games=600, seed=11, check=same_pieces)


@pytest.mark.parametrize("rs", SURROUND_CASES, ids=lambda rs: rs.name)
def test_random_sim_test_on_surround_rule_sets(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=8, quick=1))


@pytest.mark.parametrize("name", ["reversi-like", "surround-and-jump-must", "stack-reversi-like"])
def test_surrounds_is_legal_agrees_with_legal_actions(name):
    rs = next(r for r in SURROUND_CASES if r.name == name)
    assert_is_legal_agrees_with_legal_actions(rs, games=sweep(full=5, quick=2), seed=3)


def test_surround_line_converts_the_runs_the_arriving_piece_closes():
    """Reversi: black on (1,1) closes (2,2) against (3,3) and (2,1) against (3,1)."""
    rs = line(
        [
            piece((2, 2, 1), "white", "circle"),
            piece((3, 3, 1), "black", "circle"),
            piece((2, 1, 1), "white", "circle"),
            piece((3, 1, 1), "black", "circle"),
            piece((1, 2, 1), "white", "circle"),
        ],
        {"circle": power("surround-line", "converts", "stationary")},
        size=(4, 4, 1),
        reserves={"black": {"circle": 1}, "white": {}},
    )
    core = make_core(rs)
    _place = [
        a
        for a, s_ in zip(core.legal_action_list(), action_strings(core), strict=True)
        if s_ == "black@(1,1,1) circle"
    ][0]
    core.apply_action(_place)
    cells = core.cells()
    assert cells[0] == 1 and cells[1] == 1 and cells[5] == 1  # (1,1) placed, (2,1) and (2,2) converted
    assert cells[4] == 2  # (1,2): no black piece closes it


def test_surround_orthogonal_takes_a_group_without_liberties():
    """Go: white's two stones on the edge, closed by black stones, the edge
    and a locked space, are removed when black fills the last liberty; a
    group touching an empty space or a third player's piece stays."""
    rs = line(
        [
            piece((1, 1, 1), "white", "circle"),
            piece((2, 1, 1), "white", "circle"),
            piece((1, 2, 1), "black", "circle"),
            piece((2, 2, 1), "black", "circle"),
        ],
        {"circle": power("surround-orthogonal", "removes", "stationary")},
        size=(4, 2, 1),
        reserves={"black": {"circle": 1}, "white": {}},
        locked=[[4, 1, 1]],
    )
    core = make_core(rs)
    a = [
        a
        for a, s_ in zip(core.legal_action_list(), action_strings(core), strict=True)
        if s_ == "black@(3,1,1) circle"
    ][0]
    core.apply_action(a)
    assert core.cells()[:3] == [0, 0, 1]
    rs = line(
        [
            piece((1, 1, 1), "white", "circle"),
            piece((2, 1, 1), "white", "circle"),
            piece((1, 2, 1), "black", "circle"),
            piece((2, 2, 1), "pink", "circle"),
        ],
        {"circle": power("surround-orthogonal", "removes", "stationary")},
        size=(3, 2, 1),
        players="3",
        reserves={"black": {"circle": 1}, "white": {}, "pink": {}},
    )
    core = make_core(rs)
    a = [
        a
        for a, s_ in zip(core.legal_action_list(), action_strings(core), strict=True)
        if s_ == "black@(3,1,1) circle"
    ][0]
    core.apply_action(a)
    assert core.cells()[:2] == [2, 2]  # pink's stone is no black piece


def test_validation_refuses_surrounds_on_stacks_in_rounds():
    """Surrounds on stacks and in rounds on flat boards are played, and the
    two together; a by-stack surrounder is refused."""
    with pytest.raises(RuleSetError) as e:
        rules.parse(
            {
                "name": "s",
                "board": {"kind": "stacks", "size": [3, 1, 3]},
                "phases": [{"order": "simultaneous"}],
                "reserves": {"black": {"x": 1}, "white": {"x": 1}},
                "shapes": {"x": power("surround-line", "removes", "orth-by-stack")},
            }
        )
    assert "'surround-line' with move 'orth-by-stack' in a simultaneous or single phase" in str(e.value)
    for kind, size, phases in (
        ("stacks", [3, 1, 3], [{}]),
        ("squares", [3, 3, 1], [{"order": "simultaneous"}]),
        ("stacks", [3, 1, 3], [{"order": "simultaneous"}]),
    ):
        rules.parse(
            {
                "name": "s",
                "board": {"kind": kind, "size": size},
                "phases": phases,
                "reserves": {"black": {"x": 1}, "white": {"x": 1}},
                "shapes": {"x": power("surround-line", "removes", "stationary")},
            }
        )


# -- on stacks -------------------------------------------------------------------------------


def test_surround_line_on_stacks_takes_tops_between_the_arrival_and_an_own_top():
    """Reversi on the tops: black placed on stack 1 closes stack 2's white top
    against stack 3's black top; the black piece under stack 2's top is not
    part of any line, and stack 4's white top (closed by nothing) stays."""
    rs = row(
        [
            piece((2, 1, 1), "black", "circle"),
            piece((2, 1, 2), "white", "circle"),
            piece((3, 1, 1), "black", "circle"),
            piece((4, 1, 1), "white", "circle"),
        ],
        {"circle": power("surround-line", "removes", "stationary")},
        reserves={"black": {"circle": 1}, "white": {}},
    )
    core = make_core(rs)
    play_named(core, "black@stack(1,1) circle")
    assert stack_codes(core, 2) == [1, 0, 0]  # the white top left; the black piece under it stays
    assert stack_codes(core, 4) == [2, 0, 0]


def test_surround_orthogonal_on_stacks_counts_empty_stacks_as_liberties():
    """Go on the tops: white's top on stack 2 is closed by black tops and a
    locked top (a wall); filling the last neighbour captures it. With an empty
    neighbour stack it would stay."""
    rs = row(
        [
            piece((2, 1, 1), "white", "circle"),
            piece((2, 1, 2), "white", "circle"),
            piece((1, 1, 1), "black", "circle"),
        ],
        {"circle": power("surround-orthogonal", "converts", "stationary")},
        size=(3, 2, 3),
        reserves={"black": {"circle": 2}, "white": {}},
        locked=[[3, 1, 1]],
    )
    core = make_core(rs)
    assert [s_ for s_ in action_strings(core) if "(2,2)" in s_] == ["black@stack(2,2) circle"]
    play_named(core, "black@stack(2,2) circle")
    # stack (2,1): its top is orthogonally next to (1,1) black, (3,1) a wall, (2,2) black: converted
    assert stack_codes(core, 2) == [2, 1, 0]
    rs = row(
        [piece((2, 1, 1), "white", "circle"), piece((1, 1, 1), "black", "circle")],
        {"circle": power("surround-orthogonal", "converts", "stationary")},
        size=(3, 2, 3),
        reserves={"black": {"circle": 2}, "white": {}},
    )
    core = make_core(rs)
    play_named(core, "black@stack(2,2) circle")
    assert stack_codes(core, 2) == [2, 0, 0]  # stack (3,1) is empty: a liberty


def test_adjacent_takes_every_opponent_neighbour_and_the_orthogonal_reading_only_the_orthogonal_ones():
    """Black places on (2,2) next to white pieces on (1,1) (diagonal), (2,1)
    (orthogonal) and (3,3) (diagonal): ``adjacent`` removes all three,
    ``adjacent-orthogonal`` only (2,1); black's own (3,2) stays."""
    pieces = [
        piece((1, 1, 1), "white", "circle"),
        piece((2, 1, 1), "white", "circle"),
        piece((3, 3, 1), "white", "circle"),
        piece((3, 2, 1), "black", "circle"),
    ]
    for cond, left in (("adjacent", []), ("adjacent-orthogonal", [0, 10])):
        rs = line(
            pieces,
            {"circle": power(cond, "removes", "stationary")},
            size=(4, 4, 1),
            reserves={"black": {"circle": 1}, "white": {"circle": 1}},
        )
        core = make_core(rs)
        play_named(core, "black@(2,2,1) circle")
        cells = core.cells()
        assert [c for c in (0, 1, 10) if cells[c]] == left, cond
        assert cells[5] == 1 and cells[6] == 1


def test_adjacent_on_stacks_takes_the_neighbouring_tops():
    """On a row of stacks black's piece lands on stack 2, next to stacks 1
    and 3 whose tops are white: both tops leave, uncovering black's pieces."""
    rs = row(
        [
            piece((1, 1, 1), "black", "circle"),
            piece((1, 1, 2), "white", "circle"),
            piece((3, 1, 1), "black", "circle"),
            piece((3, 1, 2), "white", "circle"),
        ],
        {"circle": power("adjacent", "removes", "stationary")},
        reserves={"black": {"circle": 1}, "white": {"circle": 1}},
    )
    core = make_core(rs)
    play_named(core, "black@stack(2,1) circle")
    assert stack_codes(core, 1) == [1, 0, 0] and stack_codes(core, 3) == [1, 0, 0]
    assert stack_codes(core, 2) == [1, 0, 0]


def test_validation_names_the_adjacent_conditions_and_refuses_them_for_by_stack_movers_in_rounds():
    rec = {
        "name": "bad",
        "board": {"kind": "stacks", "size": [3, 1, 3]},
        "phases": [SIM],
        "move_limit": 10,
        "reserves": {"black": {"x": 1}, "white": {"x": 1}},
        "shapes": {"x": power("adjacent", "removes", "orth-by-stack"), "circle": power("next-to", "removes")},
    }
    with pytest.raises(RuleSetError) as e:
        rules.parse(rec)
    text = str(e.value)
    assert (
        "shapes.x.condition: 'adjacent' with move 'orth-by-stack' in a simultaneous or single phase "
        "is not supported yet" in text
    )
    assert "'next-to'" in text and "adjacent, adjacent-orthogonal" in text
    rec["shapes"] = {"x": power("adjacent-orthogonal", "converts", "stationary")}
    assert rules.parse(rec).record["shapes"]["x"]["condition"] == "adjacent-orthogonal"
    rec["shapes"] = {"x": power("adjacent", "removes", "orth-by-stack")}
    rec["phases"] = [{}]
    assert rules.parse(rec).record["shapes"]["x"]["move"] == "orth-by-stack"


def test_a_by_stack_surrounder_surrounds_from_its_landed_stack_whatever_rides_on_it():
    """Black's by-stack x at the bottom of stack 1 carries white's rider to
    stack 3: its surround-line takes stack 4's white top, closed by black's
    top on stack 5, although white's rider tops the mover's stack (the
    arrival counts as the mover's); stack 2's white top stays, since stack 1
    is empty after the move and closes nothing."""
    rs = row(
        [
            piece((1, 1, 1), "black", "x"),
            piece((1, 1, 2), "white", "circle"),
            piece((2, 1, 1), "white", "circle"),
            piece((4, 1, 1), "white", "circle"),
            piece((5, 1, 1), "black", "circle"),
        ],
        {"x": power("surround-line", "removes", "orth-by-stack"), "circle": {}},
    )
    core = make_core(rs)
    play_named(core, "stack(1,1)@1->stack(3,1)")
    assert stack_codes(core, 3) == [1, 2, 0]
    assert stack_codes(core, 4) == [0, 0, 0]  # closed between the arrival and black's (5,1)
    assert stack_codes(core, 2) == [2, 0, 0]  # stack 1 is empty: nothing closes it


def test_approach_takes_the_run_ahead_of_a_move_along_its_line():
    """Black's circle slides from (1,1) to (2,1) toward white's (3,1) and
    (4,1), then black's (5,1): the run of two white pieces goes; the same
    piece placed on (2,1) approaches nothing."""
    pieces = [
        piece((1, 1, 1), "black", "circle"),
        piece((3, 1, 1), "white", "circle"),
        piece((4, 1, 1), "white", "circle"),
        piece((5, 1, 1), "black", "circle"),
        piece((2, 3, 1), "white", "circle"),
    ]
    rs = line(pieces, {"circle": power("approach", "removes", "orthogonal")}, size=(5, 3, 1))
    core = make_core(rs)
    play_named(core, "(1,1,1)->(2,1,1)")
    assert core.cells()[:5] == [0, 1, 0, 0, 1]
    assert core.cells()[11] == 2  # (2,3): not on the move's line ahead
    rs = line(
        pieces[1:],
        {"circle": power("approach", "removes", "orthogonal")},
        size=(5, 3, 1),
        reserves={"black": {"circle": 1}, "white": {"circle": 1}},
    )
    core = make_core(rs)
    play_named(core, "black@(2,1,1) circle")
    assert core.cells()[2:4] == [2, 2]


def test_approach_one_takes_only_the_adjacent_piece():
    """The same slide with ``approach-one``: white's (3,1) next to the
    landing goes, white's (4,1) behind it stays; the record keeps the word."""
    pieces = [
        piece((1, 1, 1), "black", "circle"),
        piece((3, 1, 1), "white", "circle"),
        piece((4, 1, 1), "white", "circle"),
        piece((5, 1, 1), "black", "circle"),
    ]
    rs = line(pieces, {"circle": power("approach-one", "removes", "orthogonal")}, size=(5, 3, 1))
    assert rs.record["shapes"]["circle"]["condition"] == "approach-one"
    core = make_core(rs)
    play_named(core, "(1,1,1)->(2,1,1)")
    assert core.cells()[:5] == [0, 1, 0, 2, 1]


def test_validation_refuses_approach_without_a_line_of_movement():
    rec = {
        "name": "bad",
        "board": {"kind": "squares", "size": [3, 3, 1]},
        "move_limit": 10,
        "reserves": {"black": {"x": 1, "star": 1}, "white": {"x": 1, "star": 1}},
        "shapes": {
            "x": power("approach", "removes", "stationary"),
            "star": power("approach", "removes", "knight-2x1x0"),
        },
    }
    with pytest.raises(RuleSetError) as e:
        rules.parse(rec)
    text = str(e.value)
    assert "shapes.x.condition: 'approach' captures by moving along a line" in text
    assert "move 'knight-2x1x0' has none" in text
    rec["shapes"] = {"x": power("approach", "removes", "adjacent-or-knight")}
    rec["reserves"] = {"black": {"x": 1}, "white": {"x": 1}}
    assert rules.parse(rec).record["shapes"]["x"]["condition"] == "approach"
    rec["shapes"] = {"x": power("approach-one", "removes", "knight-2x1x1")}
    with pytest.raises(RuleSetError) as e:
        rules.parse(rec)
    assert "shapes.x.condition: 'approach-one' captures by moving along a line" in str(e.value)
    rec["shapes"] = {"x": power("approach-one", "removes", "adjacent-or-knight")}
    assert rules.parse(rec).record["shapes"]["x"]["condition"] == "approach-one"


def test_validation_accepts_surrounds_by_stack_movers_in_sequential_phases():
    rec = {
        "name": "bad",
        "board": {"kind": "stacks", "size": [3, 1, 3]},
        "move_limit": 10,
        "reserves": {"black": {"x": 1}, "white": {"x": 1}},
        "shapes": {
            "x": power("surround-line", "removes", "stationary"),
            "circle": power("surround-orthogonal", "removes", "orth-by-stack"),
        },
    }
    assert rules.parse(rec).record["shapes"]["circle"]["move"] == "orth-by-stack"


def test_a_surrounders_look_ahead_keeps_the_covered_piece():
    """On a flat board, a must-capture surrounder replacement's look-ahead
    for a cover move leaves the covered piece where it is: the start
    position keeps every pre-placed piece."""
    rec = {
        "name": "r",
        "board": {
            "kind": "squares",
            "size": [2, 1, 1],
            "pieces": [
                {"at": [1, 1, 1], "colour": "white", "shape": "circle"},
                {"at": [2, 1, 1], "colour": "black", "shape": "cross"},
            ],
        },
        "reserves": {"black": {}, "white": {}},
        "move_limit": 1,
        "shapes": {
            "circle": power("jump", "removes", "adjacent"),
            "triangle": power("surround-line", "removes", "adjacent", MUST),
            "cross": {"move": "forward-orthogonal"},
        },
    }
    core = make_core(rules.parse(rec))
    assert core.cells() == [2, 1] and core.shapes() == ["circle", "cross"]


# -- inside rounds ---------------------------------------------------------------------------


def round_surround_cases():
    out = []
    add = lambda name, **kw: out.append(rule_set(name, **kw))
    add(
        "sim-surround-line",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"circle": 4, "x": 1}, "white": {"circle": 4, "x": 1}},
        shapes={"circle": power("surround-line", "removes"), "x": {"move": "adjacent"}},
        move_limit=16,
        turn_checks=[],
        stalemate="most-pieces-wins",
        phases=[SIM],
    )
    add(
        "single-then-sim-surround-orth-3p",
        players="3",
        board={"kind": "squares", "size": [3, 3, 1]},
        reserves={c: {"circle": 3} for c in ("black", "white", "pink")},
        shapes={"circle": power("surround-orthogonal", "converts")},
        move_limit=12,
        turn_checks=["first-3-wins"],
        phases=[{"order": "single", "movement": "placement-only"}, SIM],
    )
    add(
        "sim-surround-moves-vs-chaos",
        players="2-vs-chaos",
        board={"kind": "squares", "size": [3, 3, 1]},
        reserves={c: {"star": 2, "circle": 1} for c in ("black", "white", "pink")},
        shapes={
            "star": power("surround-line", "reincarnates", move="adjacent", how=MUST),
            "circle": {"move": "stationary", "power": CAN, "condition": "cover", "result": "removes"},
        },
        move_limit=14,
        turn_checks=["first-3-wins"],
        stalemate="most-pieces-wins",
        phases=[SIM, {"pass": True, "locked_players": ["chaos"]}],
    )
    add(
        "sim-approach-and-adjacent",
        board={"kind": "squares", "size": [4, 4, 1]},
        reserves={"black": {"circle": 3, "x": 1}, "white": {"circle": 3, "x": 1}},
        shapes={
            "circle": power("approach", "reincarnates", move="linear"),
            "x": power("adjacent", "converts", move="adjacent"),
        },
        move_limit=20,
        turn_checks=[],
        stalemate="most-pieces-wins",
        phases=[{"order": "single", "movement": "placement-only"}, SIM],
    )
    return out


@pytest.mark.parametrize("rs", round_surround_cases(), ids=lambda rs: rs.name)
def test_surrounds_in_rounds_match_reference(rs):
    assert rs.compile()["simultaneous"]
    play_against_reference(rs, games=sweep(full=80, quick=6), seed=sum(map(ord, rs.name)), check=same_pieces)


@pytest.mark.slow
@pytest.mark.parametrize("rs", round_surround_cases(), ids=lambda rs: rs.name)
def test_surrounds_in_rounds_match_reference_long(rs):
    play_against_reference(rs, games=800, seed=3, check=same_pieces)


@pytest.mark.parametrize("rs", round_surround_cases(), ids=lambda rs: rs.name)
def test_surround_rounds_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=8, quick=1))
    path = tmp_path / f"{rs.name}.json"
    game = pyspiel.load_game(f"ttt(rules={path})")
    pyspiel.random_sim_test(
        pyspiel.convert_to_turn_based(game), num_sims=sweep(full=4, quick=1), serialize=False, verbose=False
    )


def test_surrounds_are_judged_after_every_plan_landed():
    """A round's surrounds are judged on the board with every plan
    landed, all at once. White's circle on (2,1) and black's on (3,1); black
    places on (1,1) (closing white's (2,1) against its (3,1)) while white
    places on (4,1) (closing black's (3,1) against its (2,1)): each capture
    uses a piece the other takes, and both happen."""
    rs = rule_set(
        "line5",
        board={
            "kind": "squares",
            "size": [5, 1, 1],
            "pieces": [piece((2, 1, 1), "white", "circle"), piece((3, 1, 1), "black", "circle")],
        },
        reserves={"black": {"circle": 1}, "white": {"circle": 1}},
        move_limit=4,
        turn_checks=[],
        shapes={"circle": power("surround-line", "removes")},
        phases=[SIM],
    )
    core = make_core(rs)
    play_named(core, player=0, text="black@(1,1,1) circle")
    play_named(core, player=1, text="white@(4,1,1) circle")
    assert core.cells()[:5] == [1, 0, 0, 2, 0]


def test_a_captive_of_two_colours_is_destroyed():
    """Pink's circle in the middle of a 3x3 board; black closes the row
    through it, white the column, in the same round: both surround it, and a
    captive claimed by surrounders of two colours is destroyed (not converted
    to either), as pieces that plans contest are."""
    rs = rule_set(
        "cross",
        players="3",
        board={
            "kind": "squares",
            "size": [3, 3, 1],
            "pieces": [
                piece((2, 2, 1), "pink", "circle"),
                piece((1, 2, 1), "black", "circle"),
                piece((2, 1, 1), "white", "circle"),
            ],
        },
        reserves={"black": {"circle": 1}, "white": {"circle": 1}},
        move_limit=6,
        turn_checks=[],
        shapes={"circle": power("surround-line", "converts")},
        phases=[{"order": "single", "locked_players": [3]}, {"pass": True}],
    )
    core = make_core(rs)
    play_named(core, player=0, text="black@(3,2,1) circle")
    play_named(core, player=1, text="white@(2,3,1) circle")
    assert core.cells()[4] == 0 and core.cells()[3] == 1 and core.cells()[5] == 1
    assert core.cells()[1] == 2 and core.cells()[7] == 2


@settings(max_examples=sweep(full=80, quick=10), deadline=None, suppress_health_check=list(HealthCheck))
@given(surround_round_records(), st.integers(0, 10**6))
def test_random_surround_rounds_match_reference(rec, seed):
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=3, seed=seed, check=same_pieces)


# -- on stacks inside rounds -------------------------------------------------------------------


def stack_round_surround_cases():
    out = []
    add = lambda name, **kw: out.append(rule_set(name, FLAT_4X4, **kw))
    add(
        "sim-stack-surround-line",
        board={"kind": "stacks", "size": [4, 3, 2]},
        reserves={"black": {"circle": 4, "x": 1}, "white": {"circle": 4, "x": 1}},
        shapes={"circle": power("surround-line", "removes", "stationary"), "x": {"move": "adjacent"}},
        move_limit=16,
        turn_checks=[],
        stalemate="most-pieces-wins",
        phases=[SIM],
    )
    add(
        "single-then-sim-stack-surround-orth-3p",
        players="3",
        board={"kind": "stacks", "size": [3, 3, 2]},
        reserves={c: {"circle": 3} for c in ("black", "white", "pink")},
        shapes={"circle": power("surround-orthogonal", "converts", "stationary")},
        move_limit=12,
        turn_checks=["first-3-wins"],
        phases=[{"order": "single", "movement": "placement-only"}, SIM],
    )
    add(
        "sim-stack-surround-moves-cover-chaos",
        players="2-vs-chaos",
        board={"kind": "stacks", "size": [3, 3, 2]},
        reserves={c: {"star": 2, "circle": 1} for c in ("black", "white", "pink")},
        shapes={
            "star": power("surround-line", "reincarnates", "adjacent", MUST),
            "circle": power("cover", "converts", "stationary"),
        },
        move_limit=14,
        turn_checks=["first-3-wins"],
        stalemate="most-pieces-wins",
        phases=[SIM, {"pass": True, "locked_players": ["chaos"]}],
    )
    add(
        "sim-stack-surround-by-stack",
        board={"kind": "stacks", "size": [3, 3, 3]},
        reserves={"black": {"star": 2, "cross": 2}, "white": {"star": 2, "cross": 2}},
        shapes={
            "star": power("surround-orthogonal", "removes", "adjacent"),
            "cross": {"move": "orth-by-stack"},
        },
        move_limit=16,
        phases=[SIM],
    )
    add(
        "sim-stack-surround-and-jump",
        board={"kind": "stacks", "size": [4, 3, 2]},
        reserves={"black": {"x": 2, "star": 2}, "white": {"x": 2, "star": 2}},
        shapes={
            "x": power("jump", "converts", "orthogonal"),
            "star": power("surround-line", "removes", "adjacent"),
        },
        move_limit=20,
        phases=[SIM],
    )
    return out


@pytest.mark.parametrize("rs", stack_round_surround_cases(), ids=lambda rs: rs.name)
def test_stack_surrounds_in_rounds_match_reference(rs):
    assert rs.compile()["simultaneous"]
    play_against_reference(rs, games=sweep(full=60, quick=5), seed=sum(map(ord, rs.name)), check=same_pieces)


@pytest.mark.slow
@pytest.mark.parametrize("rs", stack_round_surround_cases(), ids=lambda rs: rs.name)
def test_stack_surrounds_in_rounds_match_reference_long(rs):
    play_against_reference(rs, games=600, seed=5, check=same_pieces)


@pytest.mark.parametrize("rs", stack_round_surround_cases(), ids=lambda rs: rs.name)
def test_stack_surrounds_in_rounds_random_sim_test(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=8, quick=1))


def test_stack_surrounds_in_one_round_read_the_tops_after_every_landing():
    """A one-row board of four stacks: stack 2 holds black under white's
    top, stack 3 black. Black places on stack 1 (closing stack 2's white top
    against stack 3), white on stack 4 (closing stack 3's black against stack
    2's white top): both read the tops after every landing, before any
    capture, so both captures happen; each captive is reincarnated into its
    captor's reserve, and stack 2 shows black's piece that lay under the top."""
    rec = {
        "name": "row",
        "board": {
            "kind": "stacks",
            "size": [4, 1, 2],
            "pieces": [
                piece((2, 1, 1), "black", "circle"),
                piece((2, 1, 2), "white", "circle"),
                piece((3, 1, 1), "black", "circle"),
            ],
        },
        "reserves": {"black": {"circle": 1}, "white": {"circle": 1}},
        "move_limit": 6,
        "turn_checks": [],
        "phases": [SIM],
        "shapes": {"circle": power("surround-line", "reincarnates", "stationary")},
    }
    core = make_core(rules.parse(rec))
    play_named(core, player=0, text="black@stack(1,1) circle")
    play_named(core, player=1, text="white@stack(4,1) circle")
    assert core.cells() == [1, 1, 0, 2, 0, 0, 0, 0]
    assert core.shape_reserves() == {"black": {"circle": 1}, "white": {"circle": 1}}


@settings(max_examples=sweep(full=60, quick=7), deadline=None, suppress_health_check=list(HealthCheck))
@given(stack_surround_round_records(), st.integers(0, 10**6))
def test_random_stack_surround_rounds_match_reference(rec, seed):
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=3, seed=seed, check=same_pieces)

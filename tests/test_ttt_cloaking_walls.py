"""Invisible walls (docs/rules/ttt/cloaking.md, "Invisible walls"): "If what
makes a move illegal is a wall or piece that is invisible to the player, then
the player can attempt the move, but the result will be only to make the
invisible piece or wall visible to the player". With ``cloaking_hides_walls``
(and invisibility) a space locked for every player, the board's or the
phase's, that is cloaked in the current phase looks like an empty space to a
player until it saw the wall: on an open space, or by an attempt to place
there, move there or move the piece standing on it.

Tested against the reference model (tests/ttt_reference/) move by move, with
OpenSpiel's random_sim_test, and on histories a player cannot, or can, tell
apart. Cells are x + X*(y + Y*z) from 0."""

import json
from pathlib import Path

import pytest

import games  # noqa: F401  (registers ttt)
from games.openspiel import core_of
from games.ttt import make_core, rules
from tiers import sweep
from ttt_checks import (
    assert_info_differs,
    assert_is_legal_agrees_with_legal_actions,
    assert_views_partition_histories,
    cells,
    count_attempts,
    play_against_reference,
    random_sim_test_of,
    views,
)
from ttt_checks import cloaked_rule_set as _rs
from ttt_checks import state_after as state

WALLS = {"cloaking_hides_walls": True}
EXAMPLES = Path(__file__).resolve().parent.parent / "games" / "ttt" / "examples"
ROOK = {"move": "orthogonal"}


def cases():
    """Small rule sets with walls on cloaked spaces."""
    out = []
    add = lambda name, **kw: out.append(_rs(name, **WALLS, **kw))
    # the board's centre is a wall, every space cloaked: placements only
    add(
        "centre-wall",
        board={"kind": "squares", "size": [3, 3, 1], "locked": [[2, 2, 1]]},
        reserves={"black": 5, "white": 4},
        phases=[{"cloaked": cells(3, 3)}],
    )
    # a board wall on an open space (seen by both) and phase walls on cloaked
    # ones; the second phase moves rooks, with other walls and other cloaked spaces
    add(
        "phase-walls-rooks",
        board={"kind": "squares", "size": [4, 2, 1], "locked": [[4, 2, 1]]},
        reserves={"black": {"x": 2}, "white": {"x": 2}},
        shapes={"x": ROOK},
        move_limit=16,
        phases=[
            {
                "cloaked": [c for c in cells(4, 2) if c != [4, 2, 1]],
                "pass": True,
                "movement": "placement-only",
                "locked": [[1, 2, 1]],
            },
            {
                "cloaked": [[1, 1, 1], [2, 1, 1], [3, 1, 1], [4, 2, 1], [2, 2, 1]],
                "pass": True,
                "locked": [[2, 2, 1]],
            },
        ],
    )
    # a phase wall under a pre-placed piece that its owner, not having placed
    # it and unable to move it, does not see either: trying there reveals both
    add(
        "wall-under-piece",
        board={
            "kind": "squares",
            "size": [3, 2, 1],
            "pieces": [{"at": [2, 1, 1], "colour": "black", "shape": "x"}],
        },
        reserves={"black": {"x": 1}, "white": {"x": 2}},
        shapes={"x": {"move": "adjacent"}},
        move_limit=12,
        phases=[{"cloaked": cells(3, 2), "pass": True, "locked": [[2, 1, 1]]}],
    )
    return out


CASES = cases()
CENTRE = CASES[0]


def on_two_boards(rs):
    """``rs`` on two boards, a line of 2 deciding a board (so boards are
    decided while walls are still hidden)."""
    rec = dict(rs.record, name=f"{rs.name}-2-boards", boards=2, turn_checks=["first-2-wins"])
    return rules.parse(rec)


BOARD_CASES = [on_two_boards(rs) for rs in CASES]


def wall_attempts(rs, count, seed):
    """How many actions of random games of ``rs`` were attempts that showed
    their player what stands on a locked space it saw as empty: a wall ('#'),
    or a piece on it."""
    X, Y, _ = rs.record["board"]["size"]
    spots = rs.record["board"]["locked"] + [a for ph in rs.record["phases"] for a in ph["locked"]]
    walls = {(x - 1) + X * (y - 1) + X * Y * (z - 1) for x, y, z in spots}

    def shown(core, before):
        after = core.player_view(before.player)
        return any(before.view[c] == "." != after[c] for c in walls)

    return count_attempts(rs, count, seed, shown)


@pytest.mark.parametrize("rs", CASES, ids=lambda r: r.name)
def test_invisible_walls_match_reference(rs):
    play_against_reference(rs, sweep(full=40, quick=6), seed=3)


@pytest.mark.slow
@pytest.mark.parametrize("rs", CASES, ids=lambda r: r.name)
def test_invisible_walls_match_reference_long(rs):
    play_against_reference(rs, 300, seed=11)


@pytest.mark.parametrize("rs", CASES, ids=lambda r: r.name)
def test_the_cases_reach_attempts_that_reveal_walls(rs):
    assert wall_attempts(rs, 20, seed=5) > 0


@pytest.mark.parametrize("rs", CASES, ids=lambda r: r.name)
def test_random_sim_test_on_invisible_walls(rs, tmp_path):
    random_sim_test_of(rs, tmp_path)


@pytest.mark.parametrize("rs", CASES, ids=lambda r: r.name)
def test_is_legal_agrees_with_legal_actions_with_invisible_walls(rs):
    assert_is_legal_agrees_with_legal_actions(rs, games=sweep(full=10, quick=2), seed=5)


@pytest.mark.parametrize("rs", CASES, ids=lambda r: r.name)
def test_views_partition_histories_with_invisible_walls(rs):
    assert_views_partition_histories(rs, range(sweep(full=30, quick=4)))


@pytest.mark.parametrize("rs", BOARD_CASES, ids=lambda r: r.name)
def test_invisible_walls_on_two_boards_match_reference(rs):
    play_against_reference(rs, sweep(full=40, quick=6), seed=3)
    assert_is_legal_agrees_with_legal_actions(rs, games=sweep(full=10, quick=2), seed=5)


@pytest.mark.parametrize("rs", BOARD_CASES, ids=lambda r: r.name)
def test_views_partition_histories_with_invisible_walls_on_two_boards(rs, tmp_path):
    assert_views_partition_histories(rs, range(sweep(full=30, quick=4)))
    random_sim_test_of(rs, tmp_path)


def test_the_phantom_walls_example_matches_reference():
    rs = rules.parse(json.loads((EXAMPLES / "Phantom-Walls.json").read_text()))
    assert rs.record["cloaking_hides_walls"] is True
    play_against_reference(rs, sweep(full=30, quick=4), seed=7)
    assert wall_attempts(rs, 10, seed=7) > 0


def test_the_two_board_phantom_walls_example_matches_reference():
    rs = rules.parse(json.loads((EXAMPLES / "Phantom-Walls-Two-Boards.json").read_text()))
    assert rs.record["cloaking_hides_walls"] is True and rs.record["boards"] == 2
    played = play_against_reference(rs, sweep(full=30, quick=4), seed=7)
    assert played.attempts > 0
    assert_views_partition_histories(rs, range(sweep(full=20, quick=3)))


# -- by hand ---------------------------------------------------------------------


def corner_wall(at):
    """3x3, every space cloaked, one wall at ``at``; a move limit makes the
    game's length bound (and so the tensors' length) the same wherever the wall is."""
    return _rs(
        f"wall-{at[0]}{at[1]}",
        **WALLS,
        board={"kind": "squares", "size": [3, 3, 1], "locked": [at]},
        reserves={"black": 5, "white": 4},
        move_limit=30,
        phases=[{"cloaked": cells(3, 3)}],
    )


def test_a_cloaked_wall_looks_like_a_cloaked_empty_space_before_any_attempt():
    # black places on (1,1), white on (1,2): black cannot tell whether the wall
    # stands on (2,2) or on (3,3), both spaces looking empty
    a = state(corner_wall([2, 2, 1]), 0, 3)
    b = state(corner_wall([3, 3, 1]), 0, 3)
    assert views(a, 0) == views(b, 0)
    assert a.legal_actions() == b.legal_actions()
    assert 4 in a.legal_actions() and 8 in a.legal_actions()
    assert core_of(a).player_view(0) == ["x"] + ["."] * 8


def test_an_attempt_on_a_wall_shows_it_to_its_player_only():
    # black tries the centre: the wall is there, so the attempt only reveals it to
    # black (white, whose view shows no wall, reads that an attempt was made)
    s = state(corner_wall([2, 2, 1]), 0, 3, 4)
    core = core_of(s)
    assert core.last_event()["attempt"] and core.cells()[4] == -1
    assert core.player_view(0)[4] == "#"
    assert core.player_view(1)[4] == "."
    assert 4 in s.legal_actions()  # white, which did not see it, still may try it
    assert "or wall" in s.information_state_string(1)
    other = state(corner_wall([3, 3, 1]), 0, 3, 4)  # there the centre was free
    assert not core_of(other).last_event()["attempt"]
    assert_info_differs(views(s, 0), views(other, 0))


def test_a_revealed_wall_stays_seen_and_is_no_longer_offered():
    s = state(corner_wall([2, 2, 1]), 0, 3, 4, 6)  # black's attempt, then white's placement
    assert s.current_player() == 0
    assert 4 not in s.legal_actions()
    assert core_of(s).player_view(0)[4] == "#"


def test_white_tells_apart_nothing_of_the_wall_black_found():
    # black tries the centre (a wall) or the corner (3,3) holding white's hidden
    # piece: white reads one attempt either way
    wall = state(corner_wall([2, 2, 1]), 0, 8, 4)
    piece = state(corner_wall([2, 2, 1]), 0, 8, 8)
    assert core_of(wall).last_event()["attempt"] and core_of(piece).last_event()["attempt"]
    assert views(wall, 1) == views(piece, 1)
    assert_info_differs(views(wall, 0), views(piece, 0))


def two_boards_centre_wall():
    """Two 3x3 boards, every space cloaked, each board's centre a wall
    (cells 7 and 10 of the 6x3 box), a line of 2 without diagonals
    deciding a board."""
    return _rs(
        "two-boards-centre-wall",
        **WALLS,
        board={"kind": "squares", "size": [3, 3, 1], "locked": [[2, 2, 1]]},
        boards=2,
        reserves={"black": 9, "white": 9},
        turn_checks=["first-2-wins-no-diagonal"],
        move_limit=30,
        phases=[{"cloaked": cells(3, 3)}],
    )


def test_on_two_boards_an_attempt_shows_the_wall_of_its_own_board_only():
    """Each board's copy of the wall is its own space, as a piece's is:
    black's attempt on board 1's centre shows that wall, not board 2's."""
    s = state(two_boards_centre_wall(), 0, 5, 7)
    core = core_of(s)
    assert core.last_event()["attempt"]
    assert core.player_view(0)[7] == "#" and core.player_view(0)[10] == "."
    assert core.player_view(1)[7] == "." and core.player_view(1)[10] == "."


def test_a_decided_board_shows_every_space_locked_its_hidden_wall_too():
    """Black's line of 2 decides board 1: both players see the whole board
    locked (its hidden wall, and black's piece hidden from white, as '#'),
    while board 2's wall stays hidden; nothing on board 1 is offered."""
    s = state(two_boards_centre_wall(), 0, 5, 1)
    core = core_of(s)
    assert core.board_results()[0] == [1, -1] and core.board_results()[1] is None
    assert "".join(core.player_view(0)) == "xx#...###...###..."
    assert "".join(core.player_view(1)) == "###..o###...###..."
    assert all(s.action_to_string(1, a).startswith("white@b2:") for a in s.legal_actions())


def test_a_wall_on_an_open_space_is_seen_by_everyone():
    rs = _rs(
        "open-wall",
        **WALLS,
        board={"kind": "squares", "size": [3, 3, 1], "locked": [[2, 2, 1], [1, 1, 1]]},
        reserves={"black": 4, "white": 3},
        phases=[{"cloaked": [c for c in cells(3, 3) if c != [1, 1, 1]]}],
    )
    core = make_core(rs)
    for p in (0, 1):
        assert core.player_view(p)[0] == "#" and core.player_view(p)[4] == "."
    assert 0 not in core.legal_action_list() and 4 in core.legal_action_list()


def test_without_the_field_cloaked_walls_stay_visible():
    rs = _rs(
        "visible-walls",
        board={"kind": "squares", "size": [3, 3, 1], "locked": [[2, 2, 1]]},
        reserves={"black": 5, "white": 4},
        phases=[{"cloaked": cells(3, 3)}],
    )
    core = make_core(rs)
    assert core.player_view(0)[4] == "#" and 4 not in core.legal_action_list()
    assert "cloaking_hides_walls" not in rs.record


# -- validation ------------------------------------------------------------------


def test_the_field_is_written_only_when_true():
    on = CENTRE
    assert on.record["cloaking_hides_walls"] is True
    off = _rs(
        "off",
        cloaking_hides_walls=False,
        board={"kind": "squares", "size": [3, 3, 1], "locked": [[2, 2, 1]]},
        reserves={"black": 5, "white": 4},
        phases=[{"cloaked": cells(3, 3)}],
    )
    assert "cloaking_hides_walls" not in off.record


def test_the_field_is_accepted_on_several_boards():
    for boards in (2, 3):
        rs = rules.parse(dict(CENTRE.record, name=f"{boards}-boards", boards=boards))
        assert rs.record["cloaking_hides_walls"] is True and rs.record["boards"] == boards


@pytest.mark.parametrize(
    "fields, reason",
    [
        (dict(cloaking_hides_walls=1), "allowed: true, false"),
        (dict(cloaking="obscures"), "cloaking 'hides'"),
        (dict(phases=[{"cloaked": [[1, 1, 1]]}]), "a locked space"),
        (dict(board={"kind": "stacks", "size": [3, 1, 2], "locked": [[2, 1, 1]]}), "flat boards"),
        (dict(phases=[{"cloaked": cells(3, 3), "order": "simultaneous"}]), "sequential phases"),
        (
            dict(
                reserves={"black": {"x": 5}, "white": {"x": 4}},
                shapes={"x": {"move": "any", "power": "can-capture", "condition": "surround-line"}},
                move_limit=20,
            ),
            "no surrounds",
        ),
    ],
)
def test_refused_where_walls_are_not_hidden_or_not_built(fields, reason):
    rec = {
        "name": "bad",
        "board": {"kind": "squares", "size": [3, 3, 1], "locked": [[2, 2, 1]]},
        "cloaking": "hides",
        "cloaking_hides_walls": True,
        "turn_checks": [],
        "reserves": {"black": 5, "white": 4},
        "phases": [{"cloaked": cells(3, 3)}],
    }
    rec.update(fields)
    with pytest.raises(rules.RuleSetError, match="cloaking_hides_walls") as err:
        rules.parse(rec)
    assert reason in str(err.value)

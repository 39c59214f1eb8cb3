"""Setup and phases: each short game below is fully specified and checks
what docs/rules/ttt/phases.md says about phases (locked players skip their turns,
stalemate advances the phase, phase locks close spaces for entry and exit,
placement-only phases, the fold rule), about spaces some seats may not enter
or leave (per-player entry and exit locks, sticky and exclusive spaces, for
the whole game, per phase or per board) and about the move limit; validation
and the canonical form of those fields; rule sets of them compared move by
move with the reference model (tests/ttt_reference/) and run through
``pyspiel.random_sim_test`` with serialisation; and the check that no move
leaves a piece on a space its mover may not enter, shown able to fail.

Cells are x + X*(y + Y*z) from 0; on a 3x3 board without movement the pass
is action 9."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games  # noqa: F401  (registers ttt)
import ttt_records
import ttt_round_records
from games.ttt import make_core, rules
from games.ttt.schema import RuleSetError
from tiers import sweep
from ttt_checks import (
    EntryRules,
    assert_is_legal_agrees_with_legal_actions,
    assert_no_forbidden_entries,
    has_entry_limits,
    movers,
    new_core,
    parsed_or_rejected,
    play,
    play_against_reference,
    problems,
    random_sim_test_of,
    rule_set,
)
from ttt_reference import ReferenceState

PASS = 9
SQ = {"kind": "squares", "size": [3, 3, 1]}
NO_CHECKS = {"board": SQ, "turn_checks": []}  # the hand-played games' rule sets start from this
TWO_EACH = {**NO_CHECKS, "reserves": {"black": 2, "white": 2}}


# -- phases ------------------------------------------------------------------------------------


def test_stalemate_advances_the_phase_and_the_fold_rule_folds_the_uncommitted():
    # phase 1: all play; phase 2 locks cells 0 and 1 and folds the players with
    # fewer than the most pieces on them; phase 3: the folded player takes no
    # turns but still wins "most pieces".
    c = new_core(
        "P",
        NO_CHECKS,
        players="3",
        reserves={"black": 2, "white": 2, "pink": 2},
        stalemate="most-pieces-wins",
        phases=[
            {"pass": True},
            {"pass": True, "locked": [[1, 1, 1], [2, 1, 1]], "fold": "less-than-most-committed"},
            {"pass": True},
        ],
    )
    assert movers(c, [0, 1, 8, PASS, PASS, 7, PASS, PASS]) == [0, 1, 2, 0, 1, 2, 0, 1]
    assert c.current_phase() == 0
    movers(c, [PASS])  # three passes in a row: stalemate, phase 2
    assert c.current_phase() == 1 and c.player() == 0 and c.folded_players() == []
    assert c.cells()[:2] == [1, 2]  # the pieces stay on the locked cells
    assert 2 in c.legal_action_list() and 0 not in c.legal_action_list()
    assert movers(c, [PASS, PASS, PASS]) == [0, 1, 2]
    assert c.current_phase() == 2 and c.folded_players() == [2]
    assert movers(c, [PASS, PASS]) == [0, 1]  # pink folded: two passes end the last phase
    assert c.terminal() and c.ending() == "stalemate"
    assert c.returns_list() == [-1.0, -1.0, 1.0]  # pink: 2 pieces, the others 1


def test_locked_players_skip_their_turns_and_the_first_playing_seat_starts_a_phase():
    c = new_core(
        "P",
        NO_CHECKS,
        players="3",
        reserves={"black": 3, "white": 3, "pink": 3},
        phases=[{"pass": True, "locked_players": [1]}, {"pass": True, "locked_players": [2, 3]}],
    )
    assert movers(c, [0, 1, 2, 3, PASS, PASS]) == [1, 2, 1, 2, 1, 2]
    assert c.current_phase() == 1
    assert movers(c, [4, PASS]) == [0, 0]
    assert c.terminal()


def test_chaos_locked_for_a_phase_never_moves_in_it():
    c = new_core(
        "P",
        NO_CHECKS,
        players="2-vs-chaos",
        reserves={"black": 3, "white": 3, "pink": 3},
        phases=[{"pass": True, "locked_players": ["chaos"]}, {"locked_players": [1, 2]}],
    )
    assert movers(c, [0, 1, PASS, PASS]) == [0, 1, 0, 1]
    assert c.current_phase() == 1 and c.player() == -1
    assert [a for a, _ in c.chance_outcome_list()] == list(range(2, 9))


def test_placement_only_phase_then_movement_and_phase_locks_block_entry_and_exit():
    c = new_core(
        "P",
        NO_CHECKS,
        reserves={"black": 1, "white": 1},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=20,
        phases=[{"movement": "placement-only"}, {"locked": [[2, 1, 1], [3, 3, 1]]}],
    )
    move = lambda f, u: 9 + 9 * f + u
    movers(c, [0])
    assert c.legal_action_list() == [1, 2, 3, 4, 5, 6, 7, 8]
    movers(c, [4])
    # no reserves left and no movement in phase 1: stalemate advances the phase
    assert c.current_phase() == 1 and c.player() == 0
    assert c.legal_action_list() == [move(0, 3)]  # cell 1 is locked, cell 4 taken
    assert c.cells()[1] == -1 and c.cells()[8] == -1
    movers(c, [move(0, 3)])
    assert move(4, 8) not in c.legal_action_list() and move(4, 0) in c.legal_action_list()


def test_a_piece_on_a_phase_locked_space_cannot_leave_it():
    c = new_core(
        "P",
        NO_CHECKS,
        reserves={"black": 1, "white": 1},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=20,
        phases=[{"movement": "placement-only"}, {"locked": [[1, 1, 1]]}],
    )
    movers(c, [0, 8])
    assert c.current_phase() == 1
    # black's only piece sits on a locked cell and cannot move: stalemate in the last phase
    assert c.terminal() and c.ending() == "stalemate"


def test_stacks_phase_lock_closes_a_stack_at_the_locked_height():
    c = new_core(
        "S",
        board={"kind": "stacks", "size": [2, 1, 3]},
        reserves={"black": 3, "white": 3},
        turn_checks=[],
        phases=[{"locked": [[1, 1, 2]]}],
    )
    movers(c, [0])  # lands at height 1; height 2 is locked: stack 1 closes
    assert c.legal_action_list() == [1]


def test_validation_lists_every_phase_problem_at_once():
    msgs = problems(
        "P",
        TWO_EACH,
        phases=[
            {"fold": "everyone", "locked_players": [1, 2], "sticky": [[1, 1, 1]]},
            {
                "locked_players": [3, 1, 1],
                "cloaked": [[1, 1, 1]],
                "locked": [[4, 1, 1]],
                "fold": "less-than-most-committed",
                "colour": "x",
            },
        ],
    )
    assert "phases[0].fold: 'everyone' is not allowed (allowed: none, less-than-most-committed)" in msgs
    assert any(m.startswith("phases[0].locked_players: every seat is locked") for m in msgs)
    assert any(
        m.startswith("phases[0].sticky: only cloak and lock properties can change after phase 1")
        for m in msgs
    )
    assert "phases[1].locked_players[0]: 3 is not a seat of players='2' (allowed: 1, 2)" in msgs
    assert "phases[1].locked_players[2]: 1 is listed twice" in msgs
    assert any(m.startswith("phases[1].cloaked: cloaked spaces need a cloaking type") for m in msgs)
    assert any(m.startswith("phases[1].locked[0]: x=4 is off the board") for m in msgs)
    assert any(m.startswith("phases[1].fold: the last phase has no fold rule") for m in msgs)
    assert any(m.startswith("phases[1].colour: unknown field") for m in msgs)
    assert "phases: must be a list of 1 to 6 phase objects" in problems("P", TWO_EACH, phases=[{}] * 7)
    assert any(
        m.startswith("phases[0].locked[0]") and "board.locked" in m
        for m in problems(
            "P",
            TWO_EACH,
            board={"kind": "squares", "size": [3, 3, 1], "locked": [[1, 1, 1]]},
            phases=[{"locked": [[1, 1, 1]]}],
        )
    )
    assert any(
        "'chaos' is not a seat" in m for m in problems("P", TWO_EACH, phases=[{"locked_players": ["chaos"]}])
    )


def test_phases_are_in_the_canonical_form():
    a = rule_set(
        "A",
        NO_CHECKS,
        reserves={"black": 2, "white": 2, "pink": 2},
        players="3",
        phases=[{"locked_players": [3, 1], "locked": [[3, 3, 1], [1, 1, 1]]}, {}],
    )
    b = rule_set(
        "B",
        NO_CHECKS,
        reserves={"black": 2, "white": 2, "pink": 2},
        players="3",
        phases=[
            {
                "locked_players": [1, 3],
                "locked": [[1, 1, 1], [3, 3, 1]],
                "fold": "none",
                "order": "sequential",
            },
            {"pass": False},
        ],
    )
    c = rule_set(
        "C",
        NO_CHECKS,
        reserves={"black": 2, "white": 2, "pink": 2},
        players="3",
        phases=[{"locked_players": [1, 3], "locked": [[1, 1, 1], [3, 3, 1]]}],
    )
    assert a == b and a.fingerprint == b.fingerprint and a != c
    assert a.record["phases"][1] == {
        "order": "sequential",
        "pass": False,
        "movement": "allowed",
        "locked_players": [],
        "locked": [],
        "cloaked": [],
        "fold": "none",
    }


def test_a_phase_lock_limits_the_symmetries():
    rs = rule_set("P", TWO_EACH, phases=[{}, {"locked": [[1, 1, 1]]}])
    assert make_core(rs).symmetry_count() == 2  # the diagonal through (1,1,1) and the identity


def phase_rule_sets():
    """Rule sets of phases: locked players, per-phase locks, placement only,
    folds, stalemate advancing the phase."""
    base = {"board": SQ, "reserves": {"black": 5, "white": 4}}
    out = []

    def add(name, **kw):
        out.append(rule_set(name, base, **kw))

    add(
        "phases-fold",
        players="3",
        reserves={"black": 3, "white": 3, "pink": 3},
        turn_checks=[],
        stalemate="most-pieces-wins",
        phases=[
            {"pass": True, "fold": "less-than-most-committed"},
            {"pass": True, "locked": [[1, 1, 1], [2, 2, 1], [3, 3, 1]], "fold": "less-than-most-committed"},
            {"pass": True},
        ],
    )
    add(
        "phases-chaos-turns",
        players="2-vs-chaos",
        reserves={"black": 3, "white": 3, "pink": 3},
        phases=[
            {"pass": True, "locked_players": ["chaos"]},
            {"locked_players": [1, 2], "pass": True},
            {"locked_players": [2]},
        ],
        stalemate="most-in-a-row-wins",
    )
    add(
        "phases-movement",
        reserves={"black": 3, "white": 3},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=30,
        phases=[
            {"movement": "placement-only"},
            {"pass": True, "locked": [[2, 2, 1]], "locked_players": [2]},
            {"locked": [[1, 1, 1], [3, 3, 1]]},
        ],
        stalemate="all-win",
    )
    add(
        "phases-stacks",
        board={"kind": "stacks", "size": [3, 1, 3]},
        reserves={"black": 4, "white": 4},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=25,
        turn_checks=["first-3-wins-no-diagonal"],
        phases=[
            {"locked": [[2, 1, 2]], "fold": "less-than-most-committed"},
            {"pass": True, "locked": [[1, 1, 1], [3, 1, 2]]},
        ],
    )
    add(
        "phases-no-pass",
        board={"kind": "squares", "size": [4, 1, 1]},
        players="3",
        reserves={"black": 1, "white": 2, "pink": 1},
        turn_checks=[],
        phases=[{"locked": [[1, 1, 1], [2, 1, 1]]}, {"locked_players": [1]}, {}, {}, {}, {}],
        stalemate="least-in-a-row-loses",
    )
    return out


PHASE_RULE_SETS = phase_rule_sets()


@pytest.mark.parametrize("rs", PHASE_RULE_SETS, ids=lambda rs: rs.name)
def test_phase_rule_sets_match_reference(rs):
    play_against_reference(rs, games=sweep(full=60, quick=6), seed=hash(rs.name) % 1000)


@pytest.mark.slow
@pytest.mark.parametrize("rs", PHASE_RULE_SETS, ids=lambda rs: rs.name)
def test_phase_rule_sets_match_reference_long(rs):
    play_against_reference(rs, games=1500, seed=7)


@pytest.mark.parametrize("rs", PHASE_RULE_SETS, ids=lambda rs: rs.name)
def test_phase_rule_sets_is_legal_agrees_with_legal_actions(rs):
    assert_is_legal_agrees_with_legal_actions(rs, games=sweep(full=20, quick=2), seed=3)


@pytest.mark.parametrize("rs", PHASE_RULE_SETS, ids=lambda rs: rs.name)
def test_random_sim_test_on_phase_rule_sets(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=20, quick=1))


# -- spaces some seats may not enter or leave ------------------------------------------------


def space_rule_sets():
    out = []

    def add(name, **kw):
        out.append(rule_set(name, {"board": SQ, "reserves": {"black": 3, "white": 3}}, **kw))

    add(
        "sticky-adjacent",
        board=dict(SQ, sticky=[[2, 2, 1], [1, 1, 1]]),
        shapes={"circle": {"move": "adjacent"}},
        move_limit=30,
    )
    add(
        "exclusive-knight",
        board=dict(
            SQ,
            exclusive=[{"at": [[1, 2, 1], [2, 2, 1]], "players": [1]}, {"at": [[3, 3, 1]], "players": [2]}],
        ),
        shapes={"circle": {"move": "linear-or-knight"}},
        move_limit=30,
        stalemate="most-in-a-row-wins",
    )
    add(
        "seat-locks-pass",
        board=dict(
            SQ,
            entry_locked=[{"at": [[1, 1, 1], [3, 1, 1]], "players": [2]}],
            exit_locked=[{"at": [[2, 1, 1]], "players": [1]}],
        ),
        shapes={"circle": {"move": "adjacent-orthogonal"}},
        move_limit=30,
        phases=[{"pass": True}],
    )
    add(
        "exclusive-stacks-chaos",
        players="2-vs-chaos",
        board={
            "kind": "stacks",
            "size": [4, 1, 3],
            "exclusive": [
                {"at": [[1, 1]], "players": [1]},
                {"at": [[2, 1]], "players": [2]},
                {"at": [[4, 1]], "players": ["chaos"]},
            ],
        },
        reserves={"black": 3, "white": 3, "pink": 3},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=30,
        turn_checks=["first-3-wins-no-diagonal"],
        stalemate="most-pieces-wins",
    )
    add(
        "phase-seat-locks-fold",
        players="3",
        reserves={"black": 3, "white": 3, "pink": 3},
        turn_checks=[],
        stalemate="most-pieces-wins",
        shapes={"circle": {"move": "adjacent"}},
        move_limit=40,
        board=dict(SQ, sticky=[[1, 1, 1]], exclusive=[{"at": [[3, 3, 1]], "players": [3]}]),
        phases=[
            {
                "pass": True,
                "movement": "placement-only",
                "exit_locked": [{"at": [[2, 2, 1], [3, 1, 1]], "players": [1, 2]}],
                "fold": "less-than-most-committed",
            },
            {"pass": True, "entry_locked": [{"at": [[1, 3, 1]], "players": [3]}]},
        ],
    )
    add(
        "solo-exclusive",
        players="1-vs-chaos",
        reserves={"black": 4, "white": 4},
        board=dict(SQ, exclusive=[{"at": [[1, 1, 1], [2, 1, 1], [3, 1, 1]], "players": ["chaos"]}]),
        shapes={"circle": {"move": "adjacent"}},
        move_limit=20,
    )
    return out


SPACES = space_rule_sets()


def test_exclusive_spaces_take_only_their_players_pieces():
    c = new_core(
        "S",
        NO_CHECKS,
        board=dict(SQ, exclusive=[{"at": [[1, 1, 1]], "players": [1]}, {"at": [[2, 1, 1]], "players": [2]}]),
        reserves={"black": 3, "white": 3},
    )
    assert 0 in c.legal_action_list() and 1 not in c.legal_action_list()
    c.apply_action(4)
    assert 1 in c.legal_action_list() and 0 not in c.legal_action_list()
    with pytest.raises(ValueError):
        c.clone().apply_action(0)


def test_sticky_pieces_cannot_leave_but_pieces_may_enter_and_pass_over():
    """A sticky space holds its piece but not a line move over it: with line moves
    over pieces, black passes over the sticky space and white's piece."""
    line = {"kind": "squares", "size": [4, 1, 1]}
    knight = {"circle": {"move": "linear-or-knight"}}
    T = 4
    c = new_core(
        "S",
        NO_CHECKS,
        board=dict(line, sticky=[[1, 1, 1]]),
        reserves={"black": 1, "white": 1},
        shapes=knight,
        move_limit=10,
        line_moves="over-pieces",
    )
    c.apply_action(0)  # black onto the sticky (1,1,1)
    c.apply_action(3)  # white onto (4,1,1)
    assert c.terminal() and c.ending() == "stalemate"  # black's only piece cannot leave
    c = new_core(
        "S",
        NO_CHECKS,
        board=dict(line, sticky=[[2, 1, 1]]),
        reserves={"black": 1, "white": 1},
        shapes=knight,
        move_limit=10,
        line_moves="over-pieces",
    )
    c.apply_action(0)  # black (1,1,1)
    c.apply_action(2)  # white (3,1,1)
    legal = c.legal_action_list()
    assert T + 0 * T + 1 in legal  # black may enter the sticky space
    assert T + 0 * T + 3 in legal  # and may pass over it and the white piece
    c.apply_action(T + 0 * T + 1)
    c.apply_action(T + 2 * T + 0)  # white moves over the sticky space to (1,1,1)
    assert c.terminal() and c.ending() == "stalemate"  # black is stuck on (2,1,1)


def test_per_player_entry_and_exit_locks():
    c = new_core(
        "S",
        NO_CHECKS,
        board=dict(
            SQ,
            entry_locked=[{"at": [[1, 1, 1]], "players": [2]}],
            exit_locked=[{"at": [[2, 1, 1]], "players": [1]}],
        ),
        reserves={"black": 1, "white": 1},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=20,
    )
    c.apply_action(1)  # black on (2,1,1), its exit locked for black
    assert 0 not in c.legal_action_list()  # white may not enter (1,1,1)
    c.apply_action(8)
    assert c.legal_action_list() == [] or c.terminal()  # black's only piece cannot leave
    assert c.terminal() and c.ending() == "stalemate"


def test_exclusive_stacks_follow_the_landing_cell():
    # the specification's "first stack exclusive to black": [x, y] names the whole stack
    c = new_core(
        "S",
        NO_CHECKS,
        board={
            "kind": "stacks",
            "size": [2, 1, 2],
            "exclusive": [{"at": [[1, 1]], "players": [1]}],
            "entry_locked": [{"at": [[2, 1, 2]], "players": [1]}],
        },
        reserves={"black": 2, "white": 2},
    )
    assert c.legal_action_list() == [0, 1]
    c.apply_action(1)  # black onto stack 2 (height 1)
    assert c.legal_action_list() == [1]  # white: only stack 2
    c.apply_action(1)
    assert c.legal_action_list() == [0]  # stack 2 full; stack 1 is black's


def test_fold_counts_pieces_on_spaces_locked_against_exit():
    # sticky (1,1,1); (3,3,1) exclusive to white; (2,2,1) and (2,1,1) locked
    # against exit for black only. Black places on (1,1,1) and (2,2,1): 2
    # committed. White's piece on its own exclusive space may leave, its other
    # piece is on a free space: 0. Pink's piece on (2,1,1) is locked only for
    # black: 0. So white and pink fold; with no per-player locks none would.
    c = new_core(
        "S",
        NO_CHECKS,
        players="3",
        reserves={"black": 2, "white": 2, "pink": 2},
        stalemate="most-pieces-wins",
        shapes={"circle": {"move": "adjacent"}},
        move_limit=40,
        board=dict(
            SQ,
            sticky=[[1, 1, 1]],
            exclusive=[{"at": [[3, 3, 1]], "players": [2]}],
            exit_locked=[{"at": [[2, 2, 1], [2, 1, 1]], "players": [1]}],
        ),
        phases=[
            {"pass": True, "movement": "placement-only", "fold": "less-than-most-committed"},
            {"pass": True},
        ],
    )
    PASS = c.num_actions - 1
    for a in [0, 8, 1, 4, 2, PASS, PASS, PASS]:
        c.apply_action(a)
    assert c.current_phase() == 1 and c.folded_players() == [1, 2]
    assert c.player() == 0


def test_fold_counts_the_ending_phases_exit_locks():
    # the exit lock on (1,1,1) for white exists only in phase 1, so white's
    # piece there is committed at the end of phase 1 and black (0) folds
    c = new_core(
        "S",
        NO_CHECKS,
        reserves={"black": 2, "white": 2},
        stalemate="most-pieces-wins",
        phases=[
            {
                "pass": True,
                "exit_locked": [{"at": [[1, 1, 1]], "players": [2]}],
                "fold": "less-than-most-committed",
            },
            {"pass": True},
        ],
    )
    for a in [4, 0, 9, 9]:
        c.apply_action(a)
    assert c.current_phase() == 1 and c.folded_players() == [0]


def test_validation_lists_every_space_problem():
    with pytest.raises(rules.RuleSetError) as info:
        rules.parse(
            {
                "name": "S",
                "players": "2-vs-chaos",
                "reserves": {"black": 2, "white": 2},
                "board": {
                    "kind": "squares",
                    "size": [3, 3, 1],
                    "locked": [[3, 3, 1]],
                    "sticky": [[1, 1, 1], [1, 1, 1], [3, 3, 1]],
                    "exclusive": [
                        {"at": [[2, 2, 1]], "players": [3]},
                        {"at": [[2, 1, 1]], "players": [1, 2, "chaos"]},
                        {"at": [], "players": [1], "extra": 1},
                    ],
                    "entry_locked": [{"at": [[9, 9, 9]], "players": []}],
                },
                "phases": [{"exclusive": [], "exit_locked": "all"}],
            }
        )
    problems = info.value.problems
    expected = [
        "board.sticky[1]: [1, 1, 1] is listed twice",
        "board.sticky[2]: [3, 3, 1] is locked for the whole game already",
        "board.exclusive[0].players[0]: 3 is not a seat of players='2-vs-chaos' (allowed: 1, 2, chaos)",
        "board.exclusive: [2, 1, 1] is exclusive to every seat",
        "board.exclusive[2].extra: unknown field",
        "board.exclusive[2].at: must be a non-empty list",
        "board.entry_locked[0].players: must be a non-empty list",
        "board.entry_locked[0].at[0]: x=9 is off the board",
        "phases[0].exclusive: only cloak and lock properties can change after phase 1",
        "phases[0].exit_locked: must be a list",
    ]
    for e in expected:
        assert any(p.startswith(e) for p in problems), (e, problems)
    assert len(problems) == len(expected)


def test_canonical_form_is_one_form_for_the_same_locks():
    a = rule_set(
        "S",
        NO_CHECKS,
        reserves={"black": 2, "white": 2},
        board={
            "kind": "stacks",
            "size": [2, 1, 2],
            "exclusive": [{"at": [[1, 1]], "players": [1]}],
            "entry_locked": [{"at": [[2, 1, 1]], "players": [2, 1]}, {"at": [[2, 1, 2]], "players": [1, 2]}],
        },
    )
    b = rules.parse(
        {
            "name": "Other",
            "turn_checks": [],
            "reserves": {"black": 2, "white": 2},
            "board": {
                "kind": "stacks",
                "size": [2, 1, 2],
                "exclusive": [{"players": [1], "at": [[1, 1, 2], [1, 1, 1]]}],
                "entry_locked": [{"at": [[2, 1]], "players": [1, 2]}],
            },
        }
    )
    assert a == b and a.fingerprint == b.fingerprint
    assert a.record["board"]["entry_locked"] == [{"at": [[2, 1, 1], [2, 1, 2]], "players": [1, 2]}]
    # a rule set without space locks has none of their fields in its canonical form
    plain = rule_set("S", NO_CHECKS, reserves={"black": 2, "white": 2})
    assert not {"sticky", "exclusive", "entry_locked", "exit_locked"} & set(plain.record["board"])
    assert "entry_locked" not in plain.record["phases"][0]
    assert plain != rule_set(
        "S", NO_CHECKS, reserves={"black": 2, "white": 2}, board=dict(SQ, sticky=[[1, 1, 1]])
    )


def test_symmetries_keep_the_locks_in_place():
    assert make_core(rule_set("S", NO_CHECKS, reserves={"black": 2, "white": 2})).symmetry_count() == 8
    sticky_corner = make_core(
        rule_set("S", NO_CHECKS, reserves={"black": 2, "white": 2}, board=dict(SQ, sticky=[[1, 1, 1]]))
    )
    assert sticky_corner.symmetry_count() == 2  # the diagonal through (1,1,1)
    excl = make_core(
        rule_set(
            "S",
            NO_CHECKS,
            reserves={"black": 2, "white": 2},
            board=dict(SQ, exclusive=[{"at": [[2, 2, 1]], "players": [1]}]),
        )
    )
    assert excl.symmetry_count() == 8


@pytest.mark.parametrize("rs", SPACES, ids=lambda rs: rs.name)
def test_space_rule_sets_match_reference(rs):
    play_against_reference(rs, games=sweep(full=80, quick=7), seed=5)


@pytest.mark.slow
@pytest.mark.parametrize("rs", SPACES, ids=lambda rs: rs.name)
def test_space_rule_sets_match_reference_long(rs):
    play_against_reference(rs, games=1500, seed=8)


@pytest.mark.parametrize("rs", SPACES, ids=lambda rs: rs.name)
def test_random_sim_test_on_space_rule_sets(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=20, quick=1))


@pytest.mark.parametrize("rs", SPACES[:3], ids=lambda rs: rs.name)
def test_solver_and_uct_run_on_space_rule_sets(rs, tmp_path):
    from solvers.exhaustive import solve

    uct = pytest.importorskip("mcts.uct")
    path = tmp_path / f"{rs.name}.json"
    path.write_text(json.dumps(rs.to_json()))
    result = solve(f"ttt(rules={path})", tt_log2=20)
    assert result["complete"] and -1.0 <= result["value"] <= 1.0
    c = make_core(rs)
    assert uct.UCTSearch(uct_c=1.4, max_simulations=200, seed=1).search(c)["action"] in c.legal_action_list()


# -- spaces per board ------------------------------------------------------------------------

TWO_BOARDS = {
    "board": {"kind": "squares", "size": [2, 2, 1]},
    "boards": 2,
    "reserves": {"black": 2, "white": 2},
    "turn_checks": [],
}


def test_every_writing_of_the_same_spaces_has_one_canonical_form():
    """An entry for every board is the board's own field; boards with the
    same extra spaces share an entry; entry order does not matter."""
    excl = [{"at": [[1, 1, 1]], "players": [1]}]
    a = rule_set("T", TWO_BOARDS, board={"kind": "squares", "size": [2, 2, 1], "exclusive": excl})
    b = rule_set(
        "T",
        TWO_BOARDS,
        board={"kind": "squares", "size": [2, 2, 1], "on_boards": [{"boards": [2, 1], "exclusive": excl}]},
    )
    assert a == b and "on_boards" not in b.record["board"]
    c = rule_set(
        "T",
        TWO_BOARDS,
        boards=3,
        board={
            "kind": "squares",
            "size": [2, 2, 1],
            "on_boards": [{"boards": [3], "locked": [[2, 2, 1]]}, {"boards": [1], "locked": [[2, 2, 1]]}],
        },
    )
    d = rule_set(
        "T",
        TWO_BOARDS,
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
        rule_set("T", TWO_BOARDS, **fields)
    assert words in str(e.value)


def test_bos_spaces_differ_between_boards():
    """BoS: '(2,1) of 1 and (2,2) of 2 exclusive to chaos, and remainin spaces are locked'."""
    core = make_core("BoS")
    ref = ReferenceState(rules.resolve("BoS"))
    assert ref.locked == {(1, 1, 0), (3, 0, 0)}  # board 1's (2,2), board 2's (2,1)
    assert ref.exclusive[(1, 0, 0)] == {2} and ref.exclusive[(3, 1, 0)] == {2}  # chaos is seat 2
    assert "#" in core.to_string()


PER_BOARD_CASES = {
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


@pytest.mark.parametrize("name", sorted(PER_BOARD_CASES))
def test_sequential_games_agree_with_the_reference(name):
    play_against_reference(
        rule_set("T", TWO_BOARDS, **PER_BOARD_CASES[name]), games=sweep(full=40, quick=5), seed=5
    )


def test_cloaked_games_agree_with_the_reference():
    fields = dict(
        PER_BOARD_CASES["seq-stacks"],
        cloaking="hides",
        phases=[{"cloaked": [[x, 1, z] for x in (1, 2) for z in (1, 2, 3)]}],
    )
    play_against_reference(rule_set("T", TWO_BOARDS, **fields), games=sweep(full=40, quick=5), seed=6)


@pytest.mark.parametrize("name", ["BoS", "3P-BoS"])
def test_bos_games_agree_with_the_reference(name):
    play_against_reference(rules.resolve(name), games=sweep(full=60, quick=7), seed=7)


def test_simultaneous_rounds_agree_with_the_reference():
    fields = dict(
        PER_BOARD_CASES["chaos"],
        phases=[{"order": "simultaneous", "locked_players": ["chaos"]}, {"locked_players": [1, 2]}],
    )
    play_against_reference(rule_set("T", TWO_BOARDS, **fields), games=sweep(full=60, quick=7), seed=8)


# -- the move limit --------------------------------------------------------------------------


def test_move_limit_ends_under_the_stalemate_rule():
    rec = dict(rules.catalogue()["Tapatan"].to_json(), move_limit=7, stalemate="all-win")
    c = play(new_core("t", rec), [0, 4, 8, 2, 6, 3])
    c.apply_action(9 + 8 * 9 + 5)
    assert c.terminal() and c.ending() == "move limit" and c.returns_list() == [1.0, 1.0]


# -- no move leaves a piece on a space its mover may not enter -------------------------------
# The random rule-set generators draw no such spaces of their own; here their
# records get them (``ttt_records.draw_forbidden_spaces``), random games are
# played on the engine, and after every ply and every round each arrival is
# checked against ``ttt_checks.EntryRules``, which reads who may enter what
# from the record itself, not from the engine's tables.

# name -> (generator, examples): the counts keep this to a few seconds of the default tier
GENERATORS = {
    "shapes": (ttt_records.shaped_records, 25),
    "captures": (ttt_records.capture_records, 25),
    "capture-rounds": (ttt_records.capture_round_records, 15),
    "jumps": (ttt_records.jump_records, 25),
    "stacks": (ttt_records.stack_records, 25),
    "stack-jumps": (ttt_records.stack_jump_records, 15),
    "stack-powers": (ttt_records.stack_power_records, 15),
    "chain-back": (ttt_records.back_records, 15),
    "jump-rounds": (ttt_records.jump_round_records, 15),
    "potshow": (ttt_records.showdown_records, 15),
    "move-rounds": (ttt_round_records.move_round_records, 15),
}


@st.composite
def with_forbidden_spaces(draw, generator):
    return ttt_records.draw_forbidden_spaces(draw, draw(generator()))


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_no_piece_arrives_where_its_mover_may_not_enter(name):
    """After every ply and round of random games of each generator's rule sets
    (with forbidden spaces added), every arrival is one its mover may make;
    at least a third of the examples limit entry somewhere, and in some
    plies a seat to move had a cell it could not enter."""
    _sweep(name, 1)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_no_piece_arrives_where_its_mover_may_not_enter_slow(name):
    """The same with ten times the examples, new ones on every run."""
    _sweep(name, 10)


def _sweep(name, factor):
    generator, examples = GENERATORS[name]
    examples *= factor
    seen = {"examples": 0, "limited": 0, "guarded": 0, "arrivals": 0}

    # the default run is derandomized: the same examples every time, so the
    # share of limiting examples asserted below cannot fail by chance
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=factor == 1,
        suppress_health_check=list(HealthCheck),
    )
    @given(with_forbidden_spaces(generator), st.integers(0, 10**6))
    def run(rec, seed):
        rs = parsed_or_rejected(rec)
        seen["examples"] += 1
        seen["limited"] += has_entry_limits(rs)
        stats = assert_no_forbidden_entries(rs, games=2, seed=seed)
        seen["guarded"] += stats["guarded"]
        seen["arrivals"] += stats["arrivals"]

    run()
    print(name, seen)
    assert seen["limited"] * 3 >= seen["examples"], seen
    assert seen["guarded"] > 0 and seen["arrivals"] > 0, seen


# -- the checker itself


def _locked_rs(**board):
    return rules.parse(
        {
            "name": "locks",
            "board": {"kind": "squares", "size": [3, 1, 1], **board},
            "reserves": {"black": 2, "white": 2},
            "move_limit": 9,
        }
    )


def test_entry_rules_read_every_kind_of_space():
    """Hand-read answers: a game lock, a phase lock, exclusive spaces (to a
    seat and to Chaos), a seat's entry lock; sticky and exit locks do not stop
    entry."""
    rs = rules.parse(
        {
            "name": "kinds",
            "players": "2-vs-chaos",
            "reserves": {"black": 2, "white": 2, "pink": 2},
            "move_limit": 20,
            "board": {
                "kind": "squares",
                "size": [4, 2, 1],
                "locked": [[1, 1, 1]],
                "sticky": [[4, 2, 1]],
                "exclusive": [{"at": [[2, 1, 1]], "players": [1]}, {"at": [[3, 1, 1]], "players": ["chaos"]}],
                "entry_locked": [{"at": [[4, 1, 1]], "players": [2]}],
                "exit_locked": [{"at": [[3, 2, 1]], "players": [1]}],
            },
            "phases": [{"locked": [[1, 2, 1]]}, {"entry_locked": [{"at": [[2, 2, 1]], "players": [1]}]}],
        }
    )
    er = EntryRules(rs)
    game = {(1, 1, 1)}
    assert er.off_limits(0, 0) == game | {(3, 1, 1), (1, 2, 1)}
    assert er.off_limits(1, 0) == game | {(2, 1, 1), (3, 1, 1), (4, 1, 1), (1, 2, 1)}
    assert er.off_limits(2, 0) == game | {(2, 1, 1), (1, 2, 1)}  # Chaos: seat 2
    assert er.off_limits(0, 1) == game | {(3, 1, 1), (2, 2, 1)}
    assert er.may_enter(0, (4, 2, 1), 0) and er.may_enter(0, (3, 2, 1), 0)


def test_violations_finds_an_arrival_on_a_forbidden_cell():
    """A hand-made ply onto the locked cell, and one onto a cell exclusive to
    the other seat, are reported; a placement on an open cell is not; in a
    round the owners of the colour are the movers."""
    rs = _locked_rs(locked=[[2, 1, 1]], exclusive=[{"at": [[3, 1, 1]], "players": [2]}])
    er = EntryRules(rs)
    owner = lambda b, w, colour: {colour}
    assert er.violations([0, -1, 0], [0, 1, 0], {0}, 0) == [(0, (2, 1, 1), 0, [0])]
    assert er.violations([0, -1, 0], [0, -1, 1], {0}, 0) == [(0, (3, 1, 1), 0, [0])]
    assert er.violations([0, -1, 0], [0, -1, 2], {1}, 0) == []
    assert er.violations([0, -1, 0], [0, -1, 2], owner, 0) == []  # white is seat 1's
    assert er.violations([0, -1, 0], [0, -1, 1], owner, 0) == [(0, (3, 1, 1), 0, [0])]
    assert er.violations([0, -1, 0], [1, -1, 0], {0}, 0) == []
    assert er.violations([2, -1, 0], [1, -1, 0], {0}, 0, target=(0, (3, 1, 1))) == [(0, (3, 1, 1), None, [0])]


def test_entry_rules_repeat_spaces_on_every_board():
    rs = rules.parse(
        {
            "name": "b2",
            "boards": 2,
            "board": {"kind": "squares", "size": [2, 1, 1], "locked": [[2, 1, 1]]},
            "reserves": {"black": 2, "white": 2},
        }
    )
    er = EntryRules(rs)
    assert [er.place(c) for c in range(4)] == [(0, (1, 1, 1)), (0, (2, 1, 1)), (1, (1, 1, 1)), (1, (2, 1, 1))]
    assert er.violations([0, -1, 0, -1], [0, -1, 0, 1], {0}, 0) == [(1, (2, 1, 1), 0, [0])]


def test_violations_finds_a_floating_piece_on_stacks():
    rs = rules.parse(
        {"name": "st", "board": {"kind": "stacks", "size": [2, 1, 2]}, "reserves": {"black": 2, "white": 2}}
    )
    er = EntryRules(rs)
    assert er.violations([0, 0, 0, 0], [0, 0, 1, 0], {0}, 0) == [(0, (1, 1, 2), 0, "floating")]
    assert er.violations([1, 0, 0, 0], [1, 0, 2, 0], {1}, 0) == []


@pytest.mark.parametrize(
    "board",
    [
        {"locked": [[2, 2, 1]]},
        {"exclusive": [{"at": [[1, 1, 1], [2, 2, 1], [3, 3, 1]], "players": [2]}]},
        {"entry_locked": [{"at": [[2, 2, 1], [1, 3, 1]], "players": [1]}]},
    ],
    ids=["locked", "exclusive", "entry-locked"],
)
def test_the_check_fails_on_an_engine_that_ignores_the_locks(board):
    """The deliberately broken engine: the game is played on a copy of the
    rule set without its locks, the check reads the rule set with them; in
    random games black soon places on a forbidden space, which the check
    must report."""

    def rec(extra):
        return {
            "name": "broken",
            "board": {"kind": "squares", "size": [3, 3, 1], **extra},
            "reserves": {"black": 5, "white": 5},
            "move_limit": 20,
        }

    locked, unlocked = rules.parse(rec(board)), rules.parse(rec({}))
    with pytest.raises(AssertionError):
        assert_no_forbidden_entries(unlocked, games=40, seed=1, entry_rules=EntryRules(locked))
    stats = assert_no_forbidden_entries(locked, games=40, seed=1)
    assert stats["guarded"] > 0 and stats["arrivals"] > 0


def test_the_check_fails_on_a_phase_lock_ignored():
    """A per-phase lock ignored by a broken engine is reported too (the first
    phase locks the centre and black's entry to a corner; the unlocked copy
    lets pieces in)."""

    def rec(ph):
        return {
            "name": "ph",
            "board": {"kind": "squares", "size": [3, 3, 1]},
            "reserves": {"black": 5, "white": 5},
            "move_limit": 20,
            "phases": [ph, {}],
        }

    for ph in [{"locked": [[2, 2, 1]]}, {"entry_locked": [{"at": [[1, 1, 1]], "players": [1]}]}]:
        with pytest.raises(AssertionError):
            assert_no_forbidden_entries(
                rules.parse(rec({})), games=60, seed=2, entry_rules=EntryRules(rules.parse(rec(ph)))
            )


def test_generated_records_with_spaces_are_accepted():
    """Of the generated records validation accepts, most stay accepted with
    the spaces added (a lock validation refuses is rare), so the property
    plays games rather than rejecting examples."""
    seen = {"base": 0, "with_spaces": 0}

    def parses(rec):
        try:
            rules.parse(rec)
            return True
        except rules.RuleSetError:
            return False

    @st.composite
    def pairs(draw):
        rec = draw(ttt_records.shaped_records())
        return rec, ttt_records.draw_forbidden_spaces(draw, rec)

    @settings(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(pairs())
    def run(pair):
        if parses(pair[0]):
            seen["base"] += 1
            seen["with_spaces"] += parses(pair[1])

    run()
    assert seen["base"] >= 10 and seen["with_spaces"] * 3 >= seen["base"] * 2, seen

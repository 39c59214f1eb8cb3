"""Phases (issue 11 item 1): each short game below is fully specified and
checks what docs/rules/ttt.md says about phases: locked players skip their
turns, stalemate advances the phase, phase locks close spaces for entry and
exit, placement-only phases, the fold rule, and validation of the phase
fields. Cells are x + X*(y + Y*z) from 0; on a 3x3 board without movement the
pass is action 9."""

import pytest

import games  # noqa: F401  (registers ttt)
from games.ttt import make_core, rules
from test_ttt_reference import synthetic
from ttt_checks import random_sim_test_of

PASS = 9
BASE = {"name": "P", "board": {"kind": "squares", "size": [3, 3, 1]}, "turn_checks": []}


def core(**fields):
    rec = dict(BASE)
    rec.update(fields)
    return make_core(rules.parse(rec))


def play(c, actions):
    """Apply ``actions``; returns who moved at each step."""
    movers = []
    for a in actions:
        movers.append(c.player())
        c.apply_action(a)
    return movers


def problems(**fields):
    rec = dict(BASE, reserves={"black": 2, "white": 2})
    rec.update(fields)
    with pytest.raises(rules.RuleSetError) as info:
        rules.parse(rec)
    return info.value.problems


def test_stalemate_advances_the_phase_and_the_fold_rule_folds_the_uncommitted():
    # phase 1: all play; phase 2 locks cells 0 and 1 and folds the players with
    # fewer than the most pieces on them; phase 3: the folded player takes no
    # turns but still wins "most pieces".
    c = core(
        players="3",
        reserves={"black": 2, "white": 2, "pink": 2},
        stalemate="most-pieces-wins",
        phases=[
            {"pass": True},
            {"pass": True, "locked": [[1, 1, 1], [2, 1, 1]], "fold": "less-than-most-committed"},
            {"pass": True},
        ],
    )
    assert play(c, [0, 1, 8, PASS, PASS, 7, PASS, PASS]) == [0, 1, 2, 0, 1, 2, 0, 1]
    assert c.current_phase() == 0
    play(c, [PASS])  # three passes in a row: stalemate, phase 2
    assert c.current_phase() == 1 and c.player() == 0 and c.folded_players() == []
    assert c.cells()[:2] == [1, 2]  # the pieces stay on the locked cells
    assert 2 in c.legal_action_list() and 0 not in c.legal_action_list()
    assert play(c, [PASS, PASS, PASS]) == [0, 1, 2]
    assert c.current_phase() == 2 and c.folded_players() == [2]
    assert play(c, [PASS, PASS]) == [0, 1]  # pink folded: two passes end the last phase
    assert c.terminal() and c.ending() == "stalemate"
    assert c.returns_list() == [-1.0, -1.0, 1.0]  # pink: 2 pieces, the others 1


def test_locked_players_skip_their_turns_and_the_first_playing_seat_starts_a_phase():
    c = core(
        players="3",
        reserves={"black": 3, "white": 3, "pink": 3},
        phases=[{"pass": True, "locked_players": [1]}, {"pass": True, "locked_players": [2, 3]}],
    )
    assert play(c, [0, 1, 2, 3, PASS, PASS]) == [1, 2, 1, 2, 1, 2]
    assert c.current_phase() == 1
    assert play(c, [4, PASS]) == [0, 0]
    assert c.terminal()


def test_chaos_locked_for_a_phase_never_moves_in_it():
    c = core(
        players="2-vs-chaos",
        reserves={"black": 3, "white": 3, "pink": 3},
        phases=[{"pass": True, "locked_players": ["chaos"]}, {"locked_players": [1, 2]}],
    )
    assert play(c, [0, 1, PASS, PASS]) == [0, 1, 0, 1]
    assert c.current_phase() == 1 and c.player() == -1
    assert [a for a, _ in c.chance_outcome_list()] == list(range(2, 9))


def test_placement_only_phase_then_movement_and_phase_locks_block_entry_and_exit():
    c = core(
        reserves={"black": 1, "white": 1},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=20,
        phases=[{"movement": "placement-only"}, {"locked": [[2, 1, 1], [3, 3, 1]]}],
    )
    move = lambda f, u: 9 + 9 * f + u
    play(c, [0])
    assert c.legal_action_list() == [1, 2, 3, 4, 5, 6, 7, 8]
    play(c, [4])
    # no reserves left and no movement in phase 1: stalemate advances the phase
    assert c.current_phase() == 1 and c.player() == 0
    assert c.legal_action_list() == [move(0, 3)]  # cell 1 is locked, cell 4 taken
    assert c.cells()[1] == -1 and c.cells()[8] == -1
    play(c, [move(0, 3)])
    assert move(4, 8) not in c.legal_action_list() and move(4, 0) in c.legal_action_list()


def test_a_piece_on_a_phase_locked_space_cannot_leave_it():
    c = core(
        reserves={"black": 1, "white": 1},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=20,
        phases=[{"movement": "placement-only"}, {"locked": [[1, 1, 1]]}],
    )
    play(c, [0, 8])
    assert c.current_phase() == 1
    # black's only piece sits on a locked cell and cannot move: stalemate in the last phase
    assert c.terminal() and c.ending() == "stalemate"


def test_stacks_phase_lock_closes_a_stack_at_the_locked_height():
    c = make_core(
        rules.parse(
            {
                "name": "S",
                "board": {"kind": "stacks", "size": [2, 1, 3]},
                "reserves": {"black": 3, "white": 3},
                "turn_checks": [],
                "phases": [{"locked": [[1, 1, 2]]}],
            }
        )
    )
    play(c, [0])  # lands at height 1; height 2 is locked: stack 1 closes
    assert c.legal_action_list() == [1]


def test_validation_lists_every_phase_problem_at_once():
    msgs = problems(
        phases=[
            {"fold": "everyone", "locked_players": [1, 2], "sticky": [[1, 1, 1]]},
            {
                "locked_players": [3, 1, 1],
                "cloaked": [[1, 1, 1]],
                "locked": [[4, 1, 1]],
                "fold": "less-than-most-committed",
                "colour": "x",
            },
        ]
    )
    joined = "\n".join(msgs)
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
    assert "phases: must be a list of 1 to 6 phase objects" in problems(phases=[{}] * 7)
    assert any(
        m.startswith("phases[0].locked[0]") and "board.locked" in m
        for m in problems(
            board={"kind": "squares", "size": [3, 3, 1], "locked": [[1, 1, 1]]},
            phases=[{"locked": [[1, 1, 1]]}],
        )
    )
    assert any("'chaos' is not a seat" in m for m in problems(phases=[{"locked_players": ["chaos"]}]))


def test_phases_are_in_the_canonical_form():
    a = rules.parse(
        dict(
            BASE,
            name="A",
            reserves={"black": 2, "white": 2, "pink": 2},
            players="3",
            phases=[{"locked_players": [3, 1], "locked": [[3, 3, 1], [1, 1, 1]]}, {}],
        )
    )
    b = rules.parse(
        dict(
            BASE,
            name="B",
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
    )
    c = rules.parse(
        dict(
            BASE,
            name="C",
            reserves={"black": 2, "white": 2, "pink": 2},
            players="3",
            phases=[{"locked_players": [1, 3], "locked": [[1, 1, 1], [3, 3, 1]]}],
        )
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
    rs = rules.parse(dict(BASE, reserves={"black": 2, "white": 2}, phases=[{}, {"locked": [[1, 1, 1]]}]))
    assert make_core(rs).symmetry_count() == 2  # the diagonal through (1,1,1) and the identity


@pytest.mark.parametrize(
    "rs", [r for r in synthetic() if r.name.startswith("phases-")], ids=lambda rs: rs.name
)
def test_random_sim_test_on_phase_rule_sets(rs, tmp_path):
    random_sim_test_of(rs, tmp_path, num_sims=20)

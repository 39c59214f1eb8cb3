"""Issue 12's check "no move leaves a piece on a space it may not enter",
made able to fail.

The random rule-set generators of issue 12 (shapes, captures, jumps, stacks,
stack powers, chain-back, potshow, rounds) drew no locked, exclusive, sticky
or entry-locked spaces, so an assertion that no piece stands on a locked cell
held without testing anything. Here each generator's records get such spaces
(``ttt_checks.draw_forbidden_spaces``), random games are played on the engine,
and after every ply and every round each arrival is checked against
``ttt_checks.EntryRules``, which reads who may enter what from the record
itself, not from the engine's tables. The checker is shown to fail on an
engine that ignores the locks, and the generators are shown to make such
spaces in a fair share of examples."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import test_ttt_captures
import test_ttt_chainback
import test_ttt_jumps
import test_ttt_potshow
import test_ttt_rounds
import test_ttt_shapes
import test_ttt_stack_jumps
import test_ttt_stack_powers
import test_ttt_stacks
from games.ttt import rules
from ttt_checks import (
    EntryRules,
    assert_no_forbidden_entries,
    draw_forbidden_spaces,
    has_entry_limits,
    parsed_or_rejected,
)

# name -> (generator of issue 12's hypothesis tests, examples): the counts keep
# the whole file to a few seconds of the default suite
GENERATORS = {
    "shapes": (test_ttt_shapes.shaped_records, 25),
    "captures": (test_ttt_captures.capture_records, 25),
    "capture-rounds": (test_ttt_captures.round_records, 15),
    "jumps": (test_ttt_jumps.jump_records, 25),
    "stacks": (test_ttt_stacks.stack_records, 25),
    "stack-jumps": (test_ttt_stack_jumps.stack_jump_records, 15),
    "stack-powers": (test_ttt_stack_powers.records, 15),
    "chain-back": (test_ttt_chainback.back_records, 15),
    "jump-rounds": (test_ttt_chainback.jump_round_records, 15),
    "potshow": (test_ttt_potshow.records, 15),
    "move-rounds": (test_ttt_rounds.move_round_records, 15),
}


@st.composite
def with_forbidden_spaces(draw, generator):
    return draw_forbidden_spaces(draw, draw(generator()))


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


# -- the checker itself --------------------------------------------------------------
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
        rec = draw(test_ttt_shapes.shaped_records())
        return rec, draw_forbidden_spaces(draw, rec)

    @settings(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(pairs())
    def run(pair):
        if parses(pair[0]):
            seen["base"] += 1
            seen["with_spaces"] += parses(pair[1])

    run()
    assert seen["base"] >= 10 and seen["with_spaces"] * 3 >= seen["base"] * 2, seen

"""The stalemate rule "Last K-same-color-in-a-row wins" (docs/rules/ttt/outcomes.md,
"Last K-in-a-row wins"): hand-played games where the last line decides, no line
drawing, the state it keeps (clones and pickles), validation
and the Factory, the example, and agreement with the reference model on random
rule sets (one and several boards)."""

import pickle

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ttt import make_core, rules
from games.ttt.schema import LAST_ROW_STALEMATES
from tiers import sweep
from ttt_checks import (
    assert_views_partition_histories,
    parsed_or_rejected,
    play_against_reference,
    problems,
    random_sim_test_of,
    rule_set,
)
from ttt_records import outcome_records, rule_records

ROW = {
    "board": {"kind": "squares", "size": [3, 3, 1]},
    "turn_checks": [],
    "stalemate": "last-2-in-a-row-wins",
}


def placed(targets, **fields):
    """The core after placing on ``targets`` (0-based x + 3y) in turn
    (black 3 pieces, white 2: white is left without a move after five)."""
    core = make_core(rule_set("last", ROW, reserves={"black": 3, "white": 2}, **fields))
    for t in targets:
        assert not core.terminal()
        core.apply_action(t)
    return core


def test_the_side_of_the_last_line_wins():
    # black 0, white 6, black 1 (black's line), white 8 (none), black 2 (black's again)
    core = placed([0, 6, 1, 8, 2])
    assert core.terminal() and core.returns_list() == [1.0, -1.0]
    # black 0, white 6, black 2 (none), white 7 (white's line), black 8 (none): white's was last
    core = placed([0, 6, 2, 7, 8])
    assert core.terminal() and core.returns_list() == [-1.0, 1.0]


def test_no_line_draws():
    core = placed([0, 6, 2, 8, 4], stalemate="last-3-in-a-row-wins")
    assert core.terminal() and core.returns_list() == [0.0, 0.0]


def test_the_remembered_side_is_kept_by_clones_and_pickles():
    core = placed([0, 6, 2, 7])  # white's line was last
    for copy in (core.clone(), pickle.loads(pickle.dumps(core))):
        copy.apply_action(8)
        assert copy.terminal() and copy.returns_list() == [-1.0, 1.0]


def test_cloaked_views_follow_what_each_seat_may_know():
    """Who made the last line is state, not a view: histories a seat cannot
    tell apart (lines of hidden pieces included) give it the same views."""
    rs = rule_set(
        "cloaked-last",
        ROW,
        cloaking="hides",
        reserves={"black": 3, "white": 3},
        shapes={"circle": {"move": "adjacent"}},
        move_limit=10,
        phases=[{"cloaked": [[1, 1, 1], [2, 1, 1], [3, 1, 1], [1, 2, 1]]}],
    )
    assert_views_partition_histories(rs, seeds=range(sweep(full=40, quick=8)))
    play_against_reference(rs, games=sweep(full=20, quick=4), seed=2)


def test_validation_and_factory_name_the_rule():
    found = problems("rounds", ROW, reserves={"black": 2, "white": 2}, phases=[{"order": "simultaneous"}])
    assert found
    assert any("no last one" in p for p in found)
    from webapp.factory_form import choices, option_label

    for name in LAST_ROW_STALEMATES:
        assert name in choices()["stalemates"]
    assert option_label("stalemate", "last-3-in-a-row-wins") == "Last 3-same-color-in-a-row wins"


def test_example_plays_as_the_reference(tmp_path):
    rs = rules.resolve("games/ttt/examples/Last-Three-Wins.json")
    play_against_reference(rs, games=sweep(full=20, quick=4), seed=5)
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=5, quick=1))


@settings(max_examples=sweep(full=80, quick=8), deadline=None, suppress_health_check=list(HealthCheck))
@given(outcome_records(), st.sampled_from(LAST_ROW_STALEMATES), st.booleans(), st.integers(0, 10**6))
def test_random_rule_sets_match_reference(rec, stalemate, no_checks, seed):
    rec["stalemate"] = stalemate
    if no_checks:
        rec["turn_checks"] = []
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=4, seed=seed)


@settings(max_examples=sweep(full=40, quick=5), deadline=None, suppress_health_check=list(HealthCheck))
@given(rule_records(), st.sampled_from(LAST_ROW_STALEMATES), st.integers(2, 3), st.integers(0, 10**6))
def test_random_rule_sets_on_several_boards_match_reference(rec, stalemate, boards, seed):
    rec["stalemate"] = stalemate
    rec["boards"] = boards
    rec["turn_checks"] = []
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=3, seed=seed)

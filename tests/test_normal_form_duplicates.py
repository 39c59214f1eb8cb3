"""solvers.normal_form.equilibria: duplicates merged before enummixed, and an
approximation said to be one."""

import numpy as np
import pyspiel
import pytest

import games  # noqa: F401
from solvers.normal_form import (
    NormalFormGame,
    equilibria,
    expand_profile,
    expected_payoffs,
    induced_normal_form,
    nash_equilibria,
    pure_equilibria,
    remove_duplicate_strategies,
)


def _regret(g, mixed):
    values = expected_payoffs(g, mixed)
    worst = 0.0
    for p, n in enumerate(g.shape):
        for s in range(n):
            dev = list(mixed)
            dev[p] = np.eye(n)[s]
            worst = max(worst, expected_payoffs(g, dev)[p] - values[p])
    return worst


def _bos_with_duplicates():
    """Battle of the sexes (textbook: two pure equilibria and one mixed, 2/3-1/3),
    with row 0 repeated twice and column 1 once: a 4x3 table of the same game."""
    a = np.array([[2, 0], [0, 1]], float)
    b = np.array([[1, 0], [0, 2]], float)
    rows, cols = [0, 1, 0, 0], [0, 1, 1]
    return NormalFormGame(np.stack([a[np.ix_(rows, cols)], b[np.ix_(rows, cols)]]))


def test_duplicates_are_merged_and_every_equilibrium_is_kept():
    g = _bos_with_duplicates()
    reduced, kept = remove_duplicate_strategies(g)
    assert reduced.shape == (2, 2) and kept == [[0, 1], [0, 1]]
    found = equilibria(g)
    assert found.complete and found.method == "enummixed" and found.reduced_shape == (2, 2)
    assert "merging payoff-identical strategies of the 4x3" in found.description
    assert len(found.equilibria) == 3
    for eq in found.equilibria:
        assert [len(s) for s in eq] == [4, 3]
        assert _regret(g, eq) < 1e-9
    mixed = [eq for eq in found.equilibria if 0 < eq[0][0] < 1]
    assert len(mixed) == 1 and mixed[0][0][:2] == pytest.approx([2 / 3, 1 / 3])

    # every extreme equilibrium of the full table (enummixed on it directly), merged
    # onto the kept strategies, is one of the reduced table's
    def merged(eq):
        out = []
        for p, keep in enumerate(kept):
            along = np.moveaxis(g.payoffs, p + 1, 1)
            sums = np.zeros(len(keep))
            for i, w in enumerate(eq[p]):
                twin = next(j for j, k in enumerate(keep) if np.array_equal(along[:, i], along[:, k]))
                sums[twin] += w
            out.append(tuple(np.round(sums, 6)))
        return tuple(out)

    ours = {merged(eq) for eq in found.equilibria}
    assert {merged(eq) for eq in nash_equilibria(g, "enummixed")} <= ours


def test_expand_profile_puts_no_weight_on_duplicates():
    full = expand_profile([np.array([0.25, 0.75])], [[1, 3]], [4])
    assert full[0].tolist() == [0, 0.25, 0, 0.75]


def test_dictator_tables_now_get_every_equilibrium():
    """NeedyDictator's 128x1 table is 2 payoff classes: enummixed lists both of black's
    best replies (black is indifferent), where the 24-strategy cut used to give logit's one."""
    g = induced_normal_form(pyspiel.load_game("ttt(rules=NeedyDictator)")).game
    assert g.shape == (128, 1)
    found = equilibria(g)
    assert found.complete and found.reduced_shape == (2, 1) and len(found.equilibria) == 2
    assert all(_regret(g, eq) < 1e-9 for eq in found.equilibria)
    assert len(pure_equilibria(g)) == 128


def test_a_large_table_gets_an_approximation_said_in_words():
    rng = np.random.default_rng(5)
    g = NormalFormGame(rng.integers(-3, 4, size=(2, 30, 3)).astype(float))
    found = equilibria(g)
    assert not found.complete and found.method == "logit"
    assert "approximated by pygambit's logit" in found.description and "not all" in found.description
    assert len(found.equilibria) == 1 and _regret(g, found.equilibria[0]) < 1e-3


def test_three_players_are_not_claimed_complete():
    g = NormalFormGame(np.random.default_rng(1).random((3, 2, 2, 2)))
    found = equilibria(g)
    assert not found.complete and "not provably all" in found.description


def test_pygambit_takes_any_strategy_names():
    # names that are pygambit's default labels in another order ("1", "2", ...)
    g = NormalFormGame(np.zeros((2, 3, 3)) + np.eye(3), [["3", "1", "2"], ["2", "3", "1"]])
    assert nash_equilibria(g, "enummixed")


def test_the_study_summary_marks_counts_that_are_not_every_equilibrium():
    from analysis.dilemmas_summary import _eq_cell, equilibria_complete

    assert equilibria_complete({"equilibria_complete": False, "equilibrium_method": "enummixed"}) is False
    # records written before the flag: enummixed on two players was complete, logit never
    assert equilibria_complete({"equilibrium_method": "enummixed", "players": 2})
    assert not equilibria_complete({"equilibrium_method": "logit", "players": 2})
    row = {"strategies": "128x256", "equilibria": 1, "pure_equilibria": 5632}
    assert _eq_cell(dict(row, equilibria_complete=False)) == "1 approx. (5632)"
    assert _eq_cell(dict(row, equilibria=3, equilibria_complete=False)) == "3 found (5632)"
    assert _eq_cell(dict(row, equilibria_complete=True)) == "1 (5632)"
    # by the method where the record names it: gnm's one equilibrium of a 3-player table was found, not
    # approximated
    three = {"strategies": "2x3x4", "equilibria": 1, "pure_equilibria": 1, "equilibria_complete": False}
    assert _eq_cell(dict(three, equilibrium_method="gnm")) == "1 found (1)"
    assert _eq_cell(dict(three, equilibrium_method="logit")) == "1 approx. (1)"

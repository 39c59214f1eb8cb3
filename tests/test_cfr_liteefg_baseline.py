"""experiments.bench_cfr against LiteEFG: the comparison itself (curves of NashConv
against time, the same-NashConv ratio, the page's rows) runs without LiteEFG, with
our own solver standing in as the baseline; without LiteEFG the rows say so and how
to install it; with it (the ``bench`` extra), its DCFR computes our DCFR's policies
and its NashConv is OpenSpiel's."""

import os
import sys

import pytest

import games  # noqa: F401  (registers ttt)
from cfr import evaluate
from experiments import _liteefg, bench_cfr

KUHN = "kuhn_poker"


def quiet(_message):
    pass


class OneOverT:
    """A stand-in solver whose NashConv is 1 / iterations."""

    def __init__(self, game=None, algorithm=None):
        self.iterations = 0

    def iterate(self, count=1):
        self.iterations += count

    def nash_conv(self):
        return 1.0 / max(self.iterations, 1)


def test_marks_run_one_two_five_up_to_the_iterations():
    assert bench_cfr.liteefg_marks(100) == [1, 2, 5, 10, 20, 50, 100]
    assert bench_cfr.liteefg_marks(300) == [1, 2, 5, 10, 20, 50, 100, 200, 300]
    assert bench_cfr.liteefg_marks(1) == [1]


def test_ours_runs_past_the_iterations_in_tenths_until_it_reaches_the_baselines_nash_conv():
    solver = OneOverT()
    curve = bench_cfr._curve(solver, bench_cfr.liteefg_marks(100))
    assert [c[0] for c in curve] == [1, 2, 5, 10, 20, 50, 100]
    assert curve[-1][2] == pytest.approx(0.01)
    bench_cfr.same_nash_conv(solver, curve, 1 / 150, 100)
    assert [c[0] for c in curve[-5:]] == [110, 120, 130, 140, 150]
    # a target out of reach stops at three times the iterations
    bench_cfr.same_nash_conv(solver, curve, 0.0, 100)
    assert curve[-1][0] == 300


def test_without_liteefg_the_row_has_ours_alone_and_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "LiteEFG", None)  # import LiteEFG fails
    why = _liteefg.missing()
    assert "LiteEFG is not installed" in why and 'pip install -e ".[bench]"' in why
    row = bench_cfr.liteefg_row(KUHN, KUHN, "cfr+", 50, 0.01, 1, quiet)
    assert row["liteefg"] == why and row["ratio"] is None and row["liteefg_curve"] is None
    assert row["ours_per_s"] > 0
    assert [c[0] for c in row["ours_curve"]] == [1, 2, 5, 10, 20, 50]
    assert row["ours_curve"][-1][2] < row["ours_curve"][0][2] / 10  # CFR+ converges
    (cells,) = bench_cfr.liteefg_page_rows([row], None, "cmd")
    assert cells.baseline == why and cells.ratio == "-"
    assert "NashConv" in cells.ours and "after 50 it" in cells.ours


def test_a_baseline_computing_the_same_policies_meets_ours_at_every_mark():
    row = bench_cfr.liteefg_row(KUHN, KUHN, "dcfr", 100, 0.01, 2, quiet, baseline=bench_cfr.OursSolver)
    ours, theirs = row["ours_curve"], row["liteefg_curve"]
    assert [c[0] for c in theirs] == [c[0] for c in ours] == [1, 2, 5, 10, 20, 50, 100]
    assert [c[2] for c in theirs] == [c[2] for c in ours]
    assert row["same_nash_conv_ratio"] > 0 and row["ratio"] > 0
    assert row["liteefg_version"] == "OursSolver"
    text = bench_cfr.format_liteefg([row], {"size": "3,812,798,742,493 histories"})
    assert "to LiteEFG's NashConv" in text and "3,812,798,742,493 histories" in text
    (cells,) = bench_cfr.liteefg_page_rows([row], None, "cmd")
    assert "it/s" in cells.ratio and "to its NashConv" in cells.ratio


def test_the_catalogues_blotto_is_counted_not_listed():
    row = bench_cfr.blotto_refusal()
    assert row["size"] == "3,812,798,742,493 histories"
    (cells,) = bench_cfr.liteefg_page_rows([], row, "cmd")
    assert "LiteEFG cannot load it" in cells.baseline and cells.ratio == "-"


def test_mini_blotto_keeps_the_catalogues_rules_on_smaller_stacks(tmp_path):
    import pyspiel

    from cfr.tree import enumerate_tree

    game = pyspiel.load_game(bench_cfr.mini_blotto(tmp_path))
    assert enumerate_tree(game).num_nodes == 9_841


needs_liteefg = pytest.mark.skipif(_liteefg.missing() is not None, reason="LiteEFG (the bench extra) absent")


@needs_liteefg
def test_liteefg_dcfr_computes_our_dcfr_policies_and_openspiels_nash_conv(tmp_path, monkeypatch):
    import pyspiel

    monkeypatch.setenv("HOME", str(tmp_path))
    game = pyspiel.load_game(KUHN)
    theirs = _liteefg.Solver(game, "dcfr")
    ours = bench_cfr.OursSolver(game, "dcfr")
    theirs.iterate(10)
    ours.iterate(10)
    policy = theirs.average_policy().to_dict()
    for state, actions in ours.solver.average_policy().items():
        for action, p in actions:
            assert dict(policy[state])[action] == pytest.approx(p, abs=1e-12), state
    eval_game = evaluate.evaluation_game(game)
    assert theirs.nash_conv() == pytest.approx(evaluate.nash_conv(eval_game, policy), abs=1e-12)
    assert theirs.nash_conv() == pytest.approx(ours.nash_conv(), abs=1e-12)
    # LiteEFG's game files went to the process's own cache, not the home directory
    assert os.environ["HOME"] == str(tmp_path) and not (tmp_path / "game_instances").exists()

"""What lets ``economic_dilemmas --full`` run to the end: games whose trees are
too large to list are found so on a count made without building them
(cfr/count.py), instead of after walking millions of histories (Centipede9:
554 s and 9.75 GB each); CFR then runs over their DAG of merged histories
(cfr/dag.py) where that is exact, and is refused with the count elsewhere, as
backward induction is."""

import pyspiel
import pytest

import games  # noqa: F401
from cfr import dag as cfr_dag
from cfr import tree as cfr_tree
from cfr.policy_file import load_policy
from cfr.tabular import TabularCFR
from experiments import economic_dilemmas as ed
from solvers import normal_form


def test_centipede9_is_refused_on_its_count_before_any_walk(tmp_path, monkeypatch):
    """The tree is never listed; where the DAG cannot be had either (here made to refuse:
    the real one takes 26 s and tests/test_cfr_dag.py checks it on a small centipede) CFR
    is refused with the count and the DAG's reason."""

    def walked(*args, **kwargs):
        raise AssertionError("walked the tree after all")

    def no_dag(*args, **kwargs):
        raise cfr_dag.NotExact("refused for this test")

    monkeypatch.setattr(cfr_tree, "deque", walked)  # enumerate_tree's queue, made after the check
    monkeypatch.setattr(normal_form, "_solve_state", walked)  # backward induction's walk
    monkeypatch.setattr(cfr_dag, "build_dag", no_dag)
    (entry,) = ed.catalogue_entries(["Centipede9"])
    rec = ed.analyse(
        entry,
        cfr_iterations=10,
        max_strategies=16,
        seed=0,
        out=str(tmp_path),
        cfr_max_histories=ed.FULL["cfr_max_histories"],
    )
    size = rec["histories"]
    assert size["count"] > ed.FULL["cfr_max_histories"] and size["nonterminal"] > ed.FULL["cfr_max_histories"]
    assert (
        f"{size['count']:,} histories" in rec["cfr_refused"] and "refused for this test" in rec["cfr_refused"]
    )
    assert f"{size['nonterminal']:,} of them non-terminal" in rec["spe_refused"]
    assert "cfr" not in rec and "spe" not in rec
    assert ed.bot_specs(rec, 10)[-1].kind == "mcts"  # still played: Random against MCTS


def test_a_game_under_the_cap_is_counted_and_solved(tmp_path):
    (entry,) = ed.catalogue_entries(["NeedyTrust"])
    rec = ed.analyse(
        entry, cfr_iterations=20, max_strategies=16, seed=0, out=str(tmp_path), cfr_max_histories=174
    )
    assert rec["histories"]["count"] == 174 and rec["histories"]["exact"]  # tests/test_cfr_count.py's tree
    assert rec["cfr"]["iterations"] == 20
    listed = rec
    rec = ed.analyse(
        entry,
        cfr_iterations=20,
        max_strategies=16,
        seed=0,
        out=str(tmp_path),
        cfr_max_histories=50,
        dag_iterations=30,
    )
    # past the cap (its non-terminal histories too): not listed, solved over its DAG of
    # positions (perfect information)
    assert "cfr_refused" not in rec
    assert rec["cfr"]["dag"]["mode"] == "position" and rec["cfr"]["algorithm"] == "dcfr"
    assert rec["cfr"]["iterations"] == 30
    tree = cfr_dag.build_dag(pyspiel.load_game(entry["game"]))
    solver = TabularCFR(tree, "dcfr")
    solver.iterate(30)
    assert rec["cfr"]["nash_conv"] == pytest.approx(cfr_dag.nash_conv(tree, solver.average_probs()))
    assert load_policy(rec["cfr"]["policy_file"])["keys"] == "dag-position"
    assert [s.kind for s in ed.bot_specs(rec, 10)] == ["random", "cfr", "mcts"]
    # and its subgame-perfect equilibrium by backward induction over positions, as over histories
    assert "over_dag" in rec["spe"] and "over_dag" not in listed["spe"]
    assert rec["spe"]["value"] == pytest.approx(listed["spe"]["value"])
    assert rec["spe"]["path"] == listed["spe"]["path"]


def test_openspiels_own_games_are_not_counted(tmp_path):
    (entry,) = ed.catalogue_entries(["matrix_pd"])
    rec = ed.analyse(entry, cfr_iterations=20, max_strategies=16, seed=0, out=str(tmp_path))
    assert "histories" not in rec and rec["cfr"]["iterations"] == 20


def test_help_states_the_refusal(capsys):
    with pytest.raises(SystemExit):
        ed.main(["--help"])
    out = capsys.readouterr().out
    assert "--cfr-max-histories" in out and "counted" in out

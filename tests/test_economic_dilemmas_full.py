"""What lets ``economic_dilemmas --full`` run to the end: games whose trees are
too large for tabular CFR and backward induction are refused on a count made
without building them (cfr/count.py), with the count in the refusal, instead of
after walking millions of histories (Centipede9: 554 s and 9.75 GB each)."""
import pytest

import games  # noqa: F401
from cfr import tree as cfr_tree
from experiments import economic_dilemmas as ed
from solvers import normal_form


def test_centipede9_is_refused_on_its_count_before_any_walk(tmp_path, monkeypatch):
    def walked(*args, **kwargs):
        raise AssertionError("walked the tree after all")

    monkeypatch.setattr(cfr_tree, "deque", walked)               # enumerate_tree's queue, made after the check
    monkeypatch.setattr(normal_form, "_solve_state", walked)     # backward induction's walk
    (entry,) = ed.catalogue_entries(["Centipede9"])
    rec = ed.analyse(entry, cfr_iterations=10, max_strategies=16, seed=0, out=str(tmp_path),
                     cfr_max_histories=ed.FULL["cfr_max_histories"])
    size = rec["histories"]
    assert size["count"] > ed.FULL["cfr_max_histories"] and size["nonterminal"] > ed.FULL["cfr_max_histories"]
    assert f"{size['count']:,} histories" in rec["cfr_refused"] and "counted, not built" in rec["cfr_refused"]
    assert f"{size['nonterminal']:,} of them non-terminal" in rec["spe_refused"]
    assert "cfr" not in rec and "spe" not in rec
    assert ed.bot_specs(rec, 10)[-1].kind == "mcts"              # still played: Random against MCTS


def test_a_game_under_the_cap_is_counted_and_solved(tmp_path):
    (entry,) = ed.catalogue_entries(["NeedyTrust"])
    rec = ed.analyse(entry, cfr_iterations=20, max_strategies=16, seed=0, out=str(tmp_path),
                     cfr_max_histories=174)
    assert rec["histories"]["count"] == 174 and rec["histories"]["exact"]    # tests/test_cfr_count.py's tree
    assert rec["cfr"]["iterations"] == 20
    rec = ed.analyse(entry, cfr_iterations=20, max_strategies=16, seed=0, out=str(tmp_path),
                     cfr_max_histories=173)
    assert "174 histories, more than 173" in rec["cfr_refused"]


def test_openspiels_own_games_are_not_counted(tmp_path):
    (entry,) = ed.catalogue_entries(["matrix_pd"])
    rec = ed.analyse(entry, cfr_iterations=20, max_strategies=16, seed=0, out=str(tmp_path))
    assert "histories" not in rec and rec["cfr"]["iterations"] == 20


def test_help_states_the_refusal(capsys):
    with pytest.raises(SystemExit):
        ed.main(["--help"])
    out = capsys.readouterr().out
    assert "--cfr-max-histories" in out and "counted" in out

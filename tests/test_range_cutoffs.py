"""The alpha-beta kernel's range cutoffs (solvers/_alphabeta.pyx): a value at
the side's best possible return ends a node, and a window outside [lo, hi] ends
it unsearched. They may change node counts, never values: checked against the
kernel without them, against brute force on the synthetic chance and
three-player trees, and on the split solver's 2-ply units, whose excess nodes
without them are what the cutoffs remove (docs/solved/parallel.md, "Why a split
unit searches more than the serial solve")."""

import json

import pyspiel
import pytest

import games  # noqa: F401
import solvers.testgames  # noqa: F401  (registers solver_test_tree)
from experiments import split_nodes
from solvers import exhaustive, parallel
from solvers.alphabeta import Searcher
from test_solvers import brute

GAMES = [
    "double_o_y(board_size=4,flip=all,protocol=122)",
    "double_o_y(board_size=4,flip=friends,protocol=1,win=turn_end)",
    "defector_y(board_size=4,protocol=1)",
    "flipway(board_size=4)",
    "ttt(rules=Tic-Tac-Toe)",
]


def opening_values(gs, cutoffs):
    game = pyspiel.load_game(gs)
    root = game.new_core()
    s = Searcher(root, 0, game.min_utility(), game.max_utility(), True, 16)
    s.range_cutoffs = cutoffs
    out = {}
    for a in root.legal_action_list():
        child = root.clone()
        child.apply_action(a)
        v, exact = s.value(child)
        assert exact
        out[a] = v
    return out, s.nodes


@pytest.mark.parametrize("gs", GAMES)
def test_every_opening_keeps_its_value(gs):
    (with_cut, _), (without, _) = opening_values(gs, True), opening_values(gs, False)
    assert with_cut == without


def test_tic_tac_toe_draw_and_values_against_openspiel():
    # a game with draws: a value strictly inside [lo, hi] must not be cut as if it were a win
    from open_spiel.python.algorithms.minimax import alpha_beta_search

    cpp = pyspiel.load_game("tic_tac_toe")
    got, _ = opening_values("ttt(rules=Tic-Tac-Toe)", True)
    assert sorted(got.values()) == sorted(
        alpha_beta_search(cpp, cpp.new_initial_state().child(a), maximizing_player_id=0)[0] for a in range(9)
    )


@pytest.mark.parametrize("pattern,players", [("0c1c0c1", 2), ("00c11c0", 2), ("012c2100c12", 3)])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_chance_and_paranoid_values_match_brute_force(pattern, players, seed):
    game = pyspiel.load_game(f"solver_test_tree(pattern={pattern},players={players},seed={seed},branching=3)")
    # (with two players the value is player 0's whoever is root; with three, the root player's paranoid value)
    for root_player in range(players) if players > 2 else [0]:
        core = game.new_core()
        s = Searcher(core, root_player, -1.0, 1.0, True, 16)
        assert s.range_cutoffs
        got, exact = s.value(core)
        assert exact and got == pytest.approx(brute(game.new_initial_state(), root_player), abs=1e-12)


def test_a_win_ends_the_root_and_is_found_by_the_next_probe():
    # 00-Y side 5, player 0 to move after an opening and a reply: it wins, so with
    # range cutoffs the root stops at its first winning move; without them it searched on
    ev = exhaustive.Evaluator("double_o_y(board_size=5,flip=friends,protocol=1,win=turn_end)", tt_log2=10)
    unit = split_nodes.units_of(ev)[0]["position"]
    assert unit.player() == 0
    counts = {}
    for cutoffs in (True, False):
        s = Searcher(ev.root, 0, ev.lo, ev.hi, True, 16)
        s.range_cutoffs = cutoffs
        s.prescan = False  # so every root node is below one searched move
        v, exact = s.value(unit)
        assert v == ev.hi and exact
        below = s.root_child_nodes()
        assert sum(below.values()) + 1 == s.nodes  # the root, and each move's subtree
        counts[cutoffs] = (s.nodes, len(below), len(unit.legal_action_list()))
        n = s.nodes
        s.value(unit)
        assert s.nodes == n + 1  # stored exact: one node the second time
    assert counts[True][1] < counts[True][2] == counts[False][1]  # without: every move
    assert counts[True][0] < counts[False][0]


def test_two_ply_units_on_one_table_cost_about_the_serial_nodes():
    # the cause found on branch solve-split: without range cutoffs the 2-ply units
    # searched 2.3x the serial nodes on this game even on one table; with them, at most the serial count
    out = split_nodes.measure("double_o_y(board_size=4,flip=friends,protocol=1,win=turn_end)", 16)
    off, on = out["runs"]["no_cutoffs"], out["runs"]["cutoffs"]
    assert on["units_one_table"] <= on["serial"]["nodes"]
    assert off["units_one_table"] > on["units_one_table"]
    # side 4 is lost for the first player (every opening -1, as the serial solver says), so
    # each opening is settled by one refuting reply and its other units are dropped
    assert exhaustive.solve(out["game"], tt_log2=16)["value"] == -1.0
    for run in (off, on):
        assert set(run["serial_values"].values()) == {-1.0}
        assert all(r["value"] == -1.0 for r in run["units"])
        assert run["units_searched"] == len(run["units"]) <= out["units"]
        assert all(r["alone"] >= r["one_table"] for r in run["units"])
        assert sum(r["serial_below"] for r in run["units"]) < run["serial"]["nodes"]


def test_split_solver_with_range_cutoffs_matches_serial_on_2_ply_units():
    gs = "double_o_y(board_size=5,flip=friends,protocol=1,win=turn_end)"
    expected = exhaustive.solve(gs, tt_log2=18)
    got = parallel.solve(gs, jobs=2, split_depth=2, tt_log2=18)
    for k in ("value", "winning_first_moves", "opening_values", "complete"):
        assert got[k] == expected[k]


def test_split_nodes_cli(capsys):
    with pytest.raises(SystemExit) as e:
        split_nodes.main(["--help"])
    assert e.value.code == 0
    assert "range cutoffs" in capsys.readouterr().out
    assert (
        split_nodes.main(
            [
                "--game",
                "double_o_y(board_size=4,flip=all,protocol=122)",
                "--tt-log2",
                "14",
                "--json",
                "--no-alone",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["units"] >= len(out["runs"]["cutoffs"]["units"]) > 0
    with pytest.raises(SystemExit):
        split_nodes.main(["--game", "y_game(board_size=4)"])  # the Y solver, not alpha-beta
    assert "not alpha-beta" in capsys.readouterr().err

"""Solvers: values checked against OpenSpiel's own minimax on its C++ games,
against brute force on a synthetic chance game, and against known results."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout

import pyspiel
import pytest
from games.boards import openspiel_y_actions
from open_spiel.python.algorithms.minimax import alpha_beta_search, expectiminimax

import games  # noqa: F401
import solvers.testgames  # noqa: F401  (registers solver_test_tree)
from solvers import solve as solve_cli
from solvers.alphabeta import Searcher, SearchTimeout, iterative_deepening
from solvers.bots import AlphaBetaBot
from solvers.exhaustive import solve
from solvers.generic import PySearcher


def kernel_value(core, **kw):
    v, exact = Searcher(core, 0, -1.0, 1.0, kw.pop("symmetry", True), 16, **kw).value(core)
    assert exact
    return v


# -- against OpenSpiel on its C++ y -------------------------------------------


@pytest.mark.parametrize("n", [3, 4])
def test_kernel_matches_openspiel_alpha_beta_on_cpp_y(n):
    cpp = pyspiel.load_game(f"y(board_size={n})")
    ours = pyspiel.load_game(f"y_game(board_size={n})")
    assert kernel_value(ours.new_core()) == alpha_beta_search(cpp, maximizing_player_id=0)[0]
    root = cpp.new_initial_state()
    _, to_cell = openspiel_y_actions(n)
    for a in root.legal_actions():
        core = ours.new_core()
        core.apply_action(to_cell[a])
        assert core.action_string(0, to_cell[a]) == root.action_to_string(0, a)
        expected = alpha_beta_search(cpp, state=root.child(a), maximizing_player_id=0)[0]
        assert kernel_value(core) == expected, root.action_to_string(0, a)


def test_generic_engine_solves_cpp_games():
    r = solve("y(board_size=4)", engine="pyspiel")
    ours = solve("y_game(board_size=4)")
    assert r["value"] == ours["value"] == 1.0
    assert r["opening_values"] == ours["opening_values"]
    assert sorted(r["winning_first_moves"]) == sorted(ours["winning_first_moves"])
    ttt = solve("tic_tac_toe", engine="pyspiel")
    assert ttt["value"] == 0.0 and ttt["winning_first_moves"] == []


def test_generic_engine_matches_openspiel_midgame_tic_tac_toe():
    game = pyspiel.load_game("tic_tac_toe")
    state = game.new_initial_state()
    for a in (4, 0, 8):
        state.apply_action(a)
    expected = alpha_beta_search(game, state=state, maximizing_player_id=0)[0]
    assert PySearcher(game).value(state)[0] == expected


# -- known values -------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_plain_y_is_a_first_player_win(n):
    # Strategy stealing: an extra stone never hurts in Y and Y cannot draw.
    r = solve(f"y_game(board_size={n})", tt_log2=18)
    assert r["complete"] and r["value"] == 1.0 and r["winning_first_moves"]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_y_with_the_swap_rule_is_a_second_player_win(n):
    # The pie rule hands the first player's winning strategy to the second.
    for method in ("alphabeta", "dfpn"):
        r = solve(f"y_game(board_size={n},swap=True)", method=method, tt_log2=18)
        assert r["value"] == -1.0 and r["winning_first_moves"] == []


@pytest.mark.slow
def test_plain_y_side_6_is_a_first_player_win():
    r = solve("y_game(board_size=6)")
    assert r["value"] == 1.0
    assert sorted(r["winning_first_moves"]) == ["b3", "c2", "c3"]


def test_plain_y_small_opening_sets():
    # Side 4: every opening wins except the three corners (checked above
    # against OpenSpiel); side 5: only the three central cells win.
    r4 = solve("y_game(board_size=4)")
    assert sorted(m for m, v in r4["opening_values"].items() if v < 0) == ["a1", "a4", "d1"]
    r5 = solve("y_game(board_size=5)")
    assert sorted(r5["winning_first_moves"]) == ["b2", "b3", "c2"]


@pytest.mark.parametrize(
    "gs",
    [
        "y_game(board_size=5)",
        "defector_y(board_size=5,protocol=1)",
        "double_o_y(board_size=4,flip=friends,protocol=1,win=turn_end)",
    ],
)
def test_winning_sets_are_closed_under_board_symmetries(gs):
    game = pyspiel.load_game(gs)
    board = game.new_core().board
    r = solve(game)
    names = board.names
    winning = set(r["winning_first_moves"])
    for perm in board.symmetries:
        assert {names[perm[board.index_of_name[m]]] for m in winning} == winning
    plain = solve(game, symmetry=False)
    assert plain["opening_values"] == r["opening_values"]
    assert r["symmetry_classes"] < plain["symmetry_classes"] == len(r["opening_values"])


@pytest.mark.parametrize(
    "gs",
    [
        "defector_y(board_size=4,protocol=122)",
        "double_o_y(board_size=4,flip=all,protocol=122,win=turn_start)",
        "double_o_y(board_size=4,flip=opponents,protocol=1,win=turn_end)",
    ],
)
def test_kernel_agrees_with_generic_engine_on_flip_games(gs):
    # Flip games have long runs of moves by one player (placements, then
    # flips): a search that negated every ply would disagree here.
    fast, slow = solve(gs), solve(gs, engine="pyspiel")
    assert fast["opening_values"] == slow["opening_values"]
    assert fast["value"] == slow["value"]


@pytest.mark.parametrize(
    "gs",
    [
        "y_game(board_size=5)",
        "defector_y(board_size=5,protocol=122)",
        "double_o_y(board_size=4,flip=all,protocol=1,win=turn_start)",
        "flipway(board_size=3)",
        "flipway(board_size=3,pie=True)",
    ],
)
def test_proof_numbers_agree_with_alpha_beta(gs):
    pn, ab = solve(gs, method="dfpn", tt_log2=20), solve(gs, method="alphabeta", tt_log2=20)
    assert pn["method"] == "dfpn" and ab["method"] == "alphabeta"
    assert pn["opening_values"] == ab["opening_values"]
    assert pn["value"] == ab["value"]


def test_proof_numbers_find_draws_and_refuse_chance():
    # Our tic-tac-toe rule set is a draw after every opening, as OpenSpiel's
    # C++ tic_tac_toe (searched by the generic engine) says.
    cpp = solve("tic_tac_toe", engine="pyspiel")
    for method in ("dfpn", "alphabeta"):
        ours = solve("ttt(rules=Tic-Tac-Toe)", method=method)
        assert ours["value"] == cpp["value"] == 0.0
        assert sorted(ours["opening_values"].values()) == sorted(cpp["opening_values"].values())
    with pytest.raises(ValueError):
        solve("solver_test_tree(pattern=0c1,seed=0)", method="dfpn")


@pytest.mark.parametrize("pattern", ["00c11c0", "01c10c0110c1"])
def test_transposition_cutoffs_change_nodes_not_values(pattern):
    game = pyspiel.load_game(f"solver_test_tree(pattern={pattern},seed=4,modulus=5)")
    y5 = pyspiel.load_game("y_game(board_size=5)")
    for g in (game, y5):
        results = []
        for prescan in (False, True):
            core = g.new_core()
            s = Searcher(core, 0, -1.0, 1.0, True, 18)
            s.prescan = prescan
            results.append((s.value(core)[0], s.nodes))
        assert results[0][0] == results[1][0]
    assert results[1][1] < results[0][1]  # on Y the cutoffs do save nodes


# -- chance nodes and more players (synthetic game, brute force) ---------------


def brute(state, root_player=0):
    """Expectimax / paranoid value by plain recursion (no pruning, no table)."""
    if state.is_terminal():
        return state.returns()[root_player]
    if state.is_chance_node():
        return sum(p * brute(state.child(a), root_player) for a, p in state.chance_outcomes())
    values = [brute(state.child(a), root_player) for a in state.legal_actions()]
    return max(values) if state.current_player() == root_player else min(values)


PATTERNS = ["0c1", "00c11c0", "c01c10c1", "0c0c1c1c01", "01c10c0110c1"]


@pytest.mark.parametrize("pattern", PATTERNS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_expectimax_matches_brute_force(pattern, seed):
    game = pyspiel.load_game(f"solver_test_tree(pattern={pattern},seed={seed},branching=3)")
    expected = brute(game.new_initial_state())
    assert kernel_value(game.new_core()) == pytest.approx(expected, abs=1e-12)
    assert PySearcher(game).value(game.new_initial_state())[0] == pytest.approx(expected, abs=1e-12)


def test_expectimax_matches_openspiel_expectiminimax():
    game = pyspiel.load_game("solver_test_tree(pattern=0c1c0c1,seed=5,branching=4,modulus=11)")
    expected = expectiminimax(game.new_initial_state(), 100, lambda s: 0.0, 0)[0]
    assert kernel_value(game.new_core()) == pytest.approx(expected, abs=1e-12)


def test_chance_root_value_through_the_solver():
    game = pyspiel.load_game("solver_test_tree(pattern=c0c1,seed=3)")
    r = solve(game)
    assert r["value"] == pytest.approx(brute(game.new_initial_state()))
    assert r["winning_first_moves"] == [] and r["value_kind"] == "expectimax"


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_paranoid_value_with_three_players(seed):
    gs = f"solver_test_tree(pattern=012c2100c12,players=3,seed={seed},branching=3)"
    game = pyspiel.load_game(gs)
    for root in range(3):
        expected = brute(game.new_initial_state(), root)
        core = game.new_core()
        got, exact = Searcher(core, root, -1.0, 1.0, True, 16).value(core)
        assert exact and got == pytest.approx(expected, abs=1e-12)
        assert PySearcher(game, root).value(game.new_initial_state())[0] == pytest.approx(expected)
    assert solve(game)["value_kind"].startswith("paranoid")


def test_depth_limited_search_is_marked_inexact_and_in_range():
    game = pyspiel.load_game("y_game(board_size=7)")
    info = iterative_deepening(game, game.new_core(), max_depth=2, seed=1)
    assert info["depth"] == 2 and not info["exact"]
    assert -1.0 < info["value"] < 1.0
    assert info["best_move"] in game.new_core().legal_action_list()


def test_time_limit_stops_an_exact_solve():
    core = pyspiel.load_game("y_game(board_size=8)").new_core()
    with pytest.raises(SearchTimeout):
        Searcher(core).value(core, time_limit=0.2)
    r = solve("y_game(board_size=8)", time_limit=0.3)
    assert not r["complete"] and r["value"] is None


# -- bot and CLI ----------------------------------------------------------------


def test_alphabeta_bot_wins_y4_as_first_player_against_random():
    game = pyspiel.load_game("y_game(board_size=4)")
    for seed in range(5):
        bots = [AlphaBetaBot(game, 0, depth=20, seed=seed), pyspiel.make_uniform_random_bot(1, seed)]
        assert pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)[0] == 1.0


def test_alphabeta_bot_on_a_cpp_game():
    game = pyspiel.load_game("tic_tac_toe")
    bots = [AlphaBetaBot(game, 0, depth=9, seed=0), AlphaBetaBot(game, 1, depth=9, seed=1)]
    assert pyspiel.evaluate_bots(game.new_initial_state(), bots, 0) == [0.0, 0.0]


def test_alphabeta_bot_plays_a_won_position_perfectly():
    game = pyspiel.load_game("y_game(board_size=3)")
    bot = AlphaBetaBot(game, 1, depth=6, seed=7)
    state = game.new_initial_state()
    state.apply_action(0)  # a corner: White wins from here
    while not state.is_terminal():
        if state.current_player() == 1:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(state.legal_actions()[0])
    assert state.returns()[1] == 1.0


@pytest.mark.parametrize(
    "budget, match",
    [
        (dict(time_limit=float("nan")), "time_limit"),
        (dict(time_limit=-1.0), "time_limit"),
        (dict(time_limit=float("inf")), "time_limit"),
        (dict(depth=-2), "depth"),
        (dict(), "depth, a time_limit"),
        (dict(depth=2, tt_log2=40), "tt_log2"),
        (dict(depth=2, eval_playouts=0), "eval_playouts"),
    ],
)
def test_alphabeta_bot_refuses_budgets_that_never_run_out(budget, match):
    with pytest.raises(ValueError, match=match):
        AlphaBetaBot(pyspiel.load_game("y_game(board_size=3)"), 0, **budget)


def test_alphabeta_bot_refuses_a_terminal_state():
    game = pyspiel.load_game("tic_tac_toe")
    state = game.new_initial_state()
    for action in (0, 3, 1, 4, 2):
        state.apply_action(action)
    with pytest.raises(ValueError, match="terminal state: the game is over"):
        AlphaBetaBot(game, 1, depth=2).step(state)


def test_cli_json_shape():
    buf = io.StringIO()
    with redirect_stdout(buf):
        code = solve_cli.main(["--game", "y_game(board_size=3)", "--json", "--quiet"])
    assert code == 0
    out = json.loads(buf.getvalue())
    assert {"value", "winning_first_moves", "nodes", "seconds"} <= set(out)
    assert out["value"] == 1.0
    assert sorted(out["winning_first_moves"]) == ["a2", "b1", "b2"]
    assert isinstance(out["nodes"], int) and out["nodes"] > 0 and out["seconds"] >= 0


def test_cli_rejects_unknown_game(capsys):
    assert solve_cli.main(["--game", "no_such_game_xyz", "--quiet"]) == 2
    assert "cannot load game" in capsys.readouterr().err


@pytest.mark.parametrize("limit", ["nan", "-1", "inf"])
def test_cli_refuses_time_limits_that_never_run_out(limit, capsys):
    with pytest.raises(SystemExit) as exit_info:
        solve_cli.main(["--game", "y_game(board_size=3)", "--quiet", "--time-limit", limit])
    assert exit_info.value.code == 2
    assert "--time-limit must be a finite number" in capsys.readouterr().err

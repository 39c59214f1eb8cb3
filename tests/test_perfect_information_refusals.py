"""Every search that sees the whole state refuses a hidden-information or
simultaneous game, naming the game and what to use instead, through every
public entry point (search faces, bots, solver functions, the solver CLI)."""

from __future__ import annotations

import pyspiel
import pytest

import games  # noqa: F401  (registers the toolkit's games)
import solvers.testgames  # noqa: F401  (registers the synthetic games)
from games.openspiel import core_of, require_perfect_information
from mcts.bots import CoreMCTSBot
from mcts.uct import SpielCore, UCTSearch
from mcts.uct import core_of as search_core_of
from solvers import solve as solve_cli
from solvers.alphabeta import iterative_deepening, make_searcher
from solvers.bots import AlphaBetaBot
from solvers.exhaustive import solve
from solvers.generic import PySearcher

HIDDEN = "solver_test_kuhn"
SIMULTANEOUS = "solver_test_matrix"


def decision_state(name):
    """A state where a player decides (after Kuhn's deal)."""
    state = pyspiel.load_game(name).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def refused(match="hidden information"):
    return pytest.raises(ValueError, match=f"{match}.*needs a sequential perfect-information game.*use ")


@pytest.mark.parametrize(
    "name, why",
    [
        (HIDDEN, "hidden information"),
        (SIMULTANEOUS, "simultaneous moves"),
        ("kuhn_poker", "hidden information"),
    ],
)
def test_mcts_search_refuses(name, why):
    state = decision_state(name)
    with refused(why):  # the search face, given any core
        UCTSearch(max_simulations=10).search(
            core_of(state) if name != "kuhn_poker" else SpielCore.from_state(state)
        )
    with refused(why):  # the core a search asks for, naming the game
        search_core_of(state)


def test_mcts_bot_refuses_naming_the_game():
    game = pyspiel.load_game(HIDDEN)
    with pytest.raises(ValueError, match=r"^solver_test_kuhn\(\) has hidden information"):
        CoreMCTSBot(game, 0, max_simulations=10).step(decision_state(HIDDEN))


def test_mcts_still_searches_perfect_information_games():
    state = pyspiel.load_game("tic_tac_toe").new_initial_state()
    assert isinstance(search_core_of(state), SpielCore)
    result = UCTSearch(max_simulations=50, seed=1).search(search_core_of(state))
    assert result["action"] in state.legal_actions()


@pytest.mark.parametrize("name", [HIDDEN, SIMULTANEOUS])
def test_alphabeta_refuses(name):
    game = pyspiel.load_game(name)
    core = core_of(decision_state(name))
    with pytest.raises(ValueError, match=rf"{game.get_type().short_name}.*alpha-beta.*use CFR"):
        make_searcher(game, core)
    with pytest.raises(ValueError, match="alpha-beta"):
        iterative_deepening(game, core, max_depth=2)


def test_alphabeta_bot_refuses():
    game = pyspiel.load_game(HIDDEN)
    with refused():
        AlphaBetaBot(game, 0, depth=2).step(decision_state(HIDDEN))


@pytest.mark.parametrize(
    "name, options",
    [
        (HIDDEN, {}),
        (HIDDEN, {"engine": "pyspiel"}),
        (HIDDEN, {"method": "dfpn"}),
        (SIMULTANEOUS, {}),
        ("kuhn_poker", {}),
    ],
)
def test_exact_solver_refuses(name, options):
    with pytest.raises(ValueError, match=r"exact solver \(solvers.exhaustive\).*use CFR"):
        solve(name, **options)


def test_generic_searcher_refuses_with_the_shared_message():
    with refused():
        PySearcher(pyspiel.load_game("kuhn_poker"))
    with refused("simultaneous moves"):
        PySearcher(pyspiel.load_game("matrix_rps"))


@pytest.mark.parametrize("extra", [[], ["--depth", "2"]])
def test_solve_cli_refuses(extra, capsys):
    assert solve_cli.main(["--game", HIDDEN, "--quiet", *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: solver_test_kuhn() has hidden information") and "use CFR" in err


def test_the_check_accepts_perfect_information_and_rejects_nonsense():
    require_perfect_information(pyspiel.load_game("y_game(board_size=4)"), "x", "y")
    require_perfect_information(core_of(pyspiel.load_game("flipway(board_size=5)")), "x", "y")
    with pytest.raises(ValueError, match="needs a pyspiel game, state or game core"):
        require_perfect_information("y_game", "x", "y")

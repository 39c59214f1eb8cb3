"""Behaviour of our MCTS (mcts/_uct.pyx) and the MCTS bots (mcts/bots.py).

References nobody here wrote: OpenSpiel's minimax / expectiminimax (Python)
on OpenSpiel's C++ ``y`` and ``pig``; small hand-built Y positions whose
winning / saving moves are checked by playing them on the core.
"""

import pyspiel
import pytest
from games.boards import openspiel_y_actions
from open_spiel.python.algorithms import minimax

import games  # noqa: F401  (registers our games)
from agents import make_bot
from mcts.bots import CoreMCTSBot, OpenSpielMCTSBot
from mcts.uct import SpielCore, UCTSearch, core_of


def y_core(size, moves, **params):
    extra = "".join(f",{k}={v}" for k, v in params.items())
    core = pyspiel.load_game(f"y_game(board_size={size}{extra})").new_core()
    for m in moves:
        core.apply_action(m)
    return core


def wins_now(core, action):
    """Does ``action`` end the game with the mover winning?"""
    mover = core.player()
    after = core.clone()
    after.apply_action(action)
    return after.terminal() and after.returns_list()[mover] == 1.0


# -- tiny duck-typed games (driven through SpielCore) ----------------------


class TreeState:
    """A game given as a nested tree: {"player": p, "moves": {a: subtree}},
    {"chance": [(a, prob, subtree)]} or {"returns": [...]}. Only what
    SpielCore calls is implemented."""

    def __init__(self, node):
        self.node = node

    def current_player(self):
        if "returns" in self.node:
            return -4
        if "chance" in self.node:
            return -1
        return self.node["player"]

    def is_terminal(self):
        return "returns" in self.node

    def legal_actions(self):
        return sorted(self.node["moves"])

    def chance_outcomes(self):
        return [(a, p) for a, p, _ in self.node["chance"]]

    def apply_action(self, action):
        if "chance" in self.node:
            self.node = next(t for a, _, t in self.node["chance"] if a == action)
        else:
            self.node = self.node["moves"][action]

    def returns(self):
        return list(self.node["returns"])

    def clone(self):
        return TreeState(self.node)


def tree_core(tree, players=2):
    return SpielCore(TreeState(tree), players, 8, 8, 4)


def leaf(*returns):
    return {"returns": list(returns)}


# -- finding wins and blocking losses on hand-built Y positions -------------

# Board 5, cells numbered row by row from the top: r0: 0 | r1: 1 2 | r2: 3 4 5 |
# r3: 6 7 8 9 | r4: 10 11 12 13 14. Black holds the left column 0, 1, 3, 6.
BLACK_TO_WIN = [0, 14, 1, 13, 3, 9, 6, 12]  # Black wins at 10 or 11
# Black holds 0, 1, 3 and 10: only 6 joins them into a Y; White must take it.
WHITE_MUST_BLOCK = [0, 14, 1, 13, 3, 9, 10]


@pytest.mark.parametrize("solve", [True, False])
def test_finds_immediate_win(solve):
    core = y_core(5, BLACK_TO_WIN)
    assert {a for a in core.legal_action_list() if wins_now(core, a)} == {10, 11}
    result = UCTSearch(max_simulations=3000, seed=3, solve=solve).search(core)
    assert wins_now(core, result["action"])
    if solve:
        assert result["solved"] and result["value"] == 1.0


@pytest.mark.parametrize("solve", [True, False])
def test_blocks_immediate_loss(solve):
    core = y_core(5, WHITE_MUST_BLOCK)
    assert core.player() == 1
    assert not any(wins_now(core, a) for a in core.legal_action_list())
    result = UCTSearch(max_simulations=5000, seed=4, solve=solve).search(core)
    assert result["action"] == 6


def test_finds_two_stone_win_in_one_turn():
    """With turns=122 Black drops two stones in a row: the win needs both,
    so values must not flip sign between the two placements."""
    # 1 | 2 2 | 2 2 | ...: Black 0; White 14, 13; Black 1, 3; White 9, 12 -> Black's turn (2 stones)
    core = y_core(5, [0, 14, 13, 1, 3, 9, 12], turns=122)
    assert core.player() == 0 and core.stones_left_in_turn() == 2
    assert not any(wins_now(core, a) for a in core.legal_action_list())
    result = UCTSearch(max_simulations=20000, seed=5).search(core)
    assert result["solved"] and result["value"] == 1.0
    after = core.clone()
    after.apply_action(result["action"])
    assert after.player() == 0
    follow = UCTSearch(max_simulations=2000, seed=6).search(after)
    assert wins_now(after, follow["action"])


def test_bot_step_on_hand_built_position():
    game = pyspiel.load_game("y_game(board_size=5)")
    state = game.new_initial_state()
    for m in WHITE_MUST_BLOCK:
        state.apply_action(m)
    bot = CoreMCTSBot(game, 1, seed=2, max_simulations=3000)
    assert bot.step(state) == 6
    policy, action = bot.step_with_policy(state)
    assert action == 6
    assert sorted(a for a, _ in policy) == state.legal_actions()
    assert abs(sum(p for _, p in policy) - 1.0) < 1e-9


# -- MCTS-Solver against OpenSpiel's minimax ---------------------------------


@pytest.mark.parametrize("size", [3, 4])
def test_solver_proves_small_y_first_player_win(size):
    result = UCTSearch(max_simulations=1_000_000, seed=size).search(y_core(size, []))
    assert result["solved"] and result["value"] == 1.0
    reference, _ = minimax.alpha_beta_search(
        pyspiel.load_game(f"y(board_size={size})"), maximizing_player_id=0
    )
    assert reference == 1.0
    # the first move chosen must itself be a win according to OpenSpiel
    theirs = pyspiel.load_game(f"y(board_size={size})").new_initial_state()
    theirs.apply_action(openspiel_y_actions(size)[0][result["action"]])
    value, _ = minimax.alpha_beta_search(theirs.get_game(), state=theirs, maximizing_player_id=0)
    assert value == 1.0


def test_solver_values_of_every_first_move_match_minimax_on_y4():
    """Solve each reply position of y_game 4 and compare with OpenSpiel's
    alpha-beta on its own C++ y (translated cell by cell)."""
    game = pyspiel.load_game("y(board_size=4)")
    for action in range(10):
        ours = UCTSearch(max_simulations=1_000_000, seed=action).search(y_core(4, [action]))
        assert ours["solved"]
        theirs = game.new_initial_state()
        theirs.apply_action(openspiel_y_actions(4)[0][action])
        value, _ = minimax.alpha_beta_search(game, state=theirs, maximizing_player_id=0)
        # ours["value"] is for the mover (White, player 1)
        assert -ours["value"] == value, action


def test_solver_on_openspiel_cpp_y_through_adapter():
    game = pyspiel.load_game("y(board_size=3)")
    result = UCTSearch(max_simulations=100_000, seed=1).search(SpielCore.from_state(game.new_initial_state()))
    assert result["solved"] and result["value"] == 1.0


@pytest.mark.parametrize(
    "spec", ["pig(winscore=4,horizon=6,diceoutcomes=2)", "pig(winscore=3,horizon=4,diceoutcomes=3)"]
)
def test_solver_on_chance_game_matches_expectiminimax(spec):
    """Pig: dice (chance) and runs of decisions by one player; the proven root
    value must be OpenSpiel's expectiminimax value. A proof needs every chance
    outcome below every move explored, so a large exploration constant is used
    (with 1.4, UCT starves the bad branches for a long time)."""
    state = pyspiel.load_game(spec).new_initial_state()
    reference, _ = minimax.expectiminimax(state, 100, None, 0)
    result = UCTSearch(max_simulations=300_000, seed=7, uct_c=10.0).search(SpielCore.from_state(state))
    assert result["solved"]
    assert result["value"] == pytest.approx(reference, abs=1e-5)


def test_chance_node_expectation_on_tree_game():
    """Player 0 picks A (win with prob. 0.75) or B (win with prob. 0.5):
    A is worth 0.5, B 0. A proof needs both outcomes of B sampled, which UCT
    may postpone for long after unlucky samples, so most (not all) seeds prove."""
    tree = {
        "player": 0,
        "moves": {
            0: {"chance": [(0, 0.75, leaf(1, -1)), (1, 0.25, leaf(-1, 1))]},
            1: {"chance": [(0, 0.5, leaf(1, -1)), (1, 0.5, leaf(-1, 1))]},
        },
    }
    proofs = 0
    for seed in range(10):
        result = UCTSearch(max_simulations=10_000, seed=seed).search(tree_core(tree))
        assert result["action"] == 0
        if result["solved"]:
            proofs += 1
            assert result["value"] == pytest.approx(0.5)
            assert sorted(c[3] for c in result["children"]) == pytest.approx([0.0, 0.5])
    assert proofs >= 8
    unsolved = UCTSearch(max_simulations=4_000, seed=1, solve=False).search(tree_core(tree))
    assert not unsolved["solved"] and unsolved["action"] == 0
    means = {a: m for a, _, m, _ in unsolved["children"]}
    assert means[0] == pytest.approx(0.5, abs=0.1)


def test_consecutive_moves_are_not_sign_flipped():
    """Player 0 moves twice; alternating signs would make the second move a
    minimising opponent and steer player 0 away from the sure win."""
    tree = {
        "player": 0,
        "moves": {
            0: {"player": 0, "moves": {0: leaf(-1, 1), 1: leaf(1, -1)}},
            1: {"player": 1, "moves": {0: leaf(0.5, -0.5), 1: leaf(0.2, -0.2)}},
        },
    }
    for solve in (True, False):
        result = UCTSearch(max_simulations=2_000, seed=2, solve=solve).search(tree_core(tree))
        assert result["action"] == 0


def test_three_players_each_maximise_their_own_return():
    """Player 1 prefers (1, 1, -2) to (-1, 0, 1), so player 0's move 0 is worth
    1 to it; a paranoid or sign-flipping backup would value it at -1 and pick 1."""
    tree = {
        "player": 0,
        "moves": {
            0: {"player": 1, "moves": {0: leaf(1, 1, -2), 1: leaf(-1, 0, 1)}},
            1: {"player": 1, "moves": {0: leaf(0, 0, 0)}},
        },
    }
    result = UCTSearch(max_simulations=3_000, seed=3).search(tree_core(tree, players=3))
    assert not result["solved"]  # no proofs with three players
    assert result["action"] == 0
    means = {a: m for a, _, m, _ in result["children"]}
    assert means[0] > 0.8


def test_solver_refuses_general_sum_terminals():
    tree = {"player": 0, "moves": {0: leaf(1, 1), 1: leaf(-1, 1)}}
    with pytest.raises(ValueError, match="zero-sum"):
        UCTSearch(max_simulations=100, seed=1).search(tree_core(tree))
    result = UCTSearch(max_simulations=100, seed=1, zero_sum=False).search(tree_core(tree))
    assert not result["solved"] and result["action"] == 0


# -- budgets, seeds, limits, errors -----------------------------------------


def test_same_seed_same_search():
    core = pyspiel.load_game("double_o_y(board_size=5)").new_core()
    a = UCTSearch(max_simulations=3000, seed=11).search(core)
    b = UCTSearch(max_simulations=3000, seed=11).search(core)
    c = UCTSearch(max_simulations=3000, seed=12).search(core)
    assert a["children"] == b["children"] and a["action"] == b["action"]
    assert a["children"] != c["children"]


def test_same_seed_same_game_through_evaluate_bots():
    game = pyspiel.load_game("double_o_y(board_size=4)")

    def play(seed):
        bots = [
            CoreMCTSBot(game, 0, seed=seed, max_simulations=200, solve=False),
            CoreMCTSBot(game, 1, seed=seed + 1, max_simulations=200, solve=False),
        ]
        state = game.new_initial_state()
        history = []
        while not state.is_terminal():
            action = bots[state.current_player()].step(state)
            history.append(action)
            state.apply_action(action)
        return history

    assert play(5) == play(5)


def test_evaluate_bots_on_double_o_y_4():
    game = pyspiel.load_game("double_o_y(board_size=4)")
    for specs in (
        ("mcts:max_simulations=200", "random"),
        ("openspiel_mcts:max_simulations=200", "mcts:max_simulations=200"),
    ):
        bots = [make_bot(spec, game, p, seed=p + 1) for p, spec in enumerate(specs)]
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 9)
        assert sorted(returns) == [-1.0, 1.0]


@pytest.mark.parametrize("name, at_least", [("y_game(board_size=7)", 18), ("double_o_y(board_size=6)", 16)])
def test_beats_uniform_random(name, at_least):
    game = pyspiel.load_game(name)
    wins = 0
    for i in range(20):
        seat = i % 2
        bots = [None, None]
        bots[seat] = CoreMCTSBot(game, seat, seed=i, max_simulations=300)
        bots[1 - seat] = make_bot("random", game, 1 - seat, seed=i)
        wins += pyspiel.evaluate_bots(game.new_initial_state(), bots, i)[seat] > 0
    assert wins >= at_least


def test_bot_on_chance_game_with_three_players():
    game = pyspiel.load_game("pig(players=3,winscore=10,horizon=30)")
    bots = [CoreMCTSBot(game, p, seed=p, max_simulations=100) for p in range(3)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 1)
    assert len(returns) == 3


def test_time_budget_and_node_cap():
    core = pyspiel.load_game("y_game(board_size=7)").new_core()
    timed = UCTSearch(max_simulations=0, max_time=0.05, seed=1).search(core)
    assert timed["simulations"] > 0 and timed["seconds"] >= 0.05
    capped_search = UCTSearch(max_simulations=5000, seed=1, max_nodes=500)
    capped = capped_search.search(core)
    assert capped["simulations"] == 5000 and capped["nodes"] <= 500
    assert capped["action"] in core.legal_action_list()
    assert capped_search.bytes_per_node == 20


def test_errors():
    with pytest.raises(ValueError, match="budget"):
        UCTSearch(max_simulations=0, max_time=0)
    with pytest.raises(ValueError):
        UCTSearch(uct_c=-1)
    finished = y_core(5, BLACK_TO_WIN + [10])
    with pytest.raises(ValueError, match="finished"):
        UCTSearch().search(finished)
    with pytest.raises(ValueError, match="chance"):
        UCTSearch().search(tree_core({"chance": [(0, 1.0, leaf(1, -1))]}))
    game = pyspiel.load_game("y_game(board_size=4)")
    with pytest.raises(ValueError, match="player"):
        CoreMCTSBot(game, 2)


@pytest.mark.parametrize(
    "budget, match",
    [
        (dict(max_simulations=0, max_time=float("nan")), "max_time"),
        (dict(max_simulations=100, max_time=float("nan")), "max_time"),
        (dict(max_simulations=0, max_time=float("inf")), "max_time"),
        (dict(max_simulations=0, max_time=-1.0), "max_time"),
        (dict(max_simulations=-1), "max_simulations"),
        (dict(uct_c=float("nan")), "uct_c"),
    ],
)
def test_budgets_that_never_run_out_are_refused(budget, match):
    """A NaN deadline compares false with every clock reading: it used to search forever."""
    with pytest.raises(ValueError, match=match):
        UCTSearch(**budget)
    if "uct_c" not in budget:
        with pytest.raises(ValueError, match=match):
            CoreMCTSBot(pyspiel.load_game("y_game(board_size=4)"), 0, **budget)


@pytest.mark.parametrize(
    "budget, match",
    [
        (dict(max_time=float("nan")), "max_time"),
        (dict(max_time=-0.5), "max_time"),
        (dict(max_time=float("inf")), "max_time"),
        (dict(max_simulations=0), "max_simulations"),
        (dict(rollouts=0), "rollouts"),
    ],
)
def test_openspiel_mcts_bot_refuses_bad_budgets(budget, match):
    with pytest.raises(ValueError, match=match):
        OpenSpielMCTSBot(pyspiel.load_game("y_game(board_size=4)"), 0, **budget)


@pytest.mark.parametrize("bot_class", [CoreMCTSBot, OpenSpielMCTSBot])
def test_mcts_bots_refuse_a_terminal_state(bot_class):
    game = pyspiel.load_game("y_game(board_size=4)")
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    bot = bot_class(game, 0, max_simulations=10)
    for ask in (bot.step, bot.step_with_policy):
        with pytest.raises(ValueError, match="terminal state: the game is over"):
            ask(state)


def test_alphabeta_kind_plays_legal_moves():
    game = pyspiel.load_game("y_game(board_size=4)")
    bots = [make_bot("alphabeta:depth=2", game, 0, seed=1), make_bot("mcts", game, 1, seed=2)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 3)
    assert sorted(returns) == [-1.0, 1.0]


def test_core_of_uses_clone_of_our_core():
    state = pyspiel.load_game("y_game(board_size=4)").new_initial_state()
    core = core_of(state)
    core.apply_action(0)
    assert state.legal_actions() == list(range(10))  # the state's own core is untouched
    assert isinstance(make_bot("mcts", "y_game(board_size=4)", 0), CoreMCTSBot)

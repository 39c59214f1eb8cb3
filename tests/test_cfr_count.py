"""cfr.count: a game's histories counted without building its tree equal the
tree ``cfr.tree.enumerate_tree`` builds (an independent walk over OpenSpiel
states, one node per history, through OpenSpiel's own turn-based conversion of
simultaneous games), and games past a limit are refused with the count before
anything is built."""

import pyspiel
import pytest

import games  # noqa: F401
from cfr import tree as cfr_tree
from cfr.count import count_histories, is_core_game
from cfr.tree import TreeTooLarge, enumerate_tree
from experiments.economic_dilemmas import tournament_game

EXAMPLES = "games/ttt/examples"
SMALL = [
    "matrix_pd",
    "kuhn_poker",
    "goofspiel(players=3,num_cards=2)",
    "nim(pile_sizes=1;2)",  # OpenSpiel's
    f"ttt(rules={EXAMPLES}/Hide-And-Seek-2.json)",  # cloaked, sequential
    f"ttt(rules={EXAMPLES}/RPS-Shared-Lines.json)",  # one simultaneous round
    "ttt(rules=RockPaperScissors)",
    "ttt(rules=StagHunt)",
    "ttt(rules=ContractHunt)",  # rounds
    "ttt(rules=3P-BoS)",
    "ttt(rules=4P-TrendSetter)",  # three and four players in rounds
    "ttt(rules=NeedyTrust)",
    "ttt(rules=RichTrust)",
    "ttt(rules=3P-TrolleyDilemma)",  # chance (Chaos), turns
    "ttt(rules=Shopping9)",
    "ttt(rules=KBeauty9)",
]


@pytest.mark.parametrize("game_string", SMALL)
def test_count_equals_the_built_trees_size(game_string):
    game = pyspiel.load_game(tournament_game(game_string))
    tree = enumerate_tree(game, max_nodes=100_000)
    count = count_histories(game)
    assert count.exact
    assert count.histories == tree.num_nodes
    assert count.nonterminal == int((tree.node_player != -4).sum())
    # the simultaneous game itself (not yet turn-based) counts the same turn-based tree
    assert count_histories(pyspiel.load_game(game_string)).histories == tree.num_nodes
    assert is_core_game(game) == game_string.startswith("ttt(")


def test_a_refusal_reports_the_count_and_builds_nothing(monkeypatch):
    game = pyspiel.load_game(tournament_game("ttt(rules=StagHunt)"))
    n = count_histories(game).histories
    assert n == 787
    enumerate_tree(game, max_nodes=n)  # exactly at the limit: built

    def no_building(_game):
        raise AssertionError("the tree was walked after all")

    monkeypatch.setattr(cfr_tree, "deque", no_building)  # enumerate_tree's queue, made after the check
    with pytest.raises(TreeTooLarge, match=r"787 histories, more than 786; .*counted, not built"):
        enumerate_tree(game, max_nodes=n - 1)


def test_huge_trees_are_counted_exactly_when_their_positions_are_few():
    # 3Blotto13: one simultaneous round of plans; trillions of histories, tens of thousands of positions
    blotto = count_histories(pyspiel.load_game(tournament_game("ttt(rules=3Blotto13)")), limit=5_000_000)
    assert blotto.exact and blotto.histories > 10**12 and blotto.positions < 100_000
    assert blotto.text() == f"{blotto.histories:,} histories"
    with pytest.raises(TreeTooLarge, match=f"{blotto.histories:,} histories"):
        enumerate_tree(pyspiel.load_game("ttt(rules=3Blotto13)"), max_nodes=5_000_000)


def test_the_position_budget_gives_a_lower_bound():
    game = pyspiel.load_game(tournament_game("ttt(rules=ContractHunt)"))
    exact = count_histories(game)
    for budget in (1, 10, 100):
        bound = count_histories(game, max_positions=budget)
        assert (
            not bound.exact and bound.positions >= budget
        )  # (ancestors of the last position are stored too)
        assert budget <= bound.histories <= exact.histories
        assert budget <= bound.nonterminal <= exact.nonterminal
        assert bound.text().startswith(f"more than {bound.histories:,} histories (a lower bound")


def test_openspiels_games_are_walked_and_stopped_past_the_limit():
    kuhn = pyspiel.load_game("kuhn_poker")
    assert count_histories(kuhn).histories == 58
    stopped = count_histories(kuhn, limit=20)
    assert not stopped.exact and stopped.histories == 21 and stopped.over(20)
    with pytest.raises(TreeTooLarge, match="more than 57 histories"):
        enumerate_tree(kuhn, max_nodes=57)

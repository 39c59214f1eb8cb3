"""The classifiers of games named by what their strategies mean
(solvers/classify.py, second part): each checked on textbook tables typed or
built from the textbook's rule here, positive and negative, never on this
toolkit's tables (those verdicts are pinned in tests/test_reduced_tables.py)."""

import itertools

import numpy as np
import pytest

from solvers.classify import (
    classify,
    classify_beauty_contest,
    classify_blotto,
    classify_common_pool,
    classify_hide_and_seek,
    classify_investment,
    classify_named,
    classify_tree,
    classify_trend_setting,
    classify_trolley,
    permuted,
    reproduces,
)
from solvers.normal_form import Decision, NormalFormGame


def zero_sum(a):
    a = np.asarray(a, dtype=float)
    return NormalFormGame(np.stack([a, -a]))


# ---------------------------------------------------------------- Colonel Blotto

# Three alike battlefields, 3 units each, allocations up to order (laid in random order),
# Borel's majority rule; worked by hand: (1,1,1) beats (3,0,0) on two fields of three;
# (2,1,0) against (3,0,0) wins only when the 3 lands where the 0 is (1/3); (2,1,0)
# against itself: over the 6 relative orders +1 once, -1 once.
BLOTTO_3_3 = [[0, -1 / 3, -1], [1 / 3, 0, 0], [1, 0, 0]]
PARTS = [(3, 0, 0), (2, 1, 0), (1, 1, 1)]
# Asymmetric budgets (2 against 1) on two fields, allocations as placed, majority rule.
BLOTTO_2_1 = [[1, 0], [1, 1], [0, 1]]
ALLOC_2_1 = [[(2, 0), (1, 1), (0, 2)], [(1, 0), (0, 1)]]


def test_blotto_textbook_tables():
    c = classify_blotto(zero_sum(BLOTTO_3_3), [PARTS, PARTS], permuted=True)
    assert c.label == "colonel-blotto" and "Borel" in c.reason
    scaled = NormalFormGame(np.stack([10 * np.asarray(BLOTTO_3_3) + 5, -10 * np.asarray(BLOTTO_3_3) - 5]))
    assert classify_blotto(scaled, [PARTS, PARTS], permuted=True).label == "colonel-blotto"
    assert classify_blotto(zero_sum(BLOTTO_2_1), ALLOC_2_1).label == "colonel-blotto"
    # relabelled strategies with their allocations relabelled alike: still Blotto
    g = permuted(zero_sum(BLOTTO_2_1), [(2, 0, 1), (1, 0)])
    assert (
        classify_blotto(g, [[ALLOC_2_1[0][i] for i in (2, 0, 1)], ALLOC_2_1[1][::-1]]).label
        == "colonel-blotto"
    )


def test_blotto_negatives():
    rps = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
    assert classify_blotto(zero_sum(rps), [PARTS, PARTS], permuted=True).label == "other"
    # the right table with the allocations swapped between strategies
    assert classify_blotto(zero_sum(BLOTTO_2_1), [ALLOC_2_1[0][::-1], ALLOC_2_1[1]]).label == "other"
    # a missing allocation, and a strategy that does not spend the budget
    assert classify_blotto(zero_sum([[1, 0], [1, 1]]), [ALLOC_2_1[0][:2], ALLOC_2_1[1]]).label == "other"
    assert classify_blotto(zero_sum(BLOTTO_2_1), [[(2, 0), (1, 1), (0, 1)], ALLOC_2_1[1]]).label == "other"
    # not zero-sum
    a = np.asarray(BLOTTO_2_1, dtype=float)
    assert classify_blotto(NormalFormGame(np.stack([a, a])), ALLOC_2_1).label == "other"
    # the table alone does not say
    assert classify_named("colonel-blotto", zero_sum(BLOTTO_3_3)).label == "not checkable"
    assert classify(zero_sum(BLOTTO_3_3)).label != "colonel-blotto"


# ---------------------------------------------------------------- beauty contest


def lower_wins_2():
    """Two players naming 0, 1 or 2: with p < 1 the lower number is always
    closer to p times the mean (the textbook's two-player guessing game);
    a tie splits the prize."""
    a = np.array([[0.5, 1, 1], [0, 0.5, 1], [0, 0, 0.5]])
    return NormalFormGame(np.stack([a, 1 - a]))


def three_players_0_1():
    """Three players naming 0 or 1, p = 2/3: the 0s are always closest (one 0
    against two 1s: target 4/9, the 0 is 4/9 away, the 1s 5/9)."""
    arr = np.zeros((3, 2, 2, 2))
    for prof in itertools.product((0, 1), repeat=3):
        zeros = [p for p in range(3) if prof[p] == 0]
        winners = zeros if zeros else [0, 1, 2]
        for p in winners:
            arr[(p,) + prof] = 1 / len(winners)
    return NormalFormGame(arr)


def ranked_wins(n, k, rank):
    """n players naming 0..k-1; those naming the rank-th highest distinct
    number win (nobody when there is no such number: all equal)."""
    arr = np.zeros((n,) + (k,) * n)
    for prof in itertools.product(range(k), repeat=n):
        values = sorted(set(prof), reverse=True)
        if len(values) > rank:
            for p in range(n):
                arr[(p,) + prof] = 1.0 if prof[p] == values[rank] else -1.0
    return NormalFormGame(arr)


def test_beauty_contest_textbook_tables():
    # three naming 0, 1 or 2, the runner-up wins: that is the p-beauty contest for p in (1/2, 3/4)
    # ((0,1,2): 1 is closest to p * 1 when p > 1/2; (0,2,2): 0 is closest to p * 4/3 when p < 3/4)
    c = classify_beauty_contest(ranked_wins(3, 3, 1), [[0, 1, 2]] * 3)
    assert c.label == "beauty-contest" and 0.5 < float(c.reason.split("p = ")[1]) < 0.75, c

    c = classify_beauty_contest(lower_wins_2(), [[0, 1, 2], [0, 1, 2]])
    assert c.label == "beauty-contest", c
    assert classify_beauty_contest(three_players_0_1(), [[0, 1]] * 3).label == "beauty-contest"
    # win +1 / lose -1 with the prize's unit and zero moved
    g = three_players_0_1()
    assert classify_beauty_contest(NormalFormGame(6 * g.payoffs - 1), [[0, 1]] * 3).label == "beauty-contest"


def test_beauty_contest_negatives():
    g = lower_wins_2()
    higher = NormalFormGame(g.payoffs[:, ::-1, ::-1])  # the higher number wins: p > 1
    assert classify_beauty_contest(higher, [[0, 1, 2], [0, 1, 2]]).label == "other"
    # the right table but the numbers listed the other way round
    assert classify_beauty_contest(g, [[2, 1, 0], [2, 1, 0]]).label == "other"
    # "the highest wins" among three naming 0, 1, 2: with p < 1 the highest is never closest alone
    assert classify_beauty_contest(ranked_wins(3, 3, 0), [[0, 1, 2]] * 3).label == "other"
    # "the second highest wins" among four naming 0..4 (mean 2.5 for 1, 2, 3, 4: 3 would need p > 1)
    assert classify_beauty_contest(ranked_wins(4, 5, 1), [list(range(5))] * 4).label == "other"
    assert classify_named("beauty-contest", g).label == "not checkable"


# ---------------------------------------------------------------- common pool


def commons(n_max=4, capacity=8):
    """Gordon's fishery in miniature: each of two takes x in 0..n_max and earns
    x per unit times what the pool is worth per unit, capacity - X."""
    arr = np.zeros((2, n_max + 1, n_max + 1))
    for x, y in itertools.product(range(n_max + 1), repeat=2):
        arr[0, x, y] = x * (capacity - x - y)
        arr[1, x, y] = y * (capacity - x - y)
    return NormalFormGame(arr)


def test_common_pool_textbook_tables():
    q = [list(range(5))] * 2
    c = classify_common_pool(commons(), q)
    assert c.label == "common-pool-resource", c
    # a prisoner's dilemma is the two-level commons: defecting takes more
    pd = NormalFormGame([[[3, 0], [5, 1]], [[3, 5], [0, 1]]])
    assert classify_common_pool(pd, [[0, 1], [0, 1]]).label == "common-pool-resource"


def test_common_pool_negatives():
    # public goods: the others' contributions help
    pg = NormalFormGame(
        np.stack(
            [
                np.add.outer(np.arange(3) * 0.5, np.arange(3) * 1.5) - np.arange(3)[:, None],
                (np.add.outer(np.arange(3) * 1.5, np.arange(3) * 0.5) - np.arange(3)[None, :]),
            ]
        )
    )
    assert classify_common_pool(pg, [[0, 1, 2]] * 2).label == "other"
    # a small externality without over-appropriation: taking all is also the optimum
    mild = NormalFormGame(
        np.stack(
            [
                np.subtract.outer(np.arange(3.0), np.arange(3) / 10),
                np.subtract.outer(np.arange(3.0), np.arange(3) / 10).T,
            ]
        )
    )
    assert classify_common_pool(mild, [[0, 1, 2]] * 2).label == "other"
    # the commons with the quantities read backwards
    assert classify_common_pool(commons(), [list(range(4, -1, -1))] * 2).label == "other"
    assert classify_named("common-pool-resource", commons()).label == "not checkable"


# ---------------------------------------------------------------- trolley


def trolley(pass_payoffs, switch_payoffs, movers_for_others=1):
    """Player 0 chooses (pass, switch); the others' strategies change nothing."""
    n = len(pass_payoffs)
    shape = (2,) + (movers_for_others,) * (n - 1)
    arr = np.zeros((n,) + shape)
    for prof in itertools.product(*(range(k) for k in shape)):
        arr[(slice(None),) + prof] = pass_payoffs if prof[0] == 0 else switch_payoffs
    return NormalFormGame(arr)


def test_trolley_textbook_tables():
    # Thomson's switch: doing nothing kills the two on the main track, switching the one on the side track
    g = trolley([0, -1, -1, 0], [0, 0, 0, -1])
    assert classify_trolley(g, inaction=(0, 0)).label == "trolley"
    c = classify_trolley(g)
    assert c.label == "trolley" and "not checkable" in c.reason
    # the others' strategies that change nothing are duplicates, removed
    assert classify_trolley(trolley([0, -1, -1, 0], [0, 0, 0, -1], movers_for_others=2)).label == "trolley"
    assert reproduces("trolley", "trolley", players=4) == "yes"


def test_trolley_negatives():
    g = trolley([0, -1, -1, 0], [0, 0, 0, -1])
    assert classify_trolley(g, inaction=(0, 1)).label == "other"  # acting harms the larger group
    assert classify_trolley(trolley([0, -1, 0], [0, 0, -1])).label == "other"  # one against one
    assert classify_trolley(trolley([0, -1, -1, 0], [-1, 0, 0, 0])).label == "other"  # the chooser pays
    # a second player whose choice matters
    arr = np.zeros((3, 2, 2, 1))
    arr[:, 0, 0, 0], arr[:, 1, 0, 0] = [0, -1, -1], [0, 0, 0]
    arr[:, 0, 1, 0], arr[:, 1, 1, 0] = [0, 0, -1], [0, -1, 0]
    assert classify_trolley(NormalFormGame(arr)).label == "other"
    assert reproduces("trolley", "other", players=4) == "no"


# ---------------------------------------------------------------- hide and seek


def test_hide_and_seek_textbook_tables():
    # the seeker (columns) scores 1 where it looks in the hider's place
    seek = np.eye(3)
    g = NormalFormGame(np.stack([-seek, seek]))
    assert classify_hide_and_seek(g).label == "hide-and-seek"
    # detection probabilities differing by place (von Neumann's form), seeker as rows, relabelled
    d = np.diag([0.5, 0.8, 1.0])
    h = permuted(NormalFormGame(np.stack([d, -d])), [(1, 2, 0), (0, 1, 2)])
    assert classify_hide_and_seek(h).label == "hide-and-seek"
    mp = NormalFormGame([[[1, -1], [-1, 1]], [[-1, 1], [1, -1]]])
    assert classify_hide_and_seek(mp).label == "hide-and-seek"


def test_hide_and_seek_negatives():
    rps = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
    assert classify_hide_and_seek(zero_sum(rps)).label == "other"
    # the seeker scores in two places against one hiding place
    two = np.array([[1, 1, 0], [0, 1, 0], [0, 0, 1]], dtype=float)
    assert classify_hide_and_seek(NormalFormGame(np.stack([-two, two]))).label == "other"
    # not zero-sum
    assert classify_hide_and_seek(NormalFormGame(np.stack([np.eye(3), np.eye(3)]))).label == "other"
    assert classify_hide_and_seek(NormalFormGame(np.zeros((3, 2, 2, 2)))).label == "not checkable"


# ---------------------------------------------------------------- trend setting (minority game)


def minority(n, k=2):
    """Challet and Zhang's minority game: a player scores 1 when strictly
    fewer players chose its option than chose the most crowded one ... for
    two options and odd n: when its side is the minority."""
    arr = np.zeros((n,) + (k,) * n)
    for prof in itertools.product(range(k), repeat=n):
        for p in range(n):
            arr[(p,) + prof] = 1.0 if prof.count(prof[p]) < n / 2 else 0.0
    return NormalFormGame(arr)


def test_trend_setting_textbook_tables():
    assert classify_trend_setting(minority(3)).label == "trend-setting"
    assert classify_trend_setting(minority(5)).label == "trend-setting"
    # two players who both want to differ (a dispersion game)
    differ = np.array([[0, 1], [1, 0]], dtype=float)
    assert classify_trend_setting(NormalFormGame(np.stack([differ, differ]))).label == "trend-setting"
    assert reproduces("trend-setting", "trend-setting", players=4) == "yes"


def test_trend_setting_negatives():
    # the majority game: everyone wants the crowd
    maj = minority(3)
    assert classify_trend_setting(NormalFormGame(1 - maj.payoffs)).label == "other"
    # matching pennies is not symmetric (it is named by classify instead)
    mp = NormalFormGame([[[1, -1], [-1, 1]], [[-1, 1], [1, -1]]])
    assert classify_trend_setting(mp).label == "other"
    assert reproduces("trend-setting", classify(mp).label) == "yes"
    # symmetric but nobody cares: a constant game
    assert classify_trend_setting(NormalFormGame(np.zeros((3, 2, 2, 2)))).label == "other"


# ---------------------------------------------------------------- the investment (trust) game


def investment(endowment=2, multiplier=3):
    """Berg, Dickhaut and McCabe's game: the investor sends k of its
    endowment, the trustee receives multiplier * k and returns j of it."""
    return Decision(
        0,
        {
            f"send {k}": (
                Decision(
                    1,
                    {
                        f"return {j}": (endowment - k + j, multiplier * k - j)
                        for j in range(multiplier * k + 1)
                    },
                )
                if k
                else (endowment, 0)
            )
            for k in range(endowment + 1)
        },
    )


def test_investment_game():
    assert classify_investment(investment()).label == "trust"
    assert classify_investment(investment(endowment=1, multiplier=3)).label == "trust"
    # doubling one indivisible unit cannot leave both better off: no return after it beats keeping
    assert classify_investment(investment(endowment=1, multiplier=2)).label == "other"
    # Kreps's binary trust game is also an investment game with one send
    kreps = Decision(0, {"keep": (1, 1), "trust": Decision(1, {"betray": (0, 3), "reward": (2, 2)})})
    assert classify_investment(kreps).label == "trust" and classify_tree(kreps).label == "trust"


def test_investment_game_with_bounded_payoffs():
    """Scored on a bounded scale (as win/draw/lose), a trustee already at the
    floor loses nothing more by returning more: the weak conditions still
    name it, the strict textbook ones would not."""

    def clip(node):
        if isinstance(node, Decision):
            return Decision(node.player, {a: clip(v) for a, v in node.moves.items()})
        return (min(node[0], 3), max(min(node[1], 4), 1))

    assert classify_investment(clip(investment())).label == "trust"


def test_investment_negatives():
    assert classify_investment(investment(multiplier=1)).label == "other"  # nothing grows: trust cannot pay
    # a trustee who gains by returning
    odd = Decision(0, {"send 0": (1, 0), "send 1": Decision(1, {"return 0": (0, 1), "return 1": (2, 2)})})
    assert classify_investment(odd).label == "other"
    assert classify_investment((1, 1)).label == "other"


def test_named_dispatch_refuses_unknown_meanings():
    with pytest.raises(ValueError):
        classify_named("prisoners-dilemma", minority(3))
    with pytest.raises(ValueError):
        classify_named("trolley", minority(3), numbers=[[0, 1]] * 3)

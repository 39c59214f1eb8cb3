"""solvers.classify.classify_public_goods against textbook tables: the
linear voluntary contribution mechanism (Isaac, Walker & Thomas 1984; Ledyard
1995), u_i = w_i - c_i + m * sum_j c_j, is a public goods game exactly when
1/n < m < 1; and 3P-PublicGoods' verdict (docs/rules/dilemmas.md)."""

from itertools import product

import numpy as np
import pytest

from solvers.classify import NAMED, classify_named, classify_public_goods, reproduces
from solvers.normal_form import NormalFormGame


def vcm(m, endowments=(2, 2, 2), step=1):
    """The linear VCM table: player p's strategy i gives i * step."""
    gives = [list(range(0, w + 1, step)) for w in endowments]
    n = len(endowments)
    arr = np.zeros((n,) + tuple(len(g) for g in gives))
    for prof in product(*(range(len(g)) for g in gives)):
        c = [gives[p][i] for p, i in enumerate(prof)]
        for p in range(n):
            arr[(p,) + prof] = endowments[p] - c[p] + m * sum(c)
    return NormalFormGame(arr), gives


@pytest.mark.parametrize("m,endowments", [(0.5, (2, 2, 2)), (0.6, (1, 2, 3)), (0.3, (1, 1, 1, 1))])
def test_textbook_vcm_is_public_goods(m, endowments):
    g, gives = vcm(m, endowments)
    assert classify_public_goods(g, gives).label == "public-goods"
    assert classify_named("public-goods", g, contributions=gives).label == "public-goods"
    assert reproduces("public-goods", "public-goods", players=len(endowments)) == "yes"


def test_contributing_that_pays_is_no_public_goods_game():
    g, gives = vcm(1.2)  # m >= 1: giving is privately profitable
    assert "free riding" in classify_public_goods(g, gives).reason


def test_too_small_a_return_is_no_dilemma():
    g, gives = vcm(0.2)  # m n = 0.6 < 1: all giving is worse for everyone
    c = classify_public_goods(g, gives)
    assert c.label == "other" and "social dilemma" in c.reason


def test_a_private_cost_without_benefit_to_others_is_no_public_good():
    g, gives = vcm(0.0)
    assert "not a public good" in classify_public_goods(g, gives).reason


def test_without_contributions_it_is_not_checkable():
    g, _ = vcm(0.5)
    assert classify_named("public-goods", g).label == "not checkable"
    assert NAMED["public-goods"] == ("contributions",)


def test_three_player_public_goods_rule_set_verdict():
    """3P-PublicGoods (docs/rules/dilemmas_by_game.md, its section):
    not a public goods game. Two contributions in the single round collide on
    the shared stack and are destroyed (powerless circles: no rank resolves
    it), so another's contribution can cost a player. A lone contribution is
    shared by all three (the whole-stack showdown, docs/rules/dilemmas.md,
    reading 19): black's costs black and leaves white better off than everyone
    passing, and pink's whole stack costs pink and pays the other two (the
    move limit of 20 lets it play out; 12 would cut it short and make everyone
    win)."""
    from fractions import Fraction as F

    from analysis.reduced_games import classify_reduced, reduced

    r = reduced("3P-PublicGoods")
    assert r.meaning["contributions"] == [[1, 0], [2, 1, 0], [3, 2, 1, 0]]
    c = classify_reduced(r, "public-goods")
    assert c.label == "other" and "not a public good" in c.reason
    assert r.exact[(1, 2, 3)] == (F(3, 4), F(7, 8), F(15, 16))  # everyone passes
    assert r.exact[(0, 2, 3)] == (F(2, 3), F(43, 48), F(15, 16))  # black gives its circle
    assert r.exact[(1, 2, 0)] == (F(15, 16), 1, F(7, 8))  # pink gives its three

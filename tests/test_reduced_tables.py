"""Reduced games of the too-large dilemmas (analysis/reduced_games.py) and the
verdicts the named classifiers give on them: each verdict pinned, with the
facts of the table that decide it, so that a change to a rule set or the
engine that changes what a dilemma encodes shows here."""

from fractions import Fraction as F

import numpy as np
import pytest

from analysis.reduced_games import REDUCED, _by_name, _load, classify_reduced, expected_returns, reduced
from solvers.classify import classify_named, reproduces
from solvers.normal_form import Decision, backward_induction, induced_normal_form, pure_equilibria


def verdict(name, encodes):
    r = reduced(name)
    c = classify_reduced(r, encodes)
    return r, c


def test_every_too_large_dilemma_of_the_brief_has_a_reduced_game():
    assert {
        "NeedyTrust",
        "RichTrust",
        "Centipede9",
        "NeedyCentipede4",
        "3P-Volunteer",
        "KBeauty9",
        "Shopping9",
        "3Blotto13",
    } <= set(REDUCED)
    with pytest.raises(KeyError, match="no reduced table"):
        reduced("PrisonerDilemma")


def test_trust_order_of_placements_does_not_matter():
    """The family names amounts only: sending (returning) first or keeping
    first gives the same exact value for every amount."""
    game = _load("NeedyTrust")
    for k in range(3):
        values = set()
        for send_first in (True, False):
            for return_first in (True, False):
                counts = {0: 0, 1: 0}

                def choose(s, k=k, send_first=send_first, return_first=return_first, counts=counts):
                    p = s.current_player()
                    i = counts[p]
                    counts[p] += 1
                    if p == 0:
                        send = i < k if send_first else i >= 2 - k
                        return _by_name(s, f"black@stack({2 if send else 1},1) circle")
                    j = k  # return half of what came
                    ret = i < j if return_first else i >= 2 * k - j
                    return _by_name(s, f"white@stack({3 if ret else 2},1) circle")

                values.add(expected_returns(game.new_initial_state(), choose))
        assert len(values) == 1, (k, values)


def test_needy_trust_is_no_trust_game():
    """NeedyTrust: white (the trustee) gets -1 whatever it returns after one
    circle sent, so returning costs it nothing: no trust dilemma."""
    r, c = verdict("NeedyTrust", "trust")
    assert r.exact[(0, 0)] == (F(1, 4), -1)
    assert [r.exact[(1, j)] for j in range(3)] == [(F(-1, 2), -1), (F(1, 4), -1), (F(3, 4), -1)]
    assert c.label == "other" and "no return moves payoff" in c.reason
    assert reproduces("trust", c.label) == "no"


def test_rich_trust_is_a_trust_game():
    """RichTrust: sending everything and getting 5 of 8 back (1, 1/4) beats
    sending nothing (3/4, -1) for both, yet white returns nothing in the
    subgame-perfect play and black then sends nothing."""
    r, c = verdict("RichTrust", "trust")
    assert r.exact[(0, 0)] == (F(3, 4), -1) and r.exact[(4, 5)] == (1, F(1, 4))
    assert c.label == "trust", c
    spe = backward_induction(r.tree)
    assert spe.path[0] == "send 0" and list(spe.value) == [0.75, -1]
    assert reproduces("trust", c.label) == "yes"


@pytest.mark.parametrize("name", ["Centipede9", "NeedyCentipede4"])
def test_centipedes_are_no_centipede(name):
    """Cover-or-pass: a pass does not end the game (the other may still
    cover), and the returns are win/lose, so the total cannot grow along the
    line: no centipede. Subgame-perfect play has black win."""
    r, c = verdict(name, "centipede")
    assert c.label == "other"
    spe = backward_induction(r.tree)
    assert spe.value[0] > 0 > spe.value[1]
    node = r.tree
    while isinstance(node, Decision):
        node = node.moves.get("cover", node.moves.get("pass"))
    assert node[0] < 0 < node[1]  # both always covering: white holds the pot
    assert all(isinstance(v, Decision) for v in r.tree.moves.values())  # no first move ends the game


def test_shopping_is_a_demand_game_not_a_tragedy():
    """Shopping9 (buy k, buy j): taking more never helps the other, but every
    pure equilibrium buys exactly 9 in total, as the welfare optimum does:
    the pool is exhausted, never over-taken (the cliff at 9 is a Nash demand
    game's), so no tragedy of the commons."""
    r, c = verdict("Shopping9", "common-pool-resource")
    eqs = pure_equilibria(r.table)
    assert eqs and all(k + j == 9 for k, j in eqs)
    assert c.label == "other" and "no over-appropriation" in c.reason
    assert reproduces("common-pool-resource", c.label) == "no"


def test_blotto_is_colonel_blotto():
    r, c = verdict("3Blotto13", "colonel-blotto")
    assert r.table.shape == (21, 21)
    assert c.label == "colonel-blotto" and "Borel" in c.reason
    assert reproduces("colonel-blotto", c.label) == "yes"
    assert classify_named("colonel-blotto", r.table).label == "not checkable"  # the allocations decide


def test_four_player_trolley_is_a_trolley_dilemma_and_three_player_is_not():
    """The catalogue's trolley rule sets through the classifier of
    analysis/reduced_games.py: in 4P black alone chooses whom the loss falls on, one player
    or two; in 3P both choices harm one player each."""
    four = classify_named("trolley", induced_normal_form("ttt(rules=4P-TrolleyDilemma)").game)
    assert four.label == "trolley"
    assert reproduces("trolley", four.label, players=4) == "yes"
    three = classify_named("trolley", induced_normal_form("ttt(rules=3P-TrolleyDilemma)").game)
    assert three.label != "trolley"
    assert reproduces("trolley", three.label, players=3) == "no"


def test_trend_setter_full_table_is_a_minority_game():
    g = induced_normal_form("ttt(rules=4P-TrendSetter)").game
    c = classify_named("trend-setting", g)
    assert c.label == "trend-setting"
    assert reproduces("trend-setting", c.label, players=4) == "yes"


@pytest.mark.slow
def test_kbeauty_is_no_beauty_contest():
    """KBeauty9 (name k circles): the runner-up wins. (1, 2, 3, 4): 3 wins,
    but with mean 2.5 no p < 1 puts 3 nearest: not a p-beauty contest."""
    r, c = verdict("KBeauty9", "beauty-contest")
    assert r.table.shape == (10,) * 4
    assert r.exact[(1, 2, 3, 4)] == (-1, -1, 1, -1)
    assert c.label == "other"
    assert reproduces("beauty-contest", c.label, players=4) == "no"


@pytest.mark.slow
def test_volunteer_is_a_public_goods_game():
    """3P-Volunteer (stay or volunteer): staying strictly dominates even when
    nobody volunteers, and all volunteering beats none: an n-player
    prisoner's dilemma (public goods), not a volunteer's dilemma (where a
    lone volunteer is better off than when nobody volunteers)."""
    r = reduced("3P-Volunteer")
    c = classify_reduced(r, "volunteers-dilemma")
    assert c.label == "public-goods", c
    assert r.exact[(1, 0, 0)][0] < r.exact[(0, 0, 0)][0] < r.exact[(1, 1, 1)][0]
    assert reproduces("volunteers-dilemma", c.label, players=3) == "no"
    assert np.allclose(r.table.payoffs[0], r.table.payoffs[1].transpose(1, 0, 2))  # symmetric


def test_the_study_takes_the_named_verdicts():
    """experiments.economic_dilemmas: a refused table's dilemma is classified
    on its reduced game, a named game on its full table by its own
    definition; references are left to the payoff-order classifier."""
    from experiments.economic_dilemmas import named_verdict

    rec = {"classified": "other"}
    named_verdict({"kind": "dilemma", "name": "RichTrust", "encodes": "trust"}, rec, None)
    assert rec["classified"] == "trust" and rec["classified_reason"].startswith("on the reduced")
    assert rec["reduced"]["tree_nodes"] > 5 and "Berg" in rec["reduced"]["family"]
    g = induced_normal_form("ttt(rules=4P-TrendSetter)").game
    rec = {"classified": "other"}
    named_verdict({"kind": "dilemma", "name": "4P-TrendSetter", "encodes": "trend-setting"}, rec, g)
    assert rec["classified"] == "trend-setting" and rec["payoff_order"] == "other"
    rec = {"classified": "matching-pennies"}
    named_verdict({"kind": "reference", "name": "matrix_mp", "encodes": None}, rec, None)
    assert rec == {"classified": "matching-pennies"}


@pytest.mark.slow
def test_the_study_classifies_the_volunteer_on_stay_or_volunteer():
    """3P-Volunteer's full 3x3x3 table names nothing (staying dominates both
    volunteering stacks); the study then takes the stay/volunteer game."""
    from experiments.economic_dilemmas import named_verdict

    g = induced_normal_form("ttt(rules=3P-Volunteer)").game
    rec = {"classified": "other"}
    named_verdict({"kind": "dilemma", "name": "3P-Volunteer", "encodes": "volunteers-dilemma"}, rec, g)
    assert rec["classified"] == "public-goods" and rec["payoff_order"] == "other"


def test_the_ultimatums_by_their_offers_and_answers():
    """The extensive-form test (solvers.classify.classify_ultimatum) on the offer-k,
    accept-or-reject tree: RichUltimatum is an ultimatum game although its full table's
    payoff order names none; NeedyUltimatum is not, because rejecting is worth more to
    white after the larger offers (its X can then only remove a circle black kept)."""
    rich, c = verdict("RichUltimatum", "ultimatum")
    assert c.label == "ultimatum" and reproduces("ultimatum", c.label) == "yes"
    assert {rich.exact[(k, "reject")] for k in range(4)} == {(F(-1), F(-1))}
    assert [rich.exact[(k, "accept")] for k in range(4)] == [
        (F(1), F(-1, 2)),
        (F(1), F(1, 4)),
        (F(7, 8), F(5, 8)),
        (F(5, 8), F(7, 8)),
    ]
    spe = backward_induction_tree(rich.tree)
    assert spe[1] == "accept"  # white accepts the offer black makes
    needy, c = verdict("NeedyUltimatum", "ultimatum")
    assert c.label == "other" and "one disagreement outcome" in c.reason
    assert needy.exact[(3, "reject")] == (F(-1), F(1, 4))


def backward_induction_tree(tree):
    """The subgame-perfect path of an offer/answer tree: (offer, answer), first on ties."""
    best = None
    for offer, node in tree.moves.items():
        answer = max(node.moves, key=lambda a: node.moves[a][1])
        value = node.moves[answer]
        if best is None or value[0] > best[0][0]:
            best = (value, offer, answer)
    return best[1], best[2]


def test_ultimatum_order_of_placements_does_not_matter():
    """The family names the offer only: offering first or keeping first gives the same
    exact value for every offer and answer."""
    game = _load("RichUltimatum")
    for k in range(4):
        for stack in (3, 2):
            values = set()
            for offer_first in (True, False):
                count = [0]

                def choose(s, k=k, stack=stack, offer_first=offer_first, count=count):
                    if s.current_player() == 1:
                        return _by_name(s, f"white@stack({stack},1) x")
                    i = count[0]
                    count[0] += 1
                    offer = i < k if offer_first else i >= 3 - k
                    return _by_name(s, f"black@stack({1 if offer else 2},1) circle")

                values.add(expected_returns(game.new_initial_state(), choose))
            assert len(values) == 1, (k, stack, values)

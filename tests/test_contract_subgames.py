"""ContractPD and ContractHunt judged as a contract stage followed by the base game
(``analysis.contract_subgames``): each subgame after white's contract, exactly."""

from fractions import Fraction as F

from analysis.contract_subgames import report, subgames


def test_contractpd_round_after_the_own_stack_contract_is_prisonerdilemmas_table():
    after = {s.contract: s for s in subgames("ContractPD")}
    own = after["white@stack(3,1) pentagon"]
    assert own.table == (
        ((F(8, 27), F(8, 27)), (F(1), F(-1))),
        ((F(-1), F(1)), (F(-179, 729), F(-179, 729))),
    )
    # each seat's own stack dominates and the dominant pair is the best symmetric
    # outcome: no prisoner's dilemma, whatever the contract stage adds
    assert own.label != "prisoners-dilemma" and own.equilibria == ((0, 0),)


def test_contractpd_contract_on_the_open_stack_lifts_both_to_three_quarters():
    after = {s.contract: s for s in subgames("ContractPD")}
    open_stack = after["white@stack(5,1) pentagon"]
    assert [open_stack.table[i][j] for i, j in open_stack.equilibria] == [(F(3, 4), F(3, 4))]
    assert "white@stack(5,1) pentagon -> (3/4, 3/4)" in report("ContractPD")


def test_contracthunt_no_round_after_a_contract_is_a_stag_hunt():
    rounds = subgames("ContractHunt")
    assert len(rounds) == 2 and all(s.label != "stag-hunt" for s in rounds)
    assert "white@stack(2,1) pentagon -> (7/27, 7/27)" in report("ContractHunt")

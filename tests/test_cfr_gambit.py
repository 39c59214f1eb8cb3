"""CFR's average policy against pygambit's equilibria on our catalogue games:
RockPaperScissors, PrisonerDilemma, StagHunt and BoS.

The reference is pygambit (not our code): its linear program (``lp_solve``) for
the zero-sum RockPaperScissors, its ``enummixed`` (every extreme equilibrium) for
the others, and its own ``max_regret`` of CFR's profile. Our part is only the
payoff table (``solvers.normal_form.induced_normal_form``, checked against
``games.normal_form`` in tests/test_normal_form.py) and turning CFR's behaviour
policy into the realisation-equivalent mixed strategy (``_mixed`` below).
"""

import numpy as np
import pyspiel
import pytest

import games  # noqa: F401  (registers ttt)
from cfr.solve import run
from solvers.normal_form import expected_payoffs, induced_normal_form, nash_equilibria, to_gambit

RPS = "ttt(rules=RockPaperScissors)"


def _solve(game_string: str, iterations: int):
    game = pyspiel.load_game(game_string)
    inf = induced_normal_form(game)
    policy = run(game, "cfr+", iterations=iterations).policy
    return inf, policy


def _mixed(inf, player: int, policy: dict) -> np.ndarray:
    """A behaviour policy as a mixed strategy: each pure strategy's probability is the
    product of the policy's probabilities of its actions."""
    acts = inf.actions[player]
    out = np.zeros(int(np.prod([len(a) for a in acts])))
    for i in range(len(out)):
        out[i] = np.prod([dict(policy[key])[a] for key, a in inf.strategy(player, i).items()])
    return out


def _gambit_profile(gg, mixed):
    prof = gg.mixed_strategy_profile(rational=False)
    for player, sigma in zip(gg.players, mixed, strict=True):
        for strategy, p in zip(player.strategies, sigma, strict=True):
            prof[strategy] = float(p)
    return prof


def test_rock_paper_scissors_value_and_equilibrium_agree_with_pygambits_lp():
    import pygambit as gbt

    inf, policy = _solve(RPS, 5000)
    gg = to_gambit(inf.game)
    lp = gbt.nash.lp_solve(gg, rational=False).equilibria
    assert len(lp) == 1
    players = list(gg.players)
    value = lp[0].payoff(players[0])
    mixed = [_mixed(inf, p, policy) for p in range(2)]
    ours = expected_payoffs(inf.game, mixed)
    assert ours[0] == pytest.approx(value, abs=1e-3)
    assert ours[1] == pytest.approx(-value, abs=1e-3)
    # pygambit's own regret of CFR's profile: no player gains more than 1e-3 by deviating
    assert _gambit_profile(gg, mixed).max_regret() < 1e-3
    # the first round's choice is the unique part of the equilibrium: 1/3 each, as the LP's
    lp_mixed = [np.array([lp[0][s] for s in pl.strategies], dtype=float) for pl in players]
    for p in range(2):
        first = inf.infosets[p][0]
        theirs = dict(inf.behaviour(p, lp_mixed[p])[first])
        for a, prob in policy[first]:
            assert prob == pytest.approx(theirs[a], abs=1e-3)
            assert prob == pytest.approx(1 / 3, abs=1e-3)


@pytest.mark.parametrize("name", ["PrisonerDilemma", "StagHunt", "BoS"])
def test_dilemma_strategies_and_values_agree_with_pygambit(name):
    inf, policy = _solve(f"ttt(rules={name})", 2000)
    equilibria = nash_equilibria(inf.game, "enummixed")
    assert equilibria
    mixed = [_mixed(inf, p, policy) for p in range(inf.game.num_players)]
    dists = [
        max(float(np.max(np.abs(m - np.asarray(s)))) for m, s in zip(mixed, eq, strict=True))
        for eq in equilibria
    ]
    best = int(np.argmin(dists))
    assert dists[best] < 1e-3, (name, dists)
    assert expected_payoffs(inf.game, mixed) == pytest.approx(
        expected_payoffs(inf.game, [np.asarray(s) for s in equilibria[best]]), abs=1e-3
    )
    assert _gambit_profile(to_gambit(inf.game), mixed).max_regret() < 1e-3


@pytest.mark.slow
def test_rock_paper_scissors_is_near_one_of_all_pygambits_extreme_equilibria():
    """enummixed lists 4,096 extreme equilibria of the 24x24 table (they differ in
    the second round after a decided first one); ~40 s under load, hence slow."""
    from experiments.economic_dilemmas import policy_distance

    inf, policy = _solve(RPS, 5000)
    game = pyspiel.convert_to_turn_based(pyspiel.load_game(RPS))
    equilibria = nash_equilibria(inf.game, "enummixed")
    assert len(equilibria) > 1
    dists = [policy_distance(inf, [np.asarray(s) for s in eq], policy, game) for eq in equilibria]
    assert min(dists) < 1e-3

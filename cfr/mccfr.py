"""Monte Carlo CFR (outcome and external sampling) that never enumerates the tree.

Why our own: the point of sampling is the games too large for tabular CFR
(3Blotto13 has 3.8 x 10^12 histories), yet OpenSpiel's C++ MCCFR solvers can only
be read back through a state of each information state (their average policy
raises for an information-state string never sampled), which means walking the
tree to find those states. Here the regret and average tables are keyed by
information-state string and filled as iterations visit them, so a solve costs
what it samples and its average policy is exactly the table: information states
never visited are absent, and a policy file or the ``cfr`` bot plays them
uniformly (``CFRPolicyBot`` counts them in ``misses``).

The algorithms follow Lanctot et al. 2009 as OpenSpiel's Python
``outcome_sampling_mccfr`` / ``external_sampling_mccfr`` state them:

- ``outcome``: one trajectory per player and iteration; the updating player
  samples epsilon-uniform-mixed with its current policy, the others their
  current policy, chance its distribution; regrets and the average (weighted by
  the player's own reach) are importance-corrected by the sample's reach.
- ``external``: per player and iteration, every action of the updating player,
  one sampled action of the others and of chance; the average is accumulated
  at the next player's nodes ("simple" averaging). Its iteration visits every
  action sequence of the updating player, so its cost grows as that player's
  branching to the power of its decisions: on long games use ``outcome``.

Simultaneous games are walked as ``pyspiel.convert_to_turn_based`` (the
information-state strings are that game's, as ``cfr.tree``'s). Sampling uses
``random.Random(seed)``: the same seed gives the same tables.
"""

from __future__ import annotations

import random

from cfr.game_form import turn_based

__all__ = ["SampledMCCFR", "SAMPLINGS"]

SAMPLINGS = ("outcome", "external")


def _matching(regret: list) -> list:
    """Regret matching: positive regrets normalised, uniform when none is positive."""
    pos = [r if r > 0 else 0.0 for r in regret]
    total = sum(pos)
    if total > 0:
        return [r / total for r in pos]
    return [1.0 / len(regret)] * len(regret)


def _pick(rng: random.Random, probs) -> int:
    """Index drawn from ``probs`` (which sum to 1 up to rounding)."""
    x, acc = rng.random(), 0.0
    for i, p in enumerate(probs):
        acc += p
        if x < acc:
            return i
    return len(probs) - 1


class SampledMCCFR:
    """One sampling MCCFR solver; ``iterate(k)`` runs k iterations (each updates
    every player once, in turn)."""

    def __init__(self, game, sampling: str = "outcome", *, seed: int = 0, epsilon: float = 0.6):
        if sampling not in SAMPLINGS:
            raise ValueError(f"unknown sampling {sampling!r}; choose from {', '.join(SAMPLINGS)}")
        if not 0.0 < epsilon <= 1.0:
            raise ValueError(f"epsilon must be in (0, 1], got {epsilon}")
        self.game = turn_based(game)
        self.sampling = sampling
        self.epsilon = float(epsilon)
        self.seed = seed
        self.iteration = 0
        self._rng = random.Random(seed)
        self._n = self.game.num_players()
        # information-state string -> [legal actions, regrets, average-policy sums]
        self._table: dict[str, list] = {}

    @property
    def num_visited(self) -> int:
        """Information states met so far (the saved policy's entries)."""
        return len(self._table)

    def _entry(self, state, player: int) -> list:
        key = state.information_state_string(player)
        entry = self._table.get(key)
        if entry is None:
            legal = list(state.legal_actions(player))
            entry = self._table[key] = [legal, [0.0] * len(legal), [0.0] * len(legal)]
        return entry

    def _chance(self, state) -> int:
        outcomes = state.chance_outcomes()
        return outcomes[_pick(self._rng, [p for _, p in outcomes])][0]

    # -- outcome sampling --------------------------------------------------------
    def _outcome(self, state, update: int, my_reach: float, opp_reach: float, sample_reach: float) -> float:
        """Sampled value of ``state`` (mutated along one trajectory) for ``update``."""
        if state.is_terminal():
            return state.returns()[update]
        if state.is_chance_node():
            state.apply_action(self._chance(state))
            return self._outcome(state, update, my_reach, opp_reach, sample_reach)
        player = state.current_player()
        legal, regret, avg = self._entry(state, player)
        k = len(legal)
        policy = _matching(regret)
        if player == update:
            eps = self.epsilon
            sample = [eps / k + (1.0 - eps) * p for p in policy]
        else:
            sample = policy
        i = _pick(self._rng, sample)
        state.apply_action(legal[i])
        if player == update:
            child = self._outcome(state, update, my_reach * policy[i], opp_reach, sample_reach * sample[i])
        else:
            child = self._outcome(state, update, my_reach, opp_reach * policy[i], sample_reach * sample[i])
        # importance-corrected child values: child / q(a) on the sampled action, 0 elsewhere
        sampled_value = child / sample[i]
        value = policy[i] * sampled_value
        if player == update:
            w = opp_reach / sample_reach
            for j in range(k):
                regret[j] += ((sampled_value if j == i else 0.0) - value) * w
            for j in range(k):
                avg[j] += my_reach * policy[j] / sample_reach
        return value

    # -- external sampling -------------------------------------------------------
    def _external(self, state, update: int) -> float:
        if state.is_terminal():
            return state.returns()[update]
        if state.is_chance_node():
            return self._external(state.child(self._chance(state)), update)
        player = state.current_player()
        legal, regret, avg = self._entry(state, player)
        policy = _matching(regret)
        if player == update:
            values = [self._external(state.child(a), update) for a in legal]
            value = sum(p * v for p, v in zip(policy, values, strict=True))
            for j, v in enumerate(values):
                regret[j] += v - value
        else:
            value = self._external(state.child(legal[_pick(self._rng, policy)]), update)
        if player == (update + 1) % self._n:
            for j, p in enumerate(policy):
                avg[j] += p
        return value

    def iterate(self, count: int = 1) -> None:
        for _ in range(count):
            for p in range(self._n):
                if self.sampling == "outcome":
                    self._outcome(self.game.new_initial_state(), p, 1.0, 1.0, 1.0)
                else:
                    self._external(self.game.new_initial_state(), p)
            self.iteration += 1

    def average_policy(self) -> dict:
        """{information-state string: [(action, prob), ...]} over the visited information
        states (uniform where one was visited but never weighted)."""
        out = {}
        for key, (legal, _, avg) in self._table.items():
            total = sum(avg)
            out[key] = (
                [(a, s / total) for a, s in zip(legal, avg, strict=True)]
                if total > 0
                else [(a, 1.0 / len(legal)) for a in legal]
            )
        return out

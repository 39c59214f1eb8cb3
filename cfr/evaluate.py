"""How far a policy is from equilibrium: OpenSpiel's C++ best responses.

Why OpenSpiel's: its ``nash_conv`` / ``exploitability`` are an independent
reference (not our code), they run in C++, and through
``pyspiel.convert_to_cached_tree`` they walk this toolkit's Python games
once and then from a C++ cache. NashConv is the sum over players of what a
best response gains against the others' policies; for two-player zero-sum
games exploitability is NashConv / 2 and 0 exactly at a Nash equilibrium.
For n-player or general-sum games NashConv is still defined and still 0 only
at a Nash equilibrium, but CFR's average need not converge to one there: the
figures are an approximation's distance, stated as such by the CLI.
"""

from __future__ import annotations

import pyspiel

from cfr.game_form import turn_based

__all__ = ["evaluation_game", "nash_conv", "exploitability", "is_two_player_zero_sum", "as_pyspiel_policy"]


def evaluation_game(game):
    """The game best responses walk: turn-based, cached in C++."""
    return pyspiel.convert_to_cached_tree(turn_based(game))


def is_two_player_zero_sum(game) -> bool:
    return game.num_players() == 2 and game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM


def as_pyspiel_policy(policy):
    """A {info state: [(action, prob)]} dict as a C++ TabularPolicy; others unchanged."""
    if isinstance(policy, dict):
        return pyspiel.TabularPolicy({k: [(int(a), float(p)) for a, p in v] for k, v in policy.items()})
    return policy


def nash_conv(eval_game, policy) -> float:
    return float(pyspiel.nash_conv(eval_game, as_pyspiel_policy(policy)))


def exploitability(eval_game, policy) -> float:
    """Two-player zero-sum only (OpenSpiel refuses the rest)."""
    return float(pyspiel.exploitability(eval_game, as_pyspiel_policy(policy)))

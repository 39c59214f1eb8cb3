"""The multi-player rating model: openskill's Plackett-Luce (Weng-Lin 2011).

Why this model and library: the tic-tac-toe variations specification rates 2-, 3- and 4-player games,
"Partners" (two teams of two) and games against Chaos; analysis/ratings.py
fits pairwise Bradley-Terry to a finished tournament, but a leaderboard must
update after every game, one game at a time, and rank teams. Weng-Lin's
Bayesian approximation does exactly that (a skill ``mu`` and an uncertainty
``sigma`` per player, updated from a full ranking of teams, ties allowed), and
``openskill`` is its maintained, dependency-free implementation (pinned in
setup.py). The Plackett-Luce variant is the one its authors recommend for
more than two teams.

Chaos: the tic-tac-toe variations specification says "where Chaos needs a skill-level rating (e.g. for
purposes of updating ratings), use the constant assigned to beginning
players": Chaos enters every update as a team of its own with the beginners'
rating (mu 25, sigma 25/3) and its update is thrown away.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
BEGINNER = (MODEL.mu, MODEL.sigma)
#: The displayed skill is the conservative estimate mu - 3 sigma: 0 for a beginner.
Z = 3.0


def skill(mu: float, sigma: float) -> float:
    return mu - Z * sigma


def chaos_result(returns: Sequence[float]) -> float:
    """Chaos's outcome (the tic-tac-toe variations specification): it loses when every player wins, wins when
    every player loses, and otherwise sits between the players who did better
    and those who did worse (0, the value of a draw)."""
    if all(r > 0 for r in returns):
        return -1.0
    if all(r < 0 for r in returns):
        return 1.0
    return 0.0


def teams_of(num_seats: int, partners: bool) -> list[list[int]]:
    """Seats grouped into the teams that share an outcome."""
    if partners:
        return [[0, 2], [1, 3]]
    return [[seat] for seat in range(num_seats)]


def update(
    ratings: Sequence[tuple[float, float]], results: Sequence[float], partners: bool, chaos: float | None
) -> list[tuple[float, float]]:
    """New (mu, sigma) of every seat after one game. ``results`` are the seats'
    returns (higher is better, equal values tie); ``chaos`` is Chaos's result
    when Chaos played, else None."""
    teams = teams_of(len(ratings), partners)
    rated = [[MODEL.rating(*ratings[s]) for s in team] for team in teams]
    ranks = [-results[team[0]] for team in teams]
    if chaos is not None:
        rated.append([MODEL.rating(*BEGINNER)])
        ranks.append(-chaos)
    new = MODEL.rate(rated, ranks=ranks)
    out: list[tuple[float, float]] = [BEGINNER] * len(ratings)
    for team, members in zip(teams, new[: len(teams)], strict=True):  # Chaos's update, last, is dropped
        for seat, r in zip(team, members, strict=True):
            out[seat] = (r.mu, r.sigma)
    return out

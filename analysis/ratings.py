"""Ratings from tournament records: a Bayesian Bradley-Terry fit on the Elo scale.

Why Bradley-Terry and not running Elo updates: a tournament here is a batch of
games whose order means nothing (they run in parallel), and sequential Elo
depends on that order. Bradley-Terry uses every game at once:
``P(a beats b) = 1 / (1 + 10 ** ((R_b - R_a) / 400))``, so a 400-point gap means
10:1 odds, as in Elo.

Why a prior: a search that beats Random in every game has an infinite maximum
likelihood rating. A Gaussian prior on every rating (``prior_sd`` Elo points,
centred on the field) keeps the fit finite; with few games such a rating is
shaped by the prior, which shows as a wide interval, so read the interval and
the W-D-L columns together. ``prior_sd=None`` gives the plain maximum likelihood
fit (and an error when it does not exist).

Why a seat term: in the games studied the first mover may have a large
advantage. Seats alternate, so the ratings are not biased by it, but modelling
it (``first_move_elo``) tightens the fit and reports the advantage in Elo.

Why anchoring: ratings are only defined up to a shift. Uniform Random is the
one player every study includes and the one whose strength never changes, so it
is pinned at 0 and appears on every leaderboard.
"""
from __future__ import annotations

import dataclasses
import math
from typing import Iterable, Mapping, Sequence

import numpy as np
from scipy import optimize

from analysis.stats import returns_to_winner, z_value

ELO_PER_NAT = 400.0 / math.log(10.0)
DEFAULT_ANCHOR = "random"


@dataclasses.dataclass(frozen=True)
class Rating:
    """One leaderboard row. ``low``/``high`` bound the rating relative to the anchor."""

    name: str
    rating: float
    low: float
    high: float
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else float("nan")


@dataclasses.dataclass(frozen=True)
class RatingFit:
    """The fitted ratings, sorted strongest first, and the fitted first-move advantage."""

    ratings: tuple[Rating, ...]
    anchor: str
    first_move_elo: float
    first_move_low: float
    first_move_high: float
    games: int

    def __getitem__(self, name: str) -> Rating:
        for row in self.ratings:
            if row.name == name:
                return row
        raise KeyError(name)

    def names(self) -> list[str]:
        return [row.name for row in self.ratings]


def _tally(records: Iterable[Mapping]):
    """Aggregate records into (first seat, second seat) -> [points of first seat, games]."""
    table: dict[tuple[str, str], list[float]] = {}
    wdl: dict[str, list[int]] = {}
    total = 0
    for record in records:
        players = record["players"]
        if len(players) != 2:
            raise ValueError(f"ratings need two-player records, got players={players}")
        a, b = players
        if a == b:
            # A self-play game says nothing about relative strength.
            continue
        winner = returns_to_winner(record["returns"])
        points = 0.5 if winner is None else (1.0 if winner == 0 else 0.0)
        cell = table.setdefault((a, b), [0.0, 0.0])
        cell[0] += points
        cell[1] += 1.0
        for seat, name in enumerate(players):
            row = wdl.setdefault(name, [0, 0, 0])
            row[1 if winner is None else (0 if winner == seat else 2)] += 1
        total += 1
    return table, wdl, total


def fit_ratings(records: Iterable[Mapping], anchor: str | None = DEFAULT_ANCHOR,
                prior_sd: float | None = 1000.0, first_move: bool = True,
                confidence: float = 0.95) -> RatingFit:
    """Fit Bradley-Terry ratings (Elo scale) to two-player records.

    Each record needs ``players`` (names by seat, seat 0 moves first) and
    ``returns`` (per seat). ``anchor`` names the player pinned at 0; it must have
    played. ``anchor=None`` centres the ratings on their mean instead.
    Intervals come from the curvature of the log posterior at its peak
    (a Laplace approximation), taken for differences from the anchor.
    """
    table, wdl, total = _tally(records)
    names = sorted(wdl)
    if not names:
        raise ValueError("no games between distinct players to rate")
    if anchor is not None and anchor not in wdl:
        raise ValueError(f"anchor player {anchor!r} played no rated game; players are: {', '.join(names)}")
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    pairs = np.array([(index[a], index[b]) for (a, b) in table], dtype=np.int64).reshape(-1, 2)
    points = np.array([cell[0] for cell in table.values()])
    games = np.array([cell[1] for cell in table.values()])
    prior_var = None if prior_sd is None else (prior_sd / ELO_PER_NAT) ** 2
    n_params = n + (1 if first_move else 0)

    def unpack(x):
        theta = x[:n]
        h = x[n] if first_move else 0.0
        return theta, h

    def objective(x):
        theta, h = unpack(x)
        d = theta[pairs[:, 0]] - theta[pairs[:, 1]] + h
        # -log-likelihood of fractional outcomes, written stably with logaddexp.
        nll = float(np.sum(points * np.logaddexp(0.0, -d) + (games - points) * np.logaddexp(0.0, d)))
        resid = games / (1.0 + np.exp(-d)) - points  # d nll / d d
        grad = np.zeros(n_params)
        np.add.at(grad, pairs[:, 0], resid)
        np.add.at(grad, pairs[:, 1], -resid)
        if first_move:
            grad[n] = resid.sum()
        if prior_var is not None:
            nll += float(theta @ theta) / (2.0 * prior_var)
            grad[:n] += theta / prior_var
        else:
            # Ratings are shift-invariant without a prior; pin the mean to make the optimum unique.
            s = theta.sum()
            nll += 0.5 * s * s
            grad[:n] += s
        return nll, grad

    result = optimize.minimize(objective, np.zeros(n_params), jac=True, method="L-BFGS-B",
                               options={"maxiter": 10000, "gtol": 1e-10, "ftol": 1e-15})
    x = result.x
    theta, h = unpack(x)
    # Without a prior the MLE is infinite when a player scores 0% or 100%, and
    # (more rarely) when a group of players beats everyone outside it; the fit
    # then drifts off to thousands of Elo, which is what the second test catches.
    perfect = any(w_ + d_ == 0 or l_ + d_ == 0 for w_, d_, l_ in wdl.values())
    if prior_sd is None and (perfect or not result.success or np.ptp(theta) * ELO_PER_NAT > 3000):
        raise ValueError("the maximum likelihood ratings do not exist (some player wins or loses "
                         "every game against the rest); fit with a prior_sd")

    # Hessian of the negative log posterior, for the Laplace intervals.
    d = theta[pairs[:, 0]] - theta[pairs[:, 1]] + h
    p = 1.0 / (1.0 + np.exp(-d))
    w = games * p * (1.0 - p)
    hess = np.zeros((n_params, n_params))
    for (i, j), wk in zip(pairs, w):
        hess[i, i] += wk
        hess[j, j] += wk
        hess[i, j] -= wk
        hess[j, i] -= wk
        if first_move:
            hess[i, n] += wk
            hess[n, i] += wk
            hess[j, n] -= wk
            hess[n, j] -= wk
            hess[n, n] += wk
    if prior_var is not None:
        hess[:n, :n] += np.eye(n) / prior_var
    else:
        hess[:n, :n] += 1.0
    cov = np.linalg.pinv(hess)
    z = z_value(confidence)

    if anchor is not None:
        a = index[anchor]
        shift = theta[a]
        var = np.array([cov[i, i] + cov[a, a] - 2.0 * cov[i, a] for i in range(n)])
    else:
        shift = theta.mean()
        # Variance of theta_i - mean(theta).
        ones = np.full(n, 1.0 / n)
        var = np.array([cov[i, i] - 2.0 * cov[i, :n] @ ones + ones @ cov[:n, :n] @ ones for i in range(n)])
    sd = np.sqrt(np.maximum(var, 0.0)) * ELO_PER_NAT
    rows = []
    for name in names:
        i = index[name]
        r = (theta[i] - shift) * ELO_PER_NAT
        w_, d_, l_ = wdl[name]
        rows.append(Rating(name, float(r), float(r - z * sd[i]), float(r + z * sd[i]), w_, d_, l_))
    rows.sort(key=lambda row: (-row.rating, row.name))
    if first_move:
        h_sd = math.sqrt(max(cov[n, n], 0.0)) * ELO_PER_NAT
        fm, fm_lo, fm_hi = h * ELO_PER_NAT, (h * ELO_PER_NAT) - z * h_sd, (h * ELO_PER_NAT) + z * h_sd
    else:
        fm = fm_lo = fm_hi = 0.0
    return RatingFit(tuple(rows), anchor or "", float(fm), float(fm_lo), float(fm_hi), total)


def expected_score(rating_a: float, rating_b: float) -> float:
    """Bradley-Terry (Elo-scale) probability that a beats b."""
    return 1.0 / (1.0 + 10.0 ** ((rating_b - rating_a) / 400.0))


def leaderboard_table(fit: RatingFit, fmt: str = "markdown") -> str:
    """The leaderboard, strongest first, as a markdown table or CSV.

    The anchor's row is always present (``fit_ratings`` refuses to fit without it).
    """
    header = ["rank", "player", "rating", "95% low", "95% high", "games", "W", "D", "L", "score"]
    lines = []
    for rank, row in enumerate(fit.ratings, 1):
        name = row.name + (" (anchor)" if row.name == fit.anchor else "")
        lines.append([str(rank), name, f"{row.rating:.0f}", f"{row.low:.0f}", f"{row.high:.0f}",
                      str(row.games), str(row.wins), str(row.draws), str(row.losses), f"{row.score:.3f}"])
    if fmt == "csv":
        import csv
        import io
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(header)
        for line in lines:
            line = list(line)
            line[1] = line[1].replace(" (anchor)", "")
            writer.writerow(line)
        return buffer.getvalue()
    if fmt != "markdown":
        raise ValueError(f"fmt must be 'markdown' or 'csv', got {fmt!r}")
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(line) + " |" for line in lines]
    if fit.first_move_elo or fit.first_move_low or fit.first_move_high:
        out.append("")
        out.append(f"First-move advantage: {fit.first_move_elo:+.0f} Elo "
                   f"[{fit.first_move_low:+.0f}, {fit.first_move_high:+.0f}] over {fit.games} games.")
    return "\n".join(out) + "\n"


def synthetic_records(ratings: Mapping[str, float], games_per_pair: int, seed: int,
                      first_move_elo: float = 0.0) -> list[dict]:
    """Games drawn from a Bradley-Terry model with known ratings, seats alternating.

    Used to check that the fit recovers what generated the data.
    """
    rng = np.random.default_rng(seed)
    names = sorted(ratings)
    records = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            for g in range(games_per_pair):
                first, second = (a, b) if g % 2 == 0 else (b, a)
                p = expected_score(ratings[first] + first_move_elo, ratings[second])
                first_wins = rng.random() < p
                records.append({"players": [first, second],
                                "returns": [1.0, -1.0] if first_wins else [-1.0, 1.0]})
    return records


def ratings_by_name(fit: RatingFit) -> dict[str, float]:
    return {row.name: row.rating for row in fit.ratings}

"""Ratings from tournament records: a Bayesian Bradley-Terry fit on the Elo scale,
for two players or more.

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

Why a pairwise decomposition for more than two players: a game of n players
ranks them by their returns, and every two seats held by different players are
one Bradley-Terry comparison (the higher return scores 1, equal returns 0.5).
This uses the whole ranking, needs no model of how n players interact, and for
two players is exactly the two-player fit. The comparisons of one game are not
independent, so with more than two players the intervals are somewhat too
narrow. The seat term becomes one advantage per seat, relative to the last seat.

Why anchoring: ratings are only defined up to a shift. Uniform Random is the
one player every study includes and the one whose strength never changes, so it
is pinned at 0 and appears on every leaderboard.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Iterable, Mapping

import numpy as np
from scipy import optimize

from analysis.stats import z_value

ELO_PER_NAT = 400.0 / math.log(10.0)
DEFAULT_ANCHOR = "random"


@dataclasses.dataclass(frozen=True)
class Rating:
    """One leaderboard row. ``low``/``high`` bound the rating relative to the anchor.
    W/D/L count seats: a win is the unique best return, a draw a shared best one."""

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
    """The fitted ratings, sorted strongest first, and the fitted seat advantages.

    ``first_move_elo`` is seat 0's advantage over the last seat (over seat 1 in
    two-player games); ``seat_elo`` lists (advantage, low, high) for every seat.
    """

    ratings: tuple[Rating, ...]
    anchor: str
    first_move_elo: float
    first_move_low: float
    first_move_high: float
    games: int
    seat_elo: tuple[tuple[float, float, float], ...] = ()

    def __getitem__(self, name: str) -> Rating:
        for row in self.ratings:
            if row.name == name:
                return row
        raise KeyError(name)

    def names(self) -> list[str]:
        return [row.name for row in self.ratings]


def _tally(records: Iterable[Mapping]):
    """Aggregate records into (player, other, seat, other seat) -> [points of player, games],
    one entry per two seats of a game held by different players."""
    table: dict[tuple[str, str, int, int], list[float]] = {}
    wdl: dict[str, list[int]] = {}
    total = 0
    seats = None
    for record in records:
        players, returns = record["players"], record["returns"]
        if len(players) < 2 or len(returns) != len(players):
            raise ValueError(
                f"ratings need records with a return per seat of two or more players, "
                f"got players={players} returns={returns}"
            )
        if seats is None:
            seats = len(players)
        elif len(players) != seats:
            raise ValueError(f"ratings need records with one number of seats, got {seats} and {len(players)}")
        if len(set(players)) == 1:
            # A self-play game says nothing about relative strength.
            continue
        for i, j in itertools.combinations(range(seats), 2):
            if players[i] == players[j]:
                continue
            points = 1.0 if returns[i] > returns[j] else (0.5 if returns[i] == returns[j] else 0.0)
            cell = table.setdefault((players[i], players[j], i, j), [0.0, 0.0])
            cell[0] += points
            cell[1] += 1.0
        best = max(returns)
        top = [seat for seat, r in enumerate(returns) if r == best]
        for seat, name in enumerate(players):
            row = wdl.setdefault(name, [0, 0, 0])
            row[0 if top == [seat] else (1 if seat in top else 2)] += 1
        total += 1
    return table, wdl, total, seats or 2


def fit_ratings(
    records: Iterable[Mapping],
    anchor: str | None = DEFAULT_ANCHOR,
    prior_sd: float | None = 1000.0,
    first_move: bool = True,
    confidence: float = 0.95,
) -> RatingFit:
    """Fit Bradley-Terry ratings (Elo scale) to records of two or more players.

    Each record needs ``players`` (names by seat, seat 0 moves first) and
    ``returns`` (per seat); all records have the same number of seats. ``anchor``
    names the player pinned at 0; it must have played. ``anchor=None`` centres the
    ratings on their mean instead.
    Intervals come from the curvature of the log posterior at its peak
    (a Laplace approximation), taken for differences from the anchor.
    """
    table, wdl, total, seats = _tally(records)
    names = sorted(wdl)
    if not names:
        raise ValueError("no games between distinct players to rate")
    if anchor is not None and anchor not in wdl:
        raise ValueError(f"anchor player {anchor!r} played no rated game; players are: {', '.join(names)}")
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    pairs = np.array([(index[a], index[b]) for (a, b, _, _) in table], dtype=np.int64).reshape(-1, 2)
    # Seat parameters: one per seat but the last (the reference, 0); a two-player fit has one.
    seat_i = np.array([i for (_, _, i, _) in table], dtype=np.int64)
    seat_j = np.array([j for (_, _, _, j) in table], dtype=np.int64)
    n_seat = seats - 1 if first_move else 0
    points = np.array([cell[0] for cell in table.values()])
    games = np.array([cell[1] for cell in table.values()])
    prior_var = None if prior_sd is None else (prior_sd / ELO_PER_NAT) ** 2
    n_params = n + n_seat

    def unpack(x):
        theta = x[:n]
        s = np.append(x[n:], 0.0) if first_move else np.zeros(seats)
        return theta, s

    def objective(x):
        theta, s = unpack(x)
        d = theta[pairs[:, 0]] - theta[pairs[:, 1]] + (s[seat_i] - s[seat_j])
        # -log-likelihood of fractional outcomes, written stably with logaddexp.
        nll = float(np.sum(points * np.logaddexp(0.0, -d) + (games - points) * np.logaddexp(0.0, d)))
        resid = games / (1.0 + np.exp(-d)) - points  # d nll / d d
        grad = np.zeros(n_params)
        np.add.at(grad, pairs[:, 0], resid)
        np.add.at(grad, pairs[:, 1], -resid)
        for k in range(n_seat):
            grad[n + k] = resid[seat_i == k].sum() - resid[seat_j == k].sum()
        if prior_var is not None:
            nll += float(theta @ theta) / (2.0 * prior_var)
            grad[:n] += theta / prior_var
        else:
            # Ratings are shift-invariant without a prior; pin the mean to make the optimum unique.
            s = theta.sum()
            nll += 0.5 * s * s
            grad[:n] += s
        return nll, grad

    result = optimize.minimize(
        objective,
        np.zeros(n_params),
        jac=True,
        method="L-BFGS-B",
        options={"maxiter": 10000, "gtol": 1e-10, "ftol": 1e-15},
    )
    x = result.x
    theta, s = unpack(x)
    # Without a prior the MLE is infinite when a player scores 0% or 100%, and
    # (more rarely) when a group of players beats everyone outside it; the fit
    # then drifts off to thousands of Elo, which is what the second test catches.
    perfect = any(w_ + d_ == 0 or l_ + d_ == 0 for w_, d_, l_ in wdl.values())
    if prior_sd is None and (perfect or not result.success or np.ptp(theta) * ELO_PER_NAT > 3000):
        raise ValueError(
            "the maximum likelihood ratings do not exist (some player wins or loses "
            "every game against the rest); fit with a prior_sd"
        )

    # Hessian of the negative log posterior, for the Laplace intervals.
    d = theta[pairs[:, 0]] - theta[pairs[:, 1]] + (s[seat_i] - s[seat_j])
    p = 1.0 / (1.0 + np.exp(-d))
    w = games * p * (1.0 - p)
    hess = np.zeros((n_params, n_params))
    for (a, b), i, j, wk in zip(pairs, seat_i, seat_j, w, strict=True):
        # d depends on theta_a (+1), theta_b (-1) and the two seats' parameters (+1, -1).
        terms = [(a, 1), (b, -1)] + [(n + k, sign) for k, sign in ((i, 1), (j, -1)) if k < n_seat]
        for p_, cp in terms:
            for q_, cq in terms:
                hess[p_, q_] += wk * (cp * cq)
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
    seat_elo = []
    for k in range(seats):
        if k < n_seat:
            h, h_sd = s[k] * ELO_PER_NAT, math.sqrt(max(cov[n + k, n + k], 0.0)) * ELO_PER_NAT
            seat_elo.append((float(h), float(h - z * h_sd), float(h + z * h_sd)))
        else:
            seat_elo.append((0.0, 0.0, 0.0))
    fm, fm_lo, fm_hi = seat_elo[0]
    return RatingFit(tuple(rows), anchor or "", fm, fm_lo, fm_hi, total, tuple(seat_elo))


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
        lines.append(
            [
                str(rank),
                name,
                f"{row.rating:.0f}",
                f"{row.low:.0f}",
                f"{row.high:.0f}",
                str(row.games),
                str(row.wins),
                str(row.draws),
                str(row.losses),
                f"{row.score:.3f}",
            ]
        )
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
    if len(fit.seat_elo) > 2 and any(any(row) for row in fit.seat_elo):
        out.append("")
        shown = ", ".join(
            f"seat {k} {h:+.0f} [{lo:+.0f}, {hi:+.0f}]" for k, (h, lo, hi) in enumerate(fit.seat_elo[:-1])
        )
        out.append(
            f"Seat advantages over seat {len(fit.seat_elo) - 1} (Elo): {shown}; over {fit.games} games."
        )
    elif fit.first_move_elo or fit.first_move_low or fit.first_move_high:
        out.append("")
        out.append(
            f"First-move advantage: {fit.first_move_elo:+.0f} Elo "
            f"[{fit.first_move_low:+.0f}, {fit.first_move_high:+.0f}] over {fit.games} games."
        )
    return "\n".join(out) + "\n"


def synthetic_records(
    ratings: Mapping[str, float], games_per_pair: int, seed: int, first_move_elo: float = 0.0
) -> list[dict]:
    """Games drawn from a Bradley-Terry model with known ratings, seats alternating.

    Used to check that the fit recovers what generated the data.
    """
    rng = np.random.default_rng(seed)
    names = sorted(ratings)
    records = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            for g in range(games_per_pair):
                first, second = (a, b) if g % 2 == 0 else (b, a)
                p = expected_score(ratings[first] + first_move_elo, ratings[second])
                first_wins = rng.random() < p
                records.append(
                    {"players": [first, second], "returns": [1.0, -1.0] if first_wins else [-1.0, 1.0]}
                )
    return records


def ratings_by_name(fit: RatingFit) -> dict[str, float]:
    return {row.name: row.rating for row in fit.ratings}

"""Statistics for game records: win rates, first-player advantage, sample sizes.

Why Wilson intervals: tournaments here often end at or near 0% or 100% (a strong
search against Random, a solved first-player win). The normal ("Wald") interval
collapses to zero width there and claims certainty it does not have; Wilson's
score interval stays inside [0, 1] and keeps close to its nominal coverage even
for a few dozen games.

Draws: a draw is not a win, so ``win_rate`` counts it against the rate
(``wins / games``), while ``score`` counts it as half a point. The
first-player advantage is measured on decisive games only, so that a drawish
game is not mistaken for a second-player advantage; its draws are reported
beside it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping, Sequence

from scipy import stats as _scipy_stats


def z_value(confidence: float = 0.95) -> float:
    """Two-sided standard-normal quantile for ``confidence`` (1.95996... at 95%)."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence}")
    return float(_scipy_stats.norm.ppf(0.5 + confidence / 2.0))


def wilson_interval(successes: float, trials: float, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion.

    With no trials nothing is known, so the interval is the whole of [0, 1].
    """
    if trials < 0 or successes < 0 or successes > trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return 0.0, 1.0
    z = z_value(confidence)
    p = successes / trials
    denom = 1.0 + z * z / trials
    centre = (p + z * z / (2.0 * trials)) / denom
    half = z * math.sqrt(p * (1.0 - p) / trials + z * z / (4.0 * trials * trials)) / denom
    # Clamp only against floating-point spill at the ends (0/n, n/n).
    return max(0.0, centre - half), min(1.0, centre + half)


def wilson_half_width(p: float, trials: int, confidence: float = 0.95) -> float:
    """Half the width of the Wilson interval if a fraction ``p`` of ``trials`` succeed."""
    z = z_value(confidence)
    return z * math.sqrt(p * (1.0 - p) / trials + z * z / (4.0 * trials * trials)) / (1.0 + z * z / trials)


#: The most games ``games_needed`` answers with (2^62, about 4.6e18).
MAX_GAMES = 2**62


def games_needed(half_width: float, p: float = 0.5, confidence: float = 0.95) -> int:
    """Fewest games whose Wilson interval is at most ``±half_width`` when the rate is ``p``.

    ``p = 0.5`` is the worst case and so the safe planning value when the rate is
    unknown. The Wilson half-width shrinks monotonically with the number of
    games, so a doubling search followed by bisection finds the exact minimum.
    """
    if not 0.0 < half_width < 0.5:
        raise ValueError(f"half_width must be in (0, 0.5), got {half_width}")
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must be in [0, 1], got {p}")
    hi = 1
    while wilson_half_width(p, hi, confidence) > half_width:
        hi *= 2
        if hi > MAX_GAMES:  # past this the float arithmetic overflows (1e-300 did)
            raise ValueError(
                f"a half-width of {half_width:g} needs more than {MAX_GAMES:.1e} games; ask for a wider one"
            )
    lo = hi // 2  # fails (or is 0)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if wilson_half_width(p, mid, confidence) > half_width:
            lo = mid
        else:
            hi = mid
    return hi


@dataclasses.dataclass(frozen=True)
class WinRate:
    """Outcome counts of one side over a set of games, with its Wilson interval."""

    wins: int
    draws: int
    losses: int
    low: float
    high: float

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else float("nan")

    @property
    def score(self) -> float:
        """Points per game, a draw counting half."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else float("nan")

    def __str__(self) -> str:
        return f"{100 * self.rate:.1f}% [{100 * self.low:.1f}, {100 * self.high:.1f}] of {self.games}"


def win_rate(wins: int, draws: int, losses: int, confidence: float = 0.95) -> WinRate:
    low, high = wilson_interval(wins, wins + draws + losses, confidence)
    return WinRate(wins, draws, losses, low, high)


@dataclasses.dataclass(frozen=True)
class FirstPlayerAdvantage:
    """How often the first mover wins its decisive games, and whether that differs from 50%."""

    first_wins: int
    second_wins: int
    draws: int
    rate: float
    low: float
    high: float
    p_value: float

    @property
    def decisive(self) -> int:
        return self.first_wins + self.second_wins

    @property
    def games(self) -> int:
        return self.decisive + self.draws

    def __str__(self) -> str:
        if not self.decisive:  # no rate to state, rather than "nan%"
            return f"first player: no decisive games ({self.draws} draws)"
        return (
            f"first player wins {100 * self.rate:.1f}% [{100 * self.low:.1f}, {100 * self.high:.1f}] "
            f"of {self.decisive} decisive games (p = {self.p_value:.3g} vs 50%)"
        )


def first_player_advantage(
    first_wins: int, second_wins: int, draws: int = 0, confidence: float = 0.95
) -> FirstPlayerAdvantage:
    """First-mover win rate among decisive games, Wilson interval, exact two-sided binomial test."""
    decisive = first_wins + second_wins
    if first_wins < 0 or second_wins < 0 or draws < 0:
        raise ValueError("counts must be non-negative")
    low, high = wilson_interval(first_wins, decisive, confidence)
    if decisive:
        p_value = float(_scipy_stats.binomtest(first_wins, decisive, 0.5).pvalue)
        rate = first_wins / decisive
    else:
        p_value, rate = 1.0, float("nan")
    return FirstPlayerAdvantage(first_wins, second_wins, draws, rate, low, high, p_value)


def returns_to_winner(returns: Sequence[float]) -> int | None:
    """Seat of the unique best return, or None for a draw (no unique best)."""
    best = max(returns)
    winners = [i for i, r in enumerate(returns) if r == best]
    return winners[0] if len(winners) == 1 else None


def first_player_advantage_from_records(
    records: Iterable[Mapping], confidence: float = 0.95
) -> FirstPlayerAdvantage:
    """First-player advantage from tournament records (``returns`` per seat, seat 0 moves first)."""
    counts = [0, 0, 0]  # seat 0 wins, seat 1 wins, draws
    for record in records:
        winner = returns_to_winner(record["returns"])
        counts[2 if winner is None else winner] += 1
    return first_player_advantage(counts[0], counts[1], counts[2], confidence)


def pairwise_win_rates(
    records: Iterable[Mapping], confidence: float = 0.95
) -> dict[tuple[str, str], WinRate]:
    """For every ordered pair (a, b) that met: a's results against b over both seats."""
    counts: dict[tuple[str, str], list[int]] = {}
    for record in records:
        players = record["players"]
        if len(players) != 2:
            raise ValueError("pairwise win rates need two-player records")
        winner = returns_to_winner(record["returns"])
        for seat, (me, other) in enumerate(((players[0], players[1]), (players[1], players[0]))):
            row = counts.setdefault((me, other), [0, 0, 0])
            row[1 if winner is None else (0 if winner == seat else 2)] += 1
    return {pair: win_rate(*wdl, confidence) for pair, wdl in counts.items()}


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values, in the order given.

    Why: a study tests many variants at once; at 5% each, one in twenty fair
    games would look unfair by chance. Holm's step-down keeps the chance of
    any false finding at 5% and is never less powerful than Bonferroni.
    """
    if any(not 0.0 <= p <= 1.0 for p in p_values):
        raise ValueError(f"p-values must lie in [0, 1], got {list(p_values)}")
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [0.0] * len(p_values)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def mean_and_ci(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean with a Student-t interval; for playout lengths, flips and other per-game numbers."""
    n = len(values)
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    mean = math.fsum(values) / n
    if n == 1:
        return mean, float("nan"), float("nan")
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = float(_scipy_stats.t.ppf(0.5 + confidence / 2.0, n - 1)) * math.sqrt(var / n)
    return mean, mean - half, mean + half


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m analysis.stats``: plan a study's size, or read a result's interval."""
    import argparse

    from analysis.study import non_negative_int, positive_int

    parser = argparse.ArgumentParser(
        prog="python -m analysis.stats",
        description="Games needed for a precision (--precision), or the Wilson interval and the test "
        "against 50% of an observed result (--wins with --games).",
    )
    parser.add_argument("--precision", type=float, help="wanted half-width of the 95%% interval, e.g. 0.05")
    parser.add_argument(
        "--rate", type=float, default=0.5, help="expected win rate (default 0.5, the worst case)"
    )
    parser.add_argument(
        "--wins", type=non_negative_int, help="observed wins (of the first player, or of one bot)"
    )
    parser.add_argument(
        "--games", type=positive_int, help="games played (decisive games for a first-player test)"
    )
    parser.add_argument("--confidence", type=float, default=0.95)
    args = parser.parse_args(argv)
    if args.precision is None and args.wins is None:
        parser.error("give --precision, or --wins and --games")
    try:
        if args.precision is not None:
            n = games_needed(args.precision, args.rate, args.confidence)
            print(
                f"{n} games give a {100 * args.confidence:g}% Wilson interval of at most "
                f"±{100 * args.precision:g} points at a win rate of {100 * args.rate:g}%"
            )
        if args.wins is not None:
            if args.games is None:
                parser.error("--wins needs --games")
            if args.wins > args.games:
                parser.error(f"--wins must be at most --games ({args.games}), got {args.wins}")
            print(first_player_advantage(args.wins, args.games - args.wins, 0, args.confidence))
    except ValueError as error:
        parser.error(str(error))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Ludii's skill trace: how often a stronger agent beats a weaker one as the search budget doubles.

A game rewards skill when more thinking keeps paying: an agent with twice the
budget should beat its weaker self, and keep doing so as both budgets grow. The
trace plays, for each level *k*, an agent with ``budget * 2**(k+1)`` simulations
against one with ``budget * 2**k`` (seats alternating, through the tournament
machinery of ``analysis.tournament``, so a run is parallel and resumable), and
records the stronger agent's score at each level with a Wilson interval. The
summary ``SkillTrace`` reduces the levels to one number as Ludii's
``metrics.designer.SkillTrace`` does; its formula and the differences from
Ludii's are in docs/metrics.md.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence

from agents import BotSpec
from analysis.game_metrics import line_slope
from analysis.stats import returns_to_winner, wilson_interval


def level_specs(agent: str, budget: int, levels: int, option: str = "simulations") -> list[BotSpec]:
    """The agents of a trace of ``levels`` doublings: ``agent`` (a spec without its budget,
    e.g. ``mcts`` or ``mcts:uct_c=1.4``) with ``option`` set to ``budget * 2**k`` for
    k = 0..levels, each named by its budget (``b8``, ``b16``, ...)."""
    if budget < 1 or levels < 1:
        raise ValueError(f"a skill trace needs a budget and levels of at least 1, got {budget}, {levels}")
    base = BotSpec.parse(agent)
    if option in dict(base.options):
        raise ValueError(f"give {agent!r} without {option}=...; the trace sets it at every level")
    head = agent if ":" in agent else f"{agent}:"
    sep = "" if head.endswith(":") else ","
    return [
        BotSpec.parse(f"{head}{sep}{option}={budget * 2**k},name=b{budget * 2**k}") for k in range(levels + 1)
    ]


def level_pairs(levels: int) -> list[tuple[int, int]]:
    """The tables of the trace: level k's weaker agent (index k) against its stronger (k + 1)."""
    return [(k, k + 1) for k in range(levels)]


@dataclasses.dataclass(frozen=True)
class Level:
    """One level of the trace: the stronger agent's results against the weaker."""

    weak: str
    strong: str
    games: int
    wins: int
    draws: int
    losses: int
    strong_first: int  # games the stronger agent moved first
    score_first: float  # its score in those games (wins + draws / 2)
    score_second: float  # its score in the others

    @property
    def score(self) -> float:
        """The stronger agent's score per game: (wins + draws / 2) / games."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """Wilson 95% interval of the score (a draw counting as half a win)."""
        return wilson_interval(self.wins + 0.5 * self.draws, self.games)

    def as_dict(self) -> dict:
        low, high = self.interval
        return {**dataclasses.asdict(self), "score": self.score, "ci95_low": low, "ci95_high": high}


def level_results(records: Sequence[Mapping], weak: str, strong: str) -> Level:
    """The stronger agent's results over the tournament ``records`` of the pair, each
    credited to the seat it sat in (``players[seat]`` names the agent of each seat)."""
    wins = draws = losses = first = 0
    by_seat = [0.0, 0.0]
    for record in records:
        players = list(record["players"])
        if sorted(players) != sorted((weak, strong)):
            continue
        seat = players.index(strong)
        winner = returns_to_winner(record["returns"])
        points = 1.0 if winner == seat else 0.5 if winner is None else 0.0
        wins, draws, losses = wins + (points == 1.0), draws + (points == 0.5), losses + (points == 0.0)
        first += seat == 0
        by_seat[0 if seat == 0 else 1] += points
    games = wins + draws + losses
    return Level(weak, strong, games, wins, draws, losses, first, by_seat[0], by_seat[1])


def skill_trace_value(scores: Sequence[float]) -> float:
    """One number for the trace, Ludii's reduction on scores in [0, 1]: the score a least-squares
    line through (k, score_k) predicts for the next level, clipped to [0, 1], plus what is left
    to 1 times the area term, the mean over levels of max(2 score_k - 1, 0) squared."""
    if not scores:
        raise ValueError("a skill trace needs at least one level")
    n = len(scores)
    mean_x, mean_y = (n - 1) / 2, sum(scores) / n
    slope = line_slope(scores)
    predicted = min(max(mean_y + slope * (n - mean_x), 0.0), 1.0)
    area = sum(max(2 * s - 1, 0.0) ** 2 for s in scores) / n
    return predicted + (1 - predicted) * area

"""Game-quality metrics over recorded playouts, defined as Ludii's ``Evaluation`` metrics are.

A ``Trace`` is what one played game leaves behind: the final returns, who
chose each move and among how many legal moves, a key for every position
passed through, how many board sites were ever changed and whether the game
was cut off by a move cap. The metrics are pure functions of a list of traces,
so a test can check them on traces written by hand; ``experiments.game_metrics``
plays the games and records the traces.

Aggregation follows Ludii: a per-game quantity (a game's mean branching
factor, its share of decision moves, its repetition rate) is reduced within
each game first and then averaged over games, so every game weighs the same
however long it lasts. Each metric's meaning, formula and the Ludii metric it
matches are listed in docs/metrics.md.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import statistics
from collections.abc import Hashable, Sequence

from analysis.stats import mean_and_ci, returns_to_winner, wilson_interval


@dataclasses.dataclass(frozen=True)
class Trace:
    """One game as the metrics see it.

    ``movers[i]`` chose move ``i`` among ``branching[i]`` legal moves (chance
    events are not moves). ``positions`` has one key per position, the start
    included (``len(movers) + 1`` keys); ``situations`` the same keys joined
    with the player to move. ``sites_covered`` of ``sites`` board sites
    changed at some point of the game (``None`` when the game has no board
    tensor). ``timeout``: the game was stopped by the move cap, not by its rules.
    ``evaluations[i]``, when recorded, holds each player's evaluation (expected
    score in [0, 1]) of the position before move ``i``; ``move_evaluations[i]``
    the mover's evaluation of the position after each legal move there.
    ``site_contents``: how many distinct site contents (over all sites) the game showed.
    ``actions``: every action applied to the game, chance outcomes included (``None`` when
    not recorded).
    """

    returns: tuple[float, ...]
    movers: tuple[int, ...]
    branching: tuple[int, ...]
    positions: tuple[Hashable, ...] = ()
    situations: tuple[Hashable, ...] = ()
    sites_covered: int | None = None
    sites: int | None = None
    timeout: bool = False
    evaluations: tuple[tuple[float, ...], ...] = ()
    move_evaluations: tuple[tuple[float, ...], ...] = ()
    site_contents: int | None = None
    actions: int | None = None

    def __post_init__(self):
        if len(self.movers) != len(self.branching):
            raise ValueError(f"{len(self.movers)} movers but {len(self.branching)} branching factors")
        if any(b < 1 for b in self.branching):
            raise ValueError("every move is chosen among at least one legal move")
        if self.evaluations and len(self.evaluations) != len(self.movers):
            raise ValueError(f"{len(self.evaluations)} evaluations for {len(self.movers)} moves")
        if self.move_evaluations and [len(m) for m in self.move_evaluations] != list(self.branching):
            raise ValueError("move evaluations need one value per legal move of every move")
        if self.actions is not None and self.actions < len(self.movers):
            raise ValueError(f"{self.actions} actions cannot hold {len(self.movers)} moves")

    @property
    def winner(self) -> int | None:
        """The player with the strictly highest return; ``None`` for a draw or a timeout."""
        return None if self.timeout else returns_to_winner(self.returns)

    @property
    def moves(self) -> int:
        return len(self.movers)

    @property
    def turns(self) -> int:
        """Runs of consecutive moves by one player (a player moving twice in a row takes one turn)."""
        return sum(1 for i, p in enumerate(self.movers) if i == 0 or self.movers[i - 1] != p)


@dataclasses.dataclass(frozen=True)
class Value:
    """A metric's value over the games, with a 95% interval where it is a rate or a mean
    (``low``/``high`` are NaN where no interval applies)."""

    value: float
    low: float = math.nan
    high: float = math.nan

    def as_dict(self) -> dict:
        return {"value": self.value, "low": self.low, "high": self.high}


def _rate(count: int, n: int) -> Value:
    low, high = wilson_interval(count, n)
    # Wilson's bounds at 0/n and n/n are exact in theory; keep float noise out of them.
    low, high = (0.0 if count == 0 else low), (1.0 if count == n else high)
    return Value(count / n if n else math.nan, low, high)


def _mean(values: Sequence[float]) -> Value:
    values = [v for v in values if not math.isnan(v)]
    return Value(*mean_and_ci(values)) if values else Value(math.nan)


def _need(traces: Sequence[Trace]) -> None:
    if not traces:
        raise ValueError("the metrics need at least one game")


# --------------------------------------------------------------------------- outcome


def advantage_p1(traces: Sequence[Trace]) -> Value:
    """The first player's score per game: a win counts 1, a game without a winner
    (a draw or a timeout) counts 1/2, a loss 0."""
    _need(traces)
    return _rate(sum(1.0 if t.winner == 0 else 0.5 if t.winner is None else 0.0 for t in traces), len(traces))


def win_rates(traces: Sequence[Trace], players: int) -> list[float]:
    """Share of all games each player wins."""
    _need(traces)
    return [sum(t.winner == p for t in traces) / len(traces) for p in range(players)]


def balance(traces: Sequence[Trace], players: int) -> Value:
    """1 minus the largest difference between two players' win rates."""
    rates = win_rates(traces, players)
    return Value(1.0 - max((abs(a - b) for i, a in enumerate(rates) for b in rates[i + 1 :]), default=0.0))


def completion(traces: Sequence[Trace]) -> Value:
    """Share of games with a winner (neither a draw nor a timeout)."""
    _need(traces)
    return _rate(sum(t.winner is not None for t in traces), len(traces))


def drawishness(traces: Sequence[Trace]) -> Value:
    """Share of games the rules end without a winner (timeouts excluded)."""
    _need(traces)
    return _rate(sum(t.winner is None and not t.timeout for t in traces), len(traces))


def timeouts(traces: Sequence[Trace]) -> Value:
    """Share of games stopped by the move cap."""
    _need(traces)
    return _rate(sum(t.timeout for t in traces), len(traces))


def utilities(trace: Trace) -> list[float]:
    """Each player's rank utility, as Ludii's ``RankUtils.agentUtilities``: 1 for the best
    rank, -1 for the worst, linear between, players with equal returns sharing the mean
    of their ranks (a two-player draw or a timeout gives both 0)."""
    players = len(trace.returns)
    if players < 2:
        return [1.0] * players
    returns = (0.0,) * players if trace.timeout else trace.returns
    ranks = [
        1 + sum(r > mine for r in returns) + 0.5 * (sum(r == mine for r in returns) - 1) for mine in returns
    ]
    return [1.0 - 2.0 * (rank - 1) / (players - 1) for rank in ranks]


def outcome_uniformity(traces: Sequence[Trace]) -> Value:
    """1 minus the mean over players of the population variance of the player's rank
    utility (in [-1, 1]) over the games."""
    _need(traces)
    per_player = list(zip(*(utilities(t) for t in traces), strict=True))
    return Value(1.0 - statistics.fmean(statistics.pvariance(u) for u in per_player))


# --------------------------------------------------------------------------- duration


def duration_turns(traces: Sequence[Trace]) -> Value:
    """Mean number of turns per game."""
    _need(traces)
    return _mean([t.turns for t in traces])


def duration_moves(traces: Sequence[Trace]) -> Value:
    """Mean number of moves per game."""
    _need(traces)
    return _mean([t.moves for t in traces])


def duration_actions(traces: Sequence[Trace]) -> Value:
    """Mean number of actions per game, chance outcomes included; left out (NaN) when
    a trace does not record them."""
    _need(traces)
    if any(t.actions is None for t in traces):
        return Value(math.nan)
    return _mean([t.actions for t in traces])


def _spread(values: Sequence[float]) -> Value:
    return Value(statistics.pstdev(values) if values else math.nan)


def duration_turns_sd(traces: Sequence[Trace]) -> Value:
    """Population standard deviation of the turns per game."""
    return _spread([t.turns for t in traces])


def duration_moves_sd(traces: Sequence[Trace]) -> Value:
    """Population standard deviation of the moves per game."""
    return _spread([t.moves for t in traces])


# --------------------------------------------------------------------------- complexity


def _per_game(traces: Sequence[Trace], reduce) -> Value:
    _need(traces)
    return _mean([reduce(t.branching) if t.branching else math.nan for t in traces])


def branching_factor_mean(traces: Sequence[Trace]) -> Value:
    """Mean over games of each game's mean number of legal moves."""
    return _per_game(traces, statistics.fmean)


def _upper_median(values: Sequence[int]) -> float:
    """The middle value, the upper of the two for an even count (as Ludii takes it)."""
    return float(sorted(values)[len(values) // 2])


def branching_factor_median(traces: Sequence[Trace]) -> Value:
    """Mean over games of each game's median number of legal moves (the upper median)."""
    return _per_game(traces, _upper_median)


def branching_factor_max(traces: Sequence[Trace]) -> Value:
    """Mean over games of each game's largest number of legal moves."""
    return _per_game(traces, max)


def branching_factor_variance(traces: Sequence[Trace]) -> Value:
    """Mean over games of the population variance of each game's numbers of legal moves."""
    return _per_game(traces, statistics.pvariance)


def decision_moves(traces: Sequence[Trace]) -> Value:
    """Mean over games of the share of moves chosen among more than one legal move."""
    return _per_game(traces, lambda b: sum(x > 1 for x in b) / len(b))


def decision_factor(traces: Sequence[Trace]) -> Value:
    """Mean over games of the mean number of legal moves at the decision moves (more than one)."""

    def mean_of_decisions(b):
        decisions = [x for x in b if x > 1]
        return statistics.fmean(decisions) if decisions else math.nan

    return _per_game(traces, mean_of_decisions)


def game_tree_complexity(traces: Sequence[Trace]) -> Value:
    """Mean over games of ``moves * log10(mean branching factor of the game)``."""
    return _per_game(traces, lambda b: len(b) * math.log10(statistics.fmean(b)))


def state_space_complexity(traces: Sequence[Trace]) -> Value:
    """``sites * log10(k)``, with k the most distinct site contents (over all sites) one game showed:
    log10 of the number of ways to fill the board (an upper bound of the state space)."""
    _need(traces)
    known = [t for t in traces if t.sites and t.site_contents]
    if not known:
        return Value(math.nan)
    return Value(max(t.sites for t in known) * math.log10(max(t.site_contents for t in known)))


# --------------------------------------------------------------------------- board and repetition


def board_coverage(traces: Sequence[Trace]) -> Value:
    """Mean over games of the share of board sites changed at some point."""
    _need(traces)
    return _mean([t.sites_covered / t.sites if t.sites else math.nan for t in traces])


def _repetition(keys: Sequence[Hashable]) -> float:
    return 1.0 - len(set(keys)) / len(keys) if keys else math.nan


def positional_repetition(traces: Sequence[Trace]) -> Value:
    """Mean over games of ``1 - distinct positions / positions passed through`` (the start included)."""
    _need(traces)
    return _mean([_repetition(t.positions) for t in traces])


def situational_repetition(traces: Sequence[Trace]) -> Value:
    """As positional repetition, with the player to move part of the position."""
    _need(traces)
    return _mean([_repetition(t.situations) for t in traces])


# --------------------------------------------------------------------------- state evaluation


def _evaluated(traces: Sequence[Trace], per_game) -> Value:
    _need(traces)
    return _mean([per_game(t) if t.evaluations else math.nan for t in traces])


def _leaders(values: Sequence[float]) -> frozenset[int]:
    best = max(values)
    return frozenset(p for p, v in enumerate(values) if v == best)


def lead_change(traces: Sequence[Trace]) -> Value:
    """Mean over games of (positions whose set of leaders differs from the previous position's) / moves;
    the first position counts as a change, as in Ludii."""

    def per_game(t: Trace) -> float:
        previous, changes = frozenset(), 0
        for values in t.evaluations:
            leaders = _leaders(values)
            changes += leaders != previous
            previous = leaders
        return changes / len(t.evaluations)

    return _evaluated(traces, per_game)


def stability(traces: Sequence[Trace]) -> Value:
    """Mean over games of the sum over players of the population variance of the player's evaluations."""
    return _evaluated(
        traces, lambda t: sum(statistics.pvariance(col) for col in zip(*t.evaluations, strict=True))
    )


def _loser_peak(t: Trace) -> float:
    """The highest evaluation any player but the winner reached in a decided game."""
    return max(v for values in t.evaluations for p, v in enumerate(values) if p != t.winner)


def decisiveness_threshold(traces: Sequence[Trace]) -> Value:
    """Mean over decided games of the highest evaluation any player other than the winner reached."""

    def per_game(t: Trace) -> float:
        if t.winner is None:
            return math.nan
        return _loser_peak(t)

    return _evaluated(traces, per_game)


def decisiveness_moves(traces: Sequence[Trace]) -> Value:
    """Mean over decided games of the share of moves played before the winner's evaluation
    first rose above the game's decisiveness threshold (1 when it never did)."""

    def per_game(t: Trace) -> float:
        if t.winner is None:
            return math.nan
        threshold = _loser_peak(t)
        first = next((i for i, values in enumerate(t.evaluations) if values[t.winner] > threshold), t.moves)
        return first / t.moves

    return _evaluated(traces, per_game)


def _drama_series(t: Trace) -> list[float]:
    """How far the eventual winner's evaluation is below the best, position by position."""
    return [max(values) - values[t.winner] for values in t.evaluations]


def _changes(series: Sequence[float]) -> list[float]:
    return [b - a for a, b in zip(series, series[1:], strict=False)]


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def _change_average(series: Sequence[float]) -> float:
    return (series[-1] - series[0]) / (len(series) - 1) if len(series) > 1 else 0.0


def _change_sign(series: Sequence[float]) -> float:
    return sum(map(_sign, _changes(series))) / (len(series) - 1) if len(series) > 1 else 0.0


def line_slope(series: Sequence[float]) -> float:
    """The least-squares slope of the series against its index (0..n-1)."""
    n = len(series)
    if n < 2:
        return 0.0
    mx, my = (n - 1) / 2, statistics.fmean(series)
    return sum((x - mx) * (y - my) for x, y in enumerate(series)) / sum((x - mx) ** 2 for x in range(n))


def _change_num_times(series: Sequence[float]) -> float:
    """Steps whose direction (up or down) differs from the previous step's (a flat step has
    none), divided by the steps."""
    if len(series) < 2:
        return 0.0
    count, previous = 0, 0
    for step in map(_sign, _changes(series)):
        count += step != 0 and step != previous
        previous = step
    return count / (len(series) - 1)


#: Ludii's reductions of a per-position series to one value per game (its ``MultiMetricValue``).
REDUCTIONS: dict[str, object] = {
    "Average": statistics.fmean,
    "Median": _upper_median,
    "Maximum": max,
    "Minimum": min,
    "Variance": statistics.pvariance,
    "ChangeAverage": _change_average,
    "ChangeSign": _change_sign,
    "ChangeLineBestFit": line_slope,
    "ChangeNumTimes": _change_num_times,
    "MaxIncrease": lambda s: max([0.0, *_changes(s)]),
    "MaxDecrease": lambda s: min([0.0, *_changes(s)]),
}


def drama_reduced(traces: Sequence[Trace], reduction: str) -> Value:
    """Mean over decided games of ``REDUCTIONS[reduction]`` of the game's drama series
    (how far the eventual winner's evaluation is below the best, at each position)."""
    reduce = REDUCTIONS[reduction]
    return _evaluated(traces, lambda t: math.nan if t.winner is None else float(reduce(_drama_series(t))))


def drama(traces: Sequence[Trace]) -> Value:
    """Mean over decided games of the mean, over positions, of how far the eventual winner's
    evaluation is below the best evaluation."""
    return drama_reduced(traces, "Average")


def _move_evaluated(traces: Sequence[Trace], per_position) -> Value:
    _need(traces)
    return _mean(
        [
            statistics.fmean(per_position(v) for v in t.move_evaluations) if t.move_evaluations else math.nan
            for t in traces
        ]
    )


def _narrowness(values: Sequence[float]) -> float:
    best, mean = max(values), statistics.fmean(values)
    threshold = mean + 0.75 * (best - mean)
    return sum(v > threshold for v in values) / len(values)


def clarity_narrowness(traces: Sequence[Trace]) -> Value:
    """Mean over games of the mean over positions of the share of legal moves evaluated above
    ``mean + 0.75 * (best - mean)`` of that position's move evaluations."""
    return _move_evaluated(traces, _narrowness)


def clarity_variance(traces: Sequence[Trace]) -> Value:
    """Mean over games of the mean over positions of the population variance of the
    position's move evaluations."""
    return _move_evaluated(traces, statistics.pvariance)


# --------------------------------------------------------------------------- all of them

#: Metric name, its group and the function computing it from traces (``players``
#: is passed to the functions that need it).
METRICS: tuple[tuple[str, str, object], ...] = (
    ("AdvantageP1", "outcome", advantage_p1),
    ("Balance", "outcome", balance),
    ("Completion", "outcome", completion),
    ("Drawishness", "outcome", drawishness),
    ("Timeouts", "outcome", timeouts),
    ("OutcomeUniformity", "outcome", outcome_uniformity),
    ("DurationTurns", "duration", duration_turns),
    ("DurationTurnsStdDev", "duration", duration_turns_sd),
    ("DurationMoves", "duration", duration_moves),
    ("DurationMovesStdDev", "duration", duration_moves_sd),
    ("DurationActions", "duration", duration_actions),
    ("BranchingFactorAverage", "complexity", branching_factor_mean),
    ("BranchingFactorMedian", "complexity", branching_factor_median),
    ("BranchingFactorMaximum", "complexity", branching_factor_max),
    ("BranchingFactorVariance", "complexity", branching_factor_variance),
    ("DecisionMoves", "complexity", decision_moves),
    ("DecisionFactorAverage", "complexity", decision_factor),
    ("GameTreeComplexity", "complexity", game_tree_complexity),
    ("StateSpaceComplexity", "complexity", state_space_complexity),
    ("BoardCoverageDefault", "board", board_coverage),
    ("PositionalRepetition", "repetition", positional_repetition),
    ("SituationalRepetition", "repetition", situational_repetition),
    ("LeadChange", "evaluation", lead_change),
    ("Stability", "evaluation", stability),
    ("DecisivenessThreshold", "evaluation", decisiveness_threshold),
    ("DecisivenessMoves", "evaluation", decisiveness_moves),
    *(
        (f"Drama{name}", "evaluation", functools.partial(drama_reduced, reduction=name))
        for name in REDUCTIONS
    ),
    ("ClarityNarrowness", "evaluation", clarity_narrowness),
    ("ClarityVariance", "evaluation", clarity_variance),
)


def all_metrics(traces: Sequence[Trace], players: int) -> dict[str, Value]:
    """Every metric of ``METRICS`` over ``traces``, by name, in the table's order."""
    _need(traces)
    out = {}
    for name, _group, fn in METRICS:
        out[name] = fn(traces, players) if fn is balance else fn(traces)
    return out


def trace_to_record(trace: Trace) -> dict:
    """A JSON-ready form of ``trace``; position keys become first-seen indices
    (0, 1, 2, ...), which keeps every repetition and nothing else."""

    def relabel(keys):
        seen: dict = {}
        return [seen.setdefault(k, len(seen)) for k in keys]

    d = dataclasses.asdict(trace)
    d["positions"] = relabel(trace.positions)
    d["situations"] = relabel(trace.situations)
    return d


def trace_from_record(d: dict) -> Trace:
    return Trace(
        returns=tuple(d["returns"]),
        movers=tuple(d["movers"]),
        branching=tuple(d["branching"]),
        positions=tuple(d["positions"]),
        situations=tuple(d["situations"]),
        sites_covered=d["sites_covered"],
        sites=d["sites"],
        timeout=d["timeout"],
        evaluations=tuple(tuple(v) for v in d.get("evaluations", ())),
        move_evaluations=tuple(tuple(v) for v in d.get("move_evaluations", ())),
        site_contents=d.get("site_contents"),
        actions=d.get("actions"),
    )

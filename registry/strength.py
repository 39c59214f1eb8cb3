"""How strong a game's players are, from its finished games: the leaderboard's
"Show Learning-curve" (rating against search budget) and "Difficulty level"
(the tic-tac-toe variations specification's leaderboard page).

Both fit Bradley-Terry ratings on the Elo scale with Random at 0
(``analysis.ratings.fit_ratings``, the fit of experiments/strength_plots.py)
to the rule set's finished games in one universe: the ``games`` table, which
holds a game only once it has ended, so a game in progress shows in neither.

- Learning curve: each bot with a search budget (``simulations`` of MCTS,
  ISMCTS, SM-MCTS, OpenSpiel's MCTS) is a point, budget against rating, one
  line per kind of bot; bots with a depth instead (alpha-beta) are bands.
  Enough data: Random and at least two budgets of one kind.
- Difficulty: the rating of the reference player, the rule set's Standard
  Player if it has one and has played, else the best-rated bot, i.e. how far
  above random play the player a person is measured against stands; labelled by
  the score random play gets against it (``DIFFICULTY_LABELS``). More wins of
  the reference over Random make it higher. Enough data: the reference and
  Random have played.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass

from agents import BotSpec
from analysis.ratings import expected_score, fit_ratings
from registry.store import Registry

ANCHOR = "Random"
#: The option that is a bot's search budget (a point of the learning curve).
BUDGETS = ("simulations", "iterations")
#: Options that set a fixed depth instead (a band across the learning curve).
DEPTHS = ("depth",)
#: (rating below which, label): Random's expected score against the reference
#: is 24% at 200 Elo, 9% at 400 and 1% at 800.
DIFFICULTY_LABELS = ((200.0, "easy"), (400.0, "moderate"), (800.0, "hard"), (float("inf"), "very hard"))


def finished_records(reg: Registry, rule_set: str, universe: str) -> list[dict]:
    """The finished games of ``rule_set`` in ``universe``: players by seat and
    their returns (what ``fit_ratings`` reads)."""
    rows = reg.query(
        "SELECT s.game_id, p.name, s.result FROM seats s JOIN games g ON g.id = s.game_id "
        "JOIN players p ON p.id = s.player_id WHERE g.rule_set_id = ? AND g.universe_id = ? "
        "ORDER BY s.game_id, s.seat",
        (reg.rule_set_id(rule_set), reg.universe_id(universe)),
    )
    games: dict[int, dict] = {}
    for gid, name, result in rows:
        game = games.setdefault(gid, {"players": [], "returns": []})
        game["players"].append(name)
        game["returns"].append(result)
    return list(games.values())


def _fit(records: list[dict]):
    """Ratings with Random at 0, or None when Random has not played another."""
    if not any(ANCHOR in r["players"] and len(set(r["players"])) > 1 for r in records):
        return None
    return fit_ratings(records, anchor=ANCHOR)


def _specs(reg: Registry, names) -> dict[str, BotSpec]:
    """The bot specs of those of ``names`` that are bots."""
    marks = ",".join("?" * len(names)) or "NULL"
    rows = reg.query(f"SELECT name, spec FROM players WHERE kind = 'bot' AND name IN ({marks})", list(names))
    return {name: BotSpec.from_json(json.loads(spec)) for name, spec in rows}


@dataclass(frozen=True)
class LearningCurve:
    """``series[kind]``: (budget, rating, low, high) points; ``bands[label]``:
    (rating, low, high) of bots with a fixed depth; ``games``: games fitted."""

    series: dict
    bands: dict
    games: int


def learning_curve(reg: Registry, rule_set: str, universe: str) -> LearningCurve | None:
    """Rating against search budget, or None when there is not enough data
    (Random and two budgets of one kind of bot)."""
    records = finished_records(reg, rule_set, universe)
    fit = _fit(records)
    if fit is None:
        return None
    series: dict[str, list] = defaultdict(list)
    bands: dict[str, tuple] = {}
    for name, spec in _specs(reg, fit.names()).items():
        row = fit[name]
        options = dict(spec.options)
        budget = next((options[k] for k in BUDGETS if isinstance(options.get(k), int)), None)
        depth = next((f"{k} {options[k]}" for k in DEPTHS if k in options), None)
        if budget is not None:
            series[spec.kind].append((budget, row.rating, row.low, row.high))
        elif depth is not None:
            bands[f"{name} ({spec.kind} {depth})"] = (row.rating, row.low, row.high)
    series = {kind: sorted(points) for kind, points in series.items() if len({p[0] for p in points}) >= 2}
    if not series:
        return None
    return LearningCurve(dict(sorted(series.items())), bands, fit.games)


@dataclass(frozen=True)
class Difficulty:
    """The reference player's rating (Elo, Random = 0) with its interval, its
    label, why it is the reference, and Random's expected score against it."""

    reference: str
    why: str
    rating: float
    low: float
    high: float
    label: str
    random_score: float
    games: int


def difficulty_label(rating: float) -> str:
    return next(label for bound, label in DIFFICULTY_LABELS if rating < bound)


def difficulty(reg: Registry, rule_set: str, universe: str, standard_player: str | None) -> Difficulty | None:
    """The rule set's difficulty level, or None when the reference player and
    Random have not both played its finished games in ``universe``."""
    fit = _fit(finished_records(reg, rule_set, universe))
    if fit is None:
        return None
    bots = [n for n in _specs(reg, fit.names())]
    if standard_player in fit.names() and standard_player != ANCHOR:
        reference, why = standard_player, "the Standard Player"
    elif bots:
        reference = max(bots, key=lambda n: (fit[n].rating, n))
        why = "the best-rated bot"
    else:
        return None
    row = fit[reference]
    return Difficulty(
        reference,
        why,
        row.rating,
        row.low,
        row.high,
        difficulty_label(row.rating),
        expected_score(0.0, row.rating),
        fit.games,
    )

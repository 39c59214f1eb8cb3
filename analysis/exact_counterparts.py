"""Exact values beside the playout metrics, where a game is solved.

Why: a playout estimate of the first player's advantage, of the state space or
of the game tree says how a game looks in random play; where the game is solved
(a record in docs/solved_records.jsonl) the toolkit knows the true values, and
a designer reads the two side by side. Nothing here plays a game:

- ``AdvantageP1`` exact: the first player's game-theoretic score, its
  optimal-play return mapped to [0, 1] (1 a win, 1/2 a draw, 0 a loss), the
  counterpart of the playout ``AdvantageP1``;
- ``WinningOpenings``: the share of first moves after which the first player
  still wins (0 where the game is a first-player loss);
- ``StateSpacePositions``: the distinct non-terminal positions reachable from
  the start, counted by the memoised walk of ``cfr.count`` (exact up to
  ``cfr.count.MAX_POSITIONS``, a lower bound past it), against the estimate
  ``StateSpaceComplexity`` as its log10;
- ``GameTreeLeaves``: the complete games (terminal histories) of the same
  walk, against the estimate ``GameTreeComplexity`` as its log10 (only where
  the walk finished: a walk stopped early bounds no number of complete games).
"""

from __future__ import annotations

import dataclasses
import functools
import math
from pathlib import Path

import pyspiel

from analysis.exact import SOLVED_RECORDS
from analysis.solved_families import KEY


@dataclasses.dataclass(frozen=True)
class Exact:
    """One exact quantity: its value, whether it is exact or a lower bound, and what it says."""

    name: str
    value: float
    exact: bool
    text: str

    def as_dict(self) -> dict:
        return {"value": self.value, "exact": self.exact, "text": self.text}


@functools.cache
def _canonical(game_string: str) -> str | None:
    try:
        return str(pyspiel.load_game(game_string))
    except (pyspiel.SpielError, RuntimeError, ValueError):  # a game this build does not load matches nothing
        return None


def solved_record(game_string: str, path: Path = SOLVED_RECORDS) -> dict | None:
    """The solve record of the game ``game_string`` loads (the same game however its
    parameters are written), the latest of several; ``None`` when it has none."""
    import games  # noqa: F401  (registers this toolkit's games, whose records these are)
    from records import read_records

    wanted = _canonical(game_string)
    found = None
    for record in read_records(path, key=KEY):
        if record.get("complete") and record.get("value") is not None:
            if record[KEY] == game_string or _canonical(record[KEY]) == wanted:
                found = record
    return found


#: The playout metric each exact quantity stands beside.
ESTIMATE_OF = {
    "AdvantageP1": "AdvantageP1",
    "StateSpacePositions": "StateSpaceComplexity",
    "GameTreeLeaves": "GameTreeComplexity",
}


def exact_counterparts(game_string: str, record: dict, max_positions: int | None = None) -> list[Exact]:
    """The exact quantities of the solved game ``game_string`` (``record`` its solve record)."""
    from cfr.count import MAX_POSITIONS, count_histories

    game = pyspiel.load_game(game_string)
    low, high = game.min_utility(), game.max_utility()
    value = float(record["value"])
    score = (value - low) / (high - low)
    verdict = (
        "the first player wins" if value == high else "a draw" if score == 0.5 else "the first player loses"
    )
    out = [Exact("AdvantageP1", score, True, f"game-theoretic value {value:+g}: {verdict}")]
    openings = record.get("opening_values") or {}
    if value == low:
        out.append(Exact("WinningOpenings", 0.0, True, "no opening wins"))
    elif openings:
        wins = sum(v == high for v in openings.values())
        out.append(
            Exact("WinningOpenings", wins / len(openings), True, f"{wins} of {len(openings)} openings win")
        )
    count = count_histories(game, max_positions=max_positions or MAX_POSITIONS)
    if count.positions is not None:
        more = "" if count.exact else "more than "
        out.append(
            Exact(
                "StateSpacePositions",
                float(count.positions),
                count.exact,
                f"{more}{count.positions:,} non-terminal positions (log10 {math.log10(count.positions):.2f})",
            )
        )
    if count.exact:
        leaves = count.histories - count.nonterminal
        out.append(
            Exact(
                "GameTreeLeaves",
                float(leaves),
                True,
                f"{leaves:,} complete games (log10 {math.log10(leaves):.2f})",
            )
        )
    return out

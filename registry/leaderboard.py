"""The leaderboard of a rule set in a universe, with Top-Burst, and rating histories.

The tic-tac-toe variations specification: "Sort descending by skill rating + Top-Burst. In parentheses, show
how long that level has been held. The top ten players are ranked. Display up
to ten players [...] including ranked players, the user (if played), random
(in all universes), and the standard player (SP)".

Definitions (docs/registry.md gives the reasons):
- skill rating: the conservative estimate mu - 3 sigma after the player's last
  game on this board (0 for a beginner and for a player with no games yet).
- sustained level of a window: the lowest skill over ``BURST_WINDOW``
  consecutive rated games; best sustained: the highest of these over the
  player's history on this board (none with fewer games than the window).
- Top-Burst: how far the best sustained level lies above the current skill,
  never negative. So "skill + Top-Burst" is the higher of the current skill and
  the best level the player ever held for a whole window: one lucky game does
  not lift a player, and a bad day after a long stay at the top does not drop it.
- held: the level is ``skill + Top-Burst``; the player has held it for the
  latest run of consecutive games whose skill was at least that level, from its
  first game to the game after its last (or to now when the run reaches the
  present). Given as a number of games and a time.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Sequence

from registry import rating_model
from registry.errors import RegistryError
from registry.players import standard_player
from registry.store import PUBLIC, RANDOM, Registry, now

BURST_WINDOW = 5
RANKED = 10
ROWS = 10
_EPS = 1e-9


@dataclasses.dataclass(frozen=True)
class Entry:
    player: str
    kind: str
    games: int
    skill: float
    top_burst: float
    held_games: int
    held_seconds: float
    rank: int | None = None

    @property
    def level(self) -> float:
        return self.skill + self.top_burst

    def to_json(self) -> dict:
        out = dataclasses.asdict(self)
        out["level"] = self.level
        return out


def top_burst(skills: Sequence[float], window: int = BURST_WINDOW) -> float:
    """How far the best level held for ``window`` consecutive games lies above the last skill."""
    if len(skills) < window:
        return 0.0
    best = max(min(skills[i : i + window]) for i in range(len(skills) - window + 1))
    return max(0.0, best - skills[-1])


def held(skills: Sequence[float], times: Sequence[str], level: float, until: str) -> tuple[int, float]:
    """(games, seconds) of the latest run of games with skill >= ``level``."""
    end = len(skills) - 1
    while end >= 0 and skills[end] < level - _EPS:
        end -= 1
    if end < 0:
        return 0, 0.0
    start = end
    while start > 0 and skills[start - 1] >= level - _EPS:
        start -= 1
    stop = times[end + 1] if end + 1 < len(times) else until
    seconds = (dt.datetime.fromisoformat(stop) - dt.datetime.fromisoformat(times[start])).total_seconds()
    return end - start + 1, max(0.0, seconds)


def history(reg: Registry, rule_set: str, universe: str, player: str) -> list[dict]:
    """The player's rating after each of its games on this board, oldest first."""
    rows = reg.query(
        "SELECT game_id, at, mu, sigma FROM ratings WHERE rule_set_id = ? AND "
        "universe_id = ? AND player_id = ? ORDER BY game_id",
        (reg.rule_set_id(rule_set), reg.universe_id(universe), reg.player(player)[0]),
    )
    return [
        {"game": g, "at": at, "mu": mu, "sigma": sigma, "skill": rating_model.skill(mu, sigma)}
        for g, at, mu, sigma in rows
    ]


def _entry(reg, rule_set, universe, name, kind, until) -> Entry:
    points = history(reg, rule_set, universe, name)
    if not points:
        return Entry(name, kind, 0, rating_model.skill(*rating_model.BEGINNER), 0.0, 0, 0.0)
    skills = [p["skill"] for p in points]
    burst = top_burst(skills)
    games, seconds = held(skills, [p["at"] for p in points], skills[-1] + burst, until)
    return Entry(name, kind, len(points), skills[-1], burst, games, seconds)


def leaderboard(
    reg: Registry,
    rule_set: str,
    universe: str = PUBLIC,
    user: str | None = None,
    extra: Sequence[str] = (),
    until: str | None = None,
) -> list[Entry]:
    """The rows of the board: the top ten ranked, then Random, the rule set's SP,
    ``user``'s player in this universe (if it played) and the ``extra`` players
    (the tic-tac-toe variations specification's "Add Player", whose combobox
    offers only players who played this game in this universe: any other is
    refused) as far as room is left among ten rows, sorted by level. Random and
    the SP are always shown, replacing the lowest ranked rows."""
    until = until or now()
    rid, vid = reg.rule_set_id(rule_set), reg.universe_id(universe)
    rows = reg.query(
        "SELECT DISTINCT p.name, p.kind FROM ratings r JOIN players p ON "
        "p.id = r.player_id WHERE r.rule_set_id = ? AND r.universe_id = ?",
        (rid, vid),
    )
    entries = {name: _entry(reg, rule_set, universe, name, kind, until) for name, kind in rows}
    order = sorted(entries.values(), key=lambda e: (-e.level, e.player))
    ranked = {e.player: i + 1 for i, e in enumerate(order[:RANKED])}
    must = [RANDOM]
    sp = standard_player(reg, rule_set)
    if sp:
        must.append(sp)
    wanted = list(must)
    if user is not None:
        uid, _ = reg.user_id(user)
        mine = reg.one("SELECT name FROM players WHERE user_id = ? AND universe_id = ?", (uid, vid))
        if mine and mine[0] in entries:
            wanted.append(mine[0])
    for name in extra:
        reg.player(name)
        if name not in entries:
            raise RegistryError(
                f"cannot add {name!r}: it has not played {rule_set} in the {universe} universe; "
                f"players who have: {', '.join(sorted(entries)) or '(none yet)'}"
            )
        wanted.append(name)
    for name in must:
        if name not in entries:
            entries[name] = _entry(reg, rule_set, universe, name, reg.player(name)[2], until)
    shown = list(dict.fromkeys(wanted))[:ROWS]
    for e in order:
        if len(shown) >= ROWS:
            break
        if e.player not in shown:
            shown.append(e.player)
    out = [dataclasses.replace(entries[n], rank=ranked.get(n)) for n in shown]
    return sorted(out, key=lambda e: (-e.level, e.player))


def duration(seconds: float) -> str:
    """``3d 4h``, ``2h 5m``, ``40s``: how long a level has been held."""
    seconds = int(seconds)
    for unit, size, sub, subsize in (("d", 86400, "h", 3600), ("h", 3600, "m", 60), ("m", 60, "s", 1)):
        if seconds >= size:
            return f"{seconds // size}{unit} {seconds % size // subsize}{sub}"
    return f"{seconds}s"


def format_board(entries: Sequence[Entry]) -> str:
    lines = [f"{'rank':>4}  {'player':<24} {'level':>7} {'skill':>7} {'burst':>6} {'games':>6}  held"]
    for e in entries:
        rank = str(e.rank) if e.rank else "-"
        lines.append(
            f"{rank:>4}  {e.player:<24} {e.level:7.2f} {e.skill:7.2f} {e.top_burst:6.2f} "
            f"{e.games:6d}  ({e.held_games} games, {duration(e.held_seconds)})"
        )
    return "\n".join(lines)

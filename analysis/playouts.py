"""Statistics of uniformly random play, run in a game's Cython kernel.

Why: random play is what a designer looks at first (who wins when nobody
plays well, how long games last, how many flips happen, how full the board
is at the end), and more than one study asks for it; the loop runs in the
kernel (``random_playout`` on a copy of the start), so a study can afford
hundreds of thousands of games. Game i uses seed S+i, so any game can be
replayed alone.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field

import numpy as np
from tqdm import tqdm

from analysis.stats import wilson_interval

#: The kernels take a playout's seed as an unsigned 64-bit integer.
MAX_SEED = 2**64 - 1


@dataclass
class PlayoutSummary:
    game: str
    games: int
    seed: int
    first_player_wins: int
    draws: int
    seconds: float
    placements: list = field(default_factory=list)
    flips: list = field(default_factory=list)
    turns: list = field(default_factory=list)
    empty_cells: list = field(default_factory=list)
    cells: int = 0

    def as_dict(self) -> dict:
        low, high = wilson_interval(self.first_player_wins, self.games)
        placements = np.asarray(self.placements)
        result = {
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "first_player_win_rate": self.first_player_wins / self.games,
            "ci95": [low, high],
            "draw_rate": self.draws / self.games,
            "playouts_per_second": self.games / self.seconds if self.seconds > 0 else float("inf"),
        }
        if len(placements):
            result.update(
                {
                    "mean_placements": float(placements.mean()),
                    "min_placements": int(placements.min()),
                    "max_placements": int(placements.max()),
                    "mean_flips": float(np.mean(self.flips)),
                    "mean_turns": float(np.mean(self.turns)),
                }
            )
            if self.cells:
                filled = 1.0 - np.asarray(self.empty_cells) / self.cells
                result["mean_board_filled"] = float(filled.mean())
        return result


def random_playouts(name: str, game, root, n: int, seed: int, progress: bool = False) -> PlayoutSummary:
    """Play ``n`` uniformly random games from the core ``root`` of the loaded
    ``game`` (named ``name`` in the summary), from seeds seed..seed+n-1."""
    if n <= 0:
        raise ValueError(f"the number of games must be positive, got {n}")
    if not 0 <= seed <= MAX_SEED - (n - 1):
        raise ValueError(
            f"seed must be in 0..{MAX_SEED - (n - 1)} (game i uses seed+i, an unsigned "
            f"64-bit integer), got {seed}"
        )
    params = game.get_parameters()
    cells = 0
    if "board_shape" in params:
        from games.boards import make_board

        cells = make_board(params["board_shape"], params["board_size"]).num_cells
    summary = PlayoutSummary(name, n, seed, 0, 0, 0.0, cells=cells)
    start = time.perf_counter()
    with tqdm(total=n, disable=not progress, unit="game", file=sys.stderr) as bar:
        for i in range(n):
            state = root.clone()
            state.random_playout(seed + i)
            returns = state.returns_list()
            if returns[0] > 0 and returns[0] == max(returns) and returns.count(returns[0]) == 1:
                summary.first_player_wins += 1
            elif len(set(returns)) == 1:
                summary.draws += 1
            stats = state.playout_stats()
            if stats:
                # a game's moves: stones placed, or in Caeth Y edges captured
                summary.placements.append(stats["placements"] if "placements" in stats else stats["moves"])
                summary.flips.append(stats.get("flips", 0))
                summary.turns.append(stats.get("turns", 0))
                summary.empty_cells.append(stats.get("empty_cells", 0))
            if (i + 1) % 4096 == 0:
                bar.update(4096)
        bar.update(n % 4096)
    summary.seconds = time.perf_counter() - start
    return summary

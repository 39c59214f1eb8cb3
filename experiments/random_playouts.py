"""Statistics of uniformly random play, run in the games' Cython kernels.

    python -m experiments.random_playouts --game "double_o_y(board_size=11)" --n 100000 --seed 1

Uniform over the legal actions at every decision (flips included), which is
what a designer wants to see first: who wins when nobody plays well, how long
games last, how many flips happen, how full the board is at the end. Game i
uses seed S+i, so any game can be replayed alone.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field

import numpy as np
import pyspiel
from scipy.stats import binomtest
from tqdm import tqdm

import games  # noqa: F401  (registers our games)
from games.openspiel import core_of, is_core_game


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
        ci = binomtest(self.first_player_wins, self.games).proportion_ci(0.95, method="wilson")
        placements = np.asarray(self.placements)
        result = {
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "first_player_win_rate": self.first_player_wins / self.games,
            "ci95": [float(ci.low), float(ci.high)],
            "draw_rate": self.draws / self.games,
            "playouts_per_second": self.games / self.seconds if self.seconds > 0 else float("inf"),
        }
        if len(placements):
            result.update({
                "mean_placements": float(placements.mean()),
                "min_placements": int(placements.min()),
                "max_placements": int(placements.max()),
                "mean_flips": float(np.mean(self.flips)),
                "mean_turns": float(np.mean(self.turns)),
            })
            if self.cells:
                filled = 1.0 - np.asarray(self.empty_cells) / self.cells
                result["mean_board_filled"] = float(filled.mean())
        return result


def load_core(game_string: str):
    """The game and a fresh Cython core of a registered game of ours, or a clear error."""
    game = pyspiel.load_game(game_string)
    if not is_core_game(game):
        raise ValueError(f"{game_string!r} is not one of this toolkit's Cython games "
                         "(random_playouts runs the games' own kernels)")
    return game, core_of(game)


def run(game_string: str, n: int, seed: int, progress: bool = False) -> PlayoutSummary:
    """Play ``n`` random games of ``game_string`` from seeds seed..seed+n-1."""
    if n <= 0:
        raise ValueError("the number of games must be positive")
    game, root = load_core(game_string)
    params = game.get_parameters()
    cells = 0
    if "board_shape" in params:
        from games.boards import make_board
        cells = make_board(params["board_shape"], params["board_size"]).num_cells
    summary = PlayoutSummary(game_string, n, seed, 0, 0, 0.0, cells=cells)
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
                summary.placements.append(stats["placements"])
                summary.flips.append(stats.get("flips", 0))
                summary.turns.append(stats.get("turns", 0))
                summary.empty_cells.append(stats.get("empty_cells", 0))
            if (i + 1) % 4096 == 0:
                bar.update(4096)
        bar.update(n % 4096)
    summary.seconds = time.perf_counter() - start
    return summary


def format_summary(d: dict) -> str:
    lines = [f"{d['game']}: {d['games']} random games (seed {d['seed']})",
             f"  first-player win rate  {d['first_player_win_rate']:.4f}  "
             f"95% CI [{d['ci95'][0]:.4f}, {d['ci95'][1]:.4f}]"]
    if d["draw_rate"]:
        lines.append(f"  draws                  {d['draw_rate']:.4f}")
    if "mean_placements" in d:
        lines.append(f"  placements             mean {d['mean_placements']:.2f}  "
                     f"min {d['min_placements']}  max {d['max_placements']}")
        lines.append(f"  flips                  mean {d['mean_flips']:.2f}")
        lines.append(f"  turns                  mean {d['mean_turns']:.2f}")
    if "mean_board_filled" in d:
        lines.append(f"  board filled at end    {100 * d['mean_board_filled']:.1f}%")
    lines.append(f"  speed                  {d['playouts_per_second']:,.0f} playouts/s")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m experiments.random_playouts",
        description="Uniform random playouts of one game in its Cython kernel: first-player "
                    "win rate with a 95%% Wilson interval, game length, flips, turns, speed.")
    parser.add_argument("--game", default="double_o_y(board_size=11)",
                        help='OpenSpiel game string, e.g. "y_game(board_size=11)" '
                             "(default: %(default)s)")
    parser.add_argument("--n", type=int, default=100_000, help="number of games (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="seed of game 0; game i uses seed+i")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    args = parser.parse_args(argv)
    if args.n <= 0:
        parser.error("--n must be positive")
    try:
        summary = run(args.game, args.n, args.seed, progress=not args.json and sys.stderr.isatty())
    except pyspiel.SpielError as error:
        parser.error(str(error))
    except ValueError as error:
        parser.error(str(error))
    result = summary.as_dict()
    print(json.dumps(result) if args.json else format_summary(result))


if __name__ == "__main__":
    main()

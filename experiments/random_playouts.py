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

import pyspiel

import games  # noqa: F401  (registers our games)
from analysis.playouts import PlayoutSummary, random_playouts
from analysis.study import non_negative_int, positive_int
from games.openspiel import core_of, is_core_game


def load_core(game_string: str):
    """The game and a fresh Cython core of a registered game of ours, or a clear error."""
    game = pyspiel.load_game(game_string)
    if not is_core_game(game):
        raise ValueError(
            f"{game_string!r} is not one of this toolkit's Cython games "
            "(random_playouts runs the games' own kernels)"
        )
    return game, core_of(game)


def run(game_string: str, n: int, seed: int, progress: bool = False) -> PlayoutSummary:
    """Play ``n`` random games of ``game_string`` from seeds seed..seed+n-1
    (``analysis.playouts.random_playouts``; counts and seeds are checked there)."""
    game, root = load_core(game_string)
    return random_playouts(game_string, game, root, n, seed, progress)


def format_summary(d: dict) -> str:
    lines = [
        f"{d['game']}: {d['games']} random games (seed {d['seed']})",
        f"  first-player win rate  {d['first_player_win_rate']:.4f}  "
        f"95% CI [{d['ci95'][0]:.4f}, {d['ci95'][1]:.4f}]",
    ]
    if d["draw_rate"]:
        lines.append(f"  draws                  {d['draw_rate']:.4f}")
    if "mean_placements" in d:
        lines.append(
            f"  placements             mean {d['mean_placements']:.2f}  "
            f"min {d['min_placements']}  max {d['max_placements']}"
        )
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
        "win rate with a 95%% Wilson interval, game length, flips, turns, speed.",
    )
    parser.add_argument(
        "--game",
        default="double_o_y(board_size=11)",
        help='OpenSpiel game string, e.g. "y_game(board_size=11)" (default: %(default)s)',
    )
    parser.add_argument(
        "--n", type=positive_int, default=100_000, help="number of games (default: %(default)s)"
    )
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seed of game 0; game i uses seed+i")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    args = parser.parse_args(argv)
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

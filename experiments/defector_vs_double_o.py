"""How far 00-Y with flips "opponents into friends" is from Defector Y.

    python -m experiments.defector_vs_double_o --board-size 8 --n 2000 --seed 3

Dale W. Walton's 00-Y rules claim that with two placements a turn the two games "should be
equivalent". Each random game is played in Defector Y and, action for action,
in 00-Y; the report counts games whose legal actions differ at some point
before Defector Y ends, and games that 00-Y (continued at random where Defector
Y stopped) gives to the other player. docs/rules/double_o_y.md explains the
results.
"""

from __future__ import annotations

import argparse
import json
import random

import pyspiel

import games  # noqa: F401


def compare(defector: str, double_o: str, n: int, seed: int) -> dict:
    a_game, b_game = pyspiel.load_game(defector), pyspiel.load_game(double_o)
    rng = random.Random(seed)
    diverged = other_winner = 0
    for _ in range(n):
        a, b = a_game.new_initial_state(), b_game.new_initial_state()
        same = True
        while not a.is_terminal() and not b.is_terminal():
            if a.current_player() != b.current_player() or a.legal_actions() != b.legal_actions():
                same = False
                break
            action = rng.choice(a.legal_actions())
            a.apply_action(action)
            b.apply_action(action)
        if not same:
            diverged += 1
            continue
        while not b.is_terminal():
            b.apply_action(rng.choice(b.legal_actions()))
        if a.returns() != b.returns():
            other_winner += 1
    return {
        "defector_y": defector,
        "double_o_y": double_o,
        "games": n,
        "seed": seed,
        "diverged": diverged / n,
        "other_winner": other_winner / n,
    }


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m experiments.defector_vs_double_o", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--board-size", type=int, default=8, help="triangle side (default: 8)")
    parser.add_argument("--n", type=int, default=2000, help="random games per comparison")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.n <= 0:
        parser.error("--n must be positive")
    size = f"board_size={args.board_size}"
    rows = []
    try:
        for protocol, win in ((122, "turn_end"), (122, "turn_start"), (1, "turn_end"), (1, "turn_start")):
            rows.append(
                compare(
                    f"defector_y({size},protocol={protocol})",
                    f"double_o_y({size},protocol={protocol},flip=opponents,win={win})",
                    args.n,
                    args.seed,
                )
            )
    except (pyspiel.SpielError, ValueError) as error:
        parser.error(str(error))
    if args.json:
        print(json.dumps(rows))
        return
    width = max(len(row["double_o_y"]) for row in rows)
    print(
        f"{'compared with ' + rows[0]['defector_y'].split(',')[0] + ', ...)':{width}s} "
        f"{'diverged':>9s} {'other winner':>13s}"
    )
    for row in rows:
        print(
            f"{row['double_o_y']:{width}s} {100 * row['diverged']:8.1f}% {100 * row['other_winner']:12.1f}%"
        )


if __name__ == "__main__":
    main()

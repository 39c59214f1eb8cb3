"""``python -m games.ttt.payoffs NAME_OR_FILE``: the payoff table of a rule set.

Why through ``ttt(rules=...)`` and not the engine: the table must be the one
every OpenSpiel algorithm sees (simultaneous rounds as joint actions, cloaked
spaces as information states, Chaos as the chance player), and the engine
grows under other hands; the game's public face is the stable contract. The
table itself is games/normal_form.py (any OpenSpiel game: ``--game``), its
formats games/payoff_formats.py; definitions in docs/payoffs.md.
"""

from __future__ import annotations

import argparse
import sys
import time

import pyspiel

import games  # noqa: F401  (registers ttt)
from games.normal_form import (
    DEFAULT_MAX_NODES,
    DEFAULT_MAX_PROFILES,
    TooLarge,
    count_text,
    enumerate_tree,
    payoff_table,
)
from games.payoff_formats import to_text, write_json, write_nfg
from games.ttt.resolve import resolve
from games.ttt.schema import RuleSetError

FORBIDDEN = ",()="  # OpenSpiel's game-string syntax


def game_string(rules: str) -> str:
    """``ttt(rules=...)`` for a catalogue name or rule-set file, after checking
    that it resolves (so a bad name or file gets the rule engine's own message,
    not OpenSpiel's)."""
    bad = [c for c in FORBIDDEN if c in rules]
    if bad:
        raise ValueError(
            f"{rules!r}: a rule-set name or path may not contain {' '.join(bad)} "
            "(OpenSpiel's game-string syntax); rename or move the file"
        )
    resolve(rules)
    return f"ttt(rules={rules})"


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not positive")
    return value


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m games.ttt.payoffs",
        description="Payoff table of a tic-tac-toe rule set (or any OpenSpiel game with --game): the "
        "expected return of every player for every profile of the players' pure "
        "strategies, Chaos (chance) playing uniformly at random, by exhaustive "
        "enumeration of the game tree, in exact fractions where chance and returns are. "
        "Definitions: docs/payoffs.md.",
    )
    p.add_argument("rules", nargs="?", help="catalogue name or path to a rule-set .json file")
    p.add_argument("--game", help="any OpenSpiel game string instead, e.g. matrix_pd or kuhn_poker")
    p.add_argument(
        "--max-profiles",
        type=_positive,
        default=DEFAULT_MAX_PROFILES,
        help="refuse (giving the count) when the pure-strategy profiles exceed this "
        f"(default {DEFAULT_MAX_PROFILES:,})",
    )
    p.add_argument(
        "--max-nodes",
        type=_positive,
        default=DEFAULT_MAX_NODES,
        help=f"refuse when the game tree exceeds this many nodes (default {DEFAULT_MAX_NODES:,})",
    )
    p.add_argument("--json", metavar="PATH", help="also write the table as JSON")
    p.add_argument(
        "--nfg",
        metavar="PATH",
        help="also write the table in Gambit's .nfg format (outcome version, with strategy labels)",
    )
    p.add_argument(
        "--count",
        action="store_true",
        help="only count information states, strategies and profiles (within --max-nodes)",
    )
    p.add_argument("--quiet", action="store_true", help="print no table (only write the files)")
    return p


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    if (args.rules is None) == (args.game is None):
        parser().error("give a rule set (catalogue name or .json path) or --game, not both")
    try:
        game = game_string(args.rules) if args.rules is not None else args.game
        loaded = pyspiel.load_game(game)
    except (RuleSetError, ValueError, OSError, pyspiel.SpielError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    started = time.monotonic()

    def progress(message: str) -> None:
        print(f"[{time.monotonic() - started:6.1f} s] {message}", file=sys.stderr, flush=True)

    if args.count:
        try:
            tree = enumerate_tree(
                loaded, max_nodes=args.max_nodes, max_profiles=None, build=False, progress=progress
            )
        except TooLarge as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        print(f"{game}: {tree.nodes:,} tree nodes")
        for p, (states, k) in enumerate(zip(tree.infostates, tree.num_strategies, strict=True)):
            print(f"player {p}: {len(states):,} information states, {count_text(k)} pure strategies")
        print(f"pure-strategy profiles: {count_text(tree.num_profiles)}")
        return 0
    try:
        table = payoff_table(
            loaded, max_profiles=args.max_profiles, max_nodes=args.max_nodes, progress=progress
        )
    except TooLarge as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if not args.quiet:
        sys.stdout.write(to_text(table))
    if args.json:
        write_json(table, args.json)
        progress(f"wrote {args.json}")
    if args.nfg:
        write_nfg(table, args.nfg)
        progress(f"wrote {args.nfg}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Can a game of Flipway repeat a position? The evidence behind
docs/rules/flipway.md, "Repetition and game length".

Five parts, each printed as it finishes and all written to ``--out`` (JSON):

1. ``exhaustive``: every colouring of the full n x n board, n = 3..``--max-exhaustive``,
   searched for a cycle of neutral flips (the only moves that can lead back to
   an earlier position, see ``experiments._flipway_neutral``) and for the
   longest streak of them.
2. ``reachable``: every position reachable from the start of each small variant,
   searched (exact position keys, no hashing) for a cycle of moves, i.e. a
   position that a game could reach twice.
3. ``random_positions``: on larger boards, positions of random games on the
   full-board setups and chain-free random colourings, each searched
   depth-first for the longest streak of neutral flips and for cycles among them.
4. ``start_streaks``: the longest neutral streak after Black's opening on the
   block setup, 6x6 to 10x10 (time-limited).
5. ``random_play``: uniformly random games: length, flips, neutral flips, the
   longest neutral streak and, under ``repetition=draw``, how many games a
   repetition ended.

    python -m experiments.flipway_repetition --seed 1
    python -m experiments.flipway_repetition --quick      # seconds, for a smoke run
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import pyspiel

import games  # noqa: F401  (registers flipway)
from analysis.study import git_commit
from experiments._flipway_neutral import neutral_flip_search

sys.setrecursionlimit(100_000)  # the streak search recurses once per move

BLACK, WHITE = 1, 2


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def exhaustive(max_n):
    rows = []
    for n in range(3, max_n + 1):
        t = time.time()
        cycle, longest, (example, to_move) = neutral_flip_search(n)
        rows.append(
            {
                "board_size": n,
                "states": 2 ** (n * n + 1),
                "cycle": cycle,
                "longest_neutral_streak": longest,
                "example_colours": example,
                "example_to_move": to_move,
                "seconds": round(time.time() - t, 2),
            }
        )
        log(f"exhaustive {n}x{n}: cycle={cycle} longest neutral streak={longest}")
    return rows


def reachable(spec, limit):
    """All positions reachable from the start of ``spec``; then a depth-first
    search for a cycle in the move graph among them."""
    game = pyspiel.load_game(spec)
    root = game.new_core()
    seen = {root.position_key(): root}
    frontier = [root]
    edges = {}
    while frontier:
        nxt = []
        for core in frontier:
            if core.terminal():
                edges[core.position_key()] = []
                continue
            out = []
            for a in core.legal_action_list():
                child = core.clone()
                child.apply_action(a)
                key = child.position_key()
                out.append(key)
                if key not in seen:
                    seen[key] = child
                    nxt.append(child)
            edges[core.position_key()] = out
            if len(seen) > limit:
                return {"spec": spec, "positions": len(seen), "complete": False, "cycle": None}
        frontier = nxt
    state = {}
    cycle = False
    for start in edges:
        if start in state:
            continue
        stack = [(start, iter(edges[start]))]
        state[start] = 1
        while stack and not cycle:
            key, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[key] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                cycle = True
            elif nxt not in state:
                state[nxt] = 1
                stack.append((nxt, iter(edges[nxt])))
        if cycle:
            break
    return {"spec": spec, "positions": len(seen), "complete": True, "cycle": cycle}


def neutral_children(core):
    pairs = core.same_colour_pairs()
    first_flip = core.board.num_sets
    out = []
    for a in core.legal_action_list():
        if a >= first_flip:
            child = core.clone()
            child.apply_action(a)
            if child.same_colour_pairs() == pairs and not child.terminal():
                out.append(child)
    return out


class _OutOfTime(Exception):
    pass


class _StreakSearch:
    """Depth-first longest streak of neutral flips from a position, with a
    memo of finished positions, a count of cycles (a position met again on
    the current path) and the deepest path seen (a real streak: the lower
    bound to report when time runs out); raises ``_OutOfTime`` at
    ``deadline``."""

    def __init__(self, deadline):
        self.deadline = deadline
        self.memo = {}
        self.cycles = 0
        self.deepest = 0

    def longest(self, core):
        return self._longest(core, set())

    def _longest(self, core, on_path):
        if time.time() > self.deadline:
            raise _OutOfTime
        key = core.position_key()
        if key in self.memo:
            return self.memo[key]
        if key in on_path:
            self.cycles += 1
            return 0
        on_path.add(key)
        self.deepest = max(self.deepest, len(on_path) - 1)
        value = 0
        for child in neutral_children(core):
            value = max(value, 1 + self._longest(child, on_path))
        on_path.discard(key)
        self.memo[key] = value
        return value


def random_positions(n, count, rng, seconds):
    """Longest neutral streak and cycles among neutral flips from ``count``
    positions of random games on the full-board setups (every position of a
    game, games until ``count`` positions) and from chain-free random
    colourings of the full board (the others are no game's position)."""
    starts = []
    specs = [f"flipway(board_size={n},setup={s})" for s in ("blocks", "checkered", "checkered_alt")]
    protos = [pyspiel.load_game(s).new_core() for s in specs]
    while len(starts) < count // 2:
        core = rng.choice(protos).clone()
        while not core.terminal() and len(starts) < count // 2:
            legal = core.legal_action_list()
            core.apply_action(legal[rng.randrange(len(legal))])
            if not core.terminal():
                starts.append(core.clone())
    proto = pyspiel.load_game(f"flipway(board_size={n})").new_core()
    colourings = 0
    for _ in range(50 * count):
        if colourings >= count - count // 2:
            break
        p = rng.random()
        core = proto.clone()
        try:
            core.load([BLACK if rng.random() < p else WHITE for _ in range(n * n)], rng.randrange(2))
        except ValueError:  # a chain already stands: not a game position
            continue
        starts.append(core)
        colourings += 1
    best, searched = 0, 0
    search = _StreakSearch(time.time() + seconds)

    # Interleave game positions and colourings so a time-out still samples both.
    half = len(starts) - colourings
    # the two ranges differ in length; the line below appends what zip leaves over
    order = [i for pair in zip(range(half), range(half, len(starts)), strict=False) for i in pair]
    order += list(range(len(order) // 2, half)) + list(range(half + len(order) // 2, len(starts)))
    try:
        for i in order:
            best = max(best, search.longest(starts[i]))
            searched += 1
            if len(search.memo) > 500_000:
                search.memo.clear()
    except _OutOfTime:
        pass
    return {
        "board_size": n,
        "game_positions": half,
        "colourings": colourings,
        "searched": searched,
        "complete": searched == len(starts),
        "longest_neutral_streak": best,
        "cycles": search.cycles,
    }


def start_streaks(spec, seconds):
    """Longest streak of neutral flips after any first move of ``spec`` (the
    block setup's meeting points make long streaks), depth-first with a memo
    and a cycle check, until done or out of time (then the deepest streak
    seen, a lower bound)."""
    root = pyspiel.load_game(spec).new_core()
    search = _StreakSearch(time.time() + seconds)

    best, complete = 0, True
    try:
        for a in root.legal_action_list():
            child = root.clone()
            child.apply_action(a)
            if not child.terminal():
                best = max(best, search.longest(child))
    except _OutOfTime:
        complete = False
    return {
        "spec": spec,
        "longest_neutral_streak": max(best, search.deepest),
        "complete": complete,
        "positions": len(search.memo),
        "cycles": search.cycles,
    }


def random_play(spec, games_, seed):
    game = pyspiel.load_game(spec)
    proto = game.new_core()
    turns, flips, neutral, streak, draws, winners = [], [], [], 0, 0, [0, 0]
    for i in range(games_):
        core = proto.clone()
        core.random_playout(seed * 1_000_003 + i)
        st = core.playout_stats()
        turns.append(st["turns"])
        flips.append(st["flips"])
        neutral.append(st["neutral_flips"])
        streak = max(streak, st["longest_neutral_streak"])
        if st["winner"] == 2:
            draws += 1
        else:
            winners[st["winner"]] += 1
    return {
        "spec": spec,
        "games": games_,
        "mean_turns": sum(turns) / games_,
        "max_turns": max(turns),
        "max_game_length": game.max_game_length(),
        "mean_flips": sum(flips) / games_,
        "max_flips": max(flips),
        "mean_neutral_flips": sum(neutral) / games_,
        "longest_neutral_streak": streak,
        "draws": draws,
        "black_wins": winners[0],
        "white_wins": winners[1],
    }


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--seed", type=int, default=1, help="seed of the random parts (default 1)")
    ap.add_argument(
        "--max-exhaustive",
        type=int,
        default=5,
        choices=(3, 4, 5),
        help="largest board for the exhaustive full-board search (5 needs ~200 MB, ~10 s)",
    )
    ap.add_argument(
        "--reachable-limit",
        type=int,
        default=3_000_000,
        help="give up a reachable-position search beyond this many positions "
        "(6x6 checkered needs 2.2 million, about 3 GB)",
    )
    ap.add_argument("--boards", type=int, default=200, help="start positions per size in part 3")
    ap.add_argument(
        "--seconds",
        type=float,
        default=120.0,
        help="time budget of part 3 per board size (the streak trees grow fast)",
    )
    ap.add_argument("--games", type=int, default=2000, help="random games per variant in part 4")
    ap.add_argument("--quick", action="store_true", help="tiny sizes of everything, for a smoke run")
    ap.add_argument("--out", type=Path, default=Path("results/flipway_repetition.json"))
    args = ap.parse_args(argv)
    if args.boards < 0 or args.games < 1 or args.reachable_limit < 1:
        ap.error("--boards must be >= 0, --games and --reachable-limit >= 1")
    if args.quick:
        args.max_exhaustive, args.boards, args.games, args.reachable_limit = 4, 50, 50, 20_000
        args.seconds = 5.0
    rng = random.Random(args.seed)
    report = {"seed": args.seed, "args": {k: str(v) for k, v in vars(args).items()}, "commit": git_commit()}

    report["exhaustive"] = exhaustive(args.max_exhaustive)

    specs = [
        f"flipway(board_size=3,setup={s},pie={p})"
        for s in ("empty", "checkered", "checkered_alt", "blocks")
        for p in ("false", "true")
    ]
    specs += [
        f"flipway(board_size=4,setup={s},pie={p})"
        for s in ("checkered", "checkered_alt", "blocks")
        for p in ("false", "true")
    ]
    specs += ["flipway(board_size=4)", "flipway(board_size=4,pie=true)"]
    specs += [
        f"flipway(board_size=5,setup={s},pie={p})"
        for s in ("checkered", "checkered_alt", "blocks")
        for p in ("false", "true")
    ]
    specs += [
        "flipway(board_size=6,setup=checkered)",
        "flipway(board_size=6,setup=checkered_alt)",
        "flipway(board_size=6,setup=blocks)",
        "flipway(board_size=6,setup=blocks,pie=true)",
        "flipway(board_size=7,setup=blocks)",
        "flipway(board_size=7,setup=blocks,pie=true)",
        "flipway(board_size=8,setup=blocks)",
        "flipway(board_size=8,setup=blocks,pie=true)",
    ]
    report["reachable"] = []
    for spec in specs:
        row = reachable(spec, args.reachable_limit)
        report["reachable"].append(row)
        log(
            f"reachable {spec}: {row['positions']} positions, complete={row['complete']}, "
            f"cycle={row['cycle']}"
        )

    report["random_positions"] = []
    for n in (6, 7, 8, 9, 11):
        row = random_positions(n, args.boards, rng, args.seconds)
        report["random_positions"].append(row)
        log(
            f"random positions {n}x{n}: {row['game_positions']} from games, {row['colourings']} "
            f"colourings, {row['searched']} searched to the end, longest neutral streak "
            f"{row['longest_neutral_streak']}, cycles {row['cycles']}"
        )

    report["start_streaks"] = []
    for n in (6, 7, 8, 9, 10):
        row = start_streaks(f"flipway(board_size={n},setup=blocks)", args.seconds)
        report["start_streaks"].append(row)
        log(
            f"start streaks {row['spec']}: longest neutral streak {row['longest_neutral_streak']}"
            f" ({'complete' if row['complete'] else 'out of time'}, {row['positions']} positions),"
            f" cycles {row['cycles']}"
        )

    report["random_play"] = []
    for spec in (
        "flipway(board_size=9)",
        "flipway(board_size=9,pie=true)",
        "flipway(board_size=9,setup=checkered)",
        "flipway(board_size=9,setup=checkered_alt)",
        "flipway(board_size=9,setup=blocks)",
        "flipway(board_size=19)",
        "flipway(board_size=19,setup=checkered)",
        "flipway(board_size=19,setup=blocks)",
        "flipway(board_size=9,setup=checkered,repetition=draw)",
        "flipway(board_size=19,setup=blocks,repetition=draw)",
    ):
        row = random_play(spec, args.games, args.seed)
        report["random_play"].append(row)
        log(
            f"random play {spec}: mean {row['mean_turns']:.1f} turns (max {row['max_turns']}, "
            f"bound {row['max_game_length']}), flips {row['mean_flips']:.1f} (max {row['max_flips']}), "
            f"neutral {row['mean_neutral_flips']:.2f}, longest neutral streak "
            f"{row['longest_neutral_streak']}, draws {row['draws']}"
        )

    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1))
    log(f"wrote {args.out}")


if __name__ == "__main__":
    main()

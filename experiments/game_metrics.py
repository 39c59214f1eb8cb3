"""Ludii's game-quality metrics of any game, measured from playouts.

    python -m experiments.game_metrics --game "y_game(board_size=11)" --agent random --games 2000
    python -m experiments.game_metrics --game tic_tac_toe --agent mcts:simulations=100 --games 200

Plays ``--games`` games of ``--game`` (any pyspiel game string, this toolkit's
games included) with every seat taken by ``--agent`` (an agent spec as the
tournaments take it: ``random``, ``mcts:simulations=300``, ``alphabeta:depth=3``,
...), records a trace of each game and prints the metrics of
``analysis.game_metrics`` (outcome, duration, complexity, board coverage,
repetition; with ``--eval-playouts`` state evaluation too, with
``--clarity-playouts`` the Clarity metrics) with 95% intervals where a metric
is a rate or a mean. Where the game is solved (docs/solved_records.jsonl) the
exact value, winning openings, positions and complete games follow
(``analysis.exact_counterparts``). The meaning and formula of each metric, and
the Ludii metric it matches, are in docs/metrics.md.

Game i plays from seeds derived from (``--seed``, i) alone, so a run is
reproducible and any game can be replayed. The traces are kept in
``--out``/traces.jsonl in chunks of ``--chunk`` games as they finish; an
interrupted run started again with the same settings plays only the missing
chunks. Output: config.json, traces.jsonl, metrics.csv, metrics.json.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
import time
from pathlib import Path

import numpy as np
import pyspiel

from agents import BotSpec
from analysis.exact_counterparts import ESTIMATE_OF, exact_counterparts, solved_record
from analysis.game_metrics import METRICS, Trace, all_metrics, trace_from_record, trace_to_record
from analysis.game_traces import DEFAULT_MAX_MOVES, record_trace, sample_chance
from analysis.study import non_negative_int, positive_int, prepare_out, say, slug

STUDY = "experiments.game_metrics"


def game_seeds(seed: int, index: int, players: int) -> tuple[int, list[int]]:
    """The chance seed and one bot seed per seat of game ``index`` (31-bit ints)."""
    words = np.random.SeedSequence([seed, index]).generate_state(players + 1)
    return int(words[0] >> 1), [int(w >> 1) for w in words[1:]]


def play_trace(
    game, spec: BotSpec, seed: int, index: int, max_moves: int, playouts: int = 0, clarity_playouts: int = 0
) -> Trace:
    """Play game ``index`` of the run with every seat taken by ``spec``; with ``playouts``,
    evaluate every position before a move from that many random games, with
    ``clarity_playouts`` every legal move there."""
    from agents.build import make_bot

    players = game.num_players()
    chance_seed, bot_seeds = game_seeds(seed, index, players)
    rng = np.random.default_rng(chance_seed)
    eval_rng = np.random.default_rng(np.random.SeedSequence([seed, index, 1]))

    def chance(state) -> int:
        return sample_chance(state, rng)

    if spec.kind == "random":
        rng_bot = np.random.default_rng(bot_seeds[0])

        def choose(state, legal):
            return chance(state) if legal is None else legal[rng_bot.integers(len(legal))]

    else:
        bots = [make_bot(spec, game, p, bot_seeds[p]) for p in range(players)]

        def choose(state, legal):
            if legal is None:
                return chance(state)
            player = state.current_player()
            action = bots[player].step(state)
            for p, bot in enumerate(bots):
                if p != player:
                    bot.inform_action(state, player, action)
            return action

    return record_trace(game, choose, max_moves, eval_rng, playouts, clarity_playouts)


def play_chunk(
    game_string: str,
    agent: str,
    seed: int,
    first: int,
    count: int,
    max_moves: int,
    playouts: int = 0,
    clarity_playouts: int = 0,
) -> dict:
    """Games ``first``..``first+count-1`` as one record of traces."""
    import games  # noqa: F401  (registers this toolkit's games in the worker)

    game = pyspiel.load_game(game_string)
    spec = BotSpec.parse(agent)
    traces = [
        trace_to_record(play_trace(game, spec, seed, i, max_moves, playouts, clarity_playouts))
        for i in range(first, first + count)
    ]
    return {"chunk": first, "count": count, "traces": traces}


def collect(args, out: Path, progress: bool) -> list[Trace]:
    """Every game's trace, played now or read back from ``out``."""
    from joblib import Parallel, delayed

    from records import RecordStore, SettingsMismatch

    chunks = [(f, min(args.chunk, args.games - f)) for f in range(0, args.games, args.chunk)]
    with RecordStore(out / "traces.jsonl", key="chunk") as store:
        try:
            done = store.resume({f: {"count": n} for f, n in chunks})
        except SettingsMismatch as err:  # a last chunk cut at another --games
            raise SystemExit(
                f"{err}; run with a --games that is a multiple of --chunk, or another --out"
            ) from None
        todo = [(f, n) for f, n in chunks if f not in done]
        if todo:
            played, started = args.games - sum(n for _, n in todo), time.monotonic()
            if progress:
                say(f"{args.game}: {args.games - played} games to play ({played} kept from an earlier run)")
            jobs = Parallel(n_jobs=args.jobs, return_as="generator_unordered")(
                delayed(play_chunk)(
                    args.game,
                    args.agent,
                    args.seed,
                    f,
                    n,
                    args.max_moves,
                    args.eval_playouts,
                    args.clarity_playouts,
                )
                for f, n in todo
            )
            for record in jobs:
                store.append(record)
                done[record["chunk"]] = record
                played += record["count"]
                if progress:
                    say(f"  {played}/{args.games} games, {time.monotonic() - started:.0f}s")
    return [trace_from_record(t) for f, _ in chunks for t in done[f]["traces"]]


def _fmt(x: float) -> str:
    if math.isnan(x):
        return "-"
    return f"{x:.4g}" if abs(x) < 1e5 else f"{x:.3e}"


def table(values: dict, group_of: dict) -> str:
    lines = [f"{'metric':<26}{'group':<12}{'value':>10}  95% interval"]
    for name, v in values.items():
        ci = "" if math.isnan(v.low) else f"[{_fmt(v.low)}, {_fmt(v.high)}]"
        lines.append(f"{name:<26}{group_of[name]:<12}{_fmt(v.value):>10}  {ci}")
    return "\n".join(lines)


#: Exact quantities that are counts, printed whole.
COUNTS = ("StateSpacePositions", "GameTreeLeaves")


def exact_table(exact: list, record: dict, values: dict) -> str:
    """The exact quantities of a solved game beside the playout estimates they answer."""
    lines = [
        f"Exact counterparts (solved: docs/solved_records.jsonl, commit {record.get('commit', '?')}):",
        f"{'metric':<26}{'exact':>14}  {'playout estimate':<28}what it is",
    ]
    for e in exact:
        estimate = ESTIMATE_OF.get(e.name)
        shown = f"{estimate} {_fmt(values[estimate].value)}" if estimate else "-"
        value = f"{e.value:,.0f}" if e.name in COUNTS else _fmt(e.value)
        lines.append(f"{e.name:<26}{value:>14}  {shown:<28}{e.text}")
    return "\n".join(lines)


def write_outputs(out: Path, config: dict, values: dict, group_of: dict, exact: list = ()) -> None:
    with open(out / "metrics.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["metric", "group", "value", "ci95_low", "ci95_high"])
        for name, v in values.items():
            w.writerow([name, group_of[name], v.value, v.low, v.high])
        for e in exact:  # exact where e.exact, else a lower bound: the value is both bounds
            w.writerow([f"{e.name}Exact", "exact", e.value, e.value if e.exact else math.nan, e.value])

    def clean(x):
        return None if isinstance(x, float) and math.isnan(x) else x

    doc = {
        **config,
        "metrics": {n: {k: clean(x) for k, x in v.as_dict().items()} for n, v in values.items()},
        "exact": {e.name: e.as_dict() for e in exact},
    }
    (out / "metrics.json").write_text(json.dumps(doc, indent=2) + "\n")


def measure(game_string: str, agent: str, games: int, seed: int = 0, **options) -> dict:
    """The metrics of ``games`` games (no output written); for tests and other studies."""
    game = pyspiel.load_game(game_string)
    spec = BotSpec.parse(agent)
    max_moves = options.get("max_moves", DEFAULT_MAX_MOVES)
    playouts = options.get("eval_playouts", 0)
    clarity = options.get("clarity_playouts", 0)
    traces = [play_trace(game, spec, seed, i, max_moves, playouts, clarity) for i in range(games)]
    return all_metrics(traces, game.num_players())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog=f"python -m {STUDY}", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, help="a pyspiel game string, e.g. 'y_game(board_size=11)'")
    parser.add_argument(
        "--agent", default="random", help="agent spec taking every seat: random, mcts:simulations=300, ..."
    )
    parser.add_argument("--games", type=positive_int, default=1000, help="games to play (default 1000)")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="the run's seed (default 0)")
    parser.add_argument(
        "--max-moves",
        type=positive_int,
        default=DEFAULT_MAX_MOVES,
        help="moves after which a game counts as a timeout (default %(default)s, as Ludii)",
    )
    parser.add_argument(
        "--eval-playouts",
        type=non_negative_int,
        default=0,
        help="evaluate every position from this many random games, for the state-evaluation metrics "
        "(LeadChange, Stability, Decisiveness, Drama); 0 leaves them out (default)",
    )
    parser.add_argument(
        "--clarity-playouts",
        type=non_negative_int,
        default=0,
        help="evaluate every legal move of every position from this many random games, for the "
        "Clarity metrics (costs a branching factor's times more); 0 leaves them out (default)",
    )
    parser.add_argument("--chunk", type=positive_int, default=50, help="games per stored record (default 50)")
    parser.add_argument(
        "--out",
        help="output directory, resumed if it exists (default results/game_metrics/<game>__<agent>__seed<S>)",
    )
    parser.add_argument("--jobs", type=positive_int, default=2, help="worker processes (default 2)")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)

    import games  # noqa: F401  (registers this toolkit's games)

    try:
        game = pyspiel.load_game(args.game)
        spec = BotSpec.parse(args.agent)
    except (pyspiel.SpielError, ValueError, RuntimeError) as err:
        parser.error(str(err))
    out = Path(args.out or f"results/game_metrics/{slug(args.game)}__{slug(args.agent)}__seed{args.seed}")
    config = {
        "game": args.game,
        "agent": str(spec),
        "games": args.games,
        "seed": args.seed,
        "max_moves": args.max_moves,
        "chunk": args.chunk,
        "eval_playouts": args.eval_playouts,
        "clarity_playouts": args.clarity_playouts,
    }
    prepare_out(
        out,
        STUDY,
        config,
        resume_keys=("game", "agent", "seed", "max_moves", "chunk", "eval_playouts", "clarity_playouts"),
    )
    started = time.monotonic()
    traces = collect(args, out, progress=not args.no_progress)
    values = all_metrics(traces, game.num_players())
    group_of = {name: group for name, group, _ in METRICS}
    record = solved_record(args.game)
    exact = exact_counterparts(args.game, record) if record else []
    write_outputs(out, config, values, group_of, exact)
    print(f"{args.game}: {args.games} games, agent {args.agent}, seed {args.seed}")
    print(table(values, group_of))
    if exact:
        print(exact_table(exact, record, values))
    print(f"written to {out} ({time.monotonic() - started:.1f}s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

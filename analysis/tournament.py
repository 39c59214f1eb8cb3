"""Tournaments between OpenSpiel bots on any registered game, resumable and parallel.

Why bots are described by ``agents.BotSpec`` and not passed as objects: a bot
wraps C++ state that cannot be pickled, and a worker process (joblib's loky, or
a Dask worker on another machine) must build its own. A spec is a kind plus
options, checked against the kind's schema when it is made (so a typo stops the
run before its first game); the worker builds the bot with ``agents.make_bot``,
resolving a kind of your own from its ``"package.module:function"`` name.

Why every game has its own derived seed: a game's seed depends only on the
tournament seed, the game string, the two bot labels and the game's index, so a
game is the same game whichever worker plays it, in whatever order, on
whichever backend, and whether or not the run was interrupted and resumed.
Adding a bot to a tournament leaves the seeds of the existing pairings alone.

Why results are appended one JSON line at a time in the parent process: an
interrupted run loses at most the games that were in flight, and the next run
skips every key already in the file (a torn last line is cut off, and those
games are replayed with the same seeds). Only the parent writes, so the file
needs no locking whichever backend runs the games.

Seats alternate within a pairing: even game indices put the first bot of the
pair (labels sorted) in seat 0, which moves first.
"""
from __future__ import annotations

import argparse
import dataclasses
import hashlib
import importlib
import json
import math
import os
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

import pyspiel

# Bots come from the catalogue of agents: a ``BotSpec`` is validated when made,
# and ``build_bot(spec, game, player, seed)`` is ``agents.make_bot``.
from agents import BotSpec, make_bot as build_bot

# --------------------------------------------------------------------------- games

_GAMES: dict[str, pyspiel.Game] = {}


def load_game(game_string: str, imports: Sequence[str] = ()) -> pyspiel.Game:
    """Load (and cache per process) a game, registering this project's games first."""
    import games  # noqa: F401  (registers y_game, defector_y, ... with OpenSpiel)
    for module in imports:
        importlib.import_module(module)
    game = _GAMES.get(game_string)
    if game is None:
        game = _GAMES[game_string] = pyspiel.load_game(game_string)
    return game


def derive_seed(*parts: Any) -> int:
    """A 31-bit seed from any JSON-able parts; stable across processes and machines."""
    digest = hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).digest()
    return int.from_bytes(digest[:8], "little") % (2 ** 31 - 1)


def play_game(game, bots: Sequence[pyspiel.Bot], seed: int) -> dict:
    """Play one game between ``bots`` (by seat); sample chance outcomes from ``seed``.

    Bots are told each other's actions as ``pyspiel.evaluate_bots`` does. A raw
    ``pyspiel.MCTSBot`` is stepped through ``step_with_policy``, because its
    ``step`` crashes on Python-registered games (docs/DESIGN.md). Simultaneous-move games must be converted with
    ``pyspiel.convert_to_turn_based`` first.
    """
    if game.get_type().dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise ValueError("tournaments need sequential games; wrap simultaneous games with "
                         "pyspiel.convert_to_turn_based")
    rng = random.Random(seed)
    state = game.new_initial_state()
    for bot in bots:
        bot.restart_at(state)
    actions: list[int] = []
    seconds = [0.0] * len(bots)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            action = rng.choices(outcomes, probabilities)[0]
            player = pyspiel.PlayerId.CHANCE
        else:
            player = state.current_player()
            bot = bots[player]
            start = time.perf_counter()
            if isinstance(bot, pyspiel.MCTSBot):
                action = bot.step_with_policy(state)[1]
            else:
                action = bot.step(state)
            seconds[player] += time.perf_counter() - start
        for other, bot in enumerate(bots):
            if other != player:
                bot.inform_action(state, player, action)
        state.apply_action(action)
        actions.append(int(action))
    return {"returns": [float(r) for r in state.returns()], "length": len(actions),
            "actions": actions, "seconds": [round(s, 6) for s in seconds]}


# --------------------------------------------------------------------------- tasks


@dataclasses.dataclass(frozen=True)
class GameTask:
    """One game to play: everything a worker needs, and nothing it cannot pickle."""

    key: str
    game: str
    seats: tuple[BotSpec, ...]
    pair: tuple[str, str]
    index: int
    seed: int
    imports: tuple[str, ...] = ()


def make_tasks(game: str, specs: Sequence[BotSpec], games_per_pair: int, seed: int,
               pairs: str | Sequence[tuple[int, int]] = "round_robin",
               imports: Sequence[str] = ()) -> list[GameTask]:
    """The games of a tournament on ``game``.

    ``pairs``: ``"round_robin"`` (every two distinct bots), ``"self"`` (each bot
    against itself: first-player statistics under self-play), ``"first_vs_rest"``
    (``specs[0]`` against each other bot: a reference opponent), or explicit index
    pairs. Seats alternate with the game index; in self-play each game is just
    seeded differently.
    """
    if games_per_pair < 1:
        raise ValueError(f"games_per_pair must be at least 1, got {games_per_pair}")
    labels = [spec.label for spec in specs]
    if len(set(labels)) != len(labels):
        raise ValueError(f"bot labels must be distinct, got {labels}; give name=... to tell them apart")
    n = len(specs)
    if pairs == "round_robin":
        index_pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    elif pairs == "self":
        index_pairs = [(i, i) for i in range(n)]
    elif pairs == "first_vs_rest":
        index_pairs = [(0, j) for j in range(1, n)]
    elif isinstance(pairs, str):
        raise ValueError(f"pairs must be round_robin, self, first_vs_rest or a list of index pairs, got {pairs!r}")
    else:
        index_pairs = [tuple(p) for p in pairs]
    if not index_pairs:
        raise ValueError("the tournament has no pairings (a round robin needs at least two bots)")
    tasks = []
    for i, j in index_pairs:
        a, b = sorted((specs[i], specs[j]), key=lambda s: s.label)
        for g in range(games_per_pair):
            seats = (a, b) if g % 2 == 0 else (b, a)
            key = f"{game}|{a.label}|{b.label}|{g}"
            tasks.append(GameTask(key, game, seats, (a.label, b.label), g,
                                  derive_seed(seed, game, a.label, b.label, g), tuple(imports)))
    return tasks


def play_task(task: GameTask) -> dict:
    game = load_game(task.game, task.imports)
    bots = [build_bot(spec, game, seat, derive_seed(task.seed, "seat", seat))
            for seat, spec in enumerate(task.seats)]
    start = time.perf_counter()
    result = play_game(game, bots, derive_seed(task.seed, "chance"))
    record = {"key": task.key, "game": task.game, "players": [s.label for s in task.seats],
              "pair": list(task.pair), "index": task.index, "seed": task.seed}
    record.update(result)
    record["winner"] = _winner(result["returns"])
    record["wall_seconds"] = round(time.perf_counter() - start, 6)
    return record


def play_chunk(tasks: Sequence[GameTask]) -> list[dict]:
    """The unit of work shipped to a worker: a few games, to amortise the shipping."""
    return [play_task(task) for task in tasks]


def _winner(returns: Sequence[float]) -> int | None:
    best = max(returns)
    winners = [i for i, r in enumerate(returns) if r == best]
    return winners[0] if len(winners) == 1 else None


#: Fields that differ between two runs of the same game (timings); everything else must match.
TIMING_FIELDS = ("seconds", "wall_seconds")


def deterministic_view(record: Mapping) -> dict:
    return {k: v for k, v in record.items() if k not in TIMING_FIELDS}


# --------------------------------------------------------------------------- records file


def load_records(path: str | os.PathLike, repair: bool = True) -> list[dict]:
    """Read a JSON-lines record file; with ``repair``, cut a torn last line off the file.

    A torn line is what a run killed mid-write leaves; its game is simply replayed.
    """
    path = Path(path)
    if not path.exists():
        return []
    data = path.read_bytes()
    good_end = data.rfind(b"\n") + 1
    if good_end < len(data) and repair:
        with open(path, "r+b") as handle:
            handle.truncate(good_end)
    records = []
    for number, line in enumerate(data[:good_end].splitlines(), 1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}:{number} is not valid JSON ({error}); the file is damaged "
                             f"beyond a torn last line") from None
    return records


class RecordWriter:
    """Appends records as JSON lines, flushing each so a kill loses at most one torn line."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._handle = open(self.path, "a", encoding="utf-8")

    def write(self, record: Mapping) -> None:
        self._handle.write(json.dumps(record, sort_keys=True) + "\n")
        self._handle.flush()

    def close(self) -> None:
        self._handle.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# --------------------------------------------------------------------------- running


def _chunks(tasks: Sequence[GameTask], chunk_size: int) -> list[list[GameTask]]:
    """Deal tasks into chunks in a fixed shuffled order, so costly pairings spread out."""
    order = list(tasks)
    random.Random(len(order)).shuffle(order)
    n_chunks = max(1, math.ceil(len(order) / chunk_size))
    return [order[i::n_chunks] for i in range(n_chunks)]


def _auto_chunk(n_tasks: int, workers: int) -> int:
    # About eight chunks per worker balances the load; 32 games bounds what an interruption replays.
    return max(1, min(32, n_tasks // (8 * max(1, workers))))


def run_tasks(tasks: Sequence[GameTask], out: str | os.PathLike, *, backend: str = "joblib",
              n_jobs: int = 1, scheduler: str | None = None, client: Any = None,
              chunk_size: int | None = None, progress: bool = True, desc: str = "games",
              on_record: Callable[[dict], None] | None = None) -> list[dict]:
    """Play every task whose key is not yet in ``out``; return the records of all ``tasks``.

    ``backend="joblib"`` uses ``n_jobs`` local processes (1 runs in this process).
    ``backend="dask"`` uses ``client`` if given, else connects to ``scheduler``,
    else starts a ``LocalCluster`` of ``n_jobs`` single-threaded worker processes.
    """
    out = Path(out)
    existing = load_records(out)
    by_key = {r["key"]: r for r in existing}
    for task in tasks:
        old = by_key.get(task.key)
        if old is not None and old.get("seed") != task.seed:
            raise ValueError(f"{out} already holds game {task.key!r} with seed {old.get('seed')}, "
                             f"not {task.seed}: it belongs to a run with another seed; choose another output")
    todo = [t for t in tasks if t.key not in by_key]
    if len(set(t.key for t in tasks)) != len(tasks):
        raise ValueError("duplicate game keys among the tasks")
    if todo:
        # With a remote scheduler n_jobs may understate the cluster; pass chunk_size there.
        size = chunk_size or _auto_chunk(len(todo), n_jobs)
        chunks = _chunks(todo, size)
        bar = _progress(len(tasks), len(tasks) - len(todo), desc, progress)
        with RecordWriter(out) as writer:
            try:
                for records in _execute(chunks, backend, n_jobs, scheduler, client):
                    for record in records:
                        writer.write(record)
                        by_key[record["key"]] = record
                        if on_record is not None:
                            on_record(record)
                    bar.update(len(records))
            finally:
                bar.close()
    return [by_key[t.key] for t in tasks]


def _execute(chunks, backend, n_jobs, scheduler, client) -> Iterator[list[dict]]:
    if backend == "joblib":
        if n_jobs == 1:
            for chunk in chunks:
                yield play_chunk(chunk)
            return
        from joblib import Parallel, delayed
        yield from Parallel(n_jobs=n_jobs, return_as="generator_unordered")(
            delayed(play_chunk)(chunk) for chunk in chunks)
    elif backend == "dask":
        yield from _execute_dask(chunks, n_jobs, scheduler, client)
    else:
        raise ValueError(f"backend must be 'joblib' or 'dask', got {backend!r}")


def _execute_dask(chunks, n_jobs, scheduler, client) -> Iterator[list[dict]]:
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError as error:
        raise RuntimeError('the dask backend needs: pip install "dask[distributed]"') from error
    owned = []
    if client is None:
        if scheduler:
            client = Client(scheduler)
        else:
            cluster = LocalCluster(n_workers=max(1, n_jobs), threads_per_worker=1, processes=True,
                                   dashboard_address=None)
            owned.append(cluster)
            client = Client(cluster)
        owned.insert(0, client)
    try:
        futures = client.map(play_chunk, chunks, pure=False)
        try:
            for future in as_completed(futures):
                yield future.result()
        finally:
            client.cancel(futures)
    finally:
        for thing in owned:
            thing.close()


class _NoBar:
    def update(self, n):
        pass

    def close(self):
        pass


def _progress(total: int, initial: int, desc: str, enabled: bool):
    if not enabled:
        return _NoBar()
    from tqdm import tqdm
    return tqdm(total=total, initial=initial, desc=desc, unit="game", file=sys.stderr, smoothing=0.05)


# --------------------------------------------------------------------------- summaries


def summary_tables(records: Sequence[Mapping]) -> str:
    """Leaderboard, pairwise win rates and first-player advantage, as markdown."""
    from analysis.ratings import fit_ratings, leaderboard_table
    from analysis.stats import first_player_advantage_from_records, pairwise_win_rates

    lines = []
    rated = [r for r in records if r["players"][0] != r["players"][1]]
    if rated:
        names = {n for r in rated for n in r["players"]}
        if "random" in names:
            lines.append(leaderboard_table(fit_ratings(rated)))
        else:
            lines.append("(no leaderboard: uniform Random, the rating anchor, did not play)\n")
        lines.append("| player | opponent | win rate [95% CI] |")
        lines.append("|---|---|---|")
        for (me, other), rate in sorted(pairwise_win_rates(rated).items()):
            lines.append(f"| {me} | {other} | {rate} |")
        lines.append("")
    lines.append(f"All games: {first_player_advantage_from_records(records)}.")
    for label in sorted({r["players"][0] for r in records if r["players"][0] == r["players"][1]}):
        own = [r for r in records if r["players"] == [label, label]]
        lines.append(f"Self-play of {label}: {first_player_advantage_from_records(own)}.")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m analysis.tournament",
        description="Play a tournament between OpenSpiel bots on a registered game, appending one JSON "
                    "line per game to --out; rerunning the same command resumes it.",
        epilog="Bot specs: KIND or KIND:key=value,...  Kinds: random; mcts (our UCT: simulations, uct_c, solve, "
               "max_time); openspiel_mcts (simulations, uct_c, rollouts, solve); alphabeta (depth, time_limit); "
               "python -m agents lists every kind and option; or package.module:function[:key=value,...]. Example: --bot random --bot openspiel_mcts:simulations=100")
    parser.add_argument("--game", required=True, help="OpenSpiel game string, e.g. 'y_game(board_size=5)'")
    parser.add_argument("--bot", action="append", required=True, help="a bot spec (repeat)")
    parser.add_argument("--games-per-pair", type=int, default=10, help="games per pairing (default 10)")
    parser.add_argument("--pairs", default="round_robin", choices=["round_robin", "self", "first_vs_rest"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", required=True, help="records file (JSON lines); resumed if it exists")
    parser.add_argument("--backend", default="joblib", choices=["joblib", "dask"])
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (joblib, or dask LocalCluster)")
    parser.add_argument("--scheduler", help="Dask scheduler address (tcp://host:8786); default: a LocalCluster")
    parser.add_argument("--chunk", type=int, help="games per work unit (default: automatic)")
    parser.add_argument("--import", dest="imports", action="append", default=[],
                        help="extra module to import in workers before loading the game (repeat)")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    try:
        specs = [BotSpec.parse(text) for text in args.bot]
        load_game(args.game, args.imports)
        tasks = make_tasks(args.game, specs, args.games_per_pair, args.seed, args.pairs, args.imports)
    except (ValueError, ImportError, pyspiel.SpielError) as error:
        parser.error(str(error))
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.scheduler and args.backend != "dask":
        parser.error("--scheduler needs --backend dask")
    before = len(load_records(args.out)) if Path(args.out).exists() else 0
    start = time.perf_counter()
    records = run_tasks(tasks, args.out, backend=args.backend, n_jobs=args.jobs, scheduler=args.scheduler,
                        chunk_size=args.chunk, progress=not args.no_progress)
    elapsed = time.perf_counter() - start
    played = len(load_records(args.out)) - before
    print(f"{played} new games in {elapsed:.2f} s ({played / elapsed if elapsed > 0 else 0:.1f} games/s) "
          f"with backend={args.backend} jobs={args.jobs}; {len(records)} games in this tournament.")
    print(summary_tables(records))
    return 0


if __name__ == "__main__":
    # Run the imported module's main, so specs and tasks are instances of
    # analysis.tournament classes that workers unpickle by reference, not __main__ ones.
    from analysis.tournament import main as _main
    sys.exit(_main())

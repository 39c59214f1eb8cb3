"""Tournaments between OpenSpiel bots on any registered game, resumable and parallel.

Why bots are described by ``agents.BotSpec`` and not passed as objects: a bot
wraps C++ state that cannot be pickled, and a worker process (joblib's loky, or
a Dask worker on another machine) must build its own. A spec is a kind plus
options, checked against the kind's schema when it is made (so a typo stops the
run before its first game); the worker builds the bot with ``agents.make_bot``,
resolving a kind of your own from its ``"package.module:function"`` name.

Why every game has its own derived seed: a game's seed depends only on the
tournament seed, the game string, the labels of the bots at the table and the
game's index, so a game is the same game whichever worker plays it, in whatever
order, on whichever backend, and whether or not the run was interrupted and
resumed.
Adding a bot to a tournament leaves the seeds of the existing pairings alone.

Why results go through one record store (records/), appended one record at a
time in the parent process: an interrupted run loses at most the games that were
in flight, and the next run skips every key already stored (a torn last line is
cut off, and those games are replayed with the same seeds). The store is locked
for the whole run, so a second run into the same output is refused instead of
playing every game again. Each record carries its seed, every seat's full bot
settings and the game's fingerprint (a ``ttt`` rule set's content), and a resume
whose tasks want other ones is refused: a label such as ``name=strong`` cannot
hide two different bots. Only the parent writes, whichever backend plays.

Seats: a table of bots plays every seat permutation in turn (see ``make_tasks``);
in two-player games that is alternation: even game indices put the first bot of
the pair (labels sorted) in seat 0, which moves first.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import itertools
import json
import math
import os
import random
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import pyspiel

# Bots come from the catalogue of agents: a ``BotSpec`` is validated when made,
# and ``build_bot(spec, game, player, seed)`` is ``agents.make_bot``.
from agents import BotSpec
from agents import make_bot as build_bot
from analysis.stats import returns_to_winner
from analysis.study import non_negative_int, positive_int
from games.loading import is_simultaneous, load_game, playable_game_string
from records import RecordStore, RecordStoreError, read_records

# --------------------------------------------------------------------------- games

#: Kinds that search only what their seat knows, or read nothing: they play
#: sequential games with hidden information (cloaking, dealt pieces, poker).
HIDDEN_INFORMATION_KINDS = ("random", "ismcts", "cfr")
#: Kinds that plan a simultaneous round without reading the others' plans (the
#: web app keeps the plans apart until the round resolves; SM-MCTS needs the
#: round's start, which tournaments, playing rounds turn by turn, do not give it).
SIMULTANEOUS_KINDS = ("random", "ismcts", "sm_mcts", "cfr")


def kind_may_play(kind: str, game: pyspiel.Game) -> bool:
    """Whether a bot of ``kind`` may play ``game`` by what its search reads: the
    one rule that tournaments (``check_bots``) and the web app's seat lists both
    follow. Kinds are allowed by list, never denied by list: a simultaneous game
    in its simultaneous form takes ``SIMULTANEOUS_KINDS``; a game with hidden
    information (a simultaneous game played turn by turn among them: its state
    holds the round's earlier plans) takes ``HIDDEN_INFORMATION_KINDS``; a
    sequential game with perfect information takes every kind. A kind on no list
    (UCT, alpha-beta, OpenSpiel's MCTS, a newly registered kind or a
    ``package.module:function``) may read the whole state, so it plays only
    where the whole state is what the mover knows."""
    if is_simultaneous(game):
        return kind in SIMULTANEOUS_KINDS
    if game.get_type().information != pyspiel.GameType.Information.PERFECT_INFORMATION:
        return kind in HIDDEN_INFORMATION_KINDS
    return True


def search_kind(game: pyspiel.Game) -> str:
    """The MCTS-family kind that may play ``game`` (a game as the tournament plays it):
    ``mcts`` (UCT) for sequential perfect-information games, ``ismcts`` for
    everything with hidden information. A wrapped simultaneous game counts as
    hidden: while a round is open its state holds the plans made earlier in the
    round, which a UCT reading the state would read. SM-MCTS (``sm_mcts``)
    searches a simultaneous round from the position at its start and needs the
    simultaneous form, which tournaments do not play (``playable_game_string``)."""
    if (
        game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
        and not is_simultaneous(game)
    ):
        return "mcts"
    return "ismcts"


def check_bots(game_string: str, specs: Sequence[BotSpec], imports: Sequence[str] = ()) -> None:
    """Refuse, before the first game, a bot that cannot play ``game_string`` (the
    played form): a kind that ``kind_may_play`` does not allow (the message names
    the kind to use instead: ``search_kind``), or any bot whose builder
    refuses the game (a CFR policy solved for another game, say)."""
    game = load_game(game_string, imports)
    wanted = search_kind(game)
    turn_based_rounds = game.get_type().short_name == "turn_based_simultaneous_game"
    for spec in specs:
        if spec.kind == "sm_mcts" and turn_based_rounds:
            raise ValueError(
                f"bot {spec.label!r}: sm_mcts needs a round's start position, but the "
                f"tournament plays simultaneous games turn by turn ({game_string}); "
                f"use {wanted}"
            )
        if not kind_may_play(spec.kind, game):
            why = (
                "its simultaneous rounds are played turn by turn, and the state holds the "
                "round's earlier plans"
                if turn_based_rounds
                else "it has hidden information"
            )
            raise ValueError(
                f"bot {spec.label!r}: {spec.kind} is not a kind known to search only what its "
                f"seat knows, and reading the whole state is unfair on {game_string} ({why}); "
                f"use the information-set search {wanted} (e.g. --bot {wanted}:simulations=100)"
            )
        try:
            build_bot(spec, game, 0, 0)
        except (ValueError, pyspiel.SpielError) as error:
            raise ValueError(f"bot {spec.label!r} cannot play {game_string}: {error}") from None


def derive_seed(*parts: Any) -> int:
    """A 31-bit seed from any JSON-able parts; stable across processes and machines."""
    digest = hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).digest()
    return int.from_bytes(digest[:8], "little") % (2**31 - 1)


def play_game(game, bots: Sequence[pyspiel.Bot], seed: int) -> dict:
    """Play one game between ``bots`` (by seat); sample chance outcomes from ``seed``.

    Bots are told each other's actions as ``pyspiel.evaluate_bots`` does. A raw
    ``pyspiel.MCTSBot`` is stepped through ``step_with_policy``, because its
    ``step`` crashes on Python-registered games (docs/DESIGN.md). A simultaneous
    game is played in its turn-based form (``playable_game_string``, which
    ``make_tasks`` applies).
    """
    if game.get_type().dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise ValueError(
            "play_game needs a sequential game; make_tasks wraps a simultaneous game "
            "for play (playable_game_string)"
        )
    rng = random.Random(seed)
    state = game.new_initial_state()
    for bot in bots:
        bot.restart_at(state)
    actions: list[int] = []
    seconds = [0.0] * len(bots)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
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
    return {
        "returns": [float(r) for r in state.returns()],
        "length": len(actions),
        "actions": actions,
        "seconds": [round(s, 6) for s in seconds],
    }


# --------------------------------------------------------------------------- tasks


def game_fingerprint(game_string: str, imports: Sequence[str] = ()) -> str | None:
    """What decides a game beyond its string, or None when the string says it all.

    ``ttt(rules=PATH)`` names a file whose content can change between two runs;
    its fingerprint is the rule set's canonical-form fingerprint, read from the
    file now (not from the process cache of loaded rule sets).
    """
    game = load_game(game_string, imports)
    if game.get_type().short_name != "ttt":
        return None
    from games.ttt import fingerprint

    return fingerprint(game.get_parameters()["rules"])


@dataclasses.dataclass(frozen=True)
class GameTask:
    """One game to play: everything a worker needs, and nothing it cannot pickle.

    ``pair`` is the sorted labels of the bots at the table (a pair in two-player
    games, the name the records keep); ``seats`` is who sits where in this game.
    """

    key: str
    game: str
    seats: tuple[BotSpec, ...]
    pair: tuple[str, ...]
    index: int
    seed: int
    imports: tuple[str, ...] = ()
    game_fingerprint: str | None = None

    def settings(self) -> dict:
        """What a stored record of this key must match to be resumed (records.RecordStore.resume)."""
        return {
            "seed": self.seed,
            "bots": [spec.to_json() for spec in self.seats],
            "game_fingerprint": self.game_fingerprint,
        }


def seatings(table: Sequence[BotSpec], num_players: int) -> list[tuple[BotSpec, ...]]:
    """Every way to seat the bots of ``table`` so that each takes at least one seat,
    in lexicographic order of the table: with as many bots as seats, every
    permutation; with fewer, bots fill several seats. Over a whole round each bot
    holds each seat equally often (the set is symmetric in the bots)."""
    distinct = list(dict.fromkeys(table))
    if len(distinct) > num_players:
        raise ValueError(f"a table of {len(distinct)} bots does not fit a {num_players}-player game")
    return [
        tuple(distinct[i] for i in seats)
        for seats in itertools.product(range(len(distinct)), repeat=num_players)
        if len(set(seats)) == len(distinct)
    ]


def _tables(pairs, n_specs: int, num_players: int) -> list[tuple[int, ...]]:
    if pairs == "round_robin":
        if n_specs > num_players:
            return list(itertools.combinations(range(n_specs), num_players))
        return [tuple(range(n_specs))] if n_specs >= 2 else []
    if pairs == "self":
        return [(i,) * num_players for i in range(n_specs)]
    if pairs == "first_vs_rest":
        return [(0, j) for j in range(1, n_specs)]
    if isinstance(pairs, str):
        raise ValueError(
            f"pairs must be round_robin, self, first_vs_rest or a list of index tuples, got {pairs!r}"
        )
    tables = [tuple(p) for p in pairs]
    for table in tables:
        if not table or any(not isinstance(i, int) or not 0 <= i < n_specs for i in table):
            raise ValueError(f"table {table} must list bot indices in 0..{n_specs - 1}")
    return tables


def make_tasks(
    game: str,
    specs: Sequence[BotSpec],
    games_per_pair: int,
    seed: int,
    pairs: str | Sequence[Sequence[int]] = "round_robin",
    imports: Sequence[str] = (),
) -> list[GameTask]:
    """The games of a tournament on ``game``, for any number of players.

    ``pairs`` chooses the tables: ``"round_robin"`` (every two distinct bots in a
    two-player game; every group of as many bots as seats in an n-player game, or
    all bots together when there are fewer bots than seats), ``"self"`` (each bot
    in every seat: first-player statistics under self-play), ``"first_vs_rest"``
    (``specs[0]`` with each other bot: a reference opponent), or explicit tuples
    of bot indices. Each table plays ``games_per_pair`` games cycling through its
    ``seatings``: in two-player games seats alternate with the game index (even
    games put the first label in seat 0, which moves first), exactly as keys,
    seeds and records always were; with more players the count is rounded up to
    whole rounds of seatings, so every seat permutation is played equally often.

    A simultaneous ``game`` is played in its turn-based form, which the tasks
    name (``playable_game_string``); every bot is checked against the played
    game first (``check_bots``), so a UCT on a hidden-information game is
    refused with the kind to use before any game is played.
    """
    if games_per_pair < 1:
        raise ValueError(f"games_per_pair must be at least 1, got {games_per_pair}")
    labels = [spec.label for spec in specs]
    if len(set(labels)) != len(labels):
        raise ValueError(f"bot labels must be distinct, got {labels}; give name=... to tell them apart")
    game = playable_game_string(game, imports)
    num_players = load_game(game, imports).num_players()
    tables = _tables(pairs, len(specs), num_players)
    if not tables:
        raise ValueError("the tournament has no pairings (a round robin needs at least two bots)")
    check_bots(game, [specs[i] for i in sorted({i for t in tables for i in t})], imports)
    fingerprint = game_fingerprint(game, imports)
    tasks = []
    for table in tables:
        members = tuple(sorted((specs[i] for i in table), key=lambda s: s.label))
        names = tuple(spec.label for spec in members)
        rounds = seatings(members, num_players)
        count = games_per_pair if num_players == 2 else -(-games_per_pair // len(rounds)) * len(rounds)
        for g in range(count):
            key = "|".join((game, *names, str(g)))
            tasks.append(
                GameTask(
                    key,
                    game,
                    rounds[g % len(rounds)],
                    names,
                    g,
                    derive_seed(seed, game, *names, g),
                    tuple(imports),
                    fingerprint,
                )
            )
    return tasks


def play_task(task: GameTask) -> dict:
    game = load_game(task.game, task.imports)
    bots = [
        build_bot(spec, game, seat, derive_seed(task.seed, "seat", seat))
        for seat, spec in enumerate(task.seats)
    ]
    start = time.perf_counter()
    result = play_game(game, bots, derive_seed(task.seed, "chance"))
    record = {
        "key": task.key,
        "game": task.game,
        "players": [s.label for s in task.seats],
        "pair": list(task.pair),
        "index": task.index,
    }
    record.update(task.settings())
    record.update(result)
    record["winner"] = returns_to_winner(result["returns"])
    record["wall_seconds"] = round(time.perf_counter() - start, 6)
    return record


def play_chunk(tasks: Sequence[GameTask]) -> list[dict]:
    """The unit of work shipped to a worker: a few games, to amortise the shipping."""
    return [play_task(task) for task in tasks]


_WATCHED_PARENT: list[int] = []


def _play_chunk_in_worker(tasks: Sequence[GameTask]) -> list[dict]:
    """``play_chunk`` in a joblib worker process, which first makes sure it
    ends with the process that started it: killed with SIGKILL, a tournament
    left its workers playing on (loky's workers outlive their parent). Linux
    kills the worker itself (PR_SET_PDEATHSIG: a bot's search may hold the
    interpreter for minutes); elsewhere a thread looks every second."""
    if not _WATCHED_PARENT:
        parent = os.getppid()
        _WATCHED_PARENT.append(parent)
        try:
            import ctypes
            import signal

            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass

        def watch():
            while os.getppid() == parent:
                time.sleep(1.0)
            os._exit(1)

        threading.Thread(target=watch, name="parent-watch", daemon=True).start()
        if os.getppid() != parent:  # the parent died before the watch began
            os._exit(1)
    return play_chunk(tasks)


#: Fields that differ between two runs of the same game (timings); everything else must match.
TIMING_FIELDS = ("seconds", "wall_seconds")


def deterministic_view(record: Mapping) -> dict:
    return {k: v for k, v in record.items() if k not in TIMING_FIELDS}


# --------------------------------------------------------------------------- records


def load_records(path: str | os.PathLike) -> list[dict]:
    """The tournament records in ``path`` (see records.read_records; nothing is changed)."""
    return read_records(path, key="key")


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


def local_jobs(n_jobs: int, work: int) -> int:
    """How many local worker processes ``n_jobs`` asks for at most ``work``
    games: never more than the games, nor than the machine's cores (more
    only wait for a core, and each costs a process start and its memory;
    --jobs 100000 started 159 processes for 2 games)."""
    return max(1, min(n_jobs, work, os.cpu_count() or 1))


def run_tasks(
    tasks: Sequence[GameTask],
    out: str | os.PathLike | RecordStore,
    *,
    backend: str = "joblib",
    n_jobs: int = 1,
    scheduler: str | None = None,
    client: Any = None,
    chunk_size: int | None = None,
    progress: bool = True,
    desc: str = "games",
    on_record: Callable[[dict], None] | None = None,
) -> list[dict]:
    """Play every task whose key is not yet in ``out``; return the records of all ``tasks``.

    ``out`` is a path (opened and locked for this call) or a ``RecordStore``
    the caller holds open. Stored records of the same keys made with another
    seed, other bot settings or another rule set are refused (``ValueError``).
    ``backend="joblib"`` uses ``n_jobs`` local processes (1 runs in this process).
    ``backend="dask"`` uses ``client`` if given, else connects to ``scheduler``,
    else starts a ``LocalCluster`` of ``n_jobs`` single-threaded worker processes.
    """
    if not isinstance(out, RecordStore):
        with RecordStore(out, key="key") as store:
            return run_tasks(
                tasks,
                store,
                backend=backend,
                n_jobs=n_jobs,
                scheduler=scheduler,
                client=client,
                chunk_size=chunk_size,
                progress=progress,
                desc=desc,
                on_record=on_record,
            )
    store = out
    if len(set(t.key for t in tasks)) != len(tasks):
        raise ValueError("duplicate game keys among the tasks")
    by_key = store.resume({task.key: task.settings() for task in tasks})
    todo = [t for t in tasks if t.key not in by_key]
    if todo:
        if backend == "joblib" or (backend == "dask" and client is None and not scheduler):
            n_jobs = local_jobs(n_jobs, len(todo))  # processes this machine starts
        # With a remote scheduler n_jobs may understate the cluster; pass chunk_size there.
        size = chunk_size or _auto_chunk(len(todo), n_jobs)
        chunks = _chunks(todo, size)
        bar = _progress(len(tasks), len(tasks) - len(todo), desc, progress)
        try:
            for records in _execute(chunks, backend, n_jobs, scheduler, client):
                for record in records:
                    store.append(record)
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
            delayed(_play_chunk_in_worker)(chunk) for chunk in chunks
        )
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
            cluster = LocalCluster(
                n_workers=max(1, n_jobs), threads_per_worker=1, processes=True, dashboard_address=None
            )
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
    """Leaderboard, then pairwise win rates and first-player advantage (two players)
    or mean returns by seat (more players), as markdown."""
    from analysis.ratings import fit_ratings, leaderboard_table

    lines = []
    rated = [r for r in records if len(set(r["players"])) > 1]
    if rated:
        names = {n for r in rated for n in r["players"]}
        if "random" in names:
            lines.append(leaderboard_table(fit_ratings(rated)))
        else:
            lines.append("(no leaderboard: uniform Random, the rating anchor, did not play)\n")
    if records and len(records[0]["players"]) == 2:
        lines += _two_player_tables(rated, records)
    elif records:
        lines.append(_seat_returns(records))
    return "\n".join(lines) + "\n"


def _two_player_tables(rated: Sequence[Mapping], records: Sequence[Mapping]) -> list[str]:
    from analysis.stats import first_player_advantage_from_records, pairwise_win_rates

    lines = []
    if rated:
        lines.append("| player | opponent | win rate [95% CI] |")
        lines.append("|---|---|---|")
        for (me, other), rate in sorted(pairwise_win_rates(rated).items()):
            lines.append(f"| {me} | {other} | {rate} |")
        lines.append("")
    lines.append(f"All games: {first_player_advantage_from_records(records)}.")
    for label in sorted({r["players"][0] for r in records if r["players"][0] == r["players"][1]}):
        own = [r for r in records if r["players"] == [label, label]]
        lines.append(f"Self-play of {label}: {first_player_advantage_from_records(own)}.")
    return lines


def _seat_returns(records: Sequence[Mapping]) -> str:
    """Mean return of each seat: the n-player form of the first-mover question
    (games such as Notakto have one loser and several winners, so it is the
    returns, not a single winner, that say which seat is favoured)."""
    seats = len(records[0]["players"])
    means = [sum(r["returns"][s] for r in records) / len(records) for s in range(seats)]
    shown = ", ".join(f"seat {s} {m:+.3f}" for s, m in enumerate(means))
    return f"All {len(records)} games, mean return by seat: {shown}."


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m analysis.tournament",
        description="Play a tournament between OpenSpiel bots on a registered game, appending one JSON "
        "line per game to --out; rerunning the same command resumes it.",
        epilog="Bot specs: KIND or KIND:key=value,...  Kinds: random; mcts (our UCT: simulations, uct_c, "
        "solve, max_time); openspiel_mcts (simulations, uct_c, rollouts, solve); alphabeta (depth, "
        "time_limit); ismcts (information-set MCTS: simulations, worlds, belief); cfr (policy=PATH); "
        "python -m agents lists every kind and option; or package.module:function[:key=value,...]. "
        "Example: --bot random --bot openspiel_mcts:simulations=100. "
        "A simultaneous game is played in its turn-based form turn_based_simultaneous_game(game=...) "
        "(a note says so). mcts, openspiel_mcts and alphabeta read the whole state, so they are refused "
        "on hidden-information games and on simultaneous ones (whose turn-based state holds a round's "
        "earlier plans), with a message naming ismcts, the kind to use there.",
    )
    parser.add_argument(
        "--game",
        required=True,
        help="OpenSpiel game string, e.g. 'y_game(board_size=5)' or 'ttt(rules=StagHunt)' "
        "(simultaneous games play in their turn-based form)",
    )
    parser.add_argument("--bot", action="append", required=True, help="a bot spec (repeat)")
    parser.add_argument(
        "--games-per-pair",
        type=positive_int,
        default=10,
        help="games per table of bots (default 10); with more than two players, rounded up to whole "
        "rounds of seat permutations",
    )
    parser.add_argument("--pairs", default="round_robin", choices=["round_robin", "self", "first_vs_rest"])
    parser.add_argument("--seed", type=non_negative_int, default=0)
    parser.add_argument(
        "--out",
        required=True,
        help="record store (JSON lines, or SQLite if it ends in .sqlite/.db); resumed if it exists, "
        "locked while the run writes",
    )
    parser.add_argument("--backend", default="joblib", choices=["joblib", "dask"])
    parser.add_argument(
        "--jobs", type=positive_int, default=1, help="worker processes (joblib, or dask LocalCluster)"
    )
    parser.add_argument(
        "--scheduler", help="Dask scheduler address (tcp://host:8786); default: a LocalCluster"
    )
    parser.add_argument("--chunk", type=positive_int, help="games per work unit (default: automatic)")
    parser.add_argument(
        "--import",
        dest="imports",
        action="append",
        default=[],
        help="extra module to import in workers before loading the game (repeat)",
    )
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    try:
        specs = [BotSpec.parse(text) for text in args.bot]
        form = playable_game_string(args.game, args.imports)
        if form != args.game:
            print(
                f"note: {args.game} has simultaneous moves; the tournament plays its turn-based "
                f"form {form} (each round's plans one after another, hidden from the others "
                f"until the round resolves)",
                file=sys.stderr,
            )
        tasks = make_tasks(args.game, specs, args.games_per_pair, args.seed, args.pairs, args.imports)
    except (ValueError, ImportError, pyspiel.SpielError) as error:
        parser.error(str(error))
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.scheduler and args.backend != "dask":
        parser.error("--scheduler needs --backend dask")
    try:
        store = RecordStore(args.out, key="key")
    except RecordStoreError as error:
        parser.error(str(error))
    with store:
        before = len(store)
        start = time.perf_counter()
        try:
            records = run_tasks(
                tasks,
                store,
                backend=args.backend,
                n_jobs=args.jobs,
                scheduler=args.scheduler,
                chunk_size=args.chunk,
                progress=not args.no_progress,
            )
        except RecordStoreError as error:
            parser.error(str(error))
        elapsed = time.perf_counter() - start
        played = len(store) - before
    jobs = args.jobs if args.scheduler else local_jobs(args.jobs, len(tasks))
    print(
        f"{played} new games in {elapsed:.2f} s ({played / elapsed if elapsed > 0 else 0:.1f} games/s) "
        f"with backend={args.backend} jobs={jobs}; {len(records)} games in this tournament."
    )
    print(summary_tables(records))
    return 0


if __name__ == "__main__":
    # Run the imported module's main, so specs and tasks are instances of
    # analysis.tournament classes that workers unpickle by reference, not __main__ ones.
    from analysis.tournament import main as _main

    sys.exit(_main())

"""Exact solving split across worker processes (joblib's process pool) or a Dask
cluster, resumable from per-position records.

    python -m solvers.solve --game "double_o_y(board_size=6)" --jobs 2 --records r.jsonl

What is split: the same symmetry classes of first moves that ``solvers.exhaustive``
searches (one representative per class), and, for balance, the positions
``split_depth`` plies below the root: each becomes a *unit*, one exact search by
the serial solver's own ``Evaluator`` (alpha-beta, df-pn or the Y solver, chosen
by the same rules) in a worker. Positions of the frontier with the same
symmetry-class key (the key the transposition table already trusts) share a
unit, so each position up to symmetry is solved once. The parent combines unit
values up the small tree above them by minimax on player 0's value (the side to
move maximises when it is player 0 and minimises otherwise: minimax with two
players, paranoid with more, as in ``solvers/exhaustive.py``); a chance node is
never split, it is a unit of its own.

Why the parent schedules units itself instead of handing joblib or Dask the
whole list: a unit can become useless while it waits. When one reply refutes an
opening (the mover reaches its best possible value), the opening's other replies
need no search, as in the serial alpha-beta's cutoff. So the parent keeps only as
many units in flight as there are workers, submits the next *needed* one as each
finishes, and drops those under a resolved node. Units in flight when their node
is resolved finish anyway (their values are kept as records); their time is the
price of splitting below a node whose value was not yet known.
A unit is one search from ``Searcher.value``'s exact window; the kernel's range
cutoffs (a proven win ends a node) are what keep it from costing more than the
serial search below the same moves (without them, 2-ply units search
3.4-3.9x the serial nodes on a side-6 flip game; docs/solved/parallel.md,
"Why a split unit searches more than the serial solve").
To find refutations early, the moves of each position above the units are
ordered by a 2-ply search with the random-playout heuristic (``order_plies``),
and units go out likeliest-best-line first.

Why workers keep their evaluator: the serial solver keeps one transposition
table across all openings, and later openings reuse what earlier ones proved. A
worker (a process, or a Dask worker thread) keeps one ``Evaluator`` per settings
for the same reason, so only what two workers both need is searched twice.

Why a shared table (``shared_tt``, on by default for joblib with 2+ workers):
even so, two workers with private tables search 1.4-2.1x the serial node count
on the flip games, because units share most of their positions. With
``shared_tt`` the parent creates one alpha-beta table in shared memory
(``solvers/shared_tt.py``) and every joblib worker on this machine maps it, so a
position one worker proved is a table hit for the other; the parent unlinks it
when the solve ends. Dask workers keep private tables: they may be on other
machines.

Why records: a unit or an opening solved is appended to a record store
(``records/``: JSON lines or SQLite, locked against a second writer) with the
game as its settings, so a run killed mid-way resumes from it: every stored
position is taken as solved (openings too, whatever split depth wrote them), and
a store made for another game is refused. Keys are the action path from the
root (``"3/17"``), which is the same position in every run of the same game.
"""

from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import importlib
import os
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from solvers._alphabeta import Searcher, SearchTimeout
from solvers.exhaustive import Evaluator, _value_kind, load

BACKENDS = ("joblib", "dask")
# Whether --jobs N (joblib, N >= 2) shares one table by default; see docs/solved.md for the measurements.
SHARED_TT_DEFAULT = True


def _shared_available() -> bool:
    from solvers.shared_tt import available

    return available()


@dataclasses.dataclass(frozen=True)
class Settings:
    """What a worker needs to rebuild the search (it must be picklable and small)."""

    game: str
    engine: str = "auto"
    method: str = "auto"
    symmetry: bool = True
    tt_log2: int = 24
    imports: tuple[str, ...] = ()  # modules that register the game (a worker starts bare)
    tt_replace: str = "depth"  # the alpha-beta table's replacement scheme
    shared_tt: str = ""  # name of the shared table to map ("": a private table)


# --------------------------------------------------------------------------- the worker side

_LOCAL = threading.local()


def _evaluator(settings: Settings) -> Evaluator:
    """This thread's evaluator for ``settings``, made once (threads: a Dask worker
    may run several tasks at once, and a search object is not thread-safe)."""
    cache = getattr(_LOCAL, "evaluators", None)
    if cache is None:
        cache = _LOCAL.evaluators = {}
    ev = cache.get(settings)
    if ev is None:
        for module in settings.imports:
            importlib.import_module(module)
        cache.clear()  # one table per thread: another game frees the last one's memory
        shared = None
        if settings.shared_tt:
            from solvers import shared_tt

            shared = shared_tt.attach(settings.shared_tt, settings.tt_log2)
        ev = cache[settings] = Evaluator(
            settings.game,
            engine=settings.engine,
            method=settings.method,
            symmetry=settings.symmetry,
            tt_log2=settings.tt_log2,
            tt_replace=settings.tt_replace,
            tt_shared=shared,
        )
    return ev


def forget() -> None:
    """Drop this thread's evaluators and their tables (a benchmark's runs must not share them)."""
    _LOCAL.evaluators = {}


def solve_unit(settings: Settings, path: tuple[int, ...], time_limit: float = 0.0) -> dict:
    """Player 0's exact value of the position ``path`` leads to from the root
    (run in a worker). ``{"timeout": True}`` when ``time_limit`` s (0: none) ran out."""
    start, cpu = time.perf_counter(), time.thread_time()  # a first unit pays for the table
    ev = _evaluator(settings)
    position = ev.root
    for action in path:
        position = ev.child_of(action, position)
    nodes = ev.nodes
    out = {"path": list(path), "worker": f"{os.getpid()}:{threading.get_ident()}"}
    try:
        out["value"] = float(ev.value(position, time_limit))
    except SearchTimeout:
        out["timeout"] = True
    out.update(
        nodes=ev.nodes - nodes,
        seconds=round(time.perf_counter() - start, 3),
        cpu_seconds=round(time.thread_time() - cpu, 3),
    )
    return out


# --------------------------------------------------------------------------- executors


class _InProcess(cf.Executor):
    """``--jobs 1``: each unit runs at submission, in this process."""

    def submit(self, fn, /, *args, **kwargs):
        future = cf.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:
            future.set_exception(error)
        return future


def open_executor(backend: str, jobs: int, scheduler: str | None = None, connect_timeout: float = 10.0):
    """(executor, workers, close) for ``backend``: joblib's process pool of ``jobs``
    processes (in this process for 1), or a Dask client of ``scheduler``, else a
    ``LocalCluster`` of ``jobs`` single-threaded worker processes.

    ``close(abandon)`` ends what this call started; with ``abandon`` (units still
    running after a stop) it also kills joblib's workers, which would otherwise
    finish those searches before the interpreter may exit. A remote Dask
    cluster cannot be told to stop a running task: it finishes it unheard."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer, got {jobs!r}")
    if scheduler and backend != "dask":
        raise ValueError("a scheduler address needs the dask backend")
    if backend == "joblib":
        if jobs == 1:
            return _InProcess(), 1, lambda abandon: None
        from joblib.externals.loky import get_reusable_executor

        pool = get_reusable_executor(max_workers=jobs)

        def close_pool(abandon):
            if abandon:
                pool.shutdown(wait=False, kill_workers=True)

        return pool, jobs, close_pool
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError as error:
        raise ValueError('the dask backend needs: pip install "dask[distributed]"') from error
    owned = []
    if scheduler:
        try:
            client = Client(scheduler, timeout=connect_timeout)
        except (OSError, TimeoutError) as error:
            raise ValueError(
                f"cannot reach the Dask scheduler at {scheduler} within {connect_timeout:g} s ({error})"
            ) from None
    else:
        # ":0": any free port for its web server (the default 8787 may be another cluster's)
        cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=":0")
        owned.append(cluster)
        client = Client(cluster)
    owned.insert(0, client)
    workers = max(1, sum(client.nthreads().values()))

    def close(abandon):
        for thing in owned:
            thing.close()

    return client.get_executor(pure=False), workers, close


# --------------------------------------------------------------------------- the tree above the units


class _Node:
    """A position above or at the frontier; leaves point at the unit that solves them."""

    __slots__ = ("path", "parent", "maximise", "children", "value", "best", "left", "unit", "detour")

    def __init__(self, path, parent, detour=0):
        self.path, self.parent, self.detour = tuple(path), parent, detour
        self.maximise = True
        self.children: list[_Node] = []
        self.value = self.best = None
        self.left = 0
        self.unit = None

    def alive(self) -> bool:
        """Still unknown, and so is every node above it (else its value is not needed)."""
        node = self
        while node is not None:
            if node.value is not None:
                return False
            node = node.parent
        return True


class _Unit:
    __slots__ = ("path", "leaves", "value", "detour")

    def __init__(self, path, detour=0):
        self.path, self.leaves, self.value, self.detour = tuple(path), [], None, detour


def key_of(path: Iterable[int]) -> str:
    """A position's record key: its action path from the root."""
    return "/".join(str(a) for a in path)


def solve(
    game,
    *,
    jobs: int = 1,
    backend: str = "joblib",
    scheduler: str | None = None,
    engine: str = "auto",
    method: str = "auto",
    symmetry: bool = True,
    tt_log2: int = 24,
    tt_replace: str = "depth",
    split_depth: int | None = None,
    records: str | None = None,
    time_limit: float = 0.0,
    stop_after: int = 0,
    connect_timeout: float = 10.0,
    imports: Iterable[str] = (),
    order_plies: int = 2,
    shared_tt: bool | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict:
    """``solvers.exhaustive.solve``'s result (value, winning first moves, every
    opening's value), computed in units on ``jobs`` workers; see the module docstring.

    ``split_depth`` is how many plies below the root the units start (1: one per
    opening class; None: 1 with one worker or at least four classes per
    worker, else 2). ``records`` is a record store path to append to and resume from.
    ``imports`` are modules the workers import to register the game (ours are
    registered by ``games``, which every worker imports). ``stop_after`` (> 0)
    stops after that many new units, as a kill would (for tests and for slicing
    a long solve). ``order_plies`` (0: off) is the depth of the shallow heuristic
    search that orders the moves above the units. ``shared_tt`` (None: the
    default, ``SHARED_TT_DEFAULT``) puts the joblib workers' alpha-beta table in
    shared memory, one for all of them (no effect with one worker or the Y
    solver; refused with Dask). Extra fields: ``shared_tt`` (whether it was used), ``jobs``, ``backend``,
    ``workers``, ``split_depth``, ``units``, ``units_solved``, ``units_resumed``,
    ``units_wasted`` (finished after their value stopped mattering),
    ``worker_cpu_seconds`` (CPU time each worker spent in units, largest first:
    on a shared machine the largest is what the wall time would be on idle cores).
    """
    say = progress or (lambda msg: None)
    start = time.perf_counter()
    game = load(game)
    if split_depth is not None and split_depth < 1:
        raise ValueError(f"split_depth must be >= 1, got {split_depth}")
    if stop_after < 0:
        raise ValueError(f"stop_after must be >= 0, got {stop_after}")
    if order_plies < 0:
        raise ValueError(f"order_plies must be >= 0, got {order_plies}")
    if shared_tt and backend == "dask":
        raise ValueError("a shared table needs the joblib backend (Dask workers keep private tables)")
    # The parent's evaluator only groups moves and keys positions: a small table.
    ev = Evaluator(game, engine=engine, method=method, symmetry=symmetry, tt_log2=10, tt_replace=tt_replace)
    classes = ev.classes()
    deadline = time.perf_counter() + time_limit if time_limit and time_limit > 0 else 0.0
    store = None
    if records:
        from records import RecordStore

        store = RecordStore(records, key="key")
    close = lambda abandon: None
    abandon = True
    table = None
    try:
        executor, workers, close = open_executor(backend, jobs, scheduler, connect_timeout)
        share = SHARED_TT_DEFAULT if shared_tt is None else bool(shared_tt)
        share = (
            share
            and backend == "joblib"
            and workers > 1
            and ev.use_core
            and ev.method != "ysolver"
            and _shared_available()
        )
        name = ""
        if share:
            from solvers.shared_tt import SharedTable

            table = SharedTable(tt_log2, open=False)  # held before it exists: see open()
            table.open()
            name = table.name
            say(f"one shared table of 2**{tt_log2} entries for the {workers} workers ({name})")
        settings = Settings(str(game), engine, method, symmetry, tt_log2, tuple(imports), tt_replace, name)
        if split_depth is None:
            # one worker gains nothing from deeper units; several need enough of them to balance
            split_depth = 1 if workers == 1 or len(classes) >= 4 * workers else 2
        result = _run(
            ev,
            settings,
            classes,
            executor,
            workers,
            split_depth,
            store,
            deadline,
            stop_after,
            say,
            start,
            order_plies,
        )
        abandon = result["units_abandoned"] > 0
    finally:
        close(abandon)
        if table is not None:
            table.close()
        if store is not None:
            store.close()
    result.update(
        jobs=jobs, backend=backend, workers=workers, split_depth=split_depth, shared_tt=table is not None
    )
    result["seconds"] = round(time.perf_counter() - start, 3)
    return result


def _run(
    ev,
    settings,
    classes,
    executor,
    workers,
    split_depth,
    store,
    deadline,
    stop_after,
    say,
    start,
    order_plies,
) -> dict:
    game, hi = ev.game, ev.hi
    wanted_settings = {"game": settings.game}
    stored = {}
    if store is not None:
        stored = {k: r for k, r in store.latest().items() if "value" in r}
        for k, r in stored.items():
            if r.get("game") != settings.game:
                store.resume({k: wanted_settings})  # raises SettingsMismatch, naming both games
    result = {
        "game": str(game),
        "engine": "core" if ev.use_core else "pyspiel",
        "method": ev.method,
        "value_kind": _value_kind(game),
        "first_player": int(ev.player),
        "symmetry_classes": len(classes),
        "complete": False,
        "value": None,
        "winning_first_moves": [],
        "opening_values": {},
    }
    units: dict[Any, _Unit] = {}
    order: list[_Unit] = []
    resumed = ordering_nodes = 0

    def key_position(position, path):
        return ev.searcher.canonical_key(position) if ev.use_core else path

    def terminal_value(position):
        if ev.use_core:
            return float(position.returns_list()[0]) if position.terminal() else None
        return float(position.returns()[0]) if position.is_terminal() else None

    def mover(position):
        return position.player() if ev.use_core else position.current_player()

    def settle(node, value):
        """Give ``node`` its value and pass it up while it decides its parent."""
        while node is not None and node.value is None:
            node.value = value
            parent = node.parent
            if parent is None or parent.value is not None:
                return
            better = parent.best is None or (value > parent.best if parent.maximise else value < parent.best)
            if better:
                parent.best = value
            parent.left -= 1
            bound = hi if parent.maximise else ev.lo
            if parent.best == bound or parent.left == 0:
                node, value = parent, parent.best
            else:
                return

    def build(node, position, depth):
        nonlocal resumed, ordering_nodes
        player = mover(position)
        frontier = depth >= split_depth or player < 0
        ukey = key_position(position, node.path) if frontier else None
        k = key_of(node.path)
        if k in stored:
            resumed += 1
            value = float(stored[k]["value"])
            if frontier and ukey not in units:  # a twin of this position needs no search either
                units[ukey] = _Unit(node.path)
                units[ukey].value = value
            settle(node, value)
            return
        if frontier:
            unit = units.get(ukey)
            if unit is None:
                unit = units[ukey] = _Unit(node.path, node.detour)
                order.append(unit)
            if unit.value is not None:
                settle(node, unit.value)
                return
            unit.leaves.append(node)
            node.unit = unit
            return
        node.maximise = player == 0
        groups: dict[Any, list[int]] = {}
        kids = {}
        for a in position.legal_action_list() if ev.use_core else position.legal_actions():
            child = ev.child_of(a, position)
            kids[a] = child
            groups.setdefault(key_position(child, node.path + (a,)), []).append(a)
        reps = [members[0] for members in groups.values()]
        if ev.use_core and order_plies > 0:
            # Likely best moves first: a shallow search with the random-playout heuristic,
            # by a fresh searcher, so the order depends on the position only (and a resumed
            # run builds the same units).
            shallow = Searcher(position, 0, ev.lo, ev.hi, settings.symmetry, 10, 8, 0)
            guess = shallow.root_moves(position, order_plies, all_values=True)[2]
            ordering_nodes += shallow.nodes
            reps.sort(key=lambda a: -guess.get(a, float("-inf")))
        node.left = len(reps)
        for rank, a in enumerate(reps):
            child = _Node(node.path + (a,), node, node.detour + rank)
            node.children.append(child)
            tv = terminal_value(kids[a])
            if tv is not None:
                settle(child, tv)
            elif node.value is None:
                build(child, kids[a], depth + 1)
            if node.value is not None:
                return  # settled by a finished child: the rest is not needed

    roots = []
    if not classes:
        node = _Node((), None)
        roots.append(node)
        build(node, ev.root, split_depth)  # a game that starts with chance: one unit
    for members in classes:
        node = _Node((members[0],), None)
        roots.append(node)
        position = ev.child_of(members[0])
        tv = terminal_value(position)
        if tv is not None:
            settle(node, tv)
        else:
            build(node, position, 1)
    # Each position's likeliest best move first, across all of them, then the others:
    # a refutation found early spares its siblings (units ordered by how many
    # moves along their path were not their position's first guess, then as built).
    needed = sorted((u for u in order if any(leaf.alive() for leaf in u.leaves)), key=lambda u: u.detour)
    say(
        f"{len(classes)} opening classes, split {split_depth} plies deep: {len(needed)} units "
        f"to solve on {workers} worker(s)"
        + (f", {resumed} positions resumed from records" if resumed else "")
    )

    written = set(stored)

    def record(path, value, extra=None):
        if store is None or key_of(path) in written:
            return
        written.add(key_of(path))
        rec = {
            "key": key_of(path),
            "game": settings.game,
            "value": value,
            "moves": " ".join(_describe_path(ev, path)),
        }
        rec.update(extra or {})
        store.append(rec)

    def describe_class(k):
        return ", ".join(ev.describe(a) for a in classes[k])

    reported = set()

    def report_openings():
        for k, node in enumerate(roots if classes else []):
            if node.value is not None and k not in reported:
                reported.add(k)
                record(node.path, node.value, {"opening": True})
                say(
                    f"class {k + 1}/{len(classes)}: {describe_class(k)} -> {node.value:+g}  "
                    f"({time.perf_counter() - start:.1f} s)"
                )

    report_openings()
    queue = list(needed)
    in_flight: dict[cf.Future, _Unit] = {}
    nodes = solved = wasted = 0
    busy: dict[str, float] = {}  # CPU seconds of units per worker (process:thread)
    stopped = None
    while (queue or in_flight) and stopped is None:
        while queue and len(in_flight) < workers and stopped is None:
            unit = queue.pop(0)
            if not any(leaf.alive() for leaf in unit.leaves):
                continue
            left = 0.0
            if deadline:
                left = deadline - time.perf_counter()
                if left <= 0:
                    stopped = "time"
                    break
            in_flight[executor.submit(solve_unit, settings, unit.path, left)] = unit
        if not in_flight:
            break
        done, _ = cf.wait(list(in_flight), return_when=cf.FIRST_COMPLETED)
        for future in done:
            unit = in_flight.pop(future)
            out = future.result()
            nodes += out["nodes"]
            busy[out["worker"]] = busy.get(out["worker"], 0.0) + out["cpu_seconds"]
            if out.get("timeout"):
                stopped = "time"
                continue
            value = out["value"]
            unit.value = value
            solved += 1
            if not any(leaf.alive() for leaf in unit.leaves):
                wasted += 1
            record(unit.path, value, {"unit": True, "nodes": out["nodes"], "seconds": out["seconds"]})
            say(
                f"unit {' '.join(_describe_path(ev, unit.path))} -> {value:+g}  "
                f"({out['nodes']:,} nodes, {out['seconds']} s)"
            )
            for leaf in unit.leaves:
                settle(leaf, value)
            report_openings()
            if stop_after and solved >= stop_after and stopped is None:
                stopped = "stop_after"
    for future in in_flight:  # a stop: what is still running is abandoned
        future.cancel()
    abandoned = len(in_flight)

    if not classes:
        result["value"] = roots[0].value
        result["complete"] = roots[0].value is not None
    else:
        values = {}
        for members, node in zip(classes, roots, strict=True):
            if node.value is not None:
                for a in members:
                    values[a] = node.value
        result["complete"] = len(values) == sum(len(m) for m in classes)
        result["opening_values"] = {ev.describe(a): values[a] for a in sorted(values)}
        if not result["complete"]:
            result["unsolved_first_moves"] = [
                ev.describe(a) for members in classes for a in members if a not in values
            ]
        player = ev.player
        if values and (player == 0 or game.num_players() == 2):
            sign = 1.0 if player == 0 else -1.0
            best = max(sign * v for v in values.values())
            result["winning_first_moves"] = [ev.describe(a) for a in sorted(values) if sign * values[a] >= hi]
            if result["complete"] or best >= hi:
                result["value"] = sign * best
        elif values and result["complete"]:
            result["value"] = min(values.values())
    if not result["complete"]:
        result["error"] = (
            "not solved within the time limit"
            if stopped == "time"
            else f"stopped after {solved} units (--stop-after)"
        )
    result.update(
        nodes=int(nodes + ordering_nodes),
        units=len(order),
        units_solved=solved,
        units_resumed=resumed,
        units_wasted=wasted,
        units_abandoned=abandoned,
        worker_cpu_seconds=sorted((round(v, 3) for v in busy.values()), reverse=True),
    )
    return result


def _describe_path(ev: Evaluator, path) -> list[str]:
    """The moves of ``path`` as the game writes them."""
    out, position = [], ev.root
    for action in path:
        player = position.player() if ev.use_core else position.current_player()
        out.append(
            position.action_string(player, action)
            if ev.use_core
            else position.action_to_string(player, action)
        )
        position = ev.child_of(action, position)
    return out

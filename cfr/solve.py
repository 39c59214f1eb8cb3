"""Run one CFR-family solver on one game and record its convergence.

``Solver`` gives every algorithm one face (``iterate(k)``, ``average_policy()``):

- engine ``ours``: ``cfr.tabular.TabularCFR`` (cfr, cfr+, dcfr, lcfr) over the
  enumerated tree, and ``cfr.mccfr.SampledMCCFR`` (mccfr-outcome,
  mccfr-external), which never enumerates the tree: its tables hold the
  information states its samples visited, so it runs on games tabular CFR
  refuses (3Blotto13, Centipede9), and its average policy lists those states only;
- engine ``openspiel``: OpenSpiel's C++ ``CFRSolver`` / ``CFRPlusSolver`` and the
  sampling ``OutcomeSamplingMCCFRSolver`` / ``ExternalSamplingMCCFRSolver``
  (OpenSpiel has no C++ DCFR, so dcfr/lcfr are ours only). The C++ solvers accept
  this toolkit's Python games; they run on ``convert_to_cached_tree`` of the
  turn-based game, which walks the Python game once instead of every iteration.
  These need the enumerated tree (small games only): MCCFR's policy is read
  through one history of each information state (it cannot be read by string:
  OpenSpiel raises for an information state not sampled yet; by state it is
  uniform).

A game whose tree is past ``max_nodes`` is solved over its DAG of merged
histories (``cfr.dag``) where that is exact (perfect-information and blind
games of this toolkit): ``tree_or_dag`` builds one or the other, tabular CFR
runs on either, and on a DAG NashConv comes from the DAG's exact best
responses. Its policy's keys are the DAG's (``cfr.dag.state_key``; the policy
file says so in ``keys``).

``run`` iterates up to a budget (iterations and/or seconds), evaluating NashConv
(and exploitability for two-player zero-sum games) at geometrically spaced
iterations; time spent evaluating is not counted in the curve's seconds. A
game whose tree is past ``max_nodes`` cannot be evaluated (best responses walk
the whole tree): only sampling MCCFR runs there, its rows carry ``None`` and the
result's ``not_evaluated`` says why; never a made-up figure.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import pyspiel

from cfr import evaluate
from cfr.game_form import turn_based
from cfr.mccfr import SampledMCCFR
from cfr.tabular import TabularCFR
from cfr.tree import TreeTooLarge, enumerate_tree

__all__ = [
    "ALGORITHMS",
    "SAMPLED",
    "Solver",
    "RunResult",
    "run",
    "checkpoints",
    "complete",
    "needs_tree",
    "unevaluable_reason",
    "tree_or_dag",
    "is_dag",
]

# algorithm -> engines that have it (first: the default)
ALGORITHMS = {
    "cfr": ("ours", "openspiel"),
    "cfr+": ("ours", "openspiel"),
    "dcfr": ("ours",),
    "lcfr": ("ours",),
    "mccfr-outcome": ("ours", "openspiel"),
    "mccfr-external": ("ours", "openspiel"),
}

SAMPLED = ("mccfr-outcome", "mccfr-external")


def is_dag(tree) -> bool:
    """Whether ``tree`` is a DAG of merged histories (``cfr.dag``) rather than the tree."""
    return getattr(tree, "dag", None) is not None


def tree_or_dag(game, max_nodes: int = 5_000_000, count=None):
    """The enumerated tree, or past ``max_nodes`` histories the game's DAG of merged
    histories (``cfr.dag``) where that is exact; ``TreeTooLarge`` when neither can be
    had, its advice saying why the DAG could not be used."""
    from cfr import dag

    try:
        return enumerate_tree(game, max_nodes=max_nodes, count=count)
    except TreeTooLarge as e:
        try:
            return dag.build_dag(game)
        except (dag.NotExact, dag.TooManyNodes, ValueError) as why:
            raise TreeTooLarge(
                e.size,
                f"too large for tabular CFR, and its DAG of merged "
                f"histories would not be exact ({why}): use sampling "
                "MCCFR, or raise max_nodes",
            ) from None


def needs_tree(algorithm: str, engine: str | None = None) -> bool:
    """Whether the solver itself needs the enumerated tree (everything but our MCCFR)."""
    return not (algorithm in SAMPLED and (engine or ALGORITHMS[algorithm][0]) == "ours")


class Solver:
    """One algorithm on one game. ``tree`` is the enumerated tree (needed by every
    engine but our sampling MCCFR, which ignores it); built here if not given."""

    def __init__(
        self,
        game,
        algorithm: str,
        engine: str | None = None,
        *,
        seed: int = 0,
        tree=None,
        epsilon: float = 0.6,
        max_nodes: int = 5_000_000,
    ):
        if algorithm not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {algorithm!r}; choose from {', '.join(ALGORITHMS)}")
        engines = ALGORITHMS[algorithm]
        engine = engine or engines[0]
        if engine not in engines:
            raise ValueError(
                f"algorithm {algorithm!r} runs on engine(s) {', '.join(engines)}, not {engine!r}"
            )
        self.game, self.algorithm, self.engine, self.seed = game, algorithm, engine, seed
        self.iterations = 0
        self._sampled = None
        if not needs_tree(algorithm, engine):
            self.tree = None
            self._ours = None
            self._sampled = SampledMCCFR(game, algorithm.split("-")[1], seed=seed, epsilon=epsilon)
            return
        self.tree = tree if tree is not None else enumerate_tree(game, max_nodes=max_nodes)
        if engine == "ours":
            self._ours = TabularCFR(self.tree, algorithm)
            return
        if is_dag(self.tree):
            raise ValueError(
                "OpenSpiel's solvers walk the game's tree; a DAG of merged histories runs on engine 'ours'"
            )
        self._ours = None
        cached = evaluate.evaluation_game(game)
        if algorithm == "cfr":
            self._cpp = pyspiel.CFRSolver(cached)
        elif algorithm == "cfr+":
            self._cpp = pyspiel.CFRPlusSolver(cached)
        elif algorithm == "mccfr-outcome":
            self._cpp = pyspiel.OutcomeSamplingMCCFRSolver(cached, epsilon=epsilon, seed=seed)
        else:
            self._cpp = pyspiel.ExternalSamplingMCCFRSolver(cached, seed=seed)

    @property
    def visited(self) -> int | None:
        """Information states our sampling MCCFR has visited (None for the other solvers)."""
        return self._sampled.num_visited if self._sampled is not None else None

    def iterate(self, count: int = 1) -> None:
        if self._sampled is not None:
            self._sampled.iterate(count)
        elif self._ours is not None:
            self._ours.iterate(count)
        elif self.algorithm.startswith("mccfr"):
            for _ in range(count):
                self._cpp.run_iteration()
        else:
            for _ in range(count):
                self._cpp.evaluate_and_update_policy()
        self.iterations += count

    def average_probs(self):
        """Our tabular solver's average strategy per slot of its tree or DAG."""
        if self._ours is None:
            raise ValueError(f"{self.algorithm} on engine {self.engine} keeps no slots")
        return self._ours.average_probs()

    def average_policy(self) -> dict:
        """{information-state string: [(action, prob), ...]} over every infoset (our
        sampling MCCFR: over the infosets it visited)."""
        if self._sampled is not None:
            return self._sampled.average_policy()
        if self._ours is not None:
            return self._ours.average_policy()
        avg = self._cpp.average_policy()
        out = {}
        t = self.tree
        for key, acts, state in zip(t.infoset_keys, t.infoset_actions, t.infoset_states, strict=True):
            probs = dict(avg.get_state_policy(state))
            total = sum(probs.get(a, 0.0) for a in acts)
            out[key] = (
                [(a, probs.get(a, 0.0) / total) for a in acts]
                if total > 0
                else [(a, 1.0 / len(acts)) for a in acts]
            )
        return out


def checkpoints(limit: int):
    """1, 2, 5, 10, 20, 50, ... up to ``limit`` (and ``limit`` itself)."""
    out, base = [], 1
    while base <= limit:
        for m in (1, 2, 5):
            if m * base <= limit:
                out.append(m * base)
        base *= 10
    if not out or out[-1] != limit:
        out.append(limit)
    return out


def unevaluable_reason(error: TreeTooLarge) -> str:
    """What a run reports instead of NashConv on a game past the node limit."""
    return f"not evaluated: {error.size}; best responses would walk every history"


def complete(policy: dict, tree) -> dict:
    """``policy`` over every information state of ``tree``: those it lacks (never
    sampled) uniform, as the ``cfr`` bot plays them; best responses need every one."""
    out = dict(policy)
    for key, acts in zip(tree.infoset_keys, tree.infoset_actions, strict=True):
        if key not in out:
            out[key] = [(a, 1.0 / len(acts)) for a in acts]
    return out


@dataclass
class RunResult:
    solver: Solver
    curve: list = field(default_factory=list)  # dicts: iteration, seconds, nash_conv,
    #                                             exploitability (None: not evaluated), visited
    seconds: float = 0.0
    not_evaluated: str | None = None  # why the curve has no NashConv, if it has none

    @property
    def policy(self) -> dict:
        return self.solver.average_policy()


def run(
    game,
    algorithm: str,
    *,
    iterations: int = 1000,
    seconds: float = 0.0,
    engine: str | None = None,
    seed: int = 0,
    progress=None,
    tree=None,
    max_nodes: int = 5_000_000,
    not_evaluated: str | None = None,
) -> RunResult:
    """Iterate until ``iterations`` (or ``seconds`` of solver time, if > 0, first).

    ``progress(row)`` is called with each curve row as it is measured. Tabular
    solvers raise ``TreeTooLarge`` past ``max_nodes`` histories; our sampling MCCFR
    runs anyway and leaves the rows unevaluated (``RunResult.not_evaluated``).
    ``not_evaluated``: a caller that has found the tree too large already gives its
    reason here, so it is not walked again.
    """
    if iterations < 1:
        raise ValueError(f"iterations must be >= 1, got {iterations}")
    if seconds < 0:
        raise ValueError(f"seconds must be >= 0, got {seconds}")
    if not_evaluated is not None and needs_tree(algorithm, engine):
        raise ValueError(f"{algorithm} needs the enumerated tree; it cannot run unevaluated")
    if tree is None and not_evaluated is None:
        try:
            tree = (
                tree_or_dag(game, max_nodes)
                if needs_tree(algorithm, engine) and (engine or ALGORITHMS[algorithm][0]) == "ours"
                else enumerate_tree(game, max_nodes=max_nodes)
            )
        except TreeTooLarge as e:
            if needs_tree(algorithm, engine):
                raise
            not_evaluated = unevaluable_reason(e)
    if is_dag(tree) and not needs_tree(algorithm, engine):
        raise ValueError(f"{algorithm} samples the game itself; it takes no DAG")
    solver = Solver(game, algorithm, engine, seed=seed, tree=tree)
    over_dag = is_dag(tree)
    eval_game = evaluate.evaluation_game(game) if not_evaluated is None and not over_dag else None
    zero_sum = evaluate.is_two_player_zero_sum(turn_based(game))
    result = RunResult(solver, not_evaluated=not_evaluated)
    marks = checkpoints(iterations)
    spent = 0.0
    for mark in marks:
        stop = False
        while solver.iterations < mark:
            chunk = max(1, min(mark - solver.iterations, 64))
            t0 = time.perf_counter()
            solver.iterate(chunk)
            spent += time.perf_counter() - t0
            if seconds and spent >= seconds:
                stop = True
                break
        row = {
            "iteration": solver.iterations,
            "seconds": spent,
            "nash_conv": None,
            "exploitability": None,
            "visited": solver.visited,
        }
        if over_dag:
            from cfr import dag

            probs = solver.average_probs()
            row["nash_conv"] = dag.nash_conv(tree, probs)
            if zero_sum:
                row["exploitability"] = row["nash_conv"] / 2
        elif eval_game is not None:
            policy = pyspiel.TabularPolicy(complete(solver.average_policy(), tree))
            row["nash_conv"] = evaluate.nash_conv(eval_game, policy)
            if zero_sum:
                row["exploitability"] = evaluate.exploitability(eval_game, policy)
        result.curve.append(row)
        if progress:
            progress(row)
        if stop:
            break
    result.seconds = spent
    return result

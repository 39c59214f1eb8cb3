"""LiteEFG's CFR+ and DCFR as ``experiments.bench_cfr``'s baseline.

LiteEFG (Liu, Farina and Ozdaglar 2024) is a C++ extensive-form solver driven by
computation graphs written in Python; its package ships the graphs of the
published algorithms (``LiteEFG.baselines``), and those are what runs here,
unchanged, on games loaded through LiteEFG's own OpenSpiel loader
(``LiteEFG.OpenSpielEnv``, simultaneous games through ``convert_to_turn_based``
as our tree does). That loader walks every history once in Python and caches
the game file under the home directory; the cache here is a temporary
directory of the process instead, so a run leaves nothing behind.

One LiteEFG iteration is what its own training loop does per iteration: both
players' graphs updated in turn (alternating, player 1 first, as ours), and for
CFR+ ``update_strategy``, which accumulates the linearly weighted average
(DCFR's graph keeps its own t^2-weighted average). NashConv is LiteEFG's
``exploitability`` summed over the players, of that average.

LiteEFG is optional (``pip install -e ".[bench]" -c constraints.txt``, the
``bench`` extra of setup.py); ``missing()`` says so when it is absent.
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile

INSTALL = 'pip install -e ".[bench]" -c constraints.txt'
ALGORITHMS = ("cfr+", "dcfr")

_cache: tempfile.TemporaryDirectory | None = None


def missing() -> str | None:
    """Why LiteEFG cannot run here (not installed: how to install it), or None."""
    try:
        import LiteEFG  # noqa: F401
    except ImportError as e:
        lacking = f" ({e.name} missing)" if e.name and e.name != "LiteEFG" else ""
        return f"LiteEFG is not installed{lacking}: {INSTALL}"
    return None


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("LiteEFG")
    except PackageNotFoundError:
        return "?"


@contextlib.contextmanager
def _home_in_cache():
    """HOME pointed at this process's temporary cache while LiteEFG's loader runs."""
    global _cache
    if _cache is None:
        _cache = tempfile.TemporaryDirectory(prefix="liteefg-games-")
    saved = os.environ.get("HOME")
    os.environ["HOME"] = _cache.name
    try:
        yield
    finally:
        if saved is None:
            del os.environ["HOME"]
        else:
            os.environ["HOME"] = saved


class Solver:
    """LiteEFG's ``algorithm`` ("cfr+" or "dcfr") on a pyspiel game; ``iterate`` and
    ``nash_conv`` as ``experiments.bench_cfr`` reads every solver it compares."""

    def __init__(self, game, algorithm: str):
        if algorithm not in ALGORITHMS:
            raise ValueError(f"LiteEFG baseline algorithms: {', '.join(ALGORITHMS)}; not {algorithm!r}")
        import LiteEFG
        from LiteEFG.baselines import DCFR, CFRplus

        self.algorithm = algorithm
        self.iterations = 0
        quiet = io.StringIO()  # the loader and the graphs print banners
        with contextlib.redirect_stdout(quiet), _home_in_cache():
            self.env = LiteEFG.OpenSpielEnv(game)
            self.graph = CFRplus.graph() if algorithm == "cfr+" else DCFR.graph()
            self.env.set_graph(self.graph)
        if algorithm == "cfr+":
            self._average, self._kind = self.graph.current_strategy(), "linear-avg-iterate"
        else:
            self._average, self._kind = self.graph.current_strategy("average-iterate"), "default"

    def iterate(self, count: int = 1) -> None:
        graph, env = self.graph, self.env
        if self.algorithm == "cfr+":
            strategy = graph.current_strategy()
            for _ in range(count):
                graph.update_graph(env)
                env.update_strategy(strategy)
        else:
            for _ in range(count):
                graph.update_graph(env)
        self.iterations += count

    def nash_conv(self) -> float:
        return float(sum(self.env.exploitability(self._average, self._kind)))

    def average_policy(self):
        """The average as an OpenSpiel ``TabularPolicy`` (LiteEFG's own conversion)."""
        policy, _ = self.env.get_strategy(self._average, self._kind)
        return policy

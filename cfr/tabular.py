"""Our own tabular CFR family over an enumerated tree (``cfr.tree``), in numpy.

Why our own: OpenSpiel's C++ ``CFRSolver`` walks ``pyspiel`` states every
iteration, so on this toolkit's Python-registered games it pays a C++ -> Python
call per history per iteration; here each iteration is a handful of vectorised
operations per depth level over arrays built once. It is also the one place
DCFR runs outside Python recursion (OpenSpiel has DCFR only in Python).

Semantics follow OpenSpiel's solvers exactly, so the tests can compare them
iteration by iteration: alternating updates (player 0's regrets and average
first, then player 1's under player 0's *new* current policy, ...), regret
matching (uniform when no regret is positive), and per variant:

- ``cfr``:  plain regrets, average weighted by the player's own reach.
- ``cfr+``: regrets clamped at 0 after each player's pass (RM+), average
  weighted by iteration ``t`` (linear averaging), as ``pyspiel.CFRPlusSolver``.
- ``dcfr``: positive regrets scaled by t^a/(t^a+1), negative by t^b/(t^b+1)
  after each pass, average weighted by t^g (defaults a=1.5, b=0, g=2, Brown &
  Sandholm 2019), as ``open_spiel.python.algorithms.discounted_cfr.DCFRSolver``.
- ``lcfr``: DCFR with a=b=g=1 (linear CFR).

Two backends compute the same numbers: ``"c"`` (default; ``cfr/_kernel.pyx``,
whole iterations in plain loops over the edges) and ``"numpy"`` (vectorised per depth level, kept
as the readable statement of the algorithm and a cross-check).

Works for any number of players and general-sum games; for those the average
strategy is only an approximation of a coarse-correlated equilibrium, not a
Nash equilibrium, and NashConv (``cfr.evaluate``) says how far it is.
"""

from __future__ import annotations

import numpy as np

from cfr import _kernel
from cfr.tree import GameTree

__all__ = ["TabularCFR", "VARIANTS"]

VARIANTS = ("cfr", "cfr+", "dcfr", "lcfr")


class TabularCFR:
    """One solver over one ``GameTree``; ``iterate()`` runs one iteration."""

    def __init__(
        self,
        tree: GameTree,
        variant: str = "cfr",
        *,
        alpha: float = 1.5,
        beta: float = 0.0,
        gamma: float = 2.0,
        backend: str = "c",
    ):
        if variant not in VARIANTS:
            raise ValueError(f"unknown CFR variant {variant!r}; choose from {', '.join(VARIANTS)}")
        if backend not in ("c", "numpy"):
            raise ValueError(f"backend must be 'c' or 'numpy', got {backend!r}")
        if backend == "numpy" and getattr(tree, "dag", None) is not None:
            raise ValueError(
                "the numpy backend walks a tree level by level; a DAG (cfr.dag) runs on the 'c' backend"
            )
        self.backend = backend
        if variant == "lcfr":
            alpha = beta = gamma = 1.0
        self.tree = tree
        self.variant = variant
        self.alpha, self.beta, self.gamma = float(alpha), float(beta), float(gamma)
        self.iteration = 0
        k = tree.num_slots
        self.regret = np.zeros(k)
        self.cumulative = np.zeros(k)
        counts = np.diff(np.r_[tree.infoset_first_sa, k])
        self._uniform = 1.0 / counts[tree.sa_infoset]
        self.current = self._uniform.copy()
        self._slot_player = tree.infoset_player[tree.sa_infoset]
        # per player: its decision edges' parent, child and slot
        self._pe = [(tree.edge_parent[e], tree.edge_child[e], tree.edge_sa[e]) for e in tree.player_edges]
        self._own_slots = [np.flatnonzero(self._slot_player == p) for p in range(tree.num_players)]
        self._chance = tree.edge_sa < 0
        self._sa_safe = np.where(self._chance, 0, tree.edge_sa)
        self._counts = counts.astype(np.int64)
        self._player_infosets = [
            np.flatnonzero(tree.infoset_player == p).astype(np.int64) for p in range(tree.num_players)
        ]
        pinfo = np.concatenate(self._player_infosets + [np.zeros(0, dtype=np.int64)])
        pstart = np.cumsum([0] + [len(x) for x in self._player_infosets]).astype(np.int64)
        self._runner = _kernel.Runner(
            tree.edge_parent,
            tree.edge_child,
            tree.edge_sa,
            tree.edge_owner,
            tree.edge_prob,
            np.ascontiguousarray(tree.utilities.T),
            tree.infoset_first_sa,
            self._counts,
            pinfo.astype(np.int64),
            pstart,
            self.current,
            self.regret,
            self.cumulative,
        )

    # -- one pass ---------------------------------------------------------------
    def _edge_probs(self) -> np.ndarray:
        t = self.tree
        return np.where(self._chance, t.edge_prob, self.current[self._sa_safe])

    def _weight(self) -> float:
        if self.variant == "cfr+":
            return float(self.iteration)
        if self.variant in ("dcfr", "lcfr"):
            return float(self.iteration) ** self.gamma
        return 1.0

    def _pass(self, player: int) -> None:
        """Regrets and average of ``player`` under the current profile (numpy)."""
        t = self.tree
        w = self._edge_probs()
        mine = t.edge_owner == player
        own = np.ones(t.num_nodes)  # the player's own reach
        other = np.ones(t.num_nodes)  # everyone else's, chance included
        ch, par = t.edge_child, t.edge_parent
        for lv in t.levels:
            s = slice(lv.lo, lv.hi)
            p, c, wl, m = par[s], ch[s], w[s], mine[s]
            own[c] = own[p] * np.where(m, wl, 1.0)
            other[c] = other[p] * np.where(m, 1.0, wl)
        value = t.utilities[:, player].copy()
        for lv in reversed(t.levels):
            s = slice(lv.lo, lv.hi)
            value[lv.parents] = np.add.reduceat(w[s] * value[ch[s]], lv.starts)
        ep, ec, esa = self._pe[player]
        k = t.num_slots
        self.regret += np.bincount(esa, other[ep] * (value[ec] - value[ep]), minlength=k)
        weight = self._weight()
        self.cumulative += np.bincount(esa, weight * own[ep] * self.current[esa], minlength=k)
        slots = self._own_slots[player]
        if self.variant == "cfr+":
            self.regret[slots] = np.maximum(self.regret[slots], 0.0)
        elif self.variant in ("dcfr", "lcfr"):
            r = self.regret[slots]
            ta, tb = self.iteration**self.alpha, self.iteration**self.beta
            self.regret[slots] = np.where(r >= 0, r * (ta / (ta + 1)), r * (tb / (tb + 1)))
        self._match(slots)

    def _match(self, slots: np.ndarray) -> None:
        """Regret matching on these slots (whole infosets)."""
        t = self.tree
        pos = np.maximum(self.regret, 0.0)
        sums = np.bincount(t.sa_infoset, pos, minlength=t.num_infosets)[t.sa_infoset]
        new = np.where(sums > 0, pos / np.where(sums > 0, sums, 1.0), self._uniform)
        self.current[slots] = new[slots]

    def iterate(self, count: int = 1) -> None:
        if self.backend == "c":
            mode = {"cfr": 0, "cfr+": 1}.get(self.variant, 2)
            self._runner.iterate(self.iteration, count, mode, self.alpha, self.beta, self.gamma)
            self.iteration += count
            return
        for _ in range(count):
            self.iteration += 1
            for p in range(self.tree.num_players):
                self._pass(p)

    # -- results ----------------------------------------------------------------
    def average_probs(self) -> np.ndarray:
        """Average strategy per slot (uniform where an infoset was never reached)."""
        t = self.tree
        sums = np.bincount(t.sa_infoset, self.cumulative, minlength=t.num_infosets)[t.sa_infoset]
        return np.where(sums > 0, self.cumulative / np.where(sums > 0, sums, 1.0), self._uniform)

    def average_policy(self) -> dict:
        return self.tree.policy_dict(self.average_probs())

    def current_policy(self) -> dict:
        return self.tree.policy_dict(self.current)

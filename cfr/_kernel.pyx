# cython: boundscheck=False, wraparound=False, cdivision=True
"""One CFR pass over an enumerated tree, in C (the hot loop of cfr.tabular).

Why: on small trees such as Kuhn poker (58 histories) numpy's per-call cost
dominates a vectorised pass; these loops touch each edge three times with no
Python in between. Edges are in breadth-first order of their parents, so a
forward sweep sees every parent's reach before its children and a backward
sweep completes every node's value before its own parent edge reads it.
"""
from libc.math cimport pow


def cfr_pass(const long[::1] par, const long[::1] ch, const long[::1] sa,
             const long[::1] owner, const double[::1] prob, const double[::1] util,
             const double[::1] current, double[::1] regret, double[::1] cumulative,
             double[::1] own, double[::1] other, double[::1] value,
             int player, double weight):
    """Adds ``player``'s counterfactual regrets and ``weight`` x its own reach x
    current policy to ``regret`` / ``cumulative``. ``util``: the player's
    terminal utilities (0 elsewhere); ``own``/``other``/``value``: scratch of
    one entry per node."""
    cdef Py_ssize_t e, n_edges = par.shape[0], n_nodes = util.shape[0]
    cdef long p, c, s
    cdef double w
    own[0] = 1.0
    other[0] = 1.0
    for e in range(n_nodes):
        value[e] = util[e]
    for e in range(n_edges):
        p = par[e]
        c = ch[e]
        s = sa[e]
        w = prob[e] if s < 0 else current[s]
        if owner[e] == player:
            own[c] = own[p] * w
            other[c] = other[p]
        else:
            own[c] = own[p]
            other[c] = other[p] * w
    for e in range(n_edges - 1, -1, -1):
        s = sa[e]
        w = prob[e] if s < 0 else current[s]
        value[par[e]] += w * value[ch[e]]
    for e in range(n_edges):
        if owner[e] == player:
            p = par[e]
            s = sa[e]
            regret[s] += other[p] * (value[ch[e]] - value[p])
            cumulative[s] += weight * own[p] * current[s]


def discount_and_match(const long[::1] infosets, const long[::1] first, const long[::1] count,
                       double[::1] regret, double[::1] current, int mode,
                       double pos_scale, double neg_scale):
    """For each listed infoset: mode 1 clamps regrets at 0 (RM+), mode 2 scales
    positive regrets by ``pos_scale`` and the others by ``neg_scale`` (DCFR);
    then regret matching into ``current`` (uniform when none is positive)."""
    cdef Py_ssize_t i, j, lo, k
    cdef double total, r
    for i in range(infosets.shape[0]):
        lo = first[infosets[i]]
        k = count[infosets[i]]
        total = 0.0
        for j in range(lo, lo + k):
            r = regret[j]
            if mode == 1 and r < 0:
                r = 0.0
            elif mode == 2:
                r = r * (pos_scale if r >= 0 else neg_scale)
            regret[j] = r
            if r > 0:
                total += r
        for j in range(lo, lo + k):
            if total > 0:
                current[j] = regret[j] / total if regret[j] > 0 else 0.0
            else:
                current[j] = 1.0 / k

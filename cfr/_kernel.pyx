# cython: boundscheck=False, wraparound=False, cdivision=True
"""CFR iterations over an enumerated tree, in C (the hot loop of cfr.tabular).

Why: on small trees such as Kuhn poker (58 histories) or a one-round rule set
(21) the cost of calling into numpy, or even into one kernel function per pass,
is most of the work; ``Runner.iterate`` runs whole iterations without returning
to Python. Edges are grouped by parent and parents come in a topological order
(breadth-first in a tree, ``cfr.dag``'s order in a DAG), so a forward sweep
has summed every path's reach into a node before its own edges read it, and a
backward sweep completes every node's value before an edge into it reads it.
"""
from libc.math cimport pow


cdef class Runner:
    """Holds the tree's arrays and the solver's (shared with cfr.tabular, which
    reads ``regret``/``cumulative``/``current`` after each call)."""
    cdef long[::1] par, ch, sa, owner, first, count, pinfo, pstart
    cdef double[::1] prob, current, regret, cumulative, own, other, value
    cdef double[:, ::1] util
    cdef int players

    def __init__(self, par, ch, sa, owner, prob, util, first, count, pinfo, pstart,
                 current, regret, cumulative):
        self.par, self.ch, self.sa, self.owner, self.prob = par, ch, sa, owner, prob
        self.util = util                  # (players, nodes): terminal utilities, 0 elsewhere
        self.first, self.count = first, count
        self.pinfo, self.pstart = pinfo, pstart   # infosets of player p: pinfo[pstart[p]:pstart[p+1]]
        self.current, self.regret, self.cumulative = current, regret, cumulative
        n = util.shape[1]
        import numpy as np
        self.own, self.other, self.value = np.empty(n), np.empty(n), np.empty(n)
        self.players = util.shape[0]

    def iterate(self, long start, long count, int mode, double alpha, double beta,
                double gamma):
        """Iterations start+1 .. start+count. mode 0: CFR; 1: CFR+ (RM+, weight t);
        2: DCFR (regrets scaled by t^a/(t^a+1) or t^b/(t^b+1), weight t^g)."""
        cdef long t
        cdef int p
        cdef double weight, ta, tb
        for t in range(start + 1, start + count + 1):
            for p in range(self.players):
                if mode == 0:
                    weight = 1.0
                elif mode == 1:
                    weight = <double>t
                else:
                    weight = pow(<double>t, gamma)
                self._pass(p, weight)
                ta = pow(<double>t, alpha)
                tb = pow(<double>t, beta)
                self._match(p, mode, ta / (ta + 1), tb / (tb + 1))

    cdef void _pass(self, int player, double weight) noexcept:
        cdef Py_ssize_t e, n_edges = self.par.shape[0], n_nodes = self.util.shape[1]
        cdef long p, c, s
        cdef double w
        for e in range(n_nodes):
            self.value[e] = self.util[player, e]
            self.own[e] = 0.0
            self.other[e] = 0.0
        self.own[0] = 1.0
        self.other[0] = 1.0
        for e in range(n_edges):        # += : a DAG's node sums the reach of every path to it
            p = self.par[e]
            c = self.ch[e]
            s = self.sa[e]
            w = self.prob[e] if s < 0 else self.current[s]
            if self.owner[e] == player:
                self.own[c] += self.own[p] * w
                self.other[c] += self.other[p]
            else:
                self.own[c] += self.own[p]
                self.other[c] += self.other[p] * w
        for e in range(n_edges - 1, -1, -1):
            s = self.sa[e]
            w = self.prob[e] if s < 0 else self.current[s]
            self.value[self.par[e]] += w * self.value[self.ch[e]]
        for e in range(n_edges):
            if self.owner[e] == player:
                p = self.par[e]
                s = self.sa[e]
                self.regret[s] += self.other[p] * (self.value[self.ch[e]] - self.value[p])
                self.cumulative[s] += weight * self.own[p] * self.current[s]

    cdef void _match(self, int player, int mode, double pos_scale, double neg_scale) noexcept:
        cdef Py_ssize_t i, j, lo, k, info
        cdef double total, r
        for i in range(self.pstart[player], self.pstart[player + 1]):
            info = self.pinfo[i]
            lo = self.first[info]
            k = self.count[info]
            total = 0.0
            for j in range(lo, lo + k):
                r = self.regret[j]
                if mode == 1 and r < 0:
                    r = 0.0
                elif mode == 2:
                    r = r * (pos_scale if r >= 0 else neg_scale)
                self.regret[j] = r
                if r > 0:
                    total += r
            for j in range(lo, lo + k):
                if total > 0:
                    self.current[j] = self.regret[j] / total if self.regret[j] > 0 else 0.0
                else:
                    self.current[j] = 1.0 / k


def policy_values(long[::1] par, long[::1] ch, long[::1] sa, double[::1] prob,
                  double[:, ::1] util, double[::1] probs, int player):
    """``player``'s expected return when everyone plays ``probs`` (per slot)."""
    cdef Py_ssize_t e
    cdef long s
    cdef double w
    import numpy as np
    value_arr = np.array(util[player], dtype=float)
    cdef double[::1] value = value_arr
    for e in range(par.shape[0] - 1, -1, -1):
        s = sa[e]
        w = prob[e] if s < 0 else probs[s]
        value[par[e]] += w * value[ch[e]]
    return value[0]


def best_response_value(long[::1] par, long[::1] ch, long[::1] sa, long[::1] owner,
                        double[::1] prob, double[:, ::1] util, double[::1] probs,
                        long[::1] estart, long[::1] node_infoset, Py_ssize_t num_infosets,
                        long[::1] inodes_start, long[::1] inodes, int player):
    """``player``'s best-response return against the others' ``probs``.

    Walking nodes from the last to the first, the first node met of an
    information set must find every child of every node of that set valued
    (``cfr.dag`` numbers observation-mode nodes by depth; a position-mode set
    is one node). There the set's best action is chosen from the others' reach
    summed over its nodes, and every node of the set takes it.
    ``estart[n]..estart[n+1]``: node n's edges (grouped by parent);
    ``inodes[inodes_start[i]..inodes_start[i+1]]``: set i's nodes."""
    cdef Py_ssize_t e, n, m, k, j, best, n_nodes = util.shape[1]
    cdef long s, info
    cdef double w, q, best_q
    import numpy as np
    other_arr = np.zeros(n_nodes)
    value_arr = np.array(util[player], dtype=float)
    choice_arr = np.full(num_infosets, -1, dtype=np.int64)
    cdef double[::1] other = other_arr, value = value_arr
    cdef long[::1] choice = choice_arr
    other[0] = 1.0
    for e in range(par.shape[0]):
        s = sa[e]
        w = 1.0 if owner[e] == player else (prob[e] if s < 0 else probs[s])
        other[ch[e]] += other[par[e]] * w
    for n in range(n_nodes - 1, -1, -1):
        if estart[n] == estart[n + 1]:
            continue                                # terminal
        if owner[estart[n]] != player:
            for e in range(estart[n], estart[n + 1]):
                s = sa[e]
                w = prob[e] if s < 0 else probs[s]
                value[n] += w * value[ch[e]]
            continue
        info = node_infoset[n]
        if choice[info] < 0:
            k = estart[n + 1] - estart[n]
            best, best_q = 0, 0.0
            for j in range(k):
                q = 0.0
                for m in range(inodes_start[info], inodes_start[info + 1]):
                    q += other[inodes[m]] * value[ch[estart[inodes[m]] + j]]
                if j == 0 or q > best_q:
                    best, best_q = j, q
            choice[info] = best
        value[n] = value[ch[estart[n] + choice[info]]]
    return value[0]


def backward_induction(long[::1] ch, double[::1] prob, double[:, ::1] util, long[::1] estart,
                       long[::1] node_player):
    """Subgame-perfect values over a perfect-information DAG (``cfr.dag``, position
    mode): from the last node to the first, chance averages its children and the
    mover takes the child best for itself, the first (lowest action) on ties.
    Returns (values per player and node, the chosen edge index of each decision
    node, -1 elsewhere; the number of decision positions with a tie)."""
    cdef Py_ssize_t n, e, j, best, k, players = util.shape[0], n_nodes = util.shape[1]
    cdef long mover, ties = 0
    cdef double w, top
    import numpy as np
    value_arr = np.array(util, dtype=float)
    choice_arr = np.full(n_nodes, -1, dtype=np.int64)
    cdef double[:, ::1] value = value_arr
    cdef long[::1] choice = choice_arr
    for n in range(n_nodes - 1, -1, -1):
        if estart[n] == estart[n + 1]:
            continue
        mover = node_player[n]
        if mover < 0:                                   # chance
            for e in range(estart[n], estart[n + 1]):
                w = prob[e]
                for k in range(players):
                    value[k, n] += w * value[k, ch[e]]
            continue
        top = value[mover, ch[estart[n]]]
        for j in range(1, estart[n + 1] - estart[n]):
            top = max(top, value[mover, ch[estart[n] + j]])
        best = -1                                       # the first within 1e-12 of the best,
        for j in range(estart[n + 1] - estart[n]):      # as solvers.normal_form._pick
            if value[mover, ch[estart[n] + j]] >= top - 1e-12:
                if best >= 0:
                    ties += 1
                    break
                best = j
        choice[n] = best
        for k in range(players):
            value[k, n] = value[k, ch[estart[n] + best]]
    return value_arr, choice_arr, ties

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
    cdef long[::1] par, ch, sa, owner, first, count, pinfo, pstart, pedge, pedge_start
    cdef double[::1] prob, current, regret, cumulative, own, other, value
    cdef double[:, ::1] util
    cdef int players

    def __init__(self, par, ch, sa, owner, prob, util, first, count, pinfo, pstart,
                 current, regret, cumulative):
        import numpy as np
        self.par, self.ch, self.sa, self.owner, self.prob = par, ch, sa, owner, prob
        self.util = util                  # (players, nodes): terminal utilities, 0 elsewhere
        self.first, self.count = first, count
        self.pinfo, self.pstart = pinfo, pstart   # infosets of player p: pinfo[pstart[p]:pstart[p+1]]
        self.current, self.regret, self.cumulative = current, regret, cumulative
        n = util.shape[1]
        self.own, self.other, self.value = np.empty(n), np.empty(n), np.empty(n)
        self.players = util.shape[0]
        # player p's decision edges, ascending: pedge[pedge_start[p]:pedge_start[p+1]]
        mine = [np.flatnonzero(np.asarray(owner) == p) for p in range(self.players)]
        self.pedge = np.concatenate(mine + [np.zeros(0, dtype=np.int64)]).astype(np.int64)
        self.pedge_start = np.cumsum([0] + [len(m) for m in mine]).astype(np.int64)

    def iterate(self, long start, long count, int mode, double alpha, double beta,
                double gamma):
        """Iterations start+1 .. start+count. mode 0: CFR; 1: CFR+ (RM+, weight t);
        2: DCFR (regrets scaled by t^a/(t^a+1) or t^b/(t^b+1), weight t^g)."""
        cdef long t
        cdef int p
        cdef double weight, ta = 0.0, tb = 0.0
        for t in range(start + 1, start + count + 1):
            if mode == 2:
                ta = pow(<double>t, alpha)
                tb = pow(<double>t, beta)
            for p in range(self.players):
                if mode == 0:
                    weight = 1.0
                elif mode == 1:
                    weight = <double>t
                else:
                    weight = pow(<double>t, gamma)
                self._pass(p, weight)
                self._match(p, mode, ta / (ta + 1), tb / (tb + 1))

    cdef void _pass(self, int player, double weight) noexcept:
        """Reach forward (with the average: a node's reach is complete when its own
        edges come), values backward, then the player's regrets; each slot's sums
        are taken in edge order, so the figures do not depend on how loops are cut."""
        cdef Py_ssize_t i, e, n, n_edges = self.par.shape[0], n_nodes = self.util.shape[1]
        cdef long p, c, s
        cdef double w
        cdef double *value = &self.value[0]
        cdef double *own = &self.own[0]
        cdef double *other = &self.other[0]
        cdef const double *util = &self.util[player, 0]
        for n in range(n_nodes):
            value[n] = util[n]
            own[n] = 0.0
            other[n] = 0.0
        own[0] = 1.0
        other[0] = 1.0
        if n_edges == 0:
            return
        cdef const long *par = &self.par[0]
        cdef const long *ch = &self.ch[0]
        cdef const long *sa = &self.sa[0]
        cdef const long *owner = &self.owner[0]
        cdef const double *prob = &self.prob[0]
        cdef double *current = &self.current[0]
        cdef double *regret = &self.regret[0]
        cdef double *cumulative = &self.cumulative[0]
        for e in range(n_edges):        # += : a DAG's node sums the reach of every path to it
            p = par[e]
            c = ch[e]
            s = sa[e]
            if owner[e] == player:
                w = current[s]
                own[c] += own[p] * w
                other[c] += other[p]
                cumulative[s] += weight * own[p] * w
            else:
                w = prob[e] if s < 0 else current[s]
                own[c] += own[p]
                other[c] += other[p] * w
        for e in range(n_edges - 1, -1, -1):
            s = sa[e]
            w = prob[e] if s < 0 else current[s]
            value[par[e]] += w * value[ch[e]]
        for i in range(self.pedge_start[player], self.pedge_start[player + 1]):
            e = self.pedge[i]
            p = par[e]
            regret[sa[e]] += other[p] * (value[ch[e]] - value[p])

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

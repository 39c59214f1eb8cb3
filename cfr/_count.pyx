# cython: language_level=3, boundscheck=False, wraparound=False
"""Count the histories of a Cython core's game tree without building it (the
kernel of ``cfr.count``).

Why: tabular CFR (``cfr.tree.enumerate_tree``) and backward induction refuse
games past a number of histories, but they found out by walking up to that
many, which on Centipede9 took 554 s and 9.75 GB before the refusal. The
number of histories below a position depends only on the position (what
``GameCore.hash`` identifies: everything that decides the legal actions and
the outcome from here on), so a walk memoised by that hash visits each
position once however many histories lead to it, and counts exactly (Python
integers: the counts of long games pass 2**64).

It counts the tree the turn-based OpenSpiel game has, the one
``enumerate_tree`` walks: a simultaneous round of the core (consecutive hidden
decisions) is one SIMULTANEOUS node in ``games.openspiel.CoreState``, and
``turn_based_simultaneous_game`` lays that out as player 0's decision, then
player 1's under each of player 0's choices, and so on (players without a
legal action skipped), the joint action applied after the last. So a round
with choice counts m1..mk (ascending player order) has 1 + m1 + m1*m2 + ... +
m1*...*m(k-1) decision nodes before its m1*...*mk outcomes.
"""
from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc

from games.core cimport GameCore, PLAYER_CHANCE


class TooManyPositions(Exception):
    """The walk met more distinct positions than it was allowed. Lower bounds of
    the tree: ``positions`` (each non-terminal position is reached by at least one
    non-terminal history) and the largest subtree counted by then (``Walk.largest``)."""

    def __init__(self, positions):
        super().__init__(f"more than {positions:,} distinct positions")
        self.positions = positions


cdef class Walk:
    """One memoised count over one core's tree. ``memo``: position hash ->
    (histories, non-terminal histories) of the subtree below that position."""
    cdef dict memo
    cdef Py_ssize_t max_positions
    cdef public object largest, largest_inner     # the largest subtree counted so far

    def __init__(self, max_positions):
        self.memo = {}
        self.max_positions = max_positions
        self.largest = self.largest_inner = 0

    @property
    def positions(self):
        return len(self.memo)

    def count(self, GameCore core):
        """(histories, non-terminal histories) of the tree below ``core``'s position."""
        return self._count(core)

    cdef tuple _count(self, GameCore core):
        cdef uint64_t h
        cdef int n, i, player
        cdef int* buf
        cdef double* probs
        cdef GameCore child
        if core.is_terminal():
            return (1, 0)
        h = core.hash()
        found = self.memo.get(h)
        if found is not None:
            return found
        if len(self.memo) >= self.max_positions:
            raise TooManyPositions(len(self.memo))
        total, inner = 1, 1
        player = core.current_player()
        if player == PLAYER_CHANCE:
            buf = <int*>malloc(max(core.max_chance_outcomes, 1) * sizeof(int))
            probs = <double*>malloc(max(core.max_chance_outcomes, 1) * sizeof(double))
            n = core.chance_outcomes(buf, probs)
            actions = [buf[i] for i in range(n)]
            free(buf)
            free(probs)
        elif core.simultaneous_moves and core.simultaneous_player_list():
            return self._round(core, h)
        else:
            buf = <int*>malloc(max(core.num_actions, 1) * sizeof(int))
            n = core.legal_actions(buf)
            actions = [buf[i] for i in range(n)]
            free(buf)
        for a in actions:
            child = core.copy()
            child.apply(a)
            t, k = self._count(child)
            total += t
            inner += k
        return self._store(h, total, inner)

    cdef tuple _store(self, uint64_t h, object total, object inner):
        if total > self.largest:
            self.largest = total
        if inner > self.largest_inner:
            self.largest_inner = inner
        result = (total, inner)
        self.memo[h] = result
        return result

    cdef tuple _round(self, GameCore core, uint64_t h):
        """A simultaneous round: the turn-based form's decision nodes, then every joint outcome."""
        cdef GameCore child
        order = core.simultaneous_player_list()          # the order the core applies plans in
        lists = {p: core.player_legal_action_list(p) for p in range(core.num_players)}
        deciding = [p for p in range(core.num_players) if lists[p]]
        if sorted(order) != deciding:
            raise ValueError(f"a round's players {order} are not those with a choice {deciding}")
        decisions, width = 0, 1
        for p in deciding:                                  # the turn-based form's nodes of the round
            decisions += width
            width *= len(lists[p])
        total, inner = decisions, decisions
        choice = {p: 0 for p in deciding}
        while True:
            child = core.copy()
            for p in order:
                child.apply(lists[p][choice[p]])
            t, k = self._count(child)
            total += t
            inner += k
            for p in deciding:                              # next joint action (an odometer)
                choice[p] += 1
                if choice[p] < len(lists[p]):
                    break
                choice[p] = 0
            else:
                break
        return self._store(h, total, inner)

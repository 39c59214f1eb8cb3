# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The walk behind ``cfr.dag``: a Cython core's game as a DAG of merged histories,
and best responses over it.

Why a DAG: 3Blotto13 has 3.8 x 10^12 histories but its futures depend on 58,331
positions; the centipedes have over 2 x 10^12 histories and 3.5 million positions.
Histories that reach one node of the DAG have the same future (same position, so
the same legal actions, outcomes and, by the node's key, the same information
states from there on), so CFR and best responses need each node once, weighted
by the reach summed over the histories that lead to it. ``cfr.dag`` states when
that merge is exact (its two modes) and this walk checks those conditions while
it builds.

The walk is a memoised depth-first search. A node's outgoing edges are appended
as one block once its children are numbered, so edges are grouped by parent;
``cfr.dag`` renumbers nodes into a topological order afterwards.
"""
from array import array

from libc.stdlib cimport free, malloc

from games.core cimport GameCore, PLAYER_CHANCE, PLAYER_TERMINAL

MODE_POSITION = 0       # perfect information: one node and one information set per position
MODE_OBSERVATION = 1    # blind games: one node per (position, every player's observation)


class NotExact(ValueError):
    """Merging histories into this DAG would change the game (the mode's condition fails)."""


class TooManyNodes(ValueError):
    def __init__(self, nodes):
        super().__init__(f"more than {nodes:,} DAG nodes")
        self.nodes = nodes


cdef class Builder:
    """One walk. After ``build``: per node (in discovery order) player, depth,
    information set (-1 off decision nodes), finish rank, terminal utilities; per
    edge (grouped by parent, blocks in post-order) parent, child, chance
    probability (1 on decision edges) and index within its parent (its action is
    that index in the parent's legal actions)."""
    cdef public object node_player, node_depth, node_infoset, node_finish, utilities
    cdef public object e_parent, e_child, e_prob, e_index
    cdef public list infoset_actions, infoset_player, infoset_keys
    cdef dict memo, infosets, joint, trans, depth_mover, expect
    cdef int players, mode
    cdef Py_ssize_t max_nodes
    cdef long finished

    def __init__(self, int players, int mode, Py_ssize_t max_nodes):
        self.players, self.mode, self.max_nodes = players, mode, max_nodes
        self.node_player, self.node_depth = array("q"), array("q")
        self.node_infoset, self.node_finish = array("q"), array("q")
        self.utilities = array("d")
        self.e_parent, self.e_child = array("q"), array("q")
        self.e_prob, self.e_index = array("d"), array("q")
        self.infoset_actions, self.infoset_player, self.infoset_keys = [], [], []
        self.memo, self.infosets, self.joint, self.trans, self.depth_mover = {}, {}, {}, {}, {}
        self.expect = {}
        self.finished = 0

    def build(self, GameCore root):
        key, obs = self._key(root)
        expected = self._expectation(root) if root.current_player() == PLAYER_CHANCE else None
        if expected is not None:
            self._leaf(key, 0, expected)             # nobody ever decides: one leaf
        else:
            self._visit(root, key, obs, 0)

    cdef tuple _key(self, GameCore core):
        """The node's key, and every player's observation (observation mode)."""
        cdef int p
        if self.mode == MODE_POSITION:
            return core.hash(), None
        obs = tuple(core.player_observation_string(p) for p in range(self.players))
        return (core.hash(), obs), obs

    cdef list _actions(self, GameCore core, int player):
        """[(action, probability)] of a chance or decision node."""
        cdef int n, i
        cdef int* buf
        cdef double* probs
        if player == PLAYER_CHANCE:
            buf = <int*>malloc(max(core.max_chance_outcomes, 1) * sizeof(int))
            probs = <double*>malloc(max(core.max_chance_outcomes, 1) * sizeof(double))
            n = core.chance_outcomes(buf, probs)
            out = [(buf[i], probs[i]) for i in range(n)]
            free(probs)
        else:
            buf = <int*>malloc(max(core.num_actions, 1) * sizeof(int))
            n = core.legal_actions(buf)
            out = [(buf[i], 1.0) for i in range(n)]
        free(buf)
        return out

    cdef long _visit(self, GameCore core, object key, object obs, long depth) except -1:
        cdef long node = len(self.node_player), child_id
        cdef int player, p, _p
        cdef double* util
        cdef GameCore child
        if node >= self.max_nodes:
            raise TooManyNodes(self.max_nodes)
        self.memo[key] = node
        self.node_depth.append(depth)
        self.node_finish.append(-1)
        if core.is_terminal():
            self.node_player.append(PLAYER_TERMINAL)
            self.node_infoset.append(-1)
            util = <double*>malloc(self.players * sizeof(double))
            core.returns(util)
            for p in range(self.players):
                self.utilities.append(util[p])
            free(util)
            self.node_finish[node] = self.finished
            self.finished += 1
            return node
        for _p in range(self.players):
            self.utilities.append(0.0)
        if core.simultaneous_moves and core.simultaneous_player_list():
            raise NotExact("simultaneous rounds are not walked as a DAG (use the turn-based "
                           "tree of cfr.tree)")
        player = core.current_player()
        self.node_player.append(player)
        actions = self._actions(core, player)
        self.node_infoset.append(self._infoset(core, player, obs, depth, actions))
        if self.mode == MODE_OBSERVATION:
            self._check_depth_mover(depth, player)
        children = []
        for a, prob in actions:
            child = core.copy()
            child.apply(a)
            ckey, cobs = self._key(child)
            children.append((a, prob, child, ckey, cobs))
        if self.mode == MODE_OBSERVATION:
            self._check_blind(core, player, obs, children)
        ids = []
        for _, _, child, ckey, cobs in children:
            found = self.memo.get(ckey)
            if found is None:
                expected = self._expectation(child) if child.current_player() == PLAYER_CHANCE else None
                child_id = (self._leaf(ckey, depth + 1, expected) if expected is not None
                            else self._visit(child, ckey, cobs, depth + 1))
            else:
                child_id = found
                if self.node_finish[child_id] < 0:
                    raise NotExact(f"the game has a cycle of positions at depth {depth}")
                if self.mode == MODE_OBSERVATION and self.node_depth[child_id] != depth + 1:
                    raise NotExact("one node is reached after different numbers of moves, so "
                                   "a player's turn count is not a function of its observations")
            ids.append(child_id)
        for j, (a, prob, _, _, _) in enumerate(children):
            self.e_parent.append(node)
            self.e_child.append(ids[j])
            self.e_prob.append(prob if player == PLAYER_CHANCE else 1.0)
            self.e_index.append(j)
        self.node_finish[node] = self.finished
        self.finished += 1
        return node

    cdef object _expectation(self, GameCore core):
        """Every player's expected return below ``core`` if no player decides there
        (a chance-only subtree), else None; memoised by position. Why: a centipede's
        closing Chaos phase is 4.7 of the 6 million nodes a full walk meets, and this
        lean walk (no node, edge or information set) takes them several times faster."""
        cdef int p
        cdef double* util
        cdef GameCore child
        if core.is_terminal():
            util = <double*>malloc(self.players * sizeof(double))
            core.returns(util)
            out = tuple(util[p] for p in range(self.players))
            free(util)
            return out
        h = core.hash()
        if h in self.expect:
            return self.expect[h]
        if core.current_player() != PLAYER_CHANCE or (core.simultaneous_moves
                                                      and core.simultaneous_player_list()):
            self.expect[h] = None
            return None
        total = [0.0] * self.players
        for a, prob in self._actions(core, PLAYER_CHANCE):
            child = core.copy()
            child.apply(a)
            below = self._expectation(child)
            if below is None:
                self.expect[h] = None
                return None
            for p in range(self.players):
                total[p] += prob * below[p]
        out = tuple(total)
        self.expect[h] = out
        return out

    cdef long _leaf(self, object key, long depth, tuple utilities) except -1:
        """A node holding the expected returns of a chance-only subtree (``_expectation``)."""
        cdef long node = len(self.node_player)
        if node >= self.max_nodes:
            raise TooManyNodes(self.max_nodes)
        self.memo[key] = node
        self.node_depth.append(depth)
        self.node_finish.append(self.finished)
        self.finished += 1
        self.node_player.append(PLAYER_TERMINAL)
        self.node_infoset.append(-1)
        for u in utilities:
            self.utilities.append(u)
        return node

    cdef long _infoset(self, GameCore core, int player, object obs, long depth, list actions) except -2:
        if player == PLAYER_CHANCE:
            return -1
        legal = [a for a, _ in actions]
        if self.mode == MODE_POSITION:
            key = core.hash()                     # perfect information: the node itself
        else:
            key = (player, depth, obs[player])
        found = self.infosets.get(key)
        if found is not None:
            if self.infoset_actions[found] != legal:
                raise NotExact(f"player {player} has different legal actions under one "
                               "observation: its observation does not determine what it may do")
            return found
        index = len(self.infoset_keys)
        self.infosets[key] = index
        self.infoset_keys.append(key)
        self.infoset_player.append(player)
        self.infoset_actions.append(legal)
        return index

    cdef int _check_depth_mover(self, long depth, int player) except -1:
        known = self.depth_mover.setdefault(depth, player)
        if known != player:
            raise NotExact(f"whose turn it is after {depth} moves depends on the moves "
                           f"(player {known} or {player}): the turn order is not fixed")
        return 0

    cdef int _check_blind(self, GameCore core, int player, tuple obs, list children) except -1:
        """Observation mode's condition (``cfr.dag``): what a player observes
        changes only with its own moves, as a function of its observation and
        its action; nobody learns anything of another's move or chance's but
        that it happened; and the observations together determine the position."""
        cdef int p
        cdef GameCore child
        known = self.joint.setdefault(obs, core.hash())
        if known != core.hash():
            raise NotExact("two positions look the same to every player: the players' "
                           "observations together do not determine the position")
        for p in range(self.players):
            own = p == player
            first_key = None
            for a, _, child, _, cobs in children:
                if child.is_terminal():
                    continue                # what the end shows decides nothing more
                step = (p, obs[p], a if own else None)
                seen = self.trans.setdefault(step, cobs[p])
                if seen != cobs[p]:
                    raise NotExact(f"player {p}'s observation after "
                                   f"{'its own move' if own else 'another move'} depends on "
                                   "more than its observation and its action")
                if not own:
                    info = child.information_state_key(p)
                    if first_key is None:
                        first_key = info
                    elif info != first_key:
                        raise NotExact(f"player {p}'s information state tells apart the moves "
                                       f"of {'chance' if player == PLAYER_CHANCE else f'player {player}'}: "
                                       "the game is not blind")
        return 0

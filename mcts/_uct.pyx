# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# distutils: extra_compile_args = -O3
"""UCT with random playouts and MCTS-Solver over the core protocol (C kernel).

One search serves every Cython game: it only calls ``GameCore``'s ``cdef``
methods. The tree lives in one flat, growable C array of 20-byte ``Node``
structs, and a search makes no Python object per node (only one core copy per
simulation, its working state). The children of a node are one contiguous
block, so UCT scans memory linearly; a child is allocated only when it is
first tried (most legal moves deep in a tree never are), and a full block is
moved to one twice its size (1, 2, 4, ... nodes), old blocks being reused from
per-size free lists. This keeps the tree to about two nodes per simulation
instead of one node per legal move of every expanded position.

Choices that matter for correctness, and why:
- Values are backed up per node from the perspective of the player who chose
  the action leading to it (``returns[player at parent]``), never by
  alternating signs: in these games one player often acts several times in a
  row, and the protocol supports more than two players.
- Chance nodes (``current_player() == PLAYER_CHANCE``) pick an outcome by its
  probability (no UCT statistics are used there).
- A node gets its first child on its second visit, as OpenSpiel's C++ MCTS
  expands it then; untried moves are tried first, one per visit, in random
  order, and only after all are tried does UCT choose among them.
- MCTS-Solver (``solve=True``) is sound only for two-player zero-sum games
  (the returns of player 1 are minus those of player 0). The caller says so
  with ``zero_sum``, and every terminal position a proof rests on is checked
  (a non-zero-sum one raises ValueError rather than yield a wrong proof).
  A solved node stores its exact value for player 0. A decision node is
  solved when one child is worth ``max_utility`` to its mover (an outright
  win) or when all children are solved (the mover's best); a chance node is
  solved when all outcomes are solved, with their probability-weighted value
  (exact expectimax). Proven losses for the mover are never selected. A
  solved root ends the search. Wins and losses propagate quickly; a draw or
  an expected value needs every child solved, which UCT reaches slowly since
  it keeps visiting solved children of good value (a large ``uct_c`` helps).
- For more than two players or general-sum games, proofs are switched off (a
  terminal node is still evaluated exactly, without a playout): without a
  fixed model of the other players, the "best" child is not well defined.
- Values are 32-bit floats: sums of +-1 returns are exact up to 2**24 visits
  of a node, and past that the rounding (1e-7 relative) is far below UCT's noise.
"""
import gc

from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy
from libc.math cimport sqrt, log, fabs, INFINITY
from libc.stdint cimport int8_t, uint8_t, uint16_t, int32_t, uint32_t
from games.clock cimport monotonic_seconds
from cpython.exc cimport PyErr_CheckSignals
from games.core cimport GameCore, PLAYER_CHANCE, PLAYER_TERMINAL
from games.rng cimport Rng, rng_seed, rng_below, rng_uniform


cdef struct Node:
    int32_t first_child     # index of the first child in the pool; -1 until expanded
    uint32_t visits
    float value             # unsolved: sum of the parent mover's returns; solved: exact value for player 0
    uint16_t action         # the action that leads here from the parent
    uint16_t num_children   # legal actions (decision) or outcomes (chance); 0 until expanded
    uint16_t num_tried      # children allocated so far, all of them visited
    int8_t player           # player to act here; PLAYER_UNSET until first reached
    uint8_t solved

cdef enum:
    PLAYER_UNSET = -100
    TABLE_SIZE = 1 << 16
    NUM_CLASSES = 18        # child blocks hold 1, 2, 4, ... 2**17 nodes


# 1/n and 1/sqrt(n) for small n: UCT evaluates them for every child on the
# path, and a table load is cheaper than a division and a square root.
cdef float INV[TABLE_SIZE]
cdef float INV_SQRT[TABLE_SIZE]

cdef void _init_tables() noexcept:
    cdef int i
    INV[0] = 0.0
    INV_SQRT[0] = 0.0
    for i in range(1, TABLE_SIZE):
        INV[i] = 1.0 / i
        INV_SQRT[i] = 1.0 / sqrt(<double>i)

_init_tables()


cdef class UCTSearch:
    """A reusable searcher: configure once, call ``search(core)`` per move.

    The node pool is kept between searches (reset, not freed), so a bot that
    searches every move allocates only while its tree outgrows earlier ones.
    Successive searches continue one random stream, so a sequence of searches
    is reproducible from its seed when only the simulation budget limits them.
    """
    cdef readonly double uct_c
    cdef readonly long max_simulations
    cdef readonly double max_time
    cdef readonly bint solve
    cdef readonly bint zero_sum
    cdef readonly double max_utility
    cdef readonly long max_nodes
    cdef readonly unsigned long long seed
    cdef Rng rng
    cdef Node* nodes
    cdef long capacity
    cdef long num_nodes
    cdef readonly long peak_nodes
    # scratch sized for the game at hand, (re)allocated by _prepare
    cdef int* path
    cdef int* buf
    cdef double* probs
    cdef double* chance_probs   # per depth: outcome probabilities of the chance node there
    cdef double* ret
    cdef int path_cap
    cdef int buf_cap
    cdef int num_players
    cdef int max_outcomes
    cdef uint8_t* mark         # per action: already a child? (scratch, kept all-zero)
    cdef int32_t free_head[NUM_CLASSES]

    def __cinit__(self):
        self.nodes = NULL
        self.path = NULL
        self.buf = NULL
        self.probs = NULL
        self.chance_probs = NULL
        self.ret = NULL
        self.mark = NULL

    def __dealloc__(self):
        free(self.mark)
        free(self.nodes)
        free(self.path)
        free(self.buf)
        free(self.probs)
        free(self.chance_probs)
        free(self.ret)

    def __init__(self, double uct_c=1.4, long max_simulations=10000, double max_time=0.0,
                 unsigned long long seed=0, bint solve=True, bint zero_sum=True,
                 double max_utility=1.0, long max_nodes=0):
        # ``not x >= 0`` also catches NaN, which compares false with everything and
        # would make a time budget that never runs out
        if not (uct_c >= 0 and uct_c < INFINITY):
            raise ValueError(f"uct_c must be a finite number >= 0, got {uct_c}")
        if max_simulations < 0:
            raise ValueError(f"max_simulations must be >= 0 (0: no limit), got {max_simulations}")
        if not (max_time >= 0 and max_time < INFINITY):
            raise ValueError(f"max_time must be a finite number of seconds >= 0 (0: no limit), "
                             f"got {max_time}")
        if max_simulations == 0 and max_time == 0:
            raise ValueError("give a simulation budget (max_simulations > 0), "
                             "a time budget (max_time > 0 seconds), or both")
        if max_nodes < 0:
            raise ValueError(f"max_nodes must be >= 0 (0: no limit), got {max_nodes}")
        self.uct_c = uct_c
        self.max_simulations = max_simulations
        self.max_time = max_time
        self.solve = solve
        self.zero_sum = zero_sum
        self.max_utility = max_utility
        self.max_nodes = max_nodes
        self.seed = seed
        rng_seed(&self.rng, seed)
        self.capacity = 0
        self.num_nodes = 0
        self.peak_nodes = 0

    @property
    def bytes_per_node(self):
        return sizeof(Node)

    def tree(self):
        """The last search's tree as a list of ``(first_child, action, visits,
        value, num_children, num_tried, player, solved)`` tuples, node 0 the
        root (for tests and debugging; ``value`` is the raw stored float)."""
        cdef long i
        cdef Node* n
        out = []
        for i in range(self.num_nodes):
            n = self.nodes + i
            out.append((n.first_child, n.action, n.visits, n.value, n.num_children,
                        n.num_tried, n.player, bool(n.solved)))
        return out

    @property
    def allocated_bytes(self):
        """Bytes of the node pool as allocated now (its high-water mark)."""
        return self.capacity * sizeof(Node)

    # -- memory ------------------------------------------------------------

    cdef bint _reserve(self, long extra) except -1:
        """Make room for ``extra`` more nodes; False when the node limit forbids it."""
        cdef long need = self.num_nodes + extra
        cdef long cap
        cdef Node* grown
        if self.max_nodes and need > self.max_nodes:
            return False
        if need <= self.capacity:
            return True
        cap = self.capacity * 2 if self.capacity else 4096
        while cap < need:
            cap *= 2
        if self.max_nodes and cap > self.max_nodes:
            cap = self.max_nodes
        grown = <Node*>realloc(self.nodes, cap * sizeof(Node))
        if grown == NULL:
            raise MemoryError(f"MCTS node pool: cannot grow to {cap} nodes")
        self.nodes = grown
        self.capacity = cap
        return True

    cdef int _prepare(self, GameCore root) except -1:
        cdef int width = root.num_actions
        if root.max_chance_outcomes > width:
            width = root.max_chance_outcomes
        if root.num_actions > 65535 or root.max_chance_outcomes > 65535:
            raise ValueError("games with more than 65535 actions are not supported")
        if width > self.buf_cap or root.num_players != self.num_players:
            free(self.buf)
            free(self.probs)
            free(self.ret)
            free(self.chance_probs)
            free(self.mark)
            self.mark = <uint8_t*>calloc(width, 1)
            self.buf = <int*>malloc(width * sizeof(int))
            self.probs = <double*>malloc(width * sizeof(double))
            self.ret = <double*>malloc((root.num_players + 1) * sizeof(double))
            self.chance_probs = NULL
            self.path_cap = 0
            self.buf_cap = width
            self.num_players = root.num_players
            if self.buf == NULL or self.probs == NULL or self.ret == NULL or self.mark == NULL:
                raise MemoryError()
        self.max_outcomes = self.buf_cap
        self._grow_path(root.max_game_length + 2)
        return 0

    cdef int _grow_path(self, int length) except -1:
        """Room for a path of ``length`` nodes. The search also grows it when a
        game runs longer than ``max_game_length`` says (OpenSpiel's figure
        leaves out chance moves)."""
        cdef int cap = self.path_cap
        cdef int* path
        cdef double* probs
        if length <= cap:
            return 0
        if cap < 64:
            cap = 64
        while cap < length:
            cap *= 2
        path = <int*>realloc(self.path, cap * sizeof(int))
        if path == NULL:
            raise MemoryError()
        self.path = path
        probs = <double*>realloc(self.chance_probs, <size_t>cap * self.max_outcomes * sizeof(double))
        if probs == NULL:
            raise MemoryError()
        self.chance_probs = probs
        self.path_cap = cap
        return 0

    # -- the search ----------------------------------------------------------

    cdef inline void _init_node(self, Node* node, int action) noexcept:
        node.first_child = -1
        node.visits = 0
        node.value = 0.0
        node.action = <uint16_t>action
        node.num_children = 0
        node.num_tried = 0
        node.player = PLAYER_UNSET
        node.solved = 0

    cdef int32_t _alloc_block(self, int size_class) except -2:
        """A block of 2**size_class nodes: a freed one if any, else new; -1 at the node cap."""
        cdef int32_t head = self.free_head[size_class]
        if head >= 0:
            self.free_head[size_class] = self.nodes[head].first_child
            return head
        if not self._reserve(1 << size_class):
            return -1
        head = <int32_t>self.num_nodes
        self.num_nodes += 1 << size_class
        return head

    cdef bint _expand_chance(self, int index, GameCore state) except -1:
        """All outcomes of a chance node at once, in the core's order."""
        cdef int k = state.chance_outcomes(self.buf, self.probs)
        cdef int i, size_class = 0
        cdef int32_t block
        if k <= 0:
            return False
        while (1 << size_class) < k:
            size_class += 1
        block = self._alloc_block(size_class)
        if block < 0:
            return False
        for i in range(k):
            self._init_node(self.nodes + block + i, self.buf[i])
        self.nodes[index].first_child = block
        self.nodes[index].num_children = k
        self.nodes[index].num_tried = k
        return True

    cdef int _add_child(self, int index, GameCore state) except -2:
        """Allocate and return a child of decision node ``index`` for a
        uniformly chosen untried action; -1 if there is none or no room."""
        cdef Node* node = self.nodes + index
        cdef int t = node.num_tried
        cdef int k = state.legal_actions(self.buf)
        cdef int i, m, size_class
        cdef int32_t block, old
        cdef Node* children
        if k <= 0 or t >= k:
            return -1
        if t == 0:
            block = self._alloc_block(0)
            if block < 0:
                return -1
            node = self.nodes + index
            node.first_child = block
            node.num_children = k
        elif (t & (t - 1)) == 0:
            # the block (t = 2**c nodes) is full: move it to one twice as large
            size_class = 0
            while (1 << size_class) < t:
                size_class += 1
            block = self._alloc_block(size_class + 1)
            if block < 0:
                return -1
            node = self.nodes + index
            old = node.first_child
            memcpy(self.nodes + block, self.nodes + old, t * sizeof(Node))
            self.nodes[old].first_child = self.free_head[size_class]
            self.free_head[size_class] = old
            node.first_child = block
        children = self.nodes + node.first_child
        if t == 0:
            m = k
        else:
            for i in range(t):
                self.mark[children[i].action] = 1
            m = 0
            for i in range(k):
                if not self.mark[self.buf[i]]:
                    self.buf[m] = self.buf[i]
                    m += 1
            for i in range(t):
                self.mark[children[i].action] = 0
            if m == 0:
                return -1
        self._init_node(children + t, self.buf[rng_below(&self.rng, m)])
        node.num_tried = t + 1
        return node.first_child + t

    cdef inline int _select_uct(self, Node* node, bint solving) noexcept:
        """Index of the child with the highest UCT score for the node's mover."""
        cdef int q = node.player
        cdef Node* children = self.nodes + node.first_child
        cdef int k, best = -1
        cdef uint32_t n
        cdef float mean, score, best_score = -INFINITY
        cdef float explore = self.uct_c * sqrt(log(<double>node.visits))
        cdef float loss = -self.max_utility
        for k in range(node.num_children):
            n = children[k].visits
            if children[k].solved:
                mean = children[k].value if q == 0 else -children[k].value
                if mean <= loss:
                    continue          # a proven loss is never worth a simulation
            elif n < TABLE_SIZE:
                mean = children[k].value * INV[n]
            else:
                mean = children[k].value / n
            if n < TABLE_SIZE:
                score = mean + explore * INV_SQRT[n]
            else:
                score = mean + explore / sqrt(<double>n)
            if score > best_score:
                best_score = score
                best = k
        if best < 0:     # every child lost: the node is about to be solved; any will do
            best = 0
        return node.first_child + best

    cdef int _select_chance(self, Node* node, GameCore state, int depth) noexcept:
        """Sample an outcome by its probability; remember the distribution."""
        cdef int k = state.chance_outcomes(self.buf, self.probs)
        cdef double u = rng_uniform(&self.rng)
        cdef double* saved = self.chance_probs + <size_t>depth * self.max_outcomes
        cdef int i, chosen = k - 1
        for i in range(k):
            saved[i] = self.probs[i]
        for i in range(k):
            if u < self.probs[i]:
                chosen = i
                break
            u -= self.probs[i]
        return node.first_child + chosen

    cdef bint _try_solve(self, int index, int depth) noexcept:
        """After a child of node ``index`` was solved: is the node solved too?"""
        cdef Node* node = self.nodes + index
        cdef Node* children = self.nodes + node.first_child
        cdef int q = node.player
        cdef int k
        cdef double v, best, expect
        cdef double* saved
        if q == PLAYER_CHANCE:
            saved = self.chance_probs + <size_t>depth * self.max_outcomes
            expect = 0.0
            for k in range(node.num_children):
                if not children[k].solved:
                    return False
                expect += saved[k] * children[k].value
            node.value = <float>expect
            node.solved = 1
            return True
        best = -INFINITY
        for k in range(node.num_tried):
            if children[k].solved:
                v = children[k].value if q == 0 else -children[k].value
                if v >= self.max_utility:
                    node.value = children[k].value
                    node.solved = 1
                    return True
                if v > best:
                    best = v
        if node.num_tried < node.num_children:
            return False
        for k in range(node.num_children):
            if not children[k].solved:
                return False
        node.value = <float>(best if q == 0 else -best)
        node.solved = 1
        return True

    cdef long _run(self, GameCore root) except -1:
        cdef bint solving = self.solve and self.zero_sum and root.num_players == 2
        cdef double start = monotonic_seconds()
        cdef double deadline = start + self.max_time
        cdef long sims = 0
        cdef int index, child, depth, i, q
        cdef Node* node
        cdef GameCore state
        cdef bint proved
        cdef double* ret = self.ret
        while True:
            if self.max_simulations and sims >= self.max_simulations:
                break
            if self.max_time > 0 and monotonic_seconds() >= deadline:
                break
            if (sims & 255) == 0:
                PyErr_CheckSignals()       # Ctrl-C now, not after a long search (games/interrupt.pxd)
            if solving and self.nodes[0].solved:
                break
            state = root.copy()
            index = 0
            depth = 0
            self.path[0] = 0
            # 1. selection / expansion
            while True:
                node = self.nodes + index
                if node.solved or node.player == PLAYER_TERMINAL:
                    break
                if node.visits == 0 and index != 0:
                    break
                if node.player == PLAYER_CHANCE:
                    if node.first_child < 0:
                        if not self._expand_chance(index, state):
                            break
                        node = self.nodes + index
                    child = self._select_chance(node, state, depth)
                elif node.num_tried < node.num_children or node.first_child < 0:
                    child = self._add_child(index, state)
                    if child < 0:
                        break
                else:
                    child = self._select_uct(node, solving)
                state.apply(self.nodes[child].action)
                index = child
                depth += 1
                if depth + 1 >= self.path_cap:
                    self._grow_path(depth + 2)
                self.path[depth] = index
                node = self.nodes + index
                if node.player == PLAYER_UNSET:
                    node.player = <int8_t>state.current_player()
            # 2. evaluation
            node = self.nodes + index
            proved = False
            if node.solved:
                ret[0] = node.value
                ret[1] = -node.value
            else:
                if node.player != PLAYER_TERMINAL:
                    state.playout(&self.rng)
                elif solving:
                    state.returns(ret)
                    if fabs(ret[0] + ret[1]) > 1e-9:
                        raise ValueError(
                            f"MCTS-Solver needs a zero-sum game, but a terminal position "
                            f"returns {ret[0]}, {ret[1]}: pass zero_sum=False (or solve=False)")
                    node.value = <float>ret[0]
                    node.solved = 1
                    proved = True
                state.returns(ret)
            # 3. backup, from the perspective of each parent's mover
            for i in range(depth, 0, -1):
                node = self.nodes + self.path[i]
                node.visits += 1
                q = self.nodes[self.path[i - 1]].player
                if not node.solved and q >= 0:
                    node.value += <float>ret[q]
                if proved:
                    proved = self._try_solve(self.path[i - 1], i - 1)
            self.nodes[0].visits += 1
            sims += 1
        return sims

    def search(self, GameCore root not None):
        """Search from ``root`` (not modified) and return what was found.

        Returns a dict: ``action`` (most visited child; a proven win if there
        is one; proven losses only if nothing else is left), ``simulations``,
        ``seconds``, ``nodes`` (tree size), ``solved`` and ``value`` (the root
        mover's exact value when solved, else None), ``player`` (the root
        mover) and ``children``: a list of ``(action, visits, mean for the
        root mover, solved value for the root mover or None)``.
        """
        cdef int p = root.current_player()
        if p == PLAYER_TERMINAL:
            raise ValueError("cannot search from a finished game")
        if p == PLAYER_CHANCE:
            raise ValueError("the root is a chance node: sample the outcome instead of searching")
        self._prepare(root)
        self.num_nodes = 0
        cdef int c
        for c in range(NUM_CLASSES):
            self.free_head[c] = -1
        self._reserve(1)
        cdef Node* node = self.nodes
        self._init_node(node, 0)
        node.player = <int8_t>p
        self.num_nodes = 1
        cdef double start = monotonic_seconds()
        cdef long sims
        # Each simulation allocates one core copy; the cyclic GC, triggered by
        # allocation counts, would otherwise scan the heap every few hundred
        # simulations for garbage that cannot exist (copies die acyclic).
        collecting = gc.isenabled()
        gc.disable()
        try:
            sims = self._run(root)
        finally:
            if collecting:
                gc.enable()
        cdef double seconds = monotonic_seconds() - start
        if self.num_nodes > self.peak_nodes:
            self.peak_nodes = self.num_nodes
        return self._result(p, sims, seconds)

    cdef object _result(self, int p, long sims, double seconds):
        cdef Node* root = self.nodes
        cdef Node* ch
        cdef int k
        cdef double sign = 1.0 if p == 0 else -1.0
        children = []
        for k in range(root.num_tried):
            ch = self.nodes + root.first_child + k
            if ch.solved and self.zero_sum:
                solved_value = sign * ch.value
                mean = solved_value
            else:
                solved_value = None
                mean = ch.value / ch.visits if ch.visits else 0.0
            children.append((ch.action, ch.visits, mean, solved_value))
        solved = bool(root.solved)
        return {
            "action": _choose(children, self.max_utility,
                              sign * root.value if solved else None) if children else -1,
            "simulations": sims,
            "seconds": seconds,
            "nodes": self.num_nodes,
            "solved": solved,
            "value": sign * root.value if solved else None,
            "player": p,
            "children": children,
        }


def _choose(children, double max_utility, root_value):
    """Final move: on a solved root, the most visited child that achieves the
    root's value; else a proven win, else the most visited child that is not a
    proven loss (ties by mean value), else the most visited proven loss."""
    if root_value is not None:
        best = [c for c in children if c[3] is not None and c[3] >= root_value - 1e-6]
        if best:
            return max(best, key=lambda c: (c[1], c[2]))[0]
    wins = [c for c in children if c[3] is not None and c[3] >= max_utility]
    if wins:
        return max(wins, key=lambda c: (c[1], c[2]))[0]
    alive = [c for c in children if c[3] is None or c[3] > -max_utility]
    pool = alive or children
    return max(pool, key=lambda c: (c[1], c[2]))[0]


def time_playouts(GameCore root not None, long count, unsigned long long seed=0):
    """Seconds for ``count`` copies of ``root`` each played out at random: the
    floor under one simulation's cost, to tell search overhead from game cost."""
    cdef Rng rng
    cdef long _i
    cdef GameCore state
    rng_seed(&rng, seed)
    cdef double start = monotonic_seconds()
    for _i in range(count):
        state = root.copy()
        state.playout(&rng)
    return monotonic_seconds() - start

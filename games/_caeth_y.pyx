# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""C kernel of Caeth Y (rules: docs/rules/caeth_y.md).

Players capture the edges of a Y triangle; a vertex goes to the first player
who holds half or more of the edges into it and never changes hands, so the
controlled vertices only grow and connectivity is an incremental union-find
over vertices, as in plain Y (``games/_y_family.pyx``). The whole position is
one malloc'd block, so a copy is one memcpy.

Action ids: capturing edge e is action e, edges numbered in ascending order of
their (lower, higher) vertex pair, vertices numbered as the cells of
``games.boards``; the swap is action ``num_edges``.
"""
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset
from libc.stdint cimport uint8_t, uint16_t, uint64_t
cimport cython
from games.core cimport GameCore, PLAYER_TERMINAL
from games.boards cimport LatticeBoard, MAX_CELLS, find_root
from games.rng cimport Rng, rng_seed, rng_next, rng_below, mix64

cdef enum:
    MAX_EDGES = 520       # 3 n (n-1) / 2 for the largest triangle (n = 19) is 513


@cython.final
cdef class CaethGeometry:
    """The edges of one triangle: endpoints, the edge behind each neighbour
    slot of a vertex, control thresholds, Zobrist keys and the images of every
    edge under the board's symmetries; built once per board and shared."""
    cdef readonly LatticeBoard board
    cdef readonly int num_edges
    cdef uint8_t ends[MAX_EDGES][2]
    cdef uint16_t inc[MAX_CELLS][6]     # inc[v][d]: the edge from v to board.nbr[v][d]
    cdef uint8_t need[MAX_CELLS]        # edges that give control: half the degree, rounded up
    cdef uint64_t ezob[MAX_EDGES][2]
    cdef uint16_t esym[12][MAX_EDGES]
    cdef readonly tuple edges
    cdef readonly tuple names

    def __init__(self, LatticeBoard board):
        self.board = board
        cdef int n = board.num_cells
        edges = [(u, v) for u in range(n) for v in board.neighbours(u) if v > u]
        edges.sort()
        self.num_edges = len(edges)
        self.edges = tuple(edges)
        self.names = tuple(f"{board.names[u]}-{board.names[v]}" for u, v in edges)
        index = {pair: e for e, pair in enumerate(edges)}
        cdef int e, v, d, s
        for e, (u, v) in enumerate(edges):
            self.ends[e][0] = u
            self.ends[e][1] = v
        for v in range(n):
            self.need[v] = (board.degree[v] + 1) // 2
            for d in range(board.degree[v]):
                w = board.nbr[v][d]
                self.inc[v][d] = index[(min(v, w), max(v, w))]
        cdef Rng rng
        rng_seed(&rng, 0xCAE7 + 131 * board.size)
        for e in range(self.num_edges):
            self.ezob[e][0] = rng_next(&rng)
            self.ezob[e][1] = rng_next(&rng)
        for s, perm in enumerate(board.symmetries):
            for e, (u, v) in enumerate(edges):
                self.esym[s][e] = index[(min(perm[u], perm[v]), max(perm[u], perm[v]))]

    def threshold(self, int vertex):
        """How many edges into ``vertex`` give control of it."""
        return self.need[vertex]


_GEOMETRIES = {}


def make_geometry(LatticeBoard board):
    """The shared geometry of ``board``'s edges, built once."""
    geometry = _GEOMETRIES.get(board.size)
    if geometry is None:
        geometry = _GEOMETRIES[board.size] = CaethGeometry(board)
    return geometry


cdef struct CaethPosition:
    int player
    int winner          # -1 while the game goes on
    int moves           # actions applied (captures and the swap)
    int num_empty       # edges not yet captured
    int vertices        # controlled vertices
    bint swapped
    uint64_t hash       # Zobrist keys of owned edges and controlled vertices


@cython.final
@cython.no_gc
cdef class CaethCore(GameCore):
    """Caeth Y: per edge its owner, per vertex its controller and how many
    of its edges each player holds; union-find over controlled vertices whose
    roots carry the mask of sides their chain touches."""
    cdef readonly CaethGeometry geometry
    cdef LatticeBoard board
    cdef int V
    cdef int E
    cdef bint swap_rule
    cdef size_t nbytes_mem
    cdef uint8_t* mem          # empties, pos (uint16) | eown | vown (+ sentinel) | count[2] | parent | sides
    cdef uint16_t* empties
    cdef uint16_t* pos
    cdef uint8_t* eown         # 0 free, 1 Black, 2 White
    cdef uint8_t* vown         # 0 uncontrolled, 1 Black, 2 White; vown[V] is the board's sentinel
    cdef uint8_t* count        # count[2 v + p]: edges into v that player p holds
    cdef uint8_t* parent
    cdef uint8_t* sides
    cdef CaethPosition s

    def __cinit__(self):
        self.mem = NULL

    def __dealloc__(self):
        free(self.mem)

    def __init__(self, CaethGeometry geometry=None, bint swap=False):
        if geometry is None:        # bare instance made by copy()
            return
        self._setup(geometry, swap)
        memset(self.mem, 0, self.nbytes_mem)
        cdef int e
        for e in range(self.E):
            self.empties[e] = e
            self.pos[e] = e
        self.s.num_empty = self.E
        self.s.winner = -1

    cdef void _setup(self, CaethGeometry geometry, bint swap):
        self.geometry = geometry
        self.board = geometry.board
        self.V = self.board.num_cells
        self.E = geometry.num_edges
        self.swap_rule = swap
        self.num_players = 2
        self.num_actions = self.E + (1 if swap else 0)
        self.max_game_length = self.E + (1 if swap else 0)
        self.max_chance_outcomes = 0
        self.nbytes_mem = 4 * self.E + self.E + (self.V + 1) + 2 * self.V + 2 * self.V
        self.mem = <uint8_t*>malloc(self.nbytes_mem)
        if self.mem == NULL:
            raise MemoryError()
        self.empties = <uint16_t*>self.mem
        self.pos = self.empties + self.E
        self.eown = self.mem + 4 * self.E
        self.vown = self.eown + self.E
        self.count = self.vown + self.V + 1
        self.parent = self.count + 2 * self.V
        self.sides = self.parent + self.V

    cdef GameCore copy(self):
        cdef CaethCore other = CaethCore.__new__(CaethCore)
        other._setup(self.geometry, self.swap_rule)
        memcpy(other.mem, self.mem, self.nbytes_mem)
        other.s = self.s
        return other

    cdef int current_player(self) noexcept:
        return PLAYER_TERMINAL if self.s.winner >= 0 else self.s.player

    cdef bint is_terminal(self) noexcept:
        return self.s.winner >= 0

    cdef inline bint _swap_available(self) noexcept:
        return self.swap_rule and self.s.moves == 1 and self.s.winner < 0

    cdef int legal_actions(self, int* out) noexcept:
        cdef int e, k = 0
        if self.s.winner >= 0:
            return 0
        for e in range(self.E):
            if self.eown[e] == 0:
                out[k] = e
                k += 1
        if self._swap_available():
            out[k] = self.E
            k += 1
        return k

    cdef bint is_legal(self, int action) noexcept:
        if self.s.winner >= 0 or action < 0 or action >= self.num_actions:
            return False
        if action == self.E:
            return self._swap_available()
        return self.eown[action] == 0

    cdef inline void _control(self, int v, int p) noexcept:
        """Give vertex v to player p and join it to p's neighbouring chains."""
        cdef LatticeBoard board = self.board
        cdef int colour = p + 1
        cdef int d, r1, r2, w
        cdef uint8_t mask = board.side_mask[v]
        self.vown[v] = colour
        self.s.hash ^= board.zobrist[v][p]
        self.s.vertices += 1
        self.parent[v] = v
        r1 = v
        for d in range(board.degree[v]):
            w = board.nbr[v][d]
            if self.vown[w] == colour:
                r2 = find_root(self.parent, w)
                if r2 != r1:
                    if r1 == v:             # join the first chain under its root
                        self.parent[v] = r2
                        mask |= self.sides[r2]
                        r1 = r2
                    else:
                        self.parent[r2] = r1
                        mask |= self.sides[r2]
        self.sides[r1] = mask
        if mask == 7:
            self.s.winner = p

    cdef inline void _capture(self, int e) noexcept:
        """Edge e to the player to move, whose endpoints it may win; the
        caller has already taken e off the list of free edges."""
        cdef CaethGeometry g = self.geometry
        cdef int p = self.s.player
        cdef int k, v
        self.eown[e] = p + 1
        self.s.hash ^= g.ezob[e][p]
        for k in range(2):
            v = g.ends[e][k]
            self.count[2 * v + p] += 1
            if self.vown[v] == 0 and self.count[2 * v + p] >= g.need[v]:
                self._control(v, p)
        self.s.moves += 1
        if self.s.winner < 0:
            self.s.player = 1 - p

    cdef void _take_free(self, int e) noexcept:
        cdef int last = self.empties[self.s.num_empty - 1]
        self.empties[self.pos[e]] = last
        self.pos[last] = self.pos[e]
        self.s.num_empty -= 1

    cdef void _swap(self) noexcept:
        """White takes over Black's first edge and whatever vertices it gave
        Black; Black moves next."""
        cdef CaethGeometry g = self.geometry
        cdef LatticeBoard board = self.board
        cdef int e, k, v
        for e in range(self.E):
            if self.eown[e] == 1:
                break
        self.eown[e] = 2
        self.s.hash ^= g.ezob[e][0] ^ g.ezob[e][1]
        for k in range(2):
            v = g.ends[e][k]
            self.count[2 * v] -= 1
            self.count[2 * v + 1] += 1
        # rebuild the chains with White in Black's place (once per game)
        for v in range(self.V):
            if self.vown[v] == 1:
                self.vown[v] = 0
                self.s.vertices -= 1
                self.s.hash ^= board.zobrist[v][0]
                self._control(v, 1)
        self.s.swapped = True
        self.s.moves += 1
        self.s.player = 0

    cdef void apply(self, int action) noexcept:
        if action == self.E:
            self._swap()
        else:
            self._take_free(action)
            self._capture(action)

    cdef void returns(self, double* out) noexcept:
        if self.s.winner < 0:
            out[0] = 0.0
            out[1] = 0.0
        else:
            out[self.s.winner] = 1.0
            out[1 - self.s.winner] = -1.0

    cdef inline uint64_t _extras(self) noexcept:
        return mix64(<uint64_t>(self.s.player + 2 * self._swap_available() + 4 * (self.s.winner + 1)))

    cdef uint64_t hash(self) noexcept:
        return self.s.hash ^ self._extras()

    cdef int num_symmetries(self) noexcept:
        return self.board.num_syms

    cdef uint64_t symmetric_hash(self, int symmetry) noexcept:
        cdef CaethGeometry g = self.geometry
        cdef LatticeBoard board = self.board
        cdef uint64_t h = self._extras()
        cdef int e, v
        for e in range(self.E):
            if self.eown[e]:
                h ^= g.ezob[g.esym[symmetry][e]][self.eown[e] - 1]
        for v in range(self.V):
            if self.vown[v]:
                h ^= board.zobrist[board.sym[symmetry][v]][self.vown[v] - 1]
        return h

    cdef void playout(self, Rng* rng) noexcept:
        cdef int buf[MAX_EDGES + 1]
        cdef int k, e
        while self.s.winner < 0 and self.swap_rule and self.s.moves <= 1:
            k = self.legal_actions(buf)
            self.apply(buf[rng_below(rng, k)])
        # uniform over the legal actions = uniform over the free edges; the
        # free list is kept unordered, so taking one is a swap with the last
        while self.s.winner < 0 and self.s.num_empty > 0:
            k = rng_below(rng, self.s.num_empty)
            e = self.empties[k]
            self._take_free(e)
            self._capture(e)

    # -- Python face -------------------------------------------------------

    def describe_action(self, int action):
        if action == self.E and self.swap_rule:
            return "swap"
        if 0 <= action < self.E:
            return self.geometry.names[action]
        return f"<invalid action {action}>"

    def edge_owners(self):
        """Per edge: 0 free, 1 Black (player 0), 2 White (player 1)."""
        return [self.eown[e] for e in range(self.E)]

    def vertex_controllers(self):
        """Per vertex: 0 uncontrolled, 1 Black, 2 White."""
        return [self.vown[v] for v in range(self.V)]

    def swap_available(self):
        return bool(self._swap_available())

    def playout_stats(self):
        return {"captures": self.E - self.s.num_empty, "moves": self.s.moves,
                "controlled_vertices": self.s.vertices, "free_edges": self.s.num_empty,
                "swapped": bool(self.s.swapped), "winner": self.s.winner}

    def nbytes(self):
        """Bytes the position occupies: the C object plus its block."""
        return type(self).__basicsize__ + self.nbytes_mem

    def __reduce__(self):
        # OpenSpiel serialises Python states with pickle.
        return (_restore, (self.board.size, self.swap_rule, self.mem[:self.nbytes_mem], self.s))

    def to_string(self):
        """The board as Caeth Y's rules draw it: vertices ``*`` (``X``/``O`` once
        Black/White controls them), edges ``-`` ``/`` ``\\`` while free and
        ``x``/``o`` once captured; then who is to move or who won."""
        n = self.board.size
        g = self.geometry
        owner = self.edge_owners()
        vmark = "*XO"
        emark = ".xo"
        edge_of = {pair: e for e, pair in enumerate(g.edges)}
        index = {p: i for i, p in enumerate(self.board.coords)}
        lines = []
        for r in range(n):
            row = [" "] * (4 * n)
            for c in range(r + 1):
                x = 2 * (n - 1 - r) + 4 * c
                row[x] = vmark[self.vown[index[(r, c)]]]
                if c < r:
                    e = edge_of[(index[(r, c)], index[(r, c + 1)])]
                    row[x + 1], row[x + 2], row[x + 3] = "-", emark[owner[e]], "-"
            lines.append("".join(row).rstrip())
            if r < n - 1:
                row = [" "] * (4 * n)
                for c in range(r + 1):
                    x = 2 * (n - 1 - r) + 4 * c
                    left = owner[edge_of[(index[(r, c)], index[(r + 1, c)])]]
                    right = owner[edge_of[(index[(r, c)], index[(r + 1, c + 1)])]]
                    row[x - 1] = "/xo"[left]
                    row[x + 1] = "\\xo"[right]
                lines.append("".join(row).rstrip())
        if self.s.winner >= 0:
            status = f"{'Black' if self.s.winner == 0 else 'White'} wins"
        else:
            status = f"{'Black' if self.s.player == 0 else 'White'} to move"
            if self._swap_available():
                status += " (may swap)"
        return "\n".join(lines) + "\n" + status

    def observation(self):
        """Planes Black/White/free per edge, Black/White/none per vertex, then:
        Black to move, White to move, swap available."""
        E, V = self.E, self.V
        obs = [0.0] * (3 * E + 3 * V + 3)
        for e in range(E):
            plane = self.eown[e] - 1 if self.eown[e] else 2
            obs[plane * E + e] = 1.0
        for v in range(V):
            plane = self.vown[v] - 1 if self.vown[v] else 2
            obs[3 * E + plane * V + v] = 1.0
        if self.s.winner < 0:
            obs[3 * E + 3 * V + self.s.player] = 1.0
            obs[3 * E + 3 * V + 2] = 1.0 if self._swap_available() else 0.0
        return obs


def _restore(int size, bint swap, bytes mem, CaethPosition position):
    from games.boards import make_board
    cdef CaethCore core = CaethCore.__new__(CaethCore)
    core._setup(make_geometry(make_board("triangle", size)), swap)
    if len(mem) != core.nbytes_mem:
        raise ValueError(f"a pickled Caeth Y position of side {size} has {core.nbytes_mem} bytes, "
                         f"got {len(mem)}")
    memcpy(core.mem, <const char*>mem, core.nbytes_mem)
    core.s = position
    return core

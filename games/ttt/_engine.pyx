# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""C engine of the tic-tac-toe variations: one ``TTTCore`` plays every rule set
that ``games.ttt.compiler`` compiles (sequential, perfect information: placement,
gravity, movement, turn checks, stalemate rules, passes, agreed draws, Chaos,
phases with locked players and spaces and the fold rule).

Phases: the per-phase tables live in ``Tables``; a position keeps its phase,
who folded, and ``plock``, the current phase's locked cells (NULL when it has
none, so rule sets without phase locks pay one pointer test). The list of free
targets always means "free in this phase" and is rebuilt when a phase starts.

Rules as implemented, with every interpretation of the seed: docs/rules/ttt.md.

Geometry: cells are ``x + X*(y + Y*z)`` (0-based). A *target* is what a
placement or move names: the cell itself, or on stacks the stack ``x + X*y``
(the piece falls to the lowest free height). Static tables (neighbours in the
26 lexicographically ordered directions, so the opposite of direction d is
25-d; knight jumps; Zobrist keys; symmetries) live in one shared ``Tables``
object; a position is one malloc'd block of int16, so a copy is one memcpy.

Action ids (documented in docs/rules/ttt.md):
  choice*T + t                 place on target t (choice = colour index when
                               players choose colours, else 0 = own colour)
  P*T + f*T + u                move the piece on target f to target u
                               (only in rule sets whose pieces move)
  then, when allowed: pass, draw offer, agree, refuse (in this order).
"""
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset
from libc.stdint cimport int16_t, uint8_t, uint64_t
import hashlib
cimport cython
from games.core cimport GameCore, PLAYER_CHANCE, PLAYER_TERMINAL
from games.rng cimport Rng, mix64, rng_seed, rng_below, rng_next
from games.ttt.codes cimport (
    EFFECT_WIN, EFFECT_LOSE, EFFECT_ALL_LOSE, MOVE_NONE, MOVE_LINEAR_KNIGHT,
    MOVE_ALQUERQUE, MOVE_ORTHOGONAL, ST_DRAWS, ST_ALL_WIN, ST_ALL_LOSE, ST_LEAST_ROW, ST_MOST_PIECES, END_NONE,
    END_CHECK, END_STALEMATE, END_AGREED_DRAW, END_MOVE_LIMIT, FOLD_LESS_THAN_MOST,
    CLOAK_NONE, CLOAK_HIDES, CLOAK_OBSCURES)

cdef enum:
    MAX_SEATS = 5
    MAX_COLOURS = 4
    MAX_CHECKS = 32
    MAX_PHASES = 6

COLOUR_CHARS = "xopy"


def _directions3():
    return [d for d in ((a, b, c) for a in (-1, 0, 1) for b in (-1, 0, 1) for c in (-1, 0, 1))
            if d != (0, 0, 0)]


def _knight_jumps():
    out = []
    for a in range(3):
        for b in range(3):
            if a == b:
                continue
            for sa in (-2, 2):
                for sb in (-1, 1):
                    d = [0, 0, 0]
                    d[a] = sa
                    d[b] = sb
                    out.append(tuple(d))
    return out


cdef class Tables:
    """Everything about a rule set that never changes during a game."""
    cdef int X, Y, Z, XY, S, T
    cdef bint gravity
    cdef int seats, nplayers, chaos, C, choices, move, ppt, passing, agree_draw
    cdef int stalemate, move_limit, nsides, nchecks, nsym
    cdef int seat_mask[MAX_SEATS]
    cdef int side[MAX_SEATS]
    cdef int colour_of_seat[MAX_SEATS]     # the colour a 1-choice seat places
    cdef int reserve0[MAX_COLOURS]
    cdef int check_k[MAX_CHECKS]
    cdef int check_effect[MAX_CHECKS]
    cdef int check_diag[MAX_CHECKS]
    cdef bint any_axis_check
    cdef int nphases
    cdef int ph_pass[MAX_PHASES]
    cdef int ph_move[MAX_PHASES]           # the phase's move code (0: placement only)
    cdef int ph_active[MAX_PHASES]         # bit mask of the seats not locked for the phase
    cdef int ph_fold[MAX_PHASES]
    cdef uint8_t* ph_lock                  # nphases*S: cells locked for the phase
    cdef bint ph_has_lock[MAX_PHASES]
    cdef int nplace, move0, nmove, a_pass, a_offer, a_agree, a_refuse, num_actions
    cdef int16_t* nbr        # S*26, cell grid
    cdef int16_t* tnbr       # T*26, target grid (stacks: horizontal only)
    cdef int16_t* step       # T*26, one-step moves: tnbr, or on the alquerque board its lines only
    cdef int16_t* knight     # T*24
    cdef uint8_t* locked     # S
    cdef uint8_t* is_axis    # 26
    cdef uint64_t* zob       # S*(C+1)
    cdef int16_t* sym        # nsym*S
    cdef int16_t* init       # the starting block
    # cloaking (issue 11 item 3; CLOAK_NONE leaves every field below unused)
    cdef int cloaking        # CLOAK_* (NONE when no phase cloaks a space)
    cdef uint8_t* ph_cloak   # nphases*S: cells cloaked for the phase
    cdef int seen0           # block offset of seen[S]: per cell, bit s = seat s fully saw its piece
    cdef int log0            # block offset of the event log: count (2 entries), then loglen*3
    cdef int loglen          # events the log holds (the game's length bound)
    cdef object scratch      # a TTTCore reused for views (one view is alive at a time)
    cdef int block           # int16 entries in a position block
    cdef readonly object colour_names
    cdef readonly dict params

    def __reduce__(self):
        return (Tables, (self.params,))

    def __dealloc__(self):
        free(self.nbr)
        free(self.tnbr)
        free(self.step)
        free(self.knight)
        free(self.locked)
        free(self.is_axis)
        free(self.zob)
        free(self.sym)
        free(self.init)
        free(self.ph_lock)
        free(self.ph_cloak)

    def __init__(self, dict p):
        cdef int i, d, c, s
        self.params = p
        self.X, self.Y, self.Z = p["size"]
        self.XY = self.X * self.Y
        self.S = self.XY * self.Z
        self.gravity = p["gravity"]
        self.T = self.XY if self.gravity else self.S
        self.seats = p["seats"]
        self.nplayers = p["num_players"]
        self.chaos = p["chaos"]
        self.C = p["num_colours"]
        self.colour_names = list(p["colour_names"])
        self.choices = p["choices"]
        self.move = p["move"]
        self.ppt = p["pieces_per_turn"]
        self.passing = p["pass"]
        phases = p["phases"]
        if len(phases) > MAX_PHASES:
            raise ValueError("rule set exceeds the engine's limits")
        self.nphases = len(phases)
        self.ph_lock = <uint8_t*>malloc(self.nphases * self.S)
        if not self.ph_lock:
            raise MemoryError()
        memset(self.ph_lock, 0, self.nphases * self.S)
        for i, ph in enumerate(phases):
            self.ph_pass[i] = ph["pass"]
            self.ph_move[i] = ph["move"]
            self.ph_active[i] = ph["active"]
            self.ph_fold[i] = ph["fold"]
            self.ph_has_lock[i] = len(ph["locked"]) > 0
            for c in ph["locked"]:
                self.ph_lock[i * self.S + c] = 1
        self.agree_draw = p["agree_draw"]
        self.stalemate = p["stalemate"]
        self.move_limit = p["move_limit"]
        if self.seats > MAX_SEATS or self.C > MAX_COLOURS or len(p["checks"]) > MAX_CHECKS:
            raise ValueError("rule set exceeds the engine's limits")
        for s in range(self.seats):
            self.seat_mask[s] = p["seat_colours"][s]
            self.side[s] = p["sides"][s]
            self.colour_of_seat[s] = 0
            for c in range(self.C):
                if self.seat_mask[s] & (1 << c):
                    self.colour_of_seat[s] = c
                    break
        self.nsides = max(p["sides"][:self.seats]) + 1
        for c in range(self.C):
            self.reserve0[c] = p["reserves"][c]
        self.nchecks = len(p["checks"])
        self.any_axis_check = False
        for i, (k, effect, diag) in enumerate(p["checks"]):
            self.check_k[i] = k
            self.check_effect[i] = effect
            self.check_diag[i] = 1 if diag else 0
            if not diag:
                self.any_axis_check = True
        # action layout
        self.nplace = self.choices * self.T
        self.move0 = self.nplace
        self.nmove = self.T * self.T if self.move else 0
        i = self.move0 + self.nmove
        self.a_pass = self.a_offer = self.a_agree = self.a_refuse = -1
        if self.passing:
            self.a_pass = i
            i += 1
        if self.agree_draw:
            self.a_offer = i
            self.a_agree = i + 1
            self.a_refuse = i + 2
            i += 3
        self.num_actions = i
        # geometry
        dirs = _directions3()
        jumps = _knight_jumps()
        X, Y, Z = self.X, self.Y, self.Z
        self.nbr = <int16_t*>malloc(self.S * 26 * sizeof(int16_t))
        self.tnbr = <int16_t*>malloc(self.T * 26 * sizeof(int16_t))
        self.step = <int16_t*>malloc(self.T * 26 * sizeof(int16_t))
        self.knight = <int16_t*>malloc(self.T * 24 * sizeof(int16_t))
        self.locked = <uint8_t*>malloc(self.S)
        self.is_axis = <uint8_t*>malloc(26)
        self.zob = <uint64_t*>malloc(self.S * (self.C + 1) * sizeof(uint64_t))
        if not (self.nbr and self.tnbr and self.step and self.knight and self.locked and self.is_axis and self.zob):
            raise MemoryError()
        for d in range(26):
            self.is_axis[d] = 1 if sum(abs(v) for v in dirs[d]) == 1 else 0
        for c in range(self.S):
            x, y, z = c % X, (c // X) % Y, c // self.XY
            for d in range(26):
                dx, dy, dz = dirs[d]
                nx, ny, nz = x + dx, y + dy, z + dz
                self.nbr[c * 26 + d] = (nx + X * (ny + Y * nz)) if (0 <= nx < X and 0 <= ny < Y and 0 <= nz < Z) else -1
        tz = 1 if self.gravity else Z
        for t in range(self.T):
            x, y, z = t % X, (t // X) % Y, t // self.XY
            for d in range(26):
                dx, dy, dz = dirs[d]
                nx, ny, nz = x + dx, y + dy, z + dz
                self.tnbr[t * 26 + d] = (nx + X * (ny + Y * nz)) if (0 <= nx < X and 0 <= ny < Y and 0 <= nz < tz) else -1
            for d in range(24):
                dx, dy, dz = jumps[d]
                nx, ny, nz = x + dx, y + dy, z + dz
                self.knight[t * 24 + d] = (nx + X * (ny + Y * nz)) if (0 <= nx < X and 0 <= ny < Y and 0 <= nz < tz) else -1
            # The alquerque-pattern board draws its diagonals through the
            # points with x + y even (on 3x3: the corners and the centre), so a
            # diagonal step exists only from those points (validation keeps
            # this move to flat boards, where every step stays in the plane).
            for d in range(26):
                if not self.is_axis[d] and (self.move == MOVE_ORTHOGONAL or
                                            (self.move == MOVE_ALQUERQUE and (x + y) % 2)):
                    self.step[t * 26 + d] = -1
                else:
                    self.step[t * 26 + d] = self.tnbr[t * 26 + d]
        memset(self.locked, 0, self.S)
        for c in p["locked"]:
            self.locked[c] = 1
        cdef Rng rng
        rng_seed(&rng, <uint64_t>0x7A11C0DE ^ (<uint64_t>self.S << 20) ^ <uint64_t>self.C)
        for i in range(self.S * (self.C + 1)):
            self.zob[i] = rng_next(&rng)
        syms = p["symmetries"]
        self.nsym = len(syms)
        self.sym = <int16_t*>malloc(self.nsym * self.S * sizeof(int16_t))
        for s in range(self.nsym):
            for c in range(self.S):
                self.sym[s * self.S + c] = syms[s][c]
        # position block: cell[S] top[T] freel[T] fpos[T] reserve[C]
        self.block = self.S + 3 * self.T + self.C
        self._cloak_tables(p)
        self.init = <int16_t*>malloc(self.block * sizeof(int16_t))
        memset(self.init, 0, self.block * sizeof(int16_t))
        for c, colour in p["pieces"]:
            self.init[c] = colour + 1
        for c in range(self.C):
            self.init[self.S + 3 * self.T + c] = self.reserve0[c]

    def _cloak_tables(self, dict p):
        """Cloaking: the per-phase cloaked cells, and the block's tail that
        remembers what each player has seen: seen[S] (a seat bit mask per
        cell, moving with its piece) and the event log each player's
        information state is read from (count as two int16, then per event:
        action, actor | attempt<<3 | 2-bit view class per seat from bit 4,
        phase after). Without cloaking the block is unchanged."""
        cdef int i
        self.cloaking = p.get("cloaking", CLOAK_NONE)
        self.ph_cloak = NULL
        if self.cloaking == CLOAK_NONE:
            return
        self.ph_cloak = <uint8_t*>malloc(self.nphases * self.S)
        if not self.ph_cloak:
            raise MemoryError()
        memset(self.ph_cloak, 0, self.nphases * self.S)
        for i, ph in enumerate(p["phases"]):
            for c in ph["cloaked"]:
                self.ph_cloak[i * self.S + c] = 1
        # what each seat has seen is part of the position and is not mapped
        # by the board's symmetries: claim none (cloaked rule sets are not
        # searched with transpositions anyway; their searches refuse them)
        self.nsym = 1
        self.seen0 = self.block
        self.log0 = self.seen0 + self.S
        self.loglen = p["max_game_length"]
        self.block = self.log0 + 2 + 3 * self.loglen


@cython.final
cdef class TTTCore(GameCore):
    """A position of one rule set (see the module docstring)."""
    cdef readonly Tables tab
    cdef int16_t* mem
    cdef int16_t* cell
    cdef int16_t* top
    cdef int16_t* freel
    cdef int16_t* fpos
    cdef int16_t* reserve
    cdef int num_free
    cdef int seat
    cdef int left
    cdef int passes
    cdef int plies
    cdef int offer_by         # seat that offered a draw, -1 if none pending
    cdef int answerer
    cdef bint offered         # the seat to move already had an offer refused this turn
    cdef int end              # END_* (END_NONE while playing)
    cdef double result[MAX_SEATS]
    cdef uint64_t board_hash
    cdef int placements
    cdef int moves
    cdef int phase
    cdef int folded           # bit mask of the seats that folded
    cdef uint8_t* plock       # cells locked for the current phase, or NULL if none
    # cloaking: seen points into the block (NULL without cloaking); a view
    # (the tables' scratch core) plays the plain rules on what one player
    # sees; busy is set while apply runs the plain rules under the cloaking hook
    cdef int16_t* seen
    cdef bint viewing
    cdef bint cloak_busy

    def __cinit__(self):
        self.mem = NULL

    def __dealloc__(self):
        free(self.mem)

    def __init__(self, Tables tab=None):
        if tab is None:           # bare instance made by copy()
            return
        self._setup(tab)
        memcpy(self.mem, tab.init, tab.block * sizeof(int16_t))
        cdef int c, t, z, h
        self.board_hash = 0
        for c in range(tab.S):
            if self.cell[c]:
                self.board_hash ^= tab.zob[c * (tab.C + 1) + self.cell[c]]
        for t in range(tab.T):
            if tab.gravity:
                h = 0
                for z in range(tab.Z):
                    c = t + tab.XY * z
                    if self.cell[c] or tab.locked[c]:
                        h = z + 1
                self.top[t] = h
        self.plies = 0
        self.offer_by = -1
        self.answerer = -1
        self.end = END_NONE
        for c in range(MAX_SEATS):
            self.result[c] = 0.0
        self.num_players = tab.nplayers
        self.folded = 0
        self._enter_phase(0)

    cdef void _set_plock(self) noexcept:
        self.plock = (self.tab.ph_lock + self.phase * self.tab.S
                      if self.tab.ph_has_lock[self.phase] else NULL)

    cdef void _enter_phase(self, int k) noexcept:
        """Start phase k: its locks decide which targets are free; the first
        seat in turn order that plays in it moves first."""
        cdef Tables tab = self.tab
        cdef int t
        if self.seen != NULL:
            self._cloak_refresh()       # what was seen in the ending phase stays seen
        self.phase = k
        self._set_plock()
        if self.seen != NULL:
            self._cloak_refresh()
        self.num_free = 0
        for t in range(tab.T):
            if self._target_free(t):
                self._free_add(t)
        self.passes = 0
        self.left = tab.ppt
        self.offered = False
        self.seat = tab.seats - 1
        if not self._advance_seat():
            self._stalemate()
            return
        self._turn_start()

    cdef inline bint _plays(self, int s) noexcept:
        """Whether seat s takes turns in the current phase (not locked, not folded)."""
        return ((self.tab.ph_active[self.phase] & ~self.folded) >> s) & 1

    cdef bint _advance_seat(self) noexcept:
        """Move ``seat`` to the next seat in turn order that plays in this
        phase (possibly itself); False when nobody plays."""
        cdef int i, s = self.seat
        for i in range(self.tab.seats):
            s = (s + 1) % self.tab.seats
            if self._plays(s):
                self.seat = s
                return True
        return False

    cdef int _num_playing(self) noexcept:
        cdef int s, n = 0
        for s in range(self.tab.seats):
            n += self._plays(s)
        return n

    cdef void _setup(self, Tables tab):
        self.tab = tab
        self.num_players = tab.nplayers
        self.num_actions = tab.num_actions
        self.max_game_length = tab.params["max_game_length"]
        self.max_chance_outcomes = tab.num_actions if tab.chaos else 0
        self.mem = <int16_t*>malloc(tab.block * sizeof(int16_t))
        if self.mem == NULL:
            raise MemoryError()
        self.cell = self.mem
        self.top = self.mem + tab.S
        self.freel = self.top + tab.T
        self.fpos = self.freel + tab.T
        self.reserve = self.fpos + tab.T
        self.seen = self.mem + tab.seen0 if tab.cloaking != CLOAK_NONE else NULL
        self.imperfect_information = tab.cloaking != CLOAK_NONE

    cdef GameCore copy(self):
        cdef TTTCore o = TTTCore.__new__(TTTCore)
        o._setup(self.tab)
        memcpy(o.mem, self.mem, self.tab.block * sizeof(int16_t))
        o.num_free = self.num_free
        o.seat = self.seat
        o.left = self.left
        o.passes = self.passes
        o.plies = self.plies
        o.offer_by = self.offer_by
        o.answerer = self.answerer
        o.offered = self.offered
        o.end = self.end
        o.result = self.result
        o.board_hash = self.board_hash
        o.placements = self.placements
        o.moves = self.moves
        o.phase = self.phase
        o.folded = self.folded
        o._set_plock()
        return o

    # -- geometry helpers --------------------------------------------------

    cdef inline bint _target_free(self, int t) noexcept:
        """Whether a piece may enter target t now (its landing cell is empty,
        not locked, and not locked for this phase)."""
        if self.tab.gravity:
            return self.top[t] < self.tab.Z and (
                self.plock == NULL or not self.plock[t + self.tab.XY * self.top[t]])
        return self.cell[t] == 0 and not self.tab.locked[t] and (self.plock == NULL or not self.plock[t])

    cdef inline void _free_remove(self, int t) noexcept:
        cdef int i = self.fpos[t]
        cdef int last = self.freel[self.num_free - 1]
        self.freel[i] = last
        self.fpos[last] = i
        self.num_free -= 1

    cdef inline void _free_add(self, int t) noexcept:
        self.fpos[t] = self.num_free
        self.freel[self.num_free] = t
        self.num_free += 1

    cdef inline int _run(self, int c, int d, int piece) noexcept:
        """Length of the same-piece run through cell c along direction d and its opposite."""
        cdef int16_t* nbr = self.tab.nbr
        cdef int16_t* cell = self.cell
        cdef int n = 1
        cdef int x = nbr[c * 26 + d]
        while x >= 0 and cell[x] == piece:
            n += 1
            x = nbr[x * 26 + d]
        x = nbr[c * 26 + 25 - d]
        while x >= 0 and cell[x] == piece:
            n += 1
            x = nbr[x * 26 + 25 - d]
        return n

    # -- whose decision ----------------------------------------------------

    cdef int current_player(self) noexcept:
        if self.end != END_NONE:
            return PLAYER_TERMINAL
        if self.offer_by >= 0:
            return self.answerer
        if self.tab.chaos and self.seat == self.tab.seats - 1:
            return PLAYER_CHANCE
        return self.seat

    cdef bint is_terminal(self) noexcept:
        return self.end != END_NONE

    # -- legal moves ---------------------------------------------------------

    cdef inline bint _can_place(self, int seat) noexcept:
        cdef int c
        if self.num_free == 0:
            return False
        for c in range(self.tab.C):
            if (self.tab.seat_mask[seat] >> c) & 1 and self.reserve[c] > 0:
                return True
        return False

    cdef inline int _movable_piece(self, int seat, int t) noexcept:
        """The piece code on target t that ``seat`` may move (0 if none): its
        colour must be one of the seat's and none of that colour left in reserve."""
        cdef int c, piece
        if self.tab.gravity:
            if self.top[t] == 0:
                return 0
            c = t + self.tab.XY * (self.top[t] - 1)
        else:
            c = t
        piece = self.cell[c]
        if piece == 0 or (self.plock != NULL and self.plock[c]):
            return 0
        if (self.tab.seat_mask[seat] >> (piece - 1)) & 1 and self.reserve[piece - 1] == 0:
            return piece
        return 0

    cdef inline bint _dest_ok(self, int f, int u) noexcept:
        return u >= 0 and u != f and self._target_free(u)

    cdef int _destinations(self, int f, uint8_t* mark) noexcept:
        """Mark the targets the piece on f can move to; returns how many."""
        cdef Tables tab = self.tab
        cdef int d, u, n = 0
        if tab.move != MOVE_LINEAR_KNIGHT:      # one step, along the step table
            for d in range(26):
                u = tab.step[f * 26 + d]
                if self._dest_ok(f, u) and not mark[u]:
                    mark[u] = 1
                    n += 1
        elif tab.move == MOVE_LINEAR_KNIGHT:
            # linear: any distance along a line, over pieces and locked spaces
            for d in range(26):
                u = tab.tnbr[f * 26 + d]
                while u >= 0:
                    if self._dest_ok(f, u) and not mark[u]:
                        mark[u] = 1
                        n += 1
                    u = tab.tnbr[u * 26 + d]
            for d in range(24):
                u = tab.knight[f * 24 + d]
                if self._dest_ok(f, u) and not mark[u]:
                    mark[u] = 1
                    n += 1
        return n

    cdef bint _can_move(self, int seat) noexcept:
        cdef Tables tab = self.tab
        cdef int f, d, u
        if tab.ph_move[self.phase] == MOVE_NONE or self.num_free == 0:
            return False
        for f in range(tab.T):
            if not self._movable_piece(seat, f):
                continue
            if tab.move != MOVE_LINEAR_KNIGHT:      # one step, along the step table
                for d in range(26):
                    if self._dest_ok(f, tab.step[f * 26 + d]):
                        return True
            else:
                # on a line or a knight's jump some free target exists unless
                # the only free target is f itself (stacks only)
                if self.num_free > 1 or not self._target_free(f):
                    for d in range(26):
                        u = tab.tnbr[f * 26 + d]
                        while u >= 0:
                            if self._dest_ok(f, u):
                                return True
                            u = tab.tnbr[u * 26 + d]
                    for d in range(24):
                        if self._dest_ok(f, tab.knight[f * 24 + d]):
                            return True
        return False

    cdef inline bint _has_move(self, int seat) noexcept:
        if self.seen != NULL and self._cloak_judges(seat):
            return self._cloak_has_move(seat)
        return self._can_place(seat) or self._can_move(seat)

    cdef int _seat_actions(self, int seat, int* out) noexcept:
        """Placements, moves and pass of ``seat``, ascending."""
        cdef Tables tab = self.tab
        cdef int k = 0, ch, colour, t, f, u
        cdef uint8_t* mark
        if tab.cloaking == CLOAK_HIDES and self._cloak_judges(seat):
            return self._view_of(seat)._seat_actions(seat, out)
        for ch in range(tab.choices):
            colour = ch if tab.choices > 1 else tab.colour_of_seat[seat]
            if not ((tab.seat_mask[seat] >> colour) & 1) or self.reserve[colour] <= 0:
                continue
            for t in range(tab.T):
                if self._target_free(t):
                    out[k] = ch * tab.T + t
                    k += 1
        if tab.ph_move[self.phase] != MOVE_NONE and self.num_free > 0:
            mark = <uint8_t*>malloc(tab.T)
            for f in range(tab.T):
                if not self._movable_piece(seat, f):
                    continue
                memset(mark, 0, tab.T)
                if self._destinations(f, mark) == 0:
                    continue
                for u in range(tab.T):
                    if mark[u]:
                        out[k] = tab.move0 + f * tab.T + u
                        k += 1
            free(mark)
        if tab.ph_pass[self.phase]:
            out[k] = tab.a_pass
            k += 1
        return k

    cdef int legal_actions(self, int* out) noexcept:
        cdef int k
        if self.end != END_NONE:
            return 0
        if self.offer_by >= 0:
            out[0] = self.tab.a_agree
            out[1] = self.tab.a_refuse
            return 2
        k = self._seat_actions(self.seat, out)
        if self._offer_allowed():
            out[k] = self.tab.a_offer
            k += 1
        return k

    cdef inline bint _offer_allowed(self) noexcept:
        return (self.tab.agree_draw and not self.offered and self.left == self.tab.ppt
                and not (self.tab.chaos and self.seat == self.tab.seats - 1))

    cdef bint is_legal(self, int action) noexcept:
        cdef Tables tab = self.tab
        cdef int ch, t, colour, f, u, piece
        cdef uint8_t* mark
        cdef bint ok
        if self.end != END_NONE or action < 0 or action >= tab.num_actions:
            return False
        if self.offer_by >= 0:
            return action == tab.a_agree or action == tab.a_refuse
        if tab.cloaking == CLOAK_HIDES and self._cloak_judges(self.seat):
            return self._view_of(self.seat).is_legal(action)
        if action < tab.nplace:
            ch = action // tab.T
            t = action % tab.T
            colour = ch if tab.choices > 1 else tab.colour_of_seat[self.seat]
            return ((tab.seat_mask[self.seat] >> colour) & 1) and self.reserve[colour] > 0 \
                and self._target_free(t)
        if action < tab.move0 + tab.nmove:
            f = (action - tab.move0) // tab.T
            u = (action - tab.move0) % tab.T
            if tab.ph_move[self.phase] == MOVE_NONE:
                return False
            if not self._movable_piece(self.seat, f) or not self._dest_ok(f, u):
                return False
            mark = <uint8_t*>malloc(tab.T)
            memset(mark, 0, tab.T)
            self._destinations(f, mark)
            ok = mark[u] != 0
            free(mark)
            return ok
        if action == tab.a_pass:
            return tab.ph_pass[self.phase]
        if action == tab.a_offer:
            return self._offer_allowed()
        return False

    cdef int chance_outcomes(self, int* actions, double* probs) noexcept:
        cdef int i, n
        if self.end != END_NONE or self.current_player() != PLAYER_CHANCE:
            return 0
        n = self._seat_actions(self.seat, actions)
        for i in range(n):
            probs[i] = 1.0 / n
        return n

    # -- applying actions ----------------------------------------------------

    cdef void apply(self, int action) noexcept:
        cdef Tables tab = self.tab
        cdef int ch, t, colour, f
        if self.seen != NULL and not self.cloak_busy and not self.viewing:
            self._cloak_apply(action)
            return
        if self.offer_by >= 0:
            self._answer(action == tab.a_agree)
            return
        if action < tab.nplace:
            ch = action // tab.T
            t = action % tab.T
            colour = ch if tab.choices > 1 else tab.colour_of_seat[self.seat]
            self._place(t, colour)
        elif action < tab.move0 + tab.nmove:
            f = (action - tab.move0) // tab.T
            self._move(f, (action - tab.move0) % tab.T)
        elif action == tab.a_pass:
            self._pass()
        elif action == tab.a_offer:
            self.offer_by = self.seat
            self.answerer = self._next_answerer(self.seat)

    cdef int _next_answerer(self, int s) noexcept:
        """The next non-Chaos seat after s in turn order (wraps to the offerer)."""
        s = (s + 1) % self.tab.seats
        if self.tab.chaos and s == self.tab.seats - 1:
            s = 0
        return s

    cdef void _answer(self, bint agree) noexcept:
        if not agree:
            self.answerer = -1
            self.offer_by = -1
            self.offered = True
            return
        self.answerer = self._next_answerer(self.answerer)
        if self.answerer == self.offer_by:
            self.offer_by = -1
            self.answerer = -1
            self._finish_draw(END_AGREED_DRAW)

    cdef inline int _land(self, int t, int piece) noexcept:
        """Put ``piece`` on target t; returns its cell."""
        cdef Tables tab = self.tab
        cdef int c
        if tab.gravity:
            c = t + tab.XY * self.top[t]
            self.top[t] += 1
            if self.top[t] == tab.Z or (self.plock != NULL and self.plock[c + tab.XY]):
                self._free_remove(t)
        else:
            c = t
            self._free_remove(t)
        self.cell[c] = piece
        self.board_hash ^= tab.zob[c * (tab.C + 1) + piece]
        return c

    cdef void _place(self, int t, int colour) noexcept:
        self.reserve[colour] -= 1
        cdef int c = self._land(t, colour + 1)
        if self.seen != NULL:
            self.seen[c] = 1 << self.seat      # cloaking: "every piece they placed"
        self.placements += 1
        self._after_ply(c, colour + 1)

    cdef void _move(self, int f, int u) noexcept:
        cdef Tables tab = self.tab
        cdef int src, piece
        if tab.gravity:
            src = f + tab.XY * (self.top[f] - 1)
            # f was full, or its landing cell locked for the phase; the cell
            # the piece leaves is not (its exit would be locked)
            if self.top[f] == tab.Z or (self.plock != NULL and self.plock[src + tab.XY]):
                self._free_add(f)
            self.top[f] -= 1
        else:
            src = f
            self._free_add(f)
        piece = self.cell[src]
        self.cell[src] = 0
        self.board_hash ^= tab.zob[src * (tab.C + 1) + piece]
        cdef int c = self._land(u, piece)
        if self.seen != NULL:
            self.seen[c] = self.seen[src]      # cloaking: who saw it saw this piece
            self.seen[src] = 0
        self.moves += 1
        self._after_ply(c, piece)

    cdef void _after_ply(self, int c, int piece) noexcept:
        cdef Tables tab = self.tab
        cdef int d, run, best = 0, best_axis = 0, i
        self.passes = 0
        self.plies += 1
        if tab.nchecks:
            for d in range(13, 26):
                run = self._run(c, d, piece)
                if run > best:
                    best = run
                if tab.is_axis[d] and run > best_axis:
                    best_axis = run
            for i in range(tab.nchecks):
                if (best if tab.check_diag[i] else best_axis) >= tab.check_k[i]:
                    self._finish_check(tab.check_effect[i], self.seat)
                    return
        if tab.move_limit and self.plies >= tab.move_limit:
            self._finish_stalemate(END_MOVE_LIMIT)
            return
        self.left -= 1
        if self.left == 0 or not self._has_move(self.seat):
            self._next_seat()

    cdef void _pass(self) noexcept:
        self.passes += 1
        self.plies += 1
        cdef bint limit = self.tab.move_limit and self.plies >= self.tab.move_limit
        # the move limit ends the game even where the passes would only end a phase
        if self.passes >= self._num_playing() and not (limit and self.phase + 1 < self.tab.nphases):
            self._stalemate()
            return
        if limit:
            self._finish_stalemate(END_MOVE_LIMIT)
            return
        self._next_seat()

    cdef void _next_seat(self) noexcept:
        self._advance_seat()
        self.left = self.tab.ppt
        self.offered = False
        self._turn_start()

    cdef void _turn_start(self) noexcept:
        """Without a pass option, a seat with no legal move is a stalemate."""
        if not self.tab.ph_pass[self.phase] and not self._has_move(self.seat):
            self._stalemate()

    cdef void _stalemate(self) noexcept:
        """The seed: "stalemate advances the phase"; in the last phase the
        stalemate rule decides. The ending phase's fold rule applies first."""
        if self.phase + 1 < self.tab.nphases:
            if self.tab.ph_fold[self.phase] == FOLD_LESS_THAN_MOST:
                self._fold_less_than_most()
            self._enter_phase(self.phase + 1)
        else:
            self._finish_stalemate(END_STALEMATE)

    cdef int _committed(self, int s) noexcept:
        """Pieces of seat s's colours locked against exit for it (on cells
        locked for the current phase)."""
        cdef Tables tab = self.tab
        cdef int c, n = 0
        if self.plock == NULL:
            return 0
        for c in range(tab.S):
            if self.plock[c] and self.cell[c] and (tab.seat_mask[s] >> (self.cell[c] - 1)) & 1:
                n += 1
        return n

    cdef void _fold_less_than_most(self) noexcept:
        """"Less-than-most committed pieces folds": of the players (never
        Chaos), only those with the most committed pieces do not fold."""
        cdef int s, best = 0
        cdef int count[MAX_SEATS]
        for s in range(self.tab.nplayers):
            count[s] = self._committed(s)
            if count[s] > best:
                best = count[s]
        for s in range(self.tab.nplayers):
            if count[s] < best:
                self.folded |= 1 << s

    # -- outcomes ----------------------------------------------------------

    cdef void _finish_check(self, int effect, int mover) noexcept:
        cdef Tables tab = self.tab
        cdef int p
        cdef int ms = tab.side[mover]
        for p in range(tab.nplayers):
            if effect == EFFECT_ALL_LOSE:
                self.result[p] = -1.0
            elif effect == EFFECT_WIN:
                self.result[p] = 1.0 if tab.side[p] == ms else -1.0
            else:
                self.result[p] = -1.0 if tab.side[p] == ms else 1.0
        self.end = END_CHECK

    cdef void _finish_draw(self, int how) noexcept:
        cdef int p
        for p in range(self.tab.nplayers):
            self.result[p] = 0.0
        self.end = how

    cdef void _colour_scores(self, int* score) noexcept:
        """Per colour: the longest run (in-a-row rules) or the piece count."""
        cdef Tables tab = self.tab
        cdef int c, d, piece, prev, run, x
        for c in range(tab.C):
            score[c] = 0
        for c in range(tab.S):
            piece = self.cell[c]
            if piece == 0:
                continue
            if tab.stalemate == ST_MOST_PIECES:
                score[piece - 1] += 1
                continue
            for d in range(13, 26):
                prev = tab.nbr[c * 26 + 25 - d]
                if prev >= 0 and self.cell[prev] == piece:
                    continue           # not the start of this run
                run = 0
                x = c
                while x >= 0 and self.cell[x] == piece:
                    run += 1
                    x = tab.nbr[x * 26 + d]
                if run > score[piece - 1]:
                    score[piece - 1] = run

    cdef void _finish_stalemate(self, int how) noexcept:
        cdef Tables tab = self.tab
        cdef int p, s, c, best, worst
        cdef int colour_score[MAX_COLOURS]
        cdef int side_score[MAX_SEATS]
        cdef int nsides = tab.side[tab.seats - 1] + 1
        self.end = how
        if tab.stalemate == ST_DRAWS:
            self._finish_draw(how)
            return
        if tab.stalemate == ST_ALL_WIN or tab.stalemate == ST_ALL_LOSE:
            for p in range(tab.nplayers):
                self.result[p] = 1.0 if tab.stalemate == ST_ALL_WIN else -1.0
            return
        self._colour_scores(colour_score)
        for s in range(nsides):
            side_score[s] = 0
        for s in range(tab.seats):
            for c in range(tab.C):
                if (tab.seat_mask[s] >> c) & 1 and colour_score[c] > side_score[tab.side[s]]:
                    side_score[tab.side[s]] = colour_score[c]
        best = side_score[0]
        worst = side_score[0]
        for s in range(1, nsides):
            if side_score[s] > best:
                best = side_score[s]
            if side_score[s] < worst:
                worst = side_score[s]
        if best == worst:
            self._finish_draw(how)
            return
        for p in range(tab.nplayers):
            s = side_score[tab.side[p]]
            if tab.stalemate == ST_LEAST_ROW:
                self.result[p] = -1.0 if s == worst else 1.0
            else:
                self.result[p] = 1.0 if s == best else -1.0

    cdef void returns(self, double* out) noexcept:
        cdef int p
        for p in range(self.tab.nplayers):
            out[p] = self.result[p] if self.end != END_NONE else 0.0

    # -- hashing -----------------------------------------------------------

    cdef inline uint64_t _extras(self) noexcept:
        cdef uint64_t h = mix64(<uint64_t>(self.seat + 8 * self.left + 64 * self.passes
                                          + 1024 * (self.offer_by + 1) + 16384 * (self.answerer + 1)
                                          + 131072 * self.offered + 262144 * self.end
                                          + 2097152 * self.phase + 16777216 * self.folded))
        if self.tab.move_limit:
            h ^= mix64(<uint64_t>self.plies * <uint64_t>0x9E3779B97F4A7C15ULL + 12345)
        if self.seen != NULL:
            h ^= self._cloak_hash()
        return h

    cdef uint64_t hash(self) noexcept:
        return self.board_hash ^ self._extras()

    cdef int num_symmetries(self) noexcept:
        return self.tab.nsym

    cdef uint64_t symmetric_hash(self, int symmetry) noexcept:
        cdef Tables tab = self.tab
        cdef uint64_t h = 0
        cdef int c
        cdef int16_t* m = tab.sym + symmetry * tab.S
        if symmetry == 0:
            return self.hash()
        for c in range(tab.S):
            if self.cell[c]:
                h ^= tab.zob[m[c] * (tab.C + 1) + self.cell[c]]
        return h ^ self._extras()

    # -- cloaking (issue 11 item 3) ----------------------------------------
    # The seed: "Players can fully see every piece they placed, every piece
    # they can move [...], every piece occupying a non-cloaked space, every
    # piece they have previously fully seen, and every piece they have
    # attempted to cover." ``seen`` makes the fourth clause permanent; the
    # others are read off the position. Interpretations: docs/rules/ttt.md.

    cdef inline bint _cloak_judges(self, int seat) noexcept:
        """Whether ``seat`` chooses from its own view: a player (Chaos plays
        the true position) in a real position (a view plays the plain rules)."""
        return not self.viewing and not (self.tab.chaos and seat == self.tab.seats - 1)

    cdef inline bint _cloaked_now(self, int c) noexcept:
        return self.tab.ph_cloak[self.phase * self.tab.S + c] != 0

    cdef bint _can_move_piece(self, int s, int c) noexcept:
        """"Every piece they can move": the piece on c is one seat s may move
        in this phase (its colour, none of that colour in reserve, movement
        allowed, s takes turns, c not locked, top of its stack), whether or
        not a destination is free (that may hang on hidden pieces)."""
        cdef Tables tab = self.tab
        cdef int piece = self.cell[c]
        if piece == 0 or tab.ph_move[self.phase] == MOVE_NONE or not self._plays(s):
            return False
        if not ((tab.seat_mask[s] >> (piece - 1)) & 1) or self.reserve[piece - 1] > 0:
            return False
        if tab.locked[c] or (self.plock != NULL and self.plock[c]):
            return False
        if tab.gravity and c // tab.XY != self.top[c % tab.XY] - 1:
            return False
        return True

    cdef bint _fully_sees(self, int s, int c) noexcept:
        """Whether seat s fully sees (colour and shape) the piece on c."""
        cdef int piece = self.cell[c]
        if piece == 0:
            return False
        if (self.seen[c] >> s) & 1 or not self._cloaked_now(c):
            return True
        if self.tab.cloaking == CLOAK_OBSCURES and (self.tab.seat_mask[s] >> (piece - 1)) & 1:
            return True        # "all pieces of their assigned color(s)"
        return self._can_move_piece(s, c)

    cdef inline bint _sees_piece(self, int s, int c) noexcept:
        """Whether seat s sees that c holds a piece: fully, or under obscurity
        "the color–but not shape–of all other placed pieces"."""
        return self.cell[c] != 0 and (self.tab.cloaking == CLOAK_OBSCURES or self._fully_sees(s, c))

    cdef uint64_t _cloak_hash(self) noexcept:
        """What each seat has seen decides its legal actions, so it is part of
        the position's hash (the event log is not: it decides views only)."""
        cdef uint64_t h = 0
        cdef int c
        for c in range(self.tab.S):
            if self.seen[c]:
                h ^= mix64(<uint64_t>(c * 64 + self.seen[c]) + <uint64_t>0x5EE115EE11)
        return h

    cdef void _cloak_refresh(self) noexcept:
        """Record every piece each seat fully sees now ("every piece they have
        previously fully seen" stays seen when its space is cloaked later):
        pieces on open spaces for everyone, pieces a seat can move for it.
        (Obscurity's own-colour clause needs no record: colours never change
        hands.)"""
        cdef Tables tab = self.tab
        cdef int c, s
        cdef int full = (1 << tab.seats) - 1
        cdef bint moving = tab.ph_move[self.phase] != MOVE_NONE
        for c in range(tab.S):
            if self.cell[c] and self.seen[c] != full:
                if not self._cloaked_now(c):
                    self.seen[c] = full
                elif moving:
                    for s in range(tab.seats):
                        if self._can_move_piece(s, c):
                            self.seen[c] |= 1 << s

    cdef TTTCore _view_of(self, int s):
        """The position as seat s sees it, to play the plain rules on: pieces
        it does not see are taken off (a hidden piece looks like an empty
        space), a stack's height is that of what it sees. The view lives in
        the tables' scratch core (no allocation per call), so it is valid
        until the next view is made; callers use it at once."""
        cdef Tables tab = self.tab
        cdef TTTCore v
        cdef int c, t, z, h
        if tab.scratch is None:
            v = TTTCore.__new__(TTTCore)
            v._setup(tab)
            v.viewing = True
            tab.scratch = v
        v = <TTTCore>tab.scratch
        memcpy(v.mem, self.mem, tab.log0 * sizeof(int16_t))     # all but the event log
        v.seat = self.seat
        v.left = self.left
        v.passes = self.passes
        v.plies = self.plies
        v.offer_by = self.offer_by
        v.answerer = self.answerer
        v.offered = self.offered
        v.end = self.end
        v.phase = self.phase
        v.folded = self.folded
        v.plock = self.plock
        v.num_free = self.num_free
        for c in range(tab.S):
            if self.cell[c] and not self._sees_piece(s, c):
                v.cell[c] = 0
                if not tab.gravity and v._target_free(c):
                    v._free_add(c)     # the true free list plus what looks empty
        if tab.gravity:
            for t in range(tab.T):
                h = 0
                for z in range(tab.Z):
                    c = t + tab.XY * z
                    if v.cell[c] or tab.locked[c]:
                        h = z + 1
                v.top[t] = h
            v.num_free = 0
            for t in range(tab.T):
                if v._target_free(t):
                    v._free_add(t)
        return v

    cdef bint _cloak_has_move(self, int seat) noexcept:
        """Whether seat has a placement or move in its own view."""
        if self.tab.cloaking == CLOAK_HIDES:
            return self._view_of(seat)._has_move(seat)
        return self._can_place(seat) or self._can_move(seat)

    cdef bint _cloak_is_attempt(self, int action, int kind, int f) noexcept:
        """Whether a placement or move legal in the mover's view is not what
        it seems: illegal in truth, or (stacks) a move whose true top piece is
        one the mover does not see."""
        cdef bint legal
        self.viewing = True            # the plain rules on the true position
        legal = self.is_legal(action)
        self.viewing = False
        if not legal:
            return True
        return kind == 1 and self.tab.gravity and self._view_of(self.seat).top[f] != self.top[f]

    cdef void _cloak_reveal(self, int s, int t) noexcept:
        """Show seat s every piece on target t (the whole stack on stacks)."""
        cdef Tables tab = self.tab
        cdef int z, c
        for z in range(tab.Z if tab.gravity else 1):
            c = t + tab.XY * z if tab.gravity else t
            if self.cell[c]:
                self.seen[c] |= 1 << s

    cdef void _cloak_apply(self, int action) noexcept:
        """apply() of a cloaked rule set: an attempt that only reveals, or the
        plain rules; then the event is logged and what is seen remembered."""
        cdef Tables tab = self.tab
        cdef int actor = self.answerer if self.offer_by >= 0 else self.seat
        cdef int kind = 2, f = -1, t = -1, src, land = -1, s
        cdef int before = 0
        cdef bint attempt = False
        if self.offer_by < 0 and action < tab.nplace:
            kind = 0
            t = action % tab.T
        elif self.offer_by < 0 and action < tab.move0 + tab.nmove:
            kind = 1
            f = (action - tab.move0) // tab.T
            t = (action - tab.move0) % tab.T
        if kind != 2 and tab.cloaking == CLOAK_HIDES and self._cloak_judges(actor):
            attempt = self._cloak_is_attempt(action, kind, f)
        if attempt:
            # "the result will be only to make the invisible piece or wall
            # visible to the player (i.e. the turn ends without any piece
            # actually moving)"
            self._cloak_reveal(actor, t)
            if kind == 1:
                self._cloak_reveal(actor, f)
            self.passes = 0
            self.plies += 1
            if tab.move_limit and self.plies >= tab.move_limit:
                self._finish_stalemate(END_MOVE_LIMIT)
            else:
                self._next_seat()
        else:
            if kind == 1:
                src = f + tab.XY * (self.top[f] - 1) if tab.gravity else f
                for s in range(tab.seats):
                    if self._sees_piece(s, src):
                        before |= 1 << s
            self.cloak_busy = True
            self.apply(action)
            self.cloak_busy = False
            if kind != 2:
                land = t + tab.XY * (self.top[t] - 1) if tab.gravity else t
        self._cloak_log(action, actor, attempt, kind, land, before)
        self._cloak_refresh()

    cdef void _cloak_log(self, int action, int actor, bint attempt, int kind, int land,
                         int before) noexcept:
        """Append the event with what each seat saw of it: 1 all of it, 0
        only that ``actor`` placed (its colour: reserves are public), moved or
        attempted, 2 a piece it had not seen arriving on a space it sees."""
        cdef Tables tab = self.tab
        cdef int16_t* log = self.mem + tab.log0
        cdef int n = log[0] + (log[1] << 15)
        cdef int s, cls, meta
        if n >= tab.loglen:
            return
        meta = actor | (attempt << 3)
        for s in range(tab.seats):
            if s == actor:
                cls = 1
            elif attempt:
                cls = 0
            elif kind == 0:
                cls = 1 if self._sees_piece(s, land) else 0
            elif kind == 1:
                cls = (1 if (before >> s) & 1 else 2) if self._sees_piece(s, land) else 0
            else:
                cls = 1
            meta |= cls << (4 + 2 * s)
        log[2 + 3 * n] = action
        log[3 + 3 * n] = meta
        log[4 + 3 * n] = self.phase
        n += 1
        log[0] = n & 0x7FFF
        log[1] = n >> 15

    # per-player views (games/core.pxd): cloaked rule sets only; the others
    # keep the protocol's whole-position defaults

    cdef object player_observation_string(self, int player):
        if self.seen == NULL:
            return GameCore.player_observation_string(self, player)
        return self._view_string(player)

    cdef object player_observation_tensor(self, int player):
        if self.seen == NULL:
            return GameCore.player_observation_tensor(self, player)
        return self._view_tensor(player)

    cdef object player_information_state_string(self, int player):
        if self.seen == NULL:
            return GameCore.player_information_state_string(self, player)
        lines = [f"information state of player {player}"]
        lines += [self._event_string(player, i) for i in range(self._log_count())]
        return "\n".join(lines) + "\n" + self._view_string(player)

    cdef object player_information_state_tensor(self, int player):
        if self.seen == NULL:
            return GameCore.player_information_state_tensor(self, player)
        return self._event_tensor(player) + self._view_tensor(player)

    cdef uint64_t information_state_key(self, int player) except? 0:
        if self.seen == NULL:
            return GameCore.information_state_key(self, player)
        text = self.player_information_state_string(player).encode()
        return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little")

    # -- random play ---------------------------------------------------------

    cdef void playout(self, Rng* rng) noexcept:
        cdef Tables tab = self.tab
        cdef int* buf = NULL
        cdef int n, colour
        cdef bint simple = (not tab.passing and not tab.agree_draw and tab.choices == 1
                            and tab.cloaking == CLOAK_NONE)
        while self.end == END_NONE:
            if simple:
                colour = tab.colour_of_seat[self.seat]
                # only placements are legal: uniform over the free targets
                # (a one-colour seat holding reserves cannot move: an identical
                # piece is in reserve)
                if self.reserve[colour] > 0:
                    self._place(self.freel[rng_below(rng, self.num_free)], colour)
                    continue
            if buf == NULL:
                buf = <int*>malloc(tab.num_actions * sizeof(int))
            if self.offer_by < 0 and self.current_player() == PLAYER_CHANCE:
                n = self._seat_actions(self.seat, buf)
            else:
                n = self.legal_actions(buf)
            if n == 0:
                break
            self.apply(buf[rng_below(rng, n)])
        free(buf)

    # -- Python face ---------------------------------------------------------

    def coords(self, int c):
        """1-based (x, y, z) of cell c."""
        X, XY = self.tab.X, self.tab.XY
        return (c % X + 1, (c // X) % self.tab.Y + 1, c // XY + 1)

    def _target_name(self, int t):
        if self.tab.gravity:
            return f"stack({t % self.tab.X + 1},{t // self.tab.X + 1})"
        x, y, z = self.coords(t)
        return f"({x},{y},{z})"

    def describe_action(self, int action):
        return self.action_string(self.current_player(), action)

    def action_string(self, int player, int action):
        tab = self.tab
        if action < 0 or action >= tab.num_actions:
            return f"<invalid action {action}>"
        if action < tab.nplace:
            ch, t = divmod(action, tab.T)
            if tab.choices > 1:
                colour = ch
            else:
                seat = player if 0 <= player < tab.seats else self.seat
                colour = tab.colour_of_seat[seat]
            return f"{tab.colour_names[colour]}@{self._target_name(t)}"
        if action < tab.move0 + tab.nmove:
            f, u = divmod(action - tab.move0, tab.T)
            return f"{self._target_name(f)}->{self._target_name(u)}"
        return {tab.a_pass: "pass", tab.a_offer: "offer-draw", tab.a_agree: "agree-draw",
                tab.a_refuse: "refuse-draw"}[action]

    def cells(self):
        """Per cell: 0 empty, colour index + 1 for a piece, -1 locked (for the
        game or this phase) and empty."""
        return [self.cell[c] if self.cell[c] or not self._locked_now(c) else -1
                for c in range(self.tab.S)]

    cdef bint _locked_now(self, int c):
        return self.tab.locked[c] or (self.plock != NULL and self.plock[c])

    def current_phase(self):
        """The phase being played, 0-based."""
        return self.phase

    def folded_players(self):
        """Players who folded (they take no more turns but can still win)."""
        return [s for s in range(self.tab.nplayers) if (self.folded >> s) & 1]

    def reserves(self):
        return {self.tab.colour_names[c]: self.reserve[c] for c in range(self.tab.C)}

    def seat_to_move(self):
        """The seat whose turn it is (Chaos is the last seat)."""
        return self.seat

    def pieces_left_in_turn(self):
        return self.left

    def ending(self):
        return ("playing", "turn check", "stalemate", "agreed draw", "move limit")[self.end]

    def playout_stats(self):
        return {"placements": self.placements, "moves": self.moves, "plies": self.plies,
                "ending": self.ending(), "returns": self.returns_list()}

    def __reduce__(self):
        # OpenSpiel serialises Python states with pickle.
        scalars = (self.num_free, self.seat, self.left, self.passes, self.plies, self.offer_by,
                   self.answerer, self.offered, self.end,
                   [self.result[p] for p in range(MAX_SEATS)], self.board_hash,
                   self.placements, self.moves, self.phase, self.folded)
        block = [self.mem[i] for i in range(self.tab.block)]
        return (_restore, (self.tab, block, scalars))

    def to_string(self):
        tab = self.tab
        X, Y, Z = tab.X, tab.Y, tab.Z
        cells = self.cells()
        ch = lambda v: "#" if v < 0 else ("." if v == 0 else COLOUR_CHARS[v - 1])
        rows = []
        if tab.gravity:
            for y in range(Y):
                if Y > 1:
                    rows.append(f"stacks y={y + 1}:")
                for z in reversed(range(Z)):
                    rows.append("".join(ch(cells[x + X * (y + Y * z)]) for x in range(X)))
        else:
            for z in range(Z):
                if Z > 1:
                    rows.append(f"z={z + 1}:")
                for y in reversed(range(Y)):
                    rows.append("".join(ch(cells[x + X * (y + Y * z)]) for x in range(X)))
        if self.end != END_NONE:
            status = f"game over ({self.ending()}): returns {self.returns_list()}"
        elif self.offer_by >= 0:
            status = f"player {self.answerer} to answer player {self.offer_by}'s draw offer"
        else:
            who = "Chaos" if tab.chaos and self.seat == tab.seats - 1 else f"player {self.seat}"
            status = f"{who} to move, {self.left} piece(s) left this turn"
        if tab.nphases > 1:
            status += f"; phase {self.phase + 1} of {tab.nphases}"
            if self.folded:
                status += f", folded: {self.folded_players()}"
        return "\n".join(rows) + "\n" + status

    def observation(self):
        """Per cell one plane per colour, then empty, then locked; then one-hot
        seat to move, pieces left this turn, reserves per colour, draw-answer
        flag; with several phases, then the phase (one-hot) and who folded."""
        tab = self.tab
        S, C = tab.S, tab.C
        multi = tab.nphases > 1
        obs = [0.0] * ((C + 2) * S + tab.seats + 2 + C + (tab.nphases + tab.nplayers if multi else 0))
        for c in range(S):
            v = self.cell[c]
            if v:
                obs[(v - 1) * S + c] = 1.0
            elif self._locked_now(c):
                obs[(C + 1) * S + c] = 1.0
            else:
                obs[C * S + c] = 1.0
        base = (C + 2) * S
        if self.end == END_NONE:
            obs[base + self.seat] = 1.0
            obs[base + tab.seats] = self.left
            obs[base + tab.seats + 1] = 1.0 if self.offer_by >= 0 else 0.0
        for c in range(C):
            obs[base + tab.seats + 2 + c] = self.reserve[c]
        if multi:
            base += tab.seats + 2 + C
            obs[base + self.phase] = 1.0
            for p in self.folded_players():
                obs[base + tab.nphases + p] = 1.0
        return obs

    # -- cloaking: what one player sees (Python face) ------------------------

    @property
    def cloaking(self):
        """The cloaking type played: "none", "hides" or "obscures"."""
        return ("none", "hides", "obscures")[self.tab.cloaking]

    def cloaked_cells(self):
        """Cells cloaked in the current phase."""
        if self.seen == NULL:
            return []
        return [c for c in range(self.tab.S) if self._cloaked_now(c)]

    def player_view(self, int player):
        """Per cell what ``player`` sees: a colour letter (``COLOUR_CHARS``)
        for a piece it fully sees, the capital letter for a piece whose colour
        but not shape it sees (obscurity), "." for what looks like an empty
        space (under invisibility, a hidden piece) and "#" for a locked space
        that looks empty."""
        self._player(player)
        out = []
        for c in range(self.tab.S):
            v = self.cell[c]
            if v and (self.seen == NULL or self._fully_sees(player, c)):
                out.append(COLOUR_CHARS[v - 1])
            elif v and self._sees_piece(player, c):
                out.append(COLOUR_CHARS[v - 1].upper())
            else:
                out.append("#" if self._locked_now(c) else ".")
        return out

    def _layout(self, chars):
        tab = self.tab
        X, Y, Z = tab.X, tab.Y, tab.Z
        rows = []
        if tab.gravity:
            for y in range(Y):
                if Y > 1:
                    rows.append(f"stacks y={y + 1}:")
                for z in reversed(range(Z)):
                    rows.append("".join(chars[x + X * (y + Y * z)] for x in range(X)))
        else:
            for z in range(Z):
                if Z > 1:
                    rows.append(f"z={z + 1}:")
                for y in reversed(range(Y)):
                    rows.append("".join(chars[x + X * (y + Y * z)] for x in range(X)))
        return "\n".join(rows)

    def _view_string(self, int player):
        status = self.to_string().rsplit("\n", 1)[1]     # public: whose turn, phase, ending
        reserves = ", ".join(f"{k} {v}" for k, v in self.reserves().items())
        return (f"player {player} sees:\n{self._layout(self.player_view(player))}\n{status}\n"
                f"reserves: {reserves}")

    def _view_tensor(self, int player):
        """Per cell: C planes "fully seen, this colour", C planes "colour seen,
        shape not", looks empty, locked and looks empty; then the public part
        of ``observation()`` (seat to move, pieces left, draw answer,
        reserves, phase, folded); then the observer, one-hot."""
        tab = self.tab
        S, C = tab.S, tab.C
        chars = self.player_view(player)
        planes = [0.0] * ((2 * C + 2) * S)
        for c, ch in enumerate(chars):
            if ch == ".":
                planes[2 * C * S + c] = 1.0
            elif ch == "#":
                planes[(2 * C + 1) * S + c] = 1.0
            elif ch.islower():
                planes[COLOUR_CHARS.index(ch) * S + c] = 1.0
            else:
                planes[(C + COLOUR_CHARS.index(ch.lower())) * S + c] = 1.0
        me = [0.0] * tab.nplayers
        me[player] = 1.0
        return planes + self.observation()[(C + 2) * S:] + me

    def _log_count(self):
        cdef int16_t* log = self.mem + self.tab.log0
        return log[0] + (log[1] << 15)

    def _event(self, int i):
        """(action, actor, attempt, per-seat view class, phase after) of event i."""
        cdef int16_t* log = self.mem + self.tab.log0 + 2 + 3 * i
        meta = log[1]
        return log[0], meta & 7, (meta >> 3) & 1, [(meta >> (4 + 2 * s)) & 3 for s in range(self.tab.seats)], log[2]

    def last_event(self):
        """The last logged event of a cloaked rule set (None before any):
        action, actor seat, whether it was an attempt that only revealed,
        what each seat saw of it ("all", "hidden", "arrived") and the phase
        after it."""
        if self.seen == NULL or self._log_count() == 0:
            return None
        action, actor, attempt, cls, phase = self._event(self._log_count() - 1)
        return {"action": action, "actor": actor, "attempt": bool(attempt), "phase": phase,
                "seen": [("hidden", "all", "arrived")[k] for k in cls]}

    def _kind(self, int action):
        tab = self.tab
        return 0 if action < tab.nplace else (1 if action < tab.move0 + tab.nmove else 2)

    def _event_string(self, int player, int i):
        tab = self.tab
        action, actor, attempt, cls, phase = self._event(i)
        who = "Chaos" if tab.chaos and actor == tab.seats - 1 else f"player {actor}"
        kind = self._kind(action)
        if attempt and actor == player:
            text = f"attempted {self.action_string(actor, action)}, which only revealed what is there"
        elif attempt:
            text = "attempted a move, which only revealed a hidden piece to it"
        elif cls[player] == 1:
            text = self.action_string(actor, action)
        elif cls[player] == 2:
            text = f"moved a piece not seen before to {self._target_name((action - tab.move0) % tab.T)}"
        elif kind == 0:
            colour = self.action_string(actor, action).split("@")[0]
            text = f"placed {colour} on a space hidden from player {player}"
        else:
            text = f"moved a piece hidden from player {player}"
        if tab.nphases > 1:
            text += f" [phase {phase + 1}]"
        return f"{i + 1}. {who}: {text}"

    def _event_tensor(self, int player):
        """Per logged event (up to the game's length bound; later rows 0):
        the actor (one-hot over seats), flags (attempt, hidden, arrived),
        the action (one-hot) when the player saw all of it, the arrival
        target of an unseen piece, the colour of a hidden placement, and the
        phase after the event (one-hot)."""
        tab = self.tab
        width = tab.seats + 3 + tab.num_actions + tab.T + tab.C + tab.nphases
        out = [0.0] * (width * tab.loglen)
        for i in range(self._log_count()):
            action, actor, attempt, cls, phase = self._event(i)
            row = i * width
            out[row + actor] = 1.0
            base = row + tab.seats
            out[base] = float(attempt)
            if attempt and actor != player:
                pass
            elif cls[player] == 1:
                out[base + 3 + action] = 1.0
            elif cls[player] == 2:
                out[base + 2] = 1.0
                out[base + 3 + tab.num_actions + (action - tab.move0) % tab.T] = 1.0
            else:
                out[base + 1] = 1.0
                if self._kind(action) == 0:
                    ch = action // tab.T
                    colour = ch if tab.choices > 1 else tab.colour_of_seat[actor]
                    out[base + 3 + tab.num_actions + tab.T + colour] = 1.0
            out[base + 3 + tab.num_actions + tab.T + tab.C + phase] = 1.0
        return out


def make_core(dict compiled):
    """A fresh starting position of a compiled rule set."""
    return TTTCore(Tables(compiled))


def _restore(Tables tab, list block, tuple scalars):
    cdef TTTCore core = TTTCore.__new__(TTTCore)
    cdef int i
    core._setup(tab)
    for i in range(tab.block):
        core.mem[i] = block[i]
    (core.num_free, core.seat, core.left, core.passes, core.plies, core.offer_by, core.answerer,
     core.offered, core.end, result, core.board_hash, core.placements, core.moves, core.phase,
     core.folded) = scalars
    core._set_plock()
    for i in range(MAX_SEATS):
        core.result[i] = result[i]
    return core

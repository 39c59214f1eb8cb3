# Tables and geometry: the board kinds, cells, targets, lines, directions,
# knight jumps and symmetries of a rule set, the free list of targets, and the
# position block's layout (``Tables``: everything about a rule set that never
# changes during a game). Included by _engine.pyx; functions take the core
# (or the tables) first. Rules: docs/rules/ttt/boards.md.
#
# Cells are ``x + X*(y + Y*z)`` (0-based). A target is what a placement or
# move names: the cell itself, or on stacks the stack ``x + X*y`` (the piece
# falls to the lowest free height). The 26 directions are ordered
# lexicographically, so the opposite of direction d is 25 - d.
#
# The board kinds other than the box change only these tables: on a toroid
# (``wrap``) every step wraps around x (within its board) and y, so a walk
# along a line stops when it comes back to its first cell; on hexagons
# (``hexes``, a rhombus of axial coordinates) the diagonal (1, 1) is no
# neighbour, and (1, -1) is a third axis (docs/rules/ttt/boards.md). On
# tetrakis squares (``tetra``) z is a square's triangle (0 N, 1 E, 2 S, 3 W)
# and four step pairs follow the straight lines across the triangles
# (tetrakis_step).

from libc.stdlib cimport malloc, free
from libc.string cimport memset
from libc.stdint cimport int8_t, int16_t, uint8_t, uint64_t
from games.rng cimport Rng, rng_seed, rng_next
from games.ttt.codes cimport MOVE_ALQUERQUE, MOVE_ORTHOGONAL


def directions_26():
    """The 26 steps (dx, dy, dz) to a cell's neighbours, in lexicographic order."""
    return [d for d in ((a, b, c) for a in (-1, 0, 1) for b in (-1, 0, 1) for c in (-1, 0, 1))
            if d != (0, 0, 0)]


def knight_steps():
    """The 24 knight's jumps (2 and 1 along two axes) of the 3-D grid."""
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
    cdef bint wrap                         # a toroid: steps wrap around x (per board) and y
    cdef bint hexes                        # hexagons: six neighbours, three axes
    cdef bint tetra                        # tetrakis squares: z is a square's triangle
    cdef int seats, nplayers, chaos, C, choices, move, ppt, passing, agree_draw
    cdef bint line_blocked                 # pieces stop line moves (holds_piece, _turns.pxi)
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
    cdef int nrun                          # the line directions (13..25) some cell has a neighbour
    cdef int run_dir[13]                   # along: the ones end_ply's turn checks walk
    cdef int min_check_k                   # the shortest turn check (0: none)
    cdef uint8_t* crun                     # S*13: per cell, the run_dir directions whose whole line
    cdef uint8_t* ncrun                    # through it holds min_check_k cells; S: how many
    cdef int init_count[MAX_COLOURS]       # pieces of each colour on the starting board
    cdef uint64_t* zob       # S*(C+1)
    cdef int16_t* sym        # nsym*S
    cdef int16_t* init       # the starting block
    # cloaking (_cloaking.pxi; CLOAK_NONE leaves every field below unused)
    cdef int cloaking        # CLOAK_* (NONE when no phase cloaks a space)
    cdef uint8_t* ph_cloak   # nphases*S: cells cloaked for the phase
    cdef int seen0           # block offset of seen[S]: per cell, bit s = seat s fully saw its piece
    cdef int walls0          # block offset of walls[S] (0: walls never hidden): bit s = seat s saw its wall
    cdef int vlock0          # block offset of a view's own locked cells (S bytes), with hidden walls
    cdef int log0            # block offset of the event log: count (2 entries), then loglen*3
    cdef int loglen          # events the log holds (the game's length bound)
    cdef int rlog0           # block offset of loglen reincarnation words, one per event (0: none)
    cdef bint obscured_covers    # captures under obscurity (legal actions from obscured_actions)
    cdef int stand_in_shape  # a local shape with a power, standing for a shape the mover does not see
    cdef int captives_log0   # block offset of loglen*S words, what a jump or surround took per cell (0: none)
    cdef int stack_log0      # block offset of loglen*stack_log_width words, each seat's view of a
    cdef int stack_log_width  # stacks event's columns around it and its reserve gains (0: none)
    cdef int round_log0      # block offset of loglen*round_log_width words, each seat's view of the
    cdef int round_log_width  # cells and reserves before and after a round with covers (0: none)
    cdef object scratch      # a TTTCore reused for views (one view is alive at a time)
    cdef int block           # int16 entries in a position block
    # spaces (_phases.pxi): per phase and cell, bit masks of the seats
    # locked against entering / leaving it (NULL when no space locks a seat)
    cdef uint8_t* ph_entry   # nphases*S
    cdef uint8_t* ph_exit    # nphases*S
    cdef bint any_seat_lock
    # boards: boards side by side along x, each bX wide
    cdef int nboards, bX
    cdef readonly object colour_names
    cdef readonly dict params
    # the dilemmas' outcomes (_outcomes.pxi; compiler._outcome_tables)
    cdef bint general_outcome              # score stalemates with finish_outcome
    cdef int st_kind, st_measure, st_k, st_shape, st_most, st_wins
    cdef bint vs_more_wins, vs_fewer_loses
    cdef int chaos_more_than[MAX_SHAPES]   # -1: no "Chaos wins if total <shape> > n"
    cdef bint overachievers
    cdef int side_colours[MAX_SEATS]       # colour bit mask of each side
    # simultaneous and single phases (_rounds.pxi)
    cdef bint sim                          # some phase is simultaneous or single
    cdef int ph_order[MAX_PHASES]
    cdef int sim0                          # int16 offset of the round region in a block (even)
    cdef int hist_cap                      # decisions the history holds
    cdef bint planned                      # two pieces a turn planned together (round_plies)
    cdef int pair0                         # int32 index of the planned pair's region in the round region
    cdef int16_t* sstep                    # T*26: each target's one-step targets, packed
    cdef uint8_t* nsstep                   # T: how many
    cdef int maxstep                       # the most of them from any target
    cdef uint64_t maxstep_inv              # 2**32 // maxstep + 1: step_slot divides by maxstep without idiv
    cdef uint64_t t_inv                    # 2**32 // T + 1: div_targets divides by T without idiv
    cdef int max_game_length               # params["max_game_length"], read by every copy (no dict lookup)
    # shapes, per-shape moves and goals (_shapes.pxi); every field is unused
    # when ``shaped`` is False (the circles-only path)
    cdef bint shaped
    cdef int K                             # shapes in play, in the specification's rank order
    cdef int shape_global[MAX_SHAPES]      # SHAPES_ALL index of local shape k
    cdef int shape_local[MAX_SHAPES]       # local index of a SHAPES_ALL index (-1: not in play)
    cdef int shape_move[MAX_SHAPES]        # MOVE_* of local shape k
    cdef bint shape_no_back[MAX_SHAPES]    # "cannot move backwards"
    cdef int R                             # replacement shapes (those that can move backwards)
    cdef int replacer[MAX_SHAPES]          # their local indices
    cdef int rep0                          # first replacement-move action id
    cdef int a_pass_or_end                 # first id after placements and moves
    cdef int shp0                          # block offset of the shape plane shp[S] (SHAPES_ALL index)
    cdef int sres0                         # block offset of the per-shape reserves [C*K]
    cdef int goal_axis[MAX_SEATS]          # 0 x, 1 y, -1 no goal (Chaos)
    cdef int goal_high[MAX_SEATS]          # goal at the axis' high end
    cdef bint goal_check                   # "Stalemate if goal is reached"
    cdef bint last_pentagon                # "Last pentagon wins"
    cdef bint en_passant                   # "En passant": pawns' double first step, taken en passant
    cdef int ep0                           # block slots: the space passed over + 1 (0: none), the pawn + 1
    cdef bint castle                       # "Castle": an unmoved king and rook castle as one move
    cdef int king_k                        # the king's local shape (-1: none)
    cdef bint shape_rook[MAX_SHAPES]       # the shape moves "rook-orthogonal-castle" (a rook)
    cdef int moved0                        # block offset of the plane moved[S] (1: the piece there moved)
    cdef int last_row_k                    # "Last K-in-a-row wins": K (0: not the rule)
    cdef int last_row0                     # its block slot: side + 1 whose ply made the last K-line
    cdef int16_t* knight3                  # T*24 jumps 2x1x1
    cdef int8_t* dcomp                     # 26*3: the components of each direction
    cdef uint64_t* szob                    # S*MAX_SHAPES: Zobrist keys of shapes
    # moves "by stack" / "by full stack" (_stacks.pxi)
    cdef bint by_stack                     # some shape moves by stack
    cdef int stk0                          # first by-stack move id: stk0 + (r1*S + c)*T + u
    cdef int nstk                          # how many ids ((1 + R)*S*T, or 0)
    # captures (_captures.pxi): unused when ``powers`` is False
    cdef bint powers                       # some shape may capture
    cdef bint any_must                     # some shape must capture
    cdef int shape_power[MAX_SHAPES]       # POWER_* of local shape k
    cdef int shape_cond[MAX_SHAPES]        # COND_* of local shape k
    cdef bint shape_jump_back[MAX_SHAPES]  # "Chain Jump (+ back)": its jumps may go backwards
    cdef bint shape_approach_one[MAX_SHAPES]  # approach-one: an approach takes the adjacent piece only
    cdef int shape_result[MAX_SHAPES]      # RESULT_* of local shape k
    cdef bint paralyzes                    # some shape paralyzes its captives (the plane at para0)
    cdef int para0                         # block offset of the paralysed plane para[S] (1: paralysed)
    cdef bint pots                         # a pot may be split among captors (a chance node)
    cdef int pot0                          # block offset of the pot region (POT_*)
    # jumps (_jumps.pxi) and surrounds (_surround.pxi)
    cdef bint jumps                        # some shape captures by jumping
    cdef bint chains                       # some shape chain-jumps (continuation decisions)
    cdef bint surrounds                    # some shape captures by surrounding
    cdef int chain0                        # block offset of the pending chain: its target + 1, or 0
    cdef int a_stop                        # "end-chain": declines the continuation (-1: no chains)
    cdef int chips                         # SHAPES_ALL bits of the powerless shapes (poker's "chips")
    cdef int pot_len                       # the pot region's length (POTQ_LEN with rounds)
    # a deck and dealt pieces (_deal.pxi): unused when ``deck`` is False
    cdef bint deck
    cdef int hand                          # pieces dealt to each player at the start
    cdef int per_turn                      # pieces dealt to a player at the start of each of its turns
    cdef int ndeals                        # the deal's chance nodes (hands, then dealt common spaces)
    cdef int deck0                         # int16 offset of the deck region in a block (even)
    cdef int deck_cap                      # entries its log holds
    cdef int deck_cells[MAX_SPACES_DEALT]  # the dealt common spaces' cells, in dealing order

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
        free(self.ph_entry)
        free(self.ph_exit)
        free(self.sstep)
        free(self.nsstep)
        free(self.crun)
        free(self.ncrun)
        free(self.ph_cloak)
        free(self.knight3)
        free(self.dcomp)
        free(self.szob)

    def __init__(self, dict p):
        cdef int i, d, c, s
        self.params = p
        self.max_game_length = p["max_game_length"]     # (the compiler always sets it)
        self.X, self.Y, self.Z = p["size"]
        self.XY = self.X * self.Y
        self.S = self.XY * self.Z
        self.gravity = p["gravity"]
        self.T = self.XY if self.gravity else self.S
        self.t_inv = (<uint64_t>1 << 32) // <uint64_t>self.T + 1
        self.seats = p["seats"]
        self.nplayers = p["num_players"]
        self.chaos = p["chaos"]
        self.C = p["num_colours"]
        self.colour_names = list(p["colour_names"])
        self.choices = p["choices"]
        self.move = p["move"]
        self.line_blocked = p.get("line_blocked", False)
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
            self.ph_order[i] = ph["order"]
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
        self.nplace = self.choices * self.T * p.get("shape_count", 1)    # a shape per placement
        self.move0 = self.nplace
        self.nmove = self.T * self.T if self.move else 0
        i = self.move0 + self.nmove
        i = shape_action_layout(self, p, i)          # replacement and by-stack moves
        self.a_pass = self.a_offer = self.a_agree = self.a_refuse = -1
        if self.passing:
            self.a_pass = i
            i += 1
        if self.agree_draw:
            self.a_offer = i
            self.a_agree = i + 1
            self.a_refuse = i + 2
            i += 3
        self.a_stop = -1                       # the continuation's "end-chain", last
        if p.get("chains", False):
            self.a_stop = i
            i += 1
        self.num_actions = i
        # geometry
        dirs = directions_26()
        jumps = knight_steps()
        X, Y, Z = self.X, self.Y, self.Z
        kind = p.get("board_kind", "box")
        self.wrap = kind == "toroid"
        self.hexes = kind == "hexagons"
        self.tetra = kind == "tetrakis"
        bX = p.get("board_width", X)
        self.nbr = <int16_t*>malloc(self.S * 26 * sizeof(int16_t))
        self.tnbr = <int16_t*>malloc(self.T * 26 * sizeof(int16_t))
        self.step = <int16_t*>malloc(self.T * 26 * sizeof(int16_t))
        self.knight = <int16_t*>malloc(self.T * 24 * sizeof(int16_t))
        self.locked = <uint8_t*>malloc(self.S)
        self.is_axis = <uint8_t*>malloc(26)
        self.zob = <uint64_t*>malloc(self.S * (self.C + 1) * sizeof(uint64_t))
        if not (self.nbr and self.tnbr and self.step and self.knight and self.locked and self.is_axis
                and self.zob):
            raise MemoryError()
        for d in range(26):
            self.is_axis[d] = 1 if sum(abs(v) for v in dirs[d]) == 1 else 0
            if self.hexes and dirs[d][0] + dirs[d][1] == 0 and dirs[d][2] == 0:
                self.is_axis[d] = 1       # hexagons: (1, -1) is an axis like x and y
            if self.tetra and (dirs[d] in TETRAKIS_LINES or (-dirs[d][0], -dirs[d][1], -dirs[d][2])
                               in TETRAKIS_LINES):
                self.is_axis[d] = 1       # tetrakis: every step crosses a side
        for c in range(self.S):
            x, y, z = c % X, (c // X) % Y, c // self.XY
            for d in range(26):
                self.nbr[c * 26 + d] = kind_step(self, x, y, z, dirs[d], Z, bX)
        self.nrun = 0                    # skip the lines no cell has (9 of 13 on Connect4)
        for d in range(13, 26):
            if any(self.nbr[c * 26 + d] >= 0 for c in range(self.S)):
                self.run_dir[self.nrun] = d
                self.nrun += 1
        line_tables(self, p)
        tz = 1 if self.gravity else Z
        for t in range(self.T):
            x, y, z = t % X, (t // X) % Y, t // self.XY
            for d in range(26):
                self.tnbr[t * 26 + d] = kind_step(self, x, y, z, dirs[d], tz, bX)
            for d in range(24):
                self.knight[t * 24 + d] = kind_step(self, x, y, z, jumps[d], tz, bX)
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
        split_boards(self, p)
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
        if self.nboards > 1:      # boards: decided mask, then MAX_SEATS results per board
            self.block += 1 + self.nboards * MAX_SEATS
        self.block += round_layout(self, p)     # the round region
        shape_block_layout(self, p)                  # shape plane, per-shape reserves, pots, chains
        cloak_layout(self, p)
        last_row_layout(self, p)
        deck_layout(self, p)                         # the deck region (a deck only)
        self.init = <int16_t*>malloc(self.block * sizeof(int16_t))
        memset(self.init, 0, self.block * sizeof(int16_t))
        for c, colour in p["pieces"]:
            self.init[c] = colour + 1
        for c in range(self.C):
            self.init[self.S + 3 * self.T + c] = self.reserve0[c]
        outcome_tables(self, p)
        seat_lock_tables(self, p.get("seat_locks"))
        shape_init_block(self, p)
        if self.sim:
            round_init_block(self)
        if self.deck:
            deck_init_block(self, p)


def kind_step(Tables tab, int x, int y, int z, tuple d, int depth, int bX):
    """The cell (or target, with ``depth`` 1 on stacks) one step ``d`` from
    (x, y, z), or -1 off the board: a toroid wraps x around its board and
    y; hexagons have no (1, 1) diagonal (docs/rules/ttt/boards.md)."""
    cdef int nx = x + d[0], ny = y + d[1], nz = z + d[2]
    if tab.tetra:
        return tetrakis_step(tab, x, y, z, d)
    if tab.hexes and d[0] == d[1] != 0:
        return -1                     # hexagons: (1, 1) and (-1, -1) touch at a corner only
    if tab.wrap:                      # (+ bX, + Y: C's % keeps the sign of a negative step)
        nx = (x // bX) * bX + (x % bX + d[0] + bX) % bX
        ny = (ny + tab.Y) % tab.Y
    if 0 <= nx < tab.X and 0 <= ny < tab.Y and 0 <= nz < depth:
        return nx + tab.X * (ny + tab.Y * nz)
    return -1


#: tetrakis squares: each line's step (dx, dy, dz) -> {triangle: (its next
#: triangle, the square's x, y step)}; triangles 0 N, 1 E, 2 S, 3 W. A line
#: enters a triangle by one side and leaves by another: the rows above and
#: below a square's centre (W N E, W S E) and the columns right and left of
#: it (S E N, S W N) (docs/rules/ttt/boards.md).
TETRAKIS_LINES = {
    (1, 0, 0): {3: (0, 0, 0), 0: (1, 0, 0), 1: (3, 1, 0)},
    (1, 0, 1): {3: (2, 0, 0), 2: (1, 0, 0), 1: (3, 1, 0)},
    (0, 1, 0): {2: (1, 0, 0), 1: (0, 0, 0), 0: (2, 0, 1)},
    (0, 1, 1): {2: (3, 0, 0), 3: (0, 0, 0), 0: (2, 0, 1)},
}


def tetrakis_step(Tables tab, int x, int y, int z, tuple d):
    """The triangle one step ``d`` from triangle z of square (x, y) along a
    tetrakis line (a step back is the step forward read backwards), or -1."""
    forward = TETRAKIS_LINES.get(d)
    if forward is None:
        back = TETRAKIS_LINES.get((-d[0], -d[1], -d[2]))
        if back is None:
            return -1                 # no line, and no knight's leap, on tetrakis squares
        for t, (u, sx, sy) in back.items():
            if u == z and 0 <= x - sx < tab.X and 0 <= y - sy < tab.Y:
                return x - sx + tab.X * (y - sy + tab.Y * t)
        return -1
    if z not in forward:
        return -1
    u, sx, sy = forward[z]
    if 0 <= x + sx < tab.X and 0 <= y + sy < tab.Y:
        return x + sx + tab.X * (y + sy + tab.Y * u)
    return -1


cdef void line_tables(Tables tab, dict p) except *:
    """What a simultaneous round's turn checks may skip (end_round).
    A run along a line is at most as long as the line, so the
    lines through a cell shorter than the shortest check cannot make any
    check hold; and without shapes (no captures or conversions: a piece
    keeps its colour, and only placements spend a reserve to add one) a
    colour has at most its starting pieces plus what its reserve spent on
    the board, so while that is below the shortest check nothing of that
    colour can hold one either."""
    cdef int c, d, j, x, n
    tab.min_check_k = 0
    for i in range(tab.nchecks):
        if tab.min_check_k == 0 or tab.check_k[i] < tab.min_check_k:
            tab.min_check_k = tab.check_k[i]
    for c, colour in p["pieces"]:
        tab.init_count[colour] += 1
    tab.crun = <uint8_t*>malloc(tab.S * 13)
    tab.ncrun = <uint8_t*>malloc(tab.S)
    if not (tab.crun and tab.ncrun):
        raise MemoryError()
    for c in range(tab.S):
        tab.ncrun[c] = 0
        for j in range(tab.nrun):
            d = tab.run_dir[j]
            n = 1
            x = tab.nbr[c * 26 + d]
            while x >= 0 and x != c:        # a toroid's line comes back to c
                n += 1
                x = tab.nbr[x * 26 + d]
            x = tab.nbr[c * 26 + 25 - d] if x < 0 else -1
            while x >= 0 and x != c:
                n += 1
                x = tab.nbr[x * 26 + 25 - d]
            if n >= tab.min_check_k:
                tab.crun[c * 13 + tab.ncrun[c]] = d
                tab.ncrun[c] += 1


cdef void split_boards(Tables tab, dict p) except *:
    """Boards: with several boards side by side along x, no neighbour,
    knight jump or step crosses from one board to another, and the
    alquerque pattern's diagonals follow each board's own x."""
    cdef int c, d, n, t, lx, y
    tab.nboards = p.get("boards", 1)
    tab.bX = p.get("board_width", tab.X)
    if tab.nboards > MAX_BOARDS:
        raise ValueError("rule set exceeds the engine's limits")
    if tab.nboards == 1:
        return
    for c in range(tab.S):
        for d in range(26):
            n = tab.nbr[c * 26 + d]
            if n >= 0 and (n % tab.X) // tab.bX != (c % tab.X) // tab.bX:
                tab.nbr[c * 26 + d] = -1
    for t in range(tab.T):
        for d in range(26):
            n = tab.tnbr[t * 26 + d]
            if n >= 0 and (n % tab.X) // tab.bX != (t % tab.X) // tab.bX:
                tab.tnbr[t * 26 + d] = -1
        for d in range(24):
            n = tab.knight[t * 24 + d]
            if n >= 0 and (n % tab.X) // tab.bX != (t % tab.X) // tab.bX:
                tab.knight[t * 24 + d] = -1
        lx = (t % tab.X) % tab.bX
        y = (t // tab.X) % tab.Y
        for d in range(26):
            if not tab.is_axis[d] and (tab.move == MOVE_ORTHOGONAL or
                                       (tab.move == MOVE_ALQUERQUE and (lx + y) % 2)):
                tab.step[t * 26 + d] = -1
            else:
                tab.step[t * 26 + d] = tab.tnbr[t * 26 + d]


cdef inline int board_of(TTTCore core, int i) noexcept:
    """The board of a cell or target (both have x = i % X)."""
    return (i % core.tab.X) // core.tab.bX


cdef inline bint target_free(TTTCore core, int t) noexcept:
    """Whether a piece may enter target t now (its landing cell is empty,
    not locked, and not locked for this phase)."""
    if core.tab.nboards > 1 and board_closed(core, t):     # boards: a decided board is locked
        return False
    if core.tab.gravity:
        return core.top[t] < core.tab.Z and (
            core.plock == NULL or not core.plock[t + core.tab.XY * core.top[t]])
    return core.cell[t] == 0 and not core.tab.locked[t] and (core.plock == NULL or not core.plock[t])


cdef inline void free_remove(TTTCore core, int t) noexcept:
    cdef int i = core.fpos[t]
    cdef int last = core.freel[core.num_free - 1]
    core.freel[i] = last
    core.fpos[last] = i
    core.num_free -= 1


cdef inline void free_add(TTTCore core, int t) noexcept:
    core.fpos[t] = core.num_free
    core.freel[core.num_free] = t
    core.num_free += 1


cdef inline void refresh_free(TTTCore core, int t) noexcept:
    """Put target t in or out of the free list to match ``target_free``."""
    cdef int i = core.fpos[t]
    cdef bint listed = 0 <= i < core.num_free and core.freel[i] == t
    cdef bint free_now = target_free(core, t)
    if listed and not free_now:
        free_remove(core, t)
    elif free_now and not listed:
        free_add(core, t)


cdef void sync_free_stack(TTTCore core, int t) noexcept:
    """Stacks: target t is in the free list exactly when a piece may land
    on it (what land and lift_source keep for one piece at a time)."""
    cdef Tables tab = core.tab
    cdef bint want = core.top[t] < tab.Z and (core.plock == NULL or not core.plock[t + tab.XY * core.top[t]])
    cdef bint have = core.fpos[t] < core.num_free and core.freel[core.fpos[t]] == t
    if want and not have:
        free_add(core, t)
    elif have and not want:
        free_remove(core, t)


cdef inline int land(TTTCore core, int t, int piece) noexcept:
    """Put ``piece`` on target t; returns its cell."""
    cdef Tables tab = core.tab
    cdef int c
    if tab.gravity:
        c = t + tab.XY * core.top[t]
        core.top[t] += 1
        if core.top[t] == tab.Z or (core.plock != NULL and core.plock[c + tab.XY]):
            free_remove(core, t)
    else:
        c = t
        free_remove(core, t)
    core.cell[c] = piece
    core.board_hash ^= tab.zob[c * (tab.C + 1) + piece]
    return c


cdef inline int lift_source(TTTCore core, int f) noexcept:
    """The cell the top piece of target f leaves, with target f made free
    again and its stack lowered; the caller empties the cell. Shared by
    every move (plain, shaped, and a simultaneous round's)."""
    cdef Tables tab = core.tab
    cdef int src
    if tab.gravity:
        src = f + tab.XY * (core.top[f] - 1)
        # f was full, or its landing cell locked for the phase; the cell
        # the piece leaves is not (its exit would be locked)
        if core.top[f] == tab.Z or (core.plock != NULL and core.plock[src + tab.XY]):
            free_add(core, f)
        core.top[f] -= 1
    else:
        src = f
        free_add(core, f)
    return src


cdef inline int top_cell(TTTCore core, int m) noexcept:
    """The cell a jump or surround reads on target m: m on a flat board, the
    top of stack m on stacks ("moves are always to the tops of stacks"), or
    -1 for an empty stack."""
    if not core.tab.gravity:
        return m
    return m + core.tab.XY * (core.top[m] - 1) if core.top[m] else -1


cdef inline int run_length(TTTCore core, int c, int d, int piece) noexcept:
    """Length of the same-piece run through cell c along direction d and its opposite."""
    cdef int16_t* nbr = core.tab.nbr
    cdef int16_t* cell = core.cell
    cdef int n = 1
    cdef int x = nbr[c * 26 + d]
    while x >= 0 and cell[x] == piece:
        if x == c:
            return n      # a toroid's whole line: each cell counts once
        n += 1
        x = nbr[x * 26 + d]
    x = nbr[c * 26 + 25 - d]
    while x >= 0 and cell[x] == piece:
        n += 1
        x = nbr[x * 26 + 25 - d]
    return n

# Shapes and their moves: the shapes in play and their rank, per-shape
# reserves, per-shape moves (adjacent, lines, knights, forward...), goal
# lines, "cannot move backwards" and the replacement a move reaching its
# goal names. Included by _engine.pyx; functions take the core (or the
# tables) first. Rules: docs/rules/ttt/shapes.md.
#
# A rule set with a shape other than the circle, a move of the
# specification's extension list or goal lines takes the shapes path
# (``tab.shaped``); the circles-only path (_turns.pxi) hands over here
# through one test each. A piece keeps its colour in ``cell`` (colour index
# + 1, as on the circles-only path, so every colour rule -- lines, counts,
# area, locks, cloaking -- reads it unchanged) and its shape (index in the
# specification's rank order, SHAPES_ALL) in the shape plane ``shp`` of the
# same block, which moves with it; the per-shape reserves ``sres`` sit
# beside it and ``reserve`` keeps each colour's total. Action ids:
# placements name a shape, ``(k*choices + ch)*T + t``; moves
# ``move0 + f*T + u``; a move reaching the goal ``rep0 + (r*T + f)*T + u``
# (r the replacement shape).

from libc.stdlib cimport malloc, free
from libc.string cimport memset
from libc.stdint cimport int8_t, int16_t, uint8_t, uint64_t
from games.rng cimport Rng, mix64, rng_seed, rng_next
from games.ttt.codes cimport (
    MOVE_NONE, MOVE_LINEAR_KNIGHT, MOVE_ALQUERQUE, MOVE_ORTHOGONAL, MOVE_ADJ_DIAGONAL, MOVE_ORTH_LINE,
    MOVE_DIAG_LINE, MOVE_LINEAR, MOVE_FORWARD_ORTH, MOVE_FORWARD_DIAG, MOVE_KNIGHT, MOVE_KNIGHT3,
    MOVE_ADJ_KNIGHT, MOVE_ADJ_NO_BACK, MOVE_ADJ_NO_BACK_SIDE, MOVE_ORTH_NO_BACK, MOVE_PAWN, POWER_NONE,
    COND_TRIAGONAL, COND_DIAG_EN_PASSANT)


cdef inline bint outranks(int a, int b) noexcept:
    """The specification's rank on SHAPES_ALL indices (circle 0 .. pentagon
    5): "Pentagon outranks star which outranks cross which outranks X which
    outranks triangle which outranks circle (but circle outranks pentagon and
    only pentagon)". The one place the engine ranks shapes; the by-rank rules
    (covers, collisions: _captures.pxi) read it. Python's copy:
    ``schema.outranks``."""
    if a == 0 and b == 5:
        return True
    if a == 5 and b == 0:
        return False
    return a > b


def shape_outranks(int a, int b):
    """Whether shape a outranks shape b (SHAPES_ALL indices): the engine's
    rank, public as ``games.ttt.shape_outranks``."""
    return outranks(a, b)


cdef int shape_action_layout(Tables tab, dict p, int i) except -1:
    """The shapes path's action layout: placements name a shape (nplace
    already counts K shapes); after the moves, the replacement moves
    ``rep0 + (r*T + f)*T + u`` (a move reaching the goal that turns the
    piece into replacement shape r). Returns the next free action id."""
    cdef int k
    tab.shaped = p.get("shaped", False)
    tab.K = 1
    tab.R = 0
    tab.rep0 = i
    for k in range(MAX_SHAPES):
        tab.shape_local[k] = -1
    tab.a_pass_or_end = i
    if not tab.shaped:
        tab.shape_local[0] = 0
        tab.shape_global[0] = 0
        return i
    tab.K = len(p["shape_global"])
    for k in range(tab.K):
        tab.shape_global[k] = p["shape_global"][k]
        tab.shape_local[tab.shape_global[k]] = k
        tab.shape_move[k] = p["shape_moves"][k]
        tab.shape_no_back[k] = p["shape_no_back"][k]
        tab.shape_rook[k] = p.get("shape_rook", [False] * tab.K)[k]
    tab.R = len(p["replacers"])
    for k in range(tab.R):
        tab.replacer[k] = p["replacers"][k]
    for k in range(MAX_SEATS):
        tab.goal_axis[k] = -1
        tab.goal_high[k] = 0
    for k, (axis, high) in enumerate(p["goals"]):
        tab.goal_axis[k] = axis
        tab.goal_high[k] = high
    tab.goal_check = p["goal_check"]
    tab.last_pentagon = p.get("last_pentagon", False)
    tab.en_passant = p.get("en_passant", False)
    tab.castle = p.get("castle", False)
    tab.king_k = p.get("king", -1)
    capture_tables(tab, p)                          # powers, jumps, surrounds, pots
    if tab.move:
        i += tab.R * tab.T * tab.T
    # by-stack moves name the mover's cell (it need not be a top)
    tab.by_stack = False
    for k in range(tab.K):
        if moves_by_stack(tab.shape_move[k]):
            tab.by_stack = True
    tab.stk0 = i
    tab.nstk = (1 + tab.R) * tab.S * tab.T if (tab.by_stack and tab.move) else 0
    i += tab.nstk
    tab.a_pass_or_end = i
    return i


cdef void shape_block_layout(Tables tab, dict p) except *:
    """The shape plane and per-shape reserves at the end of the block
    (before the cloaking tail, so a player's view copies them; then the pot
    region and the pending chain), the 3-D knight's jumps, the directions'
    components, and the shape keys."""
    cdef int t, d, n, x, y, z, nx, ny, nz, i
    if not tab.shaped:
        return
    tab.shp0 = tab.block
    tab.sres0 = tab.shp0 + tab.S
    tab.block = tab.sres0 + tab.C * tab.K
    tab.paralyzes = p.get("paralyzes", False)
    if tab.paralyzes:                 # "Paralyzes captive(s)": one flag per cell
        tab.para0 = tab.block
        tab.block += tab.S
    pot_layout(tab)
    chain_layout(tab)
    if tab.en_passant:                  # the space a pawn's double step just passed over, and the pawn
        tab.ep0 = tab.block
        tab.block += 2
    if tab.castle:                      # "Castle": per cell, whether the piece there has moved
        tab.moved0 = tab.block
        tab.block += tab.S
    dirs = directions_26()
    tab.dcomp = <int8_t*>malloc(26 * 3)
    tab.knight3 = <int16_t*>malloc(tab.T * 24 * sizeof(int16_t))
    tab.szob = <uint64_t*>malloc(tab.S * MAX_SHAPES * sizeof(uint64_t))
    if not (tab.dcomp and tab.knight3 and tab.szob):
        raise MemoryError()
    for d in range(26):
        for i in range(3):
            tab.dcomp[d * 3 + i] = dirs[d][i]
    jumps = [j for j in ((a, b, c) for a in (-2, -1, 1, 2) for b in (-2, -1, 1, 2)
                         for c in (-2, -1, 1, 2))
             if sorted(map(abs, j)) == [1, 1, 2]]
    tz = 1 if tab.gravity else tab.Z
    for t in range(tab.T):
        x, y, z = t % tab.X, (t // tab.X) % tab.Y, t // tab.XY
        for d in range(24):
            nx, ny, nz = x + jumps[d][0], y + jumps[d][1], z + jumps[d][2]
            n = ((nx + tab.X * (ny + tab.Y * nz))
                 if (0 <= nx < tab.X and 0 <= ny < tab.Y and 0 <= nz < tz) else -1)
            if n >= 0 and tab.nboards > 1 and nx // tab.bX != x // tab.bX:
                n = -1            # boards: no jump crosses to another board
            tab.knight3[t * 24 + d] = n
    cdef Rng rng
    rng_seed(&rng, <uint64_t>0x5A4E5 ^ (<uint64_t>tab.S << 16))
    for i in range(tab.S * MAX_SHAPES):
        tab.szob[i] = rng_next(&rng)


cdef void shape_init_block(Tables tab, dict p) except *:
    """Pre-placed pieces' shapes and the per-shape reserves of the start."""
    cdef int c, k
    if not tab.shaped:
        return
    for c, shape in p["piece_shapes"]:
        tab.init[tab.shp0 + c] = shape
    for c in range(tab.C):
        for k in range(tab.K):
            tab.init[tab.sres0 + c * tab.K + k] = p["shape_reserves"][c][k]
    if tab.pots:
        for c in range(tab.pot_len):
            tab.init[tab.pot0 + c] = 0


cdef inline int shape_at(TTTCore core, int c) noexcept:
    """Shape index (SHAPES_ALL) of the piece on cell c: on the circles-only
    path every piece is a circle (0); the shapes path keeps the shape plane."""
    return core.shp[c] if core.shp != NULL else 0


cdef inline void set_shape(TTTCore core, int c, int shape) noexcept:
    core.shp[c] = shape
    core.board_hash ^= core.tab.szob[c * MAX_SHAPES + shape]


cdef inline void replace_shape(TTTCore core, int c, int k) noexcept:
    """The piece on cell c takes local shape k (a goal's replacement)."""
    core.board_hash ^= core.tab.szob[c * MAX_SHAPES + core.shp[c]]
    set_shape(core, c, core.tab.shape_global[k])


cdef uint64_t shape_reserves_hash(TTTCore core) noexcept:
    """Per-shape reserves (a replacement changes a piece's shape, so the
    board does not tell them)."""
    cdef uint64_t h = 0
    cdef int i
    for i in range(core.tab.C * core.tab.K):
        h = mix64(h ^ (<uint64_t>(core.sres[i] + 1) * <uint64_t>0x9E3779B97F4A7C15ULL + <uint64_t>i))
    return h


cdef inline int goal_rows(TTTCore core, int seat, int t) noexcept:
    """Rows from target t to ``seat``'s goal line (-1: the seat has no goal)."""
    cdef Tables tab = core.tab
    cdef int axis, v, n
    if seat >= tab.nplayers or tab.goal_axis[seat] < 0:
        return -1
    axis = tab.goal_axis[seat]
    if axis == 0:
        v = (t % tab.X) % tab.bX
        n = tab.bX
    else:
        v = (t // tab.X) % tab.Y
        n = tab.Y
    return (n - 1 - v) if tab.goal_high[seat] else v


cdef inline bint reaches_goal(TTTCore core, int seat, int k, int f, int u) noexcept:
    """Whether moving the local-shape-k piece from f to u "reaches the
    goal" so that the move must name a replacement shape: the shape
    cannot move backwards, and u is on the mover's goal line, f is not."""
    return (core.tab.shape_no_back[k] and core.tab.R > 0 and goal_rows(core, seat, f) > 0
            and goal_rows(core, seat, u) == 0)


cdef int movable_shape(TTTCore core, int seat, int f) noexcept:
    """The local shape of the piece ``seat`` may move from target f, or -1:
    its colour is the seat's, its shape moves, no identical piece (colour
    and shape) is in reserve, and locks let it leave."""
    cdef Tables tab = core.tab
    cdef int c, piece, k
    if tab.nboards > 1 and board_closed(core, f):
        return -1
    if tab.gravity:
        if core.top[f] == 0:
            return -1
        c = f + tab.XY * (core.top[f] - 1)
    else:
        c = f
    piece = core.cell[c]
    if piece == 0 or (core.plock != NULL and core.plock[c]):
        return -1
    if core.pexit != NULL and (core.pexit[c] >> seat) & 1:
        return -1
    if not ((tab.seat_mask[seat] >> (piece - 1)) & 1):
        return -1
    k = tab.shape_local[core.shp[c]]
    if tab.shape_move[k] == MOVE_NONE or core.sres[(piece - 1) * tab.K + k] > 0:
        return -1
    if tab.paralyzes and core.mem[tab.para0 + c]:
        return -1                     # a paralysed piece never moves again
    if moves_by_stack(tab.shape_move[k]):
        return -1                     # by-stack movers use the stack ids
    return k


cdef bint shape_piece_movable(TTTCore core, int s, int c) noexcept:
    """Cloaking's "every piece they can move" on the shapes path (the
    caller has checked movement and that s plays)."""
    cdef Tables tab = core.tab
    cdef int piece = core.cell[c]
    cdef int k = tab.shape_local[core.shp[c]]
    if moves_by_stack(tab.shape_move[k]):
        return stack_mover_shape(core, s, c) >= 0      # from any height it may carry from
    if not ((tab.seat_mask[s] >> (piece - 1)) & 1) or tab.shape_move[k] == MOVE_NONE:
        return False
    if core.sres[(piece - 1) * tab.K + k] > 0:
        return False
    if tab.locked[c] or (core.plock != NULL and core.plock[c]):
        return False
    if tab.gravity and c // tab.XY != core.top[c % tab.XY] - 1:
        return False
    return True


cdef inline bint goal_bound(int move) noexcept:
    """Whether a move's directions depend on the mover's goal line: the
    forward moves and the "no back" moves (a seat without a goal, Chaos,
    has none of their directions)."""
    return (move == MOVE_FORWARD_ORTH or move == MOVE_FORWARD_DIAG or move == MOVE_ADJ_NO_BACK
            or move == MOVE_ADJ_NO_BACK_SIDE or move == MOVE_ORTH_NO_BACK or move == MOVE_PAWN)


cdef inline bint goal_direction_ok(Tables tab, int seat, int move, int d, int axis, int f) noexcept:
    """For a goal-bound move from target f, whether direction d (a step
    with component +1 towards the goal, 0 sideways, -1 backwards on the
    goal's axis) is one of its directions: forward ones need the +1; "no
    back" forbids the -1; "no back/side" needs the +1; the pawn takes the
    axis step forward, or an axis step sideways towards the board's centre."""
    cdef int toward = tab.dcomp[d * 3 + axis] * (1 if tab.goal_high[seat] else -1)
    if move == MOVE_ADJ_NO_BACK or move == MOVE_ORTH_NO_BACK:
        return toward >= 0
    if move == MOVE_PAWN:
        return tab.is_axis[d] and (toward == 1 or (toward == 0 and towards_centre(tab, f, d)))
    return toward == 1


cdef inline bint towards_centre(Tables tab, int f, int d) noexcept:
    """Whether the axis step d from target f ends nearer the centre of the
    board (of its own board, with several) along that axis."""
    cdef int a, v, n, s
    for a in range(3):
        s = tab.dcomp[d * 3 + a]
        if s != 0:
            break
    if a == 0:
        v, n = (f % tab.X) % tab.bX, tab.bX
    elif a == 1:
        v, n = (f // tab.X) % tab.Y, tab.Y
    else:
        v, n = f // tab.XY, tab.Z
    return abs(2 * (v + s) - (n - 1)) < abs(2 * v - (n - 1))


cdef inline bint shape_destination(TTTCore core, int seat, int f, int u, int k, bint noback, int d0,
                                   uint8_t* mark) noexcept:
    """Whether u is a new destination (marked) for the piece (local shape
    k) on f."""
    if u < 0 or u == f or not may_arrive(core, seat, k, u) or not may_enter(core, seat, u):
        return False
    if noback and goal_rows(core, seat, u) > d0:
        return False                  # "cannot move [...] away from his/her own goal line"
    if mark != NULL:
        if mark[u]:
            return False
        mark[u] = 1
    return True


cdef int shape_destinations(TTTCore core, int seat, int f, int k, uint8_t* mark) noexcept:
    """Targets the piece of local shape k on target f may move to under
    its shape's move, marked in ``mark``; with ``mark`` NULL, 1 as soon as
    one exists. Lines go any distance over locked spaces, and stop at the
    first piece when pieces block them (its target may still be the
    destination: a cover where a power allows it, or a stack's top), as the
    circles-only linear-or-knight does; stacks ignore height."""
    cdef Tables tab = core.tab
    cdef int move = tab.shape_move[k], d, u, n = 0, lx, y
    cdef int axis = tab.goal_axis[seat] if seat < tab.nplayers else -1
    cdef bint forward = goal_bound(move)
    cdef bint noback = tab.shape_no_back[k] and axis >= 0
    cdef bint linear = (move == MOVE_ORTH_LINE or move == MOVE_DIAG_LINE or move == MOVE_LINEAR
                        or move == MOVE_LINEAR_KNIGHT or move == MOVE_ORTH_NO_BACK)
    cdef int d0 = goal_rows(core, seat, f) if noback else -1
    if tab.powers and tab.shape_cond[k] == COND_TRIAGONAL and tab.shape_power[k] != POWER_NONE:
        n = triagonal_captures(core, seat, f, k, noback, d0, mark)      # "Move on triagonal"
        if n and mark == NULL:
            return 1
    if tab.powers and tab.shape_cond[k] == COND_DIAG_EN_PASSANT and tab.shape_power[k] != POWER_NONE:
        n = diagonal_captures(core, seat, f, k, mark)                   # "Move on diag + en passe"
        if n and mark == NULL:
            return 1
    if forward and axis < 0:
        return n                      # no goal (Chaos): no forward
    if move == MOVE_KNIGHT or move == MOVE_KNIGHT3 or move == MOVE_LINEAR_KNIGHT or move == MOVE_ADJ_KNIGHT:
        for d in range(24):
            u = tab.knight3[f * 24 + d] if move == MOVE_KNIGHT3 else tab.knight[f * 24 + d]
            if shape_destination(core, seat, f, u, k, noback, d0, mark):
                n += 1
                if mark == NULL:
                    return 1
        if move != MOVE_LINEAR_KNIGHT and move != MOVE_ADJ_KNIGHT:
            return n      # (adjacent-or-knight goes on with the one-step directions)
    lx = (f % tab.X) % tab.bX
    y = (f // tab.X) % tab.Y
    for d in range(26):
        if (move == MOVE_ORTHOGONAL or move == MOVE_ORTH_LINE or move == MOVE_FORWARD_ORTH
                or move == MOVE_ORTH_NO_BACK or move == MOVE_PAWN):
            if not tab.is_axis[d]:
                continue
        elif move == MOVE_ADJ_DIAGONAL or move == MOVE_DIAG_LINE or move == MOVE_FORWARD_DIAG:
            if tab.is_axis[d]:
                continue
        elif move == MOVE_ALQUERQUE:
            if not tab.is_axis[d] and (lx + y) % 2:
                continue
        if forward and not goal_direction_ok(tab, seat, move, d, axis, f):
            continue
        u = tab.tnbr[f * 26 + d]
        while u >= 0 and u != f:     # (a toroid's line comes back to f)
            if shape_destination(core, seat, f, u, k, noback, d0, mark):
                n += 1
                if mark == NULL:
                    return 1
            if not linear or (tab.line_blocked and holds_piece(core, u)):
                break
            u = tab.tnbr[u * 26 + d]
    if tab.jumps and jump_captor(tab.shape_cond[k]) \
            and tab.shape_power[k] != POWER_NONE:
        n += jump_destinations(core, seat, f, k, mark)
    if move == MOVE_PAWN and tab.en_passant:
        u = double_step(core, seat, f)
        if u >= 0 and shape_destination(core, seat, f, u, k, noback, d0, mark):
            n += 1
    if tab.castle and k == tab.king_k:
        for d in range(26):
            if castle_rook(core, seat, f, d) >= 0:      # the king's two-space step
                u = tab.tnbr[tab.tnbr[f * 26 + d] * 26 + d]
                if shape_destination(core, seat, f, u, k, noback, d0, mark):
                    n += 1
                    if mark == NULL:
                        return 1
    return n


# -- "Castle" (docs/rules/ttt/turns.md, "Castle") ----------------------------------


cdef inline bint has_moved(TTTCore core, int c) noexcept:
    """Whether the piece on cell c has moved since it came onto the board
    (pre-placed or placed from a reserve); an empty cell's flag is stale."""
    return core.cell[c] != 0 and core.mem[core.tab.moved0 + c] != 0


cdef int castle_rook(TTTCore core, int seat, int f, int d) noexcept:
    """The cell of the rook that ``seat``'s king on target f castles with
    along direction d, or -1: d is an axis across the seat's goal axis, the
    king has not moved, the two spaces it steps over and onto are open to
    it, only empty spaces lie between it and the first piece along d, and
    that piece is a rook of the king's colour that has not moved and that
    the seat may move."""
    cdef Tables tab = core.tab
    cdef int axis = tab.goal_axis[seat] if seat < tab.nplayers else -1, u1, u2, r, k
    if axis < 0 or not tab.is_axis[d] or tab.dcomp[d * 3 + axis] != 0 or has_moved(core, f):
        return -1
    u1 = tab.tnbr[f * 26 + d]
    if u1 < 0 or not target_free(core, u1) or not may_enter(core, seat, u1):
        return -1
    u2 = tab.tnbr[u1 * 26 + d]
    if u2 < 0 or not target_free(core, u2) or not may_enter(core, seat, u2):
        return -1
    r = tab.tnbr[u2 * 26 + d]
    while r >= 0 and r != f and not holds_piece(core, r):
        r = tab.tnbr[r * 26 + d]
    if r < 0 or r == f or core.cell[r] != core.cell[f] or has_moved(core, r):
        return -1
    k = movable_shape(core, seat, r)
    return r if k >= 0 and tab.shape_rook[k] else -1


cdef int castle_of(TTTCore core, int seat, int f, int u) noexcept:
    """The rook's cell when ``seat``'s move from f to u is a castle (-1: not one)."""
    cdef Tables tab = core.tab
    cdef int d, u1
    if not tab.castle or core.cell[f] == 0 or tab.shape_local[core.shp[f]] != tab.king_k:
        return -1
    for d in range(26):
        u1 = tab.tnbr[f * 26 + d]
        if u1 >= 0 and tab.tnbr[u1 * 26 + d] == u:
            return castle_rook(core, seat, f, d)
    return -1


cdef void apply_castle(TTTCore core, int f, int u, int rook) noexcept:
    """The king steps from f two spaces to u and the rook lands on the
    space it passed over; both have moved. The ply's end looks for lines
    through both."""
    cdef Tables tab = core.tab
    cdef int piece = core.cell[f], king = core.shp[f], shape = core.shp[rook], c, cr
    cdef int mid = tab.tnbr[f * 26 + castle_direction(core, f, u)]
    lift_source(core, f)
    clear_cell(core, f)
    lift_source(core, rook)
    clear_cell(core, rook)
    c = land(core, u, piece)
    set_shape(core, c, king)
    cr = land(core, mid, piece)
    set_shape(core, cr, shape)
    core.mem[tab.moved0 + f] = 0
    core.mem[tab.moved0 + rook] = 0
    core.mem[tab.moved0 + c] = 1
    core.mem[tab.moved0 + cr] = 1
    core.chain_land = -1
    core.moves += 1
    core.castled = cr
    end_ply(core, c, piece)


cdef inline int castle_direction(TTTCore core, int f, int u) noexcept:
    cdef int d, u1
    for d in range(26):
        u1 = core.tab.tnbr[f * 26 + d]
        if u1 >= 0 and core.tab.tnbr[u1 * 26 + d] == u:
            return d
    return -1


cdef uint64_t moved_hash(TTTCore core, int16_t* m) noexcept:
    """The pieces that have moved, for the state's hash (each cell c read
    as m[c] under a symmetry's map m; NULL: as it is)."""
    cdef uint64_t h = 0
    cdef int c
    for c in range(core.tab.S):
        if has_moved(core, c):
            h ^= mix64(<uint64_t>((m[c] if m != NULL else c) + 1) * <uint64_t>0x8CB92BA72F3D8DD7ULL + 6262)
    return h


cdef int double_step(TTTCore core, int seat, int f) noexcept:
    """With "En passant", a pawn's double first step: from the row farthest
    from its seat's goal line, two steps forward along the goal's axis over
    a space holding no piece; the target it reaches (-1: none)."""
    cdef Tables tab = core.tab
    cdef int axis = tab.goal_axis[seat] if seat < tab.nplayers else -1, d, u
    if axis < 0 or goal_rows(core, seat, f) != (tab.bX if axis == 0 else tab.Y) - 1:
        return -1
    for d in range(26):
        if tab.is_axis[d] and tab.dcomp[d * 3 + axis] * (1 if tab.goal_high[seat] else -1) == 1:
            u = tab.tnbr[f * 26 + d]
            if u < 0 or holds_piece(core, u):
                return -1
            return tab.tnbr[u * 26 + d]
    return -1


cdef bint shape_can_move(TTTCore core, int seat) noexcept:
    cdef int f, k
    if core.tab.ph_move[core.phase] == MOVE_NONE or (core.num_free == 0 and not core.tab.powers):
        return False
    for f in range(core.tab.T):
        k = movable_shape(core, seat, f)
        if k >= 0 and shape_destinations(core, seat, f, k, NULL):
            return True
    if core.tab.nstk:
        return stack_can_move(core, seat)
    return False


cdef int shape_seat_actions(TTTCore core, int seat, int* out) noexcept:
    """Placements (a shape and, when players choose, a colour), moves,
    replacement moves and pass of ``seat``, ascending."""
    cdef Tables tab = core.tab
    cdef int n = 0, sh, ch, colour, t, f, u, r, k, kind
    cdef uint8_t* mark
    if tab.chains and core.mem[tab.chain0]:
        return chain_actions(core, seat, out)          # the continuation only
    for sh in range(tab.K):
        for ch in range(tab.choices):
            colour = ch if tab.choices > 1 else tab.colour_of_seat[seat]
            if not ((tab.seat_mask[seat] >> colour) & 1) or core.sres[colour * tab.K + sh] <= 0:
                continue
            for t in range(tab.T):
                if may_arrive(core, seat, sh, t) and may_enter(core, seat, t):
                    out[n] = (sh * tab.choices + ch) * tab.T + t
                    n += 1
    if tab.ph_move[core.phase] != MOVE_NONE and (core.num_free > 0 or tab.powers):
        mark = <uint8_t*>malloc(tab.T)
        for kind in range(1 + tab.R):      # plain moves, then each replacement shape's
            for f in range(tab.T):
                k = movable_shape(core, seat, f)
                if k < 0:
                    continue
                memset(mark, 0, tab.T)
                if shape_destinations(core, seat, f, k, mark) == 0:
                    continue
                for u in range(tab.T):
                    if not mark[u] or reaches_goal(core, seat, k, f, u) != (kind > 0):
                        continue
                    if kind == 0:
                        out[n] = tab.move0 + f * tab.T + u
                    else:
                        out[n] = tab.rep0 + ((kind - 1) * tab.T + f) * tab.T + u
                    n += 1
        free(mark)
        if tab.nstk:
            n = stack_seat_moves(core, seat, out, n)
    if tab.any_must and not core.captures_unforced and capture_forced(core, seat, out, n):
        return keep_captures(core, seat, out, n)     # no pass either
    if tab.ph_pass[core.phase]:
        out[n] = tab.a_pass
        n += 1
    return n


cdef inline void decode_move(TTTCore core, int action, int* r, int* f, int* u) noexcept:
    cdef Tables tab = core.tab
    cdef int a
    if action < tab.move0 + tab.nmove:
        r[0] = -1
        f[0] = (action - tab.move0) // tab.T
        u[0] = (action - tab.move0) % tab.T
    else:
        a = action - tab.rep0
        r[0] = a // (tab.T * tab.T)
        f[0] = (a // tab.T) % tab.T
        u[0] = a % tab.T


cdef inline bint is_replacement_move(TTTCore core, int action) noexcept:
    """Whether ``action`` is a move that reaches the mover's goal and
    names a replacement shape (``rep0 + (r*T + f)*T + u``)."""
    cdef Tables tab = core.tab
    return tab.shaped and tab.R > 0 and tab.move != MOVE_NONE and \
        tab.rep0 <= action < tab.rep0 + tab.R * tab.T * tab.T


cdef object move_source(TTTCore core, int action):
    """The source target of a move id (a plain or a replacement move)."""
    tab = core.tab
    if is_replacement_move(core, action):
        return ((action - tab.rep0) // tab.T) % tab.T
    return (action - tab.move0) // tab.T


cdef object without_shape(TTTCore core, int action):
    """The action id with its shape dropped (placement of the first shape):
    what an observer who sees a piece's colour but not its shape learns."""
    tab = core.tab
    if action < tab.nplace:
        return action % (tab.choices * tab.T)
    if is_replacement_move(core, action):       # the move without its replacement
        return tab.move0 + (action - tab.rep0) % (tab.T * tab.T)
    return action


cdef bint shape_is_legal(TTTCore core, int seat, int action) noexcept:
    cdef Tables tab = core.tab
    cdef int sh, ch, colour, t, r, f, u, k
    cdef uint8_t* mark
    cdef bint ok
    if action < tab.nplace:
        sh = (action // tab.T) // tab.choices
        ch = (action // tab.T) % tab.choices
        t = action % tab.T
        colour = ch if tab.choices > 1 else tab.colour_of_seat[seat]
        return (((tab.seat_mask[seat] >> colour) & 1) and core.sres[colour * tab.K + sh] > 0
                and may_arrive(core, seat, sh, t) and may_enter(core, seat, t))
    if tab.ph_move[core.phase] == MOVE_NONE or (core.num_free == 0 and not tab.powers):
        return False
    if tab.nstk and action >= tab.stk0:
        return stack_is_legal(core, seat, action)
    decode_move(core, action, &r, &f, &u)
    k = movable_shape(core, seat, f)
    if k < 0:
        return False
    mark = <uint8_t*>malloc(tab.T)
    memset(mark, 0, tab.T)
    shape_destinations(core, seat, f, k, mark)
    ok = mark[u] != 0
    free(mark)
    return ok and reaches_goal(core, seat, k, f, u) == (r >= 0)


cdef void apply_shape_action(TTTCore core, int action) noexcept:
    """A placement (of the named shape) or a move (keeping the piece's
    shape, or turning it into the named replacement shape)."""
    cdef Tables tab = core.tab
    cdef int sh, ch, colour, r, f, u, src, piece, shape, c, mk, victim, vpiece, vshape
    core.goal_hit = False
    if action < tab.nplace:
        sh = (action // tab.T) // tab.choices
        ch = (action // tab.T) % tab.choices
        colour = ch if tab.choices > 1 else tab.colour_of_seat[core.seat]
        core.sres[colour * tab.K + sh] -= 1
        core.reserve[colour] -= 1
        if tab.powers:                                  # a cover
            c = arrive(core, core.seat, action % tab.T, colour + 1, sh)
            if tab.castle and c >= 0:
                core.mem[tab.moved0 + c] = 0            # a piece from the reserve has not moved
            if c != -2:
                core.placements += 1
                if c != CP_PAUSED:
                    end_ply(core, c, colour + 1)
                return
        c = land(core, action % tab.T, colour + 1)
        set_shape(core, c, tab.shape_global[sh])
        if tab.castle:
            core.mem[tab.moved0 + c] = 0                # a piece from the reserve has not moved
        if core.seen != NULL:
            core.seen[c] = 1 << core.seat      # cloaking: "every piece they placed"
        if tab.surrounds:
            surround_capture(core, core.seat, c, -1, True)   # the arriving piece surrounds
        core.placements += 1
        end_ply(core, c, colour + 1)
        return
    if tab.nstk and action >= tab.stk0:
        apply_stack_move(core, action)
        return
    decode_move(core, action, &r, &f, &u)
    if tab.castle:
        c = castle_of(core, core.seat, f, u)
        if c >= 0:                  # "Castle": the king's two-space step brings the rook
            apply_castle(core, f, u, c)
            return
    src = lift_source(core, f)
    piece = core.cell[src]
    shape = core.shp[src]
    mk = tab.shape_local[shape]
    core.cell[src] = 0
    core.board_hash ^= tab.zob[src * (tab.C + 1) + piece] ^ tab.szob[src * MAX_SHAPES + shape]
    core.chain_land = -1
    if tab.en_passant:
        victim = en_passant_victim(core, core.seat, mk, f, u, core.ep_space, core.ep_pawn)
        if victim >= 0:             # en passant: the pawn is taken as if it had made one step
            vpiece, vshape = core.cell[victim], core.shp[victim]
            lift_source(core, victim)
            clear_cell(core, victim)
            set_shape(core, land(core, u, vpiece), vshape)
    if tab.jumps:                                       # a jump captures what it passes
        apply_jump(core, piece, tab.shape_local[shape], f, u)
    c = -2
    if tab.powers:                                      # a cover (with the shape that moved)
        c = arrive(core, core.seat, u, piece, tab.shape_local[shape])
        if c == CP_PAUSED:
            core.moves += 1
            return
        if c >= 0 and r >= 0:
            core.board_hash ^= tab.szob[c * MAX_SHAPES + core.shp[c]]
            set_shape(core, c, tab.shape_global[tab.replacer[r]])
    if c == -2:
        c = land(core, u, piece)
        if r >= 0:
            shape = tab.shape_global[tab.replacer[r]]
        set_shape(core, c, shape)
    if core.seen != NULL and c >= 0:
        core.seen[c] = core.seen[src]
        core.seen[src] = 0
    if tab.surrounds and c >= 0:
        surround_capture(core, core.seat, c, f, True)        # the arriving piece surrounds
    core.moves += 1
    if tab.goal_check and c >= 0 and goal_rows(core, core.seat, f) > 0 and goal_rows(core, core.seat, u) == 0:
        core.goal_hit = True                   # read by end_ply after the turn checks
    if tab.en_passant and c >= 0 and tab.shape_move[mk] == MOVE_PAWN \
            and abs(goal_rows(core, core.seat, f) - goal_rows(core, core.seat, u)) == 2:
        core.mem[tab.ep0] = (f + u) // 2 + 1     # a double step: the space it passed over, for one ply
        core.mem[tab.ep0 + 1] = c + 1
    if tab.castle:                  # the piece that stays has moved
        core.mem[tab.moved0 + src] = 0
        if c >= 0:
            core.mem[tab.moved0 + c] = 1
    end_ply(core, c, piece)

# Captures: the powers of shapes ("can capture", "must capture"), their
# conditions (cover by rank, captures other than by rank), their results
# (removes, reincarnates, reincarnates x2, converts), the verdict of a cover,
# "must capture", the covers of by-stack movers, and collisions decided by
# rank. Jumps (_jumps.pxi) and surrounds (_surround.pxi) are the other
# conditions; pots split among several captors (_pots.pxi). Included by
# _engine.pyx; functions take the core (or the tables) first. Rules:
# docs/rules/ttt/captures.md (with "Powers of by-stack movers").
#
# A *cover* is a placement or move whose piece (the attacker) arrives on
# pieces of colours the mover does not own (the defenders): on a flat board
# the piece on the target cell, on stacks every such piece of the target
# stack above its highest locked cell, topmost first. Who captures whom is
# the specification's rank rule (duel); the captor's shape says what happens
# to the captives. Stacks take a cover wherever a piece may land (a cover
# between two pieces without power is plain stacking, as in Connect Four);
# a flat board also takes a piece on an opponent's piece when one of the two
# can capture. Legality asks ``may_arrive`` (a free target, or on flat
# boards a coverable piece) where the shapes path asked ``target_free``; a
# placement or move whose piece arrives on other colours' pieces goes
# through ``arrive``, which decides the cover (``cover_verdict``: the
# defenders, topmost first, against the attacker by ``duel``), applies the
# captor's result and, on stacks, rebuilds the stack (captives out, pieces
# above falling, the attacker on top) and resynchronises the free list. A
# rebuild, because a capture can take any pieces out of a stack, which the
# one-piece ``land``/``lift_source`` steps cannot express. Rule sets without
# powers pay one flag test in ``has_move``, ``is_legal`` (``any_must``) and
# ``end_ply`` (``c >= 0``).

from libc.stdlib cimport malloc, free
from libc.stdint cimport int16_t, uint8_t
from games.ttt.codes cimport (
    POWER_NONE, POWER_MUST, COND_COVER, COND_COVER_RANK, COND_JUMP, COND_CHAIN_JUMP, RESULT_CONVERTS,
    RESULT_REINCARNATES, RESULT_REINCARNATES_X2, RESULT_REINCARNATES_X3, COND_SURROUND_LINE, COND_APPROACH,
    COND_TRIAGONAL, COND_DIAG_EN_PASSANT)
from games.ttt.poker cimport hand_rank, N_SHAPES


cdef enum:
    # the verdict of a cover (cover_verdict)
    CP_NONE = 0               # no capture: the piece lands as it would on an empty target
    CP_WIN = 1                # the attacker captures every defender
    CP_LOSE = 2               # a defender captures the attacker
    CP_MUTUAL = 3             # equal rank: the attacker and the defenders of its rank are destroyed
    CP_MAX_STACK = 20         # a stack is at most MAX_DIM (19) high, plus the attacker
    CP_PAUSED = -3            # arrive: the ply waits for the pot's chance node


cdef void capture_tables(Tables tab, dict p) except *:
    """Which capture rules the rule set plays (powers, jumps, chains,
    surrounds, pots) and each local shape's power, condition and result."""
    cdef int k
    tab.powers = p.get("powers", False)
    tab.jumps = p.get("jumps", False)
    tab.chains = p.get("chains", False)
    tab.surrounds = p.get("surrounds", False)
    tab.pots = p.get("pots", False)
    for k in range(tab.K):
        tab.shape_power[k] = p["shape_powers"][k] if tab.powers else POWER_NONE
        tab.shape_cond[k] = p["shape_conditions"][k] if tab.powers else 0
        tab.shape_result[k] = p["shape_results"][k] if tab.powers else 0
        tab.shape_jump_back[k] = p.get("shape_jump_back", [False] * tab.K)[k] if tab.powers else False
        tab.shape_approach_one[k] = p.get("shape_approach_one", [False] * tab.K)[k] if tab.powers else False
        if tab.shape_power[k] == POWER_MUST:
            tab.any_must = True
    tab.chips = 0                                   # "the lowest possible rank (chips)"
    for k in range(tab.K):
        if tab.shape_power[k] == POWER_NONE:
            tab.chips |= 1 << tab.shape_global[k]


cdef inline int capture_class(TTTCore core, int k) noexcept:
    """The specification's rank class of local shape k in a capture: 0 cannot
    capture ("the lowest rank"), 1 cover by rank, 2 captures other than
    by rank ("highest rank"). Python's copy: ``schema.capture_class``."""
    if core.tab.shape_power[k] == POWER_NONE:
        return 0
    return 1 if core.tab.shape_cond[k] == COND_COVER_RANK else 2


cdef int duel(TTTCore core, int a, int d) noexcept:
    """Attacker of local shape a covering a defender of local shape d: 1
    the attacker captures it, -1 the defender captures the attacker, 0
    mutual destruction, 2 no capture ("cannot cover each other").
    Python's copy: ``schema.duel``."""
    cdef int ca = capture_class(core, a), cd = capture_class(core, d)
    if ca == 0 and cd == 0:
        return 2
    if ca != cd:
        return 1 if ca > cd else -1
    if ca == 2:
        return 1                  # "award conflicts between each other to the attacker"
    if outranks(core.tab.shape_global[a], core.tab.shape_global[d]):
        return 1
    if outranks(core.tab.shape_global[d], core.tab.shape_global[a]):
        return -1
    return 0                      # "cover of equal rank results in mutual destruction"


cdef inline bint ranks_above(TTTCore core, int d, int e) noexcept:
    """Whether local shape d ranks strictly above local shape e in a
    capture (its class, then by-rank's ``outranks``)."""
    cdef int cd = capture_class(core, d), ce = capture_class(core, e)
    if cd != ce:
        return cd > ce
    return cd == 1 and outranks(core.tab.shape_global[d], core.tab.shape_global[e])


cdef inline int cover_base(TTTCore core, int t) noexcept:
    """Stacks: the lowest height of target t above its highest locked cell
    (pieces under a locked space are out of reach)."""
    cdef int z, base = 0
    for z in range(core.top[t]):
        if core.tab.locked[t + core.tab.XY * z]:
            base = z + 1
    return base


cdef int defenders(TTTCore core, int seat, int t, int* cells) noexcept:
    """The cells a piece of ``seat`` arriving on target t covers, topmost
    first; returns how many."""
    cdef Tables tab = core.tab
    cdef int n = 0, z, c, piece
    if tab.gravity:
        z = (core.hand_below if core.hand_below >= 0 else core.top[t]) - 1     # not the carried pieces
        while z >= cover_base(core, t):
            c = t + tab.XY * z
            piece = core.cell[c]
            if piece and not ((tab.seat_mask[seat] >> (piece - 1)) & 1):
                cells[n] = c
                n += 1
            z -= 1
        return n
    piece = core.cell[t]
    if piece and not ((tab.seat_mask[seat] >> (piece - 1)) & 1):
        cells[0] = t
        return 1
    return 0


cdef inline int mover_hand(TTTCore core, int seat, int k, int t) noexcept:
    """The rank a mover brings to a cover on target t, when it is not its
    shape: -1 for placements and moves (they rank by their shape, local
    shape k); a "by stack" or "by full stack" mover (``hand_stack`` set by
    ``stack_mover_cover``) brings its seat's poker hand in the destination stack
    after the move (docs/rules/ttt/captures.md, "Powers of by-stack movers")."""
    if core.hand_stack < 0:
        return -1
    return stack_hand_rank(core, seat, t, core.tab.chips)


cdef int cover_verdict(TTTCore core, int seat, int k, int t, int* cells, int* n) noexcept:
    """The verdict (CP_*) of a piece of local shape k of ``seat`` arriving
    on target t; cells[0..n) become the pieces it concerns, topmost
    first. CP_WIN: every defender (all captives). CP_MUTUAL: the
    defenders of the attacker's rank. CP_LOSE: the captors, "all players
    with the highest rank on the stack": the defenders that beat the
    attacker and that no other such defender outranks (when a cycle of the
    specification's rank leaves none, the topmost that beats it)."""
    cdef int i, j, v, m = 0, wins = 0, nb = 0
    cdef bint top
    cdef int beat[CP_MAX_STACK]
    cdef int mr = mover_hand(core, seat, k, t)      # -1, or a by-stack mover's hand
    if core.tab.shape_power[k] != POWER_NONE and (jump_captor(core.tab.shape_cond[k])
                                                  or surround_captor(core.tab.shape_cond[k])):
        n[0] = 0                  # a jumper or surrounder never covers (on stacks
        return CP_NONE            # every arrival lands on a stack's pieces)
    n[0] = defenders(core, seat, t, cells)
    for i in range(n[0]):
        v = duel(core, k, core.tab.shape_local[core.shp[cells[i]]])
        if mr >= 0:
            v = hand_duel(core, mr, k, cells[i], t, v)
        if v == -1:
            beat[nb] = cells[i]
            nb += 1
        elif v == 0:
            cells[m] = cells[i]
            m += 1
        elif v == 1:
            wins += 1
    if nb:
        m = 0
        for i in range(nb):
            top = True
            for j in range(nb):
                if (hand_above(core, beat[j], beat[i], t) if mr >= 0 else
                        ranks_above(core, core.tab.shape_local[core.shp[beat[j]]],
                                    core.tab.shape_local[core.shp[beat[i]]])):
                    top = False
                    break
            if top:
                cells[m] = beat[i]
                m += 1
        if m == 0:
            cells[0] = beat[0]
            m = 1
        n[0] = m
        return CP_LOSE
    if m:
        n[0] = m
        return CP_MUTUAL
    return CP_WIN if wins else CP_NONE


cdef bint cover_allowed(TTTCore core, int seat, int k, int t) noexcept:
    """Flat boards: whether a piece of local shape k of ``seat`` may
    arrive on the occupied target t (an opponent's or a communal piece on
    an open space, and one of the two can capture)."""
    cdef Tables tab = core.tab
    cdef int piece = core.cell[t]
    if piece == 0 or tab.locked[t] or (core.plock != NULL and core.plock[t]):
        return False
    if tab.nboards > 1 and board_closed(core, t):
        return False
    if (tab.seat_mask[seat] >> (piece - 1)) & 1:
        return False
    if tab.shape_power[k] != POWER_NONE and not cover_captor(tab.shape_cond[k]):
        return False                  # it captures only its own way, never by a cover
    return duel(core, k, tab.shape_local[core.shp[t]]) != 2


cdef inline bint step_captor(int cond) noexcept:
    """Whether a condition captures by one step onto the captive, a cover
    along its own directions ("Move on triagonal", "Move on diag + en
    passe"), the shape's other moves going to free spaces only."""
    return cond == COND_TRIAGONAL or cond == COND_DIAG_EN_PASSANT


cdef inline bint cover_captor(int cond) noexcept:
    """Whether a condition captures by a cover ("Cover", "Cover by rank"):
    any of the shape's moves may arrive on the captive. Every other
    condition captures only its own way (a jump, a surround, a step along
    its own directions), never by a cover."""
    return cond == COND_COVER or cond == COND_COVER_RANK


cdef inline bint jump_captor(int cond) noexcept:
    """Whether a condition captures by jumping over the captive ("Jump",
    "Chain Jump")."""
    return cond == COND_JUMP or cond == COND_CHAIN_JUMP


cdef inline bint surround_captor(int cond) noexcept:
    """Whether a condition captures what the arriving piece closes in or
    meets (the surrounds, "Adjacent", "Approach"), read by surround.pxi's
    flood fill rather than by a cover or a jump."""
    return COND_SURROUND_LINE <= cond <= COND_APPROACH


cdef inline bint forward_diagonal(Tables tab, int seat, int d) noexcept:
    """Whether direction d is a diagonal step forward for ``seat``: two
    components non-zero, the one on its goal's axis towards its goal line."""
    cdef int axis = tab.goal_axis[seat] if seat < tab.nplayers else -1
    if axis < 0 or (tab.dcomp[d * 3] != 0) + (tab.dcomp[d * 3 + 1] != 0) + (tab.dcomp[d * 3 + 2] != 0) != 2:
        return False
    return tab.dcomp[d * 3 + axis] * (1 if tab.goal_high[seat] else -1) == 1


cdef int diagonal_captures(TTTCore core, int seat, int f, int k, uint8_t* mark) noexcept:
    """"Move on diag + en passe": the targets the piece of local shape k on
    f captures by one step diagonally forward (``forward_diagonal``) onto a
    piece of a colour its seat does not own, on an open space it may enter,
    and with "En passant" onto the empty space the last ply's double step
    passed over (``en_passant_victim``), marked; with ``mark`` NULL, 1 as
    soon as one exists."""
    cdef Tables tab = core.tab
    cdef int d, u, piece, n = 0
    for d in range(26):
        if not forward_diagonal(tab, seat, d):
            continue
        u = tab.tnbr[f * 26 + d]
        if u < 0 or tab.locked[u] or (core.plock != NULL and core.plock[u]) or not may_enter(core, seat, u):
            continue
        piece = core.cell[u]
        if piece == 0:
            if not tab.en_passant or en_passant_victim(core, seat, k, f, u, core.mem[tab.ep0] - 1,
                                                       core.mem[tab.ep0 + 1] - 1) < 0:
                continue
        elif (tab.seat_mask[seat] >> (piece - 1)) & 1:
            continue
        if mark == NULL:
            return 1
        if not mark[u]:
            mark[u] = 1
            n += 1
    return n


cdef int en_passant_victim(TTTCore core, int seat, int k, int f, int u, int space, int pawn) noexcept:
    """En passant: the cell of the pawn that a move of the local-shape-k
    piece of ``seat`` from f to the empty target u takes, when u is the
    space ``space`` the pawn on ``pawn`` passed over in the last ply, the
    step is diagonally forward, the shape captures by "Move on diag + en
    passe" and the pawn's colour is not the seat's (-1: none)."""
    cdef Tables tab = core.tab
    cdef int d
    if (not tab.en_passant or space < 0 or space != u or pawn < 0 or core.cell[u] != 0
            or tab.shape_cond[k] != COND_DIAG_EN_PASSANT or tab.shape_power[k] == POWER_NONE):
        return -1
    if core.cell[pawn] == 0 or (tab.seat_mask[seat] >> (core.cell[pawn] - 1)) & 1:
        return -1
    for d in range(26):
        if tab.tnbr[f * 26 + d] == u and forward_diagonal(tab, seat, d):
            return pawn
    return -1


cdef int triagonal_captures(TTTCore core, int seat, int f, int k, bint noback, int d0,
                            uint8_t* mark) noexcept:
    """"Move on triagonal": the targets the piece of local shape k on f
    captures by one step along a 3-D triagonal (every component of the
    direction non-zero) onto a piece of a colour its seat does not own, on
    an open space it may enter (and not away from its goal line when it
    cannot move backwards), marked; with ``mark`` NULL, 1 as soon as one
    exists. Its other moves go to free spaces only (``cover_allowed``)."""
    cdef Tables tab = core.tab
    cdef int d, u, piece, n = 0
    for d in range(26):
        if not (tab.dcomp[d * 3] and tab.dcomp[d * 3 + 1] and tab.dcomp[d * 3 + 2]):
            continue
        u = tab.tnbr[f * 26 + d]
        if u < 0:
            continue
        piece = core.cell[u]
        if piece == 0 or tab.locked[u] or (core.plock != NULL and core.plock[u]):
            continue
        if (tab.seat_mask[seat] >> (piece - 1)) & 1 or not may_enter(core, seat, u):
            continue
        if tab.nboards > 1 and board_closed(core, u):
            continue
        if noback and goal_rows(core, seat, u) > d0:
            continue
        if mark == NULL:
            return 1
        if not mark[u]:
            mark[u] = 1
            n += 1
    return n


cdef inline bint may_arrive(TTTCore core, int seat, int k, int t) noexcept:
    """Whether a piece of local shape k may arrive on target t: it is free,
    or (captures, flat boards) it holds a piece the arrival covers."""
    if target_free(core, t):
        return True
    return core.tab.powers and not core.tab.gravity and cover_allowed(core, seat, k, t)


# -- "must capture" -------------------------------------------------------


cdef bint action_captures(TTTCore core, int seat, int action, bint* must) noexcept:
    """Whether ``action`` (legal for ``seat``) captures: its piece beats
    every piece it covers (CP_WIN); ``must`` tells whether its shape must
    capture."""
    cdef Tables tab = core.tab
    cdef int k, t, r, f, n, kl, pawn = -1, verdict, piece, shape
    cdef int cells[CP_MAX_STACK]
    must[0] = False
    if action < tab.nplace:
        k = (action // tab.T) // tab.choices
        t = action % tab.T
        if tab.surrounds and tab.shape_power[k] != POWER_NONE and surround_captor(tab.shape_cond[k]):
            must[0] = tab.shape_power[k] == POWER_MUST       # a surround is its capture
            return surround_would_capture(core, seat, action, k, -1, t)
    elif action < tab.a_pass_or_end:
        if tab.nstk and action >= tab.stk0:
            return stack_move_captures(core, seat, action, must)
        decode_move(core, action, &r, &f, &t)
        k = movable_shape(core, seat, f)
        if k < 0:
            return False
        kl = tab.replacer[r] if r >= 0 else k          # the piece surrounds as it lands
        if tab.surrounds and tab.shape_power[kl] != POWER_NONE and surround_captor(tab.shape_cond[kl]):
            return move_captures(core, seat, action, k, kl, f, t, must, False)
        if tab.jumps and (jump_captor(tab.shape_cond[k]) or surround_captor(tab.shape_cond[k])) \
                and tab.shape_power[k] != POWER_NONE:
            must[0] = tab.shape_power[k] == POWER_MUST      # a jump is its capture
            return jumped_target(core, seat, k, f, t) >= 0
        if tab.en_passant:
            pawn = en_passant_victim(core, seat, k, f, t, core.mem[tab.ep0] - 1, core.mem[tab.ep0 + 1] - 1)
    else:
        return False
    if pawn >= 0:               # en passant: judged as if the pawn had made one step (the board is restored)
        piece, shape, kl = core.cell[pawn], core.shp[pawn], core.shp[t]
        core.cell[t], core.shp[t], core.cell[pawn] = piece, shape, 0
        verdict = cover_verdict(core, seat, k, t, cells, &n)
        core.cell[t], core.shp[t], core.cell[pawn] = 0, kl, piece
        if verdict != CP_WIN:
            return False
    elif cover_verdict(core, seat, k, t, cells, &n) != CP_WIN:
        return False
    must[0] = tab.shape_power[k] == POWER_MUST
    return True


cdef int move_capture_parts(TTTCore core, int seat, int action, int k, int kl, int f, int t) noexcept:
    """The captures of a move of local shape k from f to t that lands as
    the surrounder kl (k itself, or a goal
    replacement), in apply's order: bit 1 when k's own jump or cover
    captures, bit 2 when kl's surround where it lands captures (read
    after the jump's effect; the board is restored). A cover that k
    loses or ties leaves nothing to land, so no surround."""
    cdef Tables tab = core.tab
    cdef int parts = 0, m = -1, c = -1, n = 0, v, old = 0
    cdef int cells[CP_MAX_STACK]
    cdef bint sur, conv = tab.shape_result[k] == RESULT_CONVERTS
    if tab.jumps:
        m = jumped_target(core, seat, k, f, t)
    if m >= 0:
        parts = 1
        c = top_cell(core, m)
        old = core.cell[c]
        if conv:
            core.cell[c] = core.cell[top_cell(core, f)]
        else:
            core.cell[c] = 0
            if tab.gravity:
                core.top[m] -= 1
    else:
        v = cover_verdict(core, seat, k, t, cells, &n)
        if v == CP_WIN:
            parts = 1
        elif v != CP_NONE:
            return 0
    sur = surround_would_capture(core, seat, action, kl, f, t)
    if m >= 0:
        core.cell[c] = old
        if tab.gravity and not conv:
            core.top[m] += 1
    return parts | (2 if sur else 0)


cdef bint move_captures(TTTCore core, int seat, int action, int k, int kl, int f, int t,
                        bint* must, bint seen_only) noexcept:
    """Whether a move landing as the surrounder kl captures:
    k's jump or cover OR kl's surround (move_capture_parts); ``must`` when
    one of its captures is made by a must-capture shape (the jump or
    cover by k's power, the surround by kl's; docs/rules/ttt/captures.md,
    "A goal move's two captures"). ``seen_only`` (cloaking under obscurity) keeps the
    captures the mover sees, each judged by its capturing shape."""
    cdef Tables tab = core.tab
    cdef int parts = move_capture_parts(core, seat, action, k, kl, f, t)
    if seen_only:
        if (parts & 1) and not (fully_sees(core, seat, t) or capture_class(core, k) == 2):
            parts &= ~1
        if (parts & 2) and not (fully_sees(core, seat, t) or capture_class(core, kl) == 2):
            parts &= ~2
    must[0] = ((parts & 1) != 0 and tab.shape_power[k] == POWER_MUST) or \
              ((parts & 2) != 0 and tab.shape_power[kl] == POWER_MUST)
    return parts != 0


cdef bint capture_forced(TTTCore core, int seat, int* out, int n) noexcept:
    """The specification: "If a piece “must capture” and at least one opportunity
    to capture is visible, then no non-capture is legal": whether one of
    the actions out[0..n) captures with a must-capture shape."""
    cdef int i
    cdef bint must
    for i in range(n):
        if action_captures(core, seat, out[i], &must) and must:
            return True
    return False


cdef int keep_captures(TTTCore core, int seat, int* out, int n) noexcept:
    """Keep the capturing actions of out[0..n) (any shape's), in order."""
    cdef int i, m = 0
    cdef bint must
    for i in range(n):
        if action_captures(core, seat, out[i], &must):
            out[m] = out[i]
            m += 1
    return m


cdef inline int listed_actions(TTTCore core, int seat, int* buf, bint obscured) noexcept:
    """The seat's list: the true one, or the one it may
    try under obscurity (obscured_actions)."""
    if obscured:
        return obscured_actions(core, seat, buf)
    return shape_seat_actions(core, seat, buf)


cdef bint action_listed(TTTCore core, int seat, int action, bint obscured=False) noexcept:
    """is_legal with "must capture": whether ``action`` is in the seat's list."""
    cdef int* buf = <int*>malloc(core.tab.num_actions * sizeof(int))
    cdef int i, n = listed_actions(core, seat, buf, obscured)
    cdef bint found = False
    for i in range(n):
        if buf[i] == action:
            found = True
            break
    free(buf)
    return found


cdef bint has_listed_action(TTTCore core, int seat, bint obscured=False) noexcept:
    """has_move with captures: any placement or move (a cover needs no
    free target, so the free-target shortcuts do not apply)."""
    cdef int* buf = <int*>malloc(core.tab.num_actions * sizeof(int))
    cdef int i, n = listed_actions(core, seat, buf, obscured)
    cdef bint found = False
    for i in range(n):
        if buf[i] != core.tab.a_pass:
            found = True
            break
    free(buf)
    return found


# -- the results of a cover ------------------------------------------------


cdef inline void clear_cell(TTTCore core, int c) noexcept:
    core.board_hash ^= (core.tab.zob[c * (core.tab.C + 1) + core.cell[c]]
                        ^ core.tab.szob[c * MAX_SHAPES + core.shp[c]])
    core.cell[c] = 0
    if core.tab.paralyzes:
        core.mem[core.tab.para0 + c] = 0    # a paralysed piece that leaves is no longer there


cdef inline bint is_paralysed(TTTCore core, int c) noexcept:
    """Whether the piece on cell c is paralysed ("Paralyzes captive(s)")."""
    return core.tab.paralyzes and core.cell[c] != 0 and core.mem[core.tab.para0 + c] != 0


cdef uint64_t paralysed_hash(TTTCore core, int16_t* m) noexcept:
    """The paralysed cells, for the state's hash (each cell c read as m[c]
    under a symmetry's map m; NULL: as it is)."""
    cdef uint64_t h = 0
    cdef int c
    for c in range(core.tab.S):
        if core.mem[core.tab.para0 + c]:
            h ^= mix64(<uint64_t>((m[c] if m != NULL else c) + 1) * <uint64_t>0xC2B2AE3D27D4EB4FULL + 9191)
    return h


cdef inline void put_piece(TTTCore core, int c, int piece, int shape) noexcept:
    core.cell[c] = piece
    core.shp[c] = shape
    core.board_hash ^= core.tab.zob[c * (core.tab.C + 1) + piece] ^ core.tab.szob[c * MAX_SHAPES + shape]


cdef inline int reincarnated_count(int res) noexcept:
    """How many reserve pieces one captive gives under result ``res``:
    "reincarnated (i.e. added to the captor’s reserves)" one, "reincarnate
    (x2) (double upon capture)" two, the Factory's "convert, remove, triple,
    and add them to one’s own reserves" (``reincarnates-x3``) three; 0 for
    results that keep nothing in reserve."""
    if res == RESULT_REINCARNATES:
        return 1
    if res == RESULT_REINCARNATES_X2:
        return 2
    if res == RESULT_REINCARNATES_X3:
        return 3
    return 0


cdef int take_captive(TTTCore core, int captor, int ck, int captive_k) noexcept:
    """The captor's result for one captive of local shape captive_k, in
    reserves: "reincarnated (i.e. added to the captor’s reserves)" as the
    captor's colour (``captor`` is its piece code), ``reincarnated_count``
    pieces (one, two for x2, three for x3). Returns the RESULT_* (the
    caller places a converted captive and drops a removed one)."""
    cdef Tables tab = core.tab
    cdef int res = tab.shape_result[ck], m = reincarnated_count(res)
    if m:
        core.reserve[captor - 1] += m
        core.sres[(captor - 1) * tab.K + captive_k] += m
    return res


cdef int arrive(TTTCore core, int seat, int t, int piece, int k) noexcept:
    """A piece (code ``piece``, local shape k, already off its source or
    reserve) of ``seat`` arriving on target t. Returns -2 when it covers
    nothing that captures (the caller lands it as usual), else applies
    the cover and returns the cell where the attacker stays as the
    mover's piece, or -1 (captured, converted or destroyed: no turn check
    runs through it)."""
    cdef int n = 0, verdict
    cdef int cells[CP_MAX_STACK]
    verdict = cover_verdict(core, seat, k, t, cells, &n)
    if verdict == CP_NONE:
        return -2
    if core.tab.gravity:
        return cover_stack(core, seat, t, piece, k, verdict, cells, n)
    return cover_flat(core, t, piece, k, verdict)


cdef int cover_flat(TTTCore core, int t, int piece, int k, int verdict) noexcept:
    """A cover on a flat board (results removes or reincarnates only:
    validation refuses converts there)."""
    cdef Tables tab = core.tab
    cdef int defender = core.cell[t], dk = tab.shape_local[core.shp[t]]
    if verdict == CP_WIN:
        take_captive(core, piece, k, dk)
        clear_cell(core, t)
        put_piece(core, t, piece, tab.shape_global[k])
        return t
    if verdict == CP_LOSE:
        take_captive(core, defender, dk, k)
        return -1
    clear_cell(core, t)                     # mutual destruction: the space empties
    free_add(core, t)
    return -1


cdef int restack(TTTCore core, int t, int base, int* pc, int* ps, int m, int ncap, int k,
                 int at) noexcept:
    """The end of a cover on stack t (a placement's, cover_stack, or a
    by-stack move's, stack_mover_cover): the m surviving pieces pc/ps go back from
    height ``base`` up; with several captors the pot waits for its chance
    node (CP_PAUSED), else the cell where the attacker stays, or -1."""
    cdef Tables tab = core.tab
    cdef int i
    cdef int16_t* pot
    for i in range(m):
        put_piece(core, t + tab.XY * (base + i), pc[i], ps[i])
    core.top[t] = base + m
    sync_free_stack(core, t)
    if ncap > 1:
        pot = core.mem + tab.pot0
        pot[POT_PENDING] = 1
        pot[POT_T] = t
        pot[POT_K] = k
        return CP_PAUSED
    return t + tab.XY * (base + at) if at >= 0 else -1


cdef int cover_stack(TTTCore core, int seat, int t, int piece, int k, int verdict, int* cells,
                     int n) noexcept:
    """A cover on a stack: the captives leave it (removed, or into a
    reserve) or change colour in place; the pieces above a piece that
    leaves fall; then the attacker lands on top if it stays (in the
    captor's colour if converted). With cloaking each piece that stays
    keeps who saw it, and ``seat`` sees every piece left from the cover's
    base up ("every piece they have attempted to cover"); ``cover_landed``
    becomes the attacker's cell, or -1."""
    cdef Tables tab = core.tab
    cdef int base = cover_base(core, t), top0 = core.top[t], m = 0, i, j, z, c, res, out
    cdef int cpiece = 0, ck = 0, at = -1, ncap = 0
    cdef bint hit
    cdef int pc[CP_MAX_STACK]
    cdef int ps[CP_MAX_STACK]
    cdef int sm[CP_MAX_STACK]          # who saw each piece that stays (cloaking)
    if verdict == CP_LOSE:
        cpiece = core.cell[cells[0]]
        ck = tab.shape_local[core.shp[cells[0]]]
        ncap = record_captors(core, cells, n)
    for z in range(base, top0):
        c = t + tab.XY * z
        hit = False
        for j in range(n):
            if cells[j] == c:
                hit = True
        pc[m] = core.cell[c]
        ps[m] = core.shp[c]
        sm[m] = core.seen[c] if core.seen != NULL else 0
        if hit and (verdict == CP_WIN or verdict == CP_MUTUAL):
            if verdict == CP_MUTUAL:
                pc[m] = 0
            else:
                res = take_captive(core, piece, k, tab.shape_local[ps[m]])
                if res == RESULT_CONVERTS:
                    pc[m] = piece
                else:
                    pc[m] = 0
        if pc[m]:
            m += 1
        clear_cell(core, c)
    core.cover_landed = -1
    if verdict == CP_WIN:
        at = m
        pc[m] = piece
        ps[m] = tab.shape_global[k]
        sm[m] = core.cover_seen
        m += 1
        core.cover_landed = t + tab.XY * (base + at)
    elif verdict == CP_LOSE and ncap > 1:
        pass                                  # the pot waits for its chance node (deal_pot)
    elif verdict == CP_LOSE:
        if take_captive(core, cpiece, ck, k) == RESULT_CONVERTS:
            pc[m] = cpiece
            ps[m] = tab.shape_global[k]
            sm[m] = core.cover_seen
            m += 1
            core.cover_landed = t + tab.XY * (base + m - 1)
    out = restack(core, t, base, pc, ps, m, ncap, k, at)
    if core.seen != NULL:
        for z in range(base, top0 + 1):
            if z < tab.Z:
                core.seen[t + tab.XY * z] = (sm[z - base] | (1 << seat)) if z - base < m else 0
    return out


# -- covers of by-stack movers ----------------------------------------------
# A by-stack or by-full-stack mover with a power covers, with its carried
# pieces riding on it, the pieces of other colours already in the
# destination stack (above its highest locked cell): the specification's
# cover, decided as any cover (cover_verdict), except that between two
# by-rank pieces the rank is the players' poker hands in the destination
# stack after the move (the mover's seat, and the defender's owner: a seat,
# or for a communal piece the communal pieces alone), chips (powerless
# shapes) left out. The carried pieces land first, then cover_verdict
# decides the cover with two core fields set (``hand_stack``: the
# destination, so mover_hand returns the mover's poker hand; ``hand_below``:
# the landing height, so the carried pieces are not defenders); the
# look-ahead of "must capture" (stack_move_captures) lands the pieces in
# place, takes the verdict and restores the cells. A mover whose power
# converts or reincarnates goes to the pot showdown instead (_pots.pxi).


cdef int hand_duel(TTTCore core, int mr, int k, int d, int t, int v) noexcept:
    """duel's verdict v for the by-stack mover (hand mr, local shape k)
    against the defender on cell d: between two by-rank pieces the higher
    hand wins and equal hands destroy both; otherwise v stands."""
    cdef int dk = core.tab.shape_local[core.shp[d]], hd
    if capture_class(core, k) != 1 or capture_class(core, dk) != 1:
        return v
    hd = owner_hand(core, d, t)
    if mr > hd:
        return 1
    if hd > mr:
        return -1
    return 0


cdef bint hand_above(TTTCore core, int d, int e, int t) noexcept:
    """Whether the defender on cell d ranks strictly above the one on e in
    a by-stack cover: its class, then (by rank) its owner's hand."""
    cdef int kd = core.tab.shape_local[core.shp[d]], ke = core.tab.shape_local[core.shp[e]]
    cdef int cd = capture_class(core, kd), ce = capture_class(core, ke)
    if cd != ce:
        return cd > ce
    return cd == 1 and owner_hand(core, d, t) > owner_hand(core, e, t)


cdef int stack_mover_cover(TTTCore core, int seat, int u, int base, int piece, int k) noexcept:
    """The cover of a by-stack move whose carried pieces have landed on
    stack u from height ``base`` (the mover, code ``piece``, local shape k,
    at the bottom of them). Returns the mover's cell if it stays as the
    seat's piece, -1 if not, CP_PAUSED when its pot waits for the chance
    node. Captives leave the stack (removed, or to a reserve) or change
    colour in place, and the pieces above them fall."""
    cdef Tables tab = core.tab
    cdef int nc = 0, verdict, cbase, top0, mover = u + tab.XY * base, m = 0, z, c, j, res, i
    cdef int cpiece = 0, ck = 0, at = -1, ncap = 0
    cdef bint hit
    cdef int cells[CP_MAX_STACK]
    cdef int pc[CP_MAX_STACK]
    cdef int ps[CP_MAX_STACK]
    if tab.shape_power[k] != POWER_NONE and not cover_captor(tab.shape_cond[k]):
        return mover                  # a jumper or surrounder lands without a cover
    core.hand_stack = u
    core.hand_below = base
    if showdown_applies(core, seat, u, k):          # the whole-stack showdown
        core.hand_stack = -1
        core.hand_below = -1
        return start_showdown(core, seat, u, base, k)
    verdict = cover_verdict(core, seat, k, u, cells, &nc)
    core.hand_stack = -1
    core.hand_below = -1
    if verdict == CP_NONE:
        return mover
    if verdict == CP_LOSE:
        cpiece = core.cell[cells[0]]
        ck = tab.shape_local[core.shp[cells[0]]]
        ncap = record_captors(core, cells, nc)
    cbase = cover_base(core, u)
    top0 = core.top[u]
    for z in range(cbase, top0):
        c = u + tab.XY * z
        hit = False
        for j in range(nc):
            if cells[j] == c:
                hit = True
        pc[m] = core.cell[c]
        ps[m] = core.shp[c]
        if c == mover:
            if verdict == CP_MUTUAL or (verdict == CP_LOSE and ncap > 1):
                pc[m] = 0                     # destroyed, or the pot (deal_pot)
            elif verdict == CP_LOSE:
                res = take_captive(core, cpiece, ck, k)
                pc[m] = cpiece if res == RESULT_CONVERTS else 0
            elif verdict == CP_WIN:
                at = m
        elif hit and verdict == CP_MUTUAL:
            pc[m] = 0
        elif hit and verdict == CP_WIN:
            res = take_captive(core, piece, k, tab.shape_local[ps[m]])
            pc[m] = piece if res == RESULT_CONVERTS else 0
        if pc[m]:
            m += 1
        clear_cell(core, c)
    return restack(core, u, cbase, pc, ps, m, ncap, k, at)


cdef bint stack_jump_or_surround_captures(TTTCore core, int seat, int k, int c, int u) noexcept:
    """Whether the by-stack move of the jumper or surrounder (local shape
    k) on cell c to stack u captures: it jumps a top, or, landed with its
    riders, surrounds (the board is restored)."""
    cdef Tables tab = core.tab
    cdef int f = c % tab.XY, z0 = c // tab.XY, n = core.top[f] - z0, base = core.top[u], j, hit
    cdef int pc[CP_MAX_STACK]
    cdef int ps[CP_MAX_STACK]
    cdef int dc[CP_MAX_STACK]
    cdef int ds[CP_MAX_STACK]
    if not surround_captor(tab.shape_cond[k]):
        return jumped_target(core, seat, k, f, u) >= 0
    for j in range(n):
        pc[j] = core.cell[c + tab.XY * j]
        ps[j] = core.shp[c + tab.XY * j]
        core.cell[c + tab.XY * j] = 0
    for j in range(n):
        dc[j] = core.cell[u + tab.XY * (base + j)]
        ds[j] = core.shp[u + tab.XY * (base + j)]
        core.cell[u + tab.XY * (base + j)] = pc[j]
        core.shp[u + tab.XY * (base + j)] = ps[j]
    core.top[f] = z0
    core.top[u] = base + n
    hit = surround_capture(core, seat, u + tab.XY * base, f, False)
    for j in range(n):
        core.cell[u + tab.XY * (base + j)] = dc[j]
        core.shp[u + tab.XY * (base + j)] = ds[j]
    for j in range(n):
        core.cell[c + tab.XY * j] = pc[j]
        core.shp[c + tab.XY * j] = ps[j]
    core.top[f] = z0 + n
    core.top[u] = base
    return hit > 0


cdef bint stack_move_captures(TTTCore core, int seat, int action, bint* must) noexcept:
    """action_captures for a by-stack move: its verdict taken on the
    stack as it would be after the move (the board is restored)."""
    cdef Tables tab = core.tab
    cdef int a = action - tab.stk0
    cdef int u = a % tab.T, c = (a // tab.T) % tab.S
    cdef int f = c % tab.XY, z0 = c // tab.XY, k, n, j, base, top_f, v, nc = 0
    cdef int pc[CP_MAX_STACK]
    cdef int ps[CP_MAX_STACK]
    cdef int dc[CP_MAX_STACK]
    cdef int ds[CP_MAX_STACK]
    cdef int cells[CP_MAX_STACK]
    k = stack_mover_shape(core, seat, c)
    if k < 0 or (tab.shape_power[k] == POWER_NONE and not tab.pots):   # a powerless mover's
        return False                                                  # seat may take a showdown's share
    if tab.shape_power[k] != POWER_NONE and not cover_captor(tab.shape_cond[k]):
        must[0] = tab.shape_power[k] == POWER_MUST
        return stack_jump_or_surround_captures(core, seat, k, c, u)
    n = core.top[f] - z0
    base = core.top[u]
    top_f = core.top[f]
    for j in range(n):
        pc[j] = core.cell[c + tab.XY * j]
        ps[j] = core.shp[c + tab.XY * j]
        core.cell[c + tab.XY * j] = 0
    for j in range(n):
        dc[j] = core.cell[u + tab.XY * (base + j)]
        ds[j] = core.shp[u + tab.XY * (base + j)]
        core.cell[u + tab.XY * (base + j)] = pc[j]
        core.shp[u + tab.XY * (base + j)] = ps[j]
    core.top[f] = z0
    core.top[u] = base + n
    core.hand_stack = u
    core.hand_below = base
    if showdown_applies(core, seat, u, k):          # it captures when its seat is a captor
        v = CP_WIN if mover_is_captor(core, seat, u) else CP_NONE
    else:
        v = cover_verdict(core, seat, k, u, cells, &nc)
    core.hand_stack = -1
    core.hand_below = -1
    for j in range(n):
        core.cell[u + tab.XY * (base + j)] = dc[j]
        core.shp[u + tab.XY * (base + j)] = ds[j]
    for j in range(n):
        core.cell[c + tab.XY * j] = pc[j]
        core.shp[c + tab.XY * j] = ps[j]
    core.top[f] = top_f
    core.top[u] = base
    must[0] = tab.shape_power[k] == POWER_MUST
    return v == CP_WIN


# -- collisions decided by rank ----------------------------------------------


cdef int collision_winner(TTTCore core, int t, int* seats, int n) noexcept:
    """The seat whose piece a by-rank rule keeps when the plans of
    ``seats[0..n)`` all send a piece to target t, or -1 when no rule
    resolves it (every piece sent there is destroyed). The specification:
    "if multiple players move to the same space and the collision is not
    resolved naturally via “by rank” rules, then all pieces moved to that
    space are destroyed". Reading ("Pieces that cannot capture have the
    lowest rank"): the rank rules apply to every collision, powerless
    colliders included; the piece that ranks strictly above every other
    (``ranks_above``: class, then the specification's rank) wins and
    captures the others: its result reincarnates them into
    its colour's reserve (converted ones land after it:
    ``land_round_shape``). A tie at the top is not resolved: two pieces
    without power "cannot cover each other", two that capture other than
    by rank have no attacker between them, and equal ranks destroy each
    other."""
    cdef Tables tab = core.tab
    cdef int i, j, w = -1
    cdef bint top
    if not tab.powers:
        return -1                  # every collider is powerless: a tie at the top
    for i in range(n):
        top = True
        for j in range(n):
            if j != i and not ranks_above(core, core.plan_shape[seats[i]], core.plan_shape[seats[j]]):
                top = False
                break
        if top:
            w = seats[i]
            break
    return w


cdef int stack_collision_winner(TTTCore core, int t, int* seats, int n, int* piece, int* carried,
                                int* cshape) noexcept:
    """The winner of a collision on stack t (or -1: all destroyed) when a
    by-stack plan is among the colliders; without one, the placements'
    rule (``collision_winner``). Every collider takes part, powerless
    ones included; the winner ranks strictly above every other: a higher
    class ("Pieces that cannot capture have the lowest rank [...]; pieces
    that capture in ways other than “by rank” have highest rank"), or, two
    by-rank colliders, a higher hand. Two
    powerless or two highest-class colliders at the top, and equal hands,
    are unresolved."""
    cdef Tables tab = core.tab
    cdef int i, j, w = -1, ci, cj
    cdef bint top, stacked = False
    cdef int hands[MAX_SEATS]
    for i in range(n):
        if core.plan_by_stack[seats[i]] and core.plan_lifted[seats[i]]:
            stacked = True
    if not stacked:
        return collision_winner(core, t, seats, n)
    for i in range(n):
        hands[i] = collision_hand(core, seats[i], t, seats, n, piece, carried, cshape)
    for i in range(n):
        top = True
        ci = capture_class(core, core.plan_shape[seats[i]])
        for j in range(n):
            if j == i:
                continue
            cj = capture_class(core, core.plan_shape[seats[j]])
            if not (ci > cj if ci != cj else (ci == 1 and hands[i] > hands[j])):
                top = False
                break
        if top:
            w = seats[i]
            break
    return w


cdef int collision_hand(TTTCore core, int p, int u, int* seats, int n, int* piece, int* carried,
                        int* cshape) noexcept:
    """Seat p's poker hand in stack u holding, besides what is on it,
    every piece the colliders ``seats[0..n)`` send there (own and communal
    pieces, chips left out, as ``stack_hand_rank``)."""
    cdef Tables tab = core.tab
    cdef int counts[N_SHAPES]
    cdef int owned = 0, mine = tab.seat_mask[p], i, j, o, z, cc, pc, sh
    for i in range(tab.seats):
        owned |= tab.seat_mask[i]
    for i in range(N_SHAPES):
        counts[i] = 0
    for z in range(core.top[u]):
        cc = u + tab.XY * z
        pc = core.cell[cc]
        if pc and not ((tab.chips >> core.shp[cc]) & 1) and (
                ((mine >> (pc - 1)) & 1) or not ((owned >> (pc - 1)) & 1)):
            counts[core.shp[cc]] += 1
    for i in range(n):
        o = seats[i]
        for j in range(core.plan_lifted[o] if core.plan_by_stack[o] and core.plan_lifted[o] else 1):
            if core.plan_by_stack[o] and core.plan_lifted[o]:
                pc = carried[o * CP_MAX_STACK + j]
                sh = cshape[o * CP_MAX_STACK + j]
            else:
                pc = piece[o]
                sh = tab.shape_global[core.plan_shape[o]]
            if pc and not ((tab.chips >> sh) & 1) and (
                    ((mine >> (pc - 1)) & 1) or not ((owned >> (pc - 1)) & 1)):
                counts[sh] += 1
    return hand_rank(counts)

# Stacks: moves "by stack" and "by full stack", which carry the pieces
# above the mover, and the heights they land at. Included by _engine.pyx;
# functions take the core first. Rules: docs/rules/ttt/stacks.md
# (the poker-hand ranks: docs/rules/ttt/pots.md).
#
# A shape whose move is ``orth-by-stack`` moves from any height of its stack
# and carries every piece above it; ``orth-by-full-stack`` only from the
# bottom of its stack (the piece rests on the floor or a locked cell),
# carrying the whole stack. Either goes any distance along an x or y axis
# (height ignored, as the specification's "orth"), to a stack with room for
# every carried piece; the pieces keep their order and land from the
# destination's lowest free height up. Decided: every carried cell must be
# free to leave (no phase lock, no exit lock, sticky or exclusive space
# against the mover) and every landing cell free to enter for the mover; the
# reserves rule ("identical piece in reserve") and "cannot move backwards"
# (with its replacement) apply to the mover only, since the carried pieces
# do not move by their own rule. Ids: ``stk0 + (r1*S + c)*T + u``, c the
# mover's cell, r1 = 0 or replacement shape r + 1; the shapes path hands
# over through one test each. A by-stack mover with a power covers the
# destination's pieces (stack_mover_cover, _captures.pxi), ranked by the
# players' poker hands in the destination stack (_pots.pxi); one that jumps
# or surrounds never covers: it jumps the top of the stack it passes over
# (apply_jump) or surrounds from the stack it lands on (surround_capture),
# its riders along for the ride.

from libc.stdlib cimport malloc, free
from libc.string cimport memset
from libc.stdint cimport uint8_t
from games.ttt.codes cimport MOVE_ORTH_BY_STACK, MOVE_ORTH_BY_FULL_STACK


cdef inline bint moves_by_stack(int move) noexcept:
    """Whether a shape's move carries the pieces above the mover."""
    return move == MOVE_ORTH_BY_STACK or move == MOVE_ORTH_BY_FULL_STACK


cdef int stack_mover_shape(TTTCore core, int seat, int c) noexcept:
    """The local shape of the by-stack mover ``seat`` may move from cell c, or -1."""
    cdef Tables tab = core.tab
    cdef int t = c % tab.XY, z = c // tab.XY, piece = core.cell[c], k, j, cc
    if piece == 0 or (tab.nboards > 1 and board_closed(core, t)):
        return -1
    if not ((tab.seat_mask[seat] >> (piece - 1)) & 1):
        return -1
    k = tab.shape_local[core.shp[c]]
    if not moves_by_stack(tab.shape_move[k]) or core.sres[(piece - 1) * tab.K + k] > 0:
        return -1
    # (a cell with no piece and no lock can only be a hidden piece in a
    # player's view: it counts as a piece, since its height shows)
    if tab.shape_move[k] == MOVE_ORTH_BY_FULL_STACK and z > 0 and not tab.locked[c - tab.XY]:
        return -1                    # "can move only if on the bottom of a stack"
    for j in range(z, core.top[t]):
        cc = t + tab.XY * j
        if tab.locked[cc]:
            return -1                # a locked cell above: the pieces beyond it stay
        if core.plock != NULL and core.plock[cc]:
            return -1
        if core.pexit != NULL and (core.pexit[cc] >> seat) & 1:
            return -1
    return k


cdef bint stack_room(TTTCore core, int seat, int u, int n) noexcept:
    """Whether stack u takes n carried pieces now: its landing cell is free
    (as for any move) and so is every cell above it up to n, for ``seat``."""
    cdef Tables tab = core.tab
    cdef int j, cc
    if not target_free(core, u) or core.top[u] + n > tab.Z:
        return False
    for j in range(n):
        cc = u + tab.XY * (core.top[u] + j)
        if core.plock != NULL and core.plock[cc]:
            return False
        if core.pentry != NULL and (core.pentry[cc] >> seat) & 1:
            return False
    return True


cdef int stack_destinations(TTTCore core, int seat, int c, int k, uint8_t* mark) noexcept:
    """Stacks the mover on cell c (local shape k) may go to, marked; with
    ``mark`` NULL, 1 as soon as one exists."""
    cdef Tables tab = core.tab
    cdef int f = c % tab.XY, n = core.top[f] - c // tab.XY, d, u, cnt = 0
    cdef bint noback = tab.shape_no_back[k] and seat < tab.nplayers and tab.goal_axis[seat] >= 0
    cdef int d0 = goal_rows(core, seat, f) if noback else -1
    for d in range(26):
        if not tab.is_axis[d]:
            continue
        u = tab.tnbr[f * 26 + d]
        while u >= 0:
            if stack_room(core, seat, u, n) and not (noback and goal_rows(core, seat, u) > d0):
                if mark == NULL:
                    return 1
                if not mark[u]:
                    mark[u] = 1
                    cnt += 1
            u = tab.tnbr[u * 26 + d]
    return cnt


cdef bint stack_can_move(TTTCore core, int seat) noexcept:
    cdef int c, k
    for c in range(core.tab.S):
        k = stack_mover_shape(core, seat, c)
        if k >= 0 and stack_destinations(core, seat, c, k, NULL):
            return True
    return False


cdef int stack_seat_moves(TTTCore core, int seat, int* out, int n) noexcept:
    """Append ``seat``'s by-stack moves to out[n:], ascending; returns the new count."""
    cdef Tables tab = core.tab
    cdef int r1, c, k, u, f
    cdef uint8_t* mark = <uint8_t*>malloc(tab.T)
    for r1 in range(1 + tab.R):
        for c in range(tab.S):
            k = stack_mover_shape(core, seat, c)
            if k < 0:
                continue
            memset(mark, 0, tab.T)
            if stack_destinations(core, seat, c, k, mark) == 0:
                continue
            f = c % tab.XY
            for u in range(tab.T):
                if mark[u] and reaches_goal(core, seat, k, f, u) == (r1 > 0):
                    out[n] = tab.stk0 + (r1 * tab.S + c) * tab.T + u
                    n += 1
    free(mark)
    return n


cdef bint stack_is_legal(TTTCore core, int seat, int action) noexcept:
    cdef Tables tab = core.tab
    cdef int a = action - tab.stk0
    cdef int u = a % tab.T, c = (a // tab.T) % tab.S, r1 = a // (tab.T * tab.S), k
    cdef uint8_t* mark
    cdef bint ok
    k = stack_mover_shape(core, seat, c)
    if k < 0:
        return False
    mark = <uint8_t*>malloc(tab.T)
    memset(mark, 0, tab.T)
    stack_destinations(core, seat, c, k, mark)
    ok = mark[u] != 0
    free(mark)
    return ok and reaches_goal(core, seat, k, c % tab.XY, u) == (r1 > 0)


cdef void apply_stack_move(TTTCore core, int action) noexcept:
    """Lift the mover and every piece above it, land them in order from the
    destination's lowest free height, then the line checks of every
    landed cell (``stack_landed``)."""
    cdef Tables tab = core.tab
    cdef int a = action - tab.stk0
    cdef int u = a % tab.T, c = (a // tab.T) % tab.S, r1 = a // (tab.T * tab.S)
    cdef int f = c % tab.XY, z0 = c // tab.XY, n, j, src, dst, base, piece, shape
    cdef int pieces[32]
    cdef int shapes[32]
    cdef int seen[32]
    n = core.top[f] - z0
    for j in range(n):
        src = c + tab.XY * j
        pieces[j] = core.cell[src]
        shapes[j] = core.shp[src]
        core.board_hash ^= tab.zob[src * (tab.C + 1) + pieces[j]] ^ tab.szob[src * MAX_SHAPES + shapes[j]]
        core.cell[src] = 0
        if core.seen != NULL:        # cloaking: who saw a carried piece still sees it
            seen[j] = core.seen[src]
            core.seen[src] = 0
    core.top[f] = z0
    if tab.jumps:                      # a by-stack jump takes the top it passes over
        apply_jump(core, pieces[0], tab.shape_local[shapes[0]], f, u)
    if r1 > 0 and not tab.powers:      # with powers the replacement waits for the cover
        shapes[0] = tab.shape_global[tab.replacer[r1 - 1]]
    base = core.top[u]
    for j in range(n):
        dst = u + tab.XY * (base + j)
        core.cell[dst] = pieces[j]
        core.board_hash ^= tab.zob[dst * (tab.C + 1) + pieces[j]]
        set_shape(core, dst, shapes[j])
        if core.seen != NULL:
            core.seen[dst] = seen[j]
    core.top[u] = base + n
    refresh_free(core, f)
    refresh_free(core, u)
    core.moves += 1
    dst = u + tab.XY * base
    if tab.powers:                     # a by-stack mover covers the destination's pieces
        dst = stack_mover_cover(core, core.seat, u, base, pieces[0], tab.shape_local[shapes[0]])
        if dst == CP_PAUSED:
            return
        if tab.surrounds and dst >= 0:     # the landed mover surrounds, as the shape that moved
            surround_capture(core, core.seat, dst, f, True)
        if dst >= 0 and r1 > 0:
            core.board_hash ^= tab.szob[dst * MAX_SHAPES + core.shp[dst]]
            set_shape(core, dst, tab.shape_global[tab.replacer[r1 - 1]])
    if (tab.goal_check and dst >= 0 and goal_rows(core, core.seat, f) > 0
            and goal_rows(core, core.seat, u) == 0):
        core.goal_hit = True
    core.stack_landed = n if dst >= 0 else 0
    if core.showdown_carried >= 0:           # a showdown rearranged the stack
        core.stack_landed = core.showdown_carried
        core.showdown_carried = -1
    end_ply(core, dst, pieces[0])
    core.stack_landed = 0


cdef int stack_best_run(TTTCore core, int c, bint axis_only) noexcept:
    """The longest line (along an axis only, or in any direction) through
    the cells above c that a by-stack move filled; c's own runs are
    end_ply's. (A return value, not pointers into end_ply's locals:
    taking their address makes every game's ply check a sixth slower.)"""
    cdef Tables tab = core.tab
    cdef int j, d, run, cc, best = 0
    for j in range(1, core.stack_landed):
        cc = c + tab.XY * j
        for d in range(13, 26):
            if axis_only and not tab.is_axis[d]:
                continue
            run = run_length(core, cc, d, core.cell[cc])
            if run > best:
                best = run
    return best

# Jumps: "Jump", "Chain Jump" and "Chain Jump (+ back)", in turns and in
# rounds. Included by _engine.pyx; functions take the core (or the tables)
# first. Rules: docs/rules/ttt/jumps.md and docs/rules/ttt/rounds.md,
# "Jumps inside rounds".
#
# A shape whose condition is ``jump`` or ``chain-jump`` captures by moving
# from f over the adjacent piece on m = f + d, of a colour its mover does not
# own, to the empty space u = f + 2d directly beyond, for every direction d
# its move steps along (so "adjacent" jumps in all directions,
# "forward-diagonal" only forward diagonally; knights and stationary shapes
# have none: validation; a by-stack mover jumps along x and y, carrying the
# pieces above it: apply_stack_move calls apply_jump after the lift, and its
# landing is the by-stack landing). A jump is a move: it keeps the plain move's id
# ``move0 + f*T + u`` (or the replacement id when u reaches the goal), is
# found where the move's destinations are (shape_destinations asks
# jump_destinations for a jumping shape) and applied where the move is
# (apply_shape_action calls apply_jump after lifting the piece): whenever
# such a piece passes directly over an adjacent jumpable piece to the space
# beyond, it jumps. On stacks the targets are the stacks: a jump passes
# over the top of a stack (top_cell) and lands as any move. The jumped
# piece is captured under the jumper's result whatever its rank: a jumper
# captures "in ways other than by rank", so it has the highest rank and
# "conflicts between [such pieces]" go to the attacker. After a
# chain-jumper's jump, when the same piece can jump again, the same player
# decides again (the pending chain in the block, ``chain0``: the chained
# piece's target + 1, so copies, hashes and serialisation carry it): one of
# that piece's jumps, or "end-chain" (one action id after every other; not
# with "must capture", which forbids the non-capture). While it is set the
# shapes path's actions, is_legal and apply hand over to chain_actions,
# chain_action_listed and apply_chain_action; end_ply tests one core field
# (``chain_land``, set only by a chain-jumper's jump) before ending the ply, so
# other rule sets pay one comparison.

from libc.stdlib cimport malloc, free
from libc.string cimport memset
from libc.stdint cimport uint8_t
from games.ttt.codes cimport (
    MOVE_NONE, MOVE_ALQUERQUE, MOVE_ORTHOGONAL, MOVE_ADJ_DIAGONAL, MOVE_ORTH_LINE, MOVE_DIAG_LINE,
    MOVE_FORWARD_ORTH, MOVE_FORWARD_DIAG, MOVE_KNIGHT, MOVE_KNIGHT3, MOVE_ORTH_NO_BACK, MOVE_PAWN,
    POWER_NONE, POWER_MUST,
    RESULT_CONVERTS, COND_CHAIN_JUMP)


cdef inline void chain_layout(Tables tab) noexcept:
    """The pending chain's one int16 in the block (its target + 1, or 0)."""
    if tab.chains:
        tab.chain0 = tab.block
        tab.block += 1


cdef inline bint jump_direction_ok(TTTCore core, int seat, int k, int f, int d) noexcept:
    """Whether direction d is one shape k's move steps along from target f."""
    cdef Tables tab = core.tab
    cdef int move = tab.shape_move[k], axis
    if moves_by_stack(move):
        return tab.is_axis[d]     # a by-stack mover jumps along its axes, carrying its riders
    if (move == MOVE_ORTHOGONAL or move == MOVE_ORTH_LINE or move == MOVE_FORWARD_ORTH
            or move == MOVE_ORTH_NO_BACK or move == MOVE_PAWN):
        if not tab.is_axis[d]:
            return False
    elif move == MOVE_ADJ_DIAGONAL or move == MOVE_DIAG_LINE or move == MOVE_FORWARD_DIAG:
        if tab.is_axis[d]:
            return False
    elif move == MOVE_ALQUERQUE:
        if not tab.is_axis[d] and ((f % tab.X) % tab.bX + (f // tab.X) % tab.Y) % 2:
            return False
    elif move == MOVE_NONE or move == MOVE_KNIGHT or move == MOVE_KNIGHT3:
        return False
    if goal_bound(move):
        axis = tab.goal_axis[seat] if seat < tab.nplayers else -1
        if axis < 0:
            return False
        if tab.shape_jump_back[k]:
            return (jump_back_direction_ok(core, seat, d, axis)
                    or goal_direction_ok(tab, seat, move, d, axis, f))
        if not goal_direction_ok(tab, seat, move, d, axis, f):
            return False
    return True


cdef inline bint jump_back_direction_ok(TTTCore core, int seat, int d, int axis) noexcept:
    """Whether direction d is a forward direction of ``seat`` or the mirror
    of one (a non-zero step along its goal axis): the jump directions of a
    forward mover with "+ back" (sideways steps stay excluded)."""
    return core.tab.dcomp[d * 3 + axis] != 0


cdef inline bint jumpable(TTTCore core, int seat, int m) noexcept:
    """Whether the piece on target m (its top, on stacks) may be jumped by
    ``seat``: a piece of a colour the seat does not own, on a space not
    locked for the phase."""
    cdef int c = top_cell(core, m), piece
    if c < 0:
        return False
    piece = core.cell[c]
    if piece == 0 or core.tab.locked[c] or (core.plock != NULL and core.plock[c]):
        return False
    return not ((core.tab.seat_mask[seat] >> (piece - 1)) & 1)


cdef inline bint jump_lands(TTTCore core, int seat, int k, int f, int u) noexcept:
    """Whether the jumper (local shape k, on f) may land on u: free, open
    to the seat, and not away from its goal line if it cannot move backwards."""
    cdef int d0
    if u < 0 or not target_free(core, u) or not may_enter(core, seat, u):
        return False
    if core.tab.shape_no_back[k] and seat < core.tab.nplayers and core.tab.goal_axis[seat] >= 0 \
            and not core.tab.shape_jump_back[k]:            # "+ back" jumps backwards too
        d0 = goal_rows(core, seat, f)
        if goal_rows(core, seat, u) > d0:
            return False
    return True


cdef int jump_destinations(TTTCore core, int seat, int f, int k, uint8_t* mark) noexcept:
    """The jumps of the piece of local shape k on f: their landing targets
    marked (not counted again when a plain move marked them); with
    ``mark`` NULL, 1 as soon as one exists."""
    cdef Tables tab = core.tab
    cdef int d, m, u, n = 0
    for d in range(26):
        m = tab.tnbr[f * 26 + d]
        if m < 0:
            continue
        u = tab.tnbr[m * 26 + d]
        if u < 0 or not jump_direction_ok(core, seat, k, f, d) or not (
                jumpable(core, seat, m) or (core.tries_hidden_jumps and may_hide_piece(core, m))):
            continue                          # (or a jump tried over a space that may hide a piece)
        if not jump_lands(core, seat, k, f, u):
            continue
        if mark == NULL:
            return 1
        if not mark[u]:
            mark[u] = 1
            n += 1
    return n


cdef int jumped_target(TTTCore core, int seat, int k, int f, int u) noexcept:
    """The cell a move of the jumper (local shape k) from f to u jumps, or -1."""
    cdef Tables tab = core.tab
    cdef int d, m
    if not (tab.shape_power[k] != POWER_NONE
            and jump_captor(tab.shape_cond[k])):
        return -1
    for d in range(26):
        m = tab.tnbr[f * 26 + d]
        if m >= 0 and tab.tnbr[m * 26 + d] == u:
            if jump_direction_ok(core, seat, k, f, d) and jumpable(core, seat, m):
                return m
            return -1
    return -1


cdef void apply_jump(TTTCore core, int piece, int k, int f, int u) noexcept:
    """The capture of a move from f to u, if it is a jump (the mover has
    left f; u is still free): the jumped piece is removed, reincarnated
    (one or two of its shape to the jumper's colour's reserve) or
    converted (takes the jumper's colour where it stands). A chain-jumper's
    landing target is kept for ``end_ply`` (``chain_land``)."""
    cdef Tables tab = core.tab
    cdef int m = jumped_target(core, core.seat, k, f, u), res, c
    if m < 0:
        return
    c = top_cell(core, m)                       # the top of a jumped stack
    res = take_captive(core, piece, k, tab.shape_local[core.shp[c]])
    if res == RESULT_CONVERTS:
        core.board_hash ^= tab.zob[c * (tab.C + 1) + core.cell[c]] ^ tab.zob[c * (tab.C + 1) + piece]
        core.cell[c] = piece
        if core.seen != NULL:
            core.seen[c] |= 1 << core.seat     # the captor saw what it captured (before its chain goes on)
    elif tab.gravity:
        clear_cell(core, c)                     # the top leaves; nothing lies above it
        core.top[m] -= 1
        sync_free_stack(core, m)
    else:
        clear_cell(core, m)
        free_add(core, m)
    if tab.shape_cond[k] == COND_CHAIN_JUMP:
        core.chain_land = u


# -- chain jumps --------------------------------------------------------------
# "Chain Jump (+ back)", reading (a), as international draughts' man: a
# ``chain-jump-back`` shape chain-jumps as ``chain-jump`` (same
# COND_CHAIN_JUMP code) but its jumps, the first and the extra ones, may go
# backwards although it "cannot move backwards": ``jump_lands`` skips the
# goal-distance test for it, and a forward mover jumps along the backward
# mirror of each forward direction too (``jump_back_direction_ok``). Its
# plain moves keep every restriction.


cdef bint chain_continues(TTTCore core) noexcept:
    """After a chain-jumper's jump (the ply's checks done, the game going
    on): when the piece that landed on ``chain_land`` may jump again (it is
    still a chain-jumper, movable, with a jump), the same player's
    continuation is pending and the turn waits for it. Under invisibility
    the jump is looked for in the mover's view, tried jumps included
    (docs/rules/ttt/cloaking.md, "Chain jumps with cloaked spaces"), so
    the offer tells the mover nothing it does not see."""
    cdef Tables tab = core.tab
    cdef int t = core.chain_land, k
    cdef TTTCore judge = core
    core.chain_land = -1
    k = movable_shape(core, core.seat, t)
    if k < 0 or tab.shape_cond[k] != COND_CHAIN_JUMP or tab.shape_power[k] == POWER_NONE:
        return False
    if tab.cloaking == CLOAK_HIDES and not core.viewing and judges_own_view(core, core.seat):
        judge = view_of(core, core.seat)
    if not jump_destinations(judge, core.seat, t, k, NULL):
        return False
    core.mem[tab.chain0] = t + 1
    return True


cdef int chain_actions(TTTCore core, int seat, int* out) noexcept:
    """The continuation's actions, ascending: the chained piece's jumps
    (plain ids, then replacement ids when a jump reaches the goal), then
    "end-chain" unless the piece must capture."""
    cdef Tables tab = core.tab
    cdef int t = core.mem[tab.chain0] - 1, k, kind, u, n = 0
    cdef uint8_t* mark
    k = movable_shape(core, seat, t)
    if k >= 0:
        mark = <uint8_t*>malloc(tab.T)
        memset(mark, 0, tab.T)
        jump_destinations(core, seat, t, k, mark)
        for kind in range(1 + tab.R):
            for u in range(tab.T):
                if not mark[u] or reaches_goal(core, seat, k, t, u) != (kind > 0):
                    continue
                if kind == 0:
                    out[n] = tab.move0 + t * tab.T + u
                else:
                    out[n] = tab.rep0 + ((kind - 1) * tab.T + t) * tab.T + u
                n += 1
        free(mark)
    if k < 0 or n == 0 or tab.shape_power[k] != POWER_MUST or not visible_jump(core, seat, t, k):
        out[n] = tab.a_stop
        n += 1
    return n


cdef bint visible_jump(TTTCore core, int seat, int t, int k) noexcept:
    """Whether the chained piece on t has a jump over a piece (in a view:
    one its player sees): "If a piece “must capture” and at least one
    opportunity to capture is visible, then no non-capture is legal", so a
    jump tried over a space that only looks empty does not forbid
    "end-chain"."""
    cdef bint found
    if not core.tries_hidden_jumps:
        return True
    core.tries_hidden_jumps = False
    found = jump_destinations(core, seat, t, k, NULL) > 0
    core.tries_hidden_jumps = True
    return found


cdef bint chain_action_listed(TTTCore core, int action) noexcept:
    cdef int* buf = <int*>malloc(core.tab.num_actions * sizeof(int))
    cdef int i, n = chain_actions(core, core.seat, buf)
    cdef bint found = False
    for i in range(n):
        if buf[i] == action:
            found = True
            break
    free(buf)
    return found


cdef void apply_chain_action(TTTCore core, int action) noexcept:
    """The continuation: another jump of the chained piece (a ply, which
    may chain again), or "end-chain", which ends the extra move (not a
    ply: nothing moves) and the turn goes on as after the jump."""
    core.mem[core.tab.chain0] = 0
    if action != core.tab.a_stop:
        apply_shape_action(core, action)
        return
    core.left -= 1
    if core.left == 0 or not has_move(core, core.seat):
        next_seat(core)


# -- jumps inside rounds -------------------------------------------------------
# A jump plan is a move plan (legal on the round's starting board); the
# round lifts every moved piece, then takes the jumped pieces, then lands
# (resolve_round calls plan_round_jumps before its lifts and
# take_round_jumped after them; rule sets without jumps pay one flag test
# per round). A jump captures the piece it passes over only if that piece
# is still there after the lifts (its owner did not move it, nor a
# contested plan destroy it) and the jumper itself moved (its lift was not
# contested); a piece jumped by several plans is destroyed and no captor's
# result applies. A chain jump has no extra move in a round (the round's
# plan is one move); collisions on the landing space are the round's (by
# rank, else all destroyed).


cdef void plan_round_jumps(TTTCore core, int* src, int* dst, int* jumped) noexcept:
    """Before the lifts: for each seat whose move plan is a jump, the
    target it passes over, when no plan lifts from that target (-1 else)."""
    cdef Tables tab = core.tab
    cdef int s, o, m
    for s in range(tab.seats):
        jumped[s] = -1
        if src[s] < 0 or dst[s] < 0 or core.plan_by_stack[s]:
            continue
        m = jumped_target(core, s, core.plan_shape[s], src[s], dst[s])
        if m < 0:
            continue
        for o in range(tab.seats):
            if src[o] == m:
                m = -1                 # it moves away (or is destroyed by a contested lift)
                break
        jumped[s] = m


cdef void take_round_jumped(TTTCore core, int* jumped, int* piece) noexcept:
    """After the lifts: each jumped piece goes under its captor's result
    (removed, reincarnated into the captor's colour's reserve, or
    converted in place), or is destroyed when several moved jumpers passed
    over it. ``piece[s]`` is 0 for a jumper whose lift was contested."""
    cdef Tables tab = core.tab
    cdef int s, o, m, c, n, res, who
    for s in range(tab.seats):
        m = jumped[s]
        if m < 0:
            continue
        n = 0
        who = -1
        for o in range(s, tab.seats):
            if jumped[o] == m:
                jumped[o] = -1
                if piece[o]:
                    n += 1
                    who = o
        if n == 0:
            continue
        c = top_cell(core, m)
        res = -1                   # destroyed: no result
        if n == 1:
            res = take_captive(core, piece[who], core.plan_shape[who], tab.shape_local[core.shp[c]])
        if res == RESULT_CONVERTS:
            core.board_hash ^= tab.zob[c * (tab.C + 1) + core.cell[c]] ^ tab.zob[c * (tab.C + 1) + piece[who]]
            core.cell[c] = piece[who]
        elif tab.gravity:
            clear_cell(core, c)
            core.top[m] -= 1
            sync_free_stack(core, m)
        else:
            clear_cell(core, m)
            free_add(core, m)

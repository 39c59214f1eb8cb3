# Surrounds: "Surround line" and "Surround orthogonal", on flat boards and
# on stacks, in turns and in rounds. Included by _engine.pyx; functions take
# the core first. Rules: docs/rules/ttt/surround.md and
# docs/rules/ttt/rounds.md, "Surrounds inside rounds".
#
# When a piece of a surrounding shape arrives (placed, or moved) on cell c:
# - surround-line: along each of the 26 directions (8 on a flat board), a
#   run of one or more pieces of colours the mover does not own, starting
#   next to c and closed by a piece of the mover's colours, is captured
#   (reversi: the arriving piece is one end);
# - surround-orthogonal: each group (orthogonally connected pieces of one
#   colour the mover does not own) orthogonally next to c whose every
#   orthogonal neighbour is the mover's piece, a locked space or the board's
#   edge is captured (Go: no liberty left);
# - adjacent (adjacent-orthogonal): every piece of a colour the mover does
#   not own next to c along any of the 26 directions (8 on a flat board;
#   the orthogonal ones only) is captured;
# - approach (Fanorona): a move from target f that arrives along direction
#   d captures the unbroken run of pieces of colours the mover does not
#   own starting next to its landing along d (a placement, or a move along
#   no line, such as a knight's, approaches nothing); approach-one (a flag
#   of the shape, COND_APPROACH to the engine) takes the first of that run.
# Each function takes f, the arrival's source target (-1: a placement).
# A run or group holding a piece on a space locked for the phase stays.
# Every captive gets the captor's result; a surrounder never covers.
#
# On stacks "moves are always to the tops of stacks (so height is ignored
# [...])": a surround is read on the board of the stacks' tops, a flat grid
# of targets, as the jumps are. Each stack counts as its top cell: a piece
# (its colour), a locked space (a wall, as the edge), or nothing (an empty
# stack: a liberty, and it ends a line). Captives are tops, at most one per
# stack: removed ones uncover the piece under them (the stack is lowered),
# converted ones change colour in place. A flat board is the same walk with
# each target its own cell, so one flood fill serves both.
#
# apply_shape_action asks surround_capture after a surrounder lands
# (placement or move), before end_ply; must-capture's look-ahead
# (surround_would_capture) puts the piece where it would land, counts the
# captives and restores the board.

from libc.stdlib cimport malloc, free
from libc.string cimport memset
from libc.stdint cimport uint8_t
from games.ttt.codes cimport (
    POWER_NONE, RESULT_CONVERTS, RESULT_PARALYZES,
    COND_SURROUND_LINE, COND_SURROUND_ORTH, COND_ADJACENT, COND_ADJACENT_ORTH,
    COND_APPROACH)


cdef inline int surround_piece(TTTCore core, int t) noexcept:
    """The piece a surround reads on target t: the piece on cell t (flat
    boards) or on top of stack t; 0 for an empty space or stack, or a
    locked top."""
    cdef int c = top_cell(core, t)
    return 0 if c < 0 or core.tab.locked[c] else core.cell[c]


cdef inline bint surround_open(TTTCore core, int seat, int t) noexcept:
    """Whether the piece read on target t may be a captive of ``seat``: a
    piece of a colour the seat does not own, on a space not locked for the
    phase."""
    cdef int c = top_cell(core, t), piece
    if c < 0 or core.tab.locked[c]:
        return False
    piece = core.cell[c]
    if piece == 0 or (core.plock != NULL and core.plock[c]):
        return False
    return not ((core.tab.seat_mask[seat] >> (piece - 1)) & 1)


cdef int approach_direction(Tables tab, int f, int u) noexcept:
    """The direction along which a move from target f reaches u in a
    straight line, or -1 (a placement, or a move along no line)."""
    cdef int d, x
    if f < 0 or f == u:
        return -1
    for d in range(26):
        x = tab.tnbr[f * 26 + d]
        while x >= 0 and x != u:
            x = tab.tnbr[x * 26 + d]
        if x == u:
            return d
    return -1


cdef int once_each(int* cells, int n) noexcept:
    """Tetrakis squares: two lines share the step from E of one square to W
    of the next, so two directions may reach one captive; it is taken once
    (the first time). The count of distinct cells, kept in order."""
    cdef int i, j, m = 0
    for i in range(n):
        for j in range(m):
            if cells[j] == cells[i]:
                break
        else:
            cells[m] = cells[i]
            m += 1
    return m


cdef int surround_captives_at(TTTCore core, int seat, int k, int u, int f, int* cells) noexcept:
    """The captive cells of a surrounder of local shape k of ``seat`` that
    arrived on target u, in the order the capture takes them: the runs of
    surround-line, or the groups of surround-orthogonal (one flood fill,
    for flat boards and stacks alike: it walks targets and reads each
    one's piece with surround_piece, then names each captive by its cell)."""
    cdef Tables tab = core.tab
    cdef int d, e, x, y, i, n = 0, m, colour, p, c
    cdef bint closed
    cdef uint8_t* seen
    if tab.shape_cond[k] == COND_SURROUND_LINE:
        for d in range(26):
            m = 0
            x = tab.tnbr[u * 26 + d]
            while x >= 0 and surround_open(core, seat, x):
                cells[n + m] = top_cell(core, x)
                m += 1
                x = tab.tnbr[x * 26 + d]
            if m > 0 and x >= 0 and (x != u or d >= 13):   # (a toroid's whole line: once)
                p = surround_piece(core, x)
                if p and (tab.seat_mask[seat] >> (p - 1)) & 1:
                    n += m
        return once_each(cells, n) if tab.tetra else n
    if tab.shape_cond[k] == COND_APPROACH:
        d = approach_direction(tab, f, u)
        if d < 0:
            return 0
        x = tab.tnbr[u * 26 + d]
        while x >= 0 and surround_open(core, seat, x):
            cells[n] = top_cell(core, x)
            n += 1
            if tab.shape_approach_one[k]:   # approach-one: the adjacent piece only
                break
            x = tab.tnbr[x * 26 + d]
        return n
    if tab.shape_cond[k] == COND_ADJACENT or tab.shape_cond[k] == COND_ADJACENT_ORTH:
        for d in range(26):
            if tab.shape_cond[k] == COND_ADJACENT_ORTH and not tab.is_axis[d]:
                continue
            x = tab.tnbr[u * 26 + d]
            if x >= 0 and surround_open(core, seat, x):
                cells[n] = top_cell(core, x)
                n += 1
        return once_each(cells, n) if tab.tetra else n
    if tab.shape_cond[k] != COND_SURROUND_ORTH:
        return 0
    seen = <uint8_t*>malloc(tab.T)
    memset(seen, 0, tab.T)
    for d in range(26):
        if not tab.is_axis[d]:
            continue
        x = tab.tnbr[u * 26 + d]
        if x < 0 or seen[x] or not surround_open(core, seat, x):
            continue
        colour = surround_piece(core, x)
        cells[n] = x                              # targets while the group grows
        seen[x] = 1
        m = 1
        closed = True
        i = 0
        while i < m:
            x = cells[n + i]
            i += 1
            for e in range(26):
                if not tab.is_axis[e]:
                    continue
                y = tab.tnbr[x * 26 + e]
                if y < 0 or y == u:
                    continue                      # the edge, or the arrival (the mover's)
                c = top_cell(core, y)
                if c >= 0 and tab.locked[c]:
                    continue                      # a wall (on stacks: a locked top)
                p = surround_piece(core, y)
                if p == 0:
                    closed = False                # an empty space or stack: a liberty
                elif p == colour:
                    if core.plock != NULL and core.plock[c]:
                        closed = False            # a committed piece holds its group
                    elif not seen[y]:
                        seen[y] = 1
                        cells[n + m] = y
                        m += 1
                elif not ((tab.seat_mask[seat] >> (p - 1)) & 1):
                    closed = False                # another player's piece
        if closed:
            for i in range(m):
                cells[n + i] = top_cell(core, cells[n + i])
            n += m
    free(seen)
    return n


cdef int surround_captives(TTTCore core, int seat, int c, int f, int* cells) noexcept:
    """The captive cells of the surrounder of ``seat`` on cell c (none for
    a shape without a power; a paralyzer's captives are the pieces not
    paralysed already: re-paralysing one changes nothing)."""
    cdef Tables tab = core.tab
    cdef int k = tab.shape_local[core.shp[c]], n, i, m = 0
    if tab.shape_power[k] == POWER_NONE:
        return 0
    n = surround_captives_at(core, seat, k, c % tab.XY if tab.gravity else c, f, cells)
    if tab.shape_result[k] != RESULT_PARALYZES:
        return n
    for i in range(n):
        if not is_paralysed(core, cells[i]):
            cells[m] = cells[i]
            m += 1
    return m


cdef int surround_capture(TTTCore core, int seat, int c, int f, bint apply) noexcept:
    """The surround of the piece that arrived on cell c: every captive gets
    the captor's result (removed, reincarnated to the captor's colour's
    reserve, or converted in place). Returns how many."""
    cdef Tables tab = core.tab
    cdef int* cells = <int*>malloc(tab.S * sizeof(int))
    cdef int n = surround_captives(core, seat, c, f, cells), i, m, res
    cdef int piece = core.cell[c], k = tab.shape_local[core.shp[c]]
    if apply:
        for i in range(n):
            m = cells[i]
            res = take_captive(core, piece, k, tab.shape_local[core.shp[m]])
            if res == RESULT_CONVERTS:
                core.board_hash ^= tab.zob[m * (tab.C + 1) + core.cell[m]] ^ tab.zob[m * (tab.C + 1) + piece]
                core.cell[m] = piece
            elif res == RESULT_PARALYZES:       # it stays, in its colour, and never moves again
                core.mem[tab.para0 + m] = 1
            elif tab.gravity:
                clear_cell(core, m)                 # a stack's top leaves
                core.top[m % tab.XY] -= 1
                sync_free_stack(core, m % tab.XY)
            else:
                clear_cell(core, m)
                free_add(core, m)
    free(cells)
    return n


cdef bint surround_would_capture(TTTCore core, int seat, int action, int k, int f, int t) noexcept:
    """Whether the placement (f < 0) or move from f of a piece landing as
    the surrounder of local shape k (a replacement's, for a move reaching
    its goal) on target t would capture: the piece is put where it would
    land (on cell t, which may hold a covered piece, or on top of stack t;
    a moving piece lifted off target f), the captives are counted, and the
    board is restored."""
    cdef Tables tab = core.tab
    cdef int piece, src = -1, c, n, old_shape, old_piece
    if f >= 0:
        src = top_cell(core, f)
        piece = core.cell[src]
        core.cell[src] = 0
        if tab.gravity:
            core.top[f] -= 1
    else:
        piece = (((action // tab.T) % tab.choices) if tab.choices > 1 else tab.colour_of_seat[seat]) + 1
    c = t + tab.XY * core.top[t] if tab.gravity else t
    old_shape = core.shp[c]
    old_piece = core.cell[c]
    core.cell[c] = piece
    core.shp[c] = tab.shape_global[k]
    if tab.gravity:
        core.top[t] += 1
    n = surround_capture(core, seat, c, f, False)
    if tab.gravity:
        core.top[t] -= 1
    core.cell[c] = old_piece
    core.shp[c] = old_shape
    if f >= 0:
        if tab.gravity:
            core.top[f] += 1
        core.cell[src] = piece
    return n > 0


# -- surrounds inside rounds -----------------------------------------------------


cdef void round_surrounds(TTTCore core, int* landed, int* source) noexcept:
    """The round's surrounds, judged once every plan has landed, so no
    order of the plans is needed. Every surrounding piece a plan landed finds its
    captives on the board with every plan landed, all before any is
    taken; a captive taken by surrounders of one colour gets the result of
    the lowest seat's surrounder (read before any capture): a paralysed one
    stays, in its colour, and a landed one still starts its turn check;
    one taken by surrounders of several colours is destroyed. A landed
    piece that is captured or converted starts no turn check. ``source``: each plan's
    source target (-1: a placement), for the approaches."""
    cdef Tables tab = core.tab
    cdef int s, o, i, m, n, res, piece, k
    cdef int cnt[MAX_SEATS]
    cdef int cap_piece[MAX_SEATS]
    cdef int cap_k[MAX_SEATS]
    cdef int* cells = <int*>malloc(MAX_SEATS * tab.S * sizeof(int))
    cdef int* taker = <int*>malloc(tab.S * sizeof(int))       # -1 none, seat, or -2 several colours
    if cells == NULL or taker == NULL:
        free(cells)
        free(taker)
        return
    for m in range(tab.S):
        taker[m] = -1
    for s in range(tab.seats):
        cnt[s] = 0
        if landed[s] < 0 or not core.cell[landed[s]]:
            continue
        cap_piece[s] = core.cell[landed[s]]
        cap_k[s] = tab.shape_local[core.shp[landed[s]]]
        if tab.shape_power[cap_k[s]] == POWER_NONE or not surround_captor(tab.shape_cond[cap_k[s]]):
            continue
        cnt[s] = surround_captives(core, s, landed[s], source[s], cells + s * tab.S)
    for s in range(tab.seats):
        for i in range(cnt[s]):
            m = cells[s * tab.S + i]
            o = taker[m]
            if o == -1:
                taker[m] = s
            elif o >= 0 and cap_piece[o] != cap_piece[s]:
                taker[m] = -2
    for m in range(tab.S):
        o = taker[m]
        if o == -1 or not core.cell[m]:
            continue
        if o >= 0 and tab.shape_result[cap_k[o]] == RESULT_PARALYZES:
            core.mem[tab.para0 + m] = 1         # it stays, in its colour (its turn check too), never moving
            continue
        for s in range(tab.seats):
            if landed[s] == m:
                landed[s] = -1                 # captured: no turn check through it
        if tab.gravity:
            trim_carried_run(core, m, landed)   # a carried stack's captured top
        if o >= 0:
            res = take_captive(core, cap_piece[o], cap_k[o], tab.shape_local[core.shp[m]])
            if res == RESULT_CONVERTS:
                core.board_hash ^= (tab.zob[m * (tab.C + 1) + core.cell[m]]
                                    ^ tab.zob[m * (tab.C + 1) + cap_piece[o]])
                core.cell[m] = cap_piece[o]
                continue
        if tab.gravity:
            clear_cell(core, m)                  # a stack's top leaves
            core.top[m % tab.XY] -= 1
            sync_free_stack(core, m % tab.XY)
            continue
        clear_cell(core, m)
        free_add(core, m)
    free(cells)
    free(taker)


cdef void trim_carried_run(TTTCore core, int m, int* landed) noexcept:
    """Surrounds on stacks in rounds: a captive top (cell m) that a
    by-stack plan carried there ends that plan's landed run below it, so
    the round's turn checks do not look through it (as a captured landed
    piece starts none)."""
    cdef Tables tab = core.tab
    cdef int s, j
    for s in range(tab.seats):
        if landed[s] < 0 or core.plan_lifted[s] < 2:
            continue
        for j in range(1, core.plan_lifted[s]):
            if landed[s] + tab.XY * j == m:
                core.plan_lifted[s] = j
                break

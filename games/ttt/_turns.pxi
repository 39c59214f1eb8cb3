# Turns and legal moves: whose turn it is, placements and plain moves (one
# step, or lines and knight's jumps), pieces per turn, draw offers, passes,
# and the turn checks that end each ply. The shapes path (_shapes.pxi),
# stacks (_stacks.pxi), captures (_captures.pxi) and cloaking
# (_cloaking.pxi) hand over from here through one test each. Included by
# _engine.pyx; functions take the core first. Rules:
# docs/rules/ttt/turns.md.

from libc.stdlib cimport malloc, free
from libc.string cimport memset
from libc.stdint cimport int16_t, uint8_t
from games.ttt.codes cimport (
    MOVE_NONE, MOVE_LINEAR_KNIGHT, END_NONE, END_AGREED_DRAW, END_MOVE_LIMIT, CLOAK_HIDES)


cdef bint advance_seat(TTTCore core) noexcept:
    """Move ``seat`` to the next seat in turn order that plays in this
    phase (possibly itself); False when nobody plays."""
    cdef int i, s = core.seat
    for i in range(core.tab.seats):
        s = (s + 1) % core.tab.seats
        if plays(core, s):
            core.seat = s
            return True
    return False


cdef void next_seat(TTTCore core) noexcept:
    advance_seat(core)
    core.left = core.tab.ppt
    core.offered = False
    start_turn(core)


cdef void start_turn(TTTCore core) noexcept:
    """Without a pass option, a seat with no legal move is a stalemate
    (the seat "Stalemate loses" and "Stalemate wins" score: ``core.stuck``;
    with a deck dealing each turn, once the turn's pieces are dealt: _deal.pxi)."""
    if core.tab.per_turn and deal_for_turn(core):
        return
    if not core.tab.ph_pass[core.phase] and not has_move(core, core.seat):
        core.stuck = core.seat + 1
        reach_stalemate(core)
        core.stuck = 0


cdef inline bint can_place(TTTCore core, int seat) noexcept:
    cdef int c
    if core.num_free == 0:
        return False
    if core.pentry != NULL:              # spaces: per-seat entry locks
        return can_place_with_entry_locks(core, seat)
    for c in range(core.tab.C):
        if (core.tab.seat_mask[seat] >> c) & 1 and core.reserve[c] > 0:
            return True
    return False


cdef inline int movable_piece(TTTCore core, int seat, int t) noexcept:
    """The piece code on target t that ``seat`` may move (0 if none): its
    colour must be one of the seat's and none of that colour left in reserve."""
    cdef int c, piece
    if core.tab.nboards > 1 and board_closed(core, t):     # boards: a decided board is locked
        return 0
    if core.tab.gravity:
        if core.top[t] == 0:
            return 0
        c = t + core.tab.XY * (core.top[t] - 1)
    else:
        c = t
    piece = core.cell[c]
    if piece == 0 or (core.plock != NULL and core.plock[c]):
        return 0
    if core.pexit != NULL and (core.pexit[c] >> seat) & 1:   # spaces: exit locked for seat
        return 0
    if (core.tab.seat_mask[seat] >> (piece - 1)) & 1 and core.reserve[piece - 1] == 0:
        return piece
    return 0


cdef inline bint destination_ok(TTTCore core, int f, int u) noexcept:
    # (the mover is always the seat to move; spaces: its entry locks)
    return u >= 0 and u != f and target_free(core, u) and may_enter(core, core.seat, u)


cdef inline bint holds_piece(TTTCore core, int t) noexcept:
    """Whether a piece stands on target t (on stacks: anywhere in its stack),
    so that it stops a line move when pieces block them (``line_moves``
    "blocked-by-pieces"; docs/rules/ttt/shapes.md, "Pieces in the way").
    Locked spaces without a piece never do: moves pass "over/through" them."""
    cdef int z
    if not core.tab.gravity:
        return core.cell[t] != 0
    for z in range(core.top[t]):
        if core.cell[t + core.tab.XY * z] != 0:
            return True
    return False


cdef int destinations(TTTCore core, int f, uint8_t* mark) noexcept:
    """Mark the targets the piece on f can move to; returns how many."""
    cdef Tables tab = core.tab
    cdef int d, u, n = 0
    if tab.move != MOVE_LINEAR_KNIGHT:      # one step, along the step table
        for d in range(26):
            u = tab.step[f * 26 + d]
            if destination_ok(core, f, u) and not mark[u]:
                mark[u] = 1
                n += 1
    elif tab.move == MOVE_LINEAR_KNIGHT:
        # linear: any distance along a line, over locked spaces (and over
        # pieces unless they block)
        for d in range(26):
            u = tab.tnbr[f * 26 + d]
            while u >= 0 and u != f:     # (a toroid's line comes back to f)
                if destination_ok(core, f, u) and not mark[u]:
                    mark[u] = 1
                    n += 1
                if tab.line_blocked and holds_piece(core, u):
                    break
                u = tab.tnbr[u * 26 + d]
        for d in range(24):
            u = tab.knight[f * 24 + d]
            if destination_ok(core, f, u) and not mark[u]:
                mark[u] = 1
                n += 1
    return n


cdef bint can_move(TTTCore core, int seat) noexcept:
    cdef Tables tab = core.tab
    cdef int f, d, u
    if tab.shaped:
        return shape_can_move(core, seat)
    if tab.ph_move[core.phase] == MOVE_NONE or core.num_free == 0:
        return False
    if (tab.sstep != NULL and not tab.gravity and tab.nboards == 1 and not tab.any_seat_lock
            and tab.move != MOVE_LINEAR_KNIGHT):
        return can_step_flat(core, seat)     # every round start asks, per seat
    for f in range(tab.T):
        if not movable_piece(core, seat, f):
            continue
        if tab.move != MOVE_LINEAR_KNIGHT and tab.sstep != NULL:
            for d in range(tab.nsstep[f]):     # the packed step table (rounds only)
                if destination_ok(core, f, tab.sstep[f * 26 + d]):
                    return True
        elif tab.move != MOVE_LINEAR_KNIGHT:    # one step, along the step table
            for d in range(26):
                if destination_ok(core, f, tab.step[f * 26 + d]):
                    return True
        else:
            # on a line or a knight's jump some free target exists unless
            # the only free target is f itself (stacks only)
            if core.num_free > 1 or not target_free(core, f):
                for d in range(26):
                    u = tab.tnbr[f * 26 + d]
                    while u >= 0 and u != f:
                        if destination_ok(core, f, u):
                            return True
                        if tab.line_blocked and holds_piece(core, u):
                            break
                        u = tab.tnbr[u * 26 + d]
                for d in range(24):
                    if destination_ok(core, f, tab.knight[f * 24 + d]):
                        return True
    return False


cdef bint can_step_flat(TTTCore core, int seat) noexcept:
    """can_move for one-step moves on one flat board without per-seat
    locks (the packed step table exists: rule sets with rounds): the
    same test as movable_piece and destination_ok there (a target is its cell;
    a piece of a colour the seat has none of in reserve, not locked for
    the phase; an empty, unlocked neighbour), with the colours found once."""
    cdef Tables tab = core.tab
    cdef int f, d, u, col, movable = 0
    cdef int16_t* cell = core.cell
    cdef uint8_t* locked = tab.locked
    cdef uint8_t* plock = core.plock
    for col in range(tab.C):
        if (tab.seat_mask[seat] >> col) & 1 and core.reserve[col] == 0:
            movable |= 1 << (col + 1)
    if movable == 0:
        return False
    for f in range(tab.T):
        if not ((movable >> cell[f]) & 1) or (plock != NULL and plock[f]):
            continue
        for d in range(tab.nsstep[f]):
            u = tab.sstep[f * 26 + d]
            if u != f and cell[u] == 0 and not locked[u] and (plock == NULL or not plock[u]):
                return True
    return False


cdef inline bint has_move(TTTCore core, int seat) noexcept:
    if core.seen != NULL and judges_own_view(core, seat):
        return has_move_in_view(core, seat)
    if can_place(core, seat):
        return True
    if core.tab.powers:
        return has_listed_action(core, seat)      # covers need no free target
    return can_move(core, seat)


cdef int seat_actions(TTTCore core, int seat, int* out) noexcept:
    """Placements, moves and pass of ``seat``, ascending."""
    cdef Tables tab = core.tab
    cdef int k = 0, ch, colour, t, f, u
    cdef uint8_t* mark
    if tab.cloaking == CLOAK_HIDES and judges_own_view(core, seat):
        return seat_actions(view_of(core, seat), seat, out)
    if tab.obscured_covers and judges_own_view(core, seat):
        return obscured_actions(core, seat, out)     # captures under obscurity
    if tab.shaped:
        return shape_seat_actions(core, seat, out)
    for ch in range(tab.choices):
        colour = ch if tab.choices > 1 else tab.colour_of_seat[seat]
        if not ((tab.seat_mask[seat] >> colour) & 1) or core.reserve[colour] <= 0:
            continue
        for t in range(tab.T):
            if target_free(core, t) and may_enter(core, seat, t):
                out[k] = ch * tab.T + t
                k += 1
    if tab.ph_move[core.phase] != MOVE_NONE and core.num_free > 0:
        mark = <uint8_t*>malloc(tab.T)
        for f in range(tab.T):
            if not movable_piece(core, seat, f):
                continue
            memset(mark, 0, tab.T)
            if destinations(core, f, mark) == 0:
                continue
            for u in range(tab.T):
                if mark[u]:
                    out[k] = tab.move0 + f * tab.T + u
                    k += 1
        free(mark)
    if tab.ph_pass[core.phase]:
        out[k] = tab.a_pass
        k += 1
    return k


cdef bint plain_is_legal(TTTCore core, int action) noexcept:
    """is_legal of a placement, plain move, pass or draw offer of the seat to
    move, circles-only path (is_legal has handled everything else)."""
    cdef Tables tab = core.tab
    cdef int ch, t, colour, f, u
    cdef uint8_t* mark
    cdef bint ok
    if action < tab.nplace:
        ch = action // tab.T
        t = action % tab.T
        colour = ch if tab.choices > 1 else tab.colour_of_seat[core.seat]
        return ((tab.seat_mask[core.seat] >> colour) & 1) and core.reserve[colour] > 0 \
            and target_free(core, t) and may_enter(core, core.seat, t)
    if action < tab.move0 + tab.nmove:
        f = (action - tab.move0) // tab.T
        u = (action - tab.move0) % tab.T
        if tab.ph_move[core.phase] == MOVE_NONE:
            return False
        if not movable_piece(core, core.seat, f) or not destination_ok(core, f, u):
            return False
        mark = <uint8_t*>malloc(tab.T)
        memset(mark, 0, tab.T)
        destinations(core, f, mark)
        ok = mark[u] != 0
        free(mark)
        return ok
    if action == tab.a_pass:
        return tab.ph_pass[core.phase]
    if action == tab.a_offer:
        return offer_allowed(core)
    return False


cdef void apply_plain(TTTCore core, int action) noexcept:
    """apply of a placement, plain move, pass or draw offer of the seat to
    move, circles-only path (apply has handled everything else)."""
    cdef Tables tab = core.tab
    cdef int ch, t, colour, f
    if action < tab.nplace:
        ch = action // tab.T
        t = action % tab.T
        colour = ch if tab.choices > 1 else tab.colour_of_seat[core.seat]
        place(core, t, colour)
    elif action < tab.move0 + tab.nmove:
        f = (action - tab.move0) // tab.T
        move_piece(core, f, (action - tab.move0) % tab.T)
    elif action == tab.a_pass:
        pass_turn(core)
    elif action == tab.a_offer:
        core.offer_by = core.seat
        core.answerer = next_answerer(core, core.seat)


cdef void place(TTTCore core, int t, int colour) noexcept:
    core.reserve[colour] -= 1
    cdef int c = land(core, t, colour + 1)
    if core.seen != NULL:
        core.seen[c] = 1 << core.seat      # cloaking: "every piece they placed"
    core.placements += 1
    end_ply(core, c, colour + 1)


cdef void move_piece(TTTCore core, int f, int u) noexcept:
    cdef Tables tab = core.tab
    cdef int src = lift_source(core, f), piece
    piece = core.cell[src]
    core.cell[src] = 0
    core.board_hash ^= tab.zob[src * (tab.C + 1) + piece]
    cdef int c = land(core, u, piece)
    if core.seen != NULL:
        core.seen[c] = core.seen[src]      # cloaking: who saw it saw this piece
        core.seen[src] = 0
    core.moves += 1
    end_ply(core, c, piece)


cdef void end_ply(TTTCore core, int c, int piece) noexcept:
    cdef Tables tab = core.tab
    cdef int d, run, best = 1, best_axis = 1, i, j, rook = core.castled
    core.castled = -1
    core.passes = 0
    core.plies += 1
    if (tab.nchecks or tab.last_row_k) and c >= 0:      # c < 0: the arriving piece did not stay
        for j in range(tab.nrun):   # a line no cell has is a run of 1 (best starts there)
            d = tab.run_dir[j]
            run = run_length(core, c, d, piece)
            if rook >= 0:           # "Castle": the rook landed too
                run = max(run, run_length(core, rook, d, piece))
            if run > best:
                best = run
            if tab.is_axis[d] and run > best_axis:
                best_axis = run
        if core.stack_landed > 1:            # a carried stack landed above c
            best = max(best, stack_best_run(core, c, False))
            best_axis = max(best_axis, stack_best_run(core, c, True))
        if tab.last_row_k and best >= tab.last_row_k:       # "Last K-in-a-row wins"
            core.mem[tab.last_row0] = tab.side[core.seat] + 1
        for i in range(tab.nchecks):
            if (best if tab.check_diag[i] else best_axis) >= tab.check_k[i]:
                if tab.nboards > 1:      # boards: the check decides this board only
                    if decide_board(core, c, tab.check_effect[i]):
                        return
                    break
                finish_check(core, tab.check_effect[i], core.seat)
                if core.end != END_NONE:
                    return
                break       # overachievers disqualified: play goes on
    if tab.last_pentagon and last_pentagon_check(core):
        return
    if tab.move_limit and core.goal_hit:     # "Stalemate if goal is reached" (only
        core.goal_hit = False                 # moves reach goals, and moving rule sets have a limit)
        reach_stalemate(core)
        return
    if tab.move_limit and core.plies >= tab.move_limit:
        finish_stalemate(core, END_MOVE_LIMIT)
        return
    if core.chain_land >= 0 and chain_continues(core):      # a chain jump's extra move
        return
    core.left -= 1
    if core.left == 0 or not has_move(core, core.seat):
        next_seat(core)


cdef void pass_turn(TTTCore core) noexcept:
    core.passes += 1
    core.plies += 1
    cdef bint limit = core.tab.move_limit and core.plies >= core.tab.move_limit
    # the move limit ends the game even where the passes would only end a phase
    if core.passes >= num_playing(core) and not (limit and core.phase + 1 < core.tab.nphases):
        reach_stalemate(core)
        return
    if limit:
        finish_stalemate(core, END_MOVE_LIMIT)
        return
    next_seat(core)


cdef inline bint offer_allowed(TTTCore core) noexcept:
    return (core.tab.agree_draw and not core.offered and core.left == core.tab.ppt
            and not (core.tab.chains and core.mem[core.tab.chain0])     # a chain jump goes on
            and not (core.tab.chaos and core.seat == core.tab.seats - 1)
            and not (core.tab.sim and in_round(core)))      # no offers in a round


cdef int next_answerer(TTTCore core, int s) noexcept:
    """The next non-Chaos seat after s in turn order (wraps to the offerer)."""
    s = (s + 1) % core.tab.seats
    if core.tab.chaos and s == core.tab.seats - 1:
        s = 0
    return s


cdef void answer_offer(TTTCore core, bint agree) noexcept:
    if not agree:
        core.answerer = -1
        core.offer_by = -1
        core.offered = True
        return
    core.answerer = next_answerer(core, core.answerer)
    if core.answerer == core.offer_by:
        core.offer_by = -1
        core.answerer = -1
        finish_draw(core, END_AGREED_DRAW)

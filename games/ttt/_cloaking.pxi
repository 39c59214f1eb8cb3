# Cloaking: what each seat sees. Cloaked spaces hide the pieces on them
# (invisibility) or their shapes (obscurity); each seat chooses from the
# position as it sees it, the true position judges, and an illegal try is an
# attempt that only reveals. What each seat sees of events is
# _cloaked_events.pxi. Included by _engine.pyx; functions take the core (or
# the tables) first. Rules: docs/rules/ttt/cloaking.md ("What a player fully
# sees", "Cloaking in rounds", "Captures with cloaked spaces", "Jumps and
# surrounds with cloaked spaces", "Shapes and moving shapes in cloaked
# rounds").
#
# The specification: "Players can fully see every piece they placed, every
# piece they can move [...], every piece occupying a non-cloaked space,
# every piece they have previously fully seen, and every piece they have
# attempted to cover." ``seen`` (a seat bit mask per cell, in the block,
# moving with its piece) makes the fourth clause permanent; the others are
# read off the position. The seen masks are refreshed after every ply and at
# each phase's start: by colour on flat boards without shapes
# (refresh_seen_flat, one OR per cell), piece by piece with shapes, where
# "can move" is per shape (can_move_piece). A seat's legal actions come from
# its view (view_of: the position with the pieces it does not see taken
# off, played by the plain rules in the tables' scratch core).

from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset
from libc.stdint cimport int16_t, int32_t, uint8_t, uint64_t
from games.rng cimport Rng, mix64, rng_below
from games.ttt.codes cimport (
    MOVE_NONE, MOVE_LINEAR_KNIGHT, END_MOVE_LIMIT, CLOAK_NONE, CLOAK_HIDES, CLOAK_OBSCURES, POWER_NONE)


cdef void cloak_layout(Tables tab, dict p) except *:
    """Cloaking: the per-phase cloaked cells, and the block's tail that
    remembers what each player has seen: seen[S] (a seat bit mask per
    cell, moving with its piece) and the event log each player's
    information state is read from (count as two int16, then per event:
    action, actor | attempt<<3 | 2-bit view class per seat from bit 4,
    phase after). Without cloaking the block is unchanged."""
    cdef int i
    tab.cloaking = p.get("cloaking", CLOAK_NONE)
    tab.ph_cloak = NULL
    if tab.cloaking == CLOAK_NONE:
        return
    tab.ph_cloak = <uint8_t*>malloc(tab.nphases * tab.S)
    if not tab.ph_cloak:
        raise MemoryError()
    memset(tab.ph_cloak, 0, tab.nphases * tab.S)
    for i, ph in enumerate(p["phases"]):
        for c in ph["cloaked"]:
            tab.ph_cloak[i * tab.S + c] = 1
    # what each seat has seen is part of the position and is not mapped
    # by the board's symmetries: claim none (cloaked rule sets are not
    # searched with transpositions anyway; their searches refuse them)
    tab.nsym = 1
    tab.seen0 = tab.block
    tab.log0 = tab.seen0 + tab.S
    if p.get("hidden_walls", False):
        tab.walls0 = tab.log0            # what each seat saw of the walls, then a view's locks
        tab.vlock0 = tab.walls0 + tab.S
        tab.log0 = tab.vlock0 + (tab.S + 1) // 2
    tab.loglen = p["max_game_length"]
    tab.block = tab.log0 + 2 + 3 * tab.loglen
    obscured_cover_tables(tab)
    reincarnation_log_layout(tab)
    captives_log_layout(tab)
    stack_cover_log_layout(tab)
    round_cover_log_layout(tab)


cdef void obscured_cover_tables(Tables tab) noexcept:
    """Captures under obscurity: the mover's view gives a piece it sees by
    colour only a shape with a power (the last local one), so it may try
    the covers the hidden shape could allow."""
    cdef int k
    if tab.powers and tab.cloaking == CLOAK_OBSCURES:
        tab.obscured_covers = True
        for k in range(tab.K):
            if tab.shape_power[k] != POWER_NONE:
                tab.stand_in_shape = k


cdef inline bint judges_own_view(TTTCore core, int seat) noexcept:
    """Whether ``seat`` chooses from its own view: a player (Chaos plays
    the true position) in a real position (a view plays the plain rules)."""
    return not core.viewing and not (core.tab.chaos and seat == core.tab.seats - 1)


cdef inline bint cloaked_now(TTTCore core, int c) noexcept:
    return core.tab.ph_cloak[core.phase * core.tab.S + c] != 0


# -- invisible walls ----------------------------------------------------------------
# "If what makes a move illegal is a wall or piece that is invisible to the
# player, then the player can attempt the move, but the result will be only
# to make the invisible piece or wall visible." With ``cloaking_hides_walls``
# (invisibility) a space locked for every player (the board's locked spaces,
# compiled into every phase's, and the phase's own) and cloaked in the
# current phase is a wall a seat sees only once it has: ``walls`` (a seat
# bit mask per cell, in the block) records the walls on open spaces at each
# refresh and the walls an attempt ran into (``reveal``); a space unlocked
# in a phase forgets its wall. A seat's view (view_of) gets its own locked
# cells without the walls it does not see. Rules: docs/rules/ttt/cloaking.md,
# "Invisible walls".


cdef inline bint hides_wall(TTTCore core, int s, int c) noexcept:
    """Whether the space c holds a wall that seat s does not see (on a
    decided board every space shows locked, as the board's lock is seen)."""
    return (core.tab.walls0 != 0 and core.plock != NULL and core.plock[c] != 0 and cloaked_now(core, c)
            and not (core.mem[core.tab.walls0 + c] >> s) & 1
            and not (core.tab.nboards > 1 and board_closed(core, c)))


cdef void refresh_walls(TTTCore core) noexcept:
    """Every seat sees the walls on open spaces, and remembers them; a
    space not locked in this phase has no wall to remember."""
    cdef Tables tab = core.tab
    cdef int c
    cdef int full = (1 << tab.seats) - 1
    for c in range(tab.S):
        if core.plock == NULL or not core.plock[c]:
            core.mem[tab.walls0 + c] = 0
        elif not cloaked_now(core, c):
            core.mem[tab.walls0 + c] = full


cdef void view_walls(TTTCore core, TTTCore v, int s) noexcept:
    """Give the view of seat s its own locked cells: the true ones but the
    walls it does not see, which look like empty spaces (free targets)."""
    cdef Tables tab = core.tab
    cdef uint8_t* lock = <uint8_t*>(v.mem + tab.vlock0)
    cdef int c
    if core.plock == NULL:
        return
    memcpy(lock, core.plock, tab.S)
    v.plock = lock
    for c in range(tab.S):
        if hides_wall(core, s, c):
            lock[c] = 0
            if v.cell[c] == 0 and target_free(v, c):
                free_add(v, c)


cdef bint can_move_piece(TTTCore core, int s, int c) noexcept:
    """"Every piece they can move": the piece on c is one seat s may move
    in this phase (its colour, none of that colour in reserve, movement
    allowed, s takes turns, c not locked, top of its stack), whether or
    not a destination is free (that may hang on hidden pieces)."""
    cdef Tables tab = core.tab
    cdef int piece = core.cell[c]
    if piece == 0 or tab.ph_move[core.phase] == MOVE_NONE or not plays(core, s):
        return False
    if core.pexit != NULL and (core.pexit[c] >> s) & 1:
        return False                         # exit locked for s (sticky, exclusive, exit lock)
    if tab.nboards > 1 and board_closed(core, c):
        return False                         # on a decided (locked) board
    if tab.shaped:
        return shape_piece_movable(core, s, c)       # per shape (after the locks)
    if not ((tab.seat_mask[s] >> (piece - 1)) & 1) or core.reserve[piece - 1] > 0:
        return False
    if tab.locked[c] or (core.plock != NULL and core.plock[c]):
        return False
    if tab.gravity and c // tab.XY != core.top[c % tab.XY] - 1:
        return False
    return True


cdef bint fully_sees(TTTCore core, int s, int c) noexcept:
    """Whether seat s fully sees (colour and shape) the piece on c."""
    cdef int piece = core.cell[c]
    if piece == 0:
        return False
    if (core.seen[c] >> s) & 1 or not cloaked_now(core, c):
        return True
    if core.tab.cloaking == CLOAK_OBSCURES and (core.tab.seat_mask[s] >> (piece - 1)) & 1:
        return True        # "all pieces of their assigned color(s)"
    return can_move_piece(core, s, c)


cdef inline bint sees_piece(TTTCore core, int s, int c) noexcept:
    """Whether seat s sees that c holds a piece: fully, or under obscurity
    "the color–but not shape–of all other placed pieces"."""
    return core.cell[c] != 0 and (core.tab.cloaking == CLOAK_OBSCURES or fully_sees(core, s, c))


cdef uint64_t seen_hash(TTTCore core) noexcept:
    """What each seat has seen decides its legal actions, so it is part of
    the position's hash (the event log is not: it decides views only)."""
    cdef uint64_t h = 0
    cdef int c
    for c in range(core.tab.S):
        if core.seen[c]:
            h ^= mix64(<uint64_t>(c * 64 + core.seen[c]) + <uint64_t>0x5EE115EE11)
        if core.tab.walls0 and core.mem[core.tab.walls0 + c]:       # the walls each seat saw
            h ^= mix64(<uint64_t>(c * 64 + core.mem[core.tab.walls0 + c]) + <uint64_t>0xA11A11A11)
    return h


cdef void refresh_seen(TTTCore core) noexcept:
    """Record every piece each seat fully sees now ("every piece they have
    previously fully seen" stays seen when its space is cloaked later):
    pieces on open spaces for everyone, pieces a seat can move for it.
    (Obscurity's own-colour clause needs no record: colours never change
    hands.)"""
    cdef Tables tab = core.tab
    cdef int c, s
    cdef int full = (1 << tab.seats) - 1
    cdef bint moving = tab.ph_move[core.phase] != MOVE_NONE
    if tab.walls0:
        refresh_walls(core)
    if not tab.gravity and not tab.shaped:
        refresh_seen_flat(core)      # the same clauses, faster
        return
    # with shapes "can move" is per shape (stationary
    # shapes never, an identical piece in reserve), which the flat path's
    # per-colour movers cannot say: can_move_piece decides per piece
    for c in range(tab.S):
        if core.cell[c] and core.seen[c] != full:
            if not cloaked_now(core, c):
                core.seen[c] = full
            elif moving:
                for s in range(tab.seats):
                    if can_move_piece(core, s, c):
                        core.seen[c] |= 1 << s


cdef void movers_by_colour(TTTCore core, int* movers) noexcept:
    """Per colour, the seats that can move its pieces now ("every piece
    they can move", flat boards: it plays in this phase, the phase moves,
    the colour is its own and none of it is in reserve). Unshaped rule
    sets only: with shapes "can move" is per shape (refresh_seen_shaped)."""
    cdef Tables tab = core.tab
    cdef int s, col
    for col in range(tab.C):
        movers[col] = 0
    if tab.ph_move[core.phase] == MOVE_NONE:
        return
    for s in range(tab.seats):
        if plays(core, s):
            for col in range(tab.C):
                if (tab.seat_mask[s] >> col) & 1 and core.reserve[col] == 0:
                    movers[col] |= 1 << s


cdef inline void refresh_seen_cell(TTTCore core, int c, int* movers, int full) noexcept:
    cdef int piece = core.cell[c]
    if piece == 0 or core.seen[c] == full:
        return
    if not cloaked_now(core, c):
        core.seen[c] = full
    elif (not core.tab.locked[c] and (core.plock == NULL or not core.plock[c])
            and not (core.tab.nboards > 1 and board_closed(core, c))):
        # as can_move_piece: a decided board's pieces and a seat's
        # exit-locked ones are not "pieces it can move"
        core.seen[c] |= movers[piece - 1] & ~(core.pexit[c] if core.pexit != NULL else 0)


cdef void refresh_seen_flat(TTTCore core) noexcept:
    """refresh_seen on flat boards, with the movers of each colour found
    once: the same clauses ("every piece occupying a non-cloaked space",
    "every piece they can move"). On one board without per-seat locks,
    without a branch per cell: a cell's mask only gains bits (a seen
    mask and the movers are subsets of ``full``), so refresh_seen_cell's
    early exits change nothing and each cell is one OR."""
    cdef Tables tab = core.tab
    cdef int c, piece, open_, movable
    cdef int full = (1 << tab.seats) - 1
    cdef int movers[MAX_COLOURS + 1]       # by piece code: [0] an empty cell gains nothing
    cdef uint8_t* cloak
    cdef uint8_t* lock
    movers_by_colour(core, movers + 1)
    if tab.nboards > 1 or core.pexit != NULL:
        for c in range(tab.S):
            refresh_seen_cell(core, c, movers + 1, full)
        return
    movers[0] = 0
    cloak = tab.ph_cloak + core.phase * tab.S
    lock = core.plock if core.plock != NULL else tab.locked     # (no phase locks: locked twice)
    for c in range(tab.S):
        piece = core.cell[c]
        open_ = (cloak[c] == 0) & (piece != 0)
        movable = (tab.locked[c] == 0) & (lock[c] == 0)
        core.seen[c] |= (full & -open_) | (movers[piece] & -movable)


cdef void refresh_seen_shaped(TTTCore core) noexcept:
    """refresh_seen on the shapes path after a round: pieces on open
    spaces for everyone, and each piece for the seats that can move it
    by its shape ("cannot move a placed piece if [...] an identical piece
    in reserve"; stationary shapes never)."""
    cdef Tables tab = core.tab
    cdef int c, s
    cdef int full = (1 << tab.seats) - 1
    cdef bint moving = tab.ph_move[core.phase] != MOVE_NONE
    for c in range(tab.S):
        if core.cell[c] and core.seen[c] != full:
            if not cloaked_now(core, c):
                core.seen[c] = full
            elif moving:
                for s in range(tab.seats):
                    if can_move_piece(core, s, c):
                        core.seen[c] |= 1 << s


cdef TTTCore view_of(TTTCore core, int s):
    """The position as seat s sees it, to play the plain rules on: pieces
    it does not see are taken off (a hidden piece looks like an empty
    space), a stack's height is that of what it sees. The view lives in
    the tables' scratch core (no allocation per call), so it is valid
    until the next view is made; callers use it at once."""
    cdef Tables tab = core.tab
    cdef TTTCore v
    cdef int c, t, z, h
    if tab.scratch is None:
        v = TTTCore.__new__(TTTCore)
        v._setup(tab)
        v.viewing = True
        v.tries_hidden_jumps = tab.cloaking == CLOAK_HIDES and tab.jumps and not tab.gravity
        tab.scratch = v
    v = <TTTCore>tab.scratch
    memcpy(v.mem, core.mem, tab.log0 * sizeof(int16_t))     # all but the event log
    v.seat = core.seat
    v.left = core.left
    v.passes = core.passes
    v.plies = core.plies
    v.offer_by = core.offer_by
    v.answerer = core.answerer
    v.offered = core.offered
    v.end = core.end
    v.phase = core.phase
    v.folded = core.folded
    v.plock = core.plock
    v.pentry = core.pentry                   # a view keeps the seats' space locks
    v.pexit = core.pexit
    v.num_free = core.num_free
    if tab.walls0:
        view_walls(core, v, s)       # (before the pieces: a hidden piece may stand on a hidden wall)
    for c in range(tab.S):
        if core.cell[c] and not sees_piece(core, s, c):
            v.cell[c] = 0
            if not tab.gravity and target_free(v, c):
                free_add(v, c)     # the true free list plus what looks empty
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
            if target_free(v, t):
                free_add(v, t)
    return v


cdef inline bint view_hides_pieces_only(TTTCore core) noexcept:
    """Whether a view differs from the truth only by pieces taken off
    (flat boards without per-player locks or hidden walls): then a target
    free in truth is free in every view, and the same pieces are movable."""
    return not core.tab.gravity and not core.tab.any_seat_lock and not core.tab.walls0


cdef inline bint looks_free(TTTCore core, int seat, int t) noexcept:
    """Flat boards: target t is free in seat's view (empty, or holding a
    piece it does not see; not locked)."""
    if core.tab.locked[t] or (core.plock != NULL and core.plock[t]):
        return False
    if core.cell[t] == 0:
        return True
    if (core.seen[t] >> seat) & 1 or not cloaked_now(core, t):
        return False             # seen before, or on an open space (fully_sees's first clauses)
    return not fully_sees(core, seat, t)


cdef bint has_move_in_view(TTTCore core, int seat) noexcept:
    """Whether seat has a placement or move in its own view."""
    if core.tab.obscured_covers:
        return has_listed_action(core, seat, True)      # covers need no free target
    if view_hides_pieces_only(core) and (can_place(core, seat) or can_move(core, seat)):
        return True     # a free target in truth looks free in every view
    if view_hides_pieces_only(core) and core.tab.cloaking == CLOAK_HIDES and core.tab.nboards == 1 \
            and core.tab.move != MOVE_LINEAR_KNIGHT and not core.tab.shaped:    # shapes move their own way
        return has_move_in_flat_view(core, seat)
    if core.tab.cloaking == CLOAK_HIDES:
        return has_move(view_of(core, seat), seat)
    return can_place(core, seat) or can_move(core, seat)


cdef bint has_move_in_flat_view(TTTCore core, int seat) noexcept:
    """Flat boards, one-step moves: whether seat has a placement or move
    in its view, without building it (a target looks free when empty or
    holding a piece it does not see; its movable pieces it sees)."""
    cdef Tables tab = core.tab
    cdef int t, f, d, col
    for col in range(tab.C):
        if (tab.seat_mask[seat] >> col) & 1 and core.reserve[col] > 0:
            for t in range(tab.T):
                if looks_free(core, seat, t):
                    return True
            break
    if tab.ph_move[core.phase] == MOVE_NONE:
        return False
    for f in range(tab.T):
        if movable_piece(core, seat, f):
            for d in range(26):             # (the step table: sstep exists only with rounds)
                t = tab.step[f * 26 + d]
                if t >= 0 and looks_free(core, seat, t):
                    return True
    return False


cdef bint is_attempt(TTTCore core, int action, int kind, int f) noexcept:
    """Whether a placement or move legal in the mover's view is not what
    it seems: illegal in truth, or (stacks) a move whose true top piece is
    one the mover does not see."""
    cdef bint legal
    core.viewing = True            # the plain rules on the true position
    core.captures_unforced = True        # "must capture" is judged on the mover's view
    legal = core.is_legal(action)
    core.captures_unforced = False
    core.viewing = False
    if not legal:
        return True
    return kind == 1 and core.tab.gravity and view_of(core, core.seat).top[f] != core.top[f]


cdef void reveal(TTTCore core, int s, int t) noexcept:
    """Show seat s every piece on target t (the whole stack on stacks),
    and its wall when walls may be hidden."""
    cdef Tables tab = core.tab
    cdef int z, c
    if tab.walls0 and core.plock != NULL and core.plock[t]:
        core.mem[tab.walls0 + t] |= 1 << s
    for z in range(tab.Z if tab.gravity else 1):
        c = t + tab.XY * z if tab.gravity else t
        if core.cell[c]:
            core.seen[c] |= 1 << s


cdef void reveal_line(TTTCore core, int s, int f, int t) noexcept:
    """When pieces block line moves (``line_moves`` "blocked-by-pieces"),
    show seat s every piece on the targets strictly between f and t along
    the line that joins them (whole stacks on stacks); nothing for a step,
    a knight's leap or a placement. "If what makes a move illegal is a wall
    or piece that is invisible to the player, then [...] the result will be
    only to make the invisible piece or wall visible": each piece in the
    way makes the move illegal by itself (docs/rules/ttt/cloaking.md,
    "Line moves blocked by hidden pieces")."""
    cdef Tables tab = core.tab
    cdef int d, u
    if not tab.line_blocked or f < 0 or t < 0:
        return
    for d in range(26):
        u = tab.tnbr[f * 26 + d]
        while u >= 0 and u != t:
            u = tab.tnbr[u * 26 + d]
        if u != t:
            continue
        u = tab.tnbr[f * 26 + d]
        while u != t:
            reveal(core, s, u)
            u = tab.tnbr[u * 26 + d]
        return


cdef void apply_cloaked(TTTCore core, int action) noexcept:
    """apply() of a cloaked rule set: an attempt that only reveals, or the
    plain rules; then the event is logged and what is seen remembered."""
    cdef Tables tab = core.tab
    cdef int actor = core.answerer if core.offer_by >= 0 else core.seat
    cdef int kind = 2, f = -1, t = -1, src, land = -1, s, stk = -1
    cdef int before = 0
    cdef int cover[5]              # target, who saw its piece, open target, source, verdict
    cdef int* snap = NULL          # each cell's piece and who saw it, before a jump or surround
    cdef bint attempt = False
    cdef int16_t* columns = NULL   # a stacks event's columns (covers on stacks: _cloaked_stack_covers.pxi)
    cdef int logged = 0
    cover[0] = -1
    if core.offer_by < 0 and action < tab.nplace:
        kind = 0
        t = action % tab.T
    elif core.offer_by < 0 and action < tab.move0 + tab.nmove:
        kind = 1
        f = (action - tab.move0) // tab.T
        t = (action - tab.move0) % tab.T
    elif core.offer_by < 0 and is_replacement_move(core, action):
        kind = 1                     # a move reaching the goal, naming its replacement
        f = ((action - tab.rep0) // tab.T) % tab.T
        t = (action - tab.rep0) % tab.T
    elif core.offer_by < 0 and tab.nstk and tab.stk0 <= action < tab.stk0 + tab.nstk:
        kind = 1                     # a by-stack move (its mover's cell, not f's top)
        stk = (action - tab.stk0) // tab.T % tab.S
        f = stk % tab.XY
        t = (action - tab.stk0) % tab.T
    if tab.stack_log0 and kind != 2:
        columns = <int16_t*>malloc(4 * tab.Z * sizeof(int16_t))
        begin_stack_event(core, actor, kind, t, f, columns)
    if kind != 2 and (tab.cloaking == CLOAK_HIDES or tab.obscured_covers) and judges_own_view(core, actor):
        attempt = is_attempt(core, action, kind, f)     # (obscured covers too)
    if attempt:
        # "the result will be only to make the invisible piece or wall
        # visible to the player (i.e. the turn ends without any piece
        # actually moving)"
        reveal(core, actor, t)
        if kind == 1:
            reveal(core, actor, f)
            reveal_line(core, actor, f, t)              # the pieces in its way
            if tab.captives_log0 and jumped_space(core, actor, f, t) >= 0:
                reveal(core, actor, jumped_space(core, actor, f, t))    # what it tried to jump
        if tab.chains:
            core.mem[tab.chain0] = 0     # a chain's failed extra jump ends the chain with the turn
        core.passes = 0
        core.plies += 1
        if tab.move_limit and core.plies >= tab.move_limit:
            finish_stalemate(core, END_MOVE_LIMIT)
        else:
            next_seat(core)
    else:
        if kind == 1:
            src = f + tab.XY * (core.top[f] - 1) if tab.gravity else f
            if stk >= 0:
                src = stk            # the mover, not the top piece
                land = t + tab.XY * core.top[t]
            for s in range(tab.seats):
                if sees_piece(core, s, src):
                    before |= 1 << s
        if kind != 2 and tab.powers and not tab.gravity and core.cell[t]:
            begin_cloaked_cover(core, t, f if kind == 1 else -1, cover)
        if tab.captives_log0 and kind != 2:
            snap = <int*>malloc((2 * tab.S + 2) * sizeof(int))
            snapshot_pieces(core, snap)
            snap[2 * tab.S] = jumped_space(core, actor, f, t) if kind == 1 else -1
            snap[2 * tab.S + 1] = tab.shape_local[core.shp[f]] if kind == 1 and core.cell[f] else -1
        core.cloak_busy = True
        core.apply(action)
        core.cloak_busy = False
        if kind != 2 and stk < 0:
            land = t + tab.XY * (core.top[t] - 1) if tab.gravity else t
        if cover[0] >= 0:
            land = end_cloaked_cover(core, actor, kind, cover)
        if columns != NULL and core.cover_landed != -2:
            land = core.cover_landed             # a cover on a stack: where the attacker ends
            if kind == 1 and core.cell[src] == 0:
                core.seen[src] = 0
    logged = logged_event_count(core)
    log_event(core, action, actor, attempt, kind, land, before)
    if cover[0] >= 0:
        log_cover(core, actor, kind, before, cover)
    if snap != NULL:
        log_captives(core, actor, f if kind == 1 else -1, t, snap)
        free(snap)
    refresh_seen(core)
    if columns != NULL:
        if logged_event_count(core) > logged:
            log_stack_event(core, action, kind, t, f, columns)
        free(columns)


# -- captures with cloaked spaces ---------------------------------------------------
# The specification: "If what makes a move illegal is a wall or piece that
# is invisible to the player, then the player can attempt the move [...]";
# "every piece they have attempted to cover"; "If a piece “must capture” and
# at least one opportunity to capture is visible, then no non-capture is
# legal." The mover chooses on its view (so "must capture" forces only
# visible captures), the plain rules judge the action on the true position
# (``captures_unforced`` lets that test ignore the true position's forcing): a
# cover the true rules allow happens (the attacker captures, is captured, or
# both are destroyed), one they refuse is an attempt. The event gets what
# each player saw of the cover (_cloaked_events.pxi).
#
# Under obscurity ("players can fully see all pieces of their assigned
# color(s) and can see the color–but not shape–of all other placed
# pieces") a cover's legality and verdict hang on the defender's shape.
# Decided: the mover may try every cover the true rules could allow for
# some shape of a piece it sees by colour only (its view gives that piece a
# shape with a power, ``stand_in_shape``); the true position judges it (a
# cover it allows happens, else an attempt reveals the piece); "must
# capture" forces only the captures the mover sees: onto a piece it fully
# sees, or by a shape that captures other than by rank (it beats every
# shape).


cdef void begin_cloaked_cover(TTTCore core, int t, int f, int* cover) noexcept:
    """Before a cover on flat target t (from source f, or -1 for a
    placement): who sees the piece on t, and whether t is open."""
    cdef int s
    cover[0] = t
    cover[1] = 0
    for s in range(core.tab.seats):
        if sees_piece(core, s, t):
            cover[1] |= 1 << s
    cover[2] = 0 if cloaked_now(core, t) else 1
    cover[3] = f
    cover[4] = 0
    if core.tab.rlog0:
        memcpy(core.sres_before_cover, core.sres, core.tab.C * core.tab.K * sizeof(int16_t))


cdef int end_cloaked_cover(TTTCore core, int actor, int kind, int* cover) noexcept:
    """After the cover: its verdict (1 the attacker stays and captured, 2
    it was captured, 3 both destroyed) into cover[4], the seen masks (the
    mover fully sees what it attempted to cover; a piece that left or
    died takes its mask with it); returns the cell where the attacker
    stays, or -1."""
    cdef int t = cover[0], f = cover[3], piece = core.cell[t]
    if piece == 0:
        cover[4] = 3
        core.seen[t] = 0
    elif (core.tab.seat_mask[actor] >> (piece - 1)) & 1:
        cover[4] = 1
        if kind == 0:
            core.seen[t] = 1 << actor       # "every piece they placed"
    else:
        cover[4] = 2
        core.seen[t] |= 1 << actor          # "every piece they have attempted to cover"
    if f >= 0 and cover[4] != 1:
        core.seen[f] = 0
    return t if cover[4] == 1 else -1


cdef int obscured_actions(TTTCore core, int seat, int* out) noexcept:
    """The legal actions of ``seat`` under obscurity with captures."""
    cdef Tables tab = core.tab
    cdef TTTCore v = view_of(core, seat)        # every piece kept: all colours are seen
    cdef int c, i, n, m
    cdef bint must, forced = False
    for c in range(tab.S):
        if v.cell[c] and not fully_sees(core, seat, c):
            v.shp[c] = tab.shape_global[tab.stand_in_shape]
    v.captures_unforced = True
    n = shape_seat_actions(v, seat, out)
    v.captures_unforced = False
    if not tab.any_must:
        return n
    for i in range(n):
        if sees_capture(core, seat, out[i], &must) and must:
            forced = True
            break
    if not forced:
        return n
    m = 0
    for i in range(n):
        if sees_capture(core, seat, out[i], &must):
            out[m] = out[i]
            m += 1
    return m


cdef bint sees_capture(TTTCore core, int seat, int action, bint* must) noexcept:
    """Whether ``action`` captures in truth and ``seat`` sees it will:
    the target's piece is fully seen, or the capturing shape captures
    other than by rank (``must`` as ``action_captures``). The
    capturing shape is the one that decides the capture: a cover's is the
    shape that moved (the goal replacement is taken after the cover), a
    surround's the shape that lands, a goal replacement's too
    (it was the moving shape, so a surround the mover
    sees was not forced; docs/rules/ttt/cloaking.md, "Captures with cloaked spaces")."""
    cdef Tables tab = core.tab
    cdef int k, r, f, t
    must[0] = False
    if action >= tab.a_pass_or_end:
        return False
    if action >= tab.nplace and not (tab.nstk and action >= tab.stk0):
        decode_move(core, action, &r, &f, &t)
        k = movable_shape(core, seat, f)
        if k >= 0 and r >= 0 and tab.surrounds and tab.shape_power[tab.replacer[r]] != POWER_NONE \
                and surround_captor(tab.shape_cond[tab.replacer[r]]):
            # each of the goal move's captures, seen by its own capturing shape
            return move_captures(core, seat, action, k, tab.replacer[r], f, t, must, True)
    if not action_captures(core, seat, action, must):
        return False
    if action < tab.nplace:
        k = (action // tab.T) // tab.choices
        t = action % tab.T
    else:
        decode_move(core, action, &r, &f, &t)
        k = movable_shape(core, seat, f)     # (a surrounding goal replacement returned above)
    if capture_class(core, k) == 2:
        return True
    if tab.gravity:
        return sees_every_defender(core, seat, t)
    return fully_sees(core, seat, t)


# -- jumps and surrounds with cloaked spaces ---------------------------------------
# Decided as the cloaked cover was: a player chooses from the position as it
# sees it, and under invisibility a jumping shape may also try a jump over a
# cloaked space that looks empty (the unseen position could hold a piece
# there: ``tries_hidden_jumps`` in its view); the true position judges: a jump or
# surround it allows happens with its true captives, anything else is an
# attempt that only reveals what is on the source, the target and the space
# jumped over. "Must capture" forces only the captures the mover sees (the
# view's own, without the tried jumps). Since a jump or a surround takes
# pieces away from its target, the event gets per cell what was taken and
# who saw it (a snapshot of each cell's piece and watchers around the plain
# rules: snapshot_pieces, then log_captives), not a per-action rule.


cdef inline bint may_hide_piece(TTTCore core, int m) noexcept:
    """Whether target m (flat) may hide a piece from the viewer: cloaked
    now, looking empty, not locked (a piece on a locked space stays)."""
    return (core.cell[m] == 0 and core.tab.ph_cloak[core.phase * core.tab.S + m] != 0
            and not core.tab.locked[m] and not (core.plock != NULL and core.plock[m]))


cdef int jumped_space(TTTCore core, int seat, int f, int t) noexcept:
    """The space a move of the jumping piece on f to t passes over when t
    is two steps away along a line (the space it would jump), or -1."""
    cdef Tables tab = core.tab
    cdef int d, m, k
    if not tab.jumps or tab.gravity or f < 0 or core.cell[f] == 0:
        return -1
    k = tab.shape_local[core.shp[f]]
    if k < 0 or tab.shape_power[k] == POWER_NONE or \
            not jump_captor(tab.shape_cond[k]):
        return -1
    for d in range(26):
        m = tab.tnbr[f * 26 + d]
        if m >= 0 and tab.tnbr[m * 26 + d] == t:
            return m
    return -1


cdef int jumped_in_view(TTTCore core, int seat, int k, int f, int u) noexcept:
    """jumped_target in the seat's own view (a jump over a piece it sees)."""
    cdef TTTCore v = view_of(core, seat)
    return jumped_target(v, seat, k, f, u)


cdef void snapshot_pieces(TTTCore core, int* snap) noexcept:
    """Before a placement or move: per cell its piece (code | global
    shape << 8) and the seats that see it (snap[S + c])."""
    cdef Tables tab = core.tab
    cdef int c, s, m
    for c in range(tab.S):
        snap[c] = 0
        snap[tab.S + c] = 0
        if core.cell[c]:
            snap[c] = core.cell[c] | (core.shp[c] << 8)
            m = 0
            for s in range(tab.seats):
                if sees_piece(core, s, c):
                    m |= 1 << s
            snap[tab.S + c] = m


# -- cloaking inside rounds ---------------------------------------------------------
# Every plan is judged on the true board of the round's start ("a plan
# based on what moves would be legal if that player were first to move"):
# each player plans on its view of the round's start (cloaking's view plus
# its own pending plan); a plan legal in its planner's view but not in truth
# is an attempt, whose "only" effect is to reveal the pieces on its target
# (and source) to the planner; the other plans resolve as in any round.
# Pieces carry their seen masks as they move; each plan is logged when the
# round resolves, with what each player saw of it (the pending plans were
# never shown). With shapes, a plan's source and target are read with the
# shapes layout (a move reaching its goal names a replacement), a moved
# piece carries who saw it, and "every piece they can move" is per shape.


cdef void begin_cloaked_round(TTTCore core) noexcept:
    """Before any plan of the round is applied: find the attempts (and
    reveal what made them illegal), then who sees each moved piece at its
    source, and each target's start-of-round landing cell."""
    cdef Tables tab = core.tab
    cdef int32_t* v = round_region(core)
    cdef int s, o, a, f, t, src, kind, saved = core.seat
    core.round_attempts = 0
    core.round_empty_reserves = 0
    for s in range(tab.C):
        if core.reserve[s] == 0:
            core.round_empty_reserves |= 1 << s          # colours with no reserve left
    for s in range(tab.seats):
        a = v[2 + s]
        core.round_plan[s] = a
        core.round_seen[s] = 1 << s            # a placed piece: "every piece they placed"
        core.round_seen_before[s] = 0
        core.round_landing[s] = -1
        if a < 0 or a == tab.a_pass:
            continue
        kind = plan_source_target(core, a, &f, &t)      # replacement moves too
        if not tab.gravity:
            core.round_landing[s] = t
        elif core.top[t] < tab.Z:
            core.round_landing[s] = t + tab.XY * core.top[t]
        if (tab.cloaking == CLOAK_HIDES or tab.obscured_covers) and judges_own_view(core, s):
            if view_hides_pieces_only(core) and not tab.powers and not tab.line_blocked:
                # a plan legal in the view differs from the truth only by
                # hidden pieces on its target (moves go over pieces)
                if not target_free(core, t):
                    core.round_attempts |= 1 << s
                continue
            core.seat = s                  # the plain rules judge the planner's plan
            if is_attempt(core, a, kind, f):
                core.round_attempts |= 1 << s
    core.seat = saved
    for s in range(tab.seats):             # reveal after judging all: the same start board
        if (core.round_attempts >> s) & 1:
            kind = plan_source_target(core, core.round_plan[s], &f, &t)
            reveal(core, s, t)
            if kind == 1:
                reveal(core, s, f)
                reveal_line(core, s, f, t)
    for s in range(tab.seats):
        a = core.round_plan[s]
        if a < 0 or plan_source_target(core, a, &f, &t) != 1 or (core.round_attempts >> s) & 1:
            continue                       # (a replacement move is a move)
        src = f + tab.XY * (core.top[f] - 1) if tab.gravity else f
        for o in range(tab.seats):
            if sees_piece(core, o, src):
                core.round_seen_before[s] |= 1 << o


cdef inline int plan_source_target(TTTCore core, int a, int* f, int* t) noexcept:
    """A round plan's kind (0 placement, 1 move, 2 pass or none), its
    source target ``f`` (-1 for a placement) and its target ``t``."""
    cdef Tables tab = core.tab
    cdef int r
    f[0] = -1
    t[0] = -1
    if a < 0 or a == tab.a_pass:
        return 2
    if a < tab.nplace:
        t[0] = a - div_targets(tab, a) * tab.T
        return 0
    if tab.shaped:
        decode_move(core, a, &r, f, t)
    else:
        r = a - tab.move0
        f[0] = div_targets(tab, r)
        t[0] = r - f[0] * tab.T
    return 1


cdef void lift_round_seen(TTTCore core, int s, int f) noexcept:
    """Seat s's planned move lifts the top piece of target f: keep its
    seen mask for where it lands (a destroyed piece's is dropped)."""
    cdef int c = f + core.tab.XY * (core.top[f] - 1) if core.tab.gravity else f
    core.round_seen[s] = core.seen[c]
    core.seen[c] = 0


cdef void lift_round_seen_shaped(TTTCore core, int* src) noexcept:
    """Before the shapes path lifts the round's moved pieces (each the
    top piece of its source: by-stack moves are refused with cloaked
    spaces): keep each one's seen mask for where it lands; a piece that
    several plans move is destroyed, and what was seen of it with it."""
    cdef Tables tab = core.tab
    cdef int s, c
    for s in range(tab.seats):
        if src[s] >= 0:
            c = src[s] + tab.XY * core.plan_z0[s] if tab.gravity else src[s]
            core.round_seen[s] = core.seen[c]
    for s in range(tab.seats):
        if src[s] >= 0:
            core.seen[src[s] + tab.XY * core.plan_z0[s] if tab.gravity else src[s]] = 0


cdef void end_cloaked_round(TTTCore core, int* landed) noexcept:
    """After the round's pieces landed: remember what is seen now, and log
    every plan in seat order with what each seat saw of it."""
    cdef int s, first = logged_event_count(core)
    refresh_seen_after_round(core, landed)
    for s in range(core.tab.seats):
        if core.round_plan[s] >= 0:
            log_round_plan(core, s, landed[s])
    if core.tab.round_log0:
        end_round_covers(core, first)        # what the round changed for each seat


cdef void refresh_seen_after_round(TTTCore core, int* landed) noexcept:
    """refresh_seen after a round. On flat boards a round changes who
    can move a colour only when one of its reserves runs out (the phase,
    locks and folds stay), and moves nothing but the planned pieces, so
    unless a reserve ran out in a phase with movement only the landed
    pieces need a look."""
    cdef Tables tab = core.tab
    cdef int s, col, zero = 0
    cdef int movers[MAX_COLOURS]
    if tab.shaped:
        refresh_seen_shaped(core)          # "can move" is per shape
        return
    if tab.gravity:
        refresh_seen(core)
        return
    for col in range(tab.C):
        if core.reserve[col] == 0:
            zero |= 1 << col
    if zero != core.round_empty_reserves and tab.ph_move[core.phase] != MOVE_NONE:
        refresh_seen_flat(core)      # (placement only: nobody can move anything)
        return
    movers_by_colour(core, movers)
    for s in range(tab.seats):
        if landed[s] >= 0:
            refresh_seen_cell(core, landed[s], movers, (1 << tab.seats) - 1)


cdef int random_plan_in_view(TTTCore core, int seat, Rng* rng, int* buf) noexcept:
    """A uniformly random plan of ``seat`` from its view (invisibility),
    for playouts, without building the view on flat boards with one
    colour per seat, by rejection sampling (uniform over the plans, the
    pass included): placements over the targets and the pass, step moves
    over (movable piece, step slot) pairs and the pass; anything else
    (stacks, colour choice, locks, linear moves, too many rejections)
    draws from the built view, which is uniform too."""
    cdef Tables tab = core.tab
    cdef int colour, n = 0, t, r, f, d, u, tries, movable = 0
    cdef int passing = tab.ph_pass[core.phase]
    if (not view_hides_pieces_only(core) or tab.choices != 1 or tab.nboards > 1
            or tab.move == MOVE_LINEAR_KNIGHT or tab.shaped):
        return random_plan(view_of(core, seat), seat, rng, buf)
    colour = tab.colour_of_seat[seat]
    if core.reserve[colour] > 0:          # an identical piece in reserve: placements only
        for tries in range(64):            # rejection over the targets and the pass
            r = rng_below(rng, tab.T + passing)
            if r == tab.T:
                return tab.a_pass
            if looks_free(core, seat, r):
                return r
        for t in range(tab.T):
            if looks_free(core, seat, t):
                buf[n] = t
                n += 1
        if n + passing == 0:
            return random_plan(view_of(core, seat), seat, rng, buf)
        r = rng_below(rng, n + passing)
        return tab.a_pass if r == n else buf[r]
    if tab.ph_move[core.phase] != MOVE_NONE and tab.maxstep > 0:
        for d in range(tab.C):
            if (tab.seat_mask[seat] >> d) & 1 and core.reserve[d] == 0:
                movable |= 1 << (d + 1)
        if core.plock == NULL:             # its movable pieces (it sees them all), branch-free
            for f in range(tab.T):
                buf[n] = f
                n += (movable >> core.cell[f]) & 1
        else:
            for f in range(tab.T):
                if (movable >> core.cell[f]) & 1 and not core.plock[f]:
                    buf[n] = f
                    n += 1
        if n == 0 and passing:
            return tab.a_pass
        n *= tab.maxstep                   # (piece, step slot) pairs, then the pass
        for tries in range(32):
            r = rng_below(rng, n + passing)
            if r == n:
                return tab.a_pass
            f = step_slot(tab, r)
            d = r - f * tab.maxstep
            f = buf[f]
            if d >= tab.nsstep[f]:
                continue
            u = tab.sstep[f * 26 + d]
            if looks_free(core, seat, u):
                return tab.move0 + f * tab.T + u
    return random_plan(view_of(core, seat), seat, rng, buf)

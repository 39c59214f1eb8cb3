# Simultaneous and single rounds: plans, their resolution, collisions, and
# the fast plan draws of random playouts. Included by _engine.pyx;
# functions take the core (or the tables) first. Rules:
# docs/rules/ttt/rounds.md ("Readings of a round", "Moving shapes inside
# rounds", "By-stack covers inside rounds", "Goals reached inside rounds") (captures, jumps,
# surrounds, pots and cloaking inside rounds live with their concepts).
#
# A simultaneous (or single) phase is played in rounds. The board stays as
# it was at the start of the round while every seat that plays in the
# phase registers a plan, one after another in seat order (Chaos last, as
# a chance node); each plan is a ply that would be legal if that seat moved
# first. After the last plan, resolve_round applies them all at once. So
# the core keeps one hidden decision per call (search sees plain
# consecutive decisions); the OpenSpiel face shows the round as one
# SIMULTANEOUS node (simultaneous_players / player_legal_actions); the
# per-player views hide every pending plan but the viewer's own.
#
# The round region of a position block is appended after the reserves, only
# for rule sets with a simultaneous or single phase, and read as int32 (it
# starts at an even int16 offset of a malloc'd block, so it is aligned):
# [0] history index at which the open round began (-1: no round open), [1]
# decisions recorded, [2..2+MAX_SEATS) each seat's pending plan (-1: none),
# then the history of every decision (seat << 20 | action), which the
# per-player information states read. With two pieces a turn planned
# together (docs/rules/ttt/rounds.md, "Two pieces a turn") the planned pair's
# region follows (int32 from tab.pair0): each seat's first ply (-1: none),
# the stage (PAIR_*), the seats that plan a second ply, the second plies
# lost to the first round, and each seat's second ply while the pair
# resolves.

from libc.stdlib cimport malloc, free
from libc.stdint cimport int16_t, int32_t, uint8_t, uint64_t
from games.rng cimport Rng, mix64, rng_below
from games.ttt.codes cimport (
    EFFECT_ALL_LOSE, MOVE_NONE, END_NONE, END_CHECK, END_MOVE_LIMIT, ORDER_SINGLE, CLOAK_HIDES,
    RESULT_CONVERTS)


cdef enum:
    PAIR_FIRST = 0        # the stage: no pair open, or its first plies being planned
    PAIR_SECOND = 1       # the second plies being planned
    PAIR_ROUND1 = 2       # the first plies resolving (the second plies due)
    PAIR_ROUND2 = 3       # the second plies resolving
    PAIR_STAGE = MAX_SEATS            # offsets from tab.pair0
    PAIR_MASK = MAX_SEATS + 1
    PAIR_LOST = MAX_SEATS + 2
    PAIR_SECONDS = MAX_SEATS + 3
    PAIR_SIZE = 2 * MAX_SEATS + 3


cdef int round_layout(Tables tab, dict p):
    tab.sim = p.get("simultaneous", False)
    if not tab.sim:
        return 0
    tab.hist_cap = p["max_game_length"]
    tab.planned = p.get("round_plies_planned", False)
    tab.pair0 = 2 + MAX_SEATS + tab.hist_cap
    tab.sstep = <int16_t*>malloc(tab.T * 26 * sizeof(int16_t))
    tab.nsstep = <uint8_t*>malloc(tab.T)
    if not (tab.sstep and tab.nsstep):
        raise MemoryError()
    cdef int t, d, k
    for t in range(tab.T):
        k = 0
        for d in range(26):
            if tab.step[t * 26 + d] >= 0:
                tab.sstep[t * 26 + k] = tab.step[t * 26 + d]
                k += 1
        tab.nsstep[t] = k
        tab.maxstep = max(tab.maxstep, k)
    if tab.maxstep > 0:
        tab.maxstep_inv = (<uint64_t>1 << 32) // <uint64_t>tab.maxstep + 1
    tab.sim0 = tab.block                 # after the reserves (and the boards' state)
    tab.sim0 += tab.sim0 & 1
    return (tab.sim0 - tab.block) + 2 * (2 + MAX_SEATS + tab.hist_cap + (PAIR_SIZE if tab.planned else 0))


cdef void round_init_block(Tables tab) noexcept:
    cdef int32_t* v = <int32_t*>(tab.init + tab.sim0)
    cdef int s
    v[0] = -1
    v[1] = 0
    for s in range(MAX_SEATS):
        v[2 + s] = -1
    if tab.planned:
        for s in range(PAIR_SIZE):
            v[tab.pair0 + s] = -1
        v[tab.pair0 + PAIR_STAGE] = PAIR_FIRST
        v[tab.pair0 + PAIR_MASK] = 0
        v[tab.pair0 + PAIR_LOST] = 0


cdef inline int div_targets(Tables tab, int a) noexcept:
    """``a // T`` by a multiply, for decoding a round's plans (exact for
    0 <= a and a * T < 2**32, as step_slot says; action ids are far below)."""
    return <int>((<uint64_t>a * tab.t_inv) >> 32)


cdef inline int step_slot(Tables tab, int r) noexcept:
    """``r // maxstep`` by a multiply (the playouts' rejection draws
    divide every try). Exact for 0 <= r and r * maxstep < 2**32: with
    inv = 2**32 // m + 1 = (2**32 + e) / m, 0 < e <= m, r * inv / 2**32
    exceeds r / m by r * e / (m * 2**32) < 1 / m, which never reaches the
    next multiple of 1 / m above r / m. Rejection draws take r below
    T * maxstep + 1, far inside that range."""
    return <int>((<uint64_t>r * tab.maxstep_inv) >> 32)


cdef inline int32_t* round_region(TTTCore core) noexcept:
    return <int32_t*>(core.mem + core.tab.sim0)


cdef inline bint in_round(TTTCore core) noexcept:
    return round_region(core)[0] >= 0 and core.end == END_NONE


cdef void start_round(TTTCore core) noexcept:
    """Open a round: stalemate (which advances the phase) when nobody
    plays, or, without the pass option, when a seat that plays has no
    legal ply (as the seat to move would in a sequential phase). ``left``
    (set by the phase or the round before) counts the rounds left in the
    turn: with two pieces a turn, a turn is two rounds (docs/rules/ttt/rounds.md,
    "Two pieces a turn")."""
    cdef Tables tab = core.tab
    cdef int32_t* v = round_region(core)
    cdef int s, first = -1
    for s in range(tab.seats):
        if not plays(core, s):
            continue
        if first < 0:
            first = s
        core.seat = s      # destination_ok judges entry locks for the seat to move
        if not tab.ph_pass[core.phase] and not has_move(core, s):
            reach_stalemate(core)
            return
    if first < 0:
        reach_stalemate(core)
        return
    for s in range(MAX_SEATS):
        v[2 + s] = -1
    v[0] = v[1]
    core.seat = first
    core.passes = 0
    core.offered = False


cdef bint register_decision(TTTCore core, int action) noexcept:
    """Record the decision in the history; inside a round register it as
    the deciding seat's plan (True) and resolve after the last one."""
    cdef Tables tab = core.tab
    cdef int32_t* v = round_region(core)
    cdef int s, who = core.answerer if core.offer_by >= 0 else core.seat
    record_decision(core, who, action)
    if v[0] < 0:
        return False
    v[2 + core.seat] = action
    for s in range(core.seat + 1, tab.seats):
        if plans_now(core, s):
            core.seat = s
            return True
    if tab.planned and v[tab.pair0 + PAIR_STAGE] == PAIR_FIRST:
        open_second_plies(core)
    elif tab.planned:
        resolve_planned_pair(core)
    else:
        resolve_round(core)
    return True


# -- two pieces a turn planned together ----------------------------------------------
# (docs/rules/ttt/rounds.md, "Two pieces a turn"). A turn opens as a round:
# every seat that plays picks its first ply on the round's starting board;
# then every seat that has one picks its second ply, legal on the starting
# board as its own first ply alone leaves it (second_ply_actions: a scratch
# copy resolves that ply alone); nobody sees another seat's plies until the
# pair resolves (the round stays open: visible_decision). Then the first
# plies resolve as one round and the second plies as another; a second ply
# no longer legal for its seat on the board the first round left is lost
# (a ply that moves nothing). No second plies are planned when the first
# plies reach the move limit.


cdef inline bint second_plies_open(TTTCore core) noexcept:
    return (core.tab.planned and in_round(core)
            and round_region(core)[core.tab.pair0 + PAIR_STAGE] == PAIR_SECOND)


cdef inline bint plans_now(TTTCore core, int s) noexcept:
    """Whether seat s plans in the open round's current decisions."""
    if not plays(core, s):
        return False
    if not second_plies_open(core):
        return True
    return (round_region(core)[core.tab.pair0 + PAIR_MASK] >> s) & 1


cdef int second_ply_actions(TTTCore core, int s, int* out) noexcept:
    """Seat s's legal second plies: its legal plies on the round's starting
    board as its own first ply, resolved alone, leaves it."""
    cdef TTTCore w = <TTTCore>core.copy()
    cdef int32_t* v = round_region(w)
    cdef int o
    for o in range(MAX_SEATS):
        v[2 + o] = -1
    v[2 + s] = v[w.tab.pair0 + s]
    w.solo = True
    resolve_round(w)
    w.seat = s            # destination_ok judges entry locks for the seat to move
    return seat_actions(w, s, out)


cdef int round_seat_actions(TTTCore core, int s, int* out) noexcept:
    """Seat s's legal plans in the open round (its second plies while they are planned)."""
    if second_plies_open(core):
        return second_ply_actions(core, s, out)
    return seat_actions(core, s, out)


cdef bint round_plan_listed(TTTCore core, int s, int action) noexcept:
    cdef int* buf = <int*>malloc(core.tab.num_actions * sizeof(int))
    cdef int i, n
    cdef bint found = False
    if buf == NULL:
        return False
    n = round_seat_actions(core, s, buf)
    for i in range(n):
        if buf[i] == action:
            found = True
            break
    free(buf)
    return found


cdef void open_second_plies(TTTCore core) noexcept:
    """Every first ply is in: keep them, and open the second plies of the
    seats that have one (none when the first plies reach the move limit)."""
    cdef Tables tab = core.tab
    cdef int32_t* v = round_region(core)
    cdef int s, n1 = 0, mask = 0, first = -1
    cdef int* buf = <int*>malloc(tab.num_actions * sizeof(int))
    for s in range(MAX_SEATS):
        v[tab.pair0 + s] = v[2 + s]
        if v[2 + s] >= 0:
            n1 += 1
        v[2 + s] = -1
    v[tab.pair0 + PAIR_STAGE] = PAIR_SECOND
    core.left = 1
    if buf != NULL and not (tab.move_limit and core.plies + n1 >= tab.move_limit):
        for s in range(tab.seats):
            if v[tab.pair0 + s] >= 0 and second_ply_actions(core, s, buf) > 0:
                mask |= 1 << s
                if first < 0:
                    first = s
    free(buf)
    v[tab.pair0 + PAIR_MASK] = mask
    if first < 0:
        resolve_planned_pair(core)
        return
    core.seat = first


cdef void resolve_planned_pair(TTTCore core) noexcept:
    """Both plies of every plan are in: the first plies resolve as a round
    (end_round then resolves the second plies, resolve_second_plies)."""
    cdef Tables tab = core.tab
    cdef int32_t* v = round_region(core)
    cdef int s
    for s in range(MAX_SEATS):
        v[tab.pair0 + PAIR_SECONDS + s] = v[2 + s]
        v[2 + s] = v[tab.pair0 + s]
        v[tab.pair0 + s] = -1
    v[tab.pair0 + PAIR_MASK] = 0
    v[tab.pair0 + PAIR_STAGE] = PAIR_ROUND1
    resolve_round(core)


cdef bint second_plies_pass(TTTCore core) noexcept:
    """Whether every planned second ply is a pass (or there is none)."""
    cdef int32_t* v = round_region(core)
    cdef int s, a
    for s in range(core.tab.seats):
        a = v[core.tab.pair0 + PAIR_SECONDS + s]
        if a >= 0 and a != core.tab.a_pass:
            return False
    return True


cdef bint drop_second_plies(TTTCore core) noexcept:
    """The turn ends after its first plies: the second plies are not played,
    and count as plies (every ply of a plan is one); when they reach the
    move limit it ends the game (True), as passes reaching it do."""
    cdef int32_t* v = round_region(core)
    cdef int s
    for s in range(core.tab.seats):
        if v[core.tab.pair0 + PAIR_SECONDS + s] >= 0:
            core.plies += 1
        v[core.tab.pair0 + PAIR_SECONDS + s] = -1
    if core.tab.move_limit and core.plies >= core.tab.move_limit:
        finish_stalemate(core, END_MOVE_LIMIT)
        return True
    return False


cdef bint resolve_second_plies(TTTCore core) noexcept:
    """The second plies resolve as a round; a second ply no longer legal for
    its seat on the board the first round left is lost (it counts as a ply and
    moves nothing). False when there is none."""
    cdef Tables tab = core.tab
    cdef int32_t* v = round_region(core)
    cdef int s, a, lost = 0, n = 0
    for s in range(tab.seats):
        a = v[tab.pair0 + PAIR_SECONDS + s]
        v[tab.pair0 + PAIR_SECONDS + s] = -1
        v[2 + s] = a
        if a < 0:
            continue
        n += 1
        core.seat = s
        if a != tab.a_pass and not round_plan_listed(core, s, a):
            lost |= 1 << s
    if not n:
        return False
    v[tab.pair0 + PAIR_LOST] = lost
    v[tab.pair0 + PAIR_STAGE] = PAIR_ROUND2
    resolve_round(core)
    return True


cdef inline void record_decision(TTTCore core, int who, int action) noexcept:
    cdef int32_t* v = round_region(core)
    if v[1] < core.tab.hist_cap:
        v[2 + MAX_SEATS + v[1]] = (who << 20) | action
        v[1] += 1


cdef uint64_t pending_plans_hash(TTTCore core) noexcept:
    cdef int32_t* v = round_region(core)
    cdef uint64_t h = 0
    cdef int s
    for s in range(core.tab.seats):
        if v[2 + s] >= 0:
            h ^= mix64(<uint64_t>0x51A1 + <uint64_t>(s + 1) * <uint64_t>0x100000001B3ULL
                       + <uint64_t>v[2 + s] * <uint64_t>0x9E3779B97F4A7C15ULL)
        if core.tab.planned and v[core.tab.pair0 + s] >= 0:         # a first ply kept
            h ^= mix64(<uint64_t>0x9A17 + <uint64_t>(s + 1) * <uint64_t>0x100000001B3ULL
                       + <uint64_t>v[core.tab.pair0 + s] * <uint64_t>0x9E3779B97F4A7C15ULL)
    return h


cdef int visible_decision(TTTCore core, int player, int i) noexcept:
    """History entry i as ``player`` sees it: the action, or -1 when it is
    another seat's plan in the round still open."""
    cdef int32_t* v = round_region(core)
    cdef int e = v[2 + MAX_SEATS + i]
    if v[0] >= 0 and i >= v[0] and (e >> 20) != player:
        return -1
    return e & 0xFFFFF


# -- resolving a round -------------------------------------------------------------


cdef void resolve_round(TTTCore core) noexcept:
    """Apply every plan at once (docs/rules/ttt/rounds.md, "Readings of a round"):
    placements spend their reserve piece; a piece that several plans move
    is destroyed and none of those moves happens; every moved piece is
    lifted first; then each target that exactly one plan sends a piece to
    receives it, and all pieces sent to a target by several plans are
    destroyed. Turn checks then look at every piece that landed."""
    cdef Tables tab = core.tab
    cdef int32_t* v = round_region(core)
    cdef int s, o, a, q, n, i, d, run, winner, mask, first, effect, nplans = 0, goals = 0
    cdef bint allpass = True, decided
    cdef int src[MAX_SEATS]
    cdef int dst[MAX_SEATS]
    cdef int piece[MAX_SEATS]
    cdef int landed[MAX_SEATS]
    cdef int best[MAX_SEATS]
    cdef int best_axis[MAX_SEATS]
    cdef int group[MAX_SEATS]
    cdef int carried[MAX_SEATS * CP_MAX_STACK]     # lifted pieces, bottom first
    cdef int cshape[MAX_SEATS * CP_MAX_STACK]      # and their shapes (locals: cores stay small)
    cdef int jumped[MAX_SEATS]                     # the target each jump plan passes over
    cdef int source[MAX_SEATS]                     # each move plan's source target (approaches)
    if core.seen != NULL and tab.round_log0:
        begin_round_covers(core)         # each seat's view before the round (covers)
    if core.seen != NULL:
        begin_cloaked_round(core)        # attempts only reveal
    v[0] = -1
    for s in range(tab.seats):
        src[s] = -1
        dst[s] = -1
        piece[s] = 0
        landed[s] = -1
        core.plan_lifted[s] = 0                       # no move of this seat yet
        core.plan_by_stack[s] = False
        core.plan_replacement[s] = -1
        a = v[2 + s]
        v[2 + s] = -1
        if a < 0:
            continue
        nplans += 1
        if a == tab.a_pass:
            continue
        allpass = False
        if core.seen != NULL and (core.round_attempts >> s) & 1:
            continue                   # an attempt: a ply, nothing else
        if tab.planned and (v[tab.pair0 + PAIR_LOST] >> s) & 1:
            continue                   # a second ply the first round made impossible
        if a < tab.nplace and tab.shaped:      # a placement names a shape
            core.plan_shape[s] = (a // tab.T) // tab.choices
            piece[s] = (((a // tab.T) % tab.choices) if tab.choices > 1 else tab.colour_of_seat[s]) + 1
            core.reserve[piece[s] - 1] -= 1
            core.sres[(piece[s] - 1) * tab.K + core.plan_shape[s]] -= 1
            dst[s] = a % tab.T
        elif a < tab.nplace:
            q = div_targets(tab, a)                  # (a // T: its colour choice)
            piece[s] = (q if tab.choices > 1 else tab.colour_of_seat[s]) + 1
            core.reserve[piece[s] - 1] -= 1
            dst[s] = a - q * tab.T
        elif tab.shaped:
            decode_round_move(core, s, a, src, dst)      # a shape's move
            core.moves += 1
            if tab.goal_check and goal_rows(core, s, src[s]) > 0 and goal_rows(core, s, dst[s]) == 0:
                goals |= 1 << s                # the plan reaches its goal (if it stays)
        else:
            src[s] = div_targets(tab, a - tab.move0)
            dst[s] = a - tab.move0 - src[s] * tab.T
            core.moves += 1
    if tab.planned:
        v[tab.pair0 + PAIR_LOST] = 0
    for s in range(tab.seats):
        source[s] = src[s]
    # a shared reserve that the plans overdraw: the pieces they contest are
    # destroyed (the reserve is emptied) and none of those placements happens
    if tab.shaped:
        void_overdrawn_shapes(core, src, dst, piece)
    for s in range(tab.seats):
        if piece[s] and src[s] < 0 and core.reserve[piece[s] - 1] < 0:
            for o in range(tab.seats):
                if o != s and src[o] < 0 and piece[o] == piece[s]:
                    dst[o] = -1
            core.reserve[piece[s] - 1] = 0
            dst[s] = -1
        elif piece[s] and src[s] < 0 and dst[s] >= 0:
            core.placements += 1
    # lift every moved piece; one that several plans move is destroyed
    if tab.jumps:
        plan_round_jumps(core, src, dst, jumped)      # before the lifts clear src
    if tab.shaped:
        if core.seen != NULL:
            lift_round_seen_shaped(core, src)            # the moved piece takes its seen mask
        lift_round_shapes(core, src, dst, piece, carried, cshape)
    for s in range(tab.seats):
        if src[s] < 0:
            continue
        n = 0
        for o in range(s + 1, tab.seats):
            if src[o] == src[s]:
                src[o] = -1
                dst[o] = -1
                n += 1
        if core.seen != NULL:
            lift_round_seen(core, s, src[s])    # the piece takes its seen mask along
        a = lift_top_piece(core, src[s])
        src[s] = -1
        if n:
            dst[s] = -1
        else:
            piece[s] = a
    if tab.jumps:
        take_round_jumped(core, jumped, piece)        # after every lift, before any landing
    # land; collisions destroy unless a by-rank rule resolves them
    for s in range(tab.seats):
        if dst[s] < 0:
            continue
        n = 0
        for o in range(s, tab.seats):
            if dst[o] == dst[s]:
                group[n] = o
                n += 1
        if n == 1:
            winner = s
        elif tab.nstk and tab.powers:          # by-stack colliders rank by their hands
            winner = stack_collision_winner(core, dst[s], group, n, piece, carried, cshape)
        else:
            winner = collision_winner(core, dst[s], group, n)
        for i in range(n):
            o = group[i]
            if o == winner and tab.shaped and core.plan_by_stack[o] and core.plan_lifted[o] and tab.powers:
                landed[o] = round_stack_cover(core, o, dst[o], carried, cshape, group, n)
                if landed[o] == CP_PAUSED:
                    queue_round_pot(core)
                    landed[o] = -1
            elif o == winner and tab.shaped and core.plan_by_stack[o] and core.plan_lifted[o]:
                landed[o] = land_carried(core, o, dst[o], carried, cshape)   # by stack
            elif o == winner and tab.shaped:     # shapes, covers, won captives
                landed[o] = land_round_shape(core, o, dst[o], piece[o], group, n)
                if landed[o] >= 0 and core.plan_replacement[o] >= 0:
                    replace_shape(core, landed[o], core.plan_replacement[o])   # goal reached
                if core.seen != NULL and landed[o] >= 0:
                    core.seen[landed[o]] = core.round_seen[o]
                if landed[o] == CP_PAUSED:
                    queue_round_pot(core)          # dealt after the joint action
                    landed[o] = -1
            elif o == winner:
                landed[o] = land(core, dst[o], piece[o])
                if core.seen != NULL:
                    core.seen[landed[o]] = core.round_seen[o]
            if o != s:
                dst[o] = -1
        dst[s] = -1
    if tab.surrounds:
        round_surrounds(core, landed, source)    # judged once every plan has landed
    if core.solo:
        return                                   # a first ply alone: the board its second ply sees
    core.goal_hit = False
    for s in range(tab.seats):                 # "Stalemate if goal is reached"
        if (goals >> s) & 1 and landed[s] >= 0:
            core.goal_hit = True
    if tab.pots and core.mem[tab.pot0 + POTQ_N]:
        pause_round_for_pots(core, landed, allpass, nplans)
        return
    end_round(core, landed, allpass, nplans, core.plan_lifted if tab.nstk else NULL)


cdef void end_round(TTTCore core, int* landed, bint allpass, int nplans, int* nland) noexcept:
    """The end of a round once its pieces landed (and its pots were
    dealt): turn checks over every landed piece, the move limit, then the
    next round or, after all passes or a single phase's one round, the
    stalemate that advances the phase. ``nland`` (or NULL): how many
    pieces each seat's by-stack move landed above its landed cell."""
    cdef Tables tab = core.tab
    cdef int s, i, d, run, mask, first, effect, j, cc, col
    cdef bint decided, goal = core.goal_hit
    cdef int best[MAX_SEATS]
    cdef int best_axis[MAX_SEATS]
    cdef int32_t* v = round_region(core)
    cdef int stage = v[tab.pair0 + PAIR_STAGE] if tab.planned else PAIR_FIRST
    if tab.planned:
        v[tab.pair0 + PAIR_STAGE] = PAIR_FIRST
    core.goal_hit = False                      # read below, after the turn checks
    if core.seen != NULL and (tab.nboards == 1 or not tab.nchecks):
        end_cloaked_round(core, landed)    # what each player saw of the round
    core.plies += nplans
    core.passes = 0
    # turn checks over every landed piece: the first check that holds for
    # any of them decides; when it holds for several sides at once no side
    # was first, and the game is drawn (all-lose checks still make all lose)
    if tab.nchecks:
        for s in range(tab.seats):
            best[s] = 0
            best_axis[s] = 0
            if landed[s] < 0:
                continue
            best[s] = 1                  # a landed piece is a run of 1 along every line
            best_axis[s] = 1             # (the lines too short for any check are skipped: crun)
            if not tab.shaped and core.cell[landed[s]] > 0:
                col = core.cell[landed[s]] - 1     # too few of its colour yet (line_tables)
                if tab.init_count[col] + tab.reserve0[col] - core.reserve[col] < tab.min_check_k:
                    continue
            for j in range(nland[s] if nland != NULL and nland[s] > 1 else 1):
                cc = landed[s] + tab.XY * j          # every carried piece's lines
                for i in range(tab.ncrun[cc]):
                    d = tab.crun[cc * 13 + i]
                    run = run_length(core, cc, d, core.cell[cc])
                    if run > best[s]:
                        best[s] = run
                    if tab.is_axis[d] and run > best_axis[s]:
                        best_axis[s] = run
        if tab.nboards > 1:
            decided = decide_boards_after_round(core, landed, best, best_axis)
            if core.seen != NULL:
                # what the round showed, after the boards it
                # decided locked (as a turn's refresh follows its board's lock)
                end_cloaked_round(core, landed)
            if decided:
                return                       # every board decided
        for i in range(tab.nchecks if tab.nboards == 1 else 0):   # per board above
            mask = 0
            first = -1
            for s in range(tab.seats):
                if landed[s] >= 0 and (best[s] if tab.check_diag[i] else best_axis[s]) >= tab.check_k[i]:
                    mask |= 1 << tab.side[s]
                    if first < 0:
                        first = s
            if mask:
                effect = tab.check_effect[i]
                if tab.overachievers:      # the round's winners are one set
                    if round_overachievers(core, effect, mask):
                        return
                    break
                if effect == EFFECT_ALL_LOSE or (mask & (mask - 1)) == 0:
                    finish_check(core, effect, first)
                else:
                    finish_draw(core, END_CHECK)
                return
    if tab.last_pentagon and tab.nboards == 1 and last_pentagon_check(core):
        return                       # "Last pentagon wins": once, after the round resolved
    if tab.move_limit and core.plies >= tab.move_limit:
        finish_stalemate(core, END_MOVE_LIMIT)
        return
    if tab.move_limit and goal:                # a plan's piece reached its goal and stayed (after
        if stage == PAIR_ROUND1 and drop_second_plies(core):   # the limit: a round past it would
            return                                                # pass max_game_length)
        reach_stalemate(core)
        return
    if stage == PAIR_ROUND1:      # planned together: the turn passes only if every ply passes
        if allpass and second_plies_pass(core):
            if not drop_second_plies(core):
                reach_stalemate(core)
            return
        if resolve_second_plies(core):
            return
        allpass = False
    elif stage == PAIR_ROUND2:
        allpass = False
    if allpass or (tab.ph_order[core.phase] == ORDER_SINGLE and core.left <= 1):
        reach_stalemate(core)
        return
    core.left = core.left - 1 if core.left > 1 else tab.ppt    # a turn of two pieces: two rounds
    start_round(core)


cdef int lift_top_piece(TTTCore core, int f) noexcept:
    """Take the top piece off target f (as move_piece does) and return it."""
    cdef Tables tab = core.tab
    cdef int src = lift_source(core, f), piece
    piece = core.cell[src]
    core.cell[src] = 0
    core.board_hash ^= tab.zob[src * (tab.C + 1) + piece]
    return piece


cdef void void_overdrawn_shapes(TTTCore core, int* src, int* dst, int* piece) noexcept:
    """A shared colour's per-shape reserve that the round's
    placements overdraw: as for the colour's reserve, the pieces they
    contest are destroyed (that shape's reserve is emptied) and none of
    those placements happens."""
    cdef Tables tab = core.tab
    cdef int s, o, i
    for s in range(tab.seats):
        if not piece[s] or src[s] >= 0 or dst[s] < 0:
            continue
        i = (piece[s] - 1) * tab.K + core.plan_shape[s]
        if core.sres[i] >= 0:
            continue
        for o in range(tab.seats):
            if piece[o] == piece[s] and src[o] < 0 and core.plan_shape[o] == core.plan_shape[s]:
                dst[o] = -1
                piece[o] = 0
        core.reserve[piece[s] - 1 if piece[s] else (i // tab.K)] -= core.sres[i]
        core.sres[i] = 0


cdef int land_round_shape(TTTCore core, int s, int t, int piece, int* seats, int n) noexcept:
    """The piece of seat s (shape ``plan_shape[s]``) that a
    round sends to target t lands, as a cover when it arrives on other
    colours' pieces; then the pieces of the other colliders ``seats[0..n)``
    it won are its captives: reincarnated into its reserve, or, converted,
    landing on top in its colour while the stack has room (removed
    otherwise and when its result removes). Returns the cell of its piece
    or -1 (no turn check)."""
    cdef Tables tab = core.tab
    cdef int k = core.plan_shape[s], c, i, o, res, cc
    if core.seen != NULL:
        core.cover_seen = core.round_seen[s]     # cloaking: the piece's seen mask (cover_stack)
    c = arrive(core, s, t, piece, k) if tab.powers else -2
    if c == -2:
        c = land(core, t, piece)
        set_shape(core, c, tab.shape_global[k])
    elif core.seen != NULL:
        round_cover_seen(core, s, t, c)          # a cloaked cover (_cloaked_round_covers.pxi)
    for i in range(n):
        o = seats[i]
        if o == s:
            continue
        res = take_captive(core, piece, k, core.plan_shape[o])
        if res == RESULT_CONVERTS and tab.gravity and target_free(core, t):
            cc = land(core, t, piece)
            set_shape(core, cc, tab.shape_global[core.plan_shape[o]])
            if core.seen != NULL:
                core.seen[cc] = 1 << s           # cloaking: its captor's planner saw it converted
    return c


# -- moving shapes inside rounds ---------------------------------------------------
# A plan names a piece and its move, as a sequential ply's action id does
# (plain, with a goal replacement, or by stack), and is legal on the round's
# starting board. When the round resolves, every moved piece is lifted
# before any lands (lift_round_shapes: a by-stack move lifts its mover and
# every piece above it; plans that lift from the same stack all lift its top
# piece, so none of them moves and the pieces any two of them would lift are
# destroyed, the pieces below staying). Then each target that exactly one
# plan sends pieces to receives them (a plain move's piece covers as a
# placement does and takes its replacement shape if it stays; a carried
# stack lands in order, as a sequential by-stack move: no cover); several
# plans to one target collide (by rank, else all pieces sent there
# destroyed). A round's goal-reached stalemate is judged once every plan has
# landed, after its turn checks and move limit (end_round).


cdef void decode_round_move(TTTCore core, int s, int a, int* src, int* dst) noexcept:
    """Seat s's move plan ``a``: its source target, destination, the lowest
    height it lifts, the moving piece's shape (``plan_shape``, for covers
    and collisions) and its replacement."""
    cdef Tables tab = core.tab
    cdef int r = -1, f, u, c, a2
    core.plan_lifted[s] = 0
    if tab.nstk and a >= tab.stk0:
        a2 = a - tab.stk0
        u = a2 % tab.T
        c = (a2 // tab.T) % tab.S
        r = a2 // (tab.T * tab.S) - 1
        f = c % tab.XY
        core.plan_by_stack[s] = True
        core.plan_z0[s] = c // tab.XY
    else:
        decode_move(core, a, &r, &f, &u)
        core.plan_by_stack[s] = False
        core.plan_z0[s] = core.top[f] - 1 if tab.gravity else 0
        c = f + tab.XY * core.plan_z0[s]
    core.plan_shape[s] = tab.shape_local[core.shp[c]]
    core.plan_replacement[s] = tab.replacer[r] if r >= 0 else -1
    src[s] = f
    dst[s] = u


cdef void lift_round_shapes(TTTCore core, int* src, int* dst, int* piece, int* carried, int* cshape) noexcept:
    """Lift every move plan's pieces (bottom first into carried/cshape,
    CP_MAX_STACK entries per seat);
    plans lifting from one stack move nothing and the pieces from the
    highest of their lowest heights up are destroyed. Clears src."""
    cdef Tables tab = core.tab
    cdef int s, o, f, z, zmax, n, c, top
    for s in range(tab.seats):
        if src[s] < 0:
            continue
        f = src[s]
        zmax = core.plan_z0[s]
        n = 0
        for o in range(s + 1, tab.seats):
            if src[o] == f:
                zmax = max(zmax, core.plan_z0[o])
                src[o] = -1
                dst[o] = -1
                n += 1
        src[s] = -1
        if n:
            dst[s] = -1
            zmax = zmax if tab.gravity else 0
        else:
            zmax = core.plan_z0[s]
        top = core.top[f] if tab.gravity else 1
        for z in range(zmax, top):
            c = f + tab.XY * z
            if not n:
                carried[s * CP_MAX_STACK + z - zmax] = core.cell[c]
                cshape[s * CP_MAX_STACK + z - zmax] = core.shp[c]
            clear_cell(core, c)
        if not n:
            core.plan_lifted[s] = top - zmax
            piece[s] = carried[s * CP_MAX_STACK]
        if tab.gravity:
            core.top[f] = zmax
            refresh_free(core, f)
        else:
            free_add(core, f)


cdef int land_carried(TTTCore core, int s, int u, int* carried, int* cshape) noexcept:
    """Land seat s's lifted stack on target u in order (its mover first,
    in its replacement shape if it reached its goal); returns the cell of
    the mover."""
    cdef Tables tab = core.tab
    cdef int j, c, base = -1, shape
    for j in range(core.plan_lifted[s]):
        c = land(core, u, carried[s * CP_MAX_STACK + j])
        shape = cshape[s * CP_MAX_STACK + j]
        if j == 0:
            base = c
            if core.plan_replacement[s] >= 0:
                shape = tab.shape_global[core.plan_replacement[s]]
        set_shape(core, c, shape)
    return base


# -- by-stack covers inside rounds --------------------------------------------------
# A by-stack plan that alone sends its pieces to a stack lands them in order
# and then covers the stack's pieces exactly as a sequential by-stack move
# does (stack_mover_cover: classes, the poker hands of by-rank pieces, the
# pot), so the by-stack cover has one implementation for turns and rounds;
# the mover takes its replacement only if it stays. A collision with a
# by-stack plan in it is resolved by rank (powerless colliders rank lowest):
# class first, then, between by-rank colliders, their players' hands in the
# destination stack holding every collider's pieces
# (stack_collision_winner). The winner lands and covers as above, then
# captures the losing movers under its result; the pieces a losing plan
# carried are destroyed with the collision; the pot queue keeps each seat's
# landed count.


cdef int round_stack_cover(TTTCore core, int s, int u, int* carried, int* cshape, int* seats,
                           int n) noexcept:
    """Seat s's by-stack plan lands on stack u (its mover in the shape it
    moved with) and covers the stack as a sequential by-stack move
    (``stack_mover_cover``); then the other colliders ``seats[0..n)`` it won
    are its captives (``take_captive``: reincarnated, or converted onto the
    stack while it has room). Returns the mover's cell, -1, or CP_PAUSED.
    When the mover goes to the pot showdown (``showdown_applies``)
    its captives are taken first, so the showdown (and a deal a chance
    node makes after the round) sees the stack with them, the one stack
    the collision's hands were taken in; the turn checks read the pieces
    from the mover up that the showdown left (``showdown_carried``)."""
    cdef Tables tab = core.tab
    cdef int j, c, i, o, res, base = core.top[u], k = core.plan_shape[s]
    cdef int mover = carried[s * CP_MAX_STACK]
    cdef bint show
    for j in range(core.plan_lifted[s]):
        c = land(core, u, carried[s * CP_MAX_STACK + j])
        set_shape(core, c, cshape[s * CP_MAX_STACK + j])
    core.hand_stack = u
    core.hand_below = base
    show = showdown_applies(core, s, u, k)
    core.hand_stack = -1
    core.hand_below = -1
    if show:
        take_collision_losers(core, s, u, mover, k, seats, n)
    core.showdown_carried = -1
    c = stack_mover_cover(core, s, u, base, mover, k)
    if show and core.showdown_carried >= 0:
        core.plan_lifted[s] = core.showdown_carried        # what the showdown left from the mover up
    core.showdown_carried = -1                      # (read by a sequential ply's turn checks otherwise)
    if c >= 0 and core.plan_replacement[s] >= 0:
        replace_shape(core, c, core.plan_replacement[s])
    if not show:
        take_collision_losers(core, s, u, mover, k, seats, n)
    return c


cdef void take_collision_losers(TTTCore core, int s, int u, int mover, int k, int* seats, int n) noexcept:
    """The winner s (its mover's code and local shape k) captures the other
    colliders ``seats[0..n)`` by its result: reincarnated, or converted
    onto stack u while it has room."""
    cdef int i, o, res
    for i in range(n):
        o = seats[i]
        if o == s:
            continue
        res = take_captive(core, mover, k, core.plan_shape[o])
        if res == RESULT_CONVERTS and target_free(core, u):
            set_shape(core, land(core, u, mover), core.tab.shape_global[core.plan_shape[o]])


# -- plans of random playouts ---------------------------------------------------


cdef int fast_plans(TTTCore core, int seat, int* out) noexcept:
    """The plans of ``seat`` in a round, as a set equal to seat_actions's
    but in another order and without allocating (for random playouts):
    placements straight from the free list, one-step moves along the step
    table (distinct directions give distinct targets). Not for
    linear-or-knight moves, whose lines need de-duplication."""
    cdef Tables tab = core.tab
    cdef int k = 0, ch, colour, i, f, d, u
    for ch in range(tab.choices):
        colour = ch if tab.choices > 1 else tab.colour_of_seat[seat]
        if not ((tab.seat_mask[seat] >> colour) & 1) or core.reserve[colour] <= 0:
            continue
        for i in range(core.num_free):
            if core.pentry != NULL and not may_enter(core, seat, core.freel[i]):
                continue                # spaces: entry locked for this seat
            out[k] = ch * tab.T + core.freel[i]
            k += 1
    cdef int movable = 0, piece
    cdef int16_t* cell = core.cell
    cdef uint8_t* locked = tab.locked
    cdef uint8_t* plock = core.plock
    if tab.ph_move[core.phase] != MOVE_NONE and core.num_free > 0:
        if tab.gravity or tab.nboards > 1:   # the board-aware checks
            for f in range(tab.T):
                if not movable_piece(core, seat, f):
                    continue
                for d in range(tab.nsstep[f]):
                    u = tab.sstep[f * 26 + d]
                    if target_free(core, u) and may_enter(core, seat, u):
                        out[k] = tab.move0 + f * tab.T + u
                        k += 1
            return add_pass(core, out, k)
        # flat boards: a target is its cell; the colours this seat may move
        for colour in range(tab.C):
            if (tab.seat_mask[seat] >> colour) & 1 and core.reserve[colour] == 0:
                movable |= 1 << (colour + 1)
        for f in range(tab.T):
            piece = cell[f]
            if not ((movable >> piece) & 1) or (plock != NULL and plock[f]):
                continue
            if core.pexit != NULL and (core.pexit[f] >> seat) & 1:
                continue                # spaces: exit locked for this seat
            for d in range(tab.nsstep[f]):
                u = tab.sstep[f * 26 + d]
                if (cell[u] == 0 and not locked[u] and (plock == NULL or not plock[u])
                        and may_enter(core, seat, u)):
                    out[k] = tab.move0 + f * tab.T + u
                    k += 1
    return add_pass(core, out, k)


cdef int random_plan(TTTCore core, int seat, Rng* rng, int* buf) noexcept:
    """A uniformly random plan of ``seat`` in a round, for playouts.
    Placements come straight from the free list; moves on flat boards by
    rejection sampling over (target, step slot) pairs, which is uniform
    over the legal moves; after 32 rejections (few legal moves) it draws
    from the full list instead, which is uniform too, so the mixture is.
    Anything else (colour choice, stacks) draws from the full list."""
    cdef Tables tab = core.tab
    cdef int colour, movable = 0, places = 0, n, r, f, d, u, piece, tries
    cdef int passing = tab.ph_pass[core.phase]
    cdef uint8_t* plock = core.plock
    if core.seen != NULL and tab.cloaking == CLOAK_HIDES and judges_own_view(core, seat):
        return random_plan_in_view(core, seat, rng, buf)    # from its view
    if tab.choices == 1 and not tab.gravity and not tab.any_seat_lock and tab.nboards == 1:
        colour = tab.colour_of_seat[seat]
        if core.reserve[colour] > 0:
            places = core.num_free
        for d in range(tab.C):
            if (tab.seat_mask[seat] >> d) & 1 and core.reserve[d] == 0:
                movable |= 1 << (d + 1)
        if tab.ph_move[core.phase] == MOVE_NONE or core.num_free == 0:
            movable = 0
        if movable == 0:
            n = places + passing
            r = rng_below(rng, n)
            return tab.a_pass if r == places else core.freel[r]
        if places == 0 and tab.maxstep > 0:
            n = tab.T * tab.maxstep
            for tries in range(32):
                r = rng_below(rng, n + passing)
                if r == n:
                    return tab.a_pass
                f = step_slot(tab, r)
                d = r - f * tab.maxstep
                if d >= tab.nsstep[f]:
                    continue
                piece = core.cell[f]
                if not ((movable >> piece) & 1) or (plock != NULL and plock[f]):
                    continue
                u = tab.sstep[f * 26 + d]
                if core.cell[u] == 0 and not tab.locked[u] and (plock == NULL or not plock[u]):
                    return tab.move0 + f * tab.T + u
    n = fast_plans(core, seat, buf)
    return buf[rng_below(rng, n)]


cdef inline int add_pass(TTTCore core, int* out, int k) noexcept:
    if core.tab.ph_pass[core.phase]:
        out[k] = core.tab.a_pass
        k += 1
    return k

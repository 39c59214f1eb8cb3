# Pots and poker ranks: the pot a cover leaves when captors of several
# colours share it (a chance node draws who starts the deal), the poker
# hands of a stack (poker.pxd's hand_rank), the whole-stack pot showdown of
# by-stack covers, and the pots a round's covers leave. Included by
# _engine.pyx; functions take the core (or the tables) first. Rules:
# docs/rules/ttt/pots.md and docs/rules/ttt/rounds.md ("Pots inside rounds",
# "The pot showdown inside rounds").
#
# The specification: "For conversion and reincarnation on cover, all
# players with the highest rank on the stack split the pot (each captor
# retains the pieces that make them highest rank; the remaining pieces are
# allocated in descending order of rank round-robin to the captors starting
# randomly–i.e. if there are three reincarnate (x2) captors of two pieces,
# then one captor gets two and the others each get one)." In a cover the pot
# is the attacker; it is split when the highest-ranked defenders that beat
# it belong to several colours (the captors, in colour order). A chance
# node draws the captor that starts, uniformly. A pot waiting for its deal
# pauses the ply in the block's pot region (``Tables.pot0``): the position
# is a chance node (current_player, chance_outcomes and apply test one flag
# first) until deal_pot deals it; being in the block, it is copied, hashed
# and serialised with the position. Rule sets without pots pay one flag
# test in current_player, apply, legal_actions and the playout loop.

from libc.stdint cimport int16_t, uint8_t, uint64_t
from games.rng cimport mix64
from games.ttt.codes cimport POWER_NONE, RESULT_CONVERTS
from games.ttt.poker cimport hand_rank, hand_uses, N_SHAPES


cdef enum:
    # the pot region of a block (Tables.pot0): pending, target, attacker's local
    # shape, pieces in the pot, captors, captors' pieces, captors' local shapes
    POT_PENDING = 0
    POT_T = 1
    POT_K = 2                 # -1 for a by-stack showdown's pot
    POT_UNITS = 3
    POT_N = 4
    POT_PIECE = 5
    POT_SHAPE = 5 + MAX_SEATS
    POT_LEN = 5 + 2 * MAX_SEATS
    # rule sets with rounds append a queue to the pot region: the pots one
    # round's covers leave (dealt in target order, one chance node each), and
    # what the round's end still needs once they are dealt
    POTQ_TAIL = POT_LEN                   # 1: a round waits for its pots
    POTQ_ALLPASS = POT_LEN + 1
    POTQ_NPLANS = POT_LEN + 2
    POTQ_N = POT_LEN + 3                  # pots queued
    POTQ_HEAD = POT_LEN + 4               # next queued pot to deal
    POTQ_LANDED = POT_LEN + 5             # the round's landed cell per seat
    POTQ_SLOTS = POT_LEN + 5 + MAX_SEATS  # queued pots, POT_LEN entries each
    POTQ_NLAND = POT_LEN + 5 + MAX_SEATS + MAX_SEATS * POT_LEN    # pieces a by-stack plan landed, per seat
    POTQ_LEN = POT_LEN + 5 + 2 * MAX_SEATS + MAX_SEATS * POT_LEN
    POT_WHO = 15                          # the history's seat for a pot's chance outcome


cdef inline void pot_layout(Tables tab) noexcept:
    """The pot region at the end of the block: a pot waiting for its chance
    node, and with rounds the round's queue of pots."""
    if tab.pots:
        tab.pot0 = tab.block
        tab.pot_len = POTQ_LEN if tab.sim else POT_LEN
        tab.block += tab.pot_len


cdef int pot_multiple(Tables tab, int* ks, int n) noexcept:
    """How many times each pot piece is dealt: the count of reserve pieces
    (``reincarnated_count``) when every captor's result (local shapes
    ``ks[0..n)``) gives the same count above one, else 1. "if there are
    three reincarnate (x2) captors of two pieces, then one captor gets two
    and the others each get one": a pot of x2 captors is doubled, so one of
    x3 captors (``reincarnates-x3``) is tripled; captors of mixed counts
    deal the pot once, each captor taking its own count per piece."""
    cdef int j, m = reincarnated_count(tab.shape_result[ks[0]]) if n > 0 else 1
    for j in range(1, n):
        if reincarnated_count(tab.shape_result[ks[j]]) != m:
            return 1
    return m if m > 1 else 1


cdef int record_captors(TTTCore core, int* cells, int n) noexcept:
    """Record the captors' colours (the first captor piece of each colour,
    topmost first) in the pot region; returns how many colours (1: no
    split). Only rule sets with ``pots`` have a pot region."""
    cdef Tables tab = core.tab
    cdef int i, j, col, ncol = 0
    cdef int colour_k[MAX_COLOURS]
    cdef int ks[MAX_COLOURS]
    cdef int16_t* pot
    if not tab.pots:
        return 1
    for col in range(MAX_COLOURS):
        colour_k[col] = -1
    for i in range(n):
        col = core.cell[cells[i]] - 1
        if colour_k[col] < 0:
            colour_k[col] = tab.shape_local[core.shp[cells[i]]]
            ncol += 1
    if ncol < 2:
        return ncol
    pot = core.mem + tab.pot0
    j = 0
    for col in range(MAX_COLOURS):
        if colour_k[col] >= 0:
            pot[POT_PIECE + j] = col + 1
            pot[POT_SHAPE + j] = colour_k[col]
            ks[j] = colour_k[col]
            j += 1
    pot[POT_N] = ncol
    pot[POT_UNITS] = pot_multiple(tab, ks, ncol)      # "double upon capture"
    return ncol


cdef int pot_outcomes(TTTCore core, int* actions, double* probs) noexcept:
    """The pot's chance outcomes: outcome j starts the deal with captor j."""
    cdef int j, n = core.mem[core.tab.pot0 + POT_N]
    for j in range(n):
        actions[j] = j
        if probs != NULL:
            probs[j] = 1.0 / n
    return n


cdef void deal_pot(TTTCore core, int start) noexcept:
    """Deal the pot round-robin from captor ``start``: each piece goes to
    the next captor, which applies its own result to it (converts: the
    piece lands on the stack in its colour; reincarnates: one to its
    reserve; reincarnates x2 or x3: two or three, unless the pot was
    already multiplied because every captor has that count); then the ply
    ends."""
    cdef Tables tab = core.tab
    cdef int16_t* pot = core.mem + tab.pot0
    cdef int i, j, res, col, c
    cdef int k = pot[POT_K], units = pot[POT_UNITS], n = pot[POT_N], t = pot[POT_T]
    if k < 0:
        deal_waiting_showdown(core, start)          # a showdown's pot
        return
    pot[POT_PENDING] = 0
    for i in range(units):
        j = (start + i) % n
        col = pot[POT_PIECE + j] - 1
        res = tab.shape_result[pot[POT_SHAPE + j]]
        if res == RESULT_CONVERTS and not (tab.gravity and target_free(core, t)):
            pass                          # a round's converted captives filled the stack
        elif res == RESULT_CONVERTS:
            c = land(core, t, col + 1)
            core.shp[c] = tab.shape_global[k]
            core.board_hash ^= tab.szob[c * MAX_SHAPES + tab.shape_global[k]]
        elif reincarnated_count(res):
            c = reincarnated_count(res) if units == 1 else 1
            core.reserve[col] += c
            core.sres[col * tab.K + k] += c
    for i in range(POT_LEN):
        pot[i] = 0
    if tab.sim and pot[POTQ_TAIL]:
        open_next_round_pot(core)                  # the round's next pot, or its end
        return
    end_ply(core, -1, 0)


cdef uint64_t pot_hash(TTTCore core) noexcept:
    cdef uint64_t h = 0
    cdef int i
    for i in range(core.tab.pot_len):
        h = mix64(h ^ (<uint64_t>(core.mem[core.tab.pot0 + i] + 7) * <uint64_t>0xC2B2AE3D27D4EB4FULL
                       + <uint64_t>i))
    return h


# -- poker hands of a stack ------------------------------------------------
# The rank a by-stack cover needs is one pure C function in its own module
# (games/ttt/poker.pxd: ``hand_rank(counts)``, ``hand_uses``), so the
# engine's captures code and the tests call the same code; these collect a
# seat's own and communal pieces of a stack for it.


cdef int stack_hand_rank(TTTCore core, int seat, int t, int chips) noexcept:
    """The specification's poker-hand rank of ``seat`` in stack t: its own
    pieces and communal ones (a colour no seat owns), leaving out the shapes
    in the bit mask ``chips`` (SHAPES_ALL indices: the lowest-rank pieces,
    which the captures code knows). The captures code calls it on the
    destination stack after a by-stack or by-full-stack move; equal values
    are equal ranks."""
    cdef Tables tab = core.tab
    cdef int counts[N_SHAPES]
    cdef int owned = 0, s, z, cc, piece, mine = tab.seat_mask[seat]
    for s in range(tab.seats):
        owned |= tab.seat_mask[s]
    for s in range(N_SHAPES):
        counts[s] = 0
    for z in range(core.top[t]):
        cc = t + tab.XY * z
        piece = core.cell[cc]
        if piece == 0:
            continue
        if not ((mine >> (piece - 1)) & 1) and ((owned >> (piece - 1)) & 1):
            continue                 # another player's piece
        if (chips >> core.shp[cc]) & 1:
            continue
        counts[core.shp[cc]] += 1
    return hand_rank(counts)


cdef int colours_hand(TTTCore core, int mine, int t) noexcept:
    """The poker hand in stack t of the pieces of the colours in ``mine``
    and the communal ones, chips left out (mine = 0: communal only)."""
    cdef Tables tab = core.tab
    cdef int counts[N_SHAPES]
    cdef int owned = 0, s, z, cc, piece
    for s in range(tab.seats):
        owned |= tab.seat_mask[s]
    for s in range(N_SHAPES):
        counts[s] = 0
    for z in range(core.top[t]):
        cc = t + tab.XY * z
        piece = core.cell[cc]
        if piece == 0 or (tab.chips >> core.shp[cc]) & 1:
            continue
        if ((mine >> (piece - 1)) & 1) or not ((owned >> (piece - 1)) & 1):
            counts[core.shp[cc]] += 1
    return hand_rank(counts)


cdef int owner_hand(TTTCore core, int c, int t) noexcept:
    """The hand in stack t of the player owning the piece on cell c (the
    first seat whose colours include it), or of no player (communal)."""
    cdef int s, piece = core.cell[c]
    for s in range(core.tab.seats):
        if (core.tab.seat_mask[s] >> (piece - 1)) & 1:
            return colours_hand(core, core.tab.seat_mask[s], t)
    return colours_hand(core, 0, t)


# -- the pot showdown of by-stack covers ---------------------------------------
# The rank in a by-stack move is the player's poker hand in the destination
# stack. So a by-stack mover whose power converts or reincarnates, landing
# where it covers, does not duel: every seat with a non-chip piece of its own
# in the stack shows its hand; the seats tied for the highest are the
# captors; each keeps its own pieces that make its hand; every other piece
# of the stack above its highest lock (the pot) is dealt, highest rank
# first, chips last, round-robin from a captor a chance node draws (1/n
# each; none with one captor). Each captor applies its own piece's result
# (its piece: the mover for the mover's seat, else its topmost own piece
# with a power). Pieces that stay (kept, or converted) keep their order in
# the stack; the others leave and the pieces above them fall. The pot
# region holds POT_K = -1 while a showdown's deal waits (a plain cover's pot
# holds the attacker's shape): deal_pot hands over to
# deal_waiting_showdown, which plans again on the unchanged stack, so a
# waiting deal stores only the captors' pieces.
#
# A mover the defenders take by converting or reincarnating: "For
# conversion and reincarnation on cover, all players with the highest rank
# on the stack split the pot" names the cover's result, not whose power it
# is, so a by-stack mover without a converting or reincarnating power (a
# powerless one, or one that removes) that the defenders beat (the cover's
# verdict CP_LOSE) goes to the showdown too when one of the defenders that
# take it converts or reincarnates, provided some seat is "on the stack"
# (has a non-chip piece of its own there: otherwise nobody shows a hand and
# the cover's duel stands): captured_mover_showdown, asked only in rule
# sets with pots.


cdef bint showdown_applies(TTTCore core, int seat, int u, int k) noexcept:
    """Whether the by-stack mover of local shape k, landed on stack u (with
    ``hand_below`` set), goes to the showdown: its power converts or
    reincarnates and it covers a piece of a colour its seat does not own."""
    cdef Tables tab = core.tab
    cdef int res = tab.shape_result[k]
    cdef int cells[CP_MAX_STACK]
    if tab.shape_power[k] == POWER_NONE:
        return captured_mover_showdown(core, seat, u, k)          # captured by the defenders
    if res != RESULT_CONVERTS and not reincarnated_count(res):
        return captured_mover_showdown(core, seat, u, k)
    return defenders(core, seat, u, cells) > 0


cdef bint captured_mover_showdown(TTTCore core, int seat, int u, int k) noexcept:
    """Whether the by-stack mover of local shape k of ``seat`` (landed on
    stack u, ``hand_below`` and ``hand_stack`` set), whose own power neither
    converts nor reincarnates, goes to the showdown: the defenders beat it
    and one of its captors converts or reincarnates, and a seat is on the
    stack. Only rule sets with pots (``schema.may_split_pot``) have it."""
    cdef Tables tab = core.tab
    cdef int nc = 0, i, res
    cdef bint takes = False
    cdef int cells[CP_MAX_STACK]
    cdef int captors[MAX_SEATS]
    cdef uint8_t keep[CP_MAX_STACK]
    if not tab.pots:
        return False
    if cover_verdict(core, seat, k, u, cells, &nc) != CP_LOSE:
        return False
    for i in range(nc):
        res = tab.shape_result[tab.shape_local[core.shp[cells[i]]]]
        if res == RESULT_CONVERTS or reincarnated_count(res):
            takes = True
    return takes and showdown_plan(core, u, cover_base(core, u), captors, keep) > 0


cdef int showdown_plan(TTTCore core, int u, int cbase, int* captors, uint8_t* keep) noexcept:
    """The showdown on stack u: the captors (seats, ascending) are the seats
    with a non-chip piece of their own in the stack whose hand is the
    highest; keep[z - cbase] = 1 for each piece (height z >= cbase) a captor
    keeps: its own pieces of the shapes its hand uses, as many as the hand
    uses, lowest first. Returns how many captors."""
    cdef Tables tab = core.tab
    cdef int s, z, c, piece, i, n = 0, best = -1
    cdef int hands[MAX_SEATS]
    cdef int used[N_SHAPES]
    for s in range(tab.seats):
        hands[s] = -1
        for z in range(core.top[u]):
            c = u + tab.XY * z
            piece = core.cell[c]
            if piece and (tab.seat_mask[s] >> (piece - 1)) & 1 and not (tab.chips >> core.shp[c]) & 1:
                hands[s] = colours_hand(core, tab.seat_mask[s], u)
                break
        if hands[s] > best:
            best = hands[s]
    for s in range(tab.seats):
        if best >= 0 and hands[s] == best:
            captors[n] = s
            n += 1
    for z in range(cbase, core.top[u]):
        keep[z - cbase] = 0
    for i in range(n):
        hand_uses(hands[captors[i]], used)
        for z in range(cbase, core.top[u]):
            c = u + tab.XY * z
            piece = core.cell[c]
            if (piece and not keep[z - cbase] and (tab.seat_mask[captors[i]] >> (piece - 1)) & 1
                    and used[core.shp[c]] > 0):
                keep[z - cbase] = 1
                used[core.shp[c]] -= 1
    return n


cdef bint mover_is_captor(TTTCore core, int seat, int u) noexcept:
    """Whether ``seat`` is among the showdown's captors on stack u ("must
    capture": such a by-stack move captures)."""
    cdef int captors[MAX_SEATS]
    cdef uint8_t keep[CP_MAX_STACK]
    cdef int j, n = showdown_plan(core, u, cover_base(core, u), captors, keep)
    for j in range(n):
        if captors[j] == seat:
            return True
    return False


cdef int pot_dealing_order(TTTCore core, int u, int cbase, uint8_t* keep, int* order) noexcept:
    """The pot of stack u in dealing order (heights): the pieces above the
    lock that no captor keeps, "in descending order of rank": non-chips
    before chips, then the shape (pentagon first, the hands' chain), then
    the topmost first. Returns its size."""
    cdef Tables tab = core.tab
    cdef int z, c, i, j, m = 0, tmp
    cdef int key[CP_MAX_STACK]
    for z in range(cbase, core.top[u]):
        c = u + tab.XY * z
        if core.cell[c] == 0 or keep[z - cbase]:
            continue
        order[m] = z
        key[m] = ((0 if (tab.chips >> core.shp[c]) & 1 else 1) * 8 + core.shp[c]) * 32 + z
        m += 1
    for i in range(1, m):                 # insertion sort, highest key first (m <= 20)
        j = i
        while j > 0 and key[j - 1] < key[j]:
            tmp = key[j]
            key[j] = key[j - 1]
            key[j - 1] = tmp
            tmp = order[j]
            order[j] = order[j - 1]
            order[j - 1] = tmp
            j -= 1
    return m


cdef void captor_piece(TTTCore core, int s, int u, int cbase, int mover, int* col, int* k) noexcept:
    """A captor's piece, whose colour a converted piece takes and whose
    shape's result it applies: the mover (cell ``mover``) for the mover's
    seat, else its topmost own piece with a power in the stack (above the
    lock if it has one there)."""
    cdef Tables tab = core.tab
    cdef int z, c, piece, lo
    if (mover >= 0 and (tab.seat_mask[s] >> (core.cell[mover] - 1)) & 1
            and not (tab.chips >> core.shp[mover]) & 1):        # a powerless mover is no captor's piece
        col[0] = core.cell[mover]
        k[0] = tab.shape_local[core.shp[mover]]
        return
    for lo in (cbase, 0):
        for z in range(core.top[u] - 1, lo - 1, -1):
            c = u + tab.XY * z
            piece = core.cell[c]
            if piece and (tab.seat_mask[s] >> (piece - 1)) & 1 and not (tab.chips >> core.shp[c]) & 1:
                col[0] = piece
                k[0] = tab.shape_local[core.shp[c]]
                return


cdef int deal_showdown(TTTCore core, int seat, int u, int start, int n, int* cols, int* ks,
                       int mover) noexcept:
    """Deal stack u's pot round-robin from captor ``start`` (cols/ks: the
    captors' pieces): converts: the piece stays in place in the captor's
    colour; reincarnates: it leaves, one of its shape to the captor's
    reserve (x2: two; when every captor doubles, the pot is doubled
    instead: each piece is two consecutive deals of one); removes: it
    leaves. Then the stack closes up. Returns the mover's cell (``mover``
    before the deal) if it stays as a piece of ``seat`` (the mover's: in
    a round it is not the seat to move), else -1."""
    cdef Tables tab = core.tab
    cdef int cbase = cover_base(core, u), top0 = core.top[u], npot, i, j, z, c, res
    cdef int units = 1, m = 0, at = -1
    cdef int d = 0, seat_mask = tab.seat_mask[seat]
    cdef int mz = mover // tab.XY if mover >= 0 else -1
    cdef int captors[MAX_SEATS]
    cdef int order[CP_MAX_STACK]
    cdef int newc[CP_MAX_STACK]
    cdef int pc[CP_MAX_STACK]
    cdef int ps[CP_MAX_STACK]
    cdef uint8_t keep[CP_MAX_STACK]
    showdown_plan(core, u, cbase, captors, keep)
    npot = pot_dealing_order(core, u, cbase, keep, order)
    for z in range(cbase, top0):
        newc[z - cbase] = core.cell[u + tab.XY * z]
    units = pot_multiple(tab, ks, n)
    for i in range(npot):
        z = order[i]
        c = u + tab.XY * z
        for d in range(units):
            j = (start + i * units + d) % n
            res = tab.shape_result[ks[j]]
            if res == RESULT_CONVERTS:
                newc[z - cbase] = cols[j]
                continue
            newc[z - cbase] = 0
            if reincarnated_count(res):
                res = reincarnated_count(res) if units == 1 else 1
                core.reserve[cols[j] - 1] += res
                core.sres[(cols[j] - 1) * tab.K + tab.shape_local[core.shp[c]]] += res
    for z in range(cbase, top0):
        c = u + tab.XY * z
        if newc[z - cbase]:
            if z == mz and (seat_mask >> (newc[z - cbase] - 1)) & 1:
                at = m
            pc[m] = newc[z - cbase]
            ps[m] = core.shp[c]
            m += 1
        clear_cell(core, c)
    return restack(core, u, cbase, pc, ps, m, 1, 0, at)


cdef int start_showdown(TTTCore core, int seat, int u, int base, int k) noexcept:
    """The showdown of the by-stack mover (local shape k) of ``seat`` landed
    at height ``base`` of stack u. With one captor the pot is dealt at once
    (returns the mover's cell if it stays as the seat's piece, else -1;
    ``showdown_carried`` says how many pieces from it up the turn checks read);
    with several the deal waits for the chance node (CP_PAUSED)."""
    cdef Tables tab = core.tab
    cdef int cbase = cover_base(core, u), n, j, npot, units, got, mover = u + tab.XY * base
    cdef int captors[MAX_SEATS]
    cdef int cols[MAX_SEATS]
    cdef int ks[MAX_SEATS]
    cdef int order[CP_MAX_STACK]
    cdef uint8_t keep[CP_MAX_STACK]
    cdef int16_t* pot
    n = showdown_plan(core, u, cbase, captors, keep)
    for j in range(n):
        captor_piece(core, captors[j], u, cbase, mover, &cols[j], &ks[j])
    units = pot_multiple(tab, ks, n)
    if n == 1:
        got = deal_showdown(core, seat, u, 0, 1, cols, ks, mover)
        core.showdown_carried = core.top[u] - got // tab.XY if got >= 0 else 0
        return got
    npot = pot_dealing_order(core, u, cbase, keep, order)
    pot = core.mem + tab.pot0
    pot[POT_PENDING] = 1
    pot[POT_T] = u
    pot[POT_K] = -1                           # a showdown's deal, not one attacker
    pot[POT_UNITS] = npot * units
    pot[POT_N] = n
    for j in range(n):
        pot[POT_PIECE + j] = cols[j]
        pot[POT_SHAPE + j] = ks[j]
    return CP_PAUSED


cdef void deal_waiting_showdown(TTTCore core, int start) noexcept:
    """The chance node of a showdown's pot (``deal_pot`` with POT_K = -1):
    deal from captor ``start``; the ply ends with no turn check, as any
    pot's. Inside a round the pot came from the round's
    queue: the next queued pot opens, or the round ends (``open_next_round_pot``),
    as after a plain pot's deal."""
    cdef int16_t* pot = core.mem + core.tab.pot0
    cdef int j, n = pot[POT_N], u = pot[POT_T]
    cdef int cols[MAX_SEATS]
    cdef int ks[MAX_SEATS]
    for j in range(n):
        cols[j] = pot[POT_PIECE + j]
        ks[j] = pot[POT_SHAPE + j]
    for j in range(POT_LEN):
        pot[j] = 0
    deal_showdown(core, core.seat, u, start, n, cols, ks, -1)
    if core.tab.sim and pot[POTQ_TAIL]:
        open_next_round_pot(core)                  # the round's next pot, or its end
        return
    end_ply(core, -1, 0)


# -- pots inside rounds ----------------------------------------------------------
# A round's covers may each leave a pot (captors of several colours, as in
# a sequential ply: cover_stack). The pots wait until every plan of the
# round has landed, queued in the pot region (rule sets with rounds get a
# longer one: ``Tables.pot_len``) with what end_round needs; then one chance
# node per pot, in target order, draws the captor that starts its
# round-robin deal (uniform, 1/n each); after the last deal the round ends
# as any round does (end_round). The core records each deal in its history
# (seat POT_WHO) so information states tell the outcomes apart. A
# showdown's waiting deal is one more queued pot: deal_waiting_showdown
# goes back to open_next_round_pot when the queue is busy, as deal_pot does.


cdef void queue_round_pot(TTTCore core) noexcept:
    """Move the pot a round's cover just left (slot 0) into the queue."""
    cdef int16_t* pot = core.mem + core.tab.pot0
    cdef int i, q = pot[POTQ_N]
    for i in range(POT_LEN):
        pot[POTQ_SLOTS + q * POT_LEN + i] = pot[i]
        pot[i] = 0
    pot[POTQ_N] = q + 1


cdef void pause_round_for_pots(TTTCore core, int* landed, bint allpass, int nplans) noexcept:
    """Keep what the round's end needs, order the queued pots by target
    and open the first one's chance node."""
    cdef Tables tab = core.tab
    cdef int16_t* pot = core.mem + tab.pot0
    cdef int s, i, j, x, n = pot[POTQ_N]
    cdef int16_t* a
    cdef int16_t* b
    pot[POTQ_TAIL] = 1
    pot[POTQ_ALLPASS] = allpass | (core.goal_hit << 1)     # bit 1, a goal reached
    core.goal_hit = False
    pot[POTQ_NPLANS] = nplans
    for s in range(MAX_SEATS):
        pot[POTQ_LANDED + s] = landed[s] if s < tab.seats else -1
        pot[POTQ_NLAND + s] = core.plan_lifted[s] if s < tab.seats and tab.nstk else 0
    for i in range(1, n):                 # insertion sort by target (at most MAX_SEATS pots)
        j = i
        while j > 0 and pot[POTQ_SLOTS + (j - 1) * POT_LEN + POT_T] > pot[POTQ_SLOTS + j * POT_LEN + POT_T]:
            a = pot + POTQ_SLOTS + (j - 1) * POT_LEN
            b = pot + POTQ_SLOTS + j * POT_LEN
            for x in range(POT_LEN):
                a[x], b[x] = b[x], a[x]
            j -= 1
    pot[POTQ_HEAD] = 0
    open_next_round_pot(core)


cdef void open_next_round_pot(TTTCore core) noexcept:
    """Open the next queued pot's chance node, or, all dealt, end the round."""
    cdef Tables tab = core.tab
    cdef int16_t* pot = core.mem + tab.pot0
    cdef int i, h = pot[POTQ_HEAD], nplans
    cdef bint allpass
    cdef int landed[MAX_SEATS]
    cdef int nland[MAX_SEATS]
    if h < pot[POTQ_N]:
        for i in range(POT_LEN):
            pot[i] = pot[POTQ_SLOTS + h * POT_LEN + i]
        pot[POT_PENDING] = 1
        pot[POTQ_HEAD] = h + 1
        return
    for i in range(MAX_SEATS):
        landed[i] = pot[POTQ_LANDED + i]
        nland[i] = pot[POTQ_NLAND + i]       # by-stack plans' pieces, for the turn checks
    allpass = (pot[POTQ_ALLPASS] & 1) != 0
    core.goal_hit = (pot[POTQ_ALLPASS] >> 1) & 1
    nplans = pot[POTQ_NPLANS]
    for i in range(POT_LEN, tab.pot_len):
        pot[i] = 0
    end_round(core, landed, allpass, nplans, nland if tab.nstk else NULL)

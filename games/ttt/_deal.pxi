# A deck and dealt pieces: the deal's chance nodes, what each seat knows of
# it, and the per-player views of a rule set with a deck. Included by
# _engine.pyx; functions take the core (or the tables) first. Rules:
# docs/rules/ttt/deal.md.
#
# The game starts with the deal: one chance node per piece, round-robin to
# the players (seat order, Chaos is not dealt to) until each holds its hand,
# then one for each dealt common space in the order of its cell. A node's
# outcomes are the local shapes still in the deck, each as likely as the
# pieces of it left. A piece dealt to a player joins its reserve (its own
# colour): the others see only that the reserve grew. A piece dealt onto a
# dealt common space sets the shape of the communal piece standing there
# (the compiler puts one on each, games/ttt/deal.py), face up for everyone.
# The first phase starts after the last deal. A deck that deals each turn
# deals the player whose turn starts its pieces (while the deck lasts)
# before start_turn's check that it can move (_turns.pxi).
#
# The deck region of a position block, read as int32 (it starts at an even
# int16 offset of a malloc'd block, so it is aligned): [0] deals of the
# start done, [1] entries logged, [2] pieces of this turn's deal still to
# come, [3] 1 when this turn's deal is done, [DECK_K0..) the deck's pieces
# left per local shape, then from DECK_LOG0 the log of every deal and
# decision (who << 20 | action), which the information states read: who is
# the seat, DEAL_WHO + s for a deal to seat s (its shape hidden from the
# others), COMMON_WHO for a dealt common space, CHANCE_WHO for Chaos's or a
# pot's outcome.

from libc.stdint cimport int16_t, int32_t, uint64_t
from games.rng cimport Rng, mix64, rng_below

cdef enum:
    DEAL_WHO = 8
    COMMON_WHO = 14
    CHANCE_WHO = 15
    DECK_K0 = 4
    DECK_LOG0 = 4 + MAX_SHAPES


cdef void deck_layout(Tables tab, dict p) except *:
    cdef int i
    tab.deck = "deck" in p
    if not tab.deck:
        return
    d = p["deck"]
    if len(d["cells"]) > MAX_SPACES_DEALT or len(d["counts"]) > MAX_SHAPES:
        raise ValueError("rule set exceeds the engine's limits")
    tab.hand = d["hand"]
    tab.per_turn = d.get("per_turn", 0)
    tab.ndeals = tab.nplayers * tab.hand + len(d["cells"])
    for i, c in enumerate(d["cells"]):
        tab.deck_cells[i] = c
    tab.deck_cap = p["max_game_length"]          # the deal's nodes are counted in it
    tab.deck0 = tab.block + (tab.block & 1)
    tab.block = tab.deck0 + 2 * (DECK_LOG0 + tab.deck_cap)


cdef void deck_init_block(Tables tab, dict p) except *:
    cdef int32_t* v = <int32_t*>(tab.init + tab.deck0)
    cdef int k
    for k in range(DECK_K0):
        v[k] = 0
    for k in range(MAX_SHAPES):
        v[DECK_K0 + k] = p["deck"]["counts"][k] if k < tab.K else 0


cdef inline int32_t* deck_region(TTTCore core) noexcept:
    return <int32_t*>(core.mem + core.tab.deck0)


cdef inline bint dealing(TTTCore core) noexcept:
    """Whether a deal is on (the position is a chance node): the start's, or a turn's."""
    cdef int32_t* v = deck_region(core)
    return v[0] < core.tab.ndeals or v[2] > 0


cdef bint awaits_deal(TTTCore core, int c) noexcept:
    """Whether cell c is a dealt common space whose piece is not dealt yet
    (its communal piece stands there with a stand-in shape until then)."""
    cdef Tables tab = core.tab
    cdef int j
    for j in range(deck_region(core)[0] - tab.nplayers * tab.hand, tab.ndeals - tab.nplayers * tab.hand):
        if j >= 0 and tab.deck_cells[j] == c:
            return True
    return False


cdef int deck_left(TTTCore core) noexcept:
    cdef int32_t* v = deck_region(core)
    cdef int k, n = 0
    for k in range(core.tab.K):
        n += v[DECK_K0 + k]
    return n


cdef int deal_outcomes(TTTCore core, int* out, double* probs) noexcept:
    """The shapes the next deal may give (local indices), each with the share
    of the deck's pieces left that it has."""
    cdef int32_t* v = deck_region(core)
    cdef int k, n = 0
    cdef double total = deck_left(core)
    for k in range(core.tab.K):
        if v[DECK_K0 + k] > 0:
            out[n] = k
            if probs != NULL:
                probs[n] = v[DECK_K0 + k] / total
            n += 1
    return n


cdef inline void log_entry(TTTCore core, int who, int action) noexcept:
    cdef int32_t* v = deck_region(core)
    if v[1] < core.tab.deck_cap:
        v[DECK_LOG0 + v[1]] = (who << 20) | action
        v[1] += 1


cdef void deal_piece(TTTCore core, int k) noexcept:
    """Deal a piece of local shape k: to the next player's reserve, or face
    up onto the next dealt common space; the first phase starts after the
    last one. Then a turn's deal: to the player whose turn it is, whose turn
    then starts."""
    cdef Tables tab = core.tab
    cdef int32_t* v = deck_region(core)
    cdef int i = v[0]
    v[DECK_K0 + k] -= 1
    if i >= tab.ndeals:                              # a turn's deal
        give_piece(core, core.seat, k)
        v[2] -= 1
        if v[2] == 0:
            v[3] = 1
            start_turn(core)
        return
    if i < tab.nplayers * tab.hand:
        give_piece(core, i % tab.nplayers, k)
    else:
        replace_shape(core, tab.deck_cells[i - tab.nplayers * tab.hand], k)
        log_entry(core, COMMON_WHO, k)
    v[0] = i + 1
    if v[0] == tab.ndeals:
        enter_phase(core, 0, True)


cdef void give_piece(TTTCore core, int s, int k) noexcept:
    """A piece of local shape k into seat s's reserve (its own colour)."""
    cdef Tables tab = core.tab
    cdef int colour = tab.colour_of_seat[s]
    core.sres[colour * tab.K + k] += 1
    core.reserve[colour] += 1
    log_entry(core, DEAL_WHO + s, k)


cdef bint deal_for_turn(TTTCore core) noexcept:
    """At the start of a turn (start_turn): open the turn's deal, unless it
    is done (then start_turn goes on), the seat is Chaos or the deck is out."""
    cdef int32_t* v = deck_region(core)
    cdef int left
    if v[3]:
        v[3] = 0
        return False
    if core.tab.chaos and core.seat == core.tab.seats - 1:
        return False
    left = deck_left(core)
    if left == 0:
        return False
    v[2] = core.tab.per_turn if core.tab.per_turn < left else left
    return True


cdef object deal_status(TTTCore core):
    cdef int32_t* v = deck_region(core)
    if v[0] < core.tab.ndeals:
        return f"dealing: {v[0]} of {core.tab.ndeals} pieces dealt"
    return f"dealing to player {core.seat}: {v[2]} piece(s) to come"


cdef bint deck_apply(TTTCore core, int action) noexcept:
    """A deal (True: done), or log the decision about to be applied (False)."""
    cdef int who
    if dealing(core):
        deal_piece(core, action)
        return True
    who = core.current_player()
    log_entry(core, CHANCE_WHO if who == PLAYER_CHANCE else who, action)
    return False


cdef void deal_at_random(TTTCore core, Rng* rng) noexcept:
    """A random playout's deal: a piece drawn uniformly from the deck."""
    cdef int32_t* v = deck_region(core)
    cdef int r = rng_below(rng, deck_left(core)), k = 0
    while r >= v[DECK_K0 + k]:
        r -= v[DECK_K0 + k]
        k += 1
    core.apply(k)


cdef uint64_t deck_hash(TTTCore core) noexcept:
    """The deal so far: deals done, the deck's pieces left, the per-shape reserves."""
    cdef int32_t* v = deck_region(core)
    cdef uint64_t h = mix64(<uint64_t>(v[0] + 1 + 4096 * v[2] + 1048576 * v[3])
                            * <uint64_t>0xC2B2AE3D27D4EB4FULL + 5151)
    cdef int k
    for k in range(core.tab.K):
        h ^= mix64(<uint64_t>(v[DECK_K0 + k] + 1) * <uint64_t>0x165667B19E3779F9ULL + <uint64_t>k)
    return h ^ shape_reserves_hash(core)


# -- what each seat sees -----------------------------------------------------------


cdef bint knows_colour(TTTCore core, int player, int colour) noexcept:
    return (core.tab.seat_mask[player] >> colour) & 1


cdef object deck_view_text(TTTCore core, int player):
    """The whole board (every played piece is face up), the status, the
    per-shape reserves of the viewer's own colours and only the count of
    the others', and how many pieces the deck still holds."""
    tab = core.tab
    every = core.shape_reserves()
    parts = []
    for c, (name, per_shape) in enumerate(every.items()):
        if knows_colour(core, player, c):
            shown = " ".join(f"{k}:{n}" for k, n in per_shape.items() if n)
            parts.append(f"{name} {shown or 'none'}")
        else:
            parts.append(f"{name} {core.reserve[c]} piece(s)")
    return (f"player {player} sees:\n{position_text(core)}\nreserves: {'; '.join(parts)}\n"
            f"deck: {deck_left(core)} piece(s) left")


cdef object deck_view_tensor(TTTCore core, int player):
    """``observation()`` with the per-shape reserves of the colours the
    viewer does not own set to -1 (their totals stay), then the deck's
    pieces left, then the viewer one-hot."""
    tab = core.tab
    obs = observation_planes(core)
    base = len(obs) - planes_after_shapes(core) - tab.C * tab.K     # where the per-shape reserves start
    for c in range(tab.C):
        if not knows_colour(core, player, c):
            for k in range(tab.K):
                obs[base + c * tab.K + k] = -1.0
    me = [0.0] * tab.nplayers
    me[player] = 1.0
    return obs + [float(deck_left(core))] + me


cdef int seen_entry(TTTCore core, int player, int i, int* who) noexcept:
    """Log entry i as ``player`` sees it: its action, or -1 for another
    seat's dealt piece; ``who`` gets the entry's who."""
    cdef int32_t e = deck_region(core)[DECK_LOG0 + i]
    who[0] = e >> 20
    if DEAL_WHO <= who[0] < COMMON_WHO and who[0] - DEAL_WHO != player:
        return -1
    return e & 0xFFFFF


cdef object deck_history_text(TTTCore core, int player):
    cdef int i, a, who
    names = core.shape_names()
    out = []
    for i in range(deck_region(core)[1]):
        a = seen_entry(core, player, i, &who)
        if who >= DEAL_WHO and who < COMMON_WHO:
            out.append(f"deal>{who - DEAL_WHO}:" + (names[a] if a >= 0 else "?"))
        elif who == COMMON_WHO:
            out.append(f"common:{names[a]}")
        elif who == CHANCE_WHO:
            out.append(f"chance:{a}")
        else:
            out.append(f"{who}:{a}")
    return "history: " + " ".join(out)


cdef object deck_history_tensor(TTTCore core, int player):
    """Per log entry (deck_cap of them): who + 1 and action + 1 (0 for a
    dealt piece the viewer does not see; 0, 0 past the last entry)."""
    cdef int i, a, who
    hist = [0.0] * (2 * core.tab.deck_cap)
    for i in range(deck_region(core)[1]):
        a = seen_entry(core, player, i, &who)
        hist[2 * i] = float(who + 1)
        hist[2 * i + 1] = float(a + 1)
    return hist


cdef object deck_information_state_text(TTTCore core, int player):
    return deck_view_text(core, player) + "\n" + deck_history_text(core, player)


cdef object deck_information_state_tensor(TTTCore core, int player):
    return deck_view_tensor(core, player) + deck_history_tensor(core, player)

# Setup and phases: pre-placed pieces and reserves come with the tables
# (_geometry.pxi); here are the phases, who plays in each, the locks (locked
# cells of a phase, and the spaces' per-seat entry and exit locks), the fold
# rule, and the stalemate that advances the phase. Included by _engine.pyx;
# functions take the core (or the tables) first. Rules:
# docs/rules/ttt/phases.md.
#
# The per-phase tables live in ``Tables``; a position keeps its phase, who
# folded, and ``plock``, the current phase's locked cells (NULL when it has
# none, so rule sets without phase locks pay one pointer test). The list of
# free targets always means "free in this phase" and is rebuilt when a phase
# starts.

from libc.stdlib cimport malloc
from libc.stdint cimport uint8_t
from games.ttt.codes cimport END_STALEMATE, FOLD_LESS_THAN_MOST, ORDER_SEQUENTIAL


cdef void seat_lock_tables(Tables tab, object locks) except *:
    """Spaces: copy the compiled per-seat entry/exit masks (see
    games/ttt/spaces.py); rule sets without them keep NULL tables."""
    cdef int i, c
    tab.any_seat_lock = locks is not None
    if locks is None:
        return
    entries, exits = locks
    tab.ph_entry = <uint8_t*>malloc(tab.nphases * tab.S)
    tab.ph_exit = <uint8_t*>malloc(tab.nphases * tab.S)
    if not (tab.ph_entry and tab.ph_exit):
        raise MemoryError()
    for i in range(tab.nphases):
        for c in range(tab.S):
            tab.ph_entry[i * tab.S + c] = entries[i][c]
            tab.ph_exit[i * tab.S + c] = exits[i][c]


cdef void enter_phase(TTTCore core, int k, bint first=False) noexcept:
    """Start phase k: its locks decide which targets are free; the first
    seat in turn order that plays in it moves first. ``first``: the game's
    start, where no phase ends, so nothing is seen before phase k's locks
    are in force (a refresh there ran with no phase or exit locks set and
    showed a seat its pre-placed pieces on cloaked spaces that those locks
    keep it from moving; being sticky, they stayed seen)."""
    cdef Tables tab = core.tab
    cdef int t
    if core.seen != NULL and not first:
        refresh_seen(core)       # what was seen in the ending phase stays seen
    core.phase = k
    set_phase_locks(core)
    if core.seen != NULL:
        refresh_seen(core)
    core.num_free = 0
    for t in range(tab.T):
        if target_free(core, t):
            free_add(core, t)
    core.passes = 0
    core.left = tab.ppt
    core.offered = False
    if tab.ph_order[k] != ORDER_SEQUENTIAL:    # the phase is played in rounds
        start_round(core)
        return
    core.seat = tab.seats - 1
    if not advance_seat(core):
        reach_stalemate(core)
        return
    start_turn(core)


cdef void set_phase_locks(TTTCore core) noexcept:
    core.plock = (core.tab.ph_lock + core.phase * core.tab.S
                  if core.tab.ph_has_lock[core.phase] else NULL)
    set_seat_locks(core)


cdef inline void set_seat_locks(TTTCore core) noexcept:
    """Spaces: point at the current phase's per-seat entry/exit masks."""
    if core.tab.any_seat_lock:
        core.pentry = core.tab.ph_entry + core.phase * core.tab.S
        core.pexit = core.tab.ph_exit + core.phase * core.tab.S
    else:
        core.pentry = NULL
        core.pexit = NULL


cdef bint locked_now(TTTCore core, int c):
    return core.tab.locked[c] or (core.plock != NULL and core.plock[c]) or (
        core.tab.nboards > 1 and board_closed(core, c))       # boards: decided boards are locked


cdef inline bint may_enter(TTTCore core, int seat, int t) noexcept:
    """Spaces: whether ``seat``'s entry into target t's landing cell is not
    locked (sticky/exclusive/per-player locks)."""
    cdef int c
    if core.pentry == NULL:
        return True
    c = t + core.tab.XY * core.top[t] if core.tab.gravity else t
    return not ((core.pentry[c] >> seat) & 1)


cdef bint can_place_with_entry_locks(TTTCore core, int seat) noexcept:
    """Spaces: ``can_place`` when entry locks differ per seat: some free
    target must also be open to this seat."""
    cdef int c, i
    cdef bint colour = False
    for c in range(core.tab.C):
        if (core.tab.seat_mask[seat] >> c) & 1 and core.reserve[c] > 0:
            colour = True
    if not colour:
        return False
    for i in range(core.num_free):
        if may_enter(core, seat, core.freel[i]):
            return True
    return False


cdef inline bint plays(TTTCore core, int s) noexcept:
    """Whether seat s takes turns in the current phase (not locked, not folded)."""
    return ((core.tab.ph_active[core.phase] & ~core.folded) >> s) & 1


cdef int num_playing(TTTCore core) noexcept:
    cdef int s, n = 0
    for s in range(core.tab.seats):
        n += plays(core, s)
    return n


cdef void reach_stalemate(TTTCore core) noexcept:
    """The specification: "stalemate advances the phase"; in the last phase the
    stalemate rule decides. The ending phase's fold rule applies first."""
    if core.phase + 1 < core.tab.nphases:
        if core.tab.ph_fold[core.phase] == FOLD_LESS_THAN_MOST:
            fold_less_than_most(core)
        enter_phase(core, core.phase + 1, False)
    else:
        finish_stalemate(core, END_STALEMATE)


cdef int committed_pieces(TTTCore core, int s) noexcept:
    """Pieces of seat s's colours locked against exit for it (on cells
    locked for the current phase)."""
    cdef Tables tab = core.tab
    cdef int c, n = 0
    if core.pexit != NULL:               # spaces: sticky/exclusive/exit locks count too
        return committed_by_seat_locks(core, s)
    if core.plock == NULL:
        return 0
    for c in range(tab.S):
        if core.plock[c] and core.cell[c] and (tab.seat_mask[s] >> (core.cell[c] - 1)) & 1:
            n += 1
    return n


cdef int committed_by_seat_locks(TTTCore core, int s) noexcept:
    """Spaces: pieces of seat s's colours on cells locked against exit for
    s in the ending phase: its phase locks, sticky spaces, spaces exclusive
    to others, and exit locks naming s."""
    cdef Tables tab = core.tab
    cdef int c, n = 0
    for c in range(tab.S):
        if core.cell[c] and (tab.seat_mask[s] >> (core.cell[c] - 1)) & 1 and (
                (core.plock != NULL and core.plock[c]) or (core.pexit[c] >> s) & 1):
            n += 1
    return n


cdef void fold_less_than_most(TTTCore core) noexcept:
    """"Less-than-most committed pieces folds": of the players (never
    Chaos), only those with the most committed pieces do not fold."""
    cdef int s, best = 0
    cdef int count[MAX_SEATS]
    for s in range(core.tab.nplayers):
        count[s] = committed_pieces(core, s)
        if count[s] > best:
            best = count[s]
    for s in range(core.tab.nplayers):
        if count[s] < best:
            core.folded |= 1 << s

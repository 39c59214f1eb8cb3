# Covers inside cloaked rounds: what each seat learns of a simultaneous or
# single round in which pieces capture by covering. Included by _engine.pyx
# after _cloaked_stack_covers.pxi; functions take the core (or the tables)
# first. Rules: docs/rules/ttt/cloaking.md ("Covers in cloaked rounds").
#
# The specification: "In simultaneous play, each player sees the board as it
# was at the beginning of the round and registers a “plan” based on what
# moves would be legal if that player were first to move."; "every piece
# they have attempted to cover". Every plan is judged on the true board of
# the round's start (begin_cloaked_round): a cover the true rules allow there
# is no attempt; the round then resolves as an uncloaked one (the lifts, then
# the landings, each cover judged on the pieces there). A round changes many
# cells at once, in an order its seats cannot see, so each seat reads, with
# the round's last event, every cell whose look changed for it over the
# round (its view when it planned against its view after): exactly the
# change of its observation, so it leaks nothing and keeps perfect recall. A
# planner whose plan covered also reads the pieces its cover met, as they
# stood ("every piece they have attempted to cover"), as a sequential
# mover reads its cover's verdict.
#
# The reserves are public (a reincarnation or a spent piece changes them), so
# the round's last event also tells the reserves after it as the seat's
# observation shows them (totals; per shape for its own colours).
#
# The region (``round_log0``), per logged event: S words before the round, S
# words after it, the per-shape reserves after it (C*K words), 1 when the
# event ends a round, then per seat its covering plan's target + 1 (0: no
# cover); written on the round's last event, 0 elsewhere. A cell's word is
# _cloaked_stack_covers.pxi's (colour code | global shape << 3 | the seats
# that fully see it << 6).


cdef void round_cover_log_layout(Tables tab) noexcept:
    """With cloaking, covers and a simultaneous or single phase: the region."""
    if tab.powers and tab.sim:
        tab.round_log_width = 2 * tab.S + tab.C * tab.K + 1 + tab.seats
        tab.round_log0 = tab.block
        tab.block += tab.loglen * tab.round_log_width


cdef inline void cell_words(TTTCore core, int16_t* out) noexcept:
    """Every cell's word as it stands (stack_column_words's format)."""
    cdef Tables tab = core.tab
    cdef int c, s, m
    for c in range(tab.S):
        out[c] = 0
        if core.cell[c]:
            m = 0
            for s in range(tab.seats):
                if fully_sees(core, s, c):
                    m |= 1 << s
            out[c] = core.cell[c] | (core.shp[c] << 3) | (m << 6)


cdef void begin_round_covers(TTTCore core) noexcept:
    """Before the round resolves (and before its attempts reveal): every
    cell as each seat saw it when planning, kept in the slot of the round's
    first event; no plan has covered yet."""
    cdef Tables tab = core.tab
    cdef int16_t* log = core.mem + tab.log0
    cdef int n = log[0] + (log[1] << 15)
    core.round_covered = 0
    if n < tab.loglen:
        cell_words(core, core.mem + tab.round_log0 + n * tab.round_log_width)


cdef void round_cover_seen(TTTCore core, int s, int t, int c) noexcept:
    """Seat s's piece covered on target t (arrive() returned c, its cell or
    -1): remember the cover; on a flat board a defender that stays is seen
    by the planner ("attempted to cover"), an emptied space forgets (on
    stacks cover_stack keeps the masks)."""
    core.round_covered |= 1 << s
    if core.tab.gravity or c >= 0:
        return
    if core.cell[t]:
        core.seen[t] |= 1 << s
    else:
        core.seen[t] = 0


cdef void end_round_covers(TTTCore core, int first) noexcept:
    """After the round's plans are logged (events first..n-1; seen masks
    refreshed): move the words before the round to the last event's slot,
    write the words after the round, the reserves, and each covering
    plan's target."""
    cdef Tables tab = core.tab
    cdef int16_t* log = core.mem + tab.log0
    cdef int n = log[0] + (log[1] << 15), s, f, t
    cdef int16_t* before
    cdef int16_t* out
    if first >= tab.loglen or n <= first:
        return
    before = core.mem + tab.round_log0 + first * tab.round_log_width
    out = core.mem + tab.round_log0 + (n - 1) * tab.round_log_width
    if n - 1 != first:
        memcpy(out, before, tab.S * sizeof(int16_t))
        memset(before, 0, tab.round_log_width * sizeof(int16_t))
    cell_words(core, out + tab.S)
    memcpy(out + 2 * tab.S, core.sres, tab.C * tab.K * sizeof(int16_t))
    out[2 * tab.S + tab.C * tab.K] = 1
    for s in range(tab.seats):
        out[2 * tab.S + tab.C * tab.K + 1 + s] = 0
        if (core.round_covered >> s) & 1:
            plan_source_target(core, core.round_plan[s], &f, &t)
            out[2 * tab.S + tab.C * tab.K + 1 + s] = t + 1


cdef object round_changes(TTTCore core, int player, int i):
    """Event i's cells whose look changed for ``player`` over its round:
    (cell, before, after), each (colour, global shape or -1) or None; and
    the reserves after the round as it sees them (None: not a round's last
    event): per colour its total, or for its own colours the per-shape counts."""
    cdef int16_t* w
    tab = core.tab
    if not tab.round_log0:
        return [], None
    w = core.mem + tab.round_log0 + i * tab.round_log_width
    out = []
    for c in range(tab.S):
        if w[c] == 0 and w[tab.S + c] == 0:
            continue
        before, after = seen_word(core, player, w[c]), seen_word(core, player, w[tab.S + c])
        if before != after:
            out.append((c, before, after))
    reserves = None
    if w[2 * tab.S + tab.C * tab.K]:      # the round's last event
        reserves = []
        for col in range(tab.C):
            counts = [w[2 * tab.S + col * tab.K + k] for k in range(tab.K)]
            reserves.append(counts if (tab.seat_mask[player] >> col) & 1 else sum(counts))
    return out, reserves


cdef object round_cover_met(TTTCore core, int player, int i):
    """The target of ``player``'s covering plan in the round that event i
    ends and the pieces its cover met there as they stood, bottom up
    ((colour, global shape) each), or None."""
    cdef int16_t* w
    tab = core.tab
    if not tab.round_log0:
        return None
    w = core.mem + tab.round_log0 + i * tab.round_log_width
    t = w[2 * tab.S + tab.C * tab.K + 1 + player] - 1
    if t < 0:
        return None
    met = []
    for z in range(tab.Z if tab.gravity else 1):
        word = w[t + tab.XY * z]
        if tab.locked[t + tab.XY * z]:
            met = []                          # out of reach under a locked space
        elif word and not (tab.seat_mask[player] >> ((word & 7) - 1)) & 1:
            met.append(((word & 7) - 1, (word >> 3) & 7))
    return t, met


cdef object round_line(TTTCore core, int player, int i):
    """What ``player`` reads of the round that event i ends: every cell
    whose look changed for it, before and after, and the reserves after it."""
    from games.ttt.schema import SHAPES_ALL
    tab = core.tab
    changes, reserves = round_changes(core, player, i)
    if reserves is None:
        return ""
    parts = []
    for c, before, after in changes:
        x, y, z = core.coords(c)
        looks = [column_text(tab.colour_names, [p])[1:-1] for p in (before, after)]
        parts.append(f"({x},{y},{z}) {looks[0]} -> {looks[1]}")
    text = "; the round changed what it sees: " + (", ".join(parts) if parts else "nothing")
    shown = []
    for col, r in enumerate(reserves):
        if isinstance(r, list):
            r = "(" + ", ".join(f"{SHAPES_ALL[tab.shape_global[k]]} {r[k]}" for k in range(tab.K)) + ")"
        shown.append(f"{tab.colour_names[col]} {r}")
    met = round_cover_met(core, player, i)
    if met is not None:
        text += f"; its cover on {target_name(core, met[0])} met {column_text(tab.colour_names, met[1])}"
    return text + "; reserves after it: " + ", ".join(shown)


cdef object round_row_width(Tables tab):
    if not tab.round_log0:
        return 0
    return (2 * tab.S * (2 * tab.C + MAX_SHAPES) + 1 + tab.C + tab.C * tab.K
            + tab.T + tab.Z * (tab.C + MAX_SHAPES))


cdef object round_row(TTTCore core, int player, int i):
    """Event i's round changes in a tensor row: per cell, before and after,
    the colour seen fully (C), seen by colour only (C), the shape (global),
    for the cells whose look changed for ``player`` (0 elsewhere); then
    whether the event ends a round, the reserve totals (C), the player's
    own colours' per-shape counts (C*K, 0 for the others), and its cover's
    target (T) and the pieces it met, per height colour (C) and shape."""
    tab = core.tab
    per = 2 * tab.C + MAX_SHAPES
    row = [0.0] * round_row_width(tab)
    changes, reserves = round_changes(core, player, i)
    for c, before, after in changes:
        for h, p in enumerate((before, after)):
            if p is None:
                continue
            at = (h * tab.S + c) * per
            if p[1] < 0:
                row[at + tab.C + p[0]] = 1.0
            else:
                row[at + p[0]] = 1.0
                row[at + 2 * tab.C + p[1]] = 1.0
    if reserves is not None:
        at = 2 * tab.S * per
        row[at] = 1.0
        for col, r in enumerate(reserves):
            row[at + 1 + col] = float(sum(r) if isinstance(r, list) else r)
            if isinstance(r, list):
                for k in range(tab.K):
                    row[at + 1 + tab.C + col * tab.K + k] = float(r[k])
    met = round_cover_met(core, player, i)
    if met is not None:
        at = 2 * tab.S * per + 1 + tab.C + tab.C * tab.K
        row[at + met[0]] = 1.0
        for z, (col, shape) in enumerate(met[1]):
            row[at + tab.T + z * (tab.C + MAX_SHAPES) + col] = 1.0
            row[at + tab.T + z * (tab.C + MAX_SHAPES) + tab.C + shape] = 1.0
    return row

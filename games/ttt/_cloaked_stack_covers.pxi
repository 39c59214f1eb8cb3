# Covers on stacks with cloaked spaces: what each seat learns of a placement
# or move on a stacks board where pieces capture by covering. Included by
# _engine.pyx after _cloaked_events.pxi; functions take the core (or the
# tables) first. Rules: docs/rules/ttt/cloaking.md ("Captures on stacks with
# cloaked spaces").
#
# The specification: "Players can fully see [...] every piece they have
# previously fully seen, and every piece they have attempted to cover." On
# stacks a cover's defenders are the whole stack (captures.md), partly hidden
# from the mover; the true stack judges the cover (cover_stack), every piece
# that stays keeps who saw it, and the mover fully sees every piece left from
# the cover's base up. A stack cover changes several heights of one column
# at once (captives leave, the pieces above them fall, converted ones change
# colour), so instead of a verdict each seat reads, with every placement and
# move (attempts too), the columns of the event's target and source whose
# look changed for it, before and after, and the reserve gains (public, the
# shapes only for the captor colour's players). What it reads is exactly
# what changed in its observation, so the event tells nothing it does not
# see, and its information state keeps perfect recall.
#
# The region (``stack_log0``), per logged event: the target column before and
# after, the source column before and after (Z words each; 0 for a
# placement's source), one word per cell: colour code (bits 0-2) | global
# shape (3-5) | the seats that fully see it (6-10); then the gaining colour
# + 1 and per local shape the pieces it gained (K words).

from games.ttt.codes cimport CLOAK_OBSCURES


cdef void stack_cover_log_layout(Tables tab) noexcept:
    """With cloaking, covers and a stacks board: the region after the log."""
    if tab.powers and tab.gravity:
        tab.stack_log_width = 4 * tab.Z + 1 + tab.K
        tab.stack_log0 = tab.block
        tab.block += tab.loglen * tab.stack_log_width


cdef void stack_column_words(TTTCore core, int t, int16_t* out) noexcept:
    """The Z words of column t as it stands (-1: no column: zeros)."""
    cdef Tables tab = core.tab
    cdef int z, c, s, m
    for z in range(tab.Z):
        out[z] = 0
        if t < 0:
            continue
        c = t + tab.XY * z
        if core.cell[c] == 0:
            continue
        m = 0
        for s in range(tab.seats):
            if fully_sees(core, s, c):
                m |= 1 << s
        out[z] = core.cell[c] | (core.shp[c] << 3) | (m << 6)


cdef void begin_stack_event(TTTCore core, int actor, int kind, int t, int f, int16_t* words) noexcept:
    """Before a placement or move on a cloaked stacks board with covers:
    the target's and the source's columns (words[0:Z], [2Z:3Z]), the
    reserves, and the arriving piece's seen mask for cover_stack."""
    cdef Tables tab = core.tab
    cdef int src
    stack_column_words(core, t, words)
    stack_column_words(core, f if kind == 1 else -1, words + 2 * tab.Z)
    memcpy(core.sres_before_cover, core.sres, tab.C * tab.K * sizeof(int16_t))
    core.cover_landed = -2
    core.cover_seen = 1 << actor
    if kind == 1 and core.top[f] > 0:
        src = f + tab.XY * (core.top[f] - 1)
        core.cover_seen = core.seen[src]


cdef void log_stack_event(TTTCore core, int action, int kind, int t, int f, int16_t* words) noexcept:
    """After the event (logged last, seen masks refreshed): the columns
    after it and the reserve gains, beside the event."""
    cdef Tables tab = core.tab
    cdef int16_t* log = core.mem + tab.log0
    cdef int n = log[0] + (log[1] << 15), c, k, d, meta, col = -1, sh = -1, ch
    cdef int16_t* out
    if n == 0:
        return
    out = core.mem + tab.stack_log0 + (n - 1) * tab.stack_log_width
    stack_column_words(core, t, words + tab.Z)
    stack_column_words(core, f if kind == 1 else -1, words + 3 * tab.Z)
    memcpy(out, words, 4 * tab.Z * sizeof(int16_t))
    meta = log[3 + 3 * (n - 1)]
    if core.cover_landed != -2:
        # a cover: the mover saw every piece it attempted to cover, as the stack stood
        for k in range(cover_base(core, t), tab.Z):
            if out[k]:
                out[k] |= 1 << (6 + (meta & 7))
    if kind == 0 and not (meta >> 3) & 1:     # a real placement spent one piece
        sh = (action // tab.T) // tab.choices
        ch = (action // tab.T) % tab.choices
        col = ch if tab.choices > 1 else tab.colour_of_seat[meta & 7]
    for k in range(tab.K + 1):
        out[4 * tab.Z + k] = 0
    for c in range(tab.C):           # one colour gains at most (validation: no pot splits)
        for k in range(tab.K):
            d = core.sres[c * tab.K + k] - core.sres_before_cover[c * tab.K + k]
            if c == col and k == sh:
                d += 1
            if d > 0:
                out[4 * tab.Z] = c + 1
                out[4 * tab.Z + 1 + k] = d


cdef object seen_word(TTTCore core, int player, int w):
    """A logged cell word as ``player`` saw it: (colour, global shape, or
    -1 when it saw the colour only), or None where it saw no piece."""
    code, shape, m = w & 7, (w >> 3) & 7, (w >> 6) & 31
    if code == 0:
        return None
    if (m >> player) & 1:
        return (code - 1, shape)
    if core.tab.cloaking == CLOAK_OBSCURES:
        return (code - 1, -1)
    return None


cdef object seen_column(TTTCore core, int player, int16_t* words):
    """A column of logged words as ``player`` saw it, bottom up (seen_word
    per height)."""
    return [seen_word(core, player, words[z]) for z in range(core.tab.Z)]


cdef object stack_changes(TTTCore core, int player, int i):
    """Event i's columns whose look changed for ``player``: (column,
    before, after) in column order, and the gain (colour or -1, per local
    shape counts)."""
    cdef int16_t* w
    cdef int src = 0
    tab = core.tab
    if not tab.stack_log0 or i >= logged_event_count(core):
        return [], (-1, [])
    w = core.mem + tab.stack_log0 + i * tab.stack_log_width
    action = logged_event(core, i)[0]
    cols = [(action % tab.T, seen_column(core, player, w), seen_column(core, player, w + tab.Z))]
    if action_kind(core, action) == 1:
        src = 2 * tab.Z
        cols.append((move_source(core, action), seen_column(core, player, w + src),
                     seen_column(core, player, w + src + tab.Z)))
    out = [(t, before, after) for t, before, after in sorted(cols) if before != after]
    gain = (w[4 * tab.Z] - 1, [w[4 * tab.Z + 1 + k] for k in range(tab.K)])
    return out, gain


cdef object stack_line(TTTCore core, int player, int i):
    """What ``player`` reads of event i's columns and reserve gain."""
    from games.ttt.schema import SHAPES_ALL
    tab = core.tab
    changes, (col, counts) = stack_changes(core, player, i)
    text = ""
    for t, before, after in changes:
        text += (f"; {target_name(core, t)} looked {column_text(tab.colour_names, before)}, "
                 f"now {column_text(tab.colour_names, after)}")
    if col >= 0 and sum(counts):
        shapes = ""
        if (tab.seat_mask[player] >> col) & 1:
            shapes = " (" + ", ".join(
                sorted(SHAPES_ALL[tab.shape_global[k]] for k in range(tab.K) for _ in range(counts[k]))) + ")"
        text += f"; {tab.colour_names[col]}'s reserve gains {sum(counts)}{shapes} (reincarnated)"
    return text


def column_text(colour_names, column):
    """A column as a seat saw it, bottom up: "colour shape", "colour ?"
    (colour only) or "-" (no piece seen)."""
    from games.ttt.schema import SHAPES_ALL
    return "[" + ", ".join(
        "-" if p is None else colour_names[p[0]] + (" ?" if p[1] < 0 else " " + SHAPES_ALL[p[1]])
        for p in column) + "]"


cdef object stack_row_width(Tables tab):
    return 2 * (tab.T + 2 * tab.Z * (2 * tab.C + MAX_SHAPES)) + tab.C + tab.K if tab.stack_log0 else 0


cdef object stack_row(TTTCore core, int player, int i):
    """Event i's columns and gain in a tensor row: two slots (the changed
    columns in order), each the column one-hot (T) then before and after,
    per height, the colour seen fully (C), seen by colour only (C) and the
    shape (MAX_SHAPES, global); then the gain at the colour (C) and, for its
    players, per local shape (K)."""
    tab = core.tab
    row = [0.0] * stack_row_width(tab)
    changes, (col, counts) = stack_changes(core, player, i)
    per = 2 * tab.C + MAX_SHAPES
    for j, (t, before, after) in enumerate(changes):
        base = j * (tab.T + 2 * tab.Z * per)
        row[base + t] = 1.0
        for h, column in enumerate((before, after)):
            for z, p in enumerate(column):
                if p is None:
                    continue
                at = base + tab.T + (h * tab.Z + z) * per
                if p[1] < 0:
                    row[at + tab.C + p[0]] = 1.0
                else:
                    row[at + p[0]] = 1.0
                    row[at + 2 * tab.C + p[1]] = 1.0
    if col >= 0:
        at = 2 * (tab.T + 2 * tab.Z * per)
        row[at + col] = float(sum(counts))
        if (tab.seat_mask[player] >> col) & 1:
            for k in range(tab.K):
                row[at + tab.C + k] = float(counts[k])
    return row


cdef bint sees_every_defender(TTTCore core, int seat, int t) noexcept:
    """Obscurity on stacks: whether ``seat`` fully sees every piece a
    cover on stack t would cover (so it sees that the cover captures)."""
    cdef int i, n
    cdef int cells[CP_MAX_STACK]
    n = defenders(core, seat, t, cells)
    for i in range(n):
        if not fully_sees(core, seat, cells[i]):
            return False
    return True

# Cloaked events: what each seat sees of events. A cloaked rule set logs
# every event, append-only, with what each seat saw of it, so information
# states keep perfect recall; covers, reincarnations and the captives of
# jumps and surrounds add what each seat learned of them; with hidden turns
# a seat's information state leaves out the turns it saw nothing of. What
# each seat sees of the position is _cloaking.pxi. Included by
# _engine.pyx; functions take the core (or the tables) first. Rules:
# docs/rules/ttt/cloaking.md ("Readings of what is seen", "Captures with
# cloaked spaces", "Jumps and surrounds with cloaked spaces", "Hidden turns").
#
# The log (``Tables.log0``): the count as two int16, then per event three
# words: the action; actor | attempt << 3 | a 2-bit view class per seat from
# bit 4 (0 hidden: only that the actor placed its colour, moved or
# attempted; 1 all of it; 2 a piece it had not seen arriving on a space it
# sees; 3 colour and place, not shape); the phase after it, whose higher
# bits a cover amends (its verdict, its open target, and per seat the pieces
# it saw vanish). Beside the log: one reincarnation word per event
# (``rlog0``) and, with jumps or surrounds, one captives word per event and
# cell (``captives_log0``).

import re
from libc.stdint cimport int16_t
from games.ttt.codes cimport CLOAK_OBSCURES


cdef void reincarnation_log_layout(Tables tab) noexcept:
    """With cloaking and a reincarnating shape, one word per logged event
    after the log: what a cover put into a reserve (colour + 1 | count <<
    3 | global shape << 5; 0: nothing), since the reserves are public and
    the event must say what changed them."""
    cdef int k
    for k in range(tab.K):
        if tab.powers and reincarnated_count(tab.shape_result[k]):
            tab.rlog0 = tab.block
            tab.block += tab.loglen
            return


cdef void captives_log_layout(Tables tab) noexcept:
    """With cloaking and a shape that jumps or surrounds
    (flat boards), one word per logged event and cell after the log: what
    the event's jump or surround took there (``log_captives``), since
    each player must read, with the event, the changes of its view it
    saw (docs/rules/ttt/cloaking.md, "Jumps and surrounds with cloaked spaces")."""
    if (tab.jumps or tab.surrounds) and not tab.gravity:
        tab.captives_log0 = tab.block
        tab.block += tab.loglen * tab.S


cdef void log_event(TTTCore core, int action, int actor, bint attempt, int kind, int land,
                    int before) noexcept:
    """Append the event with what each seat saw of it: 1 all of it, 0
    only that ``actor`` placed (its colour: reserves are public), moved or
    attempted, 2 a piece it had not seen arriving on a space it sees."""
    cdef Tables tab = core.tab
    cdef int16_t* log = core.mem + tab.log0
    cdef int n = log[0] + (log[1] << 15)
    cdef int s, cls, meta
    if n >= tab.loglen:
        return
    meta = actor | (attempt << 3)
    for s in range(tab.seats):
        if s == actor:
            cls = 1
        elif attempt:
            cls = 0
        elif kind == 0:
            cls = 1 if land >= 0 and sees_piece(core, s, land) else 0     # (-1: no piece landed)
        elif kind == 1:
            cls = (1 if (before >> s) & 1 else 2) if land >= 0 and sees_piece(core, s, land) else 0
        else:
            cls = 1
        if cls == 1 and kind == 0 and tab.shaped and land >= 0 and not fully_sees(core, s, land):
            cls = 3      # obscurity shows the colour, not the shape
        elif cls != 0 and kind == 1 and land >= 0 and is_replacement_move(core, action) \
                and not fully_sees(core, s, land):
            cls = 3      # the move, not the shape its piece became
        meta |= cls << (4 + 2 * s)
    log[2 + 3 * n] = action
    log[3 + 3 * n] = meta
    log[4 + 3 * n] = core.phase
    n += 1
    log[0] = n & 0x7FFF
    log[1] = n >> 15


cdef object logged_event_count(TTTCore core):
    cdef int16_t* log = core.mem + core.tab.log0
    return log[0] + (log[1] << 15)


cdef object logged_event(TTTCore core, int i):
    """(action, actor, attempt, per-seat view class, phase after) of event i."""
    cdef int16_t* log = core.mem + core.tab.log0 + 2 + 3 * i
    meta = log[1]
    return (log[0], meta & 7, (meta >> 3) & 1, [(meta >> (4 + 2 * s)) & 3 for s in range(core.tab.seats)],
            log[2] & 15)     # the word's higher bits are a cover's (logged_cover)


cdef object action_kind(TTTCore core, int action):
    tab = core.tab
    if tab.nstk and tab.stk0 <= action < tab.stk0 + tab.nstk:
        return 1                     # a by-stack move
    if is_replacement_move(core, action):
        return 1                     # a move naming its replacement
    return 0 if action < tab.nplace else (1 if action < tab.move0 + tab.nmove else 2)


cdef object event_line(TTTCore core, int player, int i):
    tab = core.tab
    action, actor, attempt, cls, phase = logged_event(core, i)
    who = "Chaos" if tab.chaos and actor == tab.seats - 1 else f"player {actor}"
    kind = action_kind(core, action)
    if attempt and actor == player:
        text = f"attempted {action_text(core, actor, action)}, which only revealed what is there"
    elif attempt:
        text = ("attempted a move, which only revealed a hidden piece"
                + (" or wall" if tab.walls0 else "") + " to it")     # (walls: "Invisible walls")
    elif cls[player] == 1:
        text = action_text(core, actor, action)
    elif cls[player] == 3 and kind == 1:     # the move, not its replacement
        text = action_text(core, actor, without_shape(core, action)) + " (shape not seen)"
    elif cls[player] == 3:       # colour and place, not shape
        text = action_text(core, actor, action).rsplit(" ", 1)[0] + " (shape not seen)"
    elif cls[player] == 2:
        text = f"moved a piece not seen before to {target_name(core, (action - tab.move0) % tab.T)}"
    elif kind == 0:
        colour = action_text(core, actor, action).split("@")[0]
        text = f"placed {colour} on a space hidden from player {player}"
    else:
        text = f"moved a piece hidden from player {player}"
    if tab.powers:
        text += cover_line(core, player, i, action)
        text += reincarnation_line(core, player, i)
    if tab.captives_log0:      # captives told by the event, not read off today's board
        text = re.sub(r" over \([^)]*\)", "", text) + captives_line(core, player, i, actor)
    if tab.stack_log0:
        text += stack_line(core, player, i)
    if tab.round_log0:
        text += round_line(core, player, i)
    if tab.nphases > 1:
        text += f" [phase {phase + 1}]"
    return f"{i + 1}. {who}: {text}"


cdef object event_rows(TTTCore core, int player):
    """Per logged event (up to the game's length bound; later rows 0):
    the actor (one-hot over seats), flags (attempt, hidden, arrived),
    the action (one-hot) when the player saw all of it, the arrival
    target of an unseen piece, the colour of a hidden placement, and the
    phase after the event (one-hot)."""
    tab = core.tab
    width = tab.seats + 3 + tab.num_actions + tab.T + tab.C + tab.nphases
    extra = 3 + 2 * tab.T if tab.powers else 0       # cover_row
    extra2 = tab.C + tab.K if tab.rlog0 else 0        # reincarnation_row
    extra3 = 2 * tab.T + tab.C + tab.K if tab.captives_log0 else 0     # captives_row
    width += extra + extra2 + extra3
    extra4 = stack_row_width(tab) + round_row_width(tab)     # stack_row, round_row: after the rest
    out = [0.0] * ((width + extra4) * tab.loglen)
    for i in range(logged_event_count(core)):
        action, actor, attempt, cls, phase = logged_event(core, i)
        row = i * (width + extra4)
        out[row + actor] = 1.0
        base = row + tab.seats
        out[base] = float(attempt)
        if attempt and actor != player:
            pass
        elif cls[player] == 1:
            out[base + 3 + action] = 1.0
        elif cls[player] == 3:   # the placement with its shape dropped
            out[base + 3 + without_shape(core, action)] = 1.0
        elif cls[player] == 2:
            out[base + 2] = 1.0
            out[base + 3 + tab.num_actions + (action - tab.move0) % tab.T] = 1.0
        else:
            out[base + 1] = 1.0
            if action_kind(core, action) == 0:
                ch = action // tab.T
                colour = ch if tab.choices > 1 else tab.colour_of_seat[actor]
                out[base + 3 + tab.num_actions + tab.T + colour] = 1.0
        out[base + 3 + tab.num_actions + tab.T + tab.C + phase] = 1.0
        if extra:
            out[row + width - extra - extra2 - extra3:row + width - extra2 - extra3] = \
                cover_row(core, player, i, action)
        if extra2:
            out[row + width - extra2 - extra3:row + width - extra3] = reincarnation_row(core, player, i)
        if extra3:
            out[row + width - extra3:row + width] = captives_row(core, player, i, actor)
        if extra4:
            out[row + width:row + width + extra4] = \
                (stack_row(core, player, i) if tab.stack_log0 else []) + \
                (round_row(core, player, i) if tab.round_log0 else [])
    return out


# -- what each seat saw of a cover -------------------------------------------------
# What each seat learns of a cover (flat boards) is logged in the event's
# phase word: the verdict (shown to the mover, and to everyone when the
# target is not cloaked, or under obscurity, where every player sees where a
# cover was made, by which colour, and what colour stays), and per seat
# whether a piece it saw vanished from the target or from the mover's source.


cdef void log_cover(TTTCore core, int actor, int kind, int before, int* cover) noexcept:
    """Amend the cover's event (the last one logged): verdict, open
    target (then every seat saw all of it), and per seat the pieces it saw
    vanish (bit 7 + 2s: from the target, 8 + 2s: the mover from its source)."""
    cdef int16_t* log = core.mem + core.tab.log0
    cdef int n = log[0] + (log[1] << 15), s, w, meta
    if n == 0:
        return
    w = log[4 + 3 * (n - 1)] | (cover[4] << 4) | (cover[2] << 6)
    meta = log[3 + 3 * (n - 1)]
    for s in range(core.tab.seats):
        if s == actor:
            continue
        if cover[2]:
            meta = (meta & ~(3 << (4 + 2 * s))) | (1 << (4 + 2 * s))
        if (cover[1] >> s) & 1 and cover[4] != 2:
            w |= 1 << (7 + 2 * s)
        if kind == 1 and (before >> s) & 1 and cover[4] != 1:
            w |= 1 << (8 + 2 * s)
    log[3 + 3 * (n - 1)] = meta
    log[4 + 3 * (n - 1)] = w
    if core.tab.rlog0:
        log_reincarnation(core, actor, kind, n - 1)
    if core.tab.obscured_covers:
        log_obscured_cover(core, actor, n - 1)


cdef object logged_cover(TTTCore core, int i):
    """(verdict, open target, per seat: saw the target's piece vanish, saw
    the mover vanish from its source) of event i; verdict 0: no cover."""
    cdef int16_t* log = core.mem + core.tab.log0 + 2 + 3 * i
    w = log[2]
    return ((w >> 4) & 3, (w >> 6) & 1, [(w >> (7 + 2 * s)) & 1 for s in range(core.tab.seats)],
            [(w >> (8 + 2 * s)) & 1 for s in range(core.tab.seats)])


cdef object cover_line(TTTCore core, int player, int i, int action):
    """What ``player`` learns of event i's cover, as text ('' if nothing)."""
    verdict, opened, gone_t, gone_f = logged_cover(core, i)
    if verdict == 0:
        return ""
    tab = core.tab
    actor = logged_event(core, i)[1]
    if player == actor or opened:
        return ("", ", capturing the piece there", ", and was captured there",
                ", and both pieces were destroyed")[verdict]
    text = ""
    if gone_t[player]:
        text += f"; the piece player {player} saw on {target_name(core, action % tab.T)} is gone"
    if gone_f[player]:
        text += (f"; the piece player {player} saw on "
                 f"{target_name(core, move_source(core, action))} moved and is gone")
    return text


cdef object cover_row(TTTCore core, int player, int i, int action):
    """The cover's part of event i's tensor row: verdict one-hot (3) when
    ``player`` saw it, then the target and the source of a vanished
    piece, one-hot over the targets each."""
    tab = core.tab
    row = [0.0] * (3 + 2 * tab.T)
    verdict, opened, gone_t, gone_f = logged_cover(core, i)
    if verdict == 0:
        return row
    if player == logged_event(core, i)[1] or opened:
        row[verdict - 1] = 1.0
    else:
        if gone_t[player]:
            row[3 + action % tab.T] = 1.0
        if gone_f[player]:
            row[3 + tab.T + move_source(core, action)] = 1.0
    return row


cdef void log_obscured_cover(TTTCore core, int actor, int i) noexcept:
    """Under obscurity every player sees where a cover was made, by
    which colour, and what colour stays (so its verdict), but not the
    shapes it does not fully see: event i's verdict is public (the "open"
    bit) and a seat that would see the event as hidden sees it with the
    shape dropped (class 3)."""
    cdef int16_t* log = core.mem + core.tab.log0 + 2 + 3 * i
    cdef int meta = log[1], s
    for s in range(core.tab.seats):
        if s != actor and ((meta >> (4 + 2 * s)) & 3) == 0:
            meta |= 3 << (4 + 2 * s)
    log[1] = meta
    log[2] = log[2] | (1 << 6)


# -- reincarnation with cloaked spaces ---------------------------------------------
# The specification cloaks spaces ("which spaces are “cloaked”"; "every
# piece occupying a non-cloaked space"), not reserves, which sit beside the
# board: a captive "reincarnated (i.e. added to the captor’s reserves)"
# changes a public reserve. So every player learns, with the cover's event,
# that the captor's colour gained one piece (two for "reincarnate (x2)", three for x3),
# and the players of that colour, who know their per-shape reserves, also
# learn its shape; nobody learns where.


cdef void log_reincarnation(TTTCore core, int actor, int kind, int i) noexcept:
    """Write event i's reincarnation word: the per-shape reserves now
    against those before the cover (``sres_before_cover``), with the placed
    piece put back, give the one colour and shape that gained."""
    cdef Tables tab = core.tab
    cdef int16_t* log = core.mem + tab.log0 + 2 + 3 * i
    cdef int action = log[0], sh, ch, c, k, d, word = 0
    if kind == 0:
        sh = (action // tab.T) // tab.choices
        ch = (action % (tab.choices * tab.T)) // tab.T if tab.choices > 1 else tab.colour_of_seat[actor]
        core.sres_before_cover[ch * tab.K + sh] -= 1        # the placement's own spend
    for c in range(tab.C):
        for k in range(tab.K):
            d = core.sres[c * tab.K + k] - core.sres_before_cover[c * tab.K + k]
            if d > 0:
                word = (c + 1) | (d << 3) | (tab.shape_global[k] << 5)
    core.mem[tab.rlog0 + i] = word


cdef object logged_reincarnation(TTTCore core, int i):
    """(colour index, count, global shape) a cover of event i put into a
    reserve, or None."""
    if not core.tab.rlog0 or not core.mem[core.tab.rlog0 + i]:
        return None
    w = core.mem[core.tab.rlog0 + i]
    return ((w & 7) - 1, (w >> 3) & 3, w >> 5)


cdef object reincarnation_line(TTTCore core, int player, int i):
    """What ``player`` reads of event i's reincarnation: the colour and
    count for everyone, the shape for the players of that colour."""
    from games.ttt.schema import SHAPES_ALL
    got = logged_reincarnation(core, i)
    if got is None:
        return ""
    c, m, g = got
    shape = f" {SHAPES_ALL[g]}" if (core.tab.seat_mask[player] >> c) & 1 else ""
    return f"; {core.tab.colour_names[c]}'s reserve gains {m}{shape} (reincarnated)"


cdef object reincarnation_row(TTTCore core, int player, int i):
    """Event i's reincarnation in a tensor row: the count at the
    colour's entry (C), then the shape one-hot (K) for its players."""
    tab = core.tab
    row = [0.0] * (tab.C + tab.K)
    got = logged_reincarnation(core, i)
    if got is not None:
        c, m, g = got
        row[c] = float(m)
        if (tab.seat_mask[player] >> c) & 1:
            row[tab.C + tab.shape_local[g]] = 1.0
    return row


# -- the captives of jumps and surrounds ---------------------------------------------
# With the event every player reads the captives it saw (everyone's on open
# spaces; all of them for the mover): gone, or converted; reincarnations
# change public reserves, so everyone reads the count, the captor's colour
# the shapes.


cdef void log_captives(TTTCore core, int actor, int f, int t, int* snap) noexcept:
    """After it (logged as the last event): every cell other than the
    source and the target whose piece vanished or changed colour held a
    captive. Its word: the seats that saw it (bits 0-4), 1 gone / 2
    converted (bits 5-6), its global shape (7-9), the pieces its capture
    put into the captor's reserve (10-11), the captor's colour (12-13):
    the jumped space's (snap[2S]) by the result of the shape that jumped
    (snap[2S + 1]), the others' by the shape that landed and surrounded.
    The seen masks follow: a piece gone takes its mask; the mover fully
    sees a piece it converted (it captured it)."""
    cdef Tables tab = core.tab
    cdef int16_t* log = core.mem + tab.log0
    cdef int n = log[0] + (log[1] << 15), c, res, captor = 0, k, w
    if n == 0:
        return
    if core.cell[t]:
        captor = core.cell[t] - 1
    for c in range(tab.S):
        w = 0
        if snap[c] and c != f and c != t and core.cell[c] != (snap[c] & 255):
            res = 1 if core.cell[c] == 0 else 2
            w = snap[tab.S + c] | (res << 5) | ((snap[c] >> 8) << 7) | (captor << 12)
            if res == 1:
                k = snap[2 * tab.S + 1] if c == snap[2 * tab.S] else \
                    (tab.shape_local[core.shp[t]] if core.cell[t] else -1)
                if k >= 0:
                    w |= reincarnated_count(tab.shape_result[k]) << 10     # 0..3: two bits
                core.seen[c] = 0
            else:
                core.seen[c] |= 1 << actor
        core.mem[tab.captives_log0 + (n - 1) * tab.S + c] = w


cdef object logged_captives(TTTCore core, int i):
    """Event i's captives: (target, seats that saw it, converted,
    global shape, reserve gain, captor colour) per cell."""
    tab = core.tab
    if not tab.captives_log0:
        return []
    out = []
    for c in range(tab.S):
        w = core.mem[tab.captives_log0 + i * tab.S + c]
        if w:
            out.append((c, w & 31, (w >> 5) & 3 == 2, (w >> 7) & 7, (w >> 10) & 3, (w >> 12) & 3))
    return out


cdef object captives_line(TTTCore core, int player, int i, int actor):
    """What ``player`` reads of event i's jump or surround: the captives
    it saw (all of them for the mover), then any reincarnation (the count
    for everyone, the shapes for the captor's colour's players)."""
    from games.ttt.schema import SHAPES_ALL
    tab = core.tab
    text, gains, captor = "", [], None
    for c, saw, converted, g, gain, col in logged_captives(core, i):
        if player == actor or (saw >> player) & 1:
            text += (f"; the piece on {target_name(core, c)} was captured" +
                     (f" and became {tab.colour_names[col]}" if converted else ""))
        if gain:
            gains += [SHAPES_ALL[g]] * gain
            captor = col
    if gains:
        shapes = f" ({', '.join(sorted(gains))})" if (tab.seat_mask[player] >> captor) & 1 else ""
        text += f"; {tab.colour_names[captor]}'s reserve gains {len(gains)}{shapes} (reincarnated)"
    return text


cdef object captives_row(TTTCore core, int player, int i, int actor):
    """Event i's captives in a tensor row: per target, captured (T) and
    converted (T) where ``player`` saw them; then the reincarnated count
    at the captor's colour (C) and, for its players, per shape (K)."""
    tab = core.tab
    row = [0.0] * (2 * tab.T + tab.C + tab.K)
    for c, saw, converted, g, gain, col in logged_captives(core, i):
        if player == actor or (saw >> player) & 1:
            row[c] = 1.0
            if converted:
                row[tab.T + c] = 1.0
        if gain:
            row[2 * tab.T + col] += gain
            if (tab.seat_mask[player] >> col) & 1:
                row[2 * tab.T + tab.C + tab.shape_local[g]] += gain
    return row


# -- plans of cloaked rounds ---------------------------------------------------------
# Each plan of a cloaked round is logged when the round resolves, with what
# each player saw of it; an event on a piece a seat sees by colour only drops
# the shape, as a sequential turn's does.


cdef void log_round_plan(TTTCore core, int actor, int land) noexcept:
    """Log seat ``actor``'s plan (the event format of log_event). Each
    other seat sees: a pass; that an attempt was made (not where); a piece
    that landed where it sees it (the whole plan if it saw the piece leave
    its source or placed it, else that a piece it had not seen arrived);
    a piece destroyed on arrival (a collision) where its start-of-round
    landing cell was not cloaked, or always under obscurity; otherwise
    only that the actor placed (its colour) or moved."""
    cdef Tables tab = core.tab
    cdef int16_t* log = core.mem + tab.log0
    cdef int n = log[0] + (log[1] << 15)
    cdef int s, cls, meta, a = core.round_plan[actor]
    cdef int attempt = (core.round_attempts >> actor) & 1
    cdef int f, t, kind = plan_source_target(core, a, &f, &t)     # replacements too
    cdef bint shown
    if n >= tab.loglen:
        return
    meta = actor | (attempt << 3)
    for s in range(tab.seats):
        if s == actor or kind == 2:
            cls = 1
        elif attempt:
            cls = 0
        else:
            if land >= 0:
                shown = sees_piece(core, s, land)
            else:
                shown = tab.cloaking == CLOAK_OBSCURES or (
                    core.round_landing[actor] >= 0 and not cloaked_now(core, core.round_landing[actor]))
            cls = (1 if kind == 0 or (core.round_seen_before[actor] >> s) & 1 else 2) if shown else 0
            if cls and tab.shaped:
                cls = round_shape_class(core, s, actor, a, kind, land, cls)
        meta |= cls << (4 + 2 * s)
    log[2 + 3 * n] = a
    log[3 + 3 * n] = meta
    log[4 + 3 * n] = core.phase
    n += 1
    log[0] = n & 0x7FFF
    log[1] = n >> 15


cdef int round_shape_class(TTTCore core, int s, int actor, int a, int kind, int land, int cls) noexcept:
    """What seat s saw of another's plan that it saw land (or be
    destroyed), with shapes: 3 (colour and place, not shape) when the
    plan names a shape (a placement's, a replacement's) that s does not
    fully see on the landed piece; for a destroyed piece, on a cloaked
    space (obscurity: its colour showed, its shape did not)."""
    if kind == 0 or is_replacement_move(core, a):
        if land >= 0 and not fully_sees(core, s, land):
            return 3
        if land < 0 and core.round_landing[actor] >= 0 and cloaked_now(core, core.round_landing[actor]):
            return 3
    return cls


# -- hidden turns ---------------------------------------------------------------------
# With ``cloaking_hides_turns`` a seat's turn that another player sees
# nothing of (a placement or an attempt whose piece it does not see) leaves
# no line in that player's information state, and other colours' reserves
# are not shown, so histories that differ only in how many hidden turns the
# others took are one information state (KBeauty9's guesses are then
# simultaneous, as a beauty contest's are). Without the flag every function
# here returns every event and every reserve. The log itself is the same
# either way (it is the truth every seat's view is read from).


cdef object shown_events(TTTCore core, int player):
    """Log indices of the events ``player``'s information state shows:
    every event, or with hidden turns those it acted in or saw something
    of (passes, draw offers and answers are seen by all)."""
    n = logged_event_count(core)
    if not core.tab.params.get("hidden_turns", False):
        return list(range(n))
    out = []
    for i in range(n):
        _, actor, _, cls, _ = logged_event(core, i)
        if actor == player or cls[player] != 0:
            out.append(i)
    return out


cdef object shown_event_count(TTTCore core, int player):
    """How many event lines ``player``'s information state has."""
    if not core.tab.params.get("hidden_turns", False):
        return logged_event_count(core)
    return len(shown_events(core, player))


cdef object shown_event_lines(TTTCore core, int player, int start=0):
    """``player``'s event lines from its ``start``-th on, numbered in its
    own order (1, 2, ... over the events it has)."""
    if not core.tab.params.get("hidden_turns", False):
        return [event_line(core, player, i) for i in range(start, logged_event_count(core))]
    out = []
    for k, i in enumerate(shown_events(core, player)):
        if k >= start:
            out.append(f"{k + 1}. " + event_line(core, player, i).split(". ", 1)[1])
    return out


cdef object shown_event_rows(TTTCore core, int player):
    """``event_rows``'s rows of the events ``player`` has, in its order,
    then zero rows up to the game's length bound."""
    full = event_rows(core, player)
    if not core.tab.params.get("hidden_turns", False):
        return full
    width = len(full) // core.tab.loglen
    out = [0.0] * len(full)
    for k, i in enumerate(shown_events(core, player)):
        out[k * width:(k + 1) * width] = full[i * width:(i + 1) * width]
    return out


cdef object shown_reserves(TTTCore core, int player):
    """The reserves ``player`` is shown (colour name -> count): all, or with
    hidden turns its own colours' and "?" for the others."""
    cdef Tables tab = core.tab
    cdef int c
    if not tab.params.get("hidden_turns", False):
        return core.reserves()
    return {tab.colour_names[c]: (core.reserve[c] if (tab.seat_mask[player] >> c) & 1 else "?")
            for c in range(tab.C)}


cdef object shown_public(TTTCore core, int player, list public):
    """``observation()``'s public part as ``player`` is shown it: with
    hidden turns another colour's reserve reads 0 (never shown, so it
    tells nothing)."""
    cdef Tables tab = core.tab
    cdef int c
    if tab.params.get("hidden_turns", False):
        for c in range(tab.C):
            if not (tab.seat_mask[player] >> c) & 1:
                public[tab.seats + 2 + c] = 0.0
    return public

# Per-player views: the observation and information-state strings and
# tensors of games/core.pxd, the position as text and as planes, and the
# names of targets and actions they are written with. Included by
# _engine.pyx; functions take the core first. Rules:
# docs/rules/ttt/views.md, docs/rules/ttt/cloaking.md ("Views") and
# docs/rules/ttt/rounds.md ("Who sees what").
#
# Who sees what: a rule set without cloaking or rounds is perfect
# information and keeps the protocol's whole-position defaults. With a
# simultaneous or single phase the views are the whole position with every
# pending plan but the viewer's own hidden, and the information state adds
# the history of decisions as the viewer saw them (round_*). With cloaking
# they are what the viewer sees (view_text, view_tensor: _cloaking.pxi) plus
# its own pending plan in a round, and the information state adds the event
# lines it read (_cloaked_events.pxi).

from libc.stdint cimport int32_t, uint64_t
from games.core cimport GameCore
from games.rng cimport mix64
from games.ttt.codes cimport END_NONE, CLOAK_HIDES


# -- the position as text and planes --------------------------------------------


cdef str cell_char(int v):
    """A cell as ``to_string`` draws it: "#" locked, "." empty, else its colour."""
    return "#" if v < 0 else ("." if v == 0 else COLOUR_CHARS[v - 1])


cdef object position_text(TTTCore core):
    """The position as text: the board (stacks bottom row last, flat boards
    y upwards), the shapes, then the status line (who is to move, the
    round, the phase, the outcome)."""
    tab = core.tab
    X, Y, Z = tab.X, tab.Y, tab.Z
    cells = core.cells()
    rows = []
    if tab.gravity:
        for y in range(Y):
            if Y > 1:
                rows.append(f"stacks y={y + 1}:")
            for z in reversed(range(Z)):
                rows.append("".join(cell_char(cells[x + X * (y + Y * z)]) for x in range(X)))
    else:
        for z in range(Z):
            if Z > 1:
                rows.append(f"z={z + 1}:")
            for y in reversed(range(Y)):
                rows.append("".join(cell_char(cells[x + X * (y + Y * z)]) for x in range(X)))
    if tab.shaped:               # the shapes, laid out as the board
        rows += ["shapes:", board_layout(core, shape_letters(core, -1))]
    if tab.paralyzes:            # the paralysed pieces ("!"), laid out as the board
        rows += ["paralysed:", board_layout(core, paralysed_marks(core, -1))]
    if tab.castle:               # "Castle": the pieces that have moved ("m"), laid out as the board
        rows += ["moved:", board_layout(core, ["m" if has_moved(core, c) else "." for c in range(tab.S)])]
    if core.end != END_NONE:
        status = f"game over ({core.ending()}): returns {core.returns_list()}"
    elif core.offer_by >= 0:
        status = f"player {core.answerer} to answer player {core.offer_by}'s draw offer"
    else:
        who = "Chaos" if tab.chaos and core.seat == tab.seats - 1 else f"player {core.seat}"
        status = f"{who} to move, {core.left} piece(s) left this turn"
    if tab.sim and in_round(core):
        status = round_status(core)
    if tab.deck and dealing(core):                   # a deck (_deal.pxi)
        status = deal_status(core)
    if tab.nphases > 1:
        status += f"; phase {core.phase + 1} of {tab.nphases}"
        if core.folded:
            status += f", folded: {core.folded_players()}"
    if core.disq:
        status += f"; disqualified: {core.disqualified_players()}"
    if tab.nboards > 1:          # boards
        status += f"; board results: {core.board_results()}"
    if tab.en_passant and core.mem[tab.ep0]:      # "En passant": the space a double step passed over
        status += f"; en passant {target_name(core, core.mem[tab.ep0] - 1)}"
    return "\n".join(rows) + "\n" + status


cdef object observation_planes(TTTCore core):
    """Per cell one plane per colour, then empty, then locked; then one-hot
    seat to move, pieces left this turn, reserves per colour, draw-answer
    flag; with several phases, then the phase (one-hot) and who folded;
    then, as the rule set has them, the disqualified players, the shape
    planes, the paralysed pieces and the pieces that have moved ("Castle")."""
    tab = core.tab
    S, C = tab.S, tab.C
    multi = tab.nphases > 1
    obs = [0.0] * ((C + 2) * S + tab.seats + 2 + C + (tab.nphases + tab.nplayers if multi else 0))
    for c in range(S):
        v = core.cell[c]
        if v:
            obs[(v - 1) * S + c] = 1.0
        elif locked_now(core, c):
            obs[(C + 1) * S + c] = 1.0
        else:
            obs[C * S + c] = 1.0
    base = (C + 2) * S
    if core.end == END_NONE:
        obs[base + core.seat] = 1.0
        obs[base + tab.seats] = core.left
        obs[base + tab.seats + 1] = 1.0 if core.offer_by >= 0 else 0.0
    for c in range(C):
        obs[base + tab.seats + 2 + c] = core.reserve[c]
    if multi:
        base += tab.seats + 2 + C
        obs[base + core.phase] = 1.0
        for p in core.folded_players():
            obs[base + tab.nphases + p] = 1.0
    if tab.overachievers:       # then who is disqualified
        obs.extend(1.0 if (core.disq >> p) & 1 else 0.0 for p in range(tab.nplayers))
    if tab.shaped and core.seen == NULL:     # shape planes, per-shape reserves
        obs.extend(shape_planes(core, -1))      # (cloaked: in each player's view only)
    if tab.paralyzes and core.seen == NULL:  # the paralysed pieces
        obs.extend(1.0 if is_paralysed(core, c) else 0.0 for c in range(S))
    if tab.castle:               # "Castle": the pieces that have moved (perfect information only)
        obs.extend(1.0 if has_moved(core, c) else 0.0 for c in range(S))
    return obs


cdef int planes_after_shapes(TTTCore core) noexcept:
    """How many values ``observation_planes`` puts after the shape planes
    (whose per-shape reserves end them): the paralysed pieces and the
    pieces that have moved, as the rule set has them."""
    cdef Tables tab = core.tab
    return ((tab.S if tab.paralyzes and core.seen == NULL else 0)
            + (tab.S if tab.castle else 0))


cdef object board_layout(TTTCore core, chars):
    tab = core.tab
    X, Y, Z = tab.X, tab.Y, tab.Z
    rows = []
    if tab.gravity:
        for y in range(Y):
            if Y > 1:
                rows.append(f"stacks y={y + 1}:")
            for z in reversed(range(Z)):
                rows.append("".join(chars[x + X * (y + Y * z)] for x in range(X)))
    else:
        for z in range(Z):
            if Z > 1:
                rows.append(f"z={z + 1}:")
            for y in reversed(range(Y)):
                rows.append("".join(chars[x + X * (y + Y * z)] for x in range(X)))
    return "\n".join(rows)


cdef object shape_letters(TTTCore core, int player):
    """Per cell the shape letter of a piece ``player`` fully sees (every
    piece when player < 0 or without cloaking), "?" for a piece whose
    colour only it sees (and, with a deck, for a dealt common space whose
    piece is not dealt yet), "." otherwise."""
    from games.ttt.schema import SHAPE_LETTERS, SHAPES_ALL
    out = []
    for c in range(core.tab.S):
        if not core.cell[c]:
            out.append(".")
        elif core.tab.deck and awaits_deal(core, c):
            out.append("?")
        elif player < 0 or core.seen == NULL or fully_sees(core, player, c):
            out.append(SHAPE_LETTERS[SHAPES_ALL[shape_at(core, c)]])
        elif sees_piece(core, player, c):
            out.append("?")
        else:
            out.append(".")
    return out


cdef object paralysed_marks(TTTCore core, int player):
    """Per cell "!" for a paralysed piece ``player`` sees (every piece when
    player < 0), "." otherwise."""
    return ["!" if is_paralysed(core, c) and (player < 0 or core.seen == NULL or sees_piece(core, player, c))
            else "." for c in range(core.tab.S)]


cdef object shape_planes(TTTCore core, int player):
    """Per local shape, per cell: 1.0 where ``player`` sees a piece of that
    shape fully (player < 0: the whole position); then the per-shape
    reserves (public), colour by colour."""
    from games.ttt.schema import SHAPE_LETTERS, SHAPES_ALL
    tab = core.tab
    S = tab.S
    planes = [0.0] * (tab.K * S)
    letters = shape_letters(core, player)
    for c in range(S):
        if letters[c] not in (".", "?"):
            planes[tab.shape_local[core.shp[c]] * S + c] = 1.0
    return planes + [float(core.sres[c * tab.K + k]) if (player < 0 or core.seen == NULL
                                                         or (tab.seat_mask[player] >> c) & 1) else -1.0
                     for c in range(tab.C) for k in range(tab.K)]


# -- names of targets and actions ------------------------------------------------


cdef object target_name(TTTCore core, int t):
    if core.tab.nboards > 1:     # boards: "b2:(1,3,1)", in the board's own coordinates
        return board_target_name(core, t)
    if core.tab.gravity:
        return f"stack({t % core.tab.X + 1},{t // core.tab.X + 1})"
    x, y, z = core.coords(t)
    return f"({x},{y},{z})"


cdef object board_target_name(TTTCore core, int t):
    tab = core.tab
    b = board_of(core, t)
    x = (t % tab.X) % tab.bX + 1
    y = (t // tab.X) % tab.Y + 1
    if tab.gravity:
        return f"b{b + 1}:stack({x},{y})"
    return f"b{b + 1}:({x},{y},{t // tab.XY + 1})"


cdef object action_text(TTTCore core, int player, int action):
    tab = core.tab
    if action < 0 or action >= tab.num_actions:
        return f"<invalid action {action}>"
    if tab.pots and core.mem[tab.pot0 + POT_PENDING]:
        return pot_outcome_text(core, action)
    if tab.shaped and action < tab.a_pass_or_end:
        return shape_action_text(core, player, action)
    if action < tab.nplace:
        ch, t = divmod(action, tab.T)
        if tab.choices > 1:
            colour = ch
        else:
            seat = player if 0 <= player < tab.seats else core.seat
            colour = tab.colour_of_seat[seat]
        return f"{tab.colour_names[colour]}@{target_name(core, t)}"
    if action < tab.move0 + tab.nmove:
        f, u = divmod(action - tab.move0, tab.T)
        return f"{target_name(core, f)}->{target_name(core, u)}"
    if action == tab.a_stop:
        return "end-chain"
    return {tab.a_pass: "pass", tab.a_offer: "offer-draw", tab.a_agree: "agree-draw",
            tab.a_refuse: "refuse-draw"}[action]


cdef object shape_action_text(TTTCore core, int player, int action):
    from games.ttt.schema import SHAPES_ALL
    tab = core.tab
    names = tab.params["shape_names"]
    if action < tab.nplace:
        sh, rest = (action // tab.T) // tab.choices, action % (tab.choices * tab.T)
        ch, t = rest // tab.T, rest % tab.T
        if tab.choices > 1:
            colour = ch
        else:
            seat = player if 0 <= player < tab.seats else core.seat
            colour = tab.colour_of_seat[seat]
        return f"{tab.colour_names[colour]}@{target_name(core, t)} {names[sh]}"
    cdef int r, f, u
    if tab.nstk and action >= tab.stk0:
        return stack_action_text(core, action)
    decode_move(core, action, &r, &f, &u)
    text = f"{target_name(core, f)}->{target_name(core, u)}"
    if tab.jumps:                                    # name the piece a jump takes
        seat = player if 0 <= player < tab.seats else core.seat
        k = movable_shape(core, seat, f)
        m = jumped_target(core, seat, k, f, u) if k >= 0 else -1
        if k >= 0 and tab.captives_log0 and tab.cloaking == CLOAK_HIDES and judges_own_view(core, seat):
            m = jumped_in_view(core, seat, k, f, u)     # only what the seat sees
        if m >= 0:
            text += f" over {target_name(core, m)}"
    if r >= 0:
        text += f" becomes {names[tab.replacer[r]]}"
    return text


cdef object stack_action_text(TTTCore core, int action):
    tab = core.tab
    a = action - tab.stk0
    u, c, r1 = a % tab.T, (a // tab.T) % tab.S, a // (tab.T * tab.S)
    text = f"{target_name(core, c % tab.XY)}@{c // tab.XY + 1}->{target_name(core, u)}"
    if tab.jumps and core.cell[c]:                   # name the top a by-stack jump takes
        m = jumped_target(core, core.seat, tab.shape_local[core.shp[c]], c % tab.XY, u)
        if m >= 0:
            text += f" over {target_name(core, m)}"
    if r1 > 0:
        text += f" becomes {tab.params['shape_names'][tab.replacer[r1 - 1]]}"
    return text


cdef object pot_outcome_text(TTTCore core, int action):
    tab = core.tab
    n = core.mem[tab.pot0 + POT_N]
    if action >= n:
        return f"<invalid action {action}>"
    return f"pot dealt from {tab.colour_names[core.mem[tab.pot0 + POT_PIECE + action] - 1]}"


# -- views of rounds ---------------------------------------------------------------


cdef object round_observation_string(TTTCore core, int player):
    if not core.tab.sim:
        return GameCore.player_observation_string(core, player)
    return round_view_text(core, player, False)


cdef object round_information_state_string(TTTCore core, int player):
    if not core.tab.sim:
        return GameCore.player_information_state_string(core, player)
    return round_view_text(core, player, True)


cdef object round_observation_tensor(TTTCore core, int player):
    if not core.tab.sim:
        return GameCore.player_observation_tensor(core, player)
    cdef int32_t* v = round_region(core)
    own = v[2 + player] if in_round(core) else -1
    extra = [float(own_first_ply(core, player) + 1)] if core.tab.planned else []
    return observation_planes(core) + [1.0 if own >= 0 else 0.0, float(own + 1)] + extra


cdef int own_first_ply(TTTCore core, int player) noexcept:
    """The viewer's own first ply while the second plies of a turn planned
    together are planned (-1 otherwise): the board it plans its second on."""
    if not second_plies_open(core):
        return -1
    return round_region(core)[core.tab.pair0 + player]


cdef object round_information_state_tensor(TTTCore core, int player):
    if not core.tab.sim:
        return GameCore.player_information_state_tensor(core, player)
    cdef int32_t* v = round_region(core)
    cdef int i
    hist = [0.0] * core.tab.hist_cap
    for i in range(v[1]):
        hist[i] = float(visible_decision(core, player, i) + 1)     # 0: hidden plan, -1 below
        if hist[i] == 0.0:
            hist[i] = -1.0
    return round_observation_tensor(core, player) + hist


cdef uint64_t round_information_state_key(TTTCore core, int player) except? 0:
    cdef int32_t* v
    cdef uint64_t h
    cdef int i
    if not core.tab.sim:
        return GameCore.information_state_key(core, player)
    v = round_region(core)
    h = mix64(<uint64_t>0x7EA1 + <uint64_t>player)
    for i in range(v[1]):
        h = mix64(h ^ (<uint64_t>(visible_decision(core, player, i) + 2) * <uint64_t>0x9E3779B97F4A7C15ULL))
    return h | 1


cdef object round_view_text(TTTCore core, int player, bint recall):
    cdef int32_t* v = round_region(core)
    cdef int i, e
    text = f"player {player} sees:\n" + position_text(core)
    if own_first_ply(core, player) >= 0:
        text += f"\nown first ply: {action_text(core, player, own_first_ply(core, player))}"
    if in_round(core) and v[2 + player] >= 0:
        text += f"\nown plan: {action_text(core, player, v[2 + player])}"
    if recall:
        seen = []
        for i in range(v[1]):
            e = visible_decision(core, player, i)
            who = (v[2 + MAX_SEATS + i] >> 20)
            if who == POT_WHO:              # a pot's chance outcome (its first captor)
                seen.append(f"pot:{e}")
                continue
            seen.append(f"{who}:" + ("?" if e < 0 else action_text(core, who, e)))
        text += "\nhistory: " + " ".join(seen)
    return text


cdef object round_status(TTTCore core):
    cdef int32_t* v = round_region(core)
    done = [s for s in range(core.tab.seats) if v[2 + s] >= 0]
    who = "Chaos" if core.tab.chaos and core.seat == core.tab.seats - 1 else f"player {core.seat}"
    what = "second plies" if second_plies_open(core) else "plans"
    return (f"simultaneous round: {who} to plan, {what} registered by "
            f"{done if done else 'nobody'} (hidden until the round resolves)")


# -- views of cloaked rule sets ------------------------------------------------------


cdef object view_text(TTTCore core, int player):
    status = position_text(core).rsplit("\n", 1)[1]     # public: whose turn, phase, ending
    shown = shown_reserves(core, player)     # hidden turns: "?" for other colours
    reserves = ", ".join(f"{k} {v}" for k, v in shown.items())
    if core.tab.shaped:      # the shapes it sees ("?" colour only), the reserves it may know
        known = known_shape_reserves(core, player)
        reserves = ", ".join(f"{k} {known[k] if k in known else v}" for k, v in shown.items())
        para = (f"paralysed:\n{board_layout(core, paralysed_marks(core, player))}\n"
                if core.tab.paralyzes else "")
        return (f"player {player} sees:\n{board_layout(core, core.player_view(player))}\nshapes:\n"
                f"{board_layout(core, core.player_shape_view(player))}\n{para}{status}\nreserves: {reserves}")
    return (f"player {player} sees:\n{board_layout(core, core.player_view(player))}\n{status}\n"
            f"reserves: {reserves}")


cdef object view_tensor(TTTCore core, int player):
    """Per cell: C planes "fully seen, this colour", C planes "colour seen,
    shape not", looks empty, locked and looks empty; then the public part
    of ``observation()`` (seat to move, pieces left, draw answer,
    reserves, phase, folded); then the observer, one-hot."""
    tab = core.tab
    S, C = tab.S, tab.C
    chars = core.player_view(player)
    planes = [0.0] * ((2 * C + 2) * S)
    for c, ch in enumerate(chars):
        if ch == ".":
            planes[2 * C * S + c] = 1.0
        elif ch == "#":
            planes[(2 * C + 1) * S + c] = 1.0
        elif ch.islower():
            planes[COLOUR_CHARS.index(ch) * S + c] = 1.0
        else:
            planes[(C + COLOUR_CHARS.index(ch.lower())) * S + c] = 1.0
    me = [0.0] * tab.nplayers
    me[player] = 1.0
    if tab.shaped:           # the shapes it fully sees, the reserves it may know
        me += shape_planes(core, player)
    if tab.paralyzes:        # the paralysed pieces it sees
        me += [1.0 if m == "!" else 0.0 for m in paralysed_marks(core, player)]
    return planes + shown_public(core, player, observation_planes(core)[(C + 2) * S:]) + me


cdef object known_shape_reserves(TTTCore core, int player):
    """The per-shape reserves ``player`` knows: all of them without
    cloaking; with cloaking only its own colours' (another colour's
    per-shape counts would tell the shape of a piece it sees by colour
    only, or not at all: docs/rules/ttt/cloaking.md, "Cloaking with shapes")."""
    tab = core.tab
    every = core.shape_reserves()
    return {name: v for c, (name, v) in enumerate(every.items())
            if core.seen == NULL or (tab.seat_mask[player] >> c) & 1}


cdef object own_plan_text(TTTCore core, int player):
    """The viewer's own pending plan, for its cloaked views (perfect
    recall inside a round); "" outside rounds and without simultaneous phases."""
    if not core.tab.sim or not in_round(core) or round_region(core)[2 + player] < 0:
        return ""
    return f"\nown plan: {action_text(core, player, round_region(core)[2 + player])}"


cdef object own_plan_tensor(TTTCore core, int player):
    """[has a pending plan, plan id + 1] when the rule set has simultaneous phases."""
    if not core.tab.sim:
        return []
    own = round_region(core)[2 + player] if in_round(core) else -1
    return [1.0 if own >= 0 else 0.0, float(own + 1)]

# Boards and outcomes: how a game ends and what each player gets: turn
# checks that win or lose, draws, the stalemate rules (in-a-row, piece
# counts, ranked and vs-Chaos measures, area), "Chaos wins if ...",
# overachievers, and several boards side by side, each decided on its own.
# Included by _engine.pyx; functions take the core (or the tables) first.
# Rules: docs/rules/ttt/outcomes.md.

from libc.stdlib cimport malloc, free
from libc.string cimport memset
from libc.stdint cimport int16_t, uint8_t, uint64_t
from games.rng cimport mix64
from games.ttt.codes cimport (
    EFFECT_WIN, EFFECT_LOSE, EFFECT_ALL_LOSE, ST_DRAWS, ST_ALL_WIN, ST_ALL_LOSE, ST_LEAST_ROW,
    ST_MOST_PIECES, END_NONE, END_CHECK, ST_RANKED, ST_VS_CHAOS, ST_ANY_ROW, ST_STUCK, ST_LAST_ROW,
    MEASURE_RUN, MEASURE_WINDOWS, MEASURE_PIECES, MEASURE_SHAPE, MEASURE_AREA)


cdef void outcome_tables(Tables tab, dict p):
    """The outcome fields (compiler._outcome_tables); an absent key means
    the plain scoring: turn checks and the stalemate rule alone."""
    cdef int i, s
    tab.general_outcome = p.get("general_outcome", False)
    tab.st_kind = p.get("st_kind", 0)
    tab.st_measure = p.get("st_measure", 0)
    tab.st_k = p.get("st_k", 0)
    tab.st_shape = p.get("st_shape", 0)
    tab.st_most = p.get("st_most", 1)
    tab.st_wins = p.get("st_wins", 1)
    tab.vs_more_wins = p.get("vs_more_wins", False)
    tab.vs_fewer_loses = p.get("vs_fewer_loses", False)
    tab.overachievers = p.get("overachievers", False)
    limits = p.get("chaos_more_than", [])
    for i in range(MAX_SHAPES):
        tab.chaos_more_than[i] = limits[i] if i < len(limits) else -1
    for s in range(MAX_SEATS):
        tab.side_colours[s] = 0
    for s in range(tab.seats):
        tab.side_colours[tab.side[s]] |= tab.seat_mask[s]


# -- how a game ends ------------------------------------------------------


cdef void finish_check(TTTCore core, int effect, int mover) noexcept:
    cdef Tables tab = core.tab
    cdef int p
    cdef int ms = tab.side[mover]
    if tab.overachievers:
        check_overachievers(core, effect, mover)
        return
    for p in range(tab.nplayers):
        if effect == EFFECT_ALL_LOSE:
            core.result[p] = -1.0
        elif effect == EFFECT_WIN:
            core.result[p] = 1.0 if tab.side[p] == ms else -1.0
        else:
            core.result[p] = -1.0 if tab.side[p] == ms else 1.0
    core.end = END_CHECK


cdef void last_row_layout(Tables tab, dict p) except *:
    """"Last K-in-a-row wins": one int16 at the block's end, the side + 1
    whose ply last made a K-same-colour line through a piece it placed or
    moved (0: none yet); other rule sets keep their layout."""
    tab.last_row_k = p.get("last_row_k", 0)
    if tab.last_row_k:
        tab.last_row0 = tab.block
        tab.block += 1


cdef bint last_pentagon_check(TTTCore core) noexcept:
    """"Last pentagon wins" after a ply: when the pentagons left (on the
    board and in reserves, of colours some seat owns) all belong to one
    side, that side wins as a met win check of one of its seats would make
    it (Chaos's: every player loses; overachievers: docs/rules/ttt/outcomes.md).
    True when the game ended (docs/rules/ttt/turns.md, "Last pentagon wins")."""
    cdef Tables tab = core.tab
    cdef int c, s, colours = 0, side = -1, seat = -1
    cdef int k = tab.shape_local[5]
    for c in range(tab.S):
        if core.cell[c] and core.shp[c] == 5:
            colours |= 1 << (core.cell[c] - 1)
    for c in range(tab.C):
        if core.sres[c * tab.K + k] > 0:
            colours |= 1 << c
    for s in range(tab.seats):
        if tab.seat_mask[s] & colours:
            if side >= 0 and tab.side[s] != side:
                return False
            if side < 0:
                side = tab.side[s]
                seat = s
    if seat < 0:
        return False
    finish_check(core, EFFECT_WIN, seat)
    return core.end != END_NONE


cdef void finish_draw(TTTCore core, int how) noexcept:
    cdef int p
    for p in range(core.tab.nplayers):
        core.result[p] = 0.0
    core.end = how


cdef void finish_stalemate(TTTCore core, int how) noexcept:
    cdef Tables tab = core.tab
    cdef int p
    cdef int sign[MAX_SEATS]
    if tab.nboards > 1:          # boards: each open board by the stalemate rule, then most boards
        finish_boards(core, how)
        return
    core.end = how
    if tab.general_outcome:
        finish_outcome(core, how)
        return
    if tab.stalemate == ST_DRAWS:
        finish_draw(core, how)
        return
    if tab.stalemate == ST_ALL_WIN or tab.stalemate == ST_ALL_LOSE:
        for p in range(tab.nplayers):
            core.result[p] = 1.0 if tab.stalemate == ST_ALL_WIN else -1.0
        return
    if not stalemate_signs(core, -1, sign):
        finish_draw(core, how)
        return
    for p in range(tab.nplayers):
        core.result[p] = sign[p]


cdef bint stalemate_signs(TTTCore core, int b, int* sign) noexcept:
    """Per player +1 / -1 by the in-a-row or piece-count stalemate rule on
    board b (every cell when b < 0); False, signs untouched, on a tie."""
    cdef Tables tab = core.tab
    cdef int p, s, c, best, worst
    cdef int colour_score[MAX_COLOURS]
    cdef int side_score[MAX_SEATS]
    cdef int nsides = tab.side[tab.seats - 1] + 1
    colour_scores(core, b, colour_score)
    for s in range(nsides):
        side_score[s] = 0
    for s in range(tab.seats):
        for c in range(tab.C):
            if (tab.seat_mask[s] >> c) & 1 and colour_score[c] > side_score[tab.side[s]]:
                side_score[tab.side[s]] = colour_score[c]
    best = side_score[0]
    worst = side_score[0]
    for s in range(1, nsides):
        if side_score[s] > best:
            best = side_score[s]
        if side_score[s] < worst:
            worst = side_score[s]
    if best == worst:
        return False
    for p in range(tab.nplayers):
        s = side_score[tab.side[p]]
        if tab.stalemate == ST_LEAST_ROW:
            sign[p] = -1 if s == worst else 1
        else:
            sign[p] = 1 if s == best else -1
    return True


cdef void colour_scores(TTTCore core, int b, int* score) noexcept:
    """Per colour: the longest run (in-a-row rules) or the piece count, on
    board b alone (lines never cross boards), or on every cell when b < 0."""
    cdef Tables tab = core.tab
    cdef int c, d, piece, prev, run, x, i
    for c in range(tab.C):
        score[c] = 0
    for c in range(tab.S):
        piece = core.cell[c]
        if piece == 0 or (b >= 0 and board_of(core, c) != b):
            continue
        if tab.stalemate == ST_MOST_PIECES:
            score[piece - 1] += 1
            continue
        if score[piece - 1] < 1:
            score[piece - 1] = 1   # a piece is a run of 1 along every line (those no cell has are skipped)
        for i in range(tab.nrun):
            d = tab.run_dir[i]
            prev = tab.nbr[c * 26 + 25 - d]
            if prev >= 0 and core.cell[prev] == piece and not tab.wrap:
                continue           # not the start of this run (a toroid's run may have none)
            run = 0
            x = c
            while x >= 0 and core.cell[x] == piece and (run == 0 or x != c):
                run += 1
                x = tab.nbr[x * 26 + d]
            if run > score[piece - 1]:
                score[piece - 1] = run


# -- the dilemmas' outcomes -------------------------------------------------


cdef bint chaos_threshold_met(TTTCore core) noexcept:
    """"Chaos wins if total circles > 9": pieces of a shape on the board,
    every colour counted."""
    cdef Tables tab = core.tab
    cdef int c, sh
    cdef int count[MAX_SHAPES]
    for sh in range(MAX_SHAPES):
        count[sh] = 0
    for c in range(tab.S):
        if core.cell[c]:
            count[shape_at(core, c)] += 1
    for sh in range(MAX_SHAPES):
        if tab.chaos_more_than[sh] >= 0 and count[sh] > tab.chaos_more_than[sh]:
            return True
    return False


cdef int area(TTTCore core, int colours, uint8_t* mark, int* stack) noexcept:
    """Go-style area of the pieces of ``colours`` (a bit mask): the cells
    they occupy and the empty cells (locked ones included) reachable from
    one of them by orthogonal steps through empty cells."""
    cdef Tables tab = core.tab
    cdef int c, d, u, top = 0, n = 0
    memset(mark, 0, tab.S)
    for c in range(tab.S):
        if core.score_board1 and board_of(core, c) != core.score_board1 - 1:
            continue                         # one board's area (steps never cross boards)
        if core.cell[c] and (colours >> (core.cell[c] - 1)) & 1:
            mark[c] = 1
            stack[top] = c
            top += 1
            n += 1
    while top:
        top -= 1
        c = stack[top]
        for d in range(26):
            if not tab.is_axis[d]:
                continue
            u = tab.nbr[c * 26 + d]
            if u >= 0 and not mark[u] and core.cell[u] == 0:
                mark[u] = 1
                stack[top] = u
                top += 1
                n += 1
    return n


cdef void score_sides(TTTCore core, int* score) noexcept:
    """Each side's score under the ranked or vs-Chaos rule: the longest
    line (max over its colours), or K-segments, pieces, pieces of a shape
    (summed over its colours), or its area."""
    cdef Tables tab = core.tab
    cdef int c, d, piece, prev, run, x, s, i
    cdef int nsides = tab.side[tab.seats - 1] + 1
    cdef int colour_score[MAX_COLOURS]
    cdef uint8_t* mark
    cdef int* stack
    if tab.st_kind == ST_RANKED and tab.st_measure == MEASURE_AREA:
        mark = <uint8_t*>malloc(tab.S)
        stack = <int*>malloc(tab.S * sizeof(int))
        for s in range(nsides):
            score[s] = area(core, tab.side_colours[s], mark, stack)
        free(mark)
        free(stack)
        return
    for c in range(tab.C):
        colour_score[c] = 0
    for c in range(tab.S):
        piece = core.cell[c]
        if piece == 0:
            continue
        if core.score_board1 and board_of(core, c) != core.score_board1 - 1:
            continue                         # one board's pieces and lines
        if tab.st_kind == ST_VS_CHAOS or tab.st_measure == MEASURE_PIECES:
            colour_score[piece - 1] += 1
        elif tab.st_measure == MEASURE_SHAPE:
            if shape_at(core, c) == tab.st_shape:
                colour_score[piece - 1] += 1
        elif tab.st_measure == MEASURE_WINDOWS:
            for d in range(13, 26):
                x = c
                i = 0
                while i < tab.st_k and x >= 0 and core.cell[x] == piece and (i == 0 or x != c):
                    i += 1
                    x = tab.nbr[x * 26 + d]
                if i == tab.st_k:
                    colour_score[piece - 1] += 1
        else:                               # MEASURE_RUN
            for d in range(13, 26):
                prev = tab.nbr[c * 26 + 25 - d]
                if prev >= 0 and core.cell[prev] == piece and not tab.wrap:
                    continue
                run = 0
                x = c
                while x >= 0 and core.cell[x] == piece and (run == 0 or x != c):
                    run += 1
                    x = tab.nbr[x * 26 + d]
                if run > colour_score[piece - 1]:
                    colour_score[piece - 1] = run
    for s in range(nsides):
        score[s] = 0
        for c in range(tab.C):
            if (tab.side_colours[s] >> c) & 1:
                if tab.st_kind == ST_RANKED and tab.st_measure == MEASURE_RUN:
                    if colour_score[c] > score[s]:
                        score[s] = colour_score[c]
                else:
                    score[s] += colour_score[c]


cdef int eligible_sides(TTTCore core) noexcept:
    """Bit mask of the sides that can still win: Chaos, and every side
    with a player not disqualified."""
    cdef Tables tab = core.tab
    cdef int s, mask = 0
    for s in range(tab.seats):
        if s >= tab.nplayers or not (core.disq >> s) & 1:
            mask |= 1 << tab.side[s]
    return mask


cdef void side_verdicts(TTTCore core, int* score, int eligible, int* verdict, bint tie_draws) noexcept:
    """Per eligible side: +1 win, -1 lose, 0 draw under the stalemate rule."""
    cdef Tables tab = core.tab
    cdef int s, n = 0, best = 0, worst = 0, chaos_side, extreme
    cdef int nsides = tab.side[tab.seats - 1] + 1
    for s in range(nsides):
        verdict[s] = 0
    if tab.st_kind == ST_ALL_WIN or tab.st_kind == ST_ALL_LOSE:
        for s in range(nsides):
            verdict[s] = 1 if tab.st_kind == ST_ALL_WIN else -1
        return
    if tab.st_kind == ST_VS_CHAOS:
        chaos_side = nsides - 1
        for s in range(chaos_side):
            if score[s] > score[chaos_side]:
                verdict[s] = 1
            elif score[s] < score[chaos_side]:
                verdict[s] = -1
            elif not (tab.vs_more_wins and tab.vs_fewer_loses):
                verdict[s] = -1 if tab.vs_more_wins else 1
        return
    if tab.st_kind == ST_ANY_ROW or tab.st_kind == ST_STUCK or tab.st_kind == ST_LAST_ROW:
        any_verdicts(core, score, eligible, verdict)
        return
    if tab.st_kind != ST_RANKED:            # draws
        return
    for s in range(nsides):
        if not (eligible >> s) & 1:
            continue
        if n == 0 or score[s] > best:
            best = score[s]
        if n == 0 or score[s] < worst:
            worst = score[s]
        n += 1
    if n == 0 or (tie_draws and n >= 2 and best == worst):
        return
    for s in range(nsides):
        if (eligible >> s) & 1:
            extreme = score[s] == (best if tab.st_most else worst)
            verdict[s] = (1 if tab.st_wins else -1) if extreme else (-1 if tab.st_wins else 1)


cdef void any_verdicts(TTTCore core, int* score, int eligible, int* verdict) noexcept:
    """"Any K-same-color-in-a-row wins": every eligible side with a K-line
    (a score above 0) wins and every other loses; none with one, a draw.
    "Stalemate loses" ("wins"): the side of the seat left without a move
    (``core.stuck``) loses (wins) and every other eligible side wins
    (loses); a stalemate no seat is stuck in (passes, a goal reached, a
    round, the move limit) draws. "Last K-in-a-row wins": as "Stalemate
    wins" for the side that made the last K-line (none: a draw)
    (docs/rules/ttt/outcomes.md)."""
    cdef Tables tab = core.tab
    cdef int s, mine = -1, n = 0
    cdef int nsides = tab.side[tab.seats - 1] + 1
    if tab.st_kind == ST_STUCK:
        if core.stuck == 0:
            return
        mine = tab.side[core.stuck - 1]
    elif tab.st_kind == ST_LAST_ROW:             # the side that made the last K-line wins
        if core.mem[tab.last_row0] == 0:
            return
        mine = core.mem[tab.last_row0] - 1
    for s in range(nsides):
        if (eligible >> s) & 1 and (s == mine or (mine < 0 and score[s] > 0)):
            n += 1
    if n == 0 and mine < 0:
        return
    for s in range(nsides):
        if not (eligible >> s) & 1:
            continue
        if mine >= 0:
            verdict[s] = (1 if tab.st_wins else -1) * (1 if s == mine else -1)
        else:
            verdict[s] = 1 if score[s] > 0 else -1


cdef void finish_outcome(TTTCore core, int how) noexcept:
    """The general stalemate scoring: "Chaos wins if ..." first (every
    player loses); then the rule among the sides that can still win; with
    overachievers, the first set of winners is disqualified and the rule
    decided again among the rest ("Most pieces wins" becomes "Second most
    pieces wins"). Disqualified players lose."""
    cdef Tables tab = core.tab
    cdef int p, winners = 0
    cdef int score[MAX_SEATS]
    cdef int verdict[MAX_SEATS]
    core.end = how
    if chaos_threshold_met(core):
        for p in range(tab.nplayers):
            core.result[p] = -1.0
        return
    score_sides(core, score)
    side_verdicts(core, score, eligible_sides(core), verdict, core.disq == 0)
    if tab.overachievers and core.disq == 0:
        for p in range(tab.nplayers):
            if verdict[tab.side[p]] == 1:
                winners |= 1 << p
        if winners:
            core.disq = winners
            side_verdicts(core, score, eligible_sides(core), verdict, False)
    for p in range(tab.nplayers):
        core.result[p] = -1.0 if (core.disq >> p) & 1 else <double>verdict[tab.side[p]]


cdef void check_overachievers(TTTCore core, int effect, int mover) noexcept:
    """A turn check that holds under "Overachiever(s) disqualified": the
    first set of winners is disqualified and play goes on; a later set of
    (not disqualified) winners wins; a disqualified player's own line does
    not end the game; when every player is disqualified or has lost,
    Chaos wins (every player -1)."""
    cdef Tables tab = core.tab
    cdef int p, winners = 0, losers = 0, everyone = (1 << tab.nplayers) - 1
    cdef bint chaos_mover = tab.chaos and mover == tab.seats - 1
    if effect == EFFECT_ALL_LOSE or (effect == EFFECT_WIN and chaos_mover):
        winners = 0
        losers = everyone
    for p in range(tab.nplayers):
        if effect == EFFECT_WIN and not chaos_mover and tab.side[p] == tab.side[mover]:
            winners |= 1 << p
        elif effect == EFFECT_LOSE:
            if tab.side[p] != tab.side[mover]:
                winners |= 1 << p
            else:
                losers |= 1 << p        # the mover's side has lost
    winners &= ~core.disq
    if effect == EFFECT_WIN and not chaos_mover and winners == 0:
        return                               # a disqualified player's line: play on
    if winners and core.disq == 0:
        core.disq = winners
        if (core.disq | losers) != everyone:
            return                           # play goes on
        winners = 0
    for p in range(tab.nplayers):
        core.result[p] = 1.0 if (winners >> p) & 1 else -1.0
    core.end = END_CHECK


cdef bint round_overachievers(TTTCore core, int effect, int mask) noexcept:
    """"Overachiever(s) disqualified" after a round whose pieces hold a
    turn check for the sides in ``mask``: the round's winners are one set
    (every completing side's players for a win check; every player of a
    side that did not complete for a lose check). The first such set is
    disqualified and play goes on; a later set (less the disqualified)
    wins and every other player loses; Chaos completing a win line, or an
    all-lose check, makes every player lose; when every player is
    disqualified or has lost, Chaos wins. True when the game ended."""
    cdef Tables tab = core.tab
    cdef int p, winners = 0, losers = 0, everyone = (1 << tab.nplayers) - 1
    cdef bint chaos_won = (effect == EFFECT_WIN and tab.chaos
                           and (mask >> tab.side[tab.seats - 1]) & 1)
    if effect == EFFECT_ALL_LOSE or chaos_won:
        losers = everyone
    else:
        for p in range(tab.nplayers):
            if (mask >> tab.side[p]) & 1:
                if effect == EFFECT_WIN:
                    winners |= 1 << p
                else:
                    losers |= 1 << p
            elif effect == EFFECT_LOSE:
                winners |= 1 << p
    winners &= ~core.disq
    if effect == EFFECT_WIN and losers == 0 and winners == 0:
        return False                       # only disqualified players' lines: play on
    if winners and core.disq == 0:
        core.disq = winners
        if (core.disq | losers) != everyone:
            return False                   # play goes on
        winners = 0
    for p in range(tab.nplayers):
        core.result[p] = 1.0 if (winners >> p) & 1 else -1.0
    core.end = END_CHECK
    return True


# -- several boards ---------------------------------------------------------
# Boards side by side along x (each bX wide; no line, step or jump crosses
# from one to another). A turn check decides its board alone, which then
# locks; every rule scores each board as a one-board game of that board's
# pieces; "total" thresholds and overachievers act on the game; a round
# decides each board by the pieces that landed on it; the most boards won
# wins the game.


cdef inline bint board_closed(TTTCore core, int i) noexcept:
    return (core.bstate[0] >> board_of(core, i)) & 1


cdef bint decide_board(TTTCore core, int c, int effect) noexcept:
    """A turn check held on cell c's board: that board's outcome is the
    one-board outcome of the check, and the board locks for everyone (its
    targets leave the free list). True when that ends the game."""
    cdef Tables tab = core.tab
    cdef int b = board_of(core, c)
    cdef int p, ms = tab.side[core.seat]
    cdef int16_t* res = core.bstate + 1 + b * MAX_SEATS
    for p in range(tab.nplayers):
        if effect == EFFECT_ALL_LOSE:
            res[p] = -1
        elif effect == EFFECT_WIN:
            res[p] = 1 if tab.side[p] == ms else -1
        else:
            res[p] = -1 if tab.side[p] == ms else 1
    lock_board(core, b)
    if core.bstate[0] == (1 << tab.nboards) - 1:
        finish_boards(core, END_CHECK)
        return True
    return False


cdef void lock_board(TTTCore core, int b) noexcept:
    """A decided board locks for everyone: its targets leave the free list."""
    cdef int t
    core.bstate[0] |= 1 << b
    for t in range(core.tab.T):
        if (board_of(core, t) == b and core.fpos[t] < core.num_free
                and core.freel[core.fpos[t]] == t):
            free_remove(core, t)


cdef void score_board(TTTCore core, int b) noexcept:
    """An open board at the end of the game: the stalemate rule on that
    board alone, as ``finish_stalemate`` scores a one-board game."""
    cdef Tables tab = core.tab
    cdef int p
    cdef int sign[MAX_SEATS]
    cdef int16_t* res = core.bstate + 1 + b * MAX_SEATS
    if tab.general_outcome:      # the dilemmas' outcomes, per board
        score_board_general(core, b)
        return
    if tab.stalemate == ST_DRAWS or tab.stalemate == ST_ALL_WIN or tab.stalemate == ST_ALL_LOSE:
        for p in range(tab.nplayers):
            res[p] = 0 if tab.stalemate == ST_DRAWS else (1 if tab.stalemate == ST_ALL_WIN else -1)
        return
    if not stalemate_signs(core, b, sign):
        for p in range(tab.nplayers):
            sign[p] = 0
    for p in range(tab.nplayers):
        res[p] = sign[p]


cdef void finish_boards(TTTCore core, int how) noexcept:
    """The game ends: open boards are scored by the stalemate rule, then
    "whomever wins the most boards wins the game" (docs/rules/ttt/outcomes.md:
    the players with the most board wins win and the others lose; if all
    players won equally many boards, every player gets sign(boards won -
    boards lost) when every board ended alike for all players, else a draw)."""
    cdef Tables tab = core.tab
    cdef int b, p, most = -1, fewest = 1 << 20
    cdef int wins[MAX_SEATS]
    cdef int losses[MAX_SEATS]
    cdef bint alike = True
    cdef int16_t* res
    for p in range(tab.nplayers):
        wins[p] = 0
        losses[p] = 0
    for b in range(tab.nboards):
        res = core.bstate + 1 + b * MAX_SEATS
        if not (core.bstate[0] >> b) & 1:
            score_board(core, b)
        for p in range(tab.nplayers):
            wins[p] += res[p] == 1
            losses[p] += res[p] == -1
            if res[p] != res[0]:
                alike = False
    for p in range(tab.nplayers):
        if wins[p] > most:
            most = wins[p]
        if wins[p] < fewest:
            fewest = wins[p]
    for p in range(tab.nplayers):
        if most != fewest:
            core.result[p] = 1.0 if wins[p] == most else -1.0
        elif alike:
            core.result[p] = (1.0 if wins[0] > losses[0] else
                              (-1.0 if wins[0] < losses[0] else 0.0))
        else:
            core.result[p] = 0.0
    if tab.general_outcome:      # "Chaos wins if ..." and overachievers over the boards
        finish_boards_general(core, how, wins)
    core.end = how


cdef uint64_t boards_hash(TTTCore core) noexcept:
    cdef uint64_t v = <uint64_t>core.bstate[0]
    cdef int b, p
    for b in range(core.tab.nboards):
        for p in range(core.tab.nplayers):
            v = v * 3 + <uint64_t>(core.bstate[1 + b * MAX_SEATS + p] + 1)
    return mix64(v * <uint64_t>0xD1B54A32D192ED03ULL + 777)


cdef void score_board_general(TTTCore core, int b) noexcept:
    """An open board at the game's end under the general scoring: the
    stalemate rule (ranked, vs Chaos, draws, all-win, all-lose) on board b
    alone, every side eligible, a tie of every side a drawn board."""
    cdef Tables tab = core.tab
    cdef int p
    cdef int score[MAX_SEATS]
    cdef int verdict[MAX_SEATS]
    cdef int16_t* res = core.bstate + 1 + b * MAX_SEATS
    core.score_board1 = b + 1
    score_sides(core, score)
    core.score_board1 = 0
    side_verdicts(core, score, (1 << (tab.side[tab.seats - 1] + 1)) - 1, verdict, True)
    for p in range(tab.nplayers):
        res[p] = verdict[tab.side[p]]


cdef void finish_boards_general(TTTCore core, int how, int* wins) noexcept:
    """The game's outcome over the boards, general scoring: "Chaos wins if
    total circles > 9" counts the pieces of every board when the game ends
    in stalemate or by the move limit (a turn check deciding the last open
    board decides alone, as on one board); "Overachiever(s) disqualified":
    the players who would win the game (most boards won) are disqualified
    and the most boards among the rest wins ("second most"); when every
    player is disqualified or lost, Chaos wins."""
    cdef Tables tab = core.tab
    cdef int p, best = -1
    if how != END_CHECK and chaos_threshold_met(core):
        for p in range(tab.nplayers):
            core.result[p] = -1.0
        return
    if not tab.overachievers or core.disq:
        return
    for p in range(tab.nplayers):
        if core.result[p] == 1.0:
            core.disq |= 1 << p
    if core.disq == 0:
        return
    for p in range(tab.nplayers):
        if not (core.disq >> p) & 1 and wins[p] > best:
            best = wins[p]
    for p in range(tab.nplayers):
        core.result[p] = 1.0 if not (core.disq >> p) & 1 and wins[p] == best else -1.0


cdef bint decide_boards_after_round(TTTCore core, int* landed, int* best, int* best_axis) noexcept:
    """After a round: each board is decided on its own by the pieces that
    landed on it, as one board's round is: the first check (listed order)
    that holds for one of them decides the board for that piece's side,
    or draws the board when it holds for pieces of several sides at once
    (an all-lose check: every player loses it). Every board decided in the
    round locks at its end. True when no board is left open (the game
    ends: most boards wins)."""
    cdef Tables tab = core.tab
    cdef int b, i, s, p, mask, first, effect, ms
    cdef int16_t* res
    for b in range(tab.nboards):
        for i in range(tab.nchecks):
            mask = 0
            first = -1
            for s in range(tab.seats):
                if (landed[s] >= 0 and board_of(core, landed[s]) == b and
                        (best[s] if tab.check_diag[i] else best_axis[s]) >= tab.check_k[i]):
                    mask |= 1 << tab.side[s]
                    if first < 0:
                        first = s
            if mask == 0:
                continue
            effect = tab.check_effect[i]
            ms = tab.side[first]
            res = core.bstate + 1 + b * MAX_SEATS
            for p in range(tab.nplayers):
                if effect == EFFECT_ALL_LOSE:
                    res[p] = -1
                elif mask & (mask - 1):
                    res[p] = 0               # several sides at once: nobody was first
                elif effect == EFFECT_WIN:
                    res[p] = 1 if tab.side[p] == ms else -1
                else:
                    res[p] = -1 if tab.side[p] == ms else 1
            lock_board(core, b)
            break
    if core.bstate[0] == (1 << tab.nboards) - 1:
        finish_boards(core, END_CHECK)
        return True
    return False

# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""C engine of the tic-tac-toe variations: one ``TTTCore`` plays every rule set
that ``games.ttt.compiler`` compiles (placement, gravity, movement, turn checks,
stalemate rules, passes, agreed draws, Chaos, phases with locked players and
spaces and the fold rule, shapes, stacks, captures, jumps, surrounds, pots,
simultaneous and single rounds, cloaking, a deck). A rule set pays only for the rules
it plays: each one is reached through one flag test (a sequential,
perfect-information rule set of circles pays nothing for rounds, cloaking or
shapes). Rules as implemented, with every reading of the tic-tac-toe
variations specification: docs/rules/ttt.md and its pages docs/rules/ttt/.

This file holds ``TTTCore``: its fields, the GameCore protocol (games/core.pxd)
and its Python faces, each a few lines that hand over to the rule it asks. The
rules themselves are module-level functions that take the core (or the tables)
first, one file per concept of the rule vocabulary, included below (Cython
allows no ``include`` inside a class body; in one compilation unit a call to a
module-level ``cdef`` function costs what a call to a method of a final class
costs). The map, in the order a reader of the specification meets the
concepts (docs: pages of docs/rules/ttt/; tests: files in tests/):

  tables and geometry      _geometry.pxi         test_ttt_boards.py
      docs: boards.md
  setup and phases         _phases.pxi           test_ttt_phases.py
      docs: phases.md
  turns and legal moves    _turns.pxi            test_ttt_turns.py
      docs: turns.md
  boards and outcomes      _outcomes.pxi         test_ttt_outcomes.py,
                                                 test_ttt_several_boards.py
      docs: outcomes.md
  shapes and their moves   _shapes.pxi           test_ttt_shapes.py
      docs: shapes.md
  stacks                   _stacks.pxi           test_ttt_stacks.py
      docs: stacks.md
  captures                 _captures.pxi         test_ttt_captures.py,
                                                 test_ttt_by_stack_captures.py
      docs: captures.md
  jumps                    _jumps.pxi            test_ttt_jumps.py,
                                                 test_ttt_jumps_back.py,
                                                 test_ttt_jumps_in_rounds.py
      docs: jumps.md; rounds.md "Jumps inside rounds"
  surrounds                _surround.pxi         test_ttt_surround.py
      docs: surround.md; rounds.md "Surrounds inside rounds"
  pots and poker ranks     _pots.pxi             test_ttt_pots.py,
                                                 test_ttt_showdowns.py
      docs: pots.md; rounds.md "Pots inside rounds", "The pot showdown
      inside rounds"
  simultaneous and single  _rounds.pxi           test_ttt_rounds.py
  rounds
      docs: rounds.md
  cloaking                 _cloaking.pxi         test_ttt_cloaking.py,
                           (what a seat sees),   test_ttt_cloaking_captures.py,
                           _cloaked_events.pxi   test_ttt_cloaking_stack_captures.py,
                           (what it sees of      test_ttt_cloaking_round_covers.py,
                           events),              test_ttt_cloaking_jumps.py,
                           _cloaked_stack_covers test_ttt_cloaking_rounds.py
                           .pxi, _cloaked_round_
                           covers.pxi (of covers
                           on stacks, in rounds)
      docs: cloaking.md
  per-player views         _views.pxi            test_ttt_views.py,
                                                 test_ttt_openspiel.py
      docs: views.md
  a deck and dealt pieces  _deal.pxi             test_ttt_deal.py
      docs: deal.md

The whole rule set (schema.md), the catalogue (catalogue.md), what validation
refuses (refused.md) and how the engine is checked (checks.md) have their own
pages; docs/rules/ttt.md is the index, with a table of what plays with what.

A position is one malloc'd block of int16 (cells, tops of stacks, the free
list, reserves, then each concept's region: boards, the round, shapes, the
pot, the pending chain, what each seat has seen and the event log), so a
copy is one memcpy and a pickle one list; the tables (``Tables``) are shared.

Action ids (documented in docs/rules/ttt/views.md, and with shapes and
stacks in shapes.md and stacks.md):
  choice*T + t                 place on target t (choice = colour index when
                               players choose colours, else 0 = own colour;
                               with shapes, (shape*choices + choice)*T + t)
  move0 + f*T + u              move the piece on target f to target u
                               (only in rule sets whose pieces move)
  rep0 + (r*T + f)*T + u       a move reaching its goal, becoming shape r
  stk0 + (r1*S + c)*T + u      a by-stack move of the piece on cell c
  then, when allowed: pass, draw offer, agree, refuse, end-chain (in this order).
"""
import hashlib
cimport cython
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy
from libc.stdint cimport int16_t, int32_t, uint8_t, uint64_t
from games.core cimport GameCore, PLAYER_CHANCE, PLAYER_TERMINAL
from games.rng cimport Rng, mix64, rng_below
from games.ttt.codes cimport (
    MOVE_LINEAR_KNIGHT, END_NONE, END_STALEMATE, END_MOVE_LIMIT, CLOAK_NONE, CLOAK_HIDES, ST_RANKED,
    ST_VS_CHAOS, ST_ANY_ROW)

cdef enum:
    MAX_SEATS = 5
    MAX_COLOURS = 4
    MAX_CHECKS = 32
    MAX_PHASES = 6
    MAX_SHAPES = 6
    MAX_BOARDS = 3
    MAX_SPACES_DEALT = 512

COLOUR_CHARS = "xopy"

include "_geometry.pxi"      # Tables (before the class, whose fields name it)


@cython.final
cdef class TTTCore(GameCore):
    """A position of one rule set (see the module docstring)."""
    cdef readonly Tables tab
    cdef int16_t* mem         # the position block; the pointers below point into it
    cdef int16_t* cell        # per cell: 0 empty, colour index + 1
    cdef int16_t* top         # per stack: its height (stacks only)
    cdef int16_t* freel       # the targets a piece may enter in this phase ...
    cdef int16_t* fpos        # ... and each target's place in that list
    cdef int16_t* reserve     # per colour
    cdef int num_free
    cdef int seat
    cdef int left
    cdef int passes
    cdef int plies
    cdef int offer_by         # seat that offered a draw, -1 if none pending
    cdef int answerer
    cdef bint offered         # the seat to move already had an offer refused this turn
    cdef int end              # END_* (END_NONE while playing)
    cdef double result[MAX_SEATS]
    cdef uint64_t board_hash
    cdef int placements
    cdef int moves
    cdef int phase
    cdef int folded           # bit mask of the seats that folded
    cdef uint8_t* plock       # cells locked for the current phase, or NULL if none
    cdef int disq             # overachievers: bit mask of the seats disqualified from winning
    cdef uint8_t* pentry      # spaces: seats locked against entry per cell this phase, or NULL
    cdef uint8_t* pexit       # spaces: seats locked against exit per cell this phase, or NULL
    cdef int16_t* bstate      # several boards: [decided mask, results per board] at the block's end
    cdef int score_board1     # board + 1 that score_sides and area count alone (0: every board)
    cdef int stuck            # seat + 1 left without a move while its stalemate is scored (0: none)
    # "En passant": the space the last ply's double step passed over and the
    # pawn that made it (-1: none), read by the ply being applied
    cdef int ep_space
    cdef int ep_pawn
    # "Castle": the cell its rook landed on, read by the ply's end (-1: none)
    cdef int castled
    # cloaking: seen points into the block (NULL without cloaking); a view
    # (the tables' scratch core) plays the plain rules on what one player
    # sees; cloak_busy is set while apply runs the plain rules under the
    # cloaked apply
    cdef int16_t* seen
    cdef bint viewing
    cdef bint cloak_busy
    # shapes: the shape plane and per-shape reserves in the block (NULL on the
    # circles-only path); goal_hit is set by a move that reached its goal and
    # read by end_ply in the same apply
    cdef int16_t* shp
    cdef int16_t* sres
    cdef bint goal_hit
    # stacks: pieces that landed together in the current by-stack move (0
    # outside one); read by end_ply's line checks in the same apply
    cdef int stack_landed
    # cloaking inside a round; scratch of one round's resolution (valid only
    # inside resolve_round, not position state): the plans, which are
    # attempts, the seen mask each planned piece carries, who saw a moved
    # piece at its source, each target's start-of-round landing cell
    cdef int round_attempts
    cdef int round_empty_reserves
    cdef int round_plan[MAX_SEATS]
    cdef int round_seen[MAX_SEATS]
    cdef int round_seen_before[MAX_SEATS]
    cdef int round_landing[MAX_SEATS]
    # a round's planned shapes (local), read while it resolves
    cdef int plan_shape[MAX_SEATS]
    # the per-shape reserves before a cloaked cover (read when its event is logged)
    cdef int16_t sres_before_cover[MAX_COLOURS * MAX_SHAPES]
    # a cloaked cover on a stack, while it resolves: the arriving piece's
    # seen mask (set before the plain rules run), then the cell where that
    # piece ends (-1 gone, -2 no cover on a stack)
    cdef int cover_seen
    cdef int cover_landed
    # the plans of the resolving cloaked round that covered (a seat bit mask)
    cdef int round_covered
    # set while an attempt is judged on the true position, where "must
    # capture" does not apply (it is judged on what the mover sees)
    cdef bint captures_unforced
    # a view under invisibility, where a jump may be tried over a cloaked
    # space that looks empty
    cdef bint tries_hidden_jumps
    cdef int chain_land            # target a chain-jumper just jumped to (-1: none), read by end_ply
    cdef int hand_stack            # a by-stack cover's destination stack while its verdict is taken
    cdef int hand_below            # ... and the height its carried pieces start at (-1 both: none)
    cdef int showdown_carried      # after a showdown dealt at once, the pieces from the mover up (-1: none)
    # a round's moves of shapes, per seat, alive during one resolve_round
    cdef int plan_z0[MAX_SEATS]            # lowest height it lifts (0 on flat boards)
    cdef bint plan_by_stack[MAX_SEATS]     # a by-stack move (carries every piece above)
    cdef int plan_replacement[MAX_SEATS]   # replacement local shape (goal reached), or -1
    cdef int plan_lifted[MAX_SEATS]        # pieces it lifted (0: none / contested)
    cdef bint solo                         # a scratch copy resolving one seat's first ply alone

    def __cinit__(self):
        self.mem = NULL

    def __dealloc__(self):
        free(self.mem)

    def __init__(self, Tables tab=None):
        if tab is None:           # bare instance made by copy()
            return
        self._setup(tab)
        memcpy(self.mem, tab.init, tab.block * sizeof(int16_t))
        cdef int c, t, z, h
        self.board_hash = 0
        for c in range(tab.S):
            if self.cell[c]:
                self.board_hash ^= tab.zob[c * (tab.C + 1) + self.cell[c]]
                if tab.shaped:
                    self.board_hash ^= tab.szob[c * MAX_SHAPES + self.shp[c]]
        for t in range(tab.T):
            if tab.gravity:
                h = 0
                for z in range(tab.Z):
                    c = t + tab.XY * z
                    if self.cell[c] or tab.locked[c]:
                        h = z + 1
                self.top[t] = h
        self.plies = 0
        self.offer_by = -1
        self.answerer = -1
        self.end = END_NONE
        for c in range(MAX_SEATS):
            self.result[c] = 0.0
        self.num_players = tab.nplayers
        self.folded = 0
        self.disq = 0
        if not tab.deck or tab.ndeals == 0:
            enter_phase(self, 0, True)
        # (a deck dealing at the start: the first phase starts after the deal, _deal.pxi)

    cdef void _setup(self, Tables tab):
        self.tab = tab
        self.num_players = tab.nplayers
        self.num_actions = tab.num_actions
        self.max_game_length = tab.max_game_length
        # Chaos, a pot's deal, or a deck's
        self.max_chance_outcomes = tab.num_actions if tab.chaos or tab.pots or tab.deck else 0
        self.mem = <int16_t*>malloc(tab.block * sizeof(int16_t))
        self.simultaneous_moves = self.imperfect_information = tab.sim
        if self.mem == NULL:
            raise MemoryError()
        self.cell = self.mem
        self.top = self.mem + tab.S
        self.freel = self.top + tab.T
        self.fpos = self.freel + tab.T
        self.reserve = self.fpos + tab.T
        self.bstate = self.reserve + tab.C      # boards (only read when nboards > 1)
        self.seen = self.mem + tab.seen0 if tab.cloaking != CLOAK_NONE else NULL
        self.shp = self.mem + tab.shp0 if tab.shaped else NULL
        self.sres = self.mem + tab.sres0 if tab.shaped else NULL
        self.chain_land = -1
        self.ep_space = -1
        self.ep_pawn = -1
        self.castled = -1
        self.hand_stack = -1
        self.hand_below = -1
        self.showdown_carried = -1
        # rounds, cloaking, a deck
        self.imperfect_information = tab.sim or tab.cloaking != CLOAK_NONE or tab.deck

    cdef GameCore copy(self):
        cdef TTTCore o = TTTCore.__new__(TTTCore)
        o._setup(self.tab)
        memcpy(o.mem, self.mem, self.tab.block * sizeof(int16_t))
        o.num_free = self.num_free
        o.seat = self.seat
        o.left = self.left
        o.passes = self.passes
        o.plies = self.plies
        o.offer_by = self.offer_by
        o.answerer = self.answerer
        o.offered = self.offered
        o.end = self.end
        o.result = self.result
        o.board_hash = self.board_hash
        o.placements = self.placements
        o.moves = self.moves
        o.phase = self.phase
        o.folded = self.folded
        o.disq = self.disq
        set_phase_locks(o)
        return o

    # -- the GameCore protocol (games/core.pxd) ----------------------------------

    cdef int current_player(self) noexcept:
        if self.end != END_NONE:
            return PLAYER_TERMINAL
        if self.tab.deck and dealing(self):
            return PLAYER_CHANCE                  # the deal
        if self.tab.pots and self.mem[self.tab.pot0 + POT_PENDING]:
            return PLAYER_CHANCE                  # the pot's random start
        if self.offer_by >= 0:
            return self.answerer
        if self.tab.chaos and self.seat == self.tab.seats - 1:
            return PLAYER_CHANCE
        return self.seat

    cdef bint is_terminal(self) noexcept:
        return self.end != END_NONE

    cdef int legal_actions(self, int* out) noexcept:
        cdef int k
        if self.end != END_NONE:
            return 0
        if self.tab.deck and dealing(self):
            return deal_outcomes(self, out, NULL)
        if self.tab.pots and self.mem[self.tab.pot0 + POT_PENDING]:
            return pot_outcomes(self, out, NULL)
        if self.offer_by >= 0:
            out[0] = self.tab.a_agree
            out[1] = self.tab.a_refuse
            return 2
        k = round_seat_actions(self, self.seat, out)       # (a second ply planned together)
        if offer_allowed(self):
            out[k] = self.tab.a_offer
            k += 1
        return k

    cdef bint is_legal(self, int action) noexcept:
        cdef Tables tab = self.tab
        if self.end != END_NONE or action < 0 or action >= tab.num_actions:
            return False
        if tab.deck and dealing(self):
            return action < tab.K and deck_region(self)[DECK_K0 + action] > 0
        if tab.pots and self.mem[tab.pot0 + POT_PENDING]:
            return action < self.mem[tab.pot0 + POT_N]
        if self.offer_by >= 0:
            return action == tab.a_agree or action == tab.a_refuse
        if second_plies_open(self):
            return round_plan_listed(self, self.seat, action)     # on the board its first ply leaves
        if tab.cloaking == CLOAK_HIDES and judges_own_view(self, self.seat):
            return view_of(self, self.seat).is_legal(action)       # (a chain's continuation too)
        if tab.chains and self.mem[tab.chain0]:
            return chain_action_listed(self, action)                  # a chain jump's continuation
        if tab.obscured_covers and judges_own_view(self, self.seat):
            return action_listed(self, self.seat, action, True)     # obscurity: the list it may try
        if tab.any_must and (action < tab.a_pass_or_end or action == tab.a_pass):
            return action_listed(self, self.seat, action)       # "must capture"
        if tab.shaped and action < tab.a_pass_or_end:
            return shape_is_legal(self, self.seat, action)     # the shapes path
        return plain_is_legal(self, action)

    cdef int chance_outcomes(self, int* actions, double* probs) noexcept:
        cdef int i, n
        if self.end != END_NONE or self.current_player() != PLAYER_CHANCE:
            return 0
        if self.tab.deck and dealing(self):
            return deal_outcomes(self, actions, probs)
        if self.tab.pots and self.mem[self.tab.pot0 + POT_PENDING]:
            return pot_outcomes(self, actions, probs)
        n = round_seat_actions(self, self.seat, actions)
        for i in range(n):
            probs[i] = 1.0 / n
        return n

    cdef void apply(self, int action) noexcept:
        cdef Tables tab = self.tab
        if tab.deck and deck_apply(self, action):     # the deal (else the decision is logged)
            return
        if tab.pots and self.mem[tab.pot0 + POT_PENDING]:
            if tab.sim and not self.cloak_busy:
                record_decision(self, POT_WHO, action)   # the deal is in the history too
            deal_pot(self, action)                  # the pot's chance node
            return
        if tab.sim and not self.cloak_busy and register_decision(self, action):    # a plan of the open round
            return
        if self.seen != NULL and not self.cloak_busy and not self.viewing:
            apply_cloaked(self, action)
            return
        if self.offer_by >= 0:
            answer_offer(self, action == tab.a_agree)
            return
        if tab.en_passant and action != tab.a_offer:       # it lasts one ply: this one may take it
            self.ep_space = self.mem[tab.ep0] - 1
            self.ep_pawn = self.mem[tab.ep0 + 1] - 1
            self.mem[tab.ep0] = 0
            self.mem[tab.ep0 + 1] = 0
        if tab.chains and self.mem[tab.chain0]:
            apply_chain_action(self, action)                   # a chain jump's continuation
            return
        if tab.shaped and action < tab.a_pass_or_end:
            apply_shape_action(self, action)                   # the shapes path
            return
        apply_plain(self, action)

    cdef void returns(self, double* out) noexcept:
        cdef int p
        for p in range(self.tab.nplayers):
            out[p] = self.result[p] if self.end != END_NONE else 0.0

    cdef inline uint64_t _state_hash(self) noexcept:
        """The hash of everything but the board's pieces: turn, phase, outcome
        and each concept's state (boards, plans, seen masks, reserves, pots,
        a pending chain)."""
        cdef uint64_t h = mix64(<uint64_t>(self.seat + 8 * self.left + 64 * self.passes
                                           + 1024 * (self.offer_by + 1) + 16384 * (self.answerer + 1)
                                           + 131072 * self.offered + 262144 * self.end
                                           + 2097152 * self.phase + 16777216 * self.folded))
        if self.tab.overachievers:
            h ^= mix64(<uint64_t>self.disq * <uint64_t>0xD1B54A32D192ED03ULL + 777)
        if self.tab.move_limit:
            h ^= mix64(<uint64_t>self.plies * <uint64_t>0x9E3779B97F4A7C15ULL + 12345)
        if self.tab.nboards > 1:     # boards: which boards are decided and how
            h ^= boards_hash(self)
        if self.tab.sim:
            h ^= pending_plans_hash(self)
        if self.seen != NULL:
            h ^= seen_hash(self)
        if self.tab.R or self.tab.powers:         # replacements change shapes, and
            h ^= shape_reserves_hash(self)         # reincarnation refills reserves
        if self.tab.pots:
            h ^= pot_hash(self)
        if self.tab.last_row_k:                   # "Last K-in-a-row wins": who made the last line
            h ^= mix64(<uint64_t>(self.mem[self.tab.last_row0] + 5) * <uint64_t>0xBF58476D1CE4E5B9ULL + 99)
        if self.tab.deck:                         # the deal, the deck left
            h ^= deck_hash(self)
        if self.tab.chains:                       # a chain jump's pending continuation
            h ^= mix64(<uint64_t>(self.mem[self.tab.chain0] + 3) * <uint64_t>0xA24BAED4963EE407ULL + 4242)
        if self.tab.paralyzes:                    # the paralysed pieces
            h ^= paralysed_hash(self, NULL)
        if self.tab.en_passant:                   # the space a double step just passed over
            h ^= mix64(<uint64_t>(self.mem[self.tab.ep0] + 1024 * self.mem[self.tab.ep0 + 1] + 7)
                       * <uint64_t>0x94D049BB133111EBULL + 5151)
        if self.tab.castle:                       # the pieces that have moved
            h ^= moved_hash(self, NULL)
        return h

    cdef uint64_t hash(self) noexcept:
        return self.board_hash ^ self._state_hash()

    cdef int num_symmetries(self) noexcept:
        return self.tab.nsym

    cdef uint64_t symmetric_hash(self, int symmetry) noexcept:
        cdef Tables tab = self.tab
        cdef uint64_t h = 0
        cdef int c
        cdef int16_t* m = tab.sym + symmetry * tab.S
        if symmetry == 0:
            return self.hash()
        for c in range(tab.S):
            if self.cell[c]:
                h ^= tab.zob[m[c] * (tab.C + 1) + self.cell[c]]
        if tab.paralyzes:                 # the paralysed cells, mapped by the symmetry
            h ^= paralysed_hash(self, NULL) ^ paralysed_hash(self, m)
        if tab.castle:                    # the moved pieces, mapped by the symmetry
            h ^= moved_hash(self, NULL) ^ moved_hash(self, m)
        return h ^ self._state_hash()

    cdef void playout(self, Rng* rng) noexcept:
        cdef Tables tab = self.tab
        cdef int* buf = NULL
        cdef int n, colour
        cdef bint simple = (not tab.passing and not tab.agree_draw and tab.choices == 1
                            and not tab.any_seat_lock and not tab.sim and tab.cloaking == CLOAK_NONE
                            and not tab.shaped)         # (with shapes a placement names a shape)
        while self.end == END_NONE:
            if simple:
                colour = tab.colour_of_seat[self.seat]
                # only placements are legal: uniform over the free targets
                # (a one-colour seat holding reserves cannot move: an identical
                # piece is in reserve)
                if self.reserve[colour] > 0:
                    place(self, self.freel[rng_below(rng, self.num_free)], colour)
                    continue
            if tab.deck and dealing(self):                      # the deal's chance nodes
                deal_at_random(self, rng)
                continue
            if tab.pots and self.mem[tab.pot0 + POT_PENDING]:      # the pot's chance node
                deal_pot(self, rng_below(rng, self.mem[tab.pot0 + POT_N]))
                continue
            if buf == NULL:
                buf = <int*>malloc(tab.num_actions * sizeof(int))
            if (tab.sim and in_round(self) and tab.move != MOVE_LINEAR_KNIGHT and not tab.shaped
                    and not second_plies_open(self)):
                self.apply(random_plan(self, self.seat, rng, buf))     # a round's fast draw
                continue
            if self.offer_by < 0 and self.current_player() == PLAYER_CHANCE:
                n = round_seat_actions(self, self.seat, buf)
            else:
                n = self.legal_actions(buf)
            if n == 0:
                break
            self.apply(buf[rng_below(rng, n)])
        free(buf)

    cdef int simultaneous_players(self, int* players) noexcept:
        """The non-Chaos seats still to plan in the open round, current first."""
        cdef int s, k = 0
        if not self.tab.sim or not in_round(self):
            return 0
        for s in range(self.seat, self.tab.nplayers):
            if plans_now(self, s):
                players[k] = s
                k += 1
        return k

    cdef int player_legal_actions(self, int player, int* out) noexcept:
        cdef int s, k
        if not self.tab.sim or not in_round(self):
            return GameCore.player_legal_actions(self, player, out)
        if player < self.seat or player >= self.tab.nplayers or not plans_now(self, player):
            return 0
        s = self.seat          # destination_ok judges entry locks for the seat to move
        self.seat = player
        k = round_seat_actions(self, player, out)
        self.seat = s
        return k

    # the per-player views (_views.pxi): with cloaking what the viewer sees,
    # else the round's views (the whole position, other seats' pending plans
    # hidden), which are the protocol's whole-position defaults without rounds

    cdef object player_observation_string(self, int player):
        if self.tab.deck:                             # a deck (_deal.pxi)
            return deck_view_text(self, player)
        if self.seen == NULL:
            return round_observation_string(self, player)
        return view_text(self, player) + own_plan_text(self, player)

    cdef object player_observation_tensor(self, int player):
        if self.tab.deck:
            return deck_view_tensor(self, player)
        if self.seen == NULL:
            return round_observation_tensor(self, player)
        return view_tensor(self, player) + own_plan_tensor(self, player)

    cdef object player_information_state_string(self, int player):
        if self.tab.deck:
            return deck_information_state_text(self, player)
        if self.seen == NULL:
            return round_information_state_string(self, player)
        lines = [f"information state of player {player}"]
        lines += shown_event_lines(self, player)     # (with hidden turns, not the ones it saw nothing of)
        return "\n".join(lines) + "\n" + view_text(self, player) + own_plan_text(self, player)

    cdef object player_information_state_tensor(self, int player):
        if self.tab.deck:
            return deck_information_state_tensor(self, player)
        if self.seen == NULL:
            return round_information_state_tensor(self, player)
        return shown_event_rows(self, player) + view_tensor(self, player) + own_plan_tensor(self, player)

    cdef uint64_t information_state_key(self, int player) except? 0:
        if self.seen == NULL and not self.tab.deck:
            return round_information_state_key(self, player)
        text = self.player_information_state_string(player).encode()
        return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little")

    # -- Python faces: the position ----------------------------------------------

    def coords(self, int c):
        """1-based (x, y, z) of cell c."""
        X, XY = self.tab.X, self.tab.XY
        return (c % X + 1, (c // X) % self.tab.Y + 1, c // XY + 1)

    def cells(self):
        """Per cell: 0 empty, colour index + 1 for a piece, -1 locked (for the
        game or this phase) and empty."""
        return [self.cell[c] if self.cell[c] or not locked_now(self, c) else -1
                for c in range(self.tab.S)]

    def reserves(self):
        return {self.tab.colour_names[c]: self.reserve[c] for c in range(self.tab.C)}

    def current_phase(self):
        """The phase being played, 0-based."""
        return self.phase

    def seat_to_move(self):
        """The seat whose turn it is (Chaos is the last seat)."""
        return self.seat

    def pieces_left_in_turn(self):
        return self.left

    def folded_players(self):
        """Players who folded (they take no more turns but can still win)."""
        return [s for s in range(self.tab.nplayers) if (self.folded >> s) & 1]

    def ending(self):
        return ("playing", "turn check", "stalemate", "agreed draw", "move limit")[self.end]

    def playout_stats(self):
        return {"placements": self.placements, "moves": self.moves, "plies": self.plies,
                "ending": self.ending(), "returns": self.returns_list()}

    def describe_action(self, int action):
        return action_text(self, self.current_player(), action)

    def action_string(self, int player, int action):
        """The name of ``action`` as ``player`` would play it (_views.pxi)."""
        return action_text(self, player, action)

    def to_string(self):
        """The position as text: the board (and shapes), then who is to move,
        the phase and the outcome (_views.pxi)."""
        return position_text(self)

    def observation(self):
        """The whole position as planes (_views.pxi, observation_planes)."""
        return observation_planes(self)

    def __reduce__(self):
        # OpenSpiel serialises Python states with pickle.
        scalars = (self.num_free, self.seat, self.left, self.passes, self.plies, self.offer_by,
                   self.answerer, self.offered, self.end,
                   [self.result[p] for p in range(MAX_SEATS)], self.board_hash,
                   self.placements, self.moves, self.phase, self.folded, self.disq)
        block = [self.mem[i] for i in range(self.tab.block)]
        return (_restore, (self.tab, block, scalars))

    # -- outcomes (_outcomes.pxi) --------------------------------------------------

    def board_results(self):
        """Per board: the players' results on it (+1, -1, 0) once it is
        decided (by a turn check, or by the stalemate rule at the game's end),
        else None. A one-board game has no per-board state: []."""
        if self.tab.nboards == 1:
            return []
        return [[self.bstate[1 + b * MAX_SEATS + p] for p in range(self.tab.nplayers)]
                if (self.bstate[0] >> b) & 1 or self.end in (END_STALEMATE, END_MOVE_LIMIT) else None
                for b in range(self.tab.nboards)]

    def board_side_scores(self, int b):
        """Each side's score under the ranked or vs-Chaos stalemate rule on
        board b alone (sides in seat order, Chaos last); [] as side_scores."""
        cdef int score[MAX_SEATS]
        tab = self.tab
        if not 0 <= b < tab.nboards:
            raise ValueError(f"board {b} does not exist (boards: 0..{tab.nboards - 1})")
        if not tab.general_outcome or tab.st_kind not in (ST_RANKED, ST_VS_CHAOS, ST_ANY_ROW):
            return []
        self.score_board1 = b + 1
        score_sides(self, score)
        self.score_board1 = 0
        return [score[s] for s in range(tab.side[tab.seats - 1] + 1)]

    def side_scores(self):
        """Each side's score under the rule set's ranked, vs-Chaos or any-K
        stalemate rule on the current board (sides in seat order, Chaos last),
        e.g. the areas under "most-area-wins"; [] for draws/all-win/all-lose,
        stalemate-loses/wins or a rule set on the plain scoring path."""
        cdef int score[MAX_SEATS]
        tab = self.tab
        if not tab.general_outcome or tab.st_kind not in (ST_RANKED, ST_VS_CHAOS, ST_ANY_ROW):
            return []
        score_sides(self, score)
        return [score[s] for s in range(tab.side[tab.seats - 1] + 1)]

    def disqualified_players(self):
        """Players disqualified from winning ("Overachiever(s) disqualified")."""
        return [s for s in range(self.tab.nplayers) if (self.disq >> s) & 1]

    def chaos_outcome(self):
        """Chaos's outcome, for leaderboards (Chaos is OpenSpiel's chance
        player and has no return): +1 when every player lost (Chaos wins),
        -1 when every player won ("If all players win, then Chaos loses"),
        0 otherwise and while the game is on. Defined whether or not Chaos
        takes turns."""
        if self.end == END_NONE:
            return 0.0
        res = [self.result[p] for p in range(self.tab.nplayers)]
        if all(v == -1.0 for v in res):
            return 1.0
        if all(v == 1.0 for v in res):
            return -1.0
        return 0.0

    # -- shapes, stacks, pots and jumps ---------------------------------------------

    def shape_names(self):
        """The shapes in play, in the specification's rank order (placement's shape index)."""
        if not self.tab.shaped:
            return ["circle"]
        return list(self.tab.params["shape_names"])

    def shapes(self):
        """Per cell the shape of its piece (a SHAPES_ALL name), or None."""
        from games.ttt.schema import SHAPES_ALL
        return [SHAPES_ALL[shape_at(self, c)] if self.cell[c] else None for c in range(self.tab.S)]

    def paralysed(self):
        """The cells whose pieces are paralysed ("Paralyzes captive(s)"), in order."""
        return [c for c in range(self.tab.S) if is_paralysed(self, c)]

    def moved(self):
        """The cells whose pieces have moved since they came onto the board
        ("Castle" keeps the record; without it, none), in order."""
        return [c for c in range(self.tab.S) if self.tab.castle and has_moved(self, c)]

    def shape_reserves(self):
        """{colour: {shape: count}} of the pieces in reserve."""
        tab = self.tab
        if not tab.shaped:
            return {tab.colour_names[c]: {"circle": self.reserve[c]} for c in range(tab.C)}
        return {tab.colour_names[c]: {name: self.sres[c * tab.K + k]
                                      for k, name in enumerate(tab.params["shape_names"])}
                for c in range(tab.C)}

    def goal_distance(self, int seat, int t):
        """Rows from target t to ``seat``'s goal line (-1: no goal)."""
        if not self.tab.shaped:
            return -1
        return goal_rows(self, seat, t)

    def stack_hand(self, int seat, int t, chips=()):
        """Python face of ``stack_hand_rank``: seat's rank (games.ttt.poker.rank's
        scale) in stack t, leaving out the shapes named in ``chips``."""
        from games.ttt.schema import SHAPES_ALL
        tab = self.tab
        if not tab.gravity or not tab.shaped:
            raise ValueError("stack hands exist on a stacks board with shapes (the shapes path)")
        if not 0 <= seat < tab.seats or not 0 <= t < tab.T:
            raise ValueError(f"seat 0..{tab.seats - 1} and stack 0..{tab.T - 1} (got {seat}, {t})")
        mask = 0
        for name in chips:
            if name not in SHAPES_ALL:
                raise ValueError(f"unknown shape {name!r} (allowed: {', '.join(SHAPES_ALL)})")
            mask |= 1 << SHAPES_ALL.index(name)
        return stack_hand_rank(self, seat, t, mask)

    def pending_pot(self):
        """The pot waiting for its chance node: {"target", "shape", "pieces",
        "captors"} (captor colours in dealing order), or None."""
        tab = self.tab
        if not tab.pots or not self.mem[tab.pot0 + POT_PENDING]:
            return None
        pot = [self.mem[tab.pot0 + i] for i in range(POT_LEN)]
        return {"target": pot[POT_T], "pieces": pot[POT_UNITS],
                "shape": (tab.params["shape_names"][pot[POT_K]] if pot[POT_K] >= 0
                          else None),                          # None: a showdown's pot
                "captors": [tab.colour_names[pot[POT_PIECE + j] - 1] for j in range(pot[POT_N])]}

    def showdown(self, int t):
        """Python face of the showdown on stack t as it stands (tests): {"captors":
        [seats], "kept": [heights], "pot": [heights in dealing order]}."""
        cdef int captors[MAX_SEATS]
        cdef uint8_t keep[CP_MAX_STACK]
        cdef int order[CP_MAX_STACK]
        cdef int n, m, cbase, z
        if not self.tab.gravity or not self.tab.shaped or not 0 <= t < self.tab.T:
            raise ValueError("a showdown needs a stacks board with shapes and a stack 0..T-1")
        cbase = cover_base(self, t)
        n = showdown_plan(self, t, cbase, captors, keep)
        m = pot_dealing_order(self, t, cbase, keep, order)
        return {"captors": [captors[i] for i in range(n)],
                "kept": [z for z in range(cbase, self.top[t]) if keep[z - cbase]],
                "pot": [order[i] for i in range(m)]}

    def pending_chain(self):
        """The target of the piece whose chain jump goes on (pending), or None."""
        if not self.tab.chains or not self.mem[self.tab.chain0]:
            return None
        return self.mem[self.tab.chain0] - 1

    # -- a deck (_deal.pxi) ----------------------------------------------------------

    def deck_pieces(self):
        """{shape: count} of the pieces the deck still holds ({} without a deck)."""
        if not self.tab.deck:
            return {}
        cdef int32_t* v = deck_region(self)
        return {name: v[DECK_K0 + k] for k, name in enumerate(self.shape_names())}

    def deals_left(self):
        """How many pieces the deal in progress still gives: the start's, or
        this turn's (0 between deals or without a deck)."""
        if not self.tab.deck:
            return 0
        cdef int32_t* v = deck_region(self)
        return self.tab.ndeals - v[0] if v[0] < self.tab.ndeals else v[2]

    # -- rounds (_rounds.pxi) --------------------------------------------------------

    def pending_plans(self):
        """The plans registered in the open round, {seat: action string}
        (an onlooker's view: every player's own views hide the others')."""
        if not self.tab.sim or not in_round(self):
            return {}
        cdef int32_t* v = round_region(self)
        return {s: action_text(self, s, v[2 + s]) for s in range(self.tab.seats) if v[2 + s] >= 0}

    def history(self):
        """Every decision so far as (seat, action) (rule sets with a
        simultaneous phase keep it for the information states; a pot's
        chance outcome is recorded with seat 15)."""
        if not self.tab.sim:
            raise ValueError("only rule sets with a simultaneous or single phase keep a history")
        cdef int32_t* v = round_region(self)
        return [(v[2 + MAX_SEATS + i] >> 20, v[2 + MAX_SEATS + i] & 0xFFFFF) for i in range(v[1])]

    def playout_plans(self):
        """The plans random playouts draw from for the seat to plan in the open
        round, sorted ([] outside rounds): the fast draw's set, which equals
        the seat's legal plans."""
        if not self.tab.sim or not in_round(self):
            return []
        cdef int* buf = <int*>malloc(self.tab.num_actions * sizeof(int))
        cdef int n = fast_plans(self, self.seat, buf)
        out = sorted(buf[i] for i in range(n))
        free(buf)
        return out

    # -- cloaking (_cloaking.pxi) ----------------------------------------------------

    @property
    def cloaking(self):
        """The cloaking type played: "none", "hides" or "obscures"."""
        return ("none", "hides", "obscures")[self.tab.cloaking]

    def cloaked_cells(self):
        """Cells cloaked in the current phase."""
        if self.seen == NULL:
            return []
        return [c for c in range(self.tab.S) if cloaked_now(self, c)]

    def player_view(self, int player):
        """Per cell what ``player`` sees: a colour letter (``COLOUR_CHARS``)
        for a piece it fully sees, the capital letter for a piece whose colour
        but not shape it sees (obscurity), "." for what looks like an empty
        space (under invisibility, a hidden piece or a wall it does not see)
        and "#" for a locked space that looks empty."""
        self._player(player)
        out = []
        for c in range(self.tab.S):
            v = self.cell[c]
            if v and (self.seen == NULL or fully_sees(self, player, c)):
                out.append(COLOUR_CHARS[v - 1])
            elif v and sees_piece(self, player, c):
                out.append(COLOUR_CHARS[v - 1].upper())
            else:
                out.append("#" if locked_now(self, c) and not hides_wall(self, player, c) else ".")
        return out

    def player_shape_view(self, int player):
        """Per cell the shape ``player`` sees (see ``shape_letters``)."""
        self._player(player)
        return shape_letters(self, player)

    # -- events of cloaked rule sets (_cloaked_events.pxi) ------------------------

    def event_count(self):
        """How many events the log of a cloaked rule set holds (0 without cloaking)."""
        return logged_event_count(self) if self.seen != NULL else 0

    def _logged(self, i):
        """``i`` after checking it names a logged event."""
        if not isinstance(i, int) or not 0 <= i < self.event_count():
            raise IndexError(f"event must be in 0..{self.event_count() - 1}, got {i!r}")
        return i

    def event(self, i):
        """Logged event i as (action, actor seat, 1 if it was an attempt that
        only revealed, per seat the view class of what it saw: 0 hidden, 1 all
        of it, 2 a piece it had not seen arriving, 3 colour and place but not
        shape, phase after it)."""
        return logged_event(self, self._logged(i))

    def event_cover(self, i):
        """What logged event i's cover showed: (verdict: 0 no cover, 1 the
        attacker captured, 2 it was captured, 3 both destroyed; 1 if its target
        was open; per seat 1 if it saw the target's piece vanish; per seat 1 if
        it saw the mover vanish from its source)."""
        return logged_cover(self, self._logged(i))

    def event_reincarnation(self, i):
        """(colour index, count, SHAPES_ALL index) of what logged event i's
        capture put into a reserve, or None."""
        return logged_reincarnation(self, self._logged(i))

    def reincarnation_text(self, int player, i):
        """What ``player`` reads of logged event i's reincarnation ("" if none):
        the colour and count for everyone, the shape for that colour's players."""
        return reincarnation_line(self, self._player(player), self._logged(i))

    def event_captives(self, i):
        """The captives of logged event i's jump or surround: per captured cell
        (cell, seats that saw it as a bit mask, converted, SHAPES_ALL index,
        pieces its capture put into the captor's reserve, captor's colour)."""
        return logged_captives(self, self._logged(i))

    def captives_text(self, int player, i, int actor):
        """What ``player`` reads of the captives of logged event i, made by
        seat ``actor``: the captives it saw (all of them for the actor), then
        any reincarnation."""
        return captives_line(self, self._player(player), self._logged(i), actor)

    def last_event(self):
        """The last logged event of a cloaked rule set (None before any):
        action, actor seat, whether it was an attempt that only revealed,
        what each seat saw of it ("all", "hidden", "arrived") and the phase
        after it."""
        if self.seen == NULL or logged_event_count(self) == 0:
            return None
        action, actor, attempt, cls, phase = logged_event(self, logged_event_count(self) - 1)
        return {"action": action, "actor": actor, "attempt": bool(attempt), "phase": phase,
                "seen": [("hidden", "all", "arrived", "colour")[k] for k in cls]}    # colour: shapes unseen

    def hides_turns(self):
        """Whether the rule set hides the turns a player sees nothing of."""
        return bool(self.tab.params.get("hidden_turns", False))

    def event_line(self, int player, int i):
        """Logged event i as ``player`` reads it (a line of its information state)."""
        return event_line(self, player, i)

    def shown_events(self, int player):
        """The logged events ``player``'s information state shows (hidden turns)."""
        return shown_events(self, player)

    def shown_event_count(self, int player):
        """How many event lines ``player``'s information state has."""
        return shown_event_count(self, player)

    def shown_event_lines(self, int player, int start=0):
        """``player``'s event lines from its ``start``-th on."""
        return shown_event_lines(self, player, start)


def make_core(dict compiled):
    """A fresh starting position of a compiled rule set."""
    return TTTCore(Tables(compiled))


def _restore(Tables tab, list block, tuple scalars):
    cdef TTTCore core = TTTCore.__new__(TTTCore)
    cdef int i
    core._setup(tab)
    for i in range(tab.block):
        core.mem[i] = block[i]
    (core.num_free, core.seat, core.left, core.passes, core.plies, core.offer_by, core.answerer,
     core.offered, core.end, result, core.board_hash, core.placements, core.moves, core.phase,
     core.folded, core.disq) = scalars
    set_phase_locks(core)
    for i in range(MAX_SEATS):
        core.result[i] = result[i]
    return core


# the rule vocabulary, one file per concept (the map in the module docstring)
include "_phases.pxi"
include "_turns.pxi"
include "_outcomes.pxi"
include "_shapes.pxi"
include "_stacks.pxi"
include "_captures.pxi"
include "_jumps.pxi"
include "_surround.pxi"
include "_pots.pxi"
include "_rounds.pxi"
include "_cloaking.pxi"
include "_cloaked_events.pxi"
include "_cloaked_stack_covers.pxi"
include "_cloaked_round_covers.pxi"
include "_views.pxi"
include "_deal.pxi"

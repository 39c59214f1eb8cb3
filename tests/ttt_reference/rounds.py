"""Simultaneous and single rounds, from docs/rules/ttt/rounds.md
(its readings of a round and its sections on captures, pots, moving shapes, by-stack covers,
surrounds, jumps and goals inside rounds).

In a simultaneous or single phase each round every seat that plays
registers a plan (a ply legal on the board as it was at the start of the
round, Chaos last by chance), then all plans resolve together:

- placements spend their shape's reserve; an overdrawn shared reserve is
  emptied and none of its contested placements happens;
- jumps take their captives first: a jumped piece is taken only if no plan
  lifts from its target and no other plan lifts from the jumper's; several
  plans over one piece destroy it without a result; a chain-jumper jumps
  once;
- every moved piece leaves first (a by-stack plan: the mover and every piece
  above it); plans moving from one stack move nothing, and every piece that
  two of them would take is destroyed;
- a target that one plan sends pieces to gets them: a placement's or plain
  move's piece arrives as a sequential one would (covers included) and takes
  its replacement shape if it stays; a carried stack lands in order and its
  mover covers as a sequential by-stack move does (captures.py, pots.py);
- several plans to one target: the winner ranks strictly above every other
  by class (no power lowest), or (two by-rank pieces, a by-stack plan among
  them) by its player's hand in the stack holding every collider's pieces;
  it lands and then captures the losers by its result (a winner that goes to
  the showdown takes them first); a tie at the top destroys every piece sent
  there;
- every landed surrounder then finds its captives, all before any is taken
  (one colour's surrounders: the lowest seat's result; several colours':
  destroyed); reincarnated pieces join the reserves;
- the pots the round left are dealt (chance nodes, in target order); then
  the turn checks over the landed pieces still standing (several sides at
  once draw; each board by its own pieces on several boards), the move
  limit, and "stalemate if goal is reached" for a plan whose piece reached
  its goal and stayed;
- with two pieces a turn (``round_plies: round-by-round``) a turn is two
  rounds: a single phase lasts both;
- with two pieces a turn planned together (``round_plies: planned-together``,
  the default) every seat that plays picks its first ply, then every seat
  with one its second, legal on the starting board as its own first ply
  alone leaves it; the first plies resolve as a round, then the second plies
  (a second ply not legal for its seat on the board the first round left is
  lost: a ply that moves nothing); a turn passes only if every ply is a
  pass; no second plies are planned when the first plies reach the move
  limit.
"""

from __future__ import annotations

import copy

from .captures import GAINS


class RoundsMixin:
    def _init_rounds(self, r):
        self.plans = None  # {seat: action} while a round is open
        self.planned = (
            self.ppt == 2
            and any(ph["order"] != "sequential" for ph in r["phases"])
            and r.get("round_plies", "planned-together") == "planned-together"
        )
        self.pair_stage = None  # "second", "round1", "round2" while a planned pair is open
        self.firsts = None  # {seat: first ply} while the second plies are planned
        self.seconds = {}  # {seat: second ply} while the first plies resolve
        self.second_seats = set()  # the seats that plan a second ply
        self.lost = set()  # second plies the first round made impossible
        self.solo = False  # a copy resolving one first ply alone
        self.round_goal = False
        self.goal_seats = set()
        self.jump_reserve = []  # (colour, captive, count) reincarnated by the round's jumps
        self.collided = None  # (senders, sending, target) of the by-stack collision being landed
        self.taken_first = False

    def _start_phase(self, k):
        if self.phases[k]["order"] == "sequential":
            self.plans = None
            return super()._start_phase(k)
        self.phase = k
        self.passes = 0
        self.left = self.ppt
        self.offered = False
        self._open_round()

    def _open_round(self):
        playing = self.playing()
        if not playing or (
            not self.phases[self.phase]["pass"] and any(not self.has_move(s) for s in playing)
        ):
            self.plans = None
            return self._stalemate_or_next_phase()
        self.plans = {}
        self.seat = playing[0]

    def legal_actions(self):
        if self.result is None and self.plans is not None:
            return self.round_plans(self.seat)  # no draw offers inside a round
        return super().legal_actions()

    def round_plans(self, s):
        """Seat s's legal plans in the open round (its second plies while they are planned)."""
        if self.pair_stage == "second" and self.plans is not None:
            return self._second_actions(s)
        return self.seat_actions(s)

    def _planners(self):
        if self.pair_stage == "second":
            return [s for s in self.playing() if s in self.second_seats]
        return self.playing()

    def simultaneous_players(self):
        if self.result is not None or self.plans is None:
            return []
        return [s for s in self._planners() if s >= self.seat and s < self.n]

    def play(self, a):
        if self.result is not None or self.plans is None:
            return super().play(a)
        self.plans[self.seat] = a
        later = [s for s in self._planners() if s > self.seat]
        if later:
            self.seat = later[0]
            return
        if self.planned and self.pair_stage is None:
            return self._open_seconds()
        if self.planned:
            return self._resolve_pair()
        self._resolve()

    # two pieces a turn planned together -----------------------------------------------------
    def _second_actions(self, s):
        """Seat s's second plies: legal on the starting board as its first ply alone leaves it."""
        alone = copy.deepcopy(self)
        alone.plans, alone.solo, alone.pair_stage = {s: self.firsts[s]}, True, None
        alone._resolve()
        alone.seat = s
        return alone.seat_actions(s)

    def _open_seconds(self):
        self.firsts, self.plans = self.plans, {}
        self.pair_stage, self.left = "second", 1
        self.second_seats = set()
        if not (self.limit and self.plies + len(self.firsts) >= self.limit):
            self.second_seats = {s for s in self.firsts if self._second_actions(s)}
        if not self.second_seats:
            return self._resolve_pair()
        self.seat = min(self.second_seats)

    def _resolve_pair(self):
        self.seconds, self.plans, self.firsts = self.plans, self.firsts, None
        self.pair_stage, self.second_seats = "round1", set()
        self._resolve()

    def _resolve_seconds(self):
        seconds, self.seconds = self.seconds, {}
        self.lost = set()
        for s, a in sorted(seconds.items()):
            self.seat = s
            if a != self.a_pass and a not in self.seat_actions(s):
                self.lost.add(s)
        self.plans, self.pair_stage = seconds, "round2"
        self._resolve()

    # resolution ---------------------------------------------------------------------------------
    def _lifted(self, s, a):
        """(source target, lowest height it lifts, destination, by_stack, replacement) of move plan a."""
        if self.is_stack_id(a):
            c, f, u, replace = self.stack_move_parts(a)
            return f, c[2], u, True, replace
        f, u, replace = self.move_parts(a)
        return f, self.top_cell(f)[2], u, False, replace

    def _lift_cells(self, f, low):
        if not self.gravity:
            c = self.target_xyz(f)
            return [c] if c in self.board else []
        x, y, _ = self.target_xyz(f)
        return [w for w in self.column(x, y) if w[2] >= low]

    def _take_jumped(self, plans):
        """The round's jumps take their captives (before any piece leaves)."""
        sources = {}
        for s, a in plans.items():
            if a != self.a_pass and a >= self.move0:
                f = self._lifted(s, a)[0]
                sources[f] = sources.get(f, 0) + 1
        over = {}
        for s, a in sorted(plans.items()):
            m = self.jumped(s, a) if a != self.a_pass else None
            if m is None:
                continue
            f = self.move_parts(a)[0]
            if sources[f] > 1 or self.target_of(m) in sources:
                continue  # the jumper did not move, or the jumped piece moved away
            src = self.top_cell(f)
            over.setdefault(m, []).append((self.board[src], self.shape[src]))
        for m, captors in sorted(over.items()):
            if len(captors) == 1:
                col, name = captors[0]
                result = self.props[name]["result"]
                if result == "converts":
                    self.board[m] = col
                    continue
                if result in GAINS:
                    self.jump_reserve.append((col, self.shape[m], GAINS[result]))
            del self.board[m], self.shape[m]

    def _resolve(self):
        plans, self.plans = self.plans, None
        if self.jumpers:
            self._take_jumped(plans)
        self.plies += len(plans)
        self.round_goal = False
        self.resolving = True
        goals = set()  # seats whose move plan ends on their goal line from off it
        sending = {}  # seat -> [target, colour, shape, carried pieces or None, replacement]
        lifts = {}  # seat -> (source target, lowest height)
        for s, a in sorted(plans.items()):
            if a == self.a_pass or s in self.round_attempts or s in self.lost:
                continue
            if a < self.move0:
                name, col, t = self.placement_parts(a, s)
                self.sres[col][name] -= 1
                self.reserve[col] -= 1
                sending[s] = [t, col, name, None, None]
            else:
                f, z, u, by_stack, replace = self._lifted(s, a)
                lifts[s] = (f, z)
                sending[s] = [u, None, None, [] if by_stack else None, replace]
                if self.reaches_goal(s, f, u):
                    goals.add(s)
        for col in range(len(self.colours)):
            for name in self.names:
                if self.sres[col][name] < 0:  # overdrawn: emptied, none of those placed
                    self.reserve[col] -= self.sres[col][name]
                    self.sres[col][name] = 0
                    for s in [s for s in sending if s not in lifts and sending[s][1:3] == [col, name]]:
                        del sending[s]
        for f in sorted({f for f, _ in lifts.values()}):
            movers = [s for s in lifts if lifts[s][0] == f]
            taken = self._lift_cells(f, max(lifts[s][1] for s in movers))
            self._round_lift(movers, taken)
            pieces = [(self.board.pop(w), self.shape.pop(w)) for w in taken]
            if len(movers) > 1:
                for s in movers:  # contested: destroyed, nobody moves
                    del sending[s]
                continue
            s = movers[0]
            sending[s][1], sending[s][2] = pieces[0]
            if sending[s][3] is not None:
                sending[s][3] = pieces
        landed = []
        for t in sorted({v[0] for v in sending.values()}):
            senders = sorted(s for s in sending if sending[s][0] == t)
            winner = senders[0] if len(senders) == 1 else self._collision_winner(senders, sending, t)
            if winner is None:
                continue  # every piece sent here is destroyed
            _, col, name, carried, replace = sending[winner]
            if carried is not None:
                self.collided, self.taken_first = (senders, sending, t), False
                for w in self.land_carried(winner, t, carried, replace):
                    landed.append((winner, w, self.board[w]))
                if not self.taken_first:
                    self.take_collided(senders, sending, winner, col, name, t)
                self.collided = None
                continue
            stays = self.arrive(winner, name, col, t)
            if stays is not None:
                if replace:
                    self.shape[stays] = replace
                self._round_land(winner, stays)
            self.take_collided(senders, sending, winner, col, name, t)
            if stays is not None:
                landed.append((winner, stays, col))
        self.resolving = False
        landed.sort()
        self.round_goal = bool(goals & {w for w, _, _ in landed})
        self.goal_seats = goals
        return self._round_end(plans, landed)

    def _collision_winner(self, senders, sending, t):
        """The plan that wins target t among several, or None (all destroyed)."""
        if any(sending[s][3] is not None for s in senders):  # by-stack plans: hands in the stack
            x, y, _ = self.target_xyz(t)
            pieces = []
            for s in senders:
                pieces += sending[s][3] if sending[s][3] is not None else [(sending[s][1], sending[s][2])]
            hands = {s: self.hand(self.owned[s], self.board, self.shape, x, y, extra=pieces) for s in senders}

            def above(a, b):
                la, lb = self.level(sending[a][2]), self.level(sending[b][2])
                return la > lb if la != lb else (la == 1 and hands[a] > hands[b])

        else:  # powerless colliders rank lowest

            def above(a, b):
                return self.above(sending[a][2], sending[b][2])

        tops = [s for s in senders if all(above(s, o) for o in senders if o != s)]
        return tops[0] if tops else None

    def arrive(self, s, name, col, t):
        """A placed or plainly moved piece of seat s lands on target t (a cover when it covers)."""
        if self.outcome(s, name, t)[0] == "none":
            dest = self.landing(t)
            self.board[dest], self.shape[dest] = col, name
            return dest
        return self.cover_land(s, name, col, t)

    def take_collided(self, senders, sending, winner, col, name, t):
        """The losers of a collision on t won by ``winner`` (colour col, shape
        name): reincarnated into its reserve, converted onto the landing
        space (stacks), or removed, by the winner's result."""
        result = self.props[name]["result"] if self.level(name) else None
        for o in senders:
            if o == winner:
                continue
            captive = sending[o][2]
            if result in GAINS:
                self.gain(col, captive, GAINS[result])
            elif result == "converts" and self.gravity and self.landing(t) is not None:
                dest = self.landing(t)
                self.board[dest], self.shape[dest] = col, captive

    def cover_by_stack(self, s, u, mover, n):
        """A collision's by-stack winner that goes to the showdown takes the
        losers first (converted ones onto the stack, into the showdown)."""
        if self.collided is not None and len(self.collided[0]) > 1:
            x, y, h = mover
            if self.showdown_applies(s, self.shape[mover], self.board, x, y, h, self.shape):
                senders, sending, t = self.collided
                self.take_collided(senders, sending, s, self.board[mover], self.shape[mover], t)
                self.taken_first = True
        return super().cover_by_stack(s, u, mover, n)

    # hooks for cloaking (cloaking.py)
    round_attempts = frozenset()

    def _round_lift(self, movers, cells):
        pass

    def _round_land(self, s, dest):
        pass

    # the end of a round -------------------------------------------------------------------------
    def _round_end(self, plans, landed):
        for col, captive, got in self.jump_reserve:
            self.gain(col, captive, got)
        self.jump_reserve = []
        landed = self._round_surrounds(landed, plans)
        if self.solo:
            return  # a first ply alone: the board its second ply sees
        pots = sorted(self.round_pots, key=lambda pot: pot["t"])
        self.round_pots = []
        if pots:
            self.pot, self.round_tail = pots[0], (plans, landed, pots[1:])
            return
        self._round_checks(plans, landed)

    def _round_surrounds(self, landed, plans):
        """Every landed surrounder (a plan's own piece: a carried stack's
        mover, the lowest) finds its captives, all before any is taken; the
        landed pieces still standing."""
        takers, captors, own = {}, {}, {}
        for s, w, _ in landed:
            own.setdefault(s, w)
        for s, w, _ in landed:
            if w == own[s] and w in self.board and self.surrounder(self.shape[w]):
                captors[s] = (self.board[w], self.shape[w])
                for c in self.surrounded(s, w, self.board, self.shape, self.move_source(plans.get(s))):
                    takers.setdefault(c, []).append(s)
        paralysed = set()
        for c, seats in sorted(takers.items()):
            if len({captors[s][0] for s in seats}) == 1:
                col, name = captors[min(seats)]
                result = self.props[name]["result"]
                if result == "converts":
                    self.board[c] = col
                    continue
                if result == "paralyzes":  # it stays, in its colour, and never moves again
                    self.paralysed.add(c)
                    paralysed.add(c)
                    continue
                self.gain(col, self.shape[c], GAINS.get(result, 0))
            del self.board[c], self.shape[c]
            self.paralysed.discard(c)
        # a paralysed landed piece stays in its colour: its turn check still counts
        landed = [(s, w, col) for s, w, col in landed if w not in takers or w in paralysed]
        if self.round_goal:  # a goal counts only for a piece that stayed
            self.round_goal = bool(self.goal_seats & {s for s, _, _ in landed})
        return landed

    def _round_checks(self, plans, landed):
        """After a round's pieces landed: the turn checks over them, then the round ends."""
        if self.B > 1:
            return self._resolve_boards(plans, landed)
        for k, effect, diag in self.checks:
            holders = [s for s, dest, col in landed if self.run_through(dest, col, diag) >= k]
            if not holders:
                continue
            sides = {self.side[s] for s in holders}
            if self.overachievers:  # the round's winners are one set
                if self._round_overachievers(effect, sides):
                    return
                break
            mover = self.side[min(holders)]
            if effect == 2:
                self.result = [-1.0] * self.n
            elif len(sides) > 1:
                self.result = [0.0] * self.n  # several sides at once: nobody was first
            elif effect == 0:
                self.result = [1.0 if self.side[p] == mover else -1.0 for p in range(self.n)]
            else:
                self.result = [-1.0 if self.side[p] == mover else 1.0 for p in range(self.n)]
            return
        if self.pentagon_check():  # "Last pentagon wins": once, after the round resolved
            return
        if self.limit and self.plies >= self.limit:
            return self._stalemate()
        self._next_round(plans)

    def _next_round(self, plans):
        # with two pieces a turn a turn is two rounds ("Two pieces a turn"): a single
        # phase ends after the turn's last round; ``left`` counts the turn's rounds left
        turn_over = self.left <= 1
        stage, self.pair_stage, self.lost = self.pair_stage, None, set()
        allpass = all(a == self.a_pass for a in plans.values())
        if stage == "round1":  # planned together: the goal, then every ply passing, then the seconds
            if self.round_goal or (allpass and all(a == self.a_pass for a in self.seconds.values())):
                self.round_goal = False
                self.plies += len(self.seconds)  # unplayed second plies count as plies
                self.seconds = {}
                if self.limit and self.plies >= self.limit:
                    return self._stalemate()
                return self._stalemate_or_next_phase()
            if self.seconds:
                return self._resolve_seconds()
        if stage in ("round1", "round2"):
            allpass = False
        if allpass or (self.phases[self.phase]["order"] == "single" and turn_over):
            return self._stalemate_or_next_phase()
        if self.round_goal:  # "stalemate if goal is reached", after the checks and the limit
            self.round_goal = False
            return self._stalemate_or_next_phase()
        self.left = self.ppt if turn_over else self.left - 1
        self._open_round()

    def _round_overachievers(self, effect, sides):
        """ "Overachiever(s) disqualified" after a round (docs/rules/ttt/outcomes.md,
        "Overachievers in rounds"): the pieces of
        ``sides`` completed the check together, so their winners are one set.
        True when the game ended."""
        players = set(range(self.n))
        chaos_side = self.side[-1] if self.chaos else None
        if effect == 2 or (effect == 0 and chaos_side in sides):
            self.result = [-1.0] * self.n  # all lose / Chaos's line: Chaos wins
            return True
        if effect == 0:
            winners, losers = {p for p in players if self.side[p] in sides}, set()
        else:
            losers = {p for p in players if self.side[p] in sides}
            winners = players - losers
        winners -= self.disqualified
        if effect == 0 and not winners:
            return False  # only disqualified players completed
        if winners and not self.disqualified:
            self.disqualified = set(winners)  # the first set of winners
            if self.disqualified | losers != players:
                return False
            winners = set()  # all disqualified or lost: Chaos wins
        self.result = [1.0 if p in winners else -1.0 for p in range(self.n)]
        return True

    def _resolve_boards(self, plans, landed):
        """Several boards, after the plans landed: each board is decided by
        the pieces that landed on it (first check in the listed order that
        holds for one of them; several sides at once draw that board, an
        all-lose check loses it for everyone); the boards decided in the
        round lock together; then the round ends as on one board."""
        for b in range(self.B):
            mine = [(s, dest, col) for s, dest, col in landed if self.board_of(dest) == b]
            for k, effect, diag in self.checks:
                holders = [s for s, dest, col in mine if self.run_through(dest, col, diag) >= k]
                if not holders:
                    continue
                sides = {self.side[s] for s in holders}
                ms = self.side[min(holders)]
                if effect == 2:
                    self.decided[b] = [-1.0] * self.n
                elif len(sides) > 1:
                    self.decided[b] = [0.0] * self.n
                elif effect == 0:
                    self.decided[b] = [1.0 if self.side[p] == ms else -1.0 for p in range(self.n)]
                else:
                    self.decided[b] = [-1.0 if self.side[p] == ms else 1.0 for p in range(self.n)]
                break
        if len(self.decided) == self.B:
            return self._most_boards(by_check=True)
        if self.limit and self.plies >= self.limit:
            return self._stalemate()
        self._next_round(plans)

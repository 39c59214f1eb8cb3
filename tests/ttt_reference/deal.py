"""A deck and dealt pieces (docs/rules/ttt/deal.md): the deal's chance
nodes before the first phase, each player's hand joining its reserve, the
dealt common spaces face up in a colour no seat owns, and the pieces dealt
to a player as its turn starts.
"""

from __future__ import annotations

from games.ttt.rules import PALETTE


class DealMixin:
    def _init_deal(self, r):
        """The deck as the rules page words it: ``deck.pieces`` left to deal,
        each player dealt ``deck.hand`` pieces in turn (seat order, Chaos
        not dealt to), then one piece face up on each ``board.dealt`` space
        (in the order of its x, then y, then z), of the first palette colour
        no seat owns."""
        self.deck = dict(r["deck"]["pieces"]) if "deck" in r else None
        self.deals = []  # (seat or None for a common space, cell) in dealing order
        self.dealt_log = []  # (seat or None, shape) of every deal so far
        self.per_turn = r["deck"].get("per_turn", 0) if self.deck is not None else 0
        self.turn_deal = 0  # pieces of the turn's deal still to come
        self.turn_dealt = False  # the turn's deal is done: its start goes on
        if self.deck is None:
            return
        hand = r["deck"]["hand"]
        self.deals = [(i % self.n, None) for i in range(hand * self.n)]
        common = sorted(r["board"].get("dealt", []), key=lambda at: (at[2], at[1], at[0]))
        self.deals += [(None, self.copies(at)[0]) for at in common]
        if common:
            colour = PALETTE[self.seats]
            if colour not in self.colours:  # communal colours come in palette order
                self.colours.append(colour)
                order = sorted(range(len(self.colours)), key=lambda i: PALETTE.index(self.colours[i]))
                remap = {old: new for new, old in enumerate(order)}
                self.colours = [self.colours[i] for i in order]
                self.sres = [
                    self.sres[i] if i < len(self.sres) else dict.fromkeys(self.names, 0) for i in order
                ]
                self.reserve = [sum(d.values()) for d in self.sres]
                self.board = {c: remap[v] for c, v in self.board.items()}
            self.communal = self.colours.index(colour)

    def dealing(self):
        return self.deck is not None and (len(self.dealt_log) < len(self.deals) or self.turn_deal > 0)

    def deal_outcomes(self):
        """(shape index among the shapes in play, probability) of the next deal."""
        left = sum(self.deck.values())
        return [(self.names.index(s), n / left) for s, n in self.deck.items() if n]

    # the chance node ----------------------------------------------------------------------------
    def current_player(self):
        if self.dealing():
            return -1
        return super().current_player()

    def legal_actions(self):
        if self.dealing():
            return [a for a, _ in self.deal_outcomes()]
        return super().legal_actions()

    def play(self, a):
        if not self.dealing():
            return super().play(a)
        name = self.names[a]
        self.deck[name] -= 1
        if len(self.dealt_log) >= len(self.deals):  # the turn's deal: to the seat to move
            col = min(self.owned[self.seat])
            self.sres[col][name] += 1
            self.reserve[col] += 1
            self.dealt_log.append((self.seat, name))
            self.turn_deal -= 1
            if self.turn_deal == 0:
                self.turn_dealt = True
                self._turn_start()
            return
        seat, cell = self.deals[len(self.dealt_log)]
        if seat is not None:
            col = min(self.owned[seat])  # assigned colours: the seat's own
            self.sres[col][name] += 1
            self.reserve[col] += 1
        else:
            self.board[cell] = self.communal
            self.shape[cell] = name
        self.dealt_log.append((seat, name))
        if not self.dealing():
            self._start_phase(0)

    def _turn_start(self):
        """A deck dealing each turn deals the player (not Chaos) whose turn
        starts, while the deck lasts; then the turn starts as without a deck."""
        if self.turn_dealt:
            self.turn_dealt = False
        elif self.per_turn and sum(self.deck.values()) and not self.is_chaos(self.seat):
            self.turn_deal = min(self.per_turn, sum(self.deck.values()))
            return
        super()._turn_start()

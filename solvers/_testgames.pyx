# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Synthetic games for testing searches and the protocol's views.

``TreeCore``: a random DAG with chance nodes (for the perfect-information
searches). ``KuhnCore``: Kuhn poker exactly (a hidden card each, value -1/18
for the first player), the smallest game with a chance deal and private
information. ``MatrixCore``: a one-shot two-player matrix game played as one
simultaneous round (matching pennies, the Prisoner's Dilemma).

None of the real games has everything the solvers must handle (chance nodes,
more than two players, one player moving several times in a row,
transpositions, fractional returns), and the real games are too large to
check against brute force. This one has all of it in a few hundred nodes.

TreeCore: the mover at ply ``d`` is ``pattern[d]`` (a digit is a player, ``c`` is
chance). The position is ``(d, s)`` with ``s`` in ``0..modulus-1``; action
``a`` takes ``s`` to ``(3*s + a + d) % modulus``, so different paths meet
again (transpositions). A decision node has between 1 and ``branching``
actions, a chance node ``branching`` outcomes with unequal probabilities,
and a finished game gives every player a return in {-1, -0.5, 0, 0.5, 1}
drawn from ``(s, seed)`` (two players: zero-sum, ``[v, -v]``).
"""
from libc.stdint cimport uint64_t
from games.core cimport GameCore, PLAYER_CHANCE, PLAYER_TERMINAL
from games.rng cimport mix64


cdef class TreeCore(GameCore):
    cdef int movers[64]
    cdef int length
    cdef int branching
    cdef int modulus
    cdef uint64_t seed
    cdef int d
    cdef int s

    def __init__(self, str pattern="0c1", int branching=3, int players=2, int modulus=7,
                 unsigned long long seed=0, bint hidden=False, bint _bare=False):
        if _bare:
            return
        # hidden=True declares imperfect information without any view: the
        # case the protocol's defaults must refuse to serve
        self.imperfect_information = hidden
        if not 1 <= len(pattern) <= 64:
            raise ValueError("pattern must have 1..64 characters")
        if not 2 <= branching <= 8 or not 2 <= players <= 8 or not 1 <= modulus <= 100000:
            raise ValueError("need branching in 2..8, players in 2..8, modulus in 1..100000")
        for i, ch in enumerate(pattern):
            if ch == "c":
                self.movers[i] = PLAYER_CHANCE
            elif ch.isdigit() and int(ch) < players:
                self.movers[i] = int(ch)
            else:
                raise ValueError(f"pattern characters are 'c' or a player digit below {players}, got {ch!r}")
        self.length = len(pattern)
        self.branching = branching
        self.modulus = modulus
        self.seed = seed
        self.num_players = players
        self.num_actions = branching
        self.max_chance_outcomes = branching
        self.max_game_length = self.length
        self.d = 0
        self.s = 0

    cdef GameCore copy(self):
        cdef TreeCore o = TreeCore(_bare=True)
        o.movers = self.movers
        o.length = self.length
        o.branching = self.branching
        o.modulus = self.modulus
        o.seed = self.seed
        o.num_players = self.num_players
        o.num_actions = self.num_actions
        o.max_chance_outcomes = self.max_chance_outcomes
        o.max_game_length = self.max_game_length
        o.imperfect_information = self.imperfect_information
        o.d = self.d
        o.s = self.s
        return o

    cdef inline uint64_t _h(self, uint64_t extra) noexcept:
        return mix64(self.seed * 1000003 + <uint64_t>self.d * 100003 + <uint64_t>self.s * 7 + extra)

    cdef int current_player(self) noexcept:
        return PLAYER_TERMINAL if self.d >= self.length else self.movers[self.d]

    cdef int legal_actions(self, int* out) noexcept:
        if self.d >= self.length or self.movers[self.d] == PLAYER_CHANCE:
            return 0
        cdef int n = 1 + <int>(self._h(1) % <uint64_t>self.branching), i
        for i in range(n):
            out[i] = i
        return n

    cdef int chance_outcomes(self, int* actions, double* probs) noexcept:
        if self.d >= self.length or self.movers[self.d] != PLAYER_CHANCE:
            return 0
        cdef int i, b = self.branching
        cdef int rot = <int>(self._h(2) % <uint64_t>b)
        cdef double total = b * (b + 1) / 2.0
        for i in range(b):
            actions[i] = i
            probs[i] = ((i + rot) % b + 1) / total
        return b

    cdef void apply(self, int action) noexcept:
        self.s = (3 * self.s + action + self.d) % self.modulus
        self.d += 1

    cdef void returns(self, double* out) noexcept:
        cdef int p
        if self.d < self.length:
            for p in range(self.num_players):
                out[p] = 0.0
            return
        if self.num_players == 2:
            out[0] = (<int>(self._h(3) % 5) - 2) / 2.0
            out[1] = -out[0]
            return
        for p in range(self.num_players):
            out[p] = (<int>(self._h(10 + p) % 5) - 2) / 2.0

    cdef uint64_t hash(self) noexcept:
        return mix64(<uint64_t>self.d * 1000003 + <uint64_t>self.s + 1)

    def to_string(self):
        return f"ply {self.d} state {self.s}"

    def observation(self):
        return [float(self.d), float(self.s)]


# ---------------------------------------------------------------------------
# Kuhn poker: cards 0, 1, 2 (J, Q, K); each player antes 1 and is dealt one
# card; then player 0 passes or bets 1, player 1 answers, and after
# pass-bet player 0 gets a last word. A bet answered by a pass folds; otherwise
# the higher card takes the pot. Each player sees its own card and the bets.

cdef enum:
    KUHN_PASS = 0
    KUHN_BET = 1
_CARDS = "JQK"


cdef class KuhnCore(GameCore):
    cdef int cards[2]
    cdef int dealt
    cdef int bets[3]
    cdef int nbets

    def __init__(self):
        self.num_players = 2
        self.num_actions = 2
        self.max_chance_outcomes = 3
        self.max_game_length = 5
        self.imperfect_information = True
        self.cards[0] = self.cards[1] = -1
        self.dealt = 0
        self.nbets = 0

    cdef GameCore copy(self):
        cdef KuhnCore o = KuhnCore.__new__(KuhnCore)
        o.num_players = 2
        o.num_actions = 2
        o.max_chance_outcomes = 3
        o.max_game_length = 5
        o.imperfect_information = True
        o.cards = self.cards
        o.dealt = self.dealt
        o.bets = self.bets
        o.nbets = self.nbets
        return o

    cdef bint _over(self) noexcept:
        if self.nbets == 3:
            return True
        return self.nbets == 2 and not (self.bets[0] == KUHN_PASS and self.bets[1] == KUHN_BET)

    cdef int current_player(self) noexcept:
        if self.dealt < 2:
            return PLAYER_CHANCE
        if self._over():
            return PLAYER_TERMINAL
        return self.nbets % 2

    cdef int legal_actions(self, int* out) noexcept:
        if self.dealt < 2 or self._over():
            return 0
        out[0] = KUHN_PASS
        out[1] = KUHN_BET
        return 2

    cdef int chance_outcomes(self, int* actions, double* probs) noexcept:
        cdef int c, n = 0
        if self.dealt >= 2:
            return 0
        for c in range(3):
            if c != self.cards[0]:
                actions[n] = c
                n += 1
        for c in range(n):
            probs[c] = 1.0 / n
        return n

    cdef void apply(self, int action) noexcept:
        if self.dealt < 2:
            self.cards[self.dealt] = action
            self.dealt += 1
        else:
            self.bets[self.nbets] = action
            self.nbets += 1

    cdef int _pot(self, int player) noexcept:
        cdef int i, pot = 1
        for i in range(player, self.nbets, 2):
            pot += self.bets[i]
        return pot

    cdef void returns(self, double* out) noexcept:
        out[0] = out[1] = 0.0
        if self.dealt < 2 or not self._over():
            return
        cdef int p0 = self._pot(0), p1 = self._pot(1)
        cdef double win = min(p0, p1)
        if p0 == p1:
            win = win if self.cards[0] > self.cards[1] else -win
        elif p0 < p1:
            win = -win
        out[0] = win
        out[1] = -win

    cdef uint64_t _bet_code(self) noexcept:
        cdef uint64_t code = 1
        cdef int i
        for i in range(self.nbets):
            code = code * 2 + <uint64_t>self.bets[i]
        return code

    cdef uint64_t hash(self) noexcept:
        return mix64((<uint64_t>(self.cards[0] + 1) * 4 + <uint64_t>(self.cards[1] + 1)) * 64
                     + self._bet_code())

    cdef int _card_of(self, int player) noexcept:
        return self.cards[player] if self.dealt > player else -1

    cdef uint64_t information_state_key(self, int player) except? 0:
        # player, own card and bets: exactly what the player knows
        return mix64((<uint64_t>player * 4 + <uint64_t>(self._card_of(player) + 1)) * 256
                     + self._bet_code())

    cdef object player_information_state_string(self, int player):
        return f"p{player} card:{self._card_str(player)} bets:{self._bets_str()}"

    cdef object player_observation_string(self, int player):
        return f"p{player} card:{self._card_str(player)} pot:{self._pot(0)} {self._pot(1)}"

    cdef object player_information_state_tensor(self, int player):
        # player (2), own card (3), bets (3 rounds x pass/bet)
        t = [0.0] * 11
        t[player] = 1.0
        if self._card_of(player) >= 0:
            t[2 + self._card_of(player)] = 1.0
        for i in range(self.nbets):
            t[5 + 2 * i + self.bets[i]] = 1.0
        return t

    cdef object player_observation_tensor(self, int player):
        # player (2), own card (3), pot contributions (2)
        t = [0.0] * 7
        t[player] = 1.0
        if self._card_of(player) >= 0:
            t[2 + self._card_of(player)] = 1.0
        t[5] = self._pot(0)
        t[6] = self._pot(1)
        return t

    def _card_str(self, int player):
        card = self._card_of(player)
        return _CARDS[card] if card >= 0 else "-"

    def _bets_str(self):
        return "".join("pb"[self.bets[i]] for i in range(self.nbets))

    def to_string(self):
        """The whole deal and the bets (an onlooker's view, not a player's)."""
        cards = " ".join(_CARDS[self.cards[i]] for i in range(self.dealt))
        return f"cards:{cards or '-'} bets:{self._bets_str()}"

    def observation(self):
        # both cards (2 x 3), then each bet as 1 (pass) or 2 (bet)
        t = [0.0] * 9
        for i in range(self.dealt):
            t[3 * i + self.cards[i]] = 1.0
        for i in range(self.nbets):
            t[6 + i] = 1.0 + self.bets[i]
        return t

    def action_string(self, int player, int action):
        if player == PLAYER_CHANCE:
            return f"Deal:{_CARDS[action]}" if 0 <= action < 3 else str(action)
        return ("Pass", "Bet")[action] if 0 <= action < 2 else str(action)


# ---------------------------------------------------------------------------
# A one-shot two-player matrix game: both choose at once, then the table pays.
# For search it is two consecutive decisions, the first hidden from the second.

cdef class MatrixCore(GameCore):
    cdef double pay[2][8][8]
    cdef int n
    cdef int choice[2]
    cdef int decided
    cdef tuple names

    def __init__(self, row, column, names):
        n = len(names)
        if not 2 <= n <= 8 or len(row) != n or len(column) != n or any(
                len(r) != n for r in list(row) + list(column)):
            raise ValueError("a matrix game needs 2..8 actions and two n x n payoff tables")
        self.n = n
        for i in range(n):
            for j in range(n):
                self.pay[0][i][j] = row[i][j]
                self.pay[1][i][j] = column[i][j]
        self.names = tuple(names)
        self._setup()

    cdef void _setup(self) noexcept:
        self.num_players = 2
        self.num_actions = self.n
        self.max_chance_outcomes = 0
        self.max_game_length = 2
        self.imperfect_information = True
        self.simultaneous_moves = True

    cdef GameCore copy(self):
        cdef MatrixCore o = MatrixCore.__new__(MatrixCore)
        o.pay = self.pay
        o.n = self.n
        o.names = self.names
        o._setup()
        o.choice = self.choice
        o.decided = self.decided
        return o

    cdef int current_player(self) noexcept:
        return self.decided if self.decided < 2 else PLAYER_TERMINAL

    cdef int legal_actions(self, int* out) noexcept:
        cdef int i
        if self.decided >= 2:
            return 0
        for i in range(self.n):
            out[i] = i
        return self.n

    cdef int simultaneous_players(self, int* players) noexcept:
        cdef int p, k = 0
        for p in range(self.decided, 2):
            players[k] = p
            k += 1
        return k

    cdef int player_legal_actions(self, int player, int* out) noexcept:
        if player < self.decided:
            return 0
        return self.legal_actions(out)

    cdef void apply(self, int action) noexcept:
        self.choice[self.decided] = action
        self.decided += 1

    cdef void returns(self, double* out) noexcept:
        if self.decided < 2:
            out[0] = out[1] = 0.0
            return
        out[0] = self.pay[0][self.choice[0]][self.choice[1]]
        out[1] = self.pay[1][self.choice[0]][self.choice[1]]

    cdef uint64_t hash(self) noexcept:
        cdef uint64_t code = <uint64_t>self.decided
        if self.decided > 0:
            code += 4 * (<uint64_t>self.choice[0] + 1)
        if self.decided > 1:
            code += 64 * (<uint64_t>self.choice[1] + 1)
        return mix64(code)

    cdef int _own(self, int player) noexcept:
        return self.choice[player] if player < self.decided else -1

    cdef int _other(self, int player) noexcept:
        # the other's choice is revealed only once the round resolves
        return self.choice[1 - player] if self.decided == 2 else -1

    cdef uint64_t information_state_key(self, int player) except? 0:
        return mix64(<uint64_t>0x4D41545258 + <uint64_t>player
                     + 2 * (<uint64_t>(self._own(player) + 1) + 16 * <uint64_t>(self._other(player) + 1)))

    cdef object player_information_state_string(self, int player):
        own = self._own(player)
        other = self._other(player)
        return (f"p{player} me:{self.names[own] if own >= 0 else '?'} "
                f"other:{self.names[other] if other >= 0 else '?'}")

    cdef object player_observation_string(self, int player):
        # one round: what a player observes is all it has ever observed
        return self.player_information_state_string(player)

    cdef object player_information_state_tensor(self, int player):
        # own choice (n), the other's choice once revealed (n)
        t = [0.0] * (2 * self.n)
        if self._own(player) >= 0:
            t[self._own(player)] = 1.0
        if self._other(player) >= 0:
            t[self.n + self._other(player)] = 1.0
        return t

    cdef object player_observation_tensor(self, int player):
        return self.player_information_state_tensor(player)

    def to_string(self):
        """Both choices made so far (an onlooker's view, not a player's)."""
        return " ".join(self.names[self.choice[i]] for i in range(self.decided)) or "-"

    def observation(self):
        t = [0.0] * (2 * self.n)
        for i in range(self.decided):
            t[i * self.n + self.choice[i]] = 1.0
        return t

    def action_string(self, int player, int action):
        return self.names[action] if 0 <= action < self.n else str(action)

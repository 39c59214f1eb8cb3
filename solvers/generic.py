"""The same search over the plain ``pyspiel`` API, for games without a core.

This is the slow path (a Python object per node), there so that the solver CLI
and the bot also work on OpenSpiel's C++ games, which is how our Cython games
get checked against independent implementations. The semantics match the
kernel in ``solvers/_alphabeta.pyx``: values are player 0's return with two
players (the game taken as zero-sum), the root player's paranoid return with
more, expectimax at chance nodes.

Transpositions are keyed by ``(current player, str(state))``: OpenSpiel's
perfect-information games print the whole position, which is what matters for
the value. A game whose string omits part of the state would need
``use_table=False``.
"""

from __future__ import annotations

import math
import random
import time

import pyspiel

from games.openspiel import require_perfect_information
from solvers._alphabeta import SearchTimeout

# What the refusal of a hidden-information or simultaneous game suggests, for
# every solver entry point.
INSTEAD = (
    "CFR for its equilibrium (OpenSpiel's CFRSolver, after pyspiel.convert_to_turn_based "
    "for a simultaneous game) and pyspiel.exploitability for a policy's value"
)

EXACT, LOWER, UPPER = 0, 1, 2


class PySearcher:
    """Alpha-beta with a transposition table over ``pyspiel.State`` objects.

    Values are seen from side 0 (player 0, or the root player of a paranoid
    search), maximised by side 0 and minimised by the others; chance nodes
    average their children (no pruning below a chance node's window).
    """

    def __init__(
        self,
        game: pyspiel.Game,
        root_player: int = 0,
        use_table: bool = True,
        eval_playouts: int = 8,
        seed: int = 0,
    ):
        require_perfect_information(game, "alpha-beta (solvers.generic)", INSTEAD)
        self.game = game
        self.num_players = game.num_players()
        if not 0 <= root_player < self.num_players:
            raise ValueError(f"root_player must be in 0..{self.num_players - 1}")
        self.root_player = root_player if self.num_players > 2 else 0
        self.lo = game.min_utility()
        self.hi = game.max_utility()
        self.use_table = use_table
        self.eval_playouts = eval_playouts
        self.rng = random.Random(seed)
        self.table: dict = {}
        self.nodes = 0
        self.inexact = 0
        self.deadline = 0.0

    def _maximising(self, player: int) -> bool:
        return player == self.root_player

    def _terminal(self, state) -> float:
        return state.returns()[self.root_player]

    def _evaluate(self, state) -> float:
        self.inexact += 1
        total = 0.0
        for _ in range(self.eval_playouts):
            s = state.clone()
            while not s.is_terminal():
                if s.is_chance_node():
                    actions, probs = zip(*s.chance_outcomes(), strict=True)
                    s.apply_action(self.rng.choices(actions, probs)[0])
                else:
                    s.apply_action(self.rng.choice(s.legal_actions()))
            total += self._terminal(s)
        mid = 0.5 * (self.lo + self.hi)
        return mid + 0.9 * (total / self.eval_playouts - mid)

    def search(self, state, depth: float, alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.deadline and (self.nodes & 255) == 0 and time.perf_counter() > self.deadline:
            raise SearchTimeout("search ran out of time")
        if state.is_terminal():
            return self._terminal(state)
        key = None
        if self.use_table:
            key = (state.current_player(), str(state))
            hit = self.table.get(key)
            if hit is not None and hit[1] >= depth:
                value, _, flag = hit
                if hit[1] != math.inf:
                    self.inexact += 1
                if flag == EXACT:
                    return value
                if flag == LOWER:
                    alpha = max(alpha, value)
                else:
                    beta = min(beta, value)
                if alpha >= beta:
                    return value
        if depth <= 0:
            return self._evaluate(state)
        inexact0 = self.inexact
        a0, b0 = alpha, beta
        if state.is_chance_node():
            best = 0.0
            for action, p in state.chance_outcomes():
                best += p * self.search(state.child(action), depth - 1, self.lo, self.hi)
            flag = EXACT
        else:
            maximise = self._maximising(state.current_player())
            best = -math.inf if maximise else math.inf
            for action in state.legal_actions():
                v = self.search(state.child(action), depth - 1, alpha, beta)
                if maximise:
                    best = max(best, v)
                    alpha = max(alpha, v)
                else:
                    best = min(best, v)
                    beta = min(beta, v)
                if alpha >= beta:
                    break
            flag = UPPER if best <= a0 else LOWER if best >= b0 else EXACT
        if key is not None:
            self.table[key] = (best, math.inf if self.inexact == inexact0 else depth, flag)
        return best

    def value(self, state, depth: float = math.inf, time_limit: float = 0.0):
        """(value for side 0, exact?) of ``state``."""
        self.deadline = time.perf_counter() + time_limit if time_limit else 0.0
        inexact0 = self.inexact
        try:
            v = self.search(state, depth, self.lo - 1.0, self.hi + 1.0)
        finally:
            self.deadline = 0.0
        return v, self.inexact == inexact0

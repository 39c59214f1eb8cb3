"""An alpha-beta player for ``pyspiel.evaluate_bots`` and tournaments.

On our games (a state with a ``.core``) the bot runs the Cython kernel with a
transposition table that persists across its moves; on any other
perfect-information OpenSpiel game it runs the pyspiel-API search. Each move
deepens iteratively until ``depth`` plies or ``time_limit`` seconds, whichever
comes first; positions it can search to the end are played perfectly.
Tournaments and studies build it by name through the catalogue of agents
(``agents.make_bot("alphabeta:depth=4", game, player, seed)``).
"""

from __future__ import annotations

import math
import random
import time

import pyspiel

from games.openspiel import is_core_state, refuse_terminal
from solvers._alphabeta import SearchTimeout
from solvers.alphabeta import iterative_deepening, make_searcher
from solvers.generic import PySearcher


class AlphaBetaBot(pyspiel.Bot):
    """Iterative-deepening alpha-beta; ties among equally valued moves are
    broken by the seeded generator, so two seeds give different games."""

    def __init__(
        self,
        game,
        player: int,
        depth: int = 0,
        time_limit: float = 0.0,
        seed: int = 0,
        tt_log2: int = 20,
        eval_playouts: int = 8,
    ):
        pyspiel.Bot.__init__(self)
        if depth < 0:
            raise ValueError(f"depth must be >= 0 (0: no limit), got {depth}")
        # ``not x >= 0`` also catches NaN, a time limit that would never run out
        if not (time_limit >= 0 and math.isfinite(time_limit)):
            raise ValueError(
                f"time_limit must be a finite number of seconds >= 0 (0: no limit), got {time_limit}"
            )
        if depth == 0 and time_limit == 0:
            raise ValueError("give the bot a depth, a time_limit, or both")
        # the kernel searcher is made at the first move: refuse what it would refuse now
        if not 10 <= tt_log2 <= 30:
            raise ValueError(f"tt_log2 must be in 10..30, got {tt_log2}")
        if eval_playouts < 1:
            raise ValueError(f"eval_playouts must be at least 1, got {eval_playouts}")
        if not 0 <= player < game.num_players():
            raise ValueError(f"player must be in 0..{game.num_players() - 1}")
        self._game = game
        self._player = player
        self._depth = depth
        self._time_limit = time_limit
        self._seed = seed
        self._tt_log2 = tt_log2
        self._eval_playouts = eval_playouts
        self._rng = random.Random(seed)
        self._searcher = None

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass

    def step(self, state):
        return self.step_with_policy(state)[1]

    def step_with_policy(self, state):
        refuse_terminal(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)], legal[0]
        core = state.core if is_core_state(state) else None
        if core is not None:
            action = self._core_step(core)
        else:
            action = self._generic_step(state, legal)
        return [(action, 1.0)], action

    def _core_step(self, core):
        if self._searcher is None:
            self._searcher = make_searcher(
                self._game,
                core,
                self._player,
                tt_log2=self._tt_log2,
                eval_playouts=self._eval_playouts,
                seed=self._seed,
            )
        info = iterative_deepening(
            self._game, core, max_depth=self._depth, time_limit=self._time_limit, searcher=self._searcher
        )
        if info["depth"] == 0:
            return info["best_move"]
        # break ties at the depth reached: every move as good as the best
        values = self._searcher.root_moves(core, info["depth"], all_values=False)[2]
        best = info["mover_value"]
        ties = [a for a, v in values.items() if v >= best]
        return self._rng.choice(sorted(ties)) if ties else info["best_move"]

    def _generic_step(self, state, legal):
        searcher = PySearcher(
            self._game, self._player, eval_playouts=self._eval_playouts, seed=self._rng.randrange(1 << 30)
        )
        deadline = time.perf_counter() + self._time_limit if self._time_limit > 0 else 0.0
        maximise = searcher._maximising(state.current_player())
        sign = 1.0 if maximise else -1.0
        best_moves = [legal[0]]
        limit = self._depth if self._depth > 0 else math.inf
        depth = 0
        while depth < limit:
            depth += 1
            scored = []
            try:
                for a in legal:
                    searcher.deadline = deadline
                    v = searcher.search(state.child(a), depth - 1, searcher.lo - 1, searcher.hi + 1)
                    scored.append((sign * v, a))
            except SearchTimeout:
                break
            finally:
                searcher.deadline = 0.0
            top = max(v for v, _ in scored)
            best_moves = [a for v, a in scored if v >= top]
            if searcher.inexact == 0:
                break
            searcher.inexact = 0
        return self._rng.choice(best_moves)

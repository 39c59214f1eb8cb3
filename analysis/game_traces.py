"""Traces of played games, as ``analysis.game_metrics`` reads them.

Why here: the metrics command plays its own games, and the studies that
already play games (their tournament records hold every action) measure the
same metrics by replaying them; both record a trace the same way.

A trace is recorded by walking a game from its start: at each move the
mover and its number of legal moves, after each step the position's key and
which board sites differ from the start. Optionally each position before a
move is evaluated from uniformly random games played out of it (each
player's mean score in [0, 1], the value a Monte Carlo tree search starts
from), and each legal move there from the mover's view (the Clarity
metrics). This toolkit's games play those games in their Cython kernel;
other OpenSpiel games through their states, up to the move cap.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from analysis.game_metrics import Trace

#: Ludii's default cap on a playout's length (its ``getMaxTurnLimit``); a game
#: still running after this many moves counts as a timeout.
DEFAULT_MAX_MOVES = 1250

#: A kernel playout takes its seed as an unsigned 64-bit integer.
_SEED_BOUND = 2**63


def sample_chance(state, rng: np.random.Generator) -> int:
    """A chance outcome of ``state`` drawn from ``rng`` with the outcomes' probabilities."""
    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
    return int(outcomes[rng.choice(len(outcomes), p=np.asarray(probs))])


def cells(state) -> list | None:
    """Contents of each board site, where the game exposes its board: the core's
    cells for this toolkit's games, a planes x sites observation tensor's columns
    for OpenSpiel's board games, otherwise ``None``."""
    core = getattr(state, "core", None)
    for name in ("cell_colours", "cells"):
        fn = getattr(core, name, None)
        if callable(fn):
            return list(fn())
    game = state.get_game()
    if game.get_type().provides_observation_tensor:
        shape = game.observation_tensor_shape()
        if len(shape) >= 2:  # planes x sites, as OpenSpiel's board games lay them out
            tensor = np.asarray(state.observation_tensor(0)).reshape(shape[0], -1)
            return [tuple(col) for col in tensor.T.tolist()]
    return None


def _position(state, board) -> object:
    return tuple(board) if board is not None else str(state)


def _scaled(game, returns) -> np.ndarray:
    low, high = game.min_utility(), game.max_utility()
    return (np.asarray(returns, dtype=float) - low) / (high - low)


def playout_evaluation(state, playouts: int, rng, max_moves: int) -> tuple[float, ...]:
    """Each player's expected score in [0, 1] at ``state``, estimated from ``playouts``
    uniformly random games from it; a game still running after ``max_moves`` moves
    (OpenSpiel's games only) scores 1/2 for everyone."""
    game = state.get_game()
    if state.is_terminal():
        return tuple(float(x) for x in _scaled(game, state.returns()))
    totals = np.zeros(game.num_players())
    core = getattr(state, "core", None)
    for _ in range(playouts):
        if core is not None:
            c = core.clone()
            c.random_playout(int(rng.integers(_SEED_BOUND)))
            totals += _scaled(game, c.returns_list())
            continue
        s, moves = state.clone(), 0
        while not s.is_terminal() and moves < max_moves:
            if s.is_chance_node():
                s.apply_action(sample_chance(s, rng))
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rng.integers(len(legal))])
                moves += 1
        totals += _scaled(game, s.returns()) if s.is_terminal() else 0.5
    return tuple(float(x) for x in totals / playouts)


def move_evaluations(state, legal, playouts: int, rng, max_moves: int) -> tuple[float, ...]:
    """The mover's evaluation (``playout_evaluation``) of the position after each legal move."""
    mover = state.current_player()
    out = []
    for action in legal:
        child = state.clone()
        child.apply_action(action)
        out.append(playout_evaluation(child, playouts, rng, max_moves)[mover])
    return tuple(out)


def record_trace(
    game,
    choose: Callable,
    max_moves: int,
    eval_rng=None,
    playouts: int = 0,
    clarity_playouts: int = 0,
) -> Trace:
    """Walk one game from its start; ``choose(state, legal)`` gives each step's action
    (``legal`` is ``None`` at a chance node). With ``playouts`` every position before a
    move is evaluated, with ``clarity_playouts`` every legal move there (``eval_rng``
    draws their seeds)."""
    players = game.num_players()
    state = game.new_initial_state()
    movers, branching, evaluations, moves_evaluated = [], [], [], []
    start = board = cells(state)
    changed: set[int] = set()
    contents = set(board or ())
    positions = [_position(state, board)]
    situations = [(positions[0], state.current_player())]
    actions = 0
    while not state.is_terminal() and len(movers) < max_moves:
        actions += 1
        if state.is_chance_node():
            state.apply_action(choose(state, None))
        elif state.is_simultaneous_node():
            raise ValueError(f"{game} has simultaneous moves; the metrics need one mover at a time")
        else:
            legal = state.legal_actions()
            if playouts:
                evaluations.append(playout_evaluation(state, playouts, eval_rng, max_moves))
            if clarity_playouts:
                moves_evaluated.append(move_evaluations(state, legal, clarity_playouts, eval_rng, max_moves))
            movers.append(state.current_player())
            branching.append(len(legal))
            state.apply_action(choose(state, legal))
        board = cells(state)
        if board is not None:
            changed.update(i for i, (a, b) in enumerate(zip(board, start, strict=True)) if a != b)
            contents.update(board)
        positions.append(_position(state, board))
        situations.append((positions[-1], state.current_player()))
    timeout = not state.is_terminal()
    return Trace(
        returns=tuple(state.returns()) if not timeout else tuple(0.0 for _ in range(players)),
        movers=tuple(movers),
        branching=tuple(branching),
        positions=tuple(positions),
        situations=tuple(situations),
        sites_covered=len(changed) if start is not None else None,
        sites=len(start) if start is not None else None,
        timeout=timeout,
        evaluations=tuple(evaluations),
        move_evaluations=tuple(moves_evaluated),
        site_contents=len(contents) if start is not None else None,
        actions=actions,
    )


def replay_trace(
    game, actions: Sequence[int], eval_seed: int = 0, playouts: int = 0, clarity_playouts: int = 0
) -> Trace:
    """The trace of a recorded game (every action, chance outcomes included, as the
    tournament records hold them)."""
    steps = iter(actions)
    rng = np.random.default_rng(eval_seed)
    trace = record_trace(
        game, lambda _s, _l: int(next(steps)), len(actions) + 1, rng, playouts, clarity_playouts
    )
    if next(steps, None) is not None:
        raise ValueError("the game ended before its recorded actions did")
    return trace

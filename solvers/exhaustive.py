"""Exact game values and every winning first move.

The value of a game is the value of its best opening, so solving every
opening is the same work as proving the value *and* listing the winning
moves. Openings whose resulting positions are images of each other under a
board symmetry have the same value; they are grouped by the transposition
key of the position after the move (the minimum of ``symmetric_hash`` over
the symmetries) and one representative per class is searched, while the
answer lists every member.

What "value" means (the same for both engines):
- two players: player 0's game-theoretic return (minimax, the game taken as
  zero-sum); with chance nodes, its expected return under optimal play by
  both (expectimax);
- more than two players: player 0's *paranoid* return, i.e. what it can
  guarantee if all others jointly minimise its return. It is always defined
  (max^n is not: it depends on how each player breaks ties among moves that
  are equal for itself and different for the others) and is a lower bound on
  player 0's return under any max^n tie-breaking.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pyspiel

import games  # noqa: F401  (registers the core games)
from games.openspiel import core_of, is_core_game, require_perfect_information
from solvers import ysolver
from solvers._alphabeta import Searcher, SearchTimeout
from solvers._dfpn import DfpnTimeout, Prover
from solvers.generic import INSTEAD, PySearcher


def load(game) -> pyspiel.Game:
    """A ``pyspiel.Game`` from a game string or a game, with a clear error."""
    if isinstance(game, pyspiel.Game):
        return game
    try:
        return pyspiel.load_game(game)
    except Exception as exc:  # pyspiel raises a bare RuntimeError/SpielError
        first = str(exc).split("Available games")[0].strip()
        raise ValueError(f"cannot load game {game!r}: {first}") from None


def _value_kind(game: pyspiel.Game) -> str:
    if game.num_players() > 2:
        return "paranoid (player 0 against a coalition of the others)"
    chance = game.get_type().chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC
    return "expectimax" if chance else "minimax"


def _dfpn_applies(game: pyspiel.Game) -> bool:
    t = game.get_type()
    return (
        game.num_players() == 2
        and t.utility == pyspiel.GameType.Utility.ZERO_SUM
        and t.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    )


def solve(
    game,
    *,
    engine: str = "auto",
    method: str = "auto",
    time_limit: float = 0.0,
    symmetry: bool = True,
    tt_log2: int = 24,
    tt_replace: str = "depth",
    progress: Callable[[str], None] | None = None,
) -> dict:
    """Solve ``game`` exactly; see the module docstring for what is computed.

    Returns a dict with ``value`` (None if the time ran out before it was
    proven), ``winning_first_moves`` (action strings; after a timeout only
    those found, with ``unsolved_first_moves`` listing the openings never
    finished), ``opening_values`` (action
    string -> player 0's value after that first move), ``nodes``,
    ``seconds``, ``complete`` and bookkeeping fields. ``engine`` is "core"
    (the Cython kernel, needs a game of ours), "pyspiel" (any game, slower)
    or "auto" (core when there is one). ``method`` (core engine only) is
    "alphabeta", "dfpn" (proof numbers; two-player zero-sum deterministic
    games), "ysolver" (plain Y on a triangle only: the dedicated solver with
    virtual connections and must-play regions, solvers/ysolver.py) or "auto"
    (the Y solver where it applies, otherwise alpha-beta, the faster of the
    other two on every game measured). ``tt_replace`` is the alpha-beta
    table's replacement scheme ("depth", "size" or "size4"; see
    ``Searcher._store``): it changes which entries are forgotten, so the
    node count, never the values.
    """
    say = progress or (lambda msg: None)
    start = time.perf_counter()
    ev = Evaluator(
        game, engine=engine, method=method, symmetry=symmetry, tt_log2=tt_log2, tt_replace=tt_replace
    )
    game, root, player, classes = ev.game, ev.root, ev.player, ev.classes()
    use_core = ev.use_core
    exact_value, child_of, describe, node_count = ev.value, ev.child_of, ev.describe, lambda: ev.nodes
    hi = ev.hi
    deadline = time.perf_counter() + time_limit if time_limit and time_limit > 0 else 0.0

    result = {
        "game": str(game),
        "engine": "core" if use_core else "pyspiel",
        "method": ev.method,
        "value_kind": _value_kind(game),
        "first_player": int(player),
        "symmetry_classes": len(classes),
        "complete": False,
        "value": None,
        "winning_first_moves": [],
        "opening_values": {},
    }

    def remaining():
        if not deadline:
            return 0.0
        left = deadline - time.perf_counter()
        if left <= 0:
            raise SearchTimeout("time limit reached")
        return left

    values: dict[int, float] = {}
    try:
        if not classes:
            # the game starts with chance (or is over): no first move to list
            result["value"] = exact_value(root, remaining())
        else:
            say(f"{len(classes)} opening classes to solve ({ev.method}), one after the other")
            for k, members in enumerate(classes):
                v = exact_value(child_of(members[0]), remaining())
                for a in members:
                    values[a] = v
                say(
                    f"class {k + 1}/{len(classes)}: {', '.join(describe(a) for a in members)}"
                    f" -> {v:+g}  ({node_count():,} nodes, {time.perf_counter() - start:.1f} s)"
                )
        result["complete"] = True
    except SearchTimeout:
        result["error"] = f"not solved within {time_limit} s"
    if classes:
        # Also after a timeout: the openings solved so far are exact, and one
        # winning opening already proves the value of the game.
        result["opening_values"] = {describe(a): values[a] for a in sorted(values)}
        if not result["complete"]:
            result["unsolved_first_moves"] = [
                describe(a) for members in classes for a in members if a not in values
            ]
        if values and (player == 0 or game.num_players() == 2):
            sign = 1.0 if player == 0 else -1.0
            best = max(sign * v for v in values.values())
            result["winning_first_moves"] = [describe(a) for a in sorted(values) if sign * values[a] >= hi]
            if result["complete"] or best >= hi:
                result["value"] = sign * best
        elif values and result["complete"]:
            # another player opens a paranoid search for player 0: the
            # coalition picks player 0's worst opening
            result["value"] = min(values.values())
    result["nodes"] = int(node_count())
    result["seconds"] = round(time.perf_counter() - start, 3)
    return result


class Evaluator:
    """The exact search ``solve`` runs on each opening, as an object that lives on.

    Why an object: ``solve`` searches every opening with one of these, keeping
    its transposition table from one opening to the next, and the parallel
    driver (``solvers/parallel.py``) keeps one per worker for the same reason,
    so both pick the engine and method by the same rules and get the same
    values. ``value(position, remaining)`` is player 0's exact value of a
    position reached from ``root`` (``remaining`` seconds, 0: no limit;
    ``SearchTimeout`` when they run out); ``nodes`` counts every search so far.
    """

    def __init__(
        self,
        game,
        *,
        engine: str = "auto",
        method: str = "auto",
        symmetry: bool = True,
        tt_log2: int = 24,
        tt_replace: str = "depth",
        tt_shared=None,
    ):
        """``tt_shared``: a buffer shared with other processes to hold the
        alpha-beta table (``solvers/shared_tt.py``); the Y solver's and
        df-pn's own tables stay private."""
        game = load(game)
        require_perfect_information(game, "the exact solver (solvers.exhaustive)", INSTEAD)
        if engine not in ("auto", "core", "pyspiel"):
            raise ValueError(f"engine must be auto, core or pyspiel, got {engine!r}")
        has_core = is_core_game(game)
        if engine == "core" and not has_core:
            raise ValueError(f"{game} has no Cython core; use engine='pyspiel'")
        use_core = has_core and engine != "pyspiel"
        if method not in ("auto", "alphabeta", "dfpn", "ysolver"):
            raise ValueError(f"method must be auto, alphabeta, dfpn or ysolver, got {method!r}")
        y_applies = use_core and ysolver.applies(game)
        if method == "ysolver" and not y_applies:
            raise ValueError(
                "method ysolver needs y_game on a triangle of side <= 10 with turns=1 "
                "and swap=False (and the core engine)"
            )
        if method == "dfpn" and not (use_core and _dfpn_applies(game)):
            raise ValueError("df-pn needs the core engine and a two-player zero-sum game without chance")
        # Measured on the Y family (docs/solved.md): alpha-beta with its
        # transposition cutoffs beats this df-pn on every board tried, so df-pn
        # runs only when asked for.
        use_dfpn = use_core and method == "dfpn"
        use_y = y_applies and method in ("auto", "ysolver")
        self.game, self.use_core = game, use_core
        self.method = "ysolver" if use_y else "dfpn" if use_dfpn else "alphabeta"
        self.lo, self.hi = game.min_utility(), game.max_utility()
        self.searcher = self.prover = self.y_solver = None
        if use_core:
            self.root = core_of(game)
            # with the Y solver this searcher only groups the openings
            self.searcher = Searcher(
                self.root,
                0,
                self.lo,
                self.hi,
                symmetry,
                10 if use_y else tt_log2,
                tt_replace=tt_replace,
                shared=None if use_y else tt_shared,
            )
            self.player = self.root.player()
            if use_y:
                self.y_solver = ysolver.make_solver(game, tt_log2=tt_log2)
            elif use_dfpn:
                self.prover = Prover(self.root, self.lo, self.hi, symmetry, tt_log2)
        else:
            self.root = game.new_initial_state()
            self.searcher = PySearcher(game, 0)
            self.player = self.root.current_player()

    # ------------------------------------------------------------------ positions

    def classes(self) -> list[list[int]]:
        """The root's first moves grouped by symmetry class (empty if the game
        starts with chance or is over); one member per class needs searching."""
        if self.use_core:
            return _classes_core(self.root, self.searcher) if self.player >= 0 else []
        if self.root.is_chance_node() or self.root.is_terminal():
            return []
        return [[a] for a in self.root.legal_actions()]

    def child_of(self, action: int, position=None):
        """The position after ``action`` from ``position`` (default: the root), a new object."""
        position = self.root if position is None else position
        if self.use_core:
            c = position.clone()
            c.apply_action(action)
            return c
        return position.child(action)

    def describe(self, action: int) -> str:
        """A first move as the game writes it."""
        if self.use_core:
            return self.root.action_string(self.player, action)
        return self.root.action_to_string(self.player, action)

    @property
    def nodes(self) -> int:
        return int(
            (self.searcher.nodes if self.searcher is not None else 0)
            + (self.prover.nodes if self.prover is not None else 0)
            + (self.y_solver.nodes if self.y_solver is not None else 0)
        )

    # ------------------------------------------------------------------ values

    def _ab_value(self, position, remaining: float) -> float:
        v, exact = self.searcher.value(position, time_limit=remaining)
        if self.use_core:
            assert exact, "an unlimited-depth search must be exact"
        return v

    def value(self, position, remaining: float = 0.0) -> float:
        """Player 0's exact value of ``position``; ``SearchTimeout`` after ``remaining`` s (0: none)."""
        if self.method == "ysolver":
            try:
                return ysolver.value(self.y_solver, position, remaining)
            except ysolver.YSolveTimeout:
                raise SearchTimeout("time limit reached") from None
        if self.method == "dfpn":
            try:
                return _dfpn_value(
                    self.prover,
                    position,
                    self.lo,
                    self.hi,
                    remaining,
                    lambda: self._ab_value(position, remaining),
                )
            except DfpnTimeout:
                raise SearchTimeout("time limit reached") from None
        return self._ab_value(position, remaining)


def _dfpn_value(prover, position, lo, hi, remaining, fallback) -> float:
    """Player 0's exact value from proof-number questions (zero-sum game).

    "Does player 0 reach hi?" settles a win. Otherwise, if every finished
    game seen returned lo or hi, the disproof shows player 0 gets lo;
    if not, "does player 1 reach hi?" settles a loss and "does each player
    reach 0?" a draw. Anything else (a value strictly between) goes to
    alpha-beta.
    """
    if prover.prove(position, 0, hi, remaining):
        return hi
    if prover.only_extremes:
        return lo
    if prover.prove(position, 1, -lo, remaining):
        return lo
    if prover.prove(position, 0, 0.0, remaining) and prover.prove(position, 1, 0.0, remaining):
        return 0.0
    return fallback()


def _classes_core(root, searcher) -> list[list[int]]:
    """First moves grouped by the symmetry class of the position they reach."""
    groups: dict[int, list[int]] = {}
    for a in root.legal_action_list():
        child = root.clone()
        child.apply_action(a)
        groups.setdefault(searcher.canonical_key(child), []).append(a)
    return list(groups.values())

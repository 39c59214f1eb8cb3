"""Normal-form games: equilibria, social optimum, price of anarchy; and the
subgame-perfect equilibria of small sequential perfect-information games.

Why here: the dilemmas of the tic-tac-toe variations specification are one-shot
(Prisoner's Dilemma, Stag Hunt, Battle of the Sexes, ...) or short sequential
games (Ultimatum, Centipede, Trust); their textbook analysis is a payoff table
and its equilibria, which CFR's average policies are checked against.

- ``NormalFormGame``: payoffs as an array of shape ``(players, n_0, ..., n_{k-1})``.
  ``from_profiles(table, counts)`` takes the plain ``(players x profiles)`` form
  (profiles in ``itertools.product`` order: player 0's strategy slowest; or
  ``order="gambit"``: player 0's fastest, as .nfg files list them);
  ``from_openspiel(game)`` reads OpenSpiel matrix games and any one-round
  simultaneous game (chance after the round is averaged out).
- ``pure_equilibria`` (enumeration), ``social_optimum`` (the pure profile with
  the largest payoff sum), ``price_of_anarchy`` (optimum welfare over the worst
  equilibrium's), ``expected_payoffs`` of a mixed profile.
- ``nash_equilibria``: every Nash equilibrium through pygambit: ``enummixed``
  (all extreme equilibria of a two-player game), ``gnm`` / ``simpdiv`` /
  ``logit`` for more players (these find some equilibria, not provably all).
- ``equilibria``: what a study lists: duplicate strategies merged
  (``remove_duplicate_strategies``), then enummixed where the table is small
  enough, else an approximation, with ``complete`` and a description in words.
- ``backward_induction``: a subgame-perfect equilibrium of a perfect-information
  game tree (an OpenSpiel game or a nested ``Decision``/``Chance``/payoff tree),
  ties broken toward the lowest action and reported.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

import numpy as np
import pyspiel

from games.normal_form import TooLarge, enumerate_tree, tabulate

__all__ = [
    "NormalFormGame",
    "pure_equilibria",
    "social_optimum",
    "price_of_anarchy",
    "expected_payoffs",
    "nash_equilibria",
    "equilibria",
    "EquilibriumList",
    "remove_duplicate_strategies",
    "expand_profile",
    "Decision",
    "Chance",
    "backward_induction",
    "SubgamePerfect",
    "METHODS",
    "InducedNormalForm",
    "induced_normal_form",
    "to_gambit",
]

METHODS = ("enummixed", "gnm", "simpdiv", "logit")


@dataclass
class NormalFormGame:
    payoffs: np.ndarray  # (players, n_0, ..., n_{k-1})
    strategy_names: list | None = None  # per player, names of its strategies
    title: str = ""

    def __post_init__(self):
        self.payoffs = np.asarray(self.payoffs, dtype=float)
        if self.payoffs.ndim < 2 or self.payoffs.shape[0] != self.payoffs.ndim - 1:
            raise ValueError(
                f"payoffs must have shape (players, n_0, ..., n_(players-1)), got {self.payoffs.shape}"
            )
        if not np.all(np.isfinite(self.payoffs)):
            raise ValueError("payoffs must be finite numbers")
        if self.strategy_names is None:
            self.strategy_names = [[str(i) for i in range(n)] for n in self.shape]
        if [len(s) for s in self.strategy_names] != list(self.shape):
            raise ValueError("strategy_names must name every strategy of every player")

    @property
    def num_players(self) -> int:
        return self.payoffs.shape[0]

    @property
    def shape(self) -> tuple:
        return self.payoffs.shape[1:]

    def profiles(self):
        return itertools.product(*(range(n) for n in self.shape))

    @classmethod
    def from_profiles(cls, table, counts, order: str = "product", **kw) -> NormalFormGame:
        table = np.asarray(table, dtype=float)
        counts = tuple(int(c) for c in counts)
        if table.ndim != 2 or table.shape[0] != len(counts):
            raise ValueError(
                f"a (players x profiles) table with {len(counts)} rows is needed, got shape {table.shape}"
            )
        if table.shape[1] != int(np.prod(counts)):
            raise ValueError(
                f"{table.shape[1]} profiles given, {int(np.prod(counts))} expected "
                f"for strategy counts {counts}"
            )
        if order == "product":
            payoffs = table.reshape((len(counts),) + counts)
        elif order == "gambit":
            payoffs = table.reshape((len(counts),) + counts[::-1])
            payoffs = np.transpose(payoffs, [0] + list(range(len(counts), 0, -1)))
        else:
            raise ValueError(f"order must be 'product' or 'gambit', got {order!r}")
        return cls(payoffs, **kw)

    @classmethod
    def from_openspiel(cls, game) -> NormalFormGame:
        """A matrix game, or a game whose root is one simultaneous round."""
        if isinstance(game, str):
            game = pyspiel.load_game(game)
        root = game.new_initial_state()
        if not root.is_simultaneous_node():
            raise ValueError(
                f"{game} does not start with a simultaneous round: not a "
                "normal-form game (use backward_induction for sequential games)"
            )
        n = game.num_players()
        legal = [root.legal_actions(p) for p in range(n)]
        names = [[root.action_to_string(p, a) for a in legal[p]] for p in range(n)]
        payoffs = np.zeros((n,) + tuple(len(x) for x in legal))
        for idx in itertools.product(*(range(len(x)) for x in legal)):
            s = root.clone()
            s.apply_actions([legal[p][i] for p, i in enumerate(idx)])
            payoffs[(slice(None),) + idx] = _chance_expectation(s)
        return cls(payoffs, names, str(game))

    def to_profiles(self) -> np.ndarray:
        """The (players x profiles) table, product order."""
        return self.payoffs.reshape(self.num_players, -1)


def _chance_expectation(state) -> np.ndarray:
    if state.is_terminal():
        return np.asarray(state.returns(), dtype=float)
    if not state.is_chance_node():
        raise ValueError("a decision follows the first simultaneous round: not a one-shot game")
    return sum(p * _chance_expectation(state.child(a)) for a, p in state.chance_outcomes())


def pure_equilibria(g: NormalFormGame, tol: float = 1e-9) -> list:
    """Every pure-strategy Nash equilibrium (profiles as tuples), by enumeration."""
    best = [g.payoffs[p].max(axis=p) for p in range(g.num_players)]
    out = []
    for prof in g.profiles():
        if all(
            g.payoffs[(p,) + prof] >= best[p][prof[:p] + prof[p + 1 :]] - tol for p in range(g.num_players)
        ):
            out.append(prof)
    return out


def social_optimum(g: NormalFormGame):
    """(profile, welfare): the pure profile with the largest sum of payoffs (first on ties)."""
    welfare = g.payoffs.sum(axis=0)
    prof = np.unravel_index(int(np.argmax(welfare)), g.shape)
    return tuple(int(i) for i in prof), float(welfare[prof])


def expected_payoffs(g: NormalFormGame, mixed) -> np.ndarray:
    """Each player's expected payoff when player i plays distribution mixed[i]."""
    out = g.payoffs
    for sigma in reversed(mixed):  # contract the last player's axis first
        out = out @ np.asarray(sigma, dtype=float)
    return np.asarray(out)


def price_of_anarchy(g: NormalFormGame, equilibria=None):
    """Optimal welfare / the worst equilibrium's welfare (1 is no loss).

    ``equilibria``: mixed profiles (default: the pure equilibria). Defined only
    when every equilibrium's welfare is positive; otherwise None (the ratio has no
    meaning with zero or negative welfare).
    """
    if equilibria is None:
        equilibria = [
            [np.eye(n)[i] for n, i in zip(g.shape, prof, strict=True)] for prof in pure_equilibria(g)
        ]
    if not equilibria:
        return None
    welfare = [float(expected_payoffs(g, e).sum()) for e in equilibria]
    _, best = social_optimum(g)
    if min(welfare) <= 0:
        return None
    return best / min(welfare)


# -- pygambit -----------------------------------------------------------------


def to_gambit(g: NormalFormGame):
    import pygambit as gbt

    arrays = [g.payoffs[p] for p in range(g.num_players)]
    game = gbt.Game.from_arrays(*arrays, title=g.title or "flipgames")
    for p, player in enumerate(game.players):
        # pygambit refuses a label another strategy holds, and its default labels are
        # "1", "2", ...: clear them first, so names such as "0", "4", "8" can be given
        for s, strategy in enumerate(player.strategies):
            strategy.label = f"~tmp~{s}~"
        for s, strategy in enumerate(player.strategies):
            strategy.label = g.strategy_names[p][s]
    return game


def nash_equilibria(
    g: NormalFormGame, method: str | None = None, *, seed: int = 0, tol: float = 1e-6
) -> list:
    """Nash equilibria as lists of per-player probability arrays.

    Default method: ``enummixed`` for two players (every extreme equilibrium,
    exact), ``gnm`` otherwise. ``logit`` returns one equilibrium (the limit of
    the quantal-response path), ``simpdiv`` one (from the centroid), ``gnm``
    those its path finds. pygambit 16.7.0's ``gnm_solve`` follows a path from a
    perturbation that defaults to every player's first strategy, which is not
    generic: on rock-paper-scissors it returns a profile with regret 1 (not an
    equilibrium). So ``gnm`` starts from a random perturbation drawn from
    ``seed``, and every method's answers are checked: a profile whose largest
    regret exceeds ``tol`` x the payoff range is dropped. ``gnm`` runs in a
    forked child (``SolverCrashed`` if pygambit dies there).
    """
    if method is None:
        method = "enummixed" if g.num_players == 2 else "gnm"
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose from {', '.join(METHODS)}")
    if method == "enummixed" and g.num_players != 2:
        raise ValueError("enummixed solves two-player games only; use gnm, simpdiv or logit")
    if method == "gnm":
        return _in_child(_solve, g, method, seed, tol)
    return _solve(g, method, seed, tol)


class SolverCrashed(RuntimeError):
    """pygambit's C++ solver died (a signal, not a Python error)."""


CHILD_TIMEOUT_S = 600.0


def _in_child(fn, *args, timeout: float | None = None):
    """``fn(*args)`` in a forked child. Why: pygambit 16.7.0's ``gnm_solve``
    dies with SIGSEGV on some degenerate tables (4P-TrendSetter's 3x3x3x3
    one), which would take the caller, e.g. a whole study, down with it; and
    once, on a loaded machine, the child ran for 28 minutes without an answer,
    so a child that has not answered in ``timeout`` seconds is stopped and
    reported the same way."""
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)

    def run():
        try:
            send.send(("ok", fn(*args)))
        except BaseException as e:  # noqa: BLE001 - handed to the parent as it is
            send.send(("error", e))

    child = ctx.Process(target=run, daemon=True)
    child.start()
    send.close()
    timeout = CHILD_TIMEOUT_S if timeout is None else timeout
    if not receive.poll(timeout):  # True on an answer and on the child's death alike
        child.kill()
        child.join()
        raise SolverCrashed(
            f"pygambit's solver gave no answer in {timeout:g} s on this "
            f"{'x'.join(map(str, args[0].shape))} table (stopped)"
        )
    try:
        kind, value = receive.recv()
    except EOFError:
        child.join()
        raise SolverCrashed(
            f"pygambit's solver died (exit code {child.exitcode}) on this "
            f"{'x'.join(map(str, args[0].shape))} table"
        ) from None
    child.join()
    if kind == "error":
        raise value
    return value


def _solve(g: NormalFormGame, method: str, seed: int, tol: float) -> list:
    import pygambit as gbt

    game = to_gambit(g)
    if method == "enummixed":
        result = gbt.nash.enummixed_solve(game, rational=False)
    elif method == "gnm":
        rng = np.random.default_rng(seed)
        start = game.mixed_strategy_profile()
        for player in game.players:
            weights = rng.random(len(player.strategies)) + 0.05
            for strategy, w in zip(player.strategies, weights / weights.sum(), strict=True):
                start[strategy] = float(w)
        result = gbt.nash.gnm_solve(start)
    elif method == "simpdiv":
        result = gbt.nash.simpdiv_solve(game.mixed_strategy_profile(rational=True))
    else:
        result = gbt.nash.logit_solve(game)
    span = float(g.payoffs.max() - g.payoffs.min()) or 1.0
    out = []
    for eq in result.equilibria:
        if float(eq.max_regret()) > tol * span:
            continue
        out.append([np.array([float(eq[s]) for s in player.strategies]) for player in game.players])
    return out


# -- every equilibrium where it can be had, and saying so where it cannot --------


def remove_duplicate_strategies(g: NormalFormGame):
    """(reduced game, kept): each player's strategies that are payoff-identical to an
    earlier one (every player's payoff equal against every profile of the others)
    removed; ``kept[p]`` lists the original indices of player p's remaining ones.

    Why: the induced normal form of a sequential game repeats a plan once per
    choice at the information states it never reaches (NeedyDictator's 128
    strategies are 2 payoff classes), and enummixed's cost grows with the table.
    Exact: a profile of the reduced game is an equilibrium of it if and only if
    it is one of the full game (a duplicate's weight moved onto its kept twin
    changes no payoff), so the reduced game's extreme equilibria are the full
    game's up to splitting a strategy's weight among its duplicates."""
    kept = []
    for p in range(g.num_players):
        along = np.moveaxis(g.payoffs, p + 1, 1)  # (players, n_p, others...)
        seen, keep = set(), []
        for i in range(g.shape[p]):
            key = np.ascontiguousarray(along[:, i]).tobytes()
            if key not in seen:
                seen.add(key)
                keep.append(i)
        kept.append(keep)
    payoffs = g.payoffs[np.ix_(range(g.num_players), *kept)]
    names = [[g.strategy_names[p][i] for i in keep] for p, keep in enumerate(kept)]
    return NormalFormGame(payoffs, names, g.title), kept


def expand_profile(mixed, kept, shape) -> list:
    """A reduced game's mixed profile as the full game's (duplicates get no weight)."""
    out = []
    for sigma, keep, n in zip(mixed, kept, shape, strict=True):
        full = np.zeros(n)
        full[keep] = sigma
        out.append(full)
    return out


@dataclass
class EquilibriumList:
    """Equilibria with what they are: ``complete`` when every extreme equilibrium
    is listed (up to splitting weight among duplicate strategies), else an
    approximation or a sample, which ``description`` says in words with the method."""

    equilibria: list
    method: str
    complete: bool
    reduced_shape: tuple
    description: str


def equilibria(g: NormalFormGame, *, max_strategies: int = 24, seed: int = 0) -> EquilibriumList:
    """Every extreme equilibrium where enummixed can list them, else what can be had.

    Duplicate strategies are removed first (``remove_duplicate_strategies``).
    Two players with at most ``max_strategies`` strategies each left: enummixed,
    complete. Two players with more: logit's one equilibrium (the limit of the
    quantal-response path, regret checked), not all: enummixed on such tables
    ran for many minutes (8x256 NeedyUltimatum after merging: no answer in 120 s).
    More players: gnm (the equilibria its path finds, not provably all), logit if
    pygambit's gnm crashes. The pure equilibria are listed by ``pure_equilibria``
    in every case, which is exact."""
    reduced, kept = remove_duplicate_strategies(g)
    merged = reduced.shape != g.shape
    where = (
        f" on the {'x'.join(map(str, reduced.shape))} table left after merging payoff-identical "
        f"strategies of the {'x'.join(map(str, g.shape))} one"
        if merged
        else ""
    )
    if g.num_players == 2 and max(reduced.shape) <= max_strategies:
        method, complete = "enummixed", True
        found = nash_equilibria(reduced, method, seed=seed)
        text = (
            f"every extreme equilibrium (pygambit's enummixed{where}; an equilibrium weighting a "
            f"strategy's duplicates is one of these with the weight split among them)"
            if merged
            else "every extreme equilibrium (pygambit's enummixed)"
        )
    elif g.num_players == 2:
        method, complete = "logit", False
        found = nash_equilibria(reduced, method, seed=seed)
        text = (
            f"one equilibrium, approximated by pygambit's logit (the limit of the quantal-response "
            f"path{where}), not all: with {max(reduced.shape)} strategies for a player, more than "
            f"{max_strategies}, enummixed does not finish here"
        )
    else:
        method, complete = "gnm", False
        try:
            found = nash_equilibria(reduced, method, seed=seed)
            text = f"the equilibria pygambit's gnm path finds{where}, not provably all"
        except SolverCrashed as e:
            method = "logit"
            found = nash_equilibria(reduced, method, seed=seed)
            text = f"one equilibrium, approximated by pygambit's logit{where} (gnm failed: {e}), not all"
    full = [expand_profile(eq, kept, g.shape) for eq in found]
    return EquilibriumList(full, method, complete, reduced.shape, text)


# -- sequential games: backward induction -----------------------------------------


@dataclass
class Decision:
    """A node of a hand-written game tree: ``player`` picks one of ``moves``."""

    player: int
    moves: dict  # action label -> subtree


@dataclass
class Chance:
    outcomes: dict  # label -> (probability, subtree)


@dataclass
class SubgamePerfect:
    value: np.ndarray  # every player's payoff on the equilibrium path
    strategy: dict = field(default_factory=dict)  # node key -> chosen action (every subgame)
    path: list = field(default_factory=list)  # actions from the root under it
    ties: list = field(default_factory=list)  # node keys where best actions tied


class InductionTooLarge(ValueError):
    """Backward induction would visit more than its ``max_nodes`` histories."""


def backward_induction(game, max_nodes: int | None = None) -> SubgamePerfect:
    """A subgame-perfect equilibrium by backward induction.

    ``game``: an OpenSpiel perfect-information game (node key: the history;
    a state's string is not a key, since the tic-tac-toe rule sets' strings
    leave out counters such as passes and pieces left this turn, and two
    states with one string once led the path into an illegal move on
    Centipede9; ``InductionTooLarge`` past ``max_nodes`` histories) or a nested tree of
    ``Decision`` / ``Chance`` / payoff tuples (node key: the action path). At
    every decision the mover takes the action that maximises its own payoff;
    on ties the lowest action (first label) is taken and the node listed in
    ``ties``: other tie-breaks give the other subgame-perfect equilibria.
    """
    result = SubgamePerfect(np.zeros(0))
    if isinstance(game, (Decision, Chance, tuple, list)):
        result.value = _solve_tree(game, (), result)
        node, path = game, []
        while isinstance(node, (Decision, Chance)):
            if isinstance(node, Chance):
                break
            a = result.strategy[tuple(path)]
            path.append(a)
            node = node.moves[a]
        result.path = path
        return result
    if isinstance(game, str):
        game = pyspiel.load_game(game)
    if game.get_type().information != pyspiel.GameType.Information.PERFECT_INFORMATION:
        raise ValueError(
            f"{game} is not a perfect-information game: backward induction needs "
            "one (use CFR or the normal form for the others)"
        )
    memo = {}
    root = game.new_initial_state()
    result.value = _solve_state(root, memo, result, max_nodes)
    s = root
    while not s.is_terminal() and not s.is_chance_node():
        a = result.strategy[tuple(s.history())]
        result.path.append(a)
        s = s.child(a)
    return result


def _pick(values: list, player: int, key, result: SubgamePerfect):
    best = max(v[player] for _, v in values)
    ties = [a for a, v in values if v[player] >= best - 1e-12]
    if len(ties) > 1:
        result.ties.append(key)
    a = ties[0]
    result.strategy[key] = a
    return dict(values)[a]


def _solve_tree(node, path, result) -> np.ndarray:
    if isinstance(node, Decision):
        values = [(a, _solve_tree(sub, path + (a,), result)) for a, sub in node.moves.items()]
        return _pick(values, node.player, path, result)
    if isinstance(node, Chance):
        total = sum(p for p, _ in node.outcomes.values())
        if abs(total - 1) > 1e-9:
            raise ValueError(f"chance probabilities at {path} sum to {total}, not 1")
        return sum(p * _solve_tree(sub, path + (a,), result) for a, (p, sub) in node.outcomes.items())
    return np.asarray(node, dtype=float)


def _solve_state(state, memo, result, max_nodes=None) -> np.ndarray:
    if state.is_terminal():
        return np.asarray(state.returns(), dtype=float)
    key = tuple(state.history())
    if max_nodes is not None and len(memo) >= max_nodes:
        raise InductionTooLarge(f"more than {max_nodes:,} histories: too large for backward induction here")
    if state.is_chance_node():
        v = sum(p * _solve_state(state.child(a), memo, result, max_nodes) for a, p in state.chance_outcomes())
    else:
        values = [(a, _solve_state(state.child(a), memo, result, max_nodes)) for a in state.legal_actions()]
        v = _pick(values, state.current_player(), key, result)
    memo[key] = v
    return v


# -- small sequential games in normal form ---------------------------------------


@dataclass
class InducedNormalForm:
    """The normal form of a small extensive game: a pure strategy of a player is
    one action at each of its information states (``infosets[p]``, in order)."""

    game: NormalFormGame
    infosets: list  # per player: information-state strings
    actions: list  # per player: legal actions of each infoset
    sequences: list  # per player: {infoset: ((infoset, action), ...) before it}

    def strategy(self, player: int, index: int) -> dict:
        choice = np.unravel_index(index, [len(a) for a in self.actions[player]])
        return {
            k: acts[int(i)]
            for k, acts, i in zip(self.infosets[player], self.actions[player], choice, strict=True)
        }

    def behaviour(self, player: int, sigma) -> dict:
        """A mixed strategy of ``player`` as a behaviour policy {infoset: [(a, p)]}
        (Kuhn's theorem; uniform where the player's mixed strategy never reaches it)."""
        pures = [self.strategy(player, i) for i in range(len(sigma))]
        out = {}
        for key, acts in zip(self.infosets[player], self.actions[player], strict=True):
            seq = self.sequences[player][key]
            reach = [w for w, s in zip(sigma, pures, strict=True) if all(s[i] == a for i, a in seq)]
            mass = sum(reach)
            if mass <= 0:
                out[key] = [(a, 1.0 / len(acts)) for a in acts]
                continue
            out[key] = [
                (
                    a,
                    sum(
                        w
                        for w, s in zip(sigma, pures, strict=True)
                        if s[key] == a and all(s[i] == b for i, b in seq)
                    )
                    / mass,
                )
                for a in acts
            ]
        return out


def induced_normal_form(game, max_strategies: int = 4096) -> InducedNormalForm:
    """Every player's pure strategies of a small OpenSpiel game and the
    expected payoff of every profile, chance averaged out.

    Built on games/normal_form.py (one tree walk, exact table, then floats):
    simultaneous games are first converted to turn-based so that the
    information states are named as OpenSpiel's policies (and CFR here) name
    them; the strategies and the table are the same as games.normal_form's on
    the simultaneous game itself (tests/test_normal_form.py checks it).
    Information states are named by ``information_state_string``; for
    perfect-information games games.normal_form's states are the decision
    nodes, which those strings must tell apart (else ValueError)."""
    if isinstance(game, str):
        game = pyspiel.load_game(game)
    if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        game = pyspiel.convert_to_turn_based(game)
    n = game.num_players()
    try:
        tree = enumerate_tree(game, max_profiles=max_strategies**n)
    except TooLarge as e:  # the product exceeds max_strategies^n: some player exceeds max_strategies
        detail = re.sub(r"\s*\(raise [^)]*\)", "", str(e))  # its hints name payoff_table's limits
        raise TooLarge(
            f"{game}: a player has more than {max_strategies:,} pure strategies; too large "
            f"for the normal form ({detail})"
        ) from e
    counts = tree.num_strategies
    if max(counts, default=1) > max_strategies:
        raise TooLarge(
            f"{game}: a player has {max(counts):,} pure strategies (more than "
            f"{max_strategies:,}); too large for the normal form"
        )
    infosets = []
    for p in range(n):
        names = [
            s if s is not None else i.key
            for s, i in zip(tree.state_strings[p], tree.infostates[p], strict=True)
        ]
        if len(set(names)) != len(names):
            raise ValueError(
                f"{game}: player {p}'s information-state strings name two different "
                "decision nodes the same; its normal form by strings is not the one by nodes"
            )
        infosets.append(names)
    actions = [[list(i.actions) for i in tree.infostates[p]] for p in range(n)]
    sequences = [
        {
            infosets[p][j]: tuple((infosets[p][i], actions[p][i][k]) for i, k in seq)
            for j, seq in enumerate(tree.sequences[p])
        }
        for p in range(n)
    ]
    table = tabulate(tree, str(game))
    payoffs = np.zeros([n] + counts)
    for profile, values in table.payoffs.items():
        payoffs[(slice(None),) + profile] = [float(v) for v in values]
    return InducedNormalForm(NormalFormGame(payoffs, title=str(game)), infosets, actions, sequences)

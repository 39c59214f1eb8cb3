"""The normal form of any small OpenSpiel game: every player's pure strategies
and the expected return of every player for every profile of them, with
chance playing its own probabilities, by exhaustive enumeration.

Why a table of pure strategies and not a solver: the dilemmas of the
tic-tac-toe variations specification are named after normal-form games
(Prisoner's Dilemma, Stag Hunt, ...), and a rule set encodes one only if its
table has that game's structure; the table is also what normal-form
equilibrium tools (Gambit's ``.nfg``) take.

Definitions, as docs/payoffs.md states them:
- an information state of player p is what p knows when it decides: the
  game's ``information_state_string(p)`` for imperfect-information and
  one-shot games, and for perfect-information games every decision node of p
  (its path from the start), so the table is the full (unreduced) normal form;
- at a simultaneous node each player with legal actions decides at its own
  information state; a player with none does not decide there;
- a pure strategy picks one action at each of the player's reachable
  information states; their number is the product of the action counts, and
  the table is refused (``TooLarge``) before any profile is evaluated when the
  product over players exceeds the limit;
- chance probabilities and returns are read as exact fractions when a float
  is the nearest double of a fraction with denominator <= 10**6 (chance
  probabilities must then sum to exactly 1); otherwise the table is
  float-exact only and says so (``exact`` False).

Only this module walks the tree: ``enumerate_tree`` once through OpenSpiel
states (the slow part), then ``tabulate`` every profile on the compiled tree.
solvers/normal_form.py's ``induced_normal_form`` is built on the same two
calls (it also reads ``Tree.sequences`` and ``Tree.state_strings``).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import sys
import time
from collections.abc import Callable, Sequence
from fractions import Fraction

import pyspiel

GT = pyspiel.GameType
MAX_DENOMINATOR = 10**6
DEFAULT_MAX_PROFILES = 100_000
DEFAULT_MAX_NODES = 1_000_000
#: Nodes walked on, once the profiles exceed the limit, to give their exact
#: count in the refusal; a larger tree is refused with a lower bound at once.
COUNT_BUDGET = 50_000


class TooLarge(ValueError):
    """The game tree or the table is larger than the limit the caller gave."""


@dataclasses.dataclass(frozen=True)
class InfoState:
    """One information state of one player: its key (the game's
    information-state string, or for perfect-information games the path of
    actions from the start), its legal actions and their names."""

    key: str
    actions: tuple[int, ...]
    action_names: tuple[str, ...]


@dataclasses.dataclass
class Tree:
    """The game tree compiled for fast profile evaluation.

    Nodes are tuples: ``("T", leaf)``, ``("C", children)`` (chance; its
    probabilities are folded into the leaves' weights), ``("D", player,
    infostate, children)`` and ``("S", deciders, children)`` where
    ``deciders`` is ``((player, infostate), ...)`` and ``children`` is indexed
    by the deciders' action indices, first decider slowest."""

    root: tuple | None
    infostates: list[list[InfoState]]
    leaf_weights: list[tuple[Fraction, ...]]  # chance reach probability x returns, per leaf
    nodes: int
    exact: bool
    #: per player, per information state (same order as ``infostates``): the
    #: player's own earlier decisions on the path that first reached it, as
    #: ``(infostate index, action index)`` pairs, oldest first (its sequence;
    #: unique under perfect recall). Kuhn's theorem needs it to turn a mixed
    #: strategy into a behaviour policy (solvers/normal_form.py).
    sequences: list[list[tuple[tuple[int, int], ...]]] = dataclasses.field(default_factory=list)
    #: per player, per information state: the game's
    #: ``information_state_string(player)`` at the node that first reached it,
    #: or None when the game provides none; for perfect-information games the
    #: key is the path, and this is the name OpenSpiel policies use.
    state_strings: list[list[str | None]] = dataclasses.field(default_factory=list)

    @property
    def num_strategies(self) -> list[int]:
        return [math.prod(len(i.actions) for i in states) for states in self.infostates]

    @property
    def num_profiles(self) -> int:
        return math.prod(self.num_strategies)


def as_fraction(x: float) -> tuple[Fraction, bool]:
    """``x`` as a fraction, and whether it is the fraction ``x`` stands for
    (the nearest double of a small-denominator fraction) rather than the
    float's own binary value."""
    q = Fraction(x).limit_denominator(MAX_DENOMINATOR)
    if float(q) == x:
        return q, True
    return Fraction(x), False


def count_text(n: int) -> str:
    """An integer readable at any size: digits with separators, or about 10^k."""
    if n < 10**15:
        return f"{n:,}"
    return f"about 10^{math.log10(n):.1f}"


def _profiles(infostates) -> int:
    return math.prod(math.prod(len(i.actions) for i in s) for s in infostates)


def _tree_error(game, nodes: int, infostates, why: str) -> TooLarge:
    return TooLarge(
        f"{game}: {why}; the information states of its first {nodes:,} nodes already give "
        f"at least {count_text(_profiles(infostates))} pure-strategy profiles "
        f"(strategies per player: at least "
        f"{', '.join(count_text(_profiles([s])) for s in infostates)})"
    )


def enumerate_tree(
    game: pyspiel.Game,
    max_nodes: int = DEFAULT_MAX_NODES,
    max_profiles: int | None = DEFAULT_MAX_PROFILES,
    progress: Callable[[str], None] | None = None,
    build: bool = True,
) -> Tree:
    """Walk the whole tree of ``game`` once: every player's reachable
    information states and (``build``) the compiled tree. Raises ``TooLarge``
    past ``max_nodes`` nodes, and when the profiles exceed ``max_profiles``:
    with their exact count if the rest of the tree takes at most
    ``COUNT_BUDGET`` more nodes to count, else with a lower bound.
    ``max_profiles=None, build=False`` just counts."""
    gtype = game.get_type()
    if gtype.chance_mode == GT.ChanceMode.SAMPLED_STOCHASTIC:
        raise ValueError(f"{game}: sampled chance cannot be enumerated")
    by_history = gtype.information == GT.Information.PERFECT_INFORMATION
    if not by_history and not gtype.provides_information_state_string:
        raise ValueError(
            f"{game}: an imperfect-information game without information-state "
            "strings has no information states to enumerate"
        )
    n = game.num_players()
    infostates: list[list[InfoState]] = [[] for _ in range(n)]
    index: list[dict[str, int]] = [{} for _ in range(n)]
    sequences: list[list[tuple[tuple[int, int], ...]]] = [[] for _ in range(n)]
    state_strings: list[list[str | None]] = [[] for _ in range(n)]
    has_strings = gtype.provides_information_state_string
    leaf_weights: list[tuple[Fraction, ...]] = []
    state_of = {
        "nodes": 0,
        "exact": True,
        "build": build,
        "last": time.monotonic(),
        "stop_at": max_nodes,
        "exceeded": False,
        "profiles": 1,
    }
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))

    def describe(path):
        return " ".join(path) if path else "(start)"

    def infostate(state, player, path, seq) -> int:
        """The index of ``player``'s information state at ``state``, added on
        first reach with ``seq``, the player's own decisions before it."""
        key = describe(path) if by_history else state.information_state_string(player)
        legal = tuple(state.legal_actions(player))
        found = index[player].get(key)
        if found is not None:
            if infostates[player][found].actions != legal:
                raise ValueError(
                    f"{game}: player {player}'s information state {key!r} has two "
                    f"different legal action lists: {list(infostates[player][found].actions)}"
                    f" and {list(legal)}"
                )
            return found
        names = tuple(state.action_to_string(player, a) for a in legal)
        index[player][key] = len(infostates[player])
        infostates[player].append(InfoState(key, legal, names))
        sequences[player].append(seq[player])
        state_strings[player].append(state.information_state_string(player) if has_strings else None)
        if max_profiles is not None and not state_of["exceeded"]:
            state_of["profiles"] *= len(legal)
            if state_of["profiles"] > max_profiles:
                state_of["exceeded"] = True
                state_of["build"] = False  # refused; count on a little, keeping no nodes
                state_of["stop_at"] = min(max_nodes, state_of["nodes"] + COUNT_BUDGET)
        return index[player][key]

    def visit(state, reach: Fraction, path: tuple[str, ...], seq: tuple):
        state_of["nodes"] += 1
        if state_of["nodes"] > state_of["stop_at"]:
            if not state_of["exceeded"] or state_of["stop_at"] == max_nodes:
                raise _tree_error(
                    game,
                    max_nodes,
                    infostates,
                    f"the game tree has more than {max_nodes:,} nodes (raise max_nodes / --max-nodes)",
                )
            raise _tree_error(
                game,
                state_of["stop_at"],
                infostates,
                f"the pure-strategy profiles exceed the limit of {max_profiles:,} "
                "(raise max_profiles / --max-profiles; --count counts them all)",
            )
        if progress and state_of["nodes"] % 20000 == 0 and time.monotonic() - state_of["last"] > 2:
            state_of["last"] = time.monotonic()
            progress(
                f"tree: {state_of['nodes']:,} nodes, information states per player "
                f"{[len(s) for s in infostates]}"
            )
        if state.is_terminal():
            if not state_of["build"]:
                return None
            weights = []
            for r in state.returns():
                q, ok = as_fraction(r)
                state_of["exact"] &= ok
                weights.append(reach * q)
            leaf_weights.append(tuple(weights))
            return ("T", len(leaf_weights) - 1)
        player = state.current_player()
        if player == pyspiel.PlayerId.CHANCE:
            outcomes = state.chance_outcomes()
            probs = []
            for _, p in outcomes:
                q, ok = as_fraction(p)
                state_of["exact"] &= ok
                probs.append(q)
            if sum(probs) != 1:
                state_of["exact"] = False
            children = [
                visit(state.child(a), reach * q, path + (f"chance:{state.action_to_string(player, a)}",), seq)
                for (a, _), q in zip(outcomes, probs, strict=True)
            ]
            return ("C", children) if state_of["build"] else None
        if player == pyspiel.PlayerId.SIMULTANEOUS:
            deciders = [(p, infostate(state, p, path, seq)) for p in range(n) if state.legal_actions(p)]
            choices = [infostates[p][i].actions for p, i in deciders]
            children = []
            for joint in itertools.product(*(range(len(c)) for c in choices)):
                after = list(seq)
                for (p, i), k in zip(deciders, joint, strict=True):
                    after[p] = seq[p] + ((i, k),)
                joint = tuple(c[k] for c, k in zip(choices, joint, strict=True))
                full = [pyspiel.INVALID_ACTION] * n
                for (p, _), a in zip(deciders, joint, strict=True):
                    full[p] = a
                child = state.clone()
                child.apply_actions(full)
                label = ",".join(
                    f"{p}:{state.action_to_string(p, a)}" for (p, _), a in zip(deciders, joint, strict=True)
                )
                children.append(visit(child, reach, path + (label,), tuple(after)))
            return ("S", tuple(deciders), children) if state_of["build"] else None
        i = infostate(state, player, path, seq)
        children = [
            visit(
                state.child(a),
                reach,
                path + (f"{player}:{state.action_to_string(player, a)}",),
                seq[:player] + (seq[player] + ((i, k),),) + seq[player + 1 :],
            )
            for k, a in enumerate(infostates[player][i].actions)
        ]
        return ("D", player, i, children) if state_of["build"] else None

    root = visit(game.new_initial_state(), Fraction(1), (), ((),) * n)
    tree = Tree(
        root, infostates, leaf_weights, state_of["nodes"], state_of["exact"], sequences, state_strings
    )
    if max_profiles is not None and tree.num_profiles > max_profiles:
        raise TooLarge(
            f"{game}: {count_text(tree.num_profiles)} pure-strategy profiles "
            f"(strategies per player: {', '.join(count_text(s) for s in tree.num_strategies)}) "
            f"exceed the limit of {max_profiles:,} (raise max_profiles / --max-profiles)"
        )
    return tree


def strategy_label(states: Sequence[InfoState], choice: Sequence[int]) -> str:
    """A strategy in the game's action names: the action at each information
    state with a real choice (more than one action), in information-state
    order, joined by ``/``; ``-`` when the player never chooses."""
    parts = [s.action_names[c] for s, c in zip(states, choice, strict=True) if len(s.actions) > 1]
    return " / ".join(parts) if parts else "-"


@dataclasses.dataclass
class PayoffTable:
    """Expected returns of every pure-strategy profile.

    ``strategies[p]`` are player p's strategies, each a tuple of action
    indices (one per information state of ``infostates[p]``); ``payoffs`` maps
    a profile (a tuple of strategy indices, one per player) to the players'
    expected returns. ``exact`` says whether they are exact fractions."""

    game: str
    infostates: list[list[InfoState]]
    strategies: list[list[tuple[int, ...]]]
    payoffs: dict[tuple[int, ...], tuple[Fraction, ...]]
    exact: bool
    nodes: int

    @property
    def num_players(self) -> int:
        return len(self.strategies)

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(len(s) for s in self.strategies)

    def labels(self, player: int) -> list[str]:
        return [strategy_label(self.infostates[player], s) for s in self.strategies[player]]

    def profiles(self):
        """Every profile in order, the last player's strategy varying fastest."""
        return itertools.product(*(range(k) for k in self.shape))

    def array(self):
        """The table as a float array ``[player, s_0, ..., s_{n-1}]`` (the layout
        of OpenSpiel's ``game_payoffs_array``)."""
        import numpy as np

        out = np.zeros((self.num_players,) + self.shape)
        for profile, values in self.payoffs.items():
            for p, v in enumerate(values):
                out[(p,) + profile] = float(v)
        return out


def payoff_table(
    game: pyspiel.Game | str,
    max_profiles: int = DEFAULT_MAX_PROFILES,
    max_nodes: int = DEFAULT_MAX_NODES,
    progress: Callable[[str], None] | None = None,
) -> PayoffTable:
    """The payoff table of ``game`` (a game or an OpenSpiel game string)."""
    if isinstance(game, str):
        game = pyspiel.load_game(game)
    tree = enumerate_tree(game, max_nodes=max_nodes, max_profiles=max_profiles, progress=progress)
    return tabulate(tree, str(game), progress)


def tabulate(tree: Tree, name: str, progress: Callable[[str], None] | None = None) -> PayoffTable:
    """The payoff table of a tree built by ``enumerate_tree`` (``build`` on):
    every profile evaluated on the compiled tree, in exact integer arithmetic.
    Public so that a caller needing the tree too (the information states'
    sequences, for Kuhn's theorem) walks the game once."""
    if tree.root is None:
        raise ValueError(f"{name}: the tree was enumerated without building it (build=False)")
    strategies = [
        list(itertools.product(*(range(len(i.actions)) for i in states))) for states in tree.infostates
    ]
    # integer numerators over one common denominator: a profile's value is a sum of leaves
    denominator = (
        math.lcm(*(w.denominator for ws in tree.leaf_weights for w in ws)) if tree.leaf_weights else 1
    )
    numerators = [tuple(int(w * denominator) for w in ws) for ws in tree.leaf_weights]
    n = len(tree.infostates)
    payoffs = {}
    total = tree.num_profiles
    started = last = time.monotonic()
    for count, profile in enumerate(itertools.product(*(range(len(s)) for s in strategies)), 1):
        chosen = [strategies[p][s] for p, s in enumerate(profile)]
        sums = [0] * n
        stack = [tree.root]
        while stack:
            node = stack.pop()
            kind = node[0]
            if kind == "T":
                for p, v in enumerate(numerators[node[1]]):
                    sums[p] += v
            elif kind == "D":
                stack.append(node[3][chosen[node[1]][node[2]]])
            elif kind == "C":
                stack.extend(node[1])
            else:
                flat = 0
                for p, i in node[1]:
                    flat = flat * len(tree.infostates[p][i].actions) + chosen[p][i]
                stack.append(node[2][flat])
        payoffs[profile] = tuple(Fraction(v, denominator) for v in sums)
        if progress and time.monotonic() - last > 2:
            last = time.monotonic()
            progress(f"profiles: {count:,} of {total:,} ({100 * count / total:.0f}%), {last - started:.0f} s")
    return PayoffTable(name, tree.infostates, strategies, payoffs, tree.exact, tree.nodes)

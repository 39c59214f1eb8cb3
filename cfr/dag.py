"""Exact CFR and best responses on games whose trees are too large to list,
over a DAG of merged histories.

Why: tabular CFR (``cfr.tree``) lists every history, and 3Blotto13 (3.8 x 10^12
histories), Centipede9 and NeedyCentipede4 (over 2 x 10^12 each) cannot be
listed; sampling MCCFR runs on them, but nothing could say how far its policy
is from equilibrium. Their futures depend on far fewer positions (58,331 in
3Blotto13, about 3.5 million in a centipede), and in two kinds of game the
histories reaching one position can be merged without changing the game:

- ``position`` (perfect-information games): one node per position (the core's
  ``hash``, which covers everything that decides the legal actions and the
  outcome from there, the ply where a move limit counts them), and the mover's
  information set is the node. Everything below a position is the same game
  whichever history reached it, so strategies that depend on the position only
  lose nothing: a best response to them is one too (backward induction), and
  CFR on the DAG is CFR on a game whose merged information sets have identical
  subtrees, the "perfectly well-formed" imperfect-recall games of Lanctot,
  Gibson, Burch, Zinkevich and Bowling (ICML 2012), where CFR keeps its regret
  bound.
- ``observation`` (blind games such as 3Blotto13, where every space is cloaked):
  one node per (position, every player's observation), and a player's
  information set is (player, moves so far, its observation). Exact when the
  game is *blind*, which the walk checks and refuses otherwise (``NotExact``):
  (1) what a player observes changes only with its own moves, as a function of
  its observation and its action, and its information state is the same
  whichever move another player (or chance) made; (2) whose turn it is depends
  on the number of moves only; (3) the players' observations together determine
  the position; (4) a player's observation determines its legal actions. Then
  a player's information state is a function of its own moves, the others'
  moves reach it as one fixed belief whatever it did, and two of its histories
  with one observation have the same future: its real information sets (which
  remember the order of its moves) merge into the DAG's with identical
  subtrees and beliefs, so again nothing is lost, and a best response on the
  DAG is a best response in the game.

Positions are told apart by the core's 64-bit hash, as ``cfr.count`` does: among
the 6 million a centipede's walk meets, two colliding is about a one-in-a-million
chance (n^2 / 2^65).

Either way the numbers are the game's own: ``nash_conv`` is exact, not an
estimate, and the tests compare both modes with OpenSpiel's best responses on
the full trees of small games of each kind, policy for policy.

The DAG is a ``cfr.tree.GameTree`` whose nodes are merged histories, in a
topological order (observation mode: by depth), with ``levels`` empty (the
numpy backend of ``cfr.tabular`` needs a tree; its C backend sums the reach of
every path into a node) and a ``dag`` attribute (``DagInfo``) with what best
responses need.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyspiel

from cfr import _kernel
from cfr._dag import MODE_OBSERVATION, MODE_POSITION, Builder, NotExact, TooManyNodes
from cfr.tree import GameTree

__all__ = [
    "DagInfo",
    "NotExact",
    "TooManyNodes",
    "build_dag",
    "dag_mode",
    "nash_conv",
    "exploitability",
    "values",
    "best_responses",
    "state_key",
    "infoset_index",
    "lift",
    "backward_induction",
    "MODES",
    "KEYS",
    "ALGORITHM",
]

MODES = ("position", "observation")
#: the CFR variant the toolkit runs over a DAG (experiments.bench_cfr, the study): DCFR
#: (a=1.5, b=0, g=2). An iteration over a centipede's DAG costs about 0.1 s, and on
#: NeedyCentipede4's DCFR's average is below NashConv 1e-3 after 150 iterations (4.5e-4;
#: 1.5e-3 at 100) where CFR+'s needs 300 (8.8e-4; 1.3e-3 at 250); on 3Blotto13 the two are
#: alike (NashConv 2.07e-3 and 2.04e-3 after 400)
ALGORITHM = "dcfr"
#: a policy file's ``keys`` for a policy solved over a DAG of each mode (cfr.policy_file)
KEYS = {"position": "dag-position", "observation": "dag-observation"}


@dataclass
class DagInfo:
    mode: str
    estart: np.ndarray  # node n's edges: estart[n] .. estart[n + 1]
    node_infoset: np.ndarray  # information set of each decision node, -1 elsewhere
    node_depth: np.ndarray  # moves from the start (chance's included)
    inodes_start: np.ndarray  # information set i's nodes: inodes[inodes_start[i]:inodes_start[i+1]]
    inodes: np.ndarray
    seconds: float = 0.0  # the walk's wall time


def dag_mode(game) -> str:
    """``position`` for sequential perfect-information games, else ``observation``."""
    t = game.get_type()
    if (
        t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
        and t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    ):
        return "position"
    return "observation"


def build_dag(game, mode: str | None = None, max_nodes: int = 20_000_000) -> GameTree:
    """The DAG of one of this toolkit's games (``games.openspiel.CoreGame``).

    Raises ``NotExact`` when merging would change the game (the mode's condition
    fails: see the module), ``TooManyNodes`` past ``max_nodes`` nodes, and
    ValueError for a game that is not one of ours or a mode that does not fit it.
    """
    import time

    from games.openspiel import CoreGame

    if not isinstance(game, CoreGame):
        raise ValueError(f"{game}: the DAG walks this toolkit's Cython games only")
    mode = mode or dag_mode(game)
    if mode not in MODES:
        raise ValueError(f"unknown DAG mode {mode!r}; choose from {', '.join(MODES)}")
    if mode == "position" and dag_mode(game) != "position":
        raise NotExact(
            f"{game} is not a sequential perfect-information game: a position "
            "does not tell a player what it knows (use mode 'observation')"
        )
    start = time.perf_counter()
    n = game.num_players()
    builder = Builder(n, MODE_POSITION if mode == "position" else MODE_OBSERVATION, max_nodes)
    builder.build(game.new_core())
    tree = _arrays(builder, n, mode)
    tree.dag.seconds = time.perf_counter() - start
    return tree


def _arrays(b: Builder, n: int, mode: str) -> GameTree:
    """Renumber the walk's nodes topologically and lay the DAG out as a GameTree."""
    player = np.frombuffer(b.node_player, dtype=np.int64)
    depth = np.frombuffer(b.node_depth, dtype=np.int64)
    finish = np.frombuffer(b.node_finish, dtype=np.int64)
    infoset = np.frombuffer(b.node_infoset, dtype=np.int64)
    count = len(player)
    par = np.frombuffer(b.e_parent, dtype=np.int64)
    ch = np.frombuffer(b.e_child, dtype=np.int64)
    index = np.frombuffer(b.e_index, dtype=np.int64)
    order = _topological_order(par, ch, index, depth, finish)
    if order is None and mode == "observation":  # the walk checks this; kept as a guard
        raise NotExact("an edge skips a depth: the DAG is not layered by moves")
    if order is None:
        order = np.argsort(-finish)
    new_of_old = np.empty(count, dtype=np.int64)
    new_of_old[order] = np.arange(count)
    par, ch = new_of_old[par], new_of_old[ch]
    eorder = np.argsort(par, kind="stable")  # blocks by parent, actions in order
    par, ch = par[eorder], ch[eorder]
    index = index[eorder]
    prob = np.frombuffer(b.e_prob, dtype=float)[eorder]
    node_player = player[order]
    node_infoset = infoset[order]
    actions = b.infoset_actions
    counts = np.array([len(a) for a in actions], dtype=np.int64)
    first = (
        np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
        if len(actions)
        else np.zeros(0, dtype=np.int64)
    )
    parent_player = node_player[par]
    chance = parent_player == pyspiel.PlayerId.CHANCE
    parent_infoset = node_infoset[par]
    edge_sa = (
        np.where(chance, -1, first[np.where(chance, 0, parent_infoset)] + index)
        if len(first)
        else np.full(len(par), -1, dtype=np.int64)
    )
    edge_owner = np.where(chance, n, parent_player)
    utilities = np.frombuffer(b.utilities, dtype=float).reshape(count, n)[order]
    sa_infoset = np.repeat(np.arange(len(actions), dtype=np.int64), counts)
    sa_action = np.array([a for acts in actions for a in acts], dtype=np.int64)
    decision = np.flatnonzero(node_infoset >= 0)
    by_set = decision[np.argsort(node_infoset[decision], kind="stable")]
    inodes_start = np.searchsorted(node_infoset[by_set], np.arange(len(actions) + 1))
    tree = GameTree(
        num_players=n,
        node_player=node_player,
        utilities=utilities,
        edge_parent=par,
        edge_child=ch,
        edge_sa=edge_sa.astype(np.int64),
        edge_prob=prob,
        edge_owner=edge_owner.astype(np.int64),
        levels=[],
        infoset_keys=[_key_string(mode, k) for k in b.infoset_keys],
        infoset_player=np.array(b.infoset_player, dtype=np.int64),
        infoset_actions=actions,
        infoset_first_sa=first,
        sa_infoset=sa_infoset,
        sa_action=sa_action,
    )
    tree.player_edges = [np.flatnonzero(edge_owner == p) for p in range(n)]
    tree.dag = DagInfo(
        mode=mode,
        estart=np.searchsorted(par, np.arange(count + 1)).astype(np.int64),
        node_infoset=node_infoset,
        node_depth=depth[order],
        inodes_start=inodes_start.astype(np.int64),
        inodes=by_set.astype(np.int64),
    )
    return tree


def _topological_order(par, ch, index, depth, finish):
    """Old node ids in breadth-first order (a node's children numbered together,
    in the order of their first parents), when every edge goes one move deeper;
    None otherwise (then the reverse of the walk's finishing order, which is
    topological because a node finishes after all its descendants).

    Why breadth-first: a sweep over the edges then reads nearby nodes, about
    twice as fast as the finishing order on a centipede's 1.3 million nodes; and
    observation mode needs the nodes of one depth together (``best_responses``).
    """
    if len(par) and not np.all(depth[ch] == depth[par] + 1):
        return None
    count = len(depth)
    width = int(index.max()) + 1 if len(index) else 1
    rank = np.full(count, np.iinfo(np.int64).max, dtype=np.int64)
    rank[0] = 0
    out = [np.zeros(1, dtype=np.int64)]
    by_depth = np.argsort(depth[par], kind="stable")
    bounds = np.searchsorted(depth[par][by_depth], np.arange(int(depth.max()) + 2))
    for d in range(int(depth.max())):
        edges = by_depth[bounds[d] : bounds[d + 1]]
        np.minimum.at(rank, ch[edges], rank[par[edges]] * width + index[edges])
        level = np.unique(ch[edges])
        level = level[np.argsort(rank[level], kind="stable")]
        rank[level] = np.arange(len(level)) + sum(len(x) for x in out)
        out.append(level)
    order = np.concatenate(out)
    if len(order) != count:  # a node no edge reaches (the walk makes none)
        return None
    return order


def _util(tree: GameTree) -> np.ndarray:
    util = getattr(tree, "_util_t", None)
    if util is None:
        util = tree._util_t = np.ascontiguousarray(tree.utilities.T)
    return util


def values(tree: GameTree, probs: np.ndarray) -> list:
    """Every player's expected return when all play ``probs`` (per slot)."""
    probs = np.ascontiguousarray(probs, dtype=float)
    return [
        _kernel.policy_values(
            tree.edge_parent, tree.edge_child, tree.edge_sa, tree.edge_prob, _util(tree), probs, p
        )
        for p in range(tree.num_players)
    ]


def best_responses(tree: GameTree, probs: np.ndarray) -> list:
    """Every player's best-response return against the others' ``probs``."""
    d = tree.dag
    probs = np.ascontiguousarray(probs, dtype=float)
    return [
        _kernel.best_response_value(
            tree.edge_parent,
            tree.edge_child,
            tree.edge_sa,
            tree.edge_owner,
            tree.edge_prob,
            _util(tree),
            probs,
            d.estart,
            d.node_infoset,
            tree.num_infosets,
            d.inodes_start,
            d.inodes,
            p,
        )
        for p in range(tree.num_players)
    ]


def nash_conv(tree: GameTree, probs: np.ndarray) -> float:
    """Sum over players of what a best response gains (0 exactly at a Nash equilibrium)."""
    return float(sum(b - v for b, v in zip(best_responses(tree, probs), values(tree, probs), strict=True)))


def exploitability(tree: GameTree, probs: np.ndarray) -> float:
    """NashConv / 2, OpenSpiel's exploitability for two-player zero-sum games."""
    return nash_conv(tree, probs) / 2


def _key_string(mode: str, key) -> str:
    """An information set's key in policies and policy files (``state_key``'s form)."""
    if mode == "position":
        return f"position {key:016x}"
    player, depth, obs = key
    return f"player {player} after {depth} moves observes\n{obs}"


def state_key(mode: str, state, player: int | None = None) -> str:
    """The key of the DAG information set ``player`` (default: the one to move) is in at
    ``state``: how a policy solved over a DAG is looked up while playing the game. Both
    read only what the player may know: in a perfect-information game the position, in
    a blind game its own observation and the number of moves."""
    from games.openspiel import core_of

    player = state.current_player() if player is None else player
    if mode == "position":
        return _key_string(mode, core_of(state).position_hash())
    return _key_string(mode, (player, len(state.history()), state.observation_string(player)))


def infoset_index(tree: GameTree, state) -> int:
    """The DAG's information set of the player to move at ``state`` (a state of
    the game the DAG was built from): how a policy over the DAG plays the game."""
    lookup = getattr(tree, "_lookup", None)
    if lookup is None:
        lookup = tree._lookup = {k: i for i, k in enumerate(tree.infoset_keys)}
    return lookup[state_key(tree.dag.mode, state)]


def lift(tree: GameTree, probs: np.ndarray, states) -> dict:
    """A DAG policy as {information-state string: [(action, probability)]} over the
    game's own information sets, one history of each given (``states``)."""
    out = {}
    for state in states:
        i = infoset_index(tree, state)
        lo = tree.infoset_first_sa[i]
        out[state.information_state_string()] = [
            (int(a), float(probs[lo + j])) for j, a in enumerate(tree.infoset_actions[i])
        ]
    return out


@dataclass
class DagSubgamePerfect:
    value: np.ndarray  # every player's return at the root
    path: list  # actions from the start until chance moves or the game ends
    tied_positions: int  # decision positions where another action was as good for the mover


def backward_induction(tree: GameTree) -> DagSubgamePerfect:
    """A subgame-perfect equilibrium of a perfect-information game over its DAG of
    positions (``solvers.normal_form.backward_induction``'s rule: the mover's best,
    the lowest action on ties), exact where the tree is far too large to walk."""
    if tree.dag.mode != "position":
        raise ValueError("backward induction needs perfect information (a DAG of positions)")
    values, choice, ties = _kernel.backward_induction(
        tree.edge_child, tree.edge_prob, _util(tree), tree.dag.estart, tree.node_player
    )
    path, node = [], 0
    while choice[node] >= 0:
        i = tree.dag.node_infoset[node]
        path.append(int(tree.infoset_actions[i][choice[node]]))
        node = int(tree.edge_child[tree.dag.estart[node] + choice[node]])
    return DagSubgamePerfect(values[:, 0].copy(), path, int(ties))

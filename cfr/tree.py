"""The whole game tree of a small game, enumerated once into flat numpy arrays.

Why: CFR touches every history on every iteration. Walking ``pyspiel`` states
each time costs a Python call (or, for this toolkit's games, a C++ -> Python
call) per history and iteration; enumerating the tree once and keeping it as
arrays lets ``cfr.tabular`` run each iteration as a few vectorised numpy
operations per depth level, on any OpenSpiel game (ours and OpenSpiel's own).

Layout (``GameTree``): nodes in breadth-first order, so every edge's parent
comes before its child and the edges of one parent are contiguous; edges
grouped by the parent's depth (``levels``). A decision edge names its
*slot* ``sa``: the (information state, action) pair it belongs to, so one
regret and one average-policy entry per slot. Simultaneous games are walked
through ``pyspiel.convert_to_turn_based`` (the information-state strings are
that game's, ``"Current player: p\\n" + ...``), which keeps perfect recall.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np

from cfr.count import count_histories, is_core_game
from cfr.game_form import turn_based

__all__ = ["GameTree", "TreeTooLarge", "enumerate_tree"]


class TreeTooLarge(ValueError):
    """The game has more histories than the caller allowed. ``size`` says how
    large in words ("G: 3.8 x 10^12 histories, more than 5,000,000"), for a
    caller that reports the size without the advice the message adds."""

    def __init__(self, size: str, advice: str):
        super().__init__(f"{size}; {advice}")
        self.size = size


def refuse_if_too_large(game, max_nodes: int, count=None) -> None:
    """Raise ``TreeTooLarge`` with the count when the memoised count of a Cython
    game (or ``count``, one already made) shows more than ``max_nodes`` histories."""
    if count is None:
        if not is_core_game(game):
            return
        count = count_histories(game, limit=max_nodes)
    if count.over(max_nodes):
        raise TreeTooLarge(
            f"{game}: {count.text()}, more than {max_nodes:,}",
            "too large for tabular CFR (use sampling MCCFR, or raise max_nodes); counted, not built",
        )


@dataclass
class Level:
    lo: int  # edge range [lo, hi) whose parents share one depth
    hi: int
    parents: np.ndarray  # the distinct parents of those edges, in order
    starts: np.ndarray  # offset of each parent's first edge, relative to lo


@dataclass
class GameTree:
    num_players: int
    node_player: np.ndarray  # player id, -1 chance, -4 terminal
    utilities: np.ndarray  # (nodes, players); zero on non-terminal nodes
    edge_parent: np.ndarray
    edge_child: np.ndarray
    edge_sa: np.ndarray  # slot of a decision edge, -1 for chance edges
    edge_prob: np.ndarray  # chance probability (1.0 on decision edges)
    edge_owner: np.ndarray  # player of the parent; num_players for chance
    levels: list
    infoset_keys: list  # information-state string of each infoset
    infoset_player: np.ndarray
    infoset_actions: list  # legal actions of each infoset (ascending)
    infoset_first_sa: np.ndarray  # first slot of each infoset; its slots are contiguous
    sa_infoset: np.ndarray  # infoset of each slot
    sa_action: np.ndarray  # action of each slot
    player_edges: list = field(default_factory=list)  # decision edges per player
    infoset_states: list = field(default_factory=list)  # one history of each infoset

    @property
    def num_nodes(self) -> int:
        return len(self.node_player)

    @property
    def num_infosets(self) -> int:
        return len(self.infoset_keys)

    @property
    def num_slots(self) -> int:
        return len(self.sa_action)

    def policy_dict(self, probs: np.ndarray) -> dict:
        """{information-state string: [(action, probability), ...]} from per-slot probs."""
        out = {}
        for i, key in enumerate(self.infoset_keys):
            lo = self.infoset_first_sa[i]
            acts = self.infoset_actions[i]
            out[key] = [(int(a), float(probs[lo + j])) for j, a in enumerate(acts)]
        return out


def enumerate_tree(game, max_nodes: int = 5_000_000, count=None) -> GameTree:
    """Walk every history of ``game`` (simultaneous games turn-based) into a GameTree.

    Raises ``TreeTooLarge`` past ``max_nodes`` histories and ValueError when two
    histories of one information state offer different actions (imperfect recall
    or a broken view: CFR's tabular form needs one action set per infoset).
    This toolkit's Cython games are counted first (``cfr.count``, memoised by
    position) and refused with their count before anything is built; other
    games are refused when the walk passes ``max_nodes``. ``count``: the
    game's ``cfr.count.HistoryCount`` if the caller has made it already.
    """
    refuse_if_too_large(game, max_nodes, count)
    game = turn_based(game)
    n = game.num_players()
    players, utils = [], []
    e_par, e_ch, e_sa, e_prob, e_owner, e_depth = [], [], [], [], [], []
    keys, key_index, is_player, is_actions, is_first, is_states = [], {}, [], [], [], []
    sa_is, sa_act = [], []
    queue = deque([(game.new_initial_state(), 0)])
    players.append(None)
    utils.append(None)
    next_id = 1
    node = -1
    while queue:
        state, depth = queue.popleft()
        node += 1
        if state.is_terminal():
            players[node] = -4
            utils[node] = state.returns()
            continue
        utils[node] = None
        if state.is_chance_node():
            players[node] = -1
            children = [(a, p, -1) for a, p in state.chance_outcomes()]
            owner = n
        else:
            p = state.current_player()
            if p < 0:
                raise ValueError(
                    f"unexpected player {p} in {game} (simultaneous node after turn-based conversion?)"
                )
            players[node] = p
            key = state.information_state_string(p)
            legal = state.legal_actions(p)
            idx = key_index.get(key)
            if idx is None:
                idx = key_index[key] = len(keys)
                keys.append(key)
                is_player.append(p)
                is_actions.append(list(legal))
                is_first.append(len(sa_act))
                is_states.append(state)
                sa_is.extend([idx] * len(legal))
                sa_act.extend(legal)
            elif is_actions[idx] != list(legal) or is_player[idx] != p:
                raise ValueError(
                    f"information state {key!r} offers different actions in "
                    "two histories: CFR needs perfect recall and one action set "
                    "per information state"
                )
            first = is_first[idx]
            children = [(a, 1.0, first + j) for j, a in enumerate(legal)]
            owner = p
        for a, prob, sa in children:
            if next_id >= max_nodes:
                raise TreeTooLarge(
                    f"{game}: more than {max_nodes:,} histories",
                    "too large for tabular CFR (use sampling MCCFR, or raise max_nodes)",
                )
            e_par.append(node)
            e_ch.append(next_id)
            e_sa.append(sa)
            e_prob.append(prob)
            e_owner.append(owner)
            e_depth.append(depth)
            players.append(None)
            utils.append(None)
            queue.append((state.child(a), depth + 1))
            next_id += 1
    num = len(players)
    util = np.zeros((num, n))
    for i, u in enumerate(utils):
        if u is not None:
            util[i] = u
    edge_parent = np.asarray(e_par, dtype=np.int64)
    depth = np.asarray(e_depth, dtype=np.int64)
    levels = []
    lo = 0
    while lo < len(depth):
        hi = int(np.searchsorted(depth, depth[lo], side="right"))
        par = edge_parent[lo:hi]
        change = np.flatnonzero(np.r_[True, par[1:] != par[:-1]])
        levels.append(Level(lo, hi, par[change], change))
        lo = hi
    edge_sa = np.asarray(e_sa, dtype=np.int64)
    edge_owner = np.asarray(e_owner, dtype=np.int64)
    tree = GameTree(
        num_players=n,
        node_player=np.asarray(players, dtype=np.int64),
        utilities=util,
        edge_parent=edge_parent,
        edge_child=np.asarray(e_ch, dtype=np.int64),
        edge_sa=edge_sa,
        edge_prob=np.asarray(e_prob, dtype=float),
        edge_owner=edge_owner,
        levels=levels,
        infoset_keys=keys,
        infoset_player=np.asarray(is_player, dtype=np.int64),
        infoset_actions=is_actions,
        infoset_first_sa=np.asarray(is_first, dtype=np.int64),
        sa_infoset=np.asarray(sa_is, dtype=np.int64),
        sa_action=np.asarray(sa_act, dtype=np.int64),
    )
    tree.infoset_states = is_states
    tree.player_edges = [np.flatnonzero(edge_owner == p) for p in range(n)]
    return tree

"""Single-observer information-set MCTS (SO-ISMCTS, Cowling, Powley and Whitehouse
2012) for hidden-information games, as a ``pyspiel.Bot``.

Why our own: OpenSpiel's ``ISMCTSBot`` cannot run Python-registered games
(docs/DESIGN.md), and our UCT (``mcts.uct``) searches the whole state, which
would read hidden pieces; it refuses such games.

How it stays honest: everything the search uses is a function of what its
player knows.
1. **Worlds.** From the player's own history (the information states it was in
   at each of its decisions and the action it took there, which perfect recall
   makes part of its present information state), ``consistent_worlds`` walks
   the game from its start: every move of the others and every chance outcome,
   but at the player's own decisions only the action it took, and only while
   its information state is the one it had. The histories that reach its
   present information state are the worlds it cannot tell apart, each weighted
   by its chance probability (the others are assumed to play uniformly: the
   search has no model of them). The walk's order does not depend on the true
   history, so two indistinguishable histories give the same list.
2. **Search.** Each iteration samples one world (a determinisation) and runs
   UCT on a tree of action sequences shared by all worlds; a child's UCB uses
   its *availability* count (how often its action was legal when its parent
   was visited) instead of the parent's visits, because actions are not legal
   in every world. Chance moves are sampled, not stored. Leaves are evaluated
   by one uniform random playout, in the Cython kernel for this toolkit's games.
The final move is the most visited root child; the root's actions are the
player's legal actions, the same in every world.

Simultaneous rounds: the core protocol already plays a round as the seats'
decisions one after another, each hidden from the others until the round
resolves (docs/DESIGN.md, "Both faces of a simultaneous game"), so for this
toolkit's games the worlds are cores as for any other game: the OpenSpiel
history's per-seat actions are replayed into a core, and the seats planning
before the bot's in the current round get placeholder plans, which change
nothing it can see (its information state is the same for every choice of
them), so its worlds, and its search, are those of the true position. Games
without a core (OpenSpiel's matrix games) are searched on
``pyspiel.convert_to_turn_based``, the same sequentialisation through Python
states (about 15x slower per simulation on a small ttt game). A game passed in
its turn-based form already is played as it is.

``worlds="first"`` is the determinisation-free baseline of issue 14: the same
search on one fixed world, the first history of the canonical walk that is
consistent with what the player knows (for a cloaked game: the others' lowest
moves where it could not see them). It ignores that the hidden state could
be otherwise, which is what sampling worlds is for; the study checks that
ISMCTS beats it.
"""
from __future__ import annotations

import math

import numpy as np
import pyspiel

from games.openspiel import core_of, is_core_state, refuse_terminal

__all__ = ["ISMCTSBot", "consistent_worlds", "TooManyWorlds", "WORLD_MODES", "turn_based_state"]

#: ``sampled``: SO-ISMCTS; ``first``: the one-world baseline (module docstring).
WORLD_MODES = ("sampled", "first")


class TooManyWorlds(ValueError):
    """More histories are consistent with the information state than allowed."""


class _SpielWorld:
    """The core's Python face over a plain OpenSpiel state (games without a core)."""

    __slots__ = ("s",)

    def __init__(self, state):
        self.s = state

    def player(self):
        s = self.s
        return -4 if s.is_terminal() else (-1 if s.is_chance_node() else s.current_player())

    def terminal(self):
        return self.s.is_terminal()

    def legal_action_list(self):
        return self.s.legal_actions()

    def chance_outcome_list(self):
        return self.s.chance_outcomes()

    def apply_action(self, a):
        self.s.apply_action(a)

    def clone(self):
        return _SpielWorld(self.s.clone())

    def returns_list(self):
        return self.s.returns()

    def information_state_string(self, p):
        return self.s.information_state_string(p)

    def random_playout(self, seed):
        rng = np.random.default_rng(seed)
        s = self.s
        while not s.is_terminal():
            if s.is_chance_node():
                acts, probs = zip(*s.chance_outcomes())
                s.apply_action(acts[rng.choice(len(acts), p=np.array(probs) / sum(probs))])
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rng.integers(len(legal))])


def _world(state):
    return core_of(state).clone() if is_core_state(state) else _SpielWorld(state.clone())


def _decisions(state, player):
    """The position as the core protocol sees it: the actions one decision at a time
    from the start, and the world there with ``player`` to decide. For a core game at
    a simultaneous round the core plans the round's seats one after another (a seat
    with no plan has none), so the OpenSpiel history's per-seat actions are replayed
    into it, and the seats planning before ``player`` in this round get their first
    legal plan as a placeholder (hidden from ``player``: its information state is the
    same for every choice of them)."""
    if not state.is_simultaneous_node():
        return list(state.history()), _world(state)
    if not is_core_state(state):
        raise ValueError("a simultaneous round of a game without a core: search its "
                         "pyspiel.convert_to_turn_based form (turn_based_state)")
    if not state.legal_actions(player):
        raise ValueError(f"worlds are enumerated at the player's own decisions; player "
                         f"{player} has nothing to plan in this round")
    world = _world(state.get_game().new_initial_state())
    history = []
    for item in state.full_history():
        if item.action == pyspiel.INVALID_ACTION:
            continue
        if world.player() not in (-1, item.player):
            raise ValueError(f"cannot replay player {item.player}'s action {item.action} into the "
                             f"core (it has player {world.player()} to decide)")
        world.apply_action(item.action)
        history.append(item.action)
    while world.player() != player:
        if world.terminal() or world.player() < 0:
            raise ValueError("the replay left the round before reaching the player")
        a = world.legal_action_list()[0]
        world.apply_action(a)
        history.append(a)
    return history, world


def _own_history(state, player):
    """[(information state, action)] at each of ``player``'s past decisions, and
    its present information state: what perfect recall lets it know."""
    game = state.get_game()
    history, present = _decisions(state, player)
    replay = _world(game.new_initial_state())
    mine = []
    for a in history:
        if replay.player() == player:
            mine.append((replay.information_state_string(player), a))
        replay.apply_action(a)
    return mine, present.information_state_string(player)


def consistent_worlds(state, player, max_worlds: int = 100_000):
    """The histories ``player`` cannot tell from ``state``'s, as (world, weight)."""
    if state.is_terminal() or state.is_chance_node() or (
            not state.is_simultaneous_node() and state.current_player() != player):
        raise ValueError(f"worlds are enumerated at the player's own decisions; player "
                         f"{player} is not to move")
    game = state.get_game()
    mine, present = _own_history(state, player)
    out = []
    stack = [(_world(game.new_initial_state()), 0, 1.0)]
    while stack:
        w, k, weight = stack.pop()
        p = w.player()
        if p == player:
            info = w.information_state_string(player)
            if k == len(mine):
                if info == present:
                    out.append((w, weight))
                    if len(out) > max_worlds:
                        raise TooManyWorlds(f"more than {max_worlds:,} histories are consistent "
                                            "with the information state; raise max_worlds")
                continue
            if info != mine[k][0]:
                continue
            w.apply_action(mine[k][1])
            stack.append((w, k + 1, weight))
            continue
        if w.terminal():
            continue
        if p == -1:
            moves = w.chance_outcome_list()
        else:
            legal = w.legal_action_list()
            moves = [(a, 1.0) for a in legal]     # no model of the others: uniform
        for a, prob in reversed(moves):
            child = w.clone()
            child.apply_action(a)
            stack.append((child, k, weight * (prob if p == -1 else 1.0)))
    if not out:
        raise RuntimeError("no history is consistent with the information state "
                           "(the game's views are not perfect-recall?)")
    return out


def turn_based_state(turn_based_game, state, player: int):
    """The position of simultaneous-game ``state`` in ``turn_based_game`` (its
    ``convert_to_turn_based`` form) with ``player`` to plan: the history
    replayed, and the seats before ``player`` in the current round given their
    first legal action as a placeholder plan (hidden from ``player``, so its
    information state does not depend on it)."""
    out = turn_based_game.new_initial_state()
    for item in state.full_history():
        if item.action == pyspiel.INVALID_ACTION:
            continue
        if out.is_chance_node() or out.current_player() == item.player:
            out.apply_action(item.action)
            continue
        raise ValueError(f"cannot replay player {item.player}'s action {item.action} into the turn-based "
                         f"game (player {out.current_player()} is to move there)")
    if not state.legal_actions(player):
        raise ValueError(f"player {player} has nothing to plan in this round")
    while out.current_player() != player:
        if out.is_terminal() or out.is_chance_node():
            raise ValueError("the turn-based replay left the round before reaching the player")
        out.apply_action(out.legal_actions()[0])
    return out


class _Node:
    __slots__ = ("children", "visits", "reward", "avail")

    def __init__(self):
        self.children = {}
        self.visits = 0
        self.reward = 0.0      # summed returns of the player who moved into this node
        self.avail = 0


class ISMCTSBot(pyspiel.Bot):
    """SO-ISMCTS for ``player``; ``max_simulations`` iterations per move."""

    def __init__(self, game, player: int, *, seed: int = 0, uct_c: float = 1.4,
                 max_simulations: int = 1000, max_worlds: int = 100_000, worlds: str = "sampled"):
        pyspiel.Bot.__init__(self)
        if isinstance(game, str):
            game = pyspiel.load_game(game)
        self._turn_based = None
        if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
            self._turn_based = pyspiel.convert_to_turn_based(game)
        if worlds not in WORLD_MODES:
            raise ValueError(f"worlds must be one of {', '.join(WORLD_MODES)}, got {worlds!r}")
        self._first_world = worlds == "first"
        if not 0 <= player < game.num_players():
            raise ValueError(f"player must be in 0..{game.num_players() - 1}, got {player}")
        for name, value in (("uct_c", uct_c),):
            if not (isinstance(value, (int, float)) and math.isfinite(value) and value >= 0):
                raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
        if not (isinstance(max_simulations, int) and max_simulations >= 1):
            raise ValueError(f"max_simulations must be an integer >= 1, got {max_simulations!r}")
        if not (isinstance(max_worlds, int) and max_worlds >= 1):
            raise ValueError(f"max_worlds must be an integer >= 1, got {max_worlds!r}")
        self._player = player
        self._c = float(uct_c)
        self._sims = max_simulations
        self._max_worlds = max_worlds
        self._rng = np.random.default_rng(seed)
        self.last_search = None

    @property
    def player(self) -> int:
        return self._player

    def search(self, state):
        """Run the search; returns {'action', 'children': [(action, visits, mean)], 'worlds'}."""
        refuse_terminal(state)
        if state.is_simultaneous_node() and not is_core_state(state):
            if self._turn_based is None:
                raise ValueError("a simultaneous round in a game the bot was not made for")
            state = turn_based_state(self._turn_based, state, self._player)
        if not state.is_simultaneous_node() and state.current_player() != self._player:
            raise ValueError(f"it is player {state.current_player()}'s turn, not {self._player}'s")
        worlds = consistent_worlds(state, self._player, self._max_worlds)
        if self._first_world:
            worlds = worlds[:1]
        weights = np.array([w for _, w in worlds])
        weights /= weights.sum()
        rng, c, root = self._rng, self._c, _Node()
        for _ in range(self._sims):
            world = worlds[rng.choice(len(worlds), p=weights)][0].clone()
            node, path, movers = root, [root], []
            expanded = False
            while not world.terminal():
                p = world.player()
                if p == -1:
                    acts, probs = zip(*world.chance_outcome_list())
                    world.apply_action(acts[rng.choice(len(acts), p=np.array(probs) / sum(probs))])
                    continue
                legal = world.legal_action_list()
                if expanded:
                    break
                untried = [a for a in legal if a not in node.children]
                for a in legal:
                    child = node.children.get(a)
                    if child is not None:
                        child.avail += 1
                if untried:
                    a = untried[rng.integers(len(untried))]
                    child = node.children[a] = _Node()
                    child.avail = 1
                    expanded = True
                else:
                    best, a = -math.inf, legal[0]
                    for b in legal:
                        ch = node.children[b]
                        score = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                        if score > best:
                            best, a = score, b
                    child = node.children[a]
                world.apply_action(a)
                movers.append(p)
                node = child
                path.append(child)
            if not world.terminal():
                world.random_playout(int(rng.integers(2 ** 63)))
            returns = world.returns_list()
            root.visits += 1
            for n, p in zip(path[1:], movers):
                n.visits += 1
                n.reward += returns[p]
        children = sorted(((a, n.visits, n.reward / n.visits if n.visits else 0.0)
                           for a, n in root.children.items()))
        action = max(children, key=lambda t: (t[1], t[2], -t[0]))[0]
        self.last_search = {"action": action, "children": children, "worlds": len(worlds)}
        return self.last_search

    def step_with_policy(self, state):
        refuse_terminal(state)
        legal = state.legal_actions(self._player)
        if not legal:          # a seat with no plan in this simultaneous round
            return [], pyspiel.INVALID_ACTION
        if len(legal) == 1:
            self.last_search = None
            return [(legal[0], 1.0)], legal[0]
        result = self.search(state)
        visits = {a: v for a, v, _ in result["children"]}
        total = sum(visits.values()) or 1
        return [(a, visits.get(a, 0) / total) for a in legal], result["action"]

    def step(self, state):
        return self.step_with_policy(state)[1]

    def get_policy(self, state):
        return self.step_with_policy(state)[0]

    def provides_policy(self):
        return True

    def restart_at(self, state):
        self.last_search = None

    def inform_action(self, state, player_id, action):
        pass

    def inform_actions(self, state, actions):
        pass

    def is_clonable(self):
        return False

    def provides_force_action(self):
        return False

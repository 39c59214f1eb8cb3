"""Single-observer information-set MCTS (SO-ISMCTS, Cowling, Powley and Whitehouse
2012) for hidden-information games, as a ``pyspiel.Bot``.

Why our own: OpenSpiel's ``ISMCTSBot`` cannot run Python-registered games
(docs/DESIGN.md), and our UCT (``mcts.uct``) searches the whole state, which
would read hidden pieces; it refuses such games.

How it stays honest: everything the search uses is a function of what its
player knows.
1. **Worlds** (``mcts.worlds``). From the player's own history (its information
   states at each of its decisions and the action it took there, which perfect
   recall makes part of its present information state) it gets the histories it
   cannot tell from the true one, the worlds. ``worlds=`` chooses how:
   ``exact`` lists them all (the exact belief with the others playing every
   action alike, weighted by chance; refused past ``max_worlds``); ``sample``
   draws one per iteration by a randomised walk with backtracking, never listing
   them (a slightly different distribution over the same worlds, stated in
   ``mcts.worlds``); ``auto`` (the default) lists them while they are at most
   ``max_worlds`` and samples above; ``first`` is the one-world baseline below.
   ``belief=`` weighs listed worlds: ``histories`` (default) every consistent
   history alike, ``random`` as if the others played uniformly at random, the
   model the playouts use (``mcts.worlds.BELIEFS``; KBeauty9 is where they part,
   docs/studies/economic_dilemmas.md, "KBeauty9: the belief is an opponent
   model"). Sampled worlds follow the sampler's own distribution. Neither way
   reads the true history: two indistinguishable histories give the same worlds,
   and the same draws for the same seed.
2. **Search.** Each iteration samples one world (a determinisation) and runs
   UCT on a tree of action sequences shared by all worlds; a child's UCB uses
   its *availability* count (how often its action was legal when its parent
   was visited) instead of the parent's visits, because actions are not legal
   in every world. Chance moves are sampled, not stored. Leaves are evaluated
   by one uniform random playout, in the Cython kernel for this toolkit's games.
   ``tree="infosets"`` keys each mover's statistics by its own information state
   in the world instead of the action sequence, so an opponent in the tree cannot
   act on the searcher's hidden moves (SO-ISMCTS lets it, since the sequence names
   them); measured no stronger on the cloaked examples
   (docs/studies/economic_dilemmas.md, "The ISMCTS check"), so not
   the default.
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

``worlds="first"`` is the baseline of the economic-dilemmas study's ISMCTS
check (docs/studies/economic_dilemmas.md, "The ISMCTS check"): the one-world
(single fixed determinisation) baseline, not a determinisation-free one: the
same search on one fixed world, the first history of the canonical walk that is
consistent with what the player knows (for a cloaked game: the others' lowest
moves where it could not see them; found by the walk, never by listing). It
ignores that the hidden state could be otherwise, which is what sampling worlds
is for; the study checks that ISMCTS beats it.
"""

from __future__ import annotations

import math

import numpy as np
import pyspiel

from games.openspiel import is_core_state, refuse_terminal
from mcts.worlds import (
    BELIEFS,
    TooManyWorlds,
    WorldSampler,
    consistent_worlds,
    enumerate_worlds,
    first_world,
    knowledge_of,
    turn_based_state,
)

__all__ = ["ISMCTSBot", "consistent_worlds", "TooManyWorlds", "WORLD_MODES", "turn_based_state"]

#: how the worlds are got (module docstring): ``auto`` lists them up to ``max_worlds``
#: and samples above, ``exact`` only lists, ``sample`` only samples, ``first`` is
#: the one-world baseline.
WORLD_MODES = ("auto", "exact", "sample", "first")
#: what a node of the search is (module docstring, "Search"): ``actions`` the sequence of
#: actions from the root (SO-ISMCTS), ``infosets`` the mover's information state.
TREE_MODES = ("actions", "infosets")


class _Node:
    __slots__ = ("children", "visits", "reward", "avail")

    def __init__(self):
        self.children = {}
        self.visits = 0
        self.reward = 0.0  # summed returns of the player who moved into this node
        self.avail = 0


class ISMCTSBot(pyspiel.Bot):
    """SO-ISMCTS for ``player``; ``max_simulations`` iterations per move."""

    def __init__(
        self,
        game,
        player: int,
        *,
        seed: int = 0,
        uct_c: float = 1.4,
        max_simulations: int = 1000,
        max_worlds: int = 1_000,
        worlds: str = "auto",
        tree: str = "actions",
        belief: str = "histories",
    ):
        pyspiel.Bot.__init__(self)
        if isinstance(game, str):
            game = pyspiel.load_game(game)
        self._turn_based = None
        if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
            self._turn_based = pyspiel.convert_to_turn_based(game)
        if worlds not in WORLD_MODES:
            raise ValueError(f"worlds must be one of {', '.join(WORLD_MODES)}, got {worlds!r}")
        self._mode = worlds
        if tree not in TREE_MODES:
            raise ValueError(f"tree must be one of {', '.join(TREE_MODES)}, got {tree!r}")
        self._tree = tree
        if belief not in BELIEFS:
            raise ValueError(f"belief must be one of {', '.join(BELIEFS)}, got {belief!r}")
        self._belief = belief  # how listed worlds are weighted (mcts.worlds.BELIEFS)
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
        draw, count, mode = self._worlds(state)
        rng, c, root = self._rng, self._c, _Node()
        infosets = {} if self._tree == "infosets" else None
        for _ in range(self._sims):
            world = draw(rng)
            node, path, movers = root, [root], []
            expanded = False
            while not world.terminal():
                p = world.player()
                if p == -1:
                    acts, probs = zip(*world.chance_outcome_list(), strict=True)
                    world.apply_action(acts[rng.choice(len(acts), p=np.array(probs) / sum(probs))])
                    continue
                legal = world.legal_action_list()
                if expanded:
                    break
                if infosets is not None:  # the mover's statistics at its own information state
                    node = infosets.setdefault((p, world.information_state_string(p)), _Node())
                    if len(path) == 1:
                        root = path[0] = node
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
                world.random_playout(int(rng.integers(2**63)))
            returns = world.returns_list()
            root.visits += 1
            for n, p in zip(path[1:], movers, strict=True):
                n.visits += 1
                n.reward += returns[p]
        children = sorted(
            ((a, n.visits, n.reward / n.visits if n.visits else 0.0) for a, n in root.children.items())
        )
        action = max(children, key=lambda t: (t[1], t[2], -t[0]))[0]
        self.last_search = {"action": action, "children": children, "worlds": count(), "world_mode": mode}
        return self.last_search

    def _worlds(self, state):
        """(draw(rng) -> a fresh world, count() -> worlds used, mode used): from the
        player's knowledge only (``mcts.worlds``)."""
        game = state.get_game()
        knowledge = knowledge_of(state, self._player)
        mode = self._mode
        if mode == "first":
            world = first_world(game, knowledge)
            return (lambda rng: world.clone()), (lambda: 1), "first"
        if mode in ("auto", "exact"):
            try:
                listed = enumerate_worlds(game, knowledge, self._max_worlds, belief=self._belief)
            except TooManyWorlds:
                if mode == "exact":
                    raise
            else:
                weights = np.array([w for _, w in listed])
                weights /= weights.sum()
                return (
                    (lambda rng: listed[rng.choice(len(listed), p=weights)][0].clone()),
                    (lambda: len(listed)),
                    "exact",
                )
        sampler, drawn = WorldSampler(game, knowledge), [0]

        def draw(rng):
            drawn[0] += 1
            return sampler.sample(rng)

        return draw, (lambda: drawn[0]), "sample"

    def step_with_policy(self, state):
        refuse_terminal(state)
        legal = state.legal_actions(self._player)
        if not legal:  # a seat with no plan in this simultaneous round
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

"""Simultaneous-move MCTS with decoupled UCT (SM-MCTS / DUCT; Lanctot, Lisy and
Winands 2013, "Monte Carlo Tree Search in Simultaneous Move Games with
Applications to Goofspiel"; Lisy et al. 2013, "Convergence of Monte Carlo Tree
Search in Simultaneous Move Games"), as a ``pyspiel.Bot``.

Why: this toolkit's UCT searches the whole position and so refuses games with
simultaneous rounds (in a round it would act on the others' plans), and ISMCTS
plays a round as the seats' decisions one after another through worlds drawn
from its information, which costs a world per iteration. Where a round's game
holds no hidden information besides the round's own plans (a tic-tac-toe rule
set with simultaneous or single phases and no cloaking, OpenSpiel's matrix
games) the position at the round's start is common knowledge, and the round is
a matrix game inside a tree: SM-MCTS searches exactly that.

How (decoupled UCT). A node is a position; at a round every deciding seat keeps
its *own* statistics (visits and summed reward per own action) and chooses its
action by UCB1 over them alone, never looking at the others' choices; the joint
action picks the child. Sequential decisions are the one-seat case, chance
moves are sampled. A leaf is valued by one uniformly random playout (in the
Cython kernel for this toolkit's games). Rewards are the returns scaled to
[0, 1] by the game's utility range, so one exploration constant serves every
game.

The decision: at a round the bot's action is drawn from its root visit
frequencies (DUCT's mixed final strategy; a deterministic choice would be
exploitable in a game like matching pennies), at a sequential decision the
most visited action. Soundness, as far as it goes: DUCT's frequencies approach
the equilibrium of matching pennies and rock-paper-scissors (tests/
test_smmcts.py measures it), but Lisy et al. (2013) give games where DUCT does
not converge to a Nash equilibrium; regret-matching selection would.

What it never reads: the root is the position at the round's start, which
holds no plan of the current round (OpenSpiel's simultaneous states apply a
round's joint action at once, and the web app keeps the plans sent first
apart until the round resolves: webapp/live.py); inside the search every seat
chooses from its own statistics. Games with other hidden information (cloaked
spaces, hidden turns, Kuhn poker) are refused: there the root is not common
knowledge, and ISMCTS (mcts/ismcts.py) is the bot to use.
"""

from __future__ import annotations

import math

import numpy as np
import pyspiel

from games.openspiel import core_of, is_core_state, refuse_terminal

FINAL_MODES = ("auto", "mix", "max")
#: how a seat chooses at a node from its own statistics: ``duct`` UCB1 (decoupled
#: UCT), ``rm`` regret matching with exploration (Lisy et al. 2013; its mean
#: strategy converges to an equilibrium of a matrix game, DUCT's need not).
SELECTIONS = ("duct", "rm")


def round_information_only(game) -> str | None:
    """None if the only hidden information of ``game`` is a simultaneous round's
    own plans, else the reason it has more (an SM-MCTS search from the true
    position would then read what the searcher cannot see)."""
    kind = game.get_type()
    if kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION:
        return None
    state = game.new_initial_state()
    if is_core_state(state):
        core = core_of(state)
        cloaking = getattr(core, "cloaking", None)
        if cloaking is None:
            return f"{kind.short_name} has hidden information"
        if cloaking != "none":
            return f"cloaking {cloaking!r}: pieces are hidden, not only a round's plans"
        return None
    if isinstance(game, pyspiel.NormalFormGame):
        return None  # one round (a matrix game), nothing else to hide
    return f"{kind.short_name} has hidden information besides a round's plans"


class _Node:
    __slots__ = ("children", "stats", "visits")

    def __init__(self):
        self.children = {}  # joint action (one entry per deciding seat) -> _Node
        self.stats = {}  # seat -> {action: [visits, summed reward]}
        self.visits = 0


class _CoreWorld:
    """A clone of this toolkit's core: rounds through ``simultaneous_player_list``."""

    def __init__(self, core):
        self.w = core.clone()

    def decision(self):
        """(seats deciding, their legal actions), or (None, chance) at chance, () at the end."""
        w = self.w
        if w.terminal():
            return ()
        seats = w.simultaneous_player_list()
        if seats:
            return seats, [w.player_legal_action_list(p) for p in seats]
        p = w.player()
        if p == pyspiel.PlayerId.CHANCE:
            return None, w.chance_outcome_list()
        return [p], [w.legal_action_list()]

    def apply(self, seats, actions, n):
        if len(seats) == 1 and not self.w.simultaneous_player_list():
            self.w.apply_action(actions[0])
        else:
            joint = [-1] * n
            for p, a in zip(seats, actions, strict=True):
                joint[p] = a
            self.w.apply_joint_action(joint)

    def chance(self, action):
        self.w.apply_action(action)

    def playout(self, rng):
        self.w.random_playout(int(rng.integers(2**63)))
        return self.w.returns_list()


class _SpielWorld:
    """A clone of an OpenSpiel state (matrix games and other Python-free games)."""

    def __init__(self, state):
        self.s = state.clone()

    def decision(self):
        s = self.s
        if s.is_terminal():
            return ()
        if s.is_chance_node():
            return None, s.chance_outcomes()
        if s.is_simultaneous_node():
            seats = [p for p in range(s.num_players()) if s.legal_actions(p)]
            return seats, [s.legal_actions(p) for p in seats]
        p = s.current_player()
        return [p], [s.legal_actions(p)]

    def apply(self, seats, actions, n):
        if self.s.is_simultaneous_node():
            joint = [0] * n
            for p, a in zip(seats, actions, strict=True):
                joint[p] = a
            self.s.apply_actions(joint)
        else:
            self.s.apply_action(actions[0])

    def chance(self, action):
        self.s.apply_action(action)

    def playout(self, rng):
        while not self.decision() == ():
            seats, options = self.decision()
            if seats is None:
                acts, probs = zip(*options, strict=True)
                self.chance(acts[rng.choice(len(acts), p=np.array(probs) / sum(probs))])
            else:
                self.apply(seats, [o[rng.integers(len(o))] for o in options], self.s.num_players())
        return self.s.returns()


class SMMCTSBot(pyspiel.Bot):
    """Decoupled-UCT SM-MCTS for ``player``: ``max_simulations`` iterations per
    decision (module docstring)."""

    def __init__(
        self,
        game,
        player: int,
        *,
        seed: int = 0,
        uct_c: float = 1.4,
        max_simulations: int = 1000,
        final: str = "auto",
        selection: str = "duct",
        gamma: float = 0.1,
    ):
        pyspiel.Bot.__init__(self)
        if isinstance(game, str):
            game = pyspiel.load_game(game)
        reason = round_information_only(game)
        if reason is not None:
            raise ValueError(
                f"sm-mcts searches from the true position, which must be common "
                f"knowledge: {reason}; use an ismcts bot (mcts/ismcts.py)"
            )
        if not 0 <= player < game.num_players():
            raise ValueError(f"player must be in 0..{game.num_players() - 1}, got {player}")
        if not (isinstance(uct_c, (int, float)) and math.isfinite(uct_c) and uct_c >= 0):
            raise ValueError(f"uct_c must be a finite number >= 0, got {uct_c!r}")
        if not (isinstance(max_simulations, int) and max_simulations >= 1):
            raise ValueError(f"max_simulations must be an integer >= 1, got {max_simulations!r}")
        if final not in FINAL_MODES:
            raise ValueError(f"final must be one of {', '.join(FINAL_MODES)}, got {final!r}")
        if selection not in SELECTIONS:
            raise ValueError(f"selection must be one of {', '.join(SELECTIONS)}, got {selection!r}")
        if not (isinstance(gamma, (int, float)) and 0 < gamma <= 1):
            raise ValueError(f"gamma must be in (0, 1], got {gamma!r}")
        self._rm, self._gamma = selection == "rm", float(gamma)
        self._game, self._player, self._c = game, player, float(uct_c)
        self._sims, self._final = max_simulations, final
        lo, hi = game.min_utility(), game.max_utility()
        self._lo, self._span = lo, (hi - lo) if hi > lo else 1.0
        self._rng = np.random.default_rng(seed)
        self.last_search = None

    @property
    def player(self) -> int:
        return self._player

    def _world(self, state):
        return _CoreWorld(state.core) if is_core_state(state) else _SpielWorld(state)

    def _choose(self, node, p, legal):
        """Seat ``p``'s action at ``node`` from its own statistics only (UCB1, or
        regret matching)."""
        if self._rm:
            return self._choose_rm(node, p, legal)
        stats = node.stats.setdefault(p, {})
        untried = [a for a in legal if a not in stats]
        if untried:
            a = untried[self._rng.integers(len(untried))]
            stats[a] = [0, 0.0]
            return a
        log_n = math.log(max(node.visits, 1))
        best, choice = -math.inf, legal[0]
        for a in legal:
            n, total = stats[a]
            score = (total / n if n else 0.0) + self._c * math.sqrt(log_n / max(n, 1))
            if score > best:
                best, choice = score, a
        return choice

    def _choose_rm(self, node, p, legal):
        """Regret matching with exploration ``gamma``: the strategy is the
        positive regrets normalised (uniform when none), mixed with uniform;
        stats[a] = [visits, summed reward, regret, strategy sum, last probability]."""
        stats = node.stats.setdefault(p, {})
        for entry in stats.values():
            entry[4] = 0.0  # not legal at this visit unless set below
        for a in legal:
            if a not in stats:
                stats[a] = [0, 0.0, 0.0, 0.0, 0.0]
        pos = [max(stats[a][2], 0.0) for a in legal]
        total = sum(pos)
        k, g = len(legal), self._gamma
        sigma = [(1 - g) * (x / total if total > 0 else 1 / k) + g / k for x in pos]
        for a, q in zip(legal, sigma, strict=True):
            stats[a][3] += q
            stats[a][4] = q
        return legal[self._rng.choice(k, p=np.array(sigma) / sum(sigma))]

    def _update_rm(self, node, p, chosen, reward):
        """Regrets from one sampled reward, importance-weighted by the chosen
        action's probability (the estimate of every other action's is 0)."""
        stats = node.stats[p]
        estimate = reward / stats[chosen][4]
        for a, entry in stats.items():
            if entry[4] > 0:  # legal at this visit
                entry[2] += (estimate if a == chosen else 0.0) - reward

    def search(self, state):
        """Run the search; returns {'action', 'seats', 'children': [(action, visits, mean)]}:
        the bot's root statistics (mean reward scaled to [0, 1])."""
        refuse_terminal(state)
        n = self._game.num_players()
        root_world = self._world(state)
        seats, _ = root_world.decision()
        if seats is None or self._player not in seats:
            raise ValueError(f"player {self._player} does not decide here")
        rng, root = self._rng, _Node()
        for _ in range(self._sims):
            world = self._world(state)
            node, path = root, []
            expanded = False
            while True:
                d = world.decision()
                if d == ():
                    break
                movers, options = d
                if movers is None:
                    acts, probs = zip(*options, strict=True)
                    world.chance(acts[rng.choice(len(acts), p=np.array(probs) / sum(probs))])
                    continue  # chance is sampled, not stored (a node is a decision)
                if expanded:
                    break
                joint = tuple(self._choose(node, p, legal) for p, legal in zip(movers, options, strict=True))
                path.append((node, movers, joint))
                world.apply(movers, joint, n)
                child = node.children.get(joint)
                if child is None:
                    child = node.children[joint] = _Node()
                    expanded = True
                node = child
            returns = (
                world.playout(rng)
                if d != ()
                else (world.w.returns_list() if isinstance(world, _CoreWorld) else world.s.returns())
            )
            scaled = [(r - self._lo) / self._span for r in returns]
            for nd, movers, joint in path:
                nd.visits += 1
                for p, a in zip(movers, joint, strict=True):
                    entry = nd.stats[p][a]
                    entry[0] += 1
                    entry[1] += scaled[p]
                    if self._rm:
                        self._update_rm(nd, p, a, scaled[p])
        mine = root.stats.get(self._player, {})
        children = sorted((a, v, t / v if v else 0.0) for a, (v, t, *_) in mine.items())
        if self._rm:  # the mean strategy is what converges: it is the policy
            children = sorted((a, e[3], e[1] / e[0] if e[0] else 0.0) for a, e in mine.items())
        final = self._final
        if final == "auto":
            final = "mix" if len(seats) > 1 else "max"
        if final == "max":
            action = max(children, key=lambda t: (t[1], t[2], -t[0]))[0]
        else:
            visits = np.array([v for _, v, _ in children], dtype=float)
            action = children[rng.choice(len(children), p=visits / visits.sum())][0]
        self.last_search = {"action": action, "seats": list(seats), "children": children, "final": final}
        return self.last_search

    def step(self, state):
        return self.search(state)["action"]

    def step_with_policy(self, state):
        action = self.search(state)["action"]
        total = sum(v for _, v, _ in self.last_search["children"])
        return [(a, v / total) for a, v, _ in self.last_search["children"]], action

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass

"""The worlds (histories) a player cannot tell from the true one, for ISMCTS.

Why a module of its own: both ways of getting worlds start from the same
input, what the player knows (``Knowledge``), and must never read anything
else; keeping them apart from the search makes that easy to check.

``Knowledge`` is the player's own history under perfect recall: its
information-state string at each of its past decisions with the action it took
there, and its present information-state string. Nothing else of the true
state reaches the functions below (``knowledge_of`` computes it; two histories
the player cannot tell apart give equal ``Knowledge``).

Two ways to get worlds from it:

1. ``consistent_worlds`` **enumerates** every history that reaches the
   present information state: walk the game from its start, every move of the
   others and every chance outcome, but at the player's own decisions only the
   action it took and only while its information state is the one it had. Each
   world is weighted by its chance probability; every action of another player
   weighs 1 (the search has no model of the others). This is the exact belief
   under that model, ``b(h) ∝ Π chance probabilities along h``, over the set
   ``H`` of consistent histories. It stops past ``max_worlds`` worlds or
   ``max_nodes`` walked nodes (``TooManyWorlds``).
2. ``WorldSampler`` **samples** one world at a time without listing ``H``: a
   randomised depth-first walk from the start. At a node of another player it
   tries the legal actions in a uniformly random order; at a chance node it
   draws outcomes by their probabilities without replacement; it keeps the
   first child that stays consistent and backtracks from dead ends (a terminal,
   or an own decision whose information state differs from the one the player
   had). The first complete history is the sample. Its distribution is
   ``q(h) = Π_chance p(a) / p(V(n)) · Π_others 1 / |V(n)|`` over the nodes
   ``n`` on ``h``, where ``V(n)`` is the set of ``n``'s children from which some
   consistent history is reachable. So ``q = b`` exactly when, along every
   consistent history, the number of viable children of the others' nodes and
   the viable chance mass do not depend on the branch (3Blotto13: every hidden
   placement stays viable). Otherwise ``q`` over-weights histories that pass
   through nodes with few viable children (relative to ``b``'s count of
   histories), though every world of ``H`` keeps a positive probability and no
   other world is ever drawn (KBeauty9 with hidden turns: place and pass are
   both viable at every hidden step, so a hidden height k is drawn with
   probability 2^-(k+1) (2^-9 for nine) against ``b``'s 1/10; ISMCTS lists its at most 1,000
   worlds there instead).

Pruning, both ways: at an own decision the whole information state must match.
For this toolkit's cloaked rule sets the information state also logs every event
as the player saw it (``TTTCore.event_line``, append-only), so a child whose
new event lines differ from the present information state's lines at the same
places is cut at once instead of at the player's next decision; this cuts no
consistent history (a consistent history's log is a prefix of the present one)
and keeps sampling linear in the game's length there. Under hidden turns
(``cloaking_hides_turns``, KBeauty9) the lines compared are the player's own
(``TTTCore.shown_event_lines``): another seat's hidden turn adds none, so worlds
of different lengths share an information state. Other games are checked at
the player's decisions only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyspiel

from games.openspiel import core_of, is_core_state

__all__ = [
    "Knowledge",
    "knowledge_of",
    "consistent_worlds",
    "first_world",
    "WorldSampler",
    "TooManyWorlds",
    "turn_based_state",
    "BELIEFS",
]


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
                acts, probs = zip(*s.chance_outcomes(), strict=True)
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
        raise ValueError(
            "a simultaneous round of a game without a core: search its "
            "pyspiel.convert_to_turn_based form (turn_based_state)"
        )
    if not state.legal_actions(player):
        raise ValueError(
            f"worlds are enumerated at the player's own decisions; player "
            f"{player} has nothing to plan in this round"
        )
    world = _world(state.get_game().new_initial_state())
    history = []
    for item in state.full_history():
        if item.action == pyspiel.INVALID_ACTION:
            continue
        if world.player() not in (-1, item.player):
            raise ValueError(
                f"cannot replay player {item.player}'s action {item.action} into the "
                f"core (it has player {world.player()} to decide)"
            )
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
        raise ValueError(
            f"cannot replay player {item.player}'s action {item.action} into the turn-based "
            f"game (player {out.current_player()} is to move there)"
        )
    if not state.legal_actions(player):
        raise ValueError(f"player {player} has nothing to plan in this round")
    while out.current_player() != player:
        if out.is_terminal() or out.is_chance_node():
            raise ValueError("the turn-based replay left the round before reaching the player")
        out.apply_action(out.legal_actions()[0])
    return out


@dataclass(frozen=True)
class Knowledge:
    """What ``player`` knows at its decision: ``mine`` is ((information state, action), ...)
    at each of its past decisions, oldest first; ``present`` its information state now."""

    player: int
    mine: tuple
    present: str

    def event_lines(self):
        """The present information state's event log, one line per event, or None when
        the game's information state has no such log (module docstring)."""
        header = f"information state of player {self.player}"
        lines = self.present.split("\n")
        if lines[0] != header:
            return None
        out = []
        for line in lines[1:]:
            if not line.startswith(f"{len(out) + 1}. "):
                break
            out.append(line)
        return tuple(out)


def knowledge_of(state, player: int) -> Knowledge:
    """``player``'s ``Knowledge`` at ``state`` (its own decision, or its plan in a
    simultaneous round): computed from the true history, holding only what it saw."""
    if (
        state.is_terminal()
        or state.is_chance_node()
        or (not state.is_simultaneous_node() and state.current_player() != player)
    ):
        raise ValueError(
            f"worlds are enumerated at the player's own decisions; player {player} is not to move"
        )
    mine, present = _own_history(state, player)
    return Knowledge(player, tuple(mine), present)


class _Checker:
    """The consistency tests of both walks, built from ``Knowledge`` alone."""

    def __init__(self, knowledge: Knowledge, root):
        self.k = knowledge
        # the log is read through the core's own methods; other worlds are checked
        # at the player's decisions only
        self.events = knowledge.event_lines() if hasattr(root, "event_line") else None
        self.views = self._views() if self.events is not None else None

    def _views(self):
        """Per own decision (the present last): (events logged, observation string). The
        information state is the header, the event lines and the observation, so with the
        events checked on the way only these two need comparing (about 3x cheaper than
        the whole string); None (compare whole strings) if any string is not of that form."""
        header = f"information state of player {self.k.player}"
        out = []
        for info in [i for i, _ in self.k.mine] + [self.k.present]:
            lines = info.split("\n")
            n = 0
            while 1 + n < len(lines) and lines[1 + n].startswith(f"{n + 1}. "):
                n += 1
            if lines[0] != header or tuple(lines[1 : 1 + n]) != self.events[:n]:
                return None
            out.append((n, "\n".join(lines[1 + n :])))
        return out

    def events_ok(self, world, before: int) -> bool:
        """The events ``world`` logged since it had ``before`` of them read as the present
        information state's at the same places (always true without an event log)."""
        if self.events is None:
            return True
        p = self.k.player
        after = world.shown_event_count(p)
        if after > len(self.events):
            return False
        if after == before:
            return True
        return tuple(world.shown_event_lines(p, before)) == self.events[before:after]

    def log_count(self, world) -> int:
        """The number of event lines the player has in ``world`` (with hidden turns,
        fewer than the log's events: ``TTTCore.shown_events``)."""
        return world.shown_event_count(self.k.player) if self.events is not None else 0

    def own(self, world, k: int):
        """At an own decision with ``k`` past decisions replayed: "done" (the present
        information state), "dead", or the action the player took there."""
        mine = self.k.mine
        if self.views is not None:  # events already match the present's up to here
            n, view = self.views[k]
            same = self.log_count(world) == n and world.observation_string(self.k.player) == view
        else:
            info = world.information_state_string(self.k.player)
            same = info == (self.k.present if k == len(mine) else mine[k][0])
        if k == len(mine):
            return "done" if same else "dead"
        return mine[k][1] if same else "dead"


def _root(game):
    return _world(game.new_initial_state())


def consistent_worlds(state, player, max_worlds: int = 100_000, max_nodes: int | None = None):
    """The histories ``player`` cannot tell from ``state``'s, as (world, weight)."""
    return enumerate_worlds(state.get_game(), knowledge_of(state, player), max_worlds, max_nodes)


#: how ``enumerate_worlds`` weighs another player's action (kbeauty): ``histories``
#: 1 (every consistent history alike, the module docstring's belief), ``random`` one
#: over its number of legal actions (the others play uniformly at random, as the
#: search's playouts assume). They differ where the others' branching differs between
#: histories: KBeauty9's hidden heights are 1/10 each under ``histories``, 2^-(k+1)
#: under ``random`` (a coin flip between placing and passing at each step).
BELIEFS = ("histories", "random")


def enumerate_worlds(
    game,
    knowledge: Knowledge,
    max_worlds: int = 100_000,
    max_nodes: int | None = None,
    first_only: bool = False,
    belief: str = "histories",
):
    """Every world of ``knowledge`` in the canonical order (the others' and chance's
    actions lowest first), as (world, weight); module docstring, way 1. ``belief``
    weighs the others' actions (``BELIEFS``)."""
    if belief not in BELIEFS:
        raise ValueError(f"belief must be one of {', '.join(BELIEFS)}, got {belief!r}")
    root = _root(game)
    check = _Checker(knowledge, root)
    player = knowledge.player
    if max_nodes is None:
        max_nodes = 50 * max_worlds
    out, nodes = [], 0
    stack = [(root, 0, 1.0)]
    while stack:
        w, k, weight = stack.pop()
        p = w.player()
        if p == player:
            step = check.own(w, k)
            if step == "done":
                out.append((w, weight))
                if first_only:
                    return out
                if len(out) > max_worlds:
                    raise TooManyWorlds(
                        f"more than {max_worlds:,} histories are consistent "
                        "with the information state; raise max_worlds"
                    )
            elif step != "dead":
                before = check.log_count(w)
                w.apply_action(step)
                if check.events_ok(w, before):
                    stack.append((w, k + 1, weight))
            continue
        if w.terminal():
            continue
        if p == -1:
            moves = w.chance_outcome_list()
        else:
            legal = w.legal_action_list()
            each = 1.0 if belief == "histories" else 1.0 / len(legal)  # no model / uniform others
            moves = [(a, each) for a in legal]
        before = check.log_count(w)
        for a, prob in reversed(moves):
            nodes += 1
            if nodes > max_nodes:
                raise TooManyWorlds(
                    f"the walk over the consistent histories passed {max_nodes:,} "
                    "nodes; raise max_worlds or sample the worlds"
                )
            child = w.clone()
            child.apply_action(a)
            if check.events_ok(child, before):
                stack.append((child, k, weight * prob))
    if not out:
        raise RuntimeError(
            "no history is consistent with the information state (the game's views are not perfect-recall?)"
        )
    return out


def first_world(game, knowledge: Knowledge, max_nodes: int = 1_000_000):
    """The first world of the canonical walk (the one-world baseline's guess)."""
    return enumerate_worlds(game, knowledge, max_worlds=1, max_nodes=max_nodes, first_only=True)[0][0]


class WorldSampler:
    """Draws worlds of ``knowledge`` one at a time (module docstring, way 2): its only
    inputs are the game's rules, ``knowledge`` and the random generator it is given."""

    def __init__(self, game, knowledge: Knowledge, max_nodes: int = 200_000):
        self.game = game
        self.k = knowledge
        self.check = _Checker(knowledge, _root(game))
        self.max_nodes = max_nodes
        self.nodes = 0  # nodes tried by the last draw (dead ends included)

    def _advance(self, w, k):
        """Play the player's own recorded actions from ``w``; (world, k, status) with
        status "done", "dead" or "open" (another player or chance to move)."""
        player, check = self.k.player, self.check
        while True:
            p = w.player()
            if p != player:
                return w, k, ("dead" if w.terminal() else "open")
            step = check.own(w, k)
            if step in ("done", "dead"):
                return w, k, step
            before = check.log_count(w)
            w.apply_action(step)
            k += 1
            if not check.events_ok(w, before):
                return w, k, "dead"

    def sample(self, rng):
        """One world (a core, or a ``_SpielWorld``) consistent with the knowledge."""
        check = self.check
        self.nodes = 0
        w, k, status = self._advance(_root(self.game), 0)
        if status == "done":
            return w
        if status == "dead":
            raise RuntimeError("no history is consistent with the information state")
        frames = [self._frame(w, k)]
        while frames:
            w, k, acts, probs = frames[-1]
            if not acts:
                frames.pop()
                continue
            if probs is None:
                i = int(rng.integers(len(acts)))
            else:
                i = int(rng.choice(len(acts), p=np.asarray(probs) / sum(probs)))
                probs.pop(i)
            a = acts.pop(i)
            self.nodes += 1
            if self.nodes > self.max_nodes:
                raise TooManyWorlds(f"sampling a world tried more than {self.max_nodes:,} nodes")
            child = w.clone()
            before = check.log_count(child)
            child.apply_action(a)
            if not check.events_ok(child, before):
                continue
            child, ck, status = self._advance(child, k)
            if status == "done":
                return child
            if status == "open":
                frames.append(self._frame(child, ck))
        raise RuntimeError(
            "no history is consistent with the information state (the game's views are not perfect-recall?)"
        )

    @staticmethod
    def _frame(w, k):
        if w.player() == -1:
            acts, probs = zip(*w.chance_outcome_list(), strict=True)
            return w, k, list(acts), list(probs)
        return w, k, list(w.legal_action_list()), None

"""Name the textbook game a payoff table (or a small game tree) has the
structure of, from the order of its payoffs.

Why: a dilemma rule set (games/ttt/dilemmas.py) claims to encode, say, a
Prisoner's Dilemma; whether it does is a property of its computed payoff
table, not of its name. The economic-dilemmas study compares this verdict
with ``Dilemma.encodes``. Only the order of payoffs matters (the textbook
definitions are ordinal), so a table scaled or shifted (the same way for
every player) gets the same name; each player's strategies are relabelled
freely (a "cooperate" strategy is found, not assumed to be listed first).

Definitions used (two players, two strategies, symmetric after relabelling;
R reward for mutual cooperation, S sucker, T temptation, P punishment):
- prisoners-dilemma: T > R > P > S (defection strictly dominant, mutual
  cooperation better for both than mutual defection);
- stag-hunt: R > T >= P > S (two pure equilibria, the cooperative one
  payoff-dominant, the other safe);
- chicken: T > R > S > P (anti-coordination, the pure equilibria are the
  two asymmetric profiles);
- battle-of-the-sexes: exactly two pure equilibria, the players rank them
  oppositely, and every other profile is worse for both players than either
  equilibrium (coordination with conflict; need not be symmetric);
- coordination: at least two pure equilibria and the players' payoffs are
  identical in every profile (pure common interest);
- matching-pennies: two-player zero-sum (constant-sum), two strategies each,
  no pure equilibrium;
- rock-paper-scissors: two-player symmetric zero-sum, three strategies, each
  beats exactly one other and loses to exactly one (a cycle), ties on the
  diagonal;
- zero-sum-cycle: a larger symmetric zero-sum game without a pure equilibrium
  (Colonel Blotto's and hide-and-seek's family, not identifiable by name from
  the table alone).
n players (n >= 3), two strategies each, payoffs symmetric (a player's payoff
depends on its own strategy and how many others play each):
- public-goods: the n-player prisoner's dilemma: not contributing strictly
  dominates, and everyone contributing beats everyone not contributing for
  every player;
- volunteers-dilemma: if at least one volunteers everyone gains a benefit
  and volunteers pay a cost: a bystander's payoff B when someone volunteers,
  a volunteer's payoff V, and everyone's payoff L when nobody does, with
  B > V > L; the pure equilibria are the profiles with exactly one volunteer.
Sequential (a perfect-information tree of ``solvers.normal_form.Decision``
nodes and payoff tuples, two players):
- dictator: only player 0 moves, once, choosing among splits of a constant
  total (at least two, player 1's share differing);
- ultimatum: player 0 chooses an offer, then player 1 accepts or rejects it;
  rejecting gives the same disagreement payoffs after every offer, accepting
  gives a split whose total exceeds the disagreement's; player 1 weakly
  prefers accepting every offer but at least one;
- trust: player 0 either keeps out (a terminal) or trusts; after trust player
  1 rewards or betrays: betraying gives player 1 more than rewarding and
  player 0 less than keeping out, rewarding gives player 0 more than keeping
  out, and rewarding's total exceeds keeping out's;
- centipede: players alternate along a line of at least two decisions, each
  either taking (a terminal) or passing; the total payoff grows along the
  line, and at every decision but the last the mover gets more by taking now
  than it would if the next mover took.
Anything else is "other" with a reason; classification never guesses.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from solvers.normal_form import Decision, NormalFormGame, pure_equilibria

__all__ = ["Classification", "classify", "classify_tree", "tree_from_openspiel",
           "REPRODUCES", "reproduces"]

TOL = 1e-9


@dataclass(frozen=True)
class Classification:
    label: str          # one of the names in this module's docstring, or "other"
    reason: str         # the ordinal facts that decided it


#: For each economic game of games/ttt/dilemmas.py, the labels whose structure
#: reproduces it. Hide-and-seek and trend setting are matching-pennies-like
#: (one side wants to match, the other to mismatch); Colonel Blotto, the
#: beauty contest, the common-pool resource and the trolley dilemma have no
#: ordinal-table definition here, so no label reproduces them (the verdict says
#: "not checkable" rather than "no").
REPRODUCES = {
    "rock-paper-scissors": {"rock-paper-scissors"},
    "hide-and-seek": {"matching-pennies", "zero-sum-cycle"},
    "trend-setting": {"matching-pennies", "zero-sum-cycle"},
    "public-goods": {"public-goods"},
    "trust": {"trust"},
    "stag-hunt": {"stag-hunt"},
    "coordination": {"coordination"},
    "prisoners-dilemma": {"prisoners-dilemma"},
    "ultimatum": {"ultimatum"},
    "volunteers-dilemma": {"volunteers-dilemma"},
    "battle-of-the-sexes": {"battle-of-the-sexes"},
    "centipede": {"centipede"},
    "dictator": {"dictator"},
}


#: The player counts for which this module's definitions of an economic game apply:
#: the two-player textbook games, the n-player public goods and volunteer's dilemma
#: (three or more; with two players public goods is the prisoner's dilemma), coordination
#: for any number. A three-player hide and seek or battle of the sexes has no definition here.
_PLAYERS = {"public-goods": range(3, 100), "volunteers-dilemma": range(3, 100), "coordination": range(2, 100)}


def reproduces(encodes: str, label: str, players: int = 2) -> str:
    """'yes', 'no', or 'not checkable' (no ordinal definition of ``encodes`` for this
    many players here)."""
    wanted = REPRODUCES.get(encodes)
    if wanted is None or players not in _PLAYERS.get(encodes, (2,)):
        return "not checkable"
    return "yes" if label in wanted else "no"


# --------------------------------------------------------------------------- one-shot games

def _constant_sum(g: NormalFormGame) -> bool:
    sums = g.payoffs.sum(axis=0)
    return bool(np.ptp(sums) <= TOL * max(1.0, float(np.abs(g.payoffs).max())))


def _symmetric2(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape[0] == a.shape[1] and bool(np.allclose(a, b.T, atol=TOL))


def _fmt(x: float) -> str:
    return f"{x:g}"


def classify(g: NormalFormGame) -> Classification:
    """The textbook name of a one-shot game's table (module docstring).

    A table that matches nothing is tried again after iterated removal of
    weakly dominated (and duplicate) strategies, which a rule set's encoding
    often adds (a move that is never better than another); the reason then
    says which strategies were removed."""
    found = _classify(g)
    if found.label not in ("other", "zero-sum-cycle"):
        return found
    reduced, kept = reduce_dominated(g)
    if reduced.shape == g.shape:
        return found
    again = _classify(reduced)
    if again.label in ("other", "zero-sum-cycle") and found.label == "zero-sum-cycle":
        return found
    removed = "; ".join(f"player {p}: {sorted(set(range(n)) - set(k))}"
                        for p, (n, k) in enumerate(zip(g.shape, kept)) if len(k) < n)
    return Classification(again.label, f"{again.reason} (after removing weakly dominated or duplicate "
                                       f"strategies {removed})")


def _classify(g: NormalFormGame) -> Classification:
    eqs = pure_equilibria(g)
    if g.num_players == 2:
        return _classify2(g, eqs)
    return _classify_n(g, eqs)


def reduce_dominated(g: NormalFormGame):
    """Iterated removal of strategies weakly dominated by another pure strategy
    (or equal to an earlier one); returns the reduced game and, per player, the
    original indices kept."""
    kept = [list(range(n)) for n in g.shape]
    arr = g.payoffs
    changed = True
    while changed:
        changed = False
        for p in range(g.num_players):
            if len(kept[p]) < 2:
                continue
            mine = np.moveaxis(arr[p], p, 0).reshape(len(kept[p]), -1)
            for i in range(len(kept[p])):
                others = [j for j in range(len(kept[p])) if j != i]
                if any(np.all(mine[j] >= mine[i] - TOL) and (np.any(mine[j] > mine[i] + TOL) or j < i)
                       for j in others):
                    arr = np.delete(arr, i, axis=p + 1)
                    del kept[p][i]
                    changed = True
                    break
    return NormalFormGame(arr), kept


def _classify2(g: NormalFormGame, eqs) -> Classification:
    a, b = g.payoffs[0], g.payoffs[1]
    rows, cols = a.shape
    if np.allclose(a, b, atol=TOL) and len(eqs) >= 2:
        return Classification("coordination", f"identical payoffs for both players, {len(eqs)} pure "
                                              "equilibria")
    if _constant_sum(g):
        if not eqs and (rows, cols) == (2, 2):
            return Classification("matching-pennies", "2x2 constant-sum without a pure equilibrium")
        if not eqs and _symmetric2(a, b) and rows == 3 and _is_cycle(a):
            return Classification("rock-paper-scissors", "symmetric zero-sum 3x3, each strategy beats "
                                                         "exactly one and loses to exactly one")
        if not eqs and _symmetric2(a, b):
            return Classification("zero-sum-cycle", f"symmetric constant-sum {rows}x{cols} without a "
                                                    "pure equilibrium")
        return Classification("other", f"constant-sum {rows}x{cols} with {len(eqs)} pure equilibria")
    if (rows, cols) == (2, 2):
        for perm0, perm1 in itertools.product(((0, 1), (1, 0)), repeat=2):
            pa = a[np.ix_(perm0, perm1)]
            pb = b[np.ix_(perm0, perm1)]
            if not _symmetric2(pa, pb):
                continue
            r, s, t, p = pa[0, 0], pa[0, 1], pa[1, 0], pa[1, 1]
            if r < p:                       # "cooperate" is the strategy whose mutual payoff is higher
                continue
            facts = f"R={_fmt(r)}, S={_fmt(s)}, T={_fmt(t)}, P={_fmt(p)}"
            if t > r > p > s:
                return Classification("prisoners-dilemma", f"symmetric, T > R > P > S ({facts}): "
                                                           "defection dominant")
            if r > t >= p > s:
                return Classification("stag-hunt", f"symmetric, R > T >= P > S ({facts})")
            if t > r > s > p:
                return Classification("chicken", f"symmetric, T > R > S > P ({facts})")
        if len(eqs) == 2:
            (e1, e2) = eqs
            u1, u2 = g.payoffs[(slice(None),) + e1], g.payoffs[(slice(None),) + e2]
            opposed = (u1[0] - u2[0]) * (u1[1] - u2[1]) < 0
            others = [pr for pr in g.profiles() if pr not in eqs]
            worse = all(g.payoffs[(p,) + pr] < min(u1[p], u2[p]) for pr in others for p in (0, 1))
            if opposed and worse:
                return Classification("battle-of-the-sexes",
                                      f"two pure equilibria {e1} {e2} ranked oppositely by the players; "
                                      "every other profile is worse for both")
    return Classification("other", f"{rows}x{cols}, {len(eqs)} pure equilibria, no textbook ordering")


def _is_cycle(a: np.ndarray) -> bool:
    k = a.shape[0]
    if not np.allclose(np.diag(a), 0, atol=TOL) and not np.allclose(np.diag(a), a[0, 0], atol=TOL):
        return False
    tie = a[0, 0]
    for i in range(k):
        beats = sum(1 for j in range(k) if j != i and a[i, j] > tie + TOL)
        loses = sum(1 for j in range(k) if j != i and a[i, j] < tie - TOL)
        if beats != 1 or loses != 1:
            return False
    return True


def _symmetric_counts(g: NormalFormGame):
    """For a symmetric binary n-player game: payoff[own][k] with k the number of
    *other* players choosing strategy 1, or None if the game is not of that
    form (for some relabelling of each player's two strategies that is the
    same for all players: the identity)."""
    n = g.num_players
    if any(s != 2 for s in g.shape):
        return None
    table = {}
    for prof in g.profiles():
        for p in range(n):
            own = prof[p]
            k = sum(prof) - own
            key = (own, k)
            v = float(g.payoffs[(p,) + prof])
            if key in table and abs(table[key] - v) > TOL:
                return None
            table[key] = v
    return [[table[(own, k)] for k in range(n)] for own in (0, 1)]


def _classify_n(g: NormalFormGame, eqs) -> Classification:
    n = g.num_players
    if all(np.allclose(g.payoffs[0], g.payoffs[p], atol=TOL) for p in range(n)) and len(eqs) >= 2:
        return Classification("coordination", f"identical payoffs for all {n} players, {len(eqs)} pure "
                                              "equilibria")
    u = _symmetric_counts(g)
    if u is None:
        return Classification("other", f"{n} players, strategies {list(g.shape)}: not a symmetric "
                                       "two-strategy game")
    for c in (0, 1):                       # c: "contribute" / "volunteer"
        d = 1 - c
        # number of others contributing when they play c: k if c == 1, else (n-1-k)
        def val(own, others_c):
            k = others_c if c == 1 else n - 1 - others_c
            return u[own][k]
        dominant = all(val(d, m) > val(c, m) + TOL for m in range(n))
        if dominant and val(c, n - 1) > val(d, 0) + TOL:
            return Classification("public-goods",
                                  f"{n}-player symmetric: not contributing strictly dominates, yet all "
                                  f"contributing ({_fmt(val(c, n - 1))} each) beats none "
                                  f"({_fmt(val(d, 0))} each)")
        bystander = {val(d, m) for m in range(1, n)}
        volunteer = {val(c, m) for m in range(n)}
        nobody = val(d, 0)
        if len(bystander) == 1 and len(volunteer) == 1:
            b, v = bystander.pop(), volunteer.pop()
            if b > v > nobody:
                return Classification("volunteers-dilemma",
                                      f"{n}-player symmetric: bystander {_fmt(b)} > volunteer {_fmt(v)} > "
                                      f"nobody volunteers {_fmt(nobody)}")
    return Classification("other", f"{n}-player symmetric two-strategy game, {len(eqs)} pure equilibria, "
                                   "neither public goods nor volunteer's dilemma")


# --------------------------------------------------------------------------- sequential games

def _is_leaf(node) -> bool:
    return isinstance(node, (tuple, list, np.ndarray))


def _leaf(node) -> np.ndarray:
    return np.asarray(node, dtype=float)


def classify_tree(tree) -> Classification:
    """The textbook name of a small two-player perfect-information tree
    (``Decision`` nodes, payoff tuples at the leaves; no chance)."""
    if _is_leaf(tree) or not isinstance(tree, Decision):
        return Classification("other", "not a decision tree")
    kids = list(tree.moves.values())
    if tree.player != 0:
        return Classification("other", "player 0 does not move first")
    # dictator
    if all(_is_leaf(k) for k in kids):
        vals = [_leaf(k) for k in kids]
        totals = {round(float(v.sum()), 9) for v in vals}
        shares = {round(float(v[1]), 9) for v in vals}
        if len(vals) >= 2 and len(totals) == 1 and len(shares) >= 2:
            return Classification("dictator", f"only player 0 moves, choosing among {len(vals)} splits of "
                                              f"{totals.pop():g}")
        return Classification("other", "one move by player 0, but not a split of a constant total")
    # ultimatum: every child is player 1 choosing between two leaves, one the common disagreement point
    if all(isinstance(k, Decision) and k.player == 1 and len(k.moves) == 2
           and all(_is_leaf(x) for x in k.moves.values()) for k in kids) and len(kids) >= 2:
        options = [[_leaf(x) for x in k.moves.values()] for k in kids]
        for reject in (0, 1):
            points = [o[reject] for o in options]
            if all(np.allclose(points[0], q) for q in points):
                d = points[0]
                accepts = [o[1 - reject] for o in options]
                if all(x.sum() > d.sum() + TOL for x in accepts) and \
                        all(x[1] >= d[1] - TOL for x in accepts) and any(x[1] > d[1] + TOL for x in accepts):
                    return Classification("ultimatum", f"{len(kids)} offers, each accepted or rejected; "
                                                       f"rejection gives {d.tolist()} after every offer")
    # trust: one leaf (keep out) and one player-1 decision between two leaves
    leaves = [k for k in kids if _is_leaf(k)]
    decisions = [k for k in kids if isinstance(k, Decision)]
    if len(kids) == 2 and len(leaves) == 1 and len(decisions) == 1 and decisions[0].player == 1 \
            and len(decisions[0].moves) == 2 and all(_is_leaf(x) for x in decisions[0].moves.values()):
        out = _leaf(leaves[0])
        x, y = (_leaf(v) for v in decisions[0].moves.values())
        for reward, betray in ((x, y), (y, x)):
            if betray[1] > reward[1] + TOL and betray[0] < out[0] - TOL and reward[0] > out[0] + TOL \
                    and reward.sum() > out.sum() + TOL:
                return Classification("trust", f"keep out {out.tolist()}; after trust, reward "
                                               f"{reward.tolist()} or betray {betray.tolist()}")
    # centipede
    chain = _centipede_chain(tree)
    if chain is not None:
        return chain
    return Classification("other", "perfect-information tree matching none of dictator, ultimatum, "
                                   "trust, centipede")


def _centipede_chain(tree):
    takes, node, movers = [], tree, []
    while isinstance(node, Decision):
        if len(node.moves) != 2:
            return None
        leaf = [v for v in node.moves.values() if _is_leaf(v)]
        rest = [v for v in node.moves.values() if not _is_leaf(v)]
        if len(leaf) == 2:                       # the last decision: take or pass, both terminal
            takes.append((node.player, [_leaf(v) for v in node.moves.values()]))
            movers.append(node.player)
            break
        if len(leaf) != 1 or len(rest) != 1:
            return None
        takes.append((node.player, [_leaf(leaf[0])]))
        movers.append(node.player)
        node = rest[0]
    if len(movers) < 2 or any(a == b for a, b in zip(movers, movers[1:])):
        return None
    # last node: its two leaves are "take" (mover gets more) and "pass"
    last_player, last = takes[-1]
    take_last = max(last, key=lambda v: v[last_player])
    pass_last = min(last, key=lambda v: v[last_player])
    line = [t[0] for _, t in takes[:-1]] + [take_last, pass_last]
    totals = [float(v.sum()) for v in line]
    if any(b <= a + TOL for a, b in zip(totals, totals[1:])):
        return None
    for i in range(len(takes) - 1):
        mover = takes[i][0]
        if not line[i][mover] > line[i + 1][mover] + TOL:
            return None
    return Classification("centipede", f"{len(movers)} alternating take-or-pass decisions; the total grows "
                                       f"{totals[0]:g} -> {totals[-1]:g}, and each mover does better taking "
                                       "than letting the next take")


def tree_from_openspiel(game, max_nodes: int = 10_000):
    """A two-player perfect-information OpenSpiel game without chance as a
    ``Decision`` tree (actions labelled by their strings), or None when it has
    chance, is not perfect-information, or exceeds ``max_nodes``."""
    import pyspiel
    if game.get_type().information != pyspiel.GameType.Information.PERFECT_INFORMATION:
        return None
    count = [0]

    def build(state):
        count[0] += 1
        if count[0] > max_nodes:
            raise OverflowError
        if state.is_terminal():
            return tuple(float(r) for r in state.returns())
        if state.is_chance_node():
            raise ValueError
        p = state.current_player()
        return Decision(p, {state.action_to_string(p, a): build(state.child(a))
                            for a in state.legal_actions()})
    try:
        return build(game.new_initial_state())
    except (OverflowError, ValueError):
        return None


def permuted(g: NormalFormGame, perms) -> NormalFormGame:
    """The same game with each player's strategies reordered (for tests)."""
    arr = g.payoffs
    for p, perm in enumerate(perms):
        arr = np.take(arr, perm, axis=p + 1)
    return NormalFormGame(arr)


"""Name the textbook game a payoff table (or a small game tree) has the
structure of, from the order of its payoffs.

Why: a dilemma rule set (games/ttt/dilemmas.py) claims to encode, say, a
Prisoner's Dilemma; whether it does is a property of its computed payoff
table, not of its name. The economic-dilemmas study compares this verdict
with ``Dilemma.encodes``. Only the order of payoffs matters (the textbook
definitions are ordinal), so a table scaled or shifted (the same way for
every player) gets the same name; each player's strategies are relabelled
freely (a "cooperate" strategy is found, not assumed to be listed first).

Definitions used (two players, two strategies, each player's own payoffs
ordered so after relabelling the strategies as cooperate and defect; the two
players' numbers need not be equal; R reward for mutual cooperation, S sucker,
T temptation, P punishment):
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
  identical in every profile (pure common interest), and not the same in every
  profile (Osborne & Rubinstein 1994, Example 16.1: the players prefer some
  outcomes to others; a table where nothing matters coordinates nothing);
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
Named by the strategies' meanings as well as the table (``classify_named``;
each function's docstring gives its textbook definition and source):
- colonel-blotto (Borel 1921; Roberson 2006), given each strategy's allocation;
- beauty-contest, the p-beauty contest (Keynes 1936; Moulin 1986; Nagel
  1995), given each strategy's number;
- common-pool-resource (Gordon 1954; Hardin 1968; Ostrom, Gardner & Walker
  1994), given each strategy's quantity;
- trolley (Foot 1967; Thomson 1976, 1985), the inaction given or reported
  as not checkable;
- hide-and-seek (von Neumann 1953; Rubinstein, Tversky & Heller 1996), two
  players, from the table alone;
- trend-setting, the minority or dispersion game (Arthur 1994; Challet &
  Zhang 1997; Grenager, Powers & Shoham 2002), from the table alone.
Anything else is "other" with a reason; classification never guesses, and
where a definition needs what the table does not hold the answer is
"not checkable".
"""

from __future__ import annotations

import itertools

import numpy as np

from solvers.classify_basics import TOL, Classification
from solvers.classify_basics import fmt as _fmt
from solvers.classify_basics import is_leaf as _is_leaf
from solvers.classify_basics import leaf as _leaf
from solvers.classify_giving import classify_dictator, classify_investment, classify_ultimatum
from solvers.normal_form import Decision, NormalFormGame, pure_equilibria

__all__ = [
    "Classification",
    "classify",
    "classify_tree",
    "tree_from_openspiel",
    "REPRODUCES",
    "reproduces",
    "NAMED",
    "classify_named",
    "classify_blotto",
    "classify_beauty_contest",
    "classify_common_pool",
    "classify_public_goods",
    "classify_trolley",
    "classify_hide_and_seek",
    "classify_trend_setting",
    "classify_investment",
    "classify_dictator",
    "classify_ultimatum",
]


#: For each economic game of games/ttt/dilemmas.py, the labels whose structure
#: reproduces it. Hide-and-seek and trend setting with two players are
#: matching-pennies-like (one side wants to match, the other to mismatch).
#: Colonel Blotto, the beauty contest, the common-pool resource, the trolley
#: dilemma, hide and seek and trend setting have definitions of their own
#: below (``NAMED``, ``classify_named``): they need what the strategies mean.
REPRODUCES = {
    "rock-paper-scissors": {"rock-paper-scissors"},
    "hide-and-seek": {"hide-and-seek", "matching-pennies"},
    "trend-setting": {"trend-setting", "matching-pennies"},
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
    "colonel-blotto": {"colonel-blotto"},
    "beauty-contest": {"beauty-contest"},
    "common-pool-resource": {"common-pool-resource"},
    "trolley": {"trolley"},
}


#: The player counts for which this module's definitions of an economic game apply:
#: the two-player textbook games, the n-player public goods and volunteer's dilemma
#: (three or more; with two players public goods is the prisoner's dilemma), coordination,
#: trend setting (the minority game), the beauty contest and the common pool for any number,
#: the trolley dilemma for three or more (a chooser and two groups). A three-player hide and
#: seek or battle of the sexes has no definition here.
_PLAYERS = {
    "public-goods": range(3, 100),
    "volunteers-dilemma": range(3, 100),
    "coordination": range(2, 100),
    "trend-setting": range(2, 100),
    "beauty-contest": range(2, 100),
    "common-pool-resource": range(2, 100),
    "trolley": range(3, 100),
}
_NAMED_ONLY = ("colonel-blotto", "beauty-contest", "common-pool-resource", "trolley")


def reproduces(encodes: str, label: str, players: int = 2) -> str:
    """'yes', 'no', or 'not checkable' (no definition of ``encodes`` for this
    many players here, or ``label`` is a payoff-order name that cannot decide a
    game defined by its strategies' meanings: Colonel Blotto, the beauty
    contest, the common pool and the trolley dilemma are decided only by their
    own classifiers, whose "other" is a "no")."""
    wanted = REPRODUCES.get(encodes)
    if wanted is None or players not in _PLAYERS.get(encodes, (2,)) or label == "not checkable":
        return "not checkable"
    if label in wanted:
        return "yes"
    if encodes in _NAMED_ONLY and label != "other":
        return "not checkable"
    return "no"


# --------------------------------------------------------------------------- one-shot games


def _constant_sum(g: NormalFormGame) -> bool:
    sums = g.payoffs.sum(axis=0)
    return bool(np.ptp(sums) <= TOL * max(1.0, float(np.abs(g.payoffs).max())))


def _symmetric2(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape[0] == a.shape[1] and bool(np.allclose(a, b.T, atol=TOL))


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
    removed = "; ".join(
        f"player {p}: {sorted(set(range(n)) - set(k))}"
        for p, (n, k) in enumerate(zip(g.shape, kept, strict=True))
        if len(k) < n
    )
    return Classification(
        again.label, f"{again.reason} (after removing weakly dominated or duplicate strategies {removed})"
    )


def _classify(g: NormalFormGame) -> Classification:
    eqs = pure_equilibria(g)
    if g.num_players == 2:
        return _classify2(g, eqs)
    return _classify_n(g, eqs)


def reduce_dominated(g: NormalFormGame, skip=()):
    """Iterated removal of strategies weakly dominated by another pure strategy
    (or equal to an earlier one); returns the reduced game and, per player, the
    original indices kept. Players in ``skip`` keep all their strategies."""
    kept = [list(range(n)) for n in g.shape]
    arr = g.payoffs
    changed = True
    while changed:
        changed = False
        for p in range(g.num_players):
            if len(kept[p]) < 2 or p in skip:
                continue
            mine = np.moveaxis(arr[p], p, 0).reshape(len(kept[p]), -1)
            for i in range(len(kept[p])):
                others = [j for j in range(len(kept[p])) if j != i]
                if any(
                    np.all(mine[j] >= mine[i] - TOL) and (np.any(mine[j] > mine[i] + TOL) or j < i)
                    for j in others
                ):
                    arr = np.delete(arr, i, axis=p + 1)
                    del kept[p][i]
                    changed = True
                    break
    return NormalFormGame(arr), kept


def _classify2(g: NormalFormGame, eqs) -> Classification:
    a, b = g.payoffs[0], g.payoffs[1]
    rows, cols = a.shape
    if np.allclose(a, b, atol=TOL) and len(eqs) >= 2 and np.ptp(a) > TOL:
        return Classification(
            "coordination", f"identical payoffs for both players, {len(eqs)} pure equilibria"
        )
    if _constant_sum(g):
        if not eqs and (rows, cols) == (2, 2):
            return Classification("matching-pennies", "2x2 constant-sum without a pure equilibrium")
        if not eqs and _symmetric2(a, b) and rows == 3 and _is_cycle(a):
            return Classification(
                "rock-paper-scissors",
                "symmetric zero-sum 3x3, each strategy beats exactly one and loses to exactly one",
            )
        if not eqs and _symmetric2(a, b):
            return Classification(
                "zero-sum-cycle", f"symmetric constant-sum {rows}x{cols} without a pure equilibrium"
            )
        return Classification("other", f"constant-sum {rows}x{cols} with {len(eqs)} pure equilibria")
    if (rows, cols) == (2, 2):
        found = _ordinal_2x2(a, b)
        if found is not None:
            return found
        if len(eqs) == 2:
            (e1, e2) = eqs
            u1, u2 = g.payoffs[(slice(None),) + e1], g.payoffs[(slice(None),) + e2]
            opposed = (u1[0] - u2[0]) * (u1[1] - u2[1]) < 0
            others = [pr for pr in g.profiles() if pr not in eqs]
            worse = all(g.payoffs[(p,) + pr] < min(u1[p], u2[p]) for pr in others for p in (0, 1))
            if opposed and worse:
                return Classification(
                    "battle-of-the-sexes",
                    f"two pure equilibria {e1} {e2} ranked oppositely by the players; "
                    "every other profile is worse for both",
                )
    return Classification("other", f"{rows}x{cols}, {len(eqs)} pure equilibria, no textbook ordering")


#: The 2x2 games named by each player's own payoff order (R reward for mutual
#: cooperation, S sucker, T temptation, P punishment), most specific first.
_ORDERS = (
    ("prisoners-dilemma", "T > R > P > S", "defection strictly dominant", lambda r, s, t, p: t > r > p > s),
    ("stag-hunt", "R > T >= P > S", "", lambda r, s, t, p: r > t >= p > s),
    ("chicken", "T > R > S > P", "", lambda r, s, t, p: t > r > s > p),
)


def _ordinal_2x2(a: np.ndarray, b: np.ndarray) -> Classification | None:
    """The prisoner's dilemma, stag hunt or chicken of a 2x2 table, by each player's
    own payoff order under one labelling of both players' strategies as cooperate
    and defect, or None. The textbook definitions are ordinal and per player
    (Osborne & Rubinstein 1994, A Course in Game Theory, Example 16.2: the
    Prisoner's Dilemma is any game in which each player's preferences over the four
    outcomes are ordered T > R > P > S; Fudenberg & Tirole 1991, Game Theory,
    chapter 1; Skyrms 2004, The Stag Hunt, ch. 1, for R > T >= P > S): the two
    players' payoffs need not be equal, only ordered alike, so a table that is not
    symmetric can be one (Rapoport & Guyer's 2x2 taxonomy, 1966, names the 78
    ordinal games the same way). "Cooperate" is the strategy whose mutual payoff is
    higher for both players."""
    symmetric = False
    for perm0, perm1 in itertools.product(((0, 1), (1, 0)), repeat=2):
        pa = a[np.ix_(perm0, perm1)]
        pb = b[np.ix_(perm0, perm1)]
        # player 0: R = (C,C), S = (C,D), T = (D,C), P = (D,D); player 1 the same from its side
        mine = (pa[0, 0], pa[0, 1], pa[1, 0], pa[1, 1])
        theirs = (pb[0, 0], pb[1, 0], pb[0, 1], pb[1, 1])
        if mine[0] < mine[3] or theirs[0] < theirs[3]:
            continue
        symmetric = _symmetric2(pa, pb)
        for label, order, gloss, holds in _ORDERS:
            if holds(*mine) and holds(*theirs):
                facts = (
                    f"R={_fmt(mine[0])}, S={_fmt(mine[1])}, T={_fmt(mine[2])}, P={_fmt(mine[3])}"
                    if symmetric
                    else "player 0 R={}, S={}, T={}, P={}; player 1 R={}, S={}, T={}, P={}".format(
                        *(_fmt(x) for x in mine + theirs)
                    )
                )
                kind = "symmetric" if symmetric else "each player's own payoffs"
                return Classification(label, f"{kind}, {order} ({facts})" + (f": {gloss}" if gloss else ""))
    return None


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
    if (
        all(np.allclose(g.payoffs[0], g.payoffs[p], atol=TOL) for p in range(n))
        and len(eqs) >= 2
        and np.ptp(g.payoffs[0]) > TOL
    ):
        return Classification(
            "coordination", f"identical payoffs for all {n} players, {len(eqs)} pure equilibria"
        )
    u = _symmetric_counts(g)
    if u is None:
        return Classification(
            "other", f"{n} players, strategies {list(g.shape)}: not a symmetric two-strategy game"
        )
    for c in (0, 1):  # c: "contribute" / "volunteer"
        d = 1 - c

        # number of others contributing when they play c: k if c == 1, else (n-1-k)
        def val(own, others_c, c=c):
            k = others_c if c == 1 else n - 1 - others_c
            return u[own][k]

        dominant = all(val(d, m) > val(c, m) + TOL for m in range(n))
        if dominant and val(c, n - 1) > val(d, 0) + TOL:
            return Classification(
                "public-goods",
                f"{n}-player symmetric: not contributing strictly dominates, yet all "
                f"contributing ({_fmt(val(c, n - 1))} each) beats none "
                f"({_fmt(val(d, 0))} each)",
            )
        bystander = {val(d, m) for m in range(1, n)}
        volunteer = {val(c, m) for m in range(n)}
        nobody = val(d, 0)
        if len(bystander) == 1 and len(volunteer) == 1:
            b, v = bystander.pop(), volunteer.pop()
            if b > v > nobody:
                return Classification(
                    "volunteers-dilemma",
                    f"{n}-player symmetric: bystander {_fmt(b)} > volunteer {_fmt(v)} > "
                    f"nobody volunteers {_fmt(nobody)}",
                )
    return Classification(
        "other",
        f"{n}-player symmetric two-strategy game, {len(eqs)} pure equilibria, "
        "neither public goods nor volunteer's dilemma",
    )


# --------------------------------------------------------------------------- sequential games


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
            return Classification(
                "dictator", f"only player 0 moves, choosing among {len(vals)} splits of {totals.pop():g}"
            )
        return Classification("other", "one move by player 0, but not a split of a constant total")
    # ultimatum: every child is player 1 choosing between two leaves, one the common disagreement point
    if (
        all(
            isinstance(k, Decision)
            and k.player == 1
            and len(k.moves) == 2
            and all(_is_leaf(x) for x in k.moves.values())
            for k in kids
        )
        and len(kids) >= 2
    ):
        options = [[_leaf(x) for x in k.moves.values()] for k in kids]
        for reject in (0, 1):
            points = [o[reject] for o in options]
            if all(np.allclose(points[0], q) for q in points):
                d = points[0]
                accepts = [o[1 - reject] for o in options]
                if (
                    all(x.sum() > d.sum() + TOL for x in accepts)
                    and all(x[1] >= d[1] - TOL for x in accepts)
                    and any(x[1] > d[1] + TOL for x in accepts)
                ):
                    return Classification(
                        "ultimatum",
                        f"{len(kids)} offers, each accepted or rejected; "
                        f"rejection gives {d.tolist()} after every offer",
                    )
    # trust: one leaf (keep out) and one player-1 decision between two leaves
    leaves = [k for k in kids if _is_leaf(k)]
    decisions = [k for k in kids if isinstance(k, Decision)]
    if (
        len(kids) == 2
        and len(leaves) == 1
        and len(decisions) == 1
        and decisions[0].player == 1
        and len(decisions[0].moves) == 2
        and all(_is_leaf(x) for x in decisions[0].moves.values())
    ):
        out = _leaf(leaves[0])
        x, y = (_leaf(v) for v in decisions[0].moves.values())
        for reward, betray in ((x, y), (y, x)):
            if (
                betray[1] > reward[1] + TOL
                and betray[0] < out[0] - TOL
                and reward[0] > out[0] + TOL
                and reward.sum() > out.sum() + TOL
            ):
                return Classification(
                    "trust",
                    f"keep out {out.tolist()}; after trust, reward "
                    f"{reward.tolist()} or betray {betray.tolist()}",
                )
    # centipede
    chain = _centipede_chain(tree)
    if chain is not None:
        return chain
    return Classification(
        "other", "perfect-information tree matching none of dictator, ultimatum, trust, centipede"
    )


def _centipede_chain(tree):
    takes, node, movers = [], tree, []
    while isinstance(node, Decision):
        if len(node.moves) != 2:
            return None
        leaf = [v for v in node.moves.values() if _is_leaf(v)]
        rest = [v for v in node.moves.values() if not _is_leaf(v)]
        if len(leaf) == 2:  # the last decision: take or pass, both terminal
            takes.append((node.player, [_leaf(v) for v in node.moves.values()]))
            movers.append(node.player)
            break
        if len(leaf) != 1 or len(rest) != 1:
            return None
        takes.append((node.player, [_leaf(leaf[0])]))
        movers.append(node.player)
        node = rest[0]
    if len(movers) < 2 or any(a == b for a, b in itertools.pairwise(movers)):
        return None
    # last node: its two leaves are "take" (mover gets more) and "pass"
    last_player, last = takes[-1]
    take_last = max(last, key=lambda v: v[last_player])
    pass_last = min(last, key=lambda v: v[last_player])
    line = [t[0] for _, t in takes[:-1]] + [take_last, pass_last]
    totals = [float(v.sum()) for v in line]
    if any(b <= a + TOL for a, b in itertools.pairwise(totals)):
        return None
    for i in range(len(takes) - 1):
        mover = takes[i][0]
        if not line[i][mover] > line[i + 1][mover] + TOL:
            return None
    return Classification(
        "centipede",
        f"{len(movers)} alternating take-or-pass decisions; the total grows "
        f"{totals[0]:g} -> {totals[-1]:g}, and each mover does better taking "
        "than letting the next take",
    )


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
        return Decision(
            p, {state.action_to_string(p, a): build(state.child(a)) for a in state.legal_actions()}
        )

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


# -- games named by more than payoff order ---------------------------------------
#
# Colonel Blotto, the beauty contest, the common-pool resource, the trolley
# dilemma, hide and seek and trend setting are not defined by an ordering of a
# 2x2 table: each textbook definition says what the strategies *are* (an
# allocation, a number, a quantity, acting or not). The functions below check
# a table against that definition, taking the strategies' meanings as
# arguments where the definition needs them (they are part of the question, not
# of the table: the same table with other meanings is another game). Each
# returns a ``Classification`` whose label is the game's key in
# games/ttt/dilemmas.py's ECONOMIC_GAMES, "other" with the failed condition, or
# "not checkable" when what the definition needs is not given. None of them is
# tuned to this toolkit's tables: tests/test_classify.py checks each on
# textbook tables, positive and negative.

NOT_CHECKABLE = "not checkable"


def _affine_match(table: np.ndarray, textbook: np.ndarray) -> bool:
    """True when ``table`` = a * ``textbook`` + b with one a > 0 and one b for
    every cell and player: the same game up to the choice of money unit and
    zero (expected payoffs of mixed play are preserved, unlike under an
    arbitrary order-preserving map)."""
    x, y = np.asarray(textbook, dtype=float).ravel(), np.asarray(table, dtype=float).ravel()
    if np.ptp(x) <= TOL:
        return bool(np.ptp(y) <= TOL)
    a, b = np.linalg.lstsq(np.stack([x, np.ones_like(x)], axis=1), y, rcond=None)[0]
    scale = max(1.0, float(np.abs(y).max()))
    return bool(a > TOL and np.allclose(a * x + b, y, atol=1e-7 * scale))


def blotto_payoff(mine, theirs, rule: str = "majority") -> float:
    """Player 0's payoff in Colonel Blotto for allocations ``mine`` and
    ``theirs`` (one number per battlefield): a battlefield goes to the larger
    allocation, to nobody on a tie; under "majority" (Borel) the player winning
    more battlefields gets 1 and the other -1 (0 when equal), under "count"
    (Roberson's equal-valued battlefields) the payoff is battlefields won minus
    battlefields lost."""
    won = sum(1 for a, b in zip(mine, theirs, strict=True) if a > b)
    lost = sum(1 for a, b in zip(mine, theirs, strict=True) if a < b)
    if rule == "majority":
        return float(np.sign(won - lost))
    if rule == "count":
        return float(won - lost)
    raise ValueError(f"unknown Blotto rule {rule!r} (majority, count)")


def classify_blotto(g: NormalFormGame, allocations, permuted: bool = False) -> Classification:
    """Colonel Blotto (Borel 1921, "La théorie du jeu et les équations
    intégrales à noyau symétrique"; Roberson 2006, "The Colonel Blotto game",
    Economic Theory 29): two players each divide a budget of indivisible units
    among the same battlefields, at once; each battlefield goes to whoever put
    more on it; Borel's player wins by winning more battlefields, Roberson's
    scores the battlefields won. ``allocations[p][i]`` is what player p's
    strategy i puts on each battlefield; with ``permuted`` it is a multiset laid
    on the battlefields in a uniformly random order (the game symmetrised over
    the alike battlefields, as the textbook analyses it). Checked: every
    strategy spends the player's whole budget, each allocation (each multiset
    when permuted) is listed exactly once and every one is listed, the table is
    zero-sum and equals one of the two payoff rules up to unit and zero. From
    the table alone Blotto is one symmetric zero-sum game among many: without
    ``allocations`` the answer is "not checkable"."""
    from itertools import permutations

    if allocations is None:
        return Classification(
            NOT_CHECKABLE,
            "Colonel Blotto is defined by what each strategy allocates; the table alone cannot say",
        )
    if g.num_players != 2:
        return Classification("other", f"{g.num_players} players; Colonel Blotto has two")
    fields = {len(a) for side in allocations for a in side}
    if len(fields) != 1 or [len(s) for s in allocations] != list(g.shape):
        return Classification("other", "allocations do not name one battlefield count for every strategy")
    n = fields.pop()
    for p, side in enumerate(allocations):
        budgets = {sum(a) for a in side}
        if len(budgets) != 1:
            return Classification(
                "other", f"player {p}'s strategies spend different budgets {sorted(budgets)}"
            )
        budget = budgets.pop()
        keys = [tuple(sorted(a)) if permuted else tuple(a) for a in side]
        every = {c for c in itertools.product(range(budget + 1), repeat=n) if sum(c) == budget}
        if permuted:
            every = {tuple(sorted(c)) for c in every}
        if len(set(keys)) != len(keys) or set(keys) != every:
            return Classification(
                "other",
                f"player {p}'s strategies are not every allocation of its budget "
                f"{budget} to {n} battlefields, each once",
            )
    if not _constant_sum(g):
        return Classification("other", "not zero-sum")

    def textbook(rule):
        out = np.zeros(g.shape)
        for i, a in enumerate(allocations[0]):
            for j, b in enumerate(allocations[1]):
                if permuted:
                    pa, pb = set(permutations(a)), set(permutations(b))
                    out[i, j] = np.mean([blotto_payoff(x, y, rule) for x in pa for y in pb])
                else:
                    out[i, j] = blotto_payoff(a, b, rule)
        return out

    for rule, words in (
        ("majority", "the player winning more battlefields wins (Borel)"),
        ("count", "battlefields won minus lost (Roberson)"),
    ):
        if _affine_match(g.payoffs[0], textbook(rule)):
            return Classification(
                "colonel-blotto",
                f"every allocation of the budgets to {n} battlefields"
                + (" (in random order)" if permuted else "")
                + f"; zero-sum; payoffs are {words}, up to unit and zero",
            )
    return Classification(
        "other",
        f"allocations to {n} battlefields, but the payoffs are neither Blotto rule "
        "(majority of battlefields, or battlefields won minus lost)",
    )


def beauty_contest_payoffs(numbers_profile, p: float) -> np.ndarray:
    """Each player's prize share in a p-beauty contest: the players whose
    number is closest to p times the mean share a prize of 1."""
    x = np.asarray(numbers_profile, dtype=float)
    d = np.abs(x - p * x.mean())
    won = d <= d.min() + TOL
    return won / won.sum()


def _winners_match(table: np.ndarray, won: np.ndarray) -> bool:
    """Per row (profile): the ``won`` players share one payoff, the others one
    lower payoff (everyone equal when everyone won)."""
    hi = np.where(won, table, -np.inf).max(axis=1)
    lo_w = np.where(won, table, np.inf).min(axis=1)
    if np.any(hi - lo_w > TOL):
        return False
    lost = ~won
    hi_l = np.where(lost, table, -np.inf).max(axis=1)
    lo_l = np.where(lost, table, np.inf).min(axis=1)
    some = lost.any(axis=1)
    return bool(np.all(hi_l[some] - lo_l[some] <= TOL) and np.all(hi_l[some] < lo_w[some] - TOL))


def classify_beauty_contest(g: NormalFormGame, numbers) -> Classification:
    """Keynesian beauty contest as the p-beauty contest (Keynes 1936, The
    General Theory, ch. 12; formalised by Moulin 1986, Game Theory for the
    Social Sciences, and Nagel 1995, "Unraveling in guessing games", AER 85):
    every player names a number at once; those closest to p times the mean of
    all the numbers, for a fixed p in (0, 1), share a prize, the others get
    nothing. ``numbers[q][i]`` is the number player q's strategy i names.
    Checked: for some p in (0, 1), in every profile the players closest to p
    times the mean get one payoff, the same for all of them, and every other
    player a lower one, the same for all of them (every p where the winners
    change is tried). Only who wins is compared, not how the prize is shared
    or valued: a game scored win/lose, as a board game is, keeps the contest's
    structure. Without ``numbers`` it is "not checkable"."""
    if numbers is None:
        return Classification(NOT_CHECKABLE, "a beauty contest is defined by the number each strategy names")
    n = g.num_players
    if n < 2 or [len(s) for s in numbers] != list(g.shape):
        return Classification("other", "numbers do not name every strategy of two or more players")
    profiles = np.array(list(g.profiles()))
    x = np.stack([np.asarray(numbers[q], dtype=float)[profiles[:, q]] for q in range(n)], axis=1)
    table = np.stack([g.payoffs[(q,) + tuple(profiles.T)] for q in range(n)], axis=1)
    # the winners change only where two distances to p * mean are equal
    mean = x.mean(axis=1)
    crit = {0.0, 1.0}
    for i in range(n):
        for j in range(i + 1, n):
            ok = mean > TOL
            crit.update(np.round(((x[ok, i] + x[ok, j]) / (2 * mean[ok])), 12).tolist())
    crit = sorted(c for c in crit if 0.0 <= c <= 1.0)
    candidates = sorted(set(crit[1:-1]) | {(a + b) / 2 for a, b in itertools.pairwise(crit)})
    for p in candidates:
        d = np.abs(x - p * mean[:, None])
        won = d <= d.min(axis=1, keepdims=True) + TOL
        if _winners_match(table, won):
            return Classification(
                "beauty-contest",
                f"{n} players naming numbers; in every profile the winners "
                f"are those closest to p times the mean, p = {p:.4g}",
            )
    return Classification(
        "other",
        f"{n} players naming numbers, but for no p in (0, 1) do the winners of the "
        "table's profiles match those closest to p times the mean",
    )


def classify_common_pool(g: NormalFormGame, quantities) -> Classification:
    """Common-pool resource (Gordon 1954, "The economic theory of a
    common-property resource", JPE 62; Hardin 1968, "The tragedy of the
    commons"; Ostrom, Gardner & Walker 1994, Rules, Games, and Common-Pool
    Resources, ch. 5): each appropriator chooses how much to take from a pool
    others also draw on. Ordinal conditions checked, with ``quantities[p][i]``
    what player p's strategy i takes: (1) a negative externality: a player's
    payoff never rises when another takes more, and falls somewhere; (2) a pure
    equilibrium exists; (3) over-appropriation: every pure equilibrium takes
    more in total than every welfare-maximising profile, and gives less total
    payoff. Without ``quantities`` it is "not checkable"."""
    if quantities is None:
        return Classification(NOT_CHECKABLE, "a common pool is defined by how much each strategy takes")
    n = g.num_players
    if n < 2 or [len(s) for s in quantities] != list(g.shape):
        return Classification("other", "quantities do not name every strategy of two or more players")
    q = [np.asarray(s, dtype=float) for s in quantities]
    falls = False
    for p in range(n):
        for o in range(n):
            if o == p:
                continue
            order = np.argsort(q[o], kind="stable")
            mine = np.take(g.payoffs[p], order, axis=o)
            steps = np.diff(mine, axis=o)
            qs = np.diff(q[o][order])
            shape = [1] * n
            shape[o] = len(qs)
            more = np.broadcast_to((qs > TOL).reshape(shape), steps.shape)
            if np.any(steps[more] > TOL):
                return Classification(
                    "other", f"player {p} gains when player {o} takes more: no negative externality"
                )
            falls = falls or bool(np.any(steps[more] < -TOL))
    if not falls:
        return Classification("other", "no player ever loses when another takes more: no shared pool")
    eqs = pure_equilibria(g)
    if not eqs:
        return Classification("other", "no pure equilibrium to compare with the optimum")
    welfare = g.payoffs.sum(axis=0)
    best = welfare.max()
    optima = [pr for pr in g.profiles() if welfare[pr] >= best - TOL]
    total = lambda pr: sum(q[p][i] for p, i in enumerate(pr))  # noqa: E731
    most_optimal = max(total(pr) for pr in optima)
    for e in eqs:
        if not (total(e) > most_optimal + TOL and welfare[e] < best - TOL):
            return Classification(
                "other",
                f"equilibrium {e} takes {total(e):g} in total against the optimum's "
                f"{most_optimal:g}, welfare {welfare[e]:g} against {best:g}: no "
                "over-appropriation",
            )
    return Classification(
        "common-pool-resource",
        f"taking more never helps the others; all {len(eqs)} pure equilibria take more "
        f"(at least {min(total(e) for e in eqs):g}) than the optimum ({most_optimal:g}) and "
        f"earn less in total ({max(welfare[e] for e in eqs):g} < {best:g})",
    )


def _drop_outcome_duplicates(g: NormalFormGame, p: int):
    """Player p's strategies that give every player the same payoffs as an
    earlier one of its strategies, removed: (game, kept indices)."""
    keep = []
    for i in range(g.shape[p]):
        here = np.take(g.payoffs, i, axis=p + 1)
        if not any(np.allclose(np.take(g.payoffs, j, axis=p + 1), here, atol=TOL) for j in keep):
            keep.append(i)
    return NormalFormGame(np.take(g.payoffs, keep, axis=p + 1)), keep


def classify_trolley(g: NormalFormGame, inaction=None) -> Classification:
    """Trolley dilemma (Foot 1967, "The problem of abortion and the doctrine of
    the double effect"; Thomson 1976, "Killing, letting die, and the trolley
    problem", and 1985, "The trolley problem"): one agent, a bystander at the
    switch, either does nothing, and the harm falls on a group (five), or acts,
    and it falls on another, smaller group (one); the agent's own lot is the
    same either way. As a table: once the other players' duplicate and weakly
    dominated strategies are removed (they follow their own interest) and the
    chooser's strategies that give everyone the same as another, one player
    (the chooser) has two strategies and every other player one; the chooser's payoff is equal under
    both; each choice leaves a
    non-empty set of others worse off than the other choice does, and the two
    sets differ in size. Which strategy is the inaction (letting the larger
    group be harmed) is not in a table: give ``inaction`` as (player,
    strategy) to check it; without it the reason says which strategy would
    have to be the inaction, as not checkable."""
    reduced, kept = None, None
    for c in range(g.num_players):
        r, k = reduce_dominated(g, skip=(c,))
        r, kc = _drop_outcome_duplicates(r, c)
        k[c] = [k[c][i] for i in kc]
        if [q for q in range(g.num_players) if r.shape[q] > 1] == [c] and r.shape[c] == 2:
            reduced, kept = r, k
            break
    if reduced is None:
        return Classification(
            "other",
            f"strategies {list(g.shape)}: no player is left choosing alone between two "
            "outcomes once the others' duplicate and dominated strategies are removed",
        )
    idx = [tuple(k if p == c else 0 for p in range(g.num_players)) for k in (0, 1)]
    u = [reduced.payoffs[(slice(None),) + i] for i in idx]
    if abs(u[0][c] - u[1][c]) > TOL:
        return Classification(
            "other",
            f"player {c}'s choice changes its own payoff ({_fmt(u[0][c])} vs "
            f"{_fmt(u[1][c])}): not a bystander's dilemma",
        )
    harmed = [[p for p in range(g.num_players) if p != c and u[k][p] < u[1 - k][p] - TOL] for k in (0, 1)]
    if not harmed[0] or not harmed[1]:
        return Classification(
            "other",
            f"one of player {c}'s choices harms nobody the other spares (harmed: {harmed[0]} / {harmed[1]})",
        )
    if len(harmed[0]) == len(harmed[1]):
        return Classification("other", f"both choices harm {len(harmed[0])} players: no fewer to sacrifice")
    big = 0 if len(harmed[0]) > len(harmed[1]) else 1
    orig = [kept[c][k] for k in (0, 1)]
    facts = (
        f"player {c} chooses alone, indifferent itself; strategy {orig[big]} harms players {harmed[big]}, "
        f"strategy {orig[1 - big]} harms {harmed[1 - big]}"
    )
    if inaction is None:
        return Classification(
            "trolley", facts + f" (that strategy {orig[big]} is the inaction is not checkable from the table)"
        )
    if tuple(inaction) != (c, orig[big]):
        return Classification("other", facts + f"; but the inaction is {tuple(inaction)}: acting harms more")
    return Classification("trolley", facts + "; doing nothing harms the larger group")


def classify_hide_and_seek(g: NormalFormGame) -> Classification:
    """Hide and seek (von Neumann 1953, "A certain zero-sum two-person game
    equivalent to the optimal assignment problem"; Rubinstein, Tversky & Heller
    1996, "Naive strategies in zero-sum games"): a hider picks one of n >= 2
    places, a seeker one of the same places; the seeker scores when they
    coincide (possibly more in some places than others), and the hider escapes
    otherwise; zero-sum. As a table: two players, constant-sum, n x n, and for
    one player as the seeker each hiding place has exactly one seeker strategy
    that scores against it (the seeker's payoff higher there), these are
    different for different places, and every non-scoring cell gives the seeker
    the same payoff. Matching pennies is the n = 2 case. Three or more players
    (several hiders) have no definition here: "not checkable"."""
    if g.num_players != 2:
        return Classification(
            NOT_CHECKABLE,
            f"{g.num_players} players: hide and seek is defined here for one hider and one seeker",
        )
    if not _constant_sum(g) or g.shape[0] != g.shape[1] or g.shape[0] < 2:
        return Classification(
            "other",
            f"{g.shape[0]}x{g.shape[1]}"
            + ("" if _constant_sum(g) else ", not zero-sum")
            + ": hide and seek is an n x n zero-sum game",
        )
    for seeker in (0, 1):
        s = g.payoffs[seeker] if seeker == 1 else g.payoffs[0].T  # rows: hider's places, columns: seeker's
        found = []
        for h in range(s.shape[0]):
            top = np.flatnonzero(s[h] >= s[h].max() - TOL)
            found.append(int(top[0]) if len(top) == 1 else None)
        if None in found or len(set(found)) != len(found):
            continue
        miss = np.ones_like(s, dtype=bool)
        miss[np.arange(len(found)), found] = False
        if np.ptp(s[miss]) <= TOL and all(s[h, found[h]] > s[miss][0] + TOL for h in range(len(found))):
            return Classification(
                "hide-and-seek",
                f"zero-sum {s.shape[0]}x{s.shape[0]}: player {seeker} scores "
                "exactly where it finds player "
                f"{1 - seeker}, and every miss pays the same",
            )
    return Classification(
        "other", "zero-sum and square, but no player scores exactly where it meets the other"
    )


def classify_trend_setting(g: NormalFormGame) -> Classification:
    """Trend setting as the minority (dispersion) game (Arthur 1994,
    "Inductive reasoning and bounded rationality", AER 84, the El Farol bar;
    Challet & Zhang 1997, "Emergence of cooperation and organization in an
    evolutionary game", Physica A 246; Grenager, Powers & Shoham 2002,
    "Dispersion games", AAAI): n >= 2 players choose among the same options at
    once and each is better off the fewer others chose its option. As a table:
    every player has the same k >= 2 options; the game is symmetric (a
    player's payoff depends on its own option and on which options the others
    took, not on who took them); and against any choices of the others a player
    never does worse on an option fewer others took, and strictly better in
    some case. With two players the leader-follower version is matching
    pennies, which ``classify`` names."""
    n = g.num_players
    k = g.shape[0]
    if n < 2 or any(s != k for s in g.shape) or k < 2:
        return Classification(
            "other", f"strategies {list(g.shape)}: the minority game gives every player the same options"
        )
    strict = False
    for prof in g.profiles():
        for p in range(n):
            others = prof[:p] + prof[p + 1 :]
            # symmetric: the payoff depends on (own option, multiset of the others' options) only
            for perm in set(itertools.permutations(others)):
                twin = perm[:p] + (prof[p],) + perm[p:]
                if abs(g.payoffs[(p,) + twin] - g.payoffs[(p,) + prof]) > TOL:
                    return Classification("other", "not symmetric among the players")
            if p + 1 < n:
                swapped = list(prof)
                swapped[p], swapped[p + 1] = swapped[p + 1], swapped[p]
                if abs(g.payoffs[(p + 1,) + tuple(swapped)] - g.payoffs[(p,) + prof]) > TOL:
                    return Classification(
                        "other", "players in the same place are paid differently: not symmetric"
                    )
            counts = [others.count(a) for a in range(k)]
            for a in range(k):
                for b in range(k):
                    if counts[a] < counts[b]:
                        ua = g.payoffs[(p,) + prof[:p] + (a,) + prof[p + 1 :]]
                        ub = g.payoffs[(p,) + prof[:p] + (b,) + prof[p + 1 :]]
                        if ua < ub - TOL:
                            return Classification(
                                "other",
                                f"player {p} does better on a more crowded option "
                                f"(others {others}: option {b} over {a})",
                            )
                        strict = strict or ua > ub + TOL
    if not strict:
        return Classification("other", "symmetric, but crowding never costs anyone")
    return Classification(
        "trend-setting",
        f"{n} players, {k} options, symmetric; the less crowded option is "
        "never worse and sometimes better (a minority game)",
    )


def classify_public_goods(g: NormalFormGame, contributions) -> Classification:
    """The public goods game as the linear voluntary contribution mechanism
    (Isaac, Walker & Thomas 1984, "Divergent evidence on free riding",
    Public Choice 43; Ledyard 1995, "Public goods: a survey of experimental
    research", Handbook of Experimental Economics, ch. 2): n >= 3 players each
    give c_i of an endowment to a public account; u_i = w_i - c_i + m * sum_j
    c_j with 1/n < m < 1. Ordinal conditions checked, with
    ``contributions[p][i]`` what player p's strategy i gives (players may
    differ in endowment and strategies, as the linear model allows): (1) free
    riding: against every profile of the others, a player is strictly worse
    off giving more (m < 1); (2) a public good: a player is strictly better off
    when another gives more (m > 0), in every case; (3) the dilemma: every
    player is strictly better off when all give their most than when none
    gives anything (m n > 1). Asymmetric tables are allowed; the symmetric
    two-strategy case is also what ``classify`` names "public-goods". Without
    ``contributions`` it is "not checkable"."""
    if contributions is None:
        return Classification(
            NOT_CHECKABLE, "a public goods game is defined by what each strategy contributes"
        )
    n = g.num_players
    if n < 3 or [len(c) for c in contributions] != list(g.shape):
        return Classification("other", "contributions do not name every strategy of three or more players")
    c = [np.asarray(x, dtype=float) for x in contributions]
    for p in range(n):
        for o in range(n):
            order = np.argsort(c[o], kind="stable")
            mine = np.take(g.payoffs[p], order, axis=o)
            steps = np.diff(mine, axis=o)
            more = np.diff(c[o][order]) > TOL
            shape = [1] * n
            shape[o] = len(more)
            more = np.broadcast_to(more.reshape(shape), steps.shape)
            if o == p and np.any(steps[more] >= -TOL):
                return Classification(
                    "other",
                    f"player {p} is not always worse off giving more: no free riding "
                    "(contributing is not privately costly)",
                )
            if o != p and np.any(steps[more] <= TOL):
                return Classification(
                    "other",
                    f"player {p} is not always better off when player {o} gives more: "
                    "the contribution is not a public good",
                )
    none = tuple(int(np.argmin(x)) for x in c)
    most = tuple(int(np.argmax(x)) for x in c)
    if not all(g.payoffs[(p,) + most] > g.payoffs[(p,) + none] + TOL for p in range(n)):
        return Classification(
            "other",
            "not every player is better off when all give their most than when none gives: no social dilemma",
        )
    return Classification(
        "public-goods",
        f"{n} players: giving more always costs the giver and always helps the "
        "others, and all giving their most beats none giving for everyone",
    )


#: The economic games of games/ttt/dilemmas.py whose definitions need more than
#: the payoff order, and what each classifier needs beyond the table.
NAMED = {
    "colonel-blotto": ("allocations", "permuted"),
    "beauty-contest": ("numbers",),
    "common-pool-resource": ("quantities",),
    "trolley": ("inaction",),
    "hide-and-seek": (),
    "trend-setting": (),
    "public-goods": ("contributions",),
    "dictator": (),
}


def classify_named(encodes: str, g: NormalFormGame, **meaning) -> Classification:
    """Check ``g`` against the definition of ``encodes`` (a key of ``NAMED``),
    with the strategies' meanings the definition needs (keyword arguments
    named in ``NAMED``; a missing one makes the answer "not checkable")."""
    if encodes not in NAMED:
        raise ValueError(f"no named classifier for {encodes!r} (have: {', '.join(NAMED)})")
    extra = set(meaning) - set(NAMED[encodes])
    if extra:
        raise ValueError(f"{encodes}: unexpected meanings {sorted(extra)} (takes {list(NAMED[encodes])})")
    if encodes == "colonel-blotto":
        return classify_blotto(g, meaning.get("allocations"), meaning.get("permuted", False))
    if encodes == "beauty-contest":
        return classify_beauty_contest(g, meaning.get("numbers"))
    if encodes == "common-pool-resource":
        return classify_common_pool(g, meaning.get("quantities"))
    if encodes == "trolley":
        return classify_trolley(g, meaning.get("inaction"))
    if encodes == "hide-and-seek":
        return classify_hide_and_seek(g)
    if encodes == "public-goods":
        return classify_public_goods(g, meaning.get("contributions"))
    if encodes == "dictator":
        return classify_dictator(g)
    return classify_trend_setting(g)

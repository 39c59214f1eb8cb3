"""The economic games of giving, named by who moves and what each can give: the
dictator game (one mover), the ultimatum game (offers, then accept or reject) and the
trust game with amounts (sends, then returns).

Why apart from solvers/classify.py: these are defined by a game's extensive form or by
one player alone choosing, not by the order of a table's payoffs, and each needs its
own ordinal test (per player: a game's payoffs do not compare one player's with
another's). ``solvers.classify.classify_named`` dispatches the dictator game here; the
reduced trees of analysis/reduced_games.py come here for the ultimatum and trust games.
"""

from __future__ import annotations

import itertools

import numpy as np

from solvers.classify_basics import TOL, Classification, fmt, is_leaf, leaf
from solvers.normal_form import Decision, NormalFormGame

__all__ = ["classify_dictator", "classify_ultimatum", "classify_investment"]


def classify_ultimatum(tree) -> Classification:
    """The ultimatum game by its extensive form (Güth, Schmittberger & Schwarze 1982;
    Osborne & Rubinstein 1994, A Course in Game Theory, chapter 6, whose
    subgame-perfect equilibrium, Definition 97.2, is the game's prediction; Camerer
    2003, Behavioral Game Theory, chapter 2): the proposer (player 0) chooses one of
    several offers; the responder (player 1), seeing it, accepts it or rejects it;
    rejecting gives both the disagreement outcome, the same after every offer.
    ``tree``: ``Decision(0, {offer: Decision(1, {"accept": payoffs, "reject":
    payoffs})})``, offers in increasing order of what they give the responder.
    Ordinal conditions checked, per player (no comparison of one player's payoff with
    the other's, which a game's utilities do not allow): (1) rejection gives the same
    outcome after every offer; (2) accepted offers trade the proposer's payoff against
    the responder's: along the offers the responder's accepted payoff never falls and
    the proposer's never rises, and some offer moves both strictly; (3) the responder
    weakly prefers accepting every offer to rejecting it, and strictly some; (4) the
    proposer strictly prefers its best accepted offer to the disagreement. Then
    subgame-perfect play has the responder accept and the proposer make the offer
    best for itself: the textbook's prediction. The test on the tree, not the table,
    is the textbook's: the table's payoff order is that of a game of threats (every
    response function of the responder's is a strategy)."""
    if not isinstance(tree, Decision) or tree.player != 0 or len(tree.moves) < 2:
        return Classification("other", "not a proposer's decision among two or more offers")
    offers = list(tree.moves.items())
    accepted, rejected = [], []
    for offer, node in offers:
        if not (isinstance(node, Decision) and node.player == 1 and set(node.moves) == {"accept", "reject"}):
            return Classification("other", f"after {offer!r} the responder does not accept or reject")
        accepted.append(leaf(node.moves["accept"]))
        rejected.append(leaf(node.moves["reject"]))
    spread = np.ptp(np.stack(rejected), axis=0)
    if np.any(spread > TOL):
        return Classification(
            "other",
            "rejecting does not give one disagreement outcome: after the offers it gives "
            + ", ".join(f"{offers[i][0]} {np.round(r, 4).tolist()}" for i, r in enumerate(rejected)),
        )
    d = rejected[0]
    for (oa, a), (ob, b) in itertools.pairwise(zip([o for o, _ in offers], accepted, strict=True)):
        if b[1] < a[1] - TOL or b[0] > a[0] + TOL:
            return Classification(
                "other",
                f"accepted offers do not trade the proposer's payoff against the responder's "
                f"({oa} {np.round(a, 4).tolist()} -> {ob} {np.round(b, 4).tolist()})",
            )
    if not any(b[1] > a[1] + TOL and b[0] < a[0] - TOL for a, b in itertools.combinations(accepted, 2)):
        return Classification(
            "other", "no offer gives the responder more at the proposer's cost: nothing to divide"
        )
    if any(a[1] < d[1] - TOL for a in accepted) or not any(a[1] > d[1] + TOL for a in accepted):
        return Classification(
            "other",
            f"the responder does not prefer accepting to the disagreement {d.tolist()} after every offer",
        )
    if not max(a[0] for a in accepted) > d[0] + TOL:
        return Classification(
            "other", f"no accepted offer beats the disagreement {d.tolist()} for the proposer"
        )
    return Classification(
        "ultimatum",
        f"{len(offers)} offers, each accepted or rejected; rejection gives {np.round(d, 4).tolist()} "
        "after every offer; accepted offers trade the proposer's payoff against the responder's, and "
        "the responder prefers accepting",
    )


def classify_dictator(g: NormalFormGame) -> Classification:
    """The dictator game as a table (Camerer 2003, Behavioral Game Theory,
    chapter 2, after Kahneman, Knetsch & Thaler 1986 and Forsythe, Horowitz, Savin & Sefton
    1994, "Fairness in simple bargaining experiments", GEB 6): one player (the
    dictator) divides an amount and the other (the recipient) has no choice. The
    textbook's money is a constant total, so giving more to the recipient costs the
    dictator the same; in a game scored by win, draw and loss only the order is left.
    Checked: two players, the recipient with a single strategy, and among the
    dictator's outcomes that are not worse for both than another of its outcomes
    (the splits; options that waste for both are not the question) at least two
    differ: the dictator can give the recipient more, at a cost to itself. The
    sequential form (a tree with one move) is ``classify_tree``'s "dictator"."""
    if g.num_players != 2:
        return Classification("other", f"{g.num_players} players; the dictator game has two")
    if g.shape[1] != 1:
        return Classification(
            "other", f"the second player has {g.shape[1]} strategies: a recipient has no choice"
        )
    outcomes = {tuple(np.round(g.payoffs[:, i, 0], 12)) for i in range(g.shape[0])}
    frontier = sorted(
        o for o in outcomes if not any(q != o and q[0] >= o[0] and q[1] >= o[1] for q in outcomes)
    )
    if len(frontier) < 2:
        (best,) = frontier
        return Classification(
            "other",
            f"no split to make: one outcome ({fmt(best[0])}, {fmt(best[1])}) is at least as good as every "
            f"other for both players (of {len(outcomes)} outcomes), so giving costs the dictator nothing "
            "or gives the recipient nothing",
        )
    return Classification(
        "dictator",
        f"the recipient has no choice; the dictator's {len(frontier)} undominated outcomes trade its payoff "
        f"({fmt(frontier[-1][0])} down to {fmt(frontier[0][0])}) against the recipient's "
        f"({fmt(frontier[-1][1])} up to {fmt(frontier[0][1])})",
    )


def classify_investment(tree) -> Classification:
    """The trust game with amounts, the investment game (Berg, Dickhaut &
    McCabe 1995, "Trust, reciprocity, and social history", GEB 10): the
    investor (player 0) sends some of its endowment, which grows on the way;
    the trustee (player 1), seeing the amount, returns some of what it holds.
    ``tree``: ``Decision(0, {send: Decision(1, {return: payoffs}) or payoffs})``
    with the sends and returns in increasing order (sending nothing may be a
    leaf). Ordinal conditions checked: (1) after every send a larger return
    never raises the trustee's payoff nor lowers the investor's, and after
    each send some larger return strictly moves both; (2) unreturned sending
    costs the investor: its payoff with nothing returned never rises as it
    sends more and is below sending nothing; (3) trust can pay: after the
    largest send some return leaves both strictly better off than no send.
    Then backward induction returns nothing and sends nothing, while sending
    and returning would be better for both: the trust dilemma. The textbook's
    money is linear, so its inequalities are strict; (1) and (2) are weak
    because a game scored by win, draw and loss is bounded (a trustee already
    losing loses no more by returning more), strict where it matters. Kreps's
    binary trust game is the case of one send and two returns
    (``classify_tree``)."""
    if not isinstance(tree, Decision) or tree.player != 0 or len(tree.moves) < 2:
        return Classification("other", "not an investor's decision among two or more sends")
    sends = list(tree.moves.values())
    first = sends[0]
    base = leaf(first) if is_leaf(first) else None
    if base is None:
        if not (isinstance(first, Decision) and first.player == 1):
            return Classification("other", "sending nothing is neither an outcome nor the trustee's decision")
        outs = [leaf(v) for v in first.moves.values()]
        if any(np.ptp(np.stack(outs), axis=0) > TOL):
            return Classification("other", "after sending nothing the trustee still changes the outcome")
        base = outs[0]
    unreturned = []
    for k, node in enumerate(sends[1:], start=1):
        if not (
            isinstance(node, Decision) and node.player == 1 and all(is_leaf(v) for v in node.moves.values())
        ):
            return Classification("other", f"send #{k} is not followed by the trustee's choice of a return")
        outs = [leaf(v) for v in node.moves.values()]
        if len(outs) < 2:
            return Classification("other", f"after send #{k} the trustee has no choice")
        for a, b in itertools.pairwise(outs):
            if b[1] > a[1] + TOL or b[0] < a[0] - TOL:
                return Classification(
                    "other",
                    f"after send #{k} a larger return does not move payoff from the "
                    f"trustee to the investor ({a.tolist()} -> {b.tolist()})",
                )
        if not any(b[1] < a[1] - TOL and b[0] > a[0] + TOL for a, b in itertools.combinations(outs, 2)):
            return Classification(
                "other", f"after send #{k} no return moves payoff from the trustee to the investor"
            )
        unreturned.append(outs[0])
    line = [base] + unreturned
    if any(b[0] > a[0] + TOL for a, b in itertools.pairwise(line)) or any(
        v[0] >= base[0] - TOL for v in unreturned
    ):
        return Classification(
            "other",
            "sending without a return does not cost the investor more the more it "
            f"sends (investor's payoffs {[round(float(v[0]), 6) for v in line]})",
        )
    last = [leaf(v) for v in sends[-1].moves.values()]
    if not any(o[0] > base[0] + TOL and o[1] > base[1] + TOL for o in last):
        return Classification(
            "other",
            f"no return after the largest send beats sending nothing ({base.tolist()}) "
            "for both: trust cannot pay",
        )
    return Classification(
        "trust",
        f"{len(sends)} sends; each return moves payoff from trustee to investor, "
        "unreturned sending costs the investor, and some return after the largest "
        f"send beats no send ({base.tolist()}) for both",
    )

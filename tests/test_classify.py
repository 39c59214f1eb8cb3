"""solvers.classify names textbook games from their payoff order: checked on
textbook tables (as the textbooks print them, and relabelled or rescaled) and
on OpenSpiel's own matrix games, which were not written by us."""

import itertools

import numpy as np
import pytest

import games  # noqa: F401  (registers ttt)
from solvers.classify import (
    Classification,
    classify,
    classify_tree,
    reduce_dominated,
    reproduces,
    tree_from_openspiel,
)
from solvers.normal_form import Decision, NormalFormGame, induced_normal_form


def sym2(r, s, t, p):
    """A symmetric 2x2 game with row strategies (C, D)."""
    a = np.array([[r, s], [t, p]], dtype=float)
    return NormalFormGame(np.stack([a, a.T]))


def relabelled(g, perms):
    arr = g.payoffs
    for p, perm in enumerate(perms):
        arr = np.take(arr, perm, axis=p + 1)
    return NormalFormGame(arr)


TEXTBOOK = {
    "prisoners-dilemma": sym2(3, 0, 5, 1),
    "stag-hunt": sym2(4, 0, 3, 3),
    "chicken": sym2(3, 1, 4, 0),
    "battle-of-the-sexes": NormalFormGame([[[2, 0], [0, 1]], [[1, 0], [0, 2]]]),
    "coordination": NormalFormGame([[[1, 0], [0, 1]], [[1, 0], [0, 1]]]),
    "matching-pennies": NormalFormGame([[[1, -1], [-1, 1]], [[-1, 1], [1, -1]]]),
}


@pytest.mark.parametrize("label", sorted(TEXTBOOK))
def test_textbook_2x2_under_every_relabelling_and_rescaling(label):
    g = TEXTBOOK[label]
    for perms in itertools.product(itertools.permutations(range(2)), repeat=2):
        h = relabelled(g, perms)
        assert classify(h).label == label, (perms, classify(h))
        scaled = NormalFormGame(3 * h.payoffs + 7)  # ordinal: same order, same name
        assert classify(scaled).label == label


def asym2(mine, theirs):
    """A 2x2 game with strategies (C, D) for both players, each player's own (R, S, T, P)."""
    r0, s0, t0, p0 = mine
    r1, s1, t1, p1 = theirs
    return NormalFormGame([[[r0, s0], [t0, p0]], [[r1, t1], [s1, p1]]])


@pytest.mark.parametrize(
    "label, mine, theirs",
    [
        # Osborne & Rubinstein's Example 16.2 asks only that each player order the outcomes T > R > P > S
        ("prisoners-dilemma", (3, 0, 5, 1), (2, -1, 4, 1)),
        ("prisoners-dilemma", (8 / 27, -1, 1, -179 / 729), (0.5, -1, 0.9, 0)),
        ("stag-hunt", (4, 0, 3, 3), (5, 1, 2, 2)),
        ("chicken", (3, 1, 4, 0), (2, 1, 9, -3)),
    ],
)
def test_asymmetric_tables_ordered_alike_are_named(label, mine, theirs):
    g = asym2(mine, theirs)
    for perms in itertools.product(itertools.permutations(range(2)), repeat=2):
        got = classify(relabelled(g, perms))
        assert got.label == label, (perms, got)
        assert "each player's own payoffs" in got.reason


@pytest.mark.parametrize(
    "mine, theirs, not_label",
    [
        ((3, 0, 5, 1), (3, 0, 2, 1), "prisoners-dilemma"),  # player 1: R > T, cooperation is not dominated
        ((3, 0, 5, 1), (3, 1, 5, 3), "prisoners-dilemma"),  # player 1: P = R
        ((4, 0, 3, 3), (4, 0, 5, 3), "stag-hunt"),  # player 1: T > R, hunting the stag is not a best reply
        ((3, 1, 4, 0), (3, 0, 4, 1), "chicken"),  # player 1: P > S
    ],
)
def test_asymmetric_near_misses_are_not_named(mine, theirs, not_label):
    g = asym2(mine, theirs)
    assert classify(g).label != not_label, classify(g)


def test_rock_paper_scissors_and_its_relabellings():
    a = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], dtype=float)
    g = NormalFormGame(np.stack([a, -a]))
    assert classify(g).label == "rock-paper-scissors"
    perm = (2, 0, 1)
    assert classify(relabelled(g, (perm, perm))).label == "rock-paper-scissors"


def test_near_misses_are_not_named():
    assert classify(sym2(3, 0, 5, 3)).label != "prisoners-dilemma"  # P = R: no dilemma
    assert classify(sym2(4, 2, 3, 1)).label == "other"  # harmony: cooperation dominant
    assert classify(sym2(3, 0, 2, 3)).label != "stag-hunt"  # P = R: no payoff dominance
    # BoS whose miscoordination pays one player more than its worse equilibrium
    assert classify(NormalFormGame([[[2, 0], [1.5, 1]], [[1, 0], [0, 2]]])).label != "battle-of-the-sexes"


@pytest.mark.parametrize(
    "name,label",
    [
        ("matrix_pd", "prisoners-dilemma"),
        ("matrix_sh", "stag-hunt"),
        ("matrix_bos", "battle-of-the-sexes"),
        ("matrix_rps", "rock-paper-scissors"),
        ("matrix_cd", "chicken"),
        ("matrix_mp", "matching-pennies"),
        ("matrix_coordination", "coordination"),
        ("matrix_shapleys_game", "other"),
        ("ttt(rules=games/ttt/examples/RPS-Shared-Lines.json)", "rock-paper-scissors"),
        ("ttt(rules=games/ttt/examples/Hide-And-Seek-2.json)", "matching-pennies"),
    ],
)
def test_openspiel_matrix_games_and_our_examples(name, label):
    assert classify(induced_normal_form(name).game).label == label


def test_rps_lines_needs_its_dominated_fourth_move_removed():
    g = induced_normal_form("ttt(rules=games/ttt/examples/RPS-Shared-Lines.json)").game
    reduced, kept = reduce_dominated(g)
    assert reduced.shape == (3, 3) and kept == [[0, 1, 3], [0, 1, 3]]
    assert "removing" in classify(g).reason


def _n_player(n, payoff):
    """Symmetric binary n-player table; payoff(own, others_playing_1)."""
    arr = np.zeros((n,) + (2,) * n)
    for prof in itertools.product((0, 1), repeat=n):
        for p in range(n):
            arr[(p,) + prof] = payoff(prof[p], sum(prof) - prof[p])
    return NormalFormGame(arr)


def test_public_goods_and_volunteers_dilemma():
    # public goods: strategy 1 contributes 1, the pot is multiplied by 1.5 and shared by 3
    pg = _n_player(3, lambda own, k: 1.5 * (own + k) / 3 - own)
    assert classify(pg).label == "public-goods"
    # with the pot multiplied by 4 > n contributing dominates: no dilemma
    assert classify(_n_player(3, lambda own, k: 4 * (own + k) / 3 - own)).label == "other"
    # volunteer's dilemma: strategy 1 volunteers at cost 1; benefit 2 for all if anyone does
    vd = _n_player(4, lambda own, k: (2 if own + k > 0 else 0) - own)
    assert classify(vd).label == "volunteers-dilemma"
    # labels independent of which strategy is listed first
    flipped = _n_player(4, lambda own, k: (2 if (1 - own) + (3 - k) > 0 else 0) - (1 - own))
    assert classify(flipped).label == "volunteers-dilemma"


D = Decision


def test_sequential_textbook_games():
    dictator = D(0, {"keep all": (10, 0), "give 3": (7, 3), "halve": (5, 5)})
    assert classify_tree(dictator).label == "dictator"
    ultimatum = D(0, {f"offer {k}": D(1, {"accept": (10 - k, k), "reject": (0, 0)}) for k in (1, 5, 9)})
    assert classify_tree(ultimatum).label == "ultimatum"
    trust = D(0, {"keep": (1, 1), "trust": D(1, {"reward": (2, 2), "betray": (0, 3)})})
    assert classify_tree(trust).label == "trust"
    centipede = D(
        0, {"take": (2, 0), "pass": D(1, {"take": (1, 3), "pass": D(0, {"take": (4, 2), "pass": (3, 5)})})}
    )
    assert classify_tree(centipede).label == "centipede"


def test_sequential_near_misses():
    # betraying does not pay player 1: no trust dilemma
    assert (
        classify_tree(D(0, {"keep": (1, 1), "trust": D(1, {"reward": (2, 2), "betray": (0, 1)})})).label
        == "other"
    )
    # a shrinking pie is not a centipede
    shrinking = D(0, {"take": (4, 0), "pass": D(1, {"take": (1, 2), "pass": (1, 1)})})
    assert classify_tree(shrinking).label == "other"
    # different disagreement points after different offers: not an ultimatum game
    odd = D(
        0, {"a": D(1, {"accept": (9, 1), "reject": (0, 0)}), "b": D(1, {"accept": (5, 5), "reject": (1, 0)})}
    )
    assert classify_tree(odd).label != "ultimatum"


def test_tree_from_openspiel_and_refusals():
    import pyspiel

    tree = tree_from_openspiel(pyspiel.load_game("nim(pile_sizes=1;2)"))
    assert isinstance(tree, Decision) and tree.player == 0
    assert tree_from_openspiel(pyspiel.load_game("kuhn_poker")) is None  # chance, hidden cards
    assert tree_from_openspiel(pyspiel.load_game("tic_tac_toe"), max_nodes=100) is None


def test_verdicts():
    assert reproduces("prisoners-dilemma", "prisoners-dilemma") == "yes"
    assert reproduces("prisoners-dilemma", "stag-hunt") == "no"
    assert reproduces("hide-and-seek", "matching-pennies") == "yes"
    assert reproduces("colonel-blotto", "zero-sum-cycle") == "not checkable"
    # definitions exist only for some player counts: a 3-player hide and seek is not checked
    assert reproduces("hide-and-seek", "other", players=3) == "not checkable"
    assert reproduces("battle-of-the-sexes", "other", players=3) == "not checkable"
    assert reproduces("public-goods", "public-goods", players=3) == "yes"
    assert reproduces("public-goods", "prisoners-dilemma", players=2) == "not checkable"
    assert reproduces("coordination", "other", players=4) == "no"
    assert isinstance(classify(TEXTBOOK["chicken"]), Classification)


def recipient(*outcomes):
    """A dictator's table: one row per option, (dictator's payoff, recipient's payoff)."""
    return NormalFormGame(np.array(outcomes, dtype=float).T.reshape(2, len(outcomes), 1))


def test_dictator_tables_by_camerers_definition():
    from solvers.classify import classify_dictator, classify_named

    # Camerer's dictator: 10 to split in whole units
    splits = recipient(*[(10 - k, k) for k in range(11)])
    assert classify_dictator(splits).label == "dictator"
    assert classify_named("dictator", splits).label == "dictator"
    # win/draw/loss can keep only the order, and options that waste for both do not matter
    assert classify_dictator(recipient((1, -1), (0, 0), (-1, 1), (-1, -1))).label == "dictator"


@pytest.mark.parametrize(
    "outcomes",
    [
        [(1, -1), (1, 0), (1, 1)],  # giving costs the dictator nothing: no trade-off
        [(1, -1), (0, -1), (-1, -1)],  # the recipient gets the same whatever is given
        [(0, 0)],  # nothing to choose
    ],
)
def test_dictator_near_misses_are_not_named(outcomes):
    from solvers.classify import classify_dictator

    assert classify_dictator(recipient(*outcomes)).label == "other"


def test_a_recipient_with_a_choice_is_no_dictator_game():
    from solvers.classify import classify_dictator

    ultimatum_like = NormalFormGame(np.zeros((2, 3, 2)))
    assert classify_dictator(ultimatum_like).label == "other"


def ultimatum_tree(accepted, rejected):
    """Offers 0.. in order, each accepted (its payoffs) or rejected (its payoffs)."""
    return Decision(
        0,
        {
            f"offer {k}": Decision(1, {"accept": a, "reject": r})
            for k, (a, r) in enumerate(zip(accepted, rejected, strict=True))
        },
    )


def test_ultimatum_trees_by_their_extensive_form():
    from solvers.classify import classify_ultimatum

    # Guth et al.'s pie of 10, whole units: the responder's share k
    textbook = ultimatum_tree([(10 - k, k) for k in range(11)], [(0, 0)] * 11)
    assert classify_ultimatum(textbook).label == "ultimatum"
    # only the order matters, per player: win/draw/loss returns, the responder ahead of the proposer
    scored = ultimatum_tree([(1, -0.5), (1, 0.25), (0.875, 0.625)], [(-1, -1)] * 3)
    assert classify_ultimatum(scored).label == "ultimatum"


@pytest.mark.parametrize(
    "accepted, rejected",
    [
        ([(10, 0), (9, 1), (8, 2)], [(0, 0), (0, 0), (0, 1)]),  # a rejection worth more after one offer
        ([(10, -1), (9, 1), (8, 2)], [(0, 0)] * 3),  # the responder prefers rejecting the least offer
        ([(10, 0), (10, 0), (10, 0)], [(0, 0)] * 3),  # nothing to divide
        ([(10, 0), (9, 1), (9.5, 2)], [(0, 0)] * 3),  # giving more helps the proposer too
        ([(-1, 1), (-2, 2)], [(0, 0)] * 2),  # the proposer prefers the disagreement to every offer
    ],
)
def test_ultimatum_near_misses_are_not_named(accepted, rejected):
    from solvers.classify import classify_ultimatum

    assert classify_ultimatum(ultimatum_tree(accepted, rejected)).label == "other"


def test_a_table_where_nothing_matters_is_no_coordination_game():
    assert classify(NormalFormGame(np.zeros((2, 2, 2)))).label == "other"
    assert classify(NormalFormGame(np.zeros((3, 2, 2, 2)))).label == "other"
    # three players with one common payoff, 1 when all choose alike: a coordination game
    alike = np.zeros((2, 2, 2))
    alike[0, 0, 0] = alike[1, 1, 1] = 1
    assert classify(NormalFormGame(np.stack([alike] * 3))).label == "coordination"

"""Reduced payoff tables of the tic-tac-toe variations specification's
dilemmas whose full normal form is too large: each player restricted to a
stated strategy family, the one the named textbook game is about, and every
cell an exact expectation over Chaos.

Why: a full table counts every way of placing every piece after every thing
seen (NeedyTrust: 16,777,216 profiles; Centipede9: beyond 10^800), while the
textbook games are stated over a few strategies: "send k, return j", "take
at your k-th turn", "buy k", "name k", an allocation. Restricting each player
to that family asks the question the name asks: *if* the players play the
textbook's strategies, is it the textbook's game? It cannot show that a
strategy outside the family does better (a "no" on a reduced table is a
finding about the family's game; a "yes" says the encoding offers the named
game's choices with its incentives). The families and the reasons for them are
in docs/rules/dilemmas_by_game.md under each game; the tables are played through the
OpenSpiel game ``ttt(rules=NAME)``, never the engine directly, and the study
(experiments/economic_dilemmas.py) classifies them with solvers/classify.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import permutations, product

import numpy as np
import pyspiel

import games  # noqa: F401  (registers ttt)
from games.normal_form import as_fraction, payoff_table
from games.openspiel import core_of
from solvers.classify import (
    NAMED,
    classify,
    classify_investment,
    classify_named,
    classify_tree,
    classify_ultimatum,
)
from solvers.normal_form import Decision, NormalFormGame

__all__ = ["Reduced", "REDUCED", "reduced", "expected_returns"]


@dataclass
class Reduced:
    """A dilemma's reduced game: ``table`` (a normal form with named
    strategies) or ``tree`` (a perfect-information tree of ``Decision`` nodes
    with exact expected payoffs at the leaves), ``family`` (which strategies
    are kept and why, one paragraph), ``meaning`` (what the strategies mean, for
    ``solvers.classify.classify_named``)."""

    name: str
    family: str
    table: NormalFormGame | None = None
    tree: Decision | None = None
    meaning: dict = field(default_factory=dict)
    exact: dict = field(default_factory=dict)  # profile or path -> exact returns (Fractions)


def _fraction(x) -> Fraction:
    return as_fraction(x)[0]


def expected_returns(state, choose) -> tuple:
    """Exact expected returns from ``state`` when every player's action is
    ``choose(state)`` and chance plays its own probabilities."""
    if state.is_terminal():
        return tuple(_fraction(r) for r in state.returns())
    if state.is_chance_node():
        total = None
        for a, prob in state.chance_outcomes():
            v = expected_returns(state.child(a), choose)
            w = _fraction(prob)
            total = (
                [w * x for x in v] if total is None else [t + w * x for t, x in zip(total, v, strict=True)]
            )
        return tuple(total)
    return expected_returns(state.child(choose(state)), choose)


def _load(name):
    return pyspiel.load_game(f"ttt(rules={name})")


def _by_name(state, wanted: str):
    """The legal action whose string is ``wanted`` (ValueError naming the legal ones otherwise)."""
    p = state.current_player()
    for a in state.legal_actions():
        if state.action_to_string(p, a) == wanted:
            return a
    raise ValueError(
        f"{wanted!r} is not legal here; legal: "
        f"{[state.action_to_string(p, a) for a in state.legal_actions()]}"
    )


def _table(exact: dict, shape, names, n) -> NormalFormGame:
    arr = np.zeros((n,) + tuple(shape))
    for prof, v in exact.items():
        arr[(slice(None),) + tuple(prof)] = [float(x) for x in v]
    return NormalFormGame(arr, strategy_names=names)


# --------------------------------------------------------------------------- "place k, then pass"


def count_table(game) -> tuple[list[int], dict]:
    """Reduced table of a game where each player's decisions are "place one
    more piece or pass": strategy k of player p is "place k pieces, then pass"
    (whatever it sees). Returns (strategies per player, {profile: exact
    expected returns}), Chaos playing its OpenSpiel probabilities. Raises
    ValueError when a decision offers more than one placement."""
    n = game.num_players()
    pass_names = ("pass",)

    def split(state):
        acts = state.legal_actions()
        passes = [a for a in acts if state.action_to_string(a) in pass_names]
        places = [a for a in acts if a not in passes]
        if len(places) > 1:
            raise ValueError(f"{game}: a decision offers {len(places)} placements; count strategies need one")
        return places, passes

    def value(state, counts, placed):
        if state.is_terminal():
            return tuple(as_fraction(r)[0] for r in state.returns())
        if state.is_chance_node():
            total = [Fraction(0)] * n
            for a, prob in state.chance_outcomes():
                child = state.child(a)
                w = as_fraction(prob)[0]
                total = [t + w * v for t, v in zip(total, value(child, counts, placed), strict=True)]
            return tuple(total)
        p = state.current_player()
        places, passes = split(state)
        if places and (placed[p] < counts[p] or not passes):
            return value(state.child(places[0]), counts, placed[:p] + (placed[p] + 1,) + placed[p + 1 :])
        return value(state.child(passes[0]), counts, placed)

    start = game.new_initial_state()
    most = [0] * n
    state = start.clone()
    while not state.is_terminal():  # each player's most: place whenever possible
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        p = state.current_player()
        places, passes = split(state)
        if places:
            most[p] += 1
        state.apply_action(places[0] if places else passes[0])
    shape = [k + 1 for k in most]
    table = {}
    for profile in product(*(range(k) for k in shape)):
        table[profile] = value(start.clone(), profile, (0,) * n)
    return shape, table


def _counts(name: str, key: str, family: str) -> Reduced:
    """Count strategies (``count_table``): strategy k is
    "place k pieces, then pass", whatever the player sees."""
    game = _load(name)
    shape, exact = count_table(game)
    n = game.num_players()
    names = [[str(k) for k in range(s)] for s in shape]
    return Reduced(
        name,
        family,
        table=_table(exact, shape, names, n),
        meaning={key: [list(range(s)) for s in shape]},
        exact=exact,
    )


SHOPPING = (
    "Each player's strategy is *how many circles it buys* (places before passing), 0 to its most, whatever "
    "it sees: the quantity taken from the pool, which is what a common-pool resource's appropriators "
    "choose (Ostrom, Gardner & Walker 1994). White sees black's count, so a white strategy that depends on "
    "it is outside the family; each row is one such count, so the table shows white's best answer to it."
)
BEAUTY = (
    "Each player's strategy is *how many circles it stacks* (0-9) before passing, whatever it sees: the "
    "number it names, which is all a beauty-contest player chooses (Nagel 1995). Turns are hidden "
    "(`cloaking_hides_turns`, the decision above), so a player sees nothing of the earlier heights and "
    "these are all its strategies that matter: the reduced game is the game's own simultaneous contest."
)


SHOPPING_HIDDEN = (
    "Each player's strategy is *how many circles it buys* (places before passing), 0 to its most, whatever "
    "it sees: the quantity taken from the pool, which is what a common-pool resource's appropriators "
    "choose (Ostrom, Gardner & Walker 1994). Turns are hidden (`cloaking_hides_turns`), so a player sees "
    "nothing of the others' purchases and these are all its strategies that matter: the reduced game is "
    "the game's own simultaneous appropriation."
)


def shopping(name: str = "Shopping9") -> Reduced:
    """The count table; its text says whether a player sees the others' purchases."""
    hidden = core_of(_load(name).new_initial_state()).hides_turns()
    return _counts(name, "quantities", SHOPPING_HIDDEN if hidden else SHOPPING)


def beauty(name: str = "KBeauty9") -> Reduced:
    return _counts(name, "numbers", BEAUTY)


# --------------------------------------------------------------------------- Colonel Blotto

BLOTTO = (
    "Each player's strategy is an *allocation* of its 13 circles to the three boards, written largest first "
    "and laid on the boards in a uniformly random order: Blotto's strategies are allocations (Borel 1921), "
    "and the boards are alike, so the random order is the textbook's symmetrisation (Roberson 2006). "
    "Placement order within an allocation does not matter (every space is cloaked, each player stacks on "
    "its own stacks)."
)


_BOARD = re.compile(r"@b(\d+):")


def allocation_table(game) -> tuple[list[tuple], dict]:
    """Colonel Blotto's reduced table: a strategy is an allocation of the
    player's pieces to the boards, written as a partition (largest first) and
    laid on the boards in a uniformly random order, independently for each
    player (the boards are alike). Returns (partitions, {(P, Q): exact
    expected return of player 0 with P against player 1 with Q}); refuses a
    game that is not two-player zero-sum or has a decision other than a board."""

    def boards_of(state):
        out = {}
        for a in state.legal_actions():
            m = _BOARD.search(state.action_to_string(a))
            if m is None:
                raise ValueError(f"{game}: action {state.action_to_string(a)!r} names no board")
            out.setdefault(int(m.group(1)) - 1, a)
        return out

    def play(alloc):
        state = game.new_initial_state()
        left = [list(a) for a in alloc]
        while not state.is_terminal():
            if state.is_chance_node():
                raise ValueError(f"{game}: allocation tables are for games without chance")
            p = state.current_player()
            options = boards_of(state)
            b = next((b for b in sorted(options) if left[p][b] > 0), None)
            if b is None:
                raise ValueError(f"{game}: player {p} cannot place on the boards it has pieces for")
            left[p][b] -= 1
            state.apply_action(options[b])
        returns = state.returns()
        if game.num_players() != 2 or returns[0] + returns[1] != 0:
            raise ValueError(f"{game}: allocation tables are for two-player zero-sum games")
        return Fraction(returns[0]).limit_denominator(1)

    state = game.new_initial_state()
    nboards = len(boards_of(state))
    total = 0
    while not state.is_terminal():  # pieces per player: play everything on board 1
        if state.current_player() == 0:
            total += 1
        state.apply_action(boards_of(state)[0])
    parts = sorted(
        {
            tuple(sorted(c, reverse=True))
            for c in product(range(total + 1), repeat=nboards)
            if sum(c) == total
        },
        reverse=True,
    )
    cache = {}
    table = {}
    for P in parts:
        for Q in parts:
            perms = list(permutations(Q))
            values = []
            for q in perms:
                if (P, q) not in cache:
                    cache[(P, q)] = play((P, q))
                values.append(cache[(P, q)])
            table[(P, Q)] = sum(values, Fraction(0)) / len(values)
    return parts, table


def blotto(name: str = "3Blotto13") -> Reduced:
    parts, t = allocation_table(_load(name))
    names = ["-".join(map(str, P)) for P in parts]
    arr = np.zeros((2, len(parts), len(parts)))
    exact = {}
    for i, P in enumerate(parts):
        for j, Q in enumerate(parts):
            arr[0, i, j], arr[1, i, j] = float(t[(P, Q)]), -float(t[(P, Q)])
            exact[(i, j)] = (t[(P, Q)], -t[(P, Q)])
    return Reduced(
        name,
        BLOTTO,
        table=NormalFormGame(arr, strategy_names=[names, names]),
        meaning={"allocations": [parts, parts], "permuted": True},
        exact=exact,
    )


# --------------------------------------------------------------------------- trust: send k, return j

TRUST = (
    "Black (the investor) *sends k* of its reserve circles onto white's X (which doubles them into white's "
    "reserve) and keeps the rest on its own stack; white (the trustee), seeing k, *returns j* of the circles "
    "it then holds onto black's pentagon (which converts them to black) and keeps the rest on the X's stack: "
    "the investment game's strategies, amounts sent and returned (Berg, Dickhaut & McCabe 1995). Which of "
    "the pieces go first does not change any value (checked by a test); Chaos then plays at random as always."
)


def _place(state, player_colour: str, stack: int, shape: str = "circle"):
    return _by_name(state, f"{player_colour}@stack({stack},1) {shape}")


def trust(name: str) -> Reduced:
    """The investment tree: Decision(0, {send k: Decision(1, {return j: returns})})."""
    game = _load(name)
    start = game.new_initial_state()
    reserve, probe = 0, start.clone()
    while not probe.is_terminal() and probe.current_player() == 0:
        reserve += 1
        probe.apply_action(_place(probe, "black", 1))
    moves, exact = {}, {}
    for k in range(reserve + 1):
        state = start.clone()
        for i in range(reserve):
            state.apply_action(_place(state, "black", 2 if i < k else 1))
        held, probe = 0, state.clone()
        while not probe.is_terminal() and probe.current_player() == 1:
            held += 1
            probe.apply_action(_place(probe, "white", 2))
        answers = {}
        for j in range(held + 1):
            placed = [0]

            def choose(s, j=j, placed=placed):
                if s.current_player() != 1:
                    raise ValueError(f"{name}: a decision of player {s.current_player()} after white's")
                placed[0] += 1
                return _place(s, "white", 3 if placed[0] <= j else 2)

            v = expected_returns(state.clone(), choose)
            exact[(k, j)] = v
            answers[f"return {j}"] = tuple(float(x) for x in v)
        moves[f"send {k}"] = Decision(1, answers) if held else next(iter(answers.values()))
    return Reduced(name, TRUST, tree=Decision(0, moves), exact=exact)


# ------------------------------------------------------------------ ultimatum: offer k, accept or reject

ULTIMATUM = (
    "Black (the proposer) *offers k* of its 3 circles: it places k on its own stack, on the white pentagon "
    "(which converts the first to white), and keeps the rest on the shared stack; white (the responder), "
    "seeing k, *accepts* (its X on its own stack, removing one of Chaos's circles there) or *rejects* (its X "
    "on the shared stack, removing the top circle black kept): the ultimatum game's offers and answers "
    "(Güth, Schmittberger & Schwarze 1982). Offers are placed first on black's stack, then on the shared "
    "one; Chaos then plays at random as always."
)


def ultimatum(name: str) -> Reduced:
    """The ultimatum tree: Decision(0, {offer k: Decision(1, {accept, reject}: returns)})."""
    game = _load(name)
    start = game.new_initial_state()
    reserve, probe = 0, start.clone()
    while not probe.is_terminal() and probe.current_player() == 0:
        reserve += 1
        probe.apply_action(_place(probe, "black", 2))

    def no_choice(s):
        raise ValueError(f"{name}: a player's decision after white's answer")

    moves, exact = {}, {}
    for k in range(reserve + 1):
        state = start.clone()
        for i in range(reserve):
            state.apply_action(_place(state, "black", 1 if i < k else 2))
        answers = {}
        for answer, stack in (("accept", 3), ("reject", 2)):
            v = expected_returns(state.child(_place(state, "white", stack, "x")), no_choice)
            exact[(k, answer)] = v
            answers[answer] = tuple(float(x) for x in v)
        moves[f"offer {k}"] = Decision(1, answers)
    return Reduced(name, ULTIMATUM, tree=Decision(0, moves), exact=exact)


# --------------------------------------------------------------------------- volunteer: stay or volunteer

VOLUNTEER = (
    "The full table (3 x 3 x 3: each player's piece on its own stack or on stack 5 or 6) is enumerated with "
    "a larger node budget than the doc's (its 280,793 nodes are Chaos's placements), then each player is "
    "given the volunteer's dilemma's two strategies (Diekmann 1985): *stay* (its own stack: the safe two in "
    "a row) or *volunteer* (its piece on stack 5 or 6, each with probability 1/2, independently: the two "
    "stacks are alike, each starting with a locked space, so neither is singled out). Cells are exact "
    "expectations over the volunteers' stacks and Chaos."
)


def volunteer(name: str = "3P-Volunteer", max_nodes: int = 1_000_000) -> Reduced:
    full = payoff_table(_load(name), max_profiles=1000, max_nodes=max_nodes)
    n = full.num_players
    own = []
    for p in range(n):
        labels = full.labels(p)
        stays = [i for i, lab in enumerate(labels) if f"stack({p + 1},1)" in lab]
        if len(stays) != 1:
            raise ValueError(f"{name}: player {p}'s own stack is not one of its strategies: {labels}")
        own.append(stays[0])
    exact = {}
    for prof in product((0, 1), repeat=n):  # 0 stay, 1 volunteer
        choices = [
            [own[p]] if prof[p] == 0 else [i for i in range(full.shape[p]) if i != own[p]] for p in range(n)
        ]
        cells = list(product(*choices))
        total = [Fraction(0)] * n
        for cell in cells:
            total = [t + _fraction(v) for t, v in zip(total, full.payoffs[cell], strict=True)]
        exact[prof] = tuple(t / len(cells) for t in total)
    names = [["stay", "volunteer"]] * n
    return Reduced(name, VOLUNTEER, table=_table(exact, (2,) * n, names, n), exact=exact)


# --------------------------------------------------------------------------- centipede: cover the pot or pass

CENTIPEDE = (
    "At each of its turns a player either *covers the shared stack with a circle* or *passes*: the shared "
    "stack is the centipede's pot (a circle converts everything under it, so a cover takes the whole pot "
    "and grows it by one), and passing is the only way the game stops (the phase ends when both pass in "
    "succession): Rosenthal's (1981) take-or-pass decisions as this encoding offers them. Pentagons and "
    "placements on a player's own stack are outside the family. The tree holds every sequence of those "
    "choices (perfect information); its leaves are exact expectations over Chaos's phase."
)


def centipede(name: str) -> Reduced:
    """The tree of "cover the shared stack with a circle" / "pass" decisions."""
    game = _load(name)
    colours = {0: "black", 1: "white"}
    exact = {}

    def no_choice(s):
        raise ValueError(f"{name}: a player's decision inside Chaos's phase")

    def build(state, path):
        if state.is_terminal() or state.is_chance_node():
            v = expected_returns(state, no_choice)
            exact[path] = v
            return tuple(float(x) for x in v)
        p = state.current_player()
        moves = {}
        legal = {state.action_to_string(p, a): a for a in state.legal_actions()}
        cover = f"{colours[p]}@stack(1,1) circle"
        if cover in legal:
            moves["cover"] = build(state.child(legal[cover]), path + ("cover",))
        if "pass" in legal:
            moves["pass"] = build(state.child(legal["pass"]), path + ("pass",))
        if not moves:
            raise ValueError(
                f"{name}: player {p} can neither cover the shared stack nor pass: {sorted(legal)}"
            )
        return Decision(p, moves)

    return Reduced(name, CENTIPEDE, tree=build(game.new_initial_state(), ()), exact=exact)


# ------------------------------------------------------- public goods: every strategy, with what it gives

PUBLIC_GOODS = (
    "Every strategy (the full table is small): in its one single round a player passes or moves its stack "
    "by stack onto the shared stack from a height h, *contributing* the circles at and above h; that count "
    "is what a voluntary-contribution player chooses (Isaac, Walker & Thomas 1984), so the table is "
    "checked against the linear public goods game with those contributions."
)


def public_goods(name: str = "3P-PublicGoods") -> Reduced:
    """The full table of 3P-PublicGoods with each strategy's contribution:
    a pass gives 0; "stack(x,1)@h->..." gives the circles from height h up of
    the player's stack at the start (its height - h + 1)."""
    game = _load(name)
    full = payoff_table(game, max_profiles=1000, max_nodes=100_000)
    n = full.num_players
    core = game.new_initial_state().core
    X, Y, Z = core.tab.params["size"]
    cells = core.cells()
    contributions = []
    for p in range(n):
        gives = []
        for lab in full.labels(p):
            m = re.fullmatch(r"stack\((\d+),(\d+)\)@(\d+)->stack\(\d+,\d+\)", lab)
            if lab == "pass":
                gives.append(0)
            elif m:
                t = int(m.group(1)) - 1 + X * (int(m.group(2)) - 1)
                height = sum(1 for z in range(Z) if cells[t + X * Y * z])
                gives.append(height - int(m.group(3)) + 1)
            else:
                raise ValueError(
                    f"{name}: player {p}'s strategy {lab!r} is neither a pass nor a move by stack"
                )
        contributions.append(gives)
    names = [full.labels(p) for p in range(n)]
    return Reduced(
        name,
        PUBLIC_GOODS,
        table=_table(full.payoffs, full.shape, names, n),
        meaning={"contributions": contributions},
        exact=dict(full.payoffs),
    )


# --------------------------------------------------------------------------- registry

#: dilemma -> builder of its reduced game
REDUCED = {
    "Shopping9": shopping,
    "Shopping9-Cloaked": shopping,
    "3Blotto13": blotto,
    "KBeauty9": beauty,
    "KBeauty9-LeastWins": beauty,
    "NeedyTrust": trust,
    "NeedyUltimatum": ultimatum,
    "NeedyUltimatum-MostCirclesWins": ultimatum,
    "RichUltimatum": ultimatum,
    "RichTrust": trust,
    "3P-Volunteer": volunteer,
    "Centipede9": centipede,
    "NeedyCentipede4": centipede,
    "3P-PublicGoods": public_goods,
}


def reduced(name: str) -> Reduced:
    """The reduced game of dilemma ``name`` (KeyError naming those that have one)."""
    if name not in REDUCED:
        raise KeyError(f"{name} has no reduced table (have: {', '.join(REDUCED)})")
    return REDUCED[name](name)


def classify_reduced(r: Reduced, encodes: str):
    """The verdict of solvers/classify.py on a reduced game, by the definition
    of the game it is meant to encode: the named classifiers with the family's
    meanings, the investment game for the trusts, the tree classifier for
    other trees, the payoff-order classifier otherwise."""
    if r.tree is not None:
        if encodes == "ultimatum":
            return classify_ultimatum(r.tree)
        return classify_investment(r.tree) if encodes == "trust" else classify_tree(r.tree)
    if encodes in NAMED:
        return classify_named(encodes, r.table, **r.meaning)
    return classify(r.table)


def summary(r: Reduced) -> dict:
    """A JSON-able record of a reduced game (for the study's records)."""
    out = {"family": r.family}
    if r.table is not None:
        out.update(
            shape=list(r.table.shape),
            strategies=r.table.strategy_names,
            payoffs=r.table.to_profiles().tolist(),
        )
    else:

        def nodes(x):
            return 1 + sum(nodes(c) for c in x.moves.values()) if isinstance(x, Decision) else 1

        out.update(tree_nodes=nodes(r.tree))
    return out

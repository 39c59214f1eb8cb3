"""Subgame-perfect outcomes of the ultimatum and dictator rule sets, and slip 17's
move limits (issue 13 item 4; docs/rules/dilemmas.md).

Why two computations: ``solvers.normal_form.backward_induction`` gives one
subgame-perfect equilibrium (ties broken to the lowest action); ``spe_values``
here is an independent slow reference that lists the payoffs of *every* pure
subgame-perfect equilibrium (at a decision, a child's equilibrium value is
reachable when it beats the worst equilibrium value of every other child for
the mover). The first must be among the second, and the docs quote the second.

The textbook (Gueth, Schmittberger & Schwarze 1982 for the ultimatum game; the
dictator game is its responder-less variant): in the subgame-perfect outcome the
proposer (dictator) keeps everything and the responder accepts. Each test
asserts what the encoding gives, in the game's own moves: black's circle on
stack (1,1), under white's pentagon, is given (converted to white); on the
shared stack (2,1) it is kept; white's X on (2,1) destroys what black kept
(rejects), on (3,1) it leaves it (accepts).
"""

import json
from fractions import Fraction

import pyspiel

import games  # noqa: F401
from games.ttt import rules
from solvers.normal_form import backward_induction
from ttt_checks import walk_endings

GIVE, KEEP = "stack(1,1)", "stack(2,1)"
REJECT, ACCEPT = "white@stack(2,1) x", "white@stack(3,1) x"


def _f(x) -> Fraction:
    return Fraction(x).limit_denominator(1 << 12)


def spe_values(state, memo=None) -> frozenset:
    """Every payoff vector of a pure subgame-perfect equilibrium of the subgame at ``state``."""
    memo = {} if memo is None else memo
    key = tuple(state.history())
    if key in memo:
        return memo[key]
    if state.is_terminal():
        out = frozenset([tuple(_f(r) for r in state.returns())])
    elif state.is_chance_node():
        acc = {tuple(Fraction(0) for _ in range(state.num_players()))}
        for action, p in state.chance_outcomes():
            sub = spe_values(state.child(action), memo)
            acc = {tuple(x + _f(p) * y for x, y in zip(u, v)) for u in acc for v in sub}
        out = frozenset(acc)
    else:
        p = state.current_player()
        kids = {a: spe_values(state.child(a), memo) for a in state.legal_actions()}
        worst = {a: min(v[p] for v in vs) for a, vs in kids.items()}
        out = frozenset(
            v for a, vs in kids.items() for v in vs if all(v[p] >= worst[b] for b in kids if b != a)
        )
    memo[key] = out
    return out


def _expected(state):
    if state.is_terminal():
        return tuple(_f(r) for r in state.returns())
    assert state.is_chance_node()
    total = [Fraction(0)] * state.num_players()
    for action, p in state.chance_outcomes():
        total = [t + _f(p) * v for t, v in zip(total, _expected(state.child(action)))]
    return tuple(total)


def outcomes(name):
    """{black's three placements as 'give'/'keep': {white's answer or None: payoffs}}."""
    game = pyspiel.load_game(f"ttt(rules={name})")
    out = {}

    def walk(state, plan):
        if state.is_terminal() or state.is_chance_node():
            out.setdefault(tuple(plan[:3]), {})[plan[3] if len(plan) > 3 else None] = _expected(state)
            return
        p = state.current_player()
        for a in state.legal_actions():
            text = state.action_to_string(p, a)
            label = text if p == 1 else ("give" if GIVE in text else "keep" if KEEP in text else text)
            walk(state.child(a), plan + [label])

    walk(game.new_initial_state(), [])
    return game, out


def _path_strings(game, path):
    state, out = game.new_initial_state(), []
    for action in path:
        out.append(state.action_to_string(state.current_player(), action))
        state = state.child(action)
    return out


def _check_spe(game, values):
    bi = backward_induction(game)
    assert spe_values(game.new_initial_state()) == values
    assert tuple(_f(v) for v in bi.value) in values
    return bi


F = Fraction


def test_needy_ultimatum_subgame_perfect_play_is_the_textbooks_but_favours_the_responder():
    game, table = outcomes("NeedyUltimatum")
    assert len(table) == 8 and all(set(answers) == {REJECT, ACCEPT} for answers in table.values())
    # white never gains by rejecting, whatever black kept
    assert all(a[ACCEPT][1] > a[REJECT][1] for a in table.values())
    # the unique subgame-perfect outcome: black keeps all three, white accepts
    bi = _check_spe(game, frozenset({(F(1, 4), F(7, 8))}))
    assert _path_strings(game, bi.path) == ["black@stack(2,1) circle"] * 3 + [ACCEPT]
    # what the docs say: the responder does at least as well as the proposer in every cell
    assert all(v[1] >= v[0] for a in table.values() for v in a.values())


def test_rich_ultimatum_subgame_perfect_play_gives_the_proposer_the_win():
    game, table = outcomes("RichUltimatum")
    assert all(a[REJECT] == (-1, -1) for a in table.values())  # rejecting destroys both
    assert all(a[ACCEPT][1] > -1 for a in table.values())
    # every subgame-perfect equilibrium: black wins (1); black is indifferent between keeping
    # two circles (white 1/4) and keeping all three (white -1/2); white always accepts
    _check_spe(game, frozenset({(F(1), F(1, 4)), (F(1), F(-1, 2))}))
    keeps = {plan.count("keep"): a[ACCEPT] for plan, a in table.items()}
    assert keeps == {0: (F(5, 8), F(7, 8)), 1: (F(7, 8), F(5, 8)), 2: (F(1), F(1, 4)), 3: (F(1), F(-1, 2))}


def test_needy_dictator_gives_the_dictator_nothing_to_choose():
    game, table = outcomes("NeedyDictator")
    assert all(set(a) == {None} for a in table.values())
    assert {a[None][0] for a in table.values()} == {-1}  # black: -1 whatever it does
    assert table[("give",) * 3][None] == (-1, F(-1, 2))  # giving all three helps white
    assert all(a[None] == (-1, -1) for plan, a in table.items() if plan != ("give",) * 3)
    # every placement is subgame-perfect: keeping everything (textbook) and giving everything
    _check_spe(game, frozenset({(F(-1), F(-1)), (F(-1), F(-1, 2))}))


def test_rich_dictator_subgame_perfect_play_is_the_textbooks():
    game, table = outcomes("RichDictator")
    assert {a[None][1] for a in table.values()} == {-1}  # white: -1 whatever black does
    assert table[("keep",) * 3][None] == (F(-1, 2), -1)
    assert all(a[None] == (-1, -1) for plan, a in table.items() if plan != ("keep",) * 3)
    # the unique subgame-perfect outcome: the dictator keeps everything
    bi = _check_spe(game, frozenset({(F(-1, 2), F(-1))}))
    assert _path_strings(game, bi.path) == ["black@stack(2,1) circle"] * 3


def test_spe_reference_on_a_textbook_ultimatum():
    """The reference on the mini ultimatum game (offer 1 or 9 of 10; accept or reject):
    its SPE set, worked by hand, is the proposer's 9-1 split accepted."""
    from solvers.normal_form import Decision

    tree = Decision(
        0, {"low": Decision(1, {"a": (9, 1), "r": (0, 0)}), "high": Decision(1, {"a": (1, 9), "r": (0, 0)})}
    )
    assert backward_induction(tree).value.tolist() == [9, 1]


# -- slip 17 -------------------------------------------------------------------


def _with_limit(tmp_path, name, limit):
    path = tmp_path / f"{name}-{limit}.json"
    path.write_text(json.dumps({"name": f"limit{limit}", "extends": name, "move_limit": limit}))
    return pyspiel.load_game(f"ttt(rules={path})")


def test_slip_17_the_limits_are_30_and_20():
    assert rules.resolve("3P-9X-HideSeek").record["move_limit"] == 30
    assert rules.resolve("3P-PublicGoods").record["move_limit"] == 20


def test_slip_17_hide_seek_ends_by_its_limit(tmp_path):
    """30 plies is the game's length in play: every seeded random play ends by it; with a
    limit of 200 plays go on past 30 (the limit is a reading that shapes the game)."""
    import random

    def plays(game, n=12):
        out = []
        for seed in range(n):
            rng, s = random.Random(seed), game.new_initial_state()
            while not s.is_terminal():
                if s.is_chance_node():
                    acts, probs = zip(*s.chance_outcomes())
                    s.apply_action(rng.choices(acts, probs)[0])
                else:
                    s.apply_action(rng.choice(s.legal_actions()))
            stats = s.core.playout_stats()
            out.append((stats["ending"], stats["plies"]))
        return out

    assert set(plays(pyspiel.load_game("ttt(rules=3P-9X-HideSeek)"))) == {("move limit", 30)}
    assert max(p for _, p in plays(_with_limit(tmp_path, "3P-9X-HideSeek", 200))) > 30


def test_slip_17_public_goods_limit_never_binds(tmp_path):
    """The game ends by itself (the longest play is 15 plies, and a limit of 40
    is never reached); the catalogue's limit, ours, is chosen above that so it
    changes nothing: no history ends by it and the table is the one without a
    binding limit. (A limit of 12, this rule set's until this check, cut 5 of
    210 endings short and changed one cell of the table.)"""
    ours = walk_endings(pyspiel.load_game("ttt(rules=3P-PublicGoods)"))
    assert all(e != "move limit" for e, _ in ours)
    free = walk_endings(_with_limit(tmp_path, "3P-PublicGoods", 40))
    assert all(e != "move limit" for e, _ in free)
    assert max(p for _, p in free) == max(p for _, p in ours) == 15
    cut = walk_endings(_with_limit(tmp_path, "3P-PublicGoods", 12))
    assert sum(e == "move limit" for e, _ in cut) == 5  # why 12 was wrong
    from games.normal_form import payoff_table

    assert (
        payoff_table(pyspiel.load_game("ttt(rules=3P-PublicGoods)")).payoffs
        == payoff_table(_with_limit(tmp_path, "3P-PublicGoods", 40)).payoffs
    )

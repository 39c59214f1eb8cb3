"""The dilemmas (games/ttt/dilemmas.py, docs/rules/dilemmas.md): the list of
economic games the specification encodes and the catalogue's rule sets for
them; every reading chosen where the specification is unclear (the numbered
readings of docs/rules/dilemmas.md) pinned on the rule sets; the computed
tables are fresh in the docs and have the structure the docs state
(including where that is not the named game: a finding for the
specification's author); the subgame-perfect outcomes of the ultimatum and
dictator rule sets; the move limits that are ours; 3Blotto13 and
3P-9X-HideSeek played against the reference model (tests/ttt_reference/).

Subgame-perfect play is computed twice: ``solvers.normal_form.backward_induction``
gives one subgame-perfect equilibrium (ties broken to the lowest action);
``spe_values`` here is an independent slow reference that lists the payoffs of
*every* pure subgame-perfect equilibrium (at a decision, a child's equilibrium
value is reachable when it beats the worst equilibrium value of every other
child for the mover). The first must be among the second, and the docs quote
the second. The textbook (Gueth, Schmittberger & Schwarze 1982 for the
ultimatum game; the dictator game is its responder-less variant): in the
subgame-perfect outcome the proposer (dictator) keeps everything and the
responder accepts. Each test asserts what the encoding gives, in the game's
own moves: black's circle on stack (1,1), under white's pentagon, is given
(converted to white); on the shared stack (2,1) it is kept; white's X on
(2,1) destroys what black kept (rejects), on (3,1) it leaves it (accepts)."""

import json
import os
import random
import re
from fractions import Fraction
from itertools import product
from pathlib import Path

import pyspiel
import pytest

import games  # noqa: F401  (registers ttt)
from analysis import dilemmas_doc
from games.normal_form import payoff_table
from games.ttt import dilemmas, make_core, rules, sources
from games.ttt.dilemmas import DILEMMAS
from solvers.normal_form import backward_induction
from tiers import sweep
from ttt_checks import play, play_against_reference, walk_endings

#: the tic-tac-toe variations specification's own text (its dilemmas are its paragraphs
#: "NAME:"): not part of the project, so a test reads it where TTT_SPECIFICATION names it
SPECIFICATION = Path(os.environ["TTT_SPECIFICATION"]) if os.environ.get("TTT_SPECIFICATION") else None

# -- the list of dilemmas ---------------------------------------------------------------


def test_every_dilemma_names_a_known_economic_game_once():
    names = [d.name for d in dilemmas.DILEMMAS]
    assert len(names) == len(set(names)) == 26
    assert {d.encodes for d in dilemmas.DILEMMAS} <= set(dilemmas.ECONOMIC_GAMES)


def test_available_are_catalogue_rule_sets_in_the_specification_order():
    from games.ttt.resolve import CATALOGUE

    got = [d.name for d in dilemmas.available(variants=False)]
    assert all(name in CATALOGUE for name in got)
    assert got == [d.name for d in dilemmas.DILEMMAS if d.name in got]
    with_variants = [d.name for d in dilemmas.available()]
    assert with_variants == got + [v.name for v in dilemmas.VARIANTS if v.name in CATALOGUE]


def test_the_names_are_the_specifications():
    if SPECIFICATION is None:
        pytest.skip("set TTT_SPECIFICATION to the tic-tac-toe variations specification's file")
    listed = re.search(r"RockPaperScissors,.*?StagHunt\.", SPECIFICATION.read_text(), re.S).group(0)
    listed_names = [re.sub(r"^and\s+", "", n.strip(" .\n")) for n in re.split(r",\s*", listed)]
    ours = {d.name for d in dilemmas.DILEMMAS}
    assert set(listed_names) <= ours
    # every other one is a paragraph "NAME:" of the specification, except the unnamed one
    headings = set(re.findall(r"^([\w-]+):\s*$", SPECIFICATION.read_text(), re.M))
    assert ours - set(listed_names) - headings == {"4P-AnyPieceLoses"}


# -- the catalogue's rule sets and the docs' computed tables --------------------------

CATALOGUE = sources.CATALOGUE

LOADABLE = [
    "4P-TrendSetter",
    "4P-AnyPieceLoses",
    "3Blotto13",
    "KBeauty9",
    "BoS",
    "3P-BoS",
    "Shopping9",
    "PrisonerDilemma",
    "RockPaperScissors",
    "StagHunt",
    "3P-Volunteer",
    "ContractHunt",
    "ContractPD",
    "NeedyUltimatum",
    "Centipede9",
    "NeedyTrust",
    "OptionalPD",
    "NeedyDictator",
    "RichTrust",
    "RichUltimatum",
    "RichDictator",
    "NeedyCentipede4",
    "3P-9X-HideSeek",
    "4P-TrolleyDilemma",
    "3P-TrolleyDilemma",
    "3P-PublicGoods",
]

# Refused by the engine today (docs/rules/dilemmas.md says what each needs): none.
REFUSED = []


def raw(name):
    """The rule set's file as written (extends unresolved); skip while the
    rule set waits for the captures/stacks vocabulary outside the catalogue."""
    path = sources.CATALOGUE_DIR / f"{name}.json"
    if not path.exists():
        pytest.skip(f"{name} is not in the catalogue yet (needs captures or stacks)")
    return json.loads(path.read_text())


def resolved(name):
    raw(name)
    return rules.resolve(name).record


def table(name):
    return payoff_table(pyspiel.load_game(f"ttt(rules={name})"))


def test_the_loadable_dilemmas_are_in_the_catalogue_and_the_refused_are_not():
    for name in LOADABLE:
        assert name in CATALOGUE
        rules.resolve(name)
    assert not set(REFUSED) & set(CATALOGUE.names())
    assert set(LOADABLE) | set(REFUSED) == {d.name for d in DILEMMAS}


def _endings(name):
    """Every terminal's ending and ply count, walking the whole tree."""
    return walk_endings(pyspiel.load_game(f"ttt(rules={name})"))


@pytest.mark.parametrize("name, longest", [("NeedyTrust", 9), ("RichTrust", 15)])
def test_the_trust_games_move_limit_never_binds(name, longest):
    # move_limit is required with reincarnation; ours must not change the game
    # the specification describes: no terminal ends by it, and the longest play is far below.
    endings = _endings(name)
    assert all(e != "move limit" for e, _ in endings)
    assert max(p for _, p in endings) == longest < rules.resolve(name).record["move_limit"]


# Blocks whose computation walks tens of thousands of tree nodes (the refusal's
# count) and, for Blotto, plays 2,000 allocations, or takes seconds (the
# centipedes' cover-or-pass trees, HideSeek's strategy count): checked by the
# slow test, the full tier's.
def test_the_doc_has_a_section_and_a_computed_block_for_every_dilemma():
    """The tables' freshness is tests/test_dilemmas_doc.py's concern; here every
    dilemma the engine knows has its place on the pages."""
    text = "".join(page.read_text() for page in dilemmas_doc.pages(dilemmas_doc.DOC))
    named = dilemmas.DILEMMAS + dilemmas.VARIANTS
    assert set(dilemmas_doc.blocks(text)) == {d.name for d in named} | {dilemmas_doc.READINGS_BLOCK}
    for d in named:
        assert f"\n## {d.name}\n" in text


def test_no_dilemma_has_a_turn_check_except_the_any_piece_rules():
    for d in DILEMMAS:
        if d.name in CATALOGUE:
            checks = rules.resolve(d.name).record["turn_checks"]
            assert checks in ([], ["any-piece-wins"], ["any-piece-loses"], ["goal-reached-stalemate"]), d.name


# -- the readings chosen where the specification is unclear (docs/rules/dilemmas.md,
# its numbered table of readings) ----------------------------------------------------


# docs/rules/dilemmas.md, readings 1 and 2
def test_reading_prisoners_dilemma_stacks():
    for name in ("PrisonerDilemma", "ContractPD"):
        r = resolved(name)
        assert r["board"]["kind"] == "stacks" and r["board"]["size"] == [5, 1, 2]
        who = {tuple(c[:2]): tuple(g["players"]) for g in r["board"]["exclusive"] for c in g["at"]}
        assert who[(1, 1)] == (1,) and who[(3, 1)] == (2,) and who[(4, 1)] == ("chaos",)
        assert (5, 1) not in who and [2, 1, 1] in r["board"]["locked"]


# docs/rules/dilemmas.md, readings 3, 4, 8 and 15
def test_reading_hide_seek_board_goals_captures_and_moves():
    r = resolved("3P-9X-HideSeek")
    assert r["board"]["size"] == [5, 7, 1] and "goal-reached-stalemate" in r["turn_checks"]
    nine = next(g for g in r["board"]["exclusive"] if g["players"] == [1, 2, 3])
    assert sorted(tuple(c[:2]) for c in nine["at"]) == [(x, y) for x in (3, 4, 5) for y in (3, 4, 5)]
    assert r["shapes"]["pentagon"]["result"] == "removes"
    assert r["shapes"]["circle"]["move"] == "adjacent-or-knight"


# docs/rules/dilemmas.md, reading 5
def test_reading_trolley_reincarnates_x2():
    for name in ("4P-TrolleyDilemma", "3P-TrolleyDilemma"):
        assert resolved(name)["shapes"]["pentagon"]["result"] == "reincarnates-x2"


# docs/rules/dilemmas.md, reading 6
def test_reading_bos_remaining_spaces_locked_per_board():
    r = resolved("BoS")
    entries = {tuple(e["boards"]): e for e in r["board"]["on_boards"]}
    assert entries[(1,)]["locked"] == [[2, 2, 1]] and entries[(2,)]["locked"] == [[2, 1, 1]]
    assert entries[(1,)]["exclusive"] == [{"at": [[2, 1, 1]], "players": ["chaos"]}]
    assert entries[(2,)]["exclusive"] == [{"at": [[2, 2, 1]], "players": ["chaos"]}]


# docs/rules/dilemmas.md, reading 7
def test_reading_the_unnamed_paragraph_is_4p_any_piece_loses():
    r = resolved("4P-AnyPieceLoses")
    trend = resolved("4P-TrendSetter")
    assert r["turn_checks"] == ["any-piece-loses"] and r["stalemate"] == "all-win"
    assert {k: v for k, v in r.items() if k not in ("turn_checks", "stalemate")} == {
        k: v for k, v in trend.items() if k not in ("turn_checks", "stalemate")
    }


# docs/rules/dilemmas.md, reading 9
def test_reading_yellow_is_chaos_in_two_player_chaos_games():
    for name in (
        "NeedyTrust",
        "RichTrust",
        "NeedyUltimatum",
        "NeedyDictator",
        "RichUltimatum",
        "RichDictator",
        "Centipede9",
        "NeedyCentipede4",
    ):
        r = resolved(name)
        assert r["players"] == "2-vs-chaos"
        assert "yellow" not in r["reserves"] and r["reserves"]["pink"]["circle"] > 0
        assert all(q["colour"] != "yellow" for q in r["board"]["pieces"])


# docs/rules/dilemmas.md, reading 10
def test_reading_three_player_bos():
    r = resolved("3P-BoS")
    assert r["players"] == "3-vs-chaos" and r["boards"] == 3
    assert r["reserves"] == {c: {"circle": 1} for c in ("black", "white", "pink", "yellow")}


# docs/rules/dilemmas.md, reading 11
def test_reading_and_likes_extend_their_parents():
    for name, parent in (
        ("NeedyCentipede4", "Centipede9"),
        ("RichTrust", "NeedyTrust"),
        ("NeedyDictator", "NeedyUltimatum"),
        ("RichUltimatum", "NeedyUltimatum"),
        ("RichDictator", "RichUltimatum"),
        ("OptionalPD", "PrisonerDilemma"),
    ):
        assert raw(name)["extends"] == parent
    assert "x" not in resolved("NeedyDictator")["reserves"].get("white", {})
    assert resolved("OptionalPD")["agree_draw"] is True


# docs/rules/dilemmas.md, reading 12
def test_reading_rock_paper_scissors_most_pieces():
    assert resolved("RockPaperScissors")["stalemate"] == "most-pieces-wins"


# docs/rules/dilemmas.md, reading 13
def test_reading_volunteer_fourth_stack_is_chaos():
    r = resolved("3P-Volunteer")
    who = {tuple(c[:2]): tuple(g["players"]) for g in r["board"]["exclusive"] for c in g["at"]}
    assert who[(4, 1)] == ("chaos",) and who[(3, 1)] == (3,)


# docs/rules/dilemmas.md, reading 14
def test_reading_shopping_hides_nothing():
    r = resolved("Shopping9")
    assert r["cloaking"] == "hides" and not any(ph["cloaked"] for ph in r["phases"])
    assert r["chaos_wins_if_more_than"] == {"circle": 9} and r["stalemate"] == "least-pieces-loses"


# docs/rules/dilemmas.md, reading 16
def test_reading_ultimatum_pentagon_on_top():
    r = resolved("NeedyUltimatum")
    stack1 = sorted((q["at"][2], q["shape"]) for q in r["board"]["pieces"] if q["at"][:2] == [1, 1])
    assert stack1 == [(1, "circle"), (2, "circle"), (3, "circle"), (4, "pentagon")]


# -- the computed tables' structure ------------------------------------------------


def test_bos_is_zero_sum_and_its_only_pure_equilibrium_is_parting():
    """The finding of docs/rules/dilemmas.md: not a battle of the sexes."""
    t = table("BoS")
    half = Fraction(1, 2)
    assert t.payoffs[(0, 0)] == (half, -half) and t.payoffs[(1, 1)] == (-half, half)
    assert t.payoffs[(0, 1)] == t.payoffs[(1, 0)] == (0, 0)
    assert all(sum(v) == 0 for v in t.payoffs.values())
    assert dilemmas_doc.pure_equilibria(t) == [(0, 1)]


def test_three_player_bos_is_a_draw_whatever_they_do():
    t = table("3P-BoS")
    assert set(t.payoffs.values()) == {(0, 0, 0)}


@pytest.mark.parametrize("name, together, alone", [("4P-TrendSetter", -1, 1), ("4P-AnyPieceLoses", 1, -1)])
def test_four_player_line_games(name, together, alone):
    """All on one space: every piece destroyed, the stalemate rule for all.
    Three on one space and one alone: the lone piece's check decides for its
    owner only (wins / loses), every other player gets the opposite."""
    t = table(name)
    labels = [t.labels(p) for p in range(4)]
    for profile in t.profiles():
        spaces = [labels[p][s].split("@")[1] for p, s in enumerate(profile)]
        if len(set(spaces)) == 1:
            assert t.payoffs[profile] == (together,) * 4
        elif sorted(spaces.count(x) for x in set(spaces)) == [1, 3]:
            lone = next(p for p in range(4) if spaces.count(spaces[p]) == 1)
            assert t.payoffs[profile][lone] == alone
            assert all(t.payoffs[profile][p] == -alone for p in range(4) if p != lone)


def test_shopping_count_table_is_a_common_pool():
    """Reduced table (strategy = circles bought): Chaos wins, both lose, exactly
    when more than 9 circles are bought in total; buying nothing loses."""
    shape, t = dilemmas_doc.count_table(pyspiel.load_game("ttt(rules=Shopping9)"))
    assert shape == [10, 8]
    for (k, j), v in t.items():
        assert (v == (-1, -1)) == (k + j > 9), (k, j, v)
    assert all(t[(0, j)][0] == -1 for j in range(8))
    for (k, j), v in t.items():  # one more never hurts its buyer while the total stays <= 9
        if k + j + 1 <= 9:
            assert k == 9 or t[(k + 1, j)][0] >= v[0]
            assert j == 7 or t[(k, j + 1)][1] >= v[1]


def test_blotto_reduced_table_is_symmetric_zero_sum_without_pure_equilibrium():
    """Colonel Blotto (3 battlefields, 13 each): the reduced table by the
    boards' symmetry is antisymmetric (the players are alike: everything is
    hidden, so moving first is no advantage) and has no pure equilibrium, as
    the textbook game."""
    parts, t = dilemmas_doc.allocation_table(pyspiel.load_game("ttt(rules=3Blotto13)"))
    assert len(parts) == 21 and parts[0] == (13, 0, 0)
    assert all(t[(P, Q)] == -t[(Q, P)] for P in parts for Q in parts)
    assert t[((5, 4, 4), (13, 0, 0))] == 1
    assert not [
        (P, Q)
        for P in parts
        for Q in parts
        if all(t[(P, Q)] >= t[(R, Q)] for R in parts) and all(t[(P, Q)] <= t[(P, S)] for S in parts)
    ]


def _longest_play(name):
    """The longest play in plies over distinct positions (the ply count left
    out of a position), and whether a position repeats along a play (a cycle:
    then only the move limit would end the game)."""
    import sys

    game = pyspiel.load_game(f"ttt(rules={name})")
    memo, open_, cycles = {}, set(), [0]

    def key(s):
        tab, block, scalars = s.core.__reduce__()[1]
        scalars = list(scalars)
        scalars[4] = None  # plies
        return tuple(block), repr(scalars), s.is_chance_node()

    def longest(s):
        if s.is_terminal():
            assert s.core.playout_stats()["ending"] != "move limit"
            return 0
        k = key(s)
        if k in memo:
            return memo[k]
        if k in open_:
            cycles[0] += 1
            return 0
        open_.add(k)
        acts = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
        v = 1 + max(longest(s.child(a)) for a in acts)
        open_.discard(k)
        memo[k] = v
        return v

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 10_000))
    try:
        return longest(game.new_initial_state()), cycles[0]
    finally:
        sys.setrecursionlimit(old)


@pytest.mark.parametrize("name, longest", [("NeedyTrust", 9), ("RichTrust", 15)])
def test_longest_play_walk_agrees_with_the_tree(name, longest):
    assert _longest_play(name) == (longest, 0)


@pytest.mark.slow
def test_the_centipede_move_limit_never_binds():
    # 3.4 million positions, about 2 minutes and 4 GB: slow.
    assert _longest_play("Centipede9") == (113, 0)
    assert rules.resolve("Centipede9").record["move_limit"] == 200


def test_prisoners_dilemma_table_is_no_dilemma():
    # Finding (docs/rules/dilemmas.md, PrisonerDilemma): one strictly dominant
    # strategy each, and the dominant pair is the better symmetric outcome.
    t = table("PrisonerDilemma")
    assert t.shape == (2, 2)
    v = t.payoffs
    assert v[(0, 0)][0] > v[(1, 0)][0] and v[(0, 1)][0] > v[(1, 1)][0]
    assert v[(0, 0)][1] > v[(0, 1)][1] and v[(1, 0)][1] > v[(1, 1)][1]
    assert v[(0, 0)] == (Fraction(8, 27),) * 2 and v[(1, 1)] == (Fraction(-179, 729),) * 2
    assert dilemmas_doc.pure_equilibria(t) == [(0, 0)]
    assert table("OptionalPD").payoffs == v


def test_stag_hunt_table_has_one_equilibrium_not_two():
    t = table("StagHunt")
    assert dilemmas_doc.pure_equilibria(t) == [(0, 0)]
    assert t.payoffs[(0, 0)] == (Fraction(7, 27),) * 2


# -- the Trolley dilemmas --------------------------------------------------------


@pytest.mark.parametrize("name", ["4P-TrolleyDilemma", "3P-TrolleyDilemma"])
def test_trolley_move_limit_never_binds_and_no_pot_is_split(name):
    """The move limit (ours, required with reincarnation) is never reached,
    and the pot split that made validation refuse the game never happens
    (the only cover is black's circle on white's lone pentagon: one captor)."""
    endings = _endings(name)
    assert all(e != "move limit" for e, _ in endings)
    assert max(p for _, p in endings) < rules.resolve(name).record["move_limit"]
    stack = [pyspiel.load_game(f"ttt(rules={name})").new_initial_state()]
    while stack:
        s = stack.pop()
        assert s.core.pending_pot() is None
        if s.is_terminal():
            continue
        if s.is_simultaneous_node():
            for joint in _joint_actions(s):
                child = s.clone()
                child.apply_actions(list(joint))
                stack.append(child)
            continue
        acts = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
        stack.extend(s.child(a) for a in acts)


def _joint_actions(state):
    return list(product(*(state.legal_actions(p) for p in range(state.num_players()))))


def test_trolley_4p_acting_moves_the_loss_from_two_players_to_one():
    t = table("4P-TrolleyDilemma")
    act, wait = (t.labels(0).index(x) for x in ("black@stack(1,1) circle", "pass"))
    assert t.shape == (2, 1, 1, 1)
    assert tuple(t.payoffs[(act, 0, 0, 0)]) == (1, -1, 1, 1)  # white (a line of 4) loses alone
    assert tuple(t.payoffs[(wait, 0, 0, 0)]) == (1, 1, -1, -1)  # pink and yellow (lines of 3) lose


def test_trolley_3p_has_chaos_phase_and_one_player_on_each_track():
    r = resolved("3P-TrolleyDilemma")
    assert len(r["phases"]) == 3 and r["phases"][2]["pass"] and r["phases"][2]["locked_players"] == [1, 2, 3]
    assert r["phases"][0]["order"] == "single" and r["phases"][0]["locked_players"] == [2, 3, "chaos"]
    t = table("3P-TrolleyDilemma")
    act, wait = (t.labels(0).index(x) for x in ("black@stack(1,1) circle", "pass"))
    assert tuple(t.payoffs[(act, 0, 0)]) == (1, Fraction(-509, 512), 1)
    assert tuple(t.payoffs[(wait, 0, 0)]) == (1, 1, Fraction(-119, 128))
    assert sum(t.payoffs[(wait, 0, 0)]) > sum(t.payoffs[(act, 0, 0)])  # the social optimum is to pass


# -- the public goods pot ---------------------------------------------------------


def test_reading_public_goods_pot_is_shared_by_all_three():
    """Reading 19 (docs/rules/dilemmas.md): black
    ties white and pink on the shared stack (a singleton pentagon each under
    the poker rank; the circles are chips), so all three split black's
    contribution, as a public goods game shares it with every player, the
    contributor too. As played (docs/rules/ttt/pots.md, "A mover
    captured by converting or reincarnating defenders"):
    black's powerless circle is taken by the pentagons that
    reincarnate x2, so the whole-stack showdown is held; its captors are the
    three seats, each keeps its pentagon, and the circle, doubled, is dealt
    round-robin from a random start (1/3 each): the starter and the next
    seat get one circle each."""
    core = make_core(rules.resolve("3P-PublicGoods"))
    texts = {core.action_string(0, a): a for a in core.legal_action_list()}
    core.apply_action(texts["stack(1,1)@1->stack(5,1)"])
    for player in (1, 2):
        texts = {core.action_string(player, a): a for a in core.legal_action_list()}
        core.apply_action(texts["pass"])
    assert core.pending_pot() == {
        "target": 4,
        "shape": None,
        "pieces": 2,
        "captors": ["black", "white", "pink"],
    }
    assert [(a, p) for a, p in core.chance_outcome_list()] == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    names = ["black", "white", "pink"]
    for start in range(3):
        dealt = core.clone()
        dealt.apply_action(start)
        res = dealt.shape_reserves()
        got = {names[start], names[(start + 1) % 3]}
        assert {c: res[c]["circle"] for c in names} == {c: int(c in got) for c in names}, start
        assert res[names[(start + 2) % 3]]["pentagon"] == 0


# -- subgame-perfect outcomes of the ultimatum and dictator rule sets --------------------

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
            acc = {tuple(x + _f(p) * y for x, y in zip(u, v, strict=True)) for u in acc for v in sub}
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
        total = [t + _f(p) * v for t, v in zip(total, _expected(state.child(action)), strict=True)]
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


# -- the move limits that are ours (reading 17) -------------------------------------------


def _with_limit(tmp_path, name, limit):
    path = tmp_path / f"{name}-{limit}.json"
    path.write_text(json.dumps({"name": f"limit{limit}", "extends": name, "move_limit": limit}))
    return pyspiel.load_game(f"ttt(rules={path})")


# docs/rules/dilemmas.md, reading 17
def test_reading_move_limits_hide_seek_30_public_goods_20():
    assert rules.resolve("3P-9X-HideSeek").record["move_limit"] == 30
    assert rules.resolve("3P-PublicGoods").record["move_limit"] == 20


def test_hide_seek_ends_by_its_move_limit(tmp_path):
    """30 plies is the game's length in play: every seeded random play ends by it; with a
    limit of 200 plays go on past 30 (the limit is a reading that shapes the game)."""

    def plays(game, n=12):
        out = []
        for seed in range(n):
            rng, s = random.Random(seed), game.new_initial_state()
            while not s.is_terminal():
                if s.is_chance_node():
                    acts, probs = zip(*s.chance_outcomes(), strict=True)
                    s.apply_action(rng.choices(acts, probs)[0])
                else:
                    s.apply_action(rng.choice(s.legal_actions()))
            stats = s.core.playout_stats()
            out.append((stats["ending"], stats["plies"]))
        return out

    assert set(plays(pyspiel.load_game("ttt(rules=3P-9X-HideSeek)"))) == {("move limit", 30)}
    assert max(p for _, p in plays(_with_limit(tmp_path, "3P-9X-HideSeek", 200))) > 30


def test_public_goods_move_limit_never_binds(tmp_path):
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
    assert (
        payoff_table(pyspiel.load_game("ttt(rules=3P-PublicGoods)")).payoffs
        == payoff_table(_with_limit(tmp_path, "3P-PublicGoods", 40)).payoffs
    )


# -- 3Blotto13 -------------------------------------------------------------------

BLOTTO13 = {
    "name": "3Blotto13-test",
    "notes": "Played on 3 boards of 2x1x13 stacks: first stack exclusive to black, second stack exclusive to "
    "white; Most pieces wins, Cloaking hides; Circle: 13 black and 13 white start in reserve; "
    "All spaces cloaked",
    "boards": 3,
    "board": {
        "kind": "stacks",
        "size": [2, 1, 13],
        "exclusive": [{"at": [[1, 1]], "players": [1]}, {"at": [[2, 1]], "players": [2]}],
    },
    "reserves": {"black": 13, "white": 13},
    "turn_checks": [],
    "stalemate": "most-pieces-wins",
    "cloaking": "hides",
    "phases": [{"cloaked": [[x, 1, z] for x in (1, 2) for z in range(1, 14)]}],
}


def test_3blotto13_plays_colonel_blotto_against_the_reference():
    """3Blotto13 as the tic-tac-toe variations specification words it: each player spreads 13 hidden pieces
    over its own stack on three boards; each board goes to the larger force
    ("Most pieces wins" per board) and the most boards win. Every cell of
    every board is cloaked, so neither player sees the other's allocation."""
    rs = rules.parse(BLOTTO13)
    c = make_core(rs)
    assert len(c.cloaked_cells()) == 3 * 2 * 13
    play_against_reference(rs, games=sweep(full=4, quick=2), seed=13)
    # black 7-3-3 against white 5-5-3: black wins board 1, white board 2,
    # board 3 is drawn; one board each is a draw
    plan_black, plan_white = [0] * 7 + [2] * 3 + [4] * 3, [1] * 5 + [3] * 5 + [5] * 3
    c = make_core(rs)
    for b, w in zip(plan_black, plan_white, strict=True):
        play(c, [b, w])
    assert c.terminal() and c.board_results() == [[1, -1], [-1, 1], [0, 0]]
    assert c.returns_list() == [0.0, 0.0]
    assert c.player_view(1)[:2] == [".", "o"]  # white never saw black's pieces


# -- 3P-9X-HideSeek: in the catalogue, against the reference, and what it encodes ------------


def hide_seek():
    return rules.resolve("3P-9X-HideSeek")


def test_hide_seek_matches_reference():
    play_against_reference(hide_seek(), games=sweep(full=6, quick=2), seed=5, shape_views=True)


@pytest.mark.slow
def test_hide_seek_matches_reference_long():
    play_against_reference(hide_seek(), games=60, seed=9, shape_views=True)


def test_hide_seek_random_sim_test():
    """With serialisation; the default tier's one play stands in for the
    catalogue-wide random_sim_test of test_ttt_openspiel.py, whose 30 plays of
    this rule set run in the full tier."""
    pyspiel.random_sim_test(
        pyspiel.load_game("ttt(rules=3P-9X-HideSeek)"),
        num_sims=sweep(full=3, quick=1),
        serialize=True,
        verbose=False,
    )


def test_hide_seek_is_a_dilemma_the_study_can_load():
    assert "3P-9X-HideSeek" in [d.name for d in dilemmas.available()]
    game = pyspiel.load_game("ttt(rules=3P-9X-HideSeek)")
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.num_players() == 3


def test_hide_seek_finding_pink_always_has_most_circles():
    """Under the catalogue's reading pink starts with 18 circles in the ring
    (the specification's "pink circles in all remaining non-locked chaos-exclusive
    spaces"; pink is the third player's colour, Chaos is yellow), nobody but
    Chaos's pentagon can take them, and Chaos moves at most once in four of
    the 30 plies (8 times): pink keeps at least 10 circles against black's
    and white's one each, so "Most circles wins" gives pink the win in every play
    (docs/rules/dilemmas.md, 3P-9X-HideSeek). The goals (y=7, x=1, y=1) lie
    in Chaos's exclusive spaces, where no player's piece may go, so "Statemate
    if goal is reached" never fires."""
    rs = hide_seek()
    r = rs.record
    assert sum(1 for q in r["board"]["pieces"] if q["colour"] == "pink" and q["shape"] == "circle") == 18
    assert r["move_limit"] == 30
    rng = random.Random(4)
    for _ in range(sweep(full=40, quick=5)):
        core = make_core(rs)
        while not core.terminal():
            acts = (
                [a for a, _ in core.chance_outcome_list()]
                if core.player() == -1
                else core.legal_action_list()
            )
            core.apply_action(rng.choice(acts))
        assert core.returns_list() == [-1.0, -1.0, 1.0]
    nine = next(g for g in r["board"]["exclusive"] if g["players"] == [1, 2, 3])["at"]
    core = make_core(rs)
    for seat in range(3):
        assert all(core.goal_distance(seat, (x - 1) + 5 * (y - 1)) > 0 for x, y, _ in nine)


def test_hide_seek_follows_its_paragraph_of_the_specification():
    """The specification's 3P-9X-HideSeek paragraph sentence by sentence
    (readings 3, 4, 8 and 15 are pinned above), and reading 17: move_limit 30
    is ours."""
    r = hide_seek().record
    assert r["players"] == "3-vs-chaos" and r["cloaking"] == "hides" and r["move_limit"] == 30
    assert r["stalemate"] == "most-circles-wins"
    nine = {(x, y) for x in (3, 4, 5) for y in (3, 4, 5)}
    groups = {tuple(g["players"]): {tuple(c[:2]) for c in g["at"]} for g in r["board"]["exclusive"]}
    assert groups[(1, 2, 3)] == nine
    assert groups[("chaos",)] == {(x, y) for x in range(1, 6) for y in range(1, 8)} - nine
    locked = {(1, 4), (2, 2), (2, 6), (4, 1), (4, 7), (5, 1), (5, 7)}
    pieces = {tuple(q["at"][:2]): (q["colour"], q["shape"]) for q in r["board"]["pieces"]}
    assert pieces.pop((4, 6)) == ("yellow", "pentagon")
    assert set(pieces) == groups[("chaos",)] - locked - {(4, 6)}  # "all remaining non-locked"
    assert set(pieces.values()) == {("pink", "circle")}
    assert r["shapes"]["circle"]["move"] == "adjacent-or-knight"
    assert {k: r["shapes"]["pentagon"][k] for k in ("move", "power", "condition", "result")} == {
        "move": "adjacent",
        "power": "must-capture",
        "condition": "cover",
        "result": "removes",
    }
    assert r["reserves"] == {"black": {"circle": 1}, "white": {"circle": 1}, "pink": {"pentagon": 1}}
    p1, p2 = r["phases"]
    assert p1["movement"] == "placement-only" and not p1["pass"]
    assert p2["movement"] == "allowed" and p2["pass"]
    for ph in (p1, p2):
        assert {tuple(c[:2]) for c in ph["locked"]} == locked
        assert {tuple(c[:2]) for c in ph["cloaked"]} == nine  # "non-chaos-exclusive spots"

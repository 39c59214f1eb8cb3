"""The readings search (``python -m analysis.dilemma_readings``): each reading is a
rule-set variant that loads and is classified as the study classifies, the fix search
finds an edit that gives a game its namesake's structure, and the catalogue's dilemma
variants are what docs/rules/dilemmas.md says they are."""

import itertools

import pyspiel
import pytest

from analysis import dilemma_readings as dr
from analysis import dilemmas_doc
from analysis.reduced_games import shopping
from games.ttt.dilemmas import DILEMMAS, VARIANTS


def readings_of(name):
    encodes = next(d.encodes for d in DILEMMAS if d.name == name)
    rec = dr.record(name)
    return {
        r.label: dr.verdict(name, encodes, r.patch(rec), f"{name}-test-{r.label}") for r in dr.READINGS[name]
    }


def test_stag_hunt_is_a_stag_hunt_only_when_the_longest_line_wins():
    got = readings_of("StagHunt")
    assert got["count-of-pairs"]["reproduces"] == "no"
    assert got["longest-line"]["reproduces"] == "yes"
    assert got["longest-line"]["label"] == "stag-hunt"


def test_no_reading_of_the_prisoners_dilemmas_stacks_gives_a_prisoners_dilemma():
    base = dr.record("PrisonerDilemma")
    got = readings_of("PrisonerDilemma")
    assert set(got) == {r.label for r in dr.READINGS["PrisonerDilemma"]}
    assert {v["reproduces"] for v in got.values()} == {"no"}
    # every reading but the catalogue's changes the rule set, and most change the table
    for r in dr.READINGS["PrisonerDilemma"][1:]:
        assert r.patch(base) != base, r.label
    tables = {str(v.get("table")) for v in got.values()}
    assert len(tables) >= 4


@pytest.mark.slow
def test_the_fix_search_finds_the_outcome_rule_that_makes_the_stag_hunt():
    rec = dr.record("StagHunt")
    found = dr.search_fixes("StagHunt", "stag-hunt", rec, max_pairs=0, seed=0, say=None)
    assert found["depth"] == 1 and found["tried"] > 40
    edits = {f["edit"] for f in found["fixes"]}
    assert "outcome most-2-in-a-row-wins -> most-in-a-row-wins" in edits
    assert all(f["reproduces"] == "yes" for f in found["fixes"])


def test_edits_change_the_rule_set_each_once():
    rec = dr.record("PrisonerDilemma")
    seen, texts = set(), {dr._canonical(rec)}
    for desc, edited in dr.edits(rec):
        assert dr._canonical(edited) not in texts, desc  # a no-op or a repeat
        texts.add(dr._canonical(edited))
        assert desc not in seen
        seen.add(desc)
    assert "stack 2 locked" not in seen  # it is locked already
    assert any(d.startswith("stack 5") for d in seen) and any("reserve" in d for d in seen)


def test_variants_name_a_dilemma_and_the_game_it_encodes():
    names = {d.name: d for d in DILEMMAS}
    for v in VARIANTS:
        assert v.variant_of in names and v.encodes == names[v.variant_of].encodes and v.change


def test_shopping9_cloaked_hides_the_purchases():
    game = pyspiel.load_game("ttt(rules=Shopping9-Cloaked)")
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert pyspiel.load_game("ttt(rules=Shopping9)").get_type().information == (
        pyspiel.GameType.Information.PERFECT_INFORMATION
    )
    # white, to buy, sees the same whatever black bought: black's count is hidden
    seen = set()
    for bought in (0, 3, 9):
        s = game.new_initial_state()
        for _ in range(bought):
            s.apply_action(s.legal_actions()[0])
        s.apply_action(s.legal_actions()[-1])  # black passes
        assert s.current_player() == 1
        seen.add((s.information_state_string(1), tuple(s.information_state_tensor(1))))
    assert len(seen) == 1
    # the count table (buy k, whatever is seen) is Shopping9's: hiding changes what a
    # player may condition on, not what a count of purchases pays
    hidden, public = shopping("Shopping9-Cloaked"), shopping("Shopping9")
    assert hidden.exact == public.exact and "Turns are hidden" in hidden.family


@pytest.mark.parametrize(
    "name",
    [
        "StagHunt-LongestLine",
        "RichDictator-OpenFirstStack",
        "NeedyDictator-Most6Wins",
        "NeedyUltimatum-MostCirclesWins",
        pytest.param("KBeauty9-LeastWins", marks=pytest.mark.slow),
    ],
)
def test_shipped_reading_variants_reproduce(name):
    v = next(x for x in VARIANTS if x.name == name)
    got = dr.verdict(v.variant_of, v.encodes, dr.record(name), f"{name}-test")
    assert got["reproduces"] == "yes", got


def test_the_page_shows_the_readings_file():
    block = dilemmas_doc.blocks(dilemmas_doc.DOC.read_text())[dilemmas_doc.READINGS_BLOCK]
    assert block == dr.markdown()
    for name in dr.NOT_REPRODUCED:
        assert f"[{name}](dilemmas_by_game.md#" in block  # each game links its own section


def _outcomes(state) -> set:
    """Every terminal return reachable from ``state`` through Chaos's moves."""
    if state.is_terminal():
        return {tuple(state.returns())}
    if state.is_chance_node():
        return set().union(*(_outcomes(state.child(a)) for a, _ in state.chance_outcomes()))
    raise AssertionError("a player's move where only Chaos moves")


def test_needydictator_most6wins_black_loses_by_giving_two_circles():
    # black's three circles each go to the first stack (white's pile, whose pentagon converts
    # what covers it) or keep to the second: giving two makes white's line of six
    game = pyspiel.load_game("ttt(rules=NeedyDictator-Most6Wins)")
    for given in itertools.product((True, False), repeat=3):
        state = game.new_initial_state()
        for gives in given:
            labels = {state.action_to_string(0, a): a for a in state.legal_actions()}
            state.apply_action(labels["black@stack(1,1) circle" if gives else "black@stack(2,1) circle"])
        want = (-1.0, 1.0) if sum(given) >= 2 else (0.0, 0.0)
        assert _outcomes(state) == {want}, given


def test_needyultimatum_mostcircleswins_rejecting_is_one_disagreement_outcome():
    from fractions import Fraction as F

    from analysis.reduced_games import reduced

    tree = reduced("NeedyUltimatum-MostCirclesWins").exact
    assert {k for k, _ in tree} == {0, 1, 2, 3}
    assert all(tree[k, "reject"] == (-1, -1) for k in range(4))
    accepted = [tree[k, "accept"] for k in range(4)]
    assert accepted == [(F(1, 4), F(1, 4)), (-1, F(3, 4)), (-1, 1), (-1, 1)]

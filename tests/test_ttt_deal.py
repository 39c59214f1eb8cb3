"""A deck and dealt pieces (docs/rules/ttt/deal.md): the deal's chance nodes
and their probabilities, hands that join the reserves, dealt common spaces
face up, what each player knows of the deal (two deals a player cannot
tell apart give it byte-identical information states; a dealt piece shows
when it is played), the GameType's claims, validation's refusals, the
reference model's agreement on random rule sets with a deck, and the
example Dealt-Cover-Duel solved by CFR."""

from __future__ import annotations

import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ttt import make_core, rules
from tiers import sweep
from ttt_checks import (
    assert_is_legal_agrees_with_legal_actions,
    assert_views_partition_histories,
    new_core,
    parsed_or_rejected,
    play_against_reference,
    problems,
    random_sim_test_of,
    rule_set,
    same_pieces,
    state_after,
)
from ttt_records import capture_records, shaped_records

EXAMPLE = "games/ttt/examples/Dealt-Cover-Duel.json"
COVER = {"move": "stationary", "power": "can-capture", "condition": "cover-by-rank", "result": "removes"}
DUEL = {
    "board": {"kind": "squares", "size": [1, 1, 1]},
    "reserves": {},
    "shapes": {"triangle": COVER, "x": COVER, "cross": COVER},
    "deck": {"pieces": {"triangle": 1, "x": 1, "cross": 1}, "hand": 1},
    "turn_checks": [],
    "stalemate": "most-pieces-wins",
    "phases": [{"pass": True}],
}
TRIANGLE, X, CROSS = 0, 1, 2  # local shape indices: the deal's chance outcomes
PASS = 3  # the duel's action ids: triangle, x, cross on the one space, then pass


def duel(**fields):
    return rule_set("Duel", DUEL, **fields)


def views_of(state, player):
    return (
        state.information_state_string(player),
        tuple(state.information_state_tensor(player)),
        state.observation_string(player),
        tuple(state.observation_tensor(player)),
    )


# -- the deal -------------------------------------------------------------------------------------


def test_each_deal_is_a_chance_node_with_the_decks_shares():
    core = new_core("Deal", DUEL, deck={"pieces": {"triangle": 2, "cross": 1}, "hand": 1})
    assert core.player() == -1
    assert core.chance_outcome_list() == [(TRIANGLE, pytest.approx(2 / 3)), (CROSS, pytest.approx(1 / 3))]
    core.apply_action(TRIANGLE)
    assert core.chance_outcome_list() == [(TRIANGLE, 0.5), (CROSS, 0.5)]
    core.apply_action(CROSS)
    assert core.player() == 0 and core.deals_left() == 0
    assert core.deck_pieces() == {"triangle": 1, "x": 0, "cross": 0}
    assert core.shape_reserves() == {
        "black": {"triangle": 1, "x": 0, "cross": 0},
        "white": {"triangle": 0, "x": 0, "cross": 1},
    }


def test_only_a_shape_left_in_the_deck_can_be_dealt():
    core = new_core("Deal", DUEL)
    for bad in (-1, 3, 5):
        with pytest.raises(ValueError):
            core.clone().apply_action(bad)
    core.apply_action(X)
    with pytest.raises(ValueError):
        core.clone().apply_action(X)  # the deck's one x is dealt


def test_openspiels_random_simulations_with_serialisation(tmp_path):
    random_sim_test_of(rules.resolve(EXAMPLE), tmp_path)
    common = rule_set(
        "Common",
        DUEL,
        board={"kind": "stacks", "size": [2, 1, 3], "dealt": [[1, 1, 1], [1, 1, 2]]},
        deck={"pieces": {"triangle": 2, "x": 2, "cross": 2}, "hand": 2},
    )
    random_sim_test_of(common, tmp_path)


def test_hands_are_dealt_in_turn_and_common_spaces_face_up_after_them():
    rs = rule_set(
        "Common",
        DUEL,
        board={"kind": "squares", "size": [3, 1, 1], "dealt": [[3, 1, 1], [1, 1, 1]]},
        deck={"pieces": {"triangle": 2, "x": 2, "cross": 2}, "hand": 2},
    )
    core = make_core(rs)
    for shape in (TRIANGLE, X, CROSS, TRIANGLE):  # black, white, black, white
        core.apply_action(shape)
    assert core.shape_reserves()["black"] == {"triangle": 1, "x": 0, "cross": 1}
    assert core.shape_reserves()["white"] == {"triangle": 1, "x": 1, "cross": 0}
    core.apply_action(CROSS)  # onto (1,1,1), the lower cell first
    core.apply_action(X)
    assert core.player() == 0
    assert core.shapes() == ["cross", None, "x"]
    assert core.cells()[0] == core.cells()[2] == 3  # pink: the colour no seat owns
    assert "pink" in core.tab.colour_names
    for p in (0, 1):
        assert "history: deal>0:" in core.information_state_string(p)
        assert "common:cross common:x" in core.information_state_string(p)


def test_a_deck_dealing_each_turn_deals_the_player_whose_turn_starts():
    """``per_turn``: before each of its turns a player is dealt its pieces while
    the deck lasts, and only then is its turn judged (here: it can place)."""
    core = new_core(
        "Turns",
        DUEL,
        board={"kind": "squares", "size": [3, 1, 1]},
        deck={"pieces": {"triangle": 1, "x": 1, "cross": 1}, "hand": 0, "per_turn": 1},
    )
    assert core.player() == -1 and core.deals_left() == 1 and core.seat_to_move() == 0
    core.apply_action(X)  # to black, whose turn it is
    assert core.player() == 0 and core.shape_reserves()["black"]["x"] == 1
    core.apply_action(X * 3)  # x on (1,1,1); white's turn starts with its deal
    assert core.player() == -1 and core.seat_to_move() == 1
    core.apply_action(CROSS)
    assert core.player() == 1 and core.shape_reserves()["white"]["cross"] == 1
    assert "deal>1:?" in core.information_state_string(0) and "deal>1:cross" in core.information_state_string(
        1
    )
    core.apply_action(CROSS * 3 + 1)  # cross on (2,1,1); black is dealt the last piece
    core.apply_action(TRIANGLE)
    assert core.player() == 0 and core.deck_pieces() == {"triangle": 0, "x": 0, "cross": 0}
    core.apply_action(TRIANGLE * 3 + 2)  # then the deck is out: white's turn starts without a deal
    assert core.player() == 1


def test_the_game_type_says_explicit_chance_and_imperfect_information():
    game = pyspiel.load_game(f"ttt(rules={EXAMPLE})")
    gt = game.get_type()
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert gt.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.max_chance_outcomes() >= 3


# -- what each player knows ------------------------------------------------------------------------


def test_deals_a_player_cannot_tell_apart_give_it_identical_views():
    rs = duel()
    low, high = state_after(rs, X, TRIANGLE), state_after(rs, X, CROSS)  # black x, white triangle/cross
    assert views_of(low, 0) == views_of(high, 0)
    assert views_of(low, 1) != views_of(high, 1)
    assert low.information_state_string(0) == high.information_state_string(0)  # (byte-identical)
    assert "x:1" in low.information_state_string(0)
    assert "triangle" not in low.information_state_string(0)
    assert "cross" not in high.information_state_string(0)
    low.apply_action(PASS)
    high.apply_action(PASS)
    assert views_of(low, 0) == views_of(high, 0)


def test_deals_a_player_cannot_tell_apart_give_it_identical_views_with_paralysing_shapes():
    """The paralysed pieces' plane follows the per-shape reserves in the
    planes: the others' per-shape reserves are still the ones hidden."""
    paralyses = {"move": "stationary", "power": "can-capture", "condition": "adjacent", "result": "paralyzes"}
    rs = duel(
        shapes={s: paralyses for s in ("triangle", "x", "cross")},
        board={"kind": "squares", "size": [3, 1, 1]},
    )
    low, high = state_after(rs, X, TRIANGLE), state_after(rs, X, CROSS)
    assert views_of(low, 0) == views_of(high, 0)
    assert views_of(low, 1) != views_of(high, 1)


def test_a_dealt_piece_shows_to_the_others_exactly_when_it_is_played():
    rs = duel()
    low, high = state_after(rs, X, TRIANGLE, PASS), state_after(rs, X, CROSS, PASS)
    assert views_of(low, 0) == views_of(high, 0)
    low.apply_action(TRIANGLE)  # white plays its dealt piece
    high.apply_action(CROSS)
    assert views_of(low, 0) != views_of(high, 0)
    assert low.information_state_string(0) != high.information_state_string(0)
    assert "shapes:\nt" in low.information_state_string(0)  # the triangle, face up
    assert "shapes:\n+" in high.information_state_string(0)  # the cross


def test_views_partition_the_histories_of_the_example():
    assert_views_partition_histories(rules.resolve(EXAMPLE), range(sweep(full=40, quick=8)))


def test_the_example_loads_plays_and_serialises():
    game = pyspiel.load_game(f"ttt(rules={EXAMPLE})")
    state = game.new_initial_state()
    for a in (CROSS, TRIANGLE, CROSS):
        state.apply_action(a)
    assert state.is_terminal() is False
    clone = game.deserialize_state(state.serialize())
    assert clone.information_state_string(0) == state.information_state_string(0)
    state.apply_action(PASS)  # white cannot cover the cross: it passes, black passes, black wins
    state.apply_action(PASS)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


# -- validation ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields, field, words",
    [
        ({"deck": {"pieces": {"star": 1}, "hand": 1}}, "deck.pieces.star", "not a shape of this rule set"),
        ({"deck": {"pieces": {"x": 1}, "hand": 1}}, "deck.pieces", "holds 1 pieces but deals 2"),
        ({"deck": {"pieces": {"x": 2}, "hand": 0}}, "deck.hand", "deals nothing"),
        ({"deck": {"pieces": {"x": 2}, "hand": -1}}, "deck.hand", "-1 is not allowed"),
        ({"deck": {"pieces": {"x": 2}, "hand": 1, "per_turn": -1}}, "deck.per_turn", "-1 is not allowed"),
        ({"deck": {"pieces": {"x": 2}, "hand": 1, "each_turn": 1}}, "deck.each_turn", "unknown field"),
        ({"deck": [1]}, "deck", "must be an object"),
        ({"colours": "shared", "reserves": {"black": 0}}, "deck", "needs assigned colours"),
        ({"phases": [{"order": "simultaneous"}]}, "deck", "sequential phases only"),
        ({"cloaking": "hides", "phases": [{"cloaked": [[1, 1, 1]]}]}, "deck", "cloaked spaces"),
        (
            {"board": {"kind": "squares", "size": [2, 1, 1], "dealt": [[2, 1, 1], [2, 1, 1]]}},
            "board.dealt[1]",
            "listed twice",
        ),
        (
            {"board": {"kind": "squares", "size": [2, 1, 1], "locked": [[1, 1, 1]], "dealt": [[1, 1, 1]]}},
            "board.dealt[0]",
            "locked or already holds a piece",
        ),
        ({"board": {"kind": "stacks", "size": [1, 1, 3], "dealt": [[1, 1, 2]]}}, "board.dealt", "floats"),
        (
            {"board": {"kind": "squares", "size": [2, 1, 1], "dealt": [[1, 1, 1]]}, "boards": 2},
            "board.dealt",
            "several boards",
        ),
        (
            {
                "players": "4",
                "reserves": {},
                "board": {"kind": "squares", "size": [3, 3, 1], "dealt": [[1, 1, 1]]},
                "deck": {"pieces": {"x": 9}, "hand": 1},
            },
            "board.dealt",
            "no colour is left",
        ),
    ],
)
def test_validation_refuses_bad_decks_with_the_reason(fields, field, words):
    found = [msg for msg in problems("Bad", DUEL, **fields) if msg.startswith(field)]
    assert any(words in msg for msg in found), found


def test_dealt_spaces_need_a_deck_and_a_deck_may_start_with_empty_reserves():
    base = {k: v for k, v in DUEL.items() if k != "deck"}
    found = problems("Bad", base, board={"kind": "squares", "size": [1, 1, 1], "dealt": [[1, 1, 1]]})
    assert any("need a deck" in msg for msg in found), found
    assert duel().record["reserves"] == {}  # a deck deals what is played


def test_a_rule_set_without_a_deck_keeps_its_record():
    rec = rules.resolve("Tic-Tac-Toe").record
    assert "deck" not in rec and "dealt" not in rec["board"]
    assert rule_set("Dealt", DUEL).record["deck"] == {
        "pieces": {"triangle": 1, "x": 1, "cross": 1},
        "hand": 1,
    }


# -- the reference model ---------------------------------------------------------------------------


@st.composite
def deck_records(draw):
    """A random shaped or capturing rule set (two players, or two against
    Chaos) with a deck of its shapes, hands of 0-2 and 0-2 dealt common spaces."""
    rec = draw(st.one_of(shaped_records(), capture_records()))
    rec["players"] = draw(st.sampled_from(["2", "2-vs-chaos"]))
    colours = ["black", "white", "pink"][: 3 if rec["players"] == "2-vs-chaos" else 2]
    rec["reserves"] = {c: v for c, v in rec["reserves"].items() if c in colours}
    rec["board"]["pieces"] = [q for q in rec["board"]["pieces"] if q["colour"] != "yellow"]
    X, Y, _ = rec["board"]["size"]
    taken = {tuple(q["at"]) for q in rec["board"]["pieces"]}
    free = [[x, y, 1] for x in range(1, X + 1) for y in range(1, Y + 1) if (x, y, 1) not in taken]
    rec["board"]["dealt"] = draw(st.lists(st.sampled_from(free), max_size=2, unique_by=tuple)) if free else []
    per_turn = draw(st.sampled_from([0, 0, 1, 2]))
    hand = draw(st.integers(0 if rec["board"]["dealt"] or per_turn else 1, 2))
    pieces = {s: draw(st.integers(0, 3)) for s in sorted(rec["shapes"])}
    first = next(iter(pieces))
    pieces[first] += max(0, 2 * hand + len(rec["board"]["dealt"]) - sum(pieces.values()))  # enough to deal
    rec["deck"] = {"pieces": pieces, "hand": hand, "per_turn": per_turn}
    if any(ph.get("order") for ph in rec["phases"]):
        rec["phases"] = [{}]
    return rec


def _same_pieces_once_dealt(core, ref):
    if not ref.dealing():
        same_pieces(core, ref)


@settings(max_examples=sweep(full=60, quick=6), deadline=None, suppress_health_check=list(HealthCheck))
@given(deck_records(), st.integers(0, 10**6))
def test_random_rule_sets_with_a_deck_agree_with_the_reference(rec, seed):
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, 2, seed, check=_same_pieces_once_dealt)
    assert_is_legal_agrees_with_legal_actions(rs, 1, seed)


def test_hands_and_turn_deals_on_several_boards_agree_with_the_reference():
    rs = rule_set(
        "Boards",
        DUEL,
        board={"kind": "squares", "size": [2, 1, 1]},
        boards=2,
        turn_checks=["first-2-wins"],
        deck={"pieces": {"triangle": 3, "x": 3, "cross": 3}, "hand": 2, "per_turn": 1},
    )
    play_against_reference(rs, sweep(full=40, quick=5), 5, check=_same_pieces_once_dealt)
    assert_views_partition_histories(rs, range(sweep(full=10, quick=2)))


@settings(max_examples=sweep(full=20, quick=3), deadline=None, suppress_health_check=list(HealthCheck))
@given(deck_records(), st.integers(0, 10**6))
def test_random_rule_sets_with_a_deck_keep_information_sets_apart(rec, seed):
    rs = parsed_or_rejected(rec)
    assert_views_partition_histories(rs, [seed, seed + 1])


# -- solved by CFR --------------------------------------------------------------------------------


def test_cfr_solves_the_duel_to_its_value():
    """Dealt-Cover-Duel's value for the first player is 0 (docs/rules/ttt/deal.md,
    "Solved by CFR"): our CFR+ and OpenSpiel's C++ CFR both reach it, their
    exploitability falls, and our CFR matches OpenSpiel's at every checkpoint."""
    from cfr import evaluate
    from cfr.solve import run

    game = pyspiel.load_game(f"ttt(rules={EXAMPLE})")
    plus = run(game, "cfr+", iterations=200)
    curve = [row["exploitability"] for row in plus.curve]
    assert curve[-1] < 1e-3 < curve[0]
    value = pyspiel.expected_returns(
        game.new_initial_state(), evaluate.as_pyspiel_policy(plus.policy), -1, True
    )
    assert value[0] == pytest.approx(0.0, abs=1e-3)
    ours, theirs = run(game, "cfr", iterations=200), run(game, "cfr", engine="openspiel", iterations=200)
    assert [r["exploitability"] for r in ours.curve] == pytest.approx(
        [r["exploitability"] for r in theirs.curve]
    )
    assert theirs.curve[-1]["exploitability"] < 0.01 < theirs.curve[0]["exploitability"]
    value = pyspiel.expected_returns(
        game.new_initial_state(), evaluate.as_pyspiel_policy(theirs.policy), -1, True
    )
    assert value[0] == pytest.approx(0.0, abs=0.01)


def test_the_duels_value_is_exactly_zero():
    """A pure profile with NashConv exactly 0 and value 0: place whenever a
    placement is legal, except the triangle onto the empty space."""
    from open_spiel.python import policy as os_policy
    from open_spiel.python.algorithms import expected_game_score, exploitability

    from games.openspiel import core_of

    game = pyspiel.load_game(f"ttt(rules={EXAMPLE})")

    def rule(state):
        places = [a for a in state.legal_actions() if a != PASS]
        if places and not (core_of(state).cells()[0] == 0 and places == [TRIANGLE]):
            return {places[0]: 1.0}
        return {PASS: 1.0}

    pure = os_policy.tabular_policy_from_callable(game, rule)
    assert exploitability.nash_conv(game, pure) == 0.0
    assert list(expected_game_score.policy_value(game.new_initial_state(), [pure, pure])) == [0.0, 0.0]
    passive = os_policy.tabular_policy_from_callable(game, lambda state: {PASS: 1.0})
    assert exploitability.nash_conv(game, passive) > 0.5  # always passing is no equilibrium


# -- the game page ----------------------------------------------------------------------------------


@pytest.fixture
def app(tmp_path):
    from webapp import create_app

    return create_app(tmp_path / "r.sqlite3", secret_key=b"k" * 32, testing=True)


def test_the_game_page_shows_each_player_its_own_dealt_piece_only(app):
    """Dealt-Cover-Duel played by cy and dee on the web app: each page shows
    its player's own dealt piece and only the count of the other's, the game
    ends, and the registry replays it to the same returns."""
    import re

    from registry import results
    from test_webapp import befriend, db, live, make_users, save_example

    make_users(app)
    save_example(app, "Dealt-Cover-Duel")
    cy, dee = befriend(app, "cy", "dee")
    url = cy.post("/play/new", game="Dealt-Cover-Duel", universe="Public", seat0="cy", seat1="dee").headers[
        "Location"
    ]
    assert not live(app, url).state.is_chance_node()  # the deal is drawn when the game starts
    hands = {b: re.search(r"reserves: ([^\n<]*)", b.get(url).text).group(1) for b in (cy, dee)}
    assert re.fullmatch(r"black (triangle|x|cross):1; white 1 piece\(s\)", hands[cy]), hands[cy]
    assert re.fullmatch(r"black 1 piece\(s\); white (triangle|x|cross):1", hands[dee]), hands[dee]
    for _ in range(6):
        if live(app, url).state.is_terminal():
            break
        mover = cy if live(app, url).state.current_player() == 0 else dee
        page = mover.get(url).text
        actions = re.findall(r'data-action="(\d+)"', page) or re.findall(r'name="action" value="(\d+)"', page)
        mover.post(url + "/move", action=actions[-1])  # the pass comes last
    state = live(app, url).state
    assert state.is_terminal()
    with db(app) as reg:
        [stored] = results.games_of(reg, "Dealt-Cover-Duel")
        rs = results.rule_set_of(reg, "Dealt-Cover-Duel")
        assert results.replay(rs, stored["moves"]) == stored["returns"] == state.returns()

"""The game page tells what a simultaneous round did (webapp/round_story.py):
what each player played and what happened (collisions, conversions, captures),
from the viewing seat's information state only; the shapes' meanings and a
choice's meaning where the rule set's notes give them."""

from __future__ import annotations

import random
import re

import pyspiel

from games.ttt import resolve
from test_webapp_hidden_views import _store, answers, indistinguishable_pairs, site  # noqa: F401
from webapp import round_story
from webapp.live import LiveGame, Seat

SEATS = [Seat("ada", "human", "ada"), Seat("dana", "human", "dana")]


def played(rule_set: str, joints: list[list[int]]) -> LiveGame:
    """A game of two people after the given rounds (one plan per seat each)."""
    game = LiveGame("g", f"ttt(rules={rule_set})", rule_set, "Public", SEATS, 1)
    for joint in joints:
        game.plans = dict(enumerate(joint))
        assert game._resolve_round()
    return game


def plan(game: LiveGame, seat: int, name: str) -> int:
    return next(a for a in game.state.legal_actions(seat) if game.state.action_to_string(seat, a) == name)


def test_a_rock_paper_scissors_round_names_both_plays_and_the_conversion():
    game = played("RockPaperScissors", [])
    circle, x = plan(game, 0, "black@stack(1,1) circle"), plan(game, 1, "white@stack(1,1) x")
    game = played("RockPaperScissors", [[circle, x]])
    rounds = round_story.rounds(game, 0)
    assert rounds == [
        {
            "plays": [
                "Black (seat 1) played black@stack(1,1) circle (paper)",
                "White (seat 2) played white@stack(1,1) x (scissors)",
            ],
            "events": ["collision on stack(1,1): the black circle (paper) was converted to white"],
        }
    ]
    assert round_story.rounds(game, 1) == rounds  # a resolved round is public without cloaking


def test_equal_shapes_destroy_each_other_and_the_round_is_played_again():
    game = played("RockPaperScissors", [])
    rocks = [plan(game, 0, "black@stack(1,1) pentagon"), plan(game, 1, "white@stack(1,1) pentagon")]
    game = played("RockPaperScissors", [rocks])
    assert not game.state.is_terminal()
    (only,) = round_story.rounds(game, 0)
    assert only["events"] == [
        "collision on stack(1,1): the black pentagon (rock) was destroyed, "
        "the white pentagon (rock) was destroyed"
    ]


def test_a_round_with_a_plan_still_hidden_is_not_told():
    """Two pieces a turn planned together: each seat sees only its own first
    plies until the pair resolves, so no round is told before then."""
    path = "games/ttt/examples/Two-Piece-Plans.json"
    game = LiveGame("g", f"ttt(rules={path})", path, "Public", SEATS, 1)
    game.plans = {0: plan(game, 0, "black@(1,1,1)"), 1: plan(game, 1, "white@(4,4,1)")}
    assert game._resolve_round() and game.in_round()
    assert round_story.rounds(game, 0) == [] and round_story.rounds(game, 1) == []
    game.plans = {0: plan(game, 0, "black@(2,1,1)"), 1: plan(game, 1, "white@(4,3,1)")}
    assert game._resolve_round()
    (pair,) = round_story.rounds(game, 0)
    assert pair["plays"] == [
        "Black (seat 1) played black@(1,1,1)",
        "White (seat 2) played white@(4,4,1)",
        "Black (seat 1) played black@(2,1,1)",
        "White (seat 2) played white@(4,3,1)",
    ]
    assert pair["events"] == []


def test_meanings_are_read_from_the_notes_which_the_fingerprint_leaves_out():
    rps = resolve("RockPaperScissors")
    assert round_story.parse_shape_meanings(rps.notes) == {
        "circle": "paper",
        "pentagon": "rock",
        "x": "scissors",
    }
    changed = rps.to_json()
    changed["notes"] = "Nothing about shapes."
    from games.ttt import rules

    assert rules.parse(changed).fingerprint == rps.fingerprint
    meanings = round_story.parse_choice_meanings(resolve("StagHunt").notes)
    assert meanings["stack(1,1)"].startswith("the hare") and meanings["stack(4,1)"].startswith("the stag")
    assert round_story.parse_shape_meanings("A circle is a circle.") == {}


def test_the_page_tells_the_last_round_and_every_round(site):  # noqa: F811
    app, b = site
    game = pyspiel.load_game("ttt(rules=RockPaperScissors)")
    state = game.new_initial_state()
    names = {state.action_to_string(p, a): a for p in (0, 1) for a in state.legal_actions(p)}
    tie = [names["black@stack(1,1) x"], names["white@stack(1,1) x"]]
    page = b.get(f"/game/{_store(app, 'RockPaperScissors', 0, tie, {})}").text
    last = re.search(r'<div id="last-round".*?</div>', page, re.S).group(0)
    assert "Last round:</b> Black (seat 1) played black@stack(1,1) x (scissors); White (seat 2)" in last
    assert "Collision on stack(1,1): the black x (scissors) was destroyed" in last
    assert 'id="rounds"' in page
    assert "In this game a circle is paper, a pentagon is rock, an x is scissors." in page
    assert "pentagon (rock)</label>" in page  # the shape picker names it too (the x is gone)


def test_a_one_click_game_explains_its_choice_before_it_is_made(site):  # noqa: F811
    app, b = site
    page = b.get(f"/game/{_store(app, 'StagHunt', 0, [], {})}").text
    choices = re.search(r'<div id="choices".*?</div>', page, re.S).group(0)
    assert "<b>black@stack(1,1) pentagon</b>: the hare" in choices
    assert "<b>black@stack(3,1) pentagon</b>: the stag" in choices
    assert "stack(2,1)" not in choices  # white's stacks are not black's choices


def test_a_game_against_chaos_says_which_colour_you_play(site):  # noqa: F811
    """Chaos has a colour but no seat, so the seats' colours are the first of
    the rule set's: StagHunt's seats play black and white (Chaos pink), the
    three volunteers black, white and pink (Chaos yellow); a rule set whose
    seats share one colour (Notakto) names the seat."""
    app, b = site
    for rule_set, viewer, you in [
        ("StagHunt", 0, "You are Black (seat 1)."),
        ("StagHunt", 1, "You are White (seat 2)."),
        ("Centipede9", 1, "You are White (seat 2)."),
        ("3P-Volunteer", 2, "You are Pink (seat 3)."),
        ("3P-Notakto", 0, "You are seat 1."),
    ]:
        page = b.get(f"/game/{_store(app, rule_set, viewer, [], {})}").text
        assert re.search(r'<p id="you" class="story">(.*?)</p>', page).group(1) == you, rule_set
        if (rule_set, viewer) == ("StagHunt", 0):  # the seats line names the sides too
            assert re.search(r'<span class="seat">Black \(seat 1\): <a[^>]*>ada</a>', page), page


def test_a_cloaked_round_is_told_as_the_seat_saw_it_the_same_for_histories_it_cannot_tell_apart(site):  # noqa: F811
    """Sim-Cloaked-Raid (every space cloaked): pairs of histories seat 1
    cannot tell apart (the other's hidden placements differ) give the same
    last-round words, and those words are there."""
    app, b = site
    name = "Sim-Cloaked-Raid"
    game = pyspiel.load_game(f"ttt(rules=games/ttt/examples/{name}.json)")
    pairs = [
        (one, two)
        for one, two in indistinguishable_pairs(game, 0, random.Random(3), histories=300, plies=8)
        if one[0] != two[0] and one[0] and two[0]
    ]
    assert pairs, "no two histories with different hidden plays"
    told = 0
    for first, second in pairs[:3]:
        one = answers(b, _store(app, name, 0, *first))["page"]
        two = answers(b, _store(app, name, 0, *second))["page"]
        assert one == two
        told += "Last round, as you saw it:" in one
    assert told

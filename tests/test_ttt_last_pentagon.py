"""The turn check "Last pentagon wins" (docs/rules/ttt/turns.md, "Last pentagon
wins"): hand-played captures of the last pentagon (removed, reincarnated), a
pentagon in reserve keeping the game on, Chaos's, validation and the Factory,
the example, hidden information with cloaked spaces, and agreement with the
reference model on random rule sets with captures."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ttt import make_core, rules
from games.ttt.schema import LAST_PENTAGON_CHECK
from tiers import sweep
from ttt_checks import (
    action_strings,
    assert_views_partition_histories,
    parsed_or_rejected,
    piece,
    play_against_reference,
    play_named,
    position,
    power,
    problems,
    random_sim_test_of,
    rule_set,
)
from ttt_records import capture_records
from ttt_round_records import move_round_records

CHECK = [LAST_PENTAGON_CHECK]


def duel(result="removes", white_reserve=None, players="2"):
    """Black's capturing pentagon on (1,1) next to white's on (2,2) (a 3x3
    board), black to move; passes allowed."""
    rs = position(
        [piece((1, 1, 1), "black", "pentagon"), piece((2, 2, 1), "white", "pentagon")],
        {"pentagon": power("cover", result, "adjacent"), "circle": {"move": "adjacent"}},
        [3, 3, 1],
        turn_checks=CHECK,
        players=players,
        reserves={"black": {}, "white": white_reserve or {}, **({"pink": {}} if players != "2" else {})},
    )
    return make_core(rs)


def test_capturing_the_last_pentagon_wins():
    core = duel()
    play_named(core, "(1,1,1)->(2,2,1)")
    assert core.terminal() and core.returns_list() == [1.0, -1.0]


def test_a_reincarnated_last_pentagon_is_the_captors():
    core = duel("reincarnates")
    play_named(core, "(1,1,1)->(2,2,1)")
    assert core.shape_reserves()["black"]["pentagon"] == 1
    assert core.terminal() and core.returns_list() == [1.0, -1.0]


def test_a_pentagon_in_reserve_keeps_the_game_on():
    core = duel(white_reserve={"pentagon": 1})
    play_named(core, "(1,1,1)->(2,2,1)")
    assert not core.terminal()
    assert any("pentagon" in text for text in action_strings(core))  # white may place its last one


def test_the_check_waits_for_a_capture():
    """Placing or moving without capturing leaves both sides their pentagons."""
    core = duel()
    play_named(core, "(1,1,1)->(1,2,1)")
    assert not core.terminal()


def test_a_third_player_still_in_keeps_the_game_on():
    rs = position(
        [
            piece((1, 1, 1), "black", "pentagon"),
            piece((2, 2, 1), "white", "pentagon"),
            piece((3, 3, 1), "pink", "pentagon"),
        ],
        {"pentagon": power("cover", "removes", "adjacent")},
        [3, 3, 1],
        turn_checks=CHECK,
        players="3",
        reserves={"black": {}, "white": {}, "pink": {}},
    )
    core = make_core(rs)
    play_named(core, "(1,1,1)->(2,2,1)")
    assert not core.terminal()
    play_named(core, "pass")
    play_named(core, "(3,3,1)->(2,2,1)")  # pink takes black's: pink's is the last
    assert core.terminal() and core.returns_list() == [-1.0, -1.0, 1.0]


def test_validation_names_what_the_check_needs():
    base = {"board": {"kind": "squares", "size": [3, 3, 1]}, "turn_checks": CHECK, "move_limit": 10}
    found = problems("no-pentagon", base, reserves={"black": 1, "white": 1})
    assert any("needs the pentagon among the shapes" in p for p in found)
    found = problems(
        "one-colour",
        base,
        reserves={"black": {"pentagon": 1}, "white": {"circle": 1}},
        shapes={"pentagon": {"move": "adjacent"}, "circle": {}},
    )
    assert any("two colours or more" in p for p in found)
    two = dict(
        base,
        reserves={"black": {"pentagon": 1}, "white": {"pentagon": 1}},
        shapes={"pentagon": {"move": "adjacent"}},
    )
    assert rule_set("fine", two).record["turn_checks"] == CHECK
    assert any("several boards" in p for p in problems("boards", two, boards=2))
    assert rule_set("rounds", two, phases=[{"order": "simultaneous"}]).record["turn_checks"] == CHECK
    four = dict(two, players="4", reserves={c: {"pentagon": 1} for c in ("black", "white", "pink", "yellow")})
    for order in ("simultaneous", "single"):
        rs = rule_set("rounds-4", four, phases=[{"order": order}], overachievers_disqualified=True)
        assert rs.record["turn_checks"] == CHECK and rs.record["overachievers_disqualified"]
    found = problems("bad", two, turn_checks=["last-star-wins"])
    assert any("last-pentagon-wins" in p and "goal-reached-stalemate" in p for p in found)


def test_the_factory_offers_the_check():
    from webapp.factory_form import choices, option_label

    assert LAST_PENTAGON_CHECK in choices()["turn_checks"]
    assert option_label("turn_checks.0", LAST_PENTAGON_CHECK) == "Last pentagon wins"


def test_example_plays_as_the_reference(tmp_path):
    rs = rules.resolve("games/ttt/examples/Last-Pentagon-Standing.json")
    assert rs.record["turn_checks"] == CHECK
    play_against_reference(rs, games=sweep(full=20, quick=4), seed=7)
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=5, quick=1))


def test_cloaked_views_follow_what_each_seat_may_know():
    rs = rule_set(
        "cloaked-pentagons",
        board={"kind": "squares", "size": [3, 3, 1]},
        cloaking="hides",
        reserves={"black": {"pentagon": 1, "circle": 1}, "white": {"pentagon": 1, "circle": 1}},
        shapes={"pentagon": power("cover", "removes", "adjacent"), "circle": {"move": "adjacent"}},
        turn_checks=CHECK,
        move_limit=10,
        phases=[{"cloaked": [[2, 1, 1], [2, 2, 1], [2, 3, 1]]}],
    )
    assert_views_partition_histories(rs, seeds=range(sweep(full=40, quick=8)))
    play_against_reference(rs, games=sweep(full=20, quick=4), seed=3)


@settings(max_examples=sweep(full=60, quick=8), deadline=None, suppress_health_check=list(HealthCheck))
@given(capture_records(), st.integers(0, 10**6))
def test_random_capture_rule_sets_match_reference(rec, seed):
    """Random capture rule sets with pentagons of every colour in reserve and
    the check: move by move and ending by ending the reference model's."""
    rec["shapes"].setdefault("pentagon", {"move": "adjacent", "power": "can-capture", "condition": "cover"})
    for reserve in rec["reserves"].values():
        reserve["pentagon"] = 1
    rec["turn_checks"] = rec["turn_checks"] + CHECK
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=3, seed=seed)


# -- in rounds: the check runs once, after the round resolved ----------------------------


def round_duel():
    """Black's pentagon on (1,1) and white's on (3,1) of a 3x1 board, both
    capturing by covering, in simultaneous rounds with passes."""
    rs = position(
        [piece((1, 1, 1), "black", "pentagon"), piece((3, 1, 1), "white", "pentagon")],
        {"pentagon": power("cover", "removes", "adjacent")},
        [3, 1, 1],
        turn_checks=CHECK,
        phases=[{"order": "simultaneous", "pass": True}],
    )
    return make_core(rs)


def move_id(core, player, text):
    return next(a for a in core.player_legal_action_list(player) if core.action_string(player, a) == text)


def test_a_round_collision_that_leaves_one_sides_pentagons_ends_the_game_after_the_round():
    """Both pentagons move to (2,1) in one round: equal ranks, so both are
    destroyed and no side holds a pentagon (the game goes on); a pentagon
    covering the other while that one passes captures it, and its side wins."""
    core = round_duel()
    black = move_id(core, 0, "(1,1,1)->(2,1,1)")
    white = move_id(core, 1, "(3,1,1)->(2,1,1)")
    core.apply_joint_action([black, white])
    assert not core.terminal() and not any(core.cells())
    core = round_duel()
    pas = core.num_actions - 1
    core.apply_joint_action([move_id(core, 0, "(1,1,1)->(2,1,1)"), pas])
    assert not core.terminal()
    core.apply_joint_action([move_id(core, 0, "(2,1,1)->(3,1,1)"), pas])
    assert core.terminal() and core.returns_list() == [1.0, -1.0]


def test_round_example_plays_as_the_reference(tmp_path):
    rs = rules.resolve("games/ttt/examples/Last-Pentagon-Rounds.json")
    assert rs.record["turn_checks"] == CHECK and rs.compile()["simultaneous"]
    play_against_reference(rs, games=sweep(full=20, quick=3), seed=5)
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=5, quick=1))


def four_in_rounds():
    """Four players in simultaneous rounds with passes, overachievers
    disqualified: black's capturing pentagon on (1,1) next to white's on
    (2,1) (the only pentagons), pink's circle on (4,1) and one in reserve
    (a 4x2 board, first 2 in a row without diagonals wins)."""
    rs = position(
        [
            piece((1, 1, 1), "black", "pentagon"),
            piece((2, 1, 1), "white", "pentagon"),
            piece((4, 1, 1), "pink", "circle"),
        ],
        {"pentagon": power("cover", "removes", "adjacent"), "circle": {}},
        [4, 2, 1],
        players="4",
        turn_checks=["first-2-wins-no-diagonal"] + CHECK,
        overachievers_disqualified=True,
        reserves={"black": {}, "white": {}, "pink": {"circle": 1}, "yellow": {}},
        phases=[{"order": "simultaneous", "pass": True}],
        move_limit=12,
    )
    return make_core(rs)


def test_in_rounds_the_last_pentagons_side_is_a_set_of_winners_after_the_rounds_lines():
    """Black takes white's pentagon in the round pink makes its line: the
    line's set comes first (pink is disqualified), black's is the next set
    and wins. Without pink's line black is the first set: disqualified, play
    goes on, and pink's later line wins."""
    core = four_in_rounds()
    pas = core.num_actions - 1
    take, line = move_id(core, 0, "(1,1,1)->(2,1,1)"), move_id(core, 2, "pink@(4,2,1) circle")
    core.apply_joint_action([take, pas, line, pas])
    assert core.terminal() and core.returns_list() == [1.0, -1.0, -1.0, -1.0]
    core = four_in_rounds()
    core.apply_joint_action([take, pas, pas, pas])
    assert not core.terminal() and core.disqualified_players() == [0]
    core.apply_joint_action([pas, pas, line, pas])
    assert core.terminal() and core.returns_list() == [-1.0, -1.0, 1.0, -1.0]


def test_overachievers_example_plays_as_the_reference(tmp_path):
    rs = rules.resolve("games/ttt/examples/Last-Pentagon-Overachievers.json")
    assert rs.record["overachievers_disqualified"] and rs.compile()["simultaneous"]
    play_against_reference(rs, games=sweep(full=20, quick=3), seed=9)
    random_sim_test_of(rs, tmp_path, num_sims=sweep(full=5, quick=1))


@settings(max_examples=sweep(full=60, quick=6), deadline=None, suppress_health_check=list(HealthCheck))
@given(move_round_records(), st.integers(0, 10**6))
def test_random_four_player_rounds_with_overachievers_match_reference(rec, seed):
    """move_round_records with four players, pentagons of every colour in
    reserve, the check and overachievers disqualified."""
    rec["players"] = "4"
    rec["shapes"].setdefault("pentagon", {"move": "adjacent", "power": "can-capture", "condition": "cover"})
    rec["reserves"] = {c: {s: 1 for s in rec["shapes"]} for c in ("black", "white", "pink", "yellow")}
    rec["overachievers_disqualified"] = True
    rec["turn_checks"] = rec["turn_checks"] + CHECK
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=3, seed=seed)


@settings(max_examples=sweep(full=60, quick=6), deadline=None, suppress_health_check=list(HealthCheck))
@given(move_round_records(), st.integers(0, 10**6))
def test_random_moving_rounds_with_the_check_match_reference(rec, seed):
    """Random rule sets in simultaneous and single rounds (collisions, covers,
    by-stack moves) with pentagons of every colour in reserve and the check."""
    rec["shapes"].setdefault("pentagon", {"move": "adjacent", "power": "can-capture", "condition": "cover"})
    for reserve in rec["reserves"].values():
        reserve["pentagon"] = 1
    rec["turn_checks"] = rec["turn_checks"] + CHECK
    rs = parsed_or_rejected(rec)
    play_against_reference(rs, games=3, seed=seed)

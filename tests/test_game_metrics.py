"""Ludii-style game-quality metrics on traces written by hand, each value worked out here."""

from __future__ import annotations

import math

import pytest

from analysis import game_metrics as gm
from analysis.game_metrics import Trace

# Three hand-made games of a two-player game.
# A: P1 wins; moves by 0,1,0 among 3,2,1 legal moves; positions a b c d (no repeat);
#    4 of 9 sites changed.
A = Trace(
    returns=(1.0, -1.0),
    movers=(0, 1, 0),
    branching=(3, 2, 1),
    positions=("a", "b", "c", "d"),
    situations=(("a", 0), ("b", 1), ("c", 0), ("d", 1)),
    sites_covered=4,
    sites=9,
)
# B: P2 wins; player 1 moves twice in a row (turns 0 | 1 1 | 0 = 3 turns, 4 moves);
#    branching 4,4,2,1; positions x y x y z: 3 distinct of 5 -> repetition 0.4;
#    x and y come back with the other player to move, so no situation repeats.
B = Trace(
    returns=(-1.0, 1.0),
    movers=(0, 1, 1, 0),
    branching=(4, 4, 2, 1),
    positions=("x", "y", "x", "y", "z"),
    situations=(("x", 0), ("y", 1), ("x", 1), ("y", 0), ("z", 1)),
    sites_covered=9,
    sites=9,
)
# C: a draw by the rules, two moves among 2 and 2.
C = Trace(
    returns=(0.0, 0.0),
    movers=(0, 1),
    branching=(2, 2),
    positions=("p", "q", "r"),
    situations=(("p", 0), ("q", 1), ("r", 0)),
    sites_covered=2,
    sites=9,
)
# D: stopped by the move cap, one move among 5.
D = Trace(
    returns=(0.0, 0.0), movers=(0,), branching=(5,), positions=("s", "t"), situations=("s", "t"), timeout=True
)

GAMES = [A, B, C, D]


def test_outcome_metrics_count_wins_draws_and_timeouts_over_all_games():
    # A win, a loss, a draw and a timeout: (1 + 0 + 1/2 + 1/2) / 4.
    assert gm.advantage_p1(GAMES).value == pytest.approx(2 / 4)
    assert gm.advantage_p1([A, A, B]).value == pytest.approx(2 / 3)
    # P1 wins 1/4, P2 wins 1/4: balance 1 - 0.
    assert gm.balance(GAMES, 2).value == pytest.approx(1.0)
    # Of A, A, B: P1 wins 2/3, P2 1/3 -> 1 - 1/3.
    assert gm.balance([A, A, B], 2).value == pytest.approx(2 / 3)
    assert gm.completion(GAMES).value == pytest.approx(2 / 4)
    assert gm.drawishness(GAMES).value == pytest.approx(1 / 4)
    assert gm.timeouts(GAMES).value == pytest.approx(1 / 4)


def test_a_timeout_is_never_a_win_even_with_unequal_returns():
    capped = Trace(returns=(1.0, 0.0), movers=(0,), branching=(2,), timeout=True)
    assert capped.winner is None
    assert gm.advantage_p1([capped]).value == 0.5
    assert gm.completion([capped]).value == 0.0


def test_rates_carry_a_wilson_interval_around_the_value():
    v = gm.completion(GAMES)
    assert 0.0 < v.low < 0.5 < v.high < 1.0


def test_turns_merge_consecutive_moves_of_one_player():
    assert [t.turns for t in GAMES] == [3, 3, 2, 1]
    assert [t.moves for t in GAMES] == [3, 4, 2, 1]
    assert gm.duration_turns(GAMES).value == pytest.approx(9 / 4)
    assert gm.duration_moves(GAMES).value == pytest.approx(10 / 4)
    # moves 3,4,2,1: mean 2.5, population variance (0.25+2.25+0.25+2.25)/4 = 1.25
    assert gm.duration_moves_sd(GAMES).value == pytest.approx(math.sqrt(1.25))
    # turns 3,3,2,1: mean 2.25, variance (0.5625*2+0.0625+1.5625)/4 = 0.6875
    assert gm.duration_turns_sd(GAMES).value == pytest.approx(math.sqrt(0.6875))
    lo, hi = gm.duration_moves(GAMES).low, gm.duration_moves(GAMES).high
    assert lo < 2.5 < hi


def test_branching_factor_is_reduced_per_game_then_averaged():
    # per-game means: A 2, B 11/4, C 2, D 5
    assert gm.branching_factor_mean(GAMES).value == pytest.approx((2 + 2.75 + 2 + 5) / 4)
    # per-game upper medians: A 2 of 1,2,3; B 4 of 1,2,4,4; C 2; D 5
    assert gm.branching_factor_median(GAMES).value == pytest.approx((2 + 4 + 2 + 5) / 4)
    # per-game maxima: 3, 4, 2, 5
    assert gm.branching_factor_max(GAMES).value == pytest.approx(14 / 4)
    # per-game population variances: A 2/3, B (1.5625*2+0.5625+3.0625)/4 = 1.6875, C 0, D 0
    assert gm.branching_factor_variance(GAMES).value == pytest.approx((2 / 3 + 1.6875) / 4)


def test_decision_moves_and_decision_factor_leave_out_forced_moves():
    # shares of moves with more than one choice: A 2/3, B 3/4, C 1, D 1
    assert gm.decision_moves(GAMES).value == pytest.approx((2 / 3 + 3 / 4 + 1 + 1) / 4)
    # mean choices at decisions: A 2.5, B 10/3, C 2, D 5
    assert gm.decision_factor(GAMES).value == pytest.approx((2.5 + 10 / 3 + 2 + 5) / 4)
    forced = Trace(returns=(1.0, -1.0), movers=(0,), branching=(1,))
    assert math.isnan(gm.decision_factor([forced]).value)


def test_game_tree_complexity_is_moves_times_log_of_the_games_mean_branching():
    expected = (3 * math.log10(2) + 4 * math.log10(2.75) + 2 * math.log10(2) + 1 * math.log10(5)) / 4
    assert gm.game_tree_complexity(GAMES).value == pytest.approx(expected)


def test_board_coverage_averages_per_game_shares_and_skips_games_without_a_board():
    # A 4/9, B 9/9, C 2/9; D has no board record.
    assert gm.board_coverage(GAMES).value == pytest.approx((4 / 9 + 1 + 2 / 9) / 3)


def test_repetition_counts_positions_seen_again():
    # A 0, B 1 - 3/5 = 0.4, C 0, D 0
    assert gm.positional_repetition(GAMES).value == pytest.approx(0.4 / 4)
    # B's positions come back with the other player to move: no situation repeats.
    assert gm.situational_repetition(GAMES).value == 0.0
    # Here x comes back with player 0 to move again: 1 - 3/4.
    again = Trace(
        returns=(0.0, 0.0),
        movers=(0, 1, 0),
        branching=(2, 2, 2),
        positions=("x", "y", "x", "w"),
        situations=(("x", 0), ("y", 1), ("x", 0), ("w", 1)),
    )
    assert gm.situational_repetition([again]).value == pytest.approx(0.25)


def test_all_metrics_names_every_metric_and_records_round_trip():
    values = gm.all_metrics(GAMES, 2)
    assert list(values) == [name for name, _, _ in gm.METRICS]
    again = [gm.trace_from_record(gm.trace_to_record(t)) for t in GAMES]
    for name, v in gm.all_metrics(again, 2).items():
        w = values[name].value
        assert (math.isnan(w) and math.isnan(v.value)) or v.value == pytest.approx(w), name


def test_a_trace_refuses_mismatched_moves_and_empty_choices():
    with pytest.raises(ValueError):
        Trace(returns=(0.0, 0.0), movers=(0, 1), branching=(2,))
    with pytest.raises(ValueError):
        Trace(returns=(0.0, 0.0), movers=(0,), branching=(0,))
    with pytest.raises(ValueError):
        gm.advantage_p1([])


# E: P1 wins; before each of its three moves each player's evaluation is recorded.
E = Trace(
    returns=(1.0, -1.0),
    movers=(0, 1, 0),
    branching=(3, 2, 1),
    evaluations=((0.5, 0.5), (0.4, 0.6), (0.7, 0.3)),
)
# F: a draw whose two positions are both even.
F = Trace(returns=(0.0, 0.0), movers=(0, 1), branching=(2, 2), evaluations=((0.5, 0.5), (0.5, 0.5)))


def test_lead_change_counts_positions_whose_leaders_differ_from_the_previous_ones():
    # E: leaders {0,1}, {1}, {0}: three changes (the first position counts) in 3 moves.
    # F: {0,1}, {0,1}: one change in 2 moves.
    assert gm.lead_change([E, F]).value == pytest.approx((1.0 + 0.5) / 2)


def test_stability_sums_each_players_evaluation_variance():
    # E: each player's values deviate by 1/30, 4/30, 5/30 from their mean: variance 42/900/3.
    per_player = (1 + 16 + 25) / 900 / 3
    assert gm.stability([E, F]).value == pytest.approx((2 * per_player + 0.0) / 2)


def test_decisiveness_threshold_and_drama_follow_the_eventual_winner_and_skip_draws():
    # E: the loser's best evaluation is 0.6; the winner trails the best by 0, 0.2, 0.
    assert gm.decisiveness_threshold([E, F]).value == pytest.approx(0.6)
    assert gm.drama([E, F]).value == pytest.approx(0.2 / 3)


def test_evaluation_metrics_are_left_out_without_evaluations():
    for fn in (gm.lead_change, gm.stability, gm.decisiveness_threshold, gm.drama):
        assert math.isnan(fn(GAMES).value)
    with pytest.raises(ValueError):
        Trace(returns=(0.0, 0.0), movers=(0,), branching=(1,), evaluations=((0.5, 0.5), (0.5, 0.5)))


# G: P2 wins; the winner trails the best evaluation by 0.6, 0.2, 0.2, 0 (the drama series).
G = Trace(
    returns=(-1.0, 1.0),
    movers=(0, 1, 0, 1),
    branching=(2, 2, 2, 2),
    evaluations=((0.8, 0.2), (0.6, 0.4), (0.6, 0.4), (0.3, 0.7)),
)


def test_decisiveness_moves_is_the_share_of_moves_before_the_winner_passes_the_threshold():
    # E: the loser's best is 0.6; the winner first exceeds it before move 2 of 3 -> 2/3.
    # G: the loser's best is 0.8; the winner never exceeds it -> 1. F (a draw) is left out.
    assert gm.decisiveness_moves([E, F, G]).value == pytest.approx((2 / 3 + 1) / 2)


def test_drama_reductions_follow_ludiis_series_reductions():
    # G's series 0.6, 0.2, 0.2, 0: steps -0.4, 0, -0.2.
    expected = {
        "Average": 0.25,
        "Median": 0.2,  # the upper middle of 0, 0.2, 0.2, 0.6
        "Maximum": 0.6,
        "Minimum": 0.0,
        "Variance": (0.35**2 + 0.05**2 + 0.05**2 + 0.25**2) / 4,
        "ChangeAverage": (0.0 - 0.6) / 3,
        "ChangeSign": (-1 + 0 - 1) / 3,
        "ChangeLineBestFit": -0.9 / 5,  # sum (x - 1.5)(y - 0.25) over sum (x - 1.5)^2
        "ChangeNumTimes": 2 / 3,  # down (a change from none), flat, down again (a change from flat)
        "MaxIncrease": 0.0,
        "MaxDecrease": -0.4,
    }
    assert set(expected) == set(gm.REDUCTIONS)
    values = gm.all_metrics([G, F], 2)
    for name, value in expected.items():
        assert gm.drama_reduced([G, F], name).value == pytest.approx(value, abs=1e-12), name
        assert values[f"Drama{name}"].value == pytest.approx(value, abs=1e-12), name
    # E's series 0, 0.2, 0: up then down, two changes in two steps.
    assert gm.drama_reduced([E], "ChangeNumTimes").value == pytest.approx(1.0)
    assert gm.drama_reduced([E], "MaxIncrease").value == pytest.approx(0.2)


# H: the mover's evaluations of every legal move: four moves, then a forced one.
H = Trace(
    returns=(1.0, -1.0),
    movers=(0, 1),
    branching=(4, 1),
    move_evaluations=((0.1, 0.2, 0.3, 1.0), (0.5,)),
)


def test_clarity_measures_how_few_moves_stand_out_and_how_spread_the_moves_are():
    # First position: mean 0.4, best 1.0, threshold 0.4 + 0.75 * 0.6 = 0.85: 1 of 4 above;
    # variance (0.09 + 0.04 + 0.01 + 0.36) / 4. The forced move: 0 above, variance 0.
    assert gm.clarity_narrowness([H, A]).value == pytest.approx((0.25 + 0.0) / 2)
    assert gm.clarity_variance([H, A]).value == pytest.approx((0.125 + 0.0) / 2)
    assert math.isnan(gm.clarity_narrowness(GAMES).value)
    with pytest.raises(ValueError):
        Trace(returns=(0.0, 0.0), movers=(0,), branching=(2,), move_evaluations=((0.5,),))


def test_state_space_complexity_counts_the_ways_to_fill_the_board():
    three = Trace(returns=(1.0, -1.0), movers=(0,), branching=(9,), sites=9, site_contents=3)
    two = Trace(returns=(1.0, -1.0), movers=(0,), branching=(9,), sites=9, site_contents=2)
    assert gm.state_space_complexity([two, three]).value == pytest.approx(9 * math.log10(3))
    assert math.isnan(gm.state_space_complexity(GAMES).value)  # no site contents recorded


def test_outcome_uniformity_is_one_minus_the_mean_variance_of_rank_utilities():
    # Utilities of P1 over A, B, C, D: 1, -1, 0 (draw), 0 (timeout): variance 1/2; P2 the same.
    assert gm.outcome_uniformity(GAMES).value == pytest.approx(1 - 0.5)
    # The same winner every game: no variance at all.
    assert gm.outcome_uniformity([A, A]).value == pytest.approx(1.0)
    # Of A, A, B: P1's utilities 1, 1, -1 (mean 1/3, variance 8/9); P2 the mirror.
    assert gm.outcome_uniformity([A, A, B]).value == pytest.approx(1 - 8 / 9)


def test_rank_utilities_share_tied_ranks_among_three_players():
    one_winner = Trace(returns=(1.0, 0.0, 0.0), movers=(0,), branching=(1,))
    assert gm.utilities(one_winner) == pytest.approx([1.0, -0.5, -0.5])
    ordered = Trace(returns=(0.0, 2.0, 1.0), movers=(0,), branching=(1,))
    assert gm.utilities(ordered) == pytest.approx([-1.0, 1.0, 0.0])


def test_duration_actions_counts_every_action_and_needs_it_recorded():
    with_chance = Trace(returns=(1.0, -1.0), movers=(0, 1), branching=(2, 2), actions=5)
    plain = Trace(returns=(1.0, -1.0), movers=(0,), branching=(2,), actions=1)
    assert gm.duration_actions([with_chance, plain]).value == pytest.approx(3.0)
    assert math.isnan(gm.duration_actions([with_chance, A]).value)
    with pytest.raises(ValueError):
        Trace(returns=(0.0, 0.0), movers=(0, 1), branching=(2, 2), actions=1)


def test_a_recorded_trace_counts_chance_outcomes_as_actions_but_not_as_moves():
    import numpy as np
    import pyspiel

    from analysis.game_traces import record_trace

    rng = np.random.default_rng(0)

    def choose(state, legal):
        if legal is None:
            outcomes = [a for a, _ in state.chance_outcomes()]
            return outcomes[rng.integers(len(outcomes))]
        return legal[rng.integers(len(legal))]

    trace = record_trace(pyspiel.load_game("kuhn_poker"), choose, 100)
    assert trace.actions == trace.moves + 2  # two cards dealt
    tic = record_trace(pyspiel.load_game("tic_tac_toe"), choose, 100)
    assert tic.actions == tic.moves

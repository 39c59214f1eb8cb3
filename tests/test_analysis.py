"""analysis/: statistics against published and scipy values, ratings against known
truth, tournaments against interruption and across backends."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from scipy import stats as scipy_stats

from analysis import plots
from analysis.ratings import fit_ratings, leaderboard_table, synthetic_records
from analysis.stats import (
    first_player_advantage,
    first_player_advantage_from_records,
    games_needed,
    pairwise_win_rates,
    wilson_half_width,
    wilson_interval,
    win_rate,
)
from analysis.tournament import (
    BotSpec,
    build_bot,
    deterministic_view,
    load_game,
    load_records,
    make_tasks,
    play_game,
    run_tasks,
    seatings,
)

ROOT = Path(__file__).resolve().parents[1]
GAME = "y_game(board_size=4)"


# ----------------------------------------------------------------------------- stats


@pytest.mark.parametrize(
    "k, n, low, high",
    [
        # Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3 (Wilson, no correction).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_matches_published_values(k, n, low, high):
    lo, hi = wilson_interval(k, n)
    assert lo == pytest.approx(low, abs=6e-5)
    assert hi == pytest.approx(high, abs=6e-5)


@pytest.mark.parametrize("k, n", [(0, 1), (3, 7), (50, 100), (99, 100), (1000, 1000), (123, 4567)])
def test_wilson_matches_scipy(k, n):
    ci = scipy_stats.binomtest(k, n).proportion_ci(0.95, method="wilson")
    assert wilson_interval(k, n) == pytest.approx((ci.low, ci.high), abs=1e-12)
    ci90 = scipy_stats.binomtest(k, n).proportion_ci(0.90, method="wilson")
    assert wilson_interval(k, n, 0.90) == pytest.approx((ci90.low, ci90.high), abs=1e-12)


def test_wilson_edge_cases():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(5, 3)


def test_games_needed_is_the_exact_minimum():
    n = games_needed(0.05)
    assert wilson_half_width(0.5, n) <= 0.05 < wilson_half_width(0.5, n - 1)
    # The normal approximation's textbook 1.96^2 / (4 * 0.05^2) = 384.1; Wilson needs a few fewer.
    assert 375 <= n <= 385
    # A lopsided rate needs fewer games for the same precision.
    assert games_needed(0.05, p=0.9) < n
    assert games_needed(0.01) > 9000


def test_first_player_advantage_uses_exact_binomial_test():
    fpa = first_player_advantage(60, 40, draws=7)
    assert fpa.rate == pytest.approx(0.6)
    assert fpa.p_value == pytest.approx(scipy_stats.binomtest(60, 100, 0.5).pvalue)
    assert fpa.p_value == pytest.approx(0.0569, abs=1e-4)
    assert (fpa.low, fpa.high) == pytest.approx(wilson_interval(60, 100))
    assert fpa.games == 107 and fpa.decisive == 100
    even = first_player_advantage(50, 50)
    assert even.p_value == pytest.approx(1.0)


def test_records_statistics():
    records = [
        {"players": ["a", "b"], "returns": [1, -1]},
        {"players": ["b", "a"], "returns": [1, -1]},
        {"players": ["a", "b"], "returns": [0, 0]},
        {"players": ["b", "a"], "returns": [-1, 1]},
    ]
    fpa = first_player_advantage_from_records(records)
    assert (fpa.first_wins, fpa.second_wins, fpa.draws) == (2, 1, 1)
    rates = pairwise_win_rates(records)
    assert (rates["a", "b"].wins, rates["a", "b"].draws, rates["a", "b"].losses) == (2, 1, 1)
    assert (rates["b", "a"].wins, rates["b", "a"].draws, rates["b", "a"].losses) == (1, 1, 2)
    assert rates["a", "b"].score == pytest.approx(0.625)
    assert win_rate(2, 1, 1).rate == pytest.approx(0.5)


# ----------------------------------------------------------------------------- ratings


def test_ratings_recover_known_ordering_and_gaps():
    truth = {"random": 0.0, "weak": 150.0, "mid": 400.0, "strong": 700.0, "best": 1000.0}
    records = synthetic_records(truth, games_per_pair=300, seed=3, first_move_elo=120.0)
    fit = fit_ratings(records)
    assert fit.names() == ["best", "strong", "mid", "weak", "random"]
    assert fit["random"].rating == 0.0
    for name, rating in truth.items():
        row = fit[name]
        assert abs(row.rating - rating) < 80, (name, row.rating)
        if name != "random":
            assert row.low <= rating <= row.high + 40  # the prior shrinks a little towards the field
    assert 60 < fit.first_move_elo < 180
    table = leaderboard_table(fit)
    assert "random (anchor)" in table
    assert table.index("best") < table.index("strong") < table.index("random")


def test_ratings_need_the_anchor_and_a_prior_under_separation():
    records = [
        {"players": ["a", "random"], "returns": [1, -1]},
        {"players": ["random", "a"], "returns": [-1, 1]},
    ]
    fit = fit_ratings(records)
    assert fit["a"].rating > 0 and fit["a"].low < fit["a"].rating < fit["a"].high
    with pytest.raises(ValueError, match="do not exist"):
        fit_ratings(records, prior_sd=None)
    with pytest.raises(ValueError, match="anchor"):
        fit_ratings([{"players": ["a", "b"], "returns": [1, -1]}])


def test_maximum_likelihood_matches_closed_form_for_two_players():
    # Two players, no seat term: the MLE gap is 400 log10(w / l).
    records = [{"players": ["a", "random"], "returns": [1, -1]}] * 30 + [
        {"players": ["random", "a"], "returns": [1, -1]}
    ] * 10
    fit = fit_ratings(records, prior_sd=None, first_move=False)
    assert fit["a"].rating == pytest.approx(400 * math.log10(3.0), abs=0.1)


def test_two_player_ratings_are_numerically_what_they_were():
    # Values of the two-player fit before n-player games were added (same records, same calls).
    truth = {"random": 0.0, "weak": 150.0, "mid": 400.0, "strong": 700.0, "best": 1000.0}
    records = synthetic_records(truth, games_per_pair=30, seed=5, first_move_elo=120.0)
    records.append({"players": ["weak", "mid"], "returns": [0, 0]})
    fit = fit_ratings(records)
    assert [r.rating for r in fit.ratings] == pytest.approx(
        [959.1884832453156, 611.2770035149272, 368.9588947825296, 143.06315171013642, 0.0], rel=1e-9, abs=1e-9
    )
    assert (fit.first_move_elo, fit.first_move_low, fit.first_move_high) == pytest.approx(
        (138.4828671007143, 65.23401410003419, 211.7317201013944), rel=1e-9
    )
    assert (fit["mid"].wins, fit["mid"].draws, fit["mid"].losses, fit.games) == (57, 1, 63, 301)
    assert fit_ratings(records, first_move=False)["best"].rating == pytest.approx(866.9404268796499, rel=1e-9)
    assert fit_ratings(records, anchor=None)["random"].rating == pytest.approx(-416.4975066505818, rel=1e-9)


def plackett_luce_records(ratings: dict, seats: int, games: int, seed: int, seat_elo=()) -> list[dict]:
    """n-player games ranked by rating plus Gumbel noise (a Plackett-Luce model), best return 1,
    worst -1, the rest 0; players drawn at random without repetition."""
    import numpy as np

    rng = np.random.default_rng(seed)
    names = sorted(ratings)
    out = []
    for _ in range(games):
        players = [names[i] for i in rng.permutation(len(names))[:seats]]
        strength = [
            ratings[p] / ELO + (seat_elo[s] / ELO if seat_elo else 0.0) + rng.gumbel()
            for s, p in enumerate(players)
        ]
        order = sorted(range(seats), key=lambda s: -strength[s])
        returns = [0.0] * seats
        returns[order[0]], returns[order[-1]] = 1.0, -1.0
        out.append({"players": players, "returns": returns})
    return out


ELO = 400.0 / math.log(10.0)


def test_ratings_of_three_and_four_player_games_recover_the_order():
    truth = {"random": 0.0, "weak": 200.0, "mid": 500.0, "strong": 900.0}
    for seats in (3, 4):
        records = plackett_luce_records(
            truth, seats, 600, seed=seats, seat_elo=(150.0,) + (0.0,) * (seats - 1)
        )
        fit = fit_ratings(records)
        assert fit.names() == ["strong", "mid", "weak", "random"]
        assert fit["random"].rating == 0.0 and fit.games == 600
        assert len(fit.seat_elo) == seats and fit.seat_elo[0][1] < fit.seat_elo[0][0] < fit.seat_elo[0][2]
        assert fit.seat_elo[0][0] > 50 and fit.first_move_elo == fit.seat_elo[0][0]
        assert all(abs(fit.seat_elo[k][0]) < 100 for k in range(1, seats))
        wins = sum(r.wins for r in fit.ratings)
        assert wins == 600  # one unique best return per game
        assert "Seat advantages over seat" in leaderboard_table(fit)


def test_ratings_refuse_mixed_seat_counts_and_ignore_pairs_of_one_player():
    with pytest.raises(ValueError, match="one number of seats"):
        fit_ratings(
            [
                {"players": ["a", "random"], "returns": [1, -1]},
                {"players": ["a", "random", "b"], "returns": [1, -1, 0]},
            ]
        )
    # "a" in two seats: only its comparisons with random count; self-play tables are skipped.
    fit = fit_ratings(
        [
            {"players": ["a", "random", "a"], "returns": [1, -1, 1]},
            {"players": ["a", "a", "a"], "returns": [1, -1, 1]},
        ],
        first_move=False,
    )
    assert fit.games == 1 and fit["a"].rating > 0
    assert (fit["a"].wins, fit["a"].draws, fit["a"].losses) == (0, 2, 0)
    assert (fit["random"].wins, fit["random"].draws, fit["random"].losses) == (0, 0, 1)


# ----------------------------------------------------------------------------- tournaments

SPECS = [BotSpec.make("random"), BotSpec.make("openspiel_mcts", simulations=20)]


def test_bot_spec_parsing_and_labels():
    spec = BotSpec.parse("openspiel_mcts:simulations=50,uct_c=1.5,solve=false")
    assert spec == BotSpec.make("openspiel_mcts", simulations=50, uct_c=1.5, solve=False)
    assert spec.label == "openspiel_mcts(simulations=50,solve=False,uct_c=1.5)"
    assert BotSpec.parse("random:name=R").label == "R"
    assert BotSpec.from_json(spec.to_json()) == spec
    with pytest.raises(ValueError):
        BotSpec.parse("mcts:simulations")


def test_tasks_alternate_seats_and_have_stable_seeds():
    tasks = make_tasks(GAME, SPECS, 4, seed=7)
    assert [t.seats[0].label for t in tasks] == ["openspiel_mcts(simulations=20)", "random"] * 2
    assert len({t.seed for t in tasks}) == 4
    # Adding a bot leaves the existing pairing's games (keys and seeds) unchanged.
    more = make_tasks(GAME, SPECS + [BotSpec.make("random", name="random2")], 4, seed=7)
    assert {(t.key, t.seed) for t in tasks} <= {(t.key, t.seed) for t in more}
    assert make_tasks(GAME, SPECS, 4, seed=8)[0].seed != tasks[0].seed


def test_two_player_keys_and_seeds_are_what_they_were():
    # Values from before n-player tables existed: old record files must keep resuming.
    tasks = make_tasks(GAME, SPECS, 3, seed=7) + make_tasks(GAME, SPECS, 2, seed=7, pairs="self")
    mcts, rnd = "openspiel_mcts(simulations=20)", "random"
    assert [(t.key, t.seed, [s.label for s in t.seats], t.pair) for t in tasks] == [
        (f"{GAME}|{mcts}|random|0", 1976932017, [mcts, rnd], (mcts, rnd)),
        (f"{GAME}|{mcts}|random|1", 1014047449, [rnd, mcts], (mcts, rnd)),
        (f"{GAME}|{mcts}|random|2", 415838969, [mcts, rnd], (mcts, rnd)),
        (f"{GAME}|random|random|0", 1375044393, [rnd, rnd], (rnd, rnd)),
        (f"{GAME}|random|random|1", 1977719309, [rnd, rnd], (rnd, rnd)),
        (f"{GAME}|{mcts}|{mcts}|0", 2913793, [mcts, mcts], (mcts, mcts)),
        (f"{GAME}|{mcts}|{mcts}|1", 927035300, [mcts, mcts], (mcts, mcts)),
    ]


def four_player_rules(tmp_path) -> str:
    path = tmp_path / "4P-Notakto-4x4.json"
    path.write_text(
        json.dumps(
            {
                "name": "4P-Notakto-4x4",
                "board": {"kind": "squares", "size": [4, 4, 1]},
                "players": "4",
                "colours": "shared",
                "reserves": {"black": 16},
                "turn_checks": ["first-3-loses"],
            }
        )
    )
    return f"ttt(rules={path})"


def test_n_player_tables_play_every_seating_equally_often(tmp_path):
    three = "ttt(rules=3P-Notakto)"
    bots = [
        BotSpec.make("random"),
        BotSpec.make("random", name="r2"),
        BotSpec.make("random", name="r3"),
        BotSpec.make("random", name="r4"),
    ]
    for game, n_bots, games_per_pair, tables, per_table in (
        (three, 2, 2, 1, 6),  # 2 bots, 3 seats: the 6 seatings using both; 2 rounds up to 6
        (three, 3, 7, 1, 12),  # 3 bots: the 6 permutations, 7 rounds up to 12
        (three, 4, 6, 4, 6),  # 4 bots, 3 seats: every 3 of them, every permutation
        (four_player_rules(tmp_path), 2, 1, 1, 14),
        (four_player_rules(tmp_path), 4, 24, 1, 24),
    ):
        tasks = make_tasks(game, bots[:n_bots], games_per_pair, seed=3)
        assert len(tasks) == tables * per_table
        seats = len(tasks[0].seats)
        held = {}
        for task in tasks:
            assert set(task.pair) == {s.label for s in task.seats}
            for seat, spec in enumerate(task.seats):
                held[spec.label, seat] = held.get((spec.label, seat), 0) + 1
        assert len(set(held.values())) == 1 and len(held) == n_bots * seats, held
        assert len({t.key for t in tasks}) == len({t.seed for t in tasks}) == len(tasks)
    assert len(seatings(bots[:2], 3)) == 6 and len(seatings(bots[:3], 4)) == 36
    with pytest.raises(ValueError, match="does not fit a 2-player game"):
        make_tasks(GAME, bots[:3], 2, seed=0, pairs=[(0, 1, 2)])


def test_three_player_command_line_tournament(tmp_path):
    # A three-player tournament from the command line plays and records its games.
    out = tmp_path / "o.jsonl"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "analysis.tournament",
            "--game",
            "ttt(rules=3P-Notakto)",
            "--bot",
            "random",
            "--bot",
            "mcts:simulations=50",
            "--games-per-pair",
            "2",
            "--out",
            str(out),
            "--no-progress",
        ],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    records = load_records(out)
    assert len(records) == 6 and {len(r["returns"]) for r in records} == {3}
    assert len({tuple(r["players"]) for r in records}) == 6
    assert "random (anchor)" in result.stdout and "mean return by seat" in result.stdout


def test_four_player_tournament_rates_every_bot(tmp_path):
    game = four_player_rules(tmp_path)
    specs = [BotSpec.make("random"), BotSpec.make("random", name="r2"), BotSpec.make("mcts", simulations=5)]
    records = run_tasks(make_tasks(game, specs, 1, seed=2), tmp_path / "four.sqlite", progress=False)
    assert len(records) == 36 and {len(r["players"]) for r in records} == {4}
    assert all(r["game_fingerprint"] == records[0]["game_fingerprint"] is not None for r in records)
    fit = fit_ratings(records)
    assert sorted(fit.names()) == ["mcts(simulations=5)", "r2", "random"] and fit["random"].rating == 0.0
    assert len(fit.seat_elo) == 4


def test_play_game_is_reproducible_and_legal():
    game = load_game(GAME)
    a = [build_bot(SPECS[1], game, 0, 11), build_bot(SPECS[0], game, 1, 12)]
    b = [build_bot(SPECS[1], game, 0, 11), build_bot(SPECS[0], game, 1, 12)]
    r1, r2 = play_game(game, a, 5), play_game(game, b, 5)
    assert r1["actions"] == r2["actions"] and r1["returns"] == r2["returns"]
    state = game.new_initial_state()
    for action in r1["actions"]:
        assert action in state.legal_actions()
        state.apply_action(action)
    assert state.is_terminal() and state.returns() == r1["returns"]


def test_resume_after_interruption_neither_loses_nor_repeats(tmp_path):
    tasks = make_tasks(GAME, SPECS, 12, seed=1)
    reference = run_tasks(tasks, tmp_path / "full.jsonl", progress=False, chunk_size=1)

    out = tmp_path / "interrupted.jsonl"
    seen = []

    def interrupt(record):
        seen.append(record["key"])
        if len(seen) == 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_tasks(tasks, out, progress=False, chunk_size=1, on_record=interrupt)
    assert len(load_records(out)) == 5
    with open(out, "a") as handle:  # a write torn by a kill
        handle.write('{"key": "y_game(board_size=4)|openspiel_mcts')
    resumed = run_tasks(tasks, out, progress=False, chunk_size=3)
    on_disk = load_records(out)
    keys = [r["key"] for r in on_disk]
    assert len(keys) == len(set(keys)) == len(tasks)

    def canonical(records):
        return sorted(json.dumps(deterministic_view(r), sort_keys=True) for r in records)

    assert canonical(on_disk) == canonical(reference)
    assert [deterministic_view(r) for r in resumed] == [deterministic_view(r) for r in reference]
    # A file from another seed is refused rather than mixed.
    with pytest.raises(ValueError, match="another seed"):
        run_tasks(make_tasks(GAME, SPECS, 12, seed=2), out, progress=False)


def test_records_carry_settings_and_old_files_without_them_resume(tmp_path):
    tasks = make_tasks(GAME, SPECS, 4, seed=1)
    out = tmp_path / "r.jsonl"
    first = run_tasks(tasks, out, progress=False)
    assert first[0]["bots"] == [spec.to_json() for spec in tasks[0].seats]
    assert first[0]["game_fingerprint"] is None and first[0]["seed"] == tasks[0].seed
    # A file written before records carried settings: it resumes, playing nothing.
    legacy = [
        {k: v for k, v in r.items() if k not in ("bots", "game_fingerprint")} for r in load_records(out)
    ]
    out.write_text("".join(json.dumps(r) + "\n" for r in legacy))
    played = []
    again = run_tasks(tasks, out, progress=False, on_record=played.append)
    assert played == [] and [r["key"] for r in again] == [t.key for t in tasks]


@pytest.mark.slow
def test_resume_with_other_bot_settings_under_the_same_name_is_refused(tmp_path):
    out = tmp_path / "named.jsonl"
    env = dict(os.environ, PYTHONPATH=str(ROOT))

    def run(simulations):
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "analysis.tournament",
                "--game",
                GAME,
                "--bot",
                "random",
                "--bot",
                f"mcts:simulations={simulations},name=strong",
                "--games-per-pair",
                "2",
                "--out",
                str(out),
                "--no-progress",
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    assert run(20).returncode == 0
    before = out.read_bytes()
    refused = run(1)
    assert refused.returncode == 2
    assert "already holds" in refused.stderr and "another bots" in refused.stderr
    assert "Traceback" not in refused.stderr and out.read_bytes() == before


def test_resume_after_the_rule_set_file_changed_is_refused(tmp_path):
    rules = tmp_path / "mine.json"
    original = json.loads((ROOT / "games" / "ttt" / "catalogue" / "Tic-Tac-Toe.json").read_text())
    rules.write_text(json.dumps(original))
    game = f"ttt(rules={rules})"
    out = tmp_path / "ttt.jsonl"
    run_tasks(make_tasks(game, SPECS, 2, seed=0), out, progress=False)
    rules.write_text(json.dumps(dict(original, turn_checks=["first-3-loses"])))
    with pytest.raises(ValueError, match="another game_fingerprint"):
        run_tasks(make_tasks(game, SPECS, 2, seed=0), out, progress=False)
    rules.write_text(json.dumps(dict(original, notes="only the notes changed")))
    assert len(run_tasks(make_tasks(game, SPECS, 2, seed=0), out, progress=False)) == 2


def test_tournament_store_keeps_an_unterminated_record_and_refuses_damage(tmp_path):
    tasks = make_tasks(GAME, SPECS, 3, seed=1)
    out = tmp_path / "r.jsonl"
    run_tasks(tasks, out, progress=False)
    out.write_bytes(out.read_bytes().rstrip(b"\n"))
    played = []
    run_tasks(tasks, out, progress=False, on_record=played.append)
    assert played == [] and out.read_bytes().count(b"\n") == 3
    for line in ("{}", "[1,2]"):
        damaged = tmp_path / f"damaged{len(line)}.jsonl"
        damaged.write_text(out.read_text() + line + "\n")
        with pytest.raises(ValueError, match=":4 is not a record .*damaged"):
            run_tasks(tasks, damaged, progress=False)


def start_long_run(out, games: int = 40):
    """A command-line tournament of ``games`` games, one per work unit, started in the background."""
    command = [
        sys.executable,
        "-m",
        "analysis.tournament",
        "--game",
        GAME,
        "--bot",
        "random",
        "--bot",
        "openspiel_mcts:simulations=300",
        "--games-per-pair",
        str(games),
        "--seed",
        "4",
        "--out",
        str(out),
        "--chunk",
        "1",
        "--no-progress",
    ]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return command, env, process


@pytest.mark.slow
def test_a_second_command_line_run_into_the_same_output_is_refused(tmp_path):
    out = tmp_path / "twice.jsonl"
    command, env, first = start_long_run(out, games=5000)  # far more than it gets to play
    try:
        deadline = time.time() + 60
        while time.time() < deadline and first.poll() is None and not (out.exists() and out.stat().st_size):
            time.sleep(0.01)
        assert first.poll() is None, "the first run ended before the second could start"
        second = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
        assert first.poll() is None, "the first run ended while the second ran"
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()
    assert second.returncode == 2 and "being written by another run" in second.stderr, second.stderr
    keys = [r["key"] for r in load_records(out)]
    assert len(keys) == len(set(keys)) >= 1


@pytest.mark.slow
def test_killed_command_line_run_resumes(tmp_path):
    out = tmp_path / "killed.jsonl"
    command, env, process = start_long_run(out)
    deadline = time.time() + 60
    while time.time() < deadline and process.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") >= 3:
            process.send_signal(signal.SIGKILL)
            break
        time.sleep(0.005)
    process.wait()
    partial = len(load_records(out))
    assert partial >= 3
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    records = load_records(out)
    keys = [r["key"] for r in records]
    assert len(keys) == len(set(keys)) == 40
    assert f"{40 - partial} new games" in result.stdout


def test_bad_command_lines_fail_clearly(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_text("[1,2]\n")
    for extra, message in (
        (["--bot", "random", "--bot", "nosuchbot"], "unknown bot kind"),
        (["--bot", "random", "--bot", "random"], "distinct"),
        (["--bot", "random", "--bot", "mcts", "--out", str(damaged)], "damaged.jsonl:1 is not"),
    ):
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "analysis.tournament",
                "--game",
                GAME,
                "--out",
                str(tmp_path / "x.jsonl"),
                *extra,
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr


@pytest.mark.slow
def test_joblib_and_dask_local_cluster_give_the_same_records(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    tasks = make_tasks(GAME, SPECS + [BotSpec.make("openspiel_mcts", simulations=60)], 4, seed=9)
    via_joblib = run_tasks(tasks, tmp_path / "joblib.jsonl", n_jobs=2, progress=False, chunk_size=2)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        via_dask = run_tasks(
            tasks, tmp_path / "dask.jsonl", backend="dask", client=client, progress=False, chunk_size=2
        )
        # The --scheduler ADDRESS path: connect to the running scheduler by its address.
        via_address = run_tasks(
            tasks,
            tmp_path / "address.jsonl",
            backend="dask",
            scheduler=cluster.scheduler_address,
            progress=False,
        )
    assert [deterministic_view(r) for r in via_address] == [deterministic_view(r) for r in via_joblib]
    assert len(via_dask) == len(tasks) == 12
    assert [deterministic_view(r) for r in via_dask] == [deterministic_view(r) for r in via_joblib]
    assert len({tuple(r["actions"]) for r in via_dask}) > 1


# ----------------------------------------------------------------------------- plots


def test_plots_write_png_and_svg(tmp_path):
    rows = [
        {"label": "a", "value": 0.7, "low": 0.6, "high": 0.8, "group": "x", "note": "n=100"},
        {"label": "b", "value": 1.0, "low": 0.9, "high": 1.0, "group": "y"},
    ]
    written = plots.plot_win_rates(rows, tmp_path / "wr", title="t")
    written += plots.plot_rating_vs_compute(
        {"m": [(10, 5, 0, 10), (100, 50, 40, 60)]}, tmp_path / "rc", title="t", flat={"ab": (20, 10, 30)}
    )
    written += plots.plot_histograms({"a": [1, 2, 2, 3], "b": [4, 5]}, tmp_path / "h", title="t")
    assert sorted(p.suffix for p in written) == [".png", ".png", ".png", ".svg", ".svg", ".svg"]
    for path in written:
        assert path.stat().st_size > 1000


def test_stats_command_line():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    result = subprocess.run(
        [sys.executable, "-m", "analysis.stats", "--precision", "0.05"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0 and result.stdout.startswith(f"{games_needed(0.05)} games")
    result = subprocess.run(
        [sys.executable, "-m", "analysis.stats", "--wins", "60", "--games", "100"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "60.0% [50.2, 69.1]" in result.stdout and "p = 0.0569" in result.stdout
    result = subprocess.run(
        [sys.executable, "-m", "analysis.stats"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2


# ----------------------------------------------------------------------------- refusals of the commands


def test_a_precision_too_fine_to_reach_is_refused_with_a_message(capsys):
    from analysis.stats import MAX_GAMES, main

    with pytest.raises(ValueError, match="needs more than"):
        games_needed(1e-300)
    assert games_needed(1e-9) <= MAX_GAMES
    with pytest.raises(SystemExit) as exit_:
        main(["--precision", "1e-300"])
    err = capsys.readouterr().err
    assert (
        exit_.value.code == 2 and "a half-width of 1e-300 needs more than" in err and "Traceback" not in err
    )


def test_tournament_jobs_are_capped_at_the_games_and_the_cores(tmp_path, capsys):
    from analysis.tournament import local_jobs, main

    cores = os.cpu_count() or 1
    assert local_jobs(100_000, 2) == min(2, cores) and local_jobs(100_000, 10_000) == cores
    assert local_jobs(3, 1) == 1 and local_jobs(1, 50) == 1
    out = str(tmp_path / "t.jsonl")
    argv = ["--game", "tic_tac_toe", "--bot", "random", "--pairs", "self", "--games-per-pair", "1"]
    assert main([*argv, "--out", out, "--jobs", "100000", "--no-progress"]) == 0
    assert "jobs=1; 1 games in this tournament" in capsys.readouterr().out  # one game: no worker at all


@pytest.mark.slow
def test_tournament_workers_end_with_their_parent(tmp_path):
    """A tournament killed with SIGKILL left its joblib workers playing on."""
    command = [sys.executable, "-m", "analysis.tournament", "--game", "tic_tac_toe", "--bot"]
    command += ["mcts:simulations=2000000", "--bot", "random", "--games-per-pair", "8", "--jobs", "2"]
    command += ["--out", str(tmp_path / "t.jsonl"), "--no-progress"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    parent = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        children: list[int] = []
        for _ in range(600):  # until its workers run
            path = Path(f"/proc/{parent.pid}/task/{parent.pid}/children")
            children = [int(p) for p in path.read_text().split()] if path.exists() else []
            workers = [c for c in children if b"popen_loky" in Path(f"/proc/{c}/cmdline").read_bytes()]
            if len(workers) == 2:
                break
            time.sleep(0.1)
        assert len(workers) == 2

        def cpu_seconds(pid: int) -> float:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

        for _ in range(1200):  # until both play (past their imports: a few CPU seconds each)
            if all(cpu_seconds(w) > 5 for w in workers):
                break
            time.sleep(0.1)
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=30)
        for _ in range(300):
            if not any(Path(f"/proc/{w}").exists() for w in workers):
                break
            time.sleep(0.1)
        assert not any(Path(f"/proc/{w}").exists() for w in workers)
    finally:
        parent.kill()

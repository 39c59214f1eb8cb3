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
from analysis.stats import (first_player_advantage, first_player_advantage_from_records, games_needed,
                            pairwise_win_rates, wilson_half_width, wilson_interval, win_rate)
from analysis.tournament import (BotSpec, deterministic_view, load_records, make_tasks, play_game, run_tasks,
                                 load_game, build_bot)

ROOT = Path(__file__).resolve().parents[1]
GAME = "y_game(board_size=4)"


# ----------------------------------------------------------------------------- stats

@pytest.mark.parametrize("k, n, low, high", [
    # Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3 (Wilson, no correction).
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
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
    records = [{"players": ["a", "b"], "returns": [1, -1]},
               {"players": ["b", "a"], "returns": [1, -1]},
               {"players": ["a", "b"], "returns": [0, 0]},
               {"players": ["b", "a"], "returns": [-1, 1]}]
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
    records = [{"players": ["a", "random"], "returns": [1, -1]},
               {"players": ["random", "a"], "returns": [-1, 1]}]
    fit = fit_ratings(records)
    assert fit["a"].rating > 0 and fit["a"].low < fit["a"].rating < fit["a"].high
    with pytest.raises(ValueError, match="do not exist"):
        fit_ratings(records, prior_sd=None)
    with pytest.raises(ValueError, match="anchor"):
        fit_ratings([{"players": ["a", "b"], "returns": [1, -1]}])


def test_maximum_likelihood_matches_closed_form_for_two_players():
    # Two players, no seat term: the MLE gap is 400 log10(w / l).
    records = ([{"players": ["a", "random"], "returns": [1, -1]}] * 30
               + [{"players": ["random", "a"], "returns": [1, -1]}] * 10)
    fit = fit_ratings(records, prior_sd=None, first_move=False)
    assert fit["a"].rating == pytest.approx(400 * math.log10(3.0), abs=0.1)


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


def test_killed_command_line_run_resumes(tmp_path):
    out = tmp_path / "killed.jsonl"
    command = [sys.executable, "-m", "analysis.tournament", "--game", GAME, "--bot", "random",
               "--bot", "openspiel_mcts:simulations=300", "--games-per-pair", "40", "--seed", "4",
               "--out", str(out), "--chunk", "1", "--no-progress"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
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
    for extra, message in ((["--bot", "random", "--bot", "nosuchbot"], "unknown bot kind"),
                           (["--bot", "random", "--bot", "random"], "distinct")):
        result = subprocess.run([sys.executable, "-m", "analysis.tournament", "--game", GAME,
                                 "--out", str(tmp_path / "x.jsonl"), *extra],
                                cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
        assert result.returncode == 2 and message in result.stderr


def test_joblib_and_dask_local_cluster_give_the_same_records(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    tasks = make_tasks(GAME, SPECS + [BotSpec.make("openspiel_mcts", simulations=60)], 4, seed=9)
    via_joblib = run_tasks(tasks, tmp_path / "joblib.jsonl", n_jobs=2, progress=False, chunk_size=2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        via_dask = run_tasks(tasks, tmp_path / "dask.jsonl", backend="dask", client=client,
                             progress=False, chunk_size=2)
        # The --scheduler ADDRESS path: connect to the running scheduler by its address.
        via_address = run_tasks(tasks, tmp_path / "address.jsonl", backend="dask",
                                scheduler=cluster.scheduler_address, progress=False)
    assert [deterministic_view(r) for r in via_address] == [deterministic_view(r) for r in via_joblib]
    assert len(via_dask) == len(tasks) == 12
    assert [deterministic_view(r) for r in via_dask] == [deterministic_view(r) for r in via_joblib]
    assert len({tuple(r["actions"]) for r in via_dask}) > 1


# ----------------------------------------------------------------------------- plots

def test_plots_write_png_and_svg(tmp_path):
    rows = [{"label": "a", "value": 0.7, "low": 0.6, "high": 0.8, "group": "x", "note": "n=100"},
            {"label": "b", "value": 1.0, "low": 0.9, "high": 1.0, "group": "y"}]
    written = plots.plot_win_rates(rows, tmp_path / "wr", title="t")
    written += plots.plot_rating_vs_compute({"m": [(10, 5, 0, 10), (100, 50, 40, 60)]}, tmp_path / "rc",
                                            title="t", flat={"ab": (20, 10, 30)})
    written += plots.plot_histograms({"a": [1, 2, 2, 3], "b": [4, 5]}, tmp_path / "h", title="t")
    assert sorted(p.suffix for p in written) == [".png", ".png", ".png", ".svg", ".svg", ".svg"]
    for path in written:
        assert path.stat().st_size > 1000


def test_stats_command_line():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    result = subprocess.run([sys.executable, "-m", "analysis.stats", "--precision", "0.05"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stdout.startswith(f"{games_needed(0.05)} games")
    result = subprocess.run([sys.executable, "-m", "analysis.stats", "--wins", "60", "--games", "100"], cwd=ROOT,
                            env=env, capture_output=True, text=True, timeout=60)
    assert "60.0% [50.2, 69.1]" in result.stdout and "p = 0.0569" in result.stdout
    result = subprocess.run([sys.executable, "-m", "analysis.stats"], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 2

"""What lets a long ``economic_dilemmas --full`` run be resumed after its
settings or a rule set changed without mixing old and new records (econ-full2):
``--redo GAME`` drops that game's records (kept aside, never deleted) so the
resume computes them again and the summary comes out as a fresh run's; a game's
own search budget (``--game-simulations``) or a changed rule set is refused
against the old records with a message naming ``--redo``, never mixed; the
ISMCTS check's belief per game is played and stated."""

import json

import pytest

import games  # noqa: F401
from analysis import tournament
from experiments import economic_dilemmas as ed

SMALL = [
    "--cfr-iterations",
    "300",
    "--games-per-pair",
    "2",
    "--simulations",
    "20",
    "--skip-check",
    "--jobs",
    "1",
    "--no-progress",
]
GAMES = ("matrix_pd", "Hide-And-Seek-2")


def run(out, *extra):
    assert ed.main(["--out", str(out), "--games", *GAMES, *SMALL, *extra]) == 0
    return (out / "summary.md").read_text(), (out / "summary.csv").read_text()


def lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture
def counting(monkeypatch):
    """Which games are analysed and which tournament games played (in this process: --jobs 1)."""
    analysed, played = [], []
    real_analyse, real_play = ed.analyse, tournament.play_task
    monkeypatch.setattr(
        ed, "analyse", lambda entry, **kw: analysed.append(entry["name"]) or real_analyse(entry, **kw)
    )
    monkeypatch.setattr(tournament, "play_task", lambda task: played.append(task.game) or real_play(task))
    return analysed, played


@pytest.mark.slow
def test_redo_recomputes_only_that_game_and_keeps_what_it_dropped(tmp_path, counting):
    out = tmp_path / "a"
    expected = run(out)
    analysed, played = counting
    pd_games = {r["game"] for r in lines(out / "records" / "tournament.jsonl") if "matrix_pd" in r["game"]}
    before = len(lines(out / "records" / "tournament.jsonl"))
    analysed.clear(), played.clear()
    assert run(out, "--redo", "matrix_pd") == expected  # same seed: the same summary
    assert analysed == ["matrix_pd"]
    assert set(played) == pd_games and len(played) == 6  # three tables of 2 games, nothing else
    assert len(lines(out / "records" / "tournament.jsonl")) == before  # dropped, then played again
    (dropped,) = (out / "records").glob("dropped-*")
    assert {r["game"] for r in lines(dropped / "analysis.jsonl")} == {"matrix_pd"}
    assert len(lines(dropped / "tournament.jsonl")) == 6
    assert (dropped / "matrix_pd.json").exists() and (out / "policies" / "matrix_pd.json").exists()
    analysed.clear(), played.clear()
    assert run(out) == expected and analysed == [] and played == []  # an ordinary resume redoes nothing


def test_a_games_own_budget_is_refused_against_old_records_until_redone(tmp_path, capsys, counting):
    out = tmp_path / "b"
    run(out)
    with pytest.raises(SystemExit) as refused:
        run(out, "--game-simulations", "Hide-And-Seek-2=7")
    assert "--redo" in str(refused.value) and "Hide-And-Seek-2" in str(refused.value)
    analysed, played = counting
    analysed.clear(), played.clear()
    md, _ = run(out, "--game-simulations", "Hide-And-Seek-2=7", "--redo", "Hide-And-Seek-2")
    assert analysed == ["Hide-And-Seek-2"] and len(played) == 6
    budgets = {
        (r["game"], b["name"]): b["options"]["simulations"]
        for r in lines(out / "records" / "tournament.jsonl")
        for b in r["bots"]
        if b["kind"] == "ismcts"
    }
    assert {k for (g, _), k in budgets.items() if "Hide-And-Seek-2" in g} == {7}
    assert {k for (g, _), k in budgets.items() if "matrix_pd" in g} == {20}
    assert "MCTS/ISMCTS 20 simulations, 7 on Hide-And-Seek-2)" in md.splitlines()[0]
    assert "search 7 simulations a move" in md
    config = json.loads((out / "config.json").read_text())["config"]
    assert config["game_simulations"] == {"Hide-And-Seek-2": 7}


def test_an_analysis_of_an_edited_rule_set_is_made_again(tmp_path, counting):
    out = tmp_path / "c"
    run(out)
    path = out / "records" / "analysis.jsonl"
    records = lines(path)
    assert {r["game"]: r["game_fingerprint"] is None for r in records} == {
        "matrix_pd": True,
        "Hide-And-Seek-2": False,
    }  # OpenSpiel's games have none
    for r in records:
        if r["game"] == "Hide-And-Seek-2":
            r["game_fingerprint"] = "another version"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    analysed, _ = counting
    analysed.clear()
    run(out)
    assert analysed == ["Hide-And-Seek-2"]


def test_the_checks_belief_is_played_and_stated(tmp_path):
    game = f"ttt(rules={ed.EXAMPLES}/Hide-And-Seek-2.json)"
    path = tmp_path / "check.jsonl"
    res = ed.ismcts_check(game, 2, 5, 0, path, dict(n_jobs=1, progress=False), belief="random")
    assert {w["belief"] for w in res.values()} == {"random"}
    specs = {b["name"]: b["options"] for r in lines(path) for b in r["bots"] if b["kind"] == "ismcts"}
    assert specs["ismcts"]["belief"] == "random" and specs["baseline"]["worlds"] == "first"


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--redo", "NoSuchGame"], "--redo: NoSuchGame not among this run's games"),
        (["--game-simulations", "matrix_pd"], "--game-simulations takes NAME=VALUE items"),
        (["--game-simulations", "matrix_pd=0"], "positive integer"),
        (["--game-simulations", "KBeauty9=5"], "--game-simulations: KBeauty9 not among this run's games"),
        (["--check-beliefs", "KBeauty9=oracle"], "the belief must be one of histories, random"),
        (["--check-beliefs", "matrix_pd=random"], "--check-beliefs: matrix_pd not among"),
        (["--check-games-by-game", "matrix_pd=5"], "--check-games-by-game: matrix_pd not among"),
        (["--check-games-by-game", "KBeauty9=0"], "positive integer"),
    ],
)
def test_bad_flags_are_refused(tmp_path, capsys, flags, message):
    with pytest.raises(SystemExit):
        ed.main(["--out", str(tmp_path / "x"), "--games", *GAMES, *flags])
    assert message in capsys.readouterr().err


@pytest.mark.slow
def test_a_check_games_own_count_is_played_and_stated(tmp_path):
    """--check-games-by-game: that check game plays its own games per pairing
    (KBeauty9's 500 in --full), the others --check-games, and the summary says so."""
    out = tmp_path / "run"
    small = [f for f in SMALL if f != "--skip-check"]
    assert (
        ed.main(
            [
                "--out",
                str(out),
                "--games",
                "matrix_pd",
                *small,
                "--check-games",
                "2",
                "--check-simulations",
                "5",
                "--check-games-by-game",
                "Hide-And-Seek-2=4",
            ]
        )
        == 0
    )
    assert len(lines(out / "records" / "ismcts_check_Hide-And-Seek-2.jsonl")) == 2 * 4
    assert len(lines(out / "records" / "ismcts_check_Phantom-TTT-Corners.jsonl")) == 2 * 2
    assert "2 games per pairing (Hide-And-Seek-2: 4)" in (out / "summary.md").read_text()


def test_full_states_its_cuts():
    assert ed.FULL["game_simulations"] == {"3P-9X-HideSeek": 50}
    assert (ed.FULL["check_games"], ed.FULL["check_simulations"], ed.FULL["check_beliefs"]) == (
        100,
        300,
        {"KBeauty9": "random"},
    )
    assert ed.QUICK["game_simulations"] == {} and ed.QUICK["check_beliefs"] == {}
    assert ed.FULL["check_games_by_game"] == {"KBeauty9": 500} and ed.QUICK["check_games_by_game"] == {}
    assert ed.FULL["max_profiles"] == ed.QUICK["max_profiles"] == 100_000


def test_a_table_over_max_profiles_is_refused_on_its_count_before_it_is_built(tmp_path, monkeypatch):
    """max_strategies bounds each player only: KBeauty9 with hidden turns has 512 strategies
    for each of four players, and the full run began its 6.9e10-profile table."""
    import pyspiel

    from games.normal_form import TooLarge
    from solvers import normal_form

    with pytest.raises(
        TooLarge,
        match=r"68,719,476,736 pure-strategy profiles \(strategies per player: 512, 512, "
        r"512, 512\)",
    ):
        ed.count_profiles(pyspiel.load_game("ttt(rules=KBeauty9)"), ed.FULL["max_profiles"])

    def built(*args, **kwargs):
        raise AssertionError("built the table after all")

    monkeypatch.setattr(normal_form, "induced_normal_form", built)
    (entry,) = ed.catalogue_entries(["matrix_rps"])
    rec = ed.analyse(entry, cfr_iterations=10, max_strategies=16, seed=0, out=str(tmp_path), max_profiles=8)
    assert (
        "more than 8 profiles" in rec["table_refused"] and "9 pure-strategy profiles" in rec["table_refused"]
    )
    assert "table" not in rec and rec["cfr"]["iterations"] == 10


def test_analyses_made_before_max_profiles_are_reused_when_their_table_fits():
    key = {"cfr_iterations": 5, "max_strategies": 16, "seed": 0, "max_profiles": 100}
    old = {k: v for k, v in key.items() if k != "max_profiles"}
    assert ed._same_settings({"settings": key}, key)
    assert ed._same_settings({"settings": old, "table": {"shape": [10, 10]}}, key)
    assert not ed._same_settings({"settings": old, "table": {"shape": [10, 11]}}, key)  # would be refused now
    assert ed._same_settings({"settings": old, "table_refused": "too large"}, key)  # refused either way
    assert not ed._same_settings({"settings": dict(old, seed=1)}, key)
    assert not ed._same_settings({"settings": dict(key, max_profiles=99)}, key)


@pytest.mark.slow
def test_summary_only_summarises_a_stopped_run_and_plays_nothing(tmp_path, counting):
    out = tmp_path / "d"
    expected = run(out)
    analysed, played = counting
    analysed.clear(), played.clear()
    assert run(out, "--summary-only") == expected  # a finished run: the same summary
    path = out / "records" / "tournament.jsonl"
    stored = path.read_text().splitlines()
    hide = [i for i, line in enumerate(stored) if "Hide-And-Seek-2" in json.loads(line)["game"]]
    path.write_text("".join(line + "\n" for i, line in enumerate(stored) if i not in hide[:4]))
    md, _ = run(out, "--summary-only")
    assert analysed == [] and played == []  # nothing analysed or played
    assert "**Incomplete: the run was stopped before its end**" in md
    assert (
        "Hide-And-Seek-2 tournament 2 of 6 games" in md and "Tournament not finished: 2 of its 6 games" in md
    )
    assert "matrix_pd tournament" not in md  # finished parts are not listed
    path.write_text("".join(line + "\n" for i, line in enumerate(stored) if i not in hide))
    md, _ = run(out, "--summary-only")  # a tournament not begun: no rows
    assert "Hide-And-Seek-2 tournament 0 of 6 games" in md and "nan%" not in md and "| nan" not in md
    run(out)  # the resume plays just the six
    assert len(played) == 6 and set(played) == {json.loads(stored[i])["game"] for i in hide}


def test_summary_only_needs_a_run_to_summarise(tmp_path):
    with pytest.raises(SystemExit, match="no config.json"):
        ed.main(["--out", str(tmp_path / "none"), "--games", *GAMES, *SMALL, "--summary-only"])


def test_tournaments_are_played_cheapest_first(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text(
        "".join(
            json.dumps(r) + "\n"
            for r in [
                {"key": "a|0", "game": "A", "wall_seconds": 9.0},
                {"key": "a|1", "game": "A", "wall_seconds": 7.0},
                {"key": "b|0", "game": "B", "wall_seconds": 0.5},
            ]
        )
    )
    rows = [
        {"name": n, "tournament_game": g}
        for n, g in (("a", "A"), ("new1", "N1"), ("b", "B"), ("skipped", "S"), ("new2", "N2"))
    ]
    tasks = {"a": [1], "b": [1], "new1": [1], "new2": [1]}
    assert ed.tournament_order(rows, tasks, path) == ["b", "a", "new1", "new2"]

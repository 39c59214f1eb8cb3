"""experiments.economic_dilemmas: the textbook answers on games whose answers
are known (Prisoner's Dilemma: unique equilibrium mutual defection, price of
anarchy 5 on OpenSpiel's table; hide and seek: 50/50, value -1/2 for the
hider), reproducible from its random seed, and resumable after an interruption."""

import csv
import json

import pytest

import games  # noqa: F401
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


def run(out, *extra, games_=("matrix_pd", "Hide-And-Seek-2")):
    assert ed.main(["--out", str(out), "--games", *games_, *SMALL, *extra]) == 0
    return (out / "summary.md").read_text(), (out / "summary.csv").read_text()


@pytest.fixture(scope="module")
def first(tmp_path_factory):
    out = tmp_path_factory.mktemp("ed") / "a"
    return out, run(out)


def test_textbook_answers(first):
    out, (md, text) = first
    rows = {r["game"]: r for r in csv.DictReader(text.splitlines())}
    pd, hs = rows["matrix_pd"], rows["Hide-And-Seek-2"]
    assert (pd["classified"], pd["reproduces"], pd["equilibria"], pd["pure_equilibria"]) == (
        "prisoners-dilemma",
        "yes",
        "1",
        "1",
    )
    assert float(pd["price_of_anarchy"]) == pytest.approx(5.0)  # (5+5) / (1+1)
    assert pd["cfr_nearest_equilibrium"] == "0" and float(pd["cfr_distance"]) < 1e-3
    assert pd["cfr_nash_conv_is_approximation"] == "True"  # general-sum: stated
    assert (hs["classified"], hs["reproduces"]) == ("matching-pennies", "yes")
    assert float(hs["cfr_nash_conv"]) < 1e-2 and hs["cfr_nash_conv_is_approximation"] == "False"
    records = [json.loads(line) for line in (out / "records" / "analysis.jsonl").read_text().splitlines()]
    hide = next(r for r in records if r["game"] == "Hide-And-Seek-2")
    (eq,) = hide["equilibria"]
    assert eq["strategies"] == [[0.5, 0.5], [0.5, 0.5]] and eq["payoffs"] == [-0.5, 0.5]
    assert hide["cfr"]["payoffs"] == pytest.approx([-0.5, 0.5], abs=1e-2)
    assert "| Defect | 10, 0 | 1, 1 |" in md
    for name in (
        "config.json",
        "cfr_convergence.png",
        "tournament_returns.png",
        "policies/matrix_pd.json",
        "records/tournament.jsonl",
    ):
        assert (out / name).exists(), name
    config = json.loads((out / "config.json").read_text())
    assert config["config"]["seed"] == 0 and config["git"]["commit"]
    # the bots: ISMCTS for the hidden-information and simultaneous games, the saved CFR policy, Random
    played = [json.loads(line) for line in (out / "records" / "tournament.jsonl").read_text().splitlines()]
    assert {p for r in played for p in r["players"]} == {"random", "cfr", "ismcts"}


def test_same_seed_same_summary(first, tmp_path):
    _, (md, text) = first
    assert run(tmp_path / "b") == (md, text)


def test_resumes_after_an_interruption(first, tmp_path, monkeypatch):
    _, expected = first
    real = ed.analyse
    calls = []

    def interrupted(entry, **kw):
        calls.append(entry["name"])
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(entry, **kw)

    monkeypatch.setattr(ed, "analyse", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run(tmp_path / "c")
    stored = (tmp_path / "c" / "records" / "analysis.jsonl").read_text().splitlines()
    assert len(stored) == 1  # the first game survived the interruption
    monkeypatch.setattr(ed, "analyse", real)
    redo = []
    monkeypatch.setattr(ed, "analyse", lambda entry, **kw: redo.append(entry["name"]) or real(entry, **kw))
    assert run(tmp_path / "c") == expected
    assert redo == [calls[1]]  # only the unfinished game was analysed again


def test_bad_input_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit):
        ed.main(["--out", str(tmp_path / "x"), "--games", "NoSuchGame"])
    assert "unknown game 'NoSuchGame'" in capsys.readouterr().err
    from games.ttt.dilemmas import available

    if "StagHunt" not in {d.name for d in available()}:
        with pytest.raises(SystemExit):
            ed.main(["--out", str(tmp_path / "y"), "--games", "StagHunt"])
        assert "not in the catalogue yet" in capsys.readouterr().err


def test_sequential_perfect_information_game_gets_its_subgame_perfect_play(tmp_path):
    rec = ed.analyse(
        {"name": "nim", "game": "nim(pile_sizes=1;2)", "kind": "reference", "encodes": None, "expects": None},
        cfr_iterations=50,
        max_strategies=256,
        seed=0,
        out=str(tmp_path),
    )
    assert rec["spe"]["value"] == [1.0, -1.0]  # nim 1,2: the first player wins
    assert rec["reproduces"] == "not checkable"
    assert ed.bot_specs(rec, 10)[-1].kind in ("mcts", "openspiel_mcts")  # no hidden state: plain MCTS


def test_table_win_rates_compare_mean_returns_of_each_bots_seats():
    """The ISMCTS check on games of more than two players (KBeauty9): a game counts as a
    win when ISMCTS's seats' mean return beats the other bot's, a draw when equal."""
    from experiments.economic_dilemmas import table_win_rates

    records = [
        {"players": ["ismcts", "random", "random", "random"], "returns": [1, -1, -1, -1]},  # win
        {"players": ["random", "ismcts", "ismcts", "random"], "returns": [1, 1, -1, -1]},  # 0 vs 0: draw
        {"players": ["random", "random", "ismcts", "random"], "returns": [1, 1, -1, 1]},  # loss
        {"players": ["ismcts", "baseline", "baseline", "ismcts"], "returns": [1, 0, 0, 0]},  # win
    ]
    rates = table_win_rates(records, "ismcts")
    r = rates[("ismcts", "random")]
    assert (r.wins, r.draws, r.losses) == (1, 1, 1)
    b = rates[("ismcts", "baseline")]
    assert (b.wins, b.draws, b.losses) == (1, 0, 0)

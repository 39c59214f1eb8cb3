"""The command line, benchmarks (resume after a kill) and evolution plots."""

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from registry import Registry, benchmark, cli, players, results, users
from test_registry_store import ruleset, snapshot

ROOT = Path(__file__).resolve().parents[1]


def run(db, *args):
    return cli.main(["--db", str(db), *args])


def test_cli_round_trip(tmp_path, capsys):
    db = tmp_path / "r.sqlite3"
    assert run(db, "user-add", "root", "--role", "admin") == 0
    assert run(db, "user-add", "cat") == 0
    (tmp_path / "rs.json").write_text(json.dumps(ruleset("Sq4")))
    assert run(db, "save", str(tmp_path / "rs.json"), "--as", "cat") == 0
    assert run(db, "bot-add", "m5", "mcts:simulations=5") == 0
    capsys.readouterr()
    assert run(db, "list", "--creator", "cat") == 0
    assert [r["name"] for r in json.loads(capsys.readouterr().out)] == ["Sq4"]
    assert run(db, "benchmark", "Sq4", "m5", "Random", "--as", "root", "--games", "4") == 0
    assert json.loads(capsys.readouterr().out)["games"] == 4
    assert run(db, "leaderboard", "Sq4", "--json") == 0
    board = json.loads(capsys.readouterr().out)
    assert {e["player"] for e in board} == {"m5", "Random"}
    assert run(db, "evolution", "Sq4", "m5", "Random", "--out", str(tmp_path / "ev")) == 0
    assert all((tmp_path / f"ev.{ext}").stat().st_size > 0 for ext in ("png", "svg", "json"))
    assert set(json.loads((tmp_path / "ev.json").read_text())) == {"m5", "Random"}


@pytest.mark.parametrize(
    "args,message",
    [
        (["rename", "Sq4", "New", "--as", "cat"], "only an Admin"),
        (["save", "missing.json", "--as", "cat"], "cannot read"),
        (["user-add", "boss", "--role", "admin", "--as", "cat"], "only an Admin"),
        (["benchmark", "Sq4", "m5", "Random", "--as", "cat"], "Trainer or Admin"),
        (["benchmark", "Sq4", "m5", "--as", "root"], "at least 2"),
        (["benchmark", "Sq4", "m5", "ghost", "--as", "root"], "unknown player"),
        (["benchmark", "Sq4", "m5", "Random", "--as", "root", "--games", "0"], "positive"),
        (["leaderboard", "Nope"], "unknown rule set"),
        (["bot-add", "b", "mcts:simulations=-3"], "bot spec"),
    ],
)
def test_cli_errors_change_nothing(tmp_path, capsys, args, message):
    db = tmp_path / "r.sqlite3"
    run(db, "user-add", "root", "--role", "admin")
    run(db, "user-add", "cat")
    run(db, "bot-add", "m5", "mcts:simulations=5")
    with Registry(db) as reg:
        from registry import rulesets

        rulesets.save_rule_set(reg, "cat", ruleset("Sq4"))
        before = snapshot(reg)
    capsys.readouterr()
    assert run(db, *args) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err
    with Registry(db) as reg:
        assert snapshot(reg) == before


def test_every_subcommand_has_help():
    parser = cli._parser()
    commands = parser._subparsers._group_actions[0].choices
    for name in commands:
        with pytest.raises(SystemExit) as stop:
            cli.main([name, "--help"])
        assert stop.value.code == 0


def test_benchmark_condition(tmp_path):
    with Registry(tmp_path / "r.sqlite3") as reg:
        users.add_user(reg, "root", "admin")
        for n in (5, 10, 40):
            players.add_bot(reg, f"m{n}", f"mcts:simulations={n}")
        assert not benchmark.qualifies(reg, "Tic-Tac-Toe", "Public", ["m5", "Random"])
        benchmark.benchmark(reg, "root", "Tic-Tac-Toe", ["m5", "m40", "Random"], games=4)
        board = [e for e in __import__("registry").leaderboard.leaderboard(reg, "Tic-Tac-Toe") if e.games]
        top = board[0].player
        fav = benchmark.favoured_by(reg, "Tic-Tac-Toe", "Public", top)
        assert fav is not None and fav != top
        others = [p for p in ("m5", "m10", "m40") if p not in (top, fav)]
        assert not benchmark.qualifies(reg, "Tic-Tac-Toe", "Public", sorted({top, fav, "Random"}))
        assert benchmark.qualifies(reg, "Tic-Tac-Toe", "Public", sorted({top, fav, "Random", others[0]}))


def test_killed_benchmark_resumes_without_losing_or_repeating(tmp_path):
    db = tmp_path / "r.sqlite3"
    with Registry(db) as reg:
        users.add_user(reg, "root", "admin")
        players.add_bot(
            reg, "m30", "mcts:simulations=300"
        )  # slow enough to be killed part way under any load
        players.add_bot(reg, "m60", "mcts:simulations=600")
    args = [
        sys.executable,
        "-m",
        "registry",
        "--db",
        str(db),
        "benchmark",
        "Tic-Tac-Toe",
        "m30",
        "m60",
        "Random",
        "--as",
        "root",
        "--games",
        "40",
    ]
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    stored = 0
    while time.time() < deadline and proc.poll() is None:
        time.sleep(0.05)
        # seed=False: only count, without the catalogue check that made each poll
        # slow enough on a loaded machine for the benchmark to finish unseen
        with Registry(db, seed=False) as reg:
            stored = reg.one("SELECT count(*) FROM games")[0]
        if stored >= 3:  # kill early: under load the last polls lag the writer
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert 3 <= stored < 120, "the benchmark should have been killed part way"
    assert subprocess.run(args, cwd=ROOT, capture_output=True).returncode == 0
    with Registry(db) as reg:
        games = results.games_of(reg, "Tic-Tac-Toe")
        keys = [g["task_key"] for g in games]
        assert len(games) == 120 and len(set(keys)) == 120
        for pair in (("m30", "m60"), ("Random", "m30"), ("Random", "m60")):
            assert sum(sorted(g["players"]) == sorted(pair) for g in games) == 40


def test_leaderboard_add_player(tmp_path, capsys, monkeypatch):
    """The tic-tac-toe variations specification's "Add Player": `leaderboard --add
    P` (repeatable) shows P even when the ten rows (here three) are full; a player
    who has not played is refused."""
    from registry import leaderboard as lb
    from test_registry_games import random_game

    monkeypatch.setattr(lb, "ROWS", 3)
    db = tmp_path / "r.sqlite3"
    with Registry(db) as reg:
        users.add_user(reg, "ann", "creator")
        for i in range(4):
            players.add_bot(reg, f"b{i}", f"mcts:simulations={30 + i}")
        players.add_bot(reg, "idle", "mcts:simulations=9")
        actions, returns = random_game(reg, "Tic-Tac-Toe", 0)
        winner = 0 if returns[0] > 0 else 1
        for i in range(4):  # b_i beats ann i + 1 times: ann is last
            seats = [f"b{i}", "ann"] if winner == 0 else ["ann", f"b{i}"]
            for _ in range(i + 1):
                results.record_game(reg, "Tic-Tac-Toe", seats, returns, actions)

    def board(*args):
        capsys.readouterr()
        assert run(db, "leaderboard", "Tic-Tac-Toe", "--json", *args) == 0
        return [e["player"] for e in json.loads(capsys.readouterr().out)]

    plain = board()
    assert len(plain) == 3 and "Random" in plain and "ann" not in plain and "b0" not in plain
    added = board("--add", "ann", "--add", "b0")
    assert len(added) == 3 and {"Random", "ann", "b0"} == set(added)
    for player, message in (("ghost", "unknown player"), ("idle", "has not played")):
        assert run(db, "leaderboard", "Tic-Tac-Toe", "--add", player) == 2
        assert message in capsys.readouterr().err


def test_leaderboard_defaults_to_the_users_most_recent_universe(tmp_path, capsys):
    db = tmp_path / "r.sqlite3"
    with Registry(db) as reg:
        users.add_user(reg, "ann", "creator")
        players.add_universe(reg, "ann", "Dream")
        players.add_persona(reg, "ann", "Dream", "ann-dream")
        from test_registry_games import random_game

        actions, returns = random_game(reg, "Tic-Tac-Toe", 0)
        results.record_game(reg, "Tic-Tac-Toe", ["ann-dream", "Random"], returns, actions, universe="Dream")

    def shown(*args):
        capsys.readouterr()
        assert run(db, "leaderboard", "Tic-Tac-Toe", "--json", *args) == 0
        return {e["player"] for e in json.loads(capsys.readouterr().out)}

    assert shown("--user", "ann") == {"Random"}  # Public: nothing played
    assert shown("--user", "ann", "--universe", "Dream") == {"Random", "ann-dream"}
    assert shown("--user", "ann") == {"Random", "ann-dream"}  # Dream was remembered
    assert shown() == {"Random"}  # no user: Public
    assert run(db, "leaderboard", "Nope", "--user", "ann", "--universe", "Public") == 2
    assert shown("--user", "ann") == {"Random", "ann-dream"}  # the refusal changed nothing
    assert shown("--user", "ann", "--universe", "Public") == {"Random"}
    assert shown("--user", "ann") == {"Random"}


@pytest.mark.slow
def test_joblib_workers_follow_the_database_of_each_benchmark(tmp_path):
    """loky keeps its worker processes between calls: a second benchmark in the
    same process, on another database, must not meet workers that still look at
    the first one (they would not know its saved rule set)."""
    for i, name in enumerate(["SqA", "SqB"]):
        with Registry(tmp_path / f"{name}.sqlite3") as reg:
            users.add_user(reg, "root", "admin")
            users.add_user(reg, "cat", "creator")
            from registry import rulesets

            rulesets.save_rule_set(reg, "cat", ruleset(name, black=3 + i))
            players.add_bot(reg, "m5", "mcts:simulations=5")
            out = benchmark.benchmark(reg, "root", name, ["m5", "Random"], games=2, n_jobs=2)
            assert out["games"] == 2 and len(results.games_of(reg, name)) == 2


def test_an_admin_changes_a_users_role_and_the_last_admin_keeps_it(tmp_path, capsys):
    db = tmp_path / "r.sqlite3"
    run(db, "user-add", "root", "--role", "admin")
    run(db, "user-add", "pat")
    capsys.readouterr()
    assert run(db, "user-role", "pat", "trainer", "--as", "pat") == 2  # a Creator may not
    assert "only an Admin may change a role" in capsys.readouterr().err
    assert run(db, "user-role", "pat", "trainer", "--as", "root") == 0
    assert "pat: creator -> trainer" in capsys.readouterr().out
    assert run(db, "user-role", "root", "creator", "--as", "root") == 2
    assert "root is the last Admin" in capsys.readouterr().err
    assert run(db, "user-role", "pat", "admin", "--as", "root") == 0
    assert run(db, "user-role", "root", "creator", "--as", "root") == 0  # pat is an Admin now
    with Registry(db) as reg:
        assert {u["name"]: u["role"] for u in users.list_users(reg)} == {"pat": "admin", "root": "creator"}

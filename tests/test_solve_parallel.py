"""The split solver (solvers/parallel.py) against the serial one (solvers/exhaustive.py):
same values, same winning first moves, same value of every opening, on joblib's
processes and on a real Dask cluster; a run killed mid-way resumes from its
records and solves only the rest; bad input is refused with a message."""

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyspiel
import pytest

import solvers.testgames  # noqa: F401  (registers solver_test_tree)
from records import SettingsMismatch, read_records
from solvers import exhaustive, parallel
from solvers import solve as solve_cli

ROOT = Path(__file__).resolve().parents[1]
SAME = ("value", "winning_first_moves", "opening_values", "complete")

# Small boards of each kind: Y (the Y solver), a flip variant (runs of placements
# and flips by one player), Defector Y, Flipway, a draw game, and synthetic trees
# with chance nodes and three players (expectimax and paranoid combinations).
GAMES = [
    ("y_game(board_size=5)", {}),
    ("y_game(board_size=4)", {"method": "alphabeta"}),
    ("double_o_y(board_size=4,flip=all,protocol=122)", {}),
    ("double_o_y(board_size=4,flip=opponents,protocol=1)", {}),
    ("defector_y(board_size=4,protocol=1)", {}),
    ("flipway(board_size=4)", {}),
    ("ttt(rules=Tic-Tac-Toe)", {}),
    ("solver_test_tree(pattern=00c11c0,seed=1,branching=3)", {}),
    ("solver_test_tree(pattern=01c20c12,seed=2,players=3,branching=3)", {}),
]


def serial(game, **kw):
    return exhaustive.solve(game, tt_log2=16, **kw)


def same(a, b):
    return {k: a[k] for k in SAME} == {k: b[k] for k in SAME}


@pytest.mark.parametrize("game,kw", GAMES)
@pytest.mark.parametrize("split_depth,order_plies", [(1, 2), (2, 2), (3, 2), (2, 0)])
def test_two_joblib_workers_match_the_serial_solver(game, kw, split_depth, order_plies):
    expected = serial(game, **kw)
    got = parallel.solve(
        game,
        jobs=2,
        split_depth=split_depth,
        tt_log2=16,
        order_plies=order_plies,
        imports=("solvers.testgames",),
        **kw,
    )
    assert same(got, expected), (got, expected)
    assert got["complete"] and got["workers"] == 2 and got["units_solved"] >= 1
    assert got["symmetry_classes"] == expected["symmetry_classes"]


def test_chance_and_three_players_match_brute_force():
    from test_solvers import brute

    for gs in (
        "solver_test_tree(pattern=c0c1,seed=3)",
        "solver_test_tree(pattern=01c20c12,seed=2,players=3,branching=3)",
    ):
        game = pyspiel.load_game(gs)
        got = parallel.solve(game, jobs=1, split_depth=3, tt_log2=16)
        assert got["value"] == pytest.approx(brute(game.new_initial_state()))


def test_each_position_up_to_symmetry_is_solved_once():
    # Y 4 from the root: 3 opening classes; 2 plies deep, the replies to each
    # class representative, grouped by symmetry (the corner's mirror pairs merge).
    got = parallel.solve("y_game(board_size=4)", jobs=1, split_depth=2, method="alphabeta", tt_log2=16)
    game = pyspiel.load_game("y_game(board_size=4)")
    ev = exhaustive.Evaluator(game, method="alphabeta", tt_log2=10)
    keys = set()
    for members in ev.classes():
        first = ev.child_of(members[0])
        keys |= {ev.searcher.canonical_key(ev.child_of(a, first)) for a in first.legal_action_list()}
    assert got["units"] == len(keys) < 3 * 9
    assert same(got, serial("y_game(board_size=4)", method="alphabeta"))


def test_dask_local_cluster_matches_the_serial_solver(capsys):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        for game in ("y_game(board_size=5)", "double_o_y(board_size=4,flip=friends,protocol=1)"):
            capsys.readouterr()
            assert (
                solve_cli.main(
                    [
                        "--game",
                        game,
                        "--backend",
                        "dask",
                        "--scheduler",
                        cluster.scheduler_address,
                        "--tt-log2",
                        "16",
                        "--json",
                        "--openings",
                        "--quiet",
                    ]
                )
                == 0
            )
            got = json.loads(capsys.readouterr().out)
            assert got["backend"] == "dask" and got["workers"] == 2
            assert same(got, serial(game))
        # the function face, and a cluster of threads (one evaluator per thread)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as threads:
        game = "flipway(board_size=4)"
        got = parallel.solve(game, backend="dask", scheduler=threads.scheduler_address, tt_log2=16)
        assert same(got, serial(game))


def test_the_cli_prints_the_serial_winning_moves(capsys):
    game = "double_o_y(board_size=4,flip=opponents,protocol=1)"
    assert (
        solve_cli.main(["--game", game, "--jobs", "2", "--json", "--openings", "--quiet", "--tt-log2", "16"])
        == 0
    )
    got = json.loads(capsys.readouterr().out)
    expected = serial(game)
    assert same(got, expected) and got["winning_first_moves"]  # a3 b3 a2 b2 c2 b1 c1


def test_a_killed_solve_resumes_from_its_records_and_solves_only_the_rest(tmp_path):
    # Every opening of Defector Y 5 (protocol 1) wins, so every reply must be
    # proven: no unit can be skipped by a cutoff, and the split is the same each run.
    game = "defector_y(board_size=5,protocol=1)"
    store = tmp_path / "solve.jsonl"
    cmd = [
        sys.executable,
        "-m",
        "solvers.solve",
        "--game",
        game,
        "--jobs",
        "1",
        "--split-depth",
        "2",
        "--records",
        str(store),
        "--tt-log2",
        "16",
        "--json",
        "--openings",
        "--quiet",
    ]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while not (store.exists() and store.read_text().count("\n") >= 1):
        assert proc.poll() is None and time.monotonic() < deadline, "no record before the end"
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    killed = read_records(store)  # a torn last line is left out on reading
    before = {r["key"] for r in killed}
    done_openings = {r["key"] for r in killed if r.get("opening")}
    assert before

    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert same(got, serial(game))
    new = [r["key"] for r in read_records(store)[len(killed) :] if r.get("unit")]
    assert got["units_solved"] == len(new) and not set(new) & before  # nothing solved twice
    # ... and exactly the rest: the units of a fresh run, less those already stored
    # and those below an opening whose record was already stored.
    fresh = tmp_path / "fresh.jsonl"
    parallel.solve(game, jobs=1, split_depth=2, records=str(fresh), tt_log2=16)
    all_units = {r["key"] for r in read_records(fresh) if r.get("unit")}
    rest = {k for k in all_units - before if k.split("/")[0] not in done_openings}
    assert set(new) == rest
    openings = {r["key"] for r in read_records(store) if r.get("opening")}
    assert len(openings) == got["symmetry_classes"]

    # A finished store resumes everything; another game's run is refused.
    again = parallel.solve(game, records=str(store), tt_log2=16)
    assert again["units_solved"] == 0 and same(again, got)
    with pytest.raises(SettingsMismatch):
        parallel.solve("defector_y(board_size=5,protocol=122)", records=str(store), tt_log2=16)


def test_stop_after_then_resume(tmp_path):
    game = "double_o_y(board_size=4,flip=opponents,protocol=1)"
    store = tmp_path / "s.sqlite"
    first = parallel.solve(game, jobs=1, split_depth=2, records=str(store), stop_after=3, tt_log2=16)
    assert first["units_solved"] == 3 and not first["complete"] and first["value"] is None
    rest = parallel.solve(game, jobs=2, split_depth=2, records=str(store), tt_log2=16)
    assert rest["units_resumed"] >= 1 and same(rest, serial(game))  # an opening or its units


@pytest.mark.parametrize(
    "argv,message",
    [
        (["--jobs", "0"], "--jobs must be a positive number"),
        (["--jobs", "-2"], "--jobs must be a positive number"),
        (["--backend", "spark"], "invalid choice: 'spark'"),
        (["--scheduler", "tcp://127.0.0.1:8786"], "--scheduler needs --backend dask"),
        (
            ["--jobs", "2", "--scheduler", "tcp://127.0.0.1:8786", "--backend", "joblib"],
            "--scheduler needs --backend dask",
        ),
        (["--split-depth", "0"], "--split-depth must be >= 1"),
        (["--jobs", "2", "--depth", "3"], "does not combine"),
    ],
)
def test_bad_parallel_flags_are_refused(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        solve_cli.main(["--game", "y_game(board_size=3)", *argv])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_an_unreachable_scheduler_is_reported(capsys):
    pytest.importorskip("dask.distributed")
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    start = time.monotonic()
    assert (
        solve_cli.main(
            [
                "--game",
                "y_game(board_size=3)",
                "--backend",
                "dask",
                "--scheduler",
                f"tcp://127.0.0.1:{port}",
                "--connect-timeout",
                "2",
                "--quiet",
            ]
        )
        == 2
    )
    assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}" in capsys.readouterr().err
    assert time.monotonic() - start < 60


def test_the_function_face_refuses_bad_arguments():
    with pytest.raises(ValueError, match="jobs must be a positive integer"):
        parallel.solve("y_game(board_size=3)", jobs=0)
    with pytest.raises(ValueError, match="backend must be one of joblib, dask"):
        parallel.solve("y_game(board_size=3)", backend="ray")
    with pytest.raises(ValueError, match="needs the dask backend"):
        parallel.solve("y_game(board_size=3)", scheduler="tcp://127.0.0.1:1")
    with pytest.raises(ValueError, match="split_depth"):
        parallel.solve("y_game(board_size=3)", split_depth=0)


def test_dask_without_a_scheduler_starts_and_closes_its_own_cluster():
    pytest.importorskip("dask.distributed")
    game = "y_game(board_size=4)"
    got = parallel.solve(game, backend="dask", jobs=2, tt_log2=16)
    assert got["workers"] == 2 and same(got, serial(game))


def test_the_speedup_benchmark_checks_values_and_reports_ratios(capsys):
    from experiments import bench_solvers

    out = bench_solvers.parallel_speedup("flipway(board_size=4)", jobs=(1, 2), tt_log2=16)
    assert [(r["solver"], r["jobs"], r["table"]) for r in out["rows"]] == [
        ("serial", 1, "private"),
        ("split", 1, "private"),
        ("split", 2, "private"),
        ("split", 2, "shared"),
    ]
    assert all(r["agrees"] and r["value"] == -1 for r in out["rows"])
    assert all(r["ratio"] > 0 and r["cpu_ratio"] > 0 for r in out["rows"])
    assert len(out["rows"][2]["worker_cpu_seconds"]) <= 2
    assert bench_solvers.main(["--parallel", "flipway(board_size=4)", "--tt-log2", "16"]) == 0
    assert "x2" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        bench_solvers.main(["--parallel", "flipway(board_size=4)", "--parallel-jobs", "0"])


def _children(pid):
    kids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                kids.append(int(entry.name))
    return kids


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_sigterm_ends_the_worker_processes_too(tmp_path):
    store = tmp_path / "t.jsonl"
    cmd = [
        sys.executable,
        "-m",
        "solvers.solve",
        "--game",
        "defector_y(board_size=5,protocol=1)",
        "--jobs",
        "2",
        "--split-depth",
        "2",
        "--records",
        str(store),
        "--tt-log2",
        "16",
        "--quiet",
    ]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while not (store.exists() and store.read_text().count("\n") >= 1):  # the workers are busy
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.005)
        workers = _children(proc.pid)
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert workers and code == 128 + signal.SIGTERM

    def alive():
        running = []
        for pid in workers:
            try:
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if state != "Z":
                running.append(pid)
        return running

    # a terminated worker may need a while to be scheduled and exit on a loaded
    # machine (a fixed 1 s wait failed at load 20); an orphan never exits
    deadline = time.monotonic() + 30
    while alive() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(), "worker processes outlived a terminated solve"

"""The shared transposition table (solvers/shared_tt.py, Searcher(shared=...)):
two workers sharing one table give the serial solver's values; an entry torn by
two writers, or another position's entry in the same bucket, is never trusted;
the segment is removed after the solve, after a stop, and when the solving
process is killed outright."""

import os
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from solvers._alphabeta import ENTRY_BYTES, Searcher

import solvers.testgames  # noqa: F401  (registers solver_test_tree)
from games.openspiel import core_of
from solvers import exhaustive, parallel, shared_tt
from solvers.exhaustive import load

ROOT = Path(__file__).resolve().parents[1]
SAME = ("value", "winning_first_moves", "opening_values", "complete")

pytestmark = pytest.mark.skipif(not shared_tt.available(), reason="needs POSIX shared memory (/dev/shm)")

GAMES = [
    ("y_game(board_size=4)", {"method": "alphabeta"}),
    ("double_o_y(board_size=4,flip=all,protocol=122)", {}),
    ("double_o_y(board_size=4,flip=opponents,protocol=1)", {}),
    ("double_o_y(board_size=4,flip=friends,protocol=1,win=turn_end)", {}),
    ("defector_y(board_size=4,protocol=1)", {}),
    ("flipway(board_size=4)", {}),
    ("flipway(board_size=4,pie=True)", {}),
    ("ttt(rules=Tic-Tac-Toe)", {}),
    ("solver_test_tree(pattern=00c11c0,seed=1,branching=3)", {}),
    ("solver_test_tree(pattern=01c20c12,seed=2,players=3,branching=3)", {}),
]


def mine():
    """This process's shared tables still present."""
    return shared_tt.leftovers(os.getpid())


@pytest.mark.parametrize("game,kw", GAMES)
@pytest.mark.parametrize("split_depth", [1, 2])
def test_two_workers_sharing_one_table_match_the_serial_solver(game, kw, split_depth):
    expected = exhaustive.solve(game, tt_log2=16, **kw)
    got = parallel.solve(
        game,
        jobs=2,
        split_depth=split_depth,
        tt_log2=16,
        shared_tt=True,
        imports=("solvers.testgames",),
        **kw,
    )
    assert {k: got[k] for k in SAME} == {k: expected[k] for k in SAME}, (got, expected)
    assert got["shared_tt"] and got["workers"] == 2 and got["complete"]
    assert mine() == []


def test_the_second_worker_reuses_what_the_first_proved():
    """Two searchers on one table: the second finds the first's root value at once."""
    game = load("double_o_y(board_size=4,flip=all,protocol=122)")
    core = core_of(game)
    with shared_tt.SharedTable(14) as table:
        a = Searcher(
            core, 0, game.min_utility(), game.max_utility(), True, 14, shared=shared_tt.attach(table.name, 14)
        )
        b = Searcher(
            core, 0, game.min_utility(), game.max_utility(), True, 14, shared=shared_tt.attach(table.name, 14)
        )
        va = a.value(core)
        vb = b.value(core)
        private = Searcher(core, 0, game.min_utility(), game.max_utility(), True, 14)
        assert va == vb == private.value(core)
        assert a.nodes == private.nodes > 100 and b.nodes == 1
        del a, b
    assert mine() == []


@pytest.mark.parametrize("scheme", ["depth", "size", "size4"])
@pytest.mark.parametrize(
    "game_string",
    ["double_o_y(board_size=4,flip=opponents,protocol=1)", "defector_y(board_size=4,protocol=122)"],
)
def test_every_replacement_scheme_gives_the_private_values_on_a_shared_table(scheme, game_string):
    """Every opening of a small board, searched by two searchers taking turns on one
    small shared table (so entries are replaced often), against a private search."""
    game = load(game_string)
    root = core_of(game)
    lo, hi = game.min_utility(), game.max_utility()
    private = Searcher(root, 0, lo, hi, True, 10, tt_replace=scheme)
    with shared_tt.SharedTable(10) as table:
        pair = [
            Searcher(root, 0, lo, hi, True, 10, tt_replace=scheme, shared=shared_tt.attach(table.name, 10))
            for _ in range(2)
        ]
        for i, a in enumerate(root.legal_action_list()):
            child = root.clone()
            child.apply_action(a)
            assert pair[i % 2].value(child) == private.value(child), (scheme, a)
        del pair


def _words(buf):
    return np.frombuffer(buf, dtype=np.uint64)


def _poisoned_root(game_string, tamper):
    """Solve the root on a shared table, let ``tamper(words, slot, entry)`` edit
    the raw table around the root's entry, and return what a fresh searcher on
    the same table then says, with the private solver's value and the lookup."""
    game = load(game_string)
    core = core_of(game)
    lo, hi = game.min_utility(), game.max_utility()
    truth = Searcher(core, 0, lo, hi, True, 12).value(core)[0]
    with shared_tt.SharedTable(12) as table:
        buf = shared_tt.attach(table.name, 12)
        first = Searcher(core, 0, lo, hi, True, 12, shared=buf)
        assert first.value(core)[0] == truth
        key = first.canonical_key(core)
        entry = first.tt_lookup(key)
        assert entry is not None and entry["value"] == truth and entry["flag"] == 0
        words = _words(buf)
        slot = first.tt_slot(key)
        # find which of the bucket's entries holds the root (the check word decodes to the key)
        for i in range(slot, slot + 2):
            w = words[4 * i : 4 * i + 4]
            if int(w[0] ^ w[1] ^ w[2] ^ w[3]) == key:
                tamper(words, i, key, truth)
                break
        else:
            raise AssertionError("the root's entry is not in its bucket")
        second = Searcher(core, 0, lo, hi, True, 12, shared=buf)
        looked = second.tt_lookup(key)
        value = second.value(core)[0]
        del first, second
    return value, truth, looked


def _as_word(x: float) -> np.uint64:
    return np.uint64(struct.unpack("<Q", struct.pack("<d", x))[0])


GAME = "double_o_y(board_size=4,flip=opponents,protocol=1)"


def test_a_torn_entry_is_a_miss_and_the_search_stays_exact():
    # half of another write: the value word of a write claiming the opposite
    # result landed, the check word of the old one did not
    def tear(words, i, key, truth):
        words[4 * i + 1] = _as_word(-truth)

    value, truth, looked = _poisoned_root(GAME, tear)
    assert looked is None
    assert value == truth


def test_a_forced_collision_is_never_trusted():
    # another position's entry (key differing in the high bits: same bucket),
    # complete and consistent, claiming the opposite value
    def collide(words, i, key, truth):
        other = key ^ (1 << 63)
        w = words[4 * i : 4 * i + 4].copy()
        w[1] = _as_word(-truth)
        w[0] = np.uint64(other) ^ w[1] ^ w[2] ^ w[3]
        words[4 * i : 4 * i + 4] = w

    value, truth, looked = _poisoned_root(GAME, collide)
    assert looked is None
    assert value == truth


def test_a_consistent_entry_is_trusted():
    """The control for the two tests above: rewriting the root's entry with its
    check recomputed (a whole write) is a hit, and the lie is believed, so the
    misses above come from the check and not from the search ignoring the table."""

    def rewrite(words, i, key, truth):
        w = words[4 * i : 4 * i + 4].copy()
        w[1] = _as_word(-truth)
        w[0] = np.uint64(key) ^ w[1] ^ w[2] ^ w[3]
        words[4 * i : 4 * i + 4] = w

    value, truth, looked = _poisoned_root(GAME, rewrite)
    assert looked is not None and looked["value"] == -truth
    assert value == -truth


def test_bad_tables_are_refused():
    game = load("flipway(board_size=4)")
    core = core_of(game)
    with pytest.raises(ValueError, match="needs"):
        Searcher(core, 0, -1.0, 1.0, True, 12, shared=bytearray(ENTRY_BYTES * 100))
    with pytest.raises(ValueError, match="not a shared table"):
        shared_tt.attach("../etc/passwd", 12)
    with pytest.raises(FileNotFoundError, match="gone"):
        shared_tt.attach(shared_tt.PREFIX + "no_such_table", 12)
    with shared_tt.SharedTable(12) as table:
        with pytest.raises(ValueError, match="bytes"):
            shared_tt.attach(table.name, 13)
    with pytest.raises(ValueError, match="tt_log2"):
        shared_tt.SharedTable(40)
    with pytest.raises(ValueError, match="joblib"):
        parallel.solve("flipway(board_size=4)", jobs=2, backend="dask", shared_tt=True)
    assert mine() == []


def test_the_table_is_removed_after_a_time_limit_stop():
    r = parallel.solve(
        "double_o_y(board_size=5,flip=friends,protocol=1,win=turn_end)",
        jobs=2,
        tt_log2=16,
        shared_tt=True,
        time_limit=0.5,
    )
    assert r["shared_tt"]
    assert mine() == []


def _wait_for(predicate, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_the_table_is_removed_when_the_solve_is_killed(sig):
    cmd = [
        sys.executable,
        "-m",
        "solvers.solve",
        "--game",
        "double_o_y(board_size=5,flip=friends,protocol=1,win=turn_end)",
        "--jobs",
        "2",
        "--shared-tt",
        "--tt-log2",
        "16",
        "--split-depth",
        "3",
        "--time-limit",
        "300",
    ]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert _wait_for(lambda: shared_tt.leftovers(proc.pid) or proc.poll() is not None, 120)
        assert proc.poll() is None, proc.stderr.read().decode()
        assert shared_tt.leftovers(proc.pid)
        proc.send_signal(sig)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # SIGTERM: the solve's own finally; SIGKILL: multiprocessing's resource tracker
    assert _wait_for(lambda: not shared_tt.leftovers(proc.pid), 60), shared_tt.leftovers(proc.pid)

"""records/: the one record store, on both backends: append and read back, resume
with settings checks, the write lock, and what a killed or damaged file holds."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from records import (
    DamagedStore,
    RecordStore,
    RecordStoreError,
    SettingsMismatch,
    StoreLocked,
    fingerprint,
    read_records,
)

ROOT = Path(__file__).resolve().parents[1]
SUFFIXES = {"jsonl": ".jsonl", "sqlite": ".sqlite"}


@pytest.fixture(params=sorted(SUFFIXES))
def path(request, tmp_path):
    return tmp_path / f"store{SUFFIXES[request.param]}"


def test_append_read_back_and_reopen(path):
    records = [{"key": "a", "value": 1}, {"key": 7, "value": [1.5, None]}, {"key": "a", "value": 2}]
    with RecordStore(path) as store:
        assert len(store) == 0 and "a" not in store
        for record in records:
            store.append(record)
        assert store.records() == records
        assert store.get("a") == {"key": "a", "value": 2}
    assert read_records(path) == records
    with RecordStore(path) as store:
        assert store.records() == records
        assert list(store.latest()) == ["a", 7]
        assert store.latest()["a"]["value"] == 2 and 7 in store


def test_the_key_field_is_chosen_per_store(path):
    with RecordStore(path, key="game") as store:
        store.append({"game": "y_game(board_size=3)", "value": 1.0})
        with pytest.raises(DamagedStore, match="without the key field 'game'"):
            store.append({"key": "x"})
    assert read_records(path, key="game") == [{"game": "y_game(board_size=3)", "value": 1.0}]
    with pytest.raises(DamagedStore, match="damaged"):
        read_records(path, key="other")


def test_a_missing_store_holds_nothing(path):
    assert read_records(path) == []
    assert not path.exists()


def test_resume_checks_settings_and_skips_what_is_done(path):
    with RecordStore(path) as store:
        store.append({"key": "g1", "seed": 1, "bots": [{"kind": "mcts", "options": {"simulations": 2000}}]})
        store.append({"key": "g2", "seed": 1})  # made before "bots" was recorded
        store.append({"key": "g3", "seed": 1, "complete": False})
    with RecordStore(path) as store:
        wanted = {"seed": 1, "bots": [{"kind": "mcts", "options": {"simulations": 2000}}]}
        done = store.resume(
            {"g1": wanted, "g2": wanted, "g3": wanted, "g4": wanted},
            reusable=lambda r: r.get("complete", True),
        )
        assert sorted(done) == ["g1", "g2"]
        other = {"seed": 1, "bots": [{"kind": "mcts", "options": {"simulations": 1}}]}
        with pytest.raises(SettingsMismatch, match="'g1' with bots .*2000.*another bots"):
            store.resume({"g1": other})
        with pytest.raises(SettingsMismatch, match="another seed"):
            store.resume({"g2": {"seed": 2}})
        assert store.resume({"g5": {"seed": 2}}) == {}


def test_a_second_writer_is_refused_until_the_first_closes(path):
    first = RecordStore(path)
    with pytest.raises(StoreLocked, match="being written by another run"):
        RecordStore(path)
    first.append({"key": "a"})
    assert read_records(path) == [{"key": "a"}]  # reading needs no lock
    first.close()
    with pytest.raises(ValueError, match="closed"):
        first.append({"key": "b"})
    with RecordStore(path) as again:
        again.append({"key": "b"})
    assert [r["key"] for r in read_records(path)] == ["a", "b"]


def test_a_killed_writer_leaves_no_lock_behind(path):
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from records import RecordStore; "
            "s = RecordStore(sys.argv[1]); s.append({'key': 'x'}); print('held', flush=True); time.sleep(60)",
            str(path),
        ],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(StoreLocked):
            RecordStore(path)
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    with RecordStore(path) as store:
        assert store.records() == [{"key": "x"}]


def test_fingerprint_is_canonical():
    assert fingerprint({"a": 1, "b": [1, 2]}) == fingerprint({"b": [1, 2], "a": 1})
    assert fingerprint({"a": 1}) != fingerprint({"a": 2}) != fingerprint({"a": 1.5})
    assert len(fingerprint(None)) == 16
    with pytest.raises(ValueError, match="JSON data"):
        fingerprint({"a": float("nan")})
    with pytest.raises(ValueError, match="JSON data"):
        fingerprint({"a": object()})


def test_backend_must_be_known_and_the_path_a_file(tmp_path):
    with pytest.raises(ValueError, match="jsonl, sqlite"):
        RecordStore(tmp_path / "x", backend="csv")
    with pytest.raises(RecordStoreError, match="cannot open the record store .*Is a directory"):
        RecordStore(tmp_path)


# ----------------------------------------------------------------------------- JSON lines on disk


def write_lines(path: Path, text: str) -> None:
    path.write_bytes(text.encode())


def test_torn_last_line_is_cut_off_only_under_the_lock(tmp_path):
    path = tmp_path / "r.jsonl"
    write_lines(path, '{"key": "a"}\n{"key": "b", "val')
    assert read_records(path) == [{"key": "a"}]
    assert path.read_bytes().endswith(b'"val')  # readers never change the file
    with RecordStore(path) as store:
        assert store.records() == [{"key": "a"}]
        store.append({"key": "b"})
    assert read_records(path) == [{"key": "a"}, {"key": "b"}]
    assert path.read_text() == '{"key": "a"}\n{"key": "b"}\n'


def test_complete_last_record_without_newline_is_kept(tmp_path):
    path = tmp_path / "r.jsonl"
    write_lines(path, '{"key": "a"}\n{"key": "b"}')
    assert [r["key"] for r in read_records(path)] == ["a", "b"]
    with RecordStore(path) as store:
        assert "b" in store
        store.append({"key": "c"})
    assert [r["key"] for r in read_records(path)] == ["a", "b", "c"]
    assert path.read_text().count("\n") == 3


NOT_RECORDS = ["{}", "[1,2]", "3", '"text"', '{"key": [1]}', '{"key": true}']


# A non-JSON last line is a torn write, cut off (tested above); anywhere else it is damage.
@pytest.mark.parametrize(
    "line, last", [(line, last) for line in NOT_RECORDS for last in (False, True)] + [("garbage{", False)]
)
def test_a_line_that_is_not_a_record_is_damage(tmp_path, line, last):
    path = tmp_path / "r.jsonl"
    write_lines(path, '{"key": "a"}\n' + line + ("" if last else '\n{"key": "b"}\n'))
    with pytest.raises(DamagedStore, match=r"r\.jsonl:2 is not a record .*damaged"):
        read_records(path)
    with pytest.raises(DamagedStore, match="damaged"):
        RecordStore(path)
    # Refusing left the file as it was and unlocked.
    assert path.read_bytes().startswith(b'{"key": "a"}\n' + line.encode())
    with pytest.raises(DamagedStore):
        RecordStore(path)


# ----------------------------------------------------------------------------- SQLite on disk


def test_sqlite_rows_that_are_not_records_are_damage(tmp_path):
    path = tmp_path / "r.sqlite"
    with RecordStore(path) as store:
        store.append({"key": "a"})
    db = sqlite3.connect(path)
    with db:
        db.execute("INSERT INTO records (key, record) VALUES ('x', '[1,2]')")
    db.close()
    with pytest.raises(DamagedStore, match=r"r\.sqlite row 2 is not a record .*damaged"):
        read_records(path)


def test_a_file_that_is_no_database_is_damage(tmp_path):
    path = tmp_path / "r.db"
    path.write_text('{"key": "a"}\n')
    with pytest.raises(DamagedStore, match="not a record database"):
        RecordStore(path)

"""experiments.solved_table through its command line: its records go through the
record store, so a rerun resumes, a second writer is refused and damage is reported."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from records import RecordStore, read_records

ROOT = Path(__file__).resolve().parents[1]


def solved_table(*args):
    return subprocess.run(
        [sys.executable, "-m", "experiments.solved_table", *args],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_solved_table_resumes_and_tabulates(tmp_path):
    out = str(tmp_path / "solved.jsonl")
    first = solved_table("--max-size", "3", "--only", "y_game", "--out", out)
    assert first.returncode == 0, first.stderr
    assert first.stderr.count("solving y_game") == 2
    records = read_records(out, key="game_string")
    assert [r["game_string"] for r in records] == ["y_game(board_size=2)", "y_game(board_size=3)"]
    assert all(r["value"] == 1.0 and r["complete"] for r in records)
    again = solved_table("--max-size", "3", "--only", "y_game", "--out", out)
    assert again.returncode == 0 and "solving" not in again.stderr
    assert read_records(out, key="game_string") == records
    kept = str(tmp_path / "kept.jsonl")
    table = solved_table("--markdown", "--out", out, "--write-records", kept)
    assert table.returncode == 0 and table.stdout.count("| `y_game(board_size=") == 2
    assert [json.loads(line) for line in Path(kept).read_text().splitlines()] == records


def test_solved_table_refuses_a_held_or_damaged_store(tmp_path):
    out = tmp_path / "solved.jsonl"
    with RecordStore(out, key="game_string"):
        held = solved_table("--max-size", "2", "--only", "y_game", "--out", str(out))
    assert held.returncode == 2 and "being written by another run" in held.stderr
    out.write_text('{"game_string": "y_game(board_size=2)"}\n{}\n')
    for args in (("--max-size", "2", "--only", "y_game"), ("--markdown",)):
        damaged = solved_table(*args, "--out", str(out))
        assert damaged.returncode == 2 and "solved.jsonl:2 is not a record" in damaged.stderr
        assert "Traceback" not in damaged.stderr
    missing = solved_table("--markdown", "--out", str(tmp_path / "none.jsonl"))
    assert missing.returncode == 2 and "does not exist" in missing.stderr


def test_a_root_only_solve_does_not_claim_its_found_class_is_every_winning_opening():
    """A solve without --openings proves the root with the first winning class it
    finds; the table must not show that class as all the winning first moves."""
    from experiments.solved_table import markdown

    base = dict(game_string="g", complete=True, symmetry_classes=5, nodes=10, seconds=1.0, commit="c")
    root_only = markdown([dict(base, value=1.0, winning_first_moves=["a6", "a1", "f1"], opening_values={})])
    assert "a6 a1 f1 (the root's proof; other openings not solved)" in root_only
    every = markdown(
        [
            dict(
                base,
                value=1.0,
                winning_first_moves=["a1", "b1"],
                opening_values={"a1": 1.0, "b1": 1.0, "c1": -1.0},
            )
        ]
    )
    assert "| a1 b1 |" in every
    lost = markdown([dict(base, value=-1.0, winning_first_moves=[], opening_values={})])
    assert "| none |" in lost


def test_the_solved_pages_values_are_those_of_its_records():
    """Every row of docs/solved.md whose game has a record in docs/solved_records.jsonl
    states that record's value (the page's tables are grouped by family from the records)."""
    records = {
        r["game_string"]: r for r in read_records(ROOT / "docs" / "solved_records.jsonl", key="game_string")
    }
    rows = re.findall(r"^\| `([^`]+)` \| ([^|]*) \|", (ROOT / "docs" / "solved.md").read_text(), re.M)
    checked = 0
    for game, value in rows:
        if game in records and records[game]["complete"]:
            expected = {1.0: "+1", -1.0: "-1", 0.0: "0"}[records[game]["value"]]
            assert value.strip().startswith(expected), (game, value, records[game]["value"])
            checked += 1
    assert checked >= 20

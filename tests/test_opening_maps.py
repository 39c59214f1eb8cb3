"""experiments.opening_maps: what each map colours and hatches, read back from its SVG,
is what the solve records and docs/solved.md say of each opening."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from experiments import opening_maps
from experiments.opening_maps import OUTCOMES, MapError, draw, find_map

ROOT = Path(__file__).resolve().parents[1]
SVG = "{http://www.w3.org/2000/svg}"


def drawn_outcomes(svg_path: Path) -> dict[str, str]:
    """Each opening's outcome as the SVG shows it: its fill colour and whether it is hatched,
    matched against the legend's styles (OUTCOMES)."""
    root = ET.parse(svg_path).getroot()
    patterns = {
        p.get("id"): p.find(f"{SVG}rect").get("fill") for p in root.iter(f"{SVG}pattern")
    }  # a hatched fill is a pattern over its colour
    styles = {}
    for key, (_, colour, hatch) in OUTCOMES.items():
        styles.setdefault((colour, bool(hatch)), key)
    seen: dict[str, str] = {}
    for group in root.iter(f"{SVG}g"):
        gid = group.get("id") or ""
        if not gid.startswith("opening-"):
            continue
        fill = re.search(r"fill: ([^;]+)", group.find(f"{SVG}path").get("style")).group(1)
        hatched = fill.startswith("url(")
        colour = patterns[fill[5:-1]] if hatched else fill
        seen[gid.removeprefix("opening-").replace("_", "+")] = styles[(colour, hatched)]
    return seen


def solved_md_y_rows() -> dict[int, tuple[str, set[str] | None]]:
    """docs/solved.md's Y table: side -> (value, winning first moves; None for "all N")."""
    rows = {}
    for line in (ROOT / "docs" / "solved.md").read_text().splitlines():
        m = re.match(r"\| `y_game\(board_size=(\d+)\)` \| ([+-]1) \| ([^|]+) \|", line)
        if m:
            moves = re.sub(r"\s*\(.*\)", "", m.group(3)).strip()
            rows[int(m.group(1))] = (m.group(2), None if moves.startswith("all ") else set(moves.split()))
    return rows


def test_y_maps_of_sides_2_to_8_mark_each_opening_as_docs_solved_md_says(tmp_path):
    rows = solved_md_y_rows()
    assert sorted(rows) == list(range(2, 9))
    records = {
        r["game_string"]: r
        for r in map(json.loads, (ROOT / "docs" / "solved_records.jsonl").read_text().splitlines())
    }
    for side in range(2, 9):
        game = f"y_game(board_size={side})"
        m = find_map(game)
        returned = draw(m, tmp_path / m.stem)
        shown = drawn_outcomes(tmp_path / f"{m.stem}.svg")
        assert shown == returned
        assert (tmp_path / f"{m.stem}.png").stat().st_size > 1000
        assert len(shown) == side * (side + 1) // 2, side
        value, winning = rows[side]
        assert value == "+1"
        expected_wins = set(shown) if winning is None else winning
        assert {o for o, v in shown.items() if v == "win"} == expected_wins, side
        assert {o for o, v in shown.items() if v != "win"} == {o for o in shown if o not in expected_wins}
        assert set(shown.values()) <= {"win", "loss"}
        if game in records:  # sides 2-7: the record's value of every opening, cell by cell
            by_record = {o: {1.0: "win", -1.0: "loss"}[v] for o, v in records[game]["opening_values"].items()}
            assert shown == by_record, side


def test_flipway_pie_map_marks_each_openings_winning_reply_from_the_reply_records(tmp_path):
    game = "flipway(board_size=4,pie=True)"
    m = find_map(game)
    assert m.source.startswith("docs/solved_replies.jsonl")
    draw(m, tmp_path / m.stem)
    shown = drawn_outcomes(tmp_path / f"{m.stem}.svg")
    record = next(
        r
        for r in map(json.loads, (ROOT / "docs" / "solved_replies.jsonl").read_text().splitlines())
        if r["game_string"] == game
    )
    assert shown == record["replies"]
    assert len(shown) == 103
    # docs/solved.md: swap after 45 of the 103 openings, 14 of them pairs, 24 triples, 7 four-stone areas
    swaps = [o for o, v in shown.items() if v == "swap"]
    assert len(swaps) == 45
    assert sorted(o.count("+") + 1 for o in swaps) == [2] * 14 + [3] * 24 + [4] * 7
    assert {"b3+c3", "b2+c2", "a4+b3", "d4+c3"} <= set(swaps)
    assert not [o for o in swaps if "+" not in o]  # no single stone is worth swapping
    assert {o for o, v in shown.items() if v == "play on"} == set(shown) - set(swaps)


def test_reply_records_agree_with_the_solver_run_now():
    computed = opening_maps.winning_replies("flipway(board_size=4,pie=True)", tt_log2=16)
    assert computed["replies"] == find_map("flipway(board_size=4,pie=True)").outcomes
    y_swap = opening_maps.winning_replies("y_game(board_size=4,swap=True)", tt_log2=16)["replies"]
    plain = find_map("y_game(board_size=4)").outcomes
    # swapping wins exactly after the openings that win the plain game
    assert y_swap == {o: "swap" if v == "win" else "play on" for o, v in plain.items()}


def test_solve_option_draws_the_same_map_as_the_record(tmp_path):
    solved = opening_maps.solve_map("double_o_y(board_size=4,flip=opponents,protocol=1,win=turn_start)")
    recorded = find_map("double_o_y(board_size=4,flip=opponents,protocol=1,win=turn_start)")
    assert solved.outcomes == recorded.outcomes
    assert sorted(o for o, v in solved.outcomes.items() if v == "win") == sorted(
        "a3 b3 a2 b2 c2 b1 c1".split()
    )


def opening_maps_command(*args):
    return subprocess.run(
        [sys.executable, "-m", "experiments.opening_maps", *args],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_command_writes_svg_and_png_with_progress(tmp_path):
    done = opening_maps_command("--game", "flipway(board_size=5)", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "[1/1]" in done.stderr and "25 loss" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["flipway-5.png", "flipway-5.svg"]
    svg = (tmp_path / "flipway-5.svg").read_text()
    assert "Flipway" in svg and "5x5" in svg and "second player wins" in svg  # title and legend


@pytest.mark.parametrize(
    ("game", "message"),
    [
        ("chess(board_size=8)", "no opening map for game 'chess'"),
        ("y_game(board_size=12)", "no record of y_game(board_size=12)'s openings"),
        ("double_o_y(board_size=6,flip=opponents,protocol=1,win=turn_start)", "no record of"),
    ],
)
def test_unknown_games_and_sides_without_a_record_fail_clearly(game, message, capsys):
    with pytest.raises(SystemExit) as stopped:
        opening_maps.main(["--game", game, "--list"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "usage:" in err


def test_record_replies_appends_a_record_and_a_rerun_reads_it_back(tmp_path, capsys):
    replies, out = tmp_path / "replies.jsonl", tmp_path / "maps"
    args = ["--record-replies", "--game", "y_game(board_size=3,swap=True)", "--replies", str(replies)]
    assert opening_maps.main([*args, "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "solving the replies of y_game(board_size=3,swap=True)" in err
    assert "swap after 3 of 6 openings" in err
    (record,) = map(json.loads, replies.read_text().splitlines())
    assert record["replies"] == {
        "a2": "swap",
        "b2": "swap",
        "b1": "swap",
        "a3": "play on",
        "a1": "play on",
        "c1": "play on",
    }
    assert drawn_outcomes(out / "y_game-swap-true-3.svg") == record["replies"]
    assert opening_maps.main([*args, "--out", str(out)]) == 0
    assert "solving" not in capsys.readouterr().err
    assert len(replies.read_text().splitlines()) == 1


def test_map_error_names_the_games_that_have_maps():
    with pytest.raises(MapError, match="y_game, defector_y, double_o_y, flipway"):
        find_map("caeth_y(board_size=3)")

"""docs/findings.md: every command it prints is a runnable module whose own parser takes the
printed options, and every table agrees with the records and pages its figures come from."""

from __future__ import annotations

import argparse
import importlib
import json
import re
import shlex
import sys
from pathlib import Path

import pytest

from analysis.exact import published_solves, value_cell

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "findings.md").read_text()
STUDIES = (ROOT / "docs" / "studies.md").read_text()
SOLVED = (ROOT / "docs" / "solved.md").read_text()
DILEMMAS_STUDY = (ROOT / "docs" / "studies" / "economic_dilemmas.md").read_text()
DILEMMAS = (ROOT / "docs" / "rules" / "dilemmas.md").read_text()
READINGS = json.loads((ROOT / "docs" / "rules" / "dilemma_readings.json").read_text())["games"]


def printed_commands(text: str) -> list[str]:
    """The page's commands: in code spans, and as lines of indented code blocks."""
    spans = re.findall(r"`(python -m [^`]+)`", text)
    blocks = re.findall(r"^    (python -m .+)$", text, re.M)
    return spans + blocks


def table(text: str, header_start: str) -> list[list[str]]:
    """The rows (cells stripped) of the first markdown table whose header begins ``header_start``."""
    lines = text[text.index(header_start) :].splitlines()
    rows = []
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def section(text: str, start: str, end: str) -> str:
    return text.split(start, 1)[1].split(end, 1)[0]


class _Parsed(Exception):
    """Raised once a module's parser has accepted the arguments, so nothing runs."""


def parse_only(module: str, args: list[str], monkeypatch) -> None:
    """Run ``module``'s ``main`` as ``python -m`` would, stopping right after its argparse
    parser accepted ``args`` (a bad option makes the parser exit with status 2)."""
    original = argparse.ArgumentParser.parse_args

    def parse(self, arguments=None, namespace=None):
        original(self, arguments, namespace)
        raise _Parsed

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse)
    monkeypatch.setattr(sys, "argv", [module, *args])
    main = importlib.import_module(module).main
    with pytest.raises(_Parsed):
        main(args)


COMMANDS = sorted(set(printed_commands(PAGE)))


def test_the_page_prints_the_commands_of_every_question():
    modules = {shlex.split(c)[2] for c in COMMANDS}
    assert {
        "experiments.compare_flip_options",
        "experiments.first_player_advantage",
        "experiments.economic_dilemmas",
        "experiments.opening_maps",
        "experiments.solved_table",
    } <= modules
    assert any("--full" in c for c in COMMANDS if "compare_flip_options" in c)
    assert any("--full" in c for c in COMMANDS if "first_player_advantage" in c)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_printed_command_parses_with_its_modules_own_options(command, monkeypatch):
    words = shlex.split(command)
    assert words[:2] == ["python", "-m"], command
    parse_only(words[2], words[3:], monkeypatch)


def test_a_bad_option_is_caught_by_the_same_check(monkeypatch, capsys):
    with pytest.raises(SystemExit) as stop:
        parse_only("experiments.compare_flip_options", ["--boardsize", "8"], monkeypatch)
    assert stop.value.code == 2 and "--boardsize" in capsys.readouterr().err


def test_exact_values_by_side_are_the_solve_records():
    from experiments.compare_flip_options import exact_by_side, exact_by_side_lines, variants

    rows = [r for r in exact_by_side(variants(8), published_solves()) if r["label"] != "Defector Y p1, local"]
    lines = [line for line in exact_by_side_lines(rows) if line.startswith("| ") and "(" in line]
    assert len(lines) == 15
    for line in lines:
        assert line in PAGE, line


def _solved_md_cell(game: str) -> str:
    """docs/solved.md's row of ``game`` as a cell of the page: the value, and for a first-player
    win how many openings win of how many the board has."""
    match = re.search(r"^\| `" + re.escape(game) + r"` \| ([+-]1) \| ([^|]+) \|", SOLVED, re.M)
    assert match, game
    value, winning = match.group(1), match.group(2).split("(")[0].split()
    if value == "-1":
        return value
    count = int(winning[1]) if winning[0] == "all" else len(winning)
    return f"+1 ({count}/"


def test_first_player_exact_values_are_the_records_and_the_solved_page():
    templates = {
        "Y": "y_game(board_size={n})",
        "Y + swap": "y_game(board_size={n},swap=True)",
        "Defector Y p1": "defector_y(board_size={n},protocol=1)",
        "Defector Y p122": "defector_y(board_size={n},protocol=122)",
        "Flipway": "flipway(board_size={n})",
        "Flipway + pie": "flipway(board_size={n},pie=True)",
        "Caeth Y": "caeth_y(board_size={n})",
        "Caeth Y + swap": "caeth_y(board_size={n},swap=true)",
    }
    published = published_solves()
    rows = table(PAGE, "| game | 2 | 3 | 4 | 5 | 6 | 7 | 8 |")
    assert [r[0] for r in rows] == list(templates)
    checked = 0
    for label, *cells in rows:
        for n, cell in zip(range(2, 9), cells, strict=True):
            game = templates[label].format(n=n)
            if game in published:
                assert cell == value_cell(published[game]), (game, cell)
            elif cell != "-":
                assert cell.startswith(_solved_md_cell(game)), (game, cell)
            checked += cell != "-"
    assert checked == 34


def test_sampled_rates_are_the_published_quick_runs():
    studies_rows = {r[0]: r for r in table(STUDIES, "| variant | P1 wins, MCTS self-play (1000 sims)")}
    page_rows = table(PAGE, "| variant | P1 wins, MCTS self-play |")
    assert len(page_rows) == 16
    for label, selfplay, p, strong, random_p1, flips in page_rows:
        published = studies_rows[label]
        assert [selfplay, p, strong, random_p1, flips] == [published[i] for i in (1, 2, 3, 4, 6)]

    cells = {}
    for line in section(STUDIES, "## first_player_advantage", "## strength_plots").splitlines():
        match = re.match(r"\| ([^|]+) \| (\d+) \| ([^|]+) \| ([^|]+) \| ", line)
        if match and "(n=" in match.group(4):
            cells[(match.group(1).strip(), int(match.group(2)))] = match.group(4).strip()
    page_rows = table(PAGE, "| game | size 5 | size 7 | size 9 |")
    assert len(page_rows) == 9
    for label, *rates in page_rows:
        for n, rate in zip((5, 7, 9), rates, strict=True):
            assert rate == cells.get((label, n), "-"), (label, n)


def test_dilemma_table_agrees_with_the_full_run_the_verdicts_and_the_readings():
    full_run = section(DILEMMAS_STUDY, "## The full run", "Three rows differ")
    # each row: game, encodes, table names it, reproduces, strategies, equilibria, PoA, NashConv, nearest
    full = {r[0]: r for r in table(full_run, "| game |")}
    verdicts = {}
    for line in section(DILEMMAS, "## Which dilemmas reproduce", "## Readings tried").splitlines():
        for name in re.findall(r"\[([^\]]+)\]\(dilemmas_by_game", line.split(" | ")[0]):
            verdicts[name] = line.split(" | ")[2].strip()
    rows = table(PAGE, "| rule set | named after |")
    assert len(rows) == 26
    for name, named, order, verdict, equilibria, anarchy, cfr, _bots in rows:
        run = full[name]
        assert named == run[1], name
        assert run[2] in order, name
        word = verdict.split(" (")[0].split(",")[0]
        assert verdicts[name].replace("*", "").startswith(word), (name, verdict, verdicts[name])
        if name in READINGS:
            tried = len(READINGS[name]["readings"])
            assert f"({tried}" in verdict, (name, verdict)
        if run[4] == "refused":
            assert equilibria == "refused", name
        else:
            assert equilibria.split(" [")[0] == run[5] and anarchy.split(" [")[0] == run[6], name
        if run[7] != "-":
            assert cfr.startswith(run[7].replace(" (approx.)", "")), (name, cfr)
            if run[8] != "-":
                nearest, distance = run[8].split(" (")
                assert f"{nearest} at {distance.rstrip(')')}" in cfr, (name, cfr)

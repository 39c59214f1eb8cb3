"""docs/performance.md's writer: a benchmark's run replaces exactly its own rows."""

from pathlib import Path

import pytest

from analysis import performance_page as page

ROOT = Path(__file__).resolve().parents[1]


def row(what, ours="1/s", command="python -m experiments.bench_x"):
    return page.Row(what, ours, "C++ thing: 1/s", "1.00x", command)


def table_rows(text):
    return [line for line in text.split("\n") if line.startswith("| ") and "<!--" in line]


@pytest.fixture
def two_blocks(tmp_path):
    path = tmp_path / "performance.md"
    page.update(path, {"bench_a": [row("a1"), row("a2")], "bench_b": [row("b1")]})
    return path


def test_a_missing_page_is_created_with_the_header_and_the_rows(two_blocks):
    text = two_blocks.read_text()
    assert text.startswith(page.TITLE + "\n")
    assert "| " + " | ".join(page.COLUMNS) + " |" in text
    assert "median over the rounds" in text
    assert [page.block_of(line) for line in table_rows(text)] == ["bench_a", "bench_a", "bench_b"]


def test_a_run_replaces_exactly_its_own_block_in_place(two_blocks):
    before = two_blocks.read_text()
    page.update(two_blocks, {"bench_a": [row("a1 again", ours="5/s")]})
    after = two_blocks.read_text()
    rows = table_rows(after)
    assert [page.block_of(line) for line in rows] == ["bench_a", "bench_b"]
    assert "a1 again | 5/s" in rows[0]
    assert "| a2 |" not in after
    # everything but bench_a's rows is byte for byte what it was
    untouched = [line for line in before.split("\n") if page.block_of(line) != "bench_a"]
    assert [line for line in after.split("\n") if page.block_of(line) != "bench_a"] == untouched


def test_another_block_is_untouched_and_a_new_block_goes_at_the_table_end(two_blocks):
    text = two_blocks.read_text() + "\nA paragraph after the table.\n"
    two_blocks.write_text(text)
    page.update(two_blocks, {"bench_c": [row("c1")]})
    after = two_blocks.read_text()
    assert [page.block_of(line) for line in table_rows(after)] == ["bench_a", "bench_a", "bench_b", "bench_c"]
    assert after.endswith("\nA paragraph after the table.\n")
    assert table_rows(text) == table_rows(after)[:3]


def test_the_page_stays_one_table_and_a_pipe_in_a_cell_is_escaped(two_blocks):
    page.update(
        two_blocks, {"bench_b": [row("x | y", command='python -m experiments.bench_b --game "g(a=1)"')]}
    )
    lines = two_blocks.read_text().split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("|---"))
    body = []
    for line in lines[start + 1 :]:
        if not line.startswith("|"):
            break
        body.append(line)
    assert len(body) == 3  # no marker line breaks the table
    assert "x \\| y" in body[-1]
    assert body[-1].endswith('`python -m experiments.bench_b --game "g(a=1)"` <!-- bench_b --> |')


def test_command_line_leaves_out_the_page_and_json_and_quotes_game_strings():
    assert (
        page.command_line(
            "python -m experiments.bench_x", ["--markdown", "p.md", "--json", "--game", "y(a=1)"]
        )
        == 'python -m experiments.bench_x --game "y(a=1)"'
    )
    assert page.command_line("python -m m", ["--markdown=p.md", "--rounds", "3"]) == "python -m m --rounds 3"


def test_figures_are_written_to_three_significant_figures():
    assert page.per_second(761_234.0) == "761,000/s"
    assert page.times(15.83) == "15.8x"
    assert page.times(3.994) == "3.99x"
    assert page.times(1303.2) == "1,303x"
    assert page.seconds(0.0008) == "0.8 ms"
    assert page.seconds(389.4) == "389 s"


def test_the_project_page_parses_into_tagged_rows_of_one_table():
    text = (ROOT / "docs" / "performance.md").read_text()
    rows = table_rows(text)
    assert rows and all(page.block_of(line) for line in rows)
    assert page.replace_blocks(text, {}) == text
    for line in rows:
        assert line.count(" | ") >= len(page.COLUMNS) - 1

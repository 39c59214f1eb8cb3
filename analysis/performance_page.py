"""docs/performance.md: one table of our speed against a baseline measured in the
same process, each benchmark writing its own rows (``--markdown PAGE``).

A row belongs to a block named after what measures it (``bench_ttt.connect4``).
The name rides at the end of the row's command cell as an HTML comment, which
Markdown renderers hide, so the page stays one table (a marker on a line of its
own would end the table there). Writing a block removes every row of that block
and puts the new rows where the first of the old ones stood, or at the table's
end for a new block; every other row stays as it is. A missing page is created
with the header, which names how the figures are taken and on what machine.
"""

from __future__ import annotations

import os
import platform
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

TITLE = "# Performance"
COLUMNS = ("what is measured", "ours", "baseline (same process)", "ratio", "command")
_TAG = re.compile(r"<!-- ([A-Za-z0-9_.-]+) -->\s*\|\s*$")


class Row(NamedTuple):
    """One line of the table; ``command`` is the command line that measured it."""

    what: str
    ours: str
    baseline: str
    ratio: str
    command: str


def machine() -> str:
    """The CPU, its count and the versions that decide the figures."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        from importlib.metadata import version

        openspiel = f", OpenSpiel {version('open_spiel')}"
    except Exception:  # noqa: BLE001  (the page names what it can)
        openspiel = ""
    return (
        f"{model}, {os.cpu_count()} CPUs ({platform.machine()}, {platform.system()}), "
        f"Python {platform.python_version()}{openspiel}"
    )


def header(machine_line: str | None = None) -> str:
    """The page's title, how the figures are taken, and the table's head."""
    return "\n".join(
        [
            TITLE,
            "",
            "Ours and the baseline run in the same process, alternating round by round where a "
            "benchmark repeats, and a rate is the median over the rounds (timed by the measuring "
            "thread's CPU time where the command's `--help` says so); wall-clock figures depend on "
            "what else the machine runs, CPU times and node counts much less. Machine: "
            f"{machine_line or machine()}. Each benchmark rewrites its own rows from its run with "
            "`--markdown docs/performance.md` (docs/commands.md, Benchmarks).",
            "",
            "| " + " | ".join(COLUMNS) + " |",
            "|" + "---|" * len(COLUMNS),
            "",
        ]
    )


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ").strip()


def render(block: str, rows: Iterable[Row]) -> list[str]:
    """The table lines of ``rows``, each tagged with ``block``."""
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", block):
        raise ValueError(f"a block name is letters, digits, '_', '.' or '-', not {block!r}")
    lines = []
    for row in rows:
        cells = [_cell(x) for x in row[:4]] + [f"`{_cell(row.command)}` <!-- {block} -->"]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def block_of(line: str) -> str | None:
    """The block a table line belongs to, or None for an untagged line."""
    match = _TAG.search(line)
    return match.group(1) if match else None


def replace_blocks(text: str, blocks: Mapping[str, Sequence[Row]]) -> str:
    """``text`` with the rows of each block of ``blocks`` replaced by its new rows."""
    lines = text.split("\n")
    for block, rows in blocks.items():
        new = render(block, rows)
        at = next((i for i, line in enumerate(lines) if block_of(line) == block), None)
        kept = [line for line in lines if block_of(line) != block]
        if at is None:  # a new block: the table's end
            at = _table_end(kept)
        lines = kept[:at] + new + kept[at:]
    return "\n".join(lines)


def _table_end(lines: list[str]) -> int:
    """The index just past the table's last row (the header's separator starts it)."""
    start = next((i for i, line in enumerate(lines) if line.startswith("|---")), None)
    if start is None:
        raise ValueError("the page has no table: its header line '|---|...' is missing")
    end = start + 1
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return end


def update(path: str | os.PathLike, blocks: Mapping[str, Sequence[Row]]) -> Path:
    """Rewrite ``blocks``' rows in the page at ``path``, creating it with the header if missing."""
    path = Path(path)
    text = path.read_text() if path.exists() else header()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(replace_blocks(text, blocks))
    return path


def command_line(prog: str, argv: Sequence[str] | None = None) -> str:
    """``prog`` and its arguments as run, without ``--markdown PAGE`` and ``--json``."""
    args = list(sys.argv[1:] if argv is None else argv)
    kept, skip = [], False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--markdown":
            skip = True
        elif not arg.startswith("--markdown=") and arg != "--json":
            kept.append(arg if re.fullmatch(r"[\w./:=,+-]+", arg) else f'"{arg}"')
    return " ".join([prog, *kept])


def per_second(x: float) -> str:
    """A rate to three significant figures: ``761,000/s``."""
    return f"{_three(x):,.0f}/s" if x >= 100 else f"{x:.3g}/s"


def times(x: float | None) -> str:
    """A ratio: ``15.8x`` (three significant figures, at most one decimal past ten)."""
    if x is None:
        return "-"
    return f"{x:,.0f}x" if x >= 100 else f"{x:.1f}x" if x >= 10 else f"{x:.3g}x"


def seconds(x: float) -> str:
    """A duration: ``0.8 ms``, ``0.36 s``, ``389 s``."""
    if x < 0.1:
        return f"{x * 1000:.2g} ms"
    return f"{x:.3g} s" if x < 100 else f"{x:,.0f} s"


def _three(x: float) -> float:
    from math import floor, log10

    return round(x, 2 - int(floor(log10(abs(x))))) if x else 0.0

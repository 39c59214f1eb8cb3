"""``python -m analysis.dilemmas_doc``: the computed parts of
docs/rules/dilemmas.md (the index: the verdicts and the readings search),
docs/rules/dilemmas_by_game.md beside it (each dilemma's section) and their data
files, one payoff table per dilemma in
docs/rules/dilemmas/NAME.csv (NAME.csv.gz when the text exceeds ``GZIP_OVER``).

Why generated: the tables are the evidence for what each rule set encodes, so
they must be what ``games.normal_form`` (or, for a game too large for a full
table, ``analysis.reduced_games``) computes from the catalogue today, not
numbers typed once and left to drift. The prose of the page is written by
hand; only the text between ``<!-- BEGIN computed: NAME -->`` and
``<!-- END computed: NAME -->`` is rewritten: how the table was computed, a
link to its data file, the table itself when it is small enough to read on
the page, and its pure equilibria. ``--check`` writes nothing and fails,
naming the game, when a block or a data file is stale or missing;
``--print NAME`` prints one game's table as its data file holds it.

Why CSV: one row per cell of the table (a profile of strategies, or a leaf of
a reduced game's tree), the returns both as floats and as exact fractions, is
what pandas, R, a spreadsheet and Python's csv module read without a parser
of ours; pandas reads the gzipped files as they are. Gzipped files are
compared by their text, so the compressor's version never makes one stale.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import functools
import gzip
import io
import math
import re
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pyspiel

import games  # noqa: F401  (registers ttt)
from analysis.reduced_games import (  # noqa: F401  (count_table, allocation_table: read here by tests)
    REDUCED,
    Reduced,
    allocation_table,
    classify_reduced,
    count_table,
    reduced,
)
from games.normal_form import PayoffTable, TooLarge, payoff_table
from games.payoff_formats import value_text
from games.ttt.dilemmas import DILEMMAS, VARIANTS
from games.ttt.sources import CATALOGUE, REPO_ROOT
from solvers.classify import reproduces
from solvers.normal_form import Decision, backward_induction

DOC = REPO_ROOT / "docs" / "rules" / "dilemmas.md"
#: each dilemma's own section is on this page beside the index, so neither page grows past
#: a reader's length; the data files serve both (the links are ``dilemmas/NAME.csv`` on each)
BY_GAME = "dilemmas_by_game.md"
MAX_PROFILES = 100_000
MAX_NODES = 200_000
#: a table is printed on the page when it has at most this many rows, characters and characters a line
INLINE_MAX_ROWS = 30
INLINE_MAX_CHARS = 5_000
INLINE_MAX_LINE = 1_000
#: a data file whose CSV text is longer than this many bytes is gzipped
GZIP_OVER = 100_000
#: pure equilibria are listed one by one when the list has at most this many characters, else
#: counted by their returns
LIST_EQUILIBRIA_CHARS = 1_000
#: the dilemmas and the catalogue's variants of them, each with a computed block
ALL = DILEMMAS + VARIANTS
#: the block of the readings search (analysis/dilemma_readings.py), rendered from its JSON
READINGS_BLOCK = "readings"
BLOCK = re.compile(
    r"(<!-- BEGIN computed: (?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- END computed: (?P=name) -->)", re.S
)


def pages(doc: Path) -> list[Path]:
    """The index page ``doc`` and the page of each dilemma's section beside it."""
    return [Path(doc), Path(doc).with_name(BY_GAME)]


def data_dir(doc: Path) -> Path:
    """The folder of a page's data files: beside it, named after it
    (docs/rules/dilemmas.md -> docs/rules/dilemmas/)."""
    return Path(doc).with_suffix("")


# --------------------------------------------------------------------------- tables as data


@dataclasses.dataclass
class DataTable:
    """A table as its data file holds it: named columns, rows of text cells."""

    columns: list[str]
    rows: list[list[str]]

    @functools.cached_property
    def text(self) -> str:
        """The CSV text: a header line, then one line per row."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(self.columns)
        writer.writerows(self.rows)
        return out.getvalue()


def _returns(values) -> list[str]:
    """A cell's returns: floats (shortest text that reads back exactly), then exact fractions."""
    return [repr(float(v)) for v in values] + [str(v) for v in values]


def _return_columns(n: int) -> list[str]:
    return [f"return_{p}" for p in range(n)] + [f"exact_{p}" for p in range(n)]


def equilibria(payoffs: dict, shape: tuple[int, ...]) -> list[tuple]:
    """Profiles of pure strategies where no player gains by changing its own
    strategy alone, in profile order (last player fastest), by exact
    comparison: every return is put over one common denominator."""
    n = len(shape)
    denominator = math.lcm(*(Fraction(v).denominator for vs in payoffs.values() for v in vs))
    numerators = {pr: [int(Fraction(v) * denominator) for v in vs] for pr, vs in payoffs.items()}
    largest = max((abs(x) for vs in numerators.values() for x in vs), default=0)
    arr = np.zeros((n,) + tuple(shape), dtype=np.int64 if largest < 2**62 else object)
    for pr, vs in numerators.items():
        arr[(slice(None),) + pr] = vs
    stable = np.ones(shape, dtype=bool)
    for p in range(n):
        stable &= arr[p] == arr[p].max(axis=p, keepdims=True)
    return [tuple(int(i) for i in pr) for pr in np.argwhere(stable)]


def pure_equilibria(table: PayoffTable) -> list[tuple]:
    """The pure equilibria of a payoff table (``equilibria``)."""
    return equilibria(table.payoffs, table.shape)


def product_data(
    labels: list[list[str]], payoffs: dict, shape: tuple[int, ...], eq: list[tuple]
) -> DataTable:
    """A table over every profile of the players' strategies: the strategies'
    indices and labels, the returns and whether the profile is a pure
    equilibrium."""
    n = len(shape)
    stable = set(eq)
    columns = (
        [f"index_{p}" for p in range(n)]
        + [f"strategy_{p}" for p in range(n)]
        + _return_columns(n)
        + ["pure_equilibrium"]
    )
    rows = []
    for pr in np.ndindex(*shape):
        rows.append(
            [str(i) for i in pr]
            + [labels[p][i] for p, i in enumerate(pr)]
            + _returns(payoffs[pr])
            + ["1" if pr in stable else "0"]
        )
    return DataTable(columns, rows)


# --------------------------------------------------------------------------- the page's text


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _fmt(values, exact: bool = True) -> str:
    return ", ".join(value_text(v, exact) for v in values)


def _inline(lines: list[str], caption: str = "") -> list[str]:
    """``lines`` (a markdown table: header, rule, rows) and its caption when
    the table is small enough for the page, else nothing."""
    if (
        len(lines) - 2 <= INLINE_MAX_ROWS
        and sum(len(x) + 1 for x in lines) <= INLINE_MAX_CHARS
        and max(len(x) for x in lines) <= INLINE_MAX_LINE
    ):
        return ["", *lines] + (["", caption] if caption else [])
    return []


def matrix_markdown(labels, payoffs, shape, exact=True, zero_sum=False) -> list[str]:
    """A two-player table as a matrix (rows: player 0, columns: player 1);
    a zero-sum one shows player 0's return only."""
    lines = ["| player 0 \\ player 1 | " + " | ".join(_cell(c) for c in labels[1]) + " |"]
    lines.append("|---" * (shape[1] + 1) + "|")
    for i in range(shape[0]):
        cells = [
            value_text(payoffs[(i, j)][0], exact) if zero_sum else _fmt(payoffs[(i, j)], exact)
            for j in range(shape[1])
        ]
        lines.append(f"| {_cell(labels[0][i])} | " + " | ".join(cells) + " |")
    return lines


def profiles_markdown(labels, payoffs, shape, exact=True) -> list[str]:
    """A table of any number of players, one line per profile."""
    n = len(shape)
    lines = ["| " + " | ".join(f"player {p}" for p in range(n)) + " | returns |", "|---" * (n + 1) + "|"]
    for pr in np.ndindex(*shape):
        lines.append(
            "| "
            + " | ".join(_cell(labels[p][s]) for p, s in enumerate(pr))
            + f" | {_fmt(payoffs[pr], exact)} |"
        )
    return lines


def equilibria_text(labels, payoffs, eq, exact=True, of="Pure equilibria") -> str:
    """The pure equilibria in one paragraph: listed when few, else counted by their returns."""
    if not eq:
        return f"{of}: none."
    names = [
        "(" + " ; ".join(labels[p][s] for p, s in enumerate(pr)) + f") -> {_fmt(payoffs[pr], exact)}"
        for pr in eq
    ]
    listed = "; ".join(f"`{x}`" for x in names)
    if len(listed) <= LIST_EQUILIBRIA_CHARS:
        return f"{of} ({len(eq)}): {listed}."
    by_returns = Counter(tuple(payoffs[pr]) for pr in eq)
    counted = "; ".join(
        f"{_fmt(r, exact)} in {k:,}" for r, k in sorted(by_returns.items(), key=lambda rk: (-rk[1], rk[0]))
    )
    return f"{of}: {len(eq):,} (the rows whose `pure_equilibrium` is 1), by their returns: " + counted + "."


@dataclasses.dataclass
class Computed:
    """One dilemma's block of the page and its table as data (None: no table)."""

    block: str
    table: DataTable | None


def _link(name: str, table: DataTable) -> str:
    file = file_name(name, table.text)
    return f"[`dilemmas/{file}`](dilemmas/{file})"


def full_table(name: str, table: PayoffTable) -> Computed:
    labels = [table.labels(p) for p in range(table.num_players)]
    eq = pure_equilibria(table)
    data = product_data(labels, table.payoffs, table.shape, eq)
    if table.num_players == 2:
        md = matrix_markdown(labels, table.payoffs, table.shape, table.exact)
    else:
        md = profiles_markdown(labels, table.payoffs, table.shape, table.exact)
    lines = [
        f"Table: {_link(name, data)}, the full normal form, one row per profile ({len(data.rows):,} rows). "
        f"Computed by `games.normal_form` from `{table.game}`: {table.nodes:,} tree nodes, strategies per "
        f"player {' x '.join(str(k) for k in table.shape)}, "
        + ("exact fractions" if table.exact else "floating point")
        + ", Chaos uniform.",
        *_inline(md),
        "",
        equilibria_text(labels, table.payoffs, eq, table.exact),
    ]
    return Computed("\n".join(lines) + "\n", data)


def _classified(r: Reduced, encodes: str) -> str:
    c = classify_reduced(r, encodes)
    players = len(next(iter(r.exact.values())))
    return (
        f"Classified on the reduced game (`solvers/classify.py`): **{c.label}**: {c.reason}. "
        f"Reproduces {encodes}: **{reproduces(encodes, c.label, players)}**."
    )


def _reduced_product(name: str, r: Reduced) -> tuple[DataTable, list[str]]:
    """A reduced game over every profile of its strategy families."""
    shape = tuple(r.table.shape)
    labels = r.table.strategy_names
    eq = equilibria(r.exact, shape)
    data = product_data(labels, r.exact, shape, eq)
    zero_sum = len(shape) == 2 and all(sum(v) == 0 for v in r.exact.values())
    if len(shape) == 2:
        md = matrix_markdown(labels, r.exact, shape, zero_sum=zero_sum)
        cell = (
            "cell: return of player 0; player 1's is its negative (zero-sum)"
            if zero_sum
            else "cell: returns of player 0, player 1"
        )
        shown = _inline(md, f"Rows: player 0's strategies; columns: player 1's; {cell}.")
    else:
        shown = _inline(profiles_markdown(labels, r.exact, shape))
    lines = [*shown, "", equilibria_text(labels, r.exact, eq, of="Pure equilibria of the reduced game")]
    if zero_sum:
        best = max(range(shape[0]), key=lambda i: min(r.exact[(i, j)][0] for j in range(shape[1])))
        worst = min(r.exact[(best, j)][0] for j in range(shape[1]))
        lines[-1] += (
            f" Best guaranteed strategy of player 0 (maximin): `{labels[0][best]}`, at least "
            f"{value_text(worst, True)}."
        )
    return data, lines


def _reduced_trust(r: Reduced) -> tuple[DataTable, list[str]]:
    """The investment game's cells: sent k, returned j."""
    cells = sorted(r.exact)
    data = DataTable(
        ["sent", "returned", *_return_columns(2)],
        [[str(k), str(j), *_returns(r.exact[(k, j)])] for k, j in cells],
    )
    most = max(j for _, j in cells)
    md = [
        "| sent \\ returned | " + " | ".join(str(j) for j in range(most + 1)) + " |",
        "|---" * (most + 2) + "|",
    ]
    for k in sorted({k for k, _ in cells}):
        md.append(
            f"| {k} | "
            + " | ".join(_fmt(r.exact[(k, j)]) if (k, j) in r.exact else "" for j in range(most + 1))
            + " |"
        )
    return data, _inline(md, "Cell: returns of black (investor), white (trustee).")


def _leaves(node, path=()):
    """The path of every leaf of a ``Decision`` tree, each move as ``player:move``."""
    if not isinstance(node, Decision):
        yield path
        return
    for move, child in node.moves.items():
        yield from _leaves(child, path + (f"{node.player}:{move}",))


def _reduced_tree(r: Reduced) -> tuple[DataTable, list[str]]:
    """A perfect-information tree: one row per leaf, its path of moves."""
    n = len(next(iter(r.exact.values())))
    rows = []
    for path in _leaves(r.tree):
        moves = tuple(step.split(":", 1)[1] for step in path)
        rows.append([" ".join(path), *_returns(r.exact[moves])])
    data = DataTable(["path", *_return_columns(n)], rows)
    spe = backward_induction(r.tree)
    node = r.tree
    while isinstance(node, Decision):
        node = node.moves.get("cover", next(iter(node.moves.values())))
    lines = [
        "",
        f"{len(rows):,} leaves (a path is its moves in order, each as player:move). Subgame-perfect play "
        f"(first action on ties): `{' '.join(spe.path)}`, returns {', '.join(f'{v:g}' for v in spe.value)}. "
        f"Both always covering: returns {', '.join(f'{v:g}' for v in node)}.",
    ]
    return data, lines


def too_large(name: str, refusal: TooLarge) -> Computed:
    """A dilemma whose full table is refused: its reduced game when it has one."""
    text = f"Too large for a full table (the payoffs tool's refusal): {refusal}"
    if name not in REDUCED:
        return Computed(text + "\n\nNo reduced game is defined for it, so it has no data file.\n", None)
    encodes = next(d.encodes for d in ALL if d.name == name)
    r = reduced(name)
    if r.tree is not None and encodes == "trust":
        data, lines = _reduced_trust(r)
    elif r.tree is not None:
        data, lines = _reduced_tree(r)
    else:
        data, lines = _reduced_product(name, r)
    head = (
        f"Reduced game: {_link(name, data)} ({len(data.rows):,} rows), computed by `analysis.reduced_games` "
        f"through `ttt(rules={name})`, exact, Chaos uniform. " + r.family
    )
    body = [text, "", head, *lines, "", _classified(r, encodes)]
    return Computed("\n".join(body) + "\n", data)


def compute(name: str) -> Computed:
    """The computed block and the data table of one dilemma (or the readings block)."""
    if name == READINGS_BLOCK:
        from analysis.dilemma_readings import markdown

        return Computed(markdown(), None)
    if name not in CATALOGUE:
        return Computed(
            f"*Not in the catalogue* (`games/ttt/catalogue/{name}.json` is missing), so there is no table.\n",
            None,
        )
    try:
        table = payoff_table(
            pyspiel.load_game(f"ttt(rules={name})"), max_profiles=MAX_PROFILES, max_nodes=MAX_NODES
        )
    except TooLarge as e:
        return too_large(name, e)
    return full_table(name, table)


# --------------------------------------------------------------------------- data files


def file_name(name: str, text: str) -> str:
    """The data file of a dilemma whose table is ``text``: gzipped when long."""
    return f"{name}.csv.gz" if len(text.encode()) > GZIP_OVER else f"{name}.csv"


def read_data(path: Path) -> str | None:
    """A data file's text (None when it does not exist)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    return (gzip.decompress(raw) if path.suffix == ".gz" else raw).decode()


def write_data(path: Path, text: str) -> None:
    data = text.encode()
    path.write_bytes(gzip.compress(data, compresslevel=9, mtime=0) if path.suffix == ".gz" else data)


@dataclasses.dataclass
class Refresh:
    """The page with its blocks fresh, the data files to write (file name ->
    text) and to remove, and for each stale dilemma what is stale."""

    text: str
    files: dict[str, str]
    remove: list[str]
    stale: dict[str, list[str]]


def refresh(text: str, names=None, data: Path | None = None, progress=None) -> Refresh:
    """Every computed block of ``text`` (of ``names``, default all) and the
    data files in ``data`` (default: those of the repository's page) made
    fresh. A data file is stale when its text differs from the computation,
    missing when absent, and the other form of a dilemma's file (``.csv``
    against ``.csv.gz``) or a file of a dilemma without a table is removed."""
    folder = data_dir(DOC) if data is None else Path(data)
    files, remove, stale = {}, [], {}

    def one(m):
        name = m.group("name")
        if names is not None and name not in names:
            return m.group(0)
        started = time.monotonic()
        done = compute(name)
        if progress:
            progress(f"{name}: {time.monotonic() - started:.1f} s")
        problems = []
        if done.block != m.group("body"):
            problems.append("its block in the page")
        wanted = None
        if done.table is not None:
            wanted = file_name(name, done.table.text)
            found = read_data(folder / wanted)
            if found is None:
                problems.append(f"missing data file {wanted}")
            elif found != done.table.text:
                problems.append(f"data file {wanted}")
            files[wanted] = done.table.text
        for other in (f"{name}.csv", f"{name}.csv.gz"):
            if other != wanted and (folder / other).exists():
                problems.append(f"data file {other}, which should not exist")
                remove.append(other)
        if problems:
            stale[name] = problems
        return m.group(1) + done.block + m.group(4)

    return Refresh(BLOCK.sub(one, text), files, remove, stale)


def rewrite(text: str, names=None, progress=None, data: Path | None = None) -> tuple[str, list[str]]:
    """``text`` with every computed block (of ``names``, default all) made
    fresh, and the names whose block or data file (in ``data``, default the
    repository's) is stale."""
    r = refresh(text, names, data, progress)
    return r.text, list(r.stale)


def blocks(text: str) -> dict[str, str]:
    return {m.group("name"): m.group("body") for m in BLOCK.finditer(text)}


def unexpected_files(folder: Path) -> list[str]:
    """Files in the data folder that are no dilemma's data file."""
    known = {f"{d.name}{ext}" for d in ALL for ext in (".csv", ".csv.gz")}
    return sorted(p.name for p in folder.iterdir() if p.name not in known) if folder.is_dir() else []


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m analysis.dilemmas_doc",
        description="Rewrite the computed blocks of docs/rules/dilemmas.md, of "
        f"docs/rules/{BY_GAME} beside it, and their data files "
        "(docs/rules/dilemmas/NAME.csv or .csv.gz, one payoff table per dilemma of games/ttt/dilemmas.py) "
        "from the catalogue.",
    )
    parser.add_argument(
        "--doc",
        default=str(DOC),
        help=f"the index page to rewrite, with {BY_GAME} beside it (default %(default)s)",
    )
    parser.add_argument(
        "--data",
        help="the folder of its data files (default: beside the page, named after it: the page's path "
        "without .md)",
    )
    parser.add_argument(
        "--only",
        action="append",
        metavar="NAME",
        help="rewrite only this dilemma's block and file (repeatable)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 naming each dilemma whose block or file is stale or missing",
    )
    parser.add_argument(
        "--print",
        metavar="NAME",
        dest="show",
        help="print this dilemma's table (the text of its data file) and exit",
    )
    args = parser.parse_args(argv)
    known = {d.name for d in ALL} | {READINGS_BLOCK}
    for name in (args.only or []) + ([args.show] if args.show else []):
        if name not in known:
            parser.error(f"{name!r} is not a dilemma (allowed: {', '.join(sorted(known))})")
    if args.show:
        done = compute(args.show)
        if done.table is None:
            print(f"error: {args.show} has no table. {done.block.strip()}", file=sys.stderr)
            return 1
        sys.stdout.write(done.table.text)
        return 0
    path = Path(args.doc)
    folder = Path(args.data) if args.data else data_dir(path)
    texts = {}
    for page in pages(path):
        try:
            texts[page] = page.read_text()
        except OSError as e:
            print(f"error: cannot read {page}: {e.strerror}", file=sys.stderr)
            return 2
    missing = known - {name for text in texts.values() for name in blocks(text)}
    if missing:
        print(
            f"error: {path} and {BY_GAME} have no computed block for {', '.join(sorted(missing))}",
            file=sys.stderr,
        )
        return 2
    refreshed = {
        page: refresh(
            text,
            set(args.only) if args.only else None,
            folder,
            progress=lambda m: print(m, file=sys.stderr, flush=True),
        )
        for page, text in texts.items()
    }
    r = Refresh(
        "",
        {k: v for one in refreshed.values() for k, v in one.files.items()},
        [name for one in refreshed.values() for name in one.remove],
        {k: v for one in refreshed.values() for k, v in one.stale.items()},
    )
    extra = [] if args.only else unexpected_files(folder)
    if args.check:
        for name, problems in r.stale.items():
            print(f"stale: {name}: {'; '.join(problems)}")
        for name in extra:
            print(f"stale: {folder / name} is no dilemma's data file")
        if r.stale or extra:
            print(f"{path}: {len(r.stale)} dilemma(s) stale (run python -m analysis.dilemmas_doc)")
            return 1
        print(f"{path}: every computed block and data file is fresh")
        return 0
    for page, one in refreshed.items():
        if one.text != texts[page]:
            page.write_text(one.text)
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in r.files.items():
        if read_data(folder / name) != content:
            write_data(folder / name, content)
    for name in r.remove:
        (folder / name).unlink()
    for name in extra:
        print(f"warning: {folder / name} is no dilemma's data file", file=sys.stderr)
    changed = ", ".join(r.stale)
    print(f"{path}: rewrote {len(r.stale)} dilemma(s){': ' + changed if changed else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

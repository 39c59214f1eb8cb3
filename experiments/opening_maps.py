"""Opening maps: every opening of a solved game drawn on its own board, marked by its value.

    python -m experiments.opening_maps [--only TEXT] [--game GAME ...] [--out docs/solved/maps]
    python -m experiments.opening_maps --game "y_game(board_size=5)" --solve
    python -m experiments.opening_maps --record-replies --game "flipway(board_size=6,pie=True)"

One map per solved side of the Y family (a triangle of hexagons) and of Flipway
(a square of cells), as SVG and PNG. Without swap or pie each opening is marked
by who wins after it with perfect play; with swap or pie (every such side solved
is a second-player win) by the second player's winning reply: swap, or play on.
Every cell carries the move name the records use (``a2``, ``b1``); a hatch marks
the openings that win for the first player (or that the second player swaps), so
the maps read in black and white too.

Where the values come from: the solve records of docs/solved_records.jsonl (the
latest record of each game string), the rows of docs/solved.md's Y table that
list every winning opening of a side without a record (side 8), and, for swap
and pie, the reply records of docs/solved_replies.jsonl, which
``--record-replies`` computes with the exact solver (``solvers.exhaustive``) and
appends. ``--solve`` runs the solver instead of reading any record.
"""

from __future__ import annotations

import argparse
import io
import math
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Patch, Polygon, Rectangle, RegularPolygon  # noqa: E402
from PIL import Image  # noqa: E402

from analysis.exact import SOLVED_RECORDS  # noqa: E402
from analysis.solved_families import KEY, families  # noqa: E402
from analysis.study import git_commit  # noqa: E402
from records import RecordStore, RecordStoreError, read_records  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
RECORDS = SOLVED_RECORDS
REPLIES = ROOT / "docs" / "solved_replies.jsonl"
SOLVED_MD = ROOT / "docs" / "solved.md"
OUT = ROOT / "docs" / "solved" / "maps"

#: The games a map can be drawn for, with the board each is played on and its name in titles.
GAMES = {
    "y_game": ("triangle", "Y"),
    "defector_y": ("triangle", "Defector Y"),
    "double_o_y": ("triangle", "Double-'0' Y"),
    "flipway": ("square", "Flipway"),
}

#: How each outcome is drawn: legend text, fill colour, hatch (a hatch marks the openings that win for
#: the first player, and those the second player swaps, since they would).
OUTCOMES = {
    "win": ("first player wins", "#e66101", "///"),
    "loss": ("second player wins", "#c6dbef", ""),
    "draw": ("draw", "#d9d9d9", "..."),
    "swap": ("second player swaps and wins", "#b2182b", "\\\\\\"),
    "play on": ("second player plays on and wins", "#e5f5e0", ""),
}
VALUE_OUTCOME = {1.0: "win", -1.0: "loss", 0.0: "draw"}


class MapError(ValueError):
    """A map that cannot be drawn: an unknown game, or a side with no record."""


@dataclass
class OpeningMap:
    """One game's openings and what each is worth, ready to draw."""

    game_string: str
    outcomes: dict[str, str]  # opening (the records' move name) -> a key of OUTCOMES
    source: str
    family: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.game_string.split("(", 1)[0]

    @property
    def params(self) -> dict[str, str]:
        inner = self.game_string.split("(", 1)[1].rstrip(")") if "(" in self.game_string else ""
        return dict(part.split("=", 1) for part in inner.split(",") if part)

    @property
    def size(self) -> int:
        return int(self.params["board_size"])

    @property
    def with_swap(self) -> bool:
        p = self.params
        return p.get("swap", "").lower() == "true" or p.get("pie", "").lower() == "true"

    @property
    def stem(self) -> str:
        """The file name without suffix, e.g. ``double_o_y-flip-all-protocol-1-win-turn_start-5``."""
        others = [f"{k}-{v.lower()}" for k, v in self.params.items() if k != "board_size"]
        return "-".join([self.name, *others, str(self.size)])

    @property
    def title(self) -> str:
        shape, display = GAMES[self.name]
        extras = [k for k, v in self.params.items() if v.lower() == "true"]
        variant = ", ".join(
            f"{k}={v}" for k, v in self.params.items() if k != "board_size" and k not in extras
        )
        display += "".join(f" with {k}" for k in extras) + (f" ({variant})" if variant else "")
        board = f"side {self.size}" if shape == "triangle" else f"{self.size}x{self.size}"
        what = "where the second player swaps" if self.with_swap else "who wins after each opening"
        return f"{display}\n{board}: {what}"


# ----------------------------------------------------------------------------- sources
def check_game(game_string: str) -> str:
    """``game_string`` if a map can be drawn for it; ``MapError`` saying why not otherwise."""
    name = game_string.split("(", 1)[0].strip()
    if name not in GAMES:
        raise MapError(f"no opening map for game {name!r}: maps are drawn for {', '.join(GAMES)}")
    if "board_size=" not in game_string:
        raise MapError(f"{game_string}: give the side as board_size=N")
    if "board_shape=" in game_string and "board_shape=triangle" not in game_string:
        raise MapError(f"{game_string}: maps of the Y family are drawn on the triangle only")
    return game_string


def _latest(path: Path) -> dict[str, dict]:
    try:
        return {r[KEY]: r for r in read_records(str(path), key=KEY)} if path.exists() else {}
    except RecordStoreError as error:
        raise MapError(str(error)) from None


def solved_md_rows(path: Path = SOLVED_MD) -> dict[str, dict]:
    """The rows of docs/solved.md that name a game string and list every winning opening.

    A row qualifies when its first column is a game string in backticks, its value is +1
    or -1, and its winning-moves column is ``none``, ``all N`` or a list of move names
    (a note in parentheses after the list is ignored); swap and pie rows, which say where
    to swap in words, do not.
    """
    rows = {}
    for line in path.read_text().splitlines():
        cols = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cols) < 3 or not re.fullmatch(r"`[a-z_]+\(.*\)`", cols[0]):
            continue
        value = {"+1": 1.0, "-1": -1.0}.get(cols[1])
        moves = re.sub(r"\s*\(.*\)$", "", cols[2])
        if value is None or not re.fullmatch(r"none|all \d+|[a-z]\d+( [a-z]\d+)*", moves):
            continue
        rows[cols[0].strip("`")] = {"value": value, "winning": moves}
    return rows


def _openings(game_string: str) -> list[str]:
    """Every first move of the game, as the game writes it."""
    import games  # noqa: F401  (registers the games)
    from solvers.exhaustive import Evaluator

    ev = Evaluator(game_string, method="alphabeta", tt_log2=10)
    return [ev.describe(a) for a in ev.root.legal_action_list()]


def from_solved_md(game_string: str, row: dict) -> OpeningMap:
    openings = _openings(game_string)
    if row["winning"] == "none":
        winning = set()
    elif row["winning"].startswith("all "):
        winning = set(openings)
    else:
        winning = set(row["winning"].split())
    unknown = winning - set(openings)
    if unknown:
        raise MapError(f"docs/solved.md names {sorted(unknown)} as openings of {game_string}")
    outcomes = {o: "win" if o in winning else "loss" for o in openings}
    return OpeningMap(game_string, outcomes, "docs/solved.md (every winning opening of the side)")


def from_record(record: dict) -> OpeningMap:
    outcomes = {o: VALUE_OUTCOME[v] for o, v in record["opening_values"].items()}
    return OpeningMap(
        record[KEY], outcomes, f"docs/solved_records.jsonl (commit {record['commit']})", record["family"]
    )


def from_replies(record: dict) -> OpeningMap:
    return OpeningMap(
        record[KEY], dict(record["replies"]), f"docs/solved_replies.jsonl (commit {record['commit']})"
    )


def winning_replies(game_string: str, tt_log2: int = 22, progress=None) -> dict:
    """After each opening of a swap or pie game, the second player's winning reply.

    Returns ``{"replies": {opening: "swap" | "play on"}, "nodes", "seconds"}``. Every
    side solved so far is a second-player win, so one of the two replies wins after
    each opening; an opening after which neither does is an error (the game would then
    be a first-player win, and its map would be a map of values).
    """
    import games  # noqa: F401  (registers the games)
    from solvers.exhaustive import Evaluator

    start = time.perf_counter()
    ev = Evaluator(game_string, tt_log2=tt_log2)
    replies = {}
    actions = ev.root.legal_action_list()
    for k, opening in enumerate(actions):
        after = ev.child_of(opening)
        mover = after.player()
        names = {a: after.action_string(mover, a) for a in after.legal_action_list()}
        swaps = [a for a, name in names.items() if name == "swap"]
        if not swaps:
            raise MapError(f"{game_string} has no swap after {ev.describe(opening)}")
        if ev.value(ev.child_of(swaps[0], after)) == -1:
            replies[ev.describe(opening)] = "swap"
        elif any(ev.value(ev.child_of(a, after)) == -1 for a in names if a != swaps[0]):
            replies[ev.describe(opening)] = "play on"
        else:
            raise MapError(f"{game_string}: after {ev.describe(opening)} the first player wins")
        if progress and (k + 1) % 25 == 0:
            progress(f"{k + 1}/{len(actions)} openings")
    return {"replies": replies, "nodes": ev.nodes, "seconds": round(time.perf_counter() - start, 3)}


def record_replies(game_string: str, path: Path = REPLIES, tt_log2: int = 22, progress=print) -> dict:
    """Compute ``winning_replies`` and append them to the reply records at ``path``."""
    progress(f"solving the replies of {game_string} ...")
    result = winning_replies(game_string, tt_log2, lambda msg: progress("    " + msg))
    record = {
        KEY: game_string,
        "commit": git_commit()[:7],
        "command": f'python -m experiments.opening_maps --record-replies --game "{game_string}"',
        **result,
    }
    with RecordStore(str(path), key=KEY) as store:
        store.append(record)
    swaps = sum(r == "swap" for r in result["replies"].values())
    progress(
        f"    swap after {swaps} of {len(result['replies'])} openings; {result['nodes']:,} nodes, "
        f"{result['seconds']} s"
    )
    return record


def solve_map(game_string: str, time_limit: float = 0.0, tt_log2: int = 22, progress=print) -> OpeningMap:
    """The map of ``game_string`` from the exact solver run now, no record read."""
    check_game(game_string)
    m = OpeningMap(game_string, {}, "")
    if m.with_swap:
        result = winning_replies(game_string, tt_log2, lambda msg: progress("    " + msg))
        return OpeningMap(game_string, result["replies"], "the exact solver (--solve)")
    from solvers.exhaustive import solve

    res = solve(game_string, time_limit=time_limit, tt_log2=tt_log2)
    if not res.get("complete"):
        raise MapError(f"{game_string}: not solved within --time-limit {time_limit:g} s")
    outcomes = {o: VALUE_OUTCOME[v] for o, v in res["opening_values"].items()}
    return OpeningMap(game_string, outcomes, "the exact solver (--solve)")


def _normal(game_string: str) -> str:
    return game_string.replace(" ", "")


def available_maps(
    records: Path = RECORDS, replies: Path = REPLIES, solved_md: Path = SOLVED_MD
) -> tuple[list[OpeningMap], list[str]]:
    """Every map the records allow, in the order of docs/solved.md, and what is left out and why."""
    maps, skipped = [], []
    order = {name: k for k, (name, _, _) in enumerate(families())}
    recs = sorted(_latest(records).values(), key=lambda r: (order.get(r["family"], 99), r["size"]))
    reply_recs = _latest(replies)
    for r in recs:
        gs = r[KEY]
        if gs.split("(", 1)[0] not in GAMES:
            continue
        if not r.get("complete") or not r.get("opening_values"):
            skipped.append(f"{gs}: the record holds the root's value only, not each opening's")
            continue
        m = from_record(r)
        if m.with_swap:
            if gs in reply_recs:
                rm = from_replies(reply_recs[gs])
                rm.family = r["family"]
                maps.append(rm)
            else:
                skipped.append(f"{gs}: no reply record (--record-replies computes one)")
            continue
        maps.append(m)
    drawn = {_normal(m.game_string) for m in maps} | {_normal(r[KEY]) for r in recs}
    for gs, row in solved_md_rows(solved_md).items():
        if _normal(gs) in drawn or gs.split("(", 1)[0] not in GAMES:
            continue
        m = from_solved_md(gs, row)
        m.family = m.name
        maps.append(m)
        drawn.add(_normal(gs))
    for gs, rec in reply_recs.items():
        if _normal(gs) not in drawn and gs.split("(", 1)[0] in GAMES:
            m = from_replies(rec)
            m.family = f"{m.name} swap"
            maps.append(m)
    maps.sort(key=lambda m: (order.get(m.family.removesuffix(" swap"), 99), m.with_swap, m.size))
    return maps, skipped


def find_map(game_string: str, records: Path = RECORDS, replies: Path = REPLIES) -> OpeningMap:
    """The map of one game string from the records; ``MapError`` when none holds its openings."""
    check_game(game_string)
    maps, _ = available_maps(records, replies)
    for m in maps:
        if _normal(m.game_string) == _normal(game_string):
            return m
    raise MapError(
        f"no record of {game_string}'s openings in docs/solved_records.jsonl, docs/solved_replies.jsonl "
        "or docs/solved.md (--solve runs the solver; the game string must be written as the records "
        "write it, e.g. y_game(board_size=5))"
    )


# ----------------------------------------------------------------------------- drawing
def _triangle_cells(game_string: str) -> dict[str, tuple[float, float]]:
    """Cell name -> centre of its hexagon (unit radius), from the game's own board."""
    import games  # noqa: F401
    from games.openspiel import core_of
    from solvers.exhaustive import load

    board = core_of(load(game_string)).board
    rows: dict[int, int] = {}
    for r, c in board.coords:
        rows[r] = max(rows.get(r, 0), c + 1)
    widest = max(rows.values())
    dx, dy = 3**0.5, 1.5
    return {
        name: ((c + (widest - rows[r]) / 2) * dx, -r * dy)
        for name, (r, c) in zip(board.names, board.coords, strict=True)
    }


def _square_cells(game_string: str) -> dict[str, tuple[float, float]]:
    """Cell name -> centre (unit cells), row-major from the top left as the board names them."""
    import games  # noqa: F401
    from games.openspiel import core_of
    from solvers.exhaustive import load

    board = core_of(load(game_string)).board
    n = board.size
    return {name: (i % n, -(i // n)) for i, name in enumerate(board.names)}


def _gid(opening: str) -> str:
    return "opening-" + opening.replace("+", "_")


def _legend(fig, used: list[str], source: str):
    handles = [
        Patch(facecolor=OUTCOMES[o][1], hatch=OUTCOMES[o][2], edgecolor="#333", label=OUTCOMES[o][0])
        for o in OUTCOMES
        if o in used
    ]
    legend = fig.legend(
        handles=handles, loc="outside lower center", ncol=2, frameon=False, fontsize=9,
        title=f"source: {source}", title_fontsize=7,
    )  # fmt: skip
    legend.get_title().set_color("#555")


def _draw_triangle(m: OpeningMap):
    cells = _triangle_cells(m.game_string)
    n = m.size
    fig, ax = plt.subplots(figsize=(max(5.2, 1.2 + 0.62 * n), 1.9 + 0.55 * n), layout="constrained")
    for name, (x, y) in cells.items():
        outcome = m.outcomes[name]
        _, colour, hatch = OUTCOMES[outcome]
        hexagon = RegularPolygon(
            (x, y), 6, radius=1.0, facecolor=colour, hatch=hatch, edgecolor="#333", linewidth=0.8
        )
        hexagon.set_gid(_gid(name))
        ax.add_patch(hexagon)
        ax.text(
            x, y, name, ha="center", va="center", fontsize=9 if n <= 6 else 8, weight="bold",
            bbox=dict(boxstyle="square,pad=0.1", facecolor="white", edgecolor="none", alpha=0.85),
        )  # fmt: skip
    xs = [x for x, _ in cells.values()]
    ys = [y for _, y in cells.values()]
    ax.set_xlim(min(xs) - 1.2, max(xs) + 1.2)
    ax.set_ylim(min(ys) - 1.3, max(ys) + 1.3)
    ax.set_aspect("equal")
    ax.axis("off")
    return fig, [ax]


#: Flipway pie openings grouped by shape: (offsets of the stones within their 2x2 area, title).
SHAPES = [
    ({(0, 0)}, "one stone"),
    ({(0, 0), (1, 0)}, "two stones in a row"),
    ({(0, 0), (0, 1)}, "two stones in a column"),
    ({(0, 0), (1, 1)}, "two stones on a \u2198 diagonal"),
    ({(1, 0), (0, 1)}, "two stones on a \u2197 diagonal"),
    ({(1, 0), (0, 1), (1, 1)}, "three stones, top left empty"),
    ({(0, 0), (0, 1), (1, 1)}, "three stones, top right empty"),
    ({(0, 0), (1, 0), (1, 1)}, "three stones, bottom left empty"),
    ({(0, 0), (1, 0), (0, 1)}, "three stones, bottom right empty"),
    ({(0, 0), (1, 0), (0, 1), (1, 1)}, "four stones"),
]


def _shape(stones: list[tuple[int, int]]) -> int:
    """The index in SHAPES of an opening's stones, given as (column, row down) positions."""
    x0, y0 = min(x for x, _ in stones), min(y for _, y in stones)
    offsets = {(x - x0, y - y0) for x, y in stones}
    for k, (shape, _) in enumerate(SHAPES):
        if offsets == shape:
            return k
    raise MapError(f"an opening of stones {stones} is no 1-4 stones of one 2x2 area")


def _glyph(points: list[tuple[float, float]], shrink: float = 0.6, half: float = 0.12):
    """An opening of several stones as one shape: its stones' centres pulled towards their
    middle (each stays inside its own cell), a bar for two stones, a triangle for three,
    a square for four; neighbouring openings of one shape never touch."""
    cx = sum(x for x, _ in points) / len(points)
    cy = sum(y for _, y in points) / len(points)
    near = [(cx + shrink * (x - cx), cy + shrink * (y - cy)) for x, y in points]
    if len(near) == 2:
        (x1, y1), (x2, y2) = near
        length = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
        nx, ny = -(y2 - y1) / length * half, (x2 - x1) / length * half
        return [(x1 + nx, y1 + ny), (x2 + nx, y2 + ny), (x2 - nx, y2 - ny), (x1 - nx, y1 - ny)]
    # around the middle, so that the outline is a convex polygon
    return sorted(near, key=lambda p: math.atan2(p[1] - cy, p[0] - cx))


def _draw_square(m: OpeningMap):
    cells = _square_cells(m.game_string)
    n = m.size
    groups: dict[int, list[str]] = {}
    for opening in m.outcomes:
        stones = [(int(cells[c][0]), -int(cells[c][1])) for c in opening.split("+")]
        groups.setdefault(_shape(stones), []).append(opening)
    shapes = sorted(groups)
    cols = min(len(shapes), 5)
    rows = -(-len(shapes) // cols)
    panel = 0.42 * n + 0.5 if len(shapes) > 1 else 0.6 * n + 0.8
    fig, axes = plt.subplots(
        rows, cols, figsize=(cols * panel + 0.4, rows * (panel + 0.45) + 1.2), layout="constrained"
    )
    axes = list(getattr(axes, "flat", [axes]))
    letters = sorted({c[0] for c in cells})
    for ax, k in zip(axes, shapes, strict=False):
        single = SHAPES[k][0] == {(0, 0)}
        for name, (x, y) in cells.items():
            if single:
                _, colour, hatch = OUTCOMES[m.outcomes[name]]
                square = Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor=colour, hatch=hatch, edgecolor="#333")
                square.set_gid(_gid(name))
                ax.add_patch(square)
                ax.text(
                    x, y, name, ha="center", va="center", fontsize=8 if n <= 6 else 7, weight="bold",
                    bbox=dict(boxstyle="square,pad=0.1", facecolor="white", edgecolor="none", alpha=0.85),
                )  # fmt: skip
        if not single:
            edges = [k - 0.5 for k in range(n + 1)]
            ax.vlines(edges, -n + 0.5, 0.5, colors="#999", lw=0.5)
            ax.hlines([-e for e in edges], -0.5, n - 0.5, colors="#999", lw=0.5)
            for opening in groups[k]:
                _, colour, hatch = OUTCOMES[m.outcomes[opening]]
                glyph = Polygon(_glyph([cells[c] for c in opening.split("+")]), closed=True, zorder=3)
                glyph.set(facecolor=colour, hatch=hatch, edgecolor="#333", linewidth=0.8)
                glyph.set_gid(_gid(opening))
                ax.add_patch(glyph)
        ax.set_xlim(-0.6, n - 0.4)
        ax.set_ylim(-n + 0.4, 0.6)
        ax.set_aspect("equal")
        ax.set_xticks(range(n), letters, fontsize=7)
        ax.set_yticks([-r for r in range(n)], [str(n - r) for r in range(n)], fontsize=7)
        ax.tick_params(length=0, pad=1)
        for side in ax.spines.values():
            side.set_visible(False)
        if len(shapes) > 1:
            ax.set_title(f"{SHAPES[k][1]} ({len(groups[k])})", fontsize=8)
    for ax in axes[len(shapes) :]:
        ax.axis("off")
    return fig, axes[: len(shapes)]


def draw(m: OpeningMap, stem: Path, dpi: int = 90) -> dict[str, str]:
    """Draw ``m`` to ``stem``.svg and ``stem``.png; return each opening's outcome as drawn."""
    check_game(m.game_string)
    # one font named, text kept as text: small SVG files whose labels can be searched
    style = {"svg.fonttype": "none", "svg.hashsalt": "opening-maps", "font.sans-serif": ["DejaVu Sans"]}
    with plt.rc_context(style):
        fig, _ = (_draw_triangle if GAMES[m.name][0] == "triangle" else _draw_square)(m)
        fig.suptitle(m.title, fontsize=10)
        used = [o for o in OUTCOMES if o in m.outcomes.values()]
        _legend(fig, used, m.source)
        stem.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(stem.with_suffix(".svg"), metadata={"Date": None})
        png = io.BytesIO()
        fig.savefig(png, format="png", dpi=dpi, metadata={"Software": None})
    plt.close(fig)
    # a palette of 32 colours keeps the picture as it is at a third of the size
    Image.open(png).convert("RGB").quantize(32, dither=Image.Dither.NONE).save(
        stem.with_suffix(".png"), optimize=True
    )
    return dict(m.outcomes)


# ----------------------------------------------------------------------------- command line
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m experiments.opening_maps",
        description=__doc__.split("\n\n")[0] + " Writes NAME.svg and NAME.png per map to --out.",
    )
    ap.add_argument(
        "--game",
        action="append",
        default=[],
        metavar="GAME",
        help='a game string as the records write it, e.g. "y_game(board_size=5)" (repeatable; '
        "default: every game with solved openings)",
    )
    ap.add_argument(
        "--only", default=None, help="only games whose family (e.g. 'double_o_y all') contains this"
    )
    ap.add_argument("--out", type=Path, default=OUT, help="directory of the maps (default: docs/solved/maps)")
    ap.add_argument(
        "--records", type=Path, default=RECORDS, help="solve records (default: docs/solved_records.jsonl)"
    )
    ap.add_argument(
        "--replies", type=Path, default=REPLIES, help="reply records (default: docs/solved_replies.jsonl)"
    )
    ap.add_argument(
        "--solve", action="store_true", help="run the exact solver for each --game instead of reading records"
    )
    ap.add_argument(
        "--record-replies",
        action="store_true",
        help="solve the winning reply after each opening of the swap and pie games (each --game, or every "
        "pie record without one: 6x6 Flipway with pie takes about a minute, 7x7 hours) and append them "
        "to --replies, then draw",
    )
    ap.add_argument(
        "--time-limit", type=float, default=0.0, help="with --solve: seconds per solve of values (0: none)"
    )
    ap.add_argument("--tt-log2", type=int, default=22, help="solver transposition table of 2**N entries")
    ap.add_argument("--dpi", type=int, default=90, help="PNG resolution (default %(default)s)")
    ap.add_argument("--list", action="store_true", help="list the maps the records allow and exit")
    args = ap.parse_args(argv)
    say = lambda msg: print(msg, file=sys.stderr, flush=True)  # noqa: E731
    records, replies = args.records, args.replies
    try:
        for gs in args.game:
            check_game(gs)
        if args.solve and not args.game:
            ap.error("--solve needs --game")
        if args.record_replies:
            todo = {gs: gs for gs in args.game} or {
                gs: r["family"] for gs, r in _latest(records).items() if r.get("complete")
            }
            done = _latest(replies)
            for gs, family in todo.items():
                if args.only and args.only not in family:
                    continue
                if OpeningMap(gs, {}, "").with_swap and gs not in done:
                    record_replies(gs, replies, args.tt_log2, say)
        if args.solve:
            maps = [solve_map(gs, args.time_limit, args.tt_log2, say) for gs in args.game]
        elif args.game:
            maps = [find_map(gs, records, replies) for gs in args.game]
        else:
            maps, skipped = available_maps(records, replies)
            for why in skipped:
                say(f"skipped {why}")
        if args.only:
            maps = [m for m in maps if args.only in (m.family or m.game_string)]
        if not maps:
            raise MapError("no map matches" + (f" --only {args.only!r}" if args.only else ""))
        if args.list:
            for m in maps:
                print(f"{m.stem}\t{m.game_string}\t{m.source}")
            return 0
        out = args.out
        for k, m in enumerate(maps, 1):
            draw(m, out / m.stem, args.dpi)
            counts = {o: sum(v == o for v in m.outcomes.values()) for o in OUTCOMES}
            shown = ", ".join(f"{c} {o}" for o, c in counts.items() if c)
            say(f"[{k}/{len(maps)}] {out / m.stem}.svg/.png: {m.game_string}: {shown}")
    except MapError as error:
        ap.error(str(error))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``python -m analysis.dilemmas_doc``: rewrite the computed blocks of
docs/rules/dilemmas.md (each dilemma's payoff table) from the toolkit.

Why generated: the tables are the evidence for what each rule set encodes, so
they must be what ``games.normal_form`` computes from the catalogue today, not
numbers typed once and left to drift. The prose around them is written by
hand; only the text between ``<!-- BEGIN computed: NAME -->`` and
``<!-- END computed: NAME -->`` is rewritten. A dilemma not in the catalogue
yet (it needs captures or stack movement) gets a line saying so, and a
strategy space too large for a table gets the payoffs tool's refusal with
its count. ``--check`` rewrites nothing and fails when a block is stale (the
test suite runs it).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

import numpy as np
import pyspiel

import games  # noqa: F401  (registers ttt)
from analysis.reduced_games import REDUCED, allocation_table, classify_reduced, count_table, reduced
from games.normal_form import TooLarge, payoff_table
from games.payoff_formats import value_text
from games.ttt.dilemmas import DILEMMAS
from games.ttt.sources import CATALOGUE, REPO_ROOT
from solvers.classify import reproduces
from solvers.normal_form import Decision, backward_induction
from solvers.normal_form import pure_equilibria as pure

DOC = REPO_ROOT / "docs" / "rules" / "dilemmas.md"
MAX_PROFILES = 100_000
MAX_NODES = 200_000
BLOCK = re.compile(
    r"(<!-- BEGIN computed: (?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- END computed: (?P=name) -->)", re.S
)


def pure_equilibria(table) -> list[tuple]:
    """Profiles of pure strategies where no player gains by changing its own
    strategy alone (exact comparison of the table's values)."""
    out = []
    for profile in table.profiles():
        values = table.payoffs[profile]
        stable = True
        for p in range(table.num_players):
            for s in range(table.shape[p]):
                other = profile[:p] + (s,) + profile[p + 1 :]
                if table.payoffs[other][p] > values[p]:
                    stable = False
                    break
            if not stable:
                break
        if stable:
            out.append(profile)
    return out


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown(table) -> str:
    """The table as markdown: a matrix for two players, one row per profile
    otherwise; then the pure equilibria."""
    labels = [table.labels(p) for p in range(table.num_players)]
    fmt = lambda vs: ", ".join(value_text(v, table.exact) for v in vs)  # noqa: E731
    lines = [
        f"Computed by `games.normal_form` from `ttt(rules={table.game[10:-1]})`: "
        f"{table.nodes:,} tree nodes, strategies per player "
        f"{' x '.join(str(k) for k in table.shape)}, "
        + ("exact fractions" if table.exact else "floating point")
        + ", Chaos uniform.",
        "",
    ]
    if table.num_players == 2:
        lines.append("| player 0 \\ player 1 | " + " | ".join(_cell(c) for c in labels[1]) + " |")
        lines.append("|---" * (table.shape[1] + 1) + "|")
        for i in range(table.shape[0]):
            lines.append(
                f"| {_cell(labels[0][i])} | "
                + " | ".join(fmt(table.payoffs[(i, j)]) for j in range(table.shape[1]))
                + " |"
            )
    else:
        lines.append("| " + " | ".join(f"player {p}" for p in range(table.num_players)) + " | returns |")
        lines.append("|---" * (table.num_players + 1) + "|")
        for profile in table.profiles():
            lines.append(
                "| "
                + " | ".join(_cell(labels[p][s]) for p, s in enumerate(profile))
                + f" | {fmt(table.payoffs[profile])} |"
            )
    eq = pure_equilibria(table)
    lines.append("")
    if eq:
        names = [
            "(" + " ; ".join(labels[p][s] for p, s in enumerate(pr)) + f") -> {fmt(table.payoffs[pr])}"
            for pr in eq
        ]
        lines.append(f"Pure equilibria ({len(eq)}): " + "; ".join(f"`{n}`" for n in names) + ".")
    else:
        lines.append("Pure equilibria: none.")
    return "\n".join(lines) + "\n"


# Dilemmas whose full normal form is too large but whose every decision is
# "place one more (in the one place open to me) or pass": the reduced table of
# count strategies is computable and is given under the refusal.
COUNT_TABLES = ("Shopping9",)


def count_markdown(name: str) -> str:
    shape, table = count_table(pyspiel.load_game(f"ttt(rules={name})"))
    fmt = lambda vs: ", ".join(value_text(v, True) for v in vs)  # noqa: E731
    lines = [
        "",
        "Reduced table (computed, exact, Chaos uniform): each player's strategy is *the number of pieces "
        "it places before passing*, whatever it sees (a later player who sees the earlier counts could make "
        "its number depend on them: read that from the rows). Rows: player 0 places k; columns: player 1 "
        "places j; cell: returns of player 0, player 1.",
        "",
    ]
    if len(shape) != 2:
        raise ValueError("count tables are printed for two players only")
    lines.append("| k \\ j | " + " | ".join(str(j) for j in range(shape[1])) + " |")
    lines.append("|---" * (shape[1] + 1) + "|")
    for k in range(shape[0]):
        lines.append(f"| {k} | " + " | ".join(fmt(table[(k, j)]) for j in range(shape[1])) + " |")
    return "\n".join(lines) + "\n"


# Two-player dilemmas on several boards where every decision is "one more piece
# on board b": Colonel Blotto. Reduced by the boards' symmetry to allocations.
ALLOCATION_TABLES = ("3Blotto13",)


def allocation_markdown(name: str) -> str:
    parts, t = allocation_table(pyspiel.load_game(f"ttt(rules={name})"))
    label = lambda P: "-".join(map(str, P))  # noqa: E731
    lines = [
        "",
        "Reduced table by the boards' symmetry (computed by playing every pair through "
        f"`ttt(rules={name})`, exact): each player's strategy is an allocation of its pieces to the "
        "boards, named largest first and laid on the boards in a uniformly random order (each player "
        "independently). Cell: expected return of player 0 (rows); player 1's is its negative (zero-sum). "
        "Placement order does not matter: every space is cloaked and each player places on its own stacks.",
        "",
        "| 0 \\ 1 | " + " | ".join(label(Q) for Q in parts) + " |",
        "|---" * (len(parts) + 1) + "|",
    ]
    for P in parts:
        lines.append(f"| {label(P)} | " + " | ".join(value_text(t[(P, Q)], True) for Q in parts) + " |")
    eq = [
        (P, Q)
        for P in parts
        for Q in parts
        if all(t[(P, Q)] >= t[(R, Q)] for R in parts) and all(t[(P, Q)] <= t[(P, S)] for S in parts)
    ]
    best = max(parts, key=lambda P: min(t[(P, Q)] for Q in parts))
    lines += [
        "",
        "Pure equilibria of the reduced game: "
        + ("; ".join(f"`{label(P)}` vs `{label(Q)}`" for P, Q in eq) if eq else "none")
        + f". Best guaranteed allocation "
        f"(maximin): `{label(best)}`, at least {value_text(min(t[(best, Q)] for Q in parts), True)}.",
    ]
    return "\n".join(lines) + "\n"


def reduced_markdown(name: str) -> str:
    """The reduced game of ``analysis.reduced_games`` under a refusal: its family,
    its table (or for a tree, its subgame-perfect play), and the verdict of
    the classifier of the game the dilemma encodes."""
    encodes = next(d.encodes for d in DILEMMAS if d.name == name)
    r = reduced(name)
    fmt = lambda vs: ", ".join(value_text(v, True) for v in vs)  # noqa: E731
    lines = [
        "",
        f"Reduced game (`analysis.reduced_games`, computed through `ttt(rules={name})`, exact, "
        "Chaos uniform). " + r.family,
        "",
    ]
    if r.tree is not None and encodes == "trust":
        sends = sorted({k for k, _ in r.exact})
        most = max(j for _, j in r.exact)
        lines.append("| sent \\ returned | " + " | ".join(str(j) for j in range(most + 1)) + " |")
        lines.append("|---" * (most + 2) + "|")
        for k in sends:
            lines.append(
                f"| {k} | "
                + " | ".join(fmt(r.exact[(k, j)]) if (k, j) in r.exact else "" for j in range(most + 1))
                + " |"
            )
        lines += ["", "Cell: returns of black (investor), white (trustee)."]
    elif r.tree is not None:
        spe = backward_induction(r.tree)
        node, line = r.tree, []
        while isinstance(node, Decision):
            line.append(node.player)
            node = node.moves.get("cover", next(iter(node.moves.values())))
        lines.append(
            f"{len(r.exact):,} leaves. Subgame-perfect play (first action on ties): "
            f"`{' '.join(spe.path)}`, returns {', '.join(f'{v:g}' for v in spe.value)}. Both always "
            f"covering: returns {', '.join(f'{v:g}' for v in node)}."
        )
    elif name not in COUNT_TABLES and name not in ALLOCATION_TABLES:
        t = r.table
        if t.num_players == 2 or int(np.prod(t.shape)) <= 16:
            lines.append("| " + " | ".join(f"player {p}" for p in range(t.num_players)) + " | returns |")
            lines.append("|---" * (t.num_players + 1) + "|")
            for prof in t.profiles():
                lines.append(
                    "| "
                    + " | ".join(t.strategy_names[p][i] for p, i in enumerate(prof))
                    + f" | {fmt(r.exact[prof])} |"
                )
        else:
            lines.append(
                f"{' x '.join(map(str, t.shape))} profiles (not printed; `analysis.reduced_games.reduced"
                f"({name!r})` gives them). Pure equilibria of the reduced game: {len(pure(t))}."
            )
    c = classify_reduced(r, encodes)
    players = len(next(iter(r.exact.values())))
    if lines[-1] == "":
        lines.pop()
    lines += [
        "",
        f"Classified on the reduced game (`solvers/classify.py`): **{c.label}**: {c.reason}. "
        f"Reproduces {encodes}: **{reproduces(encodes, c.label, players)}**.",
    ]
    return "\n".join(lines) + "\n"


def block(name: str) -> str:
    """The computed text for one dilemma."""
    if name not in CATALOGUE:
        return (
            f"*Not in the catalogue on this branch yet* (`games/ttt/catalogue/{name}.json` is missing: "
            "its rule set needs engine vocabulary that is still being built, see above). "
            "`python -m analysis.dilemmas_doc` fills this in once it is there.\n"
        )
    try:
        table = payoff_table(
            pyspiel.load_game(f"ttt(rules={name})"), max_profiles=MAX_PROFILES, max_nodes=MAX_NODES
        )
    except TooLarge as e:
        text = f"Too large for a table (the payoffs tool's refusal): {e}\n"
        if name in COUNT_TABLES:
            text += count_markdown(name)
        if name in ALLOCATION_TABLES:
            text += allocation_markdown(name)
        if name in REDUCED:
            text += reduced_markdown(name)
        return text
    return markdown(table)


def rewrite(text: str, names=None, progress=None) -> tuple[str, list[str]]:
    """``text`` with every computed block (of ``names``, default all) made
    fresh; returns the new text and the names whose block changed."""
    changed = []

    def one(m):
        name = m.group("name")
        if names is not None and name not in names:
            return m.group(0)
        started = time.monotonic()
        body = block(name)
        if progress:
            progress(f"{name}: {time.monotonic() - started:.1f} s")
        if body != m.group("body"):
            changed.append(name)
        return m.group(1) + body + m.group(4)

    return BLOCK.sub(one, text), changed


def blocks(text: str) -> dict[str, str]:
    return {m.group("name"): m.group("body") for m in BLOCK.finditer(text)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m analysis.dilemmas_doc",
        description="Rewrite the computed payoff tables of docs/rules/dilemmas.md from the catalogue "
        "(every dilemma of games/ttt/dilemmas.py has a marked block there).",
    )
    parser.add_argument("--doc", default=str(DOC), help="the document to rewrite (default %(default)s)")
    parser.add_argument(
        "--only", action="append", metavar="NAME", help="rewrite only this dilemma's block (repeatable)"
    )
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when a block is stale")
    args = parser.parse_args(argv)
    known = {d.name for d in DILEMMAS}
    for name in args.only or ():
        if name not in known:
            parser.error(f"{name!r} is not a dilemma (allowed: {', '.join(sorted(known))})")
    path = Path(args.doc)
    try:
        text = path.read_text()
    except OSError as e:
        print(f"error: cannot read {path}: {e.strerror}", file=sys.stderr)
        return 2
    missing = known - set(blocks(text))
    if missing:
        print(f"error: {path} has no computed block for {', '.join(sorted(missing))}", file=sys.stderr)
        return 2
    new, changed = rewrite(
        text, set(args.only) if args.only else None, progress=lambda m: print(m, file=sys.stderr, flush=True)
    )
    if args.check:
        if changed:
            print(f"stale blocks in {path}: {', '.join(changed)} (run python -m analysis.dilemmas_doc)")
            return 1
        print(f"{path}: every computed block is fresh")
        return 0
    if changed:
        path.write_text(new)
    print(f"{path}: rewrote {len(changed)} block(s){': ' + ', '.join(changed) if changed else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

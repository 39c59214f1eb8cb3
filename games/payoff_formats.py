"""A ``PayoffTable`` (games/normal_form.py) as text, JSON and Gambit's ``.nfg``.

Why three: people read the text, programs (the dilemmas' docs and tests, the
equilibria of experiments/economic_dilemmas.py) read the JSON, and Gambit (pygambit's
``read_nfg``) reads the outcome form of ``.nfg``, which is the one that keeps
strategy labels. Exact values are written as fractions (``1/3``) in all
three; Gambit reads those as exact rationals.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

from games.normal_form import PayoffTable

MATRIX_MAX_COLUMNS = 6


def value_text(v: Fraction, exact: bool) -> str:
    """A return as the table prints it: ``1/3`` when exact, else 6 digits."""
    if exact:
        return str(v)
    return f"{float(v):.6g}"


def to_text(table: PayoffTable) -> str:
    """The table for people: each player's information states with a choice
    (the order of a strategy label's parts), then a matrix for two players
    with few column strategies, else one line per profile."""
    lines = [
        f"payoff table of {table.game}: expected returns, chance playing its probabilities",
        f"{table.nodes:,} tree nodes; strategies per player: "
        f"{' x '.join(str(k) for k in table.shape)} = {len(table.payoffs):,} profiles; "
        + (
            "exact fractions"
            if table.exact
            else "floating point (some probability or return is not a small fraction)"
        ),
    ]
    for p, states in enumerate(table.infostates):
        choosing = [s for s in states if len(s.actions) > 1]
        lines.append(
            f"player {p}: {len(states)} information states, {len(choosing)} with a choice"
            + (" (a strategy label lists its action at each, in this order):" if choosing else "")
        )
        for k, s in enumerate(choosing, 1):
            lines.append(f"  {k}. {' | '.join(s.key.splitlines())}   [{', '.join(s.action_names)}]")
    labels = [table.labels(p) for p in range(table.num_players)]
    fmt = lambda vs: ", ".join(value_text(v, table.exact) for v in vs)  # noqa: E731
    lines.append("")
    if table.num_players == 2 and table.shape[1] <= MATRIX_MAX_COLUMNS:
        lines.append("rows: player 0, columns: player 1; each cell: return of player 0, player 1")
        cells = [[fmt(table.payoffs[(i, j)]) for j in range(table.shape[1])] for i in range(table.shape[0])]
        first = max(len(x) for x in labels[0])
        widths = [max([len(labels[1][j])] + [len(row[j]) for row in cells]) for j in range(table.shape[1])]
        lines.append(" " * first + " | " + " | ".join(labels[1][j].ljust(w) for j, w in enumerate(widths)))
        for i, row in enumerate(cells):
            lines.append(
                labels[0][i].ljust(first)
                + " | "
                + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True))
            )
    else:
        lines.append(
            "profile (one strategy per player) -> returns of players "
            + ", ".join(str(p) for p in range(table.num_players))
        )
        for profile in table.profiles():
            names = " ; ".join(labels[p][s] for p, s in enumerate(profile))
            lines.append(f"{names} -> {fmt(table.payoffs[profile])}")
    return "\n".join(lines) + "\n"


def to_json(table: PayoffTable) -> dict:
    """The table as one JSON object: information states (description, action
    ids and names), strategies (label and the action id at each information
    state), and one entry per profile (last player fastest) with float
    returns and, when exact, the fractions as strings."""
    out = {
        "game": table.game,
        "players": table.num_players,
        "exact": table.exact,
        "tree_nodes": table.nodes,
        "information_states": [
            [{"key": s.key, "actions": list(s.actions), "action_names": list(s.action_names)} for s in states]
            for states in table.infostates
        ],
        "strategies": [
            [
                {"label": label, "actions": [states[k].actions[c] for k, c in enumerate(choice)]}
                for label, choice in zip(table.labels(p), table.strategies[p], strict=True)
            ]
            for p, states in enumerate(table.infostates)
        ],
        "profiles": [],
    }
    for profile in table.profiles():
        values = table.payoffs[profile]
        entry = {"strategies": list(profile), "returns": [float(v) for v in values]}
        if table.exact:
            entry["exact_returns"] = [str(v) for v in values]
        out["profiles"].append(entry)
    return out


def write_json(table: PayoffTable, path) -> None:
    with open(path, "w") as f:
        json.dump(to_json(table), f, indent=1)
        f.write("\n")


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def to_nfg(table: PayoffTable) -> str:
    """Gambit's normal-form file, outcome version (it carries strategy
    labels): one outcome per profile, listed with player 0's strategy varying
    fastest as the format requires. Exact values are written as fractions,
    others with 17 significant digits."""

    def number(v: Fraction) -> str:
        return str(v) if table.exact else repr(float(v))

    players = " ".join(_quoted(f"Player {p}") for p in range(table.num_players))
    lines = [f"NFG 1 R {_quoted('Payoff table of ' + table.game)} {{ {players} }}", ""]
    lines.append(
        "{ "
        + "\n".join(
            "{ " + " ".join(_quoted(label) for label in table.labels(p)) + " }"
            for p in range(table.num_players)
        )
        + "\n}"
    )
    comment = (
        "Expected returns of every pure-strategy profile, chance playing its probabilities "
        "(python -m games.ttt.payoffs)."
    )
    lines.append(_quoted(comment))
    lines.append("")
    gambit_order = [tuple(reversed(p)) for p in itertools.product(*(range(k) for k in reversed(table.shape)))]
    lines.append("{")
    for profile in gambit_order:
        lines.append('{ "" ' + ", ".join(number(v) for v in table.payoffs[profile]) + " }")
    lines.append("}")
    lines.append(" ".join(str(k) for k in range(1, len(gambit_order) + 1)))
    return "\n".join(lines) + "\n"


def write_nfg(table: PayoffTable, path) -> None:
    with open(path, "w") as f:
        f.write(to_nfg(table))

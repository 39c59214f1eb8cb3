"""Solve the Y family and Flipway on growing boards.

    python -m experiments.solved_table [--max-size 6] [--time-limit 1800] [--out results/solved.jsonl]

For every game string it runs the exact solver (solvers.exhaustive.solve) on
sides 2 (Flipway 4) up to ``--max-size``, stopping a family at the first side that does
not finish within ``--time-limit``. One JSON line per solve goes to ``--out``
(with the git commit and the reproducing command) through the record store,
keyed by game string: games already stored are skipped, so a killed run resumes
where it stopped, and a second run into the same file is refused while the
first holds it. docs/solved.md is written from these records.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from analysis.solved_families import KEY, families
from analysis.study import git_commit
from records import RecordStore, RecordStoreError, read_records
from solvers.exhaustive import solve


def run(
    max_size: int,
    time_limit: float,
    out: str,
    only: str | None,
    tt_log2: int,
    method: str = "auto",
    min_size: int = 2,
) -> list[dict]:
    with RecordStore(out, key=KEY) as store:
        done = store.latest()
        records = []
        commit = git_commit()[:7]
        for name, template, first in families():
            if only and only not in name:
                continue
            for n in range(max(first, min_size), max_size + 1):
                gs = template.format(n=n)
                if gs in done:
                    rec = done[gs]
                else:
                    print(f"[{time.strftime('%H:%M:%S')}] solving {gs} ...", file=sys.stderr, flush=True)
                    res = solve(
                        gs,
                        method=method,
                        time_limit=time_limit,
                        tt_log2=tt_log2,
                        progress=lambda msg: print("    " + msg, file=sys.stderr, flush=True),
                    )
                    rec = {
                        "family": name,
                        "size": n,
                        "game_string": gs,
                        "commit": commit,
                        "command": f'python -m solvers.solve --game "{gs}" --openings --json'
                        + (f" --method {method}" if method != "auto" else ""),
                        **res,
                    }
                    store.append(rec)
                    print(
                        f"    value {rec['value']} winning {rec['winning_first_moves']} "
                        f"nodes {rec['nodes']:,} {rec['seconds']} s",
                        file=sys.stderr,
                        flush=True,
                    )
                records.append(rec)
                if not rec["complete"]:
                    break
    return records


def _secs(seconds: float) -> str:
    return f"{seconds:,.0f}" if seconds >= 100 else f"{seconds:.3g}"


def markdown(records: list[dict]) -> str:
    """The records as the table of docs/solved.md (one row per solve)."""
    lines = [
        "| game | value | winning first moves | classes | method | nodes | seconds | commit |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in records:
        if not r["complete"] and r.get("opening_values"):
            unsolved = r.get("unsolved_first_moves", [])
            value = "+1 (first player wins)" if r["value"] == 1.0 else "unknown"
            lines.append(
                f"| `{r['game_string']}` | {value}; stopped after {r['seconds']:.0f} s | "
                f"{' '.join(r['winning_first_moves']) or 'none'} found; "
                f"{len(r['opening_values'])} openings solved, unsolved: {' '.join(unsolved)} | "
                f"{r['symmetry_classes']} | {r.get('method', 'alphabeta')} | {r['nodes']:,} | "
                f"{r['seconds']:.0f} | {r['commit']} |"
            )
            continue
        if not r["complete"]:
            lines.append(
                f"| `{r['game_string']}` | not solved in {r['seconds']:.0f} s | | | "
                f"{r.get('method', 'alphabeta')} | {r['nodes']:,} | {r['seconds']:.0f} | "
                f"{r['commit']} |"
            )
            continue
        moves = r["winning_first_moves"]
        shown = " ".join(moves) if moves else "none"
        if len(moves) == len(r.get("opening_values", {})) and moves:
            shown = f"all {len(moves)}"
        elif moves and not r.get("opening_values"):
            # a root-only solve (no --openings) names just the winning class its proof found
            shown = f"{shown} (the root's proof; other openings not solved)"
        value = {1.0: "+1 (first player wins)", -1.0: "-1 (second player wins)", 0.0: "0 (draw)"}.get(
            r["value"], f"{r['value']:+g}"
        )
        lines.append(
            f"| `{r['game_string']}` | {value} | {shown} | {r['symmetry_classes']} | "
            f"{r.get('method', 'alphabeta')} | {r['nodes']:,} | {_secs(r['seconds'])} | "
            f"{r['commit']} |"
        )
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m experiments.solved_table", description=__doc__.split("\n\n")[0]
    )
    ap.add_argument("--max-size", type=int, default=5, help="largest triangle side / Flipway size")
    ap.add_argument("--min-size", type=int, default=2, help="skip sides below this")
    ap.add_argument("--time-limit", type=float, default=600.0, help="seconds per solve before giving up")
    ap.add_argument(
        "--out",
        default="results/solved.jsonl",
        help="JSON-lines file (appended, resumable); with --markdown, comma-separated files",
    )
    ap.add_argument("--only", default=None, help="only families whose name contains this text")
    ap.add_argument("--tt-log2", type=int, default=24, help="transposition table size 2**N entries")
    ap.add_argument("--seed", type=int, default=0, help="unused by exact solving; kept for the common CLI")
    ap.add_argument(
        "--method",
        choices=("auto", "alphabeta", "dfpn"),
        default="auto",
        help="exact search (see python -m solvers.solve --help)",
    )
    ap.add_argument(
        "--markdown",
        action="store_true",
        help="print the records already in --out as a markdown table and exit",
    )
    ap.add_argument(
        "--write-records",
        default=None,
        metavar="PATH",
        help="with --markdown: also write the records tabulated (the latest of each game) to PATH "
        "as JSON lines, as docs/solved_records.jsonl holds the records behind docs/solved.md",
    )
    args = ap.parse_args(argv)
    if args.max_size < 2 or args.time_limit <= 0:
        ap.error("--max-size must be >= 2 and --time-limit > 0")
    if args.markdown:
        latest = {}
        for path in args.out.split(","):
            if not os.path.exists(path):
                ap.error(f"--out {path} does not exist")
            try:
                stored = read_records(path, key=KEY)
            except RecordStoreError as error:
                ap.error(str(error))
            for rec in stored:
                latest[rec["game_string"]] = rec  # a later record replaces
        order = {name: k for k, (name, _, _) in enumerate(families())}
        recs = sorted(latest.values(), key=lambda r: (order.get(r["family"], 99), r["size"]))
        if args.only:
            recs = [r for r in recs if args.only in r["family"]]
        table = markdown(recs)
        if args.write_records:
            with open(args.write_records, "w") as f:
                for r in recs:
                    f.write(json.dumps(r) + "\n")
        print(table)
        return 0
    try:
        run(args.max_size, args.time_limit, args.out, args.only, args.tt_log2, args.method, args.min_size)
    except RecordStoreError as error:
        ap.error(str(error))
    return 0


if __name__ == "__main__":
    sys.exit(main())

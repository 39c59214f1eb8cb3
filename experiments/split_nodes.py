"""Where a split solve's extra nodes come from: each 2-ply unit against the
serial search's nodes below the same moves.

    python -m experiments.split_nodes --game "double_o_y(board_size=5,flip=friends,protocol=1,win=turn_end)"

Why this exists (docs/solved/parallel.md, "Why a split unit searches more than the
serial solve"): the 2-ply units of ``solvers/parallel.py`` search 3.4-3.9x the serial
solver's nodes on a side-6 flip game, and node counts, unlike times, do not
depend on the machine's load. So every count here is deterministic, from
alpha-beta searches in this one process:

- **serial**: ``solvers.exhaustive.solve``'s search (one table, the opening
  classes in order, each from ``Searcher.value``'s window), with the nodes
  below each reply of each opening taken from the kernel
  (``Searcher.root_child_nodes``); a reply the serial search never reached
  (a cutoff) counts 0.
- **units, one table**: the same (opening, reply) positions, grouped by
  symmetry class across openings as the split solver groups them, each an
  exact search of its own, in the serial order on one table, dropping an
  opening's other replies once one decides it (as the split solver does): what
  the split costs with nothing lost between units (one worker).
- **units, alone**: each unit on a fresh table: what it costs when nothing it
  needs was proved before (the most two workers can duplicate).

Each is run with the kernel's range cutoffs (``Searcher.range_cutoffs``, on
since branch solve-split) and, as the baseline, without them. The values of all
runs are checked to agree. ``--units`` prints every unit's row.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from solvers._alphabeta import Searcher

from solvers.exhaustive import Evaluator


def _searcher(ev: Evaluator, tt_log2: int, cutoffs: bool) -> Searcher:
    s = Searcher(ev.root, 0, ev.lo, ev.hi, True, tt_log2)
    s.range_cutoffs = cutoffs
    return s


def units_of(ev: Evaluator) -> list[dict]:
    """The 2-ply units: one per symmetry class of the positions two plies below
    the root (over every opening class, in the serial order), as
    ``solvers.parallel`` builds them (without its move ordering or pruning).
    Each carries ``opening``, ``reply``, ``position``, ``name`` and ``key``; a
    twin of an earlier unit (same key) is listed with ``twin=True`` and needs no search."""
    seen, out = set(), []
    for members in ev.classes():
        opening = ev.child_of(members[0])
        if opening.terminal() or opening.player() < 0:
            continue
        for reply in opening.legal_action_list():
            child = ev.child_of(reply, opening)
            if child.terminal():
                continue
            key = ev.searcher.canonical_key(child)
            out.append(
                {
                    "opening": members[0],
                    "reply": reply,
                    "position": child,
                    "key": key,
                    "twin": key in seen,
                    "opening_mover": opening.player(),
                    "name": f"{ev.describe(members[0])} {opening.action_string(opening.player(), reply)}",
                }
            )
            seen.add(key)
    return out


def measure(game: str, tt_log2: int = 20, alone: bool = True, progress=None) -> dict:
    """The serial search and the 2-ply units, with and without range cutoffs (see the module docstring)."""
    say = progress or (lambda msg: None)
    ev = Evaluator(game, tt_log2=10)
    if ev.method != "alphabeta":
        raise ValueError(f"{game} is solved by {ev.method}, not alpha-beta: nothing to measure here")
    classes = ev.classes()
    if not classes:
        raise ValueError(f"{game} starts with chance or is over: it has no openings to split")
    units = units_of(ev)
    runs = {}
    for cutoffs in (False, True):
        tag = "cutoffs" if cutoffs else "no_cutoffs"
        say(f"{tag}: serial search of {len(classes)} opening classes ...")
        s = _searcher(ev, tt_log2, cutoffs)
        cpu = time.process_time()
        serial_values, below = {}, {}
        for members in classes:
            v, _ = s.value(ev.child_of(members[0]))
            serial_values[members[0]] = v
            below[members[0]] = s.root_child_nodes()
        serial = {"nodes": int(s.nodes), "cpu_seconds": round(time.process_time() - cpu, 3)}
        say(f"  {serial['nodes']:,} nodes")
        say(f"{tag}: the needed units on one table, in the serial order ...")
        one = _searcher(ev, tt_log2, cutoffs)
        cpu = time.process_time()
        rows, known, decided = [], {}, set()
        for u in units:
            if u["opening"] in decided:
                continue  # a reply already refuted (or won) this opening: as the split solver drops it
            if u["key"] in known:
                v = known[u["key"]]
            else:
                n0 = one.nodes
                v, _ = one.value(u["position"])
                known[u["key"]] = v
                rows.append(
                    {
                        "unit": u["name"],
                        "value": v,
                        "one_table": int(one.nodes - n0),
                        "serial_below": below[u["opening"]].get(u["reply"], 0),
                        "position": u["position"],
                    }
                )
            if v == (ev.hi if u["opening_mover"] == 0 else ev.lo):
                decided.add(u["opening"])
        one_cpu = round(time.process_time() - cpu, 3)
        alone_total = None
        if alone:
            say(f"{tag}: each of {len(rows)} units on a fresh table ...")
            alone_total = 0
            for row in rows:
                fresh = _searcher(ev, tt_log2, cutoffs)
                v, _ = fresh.value(row["position"])
                if v != row["value"]:
                    raise AssertionError(f"unit {row['unit']}: {v} alone, {row['value']} on one table")
                row["alone"] = int(fresh.nodes)
                alone_total += row["alone"]
        for row in rows:
            del row["position"]
        runs[tag] = {
            "serial": serial,
            "serial_values": {ev.describe(a): v for a, v in serial_values.items()},
            "units_searched": len(rows),
            "units_one_table": sum(r["one_table"] for r in rows),
            "units_one_table_cpu": one_cpu,
            "units_alone": alone_total,
            "units": rows,
        }
    # every run must give the same values (units: the value of each position)
    a, b = runs["no_cutoffs"], runs["cutoffs"]
    if (
        a["serial_values"] != b["serial_values"]
        or a["units"]
        and [(r["unit"], r["value"]) for r in a["units"]] != [(r["unit"], r["value"]) for r in b["units"]]
    ):
        raise AssertionError("the runs with and without range cutoffs disagree")
    return {
        "experiment": "split_nodes",
        "game": game,
        "tt_log2": tt_log2,
        "opening_classes": len(classes),
        "units": sum(not u["twin"] for u in units),
        "runs": runs,
    }


def _print(out: dict, show_units: bool) -> None:
    print(
        f"{out['game']}: {out['opening_classes']} opening classes, {out['units']} 2-ply units "
        f"({out['runs']['cutoffs']['units_searched']} needed in the serial order), "
        f"tables of 2**{out['tt_log2']}"
    )
    base = out["runs"]["no_cutoffs"]["serial"]["nodes"]
    print(f"{'kernel':<22}{'serial':>14}{'units, one table':>24}{'units, alone':>24}")
    for tag, run in out["runs"].items():
        serial = run["serial"]["nodes"]
        one = run["units_one_table"]
        alone = run["units_alone"]
        name = "range cutoffs" if tag == "cutoffs" else "without (baseline)"
        alone_text = f"{alone:,} ({alone / serial:.2f}x)" if alone is not None else "-"
        print(f"{name:<22}{serial:>14,}{f'{one:,} ({one / serial:.2f}x)':>24}{alone_text:>24}")
    cut = out["runs"]["cutoffs"]["serial"]["nodes"]
    print(f"serial with range cutoffs / without: {cut / base:.3f}")
    if show_units:
        for tag, run in out["runs"].items():
            print(f"\n{tag}: unit, value, serial nodes below it, one table, alone")
            for r in run["units"]:
                print(
                    f"  {r['unit']:<12}{r['value']:+g}  {r['serial_below']:>12,}{r['one_table']:>12,}"
                    f"{r.get('alone', 0):>12,}"
                )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m experiments.split_nodes",
        description="Per-unit node counts of a 2-ply split against the serial "
        "search, with and without the kernel's range cutoffs.",
    )
    ap.add_argument("--game", required=True, help="an alpha-beta-solved game string of ours")
    ap.add_argument("--tt-log2", type=int, default=20, help="table size of every search (default 20)")
    ap.add_argument("--no-alone", action="store_true", help="skip the fresh-table search of each unit")
    ap.add_argument("--units", action="store_true", help="print every unit's row")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    if not 10 <= args.tt_log2 <= 30:
        ap.error("--tt-log2 must be in 10..30")
    try:
        out = measure(
            args.game,
            args.tt_log2,
            not args.no_alone,
            progress=lambda msg: print(msg, file=sys.stderr, flush=True),
        )
    except ValueError as error:
        ap.error(str(error))
    if args.json:
        print(json.dumps(out))
    else:
        _print(out, args.units)
    return 0


if __name__ == "__main__":
    sys.exit(main())

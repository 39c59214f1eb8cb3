"""``python -m games.ttt``: check rule sets from the shell.

Why a command line: authors of rule-set files (and reviewers of the
catalogue) need the same answer the game would give, every problem at once or
the fingerprint, without writing Python; duplicates except for the name are
reported because the registry (as the tic-tac-toe variations specification
defines it) refuses them.
"""

from __future__ import annotations

import argparse
import sys

from games.ttt.resolve import catalogue, resolve
from games.ttt.schema import RuleSetError


def main(argv=None) -> int:
    """``python -m games.ttt``: validate rule-set files and show their
    canonical form, or list the catalogue."""
    parser = argparse.ArgumentParser(
        prog="python -m games.ttt",
        description="Validate tic-tac-toe rule sets (catalogue names or .json paths): print every "
        "problem, or the canonical form and fingerprint. Rules: docs/rules/ttt/schema.md.",
    )
    parser.add_argument("rules", nargs="*", help="catalogue names or paths to rule-set files")
    parser.add_argument("--list", action="store_true", help="list the catalogue with fingerprints")
    parser.add_argument("--canonical", action="store_true", help="print each canonical form")
    args = parser.parse_args(argv)
    if not args.rules and not args.list:
        parser.error("give rule sets to check, or --list")
    if args.list:
        for name, rs in catalogue().items():
            print(f"{name:24s} {rs.fingerprint}")
    status = 0
    seen: dict[str, str] = {}
    for item in args.rules:
        try:
            rs = resolve(item)
        except (RuleSetError, ValueError) as e:
            print(f"{item}: {e}", file=sys.stderr)
            status = 1
            continue
        print(f"{item}: valid, name {rs.name}, fingerprint {rs.fingerprint}")
        if rs.canonical in seen:
            print(f"{item}: identical to {seen[rs.canonical]} except for the name")
        seen.setdefault(rs.canonical, item)
        if args.canonical:
            print(rs.canonical)
    return status

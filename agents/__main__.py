"""``python -m agents [--json]``: list every bot kind and its options.

The catalogue is the reference for ``--bot KIND:key=value,...`` on every
command line, so it is printed from the registry itself rather than kept by
hand in help texts.
"""

from __future__ import annotations

import argparse
import json
import sys

from agents import describe_kinds


def _range(option: dict) -> str:
    low, high = option["minimum"], option["maximum"]
    if low is not None and high is not None:
        return f"{low}..{high}"
    if low is not None:
        return f">= {low}"
    return f"<= {high}" if high is not None else ""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m agents",
        description="List the bot kinds of the catalogue and their options; a bot spec is "
        "KIND or KIND:key=value,...,name=NAME, or package.module:function[:key=value,...].",
    )
    parser.add_argument("--json", action="store_true", help="print the catalogue as JSON")
    args = parser.parse_args(argv)
    kinds = describe_kinds()
    if args.json:
        print(json.dumps(kinds, indent=2))
        return 0
    for kind in kinds:
        print(f"{kind['name']}: {kind['description']}")
        for option in kind["options"]:
            names = option["name"] + "".join(f" ({alias})" for alias in option["aliases"])
            print(
                f"  {names:<32} {option['type']:<6} default {option['default']!s:<6} "
                f"{_range(option):<16} {option['help']}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The command-line start every study shares: where results go, the seed, and
quick versus full settings, spelled the same way in each."""
from __future__ import annotations

import argparse


def study_parser(study: str, doc: str) -> argparse.ArgumentParser:
    """A parser for ``python -m experiments.<study>`` with ``--out`` (default
    ``results/<study>``, resumed if it exists), ``--seed`` and ``--full``."""
    name = study.rsplit(".", 1)[-1]
    parser = argparse.ArgumentParser(
        prog=f"python -m {study}", description=doc.split("\n\n")[0],
        epilog="Defaults are the quick run; --full sets the study's sizes "
               "(any flag given explicitly still wins).")
    parser.add_argument("--out", default=f"results/{name}",
                        help="output directory, resumed if it exists (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--full", action="store_true", help="the full study (hours)")
    return parser

"""The command-line start every study shares: where results go, the seed, and
quick versus full settings, spelled the same way in each."""
from __future__ import annotations

import argparse


def study_parser(study: str, doc: str) -> argparse.ArgumentParser:
    """A parser for ``python -m experiments.<study>`` with ``--out`` (default
    ``results/<study>``, resumed if it exists), ``--seed``, ``--full`` and how
    the games run (``--jobs``, ``--backend``, ``--scheduler``, ``--no-progress``);
    a study adds its own settings after these."""
    name = study.rsplit(".", 1)[-1]
    parser = argparse.ArgumentParser(
        prog=f"python -m {study}", description=doc.split("\n\n")[0],
        epilog="Defaults are the quick run; --full sets the study's sizes "
               "(any flag given explicitly still wins).")
    parser.add_argument("--out", default=f"results/{name}",
                        help="output directory, resumed if it exists (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--full", action="store_true", help="the full study (hours)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--backend", default="joblib", choices=["joblib", "dask"],
                        help="where the MCTS games run")
    parser.add_argument("--scheduler", help="Dask scheduler address (with --backend dask)")
    parser.add_argument("--no-progress", action="store_true")
    return parser


def settings(args: argparse.Namespace, quick: dict, full: dict) -> dict:
    """The study's settings: ``full`` or ``quick`` by ``--full``, with every
    flag given explicitly winning over both."""
    base = full if args.full else quick
    return {k: (getattr(args, k) if getattr(args, k) is not None else v) for k, v in base.items()}

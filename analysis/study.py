"""The skeleton every study shares: its command line, where its results go,
what it writes beside them, and how a long piece of it resumes.

Why one module: a study that spelled its flags, its config.json or its
resume check in its own way would make results of different studies
incomparable and a rerun into the same directory unsafe; each study adds
only its own settings and its own tables. Why in analysis/ rather than
experiments/: experiments/ holds runnable studies only, and no study may
import another; the tournament command (analysis/) and the record store
need the same run information (code version, configuration), and analysis/
is the highest layer they may import from.

Why the configuration and the code version: a table without the command,
the random seed and the commit that produced it cannot be reproduced or trusted
later. A study directory is also where it resumes, so a rerun with a
different configuration into the same directory is refused rather than
silently mixed with the old records.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import re
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


# --------------------------------------------------------------------------- code version


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return ""


def git_commit() -> str:
    """HEAD's full hash, or ``"unknown"`` outside a git checkout: the one place the code version is read."""
    return _git("rev-parse", "HEAD").strip() or "unknown"


def git_dirty_files() -> list[str]:
    """Files that differ from HEAD (others edit the tree while studies run, so the hash alone may lie)."""
    return [line[3:] for line in _git("status", "--porcelain").splitlines() if line.strip()]


# --------------------------------------------------------------------------- flags


def _flag_type(name: str, convert: Callable[[str], Any], ok: Callable[[Any], bool]) -> Callable[[str], Any]:
    def parse(text: str):
        try:
            value = convert(text)
        except ValueError:
            value = None
        if value is None or not ok(value):
            raise argparse.ArgumentTypeError(f"must be {name}, got {text!r}")
        return value

    return parse


#: Argument types for counts, seeds and budgets: argparse refuses a zero or
#: negative count, a negative seed, and a NaN or infinite time with a message
#: that names what is allowed, before any work starts.
positive_int = _flag_type("a positive integer", int, lambda v: v >= 1)
non_negative_int = _flag_type("a non-negative integer", int, lambda v: v >= 0)
positive_float = _flag_type("a positive finite number", float, lambda v: math.isfinite(v) and v > 0)
non_negative_float = _flag_type("a non-negative finite number", float, lambda v: math.isfinite(v) and v >= 0)


def int_list(text: str, flag: str, parser: argparse.ArgumentParser) -> list[int]:
    """Comma-separated integers of ``--flag`` (an empty string is an empty list)."""
    try:
        return [int(s) for s in str(text).split(",") if s.strip()]
    except ValueError:
        parser.error(f"--{flag} must be comma-separated integers, got {text!r}")


def study_parser(study: str, doc: str) -> argparse.ArgumentParser:
    """A parser for ``python -m experiments.<study>`` with ``--out`` (default
    ``results/<study>``, resumed if it exists), ``--seed``, ``--full`` and how
    the games run (``--jobs``, ``--backend``, ``--scheduler``, ``--no-progress``);
    a study adds its own settings after these."""
    name = study.rsplit(".", 1)[-1]
    parser = argparse.ArgumentParser(
        prog=f"python -m {study}",
        description=doc.split("\n\n")[0],
        epilog="Defaults are the quick run; --full sets the study's sizes "
        "(any flag given explicitly still wins).",
    )
    parser.add_argument(
        "--out",
        default=f"results/{name}",
        help="output directory, resumed if it exists (default: %(default)s)",
    )
    parser.add_argument("--seed", type=non_negative_int, default=0)
    parser.add_argument("--full", action="store_true", help="the full study (hours)")
    parser.add_argument("--jobs", type=positive_int, default=2, help="worker processes (default 2)")
    parser.add_argument(
        "--backend", default="joblib", choices=["joblib", "dask"], help="where the MCTS games run"
    )
    parser.add_argument("--scheduler", help="Dask scheduler address (with --backend dask)")
    parser.add_argument("--no-progress", action="store_true")
    return parser


def settings(args: argparse.Namespace, quick: dict, full: dict) -> dict:
    """The study's settings: ``full`` or ``quick`` by ``--full``, with every
    flag given explicitly winning over both."""
    base = full if args.full else quick
    return {k: (getattr(args, k) if getattr(args, k) is not None else v) for k, v in base.items()}


# --------------------------------------------------------------------------- output directory


def prepare_out(out: str | Path, study: str, config: Mapping[str, Any], resume_keys: tuple[str, ...]) -> Path:
    """Create ``out``, check a previous run there used the same ``resume_keys``, write config.json.

    ``resume_keys`` are the config entries that decide which games are played
    (seed, sizes, budgets); changing presentation options is allowed.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    _hold_run_lock(out, study)
    path = out / "config.json"
    if path.exists():
        old = json.loads(path.read_text()).get("config", {})
        changed = [k for k in resume_keys if k in old and old[k] != config.get(k)]
        if changed:
            raise SystemExit(
                f"{out} holds a {study} run with different {', '.join(changed)} "
                f"({', '.join(f'{k}={old[k]!r}' for k in changed)}); use another --out"
            )
    info = {
        "study": study,
        "command": " ".join([Path(sys.executable).name, "-m", study, *sys.argv[1:]]),
        "config": dict(config),
        "git": {"commit": git_commit(), "dirty_files": git_dirty_files()},
        "python": platform.python_version(),
        "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    path.write_text(json.dumps(info, indent=2, sort_keys=True) + "\n")
    return out


#: Run locks this process holds, by output directory; kept until the process exits,
#: when the kernel releases them (however it exits).
_RUN_LOCKS: dict[Path, Any] = {}


def _hold_run_lock(out: Path, study: str) -> None:
    """Refuse a second run writing into ``out`` while this one is alive: the record
    stores inside lock their own files, but config.json, summaries and plots are
    written around them, and two runs would overwrite each other's. Re-entrant within
    one process, so a study may prepare its directory again (the tests do)."""
    from records.errors import StoreLocked
    from records.lock import WriteLock

    key = out.resolve()
    if key in _RUN_LOCKS:
        return
    try:
        _RUN_LOCKS[key] = WriteLock(out / "run.lock")
    except StoreLocked:
        raise SystemExit(
            f"{out} is being written by another {study} run (it holds {out / 'run.lock'}); "
            f"wait for it to finish, or use another --out"
        ) from None


def slug(text: str) -> str:
    """``text`` as a file name: each run of characters other than letters and digits one ``_``."""
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_")


def say(message: str) -> None:
    """Progress line on stderr (stdout carries the results)."""
    print(message, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- resumable pieces


def resumable(
    games: list[str], path: Path, n_jobs: int, reusable, work, announce, report=None, inputs=None
) -> dict[str, dict]:
    """Records per game from the record store at ``path`` where ``reusable(record)``;
    the other games are run by ``work(game)`` (``work(game, inputs[game])`` with
    ``inputs``, so each worker is sent only its own game's data) on ``n_jobs``
    processes and appended as they finish, so an interrupted study loses no finished piece.
    The store stays locked for the whole run, so a second run into the same
    output is refused instead of repeating the work."""
    from records import RecordStore

    with RecordStore(path, key="game") as store:
        done = store.resume({game: {} for game in games}, reusable=reusable)
        todo = [g for g in games if g not in done]
        if todo:
            from joblib import Parallel, delayed

            say(announce(len(todo)))
            for record in Parallel(n_jobs=n_jobs, return_as="generator_unordered")(
                delayed(work)(g) if inputs is None else delayed(work)(g, inputs[g]) for g in todo
            ):
                store.append(record)
                done[record["game"]] = record
                if report:
                    report(record)
    return done

"""What every study writes next to its results: the configuration and the code version.

Why: a table without the command, the seed and the commit that produced it
cannot be reproduced or trusted later. A study directory is also where it
resumes, so a rerun with a different configuration into the same directory is
refused rather than silently mixed with the old records.
"""
from __future__ import annotations

import json
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Mapping

ROOT = Path(__file__).resolve().parents[1]


def git_commit() -> dict:
    """HEAD's hash and whether the working tree differs from it (others edit it concurrently)."""
    def run(*args):
        try:
            return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=20).stdout
        except (OSError, subprocess.SubprocessError):
            return ""
    return {"commit": run("rev-parse", "HEAD").strip() or "unknown",
            "dirty_files": [line[3:] for line in run("status", "--porcelain").splitlines() if line.strip()]}


def prepare_out(out: str | Path, study: str, config: Mapping[str, Any], resume_keys: tuple[str, ...]) -> Path:
    """Create ``out``, check a previous run there used the same ``resume_keys``, write config.json.

    ``resume_keys`` are the config entries that decide which games are played
    (seed, sizes, budgets); changing presentation options is allowed.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "config.json"
    if path.exists():
        old = json.loads(path.read_text()).get("config", {})
        changed = [k for k in resume_keys if k in old and old[k] != config.get(k)]
        if changed:
            raise SystemExit(f"{out} holds a {study} run with different {', '.join(changed)} "
                             f"({', '.join(f'{k}={old[k]!r}' for k in changed)}); use another --out")
    info = {"study": study, "command": " ".join([Path(sys.executable).name, "-m", study, *sys.argv[1:]]),
            "config": dict(config), "git": git_commit(), "python": platform.python_version(),
            "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    path.write_text(json.dumps(info, indent=2, sort_keys=True) + "\n")
    return out


def say(message: str) -> None:
    """Progress line on stderr (stdout carries the results)."""
    print(message, file=sys.stderr, flush=True)

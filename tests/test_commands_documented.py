"""Every ``python -m MODULE`` named in README.md and docs/ exists and answers ``--help``.

The default tier runs every documented command's ``--help`` in one subprocess
(``runpy``, as ``python -m`` runs a module, so imports are paid once); the full
tier also runs each one as its own ``python -m MODULE --help``.
"""

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "docs" / "rules").glob("*.md")),
    *sorted((ROOT / "docs" / "rules" / "ttt").glob("*.md")),
]
PACKAGES = (
    "agents",
    "analysis",
    "cfr",
    "experiments",
    "games",
    "mcts",
    "records",
    "registry",
    "solvers",
    "webapp",
)
# a module name, not followed by ".<placeholder>" (``python -m experiments.<name>``)
COMMAND = re.compile(r"python3? -m ([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?!\w|\.<)")

# Runs each module given on its command line with --help as ``python -m`` would,
# and prints one line per module: OK, or what went wrong.
HELP_DRIVER = """
import contextlib, io, runpy, sys, warnings
for module in sys.argv[1:]:
    out = io.StringIO()
    sys.argv = [module, "--help"]
    try:
        with contextlib.redirect_stdout(out), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        status = "ran without exiting"
    except SystemExit as done:
        status = "OK" if done.code in (0, None) and "usage:" in out.getvalue() else f"exit {done.code!r}"
    except BaseException as error:
        status = f"{type(error).__name__}: {error}"
    print(module, status, sep="\\t", file=sys.__stdout__, flush=True)
"""


def documented_modules(texts) -> list[str]:
    """Every module named as ``python -m MODULE`` in ``texts``, sorted, each once."""
    return sorted({m for text in texts for m in COMMAND.findall(text)})


def ours(module: str) -> bool:
    return module.split(".")[0] in PACKAGES


def missing(modules) -> list[str]:
    """The modules that cannot be found (a misspelt name, or one that moved)."""
    out = []
    for module in modules:
        try:
            found = importlib.util.find_spec(module) is not None
        except ModuleNotFoundError:
            found = False
        if not found:
            out.append(module)
    return out


def help_failures(modules) -> dict[str, str]:
    """``{module: what went wrong}`` for every module whose ``--help`` fails, from one subprocess."""
    run = subprocess.run(
        [sys.executable, "-c", HELP_DRIVER, *modules],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    statuses = dict(line.split("\t", 1) for line in run.stdout.splitlines() if "\t" in line)
    return {
        m: statuses.get(m, f"no answer (driver exit {run.returncode}: {run.stderr[-500:]})") for m in modules
    }


def docs_modules() -> list[str]:
    return documented_modules(path.read_text() for path in DOCS)


def test_the_docs_name_the_commands_of_every_package_group():
    modules = docs_modules()
    for expected in (
        "experiments.compare_flip_options",
        "solvers.solve",
        "cfr",
        "analysis.tournament",
        "webapp",
    ):
        assert expected in modules
    assert "experiments" not in modules  # "python -m experiments.<name>" is a placeholder, not a command


def runnable_modules() -> set[str]:
    """Every module of the ten packages that runs as ``python -m``: a package with a
    ``__main__.py``, or a module with an ``if __name__ == "__main__":`` block."""
    out = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            if path.name == "__main__.py":
                out.add(name.removesuffix(".__main__"))
            elif re.search(r"^if __name__ == .__main__.:", path.read_text(), re.MULTILINE):
                out.add(name)
    return out


def test_the_commands_page_lists_every_runnable_module():
    listed = documented_modules([(ROOT / "docs" / "commands.md").read_text()])
    assert runnable_modules() - set(listed) == set()


def test_every_documented_module_exists():
    assert missing(docs_modules()) == []


def test_every_documented_command_answers_help():
    failures = {m: s for m, s in help_failures([m for m in docs_modules() if ours(m)]).items() if s != "OK"}
    assert failures == {}


def test_a_misspelt_module_in_a_doc_is_caught():
    doc = (
        "Run `python -m experiments.compare_flip_option --full` for the study, or\n"
        "`python -m solvers.solve --game y_game(board_size=5)`; see `python -m experiments.<name>`."
    )
    modules = documented_modules([doc])
    assert modules == ["experiments.compare_flip_option", "solvers.solve"]
    assert missing(modules) == ["experiments.compare_flip_option"]


def test_a_documented_module_without_a_command_line_fails_help():
    failures = help_failures(["analysis.study", "agents"])
    assert failures["agents"] == "OK"
    assert failures["analysis.study"] != "OK"


def test_the_readme_python_tour_runs(tmp_path):
    tour = re.search(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.DOTALL).group(1)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run(
        [sys.executable, "-c", tour], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "[1.0, -1.0]" in run.stdout or "[-1.0, 1.0]" in run.stdout  # the MCTS game's returns


@pytest.mark.slow
@pytest.mark.parametrize("module", [m for m in docs_modules() if ours(m)])
def test_documented_command_runs_as_python_m(module):
    run = subprocess.run(
        [sys.executable, "-m", module, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "usage:" in run.stdout

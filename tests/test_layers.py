"""Layers point down and modules form no cycle (docs/DESIGN.md, "The layer rule").

The import graph is read from the source, not from an interpreter: every module of
the ten packages, Python (``ast``: imports at module level and inside functions,
classes and ``if`` blocks alike, ``if TYPE_CHECKING`` too, and
``importlib.import_module`` with a literal name) and Cython (``import``, ``cimport``,
their ``from`` forms, and the ``.pxi`` files a module ``include``s). An edge goes to
the module whose namespace is read: ``from a.b import c`` reads ``a.b.c`` if that is a
module, else ``a.b`` (its ``__init__``); ``import a.b`` reads ``a.b``. (A package's
``__init__`` runs before any of its modules whatever the statement, so it is an edge
only when names are read from it.) The rule over that graph:

- a module imports only its own package and the packages of lower layers;
  ``mcts``, ``solvers`` and ``cfr`` share one layer and do not import one another;
- no experiment imports another experiment (its own private ``_kernel`` aside);
- no cycle of modules, whatever the layers.

The last two tests run the checker on a small project of its own, so the failures it
reports (which modules, which line) are tested without breaking this one.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Bottom to top; the packages of one layer do not import one another.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("records",),
    ("games",),
    ("mcts", "solvers", "cfr"),
    ("agents",),
    ("analysis",),
    ("registry",),
    ("experiments",),
    ("webapp",),
)
# Packages whose modules are independent programs: none imports another of the
# same package, except a private module (a name starting with "_", e.g. a kernel).
SIBLINGS_APART = ("experiments",)

SOURCE_SUFFIXES = (".py", ".pyx", ".pxd")


@dataclasses.dataclass(frozen=True)
class Import:
    importer: str  # dotted module name
    imported: str  # dotted module name, one of the project's
    where: str  # file:line of the statement


# --------------------------------------------------------------------------- reading the source


def module_files(root: Path, packages: Iterable[str]) -> dict[str, list[Path]]:
    """Every module of ``packages`` with its source files (a Cython module may have
    a ``.pyx`` and a ``.pxd``)."""
    modules: dict[str, list[Path]] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*")):
            if path.suffix not in SOURCE_SUFFIXES or not path.is_file():
                continue
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules.setdefault(".".join(parts), []).append(path)
    return modules


def _resolve(module: str, is_package: bool, level: int, base: str | None) -> str:
    """The absolute name of ``from <level dots><base> import ...`` written in ``module``."""
    if level == 0:
        return base or ""
    parts = module.split(".")
    if not is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: len(parts) - (level - 1)]
    return ".".join(parts + ([base] if base else []))


# (line, level, base, names) for "from base import names"; names None for "import base".
Statement = tuple[int, int, str, tuple[str, ...] | None]


def python_statements(source: str) -> list[Statement]:
    """Every import of a Python file, wherever it is (a function, a class, an ``if``),
    and ``importlib.import_module("a.b")`` with a literal name."""
    statements: list[Statement] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            statements += [(node.lineno, 0, alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = tuple(alias.name for alias in node.names)
            statements.append((node.lineno, node.level, node.module or "", names))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            statements.append((node.lineno, 0, node.args[0].value, None))
    return statements


_TRIPLE_QUOTED = re.compile(r'(?s)""".*?"""|\'\'\'.*?\'\'\'')
_FROM = re.compile(r"^\s*from\s+(\.*)([\w.]*)\s+c?import\s+(.*)$")
_IMPORT = re.compile(r"^\s*c?import\s+(.*)$")
_INCLUDE = re.compile(r"""^\s*include\s+["']([^"']+)["']""")


def cython_statements(source: str) -> tuple[list[Statement], list[tuple[int, str]]]:
    """The import statements of a Cython file, and the files it includes (line, name)."""
    # Blank the docstrings, keeping their lines so line numbers stay true.
    source = _TRIPLE_QUOTED.sub(lambda m: "\n" * m.group().count("\n"), source)
    lines = source.split("\n")
    statements: list[Statement] = []
    includes: list[tuple[int, str]] = []
    index = 0
    while index < len(lines):
        number, text = index + 1, lines[index]
        index += 1
        match = _INCLUDE.match(text)
        if match:
            includes.append((number, match.group(1)))
            continue
        text = text.split("#", 1)[0]
        # A statement continues over parentheses or a trailing backslash.
        while index < len(lines) and (text.count("(") > text.count(")") or text.rstrip().endswith("\\")):
            text = text.rstrip().rstrip("\\") + " " + lines[index].split("#", 1)[0]
            index += 1
        match = _FROM.match(text)
        if match:
            names = tuple(name.split()[0] for name in match.group(3).strip("() ").split(",") if name.strip())
            statements.append((number, len(match.group(1)), match.group(2), names))
            continue
        match = _IMPORT.match(text)
        if match:
            for name in match.group(1).split(","):
                if name.split():
                    statements.append((number, 0, name.split()[0], None))
    return statements, includes


def import_graph(root: Path, packages: Iterable[str]) -> list[Import]:
    """Every import from one of the project's modules to another."""
    modules = module_files(root, packages)
    edges: list[Import] = []
    for module, paths in modules.items():
        is_package = any(path.stem == "__init__" for path in paths)
        for path in paths:
            if path.suffix == ".py":
                pending = [(path, python_statements(path.read_text()))]
            else:
                statements, includes = cython_statements(path.read_text())
                pending = [(path, statements)]
                for _, name in includes:
                    included = path.parent / name
                    pending.append((included, cython_statements(included.read_text())[0]))
            for source_path, statements in pending:
                where_file = source_path.relative_to(root).as_posix()
                for line, level, base, names in statements:
                    target = _resolve(module, is_package, level, base)
                    for imported in _targets(target, names, modules):
                        if imported != module:
                            edges.append(Import(module, imported, f"{where_file}:{line}"))
    return edges


def _targets(target: str, names: tuple[str, ...] | None, modules: Mapping[str, object]) -> set[str]:
    """The project modules a statement reads: each ``from`` name that is a module,
    the ``from`` module itself for the other names; a plain import's longest known
    prefix (nothing outside the project)."""
    if names is None:
        parts = target.split(".")
        for end in range(len(parts), 0, -1):
            if ".".join(parts[:end]) in modules:
                return {".".join(parts[:end])}
        return set()
    found = set()
    for name in names:
        if f"{target}.{name}" in modules:
            found.add(f"{target}.{name}")
        elif target in modules:
            found.add(target)
    return found


# --------------------------------------------------------------------------- the rule


def layer_of(module: str, layers: tuple[tuple[str, ...], ...]) -> tuple[int, str]:
    package = module.split(".")[0]
    for rank, layer in enumerate(layers):
        if package in layer:
            return rank, package
    raise ValueError(f"{module} is in no layer")


def layer_violations(
    edges: Iterable[Import],
    layers: tuple[tuple[str, ...], ...] = LAYERS,
    siblings_apart: tuple[str, ...] = SIBLINGS_APART,
) -> list[str]:
    """One line per import that points up a layer, across one layer, or from one
    independent program of a package to another."""
    problems = []
    for edge in edges:
        (rank_from, package_from), (rank_to, package_to) = (
            layer_of(edge.importer, layers),
            layer_of(edge.imported, layers),
        )
        if rank_to > rank_from:
            problems.append(
                f"{edge.where}: {edge.importer} ({package_from}) imports {edge.imported} "
                f"from the layer above ({package_to})"
            )
        elif rank_to == rank_from and package_to != package_from:
            problems.append(
                f"{edge.where}: {edge.importer} imports {edge.imported}: "
                f"{package_from} and {package_to} share a layer, whose packages do not import one another"
            )
        elif (
            package_from == package_to
            and package_from in siblings_apart
            and edge.importer != package_from
            and edge.imported != package_from
            and not edge.imported.rsplit(".", 1)[-1].startswith("_")
        ):
            problems.append(
                f"{edge.where}: {edge.importer} imports {edge.imported}: "
                f"one {package_from} module does not import another (shared code goes below)"
            )
    return problems


def cycles(edges: Iterable[Import]) -> list[str]:
    """One line per cycle of modules (per strongly connected component of the graph):
    a path around it with the statement behind each step."""
    successors: dict[str, dict[str, str]] = {}
    for edge in edges:
        successors.setdefault(edge.importer, {}).setdefault(edge.imported, edge.where)
    components = _strong_components(successors)
    found = []
    for component in components:
        if len(component) < 2:
            continue
        start = min(component)
        path = _path_around(start, component, successors)
        steps = [f"{a} -> {b} ({successors[a][b]})" for a, b in zip(path, path[1:], strict=False)]
        if len(steps) == len(component):
            found.append(f"cycle of {len(component)} modules: " + "; ".join(steps))
        else:
            found.append(
                f"{len(component)} modules import one another in cycles ({', '.join(sorted(component))}); "
                "one of them: " + "; ".join(steps)
            )
    return found


def _strong_components(successors: Mapping[str, Mapping[str, str]]) -> list[set[str]]:
    """Tarjan's algorithm, iterative."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[set[str]] = []
    nodes = set(successors) | {b for targets in successors.values() for b in targets}
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(successors.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(successors.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                components.append(component)
    return components


def _path_around(start: str, component: set[str], successors: Mapping[str, Mapping[str, str]]) -> list[str]:
    """A shortest path from ``start`` back to itself inside ``component`` (breadth first)."""
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(successors.get(node, ())):
                if child not in component:
                    continue
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [*reversed(path), start]
                if child not in previous:
                    previous[child] = node
                    following.append(child)
        frontier = following
    raise AssertionError(f"{start} is on no cycle of its component")


# --------------------------------------------------------------------------- the tests

PACKAGES = tuple(package for layer in LAYERS for package in layer)


def test_the_project_s_imports_point_down_and_form_no_cycle():
    edges = import_graph(ROOT, PACKAGES)
    pairs = {(edge.importer, edge.imported) for edge in edges}
    # the walk read the project, Cython's cimports included
    assert len({edge.importer for edge in edges}) > 100
    assert {("solvers._ysolver", "games.rng"), ("mcts._uct", "games.core")} <= pairs
    problems = layer_violations(edges) + cycles(edges)
    assert not problems, "\n".join(problems)


def test_every_package_of_setup_py_has_a_layer():
    setup = (ROOT / "setup.py").read_text()
    listed = re.search(r"PACKAGES = \(([^)]*)\)", setup).group(1)
    assert sorted(re.findall(r'"(\w+)"', listed)) == sorted(PACKAGES)


# The checker on a small project of its own: two packages below, two sharing a layer, one
# above whose modules are independent programs.
SYNTHETIC_LAYERS = (("low",), ("left", "right"), ("high",))
SYNTHETIC = {
    "low/__init__.py": "",
    "low/core.py": "import os\n\n\ndef helper():\n    from high import app  # inside a function\n",
    "low/a.py": "from low import b\n",
    "low/b.py": "from low.c import thing\n",
    "low/c.py": "from . import a\n\nthing = 1\n",
    "left/__init__.py": "",
    "left/_kernel.pyx": (
        '"""Not an import:\nimport high.app\n"""\n'
        "from low.core cimport fast  # down: allowed\n"
        "from right.x cimport (\n    slow,\n)\n"
        'include "part.pxi"\n'
    ),
    "left/part.pxi": "\ncimport high.kernel\n",
    "right/__init__.py": "",
    "right/x.pxd": "",
    "high/__init__.py": "",
    "high/app.py": "from low import core\n",
    "high/kernel.pxd": "",
    "high/tool.py": "import importlib\n\nimportlib.import_module('high.other')\n",
    "high/other.py": "",
    "high/_private.py": "",
    "high/uses_private.py": "from high import _private\n",
}


def _synthetic_graph(tmp_path) -> list[Import]:
    for path, text in SYNTHETIC.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    return import_graph(tmp_path, ("low", "left", "right", "high"))


def test_the_checker_names_each_inversion_with_its_modules_and_line(tmp_path):
    problems = layer_violations(_synthetic_graph(tmp_path), SYNTHETIC_LAYERS, siblings_apart=("high",))
    assert sorted(problems) == [
        "high/tool.py:3: high.tool imports high.other: one high module does not import another "
        "(shared code goes below)",
        "left/_kernel.pyx:5: left._kernel imports right.x: left and right share a layer, whose "
        "packages do not import one another",
        "left/part.pxi:2: left._kernel (left) imports high.kernel from the layer above (high)",
        "low/core.py:5: low.core (low) imports high.app from the layer above (high)",
    ]


def test_the_checker_names_each_cycle_with_the_line_of_every_step(tmp_path):
    assert sorted(cycles(_synthetic_graph(tmp_path))) == [
        "cycle of 2 modules: high.app -> low.core (high/app.py:1); low.core -> high.app (low/core.py:5)",
        "cycle of 3 modules: low.a -> low.b (low/a.py:1); low.b -> low.c (low/b.py:1); "
        "low.c -> low.a (low/c.py:1)",
    ]

"""The package's import graph, read from the source with ``ast``: no cycles, a self-contained engine.

Every import statement in ``src/dicetable`` counts, at module level and inside functions or
classes (a cycle through a function-level import is still a cycle, merely postponed), except
those inside an ``if TYPE_CHECKING:`` block (never run). Relative imports are resolved against
the importing module's package; ``from pkg import name`` is an edge to the submodule
``pkg.name`` when there is one, else to ``pkg``; ``import a.b.c`` is an edge to ``a.b.c``.
Only modules of the package are nodes. The parent packages Python imports first on the way to
a submodule are not edges (they would make every package that imports its own submodules a
cycle). A cycle is a strongly connected component of more than one module, or a module that
imports itself.

The layering checked besides: the engine imports nothing built on it; a game package imports
only the engine, its own modules, the standard library and the base dependencies; and no module
a base install loads (all but ``dicetable.rl``, the ``rl`` extra's own package) imports anything
else when it is imported (function bodies may: they import an extra through
``dicetable.extras.require``, which names the extra when it is missing).
"""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
PACKAGE = "dicetable"
#: What the rules engine must never import: the games plug into it, not the other way round.
ABOVE_ENGINE = ("games", "server", "web", "cli", "bots", "rl")
#: Modules the base dependencies bring under another name: FastAPI's own dependencies.
BROUGHT_BY_BASE = {"starlette": "fastapi", "anyio": "fastapi (through starlette)"}


def _modules() -> dict[str, Path]:
    """Every module of the package: dotted name -> file (a package's name for its __init__.py)."""
    out = {}
    for path in sorted((SRC / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _import_nodes(node: ast.AST):
    """The Import/ImportFrom nodes under ``node``, leaving out ``if TYPE_CHECKING:`` bodies."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for other in child.orelse:  # the else branch does run
                yield from _import_nodes(ast.Module(body=[other], type_ignores=[]))
            continue
        yield from _import_nodes(child)


def _edges(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package modules ``name`` (at ``path``) imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = alias.name
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target:
                    out.add(target)
            continue
        if node.level:
            base_parts = package.split(".")
            base_parts = base_parts[:len(base_parts) - (node.level - 1)]
            base = ".".join(base_parts + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            if sub in modules:
                out.add(sub)
            elif base in modules:
                out.add(base)
    return out


def _runs_on_import(node: ast.AST):
    """The Import/ImportFrom nodes run when the module is imported: those under ``node`` outside
    function bodies and ``if TYPE_CHECKING:`` blocks (class bodies do run)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child
        elif isinstance(child, ast.If) and _is_type_checking(child.test):
            for other in child.orelse:
                yield from _runs_on_import(ast.Module(body=[other], type_ignores=[]))
        else:
            yield from _runs_on_import(child)


def _outside(nodes) -> set[str]:
    """The top-level names of the modules outside the package that ``nodes`` import."""
    out = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            out |= {alias.name.partition(".")[0] for alias in node.names}
        elif not node.level and node.module:
            out.add(node.module.partition(".")[0])
    return out - {PACKAGE, "__future__"}


def base_dependencies() -> set[str]:
    """The import names of pyproject's base ``dependencies`` and what they bring: a distribution's
    name lowered with ``-`` read as ``_``, plus the top-level names an installed distribution
    declares (``argon2-cffi`` is imported as ``argon2``)."""
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    dists = {re.match(r"[A-Za-z0-9_.-]+", dep).group(0).lower().replace("-", "_")
             for dep in meta["project"]["dependencies"]}
    declared = {top for top, owners in importlib.metadata.packages_distributions().items()
                if any(owner.lower().replace("-", "_").replace(".", "_") in dists for owner in owners)}
    return dists | declared | set(BROUGHT_BY_BASE)


def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports (see the module notes)."""
    modules = _modules()
    return {name: _edges(name, path, modules) for name, path in modules.items()}


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of ``graph``, each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_graph_reader_resolves_what_it_claims():
    """Checks of the reader on imports known to be in the source, so the cycle test cannot pass
    on an empty graph: relative, ``from pkg import submodule``, and a function-level import."""
    graph = import_graph()
    assert "dicetable.engine" in graph["dicetable.engine.replay"] or \
        any(m.startswith("dicetable.engine.") for m in graph["dicetable.engine.replay"])
    assert "dicetable.games" in graph["dicetable"]
    assert "dicetable.bots.mcts" in graph["dicetable.bots"]   # make_bot imports it in a function
    assert "dicetable.extras" in graph["dicetable.report"]


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, and the modules importing themselves."""
    return [c for c in strongly_connected(graph) if len(c) > 1 or c[0] in graph.get(c[0], ())]


def test_a_cycle_is_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "e"}, "e": {"e"}, "f": set()}
    assert cycles(graph) == [["a", "b", "c"], ["e"]]


def test_the_package_has_no_import_cycle():
    graph = import_graph()
    found = cycles(graph)
    lines = []
    for component in found:
        inside = set(component)
        lines.append("cycle: " + "; ".join(f"{m} -> {', '.join(sorted(graph[m] & inside))}" for m in component))
    assert not found, "\n".join(lines)


def parts_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The module graph folded onto the package's parts: its top-level modules and subpackages
    (``dicetable.bots.mcts`` belongs to ``dicetable.bots``; the package's own ``__init__`` is the
    part ``dicetable``). An edge from a part to itself is left out."""
    def part(module: str) -> str:
        return ".".join(module.split(".")[:2])
    out: dict[str, set[str]] = {}
    for module, targets in graph.items():
        out.setdefault(part(module), set()).update(part(t) for t in targets if part(t) != part(module))
    return out


def test_the_packages_parts_are_layered():
    """No two parts of the package import each other, even through different modules (a part is
    a top-level module or subpackage): each part stands above all it uses, so it can be read,
    tested and compiled without the parts above it."""
    assert cycles(parts_graph({"p.a.x": {"p.b.y"}, "p.b.z": {"p.a"}, "p.c": {"p.c.w"}})) == [["p.a", "p.b"]]
    graph = parts_graph(import_graph())
    found = cycles(graph)
    assert not found, "parts that import each other: " + "; ".join(
        " <-> ".join(component) for component in found)


def test_the_engine_imports_nothing_built_on_it():
    graph = import_graph()
    above = tuple(f"{PACKAGE}.{part}" for part in ABOVE_ENGINE)
    bad = sorted(f"{m} -> {t}" for m, targets in graph.items()
                 if m == f"{PACKAGE}.engine" or m.startswith(f"{PACKAGE}.engine.")
                 for t in targets if t in above or t.startswith(tuple(a + "." for a in above)))
    assert not bad, "the engine imports what is built on it:\n" + "\n".join(bad)


def test_a_game_imports_only_the_engine_and_itself():
    """A game package (and the catalogue, ``dicetable.games``) imports the engine, its own
    modules, the standard library and the base dependencies only: never another game, a
    front end, the bots or an extra (docs/engine.md, "Writing a game")."""
    graph = import_graph()
    allowed_outside = set(sys.stdlib_module_names) | base_dependencies()
    bad = []
    for name, path in _modules().items():
        if not (name == f"{PACKAGE}.games" or name.startswith(f"{PACKAGE}.games.")):
            continue
        own = ".".join(name.split(".")[:3])  # the game's package (the catalogue: itself)
        for target in sorted(graph[name]):
            inside = target == own or target.startswith(own + ".")
            if not (inside or target == f"{PACKAGE}.engine" or target.startswith(f"{PACKAGE}.engine.")):
                bad.append(f"{name} -> {target}")
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        bad += [f"{name} -> {other} (not a base dependency)"
                for other in sorted(_outside(_import_nodes(tree)) - allowed_outside)]
    assert not bad, "a game imports more than the engine and itself:\n" + "\n".join(bad)


def test_a_base_install_can_import_every_module_but_the_rl_package():
    """What a module imports when it is imported is the standard library, a base dependency or
    the package itself; extras are imported inside the functions that need them (through
    ``dicetable.extras.require``). ``dicetable.rl`` is the ``rl`` extra's own package."""
    allowed = set(sys.stdlib_module_names) | base_dependencies()
    bad = []
    for name, path in _modules().items():
        if name == f"{PACKAGE}.rl" or name.startswith(f"{PACKAGE}.rl."):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        bad += [f"{name} imports {other}" for other in sorted(_outside(_runs_on_import(tree)) - allowed)]
    assert not bad, "imports a base install lacks:\n" + "\n".join(bad)


def test_the_layering_checks_can_fail():
    """The readers the two tests above rely on see a module-level extra and skip a function's."""
    tree = ast.parse("import numpy\nfrom os import path\nfrom . import x\n"
                     "def f():\n    import ray\nif TYPE_CHECKING:\n    import matplotlib\n"
                     "class C:\n    import pyspiel.thing\n")
    assert _outside(_runs_on_import(tree)) == {"numpy", "os", "pyspiel"}
    assert _outside(_import_nodes(tree)) == {"numpy", "os", "pyspiel", "ray"}
    assert "numpy" not in base_dependencies() and {"rich", "pydantic", "psycopg", "jinja2"} <= base_dependencies()

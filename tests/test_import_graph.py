"""The package's import graph, read from the source with ``ast``: no cycles, a self-contained engine.

Every import statement in ``src/dicetable`` counts, at module level and inside functions or
classes (a cycle through a function-level import is still a cycle, merely postponed), except
those inside an ``if TYPE_CHECKING:`` block (never run). Relative imports are resolved against
the importing module's package; ``from pkg import name`` is an edge to the submodule
``pkg.name`` when there is one, else to ``pkg``; ``import a.b.c`` is an edge to ``a.b.c``.
Only modules of the package are nodes. The parent packages Python imports first on the way to
a submodule are not edges (they would make every package that imports its own submodules a
cycle). A cycle is a strongly connected component of more than one module.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "dicetable"
#: What the rules engine must never import: the games plug into it, not the other way round.
ABOVE_ENGINE = ("games", "server", "web", "cli", "bots", "rl")


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
    out.discard(name)
    return out


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


def test_a_cycle_is_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert [c for c in strongly_connected(graph) if len(c) > 1] == [["a", "b", "c"]]


def test_the_package_has_no_import_cycle():
    graph = import_graph()
    cycles = [c for c in strongly_connected(graph) if len(c) > 1]
    lines = []
    for component in cycles:
        inside = set(component)
        lines.append("cycle: " + "; ".join(f"{m} -> {', '.join(sorted(graph[m] & inside))}" for m in component))
    assert not cycles, "\n".join(lines)


def test_the_engine_imports_nothing_built_on_it():
    graph = import_graph()
    above = tuple(f"{PACKAGE}.{part}" for part in ABOVE_ENGINE)
    bad = sorted(f"{m} -> {t}" for m, targets in graph.items()
                 if m == f"{PACKAGE}.engine" or m.startswith(f"{PACKAGE}.engine.")
                 for t in targets if t in above or t.startswith(tuple(a + "." for a in above)))
    assert not bad, "the engine imports what is built on it:\n" + "\n".join(bad)

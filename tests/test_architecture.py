"""The rooms of the house and the direction of their doors (docs/architecture.md).

Reads the source with ``ast`` (nothing is imported): every ``import`` and ``from … import``
between modules of ``scoring/`` and ``sheets_sync/`` — at the top of a module or inside a
function, since an import moved into a function to dodge a cycle is still a cycle — forms a
graph that must have no cycle, and the pure core must never import the edges.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("scoring", "sheets_sync")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """Our modules that ``name`` imports (a package's ``__init__`` counts as the package)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [f"{base}.{a.name}" for a in node.names] + [base]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
                found.update(_packages_run_first(target, name))
    return found


def _packages_run_first(target: str, importer: str) -> set[str]:
    """Importing ``a.b.c`` runs ``a/__init__`` and ``a/b/__init__`` first: those packages are
    imports too (a module importing ``backends.base`` while ``backends/__init__`` imports it back
    is a cycle that breaks whichever is imported first).  The importer's own packages are
    already running when it runs, so they are no edge."""
    parts = target.split(".")
    own = importer.split(".")
    return {".".join(parts[:n]) for n in range(1, len(parts))
            if parts[:n] != own[:n] and ".".join(parts[:n]) != importer}


def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {name: imports_of(name, path, known) for name, path in mods.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
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
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles_between_modules():
    found = cycles(graph())
    assert not found, "import cycles: " + "; ".join(" ↔ ".join(c) for c in found)


def test_the_pure_core_never_imports_the_edges():
    leaks = {name: sorted(t for t in targets if t.startswith("sheets_sync"))
             for name, targets in graph().items() if name.startswith("scoring")}
    assert not {k: v for k, v in leaks.items() if v}

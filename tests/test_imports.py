"""The shape of the house: imports point one way, and nothing reaches into another package's private names.

An import circle hidden behind an import inside a function is still a circle: the two modules cannot be
read, tested or moved apart.  grimp reads every import statement of parlour (those only for type checkers
aside), wherever it stands.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp

import parlour

SRC = Path(parlour.__file__).resolve().parent


def circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, edges = work[-1]
            for other in edges:
                if other not in index:
                    index[other] = low[other] = len(index)
                    stack.append(other)
                    on_stack.add(other)
                    work.append((other, iter(sorted(graph.find_modules_directly_imported_by(other)))))
                    break
                if other in on_stack:
                    low[module] = min(low[module], index[other])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[module])
                if low[module] == index[module]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == module:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
    return found


def test_circles_are_found() -> None:
    graph = grimp.ImportGraph()
    for name in ("a", "a.b", "a.c", "a.d"):
        graph.add_module(name)
    graph.add_import(importer="a.b", imported="a.c")
    graph.add_import(importer="a.c", imported="a.b")
    graph.add_import(importer="a.d", imported="a.b")
    assert circles(graph) == [["a.b", "a.c"]]


def test_parlour_has_no_import_circles() -> None:
    graph = grimp.build_graph("parlour", exclude_type_checking_imports=True, cache_dir=None)
    assert circles(graph) == []


def private_imports() -> list[str]:
    """``from parlour.x import _name`` where the importer is not in ``parlour.x``'s own package."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        importer = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        package = importer if path.name == "__init__.py" else importer.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.ImportFrom) or node.level or not (node.module or "").startswith("parlour"):
                continue
            source = node.module or ""
            for alias in node.names:
                private = alias.name.startswith("_") and not alias.name.startswith("__")
                if private and source.rpartition(".")[0] != package and source != package:
                    found.append(f"{importer} imports {source}.{alias.name}")
    return found


def test_no_private_name_is_imported_from_another_package() -> None:
    assert private_imports() == []

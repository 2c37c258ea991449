# SPDX-License-Identifier: Apache-2.0
"""The package's shape, checked: no import cycles among helia_aot's modules, no import hidden inside
a function (the usual way to dodge a cycle), the layering the stages promise (the IR imports no
stage, no stage imports the pipeline or a face of it), and name checks that match whole strings."""

from __future__ import annotations

import ast
import pathlib

import pytest

from helia_aot.config import options
from helia_aot.errors import HeliaError

PACKAGE = pathlib.Path(__file__).resolve().parents[2] / "helia_aot"


def _module_name(path: pathlib.Path, root: pathlib.Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules(root: pathlib.Path = PACKAGE) -> dict[str, pathlib.Path]:
    return {_module_name(p, root): p for p in sorted(root.rglob("*.py"))}


def _imports(name: str, path: pathlib.Path, known: set[str]) -> list[tuple[str, int, bool]]:
    """(imported module, line, at module level) for every import of a helia_aot module. `from X import
    y` counts as importing X.y when that is a module, else X."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                package = package[:len(package) - node.level + 1]
                base = ".".join(package + ([node.module] if node.module else []))
            subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in known]
            targets = subs + ([base] if len(subs) < len(node.names) else [])
        else:
            continue
        found += [(t, node.lineno, id(node) in top) for t in targets if t in known and t != name]
    return found


def import_graph(root: pathlib.Path = PACKAGE) -> tuple[dict[str, set[str]], list[tuple[str, int, str]]]:
    """Module -> the helia_aot modules it imports, and every function-local import (module, line, target)."""
    modules = _modules(root)
    graph: dict[str, set[str]] = {m: set() for m in modules}
    local = []
    for name, path in modules.items():
        for target, line, at_top in _imports(name, path, set(modules)):
            graph[name].add(target)
            if not at_top:
                local.append((name, line, target))
    return graph, local


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
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

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycles():
    graph, _ = import_graph()
    assert cycles(graph) == [], "import cycles among helia_aot modules"


def test_no_function_local_imports():
    """An import inside a function hides a dependency (and usually a cycle); every one is at the top."""
    _, local = import_graph()
    assert local == []


def test_the_ir_imports_no_stage():
    graph, _ = import_graph()
    allowed = ("helia_aot.ir", "helia_aot.errors")
    for module in (m for m in graph if m.startswith("helia_aot.ir")):
        assert {t for t in graph[module] if not t.startswith(allowed)} == set(), module


@pytest.mark.parametrize("face", ["helia_aot.pipeline", "helia_aot.cli", "helia_aot"])
def test_no_stage_imports_the_pipeline_or_a_face(face):
    graph, _ = import_graph()
    faces = {"helia_aot.pipeline", "helia_aot.cli", "helia_aot", "helia_aot.__main__"}
    importers = sorted(m for m, targets in graph.items() if face in targets and m not in faces)
    assert importers == []


def test_the_checker_finds_a_cycle_and_a_local_import(tmp_path):
    """The checks above can fail: a two-module cycle and an import inside a function are reported."""
    root = tmp_path / "helia_aot"
    root.mkdir()
    (root / "__init__.py").write_text("")
    (root / "a.py").write_text("from helia_aot import b\n")
    (root / "b.py").write_text("def f():\n    from helia_aot.a import x\n")
    graph, local = import_graph(root)
    assert cycles(graph) == [["helia_aot.a", "helia_aot.b"]]
    assert local == [("helia_aot.b", 2, "helia_aot.a")]


def _regex_calls(tree):
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"):
            yield node


def test_names_are_checked_against_the_whole_string():
    """`$` matches before a final newline, and re.match only anchors the start: a name check written
    with either lets 'fc\\n' through. Every pattern in the compiler uses fullmatch (or \\Z)."""
    found = []
    for name, path in _modules().items():
        for call in _regex_calls(ast.parse(path.read_text(encoding="utf-8"))):
            pattern = call.args[0] if call.args else None
            if call.func.attr == "match":
                found.append(f"{name}:{call.lineno} re.match")
            if isinstance(pattern, ast.Constant) and isinstance(pattern.value, str) and pattern.value.endswith("$"):
                found.append(f"{name}:{call.lineno} pattern ends in $")
    assert found == []


@pytest.mark.parametrize("where, config, keyword", [
    ("prefix", {"module": {"prefix": "fc\n"}}, "prefix"),
    ("section", {"target": {"name": "corstone300"}, "memory": {"sections": {"DTCM": {"constants": ".sec\n"}}}},
     "section"),
    ("target", {"target": {"name": "t\n", "custom": {"name": "t\n", "cpu": "cortex-m4", "memories": [
        {"name": "RAM", "size": 1 << 20}], "scratch_memory": "RAM", "constant_memory": "RAM"}}}, "name"),
])
def test_a_trailing_newline_is_refused_in_every_name(where, config, keyword):
    with pytest.raises(HeliaError, match=keyword):
        options.resolve(config)

# SPDX-License-Identifier: Apache-2.0
"""One sanitizer list for every host build of generated code: the pytest suites' (tests/sanitizers.py)
is Bazel's HOST_SANITIZERS, and no harness spells its own (one that forgot float-cast-overflow would
let a float converted to an integer it does not fit pass silently)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests import sanitizers

from .helpers import REPO


def _bzl_list(path, name: str) -> list[str]:
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and [t.id for t in node.targets if isinstance(t, ast.Name)] == [name]:
            return ast.literal_eval(node.value)
    raise AssertionError(f"{path} assigns no {name}")


def test_the_pytest_list_is_bazels_and_checks_float_casts():
    assert sanitizers.SANITIZERS == _bzl_list(REPO / "toolchains" / "simulators" / "sanitizers.bzl", "HOST_SANITIZERS")
    assert "float-cast-overflow" in sanitizers.SANITIZERS[0].split("=")[1].split(",")
    assert "-fno-sanitize-recover=all" in sanitizers.SANITIZERS


def test_no_harness_spells_its_own_sanitizers():
    own = {REPO / "tests" / "sanitizers.py", Path(__file__).resolve()}
    spelled = []
    files = sorted((REPO / "tests").rglob("*.py")) + sorted((REPO / "tools").rglob("*.py"))
    for path in files:
        if path.resolve() in own or "__pycache__" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("-fsanitize="):
                spelled.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert len(files) > 50  # the walk saw the suites, not an empty tree
    assert spelled == [], "compile with tests.sanitizers.SANITIZERS instead"

# SPDX-License-Identifier: Apache-2.0
"""Where the remote execution deployment is absent, //tests/bazel:remote_execution_test skips, and only
for the allow-listed reason.

The real test runs where the deployment is (it is opt-in), so its skip path would otherwise go unseen
until a machine without it reported something else. Here its pytest module runs in a child pytest with
HELIA_REMOTE_DEPLOYMENT_ROOT pointed at a folder that does not exist: every one of its tests must be
reported skipped with tests/skip_policy.py's REMOTE_EXECUTION_NOT_SET_UP, none passed, failed or left
out. Nothing is started (the skip comes before the deployment or any Bazel), so a real run of the
remote test on this machine is not disturbed.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from tests.skip_policy import REMOTE_EXECUTION_NOT_SET_UP, refusal

_REPO = Path(__file__).resolve().parents[2]
_REMOTE_TEST = _REPO / "tests" / "bazel" / "test_remote_execution.py"


def _test_functions(source: Path) -> set[str]:
    tree = ast.parse(source.read_text())
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}


def test_every_remote_execution_test_skips_for_the_allowed_reason_without_the_deployment(tmp_path):
    absent = tmp_path / "no-deployment"
    results = tmp_path / "results.xml"
    env = os.environ | {"HELIA_REMOTE_DEPLOYMENT_ROOT": str(absent), "PYTHONDONTWRITEBYTECODE": "1"}
    child = subprocess.run(
        [sys.executable, "-m", "pytest", str(_REMOTE_TEST), "-p", "no:cacheprovider", "-rs", "-q",
         "--junitxml", str(results), "-o", "junit_family=xunit1"],
        cwd=_REPO, env=env, capture_output=True, text=True, timeout=300)
    assert child.returncode == 0, child.stdout[-3000:] + child.stderr[-2000:]

    cases = ElementTree.parse(results).getroot().iter("testcase")
    outcomes = {}
    for case in cases:
        skipped = case.find("skipped")
        others = [element.tag for element in case if element.tag in ("failure", "error")]
        assert skipped is not None and not others, f"{case.get('name')} was not skipped: {ElementTree.tostring(case)}"
        outcomes[case.get("name")] = skipped.get("message", "").removeprefix("Skipped: ")
    assert set(outcomes) == _test_functions(_REMOTE_TEST), outcomes
    for name, reason in outcomes.items():
        assert reason.startswith(REMOTE_EXECUTION_NOT_SET_UP), f"{name} skipped for another reason: {reason}"
        # The reason names what is missing, under the absent folder, and the skip policy allows it.
        assert str(absent / "opt/helia-remote/bin/bgd") in reason, reason
        assert refusal(reason, environ={}) is None, reason

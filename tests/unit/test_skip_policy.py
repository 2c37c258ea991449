# SPDX-License-Identifier: Apache-2.0
"""The strict skip policy of Bazel/CI runs, and the summary line that names every skip reason."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from tests.skip_policy import NS_CMSIS_NN_NOT_CONFIGURED, OPTIONAL_TOOL

REPO = Path(__file__).resolve().parents[2]

_SUITE = f"""
import pytest

def test_without_ns_cmsis_nn():
    pytest.skip({NS_CMSIS_NN_NOT_CONFIGURED!r})

def test_without_an_optional_tool():
    pytest.skip({OPTIONAL_TOOL!r} + " mutmut")

def test_without_the_models():
    pytest.skip("MLPerf model not found (set HELIA_MODELS_DIR)")

def test_that_runs():
    assert True
"""

_RUNNER = """
import sys
import pytest
from tests.skip_policy import StrictSkips
sys.exit(pytest.main([sys.argv[1], "-q", "-p", "no:cacheprovider", "-rA", "--junitxml", sys.argv[2]],
                     plugins=[StrictSkips()]))
"""


def test_only_ns_cmsis_nn_and_optional_tools_may_skip_in_a_strict_run(tmp_path):
    suite = tmp_path / "test_suite.py"
    suite.write_text(_SUITE)
    xml = tmp_path / "test.xml"
    proc = subprocess.run([sys.executable, "-c", _RUNNER, str(suite), str(xml)], cwd=REPO, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "1 failed, 1 passed, 2 skipped" in proc.stdout, proc.stdout
    assert "FAILED" in proc.stdout and "test_without_the_models" in proc.stdout
    assert "skipped in a strict run (CI): MLPerf model not found" in proc.stdout

    (tmp_path / "test").mkdir()
    xml.rename(tmp_path / "test" / "test.xml")
    summary = subprocess.run([sys.executable, str(REPO / "tools/lib/summarize_tests.py"), str(tmp_path.parent),
                              f"//{tmp_path.name}:test"], capture_output=True, text=True, timeout=60)
    lines = summary.stdout.splitlines()
    assert lines[-1] == "tests: 1 passed, 1 failed, 2 skipped", summary.stdout
    assert f"skipped 1: {NS_CMSIS_NN_NOT_CONFIGURED} (//{tmp_path.name}:test 1)" in lines
    assert f"skipped 1: {OPTIONAL_TOOL} mutmut (//{tmp_path.name}:test 1)" in lines
    assert summary.returncode == 1

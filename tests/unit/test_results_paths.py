# SPDX-License-Identifier: Apache-2.0
"""tools/run_tests ends by saying where results are: the logs, each failed target's log and the files
tests kept (TEST_UNDECLARED_OUTPUTS_DIR, which Bazel zips into test.outputs/outputs.zip)."""

from __future__ import annotations

import subprocess
import sys
import zipfile

from .helpers import REPO


def test_summary_names_failed_logs_and_kept_outputs(tmp_path):
    unit = tmp_path / "tests" / "pytest_unit"
    (unit / "test.outputs").mkdir(parents=True)
    (unit / "test.xml").write_text('<testsuites><testsuite><testcase name="a"/></testsuite></testsuites>')
    with zipfile.ZipFile(unit / "test.outputs" / "outputs.zip", "w") as archive:
        archive.writestr("kws_report.png", b"\x89PNG")
    golden = tmp_path / "models" / "kws_golden"
    golden.mkdir(parents=True)
    (golden / "test.xml").write_text('<testsuites><testsuite><testcase name="b"><failure/></testcase>'
                                     '</testsuite></testsuites>')
    quiet = tmp_path / "models" / "kws_golden_host"
    quiet.mkdir(parents=True)
    (quiet / "test.xml").write_text('<testsuites><testsuite><testcase name="c"/></testsuite></testsuites>')
    proc = subprocess.run([sys.executable, str(REPO / "tools/lib/summarize_tests.py"), str(tmp_path),
                           "//tests:pytest_unit", "//models:kws_golden", "//models:kws_golden_host"],
                          capture_output=True, text=True, timeout=60)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 1 and lines[-1] == "tests: 2 passed, 1 failed, 0 skipped", proc.stdout
    assert f"  failed //models:kws_golden: {golden / 'test.log'}" in lines
    assert f"  kept by //tests:pytest_unit: {unit / 'test.outputs' / 'outputs.zip'} (kws_report.png)" in lines
    assert not [line for line in lines if "kws_golden_host" in line]  # passed, nothing kept: not named
    assert lines[-4].startswith(f"results: every test's log and cases in {tmp_path}/")

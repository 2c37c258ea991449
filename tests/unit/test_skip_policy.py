# SPDX-License-Identifier: Apache-2.0
"""The skip policy (tests/skip_policy.py): the strict pytest plugin of Bazel runs, and the summary of
tools/run_tests (tools/lib/summarize_tests.py) that names every skip reason, fails the run on a reason
not on the allow-list, and lists the cases that ran only because ns-cmsis-nn was configured. The
summary is checked on small test.xml files written here, as Bazel lays them out; no Bazel runs."""

from __future__ import annotations

import importlib.util
import io
import os
import re
import subprocess
import sys
from pathlib import Path
from xml.sax.saxutils import quoteattr

import pytest

from tests.skip_policy import (MODELS_NOT_AVAILABLE, NS_CMSIS_NN_NOT_CONFIGURED, OPTIONAL_TOOL, REQUIRE_MODELS_ENV,
                               SKIP_TAG, models_not_available)

REPO = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("summarize_tests", REPO / "tools" / "lib" / "summarize_tests.py")
summarize_tests = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(summarize_tests)

MODEL_MISSING = models_not_available("MLPerf Tiny model /m/vww_96_int8.tflite", "HELIA_MODELS_DIR")

_SUITE = f"""
import pytest

def test_without_ns_cmsis_nn():
    pytest.skip({NS_CMSIS_NN_NOT_CONFIGURED!r})

def test_without_an_optional_tool():
    pytest.skip({OPTIONAL_TOOL!r} + " mutmut")

def test_without_a_model():
    pytest.skip({MODEL_MISSING!r})

def test_for_another_reason():
    pytest.skip("MLPerf model not found (set HELIA_MODELS_DIR)")

def test_that_runs():
    assert True
"""

_RUNNER = """
import sys
import pytest
from tests.pytest_main import StrictSkips
sys.exit(pytest.main([sys.argv[1], "-q", "-p", "no:cacheprovider", "-rA", "--junitxml", sys.argv[2]],
                     plugins=[StrictSkips()]))
"""


def _run_strict_suite(tmp_path, env_update):
    suite = tmp_path / "test_suite.py"
    suite.write_text(_SUITE)
    xml = tmp_path / "test.xml"
    env = {k: v for k, v in os.environ.items() if k != REQUIRE_MODELS_ENV} | env_update
    proc = subprocess.run([sys.executable, "-c", _RUNNER, str(suite), str(xml)], cwd=REPO, capture_output=True,
                          text=True, timeout=120, env=env)
    return proc, xml


def test_only_allowed_reasons_may_skip_in_a_strict_run(tmp_path):
    proc, xml = _run_strict_suite(tmp_path, {})
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "1 failed, 1 passed, 3 skipped" in proc.stdout, proc.stdout
    assert "FAILED" in proc.stdout and "test_for_another_reason" in proc.stdout
    assert "skip not allowed: MLPerf model not found (set HELIA_MODELS_DIR)" in proc.stdout
    assert f"not on the allow-list of tests/skip_policy.py: only reasons starting with {NS_CMSIS_NN_NOT_CONFIGURED!r}" \
        in proc.stdout

    (tmp_path / "test").mkdir()
    xml.rename(tmp_path / "test" / "test.xml")
    summary = subprocess.run([sys.executable, str(REPO / "tools/lib/summarize_tests.py"), str(tmp_path.parent),
                              f"//{tmp_path.name}:test"], capture_output=True, text=True, timeout=60)
    lines = summary.stdout.splitlines()
    assert lines[-1] == "tests: 1 passed, 1 failed, 3 skipped", summary.stdout
    assert f"skipped 1: {NS_CMSIS_NN_NOT_CONFIGURED} (//{tmp_path.name}:test 1)" in lines
    assert f"skipped 1: {OPTIONAL_TOOL} mutmut (//{tmp_path.name}:test 1)" in lines
    assert f"skipped 1: {MODEL_MISSING} (//{tmp_path.name}:test 1)" in lines
    assert summary.returncode == 1


def test_a_missing_model_may_not_skip_where_the_models_are_required(tmp_path):
    proc, _ = _run_strict_suite(tmp_path, {REQUIRE_MODELS_ENV: "1"})
    assert "2 failed, 1 passed, 2 skipped" in proc.stdout, proc.stdout
    assert f"skip not allowed: {MODEL_MISSING}" in proc.stdout
    assert f"{REQUIRE_MODELS_ENV} is set: this run requires the models" in proc.stdout


# -- the summary, on test.xml files as Bazel leaves them ---------------------------------------------


def _case(name, outcome="passed", reason=""):
    body = {"passed": "", "failed": '<failure message="boom"/>', "error": '<error message="boom"/>',
            "skipped": f"<skipped type=\"pytest.skip\" message={quoteattr(reason)}/>"}[outcome]
    return f'<testcase classname="tests.unit.test_x" name="{name}" time="0.1">{body}</testcase>'


def _write_xml(directory: Path, *cases: str) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "test.xml").write_text(
        f'<?xml version="1.0"?><testsuites><testsuite name="pytest">{"".join(cases)}</testsuite></testsuites>')


def _summary(testlogs, tests, environ=None):
    out = io.StringIO()
    status = summarize_tests.summarize(str(testlogs), tests, environ={} if environ is None else environ, out=out)
    return status, out.getvalue().splitlines()


def test_allowed_skips_pass_and_every_case_is_counted(tmp_path):
    _write_xml(tmp_path / "tests" / "pytest_unit", _case("a"), _case("b"),
               _case("c", "skipped", f"Skipped: {NS_CMSIS_NN_NOT_CONFIGURED}"),
               _case("d", "skipped", NS_CMSIS_NN_NOT_CONFIGURED), _case("e", "skipped", f"{OPTIONAL_TOOL} cmake"))
    # A sharded suite: each shard's cases count.
    _write_xml(tmp_path / "tests" / "pytest_e2e" / "shard_1_of_2", _case("f"), _case("g", "skipped", MODEL_MISSING))
    _write_xml(tmp_path / "tests" / "pytest_e2e" / "shard_2_of_2", _case("h"))
    status, lines = _summary(tmp_path, dict.fromkeys(["//tests:pytest_unit", "//tests:pytest_e2e"]))
    assert status == 0, lines
    assert lines[-1] == "tests: 4 passed, 0 failed, 4 skipped"
    assert f"skipped 2: {NS_CMSIS_NN_NOT_CONFIGURED} (//tests:pytest_unit 2)" in lines
    assert f"skipped 1: {OPTIONAL_TOOL} cmake (//tests:pytest_unit 1)" in lines
    assert f"skipped 1: {MODEL_MISSING} (//tests:pytest_e2e 1)" in lines
    assert not any(line.startswith("skip not allowed") for line in lines)


def test_a_skip_off_the_allow_list_fails_the_run_naming_reason_and_count(tmp_path):
    _write_xml(tmp_path / "pkg" / "t1", _case("a"), _case("b", "skipped", "no QEMU here"),
               _case("c", "skipped", "no QEMU here"))
    _write_xml(tmp_path / "pkg" / "t2", _case("d", "skipped", "no QEMU here"),
               _case("e", "skipped", NS_CMSIS_NN_NOT_CONFIGURED))
    status, lines = _summary(tmp_path, dict.fromkeys(["//pkg:t1", "//pkg:t2"]))
    assert status == 1
    refused = [line for line in lines if line.startswith("skip not allowed")]
    assert len(refused) == 1, lines
    assert refused[0].startswith("skip not allowed: 3 skipped for 'no QEMU here': not on the allow-list of "
                                 "tests/skip_policy.py: only reasons starting with ")
    assert all(repr(prefix) in refused[0]
               for prefix in (NS_CMSIS_NN_NOT_CONFIGURED, OPTIONAL_TOOL, MODELS_NOT_AVAILABLE))
    # Counts stay what they are (a skip is not a failure), and the closing line stays last.
    assert lines[-1] == "tests: 1 passed, 0 failed, 4 skipped"


def test_a_missing_model_fails_the_run_only_where_the_models_are_required(tmp_path):
    _write_xml(tmp_path / "pkg" / "t", _case("a"), _case("b", "skipped", MODEL_MISSING))
    assert _summary(tmp_path, {"//pkg:t": None})[0] == 0
    status, lines = _summary(tmp_path, {"//pkg:t": None}, environ={REQUIRE_MODELS_ENV: "1"})
    assert status == 1
    assert f"skip not allowed: 1 skipped for '{MODEL_MISSING}': {REQUIRE_MODELS_ENV} is set: this run requires " \
        "the models" in lines, lines
    assert _summary(tmp_path, {"//pkg:t": None}, environ={REQUIRE_MODELS_ENV: "0"})[0] == 0


def test_failures_and_missing_results_count_as_failed(tmp_path):
    _write_xml(tmp_path / "pkg" / "t", _case("a"), _case("b", "failed"), _case("c", "error"))
    _write_xml(tmp_path / "pkg" / "sharded" / "shard_1_of_2", _case("d"))  # shard 2 left no result
    status, lines = _summary(tmp_path, dict.fromkeys(["//pkg:t", "//pkg:sharded", "//pkg:never_ran"]))
    assert status == 1
    assert lines[-1] == "tests: 1 passed, 4 failed, 0 skipped"
    assert f"  failed //pkg:t: {tmp_path / 'pkg' / 't' / 'test.log'}" in lines


_QUERY_XML = """<?xml version="1.1" encoding="UTF-8" standalone="no"?>
<query version="2">
    <rule class="cc_test" location="/r/models/micro_speech/BUILD.bazel:69:22" name="//models/micro_speech:golden_host">
        <string name="name" value="golden_host"/>
        <list name="tags">
            <string value="exclusive"/>
            <string value={tag}/>
        </list>
    </rule>
    <rule class="py_test" location="/r/tests/BUILD.bazel:1:1" name="//tests:pytest_unit">
        <string name="name" value="pytest_unit"/>
        <list name="tags"><string value="no-sandbox"/></list>
    </rule>
</query>
"""


def test_a_test_bazel_skipped_counts_once_with_its_tagged_reason(tmp_path):
    reason = f"{MODELS_NOT_AVAILABLE} TFLM's micro_speech models and clips (set HELIA_TFLM_MODELS_DIR)"
    query = tmp_path / "query.xml"
    query.write_text(_QUERY_XML.format(tag=quoteattr(SKIP_TAG + reason)))
    tests = summarize_tests.read_query_xml(str(query))
    assert tests == {"//models/micro_speech:golden_host": reason, "//tests:pytest_unit": None}
    testlogs = tmp_path / "testlogs"
    _write_xml(testlogs / "tests" / "pytest_unit", _case("a"))
    # What an earlier run with the models left behind does not count: this run skipped the target.
    _write_xml(testlogs / "models" / "micro_speech" / "golden_host", _case("stale"), _case("stale2"))
    status, lines = _summary(testlogs, tests)
    assert status == 0, lines
    assert lines[-1] == "tests: 1 passed, 0 failed, 1 skipped"
    assert f"skipped 1: {reason} (//models/micro_speech:golden_host 1)" in lines
    status, lines = _summary(testlogs, tests, environ={REQUIRE_MODELS_ENV: "1"})
    assert status == 1 and any(line.startswith(f"skip not allowed: 1 skipped for '{reason}'") for line in lines)


def test_the_query_output_through_the_command_line(tmp_path):
    """As tools/run_tests calls it: the query's XML on stdin; unreadable output is an error, not a pass."""
    _write_xml(tmp_path / "tests" / "pytest_unit", _case("a"), _case("b", "skipped", "flaky network"))
    command = [sys.executable, str(REPO / "tools/lib/summarize_tests.py"), str(tmp_path), "--query-xml", "-"]
    proc = subprocess.run(command, input=_QUERY_XML.format(tag='"manual"'), capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "summarize_tests: no result for //models/micro_speech:golden_host" in proc.stderr
    assert "skip not allowed: 1 skipped for 'flaky network'" in proc.stdout
    assert proc.stdout.splitlines()[-1] == "tests: 1 passed, 1 failed, 1 skipped"
    proc = subprocess.run(command, input="", capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0 and "the query output is not XML" in proc.stderr


# -- --needs ns-cmsis-nn ------------------------------------------------------------------------------


def _needs(testlogs, baseline, labels):
    out = io.StringIO()
    status = summarize_tests.needs(str(testlogs), str(baseline), dict.fromkeys(labels), "ns-cmsis-nn", out=out)
    return status, out.getvalue().splitlines()


def test_needs_lists_the_cases_that_ran_only_because_ns_cmsis_nn_was_configured(tmp_path):
    without, configured = tmp_path / "without", tmp_path / "with"
    _write_xml(without / "tests" / "pytest_kernels", _case("portable"),
               _case("parity_1", "skipped", NS_CMSIS_NN_NOT_CONFIGURED),
               _case("parity_2", "skipped", f"Skipped: {NS_CMSIS_NN_NOT_CONFIGURED}"),
               _case("cmake", "skipped", f"{OPTIONAL_TOOL} cmake"))
    _write_xml(without / "tests" / "pytest_e2e" / "shard_1_of_2",
               _case("e2e_ns", "skipped", NS_CMSIS_NN_NOT_CONFIGURED))
    _write_xml(without / "tests" / "pytest_e2e" / "shard_2_of_2", _case("e2e_portable"))
    _write_xml(configured / "tests" / "pytest_kernels", _case("portable"), _case("parity_1"), _case("parity_2"),
               _case("cmake", "skipped", f"{OPTIONAL_TOOL} cmake"))
    _write_xml(configured / "tests" / "pytest_e2e" / "shard_1_of_2", _case("e2e_ns"))
    _write_xml(configured / "tests" / "pytest_e2e" / "shard_2_of_2", _case("e2e_portable"))
    labels = ["//tests:pytest_kernels", "//tests:pytest_e2e"]
    status, lines = _needs(configured, without, labels)
    assert status == 0, lines
    assert lines[:-1] == ["  passed //tests:pytest_e2e tests.unit.test_x::e2e_ns",
                          "  passed //tests:pytest_kernels tests.unit.test_x::parity_1",
                          "  passed //tests:pytest_kernels tests.unit.test_x::parity_2"]
    assert re.fullmatch(r"needs ns-cmsis-nn: 3 test cases skip without it \(.*\); in .*: 3 passed, 0 failed, "
                        r"0 skipped, 0 not run", lines[-1]), lines[-1]

    # One of them failed, one still skipped (ns-cmsis-nn not configured after all) and one did not run.
    _write_xml(configured / "tests" / "pytest_kernels", _case("parity_1", "failed"),
               _case("parity_2", "skipped", NS_CMSIS_NN_NOT_CONFIGURED))
    (configured / "tests" / "pytest_e2e" / "shard_1_of_2" / "test.xml").unlink()
    status, lines = _needs(configured, without, labels)
    assert status == 1
    assert "  failed //tests:pytest_kernels tests.unit.test_x::parity_1" in lines
    assert "  skipped //tests:pytest_kernels tests.unit.test_x::parity_2" in lines
    assert "  not run //tests:pytest_e2e tests.unit.test_x::e2e_ns" in lines
    assert lines[-1].endswith("0 passed, 1 failed, 1 skipped, 1 not run")


def test_needs_refuses_a_baseline_where_ns_cmsis_nn_was_configured(tmp_path):
    _write_xml(tmp_path / "tests" / "pytest_kernels", _case("parity_1"))
    status, lines = _needs(tmp_path, tmp_path, ["//tests:pytest_kernels"])
    assert status == 1
    assert lines == [f"needs ns-cmsis-nn: no test case in {tmp_path} skipped for '{NS_CMSIS_NN_NOT_CONFIGURED}'; "
                     "give the test logs of a run without ns-cmsis-nn as --baseline"]


@pytest.mark.parametrize("argv", [["--needs", "ns-cmsis-nn"], ["--needs", "cmsis-nn", "--baseline", "x"]])
def test_needs_takes_a_known_name_and_a_baseline(tmp_path, argv):
    proc = subprocess.run([sys.executable, str(REPO / "tools/lib/summarize_tests.py"), str(tmp_path), "//a:b", *argv],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "--baseline" in proc.stderr or "invalid choice: 'cmsis-nn'" in proc.stderr


def test_shards_split_the_cases_between_them(tmp_path):
    """pytest_main.py under Bazel's sharding: every case runs in exactly one shard."""
    suite = tmp_path / "test_many.py"
    suite.write_text("import pytest\n\n@pytest.mark.parametrize('n', range(7))\ndef test_case(n):\n    print(f'ran {n}')\n")
    ran = []
    for index in range(3):
        status_file = tmp_path / f"status{index}"
        env = dict(os.environ, PYTHONPATH=str(REPO), TEST_TOTAL_SHARDS="3", TEST_SHARD_INDEX=str(index),
                   TEST_SHARD_STATUS_FILE=str(status_file), XML_OUTPUT_FILE=str(tmp_path / f"shard{index}.xml"))
        proc = subprocess.run([sys.executable, str(REPO / "tests/pytest_main.py"), str(suite), "-q", "-s"], cwd=REPO,
                              env=env, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert status_file.exists()
        ran += [int(n) for n in re.findall(r"ran (\d+)", proc.stdout)]
    assert sorted(ran) == list(range(7))

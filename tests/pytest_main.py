# SPDX-License-Identifier: Apache-2.0
"""Runs one pytest suite as a Bazel test: `pytest_main.py DIR [pytest args...]`.

Results go to Bazel's test.xml (one entry per test case), and a suite that collects no test fails:
a green run must have run something. Skips are strict here (StrictSkips): a skip whose reason is not on
the allow-list of tests/skip_policy.py (ns-cmsis-nn not configured, an optional tool missing, a model
not available unless HELIA_REQUIRE_MODELS is set) fails and names its reason. A sharded
suite (Bazel's shard_count) runs every TEST_TOTAL_SHARDS-th test case from TEST_SHARD_INDEX.
"""

import os
import sys

import pytest

from tests.skip_policy import refusal, skip_reason

_NO_TESTS_COLLECTED = 5


class StrictSkips:
    """Turns a skip for a reason not on the allow-list into a failure that names the reason."""

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        report = outcome.get_result()
        if report.skipped and not hasattr(report, "wasxfail"):
            reason = skip_reason(report.longrepr)
            why = refusal(reason)
            if why:
                report.outcome = "failed"
                report.longrepr = f"skip not allowed: {reason}\n{why}"


class Shard:
    """Keeps this shard's share of the collected test cases (round robin, in collection order)."""

    def __init__(self, index: int, total: int):
        self.index, self.total = index, total

    def pytest_collection_modifyitems(self, config, items):
        mine = [item for position, item in enumerate(items) if position % self.total == self.index]
        config.hook.pytest_deselected(items=[item for item in items if item not in mine])
        items[:] = mine


def main() -> int:
    # xunit1 keeps the properties tests record (e.g. measured max |diff|) in test.xml.
    args = sys.argv[1:] + ["-p", "no:cacheprovider", "-rs", "--tb=short", "-o", "junit_family=xunit1"]
    xml_output = os.environ.get("XML_OUTPUT_FILE")
    if xml_output:
        args += ["--junitxml", xml_output]
    plugins = [StrictSkips()]
    total = int(os.environ.get("TEST_TOTAL_SHARDS", "1"))
    if total > 1:
        plugins.append(Shard(int(os.environ["TEST_SHARD_INDEX"]), total))
        status_file = os.environ.get("TEST_SHARD_STATUS_FILE")
        if status_file:  # tells Bazel this runner shards
            open(status_file, "w", encoding="utf-8").close()
    status = pytest.main(args, plugins=plugins)
    if status == _NO_TESTS_COLLECTED:
        print("pytest_main: no test was collected; failing.", file=sys.stderr)
        return 1
    return int(status)


if __name__ == "__main__":
    sys.exit(main())

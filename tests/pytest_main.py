# SPDX-License-Identifier: Apache-2.0
"""Runs one pytest suite as a Bazel test: `pytest_main.py DIR [pytest args...]`.

Results go to Bazel's test.xml (one entry per test case), and a suite that collects no test fails:
a green run must have run something. Skips are strict here (tests/skip_policy.py): under Bazel, as in
CI, only "ns-cmsis-nn not configured" or an optional tool may skip; any other skip fails.
"""

import os
import sys

import pytest

from tests.skip_policy import StrictSkips

_NO_TESTS_COLLECTED = 5


def main() -> int:
    # xunit1 keeps the properties tests record (e.g. measured max |diff|) in test.xml.
    args = sys.argv[1:] + ["-p", "no:cacheprovider", "-rs", "--tb=short", "-o", "junit_family=xunit1"]
    xml_output = os.environ.get("XML_OUTPUT_FILE")
    if xml_output:
        args += ["--junitxml", xml_output]
    status = pytest.main(args, plugins=[StrictSkips()])
    if status == _NO_TESTS_COLLECTED:
        print("pytest_main: no test was collected; failing.", file=sys.stderr)
        return 1
    return int(status)


if __name__ == "__main__":
    sys.exit(main())

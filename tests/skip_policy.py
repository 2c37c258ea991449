# SPDX-License-Identifier: Apache-2.0
"""Which skips a CI run may contain, and a pytest plugin that fails every other skip.

CI has the shared models, the Arm toolchain, QEMU and Bazel, so a test that skips for lack of one of
them hides a broken set-up. Only two reasons may skip there: ns-cmsis-nn is not configured (it is on
no registry and CI never has it), or a tool the README names as optional is missing.
"""

from __future__ import annotations

import pytest

NS_CMSIS_NN_NOT_CONFIGURED = "ns-cmsis-nn not configured (set HELIA_NS_CMSIS_NN_DIR)"
OPTIONAL_TOOL = "optional tool missing:"  # prefix of a skip reason for an optional tool
ALLOWED_PREFIXES = (NS_CMSIS_NN_NOT_CONFIGURED, OPTIONAL_TOOL)


def skip_reason(longrepr) -> str:
    """The reason pytest recorded for a skip (its longrepr is (file, line, "Skipped: reason"))."""
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        reason = str(longrepr[2])
    else:
        reason = str(longrepr)
    return reason.removeprefix("Skipped: ")


def allowed(reason: str) -> bool:
    return reason.startswith(ALLOWED_PREFIXES)


class StrictSkips:
    """Turns a skip for any other reason into a failure that names the reason."""

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        report = outcome.get_result()
        if report.skipped and not hasattr(report, "wasxfail"):
            reason = skip_reason(report.longrepr)
            if not allowed(reason):
                report.outcome = "failed"
                report.longrepr = (f"skipped in a strict run (CI): {reason}\n"
                                   "CI has the shared models, the Arm toolchain, QEMU and Bazel; only "
                                   f"'{NS_CMSIS_NN_NOT_CONFIGURED}' or '{OPTIONAL_TOOL} ...' may skip")

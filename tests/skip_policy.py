# SPDX-License-Identifier: Apache-2.0
"""Which skips a run may contain: the allow-list, stated once.

A skip for lack of the Arm toolchain, QEMU or Bazel hides a broken set-up: the build environment of
tools/bootstrap has them. Only these reasons may skip (ALLOWED_PREFIXES: tests/pytest_main.py
applies it to each pytest case under Bazel, failing any other skip, and tools/lib/summarize_tests.py
to the whole run of tools/run_tests, Bazel's skipped targets included):
- ns-cmsis-nn is not configured (it is on no registry and CI never has it);
- a tool the README names as optional is missing;
- the local remote execution deployment is not set up (it is opt-in: HELIA_REMOTE_EXECUTION=1
  tools/bootstrap);
- a model the test needs is not available (../shared/models, or TFLM's files from @tflm_models),
  except where the run requires the models (HELIA_REQUIRE_MODELS=1, as .ci/run sets: CI has them).
"""

from __future__ import annotations

import os  # and nothing else: tools/run_tests' summary imports this module with a bare python3

NS_CMSIS_NN_NOT_CONFIGURED = "ns-cmsis-nn not configured (set HELIA_NS_CMSIS_NN_DIR)"
OPTIONAL_TOOL = "optional tool missing:"  # prefix of a skip reason for an optional tool
MODELS_NOT_AVAILABLE = "models not available:"  # prefix of a skip reason for a missing model
REMOTE_EXECUTION_NOT_SET_UP = "remote execution not set up (run HELIA_REMOTE_EXECUTION=1 tools/bootstrap)"
ALLOWED_PREFIXES = (NS_CMSIS_NN_NOT_CONFIGURED, OPTIONAL_TOOL, MODELS_NOT_AVAILABLE, REMOTE_EXECUTION_NOT_SET_UP)

# Set to 1 where the models must be there: a skip for a missing model is then not allowed.
REQUIRE_MODELS_ENV = "HELIA_REQUIRE_MODELS"
# A Bazel test that is skipped as a whole (incompatible, e.g. //models/micro_speech without TFLM's
# files) carries a tag SKIP_TAG + reason; Bazel's summary only says SKIPPED.
SKIP_TAG = "helia-skip: "


def skip_reason(longrepr) -> str:
    """The reason pytest recorded for a skip (its longrepr is (file, line, "Skipped: reason"))."""
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        reason = str(longrepr[2])
    else:
        reason = str(longrepr)
    return reason.removeprefix("Skipped: ")


def allowed_prefixes(environ=os.environ) -> tuple[str, ...]:
    if environ.get(REQUIRE_MODELS_ENV, "") not in ("", "0"):
        return tuple(prefix for prefix in ALLOWED_PREFIXES if prefix != MODELS_NOT_AVAILABLE)
    return ALLOWED_PREFIXES


def allowed(reason: str, environ=os.environ) -> bool:
    return reason.startswith(allowed_prefixes(environ))


def refusal(reason: str, environ=os.environ) -> str | None:
    """Why a skip for `reason` is not allowed in this run (None when it is)."""
    if allowed(reason, environ):
        return None
    if reason.startswith(ALLOWED_PREFIXES):
        return f"{REQUIRE_MODELS_ENV} is set: this run requires the models"
    return ("not on the allow-list of tests/skip_policy.py: only reasons starting with "
            + " or ".join(repr(prefix) for prefix in allowed_prefixes(environ)) + " may skip")


def models_not_available(what: str, variable: str) -> str:
    """The skip reason of a test whose model is missing: what is missing and which variable names it."""
    return f"{MODELS_NOT_AVAILABLE} {what} (set {variable})"

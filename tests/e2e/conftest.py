# SPDX-License-Identifier: Apache-2.0
"""pytest fixtures of the e2e suite: one build session shared by every test, the ns-cmsis-nn and
Arm toolchain gates, and a summary table of every measured figure at the end of the run."""

from __future__ import annotations

import json
import os
import pathlib
import time

import pytest

from tests.e2e import harness
from tests.skip_policy import models_not_available

_SESSION = pytest.StashKey[harness.E2ESession]()
_START = pytest.StashKey[float]()
# When set, the measured figures are also written there as JSON (tests/e2e/write_measured.py).
RESULTS_ENV = "HELIA_E2E_RESULTS"


def pytest_configure(config):
    config.stash[_START] = time.monotonic()


@pytest.fixture(scope="session")
def e2e(request, tmp_path_factory) -> harness.E2ESession:
    session = harness.E2ESession(tmp_path_factory.mktemp("helia-e2e"))
    request.config.stash[_SESSION] = session
    return session


@pytest.fixture(scope="session")
def ns_cmsis_nn_root() -> pathlib.Path:
    root = harness.ns_cmsis_nn_dir()
    if root is None:
        pytest.skip(harness.NS_CMSIS_NN_SKIP_REASON)
    return root


@pytest.fixture(scope="session")
def arm_tools() -> tuple[str, str, str]:
    tools = harness.arm_tools()
    if isinstance(tools, str):
        pytest.skip(tools)
    return tools


def mlperf_model_or_skip(e2e: harness.E2ESession, name: str) -> harness.ModelUnderTest:
    path = harness.models_dir() / f"{name}.tflite"
    if not path.is_file():
        pytest.skip(models_not_available(f"MLPerf Tiny model {path}", "HELIA_MODELS_DIR to the folder holding the "
                                         "MLPerf Tiny .tflite files"))
    return e2e.mlperf(name)


def _format_table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    line = lambda r: "  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()
    return [line(header), line(["-" * w for w in widths])] + [line(r) for r in rows]


def summary_lines(results: dict[str, dict[str, dict]]) -> list[str]:
    lines = []
    for suite, entries in results.items():
        columns = sorted({k for fields in entries.values() for k in fields},
                         key=lambda k: (k != "max_abs_diff", k))
        rows = [[name] + [_cell(fields.get(c, "")) for c in columns]
                for name, fields in sorted(entries.items())]
        lines += ["", f"[{suite}]"] + _format_table(["name"] + columns, rows)
    return lines


def _cell(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_cell(v) for v in value) + "]"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    session = config.stash.get(_SESSION, None)
    if session is None or not session.results:
        return
    elapsed = time.monotonic() - config.stash[_START]
    terminalreporter.write_sep("=", "helia e2e measured figures")
    for line in summary_lines(session.results):
        terminalreporter.write_line(line)
    terminalreporter.write_line(f"\ne2e session wall time: {elapsed:.1f} s")
    target = os.environ.get(RESULTS_ENV)
    if target:
        pathlib.Path(target).write_text(json.dumps(
            {"wall_time_s": round(elapsed, 1), "exit_status": int(exitstatus),
             "results": session.results}, indent=1, sort_keys=True))

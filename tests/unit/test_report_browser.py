# SPDX-License-Identifier: Apache-2.0
"""The HTML report in a real browser: headless Chromium opens it with no console message, its DOM
holds one rectangle per planned buffer and one table row per operator, and a screenshot of the KWS
report is kept as a test output (TEST_UNDECLARED_OUTPUTS_DIR under Bazel)."""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import tempfile
from pathlib import Path

import pytest

import helia_aot
from tests.skip_policy import OPTIONAL_TOOL

from .helpers import MLPERF, REPO, mlperf_model
from .test_report_html import Page

# Chromium prints every console message (console.log/error, uncaught exceptions, failed loads) on
# stderr as `[pid:tid:time:INFO:CONSOLE:line] "text", source: ...` (older builds: CONSOLE(line)).
_CONSOLE = re.compile(r":CONSOLE[:(]|Uncaught|ERROR:CONSOLE")
_WINDOW = (1280, 1800)


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip(f"{OPTIONAL_TOOL} chromium (headless browser for the HTML report; tools/bootstrap installs it "
                "in the build environment)")


def _browse(page: Path, *mode: str) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory(prefix="helia-chromium-") as profile:
        # --no-sandbox: tests run as root in the build environment, where Chromium's sandbox refuses to start.
        return subprocess.run(
            [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
             f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0", *mode, page.resolve().as_uri()],
            capture_output=True, text=True, timeout=120)


def _console_lines(proc: subprocess.CompletedProcess) -> list[str]:
    return [line for line in proc.stderr.splitlines() if _CONSOLE.search(line)]


def _outputs_dir() -> Path:
    outputs = os.environ.get("TEST_UNDECLARED_OUTPUTS_DIR")
    path = Path(outputs) if outputs else Path(tempfile.gettempdir()) / "helia-aot-test-outputs"
    path.mkdir(parents=True, exist_ok=True)
    return path


def test_console_check_sees_errors(tmp_path):
    """The check below would be blind if this Chromium logged console messages elsewhere."""
    _chromium()
    bad = tmp_path / "bad.html"
    bad.write_text('<!DOCTYPE html><p>x</p><script>console.error("boom"); throw new Error("kaboom");</script>')
    proc = _browse(bad, "--dump-dom")
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = _console_lines(proc)
    assert any("kaboom" in line for line in lines), proc.stderr[-2000:]


def _models() -> list:
    return [pytest.param("kws", id="kws")] + [pytest.param(name, id=name) for name in MLPERF]


@pytest.mark.parametrize("name", _models())
def test_report_opens_in_chromium(tmp_path, name):
    _chromium()
    model = REPO / "models" / "kws.tflite" if name == "kws" else mlperf_model(name)
    result = helia_aot.convert(model, tmp_path / "out", prefix="m", target="corstone300")
    page = result.output_dir / "m_report.html"
    proc = _browse(page, "--dump-dom")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert _console_lines(proc) == [], _console_lines(proc)
    dom = Page(proc.stdout)  # the DOM as the browser built it, not the file's text
    assert len(dom.rects) == len(result.plan["memory"]["buffers"]) > 0
    assert len(dom.rows["layers"]) == len(result.plan["operators"])
    assert [row[1] for row in dom.rows["layers"]] == [op["id"] for op in result.report["operators"]]
    if name == "kws":
        shot = _outputs_dir() / "kws_report.png"
        shot.unlink(missing_ok=True)
        proc = _browse(page, f"--screenshot={shot}", f"--window-size={_WINDOW[0]},{_WINDOW[1]}",
                       "--hide-scrollbars")
        assert proc.returncode == 0, proc.stderr[-2000:]
        assert _console_lines(proc) == []
        data = shot.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", data[16:24]) == _WINDOW  # IHDR: the page rendered at the window's size
        print(f"screenshot of the KWS report: {shot}")

# SPDX-License-Identifier: Apache-2.0
"""The HTML report in a real browser: headless Chromium opens it with no console message, its DOM
holds one rectangle per planned buffer and one table row per operator; at 1,280 x 800 the KWS and VWW
pages do not scroll sideways, every column header of the layer table is in view, and the CSS sorts and
filters reorder and hide the rows. Screenshots of both are kept as test outputs
(TEST_UNDECLARED_OUTPUTS_DIR under Bazel)."""

from __future__ import annotations

import html
import json
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
from .test_report_html import KWS, Page, page_with_interface

# Chromium prints every console message (console.log/error, uncaught exceptions, failed loads) on
# stderr as `[pid:tid:time:INFO:CONSOLE:line] "text", source: ...` (older builds: CONSOLE(line)).
_CONSOLE = re.compile(r":CONSOLE[:(]|Uncaught|ERROR:CONSOLE")
_WINDOW = (1280, 800)


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
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
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
    model = KWS if name == "kws" else mlperf_model(name)
    result = helia_aot.convert(model, tmp_path / "out", prefix="m", target="corstone300")
    page = result.output_dir / "m_report.html"
    proc = _browse(page, "--dump-dom")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert _console_lines(proc) == [], _console_lines(proc)
    dom = Page(proc.stdout)  # the DOM as the browser built it, not the file's text
    # one rectangle per buffer, and one shading each patch chain (VWW's first layers run in bands by default)
    assert len(dom.rects) == len(result.plan["memory"]["buffers"]) + len(result.plan["patches"]) > 0
    assert sum(r["class"] == "chain" for r in dom.rects) == len(result.plan["patches"])
    assert len(dom.rows["layers"]) == len(result.plan["operators"])
    assert [cells[1]["title"] for cells in dom.cells["layers"]] == [op["id"] for op in result.report["operators"]]


# Appended to a copy of the page (the page itself has no script): measures the layout at the window's
# size, then sorts by MACs and hides the first operator type as a reader's clicks would, and leaves
# the results as JSON in the title, which --dump-dom prints.
_MEASURE = """<script>
(() => {
  const doc = document.documentElement;
  const box = e => { const r = e.getBoundingClientRect(); return {text: e.textContent.trim(), left: r.left, right: r.right}; };
  const order = () => [...document.querySelectorAll("#layers tbody tr")]
      .filter(tr => getComputedStyle(tr).display !== "none")
      .map(tr => [tr.getBoundingClientRect().top, Number(tr.cells[0].textContent)])
      .sort((a, b) => a[0] - b[0]).map(pair => pair[1]);
  const out = {inner: window.innerWidth, client: doc.clientWidth, scroll: doc.scrollWidth, height: doc.scrollHeight,
               layer_headers: [...document.querySelectorAll("#layers th")].map(box),
               io_headers: [...document.querySelectorAll("#io th")].map(box), schedule: order()};
  document.getElementById("sort-macs").click();
  out.by_macs = order();
  document.getElementById("show-t0").click();
  out.without_first_type = order();
  document.title = JSON.stringify(out);
})();
</script>
"""


def _measure(page: Path, tmp_path: Path) -> dict:
    probe = tmp_path / "probe.html"
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", _MEASURE + "</body>"), encoding="utf-8")
    proc = _browse(probe, "--dump-dom", f"--window-size={_WINDOW[0]},{_WINDOW[1]}")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert _console_lines(proc) == [], _console_lines(proc)
    found = re.search(r"<title>(.*?)</title>", proc.stdout, re.S)
    return json.loads(html.unescape(found.group(1)))


def _screenshot(page: Path, shot: Path, height: int) -> None:
    shot.unlink(missing_ok=True)
    proc = _browse(page, f"--screenshot={shot}", f"--window-size={_WINDOW[0]},{height}", "--hide-scrollbars")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert _console_lines(proc) == []
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (_WINDOW[0], height)  # IHDR: rendered at the window's size


@pytest.mark.parametrize("name", ["kws", "vww_96_int8"])
def test_report_fits_1280_pixels(tmp_path, name):
    """At 1,280 x 800 nothing scrolls sideways and every header of the layer table (and of the
    interface) is in view; the sorts and filters move and hide rows in the browser."""
    _chromium()
    model = KWS if name == "kws" else mlperf_model(name)
    prefix = name.split("_")[0]
    result = helia_aot.convert(model, tmp_path / "out", prefix=prefix, target="corstone300")
    page = tmp_path / f"{prefix}_report.html"
    page.write_text(page_with_interface(result, model.read_bytes()), encoding="utf-8")
    m = _measure(page, tmp_path)
    assert m["inner"] == _WINDOW[0], m["inner"]  # the window size took effect
    assert m["scroll"] <= m["client"] <= _WINDOW[0], (m["scroll"], m["client"])
    headers = [h["text"] for h in m["layer_headers"]]
    assert len(headers) == 10 and headers[2] == "type" and headers[5] == "kernel entry"
    for h in m["layer_headers"] + m["io_headers"]:
        assert 0 <= h["left"] < h["right"] <= m["client"], h
    operators = result.report["operators"]
    assert m["schedule"] == [o["index"] for o in operators]
    by_macs = [o["index"] for o in sorted(operators, key=lambda o: (-o["macs"], o["index"]))]
    assert m["by_macs"] == by_macs
    first_type = sorted({o["op_type"] for o in operators})[0]
    assert m["without_first_type"] == [i for i in by_macs if operators[i]["op_type"] != first_type]
    shots = _outputs_dir()
    _screenshot(page, shots / f"{prefix}_report.png", _WINDOW[1])
    _screenshot(page, shots / f"{prefix}_report_full.png", min(m["height"], 16000))
    print(f"screenshots of the {name} report: {shots / f'{prefix}_report.png'}, {shots / f'{prefix}_report_full.png'}")

# SPDX-License-Identifier: Apache-2.0
"""<prefix>_report.html: what the page shows is the plan and report, escaped and self-contained."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

import helia_aot

from .helpers import REPO
from .test_cli import one_error_line, run

HOSTILE = "<script>alert(1)</script>"


class Page(HTMLParser):
    """The parts of the page the tests read: the arena's rects with their titles, table rows, scripts."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.rects: list[dict] = []
        self.rows: dict[str, list[list[str]]] = {}
        self.tags: list[tuple[str, dict]] = []
        self.scripts = 0
        self._table = None
        self._in_tbody = False
        self._cell = None
        self._title = None
        self._in_svg = False
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag == "script":
            self.scripts += 1
        elif tag == "svg" and a.get("id") == "arena":
            self._in_svg = True
        elif tag == "rect" and self._in_svg:
            self.rects.append(dict(a, title=""))
        elif tag == "title" and self.rects and self._in_svg:
            self._title = []
        elif tag == "table":
            self._table = a.get("id")
            self.rows.setdefault(self._table, [])
        elif tag == "tbody":
            self._in_tbody = True
        elif tag == "tr" and self._in_tbody:
            self.rows[self._table].append([])
        elif tag == "td" and self._in_tbody:
            self._cell = []

    def handle_endtag(self, tag):
        if tag == "svg":
            self._in_svg = False
        elif tag == "title" and self._title is not None:
            self.rects[-1]["title"] = "".join(self._title)
            self._title = None
        elif tag == "tbody":
            self._in_tbody = False
        elif tag == "td" and self._cell is not None:
            self.rows[self._table][-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        if self._title is not None:
            self._title.append(data)


@pytest.fixture(scope="module")
def kws(tmp_path_factory):
    out = tmp_path_factory.mktemp("kws") / "out"
    result = helia_aot.convert(REPO / "models" / "kws.tflite", out, prefix="kws", target="corstone300")
    return result


def test_every_buffer_is_one_rect_and_every_operator_one_row(kws):
    page = Page((kws.output_dir / "kws_report.html").read_text(encoding="utf-8"))
    buffers = kws.plan["memory"]["buffers"]
    assert len(buffers) > 5 and len(page.rects) == len(buffers)
    assert len(page.rows["layers"]) == len(kws.plan["operators"])
    # The rows are the report's operators in order, with their numbers.
    for row, op in zip(page.rows["layers"], kws.report["operators"]):
        assert row[1] == op["id"] and row[2] == op["op_type"]
        assert int(row[6]) == op["macs"] and int(row[7]) == op["local_scratch_bytes"]
        assert int(row[8]) == op["constant_bytes"]
        if op["entry"]:
            assert row[5] == op["entry"]
        else:
            assert row[5] == "inline C" or row[5].startswith("none (alias of ")
    # Each rect is its buffer: the hover names the tensors, and the geometry maps back to the plan.
    svg = next(a for tag, a in page.tags if tag == "svg" and a.get("id") == "arena")
    lines = {a["class"]: a for tag, a in page.tags if tag == "line" and "class" in a}
    left, right = float(lines["xaxis"]["x1"]), float(lines["xaxis"]["x2"])
    arena_y, zero_y = float(lines["peak"]["y1"]), float(lines["xaxis"]["y1"])
    arena = kws.plan["memory"]["scratch_arena_bytes"]
    per_pos = (right - left) / len(kws.plan["operators"])
    per_byte = (zero_y - arena_y) / arena
    assert float(svg["width"]) > right
    for rect, b in zip(page.rects, buffers):
        for name in b["tensors"]:
            assert name in rect["title"]
        assert rect["class"].split() == ["buffer", b["kind"]]
        assert round((float(rect["x"]) - left) / per_pos) == b["first"]
        assert round(float(rect["width"]) / per_pos) == b["last"] - b["first"] + 1
        top = (zero_y - float(rect["y"])) / per_byte
        assert abs(top - (b["offset"] + b["bytes"])) <= 0.02 * arena
    # The lower bound's line sits at its address.
    bound = kws.plan["memory"]["lower_bound_bytes"]
    assert abs((zero_y - float(lines["bound"]["y1"])) / per_byte - bound) <= 0.01 * arena


def test_totals_against_the_target_memories(kws):
    page = Page((kws.output_dir / "kws_report.html").read_text(encoding="utf-8"))
    rows = {r[0]: r for r in page.rows["memories"]}
    from helia_aot.config.targets import get_target
    target = get_target("corstone300", [])
    assert sorted(rows) == sorted(m.name for m in target.memories)
    mem = kws.plan["memory"]
    scratch = rows[mem["scratch_memory"]]
    assert f"scratch arena {mem['scratch_arena_bytes']} B" in scratch[2]
    size = target.memory(mem["scratch_memory"]).size
    assert scratch[1].startswith(f"{size} B")
    assert float(scratch[3].rstrip(" %")) == pytest.approx(100 * mem["scratch_arena_bytes"] / size, abs=0.06)
    assert f"constants {kws.report['memory']['constant_bytes']} B" in rows[mem["constant_memory"]][2]


def test_page_is_self_contained_and_deterministic(kws, tmp_path):
    text = (kws.output_dir / "kws_report.html").read_text(encoding="utf-8")
    page = Page(text)
    assert page.scripts == 0
    for tag, attrs in page.tags:
        assert not {"src", "href"} & set(attrs), (tag, attrs)
    assert not re.search(r"https?:|url\(|@import|<link", text.replace('xmlns="http://www.w3.org/2000/svg"', ""))
    again = helia_aot.convert(REPO / "models" / "kws.tflite", tmp_path / "again", prefix="kws", target="corstone300")
    assert (again.output_dir / "kws_report.html").read_bytes() == (kws.output_dir / "kws_report.html").read_bytes()


def test_report_command_regenerates_the_page(kws, tmp_path):
    import shutil
    out = tmp_path / "copy"
    shutil.copytree(kws.output_dir, out)
    original = (out / "kws_report.html").read_bytes()
    (out / "kws_report.html").unlink()
    proc = run("report", str(out))
    assert proc.returncode == 0, proc.stderr
    assert str(out / "kws_report.html") in proc.stdout
    assert (out / "kws_report.html").read_bytes() == original
    # It draws what the JSON says: a buffer taken out of the plan is a rect fewer.
    plan = json.loads((out / "kws_plan.json").read_text())
    plan["memory"]["buffers"].pop()
    (out / "kws_plan.json").write_text(json.dumps(plan))
    assert run("report", str(out)).returncode == 0
    assert len(Page((out / "kws_report.html").read_text()).rects) == len(plan["memory"]["buffers"])
    line = one_error_line(run("report", str(tmp_path)), "OutputDirError")
    assert "no *_plan.json" in line


def hostile_model() -> bytes:
    from tests.modelgen import ModelBuilder
    b = ModelBuilder()
    x = b.input(HOSTILE, (1, 8), scale=0.5, zero_point=0)
    y = b.tensor('y"&<b>bold</b>', (1, 8), scale=0.5, zero_point=0)
    b.op("RELU", [x], [y])
    z = b.tensor("z", (1, 8), scale=0.5, zero_point=0)
    b.op("RELU", [y], [z])
    b.output(z)
    return b.build()


def test_model_strings_render_as_text(tmp_path):
    result = helia_aot.convert(hostile_model(), tmp_path / "o", prefix="m")
    text = (result.output_dir / "m_report.html").read_text(encoding="utf-8")
    page = Page(text)
    assert page.scripts == 0 and "<script>" not in text and "<b>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    titles = " ".join(r["title"] for r in page.rects)
    assert HOSTILE in titles and 'y"&<b>bold</b>' in titles  # the parser's text: the names, as text
    ids = [row[1] for row in page.rows["layers"]]
    assert ids == [op["id"] for op in result.report["operators"]]
    assert not [tag for tag, _ in page.tags if tag in ("b", "script")]

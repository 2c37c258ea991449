# SPDX-License-Identifier: Apache-2.0
"""<prefix>_report.html: what the page shows is the plan and report, escaped and self-contained."""

from __future__ import annotations

import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path

import markupsafe
import numpy as np
import pytest
from ai_edge_litert.interpreter import Interpreter

import helia_aot
from helia_aot.library import own_kernels
from helia_aot.record import report_html

from .helpers import REPO, models_dir
from tests.skip_policy import models_not_available
from .test_cli import one_error_line, run

HOSTILE = "<script>alert(1)</script>"


class Page(HTMLParser):
    """The parts of the page the tests read: the arena's rects with their titles, table rows (cell texts,
    and each cell's attributes in `cells`), the style sheet's text, scripts."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.rects: list[dict] = []
        self.rows: dict[str, list[list[str]]] = {}
        self.cells: dict[str, list[list[dict]]] = {}
        self.row_attrs: dict[str, list[dict]] = {}
        self.tags: list[tuple[str, dict]] = []
        self.texts: dict[str, str] = {}  # element id -> its text (pre, p, details)
        self.style = ""
        self.scripts = 0
        self._in_style = False
        self._text_of: list = []
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
        elif tag == "style":
            self._in_style = True
        if a.get("id") and tag in ("pre", "p", "ul", "nav"):
            self._text_of.append([a["id"], tag, []])
        elif tag == "svg" and a.get("id") == "arena":
            self._in_svg = True
        elif tag == "rect" and self._in_svg:
            self.rects.append(dict(a, title=""))
        elif tag == "title" and self.rects and self._in_svg:
            self._title = []
        elif tag == "table":
            self._table = a.get("id")
            self.rows.setdefault(self._table, [])
            self.cells.setdefault(self._table, [])
            self.row_attrs.setdefault(self._table, [])
        elif tag == "tbody":
            self._in_tbody = True
        elif tag == "tr" and self._in_tbody:
            self.rows[self._table].append([])
            self.cells[self._table].append([])
            self.row_attrs[self._table].append(a)
        elif tag == "td" and self._in_tbody:
            self._cell = []
            self.cells[self._table][-1].append(a)

    def handle_endtag(self, tag):
        if tag == "style":
            self._in_style = False
        if self._text_of and tag == self._text_of[-1][1]:
            key, _, parts = self._text_of.pop()
            self.texts[key] = "".join(parts)
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
        if self._in_style:
            self.style += data
        for _, _, parts in self._text_of:
            parts.append(data)
        if self._cell is not None:
            self._cell.append(data)
        if self._title is not None:
            self._title.append(data)


def litert_interface(model: bytes) -> dict:
    """The model's inputs and outputs as LiteRT's interpreter reads them, in the plan's "interface"
    form: the oracle of the page's interface block."""
    interp = Interpreter(model_content=bytes(model))

    def port(k: int, d: dict) -> dict:
        q = d["quantization_parameters"]
        quant = ({"scale": [float(v) for v in q["scales"]], "zero_point": [int(v) for v in q["zero_points"]],
                  "axis": int(q["quantized_dimension"])} if len(q["scales"]) else None)
        shape = [int(n) for n in d["shape"]]
        elements = int(np.prod(shape, dtype=np.int64))
        return {"index": k, "name": d["name"], "tensor": int(d["index"]), "dtype": np.dtype(d["dtype"]).name,
                "shape": shape, "elements": elements, "bytes": elements * np.dtype(d["dtype"]).itemsize,
                "quantization": quant}
    return {"api_version": 1, "inputs": [port(k, d) for k, d in enumerate(interp.get_input_details())],
            "outputs": [port(k, d) for k, d in enumerate(interp.get_output_details())]}


def with_interface(plan: dict, model: bytes) -> dict:
    """The plan with its "interface": the plan's own where the conversion wrote one (then it must be
    LiteRT's), else LiteRT's (a plan from before the field existed)."""
    expected = litert_interface(model)
    if "interface" in plan:
        for side in ("inputs", "outputs"):
            for ours, theirs in zip(plan["interface"][side], expected[side], strict=True):
                assert {k: ours[k] for k in ("index", "name", "dtype", "shape", "bytes")} == \
                    {k: theirs[k] for k in ("index", "name", "dtype", "shape", "bytes")}
        return plan
    return dict(plan, interface=expected)


def page_with_interface(result, model: bytes) -> str:
    """The page of a conversion, with the model interface in its plan (see with_interface)."""
    plan = with_interface(result.plan, model)
    text = report_html.render(plan, result.report)
    if plan is result.plan:  # the conversion wrote the interface itself: its page is this page
        assert (result.output_dir / f"{plan['module_prefix']}_report.html").read_text(encoding="utf-8") == text
    return text


KWS = REPO / "models" / "kws.tflite"


@pytest.fixture(scope="module")
def kws(tmp_path_factory):
    out = tmp_path_factory.mktemp("kws") / "out"
    result = helia_aot.convert(KWS, out, prefix="kws", target="corstone300")
    return result


def _int(text: str) -> int:
    return int(text.replace(",", ""))


def test_every_buffer_is_one_rect_and_every_operator_one_row(kws):
    page = Page((kws.output_dir / "kws_report.html").read_text(encoding="utf-8"))
    buffers = kws.plan["memory"]["buffers"]
    assert len(buffers) > 5 and len(page.rects) == len(buffers)
    assert len(page.rows["layers"]) == len(kws.plan["operators"])
    # The rows are the report's operators in order, with their numbers; a layer's cell shows the id's
    # first part and holds the whole id as its title.
    for row, cells, op in zip(page.rows["layers"], page.cells["layers"], kws.report["operators"]):
        assert cells[1]["title"] == op["id"] and op["id"].startswith(f"main:{row[1]}")
        assert row[2] == op["op_type"]
        assert _int(row[6]) == op["macs"] and _int(row[7]) == op["local_scratch_bytes"]
        assert _int(row[8]) == op["constant_bytes"]
        if op["entry"]:
            assert row[5] == op["entry"]
        else:
            assert row[5] == "inline C" or row[5] == "none (alias)"
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


@pytest.mark.parametrize("op_id, label, fused", [
    ("main:conv0", "conv0", 0),
    ("main:model/activation_3/Relu;model/bn_3/FusedBatchNormV3;model/conv2d_1/Conv2D", "model/activation_3/Relu", 2),
    ("other:x;y", "other:x", 1),  # another subgraph's prefix stays: it tells the layers apart
    ("main:;x", ";x", 0),  # an empty first part is no label: the whole name shows
])
def test_short_id(op_id, label, fused):
    assert report_html.short_id(op_id, "main") == (label, fused)


def _kws_rows_by(page: Page, key_class: str) -> list[int]:
    """The schedule indices of the layer rows in the order a sort's CSS `order` puts them."""
    ranks = []
    for attrs, row in zip(page.row_attrs["layers"], page.rows["layers"]):
        style = dict(part.split(":") for part in attrs["style"].replace(" ", "").split(";") if part)
        ranks.append((int(style[f"--{key_class}"]), int(row[0])))
    return [index for _, index in sorted(ranks)]


def test_sorts_order_the_rows_largest_first(kws):
    """Each sort's CSS order lists the rows by its column, largest first, ties in schedule order; the
    style sheet applies the order of the checked sort, and each type checkbox hides that type's rows."""
    page = Page((kws.output_dir / "kws_report.html").read_text(encoding="utf-8"))
    column = {"macs": 6, "scratch": 7, "constants": 8, "cost": 9}
    for key, col in column.items():
        order = _kws_rows_by(page, key)
        assert sorted(order) == list(range(len(kws.report["operators"])))
        values = {int(row[0]): (-1 if row[col] == "-" else _int(row[col])) for row in page.rows["layers"]}
        assert [(-values[i], i) for i in order] == sorted((-values[i], i) for i in order)
        assert f"#s-layers:has(#sort-{key}:checked) #layers tbody tr {{ order: var(--{key}); }}" in page.style
    assert _kws_rows_by(page, "macs")[0] == max(kws.report["operators"], key=lambda o: (o["macs"], -o["index"]))["index"]
    types = sorted({o["op_type"] for o in kws.report["operators"]})
    for index, op_type in enumerate(types):
        assert f"#s-layers:has(#show-t{index}:not(:checked)) #layers tr.t{index} {{ display: none; }}" in page.style
        marked = [int(row[0]) for attrs, row in zip(page.row_attrs["layers"], page.rows["layers"])
                  if f"t{index}" in attrs["class"].split()]
        assert marked == [o["index"] for o in kws.report["operators"] if o["op_type"] == op_type]


def test_interface_block_lists_the_models_inputs_and_outputs(kws):
    """Name, dtype, shape, bytes, scale and zero point of every input and output, as LiteRT reads the model."""
    model = KWS.read_bytes()
    page = Page(page_with_interface(kws, model))
    expected = litert_interface(model)
    rows = page.rows["io"]
    ports = [("input", t) for t in expected["inputs"]] + [("output", t) for t in expected["outputs"]]
    assert len(rows) == len(ports) >= 2
    for row, (direction, t) in zip(rows, ports):
        assert row[:5] == [direction, str(t["index"]), t["name"], t["dtype"], str(t["shape"])]
        assert _int(row[5]) == t["bytes"]
        q = t["quantization"]
        assert float(row[6]) == pytest.approx(q["scale"][0], rel=1e-8)  # 9 digits: the float32 back
        assert int(row[7]) == q["zero_point"][0]
        assert row[8] == f"kws_model_{direction}(ctx, {t['index']})"
    # The interface comes first: before the totals and everything else.
    ids = [a["id"] for tag, a in page.tags if tag == "section"]
    assert ids[:2] == ["s-interface", "s-totals"] and ids.index("s-layers") < ids.index("s-integration")


def test_a_plan_without_interface_says_so(kws):
    plan = {k: v for k, v in kws.plan.items() if k != "interface"}
    page = Page(report_html.render(plan, kws.report))
    assert "io" not in page.rows
    assert any(a.get("id") == "no-interface" for tag, a in page.tags)


def test_per_axis_quantization_is_summarized(kws):
    plan = with_interface(kws.plan, KWS.read_bytes())
    port = dict(plan["interface"]["outputs"][0], quantization={"scale": [0.5, 0.25, 0.125], "zero_point": [0, 0, 0],
                                                               "axis": 1})
    plan = dict(plan, interface=dict(plan["interface"], outputs=[port]))
    page = Page(report_html.render(plan, kws.report))
    row, cells = page.rows["io"][-1], page.cells["io"][-1]
    assert row[6] == "3 per axis 1" and row[7] == "0"
    assert cells[6]["title"] == "scales along axis 1: 0.5, 0.25, 0.125"


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


def test_stream_units_name_operators_by_position(tmp_path):
    """The stream pool's table names operators `#k` with the id on hover, and counts each unit's
    constants with their names on hover: long fused names stay out of the cells."""
    result = helia_aot.convert(KWS, tmp_path / "o", prefix="kws", target="corstone300", config={"memory": {
        "tensors": [{"type": "constant", "attributes": {"residency": "stream"}}],
        "stream_pool": {"memory": "DTCM", "bytes": 16384}}})
    units = result.plan["schedule"]["units"]
    page = Page((result.output_dir / "kws_report.html").read_text(encoding="utf-8"))
    position = {o["id"]: o["index"] for o in result.plan["operators"]}
    assert len(units) > 3 and len(page.rows["stream-units"]) == len(units)
    for row, cells, u in zip(page.rows["stream-units"], page.cells["stream-units"], units):
        assert int(row[0]) == u["id"] and int(row[1]) == len(u["tensors"])
        assert cells[1]["title"].split("\n") == u["tensors"]
        assert _int(row[2]) == u["pool_offset"] and _int(row[3]) == u["bytes"]
        for col, key in ((5, "issue_after"), (6, "wait_before"), (7, "last_reader")):
            if u[key] is None:
                assert row[col] == "start" and "title" not in cells[col]
            else:
                assert row[col] == f"#{position[u[key]]}" and cells[col]["title"] == u[key]


def _module_needs(out) -> dict:
    """What the generated files themselves say the build needs: common.h's #error switches, the
    headers of our kernel families and the Signal kernels the C includes."""
    common = next(out.glob("include/*_common.h")).read_text()
    c_files = "".join(p.read_text() for p in sorted([*out.glob("include/*.h"), *out.glob("src/*.c")]))
    return {"switches": sorted(set(re.findall(r"#if !defined\((\w+)\)", common)) - {"NS_CMSIS_NN_VERSION"}),
            "own_headers": {f.header for f in own_kernels.FAMILIES if f'#include "{f.header}"' in c_files},
            "signal": '#include "helia_signal.h"' in c_files}


def _one_op_model(op_type: str, dtype: str, *shapes) -> bytes:
    from tests.modelgen import ModelBuilder
    b = ModelBuilder()
    inputs = [b.input(f"x{i}", shape, dtype=dtype) for i, shape in enumerate(shapes)]
    y = b.tensor("y", shapes[0], dtype=dtype)
    b.op(op_type, inputs, [y])
    b.output(y)
    return b.build()


def _integration_cases() -> list:
    return [pytest.param(lambda: KWS.read_bytes(), "corstone300", "ns_cmsis_nn", id="kws-mve"),
            pytest.param(lambda: KWS.read_bytes(), "corstone300", "portable", id="kws-portable"),
            pytest.param(lambda: KWS.read_bytes(), "apollo4p_evb", "ns_cmsis_nn", id="kws-m4"),
            pytest.param(lambda: _one_op_model("RELU", "float32", (1, 8)), "corstone300", "ns_cmsis_nn", id="relu-f32"),
            pytest.param(lambda: _one_op_model("RELU", "float16", (1, 8)), "corstone300", "ns_cmsis_nn", id="relu-f16"),
            # inline C (a broadcasting ADD): the variant, not a kernel call, needs ARM_NN_ENABLE_F16
            pytest.param(lambda: _one_op_model("ADD", "float16", (1, 4, 8), (1, 1, 8)), "corstone300", "ns_cmsis_nn",
                         id="add-f16-inline"),
            pytest.param(lambda: _tflm_model("audio_preprocessor_int8.tflite"), "corstone300", "ns_cmsis_nn",
                         id="audio-signal")]


def _tflm_model(name: str) -> bytes:
    path = Path(os.environ.get("HELIA_TFLM_MODELS_DIR", models_dir().parent / "tflm")) / name
    if not path.is_file():
        pytest.skip(models_not_available(f"TFLM model {path}", "HELIA_TFLM_MODELS_DIR"))
    return path.read_bytes()


@pytest.mark.parametrize("model, target, library", _integration_cases())
def test_integration_names_what_the_generated_files_need(tmp_path, model, target, library):
    """The integration section derives switches, our kernel families and the Signal kernels from the plan; the module's
    own files (common.h's #errors, model.c's includes) are the judge."""
    result = helia_aot.convert(model(), tmp_path / "o", prefix="m", target=target, kernel_library=library)
    needs = _module_needs(result.output_dir)
    facts = report_html.integration(result.plan, result.report)
    assert facts["switches"] == needs["switches"]
    called = {k["header"] for k in facts["own_kernels"] if k["entries"]}
    assert called == needs["own_headers"]
    assert bool(facts["signal_entries"]) == needs["signal"]
    page = Page((result.output_dir / "m_report.html").read_text(encoding="utf-8"))
    command = page.texts["compile"]
    for switch in needs["switches"]:
        assert f"-D{switch}=1" in command
    for family in own_kernels.FAMILIES:
        assert (f"{family.folder}/src/*.c" in command) == (family.header in needs["own_headers"])
    assert ("-I <ns-cmsis-nn>/Include" in command) == (library == "ns_cmsis_nn")
    if library == "portable":
        assert "-I <helia-aot>/kernels/portable/include" in command
    assert command.startswith(f"arm-none-eabi-gcc -mcpu={result.plan['platform']['cpu']} ")


def test_page_is_self_contained_and_deterministic(kws, tmp_path):
    text = (kws.output_dir / "kws_report.html").read_text(encoding="utf-8")
    page = Page(text)
    assert page.scripts == 0
    for tag, attrs in page.tags:
        assert "src" not in attrs, (tag, attrs)
        assert attrs.get("href", "#").startswith("#"), (tag, attrs)  # links only within the page
        assert not any(name.startswith("on") for name in attrs), (tag, attrs)
    assert not re.search(r"https?:|url\(|@import|<link", text.replace('xmlns="http://www.w3.org/2000/svg"', ""))
    again = helia_aot.convert(KWS, tmp_path / "again", prefix="kws", target="corstone300")
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
    # A plan whose interface is not of the contract's shape is one line, never a traceback.
    for interface, says in (({"inputs": [{"index": 0}]}, "lacks 'name'"), ("x", "value of another shape"),
                            ({"inputs": [dict(index=0, name="i", dtype="int8", shape=[1], quantization={"scale": ["a"]})]},
                             "value of another shape")):
        (out / "kws_plan.json").write_text(json.dumps(dict(plan, interface=interface)))
        assert says in one_error_line(run("report", str(out)), "OutputDirError")


def hostile_model() -> bytes:
    from tests.modelgen import ModelBuilder
    b = ModelBuilder()
    x = b.input(HOSTILE, (1, 8), scale=0.5, zero_point=0)
    y = b.tensor('y"&<u>under</u>', (1, 8), scale=0.5, zero_point=0)
    b.op("RELU", [x], [y])
    z = b.tensor(HOSTILE_CSS, (1, 8), scale=0.5, zero_point=0)
    b.op("RELU", [y], [z])
    b.output(z)
    return b.build()


# A name that would end the style sheet or an attribute if it reached either unescaped.
HOSTILE_CSS = "</style><style>*{display:none}</style>'\"><i>"


def _assert_names_are_text(text: str, names: list[str]) -> Page:
    page = Page(text)
    # <script>, <u>, <i>: tags of the hostile names, which the page itself never uses
    assert page.scripts == 0 and "<script>" not in text and "<u>" not in text and "<i>" not in text
    assert not [tag for tag, _ in page.tags if tag in ("script", "u", "i")]
    assert [tag for tag, _ in page.tags].count("style") == 1
    for name in names:  # no model string in the style sheet, escaped or not (CSS has no HTML escapes)
        assert name not in page.style and str(markupsafe.escape(name)) not in page.style
    return page


def test_model_strings_render_as_text(tmp_path):
    model = hostile_model()
    result = helia_aot.convert(model, tmp_path / "o", prefix="m")
    names = [HOSTILE, 'y"&<u>under</u>', HOSTILE_CSS]
    for text in ((result.output_dir / "m_report.html").read_text(encoding="utf-8"),
                 page_with_interface(result, model)):
        page = _assert_names_are_text(text, names)
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
        titles = " ".join(r["title"] for r in page.rects)
        assert HOSTILE in titles and 'y"&<u>under</u>' in titles  # the parser's text: the names, as text
        ids = [cells[1]["title"] for cells in page.cells["layers"]]
        assert ids == [op["id"] for op in result.report["operators"]]
    io = page.rows["io"]  # the last page has the interface: the names are its text
    assert [row[2] for row in io] == [HOSTILE, HOSTILE_CSS]


def test_hostile_plan_strings_stay_out_of_markup_and_style(kws):
    """A plan is a file `helia-aot report` reads: operator types, entries, variants and the module
    prefix reach the page as text too, never as markup or as CSS."""
    plan = json.loads(json.dumps(with_interface(kws.plan, KWS.read_bytes())))
    report = json.loads(json.dumps(kws.report))
    plan["operators"][0]["op_type"] = report["operators"][0]["op_type"] = HOSTILE_CSS
    plan["operators"][1]["variant"] = HOSTILE
    report["operators"][2]["entry"] = HOSTILE
    report["operators"][3]["input_dtypes"][0] = HOSTILE_CSS
    plan["module_prefix"] = report["module_prefix"] = HOSTILE_CSS
    plan["interface"]["inputs"][0]["dtype"] = HOSTILE
    page = _assert_names_are_text(report_html.render(plan, report), [HOSTILE, HOSTILE_CSS])
    assert page.rows["layers"][0][2] == HOSTILE_CSS and page.rows["layers"][1][3] == HOSTILE
    assert page.rows["layers"][2][5] == HOSTILE and page.rows["io"][0][3] == HOSTILE

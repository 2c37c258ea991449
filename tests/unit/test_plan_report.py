# SPDX-License-Identifier: Apache-2.0
"""Plan and report files against their generated schemas; ids; determinism; MLPerf figures."""

from __future__ import annotations

import filecmp
import json

import pytest

import helia_aot
from helia_aot.record.plan_model import plan_schema, report_schema
from helia_aot.record.schema import validate

from .helpers import ARENA_TARGETS, MLPERF, mlperf_model


@pytest.fixture(scope="module")
def kws(tmp_path_factory):
    out = tmp_path_factory.mktemp("kws") / "out"
    return helia_aot.convert(mlperf_model("kws_ref_model"), out, target="corstone300", prefix="kws")


def test_plan_and_report_validate(kws):
    plan = json.loads((kws.output_dir / "kws_plan.json").read_text())
    report = json.loads((kws.output_dir / "kws_report.json").read_text())
    assert validate(plan, plan_schema()) == []
    assert validate(report, report_schema()) == []
    plan["operators"][0]["surprise"] = 1
    assert validate(plan, plan_schema()) == ["$.operators[0]: unknown field 'surprise'"]
    del report["total_macs"]
    assert "missing required field 'total_macs'" in validate(report, report_schema())[0]


def test_plan_fields(kws):
    plan, report = kws.plan, kws.report
    assert plan["generator"] == {"helia_aot": helia_aot.__version__, "cmsis_nn_required": "7.29.2"}
    assert plan["model"]["sha256"] == "aeea436800704fce17b17292e4412630ad856e9d777c044c64ef748a880bd0ae"
    assert plan["platform"]["kernel_build"] == "mve"
    first = plan["operators"][0]
    assert first["id"].startswith("main:functional_1/activation/Relu;") and first["id_source"] == "output_name"
    assert [o["index"] for o in plan["operators"]] == list(range(13))
    assert report["total_macs"] == 2656768
    calls = {c["symbol"]: c["operator_ids"] for c in report["kernel_calls"]}
    assert sorted(calls) == [c["symbol"] for c in report["kernel_calls"]]
    # On the Cortex-M55 the cost model takes our Helium 1x1 convolution for all four pointwise layers.
    assert len(calls["helia_mve_convolve_1x1_s8"]) == 4
    assert "arm_convolve_1x1_s8_fast" not in calls
    assert {a["kind"] for a in report["arenas"]} == {"scratch", "constant", "persistent"}


def test_repeated_output_names_get_suffixes(tmp_path):
    from tests.modelgen import ModelBuilder
    b = ModelBuilder()
    x = b.input("x", (1, 4), scale=0.5, zero_point=0)
    y1 = b.tensor("same", (1, 4), scale=0.5, zero_point=0)
    y2 = b.tensor("same", (1, 4), scale=0.5, zero_point=0)
    b.op("RELU", [x], [y1])
    b.op("RELU", [y1], [y2])
    b.output(y2)
    result = helia_aot.convert(b.build(), tmp_path / "o")
    assert [o["id"] for o in result.plan["operators"]] == ["main:same#1", "main:same#2"]


def test_two_conversions_are_byte_identical(tmp_path):
    model = mlperf_model("pretrainedResnet_quant")
    helia_aot.convert(model, tmp_path / "a", target="corstone300", with_test_data=True, num_test_samples=1)
    helia_aot.convert(model, tmp_path / "b", target="corstone300", with_test_data=True, num_test_samples=1)
    cmp = filecmp.dircmp(tmp_path / "a", tmp_path / "b")
    files = [p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file()]
    assert len(files) == 13  # include 3, src 2, test 4, plan, report, report.html, README.md, manifest
    for rel in files:
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes(), rel
    assert not cmp.diff_files


@pytest.mark.parametrize("name", MLPERF)
def test_mlperf_arena_at_or_under_target(tmp_path, name):
    result = helia_aot.convert(mlperf_model(name), tmp_path / "o", target="corstone300")
    mem = result.report["memory"]
    assert mem["scratch_arena_bytes"] <= ARENA_TARGETS[name]
    assert mem["lower_bound_bytes"] <= mem["scratch_arena_bytes"]
    # Offsets in the plan never overlap for buffers alive at the same step.
    bufs = result.plan["memory"]["buffers"]
    for i, a in enumerate(bufs):
        for b in bufs[i + 1:]:
            if a["first"] <= b["last"] and b["first"] <= a["last"]:
                assert a["offset"] + a["bytes"] <= b["offset"] or b["offset"] + b["bytes"] <= a["offset"]


@pytest.mark.parametrize("name", ["kws_ref_model", "pretrainedResnet_quant"])
def test_buffer_lifetimes_follow_the_graph(tmp_path, name):
    """Each plan buffer lives from the first operator that writes (or, for a model input, the first
    operator) to the last that reads it (or the last operator, for a model output), worked out here from
    the plan's operator list and LiteRT's input/output names, independently of the planner."""
    from tests.modelgen.litert import make_interpreter
    path = mlperf_model(name)
    plan = helia_aot.convert(path, tmp_path / "out", target="corstone300").plan
    interp = make_interpreter(path.read_bytes())
    model_inputs = {d["name"] for d in interp.get_input_details()}
    model_outputs = {d["name"] for d in interp.get_output_details()}
    operators = plan["operators"]
    last_position = len(operators) - 1
    first, last = {}, {}
    for op in operators:
        for tensor in op["inputs"]:
            last[tensor] = max(last.get(tensor, op["index"]), op["index"])
        for tensor in op["outputs"]:
            first.setdefault(tensor, op["index"])
    for tensor in model_inputs:
        first[tensor] = 0
    for tensor in model_outputs:
        last[tensor] = last_position
    checked = 0
    for buffer in plan["memory"]["buffers"]:
        if buffer["kind"] != "tensor":
            continue
        assert (buffer["first"], buffer["last"]) == (min(first[t] for t in buffer["tensors"]),
                                                     max(last.get(t, first[t]) for t in buffer["tensors"])), buffer
        checked += 1
    assert checked >= len(operators) // 2
    scratch = [b for b in plan["memory"]["buffers"] if b["kind"] == "scratch"]
    assert all(b["first"] == b["last"] for b in scratch)

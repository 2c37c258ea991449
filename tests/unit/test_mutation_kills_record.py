# SPDX-License-Identifier: Apache-2.0
"""Plan writer and HTML report (helia_aot/record/) cases that mutants showed untested (tests/MUTATION.md,
2026-12-02): the report's arenas of a placed module follow the report schema (an activation arena's kind
included), and the arena picture's peak line stands on the peak operator's column."""

from __future__ import annotations

import pytest

import helia_aot
from helia_aot.record import report_html
from helia_aot.record.plan_model import report_schema
from helia_aot.record.schema import validate

from .test_operator_overrides import MODEL


@pytest.fixture(scope="module")
def placed(tmp_path_factory):
    rules = {"tensors": [{"type": "activation", "attributes": {"memory": "SRAM"}}]}
    return helia_aot.convert(MODEL, tmp_path_factory.mktemp("placed") / "o", target="corstone300",
                             config={"memory": rules})


def test_the_report_of_a_placed_module_lists_its_activation_arena(placed):
    assert validate(placed.report, report_schema()) == []
    sram = [a for a in placed.report["arenas"] if a["memory"] == "SRAM" and a["kind"] == "activation"]
    planned = [a for a in placed.plan["memory"]["arenas"] if a["memory"] == "SRAM"]
    assert len(sram) == len(planned) == 1 and sram[0]["bytes"] == planned[0]["bytes"] > 0


def test_the_peak_line_stands_on_the_peak_operators_column(placed):
    picture = report_html.memory_picture(placed.plan, placed.report)
    peak = next(o["index"] for o in placed.report["operators"] if o["id"] == placed.report["memory"]["peak_operator"])
    ticks = {t["label"]: t["x"] for t in picture["x_ticks"]}
    assert len(ticks) == len(placed.plan["operators"])  # one label per operator in a small model
    assert picture["peak_x"] == ticks[peak]


def test_the_schemas_name_themselves_and_document_their_fields():
    from helia_aot.record.plan_model import plan_schema
    plan, report = plan_schema(), report_schema()
    assert (plan["title"], report["title"]) == ("helia_aot plan", "helia_aot report")
    fields = plan["$defs"]["KernelOption"]["properties"]
    assert "cost table" in fields["estimated_instructions"]["description"]  # a field's doc(...) text


def test_validation_descends_into_nested_objects(placed):
    plan = placed.plan
    from helia_aot.record.plan_model import plan_schema
    assert validate(plan, plan_schema()) == []
    broken = {**plan, "memory": {**plan["memory"], "arenas": [{**plan["memory"]["arenas"][0], "bytes": "many"}]}}
    # Both the strict check (a written plan) and the lenient one (a plan given as input) see the nested field.
    for require in (True, False):
        errors = validate(broken, plan_schema(), require=require)
        assert errors == ["$.memory.arenas[0].bytes: expected integer, got str"], (require, errors)


@pytest.mark.parametrize("count, ellipsis", [(16, False), (17, True)])
def test_a_per_axis_port_lists_sixteen_scales_then_says_there_are_more(count, ellipsis):
    scales = [0.5 + i / 64 for i in range(count)]
    port = report_html._port({"index": 0, "name": "x", "dtype": "int8", "shape": [1, count],
                              "quantization": {"scale": scales, "zero_point": [0] * count, "axis": 1}}, "input", "m")
    assert port["scale"] == f"{count} per axis 1"
    listed = port["scale_title"].removeprefix("scales along axis 1: ").split(", ")
    assert listed[:16] == [f"{v:.9g}" for v in scales[:16]] and (listed[16:] == ["..."]) == ellipsis

# SPDX-License-Identifier: Apache-2.0
"""A plan's transfer schedule read as input: applied as written (an edited field changes the module),
read strictly, and every schedule the conversion cannot run refused in one line naming the unit or
constant."""

from __future__ import annotations

import copy
import json

import pytest

import helia_aot
from helia_aot.errors import InvalidConfigError

from .test_operator_overrides import MODEL

# Both convolutions' constants stream through a 512-byte pool: unit 0 (124 B, read by main:y) and
# unit 1 (156 B, read by main:y2), each at pool offset 0, unit 1 issued after main:y.
STREAM = {"memory": {"tensors": [{"type": "constant", "attributes": {"residency": "stream"}}],
                     "stream_pool": {"memory": "DTCM", "bytes": 512}}}


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("sched") / "o"
    helia_aot.convert(MODEL, out, target="corstone300", config=STREAM)
    return out, json.loads((out / "model_plan.json").read_text())


def _replay(tmp_path, doc, config=STREAM):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(doc))
    return helia_aot.convert(MODEL, tmp_path / "r", target="corstone300",
                             config={**config, "optimization": {"plan": str(path)}})


def _files(root):
    return {p.relative_to(root): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_the_written_schedule_replays_to_the_same_files(tmp_path, written):
    out, plan = written
    assert plan["schedule"]["source"] == "compiler" and len(plan["schedule"]["units"]) == 2
    _replay(tmp_path, plan)
    assert _files(tmp_path / "r") == _files(out)


def test_an_edited_issue_point_moves_the_copy(tmp_path, written):
    out, plan = written
    doc = copy.deepcopy(plan)
    unit = doc["schedule"]["units"][1]
    unit["issue_after"] = None  # copy at the start of the run: it now meets unit 0, so it takes other pool bytes
    unit["pool_offset"] = 128
    for derived in ("bytes", "source_memory", "source_offset", "wait_before", "last_reader"):
        del unit[derived]  # a planner may leave the derived fields out
    result = _replay(tmp_path, doc)
    before = (out / "src" / "model_model.c").read_text()
    after = (tmp_path / "r" / "src" / "model_model.c").read_text()
    copy_1 = "memcpy(model_stream_pool + 128, model_stream_src_sram + 128, 156);"
    assert copy_1 not in before and "memcpy(model_stream_pool + 0, model_stream_src_sram + 128, 156);" in before
    run = after[after.index("model_model_run("):]
    assert run.index(copy_1) < run.index("model_op_0(arena)")  # issued before operator 0 now
    assert run.index("memcpy(model_stream_pool + 0, model_stream_src_sram + 0, 124);") < run.index(copy_1)
    # Operator 1 reads its constants at their new pool offsets; the plan records the schedule as given.
    op1 = after[after.index("model_op_1(uint8_t *arena)"):]
    assert "model_stream_pool + 128" in op1[:op1.index("\n}\n")]
    units = result.plan["schedule"]["units"]
    assert (units[1]["issue_after"], units[1]["pool_offset"], units[1]["wait_before"]) == (None, 128, "main:y2")
    w2 = next(t for t in result.plan["tensors"] if t["id"] == "w2")
    assert w2["residency"] == "stream" and w2["unit"] == 1 and w2["pool_offset"] >= 128
    # The edited plan replays to itself.
    again = helia_aot.convert(MODEL, tmp_path / "again", target="corstone300",
                              config={**STREAM, "optimization": {"plan": str(tmp_path / "r" / "model_plan.json")}})
    assert _files(again.output_dir) == _files(tmp_path / "r")


def test_a_schedule_naming_no_units_leaves_every_constant_direct(tmp_path, written):
    _, plan = written
    doc = copy.deepcopy(plan)
    doc["schedule"]["units"] = []
    doc["schedule"]["source"] = "none"
    for t in doc["tensors"]:
        t["residency"], t["unit"], t["pool_offset"] = "direct", None, None
    result = _replay(tmp_path, doc)
    assert {t["residency"] for t in result.plan["tensors"]} == {"direct"}
    assert "memcpy(model_stream_pool" not in (tmp_path / "r" / "src" / "model_model.c").read_text()


def _unit(i, **fields):
    def edit(doc):
        doc["schedule"]["units"][i].update(fields)
    return edit


PREFIX = "optimization.plan schedule: "
FIX = ". Fix the plan's schedule, or remove its units to let the compiler compute one"


@pytest.mark.parametrize("edit, message", [
    (_unit(1, issue_after=None), PREFIX + "units[1] and units[0] are live at once and overlap in pool bytes" + FIX),
    (_unit(0, issue_after="main:y"), PREFIX + "units[0] is issued after main:y (position 0), not before its first "
                                              "reader main:y (position 0)" + FIX),
    (_unit(1, pool_offset=8), PREFIX + "units[1].pool_offset 8 is not a multiple of its span alignment 16" + FIX),
    (_unit(1, pool_offset=400), PREFIX + "units[1] ends at pool byte 556, past the stream pool's 512 B" + FIX),
    (_unit(1, engine="dma"), PREFIX + "units[1].engine is 'dma'; memory.stream_pool.engine offers 'cpu'. Set engine: "
                                      "cpu, or configure memory.stream_pool.engine: dma"),
    (_unit(1, tensors=["w2", "main:y2/shift"]),
     PREFIX + "units[1] lists its constants out of the plan's tensors[] order. List them as tensors[] does: "
              "['main:y2/shift', 'w2']"),
    (_unit(1, tensors=["w1"]), PREFIX + "constant 'w1' is in units[0] and units[1]; each streamed constant is in "
                                        "exactly one unit" + FIX),
    (_unit(1, tensors=["x"]), PREFIX + "units[1] streams constant 'x', which cannot stream: its memory.tensors rules "
                                       "do not permit stream" + FIX),
    (_unit(1, tensors=[]), PREFIX + "units[1] copies no constant. Remove the unit or name its constants"),
    (_unit(1, id=5), PREFIX + "units[1].id is 5; a unit's id is its position in the list, 1" + FIX),
    (_unit(1, issue_after="main:q"), PREFIX + "units[1].issue_after 'main:q' is not an operator of this conversion"
                                     + FIX),
    (_unit(1, bytes=160), PREFIX + "units[1].bytes is stated as 160; this conversion derives 156. Remove the derived "
                                   "field or state it as derived"),
    (_unit(1, wait_before="main:y"), PREFIX + "units[1].wait_before is stated as 'main:y'; this conversion derives "
                                              "'main:y2'. Remove the derived field or state it as derived"),
    (_unit(1, source_memory="MRAM"), PREFIX + "units[1].source_memory is stated as 'MRAM'; this conversion derives "
                                              "'SRAM'. Remove the derived field or state it as derived"),
    (lambda doc: doc["schedule"]["units"].reverse() or [u.update(id=i) for i, u in enumerate(doc["schedule"]["units"])],
     PREFIX + "units[1] is issued before units[0]; units are listed in issue order" + FIX),
    (lambda doc: doc["schedule"]["pool"].update(bytes=1024),
     PREFIX + "pool.bytes is stated as 1024; memory.stream_pool gives 512. Configure memory.stream_pool as the plan "
              "states, or remove schedule.pool"),
])
def test_schedules_the_conversion_cannot_run(tmp_path, written, edit, message):
    _, plan = written
    doc = copy.deepcopy(plan)
    edit(doc)
    with pytest.raises(InvalidConfigError) as info:
        _replay(tmp_path, doc)
    assert str(info.value) == message


def test_a_source_offset_is_ignored(tmp_path, written):
    out, plan = written
    doc = copy.deepcopy(plan)
    doc["schedule"]["units"][1]["source_offset"] = 4096
    _replay(tmp_path, doc)
    assert _files(tmp_path / "r") == _files(out)


@pytest.mark.parametrize("edit, message", [
    (_unit(0, dma_channel=2), "schedule.units[0]: unknown field(s) ['dma_channel'] under schedule"),
    (lambda doc: doc["schedule"]["pool"].update(banks=2), "schedule.pool: unknown field(s) ['banks'] under schedule"),
])
def test_unknown_fields_under_units_and_pool_are_rejected(tmp_path, written, edit, message):
    _, plan = written
    doc = copy.deepcopy(plan)
    edit(doc)
    with pytest.raises(InvalidConfigError) as info:
        _replay(tmp_path, doc)
    assert f"is not a plan this release can apply: {message}, which the conversion applies. The field comes from" \
           in str(info.value)


def test_units_without_a_stream_pool_are_refused(tmp_path, written):
    _, plan = written
    with pytest.raises(InvalidConfigError) as info:
        _replay(tmp_path, plan, config={})
    assert str(info.value) == ("optimization.plan schedule: 2 units, but memory.stream_pool is not configured. "
                               "Configure memory.stream_pool as the conversion that wrote the plan did")


def test_a_plan_source_needs_units(tmp_path, written):
    _, plan = written
    doc = copy.deepcopy(plan)
    doc["schedule"] = {"source": "plan", "units": []}
    with pytest.raises(InvalidConfigError) as info:
        _replay(tmp_path, doc)
    assert str(info.value).endswith(": schedule.source is 'plan' with no units. A schedule without units has "
                                    "source 'none'")

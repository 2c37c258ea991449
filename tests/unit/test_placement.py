# SPDX-License-Identifier: Apache-2.0
"""Memory placement (issue 16): memory.tensors rules, memory.constraints, constant staging, the
stream pool and its schedule, and the sections arrays carry. Every placement error's one-line
message is asserted whole."""

from __future__ import annotations

import re

import pytest

import helia_aot
from helia_aot.errors import InvalidConfigError
from helia_aot.record.plan_model import plan_schema, report_schema
from helia_aot.record.schema import validate
from tests.modelgen import ModelBuilder

from .helpers import mlperf_model


def _fc_model(layers: int = 3, width: int = 32) -> bytes:
    """A chain of int8 FULLY_CONNECTED layers, each with its own weights and bias."""
    import numpy as np
    b = ModelBuilder()
    rng = np.random.default_rng(3)
    x = b.input("x", (1, width), scale=0.05, zero_point=-3)
    for i in range(layers):
        w = b.const(f"w{i}", rng.integers(-100, 100, (width, width)).astype(np.int8), scale=0.02, zero_point=0)
        bias = b.const(f"b{i}", rng.integers(-500, 500, (width,)).astype(np.int32), scale=0.001, zero_point=0)
        y = b.tensor(f"y{i}", (1, width), scale=0.1, zero_point=2)
        b.op("FULLY_CONNECTED", [x, w, bias], [y])
        x = y
    b.output(x)
    return b.build()


@pytest.fixture(scope="module")
def fc_model() -> bytes:
    return _fc_model()


def _message(model, tmp_path, memory: dict, target: str = "corstone300", **extra) -> str:
    with pytest.raises(InvalidConfigError) as err:
        helia_aot.convert(model, tmp_path / "out", target=target, config={"memory": memory, **extra})
    line = str(err.value)
    assert "\n" not in line and line.startswith(err.value.message + ". ") and err.value.hint
    return err.value.message


RULE_ERRORS = [
    ({"tensors": ["x"]}, "memory.tensors[0] must be a mapping with type, id, operator and attributes, got str"),
    ({"tensors": [{"typ": "constant", "attributes": {"memory": "SRAM"}}]},
     "memory.tensors[0]: unknown key 'typ' (allowed: ['type', 'id', 'operator', 'attributes'])"),
    ({"tensors": [{"type": "weights", "attributes": {"memory": "SRAM"}}]},
     "memory.tensors[0].type is 'weights', allowed values are "
     "['constant', 'activation', 'input', 'output', 'persistent']"),
    ({"tensors": [{"type": "constant"}]},
     "memory.tensors[0] has no attributes (set memory, residency or constant_destination_memory)"),
    ({"tensors": [{"type": "constant", "attributes": {"place": "SRAM"}}]},
     "memory.tensors[0].attributes: unknown attribute 'place' (allowed: ['memory', 'residency', "
     "'constant_destination_memory'])"),
    ({"tensors": [{"type": "constant", "attributes": {"residency": "always"}}]},
     "memory.tensors[0].attributes.residency is 'always', allowed values are ['direct', 'pin', 'stream']"),
    ({"tensors": [{"type": "constant", "attributes": {"memory": "FLASH"}}]},
     "memory.tensors[0].attributes.memory 'FLASH' is not a memory of target corstone300 "
     "(['ITCM', 'SRAM', 'DTCM', 'ISRAM', 'DDR'])"),
    ({"tensors": [{"type": "activation", "attributes": {"residency": "pin"}}]},
     "memory.tensors[0] sets residency on type activation; residency applies to constants"),
    ({"tensors": [{"type": "constant", "attributes": {"residency": "stream", "constant_destination_memory": "DTCM"}}]},
     "memory.tensors[0] sets residency stream and constant_destination_memory (a staged copy is residency pin)"),
    ({"tensors": [{"type": "constant", "attributes": {"residency": "stream"}}]},
     "memory.tensors[0] sets residency stream but memory.stream_pool is not configured"),
    ({"tensors": [{"id": 3, "attributes": {"memory": "SRAM"}}]}, "memory.tensors[0].id must be a string, got int 3"),
]


@pytest.mark.parametrize("memory, message", RULE_ERRORS)
def test_rule_errors(fc_model, tmp_path, memory, message):
    assert _message(fc_model, tmp_path, memory) == message


def test_read_only_destination_and_activation_memory(fc_model, tmp_path):
    target = "apollo510_evb"
    assert _message(fc_model, tmp_path, {"tensors": [
        {"type": "constant", "attributes": {"constant_destination_memory": "MRAM"}}]}, target) == \
        "memory.tensors[0].attributes.constant_destination_memory 'MRAM' is read-only on target apollo510_evb"
    assert _message(fc_model, tmp_path, {"tensors": [
        {"type": "activation", "attributes": {"memory": "MRAM"}}]}, target) == \
        "memory.tensors[0].attributes.memory 'MRAM' is read-only on target apollo510_evb"
    # A rule without a type learns the tensor's kind only when it matches one.
    assert _message(fc_model, tmp_path, {"tensors": [{"id": "y0", "attributes": {"memory": "MRAM"}}]}, target) == \
        "memory.tensors[0] places activation 'y0' in MRAM, which is read-only on target apollo510_evb"


def test_conflicting_rules_name_both(fc_model, tmp_path):
    memory = {"tensors": [{"type": "constant", "attributes": {"memory": "SRAM"}},
                          {"type": "constant", "attributes": {"memory": "SRAM"}},  # agrees: merged
                          {"id": "w1", "attributes": {"memory": "ITCM"}}]}
    assert _message(fc_model, tmp_path, memory) == \
        "memory.tensors[0] and memory.tensors[2] both match constant 'w1' and set memory to 'SRAM' and 'ITCM'"
    memory = {"tensors": [{"type": "constant", "attributes": {"residency": "direct"}},
                          {"id": "b2", "attributes": {"constant_destination_memory": "DTCM"}}]}
    assert _message(fc_model, tmp_path, memory) == (
        "memory.tensors[0] and memory.tensors[1] both match constant 'b2' and set residency direct and "
        "constant_destination_memory DTCM (a staged copy is residency pin)")
    memory = {"tensors": [{"type": "output", "attributes": {"memory": "SRAM"}},
                          {"id": "y2", "attributes": {"memory": "ISRAM"}}]}
    assert _message(fc_model, tmp_path, memory) == \
        "memory.tensors[0] and memory.tensors[1] both match output 'y2' and set memory to 'SRAM' and 'ISRAM'"


def test_pin_without_destination_and_rules_matching_nothing(fc_model, tmp_path):
    message = _message(fc_model, tmp_path, {"tensors": [{"type": "constant", "attributes": {"residency": "pin"}}]})
    assert re.fullmatch(r"memory\.tensors\[0\] sets residency pin for constant '[^']+' but no rule gives it a "
                        r"constant_destination_memory", message)
    assert _message(fc_model, tmp_path, {"tensors": [{"id": "w9", "attributes": {"memory": "SRAM"}}]}) == \
        "memory.tensors[0] (id 'w9') matches no tensor of the model"
    assert _message(fc_model, tmp_path, {"tensors": [
        {"type": "constant", "operator": "main:nope", "attributes": {"memory": "SRAM"}}]}) == \
        "memory.tensors[0] (type 'constant' and operator 'main:nope') matches no tensor of the model"


def test_activation_rules_need_a_static_arena(fc_model, tmp_path):
    assert _message(fc_model, tmp_path, {"tensors": [{"type": "activation", "attributes": {"memory": "SRAM"}}]},
                    module={"arena": "caller"}) == \
        "memory.tensors[0] places activation 'y0' in SRAM, but module.arena caller binds one scratch arena (in DTCM)"


def test_persistent_rules_name_one_memory(tmp_path):
    from tests.modelgen import stateful
    model = stateful.build("accumulator_int8")
    result = helia_aot.convert(model, tmp_path / "o", target="corstone300",
                               config={"memory": {"tensors": [{"type": "persistent", "attributes": {"memory": "SRAM"}}]}})
    assert result.plan["memory"]["persistent_memory"] == "SRAM"
    assert 'HELIA_SECTION(".bss.helia.sram") HELIA_ALIGNED(16) uint8_t model_persistent[' in \
        (tmp_path / "o" / "src" / "model_model.c").read_text()


STREAM_POOL_ERRORS = [
    ({"stream_pool": [1]}, "config: memory.stream_pool must be dict, got list [1]"),
    ({"stream_pool": {"memory": "DTCM", "bytes": 10, "size": 3}},
     "memory.stream_pool: unknown key 'size' (allowed: ['bytes', 'engine', 'memory'])"),
    ({"stream_pool": {"memory": "DTCM", "bytes": 0}},
     "memory.stream_pool.bytes must be a number of bytes from 1 to the size of DTCM (524288), got 0"),
    ({"stream_pool": {"memory": "DTCM", "bytes": 64, "engine": "mdma"}},
     "memory.stream_pool.engine is 'mdma', allowed values are ['cpu', 'dma']"),
    ({"stream_pool": {"memory": "TCM", "bytes": 64}},
     "memory.stream_pool.memory 'TCM' is not a memory of target corstone300 (['ITCM', 'SRAM', 'DTCM', 'ISRAM', "
     "'DDR'])"),
    ({"constraints": {"DTCM": "all"}}, "memory.constraints.DTCM must be a number of bytes, got 'all'"),
    ({"constraints": {"XTCM": 5}},
     "memory.constraints names memory 'XTCM' is not a memory of target corstone300 (['ITCM', 'SRAM', 'DTCM', "
     "'ISRAM', 'DDR'])"),
    ({"sections": {"DTCM": ".x"}},
     "memory.sections.DTCM must be a mapping with constants and/or buffers, got '.x'"),
    ({"sections": {"DTCM": {"constants": "a b"}}},
     "memory.sections.DTCM.constants must be a section name of letters, digits, '_', '.' or '$', got 'a b'"),
]


@pytest.mark.parametrize("memory, message", STREAM_POOL_ERRORS)
def test_pool_constraint_and_section_errors(fc_model, tmp_path, memory, message):
    assert _message(fc_model, tmp_path, memory) == message


def test_budget_overflow_names_memory_budget_and_contents(fc_model, tmp_path):
    base = helia_aot.convert(fc_model, tmp_path / "base", target="corstone300")
    arena = base.plan["memory"]["scratch_arena_bytes"]
    constants = sum(c["bytes"] for c in base.plan["tensors"])
    # Exactly the arena fits; staging the constants into DTCM too overflows by their bytes.
    helia_aot.convert(fc_model, tmp_path / "fits", target="corstone300", config={"memory": {"constraints": {"DTCM": arena}}})
    memory = {"constraints": {"DTCM": arena},
              "tensors": [{"type": "constant", "attributes": {"constant_destination_memory": "DTCM"}}]}
    assert _message(fc_model, tmp_path, memory) == (
        f"memory.constraints: DTCM budget {arena} B exceeded by {constants} B ({arena + constants} B: scratch arena "
        f"{arena} B, staged constants {constants} B)")
    assert _message(fc_model, tmp_path, {"constraints": {"DTCM": arena - 1}}) == (
        f"memory.constraints: DTCM budget {arena - 1} B exceeded by 1 B ({arena} B: scratch arena {arena} B)")


def test_default_memory_keys_change_nothing(fc_model, tmp_path):
    """Rules that only restate the defaults still emit sections, but an empty configuration, or
    constraints alone, leave every file of the module as it was."""
    base = helia_aot.convert(fc_model, tmp_path / "a", target="corstone300")
    same = helia_aot.convert(fc_model, tmp_path / "b", target="corstone300",
                             config={"memory": {"constraints": {"DTCM": 1 << 19}, "tensors": []}})
    for rel in base.files:
        if rel.endswith((".c", ".h")):
            assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes(), rel
    assert same.plan["tensors"] == base.plan["tensors"]


def test_staging_plan_and_code(fc_model, tmp_path):
    result = helia_aot.convert(fc_model, tmp_path / "o", target="corstone300", config={"memory": {"tensors": [
        {"type": "constant", "id": "w1", "attributes": {"memory": "ITCM", "constant_destination_memory": "DTCM"}},
        {"type": "constant", "operator": "main:y2", "attributes": {"residency": "direct"}}]}})
    plan = result.plan
    assert validate(plan, plan_schema()) == [] and validate(result.report, report_schema()) == []
    by_id = {c["id"]: c for c in plan["tensors"]}
    assert {k: by_id["w1"][k] for k in ("requested", "residency", "memory", "destination_memory")} == \
        {"requested": "pin", "residency": "pin", "memory": "ITCM", "destination_memory": "DTCM"}
    assert {k: by_id["w2"][k] for k in ("requested", "residency", "memory", "destination_memory")} == \
        {"requested": "direct", "residency": "direct", "memory": "SRAM", "destination_memory": None}
    assert by_id["w0"]["requested"] is None
    model_c = (tmp_path / "o" / "src" / "model_model.c").read_text()
    constants_c = (tmp_path / "o" / "src" / "model_constants.c").read_text()
    symbol = by_id["w1"]["symbol"]
    assert f'static HELIA_SECTION(".bss.helia.dtcm") HELIA_ALIGNED(16) int8_t {symbol}_staged[1024];' in model_c
    assert f"memcpy({symbol}_staged, {symbol}, sizeof({symbol}_staged));" in model_c
    assert f'HELIA_SECTION(".helia.const.itcm") HELIA_ALIGNED(16) const int8_t {symbol}[1024]' in constants_c
    # The kernels read the staged copy, never the cold one.
    body = model_c.split("int32_t model_model_init")[0]
    assert re.search(rf"\b{symbol}\b(?!_staged)", body.split(f"{symbol}_staged[1024];")[1]) is None
    holds = {m["memory"]: {h["what"]: h["bytes"] for h in m["holds"]} for m in result.report["memory_use"]}
    assert holds["DTCM"]["staged constants"] == 1024 and holds["ITCM"]["constants"] == 1024


def test_stream_schedule_and_pool_layout(tmp_path):
    model = _fc_model(layers=4, width=32)
    result = helia_aot.convert(model, tmp_path / "o", target="corstone300", config={"memory": {
        "tensors": [{"type": "constant", "attributes": {"residency": "stream"}}],
        "stream_pool": {"memory": "DTCM", "bytes": 4096}}})
    plan, report = result.plan, result.report
    sched = plan["schedule"]
    assert sched["source"] == "compiler" and sched["pool"] == {"memory": "DTCM", "bytes": 4096, "alignment": 16}
    ops = [o["id"] for o in plan["operators"]]
    assert [u["wait_before"] for u in sched["units"]] == ops
    assert [u["issue_after"] for u in sched["units"]] == [None, *ops[:-1]]
    assert [u["last_reader"] for u in sched["units"]] == ops
    by_id = {c["id"]: c for c in plan["tensors"]}
    for u in sched["units"]:
        assert u["engine"] == "cpu" and u["pool_offset"] % 16 == 0 and u["pool_offset"] + u["bytes"] <= 4096
        assert u["source_memory"] == "SRAM"
        for name in u["tensors"]:
            assert by_id[name]["residency"] == "stream" and by_id[name]["unit"] == u["id"]
    # Units live one operator each, so they all reuse the start of the pool.
    assert {u["pool_offset"] for u in sched["units"]} == {0}
    assert report["stream_pool"]["used_bytes"] == max(u["bytes"] for u in sched["units"])
    assert report["stream_pool"]["streamed_bytes"] == sum(c["bytes"] for c in plan["tensors"])
    assert [e["unit"] for e in report["stream_pool"]["layout"]] == list(range(len(ops)))
    model_c = (tmp_path / "o" / "src" / "model_model.c").read_text()
    assert model_c.count("memcpy(model_stream_pool + 0, model_stream_src_sram + ") == len(ops)
    assert "model_stream_issue" not in model_c
    html = (tmp_path / "o" / "model_report.html").read_text()
    assert 'id="stream-pool"' in html


def test_stream_unit_too_large_stays_direct_with_a_warning(tmp_path):
    model = _fc_model(layers=2, width=32)
    result = helia_aot.convert(model, tmp_path / "o", target="corstone300", config={"memory": {
        "tensors": [{"type": "constant", "attributes": {"residency": "stream"}}],
        "stream_pool": {"memory": "DTCM", "bytes": 512}}})
    by_id = {c["id"]: c for c in result.plan["tensors"]}
    assert by_id["w0"]["residency"] == "direct" and by_id["b0"]["residency"] == "stream"
    assert "constant 'w0' (1024 B) could stream but stays direct: larger than the stream pool (512 B); enlarge " \
           "memory.stream_pool.bytes to stream it, or drop residency stream from its rules to keep it direct" in \
        result.report["warnings"]
    facts = {f["id"]: f for f in result.report["constants"]}
    assert facts["w0"]["reason"] == "larger than the stream pool" and facts["b0"]["reason"] is None


def test_dma_engine_declares_the_hooks(tmp_path):
    result = helia_aot.convert(_fc_model(2), tmp_path / "o", target="corstone300", config={"memory": {
        "tensors": [{"type": "constant", "attributes": {"residency": "stream"}}],
        "stream_pool": {"memory": "DTCM", "bytes": 4096, "engine": "dma"}}})
    assert {u["engine"] for u in result.plan["schedule"]["units"]} == {"dma"}
    header = (tmp_path / "o" / "include" / "model_model.h").read_text()
    assert "void model_stream_issue(int32_t unit, void *dst, const void *src, int32_t bytes);" in header
    assert "void model_stream_wait(int32_t unit);" in header
    model_c = (tmp_path / "o" / "src" / "model_model.c").read_text()
    assert model_c.count("model_stream_wait(") == 1 + len(result.plan["schedule"]["units"])


def test_activations_in_a_second_arena(fc_model, tmp_path):
    result = helia_aot.convert(fc_model, tmp_path / "o", target="corstone300", config={"memory": {"tensors": [
        {"type": "activation", "id": "y1", "attributes": {"memory": "SRAM"}},
        {"type": "input", "attributes": {"memory": "SRAM"}}]}})
    arenas = result.plan["memory"]["arenas"]
    assert [(a["memory"], a["kind"]) for a in arenas] == [("DTCM", "scratch"), ("SRAM", "activation")]
    names = {t for b in arenas[1]["buffers"] for t in b["tensors"]}
    assert names == {"x", "y1"}
    assert arenas[1]["lower_bound_bytes"] == 32  # x and y1 never live at once
    scratch_names = {t for b in result.plan["memory"]["buffers"] for t in b["tensors"]}
    assert not scratch_names & {"x", "y1"}
    model_c = (tmp_path / "o" / "src" / "model_model.c").read_text()
    assert 'static HELIA_SECTION(".bss.helia.sram") HELIA_ALIGNED(16) uint8_t model_arena_sram[' in model_c
    assert "static uint8_t *const model_input_bases[1] = { model_arena_sram };" in model_c
    use = {m["memory"]: m for m in result.report["memory_use"]}
    assert use["SRAM"]["free"] == use["SRAM"]["size"] - use["SRAM"]["used"]


def test_an_output_in_a_second_arena_is_read_from_that_arena(fc_model, tmp_path):
    """The output's offset is into the SRAM arena, so its base must be that arena: a NULL base would hand
    the caller scratch-arena bytes at the SRAM offset (emit/module.py's `base` of each output)."""
    result = helia_aot.convert(fc_model, tmp_path / "o", target="corstone300", config={"memory": {"tensors": [
        {"type": "output", "attributes": {"memory": "SRAM"}}]}})
    arenas = result.plan["memory"]["arenas"]
    assert [(a["memory"], a["kind"]) for a in arenas] == [("DTCM", "scratch"), ("SRAM", "activation")]
    assert {t for b in arenas[1]["buffers"] for t in b["tensors"]} == {"y2"}
    model_c = (tmp_path / "o" / "src" / "model_model.c").read_text()
    assert "static uint8_t *const model_output_bases[1] = { model_arena_sram };" in model_c
    assert "static uint8_t *const model_input_bases[1] = { NULL };" in model_c


def test_configured_section_names(fc_model, tmp_path):
    helia_aot.convert(fc_model, tmp_path / "o", target="host", config={"memory": {
        "tensors": [{"type": "constant", "attributes": {"constant_destination_memory": "RAM"}}],
        "sections": {"RAM": {"buffers": ".fastbss"}, "ROM": {"constants": ".slowro"}}}})
    model_c = (tmp_path / "o" / "src" / "model_model.c").read_text()
    constants_c = (tmp_path / "o" / "src" / "model_constants.c").read_text()
    assert 'static HELIA_SECTION(".fastbss") HELIA_ALIGNED(16) uint8_t model_arena[' in model_c
    assert constants_c.count('HELIA_SECTION(".slowro") HELIA_ALIGNED(16) const') >= 6


def test_ad01_streams_from_a_quarter_of_its_constants(tmp_path):
    """Acceptance: ad01 (weight-bound) converted for corstone300 with its constants streamed into
    DTCM: the largest fast-memory (ITCM/DTCM) footprint is at most 25 % of its constant bytes."""
    model = mlperf_model("ad01_int8")
    base = helia_aot.convert(model, tmp_path / "base", target="corstone300")
    constants = sum(c["bytes"] for c in base.plan["tensors"])
    result = helia_aot.convert(model, tmp_path / "o", target="corstone300", config={"memory": {
        "tensors": [{"type": "constant", "attributes": {"residency": "stream"}}],
        "stream_pool": {"memory": "DTCM", "bytes": constants // 4 - 4096}}})
    fast = max(m["used"] for m in result.report["memory_use"] if m["memory"] in ("ITCM", "DTCM"))
    assert fast <= constants // 4
    streamed = result.report["stream_pool"]["streamed_bytes"]
    assert streamed > 0 and result.plan["schedule"]["units"]
    print(f"ad01: constants {constants} B, streamed {streamed} B, largest fast-memory footprint {fast} B "
          f"({100 * fast / constants:.1f} %)")


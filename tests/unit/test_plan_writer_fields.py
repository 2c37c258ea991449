# SPDX-License-Identifier: Apache-2.0
"""Every operator and memory field build_plan writes, for a two-operator model whose facts are known
from how the test builds it (a convolution, then a RESHAPE aliasing its output). Written to kill
the mutants mutmut left alive in helia_aot/record/plan_writer.py's build_plan."""

from __future__ import annotations

import numpy as np
import pytest

import helia_aot
from tests.modelgen import ModelBuilder


@pytest.fixture(scope="module")
def plan(tmp_path_factory):
    b = ModelBuilder()
    x = b.input("x", (1, 4, 4, 2), scale=0.5, zero_point=-3)
    w = b.const("w", np.ones((3, 3, 3, 2), np.int8), dtype="int8", scale=[0.25] * 3, zero_point=0,
                quantized_dimension=0)
    bias = b.const("b", np.arange(3, dtype=np.int32), dtype="int32", scale=[0.125] * 3, zero_point=0)
    y = b.tensor("y", (1, 4, 4, 3), scale=0.5, zero_point=1)
    b.op("CONV_2D", [x, w, bias], [y], {"padding": "SAME", "stride_w": 1, "stride_h": 1})
    shape = b.const("shape", np.array([1, 48], np.int32), dtype="int32")
    z = b.tensor("z", (1, 48), scale=0.5, zero_point=1)
    b.op("RESHAPE", [y, shape], [z])
    b.output(z)
    out = tmp_path_factory.mktemp("pw") / "o"
    return helia_aot.convert(b.build(), out, target="corstone300", prefix="pw").plan


def test_operator_fields(plan):
    conv, reshape = plan["operators"]
    for position, (op, op_type, name) in enumerate(((conv, "CONV_2D", "y"), (reshape, "RESHAPE", "z"))):
        assert (op["id"], op["id_source"], op["index"], op["node_id"], op["op_type"], op["source_index"]) == \
            (f"main:{name}", "output_name", position, f"n{position}", op_type, position)
    assert (conv["variant"], conv["inputs"], conv["outputs"], conv["alias_of"]) == ("int8", ["x", "w", "b"], ["y"], None)
    assert (reshape["variant"], reshape["inputs"], reshape["outputs"], reshape["alias_of"]) == \
        ("any", ["y", "shape"], ["z"], "y")
    k = conv["kernel"]
    assert k["provider"] == reshape["kernel"]["provider"] == "helia_aot.ops/v1"
    assert k["entry"] in k["candidates"] and k["entry"].startswith(("arm_convolve", "helia_mve_convolve"))
    # Scale ratio 0.5 * 0.25 / 0.5 = 2^-3: a right shift only.
    assert k["requantization"] == "rshift_only"
    assert k["local_scratch_bytes"] > 0 and k["weight_sums"] == "precomputed"  # corstone300: MVE build
    assert reshape["kernel"] == {"entry": None, "provider": "helia_aot.ops/v1", "candidates": None,
                                 "requantization": None, "local_scratch_bytes": None, "weight_sums": None,
                                 "choice": None}
    assert set(conv["knobs"]) == {"kernel"} and reshape["knobs"] == {}
    assert conv["fixed"] == {} and reshape["fixed"] == {}


def test_memory_fields(plan):
    m = plan["memory"]
    assert (m["scratch_memory"], m["constant_memory"], m["arena"], m["arena_alignment"]) == ("DTCM", "SRAM", "static", 16)
    assert m["persistent_memory"] == "DTCM" and m["persistent_bytes"] == 0 and m["persistent_buffers"] == []
    buffers = m["buffers"]
    assert [(b["offset"], b["first"], b["name"]) for b in buffers] == sorted((b["offset"], b["first"], b["name"])
                                                                             for b in buffers)
    by_kind = {b["kind"]: b for b in buffers if b["kind"] == "scratch"}
    tensors = {tuple(b["tensors"]): b for b in buffers if b["kind"] == "tensor"}
    # x, and y shared with its alias z (which lives to the end as the model output).
    assert set(tensors) == {("x",), ("y", "z")}
    assert (tensors[("x",)]["bytes"], tensors[("x",)]["first"], tensors[("x",)]["last"]) == (32, 0, 0)
    assert (tensors[("y", "z")]["bytes"], tensors[("y", "z")]["first"], tensors[("y", "z")]["last"]) == (48, 0, 1)
    assert by_kind["scratch"]["tensors"] == [] and by_kind["scratch"]["first"] == by_kind["scratch"]["last"] == 0
    assert by_kind["scratch"]["bytes"] == plan["operators"][0]["kernel"]["local_scratch_bytes"]
    assert m["scratch_arena_bytes"] >= m["lower_bound_bytes"] == 32 + 48 + by_kind["scratch"]["bytes"]
    assert m["strategy"] in ("size_desc", "area_desc", "lifetime_desc", "first_use", "peak_first")


def test_constants_and_header_fields(plan):
    consts = plan["tensors"]
    assert consts and all(c["id"] == c["storage_id"] and c["residency"] == "direct" and c["memory"] == "SRAM"
                          and c["requested"] is None and c["destination_memory"] is None and c["unit"] is None
                          and c["pool_offset"] is None and c["bytes"] > 0 for c in consts)
    assert plan["module_prefix"] == "pw"
    assert plan["platform"]["name"] == "corstone300" and plan["platform"]["kernel_build"] == "mve"
    assert plan["kernel_library"]["weight_sums"] == "precomputed"
    assert plan["schedule"] == {"source": "none", "pool": None, "units": []}
    assert plan["model"]["subgraph"] is not None and plan["model"]["subgraph_index"] == 0


def test_an_absent_optional_input_is_an_empty_name(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (1, 4, 4, 2), scale=0.5, zero_point=0)
    w = b.const("w", np.ones((2, 1, 1, 2), np.int8), dtype="int8", scale=[0.25] * 2, zero_point=0,
                quantized_dimension=0)
    y = b.tensor("y", (1, 4, 4, 2), scale=0.5, zero_point=0)
    b.op("CONV_2D", [x, w, None], [y], {"padding": "VALID", "stride_w": 1, "stride_h": 1})
    b.output(y)
    plan = helia_aot.convert(b.build(), tmp_path / "o", target="host").plan
    assert plan["operators"][0]["inputs"] == ["x", "w", ""]

# SPDX-License-Identifier: Apache-2.0
"""Refusals (and a few lowering choices) of BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND, DEPTH_TO_SPACE,
SPACE_TO_DEPTH, RESIZE_NEAREST_NEIGHBOR, RESIZE_BILINEAR and DILATE: one line naming the operator, the
tensor and the rule."""

from __future__ import annotations

import numpy as np
import pytest

import helia_aot
from helia_aot.errors import UnsupportedModelError
from tests.modelgen import ModelBuilder

QUANT = {"int8": (0.05, 3), "int16": (0.001, 0), "float32": (None, None)}


def model(op, x_shape, out_shape, consts=(), dtype="int8", options=None, out_quant=None):
    """One operator: input 0 is a model input, consts are its (name, value, dtype) constant inputs."""
    b = ModelBuilder()
    x = b.input("x", x_shape, dtype, *QUANT[dtype])
    inputs = [x] + [b.const(name, np.array(value), ct) for name, value, ct in consts]
    y = b.tensor("y", out_shape, dtype, *(out_quant or QUANT[dtype]))
    b.output(y)
    b.op(op, inputs, [y], options)
    return b.build()


def convert(data, tmp_path, **kw):
    return helia_aot.convert(data, tmp_path / "out", target="host", **kw)


def refused(data, tmp_path, pattern):
    with pytest.raises(UnsupportedModelError, match=pattern) as info:
        convert(data, tmp_path)
    assert "\n" not in str(info.value.args[0])
    return str(info.value.args[0])


# ---- BATCH_TO_SPACE_ND ----

def test_batch_to_space_refuses_runtime_block_shape(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [4, 2, 2, 1], "int8", 0.05, 3)
    block = b.input("block_shape", [2], "int32")
    crops = b.const("crops", np.zeros((2, 2), dtype=np.int32), "int32")
    y = b.tensor("y", [1, 4, 4, 1], "int8", 0.05, 3)
    b.output(y)
    b.op("BATCH_TO_SPACE_ND", [x, block, crops], [y])
    refused(b.build(), tmp_path, "BATCH_TO_SPACE_ND.*'block_shape'.*must be a constant tensor")


def test_batch_to_space_refuses_uneven_batch_and_negative_crops(tmp_path):
    refused(model("BATCH_TO_SPACE_ND", [6, 2, 2, 1], [1, 4, 4, 1],
                  [("block_shape", [2, 2], "int32"), ("crops", [[0, 0], [0, 0]], "int32")]),
            tmp_path / "a", r"BATCH_TO_SPACE_ND.*'x'.*batch 6 is not a multiple of the block size 2 x 2")
    refused(model("BATCH_TO_SPACE_ND", [4, 2, 2, 1], [1, 4, 4, 1],
                  [("block_shape", [2, 2], "int32"), ("crops", [[0, 0], [-1, 0]], "int32")]),
            tmp_path / "b", r"'crops'.*must not be negative")


def test_batch_to_space_refuses_rank_5_and_other_output_quantization(tmp_path):
    refused(model("BATCH_TO_SPACE_ND", [4, 2, 2, 1, 1], [1, 4, 4, 1, 1],
                  [("block_shape", [2, 2, 1], "int32"), ("crops", [[0, 0], [0, 0], [0, 0]], "int32")]),
            tmp_path / "a", r"'x'.*3-D \(N, H, C\) or 4-D")
    refused(model("BATCH_TO_SPACE_ND", [4, 2, 2, 1], [1, 4, 4, 1],
                  [("block_shape", [2, 2], "int32"), ("crops", [[0, 0], [0, 0]], "int32")], out_quant=(0.1, 3)),
            tmp_path / "b", "'y'.*share scale and zero point")


def test_batch_to_space_calls_the_entry_for_3d(tmp_path):
    result = convert(model("BATCH_TO_SPACE_ND", [4, 3, 2], [2, 5, 2],
                           [("block_shape", [2], "int32"), ("crops", [[0, 1]], "int32")], dtype="int16"), tmp_path)
    op = result.plan["operators"][0]
    assert op["kernel"]["entry"] == "arm_batch_to_space_nd_s16"
    source = (tmp_path / "out" / "src" / "model_model.c").read_text()
    assert "cmsis_nn_dims input_dims = { 4, 3, 1, 2 }" in source
    assert "block_shape = { 1, 2 }" in source


# ---- SPACE_TO_BATCH_ND ----

def test_space_to_batch_refuses_indivisible_padding_and_negative_padding(tmp_path):
    refused(model("SPACE_TO_BATCH_ND", [1, 5, 4, 1], [4, 3, 2, 1],
                  [("block_shape", [2, 2], "int32"), ("paddings", [[0, 0], [0, 0]], "int32")]),
            tmp_path / "a", r"SPACE_TO_BATCH_ND.*'paddings'.*padded height and width \[5, 4\] are not multiples")
    refused(model("SPACE_TO_BATCH_ND", [1, 4, 4, 1], [4, 2, 2, 1],
                  [("block_shape", [2, 2], "int32"), ("paddings", [[1, -1], [0, 0]], "int32")]),
            tmp_path / "b", r"'paddings'.*must not be negative")


def test_space_to_batch_pads_with_the_zero_point(tmp_path):
    convert(model("SPACE_TO_BATCH_ND", [1, 3, 4, 2], [4, 2, 2, 2],
                  [("block_shape", [2, 2], "int32"), ("paddings", [[1, 0], [0, 0]], "int32")]), tmp_path)
    source = (tmp_path / "out" / "src" / "model_model.c").read_text()
    assert "arm_space_to_batch_nd_s8(" in source
    assert "&output_dims,\n        3);" in source  # the output zero point (QUANT int8)


# ---- DEPTH_TO_SPACE / SPACE_TO_DEPTH ----

def test_depth_to_space_refuses_int16_and_indivisible_channels(tmp_path):
    refused(model("DEPTH_TO_SPACE", [1, 2, 2, 8], [1, 4, 4, 2], dtype="int16", options={"block_size": 2}),
            tmp_path / "a", r"DEPTH_TO_SPACE.*dtypes \(inputs int16; outputs int16\) match no variant")
    refused(model("DEPTH_TO_SPACE", [1, 2, 2, 6], [1, 4, 4, 1], options={"block_size": 2}),
            tmp_path / "b", r"DEPTH_TO_SPACE.*'x'.*channels 6 are not a multiple of block_size\^2 = 4")


def test_space_to_depth_refuses_indivisible_size_and_zero_block(tmp_path):
    refused(model("SPACE_TO_DEPTH", [1, 3, 4, 1], [1, 1, 2, 4], options={"block_size": 2}),
            tmp_path / "a", r"SPACE_TO_DEPTH.*'x'.*height and width 3 x 4 are not multiples of block_size 2")
    refused(model("SPACE_TO_DEPTH", [1, 4, 4, 1], [1, 4, 4, 1], options={"block_size": 0}),
            tmp_path / "b", r"SPACE_TO_DEPTH.*block_size 0 must be at least 1")


# ---- RESIZE_NEAREST_NEIGHBOR ----

def test_resize_nearest_refuses_runtime_size_and_3d(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [1, 2, 2, 1], "int8", 0.05, 3)
    size = b.input("size", [2], "int32")
    y = b.tensor("y", [1, 4, 4, 1], "int8", 0.05, 3)
    b.output(y)
    b.op("RESIZE_NEAREST_NEIGHBOR", [x, size], [y])
    refused(b.build(), tmp_path / "a", "RESIZE_NEAREST_NEIGHBOR.*'size'.*must be a constant tensor")
    refused(model("RESIZE_NEAREST_NEIGHBOR", [2, 2, 1], [4, 4, 1], [("size", [4, 4], "int32")]),
            tmp_path / "b", r"RESIZE_NEAREST_NEIGHBOR.*'x'.*must be 4-D")


def test_resize_nearest_scratch_follows_the_library(tmp_path):
    data = model("RESIZE_NEAREST_NEIGHBOR", [1, 2, 3, 1], [1, 5, 7, 1], [("size", [5, 7], "int32")],
                 options={"align_corners": True})
    ns = convert(data, tmp_path / "a")
    portable = helia_aot.convert(data, tmp_path / "b", target="host", kernel_library="portable")
    assert ns.plan["operators"][0]["kernel"]["entry"] == "arm_resize_nearest_neighbor_s8"
    assert ns.plan["operators"][0]["kernel"]["local_scratch_bytes"] == (5 + 7) * 4
    assert portable.plan["operators"][0]["kernel"]["local_scratch_bytes"] == 0


# ---- RESIZE_BILINEAR ----

def test_resize_bilinear_refuses_both_options_and_an_overshooting_scale(tmp_path):
    refused(model("RESIZE_BILINEAR", [1, 2, 2, 1], [1, 3, 3, 1], [("size", [3, 3], "int32")],
                  options={"align_corners": True, "half_pixel_centers": True}),
            tmp_path / "a", "RESIZE_BILINEAR.*align_corners and half_pixel_centers are both set")
    # height 1 -> 80: the 10-bit scale rounds to 13, and 79 * 13 = 1027 samples row 1 of a 1-row input
    refused(model("RESIZE_BILINEAR", [1, 1, 2, 1], [1, 80, 2, 1], [("size", [80, 2], "int32")]),
            tmp_path / "b", r"RESIZE_BILINEAR.*'size'.*height 1 to 80.*past the input")
    # the float kernel's scale is exact enough: float32 takes it
    convert(model("RESIZE_BILINEAR", [1, 1, 2, 1], [1, 80, 2, 1], [("size", [80, 2], "int32")], dtype="float32"),
            tmp_path / "c")


def test_resize_bilinear_int_tables_follow_litert_fixed_point(tmp_path):
    # 2 -> 3 rows without options: scale (2048 + 1) / 3 = 683; rows at 0, 683, 1366 (1024 + 342)
    convert(model("RESIZE_BILINEAR", [1, 2, 1, 1], [1, 3, 1, 1], [("size", [3, 1], "int32")]), tmp_path)
    constants = (tmp_path / "out" / "src" / "model_constants.c").read_text()
    assert "{0,0,0,0,1,683,1,1,342,}" in "".join(constants.split())


# ---- DILATE ----

def test_dilate_refuses_runtime_and_zero_dilations(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [2, 3], "float32")
    dilations = b.input("dilations", [2], "int32")
    pad = b.const("pad", np.array(0.0, dtype=np.float32), "float32")
    y = b.tensor("y", [3, 5], "float32")
    b.output(y)
    b.op("DILATE", [x, dilations, pad], [y])
    refused(b.build(), tmp_path / "a", "DILATE.*'dilations'.*must be a constant tensor")
    refused(model("DILATE", [2, 3], [2, 3], [("dilations", [1, 0], "int32"), ("pad", np.float32(0), "float32")],
                  dtype="float32"), tmp_path / "b", r"DILATE.*'dilations'.*\[1, 0\] must be at least 1")


def test_dilate_copies_blocks_of_undilated_trailing_dimensions(tmp_path):
    convert(model("DILATE", [2, 3, 4], [3, 3, 4], [("dilations", [2, 1, 1], "int32"), ("pad", np.int8(1), "int8")]),
            tmp_path)
    source = (tmp_path / "out" / "src" / "model_model.c").read_text()
    assert "memcpy(out + i0 * 24, in + i0 * 12, 12u * sizeof(int8_t));" in source


# ---- constant folding: an operator on constants runs at conversion, as LiteRT computes it ----

FOLD_CASES = {
    "BATCH_TO_SPACE_ND": ([8, 2, 3, 1], [2, 3, 6, 1],
                          [("block_shape", [2, 2], "int32"), ("crops", [[1, 0], [0, 0]], "int32")], None),
    "SPACE_TO_BATCH_ND": ([1, 3, 5, 2], [6, 2, 2, 2],
                          [("block_shape", [2, 3], "int32"), ("paddings", [[0, 1], [1, 0]], "int32")], None),
    "DEPTH_TO_SPACE": ([1, 2, 3, 8], [1, 4, 6, 2], [], {"block_size": 2}),
    "SPACE_TO_DEPTH": ([2, 4, 2, 3], [2, 2, 1, 12], [], {"block_size": 2}),
    "RESIZE_NEAREST_NEIGHBOR": ([1, 3, 4, 2], [1, 7, 5, 2], [("size", [7, 5], "int32")],
                                {"align_corners": True}),
    "DILATE": ([2, 3, 2], [3, 7, 2], [("dilations", [2, 3, 1], "int32"), ("pad", np.float32(-1.5), "float32")],
               None),
}


@pytest.mark.parametrize("op", sorted(FOLD_CASES))
def test_constant_operator_folds_to_litert_values(tmp_path, op):
    from tests.modelgen.litert import run_reference
    in_shape, out_shape, consts, options = FOLD_CASES[op]
    b = ModelBuilder()
    x = b.const("x", np.arange(np.prod(in_shape), dtype=np.float32).reshape(in_shape) * 0.5 - 3, "float32")
    t = b.tensor("t", out_shape, "float32")
    b.op(op, [x] + [b.const(name, np.array(value), ct) for name, value, ct in consts], [t], options)
    zeros = b.input("zeros", out_shape, "float32")
    y = b.tensor("y", out_shape, "float32")
    b.output(y)
    b.op("ADD", [t, zeros], [y])
    data = b.build()
    want = run_reference(data, [np.zeros(out_shape, dtype=np.float32)])[0]
    result = convert(data, tmp_path)
    assert [o["op_type"] for o in result.plan["operators"]] == ["ADD"]
    text = (tmp_path / "out" / "src" / "model_constants.c").read_text()
    body = text.split("'t'", 1)[1].split("{", 1)[1].split("}", 1)[0]
    got = np.array([float(v.strip().rstrip("f")) for v in body.split(",") if v.strip()], dtype=np.float32)
    np.testing.assert_array_equal(got, want.reshape(-1))


def test_resize_nearest_realigns_scratch_in_a_two_byte_aligned_arena(tmp_path):
    targets = tmp_path / "targets.yaml"
    targets.write_text("targets:\n  - name: odd\n    cpu: cortex-m7\n    capabilities: [dsp, fpu]\n"
                       "    memories:\n      - {name: SRAM, size: 65536}\n      - {name: FLASH, size: 1048576, "
                       "writable: false}\n    scratch_memory: SRAM\n    constant_memory: FLASH\n"
                       "    arena_alignment: 2\n")
    config = tmp_path / "config.yaml"
    config.write_text(f"target:\n  file: {targets}\n  name: odd\n")
    data = model("RESIZE_NEAREST_NEIGHBOR", [1, 2, 3, 1], [1, 5, 7, 1], [("size", [5, 7], "int32")])
    result = helia_aot.convert(data, tmp_path / "out", config=str(config))
    assert result.plan["operators"][0]["kernel"]["local_scratch_bytes"] == (5 + 7) * 4 + 3
    source = (tmp_path / "out" / "src" / "model_model.c").read_text()
    assert "+ 3u) & ~(uintptr_t)3u), 48 };" in source

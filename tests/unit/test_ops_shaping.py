# SPDX-License-Identifier: Apache-2.0
"""SLICE, SPLIT, SPLIT_V, PACK, UNPACK, TILE, BROADCAST_TO, FILL, ZEROS_LIKE, SHAPE and CAST: the refusals
(one line naming the operator, the tensor and the rule) and the emitted calls."""

from __future__ import annotations

import numpy as np
import pytest

import helia_aot
from helia_aot.errors import UnsupportedModelError
from tests.modelgen import ModelBuilder

from .helpers import function_body


def convert(b: ModelBuilder, tmp_path, target="host"):
    out = tmp_path / "out"
    result = helia_aot.convert(b.build(), out, target=target)
    return result, (out / "src" / "model_model.c").read_text()


def refused(b: ModelBuilder, tmp_path) -> str:
    with pytest.raises(UnsupportedModelError) as info:
        helia_aot.convert(b.build(), tmp_path / "out", target="host")
    message = str(info.value).splitlines()[0]
    return message


# -- SLICE --

def _slice_model(begin, size, out_shape, dtype="int8", in_shape=(4, 5)):
    b = ModelBuilder()
    q = (0.1, 0) if dtype in ("int8", "int16") else (None, None)
    x = b.input("x", list(in_shape), dtype, *q)
    y = b.tensor("y", out_shape, dtype, *q)
    b.output(y)
    b.op("SLICE", [x, b.const("begin", np.array(begin, np.int32)), b.const("size", np.array(size, np.int32))], [y])
    return b


def test_slice_calls_strided_slice_with_stride_one(tmp_path):
    result, model_c = convert(_slice_model([1, 2], [2, -1], [2, 3]), tmp_path)
    body = function_body(model_c, 0)
    assert "arm_strided_slice_s8(" in body
    assert "begin_dims = { 0, 0, 1, 2 }" in body and "stride_dims = { 1, 1, 1, 1 }" in body
    assert "output_dims = { 1, 1, 2, 3 }" in body


def test_slice_bool_is_inline(tmp_path):
    _, model_c = convert(_slice_model([1, 2], [2, 3], [2, 3], "bool"), tmp_path)
    body = function_body(model_c, 0)
    assert "arm_" not in body.replace("ARM_CMSIS_NN_SUCCESS", "")
    assert "input[7 + i0 * 5 + i1 * 1]" in body  # row 1, column 2 of a 4x5 input


def test_slice_refuses_a_box_outside_the_input(tmp_path):
    message = refused(_slice_model([3, 0], [2, 5], [2, 5]), tmp_path)
    assert "SLICE" in message and "tensor 'size'" in message
    assert "axis 0: begin 3 and size 2 leave the dimension of 4" in message


def test_slice_refuses_a_runtime_begin(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [4, 5], "int8", 0.1, 0)
    begin = b.input("begin", [2], "int32")
    y = b.tensor("y", [2, 2], "int8", 0.1, 0)
    b.output(y)
    b.op("SLICE", [x, begin, b.const("size", np.array([2, 2], np.int32))], [y])
    message = refused(b, tmp_path)
    assert "SLICE" in message and "tensor 'begin'" in message and "must be a constant tensor" in message


# -- SPLIT / SPLIT_V --

def _split_model(shape, axis, pieces, dtype="int8", axis_input=False):
    b = ModelBuilder()
    q = (0.1, 0) if dtype in ("int8", "int16") else (None, None)
    a = b.input("axis", [], "int32") if axis_input else b.const("axis", np.array(axis, np.int32))
    x = b.input("x", shape, dtype, *q)
    ys = []
    for k, p in enumerate(pieces):
        ys.append(b.tensor(f"y{k}", p, dtype, *q))
        b.output(ys[-1])
    b.op("SPLIT", [a, x], ys, {"num_splits": len(pieces)})
    return b


def test_split_calls_arm_split_with_every_output(tmp_path):
    result, model_c = convert(_split_model([2, 6], -1, [[2, 3], [2, 3]], "int16"), tmp_path)
    body = function_body(model_c, 0)
    assert "arm_split_s16(" in body and "split_dims[2] = { 3, 3 }" in body
    assert body.count("(int16_t *)(arena + ") == 3  # the input and both outputs
    assert ", 2, input_shape, 1, 2," in body  # rank 2, axis -1 -> 1, two pieces


def test_split_float32_is_row_copies(tmp_path):
    _, model_c = convert(_split_model([2, 6], 1, [[2, 2]] * 3, "float32"), tmp_path)
    body = function_body(model_c, 0)
    assert body.count("memcpy(") == 3 and "arm_split" not in body


def test_split_refuses_a_runtime_axis(tmp_path):
    message = refused(_split_model([2, 6], 1, [[2, 3], [2, 3]], axis_input=True), tmp_path)
    assert "SPLIT" in message and "tensor 'axis'" in message and "must be a constant tensor" in message


def test_split_refuses_uneven_pieces(tmp_path):
    message = refused(_split_model([2, 7], 1, [[2, 3], [2, 4]]), tmp_path)
    assert "SPLIT" in message and "tensor 'x'" in message and "axis 1 of size 7 does not split into 2 equal" in message


def test_split_v_refuses_two_unknown_sizes(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [2, 6], "int8", 0.1, 0)
    ys = [b.tensor(f"y{k}", [2, 3], "int8", 0.1, 0) for k in range(2)]
    for y in ys:
        b.output(y)
    b.op("SPLIT_V", [x, b.const("size_splits", np.array([-1, -1], np.int32)), b.const("axis", np.array(1, np.int32))],
         ys, {"num_splits": 2})
    message = refused(b, tmp_path)
    assert "SPLIT_V" in message and "tensor 'size_splits'" in message and "may hold one -1" in message


# -- PACK / UNPACK --

def test_pack_negative_axis_copies_each_input_into_its_slot(tmp_path):
    b = ModelBuilder()
    xs = [b.input(f"x{k}", [2, 3], "float32") for k in range(2)]
    y = b.tensor("y", [2, 3, 2], "float32")
    b.output(y)
    b.op("PACK", xs, [y], {"values_count": 2, "axis": -1})
    body = function_body(convert(b, tmp_path)[1], 0)
    # axis -1 of the rank-3 output: 6 runs of one float per input, 8 bytes apart, input k at byte 4k
    assert body.count("memcpy(") == 2
    assert "k * 8 + 0," in body and "k * 8 + 4," in body and "k < 6" in body


def test_pack_refuses_inputs_of_different_shapes(tmp_path):
    b = ModelBuilder()
    xs = [b.input("x0", [2, 3], "int8", 0.1, 0), b.input("x1", [3, 2], "int8", 0.1, 0)]
    y = b.tensor("y", [2, 2, 3], "int8", 0.1, 0)
    b.output(y)
    b.op("PACK", xs, [y], {"values_count": 2, "axis": 0})
    message = refused(b, tmp_path)
    assert "PACK" in message and "tensor 'x1'" in message and "differs from the first input's [2, 3]" in message


def test_unpack_refuses_an_axis_outside_the_rank(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [2, 3], "int8", 0.1, 0)
    ys = [b.tensor(f"y{k}", [3], "int8", 0.1, 0) for k in range(2)]
    for y in ys:
        b.output(y)
    b.op("UNPACK", [x], ys, {"num": 2, "axis": -3})
    message = refused(b, tmp_path)
    assert "UNPACK" in message and "tensor 'x'" in message and "axis -3 is outside [-2, 2)" in message


# -- TILE / BROADCAST_TO --

def _repeat_model(op, shape, second, out_shape, dtype="int8", runtime=False):
    b = ModelBuilder()
    q = (0.1, 0) if dtype in ("int8", "int16") else (None, None)
    x = b.input("x", shape, dtype, *q)
    name = "multiples" if op == "TILE" else "shape"
    s = b.input(name, [len(second)], "int32") if runtime else b.const(name, np.array(second, np.int32))
    y = b.tensor("y", out_shape, dtype, *q)
    b.output(y)
    b.op(op, [x, s], [y], version=2 if op == "BROADCAST_TO" else None)
    return b


def test_tile_calls_arm_tile(tmp_path):
    body = function_body(convert(_repeat_model("TILE", [2, 3], [2, 1], [4, 3], "int16"), tmp_path)[1], 0)
    assert "arm_tile_s16(" in body and "multiples[2] = { 2, 1 }" in body and "input_shape[2] = { 2, 3 }" in body


def test_tile_float32_wraps_the_input_index(tmp_path):
    body = function_body(convert(_repeat_model("TILE", [2, 3], [2, 2], [4, 6], "float32"), tmp_path)[1], 0)
    assert "input[0 + (i0 % 2) * 3 + (i1 % 3) * 1]" in body


def test_tile_refuses_runtime_multiples(tmp_path):
    message = refused(_repeat_model("TILE", [2, 3], [2, 1], [4, 3], runtime=True), tmp_path)
    assert "TILE" in message and "tensor 'multiples'" in message and "must be a constant tensor" in message


def test_broadcast_to_pads_the_input_shape(tmp_path):
    body = function_body(convert(_repeat_model("BROADCAST_TO", [3, 1], [2, 3, 4], [2, 3, 4]), tmp_path)[1], 0)
    assert "arm_broadcast_to_s8(" in body and "input_shape[3] = { 1, 3, 1 }" in body


def test_broadcast_to_refuses_shapes_that_do_not_broadcast(tmp_path):
    message = refused(_repeat_model("BROADCAST_TO", [3, 2], [3, 4], [3, 4]), tmp_path)
    assert "BROADCAST_TO" in message and "tensor 'shape'" in message
    assert "input shape [3, 2] does not broadcast to [3, 4]" in message


# -- FILL / ZEROS_LIKE --

def test_fill_stores_the_runtime_scalar(tmp_path):
    b = ModelBuilder()
    v = b.input("value", [], "int16", 0.01, 0)
    y = b.tensor("y", [2, 3], "int16", 0.01, 0)
    b.output(y)
    b.op("FILL", [b.const("dims", np.array([2, 3], np.int32)), v], [y])
    body = function_body(convert(b, tmp_path)[1], 0)
    assert "const int16_t value = *(const int16_t *)(int16_t *)(arena + " in body and "i < 6" in body


@pytest.mark.parametrize("dtype, quant", [("int16", (0.1, 0)), ("uint8", (0.1, 128)), ("bool", (None, None))])
def test_zeros_like_refuses_what_both_references_refuse(tmp_path, dtype, quant):
    b = ModelBuilder()
    x = b.input("x", [3, 5], dtype, *quant)
    y = b.tensor("y", [3, 5], dtype, *quant)
    b.output(y)
    b.op("ZEROS_LIKE", [x], [y])
    message = refused(b, tmp_path)
    assert (f"(ZEROS_LIKE, index 0), tensor 'x': {dtype} ZEROS_LIKE is not computed by LiteRT or TFLM (LiteRT and "
            "TFLM: zeros_like.cc Eval (LiteRT) / zeros_like.cc Eval (TFLM)). Keep the tensor in int32") in message, message


def test_zeros_like_int8_writes_code_zero(tmp_path):
    # LiteRT's reference refuses int8, TFLM's runs it; TensorFlow's zeros_like of integers is integer 0 (not the
    # zero point). Against TFLM: tests/e2e/cases/zeros_like_int8_rank3.yaml.
    b = ModelBuilder()
    x = b.input("x", [3, 5], "int8", 0.1, 7)
    y = b.tensor("y", [3, 5], "int8", 0.1, 7)
    b.output(y)
    b.op("ZEROS_LIKE", [x], [y])
    result, model_c = convert(b, tmp_path)
    assert "memset((int8_t *)(arena + " in function_body(model_c, 0) and ", 0, 15);" in function_body(model_c, 0)
    assert result.plan["operators"][0]["variant"] == "int8"


# -- SHAPE / CAST --

def test_shape_is_a_constant_copy(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [1, 5, 3], "float32")
    y = b.tensor("y", [3], "int64")
    b.output(y)
    b.op("SHAPE", [x], [y], {"out_type": 4})
    out = tmp_path / "out"
    helia_aot.convert(b.build(), out, target="host")
    body = function_body((out / "src" / "model_model.c").read_text(), 0)
    assert "memcpy((int64_t *)(arena + " in body and "model_op0_shape, 24);" in body
    assert "1LL, 5LL, 3LL" in (out / "src" / "model_constants.c").read_text()


def test_shape_writes_the_output_tensors_dtype_whatever_out_type_names(tmp_path):
    # TFLM never reads out_type (LiteRT retypes the output): the module writes the declared int32.
    # Against TFLM: tests/e2e/cases/shape_int32_out_type_int64.yaml.
    b = ModelBuilder()
    x = b.input("x", [2, 3], "int8", 0.1, 0)
    y = b.tensor("y", [2], "int32")
    b.output(y)
    b.op("SHAPE", [x], [y], {"out_type": 4})
    out = tmp_path / "out"
    result = helia_aot.convert(b.build(), out, target="host")
    assert result.outputs[0].dtype == "int32"
    assert "2, 3" in (out / "src" / "model_constants.c").read_text()
    assert "LL" not in (out / "src" / "model_constants.c").read_text()


def test_cast_float_to_int_saturates_and_truncates(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [4], "float32")
    y = b.tensor("y", [4], "int16", 1.0, 0)
    b.output(y)
    b.op("CAST", [x], [y])
    body = function_body(convert(b, tmp_path)[1], 0)
    assert "(x != x || x >= 32768.0f) ? (int16_t)32767 : (x <= -32769.0f ? (int16_t)(-32768) : (int16_t)x)" in body


def test_cast_refuses_a_reshaping_output(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [2, 3], "int32")
    y = b.tensor("y", [7], "float32")
    b.output(y)
    b.op("CAST", [x], [y])
    message = refused(b, tmp_path)
    assert "CAST" in message and "tensor 'y'" in message and "holds 7 elements, the input [2, 3] 6" in message


def test_cast_refuses_float16(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [2], "float16")
    y = b.tensor("y", [2], "float32")
    b.output(y)
    b.op("CAST", [x], [y])
    message = refused(b, tmp_path)
    assert "CAST" in message and "match no variant" in message


# -- folding at conversion time --

def test_constant_subgraphs_fold(tmp_path):
    """A constant through CAST (float -> int16 truncates and saturates), TILE and SPLIT folds away; the
    PACK that consumes it reads the folded values."""
    b = ModelBuilder()
    x = b.input("x", [4], "int16", 1.0, 0)
    c = b.const("c", np.array([1.7, -2.9, 40000.0, -5.5], np.float32))
    as_int = b.tensor("as_int", [4], "int16", 1.0, 0)
    b.op("CAST", [c], [as_int])
    tiled = b.tensor("tiled", [8], "int16", 1.0, 0)
    b.op("TILE", [as_int, b.const("m", np.array([2], np.int32))], [tiled])
    halves = [b.tensor(f"half{k}", [4], "int16", 1.0, 0) for k in range(2)]
    b.op("SPLIT", [b.const("axis", np.array(0, np.int32)), tiled], halves, {"num_splits": 2})
    y = b.tensor("y", [2, 4], "int16", 1.0, 0)
    b.output(y)
    b.op("PACK", [x, halves[1]], [y], {"values_count": 2, "axis": 0})
    result, model_c = convert(b, tmp_path)
    assert [op["op_type"] for op in result.plan["operators"]] == ["PACK"]
    constants_c = (tmp_path / "out" / "src" / "model_constants.c").read_text()
    assert "1, -2, 32767, -5," in constants_c


def _transpose(shape, perm) -> ModelBuilder:
    b = ModelBuilder()
    x = b.input("x", shape, "int8", scale=0.1, zero_point=0)
    y = b.tensor("y", [shape[p] for p in perm], "int8", scale=0.1, zero_point=0)
    b.op("TRANSPOSE", [x, b.const("perm", np.asarray(perm, np.int32))], [y])
    b.output(y)
    return b


def test_transpose_repeated_axis_reading_past_the_input_is_reference_undefined(tmp_path):
    # LiteRT's strided gather: output (o0, o1, o2) reads input o0 * 12 + o1 * 12 + o2 * 12, up to 36 of 24.
    message = refused(_transpose([2, 3, 4], [0, 0, 0]), tmp_path)
    assert "perm [0, 0, 0] repeats an axis: LiteRT's strided gather reads input element 36 of 24" in message
    assert "(reference undefined: transpose.cc" in message


def test_transpose_repeated_axis_within_the_input_is_our_limit(tmp_path):
    # [2, 2, 0]: offsets o0 + o1 + 12 * o2 stay below 24, so LiteRT defines the output; no gather is written.
    message = refused(_transpose([2, 3, 4], [2, 2, 0]), tmp_path)
    assert "perm [2, 2, 0] is not a permutation" in message and "(helia-aot limit)" in message

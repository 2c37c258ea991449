# SPDX-License-Identifier: Apache-2.0
"""Refusals and lowering choices of the comparison, logical, reduction, ARG_MAX / ARG_MIN, SELECT_V2 and WHERE
operators: single-operator models built with tests.modelgen, converted, and the one-line message or the emitted
call checked."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

import helia_aot
from helia_aot.errors import UnsupportedModelError
from tests.modelgen import ModelBuilder

from .helpers import build_host_module, function_body


def convert(builder: ModelBuilder, tmp_path, **kw):
    out = tmp_path / "out"
    result = helia_aot.convert(builder.build(), out, target="host", **kw)
    return result, (out / "src" / "model_model.c").read_text()


def refusal(builder: ModelBuilder, tmp_path) -> str:
    with pytest.raises(UnsupportedModelError) as info:
        helia_aot.convert(builder.build(), tmp_path / "out", target="host")
    message = str(info.value)
    assert "\n" not in message
    return message


def comparison_model(op, dtype, shape1, shape2, out_shape, scales=(0.05, 0.05)):
    b = ModelBuilder()
    quant = dtype in ("int8", "int16")
    a = b.input("a", shape1, dtype, scales[0] if quant else None, 0 if quant else None)
    c = b.input("c", shape2, dtype, scales[1] if quant else None, 0 if quant else None)
    y = b.tensor("y", out_shape, "bool")
    b.output(y)
    b.op(op, [a, c], [y])
    return b


# ---- comparisons ----

def test_comparison_int8_calls_the_named_entry_with_litert_rescaling(tmp_path):
    result, source = convert(comparison_model("GREATER", "int8", [2, 3], [2, 3], [2, 3], (0.5, 0.25)), tmp_path)
    body = function_body(source, 0)
    # scale 0.5 -> multiplier 2^30, shift 0; 0.25 -> 2^30, shift -1; left shift 8
    assert "arm_greater_s8(" in body and f"0, {2**30}, 0, 0, {2**30}, -1, 8);" in body


def test_comparison_int16_less_compares_raw_codes(tmp_path):
    _, source = convert(comparison_model("LESS", "int16", [4], [4], [4], (0.001, 0.002)), tmp_path)
    assert f"0, {2**30}, 1, 0, {2**30}, 1, 0);" in function_body(source, 0)


def test_comparison_takes_a_scale_of_one_or_more_as_litert_does(tmp_path):
    # LiteRT runs it (tests/e2e/test_differential.py matches such cases): scale 2 rescales by 2^30 with a left
    # shift of 2, the kernels take it.
    _, source = convert(comparison_model("EQUAL", "int8", [3], [3], [3], (2.0, 0.5)), tmp_path)
    assert f"{2**30}, 2, " in function_body(source, 0)


def test_comparison_broadcasts_at_rank_5_in_the_inline_loop(tmp_path):
    # LiteRT broadcasts comparisons at any rank (matched by tests/e2e/test_differential.py); plain values run the
    # inline loop over the merged dims, int8 past four merged groups too (the plan says why).
    _, source = convert(comparison_model("LESS", "float32", [2, 1, 2, 2, 2], [2, 2], [2, 1, 2, 2, 2]), tmp_path)
    assert "*out++ = (uint8_t)(a < b);" in function_body(source, 0)
    result, source = convert(comparison_model("LESS", "int8", [2, 1, 2, 1, 2, 3], [1, 2, 1, 2, 1, 3],
                                              [2, 2, 2, 2, 2, 3]), tmp_path / "q")
    assert result.plan["operators"][0]["fixed"]["why"] == "the broadcast needs more than four merged dimensions"
    assert "(uint8_t)(scaled1 < scaled2)" in function_body(source, 0)


def test_comparison_refuses_unquantized_int16_not_equal(tmp_path):
    b = ModelBuilder()
    a, c = b.input("a", [3], "int16"), b.input("c", [3], "int16")
    y = b.tensor("y", [3], "bool")
    b.output(y)
    b.op("NOT_EQUAL", [a, c], [y])
    assert "unquantized int16 NOT_EQUAL" in refusal(b, tmp_path)


def test_comparison_refuses_bool_ordering(tmp_path):
    message = refusal(comparison_model("LESS", "bool", [3], [3], [3]), tmp_path)
    assert "LESS" in message and "match no variant" in message


# ---- logical ----

def test_logical_broadcasts_at_rank_5_as_litert(tmp_path):
    # LiteRT runs it (measured by tests/e2e/differential_ops/elementwise.py): the merged-dimension loop
    b = ModelBuilder()
    a, c = b.input("a", [2, 1, 2, 2, 2], "bool"), b.input("c", [2, 2], "bool")
    y = b.tensor("y", [2, 1, 2, 2, 2], "bool")
    b.output(y)
    b.op("LOGICAL_OR", [a, c], [y])
    _, source = convert(b, tmp_path)
    assert "*out++ = (uint8_t)(a || b);" in function_body(source, 0)


def test_logical_refuses_non_bool(tmp_path):
    b = ModelBuilder()
    a = b.input("a", [3], "int32")
    y = b.tensor("y", [3], "bool")
    b.output(y)
    b.op("LOGICAL_NOT", [a], [y])
    assert "LOGICAL_NOT takes bool tensors, tensor 'a' is int32 (LiteRT: logical.cc" in refusal(b, tmp_path)


# ---- reductions ----

def reduce_model(op, dtype, shape, axes, out_shape, keep=False, in_q=(0.1, 0), out_q=(0.1, 0)):
    b = ModelBuilder()
    quant = dtype in ("int8", "int16")
    x = b.input("x", shape, dtype, *(in_q if quant else (None, None)))
    axis = b.const("axis", np.array(axes, dtype=np.int32), "int32")
    y = b.tensor("y", out_shape, dtype, *(out_q if quant else (None, None)))
    b.output(y)
    b.op(op, [x, axis], [y], {"keep_dims": keep})
    return b


def test_reduce_max_int8_calls_the_entry_with_merged_dims(tmp_path):
    # axes 0 and 2 (given as 0, -2, 2) of [2, 3, 1, 4]: axis 2 has size 1 and drops out, 3 and 4 merge
    _, source = convert(reduce_model("REDUCE_MAX", "int8", [2, 3, 1, 4], [0, -2, 2], [1, 3, 1, 4], keep=True),
                        tmp_path)
    body = function_body(source, 0)
    assert "arm_reduce_max_s8(" in body
    assert "input_dims = { 1, 1, 2, 12 }" in body and "axis_dims = { 0, 0, 1, 0 }" in body


def test_reduce_max_refuses_requantization(tmp_path):
    message = refusal(reduce_model("REDUCE_MAX", "int8", [4, 3], [1], [4], out_q=(0.2, 0)), tmp_path)
    assert "REDUCE_MAX" in message and "tensor 'y'" in message and "share scale and zero point" in message


def test_reduce_refuses_axis_out_of_range(tmp_path):
    message = refusal(reduce_model("REDUCE_MIN", "float32", [4, 3], [2], [4]), tmp_path)
    assert "REDUCE_MIN" in message and "tensor 'axis'" in message and "axis 2 is outside [-2, 2)" in message


def test_reduce_five_alternating_groups_run_inline(tmp_path):
    """Five reduced / kept groups do not fit the kernels' 4-D dims: the int8 entry gives way to the inline loop."""
    _, source = convert(reduce_model("REDUCE_MIN", "int8", [2, 3, 2, 3, 2], [0, 2, 4], [3, 3]), tmp_path)
    body = function_body(source, 0)
    assert "arm_reduce_min_s8" not in body and "r4 < 2" in body and "o1 < 3" in body


def test_sum_int16_rescales_as_tflm_with_its_zero_points(tmp_path):
    # TFLM's QuantizedMeanOrSum<int16>: the int32 sum rescaled and clamped to int16 (bit-identical to TFLM:
    # tests/e2e/cases/sum_int16_rescaled.yaml; LiteRT's int16 SUM is wrong). A zero point, which LiteRT refuses
    # and TFLM subtracts (matched by tests/e2e/test_differential.py), enters as count x zero point.
    _, source = convert(reduce_model("SUM", "int16", [4, 3], [1], [4], in_q=(0.001, 0), out_q=(0.003, 0)), tmp_path)
    body = function_body(source, 0)
    assert "scaled < -32768 ? -32768" in body and "(int16_t)scaled" in body
    _, source = convert(reduce_model("SUM", "int16", [4, 3], [1], [4], in_q=(0.001, 2), out_q=(0.003, -5)),
                        tmp_path / "zp")
    body = function_body(source, 0)
    assert "acc - 6" in body and "scaled += -5;" in body


def test_sum_float32_calls_reduce_sum_entry(tmp_path):
    model = reduce_model("SUM", "float32", [2, 3, 4], [1], [2, 4])
    result, source = convert(model, tmp_path / "p", kernel_library="portable")
    body = function_body(source, 0)
    assert "arm_reduce_sum_f32(" in body and "axis_dims = { 0, 2, 3, 4 }" not in body
    assert "input_dims = { 1, 2, 3, 4 }" in body and "axis_dims = { 0, 0, 1, 0 }" in body
    # ns-cmsis-nn 7.29.2 has no arm_reduce_sum_f32: the inline loop, the same sums in the same order.
    result, source = convert(model, tmp_path / "ns")
    assert result.plan["operators"][0]["fixed"]["why"].endswith("has no arm_reduce_sum_f32")
    assert "arm_reduce_sum_f32" not in source and "acc += v;" in function_body(source, 0)


def test_reduce_prod_int8_rescales_after_every_multiply(tmp_path):
    _, source = convert(reduce_model("REDUCE_PROD", "int8", [3, 4], [1], [3], in_q=(0.02, 0), out_q=(0.05, 0)),
                        tmp_path)
    body = function_body(source, 0)
    assert "first ?" in body and "(int64_t)acc *" in body  # the first input starts the product, each next rescales


def test_reduce_any_refuses_non_bool(tmp_path):
    message = refusal(reduce_model("REDUCE_ANY", "float32", [3, 4], [1], [3]), tmp_path)
    assert "REDUCE_ANY" in message and "match no variant" in message


# ---- ARG_MAX / ARG_MIN ----

def arg_model(op, dtype, shape, axis, out_shape, out_dtype="int32", output_type=2):
    b = ModelBuilder()
    quant = dtype == "int8"
    x = b.input("x", shape, dtype, 0.1 if quant else None, 0 if quant else None)
    a = b.const("axis", np.array([axis], dtype=np.int32), "int32")
    y = b.tensor("y", out_shape, out_dtype)
    b.output(y)
    b.op(op, [x, a], [y], {"output_type": output_type})
    return b


def test_arg_max_int8_int32_calls_the_entry(tmp_path):
    _, source = convert(arg_model("ARG_MAX", "int8", [2, 5, 3], -2, [2, 3]), tmp_path)
    body = function_body(source, 0)
    assert "arm_argmax_s8(" in body and "input_dims = { 1, 2, 5, 3 }" in body


def test_arg_min_int8_int64_is_inline(tmp_path):
    _, source = convert(arg_model("ARG_MIN", "int8", [2, 5, 3], 1, [2, 3], "int64", 4), tmp_path)
    body = function_body(source, 0)
    assert "arm_argmin_s8" not in body and "int64_t *out" in body


def test_arg_refuses_int16(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [4, 3], "int16", 0.001, 0)
    a = b.const("axis", np.array([1], dtype=np.int32), "int32")
    y = b.tensor("y", [4], "int32")
    b.output(y)
    b.op("ARG_MAX", [x, a], [y], {"output_type": 2})
    message = refusal(b, tmp_path)
    assert "ARG_MAX" in message and "match no variant" in message


def test_arg_writes_the_output_tensors_dtype_whatever_output_type_names(tmp_path):
    # TFLM reads the tensor's type, never output_type (LiteRT retypes the output to it, same indices).
    # Against TFLM: tests/e2e/cases/arg_max_int8_output_type_int64_int32_tensor.yaml.
    out = tmp_path / "out"
    result = helia_aot.convert(arg_model("ARG_MAX", "float32", [4, 3], 1, [4], "int32", 4).build(), out, target="host")
    assert result.outputs[0].dtype == "int32"
    assert "int64_t" not in (out / "src" / "model_model.c").read_text()


# ---- SELECT_V2 ----

def select_model(dtype, shapes, out_shape):
    b = ModelBuilder()
    quant = dtype in ("int8", "int16")
    c = b.input("c", shapes[0], "bool")
    x = b.input("x", shapes[1], dtype, 0.1 if quant else None, 0 if quant else None)
    y = b.input("y", shapes[2], dtype, 0.1 if quant else None, 0 if quant else None)
    out = b.tensor("out", out_shape, dtype, 0.1 if quant else None, 0 if quant else None)
    b.output(out)
    b.op("SELECT_V2", [c, x, y], [out])
    return b


def test_select_v2_int8_passes_broadcast_strides(tmp_path):
    result, source = convert(select_model("int8", [[3, 1], [1, 4], [3, 4]], [3, 4]), tmp_path)
    assert "arm_select_v2_s8(" in function_body(source, 0)
    constants = (tmp_path / "out" / "src" / "model_constants.c").read_text()
    assert "1, 0" in constants and "0, 1" in constants and "4, 1" in constants  # condition, x and y strides


def test_select_v2_float32_inline_walks_rank_5(tmp_path):
    _, source = convert(select_model("float32", [[2, 1, 3, 1, 1], [3, 4, 2], [1]], [2, 1, 3, 4, 2]), tmp_path)
    body = function_body(source, 0)
    assert "i4 < 2" in body and "cond[at_c] ? x[at_x] : y[at_y]" in body


def test_select_v2_broadcasts_past_rank_5_as_litert(tmp_path):
    # LiteRT runs a rank-6 broadcast (measured by tests/e2e/differential_ops/elementwise.py)
    _, source = convert(select_model("float32", [[2, 1, 1, 1, 1, 2], [2], [1]], [2, 1, 1, 1, 1, 2]), tmp_path)
    assert "i5 < 2" in function_body(source, 0)


def test_select_v2_int8_broadcasts_at_rank_8_on_the_entry(tmp_path):
    shape = [2, 1, 1, 1, 1, 1, 1, 2]
    _, source = convert(select_model("int8", [shape, [2], [1]], shape), tmp_path)
    assert "arm_select_v2_s8(" in function_body(source, 0)


# ---- WHERE ----

@pytest.mark.parametrize("declared_rows", [1, 6])
def test_where_of_a_runtime_condition_gets_a_row_for_every_element(tmp_path, declared_rows):
    # LiteRT resizes the output to the true elements whatever the model declares; the module gives it room for
    # every element ([6, 2]) and pads the rows past the count with -1, which the interface and header say.
    b = ModelBuilder()
    c = b.input("c", [2, 3], "bool")
    y = b.tensor("y", [declared_rows, 2], "int64")
    b.output(y)
    b.op("WHERE", [c], [y])
    result, source = convert(b, tmp_path)
    (output,) = result.plan["interface"]["outputs"]
    assert (output["shape"], output["bytes"], output["row_padding"]) == ([6, 2], 96, -1)
    assert result.plan["interface"]["inputs"][0]["row_padding"] is None
    header = (tmp_path / "out" / "include" / "model_model.h").read_text()
    assert "#define MODEL_OUTPUT0_ROW_PADDING (-1)" in header and "#define MODEL_OUTPUT0_DIM0 (6)" in header
    assert "out[i] = -1;" in source
    readme = (tmp_path / "out" / "README.md").read_text()
    assert "every element of the rows after them is -1 (`MODEL_OUTPUT0_ROW_PADDING`)" in readme


def test_where_of_a_runtime_condition_passes_its_golden_test(tmp_path):
    # The golden data restores the rows LiteRT resizes away as the module pads them, and the generated harness
    # (host build, ASan/UBSan) finds the module equal to it on every sample.
    b = ModelBuilder()
    c = b.input("c", [2, 3], "int8", scale=0.1, zero_point=0)
    y = b.tensor("y", [1, 2], "int64")
    b.output(y)
    b.op("WHERE", [c], [y])
    out = tmp_path / "out"
    helia_aot.convert(b.build(), out, target="host", with_test_data=True, num_test_samples=4)
    golden = np.load(out / "test" / "golden.npz")
    for condition, coordinates in zip(golden["input_0"], golden["output_0"]):
        count = int(np.count_nonzero(condition))
        np.testing.assert_array_equal(coordinates[:count], np.argwhere(condition != 0))
        assert (coordinates[count:] == -1).all()
    exe = build_host_module(out, (out / "test" / "model_test_main.c").read_text(), (),
                            extra_sources=[out / "test" / "model_test_data.c"])
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and "PASS: 4 samples" in run.stdout, run.stdout + run.stderr


def test_where_of_a_runtime_condition_read_by_another_operator_is_refused(tmp_path):
    b = ModelBuilder()
    c = b.input("c", [2, 3], "bool")
    y = b.tensor("y", [6, 2], "int64")
    b.op("WHERE", [c], [y])
    z = b.tensor("z", [6, 2], "int32")
    b.op("CAST", [y], [z])
    b.output(z)
    message = refusal(b, tmp_path)
    assert "tensor 'y'" in message and "another operator reads the coordinates of a condition known only at run " \
        "time, whose count LiteRT sets at run time (helia-aot limit). Make WHERE's output a model output" in message


def where_model(cond):
    """WHERE of a constant condition as one output, next to a LOGICAL_NOT of a real input (a model needs one)."""
    b = ModelBuilder()
    x = b.input("x", [3], "bool")
    nx = b.tensor("nx", [3], "bool")
    b.output(nx)
    b.op("LOGICAL_NOT", [x], [nx])
    c = b.const("c", cond, "bool")
    y = b.tensor("y", [int(np.count_nonzero(cond)), cond.ndim], "int64")
    b.output(y)
    b.op("WHERE", [c], [y])
    return b


def test_where_constant_condition_matches_litert(tmp_path):
    from tests.modelgen.litert import run_reference
    cond = np.array([[[True, False], [False, True]], [[True, True], [False, False]]])
    b = where_model(cond)
    _, litert = run_reference(b.build(), [np.array([True, False, True])])
    result, source = convert(b, tmp_path)
    constants = (tmp_path / "out" / "src" / "model_constants.c").read_text()
    assert "memcpy(" in source and "int64_t" in constants
    # the constant the module copies holds LiteRT's coordinates, in its order
    values = [int(v) for v in constants.split("coordinates of the constant")[1].split("{")[1].split("}")[0]
              .replace("LL", "").split(",") if v.strip()]
    assert values == litert.reshape(-1).tolist()

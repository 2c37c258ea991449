# SPDX-License-Identifier: Apache-2.0
"""Refusals a user must be able to act on: each is one line naming the operator, the tensor at fault
(tensor '<name>') and the rule it breaks. Models are built so the tensor at fault is not the one a
careless message would name by accident (the output is 'y', the inputs have their own names)."""

from __future__ import annotations

import numpy as np
import pytest

import helia_aot
from helia_aot.errors import UnsupportedModelError
from tests.modelgen import ModelBuilder


def refusal(b: ModelBuilder, tmp_path) -> str:
    with pytest.raises(UnsupportedModelError) as info:
        helia_aot.convert(b.build(), tmp_path / "out", target="host")
    message = str(info.value.args[0])
    assert "\n" not in message
    return message


def one_op(op, inputs, outputs, options=None) -> ModelBuilder:
    """inputs: (name, shape, dtype[, scale, zp]) run-time inputs or (name, array, dtype, "const");
    outputs: (name, shape, dtype[, scale, zp])."""
    b = ModelBuilder()
    refs = []
    for spec in inputs:
        if len(spec) == 4 and spec[3] == "const":
            refs.append(b.const(spec[0], np.asarray(spec[1]), spec[2]))
        else:
            refs.append(b.input(*spec))
    outs = [b.tensor(*spec) for spec in outputs]
    b.op(op, refs, outs, options)
    for y in outs:
        b.output(y)
    return b


def test_mean_of_a_rank_5_input_names_the_input(tmp_path):
    b = one_op("MEAN", [("x", (1, 2, 2, 2, 2), "float32"), ("ax", [1], "int32", "const")],
               [("y", (1, 1, 2, 2, 2), "float32")], {"keep_dims": True})
    message = refusal(b, tmp_path)
    assert "MEAN" in message and "tensor 'x'" in message and "rank 5 input is not supported (1 to 4)" in message


def test_pack_output_shape_mismatch_names_the_output(tmp_path):
    b = one_op("PACK", [("a", (2, 3), "float32"), ("b", (2, 3), "float32")], [("y", (3, 2), "float32")],
               {"values_count": 2, "axis": 0})
    message = refusal(b, tmp_path)
    assert "PACK" in message and "tensor 'y'" in message
    assert "output shape [3, 2] does not match the packed [2, 2, 3]" in message


def test_split_axis_with_two_values_names_the_axis(tmp_path):
    b = one_op("SPLIT", [("ax", [0, 1], "int32", "const"), ("x", (4, 2), "float32")],
               [("y", (2, 2), "float32"), ("z", (2, 2), "float32")], {"num_splits": 2})
    message = refusal(b, tmp_path)
    assert "SPLIT" in message and "tensor 'ax'" in message and "axis must be a scalar, has 2 values" in message


def test_batch_to_space_crops_leaving_nothing_name_the_crops(tmp_path):
    # 4 batches of 1 x 1 under a 2 x 2 block give 2 x 2; cropping 1 + 1 rows leaves none
    b = one_op("BATCH_TO_SPACE_ND", [("x", (4, 1, 1, 1), "float32"), ("bs", [2, 2], "int32", "const"),
                                     ("cr", [[1, 1], [0, 0]], "int32", "const")],
               [("y", (1, 1, 2, 1), "float32")])
    message = refusal(b, tmp_path)
    assert "BATCH_TO_SPACE_ND" in message and "tensor 'cr'" in message
    assert "crops [1, 0, 1, 0] leave an empty output [1, 0, 2, 1]" in message


def test_gather_nd_output_shape_mismatch_names_the_output(tmp_path):
    b = one_op("GATHER_ND", [("x", (3, 4), "float32"), ("idx", [[0], [2]], "int32", "const")],
               [("y", (2, 3), "float32")])
    message = refusal(b, tmp_path)
    assert "GATHER_ND" in message and "tensor 'y'" in message
    assert "output shape [2, 3] does not match the gathered [2, 4]" in message


def test_int16_equal_per_channel_input_names_the_input(tmp_path):
    b = one_op("EQUAL", [("a", (2, 3), "int16", [0.5, 0.25], [0, 0]), ("b", (2, 3), "int16", 0.5, 0)],
               [("y", (2, 3), "bool")])
    message = refusal(b, tmp_path)
    assert "EQUAL" in message and "tensor 'a'" in message and "input must be quantized per tensor" in message


# ---- SVDF ----

B, I, U, R, T = 2, 5, 3, 2, 4  # batches, input size, units, rank, memory
F = U * R


def svdf(y_shape=(B, U), bias_units=U) -> ModelBuilder:
    b = ModelBuilder()
    x = b.input("x", (B, I), "int8", 0.5, -3)
    wf = b.const("wf", np.ones((F, I), np.int8), "int8", 0.25, 0)
    wt = b.const("wt", np.ones((F, T), np.int16), "int16", 0.5, 0)
    bb = b.const("bb", np.arange(bias_units, dtype=np.int32), "int32", 0.125, 0)
    s = b.tensor("s", (B, F * T), "int16", 0.125, 0, variable=True)
    y = b.tensor("y", y_shape, "int8", 0.25, 7)
    b.op("SVDF", [x, wf, wt, bb, s], [y], {"rank": R, "fused_activation_function": "RELU"})
    b.output(y)
    return b


def test_svdf_output_of_rank_3_names_the_output(tmp_path):
    message = refusal(svdf(y_shape=(B, U, 1)), tmp_path)
    assert "SVDF" in message and "tensor 'y'" in message and ": output must be 2-D, got [2, 3, 1]" in message


def test_svdf_bias_of_the_wrong_length_names_the_bias(tmp_path):
    message = refusal(svdf(bias_units=U + 1), tmp_path)
    assert "SVDF" in message and "tensor 'bb'" in message and "bias [4] must be [3]" in message


# ---- the catalog (`helia-aot operators`) states the rules these refusals enforce ----

def variant_of(op_type: str, variant: str):
    from helia_aot import ops
    return next(v for t, v in ops.catalog() if t == op_type and v.name == variant)


def notes_of(op_type: str, variant: str) -> str:
    """The catalog's words for a variant: its notes and its declared rules."""
    found = variant_of(op_type, variant)
    return " ".join([*found.notes, *(rule.text for rule in found.rules)])


def test_unquantized_int16_not_equal_is_refused_as_the_catalog_says(tmp_path):
    b = one_op("NOT_EQUAL", [("a", (2, 3), "int16"), ("b", (2, 3), "int16")], [("y", (2, 3), "bool")])
    message = refusal(b, tmp_path)
    assert "NOT_EQUAL" in message and "tensor 'a'" in message and "quantize the inputs" in message
    assert "NOT_EQUAL: quantized only" in notes_of("NOT_EQUAL", "int16")
    assert "quantized only" not in notes_of("EQUAL", "int16")  # LiteRT computes unquantized int16 EQUAL


def test_logical_not_output_of_another_size_is_refused_as_the_catalog_says(tmp_path):
    b = one_op("LOGICAL_NOT", [("a", (2, 3), "bool")], [("y", (3, 3), "bool")])
    message = refusal(b, tmp_path)
    assert "LOGICAL_NOT" in message and "tensor 'y'" in message and "holds 9 elements, the input [2, 3] 6" in message
    assert "output holds as many elements as the input" in notes_of("LOGICAL_NOT", "bool")


@pytest.mark.parametrize("op, pairs", [("BATCH_TO_SPACE_ND", "crops"), ("SPACE_TO_BATCH_ND", "paddings")])
@pytest.mark.parametrize("runtime", ["block_shape", "pairs"])
def test_runtime_block_shape_or_pairs_are_refused_as_the_catalog_says(tmp_path, op, pairs, runtime):
    """LiteRT's reference kernels read them at Prepare; the catalog lists them as constant operands."""
    x_shape, y_shape = ((4, 2, 2, 1), (1, 4, 4, 1)) if op == "BATCH_TO_SPACE_ND" else ((1, 4, 4, 1), (4, 2, 2, 1))
    block = ("bs", (2,), "int32") if runtime == "block_shape" else ("bs", [2, 2], "int32", "const")
    second = ("pp", (2, 2), "int32") if runtime == "pairs" else ("pp", [[0, 0], [0, 0]], "int32", "const")
    message = refusal(one_op(op, [("x", x_shape, "float32"), block, second], [("y", y_shape, "float32")]), tmp_path)
    role = "block_shape" if runtime == "block_shape" else pairs
    assert op in message and f"tensor '{'bs' if runtime == 'block_shape' else 'pp'}'" in message
    assert f"{role} must be a constant tensor" in message or f"{role} (input" in message
    operand = variant_of(op, "float32").inputs[1 if runtime == "block_shape" else 2]
    assert operand.role == role and "constant" in operand.rules()


def _hint(b: ModelBuilder, tmp_path) -> str:
    with pytest.raises(UnsupportedModelError) as info:
        helia_aot.convert(b.build(), tmp_path / "out", target="host")
    return info.value.hint


def test_a_run_time_operand_that_must_be_constant_says_how_to_fix_it(tmp_path):
    # A declared constant operand (BATCH_MATMUL's rhs is not; FULLY_CONNECTED's int8 weights are).
    weights = one_op("FULLY_CONNECTED", [("x", (1, 4), "int8", 0.1, 0), ("w", (3, 4), "int8", 0.1, 0)],
                     [("y", (1, 3), "int8", 0.2, 0)])
    assert _hint(weights, tmp_path / "a") == "Freeze the value into the model (static shapes, constant weights)"
    # A shape-like operand is declared constant too, so it gets the same hint before anything reads it.
    shape = one_op("BROADCAST_TO", [("x", (1, 3), "float32"), ("shape", (2,), "int32")], [("y", (4, 3), "float32")])
    assert _hint(shape, tmp_path / "b") == "Freeze the value into the model (static shapes, constant weights)"


def test_fill_names_the_dims_its_output_does_not_have(tmp_path):
    b = one_op("FILL", [("dims", np.array([2, 3], np.int32), "int32", "const"), ("value", (), "float32")],
               [("y", (3, 3), "float32")])
    assert refusal(b, tmp_path).endswith("tensor 'y': output shape [3, 3] differs from dims [2, 3] (helia-aot limit)")

# SPDX-License-Identifier: Apache-2.0
"""SQUARE, SQRT, RSQRT, EXP, LOG, GELU, RELU_N1_TO_1, RELU_0_TO_1: the entries and inline C each variant
emits, the tables built at conversion time checked against independent double-precision formulas, and
the main refusals (one line naming the operator, the tensor and the rule)."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

import helia_aot
from helia_aot.errors import UnsupportedModelError
from tests.modelgen import ModelBuilder

from .helpers import function_body


def unary_model(op, dtype="int8", shape=(1, 4, 8), q_in=(0.05, 0), q_out=(0.05, 0), options=None,
                out_dtype=None) -> ModelBuilder:
    b = ModelBuilder()
    quant_in = {} if dtype == "float32" else dict(scale=q_in[0], zero_point=q_in[1])
    out_dtype = out_dtype or dtype
    quant_out = {} if out_dtype == "float32" else dict(scale=q_out[0], zero_point=q_out[1])
    x = b.input("x", shape, dtype, **quant_in)
    y = b.tensor("y", shape, out_dtype, **quant_out)
    b.op(op, [x], [y], options)
    b.output(y)
    return b


def convert(builder: ModelBuilder, tmp_path):
    out = tmp_path / "out"
    result = helia_aot.convert(builder.build(), out, target="host")
    return result, (out / "src" / "model_model.c").read_text(), out


def only_op(result) -> dict:
    assert len(result.plan["operators"]) == 1
    return result.plan["operators"][0]


def int8_table(out_dir) -> np.ndarray:
    """The one int8 table the module's constants hold (a lut.c.j2 table: entry q + 128)."""
    text = (out_dir / "src" / "model_constants.c").read_text()
    match = re.search(r"const int8_t \w+\[256\][^{]*\{([^}]*)\}", text)
    assert match, "no 256-entry int8 table"
    return np.array([int(v) for v in match.group(1).replace("\n", " ").split(",") if v.strip()])


def quantized(fn, in_q, out_q) -> np.ndarray:
    """Independent reference: fn in double of every int8 input code, quantized to the output."""
    values = []
    for q in range(-128, 128):
        real = fn(in_q[0] * (q - in_q[1]))
        values.append(min(max(round(real / out_q[0]) + out_q[1], -128), 127))
    return np.array(values)


@pytest.mark.parametrize("approximate", [False, True])
def test_gelu_int8_table_follows_the_formula(tmp_path, approximate):
    in_q, out_q = (0.04, -10), (0.03, -100)
    result, model_c, out = convert(unary_model("GELU", q_in=in_q, q_out=out_q, options={"approximate": approximate}),
                                   tmp_path)
    op = only_op(result)
    assert op["variant"] == "int8" and op["kernel"]["entry"] is None
    if approximate:
        def gelu(x):
            return 0.5 * x * (1 + math.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
    else:
        def gelu(x):
            return 0.5 * x * math.erfc(-x / math.sqrt(2))
    table = int8_table(out)
    assert np.max(np.abs(table - quantized(gelu, in_q, out_q))) <= 1
    assert "+ 128]" in function_body(model_c, 0)


def test_exp_log_rsqrt_int8_tables(tmp_path):
    cases = [("EXP", math.exp, (0.03, 0), (0.05, -128)),
             ("LOG", lambda x: math.log(x) if x > 0 else -1e9, (0.05, -128), (0.04, 20)),
             ("RSQRT", lambda x: 1 / math.sqrt(x) if x > 0 else 1e9, (0.02, -128), (0.03, -128))]
    for k, (op, fn, in_q, out_q) in enumerate(cases):
        _, _, out = convert(unary_model(op, q_in=in_q, q_out=out_q), tmp_path / str(k))
        got = int8_table(out)
        want = quantized(fn, in_q, out_q)
        # RSQRT's fixed-point Newton-Raphson and two requantizations stay within one code of the float result
        assert np.max(np.abs(got - want)) <= 1, op


def test_entries(tmp_path):
    result, model_c, _ = convert(unary_model("SQRT", q_in=(0.02, -128), q_out=(0.01, -128)), tmp_path / "a")
    assert only_op(result)["kernel"]["entry"] == "arm_sqrt_s8"
    assert "arm_sqrt_s8(" in function_body(model_c, 0)
    result, model_c, _ = convert(unary_model("RSQRT", dtype="int16", q_in=(1e-3, 0), q_out=(1e-3, 0)), tmp_path / "b")
    assert only_op(result)["kernel"]["entry"] == "arm_rsqrt_s16_per_op"
    result, model_c, _ = convert(unary_model("RELU_N1_TO_1", q_in=(0.05, 3), q_out=(0.01, 0)), tmp_path / "c")
    assert only_op(result)["kernel"]["entry"] == "arm_relu_generic_s8"
    # [-1, 1] at scale 0.01: codes -100 .. 100; input / output scale 5 = 0.625 * 2^3
    assert re.search(r"arm_relu_generic_s8\([^;]*, 3, 0, 1342177280, 3,\s*-100, 100,", function_body(model_c, 0))
    result, model_c, _ = convert(unary_model("RELU_0_TO_1", q_in=(0.05, 3), q_out=(0.01, -50)), tmp_path / "d")
    assert re.search(r",\s*-50, 50,", function_body(model_c, 0))
    for k, (op, call) in enumerate([("SQUARE", "in[i] * in[i]"), ("EXP", "expf("), ("LOG", "logf("),
                                    ("RSQRT", "1.0f / sqrtf("), ("SQRT", "sqrtf(")]):
        result, model_c, _ = convert(unary_model(op, dtype="float32"), tmp_path / f"f{k}")
        assert only_op(result)["variant"] == "float32" and call in function_body(model_c, 0)
        assert "#include <math.h>" in model_c or op == "SQUARE"
    for k, (approximate, call) in enumerate([(False, "erfcf("), (True, "tanhf(")]):
        _, model_c, _ = convert(unary_model("GELU", dtype="float32", options={"approximate": approximate}),
                                tmp_path / f"g{k}")
        assert call in function_body(model_c, 0) and "#include <math.h>" in model_c


def refusal(builder, tmp_path) -> str:
    with pytest.raises(UnsupportedModelError) as info:
        convert(builder, tmp_path)
    message = str(info.value)
    assert "\n" not in message.split("Hint")[0].strip()
    return message


def test_refusals(tmp_path):
    # LiteRT's SQUARE is float32 only; RELU_N1_TO_1 / RELU_0_TO_1 have no int16 path
    assert "SQUARE" in refusal(unary_model("SQUARE"), tmp_path / "a") and "match no variant" in \
        refusal(unary_model("SQUARE"), tmp_path / "a2")
    no_int16 = "(LiteRT: activations.cc Relu1Eval / Relu0to1Eval)"
    assert no_int16 in refusal(unary_model("RELU_N1_TO_1", dtype="int16", q_in=(1e-3, 0), q_out=(1e-3, 0)),
                               tmp_path / "b")
    assert no_int16 in refusal(unary_model("RELU_0_TO_1", dtype="int16", q_in=(1e-3, 0), q_out=(1e-3, 0)),
                               tmp_path / "b2")
    # exp over [-327, 327] overflows float32: LiteRT's table is undefined
    message = refusal(unary_model("EXP", dtype="int16", q_in=(0.01, 0), q_out=(0.001, 0)), tmp_path / "c")
    assert "EXP" in message and "tensor 'y'" in message and "table is undefined" in message
    message = refusal(unary_model("EXP", q_in=(0.5, 0), q_out=(1e-6, 0)), tmp_path / "d")
    assert "table is undefined" in message and "output codes" in message
    # int16 zero points must be 0
    message = refusal(unary_model("SQRT", dtype="int16", q_in=(1e-3, 5), q_out=(1e-3, 0)), tmp_path / "e")
    assert "SQRT" in message and "tensor 'x'" in message and "zero point must be 0" in message
    message = refusal(unary_model("RELU_0_TO_1", q_in=(100.0, 0), q_out=(1e-6, 0)), tmp_path / "f")
    assert "RELU_0_TO_1" in message and "left shift" in message
    message = refusal(_mismatched_shapes("LOG"), tmp_path / "g")
    assert "holds 9 elements, the input [2, 3] 6" in message


def _mismatched_shapes(op) -> ModelBuilder:
    b = ModelBuilder()
    x = b.input("x", (2, 3), "float32")
    y = b.tensor("y", (3, 3), "float32")
    b.op(op, [x], [y])
    b.output(y)
    return b


@pytest.mark.parametrize("op,dtype,q_in,q_out,options,low,high", [
    ("EXP", "int8", (0.03, 10), (0.05, -128), None, -3.0, 3.0),
    ("LOG", "int16", (1e-3, 0), (5e-4, 0), None, 0.0, 30.0),
    ("GELU", "int8", (0.04, 0), (0.03, -20), {"approximate": True}, -4.0, 4.0),
    ("RSQRT", "int8", (0.02, -128), (0.03, -128), None, 0.01, 5.0),
    ("SQRT", "int16", (1e-3, 0), (1e-3, 0), None, 0.0, 30.0),
    ("RELU_N1_TO_1", "int8", (0.05, 3), (0.01, 0), None, -6.0, 6.0),
    ("EXP", "float32", None, None, None, -3.0, 3.0),
    ("GELU", "float32", None, None, {"approximate": False}, -4.0, 4.0),
    ("RELU_0_TO_1", "float32", None, None, None, -2.0, 2.0),
])
def test_constant_input_is_folded_as_litert_computes(op, dtype, q_in, q_out, options, low, high):
    """A constant through the operator is computed at conversion time; the value equals LiteRT's."""
    from helia_aot.lowering import lower as lowering, verifier
    from helia_aot.config import options as options_mod
    from helia_aot.frontend import litert as frontend
    from tests.modelgen.litert import run_reference

    rng = np.random.default_rng(5)
    real = rng.uniform(low, high, size=(3, 7)).astype(np.float32)
    if dtype == "float32":
        data, quant_in, quant_out = real, {}, {}
    else:
        info = np.iinfo(dtype)
        data = np.clip(np.round(real / q_in[0]) + q_in[1], info.min, info.max).astype(dtype)
        quant_in, quant_out = dict(scale=q_in[0], zero_point=q_in[1]), dict(scale=q_out[0], zero_point=q_out[1])
    # LiteRT on the constant's values
    b = ModelBuilder()
    x = b.input("x", data.shape, dtype, **quant_in)
    y = b.tensor("y", data.shape, dtype, **quant_out)
    b.op(op, [x], [y], options)
    b.output(y)
    want = run_reference(b.build(), [data])[0]
    # the same operator on a constant, feeding a RESHAPE that keeps it an intermediate tensor
    b = ModelBuilder()
    c = b.const("c", data, dtype, **quant_in)
    t = b.tensor("t", data.shape, dtype, **quant_out)
    b.op(op, [c], [t], options)
    z = b.input("z", (21,), dtype, **quant_out)
    r = b.tensor("r", (21,), dtype, **quant_out)
    b.op("RESHAPE", [t, b.const("shape", np.array([21], np.int32))], [r], {"new_shape": [21]})
    add_out = b.tensor("sum", (21,), dtype, **quant_out)
    b.op("ADD", [z, r], [add_out])
    b.output(add_out)
    opts = options_mod.resolve(None)
    graph, _ = verifier.verify(frontend.load(b.build(), "test"), "test")
    folded = lowering.prepare(graph, opts, "test")
    assert [o.op_type for o in folded.operators] == ["ADD"]
    got = next(tt for tt in folded.tensors if tt.name == "r").data
    if dtype == "float32":
        np.testing.assert_allclose(np.asarray(got).reshape(-1), want.reshape(-1), rtol=1e-6, atol=1e-7)
    else:
        np.testing.assert_array_equal(np.asarray(got).reshape(-1), want.reshape(-1))

# SPDX-License-Identifier: Apache-2.0
"""The traced rules of the reductions, ARG_MAX / ARG_MIN, BATCH_MATMUL, the LSTM, the resource-variable operators,
TFLM's Signal operators and the FPU gate (issue #30): a refusal raised for each ends with its declared source, in
one line; the relaxed REDUCE_PROD rescaling converts where it used to be refused; `helia-aot operators` prints the
source under each of these operators' rules."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import numpy as np
import pytest

import helia_aot
from helia_aot import ops
from helia_aot.errors import UnsupportedModelError
from helia_aot.ops.base import FPU_RULE
from helia_aot.ops.reduce_prod import PROD_SHIFT
from tests.modelgen import ModelBuilder
from tests.modelgen.cases import CASES_DIR, build_case_model, load_case

OPERATORS = ("REDUCE_ANY", "REDUCE_MAX", "REDUCE_MIN", "REDUCE_PROD", "SUM", "ARG_MAX", "ARG_MIN", "BATCH_MATMUL",
             "UNIDIRECTIONAL_SEQUENCE_LSTM", "CALL_ONCE", "VAR_HANDLE", "READ_VARIABLE", "ASSIGN_VARIABLE",
             "CUSTOM:SignalEnergy", "CUSTOM:SignalFftAutoScale", "CUSTOM:SignalFilterBank",
             "CUSTOM:SignalFilterBankLog", "CUSTOM:SignalFilterBankSpectralSubtraction",
             "CUSTOM:SignalFilterBankSquareRoot", "CUSTOM:SignalPCAN", "CUSTOM:SignalRfft", "CUSTOM:SignalWindow")


def refusal(model: bytes, tmp_path, target: str = "host") -> str:
    with pytest.raises(UnsupportedModelError) as info:
        helia_aot.convert(model, tmp_path / "out", target=target)
    message = str(info.value.args[0])
    assert "\n" not in message
    assert not (tmp_path / "out").exists()
    return message


def reduction(op: str, dtype: str, shape, axis, out, xq=(None, None), yq=(None, None), keep=False) -> bytes:
    b = ModelBuilder()
    x = b.input("x", shape, dtype=dtype, scale=xq[0], zero_point=xq[1])
    ax = b.const("axis", np.asarray(axis, np.int32))
    y = b.tensor("y", out, dtype=dtype, scale=yq[0], zero_point=yq[1])
    b.op(op, [x, ax], [y], {"keep_dims": keep})
    b.output(y)
    return b.build()


def custom(code: str, inputs, outputs, options) -> bytes:
    b = ModelBuilder()
    refs = [b.const(s[0], np.asarray(s[1]), s[2]) if len(s) == 4 else b.input(*s) for s in inputs]
    outs = [b.tensor(*s) for s in outputs]
    b.custom_op(code, refs, outs, options)
    for o in outs:
        b.output(o)
    return b.build()


def test_every_variant_of_these_operators_declares_its_rules():
    for op_type, variant in ops.catalog():
        if op_type in OPERATORS:
            assert variant.rules, f"{op_type} [{variant.name}] declares no rule"
            for rule in variant.rules:
                assert rule.source.kind != "helia-aot limit" or rule.source.check.strip(), rule


def test_the_fpu_gate_is_a_declared_limit_and_its_refusal_ends_with_it(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (2, 3), dtype="float32")
    y = b.tensor("y", (2,), dtype="float32")
    b.op("SUM", [x, b.const("axis", np.asarray([1], np.int32))], [y], {"keep_dims": False})
    b.output(y)
    message = refusal(b.build(), tmp_path, target="mps2_an385")
    assert "float32 tensors need a core with a floating-point unit" in message
    assert message.endswith(f"({FPU_RULE.source.tag})")
    assert FPU_RULE.source.kind == "kernel limit" and FPU_RULE.source.lifted_by


@pytest.mark.parametrize("model,tail", [
    # output in another quantization: both references check it
    (lambda: reduction("REDUCE_MAX", "int8", (2, 3), [1], (2,), (0.05, 1), (0.1, 1)),
     "(LiteRT and TFLM: reduce.cc EvalType / micro reduce_common.cc EvalMinMaxHelper)"),
    # a float32 scale one ulp apart is another scale to both references (no tolerance)
    (lambda: reduction("REDUCE_MIN", "int8", (2, 3), [1], (2,), (0.05, 1),
                       (float(np.nextafter(np.float32(0.05), np.float32(1))), 1)),
     "(LiteRT and TFLM: reduce.cc EvalType / micro reduce_common.cc EvalMinMaxHelper)"),
    (lambda: reduction("SUM", "float32", (2, 3), [3], (2, 3)), "(LiteRT: each axis-taking kernel's Prepare"),
    (lambda: reduction("REDUCE_PROD", "int8", (2, 2), [1], (2,), (0.5, 0), (1e-20, 0)),
     "(reference undefined: reduce.cc EvalQuantizedProd"),
    # the int16 rescaling's int32 left shift overflows TFLM's arithmetic (input scale / output scale 2^20)
    (lambda: reduction("SUM", "int16", (2, 3), [1], (2,), (2.0 ** -4, 0), (2.0 ** -24, 0)),
     "(reference undefined: micro reduce_common.cc QuantizedMeanOrSum)"),
])
def test_a_reduction_refusal_ends_with_its_source(tmp_path, model, tail):
    message = refusal(model(), tmp_path)
    assert tail in message and message.endswith(")"), message


@pytest.mark.parametrize("dtype", ["int8", "int16"])
@pytest.mark.parametrize("scale_out,converts", [(1e-6, True), (1e-7, True), (1e-10, True), (1e-12, False)])
def test_reduce_prod_takes_a_rescaling_shift_up_to_14(tmp_path, scale_out, converts, dtype):
    # input scale / sqrt(output scale): 0.05 / 1e-3 = 50 (shift 6), 0.05 / 3.2e-4 = 158 (8, refused before the
    # rule was relaxed), 0.05 / 1e-5 = 5000 (13), 0.05 / 1e-6 = 50000 (16: past LiteRT's defined shifts)
    model = reduction("REDUCE_PROD", dtype, (3, 2), [1], (3,), (0.05, 0), (scale_out, 0))
    if converts:
        helia_aot.convert(model, tmp_path / "out", target="host")
        assert (tmp_path / "out").exists()
    else:
        assert refusal(model, tmp_path).endswith(f"({PROD_SHIFT.source.tag})")


def test_arg_max_refusals_name_their_sources(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (2, 5), dtype="float32")
    y = b.tensor("y", (2,), dtype="int32")
    b.op("ARG_MAX", [x, b.const("axis", np.asarray([0, 1], np.int32))], [y], {"output_type": 2})
    b.output(y)
    assert refusal(b.build(), tmp_path).endswith("(LiteRT: arg_min_max.cc Prepare; TFLM unchecked)")


def test_batch_matmul_refusals_name_their_sources(tmp_path):
    def matmul(lhs_shape, rhs_shape, out, dtype="int8"):
        b = ModelBuilder()
        q = {"scale": 0.05, "zero_point": 0}
        lhs = b.input("lhs", lhs_shape, dtype=dtype, **q)
        rhs = b.input("rhs", rhs_shape, dtype=dtype, **q)
        y = b.tensor("y", out, dtype=dtype, scale=0.2, zero_point=0)
        b.op("BATCH_MATMUL", [lhs, rhs], [y], {"adj_x": False, "adj_y": False})
        b.output(y)
        return b.build()
    message = refusal(matmul((3, 5), (6, 4), (3, 4)), tmp_path)
    assert "inner dimensions differ" in message and message.endswith(
        "(LiteRT and TFLM: batch_matmul.cc Prepare / micro batch_matmul.cc BatchMatMulPrepare)")
    message = refusal(matmul((2, 1, 2, 3, 5), (1, 3, 1, 5, 4), (2, 3, 2, 3, 4)), tmp_path)
    assert "three merged batch dimensions" in message
    assert message.endswith("(kernel limit: arm_batch_matmul_s8 / arm_batch_matmul_s16)")


def _lstm(name: str, **changes) -> bytes:
    case = load_case(CASES_DIR / name)
    return build_case_model(dataclasses.replace(case, **changes))


def test_lstm_refusals_name_their_sources(tmp_path):
    case = load_case(CASES_DIR / "unidirectional_sequence_lstm_batch_major.yaml")
    relu = dict(case.options, fused_activation_function="RELU")
    message = refusal(_lstm("unidirectional_sequence_lstm_batch_major.yaml", options=relu), tmp_path)
    assert "needs fused activation TANH" in message and message.endswith("(kernel limit: arm_lstm_unidirectional_s8)")
    # LiteRT runs a cell scale that is no power of two, but not as the rounded power: the kernel's limit
    inputs = [dict(spec, scale=0.0005) if spec["name"] == "cell_state" else spec for spec in case.inputs]
    message = refusal(_lstm("unidirectional_sequence_lstm_batch_major.yaml", inputs=inputs), tmp_path)
    assert "must be a power of two" in message and message.endswith("(kernel limit: arm_lstm_unidirectional_s8)")
    inputs = [dict(spec, scale=2.0 ** -15) if spec["name"] == "cell_state" else spec for spec in case.inputs]
    message = refusal(_lstm("unidirectional_sequence_lstm_batch_major.yaml", inputs=inputs), tmp_path)
    assert "has 2^-15" in message
    assert message.endswith("(kernel limit: arm_lstm_unidirectional_s8 (arm_nn_activation_s16 of the cell state))")


@pytest.mark.parametrize("model,tail", [
    (lambda: custom("SignalWindow", [("x", (16,), "int16"), ("w", np.arange(8), "int16", "const")],
                    [("y", (16,), "int16")], {"shift": 32}),
     "must be an integer in 0..31 (reference undefined: signal/src (the Signal kernels' arithmetic, called from "
     "each Eval))"),
    (lambda: custom("SignalWindow", [("x", (16,), "int16"), ("w", np.arange(8), "int16", "const")],
                    [("y", (16,), "int16")], {}),
     "past the map) (reference undefined: flatbuffer_utils.cc FlexbufferWrapper::ElementAs*)"),
    (lambda: custom("SignalEnergy", [("x", (2, 8), "int16")], [("y", (4,), "uint32")],
                    {"end_index": 3, "start_index": 0}), "(TFLM: signal/micro/kernels/energy.cc EnergyPrepare)"),
    (lambda: custom("SignalRfft", [("x", (16,), "int16")], [("y", (18,), "int16")], {"T": 2, "fft_length": 16}),
     "(TFLM: signal/micro/kernels/rfft.cc RfftInitAll / RfftPrepare)"),
    (lambda: custom("SignalFilterBankSquareRoot", [("x", (4,), "uint64"), ("s", np.asarray(32, np.int32), "int32",
                                                                          "const")],
                    [("y", (4,), "uint32")], {}),
     "must be in 0..31 (reference undefined: signal/src/filter_bank_square_root.cc FilterBankSqrt)"),
])
def test_a_signal_refusal_ends_with_its_source(tmp_path, model, tail):
    message = refusal(model(), tmp_path)
    assert message.endswith(tail), message


def test_operators_command_prints_the_source_under_each_rule():
    proc = subprocess.run([sys.executable, "-m", "helia_aot.cli", "operators", *OPERATORS], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    rules = [k for k, line in enumerate(lines) if line.startswith("    rule  ")]
    assert len(rules) >= 100
    for k in rules:
        assert lines[k + 1].startswith("          from "), lines[k:k + 2]
    for source in ("from LiteRT and TFLM reduce.cc EvalType / micro reduce_common.cc EvalMinMaxHelper: ",
                   "from TFLM signal/micro/kernels/window.cc WindowPrepare: ",
                   "from kernel limit arm_lstm_unidirectional_s8: computes all four gates",
                   "from helia-aot limit: the initialisation is evaluated at conversion",
                   "from LiteRT arg_min_max.cc Prepare: TF_LITE_ENSURE_EQ(NumElements(axis), 1)"):
        assert source in proc.stdout, source

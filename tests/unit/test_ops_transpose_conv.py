# SPDX-License-Identifier: Apache-2.0
"""TRANSPOSE_CONV whose output_shape is a run-time input (a graph input) while the output's shape is
static: TFLM takes the shape from the output tensor, LiteRT from the input. The module converts it, its
run gives LiteRT's and TFLM's outputs for the output's shape, and returns KERNEL_ERROR (operator 0)
for any other shape, clean under ASan / UBSan."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import numpy as np
import pytest

import helia_aot
from helia_aot.errors import UnsupportedModelError
from helia_aot.golden.references import TflmRunner
from tests.modelgen import ModelBuilder
from tests.modelgen.litert import run_reference

from .helpers import build_host_module, function_body
from .test_ops_indexing import HOST_MAIN, KERNEL_ERROR, run_host

HELIUM_DIR = Path(__file__).resolve().parents[2] / "kernels" / "helium"
OUT_SHAPE = (1, 8, 8, 3)
IN_SHAPE = (1, 4, 4, 2)


def runtime_shape_model(dtype: str, shape_dtype: str = "int32", shape_len: int = 4) -> ModelBuilder:
    """3x3, stride 2, SAME: input 1x4x4x2 to output 1x8x8x3, output_shape the graph's second input."""
    b = ModelBuilder()
    g = np.random.default_rng(7)
    if dtype == "float32":
        x = b.input("x", IN_SHAPE, "float32")
        w = b.const("w", g.uniform(-1, 1, (3, 3, 3, 2)).astype(np.float32))
        bias = b.const("bias", g.uniform(-1, 1, 3).astype(np.float32))
        y = b.tensor("y", OUT_SHAPE, "float32")
    else:
        x = b.input("x", IN_SHAPE, dtype, 0.05, 3 if dtype == "int8" else 0)
        w = b.const("w", g.integers(-127, 128, (3, 3, 3, 2)).astype(np.int8), "int8", [0.01, 0.02, 0.015], 0,
                    quantized_dimension=0)
        bias_dtype = "int32" if dtype == "int8" else "int64"
        bias = b.const("bias", g.integers(-500, 500, 3), bias_dtype, [0.05 * s for s in (0.01, 0.02, 0.015)], 0)
        y = b.tensor("y", OUT_SHAPE, dtype, 0.02, -4 if dtype == "int8" else 0)
    shape = b.input("output_shape", (shape_len,), shape_dtype)
    b.op("TRANSPOSE_CONV", [shape, w, x, bias], [y],
         {"padding": "SAME", "stride_h": 2, "stride_w": 2, "fused_activation_function": "NONE"})
    b.output(y)
    return b


@pytest.fixture(scope="module")
def host_build(tmp_path_factory):
    root = tmp_path_factory.mktemp("transpose_conv_host")

    def build(builder: ModelBuilder, name: str, target: str = "host"):
        """A host executable of the module converted for `target`; one for a Helium core links
        kernels/helium, whose plain C runs on the host."""
        out = root / name
        helia_aot.convert(builder.build(), out, target=target, kernel_library="portable")
        helium = target != "host"
        # ARM_NN_ENABLE_F32: the float32 entry is compiled only with it (the module's common.h says so).
        return build_host_module(
            out, HOST_MAIN, ("transpose_conv", "convolution", "fully_connected"), "-DARM_NN_ENABLE_F32=1",
            extra_sources=[HELIUM_DIR / "src" / "helia_mve_transpose_conv_s16.c"] if helium else (),
            includes=[HELIUM_DIR / "include"] if helium else ())

    return build


def _input(dtype: str, seed: int) -> np.ndarray:
    g = np.random.default_rng(seed)
    if dtype == "float32":
        return g.uniform(-2, 2, IN_SHAPE).astype(np.float32)
    info = np.iinfo(dtype)
    return g.integers(info.min, info.max, IN_SHAPE, endpoint=True).astype(dtype)


@pytest.mark.parametrize("dtype", ["int8", "int16", "float32"])
def test_runtime_output_shape_matches_references_and_refuses_others(host_build, dtype):
    builder = runtime_shape_model(dtype)
    model = builder.build()
    exe = host_build(builder, dtype)
    right = np.array(OUT_SHAPE, dtype=np.int32)
    tflm = TflmRunner(model)
    for seed in range(3):
        x = _input(dtype, seed)
        status, _, got = run_host(exe, [x, right], dtype)
        assert status == 0
        got = got.reshape(OUT_SHAPE)
        for name, want in (("LiteRT", run_reference(model, [x, right])[0]), ("TFLM", tflm.run([x, right])[0])):
            if dtype == "float32":
                np.testing.assert_allclose(got, want, rtol=0, atol=1e-5, err_msg=name)
            else:
                np.testing.assert_array_equal(got, want, err_msg=name)
    for wrong in ([1, 8, 8, 4], [1, 7, 8, 3], [2, 8, 8, 3], [1, 8, 9, 3], [-1, -1, -1, -1], [2**31 - 1, 8, 8, 3]):
        status, failed, _ = run_host(exe, [_input(dtype, 0), np.array(wrong, dtype=np.int32)], dtype)
        assert (status, failed) == (KERNEL_ERROR, 0), wrong


def test_int16_on_a_helium_core_calls_the_kernel_with_the_same_outputs(host_build, tmp_path):
    """corstone300: int16 (int64 accumulator) on helia_mve_transpose_conv_s16, whose plain C runs in a
    host build: LiteRT's and TFLM's outputs as the inline loop gives them, the run-time shape still
    checked; a core without MVE keeps the inline loop."""
    builder = runtime_shape_model("int16")
    model = builder.build()
    for target, entry in (("corstone300", "helia_mve_transpose_conv_s16"), ("apollo4p_evb", None)):
        result = helia_aot.convert(model, tmp_path / target, prefix="m", target=target, kernel_library="portable")
        operator = result.plan["operators"][0]
        assert operator["kernel"]["entry"] == entry
        assert operator["fixed"] == ({"accumulator": "int64"} if entry else
                                     {"implementation": "inline", "accumulator": "int64"})
    exe = host_build(builder, "int16_helium", target="corstone300")
    right = np.array(OUT_SHAPE, dtype=np.int32)
    for seed in range(3):
        x = _input("int16", seed)
        status, _, got = run_host(exe, [x, right], "int16")
        assert status == 0
        np.testing.assert_array_equal(got.reshape(OUT_SHAPE), run_reference(model, [x, right])[0])
    status, failed, _ = run_host(exe, [_input("int16", 0), np.array([1, 8, 9, 3], dtype=np.int32)], "int16")
    assert (status, failed) == (KERNEL_ERROR, 0)


def test_constant_output_shape_has_no_runtime_check(tmp_path):
    b = ModelBuilder()
    x = b.input("x", IN_SHAPE, "float32")
    w = b.const("w", np.ones((3, 3, 3, 2), np.float32))
    shape = b.const("output_shape", np.array(OUT_SHAPE, np.int32), "int32")
    y = b.tensor("y", OUT_SHAPE, "float32")
    b.op("TRANSPOSE_CONV", [shape, w, x, None], [y], {"padding": "SAME", "stride_h": 2, "stride_w": 2})
    b.output(y)
    helia_aot.convert(b.build(), tmp_path / "out", target="host")
    assert "expected_shape" not in function_body((tmp_path / "out" / "src" / "model_model.c").read_text(), 0)


def test_runtime_output_shape_of_other_length_is_refused(tmp_path):
    with pytest.raises(UnsupportedModelError, match=r"TRANSPOSE_CONV.*'output_shape'.*must be 4 values"):
        helia_aot.convert(runtime_shape_model("int8", shape_len=3).build(), tmp_path / "out", target="host")


def _float_model(dtype: str, kernel: int, stride: int, padding: str) -> ModelBuilder:
    """Input 1x3x3x2 to a LiteRT-shaped output, a kernel x kernel filter, the same stride on H and W."""
    b = ModelBuilder()
    g = np.random.default_rng(kernel * 10 + stride)
    side = 3 * stride if padding == "SAME" else 2 * stride + kernel
    x = b.input("x", (1, 3, 3, 2), dtype)
    w = b.const("w", g.uniform(-1, 1, (3, kernel, kernel, 2)).astype(dtype))
    shape = b.const("output_shape", np.array((1, side, side, 3), np.int32), "int32")
    y = b.tensor("y", (1, side, side, 3), dtype)
    b.op("TRANSPOSE_CONV", [shape, w, x, None], [y], {"padding": padding, "stride_h": stride, "stride_w": stride})
    b.output(y)
    return b


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("padding", ["SAME", "VALID"])
def test_float_call_passes_ns_cmsis_nn_no_padding_offsets(tmp_path, dtype, padding):
    # ns-cmsis-nn 7.29.2's float kernels add padding_offsets to every output position: they are right only
    # without them (tests/kernels/test_float_parity.py::test_ns_float_transpose_conv_sweep). A SAME
    # geometry whose total padding K - s is odd has LiteRT offset 1: the portable call keeps it (the kernel
    # does not read it: its modules are unchanged), the ns-cmsis-nn call passes none and says so in the plan.
    offsets_line = re.compile(r"\{ (\d+), (\d+) \}, /\* padding offsets w, h")
    for kernel, stride in itertools.product((1, 2, 3, 4), (1, 2, 3)):
        odd = padding == "SAME" and kernel > stride and (kernel - stride) % 2 == 1
        model = _float_model(dtype, kernel, stride, padding).build()
        for library, want in (("ns_cmsis_nn", (0, 0)), ("portable", (1, 1) if odd else (0, 0))):
            out = tmp_path / f"{library}_{kernel}_{stride}"
            result = helia_aot.convert(model, out, prefix="m", target="corstone300", kernel_library=library)
            operator = result.plan["operators"][0]
            assert operator["kernel"]["entry"] == f"arm_transpose_conv_wrapper_f{dtype[-2:]}"
            passed = offsets_line.search((out / "src" / "m_model.c").read_text())
            assert tuple(int(v) for v in passed.groups()) == want, (library, kernel, stride)
            assert ("padding_offsets" in operator["fixed"]) == (library == "ns_cmsis_nn" and odd), (kernel, stride)

# SPDX-License-Identifier: Apache-2.0
"""Generated C compiles warning-free against ns-cmsis-nn's headers, and builds and runs against
the portable kernels (kernels/portable) with the golden-data harness."""

from __future__ import annotations

import shutil

import pytest

import helia_aot
from tests.unit.test_errors import relu_model

from .helpers import REPO, compile_c, mlperf_model, ns_cmsis_nn_dir, portable_kernels_dir, require_gcc

FLAGS = ["-std=c99", "-Wall", "-Wextra", "-Werror"]
# A corstone300 module may call our Helium kernels, an apollo4p_evb one our DSP kernels, and then
# includes their header.
HELIUM = REPO / "kernels" / "helium"
DSP = REPO / "kernels" / "dsp"


@pytest.mark.parametrize("target", ["corstone300", "apollo4p_evb", "host"])
def test_module_compiles_against_ns_cmsis_nn_headers(tmp_path, target):
    ns = ns_cmsis_nn_dir()
    gcc = require_gcc()
    out = tmp_path / "kws"
    helia_aot.convert(mlperf_model("kws_ref_model"), out, target=target, with_test_data=True, num_test_samples=1,
                      config={"module": {"arena": "caller"}} if target == "host" else None)
    for src in sorted(out.glob("src/*.c")) + sorted(out.glob("test/*.c")):
        proc = compile_c([gcc, *FLAGS, "-c", str(src), "-I", str(out / "include"), "-I", str(ns / "Include"),
                          "-I", str(HELIUM / "include"), "-I", str(DSP / "include"), "-o", str(tmp_path / "x.o")])
        assert proc.returncode == 0, proc.stderr


def test_module_compiles_for_cortex_m55(tmp_path):
    ns = ns_cmsis_nn_dir()
    gcc = shutil.which("arm-none-eabi-gcc")
    if gcc is None:
        pytest.skip("arm-none-eabi-gcc not installed")
    out = tmp_path / "kws"
    helia_aot.convert(mlperf_model("kws_ref_model"), out, target="corstone300", with_test_data=True,
                      num_test_samples=1)
    for src in sorted(out.glob("src/*.c")) + sorted(out.glob("test/*.c")) + sorted((HELIUM / "src").glob("*.c")):
        proc = compile_c([gcc, "--specs=picolibc.specs", *FLAGS, "-mcpu=cortex-m55", "-mfloat-abi=hard", "-mthumb",
                          "-O2", "-c", str(src), "-I", str(out / "include"), "-I", str(ns / "Include"),
                          "-I", str(HELIUM / "include"), "-o", str(tmp_path / "x.o")])
        assert proc.returncode == 0, proc.stderr


def test_old_ns_cmsis_nn_is_refused(tmp_path):
    gcc = require_gcc()
    out = tmp_path / "m"
    helia_aot.convert(relu_model(), out)
    fake = tmp_path / "fake"
    fake.mkdir()
    (fake / "arm_nnfunctions.h").write_text("#define NS_CMSIS_NN_VERSION 7028000\n")
    proc = compile_c([gcc, *FLAGS, "-c", str(out / "src" / "model_model.c"), "-I", str(out / "include"),
                      "-I", str(fake), "-o", str(tmp_path / "x.o")])
    assert proc.returncode != 0 and "needs ns-cmsis-nn 7.29.2 or newer" in proc.stderr


@pytest.mark.parametrize("model", ["kws_ref_model", "pretrainedResnet_quant"])
def test_module_runs_on_portable_kernels(tmp_path, model):
    kernels = portable_kernels_dir()
    gcc = require_gcc()
    out = tmp_path / "m"
    helia_aot.convert(mlperf_model(model), out, target="corstone300", with_test_data=True, num_test_samples=2)
    sources = [str(p) for p in sorted(out.glob("src/*.c")) + sorted(out.glob("test/*.c"))]
    sources += [str(p) for p in sorted((kernels / "src").rglob("*.c"))]
    # A corstone300 module may call our Helium kernels; on the host they run the plain entries.
    helium = kernels.parent / "helium"
    sources += [str(p) for p in sorted((helium / "src").glob("*.c"))]
    exe = tmp_path / "run"
    proc = compile_c([gcc, "-std=c99", "-O1", *sources, "-I", str(out / "include"), "-I", str(kernels / "include"),
                      "-I", str(kernels / "src"), "-I", str(helium / "include"), "-o", str(exe), "-lm"])
    # A module or kernel that does not build is a failure, never a skip.
    assert proc.returncode == 0, f"module + portable kernels do not build:\n{proc.stderr[-4000:]}"
    run = compile_c([str(exe)])
    assert run.returncode == 0, run.stdout + run.stderr
    assert "PASS" in run.stdout.splitlines()[-1]


def int16_chain_model() -> bytes:
    """Every int16 elementwise, activation and softmax variant in one model, and int8 -> int16 softmax."""
    from tests.modelgen import ModelBuilder
    b = ModelBuilder()
    q = 1.0 / 32768
    x = b.input("x", (1, 4, 4, 8), dtype="int16", scale=4 * q, zero_point=0)
    g = b.input("g", (1, 1, 1, 8), dtype="int16", scale=2 * q, zero_point=0)
    t = b.input("t", (2, 12), scale=0.1, zero_point=3)
    prev, k = x, 0
    for op_type, other, options, scale in [("ADD", g, {"pot_scale_int16": False}, 6 * q),
                                           ("SUB", x, {"pot_scale_int16": False}, 8 * q),
                                           ("MUL", g, {"fused_activation_function": "RELU6"}, 8 * q),
                                           ("LEAKY_RELU", None, {"alpha": 0.1}, 8 * q),
                                           ("RELU", None, None, 4 * q), ("RELU6", None, None, 4 * q),
                                           ("LOGISTIC", None, None, q), ("TANH", None, None, q),
                                           ("SOFTMAX", None, {"beta": 1.0}, q)]:
        k += 1
        y = b.tensor(f"y{k}", (1, 4, 4, 8), dtype="int16", scale=scale, zero_point=0)
        b.op(op_type, [prev] + ([other] if other is not None else []), [y], options)
        prev = y
    b.output(prev)
    s = b.tensor("s", (2, 12), dtype="int16", scale=1.0 / 65536, zero_point=-32768)
    b.op("SOFTMAX", [t], [s], {"beta": 1.0})
    b.output(s)
    return b.build()


@pytest.mark.parametrize("target", ["corstone300", "apollo4p_evb", "host"])
def test_int16_operators_compile_against_ns_cmsis_nn_headers(tmp_path, target):
    ns = ns_cmsis_nn_dir()
    gcc = require_gcc()
    out = tmp_path / "m"
    helia_aot.convert(int16_chain_model(), out, target=target, with_test_data=True, num_test_samples=1)
    for src in sorted(out.glob("src/*.c")) + sorted(out.glob("test/*.c")):
        proc = compile_c([gcc, *FLAGS, "-c", str(src), "-I", str(out / "include"), "-I", str(ns / "Include"),
                          "-I", str(HELIUM / "include"), "-o", str(tmp_path / "x.o")])
        assert proc.returncode == 0, proc.stderr


def float32_chain_model() -> bytes:
    """One model with every float32 variant: library entries (convolutions, pools, activations,
    element-wise, data movement) and inline C (broadcasting, TANH, softmax with beta 0.5, CONCATENATION,
    MEAN)."""
    import numpy as np

    from tests.modelgen import ModelBuilder
    rng = np.random.default_rng(3)

    def const(b, name, shape):
        return b.const(name, rng.standard_normal(shape).astype(np.float32), dtype="float32")

    b = ModelBuilder()
    x = b.input("x", (1, 8, 8, 4), dtype="float32")
    t = [x]

    def op(op_type, inputs, shape, options=None):
        y = b.tensor(f"y{len(t)}", shape, dtype="float32")
        b.op(op_type, inputs, [y], options)
        t.append(y)
        return y

    same = {"padding": "SAME", "stride_h": 1, "stride_w": 1}
    c = op("CONV_2D", [x, const(b, "w1", (6, 3, 3, 4)), const(b, "b1", (6,))], (1, 8, 8, 6),
           {**same, "fused_activation_function": "RELU"})
    d = op("DEPTHWISE_CONV_2D", [c, const(b, "w2", (1, 3, 3, 6)), const(b, "b2", (6,))], (1, 8, 8, 6),
           {**same, "depth_multiplier": 1})
    shape = b.const("os", np.array([1, 16, 16, 4], np.int32), dtype="int32")
    u = op("TRANSPOSE_CONV", [shape, const(b, "w3", (4, 3, 3, 6)), d, const(b, "b3", (4,))], (1, 16, 16, 4),
           {"padding": "SAME", "stride_h": 2, "stride_w": 2})
    p = op("MAX_POOL_2D", [u], (1, 8, 8, 4), {"padding": "VALID", "stride_h": 2, "stride_w": 2,
                                               "filter_height": 2, "filter_width": 2})
    a = op("AVERAGE_POOL_2D", [p], (1, 8, 8, 4), {**same, "filter_height": 3, "filter_width": 3})
    s = op("ADD", [a, x], (1, 8, 8, 4), {"fused_activation_function": "NONE"})
    s = op("SUB", [s, const(b, "k", (4,))], (1, 8, 8, 4), {"fused_activation_function": "NONE"})
    s = op("MUL", [s, a], (1, 8, 8, 4), {"fused_activation_function": "RELU6"})
    for op_type, options in (("LOGISTIC", None), ("TANH", None), ("RELU", None), ("RELU6", None),
                             ("HARD_SWISH", None), ("LEAKY_RELU", {"alpha": 0.1})):
        s = op(op_type, [s], (1, 8, 8, 4), options)
    pads = b.const("pads", np.array([[0, 0], [1, 1], [0, 0], [0, 0]], np.int32), dtype="int32")
    s = op("PAD", [s, pads], (1, 10, 8, 4))
    begin, end = (b.const(n, np.array(v, np.int32), dtype="int32") for n, v in (("bg", [0, 1, 0, 0]),
                                                                                ("en", [1, 9, 8, 4])))
    s = op("STRIDED_SLICE", [s, begin, end, b.const("st", np.array([1, 1, 1, 1], np.int32), dtype="int32")],
           (1, 8, 8, 4))
    s = op("TRANSPOSE", [s, b.const("perm", np.array([0, 2, 1, 3], np.int32), dtype="int32")], (1, 8, 8, 4))
    s = op("CONCATENATION", [s, x], (1, 8, 8, 8), {"axis": 3})
    m = op("MEAN", [s, b.const("ax", np.array([1, 2], np.int32), dtype="int32")], (1, 1, 1, 8), {"keep_dims": True})
    r = op("RESHAPE", [m, b.const("sh", np.array([1, 8], np.int32), dtype="int32")], (1, 8), {"new_shape": [1, 8]})
    f = op("FULLY_CONNECTED", [r, const(b, "w4", (10, 8)), const(b, "b4", (10,))], (1, 10))
    b.output(op("SOFTMAX", [f], (1, 10), {"beta": 1.0}))
    b.output(op("SOFTMAX", [f], (1, 10), {"beta": 0.5}))
    return b.build()


@pytest.mark.parametrize("target", ["corstone300", "apollo4p_evb", "host"])
def test_float32_operators_compile_only_with_the_float_switch(tmp_path, target):
    ns = ns_cmsis_nn_dir()
    gcc = require_gcc()
    out = tmp_path / "m"
    result = helia_aot.convert(float32_chain_model(), out, target=target, with_test_data=True, num_test_samples=1)
    assert all(o["variant"] in ("float32", "any") for o in result.plan["operators"])
    for src in sorted(out.glob("src/*.c")) + sorted(out.glob("test/*.c")):
        proc = compile_c([gcc, *FLAGS, "-DARM_NN_ENABLE_F32=1", "-c", str(src), "-I", str(out / "include"),
                          "-I", str(ns / "Include"), "-o", str(tmp_path / "x.o")])
        assert proc.returncode == 0, proc.stderr
    # Without the switch, the module's own check is the first error.
    proc = compile_c([gcc, *FLAGS, "-c", str(out / "src" / "model_model.c"), "-I", str(out / "include"),
                      "-I", str(ns / "Include"), "-o", str(tmp_path / "x.o")])
    assert proc.returncode != 0
    first = next(line for line in proc.stderr.splitlines() if "error" in line)
    assert "this module calls float kernels: build ns-cmsis-nn and compile this module with " \
           "-DARM_NN_ENABLE_F32=1" in first


@pytest.mark.parametrize("cpu, target", [("cortex-m55", "corstone300"), ("cortex-m4", "apollo4p_evb")])
def test_float32_module_compiles_for_cortex_m(tmp_path, cpu, target):
    ns = ns_cmsis_nn_dir()
    gcc = shutil.which("arm-none-eabi-gcc")
    if gcc is None:
        pytest.skip("arm-none-eabi-gcc not installed")
    out = tmp_path / "m"
    helia_aot.convert(float32_chain_model(), out, target=target, with_test_data=True, num_test_samples=1)
    fpu = ["-mfloat-abi=hard"] + (["-mfpu=fpv4-sp-d16"] if cpu == "cortex-m4" else [])
    for src in sorted(out.glob("src/*.c")) + sorted(out.glob("test/*.c")):
        proc = compile_c([gcc, "--specs=picolibc.specs", *FLAGS, f"-mcpu={cpu}", *fpu, "-mthumb", "-O2",
                          "-DARM_NN_ENABLE_F32=1", "-c", str(src), "-I", str(out / "include"),
                          "-I", str(ns / "Include"), "-o", str(tmp_path / "x.o")])
        assert proc.returncode == 0, proc.stderr

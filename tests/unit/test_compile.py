# SPDX-License-Identifier: Apache-2.0
"""Generated C compiles warning-free against ns-cmsis-nn's headers, and builds and runs against
the portable kernels (kernels/portable) with the golden-data harness."""

from __future__ import annotations

import shutil

import pytest

import helia_aot
from tests.unit.test_errors import relu_model

from .helpers import compile_c, mlperf_model, ns_cmsis_nn_dir, portable_kernels_dir, require_gcc

FLAGS = ["-std=c99", "-Wall", "-Wextra", "-Werror"]


@pytest.mark.parametrize("target", ["corstone300", "apollo4p_evb", "host"])
def test_module_compiles_against_ns_cmsis_nn_headers(tmp_path, target):
    ns = ns_cmsis_nn_dir()
    gcc = require_gcc()
    out = tmp_path / "kws"
    helia_aot.convert(mlperf_model("kws_ref_model"), out, target=target, with_test_data=True, num_test_samples=1,
                      config={"module": {"arena": "caller"}} if target == "host" else None)
    for src in sorted(out.glob("src/*.c")) + sorted(out.glob("test/*.c")):
        proc = compile_c([gcc, *FLAGS, "-c", str(src), "-I", str(out / "include"), "-I", str(ns / "Include"),
                          "-o", str(tmp_path / "x.o")])
        assert proc.returncode == 0, proc.stderr


def test_module_compiles_for_cortex_m55(tmp_path):
    ns = ns_cmsis_nn_dir()
    gcc = shutil.which("arm-none-eabi-gcc")
    if gcc is None:
        pytest.skip("arm-none-eabi-gcc not installed")
    out = tmp_path / "kws"
    helia_aot.convert(mlperf_model("kws_ref_model"), out, target="corstone300", with_test_data=True,
                      num_test_samples=1)
    for src in sorted(out.glob("src/*.c")) + sorted(out.glob("test/*.c")):
        proc = compile_c([gcc, "--specs=picolibc.specs", *FLAGS, "-mcpu=cortex-m55", "-mfloat-abi=hard", "-mthumb",
                          "-O2", "-c", str(src), "-I", str(out / "include"), "-I", str(ns / "Include"),
                          "-o", str(tmp_path / "x.o")])
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
    exe = tmp_path / "run"
    proc = compile_c([gcc, "-std=c99", "-O1", *sources, "-I", str(out / "include"), "-I", str(kernels / "include"),
                      "-I", str(kernels / "src"), "-o", str(exe), "-lm"])
    if proc.returncode != 0:
        pytest.skip(f"portable kernels do not build yet: {proc.stderr.splitlines()[0] if proc.stderr else ''}")
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
                          "-o", str(tmp_path / "x.o")])
        assert proc.returncode == 0, proc.stderr

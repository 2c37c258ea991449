# SPDX-License-Identifier: Apache-2.0
"""Hybrid (dynamic-range) FULLY_CONNECTED and CONV_2D: float32 activations, int8 symmetric weights,
float32 bias and output, as LiteRT's stock converter writes them for its dynamic-range quantization.

The module quantizes its inputs at run time exactly as LiteRT's reference hybrid kernels do, so each
case must sit within 1e-4 of its output's range of LiteRT (the acceptance bound; measured: bit-exact
or one float ulp). The hybrid layers of kws_ref_model_float32 are also cut out of the real model one
at a time and checked the same way, with its real weights. Modules use the portable kernels: on the host
the hybrid path is inline C and calls no kernel. A module converted for the Cortex-M55 calls our Helium
kernels for the integer part and the symmetric quantization (kernels/helium); built for the host (their
plain C) it must give the inline module's outputs float for float, on every hybrid case and the whole
kws_ref_model_float32 (tests/kernels/test_helium_parity.py holds the Helium code to that plain C)."""

from __future__ import annotations

import flatbuffers
import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema

import helia_aot
from tests.e2e import harness
from tests.modelgen.cases import all_case_paths
from tests.skip_policy import models_not_available

HYBRID_CASES = [p for p in all_case_paths() if "_hybrid_" in p.stem]
RELATIVE_BOUND = 1e-4  # of the output's range over the samples
KWS_FLOAT = "kws_ref_model_float32"


def check(e2e, model: harness.ModelUnderTest, suite: str) -> None:
    outputs = e2e.host_outputs(model, e2e.portable_host_library())
    diffs = harness.per_output_max_diff(outputs, model.reference)
    ranges = harness.output_ranges(model.reference)
    relative = [d / r if r else d for d, r in zip(diffs, ranges)]
    print(f"\n{model.name}: max |diff| {diffs} vs LiteRT over {len(model.samples)} inputs; output range {ranges}; "
          f"relative {relative}")
    e2e.record(suite, model.name, max_abs_diff=diffs, output_range=ranges, relative=relative)
    for index, (diff, rng) in enumerate(zip(diffs, ranges)):
        assert rng > 0, f"{model.name} output {index} is constant over the samples"
        assert diff <= RELATIVE_BOUND * rng, (f"{model.name} output {index}: max |diff| {diff:g} exceeds "
                                              f"{RELATIVE_BOUND:g} of the output range {rng:g}")


def test_hybrid_cases_exist_for_both_operators_and_both_input_quantizations():
    stems = [p.stem for p in HYBRID_CASES]
    assert any(s.startswith("fully_connected_hybrid") and "asymmetric" in s for s in stems)
    assert any(s.startswith("fully_connected_hybrid") and "asymmetric" not in s for s in stems)
    assert any(s.startswith("conv_2d_hybrid_per_channel") for s in stems)
    assert any(s.startswith("conv_2d_hybrid_per_tensor") for s in stems)


@pytest.mark.parametrize("path", HYBRID_CASES, ids=[p.stem for p in HYBRID_CASES])
def test_hybrid_case_within_1e_4_of_the_output_range(e2e, path):
    check(e2e, e2e.case(path), "hybrid single-op vs LiteRT")


def single_operator_model(model_bytes: bytes, index: int) -> bytes:
    """Operator `index` of subgraph 0 as a model of its own: its data input and output become the
    subgraph's, its constants stay (the other tensors and buffers stay too, unused)."""
    model = schema.ModelT.InitFromPackedBuf(model_bytes, 0)
    graph = model.subgraphs[0]
    op = graph.operators[index]
    graph.operators = [op]
    graph.inputs = np.array([op.inputs[0]], dtype=np.int32)
    graph.outputs = np.array(list(op.outputs), dtype=np.int32)
    builder = flatbuffers.Builder(len(model_bytes) + 1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


def _kws_hybrid_layers() -> list[int]:
    path = harness.models_dir() / f"{KWS_FLOAT}.tflite"
    if not path.is_file():
        return []
    model = schema.ModelT.InitFromPackedBuf(path.read_bytes(), 0)
    graph = model.subgraphs[0]
    return [i for i, op in enumerate(graph.operators)
            if len(op.inputs) > 1 and graph.tensors[op.inputs[0]].type == schema.TensorType.FLOAT32
            and graph.tensors[op.inputs[1]].type == schema.TensorType.INT8]


def test_kws_float32_is_hybrid():
    path = harness.models_dir() / f"{KWS_FLOAT}.tflite"
    if not path.is_file():
        pytest.skip(models_not_available(f"MLPerf Tiny model {path}", "HELIA_MODELS_DIR"))
    assert len(_kws_hybrid_layers()) == 5


@pytest.mark.parametrize("index", [0, 2, 4, 6, 8])
def test_kws_float32_hybrid_layer_within_1e_4_of_the_output_range(e2e, index):
    """Each hybrid CONV_2D of kws_ref_model_float32 with its real int8 weights and float bias, fed
    seeded inputs in [-1, 1)."""
    path = harness.models_dir() / f"{KWS_FLOAT}.tflite"
    if not path.is_file():
        pytest.skip(models_not_available(f"MLPerf Tiny model {path}", "HELIA_MODELS_DIR"))
    assert index in _kws_hybrid_layers()
    model = harness.ModelUnderTest(name=f"{KWS_FLOAT}_op{index}", kind="mlperf-layer",
                                   model_bytes=single_operator_model(path.read_bytes(), index),
                                   seed=harness.MLPERF_SEED + index, tolerance=0.0)
    check(e2e, model, "hybrid layers of kws_ref_model_float32 vs LiteRT")


def helium_module_host_outputs(e2e, model: harness.ModelUnderTest, work) -> list[list[np.ndarray]]:
    """The module converted for the Cortex-M55 (its hybrid layers call helia_mve_convolve_s8_s32 and
    helia_mve_rescale_s32_f32), built for the host with kernels/helium, whose plain C
    (helia_convolve_s8_s32, helia_rescale_s32_f32) runs there, and the portable kernels; ASan + UBSan as
    every host run."""
    module = work / "module"
    result = helia_aot.convert(model.model_bytes, module, prefix=harness.PREFIX, target="corstone300",
                               kernel_library="portable")
    assert {"helia_mve_convolve_s8_s32", "helia_mve_rescale_s32_f32"} <= set(result.kernel_symbols), \
        result.kernel_symbols
    library = e2e.portable_host_library()
    exe = work / "helium_host"
    helium = harness.HELIUM_DIR
    harness.run_command([harness.HOST_CC, *harness.HOST_CFLAGS, *library.define_flags, "-I", str(module / "include"),
                         *library.include_flags, "-I", str(helium / "include"), "-I", str(harness.REPO_ROOT / "tests" / "c"),
                         *harness.module_sources(module), *sorted(map(str, (helium / "src").glob("*.c"))),
                         str(harness.C_DIR / "host_harness.c"), str(library.archive), "-lm", "-o", str(exe)],
                        f"build {exe.name}", timeout=harness.COMPILE_TIMEOUT_S)
    return harness.run_host_executable(exe, model)


def assert_bit_identical(got: list[list[np.ndarray]], want: list[list[np.ndarray]], name: str) -> None:
    assert len(got) == len(want), name
    for sample, (g_outputs, w_outputs) in enumerate(zip(got, want)):
        for index, (g, w) in enumerate(zip(g_outputs, w_outputs)):
            assert g.tobytes() == w.tobytes(), (f"{name} sample {sample} output {index}: the kernel's sums give "
                                                f"other floats than the inline loop (max |diff| "
                                                f"{np.max(np.abs(g.astype(np.float64) - w.astype(np.float64)))})")


@pytest.mark.parametrize("path", HYBRID_CASES, ids=[p.stem for p in HYBRID_CASES])
def test_hybrid_case_on_the_helium_kernel_is_bit_identical_to_the_inline_loop(e2e, path, tmp_path):
    model = e2e.case(path)
    assert_bit_identical(helium_module_host_outputs(e2e, model, tmp_path),
                         e2e.host_outputs(model, e2e.portable_host_library()), model.name)


def test_kws_float32_on_the_helium_kernel_is_bit_identical_to_the_inline_loop(e2e, tmp_path):
    """The whole kws_ref_model_float32 (five hybrid CONV_2D, the depthwise, pooling, FC and softmax in
    float32): the Cortex-M55 module, whose hybrid layers call the kernel, against the host module's
    inline loops, float for float on the seeded samples."""
    path = harness.models_dir() / f"{KWS_FLOAT}.tflite"
    if not path.is_file():
        pytest.skip(models_not_available(f"MLPerf Tiny model {path}", "HELIA_MODELS_DIR"))
    model = e2e.mlperf(KWS_FLOAT)
    assert_bit_identical(helium_module_host_outputs(e2e, model, tmp_path),
                         e2e.host_outputs(model, e2e.portable_host_library()), model.name)

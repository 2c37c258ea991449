# SPDX-License-Identifier: Apache-2.0
"""Native FP16 single-operator cases (tests/e2e/cases/*_float16*.yaml): the module, built on the
host under ASan/UBSan, against LiteRT running the FP32 model the case is rewritten from.

LiteRT has no float16 kernels, so the golden outputs come from the FP32 original
(tests/modelgen/fp16.py) on the very same inputs: the seeded float32 inputs are rounded to float16
first, and the case's weights and bias are float16 values in both models. What is left is FP16
arithmetic: rounded products and partial sums, the order the kernel adds in, and the float16 output;
each case states its tolerance and why.

The kernels are the portable ones, built like every harness library with the float switches
(harness.LIBRARY_DEFINES); test_ns_cmsis_nn_parity.py checks them bit for bit against ns-cmsis-nn."""

from __future__ import annotations

import dataclasses
import functools
import pathlib

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema

from tests.e2e import harness
from tests.modelgen import quant
from tests.modelgen.cases import (Case, all_case_paths, build_case_model, build_reference_model,
                                  is_float16_case, load_case, sample_range)
from tests.modelgen.litert import make_interpreter, random_inputs
from tests.skip_policy import models_not_available

FLOAT16_CASES = [p for p in all_case_paths() if is_float16_case(load_case(p))]
_NUMPY = {schema.TensorType.FLOAT16: np.float16, schema.TensorType.FLOAT32: np.float32,
          schema.TensorType.INT8: np.int8, schema.TensorType.INT16: np.int16, schema.TensorType.INT32: np.int32}


def _io_infos(model_bytes: bytes, outputs: bool) -> list[harness.TensorInfo]:
    graph = schema.ModelT.InitFromPackedBuf(model_bytes, 0).subgraphs[0]
    indices = graph.outputs if outputs else graph.inputs
    return [harness.TensorInfo(graph.tensors[i].name.decode(), tuple(int(d) for d in graph.tensors[i].shape),
                               np.dtype(_NUMPY[graph.tensors[i].type])) for i in indices]


@dataclasses.dataclass
class Float16Model:
    """An FP16 model, the FP32 model LiteRT runs in its place, and shared half-representable inputs.
    Has what harness.run_host_executable and harness.convert read."""

    name: str
    model_bytes: bytes
    reference_bytes: bytes
    seed: int
    tolerance: float
    case: Case | None = None

    @functools.cached_property
    def input_infos(self) -> list[harness.TensorInfo]:
        return _io_infos(self.model_bytes, outputs=False)

    @functools.cached_property
    def output_infos(self) -> list[harness.TensorInfo]:
        return _io_infos(self.model_bytes, outputs=True)

    @functools.cached_property
    def samples(self) -> list[list[np.ndarray]]:
        """Seeded inputs of the FP32 model (uniform over each input's case range), rounded to each FP16
        input's type."""
        generator = quant.rng(self.seed)
        ranges = [(-1.0, 1.0)] * len(self.input_infos)
        if self.case is not None:
            names = [s["name"] for s in self.case.inputs if s.get("kind", "activation") == "activation"]
            ranges = [sample_range(self.case, n) for n in names]
        samples = []
        for _ in range(harness.NUM_SAMPLES):
            values = random_inputs(self.reference_bytes, generator)  # uniform in [-1, 1)
            samples.append([(lo + (v.astype(np.float64) + 1.0) / 2.0 * (hi - lo)).astype(info.dtype)
                            for v, (lo, hi), info in zip(values, ranges, self.input_infos)])
        return samples

    @functools.cached_property
    def reference(self) -> list[list[np.ndarray]]:
        interp = make_interpreter(self.reference_bytes)
        details = interp.get_input_details()
        results = []
        for sample in self.samples:
            for detail, value in zip(details, sample):
                interp.set_tensor(detail["index"], value.astype(detail["dtype"]))
            interp.invoke()
            results.append([interp.get_tensor(d["index"]).copy() for d in interp.get_output_details()])
        return results


def float16_case(session: harness.E2ESession, path: pathlib.Path) -> Float16Model:
    def make():
        case = load_case(path)
        return Float16Model(case.name, build_case_model(case), build_reference_model(case), case.seed,
                            case.tolerance, case)
    return session._once(("float16-case", str(path)), make)


def max_abs_diffs(got: list[list[np.ndarray]], want: list[list[np.ndarray]]) -> list[float]:
    """Max |diff| per output over all samples, in float64 (module float16 against LiteRT float32)."""
    return [max(float(np.max(np.abs(g[o].astype(np.float64) - w[o].astype(np.float64)), initial=0))
                for g, w in zip(got, want)) for o in range(len(want[0]))]


def test_every_float16_variant_has_a_case():
    from helia_aot import ops
    gated = {op_type for op_type, variant in ops.catalog() if variant.requires_fp16}
    assert len(gated) >= 20
    assert gated - {load_case(p).op for p in FLOAT16_CASES} == set()


@pytest.mark.parametrize("path", FLOAT16_CASES, ids=[p.stem for p in FLOAT16_CASES])
def test_float16_case_matches_litert_fp32(e2e, path, record_property):
    model = float16_case(e2e, path)
    library = e2e.portable_host_library()
    outputs = e2e.host_outputs(model, library)
    for got, info in zip(outputs[0], model.output_infos):
        assert got.dtype == info.dtype == np.float16
    diffs = max_abs_diffs(outputs, model.reference)
    ranges = harness.output_ranges(model.reference)
    print(f"\n{model.name}: max |diff| per output vs LiteRT FP32 over {len(model.samples)} inputs: {diffs} "
          f"(output range {ranges}, tolerance {model.tolerance:g}, kernels {library.name})")
    record_property("max_abs_diff", diffs)
    e2e.record("float16 single-op vs LiteRT FP32", model.name, max_abs_diff=diffs, output_range=ranges,
               tolerance=model.tolerance, kernels=library.name)
    for index, diff in enumerate(diffs):
        assert diff <= model.tolerance, (f"{model.name} output {index}: max |diff| {diff:g} against LiteRT FP32 "
                                         f"exceeds {model.tolerance:g} ({model.case.tolerance_reason})")


def test_dequantize_float16_widens_every_bit_pattern_exactly(e2e):
    """The storage conversion on all 65536 float16 bit patterns: finite values (normal, subnormal,
    signed zeros) and infinities bit for bit as IEEE widening gives them, NaN as NaN. It uses no
    float16 kernel, so the integer-only portable library builds it."""
    from tests.modelgen import ModelBuilder
    b = ModelBuilder(description="every float16 bit pattern")
    x = b.input("x", (1, 65536), dtype="float16")
    y = b.tensor("y", (1, 65536), dtype="float32")
    b.op("DEQUANTIZE", [x], [y])
    b.output(y)
    data = b.build()
    model = Float16Model("dequantize_float16_all_bits", data, data, seed=0, tolerance=0.0)
    bits = np.arange(65536, dtype=np.uint32).astype(np.uint16).reshape(1, 65536)
    model.__dict__["samples"] = [[bits.view(np.float16)]]
    got = e2e.host_outputs(model, e2e.portable_host_library())[0][0].reshape(-1)
    want = bits.view(np.float16).astype(np.float32).reshape(-1)
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan)
    assert np.array_equal(got[~nan].view(np.uint32), want[~nan].view(np.uint32))
    assert np.isinf(got).sum() == 2 and np.nanmax(got) == np.inf and np.nanmin(got) == -np.inf


# The FP32 MLPerf Tiny models, rewritten to native FP16 as a customer would (weights rounded to float16,
# every layer computing in half precision), against LiteRT running the FP32 originals. Measured on the
# host: vww_96_float 0.08%, pretrainedResnet 0.46%, ad01_fp32 0.32% of the output range. The bound
# allows for float16 weights (relative 2^-11 each), float16 accumulation in every layer and the
# growth of those errors through 10 to 28 layers; a wrong layer is off by far more.
FP16_MODEL_RELATIVE_BOUND = 0.01
FP16_MODELS = {"vww_96_float": True, "pretrainedResnet": True, "ad01_fp32": False}  # classifier?


@pytest.mark.parametrize("name", list(FP16_MODELS))
def test_mlperf_float_model_rewritten_to_fp16(e2e, name, record_property):
    path = harness.models_dir() / f"{name}.tflite"
    if not path.is_file():
        pytest.skip(models_not_available(f"MLPerf Tiny model {path}", "HELIA_MODELS_DIR"))
    from tests.modelgen.fp16 import to_float16
    data = path.read_bytes()
    model = e2e._once(("float16-model", name), lambda: Float16Model(
        f"{name}_fp16", to_float16(data), data, harness.MLPERF_SEED, FP16_MODEL_RELATIVE_BOUND))
    outputs = e2e.host_outputs(model, e2e.portable_host_library())
    diffs, ranges = max_abs_diffs(outputs, model.reference), harness.output_ranges(model.reference)
    mismatched = harness.argmax_agreement(outputs, model.reference) if FP16_MODELS[name] else []
    print(f"\n{model.name}: max |diff| {diffs} vs LiteRT FP32 (output range {ranges}); arg-max differs on "
          f"{len(mismatched)} of {len(model.samples)}")
    record_property("max_abs_diff", diffs)
    e2e.record("FP32 MLPerf models rewritten to FP16 vs LiteRT FP32", model.name, max_abs_diff=diffs,
               output_range=ranges, relative=[d / r for d, r in zip(diffs, ranges)])
    assert not mismatched, f"{model.name}: arg-max differs from LiteRT FP32 on samples {mismatched}"
    for diff, rng in zip(diffs, ranges):
        assert diff <= FP16_MODEL_RELATIVE_BOUND * rng

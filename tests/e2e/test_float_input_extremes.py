# SPDX-License-Identifier: Apache-2.0
"""Float inputs no seeded draw gives: NaN, both infinities, the largest finite values, values beyond the
int32 range, denormals and signed zeros, through every single-operator case with a float32 or float16
input (hybrid layers included) and the hybrid MLPerf model, on the host under ASan/UBSan with
-fsanitize=float-cast-overflow (harness.SANITIZERS). C leaves a float converted to an integer it does not
fit undefined; every such conversion in the generated C and the kernels saturates instead, a NaN
converting to 0 (README, "Numerical differences from LiteRT"). QUANTIZE from float32 is also checked for
the codes that rule gives."""

from __future__ import annotations

import dataclasses
import pathlib

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema

from tests.e2e import harness
from tests.e2e.conftest import mlperf_model_or_skip
from tests.e2e.test_float16 import float16_case
from tests.modelgen import quant
from tests.modelgen.cases import CASES_DIR, all_case_paths, build_case_model, is_float16_case, load_case
from tests.modelgen.litert import io_details

F32 = np.finfo(np.float32)
F16 = np.finfo(np.float16)
# Each value fills every float input of one sample; the mixes below draw from them element by element.
EXTREMES = (np.nan, -np.nan, np.inf, -np.inf, float(F32.max), -float(F32.max), 1e30, -1e30, 2.0 ** 31, -2.0 ** 31,
            2.0 ** 24 + 2.0, 65504.0, -65504.0, float(F32.smallest_subnormal), -float(F32.smallest_subnormal),
            float(F32.smallest_normal), float(F16.smallest_subnormal), 0.0, -0.0, 127.5, -128.5)
MIXED_SAMPLES = 4
SEED = 2025
_FLOAT_TYPES = {schema.TensorType.FLOAT32, schema.TensorType.FLOAT16}


def _has_float_input(path: pathlib.Path) -> bool:
    if "float" not in path.read_text() and "hybrid" not in path.stem:
        return False
    graph = schema.Model.GetRootAsModel(build_case_model(load_case(path)), 0).Subgraphs(0)
    return any(graph.Tensors(graph.Inputs(i)).Type() in _FLOAT_TYPES for i in range(graph.InputsLength()))


FLOAT_INPUT_CASES = [p for p in all_case_paths() if _has_float_input(p)]


@dataclasses.dataclass
class ExtremeRun:
    """What harness.run_host_executable reads: a model's I/O and the samples to feed it."""

    name: str
    input_infos: list[harness.TensorInfo]
    output_infos: list[harness.TensorInfo]
    samples: list[list[np.ndarray]]


def extreme_samples(model, rng: np.random.Generator) -> list[list[np.ndarray]]:
    """One sample per EXTREMES value (every float element that value) and MIXED_SAMPLES samples mixing
    them with ordinary values; integer inputs keep the model's first seeded sample (valid indices)."""
    base = model.samples[0]
    with np.errstate(over="ignore"):  # float32 extremes round to float16 infinities, as intended
        fills = [[np.full(i.shape, v).astype(i.dtype) if i.dtype.kind == "f" else b
                  for i, b in zip(model.input_infos, base)] for v in EXTREMES]
        mixes = []
        for _ in range(MIXED_SAMPLES):
            sample = []
            for info, b in zip(model.input_infos, base):
                if info.dtype.kind != "f":
                    sample.append(b)
                    continue
                special = rng.choice(np.asarray(EXTREMES, np.float64), size=info.shape)
                ordinary = rng.uniform(-4.0, 4.0, size=info.shape)
                sample.append(np.where(rng.random(info.shape) < 0.5, special, ordinary).astype(info.dtype))
            mixes.append(sample)
    return fills + mixes


def run_extremes(e2e: harness.E2ESession, model, samples: list[list[np.ndarray]]) -> list[list[np.ndarray]]:
    """The module of `model`, with the portable kernels, run on `samples`; a sanitizer report raises."""
    library = e2e.portable_host_library()

    def build():
        exe = e2e.root / "bin" / "extremes" / model.name
        exe.parent.mkdir(parents=True, exist_ok=True)
        return harness.build_host_executable(e2e.module_dir(model, "host"), library, exe)
    exe = e2e._once(("extremes-exe", model.name), build)
    run = ExtremeRun(model.name, model.input_infos, model.output_infos, samples)
    outputs = harness.run_host_executable(exe, run)
    assert len(outputs) == len(samples)
    return outputs


def test_the_extremes_reach_every_float_input_kind():
    stems = [p.stem for p in FLOAT_INPUT_CASES]
    assert len(stems) >= 150, len(stems)
    assert any("hybrid" in s for s in stems) and any("float16" in s for s in stems)
    assert {"quantize_float_to_int8", "quantize_float_to_int16"} <= set(stems)


@pytest.mark.parametrize("path", FLOAT_INPUT_CASES, ids=[p.stem for p in FLOAT_INPUT_CASES])
def test_case_runs_clean_on_extreme_float_inputs(e2e, path):
    model = float16_case(e2e, path) if is_float16_case(load_case(path)) else e2e.case(path)
    outputs = run_extremes(e2e, model, extreme_samples(model, quant.rng(SEED)))
    for sample in outputs:
        for got, info in zip(sample, model.output_infos):
            assert got.shape == info.shape and got.dtype == info.dtype


def test_hybrid_mlperf_model_runs_clean_on_extreme_float_inputs(e2e):
    model = mlperf_model_or_skip(e2e, "kws_ref_model_float32")
    run_extremes(e2e, model, extreme_samples(model, quant.rng(SEED)))


@pytest.mark.parametrize("name", ["quantize_float_to_int8", "quantize_float_to_int16"])
def test_quantize_from_float_saturates_and_sends_nan_to_the_zero_point(e2e, name):
    """round(x / scale) + zero point, clamped: beyond the codes either way it saturates, and a NaN counts as
    0 (Arm's VCVT), so it gives the zero point. LiteRT's static_cast leaves these undefined (on x86 it gives
    INT32_MIN, then adds the zero point)."""
    model = e2e.case(CASES_DIR / f"{name}.yaml")
    (info,) = model.input_infos
    out_detail = io_details(model.model_bytes)[1][0]
    _, zero_point = out_detail["quantization"]
    low, high = (int(v) for v in (np.iinfo(out_detail["dtype"]).min, np.iinfo(out_detail["dtype"]).max))
    cases = [(np.nan, zero_point), (-np.nan, zero_point), (np.inf, high), (-np.inf, low), (1e30, high),
             (-1e30, low), (float(F32.max), high), (-float(F32.max), low), (2.0 ** 31, high), (-2.0 ** 31, low)]
    values = np.resize(np.asarray([v for v, _ in cases], np.float32), info.shape)
    expected = np.resize(np.asarray([c for _, c in cases], np.int64), info.shape)
    (outputs,) = run_extremes(e2e, model, [[values]])
    np.testing.assert_array_equal(outputs[0].astype(np.int64), expected)

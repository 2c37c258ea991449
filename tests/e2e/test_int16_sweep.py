# SPDX-License-Identifier: Apache-2.0
"""Seeded sweep of single-operator int16 (A16W8) models (tests/modelgen/sweep16.py): every model
LiteRT's reference kernels accept is converted by helia_aot for the host, built with the portable
kernels under ASan/UBSan and must match LiteRT within one code on NUM_SAMPLES full-range inputs. A
refusal by helia_aot (UnsupportedModelError) fails: LiteRT runs the model, so the converter must.
With HELIA_NS_CMSIS_NN_DIR set, the module built against ns-cmsis-nn must give the same bits.

HELIA_SWEEP_N sets the number of models (default CI_COUNT), HELIA_SWEEP_SEED the seed, and
HELIA_SWEEP_START the first index (to replay one model: HELIA_SWEEP_START=k HELIA_SWEEP_N=1)."""

from __future__ import annotations

import collections
import concurrent.futures
import dataclasses
import os

import pytest

from tests.e2e import harness
from tests.modelgen import sweep16

CI_COUNT = 128
COUNT = int(os.environ.get("HELIA_SWEEP_N", CI_COUNT))
SEED = int(os.environ.get("HELIA_SWEEP_SEED", sweep16.SEED))
START = int(os.environ.get("HELIA_SWEEP_START", 0))
INTEGER_BOUND = 1


@dataclasses.dataclass
class Outcome:
    model: harness.ModelUnderTest
    op: str
    outputs: list | None = None  # per sample, per output
    error: str | None = None


def _run(e2e: harness.E2ESession, library: harness.KernelLibrary, drawn: sweep16.SweepModel) -> Outcome:
    model = harness.ModelUnderTest(name=drawn.name, kind="sweep16", model_bytes=drawn.model_bytes,
                                   seed=SEED + drawn.index, tolerance=INTEGER_BOUND)
    try:
        model.reference  # LiteRT first, so a module failure is the only thing left to report
        return Outcome(model, drawn.op, outputs=e2e.host_outputs(model, library))
    except Exception as exc:  # noqa: BLE001 - every failure is reported with its model
        return Outcome(model, drawn.op, error=f"{type(exc).__name__}: {exc}")


def _run_all(e2e: harness.E2ESession, library: harness.KernelLibrary) -> dict[int, Outcome]:
    drawn = sweep16.sweep(COUNT, SEED, START)
    with concurrent.futures.ThreadPoolExecutor(harness.MAX_JOBS) as pool:
        outcomes = list(pool.map(lambda d: _run(e2e, library, d), drawn))
    return {d.index: o for d, o in zip(drawn, outcomes)}


@pytest.fixture(scope="module")
def portable_outcomes(e2e) -> dict[int, Outcome]:
    outcomes = _run_all(e2e, e2e.portable_host_library())
    counts = collections.Counter(o.op for o in outcomes.values())
    failed = collections.Counter(o.op for o in outcomes.values() if o.error or max(
        harness.per_output_max_diff(o.outputs, o.model.reference)) > INTEGER_BOUND)
    print("\nint16 sweep (portable kernels), models per operator: "
          + ", ".join(f"{op} {n} ({failed[op]} failed)" for op, n in sorted(counts.items())))
    return outcomes


@pytest.fixture(scope="module")
def ns_outcomes(e2e, ns_cmsis_nn_root) -> dict[int, Outcome]:
    return _run_all(e2e, e2e.ns_cmsis_nn_host_library(ns_cmsis_nn_root))


def test_sweep_covers_every_operator():
    ops = {sweep16.draw_model(i, SEED).op for i in range(len(sweep16.OPERATORS))}
    assert ops >= {"CONV_2D", "DEPTHWISE_CONV_2D", "TRANSPOSE_CONV", "LEAKY_RELU", "STRIDED_SLICE", "ADD", "SUB",
                   "MUL", "CONCATENATION", "QUANTIZE", "FULLY_CONNECTED", "MEAN"} and ops & {"PAD", "PADV2"}


@pytest.mark.parametrize("index", range(START, START + COUNT))
def test_sweep_model_matches_litert(e2e, portable_outcomes, index, record_property):
    outcome = portable_outcomes[index]
    assert outcome.error is None, f"{outcome.model.name}: {outcome.error}"
    diffs = harness.per_output_max_diff(outcome.outputs, outcome.model.reference)
    record_property("max_abs_diff", diffs)
    e2e.record("int16 sweep vs LiteRT (portable)", outcome.model.name, max_abs_diff=diffs)
    assert max(diffs) <= INTEGER_BOUND, (f"{outcome.model.name}: max |diff| {diffs} against LiteRT exceeds "
                                         f"{INTEGER_BOUND} code over {len(outcome.model.samples)} inputs")


@pytest.mark.parametrize("index", range(START, START + COUNT))
def test_sweep_model_portable_matches_ns_cmsis_nn(e2e, portable_outcomes, ns_outcomes, index):
    portable, reference = portable_outcomes[index], ns_outcomes[index]
    assert reference.error is None, f"{reference.model.name} with ns-cmsis-nn: {reference.error}"
    if portable.error is not None:
        pytest.fail(f"{portable.model.name}: the portable build failed ({portable.error})")
    differences = harness.bit_differences(portable.outputs, reference.outputs)
    e2e.record("int16 sweep, portable vs ns-cmsis-nn", portable.model.name, bit_identical=not differences)
    assert not differences, f"{portable.model.name}: portable kernels and ns-cmsis-nn differ: {differences}"

# SPDX-License-Identifier: Apache-2.0
"""TensorFlow Lite Micro as a second reference: every single-operator case and every shared model
(MLPerf Tiny, TFLM's person_detect and micro_speech classifier), the module built with the portable
kernels (host gcc, ASan/UBSan), against TFLM's reference kernels and LiteRT's on NUM_SAMPLES seeded
inputs; both maxima are recorded for MEASURED.md.

TFLM's integer kernels requantize with the doubling high multiply and a rounding shift everywhere
(FULLY_CONNECTED included), as ns-cmsis-nn does, so bit-identical is the bar: every integer output
equals TFLM's, except the cases in KNOWN_DIFFERENCES, each with the operator and the reason, which
must still differ (a listed case that became identical fails, so the list stays true). Float outputs
keep their bounds against LiteRT. TFLM refuses a few models outright (TFLM_REFUSES); that is asserted
too. Where a model departs from TFLM, the first operator to do so is named (tflm.operator_diffs)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from helia_aot.references import ReferenceRefused
from tests.e2e import harness, tflm
from tests.e2e.conftest import mlperf_model_or_skip
from tests.e2e.test_float16 import float16_case, max_abs_diffs
from tests.e2e.test_single_op import FP32_CASE_RELATIVE_BOUND, FP32_VARIANT_PREFIX
from tests.modelgen.cases import Case, all_case_paths, is_float16_case, load_case

CASE_PATHS = all_case_paths()
SUITE_CASES = "single-op vs TFLM"
SUITE_MODELS = "shared models vs TFLM"

# Models the bar applies to: int8 networks whose every operator TFLM's reference kernels compute with
# ns-cmsis-nn's arithmetic. Measured max |diff| 0 on every output.
BIT_IDENTICAL_MODELS = ("kws_ref_model", "vww_96_int8", "pretrainedResnet_quant", "ad01_int8",
                        "person_detect", "micro_speech_quantized")


@dataclasses.dataclass(frozen=True)
class Known:
    """A case whose module output is known to differ from TFLM's: the largest difference allowed,
    the operator responsible and why."""

    bound: float
    operator: str
    reason: str


# Filled from measurement (tests/e2e/MEASURED.md, "against TFLM"): case name -> Known.
KNOWN_DIFFERENCES: dict[str, Known] = {}


def tflm_refusal_reason(case: Case) -> str | None:
    """Why TFLM cannot run a case's model at all, or None if it should."""
    if case.variant.startswith("hybrid"):
        return ("TFLM has no hybrid kernels (float32 activations with int8 weights): its CONV_2D and "
                "FULLY_CONNECTED refuse them in Prepare")
    if case.op == "DEQUANTIZE" and case.variant.startswith("float16"):
        return "TFLM's DEQUANTIZE takes int8, uint8 and int16 inputs, not float16"
    return None


def _case_model(e2e, path):
    case = load_case(path)
    if is_float16_case(case):
        # LiteRT and TFLM both run the FP32 original (tests/e2e/test_float16.py) on the same inputs.
        model = float16_case(e2e, path)
        return case, model, lambda: tflm.outputs(model.reference_bytes, model.samples)
    model = e2e.case(path)
    return case, model, lambda: model.tflm_reference


def _first_divergence(e2e, model) -> str:
    first = harness.first_divergence(tflm.operator_diffs(e2e, model, e2e.portable_host_library()))
    return str(first) if first else "none (only at model outputs)"


@pytest.mark.parametrize("path", CASE_PATHS, ids=[p.stem for p in CASE_PATHS])
def test_case_against_tflm(e2e, path, record_property):
    case, model, tflm_outputs = _case_model(e2e, path)
    refusal = tflm_refusal_reason(case)
    try:
        want = tflm_outputs()
    except ReferenceRefused as refused:
        e2e.record(SUITE_CASES, case.name, max_abs_diff_tflm=f"TFLM refuses: {refusal or refused}")
        assert refusal is not None, f"{case.name}: TFLM refuses the model ({refused}) and no reason is listed"
        return
    assert refusal is None, f"{case.name}: TFLM now runs the model; drop it from tflm_refusal_reason ({refusal})"
    got = e2e.host_outputs(model, e2e.portable_host_library())
    # float16 outputs against float32 references in float64; every other output dtype for dtype.
    diffs = max_abs_diffs if is_float16_case(case) else harness.per_output_max_diff
    against_tflm = diffs(got, want)
    against_litert = diffs(got, model.reference)
    fields = dict(max_abs_diff_tflm=against_tflm, max_abs_diff_litert=against_litert,
                  samples=len(model.samples))
    float_outputs = [info.dtype.kind == "f" for info in model.output_infos]
    known = KNOWN_DIFFERENCES.get(case.name)
    integer_differs = any(d > 0 for d, f in zip(against_tflm, float_outputs) if not f)
    if integer_differs:
        fields["first_divergence_tflm"] = _first_divergence(e2e, model)
    if known is not None:
        fields["known_difference"] = f"{known.operator}: {known.reason}"
    print(f"\n{case.name}: max |diff| per output vs TFLM {against_tflm}, vs LiteRT {against_litert} over "
          f"{len(model.samples)} inputs" + (f"; first operator differing from TFLM: "
                                            f"{fields['first_divergence_tflm']}" if integer_differs else ""))
    record_property("max_abs_diff_tflm", against_tflm)
    e2e.record(SUITE_CASES, case.name, **fields)
    if is_float16_case(case):
        # Judged against the FP32 original, as against LiteRT (test_float16.py): the case's tolerance.
        assert max(against_tflm) <= case.tolerance, (f"{case.name}: max |diff| {against_tflm} against TFLM FP32 "
                                                     f"exceeds {case.tolerance:g} ({case.tolerance_reason})")
        return
    ranges = harness.output_ranges(want)
    for index, (diff, is_float) in enumerate(zip(against_tflm, float_outputs)):
        if is_float:
            relative = (FP32_CASE_RELATIVE_BOUND if case.variant.startswith(FP32_VARIANT_PREFIX)
                        else model.relative_tolerance)
            bound = relative * ranges[index] if relative is not None else model.tolerance
            assert diff <= bound, f"{case.name} output {index}: max |diff| {diff:g} against TFLM exceeds {bound:g}"
        elif known is None:
            assert diff == 0, (f"{case.name} output {index}: max |diff| {diff:g} against TFLM, where TFLM's "
                               f"reference kernel and ns-cmsis-nn compute the same; first operator differing: "
                               f"{fields.get('first_divergence_tflm')}")
        else:
            assert diff <= known.bound, (f"{case.name} output {index}: max |diff| {diff:g} against TFLM exceeds "
                                         f"the known {known.bound:g} ({known.operator}: {known.reason})")
    if known is not None:
        assert integer_differs, f"{case.name}: now bit-identical to TFLM; drop it from KNOWN_DIFFERENCES"


# --------------------------------------------------------------------------- shared models


SHARED_MODELS = [("mlperf", name) for name in harness.MLPERF_MODELS] + [("tflm", name) for name in tflm.TFLM_MODELS]
# Shared models TFLM cannot run: name -> reason.
TFLM_REFUSED_MODELS = {
    "kws_ref_model_float32": "hybrid (float32 activations, int8 convolution weights): TFLM's CONV_2D refuses "
                             "hybrid models in Prepare",
}


def shared_model_or_skip(e2e, kind: str, name: str) -> harness.ModelUnderTest:
    if kind == "mlperf":
        return mlperf_model_or_skip(e2e, name)
    path = tflm.models_dir() / f"{name}.tflite"
    if not path.is_file():
        pytest.skip(f"TFLM model {path} not found; set {tflm.TFLM_MODELS_ENV} to the folder holding "
                    "TFLM's example models")
    return e2e.tflm_model(name)


def _litert_diffs(model, got) -> list[float] | str:
    refusal = getattr(model, "litert_refusal", None)
    if refusal:
        reason = refusal.removeprefix("LiteRT cannot load the model: ")
        return f"LiteRT refuses it: {reason if len(reason) <= 70 else reason[:67] + '...'}"
    return harness.per_output_max_diff(got, model.reference)


def _check_shared_model(e2e, kind, name, library, suite, record_property):
    model = shared_model_or_skip(e2e, kind, name)
    try:
        want = model.tflm_reference
    except ReferenceRefused as refused:
        e2e.record(suite, name, max_abs_diff_tflm=f"TFLM refuses: {TFLM_REFUSED_MODELS.get(name, refused)}")
        assert name in TFLM_REFUSED_MODELS, f"{name}: TFLM refuses the model ({refused}) and no reason is listed"
        return
    assert name not in TFLM_REFUSED_MODELS, f"{name}: TFLM now runs the model; drop it from TFLM_REFUSED_MODELS"
    got = e2e.host_outputs(model, library)
    against_tflm = harness.per_output_max_diff(got, want)
    against_litert = _litert_diffs(model, got)
    fields = dict(max_abs_diff_tflm=against_tflm, max_abs_diff_litert=against_litert,
                  samples=len(model.samples), kernels=library.name)
    floats = [info.dtype.kind == "f" for info in model.output_infos]
    if model.classifier:
        mismatched = harness.argmax_agreement(got, want)
        fields["argmax_agree_tflm"] = f"{len(model.samples) - len(mismatched)}/{len(model.samples)}"
    if any(d > 0 for d, f in zip(against_tflm, floats) if not f):
        first = harness.first_divergence(tflm.operator_diffs(e2e, model, library))
        fields["first_divergence_tflm"] = str(first) if first else "none (only at model outputs)"
    print(f"\n{name} ({library.name}): max |diff| per output vs TFLM {against_tflm}, vs LiteRT {against_litert} "
          f"over {len(model.samples)} inputs; {fields}")
    record_property("max_abs_diff_tflm", against_tflm)
    e2e.record(suite, name, **fields)
    if name in BIT_IDENTICAL_MODELS:
        differences = harness.bit_differences(got, want)
        assert not differences, (f"{name}: not bit-identical to TFLM: {differences}; first operator differing: "
                                 f"{fields.get('first_divergence_tflm')}")
        return
    assert all(floats), f"{name}: an integer model outside BIT_IDENTICAL_MODELS"
    ranges = harness.output_ranges(want)
    for index, (diff, spread) in enumerate(zip(against_tflm, ranges)):
        bound = harness.MLPERF_FLOAT_RELATIVE_TOLERANCE * spread
        assert diff <= bound, f"{name} output {index}: max |diff| {diff:g} against TFLM exceeds {bound:g}"
    assert not model.classifier or not mismatched, f"{name}: arg-max differs from TFLM's on samples {mismatched}"


@pytest.mark.parametrize("kind,name", SHARED_MODELS, ids=[n for _, n in SHARED_MODELS])
def test_shared_model_against_tflm(e2e, kind, name, record_property):
    _check_shared_model(e2e, kind, name, e2e.portable_host_library(), SUITE_MODELS, record_property)


@pytest.mark.parametrize("kind,name", [m for m in SHARED_MODELS if m[1] in BIT_IDENTICAL_MODELS],
                         ids=[n for _, n in SHARED_MODELS if n in BIT_IDENTICAL_MODELS])
def test_shared_model_ns_cmsis_nn_against_tflm(e2e, ns_cmsis_nn_root, kind, name, record_property):
    _check_shared_model(e2e, kind, name, e2e.ns_cmsis_nn_host_library(ns_cmsis_nn_root),
                        SUITE_MODELS + " (ns-cmsis-nn, host)", record_property)


def test_person_detect_reference_falls_back_to_tflm(e2e):
    """LiteRT refuses person_detect, so its reference is TFLM's, as helia_aot's golden data does."""
    model = shared_model_or_skip(e2e, "tflm", "person_detect")
    assert model.litert_refusal is not None and "quantized_dimension" in model.litert_refusal
    assert all(np.array_equal(r, t) for rs, ts in zip(model.reference, model.tflm_reference) for r, t in zip(rs, ts))

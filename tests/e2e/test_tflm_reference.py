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
import re

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema

from helia_aot.golden.references import ReferenceRefused
from tests.e2e import harness, tflm
from tests.e2e.test_float16 import float16_case, max_abs_diffs
from tests.e2e.test_single_op import FP32_CASE_RELATIVE_BOUND, FP32_VARIANT_PREFIX
from tests.modelgen.cases import Case, all_case_paths, is_float16_case, load_case

CASE_PATHS = all_case_paths()
SUITE_CASES = "single-op vs TFLM"
SUITE_MODELS = "shared models vs TFLM"

BIT_IDENTICAL_MODELS = tflm.BIT_IDENTICAL_MODELS


@dataclasses.dataclass(frozen=True)
class Known:
    """A case whose module output is known to differ from TFLM's: the largest difference allowed,
    the operator responsible and why."""

    bound: float
    operator: str
    reason: str
    # The difference depends on memory TFLM leaves unwritten, so a run may also match.
    may_match: bool = False


_RELU6 = ("TFLM's RELU6 clamps codes in the input's quantization and copies them (Relu6Prepare reads only the "
          "input's scale and zero point), ignoring an output quantization that differs; LiteRT and the module "
          "requantize to the output's")
# Measured on the host (tests/e2e/MEASURED.md, "max |diff| vs TFLM"): case name -> Known.
KNOWN_DIFFERENCES: dict[str, Known] = {
    "relu6_requantize": Known(255, "RELU6", _RELU6),
    "relu6_int16_requantize": Known(65535, "RELU6", _RELU6),
    "transpose_conv_int16_3x2_stride2x1_same_bias_int32": Known(
        65535, "TRANSPOSE_CONV",
        "TFLM's int16 TRANSPOSE_CONV handles int16 and int64 biases only and reads an int32 bias as int64 (pairs "
        "of int32 values, and past the bias's end), so its outputs are wrong; LiteRT and the module read int32"),
    "unidirectional_sequence_lstm_float32_relu_n1_to_1": Known(
        1.0, "UNIDIRECTIONAL_SEQUENCE_LSTM",
        "TFLM's float LSTM does not apply a fused RELU_N1_TO_1 as LiteRT does (its gate activation, lstm_eval.h "
        "CalculateLstmGate, handles sigmoid and tanh; any other value reaches an assert compiled out of release "
        "builds); LiteRT applies it with ApplyActivationToVector and the module follows LiteRT (measured 0.93)"),
    "add_int32_relu6_rank5": Known(
        40, "ADD",
        "TFLM's int32 ADD ignores the fused activation (its Prepare sets the int32 range for int32 outputs) while "
        "LiteRT's clamps to it (here RELU6 on sums of -40..40), and the module follows LiteRT"),
    "mul_int16_same_shape": Known(
        1, "MUL",
        "TFLM computes the multiplier in1 x in2 / out scale in double precision, LiteRT (and helia_aot, which "
        "follows it) multiplies the float scales in single precision first: the 31-bit multipliers differ in "
        "their low bits (1082155055 and 1082155008 here) and a product near a .5 boundary rounds one code apart"),
    "fully_connected_int16_bias_int32": Known(
        1, "FULLY_CONNECTED",
        "with an int32 bias TFLM's int16 FULLY_CONNECTED accumulates in int32 and requantizes with the full 32-bit "
        "multiplier, as LiteRT does; ns-cmsis-nn's arm_fully_connected_s16 rescales with the multiplier rounded to "
        "16 bits (the README's int16 FULLY_CONNECTED difference), one code apart at a .5 boundary"),
    **{name: Known(
        65535, "RSQRT",
        "TFLM's int16 RSQRT runs its int8 integer algorithm (GetInvSqrtQuantizedMultiplierExp on the code "
        "shifted by 2^20), far coarser than int16; LiteRT's int16 RSQRT, which the module follows, is exact to "
        "a code (measured 9322 and 560 codes from TFLM)")
       for name in ("rsqrt_int16_range2", "rsqrt_int16_rank4_range50")},
    **{name: Known(
        bound, "SPACE_TO_BATCH_ND",
        "TFLM's SPACE_TO_BATCH_ND does not write the zero point into padded positions: they hold 0 on a fresh "
        "arena (LiteRT and the module: the output zero point) and stale arena contents on later invocations",
        may_match=True)
       # Stale float bytes can be any value (1.6e35 measured), so the float case has no finite bound.
       for name, bound in (("space_to_batch_nd_3d_block3", 255), ("space_to_batch_nd_4d_padded", 255),
                           ("space_to_batch_nd_float32_4d_padded", float("inf")))},
    **{name: Known(
        1, "GREATER",
        "LiteRT's int16 GREATER compares the raw codes (its kernel ignores the scales), and the module calls "
        "arm_greater_s16 to do the same; TFLM rescales int16 inputs before comparing, so codes that map to "
        "nearly equal reals can compare differently (measured: 1, the bool flips)")
       for name in ("greater_int16_broadcast", "greater_int16_same_shape")},
    **{name: Known(
        1, "PRELU",
        "TFLM's int16 PRELU rescales the negative branch with its own multiplier rounding; LiteRT's (which "
        "arm_prelu_s16 and the module match bit for bit) rounds one code apart at a .5 boundary. Not traced "
        "further inside TFLM")
       for name in ("prelu_int16_alpha_hw", "prelu_int16_per_channel_alpha")},
    "unidirectional_sequence_lstm_float32_relu_one_step": Known(
        1e7, "UNIDIRECTIONAL_SEQUENCE_LSTM",
        "TFLM's float LSTM departs from LiteRT's on this relu cell without clipping (0.68 on a fresh interpreter, "
        "1.1e6 after 20 invocations carrying the state); LiteRT and the module agree within 1e-5 of the range. "
        "Not traced further inside TFLM's kernel"),
}

# Cases whose model crashes TFLM (helia_aot.golden.references probes it in a forked child first): name -> reason.
TFLM_CRASHES = {
    name: "TFLM's SVDF reads the bias these models do not have and crashes (SIGSEGV) preparing them"
    for name in ("svdf_rank2_no_bias", "svdf_float32_rank2_batch2_no_bias")
}


def _has_float16_tensor(model_bytes: bytes) -> bool:
    graph = schema.ModelT.InitFromPackedBuf(model_bytes, 0).subgraphs[0]
    return any(t.type == schema.TensorType.FLOAT16 for t in graph.tensors)


# What TFLM prints when it refuses for each reason (helia_aot.golden.references puts it in the refusal).
_HYBRID_REFUSAL = r"Hybrid models are not supported|Input type: FLOAT32 with filter type: INT8 not supported"
_FLOAT16_REFUSAL = r"Node DEQUANTIZE \(number \d+\) failed to prepare"


def _has_scalar_input(model_bytes: bytes) -> bool:
    graph = schema.ModelT.InitFromPackedBuf(model_bytes, 0).subgraphs[0]
    return any(graph.tensors[i].shape is None or len(graph.tensors[i].shape) == 0 for i in graph.inputs)


def _has_uint16_input(model_bytes: bytes) -> bool:
    graph = schema.ModelT.InitFromPackedBuf(model_bytes, 0).subgraphs[0]
    return any(graph.tensors[i].type == schema.TensorType.UINT16 for i in graph.inputs)


def tflm_refusal_reason(case: Case, model_bytes: bytes) -> tuple[str, str] | None:
    """Why TFLM cannot run `model_bytes` (the model TFLM is given for `case`) and what TFLM says then
    (a regular expression), or None if it should run it."""
    if _has_scalar_input(model_bytes):
        return ("TFLM's Python interpreter cannot set a rank-0 (scalar) input: SetInputTensor reports a "
                "dimension mismatch", r"cannot take input \d+: Cannot set tensor: Dimension mismatch")
    if _has_uint16_input(model_bytes):
        return ("TFLM's Python interpreter has no uint16 type for inputs (it reads the array as NOTYPE)",
                r"cannot take input \d+: Cannot set tensor: Got value of type NOTYPE but expected type UINT16")
    if case.name in TFLM_CRASHES:
        return TFLM_CRASHES[case.name], r"crashed \(signal \d+\)"
    if case.op in ("AVERAGE_POOL_2D", "MAX_POOL_2D") and case.variant.startswith("requantizing"):
        return ("TFLM's PoolingPrepare refuses a pool whose output is quantized differently from its input; LiteRT "
                "runs it on the codes", rf"scale_diff <= 1.0e-6 was not true. Node {case.op} \(number \d+\)")
    if case.variant.startswith("hybrid"):
        return ("TFLM has no hybrid kernels (float32 activations with int8 weights): its CONV_2D and "
                "FULLY_CONNECTED refuse them in Prepare", _HYBRID_REFUSAL)
    if _has_float16_tensor(model_bytes):
        return ("TFLM's DEQUANTIZE takes int8, uint8 and int16 inputs, not float16 (the model dequantizes "
                "float16 data or weights)", _FLOAT16_REFUSAL)
    return None


def _case_model(e2e, path):
    case = load_case(path)
    if is_float16_case(case):
        # LiteRT and TFLM both run the FP32 original (tests/e2e/test_float16.py) on the same inputs.
        model = float16_case(e2e, path)
        return case, model, model.reference_bytes, lambda: tflm.outputs(model.reference_bytes, model.samples)
    model = e2e.case(path)
    return case, model, model.model_bytes, lambda: model.tflm_reference


def _first_divergence(e2e, model) -> str:
    first = harness.first_divergence(tflm.operator_diffs(e2e, model, e2e.portable_host_library()))
    return str(first) if first else "none (only at model outputs)"


@pytest.mark.parametrize("path", CASE_PATHS, ids=[p.stem for p in CASE_PATHS])
def test_case_against_tflm(e2e, path, record_property):
    case, model, tflm_model_bytes, tflm_outputs = _case_model(e2e, path)
    refusal = tflm_refusal_reason(case, tflm_model_bytes)
    try:
        want = tflm_outputs()
    except ReferenceRefused as refused:
        said = str(refused).split(": ", 1)[-1]
        e2e.record(SUITE_CASES, case.name, max_abs_diff_tflm=f"TFLM refuses: {refusal[0] if refusal else said}")
        if refusal is None:
            # TFLM lacks the operator, or the operator for these types: its own message must name the
            # case's operator (a refusal elsewhere, or a bare failure, would be a finding).
            assert re.search(rf"Node {case.op} \(number \d+\)|opcode '{case.op}'", said), (
                f"{case.name}: TFLM refuses the model without naming {case.op}: {refused}")
            return
        assert re.search(refusal[1], str(refused)), f"{case.name}: TFLM refuses for another reason: {refused}"
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
    integer_differs = any(d > 0 for d, f in zip(against_tflm, float_outputs) if not f or known is not None)
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
        if is_float and known is None:
            relative = (FP32_CASE_RELATIVE_BOUND if case.variant.startswith(FP32_VARIANT_PREFIX)
                        else model.relative_tolerance)
            bound = relative * ranges[index] if relative is not None else model.tolerance
            assert diff <= bound, f"{case.name} output {index}: max |diff| {diff:g} against TFLM exceeds {bound:g}"
        elif known is None:
            assert diff == 0, (f"{case.name} output {index}: max |diff| {diff:g} against TFLM, where TFLM's "
                               f"reference kernel and ns-cmsis-nn compute the same; first operator differing: "
                               f"{fields.get('first_divergence_tflm')}")
        else:
            # Stale float bytes TFLM leaves unwritten may read as NaN: a NaN difference is such a byte too.
            assert diff <= known.bound or (known.may_match and is_float and diff != diff), (
                f"{case.name} output {index}: max |diff| {diff:g} against TFLM exceeds "
                f"the known {known.bound:g} ({known.operator}: {known.reason})")
    if known is not None and not known.may_match:
        assert integer_differs, f"{case.name}: now bit-identical to TFLM; drop it from KNOWN_DIFFERENCES"
    if known is not None and integer_differs and not known.may_match:
        assert f" {known.operator} (" in fields["first_divergence_tflm"], (
            f"{case.name}: differs from TFLM first at {fields['first_divergence_tflm']}, not at {known.operator}")


# --------------------------------------------------------------------------- shared models


SHARED_MODELS = [*harness.MLPERF_MODELS, *tflm.TFLM_MODELS]
# Shared models TFLM cannot run: name -> (reason, what TFLM says).
TFLM_REFUSED_MODELS = {
    "kws_ref_model_float32": ("hybrid (float32 activations, int8 convolution weights): TFLM's CONV_2D refuses "
                              "hybrid models in Prepare", _HYBRID_REFUSAL),
}


def _litert_diffs(model, got) -> list[float] | str:
    refusal = getattr(model, "litert_refusal", None)
    if refusal:
        # LiteRT glues one message per tensor together ("...Was 3.Tensor 33 has ..."): keep the first.
        reason = re.split(r"(?<=\.)(?=[A-Z])", refusal.removeprefix("LiteRT cannot load the model: "))[0]
        return f"LiteRT refuses it: {reason if len(reason) <= 90 else reason[:87] + '...'}"
    return harness.per_output_max_diff(got, model.reference)


def _check_shared_model(e2e, name, library, suite, record_property):
    model = tflm.shared_model_or_skip(e2e, name)
    try:
        want = model.tflm_reference
    except ReferenceRefused as refused:
        reason, said = TFLM_REFUSED_MODELS.get(name, (str(refused), ""))
        e2e.record(suite, name, max_abs_diff_tflm=f"TFLM refuses: {reason}")
        assert name in TFLM_REFUSED_MODELS, f"{name}: TFLM refuses the model ({refused}) and no reason is listed"
        assert re.search(said, str(refused)), f"{name}: TFLM refuses for another reason: {refused}"
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


@pytest.mark.parametrize("name", SHARED_MODELS)
def test_shared_model_against_tflm(e2e, name, record_property):
    _check_shared_model(e2e, name, e2e.portable_host_library(), SUITE_MODELS, record_property)


@pytest.mark.parametrize("name", [n for n in SHARED_MODELS if n in BIT_IDENTICAL_MODELS])
def test_shared_model_ns_cmsis_nn_against_tflm(e2e, ns_cmsis_nn_root, name, record_property):
    _check_shared_model(e2e, name, e2e.ns_cmsis_nn_host_library(ns_cmsis_nn_root),
                        SUITE_MODELS + " (ns-cmsis-nn, host)", record_property)


def test_person_detect_reference_falls_back_to_tflm(e2e):
    """LiteRT refuses person_detect, so its reference is TFLM's, as helia_aot's golden data does."""
    model = tflm.shared_model_or_skip(e2e, "person_detect")
    assert model.litert_refusal is not None and "quantized_dimension" in model.litert_refusal
    assert all(np.array_equal(r, t) for rs, ts in zip(model.reference, model.tflm_reference) for r, t in zip(rs, ts))


def test_person_detect_golden_harness_passes_at_tolerance_zero(e2e, tmp_path):
    """The user's path: `helia-aot convert --test` on person_detect takes its golden data from TFLM (LiteRT
    refuses the model, the report says so) and the generated C harness, built with the portable kernels
    under ASan/UBSan, passes with tolerance 0 on 20 samples."""
    import helia_aot
    model = tflm.shared_model_or_skip(e2e, "person_detect")
    out = tmp_path / "person_detect"
    result = helia_aot.convert(model.model_bytes, out, prefix="pd", kernel_library="portable", with_test_data=True,
                               num_test_samples=harness.NUM_SAMPLES, tolerance=0)
    assert any(w.startswith("golden data from TensorFlow Lite Micro") for w in result.report["warnings"])
    library = e2e.portable_host_library()
    exe = tmp_path / "pd_golden"
    harness.run_command([harness.HOST_CC, *harness.HOST_CFLAGS, *library.define_flags, "-I", str(out / "include"),
                         *library.include_flags, *harness.module_sources(out),
                         *sorted(str(p) for p in (out / "test").glob("*.c")), str(library.archive), "-lm",
                         "-o", str(exe)], "build the person_detect golden harness",
                        timeout=harness.COMPILE_TIMEOUT_S)
    proc = harness.run_command([str(exe)], "run the person_detect golden harness", timeout=harness.HOST_RUN_TIMEOUT_S,
                               env=harness.SANITIZER_ENV)
    stdout = proc.stdout.decode()
    print(f"\n{stdout}")
    assert not any(m in proc.stderr.decode() for m in harness.SANITIZER_MARKERS)
    assert f"PASS: {harness.NUM_SAMPLES} samples, 1 outputs, tolerance 0" in stdout
    assert "output[0]: max_abs_diff=0 codes_off=0" in stdout

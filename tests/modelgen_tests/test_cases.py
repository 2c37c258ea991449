# SPDX-License-Identifier: Apache-2.0
"""Every YAML case file loads, builds a model that runs in LiteRT's reference
kernels, and is quantized sensibly; the loader rejects malformed files."""

import pathlib

import numpy as np
import pytest

from tests.modelgen import CaseFileError, quant
from tests.modelgen.cases import (all_case_paths, build_case_model, build_float_twin,
                                  input_float_range, load_case)
from tests.modelgen.litert import make_interpreter, run_reference, random_inputs

CASE_PATHS = all_case_paths()
CASE_IDS = [p.stem for p in CASE_PATHS]

# The int8 operators of the compiler issue; each needs at least one case.
INT8_OPERATORS = {
    "CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "AVERAGE_POOL_2D", "MAX_POOL_2D",
    "RESHAPE", "SQUEEZE", "EXPAND_DIMS", "SOFTMAX", "ADD", "SUB", "MUL", "QUANTIZE",
    "DEQUANTIZE", "CONCATENATION", "PAD", "RELU", "RELU6", "LEAKY_RELU", "HARD_SWISH",
    "LOGISTIC", "TANH", "MEAN", "TRANSPOSE", "STRIDED_SLICE",
}
REQUIRED_VARIANTS = {
    "conv_2d_3x3_stride2_same", "conv_2d_1x1_stride1", "conv_2d_1xn",
    "conv_2d_per_channel_relu6", "depthwise_conv_2d_3x3_mult1", "depthwise_conv_2d_mult2",
    "depthwise_conv_2d_stride2_valid", "fully_connected_per_tensor", "fully_connected_relu",
    "add_same_shape", "add_broadcast", "sub_same_shape", "sub_broadcast", "mul_same_shape",
    "mul_broadcast", "quantize_float_to_int8", "quantize_int8_requantize",
    "dequantize_int8_to_float", "concatenation_channels", "concatenation_height",
    "mean_hw_keep_dims",
}
DTYPES = {"int8": np.int8, "float32": np.float32}


def test_every_int8_operator_has_a_case():
    ops = {load_case(p).op for p in CASE_PATHS}
    assert INT8_OPERATORS - ops == set()
    assert REQUIRED_VARIANTS - set(CASE_IDS) == set()


@pytest.mark.parametrize("path", CASE_PATHS, ids=CASE_IDS)
def test_case_runs_in_litert_reference(path):
    case = load_case(path)
    data = build_case_model(case)
    interp = make_interpreter(data)
    outputs = interp.get_output_details()
    assert len(outputs) == len(case.outputs)
    for detail, spec in zip(outputs, case.outputs):
        assert tuple(detail["shape"]) == tuple(spec["shape"]), spec["name"]
        assert detail["dtype"] == DTYPES[spec.get("dtype", "int8")]
        if "scale" in spec:
            assert detail["quantization"] == pytest.approx((spec["scale"], spec["zero_point"]))
    generator = quant.rng(case.seed)
    for _ in range(3):
        results = run_reference(data, random_inputs(data, generator))
        for result, spec in zip(results, case.outputs):
            assert result.shape == tuple(spec["shape"])
            assert np.all(np.isfinite(result.astype(np.float64)))
            # A constant output would mean the quantization threw the signal away.
            assert np.unique(result).size > 1, f"{case.name}: output is constant"


@pytest.mark.parametrize("path", CASE_PATHS, ids=CASE_IDS)
def test_case_model_is_deterministic(path):
    case = load_case(path)
    assert build_case_model(case) == build_case_model(load_case(path))


def _dequantized(q_inputs, details):
    return [((x.astype(np.float64) - d["quantization"][1]) * d["quantization"][0])
            .astype(np.float32) for x, d in zip(q_inputs, details)]


def _quantized_twin_cases():
    for path in CASE_PATHS:
        case = load_case(path)
        if case.op in ("QUANTIZE", "DEQUANTIZE"):  # no float32 -> float32 form exists
            continue
        yield pytest.param(path, id=path.stem)


@pytest.mark.parametrize("path", list(_quantized_twin_cases()))
def test_int8_model_tracks_its_float_twin(path):
    """The int8 model's dequantized outputs stay within about one output step of the
    same operator in float32 on the same (dequantized) inputs: checks the builder's
    weight, bias and output quantization fit together."""
    case = load_case(path)
    data = build_case_model(case)
    twin = build_float_twin(case)
    interp = make_interpreter(data)
    in_details = interp.get_input_details()
    out_details = interp.get_output_details()
    generator = quant.rng(case.seed + 7)
    for _ in range(5):
        q_inputs = random_inputs(data, generator)
        f_inputs = _dequantized(q_inputs, in_details)
        for q_out, f_out, d in zip(run_reference(data, q_inputs), run_reference(twin, f_inputs),
                                   out_details):
            scale, zero_point = d["quantization"]
            lo, hi = (-128 - zero_point) * scale, (127 - zero_point) * scale
            deq = (q_out.astype(np.float64) - zero_point) * scale
            err = np.max(np.abs(deq - np.clip(f_out, lo, hi))) / scale
            assert err <= 1.0, f"{case.name}: {err:.2f} output steps from float"


@pytest.mark.parametrize("path", [p for p in CASE_PATHS
                                  if any(o.get("calibrate") for o in load_case(p).outputs)],
                         ids=lambda p: p.stem)
def test_calibrated_output_range_covers_float_outputs(path):
    """Calibration picks an output range that holds almost all float outputs on fresh
    random inputs (a RELU6 clamp is not saturation: the float twin clamps too)."""
    case = load_case(path)
    data = build_case_model(case)
    twin = build_float_twin(case)
    interp = make_interpreter(data)
    in_details = interp.get_input_details()
    scale, zero_point = interp.get_output_details()[0]["quantization"]
    lo, hi = (-128 - zero_point) * scale, (127 - zero_point) * scale
    generator = quant.rng(case.seed + 11)
    outs = np.concatenate([
        run_reference(twin, _dequantized(random_inputs(data, generator), in_details))[0].ravel()
        for _ in range(10)])
    outside = np.mean((outs < lo - scale / 2) | (outs > hi + scale / 2))
    assert outside < 0.02
    # ...and is not wastefully wide: the outputs use most of the code range.
    assert (outs.max() - outs.min()) / (hi - lo) > 0.5


def test_input_range_quantization_is_derived_from_range():
    case = load_case(next(p for p in CASE_PATHS if p.stem == "conv_2d_3x3_stride2_same"))
    lo, hi = input_float_range(case, "input")
    step = 4.0 / 255  # range [-2, 2] over 255 steps; zero point nudged to an integer
    assert hi - lo == pytest.approx(255 * step, rel=1e-6)
    assert abs(lo + 2.0) <= step and abs(hi - 2.0) <= step


def _write(tmp_path: pathlib.Path, name: str, text: str) -> pathlib.Path:
    path = tmp_path / name
    path.write_text(text)
    return path


GOOD = """\
op: RELU
variant: tiny
seed: 1
inputs:
  - {name: input, shape: [1, 4], range: [-1, 1]}
outputs:
  - {name: output, shape: [1, 4], calibrate: true}
tolerance: 1
tolerance_reason: no known difference; one code is the int8 bound.
"""


def test_minimal_case_file_loads(tmp_path):
    case = load_case(_write(tmp_path, "relu_tiny.yaml", GOOD))
    assert (case.op, case.variant, case.tolerance) == ("RELU", "tiny", 1.0)
    assert run_reference(build_case_model(case), [np.arange(-2, 2, dtype=np.int8)
                                                  .reshape(1, 4)])[0].shape == (1, 4)


@pytest.mark.parametrize("text, file_name, message", [
    (GOOD.replace("tolerance_reason: no known difference; one code is the int8 bound.\n", ""),
     "relu_tiny.yaml", "missing key 'tolerance_reason'"),
    (GOOD + "tolerence: 2\n", "relu_tiny.yaml", "unknown key 'tolerence'"),
    (GOOD, "relu_other.yaml", "file name must be 'relu_tiny.yaml'"),
    (GOOD.replace("range: [-1, 1]", "range: [1, -1]"), "relu_tiny.yaml", "range must be [lo, hi]"),
    (GOOD.replace("calibrate: true", "calibrate: true, same_as: input"), "relu_tiny.yaml",
     "needs exactly one of"),
    (GOOD.replace("{name: input,", "{name: input, kind: weight,"), "relu_tiny.yaml",
     "unknown kind 'weight'"),
    (GOOD.replace("seed: 1", "seed: one"), "relu_tiny.yaml", "'seed' must be an integer"),
    (GOOD.replace("tolerance: 1\n", "tolerance: -1\n"), "relu_tiny.yaml",
     "'tolerance' must be a non-negative number"),
    ("op: [unclosed\n", "relu_tiny.yaml", "not valid YAML"),
])
def test_bad_case_files_are_rejected_with_the_key_named(tmp_path, text, file_name, message):
    path = _write(tmp_path, file_name, text)
    with pytest.raises(CaseFileError, match=message.replace("[", r"\[").replace("]", r"\]")):
        case = load_case(path)
        build_case_model(case)


def test_bad_option_names_the_operator_and_option(tmp_path):
    text = GOOD.replace("op: RELU", "op: SOFTMAX").replace("variant: tiny", "variant: bad") \
        .replace("seed: 1", "seed: 1\noptions: {betta: 1.0}")
    path = _write(tmp_path, "softmax_bad.yaml", text)
    with pytest.raises(CaseFileError, match="SOFTMAX: unknown option 'betta'.*'beta'"):
        build_case_model(load_case(path))

# SPDX-License-Identifier: Apache-2.0
"""Every YAML case file loads, builds a model that runs in LiteRT's reference
kernels, and is quantized sensibly; the loader rejects malformed files."""

import pathlib
import re

import numpy as np
import pytest

from tests.modelgen import CaseFileError, quant
from tests.modelgen.cases import (FLOATS, all_case_paths, build_case_model, build_float_twin, float_sample_ranges,
                                  integer_sample_ranges,
                                  build_reference_model, input_float_range, load_case)
from tests.modelgen.litert import declared_details, io_details, make_interpreter, run_reference, random_inputs

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
# The A16W8 (int16 activation, int8 weight) cases and the TRANSPOSE_CONV cases.
INT16_VARIANTS = {
    "conv_2d_int16_3x3_same", "conv_2d_int16_3x5_stride2x1_bias_int32",
    "depthwise_conv_2d_int16_3x3_mult1", "depthwise_conv_2d_int16_5x3_stride1x2_mult2",
    "fully_connected_int16_per_channel", "fully_connected_int16_bias_int32",
    "transpose_conv_int8_3x3_stride2_same", "transpose_conv_int8_2x4_stride2x1_valid_relu",
    "transpose_conv_int16_3x3_stride2_same", "transpose_conv_int16_3x2_stride2x1_same_bias_int32",
    "add_int16_same_shape", "add_int16_broadcast", "sub_int16_same_shape", "sub_int16_broadcast",
    "mul_int16_same_shape", "mul_int16_broadcast", "average_pool_2d_int16_3x3_stride2_same",
    "max_pool_2d_int16_3x2_stride2x1_same", "softmax_int16_10", "softmax_int8_to_int16",
    "logistic_int16_range8", "tanh_int16_range5", "leaky_relu_int16_alpha_0_2",
    "relu_int16_requantize", "relu6_int16_requantize", "pad_int16_hw", "padv2_int16_hw_value",
    "strided_slice_int16_hw_c", "concatenation_int16_channels", "transpose_int16_nhwc_to_nchw",
    "mean_int16_hw_keep_dims", "reshape_int16_flatten", "squeeze_int16_hw",
    "expand_dims_int16_axis1", "quantize_float_to_int16", "quantize_int16_requantize",
    "quantize_int8_to_int16", "quantize_int16_to_int8", "quantize_int16_to_int32",
    "quantize_int32_to_int16", "dequantize_int16_to_float",
}
DTYPES = {"int8": np.int8, "int16": np.int16, "int32": np.int32, "float32": np.float32,
          "float16": np.float32,  # a float16 case runs as the FP32 model it is rewritten from
          "int64": np.int64, "uint8": np.uint8, "bool": np.bool_, "uint16": np.uint16, "uint32": np.uint32,
          "uint64": np.uint64}
# Output steps an int16 output may sit from its float twin: the requantization (<= 0.5),
# plus the 16-bit multiplier LiteRT's int64-accumulator path rounds to (<= 0.5); the
# int16 LOGISTIC, TANH and SOFTMAX interpolate lookup tables.
INT16_TWIN_STEPS = {"LOGISTIC": 4.0, "TANH": 4.0, "SOFTMAX": 6.0}
INT16_TWIN_STEPS_DEFAULT = 1.5
CONSTANT_OUTPUT_OPS = ("FILL", "ZEROS_LIKE", "SHAPE")
# LiteRT's int16 EXP, LOG, RSQRT and GELU interpolate a 513-entry table: where the function is steep (log and
# 1/sqrt near 0, exp and GELU over wide ranges) the result departs from the float function by more codes.
INT16_TWIN_STEPS.update({"EXP": 12.0, "GELU": 16.0})
# TFLM's int16 SQUARED_DIFFERENCE rescales each input to half a code of twice the larger scale with no left shift
# first: a half-code rounding of the difference, doubled by the square near the range's ends (2.1 steps measured).
INT16_TWIN_STEPS["SQUARED_DIFFERENCE"] = 3.0
# int16 LOG and RSQRT interpolate from the table's extreme at 0 to the next sample 128 codes on: no twin bound.
INT16_NO_TWIN = ("LOG", "RSQRT")


def test_every_int8_operator_has_a_case():
    ops = {load_case(p).op for p in CASE_PATHS}
    assert INT8_OPERATORS - ops == set()
    assert REQUIRED_VARIANTS - set(CASE_IDS) == set()


def test_every_int16_variant_has_a_case():
    assert INT16_VARIANTS - set(CASE_IDS) == set()
    # Convolution-like operators have two cases each, in each data type they support.
    for prefix in ("conv_2d_int16", "depthwise_conv_2d_int16", "fully_connected_int16",
                   "transpose_conv_int8", "transpose_conv_int16"):
        assert len([c for c in CASE_IDS if c.startswith(prefix)]) >= 2, prefix


def test_litert_still_refuses_int16_hard_swish():
    """There is no int16 HARD_SWISH case because LiteRT's reference HARD_SWISH only
    takes float32, uint8 and int8; when that changes, add the case."""
    from tests.modelgen import ModelBuilder
    b = ModelBuilder()
    x = b.input("x", (1, 8), "int16", 5.0 / 32767, 0)
    y = b.tensor("y", (1, 8), "int16", 5.0 / 32767, 0)
    b.op("HARD_SWISH", [x], [y])
    b.output(y)
    with pytest.raises(RuntimeError, match="HARD_SWISH"):
        run_reference(b.build(), [np.arange(8, dtype=np.int16).reshape(1, 8)])


def _run_case(case, data, inputs):
    """One invocation of the case's model in its golden reference: LiteRT, or TFLM for a custom operator LiteRT
    lacks and for a case whose LiteRT kernel is wrong or refuses it (`reference: tflm`)."""
    if case.is_custom or case.reference == "tflm":
        from helia_aot.golden import references
        return references.TflmRunner(data).run(inputs)
    return run_reference(data, inputs)


@pytest.mark.parametrize("path", CASE_PATHS, ids=CASE_IDS)
def test_case_runs_in_litert_reference(path):
    """...or in TFLM's, for a custom operator (TFLM's Signal front end) or a case whose reference is TFLM."""
    case = load_case(path)
    data = build_reference_model(case)
    # The case's outputs are the model's declaration (a module's interface); LiteRT's Prepare may retype one
    # (ARG_MAX's / SHAPE's output_type), so they are read from the model, not from LiteRT's details.
    outputs = declared_details(data)[1]
    assert len(outputs) == len(case.outputs)
    for detail, spec in zip(outputs, case.outputs):
        assert tuple(detail["shape"]) == tuple(spec["shape"]), spec["name"]
        assert detail["dtype"] == DTYPES[spec.get("dtype", "int8")]
        if "scale" in spec:
            assert detail["quantization"] == pytest.approx((spec["scale"], spec["zero_point"]))
    generator = quant.rng(case.seed)
    for _ in range(3):
        results = _run_case(case, data, random_inputs(data, generator, integer_sample_ranges(case),
                                                      float_sample_ranges(case)))
        for result, spec in zip(results, case.outputs):
            assert result.shape == tuple(spec["shape"])
            assert np.all(np.isfinite(result.astype(np.float64)))
            # A constant output would mean the quantization threw the signal away (except a softmax
            # over rows of one class, which is 1.0 by definition).
            # FILL, ZEROS_LIKE and SHAPE write one value (or a constant) by definition; a single value (a
            # reduction to a scalar) cannot vary within one run, and continuous float inputs are never equal
            # (EQUAL / NOT_EQUAL of float32 give one answer everywhere).
            float_equality = case.op in ("EQUAL", "NOT_EQUAL") and case.inputs[0].get("dtype") == "float32"
            if not (case.op == "SOFTMAX" and spec["shape"][-1] == 1) and case.op not in CONSTANT_OUTPUT_OPS \
                    and result.size > 1 and not float_equality:
                assert np.unique(result).size > 1, f"{case.name}: output is constant"


@pytest.mark.parametrize("path", CASE_PATHS, ids=CASE_IDS)
def test_case_model_is_deterministic(path):
    case = load_case(path)
    assert build_case_model(case) == build_case_model(load_case(path))


def _real_range(detail):
    scale, zero_point = detail["quantization"]
    info = np.iinfo(detail["dtype"])
    return (info.min - zero_point) * scale, (info.max - zero_point) * scale


def _dequantized(q_inputs, details):
    # Unquantized inputs (scale 0: indices, shapes, bools) are the same values in the float twin.
    return [((x.astype(np.float64) - d["quantization"][1]) * d["quantization"][0]).astype(np.float32)
            if d["quantization"][0] else x for x, d in zip(q_inputs, details)]


def _unquantized(spec) -> bool:
    """A bool or plain integer tensor of a case (no range, scale or calibration)."""
    return spec.get("dtype") == "bool" or ("values" in spec) or (
        spec.get("dtype") in ("int32", "int64") and not {"range", "scale", "calibrate", "same_as"} & set(spec))


def _quantized_twin_cases():
    for path in CASE_PATHS:
        case = load_case(path)
        if case.op in ("QUANTIZE", "DEQUANTIZE"):  # no float32 -> float32 form exists
            continue
        if case.op == "CAST":  # converts codes as integers (wrapping), not real values
            continue
        if case.op == "ZEROS_LIKE":  # code 0, not real 0 (TensorFlow's zeros_like of integers)
            continue
        if case.op in INT16_NO_TWIN and any(spec.get("dtype") == "int16" for spec in case.inputs):
            continue
        if case.op == "SUM" and any(spec.get("dtype", "int8") == "int8" for spec in case.outputs):
            continue  # LiteRT 2.3's int8 SUM reads the codes as uint8 (see helia_aot/ops/sum.py): it does not track
        if case.name == "concatenation_int16_other_scales":
            continue  # the references copy int16 codes whatever the scales: by design not the float function
        if case.op in ("AVERAGE_POOL_2D", "MAX_POOL_2D") and case.variant.startswith("requantizing"):
            continue  # LiteRT pools the codes whatever the output's quantization: by design not the float function
        if case.op == "SVDF":
            # LiteRT's integer SVDF requires fused RELU and applies none, where its float SVDF applies
            # it, and adds the bias in the state x time-weight scale: the float twin is another function.
            continue
        if any(spec.get("dtype") in FLOATS for spec in case.inputs + case.outputs
               if spec.get("kind", "activation") == "activation"):
            continue  # float data (float32, float16, hybrid): a float case is its own twin
        if any(_unquantized(spec) for spec in case.inputs + case.outputs
               if spec.get("kind", "activation") == "activation"):
            continue  # bools and plain integers (indices, shapes, casts) have no float form
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
        q_inputs = random_inputs(data, generator, integer_sample_ranges(case))
        f_inputs = _dequantized(q_inputs, in_details)
        # The quantized model runs in the case's own reference (TFLM where LiteRT's kernel is wrong: int16 SUM
        # at two scales is 32768 codes off in LiteRT); the float twin in LiteRT.
        for q_out, f_out, d in zip(_run_case(case, data, q_inputs), run_reference(twin, f_inputs),
                                   out_details):
            scale, zero_point = d["quantization"]
            lo, hi = _real_range(d)
            deq = (q_out.astype(np.float64) - zero_point) * scale
            err = np.max(np.abs(deq - np.clip(f_out, lo, hi))) / scale
            bound = 1.0 if d["dtype"] != np.int16 else \
                INT16_TWIN_STEPS.get(case.op, INT16_TWIN_STEPS_DEFAULT)
            assert err <= bound, f"{case.name}: {err:.2f} output steps from float"


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
    out_detail = interp.get_output_details()[0]
    scale, _ = out_detail["quantization"]
    lo, hi = _real_range(out_detail)
    generator = quant.rng(case.seed + 11)
    outs = np.concatenate([
        run_reference(twin, _dequantized(random_inputs(data, generator, integer_sample_ranges(case)),
                                         in_details))[0].ravel()
        for _ in range(10)])
    outside = np.mean((outs < lo - scale / 2) | (outs > hi + scale / 2))
    assert outside < 0.02
    # ...and is not wastefully wide: the outputs use most of the code range (of the
    # half that holds them, for symmetric int16 outputs of one sign, e.g. RELU).
    if out_detail["dtype"] == np.int16:
        assert np.max(np.abs(outs)) / hi > 0.5
    else:
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


FLOAT_GOOD = """\
op: FULLY_CONNECTED
variant: float32_tiny
seed: 3
inputs:
  - {name: input, shape: [1, 6], dtype: float32}
  - {name: weights, kind: weights, shape: [4, 6], dtype: float32}
  - {name: bias, kind: bias, input: input, weights: weights, dtype: float32}
outputs:
  - {name: output, shape: [1, 4], dtype: float32}
relative_tolerance: 1.0e-5
tolerance_reason: float32, bounded by a fraction of the output's range.
"""


def test_float32_case_keeps_weights_and_bias_float(tmp_path):
    case = load_case(_write(tmp_path, "fully_connected_float32_tiny.yaml", FLOAT_GOOD))
    assert (case.relative_tolerance, case.tolerance) == (1e-5, 0.0)
    interp = make_interpreter(build_case_model(case), preserve_all_tensors=True)
    tensors = {d["name"]: d for d in interp.get_tensor_details()}
    for name, shape in (("weights", (4, 6)), ("bias", (4,))):
        assert tensors[name]["dtype"] == np.float32 and tuple(tensors[name]["shape"]) == shape
        assert len(tensors[name]["quantization_parameters"]["scales"]) == 0
    x = np.linspace(-1, 1, 6, dtype=np.float32).reshape(1, 6)
    w, b = interp.get_tensor(tensors["weights"]["index"]), interp.get_tensor(tensors["bias"]["index"])
    got = run_reference(build_case_model(case), [x])[0]
    np.testing.assert_allclose(got, x @ w.T + b, rtol=1e-6, atol=1e-6)
    # Same seed, same values: the case is reproducible.
    again = make_interpreter(build_case_model(case), preserve_all_tensors=True)
    assert np.array_equal(again.get_tensor(tensors["weights"]["index"]), w)


@pytest.mark.parametrize("old, new, message", [
    ("relative_tolerance: 1.0e-5\n", "", "missing key 'tolerance' (or 'relative_tolerance'"),
    ("relative_tolerance: 1.0e-5\n", "relative_tolerance: -1.0e-5\n",
     "'relative_tolerance' must be a non-negative number"),
    ("kind: weights, shape: [4, 6], dtype: float32", "kind: weights, shape: [4, 6], dtype: float64",
     "must be int8 (A16W8 and hybrid operators keep int8 weights), float32 or float16"),
])
def test_bad_float32_case_files_are_rejected(tmp_path, old, new, message):
    path = _write(tmp_path, "fully_connected_float32_tiny.yaml", FLOAT_GOOD.replace(old, new))
    with pytest.raises(CaseFileError, match=message.replace("(", r"\(").replace(")", r"\)")):
        build_case_model(load_case(path))


CUSTOM_GOOD = """\
op: CUSTOM:SignalWindow
variant: tiny
seed: 5
reference: tflm
custom_options: {shift: 12}
inputs:
  - {name: input, shape: [1, 8], dtype: int16, values: [-32768, 32767]}
  - {name: window, kind: const, dtype: int16, value: [0, 512, 1024, 2048, 4096, 4096, 2048, 512]}
outputs:
  - {name: output, shape: [1, 8], dtype: int16}
tolerance: 0
tolerance_reason: integer arithmetic identical to TFLM's kernel, so bit-identical.
"""


def test_custom_operator_case_builds_a_flexbuffer_custom_op_tflm_runs(tmp_path):
    from flatbuffers import flexbuffers

    from helia_aot.golden import references
    from helia_aot.frontend import litert as frontend
    case = load_case(_write(tmp_path, "signal_window_tiny.yaml", CUSTOM_GOOD))
    assert case.is_custom and case.name == "signal_window_tiny" and case.custom_options == {"shift": 12}
    data = build_case_model(case)
    op = frontend.load(data).operators[0]
    assert op.op_type == "CUSTOM:SignalWindow" and flexbuffers.Loads(op.custom_options) == {"shift": 12}
    assert [d["dtype"] for d in io_details(data)[0]] == [np.int16]
    assert integer_sample_ranges(case) == {"input": (-32768, 32767)}
    x = np.array([[1000, -1000, 32767, -32768, 7, 8, 9, 10]], dtype=np.int16)
    got = references.TflmRunner(data).run([x])[0]
    window = np.array([0, 512, 1024, 2048, 4096, 4096, 2048, 512], dtype=np.int64)
    assert got.tolist() == [((x[0].astype(np.int64) * window) >> 12).tolist()]


@pytest.mark.parametrize("old, new, file_name, message", [
    ("", "", "signalwindow_tiny.yaml", "file name must be 'signal_window_tiny.yaml'"),
    ("reference: tflm\n", "", "signal_window_tiny.yaml", "LiteRT cannot run it; set 'reference: tflm'"),
    ("custom_options: {shift: 12}", "options: {shift: 12}", "signal_window_tiny.yaml",
     "takes 'custom_options' (its FlexBuffer attributes), not 'options'"),
    ("op: CUSTOM:SignalWindow", "op: 'CUSTOM:'", "_tiny.yaml", "needs a custom code after 'CUSTOM:'"),
    ("dtype: int16}\ntolerance", "dtype: int16, zero_point: 0}\ntolerance", "signal_window_tiny.yaml",
     "needs exactly one of"),
])
def test_bad_custom_case_files_are_rejected(tmp_path, old, new, file_name, message):
    with pytest.raises(CaseFileError, match=re.escape(message)):
        load_case(_write(tmp_path, file_name, CUSTOM_GOOD.replace(old, new)))


def test_custom_options_belong_to_custom_operators(tmp_path):
    with pytest.raises(CaseFileError, match="'custom_options' belongs to a custom operator"):
        load_case(_write(tmp_path, "relu_tiny.yaml", GOOD + "custom_options: {shift: 1}\n"))

# SPDX-License-Identifier: Apache-2.0
"""The A16W8 and TRANSPOSE_CONV case models follow the layout LiteRT's converter writes
and its int16 reference kernels require: symmetric int16 activations, int8 weights,
int64 (or declared int32) bias, fixed LOGISTIC/TANH/SOFTMAX outputs, op versions."""

import pathlib

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema

from tests.modelgen import BuilderError, CaseFileError, ModelBuilder, quant
from tests.modelgen.cases import all_case_paths, build_case_model, load_case
from tests.modelgen.litert import run_reference

TYPE_NAMES = {v: k.lower() for k, v in vars(schema.TensorType).items() if not k.startswith("_")}
OP_NAMES = {v: k for k, v in vars(schema.BuiltinOperator).items() if not k.startswith("_")}
# The integer TRANSPOSE_CONV cases count too (their int8 form shares the weight rules); float ones do not.
CASES = [p for p in all_case_paths() if ("int16" in p.stem or p.stem.startswith("transpose_conv"))
         and "float32" not in p.stem and "float16" not in p.stem]
# int16 tensors a case gives a zero point on purpose, and why the reference takes it.
ASYMMETRIC = {"quantize_float_to_int16_zero_point": "LiteRT's QUANTIZE (AffineQuantize) takes any int16 zero point"}
# Index of the data input and of the bias, per operator with weights.
WEIGHTED = {"CONV_2D": (0, 1, 2), "DEPTHWISE_CONV_2D": (0, 1, 2), "FULLY_CONNECTED": (0, 1, 2),
            "TRANSPOSE_CONV": (2, 1, 3)}
# Per-channel axis of the weights, as the converter quantizes them.
WEIGHT_AXIS = {"CONV_2D": 0, "DEPTHWISE_CONV_2D": 3, "FULLY_CONNECTED": 0, "TRANSPOSE_CONV": 0}

# Operator-code versions the converter's op-version rules give these cases
# (tflite/converter/tools/versioning/op_version.cc).
EXPECTED_VERSIONS = {
    "conv_2d_int16_3x3_same": 1,  # 16x8 without quantized_bias_type stays at 1
    "conv_2d_int16_3x5_stride2x1_bias_int32": 8,  # quantized_bias_type set
    "depthwise_conv_2d_int16_3x3_mult1": 1,
    "fully_connected_int16_per_channel": 1,
    "fully_connected_int16_bias_int32": 11,
    "transpose_conv_int8_3x3_stride2_same": 3,  # has a bias
    "transpose_conv_int8_2x4_stride2x1_valid_relu": 4,  # fused activation
    "transpose_conv_int16_3x3_stride2_same": 3,
    "transpose_conv_int16_3x2_stride2x1_same_bias_int32": 5,  # quantized_bias_type set
    "add_int16_same_shape": 3,  # pot_scale_int16 false
    "sub_int16_same_shape": 5,  # pot_scale_int16 false
    "mul_int16_same_shape": 4,
    "average_pool_2d_int16_3x3_stride2_same": 3, "max_pool_2d_int16_3x2_stride2x1_same": 3,
    "softmax_int16_10": 3, "softmax_int8_to_int16": 2, "logistic_int16_range8": 3,
    "tanh_int16_range5": 3, "leaky_relu_int16_alpha_0_2": 2, "relu_int16_requantize": 3,
    "relu6_int16_requantize": 3, "pad_int16_hw": 3, "padv2_int16_hw_value": 3,
    "strided_slice_int16_hw_c": 1, "concatenation_int16_channels": 3,
    "transpose_int16_nhwc_to_nchw": 5, "mean_int16_hw_keep_dims": 3, "reshape_int16_flatten": 1,
    "quantize_float_to_int16": 2, "quantize_int8_to_int16": 2, "quantize_int16_requantize": 2,
    "quantize_int32_to_int16": 2, "quantize_int16_to_int8": 1, "quantize_int16_to_int32": 1,
    "dequantize_int16_to_float": 3,
}


def _graph(data: bytes):
    model = schema.ModelT.InitFromPackedBuf(data, 0)
    return model, model.subgraphs[0]


def _quant(tensor):
    q = tensor.quantization
    if q is None or q.scale is None:
        return None, None
    return q.scale.astype(np.float64), q.zeroPoint


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_int16_tensors_are_symmetric_and_weights_int8(path):
    model, graph = _graph(build_case_model(load_case(path)))
    for t in graph.tensors:
        if TYPE_NAMES[t.type] in ("int16", "int32", "int64"):
            scale, zero_point = _quant(t)
            # The int16 output of an int8 softmax: zero point -32768, scale within TFLM's 0.1% of 1/65536.
            if scale is not None and path.stem not in ASYMMETRIC and not (
                    TYPE_NAMES[t.type] == "int16" and scale[0] == pytest.approx(1 / 65536, rel=1e-3)):
                assert not np.any(zero_point), f"{t.name}: zero point {zero_point}"
    op = graph.operators[0]
    name = OP_NAMES[model.operatorCodes[op.opcodeIndex].builtinCode]
    if name in WEIGHTED:
        _, w_index, _ = WEIGHTED[name]
        w = graph.tensors[op.inputs[w_index]]
        assert TYPE_NAMES[w.type] == "int8"
        scale, zero_point = _quant(w)
        assert not np.any(zero_point)
        if len(scale) > 1:
            assert w.quantization.quantizedDimension == WEIGHT_AXIS[name]


@pytest.mark.parametrize("path", [p for p in CASES if load_case(p).op in WEIGHTED],
                         ids=lambda p: p.stem)
def test_bias_dtype_and_scale_follow_the_converter(path):
    case = load_case(path)
    model, graph = _graph(build_case_model(case))
    op = graph.operators[0]
    x_index, w_index, b_index = WEIGHTED[case.op]
    if b_index >= len(op.inputs) or op.inputs[b_index] < 0:
        assert case.name == "transpose_conv_int8_2x4_stride2x1_valid_relu"
        return
    x, w, bias = (graph.tensors[op.inputs[i]] for i in (x_index, w_index, b_index))
    declared = getattr(op.builtinOptions, "quantizedBiasType", 0)
    if TYPE_NAMES[x.type] == "int8":
        expected = "int32"
    else:  # int64 unless the options declare int32
        expected = "int32" if declared == schema.TensorType.INT32 else "int64"
    assert TYPE_NAMES[bias.type] == expected
    np.testing.assert_allclose(_quant(bias)[0], _quant(x)[0][0] * _quant(w)[0], rtol=1e-6)
    assert not np.any(_quant(bias)[1])


@pytest.mark.parametrize("name, scale, zero_point", [
    ("softmax_int16_10", 1 / 32768, 0), ("logistic_int16_range8", 1 / 32768, 0),
    ("tanh_int16_range5", 1 / 32768, 0), ("softmax_int8_to_int16", 1 / 65536, -32768),
])
def test_fixed_int16_output_quantization(name, scale, zero_point):
    _, graph = _graph(build_case_model(load_case(all_case_paths()[0].parent / f"{name}.yaml")))
    out = graph.tensors[graph.outputs[0]]
    assert TYPE_NAMES[out.type] == "int16"
    assert _quant(out)[0].tolist() == [scale] and _quant(out)[1].tolist() == [zero_point]


@pytest.mark.parametrize("name, version", sorted(EXPECTED_VERSIONS.items()))
def test_operator_versions_are_the_converters(name, version):
    model, graph = _graph(build_case_model(load_case(all_case_paths()[0].parent /
                                                     f"{name}.yaml")))
    (code,) = model.operatorCodes
    assert code.version == version


def test_int8_to_int16_softmax_output_is_in_65536ths_from_minus_32768():
    """Why that case's output quantization is fixed: LiteRT's quantized softmax writes
    int16 probabilities as p * 65536 - 32768 whatever the tensor says."""
    case = load_case(all_case_paths()[0].parent / "softmax_int8_to_int16.yaml")
    data = build_case_model(case)
    x = quant.rng(5).integers(-128, 128, size=(2, 12)).astype(np.int8)
    (y,) = run_reference(data, [x])
    scale, zp = quant.range_to_scale_zp(-8.0, 8.0, "int8")
    logits = (x.astype(np.float64) - zp) * scale
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    np.testing.assert_allclose((y.astype(np.float64) + 32768) / 65536, p, atol=3 / 65536)


def _small_int16_conv(bias_dtype: str, declare: bool) -> bytes:
    g = quant.rng(3)
    b = ModelBuilder()
    x = b.input("x", (1, 5, 5, 3), "int16", 2.0 / 32767, 0)
    wq, ws = quant.quantize_per_channel(quant.random_weights(g, (4, 3, 3, 3), 27), 0)
    w = b.const("w", wq, "int8", ws, 0, 0)
    bq, bs = quant.quantize_bias(g.normal(0, 0.3, 4), x.scale, ws, bias_dtype)
    bias = b.const("b", bq, bias_dtype, bs, 0)
    y = b.tensor("y", (1, 5, 5, 4), "int16", 4.0 / 32767, 0)
    opts = {"padding": "SAME", "stride_h": 1, "stride_w": 1}
    if declare:
        opts["quantized_bias_type"] = bias_dtype.upper()
    b.op("CONV_2D", [x, w, bias], [y], opts)
    b.output(y)
    return b.build()


def test_int32_and_int64_bias_paths_agree_within_one_code():
    """LiteRT's int16 CONV_2D accumulates in the bias type: int64 with a 16-bit
    requantization multiplier, or int32 (declared) with the 32-bit one."""
    x = quant.rng(4).integers(-32768, 32768, size=(1, 5, 5, 3)).astype(np.int16)
    (y64,) = run_reference(_small_int16_conv("int64", False), [x])
    (y64_declared,) = run_reference(_small_int16_conv("int64", True), [x])
    (y32,) = run_reference(_small_int16_conv("int32", True), [x])
    assert np.array_equal(y64, y64_declared)
    diff = np.abs(y64.astype(np.int32) - y32.astype(np.int32))
    assert diff.max() <= 1 and np.unique(y64).size > 20


def test_undeclared_int32_bias_on_int16_conv_is_refused():
    # LiteRT would read the int32 bias as int64 (garbage), so the builder refuses it.
    with pytest.raises(BuilderError, match="quantized_bias_type: INT32"):
        _small_int16_conv("int32", False)


def _write(tmp_path: pathlib.Path, name: str, text: str) -> pathlib.Path:
    path = tmp_path / name
    path.write_text(text)
    return path


CONV16 = """\
op: CONV_2D
variant: t
seed: 1
options: {padding: SAME, stride_h: 1, stride_w: 1}
inputs:
  - {name: input, shape: [1, 4, 4, 2], dtype: int16, range: [-1, 1]}
  - {name: filter, kind: weights, shape: [3, 1, 1, 2], per_channel_axis: 0}
  - {name: bias, kind: bias, input: input, weights: filter}
outputs:
  - {name: output, shape: [1, 4, 4, 3], dtype: int16, calibrate: true}
tolerance: 1
tolerance_reason: a test case that only has to load and build.
"""


def test_int16_case_defaults_to_int64_bias_and_symmetric_ranges(tmp_path):
    case = load_case(_write(tmp_path, "conv_2d_t.yaml", CONV16))
    _, graph = _graph(build_case_model(case))
    x, _, bias = (graph.tensors[i] for i in graph.operators[0].inputs)
    assert TYPE_NAMES[bias.type] == "int64"
    assert _quant(x)[0][0] == pytest.approx(1.0 / 32767) and _quant(x)[1][0] == 0


@pytest.mark.parametrize("old, new, message", [
    ("weights: filter}", "weights: filter, dtype: int16}", "dtype must be int32, int64, float32 or float16"),
    ("weights: filter}", "weights: filter, dtype: int32}", "quantized_bias_type: INT32"),
    ("per_channel_axis: 0}", "per_channel_axis: 0, dtype: int16}", "must be int8"),
])
def test_bad_int16_case_files_are_rejected(tmp_path, old, new, message):
    path = _write(tmp_path, "conv_2d_t.yaml", CONV16.replace(old, new))
    with pytest.raises(CaseFileError, match=message):
        build_case_model(load_case(path))


def test_const_same_as_must_name_an_earlier_input(tmp_path):
    text = """\
op: PADV2
variant: t
seed: 1
inputs:
  - {name: input, shape: [1, 2, 2, 1], dtype: int16, range: [-1, 1]}
  - {name: paddings, kind: const, dtype: int32, value: [[0, 0], [1, 1], [1, 1], [0, 0]]}
  - {name: value, kind: const, dtype: int16, value: 5, shape: [], same_as: inptu}
outputs:
  - {name: output, shape: [1, 4, 4, 1], dtype: int16, same_as: input}
tolerance: 1
tolerance_reason: a test case that only has to load and build.
"""
    with pytest.raises(CaseFileError, match="same_as 'inptu' names no earlier input"):
        load_case(_write(tmp_path, "padv2_t.yaml", text))
    good = load_case(_write(tmp_path, "padv2_t.yaml", text.replace("inptu", "input")))
    x = np.full((1, 2, 2, 1), 7, np.int16)
    (y,) = run_reference(build_case_model(good), [x])
    assert y[0, :, :, 0].tolist() == [[5, 5, 5, 5], [5, 7, 7, 5], [5, 7, 7, 5], [5, 5, 5, 5]]

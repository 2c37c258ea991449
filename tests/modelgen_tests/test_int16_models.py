# SPDX-License-Identifier: Apache-2.0
"""The multi-layer A16W8 models: reproducible, run in LiteRT's reference kernels, have
the intended operators and int16/int8/int64 layout, and follow their float twins."""

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema

from tests.modelgen import BuilderError, int16_models, quant
from tests.modelgen.litert import make_interpreter, random_inputs, run_reference

TYPE_NAMES = {v: k.lower() for k, v in vars(schema.TensorType).items() if not k.startswith("_")}
OP_NAMES = {v: k for k, v in vars(schema.BuiltinOperator).items() if not k.startswith("_")}

EXPECTED_OPERATORS = {
    "skip_tconv": ["CONV_2D", "LEAKY_RELU", "STRIDED_SLICE", "TRANSPOSE_CONV", "ADD"],
    "glu_concat": ["PAD", "DEPTHWISE_CONV_2D", "CONV_2D", "SUB", "LOGISTIC", "MUL",
                   "CONCATENATION"],
    "bottleneck_requant": ["CONV_2D", "CONV_2D", "MEAN", "FULLY_CONNECTED", "QUANTIZE",
                           "QUANTIZE", "FULLY_CONNECTED", "RESHAPE", "TRANSPOSE_CONV", "TANH"],
}
INPUT_SHAPES = {"skip_tconv": (1, 1, 64, 16), "glu_concat": (1, 16, 16, 4),
                "bottleneck_requant": (1, 16, 16, 4)}
OUTPUT_SHAPES = {"skip_tconv": (1, 1, 64, 16), "glu_concat": (1, 16, 16, 16),
                 "bottleneck_requant": (1, 8, 8, 8)}
# Operators whose output keeps the input's quantization.
SAME_SCALE = {"PAD", "STRIDED_SLICE", "RESHAPE"}
# Weight and bias positions among the operator inputs.
WEIGHTED = {"CONV_2D": (1, 2), "DEPTHWISE_CONV_2D": (1, 2), "FULLY_CONNECTED": (1, 2),
            "TRANSPOSE_CONV": (1, 3)}
DATA_INPUT = {"TRANSPOSE_CONV": 2}


@pytest.fixture(scope="module", params=int16_models.NAMES)
def model(request):
    return request.param, int16_models.build(request.param)


def _parse(data):
    m = schema.ModelT.InitFromPackedBuf(data, 0)
    g = m.subgraphs[0]
    ops = [(OP_NAMES[m.operatorCodes[op.opcodeIndex].builtinCode], op) for op in g.operators]
    return m, g, ops


def _q(t):
    return t.quantization.scale.tolist(), t.quantization.zeroPoint.tolist()


def test_names_cover_three_models():
    assert set(int16_models.NAMES) == set(EXPECTED_OPERATORS)


def test_build_is_deterministic(model):
    name, data = model
    assert int16_models.build(name) == data
    assert int16_models.build(name, seed=int16_models.SEED + 1) != data


def test_runs_in_litert_reference_kernels(model):
    name, data = model
    interp = make_interpreter(data)
    (detail,) = interp.get_input_details()
    assert tuple(detail["shape"]) == INPUT_SHAPES[name] and detail["dtype"] == np.int16
    generator = quant.rng(7)
    for _ in range(3):
        (y,) = run_reference(data, random_inputs(data, generator))
        assert y.shape == OUTPUT_SHAPES[name] and y.dtype == np.int16
        assert np.unique(y).size > y.size // 4, "output barely varies"


def test_operators_are_the_intended_ones(model):
    name, data = model
    _, _, ops = _parse(data)
    assert [n for n, _ in ops] == EXPECTED_OPERATORS[name]


def test_activations_int16_symmetric_weights_int8_bias_int64(model):
    name, data = model
    _, g, ops = _parse(data)
    const_inputs = set()
    for op_name, op in ops:
        if op_name in WEIGHTED:
            w_index, b_index = WEIGHTED[op_name]
            w, bias = g.tensors[op.inputs[w_index]], g.tensors[op.inputs[b_index]]
            x = g.tensors[op.inputs[DATA_INPUT.get(op_name, 0)]]
            const_inputs |= {op.inputs[w_index], op.inputs[b_index]}
            assert TYPE_NAMES[x.type] == "int16"
            assert TYPE_NAMES[w.type] == "int8" and not any(_q(w)[1])
            declared = getattr(op.builtinOptions, "quantizedBiasType", 0)
            assert TYPE_NAMES[bias.type] == ("int32" if declared == schema.TensorType.INT32
                                             else "int64")
            np.testing.assert_allclose(_q(bias)[0], np.float64(_q(x)[0][0]) *
                                       np.array(_q(w)[0]), rtol=1e-6)
    for op_name, op in ops:
        for i in list(op.inputs) + list(op.outputs):
            t = g.tensors[i]
            if i in const_inputs or t.quantization is None or t.quantization.scale is None:
                continue
            expected = "int32" if t.name == b"bottleneck_int32" else "int16"
            assert TYPE_NAMES[t.type] == expected, t.name
            assert _q(t)[1] == [0], t.name


def test_scale_rules_litert_requires(model):
    name, data = model
    _, g, ops = _parse(data)
    for op_name, op in ops:
        x, y = g.tensors[op.inputs[0]], g.tensors[op.outputs[0]]
        if op_name in SAME_SCALE:
            assert _q(y) == _q(x), op_name
        if op_name in ("LOGISTIC", "TANH"):
            assert _q(y) == ([1.0 / 32768], [0])
        if op_name == "CONCATENATION":
            assert all(_q(g.tensors[i]) == _q(y) for i in op.inputs)
        if op_name in ("ADD", "SUB"):
            assert op.builtinOptions.potScaleInt16 is False


def test_int16_int32_requantization_in_the_bottleneck():
    _, g, ops = _parse(int16_models.build("bottleneck_requant"))
    (to32, to16) = [op for n, op in ops if n == "QUANTIZE"]
    src, mid = g.tensors[to32.inputs[0]], g.tensors[to32.outputs[0]]
    dst = g.tensors[to16.outputs[0]]
    assert (TYPE_NAMES[src.type], TYPE_NAMES[mid.type], TYPE_NAMES[dst.type]) == \
        ("int16", "int32", "int16")
    assert _q(mid)[0][0] == pytest.approx(_q(src)[0][0] / 3000, rel=1e-6)
    assert _q(dst)[0][0] == pytest.approx(_q(src)[0][0] * 1.25, rel=1e-3)


def test_follows_its_float_twin(model):
    """Dequantized int16 outputs stay within 32 output steps (0.1% of full scale) of
    the float32 network with the same dequantized weights on the same inputs."""
    name, data = model
    twin = int16_models.build_float_twin(name)
    interp = make_interpreter(data)
    in_scale = interp.get_input_details()[0]["quantization"][0]
    out_scale = interp.get_output_details()[0]["quantization"][0]
    generator = quant.rng(11)
    peak = 0.0
    for _ in range(8):
        (x,) = random_inputs(data, generator)
        (y,) = run_reference(data, [x])
        (f,) = run_reference(twin, [(x.astype(np.float64) * in_scale).astype(np.float32)])
        steps = np.abs(y.astype(np.float64) * out_scale - f).max() / out_scale
        assert steps <= 32, f"{name}: {steps:.1f} output steps from float"
        peak = max(peak, float(np.abs(f).max()))
    # Calibrated, not needlessly wide (ranges carry 25% headroom).
    assert peak > 0.5 * 32767 * out_scale


def test_unknown_name_is_a_builder_error():
    with pytest.raises(BuilderError, match="unknown int16 model 'kws'"):
        int16_models.build("kws")


def test_cli_writes_every_model(tmp_path, capsys):
    assert int16_models.main(["--out", str(tmp_path)]) == 0
    for name in int16_models.NAMES:
        assert (tmp_path / f"{name}.tflite").read_bytes() == int16_models.build(name)

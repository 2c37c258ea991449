# SPDX-License-Identifier: Apache-2.0
"""The MobileNetV2-style int8 builder and the operator batches: reproducible, the layout ai-edge-torch
exports (TRANSPOSE from NCHW, PAD before every stride-2 3x3 layer, residual ADDs, MEAN, per-channel
FULLY_CONNECTED), run in LiteRT's reference kernels, follow the float twin, and refuse bad arguments."""

import collections

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema

from tests.modelgen import BuilderError, mobilenet_v2, op_batches, quant
from tests.modelgen.litert import make_interpreter, random_inputs, run_reference

OP_NAMES = {v: k for k, v in vars(schema.BuiltinOperator).items() if not k.startswith("_")}
SIZE, WIDTH = 64, 0.35


@pytest.fixture(scope="module")
def model():
    return mobilenet_v2.build(SIZE, WIDTH)


def _ops(data):
    m = schema.ModelT.InitFromPackedBuf(data, 0)
    g = m.subgraphs[0]
    names = [OP_NAMES[max(m.operatorCodes[op.opcodeIndex].builtinCode,
                          m.operatorCodes[op.opcodeIndex].deprecatedBuiltinCode)] for op in g.operators]
    return m, g, names


def test_reproducible(model):
    assert mobilenet_v2.build(SIZE, WIDTH) == model


def test_exported_layout(model):
    _, g, names = _ops(model)
    counts = collections.Counter(names)
    assert names[0] == "TRANSPOSE" and names[-3:] == ["MEAN", "RESHAPE", "FULLY_CONNECTED"]
    # torchvision's 17 blocks: 10 residual ADDs; stride 2 in the stem and 4 blocks, each after a PAD.
    assert counts["ADD"] == 10 and counts["PAD"] == 5 and counts["DEPTHWISE_CONV_2D"] == 17
    assert counts["CONV_2D"] == 1 + 16 + 17 + 1
    for op, name in zip(g.operators, names):
        if name == "PAD":
            following = names[list(g.operators).index(op) + 1]
            assert following in ("CONV_2D", "DEPTHWISE_CONV_2D")
        if name in ("CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED"):
            weights = g.tensors[op.inputs[1]]
            assert len(weights.quantization.scale) > 1, f"{name} weights are not per-channel"
    assert tuple(g.tensors[g.inputs[0]].shape) == (1, 3, SIZE, SIZE)
    assert tuple(g.tensors[g.outputs[0]].shape) == (1, mobilenet_v2.NUM_CLASSES)


def test_follows_float_twin(model):
    """The int8 logits track the float twin's on the same (dequantized) inputs (measured: within 7.5% of the
    logits' spread, correlation 0.99): the quantization is sane (no saturated layer), so the network
    exercises real arithmetic."""
    twin = mobilenet_v2.build_float_twin(SIZE, WIDTH)
    detail = make_interpreter(model).get_input_details()[0]
    (scale, zero_point), out = detail["quantization"], make_interpreter(model).get_output_details()[0]
    out_scale, out_zp = out["quantization"]
    generator = quant.rng(7)
    for _ in range(3):
        x = random_inputs(model, generator)
        got = quant.dequantize(run_reference(model, x)[0], out_scale, out_zp)
        want = run_reference(twin, [quant.dequantize(x[0], scale, zero_point).astype(np.float32)])[0]
        spread = float(want.max() - want.min())
        assert np.abs(got - want).max() <= 0.1 * spread, np.abs(got - want).max() / spread
        assert np.corrcoef(got.ravel(), want.ravel())[0, 1] > 0.97


@pytest.mark.parametrize("size, width, says", [(100, 1.0, "multiple of 32"), (96, 0.0, "must be positive")])
def test_bad_arguments(size, width, says):
    with pytest.raises(BuilderError, match=says):
        mobilenet_v2.build(size, width)


@pytest.mark.parametrize("op", sorted(op_batches.OPERATORS))
def test_op_batch_reproducible_and_runs(op):
    data, drawn = op_batches.build(op, 6, 3)
    assert op_batches.build(op, 6, 3) == (data, drawn)
    interp = make_interpreter(data)
    assert len(interp.get_output_details()) == len(drawn) == 6
    run_reference(data, random_inputs(data, quant.rng(1)))


def test_op_batch_unknown_operator():
    with pytest.raises(BuilderError, match="unknown operator batch 'CONV'"):
        op_batches.build("CONV", 2, 1)

# SPDX-License-Identifier: Apache-2.0
"""The verifier stage: each structural rule refuses a model edited to break it with an
InvalidModelError naming the tensor or operator, the rule and what to do, before any operator module
runs; the one allowed repair (TFLM's person-detection biases) converts with one warning line."""

from __future__ import annotations

import math

import flatbuffers
import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema

import helia_aot
from helia_aot import ops
from helia_aot.lowering import verifier
from helia_aot.errors import InvalidModelError, UnsupportedModelError
from tests.modelgen import ModelBuilder

from .test_ops import conv_model


def _edited(data: bytes, edit) -> bytes:
    model = schema.ModelT.InitFromPackedBuf(data, 0)
    edit(model, model.subgraphs[0])
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


def _tensor(sg, name: str):
    return next(t for t in sg.tensors if t.name == name.encode())


def _index(sg, name: str) -> int:
    return next(i for i, t in enumerate(sg.tensors) if t.name == name.encode())


def _refused(tmp_path, data: bytes, fragment: str, target: str = "host", error=InvalidModelError) -> str:
    out = tmp_path / "out"
    with pytest.raises(error) as info:
        helia_aot.convert(data, out, target=target)
    message = str(info.value)
    assert fragment in message, message
    assert not out.exists()
    return message


# The three tracebacks of issue 14, now typed refusals.

def test_operator_input_index_past_the_tensor_list(tmp_path):
    data = conv_model().build()

    def past(model, sg):
        sg.operators[0].inputs = [len(sg.tensors) + 3, *sg.operators[0].inputs[1:]]
    message = _refused(tmp_path, _edited(data, past), "input 0 names tensor")
    assert "operator 0 (CONV_2D) writing 'y'" in message and "the subgraph has 4 tensors" in message

    def negative(model, sg):  # Python would read tensors[-5] silently
        sg.operators[0].inputs = [-5, *sg.operators[0].inputs[1:]]
    _refused(tmp_path, _edited(data, negative), "input 0 names tensor -5")


@pytest.mark.parametrize("target", ["host", "corstone300"])  # corstone300 derives MVE weight sums from the bias
def test_bias_length_differs_from_the_channel_count(tmp_path, target):
    b = ModelBuilder()
    x = b.input("x", (1, 4, 4, 2), scale=0.5, zero_point=-3)
    w = b.const("w", np.ones((2, 1, 1, 2), np.int8), dtype="int8", scale=[0.25, 0.25], zero_point=0)
    bias = b.const("b", np.arange(3, dtype=np.int32), dtype="int32", scale=0.125, zero_point=0)
    y = b.tensor("y", (1, 4, 4, 2), scale=0.125, zero_point=5)
    b.op("CONV_2D", [x, w, bias], [y], {"padding": "VALID", "stride_h": 1, "stride_w": 1})
    b.output(y)
    _refused(tmp_path, b.build(), "bias 'b' has 3 elements, the filter 'w' has 2 output channels", target)


@pytest.mark.parametrize("value", [math.nan, math.inf, -0.5, 0.0])
def test_scale_not_finite_and_positive(tmp_path, value):
    def scale(model, sg):
        _tensor(sg, "y").quantization.scale = [value]
    message = _refused(tmp_path, _edited(conv_model().build(), scale), "scales must be finite and positive")
    assert "tensor 'y' (index 3)" in message and "Re-export the model" in message


# Every other rule, one edit each.

def _set(obj, **fields):
    for key, value in fields.items():
        setattr(obj, key, value)


def _options(kind: str, **fields):
    table = getattr(schema, f"{kind}T")()
    _set(table, **fields)
    return getattr(schema.BuiltinOptions, kind), table


RULES = {
    "graph input out of range": (lambda m, sg: _set(sg, inputs=[99]), "input 0: names tensor 99"),
    "graph input twice": (lambda m, sg: _set(sg, inputs=[0, 0]), "lists a tensor twice"),
    "no graph output": (lambda m, sg: _set(sg, outputs=[]), "has no outputs"),
    "opcode index": (lambda m, sg: _set(sg.operators[0], opcodeIndex=5), "names operator code 5, the model has 1"),
    "output index": (lambda m, sg: _set(sg.operators[0], outputs=[-1]), "output 0 names tensor -1"),
    "intermediate index": (lambda m, sg: _set(sg.operators[0], intermediates=[40]), "intermediate 0 names tensor 40"),
    "buffer index": (lambda m, sg: _set(_tensor(sg, "w"), buffer=len(m.buffers) + 2), "names buffer"),
    "buffer size": (lambda m, sg: _set(m.buffers[_tensor(sg, "w").buffer],
                                       data=np.zeros(71, np.uint8)), "constant buffer of 71 bytes"),
    "unknown dtype": (lambda m, sg: _set(_tensor(sg, "y"), type=77), "tensor type code 77"),
    "negative dimension": (lambda m, sg: _set(_tensor(sg, "y"), shape=[1, -1, 8, 2]), "negative dimension"),
    "huge shape": (lambda m, sg: _set(_tensor(sg, "y"), shape=[65536, 65536, 1, 2]), "(at most 2147483647)"),
    "rank": (lambda m, sg: _set(_tensor(sg, "y"), shape=[1] * 9), "has rank 9"),
    "zero point count": (lambda m, sg: _set(_tensor(sg, "y").quantization, zeroPoint=[]),
                         "1 quantization scale(s) and 0 zero point(s)"),
    "quantized dimension": (lambda m, sg: _set(_tensor(sg, "x").quantization, quantizedDimension=4),
                            "quantized_dimension 4 is outside its rank 4"),
    "scale count": (lambda m, sg: _set(_tensor(sg, "w").quantization, scale=[0.25] * 3, zeroPoint=[0] * 3),
                    "it needs 1 (per tensor) or 2"),
    "zero point range": (lambda m, sg: _set(_tensor(sg, "y").quantization, zeroPoint=[300]),
                         "zero point 300, outside int8's range -128..127"),
    "options table": (lambda m, sg: _set(sg.operators[0], **dict(zip(("builtinOptionsType", "builtinOptions"),
                                                                     _options("Pool2DOptions")))),
                      "carries a Pool2DOptions table; CONV_2D takes Conv2DOptions or none"),
    "stride": (lambda m, sg: _set(sg.operators[0].builtinOptions, strideW=0), "option stride_w = 0 must be"),
    "dilation": (lambda m, sg: _set(sg.operators[0].builtinOptions, dilationHFactor=-2), "dilation_h_factor = -2"),
    "padding enum": (lambda m, sg: _set(sg.operators[0].builtinOptions, padding=9), "option padding = 9"),
    "activation enum": (lambda m, sg: _set(sg.operators[0].builtinOptions, fusedActivationFunction=42),
                        "fused_activation_function = 42"),
    "subgraph reference": (lambda m, sg: _set(sg.operators[0], **dict(zip(
        ("builtinOptionsType", "builtinOptions"), _options("CallOnceOptions", initSubgraphIndex=5)))),
        "option init_subgraph_index = 5 does not name another"),
    "too few inputs": (lambda m, sg: _set(sg.operators[0], inputs=sg.operators[0].inputs[:1]),
                       "has 1 inputs; CONV_2D takes 2 to 3"),
    "too many outputs": (lambda m, sg: _set(sg.operators[0], outputs=[3, 0]), "has 2 outputs; CONV_2D takes 1"),
    "required input omitted": (lambda m, sg: _set(sg.operators[0], inputs=[0, -1, 2]),
                               "input 1 is omitted (-1), but CONV_2D requires it"),
    "read before written": (lambda m, sg: _set(sg.operators[0], inputs=[3, 1, 2]),
                            "reads tensor 'y' (index 3) before any operator writes it"),
    "writes a graph input": (lambda m, sg: _set(sg.operators[0], outputs=[0]), "which is a graph input"),
    "writes a constant": (lambda m, sg: _set(sg.operators[0], outputs=[1]), "which has constant data"),
    "constant graph input": (lambda m, sg: _set(sg, inputs=[0, 1]), "is a graph input and also has constant data"),
    "output never written": (lambda m, sg: _set(sg, outputs=[3, 2]), "is a graph output that no operator writes"),
}


@pytest.mark.parametrize("rule", sorted(RULES))
def test_structural_rule(tmp_path, rule):
    edit, fragment = RULES[rule]
    data = conv_model().build()
    message = _refused(tmp_path, _edited(data, edit), fragment)
    assert message.startswith("model <bytes>: ")


def test_written_twice(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (1, 4), scale=0.5, zero_point=0)
    y = b.tensor("y", (1, 4), scale=0.5, zero_point=0)
    z = b.tensor("z", (1, 4), scale=0.5, zero_point=0)
    b.op("RELU", [x], [y])
    b.op("RELU", [y], [z])
    b.output(z)

    def twice(model, sg):
        sg.operators[1].outputs = [_index(sg, "y")]
        sg.outputs = [_index(sg, "y")]
    _refused(tmp_path, _edited(b.build(), twice), "which is already written by an earlier operator")


def test_variable_tensor_read_is_unsupported(tmp_path):
    def variable(model, sg):
        state = schema.TensorT()
        _set(state, name=b"state", shape=[1, 8, 8, 4], type=schema.TensorType.INT8, buffer=0, isVariable=True)
        state.quantization = _tensor(sg, "x").quantization
        sg.tensors.append(state)
        sg.operators[0].inputs = [len(sg.tensors) - 1, *sg.operators[0].inputs[1:]]
    _refused(tmp_path, _edited(conv_model().build(), variable), "reads variable tensor 'state'",
             error=UnsupportedModelError)


def test_every_lowered_operator_names_a_schema_options_table():
    members = {name for name in vars(schema.BuiltinOptions) if not name.startswith("_")}
    for op_type, module in ops.load_all().items():
        table = module.options_table_for(op_type)
        assert table is None or (table in members and table != "NONE"), (op_type, table)
    assert ops.get("PAD").options_table_for("PADV2") == "PadV2Options"
    assert ops.get("CONV_2D").options_table_for("CONV_2D") == "Conv2DOptions"


# The one repair.

def _depthwise(bias_dimension: int, filter_dimension: int = 3) -> bytes:
    b = ModelBuilder()
    x = b.input("x", (1, 6, 6, 8), scale=0.5, zero_point=1)
    w = b.const("w", np.full((1, 3, 3, 8), 2, np.int8), dtype="int8", scale=[0.25] * 8, zero_point=0,
                quantized_dimension=3)
    bias = b.const("b", np.arange(8, dtype=np.int32), dtype="int32", scale=[0.125] * 8, zero_point=0)
    y = b.tensor("y", (1, 6, 6, 8), scale=0.25, zero_point=0)
    b.op("DEPTHWISE_CONV_2D", [x, w, bias], [y], {"padding": "SAME", "stride_h": 1, "stride_w": 1,
                                                   "depth_multiplier": 1})
    b.output(y)

    def dimensions(model, sg):
        _tensor(sg, "b").quantization.quantizedDimension = bias_dimension
        _tensor(sg, "w").quantization.quantizedDimension = filter_dimension
    return _edited(b.build(), dimensions)


def test_bias_with_its_filters_quantized_dimension_is_repaired_with_one_warning(tmp_path):
    plain = helia_aot.convert(_depthwise(0), tmp_path / "plain", target="corstone300")
    repaired = helia_aot.convert(_depthwise(3), tmp_path / "repaired", target="corstone300")
    assert plain.report["warnings"] == []
    assert len(repaired.report["warnings"]) == 1
    warning = repaired.report["warnings"][0]
    assert "'b'" in warning and "quantized_dimension 3" in warning and "per-channel on dimension 0" in warning
    assert "\n" not in warning
    # Read as per-channel on dimension 0, the module is the one the well-formed model gives.
    for name in ("src/model_model.c", "src/model_constants.c"):
        assert ((tmp_path / "plain" / name).read_text().split("*/", 1)[1]
                == (tmp_path / "repaired" / name).read_text().split("*/", 1)[1])


def test_bias_dimension_out_of_rank_without_the_filters_is_refused(tmp_path):
    _refused(tmp_path, _depthwise(2), "quantized_dimension 2 is outside its rank 1")


def test_verify_returns_the_graph_untouched_when_nothing_is_repaired():
    from helia_aot.frontend import litert
    graph = litert.load(conv_model().build())
    checked, warnings = verifier.verify(graph)
    assert checked is graph and warnings == []

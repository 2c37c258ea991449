# SPDX-License-Identifier: Apache-2.0
"""The FP16 rewrite (tests/modelgen/fp16.py) and the float16 case files built with it."""

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema

from tests.modelgen import BuilderError, ModelBuilder
from tests.modelgen.cases import (all_case_paths, build_case_model, build_reference_model, is_float16_case,
                                  load_case)
from tests.modelgen.fp16 import to_float16
from tests.modelgen.litert import make_interpreter

OP_NAMES = {v: k for k, v in vars(schema.BuiltinOperator).items() if not k.startswith("_")}
FLOAT16_CASES = [p for p in all_case_paths() if is_float16_case(load_case(p))]


def _model(data: bytes):
    model = schema.ModelT.InitFromPackedBuf(data, 0)
    return model, model.subgraphs[0]


def _op_names(model, graph):
    return [OP_NAMES[max(model.operatorCodes[op.opcodeIndex].builtinCode,
                         model.operatorCodes[op.opcodeIndex].deprecatedBuiltinCode)] for op in graph.operators]


def _fp16_weight_fc(weights: np.ndarray) -> bytes:
    """LiteRT's FP16-weight form of a FULLY_CONNECTED: float16 weights behind DEQUANTIZE."""
    b = ModelBuilder()
    x = b.input("x", (1, weights.shape[1]), "float32")
    w16 = b.const("w", weights, "float16")
    w = b.tensor("w_dequantized", weights.shape, "float32")
    b.op("DEQUANTIZE", [w16], [w])
    bias = b.const("bias", np.array([0.1, -0.3], np.float32), "float32")
    y = b.tensor("y", (1, weights.shape[0]), "float32")
    b.op("FULLY_CONNECTED", [x, w, bias], [y])
    b.output(y)
    return b.build()


def test_rewrite_drops_the_weight_dequantize_and_promotes_every_float_tensor():
    weights = np.array([[0.5, -1.25, 3.0], [1e-3, 2.0, -0.1]])
    original = _fp16_weight_fc(weights)
    model, graph = _model(to_float16(original))
    assert _op_names(model, graph) == ["FULLY_CONNECTED"]
    assert len(model.operatorCodes) == 1
    assert len(graph.tensors) == len(_model(original)[1].tensors) - 1  # the float32 copy of the weights is gone
    assert {t.type for t in graph.tensors} == {schema.TensorType.FLOAT16}
    op = graph.operators[0]
    x, w, bias = (graph.tensors[i] for i in op.inputs)
    assert x.name == b"x" and w.name == b"w" and bias.name == b"bias"
    assert list(graph.inputs) == [op.inputs[0]] and list(graph.outputs) == [op.outputs[0]]
    stored = np.frombuffer(bytes(model.buffers[w.buffer].data), "<f2").reshape(weights.shape)
    assert np.array_equal(stored, weights.astype(np.float16))  # already float16: unchanged
    bias_values = np.frombuffer(bytes(model.buffers[bias.buffer].data), "<f2")
    assert np.array_equal(bias_values, np.array([0.1, -0.3], np.float32).astype(np.float16))  # rounded
    assert to_float16(original) == to_float16(original)


def test_rewrite_of_a_model_without_dequantize_only_promotes():
    b = ModelBuilder()
    x = b.input("x", (1, 4), "float32")
    y = b.tensor("y", (1, 4), "float32")
    b.op("RELU", [x], [y])
    b.output(y)
    model, graph = _model(to_float16(b.build()))
    assert _op_names(model, graph) == ["RELU"]
    assert [t.type for t in graph.tensors] == [schema.TensorType.FLOAT16] * 2


def test_rewrite_refuses_quantized_float_tensors():
    b = ModelBuilder()
    x = b.input("x", (1, 4), "float32", scale=0.5, zero_point=0)
    y = b.tensor("y", (1, 4), "float32")
    b.op("RELU", [x], [y])
    b.output(y)
    with pytest.raises(BuilderError, match="float32 with quantization parameters"):
        to_float16(b.build())


def test_float16_cases_are_rewrites_of_fp32_models_litert_runs():
    assert len(FLOAT16_CASES) >= 20
    for path in FLOAT16_CASES:
        case = load_case(path)
        reference = build_reference_model(case)
        interp = make_interpreter(reference)
        assert all(d["dtype"] == np.float32 for d in interp.get_input_details() + interp.get_output_details())
        model, graph = _model(build_case_model(case))
        assert "DEQUANTIZE" not in _op_names(model, graph), case.name
        assert _op_names(model, graph) == [case.op], case.name
        float_types = {t.type for t in graph.tensors} - {schema.TensorType.INT32}
        assert float_types == {schema.TensorType.FLOAT16}, case.name
        assert build_case_model(case) == to_float16(reference)


def test_a_float16_input_with_a_float32_output_is_built_as_it_is():
    case = load_case(next(p for p in all_case_paths() if p.stem == "dequantize_float16_to_float32"))
    assert not is_float16_case(case)
    model, graph = _model(build_case_model(case))
    assert _op_names(model, graph) == ["DEQUANTIZE"]
    assert [graph.tensors[i].type for i in graph.inputs] == [schema.TensorType.FLOAT16]
    assert build_case_model(case) == build_reference_model(case)

# SPDX-License-Identifier: Apache-2.0
"""Front-end cases mutation sampling showed untested (tests/MUTATION.md, 2026-12-02): a corrupt vector
length is refused with the whole message and hint, a constant of a type NumPy cannot view is left for
the verifier (no view, no crash), a READ_VARIABLE whose handle is no VAR_HANDLE's output is refused
naming its subgraph, and the zero points reach the graph."""

from __future__ import annotations

import numpy as np
import pytest

from helia_aot.errors import InvalidModelError
from helia_aot.frontend import litert, resources
from tests.fuzz import hostile as hostile_models
from tests.modelgen import ModelBuilder


def test_a_corrupt_vector_length_is_refused_in_whole():
    data = bytearray(hostile_models.shared_tables(2, "buffer", 4))
    sg = litert.parse(bytes(data))._model.Subgraphs(0)
    at = sg._tab.Vector(sg._tab.Offset(4)) - 4  # the tensors vector's length word
    data[at:at + 4] = (0x7FFFFFFF).to_bytes(4, "little")
    with pytest.raises(InvalidModelError) as refused:
        litert.load(bytes(data), "m.tflite")
    assert (refused.value.message, refused.value.hint) == (
        f"model m.tflite is malformed: it claims 2147483647 tensors in {len(data)} bytes",
        "Re-export the model or check that the file was copied completely")


@pytest.mark.parametrize("dtype", ["float64", "string", "complex64", "unknown(99)"])
def test_a_constant_of_a_type_numpy_cannot_view_is_left_for_the_verifier(dtype):
    raw = np.zeros(16, np.uint8)
    assert litert._constant(raw, (2,), dtype) is None
    assert litert._constant(raw, (4,), "int32") is not None  # a type it views, the same bytes


def _resolve_refusal(b: ModelBuilder):
    """The InvalidModelError resolving the built model's resource variables raises, and its graph."""
    data = b.build()
    graph = litert.load(data, "m", 0)
    with pytest.raises(InvalidModelError) as refused:
        resources.resolve(graph, data, "m")
    return refused.value, graph


def test_a_read_of_no_variable_handle_is_refused_naming_the_subgraph():
    b = ModelBuilder()
    x = b.input("x", [1, 4], "float32")
    h = b.resource("h")  # no VAR_HANDLE writes it
    r = b.tensor("r", [1, 4], "float32")
    b.op("READ_VARIABLE", [h], [r])
    y = b.tensor("y", [1, 4], "float32")
    b.op("ADD", [r, x], [y])
    b.output(y)
    refused, graph = _resolve_refusal(b)
    assert (refused.message, refused.hint) == (
        f"model m: operator 0 (READ_VARIABLE) of subgraph '{graph.name}': input 0 is not a VAR_HANDLE's output",
        "Re-export the model, or check that the file is not damaged")


def test_quantization_keeps_the_models_zero_points():
    b = ModelBuilder()
    x = b.input("x", (1, 4), "int8", 0.5, -3)
    y = b.tensor("y", (1, 4), "int8", 0.25, 7)
    b.op("RELU", [x], [y])
    b.output(y)
    graph = litert.load(b.build(), "m", 0)
    assert [(t.quant.scales, t.quant.zero_points) for t in graph.tensors] == [((0.5,), (-3,)), ((0.25,), (7,))]


def test_a_call_once_naming_no_other_subgraph_is_refused_with_what_to_do():
    b = ModelBuilder()
    x = b.input("x", [1, 4], "float32")
    b.op("CALL_ONCE", [], [], {"init_subgraph_index": 5})
    y = b.tensor("y", [1, 4], "float32")
    b.op("ADD", [x, x], [y])
    b.output(y)
    refused, _ = _resolve_refusal(b)
    assert refused.message.endswith("option init_subgraph_index = 5 does not name another of the model's 1 subgraphs")
    assert refused.hint == "Re-export the model, or check that the file is not damaged"


def test_a_variable_no_tensor_gives_a_type_is_refused_with_what_to_do():
    b = ModelBuilder()
    x = b.input("x", [1, 4], "float32")
    h = b.resource("h")
    b.op("VAR_HANDLE", [], [h], {"container": "", "shared_name": "v"})
    b.op("ASSIGN_VARIABLE", [h, None], [])  # the value operand left out: nothing says the variable's type
    y = b.tensor("y", [1, 4], "float32")
    b.op("ADD", [x, x], [y])
    b.output(y)
    refused, _ = _resolve_refusal(b)
    assert (refused.message, refused.hint) == (
        "model m: resource variable 'v' is neither assigned nor read through a tensor of the subgraph",
        "Re-export the model, or check that the file is not damaged")

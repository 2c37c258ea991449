# SPDX-License-Identifier: Apache-2.0
"""Verifier (helia_aot/lowering/verifier.py) cases that mutants showed untested (tests/MUTATION.md,
2026-12-02): an operator reading a constant first is still checked on its other inputs, a filter at tensor
index 0 has its bias checked, and refusals and the repair warning are asserted in whole."""

from __future__ import annotations

import numpy as np
import pytest

from helia_aot.errors import InvalidModelError
from helia_aot.frontend import litert
from helia_aot.lowering import verifier
from tests.modelgen import ModelBuilder

from .test_ops import conv_model
from .test_verifier import _depthwise, _edited, _set, _tensor


def test_an_input_after_a_constant_read_before_it_is_written_is_refused():
    """u = ADD(c, t) runs before t = ADD(x, x): the constant c read first does not end the check."""
    b = ModelBuilder()
    x = b.input("x", (1, 4), "int8", 0.05, 0)
    c = b.const("c", np.arange(4, dtype=np.int8).reshape(1, 4), "int8", 0.05, 0)
    t = b.tensor("t", (1, 4), "int8", 0.1, 0)
    u = b.tensor("u", (1, 4), "int8", 0.1, 0)
    b.op("ADD", [c, t], [u], {"fused_activation_function": "NONE"})
    b.op("ADD", [x, x], [t], {"fused_activation_function": "NONE"})
    b.output(u)
    with pytest.raises(InvalidModelError) as info:
        verifier.verify(litert.load(b.build(), "m", 0), "m.tflite")
    assert info.value.message == (f"model m.tflite: operator 0 (ADD) writing 'u': reads tensor 't' (index {t.index}) "
                                  "before any operator writes it")


# Whole messages of refusals test_verifier.py checks by a fragment (a mutant changing the rest survived).

_REEXPORT = "Re-export the model with the LiteRT converter, or check that the file is not damaged"


@pytest.mark.parametrize("edit, message", [
    (lambda m, sg: _set(sg, outputs=[99]),
     "subgraph 'main' output 0: names tensor 99, the subgraph has 4 tensors (0..3)"),
    (lambda m, sg: _set(sg.operators[0], inputs=[0, -1, 2]),
     "operator 0 (CONV_2D) writing 'y': input 1 is omitted (-1), but CONV_2D requires it"),
    (lambda m, sg: _set(sg.operators[0], inputs=[7, 1, 2]),
     "operator 0 (CONV_2D) writing 'y': input 0 names tensor 7, the subgraph has 4 tensors (-1 marks an omitted "
     "input)"),
    (lambda m, sg: _set(_tensor(sg, "w"), isVariable=True),
     "tensor 'w' (index 1): is a variable tensor with a constant buffer; LiteRT does not load one"),
], ids=["graph output index", "required input omitted", "input index", "variable with a buffer"])
def test_each_refusal_in_whole(edit, message):
    with pytest.raises(InvalidModelError) as info:
        verifier.verify(litert.load(_edited(conv_model().build(), edit), "m", 0), "m.tflite")
    assert (info.value.message, info.value.hint) == (f"model m.tflite: {message}", _REEXPORT)


def test_a_filter_at_tensor_index_0_has_its_bias_length_checked():
    b = ModelBuilder()
    w = b.const("w", np.ones((2, 1, 1, 2), np.int8), dtype="int8", scale=[0.25, 0.25], zero_point=0)
    x = b.input("x", (1, 4, 4, 2), scale=0.5, zero_point=-3)
    bias = b.const("b", np.arange(3, dtype=np.int32), dtype="int32", scale=0.125, zero_point=0)
    y = b.tensor("y", (1, 4, 4, 2), scale=0.125, zero_point=5)
    b.op("CONV_2D", [x, w, bias], [y], {"padding": "VALID", "stride_h": 1, "stride_w": 1})
    b.output(y)
    assert w.index == 0
    with pytest.raises(InvalidModelError) as info:
        verifier.verify(litert.load(b.build(), "m", 0), "m.tflite")
    assert info.value.message == ("model m.tflite: operator 0 (CONV_2D) writing 'y': bias 'b' has 3 elements, the "
                                  "filter 'w' has 2 output channels")


def test_the_bias_repair_warning_in_whole():
    _, warnings = verifier.verify(litert.load(_depthwise(3), "m", 0), "m.tflite")
    assert warnings == ["1 rank-1 bias tensor(s) (first 'b') give quantized_dimension 3 like their filter, read as "
                        "per-channel on dimension 0 as TensorFlow Lite Micro does; nothing to do unless you own the "
                        "exporter: bias tensors should give quantized_dimension 0"]

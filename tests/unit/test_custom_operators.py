# SPDX-License-Identifier: Apache-2.0
"""Custom operators in the IR (TFLM's Signal front end): "CUSTOM:<code>", the custom options decoded from
their FlexBuffer map, the raw bytes kept; unknown ones refused in one line naming them; uint16 / uint32 /
uint64 tensors read like the other integer types."""

from __future__ import annotations

from flatbuffers import flexbuffers

import numpy as np
import pytest

import helia_aot
from helia_aot.errors import UnsupportedModelError
from helia_aot.frontend import litert as frontend
from helia_aot.ir.dtypes import C_TYPES, DTYPE_BYTES
from tests.modelgen.builder import ModelBuilder


def custom_model(code: str, options=None, raw_options=None, out_dtype="uint32") -> bytes:
    b = ModelBuilder()
    x = b.input("x", (1, 16), "int16")
    y = b.tensor("y", (1, 16), out_dtype)
    b.custom_op(code, [x], [y], options, raw_options=raw_options)
    b.output(y)
    return b.build()


def test_custom_options_are_the_decoded_flexbuffer_map_and_the_raw_bytes():
    data = custom_model("SignalSomething", {"shift": 12, "flag": True, "taps": [1, -2, 3]})
    op = frontend.load(data).operators[0]
    assert op.op_type == "CUSTOM:SignalSomething"
    assert op.options == {"shift": 12, "flag": True, "taps": [1, -2, 3]}
    assert op.options_table is None and op.custom_options_error is None
    from flatbuffers import flexbuffers
    assert flexbuffers.Loads(op.custom_options) == op.options


def test_bytes_that_are_no_flexbuffer_map_are_recorded_not_raised():
    # An unknown custom operator may keep any bytes: the load succeeds, the lowering refuses it by name.
    for raw in (b"\xff\xff\xff\xff\xff", bytes(flexbuffers_int(7))):
        op = frontend.load(custom_model("SignalSomething", raw_options=raw)).operators[0]
        assert op.options == {} and op.custom_options == raw
        assert "custom options" in op.custom_options_error


def flexbuffers_int(value: int) -> bytes:
    from flatbuffers import flexbuffers
    return bytes(flexbuffers.Dumps(value))


def test_unknown_custom_operator_is_one_line_naming_it(tmp_path):
    with pytest.raises(UnsupportedModelError) as info:
        helia_aot.convert(custom_model("SignalSomething", {"shift": 1}), tmp_path / "out")
    message = str(info.value)
    assert "custom operator CUSTOM:SignalSomething, which helia_aot does not lower" in message
    assert "\n" not in message
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("dtype, ctype, size", [("uint16", "uint16_t", 2), ("uint32", "uint32_t", 4),
                                                ("uint64", "uint64_t", 8)])
def test_unsigned_tensors_are_ir_dtypes(dtype, ctype, size):
    assert (C_TYPES[dtype], DTYPE_BYTES[dtype]) == (ctype, size)
    b = ModelBuilder()
    x = b.input("x", (4,), dtype)
    top = int(np.iinfo(dtype).max)
    c = b.const("c", np.array([0, 1, top - 1, top], dtype=dtype))
    y = b.tensor("y", (4,), dtype)
    b.custom_op("SignalSomething", [x, c], [y], {})
    b.output(y)
    graph = frontend.load(b.build())
    assert [t.dtype for t in graph.tensors] == [dtype] * 3
    assert graph.tensors[1].data.dtype == np.dtype(dtype)
    assert graph.tensors[1].data.tolist() == [0, 1, top - 1, top]


def shared_children_flexbuffer(levels: int, width: int = 3) -> bytes:
    """A FlexBuffer of `levels` nested `width`-element vectors whose elements all point at the one vector
    below: 2 * width + 1 bytes a level, width^levels values once expanded."""
    out = bytearray([width, *[1] * width, *[1 << 2] * width])  # the leaf: [size][1 ...][INT ...]
    child = 1
    vector8 = 10 << 2  # FBT_VECTOR, children 8 bits wide
    for _ in range(levels):
        start = len(out) + 1
        out += bytes([width, *(start + i - child for i in range(width)), *[vector8] * width])
        child = start
    root = len(out)
    out += bytes([root - child, vector8, 1])
    return bytes(out)


def test_custom_options_whose_vectors_share_children_stop_at_the_budget():
    """Decoding counts every value it expands: 14 levels of 3 (3^14 = 4.8 million values in about 100
    bytes) stop at the budget instead of taking minutes."""
    data = custom_model("SignalSomething", raw_options=shared_children_flexbuffer(14))
    op = frontend.load(data).operators[0]
    assert op.options == {} and f"expand to more than {frontend.FLEX_VALUES} values" in op.custom_options_error
    small = frontend.load(custom_model("SignalSomething", raw_options=shared_children_flexbuffer(3))).operators[0]
    assert "hold a FlexBuffer list" in small.custom_options_error  # decoded (81 values), just not a map


def test_custom_options_nested_too_deeply_are_refused():
    value = {"x": 1}
    for _ in range(20):
        value = {"x": value}
    op = frontend.load(custom_model("SignalSomething", raw_options=bytes(flexbuffers.Dumps(value)))).operators[0]
    assert "nest deeper than 16 levels" in op.custom_options_error

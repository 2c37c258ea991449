# SPDX-License-Identifier: Apache-2.0
"""The front end in bounded time and memory on crafted models (tests/fuzz/hostile.py): many CALL_ONCE,
one table shared by thousands of tensors, sparse tensors, custom options that expand without bound."""

from __future__ import annotations

import time
import tracemalloc

import numpy as np
import pytest

import helia_aot
from helia_aot.errors import HeliaError, InvalidModelError, UnsupportedModelError
from helia_aot.frontend import litert, resources
from tests.modelgen.builder import ModelBuilder
from tests.fuzz import hostile as hostile_models


def _front_end(data: bytes):
    model = litert.parse(data, "m.tflite")
    return resources.resolve(model.graph(), model)


def test_each_initialisation_subgraph_is_decoded_once_however_many_call_once_name_it(monkeypatch):
    decoded = []
    original = litert.LiteRTModel._decode_graph
    monkeypatch.setattr(litert.LiteRTModel, "_decode_graph",
                        lambda self, index: decoded.append(index) or original(self, index))
    graph = _front_end(hostile_models.many_call_once(500))
    assert sorted(decoded) == [0, 1]
    assert not any(op.op_type in ("VAR_HANDLE", "CALL_ONCE") for op in graph.operators)
    (variable,) = [t for t in graph.tensors if t.is_variable]
    np.testing.assert_array_equal(variable.initial, np.full((1, 4), 0.5, np.float32))


@pytest.mark.parametrize("field", hostile_models.SHARED_FIELDS)
def test_a_table_shared_by_thousands_of_tensors_is_refused_by_budget_without_copies(field):
    # Sizes at which copying per tensor (as the object API did) peaks past 300 MB.
    size = {"buffer": 100_000, "name": 100_000, "shape": 2_000, "quantization": 1_500}[field]
    data = hostile_models.shared_tables(3000, field, size)
    tracemalloc.start()
    try:
        with pytest.raises(InvalidModelError) as err:
            _front_end(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(err.value)
    assert "past its budget" in message and "tensor " in message, message
    assert len(message) < 600, message
    assert peak < 100 << 20, f"front end peaked at {peak >> 20} MiB before refusing"


def test_tensors_naming_one_buffer_share_one_read_only_view():
    b = ModelBuilder("shared buffer")
    x = b.input("x", (1, 4), "float32")
    w = b.const("w", np.arange(4, dtype=np.float32).reshape(1, 4), "float32")
    y = b.tensor("y", (1, 4), "float32")
    b.op("ADD", [x, w], [y])
    b.output(y)
    model = litert.parse(b.build())
    graph = model.graph()
    first = graph.tensors[w.index].data
    np.testing.assert_array_equal(first, np.arange(4, dtype=np.float32).reshape(1, 4))
    assert not first.flags.writeable
    assert model.graph() is graph  # decoded once
    again = model._buffer(graph.tensors[w.index].buffer, "w")
    assert np.shares_memory(first, again) and np.shares_memory(again, np.frombuffer(model.data, np.uint8))


def test_a_budget_holds_a_model_within_it():
    data = hostile_models.shared_tables(60, "buffer", 1 << 20)  # 60 MiB of references, 1 MiB of file
    graph = litert.load(data)
    assert len(graph.tensors) == 60
    assert all(np.shares_memory(t.data, graph.tensors[0].data) for t in graph.tensors)


def test_a_sparse_tensor_is_refused_naming_it():
    with pytest.raises(UnsupportedModelError, match=r"tensor 'sparse_w' \(index \d+\) is stored sparse"):
        _front_end(hostile_models.sparse_weights())


def test_a_corrupt_vector_length_is_refused_not_walked():
    data = bytearray(hostile_models.shared_tables(2, "buffer", 4))
    model = litert.parse(bytes(data))
    sg = model._model.Subgraphs(0)
    o = sg._tab.Offset(4)  # the tensors vector
    at = sg._tab.Vector(o) - 4
    data[at:at + 4] = (0x7FFFFFFF).to_bytes(4, "little")
    with pytest.raises(InvalidModelError, match="claims 2147483647 tensors"):
        litert.load(bytes(data))


# 14 levels of 3 children, all one: about 100 bytes that stand for 3^14 (4.8 million) values once
# expanded, within the depth limit so the value budget stops them.
_EXPANDING = hostile_models.expanding_flexbuffer(14, width=3)


def _count_decodes(monkeypatch) -> list[bytes]:
    decoded: list[bytes] = []
    original = litert._decode_custom_options
    monkeypatch.setattr(litert, "_decode_custom_options", lambda raw: decoded.append(raw) or original(raw))
    return decoded


def test_custom_options_are_not_decoded_by_the_front_end(monkeypatch):
    decoded = _count_decodes(monkeypatch)
    (op,) = litert.load(hostile_models.custom_operator("SignalWindow", _EXPANDING)).operators
    assert op.custom_options == _EXPANDING and not op.options.decoded and decoded == []
    assert "expand to more than" in op.custom_options_error and decoded == [_EXPANDING]  # on first use, once
    assert op.options == {} and decoded == [_EXPANDING]


def test_an_unknown_custom_operator_is_refused_without_decoding_its_options(tmp_path, monkeypatch):
    decoded = _count_decodes(monkeypatch)
    start = time.monotonic()
    with pytest.raises(UnsupportedModelError) as info:
        helia_aot.convert(hostile_models.custom_operator("NotAnOperator", _EXPANDING), tmp_path / "out")
    assert time.monotonic() - start < 10
    message = str(info.value)
    assert "custom operator CUSTOM:NotAnOperator, which helia_aot does not lower" in message and "\n" not in message
    assert decoded == [] and not (tmp_path / "out").exists()


@pytest.mark.parametrize("raw, reason", [
    (_EXPANDING, f"expand to more than {litert.FLEX_VALUES} values"),
    (hostile_models.expanding_flexbuffer(20, width=1), f"nest deeper than {litert.FLEX_DEPTH} levels"),
])
def test_a_lowered_custom_operator_with_hostile_options_is_refused_by_the_budget(tmp_path, monkeypatch, raw, reason):
    decoded = _count_decodes(monkeypatch)
    start = time.monotonic()
    with pytest.raises(HeliaError) as info:
        helia_aot.convert(hostile_models.custom_operator("SignalWindow", raw), tmp_path / "out")
    assert time.monotonic() - start < 10
    message = str(info.value)
    assert "CUSTOM:SignalWindow" in message and reason in message and "\n" not in message
    assert decoded == [raw] and not (tmp_path / "out").exists()

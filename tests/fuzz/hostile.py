# SPDX-License-Identifier: Apache-2.0
"""Crafted hostile inputs, generated at test time (no binary blobs): what a small model, configuration
or plan can make a careless compiler do in time and memory. Used by tests/unit/test_hostile_*.py and
the fuzz campaign's hostile classes (tests/fuzz/mutations.py)."""

from __future__ import annotations

import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as schema

from tests.modelgen.builder import ModelBuilder


def many_call_once(count: int, init_index: int | None = None) -> bytes:
    """A resource variable initialised by CALL_ONCE `count` times over (each names the same small
    initialisation subgraph, or `init_index` when given): the accumulator of tests/modelgen/stateful.py
    with its CALL_ONCE repeated."""
    b = ModelBuilder("many CALL_ONCE")
    init = b.subgraph("init")
    handle0 = init.resource("acc_handle_init")
    init.op("VAR_HANDLE", [], [handle0], {"container": "", "shared_name": "acc"})
    init.op("ASSIGN_VARIABLE", [handle0, init.const("acc_initial", np.full((1, 4), 0.5), "float32")], [])
    for _ in range(count):
        b.op("CALL_ONCE", [], [], {"init_subgraph_index": init.index if init_index is None else init_index})
    x = b.input("x", (1, 4), "float32")
    handle = b.resource("acc_handle")
    b.op("VAR_HANDLE", [], [handle], {"container": "", "shared_name": "acc"})
    value = b.tensor("acc_value", (1, 4), "float32")
    b.op("READ_VARIABLE", [handle], [value])
    total = b.tensor("acc_next", (1, 4), "float32")
    b.op("ADD", [value, x], [total])
    b.op("ASSIGN_VARIABLE", [handle, total], [])
    b.output(total)
    return b.build()


def expanding_flexbuffer(levels: int, width: int = 2) -> bytes:
    """A FlexBuffer of `levels` nested `width`-element vectors whose elements all point at the one vector
    below: 2 * width + 1 bytes a level, width^levels values once expanded (14 levels of 3 in about 100
    bytes stand for 4.8 million values)."""
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


def custom_operator(code: str, raw_options: bytes) -> bytes:
    """One custom operator `code` (e.g. "SignalWindow", or a code no module lowers) from an int16 1x16
    input to an int16 1x16 output, its custom options exactly `raw_options`."""
    b = ModelBuilder(f"custom {code}")
    x = b.input("x", (1, 16), "int16")
    y = b.tensor("y", (1, 16), "int16")
    b.custom_op(code, [x], [y], raw_options=raw_options)
    b.output(y)
    return b.build()


def pooling(code: int) -> bytes:
    """One int8 AVERAGE_POOL_2D or MAX_POOL_2D (a BuiltinOperator code), 2x2 on 1x8x8x4."""
    name = "AVERAGE_POOL_2D" if code == schema.BuiltinOperator.AVERAGE_POOL_2D else "MAX_POOL_2D"
    b = ModelBuilder(name.lower())
    x = b.input("x", (1, 8, 8, 4), "int8", 0.05, 3)
    y = b.tensor("y", (1, 4, 4, 4), "int8", 0.05, 3)
    b.op(name, [x], [y], {"padding": "VALID", "stride_w": 2, "stride_h": 2, "filter_width": 2, "filter_height": 2})
    b.output(y)
    return b.build()


SHARED_FIELDS = ("buffer", "name", "shape", "quantization")


def shared_tables(count: int, large: str, size: int) -> bytes:
    """A model whose subgraph lists `count` tensors that are one Tensor table (the tensors vector
    repeats one offset), its field `large` (one of SHARED_FIELDS) `size` long: the buffer's bytes, the
    name's characters, the shape's dimensions or the per-channel scales. One ADD reads tensor 0 twice
    and writes tensor 1 (the same table), as a flatbuffer may say and the object API copies."""
    if large not in SHARED_FIELDS:
        raise ValueError(f"large must be one of {SHARED_FIELDS}")
    fbb = flatbuffers.Builder(size * 4 + 4096)
    data = fbb.CreateNumpyVector(np.zeros(size if large == "buffer" else 1, np.uint8))
    schema.BufferStart(fbb)
    empty = schema.BufferEnd(fbb)
    schema.BufferStart(fbb)
    schema.BufferAddData(fbb, data)
    filled = schema.BufferEnd(fbb)
    name = fbb.CreateString("w" * (size if large == "name" else 1))
    dims = [1] * size if large == "shape" else [size if large == "buffer" else 1]
    shape = fbb.CreateNumpyVector(np.array(dims, np.int32))
    channels = size if large == "quantization" else 1
    scale = fbb.CreateNumpyVector(np.full(channels, 0.5, np.float32))
    zero_point = fbb.CreateNumpyVector(np.zeros(channels, np.int64))
    schema.QuantizationParametersStart(fbb)
    schema.QuantizationParametersAddScale(fbb, scale)
    schema.QuantizationParametersAddZeroPoint(fbb, zero_point)
    quant = schema.QuantizationParametersEnd(fbb)
    schema.TensorStart(fbb)
    schema.TensorAddShape(fbb, shape)
    schema.TensorAddType(fbb, schema.TensorType.INT8)
    schema.TensorAddBuffer(fbb, 1)
    schema.TensorAddName(fbb, name)
    schema.TensorAddQuantization(fbb, quant)
    tensor = schema.TensorEnd(fbb)
    tensors = _offsets(fbb, [tensor] * count)
    op_inputs = fbb.CreateNumpyVector(np.array([0, 0], np.int32))
    op_outputs = fbb.CreateNumpyVector(np.array([1], np.int32))
    schema.OperatorStart(fbb)
    schema.OperatorAddOpcodeIndex(fbb, 0)
    schema.OperatorAddInputs(fbb, op_inputs)
    schema.OperatorAddOutputs(fbb, op_outputs)
    operator = schema.OperatorEnd(fbb)
    operators = _offsets(fbb, [operator])
    sg_inputs = fbb.CreateNumpyVector(np.array([0], np.int32))
    sg_outputs = fbb.CreateNumpyVector(np.array([1], np.int32))
    schema.SubGraphStart(fbb)
    schema.SubGraphAddTensors(fbb, tensors)
    schema.SubGraphAddInputs(fbb, sg_inputs)
    schema.SubGraphAddOutputs(fbb, sg_outputs)
    schema.SubGraphAddOperators(fbb, operators)
    subgraph = schema.SubGraphEnd(fbb)
    schema.OperatorCodeStart(fbb)
    schema.OperatorCodeAddBuiltinCode(fbb, schema.BuiltinOperator.ADD)
    schema.OperatorCodeAddDeprecatedBuiltinCode(fbb, schema.BuiltinOperator.ADD)
    schema.OperatorCodeAddVersion(fbb, 1)
    code = schema.OperatorCodeEnd(fbb)
    codes, subgraphs, buffers = _offsets(fbb, [code]), _offsets(fbb, [subgraph]), _offsets(fbb, [empty, filled])
    schema.ModelStart(fbb)
    schema.ModelAddVersion(fbb, 3)
    schema.ModelAddOperatorCodes(fbb, codes)
    schema.ModelAddSubgraphs(fbb, subgraphs)
    schema.ModelAddBuffers(fbb, buffers)
    fbb.Finish(schema.ModelEnd(fbb), file_identifier=b"TFL3")
    return bytes(fbb.Output())


def _offsets(fbb: flatbuffers.Builder, tables: list[int]) -> int:
    fbb.StartVector(4, len(tables), 4)
    for table in reversed(tables):
        fbb.PrependUOffsetTRelative(table)
    return fbb.EndVector()


def sparse_weights() -> bytes:
    """FULLY_CONNECTED whose weights carry sparsity parameters (a dense traversal of a 4x8 matrix)
    while their buffer holds exactly 4x8 bytes: read as dense, the bytes would mean other values."""
    b = ModelBuilder("sparse weights")
    x = b.input("x", (1, 8), "int8", 0.05, 0)
    w = b.const("sparse_w", np.arange(32).reshape(4, 8) % 7 - 3, "int8", 0.02, 0)
    y = b.tensor("y", (1, 4), "int8", 0.1, 0)
    b.op("FULLY_CONNECTED", [x, w, None], [y], {})
    b.output(y)
    model = schema.ModelT.InitFromPackedBuf(b.build(), 0)
    for t in model.subgraphs[0].tensors:
        if t.name == b"sparse_w":
            sparsity = schema.SparsityParametersT()
            sparsity.traversalOrder = np.array([0, 1], np.int32)
            dims = []
            for size in (4, 8):
                dim = schema.DimensionMetadataT()
                dim.format = schema.DimensionType.DENSE
                dim.denseSize = size
                dims.append(dim)
            sparsity.dimMetadata = dims
            t.sparsity = sparsity
    fbb = flatbuffers.Builder(1024)
    fbb.Finish(model.Pack(fbb), file_identifier=b"TFL3")
    return bytes(fbb.Output())

# SPDX-License-Identifier: Apache-2.0
"""One-operator models of TFLM's Signal custom operators, run by TensorFlow Lite Micro's interpreter:
the kernel tests' direct check of the references against TFLM (test_signal_b.py)."""

from __future__ import annotations

import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as schema
from flatbuffers import flexbuffers

TYPES = {"int16": schema.TensorType.INT16, "int32": schema.TensorType.INT32, "float32": schema.TensorType.FLOAT32,
         "uint32": schema.TensorType.UINT32, "uint64": schema.TensorType.UINT64}


def _tensor(name: str, dtype: str, shape, buffer: int) -> schema.TensorT:
    t = schema.TensorT()
    t.name, t.type, t.shape, t.buffer = name.encode(), TYPES[dtype], list(shape), buffer
    return t


def custom_model(code: str, options: dict, inputs: list[tuple], outputs: list[tuple]) -> bytes:
    """A model of one custom operator. inputs: (dtype, shape, constant array or None) each; outputs:
    (dtype, shape) each. Non-constant inputs are the model's inputs, in order."""
    model = schema.ModelT()
    model.version = 3
    model.description = b"helia-aot signal kernel test"
    empty = schema.BufferT()
    model.buffers = [empty]
    sub = schema.SubGraphT()
    sub.tensors, sub.inputs, sub.outputs = [], [], []
    op_inputs = []
    for k, (dtype, shape, data) in enumerate(inputs):
        buffer = 0
        if data is not None:
            b = schema.BufferT()
            b.data = np.ascontiguousarray(data).tobytes()
            model.buffers.append(b)
            buffer = len(model.buffers) - 1
        else:
            sub.inputs.append(len(sub.tensors))
        op_inputs.append(len(sub.tensors))
        sub.tensors.append(_tensor(f"in{k}", dtype, shape, buffer))
    op_outputs = []
    for k, (dtype, shape) in enumerate(outputs):
        op_outputs.append(len(sub.tensors))
        sub.outputs.append(len(sub.tensors))
        sub.tensors.append(_tensor(f"out{k}", dtype, shape, 0))
    code_t = schema.OperatorCodeT()
    code_t.builtinCode = code_t.deprecatedBuiltinCode = schema.BuiltinOperator.CUSTOM
    code_t.customCode, code_t.version = code.encode(), 1
    model.operatorCodes = [code_t]
    op = schema.OperatorT()
    op.opcodeIndex, op.inputs, op.outputs = 0, op_inputs, op_outputs
    op.customOptions = list(flexbuffers.Dumps(options))
    op.customOptionsFormat = schema.CustomOptionsFormat.FLEXBUFFERS
    sub.operators = [op]
    model.subgraphs = [sub]
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


def run(model: bytes, frames: list[list[np.ndarray]]) -> list[list[np.ndarray]]:
    """TFLM's outputs for each frame's inputs, one interpreter (state carried from frame to frame)."""
    from helia_aot.golden.references import TflmRunner
    runner = TflmRunner(model)
    return [runner.run(frame) for frame in frames]

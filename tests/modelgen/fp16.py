# SPDX-License-Identifier: Apache-2.0
"""Native FP16 test models, by rewriting FP32 ones.

LiteRT's own FP16 conversion only stores weights in half precision: every float16 constant sits
behind a DEQUANTIZE (float16 -> float32) and the graph computes in float32. A fully FP16 graph (data,
weights, bias and outputs float16) cannot come out of the converter, so it is made from an FP32
model at the flatbuffer level:

1. drop every DEQUANTIZE whose input is float16 and output float32; its readers (operators and
   subgraph outputs) read the float16 tensor instead;
2. promote every remaining float32 tensor to float16, converting its buffer (round to nearest even;
   values already representable in half precision are unchanged).

LiteRT cannot run the result (its kernels have no float16 paths), so the reference for an FP16 model
is LiteRT running the FP32 model it was made from, on the same (half-representable) inputs.
"""

from __future__ import annotations

import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as schema

from tests.modelgen.errors import BuilderError

_FLOAT32 = schema.TensorType.FLOAT32
_FLOAT16 = schema.TensorType.FLOAT16


def _op_name(model: schema.ModelT, op: schema.OperatorT) -> int:
    code = model.operatorCodes[op.opcodeIndex]
    return max(int(code.builtinCode), int(code.deprecatedBuiltinCode))


def to_float16(model_bytes: bytes) -> bytes:
    """The FP16 rewrite of an FP32 model (see the module docstring); every subgraph is rewritten."""
    model = schema.ModelT.InitFromPackedBuf(bytes(model_bytes), 0)
    converted: set[int] = set()
    for graph in model.subgraphs:
        _drop_weight_dequantizes(model, graph)
        for tensor in graph.tensors:
            if tensor.type != _FLOAT32:
                continue
            if tensor.quantization is not None and tensor.quantization.scale is not None \
                    and len(tensor.quantization.scale):
                raise BuilderError(f"tensor '{tensor.name.decode()}' is float32 with quantization "
                                   "parameters; the FP16 rewrite takes plain float tensors")
            tensor.type = _FLOAT16
            buffer = model.buffers[tensor.buffer]
            if tensor.buffer and buffer.data is not None and len(buffer.data) and tensor.buffer not in converted:
                values = np.frombuffer(bytes(np.asarray(buffer.data, dtype=np.uint8)), dtype="<f4")
                buffer.data = np.ascontiguousarray(values.astype("<f2")).view(np.uint8)
                converted.add(tensor.buffer)
    _drop_unused_opcodes(model)
    fbb = flatbuffers.Builder(len(model_bytes) + 1024)
    fbb.Finish(model.Pack(fbb), file_identifier=b"TFL3")
    return bytes(fbb.Output())


def _drop_weight_dequantizes(model: schema.ModelT, graph: schema.SubGraphT) -> None:
    """Remove DEQUANTIZE float16 -> float32 operators and the float32 tensors they produced."""
    replaced: dict[int, int] = {}
    kept = []
    for op in graph.operators or []:
        if _op_name(model, op) == schema.BuiltinOperator.DEQUANTIZE and len(op.inputs) == 1 \
                and graph.tensors[op.inputs[0]].type == _FLOAT16 and graph.tensors[op.outputs[0]].type == _FLOAT32:
            replaced[int(op.outputs[0])] = int(op.inputs[0])
        else:
            kept.append(op)
    if not replaced:
        return
    for op in kept:
        op.inputs = np.array([replaced.get(int(t), int(t)) for t in op.inputs], dtype=np.int32)
    graph.operators = kept
    graph.outputs = np.array([replaced.get(int(t), int(t)) for t in graph.outputs], dtype=np.int32)
    _drop_tensors(graph, set(replaced))


def _drop_tensors(graph: schema.SubGraphT, dropped: set[int]) -> None:
    remap, tensors = {}, []
    for index, tensor in enumerate(graph.tensors):
        if index not in dropped:
            remap[index] = len(tensors)
            tensors.append(tensor)
    graph.tensors = tensors
    fix = lambda ids: np.array([remap[int(t)] if t >= 0 else -1 for t in ids], dtype=np.int32)
    for op in graph.operators:
        op.inputs, op.outputs = fix(op.inputs), fix(op.outputs)
    graph.inputs, graph.outputs = fix(graph.inputs), fix(graph.outputs)


def _drop_unused_opcodes(model: schema.ModelT) -> None:
    used = sorted({int(op.opcodeIndex) for g in model.subgraphs for op in g.operators or []})
    remap = {old: new for new, old in enumerate(used)}
    model.operatorCodes = [model.operatorCodes[i] for i in used]
    for graph in model.subgraphs:
        for op in graph.operators or []:
            op.opcodeIndex = remap[int(op.opcodeIndex)]

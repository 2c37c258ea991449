# SPDX-License-Identifier: Apache-2.0
"""The module's interface: each model input and output as firmware feeds or reads it (name, dtype,
shape, sizes, quantization). One record, derived from the graph, that the plan, the report, the
header's macros and descriptor tables, the module's README.md and `ConversionResult` all show.
"""

from __future__ import annotations

from helia_aot import ops
from helia_aot.ir.graph import Graph, Tensor
from helia_aot.record.plan_model import Interface, InterfaceTensor, TensorQuantization

# <PREFIX>_API_VERSION: the module's C API. 1: init/run/input/output and the byte counts; 2: the
# interface macros and descriptor tables, the quantize/dequantize helpers, the run-time observer and
# <PREFIX>_STATUS_BAD_ARGUMENT. Raised whenever a declaration of <prefix>_model.h changes meaning.
API_VERSION = 2


def _quantization(tensor: Tensor) -> TensorQuantization | None:
    q = tensor.quant
    if q is None or not q.scales:
        return None
    return TensorQuantization(scale=[float(s) for s in q.scales], zero_point=[int(z) for z in q.zero_points],
                              axis=int(q.axis) if q.per_channel else None)


def row_padding(graph: Graph, t: int) -> int | None:
    """What the rows past a run-time row count of output t hold, when its operator writes such rows."""
    op = graph.producers().get(t)
    module = ops.get(op.op_type) if op is not None else None
    rows = module.run_time_rows(graph, op) if module is not None and op.outputs[0] == t else None
    return rows.fill if rows is not None else None


def _entry(graph: Graph, index: int, t: int, output: bool = False) -> InterfaceTensor:
    tensor = graph.tensors[t]
    return InterfaceTensor(index=index, name=tensor.name, tensor=int(t), dtype=tensor.dtype,
                           shape=[int(d) for d in tensor.shape], elements=tensor.num_elements,
                           bytes=tensor.nbytes, quantization=_quantization(tensor),
                           row_padding=row_padding(graph, t) if output else None)


def model_interface(graph: Graph) -> Interface:
    return Interface(api_version=API_VERSION,
                     inputs=[_entry(graph, i, t) for i, t in enumerate(graph.inputs)],
                     outputs=[_entry(graph, i, t, output=True) for i, t in enumerate(graph.outputs)])

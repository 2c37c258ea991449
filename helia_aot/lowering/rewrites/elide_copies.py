# SPDX-License-Identifier: Apache-2.0
"""elide_copy: operators that copy their input unchanged (a QUANTIZE to the same dtype, scale and zero
point; a PAD / PADV2 whose paddings are all zero) are removed, their readers read the input (or the
input's producer writes the output when the output is a graph output).

RESHAPE, SQUEEZE and EXPAND_DIMS need no rewrite: they already lower to an alias (no code, the output
shares the input's bytes in the arena; plan operators[].alias_of names the input)."""

from __future__ import annotations

import numpy as np

from helia_aot.ir.graph import Graph, Operator
from helia_aot.lowering.rewrites.graph_edit import Record, bypass, same_quant

NAME = "elide_copy"


def _reason(graph: Graph, op: Operator) -> str | None:
    """Why `op` is not an identity copy (None: it is one)."""
    x, y = graph.tensors[op.inputs[0]], graph.tensors[op.outputs[0]]
    if x.dtype != y.dtype or tuple(x.shape) != tuple(y.shape):
        return f"changes dtype or shape ({x.dtype} {list(x.shape)} -> {y.dtype} {list(y.shape)})"
    if not same_quant(x, y):
        return "input and output quantization differ"
    if x.is_variable:
        return "its input is operator state (a variable tensor)"
    if op.op_type in ("PAD", "PADV2"):
        pads = graph.tensors[op.inputs[1]] if len(op.inputs) > 1 and op.inputs[1] >= 0 else None
        if pads is None or not pads.is_constant or np.any(np.asarray(pads.data) != 0):
            return "pads something"
    return None


def consider(graph: Graph, op: Operator):
    """None when `op` is no QUANTIZE / PAD; else the refusal reason (str) or the rewritten graph and its
    record."""
    if op.op_type not in ("QUANTIZE", "PAD", "PADV2"):
        return None
    why = _reason(graph, op)
    if why is not None:
        return why
    edited = bypass(graph, op, op.inputs[0], op.outputs[0])
    if edited is None:
        return "its output is a graph output and its input is a graph input or has other readers"
    x = graph.tensors[op.inputs[0]]
    return edited, Record(NAME, (op.index,), None,
                          f"{op.op_type} copies {x.dtype} {list(x.shape)} unchanged (same quantization)")

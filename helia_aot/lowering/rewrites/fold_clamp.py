# SPDX-License-Identifier: Apache-2.0
"""fold_clamp: a RELU, RELU6, RELU_N1_TO_1, RELU_0_TO_1, or MINIMUM / MAXIMUM with a constant, that only
clamps its producer's output is removed, and the producer clamps to the narrower range itself (its fused
activation's act_min / act_max); the clamp's readers read the producer's output (or, when the clamp's
output is a graph output, the producer writes it).

It fires when the clamp's input and output have the same dtype, shape and quantization (bit for bit):
the standalone clamp then computes min(max(q, lo), hi) on the codes (RELU / RELU6: arm_clamp_s8 /
arm_clamp_s16; RELU_N1_TO_1 / RELU_0_TO_1: arm_relu_generic_s8 with the identity requantization;
MINIMUM / MAXIMUM compare codes), and clamping twice is clamping once to the intersection. The producer
is a CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, ADD, SUB, MUL, AVERAGE_POOL_2D or MAX_POOL_2D (their
integer lowerings take the range from ops.shared.fused_activation, which honours the folded range), its
output has no other reader and is no graph output. int8 / int16 only: float clamps differ from the fused
one on -0.0 and NaN (the standalone RELU keeps -0.0, the fused clamp gives +0.0).

A clamp operator is one whose module declares `clamp_bounds`, its real range; the range in codes is the one
its lowering computes (ops.shared.clamp.clamp_codes)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from helia_aot import ops
from helia_aot.ir.graph import Graph, Operator, Tensor
from helia_aot.ir.quant import CLAMPING_ACTIVATIONS, activation_range
from helia_aot.lowering.rewrites.graph_edit import (Record, bypass, is_boundary, producer, readers, reads_once,
                                                    same_quant)
from helia_aot.ops.base import OpLowering
from helia_aot.ops.shared.clamp import clamp_codes
from helia_aot.ops.shared.fused_activation import FOLDED_CLAMP
from helia_aot.ops.shared.operands import dtype_range

NAME = "fold_clamp"
PRODUCERS = ("CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "ADD", "SUB", "MUL", "AVERAGE_POOL_2D",
             "MAX_POOL_2D")
CONSTANT_CLAMPS = ("MINIMUM", "MAXIMUM")  # a clamp when one input is a constant of one value


def _clamp_module(op_type: str) -> OpLowering | None:
    """The module of a clamp operator, one that declares its real range (RELU, RELU6, RELU_N1_TO_1,
    RELU_0_TO_1), else None."""
    module = ops.get(op_type)
    return module if module is not None and module.clamp_bounds is not None else None


def _clamp_range(graph: Graph, op: Operator, y: Tensor) -> tuple[int, int, int] | str:
    """(data input position, lo, hi) of the clamp in codes, or why it is not a plain clamp."""
    qmin, qmax = dtype_range(y.dtype)
    if y.quant is None:
        return "its output has no quantization (the operator's own rules refuse it)"
    module = _clamp_module(op.op_type)
    if module is not None:
        if not any(y.dtype in v.outputs[0].dtypes for v in module.variants):
            return f"{op.op_type} has no {y.dtype} kernel"
        return (0, *clamp_codes(module.clamp_bounds, float(y.quant.scale), int(y.quant.zero_point), qmin, qmax))
    # MINIMUM / MAXIMUM: one constant input, every element the same code, the other input's shape kept.
    consts = [k for k, t in enumerate(op.inputs) if graph.tensors[t].is_constant]
    if len(op.inputs) != 2 or len(consts) != 1:
        return "not one constant and one computed input"
    c = graph.tensors[op.inputs[consts[0]]]
    values = np.unique(np.asarray(c.data).reshape(-1))
    if values.size != 1 or c.dtype != y.dtype:
        return "its constant is not one value of the data's dtype"
    data = 1 - consts[0]
    if tuple(graph.tensors[op.inputs[data]].shape) != tuple(y.shape):
        return "it broadcasts the data input"
    value = int(values[0])
    return (data, qmin, value) if op.op_type == "MINIMUM" else (data, value, qmax)


def producer_range(graph: Graph, op: Operator, t: Tensor) -> tuple[int, int]:
    """The clamp the producer applies now: its fused activation, narrowed by an earlier fold."""
    qmin, qmax = dtype_range(t.dtype)
    act = op.options.get("fused_activation_function", "NONE")
    lo, hi = activation_range(act, t.quant.scale, t.quant.zero_point, qmin, qmax)
    if FOLDED_CLAMP in op.options:
        f_lo, f_hi = op.options[FOLDED_CLAMP]
        lo, hi = max(lo, f_lo), min(hi, f_hi)
    return lo, hi


def consider(graph: Graph, op: Operator):
    """None when `op` is no clamp; else the refusal reason (str) or the rewritten graph and its record."""
    if op.op_type not in CONSTANT_CLAMPS and _clamp_module(op.op_type) is None:
        return None
    y = graph.tensors[op.outputs[0]]
    if y.dtype not in ("int8", "int16"):
        return f"{y.dtype}: only int8 / int16 fold bit-exactly (float clamps differ on -0.0 and NaN)"
    found = _clamp_range(graph, op, y)
    if isinstance(found, str):
        return found
    data, lo, hi = found
    source = op.inputs[data]
    t = graph.tensors[source]
    if t.dtype != y.dtype or tuple(t.shape) != tuple(y.shape) or not same_quant(t, y) or t.quant is None:
        return "its input and output differ in dtype, shape or quantization"
    # Answered before producer(), a walk over every operator: a graph of thousands of clamps of its
    # input would otherwise cost operators x clamps.
    maker = None if t.is_constant or source in graph.inputs else producer(graph, source)
    if maker is None:
        return "its input is a graph input or constant"
    if maker.op_type not in PRODUCERS:
        return f"its producer {maker.op_type} has no activation range"
    if len(maker.outputs) != 1 or is_boundary(graph, source):
        return "its input is a graph output (or its producer has several outputs)"
    users = readers(graph, source)
    if len(users) != 1 or not reads_once(op, source):
        return "its input has other readers"
    activation = maker.options.get("fused_activation_function", "NONE")
    if activation not in CLAMPING_ACTIVATIONS:
        return f"its producer's fused activation {activation} is no clamp"
    p_lo, p_hi = producer_range(graph, maker, t)
    new_lo, new_hi = max(p_lo, lo), min(p_hi, hi)
    if new_lo > new_hi:
        return f"the ranges [{p_lo}, {p_hi}] and [{lo}, {hi}] do not meet"
    folded = replace(maker, options=dict(maker.options, **{FOLDED_CLAMP: (new_lo, new_hi)}))
    edited = bypass(replace(graph, operators=[folded if o is maker else o for o in graph.operators]),
                    op, source, op.outputs[0])
    detail = (f"{op.op_type} [{lo}, {hi}] on {y.dtype} codes narrows {maker.op_type}'s range [{p_lo}, {p_hi}] "
              f"to [{new_lo}, {new_hi}]")
    return edited, Record(NAME, (op.index,), maker.index, detail)

# SPDX-License-Identifier: Apache-2.0
"""Verifier stage: the structural invariants every later stage assumes, checked once on the graph
the front end made, so no operator module ever sees an inconsistent graph.

Checked here: indices in range (graph inputs and outputs, operator codes, operator inputs, outputs
and intermediates, buffers, referenced subgraphs); tensor dtypes known, ranks and sizes bounded,
constant buffers exactly shape x element size; quantization arrays consistent (as many zero points
as scales, one scale or one per element of `quantized_dimension`, which lies within the rank),
scales finite and positive, zero points within the dtype; per operator the input/output arity its
declarations allow, its options table and option values (a custom operator's: a FlexBuffer map);
every tensor written once, before it is read; bias and per-channel lengths equal to the channel
count. What an operator module supports (ranks, activations, shapes matching) stays in the module.

Each failure is an InvalidModelError naming the tensor or operator, the rule and what to do. One
repair is made, with a warning: TensorFlow Lite Micro's person-detection model gives its depthwise
biases the filter's quantized_dimension (3) on a rank-1 tensor; TFLM reads them per channel.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from helia_aot import ops
from helia_aot.errors import InvalidModelError, UnsupportedModelError, warning
from helia_aot.ir.dtypes import DTYPE_BYTES, INTEGER_DTYPES
from helia_aot.ir.graph import Graph, Operator, Quantization, Tensor

# A module's sizes are int32 in C; no tensor may hold more bytes than that.
MAX_TENSOR_BYTES = (1 << 31) - 1
MAX_RANK = 8

_REEXPORT = "Re-export the model with the LiteRT converter, or check that the file is not damaged"

# Operators with a bias: (filter input, bias input, the filter dimension that counts output channels
# for a filter of the given rank).
_BIASED = {
    "CONV_2D": (1, 2, 4, 0),
    "DEPTHWISE_CONV_2D": (1, 2, 4, 3),
    "FULLY_CONNECTED": (1, 2, 2, 0),
    "TRANSPOSE_CONV": (1, 3, 4, 0),
}

# Option values every later stage relies on, by option name: (test, rule in words).
_POSITIVE = (lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 1, "an integer >= 1")
_ENUM = (lambda v: isinstance(v, str), "a value the schema defines")
_FINITE = (lambda v: isinstance(v, (int, float)) and math.isfinite(v), "a finite number")
_OPTION_RULES = {
    "stride_w": _POSITIVE, "stride_h": _POSITIVE,
    "dilation_w_factor": _POSITIVE, "dilation_h_factor": _POSITIVE,
    "filter_width": _POSITIVE, "filter_height": _POSITIVE,
    "padding": (lambda v: v in ("SAME", "VALID"), "SAME or VALID"),
    "fused_activation_function": _ENUM, "weights_format": _ENUM, "quantized_bias_type": _ENUM,
    "beta": _FINITE, "alpha": _FINITE,
}

_INT_RANGES = {d: (int(np.iinfo(d).min), int(np.iinfo(d).max)) for d in INTEGER_DTYPES}


def _has_data(t: Tensor) -> bool:
    """A constant, also of a type helia_aot does not read (its buffer holds bytes)."""
    return t.is_constant or t.buffer_bytes is not None


class _Verifier:
    """One verification of one graph; `run` gives the (repaired) graph and its warnings."""

    def __init__(self, graph: Graph, source: str):
        self.graph = graph
        self.source = source
        self.count = len(graph.tensors)

    # -- naming and failing
    def tensor_where(self, t: Tensor) -> str:
        return f"tensor '{t.name}' (index {t.index})"

    def op_where(self, op: Operator) -> str:
        where = f"operator {op.index} ({op.op_type})"
        if op.outputs and 0 <= op.outputs[0] < self.count:
            where += f" writing '{self.graph.tensors[op.outputs[0]].name}'"
        return where

    def fail(self, where: str, rule: str, hint: str = _REEXPORT) -> InvalidModelError:
        return InvalidModelError(f"model {self.source}: {where}: {rule}", hint)

    # -- the checks, in the order later checks rely on
    def run(self) -> tuple[Graph, list[str]]:
        self.check_graph_io()
        for op in self.graph.operators:
            self.check_operator_indices(op)
        graph, warnings = self.repair_bias_axes()
        self.graph = graph
        # Tensors only operators helia_aot does not lower touch may have types it does not handle:
        # lowering.prepare refuses those operators by name, which says more.
        lowered = set(graph.inputs) | set(graph.outputs)
        for op in graph.operators:
            if ops.get(op.op_type) is not None:
                lowered.update(op.inputs + op.outputs + op.intermediates)
        for t in graph.tensors:
            self.check_tensor(t, t.index in lowered)
        for op in graph.operators:
            self.check_operator(op)
        self.check_dataflow()
        for op in graph.operators:
            self.check_channels(op)
        return graph, warnings

    def check_graph_io(self) -> None:
        g = self.graph
        for kind, indices in (("input", g.inputs), ("output", g.outputs)):
            for k, t in enumerate(indices):
                if not 0 <= t < self.count:
                    raise self.fail(f"subgraph '{g.name}' {kind} {k}",
                                    f"names tensor {t}, the subgraph has {self.count} tensors (0..{self.count - 1})")
        if not g.outputs:
            raise self.fail(f"subgraph '{g.name}'", "has no outputs", "Export the model with at least one output")
        if len(set(g.inputs)) != len(g.inputs):
            raise self.fail(f"subgraph '{g.name}'", f"lists a tensor twice among its inputs {g.inputs}")

    def check_operator_indices(self, op: Operator) -> None:
        g = self.graph
        if not 0 <= op.opcode_index < g.operator_code_count:
            raise self.fail(f"operator {op.index}", f"names operator code {op.opcode_index}, the model has "
                                                    f"{g.operator_code_count}")
        for kind, indices, omittable in (("input", op.inputs, True), ("output", op.outputs, False),
                                         ("intermediate", op.intermediates, False)):
            for k, t in enumerate(indices):
                if t == -1 and omittable:
                    continue
                if not 0 <= t < self.count:
                    omitted = " (-1 marks an omitted input)" if omittable else ""
                    raise self.fail(self.op_where(op), f"{kind} {k} names tensor {t}, the subgraph has {self.count} "
                                                       f"tensors{omitted}")

    def repair_bias_axes(self) -> tuple[Graph, list[str]]:
        """The one repair: a rank-1 bias with one scale per element whose quantized_dimension copies
        its filter's reads as per-channel on dimension 0 (TFLM's person-detection model needs it)."""
        g = self.graph
        repaired: dict[int, Tensor] = {}
        for op in g.operators:
            spec = _BIASED.get(op.op_type)
            if spec is None or len(op.inputs) <= spec[1] or op.inputs[spec[1]] < 0 or op.inputs[spec[0]] < 0:
                continue
            w, b = g.tensors[op.inputs[spec[0]]], g.tensors[op.inputs[spec[1]]]
            q = b.quant
            if (q is None or len(b.shape) != 1 or q.axis < 1 or len(q.scales) != b.shape[0]
                    or len(q.scales) < 2 or w.quant is None or w.quant.axis != q.axis):
                continue
            repaired[b.index] = replace(b, quant=Quantization(q.scales, q.zero_points, 0))
        if not repaired:
            return g, []
        first = g.tensors[min(repaired)]
        repair = warning(f"{len(repaired)} rank-1 bias tensor(s) (first '{first.name}') give quantized_dimension "
                         f"{first.quant.axis} like their filter, read as per-channel on dimension 0 as TensorFlow "
                         f"Lite Micro does", "nothing to do unless you own the exporter: bias tensors should give "
                         "quantized_dimension 0")
        tensors = [repaired.get(t.index, t) for t in g.tensors]
        return replace(g, tensors=tensors), [repair]

    def check_tensor(self, t: Tensor, lowered: bool) -> None:
        where = self.tensor_where(t)
        if t.dtype.startswith("unknown("):
            raise self.fail(where, f"has tensor type code {t.dtype[8:-1]}, which the LiteRT schema does not define")
        if len(t.shape) > MAX_RANK:
            raise self.fail(where, f"has rank {len(t.shape)} (at most {MAX_RANK})")
        if any(d < 0 for d in t.shape):
            raise self.fail(where, f"has a negative dimension in shape {list(t.shape)}",
                            "Export the model with fixed shapes (batch 1)")
        g = self.graph
        if t.buffer != 0 and not 0 < t.buffer < g.buffer_count:
            raise self.fail(where, f"names buffer {t.buffer}, the model has {g.buffer_count}")
        if t.dtype not in DTYPE_BYTES:
            if not lowered:
                return
            raise UnsupportedModelError(f"model {self.source}: {where} has dtype {t.dtype} "
                                        f"(helia_aot handles {', '.join(DTYPE_BYTES)})",
                                        "Export the model without tensors of this type")
        if t.nbytes > MAX_TENSOR_BYTES:
            raise self.fail(where, f"shape {list(t.shape)} holds {t.nbytes} bytes (at most {MAX_TENSOR_BYTES})")
        if t.buffer_bytes is not None and t.buffer_bytes != t.nbytes:
            raise self.fail(where, f"has a constant buffer of {t.buffer_bytes} bytes, its shape {list(t.shape)} of "
                                   f"{t.dtype} needs {t.nbytes}")
        if (t.is_constant and t.dtype in ("float16", "float32")
                and not np.all(np.isfinite(np.asarray(t.data, dtype=np.float64)))):
            raise self.fail(where, "is a float constant holding NaN or infinity (weights and biases must be finite)")
        if t.quant is not None:
            self.check_quant(t, where)

    def check_quant(self, t: Tensor, where: str) -> None:
        q = t.quant
        n = len(q.scales)
        if len(q.zero_points) != n:
            raise self.fail(where, f"has {n} quantization scale(s) and {len(q.zero_points)} zero point(s); they "
                                   "must be as many")
        if t.shape and not 0 <= q.axis < len(t.shape):
            raise self.fail(where, f"quantized_dimension {q.axis} is outside its rank {len(t.shape)}")
        if n != 1 and (not t.shape or n != t.shape[q.axis]):
            size = t.shape[q.axis] if t.shape else 1
            raise self.fail(where, f"has {n} quantization scales; it needs 1 (per tensor) or {size} (one per "
                                   f"element of quantized_dimension {q.axis})")
        bad = [s for s in q.scales if not (math.isfinite(s) and s > 0)]
        if bad:
            raise self.fail(where, f"has quantization scale {bad[0]!r}; scales must be finite and positive")
        bounds = _INT_RANGES.get(t.dtype)
        if bounds is not None:
            out = [z for z in q.zero_points if not bounds[0] <= z <= bounds[1]]
            if out:
                raise self.fail(where, f"has zero point {out[0]}, outside {t.dtype}'s range {bounds[0]}..{bounds[1]}")

    def check_operator(self, op: Operator) -> None:
        where = self.op_where(op)
        # A custom operator's options are read only once a module is known to lower it (below).
        for key, value in (() if op.op_type.startswith("CUSTOM:") else op.options.items()):
            if key.endswith("subgraph_index"):
                g = self.graph
                if not isinstance(value, int) or not 0 <= value < g.subgraph_count or value == g.subgraph_index:
                    raise self.fail(where, f"option {key} = {value} does not name another of the model's "
                                           f"{g.subgraph_count} subgraphs")
        module = ops.get(op.op_type)
        if module is None:
            return  # not lowered: lowering.prepare refuses it by name
        if op.custom_options_error is not None:
            raise self.fail(where, op.custom_options_error)
        table = module.options_table_for(op.op_type)
        if op.options_table is not None and op.options_table != table:
            wanted = f"{table} or none" if table else "none"
            raise self.fail(where, f"carries a {op.options_table} table; {op.op_type} takes {wanted}")
        for key, value in op.options.items():
            # A custom operator's attributes are its kernel's own (its module checks them), not the schema's.
            rule = None if op.op_type.startswith("CUSTOM:") else _OPTION_RULES.get(key)
            if rule is not None and not rule[0](value):
                raise self.fail(where, f"option {key} = {value!r} must be {rule[1]}")
        self.check_arity(op, module, where)

    def check_arity(self, op: Operator, module, where: str) -> None:
        """The arity the operator's variant declarations allow (the catalog's operands)."""
        lows, highs, optional, outputs, at_least = [], [], set(), set(), []
        for v in module.variants:
            lows.append(sum(1 for o in v.inputs if not o.optional))
            highs.append(math.inf if v.inputs and v.inputs[-1].repeated else len(v.inputs))
            optional |= {k for k, o in enumerate(v.inputs) if o.optional}
            if v.outputs and v.outputs[-1].repeated:
                at_least.append(len(v.outputs))  # SPLIT, UNPACK: one output per piece
            else:
                outputs.add(len(v.outputs))
        low, high = min(lows), max(highs)
        if not low <= len(op.inputs) <= high:
            wanted = f"{low}" if low == high else (f"at least {low}" if high == math.inf else f"{low} to {high}")
            raise self.fail(where, f"has {len(op.inputs)} inputs; {op.op_type} takes {wanted}")
        if len(op.outputs) not in outputs and not any(len(op.outputs) >= n for n in at_least):
            counts = [str(n) for n in sorted(outputs)] + [f"at least {n}" for n in sorted(set(at_least))]
            raise self.fail(where, f"has {len(op.outputs)} outputs; {op.op_type} takes {' or '.join(counts)}")
        for k, t in enumerate(op.inputs):
            if t == -1 and k not in optional:
                raise self.fail(where, f"input {k} is omitted (-1), but {op.op_type} requires it")

    def check_dataflow(self) -> None:
        """Every tensor an operator reads is a constant, a graph input or an earlier operator's output;
        every tensor is written at most once, and never a constant or a graph input."""
        g = self.graph
        for t in g.inputs:
            if _has_data(g.tensors[t]):
                raise self.fail(self.tensor_where(g.tensors[t]), "is a graph input and also has constant data")
        for t in g.inputs + g.outputs:
            if g.tensors[t].is_variable:
                raise UnsupportedModelError(
                    f"model {self.source}: {self.tensor_where(g.tensors[t])} is a variable tensor (state kept "
                    "between runs) and a graph input or output; the module keeps state in its persistent arena, "
                    "out of the caller's reach", "Export the model with its state internal to the operators")
        written = set(g.inputs)
        for op in g.operators:
            where = self.op_where(op)
            module = ops.get(op.op_type)
            for t in op.inputs:
                if t < 0 or t in written:
                    continue
                tensor = g.tensors[t]
                if tensor.is_variable and module is not None:
                    if tensor.buffer_bytes is not None:
                        # LiteRT refuses such a model too: it resets variables to zero, never to a buffer.
                        raise self.fail(self.tensor_where(tensor), "is a variable tensor with a constant buffer; "
                                                                   "LiteRT does not load one")
                    if module.keeps_state:
                        continue
                    raise UnsupportedModelError(
                        f"model {self.source}: {where} reads variable tensor '{tensor.name}' (state kept between "
                        f"runs); only operators that keep state may ({', '.join(ops.stateful_operators())})",
                        "Export the model without state outside those operators")
                if _has_data(tensor) or tensor.is_variable:
                    continue
                raise self.fail(where, f"reads tensor '{tensor.name}' (index {t}) before any operator writes it")
            for t in op.outputs:
                tensor = g.tensors[t]
                if tensor.is_variable and module is not None:
                    raise UnsupportedModelError(
                        f"model {self.source}: {where} writes variable tensor '{tensor.name}' as an output; "
                        "state is updated in place by the operator that reads it",
                        "Export the model with the state as that operator's input")
                if _has_data(tensor):
                    raise self.fail(where, f"writes tensor '{tensor.name}' (index {t}), which has constant data")
                if t in written:
                    what = "a graph input" if t in g.inputs else "already written by an earlier operator"
                    raise self.fail(where, f"writes tensor '{tensor.name}' (index {t}), which is {what}")
                written.add(t)
        for t in g.outputs:
            if t not in written:
                raise self.fail(self.tensor_where(g.tensors[t]), "is a graph output that no operator writes")

    def check_channels(self, op: Operator) -> None:
        """Bias and per-channel lengths equal the filter's output channel count."""
        spec = _BIASED.get(op.op_type)
        if spec is None or len(op.inputs) <= spec[0] or op.inputs[spec[0]] < 0:
            return
        filter_k, bias_k, rank, axis = spec
        w = self.graph.tensors[op.inputs[filter_k]]
        if len(w.shape) != rank:
            return  # the operator module refuses the filter's rank
        channels = w.shape[axis]
        if bias_k < len(op.inputs) and op.inputs[bias_k] >= 0:
            b = self.graph.tensors[op.inputs[bias_k]]
            if b.num_elements != channels:
                raise self.fail(self.op_where(op), f"bias '{b.name}' has {b.num_elements} elements, the filter "
                                                   f"'{w.name}' has {channels} output channels")
        if w.quant is not None and len(w.quant.scales) not in (1, channels):
            raise self.fail(self.op_where(op), f"filter '{w.name}' has {len(w.quant.scales)} scales for {channels} "
                                               "output channels")


def verify(graph: Graph, source: str = "<bytes>") -> tuple[Graph, list[str]]:
    """The graph, checked (and repaired where allowed), and the warnings the repairs gave."""
    return _Verifier(graph, source).run()

# SPDX-License-Identifier: Apache-2.0
"""Lowering stage: a graph in, every operator's decided lowering out (in execution order).

`prepare` refuses what no operator module lowers and folds constant subgraphs; `lower` gives each
operator its stable id, selects its variant, validates it and lowers it against the kernel library.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from helia_aot import ops
from helia_aot.config import operator_rules as overrides
from helia_aot.lowering import rewrites
from helia_aot.lowering.operator_ids import operator_ids
from helia_aot.errors import InvalidModelError, UnsupportedModelError, close_operator_types
from helia_aot.ir.dtypes import CTYPE_NUMPY, INTEGER_CTYPES
from helia_aot.ir.graph import Graph, Operator
from helia_aot.ops.base import Lowered, OpContext, OpLowering, Variant
from helia_aot.config.options import ConversionOptions
from helia_aot.record.plan_model import KernelChoice, Knob, KnobSource, OperatorRule
from helia_aot.ir.quant import MultiplierRangeError

_IO_DTYPES = ("int8", "int16", "float32", "int32", "uint8", "float16", "int64", "bool", "uint16", "uint32", "uint64")


@dataclass(frozen=True)
class Step:
    """One operator in execution order with everything decided about it."""

    position: int
    op: Operator
    op_id: str
    id_source: str
    variant: Variant
    lowering: Lowered
    knob: Knob | None
    settings: overrides.Settings | None = None  # what the configuration's `operators` rules set
    choice: KernelChoice | None = None  # set by helia_aot.lowering.kernel_choice


def _context(graph: Graph, op: Operator, op_id: str, options: ConversionOptions) -> OpContext:
    return OpContext(graph, op, op_id, options.target, options.kernels, options.optimization)


def _operator_context(graph: Graph, op: Operator, op_id: str, options: ConversionOptions,
                      settings: overrides.Settings | None) -> OpContext:
    """The operator's context with the knobs and attributes its `operators` rules set."""
    if settings is None:
        return _context(graph, op, op_id, options)
    optimization = options.optimization
    if settings.knobs:
        optimization = replace(optimization, **{k: v for k, (v, _) in settings.knobs.items()})
    return OpContext(graph, op, op_id, options.target, options.kernels, optimization,
                     attributes={k: v for k, (v, _) in settings.attributes.items()})


def prepare(graph: Graph, options: ConversionOptions, source: str) -> Graph:
    """The graph with every operator known, constant subgraphs folded and the graph rewrites applied
    (a new Graph; its `rewrites` lists what they changed)."""
    if not graph.operators:
        raise InvalidModelError(f"model {source} subgraph '{graph.name}' has no operators",
                                "Pass a model with at least one operator")
    supported = ops.supported_operators()
    for op in graph.operators:
        if ops.get(op.op_type) is None and op.op_type.startswith("CUSTOM:"):
            out = graph.tensors[op.outputs[0]].name if op.outputs else "?"
            custom = [name for name in supported if name.startswith("CUSTOM:")]
            raise UnsupportedModelError(
                f"operator {graph.name}:{out} (index {op.index}) is the custom operator {op.op_type}, which "
                f"helia_aot does not lower (custom operators it lowers: {', '.join(custom) or 'none'})",
                "Replace the operator in the model, or file an issue asking for it")
        if ops.get(op.op_type) is None:
            out = graph.tensors[op.outputs[0]].name if op.outputs else "?"
            # The whole list would be a 2,000-character line: point to the catalog, name the close types.
            close = close_operator_types(op.op_type, supported)
            raise UnsupportedModelError(
                f"operator {graph.name}:{out} (index {op.index}) is {op.op_type}, which helia_aot does not lower"
                + (f" (the closest types it lowers: {', '.join(close)})" if close else ""),
                f"Replace the operator in the model, or file an issue asking for it; `helia-aot operators` "
                f"lists the {len(supported)} operator types helia_aot lowers")
    graph = _size_run_time_rows(graph)
    for t in graph.inputs + graph.outputs:
        tensor = graph.tensors[t]
        if tensor.dtype not in _IO_DTYPES:
            raise UnsupportedModelError(f"model input/output '{tensor.name}' has dtype {tensor.dtype} "
                                        f"(supported: {', '.join(_IO_DTYPES)})",
                                        "Export the model with int8, int16, float16 or float32 inputs and outputs")
        if any(d <= 0 for d in tensor.shape):
            raise UnsupportedModelError(f"model input/output '{tensor.name}' has a dynamic or empty shape "
                                        f"{list(tensor.shape)}", "Export the model with fixed shapes (batch 1)")
    # Rewrites after folding: a folded constant can make a MINIMUM / MAXIMUM a clamp.
    return rewrites.apply(_fold_constants(graph, options), options.optimization.rewrites)


def _size_run_time_rows(graph: Graph) -> Graph:
    """Each model output LiteRT resizes at run time to a count of rows (OpLowering.run_time_rows) in the shape
    the module gives it, whatever the model declares (LiteRT ignores the declaration too)."""
    sized = {}
    for op in graph.operators:
        module = ops.get(op.op_type)
        rows = module.run_time_rows(graph, op) if module is not None and op.outputs else None
        if rows is not None and op.outputs[0] in graph.outputs:
            sized[op.outputs[0]] = tuple(rows.shape)
    if not sized:
        return graph
    tensors = [replace(t, shape=sized[k]) if k in sized else t for k, t in enumerate(graph.tensors)]
    return replace(graph, tensors=tensors)


def _fold_constants(graph: Graph, options: ConversionOptions) -> Graph:
    """Run operators whose inputs are all constant at conversion time (when their module can)."""
    tensors = list(graph.tensors)
    kept = []
    outputs = set(graph.outputs)
    folded = replace(graph, tensors=tensors)
    for op in graph.operators:
        module = ops.get(op.op_type)
        inputs = [t for t in op.inputs if t >= 0]
        foldable = type(module).fold is not OpLowering.fold and not any(t in outputs for t in op.outputs)
        if foldable and inputs and all(tensors[t].is_constant for t in inputs):
            ctx = _context(folded, op, f"{graph.name}:{op.op_type}@{op.index}", options)
            # A folded operator meets its module's rules too (no kernel variant: folding needs none).
            module.check_axes(ctx)
            module.validate(ctx)
            values = module.fold(ctx)
            if values is not None:
                for t, v in zip(op.outputs, values):
                    tensor = tensors[t]
                    v = np.asarray(v)
                    if v.shape != tuple(tensor.shape) and v.size == tensor.num_elements:
                        # An element-wise output declared in another shape of as many elements (validate took
                        # it): the same values, relabelled, as both references write them.
                        v = v.reshape(tensor.shape)
                    if v.shape != tuple(tensor.shape) or (v.dtype.kind == "f") != (tensor.dtype.startswith("float")):
                        raise ctx.error(f"folds to {v.dtype} {list(v.shape)}, its output is {tensor.dtype} "
                                        f"{list(tensor.shape)}", tensor)
                    tensors[t] = replace(tensor, data=v.astype(tensor.dtype if tensor.dtype != "bool" else "uint8"))
                continue
        kept.append(op)
    return replace(folded, operators=kept)


def _kernel_knob(options: ConversionOptions, lowering: Lowered, settings: overrides.Settings) -> Knob | None:
    if lowering.candidates is None or len(lowering.candidates) <= 1:
        return None
    requested = options.optimization.kernel
    source = KnobSource(kind="model" if requested != "auto" else "default", rule=None)
    if "kernel" in settings.knobs:
        requested, rule = settings.knobs["kernel"]
        source = KnobSource(kind="operator", rule=OperatorRule(position=rule.position, type=rule.type, id=rule.id))
    value = "specialized" if requested == "auto" else requested
    return Knob(value=value, requested=requested,
                resolved_by="auto_table" if requested == "auto" else "explicit",
                approximate=False, source=source)


_INT32 = np.iinfo(np.int32)


def _ints(value):
    """Every integer in a parameter value (tuples and lists of them included)."""
    if isinstance(value, (bool, np.bool_)):
        return
    if isinstance(value, (int, np.integer)):
        yield int(value)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _ints(item)


def _check_constants(ctx: OpContext, lowering: Lowered) -> None:
    """Derived constants (multipliers, weight sums, ...) and parameters (paddings, sizes, offsets)
    fit the C type they are emitted as: extreme model values (a bias near the int32 limits, a huge
    dilation) can push them out, and C would wrap them silently. Kernel parameters are int32."""
    for key, value in lowering.params.items():
        for v in _ints(value):
            if not _INT32.min <= v <= _INT32.max:
                raise ctx.error(f"derived parameter {key} reaches {v}, outside int32 (the kernels take int32)", None,
                                "Check the operator's options and shapes (they are far outside what an exporter "
                                "writes)")
    for c in lowering.constants:
        info = np.iinfo(CTYPE_NUMPY[c.ctype]) if c.ctype in INTEGER_CTYPES else None
        values = np.asarray(c.values)
        if info is None or values.size == 0:
            continue
        low, high = int(values.min()), int(values.max())
        if low < info.min or high > info.max:
            bad = low if low < info.min else high
            raise ctx.error(f"derived constant {c.suffix} ({c.comment}) reaches {bad}, outside {c.ctype}; the "
                            "kernel's arithmetic would overflow", None,
                            "Check the model's bias and quantization values (they are far outside what an "
                            "exporter writes)")


def lower(graph: Graph, options: ConversionOptions) -> list[Step]:
    steps = []
    ids = operator_ids(graph)
    all_settings = overrides.match(options.operators, graph, ids)
    for pos, (op, (op_id, id_source)) in enumerate(zip(graph.operators, ids)):
        module = ops.get(op.op_type)
        settings = all_settings[pos]
        ctx = _operator_context(graph, op, op_id, options, settings)
        ctx = ctx.with_variant(module.select(ctx))
        module.check_target(ctx)
        module.check_operands(ctx)
        module.check_axes(ctx)
        try:
            module.validate(ctx)
            lowering = module.lower_variant(ctx)
        except MultiplierRangeError as exc:
            raise ctx.error(str(exc), None, "Check the model's quantization scales (their ratio is far outside what an "
                                            "exporter writes)") from None
        _check_constants(ctx, lowering)
        steps.append(Step(pos, op, op_id, id_source, ctx.variant, lowering, _kernel_knob(options, lowering, settings),
                          settings))
    return steps


def relower(graph: Graph, step: Step, options: ConversionOptions, entry: str) -> Step:
    """The step lowered again with its kernel entry forced to `entry` (one of its candidates), for
    helia_aot.lowering.kernel_choice."""
    module = ops.get(step.op.op_type)
    ctx = _operator_context(graph, step.op, step.op_id, options, step.settings).with_variant(step.variant)
    ctx = ctx.with_entry(entry)
    lowering = module.lower_variant(ctx)
    _check_constants(ctx, lowering)
    return replace(step, lowering=lowering)

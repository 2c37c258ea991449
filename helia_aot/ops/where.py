# SPDX-License-Identifier: Apache-2.0
"""WHERE (one input): the coordinates of the condition's non-zero elements, int64 [count, rank], in row-major
order as np.argwhere and LiteRT's reference (where.cc, SelectTrueCoords). LiteRT's reference takes bool, int8,
uint8, int32, uint32, int64 and float32 conditions (non-zero is true, compared as the stored values: an int8
condition's codes, a float NaN true).

- A constant condition: the coordinates are computed at conversion time (folded into the tensors that use
  them, or, for a model output, copied from a constant by the generated code).
- A condition known only at run time: LiteRT resizes the output to the count of true elements, whatever the
  model declares. A module's tensors have static sizes, so the output gets room for every element ([elements,
  rank], run_time_rows), the coordinates fill its first rows and every element of the rows after them is -1
  (the interface's row_padding; <PREFIX>_OUTPUT<k>_ROW_PADDING). That output is a model output: no later
  operator reads rows whose count is known only at run time."""

from __future__ import annotations

import numpy as np

from helia_aot.emit.c_syntax import c_type
from helia_aot.ir.graph import Graph, Operator
from helia_aot.ops.base import (ConstArray, Lowered, OpContext, OpLowering, Operand, Rule, RunTimeRows, Variant,
                                helia_limit, litert, register)
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE

_CONDITIONS = ("bool", "int8", "uint8", "int32", "int64", "float32")
# The value of every element of the rows past the run-time count: no coordinate is negative.
ROW_PADDING = -1
ONE_INPUT = Rule("one input (the condition)", litert("where.cc Prepare", "TF_LITE_ENSURE_EQ(NumInputs(node), 1)"))
RUN_TIME_OUTPUT = Rule("the coordinates of a run-time condition are a model output", helia_limit(
    "the memory plan sizes every tensor at conversion time; LiteRT's where.cc resizes the output to the count of "
    "non-zero elements at run time. The module gives a model output room for every element and pads the rows past "
    "the count with -1, which firmware reads; a later operator would read rows that do not exist in LiteRT",
    "run-time shapes for the operators after it"))
NON_EMPTY = Rule("the constant condition has a non-zero element", helia_limit(
    "a tensor of zero elements has no storage in the memory plan; LiteRT returns an empty [0, rank] output",
    "zero-size model outputs in the memory plan and the module's API"))


def _coordinates(ctx: OpContext) -> np.ndarray:
    cond = np.asarray(ctx.inp(0).data).reshape(ctx.inp(0).shape)
    return np.argwhere(cond != 0).astype(np.int64).reshape(-1, len(cond.shape))


def _run_time(graph: Graph, op: Operator) -> bool:
    return bool(op.inputs) and op.inputs[0] >= 0 and not graph.tensors[op.inputs[0]].is_constant


@register
class Where(OpLowering):
    op_types = ("WHERE",)
    options_table = "WhereOptions"
    variants = (
        Variant("coordinates", inputs=(Operand("condition", _CONDITIONS),), outputs=(Operand("output", ("int64",)),),
                template="where.c.j2", rules=(ONE_INPUT, OUTPUT_SHAPE_RULE, NON_EMPTY, RUN_TIME_OUTPUT),
                notes=("a constant condition: computed at conversion time, a model output copied from a constant",
                       "a run-time condition: inline C; the coordinates fill the first rows, every element of the "
                       "rows after them is -1")),
    )

    def validate(self, ctx: OpContext) -> None:
        c, y = ctx.inp(0), ctx.out(0)
        if len(ctx.op.inputs) != 1:
            raise ctx.error(ONE_INPUT, c, "Use SELECT_V2 for the three-input form",
                            detail="WHERE with x and y inputs is not supported (use SELECT_V2)")
        if not c.is_constant:
            room = list(self.run_time_rows(ctx.graph, ctx.op).shape)
            if ctx.op.outputs[0] not in ctx.graph.outputs:
                raise ctx.error(RUN_TIME_OUTPUT, y, "Make WHERE's output a model output, or freeze the condition",
                                detail="another operator reads the coordinates of a condition known only at run "
                                       "time, whose count LiteRT sets at run time")
            if [int(d) for d in y.shape] != room:  # run_time_rows gave it this shape before any check
                raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} is not the room for the "
                                f"coordinates of every element of the run-time condition ({room})")
            return
        coords = _coordinates(ctx)
        if coords.size == 0:
            raise ctx.error(NON_EMPTY, y, detail="the constant condition has no non-zero element: the output is empty")
        if tuple(int(d) for d in y.shape) != coords.shape:
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} does not match the "
                            f"{coords.shape[0]} non-zero elements of the constant condition ({list(coords.shape)})")

    def lower(self, ctx: OpContext) -> Lowered:
        if not ctx.inp(0).is_constant:
            return self.lower_run_time(ctx)
        return Lowered(entry=None, fixed={"implementation": "constant"}, params=dict(output=ctx.out(0).index),
                       constants=[ConstArray("value", "int64_t", _coordinates(ctx).reshape(-1),
                                             "coordinates of the constant condition's non-zero elements")])

    def lower_run_time(self, ctx: OpContext) -> Lowered:
        c = ctx.inp(0)
        return Lowered(entry=None, fixed={"implementation": "run time"},
                       params=dict(condition=c.index, ctype=c_type(c.dtype), output=ctx.out(0).index,
                                   elements=c.num_elements, dims=[int(d) for d in c.shape],
                                   floating=c.dtype == "float32", padding=ROW_PADDING))

    def fold(self, ctx: OpContext):
        return [_coordinates(ctx)]

    def run_time_rows(self, graph: Graph, op: Operator) -> RunTimeRows | None:
        if not _run_time(graph, op):
            return None
        condition = graph.tensors[op.inputs[0]]
        return RunTimeRows((condition.num_elements, len(condition.shape)), ROW_PADDING)

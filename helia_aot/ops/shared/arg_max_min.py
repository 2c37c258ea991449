# SPDX-License-Identifier: Apache-2.0
"""What ARG_MAX and ARG_MIN share (no @register here; one module per operator). The axis input is a constant
of one element (negative counts from the end); the output drops that axis and holds int32 or int64 indices
in the output tensor's declared dtype (TFLM's arg_min_max.cc reads the tensor's type, not output_type; LiteRT's
Prepare retypes the tensor to output_type, with the same index values); on ties the first index wins, as LiteRT's strict comparison keeps it. LiteRT's reference takes
int8, uint8, int32, float32 and bool inputs (not int16 or int64); all but uint8 lower. int8 with int32 indices
calls ns-cmsis-nn's arm_argmax_s8 / arm_argmin_s8 on the input seen as (1, outer, axis, inner); everything
else is inline C."""

from __future__ import annotations

import math

import numpy as np

from helia_aot.ops.base import (AXIS_RANGE_RULE, INDEX, Axis, Lowered, OpContext, OpLowering, Operand, Rule, Variant,
                                litert, undefined)
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE, constant_ints
from helia_aot.ops.shared.operands import const_ints

_CTYPES = {"int8": "int8_t", "int32": "int32_t", "float32": "float", "bool": "uint8_t"}
_RULES = ("axis constant, one element, negative allowed",
          "output int32 or int64 as the output tensor declares (TFLM; LiteRT retypes it to output_type)",
          "ties give the first index")

ONE_AXIS = Rule("axis holds one value", litert("arg_min_max.cc Prepare", "TF_LITE_ENSURE_EQ(NumElements(axis), 1)",
                                               "reads the first value and disregards the others"))
INPUT_RANK = Rule("input rank at least 1", litert("arg_min_max.cc Prepare", "TF_LITE_ENSURE(NumDimensions(input) >= 1)"))
NONEMPTY_AXIS = Rule("the reduced axis is not empty", undefined(
    "reference_ops::ArgMinMax (LiteRT's arg_min_max.cc and TFLM's)", "an empty axis has no index to return; it reads "
    "the axis's first element regardless (past the input)"))
_ARG_RULES = (ONE_AXIS, INPUT_RANK, AXIS_RANGE_RULE, OUTPUT_SHAPE_RULE, NONEMPTY_AXIS)


def arg_variants(kind: str) -> tuple[Variant, ...]:
    variants = []
    for dtype in ("int8", "int32", "float32", "bool"):
        entries = (f"arm_arg{kind}_s8",) if dtype == "int8" else ()
        variants.append(Variant(dtype, inputs=(Operand("input", (dtype,)), const_ints("axis")),
                                outputs=(Operand("output", INDEX),), entries=entries,
                                template="arg_inline.c.j2", rules=_ARG_RULES,
                                notes=_RULES + (("int32 indices: the entry; int64: inline C",) if entries
                                                else ("inline C",))))
    return tuple(variants)


def _axis(ctx: OpContext) -> int:
    x = ctx.inp(0)
    values = constant_ints(ctx, 1, "axis")
    rank = len(x.shape)
    if len(values) != 1:
        raise ctx.error(ONE_AXIS, ctx.inp(1), detail=f"axis must hold one value, it holds {len(values)}")
    if not -rank <= values[0] < rank:
        raise ctx.error(AXIS_RANGE_RULE, ctx.inp(1), detail=f"axis {values[0]} is out of range for a rank-{rank} input")
    return values[0] % rank


class ArgLowering(OpLowering):
    """Subclasses set op_types, options_table, variants and kind ("max" or "min")."""

    axes = (Axis("input 1"),)

    kind = "max"

    def validate(self, ctx: OpContext) -> None:
        x, y = ctx.inp(0), ctx.out(0)
        if len(x.shape) == 0:
            raise ctx.error(INPUT_RANK, x, detail="input must have at least one dimension")
        axis = _axis(ctx)
        expected = tuple(int(d) for i, d in enumerate(x.shape) if i != axis)
        if tuple(int(d) for d in y.shape) != expected:
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} does not match the input "
                                                         f"without axis {axis} {list(expected)}")
        if int(x.shape[axis]) < 1:
            raise ctx.error(NONEMPTY_AXIS, x, detail=f"axis {axis} is empty")

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        axis = _axis(ctx)
        outer = int(math.prod(int(d) for d in x.shape[:axis]))
        inner = int(math.prod(int(d) for d in x.shape[axis + 1:]))
        length = int(x.shape[axis])
        if ctx.variant.entries and y.dtype == "int32":
            return Lowered(template="arg.c.j2", entry=ctx.variant.entries[0],
                           params=dict(input=x.index, output=y.index, input_dims=(1, outer, length, inner)))
        return Lowered(entry=None, fixed={"implementation": "inline"},
                       params=dict(input=x.index, output=y.index, outer=outer, length=length, inner=inner,
                                   ctype=_CTYPES[x.dtype], out_ctype="int64_t" if y.dtype == "int64" else "int32_t",
                                   operator=">" if self.kind == "max" else "<", what=f"ARG_{self.kind.upper()}"))

    def fold(self, ctx: OpContext):
        x = np.asarray(ctx.inp(0).data)
        fn = np.argmax if self.kind == "max" else np.argmin
        return [fn(x, axis=_axis(ctx)).astype(ctx.out(0).dtype)]

# SPDX-License-Identifier: Apache-2.0
"""SPLIT: num_splits equal pieces of the input along a constant axis (negative counts from the end), every
dtype LiteRT's reference kernel takes, any rank.

int8 and int16 call arm_split_s8 / _s16 once for every output; uint8, int32, int64 and float32 are inline
row copies. Codes are copied, so integer outputs equal LiteRT's whatever the quantization."""

from __future__ import annotations

from helia_aot.ops.base import (AXIS_RANGE_RULE, INDEX, Axis, Lowered, OpContext, OpLowering, Operand, Rule, both,
                                register)
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE, constant_ints
from helia_aot.ops.base import litert
from helia_aot.ops.shared.shaping import (SPLIT_ENTRIES, SPLITTABLE, check_split_outputs, data, dtype_variants,
                                          normalized_axis, split_fold, split_lowered, split_variant)

SCALAR_AXIS = Rule("axis: one value", both(
    "split.cc Prepare (LiteRT and micro)", "NumElements(axis) == 1 (the axis is read as a scalar)"))
OUTPUT_COUNT = Rule("num_splits equals the output count", both(
    "split.cc Prepare (LiteRT and micro)", "TF_LITE_ENSURE_EQ(NumOutputs(node), num_splits)"))
EVEN = Rule("num_splits divides the axis evenly", litert(
    "split.cc ResizeOutputTensors", "TF_LITE_ENSURE_MSG(input_size % num_splits == 0, \"Not an even split\")",
    "copies each declared output's share of the axis in turn, past the input or short of it"))
_RULES = (SCALAR_AXIS, AXIS_RANGE_RULE, OUTPUT_COUNT, EVEN, OUTPUT_SHAPE_RULE)


def _inputs(dtype: str):
    return (Operand("axis", INDEX, constant=True), data(dtype))


@register
class Split(OpLowering):
    op_types = ("SPLIT",)
    options_table = "SplitOptions"
    axes = (Axis("input 0", of="input 1"),)
    variants = dtype_variants(SPLITTABLE, lambda d, e: split_variant(_inputs, d, e, ("axis constant",), _RULES),
                              SPLIT_ENTRIES)

    def _geometry(self, ctx: OpContext) -> tuple[int, list[int]]:
        x = ctx.inp(1)
        axis_values = constant_ints(ctx, 0, "axis")
        if len(axis_values) != 1:
            raise ctx.error(SCALAR_AXIS, ctx.inp(0), detail=f"axis must be a scalar, has {len(axis_values)} values")
        axis = normalized_axis(ctx, axis_values[0], len(x.shape), ctx.inp(0))
        count = len(ctx.op.outputs)
        num = int(ctx.options("num_splits", count))
        if num != count:
            raise ctx.error(OUTPUT_COUNT, ctx.out(0), detail=f"num_splits {num} differs from the operator's {count} "
                                                             f"outputs")
        n = int(x.shape[axis])
        if n % count:
            raise ctx.error(EVEN, x, detail=f"axis {axis} of size {n} does not split into {count} equal pieces")
        return axis, [n // count] * count

    def validate(self, ctx: OpContext) -> None:
        axis, sizes = self._geometry(ctx)
        check_split_outputs(ctx, ctx.inp(1), axis, sizes)

    def lower(self, ctx: OpContext) -> Lowered:
        axis, sizes = self._geometry(ctx)
        return split_lowered(ctx, ctx.inp(1), axis, sizes)

    def fold(self, ctx: OpContext):
        axis, sizes = self._geometry(ctx)
        return split_fold(ctx.inp(1), axis, sizes)

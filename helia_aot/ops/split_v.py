# SPDX-License-Identifier: Apache-2.0
"""SPLIT_V: pieces of constant sizes (one may be -1: the rest) along a constant axis (negative counts from
the end), every dtype LiteRT's reference kernel takes, any rank.

int8 and int16 call arm_split_s8 / _s16 once for every output; uint8, int32, int64 and float32 are inline
row copies. Codes are copied, so integer outputs equal LiteRT's whatever the quantization."""

from __future__ import annotations

from helia_aot.ops.base import (AXIS_RANGE_RULE, INDEX, Axis, Lowered, OpContext, OpLowering, Operand, Rule, both, litert,
                                register)
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE, constant_ints
from helia_aot.ops.shared.shaping import (SPLIT_ENTRIES, SPLITTABLE, check_split_outputs, data, dtype_variants,
                                          normalized_axis, split_fold, split_lowered, split_variant)

SCALAR_AXIS = Rule("axis: one value", both(
    "split_v.cc Prepare (LiteRT and micro)", "NumElements(axis) == 1 (the axis is read as a scalar)"))
SIZES_COUNT = Rule("size_splits holds one size per output, num_splits the output count", both(
    "split_v.cc Prepare (LiteRT and micro)", "TF_LITE_ENSURE_EQ(NumOutputs(node), num_splits) and "
    "NumElements(size_splits) == NumOutputs(node)"))
SIZES = Rule("size_splits non-negative, at most one -1 (the rest of the axis), summing to the axis", litert(
    "split_v.cc ResizeOutputTensors", "one -1 at most (\"The number of -1 in size_splits...\"), and the sizes sum "
    "to the axis (\"The sum of size_splits must be less than the dimension of value.\")",
    "copies each declared output's share of the axis in turn, past the input or short of it"))
_RULES = (SCALAR_AXIS, AXIS_RANGE_RULE, SIZES_COUNT, SIZES, OUTPUT_SHAPE_RULE)


def _inputs(dtype: str):
    return (data(dtype), Operand("size_splits", INDEX, constant=True), Operand("axis", INDEX, constant=True))


@register
class SplitV(OpLowering):
    op_types = ("SPLIT_V",)
    options_table = "SplitVOptions"
    axes = (Axis("input 2"),)
    variants = dtype_variants(SPLITTABLE, lambda d, e: split_variant(_inputs, d, e, ("size_splits and axis constant",),
                                                                     _RULES), SPLIT_ENTRIES)

    def _geometry(self, ctx: OpContext) -> tuple[int, list[int]]:
        x = ctx.inp(0)
        axis_values = constant_ints(ctx, 2, "axis")
        if len(axis_values) != 1:
            raise ctx.error(SCALAR_AXIS, ctx.inp(2), detail=f"axis must be a scalar, has {len(axis_values)} values")
        axis = normalized_axis(ctx, axis_values[0], len(x.shape), ctx.inp(2))
        sizes = constant_ints(ctx, 1, "size_splits")
        count = len(ctx.op.outputs)
        if len(sizes) != count or int(ctx.options("num_splits", count)) != count:
            raise ctx.error(SIZES_COUNT, ctx.inp(1), detail=f"size_splits has {len(sizes)} entries and num_splits is "
                                                            f"{ctx.options('num_splits', count)}; the operator has "
                                                            f"{count} outputs")
        n = int(x.shape[axis])
        unknown = [k for k, s in enumerate(sizes) if s == -1]
        if len(unknown) > 1 or any(s < -1 for s in sizes):
            raise ctx.error(SIZES, ctx.inp(1), detail=f"size_splits {sizes} may hold one -1 and otherwise non-negative "
                                                      f"sizes")
        if unknown:
            sizes[unknown[0]] = n - (sum(sizes) + 1)
        if sum(sizes) != n or min(sizes) < 0:
            raise ctx.error(SIZES, ctx.inp(1), detail=f"size_splits {constant_ints(ctx, 1, 'size_splits')} do not sum "
                                                      f"to the axis size {n}")
        return axis, sizes

    def validate(self, ctx: OpContext) -> None:
        axis, sizes = self._geometry(ctx)
        check_split_outputs(ctx, ctx.inp(0), axis, sizes)

    def lower(self, ctx: OpContext) -> Lowered:
        axis, sizes = self._geometry(ctx)
        return split_lowered(ctx, ctx.inp(0), axis, sizes)

    def fold(self, ctx: OpContext):
        axis, sizes = self._geometry(ctx)
        return split_fold(ctx.inp(0), axis, sizes)

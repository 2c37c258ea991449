# SPDX-License-Identifier: Apache-2.0
"""SPLIT_V: pieces of constant sizes (one may be -1: the rest) along a constant axis (negative counts from
the end), every dtype LiteRT's reference kernel takes, any rank.

int8 and int16 call arm_split_s8 / _s16 once for every output; uint8, int32, int64 and float32 are inline
row copies. Codes are copied, so integer outputs equal LiteRT's whatever the quantization."""

from __future__ import annotations

from helia_aot.ops.base import Axis, Lowered, OpContext, OpLowering, Operand, register
from helia_aot.ops.base import INDEX
from helia_aot.ops.shared.checks import constant_ints
from helia_aot.ops.shared.shaping import (SPLIT_ENTRIES, SPLITTABLE, check_split_outputs, data, dtype_variants,
                                          normalized_axis, split_fold, split_lowered, split_variant)

_RULES = ("size_splits and axis constant, axis in [-rank, rank)",
          "size_splits non-negative, at most one -1 (the rest of the axis), summing to the axis")


def _inputs(dtype: str):
    return (data(dtype), Operand("size_splits", INDEX, constant=True), Operand("axis", INDEX, constant=True))


@register
class SplitV(OpLowering):
    op_types = ("SPLIT_V",)
    options_table = "SplitVOptions"
    axes = (Axis("input 2"),)
    variants = dtype_variants(SPLITTABLE, lambda d, e: split_variant(_inputs, d, e, _RULES), SPLIT_ENTRIES)

    def _geometry(self, ctx: OpContext) -> tuple[int, list[int]]:
        x = ctx.inp(0)
        axis_values = constant_ints(ctx, 2, "axis")
        if len(axis_values) != 1:
            raise ctx.error(f"axis must be a scalar, has {len(axis_values)} values", ctx.inp(2))
        axis = normalized_axis(ctx, axis_values[0], len(x.shape), ctx.inp(2))
        sizes = constant_ints(ctx, 1, "size_splits")
        count = len(ctx.op.outputs)
        if len(sizes) != count or int(ctx.options("num_splits", count)) != count:
            raise ctx.error(f"size_splits has {len(sizes)} entries and num_splits is "
                            f"{ctx.options('num_splits', count)}; the operator has {count} outputs", ctx.inp(1))
        n = int(x.shape[axis])
        unknown = [k for k, s in enumerate(sizes) if s == -1]
        if len(unknown) > 1 or any(s < -1 for s in sizes):
            raise ctx.error(f"size_splits {sizes} may hold one -1 and otherwise non-negative sizes", ctx.inp(1))
        if unknown:
            sizes[unknown[0]] = n - (sum(sizes) + 1)
        if sum(sizes) != n or min(sizes) < 0:
            raise ctx.error(f"size_splits {constant_ints(ctx, 1, 'size_splits')} do not sum to the axis size {n}",
                            ctx.inp(1))
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

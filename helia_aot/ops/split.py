# SPDX-License-Identifier: Apache-2.0
"""SPLIT: num_splits equal pieces of the input along a constant axis (negative counts from the end), every
dtype LiteRT's reference kernel takes, any rank.

int8 and int16 call arm_split_s8 / _s16 once for every output; uint8, int32, int64 and float32 are inline
row copies. Codes are copied, so integer outputs equal LiteRT's whatever the quantization."""

from __future__ import annotations

from helia_aot.ops.base import Axis, Lowered, OpContext, OpLowering, Operand, register
from helia_aot.ops.base import INDEX
from helia_aot.ops.shared.checks import constant_ints
from helia_aot.ops.shared.shaping import (SPLIT_ENTRIES, SPLITTABLE, check_split_outputs, data, dtype_variants,
                                          normalized_axis, split_fold, split_lowered, split_variant)

_RULES = ("axis constant, in [-rank, rank)", "num_splits outputs, dividing the axis evenly")


def _inputs(dtype: str):
    return (Operand("axis", INDEX, constant=True), data(dtype))


@register
class Split(OpLowering):
    op_types = ("SPLIT",)
    options_table = "SplitOptions"
    axes = (Axis("input 0", of="input 1"),)
    variants = dtype_variants(SPLITTABLE, lambda d, e: split_variant(_inputs, d, e, _RULES), SPLIT_ENTRIES)

    def _geometry(self, ctx: OpContext) -> tuple[int, list[int]]:
        x = ctx.inp(1)
        axis_values = constant_ints(ctx, 0, "axis")
        if len(axis_values) != 1:
            raise ctx.error(f"axis must be a scalar, has {len(axis_values)} values", ctx.inp(0))
        axis = normalized_axis(ctx, axis_values[0], len(x.shape), ctx.inp(0))
        count = len(ctx.op.outputs)
        num = int(ctx.options("num_splits", count))
        if num != count:
            raise ctx.error(f"num_splits {num} differs from the operator's {count} outputs", ctx.out(0))
        n = int(x.shape[axis])
        if n % count:
            raise ctx.error(f"axis {axis} of size {n} does not split into {count} equal pieces", x)
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

# SPDX-License-Identifier: Apache-2.0
"""REVERSE_V2: the input with the order of elements reversed along constant axes (negative allowed), any rank.
LiteRT reverses one or more axes only when they are contiguous; other sets are refused, as LiteRT fails on
them.

ns-cmsis-nn has no entry: every variant (int8, int16, float32, int32, int64, bool) is inline C. Reversing contiguous axes a..b together is reversing their
flattened index, so the operator is one reversed walk over blocks of the trailing axes' elements."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import AXIS_RANGE_RULE, Axis, Lowered, OpContext, OpLowering, Rule, both, register
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE, constant_ints
from helia_aot.ops.shared.indexing import NOT_EMPTY, check_not_empty, ctype, data, data_variant, prod
from helia_aot.ops.shared.operands import const_ints

_NOTES = ("axis constant, negative allowed",)
AXES = Rule("axis: distinct, contiguous axes of the input", both(
    "reverse.cc Prepare / Eval (LiteRT and micro)", "each axis in [0, rank), no more axes than the rank, and "
    "\"Non-contiguous `axes` not supported\""))
_RULES = (AXIS_RANGE_RULE, AXES, NOT_EMPTY, OUTPUT_SHAPE_RULE)


def _variant(name: str):
    return data_variant(name, (data(name), const_ints("axis")), "reverse_v2.c.j2", None, _NOTES, _RULES)


def _axes(ctx: OpContext) -> list[int]:
    x = ctx.inp(0)
    rank = len(x.shape)
    raw = constant_ints(ctx, 1, "axis")
    axes = sorted({a + rank if a < 0 else a for a in raw})
    if any(not 0 <= a < rank for a in axes) or len(axes) != len(raw):
        raise ctx.error(AXES, ctx.inp(1), detail=f"axis {raw} must name distinct axes of the rank-{rank} input")
    if axes and axes != list(range(axes[0], axes[-1] + 1)):
        raise ctx.error(AXES, ctx.inp(1), detail=f"axis {raw} are not contiguous (LiteRT reverses contiguous axes "
                                                 f"only)")
    return axes


@register
class ReverseV2(OpLowering):
    op_types = ("REVERSE_V2",)
    options_table = "ReverseV2Options"
    axes = (Axis("input 1"),)
    variants = tuple(_variant(n) for n in ("int8", "int16", "float32", "int32", "int64", "bool"))

    def validate(self, ctx: OpContext) -> None:
        x, y = ctx.inp(0), ctx.out(0)
        _axes(ctx)
        if tuple(y.shape) != tuple(x.shape):
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} differs from the input's "
                                                         f"{list(x.shape)}")
        check_not_empty(ctx, x)

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        axes = _axes(ctx)
        shape = [int(d) for d in x.shape]
        first, last = (axes[0], axes[-1]) if axes else (len(shape), len(shape) - 1)
        p = dict(input=x.index, output=y.index, ctype=ctype(ctx), outer=prod(shape[:first]),
                 middle=prod(shape[first:last + 1]), inner=prod(shape[last + 1:]), axes=axes)
        return Lowered(entry=None, params=p, fixed={"implementation": "inline"})

    def fold(self, ctx: OpContext):
        axes = _axes(ctx)
        data_in = np.asarray(ctx.inp(0).data)
        return [np.flip(data_in, axis=tuple(axes)) if axes else data_in.copy()]

# SPDX-License-Identifier: Apache-2.0
"""FILL: a tensor of constant dims holding one scalar value (a run-time input or a constant), every dtype
LiteRT's reference kernel takes. Inline C: the value's bits stored in every element (integer codes are
copied, as LiteRT's kernel does)."""

from __future__ import annotations

import numpy as np

from helia_aot.emit.c_syntax import c_type
from helia_aot.ops.base import Lowered, OpContext, OpLowering, Variant, register
from helia_aot.ops.shared.checks import constant_ints
from helia_aot.ops.shared.operands import const_ints
from helia_aot.ops.shared.shaping import MOVABLE, data, dtype_variants

_RULES = ("dims constant (the output shape)", "value a scalar of the output's dtype (run-time or constant)")


def _variant(dtype: str, entry: str | None) -> Variant:
    return Variant(dtype, inputs=(const_ints("dims"), data(dtype, "value")), outputs=(data(dtype, "output"),),
                   template="fill.c.j2", notes=_RULES)


@register
class Fill(OpLowering):
    op_types = ("FILL",)
    options_table = "FillOptions"
    variants = dtype_variants(MOVABLE, _variant)

    def validate(self, ctx: OpContext) -> None:
        dims = constant_ints(ctx, 0, "dims")
        value, y = ctx.inp(1), ctx.out(0)
        if value.num_elements != 1 or len(value.shape) > 1:
            raise ctx.error(f"value must be a scalar, has shape {list(value.shape)}", value)
        if any(d < 0 for d in dims) or list(y.shape) != dims:
            raise ctx.error(f"output shape {list(y.shape)} differs from dims {dims}", y)

    def lower(self, ctx: OpContext) -> Lowered:
        value, y = ctx.inp(1), ctx.out(0)
        return Lowered(params=dict(value=value.index, output=y.index, ctype=c_type(y.dtype), count=y.num_elements))

    def fold(self, ctx: OpContext):
        value = np.asarray(ctx.inp(1).data).reshape(-1)[0]
        return [np.full(constant_ints(ctx, 0, "dims"), value, dtype=np.asarray(ctx.inp(1).data).dtype)]

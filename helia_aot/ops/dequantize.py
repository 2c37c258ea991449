# SPDX-License-Identifier: Apache-2.0
"""DEQUANTIZE int8 -> float32, inline C (y = scale * (q - zero_point), as TFLite in double)."""

from __future__ import annotations

import numpy as np

from .base import Lowered, OpContext, OpLowering, register
from .common import require_int8


@register
class Dequantize(OpLowering):
    op_types = ("DEQUANTIZE",)

    def validate(self, ctx: OpContext) -> None:
        self.check_dtypes(ctx)
        x, y = ctx.inp(0), ctx.out(0)
        require_int8(ctx, x, "input")
        if y.dtype != "float32":
            raise ctx.error(f"output dtype {y.dtype} is not supported (supported: float32)", y)

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        return Lowered(template="dequantize.c.j2", entry=None, fixed={"implementation": "inline"},
                       params=dict(input=x.index, output=y.index, size=y.num_elements,
                                   scale=repr(float(x.quant.scale)), zero_point=x.quant.zero_point))

    def fold(self, ctx: OpContext):
        x = ctx.inp(0)
        if x.quant is None:
            return None
        return [(np.float64(x.quant.scale) * (x.data.astype(np.int64) - x.quant.zero_point)).astype(np.float32)]

# SPDX-License-Identifier: Apache-2.0
"""DEQUANTIZE int8/int16 -> float32, inline C (y = scale * (q - zero_point), as TFLite in double)."""

from __future__ import annotations

import numpy as np

from ..codegen import c_type
from .base import Lowered, OpContext, OpLowering, Operand, Variant, register
from .common import int8_act, int16_act, unary_validate


@register
class Dequantize(OpLowering):
    op_types = ("DEQUANTIZE",)
    variants = (
        Variant("int8_to_float32", inputs=(int8_act(),), outputs=(Operand("output", ("float32",)),),
                template="dequantize.c.j2", notes=("inline C", "input and output shapes equal")),
        Variant("int16_to_float32", inputs=(int16_act(),), outputs=(Operand("output", ("float32",)),),
                template="dequantize.c.j2", notes=("inline C", "input and output shapes equal")),
    )

    def validate(self, ctx: OpContext) -> None:
        unary_validate(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        return Lowered(entry=None, fixed={"implementation": "inline"},
                       params=dict(input=x.index, output=y.index, size=y.num_elements, ctype=c_type(x.dtype),
                                   scale=repr(float(x.quant.scale)), zero_point=x.quant.zero_point))

    def fold(self, ctx: OpContext):
        x = ctx.inp(0)
        if x.quant is None:
            return None
        return [(np.float64(x.quant.scale) * (x.data.astype(np.int64) - x.quant.zero_point)).astype(np.float32)]

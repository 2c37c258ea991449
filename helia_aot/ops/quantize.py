# SPDX-License-Identifier: Apache-2.0
"""QUANTIZE: float32 -> int8 (inline C) and int8 -> int8 requantization (arm_requantize_s8_s8)."""

from __future__ import annotations

from ..quant import quantize_multiplier
from .base import Lowered, OpContext, OpLowering, register
from .common import require_int8


@register
class Quantize(OpLowering):
    op_types = ("QUANTIZE",)
    dtypes = ("float32", "int8")

    def validate(self, ctx: OpContext) -> None:
        self.check_dtypes(ctx)
        x, y = ctx.inp(0), ctx.out(0)
        require_int8(ctx, y, "output")
        if x.dtype == "int8":
            require_int8(ctx, x, "input")
        if x.num_elements != y.num_elements:
            raise ctx.error("input and output element counts differ", y)

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        if x.dtype == "float32":
            return Lowered(template="quantize_f32.c.j2", entry=None,
                           params=dict(input=x.index, output=y.index, size=y.num_elements,
                                       scale=repr(float(y.quant.scale)), zero_point=y.quant.zero_point),
                           fixed={"implementation": "inline"})
        mult, shift = quantize_multiplier(float(x.quant.scale) / float(y.quant.scale))
        return Lowered(template="requantize.c.j2", entry="arm_requantize_s8_s8", calls=["arm_requantize_s8_s8"],
                       params=dict(input=x.index, output=y.index, size=y.num_elements, mult=mult, shift=shift,
                                   input_zp=x.quant.zero_point, output_zp=y.quant.zero_point))

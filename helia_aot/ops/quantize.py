# SPDX-License-Identifier: Apache-2.0
"""QUANTIZE: float32 -> int8 (inline C) and int8 -> int8 requantization (arm_requantize_s8_s8)."""

from __future__ import annotations

from ..quant import quantize_multiplier
from .base import Lowered, OpContext, OpLowering, Operand, Variant, register
from .common import int8_act


@register
class Quantize(OpLowering):
    op_types = ("QUANTIZE",)
    variants = (
        Variant("float32_to_int8", inputs=(Operand("input", ("float32",)),), outputs=(int8_act("output"),),
                template="quantize_f32.c.j2", lower="lower_from_float", notes=("inline C",)),
        Variant("int8_to_int8", inputs=(int8_act(),), outputs=(int8_act("output"),),
                entries=("arm_requantize_s8_s8",), template="requantize.c.j2", lower="lower_requantize"),
    )

    def validate(self, ctx: OpContext) -> None:
        x, y = ctx.inp(0), ctx.out(0)
        if x.num_elements != y.num_elements:
            raise ctx.error("input and output element counts differ", y)

    def lower_from_float(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        return Lowered(entry=None,
                       params=dict(input=x.index, output=y.index, size=y.num_elements,
                                   scale=repr(float(y.quant.scale)), zero_point=y.quant.zero_point),
                       fixed={"implementation": "inline"})

    def lower_requantize(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        mult, shift = quantize_multiplier(float(x.quant.scale) / float(y.quant.scale))
        return Lowered(entry="arm_requantize_s8_s8",
                       params=dict(input=x.index, output=y.index, size=y.num_elements, mult=mult, shift=shift,
                                   input_zp=x.quant.zero_point, output_zp=y.quant.zero_point))

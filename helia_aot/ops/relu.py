# SPDX-License-Identifier: Apache-2.0
"""RELU, int8: arm_clamp_s8 when scales match, else arm_requantize_s8_s8 then an in-place clamp."""

from __future__ import annotations

from ..quant import activation_range, quantize_multiplier
from .base import Lowered, OpContext, OpLowering, register
from .common import unary_validate


@register
class Relu(OpLowering):
    op_types = ("RELU",)

    def validate(self, ctx: OpContext) -> None:
        unary_validate(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        act_min, act_max = activation_range("RELU", y.quant.scale, y.quant.zero_point)
        same = x.quant.scale == y.quant.scale and x.quant.zero_point == y.quant.zero_point
        mult, shift = quantize_multiplier(float(x.quant.scale) / float(y.quant.scale))
        calls = ["arm_clamp_s8"] if same else ["arm_requantize_s8_s8", "arm_clamp_s8"]
        return Lowered(template="clamp.c.j2", entry=calls[0], calls=calls,
                       params=dict(input=x.index, output=y.index, size=y.num_elements, requantize=not same,
                                   mult=mult, shift=shift, input_zp=x.quant.zero_point,
                                   output_zp=y.quant.zero_point, act_min=act_min, act_max=act_max))

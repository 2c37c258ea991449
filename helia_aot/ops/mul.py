# SPDX-License-Identifier: Apache-2.0
"""MUL, int8 with broadcasting up to rank 4, lowered to arm_elementwise_mul_s8 or arm_mul_s8."""

from __future__ import annotations

from ..quant import quantize_multiplier
from .base import Lowered, OpContext, OpLowering, Variant, register
from .common import BINARY_RULES, binary_validate, fused_activation, int8_act, nhwc


@register
class Mul(OpLowering):
    op_types = ("MUL",)
    variants = (
        Variant("int8", inputs=(int8_act("input 0"), int8_act("input 1")), outputs=(int8_act("output"),),
                entries=("arm_elementwise_mul_s8", "arm_mul_s8"), template="mul.c.j2", notes=BINARY_RULES),
    )

    def validate(self, ctx: OpContext) -> None:
        binary_validate(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        mult, shift = quantize_multiplier(float(a.quant.scale) * float(b.quant.scale) / float(y.quant.scale))
        act_min, act_max = fused_activation(ctx, y)
        broadcast = tuple(a.shape) != tuple(b.shape)
        entry = "arm_mul_s8" if broadcast else "arm_elementwise_mul_s8"
        return Lowered(entry=entry,
                       candidates=["arm_elementwise_mul_s8", "arm_mul_s8"],
                       params=dict(input1=a.index, input2=b.index, output=y.index, broadcast=broadcast,
                                   input1_dims=nhwc(a.shape), input2_dims=nhwc(b.shape), output_dims=nhwc(y.shape),
                                   input1_offset=-a.quant.zero_point, input2_offset=-b.quant.zero_point,
                                   out_offset=y.quant.zero_point, out_mult=mult, out_shift=shift,
                                   act_min=act_min, act_max=act_max, size=y.num_elements))

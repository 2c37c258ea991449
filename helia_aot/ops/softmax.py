# SPDX-License-Identifier: Apache-2.0
"""SOFTMAX, int8 in, int8 out at scale 1/256 and zero point -128, lowered to arm_softmax_s8."""

from __future__ import annotations

from ..quant import softmax_params
from .base import Lowered, OpContext, OpLowering, Variant, register
from .common import int8_act


@register
class Softmax(OpLowering):
    op_types = ("SOFTMAX",)
    variants = (
        Variant("int8", inputs=(int8_act(),), outputs=(int8_act("output"),), entries=("arm_softmax_s8",), template="softmax.c.j2",
                lower="lower_int8", notes=("output scale 1/256, zero point -128", "input and output shapes equal")),
    )

    def validate(self, ctx: OpContext) -> None:
        x, y = ctx.inp(0), ctx.out(0)
        if y.quant.zero_point != -128 or abs(y.quant.scale - 1.0 / 256) > 1e-9:
            raise ctx.error(f"int8 output must have scale 1/256 and zero point -128 (has {y.quant.scale:g}, "
                            f"{y.quant.zero_point})", y)
        if tuple(x.shape) != tuple(y.shape) or not x.shape:
            raise ctx.error("input and output shapes must match", y)

    def lower_int8(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        mult, shift, diff_min = softmax_params(float(ctx.options("beta", 1.0)), x.quant.scale)
        row = int(x.shape[-1])
        rows = x.num_elements // row
        return Lowered(
            entry="arm_softmax_s8",
            macs=0,
            params=dict(input=x.index, output=y.index, rows=rows, row_size=row, mult=mult, shift=shift,
                        diff_min=diff_min),
        )

# SPDX-License-Identifier: Apache-2.0
"""TANH, int8: a 256-entry table of tanh(x) built at conversion time, applied with inline C."""

from __future__ import annotations

import numpy as np

from .base import ConstArray, Lowered, OpContext, OpLowering, Variant, register
from .common import int8_act, lut_from_function, unary_validate


@register
class Tanh(OpLowering):
    op_types = ("TANH",)
    variants = (
        Variant("int8", inputs=(int8_act(),), outputs=(int8_act("output"),), template="lut.c.j2",
                notes=("output scale 1/128, zero point 0", "256-entry table, inline C")),
    )

    def validate(self, ctx: OpContext) -> None:
        unary_validate(ctx)
        y = ctx.out(0)
        if y.quant.zero_point != 0 or abs(y.quant.scale - 1.0 / 128) > 1e-9:
            raise ctx.error(f"int8 output must have scale 1/128 and zero point 0 (has {y.quant.scale:g}, "
                            f"{y.quant.zero_point})", y)

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        table = lut_from_function(ctx, np.tanh)
        return Lowered(entry=None, fixed={"implementation": "lut"},
                       constants=[ConstArray("lut", "int8_t", table, "TANH table indexed by input + 128")],
                       params=dict(input=x.index, output=y.index, size=y.num_elements))

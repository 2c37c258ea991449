# SPDX-License-Identifier: Apache-2.0
"""LOGISTIC, int8: a 256-entry table of 1/(1+exp(-x)) built at conversion time, applied with inline C."""

from __future__ import annotations

import numpy as np

from .base import ConstArray, Lowered, OpContext, OpLowering, Variant, register
from .common import int8_act, lut_from_function, unary_validate


@register
class Logistic(OpLowering):
    op_types = ("LOGISTIC",)
    variants = (
        Variant("int8", inputs=(int8_act(),), outputs=(int8_act("output"),), template="lut.c.j2",
                notes=("output scale 1/256, zero point -128", "256-entry table, inline C")),
    )

    def validate(self, ctx: OpContext) -> None:
        unary_validate(ctx)
        y = ctx.out(0)
        if y.quant.zero_point != -128 or abs(y.quant.scale - 1.0 / 256) > 1e-9:
            raise ctx.error(f"int8 output must have scale 1/256 and zero point -128 (has {y.quant.scale:g}, "
                            f"{y.quant.zero_point})", y)

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        table = lut_from_function(ctx, lambda v: np.float32(1.0) / (np.float32(1.0) + np.exp(-v)))
        return Lowered(entry=None, fixed={"implementation": "lut"},
                       constants=[ConstArray("lut", "int8_t", table, "LOGISTIC table indexed by input + 128")],
                       params=dict(input=x.index, output=y.index, size=y.num_elements))

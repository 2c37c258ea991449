# SPDX-License-Identifier: Apache-2.0
"""GELU, exact (erfc) and tanh-approximate (`approximate` option) forms.

int8: LiteRT's 256-entry table (LUTPopulate of GeluTransform / GeluTransformApproximate in float32)
rebuilt at conversion time, applied with inline C. erfc and tanh are computed in double and rounded to
float32; LiteRT calls the host's erfcf / tanhf, which glibc rounds differently at about 15% / 4.5% of
float inputs, so an entry can differ by one code where the product lands on a rounding boundary (seen at
some int16 scales in a random sweep, at none of 120 int8 ones).
int16: LiteRT's 513-entry table and its interpolation, inline C. float32: inline C of LiteRT's float
formula (0.5 x erfc(-x / sqrt 2); 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))) with libm's erfcf /
tanhf, where LiteRT evaluates erfc / tanh with Eigen's float approximations (a few ulp apart).
ns-cmsis-nn has no GELU entry."""

from __future__ import annotations

import numpy as np

from helia_aot.emit.c_syntax import c_float
from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, Variant, register
from helia_aot.ops.shared.checks import OUTPUT_SIZE_RULE, unary_validate
from helia_aot.ops.shared.lookup_tables import TableRangeError, lut_int8_lowered, lut_int16_lowered, lut_of, table_args
from helia_aot.ops.shared.operands import fp32, int8_act
from helia_aot.ops.shared.unary_math import (GELU_CUBIC, GELU_MINUS_SQRT1_2, GELU_SQRT_2_OVER_PI, TABLE_RANGE_RULE,
                                             float_lowered, fold_unary, gelu_approximate_transform, gelu_transform,
                                             quantized_dtype)

_TABLE_RULES = (OUTPUT_SIZE_RULE, TABLE_RANGE_RULE)


def _int16(role: str) -> Operand:
    # LiteRT's GELU takes int16 with any zero point (its table is built from both quantizations).
    return Operand(role, ("int16",), quantized=True)


def _float_gelu(x: np.ndarray, approximate: bool) -> np.ndarray:
    """The float32 formula in NumPy (conversion-time folding)."""
    import math
    x = x.astype(np.float32)
    if approximate:
        inner = GELU_SQRT_2_OVER_PI * (x + GELU_CUBIC * (x * x * x))
        return (np.float32(0.5) * x * (np.float32(1) + np.tanh(inner))).astype(np.float32)
    erfc = np.vectorize(lambda v: np.float32(math.erfc(float(v))), otypes=[np.float32])
    return (np.float32(0.5) * x * erfc(x * GELU_MINUS_SQRT1_2)).astype(np.float32)


@register
class Gelu(OpLowering):
    op_types = ("GELU",)
    options_table = "GeluOptions"
    variants = (
        Variant("int8", inputs=(int8_act(),), outputs=(int8_act("output"),), template="lut.c.j2",
                rules=_TABLE_RULES, notes=("approximate false or true", "256-entry table, inline C")),
        Variant("int16", inputs=(_int16("input"),), outputs=(_int16("output"),), template="lut_s16.c.j2",
                lower="lower_int16", rules=_TABLE_RULES,
                notes=("approximate false or true", "513-entry interpolated table, inline C")),
        Variant("float32", inputs=(fp32(),), outputs=(fp32("output"),), template="gelu_f32.c.j2",
                lower="lower_float32", rules=(OUTPUT_SIZE_RULE,),
                notes=("approximate false or true", "inline C (erfcf or tanhf, link libm)")),
    )

    @staticmethod
    def _approximate(ctx: OpContext) -> bool:
        return bool(ctx.options("approximate", False))

    def _table(self, ctx: OpContext) -> np.ndarray:
        transform = gelu_approximate_transform if self._approximate(ctx) else gelu_transform
        try:
            return lut_of(ctx.inp(0).dtype, transform, *table_args(ctx))
        except TableRangeError as exc:
            raise ctx.error(TABLE_RANGE_RULE, ctx.out(0),
                            detail=f"LiteRT's GELU table is undefined for these scales: {exc}")

    def validate(self, ctx: OpContext) -> None:
        unary_validate(ctx)
        if quantized_dtype(ctx):
            self._table(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        lowered = lut_int8_lowered(ctx, self._table(ctx), "GELU")
        lowered.fixed["approximate"] = str(self._approximate(ctx)).lower()
        return lowered

    def lower_int16(self, ctx: OpContext) -> Lowered:
        lowered = lut_int16_lowered(ctx, self._table(ctx), "GELU")
        lowered.fixed["approximate"] = str(self._approximate(ctx)).lower()
        return lowered

    def lower_float32(self, ctx: OpContext) -> Lowered:
        approximate = self._approximate(ctx)
        lowered = float_lowered(ctx, "tanhf" if approximate else "erfcf")
        lowered.params.update(approximate=approximate, sqrt_2_over_pi=c_float(GELU_SQRT_2_OVER_PI),
                              cubic=c_float(GELU_CUBIC), minus_sqrt1_2=c_float(GELU_MINUS_SQRT1_2))
        return lowered

    def fold(self, ctx: OpContext):
        return fold_unary(ctx, lambda: self._table(ctx), lambda: self._table(ctx),
                          lambda v: _float_gelu(v, self._approximate(ctx)))

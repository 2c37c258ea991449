# SPDX-License-Identifier: Apache-2.0
"""ZEROS_LIKE: zeros of the input's shape and dtype. Inline C: memset to 0 (0, 0.0f).

LiteRT's reference kernel takes int32, int64 and float32 (it fails at invoke on the rest); TFLM's takes int8 too,
and gives all-zero codes (integer 0, not the zero point: TensorFlow's zeros_like of an integer tensor), so the int8
variant is checked against TFLM. Both refuse int16, uint8 and bool, and so does helia-aot."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Rule, Variant, both, register
from helia_aot.ops.shared.checks import OUTPUT_SIZE_RULE, unary_validate
from helia_aot.ops.shared.shaping import data, dtype_variants

_LITERT = ("int32", "int64", "float32")
_TFLM_ONLY = ("int8",)
_DTYPES = _LITERT + _TFLM_ONLY
DTYPE = Rule("input dtype int32, int64, float32 or int8", both(
    "zeros_like.cc Eval (LiteRT) / zeros_like.cc Eval (TFLM)",
    "LiteRT takes int64, int32 and float32, TFLM those and int8; any other type fails the invocation"))


def _variant(dtype: str, entry: str | None) -> Variant:
    notes = ()
    if dtype not in _LITERT:
        notes += ("code 0 in every element, as TFLM (LiteRT's reference kernel refuses this dtype)",)
    return Variant(dtype, inputs=(data(dtype),), outputs=(data(dtype, "output"),), template="zeros_like.c.j2",
                   rules=(DTYPE, OUTPUT_SIZE_RULE), notes=notes)


@register
class ZerosLike(OpLowering):
    op_types = ("ZEROS_LIKE",)
    options_table = "ZerosLikeOptions"
    variants = dtype_variants(_DTYPES, _variant)

    def select(self, ctx: OpContext) -> Variant:
        x = ctx.inp(0)
        if x is not None and x.dtype not in _DTYPES:
            raise ctx.error(DTYPE, x, "Keep the tensor in int32, int64, float32 or int8",
                            detail=f"{x.dtype} ZEROS_LIKE is not computed by LiteRT or TFLM")
        return super().select(ctx)

    def validate(self, ctx: OpContext) -> None:
        unary_validate(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        y = ctx.out(0)
        return Lowered(params=dict(output=y.index, bytes=y.nbytes))

    def fold(self, ctx: OpContext):
        return [np.zeros_like(np.asarray(ctx.inp(0).data))]

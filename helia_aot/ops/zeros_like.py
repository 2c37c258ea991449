# SPDX-License-Identifier: Apache-2.0
"""ZEROS_LIKE: zeros of the input's shape and dtype. Inline C: memset to 0 (0, 0.0f or false).

LiteRT's reference kernel takes int32, int64 and float32 only (it fails at invoke on the rest); int8, int16,
uint8 and bool are accepted too and give all-zero codes (integer 0, not the zero point: TensorFlow's
zeros_like of an integer tensor), so those variants have no LiteRT reference to compare with."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Variant, register
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE, unary_validate
from helia_aot.ops.shared.shaping import MOVABLE, data, dtype_variants

_LITERT = ("int32", "int64", "float32")


def _variant(dtype: str, entry: str | None) -> Variant:
    notes = ()
    if dtype not in _LITERT:
        notes += ("code 0 in every element (LiteRT's reference kernel refuses this dtype)",)
    return Variant(dtype, inputs=(data(dtype),), outputs=(data(dtype, "output"),), template="zeros_like.c.j2",
                   rules=(OUTPUT_SHAPE_RULE,), notes=notes)


@register
class ZerosLike(OpLowering):
    op_types = ("ZEROS_LIKE",)
    options_table = "ZerosLikeOptions"
    variants = dtype_variants(_LITERT + tuple(d for d in MOVABLE if d not in _LITERT), _variant)

    def validate(self, ctx: OpContext) -> None:
        unary_validate(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        y = ctx.out(0)
        return Lowered(params=dict(output=y.index, bytes=y.nbytes))

    def fold(self, ctx: OpContext):
        return [np.zeros_like(np.asarray(ctx.inp(0).data))]

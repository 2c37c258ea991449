# SPDX-License-Identifier: Apache-2.0
"""SQUEEZE: row-major layout is unchanged, so the output aliases the input (no code, no copy)."""

from __future__ import annotations

import numpy as np

from .base import Lowered, OpContext, OpLowering, register
from .common import alias_validate


@register
class Squeeze(OpLowering):
    op_types = ("SQUEEZE",)
    dtypes = ("int8", "int16", "int32", "float32", "float16", "uint8", "bool", "int64")

    def validate(self, ctx: OpContext) -> None:
        alias_validate(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        return Lowered(template=None, alias=True, params=dict(input=ctx.inp(0).index, output=ctx.out(0).index))

    def fold(self, ctx: OpContext):
        return [np.asarray(ctx.inp(0).data).reshape(ctx.out(0).shape)]

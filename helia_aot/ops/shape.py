# SPDX-License-Identifier: Apache-2.0
"""SHAPE: the input's shape as an int32 or int64 vector (out_type). Shapes are static here, so the values
are known at conversion: the operator copies a constant (inline C), whatever the input's dtype."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import (ANY, ConstArray, Lowered, OpContext, OpLowering, Operand, Rule, Variant, helia_limit,
                                register)
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE

# The schema's TensorType codes of the two output types LiteRT's SHAPE writes.
_OUT_TYPES = {2: "int32", 4: "int64"}
# Measured: LiteRT runs a model whose output tensor is declared otherwise, rewriting the output's type to out_type.
OUT_TYPE = Rule("out_type names the output's dtype (INT32 or INT64)", helia_limit(
    "the module writes the output tensor in its declared dtype; LiteRT's shape.cc Prepare rewrites the output's type "
    "to out_type (a model whose two disagree is malformed: re-export it)"))
_RULES = (OUT_TYPE, OUTPUT_SHAPE_RULE)


def _variant(dtype: str) -> Variant:
    return Variant(dtype, inputs=(Operand("input", ANY),), outputs=(Operand("output", (dtype,)),),
                   template="shape.c.j2", rules=_RULES, notes=(f"out_type {dtype.upper()}", "output [rank]"))


@register
class Shape(OpLowering):
    op_types = ("SHAPE",)
    options_table = "ShapeOptions"
    variants = (_variant("int32"), _variant("int64"))

    def _values(self, ctx: OpContext) -> np.ndarray:
        x, y = ctx.inp(0), ctx.out(0)
        out_type = ctx.options("out_type", 2)
        if _OUT_TYPES.get(out_type) != y.dtype:
            raise ctx.error(OUT_TYPE, y, detail=f"out_type {out_type} does not name the output's dtype {y.dtype} (INT32 "
                                                f"= 2, INT64 = 4)")
        if list(y.shape) != [len(x.shape)]:
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} must be [{len(x.shape)}] (the "
                                                         f"input's rank)")
        return np.asarray([int(d) for d in x.shape], dtype=np.int64)

    def validate(self, ctx: OpContext) -> None:
        self._values(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        y = ctx.out(0)
        values = self._values(ctx)
        return Lowered(params=dict(output=y.index, bytes=y.nbytes),
                       constants=[ConstArray("shape", "int32_t" if y.dtype == "int32" else "int64_t", values,
                                             "the input's shape")])

    def fold(self, ctx: OpContext):
        return [self._values(ctx)]

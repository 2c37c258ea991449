# SPDX-License-Identifier: Apache-2.0
"""SHAPE: the input's shape as an int32 or int64 vector (out_type). Shapes are static here, so the values
are known at conversion: the operator copies a constant (inline C), whatever the input's dtype."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import (ANY, ConstArray, Lowered, OpContext, OpLowering, Operand, Rule, Variant, register,
                                undefined)

# Measured: where out_type names the other dtype than the output tensor's, TFLM's shape.cc writes the tensor's
# (it never reads out_type) and LiteRT's Prepare retypes the tensor to out_type, with the same values: the module
# writes the declared dtype, as TFLM does.
# An output of another shape with rank elements gets the same values in both references.
OUTPUT_SIZE = Rule("output holds rank elements (any shape)", undefined(
    "TFLM shape.cc ExtractShape", "writes the input's rank values into an output of another size: past its end, or "
    "leaving its tail unwritten (LiteRT's Prepare resizes the output to [rank] instead, so the model's declared "
    "interface no longer holds)"))
_RULES = (OUTPUT_SIZE,)


def _variant(dtype: str) -> Variant:
    return Variant(dtype, inputs=(Operand("input", ANY),), outputs=(Operand("output", (dtype,)),),
                   template="shape.c.j2", rules=_RULES,
                   notes=(f"output {dtype} (as the tensor declares)", "output [rank]"))


@register
class Shape(OpLowering):
    op_types = ("SHAPE",)
    options_table = "ShapeOptions"
    variants = (_variant("int32"), _variant("int64"))

    def _values(self, ctx: OpContext) -> np.ndarray:
        x, y = ctx.inp(0), ctx.out(0)
        if y.num_elements != len(x.shape):
            raise ctx.error(OUTPUT_SIZE, y, detail=f"output shape {list(y.shape)} must hold {len(x.shape)} elements "
                                                   f"(the input's rank)")
        return np.asarray([int(d) for d in x.shape], dtype=np.int64).reshape(y.shape)

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

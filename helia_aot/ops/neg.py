# SPDX-License-Identifier: Apache-2.0
"""NEG, inline C for every type LiteRT's reference kernel takes: int8 and int16 (LiteRT negates the stored
codes and reads no quantization, so the codes are negated here too; the lowest code maps to itself, as
its two's complement narrowing does), float32 and int32 (INT32_MIN maps to itself). No ns-cmsis-nn
entry exists."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, Variant, register
from helia_aot.ops.shared.checks import OUTPUT_SIZE_RULE, unary_validate

_CTYPE = {"int8": "int8_t", "int16": "int16_t", "int32": "int32_t", "float32": "float"}
_LOWEST = {"int8": "-128", "int16": "-32768", "int32": "INT32_MIN"}


def _variant(dtype: str) -> Variant:
    notes = ("inline C",)
    if dtype in ("int8", "int16"):
        notes += ("codes negated, quantization not read (as LiteRT)",)
    return Variant(dtype, inputs=(Operand("input", (dtype,)),), outputs=(Operand("output", (dtype,)),),
                   template="unary_inline.c.j2", rules=(OUTPUT_SIZE_RULE,), notes=notes)


@register
class Neg(OpLowering):
    op_types = ("NEG",)
    options_table = "NegOptions"
    variants = tuple(_variant(d) for d in ("int8", "int16", "float32", "int32"))

    def validate(self, ctx: OpContext) -> None:
        unary_validate(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        dtype = x.dtype
        if dtype == "float32":
            body = ["*out++ = -x;"]
        else:
            body = [f"*out++ = x == {_LOWEST[dtype]} ? x : ({_CTYPE[dtype]})-x;"]
        return Lowered(entry=None, params=dict(input=x.index, output=y.index, size=y.num_elements,
                                               ctype=_CTYPE[dtype], body=body, comment=f"NEG {dtype}"),
                       fixed={"implementation": "inline"})

    def fold(self, ctx: OpContext):
        x = np.asarray(ctx.inp(0).data)
        if x.dtype.kind == "f":
            return [-x]
        info = np.iinfo(x.dtype)
        return [np.where(x == info.min, x, -x.astype(np.int64)).astype(x.dtype)]

# SPDX-License-Identifier: Apache-2.0
"""MAXIMUM and MINIMUM (one lowering, two operators): LiteRT compares the stored values, codes for the
quantized types, and reads no quantization (its Prepare checks only that the input types match), so
every variant is exact. int8 / int16 / float32 call arm_maximum_* / arm_minimum_* (broadcasting, up to
four merged dimensions); int32 and broadcasts of more merged dimensions are inline C."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, Variant
from helia_aot.ops.shared.binary_arith import inline_params
from helia_aot.ops.shared.broadcast import BROADCAST_RULE, check_broadcast, kernel_broadcast_dims

_RULES = ("quantization is not read: values are compared as stored, as LiteRT does",)
_CTYPE = {"int8": "int8_t", "int16": "int16_t", "int32": "int32_t", "float32": "float"}


def _variant(name: str, dtype: str, which: str, entry: bool) -> Variant:
    suffix = {"int8": "s8", "int16": "s16", "float32": "f32"}.get(dtype)
    return Variant(name, inputs=(Operand("input 0", (dtype,)), Operand("input 1", (dtype,))),
                   outputs=(Operand("output", (dtype,)),),
                   entries=(f"arm_{which}_{suffix}",) if entry else (),
                   template="minmax.c.j2" if entry else "binary_broadcast.c.j2",
                   lower="lower_entry" if entry else "lower_inline", rules=(BROADCAST_RULE,),
                   notes=_RULES + (("more than four merged broadcast dimensions: inline C",) if entry else
                                   ("inline C",)))


class MinMaxLowering(OpLowering):
    """Subclasses set op_types, `which` ("maximum" / "minimum") and variants = variants_for(which)."""

    which = ""

    @staticmethod
    def variants_for(which: str) -> tuple[Variant, ...]:
        return (_variant("int8", "int8", which, True), _variant("int16", "int16", which, True),
                _variant("float32", "float32", which, True), _variant("int32", "int32", which, False))

    def validate(self, ctx: OpContext) -> None:
        check_broadcast(ctx, ctx.inp(0), ctx.inp(1), ctx.out(0))

    def _inline(self, ctx: OpContext, why: str) -> Lowered:
        ctype = _CTYPE[ctx.out(0).dtype]
        # LiteRT's MaximumOp / MinimumOp: el1 > el2 ? el1 : el2 (el1 < el2 for the minimum).
        cmp = ">" if self.which == "maximum" else "<"
        body = [f"*out++ = a {cmp} b ? a : b;"]
        return Lowered(template="binary_broadcast.c.j2", entry=None,
                       params=inline_params(ctx, body, ctype, ctype, f"{self.which.upper()}: {why}"),
                       fixed={"implementation": "inline"})

    def lower_entry(self, ctx: OpContext) -> Lowered:
        a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        dims = kernel_broadcast_dims(a.shape, b.shape)
        if dims is None:
            return self._inline(ctx, "more than four merged broadcast dimensions, which the kernel entry "
                                     "cannot take")
        dims_a, dims_b, dims_out = dims
        return Lowered(entry=ctx.variant.entries[0],
                       params=dict(input1=a.index, input2=b.index, output=y.index, input1_dims=dims_a,
                                   input2_dims=dims_b, output_dims=dims_out))

    def lower_inline(self, ctx: OpContext) -> Lowered:
        return self._inline(ctx, "no kernel entry for this type")

    def fold(self, ctx: OpContext):
        a, b = np.asarray(ctx.inp(0).data), np.asarray(ctx.inp(1).data)
        fn = np.maximum if self.which == "maximum" else np.minimum
        return [fn(a, b).astype(a.dtype).reshape(ctx.out(0).shape)]

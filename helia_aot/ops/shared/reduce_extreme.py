# SPDX-License-Identifier: Apache-2.0
"""REDUCE_MAX and REDUCE_MIN (no @register here; one module per operator): int8 / int16 on ns-cmsis-nn's
arm_reduce_max_* / arm_reduce_min_* (LiteRT requires the output to share the input's scale and zero point, so
the codes are compared as they are), float32 / int32 / int64 / bool in inline C starting from the type's
lowest / highest value as LiteRT's reducer does."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from helia_aot.emit.c_syntax import c_float
from helia_aot.ops.base import Axis, OpContext, OpLowering, Operand, Rule, Variant, both, litert
from helia_aot.ops.shared.fused_activation import FLT_MAX
from helia_aot.ops.shared.operands import const_ints, int8_act, int16_act
from helia_aot.ops.shared.reduce import (REDUCE_RULES, SHARED_RULES, entry_lowered, fits_4d, fold_reduce,
                                         inline_lowered, reduce_validate)

# LiteRT's init values: numeric_limits lowest() / max() of the type
_INIT = {"float32": (c_float(-FLT_MAX), c_float(FLT_MAX)), "int32": ("INT32_MIN", "INT32_MAX"),
         "int64": ("INT64_MIN", "INT64_MAX"), "bool": ("0", "1"), "int8": ("INT8_MIN", "INT8_MAX"),
         "int16": ("INT16_MIN", "INT16_MAX")}


# The codes are compared as they are, so the output must read them in the input's quantization. The scales are
# compared as the float32 the model stores (both references test equality, with no tolerance).
SAME_QUANT_INT8 = Rule("output scale and zero point equal to the input's", both(
    "reduce.cc EvalType / micro reduce_common.cc EvalMinMaxHelper",
    "TF_LITE_ENSURE_EQ(input scale, output scale) and TF_LITE_ENSURE_EQ(input zero point, output zero point)"))
SAME_QUANT_INT16 = Rule("output scale and zero point equal to the input's", litert(
    "reduce.cc EvalType (TFLM has no int16 REDUCE_MAX / REDUCE_MIN)",
    "TF_LITE_ENSURE_EQ(input scale, output scale) and TF_LITE_ENSURE_EQ(input zero point, output zero point)"))


def extreme_variants(kind: str) -> tuple[Variant, ...]:
    notes = REDUCE_RULES
    variants = [
        Variant("int8", inputs=(int8_act(), const_ints("axis")), outputs=(int8_act("output"),),
                entries=(f"arm_reduce_{kind}_s8",), template="reduce.c.j2", notes=notes,
                rules=SHARED_RULES + (SAME_QUANT_INT8,)),
        Variant("int16", inputs=(int16_act(), const_ints("axis")), outputs=(int16_act("output"),),
                entries=(f"arm_reduce_{kind}_s16",), template="reduce.c.j2", notes=notes,
                rules=SHARED_RULES + (SAME_QUANT_INT16,)),
    ]
    for dtype in ("float32", "int32", "int64", "bool"):
        variants.append(Variant(dtype, inputs=(Operand("input", (dtype,)), const_ints("axis")),
                                outputs=(Operand("output", (dtype,)),), template="reduce_inline.c.j2",
                                lower="lower_inline", rules=SHARED_RULES,
                                notes=REDUCE_RULES + (("inline C: any true (max) / all true (min)",) if dtype == "bool"
                                                      else ("inline C",))))
    return tuple(variants)


class ReduceExtremeLowering(OpLowering):
    """Subclasses set op_types, variants and kind ("max" or "min")."""

    kind = "max"
    options_table = "ReducerOptions"
    axes = (Axis("input 1"),)

    def validate(self, ctx: OpContext) -> None:
        reduce_validate(ctx)
        if ctx.variant.name in ("int8", "int16"):
            x, y = ctx.inp(0), ctx.out(0)
            if np.float32(x.quant.scale) != np.float32(y.quant.scale) or x.quant.zero_point != y.quant.zero_point:
                rule = SAME_QUANT_INT8 if ctx.variant.name == "int8" else SAME_QUANT_INT16
                raise ctx.error(rule, y, detail=f"REDUCE_{self.kind.upper()}: input and output must share scale and "
                                f"zero point (input {x.quant.scale:g}/{x.quant.zero_point}, output "
                                f"{y.quant.scale:g}/{y.quant.zero_point})")

    def lower(self, ctx: OpContext):
        if fits_4d(ctx):
            return entry_lowered(ctx)
        # more than four alternating reduced / kept groups: the kernels' 4-D dims cannot hold them
        return replace(self.lower_inline(ctx), template="reduce_inline.c.j2")

    def lower_inline(self, ctx: OpContext):
        dtype = ctx.inp(0).dtype
        low, high = _INIT[dtype]
        ctype = {"float32": "float", "int32": "int32_t", "int64": "int64_t", "bool": "uint8_t", "int8": "int8_t",
                 "int16": "int16_t"}[dtype]
        cmp = ">" if self.kind == "max" else "<"
        return inline_lowered(ctx, f"REDUCE_{self.kind.upper()}", ctype, low if self.kind == "max" else high,
                              f"acc = v {cmp} acc ? v : acc;", "*out++ = acc;")

    def fold(self, ctx: OpContext):
        return fold_reduce(ctx, np.max if self.kind == "max" else np.min)

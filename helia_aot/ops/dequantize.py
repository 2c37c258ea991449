# SPDX-License-Identifier: Apache-2.0
"""DEQUANTIZE int8/int16 -> float32, inline C (y = scale * (q - zero_point), as TFLite in double), and
float16 -> float32, the storage conversion of LiteRT's FP16-weight models: a constant folds at conversion,
anything else widens from the IEEE bits in inline C, on every target (no FP16 gate, no half type)."""

from __future__ import annotations

import numpy as np

from helia_aot.emit.c_syntax import c_type
from helia_aot.ops.base import ConstArray, Lowered, OpContext, OpLowering, Operand, Variant, register
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE
from helia_aot.ops.shared.operands import int8_act, int16_offset_act


@register
class Dequantize(OpLowering):
    op_types = ("DEQUANTIZE",)
    options_table = "DequantizeOptions"
    variants = (
        Variant("int8_to_float32", inputs=(int8_act(),), outputs=(Operand("output", ("float32",)),),
                template="dequantize.c.j2", notes=("inline C",), rules=(OUTPUT_SHAPE_RULE,)),
        Variant("int16_to_float32", inputs=(int16_offset_act(),), outputs=(Operand("output", ("float32",)),),
                template="dequantize.c.j2", notes=("inline C",), rules=(OUTPUT_SHAPE_RULE,)),
        Variant("float16_to_float32", inputs=(Operand("input", ("float16",)),),
                outputs=(Operand("output", ("float32",)),), template="dequantize_f16.c.j2", lower="lower_float16",
                notes=("a constant input folds at conversion", "inline C from the IEEE bits, every target"),
                rules=(OUTPUT_SHAPE_RULE,)),
    )

    def validate(self, ctx: OpContext) -> None:
        x, y = ctx.inp(0), ctx.out(0)
        if tuple(x.shape) != tuple(y.shape):
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} differs from the input shape "
                                                         f"{list(x.shape)}")

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        return Lowered(entry=None, fixed={"implementation": "inline"},
                       params=dict(input=x.index, output=y.index, size=y.num_elements, ctype=c_type(x.dtype),
                                   scale=repr(float(x.quant.scale)), zero_point=x.quant.zero_point))

    def lower_float16(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        if x.is_constant:
            # Not folded only when it is a model output: store the float32 values and copy them, so
            # no half-typed constant is emitted.
            values = np.asarray(x.data, dtype=np.float16).astype(np.float32)
            return Lowered(entry=None, fixed={"implementation": "copy of the converted constant"},
                           constants=[ConstArray("value", "float", values, "float16 constant widened to float32")],
                           params=dict(input=None, output=y.index, size=y.num_elements))
        return Lowered(entry=None, fixed={"implementation": "inline"},
                       params=dict(input=x.index, output=y.index, size=y.num_elements))

    def fold(self, ctx: OpContext):
        x = ctx.inp(0)
        if x.dtype == "float16":
            return [np.asarray(x.data, dtype=np.float16).astype(np.float32)]
        if x.quant is None:
            return None
        return [(np.float64(x.quant.scale) * (x.data.astype(np.int64) - x.quant.zero_point)).astype(np.float32)]

# SPDX-License-Identifier: Apache-2.0
"""ABS: int8 and int16 on arm_abs_s8 / _s16 (TFLite's |q - input zero point|, requantized when the input
and output scales differ), float32 on arm_nn_abs_f32 (clears the sign bit, as std::abs; fabsf inline where
the library lacks it), int32 inline C. int16 without quantization parameters: LiteRT's AbsInt16EvalImpl,
|x| of the raw codes in inline C (|-32768| stays -32768, its int16 narrowing)."""

from __future__ import annotations

import numpy as np

from helia_aot.ir.quant import f32, quantize_multiplier
from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, Variant, register
from helia_aot.ops.shared.checks import OUTPUT_SIZE_RULE, unary_validate
from helia_aot.ops.shared.operands import dtype_range, fp32, int8_act, int16_act
from helia_aot.ops.shared.unary_math import elementwise_int16_zero_point, fits_left_shift, left_shift_rule

_SHIFT = {"int8": left_shift_rule("arm_abs_s8", "|q - zero point| (up to 255)"),
          "int16": left_shift_rule("arm_abs_s16", "|q - zero point| (up to 32768)")}


@register
class Abs(OpLowering):
    op_types = ("ABS",)
    options_table = "AbsOptions"
    variants = (
        Variant("int8", inputs=(int8_act(),), outputs=(int8_act("output"),), entries=("arm_abs_s8",),
                template="abs.c.j2", rules=(OUTPUT_SIZE_RULE, _SHIFT["int8"])),
        Variant("int16", inputs=(int16_act(sources=elementwise_int16_zero_point("ABS")),),
                outputs=(int16_act("output", sources=elementwise_int16_zero_point("ABS")),), entries=("arm_abs_s16",),
                template="abs.c.j2", rules=(OUTPUT_SIZE_RULE, _SHIFT["int16"])),
        Variant("float32", inputs=(fp32(),), outputs=(fp32("output"),), entries=("arm_nn_abs_f32",),
                template="abs.c.j2", lower="lower_float32", rules=(OUTPUT_SIZE_RULE,),
                fallbacks=(("arm_nn_abs_f32", None),)),
        Variant("int32", inputs=(Operand("input", ("int32",)),), outputs=(Operand("output", ("int32",)),),
                template="unary_inline.c.j2", lower="lower_int32", rules=(OUTPUT_SIZE_RULE,),
                notes=("inline C; |INT32_MIN| stays INT32_MIN (two's complement, as LiteRT on Arm)",)),
        # Chosen by select() for an int16 input without quantization parameters (the quantized int16 variant
        # takes the rest): LiteRT's elementwise.cc evaluates that form on the raw codes.
        Variant("int16_unquantized", inputs=(Operand("input", ("int16",)),), outputs=(Operand("output", ("int16",)),),
                template="unary_inline.c.j2", lower="lower_int16_unquantized", rules=(OUTPUT_SIZE_RULE,),
                notes=("inline C on the raw codes (LiteRT's AbsInt16EvalImpl); |-32768| stays -32768",)),
    )

    def select(self, ctx: OpContext) -> Variant:
        """Quantized and unquantized int16 share a dtype signature: the input's quantization picks one."""
        x = ctx.inp(0)
        unquantized = x is not None and x.dtype == "int16" and x.quant is None
        found = [v for v in self.variants if v.matches(ctx.inputs(), ctx.outputs())
                 and (v.name == "int16_unquantized") == unquantized]
        return found[0] if len(found) == 1 else super().select(ctx)  # none: the registry's refusal lists them

    @staticmethod
    def _rescale(ctx: OpContext) -> tuple[bool, int, int]:
        """LiteRT's Prepare: rescale when the float32 scales differ, by QuantizeMultiplier of
        input scale / output scale divided in float32."""
        x, y = ctx.inp(0), ctx.out(0)
        needs = f32(x.quant.scale) != f32(y.quant.scale)
        if not needs:
            return False, 0, 0
        mult, shift = quantize_multiplier(f32(f32(x.quant.scale) / f32(y.quant.scale)))
        return True, mult, shift

    def validate(self, ctx: OpContext) -> None:
        unary_validate(ctx)
        if ctx.variant.name not in ("int8", "int16"):
            return
        needs, _, shift = self._rescale(ctx)
        # LiteRT shifts |q - zp| left: the largest over every input code must stay an int32.
        x, y = ctx.inp(0), ctx.out(0)
        low, high = (-128, 127) if ctx.variant.name == "int8" else (-32768, 32767)
        zp = x.quant.zero_point
        largest = max(high - zp, zp - low)
        if needs and not fits_left_shift(0, largest, shift):
            raise ctx.error(_SHIFT[ctx.variant.name], y, detail=f"input scale {x.quant.scale:g} over output scale "
                            f"{y.quant.scale:g} needs a left shift of {shift}, which overflows int32 for |q - zero "
                            f"point| = {largest}")

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        needs, mult, shift = self._rescale(ctx)
        act_min, act_max = dtype_range(y.dtype)
        return Lowered(entry=ctx.variant.entries[0],
                       params=dict(float=False, input=x.index, output=y.index, size=y.num_elements,
                                   input_zp=x.quant.zero_point, output_zp=y.quant.zero_point, needs_rescale=needs,
                                   mult=mult, shift=shift, act_min=act_min, act_max=act_max))

    def lower_float32(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        entry = ctx.library_entry(ctx.variant.entries[0])
        if entry is None:  # fabsf clears the sign bit, as the entry and std::abs do (NaN and -0.0 included)
            return Lowered(entry=None, template="unary_inline.c.j2",
                           params=dict(input=x.index, output=y.index, size=y.num_elements, ctype="float",
                                       body=["*out++ = fabsf(x);"],
                                       comment=f"ABS float32: {ctx.kernels.description} has no {ctx.variant.entries[0]}"),
                           fixed={"implementation": "inline", "function": "fabsf",
                                  "why": f"{ctx.kernels.description} has no {ctx.variant.entries[0]}"})
        return Lowered(entry=entry, params=dict(float=True, input=x.index, output=y.index, size=y.num_elements))

    def lower_int16_unquantized(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        body = ["*out++ = x < 0 && x != INT16_MIN ? (int16_t)-x : x;"]
        return Lowered(entry=None, params=dict(input=x.index, output=y.index, size=y.num_elements, ctype="int16_t",
                                               body=body, comment="ABS int16 (no quantization): |x|, INT16_MIN kept"),
                       fixed={"implementation": "inline"})

    def lower_int32(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        body = ["*out++ = x < 0 && x != INT32_MIN ? -x : x;"]
        return Lowered(entry=None, params=dict(input=x.index, output=y.index, size=y.num_elements, ctype="int32_t",
                                               body=body, comment="ABS int32: std::abs, INT32_MIN kept"),
                       fixed={"implementation": "inline"})

    def fold(self, ctx: OpContext):
        x = ctx.inp(0)
        if x.dtype == "int16" and x.quant is None:
            data = np.asarray(x.data)
            return [np.where(data == -32768, data, np.abs(data.astype(np.int32))).astype(np.int16)]
        if x.dtype not in ("float32", "int32"):
            return None
        return [np.abs(np.asarray(x.data))]

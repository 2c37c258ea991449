# SPDX-License-Identifier: Apache-2.0
"""QUANTIZE: float32 -> int8/int16 (inline C), int8 -> int8 and int16 -> int16 requantization
(arm_requantize_s8_s8 / arm_requantize_s16_s16), and the uint8/int8/int16/int32 rescales no entry covers
(inline C with TFLite's MultiplyByQuantizedMultiplier)."""

from __future__ import annotations

from helia_aot.emit.c_syntax import c_type
from helia_aot.ir.quant import quantize_multiplier
from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, Variant, register
from helia_aot.ops.shared.checks import OUTPUT_SIZE_RULE
from helia_aot.ops.shared.operands import dtype_range, int8_act, int16_offset_act


# LiteRT's quantize.cc Prepare resizes the output to the input's dims; the model's must hold as many elements.
# Element for element into the model's output: TFLM's quantize writes the input's count into an output of another
# size, LiteRT's Prepare resizes the output to the input's dims (the element-wise operators' rule).
ELEMENTS = OUTPUT_SIZE_RULE


def _rescale(name: str, src: str, dst: str) -> Variant:
    """An integer-to-integer rescale no library entry covers: inline C."""
    return Variant(name, inputs=(Operand("input", (src,), quantized=True),),
                   outputs=(Operand("output", (dst,), quantized=True),), template="requantize_inline.c.j2",
                   lower="lower_inline_rescale", notes=("inline C",), rules=(ELEMENTS,))


@register
class Quantize(OpLowering):
    op_types = ("QUANTIZE",)
    options_table = "QuantizeOptions"
    variants = (
        Variant("float32_to_int8", inputs=(Operand("input", ("float32",)),), outputs=(int8_act("output"),),
                template="quantize_f32.c.j2", lower="lower_from_float", notes=("inline C",), rules=(ELEMENTS,)),
        # LiteRT's AffineQuantize takes any int16 output zero point (quantize.cc checks none for float input)
        Variant("float32_to_int16", inputs=(Operand("input", ("float32",)),),
                outputs=(Operand("output", ("int16",), quantized=True),),
                template="quantize_f32.c.j2", lower="lower_from_float", notes=("inline C",), rules=(ELEMENTS,)),
        Variant("int8_to_int8", inputs=(int8_act(),), outputs=(int8_act("output"),),
                entries=("arm_requantize_s8_s8",), template="requantize.c.j2", lower="lower_requantize",
                rules=(ELEMENTS,)),
        Variant("int16_to_int16", inputs=(int16_offset_act(),), outputs=(int16_offset_act("output"),),
                entries=("arm_requantize_s16_s16",), template="requantize.c.j2", lower="lower_requantize",
                rules=(ELEMENTS,)),
        _rescale("int8_to_int16", "int8", "int16"),
        _rescale("int16_to_int8", "int16", "int8"),
        _rescale("int16_to_int32", "int16", "int32"),
        _rescale("int32_to_int16", "int32", "int16"),
        # Measured (tests/e2e/differential.py's QUANTIZE walk): LiteRT also requantizes uint8 to uint8, int8 and
        # int16, int8 to uint8 and int32 to int8; TFLM int8 to int32 (LiteRT's quantize.cc refuses that one).
        _rescale("uint8_to_uint8", "uint8", "uint8"),
        _rescale("uint8_to_int8", "uint8", "int8"),
        _rescale("uint8_to_int16", "uint8", "int16"),
        _rescale("int8_to_uint8", "int8", "uint8"),
        _rescale("int8_to_int32", "int8", "int32"),
        _rescale("int32_to_int8", "int32", "int8"),
    )

    def validate(self, ctx: OpContext) -> None:
        x, y = ctx.inp(0), ctx.out(0)
        if x.num_elements != y.num_elements:
            raise ctx.error(ELEMENTS, y, detail="input and output element counts differ")

    def lower_from_float(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        qmin, qmax = dtype_range(y.dtype)
        return Lowered(entry=None,
                       params=dict(input=x.index, output=y.index, size=y.num_elements, ctype=c_type(y.dtype),
                                   qmin=qmin, qmax=qmax, scale=repr(float(y.quant.scale)),
                                   zero_point=y.quant.zero_point,
                                   # x / scale limited to one step past the codes: the integers are exact floats
                                   low=f"{qmin - y.quant.zero_point - 1}.0", high=f"{qmax - y.quant.zero_point + 1}.0"),
                       fixed={"implementation": "inline"})

    def _rescale_params(self, ctx: OpContext) -> dict:
        x, y = ctx.inp(0), ctx.out(0)
        mult, shift = quantize_multiplier(float(x.quant.scale) / float(y.quant.scale))
        qmin, qmax = dtype_range(y.dtype)
        return dict(input=x.index, output=y.index, size=y.num_elements, mult=mult, shift=shift,
                    input_zp=x.quant.zero_point, output_zp=y.quant.zero_point, in_ctype=c_type(x.dtype),
                    out_ctype=c_type(y.dtype), qmin=qmin, qmax=qmax)

    def lower_requantize(self, ctx: OpContext) -> Lowered:
        return Lowered(entry=ctx.variant.entries[0], params=self._rescale_params(ctx))

    def lower_inline_rescale(self, ctx: OpContext) -> Lowered:
        return Lowered(entry=None, params=self._rescale_params(ctx), fixed={"implementation": "inline"})

# SPDX-License-Identifier: Apache-2.0
"""ADD and SUB (one lowering, two operators): int8 and int16 with broadcasting of any rank on
arm_elementwise_<op>_s8/s16 (equal shapes) or arm_<op>_s8/s16 (broadcasting), with LiteRT's rescaling of
both inputs; int16 with a zero point (TFLM alone runs it) and broadcasts past four merged dimensions in inline
C with the same arithmetic. float32 / float16 on the `_f32` / `_f16` entries, or inline C when broadcasting
(or where the library lacks the entry). int32 (unquantized) as inline C with broadcasting of any rank,
wrapping modulo 2^32 and then clamped to the fused activation, as LiteRT's reference kernel
(binary_arith.int32_wrapping_params). Constant inputs fold at conversion for int8, int16, float32 and int32,
from the same parameters as the C."""

from __future__ import annotations

import operator

import numpy as np

from helia_aot.ir.quant import quantize_multiplier
from helia_aot.ops.base import Lowered, OpContext, Operand, OpLowering, Rule, Variant, litert, tflm
from helia_aot.ops.shared.binary_arith import (BINARY_RULES, INT32_NOTES, INT32_RULES, PAST_FOUR_GROUPS,
                                               binary_validate, inline_broadcast_lowered, int32_validate,
                                               int32_wrapping_fold, int32_wrapping_params)
from helia_aot.ops.shared.broadcast import entry_dims
from helia_aot.ops.shared.fixed_point import (multiply_by_quantized_multiplier_array,
                                              multiply_by_quantized_multiplier_c)
from helia_aot.ops.shared.float_variants import binary_lowered, float16_variant
from helia_aot.ops.shared.fused_activation import FLT_MAX, activation_bounds, fused_activation
from helia_aot.ops.shared.int16_arithmetic import Q31_HALF, checked_log2
from helia_aot.ops.shared.operands import f16, fp32, int8_act, int16_offset_act

POT_SHIFTS = Rule("pot_scale_int16 true with power-of-two scales: one input shares the output scale, the other is "
                  "no coarser", litert("add.cc / sub.cc Prepare (int16, pot_scale_int16)",
                                       "TF_LITE_ENSURE(input1_shift == 0 || input2_shift == 0) and both shifts <= 0"))
POT_SAME_SHAPE = Rule("pot_scale_int16 true with power-of-two scales: same input shapes (ADD)", litert(
    "add.cc Eval (int16, pot_scale_int16)", "the power-of-two path has no broadcast: a broadcast reports "
    "\"Unsupported combination of input and output types\""))
ADD_OUTPUT_SCALE = Rule("general int16 scales: 2 x larger input scale < 2^15 x output scale (ADD)", litert(
    "add.cc Prepare (int16, general scales)", "QuantizeMultiplierSmallerThanOneExp(real_output_multiplier): "
    "TFLITE_CHECK_LT(multiplier, 1)"))
OFFSETS_OUTPUT_SCALE = Rule("int16 with zero points: 2 x larger input scale < 2^15 x output scale (SUB)", tflm(
    "sub_common.cc CalculateOpDataSub (int16)", "QuantizeMultiplierSmallerThanOneExp(real_output_multiplier): "
    "TFLITE_CHECK_LT(multiplier, 1) aborts; LiteRT's sub.cc refuses any int16 zero point"))
# ADD alone refuses a broadcast on the power-of-two path and too fine an output scale (add_sub_s16_params).
_INT16_RULES = {"add": BINARY_RULES + (POT_SHIFTS, POT_SAME_SHAPE, ADD_OUTPUT_SCALE),
                "sub": BINARY_RULES + (POT_SHIFTS, OFFSETS_OUTPUT_SCALE)}
_OPERATION = {"add": ("+", operator.add), "sub": ("-", operator.sub)}


def add_sub_params(ctx: OpContext) -> dict:
    """TFLite's int8 ADD/SUB rescaling: both inputs to twice the larger scale, 20 bits of headroom."""
    a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
    left_shift = 20
    twice_max = 2.0 * max(float(a.quant.scale), float(b.quant.scale))
    m1, s1 = quantize_multiplier(float(a.quant.scale) / twice_max)
    m2, s2 = quantize_multiplier(float(b.quant.scale) / twice_max)
    mo, so = quantize_multiplier(twice_max / ((1 << left_shift) * float(y.quant.scale)))
    act_min, act_max = fused_activation(ctx, y)
    return dict(
        input1=a.index, input2=b.index, output=y.index, **entry_dims(a, b), size=y.num_elements,
        input1_offset=-a.quant.zero_point, input1_mult=m1, input1_shift=s1,
        input2_offset=-b.quant.zero_point, input2_mult=m2, input2_shift=s2,
        left_shift=left_shift, out_offset=y.quant.zero_point, out_mult=mo, out_shift=so,
        act_min=act_min, act_max=act_max,
    )


def add_sub_s16_params(ctx: OpContext) -> dict:
    """ADD/SUB int16 parameters for arm_elementwise_{add,sub}_s16 / arm_{add,sub}_s16.

    General scales (the converter writes pot_scale_int16 false): TFLite's rescaling with a left shift
    of 15, both inputs to twice the larger scale. pot_scale_int16 true with power-of-two scales selects
    LiteRT's narrow path instead: the input with the smaller scale is rounding-shifted right, added to
    the other as is, and the sum saturated. The s16 kernels compute that exactly with left shift 1 and
    multipliers 0.5 (shift -k for a right shift by k) on the inputs, 1.0 on the sum."""
    a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
    op = ctx.op.op_type
    act_min, act_max = fused_activation(ctx, y)
    p = dict(input1=a.index, input2=b.index, output=y.index, **entry_dims(a, b), size=y.num_elements,
             act_min=act_min, act_max=act_max)
    logs = [checked_log2(t.quant.scale) for t in (a, b, y)]
    offsets = any(t.quant.zero_point != 0 for t in (a, b, y))
    # A zero point: LiteRT's int16 kernels refuse it, TFLM's add.cc / sub.cc take it on their general path,
    # whatever pot_scale_int16 says. Otherwise LiteRT's choice of path.
    if not offsets and ctx.options("pot_scale_int16", False) is True and all(pot for pot, _ in logs):
        shifts = [logs[0][1] - logs[2][1], logs[1][1] - logs[2][1]]
        if 0 not in shifts or max(shifts) > 0 or min(shifts) < -31:
            raise ctx.error(POT_SHIFTS, detail=f"pot_scale_int16 with power-of-two scales: one input must share the "
                            f"output scale and the other be no coarser (input scales 2^{logs[0][1]}, "
                            f"2^{logs[1][1]}, output 2^{logs[2][1]})", tensor=y,
                            hint="Export with pot_scale_int16 false (general int16 scales)")
        if op == "ADD" and tuple(a.shape) != tuple(b.shape):
            raise ctx.error(POT_SAME_SHAPE, b, "Export with pot_scale_int16 false (general int16 scales)",
                            detail="pot_scale_int16 with power-of-two scales takes LiteRT's same-shape path, which "
                                   "does not broadcast")
        return dict(p, pot_scale=True, left_shift=1, input1_mult=Q31_HALF, input1_shift=shifts[0],
                    input2_mult=Q31_HALF, input2_shift=shifts[1], out_mult=Q31_HALF, out_shift=1)
    left_shift = 15
    twice_max = 2.0 * max(float(a.quant.scale), float(b.quant.scale))
    real_out = twice_max / ((1 << left_shift) * float(y.quant.scale))
    if op == "SUB" and offsets and real_out >= 1.0:
        raise ctx.error(OFFSETS_OUTPUT_SCALE, y, detail=f"output scale {y.quant.scale:g} is too fine for TFLM's int16 "
                                                        f"SUB: twice the larger input scale over 2^15 x output scale "
                                                        f"must be below 1 (is {real_out:g})")
    if op == "ADD" and real_out >= 1.0:
        raise ctx.error(ADD_OUTPUT_SCALE, y, detail=f"output scale {y.quant.scale:g} is too fine for LiteRT's int16 "
                                                    "ADD: "
                                                    f"twice the larger input scale over 2^15 x output scale must be "
                                                    f"below 1 (is {real_out:g})")
    m1, s1 = quantize_multiplier(float(a.quant.scale) / twice_max)
    m2, s2 = quantize_multiplier(float(b.quant.scale) / twice_max)
    mo, so = quantize_multiplier(real_out)
    return dict(p, pot_scale=False, left_shift=left_shift, input1_mult=m1, input1_shift=s1,
                input2_mult=m2, input2_shift=s2, out_mult=mo, out_shift=so, offsets=offsets,
                input1_offset=-a.quant.zero_point, input2_offset=-b.quant.zero_point, out_offset=y.quant.zero_point)


def add_sub_inline_lowered(ctx: OpContext, p: dict, symbol: str, why: str) -> Lowered:
    """Inline C with the parameters the entries take, where no entry serves (`why`): int16 with a zero point,
    which the s16 entries ignore (TFLM's general path, reference AddElementwise / SubElementwise), or a
    broadcast past four merged dimensions. Each input offset and shifted left (int8 by 20: at most 255 x 2^20;
    int16 by 15: 65535 x 2^15; within int32), rescaled, combined, rescaled to the output, offset and clamped:
    _quantized_fold's arithmetic, which the entries compute too (the int16 power-of-two path included)."""
    ctype = "int8_t" if ctx.out(0).dtype == "int8" else "int16_t"
    body = [f"const int32_t shifted1 = ((int32_t)a + ({p.get('input1_offset', 0)})) * (1 << {p['left_shift']});",
            f"const int32_t shifted2 = ((int32_t)b + ({p.get('input2_offset', 0)})) * (1 << {p['left_shift']});",
            *multiply_by_quantized_multiplier_c("scaled1", "shifted1", p["input1_mult"], p["input1_shift"]),
            *multiply_by_quantized_multiplier_c("scaled2", "shifted2", p["input2_mult"], p["input2_shift"]),
            f"const int32_t raw = scaled1 {symbol} scaled2;",
            *multiply_by_quantized_multiplier_c("scaled", "raw", p["out_mult"], p["out_shift"]),
            f"const int32_t y = scaled + ({p.get('out_offset', 0)});",
            f"*out++ = ({ctype})(y < {p['act_min']} ? {p['act_min']} : (y > {p['act_max']} ? {p['act_max']} : y));"]
    return inline_broadcast_lowered(ctx, body, ctype, ctype, f"{ctx.out(0).dtype} {ctx.op.op_type}: {why}", why)


def _quantized_fold(ctx: OpContext, p: dict, fn) -> np.ndarray:
    """LiteRT's AddFunc / SubElementwise (reference integer_ops/add.h, sub.h), which the s8 / s16 kernels compute
    with these parameters: each input offset, shifted left and rescaled, the two combined, rescaled to the output,
    offset and clamped. The int16 power-of-two path is the same arithmetic by its parameters' construction."""
    def rescaled(k: int) -> np.ndarray:
        codes = np.asarray(ctx.inp(k - 1).data, dtype=np.int64) + p.get(f"input{k}_offset", 0)  # pot path: 0
        return multiply_by_quantized_multiplier_array(codes << p["left_shift"], p[f"input{k}_mult"],
                                                      p[f"input{k}_shift"])
    raw = multiply_by_quantized_multiplier_array(fn(rescaled(1), rescaled(2)), p["out_mult"], p["out_shift"])
    out = np.clip(raw + p.get("out_offset", 0), p["act_min"], p["act_max"])
    return out.astype(ctx.out(0).dtype).reshape(ctx.out(0).shape)


def _float32_fold(ctx: OpContext, fn) -> np.ndarray:
    """One float32 operation per element, then LiteRT's activation clamp (NONE: +-inf to +-FLT_MAX; NaN passes)."""
    low, high = activation_bounds(ctx)
    a, b = (np.asarray(ctx.inp(k).data, dtype=np.float32) for k in (0, 1))
    with np.errstate(over="ignore", invalid="ignore"):  # inf and NaN arise as in the C
        value = fn(a, b)
    return np.clip(value, np.float32(max(low, -FLT_MAX)), np.float32(min(high, FLT_MAX))).reshape(ctx.out(0).shape)


def _two_inputs(declare) -> tuple[Operand, Operand]:
    return declare("input 0"), declare("input 1")


class AddSubLowering(OpLowering):
    """Subclasses set op_types, options_table, `which` ("add" / "sub") and variants = variants_for(which)."""

    which = ""

    @staticmethod
    def variants_for(which: str) -> tuple[Variant, ...]:
        return (
            Variant("int8", inputs=_two_inputs(int8_act), outputs=(int8_act("output"),),
                    entries=(f"arm_elementwise_{which}_s8", f"arm_{which}_s8"), template="add_sub.c.j2",
                    rules=BINARY_RULES),
            Variant("int16", inputs=_two_inputs(int16_offset_act), outputs=(int16_offset_act("output"),),
                    entries=(f"arm_elementwise_{which}_s16", f"arm_{which}_s16"), template="add_sub_s16.c.j2",
                    lower="lower_int16", rules=_INT16_RULES[which]),
            Variant("float32", inputs=_two_inputs(fp32), outputs=(fp32("output"),),
                    entries=(f"arm_elementwise_{which}_f32",), template="binary_f32.c.j2", lower="lower_float32",
                    rules=BINARY_RULES, notes=("broadcasting: inline C",),
                    fallbacks=((f"arm_elementwise_{which}_f32", None),)),
            Variant("int32", inputs=(Operand("input 0", ("int32",)), Operand("input 1", ("int32",))),
                    outputs=(Operand("output", ("int32",)),), template="binary_broadcast.c.j2", lower="lower_int32",
                    rules=INT32_RULES, notes=INT32_NOTES),
            # -- float16 (native FP16) --
            float16_variant(inputs=_two_inputs(f16), outputs=(f16("output"),),
                            entries=(f"arm_elementwise_{which}_f16",), template="elementwise_f16.c.j2",
                            rules=BINARY_RULES, notes=("equal shapes call the entry; broadcasting is inline C",)),
        )

    def validate(self, ctx: OpContext) -> None:
        if ctx.out(0).dtype == "int32":  # by dtype: a constant fold validates before any variant is chosen
            int32_validate(ctx)
            return
        binary_validate(ctx)
        if ctx.out(0).dtype == "int16":
            add_sub_s16_params(ctx)  # raises on LiteRT's int16 scale rules

    def _on_entries(self, ctx: OpContext, p: dict) -> Lowered:
        """The variant's element-wise entry for equal shapes, its broadcasting one otherwise, the inline loop
        for a broadcast past four merged dimensions."""
        if p["input1_dims"] is None:
            return add_sub_inline_lowered(ctx, p, _OPERATION[self.which][0], PAST_FOUR_GROUPS)
        elementwise, broadcasting = ctx.variant.entries
        return Lowered(entry=broadcasting if p["broadcast"] else elementwise,
                       candidates=[elementwise, broadcasting], params=p)

    def lower(self, ctx: OpContext) -> Lowered:
        return self._on_entries(ctx, add_sub_params(ctx))

    def lower_int16(self, ctx: OpContext) -> Lowered:
        p = add_sub_s16_params(ctx)
        if p.get("offsets"):
            return add_sub_inline_lowered(ctx, p, _OPERATION[self.which][0],
                                          "zero points, which the s16 entries ignore (TFLM's general path)")
        return self._on_entries(ctx, p)

    def lower_int32(self, ctx: OpContext) -> Lowered:
        symbol, _ = _OPERATION[self.which]
        return Lowered(entry=None, params=int32_wrapping_params(ctx, symbol, self.which.upper()),
                       fixed={"implementation": "inline"})

    def fold(self, ctx: OpContext):
        """At conversion time, as the variant the tensors select computes it: from the parameters its lowering
        gives the C. None for float16, and for tensors no variant takes (lowering then refuses them)."""
        variant = next((v for v in self.variants if v.matches(ctx.inputs(), ctx.outputs())), None)
        if variant is None or variant.name == "float16":
            return None
        self.check_operands(ctx.with_variant(variant))  # quantization the parameters below read
        fn = _OPERATION[self.which][1]
        if variant.name == "int32":
            return int32_wrapping_fold(ctx, fn)
        if variant.name == "float32":
            return [_float32_fold(ctx, fn)]
        return [_quantized_fold(ctx, add_sub_s16_params(ctx) if variant.name == "int16" else add_sub_params(ctx), fn)]

    def lower_float32(self, ctx: OpContext) -> Lowered:
        """arm_elementwise_<op>_f32 for equal shapes (exact: one operation and the clamp per element);
        broadcasting is inline C, and so is every shape where the library lacks the entry (ns-cmsis-nn
        7.29.2 has no arm_elementwise_sub_f32): the same operation and clamp."""
        return binary_lowered(ctx, _OPERATION[self.which][0])

    # -- float16 (native FP16) --

    def lower_float16(self, ctx: OpContext) -> Lowered:
        """arm_elementwise_<op>_f16 for equal shapes; broadcasting is inline C (float16 operation and clamp)."""
        return binary_lowered(ctx, _OPERATION[self.which][0])

# SPDX-License-Identifier: Apache-2.0
"""SOFTMAX over the last axis: int8 -> int8 (arm_softmax_s8), int16 -> int16 (arm_softmax_s16 with exp
and 1/(1+x) tables built at conversion) and int8 -> int16 (arm_softmax_s8_s16). float32: arm_softmax_f32
(its exp interpolates a table of 2^f: within 4e-7 of the exact probabilities) when beta is 1, inline C
with expf as LiteRT's reference otherwise."""

from __future__ import annotations

import math

import numpy as np

from helia_aot.emit.c_syntax import c_float
from helia_aot.ir.quant import f32, quantize_multiplier, softmax_params
from helia_aot.ops.base import (ConstArray, Lowered, OpContext, OpLowering, Operand, Rule, Variant, both,
                                kernel_limit, litert, register)
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE
from helia_aot.ops.shared.float_variants import float16_variant
from helia_aot.ops.shared.lookup_tables import lut_int16
from helia_aot.ops.shared.operands import f16, fp32, int8_act, int16_act

_INT16_RANGE = 65535  # int16 max - int16 min, the span LiteRT's softmax tables are laid over


def _near(scale: float, target: float) -> bool:
    """TF_LITE_ENSURE_NEAR(scale, target, 0.001 x target) in float32, as LiteRT and TFLM evaluate it."""
    return abs(f32(scale) - f32(target)) <= f32(0.001 * target)


# The output forms LiteRT's SoftmaxPrepare (activations.cc) checks, the reference where it runs the model: the int8
# scale within 0.1% of 1/256 and the int16 forms. It checks no int8 -> int16 form and writes p x 65536 - 32768 whatever
# the output declares, as arm_softmax_s8_s16 does; TFLM's CalculateSoftmaxParams (softmax_common.cc) refuses all but
# scale 1/65536 and zero point -32768 there, and an int8 scale other than exactly 1/256 (measured by
# tests/e2e/test_differential.py: LiteRT's codes are the module's in each case).
INT8_OUTPUT = Rule("int8 output zero point -128", both(
    "activations.cc SoftmaxPrepare / micro softmax_common.cc CalculateSoftmaxParams",
    "TF_LITE_ENSURE_EQ(output->params.zero_point, -128)"))
INT8_SCALE = Rule("int8 output scale 1/256 (within 0.1%)", litert(
    "activations.cc SoftmaxPrepare", "TF_LITE_ENSURE_NEAR(output->params.scale, 1.f / 256, 0.001f / 256) (TFLM "
    "wants it exact)"))
INT16_OUTPUT = Rule("int16 output scale 1/32768 (within 0.1%)", both(
    "activations.cc SoftmaxPrepare / micro softmax_common.cc CalculateSoftmaxParams",
    "TF_LITE_ENSURE_NEAR(output->params.scale, 1.f / 32768, 0.001f / 32768)"))
F16_BETA = Rule("beta 1", kernel_limit("arm_softmax_f16", "takes no beta (LiteRT's float softmax scales by beta)",
                                       "inline C as the float32 variant's beta path"))
RANK = Rule("input of rank 1 or more", litert("activations.cc SoftmaxPrepare",
                                              "TF_LITE_ENSURE(NumDimensions(input) >= 1)"))


@register
class Softmax(OpLowering):
    op_types = ("SOFTMAX",)
    options_table = "SoftmaxOptions"
    variants = (
        Variant("int8", inputs=(int8_act(),), outputs=(int8_act("output"),), entries=("arm_softmax_s8",), template="softmax.c.j2",
                lower="lower_int8", rules=(INT8_OUTPUT, INT8_SCALE, RANK, OUTPUT_SHAPE_RULE)),
        Variant("int16", inputs=(int16_act(),), outputs=(int16_act("output"),), entries=("arm_softmax_s16",),
                template="softmax_s16.c.j2", lower="lower_int16",
                rules=(INT16_OUTPUT, RANK, OUTPUT_SHAPE_RULE),
                notes=("two 513-entry int16 tables (exp, 1/(1+x)) stored per operator",)),
        # The output is not symmetric: the kernel writes p * 65536 - 32768.
        Variant("int8_int16", inputs=(int8_act(),), outputs=(Operand("output", ("int16",), quantized=True),),
                entries=("arm_softmax_s8_s16",), template="softmax_s8_s16.c.j2", lower="lower_int8_int16",
                rules=(RANK, OUTPUT_SHAPE_RULE)),
        Variant("float32", inputs=(fp32(),), outputs=(fp32("output"),), entries=("arm_softmax_f32",),
                template="softmax_f32.c.j2", lower="lower_float32",
                rules=(RANK, OUTPUT_SHAPE_RULE), notes=("beta other than 1: inline C (expf, link libm)",)),
        # -- float16 (native FP16) --
        float16_variant(inputs=(f16(),), outputs=(f16("output"),), entries=("arm_softmax_f16",),
                        template="softmax_f16.c.j2",
                        rules=(F16_BETA, RANK, OUTPUT_SHAPE_RULE)),
    )

    def validate(self, ctx: OpContext) -> None:
        x, y = ctx.inp(0), ctx.out(0)
        name = ctx.variant.name
        # The output forms LiteRT's SoftmaxPrepare checks (the rules above); an int8 -> int16 softmax has none.
        if name == "int8" and (y.quant.zero_point != -128 or not _near(y.quant.scale, 1.0 / 256)):
            raise ctx.error(INT8_OUTPUT if y.quant.zero_point != -128 else INT8_SCALE, y,
                            detail=f"int8 output must have scale 1/256 within 0.1% and zero point -128 (has "
                                   f"{y.quant.scale:g}, {y.quant.zero_point})")
        if name == "int16" and not _near(y.quant.scale, 1.0 / 32768):
            # TFLM's TF_LITE_ENSURE_NEAR(scale, 1.f / 32768, 0.001f / 32768); the zero point 0 (both
            # references) is an operand rule.
            raise ctx.error(INT16_OUTPUT, y, detail=f"int16 output must have scale 1/32768 within 0.1% (has "
                                                    f"{y.quant.scale:g})")
        if name == "float16" and float(ctx.options("beta", 1.0)) != 1.0:
            raise ctx.error(F16_BETA, x, "Fold beta into the layer before the softmax",
                            detail=f"float16 softmax needs beta 1 (has {ctx.options('beta', 1.0):g}): arm_softmax_f16 "
                                   "takes no beta")
        if not x.shape:
            raise ctx.error(RANK, x, detail="a scalar input has no axis to normalize")
        if tuple(x.shape) != tuple(y.shape):
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail="input and output shapes must match")

    def _rows(self, ctx: OpContext) -> tuple[int, int]:
        x = ctx.inp(0)
        row = int(x.shape[-1])
        return x.num_elements // row, row

    def lower_int8(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        mult, shift, diff_min = softmax_params(float(ctx.options("beta", 1.0)), x.quant.scale)
        row = int(x.shape[-1])
        rows = x.num_elements // row
        return Lowered(
            entry="arm_softmax_s8",
            macs=0,
            params=dict(input=x.index, output=y.index, rows=rows, row_size=row, mult=mult, shift=shift,
                        diff_min=diff_min),
        )

    def lower_int8_int16(self, ctx: OpContext) -> Lowered:
        """The int8 path's fixed-point exp (same multiplier, shift and diff_min), int16 output."""
        x, y = ctx.inp(0), ctx.out(0)
        mult, shift, diff_min = softmax_params(float(ctx.options("beta", 1.0)), x.quant.scale)
        rows, row = self._rows(ctx)
        return Lowered(entry="arm_softmax_s8_s16",
                       params=dict(input=x.index, output=y.index, rows=rows, row_size=row, mult=mult, shift=shift,
                                   diff_min=diff_min))

    def lower_int16(self, ctx: OpContext) -> Lowered:
        """LiteRT's int16 Prepare: x - max is scaled so [-65535, 0] covers [-10, 0] (input scale x beta,
        a float32 product, over 10/65535) and looked up in an exp table over [-10, 0]; the sum's
        reciprocal comes from a 1/(1+x) table over [0, 1]. Both tables are LUTPopulate<int16_t> in
        double, as LiteRT builds them (TFLM builds them in float)."""
        x, y = ctx.inp(0), ctx.out(0)
        beta = float(ctx.options("beta", 1.0))
        mult, shift = quantize_multiplier(f32(float(x.quant.scale) * beta) / (10.0 / _INT16_RANGE))
        exp_lut = lut_int16(math.exp, 10.0 / _INT16_RANGE, 32767, 2.0 / _INT16_RANGE, 0, precision=np.float64)
        one_by_one_lut = lut_int16(lambda v: 1.0 / (1.0 + v), 1.0 / _INT16_RANGE, -32768, 2.0 / _INT16_RANGE, 0,
                                   precision=np.float64)
        rows, row = self._rows(ctx)
        return Lowered(entry="arm_softmax_s16",
                       constants=[ConstArray("exp_lut", "int16_t", exp_lut, "exp(x) over [-10, 0], 513 entries"),
                                  ConstArray("one_by_one_lut", "int16_t", one_by_one_lut,
                                             "1 / (1 + x) over [0, 1], 513 entries")],
                       params=dict(input=x.index, output=y.index, rows=rows, row_size=row, mult=mult, shift=shift))

    def lower_float32(self, ctx: OpContext) -> Lowered:
        """arm_softmax_f32 has no beta: beta 1 (what converters write) calls it, any other beta runs
        LiteRT's reference arithmetic inline."""
        x, y = ctx.inp(0), ctx.out(0)
        beta = float(ctx.options("beta", 1.0))
        rows, row = self._rows(ctx)
        params = dict(input=x.index, output=y.index, rows=rows, row_size=row, beta=c_float(beta))
        if beta == 1.0:
            return Lowered(entry="arm_softmax_f32", params=params)
        return Lowered(entry=None, params=params, fixed={"implementation": "inline", "why": "beta != 1"})

    # -- float16 (native FP16) --

    def lower_float16(self, ctx: OpContext) -> Lowered:
        """arm_softmax_f16 over the last axis: float16 exponentials of x - max, summed in float32."""
        x, y = ctx.inp(0), ctx.out(0)
        rows, row = self._rows(ctx)
        return Lowered(entry="arm_softmax_f16", params=dict(input=x.index, output=y.index, rows=rows, row_size=row))

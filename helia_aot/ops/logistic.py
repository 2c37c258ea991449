# SPDX-License-Identifier: Apache-2.0
"""LOGISTIC. int8: a 256-entry table of 1/(1+exp(-x)) built at conversion time, applied with inline C.
int16: arm_logistic_s16, LiteRT's reference int16 logistic (input rescaling, then ns-cmsis-nn's copy of
TFLite's 256-entry sigmoid table with interpolation), bit for bit. float32: arm_nn_activation_f32's
sigmoid, within 3e-7 of 1/(1+exp(-x)) (its exp interpolates a 256-entry table of 2^f)."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import ConstArray, Lowered, OpContext, OpLowering, Rule, Variant, litert, register
from helia_aot.ops.shared.checks import OUTPUT_SIZE_RULE, unary_validate
from helia_aot.ops.shared.float_variants import (activation_f16_lowering, activation_f16_variant, activation_lowered,
                                        activation_variant)
from helia_aot.ops.shared.int16_arithmetic import SIGMOID_INPUT_SCALE, q15_output_rule, sigmoid_s16_input_scaling
from helia_aot.ops.shared.lookup_tables import lut_int8, table_args
from helia_aot.ops.shared.operands import int8_act, int16_act

# Measured (tests/e2e/test_differential.py): LiteRT checks these two scales and runs any int8 output zero point
# (its table is built from the output's quantization, as ours is); TFLM runs an int8 scale near 1/256.
INT8_SCALE = Rule("int8 output scale 1/256", litert("activations.cc SigmoidPrepare",
                                                   "TF_LITE_ENSURE(output->params.scale == 1. / 256)",
                                                   "writes codes of scale 1/256, disregarding the output's"))
INT16_SCALE = Rule("int16 output scale 1/32768", litert("activations.cc SigmoidPrepare",
                                                       "TF_LITE_ENSURE(output->params.scale == 1. / 32768)",
                                                       "writes codes of scale 1/32768, disregarding the output's"))


@register
class Logistic(OpLowering):
    op_types = ("LOGISTIC",)
    options_table = None
    variants = (
        Variant("int8", inputs=(int8_act(),), outputs=(int8_act("output"),), template="lut.c.j2",
                rules=(INT8_SCALE, OUTPUT_SIZE_RULE),
                notes=("256-entry table from the input's and output's quantization, inline C",)),
        Variant("int16", inputs=(int16_act(),), outputs=(int16_act("output"),), entries=("arm_logistic_s16",),
                template="sigmoid_s16.c.j2", lower="lower_int16",
                rules=(INT16_SCALE, SIGMOID_INPUT_SCALE, OUTPUT_SIZE_RULE)),
        activation_variant(("sigmoid within 3e-7 (table-interpolated exp)",)),
        # -- float16 (native FP16) --
        activation_f16_variant("float16 arithmetic (ns-cmsis-nn's scalar or MVE approximation)"),
    )

    def validate(self, ctx: OpContext) -> None:
        unary_validate(ctx)
        y = ctx.out(0)
        if ctx.variant.name in ("float32", "float16"):
            return
        if ctx.variant.name == "int16":
            q15_output_rule(ctx, exact=True, rule=INT16_SCALE)
            sigmoid_s16_input_scaling(ctx, (0,))
            return
        if abs(y.quant.scale - 1.0 / 256) > 1e-9:  # the float32 neighbours of 1/256 build the same table
            raise ctx.error(INT8_SCALE, y, detail=f"int8 output must have scale 1/256 (has {y.quant.scale:g})")

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        table = lut_int8(lambda v: np.float32(1.0) / (np.float32(1.0) + np.exp(-v)), *table_args(ctx))
        return Lowered(entry=None, fixed={"implementation": "lut"},
                       constants=[ConstArray("lut", "int8_t", table, "LOGISTIC table indexed by input + 128")],
                       params=dict(input=x.index, output=y.index, size=y.num_elements))

    def lower_int16(self, ctx: OpContext) -> Lowered:
        """Input scale 2^-12 takes LiteRT's power-of-two path (multiplier 0: the kernel uses 3); any
        other scale a multiplier and right shift that bring it to 1/(3 * 4096)."""
        x, y = ctx.inp(0), ctx.out(0)
        mult, shift = sigmoid_s16_input_scaling(ctx, (0,))
        return Lowered(entry="arm_logistic_s16",
                       params=dict(input=x.index, output=y.index, size=y.num_elements, mult=mult, shift=shift))

    def lower_float32(self, ctx: OpContext) -> Lowered:
        return activation_lowered(ctx, "SIGMOID")

    # -- float16 (native FP16) --

    def lower_float16(self, ctx: OpContext) -> Lowered:
        return activation_f16_lowering(ctx)

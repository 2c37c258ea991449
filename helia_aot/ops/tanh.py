# SPDX-License-Identifier: Apache-2.0
"""TANH. int8: a 256-entry table of tanh(x) built at conversion time, applied with inline C. int16:
arm_tanh_s16, LiteRT's reference int16 tanh (input rescaling, then ns-cmsis-nn's copy of TFLite's
sigmoid table with interpolation, tanh(x) = 2 sigmoid(2x) - 1), bit for bit. float32: tanhf per element
(inline C, libm), LiteRT's std::tanh."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import ConstArray, Lowered, OpContext, OpLowering, Rule, Variant, litert, register
from helia_aot.ops.shared.checks import OUTPUT_SIZE_RULE, unary_validate
from helia_aot.ops.shared.float_variants import activation_f16_lowering, activation_f16_variant
from helia_aot.ops.shared.int16_arithmetic import SIGMOID_INPUT_SCALE, q15_output_rule, sigmoid_s16_input_scaling
from helia_aot.ops.shared.lookup_tables import lut_int8, table_args
from helia_aot.ops.shared.operands import fp32, int8_act, int16_act

# Measured (tests/e2e/test_differential.py): LiteRT runs any int8 output quantization (its table is built from
# it, as ours is) and checks the int16 output's power-of-two scale.
INT16_SCALE = Rule("int16 output scale 1/32768 (a power of two within CheckedLog2's tolerance)", litert(
    "activations.cc TanhPrepare", "output_scale_log2_rounded == -kOutputFractionalBits (CheckedLog2 of the output "
    "scale, -15)"))


@register
class Tanh(OpLowering):
    op_types = ("TANH",)
    options_table = None
    variants = (
        Variant("int8", inputs=(int8_act(),), outputs=(int8_act("output"),), template="lut.c.j2",
                rules=(OUTPUT_SIZE_RULE,),
                notes=("256-entry table from the input's and output's quantization, inline C",)),
        Variant("int16", inputs=(int16_act(),), outputs=(int16_act("output"),), entries=("arm_tanh_s16",),
                template="sigmoid_s16.c.j2", lower="lower_int16",
                rules=(INT16_SCALE, SIGMOID_INPUT_SCALE, OUTPUT_SIZE_RULE)),
        Variant("float32", inputs=(fp32(),), outputs=(fp32("output"),), template="tanh_f32.c.j2",
                lower="lower_float32", rules=(OUTPUT_SIZE_RULE,), notes=("inline C (tanhf, link libm)",)),
        # -- float16 (native FP16) --
        activation_f16_variant("float16 arithmetic (ns-cmsis-nn's scalar or MVE approximation)"),
    )

    def validate(self, ctx: OpContext) -> None:
        unary_validate(ctx)
        y = ctx.out(0)
        if ctx.variant.name in ("float32", "float16"):
            return
        if ctx.variant.name == "int16":
            q15_output_rule(ctx, exact=False, rule=INT16_SCALE)
            sigmoid_s16_input_scaling(ctx, (0, 1))
            return

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        table = lut_int8(np.tanh, *table_args(ctx))
        return Lowered(entry=None, fixed={"implementation": "lut"},
                       constants=[ConstArray("lut", "int8_t", table, "TANH table indexed by input + 128")],
                       params=dict(input=x.index, output=y.index, size=y.num_elements))

    def lower_int16(self, ctx: OpContext) -> Lowered:
        """Input scales 2^-12 and 2^-11 take LiteRT's power-of-two path (multiplier 0: the kernel uses
        3 << shift); any other scale a multiplier and right shift that bring it to 1/(3 * 4096)."""
        x, y = ctx.inp(0), ctx.out(0)
        mult, shift = sigmoid_s16_input_scaling(ctx, (0, 1))
        return Lowered(entry="arm_tanh_s16",
                       params=dict(input=x.index, output=y.index, size=y.num_elements, mult=mult, shift=shift))

    def lower_float32(self, ctx: OpContext) -> Lowered:
        """Inline tanhf: ns-cmsis-nn's arm_nn_activation_f32 tanh interpolates a 256-entry table over
        [0, 4] and returns +-1 beyond, up to 6.7e-4 from tanh (measured), 30 times the float bound of
        1e-5 of the output range."""
        x, y = ctx.inp(0), ctx.out(0)
        return Lowered(entry=None, fixed={"implementation": "inline", "function": "tanhf"},
                       params=dict(input=x.index, output=y.index, size=y.num_elements))

    # -- float16 (native FP16) --

    def lower_float16(self, ctx: OpContext) -> Lowered:
        return activation_f16_lowering(ctx)

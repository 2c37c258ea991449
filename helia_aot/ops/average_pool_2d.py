# SPDX-License-Identifier: Apache-2.0
"""AVERAGE_POOL_2D, int8 and int16 (same scale in and out), lowered to arm_avgpool_s8 / arm_avgpool_s16; float32
on arm_avg_pool_f32 (sums the window's in-bounds elements, then divides by their count, as LiteRT)."""

from __future__ import annotations

from helia_aot.library import ns_cmsis_nn_scratch as sizes
from helia_aot.ops.base import Lowered, OpContext, OpLowering, Variant, register
from helia_aot.ops.shared.float_variants import float16_variant
from helia_aot.ops.shared.operands import f16, fp32, int8_act, int16_act
from helia_aot.ops.shared.pooling import FLOAT_POOL_RULES, POOL_RULES, pool_params, pool_validate


@register
class AveragePool2D(OpLowering):
    op_types = ("AVERAGE_POOL_2D",)
    options_table = "Pool2DOptions"
    variants = (
        Variant("int8", inputs=(int8_act(),), outputs=(int8_act("output"),), entries=("arm_avgpool_s8",),
                template="pool_2d.c.j2", notes=POOL_RULES),
        Variant("int16", inputs=(int16_act(),), outputs=(int16_act("output"),), entries=("arm_avgpool_s16",),
                template="pool_2d.c.j2", notes=POOL_RULES),
        Variant("float32", inputs=(fp32(),), outputs=(fp32("output"),), entries=("arm_avg_pool_f32",),
                template="pool_2d_f32.c.j2", notes=FLOAT_POOL_RULES),
        # -- float16 (native FP16) --
        float16_variant(inputs=(f16(),), outputs=(f16("output"),), entries=("arm_avg_pool_f16",),
                        template="pool_2d_f16.c.j2",
                        notes=FLOAT_POOL_RULES + ("divides by the window's in-bounds count",)),
    )
    # The float pools read no ctx->buf.
    _sizer = {"arm_avgpool_s8": sizes.avgpool_s8, "arm_avgpool_s16": sizes.avgpool_s16,
              "arm_avg_pool_f32": lambda build, output_x, channels: 0,
              "arm_avg_pool_f16": lambda build, output_x, channels: 0}

    def validate(self, ctx: OpContext) -> None:
        pool_validate(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        p = pool_params(ctx)
        out = p["output_dims"]
        entry = ctx.variant.entries[0]
        return Lowered(
            entry=entry,
            scratch_bytes=ctx.kernels.scratch(self._sizer[entry], out[2], p["input_dims"][3]),
            macs=0,  # MACs count convolution, depthwise and fully connected layers only
            params=p,
        )

    # -- float16 (native FP16) --

    def lower_float16(self, ctx: OpContext) -> Lowered:
        """arm_avg_pool_f16: the mean over the window's in-bounds elements, as LiteRT; no scratch."""
        return self.lower(ctx)

# SPDX-License-Identifier: Apache-2.0
"""AVERAGE_POOL_2D, int8 and int16 (same scale in and out), lowered to arm_avgpool_s8 / arm_avgpool_s16; float32
on arm_avg_pool_f32 (sums the window's in-bounds elements, then divides by their count, as LiteRT)."""

from __future__ import annotations

from helia_aot.library import ns_cmsis_nn_scratch as sizes
from helia_aot.ops.base import Lowered, OpContext, OpLowering, Variant, register
from helia_aot.ops.shared.float_variants import float16_variant
from helia_aot.ops.shared.operands import f16, fp32, int8_act, int16_act
from helia_aot.ops.shared.pooling import POOL_RULES, pool_params, pool_validate

# The integer kernels (ours, ns-cmsis-nn's and LiteRT's reference) sum a window's codes in int32 and add half
# the count to round: count x 2^(bits - 1) + count // 2 must fit even with every code at its minimum, which
# holds up to (2^32 - 1) // (2^bits + 1) elements (16711935 for int8, 65535 for int16).
_INT32_SUM_ELEMENTS = {"int8": ((1 << 32) - 1) // ((1 << 8) + 1), "int16": ((1 << 32) - 1) // ((1 << 16) + 1)}


def _covered(origin: int, filter_size: int, in_size: int) -> int:
    """How many of a window's taps, starting at input position `origin`, fall inside the input."""
    return max(min(origin + filter_size, in_size) - max(origin, 0), 0)


def largest_window(in_size: int, filter_size: int, stride: int, pad: int, out_size: int) -> int:
    """The most input elements any output's window covers along one axis. The count is concave in the
    output index, so its maximum lies at an end or beside one of its two bends: where the window
    enters the input and where it reaches the input's end."""
    candidates = {0, out_size - 1}
    for bend in (pad, in_size - filter_size + pad):
        candidates.update((bend // stride, bend // stride + 1))
    return max(_covered(o * stride - pad, filter_size, in_size) for o in candidates if 0 <= o < out_size)


@register
class AveragePool2D(OpLowering):
    op_types = ("AVERAGE_POOL_2D",)
    options_table = "Pool2DOptions"
    variants = (
        Variant("int8", inputs=(int8_act(),), outputs=(int8_act("output"),), entries=("arm_avgpool_s8",),
                template="pool_2d.c.j2", rules=POOL_RULES),
        Variant("int16", inputs=(int16_act(),), outputs=(int16_act("output"),), entries=("arm_avgpool_s16",),
                template="pool_2d.c.j2", rules=POOL_RULES),
        Variant("float32", inputs=(fp32(),), outputs=(fp32("output"),), entries=("arm_avg_pool_f32",),
                template="pool_2d_f32.c.j2", rules=POOL_RULES),
        # -- float16 (native FP16) --
        float16_variant(inputs=(f16(),), outputs=(f16("output"),), entries=("arm_avg_pool_f16",),
                        template="pool_2d_f16.c.j2",
                        rules=POOL_RULES, notes=("divides by the window's in-bounds count",)),
    )
    # The float pools read no ctx->buf.
    _sizer = {"arm_avgpool_s8": sizes.avgpool_s8, "arm_avgpool_s16": sizes.avgpool_s16,
              "arm_avg_pool_f32": lambda build, output_x, channels: 0,
              "arm_avg_pool_f16": lambda build, output_x, channels: 0}

    def validate(self, ctx: OpContext) -> None:
        pool_validate(ctx)
        x = ctx.inp(0)
        limit = _INT32_SUM_ELEMENTS.get(x.dtype)
        if limit is None:
            return  # the float kernels sum in float
        p = pool_params(ctx)
        (_, fh, fw, _), (sw, sh), (pw, ph) = p["filter_dims"], p["stride"], p["padding"]
        _, in_h, in_w, _ = p["input_dims"]
        _, out_h, out_w, _ = p["output_dims"]
        covered = largest_window(in_h, fh, sh, ph, out_h) * largest_window(in_w, fw, sw, pw, out_w)
        if covered > limit:
            raise ctx.error(f"a {fh}x{fw} window covers up to {covered} input elements; {x.dtype} average pooling "
                            f"sums them in int32, which holds at most {limit} (with the rounding)", x,
                            "Pool over a smaller window, or pool in float32")

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

# SPDX-License-Identifier: Apache-2.0
"""SignalFftAutoScale (TFLM's Signal library, custom operator): scales an int16 frame up by the largest
power of two its peak allows and outputs the exponent (int32 scalar) for SignalFilterBankSquareRoot to
scale back down by. helia_signal_fft_auto_scale_s16 reproduces TFLM's peak exactly (see the kernel); int16
is the only type TFLM's kernel takes. No attributes."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, Variant, register
from helia_aot.ops.shared.signal import OPTION_KEYS, prepare_rule, read_options, require_rank, unchecked_rule

RANKS = prepare_rule("input and output rank 1, scale_bits a scalar", "fft_auto_scale_common.cc FftAutoScalePrepare",
                   "TF_LITE_ENSURE_EQ(NumDimensions(input / output), 1), TF_LITE_ENSURE_EQ(NumDimensions(scale_bit), 0)")
SAME_SHAPE = unchecked_rule("output shape equal to the input's", "FftAutoScaleEval (it writes one value per input)")


@register
class SignalFftAutoScale(OpLowering):
    op_types = ("CUSTOM:SignalFftAutoScale",)
    options_table = None
    variants = (
        Variant("int16", inputs=(Operand("input", ("int16",)),),
                outputs=(Operand("output", ("int16",)), Operand("scale_bits", ("int32",))),
                entries=("helia_signal_fft_auto_scale_s16",), template="signal_fft_auto_scale.c.j2",
                notes=("no custom options",), rules=(OPTION_KEYS, RANKS, SAME_SHAPE)),
    )

    def validate(self, ctx: OpContext) -> None:
        read_options(ctx, {})
        x, y, scale = ctx.inp(0), ctx.out(0), ctx.out(1)
        require_rank(ctx, x, (1,), "input", RANKS)
        require_rank(ctx, y, (1,), "output", RANKS)
        require_rank(ctx, scale, (0,), "scale_bits", RANKS)
        if tuple(y.shape) != tuple(x.shape):
            raise ctx.error(SAME_SHAPE, y, detail=f"output shape {list(y.shape)} differs from the input shape "
                                                  f"{list(x.shape)}")

    def lower(self, ctx: OpContext) -> Lowered:
        x, y, scale = ctx.inp(0), ctx.out(0), ctx.out(1)
        return Lowered(entry="helia_signal_fft_auto_scale_s16",
                       params=dict(input=x.index, output=y.index, scale=scale.index, size=x.num_elements))

    def fold(self, ctx: OpContext):
        values = [int(v) for v in np.asarray(ctx.inp(0).data).reshape(-1)]
        peak = 0
        for v in values:  # TFLM's MaxAbs16 in int16: negating -32768 gives -32768
            if v > peak:
                peak = v
            elif -v > peak:
                peak = -32768 if v == -32768 else -v
        bits = max(15 - peak.bit_length(), 0) if peak > 0 else 0
        scaled = (np.asarray(values, dtype=np.int64) << bits).astype(np.uint16).view(np.int16)
        return [scaled.reshape(ctx.out(0).shape), np.asarray(bits, dtype=np.int32)]

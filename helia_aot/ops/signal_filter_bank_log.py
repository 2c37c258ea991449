# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBankLog (TFLM custom operator): output[i] = min(ln(input[i] << input_correction_bits) x
output_scale, 32767) as int16 in TFLM's fixed-point logarithm (Q16 log2 with a 128-segment corrected
fraction), 0 where the shifted input is 0 or 1, on helia_signal_filter_bank_log_u32."""

from __future__ import annotations

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, Variant, register
from helia_aot.ops.shared.signal import (OPTION_KEYS, OPTION_RANGE, Attr, prepare_rule, read_options, require_rank,
                                         unchecked_rule)

# TFLM reads both as int32: the correction is a uint32 shift (0..31), the scale any int32, used as uint32.
_ATTRS = {"input_correction_bits": Attr(low=0, high=31), "output_scale": Attr()}
RANKS = prepare_rule("input and output rank 1", "filter_bank_log.cc FilterBankLogPrepare",
                   "TF_LITE_ENSURE_EQ(NumDimensions(input), 1) and TF_LITE_ENSURE_EQ(NumDimensions(output), 1)")
SAME_LENGTH = unchecked_rule("output as long as the input", "FilterBankLogEval (one value per input channel)")


@register
class SignalFilterBankLog(OpLowering):
    op_types = ("CUSTOM:SignalFilterBankLog",)
    options_table = None
    variants = (
        Variant("uint32", inputs=(Operand("input", ("uint32",)),), outputs=(Operand("output", ("int16",)),),
                entries=("helia_signal_filter_bank_log_u32",), template="signal_filter_bank_log.c.j2",
                notes=("custom options exactly {input_correction_bits (0..31), output_scale}",
                       "input (uint32) and output (int16) rank 1 of the same length"),
                rules=(OPTION_KEYS, OPTION_RANGE, RANKS, SAME_LENGTH)),
    )

    def validate(self, ctx: OpContext) -> None:
        read_options(ctx, _ATTRS)
        x, y = ctx.inp(0), ctx.out(0)
        require_rank(ctx, x, (1,), "input", RANKS)
        require_rank(ctx, y, (1,), "output", RANKS)
        if int(y.shape[0]) != int(x.shape[0]):
            raise ctx.error(SAME_LENGTH, y, detail=f"output has {int(y.shape[0])} elements, the input "
                                                   f"{int(x.shape[0])} (TFLM's kernel writes one value per input channel)")

    def lower(self, ctx: OpContext) -> Lowered:
        o = read_options(ctx, _ATTRS)
        x = ctx.inp(0)
        return Lowered(entry="helia_signal_filter_bank_log_u32", macs=4 * int(x.shape[0]),
                       params=dict(input=x.index, output=ctx.out(0).index, channels=int(x.shape[0]),
                                   scale=o["output_scale"], bits=o["input_correction_bits"]))

# SPDX-License-Identifier: Apache-2.0
"""SignalPCAN (TFLM custom operator): per-channel amplitude normalization of the filter bank energies
by a gain read from the noise estimate, on helia_signal_pcan_u32:
output[i] = shrink((input[i] * gain(noise[i])) >> snr_shift), the gain a piecewise quadratic in
gain_lut (three int16 coefficients per octave of the noise level, 125 entries for all 32 octaves).
The LUT may be a constant or a run-time tensor, as in TFLM.
"""

from __future__ import annotations

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, Variant, register
from helia_aot.ops.shared.signal import (OPTION_KEYS, OPTION_RANGE, Attr, prepare_rule, read_options, require_rank,
                                         unchecked_rule)

# The highest entry the gain reads: 4 x 32 - 4 (a noise level with all 32 bits), so 125 entries.
LUT_ENTRIES = 125
RANKS = prepare_rule("input, noise_estimate, gain_lut and output rank 1", "pcan.cc PcanPrepare",
                   "TF_LITE_ENSURE_EQ(NumDimensions(...), 1) for the four")
SIZES = unchecked_rule(f"noise_estimate and output as long as the input; gain_lut at least {LUT_ENTRIES} entries",
                       "PcanEval (one estimate per channel, LUT entries up to 4 x the estimate's bits - 4)")


@register
class SignalPcan(OpLowering):
    op_types = ("CUSTOM:SignalPCAN",)
    options_table = None
    variants = (
        Variant("uint32", inputs=(Operand("input", ("uint32",)), Operand("noise_estimate", ("uint32",)),
                                  Operand("gain_lut", ("int16",))),
                outputs=(Operand("output", ("uint32",)),), entries=("helia_signal_pcan_u32",),
                template="signal_pcan.c.j2",
                notes=("custom options exactly {snr_shift}, 0..63",
                       "input, noise_estimate and output rank 1 of the same length; gain_lut rank 1 of at least "
                       f"{LUT_ENTRIES} entries"), rules=(OPTION_KEYS, OPTION_RANGE, RANKS, SIZES)),
    )

    def validate(self, ctx: OpContext) -> None:
        read_options(ctx, {"snr_shift": Attr(low=0, high=63)})
        x, noise, lut, y = ctx.inp(0), ctx.inp(1), ctx.inp(2), ctx.out(0)
        for tensor, role in ((x, "input"), (noise, "noise_estimate"), (lut, "gain_lut"), (y, "output")):
            require_rank(ctx, tensor, (1,), role, RANKS)
        channels = int(x.shape[0])
        for tensor, role in ((noise, "noise_estimate"), (y, "output")):
            if int(tensor.shape[0]) != channels:
                raise ctx.error(SIZES, tensor, detail=f"{role} has {int(tensor.shape[0])} elements, the input "
                                f"{channels} (TFLM's kernel reads one estimate per channel and copies the input into "
                                "the output)")
        if int(lut.shape[0]) < LUT_ENTRIES:
            raise ctx.error(SIZES, lut, detail=f"gain_lut has {int(lut.shape[0])} entries; the gain of a noise level of "
                                               f"b bits reads entries up to 4 b - 4, so a uint32 estimate needs "
                                               f"{LUT_ENTRIES}")

    def lower(self, ctx: OpContext) -> Lowered:
        shift = read_options(ctx, {"snr_shift": Attr(low=0, high=63)})["snr_shift"]
        x = ctx.inp(0)
        return Lowered(entry="helia_signal_pcan_u32", macs=4 * int(x.shape[0]),
                       params=dict(input=x.index, noise=ctx.inp(1).index, lut=ctx.inp(2).index, output=ctx.out(0).index,
                                   snr_shift=shift, channels=int(x.shape[0])))

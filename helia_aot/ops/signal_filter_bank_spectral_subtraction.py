# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBankSpectralSubtraction (TFLM custom operator): per channel, subtracts a running noise
estimate from the filter bank energies; outputs the cleaned energies and the updated estimate, on
helia_signal_filter_bank_spectral_subtraction_u32.

Stateful: TFLM keeps the noise estimate in a persistent buffer of the kernel's own (no tensor), zeroed
in Prepare and Reset, updated by every invocation. The module keeps it as internal state in the
persistent arena (Lowered.state), zeroed by <prefix>_model_init and <prefix>_model_reset, so a
sequence of runs gives TFLM's sequence of outputs.
"""

from __future__ import annotations

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, StateBuffer, Variant, register
from helia_aot.ops.shared.signal import (INT32_MAX, OPTION_KEYS, OPTION_RANGE, Attr, prepare_rule, read_options,
                                         require_rank, unchecked_rule)

_U32 = 0xFFFFFFFF
# TFLM reads every attribute as an int32 (ElementAsInt32) and stores the coefficients as uint32.
_ATTRS = {
    "alternate_one_minus_smoothing": Attr(),
    "alternate_smoothing": Attr(),
    "clamping": Attr("bool"),
    "min_signal_remaining": Attr(),
    "num_channels": Attr(low=1, high=INT32_MAX),
    "one_minus_smoothing": Attr(),
    "smoothing": Attr(),
    "smoothing_bits": Attr(low=0, high=31),  # a uint32 shift
    "spectral_subtraction_bits": Attr(low=0, high=63),  # a uint64 shift
}
RANKS = prepare_rule("input, output and noise_estimate rank 1", "filter_bank_spectral_subtraction.cc "
                   "FilterBankSpectralSubtractionPrepare", "TF_LITE_ENSURE_EQ(NumDimensions(...), 1) for the three")
CHANNELS = unchecked_rule("input, output and noise_estimate num_channels long",
                          "FilterBankSpectralSubtractionEval (num_channels values each)")


@register
class SignalFilterBankSpectralSubtraction(OpLowering):
    op_types = ("CUSTOM:SignalFilterBankSpectralSubtraction",)
    options_table = None
    variants = (
        Variant("uint32", inputs=(Operand("input", ("uint32",)),),
                outputs=(Operand("output", ("uint32",)), Operand("noise_estimate", ("uint32",))),
                entries=("helia_signal_filter_bank_spectral_subtraction_u32",),
                template="signal_filter_bank_spectral_subtraction.c.j2",
                notes=("custom options exactly {alternate_one_minus_smoothing, alternate_smoothing, clamping, "
                       "min_signal_remaining, num_channels, one_minus_smoothing, smoothing, smoothing_bits (0..31), "
                       "spectral_subtraction_bits (0..63)}",
                       "input, output and noise_estimate rank 1 of num_channels elements",
                       "keeps the noise estimate across runs (persistent arena, zero after a reset)"),
                rules=(OPTION_KEYS, OPTION_RANGE, RANKS, CHANNELS)),
    )

    def validate(self, ctx: OpContext) -> None:
        options = read_options(ctx, _ATTRS)
        channels = options["num_channels"]
        tensors = ((ctx.inp(0), "input"), (ctx.out(0), "output"), (ctx.out(1), "noise_estimate"))
        for tensor, role in tensors:
            require_rank(ctx, tensor, (1,), role, RANKS)
        for tensor, role in tensors:
            if int(tensor.shape[0]) != channels:
                raise ctx.error(CHANNELS, tensor, detail=f"{role} has {int(tensor.shape[0])} elements, custom "
                                f"option num_channels is {channels} (TFLM's kernel runs num_channels channels and copies the whole "
                                "estimate tensor from its num_channels-value state)")

    def lower(self, ctx: OpContext) -> Lowered:
        o = read_options(ctx, _ATTRS)
        channels = o["num_channels"]
        # The coefficients as TFLM holds them (uint32 from int32), C literals: they may exceed int32.
        coefficients = [f"{o[k] & _U32}u" for k in ("smoothing", "one_minus_smoothing", "alternate_smoothing",
                                                    "alternate_one_minus_smoothing", "min_signal_remaining")]
        cfg = [str(channels), *coefficients, f"{o['smoothing_bits']}u", f"{o['spectral_subtraction_bits']}u",
               str(int(o["clamping"]))]
        return Lowered(entry="helia_signal_filter_bank_spectral_subtraction_u32", macs=4 * channels,
                       params=dict(input=ctx.inp(0).index, output=ctx.out(0).index, noise=ctx.out(1).index, cfg=cfg),
                       state=[StateBuffer("noise_estimate", 4 * channels,
                                          "the running noise estimate, smoothing_bits more fraction bits")],
                       fixed={"state": "noise estimate in the persistent arena, zero after a reset"})

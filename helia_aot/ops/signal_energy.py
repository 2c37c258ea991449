# SPDX-License-Identifier: Apache-2.0
"""SignalEnergy (TFLM's Signal library, custom operator): the energy re^2 + im^2 of the complex int16 bins
start_index <= i < end_index of a spectrum ((re, im) pairs, as SignalRfft writes it), as uint32.
helia_signal_energy_s16_u32. TFLM leaves the other output elements unwritten; the kernel sets them to 0
(the preprocessor slices them away). int16 -> uint32 is the only type pair TFLM's kernel takes."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, Variant, register
from helia_aot.ops.shared.signal import (INT32_MAX, OPTION_KEYS, OPTION_RANGE, Attr, prepare_rule, read_options,
                                         require_rank, unchecked_rule)

_ATTRS = {"end_index": Attr(low=0, high=INT32_MAX), "start_index": Attr(low=0, high=INT32_MAX)}
RANKS = prepare_rule("input and output rank 1", "energy.cc EnergyPrepare",
                   "TF_LITE_ENSURE_EQ(NumDimensions(input), 1) and TF_LITE_ENSURE_EQ(NumDimensions(output), 1)")
BINS = unchecked_rule("end_index within the input's complex bins and the output (when start_index < end_index)",
                      "EnergyEval")


@register
class SignalEnergy(OpLowering):
    op_types = ("CUSTOM:SignalEnergy",)
    options_table = None
    variants = (
        Variant("int16", inputs=(Operand("input", ("int16",)),), outputs=(Operand("output", ("uint32",)),),
                entries=("helia_signal_energy_s16_u32",), template="signal_energy.c.j2",
                notes=("input (complex (re, im) int16 pairs) and output rank 1",
                       "custom options 0 <= start_index, end_index <= output length and <= input length / 2 "
                       "(start_index >= end_index: no bins)",
                       "output elements outside start_index..end_index - 1 are 0 (TFLM leaves them unwritten)"),
                rules=(OPTION_KEYS, OPTION_RANGE, RANKS, BINS)),
    )

    def validate(self, ctx: OpContext) -> None:
        attrs = read_options(ctx, _ATTRS)
        x, y = ctx.inp(0), ctx.out(0)
        require_rank(ctx, x, (1,), "input", RANKS)
        require_rank(ctx, y, (1,), "output", RANKS)
        start, end = attrs["start_index"], attrs["end_index"]
        bins = x.shape[0] // 2
        if start < end and end > min(bins, y.shape[0]):
            raise ctx.error(BINS, y, detail=f"custom option end_index {end} is beyond the input's {bins} complex "
                                            f"bins or the output's {y.shape[0]} elements (start_index {start}); TFLM "
                                            "would read or write outside them")

    def lower(self, ctx: OpContext) -> Lowered:
        attrs = read_options(ctx, _ATTRS)
        x, y = ctx.inp(0), ctx.out(0)
        return Lowered(entry="helia_signal_energy_s16_u32",
                       params=dict(input=x.index, output=y.index, bins=x.shape[0] // 2, start=attrs["start_index"],
                                   end=attrs["end_index"], output_size=y.shape[0]))

    def fold(self, ctx: OpContext):
        attrs = read_options(ctx, _ATTRS)
        start, end = attrs["start_index"], attrs["end_index"]
        pairs = np.asarray(ctx.inp(0).data, dtype=np.int64)[: 2 * (ctx.inp(0).shape[0] // 2)].reshape(-1, 2)
        out = np.zeros(ctx.out(0).shape, dtype=np.uint32)
        if start < end:
            out[start:end] = ((pairs[start:end] ** 2).sum(axis=1) % (1 << 32)).astype(np.uint32)
        return [out]

# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBank (TFLM's Signal library, custom operator): a mel filter bank of uint32 energies into
num_channels uint64 channels. Inputs: the energies, then int16 weights, unweights (1 - weight), channel
frequency starts, channel weight starts and channel widths (the last three num_channels + 1 long: entry 0
is TFLM's scratch channel, whose unweights feed channel 1). helia_signal_filter_bank_u32_u64, sums modulo
2^64 as TFLM's. uint32 -> uint64 is the only type pair TFLM's kernel takes. A band reaching outside the
energies or the weights is refused here when the configuration is constant, else by the kernel at run time
(TFLM would read outside them)."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, Variant, register
from helia_aot.ops.shared.signal import (INT32_MAX, OPTION_KEYS, OPTION_RANGE, Attr, prepare_rule, read_options,
                                         require_rank, unchecked_rule)

_ATTRS = {"num_channels": Attr(low=0, high=INT32_MAX - 1)}
_CONFIG = ("weights", "unweights", "channel_frequency_starts", "channel_weight_starts", "channel_widths")
RANKS = prepare_rule("every tensor rank 1", "filter_bank.cc FilterBankPrepare",
                   "TF_LITE_ENSURE_EQ(NumDimensions(...), 1) for each of the six inputs and the output")
SIZES = unchecked_rule("output num_channels long; unweights as long as weights; starts and widths num_channels + 1 "
                       "long; every band within the energies and the weights (checked here when constant, else by the "
                       "kernel at run time)", "FilterBankEval")


@register
class SignalFilterBank(OpLowering):
    op_types = ("CUSTOM:SignalFilterBank",)
    options_table = None
    variants = (
        Variant("uint32", inputs=(Operand("input", ("uint32",)), *(Operand(role, ("int16",)) for role in _CONFIG)),
                outputs=(Operand("output", ("uint64",)),), entries=("helia_signal_filter_bank_u32_u64",),
                template="signal_filter_bank.c.j2",
                notes=("every tensor rank 1; output num_channels long (custom option num_channels)",
                       "channel starts and widths num_channels + 1 long; weights and unweights equally long",
                       "every band within the energies and the weights (checked here when constant, else at "
                       "run time)"), rules=(OPTION_KEYS, OPTION_RANGE, RANKS, SIZES)),
    )

    def validate(self, ctx: OpContext) -> None:
        channels = read_options(ctx, _ATTRS)["num_channels"]
        tensors = ctx.inputs() + [ctx.out(0)]
        for role, t in zip(("input",) + _CONFIG + ("output",), tensors):
            require_rank(ctx, t, (1,), role, RANKS)
        w, uw, y = ctx.inp(1), ctx.inp(2), ctx.out(0)
        if y.shape[0] != channels:
            raise ctx.error(SIZES, y, detail=f"output has {y.shape[0]} elements, custom option num_channels is "
                                             f"{channels}")
        if uw.shape[0] != w.shape[0]:
            raise ctx.error(SIZES, uw, detail=f"unweights have {uw.shape[0]} elements, weights {w.shape[0]}; TFLM "
                                              "reads both at the same positions")
        for k in (3, 4, 5):
            t = ctx.inp(k)
            if t.shape[0] < channels + 1:
                raise ctx.error(SIZES, t, detail=f"{_CONFIG[k - 1]} has {t.shape[0]} elements, num_channels + 1 = "
                                                 f"{channels + 1} are read")
        starts, firsts, widths = (ctx.inp(k) for k in (3, 4, 5))
        if all(t.is_constant for t in (starts, firsts, widths)):
            bins, weights = ctx.inp(0).shape[0], w.shape[0]
            for c in range(channels + 1):
                width, freq, first = (int(np.asarray(t.data)[c]) for t in (widths, starts, firsts))
                if width > 0 and (freq < 0 or first < 0 or freq + width > bins or first + width > weights):
                    raise ctx.error(SIZES, widths, detail=f"channel {c} covers energies {freq}..{freq + width - 1} "
                                    f"with weights {first}..{first + width - 1}, outside the {bins} energies or "
                                    f"{weights} weights")

    def lower(self, ctx: OpContext) -> Lowered:
        channels = read_options(ctx, _ATTRS)["num_channels"]
        x, y = ctx.inp(0), ctx.out(0)
        return Lowered(entry="helia_signal_filter_bank_u32_u64",
                       params=dict(input=x.index, input_size=x.shape[0], weights=ctx.inp(1).index,
                                   unweights=ctx.inp(2).index, weights_size=ctx.inp(1).shape[0],
                                   starts=ctx.inp(3).index, firsts=ctx.inp(4).index, widths=ctx.inp(5).index,
                                   channels=channels, output=y.index))

    def fold(self, ctx: OpContext):
        channels = read_options(ctx, _ATTRS)["num_channels"]
        x, w, uw, starts, firsts, widths = (np.asarray(t.data).astype(np.int64).tolist() for t in ctx.inputs())
        sums = [0] * (channels + 2)
        for c in range(channels + 1):
            for j in range(widths[c]):
                energy = x[starts[c] + j]
                sums[c] += (w[firsts[c] + j] % (1 << 64)) * energy
                sums[c + 1] += (uw[firsts[c] + j] % (1 << 64)) * energy
        return [np.asarray([s % (1 << 64) for s in sums[1:channels + 1]], dtype=np.uint64)]

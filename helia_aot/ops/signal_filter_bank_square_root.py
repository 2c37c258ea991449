# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBankSquareRoot (TFLM's Signal library, custom operator): the rounded integer square root of
each uint64 channel, shifted right by the scale_bits input (int32 scalar: the exponent SignalFftAutoScale
scaled the frame up by), as uint32. helia_signal_filter_bank_square_root_u64_u32 (TFLM's Sqrt64).
uint64 -> uint32 is the only type pair TFLM's kernel takes. A shift outside 0..31 (undefined in TFLM's C++)
is refused here when scale_bits is constant, else the kernel returns an error at run time; SignalFftAutoScale
gives 0..15."""

from __future__ import annotations

import math

import numpy as np

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, Rule, Variant, register, undefined
from helia_aot.ops.shared.signal import OPTION_KEYS, prepare_rule, read_options, require_rank, unchecked_rule

RANKS = prepare_rule("input and output rank 1, scale_bits a scalar", "filter_bank_square_root_common.cc "
                   "FilterBankSquareRootPrepare", "TF_LITE_ENSURE_EQ(NumDimensions(input / output), 1), "
                   "TF_LITE_ENSURE_EQ(NumDimensions(scale_bits), 0)")
SAME_SHAPE = unchecked_rule("output shape equal to the input's", "FilterBankSquareRootEval (one root per input)")
SHIFT = Rule("scale_bits in 0..31 (checked here when constant, else by the kernel at run time)", undefined(
    "signal/src/filter_bank_square_root.cc FilterBankSqrt", "shifts a uint32 by scale_bits: outside 0..31 undefined "
    "behaviour in C++"))


def rounded_sqrt(n: int) -> int:
    """TFLM's Sqrt64: floor root plus one when the remainder exceeds it, not past 0xFFFF below 2^32 nor past
    0xFFFFFFFF above."""
    root = math.isqrt(n)
    cap = 0xFFFF if n < (1 << 32) else 0xFFFFFFFF
    return root + 1 if n - root * root > root and root != cap else root


@register
class SignalFilterBankSquareRoot(OpLowering):
    op_types = ("CUSTOM:SignalFilterBankSquareRoot",)
    options_table = None
    variants = (
        Variant("uint64", inputs=(Operand("input", ("uint64",)), Operand("scale_bits", ("int32",))),
                outputs=(Operand("output", ("uint32",)),), entries=("helia_signal_filter_bank_square_root_u64_u32",),
                template="signal_filter_bank_square_root.c.j2",
                notes=("no custom options",), rules=(OPTION_KEYS, RANKS, SAME_SHAPE, SHIFT)),
    )

    def validate(self, ctx: OpContext) -> None:
        read_options(ctx, {})
        x, scale, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        require_rank(ctx, x, (1,), "input", RANKS)
        require_rank(ctx, scale, (0,), "scale_bits", RANKS)
        require_rank(ctx, y, (1,), "output", RANKS)
        if tuple(y.shape) != tuple(x.shape):
            raise ctx.error(SAME_SHAPE, y, detail=f"output shape {list(y.shape)} differs from the input shape "
                                                  f"{list(x.shape)}")
        if scale.is_constant and not 0 <= int(np.asarray(scale.data)) <= 31:
            raise ctx.error(SHIFT, scale, detail=f"scale_bits is {int(np.asarray(scale.data))}; a shift of a uint32 "
                                                 "must be in 0..31")

    def lower(self, ctx: OpContext) -> Lowered:
        x, scale, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        return Lowered(entry="helia_signal_filter_bank_square_root_u64_u32",
                       params=dict(input=x.index, scale=scale.index, output=y.index, size=x.shape[0]))

    def fold(self, ctx: OpContext):
        shift = int(np.asarray(ctx.inp(1).data))
        roots = [(rounded_sqrt(int(v)) % (1 << 32)) >> shift for v in np.asarray(ctx.inp(0).data).reshape(-1)]
        return [np.asarray(roots, dtype=np.uint32).reshape(ctx.out(0).shape)]

# SPDX-License-Identifier: Apache-2.0
"""SignalWindow (TFLM's Signal library, custom operator): int16 samples times an int16 window, shifted
right by the `shift` attribute (rounding toward minus infinity) and saturated to int16, the window
repeated over each block of its length. helia_signal_window_s16; int16 is the only type TFLM's kernel
takes."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, Variant, register
from helia_aot.ops.shared.signal import (OPTION_KEYS, OPTION_RANGE, Attr, prepare_rule, read_options, require_rank,
                                         unchecked_rule)

_ATTRS = {"shift": Attr(low=0, high=31)}
RANKS = prepare_rule("input rank 1 or more, window rank 1, output of the input's rank", "window.cc WindowPrepare",
                   "TF_LITE_ENSURE(NumDimensions(input) >= 1), TF_LITE_ENSURE_EQ(NumDimensions(weights), 1), "
                   "TF_LITE_ENSURE_EQ(NumDimensions(input), NumDimensions(output))")
WHOLE_WINDOWS = unchecked_rule("output shape equal to the input's; the input's element count a multiple of the "
                               "window's length", "WindowEval (window by window over the input, into the output)")


@register
class SignalWindow(OpLowering):
    op_types = ("CUSTOM:SignalWindow",)
    options_table = None
    variants = (
        Variant("int16", inputs=(Operand("input", ("int16",)), Operand("window", ("int16",))),
                outputs=(Operand("output", ("int16",)),), entries=("helia_signal_window_s16",),
                template="signal_window.c.j2",
                notes=("custom option shift in 0..31", "window rank 1; the input's element count a multiple of "
                       "its length", "output shape equals the input's", "quantization ignored (plain int16)"),
                rules=(OPTION_KEYS, OPTION_RANGE, RANKS, WHOLE_WINDOWS)),
    )

    def validate(self, ctx: OpContext) -> None:
        read_options(ctx, _ATTRS)
        x, w, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        require_rank(ctx, x, tuple(range(1, 9)), "input", RANKS)
        require_rank(ctx, w, (1,), "window", RANKS)
        if tuple(y.shape) != tuple(x.shape):
            raise ctx.error(WHOLE_WINDOWS, y, detail=f"output shape {list(y.shape)} differs from the input shape "
                                                     f"{list(x.shape)}")
        if w.shape[0] < 1 or x.num_elements % w.shape[0] != 0:
            raise ctx.error(WHOLE_WINDOWS, w, detail=f"the input's {x.num_elements} samples are not whole windows of "
                                                     f"{w.shape[0]} (TFLM applies the window block by block and would "
                                                     "read past the input)")

    def lower(self, ctx: OpContext) -> Lowered:
        shift = read_options(ctx, _ATTRS)["shift"]
        x, w, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        return Lowered(entry="helia_signal_window_s16",
                       params=dict(input=x.index, window=w.index, output=y.index, window_size=w.shape[0],
                                   input_size=x.num_elements, shift=shift))

    def fold(self, ctx: OpContext):
        shift = read_options(ctx, _ATTRS)["shift"]
        x, w = ctx.inp(0), ctx.inp(1)
        blocks = np.asarray(x.data, dtype=np.int64).reshape(-1, w.shape[0])
        out = (blocks * np.asarray(w.data, dtype=np.int64)) >> shift  # numpy's >> rounds toward -inf too
        return [np.clip(out, -32768, 32767).astype(np.int16).reshape(x.shape)]

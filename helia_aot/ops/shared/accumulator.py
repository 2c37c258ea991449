# SPDX-License-Identifier: Apache-2.0
"""What the weighted operators (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, TRANSPOSE_CONV, SVDF) share
about their accumulation: the bound that keeps the accumulator from overflowing, the requantization kind
the plan records, ns-cmsis-nn's offset weight sums, and the int16 kernels' int64 bias and left-shift limit."""

from __future__ import annotations

import numpy as np

from helia_aot.ir.graph import Tensor
from helia_aot.ops.base import ConstArray, OpContext, Rule, kernel_limit


ACCUMULATOR_RULE = Rule("no output channel can overflow the kernel's accumulator (|bias| + input span x sum of "
                        "|weights|)", kernel_limit(
    "ns-cmsis-nn convolution / fully connected entries", "accumulate in int32 (int8 inputs, int32 bias) or int64 "
    "without saturation; LiteRT's reference accumulates in the same widths with no check (overflow is undefined "
    "there), so such a model has no defined reference output"))
S64_SHIFT_RULE = Rule("int16 requantization scale below 2^14 (left shift at most 14)", kernel_limit(
    "arm_nn_requantize_s64 (ns-cmsis-nn int16 kernels)", "shifts right by 14 - shift: a larger left shift is a "
    "negative shift count; LiteRT's MultiplyByQuantizedMultiplier(int64) has the same limit (15 - shift) and "
    "checks shift below 8"))


def requantization_kind(multipliers, shifts) -> str:
    """rshift_only when every channel has a right shift or a zero multiplier (the plan's field)."""
    ok = all(int(s) < 0 or int(m) == 0 for m, s in zip(multipliers, shifts))
    return "rshift_only" if ok else "general"


def check_accumulator(ctx: OpContext, x: Tensor, w: Tensor, b: Tensor | None, channel_axis: int,
                      reads_weight_zero_point: bool = True) -> None:
    """The kernels' accumulator cannot overflow: for every output channel, |bias| plus the largest
    input span times the sum of |weights| fits it (int32 for int8 inputs or an int32 bias, else int64).
    Exported models stay orders of magnitude below; a bias near the limit would overflow in C.
    Float and hybrid layers accumulate in float: nothing to check. `reads_weight_zero_point`: False where the
    kernels (and references) ignore a weight zero point and accumulate the codes as they are (depthwise)."""
    if x.dtype not in ("int8", "int16"):
        return
    span = 255 if x.dtype == "int8" else 1 << 15  # |q - zero point|; int16 is symmetric
    limit = (1 << 31) - 1 if x.dtype == "int8" or (b is not None and b.dtype == "int32") else (1 << 63) - 1
    # The kernels accumulate (weight - zero point): nonzero only for a per-tensor int8 FULLY_CONNECTED.
    weight_zp = (w.quant.zero_point if reads_weight_zero_point and w.quant is not None and not w.quant.per_channel
                 else 0)
    weights = np.abs(np.asarray(w.data, dtype=np.int64) - weight_zp)
    per_channel = np.moveaxis(weights, channel_axis, 0).reshape(weights.shape[channel_axis], -1)
    bound = [int(v) * span for v in per_channel.sum(axis=1).tolist()]
    if b is not None:
        bound = [v + abs(int(c)) for v, c in zip(bound, np.asarray(b.data).reshape(-1).tolist())]
    worst = max(range(len(bound)), key=bound.__getitem__, default=None)
    if worst is not None and bound[worst] > limit:
        raise ctx.error(ACCUMULATOR_RULE, detail=f"output channel {worst} can accumulate {bound[worst]} (|bias| + "
                        f"input span x sum of |weights|), past the kernel's "
                        f"{'int32' if limit < 1 << 32 else 'int64'} accumulator",
                        tensor=b if b is not None else w,
                        hint="Check the bias and weight values: no exporter writes these")


def offset_weight_sums(channel_weight_sums: np.ndarray, bias: np.ndarray | None, input_offset: int) -> np.ndarray:
    """What ns-cmsis-nn's MVE convolutions read from weight_sum_ctx, per output channel:
    bias + input_offset * (sum of that channel's weights), computed once at conversion instead of
    on the device (arm_convolve_weight_sum / arm_depthwise_convolve_weight_sum)."""
    sums = channel_weight_sums.astype(np.int64) * int(input_offset)
    if bias is not None:
        sums = sums + bias.astype(np.int64)
    return sums


# The largest left shift an int64-accumulator requantization takes: LiteRT's
# MultiplyByQuantizedMultiplier(int64) and ns-cmsis-nn's arm_nn_requantize_s64 shift right by
# 15 - shift and 14 - shift; a larger one is a shift by a negative count (undefined in C and C++).
S64_MAX_LEFT_SHIFT = 14


def check_s64_shifts(ctx: OpContext, shifts, out: Tensor) -> None:
    """Refuse an int16 layer whose requantization (input scale x weight scale / output scale) is 2^14 or
    more: no kernel computes it (LiteRT's own check allows shifts below 8). Only a degenerate output
    scale, e.g. calibrated on outputs a fused RELU zeroed, gets there."""
    worst = max(int(v) for v in shifts)
    if worst > S64_MAX_LEFT_SHIFT:
        raise ctx.error(S64_SHIFT_RULE, detail=f"requantization scale 2^{worst - 1} or more (input scale x weight "
                        f"scale / output scale {out.quant.scale:g}) is beyond the int16 kernels' int64 requantization "
                        f"(left shift at most {S64_MAX_LEFT_SHIFT}; LiteRT checks below 8)", tensor=out,
                        hint="Re-calibrate the layer: its output scale is degenerate")


def int64_bias(b: Tensor | None) -> list[ConstArray]:
    """The s16 kernels read an int64 bias: an int32 bias is widened once, at conversion."""
    if b is None or b.dtype == "int64":
        return []
    return [ConstArray("bias64", "int64_t", np.asarray(b.data, dtype=np.int64).reshape(-1),
                       f"bias '{b.name}' widened to int64 for the s16 kernel")]

# SPDX-License-Identifier: Apache-2.0
"""Fixed-point helpers that reproduce TFLite's quantization arithmetic bit for bit."""

from __future__ import annotations

import math

import numpy as np


def tflite_round(x: float) -> int:
    """std::round: half away from zero (TfLiteRound)."""
    return int(math.copysign(math.floor(abs(x) + 0.5), x))


# ns-cmsis-nn computes x * (1 << shift) in int32: a shift of 31 or more is undefined behaviour.
MAX_LEFT_SHIFT = 30


class MultiplierRangeError(ValueError):
    """A requantization multiplier the kernels cannot apply: not finite (the model's scales overflow
    float arithmetic) or 2^30 and more. The lowering stage reports it as the operator's error."""


def _q31(real_multiplier: float) -> tuple[int, int]:
    """real = q_fixed * 2^(shift - 31), q_fixed in [2^30, 2^31) (0, 0 for zero): QuantizeMultiplier before its
    range checks."""
    if not math.isfinite(real_multiplier):
        raise MultiplierRangeError(f"requantization multiplier {real_multiplier} is not finite")
    if real_multiplier == 0.0:
        return 0, 0
    q, shift = math.frexp(real_multiplier)
    q_fixed = tflite_round(q * (1 << 31))
    if q_fixed == (1 << 31):
        q_fixed //= 2
        shift += 1
    return q_fixed, shift


def multiplier_shift(real_multiplier: float) -> int:
    """The shift TFLite's QuantizeMultiplier gives `real_multiplier`, however large: what a reference kernel
    shifts by, for the rules that ask whether that shift overflows."""
    return _q31(real_multiplier)[1]


def quantize_multiplier(real_multiplier: float) -> tuple[int, int]:
    """TFLite's QuantizeMultiplier: real = m * 2^(shift - 31), m in [2^30, 2^31).

    Returns (multiplier, shift) with shift > 0 meaning a left shift, as ns-cmsis-nn expects.
    """
    q_fixed, shift = _q31(real_multiplier)
    if shift < -31:
        # Every bit would be shifted out: TFLite zeroes the multiplier.
        return 0, 0
    if shift > MAX_LEFT_SHIFT:
        raise MultiplierRangeError(f"requantization multiplier {real_multiplier:g} needs a left shift of {shift}; "
                                   f"the kernels shift an int32 left by at most {MAX_LEFT_SHIFT}")
    return int(q_fixed), int(shift)


def quantize_multiplier_greater_than_one(real_multiplier: float) -> tuple[int, int]:
    multiplier, shift = quantize_multiplier(real_multiplier)
    if shift < 0:
        raise ValueError(f"multiplier {real_multiplier} is not >= 1")
    return multiplier, shift


def f32(x: float) -> float:
    """Round a Python float to float32 and back, as TFLite stores scales."""
    return float(np.float32(x))


def quantize_value(value: float, scale: float, zero_point: int) -> int:
    """zero_point + round(value / scale) with the division in float32, as TFLite's activation ranges.

    A quotient past float32's range (a subnormal scale) saturates: the callers clamp to the dtype."""
    with np.errstate(over="ignore"):
        quotient = float(np.float32(value) / np.float32(scale))
    if not math.isfinite(quotient):
        return zero_point + (1 << 40 if quotient > 0 else -(1 << 40))
    return zero_point + tflite_round(quotient)


# The fused activations that clamp (activation_range knows their bounds); TANH and SIGN_BIT are not.
CLAMPING_ACTIVATIONS = ("NONE", None, "RELU", "RELU6", "RELU_N1_TO_1")


def activation_range(activation: str, scale: float, zero_point: int, qmin: int = -128, qmax: int = 127) -> tuple[int, int]:
    """CalculateActivationRangeQuantized for a fused activation on an integer output."""
    if activation in ("NONE", None):
        return qmin, qmax
    if activation == "RELU":
        return max(qmin, quantize_value(0.0, scale, zero_point)), qmax
    if activation == "RELU6":
        return (max(qmin, quantize_value(0.0, scale, zero_point)),
                min(qmax, quantize_value(6.0, scale, zero_point)))
    if activation == "RELU_N1_TO_1":
        return (max(qmin, quantize_value(-1.0, scale, zero_point)),
                min(qmax, quantize_value(1.0, scale, zero_point)))
    raise ValueError(activation)


def per_channel_multipliers(input_scale: float, filter_scales: list[float], output_scale: float,
                            channels: int) -> tuple[list[int], list[int]]:
    """PopulateConvolutionQuantizationParams: effective scale in double, one entry per output channel."""
    mults: list[int] = []
    shifts: list[int] = []
    for c in range(channels):
        fs = filter_scales[c] if len(filter_scales) > 1 else filter_scales[0]
        m, s = quantize_multiplier(float(input_scale) * float(fs) / float(output_scale))
        mults.append(m)
        shifts.append(s)
    return mults, shifts


def softmax_params(beta: float, input_scale: float) -> tuple[int, int, int]:
    """PreprocessSoftmaxScaling + CalculateInputRadius with 5 integer bits (int8 softmax)."""
    integer_bits = 5
    max_real = float((1 << 31) - 1)
    real = min(float(beta) * float(input_scale) * float(1 << (31 - integer_bits)), max_real)
    mult, left_shift = quantize_multiplier_greater_than_one(real)
    max_input_rescaled = (1.0 * ((1 << integer_bits) - 1) * float(1 << (31 - integer_bits))
                          / float(1 << left_shift))
    diff_min = -int(math.floor(max_input_rescaled))
    return mult, left_shift, diff_min

# SPDX-License-Identifier: Apache-2.0
"""LiteRT's scalar arithmetic reproduced bit for bit: std::round, and gemmlowp's fixed point as its
reference kernels use it (MultiplyByQuantizedMultiplier, GetInvSqrtQuantizedMultiplierExp)."""

from __future__ import annotations

import numpy as np


def round_half_away(x):
    """std::round (half away from zero) of float32 or float64 values, scalars or arrays, exact for every
    one: the fraction is the value less its floor (an exact subtraction), never read from x + 0.5, which
    rounds (0.49999997f + 0.5f is 1.0f)."""
    magnitude = np.abs(x)
    whole = np.floor(magnitude)
    with np.errstate(invalid="ignore"):  # inf - inf: the infinity is its own rounding
        return np.copysign(np.where(magnitude - whole >= 0.5, whole + 1, whole), x)


INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1


def _srdhm(a: int, b: int) -> int:
    """gemmlowp SaturatingRoundingDoublingHighMul."""
    if a == b == INT32_MIN:
        return INT32_MAX
    ab = a * b
    nudge = (1 << 30) if ab >= 0 else 1 - (1 << 30)
    total = ab + nudge
    # C++ integer division truncates toward zero.
    q = abs(total) // (1 << 31)
    return q if total >= 0 else -q


def _rounding_divide_by_pot(x: int, exponent: int) -> int:
    mask = (1 << exponent) - 1
    remainder = x & mask
    threshold = (mask >> 1) + (1 if x < 0 else 0)
    return (x >> exponent) + (1 if remainder > threshold else 0)


def _saturating_shift_left(x: int, exponent: int) -> int:
    return max(INT32_MIN, min(INT32_MAX, x << exponent))


def _wrap32(x: int) -> int:
    return (x + (1 << 31)) % (1 << 32) - (1 << 31)


def multiply_by_quantized_multiplier(x: int, multiplier: int, shift: int) -> int:
    left = shift if shift > 0 else 0
    right = 0 if shift > 0 else -shift
    return _rounding_divide_by_pot(_srdhm(_wrap32(x * (1 << left)), multiplier), right)


def inv_sqrt_multiplier_exp(value: int) -> tuple[int, int]:
    """GetInvSqrtQuantizedMultiplierExp(value, kReverseShift): a Newton-Raphson 1/sqrt in gemmlowp fixed
    point (3 integer bits), returned as (multiplier, left shift)."""
    if value <= 1:
        return INT32_MAX, 0
    shift = 11
    while value >= (1 << 29):
        value //= 4
        shift += 1
    max_left_shift_bits = (32 - value.bit_length()) - 1
    pairs = max_left_shift_bits // 2 - 1
    shift -= pairs
    value <<= 2 * pairs
    fixed_input = value >> 1
    half_input = _rounding_divide_by_pot(fixed_input, 1)
    half_three = (1 << 28) + (1 << 27)
    x = 1 << 28  # F3::One()
    for _ in range(5):
        x3 = _saturating_shift_left(_srdhm(_srdhm(x, x), x), 6)  # Rescale<3> of an F9
        x = _saturating_shift_left(_wrap32(_srdhm(half_three, x) - _srdhm(half_input, x3)), 3)  # F6 -> F3
    x = _srdhm(x, 1518500250)  # times sqrt(2) / 2 in F0
    if shift < 0:
        x = _wrap32(x << -shift)
        shift = 0
    return x, -shift


def multiply_by_quantized_multiplier_array(x, multiplier: int, shift: int) -> np.ndarray:
    """multiply_by_quantized_multiplier over an integer array, in int64 (a constant fold's whole tensor at once):
    the product with the left shift wraps to int32 as the C does, the doubling high multiply truncates toward
    zero, the rounding right shift rounds half away from zero."""
    left, right = max(shift, 0), max(-shift, 0)
    x = ((np.asarray(x, dtype=np.int64) << left) - INT32_MIN) % (1 << 32) + INT32_MIN
    product = x * multiplier  # |x|, |multiplier| <= 2^31: exact in int64
    total = product + np.where(product >= 0, 1 << 30, 1 - (1 << 30))
    high = np.where(total >= 0, total >> 31, -(-total >> 31))
    high = np.where((x == INT32_MIN) & (multiplier == INT32_MIN), INT32_MAX, high)
    mask = (1 << right) - 1
    return (high >> right) + ((high & mask) > (mask >> 1) + (high < 0))


def multiply_by_quantized_multiplier_c(name: str, value: str, multiplier: int, shift: int) -> list[str]:
    """C statements declaring int32 `name` = MultiplyByQuantizedMultiplier(value, multiplier, shift), as
    multiply_by_quantized_multiplier computes it: a left shift wrapping to int32 (in uint32_t, so defined),
    the doubling high multiply (truncating toward zero; multiplier > 0, so it never saturates), then a rounding
    right shift (half away from zero)."""
    left, right = max(shift, 0), max(-shift, 0)
    mask = (1 << right) - 1
    shifted = f"(int32_t)((uint32_t)({value}) << {left})" if left else f"({value})"
    return [f"const int64_t {name}_product = (int64_t)({shifted}) * {multiplier};",
            f"const int32_t {name}_high = (int32_t)(({name}_product + ({name}_product >= 0 ? (1LL << 30) : "
            f"(1 - (1LL << 30)))) / (1LL << 31));",
            f"const int32_t {name} = ({name}_high >> {right}) + ((({name}_high & {mask}) > ({mask} >> 1) + "
            f"({name}_high < 0 ? 1 : 0)) ? 1 : 0);"]

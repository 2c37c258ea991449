# SPDX-License-Identifier: Apache-2.0
"""helia_aot/ir/quant.py against exact rational arithmetic and hand-computed values: TFLite's rounding,
QuantizeMultiplier's range edges, activation ranges and the softmax parameters. Written to kill
the mutants mutmut left alive in quant.py."""

from __future__ import annotations

import math
import random
import warnings
from fractions import Fraction

import numpy as np
import pytest

from helia_aot.ir import quant


def _round_half_away(x: Fraction) -> int:
    n = math.floor(abs(x) + Fraction(1, 2))
    return n if x >= 0 else -n


def _multiplier_exact(real: float) -> tuple[int, int]:
    """real = m * 2^(s - 31) with |m| in [2^30, 2^31], rounded half away from zero, by exact arithmetic."""
    r = Fraction(real)
    s = 0
    while abs(r) >= Fraction(2) ** s:
        s += 1
    while abs(r) < Fraction(2) ** (s - 1):
        s -= 1
    m = _round_half_away(r * Fraction(2) ** (31 - s))
    if abs(m) == 1 << 31:
        m //= 2
        s += 1
    return m, s


def test_tflite_round_is_half_away_from_zero():
    cases = {0.0: 0, 0.49: 0, 0.5: 1, 1.5: 2, 2.5: 3, -0.5: -1, -1.5: -2, -2.5: -3, -0.49: 0, 7.2: 7, -7.7: -8}
    assert {x: quant.tflite_round(x) for x in cases} == cases


@pytest.mark.parametrize("seed", range(8))
def test_quantize_multiplier_matches_exact_arithmetic(seed):
    rng = random.Random(seed)
    for _ in range(200):
        real = rng.uniform(0.5, 1.0) * 2.0 ** rng.randrange(-30, 31) * rng.choice((1, -1))
        m, s = quant.quantize_multiplier(real)
        assert (m, s) == _multiplier_exact(real), real
        assert (1 << 30) <= abs(m) < (1 << 31)


def test_quantize_multiplier_shift_edges():
    # The largest left shift the kernels accept is 30: [2^29, 2^30) is fine, 2^30 is refused.
    assert quant.quantize_multiplier(2.0 ** 29) == (1 << 30, 30)
    assert quant.quantize_multiplier(2.0 ** 30 * 0.75) == (3 << 29, 30)
    with pytest.raises(quant.MultiplierRangeError, match="needs a left shift of 31; the kernels shift an int32 "
                                                          "left by at most 30"):
        quant.quantize_multiplier(2.0 ** 30)
    # Down to a right shift of 31 the multiplier is kept; one more and TFLite zeroes it.
    assert quant.quantize_multiplier(2.0 ** -32) == (1 << 30, -31)
    assert quant.quantize_multiplier(0.75 * 2.0 ** -31) == (3 << 29, -31)
    assert quant.quantize_multiplier(2.0 ** -33) == (0, 0)
    assert quant.quantize_multiplier(-(2.0 ** -33)) == (0, 0)
    for bad in (math.inf, -math.inf, math.nan):
        with pytest.raises(quant.MultiplierRangeError, match=f"multiplier {bad} is not finite"):
            quant.quantize_multiplier(bad)
    assert issubclass(quant.MultiplierRangeError, ValueError)


def test_quantize_multiplier_rounding_carry_bumps_the_shift():
    # Just below a power of two: q * 2^31 rounds to 2^31, so the result is 2^30 at one more shift.
    below = 4.0 - 2.0 ** -30
    assert quant.quantize_multiplier(below) == (1 << 30, 3)
    # Just below 2^30 the carry would make the shift 31: refused, not wrapped.
    with pytest.raises(quant.MultiplierRangeError):
        quant.quantize_multiplier(2.0 ** 30 - 2.0 ** -20)


def test_quantize_multiplier_greater_than_one():
    assert quant.quantize_multiplier_greater_than_one(1.0) == (1 << 30, 1)
    assert quant.quantize_multiplier_greater_than_one(0.5) == (1 << 30, 0)  # shift 0 is still accepted
    with pytest.raises(ValueError, match="multiplier 0.4 is not >= 1"):
        quant.quantize_multiplier_greater_than_one(0.4)


def test_f32_rounds_to_float32():
    assert quant.f32(0.1) == float(np.float32(0.1)) != 0.1
    assert quant.f32(1.0 + 2.0 ** -30) == 1.0
    assert quant.f32(3.0) == 3.0


def test_quantize_value_divides_in_float32():
    # In double 0.15 / 0.1 is 1.4999999999999998 (rounds to 1) and 0.65 / 0.1 is 6.5 (rounds to 7); in
    # float32, as TFLite divides, they are 1.5 and 6.4999995: 2 and 6.
    assert quant.quantize_value(0.15, 0.1, 0) == 2 and quant.quantize_value(0.65, 0.1, 0) == 6
    assert quant.quantize_value(-0.15, 0.1, 3) == 1
    assert quant.quantize_value(6.0, 0.5, -3) == 9
    assert quant.quantize_value(-1.0, 0.25, 5) == 1
    assert quant.quantize_value(0.25, 0.5, 0) == 1 and quant.quantize_value(-0.25, 0.5, 0) == -1
    # Past float32's range the quotient saturates far beyond any integer type, on the value's side.
    assert quant.quantize_value(6.0, 1e-45, 0) > 2 ** 32
    assert quant.quantize_value(-1.0, 1e-45, 0) < -(2 ** 32)
    assert quant.quantize_value(6.0, 1e-45, 7) - quant.quantize_value(6.0, 1e-45, 0) == 7


def test_quantize_value_overflow_is_silent():
    # The saturating path is expected, not a numerical accident: no RuntimeWarning reaches the user.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert quant.quantize_value(6.0, 1e-45, 0) > 2 ** 32


def test_activation_ranges_hand_computed():
    # scale 0.05, zero point -10: real 0 -> -10, 6 -> 110, -1 -> -30, 1 -> 10.
    assert quant.activation_range("NONE", 0.05, -10) == (-128, 127)
    assert quant.activation_range(None, 0.05, -10) == (-128, 127)
    assert quant.activation_range("RELU", 0.05, -10) == (-10, 127)
    assert quant.activation_range("RELU6", 0.05, -10) == (-10, 110)
    assert quant.activation_range("RELU_N1_TO_1", 0.05, -10) == (-30, 10)
    # Clamped to the type's range.
    assert quant.activation_range("RELU", 0.05, -200) == (-128, 127)
    assert quant.activation_range("RELU6", 0.01, 0) == (0, 127)
    assert quant.activation_range("RELU_N1_TO_1", 0.001, 0) == (-128, 127)
    assert quant.activation_range("RELU6", 0.001, 0, -32768, 32767) == (0, 6000)
    assert quant.activation_range("NONE", 1.0, 0, -32768, 32767) == (-32768, 32767)
    with pytest.raises(ValueError, match="TANH"):
        quant.activation_range("TANH", 0.05, 0)


def test_per_channel_multipliers_per_channel_and_shared():
    scales = [0.01, 0.02, 0.04]
    mults, shifts = quant.per_channel_multipliers(0.5, scales, 0.25, 3)
    assert list(zip(mults, shifts)) == [_multiplier_exact(0.5 * s / 0.25) for s in scales]
    # Two channels, two scales: each channel its own.
    mults, shifts = quant.per_channel_multipliers(0.5, [0.01, 0.03], 0.25, 2)
    assert list(zip(mults, shifts)) == [_multiplier_exact(0.5 * 0.01 / 0.25), _multiplier_exact(0.5 * 0.03 / 0.25)]
    # One scale for the whole filter: every channel uses it.
    mults, shifts = quant.per_channel_multipliers(0.5, [0.03], 0.25, 4)
    assert list(zip(mults, shifts)) == [_multiplier_exact(0.5 * 0.03 / 0.25)] * 4


@pytest.mark.parametrize("beta,input_scale", [(1.0, 1.0 / 64), (1.0, 0.1), (0.5, 0.05), (2.0, 0.003), (1.0, 1.0)])
def test_softmax_params_against_exact_arithmetic(beta, input_scale):
    real = beta * input_scale * 2.0 ** 26  # 5 integer bits: 2^(31 - 5)
    want_mult, want_shift = _multiplier_exact(real)
    mult, shift, diff_min = quant.softmax_params(beta, input_scale)
    assert (mult, shift) == (want_mult, want_shift)
    assert diff_min == -math.floor(Fraction(31 * 2 ** 26, 2 ** want_shift))

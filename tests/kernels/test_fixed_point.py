# SPDX-License-Identifier: Apache-2.0
"""The shared fixed-point helpers (requantization, gemmlowp exp and reciprocal) against hand-worked values
and the Python reference."""

from __future__ import annotations

import numpy as np
import pytest

import kernel_build as kb
import reference as ref

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1


def evaluate(program, calls: list[tuple]) -> list[int]:
    text = "\n".join(" ".join(str(int(v)) if not isinstance(v, str) else v for v in call) for call in calls)
    return [int(line) for line in kb.run_program(program, text + "\n").split()]


@pytest.mark.parametrize("x, mult, shift, expected", [
    (100, 2**30, 0, 50),          # x * 0.5
    (3, 2**30, -1, 1),            # 0.75 -> 1
    (-3, 2**30, -1, -1),          # -0.75 -> -1
    (5, 2**30, -2, 1),            # 0.625 -> 1
    (6, 2**30, -2, 1),            # 0.75 -> 1 (after rounding 3 / 4)
    (7, 2**30, 2, 14),            # 7 * 4 * 0.5
    (1000, INT32_MAX, -3, 125),   # ~1.0 / 8
])
def test_requantize_hand_worked(fixed_point_program, x, mult, shift, expected):
    assert evaluate(fixed_point_program, [("requantize", x, mult, shift)]) == [expected]


@pytest.mark.parametrize("x, exponent, expected", [
    (5, 1, 3), (-5, 1, -3), (4, 1, 2), (-6, 2, -2), (-5, 2, -1), (7, 0, 7), (INT32_MAX, 31, 1), (-(2**30), 31, -1),
    (2**31 - 1, 33, 0),  # exponents above 31 stay exact
])
def test_rounding_divide_by_pot_rounds_half_away_from_zero(fixed_point_program, x, exponent, expected):
    assert evaluate(fixed_point_program, [("rounding_divide_by_pot", x, exponent)]) == [expected]


def test_doubling_high_mul_saturates_only_min_times_min(fixed_point_program):
    got = evaluate(fixed_point_program, [
        ("sat_rounding_doubling_high_mul", INT32_MIN, INT32_MIN),
        ("sat_rounding_doubling_high_mul", INT32_MAX, INT32_MAX),
        ("sat_rounding_doubling_high_mul", 2**30, 2**30),
        ("rounding_doubling_high_mul", -(2**30), 3),  # -1.5 rounds half up to -1
    ])
    assert got == [INT32_MAX, INT32_MAX - 1, 2**29, -1]


def test_exp_and_reciprocal_hand_worked(fixed_point_program):
    got = evaluate(fixed_point_program, [
        ("exp_on_negative_values", 0),
        ("exp_on_negative_values", -(2**26)),      # exp(-1)
        ("exp_on_negative_values", -(2**26) // 4),  # exp(-1/4)
        ("one_over_one_plus_x", 0),                 # 1/1
        ("one_over_one_plus_x", INT32_MAX),         # 1/2
    ])
    # gemmlowp's polynomial and Newton steps are accurate to about 2^-20 relative.
    assert got[0] == INT32_MAX
    assert abs(got[1] - np.exp(-1.0) * 2**31) < 2**11
    assert abs(got[2] - np.exp(-0.25) * 2**31) < 2**11
    assert abs(got[3] - INT32_MAX) < 2**11
    assert abs(got[4] - 2**30) < 2**11


def test_count_leading_zeros(fixed_point_program):
    got = evaluate(fixed_point_program, [("count_leading_zeros", v) for v in (0, 1, 2**31, 2**20 + 5, 2**32 - 1)])
    assert got == [32, 31, 0, 11, 0]


def test_s16_helpers_hand_worked(fixed_point_program):
    got = evaluate(fixed_point_program, [
        ("sat_rounding_doubling_high_mul_s16", -32768, -32768),
        ("sat_rounding_doubling_high_mul_s16", 16384, 16384),     # 0.5 * 0.5
        ("sat_truncating_doubling_high_mul_s16", -3, 16384),      # -1.5 truncated towards zero
        ("saturating_shift_left_s16", 300, 7),                    # 38400 saturates
        ("saturating_shift_left_s16", -2, 3),
    ])
    assert got == [32767, 8192, -1, 32767, -16]


def test_helpers_match_python_reference_on_random_values(fixed_point_program):
    rng = np.random.default_rng(7)
    calls, expected = [], []
    for _ in range(400):
        a, b = (int(v) for v in rng.integers(INT32_MIN, INT32_MAX, size=2, endpoint=True))
        mult = int(rng.integers(2**30, 2**31))
        shift = int(rng.integers(-31, 8))
        x = int(rng.integers(-(2**23), 2**23))  # accumulator-sized, so left shifts stay in range
        e = int(rng.integers(0, 32))
        neg = -int(rng.integers(0, 2**31))
        frac = int(rng.integers(0, 2**31))
        calls += [("sat_rounding_doubling_high_mul", a, b), ("rounding_doubling_high_mul", a, mult),
                  ("rounding_divide_by_pot", a, e), ("requantize", x, mult, shift),
                  ("exp_on_negative_values", neg), ("one_over_one_plus_x", frac)]
        expected += [ref.sat_rounding_doubling_high_mul(a, b), ref.rounding_doubling_high_mul(a, mult),
                     ref.rounding_divide_by_pot(a, e), ref.requantize(x, mult, shift),
                     ref.exp_on_negative_values(neg), ref.one_over_one_plus_x(frac)]
    assert evaluate(fixed_point_program, calls) == expected


def test_requantize_is_within_one_of_real_scaling(fixed_point_program):
    rng = np.random.default_rng(11)
    calls, real = [], []
    for _ in range(300):
        x, mult, shift = int(rng.integers(-(2**20), 2**20)), int(rng.integers(2**30, 2**31)), int(rng.integers(-20, 1))
        calls.append(("requantize", x, mult, shift))
        real.append(x * mult / 2**31 * 2.0**shift)
    got = evaluate(fixed_point_program, calls)
    assert max(abs(g - r) for g, r in zip(got, real)) <= 1.0


# ---- int64 accumulators (the int16-activation kernels) ---------------------------------------------

@pytest.mark.parametrize("multiplier, expected", [
    (2**30, 2**14),             # 0.5 is exact in Q15
    (1518500250, 23170),        # 0.70710678: 1518500250 / 2^16 = 23170.48
    (0x7FFEFFFF, 0x7FFF),       # rounds up to the cap
    (0x7FFF0000, 0x7FFF),       # capped, not rounded to 0x8000
    (INT32_MAX, 0x7FFF),
])
def test_reduce_multiplier(fixed_point_program, multiplier, expected):
    assert evaluate(fixed_point_program, [("reduce_multiplier", multiplier)]) == [expected]


@pytest.mark.parametrize("acc, mult, shift, expected", [
    (100, 2**30, 1, 100),                 # 0.5 * 2: identity
    (100000, 1518500250, -2, 17677),      # floor(100000 * 23170 / 2^16) = 35354, (35354 + 1) >> 1
    (3, 2**30, -1, 1),                    # 0.75 rounds up
    (-3, 2**30, -1, -1),                  # -0.75 rounds up to -1 (ties and all towards +infinity)
    (-1, 2**30, 0, 0),                    # -0.5 is a tie: up to 0
    (1, 2**30, 0, 1),                     # 0.5 is a tie: up to 1
    (2**40, 2**30, -20, 2**19),           # 64-bit accumulators beyond int32
    (2**31 + 2, 2**30, 0, -(2**30) + 1),  # kept to 32 bits before the last halving: 2^31 + 2 wraps negative
    (2**31 - 1, 2**30, 0, -(2**30)),      # and so does adding the rounding half to INT32_MAX
])
def test_requantize_s64_hand_worked(fixed_point_program, acc, mult, shift, expected):
    assert evaluate(fixed_point_program, [("requantize_s64", acc, mult, shift)]) == [expected]


def test_requantize_s64_matches_reference(fixed_point_program):
    rng = np.random.default_rng(64)
    calls = [("requantize_s64", int(rng.integers(-(2**45), 2**45)) >> int(rng.integers(0, 40)),
              int(rng.integers(2**30, 2**31)), int(rng.integers(-31, 15))) for _ in range(400)]
    expected = [ref.requantize_s64(acc, mult, shift) for _, acc, mult, shift in calls]
    assert evaluate(fixed_point_program, calls) == expected


def test_wrap_s32(fixed_point_program):
    values = [0, -1, INT32_MAX, INT32_MIN, 2**31, 2**32 + 5, -(2**31) - 1, -(2**40) - 7]
    assert evaluate(fixed_point_program, [("wrap_s32", v) for v in values]) == [ref.wrap32(v) for v in values]


def test_wrapping_helpers(fixed_point_program):
    got = evaluate(fixed_point_program, [
        ("add_wrapping", INT32_MAX, 1), ("add_wrapping", -5, 3), ("mul_wrapping", 65536, 65536),
        ("mul_wrapping", -70000, 70000), ("wrap_s16", 32768), ("wrap_s16", -32769), ("wrap_s16", 131072 - 98304),
        ("wrap_s16", -7),
    ])
    assert got == [INT32_MIN, -2, 0, ref.wrap32(-70000 * 70000), -32768, 32767, -32768, -7]

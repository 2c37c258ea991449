# SPDX-License-Identifier: Apache-2.0
"""int16 QUANTIZE (int16 -> int16, float32 -> int16) and DEQUANTIZE (int16 -> float32)."""

from __future__ import annotations

import numpy as np

import cases
import records as R
import reference as ref

ALL_INT16 = np.arange(-32768, 32768)


def test_requantize_s16_s16(portable_driver):
    # scale x2 (0.5 * 2^2), zero points 10 -> -5
    got = portable_driver.one(R.unary_record("arm_requantize_s16_s16", [2**30, 2, 10, -5], [10, 11, 20, -30000, 30000]))
    assert (got.status, got.values.tolist()) == (0, [-5, -3, 15, -32768, 32767])
    rng = np.random.default_rng(81)
    for _ in range(5):
        m, s, zi, zo = cases.requantize_s16_args(rng)
        want = [ref.clamp(ref.requantize(int(v) - zi, m, s) + zo, -32768, 32767) for v in ALL_INT16]
        np.testing.assert_array_equal(portable_driver.one(R.unary_record("arm_requantize_s16_s16", [m, s, zi, zo],
                                                                         ALL_INT16)).values, want)


def test_quantize_f32_s16_rounds_half_away_from_zero(portable_driver):
    values = [0.0, 0.25, 0.75, 1.25, 2.5, -2.5, 3.5, -0.5, 0.49999997, 1e9, -1e9, 32767.4, -32768.6]
    got = portable_driver.one(R.quantize_f32_s16_record(0, 0.5, values))   # x / 0.5
    assert (got.status, got.values.tolist()) == (0, [0, 1, 2, 3, 5, -5, 7, -1, 1, 32767, -32768, 32767, -32768])
    shifted = portable_driver.one(R.quantize_f32_s16_record(100, 1.0, [0.5, -0.5, -32800.0, -32900.0]))
    assert shifted.values.tolist() == [101, 99, -32700, -32768]   # the zero point is added before clamping


def test_quantize_f32_s16_matches_reference(portable_driver):
    rng = np.random.default_rng(82)
    for _ in range(10):
        zero_point, scale, values = cases.quantize_f32_s16_args(rng)
        got = portable_driver.one(R.quantize_f32_s16_record(zero_point, scale, values)).values
        np.testing.assert_array_equal(got, ref.quantize_f32_s16(values, zero_point, scale))


def test_dequantize_s16_f32_is_exact(portable_driver):
    got = portable_driver.one(R.dequantize_s16_f32_record(3, 0.25, [3, 4, -32768, 32767]))
    assert got.status == 0
    assert R.f32_from_bits(got.values).tolist() == [0.0, 0.25, -8192.75, 8191.0]
    rng = np.random.default_rng(83)
    for _ in range(5):
        zero_point, scale = cases.s16_offset(rng), cases.s16_scale(rng)
        got = R.f32_from_bits(portable_driver.one(R.dequantize_s16_f32_record(zero_point, scale, ALL_INT16)).values)
        np.testing.assert_array_equal(got.view(np.int32), ref.dequantize_s16_f32(ALL_INT16, zero_point, scale).view(np.int32))


def test_quantize_inverts_dequantize(portable_driver):
    rng = np.random.default_rng(84)
    scale = cases.s16_scale(rng)
    floats = R.f32_from_bits(portable_driver.one(R.dequantize_s16_f32_record(0, scale, ALL_INT16)).values)
    back = portable_driver.one(R.quantize_f32_s16_record(0, scale, floats)).values
    np.testing.assert_array_equal(back, ALL_INT16)

# SPDX-License-Identifier: Apache-2.0
"""int8 QUANTIZE (requantize), RELU / clamp / RELU6, LEAKY_RELU and HARD_SWISH."""

from __future__ import annotations

import numpy as np

import cases
import records as R
import reference as ref

ALL_INT8 = np.arange(-128, 128)


def run(driver, name, scalars, data=ALL_INT8):
    result = driver.one(R.unary_record(name, scalars, data))
    assert result.status == 0
    return result.values


def test_requantize_s8_s8(portable_driver):
    # scale x2 (0.5 * 2^2), zero point 10 -> -5
    got = run(portable_driver, "arm_requantize_s8_s8", [2**30, 2, 10, -5], [10, 11, 20, -100, 127])
    assert got.tolist() == [-5, -3, 15, -128, 127]
    rng = np.random.default_rng(8)
    for _ in range(10):
        m, s, zi, zo = cases.requantize_args(rng)
        np.testing.assert_array_equal(run(portable_driver, "arm_requantize_s8_s8", [m, s, zi, zo]),
                                      ref.requantize_s8(ALL_INT8, m, s, zi, zo))


def test_relu_cuts_below_output_zero_point(portable_driver):
    got = run(portable_driver, "arm_relu_s8", [5, -3, 2**30, 1], [-100, 4, 5, 6, 100])
    assert got.tolist() == [-3, -3, -3, -2, 92]


def test_clamp_and_relu6(portable_driver):
    assert run(portable_driver, "arm_clamp_s8", [-5, 9], [-100, -5, 0, 9, 100]).tolist() == [-5, -5, 0, 9, 9]
    assert run(portable_driver, "arm_relu6_q7", [], [-3, 0, 4, 6, 7, 127]).tolist() == [0, 0, 4, 6, 6, 6]


def test_leaky_relu(portable_driver):
    # alpha 0.25 (2^30 * 2^-1), identity 1 (2^30 * 2^1), zero points 0
    got = run(portable_driver, "arm_leaky_relu_s8", [0, 0, 2**30, -1, 2**30, 1], [-8, -7, 0, 7, 127])
    assert got.tolist() == [-2, -2, 0, 7, 127]
    rng = np.random.default_rng(9)
    for _ in range(10):
        zi, zo, ma, sa, mi, si = cases.leaky_relu_args(rng)
        want = [ref.clamp(ref.requantize(int(v) - zi, mi if v >= zi else ma, si if v >= zi else sa) + zo, -128, 127)
                for v in ALL_INT8]
        np.testing.assert_array_equal(run(portable_driver, "arm_leaky_relu_s8", [zi, zo, ma, sa, mi, si]), want)


def test_hard_swish_precise_tracks_real_hard_swish(portable_driver):
    rng = np.random.default_rng(10)
    for _ in range(10):
        zi, zo, m, s, q3, q6, prescale = cases.hard_swish_precise_args(rng)
        got = run(portable_driver, "arm_hard_swish_precise_s8", [zi, zo, m, s, q3, q6, prescale])
        want = []
        for v in ALL_INT8:
            x = int(v) - zi
            r = ref.clamp(x + q3, 0, q6)
            r = (r + (1 << (prescale - 1))) >> prescale if prescale else r
            want.append(ref.clamp(ref.requantize(x * r, m, s) + zo, -128, 127))
        np.testing.assert_array_equal(got, want)


def sat16(v):
    return max(-32768, min(32767, v))


def compat_reference(v, zi, zo, out_fp, out_exp, relu_fp, relu_exp):
    """TFLite's reference int8 HardSwish, step by step on 16-bit values."""
    def sqrdmulh(a, b):
        return 32767 if a == b == -32768 else sat16((a * b * 2 + (1 << 15)) >> 16)

    def sqdmulh(a, b):
        p = a * b
        return 32767 if a == b == -32768 else sat16(abs(p) // 32768 * (1 if p >= 0 else -1))

    hires = sat16((int(v) - zi) * 128)
    scaled = sqrdmulh(hires, out_fp)
    rel = hires
    if relu_exp > 0:
        rel = sat16(rel * 2 ** (relu_exp - 1))
        rel = sat16(sqrdmulh(rel, relu_fp) * 2)
    else:
        rel = sqrdmulh(rel, relu_fp)
        if relu_exp < 0:
            rel = sat16(ref.rounding_divide_by_pot(rel, -relu_exp))
    rel = (rel + 32768) >> 1
    y = sqdmulh(rel, scaled)
    if out_exp < 0:
        y = sat16(ref.rounding_divide_by_pot(y, -out_exp))
    return ref.clamp(y + zo, -128, 127)


def test_hard_swish_compat_matches_tflite_reference_steps(portable_driver):
    rng = np.random.default_rng(12)
    for _ in range(10):
        args = cases.hard_swish_compat_args(rng)
        got = run(portable_driver, "arm_hard_swish_compat_s8", args)
        np.testing.assert_array_equal(got, [compat_reference(v, *args) for v in ALL_INT8])


def test_hard_swish_compat_rejects_positive_output_exponent(portable_driver):
    assert portable_driver.one(R.unary_record("arm_hard_swish_compat_s8", [0, 0, 20000, 1, 20000, 0], [1])).status == -1

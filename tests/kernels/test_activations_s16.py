# SPDX-License-Identifier: Apache-2.0
"""int16 LOGISTIC / TANH, RELU family, LEAKY_RELU, HARD_SWISH and clamp."""

from __future__ import annotations

import math

import numpy as np
import pytest

import cases
import records as R
import reference as ref

ALL_INT16 = np.arange(-32768, 32768)
SOME_INT16 = np.arange(-32768, 32768, 97)


def run(driver, name, scalars, data=ALL_INT16):
    result = driver.one(R.unary_record(name, scalars, data))
    assert result.status == 0
    return result.values


# ---- LOGISTIC / TANH ------------------------------------------------------------------------------

def test_sigmoid_table_is_sigmoid_of_i_over_24():
    """TFLite's table is tuned for interpolation, so it is not a plain rounding; it stays within 1.5 of it."""
    table = ref.sigmoid_table()
    assert len(table) == 256 and table[0] == 32768 and table[-1] == 65535
    assert all(b >= a for a, b in zip(table, table[1:]))
    assert max(abs(v - 65536 / (1 + math.exp(-i / 24))) for i, v in enumerate(table)) < 1.5


def test_logistic_and_tanh_hand_worked(portable_driver):
    # input scale 2^-12 (Q3.12): multiplier 0 (power of two), left shift 0; outputs in Q0.15
    inputs = [0, 4096, -4096, 32767, -32768]
    sig = run(portable_driver, "arm_logistic_s16", [0, 0], inputs)
    tanh = run(portable_driver, "arm_tanh_s16", [0, 0], inputs)
    assert sig.tolist()[0] == 16384 and tanh.tolist()[0] == 0
    assert abs(sig[1] - 32768 / (1 + math.exp(-1))) <= 2 and abs(sig[2] - 32768 / (1 + math.exp(1))) <= 2
    assert abs(tanh[1] - 32768 * math.tanh(1)) <= 2 and tanh[1] == -tanh[2]
    # +-8.0: sigmoid(8) * 32768 = 32757.0, tanh(8) saturates
    assert sig.tolist()[3:] == [32757, 11] and tanh.tolist()[3:] == [32767, -32767]


@pytest.mark.parametrize("name, is_tanh", [("arm_logistic_s16", False), ("arm_tanh_s16", True)])
@pytest.mark.parametrize("scale", [2.0**-12, 2.0**-11, 1.0 / 32767, 5.0 / 32767, 12.0 / 32767, 2.0**-13])
def test_logistic_tanh_match_tflite_reference_and_float(portable_driver, name, is_tanh, scale):
    multiplier, left_shift = cases.logistic_tanh_params(scale, is_tanh)
    got = run(portable_driver, name, [multiplier, left_shift])
    np.testing.assert_array_equal(got, ref.logistic_tanh_s16(ALL_INT16, multiplier, left_shift, is_tanh,
                                                             ref.sigmoid_table()))
    real = np.tanh(ALL_INT16 * scale) if is_tanh else 1 / (1 + np.exp(-ALL_INT16 * scale))
    assert np.max(np.abs(got - np.clip(real * 32768, -32768, 32767))) <= 5


@pytest.mark.parametrize("left_shift", [-3, -2, -1, 0, 1, 2])
@pytest.mark.parametrize("kind", [0, 1])
def test_nn_activation_is_logistic_tanh_for_power_of_two_scales(portable_driver, left_shift, kind):
    """arm_nn_activation_s16(left_shift) == arm_logistic_s16 / arm_tanh_s16 with multiplier 0 and
    shift left_shift (left_shift >= 0) or multiplier 3 and shift -left_shift."""
    got = run(portable_driver, "arm_nn_activation_s16", [left_shift, kind], SOME_INT16)
    args = [0, left_shift] if left_shift >= 0 else [3, -left_shift]
    same = run(portable_driver, "arm_tanh_s16" if kind else "arm_logistic_s16", args, SOME_INT16)
    np.testing.assert_array_equal(got, same)
    np.testing.assert_array_equal(got, ref.logistic_tanh_s16(SOME_INT16, *args, bool(kind), ref.sigmoid_table()))


def test_tflite_power_of_two_detection():
    assert cases.logistic_tanh_params(2.0**-12, False) == (0, 0)
    assert cases.logistic_tanh_params(2.0**-11, True) == (0, 1)
    assert cases.logistic_tanh_params(2.0**-11, False) == (24576, 12)   # 2^-11 * 12288 * 2^12
    assert cases.logistic_tanh_params(2.0**-13, True) == (24576, 14)


# ---- RELU family / clamp ----------------------------------------------------------------------------

def test_relu_cuts_below_output_zero_point(portable_driver):
    # same scale (multiplier 0.5 * 2^1), output zero point 0
    assert run(portable_driver, "arm_relu_s16", [0, 0, 2**30, 1], [-1000, -1, 0, 1, 32767]).tolist() == [0, 0, 0, 1, 32767]


def test_relu_generic_matches_reference(portable_driver):
    rng = np.random.default_rng(41)
    for _ in range(10):
        zi, zo, m, s, lo, hi = cases.relu_generic_s16_args(rng)
        want = [ref.clamp(ref.requantize(int(v) - zi, m, s) + zo, max(lo, -32768), min(hi, 32767)) for v in SOME_INT16]
        np.testing.assert_array_equal(run(portable_driver, "arm_relu_generic_s16", [zi, zo, m, s, lo, hi], SOME_INT16), want)


def test_relu6_at_scale_2_to_minus_10(portable_driver):
    got = run(portable_driver, "arm_relu_generic_s16", [0, 0, 2**30, 1, 0, 6 * 1024], [-5, 100, 6144, 6145, 30000])
    assert got.tolist() == [0, 100, 6144, 6144, 6144]


def test_clamp(portable_driver):
    assert run(portable_driver, "arm_clamp_s16", [-1024, 1024], [-32768, -1025, -1024, 0, 1024, 32767]).tolist() == \
        [-1024, -1024, -1024, 0, 1024, 1024]


# ---- LEAKY_RELU / HARD_SWISH ----------------------------------------------------------------------------

def test_leaky_relu(portable_driver):
    # alpha 0.25 (2^30 * 2^-1), identity 1 (2^30 * 2^1)
    got = run(portable_driver, "arm_leaky_relu_s16", [0, 0, 2**30, -1, 2**30, 1], [-32768, -7, 0, 7, 32767])
    assert got.tolist() == [-8192, -2, 0, 7, 32767]
    rng = np.random.default_rng(43)
    for _ in range(8):
        zi, zo, ma, sa, mi, si = cases.leaky_relu_s16_args(rng)
        want = [ref.clamp(ref.requantize(int(v) - zi, mi if v >= zi else ma, si if v >= zi else sa) + zo, -32768, 32767)
                for v in SOME_INT16]
        np.testing.assert_array_equal(run(portable_driver, "arm_leaky_relu_s16", [zi, zo, ma, sa, mi, si], SOME_INT16),
                                      want)


def test_hard_swish_precise_tracks_real_hard_swish(portable_driver):
    rng = np.random.default_rng(47)
    for _ in range(8):
        in_scale, out_scale = cases.s16_scale(rng, 2.0, 12.0), cases.s16_scale(rng, 2.0, 12.0)
        relu_q3, relu_q6 = round(3 / in_scale), round(6 / in_scale)
        prescale = cases.hard_swish_prescale(relu_q6)
        m, s = cases.quantize_multiplier(in_scale * in_scale * (1 << prescale) / (6 * out_scale))
        got = run(portable_driver, "arm_hard_swish_precise_s16", [0, 0, m, s, relu_q3, relu_q6, prescale], SOME_INT16)
        want = []
        for v in SOME_INT16:
            r = ref.clamp(int(v) + relu_q3, 0, relu_q6)
            r = (r + (1 << (prescale - 1))) >> prescale if prescale else r
            want.append(ref.clamp(ref.requantize(int(v) * r, m, s), -32768, 32767))
        np.testing.assert_array_equal(got, want)
        x = SOME_INT16 * in_scale
        real = x * np.clip(x + 3, 0, 6) / 6 / out_scale
        assert np.max(np.abs(got - np.clip(real, -32768, 32767))) <= 2 + (1 << prescale)


def test_hard_swish_precise_needs_a_prescale_for_fine_input_scales():
    assert cases.hard_swish_prescale(round(6 / (6.0 / 32767))) == 0   # input range +-6: no overflow
    assert cases.hard_swish_prescale(round(6 / (1.0 / 32767))) == 2   # range +-1: 32768 * 196602 > 2^31


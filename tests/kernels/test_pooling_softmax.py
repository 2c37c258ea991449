# SPDX-License-Identifier: Apache-2.0
"""AVERAGE_POOL_2D, MAX_POOL_2D and SOFTMAX: hand-worked values and the Python reference."""

from __future__ import annotations

import numpy as np
import pytest

import cases
import kernel_build as kb
import records as R
import reference as ref

# A window of 2^30 x 2^30 on a 2x3 image (the converter allows 2^16 per side, as LiteRT does; the kernels take
# any). Walking every tap (2^60) would never return; the kernels walk the in-bounds part only, so the call is
# a global pool.
HUGE = 1 << 30
HUGE_WINDOW_SECONDS = 30


@pytest.mark.parametrize("name, data, expected", [
    ("arm_avgpool_s8", [1, 2, 3, 4], 3),       # 2.5 rounds away from zero
    ("arm_avgpool_s8", [-1, -2, -3, -4], -3),
    ("arm_avgpool_s8", [1, 1, 1, 2], 1),       # 1.25
    ("arm_max_pool_s8", [1, -2, 3, -4], 3),
])
def test_2x2_window_hand_worked(portable_driver, name, data, expected):
    result = portable_driver.one(R.pool_record(name, (2, 2), (0, 0), (-128, 127), (1, 2, 2, 1), (2, 2), (1, 1, 1, 1),
                                               data))
    assert (result.status, result.values.tolist()) == (0, [expected])


@pytest.mark.parametrize("name, expected", [
    ("arm_avgpool_s8", [0, 2]),    # channel sums 1 and 13 over 6 pixels
    ("arm_max_pool_s8", [9, 7]),
])
def test_window_far_larger_than_the_input_is_a_global_pool(portable_driver, name, expected):
    data = [-5, 7, 3, -2, 9, 1, -8, 4, 2, 6, 0, -3]  # 2x3 pixels, 2 channels
    record = R.pool_record(name, (1, 1), (HUGE // 2, HUGE // 2), (-128, 127), (1, 2, 3, 2), (HUGE, HUGE), (1, 1, 1, 2),
                           data)
    (result,) = R.parse(kb.run_program(portable_driver.program, record + "\n", timeout=HUGE_WINDOW_SECONDS))
    assert (result.status, result.values.tolist()) == (0, expected)


def test_avgpool_padding_divides_by_real_pixels_only(portable_driver):
    # 3x3 window, SAME padding on a 2x2 image of 4s: every window averages 4s only.
    result = portable_driver.one(R.pool_record("arm_avgpool_s8", (1, 1), (1, 1), (-128, 127), (1, 2, 2, 1), (3, 3),
                                               (1, 2, 2, 1), [4, 4, 4, 4]))
    assert result.values.tolist() == [4, 4, 4, 4]


@pytest.mark.parametrize("kind, name", [("avg", "arm_avgpool_s8"), ("max", "arm_max_pool_s8")])
def test_matches_reference_on_random_calls(portable_driver, kind, name):
    rng = np.random.default_rng(3 + len(name))
    calls = [cases.pool_args(rng) for _ in range(20)]
    for args, result in zip(calls, portable_driver.run([R.pool_record(name, **a) for a in calls])):
        assert result.status == 0
        np.testing.assert_array_equal(result.values, ref.pool(kind, **args))


def test_avgpool_buffer_sizes(portable_driver):
    sizes = [r.values[0] for r in portable_driver.run([
        R.avgpool_sizer_record(n, 7, 24) for n in ("arm_avgpool_s8_get_buffer_size", "arm_avgpool_s8_get_buffer_size_mve",
                                                   "arm_avgpool_s8_get_buffer_size_dsp")])]
    assert sizes == [0, 0, 24 * 4]


def test_softmax_hand_worked(portable_driver):
    mult, shift, diff_min = cases.softmax_params(1 / 16)
    uniform = portable_driver.one(R.softmax_record(1, 4, mult, shift, diff_min, [7, 7, 7, 7]))
    single = portable_driver.one(R.softmax_record(1, 1, mult, shift, diff_min, [-100]))
    assert uniform.values.tolist() == [-64] * 4   # 0.25 * 256 - 128
    assert single.values.tolist() == [127]        # probability 1 saturates at 255/256


def test_softmax_matches_reference_and_float(portable_driver):
    rng = np.random.default_rng(5)
    calls = [cases.softmax_args(rng) for _ in range(30)]
    for args, result in zip(calls, portable_driver.run([R.softmax_record(**a) for a in calls])):
        np.testing.assert_array_equal(result.values, ref.softmax(**args))
        # and close to the real softmax of the dequantized logits
        scale = args["mult"] * 2.0 ** args["shift"] / 2**31 / 2**26
        x = np.asarray(args["data"], dtype=np.float64).reshape(args["rows"], args["row_size"]) * scale
        p = np.exp(x - x.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        expected = np.clip(np.round(p * 256) - 128, -128, 127).reshape(-1)
        assert np.max(np.abs(result.values - expected)) <= 1

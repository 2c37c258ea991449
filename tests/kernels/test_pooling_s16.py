# SPDX-License-Identifier: Apache-2.0
"""int16 AVERAGE_POOL_2D and MAX_POOL_2D: hand-worked values, the Python reference and the sizers."""

from __future__ import annotations

import numpy as np
import pytest

import cases
import kernel_build as kb
import records as R
import reference as ref
from test_pooling_softmax import HUGE, HUGE_WINDOW_SECONDS

FULL = (-32768, 32767)


@pytest.mark.parametrize("name, data, expected", [
    ("arm_avgpool_s16", [1000, 2000, 3000, 4001], 2500),   # 2500.25
    ("arm_avgpool_s16", [-1, -2, -3, -4], -3),            # -2.5 rounds away from zero
    ("arm_avgpool_s16", [32767, 32767, 32767, 32767], 32767),
    ("arm_max_pool_s16", [-30000, -2, 300, -32768], 300),
])
def test_2x2_window_hand_worked(portable_driver, name, data, expected):
    result = portable_driver.one(R.pool_record(name, (2, 2), (0, 0), FULL, (1, 2, 2, 1), (2, 2), (1, 1, 1, 1), data))
    assert (result.status, result.values.tolist()) == (0, [expected])


@pytest.mark.parametrize("name", ["arm_avgpool_s16", "arm_max_pool_s16"])
def test_padding_and_clamp(portable_driver, name):
    # 3x3 window with SAME padding on a 2x2 image: every window sees the four pixels only.
    result = portable_driver.one(R.pool_record(name, (1, 1), (1, 1), (-1000, 1000), (1, 2, 2, 1), (3, 3),
                                               (1, 2, 2, 1), [4000, 4000, 4000, 4000]))
    assert result.values.tolist() == [1000] * 4


@pytest.mark.parametrize("name, expected", [
    ("arm_avgpool_s16", [-5000, 5000]),    # channel sums -30001 and 30001 over 6 pixels, rounded away from zero
    ("arm_max_pool_s16", [32767, 20000]),
])
def test_window_far_larger_than_the_input_is_a_global_pool(portable_driver, name, expected):
    data = [-32768, 20000, 32767, -1, -30000, 1, 0, 5000, 1, 6000, -1, -999]  # 2x3 pixels, 2 channels
    record = R.pool_record(name, (1, 1), (HUGE // 2, HUGE // 2), FULL, (1, 2, 3, 2), (HUGE, HUGE), (1, 1, 1, 2), data)
    (result,) = R.parse(kb.run_program(portable_driver.program, record + "\n", timeout=HUGE_WINDOW_SECONDS))
    assert (result.status, result.values.tolist()) == (0, expected)


@pytest.mark.parametrize("kind, name", [("avg", "arm_avgpool_s16"), ("max", "arm_max_pool_s16")])
def test_matches_reference_on_random_calls(portable_driver, kind, name):
    rng = np.random.default_rng(16 + len(name))
    calls = [cases.pool_s16_args(rng) for _ in range(20)]
    for args, result in zip(calls, portable_driver.run([R.pool_record(name, **a) for a in calls])):
        assert result.status == 0
        np.testing.assert_array_equal(result.values, ref.pool(kind, **args))


def test_avgpool_buffer_sizes(portable_driver):
    sizes = [r.values[0] for r in portable_driver.run([R.avgpool_sizer_record(n, 7, 24)
                                                       for n in cases.AVGPOOL_S16_SIZERS])]
    assert sizes == [0, 24 * 4, 0]  # plain C, DSP (one int32 per channel), Helium

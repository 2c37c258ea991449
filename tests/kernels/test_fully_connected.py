# SPDX-License-Identifier: Apache-2.0
"""FULLY_CONNECTED entry points, arm_vector_sum_s8 and the sizers."""

from __future__ import annotations

import numpy as np
import pytest

import cases
import records as R
import reference as ref
from records import FcCall


def test_hand_worked(portable_driver):
    call = FcCall(input_offset=0, filter_offset=0, output_offset=0, act=(-128, 127), batches=1, depth=3, outputs=2,
                  input=np.array([1, 2, 3]), filter=np.array([1, 1, 1, 1, 0, -1]), bias=np.array([0, 100]),
                  mult=np.array([2**30]), shift=np.array([1]), per_channel=False)
    assert portable_driver.one(R.fc_record("arm_fully_connected_s8", call)).values.tolist() == [6, 98]


def test_filter_offset_and_clamp(portable_driver):
    # (x + 1) . (w + 2) = (2 + 1) * (1 + 2) * 2 = 18, then clamped to 10
    call = FcCall(input_offset=1, filter_offset=2, output_offset=0, act=(-10, 10), batches=1, depth=2, outputs=1,
                  input=np.array([2, 2]), filter=np.array([1, 1]), bias=None, mult=np.array([2**30]),
                  shift=np.array([1]), per_channel=False)
    assert portable_driver.one(R.fc_record("arm_fully_connected_s8", call)).values.tolist() == [10]


@pytest.mark.parametrize("name, per_channel", [("arm_fully_connected_s8", False),
                                               ("arm_fully_connected_per_channel_s8", True),
                                               ("arm_fully_connected_wrapper_s8", False),
                                               ("arm_fully_connected_wrapper_s8", True)])
def test_matches_reference_on_random_calls(portable_driver, name, per_channel):
    rng = np.random.default_rng(len(name) + per_channel)
    calls = [cases.fc_call(rng, per_channel) for _ in range(20)]
    for call, result in zip(calls, portable_driver.run([R.fc_record(name, c) for c in calls])):
        assert result.status == 0
        np.testing.assert_array_equal(result.values, ref.fully_connected(call))


def test_vector_sum(portable_driver):
    # rows [1, 2, 3] and [-1, 0, 4]; rhs_offset 1 adds 3 per row; lhs_offset 2 scales
    result = portable_driver.one(R.vector_sum_record(3, 2, 2, 1, [1, 2, 3, -1, 0, 4], [100, 0]))
    assert result.values.tolist() == [100 + 2 * (6 + 3), 2 * (3 + 3)]


def test_buffer_sizes(portable_driver):
    sizes = [r.values[0] for r in portable_driver.run([
        R.fc_sizer_record(n, (64, 1, 1, 10)) for n in ("arm_fully_connected_s8_get_buffer_size",
                                                       "arm_fully_connected_s8_get_buffer_size_mve",
                                                       "arm_fully_connected_s8_get_buffer_size_dsp")])]
    assert sizes == [0, 40, 0]

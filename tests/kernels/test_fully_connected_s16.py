# SPDX-License-Identifier: Apache-2.0
"""int16 FULLY_CONNECTED entry points (A16W8) and their sizers."""

from __future__ import annotations

import numpy as np
import pytest

import cases
import records as R
import reference as ref
from records import FcCall


def fc_s16(offsets=(0, 0, 0), **kw) -> FcCall:
    base = dict(act=(-32768, 32767), batches=1, depth=3, outputs=2, input=np.array([1000, 2000, 3000]),
                filter=np.array([1, 1, 1, 1, 0, -1]), bias=np.array([0, 100]), mult=np.array([2**30]),
                shift=np.array([1]), per_channel=False)
    base.update(kw)
    return FcCall(input_offset=offsets[0], filter_offset=offsets[1], output_offset=offsets[2], **base)


@pytest.mark.parametrize("name", ["arm_fully_connected_s16", "arm_fully_connected_wrapper_s16"])
@pytest.mark.parametrize("offsets", [(0, 0, 0), (5, -3, 7)])
def test_hand_worked_and_offsets_ignored(portable_driver, name, offsets):
    result = portable_driver.one(R.fc_record(name, fc_s16(offsets)))
    assert (result.status, result.values.tolist()) == (0, [6000, -1900])


def test_per_channel_two_batches(portable_driver):
    # channel 1 scaled by 0.25 (multiplier 0.5, shift -1): -2000 -> -500, -2000 * 2 -> -1000
    call = fc_s16(batches=2, input=np.array([1000, 2000, 3000, 2000, 4000, 6000]), bias=None,
                  mult=np.array([2**30, 2**30]), shift=np.array([1, -1]), per_channel=True)
    result = portable_driver.one(R.fc_record("arm_fully_connected_per_channel_s16", call))
    assert result.values.tolist() == [6000, -500, 12000, -1000]


@pytest.mark.parametrize("name, per_channel", [("arm_fully_connected_s16", False),
                                               ("arm_fully_connected_per_channel_s16", True),
                                               ("arm_fully_connected_wrapper_s16", False),
                                               ("arm_fully_connected_wrapper_s16", True)])
def test_matches_reference_on_random_calls(portable_driver, name, per_channel):
    rng = np.random.default_rng(len(name) + per_channel + 16)
    calls = [cases.fc_s16_call(rng, per_channel) for _ in range(20)]
    for call, result in zip(calls, portable_driver.run([R.fc_record(name, c) for c in calls])):
        assert result.status == 0
        np.testing.assert_array_equal(result.values, ref.fully_connected_s16(call))


def test_buffer_sizes(portable_driver):
    sizes = [r.values[0] for r in portable_driver.run([R.fc_sizer_record(n, (64, 1, 1, 10))
                                                       for n in cases.FC_S16_SIZERS])]
    # per tensor: none; per channel: one int32 reduced multiplier per output on every build
    assert sizes == [0, 0, 0, 40, 40, 40]

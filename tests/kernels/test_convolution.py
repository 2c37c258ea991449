# SPDX-License-Identifier: Apache-2.0
"""CONV_2D entry points: hand-worked cases, the Python reference on random calls, argument checks, sizers."""

from __future__ import annotations

import numpy as np
import pytest

import cases
import records as R
import reference as ref
from records import ConvCall

IDENTITY = (2**30, 1)  # multiplier 0.5 with shift +1: requantize(x) == x

CONV_ENTRY_POINTS = ["arm_convolve_s8", "arm_convolve_1x1_s8_fast", "arm_convolve_1x1_s8", "arm_convolve_wrapper_s8"]


def identity_call(input_dims, filter_dims, output_dims, data, filt, *, bias=None, input_offset=0, padding=(0, 0),
                  stride=(1, 1), upscale=(0, 0)) -> ConvCall:
    oc = filter_dims[0]
    return ConvCall(input_offset=input_offset, output_offset=0, stride=stride, padding=padding, dilation=(1, 1),
                    act=(-128, 127), input_dims=input_dims, filter_dims=filter_dims, output_dims=output_dims,
                    input=np.array(data), filter=np.array(filt), bias=None if bias is None else np.array(bias),
                    mult=np.full(oc, IDENTITY[0]), shift=np.full(oc, IDENTITY[1]), upscale=upscale)


@pytest.mark.parametrize("name", CONV_ENTRY_POINTS)
def test_pointwise_conv_adds_bias(portable_driver, name):
    call = identity_call((1, 2, 2, 1), (1, 1, 1, 1), (1, 2, 2, 1), [1, 2, 3, 4], [1], bias=[10])
    result = portable_driver.one(R.conv_record(name, call))
    assert result.status == 0
    assert result.values.tolist() == [11, 12, 13, 14]


def test_3x3_same_padding_counts_only_real_pixels(portable_driver):
    # All-ones 3x3 image and filter: each output counts the in-bounds taps (corner 4, edge 6, centre 9).
    # The input zero point is -1 (offset +1) with stored zeros, so padding must contribute nothing.
    call = identity_call((1, 3, 3, 1), (1, 3, 3, 1), (1, 3, 3, 1), [0] * 9, [1] * 9, input_offset=1, padding=(1, 1))
    result = portable_driver.one(R.conv_record("arm_convolve_s8", call))
    assert result.values.tolist() == [4, 6, 4, 6, 9, 6, 4, 6, 4]


def test_upscaled_input_reads_zero_points_between_pixels(portable_driver):
    # One stored pixel (5) stretched to a 2x2 grid; a 2x2 all-ones filter sees it once, the rest is zero point.
    call = identity_call((1, 2, 2, 1), (1, 2, 2, 1), (1, 1, 1, 1), [5], [1, 1, 1, 1], input_offset=3, upscale=(2, 2))
    assert portable_driver.one(R.conv_record("arm_convolve_s8", call)).values.tolist() == [8]


def test_grouped_conv_without_bias(portable_driver):
    # Two groups of one channel: output channel g only sees input channel g.
    call = identity_call((1, 1, 1, 2), (2, 1, 1, 1), (1, 1, 1, 2), [7, -9], [2, 3])
    assert portable_driver.one(R.conv_record("arm_convolve_s8", call)).values.tolist() == [14, -27]


@pytest.mark.parametrize("name, make", [
    ("arm_convolve_s8", lambda rng: cases.conv_call(rng, groups=int(rng.choice([1, 2, 3])))),
    ("arm_convolve_1x1_s8_fast", lambda rng: cases.conv_1x1_call(rng, True)),
    ("arm_convolve_1x1_s8", lambda rng: cases.conv_1x1_call(rng, False)),
    ("arm_convolve_1_x_n_s8", cases.conv_1_x_n_call),
    ("arm_convolve_wrapper_s8", cases.conv_any_call),
])
def test_matches_reference_on_random_calls(portable_driver, name, make):
    rng = np.random.default_rng(sum(map(ord, name)))
    calls = [make(rng) for _ in range(12)]
    results = portable_driver.run([R.conv_record(name, c) for c in calls])
    for call, result in zip(calls, results):
        assert result.status == 0
        np.testing.assert_array_equal(result.values, ref.conv2d(call))


@pytest.mark.parametrize("name, change", [
    ("arm_convolve_1x1_s8", dict(padding=(1, 0))),
    ("arm_convolve_1x1_s8_fast", dict(stride=(2, 1))),
    ("arm_convolve_1_x_n_s8", dict(input_dims=(1, 2, 4, 4))),
])
def test_shape_specific_entries_reject_other_shapes(portable_driver, name, change):
    call = identity_call((1, 1, 4, 4), (1, 1, 1, 4), (1, 1, 4, 1), [1] * 16, [1] * 4)
    for key, value in change.items():
        setattr(call, key, value)
    assert portable_driver.one(R.conv_record(name, call)).status == -1


def test_buffer_sizes_hand_worked(portable_driver):
    conv3x3 = identity_call((1, 8, 8, 3), (4, 3, 3, 3), (1, 8, 8, 4), [0] * 192, [0] * 108, padding=(1, 1))
    one_by_one = identity_call((1, 8, 8, 3), (4, 1, 1, 3), (1, 8, 8, 4), [0] * 192, [0] * 12)
    row = identity_call((1, 1, 10, 4), (2, 1, 3, 4), (1, 1, 10, 2), [0] * 40, [0] * 24, padding=(1, 0))
    sizes = [r.values[0] for r in portable_driver.run(
        [R.conv_sizer_record(n, conv3x3) for n in cases.CONV_SIZERS] +
        [R.conv_sizer_record("arm_convolve_wrapper_s8_get_buffer_size", one_by_one),
         R.conv_sizer_record("arm_convolve_wrapper_s8_get_buffer_size_mve", row),
         R.conv_sizer_record("arm_convolve_wrapper_s8_get_buffer_size", row)])]
    # 27 im2col entries: plain C keeps 2 int16 columns padded to 28; Helium 4 int8 columns of 2 vectors.
    assert sizes[:8] == [112, 128, 0, 112, 112, 128, 112, 0]
    assert sizes[8] == 0    # 1x1 needs no scratch
    assert sizes[9] == 16   # Helium 1xN: max(3*4 + 1*4 left window, 2*4 + 1*4 right window)
    assert sizes[10] == 2 * 12 * 2


def test_convolve_weight_sum(portable_driver):
    call = identity_call((1, 1, 1, 3), (2, 1, 1, 3), (1, 1, 1, 2), [0, 0, 0], [1, 2, 3, -1, -1, -1], bias=[10, 20])
    result = portable_driver.one(R.convolve_weight_sum_record(call, 2))
    assert result.status == 0
    assert result.values.tolist() == [10 + 2 * 6, 20 + 2 * -3]

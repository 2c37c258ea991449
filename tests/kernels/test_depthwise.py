# SPDX-License-Identifier: Apache-2.0
"""DEPTHWISE_CONV_2D entry points: hand-worked cases, the Python reference on random calls, checks, sizers."""

from __future__ import annotations

import numpy as np
import pytest

import cases
import records as R
import reference as ref
from records import ConvCall


def dw_call(input_dims, kernel_hw, output_dims, data, filt, *, ch_mult=1, bias=None, padding=(0, 0)) -> ConvCall:
    oc = input_dims[3] * ch_mult
    return ConvCall(input_offset=0, output_offset=0, stride=(1, 1), padding=padding, dilation=(1, 1),
                    act=(-128, 127), input_dims=input_dims, filter_dims=(1, *kernel_hw, oc), output_dims=output_dims,
                    input=np.array(data), filter=np.array(filt), bias=None if bias is None else np.array(bias),
                    mult=np.full(oc, 2**30), shift=np.full(oc, 1), ch_mult=ch_mult)


def test_channel_multiplier_2_hand_worked(portable_driver):
    # 1x2 image, channels (a, b); 1x2 filter; outputs a*f0 + a'*f0', twice per input channel.
    call = dw_call((1, 1, 2, 2), (1, 2), (1, 1, 1, 4), [1, 2, 3, 4], [1, 0, 2, -1, 1, 1, 1, 1], ch_mult=2,
                   bias=[0, 0, 0, 100])
    # channel order oc = ic * 2 + m; filter[kx][oc]
    assert portable_driver.one(R.depthwise_record("arm_depthwise_conv_s8", call)).values.tolist() == [
        1 * 1 + 3 * 1, 1 * 0 + 3 * 1, 2 * 2 + 4 * 1, 2 * -1 + 4 * 1 + 100]


@pytest.mark.parametrize("name", ["arm_depthwise_conv_s8", "arm_depthwise_conv_s8_opt", "arm_depthwise_conv_3x3_s8",
                                  "arm_depthwise_conv_wrapper_s8"])
def test_3x3_box_filter_with_padding(portable_driver, name):
    call = dw_call((1, 3, 3, 1), (3, 3), (1, 3, 3, 1), [1] * 9, [1] * 9, padding=(1, 1))
    result = portable_driver.one(R.depthwise_record(name, call))
    assert result.status == 0
    assert result.values.tolist() == [4, 6, 4, 6, 9, 6, 4, 6, 4]


@pytest.mark.parametrize("name, make", [
    ("arm_depthwise_conv_s8", cases.depthwise_call),
    ("arm_depthwise_conv_s8_opt", lambda rng: cases.depthwise_call(rng, ch_mult=1)),
    ("arm_depthwise_conv_3x3_s8", cases.depthwise_3x3_call),
    ("arm_depthwise_conv_wrapper_s8", cases.depthwise_any_call),
])
def test_matches_reference_on_random_calls(portable_driver, name, make):
    rng = np.random.default_rng(sum(map(ord, name)))
    calls = [make(rng) for _ in range(15)]
    results = portable_driver.run([R.depthwise_record(name, c) for c in calls])
    for call, result in zip(calls, results):
        assert result.status == 0
        np.testing.assert_array_equal(result.values, ref.depthwise_conv2d(call))


def test_argument_checks(portable_driver):
    multiplied = dw_call((1, 3, 3, 1), (3, 3), (1, 3, 3, 2), [1] * 9, [1] * 18, ch_mult=2, padding=(1, 1))
    two_by_two = dw_call((1, 3, 3, 1), (2, 2), (1, 2, 2, 1), [1] * 9, [1] * 4)
    assert portable_driver.one(R.depthwise_record("arm_depthwise_conv_s8_opt", multiplied)).status == -1
    assert portable_driver.one(R.depthwise_record("arm_depthwise_conv_3x3_s8", two_by_two)).status == -1


def test_buffer_sizes_hand_worked(portable_driver):
    five = dw_call((1, 8, 8, 16), (5, 5), (1, 8, 8, 16), [0] * 1024, [0] * 400, padding=(2, 2))
    three = dw_call((1, 8, 8, 16), (3, 3), (1, 8, 8, 16), [0] * 1024, [0] * 144, padding=(1, 1))
    one_in = dw_call((1, 8, 8, 1), (3, 3), (1, 8, 8, 8), [0] * 64, [0] * 72, ch_mult=8, padding=(1, 1))
    sizes = [r.values[0] for r in portable_driver.run(
        [R.depthwise_sizer_record(n, five) for n in cases.DEPTHWISE_SIZERS] +
        [R.depthwise_sizer_record("arm_depthwise_conv_wrapper_s8_get_buffer_size_dsp", three),
         R.depthwise_sizer_record("arm_depthwise_conv_wrapper_s8_get_buffer_size_mve", one_in)])]
    # plain C none; Helium 4 blocks of 124 channels x 25 taps; DSP 16 channels x 25 taps of int16
    assert sizes[:4] == [0, 0, 4 * 124 * 25, 16 * 25 * 2]
    assert sizes[4] == 0  # the DSP 3x3 kernel needs none
    # Helium runs 1-input-channel depthwise as a conv: im2col 4 x 16 bytes plus the 72-byte transposed filter
    assert sizes[5] == 4 * 16 + 72


def test_depthwise_weight_sum(portable_driver):
    call = dw_call((1, 1, 2, 2), (1, 2), (1, 1, 1, 2), [0] * 4, [1, 2, 3, -4], bias=[5, 6])
    result = portable_driver.one(R.depthwise_weight_sum_record(call, 3))
    assert result.values.tolist() == [5 + 3 * (1 + 3), 6 + 3 * (2 - 4)]

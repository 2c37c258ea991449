# SPDX-License-Identifier: Apache-2.0
"""int16 DEPTHWISE_CONV_2D entry points (A16W8): hand-worked cases, the Python reference, checks, sizers."""

from __future__ import annotations

import numpy as np
import pytest

import cases
import records as R
import reference as ref
from records import ConvS16Call

DW_S16_ENTRY_POINTS = ["arm_depthwise_conv_s16", "arm_depthwise_conv_fast_s16", "arm_depthwise_conv_wrapper_s16"]


def dw_s16_call(input_dims, kernel_hw, output_dims, data, filt, *, ch_mult=1, bias=None, padding=(0, 0),
                dilation=(1, 1), quant=(2**30, 1)) -> ConvS16Call:
    oc = input_dims[3] * ch_mult
    return ConvS16Call(input_offset=0, output_offset=0, stride=(1, 1), padding=padding, dilation=dilation,
                       act=(-32768, 32767), input_dims=input_dims, filter_dims=(1, *kernel_hw, oc),
                       output_dims=output_dims, input=np.array(data), filter=np.array(filt),
                       bias=None if bias is None else np.array(bias), mult=np.full(oc, quant[0]),
                       shift=np.full(oc, quant[1]), ch_mult=ch_mult)


def test_channel_multiplier_2_hand_worked(portable_driver):
    # 1x2 image of channels (a, b); 1x2 filter; output channel oc = ic * 2 + m, filter[kx][oc].
    call = dw_s16_call((1, 1, 2, 2), (1, 2), (1, 1, 1, 4), [1000, 2000, 3000, 4000], [1, 0, 2, -1, 1, 1, 1, 1],
                       ch_mult=2, bias=[0, 0, 0, 10**9])
    assert portable_driver.one(R.depthwise_record("arm_depthwise_conv_s16", call)).values.tolist() == [
        1000 + 3000, 3000, 4000 + 4000, 32767]  # an int64 bias of 10^9 saturates


@pytest.mark.parametrize("name", DW_S16_ENTRY_POINTS)
def test_3x3_box_filter_with_padding(portable_driver, name):
    call = dw_s16_call((1, 3, 3, 1), (3, 3), (1, 3, 3, 1), [-1000] * 9, [1] * 9, padding=(1, 1))
    result = portable_driver.one(R.depthwise_record(name, call))
    assert result.status == 0
    assert result.values.tolist() == [-4000, -6000, -4000, -6000, -9000, -6000, -4000, -6000, -4000]


def test_q15_multiplier_rounding(portable_driver):
    # acc 100000, multiplier 1518500250 -> Q15 23170, shift -2: floor(100000 * 23170 / 2^16) = 35354 -> 17677
    call = dw_s16_call((1, 1, 1, 1), (1, 1), (1, 1, 1, 1), [1000], [100], quant=(1518500250, -2))
    assert portable_driver.one(R.depthwise_record("arm_depthwise_conv_s16", call)).values.tolist() == [17677]


@pytest.mark.parametrize("name, make", [
    ("arm_depthwise_conv_s16", cases.depthwise_s16_call),
    ("arm_depthwise_conv_fast_s16", lambda rng: cases.depthwise_s16_call(rng, ch_mult=1)),
    ("arm_depthwise_conv_wrapper_s16", cases.depthwise_s16_any_call),
])
def test_matches_reference_on_random_calls(portable_driver, name, make):
    rng = np.random.default_rng(sum(map(ord, name)))
    calls = [make(rng) for _ in range(15)]
    for call, result in zip(calls, portable_driver.run([R.depthwise_record(name, c) for c in calls])):
        assert result.status == 0
        np.testing.assert_array_equal(result.values, ref.depthwise_conv2d_s16(call))


def test_argument_checks(portable_driver):
    multiplied = dw_s16_call((1, 3, 3, 1), (3, 3), (1, 3, 3, 2), [1] * 9, [1] * 18, ch_mult=2, padding=(1, 1))
    huge_kernel = dw_s16_call((1, 1, 1, 1), (16, 32), (1, 1, 1, 1), [1], [1] * 512, padding=(16, 8))
    assert portable_driver.one(R.depthwise_record("arm_depthwise_conv_fast_s16", multiplied)).status == -1
    assert portable_driver.one(R.depthwise_record("arm_depthwise_conv_fast_s16", huge_kernel)).status == -1
    # the wrapper sends a multiplier or a 512-tap kernel to the general entry instead
    assert portable_driver.one(R.depthwise_record("arm_depthwise_conv_wrapper_s16", multiplied)).status == 0
    assert portable_driver.one(R.depthwise_record("arm_depthwise_conv_wrapper_s16", huge_kernel)).values.tolist() \
        == [1]


def test_buffer_sizes_hand_worked(portable_driver):
    five = dw_s16_call((1, 8, 8, 16), (5, 5), (1, 8, 8, 16), [0] * 1024, [0] * 400, padding=(2, 2))
    multiplied = dw_s16_call((1, 8, 8, 4), (3, 3), (1, 8, 8, 8), [0] * 256, [0] * 72, ch_mult=2, padding=(1, 1))
    dilated = dw_s16_call((1, 8, 8, 4), (3, 3), (1, 8, 8, 4), [0] * 256, [0] * 36, padding=(2, 2), dilation=(2, 2))
    records = [R.depthwise_sizer_record(n, c) for c in (five, multiplied, dilated) for n in cases.DEPTHWISE_S16_SIZERS]
    sizes = [r.values[0] for r in portable_driver.run(records)]
    # plain C none; DSP one int16 column of 16 channels x 25 taps; Helium four of them plus 8 bytes
    assert sizes[:4] == [0, 0, 16 * 25 * 2, 4 * 16 * 25 * 2 + 8]
    assert sizes[4:] == [0] * 8  # the general kernel (multiplier or dilation) needs none on any build

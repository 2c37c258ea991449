# SPDX-License-Identifier: Apache-2.0
"""int16 CONV_2D entry points (A16W8): hand-worked cases, the Python reference on random calls, checks, sizers."""

from __future__ import annotations

import numpy as np
import pytest

import cases
import records as R
import reference as ref
from records import BIAS_INT32, BIAS_INT64, NO_BIAS_STRUCT, ConvS16Call

# multiplier 0.5 with shift +1: both requantizations give back the accumulator (Q15 0.5 is exact too)
IDENTITY = (2**30, 1)

CONV_S16_ENTRY_POINTS = ["arm_convolve_s16", "arm_convolve_s16_group_ch_mult_1", "arm_convolve_wrapper_s16"]


def s16_call(input_dims, filter_dims, output_dims, data, filt, *, bias=None, bias_kind=BIAS_INT64, padding=(0, 0),
             stride=(1, 1), quant=IDENTITY, act=(-32768, 32767)) -> ConvS16Call:
    oc = filter_dims[0]
    return ConvS16Call(input_offset=0, output_offset=0, stride=stride, padding=padding, dilation=(1, 1), act=act,
                       input_dims=input_dims, filter_dims=filter_dims, output_dims=output_dims,
                       input=np.array(data), filter=np.array(filt), bias=None if bias is None else np.array(bias),
                       mult=np.full(oc, quant[0]), shift=np.full(oc, quant[1]), bias_kind=bias_kind)


@pytest.mark.parametrize("name", CONV_S16_ENTRY_POINTS)
@pytest.mark.parametrize("bias_kind", [BIAS_INT64, BIAS_INT32])
def test_pointwise_conv_adds_bias(portable_driver, name, bias_kind):
    call = s16_call((1, 2, 2, 1), (1, 1, 1, 1), (1, 2, 2, 1), [1000, -2000, 3000, 32767], [3], bias=[-7],
                    bias_kind=bias_kind)
    result = portable_driver.one(R.conv_s16_record(name, call))
    assert result.status == 0
    assert result.values.tolist() == [2993, -6007, 8993, 32767]  # 3 * 32767 - 7 saturates


def test_3x3_same_padding_counts_only_real_pixels(portable_driver):
    call = s16_call((1, 3, 3, 1), (1, 3, 3, 1), (1, 3, 3, 1), [100] * 9, [1] * 9, padding=(1, 1))
    result = portable_driver.one(R.conv_s16_record("arm_convolve_s16", call))
    assert result.values.tolist() == [400, 600, 400, 600, 900, 600, 400, 600, 400]


# acc = 1000 * 100 = 100000 with multiplier 0.70710678 (1518500250 / 2^31) and shift -2:
#   int32 route: round(round(100000 * 0.70710678) / 4) = round(70711 / 4) = 17678
#   int64 route: Q15 multiplier round(1518500250 / 2^16) = 23170; floor(100000 * 23170 / 2^16) = 35354,
#                then (35354 + 1) >> 1 = 17677
ROUTE_QUANT = (1518500250, -2)


@pytest.mark.parametrize("name, bias_kind, bias, expected", [
    ("arm_convolve_s16", BIAS_INT32, [0], 17678),
    ("arm_convolve_s16", BIAS_INT64, [0], 17677),
    ("arm_convolve_s16", BIAS_INT32, None, 17678),       # the flag alone picks the route here
    ("arm_convolve_s16_group_ch_mult_1", BIAS_INT32, [0], 17678),
    ("arm_convolve_s16_group_ch_mult_1", BIAS_INT32, None, 17677),   # ... but not without bias data here
    ("arm_convolve_s16_group_ch_mult_1", NO_BIAS_STRUCT, None, 17677),
    ("arm_convolve_wrapper_s16", BIAS_INT32, None, 17677),  # one channel in and out: the group entry
])
def test_bias_type_picks_the_requantization(portable_driver, name, bias_kind, bias, expected):
    call = s16_call((1, 1, 1, 1), (1, 1, 1, 1), (1, 1, 1, 1), [1000], [100], bias=bias, bias_kind=bias_kind,
                    quant=ROUTE_QUANT)
    assert portable_driver.one(R.conv_s16_record(name, call)).values.tolist() == [expected]


@pytest.mark.parametrize("width, expected", [(2, [19049, 19049]), (3, [19049, 19049, -13719])])
def test_unpaired_last_pixel_wraps_at_32_bits(portable_driver, width, expected):
    # 600 columns of 32767 * 127: the exact sum 2496845400 exceeds int32. Paired pixels sum their first
    # 512 columns (2130641408, no overflow) in 32 bits and the rest in 64: floor(2496845400 * 2^14 / 2^30)
    # = 38098, (38098 + 1) >> 1 = 19049. The unpaired third pixel wraps to 2496845400 - 2^32 = -1798121896:
    # floor(-1798121896 / 2^16) = -27438, (-27438 + 1) >> 1 = -13719.
    call = s16_call((1, 1, width, 600), (1, 1, 1, 600), (1, 1, width, 1), [32767] * 600 * width, [127] * 600,
                    quant=(2**30, -16))
    assert portable_driver.one(R.conv_s16_record("arm_convolve_s16", call)).values.tolist() == expected


def test_grouped_conv(portable_driver):
    # Two groups of two channels, one output channel per group.
    call = s16_call((1, 1, 1, 4), (2, 1, 1, 2), (1, 1, 1, 2), [10, 20, 30, 40], [1, 2, 3, -4], bias=[5, 6])
    assert portable_driver.one(R.conv_s16_record("arm_convolve_s16", call)).values.tolist() == [
        10 + 40 + 5, 90 - 160 + 6]


@pytest.mark.parametrize("name, make", [
    ("arm_convolve_s16", lambda rng: cases.conv_s16_call(rng, groups=int(rng.choice([1, 2, 3])))),
    ("arm_convolve_s16", cases.conv_s16_wraparound_call),
    ("arm_convolve_s16_group_ch_mult_1", cases.conv_s16_group_ch_mult_1_call),
    ("arm_convolve_wrapper_s16", cases.conv_s16_any_call),
])
def test_matches_reference_on_random_calls(portable_driver, name, make):
    rng = np.random.default_rng(sum(map(ord, name)) + 16)
    calls = [make(rng) for _ in range(12)]
    results = portable_driver.run([R.conv_s16_record(name, c) for c in calls])
    group_entry = name == "arm_convolve_s16_group_ch_mult_1"
    for call, result in zip(calls, results):
        assert result.status == 0
        wrapper_to_group = name == "arm_convolve_wrapper_s16" and call.filter_dims[3] == 1 and \
            call.input_dims[3] == call.output_dims[3]
        np.testing.assert_array_equal(result.values,
                                      ref.conv2d_s16(call, group_ch_mult_1=group_entry or wrapper_to_group))


def test_channels_that_do_not_split_into_groups(portable_driver):
    call = s16_call((1, 1, 1, 5), (2, 1, 1, 2), (1, 1, 1, 2), [1] * 5, [1] * 4)
    assert portable_driver.one(R.conv_s16_record("arm_convolve_s16", call)).status == -1


def test_buffer_sizes_hand_worked(portable_driver):
    conv3x3 = s16_call((1, 8, 8, 3), (4, 3, 3, 3), (1, 8, 8, 4), [0] * 192, [0] * 108, padding=(1, 1))
    sizes = [r.values[0] for r in portable_driver.run([R.conv_sizer_record(n, conv3x3) for n in cases.CONV_S16_SIZERS])]
    # 27 im2col entries: plain C / DSP keep 2 int16 columns; Helium 4 int16 columns of whole 8-lane vectors (32)
    assert sizes == [2 * 27 * 2, 2 * 27 * 2, 2 * 27 * 2, 4 * 32 * 2]

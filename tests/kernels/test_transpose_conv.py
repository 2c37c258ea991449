# SPDX-License-Identifier: Apache-2.0
"""TRANSPOSE_CONV (int8): hand-worked cases, the Python reference on random calls, checks, sizers."""

from __future__ import annotations

import numpy as np
import pytest

import cases
import records as R
import reference as ref
from records import TransposeConvCall

ENTRY_POINTS = ["arm_transpose_conv_s8", "arm_transpose_conv_wrapper_s8"]


def tc_call(input_dims, filter_dims, output_dims, data, filt, *, stride=(1, 1), padding=(0, 0), bias=None,
            input_offset=0, output_offset=0, dilation=(1, 1)) -> TransposeConvCall:
    oc = filter_dims[0]
    return TransposeConvCall(input_offset=input_offset, output_offset=output_offset, stride=stride, padding=padding,
                             dilation=dilation, act=(-128, 127), input_dims=input_dims, filter_dims=filter_dims,
                             output_dims=output_dims, input=np.array(data), filter=np.array(filt),
                             bias=None if bias is None else np.array(bias), mult=np.full(oc, 2**30),
                             shift=np.full(oc, 1))


@pytest.mark.parametrize("name", ENTRY_POINTS)
@pytest.mark.parametrize("stride, out_w, expected", [
    (2, 4, [3, 5, 6, 10]),   # taps side by side
    (1, 3, [3, 11, 10]),     # taps overlap in the middle
])
def test_one_row_hand_worked(portable_driver, name, stride, out_w, expected):
    # input [1, 2], filter [3, 5]: output o collects input i times tap k for o = i * stride + k
    call = tc_call((1, 1, 2, 1), (1, 1, 2, 1), (1, 1, out_w, 1), [1, 2], [3, 5], stride=(stride, 1))
    result = portable_driver.one(R.transpose_conv_record(name, call))
    assert (result.status, result.values.tolist()) == (0, expected)


def test_same_padding_offsets_bias_and_zero_points(portable_driver):
    # TFLite SAME, input 2 -> output 4 with a 3-tap filter: padding 0 plus one trailing (padding_offsets).
    # Input zero point -1 (offset +1): values [0, 9] read as [1, 10]; output zero point 3, bias 1.
    call = tc_call((1, 1, 2, 1), (1, 1, 3, 1), (1, 1, 4, 1), [0, 9], [1, 2, 3], stride=(2, 1), bias=[1],
                   input_offset=1, output_offset=3)
    call.padding_offsets = (1, 0)
    result = portable_driver.one(R.transpose_conv_record("arm_transpose_conv_s8", call))
    assert result.values.tolist() == [1 + 1 + 3, 2 + 1 + 3, 3 + 10 + 1 + 3, 20 + 1 + 3]


def test_leading_padding_crops_the_output(portable_driver):
    # The same row with padding 1: output o is the unpadded output o + 1.
    call = tc_call((1, 1, 2, 1), (1, 1, 3, 1), (1, 1, 3, 1), [1, 10], [1, 2, 3], stride=(2, 1), padding=(1, 0))
    assert portable_driver.one(R.transpose_conv_record("arm_transpose_conv_s8", call)).values.tolist() == [2, 13, 20]


@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_many_channels_stride_2(portable_driver, name):
    # 17 input channels and stride 2 (ns-cmsis-nn's wrapper runs this as a reverse convolution):
    # a 2x2 filter of ones over a 1x1 image of ones gives 17 at each of the 2x2 outputs.
    call = tc_call((1, 1, 1, 17), (1, 2, 2, 17), (1, 2, 2, 1), [1] * 17, [1] * 68, stride=(2, 2))
    assert portable_driver.one(R.transpose_conv_record(name, call)).values.tolist() == [17] * 4


@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_dilation_is_rejected(portable_driver, name):
    call = tc_call((1, 1, 2, 1), (1, 1, 2, 1), (1, 1, 4, 1), [1, 2], [3, 5], stride=(2, 1), dilation=(2, 1))
    assert portable_driver.one(R.transpose_conv_record(name, call)).status == -1


@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_matches_reference_on_random_calls(portable_driver, name):
    rng = np.random.default_rng(sum(map(ord, name)))
    calls = [cases.transpose_conv_call(rng) for _ in range(10)]
    calls += [cases.transpose_conv_call(rng, in_ch=int(rng.integers(17, 30)), stride=(2, 2)) for _ in range(5)]
    for call, result in zip(calls, portable_driver.run([R.transpose_conv_record(name, c) for c in calls])):
        assert result.status == 0
        np.testing.assert_array_equal(result.values, ref.transpose_conv2d(call))


def test_output_shapes_follow_tflite():
    assert cases.transpose_conv_out_size(4, 3, 2, same=True) == (8, 0, 1)   # total padding 1: all trailing
    assert cases.transpose_conv_out_size(4, 3, 2, same=True, trim=1) == (7, 1, 0)
    assert cases.transpose_conv_out_size(4, 3, 2, same=False) == (9, 0, 0)
    assert cases.transpose_conv_out_size(4, 1, 3, same=False) == (12, 0, 0)


def test_buffer_sizes_hand_worked(portable_driver):
    few = tc_call((1, 4, 4, 8), (3, 3, 3, 8), (1, 8, 8, 3), [0] * 128, [0] * 216, stride=(2, 2))
    many = tc_call((1, 4, 4, 17), (3, 3, 3, 17), (1, 8, 8, 3), [0] * 272, [0] * 459, stride=(2, 2))
    sizes = [r.values[0] for r in portable_driver.run([R.transpose_conv_sizer_record(n, c) for c in (few, many)
                                                       for n in cases.TRANSPOSE_CONV_SIZERS])]
    # rolling int32 buffer: 3 rows of (3 * 2 + 3) pixels x 3 channels
    rolling = 3 * 9 * 3 * 4
    assert sizes[:3] == [rolling, rolling, 0]
    # > 16 channels: also the 8x8 upscaled convolution's im2col (153 entries: plain C 2 x 156 int16,
    # Helium 4 x 160 int8) and the reversed filter (459 bytes)
    assert sizes[3:] == [max(rolling, 2 * 156 * 2), max(rolling, 4 * 160), 459]


def test_ns_cmsis_nn_gets_rows_wrong_outside_its_domain(portable_driver, ns_driver):
    # The parity records keep to cases.ns_transpose_conv_rows_ok; outside it (here a top padding of 1 at
    # stride 2, a 4x4 filter SAME) ns-cmsis-nn 7.29.2 gives wrong rows, and the compiler runs its inline loop
    # on that library instead (helia_aot/ops/transpose_conv.py). Should a release fix it, this fails: then
    # widen the domain. Cropped outputs (in_h * s_h > pad_h + out_h) are not run: it writes past the output.
    rng = np.random.default_rng(44)
    calls = []
    while len(calls) < 6:
        call = cases.transpose_conv_call(rng, stride=(2, 2))
        if call.padding[1] % 2 == 1 and call.input_dims[1] * 2 <= call.padding[1] + call.output_dims[1]:
            calls.append(call)
    records = [R.transpose_conv_record("arm_transpose_conv_s8", c) for c in calls]
    for call, mine, theirs in zip(calls, portable_driver.run(records), ns_driver.run(records)):
        assert not cases.ns_transpose_conv_rows_ok(call)
        np.testing.assert_array_equal(mine.values, ref.transpose_conv2d(call))
        assert not np.array_equal(theirs.values, mine.values)

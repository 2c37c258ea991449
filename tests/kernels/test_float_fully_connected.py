# SPDX-License-Identifier: Apache-2.0
"""Float32 / float16 FULLY_CONNECTED and TRANSPOSE_CONV kernels against hand-worked cases and the NumPy reference."""

from __future__ import annotations

import numpy as np
import pytest

import flt_cases
import flt_records as F
import flt_reference as ref
from test_float_convolution import ARG_ERROR, OK, TYPES, assert_close_to_reference


@pytest.mark.parametrize("t", TYPES)
@pytest.mark.parametrize("entry", ["fully_connected", "fully_connected_nhwc"])
def test_fully_connected_hand_worked(float_driver, t, entry):
    # Two batches of [1, 2, 3] and [-1, 0, 0.5]; rows [1, 1, 1] and [0, -2, 4], bias [0.25, -1]:
    # 6 + 0.25, 8 - 1; -0.5 + 0.25, 2 - 1 -> 6.25, 7, -0.25, 1, clamped to [-0.5, 6.5].
    call = F.FullyConnected(t=t, batches=2, depth=3, outputs=2, input=np.array([1, 2, 3, -1, 0, 0.5]),
                            kernel=np.array([1, 1, 1, 0, -2, 4]), bias=np.array([0.25, -1.0]), act=(-0.5, 6.5))
    result = float_driver.one(call.record(f"arm_{entry}_{t}"))
    assert result.status == OK
    assert result.values.tolist() == [6.25, 6.5, -0.25, 1.0]


@pytest.mark.parametrize("t", TYPES)
def test_fully_connected_matches_reference(float_driver, t):
    rng = np.random.default_rng(31 if t == "f32" else 32)
    calls = [flt_cases.fc_call(rng, t) for _ in range(12)]
    for call, result in zip(calls, float_driver.run([c.record(f"arm_fully_connected_{t}") for c in calls])):
        assert result.status == OK
        x = np.asarray(call.input, np.float64).reshape(call.batches, call.depth)
        w = np.asarray(call.kernel, np.float64).reshape(call.outputs, call.depth)
        b = None if call.bias is None else np.asarray(call.bias, np.float64)
        magnitude = ref.fully_connected(np.abs(x), np.abs(w), None if b is None else np.abs(b))
        assert_close_to_reference(result.values, ref.fully_connected(x, w, b).reshape(-1), magnitude.reshape(-1),
                                  call.depth + 1, t, call.act)


@pytest.mark.parametrize("t", TYPES)
def test_fully_connected_argument_checks_and_size(float_driver, t):
    call = flt_cases.fc_call(np.random.default_rng(4), t)
    mismatch = F.FullyConnected(**{**call.__dict__, "filter_n": call.depth + 1})
    packed = F.FullyConnected(**{**call.__dict__, "weight_format": F.WEIGHTS_PACKED})
    other_layout = F.FullyConnected(**{**call.__dict__, "layout": 1})
    results = float_driver.run([mismatch.record(f"arm_fully_connected_{t}"), packed.record(f"arm_fully_connected_{t}"),
                                other_layout.record(f"arm_fully_connected_{t}"),
                                call.sizer_record(f"arm_fully_connected_{t}_get_buffer_size")])
    assert [r.status for r in results[:3]] == [ARG_ERROR] * 3
    assert results[3].size == 0


@pytest.mark.parametrize("t", TYPES)
def test_transpose_conv_hand_worked(float_driver, t):
    # Stride 2, 2x2 filter of ones, no overlap: each input value fills a 2x2 block, plus bias 0.5.
    call = F.TransposeConv(t=t, input_dims=(1, 2, 2, 1), filter_dims=(1, 2, 2, 1), output_dims=(1, 4, 4, 1),
                           input=np.array([1, 2, 3, 0]), filter=np.ones(4), bias=np.array([0.5]), stride=(2, 2))
    result = float_driver.one(call.record(f"arm_transpose_conv_wrapper_{t}"))
    assert result.status == OK
    assert result.values.reshape(4, 4).tolist() == [[1.5, 1.5, 2.5, 2.5], [1.5, 1.5, 2.5, 2.5],
                                                    [3.5, 3.5, 0.5, 0.5], [3.5, 3.5, 0.5, 0.5]]


@pytest.mark.parametrize("t", TYPES)
def test_transpose_conv_matches_reference(float_driver, t):
    rng = np.random.default_rng(41 if t == "f32" else 42)
    calls = [flt_cases.transpose_conv_call(rng, t) for _ in range(12)]
    for call, result in zip(calls, float_driver.run([c.record(f"arm_transpose_conv_nhwc_{t}") for c in calls])):
        assert result.status == OK
        x = np.asarray(call.input, np.float64).reshape(call.input_dims)
        w = np.asarray(call.filter, np.float64).reshape(call.filter_dims)
        b = None if call.bias is None else np.asarray(call.bias, np.float64)
        args = (call.stride, call.padding, call.dilation, call.output_dims[1:3])
        exact = ref.transpose_conv2d(x, w, b, *args).reshape(-1)
        magnitude = ref.transpose_conv2d(np.abs(x), np.abs(w), None if b is None else np.abs(b), *args).reshape(-1)
        terms = call.input_dims[1] * call.input_dims[2] * call.input_dims[3] + 1
        assert_close_to_reference(result.values, exact, magnitude, terms, t, call.act)


@pytest.mark.parametrize("t", TYPES)
def test_transpose_conv_sizes_are_zero(float_driver, t):
    call = flt_cases.transpose_conv_call(np.random.default_rng(8), t)
    results = float_driver.run([call.sizer_record(f"arm_transpose_conv_{t}_get_buffer_size"),
                                call.sizer_record(f"arm_transpose_conv_{t}_get_reverse_conv_buffer_size")])
    assert [r.size for r in results] == [0, 0]

# SPDX-License-Identifier: Apache-2.0
"""Float32 / float16 CONV_2D and DEPTHWISE_CONV_2D kernels against hand-worked cases and the NumPy reference."""

from __future__ import annotations

import math

import numpy as np
import pytest

import flt_cases
import flt_records as F
import flt_reference as ref

TYPES = ("f32", "f16")
EPS = {"f32": float(np.finfo(np.float32).eps), "f16": float(np.finfo(np.float16).eps)}
OK, ARG_ERROR = 0, -1


def assert_close_to_reference(out: np.ndarray, exact: np.ndarray, magnitude: np.ndarray, terms: int, t: str,
                              act) -> None:
    """out (the kernel's) within the rounding bound of the exact result, both clamped the same way."""
    tolerance = ref.sum_tolerance(magnitude, EPS[t], terms)
    if t == "f16":
        tolerance = tolerance + np.abs(exact) * EPS[t]  # the final rounding to float16
    expected = ref.clamp(exact, *act)
    assert np.all(np.abs(out.astype(np.float64) - expected) <= tolerance), \
        float(np.max(np.abs(out.astype(np.float64) - expected) - tolerance))


def conv_reference(call: F.Conv, absolute: bool = False) -> np.ndarray:
    x = np.asarray(call.input, np.float64).reshape(call.input_dims)
    w = np.asarray(call.filter, np.float64).reshape(call.filter_dims)
    b = None if call.bias is None else np.asarray(call.bias, np.float64)
    if absolute:
        x, w, b = np.abs(x), np.abs(w), None if b is None else np.abs(b)
    return ref.conv2d(x, w, b, call.stride, call.padding, call.dilation, call.output_dims[1:3]).reshape(-1)


# ---- CONV_2D ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("t", TYPES)
@pytest.mark.parametrize("entry", ["convolve_wrapper", "convolve_nhwc", "convolve"])
def test_conv_hand_worked(float_driver, t, entry):
    # 3x3 input 1..9, 2x2 filter [[1, 2], [3, 4]], bias 0.5, VALID: 1+4+12+20 = 37 -> 37.5, then 47.5,
    # 67.5 and 77.5, the last clamped to 70.
    call = F.Conv(t=t, input_dims=(1, 3, 3, 1), filter_dims=(1, 2, 2, 1), output_dims=(1, 2, 2, 1),
                  input=np.arange(1, 10), filter=np.array([1, 2, 3, 4]), bias=np.array([0.5]), act=(-100.0, 70.0))
    result = float_driver.one(call.conv_record(f"arm_{entry}_{t}"))
    assert result.status == OK
    assert result.values.tolist() == [37.5, 47.5, 67.5, 70.0]


@pytest.mark.parametrize("t", TYPES)
@pytest.mark.parametrize("kind", flt_cases.CONV_KINDS)
def test_conv_matches_reference(float_driver, t, kind):
    rng = np.random.default_rng(100 + flt_cases.CONV_KINDS.index(kind) + (7 if t == "f16" else 0))
    calls = [flt_cases.conv_call(rng, t, kind) for _ in range(8)]
    results = float_driver.run([c.conv_record(f"arm_convolve_wrapper_{t}") for c in calls])
    for call, result in zip(calls, results):
        assert result.status == OK
        terms = call.filter_dims[1] * call.filter_dims[2] * call.filter_dims[3] + 1
        assert_close_to_reference(result.values, conv_reference(call), conv_reference(call, absolute=True), terms, t,
                                  call.act)


@pytest.mark.parametrize("t", TYPES)
def test_integer_valued_conv_is_exact_on_every_route(float_driver, t):
    # Small integers keep every partial sum exact in either type, whatever the order: the result must
    # equal the reference exactly, float64 and float32 alike.
    rng = np.random.default_rng(5)
    for kind in flt_cases.CONV_KINDS:
        call = flt_cases.conv_call(rng, t, kind)
        call.input = rng.integers(-3, 4, np.size(call.input)).astype(np.float64)
        call.filter = rng.integers(-3, 4, np.size(call.filter)).astype(np.float64)
        call.bias = rng.integers(-8, 9, call.output_dims[3]).astype(np.float64)
        call.act = (-math.inf, math.inf)
        result = float_driver.one(call.conv_record(f"arm_convolve_wrapper_{t}"))
        x = call.input.reshape(call.input_dims)
        w = call.filter.reshape(call.filter_dims)
        for dtype in (np.float64, np.float32):
            expected = ref.conv2d(x, w, call.bias, call.stride, call.padding, call.dilation, call.output_dims[1:3],
                                  dtype)
            assert result.values.tolist() == expected.reshape(-1).tolist(), kind


@pytest.mark.parametrize("t", TYPES)
def test_conv_entry_points_check_their_shapes(float_driver, t):
    rng = np.random.default_rng(9)
    one = flt_cases.conv_call(rng, t, "1x1")
    padded = F.Conv(**{**one.__dict__, "padding": (1, 0)})
    row = flt_cases.conv_call(rng, t, "1xn")
    tall = F.Conv(**{**row.__dict__, "dilation": (2, 1)})
    packed = F.Conv(**{**one.__dict__, "weight_format": F.WEIGHTS_PACKED})
    other_layout = F.Conv(**{**one.__dict__, "layout": 1})
    records = [one.conv_record(f"arm_convolve_1x1_nhwc_{t}"), padded.conv_record(f"arm_convolve_1x1_nhwc_{t}"),
               row.conv_record(f"arm_convolve_1_x_n_nhwc_{t}"), tall.conv_record(f"arm_convolve_1_x_n_nhwc_{t}"),
               packed.conv_record(f"arm_convolve_wrapper_{t}"), other_layout.conv_record(f"arm_convolve_{t}"),
               other_layout.conv_record(f"arm_convolve_1x1_{t}")]
    assert [r.status for r in float_driver.run(records)] == [OK, ARG_ERROR, OK, ARG_ERROR, ARG_ERROR, ARG_ERROR,
                                                              ARG_ERROR]


@pytest.mark.parametrize("t,size", [("f32", 4), ("f16", 2)])
def test_conv_buffer_sizes(float_driver, t, size):
    def call(in_dims, filter_dims, out_dims, stride=(1, 1), padding=(0, 0)):
        return F.Conv(t=t, input_dims=in_dims, filter_dims=filter_dims, output_dims=out_dims, input=None, filter=None,
                      bias=None, stride=stride, padding=padding)
    general = call((1, 8, 8, 8), (4, 3, 3, 8), (1, 6, 6, 4))
    unit_1x1 = call((2, 5, 5, 6), (3, 1, 1, 6), (2, 5, 5, 3))
    strided_1x1 = call((2, 5, 5, 6), (3, 1, 1, 6), (2, 3, 3, 3), stride=(2, 2))
    one_row = call((1, 1, 10, 3), (2, 1, 4, 3), (1, 1, 4, 2), stride=(2, 1), padding=(1, 0))
    row_of_3 = call((1, 1, 10, 3), (2, 1, 3, 3), (1, 1, 8, 2))  # ns-cmsis-nn's row kernel: general size
    records = [c.conv_sizer_record(f"arm_convolve_wrapper_{t}_get_buffer_size")
               for c in (general, unit_1x1, strided_1x1, one_row, row_of_3)]
    records.append(one_row.conv_sizer_record(f"arm_convolve_1_x_n_{t}_get_buffer_size"))
    records.append(strided_1x1.conv_sizer_record(f"arm_convolve_1x1_{t}_get_buffer_size"))
    sizes = [r.size for r in float_driver.run(records)]
    # 8 packed windows of kh * kw * in_c; none for a stride-1 1x1; 8 pixels of in_c; one 1 x N window.
    assert sizes == [8 * 3 * 3 * 8 * size, 0, 8 * 6 * size, 4 * 3 * size, 8 * 1 * 3 * 3 * size, 4 * 3 * size,
                     8 * 6 * size]


# ---- DEPTHWISE_CONV_2D ---------------------------------------------------------------------------------

def depthwise_reference(call: F.Conv, absolute: bool = False) -> np.ndarray:
    x = np.asarray(call.input, np.float64).reshape(call.input_dims)
    w = np.asarray(call.filter, np.float64).reshape(call.filter_dims[1:])
    b = None if call.bias is None else np.asarray(call.bias, np.float64)
    if absolute:
        x, w, b = np.abs(x), np.abs(w), None if b is None else np.abs(b)
    return ref.depthwise_conv2d(x, w, b, call.ch_mult, call.stride, call.padding, call.dilation,
                                call.output_dims[1:3]).reshape(-1)


@pytest.mark.parametrize("t", TYPES)
def test_depthwise_hand_worked(float_driver, t):
    # Two channels, ch_mult 2 (outputs 0, 1 read channel 0; 2, 3 read channel 1), a 1x2 window at stride 1:
    # out0 = 1*1 + 2*1 = 3, out1 = 1*2 + 2*0 = 2, out2 = 10*(-1) + 20*1 = 10, out3 = 10*0.5 + 20*0.5 = 15, + bias 1.
    call = F.Conv(t=t, input_dims=(1, 1, 2, 2), filter_dims=(1, 1, 2, 4), output_dims=(1, 1, 1, 4),
                  input=np.array([1, 10, 2, 20]), filter=np.array([1, 2, -1, 0.5, 1, 0, 1, 0.5]),
                  bias=np.ones(4), ch_mult=2)
    result = float_driver.one(call.depthwise_record(f"arm_depthwise_conv_wrapper_{t}"))
    assert result.status == OK
    assert result.values.tolist() == [4.0, 3.0, 11.0, 16.0]


@pytest.mark.parametrize("t", TYPES)
@pytest.mark.parametrize("kind", flt_cases.DW_KINDS)
def test_depthwise_matches_reference(float_driver, t, kind):
    rng = np.random.default_rng(200 + flt_cases.DW_KINDS.index(kind) + (11 if t == "f16" else 0))
    calls = [flt_cases.depthwise_call(rng, t, kind) for _ in range(8)]
    results = float_driver.run([c.depthwise_record(f"arm_depthwise_conv_wrapper_{t}") for c in calls])
    for call, result in zip(calls, results):
        assert result.status == OK
        terms = call.filter_dims[1] * call.filter_dims[2] + 1
        assert_close_to_reference(result.values, depthwise_reference(call), depthwise_reference(call, absolute=True),
                                  terms, t, call.act)


@pytest.mark.parametrize("t,size", [("f32", 4), ("f16", 2)])
def test_depthwise_buffer_sizes(float_driver, t, size):
    rng = np.random.default_rng(3)
    plain = flt_cases.depthwise_call(rng, t, "chmult1")
    multiplied = F.Conv(**{**plain.__dict__, "ch_mult": 2})
    dilated = F.Conv(**{**plain.__dict__, "dilation": (1, 2)})
    records = [c.depthwise_sizer_record(f"arm_depthwise_conv_wrapper_{t}_get_buffer_size")
               for c in (plain, multiplied, dilated)]
    kh, kw, channels = plain.filter_dims[1], plain.filter_dims[2], plain.input_dims[3]
    # 4 packed output pixels' windows for ch_mult 1, dilation 1; nothing otherwise.
    assert [r.size for r in float_driver.run(records)] == [4 * kh * kw * channels * size, 0, 0]

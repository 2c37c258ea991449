# SPDX-License-Identifier: Apache-2.0
"""Float32 / float16 pooling, SOFTMAX and activations, including where ns-cmsis-nn's approximations depart from the math."""

from __future__ import annotations

import math

import numpy as np
import pytest

import flt_cases
import flt_records as F
import flt_reference as ref
import kernel_build as kb
from test_float_convolution import OK, TYPES

F32_EPS = float(np.finfo(np.float32).eps)
F16_EPS = float(np.finfo(np.float16).eps)


# ---- pooling --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("t", TYPES)
def test_pool_window_far_larger_than_the_input_is_a_global_pool(float_driver, t):
    # A 2^30 x 2^30 window on a 2x3 image of 1..6 (the converter allows 2^16 per side, the kernels any): the
    # mean 3.5 and the maximum 6, within a bounded time (walking every tap would never return).
    huge = 1 << 30
    args = ((1, 1), (huge // 2, huge // 2), (-math.inf, math.inf), (1, 2, 3, 1), (huge, huge), (1, 1, 1, 1),
            np.arange(1, 7))
    records = [F.pool_record(f"arm_avg_pool_{t}", *args), F.pool_record(f"arm_max_pool_{t}", *args)]
    text = kb.run_program(float_driver.program, "\n".join(records) + "\n", timeout=30)
    avg, mx = F.parse(text, [t, t])
    assert (avg.status, mx.status) == (OK, OK)
    assert (avg.values.tolist(), mx.values.tolist()) == ([3.5], [6.0])


@pytest.mark.parametrize("t", TYPES)
def test_pool_hand_worked(float_driver, t):
    # 3x3 input 1..9, 2x2 window, stride 2, one row / column of SAME padding at the end: the windows hold
    # {1,2,4,5}, {3,6}, {7,8}, {9} -> means 3, 4.5, 7.5, 9 and maxima 5, 6, 8, 9 (the max clamped to 8.5).
    args = ((2, 2), (0, 0))
    dims = ((1, 3, 3, 1), (2, 2), (1, 2, 2, 1), np.arange(1, 10))
    avg, mx = float_driver.run([F.pool_record(f"arm_avg_pool_{t}", *args, (-math.inf, math.inf), *dims),
                                F.pool_record(f"arm_max_pool_{t}", *args, (0.0, 8.5), *dims)])
    assert (avg.status, mx.status) == (OK, OK)
    assert avg.values.tolist() == [3.0, 4.5, 7.5, 9.0]
    assert mx.values.tolist() == [5.0, 6.0, 8.0, 8.5]


@pytest.mark.parametrize("t", TYPES)
@pytest.mark.parametrize("kind", ["avg", "max"])
def test_pool_matches_reference(float_driver, t, kind):
    rng = np.random.default_rng(51 if kind == "avg" else 52)
    calls = [flt_cases.pool_call(rng, t, kind) for _ in range(15)]
    data = [flt_cases.values(rng, t, int(np.prod(c[3])), 2.0) for c in calls]
    records = [F.pool_record(f"arm_{kind}_pool_{t}", *c[:3], c[3], c[4], c[5], d) for c, d in zip(calls, data)]
    for (stride, padding, act, in_dims, k, out_dims), d, result in zip(calls, data, float_driver.run(records)):
        assert result.status == OK
        exact = ref.clamp(ref.pool2d(d.reshape(in_dims), k, stride, padding, out_dims[1:3], kind).reshape(-1), *act)
        magnitude = ref.pool2d(np.abs(d).reshape(in_dims), k, stride, padding, out_dims[1:3], kind).reshape(-1)
        eps = F32_EPS if t == "f32" else F16_EPS
        tolerance = 0.0 if kind == "max" else (k[0] * k[1] + 2) * eps * magnitude + 1e-30
        assert np.all(np.abs(result.values.astype(np.float64) - exact) <= tolerance)


# ---- SOFTMAX ----------------------------------------------------------------------------------------------

def test_softmax_f32_close_to_the_exact_softmax(float_driver):
    rng = np.random.default_rng(61)
    rows = [rng.standard_normal(int(rng.integers(2, 40))).astype(np.float32) * float(s) for s in (0.1, 1, 5, 20)]
    results = float_driver.run([F.softmax_record("f32", 1, len(r), r) for r in rows])
    for row, result in zip(rows, results):
        exact = ref.softmax(row)
        # the table exp is good to about 1.4e-6 relative; rounding x - max and (x - max) * log2(e) in float32
        # costs |x - max| * log2(e) ulps more (as in TFLite); the sum and the 1 / sum product a few ulps
        spread = np.abs(row.astype(np.float64) - row.max()) * math.log2(math.e)
        relative = ref.exp_tolerance_f32() + (spread + 8) * F32_EPS
        assert np.all(np.abs(result.values - exact) <= relative * exact + 1e-38)


@pytest.mark.parametrize("t", TYPES)
def test_softmax_of_equal_logits_is_uniform(float_driver, t):
    # exp(0) = 1 exactly: every entry is 1/n rounded (n a power of two here, so exact).
    results = float_driver.run([F.softmax_record(t, 3, 8, np.full(24, 1.5)), F.softmax_record(t, 1, 2, [0.25, 0.25])])
    assert results[0].values.tolist() == [0.125] * 24
    assert results[1].values.tolist() == [0.5, 0.5]


def test_softmax_f16_exp_saturates_far_below_the_maximum(float_driver):
    # ns-cmsis-nn's float16 exp limits 2^n to n >= -14: exp(-20) comes out about 2^-14, not 2e-9.
    result = float_driver.one(F.softmax_record("f16", 1, 3, [0.0, -20.0, -5.0]))
    exact = ref.softmax(np.array([0.0, -20.0, -5.0]))
    assert abs(result.values[0] - exact[0]) < 1e-3 and abs(result.values[2] - exact[2]) < 1e-4
    assert 2 ** -15 < result.values[1] < 2 ** -13  # exact: 2.0e-9


# ---- activations ----------------------------------------------------------------------------------------

X = np.concatenate([np.linspace(-12, 12, 481), [0.0, -0.0, 3.0, -3.0, 6.0, 4.0, -4.0, 4.5]])


@pytest.mark.parametrize("t", TYPES)
def test_piecewise_linear_activations_are_exact(float_driver, t):
    x = X.astype(F.DTYPES[t])
    xd = x.astype(np.float64)
    results = float_driver.run([F.activation_record(t, F.ACT_NONE, 0.0, x), F.activation_record(t, F.ACT_RELU, 0.0, x),
                                F.activation_record(t, F.ACT_RELU6, 0.0, x),
                                F.activation_record(t, F.ACT_LEAKY_RELU, 0.125, x)])
    assert [r.status for r in results] == [OK] * 4
    assert results[0].values.tolist() == x.tolist()
    assert results[1].values.tolist() == np.maximum(xd, 0).tolist()
    assert results[2].values.tolist() == np.clip(xd, 0, 6).tolist()
    assert results[3].values.tolist() == ref.leaky_relu(xd, 0.125).tolist()  # alpha a power of two: exact


def test_f32_sigmoid_and_hard_swish_are_close(float_driver):
    x = X.astype(np.float32)
    sig, swish = float_driver.run([F.activation_record("f32", F.ACT_SIGMOID, 0.0, x),
                                   F.activation_record("f32", F.ACT_HARDSWISH, 0.0, x)])
    assert np.max(np.abs(sig.values - ref.sigmoid(x))) < 5e-7
    assert np.all(np.abs(swish.values - ref.hard_swish(x)) <= 4 * F32_EPS * np.abs(x) + 1e-30)


def test_f32_tanh_is_a_table_saturating_at_4(float_driver):
    x = X.astype(np.float32)
    result = float_driver.one(F.activation_record("f32", F.ACT_TANH, 0.0, x))
    inside = np.abs(x) <= 4
    # 64 table segments per unit: interpolation error below 2.5e-5 inside [-4, 4] ...
    assert np.max(np.abs(result.values[inside] - np.tanh(x[inside].astype(np.float64)))) < 2.5e-5
    # ... and exactly +-1 beyond, where tanh(4) is 0.99933: TFLite's tanhf differs by up to 6.7e-4 there.
    assert result.values[~inside].tolist() == np.sign(x[~inside]).tolist()


def test_f16_tanh_is_a_rational_approximation(float_driver):
    x = X.astype(np.float16)
    result = float_driver.one(F.activation_record("f16", F.ACT_TANH, 0.0, x))
    xd = x.astype(np.float64)
    inside = np.abs(xd) <= 3
    approx = xd * (27 + xd ** 2) / (27 + 9 * xd ** 2)
    assert np.all(np.abs(result.values[inside] - approx[inside]) <= 4 * F16_EPS * np.abs(approx[inside]) + 1e-7)
    assert result.values[~inside].tolist() == np.sign(xd[~inside]).tolist()
    assert 0.02 < np.max(np.abs(result.values - np.tanh(xd))) < 0.03  # how far from tanh it gets


def test_f16_sigmoid_and_hard_swish(float_driver):
    x = X.astype(np.float16)
    sig, swish = float_driver.run([F.activation_record("f16", F.ACT_SIGMOID, 0.0, x),
                                   F.activation_record("f16", F.ACT_HARDSWISH, 0.0, x)])
    xd = x.astype(np.float64)
    assert np.max(np.abs(sig.values - ref.sigmoid(xd))) < 5e-4  # exp saturation below -9.7 included
    assert np.all(np.abs(swish.values - ref.hard_swish(xd)) <= 4 * F16_EPS * np.abs(xd) + 1e-7)


@pytest.mark.parametrize("t", TYPES)
def test_activation_rejects_empty_input(float_driver, t):
    assert float_driver.one(F.activation_record(t, F.ACT_RELU, 0.0, [])).status == -1

# SPDX-License-Identifier: Apache-2.0
"""Float32 / float16 ADD / SUB / MUL, MAXIMUM / MINIMUM (with broadcasting) and the data-movement kernels and SUM."""

from __future__ import annotations

import math

import numpy as np
import pytest

import flt_cases
import flt_records as F
import flt_reference as ref
from test_float_convolution import ARG_ERROR, OK, TYPES


# ---- ADD / SUB / MUL ------------------------------------------------------------------------------------

@pytest.mark.parametrize("t", TYPES)
@pytest.mark.parametrize("op,fn", [("add", np.add), ("sub", np.subtract), ("mul", np.multiply)])
def test_elementwise_is_one_rounded_operation_then_clamp(float_driver, t, op, fn):
    # One float operation per element, so the result is the correctly rounded one (numpy's, in the type).
    rng = np.random.default_rng(71)
    a, b = flt_cases.values(rng, t, 300, 3.0), flt_cases.values(rng, t, 300, 3.0)
    a[:3] = [np.nan, 1.0, -2.0]
    act = (-4.0, 5.0)
    result = float_driver.one(F.elementwise_record(f"arm_elementwise_{op}_{t}", act, a, b))
    assert result.status == OK
    expected = fn(a, b)  # computed in the type itself
    clamped = np.where(np.isnan(expected), expected, np.clip(expected, *act)).astype(F.DTYPES[t])
    np.testing.assert_array_equal(result.values, clamped)  # a NaN passes the clamp, as in TFLite
    assert np.isnan(result.values[0])


@pytest.mark.parametrize("t", TYPES)
def test_elementwise_rejects_empty_blocks(float_driver, t):
    assert float_driver.one(F.elementwise_record(f"arm_elementwise_add_{t}", (0.0, 1.0), [], [])).status == ARG_ERROR


# ---- MAXIMUM / MINIMUM -----------------------------------------------------------------------------------

@pytest.mark.parametrize("t", TYPES)
@pytest.mark.parametrize("op", ["maximum", "minimum"])
def test_minmax_broadcasts_like_numpy(float_driver, t, op):
    rng = np.random.default_rng(81)
    pairs = [flt_cases.broadcast_pair(rng) for _ in range(30)]
    pairs.append(((1, 3, 1, 1), (1, 1, 1, 4), (1, 3, 1, 4)))  # ns-cmsis-nn misreads this one (README)
    data = [(flt_cases.values(rng, t, int(np.prod(d1))), flt_cases.values(rng, t, int(np.prod(d2))))
            for d1, d2, _ in pairs]
    records = [F.minmax_record(f"arm_{op}_{t}", d1, d2, out, a, b) for (d1, d2, out), (a, b) in zip(pairs, data)]
    fn = np.maximum if op == "maximum" else np.minimum
    for (d1, d2, out), (a, b), result in zip(pairs, data, float_driver.run(records)):
        assert result.status == OK
        np.testing.assert_array_equal(result.values.reshape(out), fn(a.reshape(d1), b.reshape(d2)))


def test_minmax_operand_order_decides_signed_zeros_and_nan(float_driver):
    # The first operand wins ties (a >= b picks a for the maximum); ns-cmsis-nn compares input 2 first
    # when input 2 is the broadcast scalar, so the order is mirrored: max(+0, -0) is +0 with input 1 first.
    same = float_driver.one(F.minmax_record("arm_maximum_f32", (1, 1, 1, 2), (1, 1, 1, 2), (1, 1, 1, 2),
                                            [0.0, np.nan], [-0.0, 1.0]))
    scalar_second = float_driver.one(F.minmax_record("arm_maximum_f32", (1, 1, 1, 2), (1, 1, 1, 1), (1, 1, 1, 2),
                                                     [-0.0, np.nan], [0.0]))
    assert math.copysign(1, same.values[0]) == 1 and same.values[1] == 1.0  # NaN >= 1 is false: b
    assert math.copysign(1, scalar_second.values[0]) == 1  # scalar +0 compared first, wins the tie
    assert np.isnan(scalar_second.values[1])  # 0 >= NaN is false: the NaN


@pytest.mark.parametrize("t", TYPES)
def test_minmax_rejects_shapes_that_do_not_broadcast(float_driver, t):
    record = F.minmax_record(f"arm_maximum_{t}", (1, 1, 2, 3), (1, 1, 3, 3), (1, 1, 3, 3), np.zeros(6), np.zeros(9))
    assert float_driver.one(record).status == ARG_ERROR


# ---- PAD / STRIDED_SLICE / TRANSPOSE / SUM -------------------------------------------------------------------

@pytest.mark.parametrize("t", TYPES)
def test_pad_strided_slice_transpose_are_exact_copies(float_driver, t):
    rng = np.random.default_rng(91)
    x = flt_cases.values(rng, t, 2 * 3 * 4 * 5).reshape(2, 3, 4, 5)
    pre, post = (0, 1, 2, 0), (1, 0, 1, 3)
    perm = (2, 0, 3, 1)
    begin, stride, out = (1, 2, 3, 0), (-1, -1, -2, 2), (2, 2, 2, 3)
    results = float_driver.run([
        F.pad_record(t, -1.5, x.shape, pre, post, x),
        F.transpose_record(t, 4, perm, x.shape, tuple(x.shape[p] for p in perm), x),
        F.transpose_record(t, 2, (1, 0), (6, 20, 1, 1), (20, 6, 1, 1), x),
        F.strided_slice_record(t, x.shape, begin, stride, out, x),
    ])
    assert [r.status for r in results] == [OK] * 4
    np.testing.assert_array_equal(results[0].values, ref.pad(x, pre, post, -1.5).reshape(-1))
    np.testing.assert_array_equal(results[1].values, x.transpose(perm).reshape(-1))
    np.testing.assert_array_equal(results[2].values, x.reshape(6, 20).T.reshape(-1))
    np.testing.assert_array_equal(results[3].values, ref.strided_slice(x, begin, stride, out).reshape(-1))


@pytest.mark.parametrize("t", TYPES)
def test_transpose_argument_checks(float_driver, t):
    x = np.zeros(6)
    results = float_driver.run([F.transpose_record(t, 2, (1, 2), (2, 3, 1, 1), (3, 2, 1, 1), x),
                                F.transpose_record(t, 5, (0, 1, 2, 3), (2, 3, 1, 1), (2, 3, 1, 1), x),
                                F.transpose_record(t, 2, (1, 0), (2, 3, 1, 1), (3, 2, 1, 1), x, layout=1)])
    assert [r.status for r in results] == [ARG_ERROR] * 3


@pytest.mark.parametrize("t", TYPES)
def test_reduce_sum_over_every_axis_choice(float_driver, t):
    # Small integers: every sum is exact, in float32 and in float16.
    rng = np.random.default_rng(95)
    x = rng.integers(-5, 6, (2, 3, 4, 5)).astype(np.float64)
    axes = [tuple((mask >> (3 - i)) & 1 for i in range(4)) for mask in range(16)]
    records = [F.reduce_sum_record(t, x.shape, a, ref.reduce_sum(x, a).shape, x) for a in axes]
    for a, result in zip(axes, float_driver.run(records)):
        assert result.status == OK
        np.testing.assert_array_equal(result.values, ref.reduce_sum(x, a).reshape(-1))


def test_reduce_sum_f16_accumulates_in_float32(float_driver):
    # 4096 ones: a float16 running sum would stop at 2048; the float32 one reaches 4096, rounded once.
    result = float_driver.one(F.reduce_sum_record("f16", (1, 1, 64, 64), (0, 1, 1, 1), (1, 1, 1, 1), np.ones(4096)))
    assert result.values.tolist() == [4096.0]

# SPDX-License-Identifier: Apache-2.0
"""SOFTMAX with int16 outputs: int8 -> int16 (arm_softmax_s8_s16) and int16 -> int16 (arm_softmax_s16)."""

from __future__ import annotations

import math

import numpy as np

import cases
import records as R
import reference as ref

EXP_LUT = cases.SOFTMAX_S16_EXP_LUT
RECIP_LUT = cases.SOFTMAX_S16_ONE_OVER_ONE_PLUS_X_LUT


def s16_call(data, scale=8.0 / 32767, rows=1):
    mult, shift = cases.softmax_s16_params(scale)
    return dict(rows=rows, row_size=len(data) // rows, mult=mult, shift=shift, exp_lut=EXP_LUT, recip_lut=RECIP_LUT,
                data=data)


def test_tflite_luts():
    # exp on [-10, 0] and 1/(1+x) on [0, 1], Q0.15, 512 segments + end point
    assert len(EXP_LUT) == len(RECIP_LUT) == 513
    assert (EXP_LUT[-1], RECIP_LUT[0], RECIP_LUT[-1]) == (32767, 32767, 16384)
    for i in range(0, 513, 37):
        assert abs(EXP_LUT[i] - math.exp(-10 + i * 10 / 512) * 32768) <= 2
        assert abs(RECIP_LUT[i] - 32768 / (1 + i / 512)) <= 2


def test_softmax_s16_hand_worked(portable_driver):
    uniform = portable_driver.one(R.softmax_s16_record(**s16_call([1234] * 4)))
    halves = portable_driver.one(R.softmax_s16_record(**s16_call([-300, -300])))
    assert (uniform.status, uniform.values.tolist()) == (0, [8192] * 4)   # 0.25 in Q0.15
    assert halves.values.tolist() == [16384, 16384]


def test_softmax_s16_probability_one_wraps_to_minus_one(portable_driver):
    """A probability that rounds to 1.0 (32768 in Q0.15) is stored without saturation, as in
    ns-cmsis-nn: it reads as -32768. TFLite's reference kernel saturates to 32767 instead."""
    single = portable_driver.one(R.softmax_s16_record(**s16_call([-5000])))
    dominant = portable_driver.one(R.softmax_s16_record(**s16_call([30000, -30000, -30000])))
    assert single.values.tolist() == [-32768]
    assert dominant.values.tolist()[1:] == [2, 2] and dominant.values[0] > 32700


def test_softmax_s16_rejects_missing_tables(portable_driver):
    call = s16_call([1, 2, 3])
    assert portable_driver.one(R.softmax_s16_record(**{**call, "exp_lut": []})).status == -1
    assert portable_driver.one(R.softmax_s16_record(**{**call, "recip_lut": None})).status == -1


def test_softmax_s16_matches_reference_and_float(portable_driver):
    rng = np.random.default_rng(61)
    calls = [cases.softmax_s16_args(rng) for _ in range(40)]
    for args, result in zip(calls, portable_driver.run([R.softmax_s16_record(**a) for a in calls])):
        assert result.status == 0
        np.testing.assert_array_equal(result.values, ref.softmax_s16(**args))
        if args["exp_lut"] is not EXP_LUT:
            continue
        # close to the real softmax of the dequantized logits (scale recovered from mult / shift)
        beta_scale = args["mult"] * 2.0 ** args["shift"] / 2**31 * 10 / 65535
        x = np.asarray(args["data"], dtype=np.float64).reshape(args["rows"], args["row_size"]) * beta_scale
        p = np.exp(x - x.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        unwrapped = np.where(result.values == -32768, 32768, result.values)  # probability 1.0 wraps
        assert np.max(np.abs(unwrapped / 32768 - p.reshape(-1))) < 2e-3


def test_softmax_s16_wraps_a_sum_normalising_to_2_pow_17(portable_driver):
    """9 equal logits with exp 29127 sum to 2^18 - 1, which normalises to 2^17: the reciprocal table
    index wraps to its low end (ns-cmsis-nn), giving twice TFLite's (saturating) result."""
    call = dict(rows=1, row_size=9, mult=2**30, shift=1, exp_lut=[29127] * 513, recip_lut=RECIP_LUT, data=[7] * 9)
    got = portable_driver.one(R.softmax_s16_record(**call)).values
    np.testing.assert_array_equal(got, ref.softmax_s16(**call))
    # sum 2^18 - 1 has 14 leading zeros: out = 29127 * reciprocal / 2^17, reciprocal 1/(1 + 0) not 1/(1 + 1)
    assert got.tolist() == [round(29127 * RECIP_LUT[0] / 2**17)] * 9


def test_softmax_s8_s16_hand_worked(portable_driver):
    mult, shift, diff_min = cases.softmax_params(1 / 16)
    uniform = portable_driver.one(R.softmax_s8_s16_record(1, 4, mult, shift, diff_min, [7, 7, 7, 7]))
    single = portable_driver.one(R.softmax_s8_s16_record(1, 1, mult, shift, diff_min, [-100]))
    assert uniform.values.tolist() == [-16384] * 4   # 0.25 * 65536 - 32768
    assert single.values.tolist() == [32767]         # probability 1 saturates at 65535/65536


def test_softmax_s8_s16_matches_reference_and_float(portable_driver):
    rng = np.random.default_rng(67)
    calls = [cases.softmax_s8_s16_args(rng) for _ in range(30)]
    for args, result in zip(calls, portable_driver.run([R.softmax_s8_s16_record(**a) for a in calls])):
        np.testing.assert_array_equal(result.values, ref.softmax(**args, out_bits=16))
        scale = args["mult"] * 2.0 ** args["shift"] / 2**31 / 2**26
        x = np.asarray(args["data"], dtype=np.float64).reshape(args["rows"], args["row_size"]) * scale
        p = np.exp(x - x.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        expected = np.clip(np.round(p * 65536) - 32768, -32768, 32767).reshape(-1)
        assert np.max(np.abs(result.values - expected)) <= 4

# SPDX-License-Identifier: Apache-2.0
"""int16 ADD / SUB / MUL, element-wise and broadcasting, against hand-worked values and the reference."""

from __future__ import annotations

import numpy as np
import pytest

import cases
import records as R
import reference as ref

# TFLite's general int16 ADD parameters when both inputs and the output have scale 2^-10:
# left shift 15, each input scaled by 0.5 (2^30 * 2^0) onto twice the input scale, and the output
# by 2 * 2^-10 / (2^15 * 2^-10) = 2^-14 (2^30 * 2^-13).
SAME_SCALE_ADD = [0, 2**30, 0, 0, 2**30, 0, 15, 0, 2**30, -13, -32768, 32767]


def test_add_and_sub_hand_worked(portable_driver):
    a, b = [1000, -30000, 30000, 7], [2000, -30000, 5000, -7]
    add = portable_driver.one(R.add_sub_record("arm_elementwise_add_s16", SAME_SCALE_ADD, a, b))
    sub = portable_driver.one(R.add_sub_record("arm_elementwise_sub_s16", SAME_SCALE_ADD, a, b))
    assert (add.status, add.values.tolist()) == (0, [3000, -32768, 32767, 0])
    assert (sub.status, sub.values.tolist()) == (0, [-1000, 0, 25000, 14])


def test_add_clamps_to_the_activation_range(portable_driver):
    relu6 = SAME_SCALE_ADD[:10] + [0, 6 * 1024]   # RELU6 at scale 2^-10
    got = portable_driver.one(R.add_sub_record("arm_elementwise_add_s16", relu6, [-500, 100, 5000], [-1, 100, 5000]))
    assert got.values.tolist() == [0, 200, 6144]


def test_mul_hand_worked(portable_driver):
    # out = a * b / 2^14 (2^30 * 2^-13): Q1.14 fixed-point multiplication
    q = [0, 0, 0, 2**30, -13, -32768, 32767]
    got = portable_driver.one(R.mul_record("arm_elementwise_mul_s16", q, [16384, -16384, 8192, 3, 32767], [16384, 16384, 3, 2, 32767]))
    assert got.values.tolist() == [16384, -16384, 2, 0, 32767]   # 1*1, -1*1, 1.5 rounds to 2, tiny, 4 saturates


def test_offsets_are_ignored(portable_driver):
    """int16 tensors are symmetric; ns-cmsis-nn's s16 kernels never read the offset arguments."""
    rng = np.random.default_rng(21)
    a, b = cases.rand_i16_full(rng, 40), cases.rand_i16_full(rng, 40)
    with_offsets = [77, *SAME_SCALE_ADD[1:3], -5, *SAME_SCALE_ADD[4:7], 300, *SAME_SCALE_ADD[8:]]
    for name in ("arm_elementwise_add_s16", "arm_elementwise_sub_s16"):
        plain = portable_driver.one(R.add_sub_record(name, SAME_SCALE_ADD, a, b)).values
        shifted = portable_driver.one(R.add_sub_record(name, with_offsets, a, b)).values
        np.testing.assert_array_equal(plain, shifted)
    q = [0, 0, 0, 2**30, -13, -32768, 32767]
    np.testing.assert_array_equal(portable_driver.one(R.mul_record("arm_elementwise_mul_s16", q, a, b)).values,
                                  portable_driver.one(R.mul_record("arm_elementwise_mul_s16", [9, -9, 99, *q[3:]], a, b)).values)


@pytest.mark.parametrize("name", ["arm_elementwise_add_s16", "arm_elementwise_sub_s16", "arm_elementwise_mul_s16"])
def test_elementwise_matches_reference(portable_driver, name):
    rng = np.random.default_rng(len(name) + 100)
    for _ in range(15):
        size = int(rng.integers(1, 60))
        a, b = cases.rand_i16_full(rng, size), cases.rand_i16_full(rng, size)
        if "mul" in name:
            q = cases.mul_quant_s16(rng)
            got, want = portable_driver.one(R.mul_record(name, q, a, b)), ref.mul_s16(q, a, b)
        else:
            q = cases.add_sub_quant_s16(rng)
            got, want = portable_driver.one(R.add_sub_record(name, q, a, b)), ref.add_sub_s16(q, a, b, "sub" in name)
        np.testing.assert_array_equal(got.values, want)


def test_add_tracks_real_addition(portable_driver):
    """With TFLite's parameters, the int16 sum is the real sum to within one output step."""
    rng = np.random.default_rng(5)
    for _ in range(10):
        s1, s2 = cases.s16_scale(rng), cases.s16_scale(rng)
        so = (s1 + s2) * 1.1
        twice_max = 2 * max(s1, s2)
        m1, sh1 = cases.quantize_multiplier(s1 / twice_max)
        m2, sh2 = cases.quantize_multiplier(s2 / twice_max)
        mo, sho = cases.quantize_multiplier(twice_max / (2**15 * so))
        q = [0, m1, sh1, 0, m2, sh2, 15, 0, mo, sho, -32768, 32767]
        a, b = cases.rand_i16_full(rng, 50), cases.rand_i16_full(rng, 50)
        got = portable_driver.one(R.add_sub_record("arm_elementwise_add_s16", q, a, b)).values
        assert np.max(np.abs(got * so - (a * s1 + b * s2))) <= 1.01 * so


@pytest.mark.parametrize("name", ["arm_add_s16", "arm_sub_s16", "arm_mul_s16"])
def test_broadcast_matches_numpy(portable_driver, name):
    rng = np.random.default_rng(31 + len(name))
    shapes = [((2, 1, 1, 1), (2, 3, 1, 4)), ((1, 3, 1, 2), (2, 1, 1, 1)),  # where ns-cmsis-nn over-reads
              ((2, 3, 1, 4), (1, 1, 1, 1)), ((1, 1, 1, 1), (2, 2, 2, 2))]
    while len(shapes) < 15:
        d1, d2, _ = cases.broadcast_dims(rng)
        shapes.append((d1, d2))
    for d1, d2 in shapes:
        out = tuple(max(x, y) for x, y in zip(d1, d2))
        a, b = cases.rand_i16_full(rng, int(np.prod(d1))), cases.rand_i16_full(rng, int(np.prod(d2)))
        xa, xb = ref.broadcast_pair(a, d1, b, d2, out)
        if name == "arm_mul_s16":
            q = cases.mul_quant_s16(rng)
            got, want = portable_driver.one(R.mul_record(name, q, a, b, (d1, d2, out))), ref.mul_s16(q, xa, xb)
        else:
            q = cases.add_sub_quant_s16(rng)
            got = portable_driver.one(R.add_sub_record(name, q, a, b, (d1, d2, out)))
            want = ref.add_sub_s16(q, xa, xb, name == "arm_sub_s16")
        assert got.status == 0
        np.testing.assert_array_equal(got.values, want, err_msg=f"{d1} with {d2}")

# SPDX-License-Identifier: Apache-2.0
"""ADD / SUB / MUL, element-wise and broadcasting, against hand-worked values and NumPy broadcasting."""

from __future__ import annotations

import numpy as np
import pytest

import cases
import records as R
import reference as ref

# TFLite ADD parameters when both inputs and the output have scale 0.1 and zero point 0:
# inputs scaled by 0.5 onto 2 * 0.1 with 20 bits headroom, output by 0.2 / (2^20 * 0.1).
SAME_SCALE_ADD = [0, 2**30, 0, 0, 2**30, 0, 20, 0, 2**30, -18, -128, 127]


def test_add_and_sub_hand_worked(portable_driver):
    add = portable_driver.one(R.add_sub_record("arm_elementwise_add_s8", SAME_SCALE_ADD, [10, -100, 100], [20, -100, 50]))
    sub = portable_driver.one(R.add_sub_record("arm_elementwise_sub_s8", SAME_SCALE_ADD, [10, -100, 100], [20, 100, 50]))
    assert add.values.tolist() == [30, -128, 127]
    assert sub.values.tolist() == [-10, -128, 50]


def test_mul_hand_worked(portable_driver):
    # offsets +1 / -2; product requantized by 1/4 (0.5 * 2^-1)
    q = [1, -2, 3, 2**30, -1, -128, 127]
    result = portable_driver.one(R.mul_record("arm_elementwise_mul_s8", q, [3, -5], [10, 6]))
    assert result.values.tolist() == [4 * 8 // 4 + 3, -4 * 4 // 4 + 3]


@pytest.mark.parametrize("name", ["arm_elementwise_add_s8", "arm_elementwise_sub_s8", "arm_elementwise_mul_s8"])
def test_elementwise_matches_reference(portable_driver, name):
    rng = np.random.default_rng(len(name))
    for _ in range(10):
        size = int(rng.integers(1, 50))
        a, b = cases.rand_i8(rng, size), cases.rand_i8(rng, size)
        if "mul" in name:
            q = cases.mul_quant(rng)
            got, want = portable_driver.one(R.mul_record(name, q, a, b)), ref.mul(q, a, b)
        else:
            q = cases.add_sub_quant(rng)
            got, want = portable_driver.one(R.add_sub_record(name, q, a, b)), ref.add_sub(q, a, b, "sub" in name)
        np.testing.assert_array_equal(got.values, want)


def broadcast_cases(rng, count):
    shapes = [((2, 1, 1, 1), (2, 3, 1, 4)), ((2, 3, 1, 4), (1, 1, 1, 1))]  # first: where ns-cmsis-nn over-reads
    while len(shapes) < count:
        d1, d2, _ = cases.broadcast_dims(rng)
        shapes.append((d1, d2))
    return shapes


@pytest.mark.parametrize("name", ["arm_add_s8", "arm_sub_s8", "arm_mul_s8"])
def test_broadcast_matches_numpy(portable_driver, name):
    rng = np.random.default_rng(17 + len(name))
    for d1, d2 in broadcast_cases(rng, 15):
        out = tuple(max(a, b) for a, b in zip(d1, d2))
        a, b = cases.rand_i8(rng, int(np.prod(d1))), cases.rand_i8(rng, int(np.prod(d2)))
        xa, xb = ref.broadcast_pair(a, d1, b, d2, out)
        if name == "arm_mul_s8":
            q = cases.mul_quant(rng)
            got, want = portable_driver.one(R.mul_record(name, q, a, b, (d1, d2, out))), ref.mul(q, xa, xb)
        else:
            q = cases.add_sub_quant(rng)
            got = portable_driver.one(R.add_sub_record(name, q, a, b, (d1, d2, out)))
            want = ref.add_sub(q, xa, xb, name == "arm_sub_s8")
        np.testing.assert_array_equal(got.values, want, err_msg=f"{d1} with {d2}")

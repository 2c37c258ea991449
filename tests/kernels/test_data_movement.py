# SPDX-License-Identifier: Apache-2.0
"""CONCATENATION, PAD, TRANSPOSE, STRIDED_SLICE, RESHAPE and MEAN against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import cases
import records as R
import reference as ref


@pytest.mark.parametrize("axis", "xyzw")
def test_concatenation_places_input_at_offset(portable_driver, axis):
    rng = np.random.default_rng(ord(axis))
    for _ in range(5):
        xyzw = [int(v) for v in rng.integers(1, 4, size=4)]
        index = "xyzw".index(axis)
        out = list(xyzw)
        out[index] += 3
        offset = int(rng.integers(0, 4))
        data = cases.rand_i8(rng, int(np.prod(xyzw)))
        result = portable_driver.one(R.concatenation_record(axis, xyzw, out[index], offset, int(np.prod(out)), data))
        # numpy shape order is (w, z, y, x); compare only the slab the call writes
        got = result.values.reshape(out[::-1])
        slab = [slice(None)] * 4
        slab[3 - index] = slice(offset, offset + xyzw[index])
        np.testing.assert_array_equal(got[tuple(slab)], np.asarray(data).reshape(xyzw[::-1]))


def test_pad_matches_numpy(portable_driver):
    rng = np.random.default_rng(1)
    for _ in range(10):
        dims = tuple(int(v) for v in rng.integers(1, 4, size=4))
        pre, post = tuple(int(v) for v in rng.integers(0, 3, size=4)), tuple(int(v) for v in rng.integers(0, 3, size=4))
        data, value = cases.rand_i8(rng, int(np.prod(dims))), int(rng.integers(-128, 128))
        got = portable_driver.one(R.pad_record(value, dims, pre, post, data)).values
        want = np.pad(np.asarray(data).reshape(dims), list(zip(pre, post)), constant_values=value).reshape(-1)
        np.testing.assert_array_equal(got, want)


def test_transpose_matches_numpy(portable_driver):
    rng = np.random.default_rng(2)
    for _ in range(20):
        rank, perm, in_dims, out_dims = cases.transpose_case(rng)
        data = cases.rand_i8(rng, int(np.prod(in_dims)))
        got = portable_driver.one(R.transpose_record(rank, perm, in_dims, out_dims, data)).values
        want = np.transpose(np.asarray(data).reshape(in_dims[:rank]), perm).reshape(-1)
        np.testing.assert_array_equal(got, want)


def test_transpose_rejects_bad_permutation(portable_driver):
    assert portable_driver.one(R.transpose_record(4, [0, 1, 2, 4], (1, 1, 1, 2), (1, 1, 1, 2), [1, 2])).status == -1


def test_strided_slice_matches_numpy(portable_driver):
    rng = np.random.default_rng(3)
    for _ in range(20):
        in_dims, begin, stride, out_dims = cases.strided_slice_case(rng)
        data = cases.rand_i8(rng, int(np.prod(in_dims)))
        got = portable_driver.one(R.strided_slice_record(in_dims, begin, stride, out_dims, data)).values
        index = tuple(np.arange(out) * s + b for b, s, out in zip(begin, stride, out_dims))
        want = np.asarray(data).reshape(in_dims)[np.ix_(*index)].reshape(-1)
        np.testing.assert_array_equal(got, want)


def test_strided_slice_argument_checks(portable_driver):
    assert portable_driver.one(R.strided_slice_record((1, 1, 1, 4), (0, 0, 0, 0), (1, 1, 1, 0), (1, 1, 1, 2),
                                                      [1, 2, 3, 4])).status == -1   # zero stride
    assert portable_driver.one(R.strided_slice_record((1, 1, 0, 4), (0, 0, 0, 0), (1, 1, 1, 1), (1, 1, 1, 2),
                                                      [1, 2, 3, 4])).status == -1   # empty input axis


def test_reshape_copies(portable_driver):
    assert portable_driver.one(R.reshape_record([3, -1, 7])).values.tolist() == [3, -1, 7]


def test_mean_hand_worked(portable_driver):
    # mean over H, W of [1, 2, 3, 6] with zero point 0: sum 12, times 1/4 (2^30 * 2^-1)
    result = portable_driver.one(R.mean_record(0, (1, 2, 2, 1), (0, 1, 1, 0), (1, 1, 1, 1), 0, 2**30, -1,
                                               [1, 2, 3, 6]))
    assert result.values.tolist() == [3]


def test_mean_matches_reference(portable_driver):
    rng = np.random.default_rng(4)
    for _ in range(20):
        input_offset, dims, axis, out, out_offset, m, s = cases.mean_case(rng)
        data = cases.rand_i8(rng, int(np.prod(dims)))
        got = portable_driver.one(R.mean_record(input_offset, dims, axis, out, out_offset, m, s, data)).values
        np.testing.assert_array_equal(got, ref.mean(input_offset, dims, axis, out_offset, m, s, data))

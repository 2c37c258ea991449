# SPDX-License-Identifier: Apache-2.0
"""int16 PAD, TRANSPOSE, STRIDED_SLICE, CONCATENATION and MEAN against NumPy and the reference."""

from __future__ import annotations

import numpy as np

import cases
import records as R
import reference as ref


def test_pad_matches_numpy(portable_driver):
    rng = np.random.default_rng(71)
    for _ in range(10):
        dims = tuple(int(v) for v in rng.integers(1, 4, size=4))
        pre, post = tuple(int(v) for v in rng.integers(0, 3, size=4)), tuple(int(v) for v in rng.integers(0, 3, size=4))
        data, value = cases.rand_i16_full(rng, int(np.prod(dims))), int(rng.integers(-32768, 32768))
        got = portable_driver.one(R.pad_s16_record(value, dims, pre, post, data))
        want = np.pad(np.asarray(data).reshape(dims), list(zip(pre, post)), constant_values=value).reshape(-1)
        assert got.status == 0
        np.testing.assert_array_equal(got.values, want)


def test_transpose_matches_numpy(portable_driver):
    rng = np.random.default_rng(72)
    for _ in range(20):
        rank, perm, in_dims, out_dims = cases.transpose_case(rng)
        data = cases.rand_i16_full(rng, int(np.prod(in_dims)))
        got = portable_driver.one(R.transpose_s16_record(rank, perm, in_dims, out_dims, data)).values
        np.testing.assert_array_equal(got, np.transpose(np.asarray(data).reshape(in_dims[:rank]), perm).reshape(-1))


def test_transpose_2d_always_swaps_and_bad_permutations_fail(portable_driver):
    # as in ns-cmsis-nn, rank 2 ignores the permutation
    got = portable_driver.one(R.transpose_s16_record(2, [0, 1], (2, 3, 1, 1), (3, 2, 1, 1), [1, 2, 3, 4, 5, 6]))
    assert got.values.tolist() == [1, 4, 2, 5, 3, 6]
    assert portable_driver.one(R.transpose_s16_record(3, [0, 1, 3], (1, 1, 2, 1), (1, 1, 2, 1), [1, 2])).status == -1


def test_strided_slice_matches_numpy(portable_driver):
    rng = np.random.default_rng(73)
    for _ in range(20):
        in_dims, begin, stride, out_dims = cases.strided_slice_case(rng)
        data = cases.rand_i16_full(rng, int(np.prod(in_dims)))
        got = portable_driver.one(R.strided_slice_s16_record(in_dims, begin, stride, out_dims, data)).values
        index = tuple(np.arange(out) * s + b for b, s, out in zip(begin, stride, out_dims))
        np.testing.assert_array_equal(got, np.asarray(data).reshape(in_dims)[np.ix_(*index)].reshape(-1))


def test_strided_slice_argument_checks(portable_driver):
    assert portable_driver.one(R.strided_slice_s16_record((1, 1, 1, 4), (0, 0, 0, 0), (1, 1, 1, 0), (1, 1, 1, 2),
                                                          [1, 2, 3, 4])).status == -1   # zero stride
    assert portable_driver.one(R.strided_slice_s16_record((1, 1, 0, 4), (0, 0, 0, 0), (1, 1, 1, 1), (1, 1, 1, 2),
                                                          [1, 2, 3, 4])).status == -1   # empty input axis


def test_concatenation_matches_numpy(portable_driver):
    rng = np.random.default_rng(74)
    for _ in range(20):
        axis, out_shape, concat, inputs = cases.concatenation_s16_case(rng)
        shapes = []
        for size in concat:
            shape = list(out_shape)
            shape[axis] = size
            shapes.append(shape)
        got = portable_driver.one(R.concatenation_s16_record(axis, out_shape, concat, inputs))
        want = np.concatenate([np.asarray(x).reshape(s) for x, s in zip(inputs, shapes)], axis=axis).reshape(-1)
        assert got.status == 0
        np.testing.assert_array_equal(got.values, want)


def test_mean_hand_worked(portable_driver):
    # mean over H, W of [1000, 2000, 3000, 6002]: sum 12002 times 1/4 (2^30 * 2^-1) = 3000.5 -> 3001
    result = portable_driver.one(R.mean_s16_record(0, (1, 2, 2, 1), (0, 1, 1, 0), (1, 1, 1, 1), 0, 2**30, -1,
                                                   [1000, 2000, 3000, 6002]))
    assert result.values.tolist() == [3001]


def test_mean_matches_reference(portable_driver):
    rng = np.random.default_rng(75)
    for _ in range(20):
        input_offset, dims, axis, out, out_offset, m, s = cases.mean_s16_case(rng)
        data = cases.rand_i16_full(rng, int(np.prod(dims)))
        got = portable_driver.one(R.mean_s16_record(input_offset, dims, axis, out, out_offset, m, s, data)).values
        np.testing.assert_array_equal(got, ref.mean(input_offset, dims, axis, out_offset, m, s, data, bits=16))

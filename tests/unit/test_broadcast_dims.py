# SPDX-License-Identifier: Apache-2.0
"""The dims broadcasting ADD/SUB/MUL pass to ns-cmsis-nn: the same elements pair up as NumPy pairs
them, and never the layout ns-cmsis-nn's broadcast walk gets wrong."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.shared.broadcast import kernel_broadcast_dims


def _pairs_like_numpy(a_shape, b_shape) -> bool:
    a = np.arange(int(np.prod(a_shape))).reshape(a_shape)
    b = np.arange(int(np.prod(b_shape))).reshape(b_shape) * 1000
    want = (a + b).reshape(-1)
    dims_a, dims_b, dims_out = kernel_broadcast_dims(a_shape, b_shape)
    got = (np.broadcast_to(a.reshape(dims_a), dims_out) + np.broadcast_to(b.reshape(dims_b), dims_out)).reshape(-1)
    return np.array_equal(got, want)


def _walk_bug_layout(dims_a, dims_b) -> bool:
    """One input 1 x 1 x 1 per batch (N > 1), the other H > 1, W = 1 on both sides, C > 1."""
    for one, other in ((dims_a, dims_b), (dims_b, dims_a)):
        if one[0] > 1 and one[1:] == (1, 1, 1) and other[1] > 1 and other[2] == 1 and other[3] > 1:
            return True
    return False


def test_per_batch_value_against_rows_drops_w_and_merges_h_with_c():
    assert kernel_broadcast_dims((2, 1, 1, 1), (2, 6, 1, 16)) == ((1, 1, 2, 1), (1, 1, 2, 96), (1, 1, 2, 96))


def test_equal_up_to_leading_ones_is_element_wise():
    dims_a, dims_b, _ = kernel_broadcast_dims((1, 4), (4,))
    assert dims_a == dims_b == (1, 1, 1, 4)


def test_every_broadcast_up_to_rank_4_pairs_like_numpy_and_avoids_the_walk_bug():
    rng = np.random.default_rng(7)
    for _ in range(3000):
        out = [int(d) for d in rng.integers(1, 4, size=int(rng.integers(1, 5)))]
        a = [d if rng.random() < 0.5 else 1 for d in out]
        b = [d if rng.random() < 0.5 else 1 for d in out]
        b = b[int(rng.integers(0, len(b))):] or [1]
        assert _pairs_like_numpy(tuple(a), tuple(b)), (a, b)
        assert not _walk_bug_layout(*kernel_broadcast_dims(a, b)[:2]), (a, b)
        # The shapes as given (right-aligned into 4-D) do hit the layout sometimes: the test can fail.
    assert _walk_bug_layout((2, 1, 1, 1), (2, 6, 1, 16))

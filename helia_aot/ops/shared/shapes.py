# SPDX-License-Identifier: Apache-2.0
"""Shape forms the kernels and the inline loops take."""

from __future__ import annotations


def nhwc(shape) -> tuple[int, int, int, int]:
    """Any rank <= 4 shape as (n, h, w, c), padding on the left with 1s."""
    dims = [int(d) for d in shape]
    if len(dims) > 4:
        raise ValueError(shape)
    dims = [1] * (4 - len(dims)) + dims
    return tuple(dims)  # type: ignore[return-value]


def row_major_strides(shape) -> list[int]:
    """Element strides of a row-major tensor of this shape, axis by axis."""
    strides, step = [], 1
    for n in reversed([int(d) for d in shape]):
        strides.append(step)
        step *= n
    return strides[::-1]

# SPDX-License-Identifier: Apache-2.0
"""NumPy broadcasting of two inputs, in the forms the kernels and the inline loops take: the broadcast
shape, the broadcast reduced to the fewest dimensions (neighbouring axes broadcast the same way merged),
the 4-D `cmsis_nn_dims` of a broadcasting kernel entry, and the element strides an inline loop reads an
input with (0 along the axes it is broadcast on)."""

from __future__ import annotations

from helia_aot.ir.graph import Tensor
from helia_aot.ops.base import OpContext, Rule, litert
from helia_aot.ops.shared.shapes import nhwc

# What TFLM's element-wise kernels (and PRELU's) do with shapes that do not broadcast: they have no check.
TFLM_UNCHECKED_BROADCAST = ("walks the output's shape with each input's own strides: an input that does not "
                            "broadcast is read past its end or only in part")
BROADCAST_RULE = Rule("input shapes broadcast (NumPy rules) to the output's shape", litert(
    "add.cc / sub.cc / mul.cc / maximum_minimum.cc Prepare", "CalculateShapeForBroadcast fails on shapes that do not "
    "broadcast; the output is resized to the broadcast shape", TFLM_UNCHECKED_BROADCAST))


def broadcast_shape(a, b) -> tuple[int, ...] | None:
    """The shape a and b broadcast to (NumPy rules, ranks aligned on the right), None if they do not."""
    ra, rb = list(a), list(b)
    n = max(len(ra), len(rb))
    ra, rb = [1] * (n - len(ra)) + ra, [1] * (n - len(rb)) + rb
    out = []
    for x, y in zip(ra, rb):
        if x != y and 1 not in (x, y):
            return None
        out.append(max(x, y))
    return tuple(out)


def broadcast_groups(a, b) -> list[tuple[int, int]]:
    """The broadcast as (size in a, size in b) per merged dimension: size-1 axes on both sides dropped,
    neighbours of the same kind (equal, a broadcast, b broadcast) multiplied together (the data stays
    contiguous). Equal shapes give one group (or none for single elements)."""
    out = broadcast_shape(a, b)
    ra = [1] * (len(out) - len(a)) + [int(d) for d in a]
    rb = [1] * (len(out) - len(b)) + [int(d) for d in b]
    groups: list[list] = []  # [kind, size in a, size in b]
    for da, db in zip(ra, rb):
        if da == 1 and db == 1:
            continue
        kind = "same" if da == db else ("a1" if da == 1 else "b1")
        if groups and groups[-1][0] == kind:
            groups[-1][1] *= da
            groups[-1][2] *= db
        else:
            groups.append([kind, da, db])
    return [(g[1], g[2]) for g in groups]


def kernel_broadcast_dims(a, b) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None:
    """The (n, h, w, c) dims of a and b and of the output a broadcasting kernel entry
    (arm_{add,sub,mul,maximum,minimum,<comparison>}_*) gets: the merged groups, right-aligned; None when
    the broadcast needs more than four (never up to rank 4; the operators then run the inline broadcasting
    loop, binary_broadcast.c.j2, which takes any rank as LiteRT does). Equal inputs come out equal (the element-wise
    entry then serves). ns-cmsis-nn's broadcast walk is wrong for one layout: an input with one value per
    batch (1 x 1 x 1 per batch, N > 1) against one with H > 1, W = 1 on both sides and C > 1 steps the
    single value back one element each row. That layout needs a dimension of 1 on both sides between two
    broadcast ones, which the merged form never has."""
    groups = broadcast_groups(a, b)
    if len(groups) > 4:
        return None
    dims_a = nhwc([g[0] for g in groups])
    dims_b = nhwc([g[1] for g in groups])
    return dims_a, dims_b, tuple(max(x, y) for x, y in zip(dims_a, dims_b))


def entry_dims(a: Tensor, b: Tensor) -> dict:
    """A broadcasting entry's arguments: input1_dims, input2_dims, output_dims (kernel_broadcast_dims; all None
    past four merged dimensions) and whether the inputs broadcast (merged dims that differ)."""
    dims = kernel_broadcast_dims(a.shape, b.shape)
    if dims is None:
        return dict(input1_dims=None, input2_dims=None, output_dims=None, broadcast=True)
    return dict(input1_dims=dims[0], input2_dims=dims[1], output_dims=dims[2], broadcast=dims[0] != dims[1])


def broadcast_strides(shape, out_shape, rank: int = 4) -> tuple[int, ...]:
    """Element strides of a row-major tensor `shape` read at `rank`-D output coordinates of `out_shape`
    (both right-aligned, padded with 1s): 0 along every axis it is broadcast on."""
    dims = [1] * (rank - len(shape)) + [int(d) for d in shape]
    out = [1] * (rank - len(out_shape)) + [int(d) for d in out_shape]
    strides, step = [0] * rank, 1
    for axis in range(rank - 1, -1, -1):
        strides[axis] = step if dims[axis] == out[axis] and dims[axis] != 1 else 0
        step *= dims[axis]
    return tuple(strides)


def loop_params(a, b) -> dict:
    """The inline broadcasting loop's (binary_broadcast.c.j2) merged output dims and each input's element
    offset as a C expression of the loop counters i0, i1, ... (an input's counter is absent where it is
    broadcast)."""
    groups = broadcast_groups(a, b) or [(1, 1)]
    dims = [max(x, y) for x, y in groups]

    def index(sizes) -> str:
        strides = broadcast_strides(sizes, dims, len(dims))
        terms = [f"i{k}" if s == 1 else f"i{k} * {s}" for k, s in enumerate(strides) if s]
        return " + ".join(terms) or "0"
    return dict(dims=dims, index1=index([g[0] for g in groups]), index2=index([g[1] for g in groups]))


def check_broadcast(ctx: OpContext, a: Tensor, b: Tensor, y: Tensor) -> tuple[int, ...]:
    """The two inputs broadcast (NumPy rules) to the output's shape, of any rank (LiteRT's element-wise kernels
    take any: measured to rank 7). The operators that call it declare BROADCAST_RULE."""
    shape = broadcast_shape(a.shape, b.shape)
    if shape is None:
        raise ctx.error(BROADCAST_RULE, b, detail=f"input shapes {list(a.shape)} and {list(b.shape)} do not broadcast")
    if tuple(y.shape) != shape:
        raise ctx.error(BROADCAST_RULE, y, detail=f"output shape {list(y.shape)} does not match the broadcast shape "
                                                  f"{list(shape)}")
    return shape

# SPDX-License-Identifier: Apache-2.0
"""What MAXIMUM, MINIMUM, DIV, SQUARED_DIFFERENCE and PRELU share: NumPy broadcasting of two inputs of
any rank, reduced to the fewest dimensions (neighbouring axes broadcast the same way merged), either as
the 4-D `cmsis_nn_dims` of a broadcasting kernel entry or as the strides of the inline loop
(binary_broadcast.c.j2) that serves the dtypes and layouts no entry takes."""

from __future__ import annotations

from helia_aot.ir.graph import Tensor
from helia_aot.ops.base import OpContext
from helia_aot.ops.common import broadcast_shape, nhwc


def broadcast_groups(a, b) -> list[tuple[int, int]]:
    """The broadcast as (size in a, size in b) per merged dimension: size-1 axes on both sides dropped,
    neighbours of the same kind (equal, a broadcast, b broadcast) multiplied together. Equal shapes give
    one group (or none for single elements)."""
    out = broadcast_shape(a, b)
    ra = [1] * (len(out) - len(a)) + [int(d) for d in a]
    rb = [1] * (len(out) - len(b)) + [int(d) for d in b]
    groups: list[list] = []
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


def entry_dims(a, b):
    """(dims a, dims b, dims out) as (n, h, w, c) for a broadcasting kernel entry, or None when the
    broadcast needs more than four merged dimensions. The merged form never puts a dimension of 1 on
    both sides between two broadcast ones, which avoids the one layout ns-cmsis-nn's min/max walk reads
    wrongly (w == c == 1, h > 1 against w == 1, c > 1)."""
    groups = broadcast_groups(a, b)
    if len(groups) > 4:
        return None
    dims_a = nhwc([g[0] for g in groups])
    dims_b = nhwc([g[1] for g in groups])
    return dims_a, dims_b, tuple(max(x, y) for x, y in zip(dims_a, dims_b))


def loop_params(a, b) -> dict:
    """The inline loop's merged output dims and each input's element strides along them (0 where that
    input is broadcast)."""
    groups = broadcast_groups(a, b) or [(1, 1)]
    dims = [max(x, y) for x, y in groups]
    strides1, strides2 = [0] * len(groups), [0] * len(groups)
    s1 = s2 = 1
    for k in range(len(groups) - 1, -1, -1):
        da, db = groups[k]
        strides1[k] = s1 if da != 1 else 0
        strides2[k] = s2 if db != 1 else 0
        s1 *= da
        s2 *= db
    def index(strides):
        terms = [f"i{k}" if s == 1 else f"i{k} * {s}" for k, s in enumerate(strides) if s]
        return " + ".join(terms) or "0"
    return dict(dims=dims, index1=index(strides1), index2=index(strides2))


def check_broadcast(ctx: OpContext, a: Tensor, b: Tensor, y: Tensor) -> tuple[int, ...]:
    """The two inputs broadcast (NumPy rules, any rank) to the output's shape."""
    shape = broadcast_shape(a.shape, b.shape)
    if shape is None:
        raise ctx.error(f"input shapes {list(a.shape)} and {list(b.shape)} do not broadcast", b)
    if tuple(y.shape) != shape:
        raise ctx.error(f"output shape {list(y.shape)} does not match the broadcast shape {list(shape)}", y)
    return shape


def inline_params(ctx: OpContext, body: list[str], in_ctype: str, out_ctype: str, comment: str) -> dict:
    """binary_broadcast.c.j2's parameters: `body` are C statements that read `a` and `b` (the two
    elements, of in_ctype) and store the result through `*out++`."""
    a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
    return dict(input1=a.index, input2=b.index, output=y.index, in_ctype=in_ctype, out_ctype=out_ctype,
                body=body, comment=comment, **loop_params(a.shape, b.shape))


# -- int32 ADD, SUB and MUL (inline C; TFLM's audio front end scales its log energies with them) -------

# The fused activation's clamp range on int32, as LiteRT's CalculateActivationRange<int32_t>.
INT32_ACTIVATION_RANGE = {"NONE": (-(1 << 31), (1 << 31) - 1), "RELU": (0, (1 << 31) - 1), "RELU6": (0, 6),
                          "RELU_N1_TO_1": (-1, 1)}
INT32_RULES = ("input shapes broadcast (NumPy rules, any rank)", "fused activation NONE, RELU, RELU6 or RELU_N1_TO_1",
               "wraps modulo 2^32, then clamps (as LiteRT); quantization ignored", "inline C")


def int32_activation(ctx: OpContext) -> tuple[int, int]:
    act = ctx.options("fused_activation_function", "NONE")
    if act not in INT32_ACTIVATION_RANGE:
        raise ctx.error(f"fused activation {act} is not supported on int32 (supported: "
                        f"{', '.join(INT32_ACTIVATION_RANGE)})", ctx.out(0))
    return INT32_ACTIVATION_RANGE[act]


def int32_validate(ctx: OpContext) -> None:
    check_broadcast(ctx, ctx.inp(0), ctx.inp(1), ctx.out(0))
    int32_activation(ctx)


def int32_wrapping_params(ctx: OpContext, operator: str, name: str) -> dict:
    """binary_broadcast.c.j2 parameters of `a <operator> b` on int32 in uint32 arithmetic (modulo 2^32, where
    int32 overflow is undefined in C; LiteRT's and TFLM's int32 kernels wrap), clamped to the activation."""
    lo, hi = int32_activation(ctx)
    body = [f"const int32_t v = (int32_t)((uint32_t)a {operator} (uint32_t)b);"]
    if (lo, hi) == INT32_ACTIVATION_RANGE["NONE"]:
        body.append("*out++ = v;")
    else:
        body.append(f"*out++ = v < {lo} ? {lo} : (v > {hi} ? {hi} : v);")
    return inline_params(ctx, body, "int32_t", "int32_t", f"{name} int32: a {operator} b modulo 2^32, then the "
                                                          "activation's clamp")


def int32_wrapping_fold(ctx: OpContext, fn):
    """The same at conversion time: fn on int64 operands, wrapped to int32, clamped."""
    import numpy as np
    lo, hi = int32_activation(ctx)
    a = np.asarray(ctx.inp(0).data).astype(np.int64)
    b = np.asarray(ctx.inp(1).data).astype(np.int64)
    wrapped = (fn(a, b) & 0xFFFFFFFF).astype(np.uint32).view(np.int32)
    return [np.clip(wrapped, lo, hi).astype(np.int32).reshape(ctx.out(0).shape)]

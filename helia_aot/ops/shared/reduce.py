# SPDX-License-Identifier: Apache-2.0
"""What SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD and REDUCE_ANY share (no @register here): the constant axis
input resolved as LiteRT does (negative axes, duplicates), the output shape for keep_dims true or false, and
the 4-D form the kernels and the inline loops take. Axes of size 1 are dropped and neighbouring axes that are
both reduced or both kept are merged (the data stays contiguous), so most shapes take the 4-D kernels; a pattern of more
than four such groups (rank 5 and up) runs the inline loop instead, which takes any number. Each output element
combines its inputs in the input's row-major order, LiteRT's order."""

from __future__ import annotations

import math

import numpy as np

from helia_aot.ops.base import AXIS_RANGE_RULE, Lowered, OpContext
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE, constant_ints

REDUCE_RULES = ("axis constant, negative axes allowed, duplicates ignored", "keep_dims true or false", "any rank")
# The rules every reduction's validate() enforces (reduce_validate, resolved_axes), with their sources.
SHARED_RULES = (AXIS_RANGE_RULE, OUTPUT_SHAPE_RULE)


def resolved_axes(ctx: OpContext) -> list[int]:
    rank = len(ctx.inp(0).shape)
    given = constant_ints(ctx, 1, "axis")
    if rank == 0:
        return []
    bad = [a for a in given if not -rank <= a < rank]
    if bad:
        raise ctx.error(AXIS_RANGE_RULE, ctx.inp(1), detail=f"axis {bad[0]} is out of range for a rank-{rank} input")
    return sorted({a % rank for a in given})


def reduced_shape(ctx: OpContext) -> tuple[int, ...]:
    x = ctx.inp(0)
    axes = resolved_axes(ctx)
    keep = bool(ctx.options("keep_dims", False))
    return tuple(1 if d in axes else int(x.shape[d]) for d in range(len(x.shape)) if keep or d not in axes)


def groups(ctx: OpContext) -> list[list]:
    """[size, reduced] runs of the input's axes: size-1 axes dropped, equal neighbours merged."""
    x = ctx.inp(0)
    axes = resolved_axes(ctx)
    runs: list[list] = []
    for d, size in enumerate(int(s) for s in x.shape):
        if size == 1:
            continue
        reduced = d in axes
        if runs and runs[-1][1] == reduced:
            runs[-1][0] *= size
        else:
            runs.append([size, reduced])
    return runs


def reduce_validate(ctx: OpContext) -> None:
    y = ctx.out(0)
    expected = reduced_shape(ctx)
    if tuple(int(d) for d in y.shape) != expected:
        raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} does not match the reduced shape "
                                                     f"{list(expected)} (keep_dims {bool(ctx.options('keep_dims', False))})")


def fits_4d(ctx: OpContext) -> bool:
    """The merged axes fit the 4-D (n, h, w, c) dims the kernels take."""
    return len(groups(ctx)) <= 4


def reduce_dims(ctx: OpContext) -> dict:
    """input_dims, axis_dims (1: reduced), output_dims, reduce (per axis, how many inputs it combines) and
    count (inputs per output): 4-D when the merged axes fit, else one entry per group."""
    runs = groups(ctx)
    pad = max(0, 4 - len(runs))
    in_dims = (1,) * pad + tuple(r[0] for r in runs)
    axis = [0] * pad + [1 if r[1] else 0 for r in runs]
    out = tuple(1 if a else d for d, a in zip(in_dims, axis))
    reduce = tuple(d if a else 1 for d, a in zip(in_dims, axis))
    return dict(input_dims=in_dims, axis_dims=tuple(axis), output_dims=out, reduce=reduce,
                count=int(math.prod(reduce)))


def fold_reduce(ctx: OpContext, fn) -> list[np.ndarray]:
    """Conversion-time value for constant inputs: NumPy's reduction (fn) over the resolved axes."""
    x = np.asarray(ctx.inp(0).data)
    axes = tuple(resolved_axes(ctx))
    return [np.asarray(fn(x, axis=axes, keepdims=True)).reshape(ctx.out(0).shape).astype(x.dtype)]


CTYPES = {"int8": "int8_t", "int16": "int16_t", "int32": "int32_t", "int64": "int64_t", "float32": "float",
          "bool": "uint8_t"}


def inline_lowered(ctx: OpContext, what: str, acc_ctype: str, init: str, combine: str, finish: str,
                   fixed: dict | None = None):
    """The reduce_inline.c.j2 loop: `combine` updates `acc` from `v` (`first` is 1 on an output's first input),
    `finish` stores `*out++` from `acc`."""
    x, y = ctx.inp(0), ctx.out(0)
    dims = reduce_dims(ctx)
    return Lowered(entry=None, fixed=dict({"implementation": "inline"}, **(fixed or {})),
                   params=dict(input=x.index, output=y.index, input_dims=dims["input_dims"],
                               output_dims=dims["output_dims"], reduce=dims["reduce"], what=what,
                               ctype=CTYPES[x.dtype], out_ctype=CTYPES[y.dtype], acc_ctype=acc_ctype, init=init,
                               combine=combine, finish=finish))


def entry_lowered(ctx: OpContext):
    """An ns-cmsis-nn reduction entry (input, input_dims, axis_dims, output, output_dims); the caller has
    checked fits_4d."""
    dims = reduce_dims(ctx)
    return Lowered(entry=ctx.variant.entries[0],
                   params=dict(input=ctx.inp(0).index, output=ctx.out(0).index, input_dims=dims["input_dims"],
                               axis_dims=dims["axis_dims"], output_dims=dims["output_dims"]))

# SPDX-License-Identifier: Apache-2.0
"""SCATTER_ND: a zeroed output of the constant `shape`, plus each update slice at the position its index vector
(last indices axis, depth d) addresses; repeated positions add up (wrapping for integers), as LiteRT's reference
kernel does. Indices int32 (LiteRT takes no int64 here), constant or run-time; the shape must be constant (it
is the output shape).

int8 calls arm_scatter_nd_s8; float32, int32, int64 and bool (repeats: or) are inline C. LiteRT has no int16 SCATTER_ND. A run-time index
outside its axis fails the operator (LiteRT fails the invoke for an index outside the output; see
shared.indexing)."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, Rule, litert, register
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE, constant_ints
from helia_aot.ops.shared.indexing import (NOT_EMPTY, check_not_empty, ctype, data, data_variant, entry_for, index_input,
                                           prod)
from helia_aot.ops.shared.operands import const_ints
from helia_aot.ops.shared.shapes import row_major_strides

# How repeated positions combine: LiteRT adds (integers wrap); bool addition is a logical or.
_COMBINE = {"int32": "wrap32", "int64": "wrap64", "bool": "or"}
_NOTES = ("indices int32, constant or run-time; a run-time index outside its axis fails model_run",
          "shape constant")
# LiteRT's scatter_nd.cc only (TFLM has no SCATTER_ND).
DEPTH = Rule("index depth (last indices axis) in [1, output rank]", litert(
    "scatter_nd.cc CheckShapes", "indices' last dimension <= NumElements(shape) (\"Indices and updates specified for "
    "outer dimensions\")"))
UPDATES_SHAPE = Rule("updates shape = indices[:-1] + shape[depth:]", litert(
    "scatter_nd.cc CheckShapes", "updates dims equal indices' outer dims, then shape's inner dims"))
INDEX_RANGE = Rule("constant indices within the output", litert(
    "scatter_nd.cc ScatterNd", "an index outside the output fails the invoke (reference_ops::ScatterNd's bound check)"))
_RULES = (DEPTH, UPDATES_SHAPE, INDEX_RANGE, NOT_EMPTY, OUTPUT_SHAPE_RULE)


def _variant(name: str):
    entry = "arm_scatter_nd_s8" if name == "int8" else None
    return data_variant(name, (Operand("indices", ("int32",)), data(name, "updates"), const_ints("shape")),
                        "scatter_nd.c.j2", entry, _NOTES, _RULES)


@register
class ScatterNd(OpLowering):
    op_types = ("SCATTER_ND",)
    options_table = "ScatterNdOptions"
    variants = tuple(_variant(n) for n in ("int8", "float32", "int32", "int64", "bool"))

    def validate(self, ctx: OpContext) -> None:
        idx, upd, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        shape = constant_ints(ctx, 2, "shape")
        if tuple(y.shape) != tuple(shape):
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} differs from the shape input "
                                                         f"{shape}")
        if len(idx.shape) < 1 or not 1 <= int(idx.shape[-1]) <= len(shape):
            raise ctx.error(DEPTH, idx, detail=f"index depth (last axis of indices {list(idx.shape)}) must be in [1, "
                                               f"output rank {len(shape)}]")
        depth = int(idx.shape[-1])
        expected = tuple(idx.shape[:-1]) + tuple(shape[depth:])
        if tuple(upd.shape) != expected:
            raise ctx.error(UPDATES_SHAPE, upd, detail=f"updates shape {list(upd.shape)} must be indices[:-1] + "
                                                       f"shape[{depth}:] = {list(expected)}")
        check_not_empty(ctx, idx, upd, y)
        index_input(ctx, 0, "indices", shape[:depth], INDEX_RANGE)

    def lower(self, ctx: OpContext) -> Lowered:
        idx, upd, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        shape = constant_ints(ctx, 2, "shape")
        depth = int(idx.shape[-1])
        ix, constants, scratch = index_input(ctx, 0, "indices", shape[:depth], INDEX_RANGE)
        entry = entry_for(ctx, "arm_scatter_nd")
        p = dict(updates=upd.index, output=y.index, ctype=ctype(ctx), ix=ix, depth=depth,
                 updates_count=prod(idx.shape[:-1]), slice=prod(shape[depth:]), size=prod(shape),
                 strides=row_major_strides(shape)[:depth], combine=_COMBINE.get(y.dtype, "add"))
        return Lowered(entry=entry, params=p, constants=constants, scratch_bytes=scratch,
                       fixed={} if entry else {"implementation": "inline"})

    def fold(self, ctx: OpContext):
        idx, upd, y = (np.asarray(ctx.inp(k).data) for k in (0, 1, 2))
        shape = tuple(int(v) for v in y.reshape(-1))
        depth = idx.shape[-1]
        if ((idx < 0) | (idx >= np.asarray(shape[:depth]))).any():
            return None
        dtype = upd.dtype
        out = np.zeros(shape, dtype=np.float64 if dtype.kind == "f" else np.int64)
        for v, u in zip(idx.reshape(-1, depth), upd.reshape((-1,) + shape[depth:])):
            out[tuple(v)] += u
        return [out.astype(dtype)]

# SPDX-License-Identifier: Apache-2.0
"""GATHER_ND: the last indices axis (depth d) addresses the first d params axes; output = indices[:-1] +
params[d:], any rank. Indices int32 or int64, constant or run-time.

int8 / int16 call arm_gather_nd_s8 / _s16 when params, indices and output have at most 4 axes (its limit), inline
C otherwise; float32, int32, int64 and bool are inline C. A run-time index outside its axis fails the operator, as it fails
LiteRT's invoke (see shared.indexing)."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import INDEX, Lowered, OpContext, OpLowering, Operand, Rule, both, helia_limit, register
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE
from helia_aot.ops.shared.indexing import (NOT_EMPTY, check_not_empty, ctype, data, data_variant, dims4, entry_for,
                                           index_input, prod)
from helia_aot.ops.shared.shapes import row_major_strides

_NOTES = ("indices int32 or int64, constant or run-time; a run-time index outside its axis fails model_run",)
DEPTH = Rule("indices at least a vector, index depth (last indices axis) at most the params rank", both(
    "gather_nd.cc Prepare (LiteRT and micro)", "\"Indices must be at least a vector\" and \"Index innermost dimension "
    "length must be <= params rank\""))
# Measured: LiteRT takes depth 0 ("must be in [0, params rank]"), each index vector then naming all of params.
DEPTH_ZERO = Rule("index depth at least 1", helia_limit(
    "the gather loops and arm_gather_nd_s8 / _s16 read at least one coordinate per index", "a whole-params copy per "
    "index for depth 0"))
INDEX_RANGE = Rule("constant indices within their params axes", both(
    "gather_nd.cc GatherNd (LiteRT and micro)", "an index outside its axis fails the invoke (\"gather_nd index out of "
    "bounds\")"))
_RULES = (DEPTH, DEPTH_ZERO, INDEX_RANGE, NOT_EMPTY, OUTPUT_SHAPE_RULE)


def _variant(name: str):
    entry = {"int8": "arm_gather_nd_s8", "int16": "arm_gather_nd_s16"}.get(name)
    return data_variant(name, (data(name, "params"), Operand("indices", INDEX)), "gather_nd.c.j2", entry, _NOTES,
                        _RULES)


@register
class GatherNd(OpLowering):
    op_types = ("GATHER_ND",)
    options_table = "GatherNdOptions"
    variants = tuple(_variant(n) for n in ("int8", "int16", "float32", "int32", "int64", "bool"))

    def validate(self, ctx: OpContext) -> None:
        x, idx, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        if len(idx.shape) < 1:
            raise ctx.error(DEPTH, idx, detail="indices must have at least one axis (the last holds the index vectors)")
        depth = int(idx.shape[-1])
        if depth > len(x.shape):
            raise ctx.error(DEPTH, idx, detail=f"index depth {depth} (last indices axis) must be in [1, params rank "
                                               f"{len(x.shape)}]")
        if depth < 1:
            raise ctx.error(DEPTH_ZERO, idx, detail="index depth 0 is not supported")
        expected = tuple(idx.shape[:-1]) + tuple(x.shape[depth:])
        if tuple(y.shape) != expected:
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} does not match the gathered "
                                                         f"{list(expected)}")
        check_not_empty(ctx, x, idx, y)
        index_input(ctx, 1, "indices", [int(d) for d in x.shape[:depth]], INDEX_RANGE)

    def lower(self, ctx: OpContext) -> Lowered:
        x, idx, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        depth = int(idx.shape[-1])
        ix, constants, scratch = index_input(ctx, 1, "indices", [int(d) for d in x.shape[:depth]], INDEX_RANGE)
        entry = entry_for(ctx, "arm_gather_nd")
        # A depth-only index ([d]) is one slice: the entry still takes its output with at least one axis.
        kernel_out = tuple(y.shape) or (1,)
        if entry and (len(x.shape) > 4 or len(idx.shape) > 4 or len(kernel_out) > 4):
            entry = None
        p = dict(input=x.index, output=y.index, ctype=ctype(ctx), ix=ix, depth=depth,
                 slices=prod(idx.shape[:-1]), slice=prod(x.shape[depth:]), strides=row_major_strides(x.shape)[:depth],
                 params_dims=dims4(x.shape), indices_dims=dims4(idx.shape), output_dims=dims4(kernel_out),
                 params_rank=len(x.shape), indices_rank=len(idx.shape))
        return Lowered(entry=entry, params=p, constants=constants, scratch_bytes=scratch,
                       fixed={} if entry else {"implementation": "inline"})

    def fold(self, ctx: OpContext):
        x, idx = np.asarray(ctx.inp(0).data), np.asarray(ctx.inp(1).data).astype(np.int64)
        depth = idx.shape[-1]
        if ((idx < 0) | (idx >= np.asarray(x.shape[:depth]))).any():
            return None
        rows = [x[tuple(v)] for v in idx.reshape(-1, depth)]
        return [np.asarray(rows, dtype=x.dtype).reshape(ctx.out(0).shape)]

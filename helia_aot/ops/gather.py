# SPDX-License-Identifier: Apache-2.0
"""GATHER: rows of the input along `axis`, picked by an int32 / int64 index tensor (constant or run-time),
with `batch_dims` leading axes shared by input and indices; both attributes may be negative. Output shape:
input[:axis] + indices[batch_dims:] + input[axis + 1:], any rank.

int8 / int16 call arm_gather_s8 / _s16 when input, indices and output have at most 4 axes (its limit), inline C
otherwise; float32, int32, int64 and bool are inline C. A run-time index outside [0, input[axis]) fails the operator, as it
fails LiteRT's invoke (see shared.indexing)."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import (AXIS_RANGE_RULE, INDEX, Axis, Lowered, OpContext, OpLowering, Operand, Rule, both,
                                litert, register)
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE
from helia_aot.ops.shared.indexing import (NOT_EMPTY, check_not_empty, ctype, data, data_variant, dims4, entry_for,
                                           index_input, prod)

_NOTES = ("indices int32 or int64, constant or run-time; a run-time index outside the axis fails model_run",
          "axis and batch_dims may be negative; batch_dims <= axis")
BATCH_DIMS = Rule("batch_dims in [0, min(axis, indices rank)] once made non-negative", both(
    "gather.cc Prepare (LiteRT and micro)", "TF_LITE_ENSURE(batch_dims <= axis), 0 <= batch_dims < rank of input, "
    "batch_dims <= NumDimensions(positions)"))
BATCH_AXES = Rule("input and indices agree on the batch_dims leading axes", both(
    "gather.cc Prepare (LiteRT and micro)", "TF_LITE_ENSURE_EQ(input->dims->data[i], positions->dims->data[i]) for "
    "i < batch_dims"))
INDEX_RANGE = Rule("constant indices within [0, input[axis])", litert(
    "gather.cc Gather", "an index outside the axis fails the invoke (\"Gather index out of bounds\")"))
_RULES = (AXIS_RANGE_RULE, BATCH_DIMS, BATCH_AXES, INDEX_RANGE, NOT_EMPTY, OUTPUT_SHAPE_RULE)


def _variant(name: str):
    entry = {"int8": "arm_gather_s8", "int16": "arm_gather_s16"}.get(name)
    return data_variant(name, (data(name), Operand("indices", INDEX)), "gather.c.j2", entry, _NOTES, _RULES)


def _geometry(ctx: OpContext) -> tuple[int, int]:
    """(axis, batch_dims), both made non-negative as LiteRT does."""
    x, idx = ctx.inp(0), ctx.inp(1)
    rank, idx_rank = len(x.shape), len(idx.shape)
    axis = int(ctx.options("axis", 0))
    batch_dims = int(ctx.options("batch_dims", 0))
    axis = axis + rank if axis < 0 else axis
    batch_dims = batch_dims + idx_rank if batch_dims < 0 else batch_dims
    if not 0 <= axis < rank:
        raise ctx.error(AXIS_RANGE_RULE, x, detail=f"axis {ctx.options('axis', 0)} is outside the rank-{rank} input")
    if not 0 <= batch_dims <= min(axis, idx_rank):
        raise ctx.error(BATCH_DIMS, idx, detail=f"batch_dims {ctx.options('batch_dims', 0)} must be in [0, min(axis "
                                                f"{axis}, indices rank {idx_rank})] once made non-negative")
    if tuple(x.shape[:batch_dims]) != tuple(idx.shape[:batch_dims]):
        raise ctx.error(BATCH_AXES, idx, detail=f"the {batch_dims} batch axes of input {list(x.shape)} and indices "
                                                f"{list(idx.shape)} differ")
    return axis, batch_dims


@register
class Gather(OpLowering):
    op_types = ("GATHER",)
    options_table = "GatherOptions"
    axes = (Axis("option axis"), Axis("option batch_dims", of="input 1", extra=1))
    variants = tuple(_variant(n) for n in ("int8", "int16", "float32", "int32", "int64", "bool"))

    def validate(self, ctx: OpContext) -> None:
        x, idx, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        if len(x.shape) < 1:
            raise ctx.error(AXIS_RANGE_RULE, x, detail="input must have at least one axis")
        axis, batch_dims = _geometry(ctx)
        expected = tuple(x.shape[:axis]) + tuple(idx.shape[batch_dims:]) + tuple(x.shape[axis + 1:])
        if tuple(y.shape) != expected:
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} does not match the gathered "
                                                         f"{list(expected)}")
        check_not_empty(ctx, x, idx, y)
        index_input(ctx, 1, "indices", [int(x.shape[axis])], INDEX_RANGE)

    def lower(self, ctx: OpContext) -> Lowered:
        x, idx, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        axis, batch_dims = _geometry(ctx)
        ix, constants, scratch = index_input(ctx, 1, "indices", [int(x.shape[axis])], INDEX_RANGE)
        idx_shape = tuple(idx.shape) or (1,)  # a scalar index is one index; the entry keeps a 1 for it
        kernel_out = tuple(x.shape[:axis]) + idx_shape[batch_dims:] + tuple(x.shape[axis + 1:])
        entry = entry_for(ctx, "arm_gather")
        if entry and (len(x.shape) > 4 or len(idx_shape) > 4 or len(kernel_out) > 4):
            entry = None  # beyond the entry's 4 axes: the same moves inline
        p = dict(input=x.index, output=y.index, ctype=ctype(ctx), ix=ix,
                 batches=prod(x.shape[:batch_dims]), outer=prod(x.shape[batch_dims:axis]), axis_size=int(x.shape[axis]),
                 coords=prod(idx.shape[batch_dims:]), inner=prod(x.shape[axis + 1:]),
                 input_dims=dims4(x.shape) if entry else None, indices_dims=dims4(idx_shape) if entry else None,
                 output_dims=dims4(kernel_out) if entry else None, axis=axis, batch_dims=batch_dims,
                 input_rank=len(x.shape), coords_rank=len(idx_shape))
        fixed = {} if entry else {"implementation": "inline"}
        return Lowered(entry=entry, params=p, constants=constants, scratch_bytes=scratch, fixed=fixed)

    def fold(self, ctx: OpContext):
        x, idx = ctx.inp(0), ctx.inp(1)
        axis, batch_dims = _geometry(ctx)
        values = np.asarray(idx.data).astype(np.int64)
        if ((values < 0) | (values >= x.shape[axis])).any():
            return None  # validate() names the bad index

        def take(data, index, a, b):
            if b == 0:
                return np.take(data, index, axis=a)
            return np.stack([take(data[i], index[i], a - 1, b - 1) for i in range(data.shape[0])])
        return [take(np.asarray(x.data), values, axis, batch_dims).reshape(ctx.out(0).shape)]

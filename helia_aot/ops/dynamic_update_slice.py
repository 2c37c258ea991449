# SPDX-License-Identifier: Apache-2.0
"""DYNAMIC_UPDATE_SLICE: a copy of the operand with the update block written at the start indices (int32 or
int64, constant or run-time), each start clamped to [0, operand axis - update axis] so the block fits, as
LiteRT's reference kernel does (an out-of-range start is no error). Any rank.

int8 / int16 call arm_dynamic_update_slice_s8 / _s16 (up to its 8 axes; inline C beyond); float32, int32, int64 and bool are
inline C. The generated code clamps run-time starts itself before the call, so int64 starts of any size are
exact and nothing can be written out of bounds."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import INDEX, Lowered, OpContext, OpLowering, Operand, Rule, both, register
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE
from helia_aot.ops.shared.indexing import (NOT_EMPTY, NOT_SCALAR, check_not_empty, ctype, data, data_variant, entry_for,
                                           prod)
from helia_aot.ops.shared.shapes import row_major_strides

_NOTES = ("start indices int32 or int64, constant or run-time, clamped so the update fits (LiteRT's rule)",)
UPDATE_FITS = Rule("update rank = operand rank, each update axis <= the operand's", both(
    "dynamic_update_slice.cc Prepare (LiteRT and micro)", "TF_LITE_ENSURE_EQ(NumDimensions(update), "
    "NumDimensions(operand)) and each update dim <= the operand's"))
START_SHAPE = Rule("start_indices a vector of operand-rank values", both(
    "dynamic_update_slice.cc Prepare (LiteRT and micro)", "NumDimensions(start_indices) == 1 and "
    "SizeOfDimension(start_indices, 0) == NumDimensions(operand)"))
_RULES = (UPDATE_FITS, START_SHAPE, NOT_SCALAR, NOT_EMPTY, OUTPUT_SHAPE_RULE)
_ENTRY_MAX_RANK = 8


def _variant(name: str):
    entry = {"int8": "arm_dynamic_update_slice_s8", "int16": "arm_dynamic_update_slice_s16"}.get(name)
    return data_variant(name, (data(name, "operand"), data(name, "update"), Operand("start_indices", INDEX)),
                        "dynamic_update_slice.c.j2", entry, _NOTES, _RULES)


def _clamped(ctx: OpContext) -> list[int]:
    x, u, s = ctx.inp(0), ctx.inp(1), ctx.inp(2)
    values = np.asarray(s.data).astype(np.int64).reshape(-1)
    return [int(min(max(v, 0), a - b)) for v, a, b in zip(values, x.shape, u.shape)]


@register
class DynamicUpdateSlice(OpLowering):
    op_types = ("DYNAMIC_UPDATE_SLICE",)
    options_table = "DynamicUpdateSliceOptions"
    variants = tuple(_variant(n) for n in ("int8", "int16", "float32", "int32", "int64", "bool"))

    def validate(self, ctx: OpContext) -> None:
        x, u, s, y = ctx.inp(0), ctx.inp(1), ctx.inp(2), ctx.out(0)
        if len(u.shape) != len(x.shape) or any(b > a for a, b in zip(x.shape, u.shape)):
            raise ctx.error(UPDATE_FITS, u, detail=f"update {list(u.shape)} must have the operand's rank and fit inside "
                                                   f"the operand {list(x.shape)}")
        if tuple(s.shape) != (len(x.shape),):
            raise ctx.error(START_SHAPE, s, detail=f"start_indices must be a vector of {len(x.shape)} values (one per "
                                                   f"operand axis), has shape {list(s.shape)}")
        if tuple(y.shape) != tuple(x.shape):
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} differs from the operand's "
                                                         f"{list(x.shape)}")
        if len(x.shape) < 1:
            raise ctx.error(NOT_SCALAR, x, detail="operand must have at least one axis")
        check_not_empty(ctx, x, u)

    def lower(self, ctx: OpContext) -> Lowered:
        x, u, s, y = ctx.inp(0), ctx.inp(1), ctx.inp(2), ctx.out(0)
        entry = entry_for(ctx, "arm_dynamic_update_slice")
        if len(x.shape) > _ENTRY_MAX_RANK:
            entry = None
        rank = len(x.shape)
        p = dict(operand=x.index, update_tensor=u.index, output=y.index, ctype=ctype(ctx), rank=rank,
                 operand_shape=[int(d) for d in x.shape], update_shape=[int(d) for d in u.shape],
                 last=[int(a) - int(b) for a, b in zip(x.shape, u.shape)], strides=row_major_strides(x.shape),
                 operand_size=prod(x.shape), update_size=prod(u.shape), row=int(u.shape[-1]),
                 rows=prod(u.shape[:-1]), start=_clamped(ctx) if s.is_constant else None, start_tensor=s.index,
                 start_ctype="int64_t" if s.dtype == "int64" else "int32_t")
        return Lowered(entry=entry, params=p, fixed={} if entry else {"implementation": "inline"})

    def fold(self, ctx: OpContext):
        x, u = np.asarray(ctx.inp(0).data), np.asarray(ctx.inp(1).data)
        out = x.copy()
        out[tuple(slice(c, c + n) for c, n in zip(_clamped(ctx), u.shape))] = u
        return [out]

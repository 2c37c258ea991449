# SPDX-License-Identifier: Apache-2.0
"""REVERSE_SEQUENCE: for each index b along `batch_dim`, the first seq_lengths[b] elements along `seq_dim` in
reverse order, the rest unchanged; a length of 0 or below changes nothing (as LiteRT). seq_lengths int32 or int64,
constant or run-time; any rank. LiteRT has no int8 REVERSE_SEQUENCE.

int16 calls arm_reverse_sequence_s16 (up to its 8 axes; inline C beyond); float32, int32 and int64 are inline C. A
length above the seq_dim axis fails LiteRT's invoke: a constant one is refused, a run-time one fails the operator
(see shared.indexing)."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import (AXIS_RANGE_RULE, INDEX, Axis, Lowered, OpContext, OpLowering, Operand, Rule, litert,
                                register)
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE
from helia_aot.ops.shared.indexing import (NOT_EMPTY, check_not_empty, ctype, data, data_variant, entry_for, index_input,
                                           prod)
from helia_aot.ops.shared.shapes import row_major_strides

_NOTES = ("seq_lengths int32 or int64, constant or run-time, one per batch_dim index; a run-time length above the "
          "seq_dim axis fails model_run",)
# LiteRT's reverse_sequence.cc only (TFLM has no REVERSE_SEQUENCE).
DIMS = Rule("seq_dim and batch_dim distinct, non-negative axes of the input", litert(
    "reverse_sequence.cc Prepare / ReverseSequenceImpl", "seq_dim and batch_dim index the input's dims (each < rank, "
    "not negative) and differ"))
LENGTHS_SHAPE = Rule("seq_lengths a vector of input[batch_dim] values", litert(
    "reverse_sequence.cc Prepare", "NumDimensions(seq_lengths) == 1 and its size equals input dims[batch_dim]"))
LENGTH_RANGE = Rule("constant seq_lengths at most input[seq_dim]", litert(
    "reverse_sequence.cc ReverseSequenceImpl", "each seq_lengths value <= input dims[seq_dim] (the invoke fails)"))
_RULES = (AXIS_RANGE_RULE, DIMS, LENGTHS_SHAPE, LENGTH_RANGE, NOT_EMPTY, OUTPUT_SHAPE_RULE)
_ENTRY_MAX_RANK = 8


def _variant(name: str):
    entry = "arm_reverse_sequence_s16" if name == "int16" else None
    return data_variant(name, (data(name), Operand("seq_lengths", INDEX)), "reverse_sequence.c.j2", entry, _NOTES,
                        _RULES)


def _dims(ctx: OpContext) -> tuple[int, int]:
    x = ctx.inp(0)
    rank = len(x.shape)
    seq_dim, batch_dim = int(ctx.options("seq_dim", 0)), int(ctx.options("batch_dim", 0))
    if not (0 <= seq_dim < rank and 0 <= batch_dim < rank) or seq_dim == batch_dim:
        raise ctx.error(DIMS, x, detail=f"seq_dim {seq_dim} and batch_dim {batch_dim} must be distinct axes of the "
                                        f"rank-{rank} input (not negative)")
    return seq_dim, batch_dim


@register
class ReverseSequence(OpLowering):
    op_types = ("REVERSE_SEQUENCE",)
    options_table = "ReverseSequenceOptions"
    axes = (Axis("option seq_dim"), Axis("option batch_dim"))
    variants = tuple(_variant(n) for n in ("int16", "float32", "int32", "int64"))

    def validate(self, ctx: OpContext) -> None:
        x, lengths, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        seq_dim, batch_dim = _dims(ctx)
        if tuple(lengths.shape) != (int(x.shape[batch_dim]),):
            raise ctx.error(LENGTHS_SHAPE, lengths, detail=f"seq_lengths must be a vector of {x.shape[batch_dim]} values "
                                                           f"(the batch_dim axis), has shape {list(lengths.shape)}")
        if tuple(y.shape) != tuple(x.shape):
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} differs from the input's "
                                                         f"{list(x.shape)}")
        check_not_empty(ctx, x)
        index_input(ctx, 1, "seq_lengths", [int(x.shape[seq_dim])], LENGTH_RANGE, mode="upper", name="seq_lengths")

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        seq_dim, batch_dim = _dims(ctx)
        ix, constants, scratch = index_input(ctx, 1, "seq_lengths", [int(x.shape[seq_dim])], LENGTH_RANGE,
                                             mode="upper", name="seq_lengths")
        entry = entry_for(ctx, "arm_reverse_sequence")
        if len(x.shape) > _ENTRY_MAX_RANK:
            entry = None
        strides = row_major_strides(x.shape)
        p = dict(input=x.index, output=y.index, ctype=ctype(ctx), ix=ix, rank=len(x.shape),
                 shape=[int(d) for d in x.shape], seq_dim=seq_dim, batch_dim=batch_dim, size=prod(x.shape),
                 seq_stride=strides[seq_dim], seq_size=int(x.shape[seq_dim]), batch_stride=strides[batch_dim],
                 batch_size=int(x.shape[batch_dim]))
        return Lowered(entry=entry, params=p, constants=constants, scratch_bytes=scratch,
                       fixed={} if entry else {"implementation": "inline"})

    def fold(self, ctx: OpContext):
        x, lengths = np.asarray(ctx.inp(0).data), np.asarray(ctx.inp(1).data).astype(np.int64)
        seq_dim, batch_dim = _dims(ctx)
        if (lengths > x.shape[seq_dim]).any():
            return None
        out = x.copy()
        # Views with batch_dim first and seq_dim second: row b's first n entries reversed in place of themselves.
        src, dst = np.moveaxis(x, (batch_dim, seq_dim), (0, 1)), np.moveaxis(out, (batch_dim, seq_dim), (0, 1))
        for b, n in enumerate(lengths):
            if n > 0:
                dst[b, :n] = src[b, :n][::-1]
        return [out]

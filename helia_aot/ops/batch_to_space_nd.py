# SPDX-License-Identifier: Apache-2.0
"""BATCH_TO_SPACE_ND, int8, int16 and float32, 3-D (N, H, C) and 4-D (N, H, W, C) inputs as LiteRT takes
them: arm_batch_to_space_nd_s8 / _s16 (a 3-D input as W = 1, block width 1), float32 inline C (a
gather: each output pixel copies one input pixel). block_shape and crops must be constant (the output
shape depends on them)."""

from __future__ import annotations

import numpy as np

from helia_aot.emit.c_syntax import c_type
from helia_aot.ops.base import Lowered, OpContext, OpLowering, Rule, Variant, litert, register
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE
from helia_aot.ops.shared.indexing import NOT_EMPTY
from helia_aot.ops.shared.operands import fp32
from helia_aot.ops.shared.shaping import data
from helia_aot.ops.shared.spatial import (ND_INT16_ZERO_POINT, ND_RANK, ND_SAME_QUANT, ND_SHAPES, ND_VALUES,
                                          batch_to_space, block_and_pairs, check_nd_quantization, check_shape,
                                          const_int32, nhwc_of)

BATCH = Rule("batch divisible by the block size", litert(
    "batch_to_space_nd.cc ResizeOutputTensor", "TF_LITE_ENSURE_EQ(output_batch_size % block product, 0)"))
CROPS = Rule("crops no larger than the block-scaled dimension", litert(
    "batch_to_space_nd.cc ResizeOutputTensor", "TF_LITE_ENSURE(final_dim_size >= 0) after the crops",
    "places input rows by the crops inside the declared output, which they do not size: rows it does not reach are "
    "left unwritten"))
_RULES = (ND_RANK, ND_SHAPES, ND_VALUES, BATCH, CROPS, NOT_EMPTY, OUTPUT_SHAPE_RULE)
_INT_RULES = _RULES + (ND_SAME_QUANT, ND_INT16_ZERO_POINT)


def _inputs(act):
    return (act, const_int32("block_shape"), const_int32("crops"))


@register
class BatchToSpaceND(OpLowering):
    op_types = ("BATCH_TO_SPACE_ND",)
    options_table = "BatchToSpaceNDOptions"
    variants = (
        Variant("int8", inputs=_inputs(data("int8")), outputs=(data("int8", "output"),),
                entries=("arm_batch_to_space_nd_s8",), template="batch_to_space_nd.c.j2", rules=_INT_RULES),
        Variant("int16", inputs=_inputs(data("int16")), outputs=(data("int16", "output"),),
                entries=("arm_batch_to_space_nd_s16",), template="batch_to_space_nd.c.j2", rules=_INT_RULES),
        Variant("float32", inputs=_inputs(fp32()), outputs=(fp32("output"),),
                template="batch_to_space_nd_f32.c.j2", lower="lower_float32", rules=_RULES),
    )

    def _geometry(self, ctx: OpContext):
        x = ctx.inp(0)
        (bh, bw), crop = block_and_pairs(ctx, "crops")
        n, h, w, c = nhwc_of(x.shape)
        if n % (bh * bw) != 0:
            raise ctx.error(BATCH, x, detail=f"input batch {n} is not a multiple of the block size {bh} x {bw}")
        out = (n // (bh * bw), h * bh - crop[0] - crop[2], w * bw - crop[1] - crop[3], c)
        return (n, h, w, c), (bh, bw), crop, out

    def validate(self, ctx: OpContext) -> None:
        x, y = ctx.inp(0), ctx.out(0)
        _, _, _, out = self._geometry(ctx)
        if any(d < 1 for d in out):
            raise ctx.error(CROPS if min(out) < 0 else NOT_EMPTY, ctx.inp(2),
                            detail=f"crops {list(self._geometry(ctx)[2])} leave an empty output {list(out)}")
        check_shape(ctx, y, out if len(x.shape) == 4 else (out[0], out[1], out[3]), NOT_EMPTY)
        check_nd_quantization(ctx)

    def _params(self, ctx: OpContext) -> dict:
        x, y = ctx.inp(0), ctx.out(0)
        in_dims, block, crop, out_dims = self._geometry(ctx)
        return dict(input=x.index, output=y.index, input_dims=in_dims, block=block, crop=crop,
                    output_dims=out_dims, ctype=c_type(y.dtype))

    def lower(self, ctx: OpContext) -> Lowered:
        return Lowered(entry=ctx.variant.entries[0], params=self._params(ctx))

    def lower_float32(self, ctx: OpContext) -> Lowered:
        """No float entry in ns-cmsis-nn: inline C byte moves."""
        return Lowered(entry=None, params=self._params(ctx), fixed={"implementation": "inline"})

    def fold(self, ctx: OpContext):
        x, y = ctx.inp(0), ctx.out(0)
        in_dims, block, crop, _ = self._geometry(ctx)
        return [batch_to_space(np.asarray(x.data).reshape(in_dims), block, crop).reshape(y.shape)]

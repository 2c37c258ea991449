# SPDX-License-Identifier: Apache-2.0
"""SPACE_TO_BATCH_ND, int8, int16 and float32, 3-D (N, H, C) and 4-D (N, H, W, C) inputs as LiteRT takes
them: arm_space_to_batch_nd_s8 / _s16 (a 3-D input as W = 1, block width 1), float32 inline C. Padding
takes the output zero point as LiteRT's kernel does (0 for int16 and float32). block_shape and paddings
must be constant (the output shape depends on them); negative paddings are refused."""

from __future__ import annotations

import numpy as np

from helia_aot.emit.c_syntax import c_type
from helia_aot.ops.base import Lowered, OpContext, OpLowering, Rule, Variant, litert, register
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE
from helia_aot.ops.shared.indexing import NOT_EMPTY
from helia_aot.ops.shared.operands import fp32, is_float
from helia_aot.ops.shared.shaping import data
from helia_aot.ops.shared.spatial import (ND_INT16_ZERO_POINT, ND_RANK, ND_SAME_QUANT, ND_SHAPES, ND_VALUES,
                                          block_and_pairs, check_nd_quantization, check_shape, const_int32, nhwc_of,
                                          space_to_batch)

DIVISIBLE = Rule("padded height and width divisible by the block", litert(
    "space_to_batch_nd.cc ResizeOutputTensor", "TF_LITE_ENSURE_EQ(final_dim_size % block_shape[dim], 0)",
    "walks the declared output, which the paddings do not size, and drops the padded rows past its end"))
_RULES = (ND_RANK, ND_SHAPES, ND_VALUES, DIVISIBLE, NOT_EMPTY, OUTPUT_SHAPE_RULE)
_INT_RULES = _RULES + (ND_SAME_QUANT, ND_INT16_ZERO_POINT)


def _inputs(act):
    return (act, const_int32("block_shape"), const_int32("paddings"))


@register
class SpaceToBatchND(OpLowering):
    op_types = ("SPACE_TO_BATCH_ND",)
    options_table = "SpaceToBatchNDOptions"
    variants = (
        Variant("int8", inputs=_inputs(data("int8")), outputs=(data("int8", "output"),),
                entries=("arm_space_to_batch_nd_s8",), template="space_to_batch_nd.c.j2", rules=_INT_RULES),
        Variant("int16", inputs=_inputs(data("int16")), outputs=(data("int16", "output"),),
                entries=("arm_space_to_batch_nd_s16",), template="space_to_batch_nd.c.j2", rules=_INT_RULES),
        Variant("float32", inputs=_inputs(fp32()), outputs=(fp32("output"),),
                template="space_to_batch_nd_f32.c.j2", lower="lower_float32", rules=_RULES),
    )

    def _geometry(self, ctx: OpContext):
        x = ctx.inp(0)
        (bh, bw), pad = block_and_pairs(ctx, "paddings")
        n, h, w, c = nhwc_of(x.shape)
        padded = (h + pad[0] + pad[2], w + pad[1] + pad[3])
        if padded[0] % bh or padded[1] % bw:
            raise ctx.error(DIVISIBLE, ctx.inp(2), detail=f"padded height and width {list(padded)} are not multiples of "
                                                          f"the block {bh} x {bw}")
        return (n, h, w, c), (bh, bw), pad, (n * bh * bw, padded[0] // bh, padded[1] // bw, c)

    def validate(self, ctx: OpContext) -> None:
        x, y = ctx.inp(0), ctx.out(0)
        _, _, _, out = self._geometry(ctx)
        check_shape(ctx, y, out if len(x.shape) == 4 else (out[0], out[1], out[3]), NOT_EMPTY)
        check_nd_quantization(ctx)

    def _params(self, ctx: OpContext) -> dict:
        x, y = ctx.inp(0), ctx.out(0)
        in_dims, block, pad, out_dims = self._geometry(ctx)
        pad_value = 0 if is_float(y) or y.quant is None else int(y.quant.zero_point)
        return dict(input=x.index, output=y.index, input_dims=in_dims, block=block, pad=pad, output_dims=out_dims,
                    pad_value=pad_value, ctype=c_type(y.dtype))

    def lower(self, ctx: OpContext) -> Lowered:
        return Lowered(entry=ctx.variant.entries[0], params=self._params(ctx))

    def lower_float32(self, ctx: OpContext) -> Lowered:
        """No float entry in ns-cmsis-nn: inline C byte moves, padding 0.0f."""
        return Lowered(entry=None, params=self._params(ctx), fixed={"implementation": "inline"})

    def fold(self, ctx: OpContext):
        x, y = ctx.inp(0), ctx.out(0)
        in_dims, block, pad, _ = self._geometry(ctx)
        value = 0 if is_float(y) or y.quant is None else int(y.quant.zero_point)
        return [space_to_batch(np.asarray(x.data).reshape(in_dims), block, pad, value).reshape(y.shape)]

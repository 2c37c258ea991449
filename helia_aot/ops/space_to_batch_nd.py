# SPDX-License-Identifier: Apache-2.0
"""SPACE_TO_BATCH_ND, int8, int16 and float32, 3-D (N, H, C) and 4-D (N, H, W, C) inputs as LiteRT takes
them: arm_space_to_batch_nd_s8 / _s16 (a 3-D input as W = 1, block width 1), float32 inline C. Padding
takes the output zero point as LiteRT's kernel does (0 for int16 and float32). block_shape and paddings
must be constant (the output shape depends on them); negative paddings are refused."""

from __future__ import annotations

import numpy as np

from helia_aot.emit.c_syntax import c_type
from helia_aot.ops.base import Lowered, OpContext, OpLowering, Variant, register
from helia_aot.ops.shared.checks import require_same_quant
from helia_aot.ops.shared.operands import fp32, int8_act, int16_act, is_float
from helia_aot.ops.shared.spatial import block_and_pairs, check_shape, const_int32, nhwc_of, space_to_batch

_RULES = ("input rank 3 or 4", "block_shape >= 1, paddings >= 0 (constant int32)",
          "padded height and width divisible by the block", "input and output share scale and zero point")


def _inputs(act):
    return (act, const_int32("block_shape"), const_int32("paddings"))


@register
class SpaceToBatchND(OpLowering):
    op_types = ("SPACE_TO_BATCH_ND",)
    options_table = "SpaceToBatchNDOptions"
    variants = (
        Variant("int8", inputs=_inputs(int8_act()), outputs=(int8_act("output"),),
                entries=("arm_space_to_batch_nd_s8",), template="space_to_batch_nd.c.j2", notes=_RULES),
        Variant("int16", inputs=_inputs(int16_act()), outputs=(int16_act("output"),),
                entries=("arm_space_to_batch_nd_s16",), template="space_to_batch_nd.c.j2", notes=_RULES),
        Variant("float32", inputs=_inputs(fp32()), outputs=(fp32("output"),),
                template="space_to_batch_nd_f32.c.j2", lower="lower_float32", notes=_RULES[:3]),
    )

    def _geometry(self, ctx: OpContext):
        x = ctx.inp(0)
        (bh, bw), pad = block_and_pairs(ctx, "paddings")
        n, h, w, c = nhwc_of(x.shape)
        padded = (h + pad[0] + pad[2], w + pad[1] + pad[3])
        if padded[0] % bh or padded[1] % bw:
            raise ctx.error(f"padded height and width {list(padded)} are not multiples of the block {bh} x {bw}",
                            ctx.inp(2))
        return (n, h, w, c), (bh, bw), pad, (n * bh * bw, padded[0] // bh, padded[1] // bw, c)

    def validate(self, ctx: OpContext) -> None:
        x, y = ctx.inp(0), ctx.out(0)
        _, _, _, out = self._geometry(ctx)
        check_shape(ctx, y, out if len(x.shape) == 4 else (out[0], out[1], out[3]))
        if not is_float(x):
            require_same_quant(ctx, x, y, f"{x.dtype} SPACE_TO_BATCH_ND")

    def _params(self, ctx: OpContext) -> dict:
        x, y = ctx.inp(0), ctx.out(0)
        in_dims, block, pad, out_dims = self._geometry(ctx)
        pad_value = 0 if is_float(y) else int(y.quant.zero_point)
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
        value = 0 if is_float(y) else int(y.quant.zero_point)
        return [space_to_batch(np.asarray(x.data).reshape(in_dims), block, pad, value).reshape(y.shape)]

# SPDX-License-Identifier: Apache-2.0
"""BROADCAST_TO: the input repeated to a constant shape (NumPy rules: ranks aligned on the right, each input
dimension 1 or equal), every dtype LiteRT's reference kernel takes, output ranks 1 to 8.

int8 and int16 call arm_broadcast_to_s8 / _s16 (the input shape padded with leading 1s to the output's
rank); uint8, int32, int64, float32 and bool are the inline element gather (stride 0 along broadcast
dimensions). Codes are copied, so integer outputs equal LiteRT's whatever the quantization."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Rule, Variant, both, register, tflm
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE, constant_ints
from helia_aot.ops.shared.operands import const_ints
from helia_aot.ops.shared.shapes import row_major_strides
from helia_aot.ops.shared.shaping import MOVABLE, data, dtype_variants, walk_params

_ENTRIES = {"int8": "arm_broadcast_to_s8", "int16": "arm_broadcast_to_s16"}
RANKS = Rule("shape of rank 1 to 8, at least the input's", tflm(
    "broadcast_to.cc ValidateOutputTensor", "\"Output shape must be broadcastable from input shape\" (input rank <= "
    "output rank) and output rank <= kMaxDims (8); LiteRT's broadcast_to.cc checks the first only (a rank-9 model is "
    "refused when loaded here)"))
BROADCASTS = Rule("each input dimension 1 or equal to the shape's (ranks aligned on the right)", both(
    "broadcast_to.cc ResizeOutputTensor (LiteRT and micro)", "every input dimension is 1 or the output's (\"Output "
    "shape must be broadcastable from input shape\")"))
_RULES = (RANKS, BROADCASTS, OUTPUT_SHAPE_RULE)


def _variant(dtype: str, entry: str | None) -> Variant:
    return Variant(dtype, inputs=(data(dtype), const_ints("shape")), outputs=(data(dtype, "output"),),
                   entries=(entry,) if entry else (), template="broadcast_to.c.j2" if entry else "gather_walk.c.j2",
                   rules=_RULES, notes=("shape constant",))


@register
class BroadcastTo(OpLowering):
    op_types = ("BROADCAST_TO",)
    options_table = "BroadcastToOptions"
    variants = dtype_variants(MOVABLE, _variant, _ENTRIES)

    def _shapes(self, ctx: OpContext) -> tuple[list[int], list[int]]:
        """(input shape padded to the output's rank, output shape), refused unless they broadcast."""
        x = ctx.inp(0)
        shape = constant_ints(ctx, 1, "shape")
        if not len(x.shape) <= len(shape) <= 8 or not shape:
            raise ctx.error(RANKS, ctx.inp(1), detail=f"shape {shape} must have rank 1 to 8 and at least the input's "
                                                      f"{len(x.shape)}")
        padded = [1] * (len(shape) - len(x.shape)) + [int(d) for d in x.shape]
        if any(d not in (1, n) for d, n in zip(padded, shape)) or any(n < 0 for n in shape):
            raise ctx.error(BROADCASTS, ctx.inp(1), detail=f"input shape {list(x.shape)} does not broadcast to {shape}")
        return padded, shape

    def validate(self, ctx: OpContext) -> None:
        _, shape = self._shapes(ctx)
        y = ctx.out(0)
        if list(y.shape) != shape:
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} differs from the shape input "
                                                         f"{shape}")

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        padded, shape = self._shapes(ctx)
        if y.num_elements == 0:
            return Lowered(template="copy_rows.c.j2", params=dict(copies=[]))
        if ctx.variant.entries:
            return Lowered(entry=ctx.variant.entries[0],
                           params=dict(input=x.index, output=y.index, shape=padded, output_shape=shape))
        strides = [s if d == n else 0 for s, d, n in zip(row_major_strides(padded), padded, shape)]
        return Lowered(params=walk_params(x, y, 0, strides, [None] * len(shape)))

    def fold(self, ctx: OpContext):
        return [np.broadcast_to(np.asarray(ctx.inp(0).data), self._shapes(ctx)[1]).copy()]

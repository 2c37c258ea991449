# SPDX-License-Identifier: Apache-2.0
"""TILE: the input repeated multiples[d] times along each dimension (multiples constant), every dtype
LiteRT's reference kernel takes, ranks 1 to 8.

int8 and int16 call arm_tile_s8 / _s16; uint8, int32, int64, float32 and bool are the inline element gather
(input index wrapping at the input's size). Codes are copied, so integer outputs equal LiteRT's whatever
the quantization."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Rule, Variant, kernel_limit, litert, register
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE, constant_ints
from helia_aot.ops.shared.operands import const_ints
from helia_aot.ops.shared.shapes import row_major_strides
from helia_aot.ops.shared.shaping import MOVABLE, data, dtype_variants, walk_params

_ENTRIES = {"int8": "arm_tile_s8", "int16": "arm_tile_s16"}
RANK = Rule("rank 1 to 8", kernel_limit(
    "arm_tile_s8 / _s16 (and the inline walk of the other dtypes)", "take 1 to 8 dims; LiteRT's tile.cc tiles any rank",
    "an inline walk over more dims (and a scalar copy for rank 0)"))
MULTIPLES = Rule("multiples: one per input dimension, non-negative", litert(
    "tile.cc Prepare / MultiplyShapeDims", "TF_LITE_ENSURE_EQ(NumDimensions(input), NumElements(multiples)) and "
    "non-negative multiples (\"Multipliers must be non-negative.\")"))
_RULES = (RANK, MULTIPLES, OUTPUT_SHAPE_RULE)


def _variant(dtype: str, entry: str | None) -> Variant:
    return Variant(dtype, inputs=(data(dtype), const_ints("multiples")), outputs=(data(dtype, "output"),),
                   entries=(entry,) if entry else (), template="tile.c.j2" if entry else "gather_walk.c.j2",
                   rules=_RULES, notes=("multiples constant",))


@register
class Tile(OpLowering):
    op_types = ("TILE",)
    options_table = "TileOptions"
    variants = dtype_variants(MOVABLE, _variant, _ENTRIES)

    def _multiples(self, ctx: OpContext) -> list[int]:
        x = ctx.inp(0)
        multiples = constant_ints(ctx, 1, "multiples")
        if len(multiples) != len(x.shape) or any(m < 0 for m in multiples):
            raise ctx.error(MULTIPLES, ctx.inp(1), detail=f"multiples {multiples} must hold one non-negative count per "
                                                          f"input dimension ({len(x.shape)})")
        return multiples

    def validate(self, ctx: OpContext) -> None:
        x, y = ctx.inp(0), ctx.out(0)
        if not 1 <= len(x.shape) <= 8:
            raise ctx.error(RANK, x, detail=f"rank {len(x.shape)} input is not supported (1 to 8)")
        want = [int(d) * m for d, m in zip(x.shape, self._multiples(ctx))]
        if list(y.shape) != want:
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} does not match the tiled {want}")

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        multiples = self._multiples(ctx)
        if y.num_elements == 0:
            return Lowered(template="copy_rows.c.j2", params=dict(copies=[]))
        if ctx.variant.entries:
            return Lowered(entry=ctx.variant.entries[0],
                           params=dict(input=x.index, output=y.index, shape=[int(d) for d in x.shape],
                                       multiples=multiples))
        return Lowered(params=walk_params(x, y, 0, row_major_strides(x.shape), [int(d) for d in x.shape]))

    def fold(self, ctx: OpContext):
        return [np.tile(np.asarray(ctx.inp(0).data), self._multiples(ctx))]

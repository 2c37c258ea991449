# SPDX-License-Identifier: Apache-2.0
"""RESIZE_NEAREST_NEIGHBOR, int8, int16 and float32, 4-D NHWC, every align_corners / half_pixel_centers
combination: arm_resize_nearest_neighbor_s8 / _s16 (TFLite's float index rule, exactly; ns-cmsis-nn
needs (height + width) * 4 bytes of scratch), float32 inline C with the source rows and columns
computed at conversion by the same float32 rule. The size input must be constant (the output shape
depends on it). Codes are copied whatever the output's quantization says, as LiteRT's kernel does."""

from __future__ import annotations

import numpy as np

from helia_aot.emit.c_syntax import c_type
from helia_aot.ops.base import ConstArray, Lowered, OpContext, OpLowering, Variant, register
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE
from helia_aot.ops.shared.indexing import NOT_EMPTY
from helia_aot.ops.shared.operands import fp32
from helia_aot.ops.shared.shaping import data
from helia_aot.ops.shared.spatial import (INPUT_4D, RESIZE_SIZE, check_shape, const_int32, nearest_indices, require_4d,
                                          resize_size)

_RULES = (INPUT_4D, RESIZE_SIZE, NOT_EMPTY, OUTPUT_SHAPE_RULE)


def _scratch(_build: str, out_h: int, out_w: int) -> int:
    """ns-cmsis-nn's resize keeps one int32 source index per output row and column in ctx->buf."""
    return (out_h + out_w) * 4


@register
class ResizeNearestNeighbor(OpLowering):
    op_types = ("RESIZE_NEAREST_NEIGHBOR",)
    options_table = "ResizeNearestNeighborOptions"
    variants = (
        Variant("int8", inputs=(data("int8"), const_int32("size")), outputs=(data("int8", "output"),),
                entries=("arm_resize_nearest_neighbor_s8",), template="resize_nearest_neighbor.c.j2", rules=_RULES),
        Variant("int16", inputs=(data("int16"), const_int32("size")), outputs=(data("int16", "output"),),
                entries=("arm_resize_nearest_neighbor_s16",), template="resize_nearest_neighbor.c.j2", rules=_RULES),
        Variant("float32", inputs=(fp32(), const_int32("size")), outputs=(fp32("output"),),
                template="resize_nearest_neighbor_f32.c.j2", lower="lower_float32", rules=_RULES),
    )

    def _geometry(self, ctx: OpContext):
        n, h, w, c = require_4d(ctx)
        out_h, out_w = resize_size(ctx)
        return (n, h, w, c), (n, out_h, out_w, c)

    def _flags(self, ctx: OpContext) -> tuple[bool, bool]:
        return bool(ctx.options("align_corners", False)), bool(ctx.options("half_pixel_centers", False))

    def validate(self, ctx: OpContext) -> None:
        check_shape(ctx, ctx.out(0), self._geometry(ctx)[1], NOT_EMPTY)

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        in_dims, out_dims = self._geometry(ctx)
        align, half = self._flags(ctx)
        scratch = ctx.kernels.scratch(_scratch, out_dims[1], out_dims[2])
        # ns-cmsis-nn reads the scratch as int32: an arena aligned to less than 4 bytes (a custom target)
        # gets 3 more bytes and the pointer rounded up.
        realign = scratch > 0 and ctx.target.arena_alignment < 4
        return Lowered(entry=ctx.variant.entries[0], scratch_bytes=scratch + (3 if realign else 0),
                       params=dict(input=x.index, size=ctx.inp(1).index, output=y.index, input_dims=in_dims,
                                   output_dims=out_dims, align=int(align), half=int(half), realign=realign,
                                   scratch=scratch))

    def lower_float32(self, ctx: OpContext) -> Lowered:
        """No float entry in ns-cmsis-nn: inline C copying pixels from source offsets computed at conversion."""
        x, y = ctx.inp(0), ctx.out(0)
        (n, h, w, c), out_dims = self._geometry(ctx)
        align, half = self._flags(ctx)
        rows = np.asarray(nearest_indices(h, out_dims[1], align, half), dtype=np.int64) * (w * c)
        cols = np.asarray(nearest_indices(w, out_dims[2], align, half), dtype=np.int64) * c
        return Lowered(entry=None, fixed={"implementation": "inline"},
                       constants=[ConstArray("rows", "int32_t", rows, "source row offset per output row"),
                                  ConstArray("cols", "int32_t", cols, "source column offset per output column")],
                       params=dict(input=x.index, output=y.index, input_dims=(n, h, w, c), output_dims=out_dims,
                                   ctype=c_type(y.dtype)))

    def fold(self, ctx: OpContext):
        (n, h, w, c), (_, out_h, out_w, _) = self._geometry(ctx)
        align, half = self._flags(ctx)
        x = np.asarray(ctx.inp(0).data).reshape(n, h, w, c)
        return [x[:, nearest_indices(h, out_h, align, half)][:, :, nearest_indices(w, out_w, align, half)]]

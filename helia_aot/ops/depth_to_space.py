# SPDX-License-Identifier: Apache-2.0
"""DEPTH_TO_SPACE, int8, float32, uint8, int32 and int64 (LiteRT's kernel takes no int16), 4-D NHWC:
arm_depth_to_space_s8 for int8, inline C for the others (float32's loop moving any element type). TFLite's
order: output pixel (h * b + i, w * b + j) of DEPTH_TO_SPACE takes channels [(i * b + j) * C, +C) of input pixel
(h, w); SPACE_TO_DEPTH is its inverse. Codes are copied whatever the output's quantization says, as LiteRT's
kernel does."""

from __future__ import annotations

import numpy as np

from helia_aot.emit.c_syntax import c_type
from helia_aot.ops.base import Lowered, OpContext, OpLowering, Rule, Variant, both, register
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE
from helia_aot.ops.shared.indexing import NOT_EMPTY
from helia_aot.ops.shared.operands import fp32
from helia_aot.ops.shared.shaping import data
from helia_aot.ops.shared.spatial import INPUT_4D, check_shape, require_4d

BLOCK = Rule("block_size >= 1", both("depth_to_space.cc Prepare (LiteRT and micro)", "TF_LITE_ENSURE(block_size > 0)"))
DIVISIBLE = Rule("channels divisible by block_size^2", both(
    "depth_to_space.cc Prepare (LiteRT and micro)", "input channels % (block_size * block_size) == 0 (LiteRT: "
    "TF_LITE_ENSURE_EQ; TFLM: the output channels times block_size^2 equal the input's)"))
_RULES = (INPUT_4D, BLOCK, DIVISIBLE, NOT_EMPTY, OUTPUT_SHAPE_RULE)


@register
class DepthToSpace(OpLowering):
    op_types = ("DEPTH_TO_SPACE",)
    options_table = "DepthToSpaceOptions"
    variants = (
        Variant("int8", inputs=(data("int8"),), outputs=(data("int8", "output"),), entries=("arm_depth_to_space_s8",),
                template="depth_to_space.c.j2", rules=_RULES),
        Variant("float32", inputs=(fp32(),), outputs=(fp32("output"),), template="depth_to_space_f32.c.j2",
                lower="lower_float32", rules=_RULES),
    ) + tuple(Variant(d, inputs=(data(d),), outputs=(data(d, "output"),), template="depth_to_space_f32.c.j2",
                      lower="lower_float32", rules=_RULES, notes=("inline C",)) for d in ("uint8", "int32", "int64"))

    def _geometry(self, ctx: OpContext):
        x = ctx.inp(0)
        n, h, w, c = require_4d(ctx)
        b = int(ctx.options("block_size", 0))
        if b < 1:
            raise ctx.error(BLOCK, x, detail=f"block_size {b} must be at least 1")
        if c % (b * b):
            raise ctx.error(DIVISIBLE, x, detail=f"input channels {c} are not a multiple of block_size^2 = {b * b}")
        return (n, h, w, c), b, (n, h * b, w * b, c // (b * b))

    def validate(self, ctx: OpContext) -> None:
        check_shape(ctx, ctx.out(0), self._geometry(ctx)[2], NOT_EMPTY)

    def _params(self, ctx: OpContext) -> dict:
        in_dims, b, out_dims = self._geometry(ctx)
        y = ctx.out(0)
        return dict(input=ctx.inp(0).index, output=y.index, input_dims=in_dims, block=b, output_dims=out_dims,
                    ctype=c_type(y.dtype))

    def lower(self, ctx: OpContext) -> Lowered:
        return Lowered(entry=ctx.variant.entries[0], params=self._params(ctx))

    def lower_float32(self, ctx: OpContext) -> Lowered:
        """No float entry in ns-cmsis-nn: inline C byte moves."""
        return Lowered(entry=None, params=self._params(ctx), fixed={"implementation": "inline"})

    def fold(self, ctx: OpContext):
        (n, h, w, c), b, out = self._geometry(ctx)
        x = np.asarray(ctx.inp(0).data).reshape(n, h, w, b, b, c // (b * b))
        return [x.transpose(0, 1, 3, 2, 4, 5).reshape(out)]

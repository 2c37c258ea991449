# SPDX-License-Identifier: Apache-2.0
"""UNPACK: the input cut along an axis (in [-rank, rank)) into num outputs of rank - 1, every dtype LiteRT's
reference kernel takes, any rank.

Inline row copies (ns-cmsis-nn has no UNPACK entry): a split into pieces of one, each piece's bytes being
the output. Codes are copied, so integer outputs equal LiteRT's whatever the quantization."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import AXIS_RANGE_RULE, Axis, Lowered, OpContext, OpLowering, Rule, Variant, litert, register
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE
from helia_aot.ops.shared.shaping import data, dtype_variants, normalized_axis, split_copies

UNPACKABLE = ("int8", "uint8", "int16", "int32", "float32", "bool")  # LiteRT's unpack.cc
# Measured: LiteRT refuses num 0 (NumOutputs(node) != data->num); TFLM runs it and writes no output.
NUM = Rule("num equals the output count and the axis size", litert(
    "unpack.cc Prepare", "TF_LITE_ENSURE_EQ(NumOutputs(node), data->num) and TF_LITE_ENSURE_EQ(input_shape->data[axis], "
    "data->num)", "walks num outputs: past the node's outputs, or none written, and the input at num's stride"))
_RULES = (AXIS_RANGE_RULE, NUM, OUTPUT_SHAPE_RULE)


def _variant(dtype: str, entry: str | None) -> Variant:
    return Variant(dtype, inputs=(data(dtype),), outputs=(data(dtype, "output", repeated=True),),
                   template="copy_rows.c.j2", rules=_RULES)


@register
class Unpack(OpLowering):
    op_types = ("UNPACK",)
    options_table = "UnpackOptions"
    axes = (Axis("option axis"),)
    variants = dtype_variants(UNPACKABLE, _variant)

    def _axis(self, ctx: OpContext) -> int:
        x = ctx.inp(0)
        return normalized_axis(ctx, int(ctx.options("axis", 0)), len(x.shape), x)

    def validate(self, ctx: OpContext) -> None:
        x, outputs = ctx.inp(0), ctx.outputs()
        axis = self._axis(ctx)
        n = int(x.shape[axis])
        num = int(ctx.options("num", 0))
        if num != n or len(outputs) != n:
            raise ctx.error(NUM, x, detail=f"num {ctx.options('num', 0)} and the {len(outputs)} outputs must equal the "
                                           f"size {n} of axis {axis}")
        want = [int(d) for k, d in enumerate(x.shape) if k != axis]
        for k, y in enumerate(outputs):
            if list(y.shape) != want:
                raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output {k} shape {list(y.shape)} does not match the "
                                                             f"unpacked {want}")

    def lower(self, ctx: OpContext) -> Lowered:
        x, outputs = ctx.inp(0), ctx.outputs()
        return Lowered(params=dict(copies=split_copies(x, outputs, self._axis(ctx), [1] * len(outputs))))

    def fold(self, ctx: OpContext):
        axis = self._axis(ctx)
        values = np.asarray(ctx.inp(0).data)
        return [np.take(values, k, axis=axis) for k in range(values.shape[axis])]

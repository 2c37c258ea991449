# SPDX-License-Identifier: Apache-2.0
"""PACK: values_count inputs of one shape stacked along a new axis (axis in [-(rank + 1), rank + 1)), every
dtype LiteRT's reference kernel takes, any rank.

Inline row copies (ns-cmsis-nn has no PACK entry): input k fills position k of the new axis. Codes are
copied, so integer outputs equal LiteRT's whatever the quantization."""

from __future__ import annotations

import numpy as np

from helia_aot.ir.dtypes import DTYPE_BYTES
from helia_aot.ops.base import AXIS_RANGE_RULE, Axis, Lowered, OpContext, OpLowering, Rule, Variant, both, register
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE
from helia_aot.ops.shared.shaping import data, dtype_variants, normalized_axis, row_copy

PACKABLE = ("int8", "uint8", "int16", "int32", "int64", "float32")  # LiteRT's pack.cc
COUNT = Rule("values_count equals the input count", both(
    "pack.cc Prepare (LiteRT and micro)", "TF_LITE_ENSURE_EQ(NumInputs(node), data->values_count) (TFLM reads "
    "values_count inputs)"))
SAME_SHAPES = Rule("inputs of one shape", both(
    "pack.cc Prepare (LiteRT and micro)", "TF_LITE_ENSURE(HaveSameShapes(input0, input)) for every input (TFLM: the "
    "copy sizes agree)"))
_RULES = (COUNT, SAME_SHAPES, AXIS_RANGE_RULE, OUTPUT_SHAPE_RULE)


def _variant(dtype: str, entry: str | None) -> Variant:
    return Variant(dtype, inputs=(data(dtype, "values", repeated=True),), outputs=(data(dtype, "output"),),
                   template="copy_rows.c.j2", rules=_RULES)


@register
class Pack(OpLowering):
    op_types = ("PACK",)
    options_table = "PackOptions"
    axes = (Axis("option axis", extra=1),)
    variants = dtype_variants(PACKABLE, _variant)

    def _axis(self, ctx: OpContext) -> int:
        x = ctx.inp(0)
        return normalized_axis(ctx, int(ctx.options("axis", 0)), len(x.shape) + 1, ctx.out(0))

    def validate(self, ctx: OpContext) -> None:
        inputs, y = ctx.inputs(), ctx.out(0)
        x = inputs[0]
        count = int(ctx.options("values_count", len(inputs)))
        if count != len(inputs):
            raise ctx.error(COUNT, x, detail=f"values_count {count} differs from the operator's {len(inputs)} inputs")
        for t in inputs[1:]:
            if t is None or tuple(t.shape) != tuple(x.shape):
                raise ctx.error(SAME_SHAPES, t, detail=f"input shape {list(t.shape) if t is not None else None} differs "
                                                       f"from the first input's {list(x.shape)}")
        axis = self._axis(ctx)
        want = [int(d) for d in x.shape]
        want.insert(axis, len(inputs))
        if list(y.shape) != want:
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} does not match the packed {want}")

    def lower(self, ctx: OpContext) -> Lowered:
        inputs, y = ctx.inputs(), ctx.out(0)
        axis = self._axis(ctx)
        shape = [int(d) for d in inputs[0].shape]
        outer = int(np.prod(shape[:axis], dtype=np.int64))
        inner = int(np.prod(shape[axis:], dtype=np.int64)) * DTYPE_BYTES[y.dtype]
        row = inner * len(inputs)
        copies = [row_copy(t.index, y.index, outer, inner, 0, row, k * inner, inner)
                  for k, t in enumerate(inputs) if inner and outer]
        return Lowered(params=dict(copies=copies))

    def fold(self, ctx: OpContext):
        return [np.stack([np.asarray(t.data) for t in ctx.inputs()], axis=self._axis(ctx))]

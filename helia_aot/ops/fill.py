# SPDX-License-Identifier: Apache-2.0
"""FILL: a tensor of the output's shape holding one scalar value (a run-time input or a constant), every dtype
LiteRT's reference kernel takes. Inline C: the value's bits stored in every element (integer codes are
copied, as LiteRT's kernel does). dims may be a run-time input, as LiteRT takes it (TFLM wants a constant): the
generated C then checks that it names the output's shape, and returns an error status otherwise."""

from __future__ import annotations

import numpy as np

from helia_aot.emit.c_syntax import c_type
from helia_aot.ops.base import INDEX, Lowered, OpContext, OpLowering, Operand, Rule, Variant, both, litert, register
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE
from helia_aot.ops.shared.shaping import MOVABLE, data, dtype_variants

DIMS_VECTOR = Rule("dims a vector (one entry per output dimension)", both(
    "fill.cc Prepare (LiteRT and micro)", "TF_LITE_ENSURE_EQ(NumDimensions(dims), 1)"))
VALUE_SCALAR = Rule("value a scalar (rank 0) of the output's dtype (run-time or constant)", both(
    "fill.cc Prepare (LiteRT and micro)", "TF_LITE_ENSURE_EQ(NumDimensions(value), 0)"))
DIMS_NON_NEGATIVE = Rule("dims at least 0", litert("fill.cc ResizeOutputImpl", "\"Fill dimensions must be >= 0\""))
_RULES = (DIMS_VECTOR, VALUE_SCALAR, DIMS_NON_NEGATIVE, OUTPUT_SHAPE_RULE)


def _variant(dtype: str, entry: str | None) -> Variant:
    return Variant(dtype, inputs=(Operand("dims", INDEX), data(dtype, "value")), outputs=(data(dtype, "output"),),
                   template="fill.c.j2", rules=_RULES)


@register
class Fill(OpLowering):
    op_types = ("FILL",)
    options_table = "FillOptions"
    variants = dtype_variants(MOVABLE, _variant)

    def validate(self, ctx: OpContext) -> None:
        value, y = ctx.inp(1), ctx.out(0)
        if len(ctx.inp(0).shape) != 1:
            raise ctx.error(DIMS_VECTOR, ctx.inp(0), detail=f"dims must be a vector, has shape "
                                                            f"{list(ctx.inp(0).shape)}")
        if not ctx.inp(0).is_constant:  # checked at run time against the output's shape
            if int(ctx.inp(0).shape[0]) != len(y.shape):
                raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} has another rank than "
                                                             f"the {int(ctx.inp(0).shape[0])} run-time dims")
            dims = [int(d) for d in y.shape]
        else:
            dims = self._dims(ctx)
        if len(value.shape) != 0:
            raise ctx.error(VALUE_SCALAR, value, detail=f"value must be a scalar (rank 0), has shape "
                                                        f"{list(value.shape)}")
        if any(d < 0 for d in dims):
            raise ctx.error(DIMS_NON_NEGATIVE, ctx.inp(0), detail=f"dims {dims} has a negative dimension")
        if list(y.shape) != dims:
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} differs from dims {dims}")

    @staticmethod
    def _dims(ctx: OpContext) -> list[int]:
        return [int(v) for v in np.asarray(ctx.inp(0).data).reshape(-1).tolist()]

    def lower(self, ctx: OpContext) -> Lowered:
        dims, value, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        run_time = not dims.is_constant and len(y.shape) > 0
        return Lowered(params=dict(value=value.index, output=y.index, ctype=c_type(y.dtype), count=y.num_elements,
                                   dims_tensor=dims.index if run_time else None,
                                   dims_ctype=c_type(dims.dtype) if run_time else None,
                                   output_dims=[int(d) for d in y.shape]))

    def fold(self, ctx: OpContext):
        value = np.asarray(ctx.inp(1).data).reshape(-1)[0]
        return [np.full(self._dims(ctx), value, dtype=np.asarray(ctx.inp(1).data).dtype)]

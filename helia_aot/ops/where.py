# SPDX-License-Identifier: Apache-2.0
"""WHERE (one input): the coordinates of the condition's non-zero elements, int64 [count, rank]. The output
shape depends on the condition's values, so the condition must be constant: the coordinates are computed at
conversion time (folded into the tensors that use them, or, for a model output, copied from a constant by the
generated code). LiteRT's reference takes bool, int8, uint8, int32, uint32, int64 and float32 conditions
(non-zero is true); row-major order, as np.argwhere."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import (ConstArray, Lowered, OpContext, OpLowering, Operand, Rule, Variant, helia_limit, litert,
                                register)
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE

_CONDITIONS = ("bool", "int8", "uint8", "int32", "int64", "float32")
ONE_INPUT = Rule("one input (the condition)", litert("where.cc Prepare", "TF_LITE_ENSURE_EQ(NumInputs(node), 1)"))
CONSTANT_CONDITION = Rule("condition constant (the output shape depends on its values)", helia_limit(
    "the memory plan sizes every tensor at conversion time; LiteRT's where.cc resizes the output to the count of "
    "non-zero elements at run time (a dynamic tensor)", "an upper-bound output buffer with a run-time count"))
NON_EMPTY = Rule("the constant condition has a non-zero element", helia_limit(
    "a tensor of zero elements has no storage in the memory plan; LiteRT returns an empty [0, rank] output",
    "zero-size model outputs in the memory plan and the module's API"))


def _coordinates(ctx: OpContext) -> np.ndarray:
    cond = np.asarray(ctx.inp(0).data).reshape(ctx.inp(0).shape)
    return np.argwhere(cond != 0).astype(np.int64).reshape(-1, len(cond.shape))


@register
class Where(OpLowering):
    op_types = ("WHERE",)
    options_table = "WhereOptions"
    variants = (
        Variant("constant", inputs=(Operand("condition", _CONDITIONS),),
                outputs=(Operand("output", ("int64",)),), template="where.c.j2",
                rules=(ONE_INPUT, CONSTANT_CONDITION, OUTPUT_SHAPE_RULE, NON_EMPTY),
                notes=("computed at conversion time; a model output is copied from a constant",)),
    )

    def validate(self, ctx: OpContext) -> None:
        c, y = ctx.inp(0), ctx.out(0)
        if len(ctx.op.inputs) != 1:
            raise ctx.error(ONE_INPUT, c, "Use SELECT_V2 for the three-input form",
                            detail="WHERE with x and y inputs is not supported (use SELECT_V2)")
        if not c.is_constant:
            raise ctx.error(CONSTANT_CONDITION, c, "Freeze the condition into the model, or use SELECT_V2 for a fixed "
                                                   "shape", detail="condition must be a constant tensor: WHERE's "
                            "output shape depends on its values at run time")
        coords = _coordinates(ctx)
        if coords.size == 0:
            raise ctx.error(NON_EMPTY, y, detail="the constant condition has no non-zero element: the output is empty")
        if tuple(int(d) for d in y.shape) != coords.shape:
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} does not match the "
                            f"{coords.shape[0]} non-zero elements of the constant condition ({list(coords.shape)})")

    def lower(self, ctx: OpContext) -> Lowered:
        return Lowered(entry=None, fixed={"implementation": "constant"}, params=dict(output=ctx.out(0).index),
                       constants=[ConstArray("value", "int64_t", _coordinates(ctx).reshape(-1),
                                             "coordinates of the constant condition's non-zero elements")])

    def fold(self, ctx: OpContext):
        return [_coordinates(ctx)]

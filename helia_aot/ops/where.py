# SPDX-License-Identifier: Apache-2.0
"""WHERE (one input): the coordinates of the condition's non-zero elements, int64 [count, rank]. The output
shape depends on the condition's values, so the condition must be constant: the coordinates are computed at
conversion time (folded into the tensors that use them, or, for a model output, copied from a constant by the
generated code). LiteRT's reference takes bool, int8, uint8, int32, uint32, int64 and float32 conditions
(non-zero is true); row-major order, as np.argwhere."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import ConstArray, Lowered, OpContext, OpLowering, Operand, Variant, register

_CONDITIONS = ("bool", "int8", "uint8", "int32", "int64", "float32")


def _coordinates(ctx: OpContext) -> np.ndarray:
    cond = np.asarray(ctx.inp(0).data).reshape(ctx.inp(0).shape)
    return np.argwhere(cond != 0).astype(np.int64).reshape(-1, len(cond.shape))


@register
class Where(OpLowering):
    op_types = ("WHERE",)
    options_table = "WhereOptions"
    variants = (
        Variant("constant", inputs=(Operand("condition", _CONDITIONS, constant=True),),
                outputs=(Operand("output", ("int64",)),), template="where.c.j2",
                notes=("condition constant (the output shape depends on its values)",
                       "computed at conversion time; a model output is copied from a constant")),
    )

    def validate(self, ctx: OpContext) -> None:
        c, y = ctx.inp(0), ctx.out(0)
        if len(ctx.op.inputs) != 1:
            raise ctx.error("WHERE with x and y inputs is not supported (use SELECT_V2)", c)
        if not c.is_constant:
            raise ctx.error("condition must be a constant tensor: WHERE's output shape depends on its values at run "
                            "time", c, "Freeze the condition into the model, or use SELECT_V2 for a fixed shape")
        coords = _coordinates(ctx)
        if tuple(int(d) for d in y.shape) != coords.shape:
            raise ctx.error(f"output shape {list(y.shape)} does not match the {coords.shape[0]} non-zero elements of "
                            f"the constant condition ({list(coords.shape)})", y)
        if coords.size == 0:
            raise ctx.error("the constant condition has no non-zero element: the output is empty", y)

    def lower(self, ctx: OpContext) -> Lowered:
        return Lowered(entry=None, fixed={"implementation": "constant"}, params=dict(output=ctx.out(0).index),
                       constants=[ConstArray("value", "int64_t", _coordinates(ctx).reshape(-1),
                                             "coordinates of the constant condition's non-zero elements")])

    def fold(self, ctx: OpContext):
        return [_coordinates(ctx)]

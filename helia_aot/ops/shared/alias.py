# SPDX-License-Identifier: Apache-2.0
"""RESHAPE, SQUEEZE and EXPAND_DIMS's base class: the output is the input's bytes under another shape."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import ANY, INDEX, Lowered, OpContext, OpLowering, Operand, Variant
from helia_aot.ops.shared.operands import is_float


def alias_validate(ctx: OpContext) -> None:
    x, y = ctx.inp(0), ctx.out(0)
    if x is None:
        raise ctx.error("has no data input")
    if x.dtype != y.dtype:
        raise ctx.error(f"input dtype {x.dtype} and output dtype {y.dtype} differ", y)
    if x.num_elements != y.num_elements:
        raise ctx.error(f"output shape {list(y.shape)} holds {y.num_elements} elements, the input "
                        f"{list(x.shape)} holds {x.num_elements}", y)
    if not is_float(x) and x.quant != y.quant and x.quant is not None and y.quant is not None and \
            (x.quant.scales != y.quant.scales or x.quant.zero_points != y.quant.zero_points):
        raise ctx.error("a reshape cannot change quantization parameters", y)


class AliasLowering(OpLowering):
    """RESHAPE, SQUEEZE, EXPAND_DIMS: row-major layout is unchanged, so the output aliases the
    input: no code, no copy. Subclasses name their op_types."""

    variants = (
        Variant("any", inputs=(Operand("input", ANY), Operand("shape", INDEX, optional=True)),
                outputs=(Operand("output", ANY),),
                notes=("output dtype, element count and quantization equal the input's",)),
    )

    def validate(self, ctx: OpContext) -> None:
        alias_validate(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        return Lowered(template=None, alias=True, params=dict(input=ctx.inp(0).index, output=ctx.out(0).index))

    def fold(self, ctx: OpContext):
        return [np.asarray(ctx.inp(0).data).reshape(ctx.out(0).shape)]

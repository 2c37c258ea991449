# SPDX-License-Identifier: Apache-2.0
"""RESHAPE, SQUEEZE and EXPAND_DIMS's base class: the output is the input's bytes under another shape.

Quantization is not compared: LiteRT's reshape.cc, squeeze.cc and expand_dims.cc (and TFLM's) hand the
input's bytes to the output whatever the output's scale and zero point say, so an output quantized
otherwise holds the input's codes there and here alike (tests/e2e/differential_ops/shaping.py walks it)."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import (ANY, AXIS_RANGE_RULE, INDEX, Lowered, OpContext, OpLowering, Operand, Rule, Variant,
                                both)

DATA_INPUT = Rule("a data input (input 0)", both(
    "reshape.cc / squeeze.cc / expand_dims.cc Prepare (LiteRT and micro)",
    "GetInputSafe / GetInput of input 0 (the node's first input must exist)"))
SAME_DTYPE = Rule("output dtype equals the input's", both(
    "reshape.cc / squeeze.cc / expand_dims.cc Prepare (LiteRT and micro)",
    "TF_LITE_ENSURE_TYPES_EQ(input->type, output->type) (squeeze, expand_dims) and the byte-size check of reshape"))
SAME_COUNT = Rule("output element count equals the input's", both(
    "reshape.cc ResizeOutput / micro reshape_common.cc ReshapeOutput, squeeze.cc, expand_dims.cc",
    "NumElements(input) == NumElements(output) (TFLM: input and output byte sizes equal)"))


def alias_variants(*extra_rules: Rule) -> tuple[Variant, ...]:
    return (
        Variant("any", inputs=(Operand("input", ANY), Operand("shape", INDEX, optional=True)),
                outputs=(Operand("output", ANY),), rules=(DATA_INPUT, SAME_DTYPE, SAME_COUNT) + extra_rules,
                notes=("output dtype and element count equal the input's; the input's codes whatever the output's "
                       "quantization (as LiteRT)",)),
    )


def alias_validate(ctx: OpContext) -> None:
    x, y = ctx.inp(0), ctx.out(0)
    if x is None:
        raise ctx.error(DATA_INPUT)
    if x.dtype != y.dtype:
        raise ctx.error(SAME_DTYPE, y, detail=f"input dtype {x.dtype} and output dtype {y.dtype} differ")
    if x.num_elements != y.num_elements:
        raise ctx.error(SAME_COUNT, y, detail=f"output shape {list(y.shape)} holds {y.num_elements} elements, the "
                                              f"input {list(x.shape)} holds {x.num_elements}")


class AliasLowering(OpLowering):
    """RESHAPE, SQUEEZE, EXPAND_DIMS: row-major layout is unchanged, so the output aliases the
    input: no code, no copy. Subclasses name their op_types."""

    variants = alias_variants()

    def validate(self, ctx: OpContext) -> None:
        alias_validate(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        return Lowered(template=None, alias=True, params=dict(input=ctx.inp(0).index, output=ctx.out(0).index))

    def fold(self, ctx: OpContext):
        return [np.asarray(ctx.inp(0).data).reshape(ctx.out(0).shape)]


AXIS_VARIANTS = alias_variants(AXIS_RANGE_RULE)  # EXPAND_DIMS

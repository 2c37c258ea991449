# SPDX-License-Identifier: Apache-2.0
"""Semantic checks many operators apply in validate(): equal shapes, shared quantization, constant
integer inputs, the computed output shape."""

from __future__ import annotations

import numpy as np

from helia_aot.ir.graph import Tensor
from helia_aot.ops.base import OpContext, Rule, helia_limit, undefined


# Declared by the operators whose output shape validate() computes (check_output_shape).
OUTPUT_SHAPE_RULE = Rule("output shape as the operator computes it from its inputs and options", helia_limit(
    "the memory plan and the generated loops use the model's static shapes; LiteRT's Prepare resizes the output "
    "to the computed shape instead, TFLM computes with the model's (a model whose shapes disagree is malformed: "
    "re-export it)"))


# Declared by the element-wise operators (unary_validate): an output of another shape but as many elements is
# taken (both references write the same bytes: LiteRT resizes the output to the input's shape, TFLM runs over
# the flat elements), one of another size is not.
OUTPUT_SIZE_RULE = Rule("output holds as many elements as the input (any shape)", undefined(
    "TFLM's element-wise kernels (MatchingFlatSize / ElementCount, checked only in debug builds)",
    "they compute the input's elements into an output of another size: past its end when it is smaller, leaving "
    "its tail unwritten when it is larger (LiteRT's Prepare resizes the output to the input's shape instead, "
    "so the model's declared interface no longer holds)"))


def require_same_quant(ctx: OpContext, a: Tensor, b: Tensor, what: str, rule: Rule | None = None) -> None:
    """`rule`: the operator's declared Rule for it (its source goes into the refusal), where it has one."""
    if abs(a.quant.scale - b.quant.scale) > 1e-6 * max(abs(a.quant.scale), 1e-30) or \
            a.quant.zero_point != b.quant.zero_point:
        detail = (f"{what}: input and output must share scale and zero point (input {a.quant.scale:g}/"
                  f"{a.quant.zero_point}, output {b.quant.scale:g}/{b.quant.zero_point})")
        raise ctx.error(rule, b, detail=detail) if rule is not None else ctx.error(detail, b)


def unary_validate(ctx: OpContext, same_quant: bool = False) -> None:
    """An element-wise operator's output: as many elements as the input, in any shape (the loops run over the
    flat elements, as both references do)."""
    x, y = ctx.inp(0), ctx.out(0)
    if x.num_elements != y.num_elements:
        raise ctx.error(OUTPUT_SIZE_RULE, y, detail=f"output shape {list(y.shape)} holds {y.num_elements} elements, "
                                                    f"the input {list(x.shape)} {x.num_elements}")
    if same_quant:
        require_same_quant(ctx, x, y, ctx.op.op_type)


def constant_ints(ctx: OpContext, k: int, role: str) -> list[int]:
    t = ctx.inp(k)
    if t is None or not t.is_constant:
        raise ctx.error(f"{role} (input {k}) must be a constant tensor", t,
                        "Export the model with static shapes so this input is folded to a constant")
    return [int(v) for v in np.asarray(t.data).reshape(-1).tolist()]


def check_output_shape(ctx: OpContext, y: Tensor, expected: tuple) -> None:
    if tuple(y.shape) != tuple(expected):
        raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} does not match the computed "
                                                    f"{list(expected)}")

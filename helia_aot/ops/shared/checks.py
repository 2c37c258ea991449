# SPDX-License-Identifier: Apache-2.0
"""Semantic checks many operators apply in validate(): equal shapes, shared quantization, constant
integer inputs, the computed output shape."""

from __future__ import annotations

import numpy as np

from helia_aot.ir.graph import Tensor
from helia_aot.ops.base import OpContext


def require_same_quant(ctx: OpContext, a: Tensor, b: Tensor, what: str) -> None:
    if abs(a.quant.scale - b.quant.scale) > 1e-6 * max(abs(a.quant.scale), 1e-30) or \
            a.quant.zero_point != b.quant.zero_point:
        raise ctx.error(f"{what}: input and output must share scale and zero point "
                        f"(input {a.quant.scale:g}/{a.quant.zero_point}, output {b.quant.scale:g}/"
                        f"{b.quant.zero_point})", b)


def unary_validate(ctx: OpContext, same_quant: bool = False) -> None:
    x, y = ctx.inp(0), ctx.out(0)
    if tuple(x.shape) != tuple(y.shape):
        raise ctx.error(f"output shape {list(y.shape)} differs from the input shape {list(x.shape)}", y)
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
        raise ctx.error(f"output shape {list(y.shape)} does not match the computed {list(expected)}", y)

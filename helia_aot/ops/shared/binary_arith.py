# SPDX-License-Identifier: Apache-2.0
"""What the two-input arithmetic operators share: the rules and validation of ADD, SUB and MUL on int8 /
int16 (broadcasting of any rank, a fused activation); the parameters of the inline broadcasting loop
(binary_broadcast.c.j2) that serves the dtypes and layouts no kernel entry takes (MAXIMUM, MINIMUM, DIV,
SQUARED_DIFFERENCE); and int32 ADD, SUB and MUL, which wrap as LiteRT's kernels do."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import Lowered, OpContext, Rule, litert
from helia_aot.ops.shared.broadcast import BROADCAST_RULE, check_broadcast, loop_params
from helia_aot.ops.shared.fused_activation import ACTIVATION_RULE, NO_CLAMP, fused_activation

BINARY_RULES = (BROADCAST_RULE, ACTIVATION_RULE)


def binary_validate(ctx: OpContext) -> None:
    """ADD, SUB and MUL on int8 / int16 / float: the fused activation is one of LiteRT's, the inputs
    broadcast to the output (any rank: a broadcast the 4-D entries cannot take runs the inline loop)."""
    a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
    fused_activation(ctx, y)
    check_broadcast(ctx, a, b, y)


def inline_params(ctx: OpContext, body: list[str], in_ctype: str, out_ctype: str, comment: str) -> dict:
    """binary_broadcast.c.j2's parameters: `body` are C statements that read `a` and `b` (the two
    elements, of in_ctype) and store the result through `*out++`."""
    a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
    return dict(input1=a.index, input2=b.index, output=y.index, in_ctype=in_ctype, out_ctype=out_ctype,
                body=body, comment=comment, **loop_params(a.shape, b.shape))


def inline_broadcast_lowered(ctx: OpContext, body: list[str], in_ctype: str, out_ctype: str, comment: str,
                             why: str) -> Lowered:
    """The inline broadcasting loop (binary_broadcast.c.j2, any rank) in place of the variant's own template:
    the same per-element arithmetic as the entry it stands in for, `why` recorded in the plan."""
    return Lowered(template="binary_broadcast.c.j2", entry=None,
                   params=inline_params(ctx, body, in_ctype, out_ctype, comment),
                   fixed={"implementation": "inline", "why": why})


# Why a broadcast runs the inline loop instead of the variant's 4-D broadcasting entry.
PAST_FOUR_GROUPS = "the broadcast needs more than four merged dimensions"


# -- int32 ADD, SUB and MUL (inline C; TFLM's audio front end scales its log energies with them) -------

# The fused activation's clamp range on int32, as LiteRT's CalculateActivationRange<int32_t>: TANH and SIGN_BIT
# keep the whole range, as on the other types.
INT32_ACTIVATION_RANGE = {"NONE": (-(1 << 31), (1 << 31) - 1), "RELU": (0, (1 << 31) - 1), "RELU6": (0, 6),
                          "RELU_N1_TO_1": (-1, 1), **{act: (-(1 << 31), (1 << 31) - 1) for act in NO_CLAMP}}
INT32_ACTIVATION_RULE = Rule("fused activation NONE, RELU, RELU6, RELU_N1_TO_1 (clamped) or TANH, SIGN_BIT (no clamp)",
                             litert("kernel_util.h CalculateActivationRange<int32_t>",
                                    "the int32 kernels clamp to RELU, RELU6 and RELU_N1_TO_1's ranges, any other "
                                    "activation to the whole int32 range"))
INT32_RULES = (BROADCAST_RULE, INT32_ACTIVATION_RULE)
INT32_NOTES = ("wraps modulo 2^32, then clamps (as LiteRT); quantization ignored", "inline C", "broadcasts at any rank")


def int32_activation(ctx: OpContext) -> tuple[int, int]:
    act = ctx.options("fused_activation_function", "NONE")
    if act not in INT32_ACTIVATION_RANGE:
        raise ctx.error(INT32_ACTIVATION_RULE, ctx.out(0), detail=f"fused activation {act} is not supported on int32 "
                                                                  f"(supported: {', '.join(INT32_ACTIVATION_RANGE)})")
    return INT32_ACTIVATION_RANGE[act]


def int32_validate(ctx: OpContext) -> None:
    check_broadcast(ctx, ctx.inp(0), ctx.inp(1), ctx.out(0))
    int32_activation(ctx)


def int32_wrapping_params(ctx: OpContext, operator: str, name: str) -> dict:
    """binary_broadcast.c.j2 parameters of `a <operator> b` on int32 in uint32 arithmetic (modulo 2^32, where
    int32 overflow is undefined in C; LiteRT's and TFLM's int32 kernels wrap), clamped to the activation."""
    lo, hi = int32_activation(ctx)
    body = [f"const int32_t v = (int32_t)((uint32_t)a {operator} (uint32_t)b);"]
    if (lo, hi) == INT32_ACTIVATION_RANGE["NONE"]:
        body.append("*out++ = v;")
    else:
        body.append(f"*out++ = v < {lo} ? {lo} : (v > {hi} ? {hi} : v);")
    return inline_params(ctx, body, "int32_t", "int32_t", f"{name} int32: a {operator} b modulo 2^32, then the "
                                                          "activation's clamp")


def int32_wrapping_fold(ctx: OpContext, fn):
    """The same at conversion time: fn on int64 operands, wrapped to int32, clamped."""
    lo, hi = int32_activation(ctx)
    a = np.asarray(ctx.inp(0).data).astype(np.int64)
    b = np.asarray(ctx.inp(1).data).astype(np.int64)
    wrapped = (fn(a, b) & 0xFFFFFFFF).astype(np.uint32).view(np.int32)
    return [np.clip(wrapped, lo, hi).astype(np.int32).reshape(ctx.out(0).shape)]

# SPDX-License-Identifier: Apache-2.0
"""The fused activation's clamp range (RELU, RELU6, RELU_N1_TO_1; NONE, TANH and SIGN_BIT clamp nothing, as
LiteRT's CalculateActivationRange gives them the type's whole range): integer codes for a quantized
output, narrowed by a clamp the fold_clamp rewrite folded in; LiteRT's float range as C expressions of a
float32 or float16 output; the bounds LiteRT's hybrid kernels apply."""

from __future__ import annotations

import numpy as np

from helia_aot.emit.c_syntax import c_float
from helia_aot.ir.graph import Tensor
from helia_aot.ir.quant import activation_range
from helia_aot.ops.base import OpContext, Rule, litert
from helia_aot.ops.shared.operands import dtype_range, is_float

# Operator option a graph rewrite sets (helia_aot.lowering.rewrites.fold_clamp): (lo, hi) in output codes, a clamp
# that followed the operator and now narrows its fused activation's range. Never in a model's options.
FOLDED_CLAMP = "helia_folded_clamp"

# LiteRT's float activation range for NONE: [lowest, max] of float, so +-inf clamp to +-FLT_MAX.
FLT_MAX = float(np.finfo(np.float32).max)
# CalculateActivationRange<float>, +-inf on the sides an activation leaves open: float32 clamps them at
# +-FLT_MAX (LiteRT's lowest / max), float16 at its finite extremes (ns-cmsis-nn's _f16 kernels), and
# LiteRT's hybrid kernels not at all.
# The fused activation's clamp. LiteRT's CalculateActivationRange(Quantized) (kernel_util.cc; TFLM's
# micro kernel_util the same) bounds RELU, RELU6 and RELU_N1_TO_1 and gives every other value, TANH and SIGN_BIT,
# the output type's whole range: a fused TANH on CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV, ADD, SUB, MUL or a
# pooling applies nothing there (tests/e2e/test_differential.py: outputs equal to NONE's), and so here. An operator
# whose reference applies the function itself (float SVDF) refuses these by a rule of its own.
ACTIVATION_RULE = Rule("fused activation NONE, RELU, RELU6, RELU_N1_TO_1 (clamped) or TANH, SIGN_BIT (no clamp)", litert(
    "kernel_util.cc CalculateActivationRange / CalculateActivationRangeQuantized",
    "clamps to RELU, RELU6 and RELU_N1_TO_1's ranges; any other activation leaves the output type's whole range"))
# Fused activations LiteRT takes as no clamp at all (the type's whole range, as NONE).
NO_CLAMP = ("TANH", "SIGN_BIT")

_ACTIVATIONS = {"NONE": (-np.inf, np.inf), "RELU": (0.0, np.inf), "RELU6": (0.0, 6.0), "RELU_N1_TO_1": (-1.0, 1.0),
                **{act: (-np.inf, np.inf) for act in NO_CLAMP}}
F16_MAX = "ARM_NN_F16_FINITE_MAX"
F16_LOWEST = "ARM_NN_F16_FINITE_LOWEST"


def fused_activation(ctx: OpContext, out: Tensor) -> tuple:
    """The fused activation's clamp range: integer codes for a quantized output (narrowed by a folded
    clamp); for a float16 or float32 one LiteRT's float range as C expressions of its type
    (float_activation)."""
    if is_float(out):
        return float_activation(ctx, out)
    activation_bounds(ctx)  # refuses what LiteRT does not define
    act = ctx.options("fused_activation_function", "NONE")
    lo, hi = activation_range("NONE" if act in NO_CLAMP else act, out.quant.scale, out.quant.zero_point,
                              *dtype_range(out.dtype))
    folded = ctx.options(FOLDED_CLAMP)
    if folded is not None:
        lo, hi = max(lo, int(folded[0])), min(hi, int(folded[1]))
    return lo, hi


def activation_bounds(ctx: OpContext) -> tuple[float, float]:
    """The fused activation's float range (min, max), +-inf where it does not bound."""
    act = ctx.options("fused_activation_function", "NONE")
    if act not in _ACTIVATIONS:
        raise ctx.error(ACTIVATION_RULE, detail=f"fused activation {act} is not one LiteRT defines")
    return _ACTIVATIONS[act]


def float_activation(ctx: OpContext, out: Tensor | None = None) -> tuple[str, str]:
    """CalculateActivationRange<float> of the fused activation as C expressions of the output's type
    (min, max): float literals for float32, float16_t expressions for float16."""
    low, high = activation_bounds(ctx)
    if (out if out is not None else ctx.out(0)).dtype == "float16":
        return f16_literal(low), f16_literal(high)
    return c_float(max(low, -FLT_MAX)), c_float(min(high, FLT_MAX))


def hybrid_activation(ctx: OpContext) -> tuple[str | None, str | None]:
    """The fused activation's float bounds as C literals; None where it does not clamp (LiteRT's NONE
    applies nothing, so infinities pass as they do there)."""
    low, high = activation_bounds(ctx)
    return (c_float(low) if np.isfinite(low) else None), (c_float(high) if np.isfinite(high) else None)


def f16_literal(value: float) -> str:
    """A C expression of float16_t for a bound; infinities become the finite extremes, as ns-cmsis-nn's
    float16 kernels clamp (an FP16 overflow saturates there instead of becoming infinite)."""
    if value == np.inf:
        return F16_MAX
    if value == -np.inf:
        return F16_LOWEST
    if float(np.float16(value)) != value:
        raise ValueError(f"{value} is not a float16 value")
    text = repr(float(value))
    return f"(float16_t){text}f"

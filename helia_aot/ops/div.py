# SPDX-License-Identifier: Apache-2.0
"""DIV, inline C (ns-cmsis-nn has no division entry): float32 and int32 with NumPy broadcasting of any rank
and the fused activation, as LiteRT's reference kernel.

float32: a / b, clamped to the activation's range (LiteRT's [lowest, max] for NONE, so a division by zero
gives +-FLT_MAX there, and NaN passes). int32: C's truncating division; like LiteRT, which checks every
divisor before it computes and fails the invocation on a zero, the generated code returns
ARM_CMSIS_NN_ARG_ERROR (the module reports a kernel error) before writing anything; INT32_MIN / -1, undefined
in C, gives INT32_MIN (two's complement wrap).

int8 / int16 (LiteRT's quantized DIV) are refused: its reference kernel rounds the quotient with a shift of
32 or more when the dividend is within a few codes of its zero point, undefined behaviour whose results
(e.g. -128 for 0 / x) cannot be reproduced."""

from __future__ import annotations

import math

import numpy as np

from helia_aot.emit.c_syntax import c_float
from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, Rule, Variant, helia_limit, litert, register
from helia_aot.ops.shared.binary_arith import inline_params
from helia_aot.ops.shared.broadcast import BROADCAST_RULE, check_broadcast
from helia_aot.ops.shared.fused_activation import FLT_MAX
from helia_aot.ops.shared.operands import fp32

_INT32_RANGE = {"NONE": (-(1 << 31), (1 << 31) - 1), "RELU": (0, (1 << 31) - 1), "RELU6": (0, 6),
                "RELU_N1_TO_1": (-1, 1)}
# LiteRT's div.cc clamps with CalculateActivationRange<float / int32_t> (kernel_util.h), which bounds RELU, RELU6
# and RELU_N1_TO_1 and leaves every other activation (TANH, SIGN_BIT) at the type's full range: no clamp.
_FLOAT_RANGE = {"NONE": (-math.inf, math.inf), "RELU": (0.0, math.inf), "RELU6": (0.0, 6.0),
                "RELU_N1_TO_1": (-1.0, 1.0)}
ACTIVATION = Rule("fused activation NONE, RELU, RELU6, RELU_N1_TO_1 (clamped) or TANH, SIGN_BIT (no clamp)", litert(
    "div.cc EvalDiv / kernel_util.h CalculateActivationRange", "clamps to RELU, RELU6 and RELU_N1_TO_1's ranges; any "
    "other activation value leaves the type's whole range"))
QUANTIZED = Rule("int8 / int16 DIV refused", helia_limit(
    "LiteRT's quantized DIV (div.cc EvalQuantized) rounds the quotient with a shift of 32 or more when the dividend is "
    "near its zero point (undefined behaviour; its outputs there cannot be reproduced)",
    "an int8 variant following TFLM's div.cc, checked where both references define the result"))
_RULES = (BROADCAST_RULE, ACTIVATION)


@register
class Div(OpLowering):
    op_types = ("DIV",)
    options_table = "DivOptions"
    variants = (
        Variant("float32", inputs=(fp32("input 0"), fp32("input 1")), outputs=(fp32("output"),),
                template="binary_broadcast.c.j2", lower="lower_float32", rules=_RULES,
                notes=("input shapes broadcast at any rank", "inline C")),
        Variant("int32", inputs=(Operand("input 0", ("int32",)), Operand("input 1", ("int32",))),
                outputs=(Operand("output", ("int32",)),), template="binary_broadcast.c.j2", lower="lower_int32",
                rules=_RULES, notes=("input shapes broadcast at any rank", "inline C",
                                     "a zero divisor fails the invocation (ARM_CMSIS_NN_ARG_ERROR), as in LiteRT")),
    )

    def select(self, ctx: OpContext) -> Variant:
        y = ctx.out(0)
        if y.dtype in ("int8", "int16"):
            raise ctx.error(QUANTIZED, y, "Keep DIV in float32 (or int32), or rewrite x / c with a constant c as MUL by "
                                          "1 / c", detail=f"{y.dtype} DIV is not supported: LiteRT's quantized DIV "
                            "rounds the quotient with a shift of 32 or more when the dividend is near its zero point "
                            "(undefined behaviour; its outputs there cannot be reproduced)")
        return super().select(ctx)

    def validate(self, ctx: OpContext) -> None:
        a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        check_broadcast(ctx, a, b, y)
        self._activation(ctx)

    @staticmethod
    def _activation(ctx: OpContext) -> str:
        """The fused activation as DIV clamps it: TANH and SIGN_BIT clamp nothing, as NONE (LiteRT)."""
        act = ctx.options("fused_activation_function", "NONE")
        if act in ("TANH", "SIGN_BIT"):
            return "NONE"
        if act not in _FLOAT_RANGE:
            raise ctx.error(ACTIVATION, ctx.out(0), detail=f"fused activation {act} is not one LiteRT's DIV takes")
        return act

    def lower_float32(self, ctx: OpContext) -> Lowered:
        low, high = _FLOAT_RANGE[self._activation(ctx)]
        lo, hi = c_float(max(low, -FLT_MAX)), c_float(min(high, FLT_MAX))
        body = ["const float v = a / b;", f"*out++ = v < {lo} ? {lo} : (v > {hi} ? {hi} : v);"]
        return Lowered(entry=None, params=inline_params(ctx, body, "float", "float",
                                                        "DIV float32: a / b, clamped as LiteRT (NaN passes)"),
                       fixed={"implementation": "inline"})

    def lower_int32(self, ctx: OpContext) -> Lowered:
        b = ctx.inp(1)
        lo, hi = _INT32_RANGE[self._activation(ctx)]
        precheck = ["int32_t k;", f"for (k = 0; k < {b.num_elements}; k++)", "{",
                    "    if (in2[k] == 0)", "    {",
                    "        return ARM_CMSIS_NN_ARG_ERROR; /* LiteRT fails the invocation on a zero divisor */",
                    "    }", "}"]
        body = ["const int32_t q = (a == INT32_MIN && b == -1) ? INT32_MIN : a / b;"]
        if (lo, hi) == _INT32_RANGE["NONE"]:
            body.append("*out++ = q;")
        else:
            body.append(f"*out++ = q < {lo} ? {lo} : (q > {hi} ? {hi} : q);")
        params = inline_params(ctx, body, "int32_t", "int32_t", "DIV int32: truncating division, as LiteRT")
        params["precheck"] = precheck
        return Lowered(entry=None, params=params, fixed={"implementation": "inline"})

    def fold(self, ctx: OpContext):
        a, b = np.asarray(ctx.inp(0).data), np.asarray(ctx.inp(1).data)
        if a.dtype != np.float32 or self._activation(ctx) != "NONE":
            return None
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # inf, then clamped as LiteRT
            q = (a / b).astype(np.float32)
        return [np.clip(q, -FLT_MAX, FLT_MAX).astype(np.float32)]

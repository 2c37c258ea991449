# SPDX-License-Identifier: Apache-2.0
"""DIV, inline C (ns-cmsis-nn has no division entry): float32 and int32 with NumPy broadcasting of any rank
and the fused activation, as LiteRT's reference kernel.

float32: a / b, clamped to the activation's range (LiteRT's [lowest, max] for NONE, so a division by zero
gives +-FLT_MAX there, and NaN passes). int32: C's truncating division; like LiteRT, which checks every
divisor before it computes and fails the invocation on a zero, the generated code returns
ARM_CMSIS_NN_ARG_ERROR (the module reports a kernel error) before writing anything; INT32_MIN / -1, undefined
in C, gives INT32_MIN (two's complement wrap).

int8 / int16 (LiteRT's quantized DIV, reference DivElementwise) are refused. For nearly every scale its
kernel rounds the quotient of a dividend near its zero point with a shift of 32 or more (RoundingDivideByPOT
past the word: undefined behaviour, e.g. 0 / x gives the zero point plus one on x86); `_undefined_pair` finds
the first dividend and divisor codes where it does, and the refusal names them as reference undefined. The
scales where no code pair does (an output multiplier of 2^7 or more) are a helia-aot limit: no inline
DivElementwise is written."""

from __future__ import annotations

import math

import numpy as np

from helia_aot.emit.c_syntax import c_float
from helia_aot.ir.quant import multiplier_shift
from helia_aot.ops.base import (Lowered, OpContext, OpLowering, Operand, Rule, Variant, helia_limit, litert, register,
                                undefined)
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
QUANTIZED_UNDEFINED = Rule("int8 / int16 DIV: no dividend and divisor codes whose quotient LiteRT rounds past the "
                           "word", undefined(
                               "reference div.h DivElementwise", "rounds the quotient with RoundingDivideByPOT by "
                               "headroom(dividend) + recip_shift(divisor) - output_shift, which passes 31 (a shift "
                               "past the word) for dividends near their zero point at nearly every scale"))
QUANTIZED = Rule("int8 / int16 DIV refused where LiteRT defines every quotient", helia_limit(
    "no inline DivElementwise is written for the scales (output multiplier 2^7 or more) where every code pair's "
    "rounding shift stays in 0..31", "inline C of LiteRT's DivElementwise (GetReciprocal, gemmlowp's "
    "one_over_one_plus_x_for_x_in_0_1), the divisor at its zero point failing the invocation as LiteRT's Eval does"))


def _headroom(values: np.ndarray) -> np.ndarray:
    """TFLite's CountLeadingSignBits of int32 values (none INT32_MIN here)."""
    magnitude = np.where(values >= 0, values, 2 * -values - 1).astype(np.int64)
    bits = np.frexp(magnitude.astype(np.float64))[1]  # bit length, exact below 2^53
    return 32 - bits - np.where(values >= 0, 1, 0)


def _undefined_pair(ctx: OpContext) -> tuple[int, int, int] | None:
    """(dividend code, divisor code, rounding shift) of a pair LiteRT's DivElementwise rounds past the word (a
    shift outside 0..31), or None. Divisors at their zero point are left out: LiteRT's Eval fails on them."""
    a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
    info = np.iinfo(a.dtype)
    codes = np.arange(info.min, info.max + 1, dtype=np.int64)
    divisors = np.unique(np.asarray(b.data, dtype=np.int64)) if b.is_constant else codes
    values = divisors - b.quant.zero_point
    values = values[values != 0]
    real = float(a.quant.scale) / (float(b.quant.scale) * float(y.quant.scale))
    output_shift = multiplier_shift(real)
    for sign in (1, -1):  # a negative divisor negates both operands first
        v = np.abs(values[np.sign(values) == sign])
        if v.size == 0:
            continue
        dividends = sign * (codes - a.quant.zero_point)
        room = _headroom(dividends)
        recip = np.frexp(v.astype(np.float64))[1] - 1  # GetReciprocal(v, 31): 31 - clz(v)
        for pick, bad in ((np.argmax, lambda e: e > 31), (np.argmin, lambda e: e < 0)):
            i, j = int(pick(room)), int(pick(recip))
            shift = int(room[i] + recip[j] - output_shift)
            if bad(shift):
                return int(codes[i]), int(v[j] * sign + b.quant.zero_point), shift
    return None
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
        if y.dtype in ("int8", "int16") and ctx.inp(0).quant is not None and ctx.inp(1).quant is not None:
            hint = "Keep DIV in float32 (or int32), or rewrite x / c with a constant c as MUL by 1 / c"
            pair = _undefined_pair(ctx)
            if pair is not None:
                raise ctx.error(QUANTIZED_UNDEFINED, y, hint, detail=f"{y.dtype} DIV: LiteRT rounds {pair[0]} / "
                                f"{pair[1]} (codes) with a shift of {pair[2]}, outside 0..31")
            raise ctx.error(QUANTIZED, y, hint, detail=f"{y.dtype} DIV is not supported at these scales (LiteRT "
                                                       "defines every quotient; no inline DivElementwise is written)")
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

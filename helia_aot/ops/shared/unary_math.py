# SPDX-License-Identifier: Apache-2.0
"""What SQUARE, SQRT, RSQRT, EXP, LOG and GELU share: the float32 transforms LiteRT's lookup tables sample
(the tables themselves: lookup_tables), its int8 RSQRT and SQRT arithmetic, the inline float32 loop, and
the constant fold of them all.

LiteRT evaluates a transform with the host's libm (std::exp, std::log, std::erfc, std::tanh on float).
Here each libm call is computed in double and rounded to float32 (correctly rounded but for the rare
double-rounding case); a libm that is not correctly rounded can put one table entry one code away.
IEEE sqrt, products, sums and quotients are exact float32 operations in NumPy as in C++.
"""

from __future__ import annotations

import math

import numpy as np

from helia_aot.ir.quant import quantize_multiplier
from helia_aot.ops.base import Lowered, OpContext, Rule, Source, helia_limit, litert, undefined
from helia_aot.ops.shared.fixed_point import inv_sqrt_multiplier_exp, multiply_by_quantized_multiplier
from helia_aot.ops.shared.lookup_tables import lut_int16_lookup

F32 = np.float32

# ---- the rules the element-wise operators share (issue #30: each names its source) ----

# LUTPopulate (LiteRT's kernels/internal/reference/integer_ops/lut.h, called from exp.cc, elementwise.cc LOG and
# RSQRT, gelu.cc Prepare) casts each rescaled float to an integer code: a non-finite value or one past int32 is
# undefined behaviour there (x86 gives INT_MIN), so LiteRT runs the case with a table no one can reproduce.
TABLE_RANGE_RULE = Rule("scales for which LiteRT's lookup table is defined (every entry finite, within int32 codes)",
                        undefined("kernels/internal/reference/integer_ops/lut.h LUTPopulate", "casts a non-finite or "
                                  "out-of-int32 float to an integer (undefined behaviour in C++): its table has no "
                                  "defined value to match"))


def elementwise_int16_zero_point(op_name: str) -> tuple[tuple[str, Source], ...]:
    """The int16 zero-point operand rule's source for the operators of LiteRT's elementwise.cc (ABS, LOG, RSQRT,
    SQRT), passed as Operand(sources=...)."""
    return (("zero point 0", litert("elementwise.cc GenericPrepare", f"{op_name}: TF_LITE_ENSURE_EQ(input_offset, 0) "
                                    "and (output_offset, 0) for a quantized int16 input")),)


def left_shift_rule(entries: str, largest: str) -> Rule:
    """A requantization whose left shift takes an input's q - zero point past int32: LiteRT's reference multiplies
    (x << shift) in int32 (MultiplyByQuantizedMultiplier), signed overflow there, and the kernel entry shifts the
    same int32. The callers refuse exactly the models where some input code overflows (`fits_left_shift`)."""
    return Rule(f"input scale / output scale small enough that {largest} shifted left stays an int32",
                undefined(f"LiteRT's MultiplyByQuantizedMultiplier (and {entries})",
                          "shifts the int32 difference left before the multiply: past int32 it overflows (undefined "
                          "in C++), no result to match"))


def fits_left_shift(low: int, high: int, shift: int) -> bool:
    """Every int32 value in [low, high], shifted left by `shift` (x * (1 << shift)), stays an int32."""
    if shift <= 0:
        return True
    return low * (1 << shift) >= -(1 << 31) and high * (1 << shift) <= (1 << 31) - 1


def f32(x) -> np.float32:
    return np.float32(x)


def libm_f32(fn, x) -> np.float32:
    """A float32 libm function (std::fn(float)) as the correctly rounded result: fn in double, to float32."""
    return f32(fn(float(x)))


# ---- the float32 transforms LiteRT's tables sample (one float32 scalar in, one out) ----

def exp_transform(v):
    with np.errstate(over="ignore"):
        return f32(math.exp(float(v))) if float(v) < 89.0 else F32(np.inf)


def log_transform(output_min: np.float32):
    """LOG's table function: log(v), and the output's lowest real value for v <= 0 (LogLUTPrepare)."""
    def transform(v):
        return output_min if v <= 0 else libm_f32(math.log, v)
    return transform


def rsqrt_int16_transform(output_scale: float):
    """RSQRT int16's table function: 1 / sqrt(v), and 32767 x output scale for v <= 0."""
    def transform(v):
        if v <= 0:
            return f32(F32(32767) * F32(output_scale))
        return F32(1) / np.sqrt(f32(v))
    return transform


M_SQRT1_2 = 0.70710678118654752440
# kSqrt2dPi = M_2_SQRTPI * M_SQRT1_2 (a double product) stored as a float constant.
GELU_SQRT_2_OVER_PI = f32(1.12837916709551257390 * M_SQRT1_2)
GELU_CUBIC = f32(0.044715)
GELU_MINUS_SQRT1_2 = f32(-M_SQRT1_2)


def gelu_transform(v):
    """GeluTransform: 0.5f * in * std::erfc(in * (float)-M_SQRT1_2), float32 step by step."""
    v = f32(v)
    return f32(f32(F32(0.5) * v) * libm_f32(math.erfc, f32(v * GELU_MINUS_SQRT1_2)))


def gelu_approximate_transform(v):
    """GeluTransformApproximate: 0.5f * in * (1.f + std::tanh(kSqrt2dPi * (in + 0.044715f * in * in * in)))."""
    v = f32(v)
    cubic = f32(f32(f32(GELU_CUBIC * v) * v) * v)
    inner = f32(GELU_SQRT_2_OVER_PI * f32(v + cubic))
    return f32(f32(F32(0.5) * v) * f32(F32(1) + libm_f32(math.tanh, inner)))


# ---- RSQRT int8 (RsqrtEvalQuantizedInt8, in gemmlowp fixed point) ----

def rsqrt_int8_table(input_scale: float, input_zp: int, output_scale: float, output_zp: int) -> np.ndarray:
    """RsqrtEvalQuantizedInt8 for every input code (entry q + 128). Codes below the input zero point are
    an error in LiteRT (negative input); the table gives them the largest output, as a code at the zero
    point gets."""
    scale = 1.0 / float(f32(np.sqrt(f32(input_scale)) * f32(output_scale)))
    multiplier, shift = quantize_multiplier(scale)
    k_shift = 20
    table = np.empty(256, dtype=np.int64)
    for q in range(-128, 128):
        value = q - input_zp
        if value <= 0:
            table[q + 128] = 127
            continue
        inv_mult, inv_shift = inv_sqrt_multiplier_exp(value)
        data = multiply_by_quantized_multiplier(1, inv_mult, inv_shift + k_shift)
        out = multiply_by_quantized_multiplier(data, multiplier, shift - k_shift) + output_zp
        table[q + 128] = min(max(out, -128), 127)
    return table


# ---- lowering helpers ----

def float_lowered(ctx: OpContext, function: str) -> Lowered:
    """An inline float32 loop (the variant's template) per element."""
    x, y = ctx.inp(0), ctx.out(0)
    return Lowered(entry=None, fixed={"implementation": "inline", "function": function},
                   params=dict(input=x.index, output=y.index, size=y.num_elements))


def quantized_dtype(ctx: OpContext) -> str | None:
    """int8 / int16 when input and output are quantized (what the integer variants and folding need), else
    None. validate() also runs for folding, before any variant is selected, so it asks this, not the variant."""
    x, y = ctx.inp(0), ctx.out(0)
    if x.dtype == y.dtype and x.dtype in ("int8", "int16") and x.quant is not None and y.quant is not None:
        return x.dtype
    return None


def fold_unary(ctx: OpContext, int8_table=None, int16_table=None, float_fn=None) -> list[np.ndarray] | None:
    """Apply the operator to a constant input at conversion time the way the generated code would."""
    x = ctx.inp(0)
    data = np.asarray(x.data)
    if x.dtype != ctx.out(0).dtype:
        return None
    if quantized_dtype(ctx) == "int8" and int8_table is not None:
        return [np.asarray(int8_table(), dtype=np.int64)[data.astype(np.int32) + 128].astype(np.int8)]
    if quantized_dtype(ctx) == "int16" and int16_table is not None:
        return [lut_int16_lookup(data, int16_table())]
    if x.dtype == "float32" and float_fn is not None:
        with np.errstate(all="ignore"):
            return [np.asarray(float_fn(data.astype(np.float32)), dtype=np.float32)]
    return None


# ---- SQRT (SqrtEvalQuantized: float32 per element, truncated toward zero) ----

def sqrt_quantized(codes: np.ndarray, input_scale: float, input_zp: int, output_scale: float, output_zp: int,
                   lo: int, hi: int) -> np.ndarray:
    """SqrtEvalQuantized: sqrt(input_scale * (q - zp)) / output_scale in float32, truncated toward zero by
    static_cast<int>, plus the output zero point, clamped. LiteRT fails on a negative dequantized input;
    here it is taken as 0 (the output zero point)."""
    real = F32(input_scale) * (np.asarray(codes, dtype=np.int32) - input_zp).astype(np.float32)
    real = np.maximum(real, F32(0))
    quotient = np.sqrt(real) / F32(output_scale)
    # the cast of a quotient past int32 is undefined in C++; saturate (the clamp below decides anyway)
    truncated = np.trunc(np.minimum(quotient, F32(2.0 ** 31 - 256))).astype(np.int64)
    return np.clip(truncated + output_zp, lo, hi)


def sqrt_int8_table_u8(input_scale: float, input_zp: int, output_scale: float, output_zp: int) -> np.ndarray:
    """SQRT int8 for every input code, in arm_sqrt_s8's order: entry (uint8_t)q."""
    codes = np.arange(256, dtype=np.int32)
    signed = np.where(codes > 127, codes - 256, codes)
    return sqrt_quantized(signed, input_scale, input_zp, output_scale, output_zp, -128, 127)

# SPDX-License-Identifier: Apache-2.0
"""What SQUARE, SQRT, RSQRT, EXP, LOG, GELU, RELU_N1_TO_1 and RELU_0_TO_1 share: LiteRT's lookup tables
rebuilt at conversion time with the float32 arithmetic of its Prepare (LUTPopulate), its int8 RSQRT
fixed-point arithmetic, and the float32 transforms its tables sample.

LiteRT evaluates a transform with the host's libm (std::exp, std::log, std::erfc, std::tanh on float).
Here each libm call is computed in double and rounded to float32 (correctly rounded but for the rare
double-rounding case); a libm that is not correctly rounded can put one table entry one code away.
IEEE sqrt, products, sums and quotients are exact float32 operations in NumPy as in C++.
"""

from __future__ import annotations

import math

import numpy as np

from helia_aot.emit.c_syntax import c_float
from helia_aot.ir.graph import Tensor
from helia_aot.ir.quant import quantize_multiplier, quantize_value
from helia_aot.ops.base import ConstArray, Lowered, OpContext, OpLowering, Variant
from helia_aot.ops.common import int8_act, unary_validate
from helia_aot.ops.shared.float_variants import fp32

F32 = np.float32


def f32(x) -> np.float32:
    return np.float32(x)


def tflite_round(x):
    """std::round (half away from zero) of float32 values; exact (float32 + 0.5 is exact in double)."""
    a = np.abs(np.asarray(x, dtype=np.float64))
    return np.copysign(np.floor(a + 0.5), np.asarray(x, dtype=np.float64))


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


# ---- LUTPopulate ----

class TableRangeError(ValueError):
    """LiteRT's table is undefined for these scales: a transform value is not finite in float32, or its
    code does not fit int32 (static_cast of such a float is undefined behaviour in C++; on x86 it gives
    INT_MIN and the table garbage). The message names the real input value."""


def lut_int8(transform, input_scale: float, input_zp: int, output_scale: float, output_zp: int) -> np.ndarray:
    """LUTPopulateInt8 in float32, laid out for lut.c.j2: entry q + 128 is the output code of input code q."""
    inverse_scale = F32(1) / f32(output_scale)
    table = np.empty(256, dtype=np.int64)
    with np.errstate(over="ignore", invalid="ignore"):
        for q in range(-128, 128):
            dequantized = f32(f32(input_scale) * f32(q - input_zp))
            transformed = transform(dequantized)
            rescaled = tflite_round(f32(transformed * inverse_scale))
            value = float(f32(f32(rescaled) + f32(output_zp)))
            if not abs(value) < 2.0 ** 31:
                raise TableRangeError(f"input {float(dequantized):g} maps to {float(transformed):g}, "
                                      f"{value:g} output codes")
            table[q + 128] = int(min(max(value, -128.0), 127.0))
    return table


def lut_int16(transform, input_scale: float, input_zp: int, output_scale: float, output_zp: int) -> np.ndarray:
    """LUTPopulateInt16<float>: 512 samples of the transform over the int16 input range, each biased by
    half its interpolation error at the midpoint, and the end point; every step in float32 as LiteRT."""
    input_min = f32(f32(input_scale) * f32(-32768 - input_zp))
    input_max = f32(f32(input_scale) * f32(32767 - input_zp))
    output_min = f32(f32(output_scale) * f32(-32768 - output_zp))
    output_max = f32(f32(output_scale) * f32(32767 - output_zp))
    steps = 512
    step = f32((input_max - input_min) / F32(steps))
    half_step = f32(step / F32(2))
    inv = f32(F32(65536) / f32(output_max - output_min))
    table = np.empty(steps + 1, dtype=np.int64)

    def clamp(v) -> int:
        return int(min(max(float(v), -32768.0), 32767.0))

    def finite(v):
        value = transform(v)
        if not np.isfinite(value):
            raise TableRangeError(f"input {float(v):g} maps to {float(value):g}")
        return value

    with np.errstate(over="ignore", invalid="ignore"):
        for i in range(steps):
            base = f32(input_min + f32(F32(i) * step))
            val = finite(base)
            val_mid = finite(f32(base + half_step))
            val_next = finite(f32(input_min + f32(F32(i + 1) * step)))
            sample = f32(tflite_round(f32(val * inv)))
            mid_interp = f32(tflite_round(f32(f32(f32(val_next * inv) + sample) / F32(2))))
            mid = f32(tflite_round(f32(val_mid * inv)))
            bias = f32(tflite_round(f32(f32(mid_interp - mid) / F32(2))))
            entry = f32(sample - bias)
            if entry != entry:  # an infinite code on both sides: LiteRT's entry is a cast of NaN
                raise TableRangeError(f"input {float(base):g} maps to {float(val):g}, past float32 in output codes")
            table[i] = clamp(entry)
        table[steps] = clamp(tflite_round(f32(finite(input_max) * inv)))
    return table


def lut_int16_lookup(codes: np.ndarray, table: np.ndarray) -> np.ndarray:
    """LUTLookup on int16: the high 9 bits pick the entry, the low 7 interpolate to the next; slope and
    result are int16 in LiteRT (they wrap in C, never for a table whose neighbours differ by < 2^15)."""
    v = np.asarray(codes, dtype=np.int32)
    index = 256 + (v >> 7)
    offset = v & 0x7F
    base = table[index].astype(np.int32)
    slope = ((table[index + 1] - table[index] + 32768) % 65536 - 32768).astype(np.int32)
    out = base + ((slope * offset + 64) >> 7)
    return ((out + 32768) % 65536 - 32768).astype(np.int16)


# ---- RSQRT int8 fixed point (GetInvSqrtQuantizedMultiplierExp and MultiplyByQuantizedMultiplier) ----

INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1


def _srdhm(a: int, b: int) -> int:
    """gemmlowp SaturatingRoundingDoublingHighMul."""
    if a == b == INT32_MIN:
        return INT32_MAX
    ab = a * b
    nudge = (1 << 30) if ab >= 0 else 1 - (1 << 30)
    total = ab + nudge
    # C++ integer division truncates toward zero.
    q = abs(total) // (1 << 31)
    return q if total >= 0 else -q


def _rounding_divide_by_pot(x: int, exponent: int) -> int:
    mask = (1 << exponent) - 1
    remainder = x & mask
    threshold = (mask >> 1) + (1 if x < 0 else 0)
    return (x >> exponent) + (1 if remainder > threshold else 0)


def _saturating_shift_left(x: int, exponent: int) -> int:
    return max(INT32_MIN, min(INT32_MAX, x << exponent))


def _wrap32(x: int) -> int:
    return (x + (1 << 31)) % (1 << 32) - (1 << 31)


def multiply_by_quantized_multiplier(x: int, multiplier: int, shift: int) -> int:
    left = shift if shift > 0 else 0
    right = 0 if shift > 0 else -shift
    return _rounding_divide_by_pot(_srdhm(_wrap32(x * (1 << left)), multiplier), right)


def inv_sqrt_multiplier_exp(value: int) -> tuple[int, int]:
    """GetInvSqrtQuantizedMultiplierExp(value, kReverseShift): a Newton-Raphson 1/sqrt in gemmlowp fixed
    point (3 integer bits), returned as (multiplier, left shift)."""
    if value <= 1:
        return INT32_MAX, 0
    shift = 11
    while value >= (1 << 29):
        value //= 4
        shift += 1
    max_left_shift_bits = (32 - value.bit_length()) - 1
    pairs = max_left_shift_bits // 2 - 1
    shift -= pairs
    value <<= 2 * pairs
    fixed_input = value >> 1
    half_input = _rounding_divide_by_pot(fixed_input, 1)
    half_three = (1 << 28) + (1 << 27)
    x = 1 << 28  # F3::One()
    for _ in range(5):
        x3 = _saturating_shift_left(_srdhm(_srdhm(x, x), x), 6)  # Rescale<3> of an F9
        x = _saturating_shift_left(_wrap32(_srdhm(half_three, x) - _srdhm(half_input, x3)), 3)  # F6 -> F3
    x = _srdhm(x, 1518500250)  # times sqrt(2) / 2 in F0
    if shift < 0:
        x = _wrap32(x << -shift)
        shift = 0
    return x, -shift


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

def lut_int8_lowered(ctx: OpContext, table: np.ndarray, what: str) -> Lowered:
    """A 256-entry table applied by lut.c.j2 (inline C, entry q + 128)."""
    x, y = ctx.inp(0), ctx.out(0)
    return Lowered(entry=None, fixed={"implementation": "lut"},
                   constants=[ConstArray("lut", "int8_t", np.asarray(table), f"{what} table indexed by input + 128")],
                   params=dict(input=x.index, output=y.index, size=y.num_elements))


def lut_int16_lowered(ctx: OpContext, table: np.ndarray, what: str) -> Lowered:
    """LiteRT's 513-entry int16 table applied with its interpolation (lut_s16.c.j2, inline C)."""
    x, y = ctx.inp(0), ctx.out(0)
    return Lowered(entry=None, fixed={"implementation": "lut interpolated"}, template="lut_s16.c.j2",
                   constants=[ConstArray("lut", "int16_t", np.asarray(table),
                                         f"{what} table: 512 samples over the int16 input range and the end point")],
                   params=dict(input=x.index, output=y.index, size=y.num_elements))


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


def quant_of(t: Tensor) -> tuple[float, int]:
    return float(t.quant.scale), int(t.quant.zero_point)


def table_args(ctx: OpContext) -> tuple[float, int, float, int]:
    x, y = ctx.inp(0), ctx.out(0)
    return (*quant_of(x), *quant_of(y))


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


# ---- RELU_N1_TO_1 / RELU_0_TO_1 ----

class BoundedReluLowering(OpLowering):
    """LiteRT's ReluPrepare + QuantizedReluX for int8 (arm_relu_generic_s8), Relu1 / Relu0To1 for float32
    (inline C). Subclasses name op_types, `activation` and the real `bounds`."""

    activation = ""
    bounds = (0.0, 1.0)
    variants = (
        Variant("int8", inputs=(int8_act(),), outputs=(int8_act("output"),), entries=("arm_relu_generic_s8",),
                template="relu_generic_s8.c.j2",
                notes=("input and output shapes equal", "input scale below 2^22 x output scale")),
        Variant("float32", inputs=(fp32(),), outputs=(fp32("output"),), template="relu_range_f32.c.j2",
                lower="lower_float32", notes=("input and output shapes equal", "inline C")),
    )

    def _requantization(self, ctx: OpContext) -> tuple[int, int]:
        """input scale / output scale as LiteRT forms it (a float32 quotient), as multiplier and shift."""
        x, y = ctx.inp(0), ctx.out(0)
        mult, shift = quantize_multiplier(float(f32(x.quant.scale) / f32(y.quant.scale)))
        if shift > 22:
            # (q - zero point) << shift must fit int32 in LiteRT's and the kernels' arithmetic.
            raise ctx.error(f"input scale {x.quant.scale:g} over output scale {y.quant.scale:g} needs a left shift "
                            f"of {shift}; at most 22 keeps the requantization in int32", y)
        return mult, shift

    def validate(self, ctx: OpContext) -> None:
        unary_validate(ctx)
        if quantized_dtype(ctx) == "int8":
            self._requantization(ctx)

    def _act_range(self, y: Tensor) -> tuple[int, int]:
        low, high = self.bounds
        zp, scale = int(y.quant.zero_point), float(y.quant.scale)
        return max(-128, quantize_value(low, scale, zp)), min(127, quantize_value(high, scale, zp))

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        mult, shift = self._requantization(ctx)
        act_min, act_max = self._act_range(y)
        return Lowered(entry="arm_relu_generic_s8",
                       params=dict(input=x.index, output=y.index, size=y.num_elements, input_zp=x.quant.zero_point,
                                   output_zp=y.quant.zero_point, mult=mult, shift=shift, act_min=act_min,
                                   act_max=act_max))

    def lower_float32(self, ctx: OpContext) -> Lowered:
        lowered = float_lowered(ctx, "clamp")
        lowered.params.update(lower=c_float(self.bounds[0]), upper=c_float(self.bounds[1]))
        return lowered

    def fold(self, ctx: OpContext):
        x, y = ctx.inp(0), ctx.out(0)
        data = np.asarray(x.data)
        if x.dtype == "float32" and y.dtype == "float32":
            low, high = (np.float32(b) for b in self.bounds)
            return [np.where(data > high, high, np.where(data < low, low, data)).astype(np.float32)]
        if quantized_dtype(ctx) != "int8":
            return None
        mult, shift = self._requantization(ctx)
        act_min, act_max = self._act_range(y)
        out = [multiply_by_quantized_multiplier(int(v) - int(x.quant.zero_point), mult, shift) + int(y.quant.zero_point)
               for v in data.reshape(-1)]
        clamped = np.minimum(np.maximum(np.asarray(out, dtype=np.int64), act_min), act_max)
        return [clamped.reshape(data.shape).astype(np.int8)]

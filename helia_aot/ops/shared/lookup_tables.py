# SPDX-License-Identifier: Apache-2.0
"""LiteRT's lookup tables rebuilt at conversion time (LUTPopulate): the 256-entry int8 table and the
513-entry interpolated int16 one, of a transform sampled at the input's dequantized codes, and how the
generated code applies them (lut.c.j2, lut_s16.c.j2) or a constant fold does (LUTLookup)."""

from __future__ import annotations

import numpy as np

from helia_aot.ir.graph import Tensor
from helia_aot.ops.base import ConstArray, Lowered, OpContext
from helia_aot.ops.shared.fixed_point import round_half_away


class TableRangeError(ValueError):
    """LiteRT's table is undefined for these scales: a transform value is not finite in float32, or its
    code does not fit int32 (static_cast of such a float is undefined behaviour in C++; on x86 it gives
    INT_MIN and the table garbage). The message names the real input value."""


def lut_int8(transform, input_scale: float, input_zp: int, output_scale: float, output_zp: int) -> np.ndarray:
    """LUTPopulateInt8 in float32, laid out for lut.c.j2: entry q + 128 is the output code of input code q.
    `transform` maps the float32 array of the 256 dequantized inputs to their float32 images (LOGISTIC and
    TANH: NumPy's float32 ufuncs on the whole array; a transform of one value goes through lut_of)."""
    inverse_scale = np.float32(1) / np.float32(output_scale)
    codes = np.arange(-128, 128, dtype=np.int32)
    dequantized = np.float32(input_scale) * (codes - input_zp).astype(np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        transformed = np.asarray(transform(dequantized), dtype=np.float32)
        rescaled = round_half_away(transformed * inverse_scale)
        values = rescaled.astype(np.float32) + np.float32(output_zp)
    undefined = np.flatnonzero(~(np.abs(values.astype(np.float64)) < 2.0 ** 31))
    if undefined.size:
        k = int(undefined[0])
        raise TableRangeError(f"input {float(dequantized[k]):g} maps to {float(transformed[k]):g}, "
                              f"{float(values[k]):g} output codes")
    return np.clip(values, -128.0, 127.0).astype(np.int64)


def lut_int16(transform, input_scale: float, input_zp: int, output_scale: float, output_zp: int,
              precision=np.float32) -> np.ndarray:
    """LUTPopulateInt16<T>: 512 samples of the transform over the int16 input range, each biased by half
    its interpolation error at the midpoint, and the end point (513 entries that LUTLookup / ns-cmsis-nn
    interpolate with the low 7 bits); every step rounded to `precision` as LiteRT computes in T: float32
    for the element-wise operators, float64 (LUTPopulateInt16<double>) for SOFTMAX's tables."""
    p = precision
    input_min = p(p(input_scale) * p(-32768 - input_zp))
    input_max = p(p(input_scale) * p(32767 - input_zp))
    output_min = p(p(output_scale) * p(-32768 - output_zp))
    output_max = p(p(output_scale) * p(32767 - output_zp))
    steps = 512
    step = p((input_max - input_min) / p(steps))
    half_step = p(step / p(2))
    inv = p(p(65536) / p(output_max - output_min))
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
            base = p(input_min + p(p(i) * step))
            val = finite(base)
            val_mid = finite(p(base + half_step))
            val_next = finite(p(input_min + p(p(i + 1) * step)))
            sample = p(round_half_away(p(val * inv)))
            mid_interp = p(round_half_away(p(p(p(val_next * inv) + sample) / p(2))))
            mid = p(round_half_away(p(val_mid * inv)))
            bias = p(round_half_away(p(p(mid_interp - mid) / p(2))))
            entry = p(sample - bias)
            if entry != entry:  # an infinite code on both sides: LiteRT's entry is a cast of NaN
                raise TableRangeError(f"input {float(base):g} maps to {float(val):g}, past float32 in output codes")
            table[i] = clamp(entry)
        table[steps] = clamp(round_half_away(p(finite(input_max) * inv)))
    return table


def lut_of(dtype: str, transform, input_scale: float, input_zp: int, output_scale: float,
           output_zp: int) -> np.ndarray:
    """The table of an int8 or int16 operator (lut_int8 / lut_int16 in float32) whose transform takes one
    float32 value."""
    if dtype == "int16":
        return lut_int16(transform, input_scale, input_zp, output_scale, output_zp)

    def on_array(values: np.ndarray) -> np.ndarray:
        return np.array([transform(v) for v in values], dtype=np.float32)
    return lut_int8(on_array, input_scale, input_zp, output_scale, output_zp)


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


def quant_of(t: Tensor) -> tuple[float, int]:
    return float(t.quant.scale), int(t.quant.zero_point)


def table_args(ctx: OpContext) -> tuple[float, int, float, int]:
    """The builders' scale and zero point arguments: the operator's input's, then its output's."""
    x, y = ctx.inp(0), ctx.out(0)
    return (*quant_of(x), *quant_of(y))


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

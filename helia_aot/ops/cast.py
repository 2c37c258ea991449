# SPDX-License-Identifier: Apache-2.0
"""CAST between int8, uint8, int16, uint16, int32, uint32, int64, float32 and bool (every pair LiteRT's
reference kernel takes among them; uint32 <-> int32 is in TFLM's audio front end), element by element in inline C with LiteRT's semantics, which tests/e2e measured:

- to bool: x != 0 (a float NaN is true);
- from bool: 1 or 0;
- integer to a narrower or other-signed integer: wraps modulo 2^bits (the conversion GCC and Clang define
  for a signed target, as LiteRT's static_cast);
- integer to float32: rounds to nearest (int32 and int64 beyond 2^24);
- float32 to integer: truncates toward zero and saturates at the target's limits; NaN gives the maximum.

Quantization parameters are ignored, as LiteRT's CAST ignores them: codes are converted as integers."""

from __future__ import annotations

import numpy as np

from helia_aot.emit.c_syntax import c_type
from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, Variant, register
from helia_aot.ops.shared.checks import OUTPUT_SIZE_RULE, unary_validate

CASTABLE = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "float32", "bool")
_INTS = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64")
# Per integer target: (C maximum, C minimum, the float at and above which it saturates high, the float at
# and below which it saturates low). Both floats are exact: truncation maps everything strictly between
# them into range.
_LIMITS = {
    "int8": ("127", "(-128)", "128.0f", "-129.0f"),
    "uint8": ("255u", "0u", "256.0f", "-1.0f"),
    "int16": ("32767", "(-32768)", "32768.0f", "-32769.0f"),
    "uint16": ("65535u", "0u", "65536.0f", "-1.0f"),
    "uint32": ("4294967295u", "0u", "4294967296.0f", "-1.0f"),
    "int32": ("2147483647", "(-2147483647 - 1)", "2147483648.0f", "-2147483648.0f"),
    "int64": ("9223372036854775807LL", "(-9223372036854775807LL - 1)", "9223372036854775808.0f",
              "-9223372036854775808.0f"),
}


def cast_expression(src: str, dst: str) -> tuple[str, str]:
    """(C expression of the input element x, the rule in words) for a cast from src to dst."""
    ctype = c_type(dst)
    if src == dst:
        return "x", "same type: a copy"
    if dst == "bool":
        return ("(uint8_t)(x != 0.0f)" if src == "float32" else "(uint8_t)(x != 0)"), "x != 0"
    if src == "bool":
        return f"({ctype})(x != 0)", "true -> 1, false -> 0"
    if dst == "float32":
        return "(float)x", "integer to float32, rounded to nearest"
    if src == "float32":
        high, low, at_high, at_low = _LIMITS[dst]
        return (f"(x != x || x >= {at_high}) ? ({ctype}){high} : (x <= {at_low} ? ({ctype}){low} : ({ctype})x)",
                "float32 to integer: truncated toward zero, saturated; NaN gives the maximum")
    return f"({ctype})x", "integer to integer: modulo 2^bits"


def _variant(src: str) -> Variant:
    return Variant(f"from_{src}", inputs=(Operand("input", (src,)),), outputs=(Operand("output", CASTABLE),),
                   template="cast.c.j2", rules=(OUTPUT_SIZE_RULE,),
                   notes=("quantization ignored: codes convert as integers",))


@register
class Cast(OpLowering):
    op_types = ("CAST",)
    options_table = "CastOptions"
    variants = tuple(_variant(d) for d in CASTABLE)

    def validate(self, ctx: OpContext) -> None:
        unary_validate(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        expr, rule = cast_expression(x.dtype, y.dtype)
        return Lowered(params=dict(input=x.index, output=y.index, in_ctype=c_type(x.dtype), out_ctype=c_type(y.dtype),
                                   count=y.num_elements, expr=expr, rule=f"CAST {x.dtype} -> {y.dtype}: {rule}"))

    def fold(self, ctx: OpContext):
        x, y = ctx.inp(0), ctx.out(0)
        values = np.asarray(x.data)
        if y.dtype == "bool":
            return [values != 0]
        if x.dtype == "float32" and y.dtype in _INTS:
            info = np.iinfo(y.dtype)

            def convert(v: float) -> int:
                if v != v or v >= info.max + 1:
                    return int(info.max)
                return int(info.min) if v <= info.min - 1 else int(v)  # int() truncates toward zero
            flat = [convert(float(v)) for v in values.reshape(-1)]
            return [np.asarray(flat, dtype=y.dtype).reshape(values.shape)]
        if y.dtype == "float32":
            return [values.astype(np.float32)]
        return [values.astype(np.int64).astype(y.dtype)]  # integers wrap modulo 2^bits

# SPDX-License-Identifier: Apache-2.0
"""The lookup tables of the portable float kernels, from their defining formulas.

kernels/portable/src/support/flt_tables.c holds these values; test_float_tables.py recomputes them
here and compares, and the parity tests check them against ns-cmsis-nn's. Running this module
prints the C table bodies.
"""

from __future__ import annotations

import math

import numpy as np

ENTRIES = 257  # 256 segments plus the end point, so entry i + 1 always exists


def exp2_f32() -> np.ndarray:
    """2^(i/256), correctly rounded to float32."""
    return np.array([2.0 ** (i / 256.0) for i in range(ENTRIES)], dtype=np.float64).astype(np.float32)


def tanh_f32() -> np.ndarray:
    """tanh(4 i / 256) rounded to 9 decimal places, then to float32 (how ns-cmsis-nn's table was written)."""
    return np.array([float(f"{math.tanh(4.0 * i / 256.0):.9f}") for i in range(ENTRIES)]).astype(np.float32)


def exp2_f16_bits() -> np.ndarray:
    """2^(i/256), correctly rounded to float16, as bit patterns."""
    return np.array([2.0 ** (i / 256.0) for i in range(ENTRIES)]).astype(np.float16).view(np.uint16)


def c_rows(literals: list[str], per_row: int) -> str:
    rows = [", ".join(literals[i:i + per_row]) for i in range(0, len(literals), per_row)]
    return ",\n".join("    " + r for r in rows)


def hex_f32(value: float) -> str:
    """An exact C hexadecimal float literal, e.g. 0x1.0163dap+0f."""
    mantissa, exponent = float(value).hex().split("p")
    mantissa = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa
    return f"{mantissa}p{exponent}f"


def main() -> None:
    f32 = lambda a: [hex_f32(v) for v in a]  # noqa: E731
    print("exp2_f32:\n" + c_rows(f32(exp2_f32()), 4))
    print("tanh_f32:\n" + c_rows(f32(tanh_f32()), 4))
    print("exp2_f16:\n" + c_rows([f"0x{int(v):04X}u" for v in exp2_f16_bits()], 8))


if __name__ == "__main__":
    main()

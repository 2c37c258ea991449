# SPDX-License-Identifier: Apache-2.0
"""The tables of TFLM's real FFT (SignalRfft), computed at conversion time.

TFLM computes its FFTs with kiss fft (v1.3.0): a real FFT of N points is a complex FFT of N / 2
points over the input's (even, odd) sample pairs, then a split step. kiss fft plans the complex
FFT as a list of radices (4 first, then 2, then odd primes) and tabulates exp(-2 pi i k / n) and the
split's rotations in double precision, rounded to the sample type: floor(0.5 + max * cos) for its
fixed-point builds (max 32767 for int16, 2147483647 for int32), the float cast for float. The
kernel gets these tables as constants, so a module needs no libm and computes exactly what TFLM's
tables hold (Python's math.cos is the C library's cos, as TFLM's).
"""

from __future__ import annotations

import math

import numpy as np

# Largest sample of each fixed-point build (kiss fft's SAMP_MAX); float has none.
SAMPLE_MAX = {"int16": 32767, "int32": 2147483647}
NUMPY_TYPES = {"int16": np.int16, "int32": np.int32, "float32": np.float32}


def factors(n: int) -> list[tuple[int, int]]:
    """kiss fft's plan of an n-point complex FFT: (radix, remaining length) per stage, outermost first.

    Radix 4 while it divides, then 2, then 3, 5, 7, ... ; a remainder with no factor up to
    floor(sqrt(n)) is one last stage of its own length."""
    stages = []
    p = 4
    limit = math.floor(math.sqrt(n))
    while True:
        while n % p:
            p = 2 if p == 4 else 3 if p == 2 else p + 2
            if p > limit:
                p = n
        n //= p
        stages.append((p, n))
        if n <= 1:
            return stages


def _round(value: float, dtype: str):
    if dtype == "float32":
        return np.float32(value)
    return math.floor(0.5 + SAMPLE_MAX[dtype] * value)


def twiddles(n: int, dtype: str) -> np.ndarray:
    """exp(-2 pi i k / n), k = 0 .. n - 1, as (re, im) rows of the sample type."""
    rows = []
    for k in range(n):
        phase = -2 * math.pi * k / n
        rows.append((_round(math.cos(phase), dtype), _round(math.sin(phase), dtype)))
    return np.array(rows, dtype=NUMPY_TYPES[dtype]).reshape(n, 2)


def split_twiddles(n: int, dtype: str) -> np.ndarray:
    """The real-FFT split's rotations exp(-i pi ((k + 1) / n + 1/2)), k = 0 .. n/2 - 1 (n: the complex
    FFT's length, N / 2), as (re, im) rows."""
    rows = []
    for k in range(n // 2):
        phase = -math.pi * ((k + 1) / n + 0.5)
        rows.append((_round(math.cos(phase), dtype), _round(math.sin(phase), dtype)))
    return np.array(rows, dtype=NUMPY_TYPES[dtype]).reshape(n // 2, 2)


def factor_table(n: int) -> np.ndarray:
    """factors(n) flattened: radix, remaining length, radix, ... (the kernel's `factors`)."""
    return np.array([v for stage in factors(n) for v in stage], dtype=np.int32)


def largest_generic_radix(n: int) -> int:
    """The largest radix in n's plan with no butterfly of its own (not 2, 3, 4 or 5: the generic
    butterfly, which needs that many work pairs), else 0."""
    return max((p for p, _ in factors(n) if p not in (2, 3, 4, 5)), default=0)


def scratch_elements(fft_length: int) -> int:
    """Sample-type elements of the kernel's scratch: the zero-padded input (N), the complex FFT's
    output (N / 2 pairs) and the generic radix's work pairs."""
    return 2 * fft_length + 2 * largest_generic_radix(fft_length // 2)

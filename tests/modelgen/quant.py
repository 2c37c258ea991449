# SPDX-License-Identifier: Apache-2.0
"""Quantization helpers: realistic scales from float ranges, and seeded data."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from tests.modelgen.errors import BuilderError

_INT_RANGES = {"int8": (-128, 127), "uint8": (0, 255), "int16": (-32768, 32767),
               "int32": (-2**31, 2**31 - 1), "int64": (-2**63, 2**63 - 1)}
# Activations of these types are quantized symmetrically (zero point 0): the
# converter's A16W8 (16x8) mode does so for int16, and LiteRT's int16 kernels
# refuse a non-zero zero point. int32 activations (QUANTIZE int16 <-> int32) follow.
SYMMETRIC_ACTIVATION_DTYPES = ("int16", "int32")


def round_half_away(x):
    """Round half away from zero, like C's round() that TFLite's quantizer uses
    (numpy's round goes to even)."""
    x = np.asarray(x, dtype=np.float64)
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def rng(seed: int) -> np.random.Generator:
    """The one source of randomness for generated models: PCG64 seeded explicitly."""
    return np.random.Generator(np.random.PCG64(int(seed)))


def int_range(dtype: str) -> tuple[int, int]:
    if dtype not in _INT_RANGES:
        raise BuilderError(f"no quantized range for dtype '{dtype}'; use one of "
                           f"{sorted(_INT_RANGES)}")
    return _INT_RANGES[dtype]


def range_to_scale_zp(lo: float, hi: float, dtype: str = "int8") -> tuple[float, int]:
    """Parameters the converter gives an activation observed over [lo, hi].

    int8/uint8: asymmetric, the range widened to contain 0 (zero must be exactly
    representable for padding and ReLU). int16/int32: symmetric, zero point 0 and
    scale max(|lo|, |hi|) / qmax, as the converter's 16x8 mode does."""
    qmin, qmax = int_range(dtype)
    if dtype in SYMMETRIC_ACTIVATION_DTYPES:
        return symmetric_scale(max(abs(float(lo)), abs(float(hi))), dtype), 0
    lo, hi = min(float(lo), 0.0), max(float(hi), 0.0)
    if hi - lo <= 0.0:
        hi = lo + 1e-6
    scale = (hi - lo) / (qmax - qmin)
    zero_point = int(np.clip(round_half_away(qmin - lo / scale), qmin, qmax))
    return float(np.float32(scale)), zero_point


def symmetric_scale(max_abs: float, dtype: str = "int8") -> float:
    """Scale for symmetric (zero point 0) data whose magnitude reaches max_abs."""
    _, qmax = int_range(dtype)
    return float(np.float32(max(float(max_abs), 1e-8) / qmax))


def quantize(x: np.ndarray, scale: float | np.ndarray, zero_point: int | np.ndarray,
             dtype: str = "int8") -> np.ndarray:
    qmin, qmax = int_range(dtype)
    q = round_half_away(np.asarray(x, dtype=np.float64) / scale) + zero_point
    return np.clip(q, qmin, qmax).astype(np.dtype(dtype))


def dequantize(q: np.ndarray, scale: float | np.ndarray,
               zero_point: int | np.ndarray) -> np.ndarray:
    return (np.asarray(q, dtype=np.float64) - zero_point) * scale


def quantize_per_channel(w: np.ndarray, axis: int,
                         dtype: str = "int8") -> tuple[np.ndarray, list[float]]:
    """Symmetric per-channel weights (zero point 0) along `axis`, as the converter
    does for CONV_2D (axis 0) and DEPTHWISE_CONV_2D (axis 3)."""
    w = np.asarray(w, dtype=np.float64)
    reduce_axes = tuple(a for a in range(w.ndim) if a != axis)
    max_abs = np.max(np.abs(w), axis=reduce_axes)
    scales = np.array([symmetric_scale(m, dtype) for m in max_abs], dtype=np.float32)
    shape = [1] * w.ndim
    shape[axis] = -1
    q = quantize(w, scales.astype(np.float64).reshape(shape), 0, dtype)
    return q, [float(s) for s in scales]


def quantize_per_tensor_symmetric(w: np.ndarray, dtype: str = "int8") -> tuple[np.ndarray, float]:
    scale = symmetric_scale(np.max(np.abs(w)), dtype)
    return quantize(w, scale, 0, dtype), scale


def quantize_bias(b: np.ndarray, input_scale: float,
                  weight_scales: float | Sequence[float],
                  dtype: str = "int32") -> tuple[np.ndarray, list[float]]:
    """Bias with scale input_scale * weight_scale (per channel when the weights are),
    zero point 0: int32 for int8 activations; int64 (the converter's default) or int32
    for int16 activations."""
    if dtype not in ("int32", "int64"):
        raise BuilderError(f"bias dtype '{dtype}' is not int32 or int64")
    ws = np.atleast_1d(np.asarray(weight_scales, dtype=np.float64))
    scales = (np.float64(input_scale) * ws).astype(np.float32)
    if scales.size == 1:
        scales = np.full(np.asarray(b).shape[-1], scales[0], dtype=np.float32)
    q = round_half_away(np.asarray(b, dtype=np.float64) / scales.astype(np.float64))
    # Symmetric: the most negative code is left out, as the converter does.
    limit = 2**31 - 1 if dtype == "int32" else 2**63 - 1
    q = np.clip(q, -limit, limit).astype(np.dtype(dtype))
    return q, [float(s) for s in scales]


def random_weights(generator: np.random.Generator, shape: Sequence[int],
                   fan_in: int) -> np.ndarray:
    """He-style normal weights: keeps activations of a deep random net in a sane range."""
    return generator.normal(0.0, np.sqrt(2.0 / max(fan_in, 1)), size=tuple(shape))

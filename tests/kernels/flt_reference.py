# SPDX-License-Identifier: Apache-2.0
"""Plain NumPy float references for the float kernels, written as the math reads.

Every function takes `dtype`: np.float64 for the exact answer, np.float32 for what float32 arithmetic
in the obvious order gives. Tensors are NHWC; tiles are (w, h) as in cmsis_nn_tile; padding is the
leading padding and positions outside the input count as absent (zero for sums).
"""

from __future__ import annotations

import math

import numpy as np


def clamp(x: np.ndarray, lo: float, hi: float) -> np.ndarray:
    return np.minimum(np.maximum(x, lo), hi)


def conv2d(x, w, b, stride, padding, dilation, out_hw, dtype=np.float64) -> np.ndarray:
    """out[n, y, x, o] = b[o] + sum_{ky, kx, c} in[n, y*sh - ph + ky*dh, x*sw - pw + kx*dw, c] * w[o, ky, kx, c]."""
    x, w = np.asarray(x, dtype), np.asarray(w, dtype)
    n, in_h, in_w, _ = x.shape
    oc, kh, kw, _ = w.shape
    out = np.zeros((n, *out_hw, oc), dtype)
    for oy in range(out_hw[0]):
        for ox in range(out_hw[1]):
            for ky in range(kh):
                for kx in range(kw):
                    iy = oy * stride[1] - padding[1] + ky * dilation[1]
                    ix = ox * stride[0] - padding[0] + kx * dilation[0]
                    if 0 <= iy < in_h and 0 <= ix < in_w:
                        out[:, oy, ox, :] += x[:, iy, ix, :] @ w[:, ky, kx, :].T
    return out + (0 if b is None else np.asarray(b, dtype))


def depthwise_conv2d(x, w, b, ch_mult, stride, padding, dilation, out_hw, dtype=np.float64) -> np.ndarray:
    """out[n, y, x, i*m + j] = b + sum_{ky, kx} in[n, ..., i] * w[ky, kx, i*m + j]; w is [kh, kw, out_c]."""
    x, w = np.asarray(x, dtype), np.asarray(w, dtype)
    n, in_h, in_w, in_c = x.shape
    kh, kw, oc = w.shape
    out = np.zeros((n, *out_hw, oc), dtype)
    source = np.repeat(np.arange(in_c), ch_mult)  # the input channel of each output channel
    for oy in range(out_hw[0]):
        for ox in range(out_hw[1]):
            for ky in range(kh):
                for kx in range(kw):
                    iy = oy * stride[1] - padding[1] + ky * dilation[1]
                    ix = ox * stride[0] - padding[0] + kx * dilation[0]
                    if 0 <= iy < in_h and 0 <= ix < in_w:
                        out[:, oy, ox, :] += x[:, iy, ix, source] * w[ky, kx, :]
    return out + (0 if b is None else np.asarray(b, dtype))


def fully_connected(x, w, b, dtype=np.float64) -> np.ndarray:
    """out[b, o] = bias[o] + sum_k in[b, k] * w[o, k]."""
    out = np.asarray(x, dtype) @ np.asarray(w, dtype).T
    return out + (0 if b is None else np.asarray(b, dtype))


def transpose_conv2d(x, w, b, stride, padding, dilation, out_hw, dtype=np.float64) -> np.ndarray:
    """Each input pixel (y, x) adds in[n, y, x, :] . w[o, ky, kx, :] to output (y*sh - ph + ky*dh, x*sw - pw + kx*dw)."""
    x, w = np.asarray(x, dtype), np.asarray(w, dtype)
    n, in_h, in_w, _ = x.shape
    oc, kh, kw, _ = w.shape
    out = np.zeros((n, *out_hw, oc), dtype)
    for iy in range(in_h):
        for ix in range(in_w):
            for ky in range(kh):
                for kx in range(kw):
                    oy = iy * stride[1] - padding[1] + ky * dilation[1]
                    ox = ix * stride[0] - padding[0] + kx * dilation[0]
                    if 0 <= oy < out_hw[0] and 0 <= ox < out_hw[1]:
                        out[:, oy, ox, :] += x[:, iy, ix, :] @ w[:, ky, kx, :].T
    return out + (0 if b is None else np.asarray(b, dtype))


def pool2d(x, kernel_hw, stride, padding, out_hw, kind: str, dtype=np.float64) -> np.ndarray:
    """Mean (over the window positions inside the input) or max of each window."""
    x = np.asarray(x, dtype)
    n, in_h, in_w, c = x.shape
    out = np.zeros((n, *out_hw, c), dtype)
    for oy in range(out_hw[0]):
        for ox in range(out_hw[1]):
            y0, x0 = oy * stride[1] - padding[1], ox * stride[0] - padding[0]
            window = x[:, max(y0, 0):min(y0 + kernel_hw[0], in_h), max(x0, 0):min(x0 + kernel_hw[1], in_w), :]
            out[:, oy, ox, :] = window.mean(axis=(1, 2)) if kind == "avg" else window.max(axis=(1, 2))
    return out


def softmax(x, dtype=np.float64) -> np.ndarray:
    """Row-wise exp(x - max) / sum(exp(x - max)) (beta 1)."""
    x = np.asarray(x, dtype)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def sigmoid(x, dtype=np.float64) -> np.ndarray:
    x = np.asarray(x, dtype)
    return 1 / (1 + np.exp(-x))


def hard_swish(x, dtype=np.float64) -> np.ndarray:
    """TFLite's x * relu6(x + 3) / 6."""
    x = np.asarray(x, dtype)
    return x * np.minimum(np.maximum(x + 3, 0), 6) / 6


def leaky_relu(x, alpha: float, dtype=np.float64) -> np.ndarray:
    x = np.asarray(x, dtype)
    return np.where(x >= 0, x, alpha * x)


def pad(x, pre, post, value: float) -> np.ndarray:
    return np.pad(np.asarray(x), list(zip(pre, post)), constant_values=value)


def strided_slice(x, begin, stride, out_dims) -> np.ndarray:
    index = tuple(np.asarray([b + i * s for i in range(o)]) for b, s, o in zip(begin, stride, out_dims))
    return np.asarray(x)[np.ix_(*index)]


def reduce_sum(x, axis_flags, dtype=np.float64) -> np.ndarray:
    axes = tuple(i for i, flag in enumerate(axis_flags) if flag)
    return np.asarray(x, dtype).sum(axis=axes, keepdims=True)


def sum_tolerance(terms: np.ndarray, eps: float, count: int) -> np.ndarray:
    """A bound on the rounding error of a float sum of `count` terms: count * eps * sum |term|."""
    return (count + 2) * eps * terms + 1e-30


def exp_tolerance_f32() -> float:
    """ns-cmsis-nn's table exp: linear interpolation of 2^f over 1/256 steps, relative error ln(2)^2 / (8 * 256^2)."""
    return math.log(2) ** 2 / (8 * 256 ** 2) + 4 * float(np.finfo(np.float32).eps)

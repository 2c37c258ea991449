# SPDX-License-Identifier: Apache-2.0
"""Seeded random but realistic float32 / float16 kernel calls (TFLite-style shapes) for tests and parity.

Shapes cover every route ns-cmsis-nn's float kernels take (1x1, 1 x N, 1x3 / 1x5 rows, packed
windows, per-position sums; depthwise 1x3 rows, 2x5, 3x3, ch_mult 1, general), with non-square
kernels, asymmetric SAME padding, strides and dilations that differ between H and W, batches above
one and odd channel counts.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

import flt_records as F

T_NAMES = ("f32", "f16")


# ---- values -------------------------------------------------------------------------------------------

def values(rng: np.random.Generator, t: str, size, scale: float = 1.0) -> np.ndarray:
    """Normal values with the given spread, rounded to the type (float16 tensors hold float16 values)."""
    return (rng.standard_normal(size) * scale).astype(F.DTYPES[t])


def maybe_bias(rng: np.random.Generator, t: str, count: int) -> np.ndarray | None:
    return None if rng.random() < 0.2 else values(rng, t, count, 0.5)


def act(rng: np.random.Generator, t: str, spread: float = 3.0) -> tuple[float, float]:
    """Mostly unbounded (as infinities or the type's finite extremes), else RELU-like or a random window."""
    roll = rng.random()
    if roll < 0.3:
        return -math.inf, math.inf
    if roll < 0.5:
        return F.unbounded(t)
    if roll < 0.7:
        return 0.0, (6.0 if rng.random() < 0.5 else math.inf)
    lo = float(rng.uniform(-spread, 0.2 * spread))
    hi = float(rng.uniform(lo + 0.1, lo + 2 * spread))
    return float(F.DTYPES[t](lo)), float(F.DTYPES[t](hi))


def same_or_valid(rng: np.random.Generator, in_size: int, kernel: int, stride: int, dilation: int) -> tuple[int, int]:
    """TFLite's output size and leading padding for SAME or VALID (SAME pads the extra row at the end)."""
    effective = (kernel - 1) * dilation + 1
    if in_size >= effective and rng.random() < 0.4:
        return (in_size - effective) // stride + 1, 0
    out = (in_size + stride - 1) // stride
    return out, max((out - 1) * stride + effective - in_size, 0) // 2


# ---- CONV_2D --------------------------------------------------------------------------------------------

CONV_KINDS = ("1x1", "1xn", "row", "patch", "direct", "general")


def conv_call(rng: np.random.Generator, t: str, kind: str) -> F.Conv:
    batch = int(rng.integers(1, 4))
    dilation = (1, 1)
    if kind == "1x1":
        in_h, in_w, in_c = (int(v) for v in rng.integers(1, 7, 3))
        stride = (1, 1) if rng.random() < 0.5 else (int(rng.integers(1, 3)), int(rng.integers(1, 4)))
        kh = kw = 1
        padding = (0, 0)
        out_h, out_w = (in_h - 1) // stride[1] + 1, (in_w - 1) // stride[0] + 1
        in_c = int(rng.integers(1, 24))
    elif kind in ("1xn", "row"):
        in_h = kh = 1
        if kind == "row":
            batch, kw, stride, in_w = 1, int(rng.choice([3, 5])), (1, 1), int(rng.integers(5, 14))
            padding, out_w = (0, 0), in_w - kw + 1
        else:
            kw = int(rng.integers(2, 8))
            stride = (int(rng.integers(1, 4)), 1)
            in_w = int(rng.integers(kw, kw + 12))
            out_w, pad_w = same_or_valid(rng, in_w, kw, stride[0], 1)
            padding = (pad_w, 0)
        out_h = 1
        in_c = int(rng.integers(1, 12))
    elif kind == "patch":
        kh, kw = int(rng.integers(2, 4)), int(rng.integers(2, 5))
        in_c = int(rng.integers(max(1, math.ceil(16 / (kh * kw))), 6))
        stride = (int(rng.integers(1, 3)), int(rng.integers(1, 3)))
        in_h, in_w = int(rng.integers(5, 9)), int(rng.integers(5, 9))
        out_h, pad_h = same_or_valid(rng, in_h, kh, stride[1], 1)
        out_w, pad_w = same_or_valid(rng, in_w, kw, stride[0], 1)
        padding = (pad_w, pad_h)
    else:  # direct (small windows or few channels) and general
        kh, kw = int(rng.integers(1, 5)), int(rng.integers(1, 5))
        stride = (int(rng.integers(1, 3)), int(rng.integers(1, 4)))
        dilation = (1, 1) if kind == "direct" or rng.random() < 0.5 else (int(rng.integers(1, 3)),
                                                                          int(rng.integers(1, 3)))
        in_c = int(rng.integers(1, 4 if kind == "direct" else 8))
        in_h = int(rng.integers((kh - 1) * dilation[1] + 1, 9))
        in_w = int(rng.integers((kw - 1) * dilation[0] + 1, 9))
        out_h, pad_h = same_or_valid(rng, in_h, kh, stride[1], dilation[1])
        out_w, pad_w = same_or_valid(rng, in_w, kw, stride[0], dilation[0])
        padding = (pad_w, pad_h)
    out_c = int(rng.integers(8, 13)) if kind == "patch" else int(rng.integers(1, 11))
    fan_in = kh * kw * in_c
    return F.Conv(t=t, input_dims=(batch, in_h, in_w, in_c), filter_dims=(out_c, kh, kw, in_c),
                  output_dims=(batch, out_h, out_w, out_c), input=values(rng, t, batch * in_h * in_w * in_c),
                  filter=values(rng, t, out_c * fan_in, 1.0 / math.sqrt(fan_in)), bias=maybe_bias(rng, t, out_c),
                  stride=stride, padding=padding, dilation=dilation, act=act(rng, t))


def _conv_entry(entry: str) -> Callable[[np.random.Generator, str], str]:
    def generate(rng: np.random.Generator, t: str) -> str:
        name = f"arm_{entry}_{t}"
        if entry.startswith("convolve_1x1"):
            call = conv_call(rng, t, "1x1")
            if rng.random() < 0.1:
                call.padding = (1, 0)  # an argument error in both libraries
        elif entry.startswith("convolve_1_x_n"):
            call = conv_call(rng, t, "row" if rng.random() < 0.3 else "1xn")
            if rng.random() < 0.1:
                call.dilation = (2, 1)  # not a 1 x N shape: an argument error
        else:
            call = conv_call(rng, t, str(rng.choice(CONV_KINDS)))
        if entry in ("convolve", "convolve_1x1", "convolve_1_x_n") and rng.random() < 0.1:
            call.layout = 1  # no such layout: an argument error
        return call.conv_record(name)
    return generate


def _conv_sizer(entry: str) -> Callable[[np.random.Generator, str], str]:
    def generate(rng: np.random.Generator, t: str) -> str:
        call = conv_call(rng, t, str(rng.choice(CONV_KINDS)))
        roll = rng.random()
        if roll < 0.05:
            call.input_dims = (*call.input_dims[:3], 0)  # empty: size 0
        elif roll < 0.1 and entry != "convolve_wrapper":
            call.layout = 1
        return call.conv_sizer_record(f"arm_{entry}_{t}_get_buffer_size")
    return generate


# ---- DEPTHWISE_CONV_2D -----------------------------------------------------------------------------------

DW_KINDS = ("row3", "2x5", "3x3", "chmult1", "general")


def depthwise_call(rng: np.random.Generator, t: str, kind: str) -> F.Conv:
    batch = int(rng.integers(1, 4))
    ch_mult = 1
    dilation = (1, 1)
    in_c = int(rng.integers(1, 10))
    if kind == "row3":
        batch, kh, kw, in_h, stride = 1, 1, 3, 1, (1, 1)
        in_w = int(rng.integers(3, 14))
        out_h, out_w, padding = 1, in_w - 2, (0, 0)
    elif kind == "2x5":
        ch_mult = int(rng.integers(1, 4))
        kh, kw, in_h, stride = 2, 5, 2, (1, 1)
        in_w = int(rng.integers(5, 14))
        out_h, out_w, padding = 1, in_w - 4, (0, 0)
    else:
        if kind == "3x3":
            kh = kw = 3
        else:
            kh, kw = int(rng.integers(1, 6)), int(rng.integers(1, 6))
        if kind == "general":
            ch_mult = int(rng.integers(1, 4))
            if ch_mult == 1 or rng.random() < 0.5:
                dilation = (int(rng.integers(1, 3)), int(rng.integers(1, 4)))
        stride = (int(rng.integers(1, 3)), int(rng.integers(1, 3)))
        in_h = int(rng.integers((kh - 1) * dilation[1] + 1, (kh - 1) * dilation[1] + 8))
        in_w = int(rng.integers((kw - 1) * dilation[0] + 1, (kw - 1) * dilation[0] + 8))
        out_h, pad_h = same_or_valid(rng, in_h, kh, stride[1], dilation[1])
        out_w, pad_w = same_or_valid(rng, in_w, kw, stride[0], dilation[0])
        padding = (pad_w, pad_h)
    out_c = in_c * ch_mult
    return F.Conv(t=t, input_dims=(batch, in_h, in_w, in_c), filter_dims=(1, kh, kw, out_c),
                  output_dims=(batch, out_h, out_w, out_c), input=values(rng, t, batch * in_h * in_w * in_c),
                  filter=values(rng, t, kh * kw * out_c, 1.0 / math.sqrt(kh * kw)), bias=maybe_bias(rng, t, out_c),
                  stride=stride, padding=padding, dilation=dilation, act=act(rng, t), ch_mult=ch_mult)


def _depthwise_entry(entry: str) -> Callable[[np.random.Generator, str], str]:
    def generate(rng: np.random.Generator, t: str) -> str:
        call = depthwise_call(rng, t, str(rng.choice(DW_KINDS)))
        if entry == "depthwise_conv" and rng.random() < 0.1:
            call.layout = 1
        return call.depthwise_record(f"arm_{entry}_{t}")
    return generate


def _depthwise_sizer(entry: str) -> Callable[[np.random.Generator, str], str]:
    def generate(rng: np.random.Generator, t: str) -> str:
        call = depthwise_call(rng, t, str(rng.choice(DW_KINDS)))
        if entry == "depthwise_conv" and rng.random() < 0.1:
            call.layout = 1
        return call.depthwise_sizer_record(f"arm_{entry}_{t}_get_buffer_size")
    return generate


# ---- FULLY_CONNECTED / TRANSPOSE_CONV ---------------------------------------------------------------------

def fc_call(rng: np.random.Generator, t: str) -> F.FullyConnected:
    batches, depth, outputs = int(rng.integers(1, 5)), int(rng.integers(1, 300)), int(rng.integers(1, 40))
    return F.FullyConnected(t=t, batches=batches, depth=depth, outputs=outputs,
                            input=values(rng, t, batches * depth), kernel=values(rng, t, outputs * depth,
                                                                                  1 / math.sqrt(depth)),
                            bias=maybe_bias(rng, t, outputs), act=act(rng, t))


def _fc_entry(entry: str) -> Callable[[np.random.Generator, str], str]:
    def generate(rng: np.random.Generator, t: str) -> str:
        call = fc_call(rng, t)
        roll = rng.random()
        if roll < 0.05:
            call.filter_n = call.depth + 1  # depth mismatch: an argument error
        elif roll < 0.1 and entry == "fully_connected":
            call.layout = 1
        return call.record(f"arm_{entry}_{t}")
    return generate


def transpose_conv_call(rng: np.random.Generator, t: str) -> F.TransposeConv:
    batch = int(rng.integers(1, 3))
    in_h, in_w, in_c = int(rng.integers(1, 6)), int(rng.integers(1, 6)), int(rng.integers(1, 6))
    kh, kw = int(rng.integers(1, 5)), int(rng.integers(1, 5))
    stride = (int(rng.integers(1, 4)), int(rng.integers(1, 4)))
    dilation = (1, 1) if rng.random() < 0.8 else (int(rng.integers(1, 3)), int(rng.integers(1, 3)))
    out_c = int(rng.integers(1, 7))

    def axis(in_size: int, k: int, s: int, d: int) -> tuple[int, int, int]:
        full = (in_size - 1) * s + (k - 1) * d + 1
        if rng.random() < 0.5:  # VALID
            return full, 0, 0
        out = in_size * s  # SAME
        total = max(full - out, 0)
        return out, total // 2, total - total // 2
    out_h, pad_h, off_h = axis(in_h, kh, stride[1], dilation[1])
    out_w, pad_w, off_w = axis(in_w, kw, stride[0], dilation[0])
    data = values(rng, t, batch * in_h * in_w * in_c)
    data[rng.random(data.shape) < 0.3] = 0  # zeros are skipped by the scatter loop
    return F.TransposeConv(t=t, input_dims=(batch, in_h, in_w, in_c), filter_dims=(out_c, kh, kw, in_c),
                           output_dims=(batch, out_h, out_w, out_c), input=data,
                           filter=values(rng, t, out_c * kh * kw * in_c, 0.5), bias=maybe_bias(rng, t, out_c),
                           stride=stride, padding=(pad_w, pad_h), padding_offsets=(off_w - pad_w, off_h - pad_h),
                           dilation=dilation, act=act(rng, t))


def ns_transpose_conv_flt_ok(call: F.TransposeConv) -> bool:
    """Whether ns-cmsis-nn 7.29.2's float transposed convolution (f32 and f16, every entry) computes this call
    as LiteRT does: exactly when it has no padding_offsets. It adds them to every output position it
    scatters to (a shift down / right), where LiteRT has no such term and the portable kernel does not read
    them (test_float_parity.py::test_ns_float_transpose_conv_sweep). A SAME geometry with an odd total
    padding has an offset of 1; the compiler passes the library none (helia_aot/ops/transpose_conv.py)."""
    return tuple(call.padding_offsets) == (0, 0)


def _transpose_conv_entry(entry: str, ns_parity: bool = False) -> Callable[[np.random.Generator, str], str]:
    def generate(rng: np.random.Generator, t: str) -> str:
        call = transpose_conv_call(rng, t)
        if ns_parity:
            # Every geometry, called as the compiler calls ns-cmsis-nn: without padding_offsets.
            call.padding_offsets = (0, 0)
        if entry != "transpose_conv_nhwc" and rng.random() < 0.1:
            call.layout = 1
        return call.record(f"arm_{entry}_{t}")
    return generate


def _transpose_conv_sizer(suffix: str) -> Callable[[np.random.Generator, str], str]:
    def generate(rng: np.random.Generator, t: str) -> str:
        return transpose_conv_call(rng, t).sizer_record(f"arm_transpose_conv_{t}{suffix}")
    return generate


# ---- pooling / softmax / activations / element-wise ------------------------------------------------------

def pool_call(rng: np.random.Generator, t: str, kind: str) -> tuple:
    batch, channels = int(rng.integers(1, 4)), int(rng.integers(1, 10))
    if kind == "max" and rng.random() < 0.3:  # ns-cmsis-nn's one-row 1x2 / 1x3 kernels
        width = int(rng.choice([2, 3]))
        out_w = int(rng.integers(1, 7))
        in_w = out_w * width + int(rng.integers(0, width))
        bounds = F.unbounded(t) if width == 3 or rng.random() < 0.5 else act(rng, t)
        return (width, 1), (0, 0), bounds, (batch, 1, in_w, channels), (1, width), (batch, 1, out_w, channels)
    kh, kw = int(rng.integers(1, 5)), int(rng.integers(1, 5))
    stride = (int(rng.integers(1, 3)), int(rng.integers(1, 4)))
    in_h, in_w = int(rng.integers(kh, 10)), int(rng.integers(kw, 10))
    out_h, pad_h = same_or_valid(rng, in_h, kh, stride[1], 1)
    out_w, pad_w = same_or_valid(rng, in_w, kw, stride[0], 1)
    return (stride, (pad_w, pad_h), act(rng, t), (batch, in_h, in_w, channels), (kh, kw),
            (batch, out_h, out_w, channels))


def _pool(kind: str) -> Callable[[np.random.Generator, str], str]:
    def generate(rng: np.random.Generator, t: str) -> str:
        stride, padding, bounds, input_dims, filter_hw, output_dims = pool_call(rng, t, kind)
        data = values(rng, t, int(np.prod(input_dims)), 2.0)
        if kind == "max" and rng.random() < 0.2:
            data[rng.random(data.shape) < 0.1] = np.nan  # where NaN is skipped or kept depends on the route
        name = f"arm_{'avg' if kind == 'avg' else 'max'}_pool_{t}"
        return F.pool_record(name, stride, padding, bounds, input_dims, filter_hw, output_dims, data)
    return generate


def softmax(rng: np.random.Generator, t: str) -> str:
    rows, cols = (1, 2) if rng.random() < 0.15 else (int(rng.integers(1, 6)), int(rng.integers(1, 40)))
    scale = float(rng.choice([0.1, 1.0, 4.0, 20.0]))  # wide logits reach ns-cmsis-nn's exp saturation
    return F.softmax_record(t, rows, cols, values(rng, t, rows * cols, scale))


ACTIVATIONS = (F.ACT_NONE, F.ACT_SIGMOID, F.ACT_TANH, F.ACT_RELU, F.ACT_RELU6, F.ACT_HARDSWISH, F.ACT_LEAKY_RELU)


def activation(rng: np.random.Generator, t: str) -> str:
    kind = int(rng.choice(ACTIVATIONS))
    data = values(rng, t, int(rng.integers(1, 200)), float(rng.choice([0.5, 3.0, 10.0])))
    if kind not in (F.ACT_SIGMOID, F.ACT_TANH) and rng.random() < 0.2:
        data[rng.random(data.shape) < 0.1] = np.nan
    alpha = float(rng.uniform(0.01, 0.5)) if kind == F.ACT_LEAKY_RELU else 0.0
    return F.activation_record(t, kind, alpha, data)


def _elementwise(op: str) -> Callable[[np.random.Generator, str], str]:
    def generate(rng: np.random.Generator, t: str) -> str:
        size = int(rng.integers(1, 200))
        a, b = values(rng, t, size, 3.0), values(rng, t, size, 3.0)
        if rng.random() < 0.2:
            a[rng.random(size) < 0.1] = np.nan
        return F.elementwise_record(f"arm_elementwise_{op}_{t}", act(rng, t), a, b)
    return generate


def ns_minmax_misreads(d1, d2) -> bool:
    """Shapes ns-cmsis-nn's MAXIMUM / MINIMUM broadcast gets wrong (it reads the wrong rows): one input
    with w = c = 1 and h > 1 against one with w = 1 and c > 1. The portable kernels follow NumPy."""
    return any(x[2] == 1 and x[3] == 1 and x[1] > 1 and y[2] == 1 and y[3] > 1 for x, y in ((d1, d2), (d2, d1)))


def broadcast_pair(rng: np.random.Generator) -> tuple[tuple, tuple, tuple]:
    while True:
        out = tuple(int(v) for v in rng.integers(1, 5, 4))
        d1 = tuple(o if rng.random() < 0.6 else 1 for o in out)
        d2 = tuple(o if rng.random() < 0.6 else 1 for o in out)
        if rng.random() < 0.2:
            d2 = d1 = out if rng.random() < 0.5 else d1
        full = tuple(max(a, b) for a, b in zip(d1, d2))
        if not ns_minmax_misreads(d1, d2):
            return d1, d2, full


def _minmax(op: str) -> Callable[[np.random.Generator, str], str]:
    def generate(rng: np.random.Generator, t: str) -> str:
        d1, d2, out = broadcast_pair(rng)
        pool = np.array([-1.0, -0.0, 0.0, 1.0, 2.5, np.nan])  # ties, signed zeros and NaN decide the order
        pick = lambda d: (rng.choice(pool, int(np.prod(d))) if rng.random() < 0.4  # noqa: E731
                          else values(rng, t, int(np.prod(d)))).astype(F.DTYPES[t])
        return F.minmax_record(f"arm_{op}_{t}", d1, d2, out, pick(d1), pick(d2))
    return generate


# ---- data movement and SUM --------------------------------------------------------------------------------

def pad(rng: np.random.Generator, t: str) -> str:
    dims = tuple(int(v) for v in rng.integers(1, 5, 4))
    pre = tuple(int(v) for v in rng.integers(0, 3, 4))
    post = tuple(int(v) for v in rng.integers(0, 3, 4))
    return F.pad_record(t, float(values(rng, t, 1)[0]), dims, pre, post, values(rng, t, int(np.prod(dims))))


def strided_slice(rng: np.random.Generator, t: str) -> str:
    dims = tuple(int(v) for v in rng.integers(1, 7, 4))
    begin, stride, out = [], [], []
    for size in dims:
        s = int(rng.choice([1, 1, 2, 3, -1, -2]))
        b = int(rng.integers(0, size))
        room = (size - b) if s > 0 else (b + 1)  # indices b, b + s, ... stay inside [0, size)
        begin.append(b)
        stride.append(s)
        out.append(int(rng.integers(1, (room - 1) // abs(s) + 2)))
    return F.strided_slice_record(t, dims, begin, stride, out, values(rng, t, int(np.prod(dims))))


def transpose(rng: np.random.Generator, t: str) -> str:
    num_dims = int(rng.integers(1, 5))
    shape = [int(v) for v in rng.integers(1, 6, num_dims)]
    perm = [int(p) for p in rng.permutation(num_dims)]
    out = [shape[p] for p in perm]
    pad4 = lambda s: tuple(s) + (1,) * (4 - len(s))  # noqa: E731
    layout = 1 if rng.random() < 0.05 else F.LAYOUT_NHWC
    return F.transpose_record(t, num_dims, perm, pad4(shape), pad4(out), values(rng, t, int(np.prod(shape))), layout)


def reduce_sum(rng: np.random.Generator, t: str) -> str:
    dims = tuple(int(v) for v in rng.integers(1, 7, 4))
    axis = tuple(int(rng.random() < 0.5) for _ in range(4))
    out = tuple(1 if a else d for d, a in zip(dims, axis))
    return F.reduce_sum_record(t, dims, axis, out, values(rng, t, int(np.prod(dims)), 2.0))


# ---- the generator table: function name -> generate(rng) -------------------------------------------------

def _entries() -> dict[str, Callable[[np.random.Generator, str], str]]:
    table: dict[str, Callable[[np.random.Generator, str], str]] = {}
    for entry in ("convolve_wrapper", "convolve", "convolve_nhwc", "convolve_1x1", "convolve_1x1_nhwc",
                  "convolve_1_x_n", "convolve_1_x_n_nhwc"):
        table[f"arm_{entry}"] = _conv_entry(entry)
    for entry in ("convolve_wrapper", "convolve", "convolve_1x1", "convolve_1_x_n"):
        table[f"arm_{entry}@_get_buffer_size"] = _conv_sizer(entry)
    for entry in ("depthwise_conv_wrapper", "depthwise_conv", "depthwise_nhwc_conv"):
        table[f"arm_{entry}"] = _depthwise_entry(entry)
    for entry in ("depthwise_conv_wrapper", "depthwise_conv"):
        table[f"arm_{entry}@_get_buffer_size"] = _depthwise_sizer(entry)
    for entry in ("fully_connected", "fully_connected_nhwc"):
        table[f"arm_{entry}"] = _fc_entry(entry)
    table["arm_fully_connected@_get_buffer_size"] = lambda rng, t: fc_call(rng, t).sizer_record(
        f"arm_fully_connected_{t}_get_buffer_size")
    for entry in ("transpose_conv_wrapper", "transpose_conv", "transpose_conv_nhwc"):
        table[f"arm_{entry}"] = _transpose_conv_entry(entry)
    table["arm_transpose_conv@_get_buffer_size"] = _transpose_conv_sizer("_get_buffer_size")
    table["arm_transpose_conv@_get_reverse_conv_buffer_size"] = _transpose_conv_sizer(
        "_get_reverse_conv_buffer_size")
    table["arm_avg_pool"] = _pool("avg")
    table["arm_max_pool"] = _pool("max")
    table["arm_softmax"] = softmax
    table["arm_nn_activation"] = activation
    for op in ("add", "sub", "mul"):
        table[f"arm_elementwise_{op}"] = _elementwise(op)
    table["arm_maximum"] = _minmax("maximum")
    table["arm_minimum"] = _minmax("minimum")
    table["arm_pad"] = pad
    table["arm_strided_slice"] = strided_slice
    table["arm_transpose"] = transpose
    table["arm_reduce_sum"] = reduce_sum
    return table


def _full_name(key: str, t: str) -> str:
    base, _, tail = key.partition("@")
    return f"{base}_{t}{tail}"


GENERATORS: dict[str, Callable[[np.random.Generator], str]] = {
    _full_name(key, t): (lambda gen, t: lambda rng: gen(rng, t))(gen, t)
    for key, gen in _entries().items() for t in T_NAMES
}


# Records for the parity with ns-cmsis-nn where they must keep to the calls it computes right.
NS_PARITY_GENERATORS: dict[str, Callable[[np.random.Generator], str]] = {
    f"arm_{entry}_{t}": (lambda gen, t: lambda rng: gen(rng, t))(_transpose_conv_entry(entry, ns_parity=True), t)
    for entry in ("transpose_conv_wrapper", "transpose_conv", "transpose_conv_nhwc") for t in T_NAMES
}


def generate(name: str, seed: int, count: int, ns_parity: bool = False) -> list[str]:
    """count records for `name`; ns_parity keeps them to the calls ns-cmsis-nn computes right."""
    rng = np.random.default_rng(seed)
    generator = NS_PARITY_GENERATORS.get(name, GENERATORS[name]) if ns_parity else GENERATORS[name]
    records = [generator(rng) for _ in range(count)]
    assert all(r.split(" ", 1)[0] == name for r in records), name
    return records

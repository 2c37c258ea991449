# SPDX-License-Identifier: Apache-2.0
"""Seeded random but realistic kernel calls (TFLite-style shapes and quantization) for tests and parity."""

from __future__ import annotations

import dataclasses
import math
from typing import Callable

import numpy as np

import records as R
from records import ConvCall, FcCall


# ---- quantization helpers (TFLite QuantizeMultiplier) ------------------------------------------

def quantize_multiplier(real: float) -> tuple[int, int]:
    """real = m * 2^shift / 2^31 with m in [2^30, 2^31)."""
    if real == 0.0:
        return 0, 0
    fraction, exponent = math.frexp(real)
    q = round(fraction * (1 << 31))
    if q == 1 << 31:
        q //= 2
        exponent += 1
    if exponent < -31:
        return 0, 0
    return q, exponent


def rand_i8(rng: np.random.Generator, size) -> np.ndarray:
    return rng.integers(-128, 128, size=size, dtype=np.int64)


def rand_act(rng: np.random.Generator) -> tuple[int, int]:
    if rng.random() < 0.6:
        return -128, 127
    lo = int(rng.integers(-128, 60))
    return lo, int(rng.integers(lo, 128))


def out_size(in_size: int, kernel: int, stride: int, dilation: int, same: bool) -> tuple[int, int]:
    """TFLite output size and leading padding for SAME / VALID."""
    effective = (kernel - 1) * dilation + 1
    if same:
        out = (in_size + stride - 1) // stride
        pad = max((out - 1) * stride + effective - in_size, 0) // 2
        return out, pad
    return (in_size - effective) // stride + 1, 0


def per_channel_quant(rng: np.random.Generator, channels: int, accumulation: int) -> tuple[np.ndarray, np.ndarray]:
    """Multipliers in [2^30, 2^31) and shifts that bring a typical accumulator to about +-64."""
    typical = math.sqrt(max(accumulation, 1)) * 75 * 75
    base_shift = -max(0, int(round(math.log2(typical / 64))))
    mult = rng.integers(1 << 30, (1 << 31) - 1, size=channels, dtype=np.int64)
    shift = base_shift + rng.integers(-1, 2, size=channels, dtype=np.int64)
    return mult, np.minimum(shift, 0)


# ---- CONV_2D ------------------------------------------------------------------------------------

def conv_call(rng, *, batches=None, in_hw=None, in_ch=None, groups=1, out_ch=None, kernel_hw=None, stride=None,
              dilation=None, same=None, upscale=(0, 0)) -> ConvCall:
    n = batches or int(rng.integers(1, 3))
    ih, iw = in_hw or (int(rng.integers(1, 9)), int(rng.integers(1, 9)))
    ic = in_ch or int(rng.integers(1, 9)) * groups
    oc = out_ch or int(rng.integers(1, 7)) * groups
    kh, kw = kernel_hw or (int(rng.integers(1, 4)), int(rng.integers(1, 4)))
    sw, sh = stride or (int(rng.integers(1, 4)), int(rng.integers(1, 4)))
    dw, dh = dilation or ((1, 1) if rng.random() < 0.7 else (int(rng.integers(1, 3)), int(rng.integers(1, 3))))
    same = bool(rng.random() < 0.5) if same is None else same
    grid_h = ih * (2 if upscale[0] == 2 else 1)
    grid_w = iw * (2 if upscale[1] == 2 else 1)
    oh, ph = out_size(grid_h, kh, sh, dh, same)
    ow, pw = out_size(grid_w, kw, sw, dw, same)
    if oh < 1 or ow < 1:  # kernel larger than the input under VALID: use SAME instead
        oh, ph = out_size(grid_h, kh, sh, dh, True)
        ow, pw = out_size(grid_w, kw, sw, dw, True)
    kc = ic // groups
    # ns-cmsis-nn v7.29.2 advances a NULL bias pointer per group and then reads it, so grouped
    # calls always get a bias here (the portable kernels accept NULL; see test_convolution.py).
    has_bias = groups > 1 or rng.random() < 0.85
    bias = rng.integers(-5000, 5000, size=oc, dtype=np.int64) if has_bias else None
    mult, shift = per_channel_quant(rng, oc, kh * kw * kc)
    return ConvCall(
        input_offset=int(rng.integers(-127, 129)), output_offset=int(rng.integers(-128, 128)),
        stride=(sw, sh), padding=(pw, ph), dilation=(dw, dh), act=rand_act(rng),
        input_dims=(n, grid_h, grid_w, ic), filter_dims=(oc, kh, kw, kc), output_dims=(n, oh, ow, oc),
        input=rand_i8(rng, n * ih * iw * ic), filter=rand_i8(rng, oc * kh * kw * kc), bias=bias,
        mult=mult, shift=shift, upscale=upscale)


def conv_1x1_call(rng, stride_1: bool) -> ConvCall:
    stride = (1, 1) if stride_1 else (int(rng.integers(1, 4)), int(rng.integers(1, 4)))
    return conv_call(rng, kernel_hw=(1, 1), stride=stride, dilation=(1, 1), same=False)


def conv_1_x_n_call(rng) -> ConvCall:
    ic = int(rng.choice([2, 4, 8]))
    sw = int(rng.choice([s for s in (1, 2, 3, 4) if (s * ic) % 4 == 0]))
    return conv_call(rng, in_hw=(1, int(rng.integers(1, 13))), in_ch=ic, kernel_hw=(1, int(rng.integers(1, 6))),
                     stride=(sw, 1), dilation=(1, 1))


def conv_any_call(rng) -> ConvCall:
    kind = int(rng.integers(0, 5))
    if kind == 0:
        return conv_1x1_call(rng, True)
    if kind == 1:
        return conv_1x1_call(rng, False)
    if kind == 2:
        return conv_1_x_n_call(rng)
    if kind == 3:
        return conv_call(rng, groups=int(rng.integers(2, 4)))
    return conv_call(rng)


CONV_SIZERS = [
    "arm_convolve_s8_get_buffer_size", "arm_convolve_s8_get_buffer_size_mve",
    "arm_convolve_1x1_s8_fast_get_buffer_size", "arm_convolve_1_x_n_s8_get_buffer_size",
    "arm_convolve_wrapper_s8_get_buffer_size", "arm_convolve_wrapper_s8_get_buffer_size_mve",
    "arm_convolve_wrapper_s8_get_buffer_size_dsp", "arm_convolve_s8_get_weights_sum_size",
]


# ---- DEPTHWISE_CONV_2D -----------------------------------------------------------------------------

def depthwise_call(rng, *, ch_mult=None, batches=None, kernel_hw=None, stride=None, dilation=None, same=None,
                   in_ch=None) -> ConvCall:
    m = ch_mult or int(rng.choice([1, 1, 2, 3, 4, 8]))
    n = batches or int(rng.integers(1, 3))
    ih, iw = int(rng.integers(1, 10)), int(rng.integers(1, 10))
    ic = in_ch or int(rng.integers(1, 11))
    kh, kw = kernel_hw or (int(rng.integers(1, 5)), int(rng.integers(1, 5)))
    sw, sh = stride or (int(rng.integers(1, 3)), int(rng.integers(1, 3)))
    dw, dh = dilation or ((1, 1) if rng.random() < 0.7 else (int(rng.integers(1, 3)), int(rng.integers(1, 3))))
    same = bool(rng.random() < 0.5) if same is None else same
    oh, ph = out_size(ih, kh, sh, dh, same)
    ow, pw = out_size(iw, kw, sw, dw, same)
    if oh < 1 or ow < 1:
        oh, ph = out_size(ih, kh, sh, dh, True)
        ow, pw = out_size(iw, kw, sw, dw, True)
    oc = ic * m
    bias = rng.integers(-5000, 5000, size=oc, dtype=np.int64) if rng.random() < 0.85 else None
    mult, shift = per_channel_quant(rng, oc, kh * kw)
    return ConvCall(
        input_offset=int(rng.integers(-127, 129)), output_offset=int(rng.integers(-128, 128)),
        stride=(sw, sh), padding=(pw, ph), dilation=(dw, dh), act=rand_act(rng),
        input_dims=(n, ih, iw, ic), filter_dims=(1, kh, kw, oc), output_dims=(n, oh, ow, oc),
        input=rand_i8(rng, n * ih * iw * ic), filter=rand_i8(rng, kh * kw * oc), bias=bias,
        mult=mult, shift=shift, ch_mult=m)


def depthwise_3x3_call(rng) -> ConvCall:
    return depthwise_call(rng, ch_mult=1, batches=1, kernel_hw=(3, 3), dilation=(1, 1),
                          stride=(int(rng.integers(1, 3)), int(rng.integers(1, 3))))


def depthwise_any_call(rng) -> ConvCall:
    kind = int(rng.integers(0, 3))
    if kind == 0:
        return depthwise_3x3_call(rng)
    if kind == 1:
        return depthwise_call(rng, ch_mult=1, batches=1, dilation=(1, 1))
    return depthwise_call(rng)


DEPTHWISE_SIZERS = [
    "arm_depthwise_conv_s8_opt_get_buffer_size", "arm_depthwise_conv_wrapper_s8_get_buffer_size",
    "arm_depthwise_conv_wrapper_s8_get_buffer_size_mve", "arm_depthwise_conv_wrapper_s8_get_buffer_size_dsp",
]


# ---- FULLY_CONNECTED ---------------------------------------------------------------------------------

def fc_call(rng, per_channel: bool) -> FcCall:
    batches, depth, outputs = int(rng.integers(1, 4)), int(rng.integers(1, 60)), int(rng.integers(1, 25))
    filter_offset = 0 if rng.random() < 0.7 else int(rng.integers(-10, 11))
    mult, shift = per_channel_quant(rng, outputs if per_channel else 1, depth)
    return FcCall(
        input_offset=int(rng.integers(-127, 129)), filter_offset=filter_offset,
        output_offset=int(rng.integers(-128, 128)), act=rand_act(rng), batches=batches, depth=depth,
        outputs=outputs, input=rand_i8(rng, batches * depth), filter=rand_i8(rng, outputs * depth),
        bias=rng.integers(-20000, 20000, size=outputs, dtype=np.int64) if rng.random() < 0.85 else None,
        mult=mult, shift=shift, per_channel=per_channel)


# ---- Pooling ------------------------------------------------------------------------------------------

def pool_args(rng) -> dict:
    n, ih, iw, c = int(rng.integers(1, 3)), int(rng.integers(1, 9)), int(rng.integers(1, 9)), int(rng.integers(1, 21))
    fh, fw = int(rng.integers(1, 5)), int(rng.integers(1, 5))
    sw, sh = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    same = bool(rng.random() < 0.5)
    oh, ph = out_size(ih, fh, sh, 1, same)
    ow, pw = out_size(iw, fw, sw, 1, same)
    if oh < 1 or ow < 1:
        oh, ph = out_size(ih, fh, sh, 1, True)
        ow, pw = out_size(iw, fw, sw, 1, True)
    return dict(stride=(sw, sh), padding=(pw, ph), act=rand_act(rng), input_dims=(n, ih, iw, c),
                filter_hw=(fh, fw), output_dims=(n, oh, ow, c), data=rand_i8(rng, n * ih * iw * c))


# ---- SOFTMAX --------------------------------------------------------------------------------------------

def softmax_params(input_scale: float, beta: float = 1.0) -> tuple[int, int, int]:
    """TFLite's PreprocessSoftmaxScaling / CalculateInputRadius for 5 integer bits."""
    real = min(beta * input_scale * (1 << (31 - 5)), (1 << 31) - 1.0)
    mult, shift = quantize_multiplier(real)
    radius = math.floor(((1 << 5) - 1) * (1 << (31 - 5)) / (1 << shift))
    return mult, shift, -radius


def softmax_args(rng) -> dict:
    rows, row_size = int(rng.integers(1, 5)), int(rng.integers(1, 41))
    mult, shift, diff_min = softmax_params(float(rng.uniform(1 / 256, 1 / 4)))
    return dict(rows=rows, row_size=row_size, mult=mult, shift=shift, diff_min=diff_min,
                data=rand_i8(rng, rows * row_size))


# ---- ADD / SUB / MUL -------------------------------------------------------------------------------------

def add_sub_quant(rng) -> list[int]:
    """TFLite's ADD/SUB preparation: both inputs onto twice the larger scale with 20 bits of headroom."""
    s1, s2 = float(rng.uniform(0.005, 0.2)), float(rng.uniform(0.005, 0.2))
    so = max(s1, s2) * float(rng.uniform(0.7, 3.0))  # keeps most sums inside the int8 range
    left_shift = 20
    twice_max = 2 * max(s1, s2)
    m1, sh1 = quantize_multiplier(s1 / twice_max)
    m2, sh2 = quantize_multiplier(s2 / twice_max)
    mo, sho = quantize_multiplier(twice_max / ((1 << left_shift) * so))
    lo, hi = rand_act(rng)
    return [int(rng.integers(-127, 129)), m1, sh1, int(rng.integers(-127, 129)), m2, sh2, left_shift,
            int(rng.integers(-128, 128)), mo, sho, lo, hi]


def mul_quant(rng) -> list[int]:
    s1, s2 = float(rng.uniform(0.005, 0.2)), float(rng.uniform(0.005, 0.2))
    so = s1 * s2 * float(rng.uniform(64, 512))  # products of int8 magnitudes land mostly in range
    mo, sho = quantize_multiplier(s1 * s2 / so)
    lo, hi = rand_act(rng)
    return [int(rng.integers(-127, 129)), int(rng.integers(-127, 129)), int(rng.integers(-128, 128)), mo, sho, lo, hi]


def ns_broadcast_overreads(d1, d2) -> bool:
    """Shapes on which ns-cmsis-nn v7.29.2's broadcast walk steps its input pointer backwards.

    When one input is a single value per row (w == c == 1) but not a scalar, is broadcast along h
    and the other input has w == 1 and c > 1, arm_add_s8/arm_sub_s8/arm_mul_s8 rewind that pointer
    by one element per row and read before the tensor. The portable kernels broadcast correctly.
    """
    def overreads(a, b):
        return a[2] == 1 and a[3] == 1 and int(np.prod(a)) > 1 and a[1] < b[1] and b[2] == 1 and b[3] > 1
    return overreads(d1, d2) or overreads(d2, d1)


def broadcast_dims(rng) -> tuple[tuple, tuple, tuple]:
    while True:
        out = tuple(int(rng.integers(1, 5)) for _ in range(4))
        d1, d2 = [], []
        for size in out:
            choice = int(rng.integers(0, 3))
            d1.append(1 if choice == 1 else size)
            d2.append(1 if choice == 2 else size)
        out = tuple(max(a, b) for a, b in zip(d1, d2))
        if not ns_broadcast_overreads(d1, d2):
            return tuple(d1), tuple(d2), out


# ---- unary ---------------------------------------------------------------------------------------------

def requantize_args(rng) -> list[int]:
    m, s = quantize_multiplier(float(rng.uniform(0.1, 4.0)))
    return [m, s, int(rng.integers(-128, 128)), int(rng.integers(-128, 128))]


def relu_args(rng) -> list[int]:
    m, s = quantize_multiplier(float(rng.uniform(0.2, 2.0)))
    return [int(rng.integers(-128, 128)), int(rng.integers(-128, 128)), m, s]


def leaky_relu_args(rng) -> list[int]:
    ratio = float(rng.uniform(0.3, 2.0))
    ma, sa = quantize_multiplier(ratio * float(rng.uniform(0.01, 0.5)))
    mi, si = quantize_multiplier(ratio)
    return [int(rng.integers(-128, 128)), int(rng.integers(-128, 128)), ma, sa, mi, si]


def hard_swish_precise_args(rng) -> list[int]:
    in_scale, out_scale = float(rng.uniform(0.01, 0.1)), float(rng.uniform(0.01, 0.1))
    prescale = int(rng.integers(0, 4))
    m, s = quantize_multiplier(in_scale * in_scale * (1 << prescale) / (6 * out_scale))
    return [int(rng.integers(-128, 128)), int(rng.integers(-128, 128)), m, s, round(3 / in_scale),
            round(6 / in_scale), prescale]


def hard_swish_compat_args(rng) -> list[int]:
    return [int(rng.integers(-128, 128)), int(rng.integers(-128, 128)), int(rng.integers(1 << 14, 1 << 15)),
            int(rng.integers(-8, 1)), int(rng.integers(1 << 14, 1 << 15)), int(rng.integers(-3, 6))]


# ---- one record generator per contract function ---------------------------------------------------------

def _conv(name: str, make: Callable) -> Callable:
    return lambda rng: R.conv_record(name, make(rng))


def _dw(name: str, make: Callable) -> Callable:
    return lambda rng: R.depthwise_record(name, make(rng))


def _conv_upscaled(rng):
    upscale = (int(rng.choice([1, 2])), int(rng.choice([1, 2])))
    return conv_call(rng, upscale=upscale if upscale != (1, 1) else (2, 2))


def _pool(name):
    return lambda rng: R.pool_record(name, **pool_args(rng))


def _add_sub(name, broadcast):
    def make(rng):
        q = add_sub_quant(rng)
        if broadcast:
            d1, d2, out = broadcast_dims(rng)
            return R.add_sub_record(name, q, rand_i8(rng, int(np.prod(d1))), rand_i8(rng, int(np.prod(d2))),
                                    (d1, d2, out))
        size = int(rng.integers(1, 70))
        return R.add_sub_record(name, q, rand_i8(rng, size), rand_i8(rng, size))
    return make


def _mul(name, broadcast):
    def make(rng):
        q = mul_quant(rng)
        if broadcast:
            d1, d2, out = broadcast_dims(rng)
            return R.mul_record(name, q, rand_i8(rng, int(np.prod(d1))), rand_i8(rng, int(np.prod(d2))), (d1, d2, out))
        size = int(rng.integers(1, 70))
        return R.mul_record(name, q, rand_i8(rng, size), rand_i8(rng, size))
    return make


def _concatenation(axis):
    def make(rng):
        xyzw = [int(rng.integers(1, 5)) for _ in range(4)]
        index = "xyzw".index(axis)
        extra = int(rng.integers(0, 4))
        out = list(xyzw)
        out[index] += extra
        return R.concatenation_record(axis, xyzw, out[index], int(rng.integers(0, extra + 1)), int(np.prod(out)),
                                      rand_i8(rng, int(np.prod(xyzw))))
    return make


def _pad(rng):
    dims = tuple(int(rng.integers(1, 4)) for _ in range(4))
    pre = tuple(int(rng.integers(0, 3)) for _ in range(4))
    post = tuple(int(rng.integers(0, 3)) for _ in range(4))
    return R.pad_record(int(rng.integers(-128, 128)), dims, pre, post, rand_i8(rng, int(np.prod(dims))))


def transpose_case(rng) -> tuple[int, list[int], tuple, tuple]:
    rank = int(rng.integers(1, 5))
    shape = [int(rng.integers(1, 5)) for _ in range(rank)]
    perm = [1, 0] if rank == 2 else [int(p) for p in rng.permutation(rank)]
    out_shape = [shape[p] for p in perm]
    pad = [1] * (4 - rank)
    return rank, perm, tuple(shape + pad), tuple(out_shape + pad)


def _transpose(rng):
    rank, perm, in_dims, out_dims = transpose_case(rng)
    return R.transpose_record(rank, perm, in_dims, out_dims, rand_i8(rng, int(np.prod(in_dims))))


def strided_slice_case(rng) -> tuple[tuple, tuple, tuple, tuple]:
    in_dims, begin, stride, out_dims = [], [], [], []
    for _ in range(4):
        size = int(rng.integers(1, 7))
        step = int(rng.choice([1, 1, 2, 3, -1, -2]))
        start = int(rng.integers(0, size))
        count = (size - start + step - 1) // step if step > 0 else (start + 1 + (-step) - 1) // (-step)
        in_dims.append(size)
        begin.append(start)
        stride.append(step)
        out_dims.append(int(rng.integers(1, count + 1)))
    return tuple(in_dims), tuple(begin), tuple(stride), tuple(out_dims)


def _strided_slice(rng):
    in_dims, begin, stride, out_dims = strided_slice_case(rng)
    return R.strided_slice_record(in_dims, begin, stride, out_dims, rand_i8(rng, int(np.prod(in_dims))))


def mean_case(rng) -> tuple:
    dims = tuple(int(rng.integers(1, 6)) for _ in range(4))
    axis = tuple(int(rng.random() < 0.5) for _ in range(4))
    if not any(axis):
        axis = (0, 1, 1, 0)
    out = tuple(1 if a else d for d, a in zip(dims, axis))
    count = int(np.prod([d for d, a in zip(dims, axis) if a]))
    m, s = quantize_multiplier(float(rng.uniform(0.5, 2.0)) / count)
    return int(rng.integers(-127, 129)), dims, axis, out, int(rng.integers(-128, 128)), m, s


def _mean(rng):
    input_offset, dims, axis, out, out_offset, m, s = mean_case(rng)
    return R.mean_record(input_offset, dims, axis, out, out_offset, m, s, rand_i8(rng, int(np.prod(dims))))


def _unary(name, make_args):
    return lambda rng: R.unary_record(name, make_args(rng), rand_i8(rng, int(rng.integers(1, 100))))


def _clamp_args(rng):
    return list(rand_act(rng))


def _vector_sum(rng):
    cols, rows = int(rng.integers(1, 50)), int(rng.integers(1, 20))
    bias = rng.integers(-5000, 5000, size=rows, dtype=np.int64) if rng.random() < 0.8 else None
    return R.vector_sum_record(cols, rows, int(rng.integers(-127, 129)), int(rng.integers(-10, 11)),
                               rand_i8(rng, cols * rows), bias)


def _fc(name, per_channel):
    return lambda rng: R.fc_record(name, fc_call(rng, per_channel if per_channel is not None else
                                                 bool(rng.random() < 0.5)))


def _sizer(make_call, make_record, names):
    def make(rng):
        call = make_call(rng)
        return [make_record(n, call) for n in names]
    return make


GENERATORS: dict[str, Callable] = {
    "arm_convolve_s8": _conv("arm_convolve_s8", lambda rng: conv_call(rng, groups=int(rng.choice([1, 1, 2, 3])))),
    "arm_convolve_s8 (upscaled input)": _conv("arm_convolve_s8", _conv_upscaled),
    "arm_convolve_1x1_s8_fast": _conv("arm_convolve_1x1_s8_fast", lambda rng: conv_1x1_call(rng, True)),
    "arm_convolve_1x1_s8": _conv("arm_convolve_1x1_s8", lambda rng: conv_1x1_call(rng, False)),
    "arm_convolve_1_x_n_s8": _conv("arm_convolve_1_x_n_s8", conv_1_x_n_call),
    "arm_convolve_wrapper_s8": _conv("arm_convolve_wrapper_s8", conv_any_call),
    "conv buffer sizers": _sizer(conv_any_call, R.conv_sizer_record, CONV_SIZERS),
    "arm_depthwise_conv_s8": _dw("arm_depthwise_conv_s8", depthwise_call),
    "arm_depthwise_conv_s8_opt": _dw("arm_depthwise_conv_s8_opt", lambda rng: depthwise_call(rng, ch_mult=1)),
    "arm_depthwise_conv_3x3_s8": _dw("arm_depthwise_conv_3x3_s8", depthwise_3x3_call),
    "arm_depthwise_conv_wrapper_s8": _dw("arm_depthwise_conv_wrapper_s8", depthwise_any_call),
    "depthwise buffer sizers": _sizer(depthwise_any_call, R.depthwise_sizer_record, DEPTHWISE_SIZERS),
    "arm_fully_connected_s8": _fc("arm_fully_connected_s8", False),
    "arm_fully_connected_per_channel_s8": _fc("arm_fully_connected_per_channel_s8", True),
    "arm_fully_connected_wrapper_s8": _fc("arm_fully_connected_wrapper_s8", None),
    "arm_vector_sum_s8": _vector_sum,
    "fully connected buffer sizers": lambda rng: [
        R.fc_sizer_record(n, (int(rng.integers(1, 300)), 1, 1, int(rng.integers(1, 300))))
        for n in ("arm_fully_connected_s8_get_buffer_size", "arm_fully_connected_s8_get_buffer_size_mve",
                  "arm_fully_connected_s8_get_buffer_size_dsp")],
    "arm_avgpool_s8": _pool("arm_avgpool_s8"),
    "arm_max_pool_s8": _pool("arm_max_pool_s8"),
    "avgpool buffer sizers": lambda rng: [
        R.avgpool_sizer_record(n, int(rng.integers(1, 100)), int(rng.integers(1, 300)))
        for n in ("arm_avgpool_s8_get_buffer_size", "arm_avgpool_s8_get_buffer_size_mve",
                  "arm_avgpool_s8_get_buffer_size_dsp")],
    "arm_softmax_s8": lambda rng: R.softmax_record(**softmax_args(rng)),
    "arm_elementwise_add_s8": _add_sub("arm_elementwise_add_s8", False),
    "arm_elementwise_sub_s8": _add_sub("arm_elementwise_sub_s8", False),
    "arm_elementwise_mul_s8": _mul("arm_elementwise_mul_s8", False),
    "arm_add_s8": _add_sub("arm_add_s8", True),
    "arm_sub_s8": _add_sub("arm_sub_s8", True),
    "arm_mul_s8": _mul("arm_mul_s8", True),
    "arm_requantize_s8_s8": _unary("arm_requantize_s8_s8", requantize_args),
    "arm_concatenation_s8_x": _concatenation("x"),
    "arm_concatenation_s8_y": _concatenation("y"),
    "arm_concatenation_s8_z": _concatenation("z"),
    "arm_concatenation_s8_w": _concatenation("w"),
    "arm_pad_s8": _pad,
    "arm_transpose_s8": _transpose,
    "arm_strided_slice_s8": _strided_slice,
    "arm_mean_s8": _mean,
    "arm_reshape_s8": lambda rng: R.reshape_record(rand_i8(rng, int(rng.integers(1, 100)))),
    "arm_relu_s8": _unary("arm_relu_s8", relu_args),
    "arm_clamp_s8": _unary("arm_clamp_s8", _clamp_args),
    "arm_relu6_q7": _unary("arm_relu6_q7", lambda rng: []),
    "arm_leaky_relu_s8": _unary("arm_leaky_relu_s8", leaky_relu_args),
    "arm_hard_swish_precise_s8": _unary("arm_hard_swish_precise_s8", hard_swish_precise_args),
    "arm_hard_swish_compat_s8": _unary("arm_hard_swish_compat_s8", hard_swish_compat_args),
}


def generate(name: str, seed: int, count: int) -> list[str]:
    rng = np.random.default_rng(seed)
    out: list[str] = []
    for _ in range(count):
        made = GENERATORS[name](rng)
        out.extend(made if isinstance(made, list) else [made])
    return out


# ---- int16 activations (A16W8) and TRANSPOSE_CONV ---------------------------------------------------
# TFLite's 16x8 quantization: int16 activations symmetric (zero point 0, so the kernels take no
# offsets), int8 weights symmetric per channel, int64 bias (int32 allowed for CONV_2D).

def rand_i16(rng: np.random.Generator, size, magnitude: int | None = None) -> np.ndarray:
    """int16 activations; the magnitude varies per call like real tensors that use part of the range."""
    magnitude = magnitude or int(rng.choice([300, 4000, 20000, 32767]))
    return rng.integers(-magnitude - (magnitude == 32767), magnitude + 1, size=size, dtype=np.int64)


def rand_act_s16(rng: np.random.Generator) -> tuple[int, int]:
    if rng.random() < 0.6:
        return -32768, 32767
    lo = int(rng.integers(-32768, 8000))
    return lo, int(rng.integers(lo, 32768))


def per_channel_quant_s16(rng: np.random.Generator, channels: int, accumulation: int,
                          magnitude: int) -> tuple[np.ndarray, np.ndarray]:
    """Multipliers in [2^30, 2^31) and shifts that bring a typical accumulator to about +-8000."""
    typical = math.sqrt(max(accumulation, 1)) * (magnitude / math.sqrt(3)) * 73
    base_shift = -int(round(math.log2(max(typical, 1.0) / 8000)))
    mult = rng.integers(1 << 30, (1 << 31) - 1, size=channels, dtype=np.int64)
    shift = base_shift + rng.integers(-1, 2, size=channels, dtype=np.int64)
    return mult, np.minimum(shift, 2)


def _to_s16(rng, base: ConvCall, accumulation: int, *, bias_kinds=(R.BIAS_INT64, R.BIAS_INT32)) -> R.ConvS16Call:
    """A ConvCall's shapes with int16 activations, 16x8 quantization and a bias of a random kind."""
    call = R.ConvS16Call(**{f.name: getattr(base, f.name) for f in dataclasses.fields(base)})
    magnitude = int(rng.choice([300, 4000, 20000, 32767]))
    call.input = rand_i16(rng, len(base.input), magnitude)
    call.filter = rng.integers(-127, 128, size=len(base.filter), dtype=np.int64)
    call.act = rand_act_s16(rng)
    call.mult, call.shift = per_channel_quant_s16(rng, base.output_dims[3], accumulation, magnitude)
    call.bias_kind = int(rng.choice(bias_kinds))
    bound = (1 << 31) - 1 if call.bias_kind == R.BIAS_INT32 else 1 << 40
    typical = min(int(math.sqrt(accumulation) * magnitude * 73) + 1, bound)
    call.bias = rng.integers(-typical, typical, size=base.output_dims[3], dtype=np.int64) if rng.random() < 0.85 \
        else None
    if rng.random() < 0.7:  # the compiler passes 0; the kernels must not read them either way
        call.input_offset = call.output_offset = 0
    return call


def conv_s16_call(rng, **shape) -> R.ConvS16Call:
    base = conv_call(rng, **shape)
    return _to_s16(rng, base, base.filter_dims[1] * base.filter_dims[2] * base.filter_dims[3])


def conv_s16_group_ch_mult_1_call(rng) -> R.ConvS16Call:
    """A depthwise convolution with channel multiplier 1 written as a grouped CONV_2D (filter c == 1)."""
    ch = int(rng.integers(1, 9))
    base = conv_call(rng, groups=ch, in_ch=ch, out_ch=ch)
    call = _to_s16(rng, base, base.filter_dims[1] * base.filter_dims[2],
                   bias_kinds=(R.BIAS_INT64, R.BIAS_INT32, R.NO_BIAS_STRUCT))
    return call


def conv_s16_any_call(rng) -> R.ConvS16Call:
    kind = int(rng.integers(0, 4))
    if kind == 0:
        return conv_s16_group_ch_mult_1_call(rng)
    if kind == 1:  # one input channel per group but a channel multiplier: the general kernel
        ch = int(rng.integers(1, 5))
        return conv_s16_call(rng, groups=ch, in_ch=ch, out_ch=ch * int(rng.integers(2, 4)))
    if kind == 2:
        return conv_s16_call(rng, groups=int(rng.integers(2, 4)))
    return conv_s16_call(rng)


def conv_s16_wraparound_call(rng) -> R.ConvS16Call:
    """Near-full-scale activations and weights of one sign over 540-720 unpadded filter columns: the
    sums leave the int32 range, so the accumulator widths of arm_convolve_s16 show (an int32 bias
    wraps every sum, an int64 bias only the unpaired last pixel's; paired pixels stay exact)."""
    kc = int(rng.integers(60, 81))
    base = conv_call(rng, batches=1, in_hw=(int(rng.integers(3, 6)), int(rng.integers(3, 6))), in_ch=kc,
                     out_ch=int(rng.integers(1, 4)), kernel_hw=(3, 3), stride=(1, 1), dilation=(1, 1), same=False)
    call = _to_s16(rng, base, 9 * kc)
    sign = int(rng.choice([-1, 1]))
    call.input = sign * rng.integers(31000, 32768, size=len(base.input), dtype=np.int64)
    call.filter = rng.integers(120, 128, size=len(base.filter), dtype=np.int64) * int(rng.choice([-1, 1]))
    call.act = (-32768, 32767)
    call.mult = rng.integers(1 << 30, (1 << 31) - 1, size=base.output_dims[3], dtype=np.int64)
    call.shift = np.full(base.output_dims[3], -18, dtype=np.int64)
    return call


CONV_S16_SIZERS = [
    "arm_convolve_s16_get_buffer_size", "arm_convolve_wrapper_s16_get_buffer_size",
    "arm_convolve_wrapper_s16_get_buffer_size_dsp", "arm_convolve_wrapper_s16_get_buffer_size_mve",
]


def depthwise_s16_call(rng, **shape) -> R.ConvS16Call:
    base = depthwise_call(rng, **shape)
    return _to_s16(rng, base, base.filter_dims[1] * base.filter_dims[2], bias_kinds=(R.BIAS_INT64,))


def depthwise_s16_any_call(rng) -> R.ConvS16Call:
    kind = int(rng.integers(0, 3))
    if kind == 0:
        return depthwise_s16_call(rng, ch_mult=1, dilation=(1, 1))
    if kind == 1:
        return depthwise_s16_call(rng, ch_mult=1)
    return depthwise_s16_call(rng)


DEPTHWISE_S16_SIZERS = [
    "arm_depthwise_conv_fast_s16_get_buffer_size", "arm_depthwise_conv_wrapper_s16_get_buffer_size",
    "arm_depthwise_conv_wrapper_s16_get_buffer_size_dsp", "arm_depthwise_conv_wrapper_s16_get_buffer_size_mve",
]


def fc_s16_call(rng, per_channel: bool) -> FcCall:
    base = fc_call(rng, per_channel)
    magnitude = int(rng.choice([300, 4000, 20000, 32767]))
    typical = int(math.sqrt(base.depth) * magnitude * 73) + 1
    mult, shift = per_channel_quant_s16(rng, base.outputs if per_channel else 1, base.depth, magnitude)
    zero_offsets = rng.random() < 0.7  # the compiler passes 0; the kernels must not read them either way
    return dataclasses.replace(
        base, input=rand_i16(rng, base.batches * base.depth, magnitude),
        filter=rng.integers(-127, 128, size=base.outputs * base.depth, dtype=np.int64),
        bias=rng.integers(-typical, typical, size=base.outputs, dtype=np.int64) if rng.random() < 0.85 else None,
        mult=mult, shift=shift, act=rand_act_s16(rng),
        input_offset=0 if zero_offsets else base.input_offset, filter_offset=0 if zero_offsets else base.filter_offset,
        output_offset=0 if zero_offsets else base.output_offset)


FC_S16_SIZERS = [
    "arm_fully_connected_s16_get_buffer_size", "arm_fully_connected_s16_get_buffer_size_dsp",
    "arm_fully_connected_s16_get_buffer_size_mve", "arm_fully_connected_per_channel_s16_get_buffer_size",
    "arm_fully_connected_per_channel_s16_get_buffer_size_dsp",
    "arm_fully_connected_per_channel_s16_get_buffer_size_mve",
]


def pool_s16_args(rng) -> dict:
    args = pool_args(rng)
    args["data"] = rand_i16(rng, len(args["data"]))
    args["act"] = rand_act_s16(rng)
    return args


AVGPOOL_S16_SIZERS = ["arm_avgpool_s16_get_buffer_size", "arm_avgpool_s16_get_buffer_size_dsp",
                      "arm_avgpool_s16_get_buffer_size_mve"]


def transpose_conv_out_size(in_size: int, kernel: int, stride: int, same: bool, trim: int = 0) -> tuple[int, int, int]:
    """TFLite TRANSPOSE_CONV: the output size a SAME (less `trim`, keeping ceil(out / stride) == in) or VALID
    model gives, and the leading padding and trailing extra that TFLite's padding rule derives from it."""
    if same:
        out = in_size * stride - min(trim, stride - 1)
        conv_out = (out + stride - 1) // stride
    else:
        out = (in_size - 1) * stride + max(kernel, stride)
        conv_out = (out - kernel + stride) // stride
    total = max(0, (conv_out - 1) * stride + kernel - out)
    return out, total // 2, total % 2


def transpose_conv_call(rng, *, in_ch=None, stride=None, dilation=(1, 1)) -> R.TransposeConvCall:
    n = int(rng.integers(1, 3))
    ih, iw = int(rng.integers(1, 7)), int(rng.integers(1, 7))
    ic = in_ch or int(rng.integers(1, 25))
    oc = int(rng.integers(1, 7))
    kh, kw = int(rng.integers(1, 6)), int(rng.integers(1, 6))
    sw, sh = stride or (int(rng.integers(1, 4)), int(rng.integers(1, 4)))
    same = bool(rng.random() < 0.6)
    trim = int(rng.integers(0, 3)) if rng.random() < 0.3 else 0
    oh, ph, oph = transpose_conv_out_size(ih, kh, sh, same, trim)
    ow, pw, opw = transpose_conv_out_size(iw, kw, sw, same, trim)
    bias = rng.integers(-5000, 5000, size=oc, dtype=np.int64) if rng.random() < 0.85 else None
    taps = max(1, (kh + sh - 1) // sh) * max(1, (kw + sw - 1) // sw)
    mult, shift = per_channel_quant(rng, oc, taps * ic)
    return R.TransposeConvCall(
        input_offset=int(rng.integers(-127, 129)), output_offset=int(rng.integers(-128, 128)),
        stride=(sw, sh), padding=(pw, ph), dilation=dilation, act=rand_act(rng),
        input_dims=(n, ih, iw, ic), filter_dims=(oc, kh, kw, ic), output_dims=(n, oh, ow, oc),
        input=rand_i8(rng, n * ih * iw * ic), filter=rand_i8(rng, oc * kh * kw * ic), bias=bias,
        mult=mult, shift=shift, padding_offsets=(opw, oph))


def transpose_conv_any_call(rng) -> R.TransposeConvCall:
    """Both routes of ns-cmsis-nn's wrapper (reverse convolution: strides <= 2 and > 16 input
    channels), and now and then a dilation, which both entries reject."""
    kind = int(rng.integers(0, 3))
    if kind == 0:
        return transpose_conv_call(rng, in_ch=int(rng.integers(17, 33)),
                                   stride=(int(rng.integers(1, 3)), int(rng.integers(1, 3))))
    if kind == 1 and rng.random() < 0.15:
        return transpose_conv_call(rng, dilation=(int(rng.integers(1, 3)), 2))
    return transpose_conv_call(rng)


def ns_transpose_conv_rows_ok(c: R.TransposeConvCall) -> bool:
    """Whether ns-cmsis-nn 7.29.2's arm_transpose_conv_s8 computes this call's rows right. It emits stride_h
    output rows after each input row from ceil(pad_h / stride_h) on, unbounded by the output height, and
    leaves its rolling window aligned to the top padding only when pad_h is a multiple of stride_h: outside
    this domain it writes past the output (ASan: heap-buffer-overflow at arm_transpose_conv_s8.c:189) or
    gives wrong rows (seen on a sweep of every small geometry against the Python reference; the portable
    kernel is right on all of them). Those calls are the library's defect, checked against the reference
    only (test_transpose_conv.py)."""
    _, ih, _, _ = c.input_dims
    _, oh, _, _ = c.output_dims
    sh, ph = c.stride[1], c.padding[1]
    return ph % sh == 0 and ph < ih * sh <= ph + oh


def transpose_conv_parity_call(rng) -> R.TransposeConvCall:
    """transpose_conv_any_call within ns_transpose_conv_rows_ok, undilated: ns-cmsis-nn 7.29.2 computes a
    dilated call as if undilated where the portable kernel refuses it (test_transpose_conv.py::
    test_dilation_is_rejected); TRANSPOSE_CONV has no dilation, so a module never passes one."""
    while True:
        c = transpose_conv_any_call(rng)
        if c.dilation == (1, 1) and ns_transpose_conv_rows_ok(c):
            return c


TRANSPOSE_CONV_SIZERS = ["arm_transpose_conv_s8_get_buffer_size", "arm_transpose_conv_s8_get_buffer_size_mve",
                         "arm_transpose_conv_s8_get_reverse_conv_buffer_size"]


def _conv_s16(name: str, make: Callable) -> Callable:
    return lambda rng: R.conv_s16_record(name, make(rng))


def _fc_s16(name, per_channel):
    return lambda rng: R.fc_record(name, fc_s16_call(rng, per_channel if per_channel is not None else
                                                     bool(rng.random() < 0.5)))


GENERATORS_A16W8: dict[str, Callable] = {
    "arm_convolve_s16": _conv_s16("arm_convolve_s16", lambda rng: conv_s16_call(
        rng, groups=int(rng.choice([1, 1, 2, 3])))),
    "arm_convolve_s16 (32-bit wraparound)": _conv_s16("arm_convolve_s16", conv_s16_wraparound_call),
    "arm_convolve_s16_group_ch_mult_1": _conv_s16("arm_convolve_s16_group_ch_mult_1",
                                                  conv_s16_group_ch_mult_1_call),
    "arm_convolve_wrapper_s16": _conv_s16("arm_convolve_wrapper_s16", conv_s16_any_call),
    "conv s16 buffer sizers": _sizer(conv_s16_any_call, R.conv_sizer_record, CONV_S16_SIZERS),
    "arm_depthwise_conv_s16": _dw("arm_depthwise_conv_s16", depthwise_s16_call),
    "arm_depthwise_conv_fast_s16": _dw("arm_depthwise_conv_fast_s16",
                                       lambda rng: depthwise_s16_call(rng, ch_mult=1)),
    "arm_depthwise_conv_wrapper_s16": _dw("arm_depthwise_conv_wrapper_s16", depthwise_s16_any_call),
    "depthwise s16 buffer sizers": _sizer(depthwise_s16_any_call, R.depthwise_sizer_record, DEPTHWISE_S16_SIZERS),
    "arm_fully_connected_s16": _fc_s16("arm_fully_connected_s16", False),
    "arm_fully_connected_per_channel_s16": _fc_s16("arm_fully_connected_per_channel_s16", True),
    "arm_fully_connected_wrapper_s16": _fc_s16("arm_fully_connected_wrapper_s16", None),
    "fully connected s16 buffer sizers": lambda rng: [
        R.fc_sizer_record(n, (int(rng.integers(1, 300)), 1, 1, int(rng.integers(1, 300)))) for n in FC_S16_SIZERS],
    "arm_avgpool_s16": lambda rng: R.pool_record("arm_avgpool_s16", **pool_s16_args(rng)),
    "arm_max_pool_s16": lambda rng: R.pool_record("arm_max_pool_s16", **pool_s16_args(rng)),
    "avgpool s16 buffer sizers": lambda rng: [
        R.avgpool_sizer_record(n, int(rng.integers(1, 100)), int(rng.integers(1, 300))) for n in AVGPOOL_S16_SIZERS],
    "arm_transpose_conv_s8": lambda rng: R.transpose_conv_record("arm_transpose_conv_s8",
                                                                 transpose_conv_parity_call(rng)),
    "arm_transpose_conv_wrapper_s8": lambda rng: R.transpose_conv_record("arm_transpose_conv_wrapper_s8",
                                                                         transpose_conv_parity_call(rng)),
    "transpose conv buffer sizers": _sizer(transpose_conv_any_call, R.transpose_conv_sizer_record,
                                           TRANSPOSE_CONV_SIZERS),
}
GENERATORS.update(GENERATORS_A16W8)
# ==== int16 element-wise, activation, softmax, data movement and conversion kernels ============
# TFLite's 16x8 quantization: int16 activations are symmetric (zero point 0), scale = max|x| / 32767.
# Multipliers and shifts follow TFLite's Prepare functions for the int16 kernels (add.cc, sub.cc,
# mul.cc, activations.cc, quantize.cc); the ns-cmsis-nn s16 kernels take them unchanged.

INT16_MIN, INT16_MAX = -32768, 32767
INT32_MAX = 2**31 - 1


def rand_i16_full(rng: np.random.Generator, size) -> np.ndarray:
    return rng.integers(INT16_MIN, INT16_MAX + 1, size=size, dtype=np.int64)


def s16_scale(rng: np.random.Generator, lo: float = 0.5, hi: float = 16.0) -> float:
    """A float32 int16 tensor scale for a tensor whose values reach about +-[lo, hi]."""
    return float(np.float32(float(rng.uniform(lo, hi)) / INT16_MAX))


def s16_offset(rng: np.random.Generator) -> int:
    """Zero point for int16 tensors: 0 as TFLite requires, now and then something else to show it is ignored."""
    return 0 if rng.random() < 0.85 else int(rng.integers(-300, 301))


def rand_act_s16_fused(rng: np.random.Generator, out_scale: float) -> tuple[int, int]:
    """TFLite's fused activation range for an int16 output (zero point 0)."""
    kind = int(rng.integers(0, 5))
    if kind <= 1:
        return INT16_MIN, INT16_MAX                                         # NONE
    if kind == 2:
        return 0, INT16_MAX                                                 # RELU
    if kind == 3:
        return 0, min(INT16_MAX, round(6.0 / out_scale))                    # RELU6
    return max(INT16_MIN, round(-1.0 / out_scale)), min(INT16_MAX, round(1.0 / out_scale))  # RELU_N1_TO_1


def add_sub_quant_s16(rng) -> list[int]:
    """TFLite's general int16 ADD/SUB preparation: left shift 15, both inputs onto twice the larger scale."""
    s1, s2 = s16_scale(rng), s16_scale(rng)
    so = (s1 + s2) * float(rng.uniform(0.6, 1.2))
    left_shift = 15
    twice_max = 2 * max(s1, s2)
    m1, sh1 = quantize_multiplier(s1 / twice_max)
    m2, sh2 = quantize_multiplier(s2 / twice_max)
    mo, sho = quantize_multiplier(twice_max / ((1 << left_shift) * so))
    lo, hi = rand_act_s16_fused(rng, so)
    return [s16_offset(rng), m1, sh1, s16_offset(rng), m2, sh2, left_shift, s16_offset(rng), mo, sho, lo, hi]


def mul_quant_s16(rng) -> list[int]:
    """TFLite's int16 MUL: the product requantized by s1 * s2 / s_out."""
    s1, s2 = s16_scale(rng, 0.5, 8.0), s16_scale(rng, 0.5, 8.0)
    so = s16_scale(rng, 0.5, 64.0)
    mo, sho = quantize_multiplier(s1 * s2 / so)
    lo, hi = rand_act_s16_fused(rng, so)
    return [s16_offset(rng), s16_offset(rng), s16_offset(rng), mo, sho, lo, hi]


def tflite_round(x: float) -> float:
    """TfLiteRound / std::round: halfway cases away from zero."""
    return math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5)


def tflite_gen_lut_s16(func: Callable[[float], float], input_min: float, input_max: float, output_min: float = -1.0,
                       output_max: float = 1.0) -> list[int]:
    """TFLite's gen_lut<double, int16_t, int16_t>: 512 interpolation segments plus the end point.

    Each entry is func sampled at the segment start, biased by half the error linear interpolation
    makes at the segment midpoint, in units where [output_min, output_max] spans 65536.
    """
    steps = 512
    step = (input_max - input_min) / steps
    scale = 65536.0 / (output_max - output_min)
    lut = []
    for i in range(steps):
        start = func(input_min + i * step)
        mid = func(input_min + i * step + step / 2)
        end = func(input_min + (i + 1) * step)
        sample = tflite_round(start * scale)
        midpoint_interpolated = tflite_round((end * scale + sample) / 2)
        bias = tflite_round((midpoint_interpolated - tflite_round(mid * scale)) / 2)
        lut.append(int(min(max(sample - bias, INT16_MIN), INT16_MAX)))
    lut.append(int(min(max(tflite_round(func(input_max) * scale), INT16_MIN), INT16_MAX)))
    return lut


SOFTMAX_S16_EXP_LUT = tflite_gen_lut_s16(math.exp, -10.0, 0.0)
SOFTMAX_S16_ONE_OVER_ONE_PLUS_X_LUT = tflite_gen_lut_s16(lambda x: 1.0 / (1.0 + x), 0.0, 1.0)


def softmax_s16_params(input_scale: float, beta: float = 1.0) -> tuple[int, int]:
    """TFLite's int16 SOFTMAX: input differences rescaled so that -65535 stands for -10.0."""
    return quantize_multiplier(input_scale * beta / (10.0 / 65535.0))


# Rows of n equal logits and a constant exp table c whose sum n * c has its top 18 bits set: the
# normalised sum then rounds up to 2^17, which ns-cmsis-nn wraps to the reciprocal table's low end.
SOFTMAX_S16_WRAPPING_SUMS = [(9, 29127), (21, 12483), (27, 9709), (18, 29127), (57, 4599), (63, 4161)]


def softmax_s16_args(rng) -> dict:
    if rng.random() < 0.1:
        row_size, c = SOFTMAX_S16_WRAPPING_SUMS[int(rng.integers(0, len(SOFTMAX_S16_WRAPPING_SUMS)))]
        mult, shift = softmax_s16_params(s16_scale(rng, 4.0, 32.0))
        return dict(rows=1, row_size=row_size, mult=mult, shift=shift, exp_lut=[c] * 513,
                    recip_lut=SOFTMAX_S16_ONE_OVER_ONE_PLUS_X_LUT, data=[int(rng.integers(-1000, 1000))] * row_size)
    rows = int(rng.integers(1, 5))
    row_size = int(rng.integers(1, 41)) if rng.random() < 0.8 else int(rng.integers(100, 700))
    mult, shift = softmax_s16_params(s16_scale(rng, 2.0, 40.0), float(rng.choice([1.0, 1.0, 0.5, 2.0])))
    data = rand_i16_full(rng, rows * row_size)
    if rng.random() < 0.3:  # logits bunched near the row maximum: large sums
        data = np.clip(int(rng.integers(-20000, 20000)) + rng.integers(-200, 200, size=rows * row_size), INT16_MIN,
                       INT16_MAX)
    return dict(rows=rows, row_size=row_size, mult=mult, shift=shift, exp_lut=SOFTMAX_S16_EXP_LUT,
                recip_lut=SOFTMAX_S16_ONE_OVER_ONE_PLUS_X_LUT, data=data)


def softmax_s8_s16_args(rng) -> dict:
    """int8 logits to int16 probabilities: the int8 softmax parameters (TFLite uses the same Prepare)."""
    return softmax_args(rng)


def tflite_checked_log2(x: float) -> tuple[bool, int]:
    """TFLite's CheckedLog2 (computed in float): is x a power of two, and its rounded log2."""
    log2 = float(np.float32(math.log(x)) * np.float32(1.0 / math.log(2.0)))
    rounded = tflite_round(log2)
    return abs(log2 - rounded) < 1e-3, int(rounded)


def logistic_tanh_params(input_scale: float, is_tanh: bool) -> tuple[int, int]:
    """TFLite's int16 LOGISTIC / TANH Prepare: (input_multiplier, input_left_shift).

    A power-of-two input scale 2^-12 (also 2^-11 for TANH) gives multiplier 0; any other scale a
    multiplier in (16383.5, 32767] with left shift such that multiplier / 2^shift = scale * 3 * 4096.
    """
    pot, log2 = tflite_checked_log2(input_scale)
    left_shift = 15 - 3 + log2
    if pot and (left_shift == 0 or (is_tanh and left_shift == 1)):
        return 0, left_shift
    multiplier = float(input_scale) * 4096.0 * 3.0
    left_shift = 0
    while multiplier <= 32767.0 / 2.0 and left_shift <= 30:
        left_shift += 1
        multiplier *= 2.0
    return int(multiplier), left_shift


def logistic_tanh_args(rng, is_tanh: bool) -> list[int]:
    kind = int(rng.integers(0, 4))
    if kind == 0:
        scale = 2.0 ** -12 if not is_tanh or rng.random() < 0.5 else 2.0 ** -11
    else:
        scale = s16_scale(rng, 1.0, 16.0)
    return list(logistic_tanh_params(scale, is_tanh))


def nn_activation_args(rng) -> list[int]:
    """left_shift (input scale 2^(left_shift - 12)) and type (0 sigmoid, 1 tanh)."""
    return [int(rng.integers(-3, 3)), int(rng.integers(0, 2))]


def relu_s16_args(rng) -> list[int]:
    si, so = s16_scale(rng), s16_scale(rng)
    m, s = quantize_multiplier(si / so)
    return [s16_offset(rng), s16_offset(rng), m, s]


def relu_generic_s16_args(rng) -> list[int]:
    si, so = s16_scale(rng), s16_scale(rng)
    m, s = quantize_multiplier(si / so)
    lo, hi = rand_act_s16_fused(rng, so)
    return [s16_offset(rng), s16_offset(rng), m, s, lo, hi]


def leaky_relu_s16_args(rng) -> list[int]:
    si, so = s16_scale(rng), s16_scale(rng)
    alpha = float(rng.uniform(0.01, 0.5))
    ma, sa = quantize_multiplier(si * alpha / so)
    mi, si_ = quantize_multiplier(si / so)
    return [s16_offset(rng), s16_offset(rng), ma, sa, mi, si_]


def hard_swish_prescale(relu_q6: int, max_abs_x: int = 32768) -> int:
    """Smallest prescale keeping |x| * relu6 (rounded down by 2^prescale) within int32."""
    prescale = 0
    while max_abs_x * ((relu_q6 + ((1 << prescale) >> 1)) >> prescale) > INT32_MAX:
        prescale += 1
    return prescale


def hard_swish_precise_s16_args(rng) -> list[int]:
    in_scale, out_scale = s16_scale(rng, 0.5, 12.0), s16_scale(rng, 0.5, 12.0)
    relu_q3, relu_q6 = round(3 / in_scale), round(6 / in_scale)
    input_offset = s16_offset(rng)
    prescale = hard_swish_prescale(relu_q6, 32768 + abs(input_offset))
    m, s = quantize_multiplier(in_scale * in_scale * (1 << prescale) / (6 * out_scale))
    return [input_offset, s16_offset(rng), m, s, relu_q3, relu_q6, prescale]


def requantize_s16_args(rng) -> list[int]:
    m, s = quantize_multiplier(s16_scale(rng) / s16_scale(rng))
    return [m, s, s16_offset(rng), s16_offset(rng)]


def clamp_s16_args(rng) -> list[int]:
    return list(rand_act_s16_fused(rng, s16_scale(rng)))


def quantize_f32_s16_args(rng) -> tuple[int, float, np.ndarray]:
    """Scale, zero point and float inputs: mostly in range, some past it, some near halfway points."""
    scale = s16_scale(rng)
    zero_point = s16_offset(rng)
    count = int(rng.integers(1, 100))
    values = rng.uniform(-1.3, 1.3, size=count) * INT16_MAX * scale
    halfway = (rng.integers(-40000, 40000, size=count) + 0.5) * scale
    values = np.where(rng.random(count) < 0.25, halfway, values).astype(np.float32)
    return zero_point, scale, values


def concatenation_s16_case(rng) -> tuple[int, list[int], list[int], list[np.ndarray]]:
    rank = int(rng.integers(1, 5))
    shape = [int(rng.integers(1, 5)) for _ in range(rank)]
    axis = int(rng.integers(0, rank))
    concat = [int(rng.integers(1, 4)) for _ in range(int(rng.integers(1, 5)))]
    out_shape = list(shape)
    out_shape[axis] = sum(concat)
    inputs = []
    for size in concat:
        in_shape = list(shape)
        in_shape[axis] = size
        inputs.append(rand_i16_full(rng, int(np.prod(in_shape))))
    return axis, out_shape, concat, inputs


def _add_sub_s16(name, broadcast):
    def make(rng):
        q = add_sub_quant_s16(rng)
        if broadcast:
            d1, d2, out = broadcast_dims(rng)
            return R.add_sub_record(name, q, rand_i16_full(rng, int(np.prod(d1))), rand_i16_full(rng, int(np.prod(d2))),
                                    (d1, d2, out))
        size = int(rng.integers(1, 70))
        return R.add_sub_record(name, q, rand_i16_full(rng, size), rand_i16_full(rng, size))
    return make


def _mul_s16(name, broadcast):
    def make(rng):
        q = mul_quant_s16(rng)
        if broadcast:
            d1, d2, out = broadcast_dims(rng)
            return R.mul_record(name, q, rand_i16_full(rng, int(np.prod(d1))), rand_i16_full(rng, int(np.prod(d2))),
                                (d1, d2, out))
        size = int(rng.integers(1, 70))
        return R.mul_record(name, q, rand_i16_full(rng, size), rand_i16_full(rng, size))
    return make


def _unary_s16(name, make_args):
    return lambda rng: R.unary_record(name, make_args(rng), rand_i16_full(rng, int(rng.integers(1, 100))))


def _pad_s16(rng):
    dims = tuple(int(rng.integers(1, 4)) for _ in range(4))
    pre = tuple(int(rng.integers(0, 3)) for _ in range(4))
    post = tuple(int(rng.integers(0, 3)) for _ in range(4))
    return R.pad_s16_record(int(rng.integers(INT16_MIN, INT16_MAX + 1)), dims, pre, post,
                            rand_i16_full(rng, int(np.prod(dims))))


def _transpose_s16(rng):
    rank, perm, in_dims, out_dims = transpose_case(rng)
    return R.transpose_s16_record(rank, perm, in_dims, out_dims, rand_i16_full(rng, int(np.prod(in_dims))))


def _strided_slice_s16(rng):
    in_dims, begin, stride, out_dims = strided_slice_case(rng)
    return R.strided_slice_s16_record(in_dims, begin, stride, out_dims, rand_i16_full(rng, int(np.prod(in_dims))))


def mean_s16_case(rng) -> tuple:
    """MEAN with the count folded into the multiplier: input_scale / (output_scale * count)."""
    input_offset, dims, axis, out, _, _, _ = mean_case(rng)
    count = int(np.prod([d for d, a in zip(dims, axis) if a]))
    m, s = quantize_multiplier(s16_scale(rng) / (s16_scale(rng) * count))
    return -s16_offset(rng), dims, axis, out, s16_offset(rng), m, s


def _mean_s16(rng):
    input_offset, dims, axis, out, out_offset, m, s = mean_s16_case(rng)
    return R.mean_s16_record(input_offset, dims, axis, out, out_offset, m, s, rand_i16_full(rng, int(np.prod(dims))))


def _quantize_f32_s16(rng):
    zero_point, scale, values = quantize_f32_s16_args(rng)
    return R.quantize_f32_s16_record(zero_point, scale, values)


def _dequantize_s16_f32(rng):
    return R.dequantize_s16_f32_record(s16_offset(rng), s16_scale(rng), rand_i16_full(rng, int(rng.integers(1, 100))))


def _concatenation_s16(rng):
    axis, out_shape, concat, inputs = concatenation_s16_case(rng)
    return R.concatenation_s16_record(axis, out_shape, concat, inputs)


GENERATORS_S16: dict[str, Callable] = {
    "arm_elementwise_add_s16": _add_sub_s16("arm_elementwise_add_s16", False),
    "arm_elementwise_sub_s16": _add_sub_s16("arm_elementwise_sub_s16", False),
    "arm_elementwise_mul_s16": _mul_s16("arm_elementwise_mul_s16", False),
    "arm_add_s16": _add_sub_s16("arm_add_s16", True),
    "arm_sub_s16": _add_sub_s16("arm_sub_s16", True),
    "arm_mul_s16": _mul_s16("arm_mul_s16", True),
    "arm_softmax_s8_s16": lambda rng: R.softmax_s8_s16_record(**softmax_s8_s16_args(rng)),
    "arm_softmax_s16": lambda rng: R.softmax_s16_record(**softmax_s16_args(rng)),
    "arm_logistic_s16": _unary_s16("arm_logistic_s16", lambda rng: logistic_tanh_args(rng, False)),
    "arm_tanh_s16": _unary_s16("arm_tanh_s16", lambda rng: logistic_tanh_args(rng, True)),
    "arm_nn_activation_s16": _unary_s16("arm_nn_activation_s16", nn_activation_args),
    "arm_relu_s16": _unary_s16("arm_relu_s16", relu_s16_args),
    "arm_relu_generic_s16": _unary_s16("arm_relu_generic_s16", relu_generic_s16_args),
    "arm_clamp_s16": _unary_s16("arm_clamp_s16", clamp_s16_args),
    "arm_leaky_relu_s16": _unary_s16("arm_leaky_relu_s16", leaky_relu_s16_args),
    "arm_hard_swish_precise_s16": _unary_s16("arm_hard_swish_precise_s16", hard_swish_precise_s16_args),
    "arm_requantize_s16_s16": _unary_s16("arm_requantize_s16_s16", requantize_s16_args),
    "arm_quantize_f32_s16": _quantize_f32_s16,
    "arm_dequantize_s16_f32": _dequantize_s16_f32,
    "arm_pad_s16": _pad_s16,
    "arm_transpose_s16": _transpose_s16,
    "arm_strided_slice_s16": _strided_slice_s16,
    "arm_concatenation_s16": _concatenation_s16,
    "arm_mean_s16": _mean_s16,
}
GENERATORS.update(GENERATORS_S16)

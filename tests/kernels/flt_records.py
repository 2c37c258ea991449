# SPDX-License-Identifier: Apache-2.0
"""Turns float32 / float16 kernel calls into float_driver records, and parses the driver's output lines.

Floats travel as bit patterns (a float32 as the int32 reading of its bits, a float16 as the uint16
one), so every comparison is exact. The argument order of every record matches
tests/kernels/c/float_driver_ops.h.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

Dims = Sequence[int]  # n, h, w, c

DTYPES = {"f32": np.float32, "f16": np.float16}
_BITS = {"f32": np.int32, "f16": np.uint16}

# ns-cmsis-nn's arm_nn_activation_type_flt values.
ACT_NONE, ACT_SIGMOID, ACT_TANH, ACT_RELU, ACT_RELU6, ACT_HARDSWISH, ACT_LEAKY_RELU = range(32, 39)
LAYOUT_NHWC = 0
WEIGHTS_STANDARD, WEIGHTS_PACKED = 0, 1


def dtype_of(name: str) -> str:
    """'f32' or 'f16' from a function name such as arm_convolve_f16_get_buffer_size."""
    return "f16" if "_f16" in name else "f32"


def bits(values, t: str) -> list[int]:
    return [int(v) for v in np.asarray(values, dtype=DTYPES[t]).reshape(-1).view(_BITS[t])]


def from_bits(raw, t: str) -> np.ndarray:
    return np.asarray(raw, dtype=np.int64).astype(_BITS[t]).view(DTYPES[t])


def unbounded(t: str) -> tuple[float, float]:
    """The widest finite activation range of the type (no clamping)."""
    big = float(np.finfo(DTYPES[t]).max)
    return -big, big


@dataclass(frozen=True)
class Result:
    status: int
    raw: np.ndarray  # bit patterns
    t: str

    @property
    def values(self) -> np.ndarray:
        return from_bits(self.raw, self.t)

    @property
    def size(self) -> int:
        """For *_get_buffer_size records."""
        return int(self.raw[0])


def parse(output: str, types: Sequence[str]) -> list[Result]:
    lines = output.strip().splitlines()
    assert len(lines) == len(types), (len(lines), len(types))
    results = []
    for line, t in zip(lines, types):
        fields = [int(tok) for tok in line.split()]
        status, count, values = fields[0], fields[1], fields[2:]
        assert len(values) == count, line[:200]
        results.append(Result(status, np.array(values, dtype=np.int64), t))
    return results


def _ints(*values: int) -> list[str]:
    return [str(int(v)) for v in values]


def _dims(d: Dims) -> list[str]:
    assert len(d) == 4, d
    return _ints(*d)


def _arr(values, t: str) -> list[str]:
    flat = [] if values is None else bits(values, t)
    return [str(len(flat)), *map(str, flat)]


def _scalars(t: str, *values: float) -> list[str]:
    return _ints(*bits(np.array(values, dtype=np.float64), t))


def record(name: str, *parts: list[str]) -> str:
    tokens = [name]
    for part in parts:
        tokens.extend(part)
    return " ".join(tokens)


# ---- CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED / TRANSPOSE_CONV --------------------------------

@dataclass
class Conv:
    """A float CONV_2D (or, with ch_mult, DEPTHWISE_CONV_2D) call; tiles are (w, h) as in cmsis_nn_tile."""
    t: str
    input_dims: Dims
    filter_dims: Dims
    output_dims: Dims
    input: np.ndarray
    filter: np.ndarray
    bias: np.ndarray | None
    stride: tuple[int, int] = (1, 1)
    padding: tuple[int, int] = (0, 0)
    dilation: tuple[int, int] = (1, 1)
    act: tuple[float, float] = field(default=(-np.inf, np.inf))
    ch_mult: int = 1
    weight_format: int = WEIGHTS_STANDARD
    layout: int = LAYOUT_NHWC

    def _geometry(self) -> list[str]:
        return [*_ints(*self.stride, *self.padding, *self.dilation), *_scalars(self.t, *self.act)]

    def _dims(self) -> list[str]:
        return [*_dims(self.input_dims), *_dims(self.filter_dims), *_dims(self.output_dims)]

    def _tensors(self) -> list[str]:
        return [*_arr(self.input, self.t), *_arr(self.filter, self.t), *_arr(self.bias, self.t)]

    def conv_record(self, name: str) -> str:
        return record(name, self._geometry(), _ints(self.weight_format, self.layout), self._dims(), self._tensors())

    def conv_sizer_record(self, name: str) -> str:
        return record(name, self._geometry(), _ints(self.weight_format, self.layout), self._dims())

    def depthwise_record(self, name: str) -> str:
        return record(name, _ints(self.ch_mult), self._geometry(), _ints(self.layout), self._dims(), self._tensors())

    def depthwise_sizer_record(self, name: str) -> str:
        return record(name, _ints(self.ch_mult), self._geometry(), _ints(self.layout), self._dims())


@dataclass
class FullyConnected:
    """output[b][o] = bias[o] + input[b] . kernel[o]; kernel is [outputs][depth]."""
    t: str
    batches: int
    depth: int
    outputs: int
    input: np.ndarray
    kernel: np.ndarray
    bias: np.ndarray | None
    act: tuple[float, float] = field(default=(-np.inf, np.inf))
    weight_format: int = WEIGHTS_STANDARD
    layout: int = LAYOUT_NHWC
    filter_n: int | None = None  # filter_dims->n when it should differ from depth (an argument error)

    def _head(self) -> list[str]:
        input_dims = (self.batches, 1, 1, self.depth)
        filter_dims = (self.depth if self.filter_n is None else self.filter_n, 1, 1, self.outputs)
        output_dims = (self.batches, 1, 1, self.outputs)
        return [*_scalars(self.t, *self.act), *_ints(self.weight_format, self.layout), *_dims(input_dims),
                *_dims(filter_dims), *_dims(output_dims)]

    def record(self, name: str) -> str:
        return record(name, self._head(), _arr(self.input, self.t), _arr(self.kernel, self.t), _arr(self.bias, self.t))

    def sizer_record(self, name: str) -> str:
        return record(name, self._head())


@dataclass
class TransposeConv:
    """A float TRANSPOSE_CONV call: filter [out][kh][kw][in], padding the leading padding."""
    t: str
    input_dims: Dims
    filter_dims: Dims
    output_dims: Dims
    input: np.ndarray
    filter: np.ndarray
    bias: np.ndarray | None
    stride: tuple[int, int] = (1, 1)
    padding: tuple[int, int] = (0, 0)
    padding_offsets: tuple[int, int] = (0, 0)
    dilation: tuple[int, int] = (1, 1)
    act: tuple[float, float] = field(default=(-np.inf, np.inf))
    layout: int = LAYOUT_NHWC

    def _head(self) -> list[str]:
        return [*_ints(*self.stride, *self.padding, *self.padding_offsets, *self.dilation),
                *_scalars(self.t, *self.act), *_ints(self.layout), *_dims(self.input_dims), *_dims(self.filter_dims),
                *_dims(self.output_dims)]

    def record(self, name: str) -> str:
        return record(name, self._head(), _arr(self.input, self.t), _arr(self.filter, self.t), _arr(self.bias, self.t))

    def sizer_record(self, name: str) -> str:
        return record(name, self._head())


# ---- pooling, softmax, activations, element-wise ------------------------------------------------------

def pool_record(name: str, stride, padding, act, input_dims, filter_hw, output_dims, data) -> str:
    t = dtype_of(name)
    filter_dims = (1, filter_hw[0], filter_hw[1], 1)
    return record(name, _ints(*stride, *padding), _scalars(t, *act), _dims(input_dims), _dims(filter_dims),
                  _dims(output_dims), _arr(data, t))


def softmax_record(t: str, rows: int, row_size: int, data) -> str:
    return record(f"arm_softmax_{t}", _ints(rows, row_size), _arr(data, t))


def activation_record(t: str, kind: int, param: float, data) -> str:
    return record(f"arm_nn_activation_{t}", _ints(kind), _scalars(t, param), _arr(data, t))


def elementwise_record(name: str, act, a, b) -> str:
    t = dtype_of(name)
    return record(name, _scalars(t, *act), _arr(a, t), _arr(b, t))


def minmax_record(name: str, dims_1, dims_2, output_dims, a, b) -> str:
    t = dtype_of(name)
    return record(name, _dims(dims_1), _dims(dims_2), _dims(output_dims), _arr(a, t), _arr(b, t))


# ---- data movement and SUM ------------------------------------------------------------------------------

def pad_record(t: str, pad_value: float, input_dims, pre, post, data) -> str:
    return record(f"arm_pad_{t}", _scalars(t, pad_value), _dims(input_dims), _dims(pre), _dims(post), _arr(data, t))


def strided_slice_record(t: str, input_dims, begin, stride, output_dims, data) -> str:
    return record(f"arm_strided_slice_{t}", _dims(input_dims), _dims(begin), _dims(stride), _dims(output_dims),
                  _arr(data, t))


def transpose_record(t: str, num_dims: int, perm: Sequence[int], input_dims, output_dims, data,
                     layout: int = LAYOUT_NHWC) -> str:
    perm4 = list(perm) + [0] * (4 - len(perm))
    return record(f"arm_transpose_{t}", _ints(num_dims, *perm4, layout), _dims(input_dims), _dims(output_dims),
                  _arr(data, t))


def reduce_sum_record(t: str, input_dims, axis, output_dims, data) -> str:
    return record(f"arm_reduce_sum_{t}", _dims(input_dims), _dims(axis), _dims(output_dims), _arr(data, t))

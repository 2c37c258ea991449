# SPDX-License-Identifier: Apache-2.0
"""Turns kernel calls into kernel_driver input records, and parses the driver's output lines.

The argument order of every record matches tests/kernels/c/kernel_driver.c.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

Dims = Sequence[int]  # n, h, w, c


@dataclass(frozen=True)
class Result:
    status: int
    values: np.ndarray


def _arr(values: Iterable[int] | np.ndarray | None) -> list[str]:
    flat = [] if values is None else [int(v) for v in np.asarray(values).reshape(-1)]
    return [str(len(flat)), *map(str, flat)]


def _ints(*values: int) -> list[str]:
    return [str(int(v)) for v in values]


def _dims(d: Dims) -> list[str]:
    assert len(d) == 4, d
    return _ints(*d)


def record(name: str, *parts: list[str]) -> str:
    tokens = [name]
    for part in parts:
        tokens.extend(part)
    return " ".join(tokens)


def parse(output: str) -> list[Result]:
    results = []
    for line in output.strip().splitlines():
        fields = [int(t) for t in line.split()]
        status, count, values = fields[0], fields[1], fields[2:]
        assert len(values) == count, line[:200]
        results.append(Result(status, np.array(values, dtype=np.int64)))
    return results


# ---- CONV_2D / DEPTHWISE_CONV_2D ------------------------------------------------------------

@dataclass
class ConvCall:
    input_offset: int
    output_offset: int
    stride: tuple[int, int]  # (w, h)
    padding: tuple[int, int]  # (w, h)
    dilation: tuple[int, int]  # (w, h)
    act: tuple[int, int]
    input_dims: Dims
    filter_dims: Dims
    output_dims: Dims
    input: np.ndarray
    filter: np.ndarray
    bias: np.ndarray | None
    mult: np.ndarray
    shift: np.ndarray
    upscale: tuple[int, int] = (0, 0)  # (h, w); 0 means no upscale_dims
    ch_mult: int = 1  # depthwise only

    def conv_params(self) -> list[str]:
        return _ints(self.input_offset, self.output_offset, *self.stride, *self.padding, *self.dilation, *self.act)

    def dw_params(self) -> list[str]:
        return _ints(self.input_offset, self.output_offset, self.ch_mult, *self.stride, *self.padding, *self.dilation,
                     *self.act)

    def tensors(self) -> list[str]:
        return [*_arr(self.input), *_arr(self.filter), *_arr(self.bias), *_arr(self.mult), *_arr(self.shift)]

    def dims(self) -> list[str]:
        return [*_dims(self.input_dims), *_dims(self.filter_dims), *_dims(self.output_dims)]


def conv_record(name: str, c: ConvCall) -> str:
    return record(name, c.conv_params(), c.dims(), _ints(*c.upscale), c.tensors())


def conv_sizer_record(name: str, c: ConvCall) -> str:
    return record(name, c.conv_params(), c.dims())


def depthwise_record(name: str, c: ConvCall) -> str:
    return record(name, c.dw_params(), c.dims(), c.tensors())


def depthwise_sizer_record(name: str, c: ConvCall) -> str:
    return record(name, c.dw_params(), c.dims())


def convolve_weight_sum_record(c: ConvCall, lhs_offset: int) -> str:
    return record("arm_convolve_weight_sum", c.dims(), _ints(lhs_offset), _arr(c.filter), _arr(c.bias))


def depthwise_weight_sum_record(c: ConvCall, lhs_offset: int) -> str:
    return record("arm_depthwise_convolve_weight_sum", c.dw_params(), c.dims(), _ints(lhs_offset), _arr(c.filter),
                  _arr(c.bias))


# ---- FULLY_CONNECTED ----------------------------------------------------------------------------

@dataclass
class FcCall:
    input_offset: int
    filter_offset: int
    output_offset: int
    act: tuple[int, int]
    batches: int
    depth: int
    outputs: int
    input: np.ndarray
    filter: np.ndarray
    bias: np.ndarray | None
    mult: np.ndarray
    shift: np.ndarray
    per_channel: bool


def fc_record(name: str, c: FcCall) -> str:
    input_dims = (c.batches, 1, 1, c.depth)
    filter_dims = (c.depth, 1, 1, c.outputs)
    output_dims = (c.batches, 1, 1, c.outputs)
    return record(name, _ints(c.input_offset, c.filter_offset, c.output_offset, *c.act), _dims(input_dims),
                  _dims(filter_dims), _dims(output_dims), _ints(int(c.per_channel)), _arr(c.input), _arr(c.filter),
                  _arr(c.bias), _arr(c.mult), _arr(c.shift))


def fc_sizer_record(name: str, filter_dims: Dims) -> str:
    return record(name, _dims(filter_dims))


def vector_sum_record(cols: int, rows: int, lhs_offset: int, rhs_offset: int, data, bias) -> str:
    return record("arm_vector_sum_s8", _ints(cols, rows, lhs_offset, rhs_offset), _arr(data), _arr(bias))


# ---- Pooling / softmax ----------------------------------------------------------------------------

def pool_record(name: str, stride, padding, act, input_dims, filter_hw, output_dims, data) -> str:
    filter_dims = (1, filter_hw[0], filter_hw[1], 1)
    return record(name, _ints(*stride, *padding, *act), _dims(input_dims), _dims(filter_dims), _dims(output_dims),
                  _arr(data))


def avgpool_sizer_record(name: str, width: int, channels: int) -> str:
    return record(name, _ints(width, channels))


def softmax_record(rows: int, row_size: int, mult: int, shift: int, diff_min: int, data) -> str:
    return record("arm_softmax_s8", _ints(rows, row_size, mult, shift, diff_min), _arr(data))


# ---- ADD / SUB / MUL ------------------------------------------------------------------------------

def add_sub_record(name: str, q: Sequence[int], a, b, dims: tuple[Dims, Dims, Dims] | None = None) -> str:
    """q: in1 offset, mult, shift, in2 offset, mult, shift, left_shift, out offset, mult, shift, act min, max."""
    assert len(q) == 12
    head = [] if dims is None else [*_dims(dims[0]), *_dims(dims[1]), *_dims(dims[2])]
    return record(name, head, _ints(*q), _arr(a), _arr(b))


def mul_record(name: str, q: Sequence[int], a, b, dims: tuple[Dims, Dims, Dims] | None = None) -> str:
    """q: in1 offset, in2 offset, out offset, out mult, out shift, act min, act max."""
    assert len(q) == 7
    head = [] if dims is None else [*_dims(dims[0]), *_dims(dims[1]), *_dims(dims[2])]
    return record(name, head, _ints(*q), _arr(a), _arr(b))


# ---- Data movement / unary ----------------------------------------------------------------------------

def concatenation_record(axis: str, in_xyzw: Sequence[int], out_axis: int, offset: int, out_count: int, data) -> str:
    return record(f"arm_concatenation_s8_{axis}", _ints(*in_xyzw, out_axis, offset, out_count), _arr(data))


def pad_record(pad_value: int, input_dims, pre, post, data) -> str:
    return record("arm_pad_s8", _ints(pad_value), _dims(input_dims), _dims(pre), _dims(post), _arr(data))


def transpose_record(num_dims: int, perm: Sequence[int], input_dims, output_dims, data) -> str:
    perm4 = list(perm) + [0] * (4 - len(perm))
    return record("arm_transpose_s8", _ints(num_dims, *perm4), _dims(input_dims), _dims(output_dims), _arr(data))


def strided_slice_record(input_dims, begin, stride, output_dims, data) -> str:
    return record("arm_strided_slice_s8", _dims(input_dims), _dims(begin), _dims(stride), _dims(output_dims),
                  _arr(data))


def mean_record(input_offset: int, input_dims, axis, output_dims, out_offset: int, out_mult: int, out_shift: int,
                data) -> str:
    return record("arm_mean_s8", _ints(input_offset), _dims(input_dims), _dims(axis), _dims(output_dims),
                  _ints(out_offset, out_mult, out_shift), _arr(data))


def reshape_record(data) -> str:
    return record("arm_reshape_s8", _arr(data))


def unary_record(name: str, scalars: Sequence[int], data) -> str:
    return record(name, _ints(*scalars), _arr(data))


# ---- int16-activation kernels (A16W8) and TRANSPOSE_CONV ----------------------------------------
# Depthwise, fully connected and pooling int16 records have the int8 layout (depthwise_record,
# fc_record, pool_record); the driver reads int16 activations and an int64 bias for the _s16 names.

BIAS_INT64, BIAS_INT32, NO_BIAS_STRUCT = 0, 1, -1


@dataclass
class ConvS16Call(ConvCall):
    """An int16 CONV_2D / DEPTHWISE_CONV_2D call. The offsets are passed but not read by the kernels.

    bias_kind says how the bias reaches the kernel: an int64 or int32 cmsis_nn_bias_data (its data
    NULL when bias is None), or a NULL struct pointer (NO_BIAS_STRUCT).
    """
    bias_kind: int = BIAS_INT64


def conv_s16_record(name: str, c: ConvS16Call) -> str:
    return record(name, c.conv_params(), c.dims(), _ints(c.bias_kind), c.tensors())


@dataclass
class TransposeConvCall(ConvCall):
    """A TRANSPOSE_CONV call; padding is the leading padding, padding_offsets the extra trailing one."""
    padding_offsets: tuple[int, int] = (0, 0)  # (w, h)

    def transpose_conv_params(self) -> list[str]:
        return _ints(self.input_offset, self.output_offset, *self.stride, *self.padding, *self.padding_offsets,
                     *self.dilation, *self.act)


def transpose_conv_record(name: str, c: TransposeConvCall) -> str:
    return record(name, c.transpose_conv_params(), c.dims(), c.tensors())


def transpose_conv_sizer_record(name: str, c: TransposeConvCall) -> str:
    return record(name, c.transpose_conv_params(), c.dims())
# ==== int16 element-wise, activation, softmax, data movement and conversion kernels ============
# add_sub_record, mul_record and unary_record above take any name and serve the int16 entries too.

def f32_bits(values) -> np.ndarray:
    """The int32 reading of float32 values' bits: how floats travel through the driver."""
    return np.asarray(values, dtype=np.float32).reshape(-1).view(np.int32).astype(np.int64)


def f32_from_bits(bits) -> np.ndarray:
    return np.asarray(bits, dtype=np.int64).astype(np.int32).view(np.float32)


def softmax_s8_s16_record(rows: int, row_size: int, mult: int, shift: int, diff_min: int, data) -> str:
    return record("arm_softmax_s8_s16", _ints(rows, row_size, mult, shift, diff_min), _arr(data))


def softmax_s16_record(rows: int, row_size: int, mult: int, shift: int, exp_lut, recip_lut, data) -> str:
    """An empty (or None) LUT is passed to the kernel as NULL."""
    return record("arm_softmax_s16", _ints(rows, row_size, mult, shift), _arr(exp_lut), _arr(recip_lut), _arr(data))


def quantize_f32_s16_record(zero_point: int, scale: float, values) -> str:
    return record("arm_quantize_f32_s16", _ints(zero_point, int(f32_bits([scale])[0])), _arr(f32_bits(values)))


def dequantize_s16_f32_record(zero_point: int, scale: float, data) -> str:
    return record("arm_dequantize_s16_f32", _ints(zero_point, int(f32_bits([scale])[0])), _arr(data))


def pad_s16_record(pad_value: int, input_dims, pre, post, data) -> str:
    return record("arm_pad_s16", _ints(pad_value), _dims(input_dims), _dims(pre), _dims(post), _arr(data))


def transpose_s16_record(num_dims: int, perm: Sequence[int], input_dims, output_dims, data) -> str:
    perm4 = list(perm) + [0] * (4 - len(perm))
    return record("arm_transpose_s16", _ints(num_dims, *perm4), _dims(input_dims), _dims(output_dims), _arr(data))


def strided_slice_s16_record(input_dims, begin, stride, output_dims, data) -> str:
    return record("arm_strided_slice_s16", _dims(input_dims), _dims(begin), _dims(stride), _dims(output_dims),
                  _arr(data))


def mean_s16_record(input_offset: int, input_dims, axis, output_dims, out_offset: int, out_mult: int, out_shift: int,
                    data) -> str:
    return record("arm_mean_s16", _ints(input_offset), _dims(input_dims), _dims(axis), _dims(output_dims),
                  _ints(out_offset, out_mult, out_shift), _arr(data))


def concatenation_s16_record(axis: int, output_shape: Sequence[int], concat_dims: Sequence[int], inputs) -> str:
    return record("arm_concatenation_s16", _ints(axis), _arr(output_shape), _arr(concat_dims),
                  *[_arr(x) for x in inputs])

# SPDX-License-Identifier: Apache-2.0
"""Operand declarations the variants share, and the dtype facts their rules read. int16 activations are
symmetric in LiteRT (zero point 0); float operands carry no quantization the variants read."""

from __future__ import annotations

import numpy as np

from helia_aot.ir.graph import Tensor
from helia_aot.ops.base import INDEX, Operand, Source

FLOAT_DTYPES = ("float16", "float32")


def int8_act(role: str = "input", **rules) -> Operand:
    return Operand(role, ("int8",), quantized=True, **rules)


def int16_act(role: str = "input", **rules) -> Operand:
    return Operand(role, ("int16",), quantized=True, symmetric=True, **rules)


def int16_offset_act(role: str = "input", **rules) -> Operand:
    """int16 with any zero point: LiteRT's int16 kernels check it is 0 and refuse the rest, TFLM's (ADD, SUB,
    SUM, LEAKY_RELU, QUANTIZE, DEQUANTIZE; RELU6 in the input's quantization) subtract it as the int8 ones do,
    and so do these variants."""
    return Operand(role, ("int16",), quantized=True, **rules)


def weights(role: str = "filter", per_channel_axis: int | None = 0, zero_point_source: Source | None = None) -> Operand:
    """Constant symmetric int8 weights (zero_point_source: the zero-point rule's provenance where it is not the
    convolutions' LiteRT check)."""
    return Operand(role, ("int8",), constant=True, quantized=True, symmetric=True, per_channel_axis=per_channel_axis,
                   sources=(("zero point 0", zero_point_source),) if zero_point_source else ())


def bias(*dtypes: str) -> Operand:
    return Operand("bias", dtypes, optional=True, constant=True)


def const_ints(role: str) -> Operand:
    return Operand(role, INDEX, constant=True)


def fp32(role: str = "input", **rules) -> Operand:
    """A float32 tensor (activations: no quantization parameters are read)."""
    return Operand(role, ("float32",), **rules)


def fp32_const(role: str) -> Operand:
    """Constant float32 weights."""
    return Operand(role, ("float32",), constant=True)


def fp32_bias() -> Operand:
    return Operand("bias", ("float32",), optional=True, constant=True)


def f16(role: str = "input", **rules) -> Operand:
    """A float16 operand (data, weights or bias of a native FP16 variant)."""
    return Operand(role, ("float16",), **rules)


def is_float(t: Tensor) -> bool:
    """A float tensor: computed in float, whatever quantization metadata an exporter left on it."""
    return t.dtype in FLOAT_DTYPES


def dtype_range(dtype: str) -> tuple[int, int]:
    """The integer range of an activation dtype (int8 or int16)."""
    info = np.iinfo(dtype)
    return int(info.min), int(info.max)

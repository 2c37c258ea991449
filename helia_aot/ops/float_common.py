# SPDX-License-Identifier: Apache-2.0
"""What the float32 variants share: operand declarations, LiteRT's float activation ranges as C
literals, and the strides of the inline broadcasting loop.

Float variants compute what LiteRT's float reference kernels compute, in float32, without any
quantization: they call ns-cmsis-nn's `_f32` entries where those do the same arithmetic (up to the
order of floating-point sums) and inline C where there is no entry or the entry approximates."""

from __future__ import annotations

import numpy as np

from ..codegen import c_float
from .base import Lowered, OpContext, Operand, Variant

F32 = ("float32",)
# LiteRT's float activation range for NONE: [lowest, max] of float, so +-inf clamp to +-FLT_MAX.
FLT_MAX = float(np.finfo(np.float32).max)
_ACTIVATIONS = {"NONE": (-FLT_MAX, FLT_MAX), "RELU": (0.0, FLT_MAX), "RELU6": (0.0, 6.0),
                "RELU_N1_TO_1": (-1.0, 1.0)}


def fp32(role: str = "input", **rules) -> Operand:
    """A float32 tensor (activations: no quantization parameters are read)."""
    return Operand(role, F32, **rules)


def fp32_const(role: str) -> Operand:
    """Constant float32 weights."""
    return Operand(role, F32, constant=True)


def fp32_bias() -> Operand:
    return Operand("bias", F32, optional=True, constant=True)


def float_activation(ctx: OpContext) -> tuple[str, str]:
    """CalculateActivationRange<float> of the fused activation, as C float literals (min, max)."""
    act = ctx.options("fused_activation_function", "NONE")
    if act not in _ACTIVATIONS:
        raise ctx.error(f"fused activation {act} is not supported (supported: NONE, RELU, RELU6, RELU_N1_TO_1)")
    low, high = _ACTIVATIONS[act]
    return c_float(low), c_float(high)


def has_fused_activation(ctx: OpContext) -> bool:
    return ctx.options("fused_activation_function", "NONE") != "NONE"


def broadcast_strides(shape, out_shape) -> tuple[int, int, int, int]:
    """Element strides of a row-major tensor `shape` read at 4-D output coordinates (n, h, w, c):
    0 along every axis it is broadcast on (NumPy rules, ranks aligned on the right)."""
    dims = [1] * (4 - len(shape)) + [int(d) for d in shape]
    out = [1] * (4 - len(out_shape)) + [int(d) for d in out_shape]
    strides, step = [0, 0, 0, 0], 1
    for axis in range(3, -1, -1):
        strides[axis] = step if dims[axis] == out[axis] and dims[axis] != 1 else 0
        step *= dims[axis]
    return tuple(strides)  # type: ignore[return-value]


def binary_params(ctx: OpContext, operator: str) -> dict:
    """ADD/SUB/MUL float32: the `_f32` entry's arguments for equal shapes, the inline loop's strides
    when broadcasting."""
    a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
    act_min, act_max = float_activation(ctx)
    out = [1] * (4 - len(y.shape)) + [int(d) for d in y.shape]
    return dict(input1=a.index, input2=b.index, output=y.index, operator=operator, size=y.num_elements,
                broadcast=tuple(a.shape) != tuple(b.shape), output_dims=tuple(out),
                strides1=broadcast_strides(a.shape, y.shape), strides2=broadcast_strides(b.shape, y.shape),
                act_min=act_min, act_max=act_max)


def binary_lowered(ctx: OpContext, operator: str) -> Lowered:
    p = binary_params(ctx, operator)
    entry = ctx.variant.entries[0]
    if p["broadcast"]:
        return Lowered(entry=None, params=p, fixed={"implementation": "inline", "why": "broadcast"})
    return Lowered(entry=entry, params=p)


def activation_lowered(ctx: OpContext, kind: str, param: float = 0.0) -> Lowered:
    """An element-wise float32 activation on arm_nn_activation_f32 (ARM_NN_FLT_ACT_<kind>)."""
    x, y = ctx.inp(0), ctx.out(0)
    return Lowered(entry="arm_nn_activation_f32",
                   params=dict(input=x.index, output=y.index, size=y.num_elements, type=f"ARM_NN_FLT_ACT_{kind}",
                               param=c_float(param)))


def activation_variant(notes: tuple[str, ...] = ()) -> Variant:
    return Variant("float32", inputs=(fp32(),), outputs=(fp32("output"),), entries=("arm_nn_activation_f32",),
                   template="activation_f32.c.j2", lower="lower_float32",
                   notes=("input and output shapes equal",) + notes)

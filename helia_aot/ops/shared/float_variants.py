# SPDX-License-Identifier: Apache-2.0
"""What the float variants share: operand declarations, LiteRT's float activation ranges as C
expressions of the output's type, the strides of the inline broadcasting loop, and the declarations of
the float16 (native FP16) and hybrid (dynamic-range) variants.

Float variants compute what LiteRT's float reference kernels compute, in float32 (float16 for the native
FP16 variants), without any quantization: they call ns-cmsis-nn's `_f32` / `_f16` entries where those do
the same arithmetic (up to the order of floating-point sums) and inline C where there is no entry or the
entry approximates. Hybrid variants take float32 activations and int8 weights, as LiteRT's hybrid kernels."""

from __future__ import annotations

import numpy as np

from helia_aot.emit.c_syntax import c_float
from helia_aot.ir.graph import Tensor
from helia_aot.ops.base import Lowered, OpContext, Operand, Variant

F32 = ("float32",)
# LiteRT's float activation range for NONE: [lowest, max] of float, so +-inf clamp to +-FLT_MAX.
FLT_MAX = float(np.finfo(np.float32).max)
# CalculateActivationRange<float>, +-inf on the sides an activation leaves open: float32 clamps them at
# +-FLT_MAX (LiteRT's lowest / max), float16 at its finite extremes (ns-cmsis-nn's _f16 kernels), and
# LiteRT's hybrid kernels not at all.
_ACTIVATIONS = {"NONE": (-np.inf, np.inf), "RELU": (0.0, np.inf), "RELU6": (0.0, 6.0), "RELU_N1_TO_1": (-1.0, 1.0)}


def fp32(role: str = "input", **rules) -> Operand:
    """A float32 tensor (activations: no quantization parameters are read)."""
    return Operand(role, F32, **rules)


def fp32_const(role: str) -> Operand:
    """Constant float32 weights."""
    return Operand(role, F32, constant=True)


def fp32_bias() -> Operand:
    return Operand("bias", F32, optional=True, constant=True)


def activation_bounds(ctx: OpContext) -> tuple[float, float]:
    """The fused activation's float range (min, max), +-inf where it does not bound."""
    act = ctx.options("fused_activation_function", "NONE")
    if act not in _ACTIVATIONS:
        raise ctx.error(f"fused activation {act} is not supported (supported: NONE, RELU, RELU6, RELU_N1_TO_1)")
    return _ACTIVATIONS[act]


def float_activation(ctx: OpContext, out: Tensor | None = None) -> tuple[str, str]:
    """CalculateActivationRange<float> of the fused activation as C expressions of the output's type
    (min, max): float literals for float32, float16_t expressions for float16."""
    low, high = activation_bounds(ctx)
    if (out if out is not None else ctx.out(0)).dtype == "float16":
        return f16_literal(low), f16_literal(high)
    return c_float(max(low, -FLT_MAX)), c_float(min(high, FLT_MAX))


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
    """ADD/SUB/MUL float32 or float16: the `_f32` / `_f16` entry's arguments for equal shapes, the inline
    loop's strides when broadcasting."""
    a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
    act_min, act_max = float_activation(ctx)
    out = [1] * (4 - len(y.shape)) + [int(d) for d in y.shape]
    return dict(input1=a.index, input2=b.index, output=y.index, operator=operator, size=y.num_elements,
                broadcast=tuple(a.shape) != tuple(b.shape), output_dims=tuple(out),
                strides1=broadcast_strides(a.shape, y.shape), strides2=broadcast_strides(b.shape, y.shape),
                act_min=act_min, act_max=act_max)


def binary_lowered(ctx: OpContext, operator: str) -> Lowered:
    """The variant's elementwise entry for equal shapes (it takes no broadcasting); inline C otherwise, with
    the same per-element operation and clamp."""
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


# ---- float16 (native FP16): ns-cmsis-nn's _f16 entries, behind the FP16 gate ----

FLOAT16_SWITCH = "ARM_NN_ENABLE_F16"
F16_MAX = "ARM_NN_F16_FINITE_MAX"
F16_LOWEST = "ARM_NN_F16_FINITE_LOWEST"


def f16(role: str = "input", **rules) -> Operand:
    """A float16 operand (data, weights or bias of a native FP16 variant)."""
    return Operand(role, ("float16",), **rules)


def float16_variant(name: str = "float16", **fields) -> Variant:
    """A native FP16 variant: gated on the target's FP16 support, built with ARM_NN_ENABLE_F16."""
    return Variant(name, requires_fp16=True, switches=(FLOAT16_SWITCH,), lower="lower_float16", **fields)


def f16_literal(value: float) -> str:
    """A C expression of float16_t for a bound; infinities become the finite extremes, as ns-cmsis-nn's
    float16 kernels clamp (an FP16 overflow saturates there instead of becoming infinite)."""
    if value == np.inf:
        return F16_MAX
    if value == -np.inf:
        return F16_LOWEST
    if float(np.float16(value)) != value:
        raise ValueError(f"{value} is not a float16 value")
    text = repr(float(value))
    return f"(float16_t){text}f"


ACTIVATION_F16 = {"RELU": "ARM_NN_FLT_ACT_RELU", "RELU6": "ARM_NN_FLT_ACT_RELU6", "LOGISTIC": "ARM_NN_FLT_ACT_SIGMOID",
                  "TANH": "ARM_NN_FLT_ACT_TANH", "HARD_SWISH": "ARM_NN_FLT_ACT_HARDSWISH",
                  "LEAKY_RELU": "ARM_NN_FLT_ACT_LEAKY_RELU"}


def activation_f16_variant(*notes: str) -> Variant:
    return float16_variant(inputs=(f16(),), outputs=(f16("output"),), entries=("arm_nn_activation_f16",),
                           template="activation_f16.c.j2", notes=("input and output shapes equal",) + notes)


def activation_f16_lowering(ctx: OpContext, param: str = "(float16_t)0.0f") -> Lowered:
    """arm_nn_activation_f16 with the operator's activation type (act_param: LEAKY_RELU's alpha)."""
    x, y = ctx.inp(0), ctx.out(0)
    return Lowered(entry="arm_nn_activation_f16",
                   params=dict(input=x.index, output=y.index, size=y.num_elements,
                               type=ACTIVATION_F16[ctx.op.op_type], param=param))


# ---- hybrid (dynamic range): float32 data, int8 symmetric weights, float32 bias and output ----

def hybrid_variant(weights_operand: Operand, notes: tuple[str, ...], template: str) -> Variant:
    """LiteRT's dynamic-range form of a weighted operator: inline C, no kernel entry, every target."""
    return Variant("hybrid", inputs=(fp32(), weights_operand, fp32_bias()), outputs=(fp32("output"),),
                   template=template, lower="lower_hybrid", notes=notes)


def hybrid_activation(ctx: OpContext) -> tuple[str | None, str | None]:
    """The fused activation's float bounds as C literals; None where it does not clamp (LiteRT's NONE
    applies nothing, so infinities pass as they do there)."""
    low, high = activation_bounds(ctx)
    return (c_float(low) if np.isfinite(low) else None), (c_float(high) if np.isfinite(high) else None)

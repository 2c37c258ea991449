# SPDX-License-Identifier: Apache-2.0
"""What the float variants share: ADD / SUB / MUL on the `_f32` / `_f16` entries or the inline broadcasting
loop, the element-wise activations on arm_nn_activation_f32 / _f16, and the declarations of the float16
(native FP16) and hybrid (dynamic-range) variants.

Float variants compute what LiteRT's float reference kernels compute, in float32 (float16 for the native
FP16 variants), without any quantization: they call ns-cmsis-nn's `_f32` / `_f16` entries where those do
the same arithmetic (up to the order of floating-point sums) and inline C where there is no entry or the
entry approximates. Hybrid variants take float32 activations and int8 weights, as LiteRT's hybrid kernels."""

from __future__ import annotations

from helia_aot.emit.c_syntax import c_float
from helia_aot.ops.base import Lowered, OpContext, Operand, Variant
from helia_aot.ops.shared.binary_arith import PAST_FOUR_GROUPS, inline_broadcast_lowered
from helia_aot.ops.shared.broadcast import broadcast_strides, kernel_broadcast_dims
from helia_aot.ops.shared.checks import OUTPUT_SIZE_RULE
from helia_aot.ops.shared.fused_activation import float_activation
from helia_aot.ops.shared.operands import f16, fp32, fp32_bias


def binary_params(ctx: OpContext, operator: str) -> dict:
    """ADD/SUB/MUL float32 or float16: the `_f32` / `_f16` entry's arguments for equal shapes, the inline
    loop's strides over the merged (n, h, w, c) dims when broadcasting (output_dims None past four merged
    dimensions: binary_lowered then takes the any-rank loop)."""
    a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
    act_min, act_max = float_activation(ctx)
    dims = kernel_broadcast_dims(a.shape, b.shape)
    strides = (broadcast_strides(dims[0], dims[2]), broadcast_strides(dims[1], dims[2])) if dims else (None, None)
    return dict(input1=a.index, input2=b.index, output=y.index, operator=operator, size=y.num_elements,
                broadcast=tuple(a.shape) != tuple(b.shape), output_dims=dims[2] if dims else None,
                strides1=strides[0], strides2=strides[1], act_min=act_min, act_max=act_max)


def _any_rank_lowered(ctx: OpContext, p: dict) -> Lowered:
    """The same operation and clamp in the any-rank inline loop, as float32 or float16 (clamped in float16)."""
    ctype = "float" if ctx.out(0).dtype == "float32" else "float16_t"
    body = [f"const {ctype} lo = {p['act_min']};", f"const {ctype} hi = {p['act_max']};",
            f"{ctype} v = ({ctype})(a {p['operator']} b);", "v = (v < lo) ? lo : v;", "*out++ = (v > hi) ? hi : v;"]
    return inline_broadcast_lowered(ctx, body, ctype, ctype, f"{ctx.out(0).dtype} {ctx.op.op_type}: "
                                    f"{PAST_FOUR_GROUPS}", PAST_FOUR_GROUPS)


def binary_lowered(ctx: OpContext, operator: str) -> Lowered:
    """The variant's elementwise entry for equal shapes (it takes no broadcasting); inline C otherwise, with
    the same per-element operation and clamp: when broadcasting, or where the kernel library lacks the entry
    and the variant falls back to its inline C."""
    p = binary_params(ctx, operator)
    if p["output_dims"] is None:
        return _any_rank_lowered(ctx, p)
    if p["broadcast"]:
        return Lowered(entry=None, params=p, fixed={"implementation": "inline", "why": "broadcast"})
    entry = ctx.library_entry(ctx.variant.entries[0])
    if entry is None:
        return Lowered(entry=None, params=dict(p, missing=ctx.variant.entries[0], library=ctx.kernels.description),
                       fixed={"implementation": "inline",
                              "why": f"{ctx.kernels.description} has no {ctx.variant.entries[0]}"})
    return Lowered(entry=entry, params=p)


def activation_lowered(ctx: OpContext, kind: str, param: float = 0.0) -> Lowered:
    """An element-wise float32 activation on arm_nn_activation_f32 (ARM_NN_FLT_ACT_<kind>)."""
    x, y = ctx.inp(0), ctx.out(0)
    return Lowered(entry="arm_nn_activation_f32",
                   params=dict(input=x.index, output=y.index, size=y.num_elements, type=f"ARM_NN_FLT_ACT_{kind}",
                               param=c_float(param)))


def activation_variant(notes: tuple[str, ...] = ()) -> Variant:
    return Variant("float32", inputs=(fp32(),), outputs=(fp32("output"),), entries=("arm_nn_activation_f32",),
                   template="activation_f32.c.j2", lower="lower_float32", rules=(OUTPUT_SIZE_RULE,), notes=notes)


# ---- float16 (native FP16): ns-cmsis-nn's _f16 entries, behind the FP16 gate ----

FLOAT16_SWITCH = "ARM_NN_ENABLE_F16"


def float16_variant(name: str = "float16", **fields) -> Variant:
    """A native FP16 variant: gated on the target's FP16 support, built with ARM_NN_ENABLE_F16."""
    return Variant(name, requires_fp16=True, switches=(FLOAT16_SWITCH,), lower="lower_float16", **fields)


ACTIVATION_F16 = {"RELU": "ARM_NN_FLT_ACT_RELU", "RELU6": "ARM_NN_FLT_ACT_RELU6", "LOGISTIC": "ARM_NN_FLT_ACT_SIGMOID",
                  "TANH": "ARM_NN_FLT_ACT_TANH", "HARD_SWISH": "ARM_NN_FLT_ACT_HARDSWISH",
                  "LEAKY_RELU": "ARM_NN_FLT_ACT_LEAKY_RELU"}


def activation_f16_variant(*notes: str) -> Variant:
    return float16_variant(inputs=(f16(),), outputs=(f16("output"),), entries=("arm_nn_activation_f16",),
                           template="activation_f16.c.j2", rules=(OUTPUT_SIZE_RULE,), notes=notes)


def activation_f16_lowering(ctx: OpContext, param: str = "(float16_t)0.0f") -> Lowered:
    """arm_nn_activation_f16 with the operator's activation type (act_param: LEAKY_RELU's alpha)."""
    x, y = ctx.inp(0), ctx.out(0)
    return Lowered(entry="arm_nn_activation_f16",
                   params=dict(input=x.index, output=y.index, size=y.num_elements,
                               type=ACTIVATION_F16[ctx.op.op_type], param=param))


# ---- hybrid (dynamic range): float32 data, int8 symmetric weights, float32 bias and output ----

def hybrid_variant(weights_operand: Operand, notes: tuple[str, ...], template: str, rules: tuple = (),
                   own_entries: tuple[str, ...] = ()) -> Variant:
    """LiteRT's dynamic-range form of a weighted operator: inline C, no kernel library entry, every target;
    on cores with MVE the integer part may call our Helium kernels (`own_entries`)."""
    return Variant("hybrid", inputs=(fp32(), weights_operand, fp32_bias()), outputs=(fp32("output"),),
                   template=template, lower="lower_hybrid", notes=notes, rules=rules, own_entries=own_entries)


# SPDX-License-Identifier: Apache-2.0
"""Helpers shared by operator modules: quantization checks, padding, activation ranges, dims."""

from __future__ import annotations

import numpy as np

from helia_aot.library.ns_cmsis_nn_scratch import ConvGeometry
from helia_aot.ir.graph import Tensor
from helia_aot.ir.quant import activation_range, f32, quantize_multiplier
from helia_aot.ops.base import ANY, INDEX, ConstArray, Lowered, OpContext, OpLowering, Operand, Variant
from helia_aot.ops.shared.float_variants import (activation_f16_lowering, activation_f16_variant, activation_lowered,
                                        activation_variant, float_activation)


# Operand declarations the variants share. int16 activations are symmetric in LiteRT (zero point 0).
def int8_act(role: str = "input", **rules) -> Operand:
    return Operand(role, ("int8",), quantized=True, **rules)


def int16_act(role: str = "input", **rules) -> Operand:
    return Operand(role, ("int16",), quantized=True, symmetric=True, **rules)


def activation(dtype: str, role: str = "input", **rules) -> Operand:
    return int16_act(role, **rules) if dtype == "int16" else int8_act(role, **rules)


def weights(role: str = "filter", per_channel_axis: int | None = 0) -> Operand:
    """Constant symmetric int8 weights."""
    return Operand(role, ("int8",), constant=True, quantized=True, symmetric=True, per_channel_axis=per_channel_axis)


def bias(*dtypes: str) -> Operand:
    return Operand("bias", dtypes, optional=True, constant=True)


def const_ints(role: str) -> Operand:
    return Operand(role, INDEX, constant=True)


def require_same_quant(ctx: OpContext, a: Tensor, b: Tensor, what: str) -> None:
    if abs(a.quant.scale - b.quant.scale) > 1e-6 * max(abs(a.quant.scale), 1e-30) or \
            a.quant.zero_point != b.quant.zero_point:
        raise ctx.error(f"{what}: input and output must share scale and zero point "
                        f"(input {a.quant.scale:g}/{a.quant.zero_point}, output {b.quant.scale:g}/"
                        f"{b.quant.zero_point})", b)


# Operator option a graph rewrite sets (helia_aot.lowering.rewrites.fold_clamp): (lo, hi) in output codes, a clamp
# that followed the operator and now narrows its fused activation's range. Never in a model's options.
FOLDED_CLAMP = "helia_folded_clamp"


def fused_activation(ctx: OpContext, out: Tensor) -> tuple:
    """The fused activation's clamp range: integer codes for a quantized output (narrowed by a folded
    clamp); for a float16 or float32 one LiteRT's float range as C expressions of its type
    (shared.float_variants.float_activation)."""
    if is_float(out):
        return float_activation(ctx, out)
    act = ctx.options("fused_activation_function", "NONE")
    if act not in ("NONE", "RELU", "RELU6", "RELU_N1_TO_1"):
        raise ctx.error(f"fused activation {act} is not supported (supported: NONE, RELU, RELU6, RELU_N1_TO_1)")
    lo, hi = activation_range(act, out.quant.scale, out.quant.zero_point, *dtype_range(out.dtype))
    folded = ctx.options(FOLDED_CLAMP)
    if folded is not None:
        lo, hi = max(lo, int(folded[0])), min(hi, int(folded[1]))
    return lo, hi


def dtype_range(dtype: str) -> tuple[int, int]:
    """The integer range of an activation dtype (int8 or int16)."""
    info = np.iinfo(dtype)
    return int(info.min), int(info.max)


def output_size(padding: str, in_size: int, filter_size: int, stride: int, dilation: int = 1) -> int:
    eff = (filter_size - 1) * dilation + 1
    if padding == "SAME":
        return (in_size + stride - 1) // stride
    return (in_size - eff + stride) // stride


def pad_before(padding: str, in_size: int, filter_size: int, stride: int, dilation: int, out_size: int) -> int:
    """TFLite's ComputePaddingWithOffset: the smaller half goes before; the kernels take it."""
    if padding != "SAME":
        return 0
    eff = (filter_size - 1) * dilation + 1
    total = max((out_size - 1) * stride + eff - in_size, 0)
    return total // 2


def nhwc(shape) -> tuple[int, int, int, int]:
    """Any rank <= 4 shape as (n, h, w, c), padding on the left with 1s."""
    dims = [int(d) for d in shape]
    if len(dims) > 4:
        raise ValueError(shape)
    dims = [1] * (4 - len(dims)) + dims
    return tuple(dims)  # type: ignore[return-value]


def geometry(ctx: OpContext, in_hw, filter_hw, out_hw) -> ConvGeometry:
    sh, sw = int(ctx.options("stride_h", 1)), int(ctx.options("stride_w", 1))
    dh, dw = int(ctx.options("dilation_h_factor", 1)), int(ctx.options("dilation_w_factor", 1))
    padding = ctx.options("padding", "VALID")
    ph = pad_before(padding, in_hw[0], filter_hw[0], sh, dh, out_hw[0])
    pw = pad_before(padding, in_hw[1], filter_hw[1], sw, dw, out_hw[1])
    return ConvGeometry(stride_w=sw, stride_h=sh, pad_w=pw, pad_h=ph, dilation_w=dw, dilation_h=dh)


def requantization_kind(multipliers, shifts) -> str:
    """rshift_only when every channel has a right shift or a zero multiplier (the plan's field)."""
    ok = all(int(s) < 0 or int(m) == 0 for m, s in zip(multipliers, shifts))
    return "rshift_only" if ok else "general"


POOL_RULES = ("input 4-D NHWC", "input and output share scale and zero point",
              "output shape from filter, strides and padding", "fused activation NONE, RELU, RELU6 or RELU_N1_TO_1")
FLOAT_POOL_RULES = ("input 4-D NHWC", "output shape from filter, strides and padding",
                    "fused activation NONE, RELU, RELU6 or RELU_N1_TO_1")
BINARY_RULES = ("input shapes broadcast (NumPy rules) up to rank 4",
                "fused activation NONE, RELU, RELU6 or RELU_N1_TO_1")


FLOAT_DTYPES = ("float16", "float32")


def is_float(t: Tensor) -> bool:
    """A float tensor: computed in float, whatever quantization metadata an exporter left on it."""
    return t.dtype in FLOAT_DTYPES


def pool_validate(ctx: OpContext) -> None:
    x, y = ctx.inp(0), ctx.out(0)
    if len(x.shape) != 4:
        raise ctx.error(f"input must be 4-D NHWC, got {list(x.shape)}", x)
    if not is_float(x):
        require_same_quant(ctx, x, y, f"{ctx.variant.name} pooling")
    fused_activation(ctx, y)
    pad = ctx.options("padding", "VALID")
    oh = output_size(pad, x.shape[1], ctx.options("filter_height", 1), ctx.options("stride_h", 1))
    ow = output_size(pad, x.shape[2], ctx.options("filter_width", 1), ctx.options("stride_w", 1))
    check_window_extent(ctx, oh, ctx.options("filter_height", 1), ctx.options("stride_h", 1))
    check_window_extent(ctx, ow, ctx.options("filter_width", 1), ctx.options("stride_w", 1))
    if tuple(y.shape) != (x.shape[0], oh, ow, x.shape[3]):
        raise ctx.error(f"output shape {list(y.shape)} does not match the computed "
                        f"{[x.shape[0], oh, ow, x.shape[3]]}", y)


def pool_params(ctx: OpContext) -> dict:
    x, y = ctx.inp(0), ctx.out(0)
    in_dims, out_dims = nhwc(x.shape), nhwc(y.shape)
    fh, fw = int(ctx.options("filter_height", 1)), int(ctx.options("filter_width", 1))
    sh, sw = int(ctx.options("stride_h", 1)), int(ctx.options("stride_w", 1))
    pad = ctx.options("padding", "VALID")
    act_min, act_max = fused_activation(ctx, y)
    return dict(
        input=x.index, output=y.index, input_dims=in_dims, output_dims=out_dims,
        filter_dims=(1, fh, fw, 1), stride=(sw, sh),
        padding=(pad_before(pad, in_dims[2], fw, sw, 1, out_dims[2]), pad_before(pad, in_dims[1], fh, sh, 1, out_dims[1])),
        act_min=act_min, act_max=act_max,
    )


def broadcast_shape(a, b):
    ra, rb = list(a), list(b)
    n = max(len(ra), len(rb))
    ra, rb = [1] * (n - len(ra)) + ra, [1] * (n - len(rb)) + rb
    out = []
    for x, y in zip(ra, rb):
        if x != y and 1 not in (x, y):
            return None
        out.append(max(x, y))
    return tuple(out)


def kernel_broadcast_dims(a, b) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The (n, h, w, c) dims a broadcasting kernel (arm_{add,sub,mul}_s8/s16) gets for inputs of shapes a
    and b: dimensions of size 1 on both sides dropped, neighbours broadcast the same way merged (the
    data stays contiguous), the result right-aligned. ns-cmsis-nn's broadcast walk is wrong for one
    layout: an input with one value per batch (1 x 1 x 1 per batch, N > 1) against one with H > 1,
    W = 1 on both sides and C > 1 steps the single value back one element each row. That layout
    needs a dimension of 1 on both sides between two broadcast ones, which this form never has; equal
    inputs come out equal (the element-wise entry then serves)."""
    out = broadcast_shape(a, b)
    ra = [1] * (len(out) - len(a)) + [int(d) for d in a]
    rb = [1] * (len(out) - len(b)) + [int(d) for d in b]
    groups: list[list] = []  # [kind, size of a, size of b]
    for da, db in zip(ra, rb):
        if da == 1 and db == 1:
            continue
        kind = "same" if da == db else ("a1" if da == 1 else "b1")
        if groups and groups[-1][0] == kind:
            groups[-1][1] *= da
            groups[-1][2] *= db
        else:
            groups.append([kind, da, db])
    dims_a = nhwc([g[1] for g in groups])
    dims_b = nhwc([g[2] for g in groups])
    return dims_a, dims_b, tuple(max(x, y) for x, y in zip(dims_a, dims_b))


def binary_validate(ctx: OpContext) -> None:
    a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
    fused_activation(ctx, y)
    shape = broadcast_shape(a.shape, b.shape)
    if shape is None:
        raise ctx.error(f"input shapes {list(a.shape)} and {list(b.shape)} do not broadcast", b)
    if len(shape) > 4:
        raise ctx.error(f"broadcasting is supported up to rank 4, got rank {len(shape)}", y)
    if tuple(y.shape) != shape:
        raise ctx.error(f"output shape {list(y.shape)} does not match the broadcast shape {list(shape)}", y)


def add_sub_params(ctx: OpContext) -> dict:
    """TFLite's int8 ADD/SUB rescaling: both inputs to twice the larger scale, 20 bits of headroom."""
    a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
    left_shift = 20
    twice_max = 2.0 * max(float(a.quant.scale), float(b.quant.scale))
    m1, s1 = quantize_multiplier(float(a.quant.scale) / twice_max)
    m2, s2 = quantize_multiplier(float(b.quant.scale) / twice_max)
    mo, so = quantize_multiplier(twice_max / ((1 << left_shift) * float(y.quant.scale)))
    act_min, act_max = fused_activation(ctx, y)
    dims_a, dims_b, dims_out = kernel_broadcast_dims(a.shape, b.shape)
    return dict(
        input1=a.index, input2=b.index, output=y.index,
        input1_dims=dims_a, input2_dims=dims_b, output_dims=dims_out,
        broadcast=dims_a != dims_b, size=y.num_elements,
        input1_offset=-a.quant.zero_point, input1_mult=m1, input1_shift=s1,
        input2_offset=-b.quant.zero_point, input2_mult=m2, input2_shift=s2,
        left_shift=left_shift, out_offset=y.quant.zero_point, out_mult=mo, out_shift=so,
        act_min=act_min, act_max=act_max,
    )


def alias_validate(ctx: OpContext) -> None:
    x, y = ctx.inp(0), ctx.out(0)
    if x is None:
        raise ctx.error("has no data input")
    if x.dtype != y.dtype:
        raise ctx.error(f"input dtype {x.dtype} and output dtype {y.dtype} differ", y)
    if x.num_elements != y.num_elements:
        raise ctx.error(f"output shape {list(y.shape)} holds {y.num_elements} elements, the input "
                        f"{list(x.shape)} holds {x.num_elements}", y)
    if not is_float(x) and x.quant != y.quant and x.quant is not None and y.quant is not None and \
            (x.quant.scales != y.quant.scales or x.quant.zero_points != y.quant.zero_points):
        raise ctx.error("a reshape cannot change quantization parameters", y)


def unary_validate(ctx: OpContext, same_quant: bool = False) -> None:
    x, y = ctx.inp(0), ctx.out(0)
    if tuple(x.shape) != tuple(y.shape):
        raise ctx.error(f"output shape {list(y.shape)} differs from the input shape {list(x.shape)}", y)
    if same_quant:
        require_same_quant(ctx, x, y, ctx.op.op_type)


def constant_ints(ctx: OpContext, k: int, role: str) -> list[int]:
    t = ctx.inp(k)
    if t is None or not t.is_constant:
        raise ctx.error(f"{role} (input {k}) must be a constant tensor", t,
                        "Export the model with static shapes so this input is folded to a constant")
    return [int(v) for v in np.asarray(t.data).reshape(-1).tolist()]


def lut_from_function(ctx: OpContext, fn) -> np.ndarray:
    """256-entry int8 table: out[q + 128] = quantize(fn(dequantize(q))), float32 math like TFLite's
    LUT kernels (round half away from zero, clamp to int8)."""
    x, y = ctx.inp(0), ctx.out(0)
    q = np.arange(-128, 128, dtype=np.int32)
    real = np.float32(x.quant.scale) * (q - x.quant.zero_point).astype(np.float32)
    transformed = fn(real.astype(np.float32)).astype(np.float32)
    scaled = transformed * np.float32(1.0 / np.float32(y.quant.scale))
    rounded = np.sign(scaled) * np.floor(np.abs(scaled) + np.float32(0.5))
    return np.clip(rounded.astype(np.int64) + y.quant.zero_point, -128, 127)


class AliasLowering(OpLowering):
    """RESHAPE, SQUEEZE, EXPAND_DIMS: row-major layout is unchanged, so the output aliases the
    input: no code, no copy. Subclasses name their op_types."""

    variants = (
        Variant("any", inputs=(Operand("input", ANY), Operand("shape", INDEX, optional=True)),
                outputs=(Operand("output", ANY),),
                notes=("output dtype, element count and quantization equal the input's",)),
    )

    def validate(self, ctx: OpContext) -> None:
        alias_validate(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        return Lowered(template=None, alias=True, params=dict(input=ctx.inp(0).index, output=ctx.out(0).index))

    def fold(self, ctx: OpContext):
        return [np.asarray(ctx.inp(0).data).reshape(ctx.out(0).shape)]


class ClampLowering(OpLowering):
    """RELU and RELU6, int8: arm_clamp_s8 when the scales match, else arm_requantize_s8_s8 then an
    in-place clamp; int16 likewise on the s16 entries, RELU in one arm_relu_s16 pass. Subclasses name
    their op_types and `activation`."""

    activation = ""
    variants = (
        Variant("int8", inputs=(int8_act(),), outputs=(int8_act("output"),),
                entries=("arm_clamp_s8", "arm_requantize_s8_s8"), template="clamp.c.j2",
                notes=("input and output shapes equal",)),
        Variant("int16", inputs=(int16_act(),), outputs=(int16_act("output"),),
                entries=("arm_clamp_s16", "arm_requantize_s16_s16", "arm_relu_s16"), template="clamp_s16.c.j2",
                lower="lower_int16", notes=("input and output shapes equal",)),
        activation_variant(),
        # -- float16 (native FP16) --
        activation_f16_variant(),
    )

    def validate(self, ctx: OpContext) -> None:
        unary_validate(ctx)

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        act_min, act_max = activation_range(self.activation, y.quant.scale, y.quant.zero_point, *dtype_range(y.dtype))
        same = x.quant.scale == y.quant.scale and x.quant.zero_point == y.quant.zero_point
        mult, shift = quantize_multiplier(float(x.quant.scale) / float(y.quant.scale))
        return Lowered(entry="arm_clamp_s8" if same else "arm_requantize_s8_s8",
                       params=dict(input=x.index, output=y.index, size=y.num_elements, requantize=not same,
                                   mult=mult, shift=shift, input_zp=x.quant.zero_point,
                                   output_zp=y.quant.zero_point, act_min=act_min, act_max=act_max))

    def lower_int16(self, ctx: OpContext) -> Lowered:
        """LiteRT's int16 ReluX: requantize by input/output scale (a float32 quotient), clamp to the
        activation's range. Equal scales: a clamp alone. RELU's range starts at the output zero point
        (0), which is exactly arm_relu_s16's lower bound, so it needs one pass."""
        x, y = ctx.inp(0), ctx.out(0)
        act_min, act_max = activation_range(self.activation, y.quant.scale, 0, *dtype_range("int16"))
        if x.quant.scale == y.quant.scale:
            entry = "arm_clamp_s16"
        else:
            entry = "arm_relu_s16" if self.activation == "RELU" else "arm_requantize_s16_s16"
        mult, shift = quantize_multiplier(f32(f32(x.quant.scale) / f32(y.quant.scale)))
        return Lowered(entry=entry,
                       params=dict(input=x.index, output=y.index, size=y.num_elements, mult=mult, shift=shift,
                                   act_min=act_min, act_max=act_max))

    def lower_float32(self, ctx: OpContext) -> Lowered:
        """arm_nn_activation_f32's RELU / RELU6: max(x, 0), min(max(x, 0), 6), exactly as LiteRT."""
        return activation_lowered(ctx, self.activation)

    # -- float16 (native FP16) --

    def lower_float16(self, ctx: OpContext) -> Lowered:
        return activation_f16_lowering(ctx)


def check_filter_rank(ctx: OpContext, w: Tensor) -> None:
    if len(w.shape) != 4:
        raise ctx.error("filter must be 4-D", w)


def check_window_extent(ctx: OpContext, out_size: int, filter_size: int, stride: int, dilation: int = 1) -> None:
    """The kernels index the input at out * stride + tap * dilation in int32 arithmetic."""
    extent = (max(out_size, 1) - 1) * stride + (filter_size - 1) * dilation
    if extent > (1 << 31) - 1:
        raise ctx.error(f"the window reaches input position {extent} (stride {stride}, dilation {dilation}, filter "
                        f"{filter_size}), past the kernels' int32 index arithmetic", None,
                        "Check the operator's strides and dilations (no exporter writes these)")


def windowed_output_shape(ctx: OpContext, x: Tensor, w: Tensor, out_channels: int) -> tuple:
    """NHWC output shape of a convolution-like window (padding, strides, dilations from options)."""
    pad = ctx.options("padding", "VALID")
    sizes = []
    for axis, name in ((1, "h"), (2, "w")):
        stride, dilation = ctx.options(f"stride_{name}", 1), ctx.options(f"dilation_{name}_factor", 1)
        sizes.append(output_size(pad, x.shape[axis], w.shape[axis], stride, dilation))
        check_window_extent(ctx, sizes[-1], w.shape[axis], stride, dilation)
    return (x.shape[0], sizes[0], sizes[1], out_channels)


def check_output_shape(ctx: OpContext, y: Tensor, expected: tuple) -> None:
    if tuple(y.shape) != tuple(expected):
        raise ctx.error(f"output shape {list(y.shape)} does not match the computed {list(expected)}", y)


def check_accumulator(ctx: OpContext, x: Tensor, w: Tensor, b: Tensor | None, channel_axis: int) -> None:
    """The kernels' accumulator cannot overflow: for every output channel, |bias| plus the largest
    input span times the sum of |weights| fits it (int32 for int8 inputs or an int32 bias, else int64).
    Exported models stay orders of magnitude below; a bias near the limit would overflow in C.
    Float and hybrid layers accumulate in float: nothing to check."""
    if x.dtype not in ("int8", "int16"):
        return
    span = 255 if x.dtype == "int8" else 1 << 15  # |q - zero point|; int16 is symmetric
    limit = (1 << 31) - 1 if x.dtype == "int8" or (b is not None and b.dtype == "int32") else (1 << 63) - 1
    weights = np.abs(np.asarray(w.data, dtype=np.int64))
    per_channel = np.moveaxis(weights, channel_axis, 0).reshape(weights.shape[channel_axis], -1)
    bound = [int(v) * span for v in per_channel.sum(axis=1).tolist()]
    if b is not None:
        bound = [v + abs(int(c)) for v, c in zip(bound, np.asarray(b.data).reshape(-1).tolist())]
    worst = max(range(len(bound)), key=bound.__getitem__, default=None)
    if worst is not None and bound[worst] > limit:
        raise ctx.error(f"output channel {worst} can accumulate {bound[worst]} (|bias| + input span x sum of "
                        f"|weights|), past the kernel's {'int32' if limit < 1 << 32 else 'int64'} accumulator",
                        b if b is not None else w, "Check the bias and weight values: no exporter writes these")


def offset_weight_sums(channel_weight_sums: np.ndarray, bias: np.ndarray | None, input_offset: int) -> np.ndarray:
    """What ns-cmsis-nn's MVE convolutions read from weight_sum_ctx, per output channel:
    bias + input_offset * (sum of that channel's weights), computed once at conversion instead of
    on the device (arm_convolve_weight_sum / arm_depthwise_convolve_weight_sum)."""
    sums = channel_weight_sums.astype(np.int64) * int(input_offset)
    if bias is not None:
        sums = sums + bias.astype(np.int64)
    return sums


# The largest left shift an int64-accumulator requantization takes: LiteRT's
# MultiplyByQuantizedMultiplier(int64) and ns-cmsis-nn's arm_nn_requantize_s64 shift right by
# 15 - shift and 14 - shift; a larger one is a shift by a negative count (undefined in C and C++).
S64_MAX_LEFT_SHIFT = 14


def check_s64_shifts(ctx: OpContext, shifts, out: Tensor) -> None:
    """Refuse an int16 layer whose requantization (input scale x weight scale / output scale) is 2^14 or
    more: no kernel computes it (LiteRT's own check allows shifts below 8). Only a degenerate output
    scale, e.g. calibrated on outputs a fused RELU zeroed, gets there."""
    worst = max(int(v) for v in shifts)
    if worst > S64_MAX_LEFT_SHIFT:
        raise ctx.error(f"requantization scale 2^{worst - 1} or more (input scale x weight scale / output scale "
                        f"{out.quant.scale:g}) is beyond the int16 kernels' int64 requantization (left shift at most "
                        f"{S64_MAX_LEFT_SHIFT}; LiteRT checks below 8)", out,
                        "Re-calibrate the layer: its output scale is degenerate")


def int64_bias(b: Tensor | None) -> list[ConstArray]:
    """The s16 kernels read an int64 bias: an int32 bias is widened once, at conversion."""
    if b is None or b.dtype == "int64":
        return []
    return [ConstArray("bias64", "int64_t", np.asarray(b.data, dtype=np.int64).reshape(-1),
                       f"bias '{b.name}' widened to int64 for the s16 kernel")]


# ---- int16 helpers: LiteRT's int16 Prepare arithmetic (ADD/SUB, LOGISTIC/TANH, SOFTMAX) ----

Q31_HALF = 1 << 30  # the fixed-point multiplier of 0.5 (or of 1.0 with shift 1)


def checked_log2(x: float) -> tuple[bool, int]:
    """TFLite's CheckedLog2, in float32 as it computes: (log2 of x rounds to an integer within 1e-3,
    that integer). Decides LiteRT's power-of-two ("POT") int16 paths."""
    x_log2 = np.float32(np.log(np.float32(x))) * (np.float32(1.0) / np.float32(np.log(np.float32(2.0))))
    rounded = np.float32(round_half_away(float(x_log2)))
    return bool(abs(np.float32(x_log2 - rounded)) < np.float32(1e-3)), int(rounded)


def round_half_away(x: float) -> float:
    """std::round on a double (half away from zero), exact for every double."""
    a = abs(x)
    r = float(np.floor(a))
    if a - r >= 0.5:
        r += 1.0
    return r if x >= 0 else -r


def add_sub_s16_params(ctx: OpContext) -> dict:
    """ADD/SUB int16 parameters for arm_elementwise_{add,sub}_s16 / arm_{add,sub}_s16.

    General scales (the converter writes pot_scale_int16 false): TFLite's rescaling with a left shift
    of 15, both inputs to twice the larger scale. pot_scale_int16 true with power-of-two scales selects
    LiteRT's narrow path instead: the input with the smaller scale is rounding-shifted right, added to
    the other as is, and the sum saturated. The s16 kernels compute that exactly with left shift 1 and
    multipliers 0.5 (shift -k for a right shift by k) on the inputs, 1.0 on the sum."""
    a, b, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
    op = ctx.op.op_type
    act_min, act_max = fused_activation(ctx, y)
    dims_a, dims_b, dims_out = kernel_broadcast_dims(a.shape, b.shape)
    p = dict(input1=a.index, input2=b.index, output=y.index,
             input1_dims=dims_a, input2_dims=dims_b, output_dims=dims_out,
             broadcast=dims_a != dims_b, size=y.num_elements, act_min=act_min, act_max=act_max)
    logs = [checked_log2(t.quant.scale) for t in (a, b, y)]
    if ctx.options("pot_scale_int16", False) is True and all(pot for pot, _ in logs):
        shifts = [logs[0][1] - logs[2][1], logs[1][1] - logs[2][1]]
        if 0 not in shifts or max(shifts) > 0 or min(shifts) < -31:
            raise ctx.error(f"pot_scale_int16 with power-of-two scales: one input must share the output scale and "
                            f"the other be no coarser (input scales 2^{logs[0][1]}, 2^{logs[1][1]}, output "
                            f"2^{logs[2][1]})", y, "Export with pot_scale_int16 false (general int16 scales)")
        if op == "ADD" and tuple(a.shape) != tuple(b.shape):
            raise ctx.error("pot_scale_int16 with power-of-two scales takes LiteRT's same-shape path, which does "
                            "not broadcast", b, "Export with pot_scale_int16 false (general int16 scales)")
        return dict(p, pot_scale=True, left_shift=1, input1_mult=Q31_HALF, input1_shift=shifts[0],
                    input2_mult=Q31_HALF, input2_shift=shifts[1], out_mult=Q31_HALF, out_shift=1)
    left_shift = 15
    twice_max = 2.0 * max(float(a.quant.scale), float(b.quant.scale))
    real_out = twice_max / ((1 << left_shift) * float(y.quant.scale))
    if op == "ADD" and real_out >= 1.0:
        raise ctx.error(f"output scale {y.quant.scale:g} is too fine for LiteRT's int16 ADD: twice the larger input "
                        f"scale over 2^15 x output scale must be below 1 (is {real_out:g})", y)
    m1, s1 = quantize_multiplier(float(a.quant.scale) / twice_max)
    m2, s2 = quantize_multiplier(float(b.quant.scale) / twice_max)
    mo, so = quantize_multiplier(real_out)
    return dict(p, pot_scale=False, left_shift=left_shift, input1_mult=m1, input1_shift=s1,
                input2_mult=m2, input2_shift=s2, out_mult=mo, out_shift=so)


def sigmoid_s16_input_scaling(ctx: OpContext, pot_left_shifts: tuple[int, ...]) -> tuple[int, int]:
    """LOGISTIC/TANH int16 input rescaling as LiteRT's Prepare computes it, for arm_logistic_s16 /
    arm_tanh_s16 (input_multiplier, input_left_shift). A power-of-two input scale whose shift
    12 + log2(scale) is in `pot_left_shifts` gives multiplier 0 (the kernel then uses 3 << shift);
    any other scale is brought to 1/(3 * 4096) with a multiplier in (16383.5, 32767] and a right shift."""
    x = ctx.inp(0)
    pot, log2 = checked_log2(x.quant.scale)
    if pot and 12 + log2 in pot_left_shifts:
        return 0, 12 + log2
    multiplier = float(x.quant.scale) * 4096.0 * 3.0
    shift = 0
    while multiplier <= 32767.0 / 2.0 and shift <= 30:
        shift += 1
        multiplier *= 2.0
    if multiplier >= 65536.0:
        # input * multiplier would overflow int32 in LiteRT's kernel and ours.
        raise ctx.error(f"int16 input scale {x.quant.scale:g} is too coarse: LiteRT's rescaling needs it below "
                        f"{65536.0 / 12288.0:g}", x)
    return int(multiplier), shift


def q15_output_rule(ctx: OpContext, exact: bool) -> None:
    """int16 LOGISTIC/TANH outputs are Q0.15: scale 2^-15 (LOGISTIC: exactly 1/32768; TANH: within
    CheckedLog2's tolerance), zero point 0 (checked by the operand rules)."""
    y = ctx.out(0)
    pot, log2 = checked_log2(y.quant.scale)
    if (exact and y.quant.scale != 1.0 / 32768) or not pot or log2 != -15:
        raise ctx.error(f"int16 output must have scale 1/32768 (has {y.quant.scale:g})", y)


def lut_s16(fn, input_scale: float, input_zp: int, output_scale: float, output_zp: int) -> np.ndarray:
    """TFLite's LUTPopulate<int16_t> with double arithmetic (LUTPopulateInt16<double>): 512 samples of
    fn over the int16 input range, each biased by half the interpolation error at its midpoint, and
    the end point: 513 entries that LUTLookup / ns-cmsis-nn interpolate with the low 7 bits."""
    input_min = input_scale * (-32768 - input_zp)
    input_max = input_scale * (32767 - input_zp)
    output_min = output_scale * (-32768 - output_zp)
    output_max = output_scale * (32767 - output_zp)
    steps = 512
    step = (input_max - input_min) / steps
    half_step = step / 2
    inv = 65536.0 / (output_max - output_min)
    table = np.empty(steps + 1, dtype=np.int64)
    for i in range(steps):
        val = fn(input_min + i * step)
        val_midpoint = fn(input_min + i * step + half_step)
        val_next = fn(input_min + (i + 1) * step)
        sample = round_half_away(val * inv)
        midpoint_interp = round_half_away((val_next * inv + round_half_away(val * inv)) / 2)
        midpoint_err = midpoint_interp - round_half_away(val_midpoint * inv)
        bias = round_half_away(midpoint_err / 2)
        table[i] = int(min(max(sample - bias, -32768.0), 32767.0))
    table[steps] = int(min(max(round_half_away(fn(input_max) * inv), -32768.0), 32767.0))
    return table

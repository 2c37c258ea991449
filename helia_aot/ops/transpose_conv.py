# SPDX-License-Identifier: Apache-2.0
"""TRANSPOSE_CONV: int8 on arm_transpose_conv_s8; int16 (A16W8) as inline C, because ns-cmsis-nn
v7.29.2 has no s16 transposed convolution (with the int64 accumulator, on cores with MVE, our Helium
helia_mve_transpose_conv_s16, which computes the same). The inline arithmetic follows the reference kernels:
an int64 accumulator rescaled with the multiplier rounded to 16 bits, or (int8, and int16 with a
declared int32 bias) an int32 accumulator rescaled with the doubling high multiply. float32 and float16
run on arm_transpose_conv_wrapper_f32 / _f16, which scatter into any output, bounds-checked. ns-cmsis-nn
7.29.2's float kernels add padding_offsets to every output position they scatter to, which the references
have no term for (a SAME geometry with an odd total padding, e.g. 3x3 at stride 2, came out one row and
column off): on that library the call passes none, the one call it computes right for every geometry.

Output size. TFLM's Prepare takes the height and width from the output tensor and has no size check: it
computes the padding as a forward convolution of the output (ComputePaddingHeightWidth(stride, 1, H_out,
W_out, filter, padding): conv = ComputeOutSize(padding, H_out, K, s) in C's truncating division, total =
max(0, (conv - 1) * s + K - H_out), leading pad total / 2), for SAME and VALID alike, and its reference
kernels scatter input pixel i to out = i * s - pad + k, skipping positions outside the output. So any
output size runs: a smaller one is cropped at the end, a larger one has positions no input reaches, which
get the bias, requantized and clamped. LiteRT accepts only sizes whose forward convolution gives the
input's size; the module computes TFLM's padding (the same as LiteRT's on those sizes) and the same
outputs for every size. Not for float16 (no reference runs a float16 TRANSPOSE_CONV) nor int16 with a
declared int32 bias (TFLM's Eval reads that bias as int64, past the tensor), which keep LiteRT's sizes.

arm_transpose_conv_s8 keeps a rolling window of output rows that ends at (I - 1) * s + max(K, s);
an output beyond that takes the inline path, and so does, on ns-cmsis-nn, a padding its kernel gets
wrong (a top padding not a multiple of the stride, e.g. a 4x4 filter at stride 2 SAME, or an output
cropped below I * s) or an output size LiteRT refuses (its kernel is checked on LiteRT's sizes only). The
portable arm_transpose_conv_s8 gathers each output from its taps, bounds-checked: any size.

The module keeps the output tensor's declared shape, as TFLM's Prepare does (it never reads output_shape);
LiteRT resizes the output to output_shape, another interface than the model declares. So a constant
output_shape naming another shape is not read (the outputs are TFLM's). output_shape may be a run-time input:
the run returns an error status when the given shape differs from the output's, on every output size (a
caller passing another shape asks for an output the module does not have).

Each rule and the reference check it mirrors (LiteRT transpose_conv.cc Prepare, TFLM transpose_conv.cc
Prepare): 4-D input and filter, and the filter's input channels equal to the input's, are LiteRT's
TF_LITE_ENSURE checks (TFLM's reference kernel asserts the same with MatchingDim); the filter's output
channels and the batch equal to the output's are the reference kernels' MatchingDim (TFLM sizes its
per-channel data by the filter's output channels); output_shape's 4 values are LiteRT's
TF_LITE_ENSURE_EQ(NumElements(output_shape), 4); the fused activation is the one both apply; the output size
is TFLM's (no check, the padding computed on the output)."""

from __future__ import annotations

import numpy as np

from helia_aot.emit.c_syntax import c_type
from helia_aot.ir.quant import per_channel_multipliers
from helia_aot.ops.base import (INDEX, ConstArray, Lowered, OpContext, OpLowering, Operand, Rule, Variant, helia_limit,
                                litert, register, tflm, undefined)
from helia_aot.ops.shared.accumulator import (ACCUMULATOR_RULE, S64_SHIFT_RULE, check_accumulator, check_s64_shifts,
                                              requantization_kind)
from helia_aot.ops.shared.checks import constant_ints
from helia_aot.ops.shared.float_variants import float16_variant
from helia_aot.ops.shared.fused_activation import ACTIVATION_RULE, fused_activation
from helia_aot.ops.shared.operands import (bias, f16, fp32, fp32_bias, fp32_const, int8_act, int16_act,
                                           weights)
from helia_aot.ops.shared.window import (FILTER_RANK_RULE, WINDOW_EXTENT_RULE, check_filter_rank, check_window_extent,
                                        output_size)

# int32 as both references read it; constant or a run-time input (see the module docstring).
_OUTPUT_SHAPE = Operand("output_shape", INDEX)

OUTPUT_SHAPE = Rule("output_shape 4 values", litert("transpose_conv.cc Prepare",
                                                    "TF_LITE_ENSURE_EQ(NumElements(output_shape), 4)",
                                                    "disregards output_shape (it takes the output tensor's)"))
RANK = Rule("input and output 4-D NHWC", litert("transpose_conv.cc Prepare",
                                                "TF_LITE_ENSURE_EQ(NumDimensions(input), 4)"))
CHANNELS = Rule("filter [C_out, H, W, C_in]: C_in the input's channels, C_out and the batch the output's", litert(
    "transpose_conv.cc Prepare", "TF_LITE_ENSURE_EQ(SizeOfDimension(input, 3), SizeOfDimension(weights, 3)); C_out "
    "and the batch are the reference kernels' MatchingDim (TFLM sizes its per-channel data by C_out)"))
STRIDES = Rule("strides at least 1", helia_limit("a stride below 1 has no transposed convolution (the verifier "
                                                 "refuses it first)"))
GEOMETRY = Rule("any output height and width: the padding is a forward convolution's of the output, outputs no "
                "input reaches get the bias", tflm(
                    "transpose_conv.cc Prepare / CalculateOpData", "height and width from the output tensor, no size "
                    "check; ComputePaddingHeightWidth(stride, 1, out_h, out_w, filter_h, filter_w, padding); the "
                    "reference kernels skip positions outside the output"))
# The variants TFLM does not run (soundly) keep the sizes LiteRT accepts.
LITERT_SIZE = "output height and width whose forward convolution gives the input's (the sizes LiteRT accepts)"
GEOMETRY_BIAS32 = Rule(LITERT_SIZE, undefined(
    "transpose_conv.cc Eval (TFLM)", "an int16 input's int32 bias is read with GetOptionalTensorData<int64_t>, "
    "past the bias tensor; LiteRT refuses the other sizes"))
GEOMETRY_F16 = Rule(LITERT_SIZE, helia_limit(
    "no reference runs a float16 TRANSPOSE_CONV (TFLM's Eval: float32, int8, int16) and LiteRT refuses the other "
    "sizes", lifted_by="a reference for float16"))
# int16 with the int64 accumulator on Helium cores (kernels/helium/src/); the same outputs as the inline C
HELIUM_TRANSPOSE_CONV_S16 = "helia_mve_transpose_conv_s16"

_BASE_RULES = (OUTPUT_SHAPE, FILTER_RANK_RULE, RANK, CHANNELS, STRIDES, WINDOW_EXTENT_RULE)
_RULES = _BASE_RULES + (GEOMETRY, ACTIVATION_RULE)
_NOTES = ("no dilation (LiteRT's TRANSPOSE_CONV has none)",)


def _int16(name: str, bias_operand: Operand, accumulator: str, own_entries: tuple[str, ...] = (),
           geometry: Rule = GEOMETRY) -> Variant:
    return Variant(name, inputs=(_OUTPUT_SHAPE, weights(per_channel_axis=0), int16_act(), bias_operand),
                   outputs=(int16_act("output"),), template="transpose_conv_inline.c.j2",
                   lower=f"lower_int16_{accumulator}",
                   rules=_BASE_RULES + (geometry, ACTIVATION_RULE, ACCUMULATOR_RULE, S64_SHIFT_RULE),
                   notes=_NOTES + (f"inline C, {accumulator} accumulator",), own_entries=own_entries)


@register
class TransposeConv(OpLowering):
    op_types = ("TRANSPOSE_CONV",)
    options_table = "TransposeConvOptions"
    variants = (
        Variant("int8", inputs=(_OUTPUT_SHAPE, weights(per_channel_axis=0), int8_act(), bias("int32")),
                outputs=(int8_act("output"),), entries=("arm_transpose_conv_s8",),
                template="transpose_conv.c.j2", lower="lower_int8", rules=_RULES + (ACCUMULATOR_RULE,), notes=_NOTES),
        _int16("a16w8", bias("int64"), "int64", own_entries=(HELIUM_TRANSPOSE_CONV_S16,)),
        # A declared int32 bias (quantized_bias_type INT32) makes LiteRT accumulate in int32.
        _int16("a16w8_bias32", Operand("bias", ("int32",), constant=True), "int32", geometry=GEOMETRY_BIAS32),
        Variant("float32", inputs=(_OUTPUT_SHAPE, fp32_const("filter"), fp32(), fp32_bias()),
                outputs=(fp32("output"),), entries=("arm_transpose_conv_wrapper_f32",),
                template="transpose_conv_f32.c.j2", lower="lower_float32", rules=_RULES, notes=_NOTES),
        # -- float16 (native FP16) --
        float16_variant(inputs=(_OUTPUT_SHAPE, f16("filter", constant=True), f16(),
                                f16("bias", optional=True, constant=True)),
                        outputs=(f16("output"),), entries=("arm_transpose_conv_wrapper_f16",),
                        template="transpose_conv_f16.c.j2",
                        rules=_BASE_RULES + (GEOMETRY_F16, ACTIVATION_RULE),
                        notes=_NOTES + ("float16 accumulation in the output (ns-cmsis-nn's _f16 kernel)",)),
    )

    def validate(self, ctx: OpContext) -> None:
        w, x, y = ctx.inp(1), ctx.inp(2), ctx.out(0)
        check_filter_rank(ctx, w)
        if len(x.shape) != 4 or len(y.shape) != 4:
            raise ctx.error(RANK, x, detail="input and output must be 4-D NHWC")
        shape = ctx.inp(0)
        if tuple(int(d) for d in shape.shape) != (4,):
            raise ctx.error(OUTPUT_SHAPE, shape, detail=f"output_shape {list(shape.shape)} must be 4 values (the "
                                                        "output's N, H, W, C)")
        if w.shape[3] != x.shape[3] or w.shape[0] != y.shape[3] or x.shape[0] != y.shape[0]:
            raise ctx.error(CHANNELS, w, detail=f"filter {list(w.shape)} does not map input channels {x.shape[3]} to "
                                                f"output channels {y.shape[3]}")
        for axis, name in ((1, "stride_h"), (2, "stride_w")):
            stride = int(ctx.options(name, 1))
            if stride < 1:
                raise ctx.error(STRIDES, y, detail=f"{name} {stride} must be at least 1")
            check_window_extent(ctx, int(x.shape[axis]), int(w.shape[axis]), stride)
        # TFLM runs any output size (GEOMETRY: nothing to check); the variants it does not run keep LiteRT's.
        rules = ctx.variant.rules if ctx.variant is not None else ()
        geometry = next((r for r in rules if r in (GEOMETRY_BIAS32, GEOMETRY_F16)), None)
        if geometry is not None and not self._litert_size(ctx):
            raise ctx.error(geometry, y, detail=f"output shape {list(y.shape)} is not a "
                                                f"{ctx.options('padding', 'SAME')} transposed convolution of input "
                                                f"{list(x.shape)} with filter {list(w.shape)} and strides "
                                                f"{ctx.options('stride_h', 1)}x{ctx.options('stride_w', 1)}")
        fused_activation(ctx, y)
        check_accumulator(ctx, x, w, ctx.inp(3), 0)

    def _litert_size(self, ctx: OpContext) -> bool:
        """Whether a forward convolution of the output gives the input's height and width (the sizes
        LiteRT accepts, and the ones ns-cmsis-nn's arm_transpose_conv_s8 is checked on)."""
        w, x, y = ctx.inp(1), ctx.inp(2), ctx.out(0)
        padding = ctx.options("padding", "SAME")
        return all(output_size(padding, int(y.shape[axis]), int(w.shape[axis]), int(ctx.options(name, 1)))
                   == int(x.shape[axis]) for axis, name in ((1, "stride_h"), (2, "stride_w")))

    def _geometry(self, ctx: OpContext) -> dict:
        """Strides and TFLM's padding (transpose_conv.cc CalculateOpData: padding.h's
        ComputePaddingHeightWidth on the output's size, SAME or VALID), LiteRT's on the sizes it accepts."""
        w, y = ctx.inp(1), ctx.out(0)
        padding = ctx.options("padding", "SAME")
        result = {}
        for name, axis in (("h", 1), ("w", 2)):
            stride, out, taps = int(ctx.options(f"stride_{name}", 1)), int(y.shape[axis]), int(w.shape[axis])
            # ComputeOutSize, in C's division (truncating: a VALID output smaller than the filter less the
            # stride has a negative numerator, and then a padding)
            numerator = out + stride - 1 if padding == "SAME" else out + stride - taps
            forward = -(-numerator // stride) if numerator < 0 else numerator // stride
            total = max((forward - 1) * stride + taps - out, 0)  # ComputePaddingWithOffset
            result[f"stride_{name}"] = stride
            result[f"pad_{name}"] = total // 2
            result[f"pad_offset_{name}"] = total % 2
        return result

    def _shape_check(self, ctx: OpContext) -> dict:
        """The run-time output_shape input the generated C compares with the output's shape (None for
        a constant output_shape, which is not read: see the module docstring)."""
        shape = ctx.inp(0)
        if shape.is_constant:
            return dict(output_shape_tensor=None)
        return dict(output_shape_tensor=shape.index, output_shape_ctype=c_type(shape.dtype))

    def _common(self, ctx: OpContext):
        w, x, b, y = ctx.inp(1), ctx.inp(2), ctx.inp(3), ctx.out(0)
        mults, shifts = per_channel_multipliers(x.quant.scale, list(w.quant.scales), y.quant.scale, int(y.shape[3]))
        act_min, act_max = fused_activation(ctx, y)
        g = self._geometry(ctx)
        params = dict(input=x.index, filter=w.index, bias=b.index if b is not None else None, output=y.index,
                      input_dims=tuple(int(d) for d in x.shape), filter_dims=tuple(int(d) for d in w.shape),
                      output_dims=tuple(int(d) for d in y.shape), bias_dims=(1, 1, 1, int(y.shape[3])),
                      stride=(g["stride_w"], g["stride_h"]), padding=(g["pad_w"], g["pad_h"]),
                      padding_offsets=(g["pad_offset_w"], g["pad_offset_h"]), act_min=act_min, act_max=act_max,
                      input_offset=-x.quant.zero_point, output_offset=y.quant.zero_point, **self._shape_check(ctx))
        constants = [
            ConstArray("multiplier", "int32_t", np.asarray(mults, dtype=np.int64), "per-channel requantization"),
            ConstArray("shift", "int32_t", np.asarray(shifts, dtype=np.int64), "per-channel shift (left > 0)"),
        ]
        params["ctype"] = c_type(x.dtype)
        macs = int(x.num_elements) * int(w.shape[0]) * int(w.shape[1]) * int(w.shape[2])
        return params, constants, macs, requantization_kind(mults, shifts)

    def lower_int8(self, ctx: OpContext) -> Lowered:
        params, constants, macs, requantization = self._common(ctx)
        x, w, y = ctx.inp(2), ctx.inp(1), ctx.out(0)
        stride_w, stride_h = params["stride"]
        reach_h = (int(x.shape[1]) - 1) * stride_h + max(int(w.shape[1]), stride_h)
        reach_w = (int(x.shape[2]) - 1) * stride_w + max(int(w.shape[2]), stride_w)
        pad_h, in_h, out_h = params["padding"][1], int(x.shape[1]), int(y.shape[1])
        why = None
        if pad_h + out_h > reach_h or params["padding"][0] + int(y.shape[2]) > reach_w:
            why = "output extends past arm_transpose_conv_s8's row window"
        elif ctx.kernels.name == "ns_cmsis_nn" and not self._litert_size(ctx):
            # Its row and column windows are checked on LiteRT's sizes only (tests/kernels/cases.py).
            why = f"{ctx.kernels.description}'s arm_transpose_conv_s8 is checked on LiteRT's output sizes only"
        elif ctx.kernels.name == "ns_cmsis_nn" and not (pad_h % stride_h == 0
                                                         and pad_h < in_h * stride_h <= pad_h + out_h):
            # ns-cmsis-nn's arm_transpose_conv_s8 emits stride_h output rows per input row from ceil(pad_h /
            # stride_h) on, unbounded by the output height, its window aligned to the top padding only when
            # pad_h is a multiple of stride_h: elsewhere it writes past the output or gives wrong rows
            # (tests/kernels/cases.py: ns_transpose_conv_rows_ok). The portable kernel is right on all of them.
            why = f"{ctx.kernels.description}'s arm_transpose_conv_s8 gets rows wrong for this padding"
        if why is not None:
            return Lowered(template="transpose_conv_inline.c.j2", entry=None, macs=macs, constants=constants,
                           requantization=requantization,
                           params=dict(params, wide=False),
                           fixed={"implementation": "inline", "accumulator": "int32", "why": why})
        # arm_transpose_conv_s8 accumulates a rolling window of filter-height output rows in ctx->buf.
        rows = max(int(w.shape[1]), stride_h)
        row = ((int(x.shape[2]) - 1) * stride_w + max(int(w.shape[2]), stride_w)) * int(y.shape[3])
        scratch = ctx.kernels.scratch(lambda build: rows * row * 4)
        return Lowered(entry="arm_transpose_conv_s8", scratch_bytes=scratch, macs=macs, constants=constants,
                       requantization=requantization, params=params)

    def lower_int16_int64(self, ctx: OpContext) -> Lowered:
        """MultiplyByQuantizedMultiplier for int64 accumulators: the multiplier rounded to 16 bits and one
        rounding shift by 15 - shift, both precomputed per channel. Inline C, or on a core with MVE
        helia_mve_transpose_conv_s16 (kernels/helium), which computes the same."""
        params, constants, macs, requantization = self._common(ctx)
        mults, shifts = constants[0].values, constants[1].values
        check_s64_shifts(ctx, shifts, ctx.out(0))
        reduced = np.where(mults < 0x7FFF0000, (mults + (1 << 15)) >> 16, 0x7FFF)
        constants = [ConstArray("multiplier", "int32_t", reduced, "per-channel multiplier rounded to 16 bits"),
                     ConstArray("shift", "int32_t", 15 - shifts, "per-channel right shift (15 - shift)")]
        if ctx.kernels.helium_kernels and params["input_offset"] == 0:
            # Our Helium kernel on cores with MVE: the same arithmetic, the same outputs
            # (tests/kernels/test_helium_parity.py); int16 activations are symmetric (offset 0).
            return Lowered(template="transpose_conv_s16_helium.c.j2", entry=HELIUM_TRANSPOSE_CONV_S16, macs=macs,
                           constants=constants, requantization=requantization, params=dict(params, wide=True),
                           fixed={"accumulator": "int64"})
        return Lowered(entry=None, macs=macs, constants=constants, requantization=requantization,
                       params=dict(params, wide=True), fixed={"implementation": "inline", "accumulator": "int64"})

    def lower_int16_int32(self, ctx: OpContext) -> Lowered:
        """An int32 accumulator rescaled like the int8 path (doubling high multiply, rounding shift)."""
        params, constants, macs, requantization = self._common(ctx)
        return Lowered(entry=None, macs=macs, constants=constants, requantization=requantization,
                       params=dict(params, wide=False), fixed={"implementation": "inline", "accumulator": "int32"})

    def lower_float32(self, ctx: OpContext) -> Lowered:
        """arm_transpose_conv_wrapper_f32: the output starts at the bias, every input pixel adds its
        product with the filter where it lands (bounds-checked, so any output size TFLM runs), then the
        clamp. The references add the bias last; the sums differ within float rounding."""
        return self._lower_float(ctx)

    # -- float16 (native FP16) --

    def lower_float16(self, ctx: OpContext) -> Lowered:
        """arm_transpose_conv_wrapper_f16: scatters each input into the outputs it reaches (bounds-checked),
        no scratch on any build."""
        return self._lower_float(ctx)

    def _lower_float(self, ctx: OpContext) -> Lowered:
        """The float wrappers' call (f32 or f16: the same parameters, the clamp in the output's type)."""
        w, x, b, y = ctx.inp(1), ctx.inp(2), ctx.inp(3), ctx.out(0)
        g = self._geometry(ctx)
        act_min, act_max = fused_activation(ctx, y)
        offsets, fixed = (g["pad_offset_w"], g["pad_offset_h"]), {}
        if ctx.kernels.name == "ns_cmsis_nn" and offsets != (0, 0):
            # Its float kernels shift every output by padding_offsets (tests/kernels/flt_cases.py:
            # ns_transpose_conv_flt_ok). The offset is trailing padding, which a scatter bounded by the
            # output's shape never needs: without it the library computes LiteRT's positions.
            offsets = (0, 0)
            fixed = {"padding_offsets": f"none: {ctx.kernels.description} would shift the output by them"}
        return Lowered(
            entry=ctx.variant.entries[0],
            macs=int(x.num_elements) * int(w.shape[0]) * int(w.shape[1]) * int(w.shape[2]),
            params=dict(input=x.index, filter=w.index, bias=b.index if b is not None else None, output=y.index,
                        input_dims=tuple(int(d) for d in x.shape), filter_dims=tuple(int(d) for d in w.shape),
                        output_dims=tuple(int(d) for d in y.shape), bias_dims=(1, 1, 1, int(y.shape[3])),
                        stride=(g["stride_w"], g["stride_h"]), padding=(g["pad_w"], g["pad_h"]),
                        padding_offsets=offsets, act_min=act_min, act_max=act_max, **self._shape_check(ctx)),
            fixed=fixed,
        )

# SPDX-License-Identifier: Apache-2.0
"""DEPTHWISE_CONV_2D: int8 on ns-cmsis-nn depthwise entries (3x3, opt, generic, wrapper), int16
activations (A16W8) on arm_depthwise_conv_wrapper_s16, float32 and float16 on
arm_depthwise_conv_wrapper_f32 / _f16."""

from __future__ import annotations

import numpy as np

from helia_aot.library import ns_cmsis_nn_scratch as sizes
from helia_aot.ir.quant import per_channel_multipliers
from helia_aot.library.cost_kinds import DEPTHWISE
from helia_aot.library.dsp_costs import DSP_DEPTHWISE
from helia_aot.library.helium_costs import MVE_DEPTHWISE
from helia_aot.ops.base import ConstArray, Lowered, OpContext, OpLowering, Operand, Rule, Variant, litert, register
from helia_aot.ops.shared.accumulator import (ACCUMULATOR_RULE, S64_SHIFT_RULE, check_accumulator, check_s64_shifts,
                                              int64_bias, offset_weight_sums, requantization_kind)
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE, check_output_shape
from helia_aot.ops.shared.float_variants import float16_variant
from helia_aot.ops.shared.fused_activation import ACTIVATION_RULE, fused_activation
from helia_aot.ops.shared.operands import bias, f16, fp32, fp32_bias, fp32_const, int8_act, int16_act
from helia_aot.ops.shared.shapes import nhwc
from helia_aot.ops.shared.window import geometry, windowed_output_shape

HELIUM_DW_3X3 = "helia_mve_depthwise_conv_3x3_s8"
DSP_DW_3X3 = "helia_dsp_depthwise_conv_3x3_s8"
RANK = Rule("input NHWC, filter [1, H, W, C_out]", litert(
    "depthwise_conv.cc Prepare", "TF_LITE_ENSURE_EQ(NumDimensions(input), 4), the same for the filter, and "
    "TF_LITE_ENSURE_EQ(filter->dims->data[0], 1)"))
MULTIPLIER = Rule("output channels a multiple of input channels", litert(
    "depthwise_conv.cc Prepare", "TF_LITE_ENSURE_EQ(channels_out % input_channels, 0) (the depth multiplier; "
    "depth_multiplier itself may be 0 in exported models)",
    "walks the output channels by the depth_multiplier option, which they do not match: input channels past the "
    "input's depth are read"))
_SHAPE_RULES = (RANK, MULTIPLIER, ACTIVATION_RULE, OUTPUT_SHAPE_RULE)
# LiteRT's depthwise_conv.cc runs a nonzero filter zero point (measured by tests/e2e/test_differential.py) and its
# per-channel references (DepthwiseConvPerChannel, int8 and int16 inputs) take no filter offset, nor do TFLM's or
# the kernels we call: every one computes as if it were 0, and so does the module (as SVDF's weights).
FILTER = Operand("filter", ("int8",), constant=True, quantized=True, per_channel_axis=3)
FILTER_ZERO_POINT_NOTE = "filter zero points ignored, as LiteRT's and TFLM's per-channel kernels do (no filter offset)"


@register
class DepthwiseConv2D(OpLowering):
    op_types = ("DEPTHWISE_CONV_2D",)
    options_table = "DepthwiseConv2DOptions"
    variants = (
        Variant("int8", inputs=(int8_act(), FILTER, bias("int32")),
                outputs=(int8_act("output"),),
                entries=("arm_depthwise_conv_3x3_s8", "arm_depthwise_conv_s8_opt", "arm_depthwise_conv_s8",
                         "arm_depthwise_conv_wrapper_s8"),
                template="depthwise_conv_2d.c.j2", lower="lower_int8", rules=_SHAPE_RULES + (ACCUMULATOR_RULE,),
                notes=(FILTER_ZERO_POINT_NOTE,),
                own_entries=(HELIUM_DW_3X3, DSP_DW_3X3),
                cost_kinds=(*((e, DEPTHWISE) for e in ("arm_depthwise_conv_3x3_s8", "arm_depthwise_conv_s8_opt",
                                                       "arm_depthwise_conv_s8", "arm_depthwise_conv_wrapper_s8")),
                            (HELIUM_DW_3X3, MVE_DEPTHWISE), (DSP_DW_3X3, DSP_DEPTHWISE))),
        Variant("a16w8", inputs=(int16_act(), FILTER, bias("int64", "int32")),
                outputs=(int16_act("output"),), entries=("arm_depthwise_conv_wrapper_s16",),
                template="depthwise_conv_2d_s16.c.j2", lower="lower_a16w8",
                rules=_SHAPE_RULES + (ACCUMULATOR_RULE, S64_SHIFT_RULE), notes=(FILTER_ZERO_POINT_NOTE,)),
        Variant("float32", inputs=(fp32(), fp32_const("filter"), fp32_bias()), outputs=(fp32("output"),),
                entries=("arm_depthwise_conv_wrapper_f32",), template="depthwise_conv_2d_f32.c.j2",
                lower="lower_float32", rules=_SHAPE_RULES),
        # -- float16 (native FP16) --
        float16_variant(inputs=(f16(), f16("filter", constant=True), f16("bias", optional=True, constant=True)),
                        outputs=(f16("output"),), entries=("arm_depthwise_conv_wrapper_f16",),
                        template="depthwise_conv_2d_f16.c.j2",
                        rules=_SHAPE_RULES, notes=("float16 accumulation (ns-cmsis-nn's _f16 kernels)",)),
    )

    def validate(self, ctx: OpContext) -> None:
        x, w, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        if len(x.shape) != 4 or len(w.shape) != 4 or w.shape[0] != 1:
            raise ctx.error(RANK, w, detail="input must be NHWC and the filter [1, H, W, C_out]")
        # The channel counts define the multiplier; some exporters leave depth_multiplier at 0.
        if w.shape[3] % x.shape[3] != 0:
            raise ctx.error(MULTIPLIER, w, detail=f"filter channels {w.shape[3]} are not a multiple of input channels "
                                                  f"{x.shape[3]}")
        fused_activation(ctx, y)
        check_output_shape(ctx, y, self.infer_shapes(ctx)[0])
        check_accumulator(ctx, x, w, ctx.inp(2), 3, reads_weight_zero_point=False)

    def infer_shapes(self, ctx: OpContext):
        x, w = ctx.inp(0), ctx.inp(1)
        return [windowed_output_shape(ctx, x, w, w.shape[3])]

    def lower_int8(self, ctx: OpContext) -> Lowered:
        x, w, b, y = ctx.inp(0), ctx.inp(1), ctx.inp(2), ctx.out(0)
        in_dims, out_dims = nhwc(x.shape), nhwc(y.shape)
        filter_dims = tuple(int(d) for d in w.shape)
        g = geometry(ctx, in_dims[1:3], filter_dims[1:3], out_dims[1:3])
        ch_mult = out_dims[3] // in_dims[3]
        kernels = ctx.kernels
        build = kernels.build
        knob = ctx.kernel_knob()

        one_in_ch_to_conv = build == "mve" and in_dims[3] == 1 and out_dims[3] > 1
        plain_shape = ch_mult == 1 and in_dims[0] == 1 and g.dilation_w == 1 and g.dilation_h == 1
        is_3x3 = filter_dims[1] == 3 and filter_dims[2] == 3 and g.pad_h <= 1 and g.pad_w <= 1
        candidates: list[str] = []
        if one_in_ch_to_conv:
            # The wrapper turns this layer into a convolution on MVE (transposed filter in scratch).
            entry = "arm_depthwise_conv_wrapper_s8"
            candidates.append(entry)
        elif plain_shape:
            if is_3x3:
                candidates.append("arm_depthwise_conv_3x3_s8")
            candidates.append("arm_depthwise_conv_s8_opt")
            if kernels.helium_kernels and filter_dims[1] == 3 and filter_dims[2] == 3:
                # Our Helium 3x3 depthwise (kernels/helium): vectorised without scratch, any stride and
                # padding, arm_depthwise_conv_3x3_s8's signature; chosen by cost only (never by
                # "specialized"). Its offset and clamp ranges hold for every int8 layer.
                candidates.append(HELIUM_DW_3X3)
            if kernels.dsp_kernels and filter_dims[1] == 3 and filter_dims[2] == 3:
                # Our DSP 3x3 depthwise (kernels/dsp) on cores with the DSP extension and no MVE: the same
                # signature and contract (any stride and padding, no scratch), chosen by cost only.
                candidates.append(DSP_DW_3X3)
            # The wrapper picks 3x3 without MVE and opt with it; "specialized" takes the 3x3 entry on
            # every build, which also needs no scratch.
            entry = candidates[0] if (build != "mve" or knob == "specialized") else "arm_depthwise_conv_s8_opt"
        else:
            entry = "arm_depthwise_conv_s8"
        if "arm_depthwise_conv_s8" not in candidates and not one_in_ch_to_conv:
            candidates.append("arm_depthwise_conv_s8")
        if "arm_depthwise_conv_wrapper_s8" not in candidates:
            candidates.append("arm_depthwise_conv_wrapper_s8")
        if knob == "generic":
            entry = "arm_depthwise_conv_wrapper_s8"

        def scratch_of(name: str) -> int:
            if name == "arm_depthwise_conv_wrapper_s8":
                # The one-input-channel threshold depends on the C compiler; size for the larger need.
                return max(kernels.scratch(sizes.depthwise_wrapper_s8, g, in_dims, filter_dims, out_dims, c)
                           for c in ("gcc", "armclang"))
            if name == "arm_depthwise_conv_s8_opt":
                return kernels.scratch(sizes.depthwise_conv_s8_opt, in_dims, filter_dims)
            return 0

        candidate_scratch = {name: scratch_of(name) for name in candidates}
        if ctx.entry_override is not None:
            entry = ctx.entry_override  # helia_aot.lowering.kernel_choice's pick among the candidates
        scratch = candidate_scratch[entry]

        in_zp, out_zp = x.quant.zero_point, y.quant.zero_point
        mults, shifts = per_channel_multipliers(x.quant.scale, list(w.quant.scales), y.quant.scale, out_dims[3])
        act_min, act_max = fused_activation(ctx, y)
        constants = [
            ConstArray("multiplier", "int32_t", np.asarray(mults, dtype=np.int64), "per-channel requantization"),
            ConstArray("shift", "int32_t", np.asarray(shifts, dtype=np.int64), "per-channel shift (left > 0)"),
        ]
        takes_weight_sum = entry in ("arm_depthwise_conv_wrapper_s8", "arm_depthwise_conv_s8_opt")
        weight_sums = None
        if kernels.wants_weight_sums and takes_weight_sum:
            per_channel = np.asarray(w.data).reshape(-1, w.shape[-1]).astype(np.int64).sum(axis=0)
            sums = offset_weight_sums(per_channel, b.data if b is not None else None, -in_zp)
            constants.append(ConstArray("weight_sum", "int32_t", sums,
                                        "bias + input_offset * kernel-window sum, read by the MVE kernels"))
            weight_sums = "precomputed"
        macs = out_dims[0] * out_dims[1] * out_dims[2] * out_dims[3] * filter_dims[1] * filter_dims[2]
        return Lowered(
            entry=entry,
            candidates=candidates,
            candidate_scratch=candidate_scratch,
            scratch_bytes=scratch,
            macs=macs,
            constants=constants,
            weight_sums=weight_sums,
            requantization=requantization_kind(mults, shifts),
            params=dict(
                input=x.index, filter=w.index, bias=b.index if b is not None else None, output=y.index,
                input_dims=in_dims, filter_dims=filter_dims, output_dims=out_dims,
                bias_dims=(1, 1, 1, out_dims[3]), ch_mult=ch_mult,
                input_offset=-in_zp, output_offset=out_zp,
                stride=(g.stride_w, g.stride_h), padding=(g.pad_w, g.pad_h),
                dilation=(g.dilation_w, g.dilation_h), act_min=act_min, act_max=act_max,
                takes_weight_sum=takes_weight_sum,
            ),
        )

    def lower_a16w8(self, ctx: OpContext) -> Lowered:
        """int16 activations, int8 weights: arm_depthwise_conv_wrapper_s16 (fast path for multiplier 1
        without dilation), int64 bias (an int32 one widened at conversion)."""
        x, w, b, y = ctx.inp(0), ctx.inp(1), ctx.inp(2), ctx.out(0)
        in_dims, out_dims = nhwc(x.shape), nhwc(y.shape)
        filter_dims = tuple(int(d) for d in w.shape)
        g = geometry(ctx, in_dims[1:3], filter_dims[1:3], out_dims[1:3])
        ch_mult = out_dims[3] // in_dims[3]
        mults, shifts = per_channel_multipliers(x.quant.scale, list(w.quant.scales), y.quant.scale, out_dims[3])
        check_s64_shifts(ctx, shifts, y)
        act_min, act_max = fused_activation(ctx, y)
        return Lowered(
            entry="arm_depthwise_conv_wrapper_s16",
            scratch_bytes=ctx.kernels.scratch(sizes.depthwise_wrapper_s16, ch_mult, g, in_dims, filter_dims),
            macs=out_dims[0] * out_dims[1] * out_dims[2] * out_dims[3] * filter_dims[1] * filter_dims[2],
            constants=[
                ConstArray("multiplier", "int32_t", np.asarray(mults, dtype=np.int64), "per-channel requantization"),
                ConstArray("shift", "int32_t", np.asarray(shifts, dtype=np.int64), "per-channel shift (left > 0)"),
            ] + int64_bias(b),
            requantization=requantization_kind(mults, shifts),
            params=dict(
                input=x.index, filter=w.index, bias=b.index if b is not None else None, output=y.index,
                bias_widened=b is not None and b.dtype == "int32",
                input_dims=in_dims, filter_dims=filter_dims, output_dims=out_dims, bias_dims=(1, 1, 1, out_dims[3]),
                ch_mult=ch_mult, stride=(g.stride_w, g.stride_h), padding=(g.pad_w, g.pad_h),
                dilation=(g.dilation_w, g.dilation_h), act_min=act_min, act_max=act_max,
            ),
        )

    def lower_float32(self, ctx: OpContext) -> Lowered:
        """arm_depthwise_conv_wrapper_f32 on every build (it picks its fast, 3x3 and generic paths
        itself). ctx->buf holds its packed patches; on MVE a one-input-channel layer runs as a
        convolution, and the C compiler's threshold for that differs, so size for the larger need."""
        return self._lower_float(ctx, sizes.depthwise_wrapper_f32)

    # -- float16 (native FP16) --

    def lower_float16(self, ctx: OpContext) -> Lowered:
        """arm_depthwise_conv_wrapper_f16: specialised 3x3/2x5/1-D kernels, the multiplier-1 fast path
        (scratch on every build) or the generic loop; on MVE-FP a one-input-channel layer runs as a
        convolution, whose scratch depends on the compiler's threshold, so it is sized for both."""
        return self._lower_float(ctx, sizes.depthwise_wrapper_f16)

    def _lower_float(self, ctx: OpContext, sizer) -> Lowered:
        """The float wrappers' call (f32 or f16: the same parameters, the clamp in the output's type)."""
        x, w, b, y = ctx.inp(0), ctx.inp(1), ctx.inp(2), ctx.out(0)
        in_dims, out_dims = nhwc(x.shape), nhwc(y.shape)
        filter_dims = tuple(int(d) for d in w.shape)
        g = geometry(ctx, in_dims[1:3], filter_dims[1:3], out_dims[1:3])
        ch_mult = out_dims[3] // in_dims[3]
        act_min, act_max = fused_activation(ctx, y)
        scratch = max(ctx.kernels.scratch(sizer, g, ch_mult, in_dims, filter_dims, out_dims, c)
                      for c in ("gcc", "armclang"))
        return Lowered(
            entry=ctx.variant.entries[0],
            scratch_bytes=scratch,
            macs=out_dims[0] * out_dims[1] * out_dims[2] * out_dims[3] * filter_dims[1] * filter_dims[2],
            params=dict(
                input=x.index, filter=w.index, bias=b.index if b is not None else None, output=y.index,
                input_dims=in_dims, filter_dims=filter_dims, output_dims=out_dims, bias_dims=(1, 1, 1, out_dims[3]),
                ch_mult=ch_mult, stride=(g.stride_w, g.stride_h), padding=(g.pad_w, g.pad_h),
                dilation=(g.dilation_w, g.dilation_h), act_min=act_min, act_max=act_max,
            ),
        )

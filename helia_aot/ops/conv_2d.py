# SPDX-License-Identifier: Apache-2.0
"""CONV_2D: int8 activations with per-channel int8 weights, and int16 activations (A16W8), lowered to
ns-cmsis-nn convolutions; float32 and float16 on arm_convolve_wrapper_f32 / _f16; hybrid (float32
activations, int8 weights) in inline C as LiteRT's hybrid kernels."""

from __future__ import annotations

import numpy as np

from helia_aot.library import ns_cmsis_nn_scratch as sizes
from helia_aot.emit.c_syntax import c_float
from helia_aot.ir.quant import per_channel_multipliers
from helia_aot.ops.base import (ConstArray, Lowered, OpContext, OpLowering, Rule, Variant, kernel_limit, litert,
                                register)
from helia_aot.ops.shared.accumulator import (ACCUMULATOR_RULE, S64_SHIFT_RULE, check_accumulator, check_s64_shifts,
                                              offset_weight_sums, requantization_kind)
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE, check_output_shape
from helia_aot.ops.shared.float_variants import float16_variant, hybrid_variant
from helia_aot.ops.shared.fused_activation import ACTIVATION_RULE, fused_activation, hybrid_activation
from helia_aot.ops.shared.operands import bias, f16, fp32, fp32_bias, fp32_const, int8_act, int16_act, weights
from helia_aot.ops.shared.shapes import nhwc
from helia_aot.ops.shared.window import geometry, windowed_output_shape

from helia_aot.library.cost_kinds import CONV
from helia_aot.library.dsp_costs import DSP_POINTWISE
from helia_aot.library.helium_costs import MVE_CONV, MVE_POINTWISE

HELIUM_CONV_1X1 = "helia_mve_convolve_1x1_s8"
HELIUM_CONV = "helia_mve_convolve_s8"
DSP_CONV_1X1 = "helia_dsp_convolve_1x1_s8"
DSP_CONV = "helia_dsp_convolve_s8"
# int32 sums and the symmetric input quantization of the hybrid layers (kernels/helium/src/)
HELIUM_CONV_S32 = "helia_mve_convolve_s8_s32"
HELIUM_QUANTIZE = "helia_mve_quantize_symmetric_f32_s8"
# and their float rescale, bias and clamp (MVE floating point)
HELIUM_RESCALE = "helia_mve_rescale_s32_f32"


def _hybrid_per_channel(w) -> bool:
    """LiteRT takes its per-channel hybrid kernel only when the weight scales differ."""
    return len(set(w.quant.scales)) > 1


RANK = Rule("input, filter and output 4-D (NHWC / OHWI)", litert(
    "conv.cc Prepare", "TF_LITE_ENSURE_EQ(input->dims->size, 4) and the same for the filter; the output is resized "
    "to 4-D"))
GROUPS = Rule("input channels a multiple of filter channels (groups)", litert(
    "conv.cc Prepare", "TF_LITE_ENSURE_EQ(input_channel % filter_input_channel, 0)",
    "takes the groups as the integer quotient and leaves the remaining input channels unread"))
GROUP_OUTPUTS = Rule("output channels a multiple of the groups", litert(
    "conv.cc Prepare", "TF_LITE_ENSURE_EQ(channels_out % groups, 0)",
    "gives each group the integer quotient of the filters and computes the last filters on input channels past "
    "the groups' (past the input's depth)"))
FLOAT_ONE_GROUP = Rule("input channels equal filter channels (no groups)", kernel_limit(
    "arm_convolve_wrapper_f32 / arm_convolve_wrapper_f16", "take one group (LiteRT's float reference runs groups)",
    "an inline-C grouped float convolution"))
HYBRID_GROUPS = Rule("groups only with per-channel weights (as LiteRT)", litert(
    "conv.cc Prepare / EvalHybrid", "a grouped hybrid convolution runs only the per-channel hybrid kernel "
    "(is_hybrid_per_channel: weight scales that differ)"))
_SHAPE_RULES = (RANK, GROUPS, GROUP_OUTPUTS, ACTIVATION_RULE, OUTPUT_SHAPE_RULE)


@register
class Conv2D(OpLowering):
    op_types = ("CONV_2D",)
    options_table = "Conv2DOptions"
    variants = (
        Variant("int8", inputs=(int8_act(), weights(per_channel_axis=0), bias("int32")),
                outputs=(int8_act("output"),),
                entries=("arm_convolve_1x1_s8_fast", "arm_convolve_1x1_s8", "arm_convolve_1_x_n_s8",
                         "arm_convolve_s8", "arm_convolve_wrapper_s8"),
                template="conv_2d.c.j2", lower="lower_int8", rules=_SHAPE_RULES + (ACCUMULATOR_RULE,),
                own_entries=(HELIUM_CONV_1X1, HELIUM_CONV, DSP_CONV_1X1, DSP_CONV),
                cost_kinds=(*((e, CONV) for e in ("arm_convolve_1x1_s8_fast", "arm_convolve_1x1_s8",
                                                  "arm_convolve_1_x_n_s8", "arm_convolve_s8",
                                                  "arm_convolve_wrapper_s8")),
                            (HELIUM_CONV_1X1, MVE_POINTWISE), (HELIUM_CONV, MVE_CONV), (DSP_CONV_1X1, DSP_POINTWISE),
                            (DSP_CONV, CONV))),
        Variant("a16w8", inputs=(int16_act(), weights(per_channel_axis=0), bias("int64", "int32")),
                outputs=(int16_act("output"),), entries=("arm_convolve_wrapper_s16",),
                template="conv_2d_s16.c.j2", lower="lower_a16w8",
                rules=_SHAPE_RULES + (ACCUMULATOR_RULE, S64_SHIFT_RULE)),
        Variant("float32", inputs=(fp32(), fp32_const("filter"), fp32_bias()), outputs=(fp32("output"),),
                entries=("arm_convolve_wrapper_f32",), template="conv_2d_f32.c.j2", lower="lower_float32",
                rules=(RANK, FLOAT_ONE_GROUP, ACTIVATION_RULE, OUTPUT_SHAPE_RULE)),
        # -- float16 (native FP16) --
        float16_variant(inputs=(f16(), f16("filter", constant=True), f16("bias", optional=True, constant=True)),
                        outputs=(f16("output"),), entries=("arm_convolve_wrapper_f16",),
                        template="conv_2d_f16.c.j2",
                        rules=(RANK, FLOAT_ONE_GROUP, ACTIVATION_RULE, OUTPUT_SHAPE_RULE),
                        notes=("float16 accumulation (ns-cmsis-nn's _f16 kernels)",)),
        # -- hybrid (dynamic range) --
        hybrid_variant(weights(per_channel_axis=0),
                       ("inline C: per-tensor weights quantize each batch's input symmetrically, "
                        "per-channel weights asymmetrically, at run time; int32 accumulation, float rescale",),
                       "conv_2d_hybrid.c.j2", rules=_SHAPE_RULES + (HYBRID_GROUPS,),
                       own_entries=(HELIUM_CONV_S32, HELIUM_QUANTIZE, HELIUM_RESCALE)),
    )

    def validate(self, ctx: OpContext) -> None:
        x, w, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        if len(x.shape) != 4 or len(w.shape) != 4 or len(y.shape) != 4:
            raise ctx.error(RANK, x, detail="input, filter and output must be 4-D (NHWC / OHWI)")
        if x.shape[3] % w.shape[3] != 0:
            raise ctx.error(GROUPS, w, detail=f"input channels {x.shape[3]} are not a multiple of filter channels "
                                              f"{w.shape[3]}")
        groups = x.shape[3] // w.shape[3]
        if w.shape[0] % groups != 0:
            # ns-cmsis-nn's convolutions return an argument error otherwise.
            raise ctx.error(GROUP_OUTPUTS, w, detail=f"{w.shape[0]} output channels do not split into {groups} groups")
        if ctx.variant.name in ("float32", "float16") and x.shape[3] != w.shape[3]:
            raise ctx.error(FLOAT_ONE_GROUP, w, detail=f"{ctx.variant.name} grouped convolution ({x.shape[3]} input "
                                                       f"channels, filter channels {w.shape[3]}) is not supported: "
                                                       f"{ctx.variant.entries[0]} takes one group")
        if ctx.variant.name == "hybrid" and x.shape[3] != w.shape[3] and not _hybrid_per_channel(w):
            raise ctx.error(HYBRID_GROUPS, w, detail="a hybrid grouped convolution needs per-channel weight scales "
                                                     "(LiteRT's per-tensor hybrid kernel has no groups)")
        fused_activation(ctx, y)
        check_output_shape(ctx, y, self.infer_shapes(ctx)[0])
        check_accumulator(ctx, x, w, ctx.inp(2), 0)

    def infer_shapes(self, ctx: OpContext):
        x, w = ctx.inp(0), ctx.inp(1)
        return [windowed_output_shape(ctx, x, w, w.shape[0])]

    def lower_int8(self, ctx: OpContext) -> Lowered:
        x, w, b, y = ctx.inp(0), ctx.inp(1), ctx.inp(2), ctx.out(0)
        in_dims, out_dims = nhwc(x.shape), nhwc(y.shape)
        filter_dims = tuple(int(d) for d in w.shape)  # (O, H, W, I) read as cmsis (n, h, w, c)
        g = geometry(ctx, in_dims[1:3], filter_dims[1:3], out_dims[1:3])
        kernels = ctx.kernels
        build = kernels.build

        candidates = []
        if sizes.is_convolve_1x1(g, in_dims, filter_dims):
            entry = "arm_convolve_1x1_s8_fast" if sizes.is_convolve_1x1_fast(g) else "arm_convolve_1x1_s8"
            candidates.append(entry)
            if kernels.helium_kernels and entry == "arm_convolve_1x1_s8_fast" and in_dims[3] == filter_dims[3]:
                # Our Helium 1x1 convolution (kernels/helium): 2 x 2 tiles without scratch,
                # arm_convolve_1x1_s8_fast's signature (it reads the weight sums when the module has
                # them, else sums the rows itself); chosen by cost only. One group only.
                candidates.append(HELIUM_CONV_1X1)
            if kernels.dsp_kernels and entry == "arm_convolve_1x1_s8_fast" and in_dims[3] == filter_dims[3]:
                # Our DSP 1x1 convolution (kernels/dsp) on cores with the DSP extension and no MVE: the
                # same signature and contract; chosen by cost only. One group only.
                candidates.append(DSP_CONV_1X1)
        elif sizes.is_convolve_1_x_n(g, in_dims, filter_dims):
            entry = "arm_convolve_1_x_n_s8"
            candidates.append(entry)
        elif (build == "mve" and out_dims[1] == 1 and out_dims[2] == 1
              and (g.stride_w * in_dims[3]) % 4 == 0 and in_dims[3] == filter_dims[3]):
            # The wrapper runs arm_convolve_1x1_out_s8 on MVE; that entry is not public API, so the
            # module calls the wrapper and lets it dispatch.
            entry = "arm_convolve_wrapper_s8"
            candidates.append(entry)
        else:
            entry = "arm_convolve_s8"
        if "arm_convolve_s8" not in candidates:
            candidates.append("arm_convolve_s8")
        if kernels.helium_kernels and kernels.needs_scratch and in_dims[3] == filter_dims[3]:
            # Our Helium convolution (kernels/helium): any filter, stride, dilation and padding, one
            # group; two gathered columns of scratch, so not beside the portable kernels (which promise
            # a module without scratch). Chosen by cost only.
            candidates.append(HELIUM_CONV)
        if kernels.dsp_kernels and in_dims[3] == filter_dims[3]:
            # Our DSP convolution (kernels/dsp): any filter, stride, dilation and padding, one group, no
            # scratch (its windows live on the stack); chosen by cost only.
            candidates.append(DSP_CONV)
        if ctx.kernel_knob() == "generic":
            entry = "arm_convolve_wrapper_s8"
        if "arm_convolve_wrapper_s8" not in candidates:
            candidates.append("arm_convolve_wrapper_s8")

        def scratch_of(name: str) -> int:
            # A direct 1x1 / 1 x N entry needs what the wrapper asks for (it would dispatch to it).
            if name == "arm_convolve_s8":
                return kernels.scratch(sizes.convolve_s8, in_dims, filter_dims)
            if name == HELIUM_CONV:
                # Two columns on MVE; built without MVE (a host build of the module) it runs the
                # library's plain-C arm_convolve_s8, which must find its own scratch there too.
                return max(sizes.helium_convolve_s8(in_dims, filter_dims), sizes.convolve_s8("plain", in_dims, filter_dims))
            if name == DSP_CONV:
                # None with the DSP extension; built without it (a host build of the module) it runs the
                # library's plain-C arm_convolve_s8, which must find its own scratch there.
                return kernels.scratch(lambda _build, *dims: sizes.convolve_s8("plain", *dims), in_dims, filter_dims)
            return kernels.scratch(sizes.convolve_wrapper_s8, g, in_dims, filter_dims, out_dims)

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
        weight_sums = None
        # Our DSP kernels read them too where the library's DSP build does not (their costs were measured
        # with them): no summing of filters on every run.
        if kernels.wants_weight_sums or entry in (DSP_CONV_1X1, DSP_CONV):
            rows = np.asarray(w.data).reshape(w.shape[0], -1).astype(np.int64).sum(axis=1)
            sums = offset_weight_sums(rows, b.data if b is not None else None, -in_zp)
            constants.append(ConstArray("weight_sum", "int32_t", sums,
                                        "bias + input_offset * filter row sum, read by our Helium and DSP kernels"))
            weight_sums = "precomputed"
        macs = out_dims[0] * out_dims[1] * out_dims[2] * out_dims[3] * filter_dims[1] * filter_dims[2] * filter_dims[3]
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
                bias_dims=(1, 1, 1, out_dims[3]),
                input_offset=-in_zp, output_offset=out_zp,
                stride=(g.stride_w, g.stride_h), padding=(g.pad_w, g.pad_h),
                dilation=(g.dilation_w, g.dilation_h), act_min=act_min, act_max=act_max,
                has_upscale=(entry == "arm_convolve_s8"),
            ),
        )

    def lower_a16w8(self, ctx: OpContext) -> Lowered:
        """int16 activations, int8 weights: arm_convolve_wrapper_s16 on every build (its dispatch needs no
        weight sums), per-channel multipliers as for int8, int64 or int32 bias as the model has it. Every
        entry the wrapper picks walks groups (input channels / filter channels), and its buffer is sized by
        the input channels, enough for any group."""
        x, w, b, y = ctx.inp(0), ctx.inp(1), ctx.inp(2), ctx.out(0)
        in_dims, out_dims = nhwc(x.shape), nhwc(y.shape)
        filter_dims = tuple(int(d) for d in w.shape)
        g = geometry(ctx, in_dims[1:3], filter_dims[1:3], out_dims[1:3])
        mults, shifts = per_channel_multipliers(x.quant.scale, list(w.quant.scales), y.quant.scale, out_dims[3])
        if b is None or b.dtype != "int32":
            check_s64_shifts(ctx, shifts, y)
        act_min, act_max = fused_activation(ctx, y)
        return Lowered(
            entry="arm_convolve_wrapper_s16",
            scratch_bytes=ctx.kernels.scratch(sizes.convolve_wrapper_s16, in_dims, filter_dims),
            macs=out_dims[0] * out_dims[1] * out_dims[2] * out_dims[3] * filter_dims[1] * filter_dims[2]
            * filter_dims[3],
            constants=[
                ConstArray("multiplier", "int32_t", np.asarray(mults, dtype=np.int64), "per-channel requantization"),
                ConstArray("shift", "int32_t", np.asarray(shifts, dtype=np.int64), "per-channel shift (left > 0)"),
            ],
            requantization=requantization_kind(mults, shifts),
            params=dict(
                input=x.index, filter=w.index, bias=b.index if b is not None else None, output=y.index,
                bias_is_int32=b is not None and b.dtype == "int32",
                input_dims=in_dims, filter_dims=filter_dims, output_dims=out_dims, bias_dims=(1, 1, 1, out_dims[3]),
                stride=(g.stride_w, g.stride_h), padding=(g.pad_w, g.pad_h), dilation=(g.dilation_w, g.dilation_h),
                act_min=act_min, act_max=act_max,
            ),
        )

    def lower_float32(self, ctx: OpContext) -> Lowered:
        """arm_convolve_wrapper_f32 on every build: it dispatches 1x1, 1 x N and the general case itself,
        and takes ctx->buf for its patch matrix (unbuffered loops without it). Sums run in a different
        order from LiteRT's reference (bias first, per filter tap), within float rounding."""
        return self._lower_float(ctx, sizes.convolve_wrapper_f32)

    # -- float16 (native FP16) --

    def lower_float16(self, ctx: OpContext) -> Lowered:
        """arm_convolve_wrapper_f16 on every build: it picks the 1x1, 1xN, specialised or patch-GEMM
        route itself and falls back to a direct loop when ctx->buf is too small (portable: none)."""
        return self._lower_float(ctx, sizes.convolve_wrapper_f16)

    def _lower_float(self, ctx: OpContext, sizer) -> Lowered:
        """The float wrappers' call (f32 or f16: the same parameters, the clamp in the output's type)."""
        x, w, b, y = ctx.inp(0), ctx.inp(1), ctx.inp(2), ctx.out(0)
        in_dims, out_dims = nhwc(x.shape), nhwc(y.shape)
        filter_dims = tuple(int(d) for d in w.shape)
        g = geometry(ctx, in_dims[1:3], filter_dims[1:3], out_dims[1:3])
        act_min, act_max = fused_activation(ctx, y)
        return Lowered(
            entry=ctx.variant.entries[0],
            scratch_bytes=ctx.kernels.scratch(sizer, g, in_dims, filter_dims, out_dims),
            macs=out_dims[0] * out_dims[1] * out_dims[2] * out_dims[3] * filter_dims[1] * filter_dims[2]
            * filter_dims[3],
            params=dict(
                input=x.index, filter=w.index, bias=b.index if b is not None else None, output=y.index,
                input_dims=in_dims, filter_dims=filter_dims, output_dims=out_dims, bias_dims=(1, 1, 1, out_dims[3]),
                stride=(g.stride_w, g.stride_h), padding=(g.pad_w, g.pad_h), dilation=(g.dilation_w, g.dilation_h),
                act_min=act_min, act_max=act_max,
            ),
        )

    # -- hybrid (dynamic range) --

    def lower_hybrid(self, ctx: OpContext) -> Lowered:
        """LiteRT's hybrid CONV_2D in inline C. Weight scales that differ take EvalHybridPerChannel:
        each batch's input quantized asymmetrically, acc += w x (q - offset) over the in-bounds taps,
        acc x channel scale x input scale + bias. Otherwise EvalHybrid: symmetric input, acc x (input
        scale x weight scale) + bias (im2col pads with 0). The quantized input lives in scratch. On a core
        with MVE (one group) the int32 sums come from helia_mve_convolve_s8_s32, written over the float
        output and scaled there in place; its gathered columns follow the quantized input in scratch. A
        symmetric input is quantized there by helia_mve_quantize_symmetric_f32_s8, and the sums become floats
        by helia_mve_rescale_s32_f32 where the core has MVE floating point."""
        x, w, b, y = ctx.inp(0), ctx.inp(1), ctx.inp(2), ctx.out(0)
        in_dims, out_dims = nhwc(x.shape), nhwc(y.shape)
        filter_dims = tuple(int(d) for d in w.shape)
        g = geometry(ctx, in_dims[1:3], filter_dims[1:3], out_dims[1:3])
        per_channel = _hybrid_per_channel(w)
        groups = in_dims[3] // filter_dims[3]
        count = in_dims[1] * in_dims[2] * in_dims[3]
        act_min, act_max = hybrid_activation(ctx)
        constants = []
        if per_channel:
            constants.append(ConstArray("filter_scale", "float", np.asarray(w.quant.scales, dtype=np.float32),
                                        "per-channel weight scales"))
        # The int32 sums on our Helium kernel where it links (one group; it gives the taps loop's values
        # exactly, tests/kernels/test_helium_parity.py), else the taps loop in the template.
        kernel = HELIUM_CONV_S32 if ctx.kernels.helium_kernels and groups == 1 else None
        # The symmetric run-time quantization on Helium too (the same bytes and scale).
        quantize_kernel = HELIUM_QUANTIZE if ctx.kernels.helium_kernels and not per_channel else None
        # The float rescale, bias and clamp of the kernel's sums on Helium where the core has MVE
        # floating point (the same bits; without it the kernel would run its plain C).
        rescale_kernel = HELIUM_RESCALE if kernel is not None and ctx.target.has("mve_f") else None
        column_bytes = 0
        if kernel is not None:
            if per_channel:
                rows = np.asarray(w.data).reshape(filter_dims[0], -1).astype(np.int64).sum(axis=1)
                constants.append(ConstArray("row_sum", "int32_t", rows,
                                            "filter row sums: the input offset enters as offset x row sum"))
            column_bytes = sizes.helium_convolve_s8_s32(g, in_dims, filter_dims, out_dims)
        return Lowered(
            entry=kernel, scratch_bytes=count + column_bytes,
            macs=out_dims[0] * out_dims[1] * out_dims[2] * out_dims[3] * filter_dims[1] * filter_dims[2]
            * filter_dims[3],
            constants=constants,
            # With a kernel entry the plan's kernel names it; "implementation" says how an operator
            # without one computes (FIXED_VOCABULARY).
            fixed={**({} if kernel else {"implementation": "inline"}),
                   "input_quantization": "asymmetric" if per_channel else "symmetric"},
            params=dict(input=x.index, filter=w.index, bias=b.index if b is not None else None, output=y.index,
                        input_dims=in_dims, filter_dims=filter_dims, output_dims=out_dims, batches=in_dims[0],
                        kernel=kernel, quantize_kernel=quantize_kernel, rescale_kernel=rescale_kernel,
                        column_bytes=column_bytes,
                        output_count=out_dims[1] * out_dims[2] * out_dims[3],
                        count=count, asymmetric=per_channel, per_channel=per_channel, groups=groups,
                        filters_per_group=out_dims[3] // groups,
                        filter_scale=None if per_channel else c_float(w.quant.scales[0]),
                        stride=(g.stride_w, g.stride_h), padding=(g.pad_w, g.pad_h),
                        dilation=(g.dilation_w, g.dilation_h), act_min=act_min, act_max=act_max),
        )

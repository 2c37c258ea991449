# SPDX-License-Identifier: Apache-2.0
"""CONV_2D, int8 activations with per-channel int8 weights, lowered to ns-cmsis-nn convolutions."""

from __future__ import annotations

import numpy as np

from .. import cmsis_nn_sizes as sizes
from ..quant import per_channel_multipliers
from .base import ConstArray, Lowered, OpContext, OpLowering, Variant, register
from .common import (bias, check_output_shape, check_s64_shifts, fused_activation, geometry, int8_act, int16_act,
                     nhwc, offset_weight_sums, requantization_kind, weights, windowed_output_shape)

_SHAPE_RULES = ("input, filter and output 4-D (NHWC / OHWI)", "input channels a multiple of filter channels (groups)",
                "fused activation NONE, RELU, RELU6 or RELU_N1_TO_1")


@register
class Conv2D(OpLowering):
    op_types = ("CONV_2D",)
    variants = (
        Variant("int8", inputs=(int8_act(), weights(per_channel_axis=0), bias("int32")),
                outputs=(int8_act("output"),),
                entries=("arm_convolve_1x1_s8_fast", "arm_convolve_1x1_s8", "arm_convolve_1_x_n_s8",
                         "arm_convolve_s8", "arm_convolve_wrapper_s8"),
                template="conv_2d.c.j2", lower="lower_int8", notes=_SHAPE_RULES),
        Variant("a16w8", inputs=(int16_act(), weights(per_channel_axis=0), bias("int64", "int32")),
                outputs=(int16_act("output"),), entries=("arm_convolve_wrapper_s16",),
                template="conv_2d_s16.c.j2", lower="lower_a16w8",
                notes=_SHAPE_RULES + ("output channels a multiple of the groups",)),
    )

    def validate(self, ctx: OpContext) -> None:
        x, w, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        if len(x.shape) != 4 or len(w.shape) != 4 or len(y.shape) != 4:
            raise ctx.error("input, filter and output must be 4-D (NHWC / OHWI)", x)
        if x.shape[3] % w.shape[3] != 0:
            raise ctx.error(f"input channels {x.shape[3]} are not a multiple of filter channels {w.shape[3]}", w)
        groups = x.shape[3] // w.shape[3]
        if w.shape[0] % groups != 0:
            # LiteRT's rule too; ns-cmsis-nn's convolutions return an argument error otherwise.
            raise ctx.error(f"{w.shape[0]} output channels do not split into {groups} groups", w)
        fused_activation(ctx, y)
        check_output_shape(ctx, y, self.infer_shapes(ctx)[0])

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
        if ctx.kernel_knob() == "generic":
            entry = "arm_convolve_wrapper_s8"
        if "arm_convolve_wrapper_s8" not in candidates:
            candidates.append("arm_convolve_wrapper_s8")

        if entry == "arm_convolve_s8":
            scratch = kernels.scratch(sizes.convolve_s8, in_dims, filter_dims)
        else:
            scratch = kernels.scratch(sizes.convolve_wrapper_s8, g, in_dims, filter_dims, out_dims)

        in_zp, out_zp = x.quant.zero_point, y.quant.zero_point
        mults, shifts = per_channel_multipliers(x.quant.scale, list(w.quant.scales), y.quant.scale, out_dims[3])
        act_min, act_max = fused_activation(ctx, y)
        constants = [
            ConstArray("multiplier", "int32_t", np.asarray(mults, dtype=np.int64), "per-channel requantization"),
            ConstArray("shift", "int32_t", np.asarray(shifts, dtype=np.int64), "per-channel shift (left > 0)"),
        ]
        weight_sums = None
        if kernels.wants_weight_sums:
            rows = np.asarray(w.data).reshape(w.shape[0], -1).astype(np.int64).sum(axis=1)
            sums = offset_weight_sums(rows, b.data if b is not None else None, -in_zp)
            constants.append(ConstArray("weight_sum", "int32_t", sums,
                                        "bias + input_offset * filter row sum, read by the MVE kernels"))
            weight_sums = "precomputed"
        macs = out_dims[0] * out_dims[1] * out_dims[2] * out_dims[3] * filter_dims[1] * filter_dims[2] * filter_dims[3]
        return Lowered(
            entry=entry,
            candidates=candidates,
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

# SPDX-License-Identifier: Apache-2.0
"""FULLY_CONNECTED: int8 and int16 activations (per-tensor or per-channel int8 weights) on ns-cmsis-nn FC
entries, float32 and float16 on arm_fully_connected_f32 / _f16, hybrid (float32 activations, int8 weights)
in inline C as LiteRT's hybrid kernel."""

from __future__ import annotations

import numpy as np

from helia_aot.library import ns_cmsis_nn_scratch as sizes
from helia_aot.library.cost_kinds import FULLY_CONNECTED
from helia_aot.library.helium_costs import MVE_FC
from helia_aot.emit.c_syntax import c_float
from helia_aot.ir.quant import f32, per_channel_multipliers, quantize_multiplier
from helia_aot.ops.base import (FC_WEIGHTS_ZERO_POINT_SOURCE, ConstArray, Lowered, OpContext, OpLowering, Operand,
                                Rule, Variant, litert, register, undefined)
from helia_aot.ops.shared.accumulator import (ACCUMULATOR_RULE, S64_SHIFT_RULE, check_accumulator, check_s64_shifts,
                                              int64_bias, offset_weight_sums, requantization_kind)
from helia_aot.ops.shared.float_variants import float16_variant, hybrid_variant
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE
from helia_aot.ops.shared.fused_activation import ACTIVATION_RULE, fused_activation, hybrid_activation
from helia_aot.ops.shared.operands import bias, f16, fp32, fp32_bias, fp32_const, int8_act, int16_act, weights

# int32 dot products and the symmetric row quantization of the hybrid variant on cores with MVE
# (kernels/helium/src/)
HELIUM_CONV_S32 = "helia_mve_convolve_s8_s32"
HELIUM_QUANTIZE = "helia_mve_quantize_symmetric_f32_s8"
# and their float rescale, bias and clamp (MVE floating point)
HELIUM_RESCALE = "helia_mve_rescale_s32_f32"
# int8 layers with per-tensor weights on cores with MVE: four filter rows per input pass, arm_fully_connected_s8's
# arguments and kernel sums (kernels/helium/src/helia_mve_fully_connected_s8.c)
HELIUM_FC = "helia_mve_fully_connected_s8"

WEIGHTS_2D = Rule("weights 2-D [outputs, depth]", litert("fully_connected.cc Prepare",
                                                        "TF_LITE_ENSURE_EQ(NumDimensions(filter), 2)"))
DEFAULT_FORMAT = Rule("weights format DEFAULT", litert(
    "fully_connected.cc Eval", "SHUFFLED4x16INT8 weights run only with uint8 inputs; any other type reports an "
                               "unsupported weights format"))
# An input size that is not a multiple of the depth runs as the references run it (measured by
# tests/e2e/test_differential.py): LiteRT's Prepare takes input size / depth batches in integer division, TFLM
# takes the output's rows, and both read that many rows from the front of the input, ignoring the rest. The
# module does the same; the output must hold those rows (OUTPUT_SHAPE_RULE; 7 inputs over depth 8 is no row).
# LiteRT's FULLY_CONNECTED checks the fused activation itself (unlike CONV_2D or ADD, which run TANH unclamped).
FC_ACTIVATION = Rule(ACTIVATION_RULE.text, litert(
    "fully_connected.cc Prepare", "TF_LITE_ENSURE(params->activation == kTfLiteActNone || kTfLiteActRelu || "
    "kTfLiteActReluN1To1 || kTfLiteActRelu6)", "clamps to the whole output range for any other activation, "
    "disregarding it"))
# TFLM takes its rows from the output: an output with more rows than the input holds makes it read past the
# input's end. Fewer rows: TFLM computes those while LiteRT resizes the output to the input's rows (the
# references disagree on the interface), a limit of ours.
OUTPUT_ROWS = Rule("output rows no more than input size // depth", undefined(
    "TFLM fully_connected.cc (reference FullyConnected: batches from the output's rows)",
    "reads a row for each output row, past the input's end when the output has more rows than it holds"))
_RULES = (WEIGHTS_2D, DEFAULT_FORMAT, FC_ACTIVATION, OUTPUT_ROWS, OUTPUT_SHAPE_RULE)
# int8 weights quantized per tensor may have any zero point: LiteRT's FullyConnected reference subtracts it
# (filter_offset), and so do arm_fully_connected_s8 (fc_params.filter_offset, every build; the MVE kernel
# sums carry it) and the portable kernel. Per channel, LiteRT's kernel (FullyConnectedPerChannel) reads no
# filter offset: a nonzero zero point is computed as 0 there, and so it is here (as the depthwise filter's).
PER_CHANNEL_ZERO_POINT_NOTE = ("per-channel weight zero points ignored, as LiteRT's FullyConnectedPerChannel "
                               "does (no filter offset)")
INT8_WEIGHTS = Operand("weights", ("int8",), constant=True, quantized=True, per_channel_axis=0)


def fc_kernel_sums(weights: np.ndarray, bias: np.ndarray | None, input_offset: int, filter_offset: int) -> np.ndarray:
    """arm_vector_sum_s8: bias + input_offset * (row sum + cols * filter_offset), read from ctx->buf
    by the MVE FC kernels. Precomputed so the module needs neither the RAM nor the init-time pass."""
    rows = weights.astype(np.int64).sum(axis=1) + weights.shape[1] * int(filter_offset)
    return offset_weight_sums(rows, bias, input_offset)


@register
class FullyConnected(OpLowering):
    op_types = ("FULLY_CONNECTED",)
    options_table = "FullyConnectedOptions"
    variants = (
        Variant("int8", inputs=(int8_act(), INT8_WEIGHTS, bias("int32")),
                outputs=(int8_act("output"),),
                entries=("arm_fully_connected_s8", "arm_fully_connected_per_channel_s8"),
                template="fully_connected.c.j2", lower="lower_int8",
                rules=_RULES + (ACCUMULATOR_RULE,), notes=(PER_CHANNEL_ZERO_POINT_NOTE,),
                own_entries=(HELIUM_FC,),
                cost_kinds=(("arm_fully_connected_s8", FULLY_CONNECTED),
                            ("arm_fully_connected_per_channel_s8", FULLY_CONNECTED),
                            (HELIUM_FC, MVE_FC))),
        Variant("a16w8", inputs=(int16_act(), weights("weights", 0, FC_WEIGHTS_ZERO_POINT_SOURCE),
                                 bias("int64", "int32")),
                outputs=(int16_act("output"),),
                entries=("arm_fully_connected_s16", "arm_fully_connected_per_channel_s16"),
                template="fully_connected_s16.c.j2", lower="lower_a16w8",
                rules=_RULES + (ACCUMULATOR_RULE, S64_SHIFT_RULE)),
        Variant("float32", inputs=(fp32(), fp32_const("weights"), fp32_bias()), outputs=(fp32("output"),),
                entries=("arm_fully_connected_f32",), template="fully_connected_f32.c.j2", lower="lower_float32",
                rules=_RULES),
        # -- float16 (native FP16) --
        float16_variant(inputs=(f16(), f16("weights", constant=True), f16("bias", optional=True, constant=True)),
                        outputs=(f16("output"),), entries=("arm_fully_connected_f16",),
                        template="fully_connected_f16.c.j2",
                        rules=_RULES, notes=("float16 accumulation (ns-cmsis-nn's _f16 kernels)",)),
        # -- hybrid (dynamic range) --
        hybrid_variant(weights("weights", per_channel_axis=0),
                       ("inline C: each batch row quantized to int8 at run time (asymmetric_quantize_inputs "
                        "picks asymmetric), int32 dot products, float rescale",),
                       "fully_connected_hybrid.c.j2", rules=_RULES, own_entries=(HELIUM_CONV_S32, HELIUM_QUANTIZE, HELIUM_RESCALE)),
    )

    def validate(self, ctx: OpContext) -> None:
        x, w, y = ctx.inp(0), ctx.inp(1), ctx.out(0)
        if len(w.shape) != 2:
            raise ctx.error(WEIGHTS_2D, w, detail=f"weights must be 2-D [outputs, depth], got {list(w.shape)}")
        if ctx.options("weights_format", "DEFAULT") != "DEFAULT":
            raise ctx.error(DEFAULT_FORMAT, w, detail="only the DEFAULT weights format is supported")
        act = ctx.options("fused_activation_function", "NONE")
        if act not in ("NONE", "RELU", "RELU6", "RELU_N1_TO_1"):
            raise ctx.error(FC_ACTIVATION, y, detail=f"fused activation {act} is not supported (supported: NONE, RELU, "
                                                     "RELU6, RELU_N1_TO_1)")
        fused_activation(ctx, y)
        rows = x.num_elements // w.shape[1]
        if y.num_elements != rows * w.shape[0]:
            rule = OUTPUT_ROWS if y.num_elements > rows * w.shape[0] else OUTPUT_SHAPE_RULE
            raise ctx.error(rule, y, detail=f"output shape {list(y.shape)} does not hold {rows} rows (input size "
                                            f"{x.num_elements} over depth {w.shape[1]}) x {w.shape[0]} outputs")
        check_accumulator(ctx, x, w, ctx.inp(2), 0)

    def lower_int8(self, ctx: OpContext) -> Lowered:
        x, w, b, y = ctx.inp(0), ctx.inp(1), ctx.inp(2), ctx.out(0)
        depth, outputs = int(w.shape[1]), int(w.shape[0])
        batches = x.num_elements // depth
        per_channel = w.quant.per_channel
        # Per channel the weight zero points are not read (PER_CHANNEL_ZERO_POINT_NOTE).
        in_zp, out_zp, w_zp = x.quant.zero_point, y.quant.zero_point, 0 if per_channel else w.quant.zero_point
        act_min, act_max = fused_activation(ctx, y)
        if per_channel:
            mults, shifts = per_channel_multipliers(x.quant.scale, list(w.quant.scales), y.quant.scale, outputs)
            entry = "arm_fully_connected_per_channel_s8"
        else:
            # GetQuantizedConvolutionMultipler: the input*filter product is taken in float32.
            m, s = quantize_multiplier(f32(x.quant.scale * w.quant.scale) / float(y.quant.scale))
            mults, shifts = [m], [s]
            entry = "arm_fully_connected_s8"
        constants = []
        if per_channel:
            constants += [
                ConstArray("multiplier", "int32_t", np.asarray(mults, dtype=np.int64), "per-channel requantization"),
                ConstArray("shift", "int32_t", np.asarray(shifts, dtype=np.int64), "per-channel shift"),
            ]
        candidates = [entry, "arm_fully_connected_wrapper_s8"]
        if ctx.kernels.helium_kernels and not per_channel and -31 <= shifts[0] <= 30:
            # Our Helium fully connected kernel (kernels/helium): the same arguments and kernel sums,
            # chosen by cost only. Its offset and clamp ranges hold for every int8 layer; the shift is
            # checked.
            candidates.append(HELIUM_FC)
        if ctx.entry_override is not None:
            entry = ctx.entry_override  # helia_aot.lowering.kernel_choice's pick among the candidates
        weight_sums = None
        if ctx.kernels.wants_weight_sums:
            sums = fc_kernel_sums(w.data, b.data if b is not None else None, -in_zp, -w_zp)
            constants.append(ConstArray("kernel_sum", "int32_t", sums,
                                        "bias + input_offset * weight row sums, ctx->buf of the MVE kernel"))
            weight_sums = "precomputed"
        return Lowered(
            entry=entry,
            candidates=candidates,
            candidate_scratch={name: 0 for name in candidates},
            scratch_bytes=0,
            macs=batches * depth * outputs,
            constants=constants,
            weight_sums=weight_sums,
            requantization=requantization_kind(mults, shifts),
            params=dict(
                input=x.index, filter=w.index, bias=b.index if b is not None else None, output=y.index,
                input_dims=(batches, 1, 1, depth), filter_dims=(depth, 1, 1, outputs),
                bias_dims=(1, 1, 1, outputs), output_dims=(batches, 1, 1, outputs),
                input_offset=-in_zp, filter_offset=-w_zp, output_offset=out_zp,
                act_min=act_min, act_max=act_max, per_channel=per_channel,
                multiplier=mults[0], shift=shifts[0],
            ),
        )

    def lower_a16w8(self, ctx: OpContext) -> Lowered:
        """int16 activations, int8 weights: arm_fully_connected_s16 or its per-channel twin, int64 bias
        (an int32 one widened at conversion). The per-channel kernel keeps its reduced multipliers in
        ctx->buf, so ns-cmsis-nn needs one int32 per output there."""
        x, w, b, y = ctx.inp(0), ctx.inp(1), ctx.inp(2), ctx.out(0)
        depth, outputs = int(w.shape[1]), int(w.shape[0])
        batches = x.num_elements // depth
        act_min, act_max = fused_activation(ctx, y)
        per_channel = w.quant.per_channel
        constants = int64_bias(b)
        filter_dims = (depth, 1, 1, outputs)
        scratch = 0
        if per_channel:
            mults, shifts = per_channel_multipliers(x.quant.scale, list(w.quant.scales), y.quant.scale, outputs)
            entry = "arm_fully_connected_per_channel_s16"
            constants += [
                ConstArray("multiplier", "int32_t", np.asarray(mults, dtype=np.int64), "per-channel requantization"),
                ConstArray("shift", "int32_t", np.asarray(shifts, dtype=np.int64), "per-channel shift"),
            ]
            scratch = ctx.kernels.scratch(sizes.fully_connected_per_channel_s16, filter_dims)
        else:
            m, s = quantize_multiplier(f32(x.quant.scale * w.quant.scale) / float(y.quant.scale))
            mults, shifts = [m], [s]
            entry = "arm_fully_connected_s16"
        check_s64_shifts(ctx, shifts, y)
        return Lowered(
            entry=entry,
            candidates=[entry, "arm_fully_connected_wrapper_s16"],
            scratch_bytes=scratch,
            macs=batches * depth * outputs,
            constants=constants,
            requantization=requantization_kind(mults, shifts),
            params=dict(
                input=x.index, filter=w.index, bias=b.index if b is not None else None, output=y.index,
                bias_widened=b is not None and b.dtype == "int32",
                input_dims=(batches, 1, 1, depth), filter_dims=filter_dims,
                bias_dims=(1, 1, 1, outputs), output_dims=(batches, 1, 1, outputs),
                act_min=act_min, act_max=act_max, per_channel=per_channel, multiplier=mults[0], shift=shifts[0],
            ),
        )

    def lower_float32(self, ctx: OpContext) -> Lowered:
        """arm_fully_connected_f32 (NHWC layout): a row per batch times the [outputs, depth] weights,
        bias and clamp. It needs no scratch on any build."""
        return self._lower_float(ctx)

    # -- float16 (native FP16) --

    def lower_float16(self, ctx: OpContext) -> Lowered:
        """arm_fully_connected_f16, standard [outputs, depth] weights, no scratch on any build."""
        return self._lower_float(ctx)

    def _lower_float(self, ctx: OpContext) -> Lowered:
        """The float entries' call (f32 or f16: the same parameters, the clamp in the output's type)."""
        x, w, b, y = ctx.inp(0), ctx.inp(1), ctx.inp(2), ctx.out(0)
        depth, outputs = int(w.shape[1]), int(w.shape[0])
        batches = x.num_elements // depth
        act_min, act_max = fused_activation(ctx, y)
        return Lowered(
            entry=ctx.variant.entries[0],
            macs=batches * depth * outputs,
            params=dict(
                input=x.index, filter=w.index, bias=b.index if b is not None else None, output=y.index,
                input_dims=(batches, 1, 1, depth), filter_dims=(depth, 1, 1, outputs),
                bias_dims=(1, 1, 1, outputs), output_dims=(batches, 1, 1, outputs),
                act_min=act_min, act_max=act_max,
            ),
        )

    # -- hybrid (dynamic range) --

    def lower_hybrid(self, ctx: OpContext) -> Lowered:
        """LiteRT's EvalHybridDense: per batch row, BatchQuantizeFloats (symmetric, or asymmetric with
        asymmetric_quantize_inputs), the int8 dot product with each weight row (minus row sum x offset),
        then bias + dot x (row scale x weight scale). The row sums are constants; the quantized row
        lives in scratch, which the module needs with any kernel library."""
        x, w, b, y = ctx.inp(0), ctx.inp(1), ctx.inp(2), ctx.out(0)
        depth, outputs = int(w.shape[1]), int(w.shape[0])
        batches = x.num_elements // depth
        asymmetric = bool(ctx.options("asymmetric_quantize_inputs", False))
        per_channel = w.quant.per_channel
        constants = []
        if per_channel:
            constants.append(ConstArray("filter_scale", "float", np.asarray(w.quant.scales, dtype=np.float32),
                                        "per-channel weight scales"))
        if asymmetric:
            rows = np.asarray(w.data).reshape(outputs, depth).astype(np.int64).sum(axis=1)
            constants.append(ConstArray("row_sum", "int32_t", rows, "weight row sums (input offset correction)"))
        act_min, act_max = hybrid_activation(ctx)
        # The dot products on our Helium kernel where it links (a 1x1 convolution of one pixel, read in
        # place: no scratch beyond the row), else the loop in the template; the same int32 values.
        kernel = HELIUM_CONV_S32 if ctx.kernels.helium_kernels else None
        quantize_kernel = HELIUM_QUANTIZE if ctx.kernels.helium_kernels and not asymmetric else None
        # The float rescale, bias and clamp on Helium where the core has MVE floating point (the same
        # bits); an asymmetric row's offset then enters the dot products through the row sums.
        rescale_kernel = HELIUM_RESCALE if kernel is not None and ctx.target.has("mve_f") else None
        return Lowered(
            entry=kernel, scratch_bytes=depth, macs=batches * depth * outputs, constants=constants,
            # With a kernel entry the plan's kernel names it; "implementation" says how an operator
            # without one computes (FIXED_VOCABULARY).
            fixed={**({} if kernel else {"implementation": "inline"}),
                   "input_quantization": "asymmetric" if asymmetric else "symmetric"},
            params=dict(input=x.index, filter=w.index, bias=b.index if b is not None else None, output=y.index,
                        kernel=kernel, quantize_kernel=quantize_kernel, rescale_kernel=rescale_kernel,
                        batches=batches, depth=depth, outputs=outputs, count=depth, asymmetric=asymmetric,
                        per_channel=per_channel, filter_scale=None if per_channel else c_float(w.quant.scale),
                        act_min=act_min, act_max=act_max),
        )

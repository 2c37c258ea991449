# SPDX-License-Identifier: Apache-2.0
"""MEAN, int8 and int16 up to rank 4, lowered to arm_mean_s8 / _s16 with LiteRT's mean multiplier (the 1/count
divided into the input/output multiplier as LiteRT and TFLM do it, so the outputs are theirs bit for bit);
float32 as inline C (sum in row-major order, then divide, as LiteRT's reference)."""

from __future__ import annotations

from helia_aot.emit.c_syntax import c_float
from helia_aot.ir.quant import quantize_multiplier
from helia_aot.ops.base import (AXIS_RANGE_RULE, Axis, Lowered, OpContext, OpLowering, Rule, Variant, kernel_limit,
                                register)
from helia_aot.ops.shared.broadcast import broadcast_strides
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE, constant_ints
from helia_aot.ops.shared.float_variants import float16_variant
from helia_aot.ops.shared.operands import const_ints, f16, fp32, int8_act, int16_act
from helia_aot.ops.shared.shapes import nhwc


RANK = Rule("rank 1 to 4", kernel_limit("arm_mean_s8 / arm_mean_s16 (and the float variants' inline loop)",
                                        "take 4-D dimensions; LiteRT's reduce.cc reduces higher ranks",
                                        "an inline-C reduction over any rank"))
_RULES = (RANK, AXIS_RANGE_RULE, OUTPUT_SHAPE_RULE)


def _axes(ctx: OpContext) -> list[int]:
    rank = len(ctx.inp(0).shape)
    given = constant_ints(ctx, 1, "axis")
    if any(not -rank <= a < rank for a in given):
        raise ctx.error(AXIS_RANGE_RULE, ctx.inp(1), detail=f"axis {given} is out of range for a rank-{rank} input")
    return sorted({a % rank for a in given})


def litert_mean_multiplier(input_scale: float, output_scale: float, count: int) -> tuple[int, int]:
    """LiteRT's int8 and int16 MEAN (QuantizedMeanOrSum; TFLM's computes the same): the input/output
    multiplier, shifted left by floor(log2(count)) (at most 32, and no further than a total shift of
    -31), divided by the count with truncation. Its sum is then requantized as arm_mean_s8/_s16 do, so
    these parameters make the kernel exact; the count folded into a freshly rounded multiplier is one
    code off now and then."""
    mult, shift = quantize_multiplier(input_scale / output_scale)
    up = min(count.bit_length() - 1, 32, 31 + shift)
    return ((mult << up) // count), shift - up


@register
class Mean(OpLowering):
    op_types = ("MEAN",)
    options_table = "ReducerOptions"
    axes = (Axis("input 1"),)
    variants = (
        Variant("int8", inputs=(int8_act(), const_ints("axis")), outputs=(int8_act("output"),),
                entries=("arm_mean_s8",), template="mean.c.j2", rules=_RULES),
        Variant("int16", inputs=(int16_act(), const_ints("axis")), outputs=(int16_act("output"),),
                entries=("arm_mean_s16",), template="mean.c.j2", rules=_RULES),
        Variant("float32", inputs=(fp32(), const_ints("axis")), outputs=(fp32("output"),), template="mean_f32.c.j2",
                lower="lower_float32", rules=_RULES, notes=("inline C",)),
        # -- float16 (native FP16) --
        float16_variant(inputs=(f16(), const_ints("axis")), outputs=(f16("output"),), template="mean_f16.c.j2",
                        rules=_RULES, notes=("inline C: float32 sums in row-major order, one rounding to float16",)),
    )

    def validate(self, ctx: OpContext) -> None:
        x, y = ctx.inp(0), ctx.out(0)
        rank = len(x.shape)
        if not 1 <= rank <= 4:
            raise ctx.error(RANK, x, detail=f"rank {rank} input is not supported (1 to 4)")
        axes = _axes(ctx)
        keep = bool(ctx.options("keep_dims", False))
        expected = tuple(1 if d in axes else x.shape[d] for d in range(rank) if keep or d not in axes)
        if y.num_elements != max(1, int(__import__("math").prod(expected))):
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} does not match the reduced "
                                                         f"{list(expected)}")

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        rank = len(x.shape)
        axes = _axes(ctx)
        pad = 4 - rank
        in_dims = nhwc(x.shape)
        axis_dims = tuple(1 if (d - pad) in axes else 0 for d in range(4))
        out_dims = tuple(1 if axis_dims[d] else in_dims[d] for d in range(4))
        count = 1
        for d in range(4):
            if axis_dims[d]:
                count *= in_dims[d]
        # Not quantize_multiplier(in / (out * count)): rounding that product afresh is one code off LiteRT and
        # TFLM on about a third of int8 global poolings (tests/e2e/test_tflm_op_sweeps.py).
        mult, shift = litert_mean_multiplier(float(x.quant.scale), float(y.quant.scale), count)
        return Lowered(entry=ctx.variant.entries[0],
                       fixed={"division": "folded_into_multiplier"},
                       params=dict(input=x.index, output=y.index, input_dims=in_dims, axis_dims=axis_dims,
                                   output_dims=out_dims, input_offset=-x.quant.zero_point,
                                   out_offset=y.quant.zero_point, mult=mult, shift=shift))

    def lower_float32(self, ctx: OpContext) -> Lowered:
        """No ns-cmsis-nn float MEAN: the output accumulates its inputs (strides 0 on reduced axes),
        then each is divided by the count in float, as LiteRT's reference does."""
        x, y = ctx.inp(0), ctx.out(0)
        axes = _axes(ctx)
        pad = 4 - len(x.shape)
        in_dims = nhwc(x.shape)
        mask = [d >= pad and (d - pad) in axes for d in range(4)]
        reduced = tuple(1 if mask[d] else in_dims[d] for d in range(4))
        count = 1
        for d in range(4):
            count *= in_dims[d] if mask[d] else 1
        return Lowered(entry=None, fixed={"implementation": "inline"},
                       params=dict(input=x.index, output=y.index, input_dims=in_dims, output_size=y.num_elements,
                                   strides=broadcast_strides(reduced, in_dims), count=c_float(float(count))))

    # -- float16 (native FP16) --

    def lower_float16(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        pad = 4 - len(x.shape)
        axes = _axes(ctx)
        in_dims = nhwc(x.shape)
        reduce = tuple(in_dims[d] if (d - pad) in axes else 1 for d in range(4))
        count = 1
        for r in reduce:
            count *= r
        return Lowered(entry=None, fixed={"implementation": "inline", "accumulator": "float32"},
                       params=dict(input=x.index, output=y.index, input_dims=in_dims, reduce=reduce, count=count,
                                   output_dims=tuple(1 if reduce[d] > 1 or (d - pad) in axes else in_dims[d]
                                                     for d in range(4))))

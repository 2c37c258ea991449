# SPDX-License-Identifier: Apache-2.0
"""TRANSPOSE, int8, int16 and float32 up to rank 4, lowered to arm_transpose_s8 / _s16 / _f32 (ranks below 4
padded to 4-D). Codes are moved whatever the quantization says (LiteRT's transpose.cc compares none), so the
integer variants take any scale and zero point on either side."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import (ConstArray, Lowered, OpContext, OpLowering, Rule, Variant, both, helia_limit,
                                kernel_limit, register, undefined)
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE, constant_ints
from helia_aot.ops.shared.float_variants import float16_variant
from helia_aot.ops.shared.operands import const_ints, f16, fp32
from helia_aot.ops.shared.shapes import nhwc
from helia_aot.ops.shared.shaping import data

PERM_RANGE = Rule("perm: one entry per input dimension, each in [0, rank)", both(
    "transpose.cc Prepare / micro transpose_common.cc TransposePrepare",
    "NumElements(perm) == rank and each entry >= 0 and < rank (TFLM: perm_data[idx] >= 0 && < dims)"))
# Measured: LiteRT runs a perm that repeats an axis (its check is the range only).
PERMUTATION = Rule("perm names each axis once, or repeats axes only where LiteRT's strided gather stays in the "
                   "input", helia_limit(
                       "the transpose kernels take a permutation; LiteRT's transpose.cc runs a repeated axis as a "
                       "strided gather (output index k steps the input by the stride of axis perm[k])",
                       "an inline-C gather for repeated axes"))
GATHER_PAST_INPUT = Rule("a repeated axis's strided gather stays within the input", undefined(
    "transpose.cc (reference Transpose's strided walk)", "with a repeated axis of size above 1 the walk's last offset "
    "is usually past the input's end, which it reads unchecked (measured: garbage values)"))
RANK = Rule("rank <= 4", kernel_limit(
    "arm_transpose_s8 / _s16 / _f32 / _f16", "take 4-D dims; LiteRT's transpose.cc runs up to rank 6, TFLM's up to 5",
    "an inline-C transpose over any rank"))
_RULES = (PERM_RANGE, PERMUTATION, GATHER_PAST_INPUT, RANK, OUTPUT_SHAPE_RULE)


@register
class Transpose(OpLowering):
    op_types = ("TRANSPOSE",)
    options_table = "TransposeOptions"
    variants = (
        Variant("int8", inputs=(data("int8"), const_ints("perm")), outputs=(data("int8", "output"),),
                entries=("arm_transpose_s8",), template="transpose.c.j2", rules=_RULES),
        Variant("int16", inputs=(data("int16"), const_ints("perm")), outputs=(data("int16", "output"),),
                entries=("arm_transpose_s16",), template="transpose.c.j2", rules=_RULES),
        Variant("float32", inputs=(fp32(), const_ints("perm")), outputs=(fp32("output"),),
                entries=("arm_transpose_f32",), template="transpose_f32.c.j2", lower="lower_float32",
                rules=_RULES),
        # -- float16 (native FP16) --
        float16_variant(inputs=(f16(), const_ints("perm")), outputs=(f16("output"),), entries=("arm_transpose_f16",),
                        template="transpose_f16.c.j2", rules=_RULES),
    )

    def validate(self, ctx: OpContext) -> None:
        x, y = ctx.inp(0), ctx.out(0)
        perm = constant_ints(ctx, 1, "perm")
        rank = len(x.shape)
        if len(perm) != rank or any(not 0 <= p < rank for p in perm):
            raise ctx.error(PERM_RANGE, ctx.inp(1), detail=f"perm {perm} does not name {rank} axes of the rank-{rank} "
                                                           f"input")
        if sorted(perm) != list(range(rank)):
            strides = [int(np.prod(x.shape[k + 1:], dtype=np.int64)) for k in range(rank)]
            last = sum((int(x.shape[p]) - 1) * strides[p] for p in perm)
            if last >= x.num_elements:
                raise ctx.error(GATHER_PAST_INPUT, ctx.inp(1), detail=f"perm {perm} repeats an axis: LiteRT's "
                                f"strided gather reads input element {last} of {x.num_elements}")
            raise ctx.error(PERMUTATION, ctx.inp(1), detail=f"perm {perm} is not a permutation of the rank-{rank} "
                                                            f"input's axes")
        if rank > 4:
            raise ctx.error(RANK, x, detail=f"rank {rank} input is not supported (up to 4)")
        if tuple(y.shape) != tuple(x.shape[p] for p in perm):
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} does not match the permuted "
                                                         f"input")

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        rank = len(x.shape)
        pad = 4 - rank
        perm = list(range(pad)) + [p + pad for p in constant_ints(ctx, 1, "perm")]
        return Lowered(entry=ctx.variant.entries[0],
                       constants=[ConstArray("perm", "uint32_t", np.asarray(perm, dtype=np.int64),
                                             "permutation padded to 4-D")],
                       params=dict(input=x.index, output=y.index, input_dims=nhwc(x.shape),
                                   output_dims=nhwc(y.shape)))

    def fold(self, ctx: OpContext):
        return [np.transpose(ctx.inp(0).data, constant_ints(ctx, 1, "perm"))]

    def lower_float32(self, ctx: OpContext) -> Lowered:
        """arm_transpose_f32 (and _f16) takes the permutation in its params (num_dims 4, NHWC layout)."""
        x, y = ctx.inp(0), ctx.out(0)
        pad = 4 - len(x.shape)
        perm = list(range(pad)) + [p + pad for p in constant_ints(ctx, 1, "perm")]
        return Lowered(entry=ctx.variant.entries[0],
                       params=dict(input=x.index, output=y.index, input_dims=nhwc(x.shape),
                                   output_dims=nhwc(y.shape), perm=perm))

    # -- float16 (native FP16) --

    def lower_float16(self, ctx: OpContext) -> Lowered:
        """arm_transpose_f16: the same parameters as float32."""
        return self.lower_float32(ctx)

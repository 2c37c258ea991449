# SPDX-License-Identifier: Apache-2.0
"""STRIDED_SLICE, int8, int16, float32 and int32 up to rank 4 with positive strides, lowered to
arm_strided_slice_s8 / _s16 / _f32 / _s32 (int32: plain integers, e.g. TFLM's audio front end slicing its
energies). A slice copies elements whole, so float32 runs on _s32 (the same 4-byte copies) where the
library has no _f32 (FLOAT32_AS_WORDS). Codes are copied whatever the quantization says (LiteRT's
strided_slice.cc compares none), so the integer variants take any scale and zero point on either side."""

from __future__ import annotations

from helia_aot.ops.base import (Lowered, OpContext, OpLowering, Operand, Rule, Variant, both, helia_limit, kernel_limit,
                                register)
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE, constant_ints
from helia_aot.ops.shared.float_variants import float16_variant
from helia_aot.ops.shared.operands import const_ints, f16, fp32
from helia_aot.ops.shared.shaping import data

ENTRIES = Rule("begin, end and strides hold one entry per input dimension", both(
    "strided_slice.cc Prepare / micro strided_slice_common.cc StridedSlicePrepare",
    "NumElements(begin / end / strides) equal the input's rank (LiteRT: TF_LITE_ENSURE_EQ on each)"))
NONZERO_STRIDE = Rule("no stride 0", both(
    "strided_slice.cc ResizeOutputTensor / micro strided_slice_common.cc CheckOutputSize",
    "TF_LITE_ENSURE_MSG(stride != 0, \"stride value has to be non-zero\")"))
POSITIVE_STRIDE = Rule("positive strides", kernel_limit(
    "arm_strided_slice_s8 / _s16 / _s32 / _f32 / _f16", "walk forward only (LiteRT's strided_slice.cc takes "
    "negative strides)", "an inline-C backward walk"))
RANK = Rule("rank <= 4", kernel_limit(
    "arm_strided_slice_s8 / _s16 / _s32 / _f32 / _f16", "take 4-D dims; LiteRT's and TFLM's strided_slice take rank 5",
    "an inline-C slice over rank 5"))
MASKS = Rule("no ellipsis_mask or new_axis_mask, offset false", helia_limit(
    "the masks that insert or expand axes, and offset (begin added to end), are not resolved here; LiteRT's "
    "strided_slice.cc applies them", "resolving them into plain begin / end / strides at conversion"))
_RULES = (ENTRIES, NONZERO_STRIDE, POSITIVE_STRIDE, RANK, MASKS, OUTPUT_SHAPE_RULE)


def resolve(ctx: OpContext):
    """Per-axis (begin, size, stride) after masks, as TFLite's StridedSlice computes them."""
    x = ctx.inp(0)
    rank = len(x.shape)
    begin = constant_ints(ctx, 1, "begin")
    end = constant_ints(ctx, 2, "end")
    strides = constant_ints(ctx, 3, "strides")
    if len(begin) != rank or len(end) != rank or len(strides) != rank:
        raise ctx.error(ENTRIES, ctx.inp(1), detail=f"begin/end/strides must have {rank} entries, have {len(begin)}, "
                                                    f"{len(end)} and {len(strides)}")
    if ctx.options("ellipsis_mask", 0) or ctx.options("new_axis_mask", 0):
        raise ctx.error(MASKS, ctx.inp(1), detail="ellipsis_mask and new_axis_mask are not supported")
    if ctx.options("offset", False):
        raise ctx.error(MASKS, ctx.inp(1), detail="offset=true is not supported")
    bm, em, sm = (int(ctx.options(k, 0)) for k in ("begin_mask", "end_mask", "shrink_axis_mask"))
    result = []
    for d in range(rank):
        n, s = int(x.shape[d]), strides[d]
        if s == 0:
            raise ctx.error(NONZERO_STRIDE, ctx.inp(3), detail=f"stride 0 on axis {d}")
        if s < 0:
            raise ctx.error(POSITIVE_STRIDE, ctx.inp(3), detail=f"stride {s} on axis {d} is not supported (positive "
                                                                f"strides only)")
        b = 0 if bm >> d & 1 else begin[d]
        b = b + n if b < 0 else b
        b = min(max(b, 0), n)
        if sm >> d & 1:
            result.append((b, 1, 1, True))
            continue
        e = n if em >> d & 1 else end[d]
        e = e + n if e < 0 else e
        e = min(max(e, 0), n)
        size = max(0, (e - b + s - 1) // s)
        result.append((b, size, s, False))
    return result


# Where the kernel library lacks arm_strided_slice_f32: float32 elements copied as the int32 words they are.
FLOAT32_AS_WORDS = (("arm_strided_slice_f32", "arm_strided_slice_s32"),)


def slice_params(ctx: OpContext, **params) -> Lowered:
    """The strided-slice entry the library provides for the variant and its arguments; `view` the element
    type the entry reads the tensors as, when that is not theirs (float32 copied as int32)."""
    entry = ctx.library_entry(ctx.variant.entries[0])
    if entry != ctx.variant.entries[0]:
        params.update(view="int32_t", instead=ctx.variant.entries[0], library=ctx.kernels.description)
    return Lowered(entry=entry, params=params)


@register
class StridedSlice(OpLowering):
    op_types = ("STRIDED_SLICE",)
    options_table = "StridedSliceOptions"
    variants = (
        Variant("int8", inputs=(data("int8"), const_ints("begin"), const_ints("end"), const_ints("strides")),
                outputs=(data("int8", "output"),), entries=("arm_strided_slice_s8",), template="strided_slice.c.j2",
                rules=_RULES),
        Variant("int16", inputs=(data("int16"), const_ints("begin"), const_ints("end"), const_ints("strides")),
                outputs=(data("int16", "output"),), entries=("arm_strided_slice_s16",), template="strided_slice.c.j2",
                rules=_RULES),
        Variant("float32", inputs=(fp32(), const_ints("begin"), const_ints("end"), const_ints("strides")),
                outputs=(fp32("output"),), entries=("arm_strided_slice_f32",), template="strided_slice.c.j2",
                rules=_RULES, fallbacks=FLOAT32_AS_WORDS),
        Variant("int32", inputs=(Operand("input", ("int32",)), const_ints("begin"), const_ints("end"),
                                 const_ints("strides")),
                outputs=(Operand("output", ("int32",)),), entries=("arm_strided_slice_s32",),
                template="strided_slice.c.j2", rules=_RULES, notes=("quantization ignored: values are copied",)),
        # -- float16 (native FP16) --
        float16_variant(inputs=(f16(), const_ints("begin"), const_ints("end"), const_ints("strides")),
                        outputs=(f16("output"),), entries=("arm_strided_slice_f16",), template="strided_slice.c.j2",
                        rules=_RULES),
    )

    def validate(self, ctx: OpContext) -> None:
        x, y = ctx.inp(0), ctx.out(0)
        if len(x.shape) > 4:
            raise ctx.error(RANK, x, detail=f"rank {len(x.shape)} input is not supported (up to 4)")
        axes = resolve(ctx)
        shape = [size for (_, size, _, shrink) in axes if not shrink]
        if list(y.shape) != shape:
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} does not match the slice {shape}")

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        axes = resolve(ctx)
        pad = 4 - len(axes)
        in_dims = [1] * pad + [int(d) for d in x.shape]
        begin = [0] * pad + [a[0] for a in axes]
        stride = [1] * pad + [a[2] for a in axes]
        out = [1] * pad + [a[1] for a in axes]
        return slice_params(ctx, input=x.index, output=y.index, input_dims=in_dims, begin=begin, stride=stride,
                            output_dims=out)

    # -- float16 (native FP16) --

    def lower_float16(self, ctx: OpContext) -> Lowered:
        """arm_strided_slice_f16: the same arguments as the integer entries."""
        return self.lower(ctx)

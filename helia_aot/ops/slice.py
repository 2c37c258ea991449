# SPDX-License-Identifier: Apache-2.0
"""SLICE: a box of the input (begin and size constant; size -1 runs to the end), every dtype LiteRT's
reference kernel takes, ranks 1 to 5.

int8, int16, float32 and int32 up to rank 4 call arm_strided_slice_s8 / _s16 / _f32 / _s32 with stride 1
(ranks below 4 padded on the left; float32 on _s32 where the library lacks _f32, as STRIDED_SLICE); rank 5 and uint8, int64, bool are the inline element gather. Codes are
copied, so integer outputs equal LiteRT's whatever the quantization."""

from __future__ import annotations

import numpy as np

from helia_aot.ops.base import Lowered, OpContext, OpLowering, Rule, Variant, both, litert, register
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE, constant_ints
from helia_aot.ops.shared.operands import const_ints
from helia_aot.ops.shared.shapes import nhwc, row_major_strides
from helia_aot.ops.shared.shaping import MOVABLE, data, dtype_variants, walk_params
from helia_aot.ops.strided_slice import FLOAT32_AS_WORDS, slice_params

_ENTRIES = {"int8": "arm_strided_slice_s8", "int16": "arm_strided_slice_s16", "float32": "arm_strided_slice_f32",
            "int32": "arm_strided_slice_s32"}
RANK = Rule("rank 1 to 5", both("slice.cc Prepare (LiteRT and micro)",
                                "NumDimensions(input) <= kMaxDim (5); TFLM: TFLITE_DCHECK the same"))
ENTRIES = Rule("begin and size hold one entry per input dimension", both(
    "slice.cc Prepare / ResizeOutputShape (LiteRT and micro)",
    "NumElements(begin) == NumElements(size) == NumDimensions(input)"))
BOX = Rule("0 <= begin, begin + size <= dimension (size -1: to the end)", litert(
    "slice.cc CalculateOutputShapeVector", "\"Invalid begin value\" / \"Invalid size\" (begin + size past the "
    "dimension, or a size below -1)", "copies from begin for size elements, before or past the input"))
_RULES = (RANK, ENTRIES, BOX, OUTPUT_SHAPE_RULE)


def _variant(dtype: str, entry: str | None) -> Variant:
    return Variant(dtype, inputs=(data(dtype), const_ints("begin"), const_ints("size")),
                   outputs=(data(dtype, "output"),),
                   entries=(entry,) if entry else (), template="strided_slice.c.j2" if entry else "gather_walk.c.j2",
                   rules=_RULES, notes=("begin and size constant",) + (("rank 5 is inline C",) if entry else ()),
                   fallbacks=FLOAT32_AS_WORDS if dtype == "float32" else ())


def box(ctx: OpContext) -> tuple[list[int], list[int]]:
    """(begin, size) per axis, size -1 resolved, as LiteRT's Slice computes them; refused when outside."""
    x = ctx.inp(0)
    rank = len(x.shape)
    begin = constant_ints(ctx, 1, "begin")
    size = constant_ints(ctx, 2, "size")
    if len(begin) != rank or len(size) != rank:
        raise ctx.error(ENTRIES, ctx.inp(1), detail=f"begin and size must have {rank} entries (the input's rank), "
                                                    f"have {len(begin)} and {len(size)}")
    sizes = []
    for d, (b, s) in enumerate(zip(begin, size)):
        n = int(x.shape[d])
        s = n - b if s == -1 else s
        if b < 0 or s < 0 or b + s > n:
            raise ctx.error(BOX, ctx.inp(2), detail=f"axis {d}: begin {b} and size {size[d]} leave the dimension of {n}")
        sizes.append(s)
    return begin, sizes


@register
class Slice(OpLowering):
    op_types = ("SLICE",)
    options_table = "SliceOptions"
    variants = dtype_variants(MOVABLE, _variant, _ENTRIES)

    def validate(self, ctx: OpContext) -> None:
        x, y = ctx.inp(0), ctx.out(0)
        if not 1 <= len(x.shape) <= 5:
            raise ctx.error(RANK, x, detail=f"rank {len(x.shape)} input is not supported (1 to 5, as LiteRT)")
        _, sizes = box(ctx)
        if list(y.shape) != sizes:
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} does not match the slice {sizes}")

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        begin, sizes = box(ctx)
        if y.num_elements == 0:
            return Lowered(template="copy_rows.c.j2", params=dict(copies=[]))
        entry = ctx.variant.entries[0] if ctx.variant.entries else None
        if entry is None or len(x.shape) > 4:
            strides = row_major_strides(x.shape)
            offset = sum(b * s for b, s in zip(begin, strides))
            return Lowered(template="gather_walk.c.j2", fixed={"implementation": "inline"},
                           params=walk_params(x, y, offset, strides, [None] * len(strides)))
        pad = 4 - len(x.shape)
        return slice_params(ctx, input=x.index, output=y.index, input_dims=nhwc(x.shape), begin=[0] * pad + begin,
                            stride=[1, 1, 1, 1], output_dims=nhwc(sizes))

    def fold(self, ctx: OpContext):
        begin, sizes = box(ctx)
        return [np.asarray(ctx.inp(0).data)[tuple(slice(b, b + s) for b, s in zip(begin, sizes))]]

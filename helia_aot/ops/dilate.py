# SPDX-License-Identifier: Apache-2.0
"""DILATE (LiteRT builtin, StableHLO-style interior padding), int8, int16 and float32, any rank: inline C
(no ns-cmsis-nn entry). Output dimension i is (input_i - 1) * dilation_i + 1; input element (j...) lands
at (j_i * dilation_i...), every other element is the padding value (input 2, a scalar of the input's
type, read at run time). Bytes are copied whatever the quantization parameters say, as LiteRT's kernel
does. The dilations must be constant int32 (the output shape depends on them)."""

from __future__ import annotations

import numpy as np

from helia_aot.emit.c_syntax import c_type
from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, Rule, Variant, litert, register
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE, constant_ints
from helia_aot.ops.shared.indexing import NOT_EMPTY, NOT_SCALAR
from helia_aot.ops.shared.operands import fp32
from helia_aot.ops.shared.spatial import check_shape, const_int32

# LiteRT's dilate.cc only (TFLM has no DILATE).
DILATIONS = Rule("dilations: one per input dimension, each >= 1", litert(
    "dilate.cc Prepare / SetupDilationParams", "NumElements(dilations) == NumDimensions(input) and every dilation "
    ">= 1 (\"Dilation must be strictly positive\")"))
ONE_VALUE = Rule("padding value: one element", litert(
    "dilate.cc Prepare", "the padding value tensor holds one element of the input's type"))
_RULES = (NOT_SCALAR, DILATIONS, ONE_VALUE, NOT_EMPTY, OUTPUT_SHAPE_RULE)


def _variant(dtype: str) -> Variant:
    operand = fp32 if dtype == "float32" else (lambda role, **kw: Operand(role, (dtype,), **kw))
    return Variant(dtype, inputs=(operand("input"), const_int32("dilations"), operand("padding_value")),
                   outputs=(operand("output"),), template="dilate.c.j2", rules=_RULES,
                   notes=("dilations constant int32",))


@register
class Dilate(OpLowering):
    op_types = ("DILATE",)
    options_table = None
    variants = (_variant("int8"), _variant("int16"), _variant("float32"))

    def _dilations(self, ctx: OpContext) -> list[int]:
        x, t = ctx.inp(0), ctx.inp(1)
        rank = len(x.shape)
        if rank < 1:
            raise ctx.error(NOT_SCALAR, x, detail="input must have at least one dimension")
        dilations = constant_ints(ctx, 1, "dilations")
        if tuple(t.shape) != (rank,) or len(dilations) != rank:
            raise ctx.error(DILATIONS, t, detail=f"dilations must be 1-D with {rank} values (one per input dimension), "
                                                 f"has shape {list(t.shape)}")
        if any(d < 1 for d in dilations):
            raise ctx.error(DILATIONS, t, detail=f"dilations {dilations} must be at least 1")
        return dilations

    def validate(self, ctx: OpContext) -> None:
        x, pad = ctx.inp(0), ctx.inp(2)
        dilations = self._dilations(ctx)
        if pad.num_elements != 1:
            raise ctx.error(ONE_VALUE, pad, detail=f"padding value must hold one element, has shape {list(pad.shape)}")
        check_shape(ctx, ctx.out(0), [(int(s) - 1) * d + 1 for s, d in zip(x.shape, dilations)], NOT_EMPTY)

    def lower(self, ctx: OpContext) -> Lowered:
        """Trailing dimensions with dilation 1 are contiguous in input and output: one block per copy
        (as LiteRT merges them); the others become loops with their input and output strides."""
        x, y = ctx.inp(0), ctx.out(0)
        shape = [int(s) for s in x.shape]
        dilations = self._dilations(ctx)
        out_shape = [(s - 1) * d + 1 for s, d in zip(shape, dilations)]
        kept = len(shape)
        while kept > 0 and dilations[kept - 1] == 1:
            kept -= 1
        block = int(np.prod(shape[kept:], dtype=np.int64))
        loops = []
        for k in range(kept):
            if shape[k] == 1:
                continue
            in_stride = int(np.prod(shape[k + 1:], dtype=np.int64))
            out_stride = int(np.prod(out_shape[k + 1:], dtype=np.int64)) * dilations[k]
            loops.append((shape[k], in_stride, out_stride))
        return Lowered(entry=None, fixed={"implementation": "inline"},
                       params=dict(input=x.index, pad=ctx.inp(2).index, output=y.index, ctype=c_type(y.dtype),
                                   count=int(np.prod(out_shape, dtype=np.int64)), block=block, loops=loops))

    def fold(self, ctx: OpContext):
        x, y = ctx.inp(0), ctx.out(0)
        dilations = self._dilations(ctx)
        out = np.full(tuple(int(d) for d in y.shape), np.asarray(ctx.inp(2).data).reshape(-1)[0],
                      dtype=np.asarray(x.data).dtype)
        out[tuple(slice(None, None, d) for d in dilations)] = np.asarray(x.data)
        return [out]

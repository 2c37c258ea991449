# SPDX-License-Identifier: Apache-2.0
"""CONCATENATION, int8 with one quantization for all tensors, via arm_concatenation_s8_x; int16 via
arm_concatenation_s16, codes copied as they are whatever the scales (LiteRT's and TFLM's Prepare check only
that int16 zero points are 0, and their kernels copy); float32 and int32 (plain integers, e.g. TFLM's audio
front end padding its energies) as inline C (memcpy of the same blocks).

Any axis is flattened to (outer rows) x (inner bytes): each input copies its inner block into every
row at a running offset, which is arm_concatenation_s8_x with input_y = rows.
"""

from __future__ import annotations

from helia_aot.emit.c_syntax import c_type
from helia_aot.ops.base import (Axis, Lowered, OpContext, OpLowering, Operand, Rule, Variant, kernel_limit, litert,
                                register)
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE, require_same_quant
from helia_aot.ops.shared.float_variants import float16_variant
from helia_aot.ops.shared.fused_activation import fused_activation
from helia_aot.ops.shared.operands import dtype_range, f16, fp32, int8_act, int16_act, is_float

SAME_QUANT = Rule("int8: all tensors share scale and zero point", litert(
    "concatenation.cc Prepare (int8)", "no re-scaling: TF_LITE_ENSURE_EQ(t->params.scale, "
    "output->params.scale) and the same for the zero point, for every input"))
NO_ACTIVATION = Rule("no fused activation (or one that clamps nothing)", litert(
    "concatenation.cc Prepare", "TF_LITE_ENSURE_EQ(params->activation, kTfLiteActNone)"))
SHAPES = Rule("inputs equal the output off the axis and add up to it on the axis", litert(
    "concatenation.cc Prepare", "TF_LITE_ENSURE_EQ(t->dims->data[d], t0->dims->data[d]) off the axis; the output "
    "is resized to the sum on the axis"))
BLOCK_16BIT = Rule("rows and inner block size below 2^16 (int8)", kernel_limit(
    "arm_concatenation_s8_x", "takes uint16_t sizes", "the inline-C row copy of the float32 variant"))
_RULES = (SAME_QUANT, NO_ACTIVATION, SHAPES, OUTPUT_SHAPE_RULE)


@register
class Concatenation(OpLowering):
    op_types = ("CONCATENATION",)
    options_table = "ConcatenationOptions"
    axes = (Axis("option axis", of="output 0"),)
    variants = (
        Variant("int8", inputs=(int8_act("inputs", repeated=True),), outputs=(int8_act("output"),),
                entries=("arm_concatenation_s8_x",), template="concatenation.c.j2", lower="lower_int8",
                rules=_RULES + (BLOCK_16BIT,)),
        Variant("int16", inputs=(int16_act("inputs", repeated=True),), outputs=(int16_act("output"),),
                entries=("arm_concatenation_s16",), template="concatenation_s16.c.j2", lower="lower_int16",
                rules=_RULES[1:], notes=("codes copied whatever the scales, as LiteRT and TFLM",)),
        Variant("float32", inputs=(fp32("inputs", repeated=True),), outputs=(fp32("output"),),
                template="concatenation_f32.c.j2", lower="lower_float32", rules=_RULES[1:], notes=("inline C",)),
        Variant("int32", inputs=(Operand("inputs", ("int32",), repeated=True),), outputs=(Operand("output", ("int32",)),),
                template="concatenation_f32.c.j2", lower="lower_float32",
                rules=_RULES[1:], notes=("quantization ignored: values are copied", "inline C")),
        # -- float16 (native FP16) --
        float16_variant(inputs=(f16("inputs", repeated=True),), outputs=(f16("output"),),
                        template="concatenation_f16.c.j2", rules=_RULES[1:], notes=("inline C: row copies",)),
    )

    def validate(self, ctx: OpContext) -> None:
        y = ctx.out(0)
        axis = int(ctx.options("axis", 0))
        rank = len(y.shape)
        if not -rank <= axis < rank:
            raise ctx.error(SHAPES, y, detail=f"axis {axis} is out of range for rank {rank}")
        axis %= rank
        total = 0
        for k in range(len(ctx.op.inputs)):
            x = ctx.inp(k)
            if y.dtype == "int8":
                require_same_quant(ctx, x, y, f"{ctx.variant.name} CONCATENATION", SAME_QUANT)
            if len(x.shape) != rank or any(x.shape[d] != y.shape[d] for d in range(rank) if d != axis):
                raise ctx.error(SHAPES, x, detail=f"input {k} shape {list(x.shape)} does not fit output "
                                                  f"{list(y.shape)} on axis {axis}")
            total += x.shape[axis]
        if total != y.shape[axis]:
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"inputs add up to {total} on axis {axis}, the output has "
                                                         f"{y.shape[axis]}")
        if (ctx.options("fused_activation_function", "NONE") != "NONE" if is_float(y) or y.dtype == "int32"
                else fused_activation(ctx, y) != dtype_range(y.dtype)):
            raise ctx.error(NO_ACTIVATION, y, detail="a fused activation on CONCATENATION is not supported")

    def lower_int8(self, ctx: OpContext) -> Lowered:
        y = ctx.out(0)
        axis = int(ctx.options("axis", 0)) % len(y.shape)
        rows = 1
        for d in y.shape[:axis]:
            rows *= int(d)
        out_inner = y.num_elements // max(rows, 1)
        if rows > 0xFFFF or out_inner > 0xFFFF:
            raise ctx.error(BLOCK_16BIT, y, detail=f"concatenation block {rows} x {out_inner} exceeds the kernel's "
                                                   "16-bit sizes")
        parts, offset = [], 0
        for k in range(len(ctx.op.inputs)):
            x = ctx.inp(k)
            inner = x.num_elements // max(rows, 1)
            parts.append(dict(input=x.index, inner=inner, offset=offset))
            offset += inner
        return Lowered(entry="arm_concatenation_s8_x",
                       params=dict(parts=parts, rows=rows, output_inner=out_inner, output=y.index))

    def lower_int16(self, ctx: OpContext) -> Lowered:
        """arm_concatenation_s16: the inputs' pointers and their sizes along the axis, the output shape."""
        y = ctx.out(0)
        axis = int(ctx.options("axis", 0)) % len(y.shape)
        inputs = [ctx.inp(k) for k in range(len(ctx.op.inputs))]
        return Lowered(entry="arm_concatenation_s16",
                       params=dict(inputs=[x.index for x in inputs], concat_dims=[int(x.shape[axis]) for x in inputs],
                                   axis=axis, output=y.index, output_shape=[int(d) for d in y.shape]))

    def lower_float32(self, ctx: OpContext) -> Lowered:
        """Any axis as (outer rows) x (inner elements), as the int8 path: no float entry is called. int32 too
        (4-byte elements as well)."""
        y = ctx.out(0)
        axis = int(ctx.options("axis", 0)) % len(y.shape)
        rows = 1
        for d in y.shape[:axis]:
            rows *= int(d)
        parts, offset = [], 0
        for k in range(len(ctx.op.inputs)):
            x = ctx.inp(k)
            inner = x.num_elements // max(rows, 1)
            parts.append(dict(input=x.index, inner=inner, offset=offset))
            offset += inner
        return Lowered(entry=None, fixed={"implementation": "inline"},
                       params=dict(parts=parts, rows=rows, output_inner=y.num_elements // max(rows, 1),
                                   output=y.index, ctype=c_type(y.dtype)))

    # -- float16 (native FP16) --

    def lower_float16(self, ctx: OpContext) -> Lowered:
        """The same row copies as float32 (the portable kernels have no arm_concatenation_f16_x, and a copy
        needs no kernel)."""
        return self.lower_float32(ctx)

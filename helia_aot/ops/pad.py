# SPDX-License-Identifier: Apache-2.0
"""PAD (and PADV2 with an explicit value), int8, int16 and float32 up to rank 4, lowered to arm_pad_s8 /
arm_pad_s16 / arm_pad_f32. Codes are copied whatever the quantization says and the padding is the output's
zero point (or PADV2's value), as LiteRT's pad.cc does: input and output need not share quantization."""

from __future__ import annotations

import numpy as np

from helia_aot.emit.c_syntax import c_float, c_type
from helia_aot.ops.base import (Lowered, OpContext, OpLowering, Operand, Rule, Variant, both, kernel_limit, litert,
                                register)
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE, constant_ints
from helia_aot.ops.shared.float_variants import float16_variant
from helia_aot.ops.shared.fused_activation import f16_literal
from helia_aot.ops.shared.operands import const_ints, f16, fp32
from helia_aot.ops.shared.shapes import nhwc
from helia_aot.ops.shared.shaping import data

PADDINGS_SHAPE = Rule("paddings [rank, 2]", both(
    "pad.cc ValidatePaddingsShape / micro pad_common.cc PadPrepare",
    "paddings is a [NumDimensions(input), 2] matrix (TFLM: its flat size is 2 x rank)"))
RANK = Rule("rank <= 4", kernel_limit(
    "arm_pad_s8 / _s16 / _f32 / _f16", "take 4-D dims; LiteRT's and TFLM's pad run rank 5 (PadKernelMaxDimensionCount)",
    "an inline-C pad over rank 5"))
NON_NEGATIVE = Rule("non-negative paddings", litert(
    "pad.cc GetPadParams", "left and right padding >= 0 (\"Pad value has to be greater than equal to 0\")"))
ONE_VALUE = Rule("PADV2 constant value: one element", both(
    "pad.cc ValidateConstantValuesShape / micro pad_common.cc PadPrepare", "NumElements(constant_values) == 1"))
VALUE_QUANT = Rule("PADV2 integer constant value quantized as the output (scale and zero point)", litert(
    "pad.cc EvalInt", "TF_LITE_ENSURE_EQ of output and constant_values params.zero_point and params.scale",
    "checks int8 alone (pad_common.cc PadPrepare): int16 is padded with the value's code, disregarding its scale"))
_RULES = (PADDINGS_SHAPE, RANK, NON_NEGATIVE, ONE_VALUE, OUTPUT_SHAPE_RULE)
_INT_RULES = _RULES + (VALUE_QUANT,)


def _quant_text(quant) -> str:
    return "none" if quant is None else f"{float(quant.scale):g}/{quant.zero_point}"


@register
class Pad(OpLowering):
    op_types = ("PAD", "PADV2")
    options_table = {"PAD": "PadOptions", "PADV2": "PadV2Options"}
    variants = (
        Variant("int8", inputs=(data("int8"), const_ints("paddings"),
                                Operand("constant value", ("int8",), optional=True, constant=True)),
                outputs=(data("int8", "output"),), entries=("arm_pad_s8",), template="pad.c.j2", rules=_INT_RULES),
        Variant("int16", inputs=(data("int16"), const_ints("paddings"),
                                 Operand("constant value", ("int16",), optional=True, constant=True)),
                outputs=(data("int16", "output"),), entries=("arm_pad_s16",), template="pad.c.j2", rules=_INT_RULES),
        Variant("float32", inputs=(fp32(), const_ints("paddings"),
                                   Operand("constant value", ("float32",), optional=True, constant=True)),
                outputs=(fp32("output"),), entries=("arm_pad_f32",), template="pad.c.j2", rules=_RULES),
        # -- float16 (native FP16) --
        float16_variant(inputs=(f16(), const_ints("paddings"), f16("constant value", optional=True, constant=True)),
                        outputs=(f16("output"),), entries=("arm_pad_f16",), template="pad.c.j2",
                        rules=_RULES, notes=("PAD fills with 0, PADV2 with its value",)),
    )

    def validate(self, ctx: OpContext) -> None:
        x, y = ctx.inp(0), ctx.out(0)
        pads = constant_ints(ctx, 1, "paddings")
        rank = len(x.shape)
        if tuple(ctx.inp(1).shape) != (rank, 2):
            raise ctx.error(PADDINGS_SHAPE, ctx.inp(1), detail=f"paddings must be [{rank}, 2] for a rank-{rank} input, "
                                                               f"has shape {list(ctx.inp(1).shape)}")
        if rank > 4:
            raise ctx.error(RANK, x, detail=f"rank {rank} input is not supported (up to 4)")
        if any(p < 0 for p in pads):
            raise ctx.error(NON_NEGATIVE, ctx.inp(1), detail=f"negative paddings {pads} are not supported")
        expected = tuple(x.shape[d] + pads[2 * d] + pads[2 * d + 1] for d in range(rank))
        if tuple(y.shape) != expected:
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output shape {list(y.shape)} does not match the padded "
                                                         f"{list(expected)}")
        value = ctx.inp(2) if ctx.op.op_type == "PADV2" else None
        if value is not None:
            if value.num_elements != 1:
                raise ctx.error(ONE_VALUE, value, detail=f"constant value holds {value.num_elements} elements, not one")
            if ctx.variant.name in ("int8", "int16") and x.quant is not None:
                theirs, ours = value.quant, y.quant
                if theirs is None or ours is None or theirs.zero_point != ours.zero_point or \
                        float(theirs.scale) != float(ours.scale):
                    raise ctx.error(VALUE_QUANT, value, detail=f"constant value quantization "
                                    f"{_quant_text(theirs)} differs from the output's {_quant_text(ours)}")
            self._value(ctx)

    def _value(self, ctx: OpContext):
        """The pad value: PADV2's constant (codes, or a float for the float variants), else the output's
        zero; a float16 value as a float16_t literal."""
        name = ctx.variant.name
        if name in ("float32", "float16"):
            value = 0.0
            if ctx.op.op_type == "PADV2" and ctx.inp(2) is not None:
                t = ctx.inp(2)
                if not t.is_constant:
                    raise ctx.error("constant value (input 2) must be a constant tensor", t)
                value = float(np.asarray(t.data).reshape(-1)[0])
            return f16_literal(value) if name == "float16" else c_float(value)
        if ctx.op.op_type == "PADV2" and ctx.inp(2) is not None:
            return constant_ints(ctx, 2, "constant value")[0]
        return ctx.out(0).quant.zero_point if ctx.out(0).quant is not None else 0

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        pads = constant_ints(ctx, 1, "paddings")
        rank = len(x.shape)
        before = [0] * (4 - rank) + [pads[2 * d] for d in range(rank)]
        after = [0] * (4 - rank) + [pads[2 * d + 1] for d in range(rank)]
        value = self._value(ctx)
        return Lowered(entry=ctx.variant.entries[0],
                       params=dict(input=x.index, output=y.index, ctype=c_type(y.dtype), input_dims=nhwc(x.shape),
                                   before=before, after=after, value=value))

    # -- float16 (native FP16) --

    def lower_float16(self, ctx: OpContext) -> Lowered:
        """arm_pad_f16 with 0, or PADV2's constant value (a float16 literal)."""
        return self.lower(ctx)

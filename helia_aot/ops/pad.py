# SPDX-License-Identifier: Apache-2.0
"""PAD (and PADV2 with an explicit value), int8 and int16 up to rank 4, lowered to arm_pad_s8 / arm_pad_s16."""

from __future__ import annotations

import numpy as np

from ..codegen import c_type
from .base import Lowered, OpContext, OpLowering, Operand, Variant, register
from .common import const_ints, constant_ints, f16, f16_literal, float16_variant, int8_act, int16_act, nhwc, \
    require_same_quant


_RULES = ("rank <= 4", "non-negative paddings", "input and output share scale and zero point")


@register
class Pad(OpLowering):
    op_types = ("PAD", "PADV2")
    variants = (
        Variant("int8", inputs=(int8_act(), const_ints("paddings"),
                                Operand("constant value", ("int8",), optional=True, constant=True)),
                outputs=(int8_act("output"),), entries=("arm_pad_s8",), template="pad.c.j2",
                notes=_RULES),
        Variant("int16", inputs=(int16_act(), const_ints("paddings"),
                                 Operand("constant value", ("int16",), optional=True, constant=True)),
                outputs=(int16_act("output"),), entries=("arm_pad_s16",), template="pad.c.j2", notes=_RULES),
        # -- float16 (native FP16) --
        float16_variant(inputs=(f16(), const_ints("paddings"), f16("constant value", optional=True, constant=True)),
                        outputs=(f16("output"),), entries=("arm_pad_f16",), template="pad.c.j2",
                        notes=_RULES[:2] + ("PAD fills with 0, PADV2 with its value",)),
    )

    def validate(self, ctx: OpContext) -> None:
        x, y = ctx.inp(0), ctx.out(0)
        require_same_quant(ctx, x, y, f"{ctx.variant.name} PAD")
        pads = constant_ints(ctx, 1, "paddings")
        rank = len(x.shape)
        if rank > 4 or len(pads) != 2 * rank:
            raise ctx.error(f"paddings must be [{rank}, 2] for a rank-{rank} input up to rank 4", ctx.inp(1))
        if any(p < 0 for p in pads):
            raise ctx.error("negative paddings are not supported", ctx.inp(1))
        expected = tuple(x.shape[d] + pads[2 * d] + pads[2 * d + 1] for d in range(rank))
        if tuple(y.shape) != expected:
            raise ctx.error(f"output shape {list(y.shape)} does not match the padded {list(expected)}", y)
        if ctx.op.op_type == "PADV2" and ctx.inp(2) is not None and ctx.variant.name != "float16":
            constant_ints(ctx, 2, "constant value")

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        pads = constant_ints(ctx, 1, "paddings")
        rank = len(x.shape)
        before = [0] * (4 - rank) + [pads[2 * d] for d in range(rank)]
        after = [0] * (4 - rank) + [pads[2 * d + 1] for d in range(rank)]
        value = y.quant.zero_point
        if ctx.op.op_type == "PADV2" and ctx.inp(2) is not None:
            value = constant_ints(ctx, 2, "constant value")[0]
        return Lowered(entry=ctx.variant.entries[0],
                       params=dict(input=x.index, output=y.index, ctype=c_type(y.dtype), input_dims=nhwc(x.shape),
                                   before=before, after=after, value=value))

    # -- float16 (native FP16) --

    def lower_float16(self, ctx: OpContext) -> Lowered:
        """arm_pad_f16 with 0, or PADV2's constant value (a float16 literal)."""
        x, y = ctx.inp(0), ctx.out(0)
        pads = constant_ints(ctx, 1, "paddings")
        rank = len(x.shape)
        value = 0.0
        if ctx.op.op_type == "PADV2" and ctx.inp(2) is not None:
            value = float(np.asarray(ctx.inp(2).data, dtype=np.float16).reshape(-1)[0])
        return Lowered(entry="arm_pad_f16",
                       params=dict(input=x.index, output=y.index, ctype="float16_t", input_dims=nhwc(x.shape),
                                   before=[0] * (4 - rank) + [pads[2 * d] for d in range(rank)],
                                   after=[0] * (4 - rank) + [pads[2 * d + 1] for d in range(rank)],
                                   value=f16_literal(value)))

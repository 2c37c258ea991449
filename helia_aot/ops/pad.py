# SPDX-License-Identifier: Apache-2.0
"""PAD (and PADV2 with an explicit value), int8, int16 and float32 up to rank 4, lowered to arm_pad_s8 /
arm_pad_s16 / arm_pad_f32."""

from __future__ import annotations

import numpy as np

from helia_aot.emit.c_syntax import c_float, c_type
from helia_aot.ops.base import Lowered, OpContext, OpLowering, Operand, Variant, register
from helia_aot.ops.shared.checks import constant_ints, require_same_quant
from helia_aot.ops.shared.float_variants import float16_variant
from helia_aot.ops.shared.fused_activation import f16_literal
from helia_aot.ops.shared.operands import const_ints, f16, fp32, int8_act, int16_act, is_float
from helia_aot.ops.shared.shapes import nhwc


_RULES = ("rank <= 4", "non-negative paddings", "input and output share scale and zero point")


@register
class Pad(OpLowering):
    op_types = ("PAD", "PADV2")
    options_table = {"PAD": "PadOptions", "PADV2": "PadV2Options"}
    variants = (
        Variant("int8", inputs=(int8_act(), const_ints("paddings"),
                                Operand("constant value", ("int8",), optional=True, constant=True)),
                outputs=(int8_act("output"),), entries=("arm_pad_s8",), template="pad.c.j2",
                notes=_RULES),
        Variant("int16", inputs=(int16_act(), const_ints("paddings"),
                                 Operand("constant value", ("int16",), optional=True, constant=True)),
                outputs=(int16_act("output"),), entries=("arm_pad_s16",), template="pad.c.j2", notes=_RULES),
        Variant("float32", inputs=(fp32(), const_ints("paddings"),
                                   Operand("constant value", ("float32",), optional=True, constant=True)),
                outputs=(fp32("output"),), entries=("arm_pad_f32",), template="pad.c.j2", notes=_RULES[:2]),
        # -- float16 (native FP16) --
        float16_variant(inputs=(f16(), const_ints("paddings"), f16("constant value", optional=True, constant=True)),
                        outputs=(f16("output"),), entries=("arm_pad_f16",), template="pad.c.j2",
                        notes=_RULES[:2] + ("PAD fills with 0, PADV2 with its value",)),
    )

    def validate(self, ctx: OpContext) -> None:
        x, y = ctx.inp(0), ctx.out(0)
        if not is_float(x):
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
        if ctx.op.op_type == "PADV2" and ctx.inp(2) is not None:
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
        return ctx.out(0).quant.zero_point

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

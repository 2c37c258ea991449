# SPDX-License-Identifier: Apache-2.0
"""ASSIGN_VARIABLE: copies its value into a resource variable (in the persistent arena, so the next
run reads it). The resources stage (helia_aot/frontend/resources.py) has replaced the handle input by the
variable's own tensor. No outputs."""

from __future__ import annotations

from helia_aot.ops.base import ANY, Lowered, OpContext, OpLowering, Operand, Variant, register
from helia_aot.ops.read_variable import VARIABLE_RULES, check_variable_copy


@register
class AssignVariable(OpLowering):
    op_types = ("ASSIGN_VARIABLE",)
    options_table = "AssignVariableOptions"
    keeps_state = True
    variants = (
        Variant("any", inputs=(Operand("variable", ANY), Operand("value", ANY)), outputs=(),
                template="copy_bytes.c.j2", rules=VARIABLE_RULES,
                notes=("the variable (resource) and the value have one dtype and element count",
                       "codes copied as they are")),
    )

    def validate(self, ctx: OpContext) -> None:
        check_variable_copy(ctx, ctx.inp(0), ctx.inp(1))

    def lower(self, ctx: OpContext) -> Lowered:
        value = ctx.inp(1)
        return Lowered(params={"copies": [dict(dst=ctx.inp(0).index, src=value.index, bytes=value.nbytes)]})
